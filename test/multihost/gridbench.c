/* gridbench: completion times of MPI_Alltoall and MPI_Bcast across the delayed grid of
 * scripts/grid-up, for scripts/bench-multihost.sh. An ordinary MPI program: gridcoll, when
 * preloaded, picks the algorithm.
 *
 *   gridbench alltoall MAX REPS BATCH     sizes 1 KiB, 4 KiB, ... up to MAX bytes
 *   gridbench bcast MAX REPS ROOT,ROOT... the same, from each root
 *
 * prints (one line per timed measurement) "op,root,bytes,rep,seconds".
 *
 * A call's time across ranks is only as good as its clock, and ranks leave a barrier up
 * to a wide-area latency apart, so:
 *   - broadcast: the root's clock alone. Beforehand the root measures each rank's
 *     zero-byte round trip (median of 5) and takes half as that rank's one-way latency.
 *     Each call: barrier, then the root waits twice the largest one-way latency (every
 *     rank is then inside MPI_Bcast), reads its clock, broadcasts, and receives a
 *     zero-byte ack from every other rank, sent as soon as its MPI_Bcast returned. The
 *     call's time is the latest (ack arrival - that rank's one-way latency) - start: when
 *     the last rank had the message, as the root's clock sees it.
 *   - all-to-all (no root): after a barrier, BATCH back-to-back calls, timed on every rank;
 *     the time is the slowest rank's over BATCH. The barrier's exit skew (at most about
 *     one wide-area latency) is divided by BATCH; back-to-back calls may overlap a little
 *     (a rank that is done starts the next call), which the same division spreads.
 * One untimed call at every size (and root) first. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_PING 71
#define TAG_ACK 72

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* On the root: half the median zero-byte round trip to each rank (0 for itself). */
static void one_way(int root, int rank, int size, double *owl) {
  for (int r = 0; r < size; r++) {
    double rtt[5];
    owl[r] = 0;
    if (r == root) continue;
    for (int i = 0; i < 5; i++) {
      if (rank == root) {
        double t = MPI_Wtime();
        MPI_Send(NULL, 0, MPI_BYTE, r, TAG_PING, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_BYTE, r, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        rtt[i] = MPI_Wtime() - t;
      } else if (rank == r) {
        MPI_Recv(NULL, 0, MPI_BYTE, root, TAG_PING, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_BYTE, root, TAG_PING, MPI_COMM_WORLD);
      }
    }
    if (rank == root) {
      qsort(rtt, 5, sizeof *rtt, cmp);
      owl[r] = rtt[2] / 2;
    }
  }
}

/* One broadcast timed by the root as described above (every rank calls it). */
static double bcast_once(char *buf, long m, int root, int rank, int size, const double *owl,
                         double settle) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != root) {
    MPI_Bcast(buf, (int)m, MPI_BYTE, root, MPI_COMM_WORLD);
    MPI_Send(NULL, 0, MPI_BYTE, root, TAG_ACK, MPI_COMM_WORLD);
    return 0;
  }
  double t = MPI_Wtime();
  while (MPI_Wtime() - t < settle) {}
  double t0 = MPI_Wtime(), last = t0;
  MPI_Bcast(buf, (int)m, MPI_BYTE, root, MPI_COMM_WORLD);
  for (int k = 1; k < size; k++) {
    MPI_Status st;
    MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_ACK, MPI_COMM_WORLD, &st);
    double done = MPI_Wtime() - owl[st.MPI_SOURCE];
    if (done > last) last = done;
  }
  return last - t0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 5 || (strcmp(argv[1], "alltoall") != 0 && strcmp(argv[1], "bcast") != 0)) {
    if (rank == 0) fprintf(stderr, "usage: gridbench alltoall MAX REPS BATCH | bcast MAX REPS ROOT,ROOT...\n");
    MPI_Finalize();
    return 2;
  }
  long max = atol(argv[2]);
  int reps = atoi(argv[3]);
  int alltoall = strcmp(argv[1], "alltoall") == 0;
  char *send = malloc((size_t)max * (size_t)(alltoall ? size : 1));
  char *recv = malloc((size_t)max * (size_t)(alltoall ? size : 1));
  double *owl = malloc((size_t)size * sizeof *owl);
  if (!send || !recv || !owl || max < 1024 || reps < 1) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(send, rank, (size_t)max * (size_t)(alltoall ? size : 1));
  if (alltoall) {
    int batch = atoi(argv[4]);
    if (batch < 1) MPI_Abort(MPI_COMM_WORLD, 1);
    for (long m = 1024; m <= max; m *= 4) {
      MPI_Alltoall(send, (int)m, MPI_BYTE, recv, (int)m, MPI_BYTE, MPI_COMM_WORLD);
      for (int r = 0; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime(), t, slowest;
        for (int b = 0; b < batch; b++)
          MPI_Alltoall(send, (int)m, MPI_BYTE, recv, (int)m, MPI_BYTE, MPI_COMM_WORLD);
        t = (MPI_Wtime() - t0) / batch;
        MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) printf("alltoall,-1,%ld,%d,%.9f\n", m, r, slowest);
      }
      if (rank == 0) fflush(stdout);
    }
  } else {
    char *roots = strdup(argv[4]);
    for (char *tok = strtok(roots, ","); tok; tok = strtok(NULL, ",")) {
      int root = atoi(tok);
      if (root < 0 || root >= size) continue;
      one_way(root, rank, size, owl);
      double settle = 0;
      for (int r = 0; r < size; r++)
        if (2 * owl[r] > settle) settle = 2 * owl[r];
      for (long m = 1024; m <= max; m *= 4) {
        bcast_once(send, m, root, rank, size, owl, settle);
        for (int r = 0; r < reps; r++) {
          double t = bcast_once(send, m, root, rank, size, owl, settle);
          if (rank == root) printf("bcast,%d,%ld,%d,%.9f\n", root, m, r, t);
        }
        if (rank == root) fflush(stdout);
      }
    }
    free(roots);
  }
  if (rank == 0) {
    printf("gridbench: done\n");
    fflush(stdout);
  }
  free(send);
  free(recv);
  free(owl);
  MPI_Finalize();
  return 0;
}
