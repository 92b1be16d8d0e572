/* GRIDCOLL_* environment variables over the file. One table row per variable, and one
 * row for every operation's GRIDCOLL_<OP> (op_info.h: each op's `env`). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"
#include "ranges.h"

struct env_ctx {
  struct gc_config *cfg;
  const struct gc_config_names *names;
  const char *name; /* the variable being applied */
  int op;           /* env_algorithm: its operation */
  char *err;
  size_t errlen;
  int no_memory; /* what failed was an allocation, not the variable's value */
};

struct env_var;
typedef int env_fn(struct env_ctx *x, const char *value, const struct env_var *v);

struct env_var {
  const char *name;
  env_fn *apply;
  size_t off;  /* field of struct gc_config */
  int lo, hi;  /* env_int */
};

static int fail(struct env_ctx *x, const struct env_var *v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(struct env_ctx *x, const struct env_var *v, const char *fmt, ...) {
  char msg[GC_ERR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  (void)v;
  snprintf(x->err, x->errlen, "%s: %s", x->name, msg);
  return -1;
}

static int no_memory(struct env_ctx *x, const struct env_var *v) {
  x->no_memory = 1;
  return fail(x, v, "out of memory");
}

#define FIELD(x, v, type) ((type *)((char *)(x)->cfg + (v)->off))

static int env_onoff(struct env_ctx *x, const char *value, const struct env_var *v) {
  if (!strcmp(value, "on") || !strcmp(value, "1"))
    *FIELD(x, v, int) = 1;
  else if (!strcmp(value, "off") || !strcmp(value, "0"))
    *FIELD(x, v, int) = 0;
  else
    return fail(x, v, "expected on or off, got \"%s\"", value);
  return 0;
}

/* A decimal integer in [lo, hi]: "0".."3", or "0"/"1" for switches. */
static int env_int(struct env_ctx *x, const char *value, const struct env_var *v) {
  char *end;
  long n = strtol(value, &end, 10);
  if (!*value || *end || value[0] == ' ' || value[0] == '+' || n < v->lo || n > v->hi) {
    if (v->hi - v->lo == 1) return fail(x, v, "expected %d or %d, got \"%s\"", v->lo, v->hi, value);
    return fail(x, v, "expected an integer from %d to %d, got \"%s\"", v->lo, v->hi, value);
  }
  *FIELD(x, v, int) = (int)n;
  return 0;
}

/* Operation x->op's GRIDCOLL_<OP>: its choice, no longer the file's line. */
static int env_algorithm(struct env_ctx *x, const char *value, const struct env_var *v) {
  char allowed[256];
  const char *const *list = gc_config_names_of(x->names, x->op);
  if (!gc_config_algorithm_ok(list, value, allowed, sizeof allowed))
    return fail(x, v, "expected one of %s, got \"%s\"", allowed, value);
  snprintf(x->cfg->algorithm[x->op], GC_NAME_MAX, "%s", value);
  x->cfg->algorithm_line[x->op] = 0;
  return 0;
}

static int env_string(struct env_ctx *x, const char *value, const struct env_var *v) {
  char *s = NULL;
  if (*value && !(s = gc_strdup(value))) return no_memory(x, v);
  free(*FIELD(x, v, char *));
  *FIELD(x, v, char *) = s;
  return 0;
}

static int env_log_mode(struct env_ctx *x, const char *value, const struct env_var *v) {
  if (!strcmp(value, "sync"))
    x->cfg->log_mode = GC_LOG_SYNC;
  else if (!strcmp(value, "local"))
    x->cfg->log_mode = GC_LOG_LOCAL;
  else
    return fail(x, v, "expected one of sync, local, got \"%s\"", value);
  return 0;
}

static int env_clock(struct env_ctx *x, const char *value, const struct env_var *v) {
  if (!strcmp(value, "auto"))
    x->cfg->clock = GC_CLOCK_AUTO;
  else if (!strcmp(value, "monotonic"))
    x->cfg->clock = GC_CLOCK_MONOTONIC;
  else if (!strcmp(value, "mpi"))
    x->cfg->clock = GC_CLOCK_MPI;
  else
    return fail(x, v, "expected one of auto, monotonic, mpi, got \"%s\"", value);
  return 0;
}

static int env_nonblocking(struct env_ctx *x, const char *value, const struct env_var *v) {
  if (!strcmp(value, "native"))
    x->cfg->nonblocking_grid = 0;
  else if (!strcmp(value, "grid"))
    x->cfg->nonblocking_grid = 1;
  else
    return fail(x, v, "expected one of native, grid, got \"%s\"", value);
  return 0;
}

static void drop_clusters(struct gc_config *cfg) {
  for (int i = 0; i < cfg->nclusters; i++) {
    for (int h = 0; h < cfg->clusters[i].nhosts; h++) free(cfg->clusters[i].hosts[h]);
    free(cfg->clusters[i].hosts);
    free(cfg->clusters[i].ranks);
  }
  free(cfg->clusters);
  cfg->clusters = NULL;
  cfg->nclusters = 0;
  gc_config_free_native(&cfg->native); /* measured on the clusters that go */
  /* The clusters' own lan went with them, and a wan matrix goes with them or refuses the
   * variable: only network.lan can still make the network given. */
  cfg->network_given = cfg->network_lan_given;
}

static void drop_wan(struct gc_config *cfg) {
  free(cfg->wan_latency);
  free(cfg->wan_bandwidth);
  free(cfg->wan_aggregate);
  free(cfg->wan_curve);
  cfg->wan_latency = cfg->wan_bandwidth = cfg->wan_aggregate = NULL;
  cfg->wan_curve = NULL;
  cfg->wan_latency_line = cfg->wan_bandwidth_line = cfg->wan_aggregate_line = 0;
  cfg->wan_curve_line = 0;
}

/* "host", or one rank range per cluster: "0-3,4-9". */
static int env_clusters(struct env_ctx *x, const char *value, const struct env_var *v) {
  struct gc_config *cfg = x->cfg;
  struct gc_rank_range *r;
  char msg[GC_ERR_MAX];
  int n;
  if (!strcmp(value, "host")) {
    drop_clusters(cfg);
    drop_wan(cfg);
    cfg->topology = GC_TOPOLOGY_NODE;
    return 0;
  }
  int rc = gc_ranges_parse(value, &r, &n, msg, sizeof msg);
  if (rc == GC_RANGES_NO_MEMORY)
    return no_memory(x, v);
  if (rc < 0)
    return fail(x, v, "expected \"host\" or one rank range per cluster such as \"0-3,4-9\"; %s", msg);
  if (n == cfg->nclusters) { /* same clusters, new members */
    for (int i = 0; i < n; i++) {
      struct gc_cluster_spec *c = &cfg->clusters[i];
      for (int h = 0; h < c->nhosts; h++) free(c->hosts[h]);
      free(c->hosts);
      c->hosts = NULL;
      c->nhosts = 0;
      free(c->ranks);
      c->ranks = NULL;
      c->nranks = 0;
    }
  } else {
    int line = cfg->wan_latency ? cfg->wan_latency_line
               : cfg->wan_bandwidth ? cfg->wan_bandwidth_line : cfg->wan_aggregate_line;
    if (cfg->wan_latency || cfg->wan_bandwidth || cfg->wan_aggregate) {
      free(r);
      return fail(x, v, "\"%s\" gives %d clusters, but %s:%d: network.wan.%s is a %dx%d matrix; "
                  "give %d ranges, \"host\", or drop the matrix", value, n,
                  cfg->path ? cfg->path : "the configuration file", line,
                  cfg->wan_latency ? "latency" : cfg->wan_bandwidth ? "bandwidth" : "aggregate", cfg->nclusters, cfg->nclusters, cfg->nclusters);
    }
    if (cfg->wan_curve) { /* its pairs are the file's clusters, which go */
      free(r);
      return fail(x, v, "\"%s\" gives %d clusters, but %s:%d: network.wan.curves names pairs "
                  "of the file's %d clusters; give %d ranges, \"host\", or drop the curves", value,
                  n, cfg->path ? cfg->path : "the configuration file", cfg->wan_curve_line,
                  cfg->nclusters, cfg->nclusters);
    }
    struct gc_cluster_spec *c = calloc((size_t)n, sizeof *c);
    if (!c) {
      free(r);
      return no_memory(x, v);
    }
    drop_clusters(cfg);
    cfg->clusters = c;
    cfg->nclusters = n;
    for (int i = 0; i < n; i++) {
      snprintf(c[i].name, sizeof c[i].name, "c%d", i);
      c[i].lan = cfg->lan;
    }
  }
  /* Each cluster gets its own one-range array so gc_config_free can free it alone. */
  for (int i = 0; i < n; i++) {
    if (!(cfg->clusters[i].ranks = malloc(sizeof *r))) {
      free(r);
      return no_memory(x, v);
    }
    cfg->clusters[i].ranks[0] = r[i];
    cfg->clusters[i].nranks = 1;
  }
  free(r);
  cfg->topology = GC_TOPOLOGY_CLUSTERS;
  return 0;
}

#define CFG(field) offsetof(struct gc_config, field)

/* GRIDCOLL first: a valid "off" survives an error further down. */
static const struct env_var vars[] = {
    {.name = "GRIDCOLL", .apply = env_onoff, .off = CFG(enabled)},
    {.name = "GRIDCOLL_CLUSTERS", .apply = env_clusters},
    /* Not one variable: every operation's env, in op id order (apply_var). */
    {.name = "GRIDCOLL_<OP>", .apply = env_algorithm},
    {.name = "GRIDCOLL_LOG", .apply = env_string, .off = CFG(log_file)},
    {.name = "GRIDCOLL_LOG_MODE", .apply = env_log_mode},
    {.name = "GRIDCOLL_VERBOSE", .apply = env_int, .off = CFG(verbose), .lo = 0, .hi = 3},
    {.name = "GRIDCOLL_SUMMARY", .apply = env_int, .off = CFG(log_summary), .lo = 0, .hi = 1},
    {.name = "GRIDCOLL_PROBE", .apply = env_int, .off = CFG(probe), .lo = 0, .hi = 1},
    {.name = "GRIDCOLL_LEARN", .apply = env_int, .off = CFG(learn), .lo = 0, .hi = 1},
    {.name = "GRIDCOLL_CLOCK", .apply = env_clock},
    {.name = "GRIDCOLL_NONBLOCKING", .apply = env_nonblocking},
    {0}};

/* Row v's variable, or, for the algorithms' row, each operation's: 0, or -1 with x->err. */
static int apply_var(struct env_ctx *x, const char *(*get)(const char *name), const struct env_var *v) {
  int each_op = v->apply == env_algorithm;
  for (int op = 0; op < (each_op ? GC_OP_LAST : 1); op++) {
    x->name = each_op ? gc_op_table[op].env : v->name;
    x->op = op;
    const char *value = get(x->name);
    if (value && v->apply(x, value, v) < 0) return -1;
  }
  return 0;
}

int gc_config_apply_env(struct gc_config *cfg, const char *(*get)(const char *name),
                        const struct gc_config_names *names, char *err, size_t errlen) {
  char scratch[GC_ERR_MAX];
  struct env_ctx x = {.cfg = cfg, .names = names, .err = err, .errlen = errlen};
  if (!err || !errlen) x.err = scratch, x.errlen = sizeof scratch;
  if (!get) return 0;
  for (const struct env_var *v = vars; v->name; v++) {
    if (apply_var(&x, get, v) < 0) {
      int enabled = cfg->enabled;
      gc_config_free(cfg);
      cfg->enabled = enabled;
      return x.no_memory ? GC_CONFIG_NO_MEMORY : -1;
    }
  }
  return 0;
}
