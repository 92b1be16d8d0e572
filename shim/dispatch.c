/* The dispatch (dispatch.h): one function for every collective.
 *
 * Route of a blocking call, cheapest exit first:
 *   1. a forced `native` with nothing recorded: the MPI library, nothing looked up
 *      (tested by the wrapper, gc_dispatch_bypass, before the re-entry guard);
 *   2. the communicator's state (comm_state.h); none: the MPI library;
 *   3. nothing to choose on this communicator (one cluster, logging off): the library;
 *   4. the memo (call.h): the same call as the last one settled without measuring, under
 *      the same network view: its algorithm again (the library's own at once when
 *      nothing is recorded), timed and recorded from its line when logging;
 *   5. the full dispatch: the call validated by its op (prepare; invalid: the library,
 *      untouched), learning's last measured time settled (span.h), then what `auto` knows
 *      (the decision cache, a finished learning), else the probe (once per
 *      communicator), every algorithm asked and predicted, gc_select and `auto`'s decision
 *      (learning, learn.h, names what is worth measuring: the call runs it, timed); the
 *      plan run, GC_FALLBACK to row 0, the record
 *      (of what ran), the op's history, the memo armed when the choice was settled
 *      without measuring.
 * Five exits: the library before any state (1, 2), the library from the state (3), the
 * memo (4), the full dispatch (5). Steps 1-4 read no clock unless logging, allocate
 * nothing and validate nothing but a grid algorithm's buffers (the MPI library validates
 * the call it runs). Every test reads data identical on every rank (the agreed
 * configuration, the layout, the call's bytes and root, the settled measured times), so
 * every rank takes the same exit and runs the same algorithm. */
#include "dispatch.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "call.h"
#include "gridcoll.h"
#include "learn.h"
#include "prediction.h"
#include "probe.h"
#include "select.h"
#include "span.h"

int gc_dispatch_passthrough[GC_OP_LAST];
/* 1 when the op's configured choice is `auto`: read on every call, compared once. */
static int is_auto[GC_OP_LAST];
/* The log's name of a nonblocking call a row of gridcoll's ran ("hlot-nb", "lg-nb"),
 * told apart from the row's blocking calls by readers, and the name of the call the
 * application made ("ibcast", "bcast_init"), its op column. Made once at MPI_Init. */
static char nb_names[2][GC_OP_LAST][GC_MAX_ALGORITHMS][48]; /* [1]: "-persistent" */
static char nb_op_names[2][GC_OP_LAST][32];                  /* [1]: "<op>_init" */

static int is(const char *wanted, const char *name)
{
  return strcmp(wanted, name) == 0;
}

void gc_dispatch_configure(const struct gc_op *op)
{
  /* The probe measures even for a forced native (its latency file is a result). */
  gc_dispatch_passthrough[op->id] =
      is(op->wanted, "native") && !gc_log_enabled() && !gc_g.cfg.probe;
  is_auto[op->id] = is(op->wanted, "auto");
  snprintf(nb_op_names[0][op->id], sizeof nb_op_names[0][op->id], "i%s", op->name);
  snprintf(nb_op_names[1][op->id], sizeof nb_op_names[1][op->id], "%s_init", op->name);
  for (int a = 1; a < op->nalgorithms; a++) {
    snprintf(nb_names[0][op->id][a], sizeof nb_names[0][op->id][a], "%s-nb",
             op->algorithms[a].about->name);
    snprintf(nb_names[1][op->id][a], sizeof nb_names[1][op->id][a], "%s-persistent",
             op->algorithms[a].about->name);
  }
}

/* Learning compares algorithms on the collective's own time: a rank that came late is
 * no slower algorithm, and counted it would teach whichever one ran with it. */
/* A learnt key that wants a measured call again (learn.h: the budget, a drift): the
 * decision kept for it dropped, the memo disarmed, so that the next call of that key
 * takes the full dispatch. Run where every rank runs it, after the same calls. */
static void learn_reopened(struct gc_op_state *os, const struct gc_learn *e,
                           unsigned long long version)
{
  if (gc_decision_find(os->decision, e->bytes, e->root_cluster, version) >= 0)
    gc_decision_put(os->decision, e->bytes, e->root_cluster, version, -1);
  os->memo.armed = GC_MEMO_OFF;
}

/* The watch (learn.h, point 3): every settled call of a learnt key, with the times every
 * rank agreed (the log's sync windows: no communication of its own). */
static void watch(struct gc_comm_state *st, const struct gc_call_line *l, double own)
{
  if (l->op >= GC_OP_LAST || !is_auto[l->op] || !st->op[l->op].learn || l->algorithm < 0)
    return;
  struct gc_op_state *os = &st->op[l->op];
  int rc_of = l->root >= 0 && l->root < st->size ? st->layout.cluster_of[l->root] : -1;
  struct gc_learn *e = gc_learn_find(os->learn, l->bytes, rc_of, st->version);
  if (e && e->bytes == l->bytes && gc_learn_watch(e, l->algorithm, own))
    learn_reopened(os, e, st->version);
}

void gc_dispatch_measured(const struct gc_span_settled *s)
{
  int n = s->teach ? s->n - 1 : s->n;
  for (int i = 0; s->st && i < n; i++)
    watch(s->st, &s->line[i], s->time[i].own);
  if (s->teach) /* the last call of its half */
    gc_learn_record(s->teach, s->taught, s->time[s->n - 1].own);
}

static int run_native(const struct gc_op *op, void *call, struct gc_comm_state *st)
{
  return op->algorithms[GC_NATIVE].run(call, st, NULL);
}

/* Step 3, decided at the first call of op on st: identical on every rank. Out of line:
 * it runs once, and inlined it would make every call save registers. Returns os, so that
 * the caller keeps the slot's address in a register rather than computing it again. */
static __attribute__((noinline)) struct gc_op_state *
classify(const struct gc_op *op, struct gc_op_state *os, const struct gc_comm_state *st)
{
  int grid_possible = 0;
  for (int i = 1; i < op->nalgorithms; i++)
    grid_possible |= !op->algorithms[i].wide || st->layout.nclusters >= 2;
  /* A probe due on this communicator is a result too (its latency report). */
  int probe_due = gc_g.cfg.probe && st->layout.nclusters >= 2;
  os->native_only =
      !gc_log_enabled() && !probe_due && (is(op->wanted, "native") || !grid_possible);
  os->known = 1;
  return os;
}

static int root_cluster(const struct gc_comm_state *st, const struct gc_call *c)
{
  return c->root >= 0 ? st->layout.cluster_of[c->root] : -1;
}

/* Every algorithm asked and, when something compares or prints them (`auto`, the log's
 * candidates column), predicted; gc_select; the record's choice and candidates. A log
 * alone reads the prediction of what runs only. plans[i] keeps what algorithm i's
 * prediction prepared for its run. */
static int choose(const struct gc_op *op, const void *call, struct gc_comm_state *st,
                  struct gc_plan *plans, struct gc_record *rec)
{
  int n = op->nalgorithms, supported[GC_MAX_ALGORITHMS];
  const char *names[GC_MAX_ALGORITHMS];
  double predicted[GC_MAX_ALGORITHMS];
  int all = is_auto[op->id] || (gc_log_enabled() && gc_g.cfg.log_candidates);
  for (int i = 0; i < n; i++) {
    const struct gc_algorithm *alg = &op->algorithms[i];
    names[i] = alg->about->name;
    supported[i] = alg->supports(call, st);
    plans[i] = (struct gc_plan){.algorithm = i, .predicted = -1};
    /* An unsupported algorithm's prediction is read by nobody (gc_select skips it, the
     * candidates column writes none): not computed, a logged call's cheapest saving. */
    if (all && supported[i])
      plans[i].predicted = gc_prediction_checked(alg->predict(call, st, &plans[i]));
    predicted[i] = plans[i].predicted;
  }
  int a = gc_select(op->wanted, n, names, supported, predicted);
  if (!all && gc_log_enabled() && supported[a])
    predicted[a] = plans[a].predicted =
        gc_prediction_checked(op->algorithms[a].predict(call, st, &plans[a]));
  rec->ncandidates = n;
  for (int i = 0; i < n; i++)
    rec->candidates[i] = (struct gc_candidate){names[i], supported[i] ? predicted[i] : -1};
  return a;
}

/* The record says a ran (its prediction, its model), not gc_select's pick. */
static void record_choice(const struct gc_op *op, const struct gc_plan *plan,
                          struct gc_record *rec)
{
  rec->algorithm = plan->algorithm;
  rec->algorithm_name = op->algorithms[plan->algorithm].about->name;
  rec->predicted = plan->predicted;
  rec->model = plan->model;
}

/* Remembers a for the same call again. What test/mpi/fastpath.sh counts: one line per
 * choice kept, none per reuse. */
static void keep(const struct gc_op *op, struct gc_op_state *os, const struct gc_call *c,
                 int rc_of, unsigned long long version, int a, const char *how)
{
  gc_decision_put(os->decision, c->bytes, rc_of, version, a);
  if (!gc_log_enabled())
    gc_debug(3, "%s of %zu B (root cluster %d): auto chose %s%s, kept for the same call again",
             op->name, c->bytes, rc_of, op->algorithms[a].about->name, how);
}

/* What `auto` knows without predicting: the decision cache, then a finished learning
 * of the call's size class (kept for its bytes then). -1: unknown. */
static int known(const struct gc_op *op, const void *call, struct gc_comm_state *st,
                 struct gc_op_state *os, const struct gc_call *c, int rc_of)
{
  int a = gc_decision_find(os->decision, c->bytes, rc_of, st->version);
  if (a < 0 && os->learn) {
    const struct gc_learn *e = gc_learn_find(os->learn, c->bytes, rc_of, st->version);
    /* Measured (more than one candidate), so the choice serves the whole class. */
    int kept = e ? gc_learn_choice(e) : -1;
    if (e && e->ncandidates > 1 && kept >= 0 && op->algorithms[kept].supports(call, st)) {
      keep(op, os, c, rc_of, st->version, kept, " (measured fastest)");
      return kept;
    }
  }
  /* The MPI library's own serves every call: no question asked. */
  return a == GC_NATIVE || (a > 0 && op->algorithms[a].supports(call, st)) ? a : -1;
}

/* `auto`'s algorithm for a call, given the models' pick: what is known, else learning's
 * next candidate (*explore set: the call is measured), else the pick, kept. *kept: the
 * choice is settled (the same call again makes it again until the full dispatch
 * changes something). Every input is identical on every rank, the learnt times
 * included. */
static int decide(const struct gc_op *op, const void *call, struct gc_comm_state *st,
                  struct gc_op_state *os, const struct gc_call *c, const struct gc_record *rec,
                  int pick, struct gc_learn **explore, int *kept)
{
  int rc_of = root_cluster(st, c);
  int a = known(op, call, st, os, c, rc_of);
  *kept = 1;
  if (a >= 0)
    return a;
  if (!os->learn) { /* learning off, or one cluster (comm_state.h) */
    keep(op, os, c, rc_of, st->version, pick, "");
    return pick;
  }
  struct gc_learn *e = gc_learn_find(os->learn, c->bytes, rc_of, st->version);
  if (e && e->ncandidates == 1 && e->bytes != c->bytes)
    e = NULL; /* decided at once for other bytes: these may have other candidates */
  if (!e) {
    int n = rec->ncandidates, supported[GC_MAX_ALGORITHMS], cand[GC_LEARN_MAX];
    double predicted[GC_MAX_ALGORITHMS], cand_predicted[GC_LEARN_MAX];
    for (int i = 0; i < n; i++) {
      predicted[i] = rec->candidates[i].predicted;
      supported[i] = predicted[i] >= 0 || i == pick;
    }
    int k = gc_learn_candidates(n, supported, predicted, pick, cand, cand_predicted);
    e = gc_learn_start(os->learn, c->bytes, rc_of, st->version, k, cand, cand_predicted);
    if (k == 1) { /* nothing to compare: the models' pick at once, at no cost */
      keep(op, os, c, rc_of, st->version, pick, "");
      return pick;
    }
  }
  if (gc_learn_choice(e) >= 0) { /* measured, but the choice cannot serve this call */
    keep(op, os, c, rc_of, st->version, pick, "");
    return pick;
  }
  *kept = 0;
  /* Another size of the class while it is learnt: not the same work, not measured. */
  if (e->bytes != c->bytes)
    return pick;
  a = gc_learn_next(e);
  if (!op->algorithms[a].supports(call, st)) { /* another root of the cluster */
    gc_learn_record(e, a, HUGE_VAL); /* the same on every rank: never chosen */
    return pick;
  }
  if (!gc_log_enabled())
    gc_debug(3, "%s of %zu B (root cluster %d): auto measures %s (measured call %d)",
             op->name, c->bytes, rc_of, op->algorithms[a].about->name, e->measured + 1);
  *explore = e;
  return a;
}

/* Runs the plan's algorithm; GC_FALLBACK (decided before any traffic, identically on
 * every rank) hands the call to the MPI library's own. *ran: the algorithm that ran. A
 * grid algorithm's error (from our private duplicate, where errors return as codes)
 * goes to the application's error handler, as the native call's would. */
static int run(const struct gc_op *op, void *call, struct gc_comm_state *st,
               const struct gc_plan *plan, int *ran)
{
  *ran = plan->algorithm;
  int rc = op->algorithms[*ran].run(call, st, plan);
  if (rc == GC_FALLBACK) {
    *ran = GC_NATIVE;
    return run_native(op, call, st);
  }
  if (rc != MPI_SUCCESS && *ran != GC_NATIVE)
    PMPI_Comm_call_errhandler(st->comm, rc);
  return rc;
}

/* A fallback is recorded as what ran: the library's own, unpredicted. */
static void fell_back(const struct gc_op *op, struct gc_call_line *line)
{
  line->algorithm = GC_NATIVE;
  line->algorithm_name = op->algorithms[GC_NATIVE].about->name;
  line->predicted = -1;
  line->model = NULL;
}

/* The budget's count (learn.h, point 2): the calls the memo served since it was armed,
 * then this one, credited to their learnt keys; a key whose budget now allows a measured
 * call is reopened before anything is decided. */
static void learn_count(struct gc_op_state *os, struct gc_comm_state *st, const struct gc_call *c)
{
  struct gc_learn *m = os->memo.learn;
  os->memo.learn = NULL;
  if (m && m->stamp == st->version + 1 && gc_learn_count(m, os->memo.granted - os->memo.left))
    learn_reopened(os, m, st->version);
  struct gc_learn *e = gc_learn_find(os->learn, c->bytes, root_cluster(st, c), st->version);
  if (e && e->bytes == c->bytes && gc_learn_count(e, 1))
    learn_reopened(os, e, st->version);
}

/* Arms the memo for a settled call; where its learnt key waits for the budget, for the
 * calls until then only (learn.h: gc_learn_quiet). */
static void arm(const struct gc_op *op, void *call, struct gc_comm_state *st,
                struct gc_op_state *os, const struct gc_call *c, const struct gc_call_line *line)
{
  struct gc_learn *e = os->learn && is_auto[op->id]
                           ? gc_learn_find(os->learn, c->bytes, root_cluster(st, c), st->version)
                           : NULL;
  if (e && e->bytes == c->bytes && gc_learn_next(e) >= 0)
    return; /* the key wants a measured call: the full dispatch again */
  gc_call_memo_arm(op, call, st, &os->memo, line);
  if (e && e->bytes == c->bytes && gc_learn_choice(e) >= 0) {
    os->memo.left = os->memo.granted = gc_learn_quiet(e);
    os->memo.learn = e;
  }
}

/* Step 5. Out of line, so that steps 2-4 save no registers. */
static __attribute__((noinline)) int dispatch_call(const struct gc_op *op, void *call,
                                                   struct gc_comm_state *st,
                                                   struct gc_op_state *os)
{
  struct gc_call c;
  os->memo.armed = GC_MEMO_OFF;
  if (!op->prepare(call, st, &c))
    return run_native(op, call, NULL);
  int logging = gc_log_enabled(), automatic = is_auto[op->id];
  int candidates = logging && gc_g.cfg.log_candidates;
  if (os->learn) { /* what the previous measured call taught, before anything is decided */
    gc_span_settle_taught(st);
    if (automatic)
      learn_count(os, st, &c);
  }

  /* `auto`, and what it knows: only what runs is predicted, for its record (a log costs
   * its record, not a prediction of every algorithm); without a log, nothing. */
  int a = automatic && !candidates ? known(op, call, st, os, &c, root_cluster(st, &c)) : -1;
  struct gc_plan plans[GC_MAX_ALGORITHMS];
  struct gc_call_line line;
  int ran, rc, kept = a >= 0 || !automatic;
  if (a >= 0 && !logging) {
    plans[a] = (struct gc_plan){.algorithm = a, .predicted = -1};
    rc = run(op, call, st, &plans[a], &ran);
    if (op->settle)
      op->settle(call, st, ran);
    line = (struct gc_call_line){.algorithm = (signed char)a};
    if (ran == a)
      arm(op, call, st, os, &c, &line);
    return rc;
  }

  struct gc_record rec = {.op = op->id, .op_name = op->name, .root = c.root,
                          .bytes = c.logged_bytes, .clusters = st->layout.nclusters};
  struct gc_learn *explore = NULL;
  MPI_Comm priv = MPI_COMM_NULL;
  if (a >= 0) {
    plans[a] = (struct gc_plan){.algorithm = a, .predicted = -1};
    plans[a].predicted = gc_prediction_checked(op->algorithms[a].predict(call, st, &plans[a]));
  } else {
    /* Before the choice (it changes the network view) and outside the timed region. */
    gc_probe_latency(st);
    a = choose(op, call, st, plans, &rec);
    if (automatic) {
      a = decide(op, call, st, os, &c, &rec, a, &explore, &kept);
      /* Made outside the timed region, on every member (each decided to explore). */
      if (explore && gc_comm_private(st, &priv) != MPI_SUCCESS)
        explore = NULL;
    }
  }
  record_choice(op, &plans[a], &rec);
  if (!logging && !explore) {
    rc = run(op, call, st, &plans[a], &ran);
  } else {
    struct gc_call_clock clock;
    gc_call_start(st, &clock);
    rc = run(op, call, st, &plans[a], &ran);
    gc_call_end(&clock);
    if (ran != a) {
      gc_call_line_of(&rec, &line);
      fell_back(op, &line);
      rec.algorithm = line.algorithm, rec.algorithm_name = line.algorithm_name;
      rec.predicted = line.predicted, rec.model = line.model;
    }
    if (op->describe && clock.logged) /* its time taken: what it says costs the call nothing */
      op->describe(call, st, ran, &rec);
    gc_call_stop(st, &clock, &rec, explore, a);
  }
  if (op->settle)
    op->settle(call, st, ran);
  /* Settled without measuring: the same call again makes the same choice (call.h). A
   * line with candidates is no template (the memo's lines carry none). */
  if (ran == a && kept && !explore && !candidates) {
    gc_call_line_of(&rec, &line);
    arm(op, call, st, os, &c, &line);
  }
  return rc;
}

/* Step 4: the memo's algorithm again, with nothing asked (call.h). Out of line, as step
 * 5. An op with a history (op.h: settle) has no key, so never comes here. */
static __attribute__((noinline)) int again(const struct gc_op *op, void *call,
                                           struct gc_comm_state *st, struct gc_op_state *os)
{
  const struct gc_call_line *what = &os->memo.line;
  /* The key says nothing of the buffers: a call of ours validates them as step 5 does
   * (the library validates its own). */
  struct gc_call c;
  if (what->algorithm != GC_NATIVE && !op->prepare(call, st, &c))
    return dispatch_call(op, call, st, os);
  struct gc_plan plan = {.algorithm = what->algorithm, .predicted = what->predicted,
                         .model = what->model};
  int ran, rc;
  if (!gc_log_enabled()) {
    rc = run(op, call, st, &plan, &ran);
    if (ran != plan.algorithm)
      os->memo.armed = GC_MEMO_OFF;
    return rc;
  }
  struct gc_call_clock clock;
  gc_call_start(st, &clock);
  rc = run(op, call, st, &plan, &ran);
  if (ran == plan.algorithm) {
    gc_call_stop_as(st, &clock, what);
    return rc;
  }
  struct gc_call_line fell = *what; /* as the full dispatch records a fallback */
  fell_back(op, &fell);
  os->memo.armed = GC_MEMO_OFF;
  gc_call_stop_as(st, &clock, &fell);
  return rc;
}

int gc_dispatch(const struct gc_op *op, void *call, MPI_Comm comm)
{
  struct gc_comm_state *st = gc_comm_state_get(comm);
  if (!st)
    return run_native(op, call, NULL);
  struct gc_op_state *os = &st->op[op->id];
  if (!os->known)
    os = classify(op, os, st);
  if (os->native_only)
    return run_native(op, call, st);
  /* left: the calls the memo may serve before learning's budget asks (ULLONG_MAX). */
  if (os->memo.armed && os->memo.left && gc_call_seen_again(op, call, st, &os->memo.seen)) {
    os->memo.left--;
    return os->memo.armed == GC_MEMO_LIBRARY ? run_native(op, call, st) : again(op, call, st, os);
  }
  return dispatch_call(op, call, st, os);
}

int gc_dispatch_scheduled(const struct gc_op *op, const void *call, struct gc_comm_state *st,
                          const int *has_schedule)
{
  int n = op->nalgorithms, supported[GC_MAX_ALGORITHMS];
  const char *names[GC_MAX_ALGORITHMS];
  double predicted[GC_MAX_ALGORITHMS];
  for (int i = 0; i < n; i++) {
    const struct gc_algorithm *alg = &op->algorithms[i];
    struct gc_plan plan = {.algorithm = i, .predicted = -1};
    names[i] = alg->about->name;
    supported[i] = (i == GC_NATIVE || has_schedule[i]) && alg->supports(call, st);
    /* Predicted only where the models compare (forced: nobody reads them). */
    predicted[i] = is_auto[op->id] && supported[i]
                       ? gc_prediction_checked(alg->predict(call, st, &plan))
                       : -1;
  }
  return gc_select(op->wanted, n, names, supported, predicted);
}

void gc_dispatch_issued(const struct gc_op *op, void *call, MPI_Comm comm, enum gc_entry entry,
                        int algorithm, struct gc_call_pending *pending)
{
  pending->calls = NULL;
  if (!gc_log_enabled())
    return;
  struct gc_call c;
  /* A nonblocking call may not wait for the other members: it reads a state made before
   * and writes a line only where the communicator is named (call.c: gc_call_issued). */
  struct gc_comm_state *st =
      entry == GC_ENTRY_NONBLOCKING ? gc_comm_state_find(comm) : gc_comm_state_get(comm);
  if (!st || !op->prepare(call, st, &c))
    return;
  int p = entry == GC_ENTRY_PERSISTENT;
  const char *native = p ? "native-persistent" : "native-nb";
  /* The prediction of what runs, by the blocking call's model (a schedule of gridcoll's
   * moves what its blocking run moves; the MPI library's nonblocking call is predicted
   * as its blocking one). Pure: a nonblocking call may not communicate. None where the
   * op's record is remade from its run (describe: MPI_Alltoallv's, whose totals no rank
   * knows before a run of LG-v; a nonblocking call runs none). */
  struct gc_plan plan = {.algorithm = algorithm, .predicted = -1};
  if (!op->describe && op->algorithms[algorithm].supports(call, st))
    plan.predicted = gc_prediction_checked(op->algorithms[algorithm].predict(call, st, &plan));
  struct gc_record rec = {.op = op->id, .op_name = nb_op_names[p][op->id], .algorithm = algorithm,
                          .algorithm_name = algorithm == GC_NATIVE ? native
                                                                   : nb_names[p][op->id][algorithm],
                          .root = c.root, .bytes = c.logged_bytes, .model = plan.model,
                          .predicted = plan.predicted, .entry = entry};
  gc_call_issued(st, &rec, pending);
}
