/* This process's clock (shim/pure/timebase.c): the re-anchoring against synthetic clocks
 * (a counter at 2.6 GHz, a reference with read noise, slewed, a counter that changes
 * rate, idle stretches), then the real reads: monotonic, and agreeing with
 * CLOCK_MONOTONIC over a sleep, through the counter where this machine allows it and with
 * the counter forced off. Correctness of the conversion, not a timing of its cost. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <fcntl.h>
#include <unistd.h>
#endif

#include "timebase.h"

/* --- synthetic clocks --------------------------------------------------------- */

#define HZ 2.6e9
#define BRACKET 40e-9 /* a pair's two reference reads, as here (clock_gettime ~26 ns) */

/* A model: the counter's and the reference's values at true time t. */
struct model {
  double (*counter)(double t); /* ticks */
  double (*reference)(double t); /* seconds */
};

struct sim {
  struct gc_timebase_fit f;
  struct model m;
  uint64_t seed;
  double worst;   /* largest |clock - reference| once calibrated (and not OFF) */
  double last;    /* the last value read: monotonic */
  int backwards;  /* reads that went back */
};

/* Uniform in [0, 1), reproducible. */
static double uniform(struct sim *s)
{
  s->seed = s->seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(s->seed >> 11) / 9007199254740992.0;
}

/* One read at true time t, as gc_timebase_now makes it: the segment's, else a pair (the
 * counter read between two reference reads BRACKET apart, one pair in 500 interrupted for
 * 50 us). Returns the time after it. */
static double sim_read(struct sim *s, double t)
{
  double v;
  uint64_t tick = (uint64_t)s->m.counter(t);
  const struct gc_timebase_seg *g = &s->f.seg;
  if (s->f.state == GC_TIMEBASE_RUNNING && tick - g->tick < g->span) {
    v = g->at + (double)(int64_t)(tick - g->tick) * g->scale;
  } else {
    double bracket = uniform(s) > 0.998 ? 50e-6 : BRACKET, before = uniform(s) * bracket;
    double r0 = s->m.reference(t - before), r1 = s->m.reference(t - before + bracket);
    v = gc_timebase_anchor(&s->f, tick, (r0 + r1) / 2, r1 - r0);
    t += bracket - before;
  }
  if (v < s->last)
    s->backwards++;
  s->last = v;
  double off = fabs(v - s->m.reference(t));
  if (s->f.state == GC_TIMEBASE_RUNNING && off > s->worst)
    s->worst = off;
  return t;
}

/* Reads every 5 us from `from` to `to`. */
static void sim_run(struct sim *s, double from, double to)
{
  for (double t = from; t < to; t += 5e-6)
    t = sim_read(s, t);
}

static double counter_steady(double t)
{
  return 123456789 + t * HZ; /* from an arbitrary value */
}

static double reference_steady(double t)
{
  return 1000 + t;
}

START_TEST(steady_counter_tracks_the_reference)
{
  struct sim s = {.m = {counter_steady, reference_steady}, .seed = 1};
  sim_run(&s, 0, 3);
  ck_assert_int_eq(s.f.state, GC_TIMEBASE_RUNNING);
  ck_assert_int_eq(s.backwards, 0);
  ck_assert_msg(s.worst < 200e-9, "deviation %.3g s", s.worst);
  ck_assert_msg(fabs(s.f.rate * HZ - 1) < GC_TIMEBASE_RATE_ERR, "rate %.9g", s.f.rate * HZ);
  /* Segments grew to the longest span. */
  ck_assert_msg(fabs((double)s.f.seg.span / HZ - GC_TIMEBASE_SPAN_MAX) < 1e-3, "span %.3g s",
                (double)s.f.seg.span / HZ);
}
END_TEST

/* Calibration: the reference alone for the first millisecond, the counter from then on. */
START_TEST(calibration_takes_a_millisecond)
{
  struct sim s = {.m = {counter_steady, reference_steady}, .seed = 2};
  double t = 0;
  while (s.f.state != GC_TIMEBASE_RUNNING && t < 1)
    t = sim_read(&s, t) + 10e-6;
  ck_assert_msg(t >= GC_TIMEBASE_CALIBRATE && t < 2e-3, "calibrated after %.3g s", t);
}
END_TEST

/* A first pair the scheduler interrupted (a 1 ms bracket) is replaced by the next. */
START_TEST(a_poor_first_pair_is_replaced)
{
  struct gc_timebase_fit f = {0};
  gc_timebase_anchor(&f, 1000, 5.0, 1e-3);
  gc_timebase_anchor(&f, 1000 + (uint64_t)(1e-5 * HZ), 5.0 + 1e-5, BRACKET);
  ck_assert_int_eq(f.state, GC_TIMEBASE_CALIBRATING);
  ck_assert(f.first_bracket == BRACKET);
  gc_timebase_anchor(&f, 1000 + (uint64_t)(2e-3 * HZ), 5.0 + 2e-3, BRACKET);
  ck_assert_int_eq(f.state, GC_TIMEBASE_RUNNING);
}
END_TEST

/* NTP slews CLOCK_MONOTONIC by up to 500 ppm: for a second here, then steady again. The
 * clock follows within a segment's worth (500 ppm of 100 ms), on the counter. */
static double reference_slewed(double t)
{
  return t + (t < 1 ? 0 : t < 2 ? (t - 1) * 500e-6 : 500e-6);
}

START_TEST(a_slewed_reference_is_followed)
{
  struct sim s = {.m = {counter_steady, reference_slewed}, .seed = 3};
  sim_run(&s, 0, 4);
  ck_assert_int_eq(s.f.state, GC_TIMEBASE_RUNNING);
  ck_assert_int_eq(s.backwards, 0);
  ck_assert_msg(s.worst < 500e-6 * GC_TIMEBASE_SPAN_MAX + 1e-6, "deviation %.3g s", s.worst);
}
END_TEST

/* A counter whose rate changes by 5% at 1 s (a migration between hosts that do not scale
 * it): found at the next re-anchor (5% of a span off by then, at most), the reference
 * from then on. */
static double counter_jumps(double t)
{
  return t < 1 ? t * HZ : HZ + (t - 1) * HZ * 1.05;
}

START_TEST(a_counter_that_changes_rate_is_dropped)
{
  struct sim s = {.m = {counter_jumps, reference_steady}, .seed = 4};
  double t = 0;
  while (s.f.state != GC_TIMEBASE_OFF && t < 2)
    t = sim_read(&s, t) + 5e-6;
  ck_assert_int_eq(s.f.state, GC_TIMEBASE_OFF);
  ck_assert_msg(t < 1 + 2 * GC_TIMEBASE_SPAN_MAX, "found at %.3g s", t);
  ck_assert_msg(s.worst <= 0.05 * GC_TIMEBASE_SPAN_MAX, "deviation %.3g s", s.worst);
  ck_assert(fabs(s.last - reference_steady(t)) < 60e-6); /* a pair, then the step */
}
END_TEST

/* Reads that stop for a minute, after which the counter is 2 us behind the reference: the
 * first read after takes the reference's value, the segments go on. */
static double counter_behind(double t)
{
  return t < 30 ? t * HZ : (t - 2e-6) * HZ;
}

START_TEST(an_idle_stretch_restarts_from_the_reference)
{
  struct sim s = {.m = {counter_behind, reference_steady}, .seed = 5};
  sim_run(&s, 0, 1);
  s.worst = 0;
  sim_read(&s, 61);
  ck_assert_msg(fabs(s.last - reference_steady(61)) < 1e-7, "after the stretch %.9f", s.last);
  sim_run(&s, 61, 62);
  ck_assert_int_eq(s.f.state, GC_TIMEBASE_RUNNING);
  ck_assert_int_eq(s.backwards, 0);
  ck_assert_msg(s.worst < 200e-9, "deviation %.3g s", s.worst);
}
END_TEST

/* A counter that stands still or goes back during calibration is never used. */
START_TEST(a_still_counter_is_never_used)
{
  struct gc_timebase_fit f = {0};
  gc_timebase_anchor(&f, 5000, 1.0, BRACKET);
  gc_timebase_anchor(&f, 5000, 1.002, BRACKET);
  ck_assert_int_eq(f.state, GC_TIMEBASE_OFF);
  ck_assert(gc_timebase_anchor(&f, 9000, 1.003, BRACKET) == 1.003);
}
END_TEST

/* --- the real reads ------------------------------------------------------------- */

static double mono(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Whether this machine passes the counter's checks (timebase.h), asked independently. */
static int counter_allowed_here(void)
{
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (__get_cpuid_max(0x80000000, NULL) < 0x80000007)
    return 0;
  __cpuid(0x80000007, a, b, c, d);
  (void)a, (void)b, (void)c;
  char text[16] = "";
  int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource", O_RDONLY);
  if (fd < 0)
    return 0;
  ssize_t n = read(fd, text, sizeof text);
  close(fd);
  return (d & 1u << 8) && n == 4 && memcmp(text, "tsc\n", 4) == 0;
#else
  return 0;
#endif
}

/* Tolerance of the clock against CLOCK_MONOTONIC, beyond the bracket of the comparing
 * reads: the deviation timebase.h bounds by a few brackets, with room for a loaded
 * machine's interrupted pairs. */
#define AGREE 20e-6

/* Reads for `seconds` (past calibration and several re-anchors): never back, and each
 * within AGREE of CLOCK_MONOTONIC read around it; then across a 50 ms sleep, the clock's
 * elapsed time is CLOCK_MONOTONIC's within AGREE. */
static void reads_agree(double seconds)
{
  double start = mono(), last = gc_timebase_now(), worst = 0;
  long n = 0;
  while (mono() - start < seconds) {
    double before = mono(), v = gc_timebase_now(), after = mono();
    ck_assert_msg(v >= last, "back by %.3g s after %ld reads", last - v, n);
    double off = v < before ? before - v : v > after ? v - after : 0;
    if (off > worst)
      worst = off;
    last = v;
    n++;
  }
  ck_assert_msg(worst < AGREE, "%s: %.3g s from CLOCK_MONOTONIC", gc_timebase_source(), worst);
  double m0 = mono(), c0 = gc_timebase_now(), m0b = mono();
  struct timespec nap = {0, 50000000};
  while (nanosleep(&nap, &nap) != 0)
    ;
  double m1 = mono(), c1 = gc_timebase_now(), m1b = mono();
  ck_assert_msg(c1 - c0 >= m1 - m0b - AGREE && c1 - c0 <= m1b - m0 + AGREE,
                "%s: %.9f s over a sleep CLOCK_MONOTONIC saw as %.9f..%.9f", gc_timebase_source(),
                c1 - c0, m1 - m0b, m1b - m0);
}

START_TEST(the_counter_where_allowed)
{
  gc_timebase_use(NULL, 1);
  reads_agree(0.3);
  ck_assert_str_eq(gc_timebase_source(), counter_allowed_here() ? "TSC" : "CLOCK_MONOTONIC");
}
END_TEST

START_TEST(clock_monotonic_when_forced)
{
  gc_timebase_use(NULL, 0);
  reads_agree(0.05);
  ck_assert_str_eq(gc_timebase_source(), "CLOCK_MONOTONIC");
}
END_TEST

/* Started at MPI_Init (clock.c): the first read a while later is the counter's already. */
START_TEST(started_ahead_the_first_reads_are_the_counters)
{
  gc_timebase_use(NULL, 1);
  gc_timebase_start();
  ck_assert_str_eq(gc_timebase_source(), counter_allowed_here() ? "TSC (calibrating)" : "CLOCK_MONOTONIC");
  struct timespec nap = {0, 20000000};
  nanosleep(&nap, NULL);
  /* A read whose pair the scheduler interrupted waits for the next: a few tries. */
  for (int i = 0; i < 10 && strcmp(gc_timebase_source(), "TSC (calibrating)") == 0; i++) {
    gc_timebase_now();
    nap.tv_nsec = 1000000;
    nanosleep(&nap, NULL);
  }
  ck_assert_str_eq(gc_timebase_source(), counter_allowed_here() ? "TSC" : "CLOCK_MONOTONIC");
}
END_TEST

static double fixed_reference(void)
{
  return 42.5;
}

/* Another reference (clock.c's MPI_Wtime) is read as it is, never through the counter. */
START_TEST(another_reference_is_read_directly)
{
  gc_timebase_use(fixed_reference, 0);
  ck_assert(gc_timebase_now() == 42.5);
  ck_assert_str_eq(gc_timebase_source(), "reference");
  gc_timebase_use(NULL, 1);
  ck_assert(fabs(gc_timebase_now() - mono()) < AGREE);
}
END_TEST

static Suite *suite(void)
{
  Suite *s = suite_create("timebase");
  TCase *tc = tcase_create("synthetic");
  tcase_add_test(tc, steady_counter_tracks_the_reference);
  tcase_add_test(tc, calibration_takes_a_millisecond);
  tcase_add_test(tc, a_poor_first_pair_is_replaced);
  tcase_add_test(tc, a_slewed_reference_is_followed);
  tcase_add_test(tc, a_counter_that_changes_rate_is_dropped);
  tcase_add_test(tc, an_idle_stretch_restarts_from_the_reference);
  tcase_add_test(tc, a_still_counter_is_never_used);
  suite_add_tcase(s, tc);
  tc = tcase_create("reads");
  tcase_add_test(tc, the_counter_where_allowed);
  tcase_add_test(tc, clock_monotonic_when_forced);
  tcase_add_test(tc, started_ahead_the_first_reads_are_the_counters);
  tcase_add_test(tc, another_reference_is_read_directly);
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *r = srunner_create(suite());
  srunner_run_all(r, CK_ENV);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? 1 : 0;
}
