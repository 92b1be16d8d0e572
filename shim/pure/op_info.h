/* The operations gridcoll serves, as pure code knows them: pure C, no MPI.
 *
 * One row per collective, indexed by its id: what the configuration calls it (its group
 * in the file, its GRIDCOLL_<OP> variable), its pure algorithm rows and how to make the
 * shape of a call its rows predict (shape.h). The loader and the environment layer
 * (config/) loop over these rows instead of naming each operation; gridcoll-predict
 * walks them, so a row added to an operation's pure table, or an operation added here,
 * appears there unchanged. The MPI side of an operation (shim/op.h: struct gc_op, its
 * wrappers and table) is indexed by the same id. A new collective adds its id before
 * GC_OP_LAST and its row to op_info.c. */
#ifndef GC_OP_INFO_H
#define GC_OP_INFO_H

#include "algorithm.h"

struct gc_layout;
struct gc_shape;
struct gc_config_names;

/* The slot each operation has in the per-communicator state, the summary and the
 * configuration; the order is the configuration hash's (config_hash.c). */
enum gc_op_id { GC_OP_ALLTOALL, GC_OP_BCAST, GC_OP_ALLTOALLV, GC_OP_LAST };

/* Rows of one table, at most; records and the summary are sized by it. Every library
 * table checks itself against it (_Static_assert beside the table). */
#define GC_MAX_ALGORITHMS 8

struct gc_op_info {
  const char *name; /* the log's op column, the file's group (`alltoall = { ... };`),
                       gridcoll-predict's -o */
  const char *env;  /* the variable that forces an algorithm: GRIDCOLL_ALLTOALL */
  const struct gc_model_row *rows; /* shim/<op>/pure/<op>_algorithms.c; [0]: the MPI
                                      library's own */
  int nrows;
  int has_root; /* its calls name a root (gridcoll-predict's -r) */
  /* The shape of a call of m bytes from root as the rows read it (shape.h:
   * gc_shape_blocks, gc_shape_rooted); pair_bytes: k*k doubles, the caller's. */
  void (*shape)(const struct gc_layout *layout, double m, int root, double *pair_bytes,
                struct gc_shape *out);
};

extern const struct gc_op_info gc_op_table[GC_OP_LAST];

/* The id of the operation called `name` (gc_op_table's), -1 when none is. */
int gc_op_find(const char *name);

/* Every operation's accepted names into *names (config.h): "auto", then its rows' names,
 * NULL-terminated, in static storage refilled by each call (call it single-threaded: at
 * MPI_Init, in a tool). What the loader checks a configured name against. */
void gc_op_config_names(struct gc_config_names *names);

#endif
