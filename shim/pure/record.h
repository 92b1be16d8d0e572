/* One intercepted call as the log and the summary know it: what ran, what it was
 * predicted to take and what it took. Filled by the dispatch (what), the log (when),
 * read by the log's lines and the summary's rows; neither knows a collective. */
#ifndef GC_RECORD_H
#define GC_RECORD_H

#include <stddef.h>
#include <string.h>

#include "op_info.h" /* pure: the log's text and spool are unit-tested without MPI */

/* How the application entered the collective. A blocking call is timed from entry to
 * exit. A nonblocking (MPI_I...) or persistent (MPI_..._init) one that gridcoll runs as a
 * schedule (nbc.h) is timed by the executor, from the post (each MPI_Start) to the
 * completion the application saw, with this rank's own times (struct gc_call_pending).
 * One the MPI library runs ("native-nb", "native-persistent") is followed to the
 * completion the application saw in the same way (issued.h), its own time unknown, or
 * logged once when issued, with no time, where its completion cannot be seen. Their
 * lines name the call the application made (ibcast, bcast_init) and stay out of the
 * summary. */
enum gc_entry { GC_ENTRY_BLOCKING, GC_ENTRY_NONBLOCKING, GC_ENTRY_PERSISTENT };

/* One algorithm's prediction, as the candidates column writes it. */
struct gc_candidate {
  const char *name;
  double predicted; /* seconds; < 0: none or unsupported */
};

/* What the dispatch says of a call for the log and the summary, names included: they
 * know no collective. The log adds the rank, the communicator and the times (its line,
 * struct gc_call_line below, and its window). */
struct gc_record {
  unsigned long long call; /* index of the call on its communicator, from 0 */
  enum gc_op_id op;        /* the summary's row */
  const char *op_name;
  int algorithm;           /* index in the op's algorithm table (the summary's row) */
  const char *algorithm_name; /* the log's algorithm column (native-nb ... included) */
  int root;                /* -1 for all-to-all */
  size_t bytes;            /* m */
  int clusters;
  const char *model;       /* name of the model that predicted, NULL when none */
  double predicted;        /* seconds; < 0 when none */
  double elapsed;          /* seconds: this rank's own time in the call; < 0: none */
  /* Every algorithm's prediction (index as in the op's table; < 0: none or unsupported),
   * written only with log.candidates = true. */
  int ncandidates;
  struct gc_candidate candidates[GC_MAX_ALGORITHMS];
  enum gc_entry entry;     /* GC_ENTRY_BLOCKING unless said otherwise */
};

/* What a log line says of a timed call besides the rank, the communicator and the
 * completion time: what the log's window keeps of it until that time is known, compact
 * (72 bytes, not a 370-byte record) so that a window stays in cache. The logged fast
 * path (dispatch.c) keeps one as the template of the same call again. */
struct gc_call_line {
  unsigned long long call;
  size_t bytes;
  const char *op_name, *algorithm_name, *model; /* model: NULL when none */
  double predicted, elapsed;                     /* seconds; < 0: none (an empty field) */
  int root;                                      /* -1: none (all-to-all) */
  int clusters;
  unsigned char op;          /* the summary's row: op (< GC_OP_LAST) and algorithm */
  signed char algorithm;     /* (< GC_MAX_ALGORITHMS) */
  unsigned char ncandidates; /* with log.candidates only (<= GC_MAX_ALGORITHMS) */
  unsigned char explored;    /* measured for learning (learn.h): the log's last column */
  unsigned char entry;       /* enum gc_entry: only blocking calls reach the summary */
};

_Static_assert(GC_OP_LAST <= 255 && GC_MAX_ALGORITHMS <= 127, "struct gc_call_line's small fields");

static inline void gc_call_line_of(const struct gc_record *r, struct gc_call_line *l)
{
  *l = (struct gc_call_line){r->call,
                             r->bytes,
                             r->op_name,
                             r->algorithm_name,
                             r->model,
                             r->predicted,
                             r->elapsed,
                             r->root,
                             r->clusters,
                             (unsigned char)r->op,
                             (signed char)r->algorithm,
                             (unsigned char)r->ncandidates,
                             0,
                             (unsigned char)r->entry};
}

/* A nonblocking or persistent call gridcoll runs as a schedule, as its executor (nbc.c)
 * keeps it until the application sees it complete: its line (without its call index,
 * given at each post from *calls, the communicator's count, so that the index is the
 * same on every member: collectives are posted in one order everywhere), where it is
 * logged, and its post. Its times are this rank's own: assembling them over the ranks
 * would need a reduction at a moment the application chooses, different on each rank
 * (doc/log.md). */
struct gc_call_pending {
  struct gc_call_line line;
  unsigned long long *calls; /* the communicator's (comm_state.h); NULL: not logged */
  unsigned long long comm_id;
  int comm_size, comm_rank;
  double posted; /* this rank's clock (clock.h) */
};

/* 1 when a and b are the same double bit for bit (a line repeats the one before only
 * then: -0.0 and 0.0, or two NaNs, print differently or not at all alike). */
static inline int gc_same_bits(double a, double b)
{
  return memcmp(&a, &b, sizeof a) == 0;
}

#endif
