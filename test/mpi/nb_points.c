/* Where a nonblocking call's times are assembled over the ranks in sync mode (doc/log.md,
 * issue 28 item 4): at the communicator's next point, each on a duplicate of its own.
 *  - a half window's post: MPI_Ialltoall of 8 ints a rank, waited for, then 200 blocking
 *    MPI_Bcast of one int (a half of 128 calls fills and carries it);
 *  - MPI_Comm_free: MPI_Ibcast of 64 ints from rank 0, the last rank posting it 100 ms
 *    late (its line: a spread of about that);
 *  - unless the argument is "seen": MPI_Ibcast of 2 ints posted, the duplicate freed
 *    before its MPI_Wait (a call no member has seen complete at its point: each rank's
 *    own times). Each duplicate is named first by one MPI_Bcast. Freeing a communicator with a collective in flight is correct MPI; it is
 *    left out under GRIDCOLL_NONBLOCKING=grid only to keep this test about the log.
 * Every buffer is checked. Prints "nb_points: C checks, F failed". test/mpi/nonblocking.sh
 * reads the logs. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { A = 8, B = 64, REPEAT = 200 };

/* A duplicate of the world, named by a blocking call (a nonblocking call is logged only
 * on a communicator a blocking one named: doc/log.md). */
static MPI_Comm named_dup(void)
{
  MPI_Comm c;
  int x = 0;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Bcast(&x, 1, MPI_INT, 0, c);
  return c;
}

static void sleep_ms(int ms)
{
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0)
    ;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failed = 0, checks = 0, unseen = !(argc > 1 && strcmp(argv[1], "seen") == 0);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 16)
    MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Comm c;
  MPI_Request req;

  /* carried by a half window's post */
  int s[A * 16], r[A * 16], one;
  for (int i = 0; i < A * size; i++)
    s[i] = 1000 * rank + i, r[i] = -1;
  c = named_dup();
  MPI_Ialltoall(s, A, MPI_INT, r, A, MPI_INT, c, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  for (int p = 0; p < size; p++)
    for (int i = 0; i < A; i++)
      failed += r[p * A + i] != 1000 * p + rank * A + i;
  checks++;
  for (int k = 0; k < REPEAT; k++) {
    one = rank == 0 ? k : -1;
    MPI_Bcast(&one, 1, MPI_INT, 0, c);
    failed += one != k;
  }
  checks++;
  MPI_Comm_free(&c);

  /* carried by MPI_Comm_free, one rank late */
  int b[B];
  for (int i = 0; i < B; i++)
    b[i] = rank == 0 ? 7 * i + 3 : -1;
  c = named_dup();
  if (rank == size - 1)
    sleep_ms(100);
  MPI_Ibcast(b, B, MPI_INT, 0, c, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  for (int i = 0; i < B; i++)
    failed += b[i] != 7 * i + 3;
  checks++;
  MPI_Comm_free(&c);

  /* not seen complete anywhere at its point */
  if (unseen) {
    int u[2] = {rank == 0 ? 11 : -1, rank == 0 ? 12 : -1};
    c = named_dup();
    MPI_Ibcast(u, 2, MPI_INT, 0, c, &req);
    MPI_Comm_free(&c);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    failed += u[0] != 11 || u[1] != 12;
    checks++;
  }

  int all = 0;
  MPI_Reduce(&failed, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("nb_points: %d checks, %d failed\n", checks, all);
  MPI_Finalize();
  return 0;
}
