/* gridcoll analytic models: what a call should cost, as pure functions (no MPI).
 *
 * Every model returns a status (0, or a negative GC_MODEL_E* code) and writes its
 * prediction, in seconds, through the last argument, which it leaves untouched on error.
 * Sizes m are bytes (one all-to-all block per peer, or the broadcast message).  Units of
 * parameters: times in s, inverse bandwidths (beta) in s/byte, bandwidths (wide-area
 * matrices, as in config.h) in bytes/s; a bandwidth may be INFINITY (no size term).
 * Every parameter must be finite and >= 0 (bandwidths > 0) or the call is EINVAL: the
 * model never returns NaN.  Equation numbers are those of the papers in seeds/ (000: all-
 * to-all contention and grid models, 001: tree cost, 004: heterogeneous cluster);
 * doc/reference.md section 2 lists the corrections applied to them.  Tree costs are in
 * tree_cost.h (included here), parameter fitting in fit.h.
 *
 * Every formula the library evaluates at run time is here, under one name (names.c): the
 * log's `model` column, gridcoll-predict's header and scripts/gridcoll-report all print
 * that name, and it means that formula.  The shim's rows (shim/<op>/pure/
 * <op>_algorithms.c) only choose which formula applies to a call and gather its inputs. */
#ifndef GC_MODEL_H
#define GC_MODEL_H

#include <stddef.h>
#include "config.h"
#include "scratch.h"
#include "tree_cost.h"

/* Status codes. The callers (the shim's rows, gridcoll-calibrate) say in their own words
 * what a failure means for them, so no message table. */
enum {
  GC_MODEL_OK = 0,
  GC_MODEL_EINVAL = -1,     /* invalid argument */
  GC_MODEL_ENOMEM = -2,     /* out of working memory: no scratch, or one smaller than the
                               bound (scratch.h), which never happens to a network view's */
  GC_MODEL_EDEGENERATE = -3 /* the samples do not determine the parameters */
};

/* ---- names written into the logs: one row per formula, id -> name ----------------- */
enum gc_model_id {
  GC_MODEL_HOCKNEY_LINEAR,    /* gc_model_alltoall_linear: 000 Eq. 1, Prop. 1 */
  GC_MODEL_SIGNATURE,         /* gc_model_alltoall_signature: 000 Eq. 4, 5 */
  GC_MODEL_BINOMIAL_HOCKNEY,  /* gc_model_bcast_binomial_hockney */
  GC_MODEL_BINOMIAL_GRID,     /* gc_model_bcast_binomial_grid */
  GC_MODEL_TREE_NIC_FANOUT,   /* gc_model_bcast_tree (tree_cost.h): 001 Eq. 2, NIC shared */
  GC_MODEL_HETERO_BCAST,      /* gc_model_hetero_bcast_binomial: 004 Eq. 8 */
  GC_MODEL_LINEAR_GRID,       /* gc_model_linear_grid: native, posted at once */
  GC_MODEL_PAIRWISE_GRID,     /* gc_model_pairwise_grid: native, pairwise steps */
  GC_MODEL_LG_BACKBONE,       /* gc_model_lg_backbone: LG, shared links, staged bytes */
  GC_MODEL_LINEAR_GRID_V,     /* gc_model_linear_grid_v: native alltoallv, posted at once */
  GC_MODEL_LGV_BACKBONE,      /* gc_model_lgv_backbone: LG-v, shared links, staged bytes */
  GC_MODEL_MEASURED,          /* the configuration's `native` table (gc_curve_time) */
  GC_MODEL_RELAY_BACKBONE,    /* gc_model_relay_backbone: LG with relayed shares */
  GC_MODEL_LAST
};

struct gc_model_info {
  enum gc_model_id id;
  const char *name;   /* stable, written into the logs */
  const char *source; /* paper and equation */
  const char *desc;
};

const struct gc_model_info *gc_model_info(enum gc_model_id id); /* NULL when out of range */
const char *gc_model_name(enum gc_model_id id);                 /* "?" when out of range */

/* ---- point to point (p2p.c) ------------------------------------------------------- */
/* Hockney: alpha + m*beta (one round of binomial-hockney). */
int gc_model_p2p_hockney(size_t m, double alpha, double beta, double *t);

/* ---- all-to-all on one cluster (alltoall.c) ---------------------------------------- */
/* Linear all-to-all (000 Eq. 1) = 1-port lower bound (000 Prop. 1): (n-1)(alpha + m*beta). */
int gc_model_alltoall_linear(int n, size_t m, double alpha, double beta, double *t);
/* Contention signature (000 Eq. 4, 5): (n-1)(alpha + m*beta*gamma [+ delta if m >= M]). */
int gc_model_alltoall_signature(int n, size_t m, const struct gc_lan *lan, double *t);

/* ---- all-to-all across clusters (grid.c, grid_exchange.c) ----------------------------- */
/* LG's roles (reference.md section 3): 1 when cluster x plays A against cluster y, sizes [k]:
 * the smaller, or on equal sizes the lower index.  The LG schedule uses this rule too. */
int gc_model_lg_plays_a(const int *size, int x, int y);

/* k clusters: sizes, one gc_lan each, and k x k row-major wide-area matrices (from row
 * cluster to column cluster; the diagonal is never read).  The matrices may be NULL
 * when k == 1. */
struct gc_model_grid {
  int k;
  const int *size;              /* [k] processes per cluster, each >= 1 */
  const struct gc_lan *lan;     /* [k] contention signature of each cluster network */
  const double *wan_latency;    /* [k*k] one-way latency alpha_w, s */
  const double *wan_bandwidth;  /* [k*k] bytes/s of one flow: beta_w = 1/bandwidth */
  const double *wan_aggregate;  /* [k*k] bytes/s of many concurrent flows from row to
                                   column cluster (the shared backbone), 0 for a pair
                                   without; NULL: none, no backbone term */
  double window;                /* bytes one wide-area flow keeps in flight per round trip
                                   (network.wan.window): a flow of one-way latency W runs at
                                   most window / (2 W); 0: no cap.  Read by the models of
                                   grid_exchange.c and binomial-grid, not by 000 Eq. 6-7 */
  struct gc_scratch *scratch;   /* working memory (scratch.h) of at least the need of the
                                   model called (below: gc_model_exchange_scratch,
                                   gc_model_binomial_grid_scratch); the network view's
                                   (shim/pure/network.h). It travels here, in what every
                                   grid model already takes, so that no signature names
                                   it. Taken from and given back during the call only. */
  const struct gc_curve *const *wan_curve; /* [k*k] the measured time of one message from
                                   row to column cluster (curve.h), NULL for a pair without;
                                   NULL: none.  Inside a cluster: lan[c].curve */
};

/* ---- one message over one link, measured (link.c; curve.h) ------------------------- */
/* One message of m bytes inside a cluster of network l: its curve when it has one, else
 * Hockney's alpha + m*beta (gc_model_p2p_hockney, the same arithmetic). */
int gc_model_p2p_lan(const struct gc_lan *l, size_t m, double *t);
/* The curve of one message from cluster c to cluster d of g (c == d: inside c); NULL when
 * the configuration gives none. */
const struct gc_curve *gc_model_link_curve(const struct gc_model_grid *g, int c, int d);
/* A message of m bytes that a model charges *latency and then moves at no more than
 * *rate bytes/s, its rate alone on its link: without a curve both are left as they are
 * (the model is unchanged); with one they are set so that alone the message takes the
 * curve's time: *latency = curve(m) - m / *rate, or, where the curve is faster than that
 * rate (it measured what the line's fit smoothed over), *latency 0 and *rate m / curve(m).
 * Where the model then shares a link or an interface among concurrent flows (which a
 * curve, measured one message at a time, says nothing of), the share still slows the
 * message down.  Returns 1 when a curve set them, 0 otherwise. */
int gc_model_curve_message(const struct gc_curve *cv, double m, double *latency, double *rate);
/* What one wide-area flow from cluster c to d moves at once latency no longer counts: its
 * curve's last segment's rate (gc_model_curve_rate) where the configuration measured
 * one, else the bandwidth, window-capped. */
double gc_model_flow_rate(const struct gc_model_grid *g, int c, int d);
/* A wide-area message of msg bytes from cluster c to d alone on its link: the latency a
 * model charges it, and the rate it then moves at (*rate, gc_model_flow_rate).  Without
 * the pair's curve W_cd; with one, a latency such that alone it takes the curve's time at
 * msg (gc_model_curve_message: a protocol switch shows here as in every model).
 * Every wide-area message of the all-to-all models and of the relay planner is charged
 * so. */
double gc_model_wan_message(const struct gc_model_grid *g, int c, int d, double msg,
                            double *rate);
/* The rate curve cv's largest sizes move at (its last segment's slope): what one flow
 * gets of its link once latency no longer counts; INFINITY where that segment does not
 * rise, 0 without a curve.  The wide-area rate the all-to-all models read where a pair
 * has a curve: the line's fit over 1 KiB-1 MiB may be far from it where the MPI library
 * switches protocol (SimGrid's default network, the demo's grid: 5.6 MB/s fitted on a
 * 125 MB/s link, the curve's last segment 112 MB/s). */
double gc_model_curve_rate(const struct gc_curve *cv);


/* As the algorithms run (grid_exchange.c; issue 13): latency once per posted batch, each
 * process's interface (1/beta) carrying all its bytes, wan_bandwidth[c][d] the capacity
 * of the link from c to d shared by all the flows of that direction. */
/* The MPI library's exchange posted at once. */
int gc_model_linear_grid(const struct gc_model_grid *g, size_t m, double *t);
/* The MPI library's pairwise exchange over P ranks (rank r in cluster cluster_of[r]). */
int gc_model_pairwise_grid(const struct gc_model_grid *g, int P, const int *cluster_of,
                           size_t m, double *t);
/* LG: the local phase with its staged bytes, then the wide-area phase over shared links. */
int gc_model_lg_backbone(const struct gc_model_grid *g, size_t m, double *t);
/* LG with share[c*k + d] of pair (c,d)'s bytes relayed through cluster via[c*k + d] (-1:
 * none), the plan of shim/alltoall/pure/relay_plan.h, each leg in nseg parts: lg-backbone's
 * terms with every link carrying the relayed bytes that cross it; equals lg-backbone when
 * every share is 0. part (k x k, or NULL): the largest part of a relayed leg on each
 * link, as the routes make them (relay_plan.h: gc_alltoall_relay_part_bytes), at which a
 * leg's latency is charged; NULL or 0: at the pair's wide message's size. */
int gc_model_relay_backbone(const struct gc_model_grid *g, size_t m, const double *share,
                            const int *via, int nseg, const double *part, double *t);
/* What the all-to-all's relay row takes of g->scratch at once over n ranks in k clusters:
 * its plan (a k x k matrix of doubles and one of ints), then the planner's work (8 k^2 +
 * 2k doubles, relay_plan.h) or, where the routes relay, its parts' sizes (k x k doubles)
 * and on them their work (4n doubles and 2n ints) or gc_model_relay_backbone's need. */
size_t gc_model_relay_row_scratch(int n, int k);
/* The latency of one of LG's wide messages of pair (c,d), blocks of m bytes, crossing
 * link (x,y): (c,d) itself, or a leg of its route through a relay (relay_plan.h; the
 * planner's price of a leg: relay-backbone charges the parts the routes make where it
 * knows their size). It carries min(n_c, n_d) blocks and is charged as
 * every wide message is (gc_model_wan_message: the link's curve at that size where there
 * is one, so a protocol switch costs each leg as it costs the direct message: gen3's
 * relayed legs of 640 KiB take 118-176 ms under SimGrid's default network, not the
 * 22-33 ms of the line's latency). *rate: the rate it then moves at, when rate is not NULL. */
double gc_model_lg_leg(const struct gc_model_grid *g, int x, int y, int c, int d, size_t m,
                       double *rate);
/* Bytes/s that `flows` concurrent flows from cluster c to d reach together: the link
 * (network.wan.aggregate, else the bandwidth) and no more than flows times one flow's
 * rate (window-capped): the rate lg-backbone's pairs and the relay planner use. */
double gc_model_link_rate(const struct gc_model_grid *g, int c, int d, int flows);
/* The most any model of grid_exchange.c (the four above and the two below) takes of
 * g->scratch at once, over k clusters: a k x k matrix of doubles and 5k doubles (see
 * grid_exchange.c). */
size_t gc_model_exchange_scratch(int k);

/* ---- all-to-all with variable counts across clusters (grid_exchange.c) -----------  */
/* bytes[c*k + d]: what all ranks of cluster c send to all ranks of cluster d, in total
 * (the diagonal: inside c), each finite and >= 0. */
/* Native MPI_Alltoallv posted at once: linear-grid on each process's even share. */
int gc_model_linear_grid_v(const struct gc_model_grid *g, const double *bytes, double *t);
/* LG-v (shim/alltoallv/pure/lgv_schedule.h): lg-backbone on each pair's average block. */
int gc_model_lgv_backbone(const struct gc_model_grid *g, const double *bytes, double *t);

/* ---- broadcast (bcast.c; trees over clusters in tree_cost.h) ------------------------ */
/* Binomial tree, Hockney: ceil(log2 P)*(alpha + m*beta). */
int gc_model_bcast_binomial_hockney(int P, size_t m, double alpha, double beta, double *t);
/* The same on a cluster network: ceil(log2 P) rounds of gc_model_p2p_lan (its curve when
 * it has one, else exactly gc_model_bcast_binomial_hockney). */
int gc_model_bcast_binomial_lan(int P, size_t m, const struct gc_lan *l, double *t);
/* The MPI library's binomial tree over P ranks spread over the clusters of g (rank r in
 * cluster cluster_of[r]), rooted at rank root ("binomial-grid"): below `eager` bytes a
 * parent's sends all start at once and share its interface, from it on they follow one
 * another, each alpha + m*beta inside a cluster, W + m/rate across the wide area, the
 * tree walked in time so that a link is shared only by the flows crossing it at once. */
int gc_model_bcast_binomial_grid(const struct gc_model_grid *g, int P, int root,
                                 const int *cluster_of, size_t m, double eager, double *t);
/* What gc_model_bcast_binomial_grid takes of g->scratch over P ranks in k clusters: O(P)
 * doubles and a k x k matrix of ints (see bcast.c). */
size_t gc_model_binomial_grid_scratch(int P, int k);

/* ---- heterogeneous cluster, 004 (hetero.c) ----------------------------------------- */
struct gc_model_hetero {
  int n;
  const double *C;    /* [n] fixed processing delay of each node, s */
  const double *t;    /* [n] processing time per byte of each node, s/byte */
  const double *rate; /* [n*n] beta_ij: transmission rate of link i -> j, bytes/s */
  double link_rate;   /* when rate is NULL: the rate of every link (a switched cluster's
                         one beta, without an n*n matrix), bytes/s */
};

/* 004 Eq. 8 on the MPICH binomial tree rooted at root: max path sum of 004 Eq. 5
 * (C_i + t_i*M + C_j + t_j*M + M/beta_ij per edge) + Gamma + tau*M. */
int gc_model_hetero_bcast_binomial(const struct gc_model_hetero *h, int root, size_t M,
                                   double Gamma, double tau, double *t);

#endif
