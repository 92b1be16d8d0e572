/* LG schedule: build every rank's schedule and run the world with memcpy. Each block's
 * payload is its (src,dst) tag; the checks are those of reference.md section 3. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lg_schedule.h"
#include "layout.h"
#include "model.h"

struct tag { int src, dst; };

struct world {
  int n;
  struct gc_layout l;
  struct gc_alltoall_lg_schedule *s;
  struct tag **lsend, **stage, **recv; /* per rank, in blocks */
  int *delivered, *crossed;            /* [n*n] per block (src,dst) */
  long long wide_msgs;
};

static void world_free(struct world *w)
{
  for (int r = 0; r < w->n; r++) {
    gc_alltoall_lg_schedule_free(&w->s[r]);
    free(w->lsend[r]), free(w->stage[r]), free(w->recv[r]);
  }
  free(w->s), free(w->lsend), free(w->stage), free(w->recv);
  free(w->delivered), free(w->crossed);
  gc_layout_free(&w->l);
}

static void check_same_blocks(const struct world *w, int sr, const struct gc_alltoall_lg_msg *sm,
                              int rr, const struct gc_alltoall_lg_msg *rm)
{
  ck_assert_int_eq(sm->count, rm->count);
  for (int t = 0; t < sm->count; t++) {
    const struct gc_alltoall_lg_block *a = &w->s[sr].blocks[sm->first + t];
    const struct gc_alltoall_lg_block *b = &w->s[rr].blocks[rm->first + t];
    ck_assert_int_eq(a->src, b->src);
    ck_assert_int_eq(a->dst, b->dst);
  }
}

static void deliver(struct world *w, int r, const struct gc_alltoall_lg_block *b,
                    const struct tag *payload)
{
  ck_assert_int_eq(b->dst, r);
  ck_assert_int_eq(b->place, GC_ALLTOALL_LG_RECVBUF);
  ck_assert_int_eq(b->index, b->src);
  ck_assert_int_eq(payload->src, b->src);
  ck_assert_int_eq(payload->dst, b->dst);
  w->recv[r][b->src] = *payload;
  w->delivered[b->src * w->n + b->dst]++;
}

/* Local phase: pack, Alltoallv inside each cluster, unpack the direct blocks. */
static void run_local(struct world *w)
{
  for (int r = 0; r < w->n; r++) {
    const struct gc_alltoall_lg_schedule *s = &w->s[r];
    for (int q = 0; q < s->cluster_size; q++) {
      const struct gc_alltoall_lg_msg *m = &s->local_send[q];
      ck_assert_int_ge(m->count, 1);
      ck_assert_int_eq(w->l.cluster_of[m->peer], s->cluster);
      ck_assert_int_eq(w->l.index_in_cluster[m->peer], q);
      for (int t = 0; t < m->count; t++) {
        const struct gc_alltoall_lg_block *b = &s->blocks[m->first + t];
        ck_assert_int_eq(b->src, r);
        ck_assert_int_eq(b->place, GC_ALLTOALL_LG_SENDBUF);
        ck_assert_int_eq(b->index, b->dst);
        ck_assert_int_eq(gc_alltoall_lg_stager(&w->l, r, b->dst), q);
        w->lsend[r][m->offset + t] = (struct tag){r, b->dst}; /* PMPI_Pack */
      }
    }
  }
  for (int r = 0; r < w->n; r++) {
    const struct gc_alltoall_lg_schedule *s = &w->s[r];
    for (int p = 0; p < s->cluster_size; p++) {
      const struct gc_alltoall_lg_msg *rm = &s->local_recv[p];
      int src = rm->peer;
      const struct gc_alltoall_lg_msg *sm = &w->s[src].local_send[s->index];
      ck_assert_int_eq(sm->peer, r);
      check_same_blocks(w, src, sm, r, rm);
      ck_assert_int_le(rm->offset + rm->count, s->stage_blocks);
      memcpy(&w->stage[r][rm->offset], &w->lsend[src][sm->offset], sizeof(struct tag) * (size_t)rm->count);
      for (int t = 0; t < rm->count; t++) {
        const struct gc_alltoall_lg_block *b = &s->blocks[rm->first + t];
        ck_assert_int_eq(b->place, GC_ALLTOALL_LG_STAGE);
        ck_assert_int_eq(b->index, rm->offset + t);
        if (b->dst == r)
          deliver(w, r, &(struct gc_alltoall_lg_block){b->src, r, GC_ALLTOALL_LG_RECVBUF, b->src},
                  &w->stage[r][b->index]);
        else
          ck_assert_int_ne(w->l.cluster_of[b->dst], s->cluster);
      }
    }
  }
}

/* Wide-area phase: every send meets exactly one receive with the same block list. */
static void run_wide(struct world *w)
{
  long long recvs = 0, matched = 0;
  for (int r = 0; r < w->n; r++)
    recvs += w->s[r].nwide_recv;
  for (int r = 0; r < w->n; r++) {
    const struct gc_alltoall_lg_schedule *s = &w->s[r];
    for (int i = 0; i < s->nwide_send; i++) {
      const struct gc_alltoall_lg_msg *sm = &s->wide_send[i];
      int d = sm->peer;
      ck_assert_int_ne(w->l.cluster_of[d], s->cluster);
      ck_assert_int_le(sm->count, s->max_wide_send);
      const struct gc_alltoall_lg_msg *rm = NULL;
      for (int j = 0; j < w->s[d].nwide_recv; j++)
        if (w->s[d].wide_recv[j].peer == r) {
          ck_assert_ptr_null(rm); /* at most one message per pair and direction */
          rm = &w->s[d].wide_recv[j];
        }
      ck_assert_ptr_nonnull(rm);
      check_same_blocks(w, r, sm, d, rm);
      matched++;
      for (int t = 0; t < sm->count; t++) {
        const struct gc_alltoall_lg_block *b = &s->blocks[sm->first + t];
        ck_assert_int_eq(b->place, GC_ALLTOALL_LG_STAGE);
        ck_assert_int_lt(b->index, s->stage_blocks);
        w->crossed[b->src * w->n + b->dst]++;
        deliver(w, d, &w->s[d].blocks[rm->first + t], &w->stage[r][b->index]);
      }
    }
  }
  ck_assert_int_eq(matched, recvs);
  w->wide_msgs = matched;
}

static void simulate(int n, const int *cluster_of)
{
  struct world w = {.n = n};
  ck_assert_int_eq(gc_layout_build(&w.l, n, cluster_of), 0);
  w.s = calloc((size_t)n, sizeof *w.s);
  w.lsend = calloc((size_t)n, sizeof *w.lsend);
  w.stage = calloc((size_t)n, sizeof *w.stage);
  w.recv = calloc((size_t)n, sizeof *w.recv);
  w.delivered = calloc((size_t)n * (size_t)n, sizeof(int));
  w.crossed = calloc((size_t)n * (size_t)n, sizeof(int));
  ck_assert(w.s && w.lsend && w.stage && w.recv && w.delivered && w.crossed);
  int divides = 1; /* every pair's smaller size divides the larger: staging is exactly n - n_X */
  for (int x = 0; x < w.l.nclusters; x++)
    for (int y = 0; y < w.l.nclusters; y++)
      divides &= w.l.cluster_size[y] % w.l.cluster_size[x] == 0 ||
                 w.l.cluster_size[x] > w.l.cluster_size[y];
  for (int r = 0; r < n; r++) {
    struct gc_alltoall_lg_schedule *s = &w.s[r];
    ck_assert_int_eq(gc_alltoall_lg_schedule_build(s, &w.l, r), 0);
    int c = s->cluster_size;
    long long staged = gc_alltoall_lg_stage_blocks(&w.l, r);
    ck_assert_int_eq(s->stage_blocks, c + staged);
    ck_assert_int_le(staged, 2LL * (n - c) - (w.l.nclusters - 1)); /* the header's bound */
    if (divides)
      ck_assert_int_eq(staged, n - c);
    ck_assert_int_eq(s->wide_recv_blocks, n - c);
    w.lsend[r] = calloc((size_t)n, sizeof(struct tag));
    w.stage[r] = calloc((size_t)s->stage_blocks + 1, sizeof(struct tag));
    w.recv[r] = calloc((size_t)n, sizeof(struct tag));
    ck_assert(w.lsend[r] && w.stage[r] && w.recv[r]);
  }
  run_local(&w);
  run_wide(&w);
  for (int src = 0; src < n; src++)
    for (int dst = 0; dst < n; dst++) {
      ck_assert_int_eq(w.delivered[src * n + dst], 1);
      ck_assert_int_eq(w.crossed[src * n + dst], w.l.cluster_of[src] != w.l.cluster_of[dst]);
      ck_assert_int_eq(w.recv[dst][src].src, src);
      ck_assert_int_eq(w.recv[dst][src].dst, dst);
    }
  ck_assert_int_eq(w.wide_msgs, gc_alltoall_lg_wide_messages(&w.l));
  world_free(&w);
}

enum order { CONTIGUOUS, REVERSED, INTERLEAVED };

/* Two clusters of a and b ranks, placed contiguously (A first), reversed (B first), or
 * interleaved while both have members left. */
static void two_clusters(int a, int b, enum order order)
{
  int n = a + b, *ids = malloc(sizeof(int) * (size_t)n);
  ck_assert_ptr_nonnull(ids);
  for (int r = 0, na = 0, nb = 0; r < n; r++) {
    int in_a = order == CONTIGUOUS    ? r < a
               : order == REVERSED    ? r >= b
               : na < a && (nb >= b || r % 2 == 0);
    ids[r] = in_a ? 10 : 20;
    in_a ? na++ : nb++;
  }
  simulate(n, ids);
  struct gc_layout l;
  ck_assert_int_eq(gc_layout_build(&l, n, ids), 0);
  long long lo = a < b ? a : b, hi = a + b - lo;
  if (hi % lo == 0)
    ck_assert_int_eq(gc_alltoall_lg_wide_messages(&l), 2 * hi);
  gc_layout_free(&l);
  free(ids);
}

START_TEST(test_two_clusters)
{
  static const int sizes[][2] = {{1, 1}, {1, 5}, {2, 2}, {2, 3}, {3, 2}, {3, 7}, {4, 4}, {5, 13},
                                 {7, 3}, {4, 10}, {6, 1}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    for (int o = CONTIGUOUS; o <= INTERLEAVED; o++)
      two_clusters(sizes[i][0], sizes[i][1], (enum order)o);
}
END_TEST

/* The paper's example (000 Sec. B.3): n1 = 3, n2 = 7, M(7,2) is staged on node 8 and
 * reaches node 2 from node 8; node 9 alone exchanges with node 0 in the last step. */
START_TEST(test_paper_example)
{
  int ids[10] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 1};
  struct gc_layout l;
  ck_assert_int_eq(gc_layout_build(&l, 10, ids), 0);
  ck_assert_int_eq(gc_layout_member(&l, 1, gc_alltoall_lg_stager(&l, 7, 2)), 8);
  ck_assert_int_eq(gc_alltoall_lg_stager(&l, 9, 2), 6); /* partial block: k mod r_s */
  ck_assert_int_eq(gc_alltoall_lg_stager(&l, 1, 9), 0);
  ck_assert_int_eq(gc_alltoall_lg_wide_messages(&l), 7 + 3 * 3);
  struct gc_alltoall_lg_schedule s;
  ck_assert_int_eq(gc_alltoall_lg_schedule_build(&s, &l, 9), 0);
  ck_assert_int_eq(s.nwide_send, 3); /* node 9 sends its r_s = 1 block to each of 0, 1, 2 */
  ck_assert_int_eq(s.nwide_recv, 1);
  ck_assert_int_eq(s.wide_recv[0].peer, 0);
  ck_assert_int_eq(s.wide_recv[0].count, 3);
  gc_alltoall_lg_schedule_free(&s);
  gc_layout_free(&l);
  simulate(10, ids);
  int tie[4] = {5, 9, 9, 5}; /* equal sizes: the lower local index (holding rank 0) plays A */
  ck_assert_int_eq(gc_layout_build(&l, 4, tie), 0);
  ck_assert(gc_model_lg_plays_a(l.cluster_size, 0, 1) && !gc_model_lg_plays_a(l.cluster_size, 1, 0));
  ck_assert_int_eq(gc_alltoall_lg_stager(&l, 3, 1), 0); /* A[1] stages (A[1],B[0]) on A[0] */
  gc_layout_free(&l);
}
END_TEST

START_TEST(test_many_clusters)
{
  for (int k = 3; k <= 8; k++) {
    int ids[64], n = 0;
    for (int c = 0; c < k; c++) /* sizes 1, 2, 3, ... contiguous */
      for (int j = 0; j <= c; j++)
        ids[n++] = c;
    simulate(n, ids);
    for (int r = 0; r < 2 * k + 3; r++) /* round robin, sizes nearly equal */
      ids[r] = r % k;
    simulate(2 * k + 3, ids);
    for (int r = 0; r < 3 * k; r++) /* equal sizes, reversed: ties by local index */
      ids[r] = k - 1 - r / 3;
    simulate(3 * k, ids);
  }
}
END_TEST

START_TEST(test_random_layouts)
{
  unsigned seed = 12345;
  for (int trial = 0; trial < 200; trial++) {
    int n = 2 + (int)(rand_r(&seed) % 39), k = 2 + (int)(rand_r(&seed) % 7), ids[40];
    for (int r = 0; r < n; r++)
      ids[r] = (int)(rand_r(&seed) % (unsigned)k);
    simulate(n, ids);
  }
}
END_TEST

START_TEST(test_degenerate_layouts)
{
  int one[5] = {3, 3, 3, 3, 3}, single[4] = {0, 1, 2, 3};
  simulate(5, one);    /* one cluster: local phase only */
  simulate(4, single); /* one process per cluster: wide area only */
  simulate(1, one);
}
END_TEST

START_TEST(test_bad_arguments)
{
  int ids[3] = {0, 1, 1};
  struct gc_layout l;
  struct gc_alltoall_lg_schedule s;
  ck_assert_int_eq(gc_layout_build(&l, 3, ids), 0);
  ck_assert_int_eq(gc_alltoall_lg_schedule_build(&s, &l, -1), -2);
  ck_assert_int_eq(gc_alltoall_lg_schedule_build(&s, &l, 3), -2);
  ck_assert_int_eq(gc_alltoall_lg_schedule_build(&s, NULL, 0), -2);
  gc_alltoall_lg_schedule_free(&s); /* safe on a failed build */
  gc_layout_free(&l);
}
END_TEST

static Suite *lg_schedule_suite(void)
{
  Suite *s = suite_create("lg_schedule");
  TCase *core = tcase_create("core");
  tcase_set_timeout(core, 60);
  tcase_add_test(core, test_two_clusters);
  tcase_add_test(core, test_paper_example);
  tcase_add_test(core, test_many_clusters);
  tcase_add_test(core, test_random_layouts);
  tcase_add_test(core, test_degenerate_layouts);
  suite_add_tcase(s, core);
  TCase *limits = tcase_create("limits");
  tcase_add_test(limits, test_bad_arguments);
  suite_add_tcase(s, limits);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(lg_schedule_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
