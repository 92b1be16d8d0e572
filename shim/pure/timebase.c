/* This process's clock (timebase.h): the re-anchoring arithmetic, then the reads. */
#include "timebase.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

/* Counter rates a processor may have: outside them the calibration read nonsense. */
#define MIN_HZ 10e6
#define MAX_HZ 50e9

static void calibrate_from(struct gc_timebase_fit *f, uint64_t tick, double ref, double bracket)
{
  f->state = GC_TIMEBASE_CALIBRATING;
  f->first_tick = f->last_tick = tick;
  f->first_ref = f->last_ref = ref;
  f->first_bracket = f->last_bracket = bracket;
}

/* The next segment's span: as long as the time since the calibration began (so each about
 * doubles the last), at most GC_TIMEBASE_SPAN_MAX. */
static uint64_t span_at(const struct gc_timebase_fit *f, uint64_t tick, double rate)
{
  uint64_t since = tick - f->first_tick, most = (uint64_t)(GC_TIMEBASE_SPAN_MAX / rate);
  return since < most ? since : most;
}

static double running(struct gc_timebase_fit *f, uint64_t tick, double ref, double bracket)
{
  const struct gc_timebase_seg *s = &f->seg;
  uint64_t d = tick - s->tick;
  double our = s->at + (double)(int64_t)d * s->scale;
  /* Not past this segment (another thread re-anchored first), or a pair the scheduler
   * interrupted between its reads: the segment goes on, the next read tries again. */
  if ((int64_t)d < 0 || d < s->span || bracket > 4 * f->min_bracket + 100e-9)
    return our;
  if (d > 2 * s->span) /* idle since the span ended: nothing read to keep continuous */
    our = ref;
  double dev = our - ref, rate = (ref - f->last_ref) / (double)(tick - f->last_tick);
  if (fabs(dev) > GC_TIMEBASE_DEV_MAX + bracket || !(fabs(rate / f->rate - 1) <= GC_TIMEBASE_DRIFT_MAX)) {
    f->state = GC_TIMEBASE_OFF;
    return ref;
  }
  uint64_t span = span_at(f, tick, rate);
  double scale = rate - dev / (double)span;
  if (scale < rate / 2) /* never: dev is at most 100 us and a span 1 ms or more */
    scale = rate / 2;
  f->seg = (struct gc_timebase_seg){.tick = tick, .span = span, .at = our, .scale = scale};
  f->last_tick = tick, f->last_ref = ref, f->last_bracket = bracket;
  return our;
}

double gc_timebase_anchor(struct gc_timebase_fit *f, uint64_t tick, double ref, double bracket)
{
  if (f->state == GC_TIMEBASE_START || bracket < f->min_bracket)
    f->min_bracket = bracket;
  switch (f->state) {
  case GC_TIMEBASE_START:
    calibrate_from(f, tick, ref, bracket);
    return ref;
  case GC_TIMEBASE_CALIBRATING: {
    double elapsed = ref - f->first_ref;
    if (tick <= f->first_tick || elapsed <= 0) {
      f->state = GC_TIMEBASE_OFF; /* the counter stood still or went back */
      return ref;
    }
    /* A first pair the scheduler interrupted would hold the rate back: start again from
     * this tighter one. */
    if (2 * bracket < f->first_bracket) {
      calibrate_from(f, tick, ref, bracket);
      return ref;
    }
    if (elapsed < GC_TIMEBASE_CALIBRATE ||
        f->first_bracket + bracket > GC_TIMEBASE_RATE_ERR * elapsed)
      return ref;
    double rate = elapsed / (double)(tick - f->first_tick);
    if (!(rate >= 1 / MAX_HZ && rate <= 1 / MIN_HZ)) {
      f->state = GC_TIMEBASE_OFF;
      return ref;
    }
    f->rate = rate;
    f->seg = (struct gc_timebase_seg){.tick = tick, .span = span_at(f, tick, rate), .at = ref,
                                      .scale = rate};
    f->last_tick = tick, f->last_ref = ref, f->last_bracket = bracket;
    f->state = GC_TIMEBASE_RUNNING;
    return ref;
  }
  case GC_TIMEBASE_RUNNING:
    return running(f, tick, ref, bracket);
  case GC_TIMEBASE_OFF:
    break;
  }
  return ref;
}

/* --- the reads ------------------------------------------------------------------ */

static double monotonic(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Readers load gc_timebase_cur and then the segment's four fields; a slot is written
 * again 64 re-anchors later (6 s at least, at one per 100 ms), so a reader would have to
 * stall between two loads that long to mix two segments' fields (one wrong time, for a
 * call that stalled seconds). Writers hold `lock`. */
#define RING 64
const struct gc_timebase_seg *_Atomic gc_timebase_cur;
static struct gc_timebase_seg ring[RING];
static unsigned ring_next;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct gc_timebase_fit fit;
static double (*reference)(void) = monotonic;
static int counter_wanted = 1, decided;
static atomic_int direct; /* every read is the reference's, no lock */

#if defined(__x86_64__)
/* The processor's invariant-counter bit and the kernel's clocksource (timebase.h). */
static int counter_trusted(void)
{
  unsigned a, b, c, d;
  if (__get_cpuid_max(0x80000000, NULL) < 0x80000007)
    return 0;
  __cpuid(0x80000007, a, b, c, d);
  (void)a, (void)b, (void)c;
  if (!(d & 1u << 8))
    return 0;
  char text[16];
  int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY);
  if (fd < 0)
    return 0;
  ssize_t n = read(fd, text, sizeof text);
  close(fd);
  return n == 4 && memcmp(text, "tsc\n", 4) == 0;
}
#endif

/* Under the lock: whether the counter is used, checked once. */
static void decide(void)
{
  if (decided)
    return;
  decided = 1;
#if defined(__x86_64__)
  if (counter_wanted && counter_trusted())
    return;
#endif
  atomic_store_explicit(&direct, 1, memory_order_relaxed);
}

/* Under the lock: one pair into the fit, its value returned. */
static double anchor_now(void)
{
  double r0 = reference();
#if defined(__x86_64__)
  uint64_t tick = __builtin_ia32_rdtsc();
#else
  uint64_t tick = 0;
#endif
  double r1 = reference();
  return gc_timebase_anchor(&fit, tick, (r0 + r1) / 2, r1 - r0);
}

void gc_timebase_start(void)
{
  pthread_mutex_lock(&lock);
  decide();
  if (!atomic_load_explicit(&direct, memory_order_relaxed) && fit.state == GC_TIMEBASE_START)
    anchor_now();
  pthread_mutex_unlock(&lock);
}

double gc_timebase_slow(void)
{
#if defined(__x86_64__)
  if (atomic_load_explicit(&direct, memory_order_relaxed))
    return reference();
  pthread_mutex_lock(&lock);
  decide();
  if (atomic_load_explicit(&direct, memory_order_relaxed)) {
    pthread_mutex_unlock(&lock);
    return reference();
  }
  double v = anchor_now();
  const struct gc_timebase_seg *s = atomic_load_explicit(&gc_timebase_cur, memory_order_relaxed);
  if (fit.state == GC_TIMEBASE_RUNNING && (!s || s->tick != fit.seg.tick)) {
    struct gc_timebase_seg *next = &ring[ring_next++ % RING];
    *next = fit.seg;
    atomic_store_explicit(&gc_timebase_cur, next, memory_order_release);
  } else if (fit.state == GC_TIMEBASE_OFF) {
    atomic_store_explicit(&gc_timebase_cur, NULL, memory_order_release);
    atomic_store_explicit(&direct, 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&lock);
  return v;
#else
  return reference();
#endif
}

void gc_timebase_use(double (*ref)(void), int counter)
{
  pthread_mutex_lock(&lock);
  reference = ref ? ref : monotonic;
  counter_wanted = counter;
  decided = 0;
  memset(&fit, 0, sizeof fit);
  atomic_store_explicit(&gc_timebase_cur, NULL, memory_order_release);
  atomic_store_explicit(&direct, 0, memory_order_relaxed);
  pthread_mutex_unlock(&lock);
}

const char *gc_timebase_source(void)
{
  pthread_mutex_lock(&lock);
  decide();
  const char *what = reference == monotonic ? "CLOCK_MONOTONIC" : "reference";
  if (!atomic_load_explicit(&direct, memory_order_relaxed))
    what = fit.state == GC_TIMEBASE_RUNNING ? "TSC" : "TSC (calibrating)";
  pthread_mutex_unlock(&lock);
  return what;
}
