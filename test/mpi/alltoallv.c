/* MPI_Alltoallv through gridcoll equals PMPI_Alltoallv byte for byte: every count
 * pattern (uniform, zeros everywhere, random with zeros, one heavy peer), displacements in
 * order, reversed with gaps and shuffled with gaps, derived and different-but-matching
 * datatypes, MPI_IN_PLACE, MPI_Alltoallv_c where the library is MPI 4, on world, a
 * duplicate, a reversed and a split communicator. The whole receive buffer is compared,
 * gaps and guard bytes included. Prints one line per failing case and
 * "alltoallv: N checks, N failed, N calls per rank". */
#include "mpitest.h"

enum pattern { UNIFORM, ZEROS, RANDOM, HEAVY, NPATTERNS };
static const char *pattern_name[NPATTERNS] = {"uniform", "zeros", "random", "heavy-peer"};
enum displs { IN_ORDER, REVERSED_GAPS, SHUFFLED_GAPS, NDISPLS };
static const char *displs_name[NDISPLS] = {"in-order", "reversed+gaps", "shuffled+gaps"};

/* Elements from s to d in units (a type case scales them); symmetric when in place. */
static int units(enum pattern p, int s, int d, int size, int sym, int seed)
{
  if (sym && s > d) {
    int t = s;
    s = d, d = t;
  }
  unsigned h = (unsigned)(s * 7919 + d * 104729 + seed * 31) * 2654435761u;
  switch (p) {
  case UNIFORM: return 3;
  case ZEROS: return 0;
  case RANDOM: return (h >> 7) % 3 == 0 ? 0 : (int)((h >> 11) % 9);
  /* In place the heavy peer stays small: MPICH 4.0.2's own in-place Alltoallv (pairwise
   * MPI_Sendrecv_replace) fails with "Message truncated" on derived types from a few
   * hundred elements on, so there would be nothing to compare with. */
  case HEAVY: return s == size / 2 || d == size / 2 ? (sym ? 40 : 2000) : (s + d) % 2;
  default: return 0;
  }
}

/* Displacements (in extents) for the given counts, and the extents spanned. */
static long displs_for(int *displ, const int *count, int size, enum displs mode, int seed)
{
  int *order = malloc(sizeof(int) * (size_t)size);
  for (int i = 0; i < size; i++)
    order[i] = mode == IN_ORDER ? i : size - 1 - i;
  if (mode == SHUFFLED_GAPS)
    for (int i = size - 1; i > 0; i--) {
      int j = (int)(((unsigned)(seed + i) * 2654435761u >> 8) % (unsigned)(i + 1)), t = order[i];
      order[i] = order[j], order[j] = t;
    }
  long at = 0;
  for (int i = 0; i < size; i++) {
    at += mode == IN_ORDER ? 0 : 1 + (order[i] % 2);
    displ[order[i]] = (int)at;
    at += count[order[i]];
  }
  free(order);
  return at;
}

struct vtype {
  const char *name;
  MPI_Datatype send, recv;
  int sk, rk; /* elements per unit: sk x send has the signature of rk x recv */
};

static int make_vtypes(struct vtype *v)
{
  MPI_Datatype vec, vec6, padded, tmp, neg_lb;
  MPI_Type_vector(3, 2, 4, MPI_INT, &vec); /* 6 ints in 10: holes */
  MPI_Type_vector(6, 1, 2, MPI_INT, &vec6);
  struct padded { char c; double d; int i; };
  int blen[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(struct padded, c), offsetof(struct padded, d),
                      offsetof(struct padded, i)};
  MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
  MPI_Type_create_struct(3, blen, disp, types, &tmp);
  MPI_Type_create_resized(tmp, 0, sizeof(struct padded) + 8, &padded);
  MPI_Type_free(&tmp);
  MPI_Type_create_resized(MPI_INT, -8, 16, &neg_lb); /* lower bound below the pointer */
  MPI_Type_commit(&vec), MPI_Type_commit(&vec6), MPI_Type_commit(&padded);
  MPI_Type_commit(&neg_lb);
  int n = 0;
  v[n++] = (struct vtype){"int", MPI_INT, MPI_INT, 1, 1};
  v[n++] = (struct vtype){"double x5", MPI_DOUBLE, MPI_DOUBLE, 5, 5};
  v[n++] = (struct vtype){"vector(3,2,4)", vec, vec, 1, 1};
  v[n++] = (struct vtype){"resized struct", padded, padded, 2, 2};
  v[n++] = (struct vtype){"resized int lb=-8", neg_lb, neg_lb, 1, 1};
  v[n++] = (struct vtype){"int x6 -> vector(6,1,2)", MPI_INT, vec6, 6, 1};
  v[n++] = (struct vtype){"vector(6,1,2) -> resized int lb=-8", vec6, neg_lb, 1, 6};
  return n;
}

static void free_vtypes(struct vtype *v, int n)
{
  for (int i = 0; i < n; i++)
    for (int which = 0; which < 2; which++) {
      MPI_Datatype t = which ? v[i].recv : v[i].send;
      if (t == MPI_INT || t == MPI_DOUBLE)
        continue;
      for (int j = i; j < n; j++) /* every later use forgets it */
        for (int w = 0; w < 2; w++)
          if ((w ? v[j].recv : v[j].send) == t)
            *(w ? &v[j].recv : &v[j].send) = MPI_INT;
      MPI_Type_free(&t);
    }
}

/* A buffer holding `extents` extents of type (plus guards on both sides). */
struct buf { unsigned char *mem, *base; size_t bytes; };
static int buf_alloc(struct buf *b, MPI_Datatype type, long extents)
{
  MPI_Aint lb, extent, tlb, textent;
  MPI_Type_get_extent(type, &lb, &extent);
  MPI_Type_get_true_extent(type, &tlb, &textent);
  size_t lo = (size_t)(tlb < 0 ? -tlb : 0) + 32;
  b->bytes = lo + (size_t)extents * (size_t)extent + (size_t)(textent > 0 ? textent : 0) + 32;
  b->mem = malloc(b->bytes);
  b->base = b->mem ? b->mem + lo : NULL;
  return b->mem ? 0 : -1;
}
static void buf_fill(struct buf *b, int seed)
{
  for (size_t i = 0; i < b->bytes; i++)
    b->mem[i] = seed < 0 ? SENTINEL : (unsigned char)(seed * 131 + i * 7 + (i >> 8) * 13 + 1);
}

struct vcase {
  const struct vtype *t;
  enum pattern pattern;
  enum displs displs;
  int in_place, large, seed;
  int persistent; /* MPI_Alltoallv_init (or _c), started twice on new data */
  int nonblocking; /* MPI_Ialltoallv (or _c), completed with an application's requests */
};

/* MPI_Ialltoallv (or _c) from duplicates of the types, freed at once (the schedule must
 * keep its own), completed by one MPI_Waitall with a message of the application's own
 * posted after it (a mixed array); the message must arrive too. */
static void call_nonblocking(const struct vcase *c, MPI_Comm comm, const void *sbuf, void *got,
                             const int *sc, const int *sd, const int *rc, const int *rd,
                             const MPI_Count *scc, const MPI_Aint *sdd, const MPI_Count *rcc,
                             const MPI_Aint *rdd)
{
  MPI_Datatype s2 = MPI_DATATYPE_NULL, r2;
  MPI_Request reqs[3];
  int rank, out = 0, in = -1;
  (void)scc, (void)sdd, (void)rcc, (void)rdd;
  MPI_Comm_rank(comm, &rank);
  if (!c->in_place)
    MPI_Type_dup(c->t->send, &s2);
  MPI_Type_dup(c->t->recv, &r2);
#if MPI_VERSION >= 4
  if (c->large)
    MPI_Ialltoallv_c(sbuf, scc, sdd, s2, got, rcc, rdd, r2, comm, &reqs[0]);
  else
#endif
    MPI_Ialltoallv(sbuf, sc, sd, s2, got, rc, rd, r2, comm, &reqs[0]);
  if (!c->in_place)
    MPI_Type_free(&s2);
  MPI_Type_free(&r2);
  out = 7000 + rank;
  MPI_Irecv(&in, 1, MPI_INT, rank, 77, comm, &reqs[1]);
  MPI_Isend(&out, 1, MPI_INT, rank, 77, comm, &reqs[2]);
  MPI_Status st[3];
  MPI_Waitall(3, reqs, st);
  if (in != out) {
    fprintf(stderr, "rank %d: the application's own message was lost beside MPI_Ialltoallv\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

/* The case's call on got through gridcoll: the blocking call, or one start of the
 * persistent request *req (made at the first start, from duplicates of the types freed at
 * once: the schedule must keep its own). */
static void call(const struct vcase *c, MPI_Comm comm, const void *sbuf, void *got,
                 const int *sc, const int *sd, const int *rc, const int *rd,
                 const MPI_Count *scc, const MPI_Aint *sdd, const MPI_Count *rcc,
                 const MPI_Aint *rdd, MPI_Request *req)
{
  MPI_Datatype stype = c->in_place ? MPI_DATATYPE_NULL : c->t->send, rtype = c->t->recv;
  (void)scc, (void)sdd, (void)rcc, (void)rdd, (void)req;
  if (c->nonblocking) {
    call_nonblocking(c, comm, sbuf, got, sc, sd, rc, rd, scc, sdd, rcc, rdd);
    return;
  }
#if MPI_VERSION >= 4
  if (c->persistent) {
    if (*req == MPI_REQUEST_NULL) {
      MPI_Datatype s2 = MPI_DATATYPE_NULL, r2;
      if (!c->in_place)
        MPI_Type_dup(stype, &s2);
      MPI_Type_dup(rtype, &r2);
      if (c->large)
        MPI_Alltoallv_init_c(sbuf, scc, sdd, s2, got, rcc, rdd, r2, comm, MPI_INFO_NULL, req);
      else
        MPI_Alltoallv_init(sbuf, sc, sd, s2, got, rc, rd, r2, comm, MPI_INFO_NULL, req);
      if (!c->in_place)
        MPI_Type_free(&s2);
      MPI_Type_free(&r2);
    }
    MPI_Start(req);
    MPI_Wait(req, MPI_STATUS_IGNORE);
    return;
  }
  if (c->large) {
    MPI_Alltoallv_c(sbuf, scc, sdd, stype, got, rcc, rdd, rtype, comm);
    return;
  }
#endif
  MPI_Alltoallv(sbuf, sc, sd, stype, got, rc, rd, rtype, comm);
}

/* One case with MPI_Alltoallv and PMPI_Alltoallv (or their _c); 1 when bytes differ. */
static int check(MPI_Comm comm, const struct vcase *c)
{
  int rank, size, bad = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *sc = malloc(sizeof(int) * (size_t)size), *rc = malloc(sizeof(int) * (size_t)size);
  int *sd = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
  for (int p = 0; p < size; p++) {
    sc[p] = c->t->sk * units(c->pattern, rank, p, size, c->in_place, c->seed);
    rc[p] = c->t->rk * units(c->pattern, p, rank, size, c->in_place, c->seed);
  }
  long sext = displs_for(sd, sc, size, c->displs, c->seed + rank);
  long rext = displs_for(rd, rc, size, c->displs, c->seed + 3 * rank);
  struct buf send = {0}, got = {0}, want = {0};
  MPI_Datatype stype = c->in_place ? MPI_DATATYPE_NULL : c->t->send;
  if ((!c->in_place && buf_alloc(&send, c->t->send, sext) != 0) ||
      buf_alloc(&got, c->t->recv, rext) != 0 || buf_alloc(&want, c->t->recv, rext) != 0)
    return 1;
  const void *sbuf = c->in_place ? MPI_IN_PLACE : send.base;
  MPI_Count *scc = NULL, *rcc = NULL;
  MPI_Aint *sdd = NULL, *rdd = NULL;
  if (c->large) {
    scc = malloc(sizeof(MPI_Count) * (size_t)size * 2), rcc = scc + size;
    sdd = malloc(sizeof(MPI_Aint) * (size_t)size * 2), rdd = sdd + size;
    for (int p = 0; p < size; p++)
      scc[p] = sc[p], rcc[p] = rc[p], sdd[p] = sd[p], rdd[p] = rd[p];
  }
  MPI_Request req = MPI_REQUEST_NULL;
  for (int round = 0; round < (c->persistent ? 2 : 1); round++) {
    int seed = rank + 1 + 100 * round; /* a persistent call's data changes between starts */
    if (!c->in_place)
      buf_fill(&send, seed);
    buf_fill(&got, c->in_place ? seed : -1);
    buf_fill(&want, c->in_place ? seed : -1);
    call(c, comm, sbuf, got.base, sc, sd, rc, rd, scc, sdd, rcc, rdd, &req);
#if MPI_VERSION >= 4
    if (c->large)
      PMPI_Alltoallv_c(sbuf, scc, sdd, stype, want.base, rcc, rdd, c->t->recv, comm);
    else
#endif
      PMPI_Alltoallv(sbuf, sc, sd, stype, want.base, rc, rd, c->t->recv, comm);
    bad |= memcmp(got.mem, want.mem, got.bytes) != 0;
  }
  if (req != MPI_REQUEST_NULL)
    MPI_Request_free(&req);
  free(scc), free(sdd);
  free(send.mem), free(got.mem), free(want.mem);
  free(sc), free(rc), free(sd), free(rd);
  return bad;
}

/* MPI_Ialltoallv where one block alone (rank 0 to the last rank, 1.6 MB) is beyond what a
 * nonblocking schedule's slot holds, then an ordinary one: every rank must
 * learn it from the schedule's own messages and deliver by the direct exchange, byte for
 * byte PMPI_Alltoallv's. 1 on failure. */
static int check_one_block_big(MPI_Comm comm)
{
  int rank, size, bad = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  enum { BIG = 400000 };
  int *sc = malloc(sizeof(int) * 4 * (size_t)size), *sd = sc + size, *rc = sd + size, *rd = rc + size;
  for (int p = 0, s = 0, r = 0; p < size; p++) {
    sc[p] = rank == 0 && p == size - 1 ? BIG : 1 + p % 2;
    rc[p] = rank == size - 1 && p == 0 ? BIG : 1 + rank % 2;
    sd[p] = s, rd[p] = r + 1, s += sc[p], r += rc[p] + 1; /* gaps on the receive side */
  }
  size_t sn = (size_t)sd[size - 1] + (size_t)sc[size - 1], rn = (size_t)rd[size - 1] + (size_t)rc[size - 1] + 1;
  int *send = malloc(sizeof(int) * sn), *got = malloc(sizeof(int) * rn), *want = malloc(sizeof(int) * rn);
  for (int call = 0; call < 2; call++) {
    for (size_t i = 0; i < sn; i++)
      send[i] = (int)(rank * 1000003 + i + (size_t)call * 7);
    for (size_t i = 0; i < rn; i++)
      got[i] = want[i] = -1;
    MPI_Request req;
    if (call) /* the second: every block small, as LG-v's schedule carries it */
      for (int p = 0; p < size; p++)
        sc[p] = rc[p] = 1;
    bad |= MPI_Ialltoallv(send, sc, sd, MPI_INT, got, rc, rd, MPI_INT, comm, &req) != MPI_SUCCESS;
    bad |= MPI_Wait(&req, MPI_STATUS_IGNORE) != MPI_SUCCESS;
    PMPI_Alltoallv(send, sc, sd, MPI_INT, want, rc, rd, MPI_INT, comm);
    bad |= memcmp(got, want, sizeof(int) * rn) != 0;
  }
  free(sc), free(send), free(got), free(want);
  return bad;
}

#if MPI_VERSION >= 4
/* One rank alone asks for more than LG-v carries (a count beyond an int, of an empty type,
 * so every signature still matches): all ranks must learn it and fall back together, and
 * the call must still complete as PMPI's. 1 on failure. */
static int check_one_rank_unsupported(MPI_Comm comm, int persistent, int nonblocking)
{
  int rank, size, bad = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Datatype empty;
  MPI_Type_contiguous(0, MPI_INT, &empty);
  MPI_Type_commit(&empty);
  MPI_Count *counts = malloc(sizeof(MPI_Count) * (size_t)size);
  MPI_Aint *displs = calloc((size_t)size, sizeof(MPI_Aint));
  for (int p = 0; p < size; p++)
    counts[p] = rank == 0 ? ((MPI_Count)1 << 31) + 5 : 3;
  char buf[8] = {0};
  if (persistent) {
    MPI_Request req;
    bad |= MPI_Alltoallv_init_c(buf, counts, displs, empty, buf + 4, counts, displs, empty, comm,
                                MPI_INFO_NULL, &req) != MPI_SUCCESS;
    bad |= MPI_Start(&req) != MPI_SUCCESS || MPI_Wait(&req, MPI_STATUS_IGNORE) != MPI_SUCCESS;
    MPI_Request_free(&req);
  } else if (nonblocking) {
    MPI_Request req;
    bad |= MPI_Ialltoallv_c(buf, counts, displs, empty, buf + 4, counts, displs, empty, comm,
                            &req) != MPI_SUCCESS;
    bad |= MPI_Wait(&req, MPI_STATUS_IGNORE) != MPI_SUCCESS;
  } else {
    bad |= MPI_Alltoallv_c(buf, counts, displs, empty, buf + 4, counts, displs, empty, comm) !=
           MPI_SUCCESS;
  }
  /* The library still works for an ordinary call afterwards. */
  int *one = malloc(sizeof(int) * (size_t)size), *got = malloc(sizeof(int) * (size_t)size);
  int *c1 = malloc(sizeof(int) * (size_t)size), *d1 = malloc(sizeof(int) * (size_t)size);
  for (int p = 0; p < size; p++)
    one[p] = 100 * rank + p, c1[p] = 1, d1[p] = p, got[p] = -1;
  bad |= MPI_Alltoallv(one, c1, d1, MPI_INT, got, c1, d1, MPI_INT, comm) != MPI_SUCCESS;
  for (int p = 0; p < size; p++)
    bad |= got[p] != 100 * p + rank;
  free(one), free(got), free(c1), free(d1), free(counts), free(displs);
  MPI_Type_free(&empty);
  return bad;
}
#endif

/* "nb": MPI_Ialltoallv (and, MPI 4, MPI_Ialltoallv_c, MPI_Alltoallv_init and its _c, each
 * started twice) against PMPI_Alltoallv; gridcoll logs them untimed and runs them natively.
 * Returns the failures; *checks and *calls are counted up. */
static int nonblocking(int *checks)
{
  int rank, size, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *c = malloc(sizeof(int) * 2 * (size_t)size), *d = c + size;
  int *send = malloc(sizeof(int) * 3 * (size_t)size), *got = malloc(sizeof(int) * 3 * (size_t)size);
  int *want = malloc(sizeof(int) * 3 * (size_t)size);
  for (int p = 0, at = 0; p < size; p++)
    c[p] = (rank + p) % 3, d[p] = at, at += 3; /* symmetric counts, gaps */
  for (int i = 0; i < 3 * size; i++)
    send[i] = 1000 * rank + i, want[i] = -1;
  PMPI_Alltoallv(send, c, d, MPI_INT, want, c, d, MPI_INT, MPI_COMM_WORLD);
  MPI_Request req;
  for (int i = 0; i < 3 * size; i++)
    got[i] = -1;
  MPI_Ialltoallv(send, c, d, MPI_INT, got, c, d, MPI_INT, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  failed += verdict("ialltoallv", memcmp(got, want, sizeof(int) * 3 * (size_t)size) != 0);
  (*checks)++;
#if MPI_VERSION >= 4
  MPI_Count *cc = malloc(sizeof(MPI_Count) * (size_t)size);
  MPI_Aint *dd = malloc(sizeof(MPI_Aint) * (size_t)size);
  for (int p = 0; p < size; p++)
    cc[p] = c[p], dd[p] = d[p];
  for (int i = 0; i < 3 * size; i++)
    got[i] = -1;
  MPI_Ialltoallv_c(send, cc, dd, MPI_INT, got, cc, dd, MPI_INT, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  failed += verdict("ialltoallv_c", memcmp(got, want, sizeof(int) * 3 * (size_t)size) != 0);
  (*checks)++;
  for (int large = 0; large < 2; large++) {
    if (large)
      MPI_Alltoallv_init_c(send, cc, dd, MPI_INT, got, cc, dd, MPI_INT, MPI_COMM_WORLD,
                           MPI_INFO_NULL, &req);
    else
      MPI_Alltoallv_init(send, c, d, MPI_INT, got, c, d, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL,
                         &req);
    for (int start = 0; start < 2; start++) {
      for (int i = 0; i < 3 * size; i++)
        got[i] = -1;
      MPI_Start(&req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
      failed += verdict(large ? "alltoallv_init_c" : "alltoallv_init",
                        memcmp(got, want, sizeof(int) * 3 * (size_t)size) != 0);
      (*checks)++;
    }
    MPI_Request_free(&req);
  }
  free(cc), free(dd);
#endif
  free(c), free(send), free(got), free(want);
  return failed;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  if (argc > 1 && strcmp(argv[1], "nb") == 0) {
    int checks = 0, failed = total_failures(nonblocking(&checks)), rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
      printf("alltoallv: %d checks, %d failed\n", checks, failed);
    MPI_Finalize();
    return failed != 0;
  }
  /* "persistent": every case by MPI_Alltoallv_init (or _c), started twice on new data. */
  int persistent = MPI_VERSION >= 4 && argc > 1 && strcmp(argv[1], "persistent") == 0;
  /* "nonblocking": every case by MPI_Ialltoallv (or _c), then one rank's block beyond
   * what a nonblocking schedule holds. */
  int nonblocking = argc > 1 && strcmp(argv[1], "nonblocking") == 0;
  int quick = quick_mode(argc, argv);
  struct vtype vt[8];
  int nvt = make_vtypes(vt), ntypes = quick ? 2 : nvt;
  MPI_Comm comms[4];
  const char *cnames[4];
  int ncomms = make_comms(comms, cnames), nused = quick ? 1 : ncomms;
  int checks = 0, failed = 0, calls = 0;
  int large_max = MPI_VERSION >= 4 ? 1 : 0;
  for (int cm = 0; cm < nused; cm++)
    for (int t = 0; t < ntypes; t++)
      for (int p = 0; p < NPATTERNS; p++)
        for (int d = 0; d < NDISPLS; d++)
          for (int in_place = 0; in_place < 2; in_place++)
            for (int large = 0; large <= large_max; large++) {
              if ((in_place && vt[t].send != vt[t].recv) || (quick && (d || large)))
                continue; /* in place has one type */
#ifdef OPEN_MPI
              /* In place runs Open MPI's own MPI_Ialltoallv, which hangs on some of
               * these cases (4.1, seen without gridcoll). */
              if (nonblocking && in_place)
                continue;
#endif
              if (large && (d != SHUFFLED_GAPS || p == ZEROS))
                continue; /* the _c entry: enough to run it on the hardest layout */
              if (cm > 0 && d != SHUFFLED_GAPS)
                continue; /* other communicators: the hardest layout (MPICH busy-polls) */
              struct vcase c = {&vt[t], (enum pattern)p, (enum displs)d, in_place, large,
                                31 * t + 7 * p + d, persistent, nonblocking};
              char name[160];
              snprintf(name, sizeof name, "%salltoallv%s%s %s %s %s %s%s",
                       nonblocking ? "i" : "", persistent ? "_init" : "", large ? "_c" : "", cnames[cm], vt[t].name,
                       pattern_name[p], displs_name[d], in_place ? " in-place" : "");
              if (getenv("ALLTOALLV_TRACE"))
                fprintf(stderr, "%s\n", name);
              failed += verdict(name, check(comms[cm], &c));
              checks++, calls += persistent ? 2 : 1;
            }
  if (nonblocking) {
    failed += verdict("ialltoallv one block beyond a schedule's slot: all fall back",
                      check_one_block_big(MPI_COMM_WORLD));
    checks++, calls += 2;
  }
#if MPI_VERSION >= 4
  failed += verdict(persistent ? "alltoallv_init_c one rank beyond an int: all fall back"
                               : "alltoallv_c one rank beyond an int: all fall back",
                    check_one_rank_unsupported(MPI_COMM_WORLD, persistent, nonblocking));
  checks++, calls += 2;
#endif
  free_comms(comms, ncomms);
  free_vtypes(vt, nvt);
  failed = total_failures(failed);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("alltoallv: %d checks, %d failed, %d calls per rank\n", checks, failed, calls);
  MPI_Finalize();
  return failed != 0;
}
