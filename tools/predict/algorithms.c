/* The operations gridcoll-predict knows, each row built from the collective's X-macro
 * list, so an algorithm added to shim/<op>/<op>_algorithms.h appears here unchanged. */
#include <string.h>

#include "alltoall_algorithms.h"
#include "alltoall_predict.h"
#include "bcast_algorithms.h"
#include "bcast_predict.h"
#include "predict.h"

/* The all-to-all's predictions take no root: adapt them to predict_fn, one per entry. */
#define GC_A2A_ADAPT(name, description)                                                    \
  static double a2a_##name(const struct gc_network *net, const struct gc_layout *layout,  \
                           double m, int root, const char **model)                        \
  {                                                                                        \
    (void)root;                                                                            \
    return gc_alltoall_##name##_predict(net, layout, m, model);                            \
  }
GC_ALLTOALL_ALGORITHMS(GC_A2A_ADAPT)
#undef GC_A2A_ADAPT

static const struct algorithm alltoall_algorithms[] = {
#define GC_A2A_ENTRY(name, description) {#name, a2a_##name},
    GC_ALLTOALL_ALGORITHMS(GC_A2A_ENTRY)
#undef GC_A2A_ENTRY
};

static const struct algorithm bcast_algorithms[] = {
#define GC_BCAST_ENTRY(name, kind, description) {#name, gc_bcast_##name##_predict},
    GC_BCAST_ALGORITHMS(GC_BCAST_ENTRY)
#undef GC_BCAST_ENTRY
};

#define NALLTOALL ((int)(sizeof alltoall_algorithms / sizeof alltoall_algorithms[0]))

static const struct op ops[] = {
    {"alltoall", alltoall_algorithms, NALLTOALL, 0},
    {"bcast", bcast_algorithms, (int)(sizeof bcast_algorithms / sizeof bcast_algorithms[0]), 1},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

const struct op *predict_find_op(const char *name)
{
  const struct op *op = NULL;
  for (int i = 0; i < NOPS; i++)
    if (strcmp(ops[i].name, name) == 0)
      op = &ops[i];
  return op;
}

const struct gc_config_names *predict_config_names(void)
{
  static const char *a2a_names[NALLTOALL + 2] = {"auto"};
  static const struct gc_config_names names = {a2a_names, NULL};
  for (int i = 0; i < NALLTOALL; i++)
    a2a_names[i + 1] = alltoall_algorithms[i].name;
  return &names;
}
