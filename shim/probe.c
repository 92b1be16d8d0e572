/* The latency probe (see probe.h): the ping-pongs, the agreement, the new network view. */
#include "probe.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "gridcoll.h"
#include "latency.h"
#include "probe_schedule.h"

/* Our own tag on our own communicator (the private duplicate). */
#define GC_PROBE_TAG 0x6770

/* One pair: the lower cluster times (warm-up first, which also waits for the partner
 * to arrive), the higher one echoes. *one_way: smallest round trip / 2. */
static int ping_pong(MPI_Comm comm, int peer, int timer, double *one_way)
{
  char byte = 0;
  double best = -1;
  for (int i = 0; i <= GC_PROBE_REPS; i++) {
    int rc;
    double t0 = gc_clock_now();
    if (timer) {
      rc = PMPI_Send(&byte, 1, MPI_CHAR, peer, GC_PROBE_TAG, comm);
      if (rc == MPI_SUCCESS)
        rc = PMPI_Recv(&byte, 1, MPI_CHAR, peer, GC_PROBE_TAG, comm, MPI_STATUS_IGNORE);
    } else {
      rc = PMPI_Recv(&byte, 1, MPI_CHAR, peer, GC_PROBE_TAG, comm, MPI_STATUS_IGNORE);
      if (rc == MPI_SUCCESS)
        rc = PMPI_Send(&byte, 1, MPI_CHAR, peer, GC_PROBE_TAG, comm);
    }
    if (rc != MPI_SUCCESS)
      return rc;
    double rtt = gc_clock_now() - t0;
    if (i > 0 && (best < 0 || rtt < best))
      best = rtt;
  }
  *one_way = best / 2;
  return MPI_SUCCESS;
}

/* A leader's rounds: fills the row entries of the pairs its cluster times. */
static int measure(struct gc_comm_state *st, MPI_Comm priv, double *lat)
{
  const struct gc_layout *l = &st->layout;
  int k = l->nclusters, me = l->cluster_of[st->rank];
  for (int r = 0; r < gc_probe_rounds(k); r++) {
    int p = gc_probe_partner(k, r, me);
    if (p < 0)
      continue;
    double one_way = 0;
    int rc = ping_pong(priv, gc_layout_leader(l, p), me < p, &one_way);
    if (rc != MPI_SUCCESS)
      return rc;
    if (me < p)
      lat[me * k + p] = one_way;
  }
  return MPI_SUCCESS;
}

int gc_probe_latency(struct gc_comm_state *st)
{
  if (!gc_g.cfg.probe || st->probed || st->layout.nclusters < 2)
    return MPI_SUCCESS;
  st->probed = 1; /* once, even when it fails: every member takes this path together */
  int k = st->layout.nclusters, rc;
  size_t kk = (size_t)k * (size_t)k;
  MPI_Comm priv, leaders;
  if ((rc = gc_comm_named(st, &priv)) != MPI_SUCCESS ||
      (rc = gc_comm_leaders(st, &leaders)) != MPI_SUCCESS)
    return rc;
  /* lat[kk] is the failure flag, merged with the matrix. Agree on the memory before
   * any ping: no rank may drop out once others wait for it. */
  double *lat = calloc(kk + 1, sizeof *lat), *configured = malloc(kk * sizeof *configured);
  int ok = lat && configured, all_ok = 0;
  if (!ok) /* said by the rank that ran out; the others follow it silently */
    gc_warn_oom("the latency probe of communicator %llu did not run; every rank keeps the "
                "configured latencies", st->id);
  rc = PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, priv);
  if (rc != MPI_SUCCESS || !all_ok) {
    free(lat), free(configured);
    return rc;
  }
  if (leaders != MPI_COMM_NULL) {
    if (measure(st, priv, lat) != MPI_SUCCESS)
      lat[kk] = 1;
    /* Leader-communicator rank 0 is comm rank 0: it leads cluster 0, and the leaders
     * are ordered by comm rank. */
    int lrank;
    PMPI_Comm_rank(leaders, &lrank);
    rc = PMPI_Reduce(lrank == 0 ? MPI_IN_PLACE : lat, lat, (int)kk + 1, MPI_DOUBLE, MPI_MAX, 0,
                     leaders);
  }
  if (rc == MPI_SUCCESS)
    rc = PMPI_Bcast(lat, (int)kk + 1, MPI_DOUBLE, 0, priv);
  if (rc == MPI_SUCCESS && lat[kk] <= 0 && gc_probe_symmetrise(k, lat) == 0) {
    memcpy(configured, st->network.latency, kk * sizeof *configured);
    for (size_t i = 0; i < kk; i++)
      if (i % (size_t)(k + 1) != 0) /* the diagonal is the cluster's own alpha */
        st->network.latency[i] = lat[i];
    st->version++; /* what was built or decided on the old view is stale */
    if (st->rank == 0)
      gc_latency_report(st, configured, st->network.latency);
  } else {
    gc_warn("latency probe failed on communicator %llu; keeping the configured latencies",
            st->id);
  }
  free(lat), free(configured);
  return rc;
}
