/* gridcoll-predict, run as a user would: its numbers must be the model functions' own,
 * and every bad input an exit status of 2 with a message. The tool is found at
 * $GC_BUILD/gridcoll-predict (default build/); run from the repository root. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "alltoall_algorithms.h"
#include "alltoallv_algorithms.h"
#include "config.h"
#include "layout.h"
#include "model.h"
#include "model_check.h"
#include "network.h"

static char out[16384];

/* Run the tool with `args` (stdout and stderr together into out); its exit status. */
static int run(const char *args)
{
  const char *build = getenv("GC_BUILD") ? getenv("GC_BUILD") : "build";
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s/gridcoll-predict %s 2>&1", build, args);
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  size_t n = fread(out, 1, sizeof out - 1, p);
  out[n] = '\0';
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* examples/grid5000.cfg: the published Gigabit Ethernet signature (50 us, 1 Gbit/s,
 * gamma 4.3628) and g5k2's wide area (5.5 ms, a 10 Gbit/s link). */

START_TEST(grid5000_two_clusters)
{
  ck_assert_int_eq(run("-c examples/grid5000.cfg -l 32,32 -s 1KiB,1MiB --csv"), 0);
  ck_assert_str_eq(strtok(out, "\n"), "bytes,native,lg,relay,auto");
  static const size_t sizes[] = {1024, 1048576};
  double nat[2], lg[2];
  for (int i = 0; i < 2; i++) {
    size_t m;
    char choice[16];
    ck_assert_int_eq(sscanf(strtok(NULL, "\n"), "%zu,%lg,%lg,,%15s", &m, &nat[i], &lg[i], choice), 4);
    ck_assert_uint_eq(m, sizes[i]);
    ck_assert_str_eq(choice, "native");
  }
  /* By hand. 1 KiB, posted at once (linear-grid, below the default native_pairwise of
   * 32 KiB): 50 us + max(31 * 1024 * 8 ns * 4.3628 = 1.108 ms, 5.5 ms) + max(32 * 1024 *
   * 8 ns, 32 * 32 * 1024 B / 1.25 GB/s = 0.8389 ms) = 6.3888608 ms. */
  ck_assert_rel(nat[0], 50e-6 + 5.5e-3 + 32.0 * 32 * 1024 / 1.25e9, 1e-8);
  /* lg-backbone: phase 1 sends 62 blocks (63 less the one staged on itself) at the
   * signature's rate, 50 us + 62 * 1024 * 8 ns * 4.3628; phase 2 50 us + 5.5 ms + the
   * link's 0.8389 ms. */
  ck_assert_rel(lg[0], 50e-6 + 62 * 1024 * 8e-9 * 4.3628 + 50e-6 + 5.5e-3 + 32.0 * 32 * 1024 / 1.25e9,
                1e-8);
  /* 1 MiB, pairwise (pairwise-grid): XOR partners, 31 steps inside a cluster at 50 us +
   * 8.389 ms, 32 across where 32 flows share the 1.25 GB/s link: 5.5 ms + 50 us +
   * 1 MiB / 39.0625 MB/s = 32.394 ms. */
  ck_assert_rel(nat[1], 31 * (50e-6 + 1048576 * 8e-9) + 32 * (5.55e-3 + 1048576 / 3.90625e7), 1e-8);
}
END_TEST

/* --bound: the relay planner's bound (issue 27) beside the rows, under every prediction
 * of the relayed run on korea8 (A-G 400 ms direct, 22 ms through H), and under LG's:
 * relaying lowers the link bound, and relay-backbone (no agreement per call, relay.c)
 * predicts the relayed run faster than LG's. At 1 MiB the plan gives A-G 9% of its
 * bytes, less than one of its 4 wide messages: the routes relay nothing, so relay
 * predicts nothing (an empty column) and `auto` runs LG, which is what relay would run. */
START_TEST(relay_bound)
{
  ck_assert_int_eq(run("-c examples/korea8.cfg -l 4,4,4,4,4,4,4,4 -s 64KiB,256KiB,1MiB --bound --csv"), 0);
  ck_assert_str_eq(strtok(out, "\n"), "bytes,native,lg,relay,bound,auto");
  for (int i = 0; i < 2; i++) {
    double m, nat, lg, relay, bound;
    char choice[16];
    ck_assert_int_eq(sscanf(strtok(NULL, "\n"), "%lg,%lg,%lg,%lg,%lg,%15s", &m, &nat, &lg,
                            &relay, &bound, choice), 6);
    ck_assert(bound > 0 && relay >= bound && lg > relay);
    ck_assert_str_eq(choice, "relay");
  }
  double m, nat, lg, bound;
  char choice[16];
  ck_assert_int_eq(sscanf(strtok(NULL, "\n"), "%lg,%lg,%lg,,%lg,%15s", &m, &nat, &lg, &bound,
                          choice), 5);
  ck_assert(m == 1048576 && bound > 0 && lg > bound);
  ck_assert_str_eq(choice, "lg");
}
END_TEST

/* The header names the formula of each column. */
START_TEST(grid5000_by_hand)
{
  ck_assert_int_eq(run("-c examples/grid5000.cfg -l 32,32 -s 1KiB"), 0);
  ck_assert_ptr_nonnull(strstr(out, "nancy 32 rennes 32"));
  ck_assert_ptr_nonnull(strstr(out, "native=linear-grid lg=lg-backbone"));
  ck_assert_ptr_nonnull(strstr(out, "1024   0.00638886   0.00865474            -  native"));
}
END_TEST

/* -n places ranks by the file's rank ranges; one cluster is the signature, and --linear
 * the contention-free bound (000 Eq. 1) beside it. */
START_TEST(ranks_and_linear)
{
  ck_assert_int_eq(run("-c examples/two-clusters.cfg -n 4 -s 0 --csv"), 0);
  /* 0 bytes: latencies only, 60 us + 5.5 ms posted at once; LG pays a local phase too. */
  ck_assert_ptr_nonnull(strstr(out, "\n0,0.00556,0.00562,,native\n"));
  ck_assert_int_eq(run("-n 4 -s 8KiB --linear --csv"), 0);
  double sig, lin, want_sig, want_lin;
  ck_assert_int_eq(sscanf(strchr(out, '\n') + 1, "8192,%lg,,,%lg,native", &sig, &lin), 2);
  struct gc_lan def = {.alpha = 60e-6, .beta = 8e-9, .gamma = 4.3628, .delta = 4.93e-3, .threshold = 8192};
  ck_assert_int_eq(gc_model_alltoall_signature(4, 8192, &def, &want_sig), 0);
  ck_assert_int_eq(gc_model_alltoall_linear(4, 8192, 60e-6, 8e-9, &want_lin), 0);
  ck_assert_rel(sig, want_sig, 1e-8);
  ck_assert_rel(lin, want_lin, 1e-8);
}
END_TEST

/* examples/hetero.cfg, 1000 bytes over 4 processes of one cluster: 004 Eq. 8 on the
 * binomial tree (0->1, 0->2, 2->3; the longest path has two edges). "fast": each edge
 * 25 + 1 + 25 + 1 + 1000 B / 125 MB/s (8) = 60 us, 2 * 60 + Gamma 10 + tau*M 0.2 = 130.2 us.
 * "slow" (no Gamma, tau): 60 + 4 + 60 + 4 + 80 = 208 us per edge, 416 us. */
START_TEST(hetero_bcast)
{
  ck_assert_int_eq(run("-c examples/hetero.cfg -o bcast -l 4,0 -s 1000"), 0);
  ck_assert_ptr_nonnull(strstr(out, "native=hetero-004-bcast"));
  ck_assert_int_eq(run("-c examples/hetero.cfg -o bcast -l 4,0 -s 1000 --csv"), 0);
  double t;
  ck_assert_int_eq(sscanf(strchr(out, '\n') + 1, "1000,%lg,", &t), 1);
  ck_assert_rel(t, 130.2e-6, 1e-8);
  ck_assert_int_eq(run("-c examples/hetero.cfg -o bcast -l 0,4 -s 1000 --csv"), 0);
  ck_assert_int_eq(sscanf(strchr(out, '\n') + 1, "1000,%lg,", &t), 1);
  ck_assert_rel(t, 416e-6, 1e-8);
}
END_TEST

/* The library's own pure rows of op (alltoall_algorithms.c, alltoallv_algorithms.c) for
 * even blocks of m bytes on the layout -l `counts` gives examples/grid5000.cfg's two
 * clusters: what the tool must print. */
static void library_rows(const struct gc_model_row *rows, int n, const int *counts, double m,
                         double *t)
{
  struct gc_config cfg;
  char err[GC_ERR_MAX];
  gc_config_defaults(&cfg);
  ck_assert_msg(gc_config_load(&cfg, "examples/grid5000.cfg", NULL, err, sizeof err) == 0, "%s", err);
  int ids[64], size = 0;
  for (int c = 0; c < 2; c++)
    for (int i = 0; i < counts[c]; i++)
      ids[size++] = c;
  struct gc_layout layout;
  struct gc_network net;
  ck_assert_int_eq(gc_layout_build(&layout, size, ids), 0);
  ck_assert_int_eq(gc_network_build(&net, &cfg, &layout), 0);
  double pair_bytes[4];
  struct gc_shape shape;
  gc_shape_blocks(&layout, m, 0, pair_bytes, &shape);
  ck_assert(pair_bytes[1] == (double)counts[0] * counts[1] * m); /* even blocks' totals */
  for (int i = 0; i < n; i++) {
    const char *model;
    t[i] = rows[i].predict(&net, &layout, &shape, &model);
  }
  gc_network_free(&net);
  gc_layout_free(&layout);
  gc_config_free(&cfg);
}

/* -o alltoallv: even blocks of m bytes, the library's alltoallv rows' numbers. With equal
 * blocks lgv-backbone is lg-backbone and linear-grid-v is linear-grid (doc/design.md,
 * Models), so below alltoall.native_pairwise (32 KiB here) both columns equal the
 * all-to-all's; from it on the library's own all-to-all is pairwise (another model) and
 * its alltoallv still posts everything at once. */
START_TEST(alltoallv_even_blocks)
{
  static const int layouts[][2] = {{32, 32}, {5, 27}};
  static const double sizes[] = {1024, 16384, 1048576};
  for (int l = 0; l < 2; l++) {
    char args[128];
    snprintf(args, sizeof args, "-c examples/grid5000.cfg -o alltoallv -l %d,%d -s 1KiB,16KiB,1MiB --csv",
             layouts[l][0], layouts[l][1]);
    ck_assert_int_eq(run(args), 0);
    ck_assert_str_eq(strtok(out, "\n"), "bytes,native,lg,auto");
    for (int s = 0; s < 3; s++) {
      double m, nat, lg, want_v[GC_ALLTOALLV_LAST], want[GC_ALLTOALL_LAST];
      char choice[16];
      ck_assert_int_eq(sscanf(strtok(NULL, "\n"), "%lg,%lg,%lg,%15s", &m, &nat, &lg, choice), 4);
      ck_assert(m == sizes[s]);
      library_rows(gc_alltoallv_models, GC_ALLTOALLV_LAST, layouts[l], m, want_v);
      library_rows(gc_alltoall_models, GC_ALLTOALL_LAST, layouts[l], m, want);
      ck_assert_rel(nat, want_v[GC_ALLTOALLV_NATIVE], 1e-8);
      ck_assert_rel(lg, want_v[GC_ALLTOALLV_LG], 1e-8);
      ck_assert_rel(lg, want[GC_ALLTOALL_LG], 1e-8);
      if (m < 32768)
        ck_assert_rel(nat, want[GC_ALLTOALL_NATIVE], 1e-8);
      ck_assert_str_eq(choice, lg < nat * (1 - 1e-9) ? "lg" : "native");
    }
  }
  /* By hand, 32+32 at 1 KiB: the all-to-all's linear-grid (grid5000_two_clusters). */
  ck_assert_int_eq(run("-c examples/grid5000.cfg -o alltoallv -l 32,32 -s 1KiB"), 0);
  ck_assert_ptr_nonnull(strstr(out, "# alltoallv, 64 processes in 2 cluster(s): nancy 32 rennes 32"));
  ck_assert_ptr_nonnull(strstr(out, "native=linear-grid-v lg=lgv-backbone"));
  ck_assert_ptr_nonnull(strstr(out, "1024   0.00638886   0.00865474  native"));
}
END_TEST

START_TEST(help)
{
  ck_assert_int_eq(run("--help"), 0);
  ck_assert_ptr_nonnull(strstr(out, "usage: gridcoll-predict"));
  ck_assert_ptr_nonnull(strstr(out, "[-o alltoall|bcast|alltoallv]"));
}
END_TEST

/* korea8 (examples/korea8.cfg), root in A, 2 bytes: the flat tree waits for A-G's
 * 400 ms link, the shortest-path tree reaches G through H in 22 ms and its slowest
 * cluster (F, through D) at 39 ms; each cluster then broadcasts over its 4 hosts,
 * 2 (50 us + 2 * 8 ns). HLOT is never later than flat, SPT never later than HLOT, and
 * auto takes the fastest. Without sites the multilevel tree is HLOT. */
START_TEST(korea8_trees)
{
  ck_assert_int_eq(run("-c examples/korea8.cfg -o bcast -l 4,4,4,4,4,4,4,4 -s 2 --csv"), 0);
  ck_assert_str_eq(strtok(out, "\n"), "bytes,native,flat,binomial,hlot,spt,greedy,multilevel,auto");
  double native, flat, binomial, hlot, spt, greedy, multilevel;
  char choice[16];
  ck_assert_int_eq(sscanf(strtok(NULL, "\n"), "2,%lg,%lg,%lg,%lg,%lg,%lg,%lg,%15s", &native, &flat,
                          &binomial, &hlot, &spt, &greedy, &multilevel, choice), 8);
  ck_assert(multilevel == hlot); /* korea8 names no sites: one level, HLOT */
  double intra = 2 * (50e-6 + 2 * 8e-9), wire = 2 * 8.0 / 100e6; /* 2 B over 100 Mbit/s */
  ck_assert(flat >= 0.400 + intra && flat < 0.400 + intra + 8 * (50e-6 + wire));
  ck_assert(spt >= 0.039 + intra && spt < 0.039 + intra + 4 * (50e-6 + wire));
  ck_assert(hlot <= flat && spt <= hlot && greedy <= spt);
  ck_assert_str_eq(choice, greedy < spt * (1 - 1e-9) ? "greedy" : "spt");
}
END_TEST

/* Every bad input: exit 2, a line saying what is wrong. */
static const struct {
  const char *args, *says;
} bad[] = {
    {"-x", "unknown option -x"},
    {"-c examples/grid5000.cfg", "exactly one of -l and -n"},
    {"-l 2,2 -n 4", "exactly one of -l and -n"},
    {"-c examples/grid5000.cfg -l 32", "has 2 clusters, -l gives 1"},
    {"-c examples/grid5000.cfg -n 64", "by host names"},
    {"-c /nonexistent.cfg -n 4", "/nonexistent.cfg"},
    {"-n 4 -o gather", "-o: expected alltoall, bcast or alltoallv, got \"gather\""},
    {"-n 0", "-n: expected a whole number >= 1"},
    {"-n 4 -s 5parsecs", "-s:"},
    {"-n 4 -s 1MiB:1KiB", "0 < LO <= HI"},
    {"-l 2,x", "-l: expected a whole number"},
    {"-l 2,2 -s 1KiB --linear", "--linear"},
    {"-n", "needs a value"},
    {"-n 4 extra", "unexpected argument"},
};

START_TEST(bad_input)
{
  int rc = run(bad[_i].args);
  ck_assert_msg(rc == 2, "%s: exit %d, output: %s", bad[_i].args, rc, out);
  ck_assert_msg(strstr(out, bad[_i].says), "%s: expected \"%s\" in: %s", bad[_i].args,
                bad[_i].says, out);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("gridcoll-predict");
  TCase *core = tcase_create("core");
  tcase_add_test(core, grid5000_two_clusters);
  tcase_add_test(core, grid5000_by_hand);
  tcase_add_test(core, alltoallv_even_blocks);
  tcase_add_test(core, ranks_and_linear);
  tcase_add_test(core, relay_bound);
  tcase_add_test(core, help);
  tcase_add_test(core, hetero_bcast);
  tcase_add_test(core, korea8_trees);
  suite_add_tcase(s, core);
  TCase *limits = tcase_create("limits");
  tcase_add_loop_test(limits, bad_input, 0, (int)(sizeof bad / sizeof bad[0]));
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
