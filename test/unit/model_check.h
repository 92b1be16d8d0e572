/* Helpers shared by the model unit tests. */
#ifndef GC_MODEL_CHECK_H
#define GC_MODEL_CHECK_H

#include <check.h>
#include <math.h>
#include <stdlib.h>

/* |x - y| <= rel*|y| (exact when y == 0), printing both on failure. */
#define ck_assert_rel(x, y, rel)                                                       \
  do {                                                                                 \
    double x_ = (x), y_ = (y);                                                         \
    ck_assert_msg(fabs(x_ - y_) <= (rel) * fabs(y_), "%s = %.17g, expected %.17g", #x, \
                  x_, y_);                                                             \
  } while (0)

/* Default tolerance for values worked out by hand: rounding only. */
#define REL 1e-12

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
