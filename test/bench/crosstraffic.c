/* What SimGrid's acknowledgement traffic (network/crosstraffic) does to an exchange whose
 * two directions carry the same bytes in different numbers of flows (issue 27: why LG and
 * the relayed all-to-all lose more to it than the MPI library's own all-to-all).
 *
 *   crosstraffic A B [bytes]   (2 ranks, one on each end of a pair of one-way links)
 *
 * Rank 0 sends `bytes` (default 64 MiB) to rank 1 in A equal messages, rank 1 the same
 * bytes to rank 0 in B, all posted at once from one shared instant; each rank prints the
 * time until its receives completed: "flows_in,flows_out,seconds". With the
 * acknowledgements on, SimGrid adds every flow to the links of its way back at 5% of its
 * rate, and max-min sharing gives every flow on a saturated link the same rate, the
 * acknowledgement's own included: a direction with fewer flows than its reverse is held to
 * the reverse's per-flow rate and leaves its link partly idle
 * (scripts/bench-crosstraffic.sh prints what that costs). */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

enum { MAX_FLOWS = 256 };

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long flows[2] = {arg(argc, argv, 1, 1), arg(argc, argv, 2, 1)};
  long bytes = arg(argc, argv, 3, 64L << 20);
  if (size != 2 || flows[0] < 1 || flows[1] < 1 || flows[0] > MAX_FLOWS ||
      flows[1] > MAX_FLOWS || bytes < flows[0] || bytes < flows[1] || bytes > INT_MAX) {
    if (rank == 0)
      fprintf(stderr, "usage: crosstraffic A B [bytes] on 2 ranks, 1 <= A, B <= %d, bytes < 2 GiB\n",
              MAX_FLOWS);
    MPI_Finalize();
    return 2;
  }
  long out = flows[rank], in = flows[!rank];
  char *sendbuf = BENCH_ALLOC(bytes), *recvbuf = BENCH_ALLOC(bytes);
  MPI_Request req[2 * MAX_FLOWS];
  double t0 = start_together();
  /* Every message but the last holds bytes / flows; the last the rest. */
  for (long i = 0; i < in; i++) {
    long at = i * (bytes / in), n = i == in - 1 ? bytes - at : bytes / in;
    MPI_Irecv(recvbuf + at, (int)n, MPI_BYTE, !rank, (int)i, MPI_COMM_WORLD, &req[i]);
  }
  for (long i = 0; i < out; i++) {
    long at = i * (bytes / out), n = i == out - 1 ? bytes - at : bytes / out;
    MPI_Isend(sendbuf + at, (int)n, MPI_BYTE, !rank, (int)i, MPI_COMM_WORLD, &req[in + i]);
  }
  MPI_Waitall((int)in, req, MPI_STATUSES_IGNORE);
  double received = MPI_Wtime() - t0;
  MPI_Waitall((int)out, req + in, MPI_STATUSES_IGNORE);
  printf("%ld,%ld,%.6f\n", in, out, received);
  BENCH_FREE(sendbuf);
  BENCH_FREE(recvbuf);
  MPI_Finalize();
  return 0;
}
