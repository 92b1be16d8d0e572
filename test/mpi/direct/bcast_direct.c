/* The tree broadcasts run directly (no LD_PRELOAD, no shim core), checked byte for byte
 * against PMPI_Bcast for every root, tree, latency matrix, segment size, datatype and
 * count. Usage: bcast_direct LAYOUT...; a layout is one korea8 cluster id (0..7 = A..H)
 * per rank, comma-separated ("0,0,6,7"); layouts of another size than the job are
 * skipped. Rank 0 prints a PASS or FAIL line per (layout, matrix, tree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_algorithms.h"
#include "bcast/tree_exec.h"
#include "bcast_check.h"
#include "comm_state_stub.h"

static const double korea8_ms[8][8] = {
  {0, 5, 25, 30, 90, 80, 400, 15},    {5, 0, 28, 33, 95, 85, 60, 18},
  {25, 28, 0, 6, 40, 20, 120, 45},    {30, 33, 6, 0, 10, 9, 110, 50},
  {90, 95, 40, 10, 0, 8, 12, 30},     {80, 85, 20, 9, 8, 0, 25, 35},
  {400, 60, 120, 110, 12, 25, 0, 7},  {15, 18, 45, 50, 30, 35, 7, 0},
};

/* The communicator's network view as the shim builds it from a configuration: korea8's
 * latencies between the world's 8 clusters, or the defaults (every latency equal). */
static void set_network(struct gc_comm_state *st, int korea8)
{
  static double W[64];
  struct gc_config cfg;
  gc_config_defaults(&cfg);
  if (korea8) {
    for (int c = 0; c < 8; c++)
      for (int d = 0; d < 8; d++)
        W[c * 8 + d] = korea8_ms[c][d] * 1e-3;
    cfg.nclusters = 8; /* only the matrix is read: clusters[] stays NULL */
    cfg.wan_latency = W;
  }
  gc_network_free(&st->network);
  if (gc_network_build(&st->network, &cfg, &st->layout) != 0)
    PMPI_Abort(MPI_COMM_WORLD, 2);
}

/* A chain over the clusters from the root's (the deepest pipeline there is). */
static int chain_run(const struct gc_bcast_call *call, struct gc_comm_state *st)
{
  int k = st->layout.nclusters, r = st->layout.cluster_of[call->root], parent[64], order[64];
  int storage[3 * 64 + 1]; /* gc_tree_ints(64) */
  struct gc_tree t;
  gc_tree_place(&t, storage, 64);
  for (int i = 0; i < k; i++) {
    order[i] = (r + i) % k;
    parent[order[i]] = i ? order[i - 1] : -1;
  }
  if (gc_tree_from_parents(k, r, parent, order, &t) != 0)
    return MPI_ERR_ARG;
  return gc_bcast_tree_run(call, st, &t);
}

/* Every tree on korea8's matrix (multi-hop trees), greedy also without a matrix (the
 * hook's default path), and a chain (the deepest pipeline). */
static const struct {
  const char *name;
  int row; /* in bcast_algorithms.h's table; -1: chain_run */
  int korea8;
} algs[] = {
  {"flat", GC_BCAST_FLAT, 1},     {"binomial", GC_BCAST_BINOMIAL, 1},
  {"hlot", GC_BCAST_HLOT, 1},     {"spt", GC_BCAST_SPT, 1},
  {"greedy", GC_BCAST_GREEDY, 1}, {"greedy", GC_BCAST_GREEDY, 0},
  {"chain", -1, 1},
};

/* (count, segment size): whole messages at every count, one element per segment (with a
 * pipeline of 5 and 37 segments), 1000-byte segments that are not a multiple of any
 * type's size (with a remainder segment). */
static const struct {
  int count;
  size_t seg;
} sizes[] = {
  {0, 0}, {1, 0}, {5, 0}, {37, 0}, {4001, 0}, {5, 1}, {37, 1}, {37, 1000}, {4001, 1000},
};

struct ctx {
  struct gc_comm_state *st;
  int alg;
  size_t segment_bytes;
};

static int run_alg(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, void *p)
{
  struct ctx *c = p;
  int tsize;
  PMPI_Type_size(dt, &tsize);
  struct gc_bcast_call call = {buf, count, dt, root, comm, (size_t)count * (size_t)tsize, 0,
                               c->segment_bytes};
  /* As the dispatch: a call no tree supports (one cluster) goes to the library. */
  if (!gc_bcast_tree_supports(&call, c->st))
    return PMPI_Bcast(buf, count, dt, root, comm);
  if (algs[c->alg].row < 0)
    return chain_run(&call, c->st);
  /* No plan from a prediction: the run takes its tree from the state's cache. */
  struct gc_plan plan = {.algorithm = algs[c->alg].row, .predicted = -1};
  return gc_bcast_tree_run_plan(&call, c->st, &plan);
}

/* One cluster id per rank from "0,0,6,7"; 0 when it does not fit this job. */
static int parse_layout(const char *s, int size, int *ids)
{
  int n = 0;
  for (const char *p = s; *p && n <= size; n++) {
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p || v < 0 || v > 7)
      return 0;
    if (n < size)
      ids[n] = (int)v;
    p = *end == ',' ? end + 1 : end;
  }
  return n == size;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failures = 0, cases = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  struct bcheck_type types[BCHECK_NTYPES];
  if (bcheck_types_create(types) != MPI_SUCCESS)
    PMPI_Abort(MPI_COMM_WORLD, 2);
  int ids[64];
  for (int a = 1; a < argc; a++) {
    if (size > 64 || !parse_layout(argv[a], size, ids))
      continue;
    struct gc_comm_state st;
    if (gc_test_state_init(&st, MPI_COMM_WORLD, ids) != MPI_SUCCESS)
      PMPI_Abort(MPI_COMM_WORLD, 2);
    for (size_t alg = 0; alg < sizeof algs / sizeof algs[0]; alg++) {
      const char *matrix = algs[alg].korea8 ? "korea8" : "uniform";
      set_network(&st, algs[alg].korea8);
      int bad = 0, n = 0;
      struct ctx ctx = {&st, (int)alg, 0};
      for (int ty = 0; ty < BCHECK_NTYPES; ty++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
          ctx.segment_bytes = sizes[z].seg;
          for (int root = 0; root < size; root++) {
            int rc, nb = bcheck_case(MPI_COMM_WORLD, root, sizes[z].count, types[ty].type,
                                     (unsigned)(cases + n), run_alg, &ctx, &rc);
            n++;
            if (nb != 0) {
              bad++;
              if (rank == 0)
                printf("FAIL layout=%s matrix=%s tree=%s type=%s count=%d seg=%zu root=%d: "
                       "%d ranks differ\n", argv[a], matrix, algs[alg].name, types[ty].name,
                       sizes[z].count, sizes[z].seg, root, nb);
            }
          }
        }
      if (rank == 0)
        printf("%s layout=%s matrix=%s tree=%s: %d cases (every root, type, count, segment)\n",
               bad ? "FAIL" : "PASS", argv[a], matrix, algs[alg].name, n);
      failures += bad;
      cases += n;
    }
    gc_test_state_free(&st);
  }
  if (rank == 0)
    printf("bcast_direct: %d ranks, %d cases, %d failed\n", size, cases, failures);
  bcheck_types_free(types);
  MPI_Finalize();
  return failures ? 1 : 0;
}
