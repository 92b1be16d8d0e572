/* Which cluster a process belongs to, from the configuration: pure C, no MPI.
 * The shim feeds it each rank's world rank and processor name, then gathers the
 * answers so that every rank holds the same table. */
#ifndef GC_TOPOLOGY_H
#define GC_TOPOLOGY_H

#include <stddef.h>
#include "config.h"

#define GC_CLUSTER_NONE (-1)

/* Cluster index in cfg->clusters of a process, by rank ranges then host globs.
 * Returns the index, GC_CLUSTER_NONE when nothing matches (the caller warns and gives
 * the rank a cluster of its own), or -2 with a message in err when two clusters claim it
 * ("FILE:LINE: host 'grelon-3' is matched by cluster 'nancy' (line 2) and 'rennes' (line 3)"). */
int gc_topology_cluster_of(const struct gc_config *cfg, int world_rank, const char *host,
                           char *err, size_t errlen);

/* Number distinct host names in order of first appearance: ids[i] = ordinal of names[i]. */
void gc_topology_by_host(const char *const *names, int n, int *ids);

#endif
