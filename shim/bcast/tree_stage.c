/* Staging buffers of the segmented tree broadcast (tree_stage.h). */
#include "tree_stage.h"

#include <pthread.h>
#include <stdlib.h>

#include "gridcoll.h" /* GC_FALLBACK */

struct cache {
  char *buf;
  size_t cap; /* identical on every rank of the communicator */
};

static int cache_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
  (void)comm, (void)keyval, (void)extra;
  struct cache *c = value;
  free(c->buf);
  free(c);
  return MPI_SUCCESS;
}

static int keyval = MPI_KEYVAL_INVALID;
static void create_keyval(void)
{
  PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, cache_delete, &keyval, NULL);
}

/* The cache of priv, made empty on first use; NULL if it could not be: this rank then
 * votes no whenever asked, and since an empty cache (cap 0) everywhere makes every
 * segmented call ask, the ranks still agree on when to agree. */
static struct cache *cache_get(MPI_Comm priv)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, create_keyval);
  struct cache *c = NULL;
  int found = 0;
  if (keyval == MPI_KEYVAL_INVALID)
    return NULL;
  if (PMPI_Comm_get_attr(priv, keyval, &c, &found) == MPI_SUCCESS && found)
    return c;
  if (!(c = calloc(1, sizeof *c)))
    gc_warn_oom("the segmented broadcast's staging cache; every rank runs this broadcast "
                "unsegmented");
  else if (PMPI_Comm_set_attr(priv, keyval, c) != MPI_SUCCESS) {
    free(c);
    c = NULL;
  }
  return c;
}

int gc_bcast_stage_get(MPI_Comm priv, size_t m, int need, struct gc_bcast_stage *stage)
{
  struct cache *c = cache_get(priv);
  stage->buf = stage->temp = NULL;
  if (c && m <= c->cap) { /* every rank holds cap bytes: nothing to agree on */
    stage->buf = c->buf;
    return MPI_SUCCESS;
  }
  /* m > cap on every rank (cap is the same everywhere, 0 where there is no cache). */
  int ok = c != NULL && need >= 0, grow = m <= GC_BCAST_STAGE_CACHE_MAX;
  if (ok && grow) {
    free(c->buf);
    c->cap = 0;
    ok = (c->buf = malloc(m)) != NULL;
  } else if (ok && need > 0) {
    ok = (stage->temp = malloc(m)) != NULL;
  }
  if (c && need >= 0 && !ok) /* said here; the vote makes the others follow silently */
    gc_warn_oom("a staging buffer of %zu bytes for a segmented broadcast; every rank runs "
                "it unsegmented", m);
  int rc = PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, priv);
  if (rc != MPI_SUCCESS || !ok) {
    if (c && grow) { /* an empty cache everywhere, still identical */
      free(c->buf);
      c->buf = NULL;
    }
    gc_bcast_stage_release(stage);
    return rc != MPI_SUCCESS ? rc : GC_FALLBACK;
  }
  if (grow) {
    c->cap = m;
    stage->buf = c->buf;
  } else {
    stage->buf = stage->temp;
  }
  return MPI_SUCCESS;
}

void gc_bcast_stage_release(struct gc_bcast_stage *stage)
{
  free(stage->temp);
  stage->buf = stage->temp = NULL;
}
