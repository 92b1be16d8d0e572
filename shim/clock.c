/* One clock for every rank (clock.h). */
#include "clock.h"

#include <math.h>

#include "gridcoll.h"

static double clock_offset; /* this rank's clock minus world rank 0's */

static double mpi_wtime(void)
{
  return PMPI_Wtime();
}

void gc_clock_use(enum gc_clock_source source)
{
#ifndef SMPI_H /* MPI_Wtime alone there (clock.h) */
  if (source == GC_CLOCK_MONOTONIC)
    gc_timebase_use(NULL, 0);
  else if (source == GC_CLOCK_MPI)
    gc_timebase_use(mpi_wtime, 0);
  else
    gc_timebase_use(NULL, 1);
  gc_timebase_start();
#else
  (void)source, (void)mpi_wtime;
#endif
}

double gc_clock_offset(void)
{
  return clock_offset;
}

/* One ping-pong series from `me` measuring `peer`'s clock against its own: the sample of
 * least round trip, offset = t_peer - (t_send + rtt/2) (SKaMPI, ReproMPI). Returns the
 * peer's clock minus mine. */
#define GC_SYNC_ROUNDS 8
static double measure_offset(MPI_Comm c, int peer)
{
  double best_rtt = HUGE_VAL, offset = 0;
  for (int i = 0; i < GC_SYNC_ROUNDS; i++) {
    double t_peer, t_send = gc_clock_now();
    PMPI_Send(NULL, 0, MPI_BYTE, peer, 1, c);
    PMPI_Recv(&t_peer, 1, MPI_DOUBLE, peer, 2, c, MPI_STATUS_IGNORE);
    double rtt = gc_clock_now() - t_send;
    if (rtt < best_rtt)
      best_rtt = rtt, offset = t_peer - (t_send + rtt / 2);
  }
  return offset;
}

static void answer_offset(MPI_Comm c, int measurer)
{
  for (int i = 0; i < GC_SYNC_ROUNDS; i++) {
    PMPI_Recv(NULL, 0, MPI_BYTE, measurer, 1, c, MPI_STATUS_IGNORE);
    double now = gc_clock_now();
    PMPI_Send(&now, 1, MPI_DOUBLE, measurer, 2, c);
  }
}

/* Collective over the world at MPI_Init: each rank's offset to world rank 0. Leaders (the
 * lowest world rank of each cluster) first, measured by world rank 0 over the wide area
 * one after the other; then every leader measures its members over its own cluster, the
 * clusters at once, and hands each its total (member to leader plus leader to rank 0).
 * Once: the log and `auto`'s learning (dispatch.c) share it. */
static int clock_synced;
void gc_clock_sync(void)
{
  if (clock_synced)
    return;
  clock_synced = 1;
  int global = 0, found = 0, *flag = NULL;
  PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &flag, &found);
  global = found && flag && *flag;
  PMPI_Allreduce(MPI_IN_PLACE, &global, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  /* A global MPI_Wtime is one clock already, better than offsets estimated here: read it
   * (before anything was read). */
  if (global)
    gc_clock_use(GC_CLOCK_MPI);
#ifdef SMPI_H
  gc_debug(2, "clock: MPI_Wtime (simulated)");
#else
  gc_debug(2, "clock: %s", global ? "MPI_Wtime (global)" : gc_timebase_source());
#endif
  if (global || gc_g.world_size < 2 || !gc_g.world_cluster)
    return;
  MPI_Comm c;
  if (PMPI_Comm_dup(MPI_COMM_WORLD, &c) != MPI_SUCCESS)
    return;
  int me = gc_g.world_rank, n = gc_g.world_size, *cl = gc_g.world_cluster;
  int leader = me;
  for (int r = 0; r < n; r++)
    if (cl[r] == cl[me]) {
      leader = r;
      break;
    }
  double mine = 0;
  if (me == 0) {
    for (int r = 1; r < n; r++) {
      int first = 1;
      for (int q = 0; q < r && first; q++)
        first = cl[q] != cl[r];
      if (first && cl[r] != cl[0]) {
        double o = measure_offset(c, r);
        PMPI_Send(&o, 1, MPI_DOUBLE, r, 3, c);
      }
    }
  } else if (leader == me) {
    answer_offset(c, 0);
    PMPI_Recv(&mine, 1, MPI_DOUBLE, 0, 3, c, MPI_STATUS_IGNORE);
  }
  if (leader == me) {
    for (int r = me + 1; r < n; r++)
      if (cl[r] == cl[me]) {
        double o = measure_offset(c, r) + mine;
        PMPI_Send(&o, 1, MPI_DOUBLE, r, 3, c);
      }
  } else {
    answer_offset(c, leader);
    PMPI_Recv(&mine, 1, MPI_DOUBLE, leader, 3, c, MPI_STATUS_IGNORE);
  }
  clock_offset = mine;
  gc_debug(2, "clock offset to world rank 0: %.9g s", mine);
  PMPI_Comm_free(&c);
}
