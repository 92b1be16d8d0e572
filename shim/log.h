/* Predicted versus actual, per call.
 *
 * A record per intercepted call and rank, a CSV line once its time is final, kept in a
 * 64 KiB chunk of text written when it fills and at MPI_Finalize (or exit), never inside
 * the timed region. Times are seconds to the nanosecond (%.9f). Beside the
 * records, every rank keeps mpiP-style aggregates (count, sum, max) of the calls it
 * timed as rank 0 of the communicator; world rank 0 merges them into the summary
 * table at MPI_Finalize. */
#ifndef GC_LOG_H
#define GC_LOG_H

#include <stddef.h>
#include <stdio.h>
#include "comm_state.h"
#include "config.h"
#include "record.h"

/* Timing of one call: gc_call_start before the collective, gc_call_stop after, each a
 * clock read and nothing else. In sync mode the completion time is assembled later,
 * outside any call (log.c: the window). */
struct gc_timing {
  double t0;
  int logging;
};

void gc_log_open(const struct gc_config *cfg);
/* Calls are timed and recorded (a log file or the summary wants them): the same on
 * every rank, from the agreed configuration. */
int gc_log_enabled(void);
/* Whether the configuration asks for the end-of-run summary (summary.h). */
int gc_log_wants_summary(const struct gc_config *cfg);
void gc_call_start(struct gc_comm_state *st, struct gc_timing *t);
/* Fills rec's call index, clusters and elapsed time and keeps its line: stored (and given
 * to the summary on comm rank 0) at once in local mode; in sync mode once the completion
 * time is assembled. 1 when the call is recorded, 0 when nothing is timed. */
int gc_call_stop(struct gc_comm_state *st, struct gc_timing *t, struct gc_record *rec);
/* gc_call_stop for a call the line what already says (the logged fast path's template,
 * dispatch.c: no record built, no candidates): its call index and times are its own. */
void gc_call_stop_as(struct gc_comm_state *st, struct gc_timing *t,
                     const struct gc_call_line *what);
/* Collective over MPI_COMM_WORLD: the records of communicators still alive are
 * assembled over the world, then written. */
void gc_log_finalize(void);

/* A nonblocking or persistent call, issued (rec->entry says which): fills its call index
 * and clusters and stores its line untimed, outside the summary. Collective like gc_call_start (the
 * first record on a communicator creates its private duplicate): call it on every member. */
void gc_log_issued(struct gc_comm_state *st, struct gc_record *rec);

/* The latency probe's result (probe.h), called on comm rank 0 only: one row per
 * ordered pair of st's clusters, kept in memory and written at MPI_Finalize beside
 * this rank's log file, as <log file>.latency.csv (seconds in %.9f, as the log's):
 *   comm,from,to,configured_s,measured_s
 * (comm as in the log, clusters by name); with GRIDCOLL_VERBOSE >= 2 also printed on
 * stderr, one line per pair. configured and measured are [k*k] in layout order. */
void gc_log_latency(const struct gc_comm_state *st, const double *configured,
                    const double *measured);


#endif
