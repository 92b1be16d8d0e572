/* Rank lists "0-3,8,10-11". See ranges.h. */
#include "ranges.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPECT "expected rank ranges such as \"0-3,8,10-11\""

static int fail(const char *text, const char *why, char *err, size_t errlen) {
  if (err && errlen) snprintf(err, errlen, EXPECT ", got \"%s\" (%s)", text, why);
  return -1;
}

/* Nothing wrong with the text: the caller must not present it as a syntax error. */
static int no_memory(char *err, size_t errlen) {
  if (err && errlen) snprintf(err, errlen, "out of memory");
  return GC_RANGES_NO_MEMORY;
}

static const char *skip_blanks(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

/* A non-negative int at *pp; advances *pp. 0, or -1 with why set. */
static int scan_rank(const char **pp, int *v, const char **why) {
  const char *p = skip_blanks(*pp);
  long long x = 0;
  if (*p == '-') return *why = "ranks are never negative", -1;
  if (!isdigit((unsigned char)*p)) return *why = "a rank is a non-negative integer", -1;
  while (isdigit((unsigned char)*p)) {
    x = x * 10 + (*p++ - '0');
    if (x > INT_MAX) return *why = "rank too large", -1;
  }
  *v = (int)x;
  *pp = skip_blanks(p);
  return 0;
}

static int cmp_range(const void *a, const void *b) {
  const struct gc_rank_range *x = a, *y = b;
  return (x->lo > y->lo) - (x->lo < y->lo);
}

int gc_ranges_parse(const char *text, struct gc_rank_range **out, int *n, char *err, size_t errlen) {
  const char *p = text, *why = NULL;
  int cap = 1, count = 0;
  char detail[96];
  *out = NULL;
  *n = 0;
  if (!text || !*skip_blanks(text)) return fail(text ? text : "", "empty", err, errlen);
  for (const char *q = text; *q; q++) cap += *q == ',';
  struct gc_rank_range *r = malloc((size_t)cap * sizeof *r);
  if (!r) return no_memory(err, errlen);
  for (;;) {
    int lo, hi;
    if (scan_rank(&p, &lo, &why) < 0) goto bad;
    hi = lo;
    if (*p == '-') {
      p++;
      if (scan_rank(&p, &hi, &why) < 0) goto bad;
      if (hi < lo) {
        snprintf(detail, sizeof detail, "range %d-%d is reversed", lo, hi);
        why = detail;
        goto bad;
      }
    }
    r[count].lo = lo;
    r[count++].hi = hi;
    if (!*p) break;
    if (*p != ',') {
      why = "items are separated by commas";
      goto bad;
    }
    p++;
  }
  /* Sorted copy to find a rank written twice. */
  struct gc_rank_range *s = malloc((size_t)count * sizeof *s);
  if (!s) {
    free(r);
    return no_memory(err, errlen);
  }
  memcpy(s, r, (size_t)count * sizeof *s);
  qsort(s, (size_t)count, sizeof *s, cmp_range);
  for (int i = 1; i < count; i++)
    if (s[i].lo <= s[i - 1].hi) {
      snprintf(detail, sizeof detail, "rank %d appears twice", s[i].lo);
      free(s);
      why = detail;
      goto bad;
    }
  free(s);
  *out = r;
  *n = count;
  return 0;
bad:
  free(r);
  return fail(text, why, err, errlen);
}

int gc_ranges_single(long long rank, struct gc_rank_range **out, int *n, char *err, size_t errlen) {
  char got[32];
  *out = NULL;
  *n = 0;
  snprintf(got, sizeof got, "%lld", rank);
  if (rank < 0) return fail(got, "ranks are never negative", err, errlen);
  if (rank > INT_MAX) return fail(got, "rank too large", err, errlen);
  if (!(*out = malloc(sizeof **out))) return no_memory(err, errlen);
  (*out)->lo = (*out)->hi = (int)rank;
  *n = 1;
  return 0;
}

int gc_ranges_contains(const struct gc_rank_range *r, int n, int rank) {
  for (int i = 0; i < n; i++)
    if (rank >= r[i].lo && rank <= r[i].hi) return 1;
  return 0;
}

int gc_ranges_overlap(const struct gc_rank_range *a, int na, const struct gc_rank_range *b, int nb,
                      int *rank) {
  int found = 0, best = INT_MAX;
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++) {
      int lo = a[i].lo > b[j].lo ? a[i].lo : b[j].lo;
      int hi = a[i].hi < b[j].hi ? a[i].hi : b[j].hi;
      if (lo <= hi && lo <= best) found = 1, best = lo;
    }
  if (found && rank) *rank = best;
  return found;
}

char *gc_ranges_format(const struct gc_rank_range *r, int n, char *buf, size_t len) {
  size_t o = 0;
  if (!len) return buf;
  buf[0] = '\0';
  for (int i = 0; i < n && o < len; i++) {
    int w = r[i].lo == r[i].hi ? snprintf(buf + o, len - o, "%s%d", i ? "," : "", r[i].lo)
                               : snprintf(buf + o, len - o, "%s%d-%d", i ? "," : "", r[i].lo, r[i].hi);
    if (w < 0) break;
    o += (size_t)w;
  }
  return buf;
}
