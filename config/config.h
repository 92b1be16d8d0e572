/* gridcoll configuration: what the user wrote (file + environment), as a plain C struct.
 *
 * Pure C, no MPI: the loader reads a libconfig file, the environment layer applies
 * GRIDCOLL_* overrides, and every value is checked here so the MPI side never sees a
 * half-valid configuration: well-formed in its unit (units.c) and within what physical
 * sense allows (physical.c: no latency of 1e308 s, no bandwidth of 1e-300 bit/s).  Every error is one line naming the file, the line and the key:
 *   FILE:LINE: KEY: what was expected, got what
 *   gridcoll.cfg:7: network.lan.alpha: expected a positive time such as "60 us", got "fast"
 * and for the environment
 *   VARIABLE: what was expected, got what
 *   GRIDCOLL_BCAST: expected one of auto, native, flat, got "fat"
 *
 * Defaults (gc_config_defaults): enabled, node topology, no clusters, no wan matrices,
 * network.lan = the published Gigabit Ethernet signature (000; reference.md section 2):
 * alpha 60 us, beta 8e-9 s/byte (1 Gbit/s), gamma 4.3628, delta 4.93 ms, threshold
 * 8192 bytes; algorithms "auto"; no log file, log mode sync, log_summary -1 (on iff a
 * log file is configured), summary to stderr, no candidates; strict 0, verbose 1
 * (warnings), probe 0, learn 1.
 *
 * Clusters: a rank belongs to the cluster whose `ranks` contain its MPI_COMM_WORLD
 * rank; only a rank that no `ranks` list names is matched by host globs. So ranks take
 * precedence over host globs when both could match. Rank lists of two clusters may not
 * overlap (rejected at load); a host matched by two clusters' globs is an error at run
 * time (gc_topology_cluster_of). */
#ifndef GC_CONFIG_H
#define GC_CONFIG_H

#include <stddef.h>

#include "curve.h"   /* struct gc_curve: a link's time over message size */
#include "op_info.h" /* enum gc_op_id: the operations with an algorithm to configure */

#define GC_NAME_MAX 64
#define GC_ERR_MAX 512

/* Limits on a configuration file, checked before libconfig parses it (libconfig's parse
 * time grows with the square of the settings in a group): gridcoll's largest group has
 * fewer than ten keys, and a wan matrix for 300 clusters fits in 1 MiB. */
#define GC_CONFIG_MAX_BYTES ((size_t)1 << 20)
#define GC_CONFIG_MAX_GROUP 32      /* named settings in one group */
#define GC_CONFIG_MAX_SETTINGS 10000 /* named settings in the file */

/* Contention signature and Hockney parameters of one cluster network (000 Eq. 4, 5). */
struct gc_lan {
  double alpha;     /* start-up time, s */
  double beta;      /* inverse bandwidth, s/byte */
  double gamma;     /* contention ratio */
  double delta;     /* start-up overload per message from `threshold` on, s */
  double threshold; /* M: message size (bytes) from which delta applies */
  struct gc_curve curve; /* `curve`: the measured time of one message over its size
                            inside the cluster (model/curve.h); curve.n == 0 when none,
                            and one message then costs alpha + m*beta */
};

/* 004's parameters of a cluster's processors (reference.md section 2, heterogeneous cluster), given
 * per cluster entry because a cluster is what every rank can name for every other rank
 * without communication (the layout maps each communicator rank to its cluster). */
struct gc_hetero {
  int set;      /* 1 when the cluster entry has a `hetero` group; 0: the Hockney forms apply */
  double C;     /* fixed processing delay of each processor, s (004 Eq. 2) */
  double t;     /* processing time per byte of each processor, s/byte (004 Eq. 2) */
  double rate;  /* beta_ij: transmission rate between two processors of the cluster, bytes/s */
  double S;     /* small/large message threshold of 004 Eq. 6, bytes (default 1 KiB) */
  double Gamma; /* fixed broadcast overhead of 004 Eq. 8, s (default 0) */
  double tau;   /* broadcast overhead per byte of 004 Eq. 8, s/byte (default 0) */
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
  struct gc_hetero hetero; /* 004 parameters of its processors; hetero.set == 0 when none */
  char site[GC_NAME_MAX]; /* organisation grouping clusters (multilevel broadcast); "" none */
  int line;          /* line of the cluster entry in the file, 0 if from the environment */
};

/* `native`: the MPI library's own collectives as gridcoll-calibrate timed them, black
 * boxes (issue 25), on one layout: `procs` processes, `sizes[c]` of them in cluster c (in
 * the order of `clusters`).  The native rows predict from these tables on a communicator
 * of that size and those cluster sizes (the world that was calibrated), their formulas
 * elsewhere. */
struct gc_native {
  int procs;              /* 0: no table (the formulas alone, as before) */
  int *sizes;             /* [nclusters] processes of each cluster when measured */
  struct gc_curve alltoall; /* MPI_Alltoall's time over its block; n 0 when not measured */
  struct gc_curve *bcast; /* [nclusters] MPI_Bcast's time over its message from the first
                             rank of cluster c; n 0 for a cluster without; NULL when none */
  int line;               /* line of `native` in the file */
};

enum gc_topology_mode {
  GC_TOPOLOGY_NODE,    /* one cluster per node (MPI_Comm_split_type shared): the safe default */
  GC_TOPOLOGY_CLUSTERS /* clusters[] below, by host globs and/or rank ranges */
};

enum gc_log_mode { GC_LOG_SYNC, GC_LOG_LOCAL };

/* Which clock the library reads (shim/clock.h): auto, the processor's counter where it is
 * safe, else CLOCK_MONOTONIC; monotonic, CLOCK_MONOTONIC always; mpi, MPI_Wtime. */
enum gc_clock_source { GC_CLOCK_AUTO, GC_CLOCK_MONOTONIC, GC_CLOCK_MPI };

struct gc_config {
  char *path; /* file it came from, NULL when none */
  int enabled; /* 0 when GRIDCOLL=off */
  int strict;  /* configuration errors abort at MPI_Init */
  int verbose; /* 0 silent .. 3 debug */
  int probe;   /* measure the wide-area latency at run time (bcast) */
  int learn;   /* `auto` times the algorithms it cannot tell apart and keeps the fastest
                  (shim/pure/learn.h); 0: it trusts the models alone */
  int nonblocking_grid; /* GRIDCOLL_NONBLOCKING=grid: the forced trees and LG run the
                           nonblocking calls too, as schedules (doc/design.md); 0 (native,
                           the default): every nonblocking call is the MPI library's own */

  enum gc_topology_mode topology;
  int nclusters;
  struct gc_cluster_spec *clusters;

  struct gc_lan lan;      /* network.lan: default for every cluster */
  double *wan_latency;    /* [nclusters*nclusters] one-way, s; NULL when not given */
  double *wan_bandwidth;  /* [nclusters*nclusters] bytes/s of one flow; NULL when not given */
  double *wan_aggregate;  /* [nclusters*nclusters] bytes/s that many concurrent flows from
                             the row cluster to the column cluster move together (the
                             shared backbone an all-to-all fills); NULL when not given */
  int wan_aggregate_line;
  struct gc_curve *wan_curve; /* [nclusters*nclusters] network.wan.curves: one message's
                                 time over its size from the row cluster to the column
                                 cluster; n == 0 for a pair without; NULL when none */
  int wan_curve_line;
  struct gc_native native; /* `native`: the MPI library's own collectives measured */
  int wan_latency_line;   /* line of network.wan.latency in the file, 0 when none */
  int wan_bandwidth_line; /* the diagonal of both matrices is stored as 0 and ignored */
  double wan_window;      /* network.wan.window: bytes one flow keeps in flight per round
                             trip (a TCP window), so one wide-area flow of one-way latency
                             W runs at most wan_window / (2 W); 0: no cap.  4 MiB by
                             default: Linux's tcp_wmem maximum, SimGrid's TCP-gamma */

  /* Each operation's configured choice, by id (op_info.h): its group's `algorithm` or its
   * GRIDCOLL_<OP>, "auto" by default; and the file's line that set it, 0 when none did
   * (the default, or the environment). */
  char algorithm[GC_OP_LAST][GC_NAME_MAX];
  int algorithm_line[GC_OP_LAST];
  double alltoall_pairwise; /* block size (bytes) from which the MPI library's own all-to-all
                               runs a pairwise exchange (n-1 synchronised steps) rather than
                               posting every message at once; MPICH's 32 KiB by default */
  double bcast_segment; /* bytes per pipeline segment of the tree broadcasts; 0: whole */
  double bcast_eager;   /* bcast.native_eager: messages below this many bytes leave the
                           sender of the MPI library's own (binomial) broadcast at once
                           (MPI_Send returns before the transfer), so a parent's sends
                           overlap; from it on each send waits for its transfer.  64 KiB
                           by default (SMPI's send-is-detached-thresh, Open MPI's TCP
                           eager limit; MPICH's ch3 uses 128 KiB) */

  char *log_file;     /* pattern with %r %p %j; NULL = no per-call log */
  enum gc_log_mode log_mode;
  int log_summary;    /* print the summary table at MPI_Finalize: 1 yes, 0 no,
                         -1 (default) yes iff log_file is set */
  char *summary_file; /* NULL = stderr */
  int log_candidates; /* log every candidate's prediction */
  int network_given;  /* 1 when the file gave network values: a setting of network.lan, a
                         wan latency, bandwidth or aggregate matrix, or a cluster's own
                         lan; 0 when the models run on the defaults alone (no file, or none
                         of these in it), which the summary says: not calibrated.
                         GRIDCOLL_CLUSTERS dropping the file's clusters or matrices leaves
                         it to network_lan_given */
  int network_lan_given; /* 1 when the file gave network.lan a setting: what network_given
                            keeps once the clusters' own lan and the matrices are gone */
  enum gc_clock_source clock; /* GRIDCOLL_CLOCK; each rank reads its own, so not hashed */
};

/* Algorithm names each collective accepts, by op id; the shim passes its tables so that
 * the loader can reject a misspelt name with the file and line. NULL-terminated lists; a
 * NULL list accepts any name. */
struct gc_config_names {
  const char *const *op[GC_OP_LAST];
};

/* Fill cfg with the built-in defaults (no clusters, node topology, auto everywhere). */
void gc_config_defaults(struct gc_config *cfg);

/* Load `path` over the defaults. cfg must hold defaults or an earlier configuration
 * (what it holds is freed first). Returns 0, or -1 with one message in err
 * ("FILE:LINE: network.lan.alpha: expected a positive time such as \"60 us\", got ..."),
 * or GC_CONFIG_NO_MEMORY when memory ran out on the way (err "FILE[:LINE: KEY]: out of
 * memory"): nothing is wrong with the file, and the caller says so.
 * On error cfg is left valid (defaults) and must still be freed, except that cfg->strict
 * and cfg->verbose hold what the broken file asked for at its top level (from libconfig's
 * tree when the file parses, else from a tokenizer pass that skips comments, strings and
 * nested groups), so the caller knows whether to abort and how loud to be. The file must
 * be a regular file (or a character device, read without blocking) of at most
 * GC_CONFIG_MAX_BYTES. `names` may be NULL (or its lists NULL): any algorithm name is
 * then accepted. */
#define GC_CONFIG_NO_MEMORY (-2)
int gc_config_load(struct gc_config *cfg, const char *path, const struct gc_config_names *names,
                   char *err, size_t errlen);

/* Apply GRIDCOLL_* variables read through `get` (getenv in production, a table in tests;
 * NULL = unset). The environment beats the file:
 *   GRIDCOLL           on | off (also 1 | 0)           enabled
 *   GRIDCOLL_CLUSTERS  "0-3,4-9": one cluster per comma-separated rank range, or "host"
 *                      for node topology (drops the clusters and the wan matrices). With as
 *                      many ranges as the file has clusters, the file's names, lan and
 *                      matrices stay and only membership changes (their hosts are dropped);
 *                      with another count the clusters become c0, c1... with network.lan,
 *                      and it is an error if the file gave wan matrices.
 *   GRIDCOLL_<OP>      each operation's (op_info.h: its `env`, GRIDCOLL_BCAST...):
 *                      an algorithm name, checked against `names`
 *   GRIDCOLL_LOG       log file pattern; "" = no log
 *   GRIDCOLL_LOG_MODE  sync | local
 *   GRIDCOLL_VERBOSE   0..3
 *   GRIDCOLL_SUMMARY   0 | 1
 *   GRIDCOLL_PROBE     0 | 1
 *   GRIDCOLL_LEARN     0 | 1: `auto` learns from measured calls (default 1)
 *   GRIDCOLL_CLOCK     auto | monotonic | mpi (default auto)
 *   GRIDCOLL_NONBLOCKING native | grid (default native)
 * Same error contract as gc_config_load (message "VARIABLE: ..."; cfg reset to the
 * defaults; GC_CONFIG_NO_MEMORY with "VARIABLE: out of memory"), except that a valid
 * GRIDCOLL=off is still honoured, so a user can always switch gridcoll off. */
int gc_config_apply_env(struct gc_config *cfg, const char *(*get)(const char *name),
                        const struct gc_config_names *names, char *err, size_t errlen);

/* 1 when the file says `strict = true` (or 1) at its top level, outside comments and
 * strings, whether or not it parses; 0 otherwise or when the file cannot be read (read
 * as gc_config_load reads it, within GC_CONFIG_MAX_BYTES). */
int gc_config_file_says_strict(const char *path);

/* The file to load: GRIDCOLL_CONFIG (read through `get`) when set, NULL when it is set
 * but empty (no file, on purpose); otherwise "gridcoll.cfg" when the current directory
 * holds one; otherwise NULL. */
const char *gc_config_default_path(const char *(*get)(const char *name));

/* Stable 64-bit hash of the effective configuration: equal on two ranks iff they
 * would make the same choices. */
unsigned long long gc_config_hash(const struct gc_config *cfg);

/* Network parameters between clusters identified by their index in cfg->clusters; an
 * index outside [0, nclusters) (a rank no cluster matched, or node topology) gets the
 * defaults: network.lan inside, and network.lan's alpha and 1/beta across. */
const struct gc_lan *gc_config_lan(const struct gc_config *cfg, int cluster);
double gc_config_wan_latency(const struct gc_config *cfg, int from, int to);
/* The cluster's `site` (clusters of one organisation, 001's light-WAN level); "" when
 * it names none or the index is outside [0, nclusters). */
const char *gc_config_site(const struct gc_config *cfg, int cluster);
/* The cluster's 004 processor parameters; NULL when it gives none or the index is outside
 * [0, nclusters). */
const struct gc_hetero *gc_config_hetero(const struct gc_config *cfg, int cluster);
double gc_config_wan_bandwidth(const struct gc_config *cfg, int from, int to);
/* The curve of one message from cluster `from` to cluster `to`: the cluster's lan curve
 * when from == to (network.lan's for an index outside [0, nclusters)), network.wan.curves'
 * across; NULL when none is configured (the Hockney line applies). */
const struct gc_curve *gc_config_curve(const struct gc_config *cfg, int from, int to);
/* The native table when it was measured on a communicator of `size` processes holding
 * count[g] processes of configuration cluster g (count: [nclusters]); NULL otherwise
 * (no table, or another layout: a rank outside every cluster is never measured). */
const struct gc_native *gc_config_native(const struct gc_config *cfg, int size,
                                         const int *cluster_count);
/* network.wan.aggregate between two clusters; 0 when not given (or an index outside
 * [0, nclusters), or from == to): the models then have no backbone term. */
double gc_config_wan_aggregate(const struct gc_config *cfg, int from, int to);

/* Free what cfg owns and leave it at the defaults (so freeing twice is safe). */
void gc_config_free(struct gc_config *cfg);

#endif
