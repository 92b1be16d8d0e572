/* A first pass over a configuration file's bytes, before libconfig sees them.
 *
 * libconfig 1.5 stops at a NUL byte without a word, reports an unclosed string where
 * the file ends, counts only '\n' as a line end, and checks every new setting of a group
 * against all earlier ones (a file of 50,000 keys takes minutes to parse). One tokenizer
 * pass, linear in the file, catches all of these with the line where they start, and
 * finds the top-level `strict` and `verbose` of a file that libconfig will refuse: a
 * broken file still says whether it must abort and how loud gridcoll may be.
 * It also refuses an integer beyond 32 bits written without an L suffix, which libconfig
 * 1.5 would read wrapped around without a word (wraps_around).
 * Tokens follow libconfig's scanner: # and // comments to the line end, / * * / comments,
 * strings in double quotes with backslash escapes, a name followed by '=' or ':'. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "config_internal.h"

struct scan {
  char *p, *end;
  int line;
  int err_line; /* first problem's line, 0 when none */
  char *err;
  size_t errlen;
};

static void problem(struct scan *s, int line, const char *what) {
  if (s->err_line) return; /* the first problem is the one a person fixes first */
  s->err_line = line;
  snprintf(s->err, s->errlen, "%d: %s", line, what);
}

/* A line end at p (libconfig after the rewrite below sees each as one '\n'): "\r\n"
 * counts once, a lone '\r' (old Mac files) becomes '\n' so that libconfig's line numbers
 * match ours. Returns the bytes it spans, 0 when p is not a line end. */
static int line_end(struct scan *s, char *p) {
  if (*p == '\n') return 1;
  if (*p != '\r') return 0;
  if (p + 1 < s->end && p[1] == '\n') return 2;
  *p = '\n';
  return 1;
}

/* Skips blanks, line ends and comments; 0, or -1 at a comment that never closes. */
static int skip_space(struct scan *s) {
  while (s->p < s->end) {
    int n = line_end(s, s->p);
    if (n) {
      s->p += n, s->line++;
    } else if (*s->p == ' ' || *s->p == '\t' || *s->p == '\f' || *s->p == '\v') {
      s->p++;
    } else if (*s->p == '#' || (*s->p == '/' && s->p + 1 < s->end && s->p[1] == '/')) {
      while (s->p < s->end && *s->p != '\n' && *s->p != '\r') s->p++;
    } else if (*s->p == '/' && s->p + 1 < s->end && s->p[1] == '*') {
      int start = s->line;
      for (s->p += 2; s->p < s->end && !(*s->p == '*' && s->p + 1 < s->end && s->p[1] == '/');) {
        int m = line_end(s, s->p);
        s->line += m > 0;
        s->p += m ? m : 1;
      }
      if (s->p >= s->end) {
        problem(s, start, "a comment opened here with /* is never closed");
        return -1;
      }
      s->p += 2;
    } else {
      return 0;
    }
  }
  return 0;
}

static int word_char(char c) {
  return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '*' || c == '.' || c == '+';
}

/* 1 when the word w[0..n) is an integer libconfig 1.5 reads as a 32-bit int (no L suffix)
 * but whose value an int cannot hold: libconfig reads it wrapped around, silently
 * (4294967296 as 0, 2147483648 as -2147483648, 0xFFFFFFFF as -1), so a window of 4 GiB
 * written in bytes would become "no window". Decimal with an optional sign, or hex. */
static int wraps_around(const char *w, size_t n) {
  size_t i = 0;
  unsigned long long v = 0;
  if (n > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
    for (i = 2; i < n; i++) {
      if (!isxdigit((unsigned char)w[i])) return 0; /* not a plain hex integer (0x1L...) */
      int d = isdigit((unsigned char)w[i]) ? w[i] - '0' : tolower((unsigned char)w[i]) - 'a' + 10;
      if (v <= 0x7fffffffULL) v = v * 16 + (unsigned)d;
    }
    return v > 0x7fffffffULL;
  }
  int negative = n > 0 && w[0] == '-';
  if (n > 0 && (w[0] == '-' || w[0] == '+')) i = 1;
  if (i == n) return 0;
  for (; i < n; i++) {
    if (!isdigit((unsigned char)w[i])) return 0; /* a float, a name, a 64-bit 5L */
    if (v <= 0x80000000ULL) v = v * 10 + (unsigned)(w[i] - '0');
  }
  return v > 0x80000000ULL || (v == 0x80000000ULL && !negative);
}

/* An open bracket: the setting it is the value of (NULL for an element of a list), and,
 * for a list or an array, the element being read. */
struct frame {
  const char *name;
  size_t len;
  int list, index;
};

/* The loader's name of the value read next: "network.wan.latency[0][1]", "clusters[0].ranks".
 * key: the setting whose value it is, NULL for an element of the innermost list. */
static const char *key_path(const struct frame *f, int depth, const char *key, size_t klen,
                            char *buf, size_t len) {
  size_t o = 0;
  buf[0] = '\0';
  if (depth >= GC_CONFIG_SCAN_DEPTH) depth = GC_CONFIG_SCAN_DEPTH - 1;
  for (int d = 1; d <= depth + 1 && o < len; d++) {
    const char *name = d <= depth ? f[d].name : key;
    size_t n = d <= depth ? f[d].len : klen;
    int r;
    if (name)
      r = snprintf(buf + o, len - o, "%s%.*s", o ? "." : "", (int)(n < 64 ? n : 64), name);
    else if (f[d - 1].list)
      r = snprintf(buf + o, len - o, "[%d]", f[d - 1].index);
    else
      r = 0;
    o += r > 0 ? (size_t)r : 0;
  }
  return buf;
}

int gc_config_scan(char *text, size_t len, struct gc_config_scan *out, char *err, size_t errlen) {
  struct scan s = {.p = text, .end = text + len, .line = 1, .err = err, .errlen = errlen};
  int group[GC_CONFIG_SCAN_DEPTH] = {0}; /* named settings in each open group */
  int depth = 0, total = 0;
  const char *word = NULL; /* the word just read, when the previous token was one */
  size_t wlen = 0;
  struct frame frames[GC_CONFIG_SCAN_DEPTH] = {{0}}; /* what each open bracket belongs to */
  const char *key = NULL; /* a setting's name whose value comes next */
  size_t klen = 0;
  enum { NONE, STRICT, VERBOSE } want = NONE; /* a top-level key's value comes next */
  out->strict = 0, out->verbose = -1;
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
    problem(&s, 1, "the file starts with a UTF-8 byte-order mark (bytes EF BB BF), which "
            "libconfig cannot read: save it as plain UTF-8 without a BOM");
    s.p += 3; /* go on: strict and verbose are still wanted */
  }
  for (;;) {
    if (skip_space(&s) < 0 || s.p >= s.end) break;
    char c = *s.p;
    int line = s.line;
    if (c == '\0') {
      problem(&s, line, "a NUL byte: a configuration file is text, and libconfig would ignore "
              "everything after it");
      s.p++;
      word = NULL, want = NONE;
    } else if (c == '"') {
      for (s.p++; s.p < s.end && *s.p != '"'; s.p++) {
        if (*s.p == '\\' && s.p + 1 < s.end) s.p++;
        if (*s.p == '\n') s.line++; /* inside a string a '\r' stays what it is */
        if (*s.p == '\0') problem(&s, s.line, "a NUL byte: a configuration file is text, and "
                                  "libconfig would ignore everything after it");
      }
      if (s.p >= s.end) {
        problem(&s, line, "a string opened here is never closed (a missing \")");
        break;
      }
      s.p++;
      word = NULL, want = NONE, key = NULL;
    } else if (word_char(c)) {
      const char *w = s.p;
      while (s.p < s.end && word_char(*s.p)) s.p++;
      size_t n = (size_t)(s.p - w);
      if (want == STRICT)
        out->strict = (n == 4 && strncasecmp(w, "true", 4) == 0) || (n == 1 && *w == '1');
      else if (want == VERBOSE && n == 1 && *w >= '0' && *w <= '3')
        out->verbose = *w - '0';
      want = NONE;
      if (wraps_around(w, n)) {
        char msg[GC_ERR_MAX], path[256];
        snprintf(msg, sizeof msg, "%s: the integer %.*s does not fit in 32 bits, and libconfig "
                 "would read it wrapped around: write %.*sL (a 64-bit integer), or a string with "
                 "its unit such as \"8 GiB\"", key_path(frames, depth, key, klen, path, sizeof path),
                 (int)(n < 64 ? n : 64), w, (int)(n < 64 ? n : 64), w);
        problem(&s, line, msg);
      }
      key = NULL;
      word = w, wlen = n;
    } else {
      s.p++;
      if ((c == '=' || c == ':') && word) {
        int *g = &group[depth < GC_CONFIG_SCAN_DEPTH ? depth : GC_CONFIG_SCAN_DEPTH - 1];
        char msg[160];
        if (++*g > GC_CONFIG_MAX_GROUP) {
          snprintf(msg, sizeof msg, "more than %d settings in one group (gridcoll's groups have "
                   "far fewer keys); the file is refused before parsing", GC_CONFIG_MAX_GROUP);
          problem(&s, line, msg);
        }
        if (++total == GC_CONFIG_MAX_SETTINGS + 1) {
          snprintf(msg, sizeof msg, "more than %d settings in the file; the file is refused "
                   "before parsing", GC_CONFIG_MAX_SETTINGS);
          problem(&s, line, msg);
        }
        key = word, klen = wlen;
        if (depth == 0 && wlen == 6 && strncmp(word, "strict", 6) == 0) want = STRICT;
        if (depth == 0 && wlen == 7 && strncmp(word, "verbose", 7) == 0) want = VERBOSE;
        word = NULL;
        continue;
      }
      if (c == '{' || c == '(' || c == '[') {
        if (++depth < GC_CONFIG_SCAN_DEPTH) {
          group[depth] = 0;
          frames[depth] = (struct frame){key, klen, c != '{', 0};
        }
      } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
        depth--;
      } else if (c == ',' && depth < GC_CONFIG_SCAN_DEPTH) {
        frames[depth].index++;
      }
      word = NULL, want = NONE, key = NULL;
    }
  }
  return s.err_line ? -1 : 0;
}
