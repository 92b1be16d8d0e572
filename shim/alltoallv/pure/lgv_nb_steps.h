/* LG-v's plan (lgv_schedule.h) as a nonblocking schedule (nbc_schedule.h): pure C, no MPI.
 *
 * A stager learns the sizes of the blocks it carries only from its cluster's size
 * messages, and a nonblocking call may neither wait for them at the post nor agree on
 * memory it only then knows it needs. So every buffer is carved from memory sized for
 * blocks of at most `quota` bytes each (the staged blocks are held twice), and whether
 * every block fits is known at the post only to each block's two ends. That verdict
 * travels with the messages the schedule sends anyway, so no rank decides alone and no
 * round trip is added:
 *   round 0 (sizes): to every other member of my cluster, my verdict (every block I send
 *     within the quota) and the sizes of the blocks I stage on it; after it every member
 *     knows its cluster's verdict and, where it is yes, every local message's size;
 *   round 1 (local): where my cluster's verdict is yes, LG-v's local phase (my blocks
 *     packed just before it: gc_alltoallv_lg_nb_next says when); none where it is no;
 *   round 2 (wide): every wide message starts with its cluster's verdict (a header), its
 *     blocks after it where that is yes (gathered from the stage area). Every rank
 *     receives a wide message from every other cluster (LG's placement), so after it all
 *     know the same verdict: everyone's. A wide receive is posted for its blocks only
 *     where each fits the quota; where one does not, its sender is a rank whose verdict
 *     was no, so its cluster sends the header alone (a receive may be longer than its
 *     message);
 *   round 3 (direct): where everyone's verdict is no, every block goes straight from the
 *     application's send buffer to its place in the receive buffer (the point-to-point
 *     exchange MPI_Alltoallv describes), blocks of no bytes left out at both ends; else
 *     nothing.
 * At the end, where everyone's verdict was yes, every block addressed to me is read from
 * the stage or wide area (gc_alltoallv_lg_nb_deliver). The receive buffer is written by
 * one of the two only. The MPI side (lgv_nb.c) packs, unpacks and turns a piece into a
 * buffer and a type; test/unit/check_lgv_nb_steps.c runs every rank of simulated worlds. */
#ifndef GC_ALLTOALLV_LGV_NB_STEPS_H
#define GC_ALLTOALLV_LGV_NB_STEPS_H

#include <stddef.h>

#include "lg_schedule.h"
#include "lgv_schedule.h"
#include "nbc_schedule.h"

/* The rounds of one call. */
enum { GC_LGV_NB_SIZES, GC_LGV_NB_LOCAL, GC_LGV_NB_WIDE, GC_LGV_NB_DIRECT, GC_LGV_NB_ROUNDS };

/* A wide message's header: its cluster's verdict, 1 when the blocks follow. */
typedef long long gc_lgv_nb_header;

/* What a step carries. */
enum gc_lgv_nb_data {
  GC_LGV_NB_LEFT_OUT, /* not posted (both ends leave it out alike) */
  GC_LGV_NB_BYTES,    /* count bytes at `at` */
  GC_LGV_NB_VALUES,   /* count long longs at `at` (a size message) */
  GC_LGV_NB_RECV_BLOCK, /* the application's receive block from rank `block` */
  GC_LGV_NB_SEND_BLOCK, /* the application's send block to rank `block` */
};

struct gc_lgv_nb_piece {
  char *at;
  long long count;
  int data;  /* enum gc_lgv_nb_data */
  int block; /* the application's blocks: the peer */
};

/* Where a call's memory is (carved by the caller, sizes below). */
struct gc_lgv_nb_memory {
  void *plan;              /* gc_alltoallv_lg_plan_bytes(s) */
  long long *sizes;        /* gc_alltoallv_lg_nb_values(s, n) */
  int *at;                 /* 2 * cluster_size */
  long long *wide_in_at;   /* nwide_recv + 1 */
  char *areas;             /* gc_alltoallv_lg_nb_areas(s, n, quota), aligned for a header */
};

/* One call's state. */
struct gc_lgv_nb {
  const struct gc_alltoall_lg_schedule *s; /* LG's placement, mine */
  struct gc_alltoallv_lg_plan p;           /* placed in the call's memory */
  long long quota;                         /* the most bytes of one block */
  int n;
  /* Every block's bytes as I send it and as I receive it ([n], the caller's: a size
   * beyond a long long is LLONG_MAX) from the counts at the post. */
  const long long *send_bytes, *recv_bytes;
  /* Verdicts: mine (every block I send within the quota), my cluster's (after the sizes),
   * everyone's (after the wide messages). */
  int mine, cluster, all;
  int done; /* the rounds prepared so far (gc_alltoallv_lg_nb_next) */
  /* Size messages, per local peer q: [my verdict, the bytes of each block staged on q]
   * out at sizes_out + out_at[q], what q sends me at sizes_in + in_at[q]. */
  long long *sizes_out, *sizes_in;
  int *out_at, *in_at;
  /* The areas: my packed blocks, what I stage, the wide sends gathered (each a header
   * then its blocks), the wide receives (each a header then its blocks where each fits
   * the quota), wide receive i at wide_in + wide_in_at[i], up to wide_in_at[i + 1]. */
  char *send, *stage, *wide_out, *wide_in;
  long long *wide_in_at;
  int first[GC_LGV_NB_ROUNDS + 1]; /* the index of each round's first step; the last: all */
};

/* The steps (= pieces) of one call on n ranks under schedule s, at most. */
static inline size_t gc_alltoallv_lg_nb_steps_bound(const struct gc_alltoall_lg_schedule *s, int n)
{
  return (size_t)(4 * (s->cluster_size - 1) + s->nwide_send + s->nwide_recv + 2 * n);
}

/* The long longs of the size messages, out (n at most) and in (stage_blocks). */
static inline size_t gc_alltoallv_lg_nb_values(const struct gc_alltoall_lg_schedule *s, int n)
{
  return (size_t)n + (size_t)s->stage_blocks;
}

/* The headers' bytes, beyond the blocks. */
static inline size_t gc_alltoallv_lg_nb_headers(const struct gc_alltoall_lg_schedule *s)
{
  return sizeof(gc_lgv_nb_header) * (size_t)(s->nwide_send + s->nwide_recv);
}

/* The blocks of a call's areas: my n packed, those I stage (twice), those I receive over
 * the wide area. Twice LG's count (lg_nb_steps.h: gc_alltoall_lg_nb_blocks) at most, so a
 * quota of half LG's agreed block fits memory reserved for LG. */
static inline size_t gc_alltoallv_lg_nb_blocks(const struct gc_alltoall_lg_schedule *s, int n)
{
  return (size_t)n + 2 * (size_t)s->stage_blocks + (size_t)s->wide_recv_blocks;
}

/* The bytes of the areas of a call on n ranks whose blocks hold `quota` bytes at most
 * (the staged blocks twice: as staged, then gathered into the wide sends), headers and
 * the alignment of four areas included. */
static inline size_t gc_alltoallv_lg_nb_areas(const struct gc_alltoall_lg_schedule *s, int n,
                                              size_t quota)
{
  return gc_alltoallv_lg_nb_blocks(s, n) * quota + gc_alltoallv_lg_nb_headers(s) + 4 * 16;
}

/* At the post: x placed in mem, for my schedule s on n ranks, every block's size as I send
 * (send_bytes) and receive it (recv_bytes), each >= 0; my verdict and the size messages
 * out made, where each wide message lands known. 0, or -1 for a bad argument. */
int gc_alltoallv_lg_nb_begin(struct gc_lgv_nb *x, const struct gc_alltoall_lg_schedule *s, int n,
                             long long quota, const struct gc_lgv_nb_memory *mem,
                             const long long *send_bytes, const long long *recv_bytes);

/* My steps into steps and pieces (room for gc_alltoallv_lg_nb_steps_bound each), round 0's
 * and the wide receives' pieces decided, the others left out until their round is
 * prepared. Their number. */
int gc_alltoallv_lg_nb_steps(struct gc_lgv_nb *x, struct gc_nbc_step *steps,
                             struct gc_lgv_nb_piece *pieces);

/* What gc_alltoallv_lg_nb_next asks of its caller. */
enum { GC_LGV_NB_READY, GC_LGV_NB_PACK };

/* Prepares the next round (x->done + 1) from what the rounds before it brought, rewriting
 * its pieces: GC_LGV_NB_READY, or GC_LGV_NB_PACK when my blocks must be packed into the
 * send area now, before that round is posted (p's offsets say where); -1 when the plan
 * does not fit the areas (never, where begin's quota held). Called in round order. */
int gc_alltoallv_lg_nb_next(struct gc_lgv_nb *x, struct gc_lgv_nb_piece *pieces);

/* At the end, where everyone's verdict was yes: unpack(ctx, e, at) for every block e of the
 * plan addressed to me that holds bytes (p.bytes[e] of them at `at`), until one returns
 * nonzero, which is returned; 0 otherwise, and where the direct round delivered. */
int gc_alltoallv_lg_nb_deliver(const struct gc_lgv_nb *x,
                               int (*unpack)(void *ctx, int e, const char *at), void *ctx);

#endif
