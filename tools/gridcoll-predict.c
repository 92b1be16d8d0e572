/* gridcoll-predict: what every algorithm of a collective would cost, and what `auto`
 * would choose, for a configuration and a communicator layout. No MPI: it calls the same
 * pure code the library calls at run time (layout, network view, _predict functions,
 * gc_select), so its table is exactly what the log's `predicted_s` would show.
 *
 *   gridcoll-predict -c examples/grid5000.cfg -l 32,32 -s 1KiB:1MiB
 *
 * Operations come from one table (`ops` below), which reads each collective's pure rows
 * (shim/<op>/<op>_algorithms.c, the rows the library's table points at), so an algorithm
 * added there appears here unchanged. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alltoall_algorithms.h"
#include "alltoall_predict.h"
#include "bcast_algorithms.h"
#include "bcast_predict.h"
#include "config.h"
#include "layout.h"
#include "model.h"
#include "network.h"
#include "select.h"
#include "topology.h"
#include "units.h"

#define PROG "gridcoll-predict"
#define MAX_SIZES 256

/* One operation: its pure rows, read through two accessors (the all-to-all's formulas
 * take no root). */
typedef double (*predict_fn)(int algorithm, const struct gc_network *net,
                             const struct gc_layout *layout, double m, int root,
                             const char **model);

static double alltoall_predict(int a, const struct gc_network *net,
                               const struct gc_layout *layout, double m, int root,
                               const char **model)
{
  (void)root;
  return gc_alltoall_models[a].predict(net, layout, m, model);
}

static double bcast_predict(int a, const struct gc_network *net, const struct gc_layout *layout,
                            double m, int root, const char **model)
{
  return gc_bcast_models[a].predict(net, layout, m, root, model);
}

static const char *alltoall_name(int a)
{
  return gc_alltoall_models[a].about.name;
}

static const char *bcast_name(int a)
{
  return gc_bcast_models[a].about.name;
}

struct op {
  const char *name;
  const char *(*algorithm)(int a);
  predict_fn predict;
  int n;
  int has_root;
};

static const struct op ops[] = {
    {"alltoall", alltoall_name, alltoall_predict, GC_ALLTOALL_LAST, 0},
    {"bcast", bcast_name, bcast_predict, GC_BCAST_LAST, 1},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

static void usage(FILE *f)
{
  fprintf(f,
          "usage: " PROG " [-c FILE] [-o alltoall|bcast] (-l N1,N2,... | -n N) [-r ROOT]\n"
          "                        [-s SIZES] [--linear] [--csv]\n"
          "Predicted time of every algorithm of a collective, and what `auto` chooses.\n"
          "  -c, --config FILE  gridcoll configuration (default: built-in defaults)\n"
          "  -o, --op OP        alltoall (default) or bcast\n"
          "  -l, --layout LIST  processes per cluster, in the configuration's cluster order\n"
          "                     (0 leaves a cluster out); \"32,32\"\n"
          "  -n, --ranks N      N ranks placed by the configuration's rank ranges\n"
          "  -r, --root R       broadcast root (default 0)\n"
          "  -s, --sizes SIZES  LO:HI (powers of 2 from LO) or a list; \"1KiB:1MiB\" (default),\n"
          "                     \"0,1KiB,64 kB\"; units B kB MB KiB MiB GiB\n"
          "      --linear       add the contention-free linear model (000 Eq. 1) of cluster 0\n"
          "      --csv          comma-separated output, times in seconds\n"
          "  -h, --help         this text\n");
}

static void bad_usage(const char *fmt, const char *arg)
{
  fprintf(stderr, PROG ": ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  usage(stderr);
  exit(2);
}

static double parse_size(const char *text)
{
  double v;
  char err[256];
  if (gc_units_parse(GC_UNIT_BYTES, GC_BOUND_NONNEG, text, &v, err, sizeof err) != 0)
    bad_usage("-s: %s", err);
  if (v > 1e15 || v != floor(v))
    bad_usage("-s: \"%s\" is not a whole number of bytes below 1 PB", text);
  return v;
}

/* "LO:HI" or "A,B,C" into sizes[]; returns the count. */
static int parse_sizes(const char *text, double *sizes)
{
  char buf[1024];
  if (strlen(text) >= sizeof buf)
    bad_usage("-s: \"%s\" is too long", text);
  strcpy(buf, text);
  char *colon = strchr(buf, ':');
  int n = 0;
  if (colon) {
    *colon = '\0';
    double lo = parse_size(buf), hi = parse_size(colon + 1);
    if (lo <= 0 || hi < lo)
      bad_usage("-s: a range LO:HI needs 0 < LO <= HI, got \"%s\"", text);
    for (double m = lo; m <= hi && n < MAX_SIZES; m *= 2)
      sizes[n++] = m;
    return n;
  }
  for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    if (n == MAX_SIZES)
      bad_usage("-s: more than 256 sizes in \"%s\"", text);
    sizes[n++] = parse_size(item);
  }
  if (n == 0)
    bad_usage("-s: no size in \"%s\"", text);
  return n;
}

static int parse_count(const char *text, const char *flag, int min)
{
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || end == text || *end || v < min || v > 1 << 24) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s: expected a whole number >= %d, got \"%%s\"", flag, min);
    bad_usage(msg, text);
  }
  return (int)v;
}

/* World cluster id of every rank. -l: blocks of the given sizes, cluster c's global id is
 * c (beyond the configured clusters the defaults apply, as for the library's unmatched
 * ranks). -n: the configuration's rank ranges; unmatched ranks form clusters of their
 * own (the library's rule), but host globs cannot be evaluated here. */
static int *place_ranks(const struct gc_config *cfg, const char *layout_arg, int nranks, int *size)
{
  int *table = NULL;
  if (layout_arg) {
    int counts[4096], k = 0, total = 0;
    char buf[4096];
    if (strlen(layout_arg) >= sizeof buf)
      bad_usage("-l: \"%s\" is too long", layout_arg);
    strcpy(buf, layout_arg);
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
      if (k == 4096)
        bad_usage("-l: too many clusters in \"%s\"", layout_arg);
      counts[k] = parse_count(item, "-l", 0);
      total += counts[k++];
    }
    if (k == 0 || total == 0)
      bad_usage("-l: expected processes per cluster such as \"32,32\", got \"%s\"", layout_arg);
    if (cfg->nclusters > 0 && k != cfg->nclusters) {
      fprintf(stderr, PROG ": -l: %s has %d clusters, -l gives %d sizes (use 0 to leave one out)\n",
              cfg->path, cfg->nclusters, k);
      exit(2);
    }
    if (!(table = malloc(sizeof *table * (size_t)total)))
      return NULL;
    for (int c = 0, r = 0; c < k; c++)
      for (int i = 0; i < counts[c]; i++)
        table[r++] = c;
    *size = total;
    return table;
  }
  if (!(table = malloc(sizeof *table * (size_t)nranks)))
    return NULL;
  int unmatched = 0;
  for (int r = 0; r < nranks; r++) {
    char err[GC_ERR_MAX];
    /* Node topology: every rank on one node, one cluster. */
    int c = cfg->nclusters == 0 ? 0 : gc_topology_cluster_of(cfg, r, "", err, sizeof err);
    if (c == -2) {
      fprintf(stderr, PROG ": %s\n", err);
      exit(2);
    }
    if (c == GC_CLUSTER_NONE) {
      for (int i = 0; i < cfg->nclusters; i++)
        if (cfg->clusters[i].nhosts > 0) {
          fprintf(stderr, PROG ": %s places cluster '%s' by host names, which -n cannot "
                          "resolve: give processes per cluster with -l\n",
                  cfg->path, cfg->clusters[i].name);
          exit(2);
        }
      c = cfg->nclusters + r;
      unmatched++;
    }
    table[r] = c;
  }
  if (unmatched)
    fprintf(stderr, PROG ": %d rank(s) matched by no cluster: each forms a cluster of its own\n",
            unmatched);
  *size = nranks;
  return table;
}

static const char *cluster_name(const struct gc_config *cfg, int global, char *buf, size_t len)
{
  if (global >= 0 && global < cfg->nclusters)
    return cfg->clusters[global].name;
  snprintf(buf, len, "c%d", global);
  return buf;
}

int main(int argc, char **argv)
{
  const char *config_path = NULL, *op_name = "alltoall", *layout_arg = NULL;
  const char *sizes_arg = "1KiB:1MiB";
  int nranks = 0, root = 0, csv = 0, linear = 0;
  enum { OPT_CSV = 256, OPT_LINEAR };
  static const struct option longopts[] = {
      {"config", required_argument, NULL, 'c'}, {"op", required_argument, NULL, 'o'},
      {"layout", required_argument, NULL, 'l'}, {"ranks", required_argument, NULL, 'n'},
      {"root", required_argument, NULL, 'r'},   {"sizes", required_argument, NULL, 's'},
      {"csv", no_argument, NULL, OPT_CSV},      {"linear", no_argument, NULL, OPT_LINEAR},
      {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
  opterr = 0;
  for (int ch; (ch = getopt_long(argc, argv, ":c:o:l:n:r:s:h", longopts, NULL)) != -1;) {
    switch (ch) {
    case 'c': config_path = optarg; break;
    case 'o': op_name = optarg; break;
    case 'l': layout_arg = optarg; break;
    case 'n': nranks = parse_count(optarg, "-n", 1); break;
    case 'r': root = parse_count(optarg, "-r", 0); break;
    case 's': sizes_arg = optarg; break;
    case OPT_CSV: csv = 1; break;
    case OPT_LINEAR: linear = 1; break;
    case 'h': usage(stdout); return 0;
    case ':': bad_usage("option %s needs a value", argv[optind - 1]); break;
    default: bad_usage("unknown option %s", argv[optind - 1]);
    }
  }
  if (optind < argc)
    bad_usage("unexpected argument \"%s\"", argv[optind]);
  if (!layout_arg == !nranks)
    bad_usage("%sgive the layout with exactly one of -l and -n", "");

  const struct op *op = NULL;
  for (int i = 0; i < NOPS; i++)
    if (strcmp(ops[i].name, op_name) == 0)
      op = &ops[i];
  if (!op)
    bad_usage("-o: expected alltoall or bcast, got \"%s\"", op_name);

  double sizes[MAX_SIZES];
  int nsizes = parse_sizes(sizes_arg, sizes);

  /* The loader checks algorithm names against the same rows the library uses. */
  const char *a2a_names[GC_ALLTOALL_LAST + 2] = {"auto"};
  for (int i = 0; i < GC_ALLTOALL_LAST; i++)
    a2a_names[i + 1] = alltoall_name(i);
  struct gc_config_names names = {a2a_names, NULL};
  struct gc_config cfg;
  char err[GC_ERR_MAX];
  gc_config_defaults(&cfg);
  if (config_path && gc_config_load(&cfg, config_path, &names, err, sizeof err) != 0) {
    fprintf(stderr, PROG ": %s\n", err);
    gc_config_free(&cfg);
    return 2;
  }

  int size = 0;
  int *table = place_ranks(&cfg, layout_arg, nranks, &size);
  struct gc_layout layout;
  struct gc_network net;
  if (!table || gc_layout_build(&layout, size, table) != 0) {
    fprintf(stderr, PROG ": out of memory\n");
    return 1;
  }
  free(table);
  if (gc_network_build(&net, &cfg, &layout) != 0) {
    fprintf(stderr, PROG ": out of memory\n");
    return 1;
  }
  if (op->has_root && root >= size) {
    char msg[64];
    snprintf(msg, sizeof msg, "%d", size);
    bad_usage("-r: the root must be below the communicator size %s", msg);
  }
  if (linear && layout.nclusters != 1) {
    fprintf(stderr, PROG ": --linear: the linear model (000 Eq. 1) is for one cluster; this "
                    "layout has %d\n", layout.nclusters);
    return 2;
  }

  /* Header: the layout and, per algorithm, the model that predicts it. */
  int n = op->n;
  const char *models[64] = {0};
  double predicted[64];
  int supported[64];
  const char *algo_names[64];
  if (n > 64)
    n = 64;
  for (int i = 0; i < n; i++) {
    algo_names[i] = op->algorithm(i);
    op->predict(i, &net, &layout, sizes[0], root, &models[i]);
  }
  if (!csv) {
    printf("# %s, %d processes in %d cluster(s):", op->name, size, layout.nclusters);
    for (int c = 0; c < layout.nclusters; c++) {
      char buf[32];
      printf(" %s %d", cluster_name(&cfg, layout.global_id[c], buf, sizeof buf),
             layout.cluster_size[c]);
    }
    printf("%s%s\n", config_path ? "; " : "; built-in defaults", config_path ? config_path : "");
    printf("# models:");
    for (int i = 0; i < n; i++)
      printf(" %s=%s", algo_names[i], models[i] ? models[i] : "none");
    if (linear)
      printf(" linear=%s", gc_model_name(GC_MODEL_HOCKNEY_LINEAR));
    printf("; times in seconds, - where an algorithm does not apply\n");
    printf("%12s", "bytes");
    for (int i = 0; i < n; i++)
      printf(" %12s", algo_names[i]);
    if (linear)
      printf(" %12s", "linear");
    printf("  auto\n");
  } else {
    printf("bytes");
    for (int i = 0; i < n; i++)
      printf(",%s", algo_names[i]);
    printf("%s,auto\n", linear ? ",linear" : "");
  }

  for (int s = 0; s < nsizes; s++) {
    for (int i = 0; i < n; i++) {
      const char *model = NULL;
      predicted[i] = op->predict(i, &net, &layout, sizes[s], root, &model);
      /* The library's own algorithm always runs; the others serve the call iff a model
       * applies (their _supports adds only MPI-side limits on counts). */
      supported[i] = i == GC_NATIVE || predicted[i] >= 0;
    }
    int choice = gc_select("auto", n, algo_names, supported, predicted);
    double lin = -1;
    if (linear && gc_model_alltoall_linear(size, (size_t)sizes[s], net.lan[0].alpha,
                                           net.lan[0].beta, &lin) != 0)
      lin = -1;
    printf(csv ? "%.0f" : "%12.0f", sizes[s]);
    for (int i = 0; i <= n - 1 + linear; i++) {
      double t = i < n ? predicted[i] : lin;
      if (csv)
        t >= 0 ? printf(",%.9g", t) : printf(",");
      else
        t >= 0 ? printf(" %12.6g", t) : printf(" %12s", "-");
    }
    printf(csv ? ",%s\n" : "  %s\n", algo_names[choice]);
  }

  gc_network_free(&net);
  gc_layout_free(&layout);
  gc_config_free(&cfg);
  return 0;
}
