/* The dispatch (dispatch.h): one function for every collective.
 *
 * Route of a blocking call, cheapest exit first:
 *   1. a forced `native` with nothing recorded: the MPI library, nothing looked up
 *      (tested by the wrapper, gc_dispatch_bypass, before the re-entry guard);
 *   2. the communicator's state (comm_state.h); none (an intercommunicator, processes
 *      outside MPI_COMM_WORLD): the MPI library;
 *   3. nothing to choose on this communicator (one cluster, logging off): the library;
 *   4. the call validated by its op (prepare); invalid: the library, untouched;
 *   5. `auto` with logging off and this (bytes, root cluster) decided before under the
 *      same network view: that algorithm, no prediction;
 *   6. otherwise the probe (once per communicator), every algorithm asked, predicted,
 *      gc_select, the chosen plan run, GC_FALLBACK to row 0, the record.
 * Steps 1-3 read no clock, allocate nothing and validate nothing: the MPI library
 * validates the call it runs. Every test reads data identical on every rank (the
 * agreed configuration, the layout, the call's bytes and root), so every rank takes
 * the same exit and runs the same algorithm. */
#include "dispatch.h"

#include <string.h>

#include "gridcoll.h"
#include "probe.h"
#include "select.h"

int gc_dispatch_passthrough[GC_OP_LAST];

static int is(const char *wanted, const char *name)
{
  return strcmp(wanted, name) == 0;
}

void gc_dispatch_configure(const struct gc_op *op)
{
  /* The probe measures even for a forced native (its latency file is a result). */
  gc_dispatch_passthrough[op->id] =
      is(op->wanted, "native") && !gc_log_enabled() && !gc_g.cfg.probe;
}

static int run_native(const struct gc_op *op, void *call, struct gc_comm_state *st)
{
  return op->algorithms[GC_NATIVE].run(call, st, NULL);
}

/* Step 3, decided at the first call of op on st: identical on every rank. Out of line:
 * it runs once, and inlined it would make every call save registers. */
static __attribute__((noinline)) void learn(const struct gc_op *op, struct gc_op_state *os, const struct gc_comm_state *st)
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

/* Every algorithm asked and, when anything reads predictions (`auto`, a log, the
 * summary), predicted; gc_select; the record's choice and candidates. plans[i] keeps
 * what algorithm i's prediction prepared for its run. */
static int choose(const struct gc_op *op, const void *call, struct gc_comm_state *st,
                  struct gc_plan *plans, struct gc_record *rec)
{
  int n = op->nalgorithms, supported[GC_MAX_ALGORITHMS];
  const char *names[GC_MAX_ALGORITHMS];
  double predicted[GC_MAX_ALGORITHMS];
  const char *wanted = op->wanted;
  int need = is(wanted, "auto") || gc_log_enabled();
  for (int i = 0; i < n; i++) {
    const struct gc_algorithm *alg = &op->algorithms[i];
    names[i] = alg->about->name;
    supported[i] = alg->supports(call, st);
    plans[i] = (struct gc_plan){.algorithm = i, .predicted = -1};
    if (need)
      plans[i].predicted = alg->predict(call, st, &plans[i]);
    predicted[i] = plans[i].predicted;
  }
  int a = gc_select(wanted, n, names, supported, predicted);
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

/* Steps 4-6. Out of line, so that steps 2-3 save no registers. */
static __attribute__((noinline)) int dispatch_call(const struct gc_op *op, void *call,
                                                   struct gc_comm_state *st,
                                                   struct gc_op_state *os)
{
  struct gc_call c;
  if (!op->prepare(call, &c) || c.root >= st->size)
    return run_native(op, call, NULL);

  int logging = gc_log_enabled(), ran, rc;
  int automatic = is(op->wanted, "auto");
  if (!logging && automatic) {
    int a = gc_decision_find(os->decision, c.bytes, root_cluster(st, &c), st->version);
    if (a == GC_NATIVE)
      return run_native(op, call, st);
    if (a > 0 && op->algorithms[a].supports(call, st)) {
      struct gc_plan plan = {.algorithm = a, .predicted = -1};
      return run(op, call, st, &plan, &ran);
    }
  }

  /* Before the choice (it changes the network view) and outside the timed region. */
  gc_probe_latency(st);
  struct gc_plan plans[GC_MAX_ALGORITHMS];
  struct gc_record rec = {.op = op->id, .op_name = op->name, .root = c.root, .bytes = c.bytes};
  int a = choose(op, call, st, plans, &rec);
  if (automatic) {
    int rc_of = root_cluster(st, &c);
    gc_decision_put(os->decision, c.bytes, rc_of, st->version, a);
    /* What test/mpi/fastpath.sh counts: one line per choice made, none per reuse. */
    if (!logging)
      gc_debug(3, "%s of %zu B (root cluster %d): auto chose %s, kept for the same call again",
               op->name, c.bytes, rc_of, rec.algorithm_name);
  }
  if (!logging)
    return run(op, call, st, &plans[a], &ran);

  struct gc_timing timing;
  gc_call_start(st, &timing);
  rc = run(op, call, st, &plans[a], &ran);
  if (ran != a) { /* the record says what ran: the library's own, unpredicted */
    rec.algorithm = GC_NATIVE;
    rec.algorithm_name = op->algorithms[GC_NATIVE].about->name;
    rec.predicted = -1;
    rec.model = NULL;
  }
  gc_call_stop(st, &timing, &rec); /* the summary gets it from the log */
  return rc;
}

int gc_dispatch(const struct gc_op *op, void *call, MPI_Comm comm)
{
  struct gc_comm_state *st = gc_comm_state_get(comm);
  if (!st)
    return run_native(op, call, NULL);
  struct gc_op_state *os = &st->op[op->id];
  if (!os->known)
    learn(op, os, st);
  if (os->native_only)
    return run_native(op, call, st);
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
