/* The one road every intercepted collective takes (dispatch.c). A wrapper validates
 * nothing itself: it packs its arguments into its op's call struct and hands them here
 * with the op's descriptor (op.h). */
#ifndef GC_DISPATCH_H
#define GC_DISPATCH_H

#include "log.h"
#include "op.h"

/* At MPI_Init, once the configuration and the log are settled: what op's calls can
 * skip entirely (a forced `native` with nothing recorded goes straight to the library). */
void gc_dispatch_configure(const struct gc_op *op);

/* A blocking call: the state of comm, the choice (cached, or gc_select over what each
 * algorithm supports and predicts), the run, the fall-back to the MPI library's own
 * algorithm on GC_FALLBACK, the record. Returns what the MPI call returns. */
int gc_dispatch(const struct gc_op *op, void *call, MPI_Comm comm);

/* A nonblocking or persistent call, issued: recorded untimed when it is valid and comm
 * is served (log.h: gc_log_issued); the caller then makes the MPI library's call. */
void gc_dispatch_issued(const struct gc_op *op, void *call, MPI_Comm comm, enum gc_entry entry);

#endif
