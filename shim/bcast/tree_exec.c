/* The executor for every broadcast tree (see tree_exec.h). */
#include "tree_exec.h"

#include <stdlib.h>

#include "count.h"

/* Our own tag on our own communicator: the private duplicate never carries the
 * application's messages. Calls on one communicator are ordered on every rank, and
 * MPI does not let messages between one pair overtake each other, so successive
 * broadcasts cannot mix even though they share the tag. */
#define GC_BCAST_TREE_TAG 0x6762

/* Requests kept on the stack; more children than this (a grid of hundreds of sites)
 * take the heap, and fall back to blocking sends if even that fails. Nothing here may
 * fail on one rank only once others may be waiting for it. */
enum { STACK_REQS = 256 };

static int leader_of(const struct gc_layout *l, const struct gc_tree *t, int root, int c)
{
  return c == t->root ? root : gc_layout_leader(l, c);
}

/* Where one leader sends: its children in the tree's order. */
struct kids {
  const struct gc_layout *l;
  const struct gc_tree *t;
  int root;        /* the call's root rank */
  const int *list; /* children clusters */
  int n;
};

/* Sends one piece (count elements at p) to every child, in order: nonblocking into
 * req[0..n) when req is not NULL, else blocking. */
static int send_children(void *p, MPI_Count count, MPI_Datatype dt, const struct kids *k,
                         MPI_Comm comm, MPI_Request *req)
{
  for (int j = 0; j < k->n; j++) {
    int dest = leader_of(k->l, k->t, k->root, k->list[j]);
    int rc = req ? gc_pmpi_isend(p, count, dt, dest, GC_BCAST_TREE_TAG, comm, &req[j])
                 : gc_pmpi_send(p, count, dt, dest, GC_BCAST_TREE_TAG, comm);
    if (rc != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

/* PMPI_Waitall one by one: with MPI_STATUSES_IGNORE, GCC 11+ reads MPICH's access
 * attributes as a zero-size status array and warns (-Wstringop-overflow). */
static int wait_all(int n, MPI_Request *req)
{
  for (int i = 0; i < n; i++) {
    int rc = PMPI_Wait(&req[i], MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

/* Receives posted ahead of the segment being forwarded. One is not enough: segments
 * above the eager limit go by rendezvous, and a receive posted only when the previous
 * segment is in makes every segment wait a wide-area round trip (bench-grid-bcast saw
 * 64 KiB segments of 1 MiB take 7 times the unsegmented time on korea8). */
#define GC_BCAST_RECV_AHEAD 32

/* Piece s of nseg: its first element and its length. Counts are MPI_Count (MPI_Bcast_c);
 * count.h's calls take the _c entry points only where a piece does not fit an int. */
static void piece(const struct gc_bcast_call *call, MPI_Count elems, MPI_Count s,
                  MPI_Count *first, MPI_Count *n)
{
  *first = s * elems;
  *n = call->count - *first < elems ? call->count - *first : elems;
}

/* A leader's part: receive from src (-1 at the root) and forward to its kids, in
 * nseg segments of `elems` elements. Up to GC_BCAST_RECV_AHEAD receives are posted ahead;
 * each segment is forwarded as soon as it is in; the sends of the last `win` segments
 * may be in flight (win*nk requests in req; NULL: blocking sends). The cluster's own
 * broadcast then overlaps the last sends: the leader's buffer is only read by both
 * (MPI-3 allows reading a buffer that pending sends use). */
static int forward(const struct gc_bcast_call *call, MPI_Aint extent, int src,
                   const struct kids *kids, MPI_Comm pcomm, MPI_Count elems, MPI_Count nseg,
                   MPI_Request *req, int win, MPI_Comm ccomm, int croot, int csize)
{
  int nk = kids->n;
  MPI_Request rreq[GC_BCAST_RECV_AHEAD];
  int rc = MPI_SUCCESS;
  MPI_Count posted = 0, first, n;
  char *base = call->buffer;
  for (int i = 0; req && i < win * nk; i++)
    req[i] = MPI_REQUEST_NULL;
  for (int s = 0; src >= 0 && s < nseg && s < GC_BCAST_RECV_AHEAD && rc == MPI_SUCCESS; s++) {
    piece(call, elems, s, &first, &n);
    rc = gc_pmpi_irecv(base + (MPI_Aint)first * extent, n, call->datatype, src, GC_BCAST_TREE_TAG,
                    pcomm, &rreq[s]);
  }
  for (MPI_Count s = 0; s < nseg && rc == MPI_SUCCESS; s++) {
    piece(call, elems, s, &first, &n);
    char *p = base + (MPI_Aint)first * extent;
    MPI_Request *mine = &rreq[s % GC_BCAST_RECV_AHEAD];
    if (src >= 0 && (rc = PMPI_Wait(mine, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
      break;
    MPI_Count ahead = s + GC_BCAST_RECV_AHEAD, afirst, an;
    if (src >= 0 && ahead < nseg) { /* the slot just freed takes the next segment out */
      piece(call, elems, ahead, &afirst, &an);
      rc = gc_pmpi_irecv(base + (MPI_Aint)afirst * extent, an, call->datatype, src,
                      GC_BCAST_TREE_TAG, pcomm, mine);
      if (rc != MPI_SUCCESS)
        break;
    }
    MPI_Request *slot = req ? req + (s % win) * nk : NULL;
    if (slot && s >= win && (rc = wait_all(nk, slot)) != MPI_SUCCESS)
      break;
    rc = send_children(p, n, call->datatype, kids, pcomm, slot);
    posted = s + 1;
  }
  if (rc == MPI_SUCCESS && csize > 1)
    rc = gc_pmpi_bcast(call->buffer, call->count, call->datatype, croot, ccomm);
  if (rc == MPI_SUCCESS && req)
    rc = wait_all((int)(posted < win ? posted : win) * nk, req);
  return rc;
}

int gc_bcast_tree_run(const struct gc_bcast_call *call, struct gc_comm_state *st,
                      const struct gc_tree *tree)
{
  return gc_bcast_tree_run_segmented(call, st, tree, call->segment_bytes);
}

int gc_bcast_tree_run_segmented(const struct gc_bcast_call *call, struct gc_comm_state *st,
                                const struct gc_tree *tree, size_t segment_bytes)
{
  const struct gc_layout *l = &st->layout;
  if (!tree || tree->n != l->nclusters || call->root < 0 || call->root >= l->size ||
      tree->root != l->cluster_of[call->root] || call->count < 0)
    return MPI_ERR_ARG;
  MPI_Count tsize;
  int rc;
  MPI_Aint lb, extent;
  if ((rc = PMPI_Type_size_x(call->datatype, &tsize)) != MPI_SUCCESS ||
      (rc = PMPI_Type_get_extent(call->datatype, &lb, &extent)) != MPI_SUCCESS)
    return rc;
  /* Type signatures match on every rank, so a message of no bytes is one everywhere. */
  if (call->count == 0 || tsize == 0)
    return MPI_SUCCESS;
  MPI_Comm pcomm, ccomm;
  if ((rc = gc_comm_private(st, &pcomm)) != MPI_SUCCESS ||
      (rc = gc_comm_cluster(st, &ccomm)) != MPI_SUCCESS)
    return rc;

  int me = st->rank, c = l->cluster_of[me];
  int lead = leader_of(l, tree, call->root, c);
  int croot = l->index_in_cluster[lead], csize = l->cluster_size[c];
  if (me != lead)
    return csize > 1 ? gc_pmpi_bcast(call->buffer, call->count, call->datatype, croot, ccomm)
                     : MPI_SUCCESS;

  struct kids kids = {l, tree, call->root, tree->children + tree->child_start[c],
                      tree->child_start[c + 1] - tree->child_start[c]};
  int nk = kids.n;
  int src = c == tree->root ? -1 : leader_of(l, tree, call->root, tree->parent[c]);

  /* Segments of whole elements; one segment when not asked for or not worth it. */
  MPI_Count elems = segment_bytes ? (MPI_Count)(segment_bytes / (size_t)tsize) : call->count;
  if (elems < 1)
    elems = 1;
  if (elems > call->count)
    elems = call->count;
  MPI_Count nseg = (call->count + elems - 1) / elems;
  int win = nseg < INT_MAX ? (int)nseg : INT_MAX, reqs = 0;
  if (nk > 0) {
    win = STACK_REQS / nk > 0 ? STACK_REQS / nk : 1;
    win = win < nseg ? win : (int)nseg;
    reqs = win * nk;
  }
  MPI_Request req_stack[STACK_REQS], *req = req_stack;
  if (reqs > STACK_REQS)
    req = malloc(sizeof(MPI_Request) * (size_t)reqs); /* NULL: blocking sends, still correct */
  if (nk == 0)
    req = NULL;
  rc = forward(call, extent, src, &kids, pcomm, elems, nseg, req, win, ccomm, croot, csize);
  if (req != req_stack)
    free(req);
  return rc;
}
