/* Broadcast trees over cluster leaders (shim/bcast/pure/: tree.c and the *_tree.c files): shape, cost. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scratch_check.h"
#include "tree.h"

typedef int (*builder_fn)(const struct gc_tree_input *, struct gc_tree *);
static const struct {
  const char *name;
  builder_fn build;
} builders[] = {
  {"flat", gc_bcast_flat_tree},   {"binomial", gc_bcast_binomial_tree},
  {"hlot", gc_bcast_hlot_tree},   {"spt", gc_bcast_spt_tree},
  {"greedy", gc_bcast_greedy_tree}, {"ecef", gc_bcast_greedy_ecef_tree},
};
#define NBUILDERS (int)(sizeof builders / sizeof builders[0])
enum { FLAT, BINOMIAL, HLOT, SPT, GREEDY, ECEF };

/* platforms/korea8_latency_ms.txt: A..H, symmetric, triangle-violating. */
static const double korea8_ms[64] = {
  0,   5,   25,  30,  90, 80, 400, 15, /* A */
  5,   0,   28,  33,  95, 85, 60,  18, /* B */
  25,  28,  0,   6,   40, 20, 120, 45, /* C */
  30,  33,  6,   0,   10, 9,  110, 50, /* D */
  90,  95,  40,  10,  0,  8,  12,  30, /* E */
  80,  85,  20,  9,   8,  0,  25,  35, /* F */
  400, 60,  120, 110, 12, 25, 0,   7,  /* G */
  15,  18,  45,  50,  30, 35, 7,   0,  /* H */
};
static double korea8[64];
enum { A, B, C, D, E, F, G, H };

static void setup(void)
{
  for (int i = 0; i < 64; i++)
    korea8[i] = korea8_ms[i] * 1e-3;
}

static struct gc_tree_input input(int k, int root, const double *W, double gap, double o_r)
{
  struct gc_tree_input in = {.k = k, .root = root, .W = W, .uniform = 1e-3,
                             .send_gap = gap, .recv_overhead = o_r,
                             .scratch = gc_test_scratch(k, k)};
  return in;
}

/* Fixed-seed random matrix: asymmetric, 1 to 500 ms, with a few very short links so
 * that detours beat direct links (the triangle inequality fails). */
static double *random_matrix(int k, unsigned *seed)
{
  double *W = malloc(sizeof(double) * (size_t)k * (size_t)k);
  ck_assert_ptr_nonnull(W);
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++) {
      int r = rand_r(seed);
      double ms = r % 5 == 0 ? 1 + r % 10 : 1 + r % 500;
      W[i * k + j] = i == j ? 0.0 : ms * 1e-3;
    }
  return W;
}

/* Independent check: a spanning tree rooted at root, CSR consistent with parent[],
 * every cluster reached exactly once, no cycle. */
static void assert_spanning(const struct gc_tree *t, int k, int root, const char *name)
{
  ck_assert_msg(t->n == k && t->root == root, "%s: k/root", name);
  ck_assert_msg(t->parent[root] == -1, "%s: root has a parent", name);
  ck_assert_int_eq(t->child_start[0], 0);
  ck_assert_int_eq(t->child_start[k], k - 1);
  int *seen = calloc((size_t)k, sizeof(int));
  ck_assert_ptr_nonnull(seen);
  for (int c = 0; c < k; c++) {
    ck_assert_int_le(t->child_start[c], t->child_start[c + 1]);
    for (int j = t->child_start[c]; j < t->child_start[c + 1]; j++) {
      int n = t->children[j];
      ck_assert_msg(n >= 0 && n < k && n != root, "%s: bad child %d", name, n);
      ck_assert_msg(t->parent[n] == c, "%s: child %d listed under %d", name, n, c);
      seen[n]++;
    }
  }
  for (int n = 0; n < k; n++) {
    ck_assert_msg(n == root || seen[n] == 1, "%s: cluster %d listed %d times", name, n, seen[n]);
    int x = n, steps = 0;
    while (x != root && steps <= k) {
      x = t->parent[x];
      ck_assert_msg(x >= 0 && x < k, "%s: cluster %d does not reach the root", name, n);
      steps++;
    }
    ck_assert_msg(x == root, "%s: cycle through %d", name, n);
  }
  free(seen);
}

/* The leaders' broadcast time of a tree under the model every builder minimises
 * (model/tree_cost.h). */
static double leaders_time(const struct gc_tree_input *in, const struct gc_tree *t)
{
  double time = -1;
  ck_assert_int_eq(gc_model_tree_leaders(in, t, &time), 0);
  return time;
}

/* Builds into the test's own storage; every builder gives back all the scratch it took. */
static double build_time(int b, const struct gc_tree_input *in)
{
  struct gc_tree t;
  gc_test_tree(&t, in->k);
  size_t used = in->scratch->used;
  ck_assert_int_eq(builders[b].build(in, &t), 0);
  ck_assert_uint_eq(in->scratch->used, used);
  assert_spanning(&t, in->k, in->root, builders[b].name);
  double time = leaders_time(in, &t);
  gc_test_tree_free(&t);
  return time;
}

START_TEST(korea8_published_facts)
{
  struct gc_tree_input in = input(8, A, korea8, 0.0, 0.0);
  ck_assert_double_eq_tol(build_time(FLAT, &in), 0.400, 1e-12); /* 001 Eq. 3 */
  struct gc_tree t;
  double T[8];
  gc_test_tree(&t, 8);
  ck_assert_int_eq(gc_bcast_spt_tree(&in, &t), 0);
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &t, T), 0);
  ck_assert_int_eq(t.parent[G], H); /* A-H-G */
  ck_assert_double_eq_tol(T[G], 0.022, 1e-12);
  ck_assert_double_eq_tol(leaders_time(&in, &t), 0.039, 1e-12); /* A-D-F */
  /* HLOT reaches G through H too (22 < 400) and is never later than flat. */
  ck_assert_int_eq(gc_bcast_hlot_tree(&in, &t), 0);
  ck_assert_int_eq(t.parent[G], H);
  ck_assert_double_le(leaders_time(&in, &t), 0.400);
  gc_test_tree_free(&t);
}
END_TEST

/* Every builder, every root: korea8, random k = 1..64, degenerate matrices. */
static void check_orderings(const struct gc_tree_input *base)
{
  struct gc_tree_input z = *base, g = *base;
  z.send_gap = z.recv_overhead = 0.0;
  g.send_gap = 2e-3;
  g.recv_overhead = 0.5e-3;
  double t0[NBUILDERS];
  for (int b = 0; b < NBUILDERS; b++)
    t0[b] = build_time(b, &z);
  /* Gaps and o_r only ever delay an arrival: no tree beats the latency lower bound. */
  for (int b = 0; b < NBUILDERS; b++)
    ck_assert_double_ge(build_time(b, &g), t0[SPT] - 1e-12);
  ck_assert_double_le(t0[HLOT], t0[FLAT] + 1e-12); /* 001 Section 3.2 */
  for (int b = 0; b < NBUILDERS; b++)
    ck_assert_double_le(t0[SPT], t0[b] + 1e-12); /* latency lower bound */
  ck_assert_double_eq_tol(t0[ECEF], t0[SPT], 1e-12); /* zero gaps: Dijkstra */
  ck_assert_double_eq_tol(t0[GREEDY], t0[SPT], 1e-12);
}

START_TEST(every_root_korea8)
{
  for (int r = 0; r < 8; r++) {
    struct gc_tree_input in = input(8, r, korea8, 0.0, 0.0);
    check_orderings(&in);
  }
}
END_TEST

START_TEST(every_root_random)
{
  unsigned seed = 12345;
  static const int ks[] = {1, 2, 3, 5, 8, 13, 32, 64};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
    for (int rep = 0; rep < 4; rep++) {
      int k = ks[i];
      double *W = random_matrix(k, &seed);
      for (int r = 0; r < k; r++) {
        struct gc_tree_input in = input(k, r, W, 0.0, 0.0);
        check_orderings(&in);
      }
      free(W);
    }
}
END_TEST

START_TEST(degenerate)
{
  double one = 0.0, two[4] = {0, 0.01, 0.02, 0}, eq[36];
  for (int i = 0; i < 36; i++)
    eq[i] = i % 7 == 0 ? 0.0 : 0.005;
  for (int r = 0; r < 6; r++) {
    struct gc_tree_input in = input(6, r, eq, 0.0, 0.0);
    check_orderings(&in);
    in.W = NULL; /* NULL: all-equal `uniform` latency */
    check_orderings(&in);
    ck_assert_double_eq_tol(build_time(FLAT, &in), 1e-3, 1e-15);
  }
  struct gc_tree_input in1 = input(1, 0, &one, 1e-3, 1e-3);
  check_orderings(&in1);
  ck_assert_double_eq(build_time(GREEDY, &in1), 0.0);
  for (int r = 0; r < 2; r++) {
    struct gc_tree_input in2 = input(2, r, two, 0.0, 0.0);
    check_orderings(&in2);
    ck_assert_double_eq_tol(build_time(HLOT, &in2), r ? 0.02 : 0.01, 1e-15);
  }
}
END_TEST

START_TEST(binomial_shape)
{
  struct gc_tree t;
  struct gc_tree_input in = input(8, 3, NULL, 0.0, 0.0);
  gc_test_tree(&t, 8);
  ck_assert_int_eq(gc_bcast_binomial_tree(&in, &t), 0);
  /* Relative ranks: 0 serves 4, 2, 1 (largest subtree first), 4 serves 6, 5. */
  static const int first_children[] = {(4 + 3) % 8, (2 + 3) % 8, (1 + 3) % 8};
  ck_assert_int_eq(t.child_start[4] - t.child_start[3], 3);
  for (int j = 0; j < 3; j++)
    ck_assert_int_eq(t.children[t.child_start[3] + j], first_children[j]);
  ck_assert_int_eq(t.parent[(6 + 3) % 8], (4 + 3) % 8);
  ck_assert_int_eq(t.parent[(7 + 3) % 8], (6 + 3) % 8);
  ck_assert_double_eq_tol(leaders_time(&in, &t), 3e-3, 1e-15); /* log2(8) hops */
  gc_test_tree_free(&t);
}
END_TEST

START_TEST(cost_by_hand)
{
  /* Flat from 0: 10 ms to 1, 20 ms to 2, o_s+g = 1 ms, o_r = 0.5 ms. The farther child
   * is served first and only its successor waits for a gap (001 Eq. 2 as published would
   * charge both children (c-1) = 1 gap). */
  double W[9] = {0, 0.010, 0.020, 0.010, 0, 0.010, 0.020, 0.010, 0};
  struct gc_tree_input in = input(3, 0, W, 1e-3, 0.5e-3);
  struct gc_tree t;
  double T[3];
  gc_test_tree(&t, 3);
  ck_assert_int_eq(gc_bcast_flat_tree(&in, &t), 0);
  ck_assert_int_eq(t.children[0], 2);
  ck_assert_int_eq(t.children[1], 1);
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &t, T), 0);
  ck_assert_double_eq_tol(T[2], 0.0205, 1e-15);
  ck_assert_double_eq_tol(T[1], 0.0115, 1e-15);
  ck_assert_double_eq_tol(leaders_time(&in, &t), 0.0205, 1e-15);
  /* Bandwidth: 1 MB at 100 MB/s adds 10 ms to each edge; both sends are posted at once. */
  double bw[9];
  for (int i = 0; i < 9; i++)
    bw[i] = 1e8;
  in.bw = bw;
  in.bytes = 1e6;
  /* Unlimited interfaces: T2 = 20+10+.5 = 30.5 ms, T1 = 1 + 10+10+.5 = 21.5 ms. */
  ck_assert_double_eq_tol(leaders_time(&in, &t), 0.0305, 1e-12);
  /* A 100 MB/s interface at the root: each flow pays its latency first, 0 -> 1 sends from
   * 10 to 20 ms, 0 -> 2 from 20 to 30 ms: no overlap, T2 = 30.5 ms again.  At 50 MB/s
   * they overlap: 0 -> 1 sends 0.5 MB by 20 ms, then the two share the interface by
   * 1/latency (2/3 and 1/3): 0 -> 1 ends at 35 ms, 0 -> 2 has 0.75 MB left then, at 50
   * MB/s: ends at 50 ms.  T2 = 50.5 ms, T1 = 1 + 35 + .5 = 36.5 ms. */
  double nic[3] = {1e8, 1e8, 1e8};
  in.nic = nic;
  ck_assert_double_eq_tol(leaders_time(&in, &t), 0.0305, 1e-12);
  nic[0] = 5e7;
  double T2[3];
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &t, T2), 0);
  ck_assert_double_eq_tol(T2[2], 0.0505, 1e-12);
  ck_assert_double_eq_tol(T2[1], 0.0365, 1e-12);
  gc_test_tree_free(&t);
}
END_TEST

static int next_permutation(int *a, int n)
{
  int i = n - 2;
  while (i >= 0 && a[i] >= a[i + 1])
    i--;
  if (i < 0)
    return 0;
  int j = n - 1;
  while (a[j] <= a[i])
    j--;
  int x = a[i];
  a[i] = a[j];
  a[j] = x;
  for (int l = i + 1, r = n - 1; l < r; l++, r--) {
    x = a[l];
    a[l] = a[r];
    a[r] = x;
  }
  return 1;
}

/* Jackson's rule: no other order of the root's children is earlier, with unequal gaps
 * (bandwidth per edge) and subtrees below the children. */
START_TEST(children_order_optimal)
{
  unsigned seed = 777;
  for (int rep = 0; rep < 20; rep++) {
    int k = 7;
    double *W = random_matrix(k, &seed), bw[49];
    for (int i = 0; i < 49; i++)
      bw[i] = 1e6 * (1 + rand_r(&seed) % 100);
    struct gc_tree_input in = input(k, rep % k, W, 1e-3, 1e-4);
    in.bw = bw;
    in.bytes = 1e4;
    for (int b = 0; b < NBUILDERS; b++) {
      struct gc_tree t;
      gc_test_tree(&t, k);
      ck_assert_int_eq(builders[b].build(&in, &t), 0);
      double best = leaders_time(&in, &t);
      int *kids = t.children + t.child_start[in.root];
      int nk = t.child_start[in.root + 1] - t.child_start[in.root];
      int perm[8];
      memcpy(perm, kids, sizeof(int) * (size_t)nk);
      for (int i = 1; i < nk; i++) /* sort, then walk every permutation */
        for (int j = i; j > 0 && perm[j - 1] > perm[j]; j--) {
          int x = perm[j];
          perm[j] = perm[j - 1];
          perm[j - 1] = x;
        }
      do {
        memcpy(kids, perm, sizeof(int) * (size_t)nk);
        ck_assert_double_ge(leaders_time(&in, &t), best - 1e-12);
      } while (next_permutation(perm, nk));
      gc_test_tree_free(&t);
    }
    free(W);
  }
}
END_TEST

/* With nonzero gaps, position-aware model: the greedy tree is never later than any other
 * (it keeps the best of ECEF and the others, see greedy_tree.c). ECEF alone is not: it
 * loses to HLOT in a few percent of random cases; assert what holds for it on this fixed
 * sample (later than HLOT in under 10% of cases, earlier on average) and print it. */
START_TEST(greedy_with_gaps)
{
  unsigned seed = 4242;
  int cases = 0, ecef_later = 0;
  double sum_ecef = 0, sum_hlot = 0, worst_ratio = 1.0;
  static const int ks[] = {2, 3, 5, 8, 16, 32, 64};
  static const double gaps[] = {1e-4, 2e-3, 20e-3};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
    for (int rep = 0; rep < 4; rep++) {
      int k = ks[i];
      double *W = random_matrix(k, &seed);
      /* Every root of the small grids, every eighth of the large ones: keeps the test
       * well under a second while still covering 64 clusters. */
      for (int r = 0; r < k; r += k > 16 ? 8 : 1)
        for (int gi = 0; gi < 3; gi++) {
          struct gc_tree_input in = input(k, r, W, gaps[gi], 1e-4);
          double tg = build_time(GREEDY, &in);
          for (int b = 0; b < NBUILDERS; b++)
            ck_assert_double_le(tg, build_time(b, &in) + 1e-12);
          double te = build_time(ECEF, &in), th = build_time(HLOT, &in);
          ecef_later += te > th + 1e-12;
          worst_ratio = te / th > worst_ratio ? te / th : worst_ratio;
          sum_ecef += te;
          sum_hlot += th;
          cases++;
        }
      free(W);
    }
  fprintf(stderr, "check_trees: ECEF later than HLOT in %d of %d cases (worst x%.3f), "
                  "mean ECEF/HLOT %.3f\n", ecef_later, cases, worst_ratio, sum_ecef / sum_hlot);
  ck_assert_int_lt(ecef_later * 10, cases);
  ck_assert_double_lt(sum_ecef, sum_hlot);
}
END_TEST

/* korea8 with gaps: greedy no later than HLOT and SPT for every root. */
START_TEST(greedy_korea8)
{
  static const double gaps[] = {1e-3, 5e-3, 20e-3};
  for (int gi = 0; gi < 3; gi++)
    for (int r = 0; r < 8; r++) {
      struct gc_tree_input in = input(8, r, korea8, gaps[gi], 0.0);
      double tg = build_time(GREEDY, &in);
      ck_assert_double_le(tg, build_time(HLOT, &in) + 1e-12);
      ck_assert_double_le(tg, build_time(SPT, &in) + 1e-12);
    }
  /* From A with 20 ms gaps the model's own tree wins outright: 51 ms, HLOT and SPT 65. */
  struct gc_tree_input in = input(8, A, korea8, 20e-3, 0.0);
  ck_assert_double_eq_tol(build_time(GREEDY, &in), 0.051, 1e-12);
  ck_assert_double_eq_tol(build_time(HLOT, &in), 0.065, 1e-12);
}
END_TEST

START_TEST(limits)
{
  struct gc_tree t, small;
  double W[4] = {0, 1, 1, 0}, bad[4] = {0, -1, 1, 0}, nan4[4] = {0, NAN, 1, 0};
  struct gc_tree_input in = input(2, 0, W, 0, 0), two = in;
  gc_test_tree(&t, 2);
  gc_test_tree(&small, 1);
  for (int b = 0; b < NBUILDERS; b++) {
    in.k = 0;
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_EINVAL);
    ck_assert_int_eq(t.n, 0);
    /* An output without room for k nodes: refused, its storage untouched. */
    ck_assert_int_eq(builders[b].build(&two, &small), GC_TREE_EINVAL);
    ck_assert_int_eq(small.n, 0);
    in.k = 2;
    in.root = 2;
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_EINVAL);
    in.root = -1;
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_EINVAL);
    in.root = 0;
    in.W = bad;
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_EINVAL);
    in.W = nan4;
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_EINVAL);
    in.W = W;
    in.send_gap = -1;
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_EINVAL);
    in.send_gap = 0;
    in.bytes = NAN; /* a size no call has: the tree cache's key is whole bytes */
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_EINVAL);
    in.bytes = -1;
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_EINVAL);
    in.bytes = 0;
    double zero_bw[4] = {0, 0, 1, 0};
    in.bw = zero_bw;
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_EINVAL);
    in.bw = NULL;
    ck_assert_int_eq(builders[b].build(&in, &t), 0);
    ck_assert_int_eq(t.n, 2);
    /* No scratch, or one too small: GC_TREE_ENOMEM, never a tree built halfway. */
    struct gc_scratch none = {0};
    in.scratch = &none;
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_ENOMEM);
    ck_assert_int_eq(t.n, 0);
    in.scratch = NULL;
    ck_assert_int_eq(builders[b].build(&in, &t), GC_TREE_ENOMEM);
    in.scratch = gc_test_scratch(2, 2);
  }
  ck_assert_int_eq(gc_bcast_flat_tree(NULL, &t), GC_TREE_EINVAL);
  gc_test_tree_free(&t);
  gc_test_tree_free(&small);
}
END_TEST

static Suite *trees_suite(void)
{
  Suite *s = suite_create("trees");
  TCase *core = tcase_create("core");
  tcase_add_checked_fixture(core, setup, NULL);
  tcase_set_timeout(core, 60);
  tcase_add_test(core, korea8_published_facts);
  tcase_add_test(core, every_root_korea8);
  tcase_add_test(core, every_root_random);
  tcase_add_test(core, degenerate);
  tcase_add_test(core, binomial_shape);
  tcase_add_test(core, cost_by_hand);
  tcase_add_test(core, children_order_optimal);
  tcase_add_test(core, greedy_with_gaps);
  tcase_add_test(core, greedy_korea8);
  suite_add_tcase(s, core);
  TCase *lim = tcase_create("limits");
  tcase_add_test(lim, limits);
  suite_add_tcase(s, lim);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(trees_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
