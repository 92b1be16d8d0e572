/* Working memory of the models and the broadcast tree builders: one block per
 * communicator, taken from and given back in stack order, never allocated on a call's road.
 *
 * Why (issue 24): every rank must take the same road from data identical on all ranks. A
 * model that allocated per prediction and failed on one rank only predicted -1 there and
 * chose another algorithm than the others (gc_select, learning's candidates), and a tree
 * that could not be built on one rank left the others sending: the job hung. So the block
 * is allocated once, when the communicator's network view is built (shim/pure/network.c:
 * gc_network_build, part of building the communicator's state), sized by
 * gc_scratch_bound(n, k) (scratch_bound.h), a function of the communicator's size n and cluster count k
 * alone. Whether a take fits depends only on (n, k) and the path of the call, the same on
 * every rank; with the bound no take fails (test/unit/check_scratch.c runs every model and
 * builder at the edges with a block of exactly the bound, and finds the bound reached).
 *
 * A bump allocator: gc_scratch_take hands out the next bytes of the block, gc_scratch_mark
 * says where the top is and gc_scratch_release goes back to it, so nested users (the
 * greedy tree builds the other trees and costs them) give back exactly what they took.
 * Every function that takes releases what it took before it returns, except storage it
 * hands to its caller (a tree's arrays, tree.h: gc_tree_take), which the caller releases.
 *
 * Where the block travels: in the inputs the models already take (struct gc_model_grid,
 * struct gc_tree_input: `scratch`), filled from the network view (struct gc_network holds
 * the block), so no model's or row's signature names it.  Not thread-safe: a block
 * belongs to one communicator, whose collective calls MPI orders. */
#ifndef GC_SCRATCH_H
#define GC_SCRATCH_H

#include <stddef.h>

struct gc_scratch {
  unsigned char *base; /* the block, NULL when there is none (every take fails) */
  size_t size;         /* its bytes */
  size_t used;         /* bytes taken now: the top */
  size_t peak;         /* the most ever taken at once (for the tests) */
};

/* Every take is rounded up to this, so that whatever is taken next is aligned for any
 * type the models use (doubles, longs, ints). */
#define GC_SCRATCH_ALIGN 16

/* What a take of count elements of elem bytes charges: count * elem rounded up to
 * GC_SCRATCH_ALIGN; SIZE_MAX when that overflows (no block is that large). The models'
 * needs are sums of these (scratch_bound.h). */
size_t gc_scratch_cost(size_t count, size_t elem);
/* a + b, SIZE_MAX when that overflows. */
size_t gc_scratch_add(size_t a, size_t b);

/* count * elem bytes, aligned, from the top of s; NULL when s is NULL or they do not fit
 * (nothing is then taken). */
void *gc_scratch_take(struct gc_scratch *s, size_t count, size_t elem);

static inline size_t gc_scratch_mark(const struct gc_scratch *s)
{
  return s ? s->used : 0;
}

/* Gives back everything taken since mark (gc_scratch_mark); a mark above the top (none
 * taken since) changes nothing. */
void gc_scratch_release(struct gc_scratch *s, size_t mark);

/* A block of `bytes` (the bound of its communicator): 0, or -1 when out of memory (s then
 * has no block). Once per communicator, when its state is built. */
int gc_scratch_init(struct gc_scratch *s, size_t bytes);
void gc_scratch_free(struct gc_scratch *s);

#endif
