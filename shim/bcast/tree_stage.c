/* Staging buffers of the segmented tree broadcast (tree_stage.h). */
#include "tree_stage.h"

#include <stdlib.h>

#include "gridcoll.h" /* GC_FALLBACK */

void gc_bcast_stage_cache_free(struct gc_bcast_stage_cache *c)
{
  free(c->buf);
  c->buf = NULL;
  c->cap = 0;
}

int gc_bcast_stage_get(MPI_Comm priv, struct gc_bcast_stage_cache *c, size_t m, int need,
                       struct gc_bcast_stage *stage)
{
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
