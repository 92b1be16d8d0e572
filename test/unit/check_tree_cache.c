/* The per-communicator broadcast tree cache (shim/bcast/pure/tree_cache.c): a hit gives the
 * tree and prediction a fresh build gives, bit for bit, and is not rebuilt. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_algorithms.h"
#include "scratch_check.h"
#include "tree_cache.h"

static const struct {
  gc_tree_builder build;
  gc_model_predict *predict;
} algs[] = {
  {gc_bcast_flat_tree, gc_bcast_flat_predict}, {gc_bcast_binomial_tree, gc_bcast_binomial_predict},
  {gc_bcast_hlot_tree, gc_bcast_hlot_predict}, {gc_bcast_spt_tree, gc_bcast_spt_predict},
  {gc_bcast_greedy_tree, gc_bcast_greedy_predict},
};
enum { NALGS = sizeof algs / sizeof algs[0], K = 4, P = 8 };

/* 8 ranks in 4 clusters (interleaved: 0,4 | 1,5 | 2,6 | 3,7), triangle-violating
 * asymmetric latencies, uneven bandwidths: trees differ by root and by m. */
static struct gc_layout layout;
static struct gc_network net;
static struct gc_lan lan[K];
static double lat[K * K] = {0, 5e-3, 25e-3, 90e-3, 6e-3, 0, 28e-3, 10e-3,
                            24e-3, 30e-3, 0, 6e-3, 80e-3, 9e-3, 7e-3, 0};
static double bw[K * K];
static struct gc_tree_cache cache;

static void setup(void)
{
  int ids[P];
  for (int r = 0; r < P; r++)
    ids[r] = r % K;
  ck_assert_int_eq(gc_layout_build(&layout, P, ids), 0);
  for (int c = 0; c < K; c++)
    lan[c] = (struct gc_lan){.alpha = 20e-6 * (c + 1), .beta = 1e-9};
  for (int i = 0; i < K * K; i++)
    bw[i] = 1e7 * (1 + i % 5);
  /* A view by hand: its scratch made as gc_network_build makes it. */
  net = (struct gc_network){.grid = {.k = K}, .lan = lan, .latency = lat, .bandwidth = bw};
  ck_assert_int_eq(gc_network_scratch(&net, &layout), 0);
  ck_assert_int_eq(gc_tree_cache_init(&cache, K), 0);
}

static void teardown(void)
{
  /* Every get gave back all the scratch it took. */
  ck_assert_uint_eq(net.scratch.used, 0);
  gc_tree_cache_free(&cache);
  gc_scratch_free(&net.scratch); /* the rest of the view is this file's static arrays */
  gc_layout_free(&layout);
}

static int same_tree(const struct gc_tree *a, const struct gc_tree *b)
{
  return a->n == b->n && a->root == b->root &&
         !memcmp(a->parent, b->parent, sizeof(int) * (size_t)a->n) &&
         !memcmp(a->child_start, b->child_start, sizeof(int) * (size_t)(a->n + 1)) &&
         !memcmp(a->children, b->children, sizeof(int) * (size_t)(a->n - 1));
}

/* What the cache returns equals a fresh build and the algorithm's own _predict. */
static int matches_fresh(int a, int root, double m, const struct gc_tree_cache_entry *e)
{
  struct gc_tree_input in;
  struct gc_tree fresh;
  const char *model;
  gc_bcast_tree_input(&net, &layout, root, m, &in);
  gc_test_tree(&fresh, K);
  int ok = algs[a].build(&in, &fresh) == 0 && same_tree(&fresh, &e->tree) &&
           e->predicted == algs[a].predict(&net, &layout, &(struct gc_shape){.m = m, .root = root}, &model) && e->predicted > 0;
  gc_test_tree_free(&fresh);
  return ok;
}

/* Every root and algorithm at one size: one build per (algorithm, root cluster), the
 * second root of each cluster and every repeat are hits; results equal fresh builds. */
START_TEST(hits_per_root_cluster)
{
  static const size_t sizes[] = {0, 4096, 1 << 20};
  unsigned long long builds = 0;
  for (int s = 0; s < 3; s++) {
    for (int pass = 0; pass < 2; pass++)
      for (int root = 0; root < P; root++)
        for (int a = 0; a < NALGS; a++) {
          const struct gc_tree_cache_entry *e;
          ck_assert_int_eq(gc_tree_cache_get(&cache, algs[a].build, &net, &layout, root, sizes[s], &e), 0);
          ck_assert_msg(matches_fresh(a, root, (double)sizes[s], e), "alg %d root %d m %zu", a, root, sizes[s]);
        }
    builds += NALGS * K;
    ck_assert_uint_eq(cache.builds, builds);
    ck_assert_uint_eq(cache.hits, (unsigned long long)(s + 1) * (2 * P * NALGS) - builds);
  }
}
END_TEST

/* More keys than slots: the least recently used go; what stays is still right. */
START_TEST(evicts_least_recently_used)
{
  const struct gc_tree_cache_entry *e;
  for (int i = 0; i < GC_TREE_CACHE_SIZE + 8; i++)
    ck_assert_int_eq(gc_tree_cache_get(&cache, gc_bcast_hlot_tree, &net, &layout, 1, 1000 * (size_t)i, &e), 0);
  ck_assert_uint_eq(cache.builds, GC_TREE_CACHE_SIZE + 8);
  for (int i = 8; i < GC_TREE_CACHE_SIZE + 8; i++) { /* the 32 most recent: all hits */
    ck_assert_int_eq(gc_tree_cache_get(&cache, gc_bcast_hlot_tree, &net, &layout, 1, 1000 * (size_t)i, &e), 0);
    ck_assert(matches_fresh(2, 1, 1000.0 * i, e));
  }
  ck_assert_uint_eq(cache.builds, GC_TREE_CACHE_SIZE + 8);
  ck_assert_uint_eq(cache.hits, GC_TREE_CACHE_SIZE);
  ck_assert_int_eq(gc_tree_cache_get(&cache, gc_bcast_hlot_tree, &net, &layout, 1, 0, &e), 0);
  ck_assert_uint_eq(cache.builds, GC_TREE_CACHE_SIZE + 9); /* evicted: rebuilt */
  ck_assert(matches_fresh(2, 1, 0, e));
  /* A cleared cache rebuilds. */
  gc_tree_cache_clear(&cache);
  ck_assert_int_eq(gc_tree_cache_get(&cache, gc_bcast_hlot_tree, &net, &layout, 1, 0, &e), 0);
  ck_assert_uint_eq(cache.builds, GC_TREE_CACHE_SIZE + 10);
}
END_TEST

START_TEST(rejects_bad_calls)
{
  const struct gc_tree_cache_entry *e = (void *)1;
  ck_assert_int_eq(gc_tree_cache_get(&cache, gc_bcast_flat_tree, &net, &layout, -1, 0, &e), GC_TREE_EINVAL);
  ck_assert_ptr_null(e);
  ck_assert_int_eq(gc_tree_cache_get(&cache, gc_bcast_flat_tree, &net, &layout, P, 0, &e), GC_TREE_EINVAL);
  ck_assert_int_eq(gc_tree_cache_get(&cache, NULL, &net, &layout, 0, 0, &e), GC_TREE_EINVAL);
  /* m is a whole number of bytes (size_t): a NaN or negative size cannot reach the cache;
   * the builders reject it themselves (check_trees.c). */
  ck_assert_uint_eq(cache.builds + cache.hits, 0); /* nothing stored */
  /* One cluster: no tree to build. */
  struct gc_layout one;
  int ids[2] = {0, 0};
  ck_assert_int_eq(gc_layout_build(&one, 2, ids), 0);
  ck_assert_int_eq(gc_tree_cache_get(&cache, gc_bcast_flat_tree, &net, &one, 0, 0, &e), GC_TREE_EINVAL);
  gc_layout_free(&one);
  gc_tree_cache_clear(&cache); /* clearing an empty cache is harmless, twice too */
  gc_tree_cache_clear(&cache);
  /* More clusters than the entries have room for: refused, nothing built. */
  struct gc_layout five;
  int ids5[5] = {0, 1, 2, 3, 4};
  ck_assert_int_eq(gc_layout_build(&five, 5, ids5), 0);
  ck_assert_int_eq(gc_tree_cache_get(&cache, gc_bcast_flat_tree, &net, &five, 0, 0, &e),
                   GC_TREE_EINVAL);
  gc_layout_free(&five);
  /* A cache without storage (all zero, or its init failed): GC_TREE_ENOMEM, never a tree. */
  struct gc_tree_cache none;
  memset(&none, 0, sizeof none);
  ck_assert_int_eq(gc_tree_cache_get(&none, gc_bcast_flat_tree, &net, &layout, 0, 0, &e),
                   GC_TREE_ENOMEM);
  ck_assert_int_eq(gc_tree_cache_init(&none, 0), -1);
  ck_assert_ptr_null(none.storage);
  ck_assert_uint_eq(cache.builds + cache.hits, 0);
}
END_TEST

/* Entries are built in storage made with the cache: a get allocates nothing, and a
 * rebuilt entry keeps its place (its arrays are where they were). */
START_TEST(entries_in_fixed_storage)
{
  const struct gc_tree_cache_entry *e;
  ck_assert_int_eq(gc_tree_cache_get(&cache, gc_bcast_greedy_tree, &net, &layout, 0, 1000, &e), 0);
  const int *first = e->tree.parent;
  ck_assert(first >= cache.storage && first < cache.storage + GC_TREE_CACHE_SIZE * gc_tree_ints(K));
  for (int i = 1; i <= GC_TREE_CACHE_SIZE; i++) /* evicts every entry, the first last */
    ck_assert_int_eq(gc_tree_cache_get(&cache, gc_bcast_greedy_tree, &net, &layout, 0,
                                       1000 + (size_t)i, &e), 0);
  ck_assert_ptr_eq(e->tree.parent, first);
  ck_assert(matches_fresh(4, 0, 1000.0 + GC_TREE_CACHE_SIZE, e));
}
END_TEST

static Suite *tree_cache_suite(void)
{
  Suite *s = suite_create("tree_cache");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_checked_fixture(core, setup, teardown);
  tcase_add_checked_fixture(limits, setup, teardown);
  tcase_add_test(core, hits_per_root_cluster);
  tcase_add_test(core, evicts_least_recently_used);
  tcase_add_test(core, entries_in_fixed_storage);
  tcase_add_test(limits, rejects_bad_calls);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(tree_cache_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed != 0;
}
