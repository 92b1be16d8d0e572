/* LG-v's nonblocking steps (lgv_nb_steps.h): the verdicts, the areas and the rounds. */
#include <stdint.h>
#include <string.h>

#include "lgv_nb_steps.h"

/* p rounded up to a multiple of 16 bytes: each of the four areas starts aligned (what
 * gc_alltoallv_lg_nb_areas adds for it). */
static char *aligned(char *p)
{
  return p + (-(uintptr_t)p & 15);
}

/* My verdict, the size messages out, and where each wide message lands (a header alone
 * where a block of it is beyond the quota). */
static void sizes_at_post(struct gc_lgv_nb *x)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  struct gc_alltoallv_lg_plan *p = &x->p;
  x->mine = 1;
  for (int r = 0; r < x->n; r++)
    x->mine &= x->send_bytes[r] <= x->quota;
  for (int q = 0, at = 0; q < s->cluster_size; q++) {
    int count;
    const long long *staged = gc_alltoallv_lg_plan_sizes(p, q, 1, &count);
    x->out_at[q] = at;
    x->sizes_out[at] = x->mine;
    if (count > 0)
      memcpy(x->sizes_out + at + 1, staged, sizeof *staged * (size_t)count);
    at += s->local_send[q].count;
  }
  for (int q = 0, at = 0; q < s->cluster_size; q++)
    x->in_at[q] = at, at += s->local_recv[q].count;
  long long at = 0;
  for (int i = 0; i < s->nwide_recv; i++) {
    const struct gc_alltoall_lg_msg *m = &s->wide_recv[i];
    int header_only = 0;
    for (int e = m->first; e < m->first + m->count; e++)
      header_only |= p->bytes[e] > x->quota;
    x->wide_in_at[i] = at;
    at += (long long)sizeof(gc_lgv_nb_header);
    for (int e = m->first; e < m->first + m->count; e++) {
      if (header_only)
        p->bytes[e] = 0; /* never unpacked (everyone's verdict is no); keeps the layout finite */
      at += p->bytes[e];
    }
  }
  x->wide_in_at[s->nwide_recv] = at;
}

int gc_alltoallv_lg_nb_begin(struct gc_lgv_nb *x, const struct gc_alltoall_lg_schedule *s, int n,
                             long long quota, const struct gc_lgv_nb_memory *mem,
                             const long long *send_bytes, const long long *recv_bytes)
{
  if (!x || !s || !mem || !send_bytes || !recv_bytes || quota < 0 ||
      n != s->cluster_size + s->wide_recv_blocks)
    return -1;
  *x = (struct gc_lgv_nb){.s = s, .quota = quota, .n = n, .send_bytes = send_bytes,
                          .recv_bytes = recv_bytes, .sizes_out = mem->sizes,
                          .sizes_in = mem->sizes + n, .out_at = mem->at,
                          .in_at = mem->at + s->cluster_size, .wide_in_at = mem->wide_in_at};
  size_t cap_stage = (size_t)s->stage_blocks * (size_t)quota;
  x->send = aligned(mem->areas);
  x->stage = aligned(x->send + (size_t)n * (size_t)quota);
  x->wide_out = aligned(x->stage + cap_stage);
  x->wide_in = aligned(x->wide_out + cap_stage + sizeof(gc_lgv_nb_header) * (size_t)s->nwide_send);
  if (gc_alltoallv_lg_plan_place(&x->p, s, mem->plan) != 0 ||
      gc_alltoallv_lg_plan_known(&x->p, send_bytes, recv_bytes) != 0)
    return -1;
  sizes_at_post(x);
  return 0;
}

static int add(struct gc_nbc_step *steps, struct gc_lgv_nb_piece *pieces, int k, int round,
               int kind, int peer, struct gc_lgv_nb_piece piece)
{
  steps[k] = (struct gc_nbc_step){round, kind, peer, k, 0};
  pieces[k] = piece;
  return k + 1;
}

int gc_alltoallv_lg_nb_steps(struct gc_lgv_nb *x, struct gc_nbc_step *steps,
                             struct gc_lgv_nb_piece *pieces)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  int c = s->cluster_size, me = s->index, k = 0;
  const struct gc_lgv_nb_piece none = {NULL, 0, GC_LGV_NB_LEFT_OUT, 0};
  x->first[GC_LGV_NB_SIZES] = k;
  for (int q = 0; q < c; q++) {
    if (q == me)
      continue;
    k = add(steps, pieces, k, GC_LGV_NB_SIZES, GC_NBC_RECV, s->local_recv[q].peer,
            (struct gc_lgv_nb_piece){(char *)(x->sizes_in + x->in_at[q]), s->local_recv[q].count,
                                     GC_LGV_NB_VALUES, 0});
    k = add(steps, pieces, k, GC_LGV_NB_SIZES, GC_NBC_SEND, s->local_send[q].peer,
            (struct gc_lgv_nb_piece){(char *)(x->sizes_out + x->out_at[q]), s->local_send[q].count,
                                     GC_LGV_NB_VALUES, 0});
  }
  x->first[GC_LGV_NB_LOCAL] = k;
  for (int q = 0; q < c; q++) {
    if (q == me)
      continue;
    k = add(steps, pieces, k, GC_LGV_NB_LOCAL, GC_NBC_RECV, s->local_recv[q].peer, none);
    k = add(steps, pieces, k, GC_LGV_NB_LOCAL, GC_NBC_SEND, s->local_send[q].peer, none);
  }
  x->first[GC_LGV_NB_WIDE] = k;
  for (int i = 0; i < s->nwide_recv; i++)
    k = add(steps, pieces, k, GC_LGV_NB_WIDE, GC_NBC_RECV, s->wide_recv[i].peer,
            (struct gc_lgv_nb_piece){x->wide_in + x->wide_in_at[i],
                                     x->wide_in_at[i + 1] - x->wide_in_at[i], GC_LGV_NB_BYTES, 0});
  for (int w = 0; w < s->nwide_send; w++)
    k = add(steps, pieces, k, GC_LGV_NB_WIDE, GC_NBC_SEND, s->wide_send[w].peer, none);
  x->first[GC_LGV_NB_DIRECT] = k;
  for (int send = 0; send < 2; send++)
    for (int r = 0; r < x->n; r++)
      k = add(steps, pieces, k, GC_LGV_NB_DIRECT, send ? GC_NBC_SEND : GC_NBC_RECV, r, none);
  x->first[GC_LGV_NB_ROUNDS] = k;
  return k;
}

/* Before round 1: my cluster's verdict from the size messages; where it is yes, the
 * plan laid out and the local messages sized (none where empty); my blocks to pack. */
static int after_sizes(struct gc_lgv_nb *x, struct gc_lgv_nb_piece *pieces)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  struct gc_alltoallv_lg_plan *p = &x->p;
  int c = s->cluster_size, me = s->index;
  x->cluster = x->mine;
  for (int q = 0; q < c; q++)
    if (q != me)
      x->cluster &= x->sizes_in[x->in_at[q]] == 1;
  if (!x->cluster)
    return GC_LGV_NB_READY; /* no local phase: its pieces stay left out */
  for (int q = 0; q < c; q++) {
    int count;
    long long *to = gc_alltoallv_lg_plan_sizes(p, q, 0, &count);
    if (count > 0)
      memcpy(to, x->sizes_in + x->in_at[q] + 1, sizeof *to * (size_t)count);
  }
  /* Every block within the quota: the areas fit what was carved. */
  if (gc_alltoallv_lg_plan_layout(p) != 0 || p->send_area > x->stage - x->send ||
      p->stage_area > x->wide_out - x->stage)
    return -1;
  for (int q = 0, k = x->first[GC_LGV_NB_LOCAL]; q < c; q++) {
    if (q == me)
      continue;
    long long in = p->recv_direct[q] + p->recv_staged[q];
    long long out = p->send_direct[q] + p->send_staged[q];
    if (in > 0)
      pieces[k] = (struct gc_lgv_nb_piece){x->stage + p->offset[s->local_recv[q].first], in,
                                           GC_LGV_NB_BYTES, 0};
    k++;
    if (out > 0)
      pieces[k] = (struct gc_lgv_nb_piece){x->send + p->offset[s->local_send[q].first], out,
                                           GC_LGV_NB_BYTES, 0};
    k++;
  }
  return GC_LGV_NB_PACK;
}

/* Before round 2: where my cluster's verdict is yes, my own local message copied from the
 * send area (packed by now) to the stage; each wide send, that verdict then, where it is
 * yes, its blocks gathered from the stage area. */
static void gather(struct gc_lgv_nb *x, struct gc_lgv_nb_piece *pieces)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  const struct gc_alltoallv_lg_plan *p = &x->p;
  int me = s->index;
  if (x->cluster)
    memcpy(x->stage + p->offset[s->local_recv[me].first],
           x->send + p->offset[s->local_send[me].first],
           (size_t)(p->send_direct[me] + p->send_staged[me]));
  char *at = x->wide_out;
  for (int w = 0; w < s->nwide_send; w++) {
    gc_lgv_nb_header h = x->cluster;
    size_t len = sizeof h;
    memcpy(at, &h, sizeof h);
    for (int t = s->wide_send[w].first, end = t + s->wide_send[w].count; x->cluster && t < end;
         t++)
      if (p->bytes[t] > 0)
        memcpy(at + len, x->stage + p->offset[t], (size_t)p->bytes[t]), len += (size_t)p->bytes[t];
    pieces[x->first[GC_LGV_NB_WIDE] + s->nwide_recv + w] =
        (struct gc_lgv_nb_piece){at, (long long)len, GC_LGV_NB_BYTES, 0};
    at += len;
  }
}

/* Before round 3: everyone's verdict, from my cluster's and every wide message's header;
 * where it is no, the direct exchange's pieces (those of no bytes left out: both ends
 * know it, type signatures match). */
static void after_wide(struct gc_lgv_nb *x, struct gc_lgv_nb_piece *pieces)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  x->all = x->cluster;
  for (int i = 0; i < s->nwide_recv; i++) {
    gc_lgv_nb_header h;
    memcpy(&h, x->wide_in + x->wide_in_at[i], sizeof h);
    x->all &= h == 1;
  }
  if (x->all)
    return;
  int n = x->n, k = x->first[GC_LGV_NB_DIRECT];
  for (int r = 0; r < n; r++) {
    if (x->recv_bytes[r] > 0)
      pieces[k + r] = (struct gc_lgv_nb_piece){NULL, 0, GC_LGV_NB_RECV_BLOCK, r};
    if (x->send_bytes[r] > 0)
      pieces[k + n + r] = (struct gc_lgv_nb_piece){NULL, 0, GC_LGV_NB_SEND_BLOCK, r};
  }
}

int gc_alltoallv_lg_nb_next(struct gc_lgv_nb *x, struct gc_lgv_nb_piece *pieces)
{
  switch (++x->done) {
  case GC_LGV_NB_LOCAL: return after_sizes(x, pieces);
  case GC_LGV_NB_WIDE: gather(x, pieces); return GC_LGV_NB_READY;
  case GC_LGV_NB_DIRECT: after_wide(x, pieces); return GC_LGV_NB_READY;
  default: return GC_LGV_NB_READY;
  }
}

int gc_alltoallv_lg_nb_deliver(const struct gc_lgv_nb *x,
                               int (*unpack)(void *ctx, int e, const char *at), void *ctx)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  const struct gc_alltoallv_lg_plan *p = &x->p;
  int rc = 0;
  if (!x->all)
    return 0; /* the direct round delivered */
  for (int q = 0; rc == 0 && q < s->cluster_size; q++) {
    int e = s->local_recv[q].first;
    if (p->bytes[e] > 0)
      rc = unpack(ctx, e, x->stage + p->offset[e]);
  }
  for (int i = 0; rc == 0 && i < s->nwide_recv; i++) {
    const char *at = x->wide_in + x->wide_in_at[i] + sizeof(gc_lgv_nb_header);
    for (int e = s->wide_recv[i].first, end = e + s->wide_recv[i].count; rc == 0 && e < end; e++)
      if (p->bytes[e] > 0)
        rc = unpack(ctx, e, at), at += p->bytes[e];
  }
  return rc;
}
