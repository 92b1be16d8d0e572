/* Names in the log and the summary. */
#include "log.h"
#include "select.h"

const char *gc_op_name(enum gc_op op)
{
  return op == GC_OP_ALLTOALL ? "alltoall" : op == GC_OP_BCAST ? "bcast" : "?";
}

const char *gc_algorithm_name(enum gc_op op, int algorithm)
{
  return op == GC_OP_ALLTOALL ? gc_alltoall_algorithm_name(algorithm)
                              : gc_bcast_algorithm_name(algorithm);
}
