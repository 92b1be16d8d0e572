/* Lists of MPI_COMM_WORLD ranks as people write them: "0-3,8,10-11".
 *
 * A list is one or more comma-separated items, each a rank "8" or an inclusive range
 * "10-11" (lo <= hi); blanks around items are allowed. Ranks are non-negative ints.
 * A rank may appear only once in a list. */
#ifndef GC_RANGES_H
#define GC_RANGES_H

#include <stddef.h>
#include "config.h"

/* Parse text into a new array (*out, *n; free(*out) when done). Returns 0, or -1 with a
 * message fragment in err such as
 *   expected rank ranges such as "0-3,8,10-11", got "3-1" (range 3-1 is reversed)
 * and *out = NULL, *n = 0; or GC_RANGES_NO_MEMORY (err "out of memory") when memory ran
 * out: the text may be fine, and the caller says that memory ran out, not that it is
 * wrong. */
#define GC_RANGES_NO_MEMORY (-2)
int gc_ranges_parse(const char *text, struct gc_rank_range **out, int *n, char *err, size_t errlen);

/* Parse one non-negative int rank (libconfig's `ranks = 5;`) into a one-range array; the
 * same returns. */
int gc_ranges_single(long long rank, struct gc_rank_range **out, int *n, char *err, size_t errlen);

/* 1 when rank lies in one of the n ranges, else 0. */
int gc_ranges_contains(const struct gc_rank_range *r, int n, int rank);

/* 1 when the lists share a rank (the lowest shared one goes to *rank when not NULL), else 0. */
int gc_ranges_overlap(const struct gc_rank_range *a, int na, const struct gc_rank_range *b, int nb,
                      int *rank);

/* Write the list back as "0-3,8" into buf (truncated to len); returns buf. */
char *gc_ranges_format(const struct gc_rank_range *r, int n, char *buf, size_t len);

#endif
