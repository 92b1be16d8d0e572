/* Broadcast trees over clusters and what they cost ("tree-nic-fanout": 001 Eq. 2 with
 * the sends of a leader posted at once and sharing its network interface, and SPEC
 * section 2's corrections).  Pure C, no MPI.
 *
 * Trees are built in shim/bcast/ (HLOT, flat, binomial, shortest path, greedy,
 * multilevel), all from one struct gc_tree_input, and costed here with the same edge
 * costs the builders themselves minimise, so the tree that runs is the tree that was
 * predicted.  Nodes are clusters (their leaders); the root's parent is -1; children are
 * stored in sending order (CSR): children[child_start[v] .. child_start[v+1]-1] are v's
 * children, served in that order.  Status codes are those of model.h. */
#ifndef GC_TREE_COST_H
#define GC_TREE_COST_H

#include <math.h>
#include <stddef.h>

#include "scratch.h"

struct gc_curve;

struct gc_tree {
  int n;            /* nodes 0..n-1 */
  int root;
  int *parent;      /* [n], parent[root] == -1 */
  int *child_start; /* [n+1], child_start[0] == 0, child_start[n] == n-1 */
  int *children;    /* [n-1] every node but the root exactly once */
  int cap;          /* nodes the arrays have room for (gc_tree_place): a builder writes a
                       tree of at most cap nodes; 0 for a tree laid out by hand */
};

/* A tree's arrays live in storage its owner holds (a tree cache entry's, made with the
 * cache; the scratch's, shim/bcast/pure/tree.h: gc_tree_take), never allocated by the
 * builder that fills them: gc_tree_ints(cap) ints hold a tree of up to cap nodes. */
static inline size_t gc_tree_ints(int cap)
{
  return 3 * (size_t)cap + 1;
}

/* Lays t's arrays over ints (gc_tree_ints(cap) of them): an empty tree (n == 0) of room
 * cap, for a builder to fill. */
static inline void gc_tree_place(struct gc_tree *t, int *ints, int cap)
{
  *t = (struct gc_tree){.n = 0, .root = -1, .parent = ints, .child_start = ints + cap,
                        .children = ints + 2 * (size_t)cap + 1, .cap = cap};
}

/* The wide-area parameters of one broadcast, over k clusters (LogP-style, 001 Eq. 2). */
struct gc_tree_input {
  int k;            /* clusters */
  int root;         /* root cluster, 0 <= root < k */
  const double *W;  /* [k*k] row-major one-way latency in seconds, W[c*k+n] from c to n;
                       NULL means every off-diagonal latency equals `uniform` */
  double uniform;   /* latency used when W is NULL */
  double send_gap;  /* o_s + g: time a sender is busy per message (s) */
  double recv_overhead; /* o_r (s) */
  const double *bw; /* optional [k*k] bandwidth in bytes/s per edge; NULL: ignore m */
  double bytes;     /* m: message size in bytes, used only with bw */
  const double *nic; /* optional [k] bandwidth of each leader's network interface, bytes/s,
                        shared by all the sends it has in flight; NULL: unlimited */
  double segment;   /* bytes per pipeline segment; 0 (or >= bytes): the whole message */
  int seg_ahead;    /* segments a leader keeps posted to each child at once (tree_exec.c:
                       the receives its children post ahead), which move as one group;
                       0: segments stream in order, one at a time (a FIFO transport) */
  int seg_requests; /* send requests a leader keeps for all its children together, so
                       seg_requests / children segments per child (read with seg_ahead
                       only); 0: no limit */
  const double *local_sends;   /* optional [k]: messages of `bytes` each leader sends itself
                                  in its own cluster's broadcast (started on arrival, through
                                  the same interface as its wide-area sends); NULL: none */
  const double *local_latency; /* optional [k]: the latency of those local sends */
  double window;    /* bytes one flow may have in flight (network.wan.window, a TCP
                       window): a flow of latency W runs at most window / (2W); 0: no cap */
  const int *site;  /* optional [k] site of each cluster (equal numbers: one site), read
                       by the multilevel tree only; NULL: every cluster a site of its own */
  const struct gc_curve *const *curve; /* optional [k*k]: the measured time of one message
                       from row to column cluster (model/curve.h; the configuration's
                       network.wan.curves), NULL for a pair without; NULL: none.  Where an
                       edge has one, it alone takes the curve's time (gc_tree_edge_alone) */
  struct gc_scratch *scratch; /* working memory (scratch.h) of the builders and the cost
                       below, at least gc_tree_row_scratch(k): the network view's
                       (gc_bcast_tree_input), carried in the input every builder and cost
                       already takes so that none of their signatures names it */
};

/* The rate one flow c -> n may reach: bw[c][n], and no more than window / (2 W[c][n]) (a
 * sender keeps at most one window in flight per round trip; SimGrid caps its flows the
 * same way, network/TCP-gamma).  INFINITY without bandwidths. */
static inline double gc_tree_edge_rate(const struct gc_tree_input *in, int c, int n)
{
  if (!in->bw)
    return INFINITY;
  double r = in->bw[(size_t)c * (size_t)in->k + (size_t)n];
  double w = in->W ? in->W[(size_t)c * (size_t)in->k + (size_t)n] : (c == n ? 0.0 : in->uniform);
  if (in->window > 0.0 && w > 0.0 && in->window / (2.0 * w) < r)
    r = in->window / (2.0 * w);
  return r;
}

/* Edge c -> n alone: *latency before its bytes move, then at most *rate bytes/s.  Without
 * a curve W[c][n] and gc_tree_edge_rate(c,n) (INFINITY without bandwidths); with one
 * (in->curve) the rate is the curve's largest sizes' (gc_model_curve_rate) and the
 * latency such that alone the message takes the curve's time at m
 * (gc_model_curve_message, model/link.c): the curve measured what the MPI library's
 * protocols make of one message on that link, which the line cannot bend to (and the
 * line's rate, fitted across the bend, may be 20 times too low: a shared edge then took
 * too long, +18% at 1 MiB on gen3). */
void gc_tree_edge_alone(const struct gc_tree_input *in, int c, int n, double *latency,
                        double *rate);

/* Edge c -> n alone delivers lat(c,n) = W[c][n] (+ m / rate(c,n) with bandwidth), or its
 * curve's time, after its send starts.  gap(c,n) = o_s+g (+ m/nic[c]) is what one more
 * child costs its parent's interface: the tree builders charge it to the later siblings
 * (the cost model itself, gc_model_tree_arrivals, shares the interface exactly). */
static inline double gc_tree_edge_lat(const struct gc_tree_input *in, int c, int n)
{
  double w, rate;
  gc_tree_edge_alone(in, c, n, &w, &rate);
  if (in->bw || in->curve)
    w += in->bytes / rate; /* 0 where the rate is unbounded */
  return w;
}

static inline double gc_tree_edge_gap(const struct gc_tree_input *in, int c, int n)
{
  (void)n;
  double g = in->send_gap;
  if (in->bw && in->nic)
    g += in->bytes / in->nic[c];
  return g;
}

/* 0 when t is a tree (consistent parent/children, every node reached from the root),
 * else GC_MODEL_EINVAL. */
int gc_model_tree_check(const struct gc_tree *t);

/* The nodes in breadth-first order from the root (parents before their children,
 * siblings in sending order) into order[t->n]; returns how many were reached (t->n for
 * a tree). */
int gc_tree_bfs_order(const struct gc_tree *t, int *order);

/* Arrival time T[i] of every cluster's leader (times[t->n]), "tree-nic-fanout": T(root) =
 * 0 and, for the j-th child n of c (in sending order),
 *   T(n) = T(c) + (j-1)(o_s+g) + W[c][n] + x(c,n) + o_r
 * where x(c,n) is the time m bytes take when c sends to all its children at once, each
 * flow at most gc_tree_edge_rate(c,n) and all of them sharing nic[c] in proportion to
 * 1 / W[c][n] (gc_model_fan_out: TCP's round-trip bias, as SimGrid shares a link; a
 * flow that finishes frees its share).  The executor (tree_exec.c) posts
 * every send of a leader at once, so a later child waits only for the posting, not for
 * the earlier transfers; 001 Eq. 2 as published charges every child all (c-1) sends.
 * With segments a leader forwards each segment as it arrives, but it keeps g(c) =
 * min(segments, seg_ahead, seg_requests / children(c)) of them posted to each child at
 * once, and those are concurrent flows sharing the edge: they arrive together, so the
 * pipeline advances by u(c) = g(c) s bytes, not s (a relay that gets all its segments
 * posted at once receives the first one with the last).  The first group reaches n at
 * F(n) = F(c) + (j-1)(o_s+g) + W + u/r, r = m/x(c,n) the flow's average rate, and the
 * last at T(n) = max(F(n) + (m-u)/r + (ceil(m/u)-1) W, T(c) + (j-1)(o_s+g) + W + u/r):
 * the pipeline runs at the slower of the edge and the parent's own arrivals, and every
 * group after the first pays W again (the child posts its receives a group at a time,
 * and a transfer starts only once its receive is posted).  seg_ahead 0: u = s, no
 * extra W (segments streamed in order over one connection).
 * 0, GC_MODEL_EINVAL (t not a tree over in->k nodes) or GC_MODEL_ENOMEM. */
int gc_model_tree_arrivals(const struct gc_tree_input *in, const struct gc_tree *t,
                           double *times);
/* The leaders' broadcast: max_i T(i) (001 Eq. 1 prints a sum; the broadcast ends with
 * the last arrival).  With zero gaps and o_r it is 001 Eq. 3 (flat tree) and Eq. 4. */
int gc_model_tree_leaders(const struct gc_tree_input *in, const struct gc_tree *t, double *out);
/* "tree-nic-fanout": the whole broadcast, max_i (T(i) + local[i]), local[i] the time of
 * cluster i's own broadcast, started by its leader on arrival (overlapping its wide-area
 * forwarding).  local[i] >= 0 for every cluster. */
int gc_model_bcast_tree(const struct gc_tree_input *in, const struct gc_tree *t,
                        const double *local, double *out);

/* What the three functions above take of in->scratch over k nodes (released before they
 * return): the arrivals' k doubles, then gc_model_tree_arrivals's breadth-first order (k
 * ints) and its per-leader fan-out arrays (8 (k+1) doubles). */
size_t gc_model_tree_scratch(int k);
/* What one broadcast tree row takes of the scratch over k clusters: the tree's storage
 * (gc_tree_ints(k) ints, when it is not a cache entry's), then the largest of every
 * builder of shim/bcast/pure/ (each says what it takes; the greedy tree's nests the
 * others' builds and costs) and the row's cost (gc_bcast_tree_predict: each cluster's
 * own broadcast time, k doubles, and gc_model_bcast_tree). What the network view's
 * scratch holds for the trees (scratch_bound.h: gc_scratch_bound). */
size_t gc_tree_row_scratch(int k);

#endif
