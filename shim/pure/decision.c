/* The decision cache (decision.h). */
#include "decision.h"

/* floor(log2 bytes) mod GC_DECISIONS (0 for 0 bytes): on every decided call, so one
 * instruction (GCC's and Clang's builtin) rather than a loop of up to 63. */
static unsigned slot(size_t bytes)
{
  unsigned long long b = bytes;
  unsigned log2 = b ? 63u - (unsigned)__builtin_clzll(b) : 0u;
  return log2 % GC_DECISIONS;
}

int gc_decision_find(const struct gc_decision table[GC_DECISIONS], size_t bytes,
                     int root_cluster, unsigned long long version)
{
  const struct gc_decision *d = &table[slot(bytes)];
  /* version + 1 == 0 (a version of ULLONG_MAX) would read as empty: a miss, never a
   * wrong hit. */
  return d->stamp != 0 && d->stamp == version + 1 && d->bytes == bytes &&
                 d->root_cluster == root_cluster
             ? d->algorithm
             : -1;
}

void gc_decision_put(struct gc_decision table[GC_DECISIONS], size_t bytes, int root_cluster,
                     unsigned long long version, int algorithm)
{
  table[slot(bytes)] = (struct gc_decision){bytes, root_cluster, algorithm, version + 1};
}
