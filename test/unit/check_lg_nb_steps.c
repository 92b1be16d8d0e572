/* LG's nonblocking steps (lg_nb_steps.h): every rank's steps of simulated worlds run as the
 * executor runs them (shim/nbc.c: a round is posted once every step before it completed;
 * MPI's in-order matching between a pair), on real buffers. Each block's payload is its
 * (src,dst) tag, packed where the plan says; every send meets a receive of the same size,
 * no piece leaves the call's buffer (a gathered one, the staging area), no rank waits
 * forever, and every rank ends with the block of every source where its plan reads it. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "lg_nb_steps.h"

struct tag { int src, dst, pad[2]; };

struct rank {
  struct gc_alltoall_lg_schedule s;
  struct gc_nbc_step *steps;
  struct gc_alltoall_lg_nb_piece *pieces;
  struct gc_alltoall_lg_nb_plan plan;
  int nsteps, posted;
  char *buf;
  size_t bytes;
};

struct world {
  int n;
  size_t m;
  struct gc_layout l;
  struct rank *r;
  int *matched; /* [n*n] sends from a to b met by receives so far */
  char *done;   /* [n * most steps] */
  int most;
};

/* The bytes of piece p of rank r, into out (a gathered piece block by block); their number. */
static size_t read_piece(const struct world *w, const struct rank *r,
                         const struct gc_alltoall_lg_nb_piece *p, char *out)
{
  if (p->gather_count == 0) {
    ck_assert_uint_le(p->at + p->bytes, r->bytes);
    memcpy(out, r->buf + p->at, p->bytes);
    return p->bytes;
  }
  size_t stage_end = (size_t)w->n * w->m + (size_t)r->s.stage_blocks * w->m, got = 0;
  ck_assert_int_eq(p->bytes, 0);
  for (int t = 0; t < p->gather_count; t++) {
    const struct gc_alltoall_lg_block *b = &r->s.blocks[p->gather_first + t];
    size_t at = p->at + (size_t)b->index * w->m;
    ck_assert_int_eq(b->place, GC_ALLTOALL_LG_STAGE);
    ck_assert_uint_ge(at, (size_t)w->n * w->m);
    ck_assert_uint_le(at + w->m, stage_end);
    memcpy(out + got, r->buf + at, w->m);
    got += w->m;
  }
  return got;
}

/* The index of the j-th posted step of `kind` with `peer` on rank r; -1. */
static int nth(const struct rank *r, int kind, int peer, int j)
{
  for (int i = 0; i < r->posted; i++)
    if (r->steps[i].kind == kind && r->steps[i].peer == peer && j-- == 0)
      return i;
  return -1;
}

/* Every posted send from a to b met by b's posted receive of the same order: the bytes
 * move. 1 when something moved. */
static int match(struct world *w, int a, int b, char *scratch)
{
  int moved = 0;
  for (;; moved = 1) {
    int j = w->matched[a * w->n + b];
    int si = nth(&w->r[a], GC_NBC_SEND, b, j), ri = nth(&w->r[b], GC_NBC_RECV, a, j);
    if (si < 0 || ri < 0)
      return moved;
    size_t len = read_piece(w, &w->r[a], &w->r[a].pieces[si], scratch);
    const struct gc_alltoall_lg_nb_piece *in = &w->r[b].pieces[ri];
    ck_assert_int_eq(in->gather_count, 0);
    ck_assert_uint_eq(in->bytes, len);
    ck_assert_uint_le(in->at + len, w->r[b].bytes);
    memcpy(w->r[b].buf + in->at, scratch, len);
    w->done[a * w->most + si] = w->done[b * w->most + ri] = 1;
    w->matched[a * w->n + b]++;
  }
}

/* Rank r posts its next round once every posted step completed; 1 when it posted. */
static int post(struct world *w, int i)
{
  struct rank *r = &w->r[i];
  if (r->posted >= r->nsteps)
    return 0;
  for (int k = 0; k < r->posted; k++)
    if (!w->done[i * w->most + k])
      return 0;
  int round = r->steps[r->posted].round;
  while (r->posted < r->nsteps && r->steps[r->posted].round == round)
    r->posted++;
  return 1;
}

static void start(struct world *w, int i)
{
  struct rank *r = &w->r[i];
  for (int k = 0; k < w->n; k++) {
    struct tag t = {i, r->plan.pack[k].index, {0, 0}};
    ck_assert_uint_le(r->plan.pack[k].at + w->m, (size_t)w->n * w->m); /* the area */
    memcpy(r->buf + r->plan.pack[k].at, &t, sizeof t);
  }
  ck_assert_uint_le(r->plan.copy_to + r->plan.copy_len, r->bytes);
  memmove(r->buf + r->plan.copy_to, r->buf + r->plan.copy_from, r->plan.copy_len);
}

static void finish(const struct world *w, int i)
{
  const struct rank *r = &w->r[i];
  char *seen = calloc((size_t)w->n, 1);
  ck_assert_ptr_nonnull(seen);
  for (int k = 0; k < w->n; k++) {
    const struct gc_alltoall_lg_nb_deliver *d = &r->plan.deliver[k];
    struct tag t;
    ck_assert_uint_le(d->at + w->m, r->bytes);
    memcpy(&t, r->buf + d->at, sizeof t);
    ck_assert_msg(t.src == d->src && t.dst == i, "rank %d reads (%d,%d) for the block from %d",
                  i, t.src, t.dst, d->src);
    ck_assert_int_eq(seen[d->src]++, 0);
  }
  free(seen);
}

static void simulate_m(int n, const int *cluster_of, size_t m)
{
  struct world w = {.n = n, .m = m};
  ck_assert_int_eq(gc_layout_build(&w.l, n, cluster_of), 0);
  w.r = calloc((size_t)n, sizeof *w.r);
  ck_assert_ptr_nonnull(w.r);
  for (int i = 0; i < n; i++) {
    struct rank *r = &w.r[i];
    ck_assert_int_eq(gc_alltoall_lg_schedule_build(&r->s, &w.l, i), 0);
    int bound = gc_alltoall_lg_nb_steps_bound(&r->s);
    w.most = bound > w.most ? bound : w.most;
    r->steps = calloc((size_t)bound + 1, sizeof *r->steps);
    r->pieces = calloc((size_t)bound + 1, sizeof *r->pieces);
    r->plan.pack = calloc((size_t)n, sizeof *r->plan.pack);
    r->plan.deliver = calloc((size_t)n, sizeof *r->plan.deliver);
    r->bytes = (size_t)gc_alltoall_lg_nb_blocks(&r->s, n) * m;
    r->buf = calloc(r->bytes, 1);
    ck_assert(r->steps && r->pieces && r->plan.pack && r->plan.deliver && r->buf);
    r->nsteps = gc_alltoall_lg_nb_steps(&r->s, n, m, r->steps, r->pieces, &r->plan);
    ck_assert_int_ge(r->nsteps, 0);
    ck_assert_int_le(r->nsteps, bound);
    for (int k = 0; k < r->nsteps; k++) {
      ck_assert_int_eq(r->steps[k].piece, k);
      ck_assert_int_eq(r->steps[k].lag, 0);
      ck_assert(k == 0 || r->steps[k].round >= r->steps[k - 1].round);
      ck_assert(r->steps[k].peer >= 0 && r->steps[k].peer < n && r->steps[k].peer != i);
    }
    start(&w, i);
  }
  w.matched = calloc((size_t)n * (size_t)n, sizeof *w.matched);
  w.done = calloc((size_t)n * (size_t)(w.most + 1), 1);
  char *scratch = malloc((size_t)n * 3 * m + 1);
  ck_assert(w.matched && w.done && scratch);
  for (int progress = 1; progress;) {
    progress = 0;
    for (int i = 0; i < n; i++)
      progress |= post(&w, i);
    for (int a = 0; a < n; a++)
      for (int b = 0; b < n; b++)
        progress |= a != b && match(&w, a, b, scratch);
  }
  for (int i = 0; i < n; i++) {
    ck_assert_msg(w.r[i].posted == w.r[i].nsteps, "rank %d waits forever", i);
    for (int k = 0; k < w.r[i].nsteps; k++)
      ck_assert_msg(w.done[i * w.most + k], "rank %d: step %d never met its peer", i, k);
    finish(&w, i);
  }
  for (int i = 0; i < n; i++) {
    struct rank *r = &w.r[i];
    free(r->steps), free(r->pieces), free(r->plan.pack), free(r->plan.deliver), free(r->buf);
    gc_alltoall_lg_schedule_free(&r->s);
  }
  free(w.r), free(w.matched), free(w.done), free(scratch);
  gc_layout_free(&w.l);
}

static void simulate(int n, const int *cluster_of)
{
  simulate_m(n, cluster_of, sizeof(struct tag));
  simulate_m(n, cluster_of, 3 * sizeof(struct tag)); /* blocks larger than the tag */
}

START_TEST(two_clusters_every_order)
{
  static const int sizes[][2] = {{1, 1}, {1, 5}, {2, 3}, {3, 2}, {3, 7}, {4, 4}, {5, 13}, {7, 3}, {6, 1}};
  for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
    int a = sizes[c][0], b = sizes[c][1], n = a + b, ids[32];
    for (int r = 0; r < n; r++) /* contiguous, reversed, interleaved */
      ids[r] = r < a ? 10 : 20;
    simulate(n, ids);
    for (int r = 0; r < n; r++)
      ids[r] = r < b ? 20 : 10;
    simulate(n, ids);
    for (int r = 0, na = 0, nb = 0; r < n; r++) {
      int in_a = na < a && (nb >= b || r % 2 == 0);
      ids[r] = in_a ? 10 : 20;
      in_a ? na++ : nb++;
    }
    simulate(n, ids);
  }
}
END_TEST

START_TEST(many_clusters)
{
  for (int k = 3; k <= 7; k++) {
    int ids[64], n = 0;
    for (int c = 0; c < k; c++) /* sizes 1, 2, 3, ... contiguous */
      for (int j = 0; j <= c; j++)
        ids[n++] = c;
    simulate(n, ids);
    for (int r = 0; r < 2 * k + 3; r++) /* round robin */
      ids[r] = r % k;
    simulate(2 * k + 3, ids);
  }
}
END_TEST

START_TEST(random_layouts)
{
  unsigned seed = 2027;
  for (int trial = 0; trial < 120; trial++) {
    int n = 2 + (int)(rand_r(&seed) % 30), k = 2 + (int)(rand_r(&seed) % 6), ids[32];
    for (int r = 0; r < n; r++)
      ids[r] = (int)(rand_r(&seed) % (unsigned)k);
    simulate(n, ids);
  }
}
END_TEST

START_TEST(degenerate_layouts)
{
  int one[5] = {3, 3, 3, 3, 3}, single[4] = {0, 1, 2, 3};
  simulate(5, one);    /* one cluster: the local phase alone */
  simulate(4, single); /* one process per cluster: the wide area alone */
  simulate(1, one);    /* nothing moves: the copy alone */
}
END_TEST

START_TEST(another_communicator_is_refused)
{
  int ids[3] = {0, 1, 1};
  struct gc_layout l;
  struct gc_alltoall_lg_schedule s;
  ck_assert_int_eq(gc_layout_build(&l, 3, ids), 0);
  ck_assert_int_eq(gc_alltoall_lg_schedule_build(&s, &l, 1), 0);
  struct gc_nbc_step steps[8];
  struct gc_alltoall_lg_nb_piece pieces[8];
  struct gc_alltoall_lg_nb_pack pack[4];
  struct gc_alltoall_lg_nb_deliver deliver[4];
  struct gc_alltoall_lg_nb_plan plan = {pack, deliver, 0, 0, 0};
  ck_assert_int_eq(gc_alltoall_lg_nb_steps(&s, 4, 8, steps, pieces, &plan), -1);
  ck_assert_int_eq(gc_alltoall_lg_nb_steps(NULL, 3, 8, steps, pieces, &plan), -1);
  ck_assert_int_ge(gc_alltoall_lg_nb_steps(&s, 3, 8, steps, pieces, &plan), 0);
  gc_alltoall_lg_schedule_free(&s);
  gc_layout_free(&l);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("lg_nb_steps");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, two_clusters_every_order);
  tcase_add_test(tc, many_clusters);
  tcase_add_test(tc, random_layouts);
  tcase_add_test(tc, degenerate_layouts);
  suite_add_tcase(s, tc);
  TCase *limits = tcase_create("limits");
  tcase_add_test(limits, another_communicator_is_refused);
  suite_add_tcase(s, limits);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
