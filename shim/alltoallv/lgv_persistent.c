/* MPI_Alltoallv_init (and _c) by LG-v: LG-v's plan (lgv_schedule.h) as a persistent
 * schedule (nbc.h) on the communicator's nonblocking duplicate, run at each MPI_Start.
 *
 * Unlike MPI_Ialltoallv's (lgv_nb.c, which exchanges the sizes and its verdicts inside
 * the schedule at every call, in a slot's bounded memory), a persistent call's counts
 * are fixed at its init, which is collective and may block (as
 * MPI_Alltoall_init's agreement of its memory does, lg_nb.c): there LG-v's own steps 1 and
 * 2 run once (gc_alltoallv_lg_layout), and every size is known to both ends of every
 * message from then on.
 *
 * At each start my blocks are packed into the send area by their counts and
 * displacements (from the receive buffer when in place: nothing writes it before the
 * end), and my own local message is copied to the stage area. Round 0: the local phase,
 * one message each way with every other member of my cluster (its direct block then the
 * part I stage for it; none where both are empty, which both ends know). Round 1: the
 * wide area, every wide receive, and every wide send gathered from the stage area by an
 * hindexed type (sent even when empty, as the blocking run's). At the end every block
 * addressed to me is unpacked into the receive buffer (the executor's finish).
 *
 * Which calls: a forced `lg`, or `auto` where the models pick LG-v (alltoallv.c says they
 * keep the library's own), where LG-v serves the layout. What can fail on one rank (LG-v's
 * schedule, a count beyond what Pack takes, memory) is agreed at the init: every member
 * then runs the MPI library's own persistent call. Memory: the three areas (my packed
 * blocks, what I stage, what I receive over the wide area), the steps and the
 * executor's block, agreed at the init; nothing is allocated at a start. */
#include <string.h>

#include "alltoallv.h"
#include "alltoallv_algorithms.h"
#include "clock.h"
#include "dispatch.h"
#include "gridcoll.h"
#include "lgv_schedule.h"
#include "nbc.h"
#include "select.h"

/* A block packed at a start or unpacked at the end: `bytes` at buf + at, `count`
 * elements at the application's buffer + displ extents. */
struct lgv_block {
  size_t at;
  MPI_Aint displ;
  int count, bytes;
};

struct lgv_nb {
  char *buf; /* send area | stage area | wide area */
  const void *sendbuf; /* NULL in place: the receive buffer, by recvtype */
  MPI_Datatype sendtype, recvtype; /* our duplicates of derived types */
  int own_sendtype, own_recvtype;
  MPI_Aint send_extent, recv_extent;
  void *recvbuf;
  MPI_Comm pack_comm; /* what PMPI_Pack and PMPI_Unpack are given: any communicator of ours */
  struct lgv_block *pack, *deliver;
  int npack, ndeliver;
  size_t copy_to, copy_from, copy_len; /* my own local message, send area to stage area */
};

static void lgv_nb_release(void *data)
{
  struct lgv_nb *x = data;
  if (x->own_recvtype)
    PMPI_Type_free(&x->recvtype);
  if (x->own_sendtype)
    PMPI_Type_free(&x->sendtype);
}

static int lgv_nb_start(void *data)
{
  struct lgv_nb *x = data;
  const char *from = x->sendbuf ? x->sendbuf : x->recvbuf;
  MPI_Datatype type = x->sendbuf ? x->sendtype : x->recvtype;
  MPI_Aint extent = x->sendbuf ? x->send_extent : x->recv_extent;
  for (int i = 0; i < x->npack; i++) {
    const struct lgv_block *b = &x->pack[i];
    int pos = 0, rc = PMPI_Pack(from + b->displ * extent, b->count, type, x->buf + b->at,
                                b->bytes, &pos, x->pack_comm);
    if (rc == MPI_SUCCESS && pos != b->bytes)
      rc = MPI_ERR_TRUNCATE;
    if (rc != MPI_SUCCESS)
      return rc;
  }
  memcpy(x->buf + x->copy_to, x->buf + x->copy_from, x->copy_len);
  return MPI_SUCCESS;
}

static int lgv_nb_finish(void *data)
{
  struct lgv_nb *x = data;
  for (int i = 0; i < x->ndeliver; i++) {
    const struct lgv_block *b = &x->deliver[i];
    int pos = 0, rc = PMPI_Unpack(x->buf + b->at, b->bytes, &pos,
                                  (char *)x->recvbuf + b->displ * x->recv_extent, b->count,
                                  x->recvtype, x->pack_comm);
    if (rc != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

static const struct gc_nbc_ops lgv_nb_ops = {
    .start = lgv_nb_start, .finish = lgv_nb_finish, .release = lgv_nb_release};

/* What one schedule holds beyond the executor's block: how many steps, packed and
 * delivered blocks, and the bytes of its areas. */
struct lgv_size {
  int npieces, npack, ndeliver, max_wide_send;
  size_t areas;
};

static struct lgv_size size_of(const struct gc_alltoallv_lg_plan *p)
{
  const struct gc_alltoall_lg_schedule *s = p->s;
  struct lgv_size z = {.npieces = 2 * s->cluster_size + s->nwide_send + s->nwide_recv,
                       .ndeliver = s->cluster_size, .max_wide_send = s->max_wide_send,
                       .areas = (size_t)(p->send_area + p->stage_area + p->wide_area)};
  for (int q = 0; q < s->cluster_size; q++)
    z.npack += s->local_send[q].count;
  for (int i = 0; i < s->nwide_recv; i++)
    z.ndeliver += s->wide_recv[i].count;
  return z;
}

static size_t call_bytes(const struct lgv_size *z)
{
  size_t np = (size_t)z->npieces + 1, mw = (size_t)z->max_wide_send + 1;
  return gc_nbc_block_bytes((int)np, (int)np) +
         gc_nbc_carve_bytes(sizeof(struct gc_nbc_step) * np) +
         gc_nbc_carve_bytes(sizeof(struct gc_nbc_piece) * np) +
         gc_nbc_carve_bytes(sizeof(MPI_Aint) * mw) + gc_nbc_carve_bytes(sizeof(int) * mw) +
         gc_nbc_carve_bytes(sizeof(struct lgv_nb)) +
         gc_nbc_carve_bytes(sizeof(struct lgv_block) * ((size_t)z->npack + 1)) +
         gc_nbc_carve_bytes(sizeof(struct lgv_block) * ((size_t)z->ndeliver + 1)) +
         gc_nbc_carve_bytes(z->areas);
}

/* Block e of the plan, `count` elements at `displ` of the application's buffer. */
static struct lgv_block block(const struct gc_alltoallv_lg_plan *p, int e, size_t area,
                              const struct gc_alltoallv_call *c, const void *counts,
                              const void *displs, int rank)
{
  return (struct lgv_block){.at = area + (size_t)p->offset[e],
                            .displ = gc_alltoallv_displ(displs, c->large, rank),
                            .count = (int)gc_alltoallv_count(counts, c->large, rank),
                            .bytes = (int)p->bytes[e]};
}

/* The blocks packed at each start and unpacked at the end (those of no bytes left out). */
static void blocks_plan(const struct gc_alltoallv_lg_plan *p, const struct gc_alltoallv_call *c,
                        struct lgv_nb *x)
{
  const struct gc_alltoall_lg_schedule *s = p->s;
  size_t stage = (size_t)p->send_area, wide = stage + (size_t)p->stage_area;
  int in_place = c->sendbuf == MPI_IN_PLACE;
  const void *counts = in_place ? c->recvcounts : c->sendcounts;
  const void *displs = in_place ? c->rdispls : c->sdispls;
  x->npack = x->ndeliver = 0;
  for (int q = 0; q < s->cluster_size; q++)
    for (int e = s->local_send[q].first, end = e + s->local_send[q].count; e < end; e++)
      if (p->bytes[e] > 0)
        x->pack[x->npack++] = block(p, e, 0, c, counts, displs, s->blocks[e].dst);
  for (int q = 0; q < s->cluster_size; q++) { /* direct blocks: each local receive's first */
    int e = s->local_recv[q].first;
    if (p->bytes[e] > 0)
      x->deliver[x->ndeliver++] = block(p, e, stage, c, c->recvcounts, c->rdispls,
                                        s->blocks[e].src);
  }
  for (int i = 0; i < s->nwide_recv; i++)
    for (int e = s->wide_recv[i].first, end = e + s->wide_recv[i].count; e < end; e++)
      if (p->bytes[e] > 0)
        x->deliver[x->ndeliver++] = block(p, e, wide, c, c->recvcounts, c->rdispls,
                                          s->blocks[e].src);
  int me = s->index;
  x->copy_from = (size_t)p->offset[s->local_send[me].first];
  x->copy_to = stage + (size_t)p->offset[s->local_recv[me].first];
  x->copy_len = (size_t)(p->send_direct[me] + p->send_staged[me]);
}

/* The steps and pieces of rounds 0 and 1 (above); MPI_SUCCESS or an error (the pieces'
 * own types made so far are the caller's to free). */
static int build(const struct gc_alltoallv_lg_plan *p, struct lgv_nb *x,
                 struct gc_nbc_step *steps, struct gc_nbc_piece *pieces, int *nsteps,
                 MPI_Aint *displs, int *lens)
{
  const struct gc_alltoall_lg_schedule *s = p->s;
  char *send = x->buf, *stage = send + p->send_area, *wide = stage + p->stage_area;
  int k = 0, me = s->index, rc = MPI_SUCCESS;
  for (int q = 0; q < s->cluster_size; q++) {
    if (q == me)
      continue;
    long long in = p->recv_direct[q] + p->recv_staged[q];
    long long out = p->send_direct[q] + p->send_staged[q];
    if (in > 0) {
      char *at = stage + p->offset[s->local_recv[q].first];
      pieces[k] = (struct gc_nbc_piece){at, in, MPI_BYTE, 0};
      steps[k] = (struct gc_nbc_step){0, GC_NBC_RECV, s->local_recv[q].peer, k, 0};
      k++;
    }
    if (out > 0) {
      char *at = send + p->offset[s->local_send[q].first];
      pieces[k] = (struct gc_nbc_piece){at, out, MPI_BYTE, 0};
      steps[k] = (struct gc_nbc_step){0, GC_NBC_SEND, s->local_send[q].peer, k, 0};
      k++;
    }
  }
  for (int i = 0; i < s->nwide_recv; i++) {
    pieces[k] = (struct gc_nbc_piece){wide + p->offset[s->wide_recv[i].first],
                                      p->wide_recv_bytes[i], MPI_BYTE, 0};
    steps[k] = (struct gc_nbc_step){1, GC_NBC_RECV, s->wide_recv[i].peer, k, 0};
    k++;
  }
  for (int w = 0; rc == MPI_SUCCESS && w < s->nwide_send; w++) {
    const struct gc_alltoall_lg_msg *out = &s->wide_send[w];
    int n = 0;
    for (int e = out->first; e < out->first + out->count; e++)
      if (p->bytes[e] > 0)
        displs[n] = (MPI_Aint)p->offset[e], lens[n++] = (int)p->bytes[e];
    pieces[k] = (struct gc_nbc_piece){stage, 0, MPI_BYTE, 0}; /* empty: nothing to gather */
    if (n > 0) {
      rc = PMPI_Type_create_hindexed(n, lens, displs, MPI_BYTE, &pieces[k].type);
      if (rc == MPI_SUCCESS)
        pieces[k].count = 1, pieces[k].own = 1, rc = PMPI_Type_commit(&pieces[k].type);
    }
    steps[k] = (struct gc_nbc_step){1, GC_NBC_SEND, out->peer, k, 0};
    k++;
  }
  *nsteps = k;
  return rc;
}

/* The schedule from the laid-out plan, in memory agreed now. 0 when the MPI library's
 * own runs (every member alike), else 1 with *rc the result. */
static int issue(struct gc_alltoallv_call *call, struct gc_comm_state *st, MPI_Comm nbc,
                 MPI_Request *request, int *rc)
{
  const struct gc_alltoallv_lg_plan *p;
  int able;
  *rc = gc_alltoallv_lg_layout(call, st, &p, &able);
  if (*rc == GC_FALLBACK) /* agreed */
    return 0;
  able &= *rc == MPI_SUCCESS; /* an MPI error here: every member runs the library's own */
  struct lgv_size z = able ? size_of(p) : (struct lgv_size){0};
  struct gc_nbc_arena ar;
  int agreed = gc_comm_nbc_persistent_arena(st, able, able ? call_bytes(&z) : 0, &ar, rc);
  if (agreed <= 0)
    return agreed < 0;
  int tag = gc_nbc_tag(st->nbc_issued++);
  /* The line the executor logs at each completion the application sees: made on every
   * member alike (the first record names the communicator, collectively). */
  struct gc_call_pending log = {.posted = gc_clock_now()};
  gc_dispatch_issued(&gc_alltoallv_op, call, call->comm, GC_ENTRY_PERSISTENT, GC_ALLTOALLV_LG,
                     &log);
  size_t np = (size_t)z.npieces + 1, mw = (size_t)z.max_wide_send + 1;
  struct gc_nbc_step *steps = gc_nbc_carve(&ar, sizeof *steps * np);
  struct gc_nbc_piece *pieces = gc_nbc_carve(&ar, sizeof *pieces * np);
  MPI_Aint *displs = gc_nbc_carve(&ar, sizeof *displs * mw);
  int *lens = gc_nbc_carve(&ar, sizeof *lens * mw), nsteps = 0;
  struct lgv_nb *x = gc_nbc_carve(&ar, sizeof *x);
  if (x) {
    size_t npack = (size_t)z.npack + 1, ndeliver = (size_t)z.ndeliver + 1;
    *x = (struct lgv_nb){.pack = gc_nbc_carve(&ar, sizeof *x->pack * npack),
                         .deliver = gc_nbc_carve(&ar, sizeof *x->deliver * ndeliver),
                         .buf = gc_nbc_carve(&ar, z.areas), .recvbuf = call->recvbuf,
                         .sendbuf = call->sendbuf == MPI_IN_PLACE ? NULL : call->sendbuf,
                         .pack_comm = nbc};
  }
  *rc = MPI_ERR_INTERN; /* a bound above was wrong: never */
  if (steps && pieces && displs && lens && x && x->pack && x->deliver && x->buf) {
    memset(pieces, 0, sizeof *pieces * np);
    MPI_Aint lb;
    blocks_plan(p, call, x);
    *rc = PMPI_Type_get_extent(call->recvtype, &lb, &x->recv_extent);
    if (*rc == MPI_SUCCESS)
      *rc = gc_nbc_type_own(call->recvtype, &x->recvtype, &x->own_recvtype);
    if (*rc == MPI_SUCCESS && x->sendbuf &&
        (*rc = PMPI_Type_get_extent(call->sendtype, &lb, &x->send_extent)) == MPI_SUCCESS)
      *rc = gc_nbc_type_own(call->sendtype, &x->sendtype, &x->own_sendtype);
    if (*rc == MPI_SUCCESS)
      *rc = build(p, x, steps, pieces, &nsteps, displs, lens);
  }
  if (*rc == MPI_SUCCESS) { /* the pieces' own types and the arena go with it, either way */
    *rc = gc_nbc_persistent(nbc, call->comm, tag, steps, nsteps, pieces, nsteps, &lgv_nb_ops, x,
                            &ar, &log, request);
    return 1;
  }
  for (int i = 0; pieces && i < z.npieces; i++)
    if (pieces[i].own)
      PMPI_Type_free(&pieces[i].type);
  if (x)
    lgv_nb_release(x);
  gc_nbc_arena_give(&ar);
  return 1;
}

int gc_alltoallv_lg_issue(struct gc_alltoallv_call *call, MPI_Request *request, int *rc)
{
  const char *wanted = gc_alltoallv_op.wanted;
  if (!gc_g.cfg.nonblocking_grid || !gc_nbc_available() || gc_dispatch_bypass(GC_OP_ALLTOALLV) ||
      (strcmp(wanted, "lg") && strcmp(wanted, "auto")) || !gc_guard_enter())
    return 0;
  int took = 0, lg_only[GC_MAX_ALGORITHMS] = {[GC_ALLTOALLV_LG] = 1};
  struct gc_comm_state *st = gc_comm_state_get(call->comm);
  struct gc_call c;
  MPI_Comm nbc = MPI_COMM_NULL;
  if (st && gc_alltoallv_op.prepare(call, st, &c) &&
      gc_dispatch_scheduled(&gc_alltoallv_op, call, st, lg_only) == GC_ALLTOALLV_LG) {
    if ((*rc = gc_comm_nbc(st, 1, &nbc)) != MPI_SUCCESS) {
      took = 1;
      PMPI_Comm_call_errhandler(call->comm, *rc);
    } else if (nbc != MPI_COMM_NULL) {
      took = issue(call, st, nbc, request, rc);
      if (took && *rc != MPI_SUCCESS)
        PMPI_Comm_call_errhandler(call->comm, *rc);
    }
  }
  gc_guard_leave();
  return took;
}
