/* Nonblocking schedules (nbc_schedule.h): the broadcast trees' steps (tree_steps.c) run
 * for every rank of simulated worlds, round by round, with a value per rank standing
 * for its buffer: every rank ends with the root's, every send meets exactly one receive,
 * and no rank waits forever. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "scratch_check.h"
#include "tree.h"
#include "tree_steps.h"

enum { MAXN = 40 };

struct world {
  struct gc_nbc_step steps[MAXN][MAXN];
  int nsteps[MAXN], at[MAXN]; /* at: first step not yet completed */
  int value[MAXN];
};

/* Runs the world as the executor would (shim/nbc.c): a rank's round is posted once its
 * previous round completed; a send completes when its peer's matching receive is
 * posted, and delivers the value. Returns 0, or -1 on a deadlock or a mismatch. */
static int run_world(struct world *w, int n)
{
  for (int progress = 1; progress;) {
    progress = 0;
    for (int r = 0; r < n; r++) {
      if (w->at[r] >= w->nsteps[r])
        continue;
      const struct gc_nbc_step *s = &w->steps[r][w->at[r]];
      if (s->kind == GC_NBC_SEND) {
        int p = s->peer;
        if (w->at[p] >= w->nsteps[p])
          continue;
        const struct gc_nbc_step *q = &w->steps[p][w->at[p]];
        if (q->kind != GC_NBC_RECV || q->peer != r)
          continue; /* the peer has not posted our receive yet */
        w->value[p] = w->value[r];
        w->at[p]++, w->at[r]++, progress = 1;
      }
    }
  }
  for (int r = 0; r < n; r++)
    if (w->at[r] != w->nsteps[r])
      return -1;
  return 0;
}

static void check_tree(const struct gc_layout *l, const struct gc_tree *t, int root)
{
  static struct world w;
  memset(&w, 0, sizeof w);
  int nsend = 0, nrecv = 0;
  for (int r = 0; r < l->size; r++) {
    w.nsteps[r] = gc_bcast_tree_steps(l, t, root, r, w.steps[r]);
    ck_assert_int_ge(w.nsteps[r], 0);
    ck_assert_int_le(w.nsteps[r], l->size);
    for (int i = 0; i < w.nsteps[r]; i++) {
      const struct gc_nbc_step *s = &w.steps[r][i];
      ck_assert(i == 0 || s->round >= w.steps[r][i - 1].round);
      ck_assert(s->peer >= 0 && s->peer < l->size && s->peer != r);
      nsend += s->kind == GC_NBC_SEND, nrecv += s->kind == GC_NBC_RECV;
      /* The only cross-cluster edges are the tree's, leader to leader. */
      if (l->cluster_of[s->peer] != l->cluster_of[r] && s->kind == GC_NBC_SEND)
        ck_assert_int_eq(t->parent[l->cluster_of[s->peer]], l->cluster_of[r]);
    }
    /* Every rank but the root receives exactly once, first. */
    ck_assert_int_eq(w.nsteps[r] > 0 && w.steps[r][0].kind == GC_NBC_RECV, r != root);
    w.value[r] = r == root ? 1000 + root : -1;
  }
  ck_assert_int_eq(nsend, l->size - 1);
  ck_assert_int_eq(nrecv, l->size - 1);
  ck_assert_int_eq(run_world(&w, l->size), 0);
  for (int r = 0; r < l->size; r++)
    ck_assert_int_eq(w.value[r], 1000 + root);
}

typedef int (*builder_fn)(const struct gc_tree_input *, struct gc_tree *);

START_TEST(every_rank_gets_the_root_s_message) {
  builder_fn builders[] = {gc_bcast_flat_tree, gc_bcast_binomial_tree, gc_bcast_hlot_tree,
                           gc_bcast_spt_tree, gc_bcast_greedy_tree};
  unsigned seed = 7;
  for (int trial = 0; trial < 300; trial++) {
    int n = 1 + rand_r(&seed) % MAXN, k = 1 + rand_r(&seed) % 6, gid[MAXN];
    for (int r = 0; r < n; r++) /* interleaved, blocked or random memberships */
      gid[r] = trial % 3 == 0 ? r % k : trial % 3 == 1 ? r * k / n : rand_r(&seed) % k;
    struct gc_layout l;
    ck_assert_int_eq(gc_layout_build(&l, n, gid), 0);
    int root = rand_r(&seed) % n;
    struct gc_tree_input in = {.k = l.nclusters, .root = l.cluster_of[root], .uniform = 1e-3,
                               .send_gap = 1e-6, .recv_overhead = 1e-6,
                               .scratch = gc_test_scratch(n, l.nclusters)};
    for (size_t b = 0; b < sizeof builders / sizeof builders[0]; b++) {
      struct gc_tree t;
      gc_test_tree(&t, l.nclusters);
      ck_assert_int_eq(builders[b](&in, &t), 0);
      check_tree(&l, &t, root);
      gc_test_tree_free(&t);
    }
    gc_layout_free(&l);
  }
}
END_TEST

START_TEST(a_tree_of_another_layout_is_refused) {
  int gid[] = {0, 1, 0, 1};
  struct gc_layout l;
  ck_assert_int_eq(gc_layout_build(&l, 4, gid), 0);
  struct gc_tree_input in = {.k = 2, .root = 0, .uniform = 1e-3,
                             .scratch = gc_test_scratch(4, 2)};
  struct gc_tree t;
  struct gc_nbc_step out[4];
  gc_test_tree(&t, 2);
  ck_assert_int_eq(gc_bcast_flat_tree(&in, &t), 0);
  ck_assert_int_eq(gc_bcast_tree_steps(&l, &t, 1, 0, out), -1); /* root 1 is in cluster 1 */
  ck_assert_int_eq(gc_bcast_tree_steps(&l, &t, 4, 0, out), -1);
  ck_assert_int_eq(gc_bcast_tree_steps(&l, &t, 0, -1, out), -1);
  t.n = 3;
  ck_assert_int_eq(gc_bcast_tree_steps(&l, &t, 0, 0, out), -1);
  t.n = 2;
  gc_test_tree_free(&t);
  gc_layout_free(&l);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("nbc_schedule");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, every_rank_gets_the_root_s_message);
  tcase_add_test(limits, a_tree_of_another_layout_is_refused);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
