/* Fortran entry points, for Open MPI only.
 *
 * MPICH's Fortran bindings call the C entry points (MPI_Init, MPI_Bcast...), so its
 * Fortran programs reach gridcoll's C wrappers with nothing more. Open MPI's call PMPI_
 * directly: a Fortran program would never reach gridcoll, not even MPI_INIT. So under
 * Open MPI gridcoll also defines the Fortran names of its nine functions (mpif.h and
 * `use mpi`; gfortran's mpi_bcast_ and the other three spellings Open MPI exports):
 * MPI_INIT, MPI_INIT_THREAD and MPI_FINALIZE call Open MPI's own Fortran binding (the
 * next definition) and start or stop gridcoll as the C ones do; MPI_ALLTOALL,
 * MPI_ALLTOALLV and MPI_BCAST convert the handles and Fortran's MPI_IN_PLACE / MPI_BOTTOM and call
 * gridcoll's C wrapper, or, while gridcoll is off, Open MPI's Fortran binding untouched.
 * `use mpi_f08` calls Open MPI's ompi_*_f functions instead (mpi_alltoall_f08_ passes
 * comm%MPI_VAL and the rest to ompi_alltoall_f): in libmpi_mpifh those are the very
 * functions mpi_alltoall_ and its spellings are weak aliases of, with the same
 * arguments, so gridcoll defines them too, as aliases of the same wrappers.
 * MPI_IBCAST, MPI_IALLTOALL and MPI_IALLTOALLV reach gridcoll's C wrappers the same way
 * (a schedule or the library's own call, as for C). The Fortran completion calls need
 * no wrapper: Open MPI's own progress engine advances gridcoll's schedules inside them
 * (nbc_opal.c). The library's own calls made from Fortran are logged untimed when
 * issued: their completion, in those calls, is not seen (issued.h). */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>

#include "gridcoll.h"
#include "issued.h"

#ifdef OPEN_MPI

/* Fortran's MPI_IN_PLACE and MPI_BOTTOM are common blocks: their addresses, which the
 * program's own definition interposes, are the sentinels. */
extern int mpi_fortran_in_place_, mpi_fortran_bottom_;

static void *c_buffer(void *f)
{
  if (f == (void *)&mpi_fortran_in_place_)
    return MPI_IN_PLACE;
  if (f == (void *)&mpi_fortran_bottom_)
    return MPI_BOTTOM;
  return f;
}

/* Open MPI's own binding: the next definition of the name after gridcoll. */
static void *next(const char *name)
{
  return dlsym(RTLD_NEXT, name);
}

/* The four spellings Open MPI's mpif-h library exports for each name, and what `use
 * mpi_f08` calls (libmpi_usempif08's mpi_*_f08_ routines): ompi_<name>_f, the function the
 * mpif-h spellings are weak aliases of, with the same arguments. */
#define GC_FORTRAN(fn, name, NAME)                                                       \
  GC_EXPORT __typeof__(fn) mpi_##name##_ __attribute__((alias(#fn)));                    \
  GC_EXPORT __typeof__(fn) mpi_##name##__ __attribute__((alias(#fn)));                   \
  GC_EXPORT __typeof__(fn) mpi_##name __attribute__((alias(#fn)));                       \
  GC_EXPORT __typeof__(fn) MPI_##NAME __attribute__((alias(#fn)));                       \
  GC_EXPORT __typeof__(fn) ompi_##name##_f __attribute__((alias(#fn)));

typedef void init_f(MPI_Fint *);
typedef void init_thread_f(MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void finalize_f(MPI_Fint *);
typedef void bcast_f(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void alltoall_f(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *,
                        MPI_Fint *);
typedef void alltoallv_f(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *,
                         MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void ibcast_f(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *,
                      MPI_Fint *);
typedef void ialltoall_f(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *,
                         MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void ialltoallv_f(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *,
                          MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
/* Count and displacement arrays go to the C wrapper as they are. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays read as int[]");

static void gc_f_init(MPI_Fint *ierr)
{
  init_f *real = (init_f *)next("mpi_init_");
  real(ierr);
  if (*ierr == MPI_SUCCESS)
    gc_startup(MPI_THREAD_SINGLE);
}

static void gc_f_init_thread(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
  init_thread_f *real = (init_thread_f *)next("mpi_init_thread_");
  real(required, provided, ierr);
  if (*ierr == MPI_SUCCESS)
    gc_startup(*provided);
}

static void gc_f_finalize(MPI_Fint *ierr)
{
  gc_shutdown();
  finalize_f *real = (finalize_f *)next("mpi_finalize_");
  real(ierr);
}

static void gc_f_bcast(void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root,
                       MPI_Fint *comm, MPI_Fint *ierr)
{
  if (!gc_is_active()) {
    bcast_f *real = (bcast_f *)next("mpi_bcast_");
    real(buffer, count, datatype, root, comm, ierr);
    return;
  }
  *ierr = MPI_Bcast(c_buffer(buffer), *count, PMPI_Type_f2c(*datatype), *root,
                    PMPI_Comm_f2c(*comm));
}

static void gc_f_alltoall(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                          MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierr)
{
  if (!gc_is_active()) {
    alltoall_f *real = (alltoall_f *)next("mpi_alltoall_");
    real(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierr);
    return;
  }
  *ierr = MPI_Alltoall(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                       c_buffer(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                       PMPI_Comm_f2c(*comm));
}

static void gc_f_alltoallv(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls,
                           MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcounts,
                           MPI_Fint *rdispls, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierr)
{
  if (!gc_is_active()) {
    alltoallv_f *real = (alltoallv_f *)next("mpi_alltoallv_");
    real(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm,
         ierr);
    return;
  }
  *ierr = MPI_Alltoallv(c_buffer(sendbuf), sendcounts, sdispls, PMPI_Type_f2c(*sendtype),
                        c_buffer(recvbuf), recvcounts, rdispls, PMPI_Type_f2c(*recvtype),
                        PMPI_Comm_f2c(*comm));
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
  gc_issued_unseen_completions = 1; /* its completion goes to PMPI_ */
  *ierr = MPI_Ibcast(c_buffer(buffer), *count, PMPI_Type_f2c(*datatype), *root,
                     PMPI_Comm_f2c(*comm), &r);
  gc_issued_unseen_completions = 0;
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
  gc_issued_unseen_completions = 1; /* its completion goes to PMPI_ */
  *ierr = MPI_Ialltoall(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype),
                        c_buffer(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype),
                        PMPI_Comm_f2c(*comm), &r);
  gc_issued_unseen_completions = 0;
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
  gc_issued_unseen_completions = 1; /* its completion goes to PMPI_ */
  *ierr = MPI_Ialltoallv(c_buffer(sendbuf), sendcounts, sdispls, PMPI_Type_f2c(*sendtype),
                         c_buffer(recvbuf), recvcounts, rdispls, PMPI_Type_f2c(*recvtype),
                         PMPI_Comm_f2c(*comm), &r);
  gc_issued_unseen_completions = 0;
  if (*ierr == MPI_SUCCESS)
    *request = PMPI_Request_c2f(r);
}

GC_FORTRAN(gc_f_init, init, INIT)
GC_FORTRAN(gc_f_init_thread, init_thread, INIT_THREAD)
GC_FORTRAN(gc_f_finalize, finalize, FINALIZE)
GC_FORTRAN(gc_f_bcast, bcast, BCAST)
GC_FORTRAN(gc_f_alltoall, alltoall, ALLTOALL)
GC_FORTRAN(gc_f_alltoallv, alltoallv, ALLTOALLV)
GC_FORTRAN(gc_f_ibcast, ibcast, IBCAST)
GC_FORTRAN(gc_f_ialltoall, ialltoall, IALLTOALL)
GC_FORTRAN(gc_f_ialltoallv, ialltoallv, IALLTOALLV)

#endif
