/* Refined LG model ("lg-refined"): 000 Eq. 7 charged with the traffic LG really has under
 * the staging rules of SPEC section 3, for k clusters.
 *
 * Eq. 7 charges the local phase as a plain all-to-all among n_c processes (n_c - 1
 * messages of m bytes each), but LG's phase 1 also carries the blocks staged for the
 * other clusters, and its phase 2 has a partial last block when a does not divide b.
 *
 * Pair (c, d): one cluster plays A (a members), the other B (b members), by the rule the
 * schedule uses (gc_model_lg_plays_a: the smaller, on a tie the lower index).  B is
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
 * cluster.  No allocation; the cost is linear in n_c for a handful of clusters (below).
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
  return gc_model_lg_plays_a(g->size, c, d);
}

/* Messages of phase 1 in blocks of m bytes, split as: base(y), what every member sends to
 * y (its own block, plus what it stages on y for the pairs where c plays A: those depend
 * only on y), and extra, what a member x of the same B-block adds for a pair where c plays
 * B (it depends on y's position in the block, not on x). */
static long base_blocks(const struct gc_model_grid *g, int c, int y)
{
  long blocks = 1;
  for (int d = 0; d < g->k; d++)
    if (d != c && plays_a(g, c, d))
      blocks += g->size[d] / g->size[c] + (y < g->size[d] % g->size[c]);
  return blocks;
}

static int plays_b(const struct gc_model_grid *g, int c, int d)
{
  return d != c && !plays_a(g, c, d);
}

/* B-block of y for pair (c, d): [lo, hi). */
static void b_block(const struct gc_model_grid *g, int c, int d, int y, int *lo, int *hi)
{
  int a = g->size[d];
  *lo = y / a * a;
  *hi = *lo + a < g->size[c] ? *lo + a : g->size[c];
}

/* Blocks staged on y by each other member of y's B-block for pair (c, d). */
static long b_extra(const struct gc_model_grid *g, int c, int d, int y)
{
  int lo, hi, a = g->size[d];
  b_block(g, c, d, y, &lo, &hi);
  return a / (hi - lo) + (y - lo < a % (hi - lo));
}

/* Sum of b_extra(y) over the pairs whose B-block holds both x and y. */
static long shared_extra(const struct gc_model_grid *g, int c, int x, int y)
{
  long blocks = 0;
  for (int d = 0; d < g->k; d++)
    if (plays_b(g, c, d) && y / g->size[d] == x / g->size[d])
      blocks += b_extra(g, c, d, y);
  return blocks;
}

static double cost(const struct gc_model_grid *g, int c, long blocks, size_t m)
{
  return gc_model_sig_msg(&g->lan[c], (double)blocks * (double)m);
}

/* x receives base(x) + the extras of the B-blocks it shares with the sender; the members
 * of [lo, hi) fall into segments between block ends, each sharing a fixed set of blocks. */
static double receive(const struct gc_model_grid *g, int c, int x, int lo, int hi, size_t m)
{
  long bx = base_blocks(g, c, x);
  double sum = (g->size[c] - (hi - lo)) * cost(g, c, bx, m);
  for (int d1 = 0; d1 < g->k; d1++) {
    int e1[2];
    if (!plays_b(g, c, d1))
      continue;
    b_block(g, c, d1, x, &e1[0], &e1[1]);
    for (int i = 0; i < 2; i++) {
      int p = e1[i], next = hi, dup = 0;
      long extra = 0;
      for (int d2 = 0; d2 < g->k; d2++) {
        int e2[2];
        if (!plays_b(g, c, d2))
          continue;
        b_block(g, c, d2, x, &e2[0], &e2[1]);
        for (int j = 0; j < 2; j++) {
          dup |= e2[j] == p && (d2 < d1 || (d2 == d1 && j < i));
          next = e2[j] > p && e2[j] < next ? e2[j] : next;
        }
        extra += e2[0] <= p && p < e2[1] ? b_extra(g, c, d2, x) : 0;
      }
      if (p < hi && !dup)
        sum += (next - p) * cost(g, c, bx + extra, m);
    }
  }
  return sum - cost(g, c, bx + shared_extra(g, c, x, x), m); /* x sends nothing to itself */
}

/* Busiest member of cluster c in phase 1.  A member x sends to y base(y) + the extras of
 * the B-blocks they share; those blocks are intervals holding x, so they cover [lo, hi),
 * and their extras depend on y only.  The corrections over [lo, hi) are the same for all x
 * with the same blocks (a "cell"), so they are summed once per cell: O(n_c * k^3) plus
 * O(block) per cell, instead of O(n_c^2 * k) for every (x, y). */
static double local_cluster(const struct gc_model_grid *g, int c, size_t m)
{
  int n = g->size[c];
  double total = 0.0, cell = 0.0, worst = 0.0;
  if (n < 2)
    return 0.0;
  for (int y = 0; y < n; y++)
    total += cost(g, c, base_blocks(g, c, y), m);
  for (int x = 0; x < n; x++) {
    int lo = x, hi = x + 1, new_cell = x == 0, nb = 0;
    for (int d = 0; d < g->k; d++) {
      int l, h;
      if (!plays_b(g, c, d))
        continue;
      nb++;
      b_block(g, c, d, x, &l, &h);
      new_cell |= l == x;
      lo = l < lo ? l : lo, hi = h > hi ? h : hi;
    }
    long bx = base_blocks(g, c, x);
    if (nb == 0) { /* c plays A in every pair: rows differ only by the receiver */
      worst = gc_model_max(worst, gc_model_max(total - cost(g, c, bx, m),
                                               (n - 1) * cost(g, c, bx, m)));
      continue;
    }
    if (new_cell) {
      cell = 0.0;
      for (int y = lo; y < hi; y++) {
        long by = base_blocks(g, c, y);
        cell += cost(g, c, by + shared_extra(g, c, x, y), m) - cost(g, c, by, m);
      }
    }
    double send = total + cell - cost(g, c, bx + shared_extra(g, c, x, x), m);
    worst = gc_model_max(worst, gc_model_max(send, receive(g, c, x, lo, hi, m)));
  }
  return worst;
}

static double local_phase(const struct gc_model_grid *g, size_t m)
{
  double worst = 0.0;
  for (int c = 0; c < g->k; c++)
    worst = gc_model_max(worst, local_cluster(g, c, m));
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
