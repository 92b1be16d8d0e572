/* A call as the formulas read it, whatever the collective: pure C, no MPI.
 *
 * Every pure row (algorithm.h: struct gc_model_row) predicts from the same three things,
 * the network view, the layout and this shape, so that whatever walks the rows (the
 * library's tables, gridcoll-predict, the tests) calls every row of every operation
 * alike. An operation fills what its formulas read: the all-to-all its block, the
 * broadcast its message and root, MPI_Alltoallv its per-cluster-pair byte totals. */
#ifndef GC_SHAPE_H
#define GC_SHAPE_H

struct gc_layout;

struct gc_shape {
  double m;  /* bytes: the all-to-all's block, the broadcast's message; 0 where the blocks
                differ (MPI_Alltoallv: pair_bytes says how much moves) */
  int root;  /* communicator rank of the root; -1 for an operation without one */
  /* [k*k], k the layout's clusters: bytes cluster c sends cluster d in all, row c
   * (diagonal included: a cluster's exchange inside itself). NULL when not known (an
   * MPI_Alltoallv before any LG-v run has none: its rows then predict nothing). */
  const double *pair_bytes;
};

/* A call of equal blocks of m bytes between every pair of processes (the all-to-all's):
 * pair_bytes (k*k doubles, the caller's) receives n_c n_d m, what an MPI_Alltoallv of
 * the same blocks moves, so the variable-count rows read it too; no root. */
void gc_shape_blocks(const struct gc_layout *layout, double m, int root, double *pair_bytes,
                     struct gc_shape *out);

/* A message of m bytes from communicator rank root (the broadcast's); pair_bytes is not
 * read. */
void gc_shape_rooted(const struct gc_layout *layout, double m, int root, double *pair_bytes,
                     struct gc_shape *out);

#endif
