/* Predicted versus actual, per call.
 *
 * A record per intercepted call and rank, kept in memory and written as CSV at
 * MPI_Finalize or when the buffer fills, never inside the timed region. Beside the
 * records, every rank keeps mpiP-style aggregates (count, sum, max) of the calls it
 * timed as rank 0 of the communicator; world rank 0 merges them into the summary
 * table at MPI_Finalize. */
#ifndef GC_LOG_H
#define GC_LOG_H

#include <stddef.h>
#include <stdio.h>
#include "comm_state.h"
#include "config.h"
#include "op.h"

/* How the application entered the collective. A blocking call is timed; a nonblocking
 * (MPI_I...) or persistent (MPI_..._init) one completes in the application's MPI_Wait or
 * MPI_Test, which gridcoll does not intercept, so it is logged once, when issued, with no
 * time: algorithm "native-nb" or "native-persistent", predicted_s and actual_s empty. */
enum gc_entry { GC_ENTRY_BLOCKING, GC_ENTRY_NONBLOCKING, GC_ENTRY_PERSISTENT };

/* One algorithm's prediction, as the candidates column writes it. */
struct gc_candidate {
  const char *name;
  double predicted; /* seconds; < 0: none or unsupported */
};

/* Everything the log and the summary print travels in the record, names included:
 * they know no collective. */
struct gc_record {
  unsigned long long comm_id;
  unsigned long long call; /* index of the call on its communicator, from 0 */
  int comm_size;
  int comm_rank;
  enum gc_op_id op;        /* the summary's row */
  const char *op_name;
  int algorithm;           /* index in the op's algorithm table (the summary's row) */
  const char *algorithm_name; /* the log's algorithm column (native-nb ... included) */
  int root;                /* -1 for all-to-all */
  size_t bytes;            /* m */
  int clusters;
  const char *model;       /* name of the model that predicted, NULL when none */
  double predicted;        /* seconds; < 0 when none */
  double actual;           /* seconds */
  /* Every algorithm's prediction (index as in the op's table; < 0: none or unsupported),
   * written only with log.candidates = true. */
  int ncandidates;
  struct gc_candidate candidates[GC_MAX_ALGORITHMS];
  enum gc_entry entry;     /* GC_ENTRY_BLOCKING unless said otherwise */
};

/* Timing of one call: gc_call_start before the collective, gc_call_stop after.
 * In sync mode start is a barrier and stop a max-reduction, both outside the timed region,
 * so comm rank 0 holds the collective's completion time. */
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
/* Fills rec->actual (and the id fields) and stores it; 1 when it did (the caller then
 * hands it to the summary on comm rank 0), 0 when nothing is timed. */
int gc_call_stop(struct gc_comm_state *st, struct gc_timing *t, struct gc_record *rec);
void gc_log_finalize(void);

/* A nonblocking or persistent call, issued (rec->entry says which): fills the id fields
 * and stores the record untimed, outside the summary. Collective like gc_call_start (the
 * first record on a communicator creates its private duplicate): call it on every member. */
void gc_log_issued(struct gc_comm_state *st, struct gc_record *rec);

/* The latency probe's result (probe.h), called on comm rank 0 only: one row per
 * ordered pair of st's clusters, kept in memory and written at MPI_Finalize beside
 * this rank's log file, as <log file>.latency.csv:
 *   comm,from,to,configured_s,measured_s
 * (comm as in the log, clusters by name); with GRIDCOLL_VERBOSE >= 2 also printed on
 * stderr, one line per pair. configured and measured are [k*k] in layout order. */
void gc_log_latency(const struct gc_comm_state *st, const double *configured,
                    const double *measured);

/* Open path for writing (created or truncated) without ever blocking: a FIFO, a socket
 * or a directory is refused. NULL with "PATH: reason" in why when it cannot be used. */
FILE *gc_open_output(const char *path, char *why, size_t len);

/* Expand %r (world rank), %p (pid), %j (job id from the launcher, else "0"), %% in a
 * log file pattern. Returns 0, or -1 if it does not fit. */
int gc_log_expand_path(const char *pattern, int rank, char *out, size_t outlen);

#endif
