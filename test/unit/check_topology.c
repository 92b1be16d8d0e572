/* Which cluster a process is in, and host ordinals. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"

static char err[GC_ERR_MAX];

/* nancy: grelon-*, griffon-* (line 2); rennes: ranks 32-63 and paravent-* (line 3);
 * lyon: ranks 4, 6-7 (line 4); dup: "grelon-1*" (line 5), so grelon-1x is ambiguous. */
static char *nancy_hosts[] = {"grelon-*", "griffon-*"}, *rennes_hosts[] = {"paravent-*"}, *dup_hosts[] = {"grelon-1*"};
static struct gc_rank_range rennes_ranks[] = {{32, 63}}, lyon_ranks[] = {{4, 4}, {6, 7}};
static struct gc_cluster_spec clusters[] = {
    {.name = "nancy", .hosts = nancy_hosts, .nhosts = 2, .line = 2},
    {.name = "rennes", .hosts = rennes_hosts, .nhosts = 1, .ranks = rennes_ranks, .nranks = 1, .line = 3},
    {.name = "lyon", .ranks = lyon_ranks, .nranks = 2, .line = 4},
    {.name = "dup", .hosts = dup_hosts, .nhosts = 1, .line = 5},
};
static struct gc_config cfg;

static void setup(void) {
  gc_config_defaults(&cfg);
  cfg.path = "grid.cfg";
  cfg.topology = GC_TOPOLOGY_CLUSTERS;
  cfg.clusters = clusters;
  cfg.nclusters = 3; /* without "dup" unless a test adds it */
  err[0] = '\0';
}

static int of(int rank, const char *host) { return gc_topology_cluster_of(&cfg, rank, host, err, sizeof err); }

START_TEST(by_ranks_then_hosts) {
  ck_assert_int_eq(of(0, "grelon-3"), 0);
  ck_assert_int_eq(of(1, "griffon-12.nancy.grid5000.fr"), 0);
  ck_assert_int_eq(of(40, "paravent-7"), 1);
  ck_assert_int_eq(of(40, "grelon-3"), 1); /* ranks win over host globs */
  ck_assert_int_eq(of(4, "grelon-3"), 2);
  ck_assert_int_eq(of(6, NULL), 2);
  ck_assert_int_eq(of(5, "paravent-1"), 1);
  ck_assert_int_eq(of(5, "sagittaire-1"), GC_CLUSTER_NONE);
  ck_assert_int_eq(of(5, NULL), GC_CLUSTER_NONE);
  ck_assert_int_eq(of(64, "Grelon-3"), GC_CLUSTER_NONE); /* globs are case-sensitive */
}
END_TEST

START_TEST(node_topology_matches_nothing) {
  cfg.topology = GC_TOPOLOGY_NODE;
  ck_assert_int_eq(of(40, "grelon-3"), GC_CLUSTER_NONE);
  cfg.topology = GC_TOPOLOGY_CLUSTERS;
  cfg.nclusters = 0;
  cfg.clusters = NULL;
  ck_assert_int_eq(of(40, "grelon-3"), GC_CLUSTER_NONE);
}
END_TEST

START_TEST(by_host_ordinals) {
  const char *names[] = {"b", "a", "b", "c", "a", "a", "d"};
  int ids[7];
  gc_topology_by_host(names, 7, ids);
  ck_assert(ids[0] == 0 && ids[1] == 1 && ids[2] == 0 && ids[3] == 2 && ids[4] == 1 && ids[5] == 1 && ids[6] == 3);
  const char *same[] = {"x", "x", "x"};
  gc_topology_by_host(same, 3, ids);
  ck_assert(ids[0] == 0 && ids[1] == 0 && ids[2] == 0);
  const char *one[] = {"solo"};
  gc_topology_by_host(one, 1, ids);
  ck_assert_int_eq(ids[0], 0);
  gc_topology_by_host(NULL, 0, ids);
}
END_TEST

START_TEST(by_host_many) {
  enum { N = 10000 };
  static char buf[N][16];
  static const char *names[N];
  static int ids[N];
  for (int i = 0; i < N; i++) snprintf(buf[i], sizeof buf[i], "node-%d", (N - i) % 100), names[i] = buf[i];
  gc_topology_by_host(names, N, ids);
  for (int i = 0; i < N; i++) ck_assert_int_eq(ids[i], i % 100);
}
END_TEST

START_TEST(two_clusters_claim_a_host) {
  cfg.nclusters = 4;
  ck_assert_int_eq(of(5, "grelon-1x"), -2);
  ck_assert_str_eq(err, "grid.cfg:5: host 'grelon-1x' is matched by cluster 'nancy' (line 2) and 'dup' (line 5)");
  ck_assert_int_eq(of(5, "grelon-2"), 0);
  ck_assert_int_eq(of(40, "grelon-1x"), 1); /* a rank range settles it */
  ck_assert_int_eq(gc_topology_cluster_of(&cfg, 5, "grelon-1x", NULL, 0), -2);
}
END_TEST

static Suite *topology_suite(void) {
  Suite *s = suite_create("topology");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_checked_fixture(core, setup, NULL);
  tcase_add_checked_fixture(limits, setup, NULL);
  tcase_add_test(core, by_ranks_then_hosts);
  tcase_add_test(core, by_host_ordinals);
  tcase_add_test(core, by_host_many);
  tcase_add_test(limits, node_topology_matches_nothing);
  tcase_add_test(limits, two_clusters_claim_a_host);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(topology_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
