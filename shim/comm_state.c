/* The per-communicator cache: a keyval attribute whose delete callback frees our state
 * (and the sub-communicators we made) when the application frees the communicator.
 * The copy callback is the null one: a duplicate builds its own state on first use. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "comm_state.h"
#include "gridcoll.h"
#include "nbc.h"

static int keyval = MPI_KEYVAL_INVALID;
static atomic_uint next_id; /* per process; combined with the world rank of comm rank 0 */

/* In front of PMPI_Comm_get_attr (MPICH walks the communicator's attribute list under a
 * lock: about 120 instructions a call), each thread keeps the states it found last, in
 * a few slots indexed by the handle. A handle's value is reused once its communicator
 * is freed, so a slot holds only while no state has been deleted since it was filled:
 * every delete (the keyval's callback, on MPI_Comm_free or at MPI_Finalize) bumps
 * `deletions`, and a slot filled under another count is a miss. A thread that uses a
 * handle another thread freed and made anew learned of the new communicator after the
 * free (MPI forbids using a communicator while it is being freed), so it sees the bump.
 * Per thread: no slot is ever written by two threads, and nothing here takes a lock. */
enum { CACHE_SLOTS = 4 };
struct cache_slot {
  MPI_Comm comm;
  struct gc_comm_state *st; /* NULL: empty */
  unsigned long long deletions;
};
static GC_TLS struct cache_slot cache[CACHE_SLOTS];
static atomic_ullong deletions;

/* MPI_Comm is an int (MPICH: the low bits index a table) or a pointer (Open MPI: the
 * low bits are alignment): the bits above the lowest few of either spread well enough. */
static unsigned cache_index(MPI_Comm comm)
{
  uintptr_t h = (uintptr_t)comm;
  return (unsigned)((h ^ (h >> 4) ^ (h >> 12)) % CACHE_SLOTS);
}

/* Tags of the communicator creations on the private duplicate: a leader makes both
 * communicators, its cluster's members and the other leaders make one each, in any
 * order between them; distinct tags keep the two agreements apart. */
enum { TAG_CLUSTER = 1, TAG_LEADERS = 2 };

static void free_comm(MPI_Comm *c)
{
  if (*c != MPI_COMM_NULL)
    PMPI_Comm_free(c);
}

/* What start-up gave (gc_comm_state_configure). */
static const struct gc_comm_part *parts;
static int nparts, agree;
static void (*on_made)(struct gc_comm_state *st);

/* A communicator whose state could not be built on some member: its attribute, so that
 * every member passes its calls through without asking again. */
static struct gc_comm_state unserved;

void gc_comm_state_configure(const struct gc_comm_part *p, int n, int must_agree)
{
  parts = p;
  nparts = n;
  agree = must_agree;
}

void gc_comm_state_on_made(void (*made)(struct gc_comm_state *st))
{
  on_made = made;
}

/* Everything st holds, freed; collective where a part communicates (its drop). */
static void destroy(struct gc_comm_state *st)
{
  for (int i = nparts - 1; i >= 0; i--)
    if (parts[i].drop)
      parts[i].drop(st);
  for (int op = 0; op < GC_OP_LAST; op++)
    if (st->op[op].data && st->op[op].free_data)
      st->op[op].free_data(st, st->op[op].data);
  free_comm(&st->leader_comm);
  free_comm(&st->cluster_comm);
  free_comm(&st->nbc_comm); /* MPI frees it once the schedules still on it complete */
  gc_nbc_pool_drop(st->nbc_pool); /* the same: freed when its last busy slot is given back */
  if (st->nbc_lg)
    st->nbc_lg_free(st->nbc_lg);
  free_comm(&st->private_comm);
  gc_network_free(&st->network);
  gc_layout_free(&st->layout);
  free(st->op[0].learn);
  free(st);
}

static int delete_state(MPI_Comm comm, int kv, void *value, void *extra)
{
  (void)comm, (void)kv, (void)extra;
  /* Before the free: a slot naming the state is stale from here on, in every thread. */
  atomic_fetch_add_explicit(&deletions, 1, memory_order_release);
  if (value == &unserved)
    return MPI_SUCCESS;
  int entered = gc_guard_enter();
  destroy(value); /* MPI_Comm_free is collective: every member drops the same parts */
  if (entered)
    gc_guard_leave();
  return MPI_SUCCESS;
}

void gc_comm_state_init_keyval(void)
{
  if (keyval == MPI_KEYVAL_INVALID)
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &keyval, NULL);
}

static void delete_if_set(MPI_Comm comm)
{
  void *st = NULL;
  int found = 0;
  if (PMPI_Comm_get_attr(comm, keyval, &st, &found) == MPI_SUCCESS && found)
    PMPI_Comm_delete_attr(comm, keyval);
}

void gc_comm_state_free_keyval(void)
{
  if (keyval == MPI_KEYVAL_INVALID)
    return;
  /* World and self are never freed by the application: drop their state now, while
   * MPI still runs, so nothing we allocated outlives MPI_Finalize. Only where it was
   * set: Open MPI calls deleting an absent attribute an error (fatal on MPI_COMM_SELF). */
  delete_if_set(MPI_COMM_SELF);
  delete_if_set(MPI_COMM_WORLD);
  PMPI_Comm_free_keyval(&keyval);
}

/* Every op's learning table, in one block (freed through op[0]'s), where learning can
 * run: learn on and two clusters or more, read from data identical on every member.
 * 0 when out of memory. */
static int learn_tables(struct gc_comm_state *st)
{
  if (!gc_g.cfg.learn || st->layout.nclusters < 2)
    return 1;
  struct gc_learn_table *t = calloc(GC_OP_LAST, sizeof *t);
  if (!t)
    return 0;
  for (int op = 0; op < GC_OP_LAST; op++)
    st->op[op].learn = &t[op];
  return 1;
}

/* The world ranks of comm's members, translated into their clusters: cluster[size]. 0,
 * GC_UNSERVED (a member outside MPI_COMM_WORLD: the same on every member) or
 * GC_NOMEM. */
enum { GC_BUILT = 1, GC_UNSERVED = 0, GC_NOMEM = -1 };
static int clusters_of(MPI_Comm comm, int size, int *cluster)
{
  int *world_ranks = malloc(sizeof(int) * (size_t)size);
  if (!world_ranks)
    return GC_NOMEM;
  for (int i = 0; i < size; i++)
    cluster[i] = i;
  MPI_Group group, world;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  PMPI_Group_translate_ranks(group, size, cluster, world, world_ranks);
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  int rc = GC_BUILT;
  for (int i = 0; i < size && rc == GC_BUILT; i++) {
    /* A rank outside MPI_COMM_WORLD (spawned processes) has no known cluster. */
    if (world_ranks[i] == MPI_UNDEFINED)
      rc = GC_UNSERVED;
    else
      cluster[i] = gc_g.world_cluster[world_ranks[i]];
  }
  free(world_ranks);
  return rc;
}

/* The state of comm, made here alone: its layout from the world cluster table (no
 * communication), its network view, learning's tables and every part. *st: what was made
 * (NULL when nothing could be). GC_BUILT, GC_UNSERVED or GC_NOMEM. */
static int build_state(MPI_Comm comm, struct gc_comm_state **out)
{
  struct gc_comm_state *st = *out = calloc(1, sizeof *st);
  if (!st)
    return GC_NOMEM;
  st->comm = comm;
  st->private_comm = st->cluster_comm = st->leader_comm = st->nbc_comm = MPI_COMM_NULL;
  PMPI_Comm_rank(comm, &st->rank);
  PMPI_Comm_size(comm, &st->size);
  int *cluster = malloc(sizeof(int) * (size_t)st->size);
  int rc = cluster ? clusters_of(comm, st->size, cluster) : GC_NOMEM;
  if (rc == GC_BUILT && gc_layout_build(&st->layout, st->size, cluster) != 0)
    rc = GC_NOMEM;
  free(cluster);
  if (rc == GC_BUILT && gc_network_build(&st->network, &gc_g.cfg, &st->layout) != 0)
    rc = GC_NOMEM;
  if (rc == GC_BUILT && !learn_tables(st))
    rc = GC_NOMEM;
  for (int i = 0; i < nparts && rc == GC_BUILT; i++)
    if (parts[i].make && parts[i].make(st) != 0)
      rc = GC_NOMEM;
  return rc;
}

/* A miss in this thread's slots: the attribute, or a new state. Out of line, so that a
 * hit saves no registers. */
static __attribute__((noinline)) struct gc_comm_state *
lookup(MPI_Comm comm, struct cache_slot *slot, unsigned long long now, int build)
{
  /* The attribute: on the per-call path that is the only MPI call. It is set on
   * intracommunicators only (tested below, before building), so a hit needs no test. */
  struct gc_comm_state *st = NULL;
  int found = 0, inter = 0;
  if (PMPI_Comm_get_attr(comm, keyval, &st, &found) != MPI_SUCCESS)
    return NULL;
  if (found) {
    if (st == &unserved)
      return NULL;
    *slot = (struct cache_slot){comm, st, now};
    return st;
  }
  if (!build || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
    return NULL;
  /* Not found on this rank means not found on any member: the state is made at the
   * first intercepted call, which every member makes, on the same road (the agreed
   * configuration). Made here alone, then agreed: the lowest verdict wins, so memory
   * that ran out on one member means no state on any (an allreduce on comm itself, whose
   * members are all in this call; ordered with the application's own collectives as
   * this call is). Without two clusters in the world, the log or the probe, every
   * member runs the MPI library's own algorithm with or without a state: nothing to
   * agree. */
  int here = build_state(comm, &st), rc = here;
  if (agree)
    PMPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MIN, comm);
  if (rc == GC_BUILT && PMPI_Comm_set_attr(comm, keyval, st) == MPI_SUCCESS) {
    *slot = (struct cache_slot){comm, st, now};
    if (on_made)
      on_made(st);
    return st;
  }
  if (st)
    destroy(st); /* nothing collective was made yet: its parts drop alone */
  if (rc == GC_NOMEM) {
    /* The member that ran out says so; the others follow it without a word. */
    if (here == GC_NOMEM)
      gc_warn_oom("a communicator's state; its calls pass through to the MPI library");
    PMPI_Comm_set_attr(comm, keyval, &unserved);
  }
  return NULL;
}

/* A hit in this thread's slots, else the attribute (and, where build, a new state). */
static inline __attribute__((always_inline)) struct gc_comm_state *state_of(MPI_Comm comm,
                                                                            int build)
{
  if (comm == MPI_COMM_NULL || keyval == MPI_KEYVAL_INVALID)
    return NULL;
  struct cache_slot *slot = &cache[cache_index(comm)];
  unsigned long long now = atomic_load_explicit(&deletions, memory_order_acquire);
  if (slot->st && slot->comm == comm && slot->deletions == now)
    return slot->st;
  return lookup(comm, slot, now, build);
}

struct gc_comm_state *gc_comm_state_get(MPI_Comm comm)
{
  return state_of(comm, 1);
}

struct gc_comm_state *gc_comm_state_find(MPI_Comm comm)
{
  return state_of(comm, 0);
}

int gc_comm_private(struct gc_comm_state *st, MPI_Comm *out)
{
  if (st->private_comm == MPI_COMM_NULL) {
    int rc = PMPI_Comm_dup(st->comm, &st->private_comm);
    if (rc != MPI_SUCCESS)
      return rc;
    /* Internal errors come back to us as codes; the application's handler stays its own. */
    PMPI_Comm_set_errhandler(st->private_comm, MPI_ERRORS_RETURN);
  }
  *out = st->private_comm;
  return MPI_SUCCESS;
}

int gc_comm_named(struct gc_comm_state *st, MPI_Comm *out)
{
  int rc = gc_comm_private(st, out);
  if (rc != MPI_SUCCESS || st->id)
    return rc;
  /* Comm rank 0's world rank and its own count: unique in the job, the same on every
   * member once broadcast. Only the log and the probe's report name communicators, so
   * an algorithm's first call does not pay this broadcast. */
  unsigned long long id = ((unsigned long long)gc_g.world_rank << 32) |
                          (atomic_fetch_add(&next_id, 1) + 1u);
  if ((rc = PMPI_Bcast(&id, 1, MPI_UNSIGNED_LONG_LONG, 0, *out)) != MPI_SUCCESS)
    return rc;
  st->id = id;
  return MPI_SUCCESS;
}

int gc_comm_cluster(struct gc_comm_state *st, MPI_Comm *out)
{
  if (st->cluster_comm == MPI_COMM_NULL) {
    MPI_Comm priv;
    int rc = gc_comm_private(st, &priv);
    if (rc != MPI_SUCCESS)
      return rc;
    /* The layout already says who is in my cluster, in ascending communicator rank (so
     * that a process's cluster rank is its index_in_cluster): a group, and a
     * communicator made by its members alone. Unlike a split (an allgather of colours
     * over the whole communicator, then a context id agreed by all), only the cluster's
     * members agree, and a cluster of one makes its communicator without a message. */
    const struct gc_layout *l = &st->layout;
    int c = l->cluster_of[st->rank];
    MPI_Group all, mine;
    if ((rc = PMPI_Comm_group(priv, &all)) != MPI_SUCCESS)
      return rc;
    rc = PMPI_Group_incl(all, l->cluster_size[c], l->members + l->cluster_start[c], &mine);
    PMPI_Group_free(&all);
    if (rc != MPI_SUCCESS)
      return rc;
    rc = PMPI_Comm_create_group(priv, mine, TAG_CLUSTER, &st->cluster_comm);
    PMPI_Group_free(&mine);
    if (rc != MPI_SUCCESS)
      return rc;
    /* As the private duplicate's: MPICH gives a communicator made from a group the
     * default handler, not its parent's (LG's drain, lg.c, relies on a truncation
     * coming back as a code). */
    PMPI_Comm_set_errhandler(st->cluster_comm, MPI_ERRORS_RETURN);
  }
  *out = st->cluster_comm;
  return MPI_SUCCESS;
}

int gc_comm_leaders(struct gc_comm_state *st, MPI_Comm *out)
{
  if (!st->have_leader_comm) {
    MPI_Comm priv;
    int rc = gc_comm_private(st, &priv);
    if (rc != MPI_SUCCESS)
      return rc;
    /* As the cluster communicators: made by the leaders alone; the others need none. */
    const struct gc_layout *l = &st->layout;
    if (l->index_in_cluster[st->rank] == 0) {
      MPI_Group all, group;
      if ((rc = PMPI_Comm_group(priv, &all)) != MPI_SUCCESS)
        return rc;
      rc = PMPI_Group_incl(all, l->nclusters, l->leaders, &group);
      PMPI_Group_free(&all);
      if (rc != MPI_SUCCESS)
        return rc;
      rc = PMPI_Comm_create_group(priv, group, TAG_LEADERS, &st->leader_comm);
      PMPI_Group_free(&group);
      if (rc != MPI_SUCCESS)
        return rc;
      PMPI_Comm_set_errhandler(st->leader_comm, MPI_ERRORS_RETURN);
    }
    st->have_leader_comm = 1;
  }
  *out = st->leader_comm;
  return MPI_SUCCESS;
}
