/* LG's nonblocking steps (lg_nb_steps.h): the layout of one call's buffer, and the rounds. */
#include "lg_nb_steps.h"

/* Where each of my blocks is packed, in local-send order (the area). */
static void pack_plan(const struct gc_alltoall_lg_schedule *s, size_t m,
                      struct gc_alltoall_lg_nb_pack *pack)
{
  int i = 0;
  for (int q = 0; q < s->cluster_size; q++)
    for (int t = 0; t < s->local_send[q].count; t++, i++) {
      const struct gc_alltoall_lg_msg *msg = &s->local_send[q];
      pack[i].index = s->blocks[msg->first + t].index;
      pack[i].at = (size_t)(msg->offset + t) * m;
    }
}

/* What lands in my receive buffer: the direct block of each local message (its first), every
 * block of every wide message (lg.c: lg_deliver). */
static void deliver_plan(const struct gc_alltoall_lg_schedule *s, size_t m, size_t stage,
                         size_t wide, struct gc_alltoall_lg_nb_deliver *deliver)
{
  int d = 0;
  for (int q = 0; q < s->cluster_size; q++, d++) {
    deliver[d].at = stage + (size_t)s->local_recv[q].offset * m;
    deliver[d].src = s->blocks[s->local_recv[q].first].src;
  }
  for (int i = 0; i < s->nwide_recv; i++)
    for (int t = 0; t < s->wide_recv[i].count; t++, d++) {
      deliver[d].at = wide + (size_t)(s->wide_recv[i].offset + t) * m;
      deliver[d].src = s->blocks[s->wide_recv[i].first + t].src;
    }
}

static int add(struct gc_nbc_step *steps, struct gc_alltoall_lg_nb_piece *pieces, int k, int round,
               int kind, int peer, struct gc_alltoall_lg_nb_piece piece)
{
  steps[k] = (struct gc_nbc_step){round, kind, peer, k, 0};
  pieces[k] = piece;
  return k + 1;
}

int gc_alltoall_lg_nb_steps(const struct gc_alltoall_lg_schedule *s, int n, size_t m,
                            struct gc_nbc_step *steps, struct gc_alltoall_lg_nb_piece *pieces,
                            struct gc_alltoall_lg_nb_plan *plan)
{
  if (!s || !steps || !pieces || !plan || n != s->cluster_size + s->wide_recv_blocks)
    return -1;
  size_t stage = (size_t)n * m, wide = stage + (size_t)s->stage_blocks * m;
  int k = 0, me = s->index;
  pack_plan(s, m, plan->pack);
  deliver_plan(s, m, stage, wide, plan->deliver);
  plan->copy_to = stage + (size_t)s->local_recv[me].offset * m;
  plan->copy_from = (size_t)s->local_send[me].offset * m;
  plan->copy_len = (size_t)s->local_send[me].count * m;
  for (int q = 0; q < s->cluster_size; q++) {
    if (q == me)
      continue;
    const struct gc_alltoall_lg_msg *in = &s->local_recv[q], *out = &s->local_send[q];
    k = add(steps, pieces, k, 0, GC_NBC_RECV, in->peer,
            (struct gc_alltoall_lg_nb_piece){stage + (size_t)in->offset * m, (size_t)in->count * m, 0, 0});
    k = add(steps, pieces, k, 0, GC_NBC_SEND, out->peer,
            (struct gc_alltoall_lg_nb_piece){(size_t)out->offset * m, (size_t)out->count * m, 0, 0});
  }
  for (int i = 0; i < s->nwide_recv; i++) {
    const struct gc_alltoall_lg_msg *in = &s->wide_recv[i];
    k = add(steps, pieces, k, 1, GC_NBC_RECV, in->peer,
            (struct gc_alltoall_lg_nb_piece){wide + (size_t)in->offset * m, (size_t)in->count * m, 0, 0});
  }
  for (int w = 0; w < s->nwide_send; w++) {
    const struct gc_alltoall_lg_msg *out = &s->wide_send[w];
    k = add(steps, pieces, k, 1, GC_NBC_SEND, out->peer,
            (struct gc_alltoall_lg_nb_piece){stage, 0, out->first, out->count});
  }
  return k;
}
