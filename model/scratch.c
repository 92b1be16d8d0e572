/* The models' working memory (scratch.h): one block, taken from and given back in stack
 * order. */
#include "scratch.h"

#include <stdint.h>
#include <stdlib.h>

/* Under AddressSanitizer (make check-asan) the part of the block nobody holds is poisoned,
 * and a take unpoisons exactly the bytes asked for: a model that runs past its arrays
 * is caught as it would be with malloc, although they share one block. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

size_t gc_scratch_add(size_t a, size_t b)
{
  return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

size_t gc_scratch_cost(size_t count, size_t elem)
{
  if (elem != 0 && count > (SIZE_MAX - GC_SCRATCH_ALIGN) / elem)
    return SIZE_MAX;
  size_t bytes = count * elem;
  return (bytes + GC_SCRATCH_ALIGN - 1) / GC_SCRATCH_ALIGN * GC_SCRATCH_ALIGN;
}

void *gc_scratch_take(struct gc_scratch *s, size_t count, size_t elem)
{
  size_t cost = gc_scratch_cost(count, elem);
  if (!s || !s->base || cost > s->size - s->used)
    return NULL;
  void *p = s->base + s->used;
  s->used += cost;
  if (s->used > s->peak)
    s->peak = s->used;
  UNPOISON(p, count * elem);
  return p;
}

void gc_scratch_release(struct gc_scratch *s, size_t mark)
{
  if (!s || mark > s->used)
    return;
  POISON(s->base + mark, s->used - mark);
  s->used = mark;
}

int gc_scratch_init(struct gc_scratch *s, size_t bytes)
{
  *s = (struct gc_scratch){0};
  /* malloc's alignment is at least GC_SCRATCH_ALIGN for every type the models take. */
  if (bytes == SIZE_MAX || !(s->base = malloc(bytes ? bytes : 1)))
    return -1;
  s->size = bytes;
  POISON(s->base, bytes);
  return 0;
}

void gc_scratch_free(struct gc_scratch *s)
{
  if (s->base)
    UNPOISON(s->base, s->size);
  free(s->base);
  *s = (struct gc_scratch){0};
}
