/* Fitting Hockney and contention-signature parameters (model/fit.c).
 * Data generated from the published signatures of 000 Sec. 3, exact and with 1%
 * deterministic noise, must give the parameters back; degenerate input must be refused. */
#include <string.h>

#include "fit.h"
#include "model.h"
#include "model_check.h"

#define NSIZES 11 /* 1 KiB .. 1 MiB */

/* Deterministic noise in [-1, 1): a 32-bit LCG (Numerical Recipes constants). */
static double noise(unsigned *state)
{
  *state = *state * 1664525u + 1013904223u;
  return *state / 2147483648.0 - 1.0;
}

/* All-to-all samples of 000 Eq. 5 on n processes at sizes 1 KiB .. 1 MiB, each time
 * multiplied by (1 + amp * noise). */
static void signature_data(struct gc_fit_a2a_sample *s, int n, const struct gc_lan *l,
                           double amp)
{
  unsigned state = 12345;
  for (int i = 0; i < NSIZES; i++) {
    double m = 1024.0 * (1 << i);
    double t = (n - 1) * (l->alpha + m * l->beta * l->gamma + (m >= l->threshold ? l->delta : 0));
    s[i] = (struct gc_fit_a2a_sample){.n = n, .m = m, .t = t * (1 + amp * noise(&state))};
  }
}

static const struct gc_lan gige = {.alpha = 60e-6, .beta = 8e-9, .gamma = 4.3628,
                                   .delta = 4.93e-3, .threshold = 8192};
/* Fast Ethernet: 100 Mb/s is 80 ns/byte; 000 quotes a latency around 60 us. */
static const struct gc_lan fast = {.alpha = 60e-6, .beta = 8e-8, .gamma = 1.0195,
                                   .delta = 8.23e-3, .threshold = 2048};

START_TEST(signature_exact)
{
  struct gc_fit_a2a_sample s[NSIZES];
  struct gc_lan out;
  struct gc_fit_quality q;
  signature_data(s, 8, &gige, 0);
  ck_assert_int_eq(gc_fit_signature(s, NSIZES, gige.alpha, gige.beta, &out, &q), 0);
  ck_assert_rel(out.gamma, 4.3628, 1e-6);
  ck_assert_rel(out.delta, 4.93e-3, 1e-6);
  /* M = first sample size where delta applies: the breakpoint lies in (4 KiB, 8 KiB]. */
  ck_assert_rel(out.threshold, 8192, 0);
  ck_assert_rel(out.alpha, gige.alpha, 0);
  ck_assert(q.r2 > 1 - 1e-12 && q.max_rel < 1e-9);

  signature_data(s, 24, &fast, 0);
  ck_assert_int_eq(gc_fit_signature(s, NSIZES, fast.alpha, fast.beta, &out, &q), 0);
  ck_assert_rel(out.gamma, 1.0195, 1e-6);
  ck_assert_rel(out.delta, 8.23e-3, 1e-6);
  ck_assert_rel(out.threshold, 2048, 0); /* in (1 KiB, 2 KiB] */
}
END_TEST

START_TEST(signature_noisy)
{
  struct gc_fit_a2a_sample s[NSIZES];
  struct gc_lan out;
  struct gc_fit_quality q;
  signature_data(s, 8, &gige, 0.01);
  ck_assert_int_eq(gc_fit_signature(s, NSIZES, gige.alpha, gige.beta, &out, &q), 0);
  ck_assert_rel(out.gamma, 4.3628, 0.03);
  ck_assert_rel(out.delta, 4.93e-3, 0.03);
  ck_assert_rel(out.threshold, 8192, 0);
  ck_assert(q.r2 > 0.999 && q.max_rel < 0.03);

  signature_data(s, 24, &fast, 0.01);
  ck_assert_int_eq(gc_fit_signature(s, NSIZES, fast.alpha, fast.beta, &out, &q), 0);
  ck_assert_rel(out.gamma, 1.0195, 0.03);
  ck_assert_rel(out.delta, 8.23e-3, 0.03);
  ck_assert_rel(out.threshold, 2048, 0);
}
END_TEST

START_TEST(signature_no_delta)
{
  /* Myrinet (000): gamma = 2.49754 and no start-up overload: the fit must not invent one. */
  struct gc_lan myri = {.alpha = 10e-6, .beta = 4e-9, .gamma = 2.49754, .delta = 0,
                        .threshold = 0};
  struct gc_fit_a2a_sample s[NSIZES];
  struct gc_lan out;
  signature_data(s, 24, &myri, 0);
  ck_assert_int_eq(gc_fit_signature(s, NSIZES, myri.alpha, myri.beta, &out, NULL), 0);
  ck_assert_rel(out.gamma, 2.49754, 1e-6);
  ck_assert_rel(out.delta, 0, 0);
  ck_assert_rel(out.threshold, 0, 0);
  /* Samples at several n are one fit: add n = 8 to the GigE n = 24 data, shuffled. */
  struct gc_fit_a2a_sample mix[2 * NSIZES];
  signature_data(mix, 24, &gige, 0);
  signature_data(mix + NSIZES, 8, &gige, 0);
  struct gc_fit_a2a_sample tmp = mix[0];
  mix[0] = mix[2 * NSIZES - 1], mix[2 * NSIZES - 1] = tmp;
  ck_assert_int_eq(gc_fit_signature(mix, 2 * NSIZES, gige.alpha, gige.beta, &out, NULL), 0);
  ck_assert_rel(out.gamma, 4.3628, 1e-6);
  ck_assert_rel(out.threshold, 8192, 0);
}
END_TEST

START_TEST(hockney_fit)
{
  /* Ping-pong at 1 B .. 1 MiB from alpha = 60 us, beta = 8 ns/byte. */
  struct gc_fit_sample s[21];
  unsigned state = 7;
  for (int i = 0; i < 21; i++)
    s[i] = (struct gc_fit_sample){.m = 1 << i, .t = 60e-6 + (1 << i) * 8e-9};
  double alpha, beta;
  struct gc_fit_quality q;
  ck_assert_int_eq(gc_fit_hockney(s, 21, &alpha, &beta, &q), 0);
  ck_assert_rel(alpha, 60e-6, 1e-9);
  ck_assert_rel(beta, 8e-9, 1e-9);
  ck_assert(q.r2 > 1 - 1e-12 && q.max_rel < 1e-9);
  for (int i = 0; i < 21; i++)
    s[i].t *= 1 + 0.01 * noise(&state);
  ck_assert_int_eq(gc_fit_hockney(s, 21, &alpha, &beta, &q), 0);
  ck_assert_rel(alpha, 60e-6, 0.03);
  ck_assert_rel(beta, 8e-9, 0.03);
  ck_assert(q.max_rel < 0.03);
  /* Two samples determine the line exactly: (0, 1 ms) and (1000, 2 ms). */
  struct gc_fit_sample two[2] = {{.m = 0, .t = 1e-3}, {.m = 1000, .t = 2e-3}};
  ck_assert_int_eq(gc_fit_hockney(two, 2, &alpha, &beta, &q), 0);
  ck_assert_rel(alpha, 1e-3, REL);
  ck_assert_rel(beta, 1e-6, REL);
  /* Times falling with size: beta would be negative; kept at 0, alpha = the weighted mean. */
  struct gc_fit_sample down[2] = {{.m = 0, .t = 2e-3}, {.m = 1000, .t = 2e-3 * (1 - 1e-3)}};
  ck_assert_int_eq(gc_fit_hockney(down, 2, &alpha, &beta, &q), 0);
  ck_assert(beta == 0 && alpha > 1.99e-3 && alpha < 2e-3);
}
END_TEST

START_TEST(tail_bandwidth)
{
  /* A token bucket of 8 KiB at 12.5 MB/s behind a 1 GB/s line, 15 us of latency:
   * messages up to the bucket go at line rate, the rest at the rate. The slope of the
   * two largest sizes is the rate; a relative fit over all sizes misses it badly. */
  struct gc_fit_sample s[9];
  for (int i = 0; i < 9; i++) {
    double m = 64.0 * (1 << (2 * i)) / 4, over = m > 8192 ? m - 8192 : 0;
    s[i] = (struct gc_fit_sample){.m = m, .t = 15e-6 + (m - over) / 1e9 + over / 12.5e6};
  }
  double bw, alpha, beta;
  ck_assert_int_eq(gc_fit_tail_bandwidth(s, 9, &bw), 0);
  ck_assert_rel(bw, 12.5e6, 1e-9);
  ck_assert_int_eq(gc_fit_hockney(s, 9, &alpha, &beta, NULL), 0);
  ck_assert(1 / beta > 1.2 * 12.5e6);
  /* Order does not matter, and of a repeated size the smallest time counts. */
  struct gc_fit_sample r[4] = {{.m = 2000, .t = 3e-3}, {.m = 1000, .t = 2e-3},
                               {.m = 2000, .t = 5e-3}, {.m = 0, .t = 1e-3}};
  ck_assert_int_eq(gc_fit_tail_bandwidth(r, 4, &bw), 0);
  ck_assert_rel(bw, 1e6, REL);
  /* A pure Hockney line: the tail bandwidth is 1/beta. */
  struct gc_fit_sample h[3] = {{.m = 0, .t = 5e-5}, {.m = 1e5, .t = 5e-5 + 8e-4},
                               {.m = 1e6, .t = 5e-5 + 8e-3}};
  ck_assert_int_eq(gc_fit_tail_bandwidth(h, 3, &bw), 0);
  ck_assert_rel(bw, 1.25e8, 1e-9);
}
END_TEST

START_TEST(tail_bandwidth_limits)
{
  double bw = -1;
  struct gc_fit_sample same[2] = {{.m = 100, .t = 1e-3}, {.m = 100, .t = 2e-3}};
  ck_assert_int_eq(gc_fit_tail_bandwidth(same, 2, &bw), GC_MODEL_EDEGENERATE);
  struct gc_fit_sample flat[2] = {{.m = 100, .t = 2e-3}, {.m = 200, .t = 2e-3}};
  ck_assert_int_eq(gc_fit_tail_bandwidth(flat, 2, &bw), GC_MODEL_EDEGENERATE);
  ck_assert_int_eq(gc_fit_tail_bandwidth(flat, 1, &bw), GC_MODEL_EDEGENERATE);
  struct gc_fit_sample bad[2] = {{.m = 100, .t = 0}, {.m = 200, .t = 2e-3}};
  ck_assert_int_eq(gc_fit_tail_bandwidth(bad, 2, &bw), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_tail_bandwidth(NULL, 2, &bw), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_tail_bandwidth(flat, 2, NULL), GC_MODEL_EINVAL);
  ck_assert(bw == -1); /* untouched on failure */
}
END_TEST

START_TEST(fit_degenerate)
{
  struct gc_fit_sample s[3] = {{.m = 100, .t = 1e-3}, {.m = 100, .t = 2e-3}, {.m = 100, .t = 3e-3}};
  double alpha = -1, beta = -1;
  struct gc_fit_quality q;
  ck_assert_int_eq(gc_fit_hockney(s, 0, &alpha, &beta, &q), GC_MODEL_EDEGENERATE);
  ck_assert_int_eq(gc_fit_hockney(s, 1, &alpha, &beta, &q), GC_MODEL_EDEGENERATE);
  ck_assert_int_eq(gc_fit_hockney(s, 3, &alpha, &beta, &q), GC_MODEL_EDEGENERATE); /* one size */
  s[1].m = 200, s[2].t = 0;
  ck_assert_int_eq(gc_fit_hockney(s, 3, &alpha, &beta, &q), GC_MODEL_EINVAL); /* zero time */
  s[2].t = NAN;
  ck_assert_int_eq(gc_fit_hockney(s, 3, &alpha, &beta, &q), GC_MODEL_EINVAL);
  s[2].t = 3e-3, s[2].m = -1;
  ck_assert_int_eq(gc_fit_hockney(s, 3, &alpha, &beta, &q), GC_MODEL_EINVAL);
  s[2].m = INFINITY;
  ck_assert_int_eq(gc_fit_hockney(s, 3, &alpha, &beta, &q), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_hockney(NULL, 3, &alpha, &beta, &q), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_hockney(s, -1, &alpha, &beta, &q), GC_MODEL_EINVAL);
  ck_assert(alpha == -1 && beta == -1); /* untouched */
  struct gc_fit_sample zeros[3] = {{0, 1e-3}, {0, 1e-3}, {0, 1e-3}};
  ck_assert_int_eq(gc_fit_hockney(zeros, 3, &alpha, &beta, NULL), GC_MODEL_EDEGENERATE);

  struct gc_fit_a2a_sample a[NSIZES];
  struct gc_lan out = {.gamma = -1};
  signature_data(a, 8, &gige, 0);
  ck_assert_int_eq(gc_fit_signature(a, 1, gige.alpha, gige.beta, &out, NULL),
                   GC_MODEL_EDEGENERATE);
  ck_assert_int_eq(gc_fit_signature(a, 0, gige.alpha, gige.beta, &out, NULL),
                   GC_MODEL_EDEGENERATE);
  ck_assert_int_eq(gc_fit_signature(a, NSIZES, gige.alpha, 0, &out, NULL), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_signature(a, NSIZES, NAN, gige.beta, &out, NULL), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_signature(a, NSIZES, gige.alpha, gige.beta, NULL, NULL),
                   GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_signature(NULL, NSIZES, gige.alpha, gige.beta, &out, NULL),
                   GC_MODEL_EINVAL);
  struct gc_fit_a2a_sample same[3] = {{8, 1024, 1e-3}, {8, 1024, 2e-3}, {8, 1024, 1e-3}};
  ck_assert_int_eq(gc_fit_signature(same, 3, gige.alpha, gige.beta, &out, NULL),
                   GC_MODEL_EDEGENERATE);
  a[3].n = 1; /* an all-to-all of one process measures nothing */
  ck_assert_int_eq(gc_fit_signature(a, NSIZES, gige.alpha, gige.beta, &out, NULL),
                   GC_MODEL_EINVAL);
  a[3].n = 8, a[4].t = NAN;
  ck_assert_int_eq(gc_fit_signature(a, NSIZES, gige.alpha, gige.beta, &out, NULL),
                   GC_MODEL_EINVAL);
  a[4].t = 0;
  ck_assert_int_eq(gc_fit_signature(a, NSIZES, gige.alpha, gige.beta, &out, NULL),
                   GC_MODEL_EINVAL);
  ck_assert_rel(out.gamma, -1, 0); /* untouched */
  /* Sizes all 0 but one: gamma rests on one size; still a finite, non-negative fit. */
  struct gc_fit_a2a_sample zero_m[3] = {{8, 0, 1e-3}, {8, 0, 1.1e-3}, {8, 4096, 2e-3}};
  ck_assert_int_eq(gc_fit_signature(zero_m, 3, gige.alpha, gige.beta, &out, &q), 0);
  ck_assert(isfinite(out.gamma) && out.gamma >= 0 && isfinite(out.delta) && out.delta >= 0);
  ck_assert(isfinite(q.r2) && isfinite(q.max_rel));
  /* Times below the model's latency part: residuals negative, parameters clamped at 0. */
  struct gc_fit_a2a_sample fast_t[2] = {{8, 1024, 1e-9}, {8, 2048, 1e-9}};
  ck_assert_int_eq(gc_fit_signature(fast_t, 2, gige.alpha, gige.beta, &out, &q), 0);
  ck_assert(out.gamma == 0 && out.delta == 0 && isfinite(q.r2) && isfinite(q.max_rel));
}
END_TEST

/* An all-to-all whose small messages' latencies overlap (the library posts them together:
 * the time is one alpha, not n-1), saturated from alpha/beta on with gamma 1: a fit over
 * every size drags gamma under 1 (issue 13 measured 0.2 under SMPI); the saturated fit
 * finds 1 and says from which size it fitted. */
START_TEST(signature_saturated)
{
  const double alpha = 50e-6, beta = 8e-9; /* n_1/2 = 6250 B */
  struct gc_fit_a2a_sample s[NSIZES];
  for (int i = 0; i < NSIZES; i++) {
    double m = 1024.0 * (1 << i);
    double t = 15 * (m * beta) + (m * beta < alpha ? alpha : 15 * alpha);
    s[i] = (struct gc_fit_a2a_sample){.n = 16, .m = m, .t = t};
  }
  struct gc_lan all, sat;
  struct gc_fit_quality q;
  double from = -1;
  ck_assert_int_eq(gc_fit_signature(s, NSIZES, alpha, beta, &all, &q), 0);
  ck_assert(all.gamma < 0.9);
  ck_assert_int_eq(gc_fit_signature_saturated(s, NSIZES, alpha, beta, &sat, &q, &from), 0);
  ck_assert_rel(sat.gamma, 1.0, 1e-6);
  ck_assert_rel(from, 8192, 0);
  ck_assert(q.r2 > 0.999);
  struct gc_fit_verdict v;
  ck_assert_int_eq(gc_fit_check_signature(&sat, &q, 0, &v), GC_FIT_GOOD);
  /* Sizes all below n_1/2: the two largest are used. */
  ck_assert_int_eq(gc_fit_signature_saturated(s, 3, alpha, beta * 1e-3, &sat, &q, &from), 0);
  ck_assert_rel(from, 2048, 0);
}
END_TEST

START_TEST(checks_refuse_nonsense)
{
  struct gc_fit_verdict v;
  struct gc_fit_quality good = {.r2 = 0.999, .max_rel = 0.01}, poor = {.r2 = 0.3, .max_rel = 0.4};
  /* Issue 14: times that do not grow with the size (3.8 ms at every size, one machine
   * oversubscribed) fit beta = 0, a bandwidth of "1e+09 MB/s": refused. */
  struct gc_fit_sample flat[4] = {{64, 3.8e-3}, {1024, 3.7e-3}, {16384, 3.9e-3}, {262144, 3.8e-3}};
  double alpha, beta;
  struct gc_fit_quality q;
  ck_assert_int_eq(gc_fit_hockney(flat, 4, &alpha, &beta, &q), 0);
  ck_assert_int_eq(gc_fit_check_hockney(flat, 4, alpha, beta, &q, 0.02, &v), GC_FIT_REFUSED);
  ck_assert(strstr(v.why, "bandwidth") && strstr(v.todo, "-s"));
  ck_assert_int_eq(gc_fit_check_hockney(flat, 4, 3.8e-3, 1e-15, &good, 0.02, &v), GC_FIT_REFUSED);
  /* A clean line is good. */
  struct gc_fit_sample line[4] = {{64, 50e-6 + 64 * 8e-9}, {1024, 50e-6 + 1024 * 8e-9},
                                  {65536, 50e-6 + 65536 * 8e-9}, {1 << 20, 50e-6 + 1048576 * 8e-9}};
  ck_assert_int_eq(gc_fit_hockney(line, 4, &alpha, &beta, &q), 0);
  ck_assert_int_eq(gc_fit_check_hockney(line, 4, alpha, beta, &q, 0, &v), GC_FIT_GOOD);
  ck_assert_str_eq(v.why, "");
  /* A 10 ms wide area at 125 MB/s: 1 MiB takes 18.4 ms, its throughput 57 MB/s, yet the
   * bandwidth is measured (the size term is 46% of the time). */
  struct gc_fit_sample wan[3] = {{1024, 10e-3 + 1024 * 8e-9}, {65536, 10e-3 + 65536 * 8e-9},
                                 {1 << 20, 10e-3 + 1048576 * 8e-9}};
  ck_assert_int_eq(gc_fit_hockney(wan, 3, &alpha, &beta, &q), 0);
  ck_assert_int_eq(gc_fit_check_hockney(wan, 3, alpha, beta, &q, 0, &v), GC_FIT_GOOD);
  ck_assert_int_eq(gc_fit_hockney(line, 4, &alpha, &beta, &q), 0);
  /* A poor fit: blamed on noise only when the repetitions disagree. */
  ck_assert_int_eq(gc_fit_check_hockney(line, 4, alpha, beta, &poor, 0.0, &v), GC_FIT_SUSPECT);
  ck_assert(strstr(v.why, "repetitions agree") && !strstr(v.why, "noisy"));
  ck_assert_int_eq(gc_fit_check_hockney(line, 4, alpha, beta, &poor, 0.5, &v), GC_FIT_SUSPECT);
  ck_assert(strstr(v.why, "noisy") && strstr(v.todo, "-r"));
  ck_assert_int_eq(gc_fit_check_hockney(line, 4, 0, beta, &good, 0, &v), GC_FIT_SUSPECT);

  /* gamma is a ratio >= 1 (000): 0.8 suspect, 0.2 and 1e-6 refused, 1.02 good. */
  struct gc_lan l = {.alpha = 50e-6, .beta = 8e-9, .gamma = 0.8};
  ck_assert_int_eq(gc_fit_check_signature(&l, &good, 0, &v), GC_FIT_SUSPECT);
  l.gamma = 0.2;
  ck_assert_int_eq(gc_fit_check_signature(&l, &good, 0, &v), GC_FIT_REFUSED);
  ck_assert(strstr(v.why, "gamma 0.2 < 1"));
  l.gamma = 1e-6;
  ck_assert_int_eq(gc_fit_check_signature(&l, &good, 0, &v), GC_FIT_REFUSED);
  l.gamma = 1.02;
  ck_assert_int_eq(gc_fit_check_signature(&l, &good, 0, &v), GC_FIT_GOOD);
  /* Below 1 by less than the fit's own residual: within what the samples tell. */
  l.gamma = 0.96;
  ck_assert_int_eq(gc_fit_check_signature(&l, &good, 0, &v), GC_FIT_GOOD);
  l.gamma = 0.925;
  ck_assert_int_eq(gc_fit_check_signature(&l, &(struct gc_fit_quality){0.99, 0.13}, 0, &v), GC_FIT_GOOD);
  ck_assert_int_eq(gc_fit_check_signature(&l, &good, 0, &v), GC_FIT_SUSPECT);
  l.gamma = 1.02;
  ck_assert_int_eq(gc_fit_check_signature(&l, &poor, 0, &v), GC_FIT_SUSPECT);

  /* 16 flows of one 125 MB/s flow: 1.25 GB/s possible, 1e15 B/s not, 20 MB/s suspect. */
  ck_assert_int_eq(gc_fit_check_aggregate(1.25e9, 1.25e8, 16, &v), GC_FIT_GOOD);
  ck_assert_int_eq(gc_fit_check_aggregate(1e15, 1.25e8, 16, &v), GC_FIT_REFUSED);
  ck_assert_int_eq(gc_fit_check_aggregate(0, 1.25e8, 16, &v), GC_FIT_REFUSED);
  ck_assert_int_eq(gc_fit_check_aggregate(2e7, 1.25e8, 16, &v), GC_FIT_SUSPECT);

  /* Clusters declared alike: 3.8 ms beside 0.18 us (issue 14) marks both; 60 beside 70 us
   * marks none; of three, the one far from the median. */
  const char *names[3] = {"c0", "c1", "c2"};
  struct gc_fit_verdict w[3] = {{0}};
  ck_assert_int_eq(gc_fit_check_alike((double[]){3.8e-3, 0.18e-6}, names, 2, w), 2);
  ck_assert(w[0].level == GC_FIT_SUSPECT && w[1].level == GC_FIT_SUSPECT);
  ck_assert(strstr(w[1].why, "c0"));
  memset(w, 0, sizeof w);
  ck_assert_int_eq(gc_fit_check_alike((double[]){60e-6, 70e-6}, names, 2, w), 0);
  ck_assert_int_eq(gc_fit_check_alike((double[]){60e-6, 70e-6, 3e-3}, names, 3, w), 1);
  ck_assert(w[0].level == GC_FIT_GOOD && w[2].level == GC_FIT_SUSPECT);
}
END_TEST

/* A run's records from a model whose latency is 3x too small and bandwidth 2x too high:
 * the factors come back, and the refitted model meets the times. */
START_TEST(scale_refit)
{
  struct gc_fit_scale_sample s[6];
  for (int i = 0; i < 6; i++) {
    double L = 1e-4 * (1 + i % 2), B = 1e-6 * (1 << (2 * i));
    s[i] = (struct gc_fit_scale_sample){.L = L, .B = B, .actual = 3 * L + 2 * B};
  }
  double x, y;
  struct gc_fit_quality q;
  ck_assert_int_eq(gc_fit_scale(s, 6, &x, &y, &q), 0);
  ck_assert_rel(x, 3, 1e-9);
  ck_assert_rel(y, 2, 1e-9);
  ck_assert(q.max_rel < 1e-9);
}
END_TEST

START_TEST(checks_limits)
{
  struct gc_fit_verdict v;
  struct gc_fit_quality q = {1, 0};
  struct gc_lan l = {0};
  struct gc_fit_sample one[1] = {{64, 1e-6}};
  ck_assert_int_eq(gc_fit_check_hockney(NULL, 1, 0, 0, &q, 0, &v), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_check_hockney(one, 0, 0, 0, &q, 0, &v), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_check_hockney(one, 1, 0, 0, NULL, 0, &v), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_check_signature(&l, NULL, 0, &v), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_check_aggregate(1, 1, 0, &v), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_check_aggregate(NAN, 1, 1, &v), GC_FIT_REFUSED);
  ck_assert_int_eq(gc_fit_check_alike(NULL, NULL, 2, &v), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_check_alike((double[]){1}, NULL, 1, &v), 0);
  double x = -1, y = -1, from = -1;
  struct gc_fit_scale_sample same[2] = {{1e-3, 1e-3, 2e-3}, {2e-3, 2e-3, 4e-3}};
  ck_assert_int_eq(gc_fit_scale(same, 2, &x, &y, NULL), GC_MODEL_EDEGENERATE);
  ck_assert_int_eq(gc_fit_scale(same, 1, &x, &y, NULL), GC_MODEL_EDEGENERATE);
  same[1].actual = 0;
  ck_assert_int_eq(gc_fit_scale(same, 2, &x, &y, NULL), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_scale(NULL, 2, &x, &y, NULL), GC_MODEL_EINVAL);
  ck_assert(x == -1 && y == -1);
  struct gc_fit_a2a_sample a[1] = {{8, 1024, 1e-3}};
  struct gc_lan out;
  ck_assert_int_eq(gc_fit_signature_saturated(a, 1, 1e-5, 1e-9, &out, NULL, &from),
                   GC_MODEL_EDEGENERATE);
  ck_assert_int_eq(gc_fit_signature_saturated(a, 1, 1e-5, 0, &out, NULL, &from), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_fit_signature_saturated(a, 1, 1e-5, 1e-9, &out, NULL, NULL), GC_MODEL_EINVAL);
  ck_assert(from == -1);
}
END_TEST

/* A fit the loader would refuse (config/physical.c) is refused here, so that
 * gridcoll-calibrate never writes a file gridcoll cannot read. */
START_TEST(checks_physical_sense)
{
  struct gc_fit_verdict v;
  struct gc_fit_quality good = {1, 0};
  /* One flow at 0.1 bit/s: the times grow with the size, but no network is that slow. */
  struct gc_fit_sample slow[3] = {{64, 1e-3 + 64 * 80}, {1024, 1e-3 + 1024 * 80},
                                  {4096, 1e-3 + 4096 * 80}};
  ck_assert_int_eq(gc_fit_check_hockney(slow, 3, 1e-3, 80, &good, 0, &v), GC_FIT_REFUSED);
  ck_assert_msg(strstr(v.why, "beyond what gridcoll accepts"), "%s", v.why);
  ck_assert_int_eq(gc_fit_check_hockney(slow, 3, 7200, 80, &good, 0, &v), GC_FIT_REFUSED);
  /* At 1 bit/s and an hour, the edges: accepted. */
  struct gc_fit_sample edge[3] = {{64, 3600 + 64 * 8.0}, {1024, 3600 + 1024 * 8.0},
                                  {4096, 3600 + 4096 * 8.0}};
  ck_assert_int_eq(gc_fit_check_hockney(edge, 3, 3600, 8, &good, 0, &v), GC_FIT_GOOD);
  struct gc_lan l = {.alpha = 50e-6, .beta = 8e-9, .gamma = 2e4};
  ck_assert_int_eq(gc_fit_check_signature(&l, &good, 0, &v), GC_FIT_REFUSED);
  ck_assert_msg(strstr(v.why, "gamma 2e+04"), "%s", v.why);
  l.gamma = 1e4;
  ck_assert_int_eq(gc_fit_check_signature(&l, &good, 0, &v), GC_FIT_GOOD);
  l.delta = 7200;
  ck_assert_int_eq(gc_fit_check_signature(&l, &good, 0, &v), GC_FIT_REFUSED);
  ck_assert_int_eq(gc_fit_check_aggregate(2e14, 1e14, 16, &v), GC_FIT_REFUSED); /* > 1 Pbit/s */
  ck_assert_int_eq(gc_fit_check_aggregate(INFINITY, 1e14, 16, &v), GC_FIT_REFUSED);
  ck_assert_int_eq(gc_fit_check_aggregate(0.1, 0, 16, &v), GC_FIT_REFUSED); /* < 1 bit/s */
  ck_assert_int_eq(gc_fit_check_aggregate(1.25e14, 1e14, 16, &v), GC_FIT_GOOD);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("fit");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, signature_exact);
  tcase_add_test(core, signature_noisy);
  tcase_add_test(core, signature_no_delta);
  tcase_add_test(core, hockney_fit);
  tcase_add_test(core, tail_bandwidth);
  tcase_add_test(core, signature_saturated);
  tcase_add_test(core, checks_refuse_nonsense);
  tcase_add_test(core, scale_refit);
  tcase_add_test(limits, checks_limits);
  tcase_add_test(limits, checks_physical_sense);
  tcase_add_test(limits, fit_degenerate);
  tcase_add_test(limits, tail_bandwidth_limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
