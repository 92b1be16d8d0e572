/* Broadcast along a tree over cluster leaders, then inside every cluster.
 *
 * One executor runs every tree of tree.h. Leaders (the root itself in the root's
 * cluster, the lowest rank in the others, per struct gc_layout) receive from their
 * parent's leader and send to their children's in the tree's order, point-to-point on
 * the private duplicate with the user's (buffer, count, datatype); then every cluster
 * runs the MPI library's own broadcast on its cluster sub-communicator from its leader.
 * Only PMPI is called: gridcoll intercepts the MPI_ names.
 *
 * Segmentation (options.segment_bytes) pipelines the wide-area tree only: a leader
 * forwards segment s while segment s+1 arrives. Segments are cut in bytes of the packed
 * message (segment_schedule.h), never in elements of a rank's own datatype, which the
 * others may not share: between leaders they travel as MPI_BYTE, straight from the
 * user's buffer for raw datatypes (datatype.h), else through a staging buffer packed and
 * unpacked with PMPI_Pack (tree_stage.h says how its allocation stays agreed). A message
 * of one segment keeps the user's (count, datatype), exactly as PMPI_Bcast. TODO: the cluster broadcast still starts
 * when the leader has the whole message; pipelining it too (a PMPI_Ibcast per segment)
 * would hide it behind the wide-area transfer for large messages. */
#ifndef GC_BCAST_TREE_EXEC_H
#define GC_BCAST_TREE_EXEC_H

#include <stddef.h>
#include "bcast.h"
#include "tree.h"

/* Options of the executor, identical on every rank (set from the configuration). */
struct gc_bcast_tree_options {
  size_t segment_bytes; /* pipeline segments of this many bytes of the packed message
                           (the last shorter); 0: no segmentation (default) */
};
extern struct gc_bcast_tree_options gc_bcast_tree_options;

/* Runs tree (built for this call's layout and root cluster). MPI_SUCCESS or an MPI error
 * code: MPI_ERR_ARG before any traffic when the tree does not fit the call, else the
 * PMPI error code unchanged. gc_bcast_tree_run uses gc_bcast_tree_options'
 * segment size; _segmented takes it explicitly (0: whole message). */
int gc_bcast_tree_run(const struct gc_bcast_call *call, struct gc_comm_state *st,
                      const struct gc_tree *tree);
int gc_bcast_tree_run_segmented(const struct gc_bcast_call *call, struct gc_comm_state *st,
                                const struct gc_tree *tree, size_t segment_bytes);

/* The algorithms for the bcast table (struct gc_bcast_algorithm). One `supports` for all:
 * 1 when the communicator spans at least two clusters. Each `run` takes its tree from
 * the communicator's cache (tree_cache.h: keyed by builder, root cluster and m; built
 * from the network view with gc_bcast_tree_input on a miss) and runs it. */
int gc_bcast_tree_supports(const struct gc_bcast_call *call, const struct gc_comm_state *st);
int gc_bcast_flat_run(const struct gc_bcast_call *call, struct gc_comm_state *st);
int gc_bcast_binomial_run(const struct gc_bcast_call *call, struct gc_comm_state *st);
int gc_bcast_hlot_run(const struct gc_bcast_call *call, struct gc_comm_state *st);
int gc_bcast_spt_run(const struct gc_bcast_call *call, struct gc_comm_state *st);
int gc_bcast_greedy_run(const struct gc_bcast_call *call, struct gc_comm_state *st);
int gc_bcast_multilevel_run(const struct gc_bcast_call *call, struct gc_comm_state *st);

#endif
