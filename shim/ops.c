/* The list of operations (ops.h). */
#include "ops.h"

#include "alltoall.h"
#include "alltoallv.h"
#include "bcast.h"

static const struct gc_op *const ops[GC_OP_LAST] = {
    [GC_OP_ALLTOALL] = &gc_alltoall_op,
    [GC_OP_BCAST] = &gc_bcast_op,
    [GC_OP_ALLTOALLV] = &gc_alltoallv_op,
};

const struct gc_op *gc_op_of(int id)
{
  return ops[id];
}

const char *gc_op_row_name(int id, int algorithm)
{
  if (id < 0 || id >= GC_OP_LAST)
    return "?";
  const struct gc_op *op = ops[id];
  if (algorithm < 0)
    return op->name;
  return algorithm < op->nalgorithms ? op->algorithms[algorithm].about->name : "?";
}
