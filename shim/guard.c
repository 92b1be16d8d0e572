/* The re-entry guard: gridcoll's own PMPI traffic never reaches its wrappers, but a
 * callback (an attribute delete function, a user error handler) might call MPI_ names
 * from inside; the guard makes such calls pass straight through. Per thread, because
 * under MPI_THREAD_MULTIPLE two threads may be inside gridcoll on different communicators. */
#include "gridcoll.h"

static _Thread_local int inside;

int gc_guard_enter(void)
{
  if (inside)
    return 0;
  inside = 1;
  return 1;
}

void gc_guard_leave(void)
{
  inside = 0;
}
