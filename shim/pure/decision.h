/* The decision cache: the choices `auto` made on one communicator for one operation,
 * kept so that the same call again costs a look-up, not a prediction of every algorithm
 * (dispatch.c, the full dispatch). Pure C.
 *
 * A choice reads the communicator's state (layout, network view) and, of the call, its
 * bytes and root cluster only (op.h: supports and predict read nothing else). So an
 * entry is keyed by exactly those two and stamped with the state's version, which
 * whatever changes the network view bumps (the probe; later, what measured calls
 * teach): an entry of another version is a miss. Every rank holds the same entries,
 * written by the same calls in the same order from data identical on every rank, so
 * every rank finds the same choice. */
#ifndef GC_DECISION_H
#define GC_DECISION_H

#include <stddef.h>

struct gc_decision {
  size_t bytes;
  int root_cluster; /* -1 for an operation without root */
  int algorithm;
  unsigned long long stamp; /* version + 1 when made; 0: empty */
};
/* Entries per operation, one per size class: floor(log2 bytes) mod GC_DECISIONS. A
 * second size in the same class, or a second root cluster, replaces the entry. */
enum { GC_DECISIONS = 16 };

/* The size class of a call: floor(log2 bytes) mod GC_DECISIONS (0 for 0 bytes), shared by
 * the decision cache and learning (learn.h). Inline, on every decided call: one
 * instruction (GCC's and Clang's builtin) rather than a loop of up to 63. */
static inline unsigned gc_size_class(size_t bytes)
{
  unsigned long long b = bytes;
  unsigned log2 = b ? 63u - (unsigned)__builtin_clzll(b) : 0u;
  return log2 % GC_DECISIONS;
}

/* The algorithm decided for (bytes, root_cluster) under version, or -1. */
int gc_decision_find(const struct gc_decision table[GC_DECISIONS], size_t bytes,
                     int root_cluster, unsigned long long version);

/* Remember that algorithm was chosen for (bytes, root_cluster) under version. */
void gc_decision_put(struct gc_decision table[GC_DECISIONS], size_t bytes, int root_cluster,
                     unsigned long long version, int algorithm);

#endif
