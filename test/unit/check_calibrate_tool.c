/* gridcoll-calibrate's pure parts (tools/calibrate/platform.c, fromlog.c): the SimGrid
 * platform it writes parses back (well-formed XML, the link values measured), the host
 * file places every rank in its cluster; --from-log reads the log's CSV by its header,
 * recovers known factors from a synthesized run, and the configuration it writes loads
 * back to the same configuration. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve_text.h"
#include "fromlog.h"
#include "model_check.h"
#include "platform.h"

/* The whole of a stream, NUL-terminated (the caller frees). */
static char *slurp(FILE *f)
{
  long n = ftell(f);
  rewind(f);
  char *s = calloc((size_t)n + 1, 1);
  ck_assert(s && fread(s, 1, (size_t)n, f) == (size_t)n);
  return s;
}

/* Well-formed enough for SimGrid's parser: every element closed in order, attributes
 * quoted, no "--" inside a comment. Returns the number of elements. */
static int check_xml(const char *s)
{
  char stack[64][32];
  int depth = 0, elements = 0;
  for (const char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
    if (strncmp(p, "<?", 2) == 0 || strncmp(p, "<!DOCTYPE", 9) == 0)
      continue;
    if (strncmp(p, "<!--", 4) == 0) {
      const char *end = strstr(p + 4, "-->");
      ck_assert(end);
      for (const char *q = p + 4; q < end; q++)
        ck_assert_msg(!(q[0] == '-' && q[1] == '-'), "-- inside a comment");
      p = end;
      continue;
    }
    const char *close = strchr(p, '>');
    ck_assert(close);
    int quotes = 0;
    for (const char *q = p; q < close; q++)
      quotes += *q == '"';
    ck_assert_msg(quotes % 2 == 0, "unbalanced quotes in %.60s", p);
    char name[32];
    if (p[1] == '/') {
      ck_assert(sscanf(p + 2, "%31[a-zA-Z_]", name) == 1);
      ck_assert_msg(depth > 0 && strcmp(stack[depth - 1], name) == 0, "</%s> closes nothing", name);
      depth--;
    } else {
      ck_assert(sscanf(p + 1, "%31[a-zA-Z_]", name) == 1);
      elements++;
      if (close[-1] != '/') {
        ck_assert(depth < 64);
        strcpy(stack[depth++], name);
      }
    }
    p = close;
  }
  ck_assert_int_eq(depth, 0);
  return elements;
}

/* The value of attribute attr of the element whose id is id, as a number. */
static double attr(const char *s, const char *id, const char *name)
{
  char key[96];
  snprintf(key, sizeof key, "id=\"%s\"", id);
  const char *e = strstr(s, key);
  ck_assert_msg(e, "no element %s", id);
  const char *end = strchr(e, '>');
  snprintf(key, sizeof key, " %s=\"", name);
  const char *a = strstr(e, key);
  ck_assert_msg(a && a < end, "no %s in %s", name, id);
  return strtod(a + strlen(key), NULL);
}

/* Two clusters as g5k2 measured: 50 us, 8 ns/B; the second contended (gamma 2); one flow
 * across 5.55 ms and 125 MB/s, many flows 1.25 GB/s; ranks interleaved 0 1 0 1 0. */
START_TEST(platform_parses_back)
{
  struct gc_platform_cluster cl[2] = {{"nancy", 3, 50e-6, 8e-9, 1.0}, {"rennes", 2, 50e-6, 8e-9, 2.0}};
  double lat[4] = {0, 5.55e-3, 5.55e-3, 0}, bw[4] = {0, 1.25e8, 1.25e8, 0};
  double agg[4] = {0, 1.25e9, 1.25e9, 0};
  int table[5] = {0, 1, 0, 1, 0};
  struct gc_platform p = {2, cl, lat, bw, agg, 5, table};
  FILE *f = tmpfile();
  ck_assert_int_eq(gc_platform_write_xml(f, &p), 0);
  char *s = slurp(f);
  fclose(f);
  ck_assert_int_ge(check_xml(s), 1 + 1 + 2 + 4 + 2 * 3);
  ck_assert_rel(attr(s, "nancy", "bw"), 1.25e8, 1e-8);
  ck_assert_rel(attr(s, "nancy", "lat"), 25e-6, 1e-8);
  ck_assert(strstr(s, "radical=\"0-2\"") && strstr(s, "radical=\"0-1\""));
  ck_assert_rel(attr(s, "nancy", "bb_bw"), 1.25e8, 1e-8); /* gamma 1: non-blocking */
  ck_assert_rel(attr(s, "rennes", "bb_bw"), 2 / (2 * 8e-9), 1e-8); /* n/(gamma*beta) */
  ck_assert(strstr(s, "bb_sharing_policy=\"SHARED\" router_id=\"rennes-gw\""));
  /* The wide area: the latency less two private links, the backbone at the aggregate,
   * each flow capped at one flow's bandwidth. */
  ck_assert_rel(attr(s, "wan-nancy-rennes", "latency"), 5.5e-3, 1e-8);
  ck_assert_rel(attr(s, "wan-nancy-rennes", "bandwidth"), 1.25e9, 1e-8);
  ck_assert_rel(attr(s, "flow-rennes-nancy", "bandwidth"), 1.25e8, 1e-8);
  ck_assert(strstr(s, "<zoneRoute src=\"rennes\" dst=\"nancy\" gw_src=\"rennes-gw\" gw_dst=\"nancy-gw\""));
  free(s);

  f = tmpfile();
  ck_assert_int_eq(gc_platform_write_hosts(f, &p), 0);
  s = slurp(f);
  fclose(f);
  ck_assert_str_eq(s, "nancy-0\nrennes-0\nnancy-1\nrennes-1\nnancy-2\n");
  free(s);

  /* No aggregate: the backbone gets one flow's bandwidth, and says so. */
  p.aggregate = NULL;
  f = tmpfile();
  ck_assert_int_eq(gc_platform_write_xml(f, &p), 0);
  s = slurp(f);
  fclose(f);
  check_xml(s);
  ck_assert_rel(attr(s, "wan-nancy-rennes", "bandwidth"), 1.25e8, 1e-8);
  ck_assert(strstr(s, "no aggregate measured"));
  free(s);
}
END_TEST

START_TEST(platform_limits)
{
  struct gc_platform_cluster cl[2] = {{"a", 1, 1e-6, 1e-9, 1}, {"b", 1, 1e-6, 0, 1}};
  double lat[4] = {0}, bw[4] = {0, 1, 1, 0};
  int table[3] = {0, 1, 0};
  struct gc_platform p = {2, cl, lat, bw, NULL, 2, table};
  FILE *f = tmpfile();
  ck_assert_int_eq(gc_platform_write_xml(f, &p), -1); /* beta 0: no bandwidth */
  cl[1].beta = 1e-9;
  ck_assert_int_eq(gc_platform_write_xml(f, &p), 0);
  p.nranks = 3; /* three ranks, two hosts */
  ck_assert_int_eq(gc_platform_write_hosts(f, &p), -1);
  p.latency = NULL;
  ck_assert_int_eq(gc_platform_write_xml(f, &p), -1);
  ck_assert_int_eq(gc_platform_write_xml(f, NULL), -1);
  fclose(f);
}
END_TEST

static const char header[] =
    "rank,comm,comm_size,call,op,algorithm,root,bytes,clusters,model,predicted_s,actual_s,"
    "candidates\n";

START_TEST(log_lines)
{
  int cols[GC_LOG_COLUMNS];
  struct gc_log_record r;
  ck_assert_int_eq(gc_log_parse_header(header, cols), 0);
  ck_assert_int_eq(gc_log_parse_line("0,7,4,1,alltoall,lg,,1024,2,lg-backbone,1.5e-05,2e-05,native=3e-05;lg=1.5e-05\n", cols, &r), 0);
  ck_assert(r.rank == 0 && r.comm == 7 && r.comm_size == 4 && r.root == -1 && r.clusters == 2);
  ck_assert_str_eq(r.op, "alltoall");
  ck_assert_str_eq(r.algorithm, "lg");
  ck_assert_str_eq(r.model, "lg-backbone");
  ck_assert(r.bytes == 1024 && r.predicted == 1.5e-5 && r.actual == 2e-5);
  ck_assert_int_eq(gc_log_parse_line("3,7,4,2,bcast,hlot,1,65536,2,tree,1e-3,2e-3,\n", cols, &r), 0);
  ck_assert(r.root == 1 && r.rank == 3);
  /* Nothing to refit: no prediction, no time, a blank line. */
  ck_assert_int_eq(gc_log_parse_line("0,7,4,1,alltoall,native,,1024,1,,,2e-05,\n", cols, &r), 1);
  ck_assert_int_eq(gc_log_parse_line("0,7,4,1,alltoall,native,,1024,1,signature,1e-5,,\n", cols, &r), 1);
  ck_assert_int_eq(gc_log_parse_line("\n", cols, &r), 1);
  /* MPI_Alltoallv predicted on an earlier call's totals: not this call's, not refitted. */
  ck_assert_int_eq(gc_log_parse_line("0,7,4,3,alltoallv,native,,4096,2,linear-grid-v@learnt,1e-4,2e-4,\n", cols, &r), 1);
  ck_assert_int_eq(gc_log_parse_line("0,7,4,3,alltoallv,lg,,4096,2,lgv-backbone,1e-4,2e-4,\n", cols, &r), 0);
  /* A nonblocking or persistent schedule's time: when the application looked, not
   * refitted; an algorithm merely ending in "nb" is. */
  ck_assert_int_eq(gc_log_parse_line("0,7,4,4,ialltoall,lg-nb,,1024,2,lg-backbone,1e-5,2e-5,\n", cols, &r), 1);
  ck_assert_int_eq(gc_log_parse_line("0,7,4,5,bcast_init,hlot-persistent,0,1024,2,tree,1e-5,2e-5,\n", cols, &r), 1);
  ck_assert_int_eq(gc_log_parse_line("0,7,4,6,bcast,nb,0,1024,2,tree,1e-5,2e-5,\n", cols, &r), 0);
  /* Malformed. */
  ck_assert_int_eq(gc_log_parse_line("0,7,4\n", cols, &r), -1);
  ck_assert_int_eq(gc_log_parse_line("x,7,4,1,alltoall,lg,,1024,2,lg-backbone,1e-5,2e-5,\n", cols, &r), -1);
  ck_assert_int_eq(gc_log_parse_line("0,7,4,1,alltoall,lg,,1024,2,lg-backbone,fast,2e-5,\n", cols, &r), -1);
  ck_assert_int_eq(gc_log_parse_line("0,7,4,1,alltoall,lg,,1024,2,lg-backbone,1e-5,-2e-5,\n", cols, &r), -1);
  /* Columns found by name: a column added in front moves nothing. */
  ck_assert_int_eq(gc_log_parse_header("extra,rank,comm,comm_size,call,op,algorithm,root,bytes,"
                                       "clusters,model,predicted_s,actual_s,candidates", cols), 0);
  ck_assert_int_eq(gc_log_parse_line("9,0,7,4,1,alltoall,lg,,1024,2,lg-backbone,1e-5,2e-5,\n", cols, &r), 0);
  ck_assert(r.bytes == 1024 && r.actual == 2e-5);
  ck_assert_int_eq(gc_log_parse_header("rank,comm,op\n", cols), -1);
  /* With own_s (the wait for late ranks apart), the refit fits the own time; empty there
   * (a local-mode line has it), the actual time. */
  ck_assert_int_eq(gc_log_parse_header("rank,comm,comm_size,call,op,algorithm,root,bytes,clusters,"
                                       "model,predicted_s,actual_s,candidates,elapsed_s,own_s,"
                                       "spread_s,root_late_s", cols), 0);
  ck_assert_int_eq(gc_log_parse_line("0,7,4,1,alltoall,lg,,1024,2,lg-backbone,1e-5,3e-5,,3e-5,"
                                     "1.2e-5,1.8e-5,\n", cols, &r), 0);
  ck_assert(r.actual == 1.2e-5);
  ck_assert_int_eq(gc_log_parse_line("0,7,4,1,alltoall,lg,,1024,2,lg-backbone,1e-5,3e-5,,3e-5,,,\n",
                                     cols, &r), 0);
  ck_assert(r.actual == 3e-5);
  ck_assert_int_eq(gc_log_parse_line("0,7,4,1,alltoall,lg,,1024,2,lg-backbone,1e-5,3e-5,,3e-5,"
                                     "soon,,\n", cols, &r), -1);
}
END_TEST

/* A run on a network whose latencies are 3x and per-byte costs 2x what the configuration
 * says, inside one cluster; 1.5x and 4x across: the log's predictions come from the
 * configuration, its actual times from the real network. The refit finds the factors,
 * the errors drop to 0, and the configuration written loads back as refitted. */
START_TEST(refit_recovers)
{
  const char *cfgtext =
      "clusters = ( { name = \"a\"; ranks = \"0-3\"; }, { name = \"b\"; ranks = \"4-7\"; site = \"x\"; } );\n"
      "network = { lan = { alpha = \"50 us\"; beta = \"8 ns/B\"; gamma = 1.5; delta = \"1 ms\"; threshold = \"64 KiB\"; };\n"
      "  wan = { latency = ( (\"0\", \"5 ms\"), (\"5 ms\", \"0\") ); bandwidth = ( (\"0\", \"125 MB/s\"), (\"125 MB/s\", \"0\") );\n"
      "          aggregate = ( (\"0\", \"1 GB/s\"), (\"1 GB/s\", \"0\") ); }; };\n"
      "bcast = { algorithm = \"hlot\"; segment = \"8 KiB\"; };\n";
  char path[] = "/tmp/gc_refit_XXXXXX";
  int fd = mkstemp(path);
  ck_assert(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs(cfgtext, f);
  fclose(f);
  char err[GC_ERR_MAX];
  struct gc_config cfg;
  gc_config_defaults(&cfg);
  ck_assert_msg(gc_config_load(&cfg, path, NULL, err, sizeof err) == 0, "%s", err);

  /* The log: per size, one all-to-all inside cluster a (signature model of 4 processes,
   * start-up 3*(alpha + delta from M), per byte 3*m*beta*gamma) and one across (lg-backbone:
   * latency, 4m bytes over one flow), every call logged by ranks 0 and 4, rank 4 having
   * only passed the message on (nanoseconds: the call is the slowest rank's time). */
  char logpath[] = "/tmp/gc_refit_log_XXXXXX";
  fd = mkstemp(logpath);
  f = fdopen(fd, "w");
  fputs(header, f);
  const struct gc_lan *l = &cfg.lan;
  for (int rank = 0; rank <= 4; rank += 4) {
    int call = 0;
    for (double m = 1024; m <= 1 << 20; m *= 4, call++) {
      double start = 3 * (l->alpha + (m >= l->threshold ? l->delta : 0)), bytes = 3 * m * l->beta * l->gamma;
      fprintf(f, "%d,11,4,%d,alltoall,native,,%.0f,1,signature,%.9g,%.9g,\n", rank, call, m,
              start + bytes, rank ? 1e-8 : 3 * start + 2 * bytes);
      double wl = 5e-3, wb = 4 * m / 125e6;
      fprintf(f, "%d,12,8,%d,alltoall,lg,,%.0f,2,lg-backbone,%.9g,%.9g,\n", rank, call, m, wl + wb,
              rank ? 1e-8 : 1.5 * wl + 4 * wb);
    }
  }
  fprintf(f, "0,13,8,1,bcast,hlot,0,4096,2,tree,1e-3,2e-3,\n"); /* one size: left out */
  fclose(f);

  struct gc_log_record *rec = NULL;
  int n = 0;
  ck_assert_msg(gc_log_read(logpath, &rec, &n, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(n, 2 * 2 * 6 + 1);
  struct gc_refit fit;
  ck_assert_msg(gc_refit_records(rec, n, &fit, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(fit.skipped, 1);
  const struct gc_refit_level *lan = &fit.level[GC_REFIT_LAN], *wan = &fit.level[GC_REFIT_WAN];
  ck_assert(lan->ok && wan->ok && lan->used == 6 && wan->used == 6);
  /* The split puts the delta step (a start-up cost) into B, so the lan's factors are
   * close, not exact. */
  ck_assert_rel(lan->x, 3, 0.15);
  ck_assert_rel(lan->y, 2, 0.15);
  ck_assert_msg(lan->before > 0.5 && lan->after < 0.1, "%g -> %g", lan->before, lan->after);
  ck_assert_rel(wan->x, 1.5, 1e-6);
  ck_assert_rel(wan->y, 4, 1e-6);
  ck_assert_msg(wan->before > 0.3 && wan->after < 1e-6, "%g -> %g", wan->before, wan->after);

  gc_refit_apply(&cfg, &fit);
  ck_assert_rel(cfg.clusters[0].lan.alpha, 50e-6 * lan->x, 1e-12);
  ck_assert_rel(cfg.clusters[1].lan.beta, 8e-9 * lan->y, 1e-12);
  ck_assert_rel(cfg.wan_latency[1], 7.5e-3, 1e-6);
  ck_assert_rel(cfg.wan_bandwidth[2], 125e6 / 4, 1e-6);
  ck_assert_rel(cfg.wan_aggregate[1], 1e9 / 4, 1e-6);

  /* Written and loaded back: the same configuration, every key the writer does not
   * refit kept (here set away from its default). */
  cfg.alltoall_pairwise = 12345;
  cfg.learn = 0;
  snprintf(cfg.algorithm[GC_OP_ALLTOALLV], GC_NAME_MAX, "lg");
  /* The native table, kept as measured (it may fall: the library switching algorithm). */
  cfg.native.procs = 0;
  cfg.native.sizes = calloc((size_t)cfg.nclusters, sizeof *cfg.native.sizes);
  cfg.native.bcast = calloc((size_t)cfg.nclusters, sizeof *cfg.native.bcast);
  ck_assert(cfg.native.sizes && cfg.native.bcast);
  for (int c = 0; c < cfg.nclusters; c++)
    cfg.native.procs += cfg.native.sizes[c] = 2 + c;
  cfg.native.alltoall = (struct gc_curve){3, {1, 4096, 1048576}, {40.1e-3, 12.3e-3, 0.2}};
  cfg.native.bcast[cfg.nclusters - 1] = (struct gc_curve){2, {1, 1048576}, {1.5e-5, 9.25e-3}};
  f = fopen(path, "w");
  ck_assert_int_eq(gc_config_write(f, &cfg, "refitted\nby a test"), 0);
  fclose(f);
  struct gc_config back;
  gc_config_defaults(&back);
  ck_assert_msg(gc_config_load(&back, path, NULL, err, sizeof err) == 0, "%s", err);
  ck_assert(gc_config_hash(&back) == gc_config_hash(&cfg));
  ck_assert(back.alltoall_pairwise == 12345 && back.learn == 0);
  ck_assert_str_eq(back.algorithm[GC_OP_ALLTOALLV], "lg");
  ck_assert(back.native.procs == cfg.native.procs && back.native.alltoall.t[1] == 12.3e-3);
  ck_assert(back.native.bcast[cfg.nclusters - 1].t[1] == 9.25e-3 && back.native.bcast[0].n == 0);
  gc_config_free(&back);
  gc_config_free(&cfg);
  free(rec);
  remove(path);
  remove(logpath);
}
END_TEST

/* A refit whose factors would take a value beyond what the loader accepts is refused:
 * the file written must load (config/physical.c). */
START_TEST(refit_within_physical_sense)
{
  struct gc_config cfg;
  gc_config_defaults(&cfg);
  cfg.nclusters = 2;
  cfg.clusters = calloc(2, sizeof *cfg.clusters);
  cfg.wan_latency = calloc(4, sizeof(double));
  cfg.wan_bandwidth = calloc(4, sizeof(double));
  ck_assert(cfg.clusters && cfg.wan_latency && cfg.wan_bandwidth);
  for (int c = 0; c < 2; c++)
    cfg.clusters[c].lan = cfg.lan;
  cfg.clusters[1].lan.alpha = 1;
  cfg.wan_latency[1] = cfg.wan_latency[2] = 10e-3;
  cfg.wan_bandwidth[1] = cfg.wan_bandwidth[2] = 1.25e9;
  struct gc_refit fit = {.level = {{.ok = 1, .x = 2, .y = 0.5}, {.ok = 1, .x = 3, .y = 2}}};
  gc_refit_check_limits(&cfg, &fit);
  ck_assert(fit.level[GC_REFIT_LAN].ok && fit.level[GC_REFIT_WAN].ok);
  /* clusters[1]'s alpha of 1 s times 4000: beyond an hour; network.lan's is not */
  fit.level[GC_REFIT_LAN].x = 4000;
  gc_refit_check_limits(&cfg, &fit);
  ck_assert(!fit.level[GC_REFIT_LAN].ok && fit.level[GC_REFIT_LAN].v.level == GC_FIT_REFUSED);
  ck_assert_msg(strstr(fit.level[GC_REFIT_LAN].v.why, "clusters[1].lan.alpha would be 4000 s"), "%s",
                fit.level[GC_REFIT_LAN].v.why);
  ck_assert(fit.level[GC_REFIT_WAN].ok);
  /* 10 Gbit/s divided by 1e-6: 1.25e15 B/s, beyond 1 Pbit/s */
  fit.level[GC_REFIT_WAN].y = 1e-6;
  gc_refit_check_limits(&cfg, &fit);
  ck_assert(!fit.level[GC_REFIT_WAN].ok);
  ck_assert_msg(strstr(fit.level[GC_REFIT_WAN].v.why, "network.wan.bandwidth[0][1] would be"), "%s",
                fit.level[GC_REFIT_WAN].v.why);
  /* A beta times 2000: 1.6e-5 s/B is fine, 8e-9 times 2e9 = 16 s/B is not. */
  fit.level[GC_REFIT_LAN] = (struct gc_refit_level){.ok = 1, .x = 1, .y = 2e9};
  gc_refit_check_limits(&cfg, &fit);
  ck_assert_msg(strstr(fit.level[GC_REFIT_LAN].v.why, "network.lan.beta would be 16 s/B"), "%s",
                fit.level[GC_REFIT_LAN].v.why);
  gc_config_free(&cfg);
}
END_TEST

START_TEST(refit_limits)
{
  char err[GC_ERR_MAX];
  struct gc_refit fit;
  ck_assert_int_eq(gc_refit_records(NULL, 0, &fit, err, sizeof err), -1);
  /* Every kind of call at one size: nothing to split. */
  struct gc_log_record r[2] = {{.comm = 1, .comm_size = 2, .clusters = 1, .op = "alltoall",
                                .algorithm = "native", .model = "signature", .bytes = 64,
                                .predicted = 1e-5, .actual = 2e-5},
                               {.comm = 2, .comm_size = 2, .clusters = 1, .op = "alltoall",
                                .algorithm = "native", .model = "signature", .bytes = 64,
                                .predicted = 1e-5, .actual = 2e-5}};
  ck_assert_int_eq(gc_refit_records(r, 2, &fit, err, sizeof err), -1);
  ck_assert(strstr(err, "one size"));
  int n = 0;
  struct gc_log_record *rec = NULL;
  ck_assert_int_eq(gc_log_read("/nonexistent/gc.csv", &rec, &n, err, sizeof err), -1);
  ck_assert(strstr(err, "/nonexistent/gc.csv"));
  char p[] = "/tmp/gc_refit_bad_XXXXXX";
  FILE *f = fdopen(mkstemp(p), "w");
  fprintf(f, "%sbad,line\n", header);
  fclose(f);
  ck_assert_int_eq(gc_log_read(p, &rec, &n, err, sizeof err), -1);
  ck_assert_msg(strstr(err, ":2: malformed"), "%s", err);
  f = fopen(p, "w");
  fprintf(f, "not,a,log\n");
  fclose(f);
  ck_assert_int_eq(gc_log_read(p, &rec, &n, err, sizeof err), -1);
  ck_assert(strstr(err, "not a gridcoll log"));
  remove(p);
  free(rec);
}
END_TEST

/* SimGrid's default network as a ping-pong sees it: a line whose latency jumps at 65472 B. */
static double shaped(double m) { return m < 65472 ? 100e-6 + m * 8e-9 : 1e-3 + m * 9e-9; }

/* A sweep's steps are found where a protocol switches, and bisection walks to them. */
START_TEST(curve_steps)
{
  double m[] = {8192, 16384, 32768, 65536, 131072, 262144}, t[6];
  for (int i = 0; i < 6; i++)
    t[i] = shaped(m[i]);
  for (int i = 0; i < 5; i++)
    ck_assert_msg(calibrate_curve_step(m, t, 6, i, 0.01) == (i == 2), "segment %d", i);
  /* Bisecting segment 2 (32768 to 65536): which side of 65472 each probe is on. */
  ck_assert(!calibrate_curve_past(m, t, 6, 2, 49152, shaped(49152)));
  ck_assert(!calibrate_curve_past(m, t, 6, 2, 65471, shaped(65471)));
  ck_assert(calibrate_curve_past(m, t, 6, 2, 65472, shaped(65472)));
  /* A straight line has no step anywhere. */
  for (int i = 0; i < 6; i++)
    t[i] = 1e-6 + m[i] * 1e-9;
  for (int i = 0; i < 5; i++)
    ck_assert(!calibrate_curve_step(m, t, 6, i, 0.01));
  /* A sweep with the bisection's points reduces to a curve that is exact at every sample. */
  double sm[64], st[64];
  int n = 0;
  for (double x = 1; x <= 4194304; x *= 2)
    sm[n] = x, st[n] = shaped(x), n++;
  sm[n] = 65471, st[n] = shaped(65471), n++;
  for (int i = 1; i < n; i++) /* in size order */
    for (int j = i; j > 0 && sm[j] < sm[j - 1]; j--) {
      double a = sm[j], b = st[j];
      sm[j] = sm[j - 1], st[j] = st[j - 1], sm[j - 1] = a, st[j - 1] = b;
    }
  struct gc_curve c;
  ck_assert_int_ge(calibrate_curve_of(sm, st, n, 0, &c), 4);
  ck_assert_int_le(c.n, 6);
  for (int i = 0; i < n; i++)
    ck_assert_rel(gc_curve_time(&c, sm[i]), st[i], 0.01);
  ck_assert_rel(gc_curve_time(&c, 60000), shaped(60000), 0.01);
  ck_assert_rel(gc_curve_time(&c, 100000), shaped(100000), 0.01);
  /* Times under a nanosecond are written as one (the loader's shortest time). */
  double zm[] = {1, 2, 3}, zt[] = {0, 0, 1e-6};
  ck_assert_int_ge(calibrate_curve_of(zm, zt, 3, 0, &c), 2);
  ck_assert(c.t[0] == 1e-9);
}
END_TEST

/* The text of a curve is what the loader reads back, to the double when exact. */
START_TEST(curve_text_loads)
{
  struct gc_curve c = {3, {1, 65471, 4194304}, {100.123456789e-6, 623.7e-6, 38.7e-3}};
  for (int exact = 0; exact < 2; exact++) {
    char path[] = "/tmp/gc-curve-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "network = { lan = { ");
    calibrate_write_curve(f, "  ", &c, exact);
    fprintf(f, "}; };\n");
    fclose(f);
    struct gc_config cfg;
    char err[GC_ERR_MAX];
    gc_config_defaults(&cfg);
    ck_assert_msg(gc_config_load(&cfg, path, NULL, err, sizeof err) == 0, "%s", err);
    remove(path);
    ck_assert_int_eq(cfg.lan.curve.n, 3);
    for (int i = 0; i < 3; i++) {
      ck_assert(cfg.lan.curve.m[i] == c.m[i]);
      if (exact)
        ck_assert(cfg.lan.curve.t[i] == c.t[i]);
      else
        ck_assert_rel(cfg.lan.curve.t[i], c.t[i], 1e-5);
    }
    gc_config_free(&cfg);
  }
}
END_TEST

int main(void)
{
  Suite *s = suite_create("calibrate_tool");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, platform_parses_back);
  tcase_add_test(core, log_lines);
  tcase_add_test(core, refit_recovers);
  tcase_add_test(core, curve_steps);
  tcase_add_test(core, curve_text_loads);
  tcase_add_test(limits, platform_limits);
  tcase_add_test(limits, refit_limits);
  tcase_add_test(limits, refit_within_physical_sense);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
