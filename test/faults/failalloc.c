/* Fault injection for gridcoll's own allocations: preloaded before libgridcoll.so, it
 * counts the allocations whose caller is inside that library on one world rank, and can
 * make exactly one of them fail ("the N-th allocation fails, then everything succeeds
 * again"). test/faults/run.sh drives it; doc/testing.md says how to use it by hand.
 *
 * Environment (read once, at load):
 *   FAILALLOC_RANK  world rank that counts and fails (default 1). The rank is the
 *                   launcher's, read without MPI: PMI_RANK (MPICH's hydra),
 *                   OMPI_COMM_WORLD_RANK (Open MPI), PMIX_RANK; a process with none of
 *                   them is rank 0 (a singleton).
 *   FAILALLOC_N     1-based number of the counted call that fails (returns NULL with
 *                   errno ENOMEM); unset or 0: none fails, count only.
 *   FAILALLOC_OUT   file the counting rank appends one line to per counted call:
 *                   "N FUNCTION BYTES ok|FAIL LIB+0xOFFSET..." (the frames of the call
 *                   chain inside the watched libraries, innermost first; addr2line -f -i
 *                   -e LIB OFFSET-1 names each). Written with write(2) as it happens, so a
 *                   run that hangs or aborts still shows how far it got.
 *   FAILALLOC_LIBS  comma-separated substrings of the shared objects whose calls count
 *                   (default "libgridcoll"; "libgridcoll,libconfig" adds libconfig's
 *                   allocations, which gridcoll makes through config_read_string).
 *
 * "Caller inside the library": the return address of the allocating call
 * (__builtin_return_address(0)) lies in one of the PT_LOAD segments of a watched object
 * (dl_iterate_phdr). gridcoll calls malloc through its PLT, so the return address is the
 * instruction after that call in gridcoll's own code; a tail call (`return malloc(n)`)
 * returns into gridcoll's caller of that function, which is gridcoll too unless the
 * function is an entry point the application called.
 *
 * The real allocator is glibc's __libc_malloc and friends, reached without dlsym (which
 * itself allocates); strdup and strndup are written here over it, since other libraries'
 * constructors call them before this one has run; fdopen is looked up with
 * dlsym(RTLD_NEXT) at load. Anything the injector does for itself (backtrace, dlsym) is made under a
 * per-thread guard and never counted. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);

#define EXPORT __attribute__((visibility("default")))

enum { MAX_RANGES = 32, MAX_FRAMES = 24, SHOWN_FRAMES = 8 };

struct range {
  unsigned long lo, hi, base; /* [lo, hi) mapped; base: the object's load bias */
  const char *name;           /* its path, as the dynamic linker holds it */
};

static struct range ranges[MAX_RANGES];
static int nranges;
static int active;       /* this process is the counting rank */
static long fail_at;     /* 0: count only */
static long counted;     /* counted calls so far (atomic) */
static int out_fd = -1;  /* FAILALLOC_OUT, or -1 */
static FILE *(*real_fdopen)(int, const char *);
static _Thread_local int busy __attribute__((tls_model("initial-exec")));

static int watched_name(const char *name, const char *libs)
{
  const char *p = libs;
  while (*p) {
    size_t len = strcspn(p, ",");
    if (len > 0) {
      char want[128];
      if (len >= sizeof want)
        len = sizeof want - 1;
      memcpy(want, p, len), want[len] = '\0';
      if (strstr(name, want))
        return 1;
    }
    p += len + (p[len] == ',');
  }
  return 0;
}

static int add_object(struct dl_phdr_info *info, size_t size, void *libs)
{
  (void)size;
  if (!info->dlpi_name || !*info->dlpi_name || !watched_name(info->dlpi_name, libs))
    return 0;
  for (int i = 0; i < info->dlpi_phnum && nranges < MAX_RANGES; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    unsigned long lo = info->dlpi_addr + ph->p_vaddr;
    ranges[nranges++] = (struct range){lo, lo + ph->p_memsz, info->dlpi_addr, info->dlpi_name};
  }
  return 0;
}

static const struct range *range_of(unsigned long a)
{
  for (int i = 0; i < nranges; i++)
    if (a >= ranges[i].lo && a < ranges[i].hi)
      return &ranges[i];
  return NULL;
}

static long env_long(const char *name, long dflt)
{
  const char *v = getenv(name);
  return v && *v ? strtol(v, NULL, 10) : dflt;
}

/* Priority 101: before any other constructor of the process that could allocate through
 * gridcoll (none does today; the ranges are filled here once, the objects all mapped). */
__attribute__((constructor(101))) static void failalloc_init(void)
{
  busy = 1;
  const char *rank = getenv("PMI_RANK");
  if (!rank)
    rank = getenv("OMPI_COMM_WORLD_RANK");
  if (!rank)
    rank = getenv("PMIX_RANK");
  long me = rank ? strtol(rank, NULL, 10) : 0;
  active = me == env_long("FAILALLOC_RANK", 1);
  fail_at = env_long("FAILALLOC_N", 0);
  real_fdopen = (FILE * (*)(int, const char *)) dlsym(RTLD_NEXT, "fdopen");
  const char *libs = getenv("FAILALLOC_LIBS");
  dl_iterate_phdr(add_object, (void *)(libs && *libs ? libs : "libgridcoll"));
  const char *out = getenv("FAILALLOC_OUT");
  if (active && out && *out) {
    out_fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    void *warm[2];
    backtrace(warm, 2); /* the first call loads libgcc_s (allocating): done here, once */
  }
  busy = 0;
}

/* The calls of the chain inside the watched objects, innermost first, as LIB+0xOFFSET. */
static void record(long n, const char *fn, size_t bytes, int failed)
{
  if (out_fd < 0)
    return;
  char line[1024];
  int len = snprintf(line, sizeof line, "%ld %s %zu %s", n, fn, bytes, failed ? "FAIL" : "ok");
  void *frames[MAX_FRAMES];
  int depth = backtrace(frames, MAX_FRAMES), shown = 0;
  for (int i = 0; i < depth && shown < SHOWN_FRAMES && len < (int)sizeof line - 128; i++) {
    const struct range *r = range_of((unsigned long)frames[i]);
    if (!r)
      continue;
    const char *base = strrchr(r->name, '/');
    len += snprintf(line + len, sizeof line - (size_t)len, " %s+0x%lx", base ? base + 1 : r->name,
                    (unsigned long)frames[i] - r->base);
    shown++;
  }
  line[len++] = '\n';
  ssize_t w = write(out_fd, line, (size_t)len);
  (void)w;
}

/* Whether this call, made from caller, fails; counts it when it is gridcoll's. */
static int should_fail(void *caller, const char *fn, size_t bytes)
{
  if (!active || busy || !range_of((unsigned long)caller))
    return 0;
  busy = 1;
  long n = __atomic_add_fetch(&counted, 1, __ATOMIC_SEQ_CST);
  int fail = n == fail_at;
  record(n, fn, bytes, fail);
  busy = 0;
  return fail;
}

static void *refuse(void)
{
  errno = ENOMEM;
  return NULL;
}

EXPORT void *malloc(size_t size)
{
  return should_fail(__builtin_return_address(0), "malloc", size) ? refuse() : __libc_malloc(size);
}

EXPORT void *calloc(size_t n, size_t size)
{
  return should_fail(__builtin_return_address(0), "calloc", n * size) ? refuse()
                                                                       : __libc_calloc(n, size);
}

EXPORT void *realloc(void *p, size_t size)
{
  return should_fail(__builtin_return_address(0), "realloc", size) ? refuse()
                                                                    : __libc_realloc(p, size);
}

EXPORT int posix_memalign(void **p, size_t align, size_t size)
{
  if (should_fail(__builtin_return_address(0), "posix_memalign", size))
    return ENOMEM;
  if (align < sizeof(void *) || (align & (align - 1)))
    return EINVAL;
  void *q = __libc_memalign(align, size);
  if (!q)
    return ENOMEM;
  *p = q;
  return 0;
}

EXPORT void *aligned_alloc(size_t align, size_t size)
{
  return should_fail(__builtin_return_address(0), "aligned_alloc", size)
             ? refuse()
             : __libc_memalign(align, size);
}

EXPORT void *memalign(size_t align, size_t size)
{
  return should_fail(__builtin_return_address(0), "memalign", size) ? refuse()
                                                                     : __libc_memalign(align, size);
}

/* The FILE it makes is allocated inside libc, out of sight of the caller test above. */
EXPORT FILE *fdopen(int fd, const char *mode)
{
  if (should_fail(__builtin_return_address(0), "fdopen", sizeof(FILE)))
    return refuse();
  return real_fdopen ? real_fdopen(fd, mode) : refuse();
}

static char *copy(const char *s, size_t n)
{
  char *d = __libc_malloc(n + 1);
  if (!d)
    return refuse();
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

EXPORT char *strdup(const char *s)
{
  size_t n = strlen(s);
  return should_fail(__builtin_return_address(0), "strdup", n + 1) ? refuse() : copy(s, n);
}

EXPORT char *strndup(const char *s, size_t max)
{
  size_t n = strnlen(s, max);
  return should_fail(__builtin_return_address(0), "strndup", n + 1) ? refuse() : copy(s, n);
}
