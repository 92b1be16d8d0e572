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

const char *gc_record_algorithm_name(const struct gc_record *rec)
{
  switch (rec->entry) {
  case GC_ENTRY_NONBLOCKING:
    return "native-nb";
  case GC_ENTRY_PERSISTENT:
    return "native-persistent";
  default:
    return gc_algorithm_name(rec->op, rec->algorithm);
  }
}
