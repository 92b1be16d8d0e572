/* MPI_Ialltoallv, MPI_Alltoallv_init and their _c variants. With a forced `lg`, where the
 * MPI library has generalized requests (nbc.h), MPI_Ialltoallv runs LG-v as a nonblocking
 * schedule (lgv_nb.c), and where it has persistent collectives (MPI 4: MPICH)
 * MPI_Alltoallv_init as a persistent one (lgv_persistent.c); otherwise
 * the MPI library's own call, followed to the completion the application sees and logged
 * there (issued.h). */
#include "alltoallv.h"
#include "issued.h"

GC_EXPORT int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
  struct gc_alltoallv_call call = {.sendbuf = sendbuf, .sendcounts = sendcounts,
                                   .sdispls = sdispls, .sendtype = sendtype,
                                   .recvbuf = recvbuf, .recvcounts = recvcounts,
                                   .rdispls = rdispls, .recvtype = recvtype, .comm = comm};
  int rc;
  if (gc_alltoallv_lg_nb_issue(&call, request, &rc))
    return rc;
  struct gc_issued is;
  gc_issued_enter(&gc_alltoallv_op, &call, comm, GC_ENTRY_NONBLOCKING, &is);
  rc = PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm, request);
  gc_issued_leave(&is, rc, request);
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[],
                               const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  struct gc_alltoallv_call call = {.sendbuf = sendbuf, .sendcounts = sendcounts,
                                   .sdispls = sdispls, .sendtype = sendtype,
                                   .recvbuf = recvbuf, .recvcounts = recvcounts,
                                   .rdispls = rdispls, .recvtype = recvtype, .comm = comm,
                                   .large = 1};
  int rc;
  if (gc_alltoallv_lg_nb_issue(&call, request, &rc))
    return rc;
  struct gc_issued is;
  gc_issued_enter(&gc_alltoallv_op, &call, comm, GC_ENTRY_NONBLOCKING, &is);
  rc = PMPI_Ialltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                             rdispls, recvtype, comm, request);
  gc_issued_leave(&is, rc, request);
  return rc;
}

GC_EXPORT int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
  struct gc_alltoallv_call call = {.sendbuf = sendbuf, .sendcounts = sendcounts,
                                   .sdispls = sdispls, .sendtype = sendtype,
                                   .recvbuf = recvbuf, .recvcounts = recvcounts,
                                   .rdispls = rdispls, .recvtype = recvtype, .comm = comm};
  int rc;
  if (gc_alltoallv_lg_issue(&call, request, &rc))
    return rc;
  struct gc_issued is;
  gc_issued_enter(&gc_alltoallv_op, &call, comm, GC_ENTRY_PERSISTENT, &is);
  rc = PMPI_Alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                           rdispls, recvtype, comm, info, request);
  gc_issued_leave(&is, rc, request);
  return rc;
}

GC_EXPORT int MPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                                   const MPI_Aint sdispls[], MPI_Datatype sendtype,
                                   void *recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint rdispls[], MPI_Datatype recvtype,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
  struct gc_alltoallv_call call = {.sendbuf = sendbuf, .sendcounts = sendcounts,
                                   .sdispls = sdispls, .sendtype = sendtype,
                                   .recvbuf = recvbuf, .recvcounts = recvcounts,
                                   .rdispls = rdispls, .recvtype = recvtype, .comm = comm,
                                   .large = 1};
  int rc;
  if (gc_alltoallv_lg_issue(&call, request, &rc))
    return rc;
  struct gc_issued is;
  gc_issued_enter(&gc_alltoallv_op, &call, comm, GC_ENTRY_PERSISTENT, &is);
  rc = PMPI_Alltoallv_init_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                             rdispls, recvtype, comm, info, request);
  gc_issued_leave(&is, rc, request);
  return rc;
}
#endif
