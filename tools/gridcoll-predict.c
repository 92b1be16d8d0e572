/* gridcoll-predict: what every algorithm of a collective would cost, and what `auto`
 * would choose, for a configuration and a communicator layout. No MPI: it calls the same
 * pure code the library calls at run time (layout, network view, _predict functions,
 * gc_select), so its table is exactly what the log's `predicted_s` would show.
 *
 *   gridcoll-predict -c examples/grid5000.cfg -l 32,32 -s 1KiB:1MiB
 *
 * The steps, each in tools/predict/: read the arguments and find the operation in the
 * library's pure table of operations (args.c; op_info.h: its rows, the collective's own
 * pure table, so that an algorithm added to shim/<op>/pure/<op>_algorithms.c appears here
 * unchanged), load the configuration, place the ranks into clusters (ranks.c), build the
 * layout and network view, print the header and one row per size (table.c). */
#include <stdio.h>
#include <stdlib.h>

#include "predict.h"

/* The configuration, checked against the algorithm names the library knows; exits 2. */
static void load_config(const char *path, struct gc_config *cfg)
{
  char err[GC_ERR_MAX];
  struct gc_config_names names;
  gc_op_config_names(&names);
  gc_config_defaults(cfg);
  if (path && gc_config_load(cfg, path, &names, err, sizeof err) != 0) {
    fprintf(stderr, PROG ": %s\n", err);
    gc_config_free(cfg);
    exit(2);
  }
}

/* The layout and network view of the ranks -l or -n describes; exits 1 out of memory. */
static void build_view(const struct predict_args *a, const struct gc_config *cfg,
                       struct gc_layout *layout, struct gc_network *net)
{
  int size = 0;
  int *table = predict_place_ranks(cfg, a->layout_arg, a->nranks, &size);
  if (!table || gc_layout_build(layout, size, table) != 0) {
    fprintf(stderr, PROG ": out of memory\n");
    exit(1);
  }
  free(table);
  if (gc_network_build(net, cfg, layout) != 0) {
    fprintf(stderr, PROG ": out of memory\n");
    exit(1);
  }
}

/* What needs the layout to check: the root's range, --linear's single cluster. */
static int check_view(const struct predict_args *a, const struct gc_op_info *op,
                      const struct gc_layout *layout)
{
  if (op->has_root && a->root >= layout->size) {
    char msg[64];
    snprintf(msg, sizeof msg, "%d", layout->size);
    predict_bad_usage("-r: the root must be below the communicator size %s", msg);
  }
  if (a->linear && layout->nclusters != 1) {
    fprintf(stderr, PROG ": --linear: the linear model (000 Eq. 1) is for one cluster; this "
                    "layout has %d\n", layout->nclusters);
    return 2;
  }
  return 0;
}

int main(int argc, char **argv)
{
  struct predict_args a;
  if (predict_parse_args(argc, argv, &a))
    return 0;
  const struct gc_op_info *op = predict_find_op(a.op_name);
  double sizes[MAX_SIZES];
  int nsizes = predict_parse_sizes(a.sizes_arg, sizes);

  struct gc_config cfg;
  struct gc_layout layout;
  struct gc_network net;
  load_config(a.config_path, &cfg);
  build_view(&a, &cfg, &layout, &net);
  int rc = check_view(&a, op, &layout);
  if (rc != 0)
    return rc;

  predict_print_header(&a, op, &cfg, &net, &layout, sizes[0]);
  for (int s = 0; s < nsizes; s++)
    predict_print_row(&a, op, &net, &layout, sizes[s]);

  gc_network_free(&net);
  gc_layout_free(&layout);
  gc_config_free(&cfg);
  return 0;
}
