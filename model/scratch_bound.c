/* The size of the models' working memory (scratch_bound.h). */
#include "scratch_bound.h"

#include "model.h"
#include "tree_cost.h"

static size_t max_size(size_t a, size_t b)
{
  return a > b ? a : b;
}

/* The users of the block, each its largest need (declared beside it): the all-to-all
 * models, the library's broadcast over ranks, and a broadcast tree built and costed as
 * the rows do. No user nests inside another but through its own need (the greedy tree's
 * builds are part of gc_tree_row_scratch), so the largest of them is the bound. */
size_t gc_scratch_bound(int n, int k)
{
  if (n < 1 || k < 1)
    return 0;
  size_t b = gc_model_exchange_scratch(k);
  if (k >= 3 && n > k) /* the relay row plans only where LG applies: a cluster of two */
    b = max_size(b, gc_model_relay_row_scratch(n, k));
  b = max_size(b, gc_model_binomial_grid_scratch(n, k));
  return max_size(b, gc_tree_row_scratch(k));
}
