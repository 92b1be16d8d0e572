/* The nonblocking schedules' communicator and memory, made and agreed once per
 * communicator (doc/design.md: Nonblocking collectives, memory).
 *
 * A nonblocking call must not wait for the other ranks (MPI-4.0 section 6.12: it returns
 * independently of them), so it can neither agree on what it allocates nor make a
 * communicator. So under GRIDCOLL_NONBLOCKING=grid they are made with the communicator's
 * state, at a call every member makes (its first blocking collective gridcoll sees,
 * MPI_Init for MPI_COMM_WORLD), where it spans two clusters or more (no schedule serves
 * one); a nonblocking call on a communicator without them runs the MPI library's own. A
 * persistent call's init makes them where they are not. What is made: the duplicate and
 * a pool of slots, each as large as the
 * largest call of this rank can take (the tree's steps and executor block, with
 * segments its staging up to a bound; LG's steps, pieces, executor block and buffers up
 * to a bound), then one allreduce over the
 * duplicate. A member short of memory makes every member run the MPI library's own
 * nonblocking calls on this communicator from then on (it warns once). After it a call
 * carves from its slot and allocates nothing. */
#include "comm_state.h"
#include "gridcoll.h"
#include "nbc.h"
#include "ops.h"

/* What every op's schedules want (op.h: nbc_reserve): the most bytes one call of mine
 * carves, into *bytes, and my LG blocks. 0, or -1 when one is out of memory. */
static int reserve(struct gc_comm_state *st, size_t *bytes, int *blocks)
{
  *bytes = 0;
  for (int id = 0; id < GC_OP_LAST; id++) {
    const struct gc_op *op = gc_op_of(id);
    size_t b = 0;
    if (op->nbc_reserve && op->nbc_reserve(st, &b, blocks) != 0)
      return -1;
    *bytes = b > *bytes ? b : *bytes;
  }
  return 0;
}

/* MAX over the members of two counts on the duplicate: 0 or an MPI error. */
static int agree(MPI_Comm nbc, long long v[2])
{
  return PMPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_LONG_LONG, MPI_MAX, nbc);
}

int gc_comm_nbc(struct gc_comm_state *st, int may_block, MPI_Comm *out)
{
  *out = MPI_COMM_NULL;
  if (st->nbc_served < 0)
    return MPI_SUCCESS;
  if (!may_block && st->nbc_served == 0)
    return MPI_SUCCESS; /* not made with the state (an error there): the library's own */
  if (st->nbc_comm == MPI_COMM_NULL) {
    MPI_Comm priv;
    int rc = gc_comm_private(st, &priv);
    if (rc != MPI_SUCCESS || (rc = PMPI_Comm_dup(priv, &st->nbc_comm)) != MPI_SUCCESS)
      return rc;
    PMPI_Comm_set_errhandler(st->nbc_comm, MPI_ERRORS_RETURN);
  }
  if (st->nbc_served == 0) {
    size_t bytes = 0;
    long long v[2] = {0, 0}; /* short of memory; the most LG blocks of a member */
    int blocks = 0;
    if (reserve(st, &bytes, &blocks) != 0)
      v[0] = 1;
    v[1] = blocks;
    if (!v[0] && !(st->nbc_pool = gc_nbc_pool_make(bytes)))
      v[0] = 1;
    int here = (int)v[0], rc = agree(st->nbc_comm, v);
    if (rc != MPI_SUCCESS)
      return rc; /* st->nbc_served stays 0: the next call asks again, as every member */
    if (v[0]) {
      if (here)
        gc_warn_oom("the nonblocking schedules of a communicator; its nonblocking calls "
                    "run the MPI library's own");
      gc_nbc_pool_drop(st->nbc_pool);
      st->nbc_pool = NULL;
      if (st->nbc_lg)
        st->nbc_lg_free(st->nbc_lg);
      st->nbc_lg = NULL;
      st->nbc_served = -1;
      return MPI_SUCCESS;
    }
    st->nbc_lg_max_m = v[1] > 0 ? (size_t)GC_NBC_LG_BYTES / (size_t)v[1] : 0;
    st->nbc_served = 1;
  }
  *out = st->nbc_comm;
  return MPI_SUCCESS;
}

int gc_comm_nbc_persistent_arena(struct gc_comm_state *st, int able, size_t bytes,
                                 struct gc_nbc_arena *a, int *rc)
{
  int held = able && gc_nbc_arena_heap(bytes, a) == 0;
  long long v[2] = {!held, 0};
  if ((*rc = agree(st->nbc_comm, v)) != MPI_SUCCESS || v[0]) {
    if (held)
      gc_nbc_arena_give(a);
    else if (able)
      gc_warn_oom("a persistent collective's schedule; it runs the MPI library's own");
    return *rc != MPI_SUCCESS ? -1 : 0;
  }
  return 1;
}
