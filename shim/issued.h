/* A nonblocking or persistent collective (MPI_Ialltoall, MPI_Bcast_init ...) that the MPI
 * library runs, issued: the one entry and exit every shim/<op>/<op>_nb.c wrapper shares
 * (gridcoll's own schedules, nbc.h, are issued by tree_nb.c and lg_nb.c).
 *
 * Such a call runs natively, untouched; what gridcoll adds is the record. Its completion
 * is in the application's MPI_Wait/MPI_Test (and, for the persistent ones, every
 * MPI_Start), which gridcoll would have to follow request by request in every
 * completion call of every application, under every MPI (Open MPI's are not wrapped at
 * all), so the record is written when the call is issued and carries no time (log.h:
 * native-nb, native-persistent; doc/log.md). A wrapper packs its arguments into its op's
 * call struct, enters, makes the MPI library's call, leaves. */
#ifndef GC_ISSUED_H
#define GC_ISSUED_H

#include "dispatch.h"
#include "gridcoll.h"
#include "select.h" /* GC_NATIVE */

/* Records a valid call on a communicator gridcoll serves (dispatch.h:
 * gc_dispatch_issued) when gridcoll is active and not re-entered; anything else goes
 * unlogged, exactly as a blocking call that passes through. Returns whether it entered
 * the re-entry guard: hand that to gc_issued_leave after the MPI library's call. */
static inline int gc_issued_enter(const struct gc_op *op, void *call, MPI_Comm comm,
                                  enum gc_entry entry)
{
  if (!gc_is_active() || !gc_guard_enter())
    return 0;
  gc_dispatch_issued(op, call, comm, entry, GC_NATIVE, NULL);
  return 1;
}

static inline void gc_issued_leave(int entered)
{
  if (entered)
    gc_guard_leave();
}

#endif
