/* The operations gridcoll serves, by id: the one list of MPI descriptors a new
 * collective joins (with its id and pure row in shim/pure/op_info.h). Read by start-up
 * (the summary's row names); the per-call path never needs it, each wrapper hands its
 * own descriptor to the dispatch. */
#ifndef GC_OPS_H
#define GC_OPS_H

#include "op.h"

/* The descriptor of operation id (0 <= id < GC_OP_LAST). */
const struct gc_op *gc_op_of(int id);

/* gc_summary_namer: op id's name (algorithm < 0) or its algorithm's, "?" when none. */
const char *gc_op_row_name(int id, int algorithm);

#endif
