/* The parts of a file that depend on others: clusters (their lan starts from
 * network.lan) and the wan matrices (one row and column per cluster). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"
#include "physical.h"
#include "ranges.h"

#define CLUSTERS_EXAMPLE "( { name = \"nancy\"; hosts = \"grelon-*\"; }, { name = \"rennes\"; ranks = \"32-63\"; } )"

static int check_cluster(struct gc_loader *ld, config_setting_t *s, const char *key, int i) {
  const struct gc_cluster_spec *c = &ld->cfg->clusters[i];
  if (!config_setting_get_member(s, "name"))
    return gc_config_fail(ld, s, key, "missing key 'name': every cluster needs a unique name");
  if (!c->nhosts && !c->nranks)
    return gc_config_fail(ld, s, key, "cluster '%s' needs 'hosts' (globs on the host name) or "
                          "'ranks' (MPI_COMM_WORLD ranks such as \"0-3\"), or both", c->name);
  for (int j = 0; j < i; j++) {
    const struct gc_cluster_spec *o = &ld->cfg->clusters[j];
    char sub[300];
    int at;
    if (strcmp(o->name, c->name) == 0) {
      snprintf(sub, sizeof sub, "%s.name", key);
      return gc_config_fail(ld, config_setting_get_member(s, "name"), sub,
                            "duplicate cluster name '%s': clusters[%d] (line %d) already has it",
                            c->name, j, o->line);
    }
    if (gc_ranges_overlap(o->ranks, o->nranks, c->ranks, c->nranks, &at)) {
      snprintf(sub, sizeof sub, "%s.ranks", key);
      return gc_config_fail(ld, config_setting_get_member(s, "ranks"), sub,
                            "rank %d is in cluster '%s' (line %d) and in cluster '%s' (line %d); "
                            "rank lists may not overlap", at, o->name, o->line, c->name, c->line);
    }
  }
  return 0;
}

int gc_config_load_clusters(struct gc_loader *ld) {
  config_setting_t *s = ld->deferred[GC_DEFER_CLUSTERS];
  struct gc_config *cfg = ld->cfg;
  char got[96], key[64];
  if (!s) return 0;
  int n = config_setting_length(s);
  if (config_setting_type(s) != CONFIG_TYPE_LIST || n < 1)
    return gc_config_fail(ld, s, "clusters", "expected a list of one or more groups such as %s, got %s",
                          CLUSTERS_EXAMPLE, n < 1 && config_setting_is_aggregate(s) ? "an empty list"
                                                                                    : gc_config_describe(s, got, sizeof got));
  if (!(cfg->clusters = calloc((size_t)n, sizeof *cfg->clusters)))
    return gc_config_no_memory(ld, s, "clusters");
  cfg->topology = GC_TOPOLOGY_CLUSTERS;
  for (int i = 0; i < n; i++) {
    config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
    struct gc_cluster_spec *c = &cfg->clusters[i];
    snprintf(key, sizeof key, "clusters[%d]", i);
    cfg->nclusters = i + 1; /* so that gc_config_free sees what this one allocates */
    c->lan = cfg->lan;
    c->line = config_setting_source_line(e);
    if (gc_config_walk(ld, e, key, c, gc_config_cluster_keys) < 0) return -1;
    if (check_cluster(ld, e, key, i) < 0) return -1;
  }
  return 0;
}

/* One matrix: rows and columns in cluster order; off-diagonal > 0, diagonal ignored. */
static int load_matrix(struct gc_loader *ld, config_setting_t *s, const char *key, enum gc_unit unit,
                       double **out, int *line) {
  const int n = ld->cfg->nclusters;
  char got[96], msg[GC_ERR_MAX], sub[96];
  const char *example = unit == GC_UNIT_TIME ? "( (\"0\", \"5.5 ms\"), (\"5.5 ms\", \"0\") )"
                                             : "( (\"0\", \"10 Gbit/s\"), (\"10 Gbit/s\", \"0\") )";
  if (!s) return 0;
  if (n == 0)
    return gc_config_fail(ld, s, key, "a wan matrix needs 'clusters' (its rows and columns follow "
                          "their order), but this file defines none");
  if (!config_setting_is_list(s) && !config_setting_is_array(s))
    return gc_config_fail(ld, s, key, "expected a list of %d rows such as %s, got %s", n, example,
                          gc_config_describe(s, got, sizeof got));
  if (config_setting_length(s) != n)
    return gc_config_fail(ld, s, key, "expected %d rows (one per cluster), got %d", n, config_setting_length(s));
  double *m = calloc((size_t)n * (size_t)n, sizeof *m);
  if (!m) return gc_config_no_memory(ld, s, key);
  for (int i = 0; i < n; i++) {
    config_setting_t *row = config_setting_get_elem(s, (unsigned)i);
    snprintf(sub, sizeof sub, "%s[%d]", key, i);
    if (!config_setting_is_list(row) && !config_setting_is_array(row)) {
      free(m);
      return gc_config_fail(ld, row, sub, "expected a row of %d values such as %s, got %s", n,
                            unit == GC_UNIT_TIME ? "(\"0\", \"5.5 ms\")" : "(\"0\", \"10 Gbit/s\")",
                            gc_config_describe(row, got, sizeof got));
    }
    if (config_setting_length(row) != n) {
      free(m);
      return gc_config_fail(ld, row, sub, "expected %d values (one per cluster), got %d; the matrix "
                            "must be %dx%d", n, config_setting_length(row), n, n);
    }
    for (int j = 0; j < n; j++) {
      config_setting_t *e = config_setting_get_elem(row, (unsigned)j);
      double v;
      enum gc_bound bound = i == j ? GC_BOUND_NONNEG : GC_BOUND_POSITIVE;
      /* Well-formed, then within physical sense (physical.c), the diagonal too: it is
       * ignored, but a value no network has is a typing error all the same. */
      if (gc_units_setting(unit, bound, e, &v, msg, sizeof msg) < 0 ||
          gc_physical_check(unit, bound, v, gc_config_describe(e, got, sizeof got), msg,
                            sizeof msg) < 0) {
        free(m);
        snprintf(sub, sizeof sub, "%s[%d][%d]", key, i, j);
        return gc_config_fail(ld, e, sub, "%s", msg);
      }
      m[i * n + j] = i == j ? 0 : v;
    }
  }
  *out = m;
  *line = config_setting_source_line(s);
  return 0;
}

int gc_config_load_wan(struct gc_loader *ld) {
  struct gc_config *cfg = ld->cfg;
  if (load_matrix(ld, ld->deferred[GC_DEFER_WAN_LATENCY], "network.wan.latency", GC_UNIT_TIME,
                  &cfg->wan_latency, &cfg->wan_latency_line) < 0)
    return -1;
  if (load_matrix(ld, ld->deferred[GC_DEFER_WAN_BANDWIDTH], "network.wan.bandwidth",
                  GC_UNIT_BANDWIDTH, &cfg->wan_bandwidth, &cfg->wan_bandwidth_line) < 0)
    return -1;
  return load_matrix(ld, ld->deferred[GC_DEFER_WAN_AGGREGATE], "network.wan.aggregate",
                     GC_UNIT_BANDWIDTH, &cfg->wan_aggregate, &cfg->wan_aggregate_line);
}
