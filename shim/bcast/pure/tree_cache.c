/* The per-communicator tree cache (see tree_cache.h). */
#include "tree_cache.h"

#include <string.h>

#include "bcast_algorithms.h"
#include "prediction.h"

void gc_tree_cache_clear(struct gc_tree_cache *c)
{
  for (int i = 0; i < GC_TREE_CACHE_SIZE; i++) {
    if (c->entry[i].build)
      gc_tree_free(&c->entry[i].tree);
    memset(&c->entry[i], 0, sizeof c->entry[i]);
  }
}

int gc_tree_cache_get(struct gc_tree_cache *c, gc_tree_builder build,
                      const struct gc_network *net, const struct gc_layout *layout, int root,
                      size_t m, const struct gc_tree_cache_entry **out)
{
  *out = NULL;
  if (!build || root < 0 || root >= layout->size || layout->nclusters < 2)
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
  struct gc_tree_input in;
  struct gc_tree tree;
  gc_bcast_tree_input(net, layout, root, (double)m, &in);
  int err = build(&in, &tree);
  if (err != 0)
    return err;
  double predicted = gc_prediction_checked(gc_bcast_tree_predict(net, layout, &in, &tree));
  struct gc_tree_cache_entry *e = &c->entry[victim];
  if (e->build)
    gc_tree_free(&e->tree);
  *e = (struct gc_tree_cache_entry){build, rc, m, tree, predicted, ++c->tick};
  c->builds++;
  *out = e;
  return 0;
}
