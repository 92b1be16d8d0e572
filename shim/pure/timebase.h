/* This process's clock, in seconds: a monotonic reference (CLOCK_MONOTONIC, or the
 * reader gc_timebase_use sets), read through the x86-64 time-stamp counter where that
 * is safe, else read directly. clock.h's gc_clock_now is how the library reads it;
 * clock.c sets the reference and measures the ranks' offsets with it.
 *
 * Why: a logged call reads the clock twice, and on one node through shared memory that
 * is a visible share of a 64 KiB broadcast (doc/benchmarks.md). The counter costs one
 * instruction and a multiply; the reference (the vDSO's clock_gettime, MPI_Wtime on top
 * of it) several times that.
 *
 * When: the processor says its counter is invariant (CPUID 0x80000007, EDX bit 8: one
 * rate in every power state, Intel SDM vol. 3 17.17.1, AMD APM vol. 2 "Invariant TSC")
 * and the kernel keeps its own clock on it (its current clocksource is "tsc": the kernel
 * checked at boot that the cores' counters agree and watches them since; under a
 * hypervisor that does not keep the counter steady it chooses another). Elsewhere, and
 * whenever the counter disagrees with the reference (below), the reference is read.
 *
 * How the counter becomes seconds: in segments, each `at + (counter - tick) * scale`,
 * re-anchored against the reference by the first read past its span (gc_timebase_anchor):
 *  - calibration: the first pair (counter, reference) at MPI_Init (gc_timebase_start),
 *    else at the first read; then the reference is read directly until a pair at least
 *    1 ms after the first, and late enough that the rate is known to 1e-4 from the two
 *    pairs' read errors (each pair is a counter read bracketed by two reference reads; the
 *    bracket, some 30 ns here, is its error);
 *  - then segments twice as long each time, up to GC_TIMEBASE_SPAN_MAX (100 ms), each at
 *    the rate measured over the last one, less the deviation from the reference found at
 *    its start spread over its length (a slew, as NTP corrects a clock): the clock stays
 *    continuous and monotonic and within a few brackets of the reference, also while the
 *    reference's own rate moves (NTP slews CLOCK_MONOTONIC by up to 500 ppm: 50 us per
 *    segment at most);
 *  - a deviation beyond GC_TIMEBASE_DEV_MAX (100 us) or a rate 1% from the calibrated one
 *    means the counter cannot be trusted: the reference from then on (one step back or
 *    forward by that deviation, once).
 * A read after an idle stretch (past twice its segment's span) takes the reference's
 * value again. So a duration is off by its length times the rate's error (at most 1e-4
 * in the first segments, about 1e-6 from 100 ms on: under a nanosecond for a call of up
 * to 10 us, and 1e-6 of a longer one), never by more than twice the deviation (a few
 * brackets); and two processes reading the same reference (ranks on one node) stay
 * within a few brackets of each other for the whole run, as the offsets clock.c measured
 * at MPI_Init assume. */
#ifndef GC_TIMEBASE_H
#define GC_TIMEBASE_H

#include <stdatomic.h>
#include <stdint.h>

#define GC_TIMEBASE_CALIBRATE 1e-3 /* s: the first pair's span, at least */
#define GC_TIMEBASE_RATE_ERR 1e-4  /* the calibrated rate's error, at most */
#define GC_TIMEBASE_SPAN_MAX 0.1   /* s: a segment's span, at most */
#define GC_TIMEBASE_DEV_MAX 100e-6 /* s: the deviation from the reference tolerated */
#define GC_TIMEBASE_DRIFT_MAX 0.01 /* a segment's rate against the calibrated one */

/* A stretch of the clock: from counter value `tick` on, at + (counter - tick) * scale
 * seconds, for `span` ticks. */
struct gc_timebase_seg {
  uint64_t tick, span;
  double at, scale;
};

/* The segment readers use: NULL while the counter is not in use. */
extern const struct gc_timebase_seg *_Atomic gc_timebase_cur;

/* Everything but the counter's fast case: the reference, calibration, re-anchoring. */
double gc_timebase_slow(void);

/* The clock, in seconds. No ordering around the counter read (rdtsc, not rdtscp or
 * lfence;rdtsc, each 2x its cost here): what it times are MPI calls of a microsecond or
 * more, whose end is a branch on data another core wrote, and an unordered read moves by
 * at most the processor's reorder window, tens of nanoseconds, below the calls' own spread.
 * The kernel's clock_gettime orders its read because it promises time consistent with
 * any event on any core; the log needs no such promise. */
static inline double gc_timebase_now(void)
{
#if defined(__x86_64__)
  const struct gc_timebase_seg *s = atomic_load_explicit(&gc_timebase_cur, memory_order_acquire);
  if (s) {
    uint64_t d = __builtin_ia32_rdtsc() - s->tick;
    if (d < s->span)
      return s->at + (double)(int64_t)d * s->scale;
  }
#endif
  return gc_timebase_slow();
}

/* The reference from now on: `reference` (NULL: CLOCK_MONOTONIC), read through the
 * counter where it is safe if `counter` is set. Before the first read, once: it starts
 * over (a time read before is not comparable with one read after). */
void gc_timebase_use(double (*reference)(void), int counter);

/* The calibration's first pair now (and whether the counter can be used: the processor's
 * and the kernel's word, checked once), so that it runs while the program does its own
 * work, and the first timed calls, a millisecond on, already read the counter. Else the
 * first read starts it. */
void gc_timebase_start(void);

/* What the reads use now: "TSC", "TSC (calibrating)", "CLOCK_MONOTONIC" or "reference"
 * (gc_timebase_use's), for a start-up message and the tests (it decides whether the
 * counter is used, if no read did yet). */
const char *gc_timebase_source(void);

/* The re-anchoring alone, pure arithmetic (gc_timebase_slow feeds it real reads under its
 * lock; the unit tests feed it synthetic ones). */
enum gc_timebase_state { GC_TIMEBASE_START, GC_TIMEBASE_CALIBRATING, GC_TIMEBASE_RUNNING,
                         GC_TIMEBASE_OFF };
struct gc_timebase_fit {
  enum gc_timebase_state state;
  uint64_t first_tick, last_tick; /* the calibration's first pair; the last anchor */
  double first_ref, first_bracket, last_ref, last_bracket;
  double min_bracket;             /* the tightest pair seen: what a good one is */
  double rate;                    /* s per tick, calibrated */
  struct gc_timebase_seg seg;     /* the current segment (RUNNING) */
};

/* One pair: the counter read `tick` between two reference reads `bracket` seconds apart,
 * `ref` their mean. Returns the clock's value at tick (the reference's, except while
 * RUNNING) and advances f: a new f->seg while RUNNING, or OFF. */
double gc_timebase_anchor(struct gc_timebase_fit *f, uint64_t tick, double ref, double bracket);

#endif
