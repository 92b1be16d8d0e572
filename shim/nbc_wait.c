/* The completion calls, where gridcoll's schedules are in flight (nbc.h): a schedule
 * advances only when this process calls into MPI, and MPICH calls a generalized
 * request's poll function only when that request itself is tested. A rank blocked in
 * MPI_Wait on a request of the MPI library's own (its MPI_Iallreduce, a receive) would
 * never forward a tree's message another rank is waiting for: the other rank's wait may
 * be what completes ours (MPICH's nonblocking3 test hangs so). So every completion call
 * advances every schedule first, and a blocking one, while schedules are in flight, is
 * its test form in a loop with them (MPICH's own waits busy-poll too). With none in
 * flight each is the library's call after one load.
 *
 * Each also tells the executor which requests it returned complete (gc_nbc_seen): a
 * persistent schedule's line is logged there, when the application sees it end (a
 * persistent request keeps its handle, so the array still names it), and a start that
 * failed reports its error there, raised on the application's communicator as a
 * collective's error is (MPI-4.0 sections 6.12 and 9.3): the single forms return it, the
 * array forms MPI_ERR_IN_STATUS with it in the request's status. One more load while no
 * persistent schedule waits for it. And they tell the follower of the MPI library's own
 * collectives which of its requests completed (issued.h: marked before the library's
 * call, which nulls a nonblocking request's handle; one load while none is followed). */
#include "gridcoll.h"
#include "issued.h"
#include "nbc.h"

#if GC_HAVE_NBC

/* A failed start's error, raised on its communicator's handler (which may abort, as the
 * MPI library's own would); err again when the handler returns. */
static int raised(MPI_Comm app, int err)
{
  PMPI_Comm_call_errhandler(app, err);
  return err;
}

/* The requests at `indices` (n of them; indices NULL: the first n) returned complete,
 * their statuses at statuses[0..n) (or ignored): MPI_SUCCESS, or MPI_ERR_IN_STATUS
 * (raised) when a persistent schedule's start among them failed, every status's
 * MPI_ERROR then set. */
static int seen(const MPI_Request requests[], int n, const int indices[],
                MPI_Status statuses[])
{
  if (atomic_load_explicit(&gc_nbc_unseen, memory_order_relaxed) == 0 || n == MPI_UNDEFINED)
    return MPI_SUCCESS;
  MPI_Comm app = MPI_COMM_NULL;
  int failed = 0;
  for (int i = 0; i < n; i++) {
    int err = gc_nbc_seen(requests[indices ? indices[i] : i], 1, &app);
    failed |= err != MPI_SUCCESS;
    if (statuses != MPI_STATUSES_IGNORE)
      statuses[i].MPI_ERROR = err;
  }
  return failed ? raised(app, MPI_ERR_IN_STATUS) : MPI_SUCCESS;
}

/* One request returned complete: MPI_SUCCESS, or its failed start's error (raised). */
static int seen_one(MPI_Request r)
{
  MPI_Comm app;
  int err = gc_nbc_seen(r, 1, &app);
  return err == MPI_SUCCESS ? err : raised(app, err);
}

GC_EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
  struct gc_issued_marks m;
  gc_issued_mark(request, 1, &m);
  gc_nbc_progress();
  int rc = PMPI_Test(request, flag, status);
  gc_issued_complete(&m, rc, request, NULL, rc != MPI_SUCCESS || *flag);
  if (rc == MPI_SUCCESS && *flag)
    rc = seen_one(*request);
  return rc;
}

GC_EXPORT int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag,
                          MPI_Status *status)
{
  struct gc_issued_marks m;
  gc_issued_mark(requests, count, &m);
  gc_nbc_progress();
  int rc = PMPI_Testany(count, requests, index, flag, status);
  int one = rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED;
  gc_issued_complete(&m, rc, requests, index, one);
  if (one)
    rc = seen_one(requests[*index]);
  return rc;
}

GC_EXPORT int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
  struct gc_issued_marks m;
  gc_issued_mark(requests, count, &m);
  gc_nbc_progress();
  int rc = PMPI_Testall(count, requests, flag, statuses);
  gc_issued_complete(&m, rc, requests, NULL, rc != MPI_SUCCESS || *flag ? count : 0);
  if (rc == MPI_SUCCESS && *flag)
    rc = seen(requests, count, NULL, statuses);
  return rc;
}

GC_EXPORT int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                           MPI_Status statuses[])
{
  struct gc_issued_marks m;
  gc_issued_mark(requests, incount, &m);
  gc_nbc_progress();
  int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
  gc_issued_complete(&m, rc, requests, indices,
                     rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED ? *outcount : 0);
  if (rc == MPI_SUCCESS)
    rc = seen(requests, *outcount, indices, statuses);
  return rc;
}

/* MPICH's MPI_Request_get_status pokes its progress engine but never a generalized
 * request's poll function (4.0.2, request_impl.c). */
GC_EXPORT int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
  gc_nbc_progress();
  int rc = PMPI_Request_get_status(request, flag, status);
  if (rc == MPI_SUCCESS && *flag) { /* the error, as MPI_Test would; the start still unseen */
    MPI_Comm app;
    int err = gc_nbc_seen(request, 0, &app);
    if (err != MPI_SUCCESS)
      rc = raised(app, err);
  }
  return rc;
}

GC_EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
  int flag = 0, rc = MPI_SUCCESS;
  struct gc_issued_marks m;
  gc_issued_mark(request, 1, &m);
  while (!flag && gc_nbc_inflight() && rc == MPI_SUCCESS) {
    gc_nbc_progress();
    rc = PMPI_Test(request, &flag, status);
  }
  if (!flag && rc == MPI_SUCCESS)
    rc = PMPI_Wait(request, status);
  gc_issued_complete(&m, rc, request, NULL, 1);
  if (rc == MPI_SUCCESS)
    rc = seen_one(*request);
  return rc;
}

GC_EXPORT int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
  int flag = 0, rc = MPI_SUCCESS;
  struct gc_issued_marks m;
  gc_issued_mark(requests, count, &m);
  while (!flag && gc_nbc_inflight() && rc == MPI_SUCCESS) {
    gc_nbc_progress();
    rc = PMPI_Testany(count, requests, index, &flag, status);
  }
  if (!flag && rc == MPI_SUCCESS)
    rc = PMPI_Waitany(count, requests, index, status);
  gc_issued_complete(&m, rc, requests, index, rc == MPI_SUCCESS && *index != MPI_UNDEFINED);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
    rc = seen_one(requests[*index]);
  return rc;
}

/* Request by request, as MPICH's own MPI_Waitall: its MPI_Testall, looped on an array
 * holding its persistent collectives, returned MPI_ERR_IN_STATUS with no error in any
 * status (MPICH 4.0.2, MPICH's p_order under gridcoll). */
GC_EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
  int failed = 0;
  MPI_Comm app = MPI_COMM_NULL; /* a failed start's, when one is among them */
  for (int i = 0; i < count; i++) {
    MPI_Status *status = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    int flag = 0, rc = MPI_SUCCESS;
    struct gc_issued_marks m;
    gc_issued_mark(&requests[i], 1, &m);
    while (!flag && gc_nbc_inflight() && rc == MPI_SUCCESS) {
      gc_nbc_progress();
      rc = PMPI_Test(&requests[i], &flag, status);
    }
    if (!flag && rc == MPI_SUCCESS)
      rc = PMPI_Wait(&requests[i], status);
    gc_issued_complete(&m, rc, &requests[i], NULL, 1);
    if (rc == MPI_SUCCESS) /* the library raised its own errors already */
      rc = gc_nbc_seen(requests[i], 1, &app);
    if (rc != MPI_SUCCESS)
      failed = 1;
    if (status != MPI_STATUS_IGNORE) /* read only with MPI_ERR_IN_STATUS */
      status->MPI_ERROR = rc;
  }
  if (failed && app != MPI_COMM_NULL)
    return raised(app, MPI_ERR_IN_STATUS);
  return failed ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

GC_EXPORT int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                           MPI_Status statuses[])
{
  int rc = MPI_SUCCESS;
  struct gc_issued_marks m;
  gc_issued_mark(requests, incount, &m);
  *outcount = 0;
  while (*outcount == 0 && gc_nbc_inflight() && rc == MPI_SUCCESS) {
    gc_nbc_progress();
    rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
  }
  if (*outcount == 0 && rc == MPI_SUCCESS)
    rc = PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  gc_issued_complete(&m, rc, requests, indices,
                     rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED ? *outcount : 0);
  if (rc == MPI_SUCCESS)
    rc = seen(requests, *outcount, indices, statuses);
  return rc;
}

#endif

#if GC_HAVE_NBC
/* A request of the library's started: a followed persistent collective's post
 * (issued.h). */
static int library_start(MPI_Request *request)
{
  int followed = atomic_load_explicit(&gc_issued_followed, memory_order_relaxed) != 0;
  double posted = followed ? gc_clock_now() : 0;
  int rc = PMPI_Start(request);
  if (followed && rc == MPI_SUCCESS)
    gc_issued_started(*request, posted);
  return rc;
}

/* The persistent schedules' requests (nbc.h: gc_nbc_persistent): started and freed here;
 * every other request is the library's. */
GC_EXPORT int MPI_Start(MPI_Request *request)
{
  int rc;
  if (gc_nbc_start_persistent(request, &rc))
    return rc;
  return library_start(request);
}

GC_EXPORT int MPI_Startall(int count, MPI_Request requests[])
{
  /* One by one, in the array's order: MPI_Startall starts them in some order, and
   * persistent collectives must be started in the same order on every rank. */
  for (int i = 0; i < count; i++) {
    int rc = MPI_SUCCESS;
    if (!gc_nbc_start_persistent(&requests[i], &rc))
      rc = library_start(&requests[i]);
    if (rc != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

GC_EXPORT int MPI_Request_free(MPI_Request *request)
{
  gc_nbc_free_persistent(request);
  gc_issued_forget(*request);
  return PMPI_Request_free(request);
}
#endif
