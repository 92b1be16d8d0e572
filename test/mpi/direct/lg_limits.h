/* LG limit cases for lg_direct (lg_limits.c). Collective; 0 on every rank when passed. */
#ifndef GC_TEST_LG_LIMITS_H
#define GC_TEST_LG_LIMITS_H

#include "comm_state.h"

/* The last rank cannot allocate LG's buffers: every rank must get GC_FALLBACK. */
int lg_limits_fallback(struct gc_comm_state *st, MPI_Comm comm);
/* Blocks 1 GiB apart (resized int): offsets past 2 GiB, plain and MPI_IN_PLACE. */
int lg_limits_huge_extent(struct gc_comm_state *st, MPI_Comm comm);

#endif
