/* What both collectives' dispatch does around an algorithm: record the choice, fall
 * back to the native call, finish the timing, report errors as MPI would. */
#ifndef GC_DISPATCH_H
#define GC_DISPATCH_H

#include "comm_state.h"
#include "log.h"

/* Whether a call needs predictions at all: `auto` chooses by them, and a log or the
 * summary records them. A forced algorithm with nothing logged skips the models (and the
 * tree builds behind the broadcast's) on the per-call path. */
int gc_dispatch_needs_predictions(const char *wanted);

/* gc_select over an op's n algorithms, then the record: chosen algorithm, its
 * prediction and model, and every candidate's prediction (-1 where unsupported). */
int gc_dispatch_choose(const char *wanted, int n, const char *const *names, const int *supported,
                       const double *predicted, const char *const *models,
                       struct gc_record *rec);

/* The chosen algorithm gave way (GC_FALLBACK): the record now says native, unpredicted. */
void gc_dispatch_fell_back(struct gc_record *rec);

/* Stops the timing and stores the record; a grid algorithm's error (from our private
 * duplicate, where errors return as codes) goes to the application's error handler, as
 * the native call's would. Returns rc. */
int gc_dispatch_finish(struct gc_comm_state *st, struct gc_timing *timing, struct gc_record *rec,
                       int rc);

#endif
