/* PMPI calls with MPI_Count counts: the plain call when the count fits (count.h). */
#include "count.h"

int gc_pmpi_isend(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, MPI_Request *req)
{
  if (gc_count_fits_int(count))
    return PMPI_Isend(buf, (int)count, type, dest, tag, comm, req);
#if GC_HAVE_MPI4
  return PMPI_Isend_c(buf, count, type, dest, tag, comm, req);
#else
  return MPI_ERR_COUNT;
#endif
}

int gc_pmpi_send(const void *buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
                 MPI_Comm comm)
{
  if (gc_count_fits_int(count))
    return PMPI_Send(buf, (int)count, type, dest, tag, comm);
#if GC_HAVE_MPI4
  return PMPI_Send_c(buf, count, type, dest, tag, comm);
#else
  return MPI_ERR_COUNT;
#endif
}

int gc_pmpi_irecv(void *buf, MPI_Count count, MPI_Datatype type, int src, int tag,
                  MPI_Comm comm, MPI_Request *req)
{
  if (gc_count_fits_int(count))
    return PMPI_Irecv(buf, (int)count, type, src, tag, comm, req);
#if GC_HAVE_MPI4
  return PMPI_Irecv_c(buf, count, type, src, tag, comm, req);
#else
  return MPI_ERR_COUNT;
#endif
}

int gc_pmpi_bcast(void *buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm)
{
  if (gc_count_fits_int(count))
    return PMPI_Bcast(buf, (int)count, type, root, comm);
#if GC_HAVE_MPI4
  return PMPI_Bcast_c(buf, count, type, root, comm);
#else
  return MPI_ERR_COUNT;
#endif
}
