/* MPI_Ibcast by a broadcast tree: the tree the blocking call runs (the communicator's
 * tree cache), its steps for this rank (tree_steps.h), run by the nonblocking executor
 * (nbc.h) on the communicator's nonblocking duplicate with the call's own tag.
 *
 * Which calls: a forced tree (GRIDCOLL_BCAST=<tree>, the configuration agreed at
 * MPI_Init), or the tree `auto` picks by the models alone (dispatch.h:
 * gc_dispatch_scheduled), on a communicator of two clusters or more, under an MPI with
 * extended generalized requests (MPICH). Everything read is identical on every rank, so
 * every rank takes the call or none does. */
#include <string.h>

#include "bcast.h"
#include "clock.h"
#include "dispatch.h"
#include "gridcoll.h"
#include "nbc.h"
#include "select.h"
#include "tree_steps.h"

static int issue(struct gc_bcast_call *call, MPI_Request *request, int *rc, int persistent)
{
  struct gc_call_pending log = {.posted = gc_clock_now()}; /* the post, for the log */
  /* Every tree has a schedule: the forced one, or `auto`'s pick by the models. */
  int trees[GC_MAX_ALGORITHMS] = {0}, a;
  for (a = 1; a < gc_bcast_op.nalgorithms; a++)
    trees[a] = 1;
  struct gc_comm_state *st;
  struct gc_call c;
  if (strcmp(gc_bcast_op.wanted, "native") == 0 || !(st = gc_comm_state_get(call->comm)) ||
      !gc_bcast_op.prepare(call, st, &c) ||
      (a = gc_dispatch_scheduled(&gc_bcast_op, call, st, trees)) == GC_NATIVE)
    return 0;
  const struct gc_tree *tree = gc_bcast_tree_of(call, st, a);
  if (!tree)
    return 0;
  /* The reservation (collective at the communicator's first schedule, agreed): no pool
   * anywhere and every member runs the MPI library's own. */
  MPI_Comm nbc;
  if ((*rc = gc_comm_nbc(st, &nbc)) != MPI_SUCCESS) {
    PMPI_Comm_call_errhandler(call->comm, *rc);
    return 1;
  }
  if (nbc == MPI_COMM_NULL)
    return 0;
  /* The line the executor logs at each completion the application sees: made here, on
   * every member alike (the first record names the communicator, collectively). */
  enum gc_entry entry = persistent ? GC_ENTRY_PERSISTENT : GC_ENTRY_NONBLOCKING;
  gc_dispatch_issued(&gc_bcast_op, call, call->comm, entry, a, &log);
  /* A persistent schedule's memory is its own, agreed now (MPI_Bcast_init may block:
   * every member calls it in one order); a nonblocking call's is its slot's. */
  struct gc_nbc_arena ar;
  int tag = gc_nbc_tag(st->nbc_issued);
  size_t bytes = gc_nbc_block_bytes(st->size, 1) +
                 gc_nbc_carve_bytes(sizeof(struct gc_nbc_step) * (size_t)st->size);
  if (persistent) {
    int ok = gc_comm_nbc_persistent_arena(st, bytes, &ar, rc);
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
  struct gc_nbc_step *steps = gc_nbc_carve(&ar, sizeof *steps * (size_t)st->size);
  int n = 0;
  if (!steps)
    *rc = MPI_ERR_INTERN; /* the slot's bound: never */
  /* No bytes (type signatures match: none anywhere): a request complete at once. */
  if (*rc == MPI_SUCCESS && c.bytes > 0 &&
      (n = gc_bcast_tree_steps(&st->layout, tree, call->root, st->rank, steps)) < 0)
    *rc = MPI_ERR_INTERN; /* the cache's tree is the layout's: never */
  struct gc_nbc_piece whole = {call->buffer, call->count, call->datatype, 0};
  if (*rc == MPI_SUCCESS) /* the arena goes with the start, which gives it back either way */
    *rc = persistent ? gc_nbc_persistent(nbc, tag, steps, n, &whole, 1, NULL, NULL, &ar, &log,
                                         request)
                     : gc_nbc_start(nbc, tag, steps, n, &whole, 1, NULL, NULL, &ar, &log, request);
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
