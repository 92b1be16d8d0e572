/* A broadcast tree as a nonblocking schedule (nbc_schedule.h): pure C, no MPI.
 *
 * The tree spans the clusters' leaders (tree.h; the root cluster's is the call's root,
 * every other cluster's its lowest rank, as tree_exec.c sends); inside each cluster a
 * binomial tree over its members, rooted at its leader, takes the place of the
 * blocking run's PMPI_Bcast on the cluster communicator (a collective cannot be posted
 * from inside a progress call: ranks would post it in different orders). One rank's
 * steps: round 0 the receive from its parent (none at the root), round 1 its sends:
 * its children clusters' leaders in the tree's order (the wide edges, the long ones,
 * first), then its cluster children, largest subtree first. At most size steps. */
#ifndef GC_BCAST_TREE_STEPS_H
#define GC_BCAST_TREE_STEPS_H

#include "layout.h"
#include "nbc_schedule.h"
#include "tree_cost.h"

/* rank's steps into out (room for gc_bcast_tree_steps_bound(l, rank) steps): their
 * number, or -1 when the tree does not fit the layout (tree->n != l->nclusters, the root
 * cluster is not root's). */
int gc_bcast_tree_steps(const struct gc_layout *l, const struct gc_tree *t, int root, int rank,
                        struct gc_nbc_step *out);
/* The most steps gc_bcast_tree_steps gives rank, whatever the tree and the root: a
 * receive, a send to every other cluster, one to each binomial child. */
int gc_bcast_tree_steps_bound(const struct gc_layout *l, int rank);

/* The most segments a nonblocking tree cuts a message into: a larger count takes larger
 * segments (tree_nb.c), so that what a call carves stays bounded (nbc.h: the pool). */
#define GC_BCAST_NB_SEGMENTS 32

/* The same steps over nseg segments of the message (segment_schedule.h), piece s for
 * segment s, pipelined as the blocking tree is: every segment's receive from the parent
 * posted up to `ahead` rounds before it is due, segment s forwarded to every child (in
 * the order of `whole`) in the round after it arrived, the sends due `ahead` rounds
 * later. whole: gc_bcast_tree_steps' n steps; out: room for n * nseg. Their number (n *
 * nseg), or -1 when nseg or ahead < 1. */
int gc_bcast_tree_segment_steps(const struct gc_nbc_step *whole, int n, int nseg, int ahead,
                                struct gc_nbc_step *out);

#endif
