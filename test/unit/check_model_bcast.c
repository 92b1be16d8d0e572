/* Broadcast models: binomial-hockney, binomial-grid and tree-nic-fanout, the cost of any
 * tree over clusters (001 Eq. 2, position-aware; model/tree_cost.c).  Expected values are
 * worked out by hand beside each assertion. */
#include "model.h"
#include "model_check.h"

START_TEST(binomial_core)
{
  double t;
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(8, 1000, 1e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 33e-6, REL); /* ceil(log2 8) = 3 rounds of 10 + 1 us */
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(5, 1000, 1e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 33e-6, REL); /* ceil(log2 5) = 3 as well */
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(2, 1000, 1e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 11e-6, REL); /* one round */
}
END_TEST

START_TEST(binomial_limits)
{
  double t = -1;
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(1, 1000, 1e-5, 1e-9, &t), 0);
  ck_assert_rel(t, 0, 0); /* P = 1: no round */
  t = -1;
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(0, 1, 1e-5, 1e-9, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_binomial_hockney(4, 1, -1e-5, 1e-9, &t), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0);
}
END_TEST

/* binomial-grid: 5 ranks, clusters {0, 0, 1, 1, 0}; inside: 1 us + 1 ns/byte, across:
 * 10 us + m / 1e8 (10 ns/byte).  m = 1000: inside 2 us, across 20 us. */
static const int where5[5] = {0, 0, 1, 1, 0};
static const int size2[2] = {3, 2};
static const struct gc_lan lan_bg = {.alpha = 1e-6, .beta = 1e-9, .gamma = 1, .delta = 0,
                                     .threshold = 0};
static const double lat2[4] = {0, 1e-5, 1e-5, 0};
static const double bw2[4] = {INFINITY, 1e8, 1e8, INFINITY};

START_TEST(binomial_grid_core)
{
  struct gc_lan lans[2] = {lan_bg, lan_bg};
  struct gc_model_grid g = {.k = 2, .size = size2, .lan = lans, .wan_latency = lat2,
                            .wan_bandwidth = bw2, .scratch = gc_test_scratch(64, 2)};
  double t;
  /* Root 0 (relative = absolute): 0 sends to 4 (inside, 2), to 2 (across, 2 + 20 = 22),
   * to 1 (inside, 24), one after the other; 2 then sends to 3 (inside, 22 + 2 = 24 us). */
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 5, 0, where5, 1000, 0, &t), 0);
  ck_assert_rel(t, 24e-6, REL);
  /* Root 2: relative v -> rank (v + 2) % 5 = 2, 3, 4, 0, 1.  v0 (cluster 1) sends to v4
   * (rank 1, across: 20), v2 (rank 4, across: 40), v1 (rank 3, inside: 42); v2 sends to v3
   * (rank 0, inside: 40 + 2 = 42 us). */
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 5, 2, where5, 1000, 0, &t), 0);
  ck_assert_rel(t, 42e-6, REL);
}
END_TEST

START_TEST(binomial_grid_limits)
{
  struct gc_lan lans[2] = {lan_bg, lan_bg};
  struct gc_model_grid g = {.k = 2, .size = size2, .lan = lans, .wan_latency = lat2,
                            .wan_bandwidth = bw2, .scratch = gc_test_scratch(64, 2)};
  double t = -1;
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 1, 0, where5, 1000, 65536, &t), 0);
  ck_assert_rel(t, 0, 0); /* one rank: nothing to send */
  t = -1;
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 5, 5, where5, 1, 65536, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 5, 0, NULL, 1, 65536, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 0, 0, where5, 1, 65536, &t), GC_MODEL_EINVAL);
  int far[5] = {0, 0, 2, 1, 0}; /* a cluster the grid does not have */
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 5, 0, far, 1, 65536, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_binomial_grid(NULL, 5, 0, where5, 1, 65536, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 5, 0, where5, 1, 65536, NULL), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 5, 0, where5, 1, NAN, &t), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0);
}
END_TEST

/* binomial-grid below the eager size: a parent's sends all leave at once (MPI_Send
 * returns before the transfer, SMPI's detached sends), so its later children do not wait
 * for the earlier children's latencies. */
START_TEST(binomial_grid_eager)
{
  /* 3 ranks in 3 clusters, no size term: root 0 sends to rank 2 (mask 2, 10 ms away),
   * then to rank 1 (mask 1, 30 ms away). */
  static const int size3[3] = {1, 1, 1}, where3[3] = {0, 1, 2};
  static const double lat3[9] = {0, 30e-3, 10e-3, 30e-3, 0, 10e-3, 10e-3, 10e-3, 0};
  static const double bw3[9] = {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY,
                                INFINITY, INFINITY, INFINITY, INFINITY};
  struct gc_lan free_lan = {.alpha = 1e-6, .beta = 0, .gamma = 1};
  struct gc_lan lans3[3] = {free_lan, free_lan, free_lan};
  struct gc_model_grid g = {.k = 3, .size = size3, .lan = lans3, .wan_latency = lat3,
                            .wan_bandwidth = bw3, .scratch = gc_test_scratch(64, 3)};
  double t;
  /* Eager (1 KiB < 64 KiB): rank 2 at 10 ms, rank 1 at 30 ms, both sends posted at 0. */
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 3, 0, where3, 1024, 65536, &t), 0);
  ck_assert_rel(t, 30e-3, REL);
  /* From the eager size on the send to rank 1 waits for the one to rank 2: 10 + 30 ms. */
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 3, 0, where3, 65536, 65536, &t), 0);
  ck_assert_rel(t, 40e-3, REL);

  /* where5 again (inside 1 us + 1 ns/B, across 10 us + 10 ns/B), m = 1000 posted: root 0's
   * flows pay their latencies, then share its 1e9 B/s interface: the two inside ones from
   * 1 us at 5e8 B/s each, done at 3 us; the one across from 10 us alone at its 1e8 B/s,
   * done at 20 us.  Rank 2 sends to rank 3 alone: 20 + 1 + 1 = 22 us (24 us with the
   * sends one after the other, binomial_grid_core). */
  struct gc_lan lans[2] = {lan_bg, lan_bg};
  struct gc_model_grid g5 = {.k = 2, .size = size2, .lan = lans, .wan_latency = lat2,
                             .wan_bandwidth = bw2, .scratch = gc_test_scratch(64, 2)};
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g5, 5, 0, where5, 1000, 65536, &t), 0);
  ck_assert_rel(t, 22e-6, REL);
}
END_TEST

/* The tree's edges of one level between the same two clusters run at about the same time
 * and share the link between them. */
START_TEST(binomial_grid_link_share)
{
  /* 4 ranks in clusters {0, 1, 0, 1}, nothing inside costs anything; across: latency 1,
   * a link of 1 byte/s each way; m = 2 from the eager size on.  Root 0 sends to 2 (mask
   * 2, inside: at 0), then to 1 (mask 1, across); 2 sends to 3 (mask 1, across) at the
   * same time: the two share the link, 2 bytes at 1/2 each: 1 + 4 = 5 (alone: 1 + 2). */
  static const int size22[2] = {2, 2}, where4[4] = {0, 1, 0, 1};
  static const double lat1[4] = {0, 1, 1, 0}, bw1[4] = {INFINITY, 1, 1, INFINITY};
  struct gc_lan free_lan = {.alpha = 0, .beta = 0, .gamma = 1};
  struct gc_lan lans[2] = {free_lan, free_lan};
  struct gc_model_grid g = {.k = 2, .size = size22, .lan = lans, .wan_latency = lat1,
                            .wan_bandwidth = bw1, .scratch = gc_test_scratch(64, 2)};
  double t;
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 4, 0, where4, 2, 0, &t), 0);
  ck_assert_rel(t, 5, REL);
  /* Clusters {0, 0, 1, 1}: one edge across (0 -> 2, mask 2), alone on the link: 1 + 2. */
  static const int block4[4] = {0, 0, 1, 1};
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 4, 0, block4, 2, 0, &t), 0);
  ck_assert_rel(t, 3, REL);
}
END_TEST

/* From the eager size on the tree's edges start when their sender is free, so two edges
 * of one level between the same two clusters share the link only while both carry
 * bytes (SMPI's blocking sends); the older formula halved both for the whole level. */
START_TEST(binomial_grid_link_overlap)
{
  /* 6 ranks, root 0, clusters {0, 1, 0, 0, 0, 1}: 0 sends to 4, 2 (inside), then 1
   * (across); 4 sends to 5 (across), 2 to 3 (inside).  The level-0 edges 0 -> 1 and
   * 4 -> 5 both cross from cluster 0 to 1.  Inside: alpha a, bytes free; across: latency
   * 1, a link of 1 byte/s; m = 2 bytes (alone: 1 + 2 = 3). */
  static const int size24[2] = {4, 2}, where6[6] = {0, 1, 0, 0, 0, 1};
  static const double lat1[4] = {0, 1, 1, 0}, bw1[4] = {INFINITY, 1, 1, INFINITY};
  struct gc_lan lan_a = {.alpha = 2, .beta = 0, .gamma = 1};
  struct gc_lan lans[2] = {lan_a, lan_a};
  struct gc_model_grid g = {.k = 2, .size = size24, .lan = lans, .wan_latency = lat1,
                            .wan_bandwidth = bw1, .scratch = gc_test_scratch(64, 2)};
  double t;
  /* a = 2: 4 has the data at 2, 4 -> 5 carries its bytes over [3, 5]; 0 sends to 2 over
   * [2, 4], then to 1: latency to 5, bytes over [5, 7], after 4 -> 5 is done; 2 -> 3 ends
   * at 6.  t = 7 (the level-shared link: 4 + 1 + 2 / (1/2) = 9). */
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 6, 0, where6, 2, 0, &t), 0);
  ck_assert_rel(t, 7, REL);
  /* a = 1.5: 4 -> 5 carries alone from 2.5 to 4 (1.5 bytes); 0 -> 1 (sent from 3) carries
   * from 4; both at 1/2 until 4 -> 5's last half byte is through at 5; 0 -> 1 has 1.5
   * bytes left, alone: done at 6.5.  2 -> 3: 3 + 1.5.  t = 6.5 (level-shared: 8). */
  lans[0].alpha = lans[1].alpha = 1.5;
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 6, 0, where6, 2, 0, &t), 0);
  ck_assert_rel(t, 6.5, REL);
}
END_TEST

/* A flow keeps at most one window in flight per round trip (network.wan.window): across
 * 10 ms, a 1e6-byte window allows 1e6 / 20e-3 = 5e7 B/s, below the 1e8 B/s link. */
START_TEST(binomial_grid_window)
{
  struct gc_lan lans[2] = {lan_bg, lan_bg};
  static const double lat10[4] = {0, 10e-3, 10e-3, 0};
  struct gc_model_grid g = {.k = 2, .size = size2, .lan = lans, .wan_latency = lat10,
                            .wan_bandwidth = bw2, .window = 1e6, .scratch = gc_test_scratch(64, 2)};
  double t;
  /* Root 2 (cluster 1), m = 1e6 from the eager size on: to rank 1 (v4, across: 10 ms +
   * 1e6 / 5e7 = 30 ms), rank 4 (v2, across: 60 ms), rank 3 (v1, inside: 60 + 1.001 ms);
   * v2 (rank 4) to rank 0 (inside: 60 + 1.001 ms). */
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 5, 2, where5, 1000000, 0, &t), 0);
  ck_assert_rel(t, 61.001e-3, REL);
  g.window = 0; /* no cap: 10 + 10 ms per message across */
  ck_assert_int_eq(gc_model_bcast_binomial_grid(&g, 5, 2, where5, 1000000, 0, &t), 0);
  ck_assert_rel(t, 41.001e-3, REL);
}
END_TEST

/* tree-nic-fanout: a leader's flows share its interface in proportion to 1/latency (TCP's
 * round-trip bias, SimGrid's sharing), and one flow runs at most window / (2W). */
START_TEST(tree_window_and_rtt_share)
{
  /* Root 0 sends to 1 (W 1) and 2 (W 3), units of seconds and bytes, m = 4, interface 1
   * B/s, links unlimited.  Each flow pays its latency first: flow 1 alone from 1 to 3 (2
   * bytes); then weights 1 and 1/3, shares 0.75 and 0.25: flow 1 sends its other 2 bytes
   * in 8/3, ending at 17/3, when flow 2 has sent 2/3; alone, flow 2 sends its other 10/3
   * at 1: ends at 9.  T1 = 17/3, T2 = 9 (an even share would give T1 = 7). */
  static int par[3] = {-1, 0, 0}, cs[4] = {0, 2, 2, 2}, ch[2] = {1, 2};
  static const double W3[9] = {0, 1, 3, 1, 0, 1, 3, 1, 0};
  static const double bwinf[9] = {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY,
                                  INFINITY, INFINITY, INFINITY, INFINITY};
  static const double nic1[3] = {1, 1, 1};
  struct gc_tree tr = {.n = 3, .root = 0, .parent = par, .child_start = cs, .children = ch};
  struct gc_tree_input in = {.k = 3, .root = 0, .W = W3, .bw = bwinf, .bytes = 4, .nic = nic1,
                             .scratch = gc_test_scratch(64, 3)};
  double times[3];
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
  ck_assert_rel(times[1], 17.0 / 3, REL);
  ck_assert_rel(times[2], 9, REL);
  /* A window of 0.5 B: flow 1 runs at most 0.5 / 2 = 1/4 B/s, flow 2 at 0.5 / 6 = 1/12,
   * both below their shares: flow 1 ends at 1 + 16 = 17, flow 2 at 3 + 48 = 51, as each
   * edge alone costs the builders (W + m / rate). */
  in.window = 0.5;
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
  ck_assert_rel(times[1], 17, REL);
  ck_assert_rel(times[2], 51, REL);
  ck_assert_rel(gc_tree_edge_lat(&in, 0, 2), 51, REL);
  ck_assert_rel(gc_tree_edge_rate(&in, 0, 2), 1.0 / 12, REL);
  /* The leader's own cluster broadcast leaves through the same interface: its 2 sends of
   * 4 bytes (latency 0.5, so weight 2) take the larger share from 0.5 on, and both
   * children get the data later than the 17/3 and 9 above. */
  static const double sends[3] = {2, 0, 0}, alpha[3] = {0.5, 0.5, 0.5};
  in.window = 0, in.local_sends = sends, in.local_latency = alpha;
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
  ck_assert(times[1] > 17.0 / 3 + 1 && times[2] > 9 + 1);
  /* One child (W 1), m = 4, interface 1 B/s, the leader's one local send of 4 bytes at
   * latency 0.5 (weight 2).  Whole message: the local flow alone from 0.5 to 1 (0.5 B),
   * then weights 1 and 2: the local flow ends at 1 + 3.5 / (2/3) = 6.25, when the child's
   * has sent 1.75 B; its other 2.25 B alone end at 8.5.  In 4 segments of 1 B posted at
   * once the child's edge is 4 flows (weight 4 against 2): 4 B at 2/3 B/s end at 7, and
   * the child gets them together (no earlier first segment to forward). */
  static int par2[2] = {-1, 0}, cs2[3] = {0, 1, 1}, ch2[1] = {1};
  static const double W2[4] = {0, 1, 1, 0}, one_send[2] = {1, 0};
  struct gc_tree tr2 = {.n = 2, .root = 0, .parent = par2, .child_start = cs2,
                        .children = ch2};
  struct gc_tree_input in2 = {.k = 2, .root = 0, .W = W2, .bw = bwinf, .bytes = 4,
                              .nic = nic1, .local_sends = one_send, .local_latency = alpha,
                              .scratch = gc_test_scratch(64, 2)};
  ck_assert_int_eq(gc_model_tree_arrivals(&in2, &tr2, times), 0);
  ck_assert_rel(times[1], 8.5, REL);
  in2.segment = 1, in2.seg_ahead = 32;
  ck_assert_int_eq(gc_model_tree_arrivals(&in2, &tr2, times), 0);
  ck_assert_rel(times[1], 7, REL);
}
END_TEST

/* Latency matrix of 4 clusters (ms as s-free units: the models are linear in them). */
static const double W4[16] = {
  0, 10, 20, 40, /* from 0 */
  10, 0, 30, 5,  /* from 1 */
  20, 30, 0, 25, /* from 2 */
  40, 5, 25, 0,  /* from 3 */
};

/* Tree: 0 -> (1, 2) in that order, 1 -> 3. */
static int parent[4] = {-1, 0, 0, 1};
static int child_start[5] = {0, 2, 3, 3, 3};
static int children12[3] = {1, 2, 3};
static int children21[3] = {2, 1, 3}; /* same tree, 0 sends to 2 first */

START_TEST(tree_core)
{
  struct gc_tree tr = {.n = 4, .root = 0, .parent = parent, .child_start = child_start,
                       .children = children12};
  struct gc_tree_input in = {.k = 4, .root = 0, .W = W4, .send_gap = 3, .recv_overhead = 0.5,
                             .scratch = gc_test_scratch(64, 4)};
  double t, times[4];
  ck_assert_int_eq(gc_model_tree_check(&tr), 0);
  /* o_s + g = 3; 1 first: T1 = 0 + 10 + 0.5 = 10.5, T2 = 3 + 20.5 = 23.5 (waits for the send
   * to 1), T3 = 10.5 + 5.5 = 16.  (001 Eq. 2 as published would charge T1 a gap too.) */
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
  ck_assert_rel(times[0], 0, 0);
  ck_assert_rel(times[1], 10.5, REL);
  ck_assert_rel(times[2], 23.5, REL);
  ck_assert_rel(times[3], 16, REL);
  ck_assert_int_eq(gc_model_tree_leaders(&in, &tr, &t), 0);
  ck_assert_rel(t, 23.5, REL);
  /* Send to 2 first: T2 = 20.5, T1 = 3 + 10.5 = 13.5, T3 = 13.5 + 5.5 = 19 -> 20.5. */
  tr.children = children21;
  ck_assert_int_eq(gc_model_tree_leaders(&in, &tr, &t), 0);
  ck_assert_rel(t, 20.5, REL);
  /* Intra-cluster broadcasts {0, 1, 2, 10}, 1 first:
   * max(0 + 0, 10.5 + 1, 23.5 + 2, 16 + 10) = 26 */
  tr.children = children12;
  double local[4] = {0, 1, 2, 10};
  ck_assert_int_eq(gc_model_bcast_tree(&in, &tr, local, &t), 0);
  ck_assert_rel(t, 26, REL);
  /* Message size: 500 bytes at 1000 bytes/s add 0.5 to every edge; the sends are posted
   * at once and, with no interface limit, do not slow each other: T1 = 11,
   * T2 = 3 + 20.5 + 0.5 = 24, T3 = 11 + 6 = 17 -> 24 (it was 24.5 when the later child
   * waited for the whole earlier transfer). */
  double bw[16];
  for (int i = 0; i < 16; i++)
    bw[i] = 1000;
  in.bw = bw, in.bytes = 500;
  ck_assert_int_eq(gc_model_tree_leaders(&in, &tr, &t), 0);
  ck_assert_rel(t, 24, REL);
  /* Interfaces of 1000 bytes/s: each flow pays its latency before it sends, 0 -> 1 from
   * 10 to 10.5 s, 0 -> 2 from 20 to 20.5: they never share the interface.  T1 = 11, T2 =
   * 24, T3 = 17 (tree_window_and_rtt_share has flows that overlap). */
  double nic[4] = {1000, 1000, 1000, 1000};
  in.nic = nic;
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
  ck_assert_rel(times[1], 11, REL);
  ck_assert_rel(times[2], 24, REL);
  ck_assert_rel(times[3], 17, REL);
  /* Edge 0 -> 2 capped at 200 bytes/s: 2.5 s for its 500 bytes.  T1 = 11, T2 = 3 + 20 +
   * 2.5 + 0.5 = 26. */
  bw[2] = 200;
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
  ck_assert_rel(times[1], 11, REL);
  ck_assert_rel(times[2], 26, REL);
  /* Segments of 100 bytes (5 of them), interfaces unlimited, every edge 1000 bytes/s: a
   * segment takes 0.1 s an edge.  T1 = 10 + 0.5 + 0.5 = 11 (first segment at 10.6);
   * at 3: first segment 10.6 + 5 + 0.5 + 0.1 = 16.2, last max(16.2 + 0.4,
   * 11 + 5.5 + 0.1) = 16.6 (whole messages: 17). */
  in.nic = NULL, bw[2] = 1000, in.segment = 100;
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
  ck_assert_rel(times[1], 11, REL);
  ck_assert_rel(times[3], 16.6, REL);
  /* The executor keeps several segments posted to a child at once; they share the edge
   * and arrive together, so the relay 1 forwards in groups, and the child posts the next
   * group's receives only when a group is in, so each later group pays the latency
   * again.  Two at a time (200 bytes, 0.2 s an edge; 3 groups): first group at 1 by
   * 10.5 + 0.2 = 10.7, all by max(10.7 + 0.3 + 2 x 10, 10.5 + 0.2) = 31; at 3 first by
   * 10.7 + 5.5 + 0.2 = 16.4, all by max(16.4 + 0.3 + 2 x 5, 31 + 5.5 + 0.2) = 36.7. */
  in.seg_ahead = 2;
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
  ck_assert_rel(times[1], 31, REL);
  ck_assert_rel(times[3], 36.7, REL);
  /* All 5 posted at once (tree_exec.c's 32 ahead): they end together, so 1 forwards the
   * first segment only when the whole message is in: T3 = 11 + 5.5 + 0.5 = 17, the
   * unsegmented time (the old formula said 16.6). */
  in.seg_ahead = 32;
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
  ck_assert_rel(times[1], 11, REL);
  ck_assert_rel(times[3], 17, REL);
  /* Requests shared by a leader's children, 2: 0's two children get groups of 1 (5
   * groups: T1 = max(10.6 + 0.4 + 4 x 10, 10.6) = 51), 1's single child groups of 2
   * (first at 3 by 10.6 + 5.5 + 0.2 = 16.3, T3 = max(16.3 + 0.3 + 2 x 5, 51 + 5.7) =
   * 56.7). */
  in.seg_requests = 2;
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), 0);
  ck_assert_rel(times[1], 51, REL);
  ck_assert_rel(times[3], 56.7, REL);
  in.seg_ahead = in.seg_requests = 0;
  in.segment = -1;
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), GC_MODEL_EINVAL);
}
END_TEST

/* With o_s = g = o_r = 0, the cost of a flat tree is 001 Eq. 3 (max_i W[root][i]), and of
 * any tree Eq. 4 (the longest root-to-leaf latency path). */
START_TEST(tree_reduces_to_eq3_eq4)
{
  int fparent[4] = {-1, 0, 0, 0}, fstart[5] = {0, 3, 3, 3, 3}, fchildren[3] = {3, 1, 2};
  struct gc_tree flat = {.n = 4, .root = 0, .parent = fparent, .child_start = fstart,
                         .children = fchildren};
  struct gc_tree_input in = {.k = 4, .root = 0, .W = W4, .scratch = gc_test_scratch(64, 4)};
  double t;
  ck_assert_int_eq(gc_model_tree_leaders(&in, &flat, &t), 0);
  ck_assert_rel(t, 40, REL); /* max(10, 20, 40) */
  /* Eq. 4 on 0 -> 1 -> 3 and 0 -> 2: max(10 + 5, 20) = 20 beats the flat tree's 40. */
  struct gc_tree tr = {.n = 4, .root = 0, .parent = parent, .child_start = child_start,
                       .children = children12};
  ck_assert_int_eq(gc_model_tree_leaders(&in, &tr, &t), 0);
  ck_assert_rel(t, 20, REL);
  /* W = NULL: every latency is `uniform`. */
  in.W = NULL, in.uniform = 7;
  ck_assert_int_eq(gc_model_tree_leaders(&in, &tr, &t), 0);
  ck_assert_rel(t, 14, REL); /* 0 -> 1 -> 3 */
}
END_TEST

START_TEST(tree_limits)
{
  /* A single cluster: T = its own intra-cluster broadcast, or 0. */
  int p1[1] = {-1}, s1[2] = {0, 0};
  struct gc_tree one = {.n = 1, .root = 0, .parent = p1, .child_start = s1, .children = NULL};
  struct gc_tree_input in1 = {.k = 1, .root = 0, .send_gap = 3, .recv_overhead = 0.5,
                              .scratch = gc_test_scratch(64, 1)};
  double t = -1, local[1] = {7};
  ck_assert_int_eq(gc_model_tree_leaders(&in1, &one, &t), 0);
  ck_assert_rel(t, 0, 0);
  ck_assert_int_eq(gc_model_bcast_tree(&in1, &one, local, &t), 0);
  ck_assert_rel(t, 7, REL);

  /* Malformed trees. */
  struct gc_tree tr = {.n = 4, .root = 0, .parent = parent, .child_start = child_start,
                       .children = children12};
  struct gc_tree_input in = {.k = 4, .root = 0, .W = W4, .scratch = gc_test_scratch(64, 4)};
  double times[4];
  int badp[4] = {-1, 0, 0, 2}; /* parent says 2, the lists say 1 */
  tr.parent = badp;
  ck_assert_int_eq(gc_model_tree_check(&tr), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), GC_MODEL_EINVAL);
  int cyc_p[3] = {-1, 2, 1}, cyc_s[4] = {0, 0, 1, 2}, cyc_c[2] = {2, 1}; /* 1 <-> 2 */
  struct gc_tree cyc = {.n = 3, .root = 0, .parent = cyc_p, .child_start = cyc_s,
                        .children = cyc_c};
  ck_assert_int_eq(gc_model_tree_check(&cyc), GC_MODEL_EINVAL);
  int dup_s[5] = {0, 3, 3, 3, 3}, dup_c[3] = {1, 1, 2}, dup_p[4] = {-1, 0, 0, 0};
  struct gc_tree dup = {.n = 4, .root = 0, .parent = dup_p, .child_start = dup_s,
                        .children = dup_c}; /* 1 twice, 3 never */
  ck_assert_int_eq(gc_model_tree_check(&dup), GC_MODEL_EINVAL);
  int wild_s[5] = {0, 9, 1, 3, 3}; /* child_start out of range, then decreasing */
  struct gc_tree wild = {.n = 4, .root = 0, .parent = parent, .child_start = wild_s,
                         .children = children12};
  ck_assert_int_eq(gc_model_tree_check(&wild), GC_MODEL_EINVAL);
  tr.parent = parent, tr.root = 4;
  ck_assert_int_eq(gc_model_tree_check(&tr), GC_MODEL_EINVAL);
  tr.root = 1; /* parent[1] != -1 */
  ck_assert_int_eq(gc_model_tree_check(&tr), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_tree_check(NULL), GC_MODEL_EINVAL);

  /* Bad arguments around a good tree. */
  tr.root = 0;
  t = -1;
  ck_assert_int_eq(gc_model_tree_leaders(NULL, &tr, &t), GC_MODEL_EINVAL);
  in.k = 3; /* the input speaks of another number of clusters */
  ck_assert_int_eq(gc_model_tree_leaders(&in, &tr, &t), GC_MODEL_EINVAL);
  in.k = 4, in.root = 1; /* ... or of another root */
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, times), GC_MODEL_EINVAL);
  in.root = 0;
  double badlocal[4] = {0, -1, 0, 0};
  ck_assert_int_eq(gc_model_bcast_tree(&in, &tr, badlocal, &t), GC_MODEL_EINVAL);
  badlocal[1] = NAN;
  ck_assert_int_eq(gc_model_bcast_tree(&in, &tr, badlocal, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_bcast_tree(&in, &tr, NULL, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_tree_leaders(&in, &tr, NULL), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_tree_arrivals(&in, &tr, NULL), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("model_bcast");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, binomial_core);
  tcase_add_test(core, binomial_grid_core);
  tcase_add_test(core, binomial_grid_eager);
  tcase_add_test(core, binomial_grid_window);
  tcase_add_test(core, binomial_grid_link_share);
  tcase_add_test(core, binomial_grid_link_overlap);
  tcase_add_test(core, tree_window_and_rtt_share);
  tcase_add_test(core, tree_core);
  tcase_add_test(core, tree_reduces_to_eq3_eq4);
  tcase_add_test(limits, binomial_limits);
  tcase_add_test(limits, binomial_grid_limits);
  tcase_add_test(limits, tree_limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
