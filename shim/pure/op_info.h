/* The operations gridcoll serves, as pure code knows them: pure C, no MPI.
 *
 * One row per collective, indexed by its id: what the configuration calls it (its group
 * in the file, its GRIDCOLL_<OP> variable), so that the loader and the environment layer
 * (config/) loop over the operations instead of naming each. The MPI side of an
 * operation (shim/op.h: struct gc_op, its wrappers and table) is indexed by the same id.
 * A new collective adds its id before GC_OP_LAST and its row to op_info.c. */
#ifndef GC_OP_INFO_H
#define GC_OP_INFO_H

/* The slot each operation has in the per-communicator state, the summary and the
 * configuration; the order is the configuration hash's (config_hash.c). */
enum gc_op_id { GC_OP_ALLTOALL, GC_OP_BCAST, GC_OP_ALLTOALLV, GC_OP_LAST };

struct gc_op_info {
  const char *name; /* the log's op column and the file's group: `alltoall = { ... };` */
  const char *env;  /* the variable that forces an algorithm: GRIDCOLL_ALLTOALL */
};

extern const struct gc_op_info gc_op_table[GC_OP_LAST];

/* The id of the operation called `name` (gc_op_table's), -1 when none is. */
int gc_op_find(const char *name);

#endif
