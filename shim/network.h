/* The network as one communicator sees it: pure C, no MPI.
 *
 * The configuration speaks of the world's clusters; a communicator spans some of them,
 * numbered by its layout. This view translates once, when the communicator's state is
 * built, so every prediction reads plain arrays indexed by local cluster. */
#ifndef GC_NETWORK_H
#define GC_NETWORK_H

#include "config.h"
#include "layout.h"
#include "model.h"

struct gc_network {
  struct gc_model_grid grid; /* points into the arrays below and into the layout */
  struct gc_lan *lan;        /* [k] */
  double *latency;           /* [k*k] one-way, s */
  double *bandwidth;         /* [k*k] bytes/s */
  int *site;                 /* [k] site of each cluster: the lowest local cluster of the same
                                configured `site`, itself when it names none */
};

/* Returns 0, or -1 when out of memory (net then holds nothing to free). The layout must
 * outlive the view. */
int gc_network_build(struct gc_network *net, const struct gc_config *cfg,
                     const struct gc_layout *layout);
void gc_network_free(struct gc_network *net);

/* Hockney cost of one m-byte message between local clusters a and b (a == b: inside). */
double gc_network_p2p(const struct gc_network *net, int a, int b, double m);

#endif
