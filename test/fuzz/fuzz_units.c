/* Fuzz target: the parsers of text people write, with their promises as assertions.
 *
 * Input: one string, given to
 *   gc_units_parse for every unit and bound: on success the value is finite and within
 *     its bound, and printing it with %.17g and parsing that back gives the same double;
 *     on failure a message is written and the output is untouched;
 *   gc_ranges_parse: on success the ranges are ordered lo <= hi, no rank appears twice,
 *     every lo is contained, and gc_ranges_format's text parses back to the same list;
 *   gc_ranges_single on the first 8 bytes as a 64-bit rank.
 * A broken promise calls abort(), which the fuzzer reports like a crash. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"
#include "units.h"

#define CHECK(cond) ((cond) ? (void)0 : (fprintf(stderr, "broken promise: %s\n", #cond), abort()))

static void units(const char *text) {
  for (int u = 0; u < GC_UNIT_LAST; u++)
    for (int b = GC_BOUND_ANY; b <= GC_BOUND_POSITIVE; b++) {
      const double untouched = -12345.0;
      double v = untouched, back = untouched;
      char err[256] = "";
      int rc = gc_units_parse((enum gc_unit)u, (enum gc_bound)b, text, &v, err, sizeof err);
      if (rc != 0) {
        CHECK(rc < 0 && strcmp(gc_units_strerror(rc), "unknown error") != 0);
        CHECK(v == untouched && err[0] != '\0');
        continue;
      }
      CHECK(isfinite(v));
      CHECK(b == GC_BOUND_ANY || (b == GC_BOUND_NONNEG ? v >= 0 : v > 0));
      /* A bare number is in the base unit; an inverse bandwidth >= 1 would be read as
       * a bandwidth (units.h), so only values below 1 round-trip there. */
      if (u == GC_UNIT_INVBW && v >= 1) continue;
      char again[64];
      snprintf(again, sizeof again, "%.17g", v);
      CHECK(gc_units_parse((enum gc_unit)u, GC_BOUND_ANY, again, &back, NULL, 0) == 0);
      CHECK(back == v);
      CHECK(gc_units_number((enum gc_unit)u, GC_BOUND_ANY, v, &back, NULL, 0) == 0 && back == v);
    }
}

static void ranges(const char *text) {
  struct gc_rank_range *r, *again;
  int n, m, at;
  char err[256] = "";
  if (gc_ranges_parse(text, &r, &n, err, sizeof err) != 0) {
    CHECK(r == NULL && n == 0 && err[0] != '\0');
    return;
  }
  CHECK(n >= 1 && r != NULL);
  for (int i = 0; i < n; i++) {
    CHECK(r[i].lo >= 0 && r[i].lo <= r[i].hi);
    CHECK(gc_ranges_contains(r, n, r[i].lo) && gc_ranges_contains(r, n, r[i].hi));
    for (int j = 0; j < i; j++) CHECK(r[i].hi < r[j].lo || r[i].lo > r[j].hi);
  }
  CHECK(gc_ranges_overlap(r, n, r, n, &at) && gc_ranges_contains(r, n, at));
  size_t len = (size_t)n * 24 + 1;
  char *buf = malloc(len);
  CHECK(buf != NULL);
  gc_ranges_format(r, n, buf, len);
  CHECK(gc_ranges_parse(buf, &again, &m, NULL, 0) == 0 && m == n);
  CHECK(memcmp(again, r, (size_t)n * sizeof *r) == 0);
  char small[8];
  gc_ranges_format(r, n, small, sizeof small); /* truncates, never overflows */
  CHECK(strlen(small) < sizeof small);
  free(again);
  free(buf);
  free(r);
}

/* The entry point libFuzzer (or replay.c) calls; no header of theirs declares it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  units(text);
  ranges(text);
  if (size >= 8) {
    int64_t rank;
    struct gc_rank_range *r;
    int n;
    memcpy(&rank, data, sizeof rank);
    int rc = gc_ranges_single(rank, &r, &n, NULL, 0);
    CHECK(rc == 0 ? n == 1 && r[0].lo == rank : r == NULL && n == 0);
    free(r);
  }
  free(text);
  return 0;
}
