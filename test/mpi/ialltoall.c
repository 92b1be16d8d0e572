/* MPI_Ialltoall under gridcoll, on request arrays that mix it with the application's own:
 * every receive buffer must equal PMPI_Alltoall's byte for byte (gaps of derived types
 * included), in place too.
 *
 * For every communicator (mpitest.h), datatype pair and mode:
 *   wait      one MPI_Ialltoall, MPI_Wait;
 *   waitall   MPI_Waitall on [a ring receive, the all-to-all, an MPI_Ibcast, a ring send];
 *   waitany   two all-to-alls in flight with a blocking MPI_Alltoall and MPI_Bcast
 *             between post and wait, then MPI_Waitany;
 *   testsome  MPI_Testsome until done, the derived types freed right after the post;
 *   inplace   MPI_IN_PLACE, MPI_Wait;
 *   persistent (MPI 4) MPI_Alltoall_init once, its derived types freed right after, then
 *             three rounds of new data, each started with MPI_Startall beside a
 *             persistent ring send and receive (MPI_Start alone the last time); with one
 *             type, a second one in place, started three times too.
 * `ialltoall [quick [BYTES]]`: the world alone, and BYTES (default 5000) for the type case
 * of bytes. Rank 0 says how many calls it made of each (its log has one line per call, per
 * MPI_Start of a schedule: test/mpi/nonblocking.sh counts them). */
#include "mpitest.h"

enum { WAIT, WAITALL, WAITANY, TESTSOME, INPLACE, PERSISTENT, MODES };
static const char *mode_names[MODES] = {"wait",    "waitall", "waitany",
                                        "testsome", "inplace", "persistent"};

static void fill(unsigned char *b, size_t bytes, int me, int seed)
{
  fill_pattern(b, bytes, seed * 977 + me);
}

static int is_named(MPI_Datatype t)
{
  int ni, na, nt, combiner;
  MPI_Type_get_envelope(t, &ni, &na, &nt, &combiner);
  return combiner == MPI_COMBINER_NAMED;
}

static int ialltoalls, ibcasts, inits, starts; /* this rank's calls (rank 0 reports its own) */

#if MPI_VERSION >= 4
/* PERSISTENT: one init, rounds of new data against PMPI_Alltoall; in place too. */
static int persistent(MPI_Comm comm, const struct type_case *tc, int seed, unsigned char *sb,
                      unsigned char *rb, unsigned char *ref, size_t sbytes, size_t rbytes)
{
  int me, n, bad = 0, in = -1, out;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  MPI_Datatype st = tc->send, rt = tc->recv;
  if (!is_named(st))
    MPI_Type_dup(tc->send, &st);
  if (!is_named(rt))
    MPI_Type_dup(tc->recv, &rt);
  MPI_Request r[3];
  MPI_Alltoall_init(sb, tc->scount, st, rb, tc->rcount, rt, comm, MPI_INFO_NULL, &r[1]), inits++;
  if (st != tc->send)
    MPI_Type_free(&st);
  if (rt != tc->recv)
    MPI_Type_free(&rt);
  MPI_Recv_init(&in, 1, MPI_INT, (me + n - 1) % n, 7, comm, &r[0]);
  MPI_Send_init(&out, 1, MPI_INT, (me + 1) % n, 7, comm, &r[2]);
  for (int round = 0; round < 3; round++) {
    fill(sb, sbytes, me, seed + 10 * round);
    memset(ref, SENTINEL, rbytes + 1), memset(rb, SENTINEL, rbytes + 1);
    PMPI_Alltoall(sb, tc->scount, tc->send, ref, tc->rcount, tc->recv, comm);
    out = 1000 * me + 7, in = -1;
    if (round < 2) {
      MPI_Status s3[3];
      MPI_Startall(3, r), starts++;
      MPI_Waitall(3, r, s3);
      bad |= in != 1000 * ((me + n - 1) % n) + 7;
    } else {
      MPI_Start(&r[1]), starts++;
      MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    }
    bad |= r[1] == MPI_REQUEST_NULL; /* persistent: inactive, not freed */
    bad |= memcmp(rb, ref, rbytes + 1) != 0;
  }
  for (int i = 0; i < 3; i++)
    MPI_Request_free(&r[i]);
  if (tc->send != tc->recv)
    return bad;
  MPI_Alltoall_init(MPI_IN_PLACE, tc->scount, tc->send, rb, tc->rcount, tc->recv, comm,
                    MPI_INFO_NULL, &r[0]), inits++;
  for (int round = 0; round < 3; round++) { /* three starts each: nonblocking.sh counts */
    memset(ref, SENTINEL, rbytes + 1), memset(rb, SENTINEL, rbytes + 1);
    fill(ref, rbytes, me, seed + 5 * round), fill(rb, rbytes, me, seed + 5 * round);
    PMPI_Alltoall(MPI_IN_PLACE, tc->scount, tc->send, ref, tc->rcount, tc->recv, comm);
    MPI_Start(&r[0]), starts++;
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    bad |= memcmp(rb, ref, rbytes + 1) != 0;
  }
  MPI_Request_free(&r[0]);
  return bad;
}
#endif

static int check(MPI_Comm comm, const struct type_case *tc, int mode, int seed)
{
  int me, n, bad = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  if (mode == INPLACE && tc->send != tc->recv)
    return 0; /* in place takes one type */
#if MPI_VERSION < 4
  if (mode == PERSISTENT)
    return 0;
#endif
  MPI_Aint lb, sext, rext;
  MPI_Type_get_extent(tc->send, &lb, &sext);
  MPI_Type_get_extent(tc->recv, &lb, &rext);
  size_t sbytes = span(tc->send, (long)tc->scount * n), rbytes = span(tc->recv, (long)tc->rcount * n);
  unsigned char *sb = malloc(sbytes + 1), *rb = malloc(rbytes + 1), *ref = malloc(rbytes + 1);
  unsigned char *sb2 = malloc(sbytes + 1), *rb2 = malloc(rbytes + 1), *ref2 = malloc(rbytes + 1);
  fill(sb, sbytes, me, seed), fill(sb2, sbytes, me, seed + 1);
  memset(ref, SENTINEL, rbytes + 1), memset(ref2, SENTINEL, rbytes + 1);
  if (mode == INPLACE)
    fill(ref, rbytes, me, seed);
  PMPI_Alltoall(mode == INPLACE ? MPI_IN_PLACE : sb, tc->scount, tc->send, ref, tc->rcount,
                tc->recv, comm);
  PMPI_Alltoall(sb2, tc->scount, tc->send, ref2, tc->rcount, tc->recv, comm);
  memset(rb, SENTINEL, rbytes + 1), memset(rb2, SENTINEL, rbytes + 1);
  if (mode == INPLACE)
    fill(rb, rbytes, me, seed);
  MPI_Request r[4];
  int in = -1, out = 1000 * me + 7, v = me == 0 ? 42 : 0;
  MPI_Datatype st = tc->send, rt = tc->recv;
  switch (mode) {
#if MPI_VERSION >= 4
  case PERSISTENT:
    bad |= persistent(comm, tc, seed, sb, rb, ref, sbytes, rbytes);
    memcpy(ref, rb, rbytes + 1); /* compared there, round by round */
    break;
#endif
  case WAIT:
  case INPLACE:
    MPI_Ialltoall(mode == INPLACE ? MPI_IN_PLACE : sb, tc->scount, st, rb, tc->rcount, rt, comm, &r[0]), ialltoalls++;
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    break;
  case WAITALL: {
    MPI_Status s4[4];
    MPI_Irecv(&in, 1, MPI_INT, (me + n - 1) % n, 7, comm, &r[0]);
    MPI_Ialltoall(sb, tc->scount, st, rb, tc->rcount, rt, comm, &r[1]), ialltoalls++;
    MPI_Ibcast(&v, 1, MPI_INT, 0, comm, &r[2]), ibcasts++;
    MPI_Isend(&out, 1, MPI_INT, (me + 1) % n, 7, comm, &r[3]);
    MPI_Waitall(4, r, s4);
    bad |= in != 1000 * ((me + n - 1) % n) + 7 || v != 42;
    break;
  }
  case WAITANY: {
    MPI_Ialltoall(sb, tc->scount, st, rb, tc->rcount, rt, comm, &r[0]), ialltoalls++;
    MPI_Irecv(&in, 1, MPI_INT, (me + n - 1) % n, 7, comm, &r[1]);
    MPI_Ialltoall(sb2, tc->scount, st, rb2, tc->rcount, rt, comm, &r[2]), ialltoalls++;
    MPI_Isend(&out, 1, MPI_INT, (me + 1) % n, 7, comm, &r[3]);
    int *a = malloc(sizeof(int) * (size_t)n), *b = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
      a[i] = me * n + i;
    MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, comm);
    for (int i = 0; i < n; i++)
      bad |= b[i] != i * n + me;
    MPI_Bcast(&v, 1, MPI_INT, 0, comm);
    bad |= v != 42;
    free(a), free(b);
    for (int left = 4; left > 0; left--) {
      int idx;
      MPI_Waitany(4, r, &idx, MPI_STATUS_IGNORE);
      bad |= idx == MPI_UNDEFINED;
    }
    bad |= in != 1000 * ((me + n - 1) % n) + 7 || memcmp(rb2, ref2, rbytes + 1) != 0;
    break;
  }
  case TESTSOME: {
    if (!is_named(st))
      MPI_Type_dup(tc->send, &st);
    if (!is_named(rt))
      MPI_Type_dup(tc->recv, &rt);
    MPI_Irecv(&in, 1, MPI_INT, (me + n - 1) % n, 7, comm, &r[1]);
    MPI_Ialltoall(sb, tc->scount, st, rb, tc->rcount, rt, comm, &r[0]), ialltoalls++;
    MPI_Isend(&out, 1, MPI_INT, (me + 1) % n, 7, comm, &r[2]);
    if (st != tc->send)
      MPI_Type_free(&st);
    if (rt != tc->recv)
      MPI_Type_free(&rt);
    for (int done = 0; done < 3;) {
      int outcount, idx[3];
      MPI_Status s3[3];
      MPI_Testsome(3, r, &outcount, idx, s3);
      done += outcount == MPI_UNDEFINED ? 3 : outcount;
    }
    bad |= in != 1000 * ((me + n - 1) % n) + 7;
    break;
  }
  }
  bad |= memcmp(rb, ref, rbytes + 1) != 0;
  free(sb), free(rb), free(ref), free(sb2), free(rb2), free(ref2);
  return bad;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  struct type_case tc[8];
  int ntc = make_type_cases(tc, argc > 2 ? atoi(argv[2]) : 5000);
  MPI_Comm comms[4];
  const char *cnames[4] = {"world"};
  int ncomms = quick_mode(argc, argv) ? 1 : make_comms(comms, cnames);
  comms[0] = MPI_COMM_WORLD;
  for (int c = 1; c < ncomms; c++)
    nb_ready(comms[c]);
  int failed = 0, checks = 0;
  for (int c = 0; c < ncomms; c++)
    for (int t = 0; t < ntc; t++)
      for (int m = 0; m < MODES; m++) {
        char name[160];
        snprintf(name, sizeof name, "ialltoall %s %s %s", mode_names[m], cnames[c], tc[t].name);
        failed += verdict(name, check(comms[c], &tc[t], m, 31 * t + 7 * m + c));
        checks++;
      }
  free_type_cases(tc, ntc);
  if (ncomms > 1)
    free_comms(comms, ncomms);
  failed = total_failures(failed);
  if (rank == 0)
    printf("ialltoall: %d checks, %d failed\nialltoall: rank 0 made %d MPI_Ialltoall, %d MPI_Ibcast\n"
           "ialltoall: rank 0 made %d MPI_Alltoall_init, %d MPI_Start\n",
           checks, failed, ialltoalls, ibcasts, inits, starts);
  MPI_Finalize();
  return failed != 0;
}
