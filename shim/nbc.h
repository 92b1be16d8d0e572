/* The nonblocking schedules' executor: a schedule (nbc_schedule.h) posted at the call and
 * advanced inside the application's completion calls, behind a request the application
 * uses anywhere the standard allows (doc/design.md: Nonblocking collectives says why this
 * mechanism).
 *
 * Under MPICH the request is an extended generalized request (MPIX_Grequest_class with a
 * poll and a wait function): MPICH's own MPI_Test, MPI_Wait and their all/any/some forms
 * call them, on arrays mixing them with any other request, and gridcoll's poll advances
 * every schedule in flight, not only the one asked about, so that one rank waiting on
 * one schedule never starves another rank's. Under SMPI (the simulator) and Open MPI it
 * is a plain generalized request, advanced by gridcoll's wrappers of the completion calls
 * (nbc_wait.c), and under Open MPI by its own progress engine too (nbc_opal.c), inside
 * every call that waits or polls, Fortran's included. */
#ifndef GC_NBC_H
#define GC_NBC_H

#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>

#include "nbc_schedule.h"
#include "record.h"

/* GC_NBC_EXTENDED: MPICH's extended generalized requests (a poll and a wait function the
 * library calls); else, under SMPI and Open MPI, plain ones, which gridcoll's completion
 * calls advance (nbc_wait.c: each MPI_Test* polls first, each MPI_Wait* is a loop of
 * both), and under Open MPI its progress engine (nbc_opal.c). */
#if defined(MPICH_NUMVERSION) && MPI_VERSION >= 4
#define GC_HAVE_NBC 1
#define GC_NBC_EXTENDED 1
#elif defined(SMPI_H) || defined(OPEN_MPI)
#define GC_HAVE_NBC 1
#define GC_NBC_EXTENDED 0
#else
#define GC_HAVE_NBC 0
#define GC_NBC_EXTENDED 0
#endif

/* A piece of the call's data, as a step moves it (nbc_schedule.h: piece). */
struct gc_nbc_piece {
  void *buf;
  MPI_Count count;
  MPI_Datatype type; /* the executor keeps its own duplicate of a derived type: the
                        application may free its own while the call is in flight */
  int own;           /* 1: type is the op's own, handed over: the executor frees it at
                        the end (or when the start fails) instead of duplicating it */
};

/* What an op adds to its schedule's life (NULL: nothing): `start` runs before the first
 * round is posted, at the call or at each MPI_Start of a persistent schedule (LG's
 * packing of the send buffer, whose contents may change between starts); `finish` runs
 * when every step completed without error, before the application sees the request
 * complete (LG's unpacking into the receive buffer); `release` frees `data` at the end,
 * or when the start fails. */
struct gc_nbc_ops {
  int (*start)(void *data);
  /* Before each round is posted (its number `round`; a round with no steps is never
   * seen): what the previous rounds brought may decide the pieces of the rounds to come
   * (LG-v's sizes and verdicts, lgv_nb.c). It may rewrite any piece of a later round (the
   * executor's copies, `pieces`); a piece of a negative count is not posted, its step
   * counted done. It must decide from what every end of each message knows alike, and
   * must not fail on one rank alone (its error stops the posting, as a failed post's). */
  int (*round)(void *data, int round, struct gc_nbc_piece *pieces);
  /* At the end, where the call is logged: another name for what ran (a static string),
   * NULL for the one the line was made with (LG-v's direct exchange, lgv_nb.c). */
  const char *(*ran)(void *data);
  int (*finish)(void *data);
  void (*release)(void *data);
};

/* The memory of schedules, reserved and agreed once per communicator (doc/design.md:
 * Nonblocking collectives, memory): a pool of GC_NBC_SLOTS slots of one size, the
 * largest that one call of this rank can take (its executor block, its steps, LG's
 * buffers up to an agreed bound, a segmented tree's staging). A call takes slot (its
 * number mod GC_NBC_SLOTS) and carves everything it needs from it: nothing it allocates
 * can fail on one rank alone.
 * A slot still busy (more than GC_NBC_SLOTS schedules in flight on the communicator)
 * is replaced by one allocation of the slot's size, whose failure is the call's error. */
enum { GC_NBC_SLOTS = 8 };
/* The bytes of LG's buffers a slot holds (when `lg` is forced): blocks of up to
 * GC_NBC_LG_BYTES / (the most blocks any member packs, stages and receives) bytes run
 * as LG schedules, larger ones as the MPI library's own (the same answer everywhere: m
 * and the agreed count are). */
enum { GC_NBC_LG_BYTES = 1 << 20 };
/* The packed message a slot holds for a segmented tree (when bcast.segment is set and a
 * tree may run): a nonblocking broadcast of more bytes runs its tree unsegmented, since a
 * rank whose datatype is not raw stages the whole message, and no rank knows another's
 * datatype (a persistent one stages any size: its memory is its own, agreed). */
enum { GC_NBC_STAGE_BYTES = 1 << 20 };
struct gc_nbc_pool;
struct gc_nbc_arena {
  char *at, *end;
  struct gc_nbc_pool *pool; /* NULL: heap (a busy slot's stand-in, a persistent's own) */
  int slot;
  void *heap;
};
/* type itself (*own 0), or our duplicate of it when derived (*own 1): a schedule's own,
 * since the application may free its type while the call is in flight. 0 or an error. */
int gc_nbc_type_own(MPI_Datatype type, MPI_Datatype *out, int *own);
/* A pool of GC_NBC_SLOTS slots of `bytes`; NULL when out of memory. */
struct gc_nbc_pool *gc_nbc_pool_make(size_t bytes);
/* The communicator is freed: the pool goes once no slot is busy. */
void gc_nbc_pool_drop(struct gc_nbc_pool *p);
/* Call number k's memory: its slot, or a heap block of the slot's size when that is
 * busy. 0, or -1 (out of memory: *a holds nothing). */
int gc_nbc_pool_take(struct gc_nbc_pool *p, unsigned long long k, struct gc_nbc_arena *a);
/* A heap arena of `bytes` (a persistent schedule's, agreed by its caller): 0 or -1. */
int gc_nbc_arena_heap(size_t bytes, struct gc_nbc_arena *a);
/* `bytes` from a (aligned for any type); NULL when a is exhausted (a bound was wrong). */
void *gc_nbc_carve(struct gc_nbc_arena *a, size_t bytes);
/* The arena's memory back to its pool (or the heap). */
void gc_nbc_arena_give(struct gc_nbc_arena *a);
/* What gc_nbc_start and gc_nbc_persistent carve for a schedule of nsteps and npieces,
 * alignment included. */
size_t gc_nbc_block_bytes(int nsteps, int npieces);
/* What one carve of `bytes` takes at most, alignment included. */
size_t gc_nbc_carve_bytes(size_t bytes);

/* 1 where gridcoll can run schedules: MPICH and SMPI; Open MPI once its progress engine
 * took gridcoll's callback (nbc_opal.c: registered at the first ask, the same answer on
 * every rank: the same library). */
#if defined(OPEN_MPI) && GC_HAVE_NBC
int gc_nbc_available(void);
#else
static inline int gc_nbc_available(void)
{
  return GC_HAVE_NBC;
}
#endif

/* Starts a schedule of nsteps steps (copied) over the pieces (copied) on comm with tag,
 * and gives the application's request; its block carved from *arena, which is the
 * schedule's from here (given back when MPI frees the request, or at once when the
 * start fails). MPI_SUCCESS, or an MPI error code (nothing started then: the MPI
 * library's request, a type that cannot be duplicated). The first round is posted
 * here; the others when the application's completion calls find the previous one done.
 * log (copied; NULL or log->calls NULL: not logged): the call's line, given its index
 * when it starts and logged, with this rank's times (span.h: gc_span_own), when the
 * application sees its request complete. */
int gc_nbc_start(MPI_Comm comm, int tag, const struct gc_nbc_step *steps, int nsteps,
                 const struct gc_nbc_piece *pieces, int npieces,
                 const struct gc_nbc_ops *ops, void *data, struct gc_nbc_arena *arena,
                 const struct gc_call_pending *log, MPI_Request *request);

/* A persistent schedule (MPI_Bcast_init): built once, its request a persistent one of
 * the MPI library's (nbc.c says which), started by gc_nbc_start_persistent at each
 * MPI_Start. MPI_SUCCESS or an error (nothing made). log as gc_nbc_start's, one line
 * (and call index) per MPI_Start, posted at it. app: the application's communicator, on
 * whose error handler a failed start's error is raised (gc_nbc_seen). */
int gc_nbc_persistent(MPI_Comm comm, MPI_Comm app, int tag, const struct gc_nbc_step *steps,
                      int nsteps, const struct gc_nbc_piece *pieces, int npieces,
                      const struct gc_nbc_ops *ops, void *data, struct gc_nbc_arena *arena,
                      const struct gc_call_pending *log, MPI_Request *request);
/* MPI_Start of *request: 1 when it is a persistent schedule's (started; *rc the result),
 * 0 when not ours. */
int gc_nbc_start_persistent(MPI_Request *request, int *rc);
/* MPI_Request_free of *request: a persistent schedule's own memory freed (the caller
 * then frees the request); 0 always. */
int gc_nbc_free_persistent(MPI_Request *request);

/* A completion call returned `r` complete (MPI_Wait, MPI_Test, an index of their
 * array forms): when it is a persistent schedule's whose last start ended and was not
 * seen yet, its line is logged now (gc_nbc_start's log), and the start's error returned
 * (MPI_SUCCESS: none), *app set to the communicator to raise it on: the library's own
 * request completed clean, since the schedule's signal carries no error (nbc.c). A
 * nonblocking schedule's request is seen where MPI frees it, inside the completion call
 * (nbc.c: free_fn), and its error is its status's (query_fn). One load while no
 * persistent schedule waits to be seen. take 0 (MPI_Request_get_status): the error
 * only, the start still unseen. */
int gc_nbc_seen_slow(MPI_Request r, int take, MPI_Comm *app);
extern atomic_int gc_nbc_unseen;
static inline int gc_nbc_seen(MPI_Request r, int take, MPI_Comm *app)
{
  if (atomic_load_explicit(&gc_nbc_unseen, memory_order_relaxed) == 0 || r == MPI_REQUEST_NULL)
    return MPI_SUCCESS;
  return gc_nbc_seen_slow(r, take, app);
}

/* Advances every schedule in flight (a completion call the MPI library does not route to
 * the poll function: MPI_Request_get_status). Cheap when none is. */
void gc_nbc_progress(void);
/* 1 when a schedule is in flight on this process. */
int gc_nbc_inflight(void);

/* The tag of a communicator's n-th schedule: distinct for 2^15 schedules in flight on
 * one communicator, within every MPI's MPI_TAG_UB (32767 at least). */
static inline int gc_nbc_tag(unsigned long long n)
{
  return (int)(n & 0x7fff);
}

#endif
