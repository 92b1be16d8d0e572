/* Curves in a configuration file (model/curve.h): a cluster network's `lan.curve` and the
 * wide area's `network.wan.curves`.  A curve is a list of points, each a size and the
 * one-way time of one message of that size, in the units every other key takes:
 *   curve = ( ("1 B", "12 us"), ("64 KiB", "80 us"), ("64.5 KiB", "160 us"), ("4 MiB", "4 ms") );
 * and the wide area names its pairs of clusters (both directions), so that the file
 * needs no k x k matrix of lists:
 *   curves = ( { pair = [ "east", "west" ]; curve = ( ... ); }, ... );
 * Each size is within physical sense as a size (0 allowed: an empty message), each time
 * as a time (config/physical.c); then the points must make a curve (gc_curve_check:
 * sizes increasing, times not falling beyond the noise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"
#include "physical.h"

#define CURVE_EXAMPLE "( (\"1 KiB\", \"12 us\"), (\"64 KiB\", \"80 us\"), (\"1 MiB\", \"1 ms\") )"
#define CURVES_EXAMPLE "( { pair = [ \"east\", \"west\" ]; curve = " CURVE_EXAMPLE "; } )"

/* One value of a point, well-formed in its unit and within physical sense. */
static int point_value(struct gc_loader *ld, config_setting_t *e, const char *key,
                       enum gc_unit unit, enum gc_bound bound, double *v)
{
  char msg[GC_ERR_MAX], got[96];
  if (gc_units_setting(unit, bound, e, v, msg, sizeof msg) < 0 ||
      gc_physical_check(unit, bound, *v, gc_config_describe(e, got, sizeof got), msg,
                        sizeof msg) < 0)
    return gc_config_fail(ld, e, key, "%s", msg);
  return 0;
}

/* The points of list s into *out; key names s in messages ("network.lan.curve"). */
int gc_config_curve_points(struct gc_loader *ld, config_setting_t *s, const char *key,
                        int falls, struct gc_curve *out)
{
  char got[96], sub[320], why[GC_ERR_MAX];
  struct gc_curve c = {0};
  int n = config_setting_is_aggregate(s) && !config_setting_is_group(s) ? config_setting_length(s) : -1;
  if (n < 2 || n > GC_CURVE_MAX)
    return gc_config_fail(ld, s, key, "expected a list of 2 to %d points (size, time) such as "
                          "%s, got %s", GC_CURVE_MAX, CURVE_EXAMPLE,
                          n >= 0 ? (snprintf(got, sizeof got, "%d point%s", n, n == 1 ? "" : "s"), got)
                                 : gc_config_describe(s, got, sizeof got));
  for (int i = 0; i < n; i++) {
    config_setting_t *p = config_setting_get_elem(s, (unsigned)i);
    snprintf(sub, sizeof sub, "%s[%d]", key, i);
    if (config_setting_is_group(p) || !config_setting_is_aggregate(p) || config_setting_length(p) != 2)
      return gc_config_fail(ld, p, sub, "expected a point (size, time) such as (\"64 KiB\", "
                            "\"80 us\"), got %s", gc_config_describe(p, got, sizeof got));
    if (point_value(ld, config_setting_get_elem(p, 0), sub, GC_UNIT_BYTES, GC_BOUND_NONNEG,
                    &c.m[i]) < 0 ||
        point_value(ld, config_setting_get_elem(p, 1), sub, GC_UNIT_TIME, GC_BOUND_POSITIVE,
                    &c.t[i]) < 0)
      return -1;
  }
  int bad = falls ? gc_curve_check_falls(c.m, c.t, n, why, sizeof why)
                  : gc_curve_check(c.m, c.t, n, why, sizeof why);
  if (bad) {
    snprintf(sub, sizeof sub, "%s[%d]", key, bad - 1);
    return gc_config_fail(ld, config_setting_get_elem(s, (unsigned)(bad - 1)), sub, "%s", why);
  }
  c.n = n;
  *out = c;
  return 0;
}

int gc_key_curve(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                 const struct gc_key *k)
{
  return gc_config_curve_points(ld, s, key, 0, (struct gc_curve *)((char *)base + k->off));
}

int gc_config_cluster_index(const struct gc_config *cfg, const char *name)
{
  for (int i = 0; name && i < cfg->nclusters; i++)
    if (strcmp(cfg->clusters[i].name, name) == 0)
      return i;
  return -1;
}

int gc_config_curve_entry(struct gc_loader *ld, config_setting_t *e, const char *key,
                          const char *what, const char *what_example, const char *example,
                          config_setting_t **which, config_setting_t **points)
{
  char got[96], sub[320];
  if (!config_setting_is_group(e))
    return gc_config_fail(ld, e, key, "expected a group such as %s, got %s", example,
                          gc_config_describe(e, got, sizeof got));
  for (int i = 0; i < config_setting_length(e); i++) {
    const char *name = config_setting_name(config_setting_get_elem(e, (unsigned)i));
    if (strcmp(name, what) != 0 && strcmp(name, "curve") != 0) {
      snprintf(sub, sizeof sub, "%s.%s", key, name);
      return gc_config_fail(ld, config_setting_get_elem(e, (unsigned)i), sub,
                            "unknown key; allowed in this group: %s, curve", what);
    }
  }
  *which = config_setting_get_member(e, what);
  *points = config_setting_get_member(e, "curve");
  if (!*which || !*points)
    return gc_config_fail(ld, e, key, "expected both %s and curve = ( ... ), got no %s",
                          what_example, *which ? "curve" : what);
  return 0;
}

/* One entry of network.wan.curves into cfg->wan_curve, both directions. */
static int load_entry(struct gc_loader *ld, config_setting_t *e, const char *key)
{
  struct gc_config *cfg = ld->cfg;
  char got[96], sub[320];
  int n = cfg->nclusters;
  config_setting_t *pair, *points;
  if (gc_config_curve_entry(ld, e, key, "pair", "pair = [ \"east\", \"west\" ]",
                            "{ pair = [ \"east\", \"west\" ]; curve = " CURVE_EXAMPLE "; }",
                            &pair, &points) < 0)
    return -1;
  snprintf(sub, sizeof sub, "%s.pair", key);
  const char *a = NULL, *b = NULL;
  if (config_setting_is_aggregate(pair) && !config_setting_is_group(pair) &&
      config_setting_length(pair) == 2)
    a = config_setting_get_string_elem(pair, 0), b = config_setting_get_string_elem(pair, 1);
  int x = gc_config_cluster_index(cfg, a), y = gc_config_cluster_index(cfg, b);
  if (!a || !b)
    return gc_config_fail(ld, pair, sub, "expected two cluster names such as [ \"east\", "
                          "\"west\" ], got %s", gc_config_describe(pair, got, sizeof got));
  if (x < 0 || y < 0)
    return gc_config_fail(ld, pair, sub, "no cluster is named '%s'", x < 0 ? a : b);
  if (x == y)
    return gc_config_fail(ld, pair, sub, "'%s' twice: the curve inside a cluster is its "
                          "lan.curve", a);
  if (gc_curve_set(&cfg->wan_curve[x * n + y]))
    return gc_config_fail(ld, pair, sub, "the pair '%s', '%s' already has a curve (an entry "
                          "serves both directions)", a, b);
  snprintf(sub, sizeof sub, "%s.curve", key);
  if (gc_config_curve_points(ld, points, sub, 0, &cfg->wan_curve[x * n + y]) < 0)
    return -1;
  cfg->wan_curve[y * n + x] = cfg->wan_curve[x * n + y];
  return 0;
}

int gc_config_load_wan_curves(struct gc_loader *ld)
{
  config_setting_t *s = ld->deferred[GC_DEFER_WAN_CURVES];
  struct gc_config *cfg = ld->cfg;
  const char *key = "network.wan.curves";
  char got[96], sub[96];
  if (!s)
    return 0;
  if (cfg->nclusters == 0)
    return gc_config_fail(ld, s, key, "wan curves name pairs of 'clusters', but this file "
                          "defines none");
  if (!config_setting_is_list(s) || config_setting_length(s) < 1)
    return gc_config_fail(ld, s, key, "expected a list of one or more groups such as %s, got %s",
                          CURVES_EXAMPLE, gc_config_describe(s, got, sizeof got));
  size_t kk = (size_t)cfg->nclusters * (size_t)cfg->nclusters;
  if (!(cfg->wan_curve = calloc(kk, sizeof *cfg->wan_curve)))
    return gc_config_no_memory(ld, s, key);
  cfg->wan_curve_line = config_setting_source_line(s);
  for (int i = 0; i < config_setting_length(s); i++) {
    snprintf(sub, sizeof sub, "%s[%d]", key, i);
    if (load_entry(ld, config_setting_get_elem(s, (unsigned)i), sub) < 0)
      return -1;
  }
  return 0;
}
