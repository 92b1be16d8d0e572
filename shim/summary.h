/* The end-of-run table, in the spirit of mpiP: per operation x algorithm x communicator
 * size x message-size bucket, aggregates kept in memory on each rank (the rows it used)
 * and merged on world rank 0 at MPI_Finalize: the union of the ranks' rows gathered, then
 * two reductions (sums and histograms, maxima) over it. Calls on one-process
 * communicators are counted apart and never scored. */
#ifndef GC_SUMMARY_H
#define GC_SUMMARY_H

#include <stddef.h>

#include "config.h"
#include "op.h"

void gc_summary_reset(int enabled);
/* One timed call, counted once: by comm rank 0, which holds its full time. first: the
 * communicator's first call (its set-up shown apart); comm_size: its communicator's
 * processes (1: counted apart, not scored); predicted < 0: none. actual, own: its
 * completion and own times (span_time.h), the prediction scored against own, signed
 * ((predicted - own) / own); wait: the arrival spread, a broadcast's root lateness
 * (< 0: none, as in local mode); explored: measured for learning (learn.h: the table's
 * learning lines say what it cost). */
void gc_summary_add(enum gc_op_id op, int algorithm, int first, int comm_size, size_t bytes,
                    double predicted, double actual, double own, double wait, int explored);

/* Names of the table's rows: the operation's name (algorithm < 0) or its algorithm's.
 * Given by the caller that knows the operations (startup.c): a row may hold only other
 * ranks' calls, whose records world rank 0 never saw. */
typedef const char *gc_summary_namer(int op, int algorithm);

/* Collective over MPI_COMM_WORLD when enabled (all ranks agree on that). */
void gc_summary_finalize(const struct gc_config *cfg, gc_summary_namer *name);

/* Bucket of a message size: 0 for 0 bytes, b for [2^(b-1), 2^b). */
int gc_summary_bucket(size_t bytes);

#endif
