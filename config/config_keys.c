/* The keys a configuration file may hold, and the parsers they use.
 *
 * One table per group; to add a key, add one line to its table (and a field to
 * struct gc_config). Unknown keys are refused with the list of the allowed ones. Every
 * operation of op_info.h has its group, named as the operation, with its `algorithm`:
 * a new collective needs no line here unless it brings keys of its own (op_keys). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"
#include "physical.h"
#include "ranges.h"

#define CFG(field) offsetof(struct gc_config, field)
#define LAN(field) offsetof(struct gc_lan, field)
#define CLUSTER(field) offsetof(struct gc_cluster_spec, field)
#define HETERO(field) offsetof(struct gc_hetero, field)

static const struct gc_key lan_keys[] = {
    {.name = "alpha", .parse = gc_key_unit, .off = LAN(alpha), .unit = GC_UNIT_TIME, .bound = GC_BOUND_POSITIVE},
    {.name = "beta", .parse = gc_key_unit, .off = LAN(beta), .unit = GC_UNIT_INVBW, .bound = GC_BOUND_POSITIVE},
    {.name = "gamma", .parse = gc_key_unit, .off = LAN(gamma), .unit = GC_UNIT_RATIO, .bound = GC_BOUND_POSITIVE},
    {.name = "delta", .parse = gc_key_unit, .off = LAN(delta), .unit = GC_UNIT_TIME, .bound = GC_BOUND_NONNEG},
    {.name = "threshold", .parse = gc_key_unit, .off = LAN(threshold), .unit = GC_UNIT_BYTES, .bound = GC_BOUND_NONNEG},
    /* One message's time over its size (config_curve.c, model/curve.h). */
    {.name = "curve", .parse = gc_key_curve, .off = LAN(curve)},
    {0}};

/* 004's processor parameters: C, t and rate are required (gc_key_hetero checks). */
static const struct gc_key hetero_keys[] = {
    {.name = "C", .parse = gc_key_unit, .off = HETERO(C), .unit = GC_UNIT_TIME, .bound = GC_BOUND_POSITIVE},
    {.name = "t", .parse = gc_key_unit, .off = HETERO(t), .unit = GC_UNIT_INVBW, .bound = GC_BOUND_POSITIVE},
    {.name = "rate", .parse = gc_key_unit, .off = HETERO(rate), .unit = GC_UNIT_BANDWIDTH, .bound = GC_BOUND_POSITIVE},
    {.name = "S", .parse = gc_key_unit, .off = HETERO(S), .unit = GC_UNIT_BYTES, .bound = GC_BOUND_NONNEG},
    {.name = "Gamma", .parse = gc_key_unit, .off = HETERO(Gamma), .unit = GC_UNIT_TIME, .bound = GC_BOUND_NONNEG},
    {.name = "tau", .parse = gc_key_unit, .off = HETERO(tau), .unit = GC_UNIT_INVBW, .bound = GC_BOUND_NONNEG},
    {0}};

static const struct gc_key wan_keys[] = {
    {.name = "latency", .parse = gc_key_defer, .which = GC_DEFER_WAN_LATENCY},
    {.name = "bandwidth", .parse = gc_key_defer, .which = GC_DEFER_WAN_BANDWIDTH},
    {.name = "aggregate", .parse = gc_key_defer, .which = GC_DEFER_WAN_AGGREGATE},
    {.name = "curves", .parse = gc_key_defer, .which = GC_DEFER_WAN_CURVES},
    {.name = "window", .parse = gc_key_unit, .off = CFG(wan_window), .unit = GC_UNIT_BYTES, .bound = GC_BOUND_NONNEG},
    {0}};

static const struct gc_key network_keys[] = {
    {.name = "lan", .parse = gc_key_group, .off = CFG(lan), .sub = lan_keys},
    {.name = "wan", .parse = gc_key_group, .sub = wan_keys},
    {0}};

/* An operation's group: `algorithm` (gc_key_algorithm: the group's operation, ld->op),
 * then the keys the operation adds. */
static const struct gc_key algorithm_keys[] = {
    {.name = "algorithm", .parse = gc_key_algorithm},
    {0}};

static const struct gc_key alltoall_keys[] = {
    {.name = "algorithm", .parse = gc_key_algorithm},
    {.name = "native_pairwise", .parse = gc_key_unit, .off = CFG(alltoall_pairwise), .unit = GC_UNIT_BYTES, .bound = GC_BOUND_NONNEG},
    {0}};

static const struct gc_key bcast_keys[] = {
    {.name = "algorithm", .parse = gc_key_algorithm},
    /* The shim converts it to a size_t: a larger double would be undefined behaviour. */
    {.name = "segment", .parse = gc_key_unit, .off = CFG(bcast_segment), .unit = GC_UNIT_BYTES, .bound = GC_BOUND_NONNEG},
    {.name = "native_eager", .parse = gc_key_unit, .off = CFG(bcast_eager), .unit = GC_UNIT_BYTES, .bound = GC_BOUND_NONNEG},
    {0}};

/* Each operation's group by id; NULL: `algorithm` alone (algorithm_keys). */
static const struct gc_key *const op_keys[GC_OP_LAST] = {
    [GC_OP_ALLTOALL] = alltoall_keys,
    [GC_OP_BCAST] = bcast_keys,
};

static const struct gc_key log_keys[] = {
    {.name = "file", .parse = gc_key_string, .off = CFG(log_file)},
    {.name = "mode", .parse = gc_key_log_mode, .off = CFG(log_mode)},
    {.name = "summary", .parse = gc_key_bool, .off = CFG(log_summary)},
    {.name = "summary_file", .parse = gc_key_string, .off = CFG(summary_file)},
    {.name = "candidates", .parse = gc_key_bool, .off = CFG(log_candidates)},
    {0}};

const struct gc_key gc_config_top_keys[] = {
    {.name = "strict", .parse = gc_key_bool, .off = CFG(strict)},
    {.name = "verbose", .parse = gc_key_int, .off = CFG(verbose), .lo = 0, .hi = 3},
    {.name = "probe", .parse = gc_key_bool, .off = CFG(probe)},
    {.name = "learn", .parse = gc_key_bool, .off = CFG(learn)},
    {.name = "clusters", .parse = gc_key_defer, .which = GC_DEFER_CLUSTERS},
    {.name = "network", .parse = gc_key_group, .sub = network_keys},
    /* The MPI library's own collectives as measured (config_native.c). */
    {.name = "native", .parse = gc_key_defer, .which = GC_DEFER_NATIVE},
    /* Not one key: every operation's group, in op id order (gc_key_op_group). */
    {.name = "(operations)", .parse = gc_key_op_group},
    {.name = "log", .parse = gc_key_group, .sub = log_keys},
    {0}};

const struct gc_key gc_config_cluster_keys[] = {
    {.name = "name", .parse = gc_key_name, .off = CLUSTER(name)},
    {.name = "hosts", .parse = gc_key_hosts},
    {.name = "ranks", .parse = gc_key_ranks},
    {.name = "lan", .parse = gc_key_group, .off = CLUSTER(lan), .sub = lan_keys},
    {.name = "site", .parse = gc_key_name, .off = CLUSTER(site)},
    {.name = "hetero", .parse = gc_key_hetero, .off = CLUSTER(hetero), .sub = hetero_keys},
    {0}};

/* --- the walk -------------------------------------------------------------- */

/* The row of keys that `name` matches: its own, or the row of every operation's group
 * when it names an operation; the end of keys (name NULL) when none. */
static const struct gc_key *find_key(const struct gc_key *keys, const char *name) {
  const struct gc_key *k = keys;
  while (k->name && (k->parse == gc_key_op_group ? gc_op_find(name) < 0 : strcmp(k->name, name) != 0))
    k++;
  return k;
}

static void add_allowed(char *allowed, size_t len, const char *name) {
  size_t o = strlen(allowed);
  snprintf(allowed + o, len - o, "%s%s", o ? ", " : "", name);
}

int gc_config_walk(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                   const struct gc_key *keys) {
  char got[96], path[256];
  if (!config_setting_is_group(s))
    return gc_config_fail(ld, s, key, "expected a group { key = value; ... }, got %s",
                          gc_config_describe(s, got, sizeof got));
  for (int i = 0; i < config_setting_length(s); i++) {
    config_setting_t *c = config_setting_get_elem(s, (unsigned)i);
    const char *name = config_setting_name(c);
    const struct gc_key *k = find_key(keys, name);
    snprintf(path, sizeof path, "%s%s%s", key, *key ? "." : "", name);
    if (!k->name) {
      char allowed[256] = "";
      for (k = keys; k->name; k++)
        if (k->parse != gc_key_op_group)
          add_allowed(allowed, sizeof allowed, k->name);
        else
          for (int op = 0; op < GC_OP_LAST; op++) add_allowed(allowed, sizeof allowed, gc_op_table[op].name);
      return gc_config_fail(ld, c, path, "unknown key; allowed %s: %s",
                            *key ? "in this group" : "at the top level", allowed);
    }
    if (k->parse(ld, c, path, base, k) < 0) return -1;
  }
  return 0;
}

int gc_key_group(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                 const struct gc_key *k) {
  return gc_config_walk(ld, s, key, (char *)base + k->off, k->sub);
}

/* The group of the operation the setting names (find_key matched it): its keys, with
 * ld->op telling gc_key_algorithm whose choice it sets. */
int gc_key_op_group(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                    const struct gc_key *k) {
  int op = gc_op_find(config_setting_name(s));
  (void)k;
  ld->op = op;
  return gc_config_walk(ld, s, key, base, op_keys[op] ? op_keys[op] : algorithm_keys);
}

int gc_key_defer(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                 const struct gc_key *k) {
  (void)key, (void)base;
  ld->deferred[k->which] = s;
  return 0;
}

/* --- scalars --------------------------------------------------------------- */

int gc_key_bool(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                const struct gc_key *k) {
  char got[96];
  int *out = (int *)((char *)base + k->off);
  int t = config_setting_type(s);
  if (t == CONFIG_TYPE_BOOL)
    *out = config_setting_get_bool(s);
  else if (t == CONFIG_TYPE_INT && (config_setting_get_int(s) == 0 || config_setting_get_int(s) == 1))
    *out = config_setting_get_int(s);
  else
    return gc_config_fail(ld, s, key, "expected true or false, got %s", gc_config_describe(s, got, sizeof got));
  return 0;
}

int gc_key_int(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
               const struct gc_key *k) {
  char got[96];
  int t = config_setting_type(s);
  long long v = t == CONFIG_TYPE_INT ? config_setting_get_int(s) : t == CONFIG_TYPE_INT64 ? config_setting_get_int64(s) : 0;
  if ((t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64) || v < k->lo || v > k->hi)
    return gc_config_fail(ld, s, key, "expected an integer from %d to %d, got %s", k->lo, k->hi,
                          gc_config_describe(s, got, sizeof got));
  *(int *)((char *)base + k->off) = (int)v;
  return 0;
}

/* An owned string; "" stores NULL (no log file, summary to stderr). */
int gc_key_string(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                  const struct gc_key *k) {
  char got[96];
  char **out = (char **)((char *)base + k->off), *v = NULL;
  if (config_setting_type(s) != CONFIG_TYPE_STRING)
    return gc_config_fail(ld, s, key, "expected a string, got %s", gc_config_describe(s, got, sizeof got));
  const char *text = config_setting_get_string(s);
  if (*text && !(v = gc_strdup(text))) return gc_config_no_memory(ld, s, key);
  free(*out);
  *out = v;
  return 0;
}

/* A quantity: well-formed in its unit (units.c), then within what physical sense allows
 * (physical.c), so that no value a network cannot have reaches the models. */
int gc_key_unit(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                const struct gc_key *k) {
  char msg[GC_ERR_MAX], got[96];
  double v;
  if (gc_units_setting(k->unit, k->bound, s, &v, msg, sizeof msg) < 0)
    return gc_config_fail(ld, s, key, "%s", msg);
  if (gc_physical_check(k->unit, k->bound, v, gc_config_describe(s, got, sizeof got), msg,
                        sizeof msg) < 0)
    return gc_config_fail(ld, s, key, "%s", msg);
  memcpy((char *)base + k->off, &v, sizeof v); /* the field at k->off is a double */
  return 0;
}

/* The `algorithm` of the group being walked: operation ld->op's choice. */
int gc_key_algorithm(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                     const struct gc_key *k) {
  char got[96], allowed[256];
  const char *const *list = gc_config_names_of(ld->names, ld->op);
  const char *v = config_setting_get_string(s);
  int ok = gc_config_algorithm_ok(list, v ? v : "", allowed, sizeof allowed);
  (void)base, (void)k;
  if (!v || !ok)
    return gc_config_fail(ld, s, key, "expected one of %s, got %s", allowed, gc_config_describe(s, got, sizeof got));
  snprintf(ld->cfg->algorithm[ld->op], GC_NAME_MAX, "%s", v);
  ld->cfg->algorithm_line[ld->op] = config_setting_source_line(s);
  return 0;
}

int gc_key_log_mode(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                    const struct gc_key *k) {
  char got[96];
  const char *v = config_setting_get_string(s);
  enum gc_log_mode *out = (enum gc_log_mode *)((char *)base + k->off);
  if (v && strcmp(v, "sync") == 0)
    *out = GC_LOG_SYNC;
  else if (v && strcmp(v, "local") == 0)
    *out = GC_LOG_LOCAL;
  else
    return gc_config_fail(ld, s, key, "expected one of sync, local, got %s", gc_config_describe(s, got, sizeof got));
  return 0;
}

/* --- cluster entries ------------------------------------------------------- */

/* Names end up in log files and messages: keep them to one plain word. */
int gc_key_name(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                const struct gc_key *k) {
  char got[96];
  const char *v = config_setting_get_string(s);
  int ok = v && *v && strlen(v) < GC_NAME_MAX;
  for (const char *p = v; ok && *p; p++)
    ok = (unsigned char)*p > ' ' && *p != ',' && *p != '"' && *p != '\'' && *p != 127;
  if (!ok)
    return gc_config_fail(ld, s, key,
                          "expected a non-empty name of at most %d characters without blanks, "
                          "commas or quotes, got %s", GC_NAME_MAX - 1, gc_config_describe(s, got, sizeof got));
  memcpy((char *)base + k->off, v, strlen(v) + 1);
  return 0;
}

int gc_key_hosts(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                 const struct gc_key *k) {
  struct gc_cluster_spec *c = base;
  char got[96];
  int t = config_setting_type(s), n = t == CONFIG_TYPE_STRING ? 1 : config_setting_length(s);
  (void)k;
  if ((t != CONFIG_TYPE_STRING && t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST) || n < 1)
    goto bad;
  for (int i = 0; i < n; i++) {
    const char *g = t == CONFIG_TYPE_STRING ? config_setting_get_string(s)
                                             : config_setting_get_string_elem(s, i);
    if (!g || !*g) goto bad;
  }
  if (!(c->hosts = calloc((size_t)n, sizeof *c->hosts))) return gc_config_no_memory(ld, s, key);
  for (; c->nhosts < n; c->nhosts++) {
    const char *g = t == CONFIG_TYPE_STRING ? config_setting_get_string(s)
                                             : config_setting_get_string_elem(s, c->nhosts);
    if (!(c->hosts[c->nhosts] = gc_strdup(g))) return gc_config_no_memory(ld, s, key);
  }
  return 0;
bad:
  return gc_config_fail(ld, s, key, "expected a host glob such as \"grelon-*\" or a list of them "
                        "such as [ \"grelon-*\", \"griffon-*\" ], got %s", gc_config_describe(s, got, sizeof got));
}

int gc_key_ranks(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                 const struct gc_key *k) {
  struct gc_cluster_spec *c = base;
  char msg[GC_ERR_MAX], got[96];
  int t = config_setting_type(s), rc;
  (void)k;
  if (t == CONFIG_TYPE_STRING)
    rc = gc_ranges_parse(config_setting_get_string(s), &c->ranks, &c->nranks, msg, sizeof msg);
  else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
    rc = gc_ranges_single(t == CONFIG_TYPE_INT ? config_setting_get_int(s) : config_setting_get_int64(s),
                          &c->ranks, &c->nranks, msg, sizeof msg);
  else
    return gc_config_fail(ld, s, key, "expected rank ranges such as \"0-3,8,10-11\" or a rank, got %s",
                          gc_config_describe(s, got, sizeof got));
  if (rc == GC_RANGES_NO_MEMORY) return gc_config_no_memory(ld, s, key);
  return rc < 0 ? gc_config_fail(ld, s, key, "%s", msg) : 0;
}

/* A cluster's 004 group: the optional keys start at their defaults (S = 1 KiB, 004's
 * threshold; no broadcast overhead), the three that define a processor must all be there. */
int gc_key_hetero(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                  const struct gc_key *k) {
  struct gc_hetero *h = (struct gc_hetero *)((char *)base + k->off);
  static const char *const required[] = {"C", "t", "rate"};
  *h = (struct gc_hetero){.S = 1024};
  if (gc_config_walk(ld, s, key, h, k->sub) < 0) return -1;
  for (size_t i = 0; i < sizeof required / sizeof *required; i++)
    if (!config_setting_get_member(s, required[i]))
      return gc_config_fail(ld, s, key, "expected C, t and rate (such as { C = \"25 us\"; "
                            "t = \"1 ns/B\"; rate = \"1 Gbit/s\"; }), got no %s", required[i]);
  h->set = 1;
  return 0;
}

/* --- helpers --------------------------------------------------------------- */

int gc_config_fail(struct gc_loader *ld, const config_setting_t *s, const char *key, const char *fmt, ...) {
  char msg[GC_ERR_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *file = s && config_setting_source_file(s) ? config_setting_source_file(s) : ld->file;
  int line = s ? config_setting_source_line(s) : 0;
  if (ld->err && ld->errlen) {
    if (line)
      snprintf(ld->err, ld->errlen, "%s:%d: %s%s%s", file, line, key ? key : "", key && *key ? ": " : "", msg);
    else
      snprintf(ld->err, ld->errlen, "%s: %s%s%s", file, key ? key : "", key && *key ? ": " : "", msg);
  }
  return -1;
}

int gc_config_no_memory(struct gc_loader *ld, const config_setting_t *s, const char *key) {
  ld->no_memory = 1;
  return gc_config_fail(ld, s, key, "out of memory");
}

const char *gc_config_describe(const config_setting_t *s, char *buf, size_t len) {
  switch (config_setting_type(s)) {
  case CONFIG_TYPE_STRING: snprintf(buf, len, "\"%s\"", config_setting_get_string(s)); break;
  case CONFIG_TYPE_INT: snprintf(buf, len, "%d", config_setting_get_int(s)); break;
  case CONFIG_TYPE_INT64: snprintf(buf, len, "%lld", config_setting_get_int64(s)); break;
  case CONFIG_TYPE_FLOAT: snprintf(buf, len, "%g", config_setting_get_float(s)); break;
  case CONFIG_TYPE_BOOL: snprintf(buf, len, "%s", config_setting_get_bool(s) ? "true" : "false"); break;
  default: snprintf(buf, len, "%s", gc_units_type_name(s));
  }
  return buf;
}

int gc_config_algorithm_ok(const char *const *list, const char *name, char *buf, size_t len) {
  int ok = strcmp(name, "auto") == 0 || !list;
  snprintf(buf, len, "auto");
  for (; list && *list; list++) {
    if (strcmp(*list, "auto") == 0) continue;
    ok |= strcmp(*list, name) == 0;
    size_t o = strlen(buf);
    snprintf(buf + o, len - o, ", %s", *list);
  }
  return ok && *name && strlen(name) < GC_NAME_MAX;
}

char *gc_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  return d ? memcpy(d, s, n) : NULL;
}
