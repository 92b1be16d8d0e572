/* `native`: the MPI library's own collectives as gridcoll-calibrate measured them, black
 * boxes (issue 25).  Their formulas assume an algorithm the library may not run (MPICH's
 * pairwise switch); a measured table cannot be wrong that way, but holds only on the
 * layout it was measured on, so the group says which:
 *   native = {
 *     procs = 6;                 # the communicator's size
 *     sizes = [ 3, 3 ];          # its processes in each cluster, in the order of `clusters`
 *     alltoall = ( ("1 B", "30 us"), ("1 KiB", "45 us"), ... );   # (block, time)
 *     bcast = ( { root = "east"; curve = ( ("1 B", "20 us"), ... ); }, ... );
 *   };
 * Each list is a curve as the `curve` keys take it (config_curve.c): the time of one
 * call over its size, interpolated (model/curve.h), except that it may fall by any
 * amount (gc_curve_check_falls): the library switches algorithm by size, and a larger
 * call can be much faster.  A broadcast's time depends on the
 * root's cluster (the wide area is crossed from there), so it has one curve per root
 * cluster, measured from that cluster's first rank. */
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"

#define NATIVE_EXAMPLE "{ procs = 4; sizes = [ 2, 2 ]; alltoall = ( (\"1 B\", \"30 us\"), " \
                       "(\"1 MiB\", \"9 ms\") ); }"

/* procs and sizes: sizes has one count >= 0 per cluster, and they add up to procs. */
static int load_layout(struct gc_loader *ld, config_setting_t *s) {
  struct gc_config *cfg = ld->cfg;
  struct gc_native *n = &cfg->native;
  char got[96], sub[96];
  config_setting_t *procs = config_setting_get_member(s, "procs");
  config_setting_t *sizes = config_setting_get_member(s, "sizes");
  if (!procs || !sizes)
    return gc_config_fail(ld, s, "native", "expected procs and sizes (the layout it was measured "
                          "on) such as %s, got no %s", NATIVE_EXAMPLE, procs ? "sizes" : "procs");
  if (config_setting_type(procs) != CONFIG_TYPE_INT || config_setting_get_int(procs) < 2)
    return gc_config_fail(ld, procs, "native.procs", "expected the number of processes measured, "
                          "an integer of 2 or more, got %s", gc_config_describe(procs, got, sizeof got));
  n->procs = config_setting_get_int(procs);
  if (!config_setting_is_array(sizes) || config_setting_length(sizes) != cfg->nclusters)
    return gc_config_fail(ld, sizes, "native.sizes", "expected an array of %d process counts, one "
                          "per cluster in the order of 'clusters', such as [ 2, 2 ], got %s",
                          cfg->nclusters, gc_config_describe(sizes, got, sizeof got));
  if (!(n->sizes = calloc((size_t)cfg->nclusters, sizeof *n->sizes)))
    return gc_config_no_memory(ld, sizes, "native.sizes");
  long long sum = 0;
  for (int c = 0; c < cfg->nclusters; c++) {
    config_setting_t *e = config_setting_get_elem(sizes, (unsigned)c);
    snprintf(sub, sizeof sub, "native.sizes[%d]", c);
    if (config_setting_type(e) != CONFIG_TYPE_INT || config_setting_get_int(e) < 0)
      return gc_config_fail(ld, e, sub, "expected a count of processes, 0 or more, got %s",
                            gc_config_describe(e, got, sizeof got));
    n->sizes[c] = config_setting_get_int(e);
    sum += n->sizes[c];
  }
  if (sum != n->procs)
    return gc_config_fail(ld, sizes, "native.sizes", "the clusters' %lld processes are not "
                          "procs = %d", sum, n->procs);
  return 0;
}

/* One entry of native.bcast: { root = "east"; curve = ( ... ); }. */
static int load_bcast(struct gc_loader *ld, config_setting_t *e, const char *key) {
  struct gc_config *cfg = ld->cfg;
  char got[96], sub[160];
  config_setting_t *root, *points;
  if (gc_config_curve_entry(ld, e, key, "root", "root = \"east\"",
                            "{ root = \"east\"; curve = ( (\"1 B\", \"20 us\"), "
                            "(\"1 MiB\", \"5 ms\") ); }", &root, &points) < 0)
    return -1;
  snprintf(sub, sizeof sub, "%s.root", key);
  const char *name = config_setting_get_string(root);
  int c = gc_config_cluster_index(cfg, name);
  if (!name)
    return gc_config_fail(ld, root, sub, "expected a cluster's name such as \"east\", got %s",
                          gc_config_describe(root, got, sizeof got));
  if (c < 0) return gc_config_fail(ld, root, sub, "no cluster is named '%s'", name);
  if (cfg->native.sizes[c] == 0)
    return gc_config_fail(ld, root, sub, "'%s' had no process when measured (sizes)", name);
  if (gc_curve_set(&cfg->native.bcast[c]))
    return gc_config_fail(ld, root, sub, "'%s' already has a curve", name);
  snprintf(sub, sizeof sub, "%s.curve", key);
  return gc_config_curve_points(ld, points, sub, 1, &cfg->native.bcast[c]);
}

int gc_config_load_native(struct gc_loader *ld) {
  config_setting_t *s = ld->deferred[GC_DEFER_NATIVE];
  struct gc_config *cfg = ld->cfg;
  char got[96], sub[96];
  if (!s) return 0;
  if (!config_setting_is_group(s))
    return gc_config_fail(ld, s, "native", "expected a group such as %s, got %s", NATIVE_EXAMPLE,
                          gc_config_describe(s, got, sizeof got));
  if (cfg->nclusters == 0)
    return gc_config_fail(ld, s, "native", "the table names the processes of each of "
                          "'clusters', but this file defines none");
  for (int i = 0; i < config_setting_length(s); i++) {
    config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
    const char *name = config_setting_name(e);
    if (strcmp(name, "procs") && strcmp(name, "sizes") && strcmp(name, "alltoall") &&
        strcmp(name, "bcast")) {
      snprintf(sub, sizeof sub, "native.%s", name);
      return gc_config_fail(ld, e, sub, "unknown key; allowed in this group: procs, sizes, "
                            "alltoall, bcast");
    }
  }
  cfg->native.line = config_setting_source_line(s);
  if (load_layout(ld, s) < 0) return -1;
  config_setting_t *a2a = config_setting_get_member(s, "alltoall");
  if (a2a && gc_config_curve_points(ld, a2a, "native.alltoall", 1, &cfg->native.alltoall) < 0)
    return -1;
  config_setting_t *b = config_setting_get_member(s, "bcast");
  if (!b) return 0;
  if (!config_setting_is_list(b) || config_setting_length(b) < 1)
    return gc_config_fail(ld, b, "native.bcast", "expected a list of one or more groups such as "
                          "( { root = \"east\"; curve = ( ... ); } ), got %s",
                          gc_config_describe(b, got, sizeof got));
  if (!(cfg->native.bcast = calloc((size_t)cfg->nclusters, sizeof *cfg->native.bcast)))
    return gc_config_no_memory(ld, b, "native.bcast");
  for (int i = 0; i < config_setting_length(b); i++) {
    snprintf(sub, sizeof sub, "native.bcast[%d]", i);
    if (load_bcast(ld, config_setting_get_elem(b, (unsigned)i), sub) < 0) return -1;
  }
  return 0;
}
