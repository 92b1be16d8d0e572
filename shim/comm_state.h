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
#include "measure.h"
#include "network.h"
#include "op.h"
#include "record.h"

/* A call as seen once: its key (op.h), under which network view (version) and count of
 * datatype frees (datatype.h). The same three again mean the same bytes, root and
 * models: what the fast path and the logged prediction reuse. */
struct gc_call_seen {
  struct gc_call_key key;
  unsigned long long version;
  unsigned long frees;
};

/* One operation's part of the state. */
struct gc_op_state {
  /* The operation's own (LG's schedule and buffers, the broadcast's tree cache), built
   * by it on first use and freed with the communicator by free_data. */
  void *data;
  void (*free_data)(struct gc_comm_state *st, void *data);
  /* Decided at the first call (dispatch.c), identical on every rank: 1 when every call
   * of this operation on this communicator runs natively and nothing is recorded (a
   * forced `native`, or no grid algorithm serves its clusters, with logging off). */
  int known, native_only;
  /* The fast path (dispatch.c, step 3b): the last call `auto` sent to the library from
   * the decision cache, logging off. The same key again, under the same network view
   * (version) and datatype frees, goes straight to the library. Armed by that call,
   * disarmed by every other that reaches the full dispatch. */
  struct {
    int armed;
    struct gc_call_seen seen;
  } fast;
  /* The logged fast path (dispatch.c, step 3c): the last logged call whose algorithm was
   * settled without measuring (forced, or `auto` decided), as its line says it. The same
   * key again under the same view goes to that algorithm with no question asked, timed,
   * and is recorded from this template. Disarmed by every call that reaches the full
   * dispatch. */
  struct {
    int armed;
    struct gc_call_seen seen;
    struct gc_call_line line;
  } logged;
  struct gc_decision decision[GC_DECISIONS];
  /* The prediction a logged, decided call read last, for the same call again: the same
   * key, algorithm and version give the same model and seconds (dispatch.c). */
  struct {
    int set, algorithm;
    struct gc_call_seen seen;
    double predicted;
    const char *model;
  } predicted;
  /* What a learning `auto` measured (learn.h), and its measurement in flight (measure.h).
   * The table is made with the state (comm_state.c), not on first use, so that no rank
   * can be without it while the others learn; only where learning can run (learn on,
   * two clusters or more: the same on every member), so a one-cluster communicator
   * does not carry its 6.7 KiB. NULL: this communicator does not learn. */
  struct gc_learn_table *learn;
  struct gc_measure measure;
};

struct gc_comm_state {
  MPI_Comm comm;         /* the application's communicator (not ours) */
  int rank, size;
  struct gc_layout layout;
  struct gc_network network; /* the configuration's parameters per local cluster */
  MPI_Comm private_comm; /* duplicate for internal traffic, MPI_COMM_NULL until needed */
  MPI_Comm cluster_comm; /* my cluster's members, ordered as in comm; MPI_COMM_NULL until needed */
  MPI_Comm leader_comm;  /* one leader per cluster (lowest rank), MPI_COMM_NULL elsewhere */
  int have_leader_comm;
  unsigned long long id; /* identical on all members; 0 until named (gc_comm_named) */
  unsigned long long calls; /* intercepted calls so far on this communicator */
  /* The log's records awaiting their completion time (log.c's window), and the function
   * that settles and frees them with the communicator, both left here by the log: the
   * state names nothing of it. */
  void *log_window;
  void (*log_free)(struct gc_comm_state *st);
  int probed;               /* the latency probe ran (probe.h); network.latency is measured */
  /* Bumped by whatever changes what a choice reads (the probe's new network view):
   * caches built on the old view (trees, decisions, what `auto` learnt) check it and
   * rebuild. */
  unsigned long long version;
  struct gc_op_state op[GC_OP_LAST];
};

/* State of comm, built on first use. NULL for communicators gridcoll does not serve
 * (intercommunicators, MPI_COMM_NULL, or when out of memory): pass the call through. */
struct gc_comm_state *gc_comm_state_get(MPI_Comm comm);

/* Lazily created sub-communicators; MPI_SUCCESS or the PMPI error code.
 * Collective over the communicator: call them on every member or on none. */
int gc_comm_private(struct gc_comm_state *st, MPI_Comm *out);
/* The private duplicate, and st->id agreed by all members (one broadcast, the first
 * time): for what names the communicator (the log, the probe's report). */
int gc_comm_named(struct gc_comm_state *st, MPI_Comm *out);
int gc_comm_cluster(struct gc_comm_state *st, MPI_Comm *out);
int gc_comm_leaders(struct gc_comm_state *st, MPI_Comm *out); /* MPI_COMM_NULL on non-leaders */

void gc_comm_state_init_keyval(void);
void gc_comm_state_free_keyval(void);

#endif
