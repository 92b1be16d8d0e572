/* LG all-to-all executor (lg.c): runs the schedule of lg_schedule.h with PMPI calls.
 *
 * gc_alltoall_lg_run returns MPI_SUCCESS, a PMPI error code unchanged, or
 * GC_FALLBACK (gridcoll.h) when every rank agreed, before any traffic of the call, that LG
 * cannot serve it (a buffer could not be allocated, or the packed size of a block is not
 * m on some rank): the caller then calls PMPI_Alltoall with the same arguments.
 * MPI error codes are >= 0, so the value cannot collide with one. */
#ifndef GC_ALLTOALL_LG_H
#define GC_ALLTOALL_LG_H

#include "alltoall.h"
#include "gridcoll.h"

/* Tag of the wide-area messages on the private duplicate (ASCII "LG"). Between two
 * processes a call sends at most one message per direction, and calls on one
 * communicator are ordered, so one tag suffices. */
#define GC_ALLTOALL_LG_TAG 0x4c47

#endif
