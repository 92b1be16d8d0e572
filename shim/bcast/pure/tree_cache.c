/* The per-communicator tree cache (see tree_cache.h). */
#include "tree_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bcast_algorithms.h"
#include "prediction.h"

int gc_tree_cache_init(struct gc_tree_cache *c, int k)
{
  memset(c, 0, sizeof *c);
  size_t each = gc_tree_ints(k);
  if (k < 1 || each > SIZE_MAX / sizeof(int) / GC_TREE_CACHE_SIZE ||
      !(c->storage = malloc(sizeof(int) * each * GC_TREE_CACHE_SIZE)))
    return -1;
  c->k = k;
  gc_tree_cache_clear(c);
  return 0;
}

void gc_tree_cache_free(struct gc_tree_cache *c)
{
  free(c->storage);
  memset(c, 0, sizeof *c);
}

void gc_tree_cache_clear(struct gc_tree_cache *c)
{
  for (int i = 0; i < GC_TREE_CACHE_SIZE; i++) {
    struct gc_tree_cache_entry *e = &c->entry[i];
    memset(e, 0, sizeof *e);
    if (c->storage)
      gc_tree_place(&e->tree, c->storage + (size_t)i * gc_tree_ints(c->k), c->k);
  }
}

int gc_tree_cache_get(struct gc_tree_cache *c, gc_tree_builder build,
                      const struct gc_network *net, const struct gc_layout *layout, int root,
                      size_t m, const struct gc_tree_cache_entry **out)
{
  *out = NULL;
  if (!build || root < 0 || root >= layout->size || layout->nclusters < 2)
    return GC_TREE_EINVAL;
  if (!c->storage)
    return GC_TREE_ENOMEM;
  if (layout->nclusters > c->k)
    return GC_TREE_EINVAL;
  int rc = layout->cluster_of[root], victim = 0;
  for (int i = 0; i < GC_TREE_CACHE_SIZE; i++) {
    struct gc_tree_cache_entry *e = &c->entry[i];
    /* Only an equal m gives an equal tree: sizes are whole bytes, so an integer key. */
    if (e->build == build && e->root_cluster == rc && e->bytes == m) {
      e->last_used = ++c->tick;
      c->hits++;
      *out = e;
      return 0;
    }
    /* Empty slots have last_used 0: they go first, then the least recently used. */
    if (e->last_used < c->entry[victim].last_used)
      victim = i;
  }
  /* The victim's tree is overwritten in place: the entry is empty until the build is. */
  struct gc_tree_cache_entry *e = &c->entry[victim];
  struct gc_tree_input in;
  e->build = NULL;
  e->last_used = 0;
  gc_bcast_tree_input(net, layout, root, (double)m, &in);
  int err = build(&in, &e->tree);
  if (err != 0)
    return err;
  e->predicted = gc_prediction_checked(gc_bcast_tree_predict(net, layout, &in, &e->tree));
  e->build = build;
  e->root_cluster = rc;
  e->bytes = m;
  e->last_used = ++c->tick;
  c->builds++;
  *out = e;
  return 0;
}
