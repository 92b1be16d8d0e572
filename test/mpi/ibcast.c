/* MPI_Ibcast under gridcoll, on request arrays that mix it with the application's own:
 * every buffer must equal PMPI_Bcast's byte for byte, and the application's messages
 * must arrive untouched.
 *
 * For every communicator (mpitest.h), root and datatype:
 *   wait      one MPI_Ibcast, MPI_Wait;
 *   waitall   MPI_Waitall on [a ring receive, the broadcast, a ring send];
 *   waitany   two broadcasts from different roots in flight, with a blocking MPI_Bcast
 *             and MPI_Alltoall (and their own algorithms) called between post and wait,
 *             then MPI_Waitany on [broadcast, ring receive, broadcast, ring send];
 *   testsome  MPI_Testsome until done, after MPI_Request_get_status polling, with the
 *             broadcast's derived datatype freed right after the post;
 *   persistent (MPI 4) MPI_Bcast_init once, then three rounds of new data, each started
 *             with MPI_Startall beside a persistent ring send and receive and waited with
 *             MPI_Waitall (MPI_Start and MPI_Wait alone in the last), then
 *             MPI_Request_free; left out where the library is older than MPI 4 (Open MPI
 *             4.1 is MPI 3.1), where a mode that ran nothing would compare an unset buffer.
 * Rank 0 says how many calls it made of each (its log has one line per MPI_Ibcast and,
 * where gridcoll runs it, per MPI_Start: test/mpi/nonblocking.sh counts them). */
#include "mpitest.h"

#if MPI_VERSION >= 4
enum { WAIT, WAITALL, WAITANY, TESTSOME, PERSISTENT, MODES };
static const char *mode_names[MODES] = {"wait", "waitall", "waitany", "testsome", "persistent"};
#else
enum { WAIT, WAITALL, WAITANY, TESTSOME, MODES };
static const char *mode_names[MODES] = {"wait", "waitall", "waitany", "testsome"};
#endif

static int rank, size;
static int ibcasts, inits, starts; /* this rank's calls (rank 0 reports its own) */

/* The reference: PMPI_Bcast of the same pattern. */
static void reference(MPI_Comm comm, const struct type_case *tc, int root, int seed,
                      unsigned char *ref, size_t bytes)
{
  int me;
  MPI_Comm_rank(comm, &me);
  memset(ref, SENTINEL, bytes);
  if (me == root)
    fill_pattern(ref, bytes, seed);
  PMPI_Bcast(ref, tc->scount, tc->send, root, comm);
}

static unsigned char *prepare(MPI_Comm comm, int root, int seed, size_t bytes)
{
  int me;
  MPI_Comm_rank(comm, &me);
  unsigned char *b = malloc(bytes + 1);
  memset(b, SENTINEL, bytes + 1);
  if (me == root)
    fill_pattern(b, bytes, seed);
  return b;
}

/* Ring messages on the application's communicator, tag 7: they must not be touched. */
static void ring(MPI_Comm comm, int *in, int *out, MPI_Request *recv, MPI_Request *send)
{
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  *out = 1000 * me + 7, *in = -1;
  MPI_Irecv(in, 1, MPI_INT, (me + n - 1) % n, 7, comm, recv);
  MPI_Isend(out, 1, MPI_INT, (me + 1) % n, 7, comm, send);
}

static int ring_ok(MPI_Comm comm, int in)
{
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  return in == 1000 * ((me + n - 1) % n) + 7;
}

static int check(MPI_Comm comm, const struct type_case *tc, int root, int mode, int seed)
{
  int n, bad = 0, in, out;
  MPI_Comm_size(comm, &n);
  size_t bytes = span(tc->send, tc->scount);
  unsigned char *ref = malloc(bytes + 1), *ref2 = malloc(bytes + 1);
  unsigned char *buf = prepare(comm, root, seed, bytes);
  int root2 = (root + 1) % n;
  unsigned char *buf2 = prepare(comm, root2, seed + 1, bytes);
  reference(comm, tc, root, seed, ref, bytes);
  reference(comm, tc, root2, seed + 1, ref2, bytes);
  MPI_Request r[4];
  MPI_Datatype type = tc->send;
  switch (mode) {
  case WAIT:
    MPI_Ibcast(buf, tc->scount, type, root, comm, &r[0]), ibcasts++;
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    bad |= r[0] != MPI_REQUEST_NULL;
    break;
  case WAITALL: {
    MPI_Status st[3];
    ring(comm, &in, &out, &r[0], &r[2]);
    MPI_Ibcast(buf, tc->scount, type, root, comm, &r[1]), ibcasts++;
    MPI_Waitall(3, r, st);
    bad |= !ring_ok(comm, in) || st[0].MPI_TAG != 7;
    break;
  }
  case WAITANY: {
    MPI_Ibcast(buf, tc->scount, type, root, comm, &r[0]), ibcasts++;
    ring(comm, &in, &out, &r[1], &r[3]);
    MPI_Ibcast(buf2, tc->scount, type, root2, comm, &r[2]), ibcasts++;
    /* Blocking collectives between the posts and the waits (matched in issue order). */
    int me, v = 0, *a = malloc(sizeof(int) * (size_t)n), *b = malloc(sizeof(int) * (size_t)n);
    MPI_Comm_rank(comm, &me);
    if (me == root2)
      v = 99;
    MPI_Bcast(&v, 1, MPI_INT, root2, comm);
    for (int i = 0; i < n; i++)
      a[i] = me * n + i;
    MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, comm);
    for (int i = 0; i < n; i++)
      bad |= b[i] != i * n + me;
    bad |= v != 99;
    free(a), free(b);
    for (int left = 4; left > 0; left--) {
      int idx;
      MPI_Status st;
      MPI_Waitany(4, r, &idx, &st);
      bad |= idx == MPI_UNDEFINED;
      if (idx == 1)
        bad |= st.MPI_TAG != 7;
    }
    bad |= !ring_ok(comm, in) || memcmp(buf2, ref2, bytes) != 0 || buf2[bytes] != SENTINEL;
    break;
  }
  case TESTSOME: {
    if (type != MPI_INT && type != MPI_DOUBLE && type != MPI_BYTE)
      MPI_Type_dup(tc->send, &type);
    ring(comm, &in, &out, &r[1], &r[2]);
    MPI_Ibcast(buf, tc->scount, type, root, comm, &r[0]), ibcasts++;
    if (type != tc->send)
      MPI_Type_free(&type); /* MPI lets the call in flight keep it */
    int flag = 0;
    while (!flag) /* MPI_Request_get_status alone must complete it */
      MPI_Request_get_status(r[0], &flag, MPI_STATUS_IGNORE);
    for (int done = 0; done < 3;) {
      int outcount, idx[3];
      MPI_Status st[3]; /* not MPI_STATUSES_IGNORE: GCC 11+ warns on MPICH's attributes */
      MPI_Testsome(3, r, &outcount, idx, st);
      done += outcount == MPI_UNDEFINED ? 3 : outcount;
    }
    bad |= !ring_ok(comm, in);
    break;
  }
#if MPI_VERSION >= 4
  case PERSISTENT: {
    int me, from, to;
    MPI_Comm_rank(comm, &me);
    from = (me + n - 1) % n, to = (me + 1) % n;
    MPI_Bcast_init(buf, tc->scount, type, root, comm, MPI_INFO_NULL, &r[1]), inits++;
    MPI_Recv_init(&in, 1, MPI_INT, from, 7, comm, &r[0]);
    MPI_Send_init(&out, 1, MPI_INT, to, 7, comm, &r[2]);
    for (int round = 0; round < 3; round++) {
      memset(buf, SENTINEL, bytes + 1);
      if (me == root)
        fill_pattern(buf, bytes, seed + 10 * round);
      reference(comm, tc, root, seed + 10 * round, ref, bytes);
      out = 1000 * me + 7, in = -1;
      if (round < 2) {
        MPI_Status st[3];
        MPI_Startall(3, r), starts++;
        MPI_Waitall(3, r, st);
        bad |= !ring_ok(comm, in);
      } else {
        MPI_Start(&r[1]), starts++;
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
      }
      bad |= r[1] == MPI_REQUEST_NULL; /* persistent: inactive, not freed */
      bad |= memcmp(buf, ref, bytes) != 0 || buf[bytes] != SENTINEL;
    }
    for (int i = 0; i < 3; i++)
      MPI_Request_free(&r[i]);
    break;
  }
#endif
  }
  bad |= memcmp(buf, ref, bytes) != 0 || buf[bytes] != SENTINEL;
  free(ref), free(ref2), free(buf), free(buf2);
  return bad;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct type_case tc[8];
  int ntc = make_type_cases(tc, 100000);
  MPI_Comm comms[4];
  const char *cnames[4];
  int ncomms = quick_mode(argc, argv) ? 1 : make_comms(comms, cnames);
  if (ncomms == 1)
    comms[0] = MPI_COMM_WORLD, cnames[0] = "world";
  for (int c = 1; c < ncomms; c++)
    nb_ready(comms[c]);
  int failed = 0, checks = 0;
  for (int c = 0; c < ncomms; c++) {
    int n;
    MPI_Comm_size(comms[c], &n);
    for (int root = 0; root < n; root++)
      for (int t = 0; t < ntc; t++)
        for (int m = 0; m < MODES; m++) {
          char name[160];
          snprintf(name, sizeof name, "ibcast %s %s root %d %s", mode_names[m], cnames[c], root,
                   tc[t].name);
          failed += verdict(name, check(comms[c], &tc[t], root, m, 31 * t + root + 7 * m));
          checks++;
        }
  }
  free_type_cases(tc, ntc);
  if (ncomms > 1)
    free_comms(comms, ncomms);
  failed = total_failures(failed);
  if (rank == 0)
    printf("ibcast: %d checks, %d failed\nibcast: rank 0 made %d MPI_Ibcast, %d MPI_Bcast_init, "
           "%d MPI_Start\n", checks, failed, ibcasts, inits, starts);
  MPI_Finalize();
  return failed != 0;
}
