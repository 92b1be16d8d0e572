/* LG all-to-all executor (lg.c): runs the schedule of lg_schedule.h with PMPI calls.
 *
 * gc_alltoall_lg_run returns MPI_SUCCESS, a PMPI error code unchanged, or
 * GC_FALLBACK (gridcoll.h) when every rank agreed, before anything was written to recvbuf,
 * that LG cannot serve it (a buffer could not be allocated, or the packed size of a block is
 * not m on some rank; the latter is learnt from LG's own messages on the private
 * communicators, see lg.c): the caller then calls PMPI_Alltoall with the same arguments.
 * MPI error codes are >= 0, so the value cannot collide with one. */
#ifndef GC_ALLTOALL_LG_H
#define GC_ALLTOALL_LG_H

#include "alltoall.h"
#include "gridcoll.h"

/* Base of LG's tags on the private communicators (ASCII "LG"; lg.c uses three even tags
 * from it and their low bit as a flag). Between two processes a call sends at most one
 * message of each kind per direction, and calls on one communicator are ordered. */
#define GC_ALLTOALL_LG_TAG 0x4c47

#endif
