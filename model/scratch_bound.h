/* How large a communicator's scratch block (scratch.h) must be: a file of its own, above
 * the models it asks, so that the block's allocator below them names none of them. */
#ifndef GC_SCRATCH_BOUND_H
#define GC_SCRATCH_BOUND_H

#include <stddef.h>

/* What any model of model/ and any tree builder of shim/bcast/pure/ may take at once, for
 * a communicator of n processes in k clusters: the largest of each user's need, declared
 * beside it (model.h: gc_model_exchange_scratch, gc_model_binomial_grid_scratch;
 * tree_cost.h: gc_tree_row_scratch). SIZE_MAX when it overflows. */
size_t gc_scratch_bound(int n, int k);

#endif
