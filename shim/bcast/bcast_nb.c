/* MPI_Ibcast, MPI_Bcast_init and their _c variants. MPI_Ibcast with a forced tree, where
 * the MPI library has generalized requests (nbc.h): the tree as a schedule (tree_nb.c);
 * otherwise the MPI library's own call, logged when issued, untimed (issued.h). A root out of range is not recorded (the
 * dispatch leaves it to MPI, which answers it). */
#include "bcast.h"
#include "issued.h"

GC_EXPORT int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
                         MPI_Comm comm, MPI_Request *request)
{
  struct gc_bcast_call call = {.buffer = buffer, .count = count, .datatype = datatype,
                               .root = root, .comm = comm};
  int rc;
  if (gc_bcast_tree_issue(&call, request, &rc, 0))
    return rc;
  int entered = gc_issued_enter(&gc_bcast_op, &call, comm, GC_ENTRY_NONBLOCKING);
  rc = PMPI_Ibcast(buffer, count, datatype, root, comm, request);
  gc_issued_leave(entered);
  return rc;
}

#if GC_HAVE_MPI4
GC_EXPORT int MPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                           MPI_Comm comm, MPI_Request *request)
{
  struct gc_bcast_call call = {.buffer = buffer, .count = count, .datatype = datatype,
                               .root = root, .comm = comm, .large = 1};
  int rc;
  if (gc_bcast_tree_issue(&call, request, &rc, 0))
    return rc;
  int entered = gc_issued_enter(&gc_bcast_op, &call, comm, GC_ENTRY_NONBLOCKING);
  rc = PMPI_Ibcast_c(buffer, count, datatype, root, comm, request);
  gc_issued_leave(entered);
  return rc;
}

GC_EXPORT int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
  struct gc_bcast_call call = {.buffer = buffer, .count = count, .datatype = datatype,
                               .root = root, .comm = comm};
  int rc;
  if (gc_bcast_tree_issue(&call, request, &rc, 1))
    return rc;
  int entered = gc_issued_enter(&gc_bcast_op, &call, comm, GC_ENTRY_PERSISTENT);
  rc = PMPI_Bcast_init(buffer, count, datatype, root, comm, info, request);
  gc_issued_leave(entered);
  return rc;
}

GC_EXPORT int MPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
  struct gc_bcast_call call = {.buffer = buffer, .count = count, .datatype = datatype,
                               .root = root, .comm = comm, .large = 1};
  int rc;
  if (gc_bcast_tree_issue(&call, request, &rc, 1))
    return rc;
  int entered = gc_issued_enter(&gc_bcast_op, &call, comm, GC_ENTRY_PERSISTENT);
  rc = PMPI_Bcast_init_c(buffer, count, datatype, root, comm, info, request);
  gc_issued_leave(entered);
  return rc;
}
#endif
