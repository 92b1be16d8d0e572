/* The all-to-all algorithms, in one list (an X-macro, as libuv lists its error codes) so
 * that the MPI dispatch table (alltoall.c) and the MPI-free prediction tool build theirs
 * from the same names and cannot drift. X(name, description): algorithm `name` provides
 * gc_alltoall_<name>_supports, _run (MPI side) and _predict (alltoall_predict.h, pure).
 * The first entry is the MPI library's own algorithm (select.h: GC_NATIVE). */
#ifndef GC_ALLTOALL_ALGORITHMS_LIST_H
#define GC_ALLTOALL_ALGORITHMS_LIST_H

#define GC_ALLTOALL_ALGORITHMS(X)                                                    \
  X(native, "the MPI library's own MPI_Alltoall")                                    \
  X(lg, "LG two-phase exchange: every block crosses the wide area once, packed")

#endif
