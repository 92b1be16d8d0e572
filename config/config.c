/* Defaults, freeing, and the network parameters the models ask for. */
#include "config.h"
#include "config_internal.h" /* gc_config_free_native, defined here */

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Published Gigabit Ethernet signature (000; reference.md section 2): gamma 4.3628,
 * delta 4.93 ms, M 8 kB; Hockney 60 us and 1 Gbit/s for the link itself. */
static const struct gc_lan gige = {
    .alpha = 60e-6, .beta = 8e-9, .gamma = 4.3628, .delta = 4.93e-3, .threshold = 8192};

void gc_config_defaults(struct gc_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->enabled = 1;
  cfg->verbose = 1;
  cfg->learn = 1;
  cfg->topology = GC_TOPOLOGY_NODE;
  cfg->lan = gige;
  for (int op = 0; op < GC_OP_LAST; op++) strcpy(cfg->algorithm[op], "auto");
  cfg->alltoall_pairwise = 32768; /* MPICH: MPIR_CVAR_ALLTOALL_MEDIUM_MSG_SIZE */
  cfg->wan_window = 4194304; /* Linux: net.ipv4.tcp_wmem's maximum; SimGrid: TCP-gamma */
  cfg->bcast_eager = 65536;  /* SMPI: smpi/send-is-detached-thresh */
  cfg->log_mode = GC_LOG_SYNC;
  cfg->log_summary = -1;
}

void gc_config_free_native(struct gc_native *n) {
  free(n->sizes);
  free(n->bcast);
  memset(n, 0, sizeof *n);
}

void gc_config_free(struct gc_config *cfg) {
  for (int i = 0; cfg->clusters && i < cfg->nclusters; i++) {
    for (int h = 0; h < cfg->clusters[i].nhosts; h++) free(cfg->clusters[i].hosts[h]);
    free(cfg->clusters[i].hosts);
    free(cfg->clusters[i].ranks);
  }
  free(cfg->clusters);
  free(cfg->wan_latency);
  free(cfg->wan_bandwidth);
  free(cfg->wan_aggregate);
  free(cfg->wan_curve);
  gc_config_free_native(&cfg->native);
  free(cfg->log_file);
  free(cfg->summary_file);
  free(cfg->path);
  gc_config_defaults(cfg);
}

const struct gc_lan *gc_config_lan(const struct gc_config *cfg, int cluster) {
  if (cluster >= 0 && cluster < cfg->nclusters && cfg->clusters) return &cfg->clusters[cluster].lan;
  return &cfg->lan;
}

static int in_range(const struct gc_config *cfg, int c) { return c >= 0 && c < cfg->nclusters; }

const char *gc_config_site(const struct gc_config *cfg, int cluster) {
  return in_range(cfg, cluster) && cfg->clusters ? cfg->clusters[cluster].site : "";
}

const struct gc_hetero *gc_config_hetero(const struct gc_config *cfg, int cluster) {
  return in_range(cfg, cluster) && cfg->clusters && cfg->clusters[cluster].hetero.set
             ? &cfg->clusters[cluster].hetero
             : NULL;
}

double gc_config_wan_latency(const struct gc_config *cfg, int from, int to) {
  if (from == to) return gc_config_lan(cfg, from)->alpha;
  if (cfg->wan_latency && in_range(cfg, from) && in_range(cfg, to))
    return cfg->wan_latency[from * cfg->nclusters + to];
  return cfg->lan.alpha;
}

double gc_config_wan_bandwidth(const struct gc_config *cfg, int from, int to) {
  if (from == to) return 1.0 / gc_config_lan(cfg, from)->beta;
  if (cfg->wan_bandwidth && in_range(cfg, from) && in_range(cfg, to))
    return cfg->wan_bandwidth[from * cfg->nclusters + to];
  return 1.0 / cfg->lan.beta;
}

const struct gc_curve *gc_config_curve(const struct gc_config *cfg, int from, int to) {
  const struct gc_curve *c = NULL;
  if (from == to || !in_range(cfg, from) || !in_range(cfg, to))
    c = &gc_config_lan(cfg, from == to ? from : -1)->curve;
  else if (cfg->wan_curve)
    c = &cfg->wan_curve[from * cfg->nclusters + to];
  return gc_curve_set(c) ? c : NULL;
}

double gc_config_wan_aggregate(const struct gc_config *cfg, int from, int to) {
  if (from != to && cfg->wan_aggregate && in_range(cfg, from) && in_range(cfg, to))
    return cfg->wan_aggregate[from * cfg->nclusters + to];
  return 0.0;
}

const char *gc_config_default_path(const char *(*get)(const char *name)) {
  const char *v = get ? get("GRIDCOLL_CONFIG") : NULL;
  if (v) return *v ? v : NULL;
  return access("gridcoll.cfg", F_OK) == 0 ? "gridcoll.cfg" : NULL;
}

const struct gc_native *gc_config_native(const struct gc_config *cfg, int size,
                                         const int *count) {
  if (cfg->native.procs <= 0 || cfg->native.procs != size || !cfg->native.sizes) return NULL;
  for (int g = 0; g < cfg->nclusters; g++)
    if (count[g] != cfg->native.sizes[g]) return NULL;
  return &cfg->native;
}
