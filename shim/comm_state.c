/* The per-communicator cache: a keyval attribute whose delete callback frees our state
 * (and the sub-communicators we made) when the application frees the communicator.
 * The copy callback is the null one: a duplicate builds its own state on first use. */
#include <stdatomic.h>
#include <stdlib.h>

#include "comm_state.h"
#include "gridcoll.h"

static int keyval = MPI_KEYVAL_INVALID;
static atomic_uint next_id; /* per process; combined with the world rank of comm rank 0 */

static void free_comm(MPI_Comm *c)
{
  if (*c != MPI_COMM_NULL)
    PMPI_Comm_free(c);
}

static int delete_state(MPI_Comm comm, int kv, void *value, void *extra)
{
  (void)comm, (void)kv, (void)extra;
  struct gc_comm_state *st = value;
  int entered = gc_guard_enter();
  for (int op = 0; op < GC_OP_LAST; op++)
    if (st->op[op].data && st->op[op].free_data)
      st->op[op].free_data(st, st->op[op].data);
  free_comm(&st->leader_comm);
  free_comm(&st->cluster_comm);
  free_comm(&st->private_comm);
  gc_network_free(&st->network);
  gc_layout_free(&st->layout);
  free(st);
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

/* Layout from the world cluster table: no communication, identical on all members. */
static struct gc_comm_state *build_state(MPI_Comm comm)
{
  struct gc_comm_state *st = calloc(1, sizeof *st);
  if (!st)
    return NULL;
  st->comm = comm;
  st->private_comm = st->cluster_comm = st->leader_comm = MPI_COMM_NULL;
  PMPI_Comm_rank(comm, &st->rank);
  PMPI_Comm_size(comm, &st->size);

  MPI_Group group, world;
  int *ranks = malloc(sizeof(int) * (size_t)st->size);
  int *world_ranks = malloc(sizeof(int) * (size_t)st->size);
  int ok = ranks && world_ranks;
  if (ok) {
    for (int i = 0; i < st->size; i++)
      ranks[i] = i;
    PMPI_Comm_group(comm, &group);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    PMPI_Group_translate_ranks(group, st->size, ranks, world, world_ranks);
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    for (int i = 0; i < st->size; i++) {
      /* A rank outside MPI_COMM_WORLD (spawned processes) has no known cluster. */
      if (world_ranks[i] == MPI_UNDEFINED)
        ok = 0;
      else
        ranks[i] = gc_g.world_cluster[world_ranks[i]];
    }
  }
  ok = ok && gc_layout_build(&st->layout, st->size, ranks) == 0;
  free(ranks);
  free(world_ranks);
  if (ok && gc_network_build(&st->network, &gc_g.cfg, &st->layout) != 0) {
    gc_layout_free(&st->layout);
    ok = 0;
  }
  if (!ok) {
    free(st);
    return NULL;
  }
  return st;
}

struct gc_comm_state *gc_comm_state_get(MPI_Comm comm)
{
  if (comm == MPI_COMM_NULL || keyval == MPI_KEYVAL_INVALID)
    return NULL;
  /* The attribute first: on the per-call path that is the only MPI call. It is set on
   * intracommunicators only (tested below, before building), so a hit needs no test. */
  struct gc_comm_state *st = NULL;
  int found = 0, inter = 0;
  if (PMPI_Comm_get_attr(comm, keyval, &st, &found) != MPI_SUCCESS)
    return NULL;
  if (found)
    return st;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
    return NULL;
  /* Not found on this rank means not found on any member: the state is created at the
   * first intercepted call, which every member makes. If the layout cannot be built
   * here (out of memory) it may be built elsewhere, but nothing collective happens in
   * build_state, and a NULL state only means this call passes through. */
  st = build_state(comm);
  if (st && PMPI_Comm_set_attr(comm, keyval, st) != MPI_SUCCESS) {
    gc_network_free(&st->network);
    gc_layout_free(&st->layout);
    free(st);
    st = NULL;
  }
  return st;
}

int gc_comm_private(struct gc_comm_state *st, MPI_Comm *out)
{
  if (st->private_comm == MPI_COMM_NULL) {
    int rc = PMPI_Comm_dup(st->comm, &st->private_comm);
    if (rc != MPI_SUCCESS)
      return rc;
    /* Internal errors come back to us as codes; the application's handler stays its own. */
    PMPI_Comm_set_errhandler(st->private_comm, MPI_ERRORS_RETURN);
    unsigned long long id = ((unsigned long long)gc_g.world_rank << 32) |
                            (atomic_fetch_add(&next_id, 1) + 1u);
    rc = PMPI_Bcast(&id, 1, MPI_UNSIGNED_LONG_LONG, 0, st->private_comm);
    if (rc != MPI_SUCCESS)
      return rc;
    st->id = id;
  }
  *out = st->private_comm;
  return MPI_SUCCESS;
}

int gc_comm_cluster(struct gc_comm_state *st, MPI_Comm *out)
{
  if (st->cluster_comm == MPI_COMM_NULL) {
    MPI_Comm priv;
    int rc = gc_comm_private(st, &priv);
    if (rc != MPI_SUCCESS)
      return rc;
    /* Key = communicator rank: members keep ascending order, so the cluster rank of a
     * process is its layout index_in_cluster. */
    rc = PMPI_Comm_split(priv, st->layout.cluster_of[st->rank], st->rank, &st->cluster_comm);
    if (rc != MPI_SUCCESS)
      return rc;
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
    int leader = st->layout.index_in_cluster[st->rank] == 0;
    rc = PMPI_Comm_split(priv, leader ? 0 : MPI_UNDEFINED, st->rank, &st->leader_comm);
    if (rc != MPI_SUCCESS)
      return rc;
    st->have_leader_comm = 1;
  }
  *out = st->leader_comm;
  return MPI_SUCCESS;
}
