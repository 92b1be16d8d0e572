/* Per-communicator state, cached on the communicator with a keyval attribute.
 *
 * Built at the first intercepted call on a communicator (every member makes that call,
 * so whatever collective set-up happens here happens on all of them in the same order).
 * The layout needs no communication: it comes from the world cluster table agreed at
 * MPI_Init. The private duplicate and the cluster sub-communicators are created only
 * when an algorithm or the log needs them, and freed with the communicator. */
#ifndef GC_COMM_STATE_H
#define GC_COMM_STATE_H

#include <mpi.h>
#include "decision.h"
#include "layout.h"
#include "learn.h"
#include "network.h"
#include "op.h"
#include "record.h"

struct gc_nbc_pool;

/* A call as seen once: its key (op.h), under which network view (version) and count of
 * datatype frees (datatype.h). The same three again mean the same bytes, root and
 * models: what the fast path and the logged prediction reuse. */
struct gc_call_seen {
  struct gc_call_key key;
  unsigned long long version;
  unsigned long frees;
};

/* The memo of the last settled call (call.h says its one rule). */
enum { GC_MEMO_OFF, GC_MEMO_LIBRARY, GC_MEMO_AGAIN };
struct gc_call_memo {
  int armed;                /* GC_MEMO_LIBRARY: the MPI library's own, nothing recorded;
                               GC_MEMO_AGAIN: line's algorithm again, recorded from line */
  struct gc_call_seen seen;
  struct gc_call_line line; /* what ran (record.h): its algorithm, prediction and model,
                               and with logging on the log's other columns */
  /* Calls the memo may still serve (ULLONG_MAX: no limit): where a learnt key waits for
   * its budget (learn.h), the calls until then, granted of them at arming, credited to
   * learn at the next full dispatch. */
  unsigned long long left, granted;
  struct gc_learn *learn;
};

/* One operation's part of the state. */
struct gc_op_state {
  /* The operation's own (LG's schedule and buffers, the broadcast's tree cache), made
   * with the state (its part, gc_comm_state_parts) or by its algorithm on first use, and
   * freed with the communicator by free_data. */
  void *data;
  void (*free_data)(struct gc_comm_state *st, void *data);
  /* Decided at the first call (dispatch.c), identical on every rank: 1 when every call
   * of this operation on this communicator runs natively and nothing is recorded (a
   * forced `native`, or no grid algorithm serves its clusters, with logging off). */
  int known, native_only;
  struct gc_call_memo memo;
  struct gc_decision decision[GC_DECISIONS];
  /* What a learning `auto` measured (learn.h). Made with the state, so that no rank can
   * be without it while the others learn; only where learning can run (learn on, two
   * clusters or more: the same on every member), so a one-cluster communicator does not
   * carry it. NULL: this communicator does not learn. */
  struct gc_learn_table *learn;
};

/* The completion-time window (span.h), a part of the state. */
struct gc_span_window;

struct gc_comm_state {
  MPI_Comm comm;         /* the application's communicator (not ours) */
  int rank, size;
  struct gc_layout layout;
  struct gc_network network; /* the configuration's parameters per local cluster */
  MPI_Comm private_comm; /* duplicate for internal traffic, MPI_COMM_NULL until needed */
  MPI_Comm cluster_comm; /* my cluster's members, ordered as in comm; MPI_COMM_NULL until needed */
  MPI_Comm leader_comm;  /* one leader per cluster (lowest rank), MPI_COMM_NULL elsewhere */
  /* The nonblocking schedules' duplicate (nbc.h), MPI_COMM_NULL until the first one: a
   * communicator of their own, because the blocking LG receives with MPI_ANY_TAG on the
   * private duplicate and would take a schedule's message. nbc_issued: schedules issued
   * on it so far, the same count on every member (collectives are issued in one order),
   * which gives each its tag. */
  MPI_Comm nbc_comm;
  unsigned long long nbc_issued;
  /* The schedules' memory, reserved with nbc_comm and agreed over it (nbc_reserve.c):
   * nbc_served 0 until then, 1 when every member got its pool, -1 when one did not
   * (every nonblocking call on the communicator is then the MPI library's own). nbc_lg:
   * LG's schedule of this rank (kept with the pool, freed by nbc_lg_free); nbc_lg_max_m:
   * the largest block an LG schedule takes (the pool's bound, agreed; beyond it the MPI
   * library's own). */
  struct gc_nbc_pool *nbc_pool;
  int nbc_served;
  void *nbc_lg;
  void (*nbc_lg_free)(void *);
  size_t nbc_lg_max_m;
  int have_leader_comm;
  unsigned long long id; /* identical on all members; 0 until named (gc_comm_named) */
  unsigned long long calls; /* intercepted calls so far on this communicator */
  struct gc_span_window *span; /* timed calls awaiting their completion time; NULL: none */
  int probed;               /* the latency probe ran (probe.h); network.latency is measured */
  /* Bumped by whatever changes what a choice reads (the probe's new network view):
   * caches built on the old view (trees, decisions, what `auto` learnt) check it and
   * rebuild. */
  unsigned long long version;
  struct gc_op_state op[GC_OP_LAST];
};

/* State of comm, built at the first intercepted call on it. NULL for communicators
 * gridcoll does not serve (intercommunicators, processes outside MPI_COMM_WORLD,
 * MPI_COMM_NULL, or memory that ran out on some member while it was built): pass the
 * call through. Where a member could act on the state (two clusters in the world, the
 * log or the probe on), the members agree that every one of them built it, with one
 * allreduce over comm, before anyone uses it: a state exists on every member or on none. */
struct gc_comm_state *gc_comm_state_get(MPI_Comm comm);
/* The state of comm where one was built already, NULL otherwise: what a nonblocking call
 * reads, which may not wait for the other members (MPI-4.0 section 6.12: it returns
 * independently of them), so may not build one (an agreement) either. Whether a state
 * exists is the same on every member at the same call: states are built at calls every
 * member makes in one order. */
struct gc_comm_state *gc_comm_state_find(MPI_Comm comm);

/* What the state is made of besides its layout and network view, each made with it (and
 * agreed with it) and dropped with it: the completion-time window (span.h), each
 * operation's own data. Given once at MPI_Init by start-up, which knows them: the state
 * names none. make: 0, or -1 when out of memory (what it made so far stays for drop);
 * drop: runs before the private duplicate and the sub-communicators are freed, on every
 * member (MPI_Comm_free is collective), also for a part whose make failed. */
struct gc_comm_part {
  int (*make)(struct gc_comm_state *st);
  void (*drop)(struct gc_comm_state *st);
};
/* agree: members must agree that a state was built (see gc_comm_state_get). */
void gc_comm_state_configure(const struct gc_comm_part *parts, int nparts, int agree);
/* made: run on every member once a new state is agreed, inside the call that made it
 * (collective there; NULL: nothing). Given once at MPI_Init by start-up. */
void gc_comm_state_on_made(void (*made)(struct gc_comm_state *st));

/* Lazily created sub-communicators; MPI_SUCCESS or the PMPI error code.
 * Collective over the communicator: call them on every member or on none. */
int gc_comm_private(struct gc_comm_state *st, MPI_Comm *out);
/* The private duplicate, and st->id agreed by all members (one broadcast, the first
 * time): for what names the communicator (the log, the probe's report). */
int gc_comm_named(struct gc_comm_state *st, MPI_Comm *out);
/* The nonblocking schedules' duplicate (of the private one) and their memory
 * (nbc_reserve.c), made with the state where GRIDCOLL_NONBLOCKING=grid (start-up gives
 * gc_comm_state_on_made a function that calls this), so at a call every member makes:
 * the communicator's first blocking collective, MPI_Bcast_init and its kin, MPI_Init for
 * MPI_COMM_WORLD. A nonblocking call (may_block 0) only reads them; MPI_Bcast_init and
 * its kin (may_block 1) make them where they are not (collective on the communicator).
 * MPI_SUCCESS with *out the duplicate, or MPI_COMM_NULL where they are not made or some
 * member is short of memory (every member then runs the MPI library's own call); or an
 * MPI error. */
int gc_comm_nbc(struct gc_comm_state *st, int may_block, MPI_Comm *out);
/* A persistent schedule's own memory (MPI_Bcast_init), `bytes` agreed over the
 * duplicate at once, with whether this member can run the schedule at all (`able`: its
 * own checks of the call passed): 1 when every member is able and got its own (*a), 0
 * when one is not or did not (nothing held; a member short of memory warned), or an MPI
 * error (*rc). */
struct gc_nbc_arena;
int gc_comm_nbc_persistent_arena(struct gc_comm_state *st, int able, size_t bytes,
                                 struct gc_nbc_arena *a, int *rc);
int gc_comm_cluster(struct gc_comm_state *st, MPI_Comm *out);
int gc_comm_leaders(struct gc_comm_state *st, MPI_Comm *out); /* MPI_COMM_NULL on non-leaders */

void gc_comm_state_init_keyval(void);
void gc_comm_state_free_keyval(void);

#endif
