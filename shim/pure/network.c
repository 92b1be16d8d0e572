#include "network.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scratch_bound.h"

void gc_network_free(struct gc_network *net)
{
  free(net->lan);
  free(net->latency);
  free(net->bandwidth);
  free(net->nic);
  free(net->local_sends);
  free(net->local_alpha);
  free(net->aggregate);
  free(net->curves);
  free(net->wan_curve);
  free(net->site);
  free(net->hetero);
  free(net->proc_C);
  free(net->proc_t);
  free(net->native);
  gc_scratch_free(&net->scratch);
  memset(net, 0, sizeof *net);
}

int gc_network_scratch(struct gc_network *net, const struct gc_layout *layout)
{
  gc_scratch_free(&net->scratch);
  net->grid.scratch = NULL;
  if (gc_scratch_init(&net->scratch, gc_scratch_bound(layout->size, layout->nclusters)) != 0)
    return -1;
  net->grid.scratch = &net->scratch;
  return 0;
}

/* The wide-area curves between the layout's clusters: copied (the view outlives no
 * configuration, and must not depend on one), as many as the pairs that have one, so
 * that a grid without curves costs nothing. 0, or -1 when out of memory. */
static int wan_curves(struct gc_network *net, const struct gc_config *cfg,
                      const struct gc_layout *layout)
{
  int k = layout->nclusters;
  size_t n = 0;
  if (!cfg->wan_curve)
    return 0;
  for (int a = 0; a < k; a++)
    for (int b = 0; b < k; b++)
      n += a != b && gc_config_curve(cfg, layout->global_id[a], layout->global_id[b]);
  if (n == 0)
    return 0;
  net->curves = malloc(sizeof *net->curves * n);
  net->wan_curve = calloc((size_t)k * (size_t)k, sizeof *net->wan_curve);
  if (!net->curves || !net->wan_curve)
    return -1;
  n = 0;
  for (int a = 0; a < k; a++)
    for (int b = 0; b < k; b++) {
      const struct gc_curve *c = a != b ? gc_config_curve(cfg, layout->global_id[a],
                                                          layout->global_id[b]) : NULL;
      if (c) {
        net->curves[n] = *c;
        net->wan_curve[a * k + b] = &net->curves[n++];
      }
    }
  return 0;
}

/* The native table, copied when the configuration's was measured on this layout (its size,
 * and the processes of every configured cluster). 0, or -1 when out of memory. */
static int native_table(struct gc_network *net, const struct gc_config *cfg,
                        const struct gc_layout *layout)
{
  int k = layout->nclusters, match = 1;
  if (cfg->native.procs <= 0 || cfg->native.procs != layout->size)
    return 0;
  int *count = calloc((size_t)cfg->nclusters, sizeof *count);
  if (!count)
    return -1;
  for (int c = 0; c < k; c++) {
    int g = layout->global_id[c];
    if (g < 0 || g >= cfg->nclusters)
      match = 0; /* a rank outside every cluster: not the layout measured */
    else
      count[g] += layout->cluster_size[c];
  }
  const struct gc_native *n = match ? gc_config_native(cfg, layout->size, count) : NULL;
  free(count);
  if (!n)
    return 0;
  if (!(net->native = calloc((size_t)k + 1, sizeof *net->native)))
    return -1;
  net->native[0] = n->alltoall;
  for (int c = 0; n->bcast && c < k; c++)
    net->native[1 + c] = n->bcast[layout->global_id[c]];
  return 0;
}

double gc_network_native(const struct gc_network *net, const struct gc_layout *layout,
                         int root, double m)
{
  const struct gc_curve *c = NULL;
  if (!net->native)
    return -1;
  if (root < 0)
    c = &net->native[0];
  else if (root < layout->size && root == gc_layout_leader(layout, layout->cluster_of[root]))
    c = &net->native[1 + layout->cluster_of[root]]; /* measured from there alone: the
                          library's tree from another member of the cluster crosses the
                          wide area otherwise (a binomial tree from rank 1 of the demo's
                          grid reaches rank 0 through cluster c2: 88 ms, not 49) */
  return c && gc_curve_set(c) ? gc_curve_time(c, m) : -1;
}

int gc_network_build(struct gc_network *net, const struct gc_config *cfg,
                     const struct gc_layout *layout)
{
  int k = layout->nclusters;
  memset(net, 0, sizeof *net);
  net->lan = malloc(sizeof *net->lan * (size_t)k);
  net->latency = malloc(sizeof(double) * (size_t)k * (size_t)k);
  net->bandwidth = malloc(sizeof(double) * (size_t)k * (size_t)k);
  net->site = malloc(sizeof(int) * (size_t)k);
  net->nic = malloc(sizeof(double) * (size_t)k);
  net->local_sends = malloc(sizeof(double) * (size_t)k);
  net->local_alpha = malloc(sizeof(double) * (size_t)k);
  net->hetero = calloc((size_t)k, sizeof *net->hetero);
  net->proc_C = malloc(sizeof(double) * (size_t)layout->size);
  net->proc_t = malloc(sizeof(double) * (size_t)layout->size);
  if (cfg->wan_aggregate && !(net->aggregate = calloc((size_t)k * (size_t)k, sizeof(double)))) {
    gc_network_free(net);
    return -1;
  }
  if (!net->lan || !net->latency || !net->bandwidth || !net->site || !net->nic ||
      !net->local_sends || !net->local_alpha || !net->hetero ||
      !net->proc_C || !net->proc_t) {
    gc_network_free(net);
    return -1;
  }
  for (int a = 0; a < k; a++) {
    int ga = layout->global_id[a];
    net->lan[a] = *gc_config_lan(cfg, ga);
    net->nic[a] = net->lan[a].beta > 0 ? 1.0 / net->lan[a].beta : INFINITY;
    net->local_alpha[a] = net->lan[a].alpha;
    net->local_sends[a] = 0;
    for (int n = 1; n < layout->cluster_size[a]; n <<= 1)
      net->local_sends[a]++;
    const char *site = gc_config_site(cfg, ga);
    net->site[a] = a;
    for (int b = 0; site[0] && b < a; b++)
      if (strcmp(gc_config_site(cfg, layout->global_id[b]), site) == 0) {
        net->site[a] = net->site[b];
        break;
      }
    const struct gc_hetero *h = gc_config_hetero(cfg, ga);
    if (h)
      net->hetero[a] = *h;
    /* One C and t per cluster in the configuration; per processor here, as 004 has it. */
    for (int x = layout->cluster_start[a]; x < layout->cluster_start[a + 1]; x++) {
      net->proc_C[x] = h ? h->C : 0;
      net->proc_t[x] = h ? h->t : 0;
    }
    for (int b = 0; b < k; b++) {
      int gb = layout->global_id[b];
      net->latency[a * k + b] = gc_config_wan_latency(cfg, ga, gb);
      net->bandwidth[a * k + b] = gc_config_wan_bandwidth(cfg, ga, gb);
      if (net->aggregate)
        net->aggregate[a * k + b] = gc_config_wan_aggregate(cfg, ga, gb);
    }
  }
  net->segment = cfg->bcast_segment;
  net->pairwise = cfg->alltoall_pairwise;
  net->eager = cfg->bcast_eager;
  net->grid = (struct gc_model_grid){k, layout->cluster_size, net->lan, net->latency,
                                     net->bandwidth, net->aggregate, cfg->wan_window, NULL, NULL};
  if (wan_curves(net, cfg, layout) != 0 || native_table(net, cfg, layout) != 0) {
    gc_network_free(net);
    return -1;
  }
  net->grid.wan_curve = (const struct gc_curve *const *)net->wan_curve;
  if (gc_network_scratch(net, layout) != 0) {
    gc_network_free(net);
    return -1;
  }
  return 0;
}

int gc_network_hetero(const struct gc_network *net, const struct gc_layout *layout, int c,
                      struct gc_model_hetero *h)
{
  if (!net->hetero || c < 0 || c >= layout->nclusters || !net->hetero[c].set)
    return -1;
  int first = layout->cluster_start[c];
  *h = (struct gc_model_hetero){.n = layout->cluster_size[c],
                                .C = net->proc_C + first,
                                .t = net->proc_t + first,
                                .rate = NULL,
                                .link_rate = net->hetero[c].rate};
  return 0;
}
