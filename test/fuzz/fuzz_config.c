/* Fuzz target: the whole configuration path that MPI_Init runs, from bytes to predictions.
 *
 * Input: a configuration file, optionally followed by a line "#%env" and lines
 * "GRIDCOLL_X=value" that play the environment (a "#" line is a comment to libconfig, so
 * seeds stay valid files up to the marker). What it runs, as shim/startup.c does:
 *   gc_config_load (through a real path: a memfd, so slurp and libconfig's reader run),
 *   gc_config_file_says_strict on a load error; else gc_config_apply_env, gc_config_hash,
 * and then, on a valid configuration, every rank of a fixed 8-process world is matched to its
 * cluster (gc_topology_cluster_of against fixed host names), the layout and network view
 * are built for the world and for one sub-communicator, and every algorithm's
 * prediction is computed at a few sizes and must be finite and >= 0, or -1 (no model):
 * values at the edges of what the loader accepts (config/physical.c) are shown to be
 * harmless downstream too. Everything is freed: LeakSanitizer
 * checks that no path leaks. */
#define _GNU_SOURCE /* memfd_create */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config.h"
#include "layout.h"
#include "network.h"
#include "op_info.h"
#include "shape.h"
#include "topology.h"

#define WORLD 8
/* Hosts like those of the examples and tests: two Grid'5000 sites, a korea8 host, a
 * fully qualified name, and an empty name (MPI_Get_processor_name may give one). */
static const char *const hosts[WORLD] = {"nancy-1", "nancy-1", "rennes-2", "grelon-3",
                                         "A-0", "paravance-7.rennes.grid5000.fr", "", "localhost"};

static int fd = -1;
static char path[64];

/* The environment section, as a table: value of the last "NAME=" line, NULL if none. */
static const char *env_text;
static size_t env_len;
static char env_value[4096];

static const char *env_get(const char *name) {
  size_t nl = strlen(name);
  const char *found = NULL, *p = env_text, *end = env_text ? env_text + env_len : NULL;
  size_t flen = 0;
  while (p && p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    if ((size_t)(eol - p) > nl && memcmp(p, name, nl) == 0 && p[nl] == '=')
      found = p + nl + 1, flen = (size_t)(eol - found);
    p = eol + 1;
  }
  if (!found || flen >= sizeof env_value || memchr(found, '\0', flen)) return NULL;
  memcpy(env_value, found, flen);
  env_value[flen] = '\0';
  return env_value;
}

/* The name tables the shim passes (op_info.h: from the pure rows its dispatch tables
 * point at; filled by setup()). */
static struct gc_config_names names;

static void setup(void) {
  gc_op_config_names(&names);
  fd = memfd_create("gridcoll-fuzz.cfg", 0);
  if (fd < 0) abort();
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
}

/* A prediction of an accepted configuration: seconds, finite and >= 0, or exactly -1. */
static void sane(double t) {
  if (!(isfinite(t) && (t >= 0 || t == -1))) abort();
}

static void predict_all(const struct gc_config *cfg, int size, const int *gid) {
  struct gc_layout layout;
  struct gc_network net;
  static const double sizes[] = {1, 1 << 20}; /* below and above every threshold */
  if (gc_layout_build(&layout, size, gid) != 0) return;
  if (gc_network_build(&net, cfg, &layout) != 0) {
    gc_layout_free(&layout);
    return;
  }
  const char *model;
  double *pair_bytes = malloc(sizeof(double) * (size_t)layout.nclusters * (size_t)layout.nclusters);
  /* Every row of every operation (op_info.h), rooted at the first and the last rank. */
  for (size_t s = 0; pair_bytes && s < sizeof sizes / sizeof *sizes; s++)
    for (int op = 0; op < GC_OP_LAST; op++)
      for (int root = 0; root < size; root += size - 1 > 0 ? size - 1 : 1) {
        struct gc_shape shape;
        gc_op_table[op].shape(&layout, sizes[s], root, pair_bytes, &shape);
        for (int i = 0; i < gc_op_table[op].nrows; i++)
          sane(gc_op_table[op].rows[i].predict(&net, &layout, &shape, &model));
      }
  free(pair_bytes);
  gc_network_free(&net);
  gc_layout_free(&layout);
}

/* shim/startup.c's world table: a rank no cluster matches gets a cluster of its own. */
static void topology(const struct gc_config *cfg) {
  int gid[WORLD], sub[WORLD / 2];
  char err[GC_ERR_MAX];
  if (cfg->topology == GC_TOPOLOGY_NODE) { /* one cluster per host, as node_cluster_table */
    gc_topology_by_host(hosts, WORLD, gid);
  } else {
    for (int r = 0; r < WORLD; r++) {
      gid[r] = gc_topology_cluster_of(cfg, r, hosts[r], err, sizeof err);
      if (gid[r] == -2) return; /* a host claimed twice: the shim passes through */
      if (gid[r] == GC_CLUSTER_NONE) gid[r] = cfg->nclusters + r;
    }
  }
  predict_all(cfg, WORLD, gid);
  for (int r = 0; r < WORLD / 2; r++) sub[r] = gid[2 * r + 1]; /* odd ranks */
  predict_all(cfg, WORLD / 2, sub);
}

/* The entry point libFuzzer (or replay.c) calls; no header of theirs declares it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char marker[] = "\n#%env\n";
  if (fd < 0) setup();
  const char *text = (const char *)data;
  const char *env = memmem(data, size, marker, sizeof marker - 1);
  size_t file_len = env ? (size_t)(env - text) : size;
  env_text = env ? env + sizeof marker - 1 : NULL;
  env_len = env ? size - file_len - (sizeof marker - 1) : 0;

  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, file_len, 0) != (ssize_t)file_len) abort();

  struct gc_config cfg;
  char err[GC_ERR_MAX];
  gc_config_defaults(&cfg);
  const char *p = gc_config_default_path(env_get); /* GRIDCOLL_CONFIG, or the cwd's file */
  (void)p;
  /* As shim/startup.c: a file that fails to load means pass-through, nothing further. */
  if (gc_config_load(&cfg, path, &names, err, sizeof err) != 0) {
    (void)gc_config_file_says_strict(path);
  } else if (gc_config_apply_env(&cfg, env_get, &names, err, sizeof err) == 0 && cfg.enabled) {
    (void)gc_config_hash(&cfg);
    volatile size_t segment = (size_t)cfg.bcast_segment; /* as shim/startup.c does */
    (void)segment;
    topology(&cfg);
  }
  gc_config_free(&cfg);
  gc_config_free(&cfg); /* freeing twice is documented as safe */
  return 0;
}
