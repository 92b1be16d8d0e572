/* gridcoll-predict's output: a header (the layout and, per algorithm, the model that
 * predicts it), then one row per size with every algorithm's time and `auto`'s choice,
 * chosen by the library's own gc_select from the same predictions. Every row of the
 * operation's pure table is asked alike, on the shape the operation makes of the size
 * and root (op_info.h), each checked as the dispatch checks it (prediction.h): a time
 * that is not one prints "-". */
#include <stdio.h>
#include <stdlib.h>

#include "model.h"
#include "predict.h"
#include "prediction.h"
#include "relay_plan.h"
#include "select.h"
#include "shape.h"

#define MAX_ALGORITHMS 64

static int algorithm_count(const struct gc_op_info *op)
{
  return op->nrows > MAX_ALGORITHMS ? MAX_ALGORITHMS : op->nrows;
}

/* Every row's prediction (and model) for a call of m bytes from the -r root. */
static void predict_all(const struct predict_args *a, const struct gc_op_info *op,
                        const struct gc_network *net, const struct gc_layout *layout, double m,
                        double *predicted, const char **models)
{
  size_t k = (size_t)layout->nclusters;
  double *pair_bytes = malloc(sizeof(double) * k * k);
  struct gc_shape shape;
  if (!pair_bytes) {
    fprintf(stderr, PROG ": out of memory\n");
    exit(1);
  }
  op->shape(layout, m, a->root, pair_bytes, &shape);
  for (int i = 0; i < algorithm_count(op); i++) {
    models[i] = NULL;
    predicted[i] = gc_prediction_checked(op->rows[i].predict(net, layout, &shape, &models[i]));
  }
  free(pair_bytes);
}

static const char *cluster_name(const struct gc_config *cfg, int global, char *buf, size_t len)
{
  if (global >= 0 && global < cfg->nclusters)
    return cfg->clusters[global].name;
  snprintf(buf, len, "c%d", global);
  return buf;
}

void predict_print_header(const struct predict_args *a, const struct gc_op_info *op,
                          const struct gc_config *cfg, const struct gc_network *net,
                          const struct gc_layout *layout, double m0)
{
  int n = algorithm_count(op);
  const char *models[MAX_ALGORITHMS];
  double predicted[MAX_ALGORITHMS];
  predict_all(a, op, net, layout, m0, predicted, models);
  if (a->csv) {
    printf("bytes");
    for (int i = 0; i < n; i++)
      printf(",%s", op->rows[i].about.name);
    printf("%s%s,auto\n", a->linear ? ",linear" : "", a->bound ? ",bound" : "");
    return;
  }
  printf("# %s, %d processes in %d cluster(s):", op->name, layout->size, layout->nclusters);
  for (int c = 0; c < layout->nclusters; c++) {
    char buf[32];
    printf(" %s %d", cluster_name(cfg, layout->global_id[c], buf, sizeof buf),
           layout->cluster_size[c]);
  }
  printf("%s%s\n", a->config_path ? "; " : "; built-in defaults",
         a->config_path ? a->config_path : "");
  printf("# models:");
  for (int i = 0; i < n; i++)
    printf(" %s=%s", op->rows[i].about.name, models[i] ? models[i] : "none");
  if (a->linear)
    printf(" linear=%s", gc_model_name(GC_MODEL_HOCKNEY_LINEAR));
  if (a->bound)
    printf(" bound=relay-planner");
  printf("; times in seconds, - where an algorithm does not apply\n");
  printf("%12s", "bytes");
  for (int i = 0; i < n; i++)
    printf(" %12s", op->rows[i].about.name);
  if (a->linear)
    printf(" %12s", "linear");
  if (a->bound)
    printf(" %12s", "bound");
  printf("  auto\n");
}

/* The relay planner's bound (relay_plan.h) for blocks of m bytes, from the view's
 * scratch as the relay row takes it; -1 where it cannot plan. */
static double relay_bound(const struct gc_network *net, double m)
{
  struct gc_alltoall_relay_plan p;
  size_t mark = gc_scratch_mark(net->grid.scratch);
  double t = gc_alltoall_relay_plan_take(&net->grid, m, &p) == 0 ? p.bound : -1;
  gc_scratch_release(net->grid.scratch, mark);
  return gc_prediction_checked(t);
}

void predict_print_row(const struct predict_args *a, const struct gc_op_info *op,
                       const struct gc_network *net, const struct gc_layout *layout, double m)
{
  int n = algorithm_count(op);
  double predicted[MAX_ALGORITHMS];
  int supported[MAX_ALGORITHMS];
  const char *names[MAX_ALGORITHMS], *models[MAX_ALGORITHMS];
  predict_all(a, op, net, layout, m, predicted, models);
  for (int i = 0; i < n; i++) {
    names[i] = op->rows[i].about.name;
    /* The library's own algorithm always runs; the others serve the call iff a model
     * applies (their _supports adds only MPI-side limits on counts). */
    supported[i] = i == GC_NATIVE || predicted[i] >= 0;
  }
  int choice = gc_select("auto", n, names, supported, predicted);
  double lin = -1;
  if (a->linear && gc_model_alltoall_linear(layout->size, (size_t)m, net->lan[0].alpha,
                                            net->lan[0].beta, &lin) != 0)
    lin = -1;
  lin = gc_prediction_checked(lin);
  double extra[2] = {lin, relay_bound(net, m)};
  printf(a->csv ? "%.0f" : "%12.0f", m);
  for (int i = 0; i < n + a->linear + a->bound; i++) {
    double t = i < n ? predicted[i] : extra[i - n + !a->linear];
    if (a->csv)
      t >= 0 ? printf(",%.9g", t) : printf(",");
    else
      t >= 0 ? printf(" %12.6g", t) : printf(" %12s", "-");
  }
  printf(a->csv ? ",%s\n" : "  %s\n", names[choice]);
}
