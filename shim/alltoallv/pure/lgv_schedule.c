#include "lgv_schedule.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void gc_alltoallv_lg_plan_free(struct gc_alltoallv_lg_plan *p)
{
  free(p->bytes); /* the one block (gc_alltoallv_lg_plan_place: bytes first) */
  memset(p, 0, sizeof *p);
}

/* The arrays of the plan, in this order, in one block: their lengths in long longs. */
static void plan_lengths(const struct gc_alltoall_lg_schedule *s, size_t len[8])
{
  size_t c = (size_t)s->cluster_size;
  len[0] = len[1] = (size_t)s->nblocks;                /* bytes, offset */
  len[2] = len[3] = len[4] = len[5] = c;               /* send/recv direct/staged */
  len[6] = (size_t)s->nwide_send + 1, len[7] = (size_t)s->nwide_recv + 1;
}

size_t gc_alltoallv_lg_plan_bytes(const struct gc_alltoall_lg_schedule *s)
{
  size_t len[8], total = 0;
  plan_lengths(s, len);
  for (int i = 0; i < 8; i++)
    total += len[i];
  return total * sizeof(long long);
}

int gc_alltoallv_lg_plan_place(struct gc_alltoallv_lg_plan *p,
                               const struct gc_alltoall_lg_schedule *s, void *mem)
{
  memset(p, 0, sizeof *p);
  if (!s || !s->blocks || s->cluster_size < 1 || !mem)
    return -2;
  size_t len[8];
  long long *at = mem, **arrays[8] = {&p->bytes,       &p->offset,      &p->send_direct,
                                      &p->send_staged, &p->recv_direct, &p->recv_staged,
                                      &p->wide_send_bytes, &p->wide_recv_bytes};
  plan_lengths(s, len);
  for (int i = 0; i < 8; i++)
    *arrays[i] = at, at += len[i];
  p->s = s;
  return 0;
}

int gc_alltoallv_lg_plan_init(struct gc_alltoallv_lg_plan *p,
                              const struct gc_alltoall_lg_schedule *s)
{
  memset(p, 0, sizeof *p);
  if (!s || !s->blocks || s->cluster_size < 1)
    return -2;
  void *mem = malloc(gc_alltoallv_lg_plan_bytes(s));
  if (!mem)
    return -1;
  return gc_alltoallv_lg_plan_place(p, s, mem);
}

int gc_alltoallv_lg_plan_known(struct gc_alltoallv_lg_plan *p, const long long *send_bytes,
                               const long long *recv_bytes)
{
  const struct gc_alltoall_lg_schedule *s = p->s;
  for (int r = 0; r < s->nblocks; r++)
    p->bytes[r] = -1;
  for (int q = 0; q < s->cluster_size; q++) {
    const struct gc_alltoall_lg_msg *out = &s->local_send[q], *in = &s->local_recv[q];
    for (int t = 0; t < out->count; t++)
      if ((p->bytes[out->first + t] = send_bytes[s->blocks[out->first + t].dst]) < 0)
        return -2;
    if ((p->bytes[in->first] = recv_bytes[s->blocks[in->first].src]) < 0)
      return -2;
  }
  /* The message to myself: the same block list both ways, sizes from my own counts. */
  const struct gc_alltoall_lg_msg *self = &s->local_recv[s->index];
  memcpy(p->bytes + self->first + 1, p->bytes + s->local_send[s->index].first + 1,
         sizeof(long long) * (size_t)(self->count - 1));
  for (int i = 0; i < s->nwide_recv; i++)
    for (int t = 0; t < s->wide_recv[i].count; t++) {
      int k = s->wide_recv[i].first + t;
      if ((p->bytes[k] = recv_bytes[s->blocks[k].src]) < 0)
        return -2;
    }
  return 0;
}

long long *gc_alltoallv_lg_plan_sizes(struct gc_alltoallv_lg_plan *p, int q, int send,
                                      int *count)
{
  const struct gc_alltoall_lg_schedule *s = p->s;
  const struct gc_alltoall_lg_msg *m = send ? &s->local_send[q] : &s->local_recv[q];
  *count = q == s->index ? 0 : m->count - 1; /* to myself: known already */
  return p->bytes + m->first + 1;
}

/* Lays out `count` entries from `first` contiguously from *at; their total in *sum.
 * -2 when a size is unknown or the area overflows. */
static int lay(struct gc_alltoallv_lg_plan *p, int first, int count, long long *at,
               long long *sum)
{
  *sum = 0;
  for (int t = first; t < first + count; t++) {
    long long b = p->bytes[t];
    if (b < 0 || b > LLONG_MAX - *at)
      return -2;
    p->offset[t] = *at;
    *at += b, *sum += b;
  }
  return 0;
}

static long long max_ll(long long x, long long y) { return x > y ? x : y; }

/* One direction of the local phase: direct block then staged part, per peer. */
static int lay_local(struct gc_alltoallv_lg_plan *p, const struct gc_alltoall_lg_msg *msgs,
                     long long *direct, long long *staged, long long *area)
{
  *area = 0;
  for (int q = 0; q < p->s->cluster_size; q++) {
    if (lay(p, msgs[q].first, 1, area, &direct[q]) != 0 ||
        lay(p, msgs[q].first + 1, msgs[q].count - 1, area, &staged[q]) != 0)
      return -2;
    p->max_msg = max_ll(p->max_msg, max_ll(direct[q], staged[q]));
  }
  return 0;
}

int gc_alltoallv_lg_plan_layout(struct gc_alltoallv_lg_plan *p)
{
  const struct gc_alltoall_lg_schedule *s = p->s;
  p->max_msg = 0;
  if (lay_local(p, s->local_send, p->send_direct, p->send_staged, &p->send_area) != 0 ||
      lay_local(p, s->local_recv, p->recv_direct, p->recv_staged, &p->stage_area) != 0)
    return -2;
  /* Stage slot k is local-receive entry local_recv[0].first + k (lg_schedule.c). */
  const int slot0 = s->local_recv[0].first;
  for (int w = 0; w < s->nwide_send; w++) {
    long long sum = 0;
    for (int t = s->wide_send[w].first; t < s->wide_send[w].first + s->wide_send[w].count; t++) {
      int k = slot0 + s->blocks[t].index;
      p->bytes[t] = p->bytes[k], p->offset[t] = p->offset[k];
      sum += p->bytes[t]; /* <= stage_area: no overflow */
    }
    p->wide_send_bytes[w] = sum;
    p->max_msg = max_ll(p->max_msg, sum);
  }
  p->wide_area = 0;
  for (int i = 0; i < s->nwide_recv; i++) {
    if (lay(p, s->wide_recv[i].first, s->wide_recv[i].count, &p->wide_area,
            &p->wide_recv_bytes[i]) != 0)
      return -2;
    p->max_msg = max_ll(p->max_msg, p->wide_recv_bytes[i]);
  }
  return 0;
}
