/* The completion time of a collective: one mechanism, read by the log and by learning.
 *
 * A timed call reads the clock at entry and exit and nothing else: no barrier, no
 * reduction on the timed path. Its completion time is max(exit) - min(entry) over the
 * communicator's ranks (a broadcast: minus the root's entry only), in world rank 0's
 * clock (clock.h: each rank's offset to it is estimated once, at MPI_Init); beside it,
 * from the same entries, the wait for late ranks apart from the collective's own time
 * (pure/span_time.h). Each rank's GC_SPAN_NUMBERS numbers for a call (its exit, its
 * entry both ways, a broadcast root's entry) are maxima over the ranks, so that one
 * reduction gives them all: those of a communicator's timed calls wait in its window, made with the
 * communicator's state (gc_span_make, a part of comm_state.h); one nonblocking MPI_MAX
 * allreduce over the private duplicate assembles a half window when it is full
 * (GC_SPAN_WINDOW calls), or at once when it holds a call that a learning `auto`
 * measured (learning wants that time before its next choice). A posted half is
 * completed when the other half is posted, when the dispatch asks for learning's time
 * (gc_span_settle_taught), when the communicator is freed (a blocking allreduce:
 * MPI_Comm_free is collective) or at MPI_Finalize (one exchange over the world for the
 * communicators still alive); at an exit without MPI_Finalize each call keeps the
 * rank's own time. Every member adds the same calls in the same order, so the i-th
 * pair is the same call everywhere, and every member settles the same times. The same
 * reductions carry the nonblocking and persistent calls seen complete since the last
 * one (gc_span_own).
 *
 * A settled call reaches its readers, the log's line writer and learning's books,
 * through the functions they registered (gc_span_reader_add): this file names neither. */
#ifndef GC_SPAN_H
#define GC_SPAN_H

#include "comm_state.h"
#include "learn.h"
#include "record.h"
#include "span_time.h"

/* Calls a half window holds at first: one allreduce of GC_SPAN_NUMBERS * GC_SPAN_WINDOW
 * doubles (4 KiB) per that many logged calls, posted when the half fills and completed a
 * half later, when nobody waits for it any more. A half that fills doubles (agreed by
 * that reduction: span.c), up to GC_SPAN_WINDOW_MAX calls (~104 KiB a half with the
 * log's lines): a busy communicator pays one reduction per 1024 calls. Not where learning
 * can run: its watch wants the kept algorithm's times within a window (span.c). */
#define GC_SPAN_WINDOW 128
#define GC_SPAN_WINDOW_MAX 1024

/* Nonblocking and persistent calls a point carries (sync mode: gc_span_own): the first
 * this many posted on a communicator since its last point, two sets of numbers each in
 * the point's reduction (512 bytes); those after them keep each rank's own times. A
 * blocking call that finds this many posted since the last point posts its half early,
 * so that a loop of both kinds has every nonblocking call carried. */
#define GC_SPAN_NB 32

/* Calls settled, as their readers see them: a half window at a time (one call in local
 * mode, an untimed record, or learning alone), in call order. */
struct gc_span_settled {
  unsigned long long comm_id;
  int comm_size, comm_rank;
  int n;
  const struct gc_call_line *line;                         /* [n] */
  const struct gc_candidate (*candidates)[GC_MAX_ALGORITHMS]; /* [n]; NULL: none kept */
  /* [n] seconds (span_time.h): the completion time (actual), the collective's own time
   * from the moment it could start (own: what learning and the summary's error read),
   * the arrival spread and a broadcast root's lateness; where nothing could be assembled
   * (local mode, an exit without MPI_Finalize) actual = own = the rank's own time, and no
   * spread nor lateness (< 0); actual < 0: an untimed record (a nonblocking call, issued),
   * every time < 0 */
  const struct gc_span_time *time;
  struct gc_learn *teach; /* the last call's: it was measured for learning; NULL: none */
  int taught;             /* with teach: the algorithm measured */
  int logged;             /* the log wants these lines */
  /* The communicator, where the times are agreed by every member (a half window
   * assembled): what learning's watch reads; NULL otherwise (local mode, an untimed
   * record, a rank's own times). */
  struct gc_comm_state *st;
};

typedef void gc_span_reader(const struct gc_span_settled *s);

/* At MPI_Init, before any call: how calls are kept. lines: the log wants every timed
 * call's line with its completion time (sync mode); local: it wants them at once with
 * the rank's own time (local mode); candidates: lines carry every prediction. Learning's
 * measured calls go through the window whatever these say. */
void gc_span_configure(int lines, int local, int candidates);
/* At MPI_Init: a reader of every settled call (at most two: the log, learning). */
void gc_span_reader_add(gc_span_reader *reader);

/* The communicator's window, a part of its state (comm_state.h): made where the log
 * keeps lines in sync mode or learning can run on it (st->op[*].learn), 0 or -1 when
 * out of memory; dropped, its calls settled over the private duplicate, when the
 * communicator is freed. */
int gc_span_make(struct gc_comm_state *st);
void gc_span_drop(struct gc_comm_state *st);

/* A call entered at t0 and left at t1 (gc_clock_now, this rank's clock), as `line` says it (record.h; its call index, the next on st, and its elapsed
 * time are set here, in the window's copy): given to the readers at once with the rank's
 * own time (local mode), and kept in the window until its completion time is known
 * (sync mode, or measured for learning). candidates: NULL, or line->ncandidates
 * predictions. teach: learning's entry this call measures, running `taught` (the
 * algorithm planned: a fallback's time is what running it costs); NULL: not measured.
 * The window is assembled over st's private duplicate, which exists by then (the log
 * names the communicator, a measured call makes it). On every member, after the same
 * calls. */
void gc_span_leave(struct gc_comm_state *st, double t0, double t1,
                   const struct gc_call_line *line, const struct gc_candidate *candidates,
                   struct gc_learn *teach, int taught);
/* An untimed record (a nonblocking or persistent call of the MPI library's, issued, whose
 * completion gridcoll cannot follow: issued.h), as call `call`, to the readers at once. */
void gc_span_untimed(const struct gc_call_pending *p, unsigned long long call);

/* A nonblocking or persistent call is issued on st, named (call.h: gc_call_issued): its
 * completions may find the window from now on (st->id is read by the thread that makes
 * st's collectives only; a completion may come in another). */
void gc_span_issued(struct gc_comm_state *st);

/* A nonblocking or persistent call that gridcoll ran as a schedule, or followed to its
 * completion (record.h: struct gc_call_pending; issued.h), as call `call`, seen complete
 * by the application at `seen`, its schedule's last step done at `ended` (< 0: unknown,
 * the MPI library's), both this rank's clock.
 * In sync mode it waits for its communicator's next point: a half window's post (in a
 * blocking call), MPI_Comm_free or MPI_Finalize, the places every member reaches in one
 * order and may wait at (a nonblocking call may not: doc/design.md). Each rank sees its
 * requests complete in an order of its own, but every member posts them in one order, so
 * the first GC_SPAN_NB call indices posted since the last point that no blocking call
 * took are the same calls everywhere: the point's reduction carries them, each rank's
 * numbers for its post and completion seen, and for its post and schedule's end, or a
 * mark where it has not seen the call complete (or had no room to keep it). Where no
 * member marked it, every member's line has the assembled times (span_time.h, exit =
 * the completion seen; own from the schedule's end); else each rank's own, at the point
 * or, where it saw the call complete only later, then. Elsewhere (local mode, no window,
 * a call past the first GC_SPAN_NB, its point passed) to the readers at once with this
 * rank's own times (actual = elapsed: post to seen; own: post to ended), as local mode
 * gives a blocking call. Learning reads none of them (their st is NULL). No MPI call: the
 * executor calls it inside the application's MPI_Wait or MPI_Test. */
void gc_span_own(const struct gc_call_pending *p, unsigned long long call, double seen,
                 double ended);

/* The half in flight that holds a measured call, completed and settled: learning then
 * knows every time it measured on st. On every member, at the same point. */
void gc_span_settle_taught(struct gc_comm_state *st);

/* Collective over MPI_COMM_WORLD at MPI_Finalize: the calls of communicators still alive
 * settled (an exchange over the world keyed by communicator id and call). */
void gc_span_finalize(void);
/* At an exit without MPI_Finalize (MPI may be gone): every waiting call settled with
 * the rank's own time, older half first, so the log stays in call order. */
void gc_span_abandon(void);

#endif
