/* Configuration files, environment overrides, the hash and the accessors.
 * Files are real: written to a fresh mkdtemp directory and loaded from there. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"

static const char *const a2a_names[] = {"auto", "native", "lg", NULL};
static const char *const bcast_names[] = {"auto", "native", "flat", NULL};
static const char *const a2av_names[] = {"auto", "native", "lg", NULL};
static const struct gc_config_names names = {.op = {[GC_OP_ALLTOALL] = a2a_names, [GC_OP_BCAST] = bcast_names,
                                                     [GC_OP_ALLTOALLV] = a2av_names}};

static char dir[64], path[128], err[GC_ERR_MAX];
static struct gc_config cfg;
static unsigned long long defaults_hash;

static void setup(void) {
  strcpy(dir, "/tmp/gc-config-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
  gc_config_defaults(&cfg);
  defaults_hash = gc_config_hash(&cfg);
  err[0] = '\0';
}

static void teardown(void) {
  static const char *files[] = {"gridcoll.cfg", "a.cfg", "b.cfg", NULL};
  char p[128];
  gc_config_free(&cfg);
  for (int i = 0; files[i]; i++) snprintf(p, sizeof p, "%s/%s", dir, files[i]), unlink(p);
  rmdir(dir);
}

/* Write text to dir/name; returns the path (in a static buffer). */
static const char *write_file(const char *name, const char *text) {
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  return path;
}

static int load(const char *text) { return gc_config_load(&cfg, write_file("gridcoll.cfg", text), &names, err, sizeof err); }

/* The load fails with "DIR/gridcoll.cfg:LINE: KEY: ..." holding `what`, and cfg is back to defaults. */
static void load_fails(const char *text, int line, const char *key, const char *what) {
  char head[256];
  ck_assert_int_eq(load(text), -1);
  snprintf(head, sizeof head, "%s:%d: %s%s", path, line, key, *key ? ": " : "");
  ck_assert_msg(strncmp(err, head, strlen(head)) == 0, "\"%s\" does not start with \"%s\"", err, head);
  ck_assert_msg(strstr(err, what) != NULL, "\"%s\" lacks \"%s\"", err, what);
  ck_assert_msg(strchr(err, '\n') == NULL, "one line: %s", err);
  ck_assert(gc_config_hash(&cfg) == defaults_hash && cfg.path == NULL && cfg.clusters == NULL);
}

#define FULL                                                                                       \
  "strict = false;  verbose = 1;  probe = false;\n"                                               \
  "clusters = (\n"                                                                                 \
  "  { name = \"nancy\";  hosts = [ \"grelon-*\", \"griffon-*\" ]; },\n"                         \
  "  { name = \"rennes\"; ranks = \"32-63\"; lan = { alpha = \"40 us\"; }; }\n"                   \
  ");\n"                                                                                           \
  "network = {\n"                                                                                  \
  "  lan = { alpha = \"60 us\"; beta = \"1 Gbit/s\"; gamma = 4.3628; delta = \"4.93 ms\"; threshold = \"8 KiB\"; };\n" \
  "  wan = { latency = ( (\"0\", \"5.5 ms\"), (\"5.5 ms\", \"0\") );\n"                          \
  "          bandwidth = ( (\"0\", \"10 Gbit/s\"), (\"10 Gbit/s\", \"0\") ); };\n"                \
  "};\n"                                                                                           \
  "alltoall = { algorithm = \"auto\"; };\n"                                                        \
  "bcast    = { algorithm = \"flat\"; };\n"                                                        \
  "log      = { file = \"gridcoll-%r.csv\"; mode = \"local\"; summary = true; summary_file = \"x.txt\"; candidates = false; };\n"

START_TEST(defaults) {
  ck_assert(cfg.enabled == 1 && cfg.strict == 0 && cfg.verbose == 1 && cfg.probe == 0 && cfg.learn == 1);
  ck_assert(cfg.topology == GC_TOPOLOGY_NODE && cfg.nclusters == 0 && cfg.clusters == NULL);
  ck_assert(cfg.lan.alpha == 60e-6 && cfg.lan.beta == 8e-9 && cfg.lan.gamma == 4.3628);
  ck_assert(cfg.lan.delta == 4.93e-3 && cfg.lan.threshold == 8192);
  ck_assert(cfg.wan_latency == NULL && cfg.wan_bandwidth == NULL);
  ck_assert_str_eq(cfg.algorithm[GC_OP_ALLTOALL], "auto");
  ck_assert_str_eq(cfg.algorithm[GC_OP_BCAST], "auto");
  ck_assert(cfg.log_file == NULL && cfg.log_mode == GC_LOG_SYNC && cfg.log_summary == -1);
  ck_assert(cfg.summary_file == NULL && cfg.log_candidates == 0 && cfg.path == NULL);
  /* Linux's tcp_wmem maximum (SimGrid's TCP-gamma) and SMPI's detached-send threshold. */
  ck_assert(cfg.wan_window == 4194304 && cfg.bcast_eager == 65536);
}
END_TEST

/* network.wan.window and bcast.native_eager: byte sizes, 0 allowed (no cap; every send
 * waits for its transfer), part of the hash every rank compares. */
START_TEST(window_and_eager) {
  unsigned long long h0 = gc_config_hash(&cfg);
  ck_assert_msg(load("network = { wan = { window = \"1 MiB\"; }; };\nbcast = { native_eager = \"128 KiB\"; };\n") == 0, "%s", err);
  ck_assert(cfg.wan_window == 1048576 && cfg.bcast_eager == 131072);
  ck_assert(gc_config_hash(&cfg) != h0);
  ck_assert_msg(load("network = { wan = { window = 0; }; };\nbcast = { native_eager = 0; };\n") == 0, "%s", err);
  ck_assert(cfg.wan_window == 0 && cfg.bcast_eager == 0);
  load_fails("network = { wan = { window = -1; }; };", 1, "network.wan.window", "got -1");
  load_fails("bcast = { native_eager = \"fast\"; };", 1, "bcast.native_eager", "got \"fast\"");
}
END_TEST

START_TEST(full_example) {
  ck_assert_msg(load(FULL) == 0, "%s", err);
  ck_assert_str_eq(cfg.path, path);
  ck_assert(cfg.enabled == 1 && cfg.strict == 0 && cfg.verbose == 1 && cfg.probe == 0);
  ck_assert(cfg.topology == GC_TOPOLOGY_CLUSTERS && cfg.nclusters == 2);
  ck_assert_str_eq(cfg.clusters[0].name, "nancy");
  ck_assert(cfg.clusters[0].nhosts == 2 && cfg.clusters[0].nranks == 0 && cfg.clusters[0].line == 3);
  ck_assert_str_eq(cfg.clusters[0].hosts[0], "grelon-*");
  ck_assert_str_eq(cfg.clusters[0].hosts[1], "griffon-*");
  ck_assert_str_eq(cfg.clusters[1].name, "rennes");
  ck_assert(cfg.clusters[1].nhosts == 0 && cfg.clusters[1].nranks == 1 && cfg.clusters[1].line == 4);
  ck_assert(cfg.clusters[1].ranks[0].lo == 32 && cfg.clusters[1].ranks[0].hi == 63);
  ck_assert(cfg.lan.alpha == 60e-6 && cfg.lan.beta == 8e-9 && cfg.lan.gamma == 4.3628);
  ck_assert(cfg.lan.delta == 4.93e-3 && cfg.lan.threshold == 8192);
  ck_assert(memcmp(&cfg.clusters[0].lan, &cfg.lan, sizeof cfg.lan) == 0);
  ck_assert(cfg.clusters[1].lan.alpha == 40e-6 && cfg.clusters[1].lan.beta == 8e-9);
  ck_assert(cfg.clusters[1].lan.gamma == 4.3628 && cfg.clusters[1].lan.delta == 4.93e-3);
  ck_assert(cfg.clusters[1].lan.threshold == 8192);
  ck_assert(cfg.wan_latency[0] == 0 && cfg.wan_latency[1] == 5.5e-3);
  ck_assert(cfg.wan_latency[2] == 5.5e-3 && cfg.wan_latency[3] == 0);
  ck_assert(cfg.wan_bandwidth[0] == 0 && cfg.wan_bandwidth[1] == 1.25e9);
  ck_assert(cfg.wan_bandwidth[2] == 1.25e9 && cfg.wan_bandwidth[3] == 0);
  ck_assert(cfg.wan_latency_line == 8 && cfg.wan_bandwidth_line == 9);
  ck_assert_str_eq(cfg.algorithm[GC_OP_ALLTOALL], "auto");
  ck_assert_str_eq(cfg.algorithm[GC_OP_BCAST], "flat");
  ck_assert(cfg.algorithm_line[GC_OP_ALLTOALL] == 11 && cfg.algorithm_line[GC_OP_BCAST] == 12);
  ck_assert_str_eq(cfg.log_file, "gridcoll-%r.csv");
  ck_assert(cfg.log_mode == GC_LOG_LOCAL && cfg.log_summary == 1 && cfg.log_candidates == 0);
  ck_assert_str_eq(cfg.summary_file, "x.txt");
}
END_TEST

START_TEST(variants) {
  /* Numbers instead of strings, arrays instead of lists, a single host string, an int rank. */
  ck_assert_msg(load("verbose = 3; strict = true; probe = 1; learn = false;\n"
                     "clusters = ( { name = \"a\"; hosts = \"n-*\"; ranks = 0; }, { name = \"b\"; ranks = \"1-3, 8\"; } );\n"
                     "network = { lan = { alpha = 5e-5; beta = 125000000; gamma = 2; delta = 0; threshold = 0; };\n"
                     "  wan = { latency = ( [0.0, 0.01], [0.01, 0.0] ); bandwidth = ( [0, 1000], [1000, 0] ); }; };\n"
                     "log = { file = \"\"; summary = false; };\n") == 0, "%s", err);
  ck_assert(cfg.verbose == 3 && cfg.strict == 1 && cfg.probe == 1 && cfg.learn == 0 && cfg.log_summary == 0 && cfg.log_file == NULL);
  ck_assert(cfg.clusters[0].nhosts == 1 && cfg.clusters[0].nranks == 1 && cfg.clusters[0].ranks[0].hi == 0);
  ck_assert_str_eq(cfg.clusters[0].hosts[0], "n-*");
  ck_assert(cfg.clusters[1].nranks == 2 && cfg.clusters[1].ranks[1].lo == 8);
  ck_assert(cfg.lan.alpha == 5e-5 && cfg.lan.beta == 8e-9 && cfg.lan.gamma == 2 && cfg.lan.delta == 0);
  ck_assert(cfg.wan_latency[1] == 0.01 && cfg.wan_bandwidth[2] == 1000);
  ck_assert(cfg.wan_aggregate == NULL && gc_config_wan_aggregate(&cfg, 0, 1) == 0);
  /* network.wan.aggregate: many flows together, beside one flow's bandwidth. */
  ck_assert_msg(load("clusters = ( { name = \"a\"; ranks = 0; }, { name = \"b\"; ranks = 1; } );\n"
                     "network = { wan = { bandwidth = ( (\"0\", \"1 Gbit/s\"), (\"1 Gbit/s\", \"0\") );\n"
                     "  aggregate = ( (\"0\", \"10 Gbit/s\"), (\"8 Gbit/s\", \"0\") ); }; };\n") == 0, "%s", err);
  ck_assert(gc_config_wan_aggregate(&cfg, 0, 1) == 1.25e9 && gc_config_wan_aggregate(&cfg, 1, 0) == 1e9);
  ck_assert(gc_config_wan_aggregate(&cfg, 0, 0) == 0 && gc_config_wan_aggregate(&cfg, 0, 5) == 0);
  ck_assert(cfg.wan_aggregate_line == 3 && gc_config_wan_bandwidth(&cfg, 0, 1) == 1.25e8);
  unsigned long long with = gc_config_hash(&cfg);
  ck_assert_msg(load("clusters = ( { name = \"a\"; ranks = 0; }, { name = \"b\"; ranks = 1; } );\n"
                     "network = { wan = { bandwidth = ( (\"0\", \"1 Gbit/s\"), (\"1 Gbit/s\", \"0\") ); }; };\n") == 0, "%s", err);
  ck_assert(gc_config_hash(&cfg) != with);
  ck_assert_int_eq(load("clusters = ( { name = \"a\"; ranks = 0; }, { name = \"b\"; ranks = 1; } );\n"
                        "network = { wan = { aggregate = ( (\"0\", \"0\"), (\"1 Gbit/s\", \"0\") ); }; };\n"), -1);
  ck_assert_msg(strstr(err, "network.wan.aggregate[0][1]"), "%s", err);
  /* Diagonal values are checked for form, then ignored. */
  ck_assert_msg(load("clusters = ( { name = \"a\"; ranks = 0; } );\n"
                     "network = { wan = { latency = ( (\"3 ms\") ); }; };\n") == 0, "%s", err);
  ck_assert(cfg.wan_latency[0] == 0 && cfg.wan_bandwidth == NULL);
  ck_assert_msg(load("# nothing but a comment\n") == 0, "%s", err);
  ck_assert(gc_config_hash(&cfg) == defaults_hash);
}
END_TEST

START_TEST(examples_load) {
  const char *src = getenv("GC_SRCDIR") ? getenv("GC_SRCDIR") : ".";
  char p[512];
  snprintf(p, sizeof p, "%s/examples/two-clusters.cfg", src);
  ck_assert_msg(gc_config_load(&cfg, p, &names, err, sizeof err) == 0, "%s", err);
  ck_assert(cfg.nclusters == 2 && cfg.clusters[0].nranks == 1 && cfg.clusters[1].ranks[0].lo == 2);
  ck_assert(gc_config_wan_latency(&cfg, 0, 1) == 5.5e-3 && gc_config_wan_bandwidth(&cfg, 1, 0) == 1.25e9);
  ck_assert(cfg.lan.beta == 8e-9 && cfg.lan.threshold == 8192);
  snprintf(p, sizeof p, "%s/examples/grid5000.cfg", src);
  ck_assert_msg(gc_config_load(&cfg, p, &names, err, sizeof err) == 0, "%s", err);
  ck_assert(cfg.nclusters == 2 && cfg.clusters[1].nhosts == 1 && cfg.lan.alpha == 50e-6);
  ck_assert_str_eq(cfg.clusters[1].hosts[0], "rennes-*");
  ck_assert(gc_config_wan_latency(&cfg, 1, 0) == 5.5e-3 && gc_config_wan_bandwidth(&cfg, 0, 1) == 1.25e9);
  snprintf(p, sizeof p, "%s/examples/hetero.cfg", src);
  ck_assert_msg(gc_config_load(&cfg, p, &names, err, sizeof err) == 0, "%s", err);
  ck_assert(gc_config_hetero(&cfg, 0)->rate == 1.25e8 && gc_config_hetero(&cfg, 1)->C == 60e-6);
}
END_TEST

/* network_given (issue 25): the summary says "defaults, not calibrated" unless the file
 * gave a link's latency or bandwidth; every example gives them. */
START_TEST(network_given) {
  ck_assert(cfg.network_given == 0); /* no file: the defaults */
  const char *given[] = {
      "network = { lan = { alpha = \"40 us\"; }; };\n",
      "clusters = ( { name = \"a\"; ranks = 0; }, { name = \"b\"; ranks = 1; } );\n"
      "network = { wan = { latency = ( (\"0\", \"5 ms\"), (\"5 ms\", \"0\") ); }; };\n",
      "clusters = ( { name = \"a\"; ranks = 0; lan = { beta = \"10 Gbit/s\"; }; } );\n",
      FULL};
  for (size_t i = 0; i < sizeof given / sizeof *given; i++) {
    ck_assert_msg(load(given[i]) == 0, "%s", err);
    ck_assert_msg(cfg.network_given == 1, "file %zu", i);
  }
  const char *defaults[] = {
      "verbose = 2;\n", "network = { };\n",
      "network = { lan = { }; wan = { window = \"1 MiB\"; }; };\n",
      "clusters = ( { name = \"a\"; ranks = 0; }, { name = \"b\"; ranks = 1; } );\n"};
  for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++) {
    ck_assert_msg(load(defaults[i]) == 0, "%s", err);
    ck_assert_msg(cfg.network_given == 0, "file %zu", i);
  }
  const char *src = getenv("GC_SRCDIR") ? getenv("GC_SRCDIR") : ".";
  const char *examples[] = {"two-clusters", "grid5000", "hetero", "korea8"};
  for (size_t i = 0; i < sizeof examples / sizeof *examples; i++) {
    char p[512];
    snprintf(p, sizeof p, "%s/examples/%s.cfg", src, examples[i]);
    ck_assert_msg(gc_config_load(&cfg, p, &names, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(cfg.network_given == 1, "%s", p);
  }
  /* A file that fails leaves the defaults: not calibrated. */
  ck_assert(load("network = { lan = { alpha = \"fast\"; }; };\n") != 0 && cfg.network_given == 0);
}
END_TEST

START_TEST(accessors) {
  ck_assert(gc_config_lan(&cfg, 0) == &cfg.lan && gc_config_lan(&cfg, -1) == &cfg.lan);
  ck_assert(gc_config_wan_latency(&cfg, 0, 1) == 60e-6 && gc_config_wan_bandwidth(&cfg, 0, 1) == 1 / 8e-9);
  ck_assert_msg(load(FULL) == 0, "%s", err);
  ck_assert(gc_config_lan(&cfg, 1) == &cfg.clusters[1].lan && gc_config_lan(&cfg, 2) == &cfg.lan);
  ck_assert(gc_config_wan_latency(&cfg, 0, 1) == 5.5e-3 && gc_config_wan_latency(&cfg, 1, 0) == 5.5e-3);
  ck_assert(gc_config_wan_latency(&cfg, 1, 1) == 40e-6 && gc_config_wan_latency(&cfg, 0, 0) == 60e-6);
  ck_assert(gc_config_wan_latency(&cfg, 0, 7) == 60e-6 && gc_config_wan_latency(&cfg, -1, 1) == 60e-6);
  ck_assert(gc_config_wan_bandwidth(&cfg, 0, 1) == 1.25e9 && gc_config_wan_bandwidth(&cfg, 1, 1) == 1 / 8e-9);
  ck_assert(gc_config_wan_bandwidth(&cfg, 5, 1) == 1 / 8e-9);
  ck_assert_msg(load("clusters = ( { name = \"a\"; ranks = 0; }, { name = \"b\"; ranks = 1; } );\n") == 0, "%s", err);
  ck_assert(gc_config_wan_latency(&cfg, 0, 1) == 60e-6 && gc_config_wan_bandwidth(&cfg, 0, 1) == 1 / 8e-9);
}
END_TEST

START_TEST(hash) {
  struct gc_config other;
  gc_config_defaults(&other);
  ck_assert(gc_config_hash(&other) == defaults_hash);
  ck_assert_msg(load(FULL) == 0, "%s", err);
  unsigned long long full = gc_config_hash(&cfg);
  ck_assert(full != defaults_hash);
  ck_assert(gc_config_load(&other, write_file("a.cfg", FULL), &names, err, sizeof err) == 0);
  ck_assert(gc_config_hash(&other) == full); /* another path, same content */
  other.verbose = 3;
  ck_assert(gc_config_hash(&other) == full); /* verbosity chooses nothing */
  other.clusters[1].lan.alpha = 41e-6;
  ck_assert(gc_config_hash(&other) != full);
  other.clusters[1].lan.alpha = 40e-6;
  other.wan_latency[1] = 5.6e-3;
  ck_assert(gc_config_hash(&other) != full);
  other.wan_latency[1] = 5.5e-3;
  other.clusters[0].hosts[1][0] = 'x';
  ck_assert(gc_config_hash(&other) != full);
  other.clusters[0].hosts[1][0] = 'g';
  ck_assert(gc_config_hash(&other) == full);
  other.probe = 1;
  ck_assert(gc_config_hash(&other) != full);
  other.probe = 0, other.learn = 0;
  ck_assert(gc_config_hash(&other) != full);
  other.learn = 1, other.log_mode = GC_LOG_SYNC;
  ck_assert(gc_config_hash(&other) != full);
  gc_config_free(&other);
  ck_assert(gc_config_hash(&other) == defaults_hash);
  other.lan.delta = 0.0;
  unsigned long long zero = gc_config_hash(&other);
  other.lan.delta = -0.0;
  ck_assert(gc_config_hash(&other) == zero); /* -0 and 0 choose alike */
  gc_config_defaults(&other);
  strcpy(other.algorithm[GC_OP_BCAST], "flat");
  ck_assert(gc_config_hash(&other) != defaults_hash);
  gc_config_free(&other);
}
END_TEST

START_TEST(strict_scan) {
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "strict = true;\n{{{ broken")), 1);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "x = 1;\n  strict=true;")), 1);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "strict : TRUE # yes")), 1);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "strict = 1;")), 1);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "strict = false;")), 0);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "# strict = true;")), 0);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "x = 2; // strict = true;")), 0);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "nonstrict = true;")), 0);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "strict = trueish;")), 0);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "")), 0);
  /* Only a top-level setting counts: not in a comment, a nested group or a string. */
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "/* strict = true; */\nbogus = 1;")), 0);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "/*\n strict = true;\n*/ x = 1;")), 0);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "log = { strict = true; };")), 0);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "x = \"a\\\" strict = true\";")), 0);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "log = { x = 1; };\nstrict = true;\n{{{")), 1);
  ck_assert_int_eq(gc_config_file_says_strict(write_file("a.cfg", "strict /* yes */ = true;")), 1);
  ck_assert_int_eq(gc_config_file_says_strict("/nonexistent/gridcoll.cfg"), 0);
  ck_assert_int_eq(gc_config_file_says_strict(NULL), 0);
}
END_TEST

/* A broken file still tells whether it is strict and how verbose gridcoll may be: from
 * libconfig's tree when it parses, else from the tokenizer; comments, strings and nested
 * groups do not count. */
START_TEST(intent_of_broken_files) {
  static const struct {
    const char *text;
    int strict, verbose;
  } cases[] = {
      {"strict = true;\nverbose = 0;\nlog = { bogus = 1; };\n", 1, 0}, /* parses */
      {"verbose = 2; strict = true;\n{{{\n", 1, 2},                     /* does not */
      {"/* strict = true; */\nbogus = 1;\n", 0, 1},
      {"/* strict = true;\n   verbose = 0; */ bogus = 1;\n", 0, 1},
      {"log = { strict = true; verbose = 0; bogus = 1; };\n", 0, 1},
      {"x = \"strict = true\"; {{{\n", 0, 1},
      {"log = { strict = true; }; {{{\n", 0, 1},
      {"strict = 1; verbose = 3; bogus = 1;\n", 1, 3},
      {"strict = false; verbose = 7; {{{\n", 0, 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    ck_assert_int_eq(load(cases[i].text), -1);
    ck_assert_msg(cfg.strict == cases[i].strict && cfg.verbose == cases[i].verbose,
                  "case %zu: strict %d verbose %d", i, cfg.strict, cfg.verbose);
    ck_assert(cfg.path == NULL && cfg.clusters == NULL);
  }
}
END_TEST

/* --- environment ---------------------------------------------------------- */

static const char *const *env; /* NULL-terminated name, value pairs */

static const char *fake_get(const char *name) {
  for (const char *const *e = env; e && *e; e += 2)
    if (!strcmp(e[0], name)) return e[1];
  return NULL;
}

static int apply(const char *const *table) {
  env = table;
  return gc_config_apply_env(&cfg, fake_get, &names, err, sizeof err);
}

START_TEST(default_path) {
  char cwd[512];
  env = (const char *const[]){"GRIDCOLL_CONFIG", "/etc/x.cfg", NULL};
  ck_assert_str_eq(gc_config_default_path(fake_get), "/etc/x.cfg");
  env = (const char *const[]){"GRIDCOLL_CONFIG", "", NULL};
  ck_assert_ptr_null(gc_config_default_path(fake_get));
  env = NULL;
  ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
  ck_assert_int_eq(chdir(dir), 0);
  ck_assert_ptr_null(gc_config_default_path(fake_get));
  write_file("gridcoll.cfg", "");
  ck_assert_str_eq(gc_config_default_path(fake_get), "gridcoll.cfg");
  ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

START_TEST(env_overrides) {
  ck_assert_int_eq(apply(NULL), 0);
  ck_assert(gc_config_hash(&cfg) == defaults_hash);
  ck_assert_msg(apply((const char *const[]){"GRIDCOLL", "off", "GRIDCOLL_ALLTOALL", "lg", "GRIDCOLL_BCAST", "native",
                                             "GRIDCOLL_LOG", "run-%r.csv", "GRIDCOLL_LOG_MODE", "local",
                                             "GRIDCOLL_VERBOSE", "0", "GRIDCOLL_SUMMARY", "1", "GRIDCOLL_PROBE", "1",
                                             "GRIDCOLL_LEARN", "0",
                                             "GRIDCOLL_CLUSTERS", "0-3,4-9", NULL}) == 0, "%s", err);
  ck_assert(cfg.enabled == 0 && cfg.verbose == 0 && cfg.log_summary == 1 && cfg.probe == 1 &&
            cfg.learn == 0);
  ck_assert_str_eq(cfg.algorithm[GC_OP_ALLTOALL], "lg");
  ck_assert_str_eq(cfg.algorithm[GC_OP_BCAST], "native");
  ck_assert_str_eq(cfg.log_file, "run-%r.csv");
  ck_assert(cfg.log_mode == GC_LOG_LOCAL && cfg.topology == GC_TOPOLOGY_CLUSTERS && cfg.nclusters == 2);
  ck_assert_str_eq(cfg.clusters[0].name, "c0");
  ck_assert_str_eq(cfg.clusters[1].name, "c1");
  ck_assert(cfg.clusters[1].nranks == 1 && cfg.clusters[1].ranks[0].lo == 4 && cfg.clusters[1].ranks[0].hi == 9);
  ck_assert(cfg.clusters[0].line == 0 && cfg.clusters[0].lan.alpha == cfg.lan.alpha);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL", "on", "GRIDCOLL_LOG", "", "GRIDCOLL_CLUSTERS", "host", NULL}), 0);
  ck_assert(cfg.enabled == 1 && cfg.log_file == NULL && cfg.topology == GC_TOPOLOGY_NODE && cfg.nclusters == 0);
}
END_TEST

/* GRIDCOLL_CLOCK: each rank reads its own clock (the offsets relate them), so it is no
 * part of the hash the ranks compare. */
START_TEST(env_clock) {
  ck_assert(cfg.clock == GC_CLOCK_AUTO);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLOCK", "monotonic", NULL}), 0);
  ck_assert(cfg.clock == GC_CLOCK_MONOTONIC && gc_config_hash(&cfg) == defaults_hash);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLOCK", "mpi", NULL}), 0);
  ck_assert(cfg.clock == GC_CLOCK_MPI);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLOCK", "auto", NULL}), 0);
  ck_assert(cfg.clock == GC_CLOCK_AUTO);
}
END_TEST

/* GRIDCOLL_NONBLOCKING: changes which calls run gridcoll's schedules, so it is in the
 * hash the ranks compare (only when grid: every other configuration's hash stays). */
START_TEST(env_nonblocking) {
  ck_assert(cfg.nonblocking_grid == 0);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_NONBLOCKING", "grid", NULL}), 0);
  ck_assert(cfg.nonblocking_grid == 1 && gc_config_hash(&cfg) != defaults_hash);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_NONBLOCKING", "native", NULL}), 0);
  ck_assert(cfg.nonblocking_grid == 0 && gc_config_hash(&cfg) == defaults_hash);
}
END_TEST

START_TEST(env_keeps_file_clusters) {
  ck_assert_msg(load(FULL) == 0, "%s", err);
  ck_assert_msg(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "0-1, 2-3", NULL}) == 0, "%s", err);
  ck_assert(cfg.nclusters == 2 && cfg.clusters[0].nhosts == 0 && cfg.clusters[0].hosts == NULL);
  ck_assert_str_eq(cfg.clusters[0].name, "nancy");
  ck_assert(cfg.clusters[0].ranks[0].lo == 0 && cfg.clusters[0].ranks[0].hi == 1);
  ck_assert(cfg.clusters[1].ranks[0].lo == 2 && cfg.clusters[1].lan.alpha == 40e-6);
  ck_assert(cfg.wan_latency[1] == 5.5e-3 && cfg.wan_bandwidth[1] == 1.25e9);
  /* Another count with matrices: an error naming the variable and the matrix line. */
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "0,1,2", NULL}), -1);
  ck_assert_msg(strncmp(err, "GRIDCOLL_CLUSTERS: ", 19) == 0 && strstr(err, "gives 3 clusters") &&
                strstr(err, "gridcoll.cfg:8: network.wan.latency is a 2x2 matrix"), "%s", err);
  ck_assert(gc_config_hash(&cfg) == defaults_hash);
  /* Another count without matrices: c0, c1, c2. */
  ck_assert_msg(load("clusters = ( { name = \"a\"; hosts = \"x\"; } );\n") == 0, "%s", err);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "0,1,2", NULL}), 0);
  ck_assert(cfg.nclusters == 3 && cfg.clusters[2].ranks[0].lo == 2 && cfg.clusters[0].nhosts == 0);
  ck_assert_str_eq(cfg.clusters[2].name, "c2");
  /* "host" drops clusters and matrices. */
  ck_assert_msg(load(FULL) == 0, "%s", err);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "host", NULL}), 0);
  ck_assert(cfg.nclusters == 0 && cfg.clusters == NULL && cfg.wan_latency == NULL && cfg.wan_bandwidth == NULL);
  ck_assert(cfg.topology == GC_TOPOLOGY_NODE && cfg.wan_latency_line == 0);
  ck_assert_str_eq(cfg.algorithm[GC_OP_BCAST], "flat"); /* the rest of the file stays */
}
END_TEST

/* alltoallv: its own group and variable, checked against its own names; the file's
 * line is kept until the environment overrides it, and it is part of the agreed hash. */
START_TEST(alltoallv_algorithm) {
  ck_assert_msg(load("alltoall = { algorithm = \"native\"; };\nalltoallv = { algorithm = \"lg\"; };\n") == 0, "%s", err);
  ck_assert_str_eq(cfg.algorithm[GC_OP_ALLTOALLV], "lg");
  ck_assert_str_eq(cfg.algorithm[GC_OP_ALLTOALL], "native");
  ck_assert_int_eq(cfg.algorithm_line[GC_OP_ALLTOALLV], 2);
  ck_assert(gc_config_hash(&cfg) != defaults_hash);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_ALLTOALLV", "native", NULL}), 0);
  ck_assert_str_eq(cfg.algorithm[GC_OP_ALLTOALLV], "native");
  ck_assert_int_eq(cfg.algorithm_line[GC_OP_ALLTOALLV], 0);
  ck_assert_str_eq(cfg.algorithm[GC_OP_ALLTOALL], "native"); /* the other op untouched */
  load_fails("alltoallv = { algorithm = \"flat\"; };\n", 1, "alltoallv.algorithm",
             "expected one of auto, native, lg, got \"flat\"");
  load_fails("alltoallv = { segment = 3; };\n", 1, "alltoallv.segment", "unknown");
}
END_TEST

/* Every operation, as the loader and the environment layer now loop over them
 * (op_info.h): the same group, variable, keys and messages as when each was named. */
static const struct {
  int op;
  const char *group, *env, *keys, *allowed;
} per_op[] = {
    {GC_OP_ALLTOALL, "alltoall", "GRIDCOLL_ALLTOALL", "algorithm, native_pairwise", "auto, native, lg"},
    {GC_OP_BCAST, "bcast", "GRIDCOLL_BCAST", "algorithm, segment, native_eager", "auto, native, flat"},
    {GC_OP_ALLTOALLV, "alltoallv", "GRIDCOLL_ALLTOALLV", "algorithm", "auto, native, lg"},
};

START_TEST(per_op_choice) {
  const int op = per_op[_i].op;
  char text[256], key[64], msg[128];
  ck_assert_int_eq((int)(sizeof per_op / sizeof per_op[0]), GC_OP_LAST);
  ck_assert_str_eq(gc_op_table[op].name, per_op[_i].group);
  ck_assert_str_eq(gc_op_table[op].env, per_op[_i].env);
  /* The file sets this operation's choice and line alone. */
  snprintf(text, sizeof text, "verbose = 1;\n%s = { algorithm = \"native\"; };\n", per_op[_i].group);
  ck_assert_msg(load(text) == 0, "%s", err);
  for (int o = 0; o < GC_OP_LAST; o++) {
    ck_assert_str_eq(cfg.algorithm[o], o == op ? "native" : "auto");
    ck_assert_int_eq(cfg.algorithm_line[o], o == op ? 2 : 0);
  }
  ck_assert(gc_config_hash(&cfg) != defaults_hash);
  /* Its variable overrides it and forgets the line; the others stay. */
  ck_assert_int_eq(apply((const char *const[]){per_op[_i].env, "auto", NULL}), 0);
  ck_assert_str_eq(cfg.algorithm[op], "auto");
  ck_assert_int_eq(cfg.algorithm_line[op], 0);
  ck_assert(gc_config_hash(&cfg) == defaults_hash);
  /* Errors: the file's key and line, the variable's name, the operation's own names. */
  snprintf(key, sizeof key, "%s.algorithm", per_op[_i].group);
  snprintf(msg, sizeof msg, "expected one of %s, got \"hlot2\"", per_op[_i].allowed);
  snprintf(text, sizeof text, "\n%s = { algorithm = \"hlot2\"; };\n", per_op[_i].group);
  load_fails(text, 2, key, msg);
  snprintf(key, sizeof key, "%s.colour", per_op[_i].group);
  snprintf(msg, sizeof msg, "unknown key; allowed in this group: %s", per_op[_i].keys);
  snprintf(text, sizeof text, "%s = { colour = 1; };\n", per_op[_i].group);
  load_fails(text, 1, key, msg);
  ck_assert_msg(load("") == 0, "%s", err);
  ck_assert_int_eq(apply((const char *const[]){per_op[_i].env, "hlot2", NULL}), -1);
  snprintf(msg, sizeof msg, "%s: expected one of %s, got \"hlot2\"", per_op[_i].env, per_op[_i].allowed);
  ck_assert_str_eq(err, msg);
  ck_assert(gc_config_hash(&cfg) == defaults_hash);
}
END_TEST

static void env_fails(const char *name, const char *value, const char *msg) {
  ck_assert_msg(load(FULL) == 0, "%s", err);
  ck_assert_int_eq(apply((const char *const[]){name, value, NULL}), -1);
  ck_assert_msg(strncmp(err, name, strlen(name)) == 0 && err[strlen(name)] == ':', "%s", err);
  ck_assert_msg(strstr(err, msg) != NULL, "\"%s\" lacks \"%s\"", err, msg);
  ck_assert(gc_config_hash(&cfg) == defaults_hash);
}

START_TEST(env_errors) {
  env_fails("GRIDCOLL_BCAST", "fat", "GRIDCOLL_BCAST: expected one of auto, native, flat, got \"fat\"");
  env_fails("GRIDCOLL_ALLTOALL", "", "expected one of auto, native, lg, got \"\"");
  env_fails("GRIDCOLL_ALLTOALLV", "hlot", "GRIDCOLL_ALLTOALLV: expected one of auto, native, lg, got \"hlot\"");
  env_fails("GRIDCOLL", "maybe", "expected on or off, got \"maybe\"");
  env_fails("GRIDCOLL_VERBOSE", "4", "expected an integer from 0 to 3, got \"4\"");
  env_fails("GRIDCOLL_VERBOSE", "1x", "got \"1x\"");
  env_fails("GRIDCOLL_SUMMARY", "yes", "expected 0 or 1, got \"yes\"");
  env_fails("GRIDCOLL_PROBE", "2", "expected 0 or 1, got \"2\"");
  env_fails("GRIDCOLL_LOG_MODE", "async", "expected one of sync, local, got \"async\"");
  env_fails("GRIDCOLL_CLOCK", "tsc", "expected one of auto, monotonic, mpi, got \"tsc\"");
  env_fails("GRIDCOLL_NONBLOCKING", "yes", "expected one of native, grid, got \"yes\"");
  env_fails("GRIDCOLL_CLUSTERS", "3-1", "(range 3-1 is reversed)");
  env_fails("GRIDCOLL_CLUSTERS", "0-3,2-5", "appears twice");
  env_fails("GRIDCOLL_CLUSTERS", "", "expected \"host\" or one rank range per cluster");
  /* Numbers beyond what their variable can mean: refused, not wrapped around. */
  env_fails("GRIDCOLL_VERBOSE", "99999999999999999999", "expected an integer from 0 to 3, got \"99999999999999999999\"");
  env_fails("GRIDCOLL_VERBOSE", "-9223372036854775809", "got \"-9223372036854775809\"");
  env_fails("GRIDCOLL_LEARN", "4294967297", "expected 0 or 1, got \"4294967297\"");
  env_fails("GRIDCOLL_CLUSTERS", "0-2147483648", "(rank too large)");
  env_fails("GRIDCOLL_CLUSTERS", "99999999999999999999999", "(rank too large)");
  /* A valid GRIDCOLL=off survives a later error. */
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL", "off", "GRIDCOLL_BCAST", "fat", NULL}), -1);
  ck_assert(cfg.enabled == 0 && cfg.nclusters == 0);
}
END_TEST

/* --- bad files -------------------------------------------------------------- */

START_TEST(unreadable) {
  char p[128];
  snprintf(p, sizeof p, "%s/missing.cfg", dir);
  ck_assert_int_eq(gc_config_load(&cfg, p, &names, err, sizeof err), -1);
  ck_assert_msg(strstr(err, p) == err && strstr(err, ": cannot read the configuration file: No such file"), "%s", err);
  ck_assert_int_eq(gc_config_load(&cfg, dir, &names, err, sizeof err), -1); /* a directory */
  ck_assert_msg(strstr(err, dir) == err && strstr(err, "cannot read"), "%s", err);
  ck_assert_int_eq(gc_config_load(&cfg, NULL, &names, err, sizeof err), -1);
  ck_assert_int_eq(gc_config_load(&cfg, p, &names, NULL, 0), -1);
  /* A 5000-character path is shown shortened, so the reason survives. */
  static char longp[5001];
  memset(longp, 'a', 5000);
  longp[0] = '/';
  ck_assert_int_eq(gc_config_load(&cfg, longp, &names, err, sizeof err), -1);
  ck_assert_msg(strlen(err) < 300 && strstr(err, "/aaa") == err && strstr(err, "...aaa") &&
                strstr(err, ": cannot read the configuration file: File name too long"), "%s", err);
  ck_assert(gc_config_hash(&cfg) == defaults_hash);
}
END_TEST

/* Write len bytes (NULs included) to dir/gridcoll.cfg and load it. */
static int load_bytes(const char *text, size_t len) {
  snprintf(path, sizeof path, "%s/gridcoll.cfg", dir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(text, 1, len, f), len);
  fclose(f);
  return gc_config_load(&cfg, path, &names, err, sizeof err);
}

static void fails_at(int line, const char *what) {
  char head[256];
  snprintf(head, sizeof head, "%s:%d: ", path, line);
  ck_assert_msg(strncmp(err, head, strlen(head)) == 0, "\"%s\" does not start with \"%s\"", err, head);
  ck_assert_msg(strstr(err, what) != NULL, "\"%s\" lacks \"%s\"", err, what);
}

/* What libconfig 1.5 accepts silently or reports at the wrong line. */
START_TEST(bytes) {
  static const char nul[] = "verbose = 1;\n\0 garbage = = ;;;\n";
  ck_assert_int_eq(load_bytes(nul, sizeof nul - 1), -1);
  fails_at(2, "NUL byte");
  static const char bom[] = "\xEF\xBB\xBFverbose = 1;\n";
  ck_assert_int_eq(load_bytes(bom, sizeof bom - 1), -1);
  fails_at(1, "byte-order mark");
  load_fails("verbose = 1;\rprobe = false;\rbogus = 1;\r", 3, "bogus", "unknown");
  load_fails("verbose = 1;\r\nprobe = false;\r\nbogus = 1;\r\n", 3, "bogus", "unknown");
  load_fails("verbose = 1;\nlog = { file = \"x.csv;\n};\n\n\n", 2, "", "never closed");
  load_fails("verbose = 1;\n/* a comment\n\nprobe = true;\n", 2, "", "never closed");
  ck_assert_int_eq(load("log = { file = \"a\\\"b\\\\\"; };\n"), 0); /* escapes are not ends */
  ck_assert_str_eq(cfg.log_file, "a\"b\\");
}
END_TEST

/* Every file up to the size limit is accepted or refused at once: libconfig's parse time
 * grows with the square of a group's settings (50,000 keys took 77 s). */
START_TEST(sizes) {
  size_t cap = GC_CONFIG_MAX_BYTES + 1, n = 0;
  char *text = malloc(cap);
  ck_assert_ptr_nonnull(text);
  for (int i = 0; i < 50000; i++) n += (size_t)snprintf(text + n, cap - n, "k%d = 1;\n", i);
  ck_assert_int_eq(load_bytes(text, n), -1);
  fails_at(GC_CONFIG_MAX_GROUP + 1, "more than 32 settings in one group");
  n = (size_t)snprintf(text, cap, "clusters = (");
  for (int g = 0; g < 2000; g++) {
    n += (size_t)snprintf(text + n, cap - n, "%s{", g ? ", " : "");
    for (int i = 0; i < 6; i++) n += (size_t)snprintf(text + n, cap - n, " a%d = 1;", i);
    n += (size_t)snprintf(text + n, cap - n, " }\n");
  }
  n += (size_t)snprintf(text + n, cap - n, ");\n");
  ck_assert_int_eq(load_bytes(text, n), -1);
  ck_assert_msg(strstr(err, "more than 10000 settings in the file"), "%s", err);
  /* One byte over the limit, as a sparse file: too large, without reading it. */
  memset(text, ' ', cap); /* blanks: a valid, empty configuration */
  ck_assert_int_eq(load_bytes(text, GC_CONFIG_MAX_BYTES), 0);
  ck_assert_int_eq(load_bytes(text, GC_CONFIG_MAX_BYTES + 1), -1);
  ck_assert_msg(strstr(err, "too large"), "%s", err);
  ck_assert_int_eq(truncate(path, (off_t)1 << 31), 0); /* sparse: never read */
  ck_assert_int_eq(gc_config_load(&cfg, path, &names, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "too large"), "%s", err);
  ck_assert_int_eq(gc_config_file_says_strict(path), 0);
  free(text);
}
END_TEST

/* Not a regular file: refused without blocking (a FIFO would wait for a writer forever),
 * or read without blocking and within the size limit (a character device). */
START_TEST(file_kinds) {
  char fifo[128];
  snprintf(fifo, sizeof fifo, "%s/b.cfg", dir);
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  ck_assert_int_eq(gc_config_load(&cfg, fifo, &names, err, sizeof err), -1);
  ck_assert_msg(strstr(err, fifo) == err && strstr(err, "a FIFO (named pipe), not a regular file"), "%s", err);
  ck_assert_int_eq(gc_config_file_says_strict(fifo), 0);
  ck_assert_int_eq(gc_config_load(&cfg, "/dev/zero", &names, err, sizeof err), -1);
  ck_assert_msg(strstr(err, "/dev/zero: the configuration file is too large"), "%s", err);
  ck_assert_int_eq(gc_config_file_says_strict("/dev/zero"), 0);
  ck_assert_int_eq(gc_config_load(&cfg, "/dev/null", &names, err, sizeof err), 0);
}
END_TEST

START_TEST(syntax) {
  load_fails("strict = false;\nverbose = ;\n", 2, "", "syntax error");
  load_fails("network = {\n lan = { alpha = \"60 us\" \n", 3, "", "syntax error");
  load_fails("a = 1;\nb = [1, \"x\"];\n", 2, "", "mismatched element type in array");
  load_fails("verbose = 1;\nverbose = 2;\n", 2, "", "duplicate setting name");
  /* libconfig's own reader would exit the process on a directory and block on
   * /dev/stdin (found by test/fuzz's seeds). */
  load_fails("verbose = 1;\n@include \"/\"\n", 2, "", "@include is not supported");
  load_fails("\n\n \t@include \"/dev/stdin\"\n", 3, "", "@include is not supported");
}
END_TEST

START_TEST(unknown_keys) {
  load_fails("verbose = 1;\ncolour = \"red\";\n", 2, "colour",
             "unknown key; allowed at the top level: strict, verbose, probe, learn, clusters, network, native, alltoall, bcast, alltoallv, log");
  load_fails("network = {\n  lan = {\n    alhpa = \"60 us\";\n  };\n};\n", 3, "network.lan.alhpa",
             "allowed in this group: alpha, beta, gamma, delta, threshold");
  load_fails("network = { wan = { jitter = 1; }; };\n", 1, "network.wan.jitter", "allowed in this group: latency, bandwidth");
  load_fails("log = { summary = true;\n  colour = 1; };\n", 2, "log.colour", "file, mode, summary, summary_file, candidates");
  load_fails("clusters = ( { name = \"a\"; ranks = 0;\n  host = \"x\"; } );\n", 2, "clusters[0].host",
             "allowed in this group: name, hosts, ranks, lan");
  load_fails("clusters = ( { name = \"a\"; ranks = 0;\n lan = { foo = 1; }; } );\n", 2, "clusters[0].lan.foo", "unknown key");
}
END_TEST

START_TEST(wrong_types) {
  load_fails("\nnetwork = 5;\n", 2, "network", "expected a group { key = value; ... }, got 5");
  load_fails("network = { lan = \"fast\"; };\n", 1, "network.lan", "expected a group { key = value; ... }, got \"fast\"");
  load_fails("log = { file = 5; };\n", 1, "log.file", "expected a string, got 5");
  load_fails("strict = \"yes\";\n", 1, "strict", "expected true or false, got \"yes\"");
  load_fails("probe = 2;\n", 1, "probe", "expected true or false, got 2");
  load_fails("verbose = 7;\n", 1, "verbose", "expected an integer from 0 to 3, got 7");
  load_fails("verbose = \"1\";\n", 1, "verbose", "expected an integer from 0 to 3, got \"1\"");
  load_fails("alltoall = { algorithm = 3; };\n", 1, "alltoall.algorithm", "expected one of auto, native, lg, got 3");
  load_fails("network = { lan = { alpha = [1]; }; };\n", 1, "network.lan.alpha", "got an array");
  load_fails("clusters = { name = \"a\"; };\n", 1, "clusters", "expected a list of one or more groups");
  load_fails("clusters = ();\n", 1, "clusters", "got an empty list");
  load_fails("clusters = ( \"a\" );\n", 1, "clusters[0]", "expected a group");
  load_fails("clusters = ( { name = \"a\"; hosts = 5; } );\n", 1, "clusters[0].hosts", "expected a host glob");
  load_fails("clusters = ( { name = \"a\"; hosts = []; } );\n", 1, "clusters[0].hosts", "got an array");
  load_fails("clusters = ( { name = \"a\"; hosts = (\"x\", 1); } );\n", 1, "clusters[0].hosts", "expected a host glob");
  load_fails("clusters = ( { name = \"a\"; ranks = 1.5; } );\n", 1, "clusters[0].ranks", "expected rank ranges");
}
END_TEST

START_TEST(bad_values) {
  load_fails("strict = false;\nverbose = 1;\nprobe = false;\nalltoall = { algorithm = \"auto\"; };\n\nnetwork = {\n"
             "  lan = { alpha = \"fast\"; };\n};\n", 7, "network.lan.alpha",
             "expected a positive time such as \"60 us\", got \"fast\"");
  load_fails("network = { lan = { alpha = \"5.5 parsecs\"; }; };", 1, "network.lan.alpha", "(units: s, ms, us");
  load_fails("network = { lan = { alpha = \"0 us\"; }; };", 1, "network.lan.alpha", "expected a positive time");
  load_fails("network = { lan = { alpha = -1; }; };", 1, "network.lan.alpha", "got -1");
  load_fails("network = { lan = { beta = \"0 Gbit/s\"; }; };", 1, "network.lan.beta", "expected a positive bandwidth");
  load_fails("network = { lan = { beta = -3; }; };", 1, "network.lan.beta", "expected a positive bandwidth");
  load_fails("network = { lan = { beta = \"1 Gbit\"; }; };", 1, "network.lan.beta", "got \"1 Gbit\"");
  load_fails("network = { lan = { gamma = 0; }; };", 1, "network.lan.gamma", "expected a positive number such as 4.3628, got 0");
  load_fails("network = { lan = { gamma = -1.5; }; };", 1, "network.lan.gamma", "got -1.5");
  load_fails("network = { lan = { delta = \"-1 ms\"; }; };", 1, "network.lan.delta", "expected a non-negative time");
  load_fails("network = { lan = { threshold = -5; }; };", 1, "network.lan.threshold", "expected a non-negative size");
  load_fails("network = { lan = { threshold = \"8 KiBs\"; }; };", 1, "network.lan.threshold", "got \"8 KiBs\"");
  load_fails("network = { lan = { alpha = 1e999; }; };", 1, "network.lan.alpha", "expected a positive time");
  load_fails("clusters = ( { name = \"a\"; ranks = 0;\n lan = { gamma = 0; }; } );\n", 2, "clusters[0].lan.gamma", "positive");
  load_fails("alltoall = { algorithm = \"fat\"; };", 1, "alltoall.algorithm", "expected one of auto, native, lg, got \"fat\"");
  load_fails("bcast = {\n algorithm = \"hlot\"; };", 2, "bcast.algorithm", "expected one of auto, native, flat, got \"hlot\"");
  load_fails("log = { mode = \"async\"; };", 1, "log.mode", "expected one of sync, local, got \"async\"");
  /* The shim casts it to size_t: 1e300 would be undefined behaviour there (found by test/fuzz). */
  load_fails("bcast = { segment = \"1e300 B\"; };", 1, "bcast.segment",
             "expected 0 or a size from 1 B to 2^53 B (8 PiB), got \"1e300 B\"");
  load_fails("bcast = { segment = 1e17; };", 1, "bcast.segment", "got 1e+17");
}
END_TEST

#define TWO "clusters = (\n { name = \"a\"; ranks = \"0-1\"; },\n { name = \"b\"; ranks = \"2-3\"; }\n);\n"

START_TEST(bad_clusters) {
  load_fails("clusters = (\n { name = \"a\"; ranks = \"0-3\"; },\n { name = \"b\"; ranks = \"4,3\"; }\n);\n", 3,
             "clusters[1].ranks", "rank 3 is in cluster 'a' (line 2) and in cluster 'b' (line 3)");
  load_fails("clusters = (\n { name = \"a\"; ranks = \"0-3\"; },\n { name = \"a\"; ranks = \"4\"; }\n);\n", 3,
             "clusters[1].name", "duplicate cluster name 'a': clusters[0] (line 2) already has it");
  load_fails("clusters = (\n { name = \"a\"; }\n);\n", 2, "clusters[0]", "cluster 'a' needs 'hosts'");
  load_fails("clusters = (\n { ranks = 1; }\n);\n", 2, "clusters[0]", "missing key 'name'");
  load_fails("clusters = (\n { name = \"\"; ranks = 1; }\n);\n", 2, "clusters[0].name", "expected a non-empty name");
  load_fails("clusters = (\n { name = \"a b\"; ranks = 1; }\n);\n", 2, "clusters[0].name", "without blanks");
  load_fails("clusters = (\n { name = \"a\"; ranks = \"3-1\"; }\n);\n", 2, "clusters[0].ranks",
             "expected rank ranges such as \"0-3,8,10-11\", got \"3-1\" (range 3-1 is reversed)");
  load_fails("clusters = (\n { name = \"a\"; ranks = -1; }\n);\n", 2, "clusters[0].ranks", "negative");
  load_fails("clusters = (\n { name = \"a\"; ranks = \"0-1,x\"; }\n);\n", 2, "clusters[0].ranks", "got \"0-1,x\"");
}
END_TEST

START_TEST(bad_matrices) {
  load_fails(TWO "network = { wan = {\n latency = ( (\"0\", \"1 ms\"), (\"1 ms\", \"0\"), (\"1 ms\", \"1 ms\") ); }; };\n",
             6, "network.wan.latency", "expected 2 rows (one per cluster), got 3");
  load_fails(TWO "network = { wan = {\n latency = ( (\"0\", \"1 ms\"),\n (\"1 ms\", \"0\", \"2 ms\") ); }; };\n",
             7, "network.wan.latency[1]", "expected 2 values (one per cluster), got 3; the matrix must be 2x2");
  load_fails(TWO "network = { wan = {\n bandwidth = ( (\"0\"), (\"1 Gbit/s\") ); }; };\n",
             6, "network.wan.bandwidth[0]", "expected 2 values (one per cluster), got 1");
  load_fails(TWO "network = { wan = {\n latency = ( (\"0\", \"0\"), (\"1 ms\", \"0\") ); }; };\n",
             6, "network.wan.latency[0][1]", "expected a positive time such as \"60 us\", got \"0\"");
  load_fails(TWO "network = { wan = {\n bandwidth = ( [0, -5], [5, 0] ); }; };\n",
             6, "network.wan.bandwidth[0][1]", "expected a positive bandwidth");
  load_fails(TWO "network = { wan = {\n latency = ( (\"0\", \"1 ms\"), (\"1 ms\", \"-1 ms\") ); }; };\n",
             6, "network.wan.latency[1][1]", "expected a non-negative time");
  load_fails(TWO "network = { wan = {\n latency = ( (\"0\", \"1 ms\"), (\"1 furlong\", \"0\") ); }; };\n",
             6, "network.wan.latency[1][0]", "got \"1 furlong\"");
  load_fails(TWO "network = { wan = {\n latency = \"5 ms\"; }; };\n", 6, "network.wan.latency", "expected a list of 2 rows");
  load_fails(TWO "network = { wan = {\n latency = ( \"5 ms\", \"5 ms\" ); }; };\n", 6, "network.wan.latency[0]",
             "expected a row of 2 values");
  load_fails("network = { wan = {\n latency = ( (\"0\", \"1 ms\"), (\"1 ms\", \"0\") ); }; };\n", 2,
             "network.wan.latency", "a wan matrix needs 'clusters'");
}
END_TEST

/* 004 parameters of a cluster's processors: units, defaults, accessor, hash. */
START_TEST(hetero) {
  ck_assert_msg(load("clusters = (\n { name = \"a\"; ranks = \"0-3\";\n"
                     "   hetero = { C = \"25 us\"; t = \"2 ns/B\"; rate = \"1 Gbit/s\"; }; },\n"
                     " { name = \"b\"; ranks = \"4-7\";\n"
                     "   hetero = { C = 3e-5; t = 1e-9; rate = 2e8; S = \"4 KiB\"; Gamma = \"10 us\"; tau = \"0.5 ns/B\"; }; },\n"
                     " { name = \"c\"; ranks = 8; }\n);\n") == 0, "%s", err);
  const struct gc_hetero *a = gc_config_hetero(&cfg, 0), *b = gc_config_hetero(&cfg, 1);
  ck_assert(a && a->set && a->C == 25e-6 && a->t == 2e-9 && a->rate == 1e9 / 8);
  ck_assert(a->S == 1024 && a->Gamma == 0 && a->tau == 0); /* defaults: 004's 1 KB, no overhead */
  ck_assert(b && b->C == 3e-5 && b->t == 1e-9 && b->rate == 2e8 && b->S == 4096);
  ck_assert(b->Gamma == 10e-6 && b->tau == 0.5e-9);
  ck_assert_ptr_null(gc_config_hetero(&cfg, 2)); /* no group: the Hockney forms apply */
  ck_assert_ptr_null(gc_config_hetero(&cfg, 3));
  ck_assert_ptr_null(gc_config_hetero(&cfg, -1));
  unsigned long long h = gc_config_hash(&cfg);
  cfg.clusters[1].hetero.tau = 0.6e-9;
  ck_assert(gc_config_hash(&cfg) != h);
  cfg.clusters[1].hetero.tau = 0.5e-9;
  ck_assert(gc_config_hash(&cfg) == h);
  cfg.clusters[0].hetero.set = 0;
  ck_assert(gc_config_hash(&cfg) != h);
}
END_TEST

#define H(body) "clusters = ( { name = \"a\"; ranks = 0;\n hetero = { " body " }; } );\n"
#define OK3 "C = \"25 us\"; t = \"2 ns/B\"; rate = \"1 Gbit/s\"; "

START_TEST(bad_hetero) {
  load_fails(H("C = \"25 us\"; t = \"2 ns/B\";"), 2, "clusters[0].hetero", "expected C, t and rate");
  load_fails(H("C = \"25 us\"; t = \"2 ns/B\";"), 2, "clusters[0].hetero", "got no rate");
  load_fails(H("t = \"2 ns/B\"; rate = 1e9;"), 2, "clusters[0].hetero", "got no C");
  load_fails(H("C = \"0 us\"; t = 1e-9; rate = 1e9;"), 2, "clusters[0].hetero.C", "expected a positive time");
  load_fails(H("C = -1e-6; t = 1e-9; rate = 1e9;"), 2, "clusters[0].hetero.C", "got -1e-06");
  load_fails(H("C = 1e-6; t = \"0 ns/B\"; rate = 1e9;"), 2, "clusters[0].hetero.t", "positive");
  load_fails(H("C = 1e-6; t = -1e-9; rate = 1e9;"), 2, "clusters[0].hetero.t", "positive");
  load_fails(H("C = 1e-6; t = 1e-9; rate = \"0 Gbit/s\";"), 2, "clusters[0].hetero.rate", "expected a positive bandwidth");
  load_fails(H("C = 1e-6; t = 1e-9; rate = -5;"), 2, "clusters[0].hetero.rate", "got -5");
  load_fails(H("C = 1e-6; t = 1e-9; rate = \"fast\";"), 2, "clusters[0].hetero.rate", "got \"fast\"");
  load_fails(H(OK3 "S = -1;"), 2, "clusters[0].hetero.S", "expected a non-negative size");
  load_fails(H(OK3 "Gamma = \"-1 us\";"), 2, "clusters[0].hetero.Gamma", "expected a non-negative time");
  load_fails(H(OK3 "tau = -1e-9;"), 2, "clusters[0].hetero.tau", "non-negative");
  load_fails(H(OK3 "beta = 1e9;"), 2, "clusters[0].hetero.beta", "allowed in this group: C, t, rate, S, Gamma, tau");
  load_fails("clusters = ( { name = \"a\"; ranks = 0;\n hetero = 5; } );\n", 2, "clusters[0].hetero",
             "expected a group");
}
END_TEST

/* --- values no network has (config/physical.c): refused at load, each with the file,
 * the line and the key --------------------------------------------------------------- */

#define LAN_(body) "network = {\n lan = { " body " };\n};\n"

START_TEST(physical_lan) {
  /* issue 24: both were accepted, made every prediction infinite and crashed the summary */
  load_fails(LAN_("alpha = 1e308;"), 2, "network.lan.alpha",
             "expected a time from 1 ns to 1 hour (3600 s), got 1e+308");
  load_fails(LAN_("beta = \"1e-300 bit/s\";"), 2, "network.lan.beta",
             "expected a bandwidth from 1 bit/s to 1 Pbit/s (an inverse bandwidth from 8e-15 s/B "
             "to 8 s/B), got \"1e-300 bit/s\"");
  load_fails(LAN_("alpha = \"3601 s\";"), 2, "network.lan.alpha", "got \"3601 s\"");
  load_fails(LAN_("alpha = \"0.5 ns\";"), 2, "network.lan.alpha", "got \"0.5 ns\"");
  load_fails(LAN_("alpha = 4.9e-324;"), 2, "network.lan.alpha", "from 1 ns to 1 hour");
  load_fails(LAN_("beta = \"0.5 bit/s\";"), 2, "network.lan.beta", "got \"0.5 bit/s\"");
  load_fails(LAN_("beta = \"1001 Tbit/s\";"), 2, "network.lan.beta", "got \"1001 Tbit/s\"");
  load_fails(LAN_("beta = \"9 s/B\";"), 2, "network.lan.beta", "got \"9 s/B\"");
  load_fails(LAN_("beta = \"1e-16 s/B\";"), 2, "network.lan.beta", "got \"1e-16 s/B\"");
  load_fails(LAN_("beta = 1e300;"), 2, "network.lan.beta", "got 1e+300"); /* 1e300 B/s */
  load_fails(LAN_("gamma = 1e5;"), 2, "network.lan.gamma", "expected a ratio from 0.01 to 10000, got 100000");
  load_fails(LAN_("gamma = 0.001;"), 2, "network.lan.gamma", "got 0.001");
  load_fails(LAN_("gamma = 1e308;"), 2, "network.lan.gamma", "got 1e+308");
  load_fails(LAN_("delta = \"7200 s\";"), 2, "network.lan.delta",
             "expected 0 or a time from 1 ns to 1 hour (3600 s), got \"7200 s\"");
  load_fails(LAN_("delta = 1e-12;"), 2, "network.lan.delta", "got 1e-12");
  load_fails(LAN_("threshold = 1e17;"), 2, "network.lan.threshold",
             "expected 0 or a size from 1 B to 2^53 B (8 PiB), got 1e+17");
  load_fails(LAN_("threshold = \"0.5 B\";"), 2, "network.lan.threshold", "got \"0.5 B\"");
  load_fails("clusters = ( { name = \"a\"; ranks = 0;\n lan = { alpha = \"2 h\"; }; } );\n", 2,
             "clusters[0].lan.alpha", "(units: s, ms"); /* no hours: written in seconds, below */
  load_fails("clusters = ( { name = \"a\"; ranks = 0;\n lan = { alpha = 7200; }; } );\n", 2,
             "clusters[0].lan.alpha", "from 1 ns to 1 hour (3600 s), got 7200");
  /* Both ends of every range are accepted. */
  ck_assert_msg(load(LAN_("alpha = \"1 ns\"; beta = \"1 bit/s\"; gamma = 0.01; delta = 0; threshold = 0;")) == 0, "%s", err);
  ck_assert(cfg.lan.alpha == 1e-9 && cfg.lan.beta == 8 && cfg.lan.gamma == 0.01 && cfg.lan.delta == 0);
  ck_assert_msg(load(LAN_("alpha = 3600; beta = \"1000 Tbit/s\"; gamma = 10000; delta = \"1 ns\"; "
                          "threshold = 9007199254740992L;")) == 0, "%s", err);
  ck_assert(cfg.lan.alpha == 3600 && cfg.lan.beta == 8e-15 && cfg.lan.gamma == 1e4 &&
            cfg.lan.delta == 1e-9 && cfg.lan.threshold == 0x1p53);
  ck_assert_msg(load(LAN_("beta = \"8 s/B\"; delta = \"3600 s\"; threshold = 1;")) == 0, "%s", err);
  ck_assert(cfg.lan.beta == 8 && cfg.lan.delta == 3600 && cfg.lan.threshold == 1);
}
END_TEST

START_TEST(physical_sizes) {
  load_fails("network = { wan = {\n window = 1e17; }; };", 2, "network.wan.window", "got 1e+17");
  load_fails("network = { wan = {\n window = 0.5; }; };", 2, "network.wan.window",
             "expected 0 or a size from 1 B to 2^53 B (8 PiB), got 0.5");
  load_fails("bcast = {\n segment = \"0.25 B\"; };", 2, "bcast.segment", "got \"0.25 B\"");
  load_fails("bcast = {\n native_eager = 1e17; };", 2, "bcast.native_eager", "got 1e+17");
  load_fails("bcast = {\n native_eager = 1e-300; };", 2, "bcast.native_eager", "got 1e-300");
  load_fails("alltoall = {\n native_pairwise = 1e17; };", 2, "alltoall.native_pairwise", "got 1e+17");
  load_fails("alltoall = {\n native_pairwise = 0.5; };", 2, "alltoall.native_pairwise", "got 0.5");
  ck_assert_msg(load("network = { wan = { window = 9007199254740992L; }; };\n"
                     "bcast = { segment = 1; native_eager = \"8192 TiB\"; };\n"
                     "alltoall = { native_pairwise = \"8 TiB\"; };\n") == 0, "%s", err);
  ck_assert(cfg.wan_window == 0x1p53 && cfg.bcast_segment == 1 && cfg.bcast_eager == 0x1p53 &&
            cfg.alltoall_pairwise == 0x1p43);
}
END_TEST

START_TEST(physical_hetero) {
  load_fails(H("C = 7200; t = 1e-9; rate = 1e9;"), 2, "clusters[0].hetero.C", "from 1 ns to 1 hour (3600 s), got 7200");
  load_fails(H("C = 1e-12; t = 1e-9; rate = 1e9;"), 2, "clusters[0].hetero.C", "got 1e-12");
  load_fails(H("C = 1e-6; t = \"9 s/B\"; rate = 1e9;"), 2, "clusters[0].hetero.t", "got \"9 s/B\"");
  load_fails(H("C = 1e-6; t = 1e-16; rate = 1e9;"), 2, "clusters[0].hetero.t", "got 1e-16");
  load_fails(H("C = 1e-6; t = 1e-9; rate = \"0.5 bit/s\";"), 2, "clusters[0].hetero.rate",
             "expected a bandwidth from 1 bit/s to 1 Pbit/s, got \"0.5 bit/s\"");
  load_fails(H("C = 1e-6; t = 1e-9; rate = 1e15;"), 2, "clusters[0].hetero.rate", "got 1e+15");
  load_fails(H(OK3 "S = 1e17;"), 2, "clusters[0].hetero.S", "from 1 B to 2^53 B (8 PiB), got 1e+17");
  load_fails(H(OK3 "S = 0.5;"), 2, "clusters[0].hetero.S", "got 0.5");
  load_fails(H(OK3 "Gamma = 1e4;"), 2, "clusters[0].hetero.Gamma", "got 10000");
  load_fails(H(OK3 "Gamma = 1e-300;"), 2, "clusters[0].hetero.Gamma", "got 1e-300");
  load_fails(H(OK3 "tau = \"9 s/B\";"), 2, "clusters[0].hetero.tau", "got \"9 s/B\"");
  load_fails(H(OK3 "tau = 1e-20;"), 2, "clusters[0].hetero.tau", "got 1e-20");
  ck_assert_msg(load(H("C = \"1 ns\"; t = \"8 s/B\"; rate = \"1 bit/s\"; S = 1; Gamma = 3600; tau = 0;")) == 0, "%s", err);
  ck_assert_msg(load(H("C = 3600; t = 8e-15; rate = 1.25e14; S = 9007199254740992L; Gamma = 0; "
                       "tau = \"8 s/B\";")) == 0, "%s", err);
  ck_assert(cfg.clusters[0].hetero.rate == 1.25e14 && cfg.clusters[0].hetero.tau == 8);
}
END_TEST

/* libconfig 1.5 reads an integer beyond 32 bits written without an L suffix wrapped
 * around, without a word (4294967296 as 0: a 4 GiB window would become no window): the
 * first pass refuses it, with the key the loader would name. */
START_TEST(wide_integers) {
  load_fails("network = {\n wan = { window = 4294967296; }; };", 2, "network.wan.window",
             "the integer 4294967296 does not fit in 32 bits, and libconfig would read it wrapped "
             "around: write 4294967296L");
  load_fails("bcast = { native_eager = 2147483648; };", 1, "bcast.native_eager", "2147483648L");
  load_fails("verbose = -2147483649;", 1, "verbose", "the integer -2147483649 does not fit");
  load_fails("network = { lan = { threshold = 0x80000000; }; };", 1, "network.lan.threshold",
             "the integer 0x80000000 does not fit");
  load_fails("clusters = (\n { name = \"a\"; ranks = 1; },\n { name = \"b\"; ranks = 4294967296; }\n);\n",
             3, "clusters[1].ranks", "4294967296L");
  load_fails(TWO "network = { wan = {\n latency = ( (0, 1),\n (99999999999999999999, 0) ); }; };\n", 7,
             "network.wan.latency[1][0]", "the integer 99999999999999999999 does not fit");
  /* The edges of an int, a 64-bit integer, a float and a string are read as written. */
  ck_assert_msg(load("network = { wan = { window = 4294967296L; }; lan = { threshold = 0x7fffffff; }; };\n"
                     "bcast = { segment = 2147483647; native_eager = 4294967296.0; };\n"
                     "alltoall = { native_pairwise = \"4294967296 B\"; };\n") == 0, "%s", err);
  ck_assert(cfg.wan_window == 0x1p32 && cfg.lan.threshold == 2147483647.0 &&
            cfg.bcast_segment == 2147483647.0 && cfg.bcast_eager == 0x1p32 &&
            cfg.alltoall_pairwise == 0x1p32);
  ck_assert_int_eq(load("verbose = -2147483648;"), -1); /* an int: the range check's turn */
  ck_assert_msg(strstr(err, "expected an integer from 0 to 3, got -2147483648"), "%s", err);
}
END_TEST

START_TEST(physical_matrices) {
  load_fails(TWO "network = { wan = {\n latency = ( (\"0\", \"7200 s\"), (\"1 ms\", \"0\") ); }; };\n", 6,
             "network.wan.latency[0][1]", "expected a time from 1 ns to 1 hour (3600 s), got \"7200 s\"");
  load_fails(TWO "network = { wan = {\n latency = ( (0, 1e-3), (1e-12, 0) ); }; };\n", 6,
             "network.wan.latency[1][0]", "got 1e-12");
  /* The diagonal is ignored, but a value no network has is a typing error all the same. */
  load_fails(TWO "network = { wan = {\n latency = ( (1e308, 1e-3), (1e-3, 0) ); }; };\n", 6,
             "network.wan.latency[0][0]", "expected 0 or a time from 1 ns to 1 hour (3600 s), got 1e+308");
  load_fails(TWO "network = { wan = {\n bandwidth = ( (\"0\", \"1e-300 bit/s\"), (\"1 Gbit/s\", \"0\") ); }; };\n", 6,
             "network.wan.bandwidth[0][1]", "expected a bandwidth from 1 bit/s to 1 Pbit/s, got \"1e-300 bit/s\"");
  load_fails(TWO "network = { wan = {\n bandwidth = ( (0, 1e9), (1e15, 0) ); }; };\n", 6,
             "network.wan.bandwidth[1][0]", "got 1e+15");
  load_fails(TWO "network = { wan = {\n aggregate = ( (0, 1e20), (1e9, 0) ); }; };\n", 6,
             "network.wan.aggregate[0][1]", "got 1e+20");
  load_fails(TWO "network = { wan = {\n aggregate = ( (0, 1e9), (0.1, 0) ); }; };\n", 6,
             "network.wan.aggregate[1][0]", "got 0.1");
  ck_assert_msg(load(TWO "network = { wan = { latency = ( (0, 1e-9), (3600, 0) );\n"
                     " bandwidth = ( (0, 0.125), (1.25e14, 0) ); aggregate = ( (0, \"1 bit/s\"), (\"1000 Tbit/s\", 0) ); }; };\n") == 0,
                "%s", err);
  ck_assert(gc_config_wan_latency(&cfg, 0, 1) == 1e-9 && gc_config_wan_latency(&cfg, 1, 0) == 3600);
  ck_assert(gc_config_wan_bandwidth(&cfg, 1, 0) == 1.25e14 && gc_config_wan_aggregate(&cfg, 0, 1) == 0.125);
}
END_TEST

/* Curves (config_curve.c): a lan's `curve`, the wide area's `curves` by pair. */
#define CURVE "( (\"1 B\", \"10 us\"), (\"64 KiB\", \"80 us\"), (65537, \"150 us\"), (\"4 MiB\", \"4 ms\") )"

START_TEST(curves) {
  ck_assert_msg(load(TWO "network = {\n lan = { curve = " CURVE "; };\n"
                     " wan = { curves = ( { pair = [ \"b\", \"a\" ]; curve = ( (0, \"5 ms\"), (\"1 MiB\", \"6 ms\") ); } ); };\n};\n"
                     "clusters2 = 0;\n") == -1, "unknown top-level key still refused");
  ck_assert_msg(load(TWO "network = {\n lan = { curve = " CURVE "; };\n"
                     " wan = { curves = ( { pair = [ \"b\", \"a\" ]; curve = ( (0, \"5 ms\"), (\"1 MiB\", \"6 ms\") ); } ); };\n};\n") == 0,
                "%s", err);
  const struct gc_curve *c = gc_config_curve(&cfg, 0, 0);
  ck_assert_ptr_nonnull(c);
  ck_assert_int_eq(c->n, 4);
  ck_assert(c->m[0] == 1 && c->m[1] == 65536 && c->m[2] == 65537 && c->m[3] == 4194304);
  ck_assert(c->t[0] == 10e-6 && c->t[3] == 4e-3);
  /* network.lan's curve is every cluster's unless it gives its own, as its other keys. */
  ck_assert(gc_config_curve(&cfg, 1, 1) == &cfg.clusters[1].lan.curve && gc_config_curve(&cfg, 1, 1)->n == 4);
  ck_assert(gc_config_curve(&cfg, 7, 7) == &cfg.lan.curve);
  /* One entry serves both directions. */
  ck_assert(gc_config_curve(&cfg, 0, 1) && gc_config_curve(&cfg, 1, 0));
  ck_assert(gc_config_curve(&cfg, 0, 1)->t[0] == 5e-3 && gc_config_curve(&cfg, 1, 0)->m[1] == 1048576);
  ck_assert(cfg.wan_curve_line == 7);
  /* Hashed: another curve chooses otherwise; without one the hash is the old one. */
  unsigned long long with = gc_config_hash(&cfg);
  cfg.wan_curve[1].t[1] = 7e-3;
  ck_assert(gc_config_hash(&cfg) != with);
  cfg.wan_curve[1].t[1] = 6e-3;
  cfg.clusters[0].lan.curve.t[2] = 151e-6;
  ck_assert(gc_config_hash(&cfg) != with);
  /* A cluster's own curve, and a pair left without one. */
  ck_assert_msg(load("clusters = (\n { name = \"a\"; ranks = 0; lan = { alpha = \"5 us\"; curve = ( (1, 2e-6), (1000, 3e-6) ); }; },\n"
                     " { name = \"b\"; ranks = 1; }, { name = \"c\"; ranks = 2; }\n);\n"
                     "network = { wan = { curves = ( { pair = [ \"a\", \"c\" ]; curve = ( (1, 1e-3), (2, 1e-3) ); } ); }; };\n") == 0, "%s", err);
  ck_assert(gc_config_curve(&cfg, 0, 0)->t[1] == 3e-6 && gc_config_curve(&cfg, 1, 1) == NULL);
  ck_assert(gc_config_curve(&cfg, 0, 2) && gc_config_curve(&cfg, 2, 0) && !gc_config_curve(&cfg, 0, 1));
  ck_assert(!gc_config_curve(&cfg, 1, 2) && !gc_config_curve(&cfg, 0, 9));
}
END_TEST

/* Without curves: nothing set, and the hash the same as a file that never heard of them. */
START_TEST(curves_absent) {
  ck_assert_msg(load(FULL) == 0, "%s", err);
  ck_assert(cfg.wan_curve == NULL && cfg.lan.curve.n == 0 && cfg.clusters[1].lan.curve.n == 0);
  for (int a = -1; a < 3; a++)
    for (int b = -1; b < 3; b++) ck_assert(gc_config_curve(&cfg, a, b) == NULL);
  ck_assert(gc_config_curve(&cfg, 0, 0) == NULL);
}
END_TEST

/* `native` (config_native.c): the MPI library's own collectives measured on a layout. */
#define NATIVE_A2A "( (\"1 B\", \"30 us\"), (\"1 KiB\", \"40 us\"), (\"1 MiB\", \"9 ms\") )"
START_TEST(native_table) {
  ck_assert_msg(load(TWO "native = {\n procs = 4;\n sizes = [ 2, 2 ];\n alltoall = " NATIVE_A2A ";\n"
                     " bcast = ( { root = \"b\"; curve = ( (1, \"20 us\"), (\"1 MiB\", \"5 ms\") ); } );\n};\n") == 0,
                "%s", err);
  ck_assert_int_eq(cfg.native.procs, 4);
  ck_assert_int_eq(cfg.native.line, 5);
  ck_assert(cfg.native.sizes[0] == 2 && cfg.native.sizes[1] == 2);
  ck_assert(cfg.native.alltoall.n == 3 && cfg.native.alltoall.m[1] == 1024 && cfg.native.alltoall.t[2] == 9e-3);
  ck_assert(cfg.native.bcast[0].n == 0 && cfg.native.bcast[1].n == 2 && cfg.native.bcast[1].t[0] == 20e-6);
  /* It applies to the layout it was measured on, and to no other. */
  ck_assert(gc_config_native(&cfg, 4, (int[]){2, 2}) == &cfg.native);
  ck_assert(gc_config_native(&cfg, 4, (int[]){3, 1}) == NULL);
  ck_assert(gc_config_native(&cfg, 3, (int[]){2, 1}) == NULL);
  /* Hashed when present; with it gone, the hash is a file's without it. */
  unsigned long long with = gc_config_hash(&cfg);
  cfg.native.alltoall.t[0] = 31e-6;
  ck_assert(gc_config_hash(&cfg) != with);
  cfg.native.procs = 0;
  unsigned long long gone = gc_config_hash(&cfg);
  ck_assert_msg(load(TWO) == 0, "%s", err);
  ck_assert(cfg.native.procs == 0 && cfg.native.sizes == NULL && cfg.native.bcast == NULL);
  ck_assert(gc_config_hash(&cfg) == gone && gone != with);
  ck_assert(gc_config_native(&cfg, 4, (int[]){2, 2}) == NULL);
  /* A table of the broadcast alone. */
  ck_assert_msg(load(TWO "native = { procs = 3; sizes = [ 0, 3 ];\n bcast = ( { root = \"b\"; curve = ( (1, 1e-5), (2, 1e-5) ); } ); };\n") == 0,
                "%s", err);
  ck_assert(cfg.native.alltoall.n == 0 && cfg.native.bcast[1].n == 2);
  ck_assert(gc_config_native(&cfg, 3, (int[]){0, 3}) == &cfg.native);
  /* A collective's time may fall (the library switching algorithm by size), which a
   * link's curve may not. */
  ck_assert_msg(load(TWO "native = { procs = 4; sizes = [ 2, 2 ];\n alltoall = ( (4, \"40 ms\"), (\"16 KiB\", \"12 ms\") ); };\n") == 0,
                "%s", err);
  ck_assert(cfg.native.alltoall.t[1] == 12e-3);
}
END_TEST

START_TEST(bad_native) {
  load_fails("native = {\n procs = 2; sizes = [ 2 ]; };\n", 1, "native", "defines none");
  load_fails(TWO "native = 4;\n", 5, "native", "expected a group");
  load_fails(TWO "native = {\n sizes = [ 2, 2 ]; };\n", 5, "native", "got no procs");
  load_fails(TWO "native = {\n procs = 1; sizes = [ 1, 0 ]; };\n", 6, "native.procs", "2 or more");
  load_fails(TWO "native = {\n procs = 4;\n sizes = [ 4 ]; };\n", 7, "native.sizes", "an array of 2 process counts");
  load_fails(TWO "native = {\n procs = 4;\n sizes = [ 5, -1 ]; };\n", 7, "native.sizes[1]", "0 or more");
  load_fails(TWO "native = {\n procs = 4;\n sizes = [ 2, 3 ]; };\n", 7, "native.sizes", "5 processes are not procs = 4");
  load_fails(TWO "native = { procs = 4; sizes = [ 2, 2 ];\n speed = 1; };\n", 6, "native.speed", "unknown key");
  load_fails(TWO "native = { procs = 4; sizes = [ 2, 2 ];\n alltoall = ( (1, \"1 us\") ); };\n", 6, "native.alltoall", "got 1 point");
  load_fails(TWO "native = { procs = 4; sizes = [ 2, 2 ]; alltoall = (\n (1, \"1 us\"),\n (2, \"7200 s\") ); };\n", 7,
             "native.alltoall[1]", "1 hour");
  load_fails(TWO "native = { procs = 4; sizes = [ 2, 2 ]; alltoall = (\n (\"8 KiB\", \"1 us\"),\n (\"4 KiB\", \"2 us\") ); };\n", 7,
             "native.alltoall[1]", "sizes must increase");
  load_fails(TWO "native = { procs = 4; sizes = [ 2, 2 ];\n bcast = 1; };\n", 6, "native.bcast", "a list of one or more groups");
  load_fails(TWO "native = { procs = 4; sizes = [ 2, 2 ]; bcast = (\n { root = \"z\"; curve = ( (1, 1e-5), (2, 1e-5) ); } ); };\n", 6,
             "native.bcast[0].root", "no cluster is named 'z'");
  load_fails(TWO "native = { procs = 2; sizes = [ 2, 0 ]; bcast = (\n { root = \"b\"; curve = ( (1, 1e-5), (2, 1e-5) ); } ); };\n", 6,
             "native.bcast[0].root", "no process");
  load_fails(TWO "native = { procs = 4; sizes = [ 2, 2 ]; bcast = ( { root = \"a\"; curve = ( (1, 1e-5), (2, 1e-5) ); },\n"
             " { root = \"a\"; curve = ( (1, 1e-5), (2, 1e-5) ); } ); };\n", 6, "native.bcast[1].root", "already has a curve");
  load_fails(TWO "native = { procs = 4; sizes = [ 2, 2 ]; bcast = (\n { root = \"a\"; } ); };\n", 6, "native.bcast[0]", "got no curve");
  load_fails(TWO "native = { procs = 4; sizes = [ 2, 2 ]; bcast = (\n { root = \"a\"; curve = ( (1, 1e-5), (2, 0) ); } ); };\n", 6,
             "native.bcast[0].curve[1]", "time");
}
END_TEST

START_TEST(bad_curves) {
  load_fails("network = { lan = {\n curve = 5; }; };\n", 2, "network.lan.curve", "expected a list of 2 to 48 points");
  load_fails("network = { lan = {\n curve = ( (1, \"1 us\") ); }; };\n", 2, "network.lan.curve", "got 1 point");
  load_fails("network = { lan = { curve = (\n (1, \"1 us\"),\n (2) ); }; };\n", 3, "network.lan.curve[1]", "expected a point (size, time)");
  load_fails("network = { lan = { curve = (\n (1, \"1 us\"),\n (\"2 parsecs\", \"2 us\") ); }; };\n", 3, "network.lan.curve[1]", "expected a non-negative size");
  load_fails("network = { lan = { curve = (\n (-1, \"1 us\"),\n (2, \"2 us\") ); }; };\n", 2, "network.lan.curve[0]", "got -1");
  load_fails("network = { lan = { curve = (\n (1, \"0 us\"),\n (2, \"2 us\") ); }; };\n", 2, "network.lan.curve[0]", "time");
  load_fails("network = { lan = { curve = (\n (1, \"1 us\"),\n (2, \"7200 s\") ); }; };\n", 3, "network.lan.curve[1]",
             "expected a time from 1 ns to 1 hour (3600 s), got \"7200 s\"");
  load_fails("network = { lan = { curve = (\n (1, \"1 us\"),\n (1e300, \"2 us\") ); }; };\n", 3, "network.lan.curve[1]", "from 1 B to 2^53 B");
  load_fails("network = { lan = { curve = (\n (\"8 KiB\", \"1 us\"),\n (\"4 KiB\", \"2 us\") ); }; };\n", 3, "network.lan.curve[1]",
             "sizes must increase: 4096 B after 8192 B");
  load_fails("network = { lan = { curve = (\n (1, \"10 us\"),\n (2, \"5 us\") ); }; };\n", 3, "network.lan.curve[1]", "may not fall");
  load_fails("clusters = (\n { name = \"a\"; ranks = 0; lan = { curve = ( (1, 1e-6), \"x\" ); }; }\n);\n", 2, "clusters[0].lan.curve[1]",
             "expected a point");
  /* The wide area's. */
  load_fails("network = { wan = {\n curves = ( { pair = [ \"a\", \"b\" ]; curve = ( (1, 1e-3), (2, 1e-3) ); } ); }; };\n", 2,
             "network.wan.curves", "defines none");
  load_fails(TWO "network = { wan = {\n curves = 3; }; };\n", 6, "network.wan.curves", "expected a list of one or more groups");
  load_fails(TWO "network = { wan = { curves = (\n { pair = [ \"a\", \"z\" ]; curve = ( (1, 1e-3), (2, 1e-3) ); } ); }; };\n", 6,
             "network.wan.curves[0].pair", "no cluster is named 'z'");
  load_fails(TWO "network = { wan = { curves = (\n { pair = [ \"a\", \"a\" ]; curve = ( (1, 1e-3), (2, 1e-3) ); } ); }; };\n", 6,
             "network.wan.curves[0].pair", "lan.curve");
  load_fails(TWO "network = { wan = { curves = (\n { pair = \"a\"; curve = ( (1, 1e-3), (2, 1e-3) ); } ); }; };\n", 6,
             "network.wan.curves[0].pair", "expected two cluster names");
  load_fails(TWO "network = { wan = { curves = (\n { pair = [ \"a\", \"b\" ]; } ); }; };\n", 6,
             "network.wan.curves[0]", "got no curve");
  load_fails(TWO "network = { wan = { curves = (\n { pair = [ \"a\", \"b\" ]; curve = ( (1, 1e-3), (2, 1e-3) ); kind = 1; } ); }; };\n", 6,
             "network.wan.curves[0].kind", "unknown key");
  load_fails(TWO "network = { wan = { curves = ( { pair = [ \"a\", \"b\" ]; curve = ( (1, 1e-3), (2, 1e-3) ); },\n"
             " { pair = [ \"b\", \"a\" ]; curve = ( (1, 1e-3), (2, 1e-3) ); } ); }; };\n", 6,
             "network.wan.curves[1].pair", "already has a curve");
  load_fails(TWO "network = { wan = { curves = ( { pair = [ \"a\", \"b\" ]; curve = (\n (2, 1e-3), (1, 1e-3) ); } ); }; };\n", 6,
             "network.wan.curves[0].curve[1]", "sizes must increase");
}
END_TEST

START_TEST(env_curves) {
  ck_assert_msg(load(TWO "network = { wan = { curves = ( { pair = [ \"a\", \"b\" ]; curve = ( (1, 1e-3), (2, 1e-3) ); } ); }; };\n") == 0, "%s", err);
  /* Same clusters, new members: the curves stay. */
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "0-3,4-7", NULL}), 0);
  ck_assert(gc_config_curve(&cfg, 0, 1) != NULL);
  /* Another count: the pairs the curves name are gone. */
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "0-3,4-7,8", NULL}), -1);
  ck_assert_msg(strstr(err, "network.wan.curves names pairs"), "%s", err);
  ck_assert_msg(load(TWO "network = { wan = { curves = ( { pair = [ \"a\", \"b\" ]; curve = ( (1, 1e-3), (2, 1e-3) ); } ); }; };\n") == 0, "%s", err);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "host", NULL}), 0);
  ck_assert(cfg.wan_curve == NULL && gc_config_curve(&cfg, 0, 1) == NULL);
}
END_TEST

/* GRIDCOLL_CLUSTERS that drops the file's matrices and clusters drops what made the network
 * given, unless network.lan stays; new members of the same clusters keep it all. */
START_TEST(network_given_env) {
  const char *wan = "clusters = ( { name = \"a\"; ranks = 0; }, { name = \"b\"; ranks = 1; } );\n"
                    "network = { wan = { latency = ( (\"0\", \"5 ms\"), (\"5 ms\", \"0\") ); }; };\n";
  ck_assert_msg(load(wan) == 0, "%s", err);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "0,1", NULL}), 0);
  ck_assert_int_eq(cfg.network_given, 1);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "host", NULL}), 0);
  ck_assert_int_eq(cfg.network_given, 0);
  const char *own = "clusters = ( { name = \"a\"; ranks = 0; lan = { beta = \"10 Gbit/s\"; }; },\n"
                    " { name = \"b\"; ranks = 1; } );\n";
  ck_assert_msg(load(own) == 0, "%s", err);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "0,1,2", NULL}), 0);
  ck_assert_int_eq(cfg.network_given, 0);
  ck_assert_msg(load("network = { lan = { alpha = \"40 us\"; }; };\n") == 0, "%s", err);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "host", NULL}), 0);
  ck_assert_int_eq(cfg.network_given, 1);
}
END_TEST

/* The native table was measured on the file's clusters: new members keep it (it applies
 * where the layout still matches), other clusters drop it (it could match none). */
START_TEST(env_native) {
  const char *file = TWO "native = { procs = 4; sizes = [ 2, 2 ]; alltoall = ( (1, 1e-3), (2, 1e-3) ); };\n";
  ck_assert_msg(load(file) == 0, "%s", err);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "0-1,2-3", NULL}), 0);
  ck_assert(gc_config_native(&cfg, 4, (int[]){2, 2}) == &cfg.native);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "0-1,2,3", NULL}), 0);
  ck_assert(cfg.native.procs == 0 && cfg.native.sizes == NULL && gc_config_native(&cfg, 4, (int[]){2, 1, 1}) == NULL);
  ck_assert_msg(load(file) == 0, "%s", err);
  ck_assert_int_eq(apply((const char *const[]){"GRIDCOLL_CLUSTERS", "host", NULL}), 0);
  ck_assert(cfg.native.procs == 0);
}
END_TEST

static Suite *config_suite(void) {
  Suite *s = suite_create("config");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_checked_fixture(core, setup, teardown);
  tcase_add_checked_fixture(limits, setup, teardown);
  tcase_add_test(core, defaults);
  tcase_add_test(core, window_and_eager);
  tcase_add_test(core, full_example);
  tcase_add_test(core, alltoallv_algorithm);
  tcase_add_loop_test(core, per_op_choice, 0, (int)(sizeof per_op / sizeof per_op[0]));
  tcase_add_test(core, variants);
  tcase_add_test(core, examples_load);
  tcase_add_test(core, network_given);
  tcase_add_test(core, network_given_env);
  tcase_add_test(core, accessors);
  tcase_add_test(core, hash);
  tcase_add_test(core, strict_scan);
  tcase_add_test(core, default_path);
  tcase_add_test(core, env_overrides);
  tcase_add_test(core, env_clock);
  tcase_add_test(core, env_nonblocking);
  tcase_add_test(core, env_keeps_file_clusters);
  tcase_add_test(core, hetero);
  tcase_add_test(core, curves);
  tcase_add_test(core, curves_absent);
  tcase_add_test(core, native_table);
  tcase_add_test(core, env_curves);
  tcase_add_test(core, env_native);
  tcase_add_test(limits, unreadable);
  tcase_add_test(limits, syntax);
  tcase_add_test(limits, bytes);
  tcase_add_test(limits, sizes);
  tcase_add_test(limits, file_kinds);
  tcase_add_test(limits, intent_of_broken_files);
  tcase_add_test(limits, unknown_keys);
  tcase_add_test(limits, wrong_types);
  tcase_add_test(limits, bad_values);
  tcase_add_test(limits, bad_clusters);
  tcase_add_test(limits, bad_matrices);
  tcase_add_test(limits, env_errors);
  tcase_add_test(limits, bad_hetero);
  tcase_add_test(limits, physical_lan);
  tcase_add_test(limits, physical_sizes);
  tcase_add_test(limits, physical_hetero);
  tcase_add_test(limits, physical_matrices);
  tcase_add_test(limits, wide_integers);
  tcase_add_test(limits, bad_curves);
  tcase_add_test(limits, bad_native);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(config_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
