/* Fortran entry points of the nonblocking collectives and of the completion calls, for
 * Open MPI only (fortran.c says why Fortran needs its own there).
 *
 * Under Open MPI gridcoll's schedules sit behind plain generalized requests, which only
 * gridcoll's completion calls advance (nbc.h). Open MPI's Fortran bindings call PMPI_
 * directly, so a Fortran MPI_WAIT would never advance a schedule: on a schedule's own
 * request it would wait for ever, and on any other one it could starve another rank
 * waiting for a message this rank's schedule forwards. So each Fortran completion call
 * advances every schedule in flight first and, while any is, a blocking one is its test
 * form in a loop with them, as the C wrappers do (nbc_wait.c); the calls themselves are
 * Open MPI's own Fortran bindings (the next definition), so handles, statuses, LOGICAL
 * flags and Fortran's MPI_STATUS(ES)_IGNORE pass through untouched. With no schedule in
 * flight each is Open MPI's call after one load. `use mpi_f08` reaches the blocking
 * forms through ompi_*_f, as the collectives (fortran.c), but the test forms through
 * Open MPI's profiling names (pmpi_test_ ...: a LOGICAL is converted there), which
 * gridcoll defines too, with the same effect: a schedule is advanced, then Open MPI's
 * own call runs.
 *
 * MPI_IBCAST, MPI_IALLTOALL and MPI_IALLTOALLV convert the handles (and MPI_IN_PLACE)
 * and call gridcoll's C wrapper, which runs a schedule or the library's own call as for
 * C; while gridcoll is off, Open MPI's Fortran binding untouched. Open MPI 4.1 is MPI 3.1:
 * no persistent collectives. */
#include "fortran.h"

#include <pthread.h>

#include "nbc.h"

#if defined(OPEN_MPI) && GC_HAVE_NBC

typedef void ibcast_f(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *,
                      MPI_Fint *);
typedef void ialltoall_f(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *,
                         MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void ialltoallv_f(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *,
                          MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
/* (request, status, ierr) and (request, flag, status, ierr) */
typedef void wait_f(MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void test_f(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
/* (count, requests, statuses, ierr) and (count, requests, flag, statuses, ierr) */
typedef void waitall_f(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void testall_f(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
/* (count, requests, index, status, ierr) and (count, requests, index, flag, status, ierr) */
typedef void waitany_f(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void testany_f(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
/* (incount, requests, outcount, indices, statuses, ierr), both */
typedef void some_f(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);

/* Open MPI's own bindings of the completion calls, looked up once: they are on every
 * program's hot path. A LOGICAL is a default INTEGER's size (gfortran; Open MPI's
 * configure checks the same), .FALSE. is 0. */
static struct {
  wait_f *wait;
  test_f *test, *request_get_status;
  waitall_f *waitall;
  testall_f *testall;
  waitany_f *waitany;
  testany_f *testany;
  some_f *waitsome, *testsome;
} bindings;
static pthread_once_t resolved = PTHREAD_ONCE_INIT;

static void resolve(void)
{
  bindings.wait = (wait_f *)next("mpi_wait_");
  bindings.test = (test_f *)next("mpi_test_");
  bindings.request_get_status = (test_f *)next("mpi_request_get_status_");
  bindings.waitall = (waitall_f *)next("mpi_waitall_");
  bindings.testall = (testall_f *)next("mpi_testall_");
  bindings.waitany = (waitany_f *)next("mpi_waitany_");
  bindings.testany = (testany_f *)next("mpi_testany_");
  bindings.waitsome = (some_f *)next("mpi_waitsome_");
  bindings.testsome = (some_f *)next("mpi_testsome_");
}

static void gc_f_ibcast(void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root,
                        MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
  if (!gc_is_active()) {
    ibcast_f *own = (ibcast_f *)next("mpi_ibcast_");
    own(buffer, count, datatype, root, comm, request, ierr);
    return;
  }
  MPI_Request r;
  *ierr = MPI_Ibcast(c_buffer(buffer), *count, PMPI_Type_f2c(*datatype), *root,
                     PMPI_Comm_f2c(*comm), &r);
  if (*ierr == MPI_SUCCESS)
    *request = PMPI_Request_c2f(r);
}

static void gc_f_ialltoall(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype,
                           void *recvbuf, MPI_Fint *recvcount, MPI_Fint *recvtype,
                           MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
  if (!gc_is_active()) {
    ialltoall_f *own = (ialltoall_f *)next("mpi_ialltoall_");
    own(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request, ierr);
    return;
  }
  MPI_Request r;
  *ierr = MPI_Ialltoall(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                        c_buffer(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                        PMPI_Comm_f2c(*comm), &r);
  if (*ierr == MPI_SUCCESS)
    *request = PMPI_Request_c2f(r);
}

static void gc_f_ialltoallv(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls,
                            MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcounts,
                            MPI_Fint *rdispls, MPI_Fint *recvtype, MPI_Fint *comm,
                            MPI_Fint *request, MPI_Fint *ierr)
{
  if (!gc_is_active()) {
    ialltoallv_f *own = (ialltoallv_f *)next("mpi_ialltoallv_");
    own(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
        request, ierr);
    return;
  }
  MPI_Request r;
  *ierr = MPI_Ialltoallv(c_buffer(sendbuf), sendcounts, sdispls, PMPI_Type_f2c(*sendtype),
                         c_buffer(recvbuf), recvcounts, rdispls, PMPI_Type_f2c(*recvtype),
                         PMPI_Comm_f2c(*comm), &r);
  if (*ierr == MPI_SUCCESS)
    *request = PMPI_Request_c2f(r);
}

static void gc_f_test(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr)
{
  pthread_once(&resolved, resolve);
  gc_nbc_progress();
  bindings.test(request, flag, status, ierr);
}

static void gc_f_request_get_status(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status,
                                    MPI_Fint *ierr)
{
  pthread_once(&resolved, resolve);
  gc_nbc_progress();
  bindings.request_get_status(request, flag, status, ierr);
}

static void gc_f_testall(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag,
                         MPI_Fint *statuses, MPI_Fint *ierr)
{
  pthread_once(&resolved, resolve);
  gc_nbc_progress();
  bindings.testall(count, requests, flag, statuses, ierr);
}

static void gc_f_testany(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                         MPI_Fint *status, MPI_Fint *ierr)
{
  pthread_once(&resolved, resolve);
  gc_nbc_progress();
  bindings.testany(count, requests, index, flag, status, ierr);
}

static void gc_f_testsome(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                          MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr)
{
  pthread_once(&resolved, resolve);
  gc_nbc_progress();
  bindings.testsome(incount, requests, outcount, indices, statuses, ierr);
}

static void gc_f_wait(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr)
{
  pthread_once(&resolved, resolve);
  MPI_Fint flag = 0;
  *ierr = MPI_SUCCESS;
  while (!flag && gc_nbc_inflight() && *ierr == MPI_SUCCESS) {
    gc_nbc_progress();
    bindings.test(request, &flag, status, ierr);
  }
  if (!flag && *ierr == MPI_SUCCESS)
    bindings.wait(request, status, ierr);
}

static void gc_f_waitall(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses,
                         MPI_Fint *ierr)
{
  pthread_once(&resolved, resolve);
  MPI_Fint flag = 0;
  *ierr = MPI_SUCCESS;
  while (!flag && gc_nbc_inflight() && *ierr == MPI_SUCCESS) {
    gc_nbc_progress();
    bindings.testall(count, requests, &flag, statuses, ierr);
  }
  if (!flag && *ierr == MPI_SUCCESS)
    bindings.waitall(count, requests, statuses, ierr);
}

static void gc_f_waitany(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index,
                         MPI_Fint *status, MPI_Fint *ierr)
{
  pthread_once(&resolved, resolve);
  MPI_Fint flag = 0;
  *ierr = MPI_SUCCESS;
  while (!flag && gc_nbc_inflight() && *ierr == MPI_SUCCESS) {
    gc_nbc_progress();
    bindings.testany(count, requests, index, &flag, status, ierr);
  }
  if (!flag && *ierr == MPI_SUCCESS)
    bindings.waitany(count, requests, index, status, ierr);
}

static void gc_f_waitsome(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                          MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr)
{
  pthread_once(&resolved, resolve);
  *outcount = 0;
  *ierr = MPI_SUCCESS;
  while (*outcount == 0 && gc_nbc_inflight() && *ierr == MPI_SUCCESS) {
    gc_nbc_progress();
    bindings.testsome(incount, requests, outcount, indices, statuses, ierr);
  }
  if (*outcount == 0 && *ierr == MPI_SUCCESS)
    bindings.waitsome(incount, requests, outcount, indices, statuses, ierr);
}

GC_FORTRAN_ALL(gc_f_ibcast, ibcast, IBCAST)
GC_FORTRAN_ALL(gc_f_ialltoall, ialltoall, IALLTOALL)
GC_FORTRAN_ALL(gc_f_ialltoallv, ialltoallv, IALLTOALLV)
GC_FORTRAN_ALL(gc_f_wait, wait, WAIT)
GC_FORTRAN_ALL(gc_f_test, test, TEST)
GC_FORTRAN_ALL(gc_f_waitall, waitall, WAITALL)
GC_FORTRAN_ALL(gc_f_testall, testall, TESTALL)
GC_FORTRAN_ALL(gc_f_waitany, waitany, WAITANY)
GC_FORTRAN_ALL(gc_f_testany, testany, TESTANY)
GC_FORTRAN_ALL(gc_f_waitsome, waitsome, WAITSOME)
GC_FORTRAN_ALL(gc_f_testsome, testsome, TESTSOME)
GC_FORTRAN_ALL(gc_f_request_get_status, request_get_status, REQUEST_GET_STATUS)

/* `use mpi_f08`'s test forms (their LOGICAL converted there) call these. */
GC_FORTRAN_F08(gc_f_test, pmpi_test_)
GC_FORTRAN_F08(gc_f_testall, pmpi_testall_)
GC_FORTRAN_F08(gc_f_testany, pmpi_testany_)
GC_FORTRAN_F08(gc_f_testsome, pmpi_testsome_)
GC_FORTRAN_F08(gc_f_request_get_status, pmpi_request_get_status_)

#endif
