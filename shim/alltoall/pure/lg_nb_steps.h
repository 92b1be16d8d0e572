/* LG's schedule (lg_schedule.h) as a nonblocking schedule (nbc_schedule.h): pure C, no MPI.
 *
 * One call's memory is one buffer: area (my n blocks, packed in local-send order) | stage
 * (what the local phase brings me: my cluster's blocks to me and those I stage) | wide
 * (what the wide area brings me), gc_alltoall_lg_nb_blocks blocks of m bytes in all.
 * Before round 0 my blocks are packed into the area and my own local message copied from
 * the area to its place in the stage (the executor's start). Round 0: the local phase, one
 * message each way with every other member of my cluster, the receive posted before the
 * send. Round 1: the wide area, every receive, then every send gathered from the stage
 * block by block (a wide message's blocks are not contiguous there). At the end every
 * block addressed to me is read from the stage or the wide part (the executor's finish).
 * The MPI side (lg_nb.c) turns a piece into a buffer, a gathered one into an hindexed
 * type; test/unit/check_lg_nb_steps.c runs every rank's steps of simulated worlds. */
#ifndef GC_ALLTOALL_LG_NB_STEPS_H
#define GC_ALLTOALL_LG_NB_STEPS_H

#include <stddef.h>

#include "lg_schedule.h"
#include "nbc_schedule.h"

/* The data of one step, in the call's buffer: `bytes` contiguous bytes at `at`, or, where
 * gather_count > 0, blocks[gather_first .. + gather_count - 1] of the schedule, each m bytes
 * at at + index * m (index: the block's slot in the stage), in that order. */
struct gc_alltoall_lg_nb_piece {
  size_t at, bytes;
  int gather_first, gather_count;
};

/* Block `index` of my send buffer (its destination) is packed at `at` before round 0. */
struct gc_alltoall_lg_nb_pack {
  size_t at;
  int index;
};

/* The block from `src` is read at `at` after the last round. */
struct gc_alltoall_lg_nb_deliver {
  size_t at;
  int src;
};

/* What happens outside the rounds: n packs before them (pack[n]), my own local message
 * copied within the buffer, and n deliveries after them (deliver[n], one per source). */
struct gc_alltoall_lg_nb_plan {
  struct gc_alltoall_lg_nb_pack *pack;
  struct gc_alltoall_lg_nb_deliver *deliver;
  size_t copy_to, copy_from, copy_len;
};

/* The blocks of a call's buffer on a communicator of n ranks under my schedule s: my n
 * packed (the area), those the local phase brings me (the stage), those the wide area
 * brings me. */
static inline int gc_alltoall_lg_nb_blocks(const struct gc_alltoall_lg_schedule *s, int n)
{
  return n + s->stage_blocks + s->wide_recv_blocks;
}

/* The most steps (and pieces) a call makes under my schedule s. */
static inline int gc_alltoall_lg_nb_steps_bound(const struct gc_alltoall_lg_schedule *s)
{
  return 2 * s->cluster_size + s->nwide_send + s->nwide_recv;
}

/* My steps under s for blocks of m bytes on a communicator of n ranks: steps[i] carries
 * pieces[i] (room for gc_alltoall_lg_nb_steps_bound(s) of each), and plan's arrays (room
 * for n each) filled. The number of steps; -1 for a bad argument (n not the schedule's). */
int gc_alltoall_lg_nb_steps(const struct gc_alltoall_lg_schedule *s, int n, size_t m,
                            struct gc_nbc_step *steps, struct gc_alltoall_lg_nb_piece *pieces,
                            struct gc_alltoall_lg_nb_plan *plan);

#endif
