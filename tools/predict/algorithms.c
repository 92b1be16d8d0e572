/* The operations gridcoll-predict knows, read from each collective's pure rows
 * (shim/<op>/pure/<op>_algorithms.c, the rows the library's own table points at), so an
 * algorithm added there appears here unchanged. */
#include <string.h>

#include "alltoall_algorithms.h"
#include "alltoallv_algorithms.h"
#include "bcast_algorithms.h"
#include "predict.h"

/* The all-to-all's formulas take no root: one adapter per row, reached by index. */
static double a2a_predict(int a, const struct gc_network *net, const struct gc_layout *layout,
                          double m, const char **model)
{
  return gc_alltoall_models[a].predict(net, layout, m, model);
}

static double a2a_native(const struct gc_network *net, const struct gc_layout *layout,
                         double m, int root, const char **model)
{
  (void)root;
  return a2a_predict(GC_ALLTOALL_NATIVE, net, layout, m, model);
}

static double a2a_lg(const struct gc_network *net, const struct gc_layout *layout, double m,
                     int root, const char **model)
{
  (void)root;
  return a2a_predict(GC_ALLTOALL_LG, net, layout, m, model);
}

static struct algorithm alltoall_algorithms[GC_ALLTOALL_LAST] = {
    [GC_ALLTOALL_NATIVE] = {.predict = a2a_native},
    [GC_ALLTOALL_LG] = {.predict = a2a_lg},
};
_Static_assert(GC_ALLTOALL_LAST == 2, "gridcoll-predict: give the new all-to-all row an adapter");

static struct algorithm bcast_algorithms[GC_BCAST_LAST];

static struct op ops[] = {
    {"alltoall", alltoall_algorithms, GC_ALLTOALL_LAST, 0},
    {"bcast", bcast_algorithms, GC_BCAST_LAST, 1},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

/* Names and the broadcast's formulas come straight from the rows. */
static void fill(void)
{
  for (int a = 0; a < GC_ALLTOALL_LAST; a++)
    alltoall_algorithms[a].name = gc_alltoall_models[a].about.name;
  for (int a = 0; a < GC_BCAST_LAST; a++) {
    bcast_algorithms[a].name = gc_bcast_models[a].about.name;
    bcast_algorithms[a].predict = gc_bcast_models[a].predict;
  }
}

const struct op *predict_find_op(const char *name)
{
  fill();
  for (int i = 0; i < NOPS; i++)
    if (strcmp(ops[i].name, name) == 0)
      return &ops[i];
  return NULL;
}

const struct gc_config_names *predict_config_names(void)
{
  static const char *a2a_names[GC_ALLTOALL_LAST + 2] = {"auto"};
  static const char *a2av_names[GC_ALLTOALLV_LAST + 2] = {"auto"};
  static const struct gc_config_names names = {.op = {[GC_OP_ALLTOALL] = a2a_names,
                                                      [GC_OP_ALLTOALLV] = a2av_names}};
  fill();
  for (int i = 0; i < GC_ALLTOALL_LAST; i++)
    a2a_names[i + 1] = gc_alltoall_models[i].about.name;
  for (int i = 0; i < GC_ALLTOALLV_LAST; i++)
    a2av_names[i + 1] = gc_alltoallv_models[i].about.name;
  return &names;
}
