/* What `auto` learns from measured calls (learn.h). */
#include "learn.h"

#include <math.h>

#include "select.h"

static int contains(const int *list, int n, int x)
{
  for (int i = 0; i < n; i++)
    if (list[i] == x)
      return 1;
  return 0;
}

int gc_learn_candidates(int n, const int *supported, const double *predicted, int pick,
                        int out[GC_LEARN_MAX])
{
  int count = 0;
  out[count++] = pick;
  if (predicted[GC_NATIVE] < 0 || predicted[pick] < 0)
    return count;
  double best = predicted[pick];
  for (int i = 0; i < n; i++)
    if (supported[i] && predicted[i] >= 0 && predicted[i] < best)
      best = predicted[i];
  /* Native first of the others when it is within the factor: the tie-breaker, and what
   * the program would run without gridcoll. Not beyond: on korea8 it is predicted (and
   * is) up to 13x slower than the trees, and two calls of it would cost more than any
   * choice learning could mend. */
  if (pick != GC_NATIVE && predicted[GC_NATIVE] <= best * GC_LEARN_FACTOR)
    out[count++] = GC_NATIVE;
  /* The others within the factor, nearest the best first (a selection: n <= 8). */
  while (count < GC_LEARN_MAX) {
    int next = -1;
    for (int i = 1; i < n; i++)
      if (supported[i] && predicted[i] >= 0 && predicted[i] <= best * GC_LEARN_FACTOR &&
          !contains(out, count, i) && (next < 0 || predicted[i] < predicted[next]))
        next = i;
    if (next < 0)
      break;
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

struct gc_learn *gc_learn_start(struct gc_learn_table *t, size_t bytes, int root_cluster,
                                unsigned long long version, int n, const int *candidate)
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
  *e = (struct gc_learn){.stamp = version + 1, .bytes = bytes, .root_cluster = root_cluster,
                         .ncandidates = n, .choice = n == 1 ? candidate[0] : -1};
  for (int i = 0; i < n; i++)
    e->candidate[i] = candidate[i], e->best[i] = -1;
  return e;
}

int gc_learn_next(const struct gc_learn *e)
{
  return e->candidate[e->runs % e->ncandidates];
}

void gc_learn_record(struct gc_learn *e, int algorithm, double seconds)
{
  if (e->choice >= 0 || e->ncandidates < 1 || algorithm != gc_learn_next(e))
    return;
  int i = e->runs % e->ncandidates;
  /* A time that is none (NaN, infinite, negative: a clock gone wrong) must not make a
   * choice: the run counts, so that learning ends, as slower than any real one. When no
   * candidate has a real time, the tie rule below keeps the native one or the models'
   * pick, never what was measured. */
  if (!(isfinite(seconds) && seconds >= 0))
    seconds = INFINITY;
  if (e->best[i] < 0 || seconds < e->best[i])
    e->best[i] = seconds;
  if (++e->runs < GC_LEARN_ROUNDS * e->ncandidates)
    return;
  /* The native one wins a tie (it needs nothing of ours); among the others, the earlier
   * (the nearer prediction). Faster by more than rounding only, as gc_select. */
  int best = 0;
  for (int k = 0; k < e->ncandidates; k++)
    if (e->candidate[k] == GC_NATIVE)
      best = k;
  for (int k = 0; k < e->ncandidates; k++)
    if (e->best[k] < e->best[best] * (1 - 1e-9))
      best = k;
  e->choice = e->candidate[best];
}
