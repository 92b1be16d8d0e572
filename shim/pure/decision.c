/* The decision cache (decision.h). */
#include "decision.h"


int gc_decision_find(const struct gc_decision table[GC_DECISIONS], size_t bytes,
                     int root_cluster, unsigned long long version)
{
  const struct gc_decision *d = &table[gc_size_class(bytes)];
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
  table[gc_size_class(bytes)] = (struct gc_decision){bytes, root_cluster, algorithm, version + 1};
}
