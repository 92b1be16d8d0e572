/* What `auto` learns from measured calls (learn.h). */
#include "learn.h"

#include <limits.h>
#include <math.h>

#include "select.h"

int gc_learn_candidates(int n, const int *supported, const double *predicted, int pick,
                        int out[GC_LEARN_MAX], double out_predicted[GC_LEARN_MAX])
{
  int count = 0;
  out_predicted[count] = predicted[pick];
  out[count++] = pick;
  if (predicted[GC_NATIVE] < 0 || predicted[pick] < 0)
    return count;
  /* Every other predicted one, nearest first (a selection: n <= 8): what the evidence
   * rules out is decided call by call (learn.c's plan), not here. */
  while (count < GC_LEARN_MAX) {
    int next = -1;
    for (int i = 0; i < n; i++) {
      int taken = 0;
      for (int k = 0; k < count; k++)
        taken |= out[k] == i;
      if (supported[i] && predicted[i] >= 0 && !taken &&
          (next < 0 || predicted[i] < predicted[next]))
        next = i;
    }
    if (next < 0)
      break;
    out_predicted[count] = predicted[next];
    out[count++] = next;
  }
  return count;
}

static int matches(const struct gc_learn *e, size_t bytes, int root_cluster,
                   unsigned long long version)
{
  /* version + 1 == 0 would read as empty: a miss, never a wrong hit (decision.c). */
  return e->stamp != 0 && e->stamp == version + 1 && e->root_cluster == root_cluster &&
         gc_size_class(e->bytes) == gc_size_class(bytes);
}

struct gc_learn *gc_learn_find(struct gc_learn_table *t, size_t bytes, int root_cluster,
                               unsigned long long version)
{
  struct gc_learn *ways = t->entry[gc_size_class(bytes)];
  for (int w = 0; w < GC_LEARN_WAYS; w++)
    if (matches(&ways[w], bytes, root_cluster, version))
      return &ways[w];
  return NULL;
}

/* Measured / predicted of a candidate measured warm, else -1. */
static double ratio(const struct gc_learn *e, int k)
{
  return e->runs[k] && e->predicted[k] > 0 && isfinite(e->best[k]) ? e->best[k] / e->predicted[k]
                                                                   : -1;
}

/* The ratios a neighbouring class (c - 1 or c + 1, same root cluster and version; the
 * nearer byte count wins) measured of algorithm a, else -1. */
static double neighbour_hint(struct gc_learn_table *t, size_t bytes, int root_cluster,
                             unsigned long long version, int a)
{
  unsigned c = gc_size_class(bytes);
  double hint = -1, distance = INFINITY;
  for (int side = -1; side <= 1; side += 2) {
    unsigned n = (c + GC_DECISIONS + (unsigned)side) % GC_DECISIONS;
    for (int w = 0; w < GC_LEARN_WAYS; w++) {
      const struct gc_learn *e = &t->entry[n][w];
      if (e->stamp != version + 1 || e->stamp == 0 || e->root_cluster != root_cluster)
        continue;
      double d = fabs(log((double)(e->bytes + 1) / (double)(bytes + 1)));
      for (int k = 0; k < e->ncandidates; k++)
        if (e->candidate[k] == a && ratio(e, k) > 0 && d < distance)
          hint = ratio(e, k), distance = d;
    }
  }
  return hint;
}

/* What the measurements taught so far: g, the geometric mean of measured / predicted over
 * the candidates measured warm, and w, the models' observed error (their spread). */
struct lesson {
  double best;  /* the best measured time; INFINITY: none */
  int best_k;   /* its candidate, -1: none */
  double g, w;
};

static struct lesson lesson_of(const struct gc_learn *e)
{
  struct lesson l = {INFINITY, -1, 1, GC_LEARN_PRIOR};
  double logsum = 0, lo = INFINITY, hi = 0;
  int count = 0;
  for (int k = 0; k < e->ncandidates; k++) {
    if (e->best[k] >= 0 && e->best[k] < l.best)
      l.best = e->best[k], l.best_k = k;
    double r = ratio(e, k);
    if (r > 0) {
      logsum += log(r), count++;
      lo = fmin(lo, r), hi = fmax(hi, r);
    }
  }
  if (count)
    l.g = exp(logsum / count);
  if (count >= 2)
    l.w = fmin(GC_LEARN_WIDEN_MAX, fmax(GC_LEARN_WIDEN_MIN, hi / lo));
  return l;
}

/* Candidate k's prediction corrected by what was measured. */
static double corrected(const struct gc_learn *e, const struct lesson *l, int k)
{
  return e->predicted[k] * (e->hint[k] > 0 ? e->hint[k] : l->g);
}

/* The time k is expected to take: its warm measurement, else its corrected prediction
 * (a cold measurement bounds it). */
static double estimate(const struct gc_learn *e, const struct lesson *l, int k)
{
  if (e->runs[k])
    return e->best[k];
  double c = corrected(e, l, k);
  return e->best[k] >= 0 ? fmin(c, e->best[k]) : c;
}

/* The candidate the next measured call runs, or -1 when nothing more is worth it. */
static int worth_measuring(const struct gc_learn *e, const struct lesson *l)
{
  /* After a drift: a stale candidate whose former estimate beats the best measured since,
   * the lowest first (what the drift did to it, no model can say). */
  int next = -1;
  for (int k = 0; k < e->ncandidates; k++)
    if (e->stale[k] && e->before[k] < l->best && (next < 0 || e->before[k] < e->before[next]))
      next = k;
  if (next >= 0)
    return next;
  /* Unmeasured (or cold only) whose corrected prediction, widened by the error, could
   * beat the best: the lowest corrected first. */
  for (int k = 0; k < e->ncandidates; k++)
    if (!e->runs[k] && !e->stale[k] && corrected(e, l, k) / l->w < l->best &&
        (next < 0 || corrected(e, l, k) < corrected(e, l, next)))
      next = k;
  if (next >= 0)
    return next;
  /* The best and its nearest rival, when within GC_LEARN_CLEAR of each other: each
   * measured twice (a real network's noise); one clearly slower after one measurement
   * never is, nor a third contender (the watch re-measures a runner-up that matters). */
  int k0 = -1, k1 = -1;
  for (int k = 0; k < e->ncandidates; k++) {
    if (!e->runs[k])
      continue;
    if (k0 < 0 || e->best[k] < e->best[k0])
      k1 = k0, k0 = k;
    else if (k1 < 0 || e->best[k] < e->best[k1])
      k1 = k;
  }
  if (k1 >= 0 && e->best[k1] <= e->best[k0] * GC_LEARN_CLEAR)
    return e->runs[k0] == 1 ? k0 : e->runs[k1] == 1 ? k1 : -1;
  return -1;
}

static int index_of(const struct gc_learn *e, int algorithm)
{
  for (int k = 0; k < e->ncandidates; k++)
    if (e->candidate[k] == algorithm)
      return k;
  return -1;
}

/* Nothing more worth measuring: the fastest kept. The kept one stays unless another is
 * faster by more than GC_LEARN_HYSTERESIS; then the native one wins a tie (it needs
 * nothing of ours), then the earlier (the nearer prediction); faster by more than
 * rounding only, as gc_select. */
static void settle(struct gc_learn *e)
{
  int best = 0;
  for (int k = 0; k < e->ncandidates; k++)
    if (e->candidate[k] == GC_NATIVE)
      best = k;
  for (int k = 0; k < e->ncandidates; k++)
    if (e->best[k] >= 0 && (e->best[best] < 0 || e->best[k] < e->best[best] * (1 - 1e-9)))
      best = k;
  int kept = e->choice >= 0 ? index_of(e, e->choice) : -1;
  if (kept >= 0 && e->best[kept] >= 0 &&
      e->best[kept] * (1 - GC_LEARN_HYSTERESIS) <= e->best[best])
    best = kept;
  if (e->candidate[best] != e->choice)
    e->window = GC_LEARN_WATCH_FIRST, e->in_window = 0, e->window_sum = 0;
  e->choice = e->candidate[best];
  e->phase = GC_LEARN_SETTLED;
  e->next = -1;
  for (int k = 0; k < e->ncandidates; k++)
    e->pending[k] = k != best && !e->runs[k], e->stale[k] = 0;
}

static void plan(struct gc_learn *e)
{
  struct lesson l = lesson_of(e);
  int k = worth_measuring(e, &l);
  if (k >= 0) {
    e->phase = GC_LEARN_EXPLORING;
    e->next = k;
  } else {
    settle(e);
  }
}

struct gc_learn *gc_learn_start(struct gc_learn_table *t, size_t bytes, int root_cluster,
                                unsigned long long version, int n, const int *candidate,
                                const double *predicted)
{
  unsigned c = gc_size_class(bytes);
  struct gc_learn *e = gc_learn_find(t, bytes, root_cluster, version);
  for (int w = 0; !e && w < GC_LEARN_WAYS; w++)
    if (t->entry[c][w].stamp != version + 1)
      e = &t->entry[c][w]; /* empty, or learnt under an older view */
  if (!e) {
    e = &t->entry[c][t->next_way[c]];
    t->next_way[c] = (t->next_way[c] + 1) % GC_LEARN_WAYS;
  }
  if (n < 1)
    n = 1;
  if (n > GC_LEARN_MAX)
    n = GC_LEARN_MAX;
  double hint[GC_LEARN_MAX];
  for (int i = 0; i < n; i++) /* from classes c - 1 and c + 1: e (class c) is none */
    hint[i] = neighbour_hint(t, bytes, root_cluster, version, candidate[i]);
  *e = (struct gc_learn){.stamp = version + 1, .bytes = bytes, .root_cluster = root_cluster,
                         .ncandidates = n, .choice = -1, .next = 0};
  for (int i = 0; i < n; i++) {
    e->candidate[i] = candidate[i], e->best[i] = -1, e->hint[i] = hint[i];
    e->predicted[i] = predicted[i];
  }
  if (n == 1) /* nothing to compare: settled at once */
    settle(e);
  return e;
}

int gc_learn_next(const struct gc_learn *e)
{
  return e->phase == GC_LEARN_EXPLORING && e->next >= 0 ? e->candidate[e->next] : -1;
}

int gc_learn_choice(const struct gc_learn *e)
{
  return e->phase == GC_LEARN_SETTLED ? e->choice : -1;
}

void gc_learn_record(struct gc_learn *e, int algorithm, double seconds)
{
  if (e->ncandidates < 1 || algorithm < 0 || algorithm != gc_learn_next(e))
    return;
  int k = e->next;
  /* A time that is none (NaN, infinite, negative: a clock gone wrong) must not make a
   * choice: the run counts, as slower than any real one, so that learning ends. */
  if (!(isfinite(seconds) && seconds >= 0))
    seconds = INFINITY;
  /* A cold run (the algorithm's first at this key: its set-up) counts as a measurement
   * within GC_LEARN_COLD of another's time, or where it is no slower than its own
   * corrected prediction widened (a set-up shows as a surprise, not as what the models
   * expected); otherwise it may be mostly set-up: it bounds the algorithm from above, a
   * warm time replaces it. */
  int warm = e->seen[k];
  e->seen[k] = 1;
  struct lesson before = lesson_of(e);
  double expected = corrected(e, &before, k) * before.w;
  double other = INFINITY;
  for (int j = 0; j < e->ncandidates; j++)
    if (j != k && e->best[j] >= 0 && e->best[j] < other)
      other = e->best[j];
  int counts = warm || (isfinite(other) && seconds <= other * GC_LEARN_COLD) ||
               (before.best_k >= 0 && seconds <= expected);
  e->stale[k] = 0;
  if (e->best[k] < 0 || seconds < e->best[k] || (counts && !e->runs[k]))
    e->best[k] = seconds;
  if (counts && e->runs[k] < 255)
    e->runs[k]++;
  if (isfinite(seconds))
    e->measured_sum += seconds, e->first_sum += e->measured == 0 ? seconds : 0;
  e->measured++;
  e->calls++;
  plan(e);
}

/* The pending candidate a budget may measure: the lowest estimate first (the likeliest to
 * win and the cheapest to try; korea8 with a wide area declared 5x too fast kept a tree
 * 19% slower for 100 calls while the library's own, predicted 2x slower than the best
 * pending tree, was measured first), the native one on a tie; -1: none. */
static int budget_candidate(const struct gc_learn *e, const struct lesson *l)
{
  int next = -1;
  for (int k = 0; k < e->ncandidates; k++) {
    if (!e->pending[k])
      continue;
    if (next < 0 || estimate(e, l, k) < estimate(e, l, next) * (1 - 1e-9) ||
        (e->candidate[k] == GC_NATIVE && estimate(e, l, k) <= estimate(e, l, next) * (1 + 1e-9)))
      next = k;
  }
  return next;
}

/* How wrong the models were seen at the key: the farthest measured / predicted from 1,
 * or the spread of those ratios, whichever is larger (1: right, or nothing measured).
 * After a drift, 1: the kept algorithm's window mean (and every time re-measured since)
 * is off by the network's change, not by the configuration. Counted, it hastened the
 * budget after test/smpi/drift.sh's move: 14 measured calls instead of 10, each extra one
 * a loss, 3 of them among the run's last 100. */
static double observed_error(const struct gc_learn *e)
{
  if (e->drifted)
    return 1;
  double lo = INFINITY, hi = 0, far = 1;
  for (int k = 0; k < e->ncandidates; k++) {
    double r = ratio(e, k);
    if (r > 0)
      lo = fmin(lo, r), hi = fmax(hi, r), far = fmax(far, fmax(r, 1 / r));
  }
  return hi > 0 ? fmax(far, hi / lo) : 1;
}

static int explore_again(struct gc_learn *e, int k)
{
  e->phase = GC_LEARN_EXPLORING;
  e->next = k;
  e->pending[k] = 0;
  return 1;
}

int gc_learn_watch(struct gc_learn *e, int algorithm, double seconds)
{
  int kept = index_of(e, e->choice);
  if (e->phase != GC_LEARN_SETTLED || !(isfinite(seconds) && seconds >= 0) ||
      algorithm != e->choice || kept < 0 || e->ncandidates < 2)
    return 0;
  e->window_sum += seconds;
  if (++e->in_window < e->window)
    return 0;
  double mean = e->window_sum / e->in_window;
  e->in_window = 0, e->window_sum = 0;
  struct lesson l = lesson_of(e);
  int runner = -1;
  for (int k = 0; k < e->ncandidates; k++)
    if (k != kept && (runner < 0 || estimate(e, &l, k) < estimate(e, &l, runner)))
      runner = k;
  if (runner >= 0 && mean > GC_LEARN_DRIFT * estimate(e, &l, runner)) {
    /* The kept one's time is now its window's; every other time predates the drift. */
    for (int k = 0; k < e->ncandidates; k++)
      if (k != kept) {
        e->before[k] = estimate(e, &l, k);
        e->stale[k] = 1, e->best[k] = -1, e->runs[k] = 0, e->pending[k] = 0;
      }
    e->best[kept] = mean;
    e->drifted = 1;
    return explore_again(e, runner);
  }
  if (e->window < GC_LEARN_WATCH_MAX)
    e->window *= 2;
  return 0;
}

/* The regret exploring has spent at the key: the measured calls' times above the best,
 * but for the key's first call, which runs the models' pick as it would without learning:
 * what made it long (a first run's set-up, ranks arriving apart: korea8's first 1 MiB
 * broadcast from E took 0.5 s for a 0.23 s tree) is not exploring's, and counted it held
 * the budget back for 70 calls there. */
static double spent_of(const struct gc_learn *e, const struct lesson *l)
{
  if (e->measured < 2)
    return 0;
  return fmax(0, e->measured_sum - e->first_sum - (e->measured - 1) * l->best);
}

/* The budget: one exploratory call's expected regret, with what was spent, within
 * GC_LEARN_BUDGET of the key's calls at the best time, times how wrong the models were
 * seen at the key where that is more than agreeing ratios show by chance
 * (GC_LEARN_WIDEN_MIN; at most GC_LEARN_WIDEN_MAX): the less their exclusion of a
 * candidate is worth, the more insurance against it the run buys; with the models right
 * it stays GC_LEARN_BUDGET, the share a right configuration's run may lose. Calls needed
 * for it (0: due). */
static unsigned long long budget_calls(const struct gc_learn *e, int *which)
{
  struct lesson l = lesson_of(e);
  int p = budget_candidate(e, &l);
  *which = p;
  if (p < 0 || !isfinite(l.best) || l.best <= 0)
    return ULLONG_MAX;
  double spent = spent_of(e, &l);
  /* The models wrong by a factor here may be as wrong for p, which they rule out alone:
   * its expected regret is what its estimate, that much better, would cost. With the
   * models right (factor 1) this is the estimate's; with them wrong the budget is spent
   * earlier, while the calls spent on the wrong choice still count. */
  double wrong = observed_error(e);
  double expected = fmax(0, estimate(e, &l, p) / wrong - l.best);
  double insure = wrong > GC_LEARN_WIDEN_MIN ? fmin(wrong, GC_LEARN_WIDEN_MAX) : 1;
  double need = ceil((spent + expected) / (GC_LEARN_BUDGET * insure * l.best));
  if (!(need < 1e18))
    return ULLONG_MAX;
  return need <= (double)e->calls ? 0 : (unsigned long long)need - e->calls;
}

unsigned long long gc_learn_quiet(const struct gc_learn *e)
{
  int p;
  return e->phase == GC_LEARN_SETTLED ? budget_calls(e, &p) : 0;
}

int gc_learn_count(struct gc_learn *e, unsigned long long calls)
{
  if (e->phase != GC_LEARN_SETTLED)
    return 0;
  e->calls += calls;
  int p;
  return budget_calls(e, &p) == 0 ? explore_again(e, p) : 0;
}
