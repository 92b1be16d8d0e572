/* gridcfg FILE: what scripts/grid-up needs from a gridcoll configuration file, read by
 * gridcoll's own loader (so the file that drives the library drives the rig, and means the
 * same to both): one line per cluster, then one per ordered pair of clusters.
 *
 *   cluster NAME HOST...        the host names (or globs) of `hosts`
 *   link I J DELAY_S RATE_BYTES_S   network.wan.latency and .bandwidth, clusters I -> J
 *
 * Fails (exit 1, the loader's message) on a file gridcoll would reject, and when the file
 * has no clusters with hosts or no wan matrices: the rig has nothing to build then. */
#include <stdio.h>

#include "config.h"

int main(int argc, char **argv) {
  struct gc_config cfg;
  char err[GC_ERR_MAX];
  if (argc != 2) {
    fprintf(stderr, "usage: gridcfg FILE\n");
    return 2;
  }
  gc_config_defaults(&cfg);
  if (gc_config_load(&cfg, argv[1], NULL, err, sizeof err) < 0) {
    fprintf(stderr, "gridcfg: %s\n", err);
    gc_config_free(&cfg);
    return 1;
  }
  int ok = cfg.nclusters >= 2 && cfg.wan_latency && cfg.wan_bandwidth;
  for (int c = 0; ok && c < cfg.nclusters; c++) ok = cfg.clusters[c].nhosts > 0;
  if (!ok) {
    fprintf(stderr, "gridcfg: %s: the rig needs at least 2 clusters with `hosts`, and "
                    "network.wan.latency and bandwidth\n", argv[1]);
    gc_config_free(&cfg);
    return 1;
  }
  for (int c = 0; c < cfg.nclusters; c++) {
    printf("cluster %s", cfg.clusters[c].name);
    for (int h = 0; h < cfg.clusters[c].nhosts; h++) printf(" %s", cfg.clusters[c].hosts[h]);
    printf("\n");
  }
  int k = cfg.nclusters;
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++)
      if (i != j)
        printf("link %d %d %.9g %.9g\n", i, j, cfg.wan_latency[i * k + j], cfg.wan_bandwidth[i * k + j]);
  gc_config_free(&cfg);
  return 0;
}
