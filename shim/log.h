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
  double actual;           /* seconds: the collective's completion time in sync mode (the
                            * first rank's entry, a broadcast's root's, to the last rank's
                            * exit, in comm rank 0's clock), this rank's own in local mode */
  double elapsed;          /* seconds: this rank's own time in the call */
  /* Every algorithm's prediction (index as in the op's table; < 0: none or unsupported),
   * written only with log.candidates = true. */
  int ncandidates;
  struct gc_candidate candidates[GC_MAX_ALGORITHMS];
  enum gc_entry entry;     /* GC_ENTRY_BLOCKING unless said otherwise */
};

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
/* Fills rec's times and id fields and keeps it: stored (and given to the summary on comm
 * rank 0) at once in local mode; in sync mode once the completion time is assembled. 1
 * when the call is recorded, 0 when nothing is timed. */
int gc_call_stop(struct gc_comm_state *st, struct gc_timing *t, struct gc_record *rec);
/* The communicator is being freed (its attribute's delete callback, on every member, as
 * MPI_Comm_free is collective): its pending records are assembled over st's private
 * duplicate, still valid here, and the window freed. */
void gc_log_comm_free(struct gc_comm_state *st);
/* Collective over MPI_COMM_WORLD: the records of communicators still alive are
 * assembled over the world, then written. */
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
