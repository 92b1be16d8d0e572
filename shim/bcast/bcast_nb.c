/* MPI_Ibcast, MPI_Bcast_init and their _c variants. MPI_Ibcast with a forced tree, where
 * the MPI library has generalized requests (nbc.h): the tree as a schedule (tree_nb.c);
 * otherwise the MPI library's own call, followed to the completion the application sees
 * and logged there (issued.h). A root out of range is not recorded (the dispatch leaves
 * it to MPI, which answers it). */
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
  struct gc_issued is;
  gc_issued_enter(&gc_bcast_op, &call, comm, GC_ENTRY_NONBLOCKING, &is);
  rc = PMPI_Ibcast(buffer, count, datatype, root, comm, request);
  gc_issued_leave(&is, rc, request);
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
  struct gc_issued is;
  gc_issued_enter(&gc_bcast_op, &call, comm, GC_ENTRY_NONBLOCKING, &is);
  rc = PMPI_Ibcast_c(buffer, count, datatype, root, comm, request);
  gc_issued_leave(&is, rc, request);
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
  struct gc_issued is;
  gc_issued_enter(&gc_bcast_op, &call, comm, GC_ENTRY_PERSISTENT, &is);
  rc = PMPI_Bcast_init(buffer, count, datatype, root, comm, info, request);
  gc_issued_leave(&is, rc, request);
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
  struct gc_issued is;
  gc_issued_enter(&gc_bcast_op, &call, comm, GC_ENTRY_PERSISTENT, &is);
  rc = PMPI_Bcast_init_c(buffer, count, datatype, root, comm, info, request);
  gc_issued_leave(&is, rc, request);
  return rc;
}
#endif
