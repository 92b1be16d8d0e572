/* What every algorithm table row says about itself, MPI or not: pure C.
 *
 * Each collective keeps its rows in one pure table (shim/<op>/pure/<op>_algorithms.c: name,
 * description, formula, tree builder) of struct gc_model_row, the same type for every
 * operation, listed with its operation in op_info.c; gridcoll-predict walks them there.
 * The library's table (shim/<op>/<op>.c) points at the same rows, so the two cannot
 * drift. */
#ifndef GC_ALGORITHM_H
#define GC_ALGORITHM_H

struct gc_network;
struct gc_layout;
struct gc_shape;
struct gc_tree_input;
struct gc_tree;

struct gc_algorithm_about {
  const char *name; /* what GRIDCOLL_<OP>, the file and the log call it */
  const char *desc; /* one line for people */
};

/* Predicted seconds of a call of this shape (shape.h) on this layout and network view,
 * or < 0 when no model applies; *model names the formula (model/names.c). One type for
 * every row of every operation: whatever walks the rows needs no adapter. */
typedef double gc_model_predict(const struct gc_network *net, const struct gc_layout *layout,
                                const struct gc_shape *shape, const char **model);

struct gc_model_row {
  struct gc_algorithm_about about;
  gc_model_predict *predict;
  /* A broadcast tree's builder (tree_cache.h: gc_tree_builder, the same type): the tree
   * the row's prediction costs and its run sends along. NULL for the other rows. */
  int (*build)(const struct gc_tree_input *in, struct gc_tree *out);
};

#endif
