/* MPI_Ialltoallv (and _c) by LG-v: LG-v's plan (lgv_schedule.h) as a nonblocking schedule
 * (nbc.h) on the communicator's nonblocking duplicate, posted at the call and advanced in
 * the application's completion calls. Its rounds, verdicts and areas are pure
 * (lgv_nb_steps.h says why it differs from the blocking run, lgv.c, and the persistent
 * one, lgv_persistent.c); here they meet MPI: the sizes of the application's blocks, the
 * packing and unpacking with its types, and the pieces of every round as buffers and types.
 * Every buffer comes from the communicator's reserved slot (nbc_reserve.c), which holds
 * any call whose blocks each fit a quota of half LG's agreed block bound (lgv_nb_steps.h:
 * gc_alltoallv_lg_nb_blocks).
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
#include "lgv_nb_steps.h"
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

/* My blocks packed into the send area in local-send order (lgv_persistent.c's start, on
 * the plan laid out now). */
static int pack(struct lgv_nb_call *x)
{
  const struct gc_alltoall_lg_schedule *s = x->g.s;
  const struct gc_alltoallv_lg_plan *p = &x->g.p;
  for (int q = 0; q < s->cluster_size; q++)
    for (int e = s->local_send[q].first, end = e + s->local_send[q].count; e < end; e++) {
      if (p->bytes[e] == 0)
        continue;
      int d = s->blocks[e].dst, pos = 0;
      const char *from = (const char *)x->sendbuf +
                         gc_alltoallv_displ(x->sdispls, x->large, d) * x->send_extent;
      int rc = PMPI_Pack(from, (int)gc_alltoallv_count(x->sendcounts, x->large, d), x->sendtype,
                         x->g.send + p->offset[e], (int)p->bytes[e], &pos, x->pack_comm);
      if (rc == MPI_SUCCESS && pos != p->bytes[e])
        rc = MPI_ERR_TRUNCATE;
      if (rc != MPI_SUCCESS)
        return rc;
    }
  return MPI_SUCCESS;
}

/* A pure piece as the executor posts it. */
static struct gc_nbc_piece mpi_piece(const struct lgv_nb_call *x, const struct gc_lgv_nb_piece *p)
{
  int r = p->block;
  switch (p->data) {
  case GC_LGV_NB_BYTES: return (struct gc_nbc_piece){p->at, p->count, MPI_BYTE, 0};
  case GC_LGV_NB_VALUES: return (struct gc_nbc_piece){p->at, p->count, MPI_LONG_LONG, 0};
  case GC_LGV_NB_RECV_BLOCK:
    return (struct gc_nbc_piece){
        (char *)x->recvbuf + gc_alltoallv_displ(x->rdispls, x->large, r) * x->recv_extent,
        gc_alltoallv_count(x->recvcounts, x->large, r), x->recvtype, 0};
  case GC_LGV_NB_SEND_BLOCK:
    return (struct gc_nbc_piece){
        (char *)x->sendbuf + gc_alltoallv_displ(x->sdispls, x->large, r) * x->send_extent,
        gc_alltoallv_count(x->sendcounts, x->large, r), x->sendtype, 0};
  default: return (struct gc_nbc_piece){NULL, -1, MPI_BYTE, 0}; /* left out */
  }
}

/* The executor asks before each round: the rounds up to it prepared, in order (a round
 * with no steps is never asked for), my blocks packed when the pure side says, and that
 * round's pieces made (preparing a round rewrites its own pieces only). */
static int lgv_nb_round(void *data, int round, struct gc_nbc_piece *pieces)
{
  struct lgv_nb_call *x = data;
  while (x->g.done < round) {
    int next = gc_alltoallv_lg_nb_next(&x->g, x->pieces), rc;
    if (next < 0)
      return MPI_ERR_INTERN; /* the areas were sized for the quota: never */
    if (next == GC_LGV_NB_PACK && (rc = pack(x)) != MPI_SUCCESS)
      return rc;
  }
  for (int k = x->g.first[round]; k < x->g.first[round + 1]; k++)
    pieces[k] = mpi_piece(x, &x->pieces[k]);
  return MPI_SUCCESS;
}

/* Block e of the plan, from `at`, into its place in the receive buffer. */
static int unpack(void *ctx, int e, const char *at)
{
  const struct lgv_nb_call *x = ctx;
  int src = x->g.s->blocks[e].src, pos = 0;
  return PMPI_Unpack(at, (int)x->g.p.bytes[e], &pos,
                     (char *)x->recvbuf +
                         gc_alltoallv_displ(x->rdispls, x->large, src) * x->recv_extent,
                     (int)gc_alltoallv_count(x->recvcounts, x->large, src), x->recvtype,
                     x->pack_comm);
}

/* At the end: where everyone's verdict was yes, every block addressed to me unpacked. */
static int lgv_nb_finish(void *data)
{
  return gc_alltoallv_lg_nb_deliver(&((struct lgv_nb_call *)data)->g, unpack, data);
}

/* The log names the direct exchange where it delivered (doc/log.md). */
static const char *lgv_nb_ran(void *data)
{
  return ((struct lgv_nb_call *)data)->g.all ? NULL : "direct-nb";
}

static const struct gc_nbc_ops lgv_nb_ops = {.round = lgv_nb_round,
                                             .finish = lgv_nb_finish,
                                             .ran = lgv_nb_ran,
                                             .release = lgv_nb_release};

/* Every block's size as its ends know it, from the counts at the post. */
static void block_bytes(const struct gc_alltoallv_call *call, int n, long long *send_bytes,
                        long long *recv_bytes)
{
  for (int r = 0; r < n; r++) {
    send_bytes[r] = bytes_of(gc_alltoallv_count(call->sendcounts, call->large, r), call->send_size);
    recv_bytes[r] = bytes_of(gc_alltoallv_count(call->recvcounts, call->large, r), call->recv_size);
  }
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
  size_t ns = gc_alltoallv_lg_nb_steps_bound(s, n) + 1, nn = (size_t)n;
  size_t nsizes = gc_alltoallv_lg_nb_values(s, n); /* lgv_nb_call.h */
  struct gc_nbc_step *steps = gc_nbc_carve(&ar, sizeof *steps * ns);
  struct gc_nbc_piece *pieces = gc_nbc_carve(&ar, sizeof *pieces * ns);
  struct gc_lgv_nb_piece *pure = gc_nbc_carve(&ar, sizeof *pure * ns);
  struct lgv_nb_call *x = gc_nbc_carve(&ar, sizeof *x);
  struct gc_lgv_nb_memory mem = {
      .plan = gc_nbc_carve(&ar, gc_alltoallv_lg_plan_bytes(s)),
      .sizes = gc_nbc_carve(&ar, sizeof(long long) * (nsizes + 2 * nn)),
      .at = gc_nbc_carve(&ar, sizeof(int) * 2 * (size_t)c),
      .wide_in_at = gc_nbc_carve(&ar, sizeof(long long) * (size_t)(s->nwide_recv + 1)),
      .areas = gc_nbc_carve(&ar, gc_alltoallv_lg_nb_areas(s, n, quota))};
  *rc = MPI_ERR_INTERN; /* a bound of the reservation was wrong: never */
  if (!steps || !pieces || !pure || !x || !mem.plan || !mem.sizes || !mem.at ||
      !mem.wide_in_at || !mem.areas) {
    gc_nbc_arena_give(&ar);
    return 1;
  }
  *x = (struct lgv_nb_call){.pieces = pure, .sendbuf = call->sendbuf, .recvbuf = call->recvbuf,
                            .sendcounts = call->sendcounts, .sdispls = call->sdispls,
                            .recvcounts = call->recvcounts, .rdispls = call->rdispls,
                            .large = call->large, .pack_comm = nbc};
  long long *send_bytes = mem.sizes + nsizes, *recv_bytes = send_bytes + nn;
  block_bytes(call, n, send_bytes, recv_bytes);
  if (gc_alltoallv_lg_nb_begin(&x->g, s, n, (long long)quota, &mem, send_bytes, recv_bytes) != 0) {
    gc_nbc_arena_give(&ar); /* my schedule is of this communicator, every size >= 0: never */
    return 1;
  }
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
  int nsteps = gc_alltoallv_lg_nb_steps(&x->g, steps, pure);
  for (int k = 0; k < nsteps; k++)
    pieces[k] = mpi_piece(x, &pure[k]);
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
