/* How long building a broadcast tree takes, per builder, for 8 to 64 clusters.
 * A benchmark, not a test: it prints, it asserts nothing. A tree is built on a call's
 * road at every tree cache miss (tree_cache.h), so this must stay far below a wide-area
 * latency.
 *   make build/libgcpure.a && cc -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Imodel -Ishim/bcast/pure \
 *     test/bench/bench_trees.c build/libgcpure.a -lm -o build/bench_trees && build/bench_trees */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "scratch_bound.h"
#include "tree.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

enum { REPS = 2001 };

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(void)
{
  static const struct {
    const char *name;
    int (*build)(const struct gc_tree_input *, struct gc_tree *);
  } b[] = {
    {"flat", gc_bcast_flat_tree},     {"binomial", gc_bcast_binomial_tree},
    {"hlot", gc_bcast_hlot_tree},     {"spt", gc_bcast_spt_tree},
    {"ecef", gc_bcast_greedy_ecef_tree}, {"greedy", gc_bcast_greedy_tree},
  };
  static const int ks[] = {8, 16, 32, 64};
  unsigned seed = 1;
  printf("gridcoll: tree construction time, microseconds per tree, min/median of %d builds\n", REPS);
  printf("%-9s", "k");
  for (size_t j = 0; j < sizeof b / sizeof b[0]; j++)
    printf(" %13s", b[j].name);
  printf("\n");
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
    int k = ks[i];
    double *W = malloc(sizeof(double) * (size_t)k * (size_t)k);
    if (!W)
      return 1;
    for (int x = 0; x < k * k; x++)
      W[x] = x % (k + 1) == 0 ? 0.0 : (1 + rand_r(&seed) % 500) * 1e-3;
    /* The builders' working memory as a network view has it (model/scratch.h), and the
     * tree's storage as a tree cache entry has it: nothing is allocated per build. */
    struct gc_scratch scratch;
    int *storage = malloc(sizeof(int) * gc_tree_ints(k));
    if (!storage || gc_scratch_init(&scratch, gc_scratch_bound(k, k)) != 0)
      return 1;
    struct gc_tree_input in = {.k = k, .root = 0, .W = W, .send_gap = 1e-3, .recv_overhead = 1e-4,
                               .scratch = &scratch};
    printf("%-9d", k);
    for (size_t j = 0; j < sizeof b / sizeof b[0]; j++) {
      /* Single builds, min and median: the minimum is what the code costs, the
       * median what it cost on this (possibly shared) machine. */
      static double us[REPS];
      for (int rep = 0; rep < REPS; rep++) {
        struct gc_tree t;
        gc_tree_place(&t, storage, k);
        double t0 = now();
        if (b[j].build(&in, &t) != 0)
          return 1;
        us[rep] = (now() - t0) * 1e6;
      }
      qsort(us, REPS, sizeof us[0], cmp);
      printf(" %6.1f/%-6.1f", us[0], us[REPS / 2]);
    }
    printf("\n");
    gc_scratch_free(&scratch);
    free(storage);
    free(W);
  }
  return 0;
}
