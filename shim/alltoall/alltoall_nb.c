/* MPI_Ialltoall, MPI_Alltoall_init and their _c variants: the MPI library's own call,
 * logged.
 *
 * gridcoll has no nonblocking grid algorithm: LG would need a progress engine to run
 * behind the application's back (STYLE.md: not for these collectives). So these calls
 * always run natively, untouched; what gridcoll adds is the record. Their completion is
 * the application's MPI_Wait/MPI_Test (and, for the persistent ones, every MPI_Start),
 * which gridcoll does not intercept, so the record is written when the call is issued
 * and carries no time (log.h: native-nb, native-persistent). */
#include "alltoall.h"
#include "dispatch.h"
#include "gridcoll.h"

/* Records a valid call on a communicator gridcoll serves, when gridcoll is active and
 * not re-entered; anything else goes unlogged, exactly as a blocking call that passes
 * through. Returns whether it entered the guard (leave() then leaves it). */
static int enter(struct gc_alltoall_call *call, enum gc_entry entry)
{
  if (!gc_is_active() || !gc_guard_enter())
    return 0;
  gc_dispatch_issued(&gc_alltoall_op, call, call->comm, entry);
  return 1;
}

static void leave(int entered)
{
  if (entered)
    gc_guard_leave();
}

GC_EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
  struct gc_alltoall_call call = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm, 0, 0};
  int entered = enter(&call, GC_ENTRY_NONBLOCKING);
  int rc = PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request);
  leave(entered);
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request *request)
{
  struct gc_alltoall_call call = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm, 0, 1};
  int entered = enter(&call, GC_ENTRY_NONBLOCKING);
  int rc = PMPI_Ialltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                            request);
  leave(entered);
  return rc;
}

GC_EXPORT int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
  struct gc_alltoall_call call = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm, 0, 0};
  int entered = enter(&call, GC_ENTRY_PERSISTENT);
  int rc = PMPI_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                              comm, info, request);
  leave(entered);
  return rc;
}

GC_EXPORT int MPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount,
                                  MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
  struct gc_alltoall_call call = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm, 0, 1};
  int entered = enter(&call, GC_ENTRY_PERSISTENT);
  int rc = PMPI_Alltoall_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                comm, info, request);
  leave(entered);
  return rc;
}
#endif
