/* Quantities with units -> SI. See units.h for the rules. */
#include "units.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* value = number * 10^dexp * 2^bexp. The decimal part goes into the number's exponent
 * before strtod ("4.93 ms" is read as "4.93e-3"), so the result is the double nearest
 * the written value; the binary part (KiB, bits) is exact. */
struct unit_row {
  const char *sym;
  int dexp, bexp;
};

#define MU "\xc2\xb5" /* U+00B5 MICRO SIGN in UTF-8 */
#define GREEK_MU "\xce\xbc"

static const struct unit_row time_units[] = {
    {"s", 0, 0},   {"ms", -3, 0},          {"us", -6, 0}, {MU "s", -6, 0},
    {GREEK_MU "s", -6, 0}, {"ns", -9, 0}, {NULL, 0, 0}};

static const struct unit_row byte_units[] = {
    {"B", 0, 0},    {"byte", 0, 0},  {"bytes", 0, 0}, {"kB", 3, 0},    {"KB", 3, 0},
    {"MB", 6, 0},   {"GB", 9, 0},    {"TB", 12, 0},   {"KiB", 0, 10},  {"MiB", 0, 20},
    {"GiB", 0, 30}, {"TiB", 0, 40},  {NULL, 0, 0}};

static const struct unit_row bandwidth_units[] = {
    {"bit/s", 0, -3},  {"kbit/s", 3, -3}, {"Kbit/s", 3, -3}, {"Mbit/s", 6, -3},
    {"Gbit/s", 9, -3}, {"Tbit/s", 12, -3}, {"bps", 0, -3},   {"kbps", 3, -3},
    {"Kbps", 3, -3},   {"Mbps", 6, -3},   {"Gbps", 9, -3},   {"Tbps", 12, -3},
    {"B/s", 0, 0},     {"kB/s", 3, 0},    {"KB/s", 3, 0},    {"MB/s", 6, 0},
    {"GB/s", 9, 0},    {"KiB/s", 0, 10},  {"MiB/s", 0, 20},  {"GiB/s", 0, 30},
    {NULL, 0, 0}};

struct unit_kind {
  const char *noun;    /* "time" */
  const char *example; /* "\"60 us\"" */
  const char *units;   /* listed after an unknown unit */
};

static const struct unit_kind kinds[GC_UNIT_LAST] = {
    [GC_UNIT_TIME] = {"time", "\"60 us\"", "s, ms, us, " MU "s, ns"},
    [GC_UNIT_BYTES] = {"size", "\"8 KiB\"", "B, kB, KB, MB, GB, KiB, MiB, GiB"},
    [GC_UNIT_BANDWIDTH] = {"bandwidth", "\"1 Gbit/s\"",
                           "bit/s, kbit/s, Mbit/s, Gbit/s, kbps, Mbps, Gbps, "
                           "B/s, kB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s"},
    [GC_UNIT_INVBW] = {"bandwidth", "\"1 Gbit/s\" or an inverse bandwidth such as \"8 ns/B\"",
                       "Gbit/s, Mbit/s, Gbps, MB/s, GiB/s... or s/B, ms/B, us/B, ns/B"},
    [GC_UNIT_RATIO] = {"number", "4.3628", NULL},
};

const char *gc_units_strerror(int code) {
  switch (code) {
#define GC_UNITS_STR(name, c, text) \
  case name:                        \
    return text;
    GC_UNITS_ERRNO_MAP(GC_UNITS_STR)
#undef GC_UNITS_STR
  case 0:
    return "success";
  }
  return "unknown error";
}

/* "expected a positive time such as "60 us", got <got><tail>" */
static int fail(int code, enum gc_unit unit, enum gc_bound bound, const char *got, int with_units,
                char *err, size_t errlen) {
  const struct unit_kind *k = &kinds[unit];
  const char *adj = bound == GC_BOUND_POSITIVE ? "positive " : bound == GC_BOUND_NONNEG ? "non-negative " : "";
  if (err && errlen) {
    int n = snprintf(err, errlen, "expected a %s%s such as %s, got %s", adj, k->noun, k->example, got);
    if (with_units && k->units && n >= 0 && (size_t)n < errlen)
      snprintf(err + n, errlen - (size_t)n, " (units: %s)", k->units);
  }
  return code;
}

/* A decimal number as written: mantissa text and decimal exponent. strtod alone would
 * also take "nan", "inf", hex and only the locale's decimal point. */
struct number {
  const char *mant;
  size_t mlen; /* mantissa: sign, digits, point */
  long exp;    /* value of the "e-3" part */
  size_t len;  /* characters consumed */
};

static int scan_number(const char *s, struct number *n) {
  size_t i = 0, digits = 0;
  n->mant = s;
  n->exp = 0;
  if (s[i] == '+' || s[i] == '-') i++;
  while (isdigit((unsigned char)s[i])) i++, digits++;
  if (s[i] == '.') {
    i++;
    while (isdigit((unsigned char)s[i])) i++, digits++;
  }
  if (!digits || i > 80) return -1;
  n->mlen = i;
  if (s[i] == 'e' || s[i] == 'E') {
    size_t j = i + 1;
    int neg = s[j] == '-';
    if (s[j] == '+' || s[j] == '-') j++;
    if (isdigit((unsigned char)s[j])) {
      for (; isdigit((unsigned char)s[j]); j++)
        if (n->exp < 100000) n->exp = n->exp * 10 + (s[j] - '0');
      n->exp = neg ? -n->exp : n->exp;
      i = j;
    }
  }
  n->len = i;
  return 0;
}

/* The number times 10^dexp, rounded once, whatever the locale's decimal point. */
static double to_double(const struct number *n, int dexp) {
  char buf[128];
  const char *dp = localeconv()->decimal_point;
  size_t dl = dp && *dp ? strlen(dp) : 1, o = 0;
  for (size_t i = 0; i < n->mlen && o + dl + 1 < 100; i++) {
    if (n->mant[i] == '.' && dp && *dp) {
      memcpy(buf + o, dp, dl);
      o += dl;
    } else {
      buf[o++] = n->mant[i];
    }
  }
  snprintf(buf + o, sizeof buf - o, "e%ld", n->exp + dexp);
  return strtod(buf, NULL);
}

static const struct unit_row *find_unit(const struct unit_row *t, const char *sym, size_t len) {
  for (; t->sym; t++)
    if (strlen(t->sym) == len && memcmp(t->sym, sym, len) == 0) return t;
  return NULL;
}

static int in_bound(double v, enum gc_bound bound) {
  return bound == GC_BOUND_ANY || (bound == GC_BOUND_NONNEG ? v >= 0 : v > 0);
}

/* A bare number in the unit's base; for GC_UNIT_INVBW the >= 1 rule of units.h. */
static double base_value(enum gc_unit unit, double v) {
  return unit == GC_UNIT_INVBW && v >= 1 ? 1.0 / v : v;
}

static double scaled(const struct number *n, const struct unit_row *r) {
  return ldexp(to_double(n, r->dexp), r->bexp);
}

/* Apply the unit symbol [sym, sym+len) to n; 0 or GC_UNITS_EUNIT. */
static int apply_unit(enum gc_unit unit, const struct number *n, const char *sym, size_t len,
                      double *out) {
  const struct unit_row *r = NULL;
  switch (unit) {
  case GC_UNIT_TIME: r = find_unit(time_units, sym, len); break;
  case GC_UNIT_BYTES: r = find_unit(byte_units, sym, len); break;
  case GC_UNIT_BANDWIDTH: r = find_unit(bandwidth_units, sym, len); break;
  case GC_UNIT_INVBW: {
    const char *slash = memchr(sym, '/', len);
    if ((r = find_unit(bandwidth_units, sym, len))) {
      *out = 1.0 / scaled(n, r);
      return 0;
    }
    if (!slash) return GC_UNITS_EUNIT;
    const struct unit_row *per = find_unit(byte_units, slash + 1, len - (size_t)(slash - sym) - 1);
    if (!per || per->dexp || per->bexp) return GC_UNITS_EUNIT; /* s/B or s/byte only */
    r = find_unit(time_units, sym, (size_t)(slash - sym));
    break;
  }
  default: break;
  }
  if (!r) return GC_UNITS_EUNIT;
  *out = scaled(n, r);
  return 0;
}

int gc_units_parse(enum gc_unit unit, enum gc_bound bound, const char *text, double *out,
                   char *err, size_t errlen) {
  char got[160];
  if ((unsigned)unit >= GC_UNIT_LAST) return GC_UNITS_ETYPE;
  snprintf(got, sizeof got, "\"%s\"", text ? text : "");
  if (!text) return fail(GC_UNITS_EEMPTY, unit, bound, got, 0, err, errlen);
  const char *p = text;
  while (isspace((unsigned char)*p)) p++;
  if (!*p) return fail(GC_UNITS_EEMPTY, unit, bound, got, 0, err, errlen);
  struct number num;
  if (scan_number(p, &num) < 0) return fail(GC_UNITS_ENUMBER, unit, bound, got, 1, err, errlen);
  static const struct unit_row plain = {"", 0, 0};
  double v = scaled(&num, &plain), r;
  if (!isfinite(v)) return fail(GC_UNITS_ERANGE, unit, bound, got, 0, err, errlen);
  const char *sym = p + num.len;
  while (isspace((unsigned char)*sym)) sym++;
  size_t sl = strlen(sym);
  while (sl && isspace((unsigned char)sym[sl - 1])) sl--;
  if (!sl)
    r = base_value(unit, v);
  else if (apply_unit(unit, &num, sym, sl, &r) < 0)
    return fail(GC_UNITS_EUNIT, unit, bound, got, 1, err, errlen);
  if (!isfinite(r)) /* "0 Gbit/s" as an inverse bandwidth, or an overflow */
    return fail(bound != GC_BOUND_ANY ? GC_UNITS_EBOUND : GC_UNITS_ERANGE, unit, bound, got, 0, err,
                errlen);
  if (!in_bound(r, bound)) return fail(GC_UNITS_EBOUND, unit, bound, got, 0, err, errlen);
  *out = r;
  return 0;
}

int gc_units_number(enum gc_unit unit, enum gc_bound bound, double value, double *out, char *err,
                    size_t errlen) {
  char got[64];
  if ((unsigned)unit >= GC_UNIT_LAST) return GC_UNITS_ETYPE;
  snprintf(got, sizeof got, "%g", value);
  if (!isfinite(value)) return fail(GC_UNITS_ERANGE, unit, bound, got, 0, err, errlen);
  double r = base_value(unit, value);
  if (!in_bound(r, bound)) return fail(GC_UNITS_EBOUND, unit, bound, got, 0, err, errlen);
  *out = r;
  return 0;
}

const char *gc_units_type_name(const config_setting_t *s) {
  switch (s ? config_setting_type(s) : CONFIG_TYPE_NONE) {
  case CONFIG_TYPE_GROUP: return "a group";
  case CONFIG_TYPE_INT: return "an integer";
  case CONFIG_TYPE_INT64: return "a 64-bit integer";
  case CONFIG_TYPE_FLOAT: return "a floating-point number";
  case CONFIG_TYPE_STRING: return "a string";
  case CONFIG_TYPE_BOOL: return "a boolean";
  case CONFIG_TYPE_ARRAY: return "an array";
  case CONFIG_TYPE_LIST: return "a list";
  }
  return "nothing";
}

int gc_units_setting(enum gc_unit unit, enum gc_bound bound, const config_setting_t *s,
                     double *out, char *err, size_t errlen) {
  if ((unsigned)unit >= GC_UNIT_LAST) return GC_UNITS_ETYPE;
  switch (s ? config_setting_type(s) : CONFIG_TYPE_NONE) {
  /* config_setting_get_float() reads integers as 0 unless auto-conversion is on. */
  case CONFIG_TYPE_INT:
    return gc_units_number(unit, bound, config_setting_get_int(s), out, err, errlen);
  case CONFIG_TYPE_INT64:
    return gc_units_number(unit, bound, (double)config_setting_get_int64(s), out, err, errlen);
  case CONFIG_TYPE_FLOAT:
    return gc_units_number(unit, bound, config_setting_get_float(s), out, err, errlen);
  case CONFIG_TYPE_STRING:
    return gc_units_parse(unit, bound, config_setting_get_string(s), out, err, errlen);
  }
  return fail(GC_UNITS_ETYPE, unit, bound, gc_units_type_name(s), 0, err, errlen);
}
