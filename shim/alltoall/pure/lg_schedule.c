#include "lg_schedule.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

static int size_of(const struct gc_layout *l, int c) { return l->cluster_size[c]; }
static int min_int(int x, int y) { return x < y ? x : y; }

/* Which cluster of a pair plays A: the one rule the LG models use too (model/grid.c). */
static int plays_a(const struct gc_layout *l, int x, int y)
{
  return gc_model_lg_plays_a(l->cluster_size, x, y);
}

int gc_alltoall_lg_stager(const struct gc_layout *l, int src, int dst)
{
  int x = l->cluster_of[src], y = l->cluster_of[dst];
  if (x == y)
    return l->index_in_cluster[dst];
  if (plays_a(l, x, y)) /* A[k] stages (A[k], B[s*a+i]) on A[i] */
    return l->index_in_cluster[dst] % size_of(l, x);
  int a = size_of(l, y), s = l->index_in_cluster[src] / a; /* the k mod r_s rule */
  int r = min_int(a, size_of(l, x) - s * a);
  return s * a + l->index_in_cluster[dst] % r;
}

long long gc_alltoall_lg_stage_blocks(const struct gc_layout *l, int rank)
{
  int x = l->cluster_of[rank], p = l->index_in_cluster[rank];
  long long total = 0;
  for (int y = 0; y < l->nclusters; y++) {
    if (y == x)
      continue;
    if (plays_a(l, x, y)) {
      int a = size_of(l, x), b = size_of(l, y);
      total += p < b ? (long long)a * ((b - p + a - 1) / a) : 0;
    } else {
      int a = size_of(l, y), s = p / a, i = p % a;
      int r = min_int(a, size_of(l, x) - s * a);
      total += (long long)r * ((a - i + r - 1) / r);
    }
  }
  return total;
}

long long gc_alltoall_lg_wide_messages(const struct gc_layout *l)
{
  long long total = 0;
  for (int x = 0; x < l->nclusters; x++)
    for (int y = x + 1; y < l->nclusters; y++) {
      long long a = min_int(size_of(l, x), size_of(l, y));
      long long b = size_of(l, x) + size_of(l, y) - a;
      total += b + a * ((b + a - 1) / a); /* A -> B: one per B member; B -> A: a per B_s */
    }
  return total;
}

/* Blocks (X[p], d) that X[p] hands to X[q] in the local phase, in message order: the direct
 * block first, then per other cluster (ascending) the destinations by ascending index.
 * Writes them to out when not NULL; returns how many. Inverse of gc_alltoall_lg_stager. */
static int local_blocks(const struct gc_layout *l, int x, int p, int q,
                        struct gc_alltoall_lg_block *out)
{
  int src = gc_layout_member(l, x, p), n = 0;
  if (out)
    out[n] = (struct gc_alltoall_lg_block){src, gc_layout_member(l, x, q), 0, 0};
  n++;
  for (int y = 0; y < l->nclusters; y++) {
    if (y == x)
      continue;
    int first, step, end;
    if (plays_a(l, x, y)) {
      first = q, step = size_of(l, x), end = size_of(l, y);
    } else {
      int a = size_of(l, y), s = p / a, r = min_int(a, size_of(l, x) - s * a);
      if (q < s * a || q >= s * a + r)
        continue;
      first = q - s * a, step = r, end = a;
    }
    for (int j = first; j < end; j += step, n++)
      if (out)
        out[n] = (struct gc_alltoall_lg_block){src, gc_layout_member(l, y, j), 0, 0};
  }
  return n;
}

/* Appends the local messages of one direction: to every X[q] (send) or from every X[q]. */
static void fill_local(struct gc_alltoall_lg_schedule *s, const struct gc_layout *l, int send,
                       struct gc_alltoall_lg_msg *msgs)
{
  int offset = 0;
  for (int q = 0; q < s->cluster_size; q++) {
    struct gc_alltoall_lg_block *b = s->blocks + s->nblocks;
    int n = send ? local_blocks(l, s->cluster, s->index, q, b)
                 : local_blocks(l, s->cluster, q, s->index, b);
    msgs[q] = (struct gc_alltoall_lg_msg){gc_layout_member(l, s->cluster, q), n, s->nblocks,
                                          offset};
    for (int t = 0; t < n; t++) {
      b[t].place = send ? GC_ALLTOALL_LG_SENDBUF : GC_ALLTOALL_LG_STAGE;
      b[t].index = send ? b[t].dst : offset + t;
    }
    s->nblocks += n, offset += n;
  }
}

/* Wide sends: one per destination of the staged blocks, which arrive ordered by source
 * index, so walking the staging area in order yields every message in its agreed order. */
static int fill_wide_send(struct gc_alltoall_lg_schedule *s, int n)
{
  int *msg_of = malloc(sizeof(int) * (size_t)n);
  if (!msg_of)
    return -1;
  for (int r = 0; r < n; r++)
    msg_of[r] = -1;
  int nstaged = s->stage_blocks - s->cluster_size;
  const struct gc_alltoall_lg_block *stage = s->blocks + s->local_recv[0].first;
  for (int pass = 0; pass < 2; pass++) { /* count, then place */
    for (int k = 0; k < s->stage_blocks; k++) {
      int d = stage[k].dst;
      if (d == s->rank)
        continue;
      if (msg_of[d] < 0) {
        msg_of[d] = s->nwide_send++;
        s->wide_send[msg_of[d]] = (struct gc_alltoall_lg_msg){d, 0, 0, -1};
      }
      struct gc_alltoall_lg_msg *m = &s->wide_send[msg_of[d]];
      if (pass == 1)
        s->blocks[m->first + m->count] =
            (struct gc_alltoall_lg_block){stage[k].src, d, GC_ALLTOALL_LG_STAGE, k};
      m->count++;
    }
    for (int i = 0, first = s->nblocks; pass == 0 && i < s->nwide_send; i++) {
      s->wide_send[i].first = first, first += s->wide_send[i].count;
      s->max_wide_send = s->wide_send[i].count > s->max_wide_send ? s->wide_send[i].count
                                                                   : s->max_wide_send;
      s->wide_send[i].count = 0;
    }
  }
  s->nblocks += nstaged;
  free(msg_of);
  return 0;
}

/* Wide receives: as A[p] one message per B_s (from B[s*a + p mod r_s], r_s blocks); as B[p]
 * one message from A[p mod a] (a blocks); blocks by ascending source index. */
static void fill_wide_recv(struct gc_alltoall_lg_schedule *s, const struct gc_layout *l)
{
  int offset = 0, x = s->cluster, p = s->index;
  for (int y = 0; y < l->nclusters; y++) {
    if (y == x)
      continue;
    int a = min_int(size_of(l, x), size_of(l, y)), b = size_of(l, x) + size_of(l, y) - a;
    int as_a = plays_a(l, x, y);
    for (int base = 0; as_a ? base < b : base == 0; base += a) {
      int r = as_a ? min_int(a, b - base) : a;
      int peer = as_a ? gc_layout_member(l, y, base + p % r) : gc_layout_member(l, y, p % a);
      s->wide_recv[s->nwide_recv++] = (struct gc_alltoall_lg_msg){peer, r, s->nblocks, offset};
      for (int t = 0; t < r; t++) {
        int src = gc_layout_member(l, y, as_a ? base + t : t);
        s->blocks[s->nblocks++] =
            (struct gc_alltoall_lg_block){src, s->rank, GC_ALLTOALL_LG_RECVBUF, src};
      }
      offset += r;
    }
  }
}

void gc_alltoall_lg_schedule_free(struct gc_alltoall_lg_schedule *s)
{
  free(s->local_send);
  free(s->local_recv);
  free(s->wide_send);
  free(s->wide_recv);
  free(s->blocks);
  memset(s, 0, sizeof *s);
}

int gc_alltoall_lg_schedule_build(struct gc_alltoall_lg_schedule *s, const struct gc_layout *l,
                                  int rank)
{
  memset(s, 0, sizeof *s);
  if (!l || rank < 0 || rank >= l->size || l->size > INT_MAX / 8)
    return -2;
  int n = l->size;
  s->rank = rank, s->cluster = l->cluster_of[rank], s->index = l->index_in_cluster[rank];
  s->cluster_size = size_of(l, s->cluster);
  long long staged = gc_alltoall_lg_stage_blocks(l, rank); /* < 2n */
  s->stage_blocks = s->cluster_size + (int)staged;
  s->wide_recv_blocks = n - s->cluster_size;
  long long wide_recv_msgs = 0;
  for (int y = 0; y < l->nclusters; y++)
    if (y != s->cluster)
      wide_recv_msgs += plays_a(l, s->cluster, y)
                            ? (size_of(l, y) + s->cluster_size - 1) / s->cluster_size
                            : 1;
  size_t nb = (size_t)n + (size_t)s->stage_blocks + (size_t)staged + (size_t)s->wide_recv_blocks;
  size_t msg = sizeof(struct gc_alltoall_lg_msg);
  s->local_send = malloc(msg * (size_t)s->cluster_size);
  s->local_recv = malloc(msg * (size_t)s->cluster_size);
  s->wide_send = malloc(msg * ((size_t)staged + 1)); /* at most one per staged block */
  s->wide_recv = malloc(msg * ((size_t)wide_recv_msgs + 1));
  s->blocks = malloc(sizeof(struct gc_alltoall_lg_block) * nb);
  if (!s->local_send || !s->local_recv || !s->wide_send || !s->wide_recv || !s->blocks) {
    gc_alltoall_lg_schedule_free(s);
    return -1;
  }
  fill_local(s, l, 1, s->local_send);
  fill_local(s, l, 0, s->local_recv);
  if (fill_wide_send(s, n) != 0) {
    gc_alltoall_lg_schedule_free(s);
    return -1;
  }
  fill_wide_recv(s, l);
  return 0;
}
