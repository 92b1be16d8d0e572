/* Choosing an algorithm for a call: pure C, no MPI, so every rule is unit-tested.
 *
 * The inputs are identical on every rank (the configuration, agreed at MPI_Init, and the
 * call's arguments), so every rank picks the same algorithm (reference.md section 5). */
#ifndef GC_SELECT_H
#define GC_SELECT_H

/* Index 0 of every algorithm table is the MPI library's own algorithm. */
#define GC_NATIVE 0

/* Index of the algorithm to run among n:
 *   wanted names one (forced by the file or GRIDCOLL_<OP>): it, if it supports the call,
 *   else the native one (the caller says so once);
 *   wanted is "auto": the smallest prediction among supported algorithms with one
 *   (predicted[i] >= 0); ties, and calls no model can predict, go to the native one. */
int gc_select(const char *wanted, int n, const char *const *names, const int *supported,
              const double *predicted);

#endif
