/* The relayed all-to-all's route planner and its routes: pure C, no MPI (issue 27).
 *
 * LG sends every cluster pair's bytes over the pair's own link. Where the triangle
 * inequality is broken (a direct link slower than the route through a third cluster, as
 * HLOT finds for the broadcast, reference.md section 4), that link bounds the exchange.
 * The planner splits each ordered pair's bytes B_cd = n_c n_d m between the direct link
 * and the route through one relay cluster r, so that the last wide-area link to finish
 * finishes earliest:
 *   minimise T such that every link e = (x,y) carrying load_e (its own pair's direct bytes
 *   plus the relayed bytes whose route crosses it) ends by T:
 *     lat_e + load_e / cap_e <= T,  lat_e the latency of the routes reaching its far end
 *     (W_xy for direct bytes, W_cr + W_rd for relayed bytes on their second leg; each W
 *     the latency of the pair's wide message on that link, gc_model_lg_leg: where the
 *     configuration measured the link's curve, the curve's at the message's size),
 *   and the relay cluster's interfaces (n_r of 1/beta_r each) forward their bytes by T;
 *   a relay forwards each part of a leg once it is in (cut-through, nseg parts: below),
 *   so the relayed bytes' last parts cross (r,d) once (c,r) has carried its load:
 *   W_cr + load_cr / cap_cr + W_rd + relayed_rd / (nseg cap_rd) <= T, relayed_rd the
 *   relayed bytes on (r,d) (nseg 1: store and forward).
 * cap_e is what LG's model gives a pair's flows (gc_model_link_rate: the shared link, no
 * more than max(n_x, n_y) flows of one flow's rate). Splits are fractional. T is found by
 * bisection; for a given T the direct link of each pair takes all it can, and what it
 * cannot is offered, largest first, to the one relay with the most room. A pair is never
 * relayed while its direct link can carry it by T, so where no relay lowers T every share
 * is 0 and the routes are LG's; the planned T (`bound`) is then LG's link bound.
 *
 * The routes relay whole messages, so the plan the algorithm runs (whole, as
 * gc_alltoall_relay_plan_take makes it) then rounds each share f of a pair's Q wide
 * messages to n / Q, n floor(Q f) or one more, whichever ends the links earlier with the
 * relayed bytes stored and forwarded (relay_plan.c: whole_messages); `bound` stays the
 * fractional plan's.
 * The routes (relay.c runs them): LG's schedule is kept; each of its wide messages S -> D
 * (S the stager in cluster c, D the destination in d) either crosses (c,d) or goes to a
 * rank R of the relay cluster, which forwards it to D. Of a pair's messages, numbered q
 * as below, those where floor((q+1) n / Q) > floor(q n / Q) are relayed (n = floor(Q f),
 * f the pair's share: n of the Q, spread evenly), and the j-th relayed one goes to member
 * (j + c + d) mod n_r of the relay: spread over its interfaces.
 *   c plays A (a = n_c): A[i] -> B[j], q = j;  c plays B: B[s a + i] -> A[k], q = s a + k.
 * Every rank computes the same routes from the layout and the plan. */
#ifndef GC_ALLTOALL_RELAY_PLAN_H
#define GC_ALLTOALL_RELAY_PLAN_H

#include <stddef.h>
#include "layout.h"
#include "model.h"

/* Cut-through (relay.c): every leg of a relayed run travels in nseg parts, and a relay
 * forwards part j to a destination as soon as part j of each message it forwards there is
 * in, while the later parts still cross the first leg. The relayed bytes then reach the
 * second leg's end only their last part later than the first leg's, not their whole load
 * later (store and forward, nseg 1), so the planner can give the relay more. More parts
 * shorten that delay and cost one message each: under SimGrid, 4 parts beat 1 on every
 * broken grid of scripts/bench-relay.sh from 1 KiB to 256 KiB, and 8 beat 4 at none
 * (doc/benchmarks.md). */
#define GC_ALLTOALL_RELAY_SEGMENTS 4

/* The plan of a k-cluster grid: share[c*k + d] of B_cd goes through via[c*k + d] (-1 and 0
 * where all goes direct); bound: the planned T (s), the latest link's end; direct: T
 * with every share 0 (LG's routes). */
struct gc_alltoall_relay_plan {
  int k;
  double *share; /* [k*k] */
  int *via;      /* [k*k] */
  int nseg;      /* the caller's: the parts of each leg, 1 .. GC_ALLTOALL_RELAY_SEGMENTS */
  int whole;     /* the caller's: 1 rounds each share to whole messages of the routes,
                  * n / Q of a pair's Q (relay_plan.c: whole_messages); 0 keeps the
                  * fractional split. bound stays the fractional plan's either way. */
  double bound, direct;
};

/* Working memory of gc_alltoall_relay_plan_make: this many doubles. */
size_t gc_alltoall_relay_plan_work(int k);

/* Plans the all-to-all of blocks of m bytes on grid g (sizes, latencies, bandwidths,
 * aggregates, window, interfaces as the models read them) into p (its arrays the
 * caller's, k*k each), using work (gc_alltoall_relay_plan_work(k) doubles). Returns 0,
 * or GC_MODEL_EINVAL on a bad grid (p untouched). */
int gc_alltoall_relay_plan_make(const struct gc_model_grid *g, double m, double *work,
                                struct gc_alltoall_relay_plan *p);

/* The plan of blocks of m bytes on g with its arrays and work taken from g->scratch
 * (gc_model_relay_row_scratch counts them): the caller releases them (gc_scratch_mark
 * before, gc_scratch_release after). 0, GC_MODEL_ENOMEM or GC_MODEL_EINVAL. */
int gc_alltoall_relay_plan_take(const struct gc_model_grid *g, double m,
                                struct gc_alltoall_relay_plan *p);

/* 1 when the plan gives any pair a share (its routes may still relay no message:
 * gc_alltoall_relay_routes_relay). */
int gc_alltoall_relay_plan_relays(const struct gc_alltoall_relay_plan *p);
/* 1 when the routes of plan p on layout l (gc_alltoall_relay_of) relay at least one of
 * LG's wide messages: a share smaller than one message of its pair relays nothing, and
 * the run is then LG's exactly (relay.c runs it so, the row predicts nothing). */
int gc_alltoall_relay_routes_relay(const struct gc_layout *l,
                                   const struct gc_alltoall_relay_plan *p);

/* Blocks of LG's wide message from rank src to rank dst (gc_alltoall_lg_schedule's), 0
 * when LG sends none between them. */
int gc_alltoall_relay_msg_blocks(const struct gc_layout *l, int src, int dst);

/* The rank that forwards LG's wide message src -> dst under plan p, -1 when it goes
 * direct (or there is no such message). */
int gc_alltoall_relay_of(const struct gc_layout *l, const struct gc_alltoall_relay_plan *p,
                         int src, int dst);

/* The largest part (bytes, its flag included) of the relayed legs crossing each wide link
 * under plan p on layout l, blocks of m bytes: part[x*k + y] for link (x,y), 0 where no
 * relayed leg crosses it. A leg (relay.c) merges every message one rank sends another
 * through the relay (a stager's to one relay rank, a relay rank's to one destination, of
 * every pair routed so) and travels in p->nseg parts of whole blocks, so a part is the
 * nseg-th of one message or of several, rounded to blocks; its legs' parts leave at once,
 * so a link's latency is its largest part's. bench-auto's broken3 at 16 KiB blocks: legs
 * of one wide message of 14 blocks, in parts of 3 and 4 blocks; 4 blocks and the flag
 * are 65540 bytes, past SimGrid's default protocol switch (65472), and pay its latency
 * (117 ms against 36), which a part of the mean size, 56 KiB, does not
 * (doc/benchmarks.md). Work: acc, l->size * GC_ALLTOALL_RELAY_SEGMENTS doubles, and
 * seen, 2 l->size ints (gc_model_relay_row_scratch counts them). O(sum over the relayed
 * pairs of n_c n_d), as the routes (relay.c). */
void gc_alltoall_relay_part_bytes(const struct gc_layout *l,
                                  const struct gc_alltoall_relay_plan *p, double m,
                                  double *part, double *acc, int *seen);

/* Part j of nseg of a message of `blocks` blocks: the blocks from *first on, this many
 * (blocks j / nseg up to blocks (j + 1) / nseg, so the parts tile the message in order). */
int gc_alltoall_relay_part(int blocks, int j, int nseg, int *first);

#endif
