/* gridcoll-calibrate -p: the measured grid as a SimGrid platform (platform.h). The XML
 * style is scripts/gen-platform.py's: one Full-routed zone, SimGrid clusters with a
 * router each, wide-area links between the routers. */
#include <math.h>
#include <stdlib.h>

#include "platform.h"

static int valid(const struct gc_platform *p)
{
  if (!p || p->k < 1 || !p->cl || (p->k > 1 && (!p->latency || !p->bandwidth)))
    return 0;
  for (int c = 0; c < p->k; c++)
    if (!p->cl[c].name || !p->cl[c].name[0] || p->cl[c].n < 1 || !(p->cl[c].alpha >= 0) ||
        !(p->cl[c].beta > 0) || !isfinite(p->cl[c].beta) || !(p->cl[c].gamma > 0))
      return 0;
  return 1;
}

static void write_cluster(FILE *f, const struct gc_platform_cluster *c)
{
  double nic = 1 / c->beta;
  int contended = c->gamma > 1.05;
  fprintf(f, "    <!-- %s: %d hosts; alpha %.6g us, beta %.6g ns/B, gamma %.4g -->\n", c->name,
          c->n, c->alpha * 1e6, c->beta * 1e9, c->gamma);
  fprintf(f, "    <cluster id=\"%s\" prefix=\"%s-\" suffix=\"\" radical=\"0-%d\" speed=\"1Gf\" "
             "bw=\"%.9gBps\" lat=\"%.9gs\" sharing_policy=\"SPLITDUPLEX\" bb_bw=\"%.9gBps\" "
             "bb_lat=\"0s\" bb_sharing_policy=\"%s\" router_id=\"%s-gw\"/>\n",
          c->name, c->name, c->n - 1, nic, c->alpha / 2,
          contended ? c->n / (c->gamma * c->beta) : nic, contended ? "SHARED" : "FATPIPE",
          c->name);
}

int gc_platform_write_xml(FILE *f, const struct gc_platform *p)
{
  if (!f || !valid(p))
    return -1;
  fprintf(f, "<?xml version='1.0'?>\n"
             "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
             "<platform version=\"4.1\">\n"
             "  <!-- Written by gridcoll-calibrate -p from what it measured. Run it with\n"
             "       smpirun -platform THIS.xml -hostfile THIS.hosts and the options\n"
             "       cfg=smpi/lat-factor:0:1 and cfg=smpi/bw-factor:0:1 (SMPI's default\n"
             "       factors, calibrated for a LAN, would scale every link).\n"
             "       A cluster's private links carry one flow as measured by ping-pong; its\n"
             "       backbone carries what its all-to-all showed. Between clusters, wan-A-B is\n"
             "       the backbone that many flows share (aggregate), flow-A-B caps each flow at\n"
             "       what one flow reached. -->\n"
             "  <zone id=\"measured\" routing=\"Full\">\n");
  for (int c = 0; c < p->k; c++)
    write_cluster(f, &p->cl[c]);
  for (int a = 0; a < p->k; a++)
    for (int b = 0; b < p->k; b++) {
      if (a == b)
        continue;
      const struct gc_platform_cluster *x = &p->cl[a], *y = &p->cl[b];
      double lat = p->latency[a * p->k + b] - x->alpha / 2 - y->alpha / 2;
      double one = p->bandwidth[a * p->k + b];
      double agg = p->aggregate ? p->aggregate[a * p->k + b] : 0;
      if (lat < 0)
        fprintf(f, "    <!-- %s to %s: wide-area latency %.6g us is below the two private "
                   "links'; 0 here -->\n", x->name, y->name, p->latency[a * p->k + b] * 1e6);
      if (!(agg > 0))
        fprintf(f, "    <!-- %s to %s: no aggregate measured: the backbone gets one flow's "
                   "bandwidth -->\n", x->name, y->name);
      fprintf(f, "    <link id=\"wan-%s-%s\" bandwidth=\"%.9gBps\" latency=\"%.9gs\" "
                 "sharing_policy=\"SHARED\"/>\n", x->name, y->name, agg > 0 ? agg : one,
              lat > 0 ? lat : 0);
      fprintf(f, "    <link id=\"flow-%s-%s\" bandwidth=\"%.9gBps\" latency=\"0s\" "
                 "sharing_policy=\"FATPIPE\"/>\n", x->name, y->name, isfinite(one) ? one : 1e12);
    }
  for (int a = 0; a < p->k; a++)
    for (int b = 0; b < p->k; b++)
      if (a != b)
        fprintf(f, "    <zoneRoute src=\"%s\" dst=\"%s\" gw_src=\"%s-gw\" gw_dst=\"%s-gw\" "
                   "symmetrical=\"NO\"><link_ctn id=\"wan-%s-%s\"/><link_ctn id=\"flow-%s-%s\"/>"
                   "</zoneRoute>\n", p->cl[a].name, p->cl[b].name, p->cl[a].name, p->cl[b].name,
                p->cl[a].name, p->cl[b].name, p->cl[a].name, p->cl[b].name);
  fprintf(f, "  </zone>\n</platform>\n");
  return ferror(f) ? -1 : 0;
}

int gc_platform_write_hosts(FILE *f, const struct gc_platform *p)
{
  if (!f || !valid(p) || p->nranks < 1 || !p->rank_cluster)
    return -1;
  /* On the heap: k comes from the user's configuration, no bound for the stack. */
  int *used = calloc((size_t)p->k, sizeof *used);
  if (!used)
    return -1;
  int rc = 0;
  for (int r = 0; r < p->nranks && rc == 0; r++) {
    int c = p->rank_cluster[r];
    if (c < 0 || c >= p->k || used[c] >= p->cl[c].n)
      rc = -1;
    else
      fprintf(f, "%s-%d\n", p->cl[c].name, used[c]++);
  }
  free(used);
  return rc == 0 && !ferror(f) ? 0 : -1;
}
