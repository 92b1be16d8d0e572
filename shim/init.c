/* MPI_Init, MPI_Init_thread, MPI_Finalize: where gridcoll starts and stops.
 * Fortran programs reach these too: MPICH's Fortran bindings call the C entry points.
 * Their arguments have the same types in every MPI, so they are where a program of the
 * other MPI, whose library was loaded after gridcoll's (dlopen), is recognised and
 * handed over (foreign.c). */
#include "gridcoll.h"

typedef int init_fn(int *, char ***);
typedef int init_thread_fn(int *, char ***, int, int *);

GC_EXPORT int MPI_Init(int *argc, char ***argv)
{
  init_fn *other = (init_fn *)gc_other_mpi_function("MPI_Init");
  if (other)
    return other(argc, argv);
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS)
    gc_startup(MPI_THREAD_SINGLE);
  return rc;
}

GC_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  init_thread_fn *other = (init_thread_fn *)gc_other_mpi_function("MPI_Init_thread");
  if (other)
    return other(argc, argv, required, provided);
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS)
    gc_startup(*provided);
  return rc;
}

GC_EXPORT int MPI_Finalize(void)
{
  gc_shutdown();
  return PMPI_Finalize();
}
