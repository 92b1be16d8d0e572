/* Helpers shared by the model unit tests. */
#ifndef GC_MODEL_CHECK_H
#define GC_MODEL_CHECK_H

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "model.h"
#include "scratch_check.h"

/* |x - y| <= rel*|y| (exact when y == 0), printing both on failure. */
#define ck_assert_rel(x, y, rel)                                                       \
  do {                                                                                 \
    double x_ = (x), y_ = (y);                                                         \
    ck_assert_msg(fabs(x_ - y_) <= (rel) * fabs(y_), "%s = %.17g, expected %.17g", #x, \
                  x_, y_);                                                             \
  } while (0)

/* Default tolerance for values worked out by hand: rounding only. */
#define REL 1e-12

/* The papers' two-cluster forms of a grid model (000 Eq. 6, 7 as printed, with a scalar
 * wide area alpha_w in s and beta_w in s/byte): fn on the k = 2 grid they describe.
 * GC_MODEL_EINVAL for a NULL lan or a bad alpha_w or beta_w, as fn for the rest. */
static inline int grid2(int (*fn)(const struct gc_model_grid *, size_t, double *), int n1,
                        int n2, size_t m, const struct gc_lan *lan1, const struct gc_lan *lan2,
                        double alpha_w, double beta_w, double *t)
{
  if (!lan1 || !lan2 || !isfinite(alpha_w) || alpha_w < 0 || !isfinite(beta_w) || beta_w < 0)
    return GC_MODEL_EINVAL;
  double bw = beta_w > 0.0 ? 1.0 / beta_w : INFINITY;
  int size[2] = {n1, n2};
  struct gc_lan lan[2] = {*lan1, *lan2};
  double lat[4] = {0.0, alpha_w, alpha_w, 0.0};
  double band[4] = {INFINITY, bw, bw, INFINITY};
  struct gc_model_grid g = {.k = 2, .size = size, .lan = lan, .wan_latency = lat,
                            .wan_bandwidth = band, .scratch = gc_test_scratch(n1 + n2, 2)};
  return fn(&g, m, t);
}

/* Run one suite; the exit status of a check program. */
static inline int gc_run_suite(Suite *s)
{
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
