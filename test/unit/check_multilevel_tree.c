/* The two-level broadcast tree (shim/bcast/pure/multilevel_tree.c): HLOT between sites,
 * flat inside each site from the sub-root the root reaches soonest. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcast_algorithms.h"
#include "tree.h"
#include "config.h"
#include "layout.h"
#include "network.h"
#include "scratch_check.h"

static struct gc_tree_input input(int k, int root, const double *W, const int *site)
{
  return (struct gc_tree_input){.k = k, .root = root, .W = W, .uniform = 1e-3,
                                .send_gap = 1e-4, .site = site,
                                .scratch = gc_test_scratch(k, k)};
}

static struct gc_tree build(const struct gc_tree_input *in)
{
  struct gc_tree t;
  gc_test_tree(&t, in->k);
  ck_assert_int_eq(gc_bcast_multilevel_tree(in, &t), 0);
  ck_assert_int_eq(gc_model_tree_check(&t), 0);
  return t;
}

/* Two sites of three clusters, root in the first: the second site is entered at the
 * cluster nearest the root (4), which serves the rest of its site. */
START_TEST(two_sites_flat_inside)
{
  double ms[36] = {
    0,  1,  1,  50, 20, 60, /* 0 */
    1,  0,  1,  50, 50, 50, /* 1 */
    1,  1,  0,  50, 50, 50, /* 2 */
    50, 50, 50, 0,  1,  1,  /* 3 */
    20, 50, 50, 1,  0,  1,  /* 4 */
    60, 50, 50, 1,  1,  0,  /* 5 */
  };
  double W[36];
  for (int i = 0; i < 36; i++)
    W[i] = ms[i] * 1e-3;
  int site[6] = {7, 7, 7, 9, 9, 9};
  struct gc_tree_input in = input(6, 0, W, site);
  struct gc_tree t = build(&in);
  int want[6] = {-1, 0, 0, 4, 0, 4};
  ck_assert_mem_eq(t.parent, want, sizeof want);
  gc_test_tree_free(&t);
  /* From cluster 5: its site's other clusters hang off 5; the first site is entered at
   * 1 (50 ms; 2 is as near, 1 has the lower index). */
  in.root = 5;
  t = build(&in);
  int want5[6] = {1, 5, 1, 5, 5, -1};
  ck_assert_mem_eq(t.parent, want5, sizeof want5);
  gc_test_tree_free(&t);
}
END_TEST

/* Between sites it is HLOT: the far site C is reached through B when that is sooner. */
START_TEST(hlot_between_sites)
{
  double ms[16] = {
    0,   10, 30, 100, /* A: 0 */
    10,  0,  1,  20,  /* B: 1, 2 */
    30,  1,  0,  40,
    100, 20, 40, 0,   /* C: 3 */
  };
  double W[16];
  for (int i = 0; i < 16; i++)
    W[i] = ms[i] * 1e-3;
  int site[4] = {0, 1, 1, 2};
  struct gc_tree_input in = input(4, 0, W, site);
  struct gc_tree t = build(&in);
  int want[4] = {-1, 0, 1, 1};
  ck_assert_mem_eq(t.parent, want, sizeof want);
  gc_test_tree_free(&t);
}
END_TEST

/* No sites, or one cluster per site: exactly HLOT, for every root of a random matrix,
 * with bandwidth too. */
START_TEST(without_sites_is_hlot)
{
  enum { K = 12 };
  unsigned seed = 7;
  double W[K * K], bw[K * K];
  int own[K];
  for (int i = 0; i < K * K; i++) {
    W[i] = i % (K + 1) ? (1 + rand_r(&seed) % 300) * 1e-3 : 0;
    bw[i] = 1e6 * (1 + rand_r(&seed) % 100);
  }
  for (int c = 0; c < K; c++)
    own[c] = 100 - c;
  int bad = 0;
  for (int root = 0; root < K; root++)
    for (int v = 0; v < 2; v++) {
      struct gc_tree_input in = input(K, root, W, v ? own : NULL);
      in.bw = bw, in.bytes = 65536;
      struct gc_tree a, b;
      gc_test_tree(&a, K);
      gc_test_tree(&b, K);
      ck_assert_int_eq(gc_bcast_multilevel_tree(&in, &a), 0);
      ck_assert_int_eq(gc_bcast_hlot_tree(&in, &b), 0);
      bad += memcmp(a.parent, b.parent, sizeof(int) * K) != 0 ||
             memcmp(a.children, b.children, sizeof(int) * (K - 1)) != 0;
      gc_test_tree_free(&a);
      gc_test_tree_free(&b);
    }
  ck_assert_int_eq(bad, 0);
}
END_TEST

/* `site` in the file reaches the tree input: clusters of one site share the number of
 * the first of them in the communicator's layout; no site, or no configured cluster
 * (rank 4 here), is a site of its own. */
START_TEST(sites_from_configuration)
{
  char path[] = "/tmp/gc-multilevel-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  static const char text[] =
      "clusters = ( { name = \"a\"; ranks = \"0\"; site = \"org1\"; },\n"
      "             { name = \"b\"; ranks = \"1\"; site = \"org2\"; },\n"
      "             { name = \"c\"; ranks = \"2\"; site = \"org1\"; },\n"
      "             { name = \"d\"; ranks = \"3\"; } );\n";
  ck_assert_int_eq(write(fd, text, sizeof text - 1), (int)sizeof text - 1);
  close(fd);
  struct gc_config cfg;
  char err[GC_ERR_MAX];
  gc_config_defaults(&cfg);
  int rc = gc_config_load(&cfg, path, NULL, err, sizeof err);
  unlink(path);
  ck_assert_msg(rc == 0, "%s", err);
  ck_assert_str_eq(gc_config_site(&cfg, 2), "org1");
  ck_assert_str_eq(gc_config_site(&cfg, 3), "");
  ck_assert_str_eq(gc_config_site(&cfg, 4), "");
  /* Reversed communicator: local clusters d c b a, then an unmatched rank (world id 4). */
  int ids[5] = {3, 2, 1, 0, 4};
  struct gc_layout layout;
  struct gc_network net;
  ck_assert_int_eq(gc_layout_build(&layout, 5, ids), 0);
  ck_assert_int_eq(gc_network_build(&net, &cfg, &layout), 0);
  int want[5] = {0, 1, 2, 1, 4};
  ck_assert_mem_eq(net.site, want, sizeof want);
  struct gc_tree_input in;
  gc_bcast_tree_input(&net, &layout, 0, 0, &in);
  ck_assert_ptr_eq(in.site, net.site);
  gc_network_free(&net);
  gc_layout_free(&layout);
  gc_config_free(&cfg);
}
END_TEST

START_TEST(limits)
{
  int site[3] = {0, 0, 0};
  double W[9] = {0, -1, 1, 1, 0, 1, 1, 1, 0};
  struct gc_tree t;
  struct gc_tree_input in = input(3, 0, W, site);
  gc_test_tree(&t, 3);
  ck_assert_int_eq(gc_bcast_multilevel_tree(&in, &t), GC_TREE_EINVAL); /* negative latency */
  in = input(3, 3, NULL, site);
  ck_assert_int_eq(gc_bcast_multilevel_tree(&in, &t), GC_TREE_EINVAL); /* root out of range */
  in = input(0, 0, NULL, site);
  ck_assert_int_eq(gc_bcast_multilevel_tree(&in, &t), GC_TREE_EINVAL);
  gc_test_tree_free(&t);
  /* One cluster; one site for everything (a flat tree from the root), uniform latency. */
  in = input(1, 0, NULL, site);
  t = build(&in);
  ck_assert_int_eq(t.parent[0], -1);
  gc_test_tree_free(&t);
  in = input(3, 2, NULL, site);
  t = build(&in);
  int want[3] = {2, 2, -1};
  ck_assert_mem_eq(t.parent, want, sizeof want);
  gc_test_tree_free(&t);
}
END_TEST

static Suite *multilevel_suite(void)
{
  Suite *s = suite_create("multilevel_tree");
  TCase *core = tcase_create("core"), *lim = tcase_create("limits");
  tcase_add_test(core, two_sites_flat_inside);
  tcase_add_test(core, hlot_between_sites);
  tcase_add_test(core, without_sites_is_hlot);
  tcase_add_test(core, sites_from_configuration);
  tcase_add_test(lim, limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, lim);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(multilevel_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed != 0;
}
