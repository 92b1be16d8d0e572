/* gridcoll-calibrate's command line. Every rank parses the same arguments, so all agree;
 * rank 0 alone speaks. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "units.h"

static void usage(FILE *f)
{
  fprintf(f,
          "usage: mpiexec -n N " PROG " [-c FILE | -C RANGES] [-o OUT] [-p XML] [-s LO:HI]\n"
          "                                [-r REPS] [-t SECONDS] [--curve LO:HI | --no-curve]\n"
          "                                [--no-native]\n"
          "       " PROG " --from-log -c FILE [-o OUT] LOG.csv...\n"
          "Measure alpha, beta inside every cluster, latency and bandwidth of one flow and of\n"
          "many flows between clusters, the all-to-all contention signature of every cluster;\n"
          "check every fit; write a gridcoll configuration (and a SimGrid platform).\n"
          "  -c, --config FILE   clusters (hosts or ranks) from this configuration\n"
          "  -C, --clusters R    one cluster per comma-separated rank range: \"0-1,2-3\"\n"
          "                      (neither: one cluster per host)\n"
          "  -o, --output OUT    file to write (default gridcoll.cfg)\n"
          "  -p, --platform XML  also write a SimGrid platform of the measured grid, and its\n"
          "                      host file XML's name with .hosts (smpirun -platform XML\n"
          "                      -hostfile XML.hosts runs the same ranks on it)\n"
          "      --from-log      refit -c FILE's network from the per-call logs of a run\n"
          "                      (GRIDCOLL_LOG files) and write the improved configuration\n"
          "  -s, --sizes LO:HI   message sizes, powers of 4 from LO (default 64B:1MiB)\n"
          "      --curve LO:HI   also measure every link's time over message size, powers of\n"
          "                      2 and their midpoints (default 1B:4MiB), written as its\n"
          "                      curve beside alpha and beta (where the MPI library changes\n"
          "                      protocol a line cannot follow); --no-curve: none\n"
          "      --no-native     do not time the MPI library's own MPI_Alltoall and MPI_Bcast\n"
          "                      on all processes (by default written as the native table:\n"
          "                      gridcoll predicts them from it on that layout)\n"
          "  -r, --reps N        repetitions per size (default 20)\n"
          "  -t, --time SECONDS  time budget: fewer repetitions (at least 3) to fit it\n"
          "                      (default 0: no budget)\n"
          "  -h, --help          this text\n");
}

static int bad_usage(const char *fmt, const char *arg)
{
  if (world_rank == 0) {
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
  }
  return 2;
}

/* -s LO:HI: four sizes at least, none above 1 GiB. */
static int parse_sizes(const char *arg, struct options *o)
{
  char err[256], buf[256];
  const char *colon = strchr(arg, ':');
  if (!colon || strlen(arg) >= sizeof buf)
    return bad_usage("-s: expected LO:HI such as \"64B:1MiB\", got \"%s\"", arg);
  strcpy(buf, arg);
  buf[colon - arg] = '\0';
  if (gc_units_parse(GC_UNIT_BYTES, GC_BOUND_POSITIVE, buf, &o->lo, err, sizeof err) != 0 ||
      gc_units_parse(GC_UNIT_BYTES, GC_BOUND_POSITIVE, buf + (colon - arg) + 1, &o->hi, err,
                     sizeof err) != 0)
    return bad_usage("-s: %s", err);
  if (o->lo < 1 || o->hi > (double)(1 << 30) || o->hi < 4 * o->lo)
    return bad_usage("-s: need 1 B <= LO, 4*LO <= HI <= 1 GiB (four sizes at least), "
                     "got \"%s\"", arg);
  return 0;
}

/* --curve LO:HI: 1 B <= LO, 4*LO <= HI <= 1 GiB. */
static int parse_curve(const char *arg, struct options *o)
{
  char err[256], buf[256];
  const char *colon = strchr(arg, ':');
  if (!colon || strlen(arg) >= sizeof buf)
    return bad_usage("--curve: expected LO:HI such as \"1B:4MiB\", got \"%s\"", arg);
  strcpy(buf, arg);
  buf[colon - arg] = '\0';
  if (gc_units_parse(GC_UNIT_BYTES, GC_BOUND_POSITIVE, buf, &o->curve_lo, err, sizeof err) != 0 ||
      gc_units_parse(GC_UNIT_BYTES, GC_BOUND_POSITIVE, buf + (colon - arg) + 1, &o->curve_hi,
                     err, sizeof err) != 0)
    return bad_usage("--curve: %s", err);
  if (o->curve_lo < 1 || o->curve_hi > (double)(1 << 30) || o->curve_hi < 4 * o->curve_lo)
    return bad_usage("--curve: need 1 B <= LO, 4*LO <= HI <= 1 GiB, got \"%s\"", arg);
  return 0;
}

static int parse_reps(const char *arg, struct options *o)
{
  char *end;
  errno = 0;
  o->reps = (int)strtol(arg, &end, 10);
  if (errno || end == arg || *end || o->reps < MIN_REPS || o->reps > 100000)
    return bad_usage("-r: expected repetitions between 3 and 100000, got \"%s\"", arg);
  return 0;
}

static int parse_budget(const char *arg, struct options *o)
{
  char err[256];
  if (gc_units_parse(GC_UNIT_TIME, GC_BOUND_NONNEG, arg, &o->budget, err, sizeof err) != 0)
    return bad_usage("-t: %s", err);
  return 0;
}

int calibrate_parse_options(int argc, char **argv, struct options *o)
{
  static const struct option longopts[] = {
      {"config", required_argument, NULL, 'c'}, {"clusters", required_argument, NULL, 'C'},
      {"output", required_argument, NULL, 'o'}, {"sizes", required_argument, NULL, 's'},
      {"reps", required_argument, NULL, 'r'},   {"time", required_argument, NULL, 't'},
      {"platform", required_argument, NULL, 'p'}, {"from-log", no_argument, NULL, 'L'},
      {"curve", required_argument, NULL, 'K'},  {"no-curve", no_argument, NULL, 'N'},
      {"no-native", no_argument, NULL, 'V'},
      {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
  *o = (struct options){.out = "gridcoll.cfg", .lo = 64, .hi = 1 << 20, .reps = 20,
                         .curve_lo = 1, .curve_hi = 1 << 22, .native = 1};
  opterr = 0;
  for (int ch, rc = 0; (ch = getopt_long(argc, argv, ":c:C:o:p:s:r:t:h", longopts, NULL)) != -1;) {
    switch (ch) {
    case 'c': o->config = optarg; break;
    case 'C': o->clusters = optarg; break;
    case 'o': o->out = optarg; break;
    case 'p': o->platform = optarg; break;
    case 'L': o->from_log = 1; break;
    case 's': rc = parse_sizes(optarg, o); break;
    case 'K': rc = parse_curve(optarg, o); break;
    case 'N': o->curve_lo = o->curve_hi = 0; break;
    case 'V': o->native = 0; break;
    case 'r': rc = parse_reps(optarg, o); break;
    case 't': rc = parse_budget(optarg, o); break;
    case 'h': if (world_rank == 0) usage(stdout); return 1;
    case ':': return bad_usage("option %s needs a value", argv[optind - 1]);
    default: return bad_usage("unknown option %s", argv[optind - 1]);
    }
    if (rc)
      return rc;
  }
  if (o->from_log) { /* the logs: every argument left, as a shell glob gives them */
    o->logs = argv + optind, o->nlogs = argc - optind;
    if (o->nlogs == 0)
      return bad_usage("%s--from-log: give the log files (gc-*.csv)", "");
    if (!o->config)
      return bad_usage("%s--from-log: give the configuration the run used (-c FILE)", "");
    if (o->clusters || o->platform)
      return bad_usage("%s--from-log: -C and -p measure; they do not apply", "");
    return 0;
  }
  if (optind < argc)
    return bad_usage("unexpected argument \"%s\"", argv[optind]);
  if (o->config && o->clusters)
    return bad_usage("%sgive at most one of -c and -C", "");
  return 0;
}

int calibrate_make_sizes(const struct options *o, double *sizes)
{
  int n = 0;
  for (double m = o->lo; m < o->hi && n < MAX_SIZES - 1; m *= 4)
    sizes[n++] = m;
  if (n < 4 || sizes[n - 1] < o->hi)
    sizes[n++] = o->hi;
  return n;
}

int calibrate_make_curve_sizes(const struct options *o, double *sizes)
{
  int powers = 0, n = 0;
  if (o->curve_hi <= 0)
    return 0;
  for (double m = o->curve_lo; m <= o->curve_hi; m *= 2)
    powers++;
  int mids = 2 * powers - 1 <= GC_CURVE_MAX;
  for (double m = o->curve_lo; m <= o->curve_hi && n < GC_CURVE_MAX; m *= 2) {
    sizes[n++] = m;
    if (mids && m * 2 <= o->curve_hi && floor(m * 1.5) > m) /* 1.5 B is no size */
      sizes[n++] = floor(m * 1.5);
  }
  return n;
}
