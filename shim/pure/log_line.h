/* A settled call's line in the log's CSV text (doc/log.md names the columns), formatted
 * without printf (log_line.c). The caches of the last line's repeating columns are one
 * per process: called by one thread at a time (log.c's lock). */
#ifndef GC_LOG_LINE_H
#define GC_LOG_LINE_H

#include <stddef.h>

#include "record.h"
#include "span_time.h"

/* The widest the line of l can be, its newline included: the room gc_log_line_put needs
 * (it writes up to 15 bytes past its end inside that room). cand: ncand predictions. */
size_t gc_log_line_room(const struct gc_call_line *l, const struct gc_span_time *t,
                        const struct gc_candidate *cand, int ncand);
/* The line of world rank `rank` on the communicator (comm_id, comm_size) written at p,
 * which has gc_log_line_room bytes: where it ends. */
char *gc_log_line_put(char *p, int rank, unsigned long long comm_id, int comm_size,
                      const struct gc_call_line *l, const struct gc_span_time *t,
                      const struct gc_candidate *cand, int ncand);

#endif
