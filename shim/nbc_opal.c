/* Open MPI: gridcoll's schedules advanced by Open MPI's own progress engine too.
 *
 * Open MPI 4.1 has plain generalized requests only (doc/design.md: Nonblocking
 * collectives), which MPI never calls back into: alone, a schedule would advance only
 * inside gridcoll's C completion calls (nbc_wait.c), and a completion call that does not
 * pass through them (Open MPI's Fortran bindings, which call PMPI_; a tool preloaded in
 * front of gridcoll that calls PMPI_Wait) would wait for ever on a schedule's request.
 * So gridcoll registers a callback with the engine's loop
 * (opal_progress_register, exported by Open MPI's libopen-pal, the hook its own libnbc
 * schedules use): every pass of the loop, which runs inside every MPI call that waits or
 * polls (PMPI_Wait on any request, a blocking MPI_Recv), advances the schedules in flight.
 * That also moves a schedule inside a blocking point-to-point call, which MPICH's
 * mechanism does not (test/mpi/nb_progress.c).
 *
 * The callback does nothing inside gridcoll's own calls (the re-entry guard: the engine
 * runs inside every PMPI_ call gridcoll makes, its executor's included, and a schedule's
 * end takes the log's lock) nor while another thread holds the schedules' lock (nbc.c);
 * with no schedule in flight it returns after one load, and from MPI_Finalize on
 * (gridcoll stopped) it does nothing. Where the symbol is missing, no schedule runs:
 * gc_nbc_available() is 0, and every nonblocking call is the MPI library's own. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <pthread.h>

#include "gridcoll.h"
#include "nbc.h"

#if defined(OPEN_MPI) && GC_HAVE_NBC

typedef int opal_callback(void);
typedef int opal_register(opal_callback *);
enum { OPAL_SUCCESS = 0 }; /* opal/constants.h */

static int progress_hook(void)
{
  if (!gc_nbc_inflight() || !gc_is_active() || !gc_guard_enter())
    return 0;
  gc_nbc_progress();
  gc_guard_leave();
  return 0;
}

static int hooked;

static void hook(void)
{
  opal_register *reg = (opal_register *)dlsym(RTLD_DEFAULT, "opal_progress_register");
  hooked = reg && reg(progress_hook) == OPAL_SUCCESS;
}

int gc_nbc_available(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, hook);
  return hooked;
}

#endif
