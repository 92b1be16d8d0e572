/* The dispatch (dispatch.h): one function for every collective.
 *
 * Route of a blocking call, cheapest exit first:
 *   1. a forced `native` with nothing recorded: the MPI library, nothing looked up
 *      (tested by the wrapper, gc_dispatch_bypass, before the re-entry guard);
 *   2. the communicator's state (comm_state.h); none (an intercommunicator, processes
 *      outside MPI_COMM_WORLD): the MPI library;
 *   3. nothing to choose on this communicator (one cluster, logging off): the library;
 *   3b. the same call (op.h: gc_call_key) as the last one `auto` sent to the library from
 *      the decision cache, under the same network view, logging off: the library again
 *      (the fast path; every call that goes further disarms it);
 *   3c. logging on, the same call as the last logged one whose algorithm was settled
 *      without measuring (forced, or `auto` decided), under the same view: that
 *      algorithm again, timed and recorded from that call's line (logged_again);
 *   4. the call validated by its op (prepare); invalid: the library, untouched;
 *   5. `auto`: the measurement the previous call of this op posted, completed and
 *      recorded (measure.h; nothing when none is pending);
 *   6. `auto` with logging off and this (bytes, root cluster) decided before under the
 *      same network view, by the models or by measurement: that algorithm, no
 *      prediction;
 *   7. otherwise the probe (once per communicator), every algorithm asked, predicted,
 *      gc_select; for `auto`, what is decided or learnt (decide: learning explores the
 *      algorithms predicted within 2.5x of the best, learn.h, and the call runs the
 *      next of them, timed, its completion time posted for every rank to record); the
 *      plan run, GC_FALLBACK to row 0, the record (of what ran).
 * Steps 1-3b read no clock, 3c only its two; they allocate nothing and validate nothing
 * (3c a grid algorithm's buffers only): the MPI library validates the call it runs.
 * Every test reads data identical on every rank (the agreed configuration, the layout,
 * the call's bytes and root, the allreduced times), so every rank takes the same exit
 * and runs the same algorithm. */
#include "dispatch.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "datatype.h"
#include "gridcoll.h"
#include "learn.h"
#include "measure.h"
#include "prediction.h"
#include "probe.h"
#include "select.h"

int gc_dispatch_passthrough[GC_OP_LAST];
/* 1 when the op's configured choice is `auto`: read on every call, compared once. */
static int is_auto[GC_OP_LAST];

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
}

static int run_native(const struct gc_op *op, void *call, struct gc_comm_state *st)
{
  return op->algorithms[GC_NATIVE].run(call, st, NULL);
}

/* Step 3, decided at the first call of op on st: identical on every rank. Out of line:
 * it runs once, and inlined it would make every call save registers. */
static __attribute__((noinline)) void classify(const struct gc_op *op, struct gc_op_state *os, const struct gc_comm_state *st)
{
  int grid_possible = 0;
  for (int i = 1; i < op->nalgorithms; i++)
    grid_possible |= !op->algorithms[i].wide || st->layout.nclusters >= 2;
  /* A probe due on this communicator is a result too (its latency report). */
  int probe_due = gc_g.cfg.probe && st->layout.nclusters >= 2;
  os->native_only =
      !gc_log_enabled() && !probe_due && (is(op->wanted, "native") || !grid_possible);
  os->known = 1;
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
  const char *wanted = op->wanted;
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
  int a = gc_select(wanted, n, names, supported, predicted);
  if (!all && gc_log_enabled() && supported[a])
    predicted[a] = plans[a].predicted =
        gc_prediction_checked(op->algorithms[a].predict(call, st, &plans[a]));
  rec->ncandidates = n;
  for (int i = 0; i < n; i++)
    rec->candidates[i] = (struct gc_candidate){names[i], supported[i] ? predicted[i] : -1};
  rec->algorithm = a;
  rec->algorithm_name = names[a];
  rec->predicted = predicted[a];
  /* cppcheck-suppress uninitvar ; every table has its native row, so n >= 1 and the
   * loop above filled plans[a] (a < n) */
  rec->model = plans[a].model;
  return a;
}

/* The record says a ran (its prediction, its model), not gc_select's pick. */
static void record_choice(const struct gc_op *op, const struct gc_plan *plans, int a,
                          struct gc_record *rec)
{
  rec->algorithm = a;
  rec->algorithm_name = op->algorithms[a].about->name;
  rec->predicted = plans[a].predicted;
  rec->model = plans[a].model;
}

/* Remembers a for the same call again (step 6). What test/mpi/fastpath.sh counts: one
 * line per choice kept, none per reuse. */
static void keep(const struct gc_op *op, struct gc_op_state *os, const struct gc_call *c,
                 int rc_of, unsigned long long version, int a, const char *how)
{
  gc_decision_put(os->decision, c->bytes, rc_of, version, a);
  if (!gc_log_enabled())
    gc_debug(3, "%s of %zu B (root cluster %d): auto chose %s%s, kept for the same call again",
             op->name, c->bytes, rc_of, op->algorithms[a].about->name, how);
}

/* What step 6 finds without predicting: the decision cache, then a finished learning
 * of the call's size class (kept for its bytes then). -1: unknown. */
static int known(const struct gc_op *op, const void *call, struct gc_comm_state *st,
                 struct gc_op_state *os, const struct gc_call *c, int rc_of)
{
  int a = gc_decision_find(os->decision, c->bytes, rc_of, st->version);
  if (a < 0 && os->learn) {
    const struct gc_learn *e = gc_learn_find(os->learn, c->bytes, rc_of, st->version);
    /* Measured (more than one candidate), so the choice serves the whole class. */
    if (e && e->ncandidates > 1 && e->choice >= 0 &&
        op->algorithms[e->choice].supports(call, st)) {
      keep(op, os, c, rc_of, st->version, e->choice, " (measured fastest)");
      return e->choice;
    }
  }
  /* The MPI library's own serves every call: no question asked on the fast path. */
  return a == GC_NATIVE || (a > 0 && op->algorithms[a].supports(call, st)) ? a : -1;
}

/* `auto`'s algorithm for a call, given the models' pick: what is known (step 6), else
 * learning's next candidate (*explore set: the call is measured), else the pick, kept.
 * Every input is identical on every rank, the learnt times included. */
static int decide(const struct gc_op *op, const void *call, struct gc_comm_state *st,
                  struct gc_op_state *os, const struct gc_call *c, const struct gc_record *rec,
                  int pick, struct gc_learn **explore)
{
  int rc_of = root_cluster(st, c);
  int a = known(op, call, st, os, c, rc_of);
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
    double predicted[GC_MAX_ALGORITHMS];
    for (int i = 0; i < n; i++) {
      predicted[i] = rec->candidates[i].predicted;
      supported[i] = predicted[i] >= 0 || i == pick;
    }
    int k = gc_learn_candidates(n, supported, predicted, pick, cand);
    e = gc_learn_start(os->learn, c->bytes, rc_of, st->version, k, cand);
    if (k == 1) { /* nothing to compare: the models' pick at once, at no cost */
      keep(op, os, c, rc_of, st->version, pick, "");
      return pick;
    }
  }
  if (e->choice >= 0) { /* measured, but the choice cannot serve this call */
    keep(op, os, c, rc_of, st->version, pick, "");
    return pick;
  }
  /* Another size of the class while it is learnt: not the same work, not measured. */
  if (e->bytes != c->bytes)
    return pick;
  a = gc_learn_next(e);
  if (!op->algorithms[a].supports(call, st)) { /* another root of the cluster */
    gc_learn_record(e, a, HUGE_VAL); /* the same on every rank: never chosen */
    return pick;
  }
  if (!gc_log_enabled())
    gc_debug(3, "%s of %zu B (root cluster %d): auto measures %s (run %d of %d)", op->name,
             c->bytes, rc_of, op->algorithms[a].about->name, e->runs + 1,
             GC_LEARN_ROUNDS * e->ncandidates);
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

/* The call as seen now (comm_state.h: gc_call_seen), when every datatype in it is one
 * whose size holds while gc_datatype_frees keeps its count (read first: a free after it
 * moves the count and makes the record stale, never wrong); 0 when some datatype is not
 * kept so, or the op has no key. */
static int seen_now(const struct gc_op *op, const void *call, const struct gc_comm_state *st,
                    struct gc_call_seen *out)
{
  if (!op->key)
    return 0;
  out->frees = atomic_load_explicit(&gc_datatype_frees, memory_order_relaxed);
  out->version = st->version;
  op->key(call, &out->key);
  for (int i = 0; i < 2; i++)
    if (out->key.type[i] != MPI_DATATYPE_NULL && !gc_datatype_kept(out->key.type[i], out->frees))
      return 0;
  return 1;
}

/* 1 when call is the one seen before, under the same network view and datatype frees. */
static int seen_again(const struct gc_op *op, const void *call, const struct gc_comm_state *st,
                      const struct gc_call_seen *seen)
{
  struct gc_call_key key;
  op->key(call, &key);
  return gc_call_key_equal(&key, &seen->key) && seen->version == st->version &&
         seen->frees == atomic_load_explicit(&gc_datatype_frees, memory_order_relaxed);
}

/* Step 3b armed by a call `auto` sent to the library from the decision cache. Every rank
 * that takes the fast path for a later call would have found the same cached choice
 * without changing anything (the decision cache and learning change only in the full
 * dispatch, which disarms), so ranks whose keys differ for the same bytes (a derived
 * type on one side, its elements on the other) still run the same algorithm. */
static void fast_arm(const struct gc_op *op, const void *call, const struct gc_comm_state *st,
                     struct gc_op_state *os)
{
  os->fast.armed = seen_now(op, call, st, &os->fast.seen);
}

/* The prediction of algorithm a for a logged, decided call: the one read for the same
 * call seen before (the same model inputs), else computed and kept. A logged call costs
 * its record, not a model evaluation. */
static void predict_logged(const struct gc_op *op, void *call, struct gc_comm_state *st,
                           struct gc_op_state *os, int a, struct gc_plan *plan)
{
  if (os->predicted.set && os->predicted.algorithm == a &&
      seen_again(op, call, st, &os->predicted.seen)) {
    plan->predicted = os->predicted.predicted;
    plan->model = os->predicted.model;
    return; /* plan->data stays NULL: the run finds what it needs itself */
  }
  plan->predicted = gc_prediction_checked(op->algorithms[a].predict(call, st, plan));
  os->predicted.set = seen_now(op, call, st, &os->predicted.seen);
  os->predicted.algorithm = a;
  os->predicted.predicted = plan->predicted;
  os->predicted.model = plan->model;
}

/* Steps 4-7. Out of line, so that steps 2-3 save no registers. */
static __attribute__((noinline)) int dispatch_call(const struct gc_op *op, void *call,
                                                   struct gc_comm_state *st,
                                                   struct gc_op_state *os)
{
  struct gc_call c;
  os->fast.armed = os->logged.armed = 0;
  if (!op->prepare(call, &c) || c.root >= st->size)
    return run_native(op, call, NULL);

  int logging = gc_log_enabled(), ran, rc;
  int automatic = is_auto[op->id];
  if (os->measure.pending) /* the previous call of op here was measured */
    gc_measure_settle(&os->measure);
  if (!logging && automatic) {
    int a = known(op, call, st, os, &c, root_cluster(st, &c));
    if (a == GC_NATIVE) {
      fast_arm(op, call, st, os);
      return run_native(op, call, st);
    }
    if (a > 0) {
      struct gc_plan plan = {.algorithm = a, .predicted = -1};
      return run(op, call, st, &plan, &ran);
    }
  }

  struct gc_plan plans[GC_MAX_ALGORITHMS];
  struct gc_record rec = {.op = op->id, .op_name = op->name, .root = c.root, .bytes = c.bytes};
  struct gc_learn *explore = NULL;
  MPI_Comm priv = MPI_COMM_NULL;
  /* Logged and decided, with no candidates column: only what runs is predicted, for its
   * record (a log costs its record, not a prediction of every algorithm). */
  int a = logging && automatic && !gc_g.cfg.log_candidates
              ? known(op, call, st, os, &c, root_cluster(st, &c))
              : -1;
  int decided = a >= 0;
  if (decided) {
    plans[a] = (struct gc_plan){.algorithm = a, .predicted = -1};
    predict_logged(op, call, st, os, a, &plans[a]);
    record_choice(op, plans, a, &rec);
  } else {
    /* Before the choice (it changes the network view) and outside the timed region. */
    gc_probe_latency(st);
    a = choose(op, call, st, plans, &rec);
  }
  if (automatic && !decided) {
    a = decide(op, call, st, os, &c, &rec, a, &explore);
    record_choice(op, plans, a, &rec);
    /* Made outside the timed region, on every member (each decided to explore). */
    if (explore && gc_comm_private(st, &priv) != MPI_SUCCESS)
      explore = NULL;
  }
  if (!logging && !explore)
    return run(op, call, st, &plans[a], &ran);

  struct gc_timing timing;
  if (logging)
    gc_call_start(st, &timing);
  double t0 = explore ? PMPI_Wtime() : 0;
  rc = run(op, call, st, &plans[a], &ran);
  if (explore)
    gc_measure_post(priv, st->rank, &os->measure, explore, a, c.root, t0, PMPI_Wtime());
  if (!logging)
    return rc;
  if (ran != a) { /* the record says what ran: the library's own, unpredicted */
    rec.algorithm = GC_NATIVE;
    rec.algorithm_name = op->algorithms[GC_NATIVE].about->name;
    rec.predicted = -1;
    rec.model = NULL;
  }
  /* The summary gets it from the log. A choice settled without measuring (forced, or
   * decided) is the same for the same call again: step 3c may serve that one. */
  if (gc_call_stop(st, &timing, &rec) && ran == a && !explore && (decided || !automatic) &&
      !gc_g.cfg.log_candidates && (os->logged.armed = seen_now(op, call, st, &os->logged.seen)))
    gc_call_line_of(&rec, &os->logged.line);
  return rc;
}

/* Step 3c: the same call as the last logged one whose choice was settled, under the same
 * view. A forced choice depends on nothing else (the call, the layout, the view); a
 * decided one changes only in the full dispatch, which disarms this. So it runs what ran
 * then, timed, and is recorded from that call's line: no record built, no model, no
 * question (issue 13: a logged call costs its record; 1,046-1,062 instructions a call
 * with the log's text and summary, 1,369-1,424 through the full dispatch). */
static __attribute__((noinline)) int logged_again(const struct gc_op *op, void *call,
                                                  struct gc_comm_state *st,
                                                  struct gc_op_state *os)
{
  const struct gc_call_line *what = &os->logged.line;
  /* The key says nothing of the buffers: a call of ours validates them as step 4 does
   * (the library validates its own). */
  struct gc_call c;
  if (what->algorithm != GC_NATIVE && !op->prepare(call, &c))
    return dispatch_call(op, call, st, os);
  struct gc_plan plan = {.algorithm = what->algorithm, .predicted = what->predicted,
                         .model = what->model};
  struct gc_timing timing;
  int ran;
  gc_call_start(st, &timing);
  int rc = run(op, call, st, &plan, &ran);
  if (ran == plan.algorithm) {
    gc_call_stop_as(st, &timing, what);
    return rc;
  }
  struct gc_call_line fell = *what; /* as the full dispatch records a fallback */
  fell.algorithm = GC_NATIVE;
  fell.algorithm_name = op->algorithms[GC_NATIVE].about->name;
  fell.predicted = -1;
  fell.model = NULL;
  os->logged.armed = 0;
  gc_call_stop_as(st, &timing, &fell);
  return rc;
}

int gc_dispatch(const struct gc_op *op, void *call, MPI_Comm comm)
{
  struct gc_comm_state *st = gc_comm_state_get(comm);
  if (!st)
    return run_native(op, call, NULL);
  struct gc_op_state *os = &st->op[op->id];
  if (!os->known)
    classify(op, os, st);
  if (os->native_only || (os->fast.armed && seen_again(op, call, st, &os->fast.seen)))
    return run_native(op, call, st);
  if (os->logged.armed && seen_again(op, call, st, &os->logged.seen))
    return logged_again(op, call, st, os);
  return dispatch_call(op, call, st, os);
}

void gc_dispatch_issued(const struct gc_op *op, void *call, MPI_Comm comm, enum gc_entry entry)
{
  if (!gc_log_enabled())
    return;
  struct gc_call c;
  struct gc_comm_state *st;
  if (!op->prepare(call, &c) || !(st = gc_comm_state_get(comm)) || c.root >= st->size)
    return;
  struct gc_record rec = {.op = op->id, .op_name = op->name, .algorithm = GC_NATIVE,
                          .algorithm_name = entry == GC_ENTRY_PERSISTENT ? "native-persistent"
                                                                         : "native-nb",
                          .root = c.root, .bytes = c.bytes, .entry = entry};
  gc_log_issued(st, &rec);
}
