/* Working memory for the inputs the unit tests lay out by hand (struct gc_model_grid,
 * struct gc_tree_input): a scratch made as a network view makes its own
 * (shim/pure/network.c: gc_scratch_init with gc_scratch_bound), and trees with storage of
 * their own, as a tree cache entry has. */
#ifndef GC_SCRATCH_CHECK_H
#define GC_SCRATCH_CHECK_H

#include <stdlib.h>

#include "scratch.h"
#include "scratch_bound.h"
#include "tree_cost.h"

/* A scratch of at least gc_scratch_bound(n, k): one per test program, grown (never
 * shrunk, so that an input laid out earlier keeps enough) when a larger (n, k) asks.
 * Aborts when out of memory: a test without its scratch tests nothing. */
static inline struct gc_scratch *gc_test_scratch(int n, int k)
{
  static struct gc_scratch s;
  size_t need = gc_scratch_bound(n, k);
  if (!s.base || s.size < need) {
    gc_scratch_free(&s);
    if (gc_scratch_init(&s, need) != 0)
      abort();
  }
  return &s;
}

/* Storage of a tree of up to k nodes for a builder to fill, the test's own
 * (gc_test_tree_free gives it back). */
static inline void gc_test_tree(struct gc_tree *t, int k)
{
  int *ints = malloc(sizeof(int) * gc_tree_ints(k));
  if (!ints)
    abort();
  gc_tree_place(t, ints, k);
}

static inline void gc_test_tree_free(struct gc_tree *t)
{
  free(t->parent); /* gc_tree_place lays the arrays out from parent on */
  *t = (struct gc_tree){0};
}

#endif
