/* MPI_Ialltoallv (and _c) by LG-v: LG-v's plan (lgv_schedule.h) as a nonblocking schedule
 * (nbc.h) on the communicator's nonblocking duplicate, posted at the call and advanced in
 * the application's completion calls.
 *
 * Why it differs from the blocking run (lgv.c) and the persistent one (lgv_persistent.c):
 * a stager learns the sizes of the blocks it carries only from its cluster's size
 * messages, and a nonblocking call may neither wait for them at the post nor agree on
 * memory it only then knows it needs. So every buffer comes from the communicator's
 * reserved slot (nbc_reserve.c), which holds any call whose blocks each fit a quota (half
 * LG's agreed block bound: the staged blocks are held twice, lgv_nb_call.h), and whether
 * every block fits is known at the post only to each block's two ends. That verdict
 * travels with the messages the schedule sends anyway, so no rank decides alone and no
 * round trip is added:
 *   round 0 (sizes): to every other member of my cluster, my verdict (every block I send
 *     within the quota) and the sizes of the blocks I stage on it; after it every member
 *     knows its cluster's verdict and, where it is yes, every local message's size;
 *   round 1 (local): where my cluster's verdict is yes, LG-v's local phase (my blocks
 *     packed just before it); none where it is no;
 *   round 2 (wide): every wide message starts with its cluster's verdict, its blocks
 *     after it where that is yes (gathered from the stage area). Every rank receives a
 *     wide message from every other cluster (LG's placement), so after it all know the
 *     same verdict: everyone's. A wide receive is posted for its blocks only where each
 *     fits the quota; where one does not, its sender is a rank whose verdict was no, so its
 *     cluster sends the header alone;
 *   round 3 (direct): where everyone's verdict is no, every block goes straight from the
 *     send buffer to its place in the receive buffer (the point-to-point exchange
 *     MPI_Alltoallv describes), with the application's own types; else nothing.
 * At the end (the executor's finish), when everyone's verdict was yes, every block
 * addressed to me is unpacked into the receive buffer. The receive buffer is written only
 * by one of the two, and the result is PMPI_Alltoallv's byte for byte either way.
 *
 * Which calls: `lg` forced, or `auto` where the models pick LG-v (alltoallv.c says they
 * keep the library's own), where LG-v serves the layout and the communicator's
 * reservation was made with LG's schedule (GRIDCOLL_NONBLOCKING=grid). In place calls
 * run the MPI library's own (every member alike: MPI_IN_PLACE is given at all of them),
 * since their direct round would read the blocks it overwrites. */
#include <limits.h>
#include <string.h>

#include "alltoall.h"
#include "alltoallv.h"
#include "alltoallv_algorithms.h"
#include "clock.h"
#include "dispatch.h"
#include "gridcoll.h"
#include "lgv_nb_call.h"
#include "select.h"

/* The bytes of `count` elements of `size` bytes; LLONG_MAX beyond what a long long holds. */
static long long bytes_of(MPI_Count count, MPI_Count size)
{
  if (size != 0 && count > LLONG_MAX / size)
    return LLONG_MAX;
  return (long long)(count * size);
}

static void lgv_nb_release(void *data)
{
  struct lgv_nb_call *x = data;
  if (x->own_recvtype)
    PMPI_Type_free(&x->recvtype);
  if (x->own_sendtype)
    PMPI_Type_free(&x->sendtype);
}

/* My blocks packed into the send area in local-send order, my own local message copied
 * to the stage area (lgv_persistent.c's start, on the plan laid out now). */
static int pack(struct lgv_nb_call *x)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  const struct gc_alltoallv_lg_plan *p = &x->p;
  for (int q = 0; q < s->cluster_size; q++)
    for (int e = s->local_send[q].first, end = e + s->local_send[q].count; e < end; e++) {
      if (p->bytes[e] == 0)
        continue;
      int d = s->blocks[e].dst, pos = 0;
      const char *from = (const char *)x->sendbuf +
                         gc_alltoallv_displ(x->sdispls, x->large, d) * x->send_extent;
      int rc = PMPI_Pack(from, (int)gc_alltoallv_count(x->sendcounts, x->large, d), x->sendtype,
                         x->send + p->offset[e], (int)p->bytes[e], &pos, x->pack_comm);
      if (rc == MPI_SUCCESS && pos != p->bytes[e])
        rc = MPI_ERR_TRUNCATE;
      if (rc != MPI_SUCCESS)
        return rc;
    }
  int me = s->index;
  memcpy(x->stage + p->offset[s->local_recv[me].first], x->send + p->offset[s->local_send[me].first],
         (size_t)(p->send_direct[me] + p->send_staged[me]));
  return MPI_SUCCESS;
}

/* Before round 1: my cluster's verdict from the size messages; where it is yes, the
 * plan laid out, my blocks packed and the local messages sized (none where empty). */
static int after_sizes(struct lgv_nb_call *x, struct gc_nbc_piece *pieces)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  struct gc_alltoallv_lg_plan *p = &x->p;
  int c = s->cluster_size, me = s->index;
  x->cluster = x->mine;
  for (int q = 0; q < c; q++)
    if (q != me)
      x->cluster &= x->sizes_in[x->in_at[q]] == 1;
  if (!x->cluster)
    return MPI_SUCCESS; /* no local phase: its pieces stay left out */
  for (int q = 0; q < c; q++) {
    int count;
    long long *to = gc_alltoallv_lg_plan_sizes(p, q, 0, &count);
    if (count > 0)
      memcpy(to, x->sizes_in + x->in_at[q] + 1, sizeof *to * (size_t)count);
  }
  /* Every block within the quota: the areas fit what was carved (lgv_nb_call.h). */
  if (gc_alltoallv_lg_plan_layout(p) != 0 || p->send_area > x->stage - x->send ||
      p->stage_area > x->wide_out - x->stage)
    return MPI_ERR_INTERN;
  for (int q = 0, k = x->first_local; q < c; q++) {
    if (q == me)
      continue;
    long long in = p->recv_direct[q] + p->recv_staged[q];
    long long out = p->send_direct[q] + p->send_staged[q];
    struct gc_nbc_piece *r = &pieces[k++], *w = &pieces[k++];
    if (in > 0)
      r->buf = x->stage + p->offset[s->local_recv[q].first], r->count = in;
    if (out > 0)
      w->buf = x->send + p->offset[s->local_send[q].first], w->count = out;
  }
  return pack(x);
}

/* Before round 2: each wide send, its cluster's verdict then, where it is yes, its
 * blocks gathered from the stage area. */
static void gather(struct lgv_nb_call *x, struct gc_nbc_piece *pieces)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  const struct gc_alltoallv_lg_plan *p = &x->p;
  char *at = x->wide_out;
  for (int w = 0; w < s->nwide_send; w++) {
    lgv_nb_header h = x->cluster;
    size_t len = sizeof h;
    memcpy(at, &h, sizeof h);
    for (int t = s->wide_send[w].first, end = t + s->wide_send[w].count; x->cluster && t < end;
         t++)
      if (p->bytes[t] > 0)
        memcpy(at + len, x->stage + p->offset[t], (size_t)p->bytes[t]), len += (size_t)p->bytes[t];
    pieces[x->first_wide_send + w].buf = at;
    pieces[x->first_wide_send + w].count = (MPI_Count)len;
    at += len;
  }
}

/* Before round 3: everyone's verdict, from my cluster's and every wide message's header;
 * where it is no, the direct exchange's pieces (those of no bytes left out: both ends
 * know it, type signatures match). */
static void after_wide(struct lgv_nb_call *x, struct gc_nbc_piece *pieces)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  x->all = x->cluster;
  for (int i = 0; i < s->nwide_recv; i++) {
    lgv_nb_header h;
    memcpy(&h, x->wide_in + x->wide_in_at[i], sizeof h);
    x->all &= h == 1;
  }
  if (x->all)
    return;
  int n = x->n;
  for (int r = 0; r < n; r++) {
    if (x->recv_bytes[r] > 0)
      pieces[x->first_direct + r] = (struct gc_nbc_piece){
          (char *)x->recvbuf + gc_alltoallv_displ(x->rdispls, x->large, r) * x->recv_extent,
          gc_alltoallv_count(x->recvcounts, x->large, r), x->recvtype, 0};
    if (x->send_bytes[r] > 0)
      pieces[x->first_direct + n + r] = (struct gc_nbc_piece){
          (char *)x->sendbuf + gc_alltoallv_displ(x->sdispls, x->large, r) * x->send_extent,
          gc_alltoallv_count(x->sendcounts, x->large, r), x->sendtype, 0};
  }
}

/* The executor asks before each round: the rounds up to it prepared, in order (a round
 * with no steps is never asked for). */
static int lgv_nb_round(void *data, int round, struct gc_nbc_piece *pieces)
{
  struct lgv_nb_call *x = data;
  int rc = MPI_SUCCESS;
  while (rc == MPI_SUCCESS && x->done < round) {
    switch (++x->done) {
    case LGV_NB_LOCAL: rc = after_sizes(x, pieces); break;
    case LGV_NB_WIDE: gather(x, pieces); break;
    case LGV_NB_DIRECT: after_wide(x, pieces); break;
    default: break;
    }
  }
  return rc;
}

/* Block e of the plan, from `at`, into its place in the receive buffer. */
static int unpack(const struct lgv_nb_call *x, int e, const char *at)
{
  int src = x->s->blocks[e].src, pos = 0;
  return PMPI_Unpack(at, (int)x->p.bytes[e], &pos,
                     (char *)x->recvbuf +
                         gc_alltoallv_displ(x->rdispls, x->large, src) * x->recv_extent,
                     (int)gc_alltoallv_count(x->recvcounts, x->large, src), x->recvtype,
                     x->pack_comm);
}

/* At the end: where everyone's verdict was yes, every block addressed to me unpacked
 * (the direct block of each local message, every block of every wide message). */
static int lgv_nb_finish(void *data)
{
  struct lgv_nb_call *x = data;
  const struct gc_alltoall_lg_schedule *s = x->s;
  const struct gc_alltoallv_lg_plan *p = &x->p;
  int rc = MPI_SUCCESS;
  if (!x->all)
    return MPI_SUCCESS; /* the direct round delivered */
  for (int q = 0; rc == MPI_SUCCESS && q < s->cluster_size; q++) {
    int e = s->local_recv[q].first;
    if (p->bytes[e] > 0)
      rc = unpack(x, e, x->stage + p->offset[e]);
  }
  for (int i = 0; rc == MPI_SUCCESS && i < s->nwide_recv; i++) {
    const char *at = x->wide_in + x->wide_in_at[i] + sizeof(lgv_nb_header);
    for (int e = s->wide_recv[i].first, end = e + s->wide_recv[i].count;
         rc == MPI_SUCCESS && e < end; e++)
      if (p->bytes[e] > 0)
        rc = unpack(x, e, at), at += p->bytes[e];
  }
  return rc;
}

/* The log names the direct exchange where it delivered (doc/log.md). */
static const char *lgv_nb_ran(void *data)
{
  return ((struct lgv_nb_call *)data)->all ? NULL : "direct-nb";
}

static const struct gc_nbc_ops lgv_nb_ops = {.round = lgv_nb_round,
                                             .finish = lgv_nb_finish,
                                             .ran = lgv_nb_ran,
                                             .release = lgv_nb_release};

/* At the post: every block's size as its ends know it, my verdict, the size messages
 * out, and where each wide message lands (a header alone where a block of it is beyond
 * the quota). */
static void sizes_at_post(struct lgv_nb_call *x, long long *send_bytes, long long *recv_bytes)
{
  x->send_bytes = send_bytes, x->recv_bytes = recv_bytes;
  const struct gc_alltoall_lg_schedule *s = x->s;
  struct gc_alltoallv_lg_plan *p = &x->p;
  x->mine = 1;
  for (int r = 0; r < x->n; r++) {
    send_bytes[r] = bytes_of(gc_alltoallv_count(x->sendcounts, x->large, r), x->send_size);
    recv_bytes[r] = bytes_of(gc_alltoallv_count(x->recvcounts, x->large, r), x->recv_size);
    x->mine &= send_bytes[r] <= x->quota;
  }
  gc_alltoallv_lg_plan_known(p, send_bytes, recv_bytes); /* every size >= 0 */
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
    at += (long long)sizeof(lgv_nb_header);
    for (int e = m->first; e < m->first + m->count; e++) {
      if (header_only)
        p->bytes[e] = 0; /* never unpacked (everyone's verdict is no); keeps the layout finite */
      at += p->bytes[e];
    }
  }
  x->wide_in_at[s->nwide_recv] = at;
}

/* The steps and pieces, round by round (the top); the pieces of rounds 1 to 3 are
 * decided before each (lgv_nb_round), left out (count -1) until then. */
static int build(struct lgv_nb_call *x, struct gc_nbc_step *steps, struct gc_nbc_piece *pieces)
{
  const struct gc_alltoall_lg_schedule *s = x->s;
  int c = s->cluster_size, me = s->index, k = 0;
  const struct gc_nbc_piece none = {NULL, -1, MPI_BYTE, 0};
  for (int q = 0; q < c; q++) {
    if (q == me)
      continue;
    pieces[k] = (struct gc_nbc_piece){x->sizes_in + x->in_at[q], s->local_recv[q].count,
                                      MPI_LONG_LONG, 0};
    steps[k] = (struct gc_nbc_step){LGV_NB_SIZES, GC_NBC_RECV, s->local_recv[q].peer, k, 0};
    k++;
    pieces[k] = (struct gc_nbc_piece){x->sizes_out + x->out_at[q], s->local_send[q].count,
                                      MPI_LONG_LONG, 0};
    steps[k] = (struct gc_nbc_step){LGV_NB_SIZES, GC_NBC_SEND, s->local_send[q].peer, k, 0};
    k++;
  }
  x->first_local = k;
  for (int q = 0; q < c; q++) {
    if (q == me)
      continue;
    pieces[k] = none;
    steps[k] = (struct gc_nbc_step){LGV_NB_LOCAL, GC_NBC_RECV, s->local_recv[q].peer, k, 0};
    k++;
    pieces[k] = none;
    steps[k] = (struct gc_nbc_step){LGV_NB_LOCAL, GC_NBC_SEND, s->local_send[q].peer, k, 0};
    k++;
  }
  for (int i = 0; i < s->nwide_recv; i++) {
    pieces[k] = (struct gc_nbc_piece){x->wide_in + x->wide_in_at[i],
                                      x->wide_in_at[i + 1] - x->wide_in_at[i], MPI_BYTE, 0};
    steps[k] = (struct gc_nbc_step){LGV_NB_WIDE, GC_NBC_RECV, s->wide_recv[i].peer, k, 0};
    k++;
  }
  x->first_wide_send = k;
  for (int w = 0; w < s->nwide_send; w++) {
    pieces[k] = none;
    steps[k] = (struct gc_nbc_step){LGV_NB_WIDE, GC_NBC_SEND, s->wide_send[w].peer, k, 0};
    k++;
  }
  x->first_direct = k;
  for (int send = 0; send < 2; send++)
    for (int r = 0; r < x->n; r++) {
      pieces[k] = none;
      steps[k] = (struct gc_nbc_step){LGV_NB_DIRECT, send ? GC_NBC_SEND : GC_NBC_RECV, r, k, 0};
      k++;
    }
  return k;
}

/* One call, from its slot: nothing here allocates but the types' duplicates, whose
 * failure is the call's error (as any nonblocking schedule's). 1, *rc the result. */
static int issue(struct gc_alltoallv_call *call, struct gc_comm_state *st, MPI_Comm nbc,
                 const struct gc_call_pending *log, MPI_Request *request, int *rc)
{
  const struct gc_alltoall_lg_schedule *s = st->nbc_lg;
  int n = st->size, c = s->cluster_size, tag = gc_nbc_tag(st->nbc_issued);
  size_t quota = st->nbc_lg_max_m / 2;
  struct gc_nbc_arena ar;
  if (gc_nbc_pool_take(st->nbc_pool, st->nbc_issued++, &ar) != 0) {
    *rc = MPI_ERR_NO_MEM; /* more schedules in flight than slots (nbc.h) */
    return 1;
  }
  size_t ns = gc_alltoallv_lg_nb_steps(s, n) + 1, nc = (size_t)c, nn = (size_t)n;
  size_t nstage = (size_t)s->stage_blocks, nsizes = 3 * nn + nstage; /* lgv_nb_call.h */
  struct gc_nbc_step *steps = gc_nbc_carve(&ar, sizeof *steps * ns);
  struct gc_nbc_piece *pieces = gc_nbc_carve(&ar, sizeof *pieces * ns);
  struct lgv_nb_call *x = gc_nbc_carve(&ar, sizeof *x);
  void *plan = gc_nbc_carve(&ar, gc_alltoallv_lg_plan_bytes(s));
  long long *values = gc_nbc_carve(&ar, sizeof(long long) * nsizes);
  int *at = gc_nbc_carve(&ar, sizeof(int) * 2 * nc);
  long long *wide_in_at = gc_nbc_carve(&ar, sizeof(long long) * (size_t)(s->nwide_recv + 1));
  char *areas = gc_nbc_carve(&ar, gc_alltoallv_lg_nb_areas(s, n, quota));
  *rc = MPI_ERR_INTERN; /* a bound of the reservation was wrong: never */
  if (!steps || !pieces || !x || !plan || !values || !at || !wide_in_at || !areas) {
    gc_nbc_arena_give(&ar);
    return 1;
  }
  *x = (struct lgv_nb_call){.s = s, .quota = (long long)quota, .sendbuf = call->sendbuf,
                            .recvbuf = call->recvbuf, .sendcounts = call->sendcounts,
                            .sdispls = call->sdispls, .recvcounts = call->recvcounts,
                            .rdispls = call->rdispls, .n = n, .large = call->large,
                            .send_size = call->send_size, .recv_size = call->recv_size,
                            .pack_comm = nbc, .sizes_out = values, .sizes_in = values + nn,
                            .out_at = at, .in_at = at + c, .wide_in_at = wide_in_at};
  size_t cap_stage = nstage * quota;
  x->send = areas, x->stage = areas + nn * quota, x->wide_out = x->stage + cap_stage;
  x->wide_in = x->wide_out + cap_stage + sizeof(lgv_nb_header) * (size_t)s->nwide_send;
  gc_alltoallv_lg_plan_place(&x->p, s, plan);
  sizes_at_post(x, values + nn + nstage, values + 2 * nn + nstage);
  MPI_Aint lb;
  *rc = PMPI_Type_get_extent(call->recvtype, &lb, &x->recv_extent);
  if (*rc == MPI_SUCCESS)
    *rc = PMPI_Type_get_extent(call->sendtype, &lb, &x->send_extent);
  if (*rc == MPI_SUCCESS)
    *rc = gc_nbc_type_own(call->recvtype, &x->recvtype, &x->own_recvtype);
  if (*rc == MPI_SUCCESS)
    *rc = gc_nbc_type_own(call->sendtype, &x->sendtype, &x->own_sendtype);
  if (*rc != MPI_SUCCESS) {
    lgv_nb_release(x);
    gc_nbc_arena_give(&ar);
    return 1;
  }
  int nsteps = build(x, steps, pieces);
  /* x's types and the arena go with the start, which frees them either way. */
  *rc = gc_nbc_start(nbc, tag, steps, nsteps, pieces, nsteps, &lgv_nb_ops, x, &ar, log, request);
  return 1;
}

int gc_alltoallv_lg_nb_issue(struct gc_alltoallv_call *call, MPI_Request *request, int *rc)
{
  if (!gc_g.cfg.nonblocking_grid || !gc_nbc_available() || gc_dispatch_bypass(GC_OP_ALLTOALLV) ||
      !gc_alltoallv_lg_nb_wanted() || call->sendbuf == MPI_IN_PLACE || !gc_guard_enter())
    return 0;
  int took = 0, lg_only[GC_MAX_ALGORITHMS] = {[GC_ALLTOALLV_LG] = 1};
  struct gc_call_pending log = {.posted = gc_clock_now()}; /* the post, for the log */
  struct gc_comm_state *st;
  struct gc_call c;
  MPI_Comm nbc = MPI_COMM_NULL;
  /* A nonblocking call reads the state and the reservation (comm_state.h: gc_comm_nbc):
   * it may not wait for the other members to make them. */
  if ((st = gc_comm_state_find(call->comm)) && gc_alltoallv_op.prepare(call, st, &c) &&
      gc_dispatch_scheduled(&gc_alltoallv_op, call, st, lg_only) == GC_ALLTOALLV_LG) {
    if ((*rc = gc_comm_nbc(st, 0, &nbc)) != MPI_SUCCESS) {
      took = 1;
      PMPI_Comm_call_errhandler(call->comm, *rc);
    } else if (nbc != MPI_COMM_NULL && st->nbc_lg && st->nbc_lg_max_m / 2 > 0) {
      /* The line the executor logs when the application sees the call complete: made on
       * every member alike (call.c: gc_call_issued). */
      gc_dispatch_issued(&gc_alltoallv_op, call, call->comm, GC_ENTRY_NONBLOCKING,
                         GC_ALLTOALLV_LG, &log);
      took = issue(call, st, nbc, &log, request, rc);
      if (*rc != MPI_SUCCESS)
        PMPI_Comm_call_errhandler(call->comm, *rc);
    }
  }
  gc_guard_leave();
  return took;
}
