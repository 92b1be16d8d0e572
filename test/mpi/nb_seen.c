/* Where a nonblocking or persistent call's log line takes its times (doc/log.md, issue 28
 * item 4): three calls, MPI_Ibcast (root 0), MPI_Bcast_init started once (MPI 4) and
 * MPI_Ialltoall, each polled with MPI_Request_get_status until it is complete (which
 * advances gridcoll's schedules but completes nothing for the application), then left
 * for `ms` milliseconds (the argument, 300 by default) before the MPI_Wait that completes
 * it. Under GRIDCOLL_NONBLOCKING=grid with a tree and LG forced, each line must have the
 * sleep in actual_s (post to the completion the application saw) and not in own_s (post
 * to the schedule's last step): test/mpi/nonblocking.sh reads them. Every buffer is
 * checked. Prints "nb_seen: C checks, F failed". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { N = 64 };

static void wait_seen_late(MPI_Request *req, int ms)
{
  int flag = 0;
  while (!flag)
    MPI_Request_get_status(*req, &flag, MPI_STATUS_IGNORE);
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0)
    ;
  MPI_Wait(req, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failed = 0, checks = 0, ms = argc > 1 ? atoi(argv[1]) : 300;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int buf[N], *sbuf = malloc(sizeof(int) * N * (size_t)size),
             *rbuf = malloc(sizeof(int) * N * (size_t)size);
  if (!sbuf || !rbuf)
    MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Request req;
  for (int i = 0; i < N; i++)
    buf[i] = rank == 0 ? 3 * i + 1 : -1;
  MPI_Ibcast(buf, N, MPI_INT, 0, MPI_COMM_WORLD, &req);
  wait_seen_late(&req, ms);
  for (int i = 0; i < N; i++)
    failed += buf[i] != 3 * i + 1;
  checks++;
#if MPI_VERSION >= 4
  for (int i = 0; i < N; i++)
    buf[i] = rank == 0 ? 5 * i + 2 : -1;
  MPI_Bcast_init(buf, N, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  MPI_Start(&req);
  wait_seen_late(&req, ms);
  MPI_Request_free(&req);
  for (int i = 0; i < N; i++)
    failed += buf[i] != 5 * i + 2;
  checks++;
#endif
  for (int i = 0; i < N * size; i++)
    sbuf[i] = rank * 100000 + i, rbuf[i] = -1;
  MPI_Ialltoall(sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD, &req);
  wait_seen_late(&req, ms);
  for (int p = 0; p < size; p++)
    for (int i = 0; i < N; i++)
      failed += rbuf[p * N + i] != p * 100000 + rank * N + i;
  checks++;
  free(sbuf), free(rbuf);
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("nb_seen: %d checks, %d failed\n", checks, failed);
  MPI_Finalize();
  return failed != 0;
}
