/* A legal program whose progress rests on the MPI library's blocking point-to-point
 * calls advancing a pending nonblocking collective (MPI's progress rule), on 3 ranks:
 *   rank 1 posts MPI_Ibcast (root 0), then MPI_Recv from rank 2, then waits;
 *   rank 2 posts the same MPI_Ibcast, waits for it (it needs rank 1's part of the
 *   broadcast: with clusters 0 | 1-2, rank 1 is rank 2's parent in every tree), then
 *   sends to rank 1;
 *   rank 0 posts it and waits.
 * The MPI library's own MPI_Ibcast moves inside rank 1's MPI_Recv; under MPICH gridcoll's
 * schedules move only inside the completion calls (doc/design.md: Nonblocking
 * collectives), so under GRIDCOLL_NONBLOCKING=grid this program can hang there: the
 * default (native) must run it to the end. Under Open MPI they move inside Open MPI's
 * progress engine too (shim/nbc_opal.c), so it runs to the end under grid as well. The
 * same with MPI_Ialltoall. With the argument `pmpi` every wait is PMPI_Wait, as a tool
 * preloaded in front of gridcoll would make it: a completion call gridcoll never sees.
 * Prints "nb_progress: C checks, F failed". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failed = 0, checks = 0;
  int (*wait)(MPI_Request *, MPI_Status *) = argc > 1 && !strcmp(argv[1], "pmpi") ? PMPI_Wait : MPI_Wait;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3) {
    if (rank == 0)
      fprintf(stderr, "nb_progress: needs 3 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  enum { N = 4096 };
  static int buf[N], sbuf[3 * N], rbuf[3 * N];
  for (int round = 0; round < 2; round++) {
    MPI_Request req;
    int token = 0;
    if (round == 0) {
      for (int i = 0; i < N; i++)
        buf[i] = rank == 0 ? i * 7 + 1 : -1;
      MPI_Ibcast(buf, N, MPI_INT, 0, MPI_COMM_WORLD, &req);
    } else {
      for (int i = 0; i < 3 * N; i++)
        sbuf[i] = rank * 1000000 + i, rbuf[i] = -1;
      MPI_Ialltoall(sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD, &req);
    }
    if (rank == 1) {
      MPI_Recv(&token, 1, MPI_INT, 2, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 2) {
      wait(&req, MPI_STATUS_IGNORE);
      token = 42;
      MPI_Send(&token, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    } else {
      wait(&req, MPI_STATUS_IGNORE);
    }
    checks++;
    if (rank == 1 && token != 42)
      failed++;
    if (round == 0) {
      for (int i = 0; i < N; i++)
        if (buf[i] != i * 7 + 1) {
          failed++;
          break;
        }
    } else {
      for (int src = 0; src < 3; src++)
        for (int i = 0; i < N; i++)
          if (rbuf[src * N + i] != src * 1000000 + rank * N + i) {
            failed++;
            src = 3;
            break;
          }
    }
  }
  int all = 0;
  MPI_Reduce(&failed, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("nb_progress: %d checks, %d failed\n", checks, all);
  MPI_Finalize();
  return all != 0;
}
