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

/* rank's steps into out (room for l->size steps): their number, or -1 when the tree
 * does not fit the layout (tree->n != l->nclusters, the root cluster is not root's). */
int gc_bcast_tree_steps(const struct gc_layout *l, const struct gc_tree *t, int root, int rank,
                        struct gc_nbc_step *out);

#endif
