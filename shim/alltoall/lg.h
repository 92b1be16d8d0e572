/* LG all-to-all executor (lg.c): runs the schedule of lg_schedule.h with PMPI calls.
 *
 * gc_alltoall_lg_run returns MPI_SUCCESS, a PMPI error code unchanged, or
 * GC_FALLBACK (gridcoll.h) when every rank agreed, before anything was written to recvbuf,
 * that LG cannot serve it (a buffer could not be allocated, or the packed size of a block is
 * not m on some rank; the latter is learnt from LG's own messages on the private
 * communicators, see lg.c): the caller then calls PMPI_Alltoall with the same arguments.
 * MPI error codes are >= 0, so the value cannot collide with one. */
#ifndef GC_ALLTOALL_LG_H
#define GC_ALLTOALL_LG_H

#include "alltoall.h"
#include "gridcoll.h"

/* Base of LG's tags on the private communicators (ASCII "LG"; lg.c uses three even tags
 * from it and their low bit as a flag, and two more for a relayed run's legs, whose
 * messages carry the flag after their blocks instead). Between two processes a call sends
 * at most one message of each kind per direction, but for a leg's parts, which leave and
 * are received in order; calls on one communicator are ordered. */
#define GC_ALLTOALL_LG_TAG 0x4c47

#include "lg_schedule.h"

/* An algorithm that runs LG's schedule with other routes (relay.c): some wide messages
 * leave for a relay rank, merged per relay into one leg (out), which forwards them; a
 * relay merges what it forwards per destination into one leg (fwd_out). Between two
 * ranks there is then at most one leg of each kind per direction, so every receive
 * names its source and tag. */
struct gc_alltoall_lg_leg {
  int peer;    /* the relay (out, in), the stager (fwd_in) or the destination (fwd_out) */
  int first;   /* its first entry in the list it reads (out_list, in_list, fin_list, seg_*) */
  int n;       /* its entries */
  int pending; /* per call, out: wide sends not staged yet */
  int next;    /* per call, fwd_out: its next part to send (they leave in order) */
  int flag;    /* per call, out: the flag that travels with every part of the leg (lg.c) */
};

/* Every leg travels in nseg parts (relay_plan.h: cut-through), sent and received in
 * order, so a receive matches its part. Per-part arrays hold nseg entries per leg: leg g's
 * part j at g nseg + j. */
struct gc_alltoall_lg_route {
  int *send_leg;                /* [nwide_send] its out leg, -1: direct */
  int *recv_leg;                /* [nwide_recv] its in leg, -1: direct */
  int *recv_flag;               /* [nwide_recv] per call: a direct one's flag */
  int nout, nin, nfwd_in, nfwd_out, nseg;
  struct gc_alltoall_lg_leg *out, *in, *fwd_in, *fwd_out;
  int *out_list;                /* per out leg its wide sends, by destination rank */
  int *in_list;                 /* per in leg its wide receives, by stager rank */
  int *seg_in, *seg_offset, *seg_blocks; /* per fwd_out leg its messages, by stager rank:
                                   the fwd_in leg, block offset and blocks in the area */
  int *fin_list;                /* per fwd_in leg its messages (seg_*), by destination */
  int *seg_out;                 /* per message (seg_*) the fwd_out leg that carries it */
  size_t fwd_blocks;            /* the most blocks any rank forwards: buffers alike */
  MPI_Aint *displs;             /* room for one leg's hindexed type */
  int *count;
  int *flags;                   /* per call, per part: of in, fwd_in, fwd_out legs */
  int *pending;                 /* per call, per part j of a fwd_out leg: its messages whose
                                   part j is not in yet */
  MPI_Request *reqs;            /* per part: in, fwd_in, fwd_out, out legs */
};

/* LG's context of the communicator (its schedule), built on first use; NULL when that
 * failed on this rank (the run then agrees that every rank falls back). *ext and
 * *ext_free: where an algorithm running the schedule keeps its own part, freed with it. */
struct gc_alltoall_lg_schedule *gc_alltoall_lg_context(struct gc_comm_state *st, void ***ext,
                                                      void (***ext_free)(void *));

/* Called by an algorithm that made its routes with the communicator's state (relay.c):
 * every rank holds them (the state's making is agreed), so no routed run agrees. */
void gc_alltoall_lg_routes_made(struct gc_comm_state *st);

/* LG's run (routed 0, route NULL: gc_alltoall_lg_run), or the relayed one (routed 1:
 * route NULL on a rank that could not make its routes, which then falls back with every
 * rank). Nothing is agreed once the context is (made with the state, or agreed at a first
 * run) and, routed, once every rank holds its routes (made with the state, or agreed at
 * the first routed run): a rank without buffers takes part empty-handed, and its verdict
 * travels with the messages as the packing's does (lg.c). */
int gc_alltoall_lg_exchange(const struct gc_alltoall_call *call, struct gc_comm_state *st,
                            int routed, struct gc_alltoall_lg_route *route);

#endif
