/* More of the MPI library's own nonblocking calls in flight than gridcoll follows at once
 * (shim/issued.h: GC_ISSUED_MAX, 64): `k` MPI_Ibcast on MPI_COMM_WORLD (the argument, 70
 * by default; root i % size, one int each), all posted before one MPI_Waitall completes
 * them, then one more, completed by MPI_Wait. Run without GRIDCOLL_NONBLOCKING=grid, so
 * that the library runs them: test/mpi/nonblocking.sh reads the log (every call logged
 * once on every rank; the first 64 timed, the rest untimed when issued; the last one timed
 * again, the table drained). Every value is checked. Prints "nb_many: C checks, F failed". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failed = 0, checks = 0, k = argc > 1 ? atoi(argv[1]) : 70;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *v = malloc(sizeof(int) * (size_t)(k + 1));
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(k + 1));
  MPI_Status *st = malloc(sizeof(MPI_Status) * (size_t)(k + 1));
  if (!v || !req || !st || k < 1)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = 0; i <= k; i++)
    v[i] = rank == i % size ? 1000 + i : -1;
  for (int i = 0; i < k; i++)
    MPI_Ibcast(&v[i], 1, MPI_INT, i % size, MPI_COMM_WORLD, &req[i]);
  MPI_Waitall(k, req, st);
  MPI_Ibcast(&v[k], 1, MPI_INT, k % size, MPI_COMM_WORLD, &req[k]);
  MPI_Wait(&req[k], MPI_STATUS_IGNORE);
  for (int i = 0; i <= k; i++, checks++)
    failed += v[i] != 1000 + i;
  free(v), free(req), free(st);
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("nb_many: %d checks, %d failed\n", checks, failed);
  MPI_Finalize();
  return failed != 0;
}
