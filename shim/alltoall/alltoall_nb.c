/* MPI_Ialltoall, MPI_Alltoall_init and their _c variants. With a forced `lg`, where the
 * MPI library has generalized requests (nbc.h): LG as a schedule (lg_nb.c), built at
 * the call (at MPI_Alltoall_init, run at each MPI_Start); otherwise the MPI library's
 * own call, followed to the completion the application sees and logged there (issued.h). */
#include "alltoall.h"
#include "issued.h"

GC_EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
  struct gc_alltoall_call call = {.sendbuf = sendbuf, .sendcount = sendcount,
                                  .sendtype = sendtype, .recvbuf = recvbuf,
                                  .recvcount = recvcount, .recvtype = recvtype, .comm = comm};
  int rc;
  if (gc_alltoall_lg_issue(&call, request, &rc, 0))
    return rc;
  struct gc_issued is;
  gc_issued_enter(&gc_alltoall_op, &call, comm, GC_ENTRY_NONBLOCKING, &is);
  rc = PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request);
  gc_issued_leave(&is, rc, request);
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request)
{
  struct gc_alltoall_call call = {.sendbuf = sendbuf, .sendcount = sendcount,
                                  .sendtype = sendtype, .recvbuf = recvbuf,
                                  .recvcount = recvcount, .recvtype = recvtype, .comm = comm,
                                  .large = 1};
  int rc;
  if (gc_alltoall_lg_issue(&call, request, &rc, 0))
    return rc;
  struct gc_issued is;
  gc_issued_enter(&gc_alltoall_op, &call, comm, GC_ENTRY_NONBLOCKING, &is);
  rc = PMPI_Ialltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                            request);
  gc_issued_leave(&is, rc, request);
  return rc;
}

GC_EXPORT int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
  struct gc_alltoall_call call = {.sendbuf = sendbuf, .sendcount = sendcount,
                                  .sendtype = sendtype, .recvbuf = recvbuf,
                                  .recvcount = recvcount, .recvtype = recvtype, .comm = comm};
  int rc;
  if (gc_alltoall_lg_issue(&call, request, &rc, 1))
    return rc;
  struct gc_issued is;
  gc_issued_enter(&gc_alltoall_op, &call, comm, GC_ENTRY_PERSISTENT, &is);
  rc = PMPI_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                              comm, info, request);
  gc_issued_leave(&is, rc, request);
  return rc;
}

GC_EXPORT int MPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
  struct gc_alltoall_call call = {.sendbuf = sendbuf, .sendcount = sendcount,
                                  .sendtype = sendtype, .recvbuf = recvbuf,
                                  .recvcount = recvcount, .recvtype = recvtype, .comm = comm,
                                  .large = 1};
  int rc;
  if (gc_alltoall_lg_issue(&call, request, &rc, 1))
    return rc;
  struct gc_issued is;
  gc_issued_enter(&gc_alltoall_op, &call, comm, GC_ENTRY_PERSISTENT, &is);
  rc = PMPI_Alltoall_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                comm, info, request);
  gc_issued_leave(&is, rc, request);
  return rc;
}
#endif
