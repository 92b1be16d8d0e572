/* MPI_Bcast where the root and the receivers use different datatypes with the same type
 * signature (MPI allows it), byte-identical to PMPI_Bcast with the same per-rank types,
 * holes included, and MPI_SUCCESS returned (MPI_ERRORS_RETURN on the communicator).
 * run.sh runs it under every tree algorithm with bcast.segment sizes that are a multiple
 * of neither type's size, so each rank's elements are cut in different places: a
 * segmentation in elements of each rank's own type would mismatch.
 *
 * With a second argument, the nonblocking forms instead (nonblocking.sh runs them under
 * the trees' schedules, segmented): "nb", MPI_Ibcast and MPI_Wait; "persistent" (MPI 4),
 * MPI_Bcast_init, then two rounds of new data, each MPI_Start and MPI_Wait, then
 * MPI_Request_free, each round against PMPI_Bcast.
 *
 * Arguments: the message size in ints (a multiple of 24; default 240), then the form. */
#include "mpitest.h"

/* One pairing: count_a elements of a and count_b of b carry the same ints. */
struct mixed {
  const char *name;
  MPI_Datatype a, b;
  int count_a, count_b;
};

static MPI_Datatype commit(MPI_Datatype t)
{
  MPI_Type_commit(&t);
  return t;
}

enum form { BLOCKING, NONBLOCKING, PERSISTENT };
static enum form form = BLOCKING;

/* The call under test, blocking or nonblocking (the persistent form is check()'s). */
static int bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm, int large)
{
  (void)large;
  if (form == NONBLOCKING) {
    MPI_Request r;
#if MPI_VERSION >= 4
    int rc = large ? MPI_Ibcast_c(buf, count, t, root, comm, &r)
                   : MPI_Ibcast(buf, count, t, root, comm, &r);
#else
    int rc = MPI_Ibcast(buf, count, t, root, comm, &r);
#endif
    return rc != MPI_SUCCESS ? rc : MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
#if MPI_VERSION >= 4
  if (large)
    return MPI_Bcast_c(buf, count, t, root, comm);
#endif
  return MPI_Bcast(buf, count, t, root, comm);
}

/* Root with type x, every other rank with type y, from root. */
static int check(MPI_Comm comm, MPI_Datatype x, int cx, MPI_Datatype y, int cy, int root,
                 int seed, int large)
{
  int rank;
  MPI_Comm_rank(comm, &rank);
  MPI_Datatype t = rank == root ? x : y;
  int count = rank == root ? cx : cy;
  size_t bytes = span(t, count) + 1;
  unsigned char *got = malloc(bytes), *want = malloc(bytes);
  if (!got || !want)
    return 1;
  fill_pattern(got, bytes, rank == root ? seed : seed + 1000 + rank);
  memcpy(want, got, bytes);
  int bad = 0;
#if MPI_VERSION >= 4
  if (form == PERSISTENT) {
    MPI_Request r = MPI_REQUEST_NULL;
    bad |= (large ? MPI_Bcast_init_c(got, count, t, root, comm, MPI_INFO_NULL, &r)
                  : MPI_Bcast_init(got, count, t, root, comm, MPI_INFO_NULL, &r)) != MPI_SUCCESS;
    for (int round = 0; round < 2 && !bad; round++) {
      if (round > 0 && rank == root) { /* new data at the root, the same at the reference */
        fill_pattern(got, bytes, seed + 77);
        memcpy(want, got, bytes);
      }
      bad |= MPI_Start(&r) != MPI_SUCCESS || MPI_Wait(&r, MPI_STATUS_IGNORE) != MPI_SUCCESS;
      bad |= PMPI_Bcast(want, count, t, root, comm) != MPI_SUCCESS;
      bad |= memcmp(got, want, bytes) != 0;
    }
    if (r != MPI_REQUEST_NULL)
      bad |= MPI_Request_free(&r) != MPI_SUCCESS;
    free(got), free(want);
    return bad;
  }
#endif
  int rc = bcast(got, count, t, root, comm, large);
  int prc = PMPI_Bcast(want, count, t, root, comm);
  bad = rc != MPI_SUCCESS || prc != MPI_SUCCESS || memcmp(got, want, bytes) != 0;
  free(got), free(want);
  return bad;
}

#if MPI_VERSION >= 4
enum { NLARGE = 2 }; /* MPI_Bcast and MPI_Bcast_c */
#else
enum { NLARGE = 1 };
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int ints = argc > 1 ? atoi(argv[1]) : 240;
  if (ints <= 0 || ints % 24 != 0)
    ints = 240;
  if (argc > 2)
    form = strcmp(argv[2], "nb") == 0           ? NONBLOCKING
           : strcmp(argv[2], "persistent") == 0 ? PERSISTENT
                                                : BLOCKING;
#if MPI_VERSION < 4
  if (form == PERSISTENT)
    form = BLOCKING; /* no MPI_Bcast_init before MPI 4 */
#endif
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  nb_ready(comm);

  MPI_Datatype c2, c3, c4, c6, vec, rint, st, rst;
  MPI_Type_contiguous(2, MPI_INT, &c2);
  MPI_Type_contiguous(3, MPI_INT, &c3);
  MPI_Type_contiguous(4, MPI_INT, &c4);
  MPI_Type_contiguous(6, MPI_INT, &c6);
  MPI_Type_vector(3, 1, 2, MPI_INT, &vec);             /* 3 ints, holes between them */
  MPI_Type_create_resized(MPI_INT, 0, 8, &rint);       /* an int, then a 4-byte hole */
  int lens[2] = {1, 2};
  MPI_Aint disp[2] = {8, 20};                          /* out of memory order, holes */
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  MPI_Type_create_struct(2, lens, disp, types, &st);
  MPI_Type_create_resized(st, 0, 32, &rst);
  c2 = commit(c2), c3 = commit(c3), c4 = commit(c4), c6 = commit(c6);
  vec = commit(vec), rint = commit(rint), rst = commit(rst);
  MPI_Type_free(&st);

  const struct mixed pairs[] = {
      {"contiguous(3,int) vs int", c3, MPI_INT, ints / 3, ints},
      {"contiguous(4,int) vs int", c4, MPI_INT, ints / 4, ints},
      {"vector with holes vs contiguous(2,int)", vec, c2, ints / 3, ints / 2},
      {"resized int vs contiguous(6,int)", rint, c6, ints, ints / 6},
      {"resized struct vs vector", rst, vec, ints / 3, ints / 3},
      {"count 0", c3, MPI_INT, 0, 0},
  };
  const int npairs = (int)(sizeof pairs / sizeof pairs[0]);
  int size, checks = 0, failed = 0;
  MPI_Comm_size(comm, &size);
  for (int p = 0; p < npairs; p++)
    for (int swap = 0; swap < 2; swap++)
      for (int root = 0; root < size; root++)
        for (int large = 0; large < NLARGE; large++) {
          const struct mixed *m = &pairs[p];
          char name[160];
          snprintf(name, sizeof name, "%s%s, root %d, %d ints%s", m->name,
                   swap ? " (swapped)" : "", root, ints, large ? ", MPI_Bcast_c" : "");
          int bad = swap ? check(comm, m->b, m->count_b, m->a, m->count_a, root, p + root, large)
                         : check(comm, m->a, m->count_a, m->b, m->count_b, root, p + root, large);
          failed += verdict(name, bad);
          checks++;
        }
  MPI_Type_free(&c2), MPI_Type_free(&c3), MPI_Type_free(&c4), MPI_Type_free(&c6);
  MPI_Type_free(&vec), MPI_Type_free(&rint), MPI_Type_free(&rst);
  MPI_Comm_free(&comm);
  failed = total_failures(failed);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("bcast_mixed: %d checks, %d failed\n", checks, failed);
  MPI_Finalize();
  return failed != 0;
}
