/* The probe's report (probe.h): the wide-area latencies it measured, beside the log.
 *
 * Called on comm rank 0 only: one row per ordered pair of the communicator's clusters,
 * kept in memory and written at MPI_Finalize (or at an exit without it) beside this
 * rank's log file, as <log file>.latency.csv (seconds in %.9f, as the log's):
 *   comm,from,to,configured_s,measured_s
 * (comm as in the log, clusters by name); with GRIDCOLL_VERBOSE >= 2 also printed on
 * stderr, one line per pair. configured and measured are [k*k] in layout order. */
#ifndef GC_LATENCY_H
#define GC_LATENCY_H

#include "comm_state.h"

void gc_latency_report(const struct gc_comm_state *st, const double *configured,
                       const double *measured);
/* The rows kept so far, written (at MPI_Finalize; at exit by itself). */
void gc_latency_finalize(void);

#endif
