/* LG all-to-all executor: the schedule of lg_schedule.h run with point-to-point PMPI calls,
 * the local phase on the cluster sub-communicator, the wide area on the private duplicate.
 *
 * Overlap: every wide receive is posted first; each local message is split into its staged
 * part (sent first) and its direct block (sent once the staged parts are in), and each wide
 * send starts as soon as the last of its blocks has been staged, while other staged parts
 * are still arriving. The direct local blocks then move while the wide area is busy.
 *
 * No agreement on the timed path: a blocking allreduce over the wide area would cost a
 * wide-area round trip, more than the whole exchange of small blocks (on the demo grid,
 * 45 ms against 20 for the whole all-to-all of 1 KiB blocks). Instead
 *   - the context (the schedule) is made with the communicator's state and agreed there
 *     (gc_alltoall_lg_state_make); made later, on first use, its first run agrees;
 *   - a rank that cannot pack a block into m bytes, or cannot get the buffers a larger
 *     block needs, still takes part, and says so in the tag of its staged messages;
 *     stagers AND the flags of what they stage into the tags of their wide messages (a
 *     rank without buffers sends every message empty, flagged, and consumes what it is
 *     sent: lg_drain). Every rank receives a staged part from each member of its
 *     cluster and a wide message carrying blocks of every remote rank, so all ranks learn
 *     the same verdict before writing to recvbuf, and fall back together;
 *   - the buffers cached with the communicator stay alike on every rank: they grow at the
 *     same calls (m, the block count and the cache's history are the same everywhere),
 *     and every rank empties its cache when a run that grew it falls back, so a rank that
 *     could not grow its cache is not left behind the others.
 * A routed run (relay.c) keeps these rules. Its legs carry the flag as an int after their
 * blocks, and so do its direct wide messages: a relay may receive from one stager both a
 * wide message and a leg, so no receive may take any tag. A stager's leg to a relay
 * leaves, in parts, once all its blocks are staged, with the AND it has seen; a relay's
 * leg to a destination leaves part by part, part j once part j of each message it carries
 * is in, with the AND of their flags and its own.
 * Every block still reaches its destination through one chain of such messages, each
 * flag the AND of all before it, so the argument above holds unchanged. The one
 * allreduce a routed run adds is when the routes were never agreed (lg_alloc): made with
 * the state where relay may run (relay.c), else at the first relayed run, they can be
 * missing on one rank only until then.
 * Blocks travel as packed bytes: PMPI_Pack / PMPI_Unpack with the caller's types keep any
 * datatype byte-identical to PMPI_Alltoall, and a contiguous unit of one block (m bytes)
 * keeps counts and displacements small however large the total. */
#include "lg.h"
#include "alltoall_algorithms.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "lg_schedule.h"
#include "relay_plan.h"

/* Buffers up to this size stay cached with the communicator between calls. */
#define LG_CACHE_MAX ((size_t)64 << 20)
/* Tags: the low bit carries the sender's "my blocks are good" flag. */
#define LG_TAG_STAGE (GC_ALLTOALL_LG_TAG & ~1)
#define LG_TAG_WIDE (LG_TAG_STAGE + 2)
#define LG_TAG_DIRECT (LG_TAG_STAGE + 4)
/* A relayed run's legs (relay.c): stager to relay, relay to destination. */
#define LG_TAG_LEG1 (LG_TAG_STAGE + 6)
#define LG_TAG_LEG2 (LG_TAG_STAGE + 8)

/* Per communicator, in the all-to-all's slot of its state (comm_state.h): the schedule
 * and what depends on it. */
struct lg_ctx {
  struct gc_alltoall_lg_schedule s;
  int *wide_of;     /* stage slot -> wide send holding it; -1 for direct blocks */
  int *pending;     /* per wide send: blocks not yet staged (this call) */
  int *flag;        /* per wide send: AND of the flags seen when it left */
  MPI_Aint *displs; /* s.max_wide_send */
  int *count;       /* s.max_wide_send ones: the blocks of each hindexed entry */
  MPI_Request *reqs;
  char *buf;        /* cached buffers: area | stage | wide | forwarded, for blocks of up to
                       cap bytes and up to cap_fwd forwarded blocks (relay.c) */
  size_t cap, cap_fwd;
  int routed;       /* a routed run was agreed: every rank holds its routes (relay.c) */
  int agreed;       /* every rank holds its context: made with the agreed state, or a run
                       agreed it (alike on every rank: set by an agreement only) */
  void *ext;        /* what an algorithm running this schedule keeps of its own (relay.c's
                       routes), freed with the context by ext_free */
  void (*ext_free)(void *ext);
};

/* One call. */
struct lg_run {
  struct lg_ctx *x;
  size_t m;
  MPI_Comm priv, cluster;
  char *buf, *area, *stage, *wide; /* buf: NULL when the cached buffers are used */
  char *fwd;                       /* the blocks this rank forwards as a relay */
  MPI_Datatype unit;               /* m bytes */
  int ok;                          /* AND of every flag seen so far */
  struct gc_alltoall_lg_route *route; /* relay.c's routes; NULL: LG's own */
};

int gc_alltoall_lg_serves(const struct gc_comm_state *st)
{
  /* Beyond gc_alltoall_lg_applies: ranks few enough that the schedule's counts fit ints. */
  return gc_alltoall_lg_applies(&st->layout) && st->layout.size <= INT_MAX / 8;
}

int gc_alltoall_lg_supports(const void *args, const struct gc_comm_state *st)
{
  const struct gc_alltoall_call *call = args;
  /* And a block the m-byte unit type can describe. */
  return gc_alltoall_lg_serves(st) && call->block_bytes <= INT_MAX;
}

static void ctx_free(struct lg_ctx *x)
{
  if (x->ext_free)
    x->ext_free(x->ext);
  gc_alltoall_lg_schedule_free(&x->s);
  free(x->wide_of), free(x->pending), free(x->flag), free(x->displs), free(x->count),
      free(x->reqs);
  free(x->buf);
  free(x);
}

static void ctx_delete(struct gc_comm_state *st, void *x)
{
  (void)st;
  ctx_free(x);
}

/* The schedule of my rank and its indexes; NULL when out of memory (its only failure). */
static struct lg_ctx *ctx_build(const struct gc_comm_state *st)
{
  struct lg_ctx *x = calloc(1, sizeof *x);
  if (!x)
    return NULL;
  if (gc_alltoall_lg_schedule_build(&x->s, &st->layout, st->rank) != 0) {
    free(x);
    return NULL;
  }
  const struct gc_alltoall_lg_schedule *s = &x->s;
  size_t nreq = 2 * (size_t)s->cluster_size * 2 + (size_t)s->nwide_send + (size_t)s->nwide_recv;
  x->wide_of = malloc(sizeof(int) * ((size_t)s->stage_blocks + 1));
  x->pending = malloc(sizeof(int) * ((size_t)s->nwide_send + 1));
  x->flag = malloc(sizeof(int) * ((size_t)s->nwide_send + 1));
  x->displs = malloc(sizeof(MPI_Aint) * ((size_t)s->max_wide_send + 1));
  x->count = malloc(sizeof(int) * ((size_t)s->max_wide_send + 1));
  x->reqs = malloc(sizeof(MPI_Request) * (nreq + 1));
  if (!x->wide_of || !x->pending || !x->flag || !x->displs || !x->count || !x->reqs) {
    ctx_free(x);
    return NULL;
  }
  for (int k = 0; k < s->stage_blocks; k++)
    x->wide_of[k] = -1;
  for (int w = 0; w < s->nwide_send; w++)
    for (int t = 0; t < s->wide_send[w].count; t++)
      x->wide_of[s->blocks[s->wide_send[w].first + t].index] = w;
  return x;
}

/* The context in the communicator's all-to-all slot, built on first use (NULL if that
 * failed: the caller agrees). */
static struct lg_ctx *ctx_get(struct gc_comm_state *st)
{
  struct gc_op_state *slot = &st->op[GC_OP_ALLTOALL];
  if (!slot->data && (slot->data = ctx_build(st)))
    slot->free_data = ctx_delete;
  return slot->data;
}

int gc_alltoall_lg_state_make(struct gc_comm_state *st)
{
  /* Made here, the context is agreed with the state (comm_state.c: two clusters in the
   * world, which LG needs, make its members agree), and LG's first run agrees nothing. */
  if (!strcmp(gc_alltoall_op.wanted, "native") || !gc_alltoall_lg_serves(st))
    return 0;
  struct lg_ctx *x = ctx_get(st);
  if (!x)
    return -1;
  x->agreed = 1;
  return 0;
}

/* Buffers for blocks of m bytes and `fwd` blocks to forward (the same number on every
 * rank: relay.c's most over the ranks): the cached ones when they are big enough, else new
 * ones (kept in the cache when small enough). Every choice here depends only on m, fwd,
 * n, routed and the cache's history (alike on every rank: see the top), so the ranks agree
 * on whether to agree. *agree is set when they must: while the context was never agreed
 * (a rank may lack it), and on a routed run until one was agreed (a rank may lack its
 * routes, unless they were made with the state: relay.c; a rank that failed to make them
 * never gets here and agrees). Otherwise a rank that gets no buffers takes part without
 * them (lg_drain). Returns 1 when this rank holds its buffers. */
static int lg_alloc(struct lg_run *r, struct gc_comm_state *st, size_t fwd, int routed,
                    int *agree, int *grow)
{
  struct lg_ctx *x = ctx_get(st);
  size_t n = (size_t)st->size;
  size_t lg_blocks = x ? n + (size_t)x->s.stage_blocks + (size_t)x->s.wide_recv_blocks : 3 * n;
  size_t blocks = lg_blocks + fwd;
  int ok = 1, fits = x && r->m <= x->cap && fwd <= x->cap_fwd;
  *agree = !x || !x->agreed || (routed && !x->routed);
  *grow = 0;
  r->x = x;
  if (!x || r->m > SIZE_MAX / blocks) {
    ok = 0; /* the others may be fine: agree */
    if (!x)
      gc_warn_oom("LG's schedule on communicator %llu; every rank runs this all-to-all by "
                  "the MPI library", st->id);
  } else if (!fits) {
    if (r->m <= LG_CACHE_MAX / (4 * n + fwd)) { /* blocks < 4n + fwd; alike on every rank */
      *grow = 1;
      free(x->buf);
      x->cap = x->cap_fwd = 0;
      if ((ok = (x->buf = malloc(blocks * r->m)) != NULL))
        x->cap = r->m, x->cap_fwd = fwd;
    } else {
      ok = (r->buf = malloc(blocks * r->m)) != NULL;
    }
    if (!ok) /* said here, where it is known; the others fall back with me silently */
      gc_warn_oom("LG's buffers of %zu bytes on communicator %llu; every rank runs this "
                  "all-to-all by the MPI library", blocks * r->m, st->id);
  }
  if (ok) {
    char *base = r->buf ? r->buf : x->buf;
    r->area = base;
    r->stage = r->area + n * r->m;
    r->wide = r->stage + (size_t)x->s.stage_blocks * r->m;
    r->fwd = r->wide + (size_t)x->s.wide_recv_blocks * r->m;
  }
  return ok;
}

void gc_alltoall_lg_routes_made(struct gc_comm_state *st)
{
  struct lg_ctx *x = st->op[GC_OP_ALLTOALL].data;
  if (x && x->agreed)
    x->routed = 1;
}

/* A run that falls back everywhere (every rank learnt the same verdict, or agreed it):
 * the cache emptied on every rank, so that it stays alike where one rank could not grow
 * it. A run that grew nothing leaves the caches as alike as they were. */
static void lg_forget(struct lg_run *r)
{
  if (r->x) {
    free(r->x->buf);
    r->x->buf = NULL;
    r->x->cap = r->x->cap_fwd = 0;
  }
  free(r->buf);
  r->buf = NULL;
}

/* Every rank's verdict, before any message that depends on it: MPI_SUCCESS (all hold
 * their context and buffers; routed, all hold their routes), GC_FALLBACK or a PMPI error
 * (buffers dropped, the caches emptied everywhere, so identical again even where a rank
 * that lacked its routes never looked at its cache). */
static int lg_agree(struct lg_run *r, int ok, int routed)
{
  int rc = PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, r->priv);
  if (rc != MPI_SUCCESS || !ok) {
    lg_forget(r);
    return rc != MPI_SUCCESS ? rc : GC_FALLBACK;
  }
  r->x->agreed = 1;
  if (routed)
    r->x->routed = 1;
  return MPI_SUCCESS;
}

/* Packs my n blocks into area in local-send order (MPI_IN_PLACE: from recvbuf, before
 * anything writes to it). 0, or -1 when a block does not pack into exactly m bytes. */
static int lg_pack(struct lg_run *r, const struct gc_alltoall_call *call)
{
  const struct gc_alltoall_lg_schedule *s = &r->x->s;
  const char *buf = call->sendbuf;
  MPI_Count wide_count = call->sendcount;
  MPI_Datatype type = call->sendtype;
  MPI_Aint lb, extent;
  if (call->sendbuf == MPI_IN_PLACE)
    buf = call->recvbuf, wide_count = call->recvcount, type = call->recvtype;
  /* A block packs into m <= INT_MAX bytes (supports), so its count fits an int when its
   * type has a size; a count that does not (MPI_Alltoall_c) is a block LG cannot pack,
   * and like any other travels in the tags: every rank falls back. */
  if (!gc_count_fits_int(wide_count) || !gc_count_fits_int(call->recvcount))
    return -1;
  int count = (int)wide_count, size;
  if (PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Pack_size(count, type, r->priv, &size) != MPI_SUCCESS || (size_t)size != r->m)
    return -1;
  for (int q = 0; q < s->cluster_size; q++) {
    const struct gc_alltoall_lg_msg *msg = &s->local_send[q];
    for (int t = 0; t < msg->count; t++) {
      int pos = 0, d = s->blocks[msg->first + t].index;
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
  /* recvcount fits an int: lg_pack checked it before the flags were agreed. */
  return PMPI_Unpack(from, (int)r->m, &pos, to, (int)call->recvcount, call->recvtype, r->priv);
}

/* One message of blocks scattered over `base` (count[j] blocks at block displs[j], j < n),
 * sent (send) or received with tag on the private duplicate: described by an hindexed
 * type instead of being copied. displs are in blocks and turned into bytes here. With
 * `flag` (a routed run), the int there travels after the blocks: the sender's flag, where
 * the tag cannot carry it (lg_exchange). */
static int lg_post(struct lg_run *r, char *base, MPI_Aint *displs, int *count, int n, int peer,
                   int tag, int send, int *flag, MPI_Request *req)
{
  int consecutive = 1, rc, total = 0;
  for (int j = 0; j < n; j++) /* in blocks, before any is scaled */
    consecutive &= j == 0 || displs[j] == displs[j - 1] + count[j - 1];
  for (int j = 0; j < n; j++) {
    total += count[j];
    displs[j] *= (MPI_Aint)r->m;
  }
  if (consecutive && !flag)
    return send ? PMPI_Isend(base + displs[0], total, r->unit, peer, tag, r->priv, req)
                : PMPI_Irecv(base + displs[0], total, r->unit, peer, tag, r->priv, req);
  MPI_Datatype blocks = MPI_DATATYPE_NULL, type = MPI_DATATYPE_NULL;
  rc = PMPI_Type_create_hindexed(n, count, displs, r->unit, &blocks);
  if (rc == MPI_SUCCESS && flag) { /* blocks, then the flag: its place relative to base */
    MPI_Aint at_base, at_flag;
    if ((rc = PMPI_Get_address(base, &at_base)) == MPI_SUCCESS &&
        (rc = PMPI_Get_address(flag, &at_flag)) == MPI_SUCCESS) {
      int len[2] = {1, 1};
      MPI_Aint at[2] = {0, at_flag - at_base};
      MPI_Datatype types[2] = {blocks, MPI_INT};
      rc = PMPI_Type_create_struct(2, len, at, types, &type);
    }
  } else if (rc == MPI_SUCCESS) {
    type = blocks, blocks = MPI_DATATYPE_NULL;
  }
  if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(&type)) == MPI_SUCCESS)
    rc = send ? PMPI_Isend(base, 1, type, peer, tag, r->priv, req)
              : PMPI_Irecv(base, 1, type, peer, tag, r->priv, req);
  if (blocks != MPI_DATATYPE_NULL)
    PMPI_Type_free(&blocks);
  if (type != MPI_DATATYPE_NULL) /* freeing a type in use by a pending request is allowed */
    PMPI_Type_free(&type);
  return rc;
}

/* The blocks of wide send w into displs/count from j on (their stage slots, one each);
 * returns the next j. */
static int lg_wide_blocks(const struct lg_run *r, int w, MPI_Aint *displs, int *count, int j)
{
  const struct gc_alltoall_lg_msg *msg = &r->x->s.wide_send[w];
  const struct gc_alltoall_lg_block *b = r->x->s.blocks + msg->first;
  for (int t = 0; t < msg->count; t++, j++)
    displs[j] = b[t].index, count[j] = 1;
  return j;
}

/* Part j of nseg of wide send w's blocks into displs/count from n on; returns the next n. */
static int lg_wide_part(const struct lg_run *r, int w, int j, int nseg, MPI_Aint *displs,
                        int *count, int n)
{
  const struct gc_alltoall_lg_msg *msg = &r->x->s.wide_send[w];
  const struct gc_alltoall_lg_block *b = r->x->s.blocks + msg->first;
  int first, len = gc_alltoall_relay_part(msg->count, j, nseg, &first);
  for (int t = first; t < first + len; t++, n++)
    displs[n] = b[t].index, count[n] = 1;
  return n;
}

enum { LEG_IN, LEG_FWD_IN, LEG_FWD_OUT, LEG_OUT };

/* Where a routed run keeps each part's request and flag (lg.h: leg g's part j at g nseg +
 * j of its kind): in legs, fwd_in legs, fwd_out legs, then out legs (requests only). */
static size_t leg_base(const struct gc_alltoall_lg_route *rt, int kind)
{
  int before[4] = {0, rt->nin, rt->nin + rt->nfwd_in, rt->nin + rt->nfwd_in + rt->nfwd_out};
  return (size_t)before[kind] * (size_t)rt->nseg;
}

static MPI_Request *leg_reqs(const struct gc_alltoall_lg_route *rt, int kind)
{
  return rt->reqs + leg_base(rt, kind);
}

static int *leg_flags(const struct gc_alltoall_lg_route *rt, int kind)
{
  return rt->flags + leg_base(rt, kind); /* no flags of out legs: kind < LEG_OUT */
}

/* Part j of nseg of a message of `blocks` blocks at block `at` into displs/count from n on
 * (nothing where the part is empty); returns the next n. */
static int add_part(int blocks, int at, int j, int nseg, MPI_Aint *displs, int *count, int n)
{
  int first, len = gc_alltoall_relay_part(blocks, j, nseg, &first);
  if (len > 0)
    displs[n] = at + first, count[n++] = len;
  return n;
}

/* One wide send, to its destination, or counted off the leg that takes it (with the
 * other wide sends to the same relay) to its relay, whose parts leave once all are staged. */
static int lg_isend(struct lg_run *r, int w, MPI_Request *reqs, int *nreq)
{
  const struct gc_alltoall_lg_route *rt = r->route;
  r->x->flag[w] = r->ok;
  if (!rt || rt->send_leg[w] < 0) { /* routed, the flag after the blocks, else in the tag */
    int j = lg_wide_blocks(r, w, r->x->displs, r->x->count, 0);
    int rc = lg_post(r, r->stage, r->x->displs, r->x->count, j, r->x->s.wide_send[w].peer,
                     rt ? LG_TAG_WIDE : LG_TAG_WIDE | (r->ok != 0), 1,
                     rt ? &r->x->flag[w] : NULL, &reqs[*nreq]);
    *nreq += rc == MPI_SUCCESS;
    return rc;
  }
  struct gc_alltoall_lg_leg *leg = &rt->out[rt->send_leg[w]];
  if (--leg->pending > 0)
    return MPI_SUCCESS;
  MPI_Request *part = leg_reqs(rt, LEG_OUT) + (size_t)rt->send_leg[w] * (size_t)rt->nseg;
  int rc = MPI_SUCCESS;
  leg->flag = r->ok; /* every block of the leg is staged: their senders' flags are in */
  for (int j = 0; rc == MPI_SUCCESS && j < rt->nseg; j++) {
    int n = 0;
    for (int t = 0; t < leg->n; t++)
      n = lg_wide_part(r, rt->out_list[leg->first + t], j, rt->nseg, rt->displs, rt->count, n);
    rc = lg_post(r, r->stage, rt->displs, rt->count, n, leg->peer, LG_TAG_LEG1, 1, &leg->flag,
                 &part[j]);
  }
  return rc;
}

/* The staged part of the local message from cluster member q has arrived (tag carries its
 * flag): count its blocks off their wide sends and start those that are complete. */
static int lg_staged(struct lg_run *r, int q, int tag, MPI_Request *reqs, int *nreq)
{
  const struct gc_alltoall_lg_schedule *s = &r->x->s;
  const struct gc_alltoall_lg_msg *in = &s->local_recv[q];
  int rc = MPI_SUCCESS;
  r->ok &= tag & 1;
  for (int k = in->offset + 1; rc == MPI_SUCCESS && k < in->offset + in->count; k++) {
    int w = r->x->wide_of[k];
    if (w >= 0 && --r->x->pending[w] == 0)
      rc = lg_isend(r, w, reqs, nreq);
  }
  return rc;
}

/* A routed run's receives: the wide messages that come direct (requests where LG keeps
 * them), each part of each leg from a relay (part j of every wide message it forwards me,
 * into its place in the wide area) and, as a relay, each part of each leg from a stager
 * (part j of every message it sends me to forward, into its place in the forwarded area);
 * each with its sender's flag after the blocks, 0 until it arrives (an empty message:
 * lg_drain). */
static int relay_post(struct lg_run *r)
{
  const struct gc_alltoall_lg_schedule *s = &r->x->s;
  struct gc_alltoall_lg_route *rt = r->route;
  MPI_Request *in = leg_reqs(rt, LEG_IN), *fwd_in = leg_reqs(rt, LEG_FWD_IN);
  int *in_flag = leg_flags(rt, LEG_IN), *fwd_in_flag = leg_flags(rt, LEG_FWD_IN);
  int rc = MPI_SUCCESS, nseg = rt->nseg;
  for (int i = 0; rc == MPI_SUCCESS && i < s->nwide_recv; i++) { /* the direct ones */
    MPI_Aint at = s->wide_recv[i].offset;
    int count = s->wide_recv[i].count;
    rt->recv_flag[i] = 0; /* what an empty message (lg_drain) leaves */
    if (rt->recv_leg[i] < 0)
      rc = lg_post(r, r->wide, &at, &count, 1, s->wide_recv[i].peer, LG_TAG_WIDE, 0,
                   &rt->recv_flag[i], &r->x->reqs[i]);
  }
  for (int g = 0; g < rt->nin; g++)
    for (int j = 0; rc == MPI_SUCCESS && j < nseg; j++) {
      const struct gc_alltoall_lg_leg *leg = &rt->in[g];
      int n = 0;
      for (int t = 0; t < leg->n; t++) {
        const struct gc_alltoall_lg_msg *msg = &s->wide_recv[rt->in_list[leg->first + t]];
        n = add_part(msg->count, msg->offset, j, nseg, rt->displs, rt->count, n);
      }
      in_flag[g * nseg + j] = 0;
      rc = lg_post(r, r->wide, rt->displs, rt->count, n, leg->peer, LG_TAG_LEG2, 0,
                   &in_flag[g * nseg + j], &in[g * nseg + j]);
    }
  for (int g = 0; g < rt->nfwd_in; g++)
    for (int j = 0; rc == MPI_SUCCESS && j < nseg; j++) {
      const struct gc_alltoall_lg_leg *leg = &rt->fwd_in[g];
      int n = 0;
      for (int t = 0; t < leg->n; t++) {
        int p = rt->fin_list[leg->first + t];
        n = add_part(rt->seg_blocks[p], rt->seg_offset[p], j, nseg, rt->displs, rt->count, n);
      }
      fwd_in_flag[g * nseg + j] = 0;
      rc = lg_post(r, r->fwd, rt->displs, rt->count, n, leg->peer, LG_TAG_LEG1, 0,
                   &fwd_in_flag[g * nseg + j], &fwd_in[g * nseg + j]);
    }
  return rc;
}

/* As a relay, fwd_out leg o's part j: part j of each message it carries, with my flag
 * and the flags of the stagers' parts j that brought them. */
static int relay_send_part(struct lg_run *r, int o, int j)
{
  struct gc_alltoall_lg_route *rt = r->route;
  const struct gc_alltoall_lg_leg *leg = &rt->fwd_out[o];
  int nseg = rt->nseg, *flag = &leg_flags(rt, LEG_FWD_OUT)[o * nseg + j];
  const int *fwd_in_flag = leg_flags(rt, LEG_FWD_IN);
  int n = 0;
  *flag = r->ok;
  for (int t = leg->first; t < leg->first + leg->n; t++) {
    *flag &= fwd_in_flag[rt->seg_in[t] * nseg + j];
    n = add_part(rt->seg_blocks[t], rt->seg_offset[t], j, nseg, rt->displs, rt->count, n);
  }
  return lg_post(r, r->fwd, rt->displs, rt->count, n, leg->peer, LG_TAG_LEG2, 1, flag,
                 &leg_reqs(rt, LEG_FWD_OUT)[o * nseg + j]);
}

/* As a relay: each part j of a leg from a stager, as it arrives, counts off part j of the
 * legs to destinations that carry its messages; a part j whose messages' parts j are all
 * in leaves at once, unless an earlier part of its leg is still missing: a leg's parts
 * leave in order, as its destination receives them (cut-through, relay_plan.h). */
static int relay_forward(struct lg_run *r)
{
  struct gc_alltoall_lg_route *rt = r->route;
  MPI_Request *fwd_in = leg_reqs(rt, LEG_FWD_IN);
  int rc = MPI_SUCCESS, nseg = rt->nseg;
  for (int left = rt->nfwd_in * nseg; rc == MPI_SUCCESS && left > 0; left--) {
    int i;
    if ((rc = PMPI_Waitany(rt->nfwd_in * nseg, fwd_in, &i, MPI_STATUS_IGNORE)) !=
            MPI_SUCCESS || i == MPI_UNDEFINED)
      break;
    /* Only the legs out that carry a message of the arriving leg (each part of each
     * fwd_in leg arrives once). */
    const struct gc_alltoall_lg_leg *in = &rt->fwd_in[i / nseg];
    for (int t = in->first; rc == MPI_SUCCESS && t < in->first + in->n; t++) {
      int o = rt->seg_out[rt->fin_list[t]];
      struct gc_alltoall_lg_leg *leg = &rt->fwd_out[o];
      const int *pending = &rt->pending[o * nseg];
      rt->pending[o * nseg + i % nseg]--;
      while (rc == MPI_SUCCESS && leg->next < nseg && pending[leg->next] == 0)
        rc = relay_send_part(r, o, leg->next++);
    }
  }
  return rc;
}

/* Both phases, overlapped. Returns MPI_SUCCESS or the first PMPI error; waits for whatever
 * it posted in any case (it uses our buffers). */
static int lg_exchange(struct lg_run *r)
{
  struct lg_ctx *x = r->x;
  const struct gc_alltoall_lg_schedule *s = &x->s;
  int c = s->cluster_size, me = s->index, rc = MPI_SUCCESS, nreq = 0;
  MPI_Request *wide_recv = x->reqs, *staged = wide_recv + s->nwide_recv, *reqs = staged + c;
  for (int w = 0; w < s->nwide_send; w++)
    x->pending[w] = s->wide_send[w].count;
  for (int i = 0; i < s->nwide_recv; i++)
    wide_recv[i] = MPI_REQUEST_NULL;
  for (int q = 0; q < c; q++)
    staged[q] = MPI_REQUEST_NULL;
  if (r->route) {
    struct gc_alltoall_lg_route *rt = r->route;
    for (int i = 0; i < (rt->nin + rt->nfwd_in + rt->nfwd_out + rt->nout) * rt->nseg; i++)
      rt->reqs[i] = MPI_REQUEST_NULL;
    for (int o = 0; o < rt->nout; o++)
      rt->out[o].pending = rt->out[o].n;
    for (int o = 0; o < rt->nfwd_out; o++) {
      rt->fwd_out[o].next = 0;
      for (int j = 0; j < rt->nseg; j++)
        rt->pending[o * rt->nseg + j] = rt->fwd_out[o].n;
    }
  }

  if (r->route)
    rc = relay_post(r);
  for (int i = 0; rc == MPI_SUCCESS && !r->route && i < s->nwide_recv; i++)
    rc = PMPI_Irecv(r->wide + (size_t)s->wide_recv[i].offset * r->m, s->wide_recv[i].count,
                    r->unit, s->wide_recv[i].peer, MPI_ANY_TAG, r->priv, &wide_recv[i]);
  /* Staged parts: everything after the direct block of each local message. */
  for (int q = 0; rc == MPI_SUCCESS && q < c; q++)
    if (q != me)
      rc = PMPI_Irecv(r->stage + (size_t)(s->local_recv[q].offset + 1) * r->m,
                      s->local_recv[q].count - 1, r->unit, q, MPI_ANY_TAG, r->cluster,
                      &staged[q]);
  for (int i = 1; rc == MPI_SUCCESS && i <= c; i++) { /* from me + 1 on: spread the load */
    int q = (me + i) % c;
    const struct gc_alltoall_lg_msg *out = &s->local_send[q];
    if (q == me) { /* to myself: copy */
      memcpy(r->stage + (size_t)s->local_recv[me].offset * r->m,
             r->area + (size_t)out->offset * r->m, (size_t)out->count * r->m);
      rc = lg_staged(r, me, LG_TAG_STAGE | (r->ok != 0), reqs, &nreq);
    } else if ((rc = PMPI_Isend(r->area + (size_t)(out->offset + 1) * r->m, out->count - 1,
                                r->unit, q, LG_TAG_STAGE | (r->ok != 0), r->cluster,
                                &reqs[nreq])) == MPI_SUCCESS) {
      nreq++;
    }
  }
  for (int left = c - 1; rc == MPI_SUCCESS && left > 0; left--) {
    int q;
    MPI_Status status;
    if ((rc = PMPI_Waitany(c, staged, &q, &status)) == MPI_SUCCESS && q != MPI_UNDEFINED)
      rc = lg_staged(r, q, status.MPI_TAG, reqs, &nreq);
  }
  if (rc == MPI_SUCCESS && r->route)
    rc = relay_forward(r);
  /* The direct blocks, while the wide area is busy: on the private duplicate, where no
   * receive takes any tag from a member of my cluster. */
  for (int i = 1; rc == MPI_SUCCESS && i < c; i++) {
    int q = (me + c - i) % c;
    if ((rc = PMPI_Irecv(r->stage + (size_t)s->local_recv[q].offset * r->m, 1, r->unit,
                         s->local_recv[q].peer, LG_TAG_DIRECT, r->priv, &reqs[nreq])) ==
        MPI_SUCCESS)
      nreq++;
  }
  for (int i = 1; rc == MPI_SUCCESS && i < c; i++) {
    int q = (me + i) % c;
    if ((rc = PMPI_Isend(r->area + (size_t)s->local_send[q].offset * r->m, 1, r->unit,
                         s->local_send[q].peer, LG_TAG_DIRECT, r->priv, &reqs[nreq])) ==
        MPI_SUCCESS)
      nreq++;
  }
  /* Even after an error, wait for what was posted: it uses our buffers. */
  int wrc = MPI_SUCCESS; /* PMPI_Waitall with MPI_STATUSES_IGNORE trips gcc's -Wstringop-overflow */
  for (int i = 0; i < s->nwide_recv; i++) {
    MPI_Status status;
    int w = PMPI_Wait(&wide_recv[i], &status);
    if (w == MPI_SUCCESS && rc == MPI_SUCCESS)
      r->ok &= r->route ? r->route->recv_leg[i] >= 0 || r->route->recv_flag[i]
                        : status.MPI_TAG & 1;
    wrc = wrc == MPI_SUCCESS ? w : wrc;
  }
  if (r->route) { /* its legs' parts: received, forwarded, sent (their buffers are ours) */
    const struct gc_alltoall_lg_route *rt = r->route;
    for (int i = 0; i < (rt->nin + rt->nfwd_in + rt->nfwd_out + rt->nout) * rt->nseg; i++) {
      int w = PMPI_Wait(&rt->reqs[i], MPI_STATUS_IGNORE);
      if (w == MPI_SUCCESS && rc == MPI_SUCCESS && i < rt->nin * rt->nseg)
        r->ok &= leg_flags(rt, LEG_IN)[i];
      wrc = wrc == MPI_SUCCESS ? w : wrc;
    }
  }
  for (int q = 0; q < c; q++) {
    int w = PMPI_Wait(&staged[q], MPI_STATUS_IGNORE);
    wrc = wrc == MPI_SUCCESS ? w : wrc;
  }
  for (int i = 0; i < nreq; i++) {
    int w = PMPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
    wrc = wrc == MPI_SUCCESS ? w : wrc;
  }
  return rc != MPI_SUCCESS ? rc : wrc;
}

/* A run where this rank has no buffers (its allocation failed, not agreed: lg_alloc):
 * every message it owes leaves empty, flagged bad, and every message it is sent is
 * consumed by a receive of 0 bytes, which returns MPI_ERR_TRUNCATE on the private
 * communicators (errors return there; a nonblocking one would report it through MPICH's
 * MPI_Wait, which aborts). Its sends are all posted before its first receive, and no
 * other rank waits for anything of it but these messages, so nothing waits in a circle.
 * The others learn its flag from its staged part (its cluster) or from the messages that
 * carry its blocks (the rest), as they would a packing failure's: in the tag, or, routed,
 * in the int after the blocks, which an empty message leaves at the 0 its receiver put
 * there before posting (relay_post). */
static int lg_drain(struct lg_run *r)
{
  const struct gc_alltoall_lg_schedule *s = &r->x->s;
  const struct gc_alltoall_lg_route *rt = r->route;
  int c = s->cluster_size, me = s->index, rc = MPI_SUCCESS, nreq = 0, nleg = 0;
  MPI_Request *reqs = r->x->reqs, *legs = rt ? rt->reqs : NULL;
  char none = 0;
  for (int q = 0; rc == MPI_SUCCESS && q < c; q++)
    if (q != me && (rc = PMPI_Isend(&none, 0, MPI_BYTE, q, LG_TAG_STAGE, r->cluster,
                                    &reqs[nreq])) == MPI_SUCCESS)
      nreq++;
  for (int w = 0; rc == MPI_SUCCESS && w < s->nwide_send; w++)
    if ((!rt || rt->send_leg[w] < 0) &&
        (rc = PMPI_Isend(&none, 0, MPI_BYTE, s->wide_send[w].peer, LG_TAG_WIDE, r->priv,
                         &reqs[nreq])) == MPI_SUCCESS)
      nreq++;
  for (int i = 0; rc == MPI_SUCCESS && rt && i < rt->nout * rt->nseg; i++) /* every part */
    if ((rc = PMPI_Isend(&none, 0, MPI_BYTE, rt->out[i / rt->nseg].peer, LG_TAG_LEG1,
                         r->priv, &legs[nleg])) == MPI_SUCCESS)
      nleg++;
  for (int i = 0; rc == MPI_SUCCESS && rt && i < rt->nfwd_out * rt->nseg; i++)
    if ((rc = PMPI_Isend(&none, 0, MPI_BYTE, rt->fwd_out[i / rt->nseg].peer, LG_TAG_LEG2,
                         r->priv, &legs[nleg])) == MPI_SUCCESS)
      nleg++;
  for (int q = 0; rc == MPI_SUCCESS && q < c; q++)
    if (q != me && (rc = PMPI_Isend(&none, 0, MPI_BYTE, s->local_send[q].peer, LG_TAG_DIRECT,
                                    r->priv, &reqs[nreq])) == MPI_SUCCESS)
      nreq++;
  /* What I am sent (errors: truncations). Routed, a stager may send me a wide message
   * and a leg: each receive names its tag. */
  for (int q = 0; q < c; q++)
    if (q != me)
      PMPI_Recv(&none, 0, MPI_BYTE, q, MPI_ANY_TAG, r->cluster, MPI_STATUS_IGNORE);
  for (int i = 0; i < s->nwide_recv; i++)
    if (!rt || rt->recv_leg[i] < 0)
      PMPI_Recv(&none, 0, MPI_BYTE, s->wide_recv[i].peer, rt ? LG_TAG_WIDE : MPI_ANY_TAG,
                r->priv, MPI_STATUS_IGNORE);
  for (int i = 0; rt && i < rt->nin * rt->nseg; i++)
    PMPI_Recv(&none, 0, MPI_BYTE, rt->in[i / rt->nseg].peer, LG_TAG_LEG2, r->priv,
              MPI_STATUS_IGNORE);
  for (int i = 0; rt && i < rt->nfwd_in * rt->nseg; i++)
    PMPI_Recv(&none, 0, MPI_BYTE, rt->fwd_in[i / rt->nseg].peer, LG_TAG_LEG1, r->priv,
              MPI_STATUS_IGNORE);
  for (int q = 0; q < c; q++)
    if (q != me)
      PMPI_Recv(&none, 0, MPI_BYTE, s->local_recv[q].peer, LG_TAG_DIRECT, r->priv,
                MPI_STATUS_IGNORE);
  int wrc = MPI_SUCCESS;
  for (int i = 0; i < nreq + nleg; i++) {
    int w = PMPI_Wait(i < nreq ? &reqs[i] : &legs[i - nreq], MPI_STATUS_IGNORE);
    wrc = wrc == MPI_SUCCESS ? w : wrc;
  }
  return rc != MPI_SUCCESS ? rc : wrc;
}

/* Every block addressed to me into recvbuf. */
static int lg_deliver(struct lg_run *r, const struct gc_alltoall_call *call)
{
  const struct gc_alltoall_lg_schedule *s = &r->x->s;
  MPI_Aint lb, extent;
  int rc = PMPI_Type_get_extent(call->recvtype, &lb, &extent);
  for (int q = 0; rc == MPI_SUCCESS && q < s->cluster_size; q++)
    rc = lg_unpack(r, call, r->stage + (size_t)s->local_recv[q].offset * r->m,
                   s->blocks[s->local_recv[q].first].src, extent);
  for (int i = 0; rc == MPI_SUCCESS && i < s->nwide_recv; i++)
    for (int t = 0; rc == MPI_SUCCESS && t < s->wide_recv[i].count; t++)
      rc = lg_unpack(r, call, r->wide + (size_t)(s->wide_recv[i].offset + t) * r->m,
                     s->blocks[s->wide_recv[i].first + t].src, extent);
  return rc;
}

struct gc_alltoall_lg_schedule *gc_alltoall_lg_context(struct gc_comm_state *st, void ***ext,
                                                      void (***ext_free)(void *))
{
  struct lg_ctx *x = ctx_get(st);
  if (!x)
    return NULL;
  *ext = &x->ext, *ext_free = &x->ext_free;
  return &x->s;
}

int gc_alltoall_lg_exchange(const struct gc_alltoall_call *call, struct gc_comm_state *st,
                            int routed, struct gc_alltoall_lg_route *route)
{
  if (call->block_bytes == 0) /* m is the same on every rank (matching type signatures) */
    return MPI_SUCCESS;
  struct lg_run r = {.m = call->block_bytes, .unit = MPI_DATATYPE_NULL, .ok = 1,
                     .route = route};
  size_t fwd = route ? route->fwd_blocks : 0;
  int agree = 1, grow = 0, ok;
  int rc = gc_comm_private(st, &r.priv);
  if (rc == MPI_SUCCESS)
    rc = gc_comm_cluster(st, &r.cluster);
  if (rc != MPI_SUCCESS)
    return rc;
  /* Routed without routes: this rank said why (relay.c); it only agrees to fall back,
   * and empties its cache as the others do (lg_agree). */
  ok = (!routed || route) && lg_alloc(&r, st, fwd, routed, &agree, &grow);
  if (!ok && !r.x)
    r.x = st->op[GC_OP_ALLTOALL].data;
  if (agree && (rc = lg_agree(&r, ok, routed)) != MPI_SUCCESS)
    return rc;
  if (!ok) { /* not agreed (lg_alloc): the others learn it from my messages */
    if ((rc = lg_drain(&r)) == MPI_SUCCESS)
      rc = GC_FALLBACK;
  } else {
    r.ok = lg_pack(&r, call) == 0; /* a failure travels with the messages */
    if ((rc = PMPI_Type_contiguous((int)r.m, MPI_BYTE, &r.unit)) == MPI_SUCCESS &&
        (rc = PMPI_Type_commit(&r.unit)) == MPI_SUCCESS)
      rc = lg_exchange(&r);
    if (rc == MPI_SUCCESS)
      rc = r.ok ? lg_deliver(&r, call) : GC_FALLBACK;
  }
  /* Every rank learnt the fallback, and those that grew here empty their caches. */
  if (grow && (rc == GC_FALLBACK || !ok))
    lg_forget(&r);
  if (r.unit != MPI_DATATYPE_NULL)
    PMPI_Type_free(&r.unit);
  free(r.buf);
  return rc;
}

int gc_alltoall_lg_run(const void *args, struct gc_comm_state *st, const struct gc_plan *plan)
{
  (void)plan;
  return gc_alltoall_lg_exchange(args, st, 0, NULL);
}
