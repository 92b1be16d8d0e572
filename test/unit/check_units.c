/* Units: "60 us", "1 Gbit/s", "8 KiB" -> SI, and the messages for what is not. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "physical.h"
#include "units.h"

static char err[256];

/* Parse or fail the test; returns the SI value. */
static double p(enum gc_unit u, const char *text) {
  double v = -12345;
  int rc = gc_units_parse(u, GC_BOUND_ANY, text, &v, err, sizeof err);
  ck_assert_msg(rc == 0, "\"%s\": %s", text, err);
  return v;
}

static int bad(enum gc_unit u, enum gc_bound b, const char *text) {
  double v = 42;
  int rc = gc_units_parse(u, b, text, &v, err, sizeof err);
  ck_assert_msg(v == 42, "out touched on error");
  return rc;
}

#define ck_close(a, b) ck_assert_msg(fabs((a) - (b)) <= 1e-12 * fabs(b), "%.17g != %.17g", (a), (b))

START_TEST(time_units) {
  ck_assert(p(GC_UNIT_TIME, "5.5 ms") == 5.5e-3);
  ck_assert(p(GC_UNIT_TIME, "60 us") == 60e-6);
  ck_assert(p(GC_UNIT_TIME, "60us") == 60e-6);
  ck_assert(p(GC_UNIT_TIME, "60 \xc2\xb5s") == 60e-6);
  ck_assert(p(GC_UNIT_TIME, "60 \xce\xbcs") == 60e-6);
  ck_assert(p(GC_UNIT_TIME, "1e-3 s") == 1e-3);
  ck_assert(p(GC_UNIT_TIME, "4 ns") == 4e-9);
  ck_assert(p(GC_UNIT_TIME, "0") == 0);
  ck_assert(p(GC_UNIT_TIME, "  2.5  ") == 2.5);
  ck_assert(p(GC_UNIT_TIME, "4.93 ms") == 4.93e-3);
  ck_assert(p(GC_UNIT_TIME, ".5 s") == 0.5);
  ck_assert(p(GC_UNIT_TIME, "+3s") == 3);
}
END_TEST

START_TEST(byte_units) {
  ck_assert(p(GC_UNIT_BYTES, "8 KiB") == 8192);
  ck_assert(p(GC_UNIT_BYTES, "8 kB") == 8000);
  ck_assert(p(GC_UNIT_BYTES, "8 KB") == 8000);
  ck_assert(p(GC_UNIT_BYTES, "2 MB") == 2e6);
  ck_assert(p(GC_UNIT_BYTES, "1 GB") == 1e9);
  ck_assert(p(GC_UNIT_BYTES, "1 MiB") == 1048576);
  ck_assert(p(GC_UNIT_BYTES, "1 GiB") == 1073741824.0);
  ck_assert(p(GC_UNIT_BYTES, "17 B") == 17);
  ck_assert(p(GC_UNIT_BYTES, "4096") == 4096);
}
END_TEST

START_TEST(bandwidth_units) {
  ck_assert(p(GC_UNIT_BANDWIDTH, "1 Gbit/s") == 125e6);
  ck_assert(p(GC_UNIT_BANDWIDTH, "10 Gbit/s") == 1.25e9);
  ck_assert(p(GC_UNIT_BANDWIDTH, "100 Mbit/s") == 12.5e6);
  ck_assert(p(GC_UNIT_BANDWIDTH, "8 kbit/s") == 1000);
  ck_assert(p(GC_UNIT_BANDWIDTH, "8 bit/s") == 1);
  ck_assert(p(GC_UNIT_BANDWIDTH, "1 Gbps") == 125e6);
  ck_assert(p(GC_UNIT_BANDWIDTH, "100 Mbps") == 12.5e6);
  ck_assert(p(GC_UNIT_BANDWIDTH, "8 kbps") == 1000);
  ck_assert(p(GC_UNIT_BANDWIDTH, "125 MB/s") == 125e6);
  ck_assert(p(GC_UNIT_BANDWIDTH, "3 kB/s") == 3000);
  ck_assert(p(GC_UNIT_BANDWIDTH, "1 GB/s") == 1e9);
  ck_assert(p(GC_UNIT_BANDWIDTH, "1 KiB/s") == 1024);
  ck_assert(p(GC_UNIT_BANDWIDTH, "1 MiB/s") == 1048576);
  ck_assert(p(GC_UNIT_BANDWIDTH, "1 GiB/s") == 1073741824.0);
  ck_assert(p(GC_UNIT_BANDWIDTH, "5 B/s") == 5);
  ck_assert(p(GC_UNIT_BANDWIDTH, "125000000") == 125e6);
}
END_TEST

START_TEST(inverse_bandwidth) {
  ck_assert(p(GC_UNIT_INVBW, "1 Gbit/s") == 8e-9);
  ck_close(p(GC_UNIT_INVBW, "10 Gbit/s"), 8e-10);
  ck_assert(p(GC_UNIT_INVBW, "8 ns/B") == 8e-9);
  ck_assert(p(GC_UNIT_INVBW, "8e-9 s/byte") == 8e-9);
  ck_assert(p(GC_UNIT_INVBW, "0.008 us/B") == 0.008e-6);
  ck_assert(p(GC_UNIT_INVBW, "125000000") == 8e-9); /* >= 1: bytes/s */
  ck_assert(p(GC_UNIT_INVBW, "8e-9") == 8e-9);      /* < 1: s/byte */
  double v = 0;
  ck_assert_int_eq(gc_units_number(GC_UNIT_INVBW, GC_BOUND_POSITIVE, 125e6, &v, err, sizeof err), 0);
  ck_assert(v == 8e-9);
  ck_assert_int_eq(gc_units_number(GC_UNIT_INVBW, GC_BOUND_POSITIVE, 8e-9, &v, err, sizeof err), 0);
  ck_assert(v == 8e-9);
  ck_assert_int_eq(gc_units_number(GC_UNIT_INVBW, GC_BOUND_POSITIVE, 1, &v, err, sizeof err), 0);
  ck_assert(v == 1);
}
END_TEST

START_TEST(ratio_and_numbers) {
  ck_assert(p(GC_UNIT_RATIO, "4.3628") == 4.3628);
  double v = 0;
  ck_assert_int_eq(gc_units_number(GC_UNIT_RATIO, GC_BOUND_POSITIVE, 2.5, &v, err, sizeof err), 0);
  ck_assert(v == 2.5);
  ck_assert_int_eq(gc_units_number(GC_UNIT_TIME, GC_BOUND_NONNEG, 0, &v, err, sizeof err), 0);
  ck_assert(v == 0);
}
END_TEST

START_TEST(rejects_garbage) {
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "5.5 parsecs"), GC_UNITS_EUNIT);
  ck_assert_str_eq(err, "expected a time such as \"60 us\", got \"5.5 parsecs\" (units: s, ms, us, \xc2\xb5s, ns)");
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "fast"), GC_UNITS_ENUMBER);
  ck_assert_ptr_nonnull(strstr(err, "expected a time such as \"60 us\", got \"fast\""));
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "5 ms x"), GC_UNITS_EUNIT);
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "5 ms5"), GC_UNITS_EUNIT);
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, ""), GC_UNITS_EEMPTY);
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "   "), GC_UNITS_EEMPTY);
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, NULL), GC_UNITS_EEMPTY);
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "nan"), GC_UNITS_ENUMBER);
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "inf s"), GC_UNITS_ENUMBER);
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "0x10"), GC_UNITS_EUNIT);
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "1e999 s"), GC_UNITS_ERANGE);
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "5 MS"), GC_UNITS_EUNIT);
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_ANY, "1 Gbit/s"), GC_UNITS_EUNIT);
  ck_assert_int_eq(bad(GC_UNIT_BYTES, GC_BOUND_ANY, "8 ms"), GC_UNITS_EUNIT);
  ck_assert_ptr_nonnull(strstr(err, "expected a size such as \"8 KiB\", got \"8 ms\""));
  ck_assert_int_eq(bad(GC_UNIT_BANDWIDTH, GC_BOUND_ANY, "1 Gbit"), GC_UNITS_EUNIT);
  ck_assert_ptr_nonnull(strstr(err, "expected a bandwidth such as \"1 Gbit/s\""));
  ck_assert_int_eq(bad(GC_UNIT_INVBW, GC_BOUND_ANY, "8 ns/s"), GC_UNITS_EUNIT);
  ck_assert_int_eq(bad(GC_UNIT_INVBW, GC_BOUND_ANY, "8 ns/KiB"), GC_UNITS_EUNIT);
  ck_assert_int_eq(bad(GC_UNIT_INVBW, GC_BOUND_ANY, "8 parsecs/B"), GC_UNITS_EUNIT);
  ck_assert_int_eq(bad(GC_UNIT_RATIO, GC_BOUND_ANY, "4 x"), GC_UNITS_EUNIT);
  ck_assert_str_eq(err, "expected a number such as 4.3628, got \"4 x\"");
}
END_TEST

START_TEST(rejects_out_of_bounds) {
  double v = 0;
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_POSITIVE, "0 us"), GC_UNITS_EBOUND);
  ck_assert_str_eq(err, "expected a positive time such as \"60 us\", got \"0 us\"");
  ck_assert_int_eq(bad(GC_UNIT_TIME, GC_BOUND_NONNEG, "-1 ms"), GC_UNITS_EBOUND);
  ck_assert_str_eq(err, "expected a non-negative time such as \"60 us\", got \"-1 ms\"");
  ck_assert_int_eq(gc_units_parse(GC_UNIT_TIME, GC_BOUND_NONNEG, "0", &v, err, sizeof err), 0);
  ck_assert_int_eq(bad(GC_UNIT_INVBW, GC_BOUND_POSITIVE, "0 Gbit/s"), GC_UNITS_EBOUND);
  ck_assert_int_eq(bad(GC_UNIT_INVBW, GC_BOUND_POSITIVE, "-1 Gbit/s"), GC_UNITS_EBOUND);
  ck_assert_int_eq(bad(GC_UNIT_INVBW, GC_BOUND_ANY, "0 Gbit/s"), GC_UNITS_ERANGE);
  ck_assert_int_eq(gc_units_number(GC_UNIT_TIME, GC_BOUND_POSITIVE, -5, &v, err, sizeof err), GC_UNITS_EBOUND);
  ck_assert_str_eq(err, "expected a positive time such as \"60 us\", got -5");
  ck_assert_int_eq(gc_units_number(GC_UNIT_RATIO, GC_BOUND_POSITIVE, NAN, &v, err, sizeof err), GC_UNITS_ERANGE);
  ck_assert_int_eq(gc_units_number(GC_UNIT_RATIO, GC_BOUND_ANY, INFINITY, &v, err, sizeof err), GC_UNITS_ERANGE);
  ck_assert_int_eq(gc_units_parse(GC_UNIT_LAST, GC_BOUND_ANY, "1", &v, err, sizeof err), GC_UNITS_ETYPE);
  ck_assert_int_eq(gc_units_parse(GC_UNIT_TIME, GC_BOUND_ANY, "bad", &v, NULL, 0), GC_UNITS_ENUMBER);
  ck_assert_str_eq(gc_units_strerror(GC_UNITS_EUNIT), "unknown unit");
  ck_assert_str_eq(gc_units_strerror(1), "unknown error");
}
END_TEST

/* What physical sense allows (config/physical.c): both ends of every range inside, the
 * next double beyond either end outside, zero only where the bound allows it, and never a
 * NaN, an infinity or a negative number. */
START_TEST(physical_ranges) {
  static const enum gc_unit units[] = {GC_UNIT_TIME, GC_UNIT_BYTES, GC_UNIT_BANDWIDTH,
                                       GC_UNIT_INVBW, GC_UNIT_RATIO};
  for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
    enum gc_unit u = units[i];
    struct gc_physical_range r = gc_physical_range(u);
    ck_assert(r.lo > 0 && r.lo < r.hi && isfinite(r.hi));
    for (enum gc_bound b = GC_BOUND_ANY; b <= GC_BOUND_POSITIVE; b++) {
      ck_assert(gc_physical_ok(u, b, r.lo) && gc_physical_ok(u, b, r.hi));
      ck_assert(gc_physical_ok(u, b, sqrt(r.lo * r.hi)));
      ck_assert(!gc_physical_ok(u, b, nextafter(r.lo, 0)) && !gc_physical_ok(u, b, nextafter(r.hi, INFINITY)));
      ck_assert(!gc_physical_ok(u, b, NAN) && !gc_physical_ok(u, b, INFINITY) && !gc_physical_ok(u, b, -INFINITY));
      ck_assert(!gc_physical_ok(u, b, 1e308) && !gc_physical_ok(u, b, 4.9e-324) && !gc_physical_ok(u, b, DBL_MAX));
      ck_assert(gc_physical_ok(u, b, -r.lo) == (b == GC_BOUND_ANY)); /* ANY: the magnitude */
      ck_assert(gc_physical_ok(u, b, 0) == (b != GC_BOUND_POSITIVE));
      ck_assert(gc_physical_ok(u, b, -0.0) == (b != GC_BOUND_POSITIVE));
    }
  }
  /* The ends as people write them, parsed by units.c, are inside exactly. */
  double v;
  ck_assert(gc_units_parse(GC_UNIT_INVBW, GC_BOUND_POSITIVE, "1000 Tbit/s", &v, err, sizeof err) == 0 &&
            gc_physical_ok(GC_UNIT_INVBW, GC_BOUND_POSITIVE, v));
  ck_assert(gc_units_parse(GC_UNIT_INVBW, GC_BOUND_POSITIVE, "1 bit/s", &v, err, sizeof err) == 0 &&
            v == 8 && gc_physical_ok(GC_UNIT_INVBW, GC_BOUND_POSITIVE, v));
  ck_assert(gc_units_parse(GC_UNIT_BANDWIDTH, GC_BOUND_POSITIVE, "1 bit/s", &v, err, sizeof err) == 0 &&
            gc_physical_ok(GC_UNIT_BANDWIDTH, GC_BOUND_POSITIVE, v));
  ck_assert(gc_units_parse(GC_UNIT_TIME, GC_BOUND_POSITIVE, "1 ns", &v, err, sizeof err) == 0 &&
            gc_physical_ok(GC_UNIT_TIME, GC_BOUND_POSITIVE, v));
  ck_assert(gc_units_parse(GC_UNIT_BYTES, GC_BOUND_POSITIVE, "8192 TiB", &v, err, sizeof err) == 0 &&
            gc_physical_ok(GC_UNIT_BYTES, GC_BOUND_POSITIVE, v));
  ck_assert(!gc_physical_ok(GC_UNIT_LAST, GC_BOUND_NONNEG, 1) && !gc_physical_ok(GC_UNIT_LAST, GC_BOUND_NONNEG, 0));
  /* The message: the range, and the value as written. */
  ck_assert_int_eq(gc_physical_check(GC_UNIT_TIME, GC_BOUND_POSITIVE, 1e308, "1e+308", err, sizeof err), -1);
  ck_assert_str_eq(err, "expected a time from 1 ns to 1 hour (3600 s), got 1e+308");
  ck_assert_int_eq(gc_physical_check(GC_UNIT_BYTES, GC_BOUND_NONNEG, 0.5, "0.5", err, sizeof err), -1);
  ck_assert_str_eq(err, "expected 0 or a size from 1 B to 2^53 B (8 PiB), got 0.5");
  ck_assert_int_eq(gc_physical_check(GC_UNIT_BANDWIDTH, GC_BOUND_POSITIVE, 0.1, "\"0.8 bit/s\"", err, sizeof err), -1);
  ck_assert_str_eq(err, "expected a bandwidth from 1 bit/s to 1 Pbit/s, got \"0.8 bit/s\"");
  ck_assert_int_eq(gc_physical_check(GC_UNIT_RATIO, GC_BOUND_POSITIVE, 1e5, "100000", err, sizeof err), -1);
  ck_assert_str_eq(err, "expected a ratio from 0.01 to 10000, got 100000");
  ck_assert_int_eq(gc_physical_check(GC_UNIT_RATIO, GC_BOUND_POSITIVE, 1e5, "x", NULL, 0), -1);
  ck_assert_int_eq(gc_physical_check(GC_UNIT_RATIO, GC_BOUND_POSITIVE, 4.3628, "x", err, sizeof err), 0);
}
END_TEST

/* Numbers from libconfig settings, of every type. */
START_TEST(settings) {
  config_t c;
  double v = 0;
  config_init(&c);
  ck_assert(config_read_string(&c, "i = 5; f = 0.5; s = \"8 KiB\"; l = 5000000000L; g = {}; b = true;"));
  config_setting_t *r = config_root_setting(&c);
  ck_assert_int_eq(gc_units_setting(GC_UNIT_BYTES, GC_BOUND_ANY, config_setting_lookup(r, "i"), &v, err, sizeof err), 0);
  ck_assert(v == 5);
  ck_assert_int_eq(gc_units_setting(GC_UNIT_TIME, GC_BOUND_ANY, config_setting_lookup(r, "f"), &v, err, sizeof err), 0);
  ck_assert(v == 0.5);
  ck_assert_int_eq(gc_units_setting(GC_UNIT_BYTES, GC_BOUND_ANY, config_setting_lookup(r, "s"), &v, err, sizeof err), 0);
  ck_assert(v == 8192);
  ck_assert_int_eq(gc_units_setting(GC_UNIT_BYTES, GC_BOUND_ANY, config_setting_lookup(r, "l"), &v, err, sizeof err), 0);
  ck_assert(v == 5e9);
  ck_assert_int_eq(gc_units_setting(GC_UNIT_TIME, GC_BOUND_ANY, config_setting_lookup(r, "g"), &v, err, sizeof err), GC_UNITS_ETYPE);
  ck_assert_str_eq(err, "expected a time such as \"60 us\", got a group");
  ck_assert_int_eq(gc_units_setting(GC_UNIT_TIME, GC_BOUND_ANY, config_setting_lookup(r, "b"), &v, err, sizeof err), GC_UNITS_ETYPE);
  ck_assert_int_eq(gc_units_setting(GC_UNIT_TIME, GC_BOUND_ANY, NULL, &v, err, sizeof err), GC_UNITS_ETYPE);
  config_destroy(&c);
}
END_TEST

static Suite *units_suite(void) {
  Suite *s = suite_create("units");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, time_units);
  tcase_add_test(core, byte_units);
  tcase_add_test(core, bandwidth_units);
  tcase_add_test(core, inverse_bandwidth);
  tcase_add_test(core, ratio_and_numbers);
  tcase_add_test(core, settings);
  tcase_add_test(limits, rejects_garbage);
  tcase_add_test(limits, rejects_out_of_bounds);
  tcase_add_test(limits, physical_ranges);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(units_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
