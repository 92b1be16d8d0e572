/* A first pass over a configuration file's bytes, before libconfig sees them.
 *
 * libconfig 1.5 stops at a NUL byte without a word, reports an unclosed string where
 * the file ends, counts only '\n' as a line end, and checks every new setting of a group
 * against all earlier ones (a file of 50,000 keys takes minutes to parse). One tokenizer
 * pass, linear in the file, catches all of these with the line where they start, and
 * finds the top-level `strict` and `verbose` of a file that libconfig will refuse: a
 * broken file still says whether it must abort and how loud gridcoll may be.
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

int gc_config_scan(char *text, size_t len, struct gc_config_scan *out, char *err, size_t errlen) {
  struct scan s = {.p = text, .end = text + len, .line = 1, .err = err, .errlen = errlen};
  int group[GC_CONFIG_SCAN_DEPTH] = {0}; /* named settings in each open group */
  int depth = 0, total = 0;
  const char *word = NULL; /* the word just read, when the previous token was one */
  size_t wlen = 0;
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
      word = NULL, want = NONE;
    } else if (word_char(c)) {
      const char *w = s.p;
      while (s.p < s.end && word_char(*s.p)) s.p++;
      size_t n = (size_t)(s.p - w);
      if (want == STRICT)
        out->strict = (n == 4 && strncasecmp(w, "true", 4) == 0) || (n == 1 && *w == '1');
      else if (want == VERBOSE && n == 1 && *w >= '0' && *w <= '3')
        out->verbose = *w - '0';
      want = NONE;
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
        if (depth == 0 && wlen == 6 && strncmp(word, "strict", 6) == 0) want = STRICT;
        if (depth == 0 && wlen == 7 && strncmp(word, "verbose", 7) == 0) want = VERBOSE;
        word = NULL;
        continue;
      }
      if (c == '{' || c == '(' || c == '[') {
        if (++depth < GC_CONFIG_SCAN_DEPTH) group[depth] = 0;
      } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
        depth--;
      }
      word = NULL, want = NONE;
    }
  }
  return s.err_line ? -1 : 0;
}
