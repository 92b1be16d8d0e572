/* Physical quantities written by people: "60 us", "1 Gbit/s", "8 KiB", turned into SI.
 *
 * Every value comes back in an SI base unit: seconds, bytes, bytes per second, seconds
 * per byte. A plain number (from libconfig, or a string holding only a number) is
 * already in that base unit, with one exception: an inverse bandwidth (the Hockney
 * beta) given as a plain number is read as a bandwidth in bytes/s when it is >= 1 and
 * as seconds per byte when it is < 1, because no real link moves less than one byte
 * per second and no real link needs a whole second per byte, so the two readings never
 * collide.  Write a unit ("1 Gbit/s", "8 ns/B") to leave no doubt.
 *
 * Numbers are parsed the same way whatever the program's locale: '.' is the decimal
 * point, NaN, infinities and hexadecimal are refused. */
#ifndef GC_UNITS_H
#define GC_UNITS_H

#include <stddef.h>
#include <libconfig.h>

enum gc_unit {
  GC_UNIT_TIME,      /* s, ms, us, µs, ns */
  GC_UNIT_BYTES,     /* B, kB = KB = 1000, MB, GB, KiB, MiB, GiB */
  GC_UNIT_BANDWIDTH, /* bytes/s: bit/s, kbit/s, Mbit/s, Gbit/s, bps .. Gbps, B/s, kB/s .. GiB/s */
  GC_UNIT_INVBW,     /* s/byte: any bandwidth (inverted), or "8 ns/B", "8e-9 s/byte" */
  GC_UNIT_RATIO,     /* a bare number */
  GC_UNIT_LAST
};

/* What a value must be besides well-formed. */
enum gc_bound { GC_BOUND_ANY, GC_BOUND_NONNEG, GC_BOUND_POSITIVE };

/* Status codes; gc_units_strerror() names them. */
#define GC_UNITS_ERRNO_MAP(X)                                 \
  X(GC_UNITS_EEMPTY, -1, "empty value")                       \
  X(GC_UNITS_ENUMBER, -2, "not a number")                     \
  X(GC_UNITS_EUNIT, -3, "unknown unit")                       \
  X(GC_UNITS_ERANGE, -4, "not a finite number")               \
  X(GC_UNITS_EBOUND, -5, "out of range")                      \
  X(GC_UNITS_ETYPE, -6, "neither a number nor a string")

enum {
#define GC_UNITS_ENUM(name, code, text) name = code,
  GC_UNITS_ERRNO_MAP(GC_UNITS_ENUM)
#undef GC_UNITS_ENUM
};

const char *gc_units_strerror(int code);

/* Parse `text` as a quantity of `unit` within `bound`. Returns 0 with *out in SI, or a
 * negative GC_UNITS_E* code with a message fragment in err such as
 *   expected a time such as "60 us", got "5.5 parsecs" (units: s, ms, us, µs, ns)
 * (err may be NULL). *out is untouched on error. */
int gc_units_parse(enum gc_unit unit, enum gc_bound bound, const char *text, double *out,
                   char *err, size_t errlen);

/* Same for a plain number (what libconfig gives for 5 or 5.5). */
int gc_units_number(enum gc_unit unit, enum gc_bound bound, double value, double *out,
                    char *err, size_t errlen);

/* Same for a libconfig setting holding a number or a string; any other type is refused
 * with GC_UNITS_ETYPE ("..., got a group"). */
int gc_units_setting(enum gc_unit unit, enum gc_bound bound, const config_setting_t *s,
                     double *out, char *err, size_t errlen);

/* "a group", "a string", "an integer"...: the type of a setting, for messages. */
const char *gc_units_type_name(const config_setting_t *s);

#endif
