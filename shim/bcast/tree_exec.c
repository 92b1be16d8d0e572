/* The executor for every broadcast tree (see tree_exec.h). */
#include "tree_exec.h"

#include <limits.h>
#include <stdint.h>

#include "count.h"
#include "datatype.h"
#include "gridcoll.h"
#include "segment_schedule.h"
#include "tree_stage.h"

/* Our own tag on our own communicator: the private duplicate never carries the
 * application's messages. Calls on one communicator are ordered on every rank, and
 * MPI does not let messages between one pair overtake each other, so successive
 * broadcasts cannot mix even though they share the tag. */
#define GC_BCAST_TREE_TAG 0x6762

/* Requests kept on the stack; more children than this (a grid of hundreds of sites)
 * take the broadcast state's (bcast.h: made with the communicator's state, never per
 * call), or blocking sends where there is none. Nothing here may fail on one rank only
 * once others may be waiting for it. */
enum { STACK_REQS = GC_BCAST_SEND_REQS };

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

/* How a leader's message travels. One segment: the user's (buffer, count, datatype), as
 * PMPI_Bcast would. Several: bytes of the packed message (segment_schedule.h), cut
 * where every rank cuts whatever its datatype, sent and received as MPI_BYTE from
 * `bytes`: the user's buffer itself for a raw datatype, else a staging buffer that the
 * root fills with PMPI_Pack just before each segment leaves and that the other leaders
 * empty with PMPI_Unpack as each segment completes elements. */
struct wire {
  struct gc_bcast_segments segs;
  char *bytes;    /* NULL: one segment of the user's type */
  int staged;     /* bytes is a staging buffer */
  MPI_Count tsize;
  MPI_Aint extent;
  uint64_t done;  /* elements packed (root) or unpacked (others) so far */
};

/* Piece s: where it is and how MPI moves it. Counts are MPI_Count (MPI_Bcast_c);
 * count.h's calls take the _c entry points only where a piece does not fit an int. */
static void piece(const struct gc_bcast_call *call, const struct wire *w, MPI_Count s,
                  char **p, MPI_Count *n, MPI_Datatype *type)
{
  if (!w->bytes) {
    *p = call->buffer, *n = call->count, *type = call->datatype;
    return;
  }
  uint64_t first, len;
  gc_bcast_segment_range(&w->segs, (uint64_t)s, &first, &len);
  *p = w->bytes + first, *n = (MPI_Count)len, *type = MPI_BYTE;
}

/* Packs (root) or unpacks (other leaders) the elements that the first `end` bytes touch
 * or complete, in runs that fit PMPI_Pack's int counts (tsize <= INT_MAX: checked before
 * staging). A position other than n * tsize would break the byte cuts;
 * gc_datatype_pack_is_plain checked at MPI_Init that this MPI library packs plainly. */
static int stage_to(const struct gc_bcast_call *call, struct wire *w, uint64_t end, int pack,
                    MPI_Comm comm)
{
  uint64_t whole, touched, tsize = (uint64_t)w->tsize;
  gc_bcast_segment_elements(end, tsize, (uint64_t)call->count, &whole, &touched);
  uint64_t upto = pack ? touched : whole, run = (uint64_t)INT_MAX / tsize;
  if (run == 0)
    return MPI_ERR_INTERN; /* tree_stage.h: such a rank voted against segmenting */
  while (w->done < upto) {
    uint64_t n = upto - w->done < run ? upto - w->done : run;
    char *user = (char *)call->buffer + (MPI_Aint)w->done * w->extent;
    char *packed = w->bytes + w->done * tsize;
    int position = 0, rc;
    if (pack)
      rc = PMPI_Pack(user, (int)n, call->datatype, packed, (int)(n * tsize), &position, comm);
    else
      rc = PMPI_Unpack(packed, (int)(n * tsize), &position, user, (int)n, call->datatype, comm);
    if (rc != MPI_SUCCESS)
      return rc;
    if ((uint64_t)position != n * tsize)
      return MPI_ERR_INTERN;
    w->done += n;
  }
  return MPI_SUCCESS;
}

/* A leader's part: receive from src (-1 at the root) and forward to its kids, segment
 * by segment. Up to GC_BCAST_RECV_AHEAD receives are posted ahead; each segment is
 * forwarded as soon as it is in (the root packs it first when staged), then unpacked
 * while its sends proceed; the sends of the last `win` segments may be in flight (win*nk
 * requests in req; NULL: blocking sends). The cluster's own broadcast then overlaps the
 * last sends: the leader's buffer is only read by both (MPI-3 allows reading a buffer
 * that pending sends use), and a staging buffer is not touched by it at all. */
static int forward(const struct gc_bcast_call *call, struct wire *w, int src,
                   const struct kids *kids, MPI_Comm pcomm, MPI_Request *req, int win,
                   MPI_Comm ccomm, int croot, int csize)
{
  int nk = kids->n;
  MPI_Count nseg = (MPI_Count)w->segs.n;
  MPI_Request rreq[GC_BCAST_RECV_AHEAD];
  int rc = MPI_SUCCESS;
  MPI_Count posted = 0, n;
  MPI_Datatype type;
  char *p;
  for (int i = 0; req && i < win * nk; i++)
    req[i] = MPI_REQUEST_NULL;
  for (int s = 0; src >= 0 && s < nseg && s < GC_BCAST_RECV_AHEAD && rc == MPI_SUCCESS; s++) {
    piece(call, w, s, &p, &n, &type);
    rc = gc_pmpi_irecv(p, n, type, src, GC_BCAST_TREE_TAG, pcomm, &rreq[s]);
  }
  for (MPI_Count s = 0; s < nseg && rc == MPI_SUCCESS; s++) {
    uint64_t first, len;
    gc_bcast_segment_range(&w->segs, (uint64_t)s, &first, &len);
    MPI_Request *mine = &rreq[s % GC_BCAST_RECV_AHEAD];
    if (src >= 0 && (rc = PMPI_Wait(mine, MPI_STATUS_IGNORE)) != MPI_SUCCESS)
      break;
    MPI_Count ahead = s + GC_BCAST_RECV_AHEAD;
    if (src >= 0 && ahead < nseg) { /* the slot just freed takes the next segment out */
      piece(call, w, ahead, &p, &n, &type);
      if ((rc = gc_pmpi_irecv(p, n, type, src, GC_BCAST_TREE_TAG, pcomm, mine)) != MPI_SUCCESS)
        break;
    }
    if (src < 0 && w->staged && (rc = stage_to(call, w, first + len, 1, pcomm)) != MPI_SUCCESS)
      break;
    MPI_Request *slot = req ? req + (s % win) * nk : NULL;
    if (slot && s >= win && (rc = wait_all(nk, slot)) != MPI_SUCCESS)
      break;
    piece(call, w, s, &p, &n, &type);
    rc = send_children(p, n, type, kids, pcomm, slot);
    posted = s + 1;
    if (rc == MPI_SUCCESS && src >= 0 && w->staged)
      rc = stage_to(call, w, first + len, 0, pcomm);
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

  /* Segments in bytes of the message, from (m, segment_bytes) that every rank has: all
   * cut in the same places whatever their datatypes (segment_schedule.h). */
  struct wire w = {.segs = gc_bcast_segments_make((uint64_t)call->count * (uint64_t)tsize,
                                                  segment_bytes),
                   .tsize = tsize, .extent = extent};
  struct gc_bcast_stage stage = {NULL, NULL};
  if (w.segs.n > 1) {
    int raw = gc_datatype_is_raw(call->datatype);
    /* A leader packs elements in runs of PMPI_Pack's int byte counts: one element larger
     * than that (m is then larger than any cache) cannot be staged; it votes no. */
    int need = me == lead && !raw ? (tsize <= INT_MAX ? 1 : -1) : 0;
    struct gc_bcast_state *b = gc_bcast_state(st);
    rc = gc_bcast_stage_get(pcomm, b ? &b->stage : NULL, (size_t)w.segs.bytes, need, &stage);
    if (rc == GC_FALLBACK) /* agreed on every rank: one segment, no staging */
      w.segs = gc_bcast_segments_make(w.segs.bytes, 0);
    else if (rc != MPI_SUCCESS)
      return rc;
    else if (w.segs.n > 1)
      w.bytes = raw ? call->buffer : stage.buf, w.staged = !raw;
  }
  if (me != lead) {
    gc_bcast_stage_release(&stage);
    return csize > 1 ? gc_pmpi_bcast(call->buffer, call->count, call->datatype, croot, ccomm)
                     : MPI_SUCCESS;
  }

  struct kids kids = {l, tree, call->root, tree->children + tree->child_start[c],
                      tree->child_start[c + 1] - tree->child_start[c]};
  int nk = kids.n;
  int src = c == tree->root ? -1 : leader_of(l, tree, call->root, tree->parent[c]);
  uint64_t nseg = w.segs.n;
  int win = nseg < INT_MAX ? (int)nseg : INT_MAX, reqs = 0;
  if (nk > 0) {
    win = STACK_REQS / nk > 0 ? STACK_REQS / nk : 1;
    win = (uint64_t)win < nseg ? win : (int)nseg;
    reqs = win * nk;
  }
  MPI_Request req_stack[STACK_REQS], *req = req_stack;
  if (reqs > STACK_REQS) { /* nk > STACK_REQS, win 1: nk <= k - 1 requests */
    struct gc_bcast_state *b = gc_bcast_state(st);
    req = b ? b->reqs : NULL; /* NULL: blocking sends, still correct */
  }
  if (nk == 0)
    req = NULL;
  rc = forward(call, &w, src, &kids, pcomm, req, win, ccomm, croot, csize);
  gc_bcast_stage_release(&stage);
  return rc;
}
