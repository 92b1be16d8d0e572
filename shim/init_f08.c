/* use mpi_f08's MPI_Init, MPI_Init_thread and MPI_Finalize.
 *
 * mpif.h and `use mpi` reach the C entry points (mpi_init_ calls MPI_Init), but MPICH 4's
 * mpi_f08 bindings call PMPI_Init, PMPI_Init_thread and PMPI_Finalize directly (seen with
 * LD_DEBUG=bindings; doc/portability.md, Fortran): without these three wrappers gridcoll
 * would never start in an mpi_f08 program and every collective would pass through. Each
 * calls the bindings' own routine (the next definition after this library: dlsym
 * RTLD_NEXT), then starts gridcoll exactly as MPI_Init does; the collectives themselves
 * arrive at MPI_Alltoall and MPI_Bcast like C's. The symbols are MPICH's names, so the
 * file is empty elsewhere (SMPI, Open MPI). */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "gridcoll.h"

#if defined(MPICH_VERSION)
#include <dlfcn.h>
#include <stddef.h>

/* ierror is an OPTIONAL argument in mpi_f08: NULL when the program left it out. */
typedef void (*f08_init)(MPI_Fint *ierror);
typedef void (*f08_init_thread)(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror);
typedef void (*f08_finalize)(MPI_Fint *ierror);

/* The bindings' own symbols, wrapped below: no MPI header declares them (the mpi_f08
 * module calls them by name), so their prototypes are here. */
GC_EXPORT void mpi_init_f08_(MPI_Fint *ierror);
GC_EXPORT void mpi_init_thread_f08_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror);
GC_EXPORT void mpi_finalize_f08_(MPI_Fint *ierror);

/* The bindings' routine `name`; the program called it, so its library is loaded. */
static void *next(const char *name)
{
  void *f = dlsym(RTLD_NEXT, name);
  if (!f)
    gc_warn_any("cannot find MPICH's %s (%s); gridcoll stays off", name, dlerror());
  return f;
}

/* After the bindings' initialisation: start as MPI_Init_thread does, if MPI now runs
 * (gc_startup does nothing if MPI_Init already started gridcoll). */
static void start(void)
{
  int up = 0, provided = MPI_THREAD_SINGLE;
  if (PMPI_Initialized(&up) != MPI_SUCCESS || !up)
    return;
  PMPI_Query_thread(&provided);
  gc_startup(provided);
}

GC_EXPORT void mpi_init_f08_(MPI_Fint *ierror)
{
  f08_init real;
  *(void **)&real = next("mpi_init_f08_");
  if (!real) { /* cannot happen in a program linked with the bindings */
    int rc = PMPI_Init(NULL, NULL);
    if (ierror)
      *ierror = rc;
    return;
  }
  real(ierror);
  start();
}

GC_EXPORT void mpi_init_thread_f08_(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
  f08_init_thread real;
  *(void **)&real = next("mpi_init_thread_f08_");
  if (!real) {
    int p = MPI_THREAD_SINGLE, rc = PMPI_Init_thread(NULL, NULL, (int)*required, &p);
    *provided = p;
    if (ierror)
      *ierror = rc;
    return;
  }
  real(required, provided, ierror);
  start();
}

GC_EXPORT void mpi_finalize_f08_(MPI_Fint *ierror)
{
  f08_finalize real;
  *(void **)&real = next("mpi_finalize_f08_");
  gc_shutdown();
  if (real) {
    real(ierror);
  } else {
    int rc = PMPI_Finalize();
    if (ierror)
      *ierror = rc;
  }
}
#endif
