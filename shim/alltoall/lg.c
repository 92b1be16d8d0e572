/* LG all-to-all executor: the local phase is one PMPI_Alltoallv on the cluster
 * sub-communicator (so the MPI library's tuned local algorithm moves the data), the wide
 * area phase nonblocking point-to-point on the private duplicate. Blocks travel as packed
 * bytes: PMPI_Pack / PMPI_Unpack with the caller's types keep any datatype byte-identical to
 * PMPI_Alltoall, and a contiguous unit of one block (m bytes) keeps counts and
 * displacements small however large the total. */
#include "lg.h"
#include "alltoall_predict.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "lg_schedule.h"

struct lg_run {
  struct gc_alltoall_lg_schedule s;
  size_t m;
  MPI_Comm priv, cluster;
  char *area;        /* n blocks: packed for the local phase, then the wide receives */
  char *stage;       /* s.stage_blocks: what the local phase received */
  int *counts;       /* 4 * cluster_size: send counts, send displs, recv counts, recv displs */
  MPI_Aint *displs;  /* s.max_wide_send byte displacements into stage */
  MPI_Request *reqs; /* s.nwide_send + s.nwide_recv */
  MPI_Datatype unit; /* m bytes */
};

int gc_alltoall_lg_supports(const struct gc_alltoall_call *call, const struct gc_comm_state *st)
{
  /* Beyond gc_alltoall_lg_applies: a block the m-byte unit type can describe. */
  return gc_alltoall_lg_applies(&st->layout) && st->layout.size <= INT_MAX / 8 &&
         call->block_bytes <= INT_MAX;
}

static void lg_free(struct lg_run *r)
{
  gc_alltoall_lg_schedule_free(&r->s);
  free(r->area);
  free(r->stage);
  free(r->counts);
  free(r->displs);
  free(r->reqs);
  if (r->unit != MPI_DATATYPE_NULL)
    PMPI_Type_free(&r->unit);
}

/* Schedule and buffers; 0, or -1 when something could not be allocated. */
static int lg_alloc(struct lg_run *r, const struct gc_comm_state *st)
{
  if (gc_alltoall_lg_schedule_build(&r->s, &st->layout, st->rank) != 0)
    return -1;
  size_t n = (size_t)st->size, c = (size_t)r->s.cluster_size;
  if (r->m > SIZE_MAX / (n + (size_t)r->s.stage_blocks))
    return -1;
  r->area = malloc(n * r->m);
  r->stage = malloc((size_t)r->s.stage_blocks * r->m);
  r->counts = malloc(sizeof(int) * 4 * c);
  r->displs = malloc(sizeof(MPI_Aint) * ((size_t)r->s.max_wide_send + 1));
  r->reqs = malloc(sizeof(MPI_Request) * ((size_t)r->s.nwide_send + (size_t)r->s.nwide_recv + 1));
  return r->area && r->stage && r->counts && r->displs && r->reqs ? 0 : -1;
}

/* Packs my n blocks into area in local-send order (MPI_IN_PLACE: from recvbuf, before
 * anything writes to it). 0, or -1 when a block does not pack into exactly m bytes. */
static int lg_pack(struct lg_run *r, const struct gc_alltoall_call *call)
{
  const char *buf = call->sendbuf;
  int count = call->sendcount, size;
  MPI_Datatype type = call->sendtype;
  MPI_Aint lb, extent;
  if (call->sendbuf == MPI_IN_PLACE)
    buf = call->recvbuf, count = call->recvcount, type = call->recvtype;
  if (PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Pack_size(count, type, r->priv, &size) != MPI_SUCCESS || (size_t)size != r->m)
    return -1;
  for (int q = 0; q < r->s.cluster_size; q++) {
    const struct gc_alltoall_lg_msg *msg = &r->s.local_send[q];
    for (int t = 0; t < msg->count; t++) {
      int pos = 0, d = r->s.blocks[msg->first + t].index;
      char *out = r->area + (size_t)(msg->offset + t) * r->m;
      if (PMPI_Pack(buf + (MPI_Aint)d * count * extent, count, type, out, (int)r->m, &pos,
                    r->priv) != MPI_SUCCESS || (size_t)pos != r->m)
        return -1;
    }
  }
  return 0;
}

/* Unpacks the m bytes at `from` into recvbuf's block `src`. */
static int lg_unpack(const struct lg_run *r, const struct gc_alltoall_call *call,
                     const char *from, int src, MPI_Aint extent)
{
  int pos = 0;
  char *to = (char *)call->recvbuf + (MPI_Aint)src * call->recvcount * extent;
  return PMPI_Unpack(from, (int)r->m, &pos, to, call->recvcount, call->recvtype, r->priv);
}

static int lg_local_phase(struct lg_run *r)
{
  int c = r->s.cluster_size, *sc = r->counts, *sd = sc + c, *rc = sd + c, *rd = rc + c;
  for (int q = 0; q < c; q++) {
    sc[q] = r->s.local_send[q].count, sd[q] = r->s.local_send[q].offset;
    rc[q] = r->s.local_recv[q].count, rd[q] = r->s.local_recv[q].offset;
  }
  return PMPI_Alltoallv(r->area, sc, sd, r->unit, r->stage, rc, rd, r->unit, r->cluster);
}

/* One wide send: its blocks are scattered over the staging area (they came from different
 * members), so it is described by an hindexed type instead of being copied. */
static int lg_isend(struct lg_run *r, const struct gc_alltoall_lg_msg *msg, MPI_Request *req)
{
  const struct gc_alltoall_lg_block *b = r->s.blocks + msg->first;
  int consecutive = 1, rc;
  for (int t = 0; t < msg->count; t++) {
    r->displs[t] = (MPI_Aint)b[t].index * (MPI_Aint)r->m;
    consecutive &= b[t].index == b[0].index + t;
  }
  if (consecutive)
    return PMPI_Isend(r->stage + r->displs[0], msg->count, r->unit, msg->peer,
                      GC_ALLTOALL_LG_TAG, r->priv, req);
  MPI_Datatype type = MPI_DATATYPE_NULL;
  rc = PMPI_Type_create_hindexed_block(msg->count, 1, r->displs, r->unit, &type);
  if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(&type)) == MPI_SUCCESS)
    rc = PMPI_Isend(r->stage, 1, type, msg->peer, GC_ALLTOALL_LG_TAG, r->priv, req);
  if (type != MPI_DATATYPE_NULL) /* freeing a type in use by a pending send is allowed */
    PMPI_Type_free(&type);
  return rc;
}

/* Wide-area phase, then every block addressed to me into recvbuf. */
static int lg_wide_phase(struct lg_run *r, const struct gc_alltoall_call *call)
{
  const struct gc_alltoall_lg_schedule *s = &r->s;
  MPI_Aint lb, extent;
  int rc = PMPI_Type_get_extent(call->recvtype, &lb, &extent), nreq = 0;
  for (int i = 0; rc == MPI_SUCCESS && i < s->nwide_recv; i++) /* area is free again */
    if ((rc = PMPI_Irecv(r->area + (size_t)s->wide_recv[i].offset * r->m, s->wide_recv[i].count,
                         r->unit, s->wide_recv[i].peer, GC_ALLTOALL_LG_TAG, r->priv,
                         &r->reqs[nreq])) == MPI_SUCCESS)
      nreq++;
  for (int i = 0; rc == MPI_SUCCESS && i < s->nwide_send; i++)
    if ((rc = lg_isend(r, &s->wide_send[i], &r->reqs[nreq])) == MPI_SUCCESS)
      nreq++;
  for (int q = 0; rc == MPI_SUCCESS && q < s->cluster_size; q++) /* direct blocks */
    for (int t = 0; rc == MPI_SUCCESS && t < s->local_recv[q].count; t++) {
      const struct gc_alltoall_lg_block *b = &s->blocks[s->local_recv[q].first + t];
      if (b->dst == s->rank)
        rc = lg_unpack(r, call, r->stage + (size_t)b->index * r->m, b->src, extent);
    }
  /* Even after an error, wait for what was posted: it uses our buffers. */
  int wrc = MPI_SUCCESS; /* PMPI_Waitall with MPI_STATUSES_IGNORE trips gcc's -Wstringop-overflow */
  for (int i = 0; i < nreq; i++) {
    int w = PMPI_Wait(&r->reqs[i], MPI_STATUS_IGNORE);
    wrc = wrc == MPI_SUCCESS ? w : wrc;
  }
  if (rc != MPI_SUCCESS || wrc != MPI_SUCCESS)
    return rc != MPI_SUCCESS ? rc : wrc;
  for (int i = 0; rc == MPI_SUCCESS && i < s->nwide_recv; i++)
    for (int t = 0; rc == MPI_SUCCESS && t < s->wide_recv[i].count; t++)
      rc = lg_unpack(r, call, r->area + (size_t)(s->wide_recv[i].offset + t) * r->m,
                     s->blocks[s->wide_recv[i].first + t].src, extent);
  return rc;
}

int gc_alltoall_lg_run(const struct gc_alltoall_call *call, struct gc_comm_state *st)
{
  if (call->block_bytes == 0) /* m is the same on every rank (matching type signatures) */
    return MPI_SUCCESS;
  struct lg_run r = {.m = call->block_bytes, .unit = MPI_DATATYPE_NULL};
  int rc = gc_comm_private(st, &r.priv);
  if (rc == MPI_SUCCESS)
    rc = gc_comm_cluster(st, &r.cluster);
  if (rc != MPI_SUCCESS)
    return rc;
  /* Allocation and packing may fail on some ranks only: agree before any traffic. */
  int ok = lg_alloc(&r, st) == 0 && lg_pack(&r, call) == 0;
  rc = PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, r.priv);
  if (rc == MPI_SUCCESS && !ok)
    rc = GC_FALLBACK;
  if (rc == MPI_SUCCESS && (rc = PMPI_Type_contiguous((int)r.m, MPI_BYTE, &r.unit)) == MPI_SUCCESS)
    rc = PMPI_Type_commit(&r.unit);
  if (rc == MPI_SUCCESS)
    rc = lg_local_phase(&r);
  if (rc == MPI_SUCCESS)
    rc = lg_wide_phase(&r, call);
  lg_free(&r);
  return rc;
}
