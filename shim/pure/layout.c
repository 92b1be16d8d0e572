#include "layout.h"

#include <stdlib.h>
#include <string.h>

void gc_layout_free(struct gc_layout *l)
{
  free(l->cluster_of);
  free(l->index_in_cluster);
  free(l->cluster_size);
  free(l->cluster_start);
  free(l->members);
  free(l->global_id);
  free(l->leaders);
  memset(l, 0, sizeof *l);
}

int gc_layout_build(struct gc_layout *l, int size, const int *gid)
{
  memset(l, 0, sizeof *l);
  l->size = size;
  l->cluster_of = malloc(sizeof(int) * (size_t)size);
  l->index_in_cluster = malloc(sizeof(int) * (size_t)size);
  l->members = malloc(sizeof(int) * (size_t)size);
  l->global_id = malloc(sizeof(int) * (size_t)size); /* at most `size` clusters */
  l->cluster_size = calloc((size_t)size, sizeof(int));
  l->cluster_start = calloc((size_t)size + 1, sizeof(int));
  l->leaders = malloc(sizeof(int) * (size_t)size);
  if (!l->cluster_of || !l->index_in_cluster || !l->members || !l->global_id ||
      !l->cluster_size || !l->cluster_start || !l->leaders) {
    gc_layout_free(l);
    return -1;
  }
  /* Number clusters by first appearance. Quadratic in the number of clusters, which is
   * small (a grid has a handful of sites), and runs once per communicator. */
  for (int r = 0; r < size; r++) {
    int c = 0;
    while (c < l->nclusters && l->global_id[c] != gid[r])
      c++;
    if (c == l->nclusters)
      l->global_id[l->nclusters++] = gid[r];
    l->cluster_of[r] = c;
    l->index_in_cluster[r] = l->cluster_size[c]++;
  }
  for (int c = 0; c < l->nclusters; c++)
    l->cluster_start[c + 1] = l->cluster_start[c] + l->cluster_size[c];
  for (int r = 0; r < size; r++)
    l->members[l->cluster_start[l->cluster_of[r]] + l->index_in_cluster[r]] = r;
  for (int c = 0; c < l->nclusters; c++)
    l->leaders[c] = gc_layout_leader(l, c);
  return 0;
}
