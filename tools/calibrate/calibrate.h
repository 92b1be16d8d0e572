/* gridcoll-calibrate's parts; tools/gridcoll-calibrate.c runs them in order:
 *   options.c   the command line and the message sizes;
 *   clusters.c  which world ranks form which cluster (identical on every rank);
 *   measure.c   the timed exchanges: ping-pong, all-to-all sweep, a quiet barrier;
 *   steps.c     the four measurement steps, each with its fit, its check and progress;
 *   write.c     the configuration file written at the end, and the final table;
 *   curve_text.c  a ping-pong sweep's curve, and its text (pure C);
 *   platform.c  the SimGrid platform and host file of what was measured (-p; pure C);
 *   native.c    the MPI library's own collectives timed on the world (black boxes);
 *   fromlog.c   --from-log: refit from a run's records (pure C).
 * Rank 0 alone speaks (say) and fits; every rank takes part in every step. */
#ifndef GC_TOOLS_CALIBRATE_H
#define GC_TOOLS_CALIBRATE_H

#include <mpi.h>
#include <stdio.h>

#include "config.h"
#include "curve_text.h"
#include "fit.h"

#define PROG "gridcoll-calibrate"
#define MAX_SIZES 64
#define MIN_REPS 3

struct options {
  const char *config, *clusters, *out;
  const char *platform; /* -p: SimGrid platform to write, NULL: none */
  int from_log;         /* --from-log: the remaining arguments are log files */
  char **logs;
  int nlogs;
  double lo, hi;
  int reps;
  double budget; /* s; 0 = none */
  double curve_lo, curve_hi; /* --curve LO:HI: the ping-pong sweep of every link's curve
                                (powers of 2 and their midpoints); curve_hi 0: none */
  int native;   /* time the MPI library's own MPI_Alltoall and MPI_Bcast (native.c);
                   0 after --no-native */
};

/* A cluster as measured: who is in it, how it was described, what was found. */
struct cluster {
  char name[GC_NAME_MAX];
  int n, *ranks;          /* world ranks, ascending */
  const struct gc_cluster_spec *spec; /* from -c / -C, NULL when detected by host */
  char host[MPI_MAX_PROCESSOR_NAME];  /* detected: its host */
  struct gc_lan lan;
  struct gc_lan lan_in;   /* as described (configured or default): clusters described
                             alike should measure alike; what a refused fit keeps */
  int measured;           /* lan measured (n >= 2) */
  struct gc_fit_quality q_p2p, q_a2a;
  struct gc_fit_verdict v_p2p, v_a2a;
  double p2p_noise, a2a_noise; /* repetitions' spread */
  double a2a_from;        /* the signature was fitted from this size on */
  double fit_alpha;       /* alpha as fitted, before the loader's floor */
  int a2a_ok;
  double p2p_t[MAX_SIZES], a2a_t[MAX_SIZES]; /* the samples, written beside the fits */
  struct gc_curve curve;  /* one message's time over its size (--curve), n 0 when none */
  int curve_measured;     /* points measured for it */
  double curve_noise;
};

/* The link between two clusters as measured. */
struct wan_fit {
  double latency, bandwidth; /* one flow, leader to leader */
  struct gc_fit_quality q;
  struct gc_fit_verdict v;
  double noise;
  int floored;
  int tail;                 /* bandwidth from the largest sizes (gc_fit_tail_bandwidth) */
  double hockney_bandwidth; /* then: what the poor line said */
  double t[MAX_SIZES];
  /* Many flows: every member of one cluster to every member of the other, both ways. */
  int flows;                /* per direction, n_a * n_b */
  double aggregate;         /* bytes/s per direction; 0 when not measured or refused */
  double agg_fitted;        /* as measured, before the check */
  struct gc_fit_verdict v_agg;
  double agg_noise;
  double agg_t[MAX_SIZES];
  struct gc_curve curve;    /* one flow's time over its size, leader to leader (--curve) */
  int curve_measured;
  double curve_noise;
};

struct progress {
  int step, nsteps;
};

/* One calibration: what the steps share. */
struct run {
  const struct options *o;
  double sizes[MAX_SIZES];
  int ns;
  double csizes[GC_CURVE_MAX]; /* the curve's sweep (--curve), ncs 0 when none */
  int ncs;
  struct gc_config cfg;
  struct cluster *cl;
  int k;                /* clusters */
  struct wan_fit *wan;  /* [k * k], pair (a < b) at a * k + b */
  struct progress p;
  double share;         /* each step's share of the time budget, s */
  char *send, *recv;    /* buffers for the largest size times the largest cluster */
  double *t;            /* [ns + 1] one step's times and their spread, on rank 0 */
  int native_measured;  /* sizes of the native sweeps (native.c), 0 when none */
  struct gc_curve native_a2a;    /* MPI_Alltoall on the world over its block */
  struct gc_curve *native_bcast; /* [k] MPI_Bcast from cluster c's first rank */
};

/* say.c: this process's rank and the world's size, MPI_Wtime at start (set by main), and
 * a line on stderr, prefixed, from rank 0 only. */
extern int world_rank, world_size;
extern double t_start;

void say(const char *fmt, ...);

/* options.c: 0 to go on, 1 after --help, 2 after a usage error (rank 0 said why). */
int calibrate_parse_options(int argc, char **argv, struct options *o);
/* Powers of 4 from lo, then hi: at least four sizes. Returns the count. */
int calibrate_make_sizes(const struct options *o, double *sizes);
/* The curve's sweep: powers of 2 from curve_lo to curve_hi and the midpoints between them
 * (3 * 2^k), at most GC_CURVE_MAX (powers alone when the midpoints would not fit); 0 when
 * no curve is asked for. Returns the count. */
int calibrate_make_curve_sizes(const struct options *o, double *sizes);

/* clusters.c: the cluster of every world rank, identical on every rank (every input is
 * gathered). Returns the number of clusters, or -1 after rank 0 said why. */
int calibrate_build_clusters(const struct options *o, struct gc_config *cfg,
                             struct cluster **out);

/* measure.c */
/* Repetitions of one size: `most`, fewer (at least MIN_REPS) under a time budget, from
 * one repetition's time and the size's share of the budget (s). */
int calibrate_reps(const struct options *o, int most, double one, double share);
/* The median of v[0..n), n >= 1, which it sorts. */
double calibrate_median(double *v, int n);
void calibrate_pingpong(int a, int b, const double *sizes, int ns, const struct options *o,
                        double share, char *buf, double *t);
void calibrate_alltoall_sweep(MPI_Comm comm, const double *sizes, int ns,
                              const struct options *o, double share, char *send, char *recv,
                              double *t);
/* Many flows between the two clusters of pair (its first nx ranks, then the others),
 * both directions at once: t[i] the median time, t[ns] the spread, on pair's rank 0. */
void calibrate_flows(MPI_Comm pair, int nx, const double *sizes, int ns,
                     const struct options *o, double share, char *send, char *recv, double *t);
/* The curve's refinement between world ranks a and b, after a ping-pong sweep whose ns
 * sizes and one-way times a holds: every step of the sweep (an MPI library switching
 * protocol between two sizes, curve_text.h) bisected by more ping-pongs, at most max
 * samples in all. On a: sizes and t hold all the samples in size order, and the count is
 * returned; elsewhere ns. */
int calibrate_refine(int a, int b, double *sizes, double *t, int ns, int max, double tol,
                     const struct options *o, double share, char *buf);
void calibrate_to_root(int from, double *t, int ns);
void calibrate_quiet_barrier(void);

/* steps.c: 1. Hockney inside cluster c; 2. one flow between the leaders of clusters
 * a < b; 3. many flows between all their members; 4. the contention signature of cluster
 * c, on cc (the communicator of the caller's own cluster, number mine). Then, on rank 0,
 * the check of clusters described alike. */
void calibrate_lan(struct run *r, int c);
void calibrate_wan(struct run *r, int a, int b);
void calibrate_backbone(struct run *r, int a, int b);
void calibrate_signature(struct run *r, MPI_Comm cc, int mine, int c);
void calibrate_check_alike(struct run *r);
/* native.c: 5. MPI_Alltoall and MPI_Bcast (from each cluster's first rank) on the world,
 * unless --no-native; the curves on every rank. */
void calibrate_native(struct run *r);

/* write.c: the configuration; 0, or -1 on a write error. The final table on stderr. */
int calibrate_write_config(FILE *f, const struct run *r, double elapsed);
void calibrate_print_table(const struct run *r);
/* -p: the SimGrid platform of what was measured and its host file; 0, or 1 (said why). */
int calibrate_write_platform(const struct run *r);
/* --from-log: 0, or 1 after saying why. Rank 0 only. */
int calibrate_from_log(const struct options *o);

#endif
