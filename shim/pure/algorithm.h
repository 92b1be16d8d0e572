/* What every algorithm table row says about itself, MPI or not: pure C.
 *
 * Each collective keeps its rows in one pure table (shim/<op>/pure/<op>_algorithms.c: name,
 * description, formula, tree builder) that gridcoll-predict links; the library's table
 * (shim/<op>/<op>.c) points at the same rows, so the two cannot drift. */
#ifndef GC_ALGORITHM_H
#define GC_ALGORITHM_H

struct gc_algorithm_about {
  const char *name; /* what GRIDCOLL_<OP>, the file and the log call it */
  const char *desc; /* one line for people */
};

#endif
