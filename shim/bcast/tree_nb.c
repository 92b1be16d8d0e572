/* MPI_Ibcast by a broadcast tree: the tree the blocking call runs (the communicator's
 * tree cache), its steps for this rank (tree_steps.h), run by the nonblocking executor
 * (nbc.h) on the communicator's nonblocking duplicate with the call's own tag; with
 * bcast.segment set, in segments of the packed message (cuts() says which calls), each
 * a piece of raw bytes: the application's buffer, or a staging copy where this rank's
 * datatype is not raw.
 *
 * Which calls: a forced tree (GRIDCOLL_BCAST=<tree>, the configuration agreed at
 * MPI_Init), or the tree `auto` picks by the models alone (dispatch.h:
 * gc_dispatch_scheduled), on a communicator of two clusters or more, where gridcoll can
 * run schedules (nbc.h: gc_nbc_available). Everything read is identical on every rank,
 * so every rank takes the call or none does. */
#include <limits.h>
#include <string.h>

#include "bcast.h"
#include "clock.h"
#include "datatype.h"
#include "dispatch.h"
#include "gridcoll.h"
#include "nbc.h"
#include "segment_schedule.h"
#include "select.h"
#include "tree_nb_call.h"
#include "tree_steps.h"

/* The cuts of a call's m bytes (the same on every rank: m and bcast.segment are):
 * bcast.segment's, in at most GC_BCAST_NB_SEGMENTS segments (longer ones past that);
 * whole (one segment) when it is not set, when m > INT_MAX (packed with int counts), or
 * for a nonblocking call above what its slot stages (nbc.h: GC_NBC_STAGE_BYTES). */
static struct gc_bcast_segments cuts(size_t m, size_t seg, int persistent)
{
  if (seg == 0 || m > INT_MAX || (!persistent && m > GC_NBC_STAGE_BYTES))
    return gc_bcast_segments_make(m, 0);
  struct gc_bcast_segments s = gc_bcast_segments_make(m, seg);
  if (s.n > GC_BCAST_NB_SEGMENTS) /* m / seg < GC_BCAST_NB_SEGMENTS: no more segments */
    s = gc_bcast_segments_make(m, m / GC_BCAST_NB_SEGMENTS + 1);
  return s;
}

/* A staged rank's packing at each start (the root) and unpacking at the end (the others),
 * and its duplicate of the application's type. */
static int stage_start(void *data)
{
  struct tree_nb_stage *x = data;
  int pos = 0, rc = MPI_SUCCESS;
  if (x->packs) {
    rc = PMPI_Pack(x->buffer, x->count, x->type, x->stage, x->m, &pos, x->pack_comm);
    if (rc == MPI_SUCCESS && pos != x->m)
      rc = MPI_ERR_TRUNCATE;
  }
  return rc;
}

static int stage_finish(void *data)
{
  struct tree_nb_stage *x = data;
  int pos = 0;
  return x->packs ? MPI_SUCCESS
                  : PMPI_Unpack(x->stage, x->m, &pos, x->buffer, x->count, x->type, x->pack_comm);
}

static void stage_release(void *data)
{
  struct tree_nb_stage *x = data;
  if (x->own_type)
    PMPI_Type_free(&x->type);
}

static const struct gc_nbc_ops stage_ops = {
    .start = stage_start, .finish = stage_finish, .release = stage_release};

/* The whole message's n steps in *steps made segmented (tree_steps.h), each segment a
 * piece of raw bytes: the application's buffer, or the stage carved from ar that a rank
 * whose datatype is not raw packs into or unpacks from (*data, with our duplicate of its
 * type). MPI_SUCCESS or an error (*data then NULL, nothing held). */
static int segment(const struct gc_bcast_call *call, const struct gc_bcast_segments *segs,
                   int staged, int root, struct gc_nbc_arena *ar, MPI_Comm nbc,
                   struct gc_nbc_step **steps, int *n, struct gc_nbc_piece *pieces, void **data)
{
  int nseg = (int)segs->n;
  size_t nsteps = (size_t)(*n > 0 ? *n : 1) * (size_t)nseg;
  struct gc_nbc_step *out = gc_nbc_carve(ar, sizeof *out * nsteps);
  struct tree_nb_stage *x = staged ? gc_nbc_carve(ar, sizeof *x) : NULL;
  char *stage = staged ? gc_nbc_carve(ar, segs->bytes) : NULL;
  if (!out || (staged && (!x || !stage)))
    return MPI_ERR_INTERN; /* the slot's bound: never */
  *n = gc_bcast_tree_segment_steps(*steps, *n, nseg, GC_BCAST_RECV_AHEAD, out);
  *steps = out;
  char *base = staged ? stage : call->buffer;
  for (int i = 0; i < nseg; i++) {
    uint64_t first, len;
    gc_bcast_segment_range(segs, (uint64_t)i, &first, &len);
    pieces[i] = (struct gc_nbc_piece){base + first, (MPI_Count)len, MPI_BYTE, 0};
  }
  if (!staged)
    return MPI_SUCCESS;
  *x = (struct tree_nb_stage){.stage = stage, .m = (int)segs->bytes, .buffer = call->buffer,
                              .count = (int)call->count, .packs = root,
                              .pack_comm = nbc};
  int rc = gc_nbc_type_own(call->datatype, &x->type, &x->own_type);
  if (rc == MPI_SUCCESS)
    *data = x;
  return rc;
}

static int issue(struct gc_bcast_call *call, MPI_Request *request, int *rc, int persistent)
{
  struct gc_call_pending log = {.posted = gc_clock_now()}; /* the post, for the log */
  /* Every tree has a schedule: the forced one, or `auto`'s pick by the models. */
  int trees[GC_MAX_ALGORITHMS] = {0}, a;
  for (a = 1; a < gc_bcast_op.nalgorithms; a++)
    trees[a] = 1;
  struct gc_comm_state *st;
  struct gc_call c;
  /* A nonblocking call reads the state and the reservation (comm_state.h: gc_comm_nbc):
   * it may not wait for the other members to make them. */
  if (strcmp(gc_bcast_op.wanted, "native") == 0 ||
      !(st = persistent ? gc_comm_state_get(call->comm) : gc_comm_state_find(call->comm)) ||
      !gc_bcast_op.prepare(call, st, &c) ||
      (a = gc_dispatch_scheduled(&gc_bcast_op, call, st, trees)) == GC_NATIVE)
    return 0;
  const struct gc_tree *tree = gc_bcast_tree_of(call, st, a);
  if (!tree)
    return 0;
  /* The reservation (made at a blocking call, agreed): none yet, or no pool anywhere,
   * and every member runs the MPI library's own. */
  MPI_Comm nbc;
  if ((*rc = gc_comm_nbc(st, persistent, &nbc)) != MPI_SUCCESS) {
    PMPI_Comm_call_errhandler(call->comm, *rc);
    return 1;
  }
  if (nbc == MPI_COMM_NULL)
    return 0;
  /* The line the executor logs at each completion the application sees: made here, on
   * every member alike (a nonblocking call's where the communicator is named already,
   * call.c: gc_call_issued; a persistent init names it, collectively). */
  enum gc_entry entry = persistent ? GC_ENTRY_PERSISTENT : GC_ENTRY_NONBLOCKING;
  gc_dispatch_issued(&gc_bcast_op, call, call->comm, entry, a, &log);
  /* A persistent schedule's memory is its own, agreed now (MPI_Bcast_init may block:
   * every member calls it in one order); a nonblocking call's is its slot's. */
  struct gc_nbc_arena ar;
  int tag = gc_nbc_tag(st->nbc_issued);
  struct gc_bcast_segments segs = cuts(c.bytes, call->segment_bytes, persistent);
  int nseg = segs.n > 1 ? (int)segs.n : 1, bound = gc_bcast_tree_steps_bound(&st->layout, st->rank);
  /* A rank whose elements are not their packed bytes stages the message (nbc.h). */
  int staged = nseg > 1 && !gc_datatype_is_raw(call->datatype);
  size_t bytes = gc_bcast_tree_nb_call_bytes(bound, nseg, staged ? c.bytes : 0);
  if (persistent) {
    int ok = gc_comm_nbc_persistent_arena(st, 1, bytes, &ar, rc);
    if (ok <= 0) {
      if (ok < 0)
        PMPI_Comm_call_errhandler(call->comm, *rc);
      return ok < 0;
    }
    st->nbc_issued++;
  } else if (gc_nbc_pool_take(st->nbc_pool, st->nbc_issued++, &ar) != 0) {
    *rc = MPI_ERR_NO_MEM; /* more schedules in flight than slots (nbc.h) */
    PMPI_Comm_call_errhandler(call->comm, *rc);
    return 1;
  }
  struct gc_nbc_step *steps = gc_nbc_carve(&ar, sizeof *steps * (size_t)bound);
  int n = 0;
  if (!steps)
    *rc = MPI_ERR_INTERN; /* the slot's bound: never */
  /* No bytes (type signatures match: none anywhere): a request complete at once. */
  if (*rc == MPI_SUCCESS && c.bytes > 0 &&
      (n = gc_bcast_tree_steps(&st->layout, tree, call->root, st->rank, steps)) < 0)
    *rc = MPI_ERR_INTERN; /* the cache's tree is the layout's: never */
  struct gc_nbc_piece pieces[GC_BCAST_NB_SEGMENTS] = {
      {call->buffer, call->count, call->datatype, 0}};
  const struct gc_nbc_ops *ops = NULL;
  void *data = NULL;
  if (*rc == MPI_SUCCESS && nseg > 1)
    *rc = segment(call, &segs, staged, st->rank == call->root, &ar, nbc, &steps, &n, pieces,
                  &data);
  if (data)
    ops = &stage_ops;
  if (*rc == MPI_SUCCESS) /* the arena goes with the start, which gives it back either way */
    *rc = persistent ? gc_nbc_persistent(nbc, call->comm, tag, steps, n, pieces, nseg, ops, data,
                                         &ar, &log, request)
                     : gc_nbc_start(nbc, tag, steps, n, pieces, nseg, ops, data, &ar, &log,
                                    request);
  else
    gc_nbc_arena_give(&ar);
  if (*rc != MPI_SUCCESS)
    PMPI_Comm_call_errhandler(call->comm, *rc);
  return 1;
}

int gc_bcast_tree_issue(struct gc_bcast_call *call, MPI_Request *request, int *rc,
                        int persistent)
{
  if (!gc_g.cfg.nonblocking_grid || !gc_nbc_available() || gc_dispatch_bypass(GC_OP_BCAST) ||
      !gc_guard_enter())
    return 0;
  *rc = MPI_SUCCESS;
  int took = issue(call, request, rc, persistent);
  gc_guard_leave();
  return took;
}
