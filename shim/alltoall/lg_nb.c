/* MPI_Ialltoall and MPI_Alltoall_init by LG: the schedule of lg_schedule.h (the one the
 * blocking run follows) as a nonblocking schedule (nbc.h) on the communicator's
 * nonblocking duplicate, built at the call (at MPI_Alltoall_init, run at each MPI_Start).
 * Its steps, the layout of its buffer and what is packed and unpacked where are pure
 * (lg_nb_steps.h); here they meet MPI: at each start my n blocks are packed (from the
 * receive buffer when in place: nothing writes it before the end) and my own local message
 * copied to the staging area; a wide send is gathered from the staging area by an
 * hindexed type; at the end every block addressed to me is unpacked into the receive
 * buffer (the executor's finish), before the application sees the request complete.
 *
 * Which calls: a forced `lg` (the configuration agreed at MPI_Init), or `auto` where the
 * models pick LG over the MPI library's own (dispatch.h: gc_dispatch_scheduled), where LG
 * serves the communicator and the block (gc_alltoall_lg_supports: the layout and m,
 * identical on every rank). A block of m <= INT_MAX bytes of a type of one byte or more has a count
 * that fits an int everywhere, so every rank packs with PMPI_Pack; what can still fail
 * is memory: my schedule is built once, and a nonblocking call's buffers, steps and
 * executor block come from the communicator's reserved slot (nbc_reserve.c, LG's part of
 * it in lg_nb_reserve.c), agreed at its first schedule (blocks beyond the slot's bound
 * run as the MPI library's own everywhere); a persistent call's from its own memory,
 * agreed at MPI_Alltoall_init (nbc_reserve.c: gc_comm_nbc_persistent_arena). */
#include <string.h>

#include "alltoall.h"
#include "alltoall_algorithms.h"
#include "clock.h"
#include "dispatch.h"
#include "gridcoll.h"
#include "lg_nb_call.h"
#include "lg_nb_steps.h"
#include "lg_schedule.h"
#include "nbc.h"
#include "select.h"

/* The call's own types; its memory is the slot's (the executor gives it back). */
static void lg_nb_release(void *data)
{
  struct lg_nb *x = data;
  if (x->own_type)
    PMPI_Type_free(&x->recvtype);
  if (x->own_sendtype)
    PMPI_Type_free(&x->sendtype);
}

/* Before the first round, at the call or at each MPI_Start: my n blocks packed into the
 * area in local-send order (from the receive buffer when in place: nothing writes it
 * before the end), my own local message copied to the staging area. */
static int lg_nb_start(void *data)
{
  struct lg_nb *x = data;
  const char *buf = x->sendbuf ? x->sendbuf : x->recvbuf;
  int count = x->sendbuf ? x->sendcount : x->recvcount;
  MPI_Datatype type = x->sendbuf ? x->sendtype : x->recvtype;
  MPI_Aint extent = x->sendbuf ? x->send_extent : x->extent;
  for (int i = 0; i < x->n; i++) {
    int pos = 0;
    const struct gc_alltoall_lg_nb_pack *p = &x->plan.pack[i];
    int rc = PMPI_Pack(buf + (MPI_Aint)p->index * count * extent, count, type, x->buf + p->at,
                       (int)x->m, &pos, x->pack_comm);
    if (rc == MPI_SUCCESS && (size_t)pos != x->m)
      rc = MPI_ERR_TRUNCATE;
    if (rc != MPI_SUCCESS)
      return rc;
  }
  memcpy(x->buf + x->plan.copy_to, x->buf + x->plan.copy_from, x->plan.copy_len);
  return MPI_SUCCESS;
}

static int lg_nb_finish(void *data)
{
  struct lg_nb *x = data;
  for (int i = 0; i < x->n; i++) {
    int pos = 0;
    const struct gc_alltoall_lg_nb_deliver *d = &x->plan.deliver[i];
    char *to = (char *)x->recvbuf + (MPI_Aint)d->src * x->recvcount * x->extent;
    int rc = PMPI_Unpack(x->buf + d->at, (int)x->m, &pos, to, x->recvcount, x->recvtype,
                         x->pack_comm);
    if (rc != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

static const struct gc_nbc_ops lg_nb_ops = {
    .start = lg_nb_start, .finish = lg_nb_finish, .release = lg_nb_release};

/* The call's pieces from its pure steps (lg_nb_steps.h): a run of the buffer, or a wide
 * message gathered from the stage by an hindexed type the piece owns. MPI_SUCCESS or an
 * error (the types made so far are freed by the caller through the pieces). */
static int make_pieces(const struct gc_alltoall_lg_schedule *s, const struct lg_nb *x,
                       const struct gc_alltoall_lg_nb_piece *pure, int nsteps,
                       struct gc_nbc_piece *pieces, MPI_Aint *displs)
{
  for (int k = 0; k < nsteps; k++) {
    const struct gc_alltoall_lg_nb_piece *p = &pure[k];
    if (p->gather_count == 0) {
      pieces[k] = (struct gc_nbc_piece){x->buf + p->at, (MPI_Count)p->bytes, MPI_BYTE, 0};
      continue;
    }
    for (int t = 0; t < p->gather_count; t++)
      displs[t] = (MPI_Aint)s->blocks[p->gather_first + t].index * (MPI_Aint)x->m;
    MPI_Datatype type;
    int rc = PMPI_Type_create_hindexed_block(p->gather_count, (int)x->m, displs, MPI_BYTE, &type);
    if (rc != MPI_SUCCESS)
      return rc;
    pieces[k] = (struct gc_nbc_piece){x->buf + p->at, 1, type, 1};
    if ((rc = PMPI_Type_commit(&pieces[k].type)) != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

/* One call, from its slot (nonblocking) or from its own memory, agreed now (persistent:
 * MPI_Alltoall_init may block, every member calls it in one order): nothing else here
 * allocates. 0 when the MPI library's own runs it (every member alike), else 1 with *rc
 * the result. */
static int issue(struct gc_alltoall_call *call, struct gc_comm_state *st, MPI_Comm nbc,
                 const struct gc_call_pending *log, MPI_Request *request, int persistent, int *rc)
{
  int tag = gc_nbc_tag(st->nbc_issued);
  const struct gc_alltoall_lg_schedule *sp = st->nbc_lg, s = *sp;
  size_t m = call->block_bytes, n = (size_t)st->size;
  size_t blocks = (size_t)gc_alltoall_lg_nb_blocks(&s, st->size);
  struct gc_nbc_arena ar;
  if (persistent) {
    size_t bytes = gc_alltoall_lg_nb_call_bytes(&s, st->size, blocks * m);
    int ok = gc_comm_nbc_persistent_arena(st, 1, bytes, &ar, rc);
    if (ok <= 0)
      return ok < 0;
    st->nbc_issued++;
  } else if (gc_nbc_pool_take(st->nbc_pool, st->nbc_issued++, &ar) != 0) {
    *rc = MPI_ERR_NO_MEM; /* more schedules in flight than slots (nbc.h) */
    return 1;
  }
  if (m == 0) { /* m is the same everywhere: nothing moves anywhere */
    *rc = persistent ? gc_nbc_persistent(nbc, call->comm, tag, NULL, 0, NULL, 0, NULL, NULL,
                                         &ar, log, request)
                     : gc_nbc_start(nbc, tag, NULL, 0, NULL, 0, NULL, NULL, &ar, log, request);
    return 1;
  }
  int npieces = gc_alltoall_lg_nb_steps_bound(&s), nsteps = 0;
  struct gc_nbc_step *steps = gc_nbc_carve(&ar, sizeof *steps * ((size_t)npieces + 1));
  struct gc_nbc_piece *pieces = gc_nbc_carve(&ar, sizeof *pieces * ((size_t)npieces + 1));
  struct gc_alltoall_lg_nb_piece *pure = gc_nbc_carve(&ar, sizeof *pure * ((size_t)npieces + 1));
  MPI_Aint *displs = gc_nbc_carve(&ar, sizeof *displs * ((size_t)s.max_wide_send + 1));
  struct lg_nb *x = gc_nbc_carve(&ar, sizeof *x);
  if (x)
    memset(x, 0, sizeof *x), x->plan.deliver = gc_nbc_carve(&ar, sizeof *x->plan.deliver * n),
    x->plan.pack = gc_nbc_carve(&ar, sizeof *x->plan.pack * n), x->m = m, x->n = (int)n,
    x->recvbuf = call->recvbuf, x->recvcount = (int)call->recvcount, x->pack_comm = nbc,
    x->sendbuf = call->sendbuf == MPI_IN_PLACE ? NULL : call->sendbuf,
    x->sendcount = (int)call->sendcount, x->buf = gc_nbc_carve(&ar, blocks * m);
  *rc = MPI_ERR_INTERN; /* a bound of the reservation was wrong: never */
  if (x && x->plan.deliver && x->plan.pack && x->buf && steps && pieces && pure && displs) {
    memset(pieces, 0, sizeof *pieces * ((size_t)npieces + 1));
    MPI_Aint lb;
    *rc = PMPI_Type_get_extent(call->recvtype, &lb, &x->extent);
    if (*rc == MPI_SUCCESS)
      *rc = gc_nbc_type_own(call->recvtype, &x->recvtype, &x->own_type);
    if (*rc == MPI_SUCCESS && x->sendbuf &&
        (*rc = PMPI_Type_get_extent(call->sendtype, &lb, &x->send_extent)) == MPI_SUCCESS)
      *rc = gc_nbc_type_own(call->sendtype, &x->sendtype, &x->own_sendtype);
    if (*rc == MPI_SUCCESS)
      *rc = (nsteps = gc_alltoall_lg_nb_steps(&s, (int)n, m, steps, pure, &x->plan)) < 0
                ? MPI_ERR_INTERN /* my schedule is of this communicator: never */
                : make_pieces(&s, x, pure, nsteps, pieces, displs);
  }
  if (*rc == MPI_SUCCESS) {
    /* The pieces' own types and the arena go with the start, which frees them either way. */
    *rc = persistent ? gc_nbc_persistent(nbc, call->comm, tag, steps, nsteps, pieces, nsteps,
                                         &lg_nb_ops, x, &ar, log, request)
                     : gc_nbc_start(nbc, tag, steps, nsteps, pieces, nsteps, &lg_nb_ops, x, &ar,
                                    log, request);
    return 1;
  }
  for (int i = 0; pieces && i < npieces; i++)
    if (pieces[i].own)
      PMPI_Type_free(&pieces[i].type);
  if (x)
    lg_nb_release(x);
  gc_nbc_arena_give(&ar);
  return 1;
}

int gc_alltoall_lg_issue(struct gc_alltoall_call *call, MPI_Request *request, int *rc,
                         int persistent)
{
  if (!gc_g.cfg.nonblocking_grid || !gc_nbc_available() || gc_dispatch_bypass(GC_OP_ALLTOALL) ||
      !gc_guard_enter())
    return 0;
  int took = 0;
  struct gc_call_pending log = {.posted = gc_clock_now()}; /* the post, for the log */
  struct gc_comm_state *st;
  struct gc_call c;
  MPI_Comm nbc = MPI_COMM_NULL;
  /* LG alone has a schedule: forced, or `auto`'s pick by the models. */
  int lg_only[GC_MAX_ALGORITHMS] = {[GC_ALLTOALL_LG] = 1};
  /* A nonblocking call reads the state and the reservation (comm_state.h: gc_comm_nbc):
   * it may not wait for the other members to make them. */
  if (gc_alltoall_lg_nb_wanted() &&
      (st = persistent ? gc_comm_state_get(call->comm) : gc_comm_state_find(call->comm)) &&
      gc_alltoall_op.prepare(call, st, &c) &&
      gc_dispatch_scheduled(&gc_alltoall_op, call, st, lg_only) == GC_ALLTOALL_LG) {
    /* The reservation (made at a blocking call, agreed): none yet, no pool anywhere, or
     * a nonblocking call's block beyond the slots' bound (m is the same everywhere), and
     * every member runs the MPI library's own; a persistent call's memory is its own. */
    if ((*rc = gc_comm_nbc(st, persistent, &nbc)) != MPI_SUCCESS) {
      took = 1;
      PMPI_Comm_call_errhandler(call->comm, *rc);
    } else if (nbc != MPI_COMM_NULL && st->nbc_lg &&
               (persistent || call->block_bytes <= st->nbc_lg_max_m)) {
      /* The line the executor logs when the application sees the call complete: made on
       * every member alike (a nonblocking call's where the communicator is named
       * already, call.c: gc_call_issued; a persistent init names it, collectively). */
      gc_dispatch_issued(&gc_alltoall_op, call, call->comm,
                         persistent ? GC_ENTRY_PERSISTENT : GC_ENTRY_NONBLOCKING, GC_ALLTOALL_LG,
                         &log);
      *rc = MPI_SUCCESS;
      took = issue(call, st, nbc, &log, request, persistent, rc);
      if (took && *rc != MPI_SUCCESS)
        PMPI_Comm_call_errhandler(call->comm, *rc);
    }
  }
  gc_guard_leave();
  return took;
}
