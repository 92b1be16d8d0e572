/* LG-v's nonblocking steps (lgv_nb_steps.h): every rank of simulated worlds run as the
 * executor runs them (shim/nbc.c: a round prepared, then posted, once every step before it
 * completed; a left-out piece not posted; MPI's in-order matching between a pair, a receive
 * as long as its message or longer), on real buffers of blocks of many sizes. Every rank
 * ends with every block where MPI_Alltoallv puts it, whichever way it came; every rank
 * holds the same verdict, no where one block anywhere is beyond the quota, and learns it
 * each of the three ways (its own block, a cluster peer's size message, another cluster's
 * wide header). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "lgv_nb_steps.h"

enum { QUOTA = 24 };

struct rank {
  struct gc_alltoall_lg_schedule s;
  struct gc_lgv_nb x;
  struct gc_lgv_nb_memory mem;
  struct gc_nbc_step *steps;
  struct gc_lgv_nb_piece *pieces, *posted_as, *before; /* as decided; as each step was
                                                          posted; before a round's preparation */
  char *done;
  int nsteps, posted;
  long long *send_bytes, *recv_bytes, *sdispl, *rdispl;
  unsigned char *sendbuf, *recvbuf;
};

struct world {
  int n;
  struct gc_layout l;
  struct rank *r;
  int *matched; /* [n*n] messages from a to b met so far */
};

static unsigned char payload(int src, int dst, long long k)
{
  return (unsigned char)(src * 131 + dst * 17 + k * 7 + 1);
}

/* The bytes a piece of rank i names, and their length. */
static unsigned char *bytes_of(const struct rank *r, const struct gc_lgv_nb_piece *p, long long *len)
{
  switch (p->data) {
  case GC_LGV_NB_BYTES: *len = p->count; return (unsigned char *)p->at;
  case GC_LGV_NB_VALUES: *len = p->count * (long long)sizeof(long long); return (unsigned char *)p->at;
  case GC_LGV_NB_RECV_BLOCK: *len = r->recv_bytes[p->block]; return r->recvbuf + r->rdispl[p->block];
  case GC_LGV_NB_SEND_BLOCK: *len = r->send_bytes[p->block]; return r->sendbuf + r->sdispl[p->block];
  default: ck_abort_msg("a left-out piece was posted"); return NULL;
  }
}

/* The index of the j-th posted (not left out) step of `kind` with `peer` on r; -1. */
static int nth(const struct rank *r, int kind, int peer, int j)
{
  for (int i = 0; i < r->posted; i++)
    if (r->posted_as[i].data != GC_LGV_NB_LEFT_OUT && r->steps[i].kind == kind &&
        r->steps[i].peer == peer && j-- == 0)
      return i;
  return -1;
}

static int match(struct world *w, int a, int b)
{
  int moved = 0;
  for (;; moved = 1) {
    int j = w->matched[a * w->n + b];
    struct rank *ra = &w->r[a], *rb = &w->r[b];
    int si = nth(ra, GC_NBC_SEND, b, j), ri = nth(rb, GC_NBC_RECV, a, j);
    if (si < 0 || ri < 0)
      return moved;
    long long out, in;
    unsigned char *from = bytes_of(ra, &ra->posted_as[si], &out);
    unsigned char *to = bytes_of(rb, &rb->posted_as[ri], &in);
    ck_assert_msg(in >= out, "%d -> %d: a message of %lld bytes into a receive of %lld", a, b,
                  out, in);
    if (out > 0)
      memcpy(to, from, (size_t)out);
    ra->done[si] = rb->done[ri] = 1;
    w->matched[a * w->n + b]++;
  }
}

/* The test's packing where the pure side asks: my blocks into the send area, in
 * local-send order (the blocks of my local messages). */
static void pack(struct rank *r)
{
  const struct gc_alltoall_lg_schedule *s = &r->s;
  const struct gc_alltoallv_lg_plan *p = &r->x.p;
  for (int q = 0; q < s->cluster_size; q++)
    for (int e = s->local_send[q].first; e < s->local_send[q].first + s->local_send[q].count; e++) {
      const struct gc_alltoall_lg_block *b = &s->blocks[e];
      ck_assert_int_eq(b->src, s->rank);
      ck_assert_int_eq(p->bytes[e], r->send_bytes[b->dst]);
      if (p->bytes[e] > 0)
        memcpy(r->x.send + p->offset[e], r->sendbuf + r->sdispl[b->dst], (size_t)p->bytes[e]);
    }
}

/* Rank i posts its next round once every posted step completed: prepared first. */
static int post(struct world *w, int i)
{
  struct rank *r = &w->r[i];
  if (r->posted >= r->nsteps)
    return 0;
  for (int k = 0; k < r->posted; k++)
    if (!r->done[k])
      return 0;
  int round = r->steps[r->posted].round;
  while (r->x.done < round) {
    memcpy(r->before, r->pieces, sizeof *r->pieces * (size_t)r->nsteps);
    int next = gc_alltoallv_lg_nb_next(&r->x, r->pieces), lo, hi;
    ck_assert_int_ge(next, 0);
    if (next == GC_LGV_NB_PACK)
      pack(r);
    /* preparing a round rewrites its own pieces only (lgv_nb.c makes just those) */
    lo = r->x.first[r->x.done], hi = r->x.first[r->x.done + 1];
    ck_assert(memcmp(r->before, r->pieces, sizeof *r->pieces * (size_t)lo) == 0);
    ck_assert(memcmp(r->before + hi, r->pieces + hi, sizeof *r->pieces * (size_t)(r->nsteps - hi)) == 0);
  }
  for (; r->posted < r->nsteps && r->steps[r->posted].round == round; r->posted++) {
    const struct gc_lgv_nb_piece *p = &r->pieces[r->posted];
    /* what MPI is given lies in the call's memory: the areas, the size messages */
    if (p->data == GC_LGV_NB_BYTES)
      ck_assert(p->at >= r->mem.areas && p->count >= 0 &&
                p->at + p->count <= r->mem.areas + gc_alltoallv_lg_nb_areas(&r->s, w->n, QUOTA));
    if (p->data == GC_LGV_NB_VALUES)
      ck_assert((long long *)(void *)p->at >= r->mem.sizes && p->count >= 0 &&
                (long long *)(void *)p->at + p->count <=
                    r->mem.sizes + gc_alltoallv_lg_nb_values(&r->s, w->n));
    r->posted_as[r->posted] = *p;
    r->done[r->posted] = r->pieces[r->posted].data == GC_LGV_NB_LEFT_OUT;
  }
  return 1;
}

static int unpack(void *ctx, int e, const char *at)
{
  struct rank *r = ctx;
  int src = r->s.blocks[e].src;
  ck_assert_int_eq(r->x.p.bytes[e], r->recv_bytes[src]);
  memcpy(r->recvbuf + r->rdispl[src], at, (size_t)r->x.p.bytes[e]);
  return 0;
}

/* A world of n ranks whose block (s,d) holds size(s,d) bytes; returns everyone's verdict
 * after checking every result. */
static int simulate(int n, const int *cluster_of, long long (*size)(int, int, void *), void *arg)
{
  struct world w = {.n = n};
  ck_assert_int_eq(gc_layout_build(&w.l, n, cluster_of), 0);
  w.r = calloc((size_t)n, sizeof *w.r);
  w.matched = calloc((size_t)n * (size_t)n, sizeof *w.matched);
  ck_assert(w.r && w.matched);
  int fits = 1;
  for (int i = 0; i < n; i++) {
    struct rank *r = &w.r[i];
    ck_assert_int_eq(gc_alltoall_lg_schedule_build(&r->s, &w.l, i), 0);
    r->send_bytes = calloc((size_t)n, sizeof(long long));
    r->recv_bytes = calloc((size_t)n, sizeof(long long));
    r->sdispl = calloc((size_t)n + 1, sizeof(long long));
    r->rdispl = calloc((size_t)n + 1, sizeof(long long));
    ck_assert(r->send_bytes && r->recv_bytes && r->sdispl && r->rdispl);
    for (int j = 0; j < n; j++) {
      r->send_bytes[j] = size(i, j, arg), r->recv_bytes[j] = size(j, i, arg);
      r->sdispl[j + 1] = r->sdispl[j] + r->send_bytes[j];
      r->rdispl[j + 1] = r->rdispl[j] + r->recv_bytes[j];
      fits &= r->send_bytes[j] <= QUOTA;
    }
    r->sendbuf = malloc((size_t)r->sdispl[n] + 1), r->recvbuf = malloc((size_t)r->rdispl[n] + 1);
    ck_assert(r->sendbuf && r->recvbuf);
    memset(r->recvbuf, 0xee, (size_t)r->rdispl[n] + 1);
    for (int j = 0; j < n; j++)
      for (long long k = 0; k < r->send_bytes[j]; k++)
        r->sendbuf[r->sdispl[j] + k] = payload(i, j, k);
    size_t bound = gc_alltoallv_lg_nb_steps_bound(&r->s, n);
    r->mem = (struct gc_lgv_nb_memory){
        malloc(gc_alltoallv_lg_plan_bytes(&r->s)),
        calloc(gc_alltoallv_lg_nb_values(&r->s, n), sizeof(long long)),
        calloc(2 * (size_t)r->s.cluster_size, sizeof(int)),
        calloc((size_t)r->s.nwide_recv + 1, sizeof(long long)),
        malloc(gc_alltoallv_lg_nb_areas(&r->s, n, QUOTA))};
    r->steps = calloc(bound + 1, sizeof *r->steps);
    r->pieces = calloc(bound + 1, sizeof *r->pieces);
    r->posted_as = calloc(bound + 1, sizeof *r->posted_as);
    r->before = calloc(bound + 1, sizeof *r->before);
    r->done = calloc(bound + 1, 1);
    ck_assert(r->mem.plan && r->mem.sizes && r->mem.at && r->mem.wide_in_at && r->mem.areas &&
              r->steps && r->pieces && r->posted_as && r->before && r->done);
    ck_assert_int_eq(gc_alltoallv_lg_nb_begin(&r->x, &r->s, n, QUOTA, &r->mem, r->send_bytes,
                                              r->recv_bytes), 0);
    r->nsteps = gc_alltoallv_lg_nb_steps(&r->x, r->steps, r->pieces);
    ck_assert_int_le(r->nsteps, (int)bound);
    for (int k = 0; k < r->nsteps; k++) {
      ck_assert_int_eq(r->steps[k].piece, k);
      ck_assert(k == 0 || r->steps[k].round >= r->steps[k - 1].round);
    }
  }
  for (int progress = 1; progress;) {
    progress = 0;
    for (int i = 0; i < n; i++)
      progress |= post(&w, i);
    for (int a = 0; a < n; a++)
      for (int b = 0; b < n; b++)
        progress |= match(&w, a, b);
  }
  for (int i = 0; i < n; i++) {
    struct rank *r = &w.r[i];
    ck_assert_msg(r->posted == r->nsteps, "rank %d waits forever", i);
    for (int k = 0; k < r->nsteps; k++)
      ck_assert_msg(r->done[k], "rank %d: step %d never met its peer", i, k);
    ck_assert_int_eq(gc_alltoallv_lg_nb_deliver(&r->x, unpack, r), 0);
    for (int j = 0; j < n; j++)
      for (long long k = 0; k < r->recv_bytes[j]; k++)
        ck_assert_msg(r->recvbuf[r->rdispl[j] + k] == payload(j, i, k),
                      "rank %d: byte %lld of the block from %d", i, k, j);
    ck_assert_int_eq(r->recvbuf[r->rdispl[n]], 0xee); /* nothing written past the blocks */
    ck_assert_int_eq(r->x.all, fits); /* the same verdict everywhere: the truth */
    int cluster = 1; /* my cluster's: every member's blocks within the quota */
    for (int q = 0; q < n; q++)
      if (w.l.cluster_of[q] == w.l.cluster_of[i])
        for (int j = 0; j < n; j++)
          cluster &= size(q, j, arg) <= QUOTA;
    ck_assert_int_eq(r->x.cluster, cluster);
  }
  for (int i = 0; i < n; i++) {
    struct rank *r = &w.r[i];
    free(r->send_bytes), free(r->recv_bytes), free(r->sdispl), free(r->rdispl);
    free(r->sendbuf), free(r->recvbuf), free(r->mem.plan), free(r->mem.sizes), free(r->mem.at);
    free(r->mem.wide_in_at), free(r->mem.areas), free(r->steps), free(r->pieces);
    free(r->posted_as), free(r->before), free(r->done);
    gc_alltoall_lg_schedule_free(&r->s);
  }
  free(w.r), free(w.matched);
  gc_layout_free(&w.l);
  return fits;
}

/* Sizes: 0 to QUOTA from a seed, and one block (big_src, big_dst) beyond it where big_src
 * >= 0. */
struct sizes { unsigned seed; int big_src, big_dst; };
static long long some_size(int s, int d, void *arg)
{
  const struct sizes *z = arg;
  if (s == z->big_src && d == z->big_dst)
    return QUOTA * 64 + 1 + (s + d) % 40; /* beyond any slack of the areas */
  unsigned h = z->seed ^ (unsigned)(s * 7919 + d * 104729);
  h = h * 2654435761u;
  return (long long)((h >> 7) % (QUOTA + 1)) * ((h >> 3) % 5 != 0); /* a fifth empty */
}

START_TEST(every_block_within_the_quota)
{
  unsigned seed = 77;
  for (int trial = 0; trial < 80; trial++) {
    int n = 2 + (int)(rand_r(&seed) % 24), k = 2 + (int)(rand_r(&seed) % 5), ids[32];
    for (int r = 0; r < n; r++)
      ids[r] = (int)(rand_r(&seed) % (unsigned)k);
    struct sizes z = {rand_r(&seed), -1, -1};
    ck_assert_int_eq(simulate(n, ids, some_size, &z), 1);
  }
}
END_TEST

/* One block beyond the quota: its sender knows it (its own verdict), its cluster from the
 * size messages, every other cluster from the wide headers; all take the direct round. */
START_TEST(one_block_beyond_the_quota)
{
  unsigned seed = 78;
  for (int trial = 0; trial < 80; trial++) {
    int n = 2 + (int)(rand_r(&seed) % 20), k = 2 + (int)(rand_r(&seed) % 4), ids[32];
    for (int r = 0; r < n; r++)
      ids[r] = (int)(rand_r(&seed) % (unsigned)k);
    struct sizes z = {rand_r(&seed), (int)(rand_r(&seed) % (unsigned)n), 0};
    z.big_dst = (int)(rand_r(&seed) % (unsigned)n);
    ck_assert_int_eq(simulate(n, ids, some_size, &z), 0);
  }
  int two[6] = {0, 1, 0, 1, 0, 1};
  for (int s = 0; s < 6; s++) /* within a cluster, across, to itself */
    for (int d = 0; d < 6; d++) {
      struct sizes z = {5, s, d};
      ck_assert_int_eq(simulate(6, two, some_size, &z), 0);
    }
}
END_TEST

START_TEST(degenerate_layouts)
{
  int one[5] = {3, 3, 3, 3, 3}, single[4] = {0, 1, 2, 3};
  struct sizes fit = {9, -1, -1}, big = {9, 2, 1};
  ck_assert_int_eq(simulate(5, one, some_size, &fit), 1); /* one cluster: no wide area */
  ck_assert_int_eq(simulate(5, one, some_size, &big), 0);
  ck_assert_int_eq(simulate(4, single, some_size, &fit), 1); /* no local phase */
  ck_assert_int_eq(simulate(4, single, some_size, &big), 0);
  ck_assert_int_eq(simulate(1, one, some_size, &fit), 1);
}
END_TEST

START_TEST(another_communicator_is_refused)
{
  int ids[3] = {0, 1, 1};
  struct gc_layout l;
  struct gc_alltoall_lg_schedule s;
  ck_assert_int_eq(gc_layout_build(&l, 3, ids), 0);
  ck_assert_int_eq(gc_alltoall_lg_schedule_build(&s, &l, 1), 0);
  long long sizes[16] = {0}, bytes[4] = {1, 2, 3, 4}, wide[4];
  int at[4];
  _Alignas(16) char plan[4096], areas[4096];
  ck_assert_uint_le(gc_alltoallv_lg_plan_bytes(&s), sizeof plan);
  struct gc_lgv_nb_memory mem = {plan, sizes, at, wide, areas};
  struct gc_lgv_nb x;
  ck_assert_int_eq(gc_alltoallv_lg_nb_begin(&x, &s, 4, QUOTA, &mem, bytes, bytes), -1);
  ck_assert_int_eq(gc_alltoallv_lg_nb_begin(&x, &s, 3, -1, &mem, bytes, bytes), -1);
  ck_assert_int_eq(gc_alltoallv_lg_nb_begin(&x, &s, 3, QUOTA, NULL, bytes, bytes), -1);
  ck_assert_int_eq(gc_alltoallv_lg_nb_begin(&x, &s, 3, QUOTA, &mem, bytes, bytes), 0);
  gc_alltoall_lg_schedule_free(&s);
  gc_layout_free(&l);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("lgv_nb_steps");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, every_block_within_the_quota);
  tcase_add_test(tc, one_block_beyond_the_quota);
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
