/* The SimGrid platform of a measured grid (gridcoll-calibrate -p), pure C: what was
 * measured, as links SimGrid simulates, so that `smpirun -platform` runs an application
 * on the user's own grid as measured, gridcoll inside, before booking it. */
#ifndef GC_TOOLS_PLATFORM_H
#define GC_TOOLS_PLATFORM_H

#include <stdio.h>

struct gc_platform_cluster {
  const char *name;  /* one plain word (gc_key_name): the hosts are NAME-0 .. NAME-(n-1) */
  int n;             /* hosts, one per process */
  double alpha;      /* one-way host-to-host latency, s */
  double beta;       /* inverse bandwidth of one flow, s/byte */
  double gamma;      /* contention ratio of its all-to-all (1: none) */
};

struct gc_platform {
  int k;
  const struct gc_platform_cluster *cl;         /* [k] */
  const double *latency, *bandwidth;            /* [k*k] one flow: one-way s, bytes/s */
  const double *aggregate;                      /* [k*k] many flows, bytes/s; NULL or 0:
                                                   not measured */
  int nranks;
  const int *rank_cluster;                      /* [nranks] cluster of each world rank */
};

/* The platform (XML, SimGrid DTD 4.1): per cluster, a SimGrid cluster whose private links
 * carry one flow (bandwidth 1/beta, latency alpha/2 each way: a message crosses two) and
 * whose backbone carries what its all-to-all showed (shared at n/(gamma*beta) when gamma
 * > 1.05, else non-blocking); per ordered cluster pair, a shared backbone link at the
 * aggregate bandwidth carrying the wide-area latency less the two private links, then a
 * per-flow cap at one flow's bandwidth (a FATPIPE link: each flow gets it whole).
 * 0, or -1 on a write error or invalid input. */
int gc_platform_write_xml(FILE *f, const struct gc_platform *p);
/* The host file: line r is the host of world rank r (NAME-i, i its place in its cluster),
 * so the simulated ranks sit in the clusters where they were measured. */
int gc_platform_write_hosts(FILE *f, const struct gc_platform *p);

#endif
