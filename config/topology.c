/* Which cluster a process is in: rank ranges first, then host globs. See topology.h. */
#include "topology.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"

static int host_matches(const struct gc_cluster_spec *c, const char *host) {
  for (int h = 0; h < c->nhosts; h++)
    if (fnmatch(c->hosts[h], host, 0) == 0) return 1;
  return 0;
}

int gc_topology_cluster_of(const struct gc_config *cfg, int world_rank, const char *host, char *err,
                           size_t errlen) {
  int found = GC_CLUSTER_NONE;
  if (cfg->topology != GC_TOPOLOGY_CLUSTERS || !cfg->clusters) return GC_CLUSTER_NONE;
  /* Rank lists never overlap (refused at load), so the first hit is the only one. */
  for (int i = 0; i < cfg->nclusters; i++)
    if (gc_ranges_contains(cfg->clusters[i].ranks, cfg->clusters[i].nranks, world_rank)) return i;
  if (!host) return GC_CLUSTER_NONE;
  for (int i = 0; i < cfg->nclusters; i++) {
    if (!host_matches(&cfg->clusters[i], host)) continue;
    if (found == GC_CLUSTER_NONE) {
      found = i;
      continue;
    }
    const struct gc_cluster_spec *a = &cfg->clusters[found], *b = &cfg->clusters[i];
    if (err && errlen)
      snprintf(err, errlen, "%s:%d: host '%s' is matched by cluster '%s' (line %d) and '%s' (line %d)",
               cfg->path ? cfg->path : "(environment)", b->line, host, a->name, a->line, b->name, b->line);
    return -2;
  }
  return found;
}

struct named {
  const char *name;
  int idx;
};

static int cmp_named(const void *x, const void *y) {
  const struct named *a = x, *b = y;
  int c = strcmp(a->name, b->name);
  return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

/* Sorting makes it O(n log n): the shim calls it with every rank of the world. */
void gc_topology_by_host(const char *const *names, int n, int *ids) {
  struct named *v = n > 0 ? malloc((size_t)n * sizeof *v) : NULL;
  int next = 0;
  if (!v) { /* out of memory (or n == 0): the quadratic way needs nothing */
    for (int i = 0; i < n; i++) {
      int j = 0;
      while (j < i && strcmp(names[j] ? names[j] : "", names[i] ? names[i] : "") != 0) j++;
      ids[i] = j < i ? ids[j] : next++;
    }
    return;
  }
  for (int i = 0; i < n; i++) v[i].name = names[i] ? names[i] : "", v[i].idx = i;
  qsort(v, (size_t)n, sizeof *v, cmp_named);
  /* ids[i] first holds the index of the first process with that name... */
  for (int s = 0, e; s < n; s = e) {
    for (e = s + 1; e < n && strcmp(v[e].name, v[s].name) == 0; e++) continue;
    for (int k = s; k < e; k++) ids[v[k].idx] = v[s].idx;
  }
  /* ...then, walking in order, first appearances get the next ordinal. */
  for (int i = 0; i < n; i++) ids[i] = ids[i] == i ? next++ : ids[ids[i]];
  free(v);
}
