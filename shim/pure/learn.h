/* What `auto` learns from measured calls (issue 13, point 3). Pure C, no MPI.
 *
 * The models choose well where they are right; where a configuration is wrong (a
 * bandwidth off by 2x, a library that behaves otherwise than its model) they choose
 * the slower algorithm at every call. So for each (communicator, operation, size class,
 * root cluster) the algorithms the models cannot tell apart with confidence, those
 * predicted within GC_LEARN_FACTOR of the best, are each run and timed, in turn, and
 * the fastest measured is kept: an algorithm measured slower than another that was also
 * measured is never chosen again (for that key, under that network view).
 *
 * The dispatch (dispatch.c) supplies the measurements: each one is a call's completion
 * time agreed by every rank (one MPI_MAX reduction of the ranks' entry and exit times),
 * so every rank feeds the same numbers in the same order, and every rank's entry makes
 * the same choice. This module only keeps the books.
 *
 * An entry is keyed by the size class (floor(log2 bytes) mod GC_DECISIONS, as the
 * decision cache's) and the root cluster, and stamped with the communicator's network
 * version: a probe that changes the view restarts learning. Only calls of the entry's
 * own byte count are measured (two sizes of one class are not the same work); the
 * choice then serves the whole class. */
#ifndef GC_LEARN_H
#define GC_LEARN_H

#include <stddef.h>

#include "decision.h"

/* At most this many algorithms are explored for one key: each costs GC_LEARN_ROUNDS
 * calls run with a possibly slower algorithm. 6 of the broadcast's 7: on korea8 four
 * trees are often predicted alike (spt, greedy, hlot, multilevel) though they differ by
 * up to 20% in fact, and the fastest may be a fifth (flat, with every wide-area bandwidth
 * declared 2x too high: test/smpi/learn.sh). */
enum { GC_LEARN_MAX = 6 };
/* Runs of each candidate, the fastest kept: the first run of an algorithm on a
 * communicator pays its set-up (sub-communicators, schedules, buffers) and a real
 * network adds noise; the minimum of two discards one such outlier. */
enum { GC_LEARN_ROUNDS = 2 };
/* Root clusters learnt at once per size class (korea8's broadcasts come from 3). */
enum { GC_LEARN_WAYS = 4 };
/* An algorithm predicted slower than the best prediction by more than this factor is
 * not explored: a configuration wrong by 2x leaves the true best within it. */
#define GC_LEARN_FACTOR 2.5

struct gc_learn {
  unsigned long long stamp; /* version + 1 when started; 0: empty */
  size_t bytes;             /* the byte count measured */
  int root_cluster;         /* -1 for an operation without root */
  int ncandidates;
  int candidate[GC_LEARN_MAX]; /* algorithm indices, in the order explored */
  double best[GC_LEARN_MAX];   /* fastest measured of each, seconds; < 0: none yet */
  int runs;                    /* measured calls so far */
  int choice;                  /* the algorithm kept, -1 while exploring */
};

struct gc_learn_table {
  struct gc_learn entry[GC_DECISIONS][GC_LEARN_WAYS];
  unsigned next_way[GC_DECISIONS]; /* the way a new key replaces, round robin */
};

/* Candidates among n algorithms (index 0 the MPI library's own): supported ones with a
 * prediction within GC_LEARN_FACTOR of the best prediction, nearest first, at most
 * GC_LEARN_MAX, always with `pick` (gc_select's) first, then the native one if it is
 * within the factor. Without a native prediction nothing can be compared: `pick` alone.
 * Returns the count (>= 1). */
int gc_learn_candidates(int n, const int *supported, const double *predicted, int pick,
                        int out[GC_LEARN_MAX]);

/* The entry for (bytes' class, root_cluster) under version, or NULL. */
struct gc_learn *gc_learn_find(struct gc_learn_table *t, size_t bytes, int root_cluster,
                               unsigned long long version);

/* A fresh entry for that key, replacing a stale one or, round robin, a way of its class;
 * exploring candidate[0..n-1] (n from 1 to GC_LEARN_MAX; with 1 it is decided at once). */
struct gc_learn *gc_learn_start(struct gc_learn_table *t, size_t bytes, int root_cluster,
                                unsigned long long version, int n, const int *candidate);

/* The algorithm the next measured call runs: candidates in order, round after round.
 * Only while e->choice < 0. */
int gc_learn_next(const struct gc_learn *e);

/* The own time of a call that ran `algorithm` for e (span_time.h: the wait for late
 * ranks left out; seconds; NaN, an infinity or a negative time counts as a run slower
 * than any real one, so it never becomes the choice). Once every candidate has GC_LEARN_ROUNDS runs, e->choice is the fastest (a tie
 * keeps the earlier in the order, the native one before any other). A measurement of
 * an algorithm that is not a candidate, or after the choice, changes nothing. */
void gc_learn_record(struct gc_learn *e, int algorithm, double seconds);

#endif
