/* What the Fortran entry points share (Open MPI only: fortran.c says why they exist):
 * Fortran's sentinel buffers, Open MPI's own binding of a name, and the spellings each
 * name is exported under. */
#ifndef GC_FORTRAN_H
#define GC_FORTRAN_H

#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>

#include "gridcoll.h"

#ifdef OPEN_MPI

/* Fortran's MPI_IN_PLACE and MPI_BOTTOM are common blocks: their addresses, which the
 * program's own definition interposes, are the sentinels. */
extern int mpi_fortran_in_place_, mpi_fortran_bottom_;

static inline void *c_buffer(void *f)
{
  if (f == (void *)&mpi_fortran_in_place_)
    return MPI_IN_PLACE;
  if (f == (void *)&mpi_fortran_bottom_)
    return MPI_BOTTOM;
  return f;
}

/* Open MPI's own binding: the next definition of the name after gridcoll. */
static inline void *next(const char *name)
{
  return dlsym(RTLD_NEXT, name);
}

/* The four spellings Open MPI's mpif-h library exports for each name. */
#define GC_FORTRAN(fn, lower, upper)                                                     \
  GC_EXPORT __typeof__(fn) lower##_ __attribute__((alias(#fn)));                         \
  GC_EXPORT __typeof__(fn) lower##__ __attribute__((alias(#fn)));                        \
  GC_EXPORT __typeof__(fn) lower __attribute__((alias(#fn)));                            \
  GC_EXPORT __typeof__(fn) upper __attribute__((alias(#fn)));

/* What `use mpi_f08` calls (libmpi_usempif08's mpi_*_f08_ routines): ompi_<name>_f, the
 * functions the mpif-h spellings are weak aliases of, with the same arguments. */
#define GC_FORTRAN_F08(fn, name) GC_EXPORT __typeof__(fn) name __attribute__((alias(#fn)));
/* Both: mpi_<name>_ and its kin, and ompi_<name>_f. */
#define GC_FORTRAN_ALL(fn, name, NAME)                                                   \
  GC_FORTRAN(fn, mpi_##name, MPI_##NAME)                                                 \
  GC_FORTRAN_F08(fn, ompi_##name##_f)

#endif

#endif
