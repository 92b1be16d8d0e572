/* model/link.c: one message over a link, from its curve where the configuration measured
 * one, from Hockney's line exactly as before where it did not; and the models that read
 * it (binomial-hockney's rounds, binomial-grid's and pairwise-grid's messages). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "layout.h"
#include "model_check.h"
#include "network.h"

/* SimGrid's default shape: a line to 64 KiB, a jump, a steeper line. */
static const struct gc_curve bent = {4, {1, 65535, 65536, 4194304}, {10e-6, 80e-6, 150e-6, 4e-3}};

static struct gc_lan lan_of(double alpha, double beta, const struct gc_curve *c)
{
  struct gc_lan l = {.alpha = alpha, .beta = beta, .gamma = 1};
  if (c)
    l.curve = *c;
  return l;
}

START_TEST(p2p_without_curve_is_hockney)
{
  struct gc_lan l = lan_of(60e-6, 8e-9, NULL);
  static const size_t sizes[] = {0, 1, 1000, 65536, 1 << 22, (size_t)1 << 40};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    double a, b, x, y;
    ck_assert_int_eq(gc_model_p2p_lan(&l, sizes[i], &a), 0);
    ck_assert_int_eq(gc_model_p2p_hockney(sizes[i], 60e-6, 8e-9, &b), 0);
    ck_assert(memcmp(&a, &b, sizeof a) == 0); /* bit for bit */
    for (int P = 1; P <= 65; P += 8) {
      ck_assert_int_eq(gc_model_bcast_binomial_lan(P, sizes[i], &l, &x), 0);
      ck_assert_int_eq(gc_model_bcast_binomial_hockney(P, sizes[i], 60e-6, 8e-9, &y), 0);
      ck_assert(memcmp(&x, &y, sizeof x) == 0);
    }
  }
  ck_assert_int_eq(gc_model_p2p_lan(NULL, 1, &(double){0}), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_p2p_lan(&l, 1, NULL), GC_MODEL_EINVAL);
}
END_TEST

START_TEST(p2p_with_curve)
{
  struct gc_lan l = lan_of(60e-6, 8e-9, &bent);
  double t;
  ck_assert_int_eq(gc_model_p2p_lan(&l, 65536, &t), 0);
  ck_assert(t == 150e-6);
  ck_assert_int_eq(gc_model_bcast_binomial_lan(8, 65535, &l, &t), 0);
  ck_assert_rel(t, 3 * 80e-6, REL);
}
END_TEST

START_TEST(curve_message)
{
  double lat = 5e-3, rate = 1e9;
  ck_assert_int_eq(gc_model_curve_message(NULL, 1e6, &lat, &rate), 0);
  struct gc_curve none = {0};
  ck_assert_int_eq(gc_model_curve_message(&none, 1e6, &lat, &rate), 0);
  ck_assert(lat == 5e-3 && rate == 1e9);
  /* Alone at its rate, latency + m / rate is the curve's time. */
  ck_assert_int_eq(gc_model_curve_message(&bent, 1048576, &lat, &rate), 1);
  ck_assert(rate == 1e9);
  ck_assert_rel(lat + 1048576 / rate, gc_curve_time(&bent, 1048576), REL);
  /* A curve faster than the rate: no latency, the curve's rate. */
  lat = 1, rate = 1;
  gc_model_curve_message(&bent, 4194304, &lat, &rate);
  ck_assert(lat == 0.0);
  ck_assert_rel(4194304 / rate, 4e-3, REL);
  /* An infinite rate moves nothing: the curve's time is all latency; so is an empty one. */
  lat = 1, rate = INFINITY;
  gc_model_curve_message(&bent, 100, &lat, &rate);
  ck_assert(lat == gc_curve_time(&bent, 100) && isinf(rate));
  lat = 1, rate = 1e9;
  gc_model_curve_message(&bent, 0, &lat, &rate);
  ck_assert(lat == gc_curve_time(&bent, 0) && rate == 1e9);
}
END_TEST

/* Two clusters, one rank each (or both in cluster 0): one message, across or inside. */
struct two {
  int size[2], cluster_of[2];
  struct gc_lan lan[2];
  double lat[4], bw[4];
  const struct gc_curve *wan[4];
  struct gc_model_grid g;
};

static void two_init(struct two *x, int across, const struct gc_curve *lan_curve,
                     const struct gc_curve *wan_curve)
{
  memset(x, 0, sizeof *x);
  x->size[0] = across ? 1 : 2, x->size[1] = across ? 1 : 1;
  x->cluster_of[0] = 0, x->cluster_of[1] = across ? 1 : 0;
  x->lan[0] = x->lan[1] = lan_of(20e-6, 1e-9, lan_curve);
  x->lat[1] = x->lat[2] = 5e-3;
  x->bw[0] = x->bw[3] = INFINITY;
  x->bw[1] = x->bw[2] = 5e8;
  x->wan[1] = x->wan[2] = wan_curve;
  x->g = (struct gc_model_grid){.k = 2, .size = x->size, .lan = x->lan, .wan_latency = x->lat,
                                .wan_bandwidth = x->bw, .scratch = gc_test_scratch(4, 2),
                                .wan_curve = wan_curve ? x->wan : NULL};
}

START_TEST(one_message_follows_the_curve)
{
  static const size_t sizes[] = {1, 1000, 60000, 65535, 65536, 100000, 1048576, 4194304, 8388608};
  struct gc_curve wan = bent;
  for (int i = 0; i < wan.n; i++)
    wan.t[i] += 5e-3;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    double m = (double)sizes[i], t;
    struct two x;
    /* Across: the wide-area curve, below the eager threshold (posted) and from it on (the
     * walk); the same pairwise. */
    two_init(&x, 1, NULL, &wan);
    ck_assert_int_eq(gc_model_bcast_binomial_grid(&x.g, 2, 0, x.cluster_of, sizes[i], 65536, &t), 0);
    ck_assert_rel(t, gc_curve_time(&wan, m), 1e-9);
    ck_assert_int_eq(gc_model_pairwise_grid(&x.g, 2, x.cluster_of, sizes[i], &t), 0);
    ck_assert_rel(t, gc_curve_time(&wan, m), 1e-9);
    /* Inside: the cluster's curve. */
    two_init(&x, 0, &bent, NULL);
    ck_assert_int_eq(gc_model_bcast_binomial_grid(&x.g, 2, 0, x.cluster_of, sizes[i], 65536, &t), 0);
    ck_assert_rel(t, gc_curve_time(&bent, m), 1e-9);
    ck_assert_int_eq(gc_model_pairwise_grid(&x.g, 2, x.cluster_of, sizes[i], &t), 0);
    ck_assert_rel(t, gc_curve_time(&bent, m), 1e-9);
  }
}
END_TEST

/* A grid whose wan_curve array holds no curve predicts what a grid without one does, bit
 * for bit. */
START_TEST(no_curve_no_change)
{
  struct gc_curve empty[4] = {{0}};
  const struct gc_curve *none[4] = {&empty[0], &empty[1], &empty[2], &empty[3]};
  for (size_t m = 0; m <= ((size_t)1 << 22); m = m ? m * 4 : 1) {
    struct two x, y;
    double a, b;
    two_init(&x, 1, NULL, NULL);
    two_init(&y, 1, NULL, NULL);
    y.g.wan_curve = none;
    ck_assert_int_eq(gc_model_bcast_binomial_grid(&x.g, 2, 0, x.cluster_of, m, 65536, &a), 0);
    ck_assert_int_eq(gc_model_bcast_binomial_grid(&y.g, 2, 0, y.cluster_of, m, 65536, &b), 0);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    ck_assert_int_eq(gc_model_pairwise_grid(&x.g, 2, x.cluster_of, m, &a), 0);
    ck_assert_int_eq(gc_model_pairwise_grid(&y.g, 2, y.cluster_of, m, &b), 0);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    /* Hockney by hand: the walk's one message, W + m / bw. */
    ck_assert_int_eq(gc_model_bcast_binomial_grid(&x.g, 2, 0, x.cluster_of, m, 0, &a), 0);
    ck_assert(a == 5e-3 + (m ? (double)m / 5e8 : 0.0));
    /* The all-to-alls too: empty curves are none. */
    ck_assert_int_eq(gc_model_linear_grid(&x.g, m, &a), 0);
    ck_assert_int_eq(gc_model_linear_grid(&y.g, m, &b), 0);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
    ck_assert_int_eq(gc_model_lg_backbone(&x.g, m, &a), 0);
    ck_assert_int_eq(gc_model_lg_backbone(&y.g, m, &b), 0);
    ck_assert(memcmp(&a, &b, sizeof a) == 0);
  }
}
END_TEST

/* The rate of a curve's largest sizes: its last segment's. */
START_TEST(curve_rate)
{
  ck_assert(gc_model_curve_rate(NULL) == 0.0);
  ck_assert_rel(gc_model_curve_rate(&bent), (4194304.0 - 65536) / (4e-3 - 150e-6), REL);
  struct gc_curve flat = {2, {1, 100}, {1e-3, 1e-3}};
  ck_assert(isinf(gc_model_curve_rate(&flat)));
}
END_TEST

/* One rank per cluster: the all-to-alls are one wide-area message each way, which alone
 * takes the pair's curve (after the local alpha; interfaces of no cost here), where the
 * line (W 5 ms, 500 MB/s) would say something else; and the broadcast trees' edge. */
START_TEST(exchange_and_trees_follow_the_curve)
{
  static const size_t sizes[] = {1, 1000, 65535, 65536, 1048576, 4194304};
  struct gc_curve wan = bent;
  for (int i = 0; i < wan.n; i++)
    wan.t[i] += 5e-3;
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    double m = (double)sizes[i], t;
    struct two x;
    two_init(&x, 1, NULL, &wan);
    x.lan[0].beta = x.lan[1].beta = 0;
    ck_assert_int_eq(gc_model_linear_grid(&x.g, sizes[i], &t), 0);
    ck_assert_rel(t, 20e-6 + gc_curve_time(&wan, m), 1e-9);
    ck_assert_int_eq(gc_model_lg_backbone(&x.g, sizes[i], &t), 0);
    ck_assert_rel(t, 20e-6 + gc_curve_time(&wan, m), 1e-9);
    /* The tree 0 -> 1: alone its edge takes the curve's time, for the builders and the
     * cost alike; a second child sharing the interface makes it slower. */
    static int par[2] = {-1, 0}, cs[3] = {0, 1, 1}, ch[1] = {1};
    struct gc_tree tr = {.n = 2, .root = 0, .parent = par, .child_start = cs, .children = ch};
    static const double nic[3] = {1e8, 1e8, 1e8};
    struct gc_tree_input in = {.k = 2, .root = 0, .W = x.lat, .bw = x.bw, .bytes = m,
                               .nic = nic, .curve = x.g.wan_curve,
                               .scratch = gc_test_scratch(64, 3)};
    double times[3];
    ck_assert_rel(gc_tree_edge_lat(&in, 0, 1), gc_curve_time(&wan, m), 1e-9);
    /* Its rate is the curve's largest sizes' (the line's fit may be far off), the rest of
     * the curve's time its latency. */
    double lat, rate;
    gc_tree_edge_alone(&in, 0, 1, &lat, &rate);
    ck_assert(rate == gc_model_curve_rate(&wan));
    ck_assert_rel(lat + m / rate, gc_curve_time(&wan, m), 1e-9);
    in.nic = NULL;
    ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
    ck_assert_rel(times[1], gc_curve_time(&wan, m), 1e-9);
    static int par3[3] = {-1, 0, 0}, cs3[4] = {0, 2, 2, 2}, ch3[2] = {1, 2};
    static const double W3[9] = {0, 5e-3, 5e-3, 5e-3, 0, 5e-3, 5e-3, 5e-3, 0};
    static const double bw3[9] = {INFINITY, 5e8, 5e8, 5e8, INFINITY, 5e8, 5e8, 5e8, INFINITY};
    const struct gc_curve *cv3[9] = {NULL, &wan, &wan, &wan, NULL, &wan, &wan, &wan, NULL};
    struct gc_tree tr3 = {.n = 3, .root = 0, .parent = par3, .child_start = cs3, .children = ch3};
    struct gc_tree_input in3 = {.k = 3, .root = 0, .W = W3, .bw = bw3, .bytes = m, .nic = nic,
                                .curve = cv3, .scratch = gc_test_scratch(64, 3)};
    ck_assert_int_eq(gc_model_tree_arrivals(&in3, &tr3, times), 0);
    ck_assert(times[1] >= gc_curve_time(&wan, m) * (1 - 1e-9));
    if (m >= 1048576) /* the bytes, not the latency, make the time: sharing shows */
      ck_assert(times[2] > gc_curve_time(&wan, m) * 1.1);
  }
}
END_TEST

/* The examples configure no curve: their network views carry none, and their one-cluster
 * rounds are Hockney's, bit for bit. */
START_TEST(examples_have_no_curve)
{
  static const char *const files[] = {"grid5000.cfg", "hetero.cfg", "korea8.cfg", "two-clusters.cfg"};
  const char *src = getenv("GC_SRCDIR") ? getenv("GC_SRCDIR") : ".";
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    char path[512], err[GC_ERR_MAX];
    struct gc_config cfg;
    gc_config_defaults(&cfg);
    snprintf(path, sizeof path, "%s/examples/%s", src, files[f]);
    ck_assert_msg(gc_config_load(&cfg, path, NULL, err, sizeof err) == 0, "%s", err);
    int k = cfg.nclusters, of[64];
    for (int r = 0; r < 2 * k; r++)
      of[r] = r % k;
    struct gc_layout layout;
    struct gc_network net;
    ck_assert_int_eq(gc_layout_build(&layout, 2 * k, of), 0);
    ck_assert_int_eq(gc_network_build(&net, &cfg, &layout), 0);
    ck_assert(net.grid.wan_curve == NULL && net.curves == NULL);
    for (int c = 0; c < k; c++) {
      ck_assert(gc_model_link_curve(&net.grid, c, c) == NULL);
      double a, b;
      ck_assert_int_eq(gc_model_bcast_binomial_lan(17, 12345, &net.lan[c], &a), 0);
      ck_assert_int_eq(gc_model_bcast_binomial_hockney(17, 12345, net.lan[c].alpha, net.lan[c].beta, &b), 0);
      ck_assert(memcmp(&a, &b, sizeof a) == 0);
    }
    gc_network_free(&net);
    gc_layout_free(&layout);
    gc_config_free(&cfg);
  }
}
END_TEST

/* A configuration's curves reach the network view, the wide area's both ways. */
START_TEST(network_view_carries_curves)
{
  char dir[] = "/tmp/gc-link-XXXXXX", path[64], err[GC_ERR_MAX];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/c.cfg", dir);
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fputs("clusters = ( { name = \"a\"; ranks = 0; lan = { curve = ( (1, \"10 us\"), (\"1 MiB\", \"1 ms\") ); }; },\n"
        "             { name = \"b\"; ranks = 1; }, { name = \"c\"; ranks = 2; } );\n"
        "network = { wan = { curves = ( { pair = [ \"c\", \"a\" ]; curve = ( (1, \"5 ms\"), (\"1 MiB\", \"7 ms\") ); } ); }; };\n",
        fp);
  fclose(fp);
  struct gc_config cfg;
  gc_config_defaults(&cfg);
  ck_assert_msg(gc_config_load(&cfg, path, NULL, err, sizeof err) == 0, "%s", err);
  unlink(path), rmdir(dir);
  int of[3] = {2, 0, 1}; /* rank 0 in c, 1 in a, 2 in b: local clusters follow the ranks */
  struct gc_layout layout;
  struct gc_network net;
  ck_assert_int_eq(gc_layout_build(&layout, 3, of), 0);
  ck_assert_int_eq(gc_network_build(&net, &cfg, &layout), 0);
  int la = -1, lb = -1, lc = -1;
  for (int x = 0; x < layout.nclusters; x++) {
    int g = layout.global_id[x];
    la = g == 0 ? x : la, lb = g == 1 ? x : lb, lc = g == 2 ? x : lc;
  }
  ck_assert(gc_model_link_curve(&net.grid, la, la) && !gc_model_link_curve(&net.grid, lb, lb));
  ck_assert(gc_model_link_curve(&net.grid, la, lc) && gc_model_link_curve(&net.grid, lc, la));
  ck_assert(gc_model_link_curve(&net.grid, lc, la)->t[1] == 7e-3);
  ck_assert(!gc_model_link_curve(&net.grid, la, lb) && !gc_model_link_curve(&net.grid, lb, lc));
  gc_network_free(&net);
  gc_layout_free(&layout);
  gc_config_free(&cfg);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("model_link");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, p2p_without_curve_is_hockney);
  tcase_add_test(tc, p2p_with_curve);
  tcase_add_test(tc, curve_message);
  tcase_add_test(tc, one_message_follows_the_curve);
  tcase_add_test(tc, no_curve_no_change);
  tcase_add_test(tc, curve_rate);
  tcase_add_test(tc, exchange_and_trees_follow_the_curve);
  tcase_add_test(tc, examples_have_no_curve);
  tcase_add_test(tc, network_view_carries_curves);
  suite_add_tcase(s, tc);
  return gc_run_suite(s);
}
