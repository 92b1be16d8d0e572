/* MPI_Ibcast, MPI_Bcast_init and their _c variants: the MPI library's own call, logged
 * when issued, untimed (the same design as alltoall_nb.c, which says why). */
#include "bcast.h"
#include "dispatch.h"
#include "gridcoll.h"

/* Records a valid call (a root out of range excluded: MPI answers it) when gridcoll is
 * active and not re-entered. Returns whether it entered the guard. */
static int enter(struct gc_bcast_call *call, enum gc_entry entry)
{
  if (!gc_is_active() || !gc_guard_enter())
    return 0;
  gc_dispatch_issued(&gc_bcast_op, call, call->comm, entry);
  return 1;
}

static void leave(int entered)
{
  if (entered)
    gc_guard_leave();
}

GC_EXPORT int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
                         MPI_Comm comm, MPI_Request *request)
{
  struct gc_bcast_call call = {buffer, count, datatype, root, comm, 0, 0, 0};
  int entered = enter(&call, GC_ENTRY_NONBLOCKING);
  int rc = PMPI_Ibcast(buffer, count, datatype, root, comm, request);
  leave(entered);
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                           MPI_Comm comm, MPI_Request *request)
{
  struct gc_bcast_call call = {buffer, count, datatype, root, comm, 0, 1, 0};
  int entered = enter(&call, GC_ENTRY_NONBLOCKING);
  int rc = PMPI_Ibcast_c(buffer, count, datatype, root, comm, request);
  leave(entered);
  return rc;
}

GC_EXPORT int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
  struct gc_bcast_call call = {buffer, count, datatype, root, comm, 0, 0, 0};
  int entered = enter(&call, GC_ENTRY_PERSISTENT);
  int rc = PMPI_Bcast_init(buffer, count, datatype, root, comm, info, request);
  leave(entered);
  return rc;
}

GC_EXPORT int MPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
  struct gc_bcast_call call = {buffer, count, datatype, root, comm, 0, 1, 0};
  int entered = enter(&call, GC_ENTRY_PERSISTENT);
  int rc = PMPI_Bcast_init_c(buffer, count, datatype, root, comm, info, request);
  leave(entered);
  return rc;
}
#endif
