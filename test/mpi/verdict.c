/* Many MPI_Alltoall calls of one block size on the world, each compared byte for byte
 * with PMPI_Alltoall on the same input (a pattern that changes with the call).
 *
 *   verdict CALLS BYTES    CALLS calls of BYTES bytes per block (MPI_BYTE)
 * Prints "verdict: N calls, F failed". Run with test/mpi/tool/verdict_tool.c, which makes
 * one rank's packing fail on chosen calls (test/mpi/run.sh). */
#include "mpitest.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int calls = argc > 1 ? atoi(argv[1]) : 10, bytes = argc > 2 ? atoi(argv[2]) : 65536;
  size_t total = (size_t)bytes * (size_t)size;
  unsigned char *send = malloc(total), *got = malloc(total), *want = malloc(total);
  if (!send || !got || !want)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (int c = 0; c < calls; c++) {
    fill_pattern(send, total, 7919 * c + rank);
    memset(got, SENTINEL, total);
    memset(want, SENTINEL, total);
    MPI_Alltoall(send, bytes, MPI_BYTE, got, bytes, MPI_BYTE, MPI_COMM_WORLD);
    PMPI_Alltoall(send, bytes, MPI_BYTE, want, bytes, MPI_BYTE, MPI_COMM_WORLD);
    if (memcmp(got, want, total) != 0) {
      fprintf(stderr, "verdict: rank %d, call %d: result differs from PMPI_Alltoall\n", rank,
              c + 1);
      failed++;
    }
  }
  free(send), free(got), free(want);
  failed = total_failures(failed);
  if (rank == 0)
    printf("verdict: %d calls, %d failed\n", calls, failed);
  MPI_Finalize();
  return failed != 0;
}
