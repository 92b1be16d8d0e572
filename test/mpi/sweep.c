/* An ordinary MPI program, the kind gridcoll is loaded into: an all-to-all and a
 * broadcast sweep over message sizes, each size repeated. It knows nothing of gridcoll;
 * `make demo` runs it under LD_PRELOAD. Usage: sweep [max_bytes] [repetitions] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  long max_bytes = argc > 1 ? atol(argv[1]) : 64 * 1024;
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char *send = malloc((size_t)max_bytes * (size_t)size);
  char *recv = malloc((size_t)max_bytes * (size_t)size);
  if (!send || !recv)
    MPI_Abort(MPI_COMM_WORLD, 1);
  for (long i = 0; i < max_bytes * size; i++)
    send[i] = (char)(rank + i);
  for (long m = 1024; m <= max_bytes; m *= 4) {
    double t0 = MPI_Wtime();
    for (int r = 0; r < reps; r++)
      MPI_Alltoall(send, (int)m, MPI_BYTE, recv, (int)m, MPI_BYTE, MPI_COMM_WORLD);
    double t_a2a = (MPI_Wtime() - t0) / reps;
    t0 = MPI_Wtime();
    for (int r = 0; r < reps; r++)
      MPI_Bcast(send, (int)m, MPI_BYTE, r % size, MPI_COMM_WORLD);
    double t_bc = (MPI_Wtime() - t0) / reps;
    if (rank == 0)
      printf("sweep: %7ld bytes  alltoall %9.1f us  bcast %9.1f us\n", m, t_a2a * 1e6,
             t_bc * 1e6);
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
