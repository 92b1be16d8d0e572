/* gridcoll configuration: what the user wrote (file + environment), as a plain C struct.
 *
 * Pure C, no MPI: the loader reads a libconfig file, the environment layer applies
 * GRIDCOLL_* overrides, and every value is checked here so the MPI side never sees a
 * half-valid configuration.  Every error names the file, the line and the key. */
#ifndef GC_CONFIG_H
#define GC_CONFIG_H

#include <stddef.h>

#define GC_NAME_MAX 64
#define GC_ERR_MAX 512

/* Contention signature and Hockney parameters of one cluster network (000 Eq. 4, 5). */
struct gc_lan {
  double alpha;     /* start-up time, s */
  double beta;      /* inverse bandwidth, s/byte */
  double gamma;     /* contention ratio */
  double delta;     /* start-up overload per message from `threshold` on, s */
  double threshold; /* M: message size (bytes) from which delta applies */
};

struct gc_rank_range {
  int lo, hi; /* inclusive MPI_COMM_WORLD ranks */
};

struct gc_cluster_spec {
  char name[GC_NAME_MAX];
  char **hosts; /* globs on MPI_Get_processor_name, fnmatch(3) syntax */
  int nhosts;
  struct gc_rank_range *ranks;
  int nranks;
  struct gc_lan lan; /* effective: network.lan merged with this cluster's own `lan` */
  int line;          /* line of the cluster entry in the file, 0 if from the environment */
};

enum gc_topology_mode {
  GC_TOPOLOGY_NODE,    /* one cluster per node (MPI_Comm_split_type shared): the safe default */
  GC_TOPOLOGY_CLUSTERS /* clusters[] below, by host globs and/or rank ranges */
};

enum gc_log_mode { GC_LOG_SYNC, GC_LOG_LOCAL };

struct gc_config {
  char *path; /* file it came from, NULL when none */
  int enabled; /* 0 when GRIDCOLL=off */
  int strict;  /* configuration errors abort at MPI_Init */
  int verbose; /* 0 silent .. 3 debug */
  int probe;   /* measure the wide-area latency at run time (bcast) */

  enum gc_topology_mode topology;
  int nclusters;
  struct gc_cluster_spec *clusters;

  struct gc_lan lan;      /* network.lan: default for every cluster */
  double *wan_latency;    /* [nclusters*nclusters] one-way, s; NULL when not given */
  double *wan_bandwidth;  /* [nclusters*nclusters] bytes/s; NULL when not given */

  char alltoall_algorithm[GC_NAME_MAX]; /* "auto" by default */
  int alltoall_line;
  char bcast_algorithm[GC_NAME_MAX];
  int bcast_line;

  char *log_file;     /* pattern with %r %p %j; NULL = no per-call log */
  enum gc_log_mode log_mode;
  int log_summary;    /* print the summary table at MPI_Finalize */
  char *summary_file; /* NULL = stderr */
  int log_candidates; /* log every candidate's prediction */
};

/* Algorithm names each collective accepts; the shim passes its tables so that the
 * loader can reject a misspelt name with the file and line. NULL-terminated lists. */
struct gc_config_names {
  const char *const *alltoall;
  const char *const *bcast;
};

/* Fill cfg with the built-in defaults (no clusters, node topology, auto everywhere). */
void gc_config_defaults(struct gc_config *cfg);

/* Load `path` over the defaults. Returns 0, or -1 with one message in err
 * ("FILE:LINE: key 'network.lan.alpha': expected a time such as \"60 us\", got ...").
 * On error cfg is left valid (defaults) and must still be freed. */
int gc_config_load(struct gc_config *cfg, const char *path, const struct gc_config_names *names,
                   char *err, size_t errlen);

/* Apply GRIDCOLL_* variables read through `get` (getenv in production, a table in tests).
 * Same error contract as gc_config_load. */
int gc_config_apply_env(struct gc_config *cfg, const char *(*get)(const char *name),
                        const struct gc_config_names *names, char *err, size_t errlen);

/* GRIDCOLL_CONFIG when set, else "gridcoll.cfg" when it exists in the working directory,
 * else NULL. */
const char *gc_config_default_path(const char *(*get)(const char *name));

/* Scan a file's text for `strict = true` when it does not even parse. */
int gc_config_file_says_strict(const char *path);

/* Stable 64-bit hash of the effective configuration: equal on two ranks iff they
 * would make the same choices. */
unsigned long long gc_config_hash(const struct gc_config *cfg);

/* Network parameters between clusters identified by their index in cfg->clusters; an
 * index outside [0, nclusters) (a rank no cluster matched, or node topology) gets the
 * defaults: network.lan inside, and network.lan's alpha and 1/beta across. */
const struct gc_lan *gc_config_lan(const struct gc_config *cfg, int cluster);
double gc_config_wan_latency(const struct gc_config *cfg, int from, int to);
double gc_config_wan_bandwidth(const struct gc_config *cfg, int from, int to);

void gc_config_free(struct gc_config *cfg);

#endif
