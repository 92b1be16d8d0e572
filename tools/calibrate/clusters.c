/* Which world ranks form which cluster: from the configuration (-c), from rank ranges
 * (-C, read as GRIDCOLL_CLUSTERS would be) or one cluster per host. Every input is
 * gathered first, so every rank computes the same clusters. */
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "topology.h"

static const char *clusters_value;
static const char *get_clusters(const char *name)
{
  return strcmp(name, "GRIDCOLL_CLUSTERS") == 0 ? clusters_value : NULL;
}

/* The configuration the clusters come from: -c's file, or -C read as GRIDCOLL_CLUSTERS. */
static int load_description(const struct options *o, struct gc_config *cfg)
{
  char err[GC_ERR_MAX] = "";
  int bad = 0;
  gc_config_defaults(cfg);
  if (o->config && gc_config_load(cfg, o->config, NULL, err, sizeof err) != 0)
    bad = 1;
  clusters_value = o->clusters;
  if (!bad && o->clusters && gc_config_apply_env(cfg, get_clusters, NULL, err, sizeof err) != 0)
    bad = 1;
  if (!bad && o->clusters && cfg->topology != GC_TOPOLOGY_CLUSTERS)
    snprintf(err, sizeof err, "-C: expected rank ranges such as \"0-1,2-3\", got \"%s\"",
             o->clusters), bad = 1;
  if (bad) {
    say("%s", err);
    return -1;
  }
  /* -C describes this run: a range beyond the world would be written as if measured.
   * A file (-c) describes the machines for runs of any size: said, and kept as written. */
  for (int c = 0; c < cfg->nclusters; c++)
    for (int i = 0; i < cfg->clusters[c].nranks; i++)
      if (cfg->clusters[c].ranks[i].hi >= world_size) {
        const struct gc_rank_range *q = &cfg->clusters[c].ranks[i];
        char range[32];
        snprintf(range, sizeof range, q->lo == q->hi ? "%d" : "%d-%d", q->lo, q->hi);
        if (!o->clusters) {
          say("warning: %s: cluster %s: rank range %s goes beyond the %d processes of this "
              "run: measured on those present, written as the file gives it", o->config,
              cfg->clusters[c].name, range, world_size);
          continue;
        }
        say("-C: cluster %s: rank range %s names rank %d, but there are %d processes "
            "(ranks 0-%d); start as many processes as the ranges name, or fix the ranges; "
            "nothing written", cfg->clusters[c].name, range, q->hi, world_size, world_size - 1);
        return -1;
      }
  return 0;
}

/* table[r]: the cluster of world rank r, from the hosts (hosts[r * MPI_MAX_PROCESSOR_NAME])
 * or the configuration; a rank no cluster matches is a cluster of its own. */
static int place_ranks(const struct options *o, const struct gc_config *cfg, const char *hosts,
                       int *table)
{
  if (cfg->topology == GC_TOPOLOGY_NODE || cfg->nclusters == 0) {
    const char **names = malloc(sizeof *names * (size_t)world_size);
    if (!names) {
      say("out of memory");
      return -1;
    }
    for (int r = 0; r < world_size; r++)
      names[r] = hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME;
    gc_topology_by_host(names, world_size, table);
    free(names);
    return 0;
  }
  char err[GC_ERR_MAX] = "";
  int unmatched = 0, bad = 0;
  for (int r = 0; r < world_size && !bad; r++) {
    table[r] = gc_topology_cluster_of(cfg, r, hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME,
                                      err, sizeof err);
    if (table[r] == -2)
      bad = 1;
    else if (table[r] == GC_CLUSTER_NONE)
      table[r] = cfg->nclusters + unmatched++;
  }
  if (bad) {
    say("%s", err);
    return -1;
  }
  if (unmatched)
    say("warning: %d rank(s) matched by no cluster of %s: each is a cluster of its own "
        "(named rank<N> in the output)", unmatched, o->config ? o->config : "-C");
  return 0;
}

/* Cluster c's members, starting lan and name: the configured one, rank<N> for a rank no
 * cluster matched, or its host. */
static int describe(const struct gc_config *cfg, const char *hosts, const int *table, int c,
                    struct cluster *x)
{
  x->ranks = malloc(sizeof(int) * (size_t)world_size);
  if (!x->ranks) {
    say("out of memory");
    return -1;
  }
  for (int r = 0; r < world_size; r++)
    if (table[r] == c)
      x->ranks[x->n++] = r;
  x->lan = x->lan_in = *gc_config_lan(cfg, c);
  if (cfg->topology == GC_TOPOLOGY_CLUSTERS && c < cfg->nclusters) {
    x->spec = &cfg->clusters[c];
    snprintf(x->name, sizeof x->name, "%s", cfg->clusters[c].name);
  } else if (cfg->topology == GC_TOPOLOGY_CLUSTERS) {
    snprintf(x->name, sizeof x->name, "rank%d", x->ranks[0]);
  } else {
    const char *h = hosts + (size_t)x->ranks[0] * MPI_MAX_PROCESSOR_NAME;
    snprintf(x->host, sizeof x->host, "%s", h);
    snprintf(x->name, sizeof x->name, "%.*s", GC_NAME_MAX - 1, h);
  }
  return 0;
}

int calibrate_build_clusters(const struct options *o, struct gc_config *cfg,
                             struct cluster **out)
{
  if (load_description(o, cfg) != 0)
    return -1;
  char *hosts = calloc((size_t)world_size, MPI_MAX_PROCESSOR_NAME);
  int *table = malloc(sizeof *table * (size_t)world_size);
  if (!hosts || !table) {
    say("out of memory");
    return -1;
  }
  char me[MPI_MAX_PROCESSOR_NAME] = "";
  int len;
  MPI_Get_processor_name(me, &len);
  MPI_Allgather(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                MPI_COMM_WORLD);
  if (place_ranks(o, cfg, hosts, table) != 0)
    return -1;
  int k = 0;
  for (int r = 0; r < world_size; r++)
    k = table[r] + 1 > k ? table[r] + 1 : k;
  struct cluster *cl = calloc((size_t)k, sizeof *cl);
  if (!cl) {
    say("out of memory");
    return -1;
  }
  for (int c = 0; c < k; c++)
    if (describe(cfg, hosts, table, c, &cl[c]) != 0)
      return -1;
  free(hosts);
  free(table);
  *out = cl;
  return k;
}
