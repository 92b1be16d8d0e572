/* The files gridcoll writes: the log and its latency file (log.c), the summary
 * (summary.c). Opened so that a bad path can never hang or kill the program. */
#ifndef GC_OUTPUT_H
#define GC_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

/* Open path for writing (created or truncated) without ever blocking: a FIFO, a socket
 * or a directory is refused. NULL with "PATH: reason" in why when it cannot be used, and
 * errno ENOMEM when the reason is memory running out (said with gc_warn_oom, gridcoll.h,
 * by the rank it happened on), else another errno. */
FILE *gc_open_output(const char *path, char *why, size_t len);

/* Expand %r (world rank), %p (pid), %j (job id from the launcher, else "0"), %% in a
 * log file pattern. Returns 0, or -1 if it does not fit. */
int gc_log_expand_path(const char *pattern, int rank, char *out, size_t outlen);

#endif
