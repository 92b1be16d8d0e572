/* The end-of-run table, in the spirit of mpiP: per operation x algorithm x message-size
 * bucket, aggregates kept in memory on each rank and merged on world rank 0 at
 * MPI_Finalize with two reductions (sums and maxima) over fixed-size arrays. */
#ifndef GC_SUMMARY_H
#define GC_SUMMARY_H

#include "config.h"
#include "log.h"

void gc_summary_reset(int enabled);
void gc_summary_add(const struct gc_record *rec);
/* Collective over MPI_COMM_WORLD when enabled (all ranks agree on that). */
void gc_summary_finalize(const struct gc_config *cfg, int sync);

/* Bucket of a message size: 0 for 0 bytes, b for [2^(b-1), 2^b). */
int gc_summary_bucket(size_t bytes);

#endif
