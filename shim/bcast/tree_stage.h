/* Staging buffers of the segmented tree broadcast, and the agreement that keeps their
 * allocation from desynchronizing the ranks.
 *
 * Segments are cut in bytes of the packed message (segment_schedule.h). A leader whose
 * datatype is not raw (datatype.h: its elements are not their own packed form) packs the
 * message into a staging buffer of m bytes, or receives it there and unpacks it. Whether
 * a rank needs one depends on its own datatype, which the other ranks do not know, and a
 * leader that failed to allocate once the others had started sending would hang them. So:
 *   - every rank keeps, in the broadcast's state of the communicator (bcast.h), a buffer
 *     whose size `cap` is identical on all ranks: it only grows when every rank agreed it
 *     had grown;
 *   - a segmented call of m <= cap bytes uses it without talking to anyone;
 *   - a call of m > cap bytes agrees first (one PMPI_Allreduce on the private duplicate):
 *     up to GC_BCAST_STAGE_CACHE_MAX every rank grows its buffer to m, needed or not, so
 *     the next calls need no agreement; above it, only the ranks that need one allocate
 *     it for this call alone. If any rank failed, every rank knows it before any message
 *     of the broadcast moves, and all run the call as one segment of the user's own
 *     (count, datatype), which needs no staging.
 * Only PMPI is called. */
#ifndef GC_BCAST_TREE_STAGE_H
#define GC_BCAST_TREE_STAGE_H

#include <mpi.h>
#include <stddef.h>

/* The largest buffer kept with a communicator (per rank). */
#define GC_BCAST_STAGE_CACHE_MAX ((size_t)16 << 20)

/* The buffer kept with a communicator: its cap is the same on every rank. All zero: none
 * yet. */
struct gc_bcast_stage_cache {
  char *buf;
  size_t cap;
};

struct gc_bcast_stage {
  char *buf;  /* m bytes when this rank needs them (else maybe NULL) */
  char *temp; /* this call's own allocation, to release with gc_bcast_stage_release */
};

/* Collective over priv (every member of the communicator, before any traffic of the
 * call): a staging buffer of m > 0 bytes for this rank if need is 1, from cache (the
 * communicator's) or for this call; need 0: none; need -1: this rank cannot take part in
 * a segmented call (votes no when asked; only possible when m exceeds the cache, so it
 * is always asked). MPI_SUCCESS (stage set), GC_FALLBACK (agreed on every rank: no
 * segmentation for this call) or a PMPI error. */
int gc_bcast_stage_get(MPI_Comm priv, struct gc_bcast_stage_cache *cache, size_t m, int need,
                       struct gc_bcast_stage *stage);
void gc_bcast_stage_release(struct gc_bcast_stage *stage);
/* The cache's buffer freed (with the communicator's state). */
void gc_bcast_stage_cache_free(struct gc_bcast_stage_cache *cache);

#endif
