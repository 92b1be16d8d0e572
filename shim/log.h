/* Predicted versus actual, per call: the log's text and file.
 *
 * A line per timed call and rank, written once its completion time is known (span.h
 * gives each settled call to this log's reader), into a 64 KiB chunk of text written when
 * it fills and at MPI_Finalize (or exit), never inside the timed region. Times are
 * seconds to the nanosecond (%.9f). Beside the lines, comm rank 0 of each communicator
 * hands its calls to the summary (summary.h), merged on world rank 0 at MPI_Finalize. */
#ifndef GC_LOG_H
#define GC_LOG_H

#include "config.h"

/* At MPI_Init: the file created with its header (an unwritable path warns once, then the
 * program continues without it), and this log made a reader of settled calls. */
void gc_log_open(const struct gc_config *cfg);
/* Calls are timed and recorded (a log file or the summary wants them): the same on
 * every rank, from the agreed configuration. */
int gc_log_enabled(void);
/* Whether the configuration asks for the end-of-run summary (summary.h). */
int gc_log_wants_summary(const struct gc_config *cfg);
/* At MPI_Finalize, once the calls are settled (span.h: gc_span_finalize): the text
 * written and the file closed. */
void gc_log_finalize(void);

/* The log file's expanded name, "" when none (latency.h writes beside it). */
const char *gc_log_path(void);

#endif
