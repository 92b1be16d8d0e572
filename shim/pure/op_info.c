/* The table of operations (op_info.h). */
#include "op_info.h"

#include <string.h>

#include "alltoall_algorithms.h"
#include "alltoallv_algorithms.h"
#include "bcast_algorithms.h"
#include "config.h"

const struct gc_op_info gc_op_table[GC_OP_LAST] = {
    [GC_OP_ALLTOALL] = {.name = "alltoall",
                        .env = "GRIDCOLL_ALLTOALL",
                        .rows = gc_alltoall_models,
                        .nrows = GC_ALLTOALL_LAST,
                        .shape = gc_shape_blocks},
    [GC_OP_BCAST] = {.name = "bcast",
                     .env = "GRIDCOLL_BCAST",
                     .rows = gc_bcast_models,
                     .nrows = GC_BCAST_LAST,
                     .has_root = 1,
                     .shape = gc_shape_rooted},
    /* Even blocks of m bytes: the per-cluster-pair totals its rows read. */
    [GC_OP_ALLTOALLV] = {.name = "alltoallv",
                         .env = "GRIDCOLL_ALLTOALLV",
                         .rows = gc_alltoallv_models,
                         .nrows = GC_ALLTOALLV_LAST,
                         .shape = gc_shape_blocks},
};

int gc_op_find(const char *name)
{
  for (int op = 0; op < GC_OP_LAST; op++)
    if (strcmp(gc_op_table[op].name, name) == 0)
      return op;
  return -1;
}

void gc_op_config_names(struct gc_config_names *names)
{
  static const char *choices[GC_OP_LAST][GC_MAX_ALGORITHMS + 2];
  for (int op = 0; op < GC_OP_LAST; op++) {
    const struct gc_op_info *o = &gc_op_table[op];
    int n = o->nrows < GC_MAX_ALGORITHMS ? o->nrows : GC_MAX_ALGORITHMS;
    choices[op][0] = "auto";
    for (int i = 0; i < n; i++)
      choices[op][i + 1] = o->rows[i].about.name;
    choices[op][n + 1] = NULL;
    names->op[op] = choices[op];
  }
}
