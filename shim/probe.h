/* Measured wide-area latency (GRIDCOLL_PROBE=1, or `probe = true;`).
 *
 * Once per communicator, at the first call of any collective that spans two clusters or
 * more and has a choice to make (dispatch.c; every
 * member makes that call, and whether it probes depends only on the configuration and
 * the layout), the cluster leaders ping-pong 1-byte messages in rounds of disjoint
 * pairs (probe_schedule.h: k-1 rounds for k clusters, k when k is odd), one warm-up
 * and GC_PROBE_REPS timed round trips per pair; one-way latency = smallest round trip
 * / 2 (as gridcoll-calibrate measures). The lower cluster of a pair times it. The
 * leaders' matrices are merged by a max-reduction to comm rank 0 (each entry is
 * written by one leader only, the others hold 0) and broadcast from there on the
 * private duplicate, so every rank symmetrises the same matrix and builds the same
 * tree. The measured values replace the configured latencies in the communicator's
 * network view (bandwidths stay configured) for every later prediction and tree on
 * it, all-to-all included; comm rank 0 logs them (latency.h).
 *
 * Cost: rounds * (GC_PROBE_REPS + 1) round trips of the slowest pair of each round,
 * about 2 k (GC_PROBE_REPS + 1) L for k clusters at one-way latency L (8 clusters at
 * 10 ms: about 1 s), plus one reduction and one broadcast of k*k doubles. Paid
 * once per communicator, before the broadcast that triggers it is timed. */
#ifndef GC_PROBE_H
#define GC_PROBE_H

#include "comm_state.h"

enum { GC_PROBE_REPS = 5 };

/* Probes st's clusters if the configuration asks for it, st spans two clusters or
 * more and it has not been probed yet; collective over st's communicator. On any
 * failure (out of memory on some rank, a PMPI error) every rank keeps the configured
 * latencies. MPI_SUCCESS or the PMPI error code. */
int gc_probe_latency(struct gc_comm_state *st);

#endif
