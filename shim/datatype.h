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
#include <stdatomic.h>

/* 1, with *size set, when type is a valid, committed (or predefined) datatype whose size
 * MPI gives; 0 otherwise (the call then passes through untouched). */
int gc_datatype_usable(MPI_Datatype type, MPI_Count *size);

/* How many datatypes gridcoll watches were really freed so far: the delete callback of
 * its attribute advances it (datatype.c). A size known of a derived datatype's handle
 * holds while the count has not moved: after a free, MPI may give the handle to another
 * type. Read on the dispatch's fast path (a plain load). */
extern _Atomic unsigned long gc_datatype_frees __attribute__((visibility("hidden")));

/* 1 when type is in this thread's cache of usable types (gc_datatype_usable just said
 * so) and its size there holds while gc_datatype_frees reads `frees`: a predefined type,
 * or a derived one carrying the attribute, kept under that count. */
int gc_datatype_kept(MPI_Datatype type, unsigned long frees);

/* 1 when count elements of type (usable) are, from the buffer's start, count * size bytes
 * of data with no holes, in type-map order: their packed form is the bytes themselves,
 * so a segmented broadcast moves them without a staging copy. 0 when unsure. This rests
 * on PMPI_Pack's native format being the elements' bytes end to end, which holds for the
 * MPI libraries gridcoll runs on (MPICH, Open MPI, SMPI: one homogeneous machine
 * format); gc_datatype_pack_is_plain checks it once. */
int gc_datatype_is_raw(MPI_Datatype type);

/* 1 when PMPI_Pack writes count elements of a type as the bytes of its type map end to
 * end, count * size bytes in all: what segmentation in bytes relies on (tree_exec.h). */
int gc_datatype_pack_is_plain(void);

#endif
