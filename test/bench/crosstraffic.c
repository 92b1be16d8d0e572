/* What SimGrid's acknowledgement traffic (network/crosstraffic) does to an exchange whose
 * two directions carry their bytes in different numbers of flows (issue 27: why LG and
 * the relayed all-to-all lose more to it than the MPI library's own all-to-all).
 *
 *   crosstraffic FLOWS_0TO1 FLOWS_1TO0 [bytes]   (2 ranks, one on each end of a pair of
 *                                                 one-way links)
 *
 * A direction's flows: "N" (N equal messages) or terms "NxU" joined by '+', N messages of
 * U units each ("22x18" against "18x18+18x4": LG's cluster pair of 18 and 22 ranks,
 * shim/alltoall/pure/lg_schedule.h). Each direction carries `bytes` (default 64 MiB)
 * spread over its units; all messages are posted at once from one shared instant, and
 * each rank prints the time until its receives completed: "rank,seconds". With the
 * acknowledgements on, SimGrid adds every flow to the links of its way back at 5% of its
 * rate, and max-min sharing gives every flow on a saturated link the same rate, the
 * acknowledgement's own included: a direction with fewer flows than its reverse is held
 * to the reverse's per-flow rate and leaves its link partly idle
 * (scripts/bench-crosstraffic.sh prints what that costs). */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

enum { MAX_FLOWS = 256 };

/* Parses a direction's flows into units[] (one entry a message); returns the number of
 * messages, 0 when the text is not a valid list. */
static int parse_flows(const char *text, long units[MAX_FLOWS])
{
  int n = 0;
  const char *p = text;
  for (;;) {
    char *end;
    long count = strtol(p, &end, 10), each = 1;
    if (end == p || count < 1 || count > MAX_FLOWS - n)
      return 0;
    p = end;
    if (*p == 'x') {
      each = strtol(p + 1, &end, 10);
      if (end == p + 1 || each < 1 || each > 1000000)
        return 0;
      p = end;
    }
    for (long i = 0; i < count; i++)
      units[n++] = each;
    if (*p == '\0')
      return n;
    if (*p++ != '+')
      return 0;
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static long units[2][MAX_FLOWS];
  int flows[2] = {argc > 2 ? parse_flows(argv[1], units[0]) : 0,
                  argc > 2 ? parse_flows(argv[2], units[1]) : 0};
  long bytes = arg(argc, argv, 3, 64L << 20), total[2] = {0, 0};
  for (int d = 0; d < 2; d++)
    for (int i = 0; i < flows[d]; i++)
      total[d] += units[d][i];
  if (size != 2 || !flows[0] || !flows[1] || bytes < total[0] || bytes < total[1] ||
      bytes > INT_MAX) {
    if (rank == 0)
      fprintf(stderr, "usage: crosstraffic FLOWS FLOWS [bytes] on 2 ranks; FLOWS: N or NxU[+NxU...],"
                      " at most %d messages, bytes < 2 GiB\n", MAX_FLOWS);
    MPI_Finalize();
    return 2;
  }
  int out = rank, in = !rank; /* rank 0 sends the first direction */
  char *sendbuf = BENCH_ALLOC(bytes), *recvbuf = BENCH_ALLOC(bytes);
  MPI_Request req[2 * MAX_FLOWS];
  double t0 = start_together();
  /* A message of u units: u * (bytes / total) bytes; the last also the rest. */
  long at = 0;
  for (int i = 0; i < flows[in]; i++) {
    long n = i == flows[in] - 1 ? bytes - at : units[in][i] * (bytes / total[in]);
    MPI_Irecv(recvbuf + at, (int)n, MPI_BYTE, !rank, i, MPI_COMM_WORLD, &req[i]);
    at += n;
  }
  at = 0;
  for (int i = 0; i < flows[out]; i++) {
    long n = i == flows[out] - 1 ? bytes - at : units[out][i] * (bytes / total[out]);
    MPI_Isend(sendbuf + at, (int)n, MPI_BYTE, !rank, i, MPI_COMM_WORLD, &req[flows[in] + i]);
    at += n;
  }
  MPI_Waitall(flows[in], req, MPI_STATUSES_IGNORE);
  double received = MPI_Wtime() - t0;
  MPI_Waitall(flows[out], req + flows[in], MPI_STATUSES_IGNORE);
  printf("%d,%.6f\n", rank, received);
  BENCH_FREE(sendbuf);
  BENCH_FREE(recvbuf);
  MPI_Finalize();
  return 0;
}
