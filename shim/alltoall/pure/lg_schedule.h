/* LG (Local Group) all-to-all schedule: pure C, no MPI (reference.md section 3, 000 Algorithm 1
 * corrected and generalised to any membership and any number of clusters).
 *
 * Block (s,d) is what rank s sends to rank d (m bytes). For every pair of clusters the
 * smaller plays A (a members), the larger B (b members); equal sizes: lower local cluster
 * index is A (gc_model_lg_plays_a, the rule the LG models read too). B is cut into B_s = B[s*a .. min(s*a+a,b)-1], r_s = |B_s|.
 *   local phase (one Alltoallv on the cluster): block (s,d) with d in my cluster goes
 *     directly; (A[k], B[s*a+i]) is staged on A[i]; (B[s*a+t], A[k]) on B[s*a + k mod r_s].
 *   wide-area phase: every stager sends each destination one message holding all the
 *     blocks staged on it for that destination, ordered by the source's index in its cluster:
 *     A[i] -> B[s*a+i] carries a blocks, B[s*a+i] -> A[k] (k mod r_s == i) carries r_s.
 * Every block crosses the wide area at most once, and exactly once when s and d are in
 * different clusters. Between two processes there is at most one message per phase and
 * direction.
 *
 * Wide-area messages of the whole communicator (gc_alltoall_lg_wide_messages):
 *   sum over cluster pairs {X,Y}, a = min(|X|,|Y|), b = max: b + a*ceil(b/a),
 *   which is 2*max(a,b) when a divides b (000 Sec. C), against 2*a*b for the direct scheme.
 *
 * Staging per process (gc_alltoall_lg_stage_blocks), for me = X[p] in cluster X of n_X:
 *   S = sum over clusters Y != X of
 *         a * ceil((b - p) / a)          if X plays A (a = n_X, b = n_Y; 0 when p >= b),
 *         r_s * ceil((a - i) / r_s)      if X plays B (a = n_Y, s = p / a, i = p mod a,
 *                                                      r_s = min(a, n_X - s*a)),
 *   each term < 2*n_Y, so S <= 2*(n - n_X) - (k - 1) with k clusters, and S = n - n_X when
 *   the smaller size of every pair divides the larger.
 * Temporary memory of the executor (lg.c) per process, in bytes:
 *   (n + n_X + S) * m  <=  (3n - n_X - k + 1) * m,   = (2n) * m when sizes divide,
 * that is n blocks packed for the local phase (the buffer is then reused for the n - n_X
 * blocks received over the wide area) and n_X + S blocks received in the local phase.
 * Schedule metadata is O(n): 2n + 2S blocks of 16 bytes plus 2 n_X + O(n) messages.
 */
#ifndef GC_ALLTOALL_LG_SCHEDULE_H
#define GC_ALLTOALL_LG_SCHEDULE_H

#include <stddef.h>
#include "layout.h"

/* Where a block is read (send lists) or written (receive lists), counted in blocks. */
enum gc_alltoall_lg_place {
  GC_ALLTOALL_LG_SENDBUF, /* my send buffer, block index = dst */
  GC_ALLTOALL_LG_STAGE,   /* my staging area (what the local phase received), index = slot */
  GC_ALLTOALL_LG_RECVBUF, /* my receive buffer, block index = src */
};

struct gc_alltoall_lg_block {
  int src, dst; /* block (src,dst), communicator ranks */
  int place;    /* enum gc_alltoall_lg_place */
  int index;    /* block index inside place */
};

/* One message: `count` blocks, blocks[first .. first+count-1] in message order. Its bytes are
 * contiguous at block `offset` of the area it is packed into or received into: the local
 * send area (local sends), the staging area (local receives) or the wide receive area (wide
 * receives). Wide sends are gathered from the staging area (offset -1). */
struct gc_alltoall_lg_msg {
  int peer; /* communicator rank */
  int count;
  int first;
  int offset;
};

struct gc_alltoall_lg_schedule {
  int rank, cluster, cluster_size, index; /* me and my cluster (from the layout) */
  int stage_blocks;     /* size of the staging area: cluster_size + S */
  int wide_recv_blocks; /* size of the wide receive area: n - cluster_size */
  int max_wide_send;    /* most blocks in one wide send */
  /* Local phase: exactly cluster_size messages each way, indexed by the peer's index in my
   * cluster (= its rank in the cluster sub-communicator); every one holds >= 1 block. */
  struct gc_alltoall_lg_msg *local_send, *local_recv;
  int nwide_send, nwide_recv;
  struct gc_alltoall_lg_msg *wide_send, *wide_recv;
  int nblocks;
  struct gc_alltoall_lg_block *blocks;
};

/* Builds the schedule of `rank`. Returns 0, -1 when out of memory, -2 for a bad argument
 * (the schedule then holds nothing to free). Cost O(n + n_X * k) time, O(n) memory. */
int gc_alltoall_lg_schedule_build(struct gc_alltoall_lg_schedule *s, const struct gc_layout *l,
                                  int rank);
void gc_alltoall_lg_schedule_free(struct gc_alltoall_lg_schedule *s);

/* Index in rank's cluster of the member that stages block (src = rank, dst). */
int gc_alltoall_lg_stager(const struct gc_layout *l, int src, int dst);
/* S above: blocks staged on rank for the wide area. */
long long gc_alltoall_lg_stage_blocks(const struct gc_layout *l, int rank);
/* Wide-area messages of the whole communicator (formula above). */
long long gc_alltoall_lg_wide_messages(const struct gc_layout *l);

#endif
