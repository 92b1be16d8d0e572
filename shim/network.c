#include "network.h"

#include <stdlib.h>
#include <string.h>

void gc_network_free(struct gc_network *net)
{
  free(net->lan);
  free(net->latency);
  free(net->bandwidth);
  free(net->site);
  memset(net, 0, sizeof *net);
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
  if (!net->lan || !net->latency || !net->bandwidth || !net->site) {
    gc_network_free(net);
    return -1;
  }
  for (int a = 0; a < k; a++) {
    int ga = layout->global_id[a];
    net->lan[a] = *gc_config_lan(cfg, ga);
    const char *site = gc_config_site(cfg, ga);
    net->site[a] = a;
    for (int b = 0; site[0] && b < a; b++)
      if (strcmp(gc_config_site(cfg, layout->global_id[b]), site) == 0) {
        net->site[a] = net->site[b];
        break;
      }
    for (int b = 0; b < k; b++) {
      int gb = layout->global_id[b];
      net->latency[a * k + b] = gc_config_wan_latency(cfg, ga, gb);
      net->bandwidth[a * k + b] = gc_config_wan_bandwidth(cfg, ga, gb);
    }
  }
  net->grid = (struct gc_model_grid){k, layout->cluster_size, net->lan, net->latency,
                                     net->bandwidth};
  return 0;
}

double gc_network_p2p(const struct gc_network *net, int a, int b, double m)
{
  if (a == b)
    return net->lan[a].alpha + m * net->lan[a].beta;
  int k = net->grid.k;
  return net->latency[a * k + b] + m / net->bandwidth[a * k + b];
}
