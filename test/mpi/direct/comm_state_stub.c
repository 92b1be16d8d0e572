/* The lazily created communicators of comm_state.h, with PMPI calls only, as the real
 * cache does: a private duplicate, and the cluster split keyed by rank so its ranks are
 * the members' index_in_cluster. */
#include "comm_state_stub.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gridcoll.h"

/* The shim's verbose messages (msg.c), silent here. */
void gc_debug(int level, const char *fmt, ...)
{
  (void)level, (void)fmt;
}

/* The shim's out-of-memory warning (output.c): on stderr, as the library says it. */
void gc_warn_oom(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  fputs("gridcoll: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int gc_test_state_init(struct gc_comm_state *st, MPI_Comm comm, const int *cluster_of_rank)
{
  memset(st, 0, sizeof *st);
  st->comm = comm;
  st->private_comm = st->cluster_comm = st->leader_comm = MPI_COMM_NULL;
  int rc = PMPI_Comm_rank(comm, &st->rank);
  if (rc == MPI_SUCCESS)
    rc = PMPI_Comm_size(comm, &st->size);
  if (rc == MPI_SUCCESS && gc_layout_build(&st->layout, st->size, cluster_of_rank) != 0)
    rc = MPI_ERR_NO_MEM;
  return rc;
}

void gc_test_state_free(struct gc_comm_state *st)
{
  for (int op = 0; op < GC_OP_LAST; op++) /* what the algorithms kept (LG's context, trees) */
    if (st->op[op].data)
      st->op[op].free_data(st, st->op[op].data);
  if (st->cluster_comm != MPI_COMM_NULL)
    PMPI_Comm_free(&st->cluster_comm);
  if (st->private_comm != MPI_COMM_NULL)
    PMPI_Comm_free(&st->private_comm);
  gc_layout_free(&st->layout);
  gc_network_free(&st->network); /* set by a harness that predicts (bcast_direct.c) */
}

int gc_comm_private(struct gc_comm_state *st, MPI_Comm *out)
{
  int rc = MPI_SUCCESS;
  if (st->private_comm == MPI_COMM_NULL)
    rc = PMPI_Comm_dup(st->comm, &st->private_comm);
  *out = st->private_comm;
  return rc;
}

int gc_comm_cluster(struct gc_comm_state *st, MPI_Comm *out)
{
  int rc = MPI_SUCCESS;
  MPI_Comm priv;
  if (st->cluster_comm == MPI_COMM_NULL && (rc = gc_comm_private(st, &priv)) == MPI_SUCCESS)
    rc = PMPI_Comm_split(priv, st->layout.cluster_of[st->rank], st->rank, &st->cluster_comm);
  *out = st->cluster_comm;
  return rc;
}
