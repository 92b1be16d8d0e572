/* Reading a configuration file: libconfig parses, the key tables check. */
#include <errno.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_internal.h"

/* The whole file in memory: libconfig's own reader exits the process on a read error
 * (flex's "input in flex scanner failed", for a directory), which a library inside
 * someone else's program must never do. */
static char *slurp(struct gc_loader *ld, const char *path) {
  FILE *f = fopen(path, "r");
  char *buf = NULL;
  size_t len = 0, cap = 0;
  if (!f) goto fail;
  for (;;) {
    if (cap - len < 4096) {
      char *b = cap > ((size_t)1 << 26) ? NULL : realloc(buf, cap ? 2 * cap : 8192);
      if (!b) {
        errno = ENOMEM;
        goto fail;
      }
      buf = b, cap = cap ? 2 * cap : 8192;
    }
    size_t n = fread(buf + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0) break;
  }
  if (ferror(f)) goto fail;
  fclose(f);
  buf[len] = '\0';
  return buf;
fail:
  snprintf(ld->err, ld->errlen, "%s: cannot read the configuration file: %s", path, strerror(errno));
  if (f) fclose(f);
  free(buf);
  return NULL;
}

/* Line of the first "@include" directive, 0 when none. libconfig opens the named file
 * with its own reader, which exits the process on a read error ("@include \"/\"", a
 * directory) and blocks on a FIFO or "/dev/stdin" (the MPI program's input). libconfig 1.5
 * has no hook to vet the file, so the directive is refused: found with the scanner's own
 * rule (a line's first word after blanks), also inside a comment or a string, which only
 * costs a clear message on a file nobody writes. */
static int include_line(const char *text) {
  int line = 1;
  for (const char *p = text; *p; line++) {
    while (*p == ' ' || *p == '\t') p++;
    if (strncmp(p, "@include", 8) == 0) return line;
    p += strcspn(p, "\n");
    if (*p) p++;
  }
  return 0;
}

static int load(struct gc_loader *ld, config_t *lc, const char *path) {
  char *text = slurp(ld, path);
  if (!text) return -1;
  int inc = include_line(text);
  if (inc) {
    free(text);
    snprintf(ld->err, ld->errlen, "%s:%d: @include is not supported: write the whole "
             "configuration in one file", path, inc);
    return -1;
  }
  int ok = config_read_string(lc, text);
  free(text);
  if (!ok) {
    snprintf(ld->err, ld->errlen, "%s:%d: %s (not valid libconfig syntax: settings are written "
             "`key = value;`, groups `{ ... }`, lists `( ... )`, strings in double quotes)",
             path, config_error_line(lc), config_error_text(lc));
    return -1;
  }
  if (gc_config_walk(ld, config_root_setting(lc), "", ld->cfg, gc_config_top_keys) < 0) return -1;
  if (gc_config_load_clusters(ld) < 0) return -1;
  return gc_config_load_wan(ld);
}

int gc_config_load(struct gc_config *cfg, const char *path, const struct gc_config_names *names,
                   char *err, size_t errlen) {
  char scratch[GC_ERR_MAX];
  struct gc_loader ld = {.cfg = cfg, .file = path, .names = names, .err = err, .errlen = errlen};
  config_t lc;
  if (!err || !errlen) ld.err = scratch, ld.errlen = sizeof scratch;
  gc_config_free(cfg);
  if (!path) {
    snprintf(ld.err, ld.errlen, "(null): no configuration file named");
    return -1;
  }
  config_init(&lc);
  int rc = load(&ld, &lc, path);
  config_destroy(&lc);
  if (rc == 0 && !(cfg->path = gc_strdup(path))) {
    snprintf(ld.err, ld.errlen, "%s: out of memory", path);
    rc = -1;
  }
  if (rc < 0) gc_config_free(cfg);
  return rc < 0 ? -1 : 0;
}

/* Crude on purpose: the file may not parse at all. A word "strict", then '=' or ':',
 * then "true" (any case) or 1, on a line whose # or // comment has been cut off. */
static int line_says_strict(char *line) {
  int quoted = 0;
  for (char *p = line; *p; p++) {
    if (*p == '"') quoted = !quoted;
    if (!quoted && (*p == '#' || (p[0] == '/' && p[1] == '/'))) {
      *p = '\0';
      break;
    }
  }
  for (char *p = strstr(line, "strict"); p; p = strstr(p + 1, "strict")) {
    if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '-' || p[-1] == '.'))
      continue;
    char *q = p + 6;
    while (*q == ' ' || *q == '\t') q++;
    if (*q != '=' && *q != ':') continue;
    q++;
    while (*q == ' ' || *q == '\t') q++;
    size_t n = strncmp(q, "1", 1) == 0 ? 1 : 0;
    if (!n) {
      static const char t[] = "true";
      for (n = 0; n < 4 && tolower((unsigned char)q[n]) == t[n]; n++) continue;
      if (n < 4) continue;
    }
    if (!isalnum((unsigned char)q[n]) && q[n] != '_' && q[n] != '.') return 1;
  }
  return 0;
}

int gc_config_file_says_strict(const char *path) {
  FILE *f = path ? fopen(path, "r") : NULL;
  char *line = NULL;
  size_t cap = 0;
  int found = 0;
  if (!f) return 0;
  while (!found && getline(&line, &cap, f) >= 0) found = line_says_strict(line);
  free(line);
  fclose(f);
  return found;
}
