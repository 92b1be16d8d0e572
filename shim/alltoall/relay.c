/* The relayed all-to-all (issue 27): LG's schedule (lg_schedule.h) whose wide messages
 * of the slow pairs partly go through a relay cluster, as the planner decided
 * (relay_plan.h). LG's executor runs it (lg.c: gc_alltoall_lg_exchange); this file turns
 * the plan into this rank's routes (lg.h: struct gc_alltoall_lg_route), each leg sent in
 * the plan's nseg parts (relay_plan.h: cut-through):
 *   out:     my wide messages that go to a relay, one leg per relay rank;
 *   in:      the wide messages a relay forwards me, one leg per relay rank;
 *   fwd_in:  as a relay, what each stager sends me to forward, one leg per stager;
 *   fwd_out: as a relay, what I forward to each destination, one leg per destination.
 * Every rank computes every route from the layout and the plan (both identical
 * everywhere), so senders and receivers agree on each leg's blocks and order.
 *
 * No allreduce per call (lg.c): the routes' memory is made with the communicator's state
 * and agreed there (gc_alltoall_relay_state_make; where it was not, the first relayed run
 * agrees), and a rank whose buffers cannot grow takes part empty-handed. The packing's
 * verdict travels with the messages, an int after the blocks of every wide message and leg
 * (a relay merges several stagers' messages, so one tag bit could not say whose flag it
 * is). Why every rank D learns the flag of every rank X before writing recvbuf: X's block
 * for D goes X -> stager S (X's flag in the tag of its staged part, or S = X) -> D, either
 * in S's direct wide message, which leaves only once every block in it is staged, so with
 * S's AND that includes X's flag; or in part j of S's leg to relay R, whose parts all
 * leave likewise, with part j of R's leg to D, which leaves only once part j of every
 * message in it has arrived and carries the AND of their flags (cut-through, relay_plan.h:
 * a leg travels in nseg parts). Each flag along the chain is the AND of the one before it,
 * so D's verdict includes X's; D ANDs only true flags, so it is 0 exactly when some rank
 * could not pack, alike on every rank. X in D's own cluster: its staged part to D, as in LG.
 *
 * Memory (kept with LG's context, made with the communicator's state where relay may run,
 * else at the first relayed run): the routes, O(nseg (n + R)) ints for R = LG's wide
 * messages of the communicator (gc_alltoall_lg_wide_messages, a bound on what one rank can
 * forward); buffers: LG's (3n - n_X - k + 1) m at most, plus F m, F the most blocks any rank
 * forwards for this block size (relay_plan.h spreads a pair's relayed messages over the
 * relay cluster's members, so F is about the relayed blocks of the pairs through a cluster
 * over its size). The plan and the routes are recomputed when the block size or the
 * network view changes: O(sum over relayed pairs of n_c n_d). */
#include "alltoall.h"
#include "alltoall_algorithms.h"
#include "lg.h"
#include "relay_plan.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct relay_msg {
  int s, d, blocks, leg, offset; /* a relayed wide message S -> D, its fwd_in leg and place */
};

struct relay_part {
  struct gc_alltoall_lg_route rt;
  struct relay_msg *msgs; /* [cap] the messages I forward */
  struct relay_msg *mine; /* [nwide_send + nwide_recv]: (relay, peer, index) to sort */
  long long *per_rank;    /* [n] blocks each rank forwards */
  size_t cap;
  size_t m;               /* the plan's block size and network version; 0: none */
  unsigned long long version;
  int relays;             /* whether that plan's routes relay a message (else rt is stale) */
};

int gc_alltoall_relay_supports(const void *call, const struct gc_comm_state *st)
{
  return st->layout.nclusters >= 3 && gc_alltoall_lg_supports(call, st);
}

static void part_free(void *data)
{
  struct relay_part *x = data;
  if (!x)
    return;
  struct gc_alltoall_lg_route *rt = &x->rt;
  free(rt->send_leg), free(rt->recv_leg), free(rt->recv_flag), free(rt->out), free(rt->in);
  free(rt->fwd_in), free(rt->fwd_out), free(rt->out_list), free(rt->in_list), free(rt->seg_in);
  free(rt->seg_offset), free(rt->seg_blocks), free(rt->fin_list), free(rt->seg_out);
  free(rt->displs);
  free(rt->count), free(rt->flags), free(rt->pending), free(rt->reqs);
  free(x->msgs), free(x->mine), free(x->per_rank);
  free(x);
}

static struct relay_part *part_make(const struct gc_comm_state *st,
                                    const struct gc_alltoall_lg_schedule *s)
{
  struct relay_part *x = calloc(1, sizeof *x);
  if (!x)
    return NULL;
  size_t n = (size_t)st->size, ws = (size_t)s->nwide_send + 1, wr = (size_t)s->nwide_recv + 1;
  size_t parts = GC_ALLTOALL_RELAY_SEGMENTS;
  size_t cap = (size_t)gc_alltoall_lg_wide_messages(&st->layout) + 1;
  size_t most = cap > (size_t)s->stage_blocks ? cap : (size_t)s->stage_blocks;
  most = (most > wr ? most : wr) + 1;
  struct gc_alltoall_lg_route *rt = &x->rt;
  x->cap = cap;
  rt->send_leg = malloc(sizeof(int) * ws), rt->recv_leg = malloc(sizeof(int) * wr);
  rt->recv_flag = malloc(sizeof(int) * wr);
  rt->out = malloc(sizeof *rt->out * ws), rt->in = malloc(sizeof *rt->in * wr);
  rt->fwd_in = malloc(sizeof *rt->fwd_in * n), rt->fwd_out = malloc(sizeof *rt->fwd_out * n);
  rt->out_list = malloc(sizeof(int) * ws), rt->in_list = malloc(sizeof(int) * wr);
  rt->seg_in = malloc(sizeof(int) * cap), rt->seg_offset = malloc(sizeof(int) * cap);
  rt->seg_blocks = malloc(sizeof(int) * cap), rt->fin_list = malloc(sizeof(int) * cap);
  rt->seg_out = malloc(sizeof(int) * cap);
  rt->displs = malloc(sizeof(MPI_Aint) * most), rt->count = malloc(sizeof(int) * most);
  rt->flags = malloc(sizeof(int) * (wr + 2 * n) * parts);
  rt->pending = malloc(sizeof(int) * n * parts);
  rt->reqs = malloc(sizeof(MPI_Request) * (wr + 2 * n + ws) * parts);
  x->msgs = malloc(sizeof *x->msgs * cap), x->mine = malloc(sizeof *x->mine * (ws + wr));
  x->per_rank = malloc(sizeof(long long) * n);
  if (!rt->send_leg || !rt->recv_leg || !rt->recv_flag || !rt->out || !rt->in ||
      !rt->fwd_in || !rt->fwd_out || !rt->out_list || !rt->in_list || !rt->seg_in ||
      !rt->seg_offset || !rt->seg_blocks || !rt->fin_list || !rt->seg_out || !rt->displs ||
      !rt->count ||
      !rt->flags || !rt->pending || !rt->reqs || !x->msgs || !x->mine || !x->per_rank) {
    part_free(x);
    return NULL;
  }
  return x;
}

static int by_s_then_d(const void *a, const void *b)
{
  const struct relay_msg *x = a, *y = b;
  return x->s != y->s ? (x->s > y->s) - (x->s < y->s) : (x->d > y->d) - (x->d < y->d);
}

static int by_d_then_s(const void *a, const void *b)
{
  const struct relay_msg *x = a, *y = b;
  return x->d != y->d ? (x->d > y->d) - (x->d < y->d) : (x->s > y->s) - (x->s < y->s);
}

/* Legs from (key s = the other end, d = the order inside, blocks = the entry) sorted by
 * (s, d): one leg per s, its entries in list. Returns the number of legs. */
static int group(struct relay_msg *m, int count, struct gc_alltoall_lg_leg *legs, int *list,
                 int *leg_of)
{
  int nlegs = 0;
  qsort(m, (size_t)count, sizeof *m, by_s_then_d);
  for (int i = 0; i < count; i++) {
    if (i == 0 || m[i].s != m[i - 1].s)
      legs[nlegs++] = (struct gc_alltoall_lg_leg){.peer = m[i].s, .first = i};
    legs[nlegs - 1].n++;
    list[i] = m[i].blocks;
    leg_of[m[i].blocks] = nlegs - 1;
  }
  return nlegs;
}

/* This rank's routes under plan p. */
static void routes_make(struct relay_part *x, const struct gc_comm_state *st,
                        const struct gc_alltoall_lg_schedule *s,
                        const struct gc_alltoall_relay_plan *p)
{
  const struct gc_layout *l = &st->layout;
  struct gc_alltoall_lg_route *rt = &x->rt;
  int me = st->rank, k = l->nclusters, count = 0;
  for (int w = 0; w < s->nwide_send; w++) {
    int d = s->wide_send[w].peer, r = gc_alltoall_relay_of(l, p, me, d);
    rt->send_leg[w] = -1;
    if (r >= 0)
      x->mine[count++] = (struct relay_msg){.s = r, .d = d, .blocks = w};
  }
  rt->nout = group(x->mine, count, rt->out, rt->out_list, rt->send_leg);
  count = 0;
  for (int i = 0; i < s->nwide_recv; i++) {
    int src = s->wide_recv[i].peer, r = gc_alltoall_relay_of(l, p, src, me);
    rt->recv_leg[i] = -1;
    if (r >= 0)
      x->mine[count++] = (struct relay_msg){.s = r, .d = src, .blocks = i};
  }
  rt->nin = group(x->mine, count, rt->in, rt->in_list, rt->recv_leg);

  /* What every rank forwards (for the buffers' size, alike everywhere) and what I do. */
  int nmsg = 0;
  for (int r = 0; r < st->size; r++)
    x->per_rank[r] = 0;
  for (int c = 0; c < k; c++)
    for (int d = 0; d < k; d++) {
      if (c == d || p->via[c * k + d] < 0 || p->share[c * k + d] <= 0.0)
        continue;
      for (int i = 0; i < l->cluster_size[c]; i++)
        for (int j = 0; j < l->cluster_size[d]; j++) {
          int src = gc_layout_member(l, c, i), dst = gc_layout_member(l, d, j);
          int r = gc_alltoall_relay_of(l, p, src, dst);
          if (r < 0)
            continue;
          int b = gc_alltoall_relay_msg_blocks(l, src, dst);
          x->per_rank[r] += b;
          if (r == me && (size_t)nmsg < x->cap)
            x->msgs[nmsg++] = (struct relay_msg){.s = src, .d = dst, .blocks = b};
        }
    }
  long long most = 0;
  for (int r = 0; r < st->size; r++)
    most = x->per_rank[r] > most ? x->per_rank[r] : most;
  rt->fwd_blocks = (size_t)most;
  /* fwd_in: one leg per stager, its messages by destination, packed in the area. */
  qsort(x->msgs, (size_t)nmsg, sizeof *x->msgs, by_s_then_d);
  rt->nfwd_in = 0;
  for (int i = 0, offset = 0; i < nmsg; i++) {
    if (i == 0 || x->msgs[i].s != x->msgs[i - 1].s)
      rt->fwd_in[rt->nfwd_in++] = (struct gc_alltoall_lg_leg){.peer = x->msgs[i].s};
    x->msgs[i].leg = rt->nfwd_in - 1, x->msgs[i].offset = offset;
    offset += x->msgs[i].blocks;
  }
  /* fwd_out: one leg per destination, its messages by stager. */
  qsort(x->msgs, (size_t)nmsg, sizeof *x->msgs, by_d_then_s);
  rt->nfwd_out = 0;
  for (int i = 0; i < nmsg; i++) {
    if (i == 0 || x->msgs[i].d != x->msgs[i - 1].d)
      rt->fwd_out[rt->nfwd_out++] = (struct gc_alltoall_lg_leg){.peer = x->msgs[i].d,
                                                                .first = i};
    rt->fwd_out[rt->nfwd_out - 1].n++;
    rt->seg_out[i] = rt->nfwd_out - 1;
    rt->seg_in[i] = x->msgs[i].leg;
    rt->seg_offset[i] = x->msgs[i].offset;
    rt->seg_blocks[i] = x->msgs[i].blocks;
  }
  /* Each fwd_in leg's messages in its stager's order, by destination: the messages
   * sorted by destination, taken stager by stager. */
  for (int g = 0, at = 0; g < rt->nfwd_in; g++) {
    rt->fwd_in[g].first = at;
    for (int i = 0; i < nmsg; i++)
      if (rt->seg_in[i] == g)
        rt->fin_list[at++] = i, rt->fwd_in[g].n++;
  }
  rt->nseg = p->nseg;
}

/* The routes' memory in LG's context, made on first use, and LG's schedule (*s); NULL
 * when either cannot be made here (memory), *what then names which, for the warning. */
static struct relay_part *part_get(struct gc_comm_state *st,
                                   const struct gc_alltoall_lg_schedule **s, const char **what)
{
  void **ext;
  void (**ext_free)(void *);
  *what = "LG's schedule";
  if (!(*s = gc_alltoall_lg_context(st, &ext, &ext_free)))
    return NULL;
  *what = "the relayed all-to-all's routes";
  if (!*ext && (*ext = part_make(st, *s)))
    *ext_free = part_free;
  return *ext;
}

/* Whether blocks of m bytes are relayed under the current network view and, where they
 * are, their routes (*rt; NULL where the routes' memory cannot be made here: the run then
 * agrees that every rank falls back). The plan is made only when the block size or the
 * view changed since relay last ran here, and its verdict is kept with the routes, so a
 * call that repeats the last one plans nothing in its timed region. A rank without the
 * memory plans at every call; the plan is identical everywhere, so is the verdict. */
static int relayed_routes(struct gc_comm_state *st, size_t m, struct gc_alltoall_lg_route **rt)
{
  const struct gc_alltoall_lg_schedule *s;
  const char *what;
  struct relay_part *x = part_get(st, &s, &what);
  *rt = NULL;
  if (x && x->m == m && x->version == st->version) {
    if (x->relays)
      *rt = &x->rt;
    return x->relays;
  }
  struct gc_scratch *sc = st->network.grid.scratch;
  size_t mark = gc_scratch_mark(sc);
  struct gc_alltoall_relay_plan p;
  int relays = gc_alltoall_relay_plan_take(&st->network.grid, (double)m, &p) == 0 &&
               gc_alltoall_relay_routes_relay(&st->layout, &p);
  if (x) {
    if (relays)
      routes_make(x, st, s, &p), *rt = &x->rt;
    x->m = m, x->version = st->version, x->relays = relays;
  } else if (relays) {
    gc_warn_oom("%s on communicator %llu; every rank runs this all-to-all by the MPI "
                "library", what, st->id);
  }
  gc_scratch_release(sc, mark);
  return relays;
}

int gc_alltoall_relay_state_make(struct gc_comm_state *st)
{
  /* Where relay may run (forced, or a candidate of `auto`), its routes' memory is made with
   * the communicator's state and agreed there: no relayed run then agrees anything (lg.c),
   * the first included. Routes for a block size are computed into it at the first run of
   * that size, without allocating. */
  const char *wanted = gc_alltoall_op.wanted;
  if ((strcmp(wanted, "relay") && strcmp(wanted, "auto")) || st->layout.nclusters < 3 ||
      !gc_alltoall_lg_serves(st))
    return 0;
  const struct gc_alltoall_lg_schedule *s;
  const char *what;
  if (!part_get(st, &s, &what))
    return -1;
  gc_alltoall_lg_routes_made(st);
  return 0;
}

int gc_alltoall_relay_run(const void *args, struct gc_comm_state *st, const struct gc_plan *plan)
{
  const struct gc_alltoall_call *call = args;
  (void)plan;
  if (call->block_bytes == 0)
    return MPI_SUCCESS;
  /* Where the plan's routes relay nothing, LG runs as LG. */
  struct gc_alltoall_lg_route *rt;
  if (relayed_routes(st, call->block_bytes, &rt))
    return gc_alltoall_lg_exchange(call, st, 1, rt);
  return gc_alltoall_lg_exchange(call, st, 0, NULL);
}
