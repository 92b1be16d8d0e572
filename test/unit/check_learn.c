/* What `auto` learns from measured calls (shim/pure/learn.c): which algorithms are explored,
 * in which order, which one is kept, and when learning starts again. */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "learn.h"
#include "select.h"

static struct gc_learn_table *table(void)
{
  struct gc_learn_table *t = calloc(1, sizeof *t);
  ck_assert_ptr_nonnull(t);
  return t;
}

/* Feeds e the time times[algorithm] for every call until it chooses; returns the calls. */
static int learn_all(struct gc_learn *e, const double *times)
{
  int calls = 0;
  while (e->choice < 0 && calls < 100) {
    int a = gc_learn_next(e);
    gc_learn_record(e, a, times[a]);
    calls++;
  }
  return calls;
}

/* The model's pick first, then native, then the others within the factor of the best
 * prediction, nearest first; unsupported and unpredicted rows never, nor native beyond
 * the factor. */
START_TEST(candidates_within_the_factor)
{
  int out[GC_LEARN_MAX];
  int supported[6] = {1, 1, 1, 0, 1, 1};
  double predicted[6] = {3.0, 1.0, 2.4, 1.1, 2.6, -1};
  int n = gc_learn_candidates(6, supported, predicted, 1, out);
  ck_assert_int_eq(n, 2);
  ck_assert_int_eq(out[0], 1); /* the pick */
  ck_assert_int_eq(out[1], 2); /* 2.4 <= 2.5; native 3x, 3 unsupported, 4 too slow, 5 unpredicted */
  predicted[0] = 2.5; /* native within the factor: second */
  n = gc_learn_candidates(6, supported, predicted, 1, out);
  ck_assert_int_eq(n, 3);
  ck_assert_int_eq(out[1], 0);
  ck_assert_int_eq(out[2], 2);
  /* At most GC_LEARN_MAX, the nearest kept. */
  int all[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  double close[8] = {1.0, 1.7, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6};
  n = gc_learn_candidates(8, all, close, 0, out);
  ck_assert_int_eq(n, GC_LEARN_MAX);
  ck_assert_int_eq(out[0], 0);
  for (int i = 1; i < GC_LEARN_MAX; i++)
    ck_assert_int_eq(out[i], i + 1); /* 1.1, 1.2, ...: 1.7 (index 1) left out */
}
END_TEST

/* Candidates run in order, round after round; the fastest measured is kept, even when
 * the model predicted it slowest (a configuration wrong by 2x). */
START_TEST(explores_in_order_and_keeps_the_fastest)
{
  struct gc_learn_table *t = table();
  int cand[3] = {2, 0, 1};
  struct gc_learn *e = gc_learn_start(t, 1024, 0, 7, 3, cand);
  ck_assert_int_eq(e->choice, -1);
  int expect[6] = {2, 0, 1, 2, 0, 1};
  double times[3] = {5e-3, 2e-3, 9e-3}; /* algorithm 1 fastest */
  for (int i = 0; i < 6; i++) {
    ck_assert_int_eq(e->choice, -1);
    ck_assert_int_eq(gc_learn_next(e), expect[i]);
    gc_learn_record(e, expect[i], times[expect[i]]);
  }
  ck_assert_int_eq(e->choice, 1);
  ck_assert_ptr_eq(gc_learn_find(t, 1024, 0, 7), e);
  /* The whole size class is served by it; another class is not. */
  ck_assert_ptr_eq(gc_learn_find(t, 2047, 0, 7), e);
  ck_assert_ptr_null(gc_learn_find(t, 2048, 0, 7));
  /* After the choice, measurements change nothing. */
  gc_learn_record(e, 1, 1.0);
  ck_assert_int_eq(e->choice, 1);
  free(t);
}
END_TEST

/* The minimum of the rounds: a first run slowed by set-up does not lose the choice. */
START_TEST(minimum_of_the_rounds)
{
  struct gc_learn_table *t = table();
  int cand[2] = {1, 0};
  struct gc_learn *e = gc_learn_start(t, 64, -1, 0, 2, cand);
  gc_learn_record(e, 1, 10.0); /* LG's first run: sub-communicators made */
  gc_learn_record(e, 0, 2.0);
  gc_learn_record(e, 1, 1.0);
  ck_assert_int_eq(e->choice, -1);
  gc_learn_record(e, 0, 2.5);
  ck_assert_int_eq(e->choice, 1);
  free(t);
}
END_TEST

/* A tie keeps the MPI library's own, wherever it stands in the order. */
START_TEST(tie_keeps_native)
{
  struct gc_learn_table *t = table();
  int cand[3] = {2, 0, 1};
  struct gc_learn *e = gc_learn_start(t, 8, 1, 0, 3, cand);
  double times[3] = {1.0, 1.0, 1.0};
  ck_assert_int_eq(learn_all(e, times), GC_LEARN_ROUNDS * 3);
  ck_assert_int_eq(e->choice, GC_NATIVE);
  /* Two non-native ones tied, native slower: the earlier in the order. */
  e = gc_learn_start(t, 16, 1, 0, 3, cand);
  double times2[3] = {3.0, 1.0, 1.0};
  learn_all(e, times2);
  ck_assert_int_eq(e->choice, 2);
  free(t);
}
END_TEST

/* A new network version (the probe) starts over; size classes and root clusters learn
 * apart from each other. */
START_TEST(restart_and_independent_keys)
{
  struct gc_learn_table *t = table();
  int cand[2] = {0, 1};
  double times[2] = {2.0, 1.0};
  struct gc_learn *a = gc_learn_start(t, 100, 0, 3, 2, cand);
  struct gc_learn *b = gc_learn_start(t, 100, 1, 3, 2, cand);  /* other root cluster */
  struct gc_learn *c = gc_learn_start(t, 1000, 0, 3, 2, cand); /* other class */
  ck_assert_ptr_ne(a, b);
  ck_assert_ptr_ne(a, c);
  learn_all(a, times);
  ck_assert_int_eq(a->choice, 1);
  ck_assert_int_eq(b->choice, -1);
  ck_assert_int_eq(c->choice, -1);
  ck_assert_ptr_null(gc_learn_find(t, 100, 0, 4)); /* probed: a miss */
  struct gc_learn *a4 = gc_learn_start(t, 100, 0, 4, 2, cand);
  ck_assert_int_eq(a4->choice, -1);
  ck_assert_ptr_eq(gc_learn_find(t, 100, 0, 4), a4);
  /* The stale entry was replaced, not another way taken: b is still learning. */
  ck_assert_ptr_eq(a4, a);
  ck_assert_ptr_eq(gc_learn_find(t, 100, 1, 3), b);
  free(t);
}
END_TEST

/* Without a native prediction nothing is compared: the pick alone, decided at once. One
 * candidate is decided at once too. */
START_TEST(limits_single_candidate)
{
  int out[GC_LEARN_MAX];
  int supported[3] = {1, 1, 1};
  double none[3] = {-1, 1.0, 2.0};
  ck_assert_int_eq(gc_learn_candidates(3, supported, none, 0, out), 1);
  ck_assert_int_eq(out[0], 0);
  double far[3] = {10.0, 1.0, 3.0}; /* nothing within the factor but the pick */
  ck_assert_int_eq(gc_learn_candidates(3, supported, far, 1, out), 1);
  ck_assert_int_eq(out[0], 1);
  double alone[1] = {1.0};
  ck_assert_int_eq(gc_learn_candidates(1, supported, alone, 0, out), 1);
  struct gc_learn_table *t = table();
  struct gc_learn *e = gc_learn_start(t, 5, 0, 0, 1, out);
  ck_assert_int_eq(e->choice, 0);
  free(t);
}
END_TEST

/* Records for another algorithm than the one due are ignored; a negative time counts as
 * a run slower than any (below); more root clusters than ways replace round robin; 0
 * bytes, SIZE_MAX and the largest versions. */
START_TEST(limits_bad_input)
{
  struct gc_learn_table *t = table();
  int cand[2] = {1, 0};
  struct gc_learn *e = gc_learn_start(t, 0, 0, 0, 2, cand);
  gc_learn_record(e, 0, 1.0); /* 1 is due */
  ck_assert_int_eq(e->runs, 0);
  gc_learn_record(e, 7, 1.0);
  ck_assert_int_eq(e->runs, 0);
  gc_learn_record(e, 1, -5.0);
  ck_assert(e->runs == 1 && isinf(e->best[0]) && e->best[0] > 0);
  for (int rc = 0; rc < GC_LEARN_WAYS + 1; rc++)
    gc_learn_start(t, SIZE_MAX, rc, 0, 2, cand);
  ck_assert_ptr_null(gc_learn_find(t, SIZE_MAX, 0, 0)); /* the oldest replaced */
  ck_assert_ptr_nonnull(gc_learn_find(t, SIZE_MAX, GC_LEARN_WAYS, 0));
  ck_assert_ptr_nonnull(gc_learn_find(t, SIZE_MAX, 1, 0));
  /* version + 1 wraps to the empty stamp: a miss, never a wrong hit. */
  gc_learn_start(t, 100, 0, ULLONG_MAX, 2, cand);
  ck_assert_ptr_null(gc_learn_find(t, 100, 0, ULLONG_MAX));
  /* Out-of-range counts are clamped. */
  int many[8] = {3, 2, 1, 0, 4, 5, 6, 7};
  e = gc_learn_start(t, 1 << 20, 0, 0, 8, many);
  ck_assert_int_eq(e->ncandidates, GC_LEARN_MAX);
  e = gc_learn_start(t, 1 << 21, 0, 0, 0, many);
  ck_assert_int_eq(e->ncandidates, 1);
  ck_assert_int_eq(e->choice, 3);
  free(t);
}
END_TEST

/* A measured time that is none (NaN, an infinity, a negative number: a clock gone wrong)
 * never becomes the choice: it counts as a run slower than any real one, learning still
 * ends, and with no real time at all the native one, or the models' pick, stays. */
START_TEST(limits_bad_times)
{
  struct gc_learn_table *t = table();
  static const double bad[] = {NAN, INFINITY, -INFINITY, -5.0, -0.5e-9};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    int cand[2] = {1, 0}; /* the models' pick 1, then native */
    struct gc_learn *e = gc_learn_start(t, 64, 0, i, 2, cand);
    double times[2] = {3.0, bad[i]}; /* native measured, the pick's times are none */
    ck_assert_int_eq(learn_all(e, times), 2 * GC_LEARN_ROUNDS);
    ck_assert_int_eq(e->choice, 0);
    int others[2] = {2, 1}; /* no native: the bad one is the pick, the other is real */
    e = gc_learn_start(t, 128, 0, i, 2, others);
    double times2[3] = {0, 7.0, bad[i]};
    ck_assert_int_eq(learn_all(e, times2), 2 * GC_LEARN_ROUNDS);
    ck_assert_int_eq(e->choice, 1);
    e = gc_learn_start(t, 256, 0, i, 2, others); /* no real time at all: the pick stays */
    double none[3] = {0, bad[i], bad[i]};
    ck_assert_int_eq(learn_all(e, none), 2 * GC_LEARN_ROUNDS);
    ck_assert_int_eq(e->choice, 2);
    e = gc_learn_start(t, 512, 0, i, 2, cand); /* one bad round of two: the other counts */
    gc_learn_record(e, 1, bad[i]);
    gc_learn_record(e, 0, 2.0);
    gc_learn_record(e, 1, 1.0);
    gc_learn_record(e, 0, 2.0);
    ck_assert_int_eq(e->choice, 1);
  }
  free(t);
}
END_TEST

static Suite *learn_suite(void)
{
  Suite *s = suite_create("learn");
  TCase *core = tcase_create("core"), *lim = tcase_create("limits");
  tcase_add_test(core, candidates_within_the_factor);
  tcase_add_test(core, explores_in_order_and_keeps_the_fastest);
  tcase_add_test(core, minimum_of_the_rounds);
  tcase_add_test(core, tie_keeps_native);
  tcase_add_test(core, restart_and_independent_keys);
  tcase_add_test(lim, limits_single_candidate);
  tcase_add_test(lim, limits_bad_input);
  tcase_add_test(lim, limits_bad_times);
  suite_add_tcase(s, core);
  suite_add_tcase(s, lim);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(learn_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed != 0;
}
