/* PMPI calls whose element counts may not fit an int.
 *
 * The call structs hold MPI_Count counts so that MPI_X and MPI_X_c (MPI-4's large-count
 * entry points) share one path. An algorithm that moves a count the application gave
 * (the broadcast trees forward whole elements of the caller's type) calls these: each
 * picks the plain PMPI call when the count fits an int and the _c one otherwise. The
 * choice is local and needs no agreement: a message sent with PMPI_Isend_c matches a
 * receive posted with PMPI_Irecv, MPI matches type signatures, not entry points.
 *
 * Without MPI-4 (SimGrid SMPI and Open MPI 4 say MPI_VERSION 3) there are no _c calls
 * to intercept, so counts always fit, and a count that does not is an error, never a
 * truncation (GC_HAVE_MPI4, gridcoll.h). */
#ifndef GC_COUNT_H
#define GC_COUNT_H

#include <limits.h>
#include "gridcoll.h" /* GC_HAVE_MPI4 */

static inline int gc_count_fits_int(MPI_Count n)
{
  return n >= 0 && n <= INT_MAX;
}

int gc_pmpi_isend(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, MPI_Request *req);
int gc_pmpi_send(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm);
int gc_pmpi_irecv(void *buf, MPI_Count count, MPI_Datatype type, int src, int tag,
                  MPI_Comm comm, MPI_Request *req);
int gc_pmpi_bcast(void *buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm);

#endif
