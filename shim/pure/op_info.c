/* The table of operations (op_info.h). */
#include "op_info.h"

#include <string.h>

const struct gc_op_info gc_op_table[GC_OP_LAST] = {
    [GC_OP_ALLTOALL] = {.name = "alltoall", .env = "GRIDCOLL_ALLTOALL"},
    [GC_OP_BCAST] = {.name = "bcast", .env = "GRIDCOLL_BCAST"},
    [GC_OP_ALLTOALLV] = {.name = "alltoallv", .env = "GRIDCOLL_ALLTOALLV"},
};

int gc_op_find(const char *name)
{
  for (int op = 0; op < GC_OP_LAST; op++)
    if (strcmp(gc_op_table[op].name, name) == 0)
      return op;
  return -1;
}
