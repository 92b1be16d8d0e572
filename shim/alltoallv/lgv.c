/* LG-v executor: LG's two phases for MPI_Alltoallv, on the plan of lgv_schedule.h.
 *
 * One call, in order:
 *   1. my block sizes from my counts; anything LG-v cannot carry here (a block or a
 *      count beyond an int, a buffer it cannot allocate) makes me "not ok", and a rank
 *      that is not ok still takes part, sending empty messages;
 *   2. size messages inside my cluster: each stager learns what it will carry;
 *   3. one allreduce on my cluster (local, cheap): whether every member is ok, and my
 *      cluster's row of byte totals (for the history, alltoallv.h);
 *   4. the wide receives are posted; when my cluster is ok, the staged parts move, each
 *      wide send leaving as soon as its blocks are in, then the direct blocks; when it is
 *      not, every wide send leaves empty. Every wide message carries its cluster's verdict
 *      in the tag and its row of totals (k 64-bit integers) as a trailer;
 *   5. every rank gets a wide message from every other cluster (LG's placement), so all
 *      learn the same verdict before anything is written to recvbuf: deliver, or all
 *      fall back together (GC_FALLBACK) with recvbuf untouched (MPI_IN_PLACE included).
 * No wide-area agreement is spent on the timed path; the one on a communicator's first
 * LG-v call agrees that every rank could build its schedule.
 * Blocks travel packed (PMPI_Pack/PMPI_Unpack with the caller's types, as LG does), so
 * any datatype stays byte-identical to PMPI_Alltoallv. */
#include "alltoallv.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gridcoll.h"
#include "lgv_schedule.h"

#define TAG_SIZES (GC_ALLTOALLV_LG_TAG & ~1)
#define TAG_STAGE (TAG_SIZES + 2)
#define TAG_WIDE (TAG_SIZES + 4)
#define TAG_DIRECT (TAG_SIZES + 6)

struct gc_lgv_ctx {
  struct gc_alltoall_lg_schedule s;
  struct gc_alltoallv_lg_plan p;
  long long *send_bytes, *recv_bytes; /* [n] */
  int *wide_of;                       /* stage slot -> wide send holding it, -1 */
  int *pending;                       /* [nwide_send] staged blocks still to come */
  MPI_Aint *displs;                   /* [max_wide_send + 1] */
  int *lens;                          /* [max_wide_send + 1] */
  MPI_Request *reqs;
  long long *row;   /* [k + 1]: not-ok members, then my cluster's row of totals */
  long long *rows;  /* [nwide_recv * k]: the trailers received */
};

/* One call. */
struct lgv_run {
  struct gc_lgv_ctx *x;
  const struct gc_alltoallv_call *call;
  MPI_Comm priv, cluster;
  char *P, *S, *R; /* send, stage and wide areas (R: NULL when draining) */
  size_t trailer;  /* k 64-bit totals, bytes */
  int ok;          /* mine, then my cluster's, then everyone's */
  int nreq;
};

void gc_alltoallv_lg_free(struct gc_lgv_ctx *x)
{
  if (!x)
    return;
  gc_alltoallv_lg_plan_free(&x->p);
  gc_alltoall_lg_schedule_free(&x->s);
  free(x->send_bytes), free(x->recv_bytes), free(x->wide_of), free(x->pending);
  free(x->displs), free(x->lens), free(x->reqs), free(x->row), free(x->rows);
  free(x);
}

static struct gc_lgv_ctx *ctx_build(const struct gc_comm_state *st)
{
  struct gc_lgv_ctx *x = calloc(1, sizeof *x);
  if (!x)
    return NULL;
  if (gc_alltoall_lg_schedule_build(&x->s, &st->layout, st->rank) != 0) {
    free(x);
    return NULL;
  }
  const struct gc_alltoall_lg_schedule *s = &x->s;
  size_t n = (size_t)st->size, k = (size_t)st->layout.nclusters, c = (size_t)s->cluster_size;
  x->send_bytes = malloc(sizeof(long long) * n);
  x->recv_bytes = malloc(sizeof(long long) * n);
  x->wide_of = malloc(sizeof(int) * ((size_t)s->stage_blocks + 1));
  x->pending = malloc(sizeof(int) * ((size_t)s->nwide_send + 1));
  x->displs = malloc(sizeof(MPI_Aint) * ((size_t)s->max_wide_send + 2));
  x->lens = malloc(sizeof(int) * ((size_t)s->max_wide_send + 2));
  x->reqs = malloc(sizeof(MPI_Request) * (6 * c + (size_t)s->nwide_send + (size_t)s->nwide_recv + 1));
  x->row = malloc(sizeof(long long) * (k + 1));
  x->rows = malloc(sizeof(long long) * k * ((size_t)s->nwide_recv + 1));
  if (gc_alltoallv_lg_plan_init(&x->p, s) != 0 || !x->send_bytes || !x->recv_bytes ||
      !x->wide_of || !x->pending || !x->displs || !x->lens || !x->reqs || !x->row || !x->rows) {
    gc_alltoallv_lg_free(x);
    return NULL;
  }
  for (int i = 0; i < s->stage_blocks; i++)
    x->wide_of[i] = -1;
  for (int w = 0; w < s->nwide_send; w++)
    for (int t = 0; t < s->wide_send[w].count; t++)
      x->wide_of[s->blocks[s->wide_send[w].first + t].index] = w;
  return x;
}

/* The schedule, built on the first LG-v call of the communicator; every rank makes that
 * call, so whether all could build it is agreed once there (on the private duplicate).
 * MPI_SUCCESS, GC_FALLBACK (agreed: some rank could not, none keeps one) or an error. */
static int ctx_get(struct gc_comm_state *st, struct gc_alltoallv_state *vs, MPI_Comm priv,
                   struct gc_lgv_ctx **out)
{
  if (vs && vs->lg) {
    *out = vs->lg;
    return MPI_SUCCESS;
  }
  struct gc_lgv_ctx *x = vs ? ctx_build(st) : NULL;
  int ok = x != NULL;
  if (vs && !ok) /* ctx_build fails only for memory; vs is state.c's to report */
    gc_warn_oom("LG-v's schedule on communicator %llu; every rank runs this MPI_Alltoallv "
                "by the MPI library", st->id);
  int rc = PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, priv);
  if (rc != MPI_SUCCESS || !ok) {
    gc_alltoallv_lg_free(x);
    return rc != MPI_SUCCESS ? rc : GC_FALLBACK;
  }
  vs->lg = *out = x;
  return MPI_SUCCESS;
}

/* Step 1: block sizes; 0 when some block is beyond what this executor carries. */
static int sizes(struct lgv_run *r)
{
  const struct gc_alltoallv_call *c = r->call;
  int in_place = c->sendbuf == MPI_IN_PLACE, ok = 1;
  const void *sc = in_place ? c->recvcounts : c->sendcounts;
  MPI_Count ssize = in_place ? c->recv_size : c->send_size;
  for (int i = 0; i < c->size; i++) {
    MPI_Count scount = gc_alltoallv_count(sc, c->large, i);
    MPI_Count rcount = gc_alltoallv_count(c->recvcounts, c->large, i);
    /* Pack and Unpack take int counts and sizes. */
    ok &= scount <= INT_MAX && rcount <= INT_MAX && (ssize == 0 || scount <= INT_MAX / ssize) &&
          (c->recv_size == 0 || rcount <= INT_MAX / c->recv_size);
    r->x->send_bytes[i] = ok ? (long long)(scount * ssize) : 0;
    r->x->recv_bytes[i] = ok ? (long long)(rcount * c->recv_size) : 0;
  }
  if (!ok) /* send nothing, expect nothing: the messages still flow, empty */
    for (int i = 0; i < c->size; i++)
      r->x->send_bytes[i] = r->x->recv_bytes[i] = 0;
  return ok;
}

/* Step 2: the size messages on my cluster. */
static int exchange_sizes(struct lgv_run *r)
{
  const struct gc_alltoall_lg_schedule *s = &r->x->s;
  int nreq = 0, rc = MPI_SUCCESS, count;
  for (int q = 0; rc == MPI_SUCCESS && q < s->cluster_size; q++) {
    long long *in = gc_alltoallv_lg_plan_sizes(&r->x->p, q, 0, &count);
    if (count > 0 && (rc = PMPI_Irecv(in, count, MPI_LONG_LONG, q, TAG_SIZES, r->cluster,
                                      &r->x->reqs[nreq])) == MPI_SUCCESS)
      nreq++;
  }
  for (int q = 0; rc == MPI_SUCCESS && q < s->cluster_size; q++) {
    long long *out = gc_alltoallv_lg_plan_sizes(&r->x->p, q, 1, &count);
    if (count > 0 && (rc = PMPI_Isend(out, count, MPI_LONG_LONG, q, TAG_SIZES, r->cluster,
                                      &r->x->reqs[nreq])) == MPI_SUCCESS)
      nreq++;
  }
  for (int i = 0; i < nreq; i++) {
    int w = PMPI_Wait(&r->x->reqs[i], MPI_STATUS_IGNORE);
    rc = rc == MPI_SUCCESS ? w : rc;
  }
  return rc;
}

static void *area(size_t bytes)
{
  return malloc(bytes ? bytes : 1);
}

/* My blocks into the send area, in local-send order (MPI_IN_PLACE: out of recvbuf,
 * before anything is written to it). 0, or -1 when a block does not pack to its size. */
static int pack(struct lgv_run *r)
{
  const struct gc_alltoallv_call *c = r->call;
  const struct gc_alltoall_lg_schedule *s = &r->x->s;
  int in_place = c->sendbuf == MPI_IN_PLACE;
  const char *buf = in_place ? c->recvbuf : c->sendbuf;
  const void *counts = in_place ? c->recvcounts : c->sendcounts;
  const void *displs = in_place ? c->rdispls : c->sdispls;
  MPI_Datatype type = in_place ? c->recvtype : c->sendtype;
  MPI_Aint lb, extent;
  if (PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS)
    return -1;
  for (int q = 0; q < s->cluster_size; q++)
    for (int t = s->local_send[q].first; t < s->local_send[q].first + s->local_send[q].count; t++) {
      int d = s->blocks[t].dst, pos = 0, bytes = (int)r->x->p.bytes[t];
      if (bytes == 0)
        continue;
      if (PMPI_Pack(buf + gc_alltoallv_displ(displs, c->large, d) * extent,
                    (int)gc_alltoallv_count(counts, c->large, d), type, r->P + r->x->p.offset[t],
                    bytes, &pos, r->priv) != MPI_SUCCESS || pos != bytes)
        return -1;
    }
  return 0;
}

/* Messages beyond an int of bytes are beyond this executor: not ok (checked before the
 * verdict, so every rank hears of it). */
static int fits(const struct gc_alltoallv_lg_plan *p, size_t trailer)
{
  return p->max_msg <= INT_MAX - (long long)trailer;
}

/* One wide send: its blocks from the stage area and the trailer, gathered by an
 * hindexed type on absolute addresses. An empty verdict-only send when not ok. */
static int wide_send(struct lgv_run *r, int w, int ok)
{
  struct gc_lgv_ctx *x = r->x;
  const struct gc_alltoall_lg_msg *m = &x->s.wide_send[w];
  int n = 0, rc;
  for (int t = m->first; ok && t < m->first + m->count; t++)
    if (x->p.bytes[t] > 0) {
      PMPI_Get_address(r->S + x->p.offset[t], &x->displs[n]);
      x->lens[n++] = (int)x->p.bytes[t];
    }
  PMPI_Get_address(x->row + 1, &x->displs[n]);
  x->lens[n++] = (int)r->trailer;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  rc = PMPI_Type_create_hindexed(n, x->lens, x->displs, MPI_BYTE, &type);
  if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(&type)) == MPI_SUCCESS &&
      (rc = PMPI_Isend(MPI_BOTTOM, 1, type, m->peer, TAG_WIDE | (ok != 0), r->priv,
                       &x->reqs[r->nreq])) == MPI_SUCCESS)
    r->nreq++;
  if (type != MPI_DATATYPE_NULL) /* freeing a type in use by a pending send is allowed */
    PMPI_Type_free(&type);
  return rc;
}

/* The staged part from member q is in: wide sends whose last block it was leave. */
static int staged(struct lgv_run *r, int q)
{
  struct gc_lgv_ctx *x = r->x;
  const struct gc_alltoall_lg_msg *in = &x->s.local_recv[q];
  int rc = MPI_SUCCESS;
  for (int t = in->first + 1; rc == MPI_SUCCESS && t < in->first + in->count; t++) {
    int w = x->wide_of[x->s.blocks[t].index];
    if (w >= 0 && --x->pending[w] == 0)
      rc = wide_send(r, w, 1);
  }
  return rc;
}

/* Steps 1 and 2 and the areas' layout: every message's size known to both its ends. r->ok
 * is 0 where this rank cannot carry its part (its cluster learns it in step 3). */
static int lay_out(struct lgv_run *r)
{
  struct gc_lgv_ctx *x = r->x;
  r->ok = sizes(r);
  gc_alltoallv_lg_plan_known(&x->p, x->send_bytes, x->recv_bytes); /* sizes are >= 0 */
  int rc = exchange_sizes(r);
  if (rc != MPI_SUCCESS)
    return rc;
  if (gc_alltoallv_lg_plan_layout(&x->p) != 0) { /* a peer's sizes cannot be laid out */
    r->ok = 0;
    for (int e = 0; e < x->s.nblocks; e++)
      x->p.bytes[e] = 0;
    gc_alltoallv_lg_plan_layout(&x->p);
  }
  r->ok &= fits(&x->p, r->trailer);
  return MPI_SUCCESS;
}

/* Step 4. Returns MPI_SUCCESS or the first PMPI error; waits for all it posted. */
static int exchange(struct lgv_run *r)
{
  struct gc_lgv_ctx *x = r->x;
  const struct gc_alltoall_lg_schedule *s = &x->s;
  const struct gc_alltoallv_lg_plan *p = &x->p;
  int c = s->cluster_size, me = s->index, rc = MPI_SUCCESS;
  long long k = (long long)r->trailer / (long long)sizeof(long long);
  MPI_Request *wide = x->reqs, *stage = wide + s->nwide_recv;
  char drain = 0;
  r->nreq = s->nwide_recv + c; /* the rest of reqs: sends and direct receives */
  for (int i = 0; i < s->nwide_recv + c; i++)
    x->reqs[i] = MPI_REQUEST_NULL;
  for (int w = 0; w < s->nwide_send; w++)
    x->pending[w] = s->wide_send[w].count;
  /* Wide receives: data then trailer, contiguous in R (trailers after the data area). */
  for (int i = 0; rc == MPI_SUCCESS && i < s->nwide_recv; i++) {
    long long off = p->offset[s->wide_recv[i].first];
    if (r->R) {
      /* Contiguous data and trailer: receive the data part into R, the trailer beside
       * it with one hindexed type on absolute addresses. */
      MPI_Aint d[2];
      int len[2] = {(int)p->wide_recv_bytes[i], (int)r->trailer};
      PMPI_Get_address(r->R + off, &d[0]);
      PMPI_Get_address(x->rows + (size_t)i * (size_t)k, &d[1]);
      MPI_Datatype type = MPI_DATATYPE_NULL;
      rc = PMPI_Type_create_hindexed(2, len, d, MPI_BYTE, &type);
      if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(&type)) == MPI_SUCCESS)
        rc = PMPI_Irecv(MPI_BOTTOM, 1, type, s->wide_recv[i].peer, MPI_ANY_TAG, r->priv, &wide[i]);
      if (type != MPI_DATATYPE_NULL)
        PMPI_Type_free(&type);
    } /* else: drained below, blocking */
  }
  if (!r->ok) { /* my cluster is not ok: verdict-only wide sends, no local data */
    for (int w = 0; rc == MPI_SUCCESS && w < s->nwide_send; w++)
      rc = wide_send(r, w, 0);
  } else {
    for (int q = 0; rc == MPI_SUCCESS && q < c; q++)
      if (q != me && p->recv_staged[q] > 0)
        rc = PMPI_Irecv(r->S + p->offset[s->local_recv[q].first + 1], (int)p->recv_staged[q],
                        MPI_BYTE, q, TAG_STAGE, r->cluster, &stage[q]);
    for (int i = 1; rc == MPI_SUCCESS && i <= c; i++) { /* from me + 1 on: spread the load */
      int q = (me + i) % c;
      if (q == me) {
        memcpy(r->S + p->offset[s->local_recv[me].first], r->P + p->offset[s->local_send[me].first],
               (size_t)(p->send_direct[me] + p->send_staged[me]));
        rc = staged(r, me);
      } else if (p->send_staged[q] > 0 &&
                 (rc = PMPI_Isend(r->P + p->offset[s->local_send[q].first + 1],
                                  (int)p->send_staged[q], MPI_BYTE, q, TAG_STAGE, r->cluster,
                                  &x->reqs[r->nreq])) == MPI_SUCCESS) {
        r->nreq++;
      }
    }
    for (int q = 0; rc == MPI_SUCCESS && q < c; q++) /* nothing staged: nothing to wait for */
      if (q != me && p->recv_staged[q] == 0)
        rc = staged(r, q);
    while (rc == MPI_SUCCESS) { /* until every staged part is in */
      int q;
      if ((rc = PMPI_Waitany(c, stage, &q, MPI_STATUS_IGNORE)) != MPI_SUCCESS || q == MPI_UNDEFINED)
        break;
      rc = staged(r, q);
    }
    /* The direct blocks, while the wide area is busy. */
    for (int i = 1; rc == MPI_SUCCESS && i < c; i++) {
      int q = (me + c - i) % c;
      if (p->recv_direct[q] > 0 &&
          (rc = PMPI_Irecv(r->S + p->offset[s->local_recv[q].first], (int)p->recv_direct[q],
                           MPI_BYTE, s->local_recv[q].peer, TAG_DIRECT, r->priv,
                           &x->reqs[r->nreq])) == MPI_SUCCESS)
        r->nreq++;
    }
    for (int i = 1; rc == MPI_SUCCESS && i < c; i++) {
      int q = (me + i) % c;
      if (p->send_direct[q] > 0 &&
          (rc = PMPI_Isend(r->P + p->offset[s->local_send[q].first], (int)p->send_direct[q],
                           MPI_BYTE, s->local_send[q].peer, TAG_DIRECT, r->priv,
                           &x->reqs[r->nreq])) == MPI_SUCCESS)
        r->nreq++;
    }
  }
  /* I am not ok and have nowhere to put the wide data: only the verdict matters. A
   * blocking receive of 0 bytes consumes the message and returns MPI_ERR_TRUNCATE on
   * the private duplicate (errors return); a nonblocking one would report it through
   * MPICH's MPI_Wait, which aborts. Every sender's message leaves whatever I do. */
  for (int i = 0; !r->R && i < s->nwide_recv; i++)
    PMPI_Recv(&drain, 0, MPI_BYTE, s->wide_recv[i].peer, MPI_ANY_TAG, r->priv, MPI_STATUS_IGNORE);
  /* Even after an error, wait for what was posted: it uses our buffers. */
  int wrc = MPI_SUCCESS;
  for (int i = 0; i < s->nwide_recv; i++) {
    MPI_Status status;
    int w = PMPI_Wait(&wide[i], &status);
    if (!r->R) /* drained (I am not ok): it reports its truncation, nothing else */
      continue;
    if (w == MPI_SUCCESS)
      r->ok &= status.MPI_TAG == (TAG_WIDE | 1);
    wrc = wrc == MPI_SUCCESS ? w : wrc;
  }
  for (int i = s->nwide_recv; i < r->nreq; i++) {
    int w = PMPI_Wait(&x->reqs[i], MPI_STATUS_IGNORE);
    wrc = wrc == MPI_SUCCESS ? w : wrc;
  }
  return rc != MPI_SUCCESS ? rc : wrc;
}

/* Step 5: every block addressed to me into recvbuf. */
static int deliver(struct lgv_run *r)
{
  const struct gc_alltoallv_call *c = r->call;
  const struct gc_alltoall_lg_schedule *s = &r->x->s;
  const struct gc_alltoallv_lg_plan *p = &r->x->p;
  MPI_Aint lb, extent;
  int rc = PMPI_Type_get_extent(c->recvtype, &lb, &extent);
  /* Direct blocks: the first entry of each local receive. */
  for (int q = 0; rc == MPI_SUCCESS && q < s->cluster_size; q++) {
    int e = s->local_recv[q].first, src = s->blocks[e].src, pos = 0;
    if (p->bytes[e] > 0)
      rc = PMPI_Unpack(r->S + p->offset[e], (int)p->bytes[e], &pos,
                       (char *)c->recvbuf + gc_alltoallv_displ(c->rdispls, c->large, src) * extent,
                       (int)gc_alltoallv_count(c->recvcounts, c->large, src), c->recvtype, r->priv);
  }
  for (int i = 0; rc == MPI_SUCCESS && i < s->nwide_recv; i++)
    for (int e = s->wide_recv[i].first; rc == MPI_SUCCESS && e < s->wide_recv[i].first + s->wide_recv[i].count; e++) {
      int src = s->blocks[e].src, pos = 0;
      if (p->bytes[e] > 0)
        rc = PMPI_Unpack(r->R + p->offset[e], (int)p->bytes[e], &pos,
                         (char *)c->recvbuf + gc_alltoallv_displ(c->rdispls, c->large, src) * extent,
                         (int)gc_alltoallv_count(c->recvcounts, c->large, src), c->recvtype, r->priv);
    }
  return rc;
}

/* Every rank now holds every cluster's row: mine from the allreduce, the others from the
 * trailers (one message from each remote cluster at least). */
static void learn(struct lgv_run *r, const struct gc_comm_state *st,
                  struct gc_alltoallv_state *vs)
{
  const struct gc_alltoall_lg_schedule *s = &r->x->s;
  int k = st->layout.nclusters;
  if (!vs || !vs->bytes)
    return;
  double total = 0;
  for (int d = 0; d < k; d++)
    vs->bytes[s->cluster * k + d] = (double)r->x->row[1 + d];
  for (int i = 0; i < s->nwide_recv; i++) {
    int from = st->layout.cluster_of[s->wide_recv[i].peer];
    for (int d = 0; d < k; d++)
      vs->bytes[from * k + d] = (double)r->x->rows[(size_t)i * (size_t)k + (size_t)d];
  }
  for (int i = 0; i < k * k; i++)
    total += vs->bytes[i];
  vs->total = total;
  vs->known = 1;
  vs->lg_calls = vs->calls;
}

/* A run's communicators and the schedule: MPI_SUCCESS, GC_FALLBACK (agreed) or an error. */
static int run_open(struct lgv_run *r, const struct gc_alltoallv_call *call,
                    struct gc_comm_state *st)
{
  *r = (struct lgv_run){.call = call, .ok = 1,
                        .trailer = sizeof(long long) * (size_t)st->layout.nclusters};
  int rc = gc_comm_private(st, &r->priv);
  if (rc == MPI_SUCCESS)
    rc = gc_comm_cluster(st, &r->cluster);
  if (rc == MPI_SUCCESS)
    rc = ctx_get(st, gc_alltoallv_state(st), r->priv, &r->x);
  return rc;
}

int gc_alltoallv_lg_layout(const struct gc_alltoallv_call *call, struct gc_comm_state *st,
                           const struct gc_alltoallv_lg_plan **plan, int *ok)
{
  struct lgv_run r;
  int rc = run_open(&r, call, st);
  if (rc == MPI_SUCCESS)
    rc = lay_out(&r);
  *ok = rc == MPI_SUCCESS && r.ok;
  *plan = rc == MPI_SUCCESS ? &r.x->p : NULL;
  return rc;
}

int gc_alltoallv_lg_run(const void *vcall, struct gc_comm_state *st, const struct gc_plan *plan)
{
  (void)plan;
  const struct gc_alltoallv_call *call = vcall;
  struct gc_alltoallv_state *vs = gc_alltoallv_state(st);
  struct lgv_run r;
  int rc = run_open(&r, call, st);
  if (rc != MPI_SUCCESS)
    return rc;
  struct gc_lgv_ctx *x = r.x;
  int k = st->layout.nclusters;
  if ((rc = lay_out(&r)) != MPI_SUCCESS)
    return rc;
  if (r.ok) {
    r.P = area((size_t)x->p.send_area);
    r.S = area((size_t)x->p.stage_area);
    r.R = area((size_t)x->p.wide_area);
    if (!r.P || !r.S || !r.R) /* my cluster's verdict and the tags carry it to all */
      gc_warn_oom("LG-v's buffers of %lld bytes on communicator %llu; every rank runs this "
                  "MPI_Alltoallv by the MPI library",
                  x->p.send_area + x->p.stage_area + x->p.wide_area, st->id);
    r.ok = r.P && r.S && r.R && pack(&r) == 0;
  }
  /* Step 3: my cluster's verdict and row of totals. */
  x->row[0] = !r.ok;
  for (int d = 0; d < k; d++)
    x->row[1 + d] = 0;
  for (int i = 0; i < st->size; i++)
    x->row[1 + st->layout.cluster_of[i]] += x->send_bytes[i];
  rc = PMPI_Allreduce(MPI_IN_PLACE, x->row, k + 1, MPI_LONG_LONG, MPI_SUM, r.cluster);
  if (rc == MPI_SUCCESS) {
    r.ok = x->row[0] == 0;
    rc = exchange(&r);
  }
  if (rc == MPI_SUCCESS && r.ok) {
    rc = deliver(&r);
    learn(&r, st, vs);
  } else if (rc == MPI_SUCCESS) {
    rc = GC_FALLBACK;
  }
  free(r.P), free(r.S), free(r.R);
  return rc;
}
