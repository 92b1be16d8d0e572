/* Process-wide state of the interposition library and the helpers every wrapper uses.
 *
 * gridcoll is either active (configuration loaded, agreed by all ranks at MPI_Init) or
 * passing through; once decided at MPI_Init that never changes, so every rank takes the
 * same path for every call. */
#ifndef GC_GRIDCOLL_H
#define GC_GRIDCOLL_H

#include <mpi.h>
#include "config.h"

#define GC_EXPORT __attribute__((visibility("default")))

/* What the MPI library gridcoll is compiled against offers, for wrappers that exist
 * only there (wrap them in #if): MPICH 4 is MPI 4.0; Open MPI 4.1 and SimGrid SMPI are
 * MPI 3.1, without the large-count (_c) functions, MPI_Count-typed counts in them, or
 * the persistent collectives (MPI_Alltoall_init, MPI_Bcast_init). Nonblocking
 * collectives (MPI_Ialltoall, MPI_Ibcast) are MPI 3.0: every supported MPI has them. */
#if MPI_VERSION >= 4
#define GC_HAVE_MPI4 1
#else
#define GC_HAVE_MPI4 0
#endif

/* Returned by an algorithm's run() when it decided, before any traffic and identically
 * on every rank, that it cannot serve the call: dispatch then calls the MPI library. */
#define GC_FALLBACK (-1)

struct gc_global {
  int started;          /* gc_startup ran (once: later calls do nothing) */
  int active;           /* 1: intercept; 0: pass every call through */
  struct gc_config cfg; /* effective configuration (file + environment) */
  int world_rank, world_size;
  int *world_cluster;   /* [world_size] cluster id of each world rank */
  int thread_level;     /* as provided by MPI_Init_thread */
};

extern struct gc_global gc_g;

/* Start-up and shut-down, the one body behind every way MPI starts and stops: the C
 * wrappers (init.c), MPICH's mpi_f08 bindings (init_f08.c), Open MPI's Fortran names
 * (fortran.c). gc_startup runs once MPI is up, at the thread level MPI provided; both
 * enter the re-entry guard themselves, and do nothing where they cannot (a callback of
 * gridcoll's own), as gc_startup does once gridcoll has started. */
void gc_startup(int thread_level);
void gc_shutdown(void);

/* The other MPI (foreign.c): 1 when this process holds the MPI library gridcoll was not
 * built for (then every MPI entry point already jumps straight to it, and one warning
 * said so); gc_other_mpi_function gives that library's function NAME, or NULL. */
int gc_other_mpi_check(void);
void *gc_other_mpi_function(const char *name);

/* Thread-local storage on the per-call path. The preloaded library (the pic/ build,
 * -DGC_TLS_INITIAL_EXEC) is loaded with the program, so its few bytes of thread-locals
 * can live in the static TLS block: one %fs-relative load, where the default model of
 * a shared object calls __tls_get_addr (about 10 instructions) at each access. Under
 * SMPI the program is dlopen()ed once per simulated rank, where static TLS would run
 * out: the default model there. */
#ifdef GC_TLS_INITIAL_EXEC
#define GC_TLS _Thread_local __attribute__((tls_model("initial-exec")))
#else
#define GC_TLS _Thread_local
#endif

/* Per-thread re-entry guard: calls made by gridcoll itself are never intercepted. A
 * callback (an attribute delete function, a user error handler) might call MPI_ names
 * from inside; the guard makes such calls pass straight through. Per thread, because
 * under MPI_THREAD_MULTIPLE two threads may be inside gridcoll on different
 * communicators. Inline: every intercepted call enters and leaves it. */
extern GC_TLS int gc_guard_inside __attribute__((visibility("hidden")));

/* 1 if entered, 0 if this thread is already inside gridcoll. */
static inline int gc_guard_enter(void)
{
  if (gc_guard_inside)
    return 0;
  gc_guard_inside = 1;
  return 1;
}

static inline void gc_guard_leave(void)
{
  gc_guard_inside = 0;
}

/* Messages on stderr, prefixed "gridcoll:", by the verbosity rule of msg.c. gc_warn
 * prints from world rank 0 only (every rank takes the same path, so rank 0 speaks for
 * all); gc_warn_any from any rank (for a problem only that rank can see); gc_debug at
 * verbose >= level; gc_say always, for the reason of an abort alone.
 * gc_warn_oom: memory ran out on this rank (an allocation failed, or fdopen said ENOMEM):
 * "out of memory on rank R: " then what gridcoll did instead (passed the call through,
 * fell back with every rank, lost a summary row...). Every such site says it through
 * here, and only the first in the process is printed (verbose >= 1), from this rank. */
void gc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gc_warn_any(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gc_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gc_debug(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gc_warn_oom(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* 1 when gridcoll acts on calls: started and active (MPI_Init to MPI_Finalize, unless
 * start-up chose to pass everything through). Re-entry is the caller's to test
 * (gc_guard_enter). */
static inline int gc_is_active(void)
{
  return gc_g.active;
}

#endif
