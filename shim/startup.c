/* MPI_Init time: read the configuration, agree on it, and build the world cluster table.
 *
 * Every rank must make the same choices, so nothing here decides on one rank alone:
 *   1. each rank loads the file and the environment (no communication);
 *   2. one allreduce compares a hash of what they loaded; any difference, or any rank
 *      that failed to load, turns gridcoll into a pure passthrough on every rank;
 *   3. only then the topology: one cluster id per world rank, gathered so all hold the
 *      same table (a rank no cluster matches gets a cluster of its own).
 * Start-up traffic runs on MPI_COMM_WORLD inside MPI_Init, before the application can
 * have posted anything that it could match. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gridcoll.h"
#include "comm_state.h"
#include "clock.h"
#include "datatype.h"
#include "dispatch.h"
#include "latency.h"
#include "log.h"
#include "nbc.h"
#include "ops.h"
#include "span.h"
#include "summary.h"
#include "topology.h"

struct gc_global gc_g;

enum { LOAD_OK, LOAD_OFF, LOAD_ERROR };

/* The load failed because memory ran out on this rank, not because of what it read. */
static int load_no_memory;

static const char *env_get(const char *name)
{
  return getenv(name);
}

/* GRIDCOLL_VERBOSE when it is valid, for a configuration that failed to load: the
 * verbosity rule (msg.c) must hold for the message that says why. */
static void env_verbose(struct gc_config *cfg)
{
  const char *v = getenv("GRIDCOLL_VERBOSE");
  if (v && v[0] >= '0' && v[0] <= '3' && !v[1])
    cfg->verbose = v[0] - '0';
}

/* Step 1: file then environment over the defaults. On an error, cfg->strict and
 * cfg->verbose still say what the file (and GRIDCOLL_VERBOSE) asked for. */
static int load_config(char *err, size_t errlen)
{
  struct gc_config *cfg = &gc_g.cfg;
  gc_config_defaults(cfg);
  const char *off = getenv("GRIDCOLL");
  if (off && strcmp(off, "off") == 0) {
    cfg->enabled = 0; /* "nothing read": not even the file */
    return LOAD_OFF;
  }
  struct gc_config_names names; /* the pure rows the library's tables point at */
  gc_op_config_names(&names);
  const char *path = gc_config_default_path(env_get);
  int rc = path ? gc_config_load(cfg, path, &names, err, errlen) : 0;
  if (rc != 0) {
    load_no_memory = rc == GC_CONFIG_NO_MEMORY;
    env_verbose(cfg);
    return LOAD_ERROR;
  }
  int strict = cfg->strict, verbose = cfg->verbose;
  if ((rc = gc_config_apply_env(cfg, env_get, &names, err, errlen)) != 0) {
    load_no_memory = rc == GC_CONFIG_NO_MEMORY;
    cfg->strict = strict, cfg->verbose = verbose;
    env_verbose(cfg);
    return LOAD_ERROR;
  }
  return cfg->enabled ? LOAD_OK : LOAD_OFF;
}

/* Step 2: max of (h, ~h) gives max and ~min of h: equal iff all ranks agree. The third
 * slot carries ~(lowest rank whose load failed), so that rank can say why; the fourth
 * whether any rank asked for strict = true, so that all ranks abort or none does. */
static int agree(int status, int *first_error_rank, int *strict)
{
  uint64_t h = status == LOAD_OK ? gc_config_hash(&gc_g.cfg) : (uint64_t)status;
  uint64_t mine[4] = {h, ~h, ~(uint64_t)(status == LOAD_ERROR ? gc_g.world_rank : INT_MAX),
                      (uint64_t)(gc_g.cfg.strict != 0)};
  uint64_t all[4];
  *strict = gc_g.cfg.strict;
  if (PMPI_Allreduce(mine, all, 4, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
    return 0;
  *first_error_rank = (int)~all[2];
  *strict = all[3] != 0;
  return all[0] == ~all[1];
}

/* The reason start-up failed: always said when the job aborts for it (strict), else a
 * warning under the verbosity rule, as every memory shortage is said when that was it. */
static void explain(const char *why, int strict)
{
  if (strict)
    gc_say("%s; strict = true: aborting", why);
  else if (load_no_memory)
    gc_warn_oom("reading the configuration (%s); passing every call through", why);
  else
    gc_warn_any("%s; passing every call through", why);
}

/* Node topology: one cluster per shared-memory node, numbered by first appearance. */
static int node_cluster_table(int *table)
{
  MPI_Comm node;
  if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) !=
      MPI_SUCCESS)
    return -1;
  int leader = gc_g.world_rank;
  PMPI_Bcast(&leader, 1, MPI_INT, 0, node); /* key 0 keeps world order: rank 0 is lowest */
  PMPI_Comm_free(&node);
  if (PMPI_Allgather(&leader, 1, MPI_INT, table, 1, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS)
    return -1;
  /* Renumber into ordinals 0, 1, ... by first appearance. A node's leader is its lowest
   * world rank (key 0 keeps world order), so it is numbered before its other members. */
  int next = 0;
  for (int r = 0; r < gc_g.world_size; r++)
    table[r] = table[r] == r ? next++ : table[table[r]];
  return 0;
}

/* Clusters from the configuration: each rank matches itself, then all gather. */
static int configured_cluster_table(int *table, int *speaker)
{
  char host[MPI_MAX_PROCESSOR_NAME] = "";
  int len = 0;
  char err[GC_ERR_MAX] = "";
  PMPI_Get_processor_name(host, &len);
  int mine = gc_topology_cluster_of(&gc_g.cfg, gc_g.world_rank, host, err, sizeof err);
  if (PMPI_Allgather(&mine, 1, MPI_INT, table, 1, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS)
    return -1;
  int first_bad = -1, unmatched = 0;
  for (int r = 0; r < gc_g.world_size; r++) {
    if (table[r] == -2 && first_bad < 0)
      first_bad = r;
    unmatched += table[r] == GC_CLUSTER_NONE;
  }
  if (first_bad >= 0) {
    if (gc_g.world_rank == first_bad)
      explain(err, gc_g.cfg.strict); /* the hash agreed: the same on every rank */
    *speaker = first_bad;
    return -1;
  }
  if (unmatched) {
    char list[256] = "";
    size_t used = 0;
    for (int r = 0; r < gc_g.world_size && used < sizeof list - 8; r++) {
      if (table[r] == GC_CLUSTER_NONE)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", used ? "," : "", r);
    }
    gc_warn("%d rank(s) matched by no cluster of %s (%s%s): each forms a cluster of its own",
            unmatched, gc_g.cfg.path ? gc_g.cfg.path : "the configuration", list,
            used >= sizeof list - 8 ? ",..." : "");
    for (int r = 0; r < gc_g.world_size; r++) {
      if (table[r] == GC_CLUSTER_NONE)
        table[r] = gc_g.cfg.nclusters + r; /* beyond the configured ones: defaults apply */
    }
  }
  return 0;
}

/* A configuration error: abort if the user asked for strictness (on any rank: the
 * agreement made it the same everywhere), else pass through. The rank that explained the
 * error aborts; the others wait in a barrier it never joins, so they cannot kill the job
 * before its message is out. */
static void fail_startup(int speaker, int strict)
{
  if (strict) {
    if (gc_g.world_rank != speaker)
      PMPI_Barrier(MPI_COMM_WORLD);
    /* The reason was written to stderr, a pipe the launcher forwards: MPI_Abort at once
     * let hydra kill the job before forwarding it, about one time in ten. A fatal path
     * can wait a fifth of a second. */
    struct timespec forward = {0, 200000000};
    nanosleep(&forward, NULL);
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  gc_g.active = 0;
}

/* `auto` may learn (learn.h): on, for some operation, over two clusters or more. From the
 * agreed configuration and cluster table: the same on every rank. */
static int learning_possible(void)
{
  const struct gc_config *c = &gc_g.cfg;
  int autos = 0;
  for (int op = 0; op < GC_OP_LAST; op++)
    autos |= !strcmp(c->algorithm[op], "auto");
  for (int r = 1; c->learn && autos && r < gc_g.world_size; r++)
    if (gc_g.world_cluster[r] != gc_g.world_cluster[0])
      return 1;
  return 0;
}

/* What a communicator's state is made of (comm_state.h): the completion-time window and
 * each operation's own, made and agreed with it. The members agree that a state exists
 * wherever one of them could act on it differently from the others: two clusters in the
 * world, the log or the probe on. */
static void configure_parts(int logging)
{
  static struct gc_comm_part parts[1 + GC_OP_LAST];
  int n = 0, clusters = 0;
  parts[n++] = (struct gc_comm_part){gc_span_make, gc_span_drop};
  for (int op = 0; op < GC_OP_LAST; op++)
    if (gc_op_of(op)->make)
      parts[n++] = (struct gc_comm_part){gc_op_of(op)->make, NULL};
  for (int r = 1; r < gc_g.world_size && !clusters; r++)
    clusters = gc_g.world_cluster[r] != gc_g.world_cluster[0];
  gc_comm_state_configure(parts, n, clusters || logging || gc_g.cfg.probe);
}

/* Under GRIDCOLL_NONBLOCKING=grid, a new state's schedules' memory (nbc_reserve.c), made
 * inside the call that made the state, which every member makes, where the communicator
 * spans two clusters (no schedule serves fewer). */
static void schedules_made(struct gc_comm_state *st)
{
  MPI_Comm nbc;
  if (st->layout.nclusters >= 2)
    gc_comm_nbc(st, 1, &nbc);
}

/* MPI_COMM_WORLD made ready for nonblocking calls here, inside MPI_Init, where every rank
 * is: a nonblocking call may not wait for the others, so it finds what a call every
 * member makes built before it (comm_state.h: gc_comm_state_find) or runs the MPI
 * library's own, unlogged. The world's state (with it, its schedules' memory where
 * GRIDCOLL_NONBLOCKING=grid) and its name where the log is on (its lines say which
 * communicator); each made and agreed as at a first call. Other communicators get them
 * at their first blocking collective gridcoll sees. */
static void world_ready(int grid)
{
  struct gc_comm_state *st;
  MPI_Comm named;
  if (grid)
    gc_comm_state_on_made(schedules_made);
  if ((gc_log_enabled() || grid) && (st = gc_comm_state_get(MPI_COMM_WORLD)) &&
      gc_log_enabled())
    gc_comm_named(st, &named);
}

/* Steps 1-3 and what the library sets up once they agree. */
static void start(void)
{
  gc_g.started = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &gc_g.world_rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &gc_g.world_size);

  char err[GC_ERR_MAX] = "";
  int status = load_config(err, sizeof err);
  int first_error_rank = INT_MAX, strict = 0;
  int same = agree(status, &first_error_rank, &strict);
  if (first_error_rank != INT_MAX) {
    if (gc_g.world_rank == first_error_rank)
      explain(err, strict);
    fail_startup(first_error_rank, strict);
    return;
  }
  if (!same) {
    if (gc_g.world_rank == 0)
      explain("the configuration differs between ranks (file or GRIDCOLL_* environment not "
              "the same everywhere)", strict);
    fail_startup(0, strict);
    return;
  }
  if (status == LOAD_OFF) {
    gc_g.active = 0;
    return;
  }

  gc_g.world_cluster = malloc(sizeof(int) * (size_t)gc_g.world_size);
  int ok = gc_g.world_cluster != NULL;
  if (!ok) /* the rank that ran out says it; the others follow it without a word */
    gc_warn_oom("the world's cluster table; passing every call through");
  /* Whether the table could be allocated must be agreed too. */
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!ok) {
    free(gc_g.world_cluster);
    gc_g.world_cluster = NULL;
    gc_g.active = 0;
    return;
  }
  int speaker = 0;
  int rc = gc_g.cfg.topology == GC_TOPOLOGY_NODE
               ? node_cluster_table(gc_g.world_cluster)
               : configured_cluster_table(gc_g.world_cluster, &speaker);
  if (rc != 0) {
    fail_startup(speaker, gc_g.cfg.strict);
    free(gc_g.world_cluster);
    gc_g.world_cluster = NULL;
    return;
  }
  if (gc_g.cfg.bcast_segment > 0) { /* the same configuration on every rank */
    int plain = gc_datatype_pack_is_plain();
    PMPI_Allreduce(MPI_IN_PLACE, &plain, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!plain) {
      gc_warn("this MPI library does not pack data as plain bytes; bcast.segment is ignored");
      gc_g.cfg.bcast_segment = 0;
    }
  }
  gc_comm_state_init_keyval();
  const struct gc_config *c = &gc_g.cfg;
  gc_clock_use(c->clock); /* before anything reads it */
  int learning = learning_possible(), logging = c->log_file || gc_log_wants_summary(c);
  /* Timed calls (the log's sync lines, learning's measurements) are in one clock. */
  if (learning || (logging && c->log_mode == GC_LOG_SYNC))
    gc_clock_sync();
  gc_span_configure(logging && c->log_mode == GC_LOG_SYNC, logging && c->log_mode == GC_LOG_LOCAL,
                    c->log_candidates);
  if (learning)
    gc_span_reader_add(gc_dispatch_measured);
  gc_log_open(c);
  gc_summary_reset(gc_log_wants_summary(c));
  configure_parts(logging);
  for (int op = 0; op < GC_OP_LAST; op++)
    gc_dispatch_configure(gc_op_of(op));
  gc_g.active = 1;
  world_ready(c->nonblocking_grid && gc_nbc_available());
  char wanted[GC_OP_LAST * (GC_NAME_MAX + 32)] = ""; /* "alltoall=auto bcast=flat ..." */
  for (int op = 0; op < GC_OP_LAST; op++) {
    size_t used = strlen(wanted);
    snprintf(wanted + used, sizeof wanted - used, "%s%s=%s", op ? " " : "", gc_op_table[op].name,
             gc_g.cfg.algorithm[op]);
  }
  gc_debug(2, "active: %s topology, %s, log=%s",
           gc_g.cfg.topology == GC_TOPOLOGY_NODE ? "node" : "configured", wanted,
           gc_g.cfg.log_file ? gc_g.cfg.log_file : "off");
}

void gc_startup(int thread_level)
{
  if (!gc_guard_enter())
    return;
  if (!gc_g.started) {
    gc_g.thread_level = thread_level;
    start();
  }
  gc_guard_leave();
}

static void stop(void)
{
  if (gc_g.active) {
    gc_g.active = 0; /* from here on, every call passes through */
    gc_span_finalize();
    gc_log_finalize();
    gc_latency_finalize();
    gc_summary_finalize(&gc_g.cfg, gc_op_row_name);
    gc_comm_state_free_keyval();
  }
  free(gc_g.world_cluster);
  gc_g.world_cluster = NULL;
  gc_config_free(&gc_g.cfg);
}

void gc_shutdown(void)
{
  if (!gc_guard_enter())
    return;
  stop();
  gc_guard_leave();
}
