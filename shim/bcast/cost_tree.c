/* The tree cost model (001 Eq. 2 with SPEC section 2's corrections) and the order in
 * which a leader serves its children. Kept beside the trees, under its own names, until
 * model/ provides the shared formulas. */
#include "tree.h"

#include <math.h>
#include <stdlib.h>

/* Clusters in breadth-first order from the root into bfs[k]; returns how many were
 * reached (k for a spanning tree). */
static int bfs_order(const struct gc_tree *t, int *bfs)
{
  int head = 0, tail = 0;
  bfs[tail++] = t->root;
  while (head < tail && tail <= t->n) {
    int c = bfs[head++];
    for (int j = t->child_start[c]; j < t->child_start[c + 1] && tail < t->n; j++)
      bfs[tail++] = t->children[j];
  }
  return tail;
}

int gc_tree_arrivals(const struct gc_tree_input *in, const struct gc_tree *t,
                     int position_aware, double *T)
{
  int *bfs = malloc(sizeof(int) * (size_t)t->n);
  if (!bfs)
    return GC_TREE_ENOMEM;
  for (int i = 0; i < t->n; i++)
    T[i] = NAN; /* stays NaN where the tree does not reach */
  T[t->root] = 0.0;
  int reached = bfs_order(t, bfs);
  for (int h = 0; h < reached; h++) {
    int c = bfs[h], first = t->child_start[c], end = t->child_start[c + 1];
    double all = 0.0, before = 0.0;
    for (int j = first; j < end; j++)
      all += gc_tree_edge_gap(in, c, t->children[j]);
    for (int j = first; j < end; j++) {
      int n = t->children[j];
      double gap = gc_tree_edge_gap(in, c, n);
      /* 001 Eq. 2 charges (c-1) gaps to every child: all sends but its own. The
       * position-aware form charges only the sends made before it. */
      double wait = position_aware ? before : all - gap;
      T[n] = T[c] + wait + gc_tree_edge_lat(in, c, n) + in->recv_overhead;
      before += gap;
    }
  }
  free(bfs);
  return 0;
}

double gc_tree_time(const struct gc_tree_input *in, const struct gc_tree *t, int position_aware)
{
  double *T = malloc(sizeof(double) * (size_t)t->n);
  if (!T || gc_tree_arrivals(in, t, position_aware, T) != 0) {
    free(T);
    return NAN;
  }
  /* 001 Eq. 1 prints a sum over processes; the broadcast ends with the last one: max. */
  double worst = 0.0;
  for (int i = 0; i < t->n; i++) {
    if (isnan(T[i])) {
      worst = NAN;
      break;
    }
    if (T[i] > worst)
      worst = T[i];
  }
  free(T);
  return worst;
}

/* Children order. A leader c serving children j with send gap p_j and "delivery time"
 * a_j = lat(c,j) + o_r + tail(j) (tail = how long j's subtree runs once j has the data)
 * finishes at max_j (S_j + a_j), S_j = the gaps of the children served before j. That is
 * one-machine scheduling with delivery times q_j = a_j - p_j, where serving the largest
 * q_j first (Jackson's rule) is optimal; with equal gaps it is "the child whose subtree
 * finishes last goes first". Done bottom-up, the tails are minimal too, so this order is
 * optimal for the tree's shape under the position-aware model. We prefer it to the
 * construction order: it is never worse, even for the greedy tree whose construction
 * order is exactly what its own model charged. */
int gc_tree_order_children(const struct gc_tree_input *in, struct gc_tree *t)
{
  int k = t->n;
  int *bfs = malloc(sizeof(int) * (size_t)k);
  double *tail = malloc(sizeof(double) * (size_t)k);
  double *q = malloc(sizeof(double) * (size_t)k);
  if (!bfs || !tail || !q) {
    free(bfs);
    free(tail);
    free(q);
    return GC_TREE_ENOMEM;
  }
  int reached = bfs_order(t, bfs);
  for (int h = reached - 1; h >= 0; h--) { /* children before their parent */
    int c = bfs[h], first = t->child_start[c], end = t->child_start[c + 1];
    for (int j = first; j < end; j++) {
      int n = t->children[j];
      q[n] = gc_tree_edge_lat(in, c, n) + in->recv_overhead + tail[n] -
             gc_tree_edge_gap(in, c, n);
    }
    /* Insertion sort, largest q first, ties by cluster index: deterministic on every
     * rank. Lists are short (at most k-1 entries, k a few dozen clusters). */
    for (int j = first + 1; j < end; j++) {
      int n = t->children[j], i = j;
      while (i > first && (q[t->children[i - 1]] < q[n] ||
                           (q[t->children[i - 1]] == q[n] && t->children[i - 1] > n))) {
        t->children[i] = t->children[i - 1];
        i--;
      }
      t->children[i] = n;
    }
    double s = 0.0, fin = 0.0;
    for (int j = first; j < end; j++) {
      int n = t->children[j];
      double p = gc_tree_edge_gap(in, c, n);
      if (s + p + q[n] > fin)
        fin = s + p + q[n];
      s += p;
    }
    tail[c] = fin;
  }
  free(bfs);
  free(tail);
  free(q);
  return 0;
}
