/* A PMPI tool that makes LG's packing fail on one rank per call, for testing that the
 * verdict reaches every rank without an agreement on the timed path (lg.c, relay.c).
 * Preloaded BEFORE libgridcoll.so, it wraps MPI_Alltoall (counting the calls, forwarding
 * to gridcoll's) and interposes two PMPI calls gridcoll makes:
 *   PMPI_Pack_size  on call VERDICT_FAIL_FROM + r of rank r (1-based, the calls of each
 *                   rank counted; unset: never), says one byte more than the MPI
 *                   library: that rank alone cannot pack its blocks into m bytes, a
 *                   failure every rank must learn of and fall back on together;
 *   PMPI_Allreduce  counts the agreements (one MPI_INT reduced by MPI_MIN, LG's and
 *                   relay's) made inside MPI_Alltoall calls on gridcoll's own
 *                   communicators, the first call included (the state's, made at the
 *                   first call on the application's communicator, is apart: LG's context
 *                   and relay's routes are made and agreed with it).
 * Prints on stderr when the process exits (MPI_Finalize is gridcoll's):
 *   verdict_tool: rank R calls N packs_failed P agreements A
 * test/mpi/run.sh drives it with test/mpi/verdict. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int world_rank = -1, inside, fail_from;
static MPI_Comm app = MPI_COMM_NULL; /* the communicator of the MPI_Alltoall in progress */
static long calls, packs_failed, agreements;

typedef int (*alltoall_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype,
                           MPI_Comm);
typedef int (*pack_size_fn)(int, MPI_Datatype, MPI_Comm, int *);
typedef int (*allreduce_fn)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  static alltoall_fn next;
  if (!next) {
    next = (alltoall_fn)dlsym(RTLD_NEXT, "MPI_Alltoall");
    const char *from = getenv("VERDICT_FAIL_FROM");
    fail_from = from ? atoi(from) : 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  }
  calls++;
  inside = 1, app = comm;
  int rc = next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  inside = 0;
  return rc;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
  static pack_size_fn next;
  if (!next)
    next = (pack_size_fn)dlsym(RTLD_NEXT, "PMPI_Pack_size");
  int rc = next(incount, datatype, comm, size);
  if (rc == MPI_SUCCESS && inside && fail_from > 0 && calls == fail_from + world_rank) {
    ++*size;
    packs_failed++;
  }
  return rc;
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm)
{
  static allreduce_fn next;
  if (!next)
    next = (allreduce_fn)dlsym(RTLD_NEXT, "PMPI_Allreduce");
  if (inside && comm != app && count == 1 && datatype == MPI_INT && op == MPI_MIN)
    agreements++;
  return next(sendbuf, recvbuf, count, datatype, op, comm);
}

__attribute__((destructor)) static void report(void)
{
  fprintf(stderr, "verdict_tool: rank %d calls %ld packs_failed %ld agreements %ld\n",
          world_rank, calls, packs_failed, agreements);
}
