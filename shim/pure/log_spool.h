/* The log's settled lines, kept as binary records until MPI_Finalize (or exit), when
 * log.c turns them into text and adds comm rank 0's to the summary.
 *
 * Formatting a line costs about as much as the rest of the log put together (~170 ns a
 * call on one node, doc/benchmarks.md): kept out of the calls, the whole log adds about
 * 4% to a 64 KiB broadcast through shared memory instead of 6% (issue 24's goal is 2%;
 * the timing alone is 1.2-2.1%); taking the summary's sums here too saves a logged call
 * 80 instructions more. A record is copied into a 64 KiB
 * chunk, and a full chunk is written to a spool file beside the log, unlinked as soon as
 * it is made: nothing is left behind, whatever way the program ends. The price: a program
 * killed before MPI_Finalize or exit (a signal) loses its lines, and MPI_Finalize takes the
 * formatting time (doc/log.md). Touched by one thread at a time (log.c's lock). */
#ifndef GC_LOG_SPOOL_H
#define GC_LOG_SPOOL_H

#include "record.h"
#include "span_time.h"

/* One settled line, as log.c writes it: the communicator's id and size, this rank's rank
 * in it (comm rank 0's lines feed the summary as they are drained), the line, its times
 * and its candidates (NULL: none). */
typedef void gc_spool_writer(unsigned long long comm_id, int comm_size, int comm_rank,
                             const struct gc_call_line *l, const struct gc_span_time *t,
                             const struct gc_candidate *cand);

/* The spool made beside log_path (a regular file's name): 0, or -1 with *why set (the
 * log then formats its lines at once). */
int gc_spool_open(const char *log_path, const char **why);
/* 1 while the spool takes lines. */
int gc_spool_on(void);
/* A line kept (cand: NULL, or l->ncandidates predictions): 0, or -1 when the spool
 * could not write (its lines so far still there for gc_spool_drain). */
int gc_spool_put(unsigned long long comm_id, int comm_size, int comm_rank,
                 const struct gc_call_line *l, const struct gc_span_time *t,
                 const struct gc_candidate *cand);
/* Every line kept, in order, through writer, then the spool closed: 0, or -1 with *why
 * set when some could not be read back. */
int gc_spool_drain(gc_spool_writer *writer, const char **why);

#endif
