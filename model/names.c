/* The model names written into the logs, and the status messages.  One table with
 * designated initializers (UCC style) so that id, name and source stay together. */
#include "model.h"

#include <string.h>

static const struct gc_model_info models[GC_MODEL_LAST] = {
  [GC_MODEL_HOCKNEY_P2P] = {.id = GC_MODEL_HOCKNEY_P2P, .name = "hockney-p2p",
                            .source = "Hockney", .desc = "alpha + m*beta"},
  [GC_MODEL_HOCKNEY_LINEAR] = {.id = GC_MODEL_HOCKNEY_LINEAR, .name = "hockney-linear",
                               .source = "000 Eq. 1, Prop. 1",
                               .desc = "(n-1)(alpha + m*beta), the 1-port lower bound"},
  [GC_MODEL_SIGNATURE] = {.id = GC_MODEL_SIGNATURE, .name = "signature",
                          .source = "000 Eq. 4, 5",
                          .desc = "(n-1)(alpha + m*beta*gamma [+ delta from M on])"},
  [GC_MODEL_NAIVE_GRID] = {.id = GC_MODEL_NAIVE_GRID, .name = "naive-grid",
                           .source = "000 Eq. 6",
                           .desc = "native all-to-all: slowest cluster + remote messages"},
  [GC_MODEL_LG_GRID] = {.id = GC_MODEL_LG_GRID, .name = "lg-grid", .source = "000 Eq. 7",
                        .desc = "LG: slowest cluster + ceil(b/a)(alpha_w + a*m*beta_w)"},
  [GC_MODEL_LG_REFINED] = {.id = GC_MODEL_LG_REFINED, .name = "lg-refined",
                           .source = "000 Eq. 7, SPEC section 3",
                           .desc = "LG counting staged bytes and partial last blocks"},
  [GC_MODEL_BINOMIAL_HOCKNEY] = {.id = GC_MODEL_BINOMIAL_HOCKNEY, .name = "binomial-hockney",
                                 .source = "Hockney",
                                 .desc = "ceil(log2 P)(alpha + m*beta)"},
  [GC_MODEL_BINOMIAL_LOGGP] = {.id = GC_MODEL_BINOMIAL_LOGGP, .name = "binomial-loggp",
                               .source = "003 Sec. 3",
                               .desc = "ceil(log2 P)(L + 2o + (m-1)G)"},
  [GC_MODEL_FLAT_TREE] = {.id = GC_MODEL_FLAT_TREE, .name = "flat-tree-001",
                          .source = "001 Eq. 3", .desc = "max_i W[root][i]"},
  [GC_MODEL_TREE_001] = {.id = GC_MODEL_TREE_001, .name = "tree-001", .source = "001 Eq. 2",
                         .desc = "T(i) = T(parent) + (c-1)(o_s+g) + L + o_r, max over i"},
  [GC_MODEL_TREE_001_POSITION] = {.id = GC_MODEL_TREE_001_POSITION,
                                  .name = "tree-001-position", .source = "001 Eq. 2, refined",
                                  .desc = "k-th child waits (k-1)(o_s+g)"},
  [GC_MODEL_HETERO_P2P] = {.id = GC_MODEL_HETERO_P2P, .name = "hetero-004-p2p",
                           .source = "004 Eq. 5",
                           .desc = "C_i + t_i*M + C_j + t_j*M + M/beta_ij"},
  [GC_MODEL_HETERO_ONE_TO_MANY] = {.id = GC_MODEL_HETERO_ONE_TO_MANY,
                                   .name = "hetero-004-one-to-many", .source = "004 Eq. 6",
                                   .desc = "flat tree, serial above S, parallel at or below"},
  [GC_MODEL_HETERO_PAIRS] = {.id = GC_MODEL_HETERO_PAIRS, .name = "hetero-004-pairs",
                             .source = "004 Eq. 7", .desc = "disjoint pairs: max of pairs"},
  [GC_MODEL_HETERO_BCAST] = {.id = GC_MODEL_HETERO_BCAST, .name = "hetero-004-bcast",
                             .source = "004 Eq. 8",
                             .desc = "max root-to-leaf path sum + Gamma + tau*M"},
};

const struct gc_model_info *gc_model_info(enum gc_model_id id)
{
  if ((int)id < 0 || id >= GC_MODEL_LAST)
    return NULL;
  return &models[id];
}

const char *gc_model_name(enum gc_model_id id)
{
  const struct gc_model_info *i = gc_model_info(id);
  return i ? i->name : "?";
}

int gc_model_by_name(const char *name)
{
  if (!name)
    return GC_MODEL_EINVAL;
  for (int i = 0; i < GC_MODEL_LAST; i++)
    if (strcmp(models[i].name, name) == 0)
      return i;
  return GC_MODEL_EINVAL;
}

const char *gc_model_strerror(int err)
{
  switch (err) {
  case GC_MODEL_OK:
    return "success";
#define GC_MODEL_XX(name, code, msg) \
  case GC_MODEL_##name:              \
    return msg;
    GC_MODEL_ERRNO_MAP(GC_MODEL_XX)
#undef GC_MODEL_XX
  }
  return "unknown error";
}
