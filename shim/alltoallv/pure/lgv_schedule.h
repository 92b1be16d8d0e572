/* LG-v: LG for MPI_Alltoallv, as a byte layout over LG's own schedule. Pure C, no MPI.
 *
 * Placement is LG's, unchanged (lg_schedule.h: who stages which block on whom, which
 * blocks travel together in which message and in which order): the placement never
 * depended on m, so the schedule is shared and only the sizes are new. Block (s,d) now has
 * its own size, the bytes of sendcounts[d] elements of s's sendtype (= recvcounts[s] of
 * d's recvtype: type signatures match). Who knows which size:
 *   - s knows every block it sends (its sendcounts): its local sends;
 *   - d knows every block it receives (its recvcounts): the direct block of each local
 *     receive and every block of every wide receive, so a wide message needs no header;
 *   - a stager knows nothing of the blocks it carries. Before the data, every member tells
 *     each stager in its cluster the sizes of the blocks it will stage there (the "size
 *     message": local_send[q]'s blocks after the direct one, as 64-bit integers, in message
 *     order). That costs one local latency and no wide-area round trip.
 * Then every message's byte size is known to both of its ends, and areas are laid out as
 * LG's with bytes instead of blocks:
 *   send area:  my packed blocks in local-send order (message q at local_send_offset[q],
 *               its direct block first, the staged part after it, contiguous);
 *   stage area: what the local phase brings, in local-receive order (the staged part of
 *               message q at local_recv_offset[q] + its direct block's size);
 *   wide area:  what the wide phase brings, in wide-receive order.
 * Wide sends gather their blocks from the stage area (offsets per block).
 * Wide messages are LG's: every block crosses the wide area once, packed per cluster
 * pair, and a wide message is sent even when it carries no bytes, because it carries the
 * executor's verdict (lgv.c) to every rank of the remote cluster. */
#ifndef GC_ALLTOALLV_LGV_SCHEDULE_H
#define GC_ALLTOALLV_LGV_SCHEDULE_H

#include "lg_schedule.h"

struct gc_alltoallv_lg_plan {
  const struct gc_alltoall_lg_schedule *s; /* the placement; not owned */
  long long *bytes;  /* [s->nblocks] bytes of each entry of s->blocks; -1: not known yet */
  long long *offset; /* [s->nblocks] byte offset of the entry in its area (above) */
  /* Per local peer q, the direct block's bytes then the staged part's bytes. */
  long long *send_direct, *send_staged, *recv_direct, *recv_staged; /* [cluster_size] */
  long long *wide_send_bytes, *wide_recv_bytes; /* [nwide_send], [nwide_recv] */
  long long send_area, stage_area, wide_area;   /* bytes */
  long long max_msg; /* the largest message of either phase, either direction, bytes */
};

/* Allocates the plan of schedule s. 0, -1 out of memory (nothing to free), -2 bad argument. */
int gc_alltoallv_lg_plan_init(struct gc_alltoallv_lg_plan *p,
                              const struct gc_alltoall_lg_schedule *s);
void gc_alltoallv_lg_plan_free(struct gc_alltoallv_lg_plan *p);
/* The same in memory the caller holds (a nonblocking call's slot, lgv_nb.c): the bytes it
 * takes (aligned for long long), then the plan placed in `mem`, which it does not own
 * (never gc_alltoallv_lg_plan_free it). 0, or -2 bad argument. */
size_t gc_alltoallv_lg_plan_bytes(const struct gc_alltoall_lg_schedule *s);
int gc_alltoallv_lg_plan_place(struct gc_alltoallv_lg_plan *p,
                               const struct gc_alltoall_lg_schedule *s, void *mem);

/* Step 1: the sizes this rank knows, send_bytes[d] and recv_bytes[src] for every
 * communicator rank; the staged sizes of local receives become -1. 0, or -2 when a size
 * is negative. */
int gc_alltoallv_lg_plan_known(struct gc_alltoallv_lg_plan *p, const long long *send_bytes,
                               const long long *recv_bytes);

/* Step 2, the size messages: the size message to (send = 1) or from (send = 0) local peer
 * q is the `*count` values at the returned address (the bytes of the staged blocks, in
 * message order); receiving writes them where they belong. *count may be 0: no message. */
long long *gc_alltoallv_lg_plan_sizes(struct gc_alltoallv_lg_plan *p, int q, int send,
                                      int *count);

/* Step 3, once every size message has arrived: the sizes of the wide sends (from the
 * staged blocks), every offset and total. 0, or -2 when a size is still unknown or a
 * total overflows. */
int gc_alltoallv_lg_plan_layout(struct gc_alltoallv_lg_plan *p);

#endif
