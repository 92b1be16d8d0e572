/* MPI_Ibcast and MPI_Ialltoall, completed by MPI_Wait, by a loop of MPI_Test, and together
 * by MPI_Waitall, from every root, on the world and on a communicator of every other
 * rank, three times each on new data: every byte against what the root (the sender)
 * wrote. Plain MPI 3, so that SimGrid's SMPI runs it too (test/smpi/nonblocking.sh: the
 * schedules behind plain generalized requests). Prints "nb_basic: C checks, F failed". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int checks, failed;

static void check(int ok)
{
  checks++;
  failed += !ok;
}

static void one_comm(MPI_Comm comm, int n)
{
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *b = malloc(sizeof(int) * (size_t)n), *s = malloc(sizeof(int) * (size_t)n * size),
      *r = malloc(sizeof(int) * (size_t)n * size);
  if (!b || !s || !r)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (int root = 0; root < size; root++)
    for (int it = 0; it < 3; it++) {
      for (int i = 0; i < n; i++)
        b[i] = rank == root ? 7 * i + it + root : -1;
      for (int i = 0; i < n * size; i++)
        s[i] = 1000000 * rank + i + it, r[i] = -1;
      MPI_Request q[2];
      MPI_Ibcast(b, n, MPI_INT, root, comm, &q[0]);
      MPI_Ialltoall(s, n, MPI_INT, r, n, MPI_INT, comm, &q[1]);
      if (it == 0) {
        MPI_Wait(&q[0], MPI_STATUS_IGNORE);
        MPI_Wait(&q[1], MPI_STATUS_IGNORE);
      } else if (it == 1) {
        for (int k = 0; k < 2; k++)
          for (int flag = 0; !flag;)
            MPI_Test(&q[k], &flag, MPI_STATUS_IGNORE);
      } else {
        MPI_Status st[2]; /* gcc's -Wstringop-overflow trips on MPI_STATUSES_IGNORE */
        MPI_Waitall(2, q, st);
      }
      for (int i = 0; i < n; i++)
        check(b[i] == 7 * i + it + root);
      for (int p = 0; p < size; p++)
        for (int i = 0; i < n; i++)
          check(r[p * n + i] == 1000000 * p + rank * n + i + it);
    }
  free(b), free(s), free(r);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, n = argc > 1 ? atoi(argv[1]) : 1000;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  one_comm(MPI_COMM_WORLD, n);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  /* A blocking collective first: under gridcoll it makes what the nonblocking calls need
   * and may not wait for the other ranks to make (MPI_COMM_WORLD has it from MPI_Init). */
  int x = 0;
  MPI_Bcast(&x, 1, MPI_INT, 0, half);
  one_comm(half, n);
  MPI_Comm_free(&half);
  int mine[2] = {checks, failed}, all[2];
  MPI_Reduce(mine, all, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("nb_basic: %d checks, %d failed\n", all[0], all[1]);
  MPI_Finalize();
  return 0;
}
