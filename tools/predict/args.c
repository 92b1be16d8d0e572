/* gridcoll-predict's command line: options, sizes and counts. A bad argument ends the
 * program with status 2 and the usage on stderr. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predict.h"
#include "units.h"

/* Every operation's name, joined by `sep` and, before the last, `last`. */
static const char *op_names(const char *sep, const char *last, char *buf, size_t len)
{
  buf[0] = '\0';
  for (int op = 0; op < GC_OP_LAST; op++) {
    size_t o = strlen(buf);
    snprintf(buf + o, len - o, "%s%s", op == 0 ? "" : op == GC_OP_LAST - 1 ? last : sep,
             gc_op_table[op].name);
  }
  return buf;
}

const struct gc_op_info *predict_find_op(const char *name)
{
  char msg[256], names[128];
  int op = gc_op_find(name);
  if (op < 0) {
    snprintf(msg, sizeof msg, "-o: expected %s, got \"%%s\"",
             op_names(", ", " or ", names, sizeof names));
    predict_bad_usage(msg, name);
  }
  return &gc_op_table[op];
}

void predict_usage(FILE *f)
{
  char names[128];
  fprintf(f, "usage: " PROG " [-c FILE] [-o %s] (-l N1,N2,... | -n N)\n",
          op_names("|", "|", names, sizeof names));
  fprintf(f,
          "                        [-r ROOT] [-s SIZES] [--linear] [--bound] [--csv]\n"
          "Predicted time of every algorithm of a collective, and what `auto` chooses.\n"
          "  -c, --config FILE  gridcoll configuration (default: built-in defaults)\n");
  fprintf(f, "  -o, --op OP        %s (default: the first)\n",
          op_names(", ", " or ", names, sizeof names));
  fprintf(f,
          "  -l, --layout LIST  processes per cluster, in the configuration's cluster order\n"
          "                     (0 leaves a cluster out); \"32,32\"\n"
          "  -n, --ranks N      N ranks placed by the configuration's rank ranges\n"
          "  -r, --root R       the root, for an operation with one (default 0)\n"
          "  -s, --sizes SIZES  m (the message, or every block): LO:HI (powers of 2 from LO)\n"
          "                     or a list; \"1KiB:1MiB\" (default), \"0,1KiB,64 kB\";\n"
          "                     units B kB MB KiB MiB GiB\n"
          "      --linear       add the contention-free linear model (000 Eq. 1) of cluster 0\n"
          "      --bound        add the all-to-all relay planner's bound: when its last\n"
          "                     wide-area link ends, relayed where that helps (issue 27)\n"
          "      --csv          comma-separated output, times in seconds\n"
          "  -h, --help         this text\n");
}

_Noreturn void predict_bad_usage(const char *fmt, const char *arg)
{
  fprintf(stderr, PROG ": ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  predict_usage(stderr);
  exit(2);
}

int predict_parse_args(int argc, char **argv, struct predict_args *a)
{
  enum { OPT_CSV = 256, OPT_LINEAR, OPT_BOUND };
  static const struct option longopts[] = {
      {"config", required_argument, NULL, 'c'}, {"op", required_argument, NULL, 'o'},
      {"layout", required_argument, NULL, 'l'}, {"ranks", required_argument, NULL, 'n'},
      {"root", required_argument, NULL, 'r'},   {"sizes", required_argument, NULL, 's'},
      {"csv", no_argument, NULL, OPT_CSV},      {"linear", no_argument, NULL, OPT_LINEAR},
      {"bound", no_argument, NULL, OPT_BOUND},  {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  *a = (struct predict_args){.op_name = gc_op_table[0].name, .sizes_arg = "1KiB:1MiB"};
  opterr = 0;
  for (int ch; (ch = getopt_long(argc, argv, ":c:o:l:n:r:s:h", longopts, NULL)) != -1;) {
    switch (ch) {
    case 'c': a->config_path = optarg; break;
    case 'o': a->op_name = optarg; break;
    case 'l': a->layout_arg = optarg; break;
    case 'n': a->nranks = predict_parse_count(optarg, "-n", 1); break;
    case 'r': a->root = predict_parse_count(optarg, "-r", 0); break;
    case 's': a->sizes_arg = optarg; break;
    case OPT_CSV: a->csv = 1; break;
    case OPT_LINEAR: a->linear = 1; break;
    case OPT_BOUND: a->bound = 1; break;
    case 'h': predict_usage(stdout); return 1;
    case ':': predict_bad_usage("option %s needs a value", argv[optind - 1]); break;
    default: predict_bad_usage("unknown option %s", argv[optind - 1]);
    }
  }
  if (optind < argc)
    predict_bad_usage("unexpected argument \"%s\"", argv[optind]);
  if (!a->layout_arg == !a->nranks)
    predict_bad_usage("%sgive the layout with exactly one of -l and -n", "");
  return 0;
}

static double parse_size(const char *text)
{
  double v;
  char err[256];
  if (gc_units_parse(GC_UNIT_BYTES, GC_BOUND_NONNEG, text, &v, err, sizeof err) != 0)
    predict_bad_usage("-s: %s", err);
  if (v > 1e15 || v > floor(v)) /* a fraction left over */
    predict_bad_usage("-s: \"%s\" is not a whole number of bytes below 1 PB", text);
  return v;
}

int predict_parse_sizes(const char *text, double *sizes)
{
  char buf[1024];
  if (strlen(text) >= sizeof buf)
    predict_bad_usage("-s: \"%s\" is too long", text);
  strcpy(buf, text);
  char *colon = strchr(buf, ':');
  int n = 0;
  if (colon) {
    *colon = '\0';
    double lo = parse_size(buf), hi = parse_size(colon + 1);
    if (lo <= 0 || hi < lo)
      predict_bad_usage("-s: a range LO:HI needs 0 < LO <= HI, got \"%s\"", text);
    for (double m = lo; m <= hi && n < MAX_SIZES; m *= 2)
      sizes[n++] = m;
    return n;
  }
  for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    if (n == MAX_SIZES)
      predict_bad_usage("-s: more than 256 sizes in \"%s\"", text);
    sizes[n++] = parse_size(item);
  }
  if (n == 0)
    predict_bad_usage("-s: no size in \"%s\"", text);
  return n;
}

int predict_parse_count(const char *text, const char *flag, int min)
{
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || end == text || *end || v < min || v > 1 << 24) {
    char msg[128];
    snprintf(msg, sizeof msg, "%s: expected a whole number >= %d, got \"%%s\"", flag, min);
    predict_bad_usage(msg, text);
  }
  return (int)v;
}
