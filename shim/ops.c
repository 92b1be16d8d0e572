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

const char *const *gc_op_choices(int id)
{
  /* Filled once, at MPI_Init (start-up is single-threaded), from the tables. */
  static const char *choices[GC_OP_LAST][GC_MAX_ALGORITHMS + 2];
  const struct gc_op *op = ops[id];
  choices[id][0] = "auto";
  for (int i = 0; i < op->nalgorithms; i++)
    choices[id][i + 1] = op->algorithms[i].about->name;
  choices[id][op->nalgorithms + 1] = NULL;
  return choices[id];
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
