/* Broadcast along a tree over cluster leaders, then inside every cluster.
 *
 * One executor runs every tree of tree.h. Leaders (the root itself in the root's
 * cluster, the lowest rank in the others, per struct gc_layout) receive from their
 * parent's leader and send to their children's in the tree's order, point-to-point on
 * the private duplicate with the user's (buffer, count, datatype); then every cluster
 * runs the MPI library's own broadcast on its cluster sub-communicator from its leader.
 * Only PMPI is called: gridcoll intercepts the MPI_ names.
 *
 * Segmentation (the call's segment_bytes, from bcast.segment) pipelines the wide-area tree only: a leader
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

/* Runs tree (built for this call's layout and root cluster). MPI_SUCCESS or an MPI error
 * code: MPI_ERR_ARG before any traffic when the tree does not fit the call, else the
 * PMPI error code unchanged. gc_bcast_tree_run uses the call's segment_bytes
 * (identical on every rank: the configuration's); _segmented takes it explicitly (0:
 * whole message). */
int gc_bcast_tree_run(const struct gc_bcast_call *call, struct gc_comm_state *st,
                      const struct gc_tree *tree);
int gc_bcast_tree_run_segmented(const struct gc_bcast_call *call, struct gc_comm_state *st,
                                const struct gc_tree *tree, size_t segment_bytes);

#endif
