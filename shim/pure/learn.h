/* What `auto` learns from measured calls (issue 13, point 3; issue 26). Pure C, no MPI.
 *
 * The models choose well where they are right; where a configuration is wrong (a
 * bandwidth off by 2x, a library that behaves otherwise than its model) they choose the
 * slower algorithm at every call. So for each (communicator, operation, size class, root
 * cluster) learning measures what the evidence cannot rule out, keeps the fastest, and
 * keeps watching it:
 *
 *   1. Explore. The models' pick is measured first. After each measurement every
 *      candidate's prediction is corrected by what the measurements taught: scaled by the
 *      geometric mean of measured / predicted over the algorithms measured (or by the
 *      candidate's own ratio where a neighbouring size class measured it), and widened by
 *      the model's observed error (the spread of those ratios; GC_LEARN_PRIOR while one
 *      algorithm alone was measured). The next call measures the unmeasured candidate
 *      with the lowest corrected prediction that, widened, could still beat the best
 *      measured time; then the best and its nearest rival, when within GC_LEARN_CLEAR
 *      of each other, are measured a second time (an algorithm clearly slower after one
 *      measurement never is). An algorithm's first run at the key (cold: trees built,
 *      buffers grown, sub-communicators made) beyond GC_LEARN_COLD of another's time
 *      bounds it from above only.
 *   2. Budget. A candidate ruled out by its prediction alone (never measured warm) is
 *      measured once the calls made at the key let one exploratory call's expected regret
 *      (its corrected prediction, divided by how wrong the models were seen at the key,
 *      above the best) fit GC_LEARN_BUDGET of the key's time at the best, times that same
 *      error where it is above GC_LEARN_WIDEN_MIN (at most GC_LEARN_WIDEN_MAX), counting
 *      the regret already spent (the key's first call, the models' pick as it would run
 *      without learning, apart): the lowest estimate first, the MPI library's own on a tie.
 *      A model wrong by 5x then costs a bounded share of the run, not the run, and is
 *      measured the sooner the more wrong it was seen; once the watch saw a drift (3.) the
 *      models' error no longer counts: what they were seen to miss since is the network's
 *      change, which the stale times' re-measures handle.
 *   3. Watch. The kept algorithm's times at the key are averaged over windows
 *      (GC_LEARN_WATCH_FIRST calls, doubling while the choice holds, as STAR-MPI's); a
 *      window whose mean is more than GC_LEARN_DRIFT above the runner-up's estimate (its
 *      last measurement, else its corrected prediction) makes every other time stale:
 *      the candidates are measured again, lowest former estimate first, while that
 *      estimate could beat the best time measured since the drift. The
 *      choice changes only for an algorithm faster by more than GC_LEARN_HYSTERESIS; with
 *      the drift's 10% that keeps two close algorithms from alternating.
 *
 * The dispatch (dispatch.c) supplies the measurements: each one is a call's own time
 * agreed by every rank (one MPI_MAX reduction of the ranks' entry and exit times,
 * span_time.h), so every rank feeds the same numbers in the same order, and every rank
 * makes the same choice. This module only keeps the books.
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

/* Every algorithm of an operation may be a candidate (op_info.h: GC_MAX_ALGORITHMS). */
enum { GC_LEARN_MAX = 8 };
/* Root clusters learnt at once per size class (korea8's broadcasts come from 3). */
enum { GC_LEARN_WAYS = 4 };
/* The models' error assumed while one algorithm alone is measured. Issue 13 used 2.5 (a
 * configuration wrong by 2x leaves the true best within it) and paid 15-38% over the
 * first 15 calls; what a larger error hides is measured later, under the budget. */
#define GC_LEARN_PRIOR 1.5
/* The least error assumed once two algorithms or more were measured: their ratios may
 * agree by chance. */
#define GC_LEARN_WIDEN_MIN 1.25
/* Clearly slower: measured above the best by more than this factor; never measured twice. */
#define GC_LEARN_CLEAR 1.10
/* A first run at a key within this factor of another's time counts as a measurement; a
 * slower one may be its set-up (korea8's first broadcast from a new root cluster: 8x),
 * and bounds it only. */
#define GC_LEARN_COLD 1.5
/* The widest error assumed, however far apart the measured ratios: what lies beyond is
 * left to the budget. */
#define GC_LEARN_WIDEN_MAX 2.5
/* The regret (time above the best) exploration after settling may spend: this share of
 * the key's calls at the best time, times how wrong the models were seen at the key where
 * that is more than GC_LEARN_WIDEN_MIN (at most GC_LEARN_WIDEN_MAX). */
#define GC_LEARN_BUDGET 0.01
/* Drift: the kept algorithm's window mean above the runner-up's estimate by this factor. */
#define GC_LEARN_DRIFT 1.10
/* A new choice after settling must be faster than the kept one by this share. */
#define GC_LEARN_HYSTERESIS 0.02
/* The watch's first window (calls of the kept algorithm) and its largest. */
enum { GC_LEARN_WATCH_FIRST = 16, GC_LEARN_WATCH_MAX = 4096 };

enum gc_learn_phase { GC_LEARN_EXPLORING, GC_LEARN_SETTLED };

struct gc_learn {
  unsigned long long stamp; /* version + 1 when started; 0: empty */
  size_t bytes;             /* the byte count measured */
  int root_cluster;         /* -1 for an operation without root */
  int ncandidates;
  int candidate[GC_LEARN_MAX];  /* algorithm indices, [0] the models' pick */
  double predicted[GC_LEARN_MAX]; /* the models' seconds at bytes */
  double hint[GC_LEARN_MAX];    /* measured / predicted at a neighbouring class; < 0: none */
  double best[GC_LEARN_MAX];    /* fastest measured (cold included), seconds; < 0: none */
  unsigned char runs[GC_LEARN_MAX]; /* measurements that count (not a first run's bound) */
  unsigned char seen[GC_LEARN_MAX]; /* measured at this key before: the next run is warm */
  unsigned char pending[GC_LEARN_MAX]; /* ruled out by prediction alone: for the budget */
  /* After a drift: the candidates whose times predate it, with what they were expected
   * to take then (measured, else corrected); each is measured again while that could
   * beat the best time measured since. */
  unsigned char stale[GC_LEARN_MAX];
  double before[GC_LEARN_MAX];
  /* The watch saw the kept algorithm drift at this key: the network changed under the
   * models, so how wrong they were seen no longer speeds the budget (learn.c). */
  unsigned char drifted;
  enum gc_learn_phase phase;
  int next;    /* while exploring: the candidate (index into candidate[]) measured next */
  int choice;  /* the algorithm kept (settled), -1 before the first settling */
  int measured; /* measured calls so far, the sum of their times, and the first one's: */
  double measured_sum, first_sum; /* the regret spent (learn.c: spent_of) */
  /* Calls at the key (measured, and settled ones the watch saw) and the kept algorithm's
   * window. */
  unsigned long long calls;
  unsigned window, in_window;
  double window_sum;
};

struct gc_learn_table {
  struct gc_learn entry[GC_DECISIONS][GC_LEARN_WAYS];
  unsigned next_way[GC_DECISIONS]; /* the way a new key replaces, round robin */
};

/* Candidates among n algorithms (index 0 the MPI library's own): `pick` (gc_select's)
 * first, then every other supported one with a prediction, nearest first; their
 * predictions in out_predicted. Without a prediction of the pick or of the native one
 * nothing can be compared: `pick` alone. Returns the count (>= 1). */
int gc_learn_candidates(int n, const int *supported, const double *predicted, int pick,
                        int out[GC_LEARN_MAX], double out_predicted[GC_LEARN_MAX]);

/* The entry for (bytes' class, root_cluster) under version, or NULL. */
struct gc_learn *gc_learn_find(struct gc_learn_table *t, size_t bytes, int root_cluster,
                               unsigned long long version);

/* A fresh entry for that key, replacing a stale one or, round robin, a way of its class;
 * exploring candidate[0..n-1] (n from 1 to GC_LEARN_MAX; with 1 it is settled at once)
 * predicted as said (seconds). The ratios measured at the neighbouring classes (one
 * class either side, same root cluster and version) become its candidates' hints. */
struct gc_learn *gc_learn_start(struct gc_learn_table *t, size_t bytes, int root_cluster,
                                unsigned long long version, int n, const int *candidate,
                                const double *predicted);

/* The algorithm the next measured call runs while exploring, else -1. */
int gc_learn_next(const struct gc_learn *e);

/* The algorithm kept when settled, else -1. */
int gc_learn_choice(const struct gc_learn *e);

/* The own time of a measured call that ran `algorithm` for e (span_time.h: the wait for
 * late ranks left out; seconds; NaN, an infinity or a negative time counts as a run
 * slower than any real one). An algorithm's first run at the key (cold: its tree built,
 * its buffers grown, its sub-communicators made) counts within GC_LEARN_COLD of another's
 * time, else bounds it from above only. Then the next measurement is planned, or the
 * entry settles (a tie keeps the kept one, then the native one, then the earlier
 * candidate). A measurement of an algorithm other than gc_learn_next's changes nothing. */
void gc_learn_record(struct gc_learn *e, int algorithm, double seconds);

/* The own time of a settled call at e's key that ran `algorithm` (the watch;
 * exploration's measured calls go to gc_learn_record). Returns 1 when the kept algorithm
 * drifted: e is exploring again (the former runner-up next), and the decision the
 * dispatch keeps for the key must be dropped. */
int gc_learn_watch(struct gc_learn *e, int algorithm, double seconds);

/* calls more settled calls at e's key (timed or not: the budget counts them all). Returns
 * 1 when the budget now allows an exploratory call: e is exploring again, as above. */
int gc_learn_count(struct gc_learn *e, unsigned long long calls);

/* Settled calls at e's key before gc_learn_count can want one measured (ULLONG_MAX:
 * never, nothing pending; 0 while exploring): how long the dispatch may serve the key
 * from its memo without asking. */
unsigned long long gc_learn_quiet(const struct gc_learn *e);

#endif
