/* MPI_Init, MPI_Init_thread, MPI_Finalize: where gridcoll starts and stops.
 * Fortran programs reach these too: MPICH's Fortran bindings call the C entry points. */
#include "gridcoll.h"

GC_EXPORT int MPI_Init(int *argc, char ***argv)
{
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS && gc_guard_enter()) {
    gc_g.thread_level = MPI_THREAD_SINGLE;
    gc_startup();
    gc_guard_leave();
  }
  return rc;
}

GC_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS && gc_guard_enter()) {
    gc_g.thread_level = *provided;
    gc_startup();
    gc_guard_leave();
  }
  return rc;
}

GC_EXPORT int MPI_Finalize(void)
{
  if (gc_guard_enter()) {
    gc_shutdown();
    gc_guard_leave();
  }
  return PMPI_Finalize();
}
