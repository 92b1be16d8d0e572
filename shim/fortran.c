/* Fortran entry points, for Open MPI only.
 *
 * MPICH's Fortran bindings call the C entry points (MPI_Init, MPI_Bcast...), so its
 * Fortran programs reach gridcoll's C wrappers with nothing more. Open MPI's call PMPI_
 * directly: a Fortran program would never reach gridcoll, not even MPI_INIT. So under
 * Open MPI gridcoll also defines the Fortran names of its six functions (mpif.h and
 * `use mpi`; gfortran's mpi_bcast_ and the other three spellings Open MPI exports):
 * MPI_INIT, MPI_INIT_THREAD and MPI_FINALIZE call Open MPI's own Fortran binding (the
 * next definition) and start or stop gridcoll as the C ones do; MPI_ALLTOALL,
 * MPI_ALLTOALLV and MPI_BCAST convert the handles and Fortran's MPI_IN_PLACE / MPI_BOTTOM and call
 * gridcoll's C wrapper, or, while gridcoll is off, Open MPI's Fortran binding untouched.
 * `use mpi_f08` calls Open MPI's ompi_*_f functions instead (mpi_alltoall_f08_ passes
 * comm%MPI_VAL and the rest to ompi_alltoall_f): in libmpi_mpifh those are the very
 * functions mpi_alltoall_ and its spellings are weak aliases of, with the same
 * arguments, so gridcoll defines them too, as aliases of the same five wrappers. The
 * nonblocking calls and the completion calls that advance gridcoll's schedules are in
 * fortran_nbc.c. */
#include "fortran.h"

#ifdef OPEN_MPI

typedef void init_f(MPI_Fint *);
typedef void init_thread_f(MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void finalize_f(MPI_Fint *);
typedef void bcast_f(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void alltoall_f(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *,
                        MPI_Fint *);
typedef void alltoallv_f(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *,
                         MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
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

GC_FORTRAN_ALL(gc_f_init, init, INIT)
GC_FORTRAN_ALL(gc_f_init_thread, init_thread, INIT_THREAD)
GC_FORTRAN_ALL(gc_f_finalize, finalize, FINALIZE)
GC_FORTRAN_ALL(gc_f_bcast, bcast, BCAST)
GC_FORTRAN_ALL(gc_f_alltoall, alltoall, ALLTOALL)
GC_FORTRAN_ALL(gc_f_alltoallv, alltoallv, ALLTOALLV)

#endif
