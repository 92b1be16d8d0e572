/* What MPI_Ialltoallv by LG-v (lgv_nb.c) carves for one call, shared with its part of
 * the communicator's reservation (lgv_nb_reserve.c), which sizes the slots for it. */
#ifndef GC_ALLTOALLV_LGV_NB_CALL_H
#define GC_ALLTOALLV_LGV_NB_CALL_H

#include <mpi.h>
#include <stddef.h>

#include "lg_schedule.h"
#include "lgv_schedule.h"
#include "nbc.h"

/* The rounds of one call (lgv_nb.c says what each carries). */
enum { LGV_NB_SIZES, LGV_NB_LOCAL, LGV_NB_WIDE, LGV_NB_DIRECT };

/* A wide message's header: its cluster's verdict, 1 when the blocks follow. */
typedef long long lgv_nb_header;

/* One call's own. */
struct lgv_nb_call {
  const struct gc_alltoall_lg_schedule *s; /* the communicator's (nbc_reserve.c) */
  struct gc_alltoallv_lg_plan p;           /* placed in the slot */
  long long quota;                         /* the most bytes of one block (agreed bound) */
  /* The application's call (MPI-4.0 section 6.12: none of it changes until the call
   * completes), its types our own: the application may free its. */
  const void *sendbuf;
  void *recvbuf;
  const void *sendcounts, *sdispls, *recvcounts, *rdispls;
  int n, large, own_sendtype, own_recvtype;
  MPI_Datatype sendtype, recvtype;
  MPI_Count send_size, recv_size;
  MPI_Aint send_extent, recv_extent;
  MPI_Comm pack_comm; /* what PMPI_Pack and PMPI_Unpack are given: any communicator of ours */
  /* Every block's bytes as I send it and as I receive it ([n], LLONG_MAX beyond a long long),
   * from the counts at the post: the verdicts and the direct exchange read them. */
  const long long *send_bytes, *recv_bytes;
  /* Verdicts: mine (every block I send within the quota), my cluster's (after the sizes),
   * everyone's (after the wide messages). */
  int mine, cluster, all;
  int done; /* the rounds prepared so far (lgv_nb.c: lgv_nb_round) */
  /* Size messages, per local peer q: [my verdict, the bytes of each block staged on q]
   * out at sizes_out + out_at[q], what q sends me at sizes_in + in_at[q]. */
  long long *sizes_out, *sizes_in;
  int *out_at, *in_at;
  /* The areas, in one carve: my packed blocks, what I stage, the wide sends gathered
   * (each a header then its blocks), the wide receives (each a header then its blocks
   * where each fits the quota), wide receive i at wide_in + wide_in_at[i], up to
   * wide_in_at[i + 1]. */
  char *send, *stage, *wide_out, *wide_in;
  long long *wide_in_at; /* [nwide_recv + 1] */
  /* The index of the first step (= piece) of the rounds whose pieces change. */
  int first_local, first_wide_send, first_direct;
};

/* The steps (= pieces) of one call on n ranks under schedule s. */
static inline size_t gc_alltoallv_lg_nb_steps(const struct gc_alltoall_lg_schedule *s, int n)
{
  return (size_t)(4 * (s->cluster_size - 1) + s->nwide_send + s->nwide_recv + 2 * n);
}

/* The headers' bytes, beyond the blocks. */
static inline size_t gc_alltoallv_lg_nb_headers(const struct gc_alltoall_lg_schedule *s)
{
  return sizeof(lgv_nb_header) * (size_t)(s->nwide_send + s->nwide_recv);
}

/* What one call carves (lgv_nb.c: issue), its areas of `areas` bytes included. */
static inline size_t gc_alltoallv_lg_nb_call_bytes(const struct gc_alltoall_lg_schedule *s, int n,
                                                   size_t areas)
{
  size_t ns = gc_alltoallv_lg_nb_steps(s, n) + 1, c = (size_t)s->cluster_size;
  /* The size messages out (n values at most) and in (stage_blocks), then every block's
   * bytes as I send (n) and receive it (n). */
  size_t sizes = 3 * (size_t)n + (size_t)s->stage_blocks;
  return gc_nbc_block_bytes((int)ns, (int)ns) + gc_nbc_carve_bytes(sizeof(struct gc_nbc_step) * ns) +
         gc_nbc_carve_bytes(sizeof(struct gc_nbc_piece) * ns) +
         gc_nbc_carve_bytes(sizeof(struct lgv_nb_call)) +
         gc_nbc_carve_bytes(gc_alltoallv_lg_plan_bytes(s)) +
         gc_nbc_carve_bytes(sizeof(long long) * sizes) + gc_nbc_carve_bytes(sizeof(int) * 2 * c) +
         gc_nbc_carve_bytes(sizeof(long long) * (size_t)(s->nwide_recv + 1)) +
         gc_nbc_carve_bytes(areas);
}

/* The blocks of a call's areas: my n packed, those I stage (twice), those I receive over
 * the wide area. Twice LG's count (lg_nb_call.h: gc_alltoall_lg_nb_blocks) at most, so a
 * quota of half LG's agreed block fits a slot reserved for LG. */
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

#endif
