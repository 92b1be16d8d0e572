/* MPI_Alltoallv across clusters, as the algorithms run it (the fixed-size forms are in
 * grid_exchange.c): the MPI library's exchange posted at once ("linear-grid-v") and LG-v
 * ("lgv-backbone"), from per-cluster-pair byte totals.
 *
 * The counts differ per rank, but both algorithms move all of a cluster pair's bytes
 * together, so the totals bytes[c*k + d] (everything the ranks of cluster c send to the
 * ranks of cluster d) are what the models read, spread evenly over the pair's processes.
 * A skewed pattern makes the busiest process slower than the even spread says: the log's
 * actual time shows that error. With every block m bytes, bytes[c][d] = n_c*n_d*m and
 * each model is exactly its fixed-size form (linear-grid, lg-backbone), which the unit
 * test asserts.
 *
 * 000 Eq. 6 with variable counts (the former "naive-grid-v") charged n_d wide-area
 * latencies in a row: the native exchange looked 10 to 60 times slower than SMPI ran it,
 * and `auto` took LG-v where the library's posted-at-once exchange was faster (g5k2,
 * korea8: doc/benchmarks.md). */
#include "model.h"
#include "model_util.h"

static int bytes_ok(const struct gc_model_grid *g, const double *bytes)
{
  if (!bytes)
    return 0;
  for (int i = 0; i < g->k * g->k; i++)
    if (!gc_model_param_ok(bytes[i]))
      return 0;
  return 1;
}

/* The capacity of the link from c to d shared by all its flows, as grid_exchange.c:
 * network.wan.aggregate when the configuration measured one, else the wide-area
 * bandwidth. */
static double link_cap(const struct gc_model_grid *g, int c, int d)
{
  size_t cd = (size_t)c * (size_t)g->k + (size_t)d;
  return g->wan_aggregate && g->wan_aggregate[cd] > 0 ? g->wan_aggregate[cd] : g->wan_bandwidth[cd];
}

/* The time the shared links of c's pairs take to carry each direction's total, and the
 * largest wide-area latency of those pairs. */
static void wide_of(const struct gc_model_grid *g, const double *bytes, int c, double *link,
                    double *wlat)
{
  int k = g->k;
  *link = 0.0;
  *wlat = 0.0;
  for (int d = 0; d < k; d++) {
    if (d == c)
      continue;
    *link = gc_model_max(*link, gc_model_max(bytes[c * k + d] / link_cap(g, c, d),
                                             bytes[d * k + c] / link_cap(g, d, c)));
    *wlat = gc_model_max(*wlat, gc_model_max(g->wan_latency[c * k + d], g->wan_latency[d * k + c]));
  }
}

/* "linear-grid-v": every process posts its sends and receives at once (MPICH's
 * scattered alltoallv, SMPI's default, Open MPI's basic linear). For a process of c,
 * linear-grid's formula on its even share:
 *   alpha_c + max(local_c, W_c) + max(remote_c, link_c)
 * local_c = bytes[c][c] (n_c - 1) / n_c^2 beta_c gamma_c, its blocks to the other members
 * of its cluster (its own block is a copy); W_c the largest latency of c's pairs;
 * remote_c = the larger of what it sends out of c and receives into c, over its
 * interface (1/beta_c); link_c the slowest of c's shared links carrying its pair's total.
 * The latencies are paid once: the messages are in flight together. */
int gc_model_linear_grid_v(const struct gc_model_grid *g, const double *bytes, double *t)
{
  if (!t || gc_model_grid_check(g) != GC_MODEL_OK || !bytes_ok(g, bytes))
    return GC_MODEL_EINVAL;
  int k = g->k;
  double worst = 0.0;
  for (int c = 0; c < k; c++) {
    double nc = g->size[c], out = 0.0, in = 0.0, link, wlat;
    for (int d = 0; d < k; d++)
      if (d != c) {
        out += bytes[c * k + d] / nc;
        in += bytes[d * k + c] / nc;
      }
    wide_of(g, bytes, c, &link, &wlat);
    double local = bytes[c * k + c] * (nc - 1) / (nc * nc) * g->lan[c].beta * g->lan[c].gamma;
    double remote = gc_model_max(out, in) * g->lan[c].beta;
    worst = gc_model_max(worst, g->lan[c].alpha + gc_model_max(local, wlat) +
                                    gc_model_max(remote, link));
  }
  *t = worst;
  return GC_MODEL_OK;
}

/* "lgv-backbone": LG-v as shim/alltoallv/lgv.c runs it, lg-backbone's two phases on each
 * pair's average block (b_cd = bytes[c][d] / (n_c n_d)).
 * Phase 1, local: a process of c sends its row to the members of its cluster (its
 * local blocks to their owners, each remote block to the member that stages it) except
 * its own block and the blocks it stages itself: floor(n_d/n_c) blocks of the pair when c
 * plays A, one when it plays B:
 *   T1 = max_c alpha_c + held_c beta_c gamma_c   (held_c in bytes, for n_c > 1)
 * The stagers' size messages go in the same phase: alpha_c is paid even on empty blocks.
 * Phase 2, wide area, all pairs posted at once: an A member sends ceil(b/a) messages of a
 * blocks, a B member ceil(a/r) messages of r blocks (r its block's size), each block the
 * pair's average; it receives its own blocks, in_c (LG-v has no third phase):
 *   T2 = max_c (alpha_c + W_c) + max(max over links bytes[c][d] / bw,
 *                                    max_c max(out_c, in_c) beta_c)
 * (With equal blocks out_c >= in_c: lg-backbone's formula, which counts out_c only.)
 * T = T1 + T2: every byte crosses the wide area once, so T2 alone is at least the shared
 * link's bound. */
int gc_model_lgv_backbone(const struct gc_model_grid *g, const double *bytes, double *t)
{
  if (!t || gc_model_grid_check(g) != GC_MODEL_OK || !bytes_ok(g, bytes))
    return GC_MODEL_EINVAL;
  int k = g->k;
  double t1 = 0.0, lat = 0.0, link = 0.0, nic = 0.0;
  for (int c = 0; c < k; c++) {
    double nc = g->size[c], row = 0.0, kept = bytes[c * k + c] / (nc * nc), out = 0.0, in = 0.0;
    for (int d = 0; d < k; d++) {
      row += bytes[c * k + d] / nc;
      if (d == c)
        continue;
      in += bytes[d * k + c] / nc;
      double block = bytes[c * k + d] / (nc * g->size[d]);
      if (gc_model_lg_plays_a(g->size, c, d)) { /* a = n_c <= b = n_d */
        int a = g->size[c], b = g->size[d];
        kept += (double)(b / a) * block;
        out += (double)((b + a - 1) / a) * a * block;
      } else { /* c plays B: a = n_d <= b = n_c, r the smallest block of c */
        int a = g->size[d], b = g->size[c], r = b % a ? b % a : a;
        kept += block;
        out += (double)((a + r - 1) / r) * r * block;
      }
    }
    double held = gc_model_max(row - kept, 0.0), lc, wc;
    if (g->size[c] > 1)
      t1 = gc_model_max(t1, g->lan[c].alpha + held * g->lan[c].beta * g->lan[c].gamma);
    wide_of(g, bytes, c, &lc, &wc);
    link = gc_model_max(link, lc);
    if (k > 1)
      lat = gc_model_max(lat, g->lan[c].alpha + wc);
    nic = gc_model_max(nic, gc_model_max(out, in) * g->lan[c].beta);
  }
  *t = t1 + (k > 1 ? lat + gc_model_max(link, nic) : 0.0);
  return GC_MODEL_OK;
}
