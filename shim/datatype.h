/* Whether gridcoll may move data of a datatype the application passed.
 *
 * MPI rejects a datatype that was never committed, but has no call that asks; gridcoll's
 * own traffic would then fail half way (a tree's first send, on one rank only) instead
 * of the call failing at once as the library's does. So before acting on a call, each
 * datatype is probed with a pack of zero elements on a private communicator that returns
 * errors: no message, no error handler of the application's called, and an invalid
 * handle is caught there too. */
#ifndef GC_DATATYPE_H
#define GC_DATATYPE_H

#include <mpi.h>

/* 1, with *size set, when type is a valid, committed (or predefined) datatype whose size
 * MPI gives; 0 otherwise (the call then passes through untouched). */
int gc_datatype_usable(MPI_Datatype type, MPI_Count *size);

#endif
