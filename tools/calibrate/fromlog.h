/* gridcoll-calibrate --from-log, pure C: read the per-call records of a run (the CSV that
 * GRIDCOLL_LOG names, shim/log.c), refit the configuration's network from the times the
 * calls really took, write the improved configuration.
 *
 * A record holds the model's prediction and the actual time, not the parameters: the
 * records of one call on every rank are one record, the slowest rank's time (the
 * collective's completion: a rank that only passed a message on may log a few
 * nanoseconds, which a relative fit would obey). The records of one kind of call (same
 * communicator, operation, algorithm, model and root) at several sizes split each
 * prediction into a start-up part L (the Hockney
 * intercept of the predictions against the size) and the rest, B = prediction - L, so
 * that L + B is the prediction exactly. gc_fit_scale then finds the x and y that make
 * x*L + y*B closest to the actual times, one pair for calls inside one cluster (the lan:
 * alpha and delta times x, beta times y) and one for calls across clusters (the wan:
 * latency times x, bandwidths divided by y). The wide-area factors also absorb the error
 * of the local part of a call across clusters; calls inside one cluster are fitted first
 * so that the lan part is right on its own. */
#ifndef GC_TOOLS_FROMLOG_H
#define GC_TOOLS_FROMLOG_H

#include <stdio.h>

#include "config.h"
#include "fit.h"

struct gc_log_record {
  int rank, comm_size, root, clusters;
  unsigned long long call; /* the call's number on its communicator, same on every rank */
  unsigned long long comm;
  char op[16], algorithm[GC_NAME_MAX], model[GC_NAME_MAX];
  double bytes, predicted, actual; /* bytes; s */
};

/* The columns a refit reads, found by name in the log's header (so that a column added
 * later moves nothing): rank, comm, comm_size, op, algorithm, root, bytes, clusters,
 * model, predicted_s, actual_s, and call; then the optional ones, absent from older logs:
 * own_s, the collective's own time without the wait for late ranks, which a refit fits
 * to where it is there (a late rank says nothing of the network). */
enum { GC_LOG_RANK, GC_LOG_COMM, GC_LOG_COMM_SIZE, GC_LOG_CALL, GC_LOG_OP, GC_LOG_ALGORITHM, GC_LOG_ROOT,
       GC_LOG_BYTES, GC_LOG_CLUSTERS, GC_LOG_MODEL, GC_LOG_PREDICTED, GC_LOG_ACTUAL,
       GC_LOG_REQUIRED, GC_LOG_OWN = GC_LOG_REQUIRED, GC_LOG_COLUMNS };

/* cols[GC_LOG_*] = the column index of each (-1 for an optional one the log lacks); 0, or
 * -1 when a required one is missing (not a log). */
int gc_log_parse_header(const char *line, int *cols);

/* One line of a log: 0 a record, 1 a line with nothing to refit (blank, no prediction
 * or no actual time, or a prediction made on another call's data: a model named
 * "...@learnt"), -1 malformed (a field missing, a number that is not one, a negative
 * time). */
int gc_log_parse_line(const char *line, const int *cols, struct gc_log_record *r);

/* Records of every file, appended to *rec (grown with realloc; *n counts them). Returns
 * 0, or -1 with one message in err ("FILE:LINE: ..." or the file's error). */
int gc_log_read(const char *path, struct gc_log_record **rec, int *n, char *err, size_t errlen);

enum { GC_REFIT_LAN, GC_REFIT_WAN, GC_REFIT_LEVELS };

struct gc_refit_level {
  int used;                  /* records that entered the fit */
  int ok;                    /* x and y fitted, checked and applied */
  double x, y;               /* start-up and per-byte factors */
  double before, after;      /* median |predicted - actual| / actual, before and after */
  struct gc_fit_verdict v;   /* refused: not applied */
};

struct gc_refit {
  int records, skipped;      /* read; left out (a kind of call seen at one size only) */
  struct gc_refit_level level[GC_REFIT_LEVELS];
};

/* The refit of rec[0..n). 0, or -1 when no level could be fitted (err says why). */
int gc_refit_records(const struct gc_log_record *rec, int n, struct gc_refit *out, char *err,
                     size_t errlen);

/* Refuses each level that is ok but whose factors would take a value of cfg beyond what
 * the loader accepts (config/physical.c: a latency of more than an hour, a bandwidth
 * under 1 bit/s...): the file written must load. Its verdict names the value. */
void gc_refit_check_limits(const struct gc_config *cfg, struct gc_refit *f);

/* Applies the levels that are ok to cfg: lan (network.lan and every cluster's): alpha,
 * delta times x, beta times y; wan: latency times x, bandwidth and aggregate divided by y. */
void gc_refit_apply(struct gc_config *cfg, const struct gc_refit *f);

/* cfg as a configuration file gridcoll's loader reads back to the same configuration
 * (the same gc_config_hash); `header` (may be NULL) is written first as comment lines.
 * 0, or -1 on a write error. */
int gc_config_write(FILE *f, const struct gc_config *cfg, const char *header);

#endif
