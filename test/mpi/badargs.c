/* Erroneous calls must reach the MPI library untouched: for each bad argument (negative
 * count, NULL buffer holding data, no or an uncommitted datatype, MPI_COMM_NULL, a root
 * out of range, aliased buffers, a datatype handle never created or forged) and each
 * entry point (MPI_Alltoall, MPI_Bcast and their _c), the intercepted call's error class and message must equal those of the PMPI_ call
 * made with the same arguments in the same run. MPI_ERRORS_RETURN on MPI_COMM_WORLD
 * (where errors on MPI_COMM_NULL are reported too). Every rank makes the same bad call,
 * so each detects it before any message moves. Run it under gridcoll with grid
 * algorithms forced: a bad call that reached them would hang, crash or answer otherwise.
 * The NULL and aliased buffers come right after a good call with the same counts,
 * datatypes and root. */
#include "mpitest.h"

static int nprocs, cases, differ;

static void compare(const char *name, int got, int want)
{
  char gs[MPI_MAX_ERROR_STRING], ws[MPI_MAX_ERROR_STRING];
  int gl = 0, wl = 0, gc = -1, wc = -1;
  MPI_Error_class(got, &gc);
  MPI_Error_class(want, &wc);
  MPI_Error_string(got, gs, &gl);
  MPI_Error_string(want, ws, &wl);
  cases++;
  /* A bad call must fail: one that PMPI accepts is no test of the pass-through. */
  if (want == MPI_SUCCESS || gc != wc || strcmp(gs, ws) != 0) {
    differ++;
    printf("FAIL %s: gridcoll class %d \"%s\", MPI class %d \"%s\"\n", name, gc, gs, wc, ws);
  }
}

#ifdef MPICH_VERSION
/* A call MPI may accept or refuse: gridcoll's answer must be the library's. */
static void same_case(const char *name, int got, int want)
{
  int gc = -1, wc = -1;
  MPI_Error_class(got, &gc);
  MPI_Error_class(want, &wc);
  cases++;
  if (gc != wc) {
    differ++;
    printf("FAIL %s: gridcoll class %d, MPI class %d\n", name, gc, wc);
  }
}
#endif

struct a2a {
  const char *name;
  const void *s;
  int sc;
  MPI_Datatype st;
  void *r;
  int rc;
  MPI_Datatype rt;
  MPI_Comm comm;
  int after_good; /* made right after a good call with the same counts and datatypes */
};

static void alltoall_case(const struct a2a *c)
{
  char name[128];
  snprintf(name, sizeof name, "MPI_Alltoall %s", c->name);
  compare(name, MPI_Alltoall(c->s, c->sc, c->st, c->r, c->rc, c->rt, c->comm),
          PMPI_Alltoall(c->s, c->sc, c->st, c->r, c->rc, c->rt, c->comm));
#if MPI_VERSION >= 4
  snprintf(name, sizeof name, "MPI_Alltoall_c %s", c->name);
  compare(name, MPI_Alltoall_c(c->s, c->sc, c->st, c->r, c->rc, c->rt, c->comm),
          PMPI_Alltoall_c(c->s, c->sc, c->st, c->r, c->rc, c->rt, c->comm));
#endif
}

/* A good all-to-all of one int each; 1 when its result is wrong. */
static int good_alltoall(int *s, int *r, MPI_Comm comm)
{
  int rank, bad;
  MPI_Comm_rank(comm, &rank);
  for (int i = 0; i < nprocs; i++)
    s[i] = i, r[i] = -1;
  bad = MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, comm) != MPI_SUCCESS;
  for (int i = 0; i < nprocs; i++)
    bad |= r[i] != rank;
  return bad;
}

static void bcast_case(const char *what, void *buf, int count, MPI_Datatype type, int root,
                       MPI_Comm comm)
{
  char name[128];
  snprintf(name, sizeof name, "MPI_Bcast %s", what);
  compare(name, MPI_Bcast(buf, count, type, root, comm),
          PMPI_Bcast(buf, count, type, root, comm));
#if MPI_VERSION >= 4
  snprintf(name, sizeof name, "MPI_Bcast_c %s", what);
  compare(name, MPI_Bcast_c(buf, count, type, root, comm),
          PMPI_Bcast_c(buf, count, type, root, comm));
#endif
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int *s = calloc(4 * (size_t)nprocs, sizeof(int)), *r = calloc(4 * (size_t)nprocs, sizeof(int));
  MPI_Datatype loose; /* created, never committed */
  MPI_Type_contiguous(2, MPI_INT, &loose);
  MPI_Comm W = MPI_COMM_WORLD;

  const struct a2a a2a[] = {
      {"negative sendcount", s, -1, MPI_INT, r, 1, MPI_INT, W, 0},
      {"negative recvcount", s, 1, MPI_INT, r, -1, MPI_INT, W, 0},
#ifndef OPEN_MPI /* Open MPI 4.1 does not check buffers: these crash it natively */
      {"NULL sendbuf", NULL, 1, MPI_INT, r, 1, MPI_INT, W, 1},
      {"NULL recvbuf", s, 1, MPI_INT, NULL, 1, MPI_INT, W, 1},
#endif
      {"MPI_DATATYPE_NULL send", s, 1, MPI_DATATYPE_NULL, r, 1, MPI_INT, W, 0},
      {"MPI_DATATYPE_NULL recv", s, 1, MPI_INT, r, 1, MPI_DATATYPE_NULL, W, 0},
      {"uncommitted recvtype", s, 2, MPI_INT, r, 1, loose, W, 0},
      {"MPI_COMM_NULL", s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_NULL, 0},
#ifndef OPEN_MPI
      {"aliased buffers", r, 1, MPI_INT, r, 1, MPI_INT, W, 1},
#endif
  };
  /* A bad call right after a good one with the same counts, datatypes and root: logged,
   * a call the same as the last runs again without the full dispatch (the memo,
   * shim/call.h), which must still check what that key does not say (NULL or aliased
   * buffers). */
  int bad_good = 0;
  for (size_t i = 0; i < sizeof a2a / sizeof a2a[0]; i++) {
    if (a2a[i].after_good)
      bad_good |= good_alltoall(s, r, W);
    alltoall_case(&a2a[i]);
  }

  bcast_case("negative count", r, -1, MPI_INT, 0, W);
#ifndef OPEN_MPI
  bad_good |= MPI_Bcast(r, 1, MPI_INT, 0, W) != MPI_SUCCESS;
  bcast_case("NULL buffer", NULL, 1, MPI_INT, 0, W);
#endif
  differ += verdict("good calls between the bad ones", bad_good);
  bcast_case("MPI_DATATYPE_NULL", r, 1, MPI_DATATYPE_NULL, 0, W);
  bcast_case("uncommitted datatype", r, 1, loose, 0, W);
  bcast_case("MPI_COMM_NULL", r, 1, MPI_INT, 0, MPI_COMM_NULL);
  bcast_case("root = size", r, 1, MPI_INT, nprocs, W);
  bcast_case("root = -5", r, 1, MPI_INT, -5, W);

#ifdef MPICH_VERSION
  /* A datatype handle that was never created (MPICH's handles are integers), on a
   * communicator that returns errors while MPI_COMM_WORLD's handler is fatal: MPICH
   * reports it on the communicator, and so must any query gridcoll makes first. */
  MPI_Comm D;
  MPI_Comm_dup(W, &D);
  MPI_Comm_set_errhandler(D, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(W, MPI_ERRORS_ARE_FATAL);
  MPI_Datatype bogus = (MPI_Datatype)0x12345678;
  const struct a2a invalid = {"never-created datatype", s, 1, bogus, r, 1, MPI_INT, D, 0};
  alltoall_case(&invalid);
  bcast_case("never-created datatype", r, 1, bogus, 0, D);
  MPI_Comm_set_errhandler(W, MPI_ERRORS_RETURN);
  MPI_Comm_free(&D);

  /* A forged predefined handle: MPICH's "builtin" kind with the size 4 in its bits and an
   * index past its table. PMPI_Bcast and PMPI_Alltoall read the size from the bits and
   * accept it; PMPI_Type_get_extent asserts and aborts on it. gridcoll must give the
   * library's answer, never ask what aborts. */
  MPI_Datatype forged = (MPI_Datatype)0x4c0004ff;
  same_case("MPI_Bcast forged predefined datatype", MPI_Bcast(r, 1, forged, 0, W),
            PMPI_Bcast(r, 1, forged, 0, W));
  same_case("MPI_Alltoall forged predefined datatype",
            MPI_Alltoall(s, 1, forged, r, 1, MPI_INT, W), PMPI_Alltoall(s, 1, forged, r, 1, MPI_INT, W));
#if MPI_VERSION >= 4
  same_case("MPI_Bcast_c forged predefined datatype", MPI_Bcast_c(r, 1, forged, 0, W),
            PMPI_Bcast_c(r, 1, forged, 0, W));
  same_case("MPI_Alltoall_c forged predefined datatype",
            MPI_Alltoall_c(s, 1, forged, r, 1, MPI_INT, W),
            PMPI_Alltoall_c(s, 1, forged, r, 1, MPI_INT, W));
#endif
#endif
  MPI_Type_free(&loose);
  /* Still working after all that. */
  differ += verdict("good call after the bad ones", good_alltoall(s, r, W));
  int rank;
  MPI_Comm_rank(W, &rank);
  int failed = total_failures(differ);
  if (rank == 0)
    printf("badargs: %d cases, %d failed\n", cases, failed);
  free(s), free(r);
  MPI_Finalize();
  return failed != 0;
}
