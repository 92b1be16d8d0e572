/* The other MPI: libgridcoll.so (MPICH) preloaded into an Open MPI program, or
 * libgridcoll-openmpi.so into an MPICH one.
 *
 * The two libraries share every MPI_ name but not one type: MPICH's handles are 32-bit
 * integers, Open MPI's are pointers. A wrapper compiled for one, called by a program
 * of the other, would cut pointers to 32 bits even on its pass-through path (the
 * compiler keeps an int argument in a 32-bit register). And gridcoll's DT_NEEDED has
 * loaded the other libmpi too, so its PMPI_ calls would reach the program's MPI with
 * the wrong handles: a crash at the first call.
 *
 * So every exported MPI entry point is a trampoline (mk/entries.sh): one indirect jump
 * through gc_entry_table, which leaves registers and stack exactly as the caller set
 * them. Here, when the process holds the other MPI library, every entry of the table is
 * pointed at that library's own function of the same name, before main() (library
 * constructor) or, for an MPI loaded later (dlopen), at MPI_Init. From then on gridcoll
 * is out of the way: no gridcoll code runs on any MPI call, nothing is read or logged,
 * and one warning says so. Without trampolines (under SMPI, or on another architecture)
 * the table does not exist and nothing here acts. */
#define _GNU_SOURCE /* dladdr, RTLD_NOLOAD */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridcoll.h"

/* A function only the other MPI library defines (not data: a program's copy
 * relocation would place a data symbol in the executable, not in the library). */
#ifdef OPEN_MPI
#define OTHER_MARKER "MPIR_Err_return_comm"
#define OTHER_NAME "MPICH"
#define OURS_NAME "Open MPI"
#define OTHER_LIB "libgridcoll.so"
#else
#define OTHER_MARKER "ompi_comm_dup"
#define OTHER_NAME "Open MPI"
#define OURS_NAME "MPICH"
#define OTHER_LIB "libgridcoll-openmpi.so"
#endif

/* Defined by the generated trampolines; absent (NULL) without them. */
extern void *gc_entry_table[] __attribute__((weak));
extern const char *const gc_entry_names[] __attribute__((weak));

static int other; /* 1 once the table points at the other MPI */

/* Never reached in practice: a program of the other MPI cannot call a name its own
 * library does not define. Said and stopped rather than guessed at. */
static void missing(void)
{
  fputs("gridcoll: an MPI function the program's MPI library does not define was called "
        "through gridcoll; aborting\n",
        stderr);
  abort();
}

/* The launcher's rank, from the environment: MPI is not (and may never be) initialised. */
static int env_rank(void)
{
  const char *vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v)
      return atoi(v);
  }
  return 0;
}

int gc_other_mpi_check(void)
{
  if (other)
    return 1;
  if (!gc_entry_table || !gc_entry_names)
    return 0;
  void *marker = dlsym(RTLD_DEFAULT, OTHER_MARKER);
  Dl_info info;
  if (!marker || !dladdr(marker, &info) || !info.dli_fname)
    return 0;
  void *lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  if (!lib)
    return 0;
  /* The library's own function. A Fortran name (mpi_bcast_, MPI_BCAST) may live in a
   * binding library of its own (libmpichfort, libmpi_mpifh): the next definition after
   * gridcoll. Not for a C name the library lacks (MPI_Alltoall_c in an MPI 3.1
   * library, which its programs cannot call): the next one could be gridcoll's own
   * MPI library's. */
  for (int i = 0; gc_entry_names[i]; i++) {
    const char *name = gc_entry_names[i];
    void *f = dlsym(lib, name);
    int c_name = strncmp(name, "MPI_", 4) == 0 && name[4] >= 'A' && name[4] <= 'Z' &&
                 name[5] >= 'a' && name[5] <= 'z';
    if (!f && !c_name)
      f = dlsym(RTLD_NEXT, name);
    gc_entry_table[i] = f ? f : (void *)missing;
  }
  other = 1;
  if (env_rank() == 0)
    fprintf(stderr,
            "gridcoll: this program uses %s (%s) but this gridcoll library was built for %s: "
            "gridcoll is off, every MPI call goes straight to %s. Preload %s, built with "
            "`make MPI=%s`, instead (README: MPICH or Open MPI)\n",
            OTHER_NAME, info.dli_fname, OURS_NAME, OTHER_NAME, OTHER_LIB,
            OTHER_NAME[0] == 'O' ? "openmpi" : "mpich");
  return 1;
}

void *gc_other_mpi_function(const char *name)
{
  if (!gc_other_mpi_check())
    return NULL;
  for (int i = 0; gc_entry_names[i]; i++) {
    if (strcmp(gc_entry_names[i], name) == 0)
      return gc_entry_table[i];
  }
  return NULL;
}

__attribute__((constructor)) static void check_at_load(void)
{
  gc_other_mpi_check();
}
