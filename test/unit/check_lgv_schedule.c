/* LG-v plan: build every rank's LG schedule and plan for a world of per-pair byte counts,
 * run the size messages and both phases with memcpy, and check that every byte of block
 * (s,d) lands at d's receive displacement for s, nothing else is written, every message
 * has its receive with the same size, and every remote block crosses the wide area once. */
#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lgv_schedule.h"
#include "layout.h"

#define GAP 0xee /* bytes of a receive buffer no block may touch */

struct world {
  int n;
  struct gc_layout l;
  const long long *cnt; /* [n*n] bytes of block (s,d) */
  long long **rdispl;   /* per rank [n]: byte displacement of the block from each source */
  struct gc_alltoall_lg_schedule *s;
  struct gc_alltoallv_lg_plan *p;
  unsigned char **send, **stage, **wide, **recv; /* areas and receive buffers */
  long long *recv_size;
  int *delivered, *crossed; /* [n*n] */
  long long wide_msgs;
};

static unsigned char payload(int s, int d, long long i)
{
  return (unsigned char)((unsigned)s * 131u + (unsigned)d * 31u + (unsigned)(i * 7) + 1u);
}

static void *xcalloc(size_t n, size_t size)
{
  void *p = calloc(n ? n : 1, size);
  ck_assert_ptr_nonnull(p);
  return p;
}

/* Receive displacements of rank d: sources in a shuffled order, gaps of 0..3 bytes. */
static long long layout_recv(long long *displ, const long long *cnt, int n, int d,
                             unsigned *seed)
{
  int *order = xcalloc((size_t)n, sizeof(int));
  for (int i = 0; i < n; i++)
    order[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(rand_r(seed) % (unsigned)(i + 1)), t = order[i];
    order[i] = order[j], order[j] = t;
  }
  long long at = 0;
  for (int i = 0; i < n; i++) {
    at += rand_r(seed) % 4;
    displ[order[i]] = at;
    at += cnt[(size_t)order[i] * (size_t)n + (size_t)d];
  }
  free(order);
  return at + 1;
}

static void deliver(struct world *w, int d, int src, long long bytes, const unsigned char *from)
{
  ck_assert_int_eq(bytes, w->cnt[(size_t)src * (size_t)w->n + (size_t)d]);
  for (long long i = 0; i < bytes; i++)
    ck_assert_int_eq(from[i], payload(src, d, i));
  memcpy(w->recv[d] + w->rdispl[d][src], from, (size_t)bytes);
  w->delivered[src * w->n + d]++;
}

static void same_blocks(const struct world *w, int sr, int sfirst, int rr, int rfirst, int count)
{
  for (int t = 0; t < count; t++) {
    const struct gc_alltoall_lg_block *a = &w->s[sr].blocks[sfirst + t];
    const struct gc_alltoall_lg_block *b = &w->s[rr].blocks[rfirst + t];
    ck_assert_int_eq(a->src, b->src);
    ck_assert_int_eq(a->dst, b->dst);
    ck_assert_int_eq(w->p[sr].bytes[sfirst + t], w->p[rr].bytes[rfirst + t]);
  }
}

/* The size messages: every send meets the receive of the same length. */
static void run_sizes(struct world *w)
{
  for (int r = 0; r < w->n; r++)
    for (int q = 0; q < w->s[r].cluster_size; q++) {
      int peer = w->s[r].local_send[q].peer, scount, rcount;
      long long *out = gc_alltoallv_lg_plan_sizes(&w->p[r], q, 1, &scount);
      long long *in = gc_alltoallv_lg_plan_sizes(&w->p[peer], w->s[r].index, 0, &rcount);
      ck_assert_int_eq(scount, rcount);
      ck_assert_int_eq(scount, peer == r ? 0 : w->s[r].local_send[q].count - 1);
      memcpy(in, out, sizeof(long long) * (size_t)scount);
    }
}

static void run_local(struct world *w)
{
  for (int r = 0; r < w->n; r++) { /* pack */
    const struct gc_alltoall_lg_schedule *s = &w->s[r];
    for (int q = 0; q < s->cluster_size; q++)
      for (int t = 0; t < s->local_send[q].count; t++) {
        int e = s->local_send[q].first + t, d = s->blocks[e].dst;
        ck_assert_int_eq(w->p[r].bytes[e], w->cnt[(size_t)r * (size_t)w->n + (size_t)d]);
        ck_assert_int_le(w->p[r].offset[e] + w->p[r].bytes[e], w->p[r].send_area);
        for (long long i = 0; i < w->p[r].bytes[e]; i++)
          w->send[r][w->p[r].offset[e] + i] = payload(r, d, i);
      }
  }
  for (int r = 0; r < w->n; r++) {
    const struct gc_alltoall_lg_schedule *s = &w->s[r];
    const struct gc_alltoallv_lg_plan *p = &w->p[r];
    for (int q = 0; q < s->cluster_size; q++) {
      const struct gc_alltoall_lg_msg *rm = &s->local_recv[q];
      int src = rm->peer;
      const struct gc_alltoall_lg_msg *sm = &w->s[src].local_send[s->index];
      const struct gc_alltoallv_lg_plan *sp = &w->p[src];
      ck_assert_int_eq(sm->count, rm->count);
      same_blocks(w, src, sm->first, r, rm->first, rm->count);
      ck_assert_int_eq(sp->send_direct[s->index], p->recv_direct[q]);
      ck_assert_int_eq(sp->send_staged[s->index], p->recv_staged[q]);
      ck_assert_int_le(p->offset[rm->first] + p->recv_direct[q] + p->recv_staged[q],
                       p->stage_area);
      /* Both parts are contiguous at both ends: one message each. */
      memcpy(w->stage[r] + p->offset[rm->first], w->send[src] + sp->offset[sm->first],
             (size_t)(p->recv_direct[q] + p->recv_staged[q]));
      deliver(w, r, src, p->bytes[rm->first], w->stage[r] + p->offset[rm->first]);
    }
  }
}

static void run_wide(struct world *w)
{
  long long recvs = 0;
  for (int r = 0; r < w->n; r++)
    recvs += w->s[r].nwide_recv;
  w->wide_msgs = 0;
  for (int r = 0; r < w->n; r++) {
    const struct gc_alltoall_lg_schedule *s = &w->s[r];
    for (int i = 0; i < s->nwide_send; i++) {
      const struct gc_alltoall_lg_msg *sm = &s->wide_send[i];
      int d = sm->peer, j = 0;
      while (j < w->s[d].nwide_recv && w->s[d].wide_recv[j].peer != r)
        j++;
      ck_assert_int_lt(j, w->s[d].nwide_recv);
      const struct gc_alltoall_lg_msg *rm = &w->s[d].wide_recv[j];
      ck_assert_int_eq(sm->count, rm->count);
      same_blocks(w, r, sm->first, d, rm->first, sm->count);
      /* No header: the message is exactly its blocks' bytes, known at both ends. */
      ck_assert_int_eq(w->p[r].wide_send_bytes[i], w->p[d].wide_recv_bytes[j]);
      unsigned char *msg = xcalloc((size_t)w->p[r].wide_send_bytes[i] + 1, 1);
      long long at = 0;
      for (int t = sm->first; t < sm->first + sm->count; t++) { /* gather from stage */
        ck_assert_int_le(w->p[r].offset[t] + w->p[r].bytes[t], w->p[r].stage_area);
        memcpy(msg + at, w->stage[r] + w->p[r].offset[t], (size_t)w->p[r].bytes[t]);
        at += w->p[r].bytes[t];
      }
      ck_assert_int_eq(at, w->p[r].wide_send_bytes[i]);
      long long base = w->p[d].offset[rm->first];
      ck_assert_int_le(base + at, w->p[d].wide_area);
      memcpy(w->wide[d] + base, msg, (size_t)at);
      free(msg);
      for (int t = 0; t < rm->count; t++) {
        int e = rm->first + t, src = w->s[d].blocks[e].src;
        w->crossed[src * w->n + d]++;
        deliver(w, d, src, w->p[d].bytes[e], w->wide[d] + w->p[d].offset[e]);
      }
      w->wide_msgs++;
    }
  }
  ck_assert_int_eq(w->wide_msgs, recvs);
}

static void world_free(struct world *w)
{
  for (int r = 0; r < w->n; r++) {
    gc_alltoallv_lg_plan_free(&w->p[r]);
    gc_alltoall_lg_schedule_free(&w->s[r]);
    free(w->send[r]), free(w->stage[r]), free(w->wide[r]), free(w->recv[r]), free(w->rdispl[r]);
  }
  free(w->p), free(w->s), free(w->send), free(w->stage), free(w->wide), free(w->recv);
  free(w->rdispl), free(w->recv_size), free(w->delivered), free(w->crossed);
  gc_layout_free(&w->l);
}

static void simulate(int n, const int *cluster_of, const long long *cnt, unsigned seed)
{
  struct world w = {.n = n, .cnt = cnt};
  ck_assert_int_eq(gc_layout_build(&w.l, n, cluster_of), 0);
  w.s = xcalloc((size_t)n, sizeof *w.s);
  w.p = xcalloc((size_t)n, sizeof *w.p);
  w.send = xcalloc((size_t)n, sizeof *w.send);
  w.stage = xcalloc((size_t)n, sizeof *w.stage);
  w.wide = xcalloc((size_t)n, sizeof *w.wide);
  w.recv = xcalloc((size_t)n, sizeof *w.recv);
  w.rdispl = xcalloc((size_t)n, sizeof *w.rdispl);
  w.recv_size = xcalloc((size_t)n, sizeof(long long));
  w.delivered = xcalloc((size_t)n * (size_t)n, sizeof(int));
  w.crossed = xcalloc((size_t)n * (size_t)n, sizeof(int));
  long long *col = xcalloc((size_t)n, sizeof(long long));
  for (int r = 0; r < n; r++) {
    ck_assert_int_eq(gc_alltoall_lg_schedule_build(&w.s[r], &w.l, r), 0);
    ck_assert_int_eq(gc_alltoallv_lg_plan_init(&w.p[r], &w.s[r]), 0);
    for (int src = 0; src < n; src++)
      col[src] = cnt[(size_t)src * (size_t)n + (size_t)r];
    ck_assert_int_eq(gc_alltoallv_lg_plan_known(&w.p[r], cnt + (size_t)r * (size_t)n, col), 0);
    w.rdispl[r] = xcalloc((size_t)n, sizeof(long long));
    w.recv_size[r] = layout_recv(w.rdispl[r], cnt, n, r, &seed);
    w.recv[r] = xcalloc((size_t)w.recv_size[r], 1);
    memset(w.recv[r], GAP, (size_t)w.recv_size[r]);
  }
  free(col);
  run_sizes(&w);
  long long total = 0, remote = 0;
  for (int r = 0; r < n; r++) {
    struct gc_alltoallv_lg_plan *p = &w.p[r];
    ck_assert_int_eq(gc_alltoallv_lg_plan_layout(p), 0);
    long long row = 0, in_remote = 0;
    for (int d = 0; d < n; d++)
      row += cnt[(size_t)r * (size_t)n + (size_t)d];
    for (int src = 0; src < n; src++)
      if (w.l.cluster_of[src] != w.l.cluster_of[r])
        in_remote += cnt[(size_t)src * (size_t)n + (size_t)r];
    ck_assert_int_eq(p->send_area, row); /* every block of mine packed once */
    ck_assert_int_eq(p->wide_area, in_remote);
    ck_assert_int_ge(p->max_msg, 0);
    w.send[r] = xcalloc((size_t)p->send_area, 1);
    w.stage[r] = xcalloc((size_t)p->stage_area, 1);
    w.wide[r] = xcalloc((size_t)p->wide_area, 1);
    total += p->stage_area, remote += p->wide_area;
  }
  run_local(&w);
  run_wide(&w);
  ck_assert_int_eq(w.wide_msgs, gc_alltoall_lg_wide_messages(&w.l)); /* LG's, whatever the counts */
  for (int s = 0; s < n; s++)
    for (int d = 0; d < n; d++) {
      ck_assert_int_eq(w.delivered[s * n + d], 1);
      ck_assert_int_eq(w.crossed[s * n + d], w.l.cluster_of[s] != w.l.cluster_of[d]);
    }
  for (int d = 0; d < n; d++) { /* the reference: block (s,d) at rdispl, gaps untouched */
    unsigned char *ref = xcalloc((size_t)w.recv_size[d], 1);
    memset(ref, GAP, (size_t)w.recv_size[d]);
    for (int s = 0; s < n; s++)
      for (long long i = 0; i < cnt[(size_t)s * (size_t)n + (size_t)d]; i++)
        ref[w.rdispl[d][s] + i] = payload(s, d, i);
    ck_assert_mem_eq(w.recv[d], ref, (size_t)w.recv_size[d]);
    free(ref);
  }
  (void)total, (void)remote;
  world_free(&w);
}

enum pattern { ZEROS, UNIFORM, HEAVY_PEER, RANDOM, FFT, PATTERNS };

/* Block sizes of a world of n ranks. */
static long long *counts(int n, enum pattern pat, unsigned *seed)
{
  long long *cnt = xcalloc((size_t)n * (size_t)n, sizeof(long long));
  int heavy = (int)(rand_r(seed) % (unsigned)n);
  for (int s = 0; s < n; s++)
    for (int d = 0; d < n; d++) {
      long long *c = &cnt[(size_t)s * (size_t)n + (size_t)d];
      switch (pat) {
      case ZEROS: *c = 0; break;
      case UNIFORM: *c = 5; break;
      case HEAVY_PEER: *c = s == heavy || d == heavy ? 700 + s + d : (s + d) % 2; break;
      case RANDOM: *c = rand_r(seed) % 3 == 0 ? 0 : rand_r(seed) % 97; break;
      case FFT: *c = (long long)(1 + s % 3) * (1 + d % 4) * 8; break; /* uneven slabs */
      default: break;
      }
    }
  return cnt;
}

static void all_patterns(int n, const int *ids, unsigned seed)
{
  for (int pat = 0; pat < PATTERNS; pat++) {
    long long *cnt = counts(n, (enum pattern)pat, &seed);
    simulate(n, ids, cnt, seed);
    free(cnt);
  }
}

START_TEST(test_two_clusters)
{
  static const int sizes[][2] = {{1, 1}, {1, 5}, {2, 3}, {3, 2}, {3, 7}, {4, 4}, {5, 13}, {7, 3}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    int a = sizes[i][0], b = sizes[i][1], n = a + b, ids[32];
    for (int r = 0; r < n; r++) /* contiguous, then interleaved while both have members */
      ids[r] = r < a ? 1 : 2;
    all_patterns(n, ids, (unsigned)i);
    for (int r = 0, na = 0; r < n; r++) {
      int in_a = na < a && (r - na >= b || r % 2 == 0);
      ids[r] = in_a ? 1 : 2;
      na += in_a;
    }
    all_patterns(n, ids, (unsigned)i + 100);
  }
}
END_TEST

START_TEST(test_many_clusters)
{
  for (int k = 3; k <= 8; k++) {
    int ids[64], n = 0;
    for (int c = 0; c < k; c++) /* uneven: sizes 1, 2, 3, ... */
      for (int j = 0; j <= c && n < 24; j++)
        ids[n++] = c;
    all_patterns(n, ids, (unsigned)k);
    for (int r = 0; r < 2 * k + 3; r++) /* interleaved round robin */
      ids[r] = (r * 5) % k;
    all_patterns(2 * k + 3, ids, (unsigned)k + 50);
  }
}
END_TEST

START_TEST(test_random_layouts)
{
  unsigned seed = 4242;
  for (int trial = 0; trial < 60; trial++) {
    int n = 2 + (int)(rand_r(&seed) % 23), k = 2 + (int)(rand_r(&seed) % 7), ids[32];
    for (int r = 0; r < n; r++)
      ids[r] = (int)(rand_r(&seed) % (unsigned)k);
    long long *cnt = counts(n, RANDOM, &seed);
    simulate(n, ids, cnt, seed);
    free(cnt);
  }
}
END_TEST

START_TEST(test_degenerate_layouts)
{
  int one[5] = {3, 3, 3, 3, 3}, single[4] = {0, 1, 2, 3};
  all_patterns(5, one, 1);    /* one cluster: local phase only */
  all_patterns(4, single, 2); /* one process per cluster: wide area only */
  all_patterns(1, one, 3);
}
END_TEST

START_TEST(test_bad_arguments)
{
  int ids[5] = {0, 0, 1, 1, 1}; /* rank 1 = A[1] stages (A[0], B[1]) for rank 0 */
  struct gc_layout l;
  struct gc_alltoall_lg_schedule s;
  struct gc_alltoallv_lg_plan p;
  ck_assert_int_eq(gc_alltoallv_lg_plan_init(&p, NULL), -2);
  gc_alltoallv_lg_plan_free(&p); /* safe on a failed init */
  ck_assert_int_eq(gc_layout_build(&l, 5, ids), 0);
  ck_assert_int_eq(gc_alltoall_lg_schedule_build(&s, &l, 1), 0);
  ck_assert_int_eq(gc_alltoallv_lg_plan_init(&p, &s), 0);
  long long good[5] = {1, 2, 3, 4, 5}, neg[5] = {1, -1, 3, 4, 5};
  long long huge[5] = {LLONG_MAX, LLONG_MAX, 1, 1, 1};
  ck_assert_int_eq(gc_alltoallv_lg_plan_known(&p, neg, good), -2);
  ck_assert_int_eq(gc_alltoallv_lg_plan_known(&p, good, neg), -2);
  ck_assert_int_eq(gc_alltoallv_lg_plan_known(&p, good, good), 0);
  ck_assert_int_eq(gc_alltoallv_lg_plan_layout(&p), -2); /* the staged sizes never came */
  int count;
  long long *in = gc_alltoallv_lg_plan_sizes(&p, 0, 0, &count); /* from rank 0 */
  ck_assert_int_ge(count, 1);
  ck_assert_int_eq(count, s.local_recv[0].count - 1);
  gc_alltoallv_lg_plan_sizes(&p, 1, 0, &count); /* to myself: nothing travels */
  ck_assert_int_eq(count, 0);
  in = gc_alltoallv_lg_plan_sizes(&p, 0, 0, &count);
  for (int t = 0; t < count; t++)
    in[t] = 4;
  ck_assert_int_eq(gc_alltoallv_lg_plan_layout(&p), 0);
  ck_assert_int_eq(gc_alltoallv_lg_plan_known(&p, huge, good), 0);
  for (int t = 0; t < count; t++)
    in[t] = 4;
  ck_assert_int_eq(gc_alltoallv_lg_plan_layout(&p), -2); /* the send area overflows */
  gc_alltoallv_lg_plan_free(&p);
  gc_alltoall_lg_schedule_free(&s);
  gc_layout_free(&l);
}
END_TEST

static Suite *lgv_schedule_suite(void)
{
  Suite *s = suite_create("lgv_schedule");
  TCase *core = tcase_create("core");
  tcase_set_timeout(core, 120);
  tcase_add_test(core, test_two_clusters);
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
  SRunner *sr = srunner_create(lgv_schedule_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
