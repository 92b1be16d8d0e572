/* The cluster layout of one communicator: pure C, no MPI.
 *
 * Built from the cluster id of every communicator rank (ids come from the world table
 * made at MPI_Init, so every member computes the same layout with no communication).
 * Local clusters are numbered by first appearance in rank order, so local cluster 0
 * holds rank 0; members of a cluster are listed in ascending communicator rank, which
 * is the order the algorithms' schedules assume (reference.md section 3). */
#ifndef GC_LAYOUT_H
#define GC_LAYOUT_H

struct gc_layout {
  int size;              /* communicator size */
  int nclusters;
  int *cluster_of;       /* [size] local cluster of each rank */
  int *index_in_cluster; /* [size] position of each rank inside its cluster */
  int *cluster_size;     /* [nclusters] */
  int *cluster_start;    /* [nclusters+1] offsets into members */
  int *members;          /* [size] ranks grouped by cluster, ascending inside each */
  int *global_id;        /* [nclusters] world cluster id (index into the configuration) */
  int *leaders;          /* [nclusters] each cluster's leader (gc_layout_leader), in cluster
                            order: the leaders' communicator's group, made with the layout
                            so that making that communicator allocates nothing */
};

/* Returns 0, or -1 when out of memory (layout then holds nothing to free). */
int gc_layout_build(struct gc_layout *layout, int size, const int *global_cluster_of_rank);
void gc_layout_free(struct gc_layout *layout);

/* Rank of member k of local cluster c; the leader is member 0 (lowest rank). */
static inline int gc_layout_member(const struct gc_layout *l, int c, int k)
{
  return l->members[l->cluster_start[c] + k];
}

static inline int gc_layout_leader(const struct gc_layout *l, int c)
{
  return gc_layout_member(l, c, 0);
}

#endif
