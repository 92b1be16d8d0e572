/* Nonblocking schedules (nbc_schedule.h): the broadcast trees' steps (tree_steps.c),
 * whole and in segments, run for every rank of simulated worlds as the executor runs
 * them (rounds, lags, MPI's in-order matching between a pair): every rank ends with
 * every segment of the root's message, no rank forwards a segment it does not hold yet,
 * every send meets exactly one receive of the same segment, and no rank waits forever. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "scratch_check.h"
#include "tree.h"
#include "tree_steps.h"

enum { MAXN = 40, MAXSEG = 7, MAXSTEPS = 16 * MAXSEG };

struct world {
  int n, nseg;
  struct gc_nbc_step steps[MAXN][MAXSTEPS];
  int nsteps[MAXN], posted[MAXN];
  char done[MAXN][MAXSTEPS];
  int have[MAXN][MAXSEG]; /* the root's value of each segment, once it arrived; -1 */
  int matched[MAXN][MAXN]; /* sends from a to b met by receives so far */
};

/* The index of the j-th step of `kind` with `peer` among r's first `upto` steps; -1. */
static int nth(const struct world *w, int r, int kind, int peer, int j, int upto)
{
  for (int i = 0; i < upto; i++)
    if (w->steps[r][i].kind == kind && w->steps[r][i].peer == peer && j-- == 0)
      return i;
  return -1;
}

/* r posts its next round when every posted step due before it is done (nbc.c:
 * advance). 1 when it posted; 0 when it waits or has posted everything. A send posted
 * for a segment r does not hold fails the test. */
static int post(struct world *w, int r)
{
  if (w->posted[r] >= w->nsteps[r])
    return 0;
  int round = w->steps[r][w->posted[r]].round;
  for (int i = 0; i < w->posted[r]; i++)
    if (!w->done[r][i] && (long long)w->steps[r][i].round + w->steps[r][i].lag < round)
      return 0;
  for (; w->posted[r] < w->nsteps[r] && w->steps[r][w->posted[r]].round == round; w->posted[r]++) {
    const struct gc_nbc_step *s = &w->steps[r][w->posted[r]];
    if (s->kind == GC_NBC_SEND)
      ck_assert_msg(w->have[r][s->piece] >= 0, "rank %d forwards segment %d before it came", r,
                    s->piece);
  }
  return 1;
}

/* Matches every posted send from a to b with b's posted receive of the same order. */
static int match(struct world *w, int a, int b)
{
  int progress = 0;
  for (;;) {
    int j = w->matched[a][b];
    int si = nth(w, a, GC_NBC_SEND, b, j, w->posted[a]);
    int ri = nth(w, b, GC_NBC_RECV, a, j, w->posted[b]);
    if (si < 0 || ri < 0)
      return progress;
    int piece = w->steps[a][si].piece;
    ck_assert_int_eq(w->steps[b][ri].piece, piece); /* the same segment, hence length */
    w->have[b][piece] = w->have[a][piece];
    w->done[a][si] = w->done[b][ri] = 1;
    w->matched[a][b]++, progress = 1;
  }
}

/* Runs the world: 0, or -1 when a rank is left waiting. */
static int run_world(struct world *w)
{
  for (int progress = 1; progress;) {
    progress = 0;
    for (int r = 0; r < w->n; r++)
      progress |= post(w, r);
    for (int a = 0; a < w->n; a++)
      for (int b = 0; b < w->n; b++)
        if (a != b)
          progress |= match(w, a, b);
  }
  for (int r = 0; r < w->n; r++)
    for (int i = 0; i < w->nsteps[r]; i++)
      if (i >= w->posted[r] || !w->done[r][i])
        return -1;
  return 0;
}

/* nseg 0: the whole message as gc_bcast_tree_steps gives it; else nseg segments. */
static void check_tree(const struct gc_layout *l, const struct gc_tree *t, int root, int nseg,
                       int ahead)
{
  static struct world w;
  memset(&w, 0, sizeof w);
  w.n = l->size, w.nseg = nseg ? nseg : 1;
  int nsend = 0, nrecv = 0;
  for (int r = 0; r < l->size; r++) {
    struct gc_nbc_step whole[MAXSTEPS];
    int n = gc_bcast_tree_steps(l, t, root, r, whole);
    ck_assert_int_ge(n, 0);
    ck_assert_int_le(n, gc_bcast_tree_steps_bound(l, r));
    if (nseg == 0) {
      memcpy(w.steps[r], whole, sizeof whole[0] * (size_t)n);
      w.nsteps[r] = n;
    } else {
      w.nsteps[r] = gc_bcast_tree_segment_steps(whole, n, nseg, ahead, w.steps[r]);
      ck_assert_int_eq(w.nsteps[r], n * nseg);
    }
    for (int i = 0; i < w.nsteps[r]; i++) {
      const struct gc_nbc_step *s = &w.steps[r][i];
      ck_assert(i == 0 || s->round >= w.steps[r][i - 1].round);
      ck_assert(s->peer >= 0 && s->peer < l->size && s->peer != r);
      ck_assert(s->lag >= 0 && s->piece >= 0 && s->piece < w.nseg);
      nsend += s->kind == GC_NBC_SEND, nrecv += s->kind == GC_NBC_RECV;
      /* The only cross-cluster edges are the tree's, leader to leader. */
      if (l->cluster_of[s->peer] != l->cluster_of[r] && s->kind == GC_NBC_SEND)
        ck_assert_int_eq(t->parent[l->cluster_of[s->peer]], l->cluster_of[r]);
    }
    /* Every rank but the root receives, first. */
    ck_assert_int_eq(w.nsteps[r] > 0 && w.steps[r][0].kind == GC_NBC_RECV, r != root);
    for (int g = 0; g < w.nseg; g++)
      w.have[r][g] = r == root ? 1000 * g + root : -1;
  }
  ck_assert_int_eq(nsend, (l->size - 1) * w.nseg);
  ck_assert_int_eq(nrecv, (l->size - 1) * w.nseg);
  ck_assert_int_eq(run_world(&w), 0);
  for (int r = 0; r < l->size; r++)
    for (int g = 0; g < w.nseg; g++)
      ck_assert_int_eq(w.have[r][g], 1000 * g + root);
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
      check_tree(&l, &t, root, 0, 1);
      /* Segments: fewer and more than the receives posted ahead. */
      int nseg = 1 + rand_r(&seed) % MAXSEG, ahead = 1 + rand_r(&seed) % 4;
      check_tree(&l, &t, root, nseg, ahead);
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
  ck_assert_int_eq(gc_bcast_tree_steps(&l, &t, 0, 0, out), 2);
  struct gc_nbc_step seg[8];
  ck_assert_int_eq(gc_bcast_tree_segment_steps(out, 2, 0, 1, seg), -1);
  ck_assert_int_eq(gc_bcast_tree_segment_steps(out, 2, 2, 0, seg), -1);
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
