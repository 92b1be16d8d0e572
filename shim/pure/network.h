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
  double *bandwidth;         /* [k*k] bytes/s, one flow */
  double *aggregate;         /* [k*k] bytes/s, many flows (0: none); NULL when the
                                configuration gives no network.wan.aggregate */
  double *nic;               /* [k] bytes/s of one process's network interface: 1/lan.beta
                                (INFINITY when beta is 0), shared by all its flows */
  struct gc_curve *curves;   /* the wide-area curves of the pairs that have one (model/
                                curve.h), NULL when none has */
  const struct gc_curve **wan_curve; /* [k*k] into curves, NULL for a pair without; NULL
                                when the configuration gives no network.wan.curves */
  /* The configuration's `native` table when it was measured on this communicator's size
   * and cluster sizes (the world calibrated), copied; NULL elsewhere, and the native rows
   * then predict from their formulas. [1 + k]: [0] MPI_Alltoall over its block, [1 + c]
   * MPI_Bcast from local cluster c; n 0 where not measured. */
  struct gc_curve *native;
  double pairwise;           /* alltoall.native_pairwise: block bytes from which the MPI
                                library's own all-to-all is a pairwise exchange */
  double *local_sends;       /* [k] ceil(log2 cluster size): messages a leader sends itself
                                in its cluster's binomial broadcast */
  double *local_alpha;       /* [k] lan[c].alpha, the latency of those messages */
  double eager;              /* bcast.native_eager: below it the MPI library's broadcast
                                posts a parent's sends at once (binomial-grid) */
  double segment;            /* bcast.segment: bytes per pipeline segment of the tree
                                broadcasts, 0 when whole (the tree model pipelines too) */
  int *site;                 /* [k] site of each cluster: the lowest local cluster of the same
                                configured `site`, itself when it names none */
  /* 004 (heterogeneous cluster): each cluster's parameters, hetero[c].set == 0 when the
   * configuration gives none; and the processors' C and t per rank, in layout->members
   * order (member x of cluster c at cluster_start[c] + x), so that a cluster's processors
   * are one slice. Built from the configuration only: equal on every rank. A view
   * assembled by hand may leave them NULL: no cluster then has 004 parameters. */
  struct gc_hetero *hetero;  /* [k] */
  double *proc_C, *proc_t;   /* [size] */
  /* The working memory of every model and tree builder a prediction on this communicator
   * runs (model/scratch.h), gc_scratch_bound(size, k) bytes (model/scratch_bound.h), made with the view so that
   * nothing is allocated per call: grid.scratch and every tree input
   * (gc_bcast_tree_input) point here. Not what the view says: predictions take from it
   * through a const view and give back all they took before they return. */
  struct gc_scratch scratch;
};

/* Returns 0, or -1 when out of memory (net then holds nothing to free). The layout must
 * outlive the view. Whatever a prediction on the view reads or works in is allocated
 * here, the scratch included, so that no prediction allocates. */
int gc_network_build(struct gc_network *net, const struct gc_config *cfg,
                     const struct gc_layout *layout);
void gc_network_free(struct gc_network *net);
/* The scratch of a view (gc_network_build's, or one assembled by hand), sized by the
 * bound of the layout's size and clusters, and pointed at by net->grid.scratch: 0, or -1
 * when out of memory (no scratch). */
int gc_network_scratch(struct gc_network *net, const struct gc_layout *layout);

/* The 004 model of local cluster c's processors, node x = member x (h points into net);
 * 0, or -1 when the cluster has no 004 parameters. */
/* The measured time of the MPI library's own call (net->native): the all-to-all of
 * block m (root < 0) or the broadcast of m bytes from communicator rank root, where root
 * is its cluster's leader (gridcoll-calibrate times it from there); < 0 when the view has
 * no table, or none for that call. */
double gc_network_native(const struct gc_network *net, const struct gc_layout *layout,
                         int root, double m);

int gc_network_hetero(const struct gc_network *net, const struct gc_layout *layout, int c,
                      struct gc_model_hetero *h);

#endif
