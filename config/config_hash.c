/* A fingerprint of everything that steers gridcoll's choices, so that the shim can
 * check at start-up that every rank read the same configuration (a rank with another
 * file or environment would choose another algorithm and deadlock the others).
 *
 * FNV-1a 64 over a canonical serialization: each field tagged, integers as 8 bytes
 * little-endian, doubles by their bits (-0 as 0), strings with their length first.
 * Left out: the file's path, line numbers and verbosity, which change no choice, and the
 * clock (GRIDCOLL_CLOCK): each rank reads its own, the offsets measured at MPI_Init
 * relate them. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "config.h"

struct fnv {
  uint64_t h;
};

static void bytes(struct fnv *f, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    f->h ^= b[i];
    f->h *= 0x100000001b3ULL;
  }
}

static void u64(struct fnv *f, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
  bytes(f, b, sizeof b);
}

static void tag(struct fnv *f, char t) { bytes(f, &t, 1); }

static void num(struct fnv *f, double d) {
  uint64_t v;
  if (fpclassify(d) == FP_ZERO) d = 0; /* -0 and 0 choose alike */
  memcpy(&v, &d, sizeof v);
  u64(f, v);
}

static void str(struct fnv *f, const char *s) {
  size_t n = s ? strlen(s) : 0;
  u64(f, s ? (uint64_t)n : UINT64_MAX); /* NULL differs from "" */
  bytes(f, s ? s : "", n);
}

/* Nothing for an absent curve, so that a configuration without curves hashes as before. */
static void curve(struct fnv *f, const struct gc_curve *c) {
  if (!gc_curve_set(c)) return;
  tag(f, 'V'), u64(f, (uint64_t)c->n);
  for (int i = 0; i < c->n; i++) num(f, c->m[i]), num(f, c->t[i]);
}

static void lan(struct fnv *f, const struct gc_lan *l) {
  tag(f, 'L');
  num(f, l->alpha);
  num(f, l->beta);
  num(f, l->gamma);
  num(f, l->delta);
  num(f, l->threshold);
  curve(f, &l->curve);
}

static void matrix(struct fnv *f, const double *m, int n) {
  tag(f, m ? 'M' : 'm');
  for (int i = 0; m && i < n * n; i++) num(f, m[i]);
}

unsigned long long gc_config_hash(const struct gc_config *cfg) {
  struct fnv f = {0xcbf29ce484222325ULL};
  str(&f, "gridcoll-config-5"); /* bump when the serialization changes */
  tag(&f, 'E'), u64(&f, (uint64_t)cfg->enabled);
  tag(&f, 'S'), u64(&f, (uint64_t)cfg->strict);
  tag(&f, 'P'), u64(&f, (uint64_t)cfg->probe);
  tag(&f, 'L'), u64(&f, (uint64_t)cfg->learn);
  if (cfg->nonblocking_grid) /* only when set: the hash of every other configuration stays */
    tag(&f, 'N');
  tag(&f, 'T'), u64(&f, (uint64_t)cfg->topology);
  tag(&f, 'C'), u64(&f, (uint64_t)cfg->nclusters);
  for (int i = 0; cfg->clusters && i < cfg->nclusters; i++) {
    const struct gc_cluster_spec *c = &cfg->clusters[i];
    str(&f, c->name);
    tag(&f, 'H'), u64(&f, (uint64_t)c->nhosts);
    for (int h = 0; h < c->nhosts; h++) str(&f, c->hosts[h]);
    tag(&f, 'R'), u64(&f, (uint64_t)c->nranks);
    for (int r = 0; r < c->nranks; r++) u64(&f, (uint64_t)c->ranks[r].lo), u64(&f, (uint64_t)c->ranks[r].hi);
    lan(&f, &c->lan);
    str(&f, c->site);
    tag(&f, c->hetero.set ? 'X' : 'x');
    if (c->hetero.set) {
      num(&f, c->hetero.C);
      num(&f, c->hetero.t);
      num(&f, c->hetero.rate);
      num(&f, c->hetero.S);
      num(&f, c->hetero.Gamma);
      num(&f, c->hetero.tau);
    }
  }
  lan(&f, &cfg->lan);
  matrix(&f, cfg->wan_latency, cfg->nclusters);
  matrix(&f, cfg->wan_bandwidth, cfg->nclusters);
  matrix(&f, cfg->wan_aggregate, cfg->nclusters);
  for (int i = 0; cfg->wan_curve && i < cfg->nclusters * cfg->nclusters; i++) {
    tag(&f, 'W');
    curve(&f, &cfg->wan_curve[i]);
  }
  if (cfg->native.procs > 0) { /* nothing when absent: a file without hashes as before */
    tag(&f, 'N'), u64(&f, (uint64_t)cfg->native.procs);
    for (int c = 0; c < cfg->nclusters; c++) u64(&f, (uint64_t)cfg->native.sizes[c]);
    curve(&f, &cfg->native.alltoall);
    for (int c = 0; cfg->native.bcast && c < cfg->nclusters; c++) tag(&f, 'B'), curve(&f, &cfg->native.bcast[c]);
  }
  for (int op = 0; op < GC_OP_LAST; op++) str(&f, cfg->algorithm[op]); /* in op id order */
  num(&f, cfg->bcast_segment);
  num(&f, cfg->alltoall_pairwise);
  num(&f, cfg->wan_window);
  num(&f, cfg->bcast_eager);
  str(&f, cfg->log_file);
  tag(&f, 'O'), u64(&f, (uint64_t)cfg->log_mode);
  tag(&f, 'Y'), u64(&f, (uint64_t)(int64_t)cfg->log_summary);
  str(&f, cfg->summary_file);
  tag(&f, 'D'), u64(&f, (uint64_t)cfg->log_candidates);
  return f.h;
}
