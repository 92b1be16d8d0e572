/* Refined LG model ("lg-refined"): 000 Eq. 7 charged with the traffic LG really has under
 * the staging rules of SPEC section 3, for k clusters.
 *
 * Eq. 7 charges the local phase as a plain all-to-all among n_c processes (n_c - 1
 * messages of m bytes each), but LG's phase 1 also carries the blocks staged for the
 * other clusters, and its phase 2 has a partial last block when a does not divide b.
 *
 * Pair (c, d): the smaller cluster plays A (a members), the other B (b members); on a tie
 * the lower cluster index plays A (with a == b both roles stage the same counts).  B is
 * cut into blocks B_s of a members, r_s = min(a, b - s*a).
 *
 * Phase 1, staged blocks (SPEC section 3), seen from member x of cluster c sending to
 * member y != x of c:
 *   c plays A: A[x] stages its block for B[j] on A[j mod a], so y receives the blocks for
 *              the B[j] with j mod a == y: floor(b/a) + (y < b mod a) of them;
 *   c plays B: B[x] (block s = x/a) stages its block for A[k] on B[s*a + (k mod r_s)]:
 *              only y in the same block gets any, floor(a/r_s) + (y - s*a < a mod r_s).
 * Every member y also gets x's own block for y, and all of it travels in one message, so
 * the message x -> y carries m*(1 + sum over d of staged blocks) bytes (about (a + b)*m
 * per process in all, against (a - 1)*m in Eq. 7).  Each message costs one term of the
 * contention signature (alpha + bytes*beta*gamma, + delta from M on: 000 Eq. 5 with its
 * real size); a process sends and receives at once (full duplex), so it is busy for the
 * larger of its send and receive sums; the local phase is the busiest process of any
 * cluster.  Cost O(sum_c n_c^2 * k), no allocation.
 *
 * Phase 2, step s of pair (c, d): A[i] (i < r_s) sends one a*m-byte message to B[s*a+i],
 * while B[s*a+i] sends one r_s*m-byte message to each A[k] with k mod r_s == i, up to
 * ceil(a/r_s) of them, one after the other (1 port).  The step lasts the longer side; the
 * steps of a pair run in sequence and pairs run concurrently, as in gc_model_lg_grid.
 * When a divides b every step is one a*m message each way and this is Eq. 7's term. */
#include "model.h"
#include "model_util.h"

static int plays_a(const struct gc_model_grid *g, int c, int d)
{
  return g->size[c] < g->size[d] || (g->size[c] == g->size[d] && c < d);
}

/* Blocks member x of cluster c stages on member y (y != x) for the pair (c, d). */
static int staged(const struct gc_model_grid *g, int c, int d, int x, int y)
{
  if (plays_a(g, c, d)) {
    int a = g->size[c], b = g->size[d];
    return b / a + (y < b % a);
  }
  int a = g->size[d], b = g->size[c];
  int s = x / a;
  if (y / a != s)
    return 0;
  int r = b - s * a < a ? b - s * a : a;
  return a / r + (y - s * a < a % r);
}

static double message(const struct gc_model_grid *g, int c, int x, int y, size_t m)
{
  long blocks = 1;
  for (int d = 0; d < g->k; d++)
    if (d != c)
      blocks += staged(g, c, d, x, y);
  return gc_model_sig_msg(&g->lan[c], (double)blocks * (double)m);
}

static double local_phase(const struct gc_model_grid *g, size_t m)
{
  double worst = 0.0;
  for (int c = 0; c < g->k; c++)
    for (int x = 0; x < g->size[c]; x++) {
      double send = 0.0, recv = 0.0;
      for (int y = 0; y < g->size[c]; y++) {
        if (y == x)
          continue;
        send += message(g, c, x, y, m);
        recv += message(g, c, y, x, m);
      }
      worst = gc_model_max(worst, gc_model_max(send, recv));
    }
  return worst;
}

static double pair_phase(const struct gc_model_grid *g, int c, int d, size_t m)
{
  int A = plays_a(g, c, d) ? c : d, B = A == c ? d : c;
  int a = g->size[A], b = g->size[B];
  double total = 0.0;
  for (int s = 0; s * a < b; s++) {
    int r = b - s * a < a ? b - s * a : a;
    double a_side = gc_model_wan_msg(g, A, B, (double)a * (double)m);
    double b_side = ((a + r - 1) / r) * gc_model_wan_msg(g, B, A, (double)r * (double)m);
    total += gc_model_max(a_side, b_side);
  }
  return total;
}

int gc_model_lg_refined(const struct gc_model_grid *g, size_t m, double *t)
{
  if (!t || gc_model_grid_check(g) != GC_MODEL_OK)
    return GC_MODEL_EINVAL;
  double wide = 0.0;
  for (int c = 0; c < g->k; c++)
    for (int d = c + 1; d < g->k; d++)
      wide = gc_model_max(wide, pair_phase(g, c, d, m));
  *t = local_phase(g, m) + wide;
  return GC_MODEL_OK;
}
