/* What a communicator costs while it lives: applications split and duplicate
 * communicators by the thousand (a row and a column communicator per process grid, one
 * per solver level), and gridcoll keeps a state on each one it sees a collective on
 * (shim/comm_state.h). Makes COMMS duplicates of MPI_COMM_WORLD, runs one MPI_Bcast and
 * one MPI_Alltoall on each (so gridcoll builds its state), reads the heap, frees them.
 * test/mpi/fastpath.sh runs it with and without gridcoll and bounds the difference per
 * communicator.
 *
 *   commcost [COMMS]   (default 500)
 * Prints "commcost: N communicators, heap +B bytes each, F failed". */
#include "memusage.h"
#include "mpitest.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int n = argc > 1 ? atoi(argv[1]) : 500, me, size, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm *comms = malloc(sizeof *comms * (size_t)n);
  int *send = malloc(sizeof(int) * (size_t)size), *recv = malloc(sizeof(int) * (size_t)size);
  if (!comms || !send || !recv)
    MPI_Abort(MPI_COMM_WORLD, 2);
  struct usage before = usage_now();
  for (int i = 0; i < n; i++) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
    int v = me == 0 ? i : -1;
    MPI_Bcast(&v, 1, MPI_INT, 0, comms[i]);
    failed += verdict("bcast", v != i);
    for (int p = 0; p < size; p++)
      send[p] = me * 1000 + p;
    MPI_Alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comms[i]);
    for (int p = 0; p < size; p++)
      failed += verdict("alltoall", recv[p] != p * 1000 + me);
  }
  struct usage after = usage_now();
  for (int i = 0; i < n; i++)
    MPI_Comm_free(&comms[i]);
  long each = (after.heap - before.heap) * 1024 / (n > 0 ? n : 1);
  free(comms), free(send), free(recv);
  failed = total_failures(failed);
  if (me == 0)
    printf("commcost: %d communicators, heap +%ld bytes each, %d failed\n", n, each, failed);
  MPI_Finalize();
  return 0;
}
