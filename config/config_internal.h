/* Inside the configuration layer: the loader's state and the key tables.
 *
 * Each group of the file (top level, network, network.lan, log, a cluster...) is a
 * NULL-terminated table of keys; each key names the function that parses it and where
 * the value goes (an offset from the group's base: the struct gc_config, a struct
 * gc_lan, a struct gc_cluster_spec). Adding a key is one line in config_keys.c. */
#ifndef GC_CONFIG_INTERNAL_H
#define GC_CONFIG_INTERNAL_H

#include <libconfig.h>
#include <stddef.h>

#include "config.h"
#include "units.h"

/* Settings parsed after the walk, once what they depend on is known. */
enum gc_deferred { GC_DEFER_CLUSTERS, GC_DEFER_WAN_LATENCY, GC_DEFER_WAN_BANDWIDTH, GC_DEFER_WAN_AGGREGATE, GC_DEFER_WAN_CURVES, GC_DEFER_NATIVE, GC_DEFER_LAST };

struct gc_loader {
  struct gc_config *cfg;
  const char *file; /* for messages when libconfig does not know the setting's file */
  const struct gc_config_names *names;
  int op;           /* the operation whose group is being walked (gc_key_op_group) */
  char *err;
  size_t errlen;
  config_setting_t *deferred[GC_DEFER_LAST];
  int strict;  /* what the file's top level asks for, kept when the load fails */
  int verbose; /* 0..3, -1 when the file does not say */
  int no_memory; /* the load failed because memory ran out, not because of the file */
};

struct gc_key;
typedef int gc_key_fn(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                      const struct gc_key *k);

struct gc_key {
  const char *name;
  gc_key_fn *parse;
  size_t off;                /* value's offset from the group's base */
  enum gc_unit unit;         /* gc_key_unit */
  enum gc_bound bound;       /* gc_key_unit */
  int lo, hi;                /* gc_key_int */
  int which;                 /* gc_key_defer: enum gc_deferred */
  const struct gc_key *sub;  /* gc_key_group: the nested group's keys */
};

/* The tables (config_keys.c). */
extern const struct gc_key gc_config_top_keys[];
extern const struct gc_key gc_config_cluster_keys[];

/* Key parsers (config_keys.c). */
gc_key_fn gc_key_group, gc_key_bool, gc_key_int, gc_key_string, gc_key_unit, gc_key_algorithm,
    gc_key_log_mode, gc_key_defer, gc_key_name, gc_key_hosts, gc_key_ranks, gc_key_hetero,
    gc_key_op_group, gc_key_curve;

/* Parse the group s (key path `key`, "" at the top) against keys, values under base. */
int gc_config_walk(struct gc_loader *ld, config_setting_t *s, const char *key, void *base,
                   const struct gc_key *keys);

/* Write "FILE:LINE: KEY: message" into ld->err; returns -1. */
int gc_config_fail(struct gc_loader *ld, const config_setting_t *s, const char *key, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));

/* gc_config_fail's "FILE:LINE: KEY: out of memory", and the load says GC_CONFIG_NO_MEMORY. */
int gc_config_no_memory(struct gc_loader *ld, const config_setting_t *s, const char *key);

/* `"text"`, `5`, `2.5` or `a group`: what a setting holds, for "got ..." */
const char *gc_config_describe(const config_setting_t *s, char *buf, size_t len);

/* "auto, native, flat" into buf; 1 when name is one of them ("auto" always is). */
int gc_config_algorithm_ok(const char *const *list, const char *name, char *buf, size_t len);

/* Clusters and wan matrices, after the walk (config_clusters.c). */
int gc_config_load_clusters(struct gc_loader *ld);
int gc_config_load_wan(struct gc_loader *ld);
/* network.wan.curves, after the clusters they name (config_curve.c). */
int gc_config_load_wan_curves(struct gc_loader *ld);

/* The points of list s (key names it in messages) into *out: 0, or -1 (config_curve.c).
 * falls: times may fall by any amount (gc_curve_check_falls: a collective's, native). */
int gc_config_curve_points(struct gc_loader *ld, config_setting_t *s, const char *key,
                           int falls, struct gc_curve *out);
/* The index of the cluster named `name` in ld's configuration, -1 when none. */
int gc_config_cluster_index(const struct gc_config *cfg, const char *name);
/* One group naming a curve, { <what> = ...; curve = ( ... ); } (network.wan.curves'
 * pairs, native.bcast's roots): a group, those two keys only, both there, else the
 * message names file, line and key (what_example and example show what is expected);
 * 0 with *which and *points set, or -1 (config_curve.c). */
int gc_config_curve_entry(struct gc_loader *ld, config_setting_t *e, const char *key,
                          const char *what, const char *what_example, const char *example,
                          config_setting_t **which, config_setting_t **points);
/* `native`, after the clusters it names (config_native.c); and what it owns freed
 * (config.c, with the rest of the configuration). */
int gc_config_load_native(struct gc_loader *ld);
void gc_config_free_native(struct gc_native *n);

char *gc_strdup(const char *s);

/* What the first pass over a file's bytes found (config_scan.c). */
struct gc_config_scan {
  int strict;  /* a top-level `strict = true` (or 1), outside comments and strings */
  int verbose; /* a top-level `verbose = 0..3`, -1 when none */
};

/* Groups nested deeper than this share one settings count (only ever over-counting). */
#define GC_CONFIG_SCAN_DEPTH 64

/* Checks len bytes of text before libconfig parses them: no byte-order mark, no NUL,
 * every string and comment closed, at most GC_CONFIG_MAX_GROUP settings in a group and
 * GC_CONFIG_MAX_SETTINGS in all (libconfig's parse time grows with their square). Lone
 * '\r' line ends are rewritten to '\n' in place so that libconfig counts lines as people
 * do. Fills *out even on error; returns 0, or -1 with "LINE: what" in err. */
int gc_config_scan(char *text, size_t len, struct gc_config_scan *out, char *err, size_t errlen);

/* The names operation op (op_info.h) accepts (NULL: no list, anything goes). */
static inline const char *const *gc_config_names_of(const struct gc_config_names *n, int op)
{
  return n ? n->op[op] : NULL;
}

#endif
