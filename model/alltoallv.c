/* MPI_Alltoallv across clusters: the native algorithm (000 Eq. 6 with variable counts) and
 * LG-v (000 Eq. 7 with variable counts), from per-cluster-pair byte totals.
 *
 * The counts differ per rank, but both algorithms move all of a cluster pair's bytes
 * together, so the totals bytes[c*k + d] (everything the ranks of cluster c send to the
 * ranks of cluster d) are what the models read, spread evenly over the pair's messages.
 * A skewed pattern makes the busiest process slower than the even spread says: the log's
 * actual time shows that error. With every block m bytes, bytes[c][d] = n_c*n_d*m and
 * naive-grid-v is exactly naive-grid; lgv-grid's wide part is lg-grid's whenever the
 * smaller size of every pair divides the larger. */
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

/* 000 Eq. 6: inside cluster c, (n_c - 1) messages of the average local block; across, a
 * process of c sends n_d messages of the average block to every cluster d and receives
 * n_d from it, full duplex, the busiest cluster's process sets the wide part. */
int gc_model_naive_grid_v(const struct gc_model_grid *g, const double *bytes, double *t)
{
  if (!t || gc_model_grid_check(g) != GC_MODEL_OK || !bytes_ok(g, bytes))
    return GC_MODEL_EINVAL;
  double local = 0.0, wide = 0.0;
  for (int c = 0; c < g->k; c++) {
    double nc = g->size[c], send = 0.0, recv = 0.0;
    local = gc_model_max(local, (nc - 1) * gc_model_sig_msg(&g->lan[c],
                                                            bytes[c * g->k + c] / (nc * nc)));
    for (int d = 0; d < g->k; d++) {
      if (d == c)
        continue;
      double nd = g->size[d];
      send += nd * gc_model_wan_msg(g, c, d, bytes[c * g->k + d] / (nc * nd));
      recv += nd * gc_model_wan_msg(g, d, c, bytes[d * g->k + c] / (nc * nd));
    }
    wide = gc_model_max(wide, gc_model_max(send, recv));
  }
  *t = local + wide;
  return GC_MODEL_OK;
}

/* LG-v (shim/alltoallv/lgv_schedule.h, SPEC section 3's pairs):
 *   local phase of cluster c: every process sends all it has (its share of c's row,
 *     sum_d bytes[c][d] / n_c) in n_c messages, n_c - 1 of them on the network: (n_c - 1)
 *     contention-signature terms of sum_d bytes[c][d] / n_c^2 bytes. (lg-grid charges only
 *     the local blocks; LG's local phase carries the staged ones too, as lg-refined says.)
 *   pair (A, B), a <= b: A -> B is b messages (one per B member), B -> A is a*ceil(b/a);
 *     the busiest process (an A member) sends ceil(b/a) of them one after another, so the
 *     pair costs ceil(b/a) rounds of the slower direction's average message; pairs run
 *     concurrently and the slowest sets the wide part, as in gc_model_lg_grid. */
int gc_model_lgv_grid(const struct gc_model_grid *g, const double *bytes, double *t)
{
  if (!t || gc_model_grid_check(g) != GC_MODEL_OK || !bytes_ok(g, bytes))
    return GC_MODEL_EINVAL;
  double local = 0.0, wide = 0.0;
  for (int c = 0; c < g->k; c++) {
    double nc = g->size[c], row = 0.0;
    for (int d = 0; d < g->k; d++)
      row += bytes[c * g->k + d];
    local = gc_model_max(local, (nc - 1) * gc_model_sig_msg(&g->lan[c], row / (nc * nc)));
  }
  for (int c = 0; c < g->k; c++)
    for (int d = c + 1; d < g->k; d++) {
      int A = gc_model_lg_plays_a(g->size, c, d) ? c : d, B = A == c ? d : c;
      int a = g->size[A], b = g->size[B], rounds = (b + a - 1) / a;
      double ab = bytes[A * g->k + B] / b, ba = bytes[B * g->k + A] / ((double)a * rounds);
      double round = gc_model_max(gc_model_wan_msg(g, A, B, ab), gc_model_wan_msg(g, B, A, ba));
      wide = gc_model_max(wide, rounds * round);
    }
  *t = local + wide;
  return GC_MODEL_OK;
}
