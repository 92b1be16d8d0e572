/* gridcoll-calibrate's parts; tools/gridcoll-calibrate.c runs them in order:
 *   options.c   the command line and the message sizes;
 *   clusters.c  which world ranks form which cluster (identical on every rank);
 *   measure.c   the timed exchanges: ping-pong, all-to-all sweep, a quiet barrier;
 *   steps.c     the three measurement steps, each with its fit and progress;
 *   write.c     the configuration file written at the end.
 * Rank 0 alone speaks (say) and fits; every rank takes part in every step. */
#ifndef GC_TOOLS_CALIBRATE_H
#define GC_TOOLS_CALIBRATE_H

#include <mpi.h>
#include <stdio.h>

#include "config.h"
#include "fit.h"

#define PROG "gridcoll-calibrate"
#define MAX_SIZES 64
#define MIN_REPS 3

struct options {
  const char *config, *clusters, *out;
  double lo, hi;
  int reps;
  double budget; /* s; 0 = none */
};

/* A cluster as measured: who is in it, how it was described, what was found. */
struct cluster {
  char name[GC_NAME_MAX];
  int n, *ranks;          /* world ranks, ascending */
  const struct gc_cluster_spec *spec; /* from -c / -C, NULL when detected by host */
  char host[MPI_MAX_PROCESSOR_NAME];  /* detected: its host */
  struct gc_lan lan;
  int measured;           /* lan measured (n >= 2) */
  struct gc_fit_quality q_p2p, q_a2a;
  int a2a_ok;
  double p2p_t[MAX_SIZES], a2a_t[MAX_SIZES]; /* the samples, written beside the fits */
};

/* The link between two clusters as measured. */
struct wan_fit {
  double latency, bandwidth;
  struct gc_fit_quality q;
  int floored;
  int tail;                 /* bandwidth from the largest sizes (gc_fit_tail_bandwidth) */
  double hockney_bandwidth; /* then: what the poor line said */
  double t[MAX_SIZES];
};

struct progress {
  int step, nsteps;
};

/* One calibration: what the steps share. */
struct run {
  const struct options *o;
  double sizes[MAX_SIZES];
  int ns;
  struct gc_config cfg;
  struct cluster *cl;
  int k;                /* clusters */
  struct wan_fit *wan;  /* [k * k], pair (a < b) at a * k + b */
  struct progress p;
  double share;         /* each step's share of the time budget, s */
  char *send, *recv;    /* buffers for the largest size times the largest cluster */
  double *t;            /* [ns] one step's times, gathered on rank 0 */
};

extern int world_rank, world_size;
extern double t_start; /* MPI_Wtime at start */

/* gridcoll-calibrate.c: a line on stderr, prefixed, from rank 0 only. */
void say(const char *fmt, ...);

/* options.c: 0 to go on, 1 after --help, 2 after a usage error (rank 0 said why). */
int calibrate_parse_options(int argc, char **argv, struct options *o);
/* Powers of 4 from lo, then hi: at least four sizes. Returns the count. */
int calibrate_make_sizes(const struct options *o, double *sizes);

/* clusters.c: the cluster of every world rank, identical on every rank (every input is
 * gathered). Returns the number of clusters, or -1 after rank 0 said why. */
int calibrate_build_clusters(const struct options *o, struct gc_config *cfg,
                             struct cluster **out);

/* measure.c */
void calibrate_pingpong(int a, int b, const double *sizes, int ns, const struct options *o,
                        double share, char *buf, double *t);
void calibrate_alltoall_sweep(MPI_Comm comm, const double *sizes, int ns,
                              const struct options *o, double share, char *send, char *recv,
                              double *t);
void calibrate_to_root(int from, double *t, int ns);
void calibrate_quiet_barrier(void);

/* steps.c: 1. Hockney inside cluster c; 2. the wide area between clusters a < b;
 * 3. the contention signature of cluster c, on cc (the communicator of the caller's own
 * cluster, number mine). */
void calibrate_lan(struct run *r, int c);
void calibrate_wan(struct run *r, int a, int b);
void calibrate_signature(struct run *r, MPI_Comm cc, int mine, int c);
/* A large residual somewhere, or a low R^2 with residuals worth the name. */
int calibrate_poor(const struct gc_fit_quality *q);

/* write.c: the configuration; 0, or -1 on a write error. */
int calibrate_write_config(FILE *f, const struct run *r, double elapsed);

#endif
