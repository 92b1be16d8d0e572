/* Broadcast trees cached per communicator: pure C, no MPI.
 *
 * A tree and its predicted time depend on the communicator's layout and network view,
 * the builder, the root's cluster (not the root itself: the tree input only reads
 * cluster_of[root]) and m, which enters through the bandwidth term (m/bw on every
 * edge) and the clusters' own broadcasts. So an entry is keyed by exactly
 * (builder, root cluster, m), m a whole number of bytes: a hit returns what a fresh build would, bit for bit.
 * Policy: 32 entries per communicator, least recently used evicted. `auto` costs every
 * tree algorithm's tree (six) per call, so this holds five (root cluster, size) pairs; a
 * program that cycles through more pays a rebuild (microseconds, test/bench/bench_trees.c), never a
 * wrong tree. When the network view changes (the latency probe bumps the state's version),
 * its owner (shim/bcast/tree_algorithms.c) clears the cache.
 * Storage: every entry's tree has room for k clusters, in one block made with the cache
 * (gc_tree_cache_init, when the communicator's state is built), so a build into an entry
 * allocates nothing: its working arrays come from the network view's scratch. */
#ifndef GC_TREE_CACHE_H
#define GC_TREE_CACHE_H

#include "layout.h"
#include "network.h"
#include "tree.h"

typedef int (*gc_tree_builder)(const struct gc_tree_input *in, struct gc_tree *out);

enum { GC_TREE_CACHE_SIZE = 32 };

struct gc_tree_cache_entry {
  gc_tree_builder build; /* NULL: empty slot */
  int root_cluster;
  size_t bytes;          /* m: a whole number of bytes, compared exactly */
  struct gc_tree tree;
  double predicted;      /* gc_bcast_tree_predict of this tree, s; < 0: none */
  unsigned long long last_used;
};

struct gc_tree_cache {
  struct gc_tree_cache_entry entry[GC_TREE_CACHE_SIZE];
  unsigned long long tick;
  unsigned long long builds, hits; /* counters, kept across clears (for the tests) */
  int k;                           /* clusters every entry has room for */
  int *storage;                    /* the entries' trees: gc_tree_ints(k) ints each */
};

/* An empty cache whose entries have room for trees over k >= 1 clusters: 0, or -1 when
 * out of memory (c then has no storage: every get is GC_TREE_ENOMEM). An all-zero cache
 * is one with no storage. gc_tree_cache_free gives the storage back. */
int gc_tree_cache_init(struct gc_tree_cache *c, int k);
void gc_tree_cache_free(struct gc_tree_cache *c);
/* Empties every entry (the storage stays). */
void gc_tree_cache_clear(struct gc_tree_cache *c);

/* The tree `build` makes for a broadcast of m bytes from communicator rank `root`,
 * with its prediction: from the cache, or built from gc_bcast_tree_input into the least
 * recently used entry, costed and kept. 0 and *out (valid until that entry is rebuilt or
 * c cleared: at least GC_TREE_CACHE_SIZE - 1 more gets), or GC_TREE_EINVAL (bad root, a
 * layout of one cluster or of more clusters than the cache has room for, bad input) or
 * GC_TREE_ENOMEM (no storage, or a scratch below the bound), with nothing kept. */
int gc_tree_cache_get(struct gc_tree_cache *c, gc_tree_builder build,
                      const struct gc_network *net, const struct gc_layout *layout, int root,
                      size_t m, const struct gc_tree_cache_entry **out);

#endif
