/* World cluster id of every rank, the way the library would place them. -l: blocks of
 * the given sizes, cluster c's global id is c (beyond the configured clusters the
 * defaults apply, as for the library's unmatched ranks). -n: the configuration's rank
 * ranges; unmatched ranks form clusters of their own (the library's rule), but host globs
 * cannot be evaluated here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "predict.h"
#include "topology.h"

static int *from_counts(const struct gc_config *cfg, const char *layout_arg, int *size)
{
  int counts[4096], k = 0, total = 0;
  char buf[4096];
  if (strlen(layout_arg) >= sizeof buf)
    predict_bad_usage("-l: \"%s\" is too long", layout_arg);
  strcpy(buf, layout_arg);
  for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
       item = strtok_r(NULL, ",", &save)) {
    if (k == 4096)
      predict_bad_usage("-l: too many clusters in \"%s\"", layout_arg);
    counts[k] = predict_parse_count(item, "-l", 0);
    total += counts[k++];
  }
  if (k == 0 || total == 0)
    predict_bad_usage("-l: expected processes per cluster such as \"32,32\", got \"%s\"",
                      layout_arg);
  if (cfg->nclusters > 0 && k != cfg->nclusters) {
    fprintf(stderr, PROG ": -l: %s has %d clusters, -l gives %d sizes (use 0 to leave one out)\n",
            cfg->path, cfg->nclusters, k);
    exit(2);
  }
  int *table = malloc(sizeof *table * (size_t)total);
  if (!table)
    return NULL;
  for (int c = 0, r = 0; c < k; c++)
    for (int i = 0; i < counts[c]; i++)
      table[r++] = c;
  *size = total;
  return table;
}

/* A configuration that names hosts cannot place ranks without the hosts: say so. */
static void refuse_hosts(const struct gc_config *cfg)
{
  for (int i = 0; i < cfg->nclusters; i++)
    if (cfg->clusters[i].nhosts > 0) {
      fprintf(stderr, PROG ": %s places cluster '%s' by host names, which -n cannot "
                      "resolve: give processes per cluster with -l\n",
              cfg->path, cfg->clusters[i].name);
      exit(2);
    }
}

static int *from_ranges(const struct gc_config *cfg, int nranks, int *size)
{
  int *table = malloc(sizeof *table * (size_t)nranks);
  if (!table)
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
      refuse_hosts(cfg);
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

int *predict_place_ranks(const struct gc_config *cfg, const char *layout_arg, int nranks,
                         int *size)
{
  return layout_arg ? from_counts(cfg, layout_arg, size) : from_ranges(cfg, nranks, size);
}
