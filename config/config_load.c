/* Reading a configuration file: libconfig parses, the key tables check. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_internal.h"

/* What a path that is not a regular file is, for the message. */
static const char *kind(mode_t m) {
  return S_ISFIFO(m) ? "a FIFO (named pipe)" : S_ISSOCK(m) ? "a socket" : S_ISDIR(m) ? "a directory"
       : S_ISBLK(m) ? "a block device" : "not a regular file";
}

/* A regular file, or a character device (/dev/null), read without ever blocking: a FIFO,
 * a socket or a directory is refused before it is opened (opening a FIFO waits for a
 * writer), and the open itself is non-blocking in case the path changed in between. */
static int readable_kind(mode_t m) { return S_ISREG(m) || S_ISCHR(m); }

/* The whole file in memory, at most GC_CONFIG_MAX_BYTES: libconfig's own reader exits
 * the process on a read error (flex's "input in flex scanner failed", for a directory),
 * which a library inside someone else's program must never do, and a device such as
 * /dev/zero never ends. *len gets the bytes read (the text may hold a NUL). */
static char *slurp(struct gc_loader *ld, const char *path, size_t *len) {
  struct stat st;
  char *buf = NULL;
  int fd = -1;
  *len = 0;
  if (stat(path, &st) == 0 && !readable_kind(st.st_mode)) goto wrong_kind;
  if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0 || fstat(fd, &st) != 0) goto fail;
  if (!readable_kind(st.st_mode)) goto wrong_kind;
  if (S_ISREG(st.st_mode) && (size_t)st.st_size > GC_CONFIG_MAX_BYTES) goto too_large;
  if (!(buf = malloc(GC_CONFIG_MAX_BYTES + 2))) goto no_memory;
  while (*len <= GC_CONFIG_MAX_BYTES) { /* one byte more than the limit tells it is exceeded */
    ssize_t n = read(fd, buf + *len, GC_CONFIG_MAX_BYTES + 1 - *len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) goto fail;
    if (n == 0) break;
    *len += (size_t)n;
  }
  if (*len > GC_CONFIG_MAX_BYTES) goto too_large;
  close(fd);
  buf[*len] = '\0';
  return buf;
wrong_kind:
  snprintf(ld->err, ld->errlen, "%s: cannot read the configuration file: it is %s, not a regular "
           "file", ld->file, kind(st.st_mode));
  goto out;
no_memory:
  gc_config_no_memory(ld, NULL, NULL);
  goto out;
too_large:
  snprintf(ld->err, ld->errlen, "%s: the configuration file is too large: gridcoll reads at most "
           "%zu bytes (1 MiB)", ld->file, GC_CONFIG_MAX_BYTES);
  goto out;
fail:
  snprintf(ld->err, ld->errlen, "%s: cannot read the configuration file: %s", ld->file,
           errno == EAGAIN ? "nothing to read without waiting" : strerror(errno));
out:
  if (fd >= 0) close(fd);
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

/* strict and verbose as gc_key_bool and gc_key_int would read them, from a file that
 * parsed but may fail further on. */
static void intent_from_tree(struct gc_loader *ld, const config_setting_t *root) {
  const config_setting_t *s = config_setting_get_member(root, "strict");
  int t = s ? config_setting_type(s) : CONFIG_TYPE_NONE;
  ld->strict = t == CONFIG_TYPE_BOOL ? config_setting_get_bool(s)
             : t == CONFIG_TYPE_INT && config_setting_get_int(s) == 1;
  s = config_setting_get_member(root, "verbose");
  t = s ? config_setting_type(s) : CONFIG_TYPE_NONE;
  ld->verbose = t == CONFIG_TYPE_INT && config_setting_get_int(s) >= 0 && config_setting_get_int(s) <= 3
                    ? config_setting_get_int(s) : -1;
}

/* A group member with at least one setting of its own: `lan = { };` gives nothing. */
static int has_values(const config_setting_t *group, const char *name) {
  const config_setting_t *s = group ? config_setting_get_member(group, name) : NULL;
  return s && (!config_setting_is_group(s) || config_setting_length(s) > 0);
}

/* Whether the file gave the models any link's latency or bandwidth (config.h:
 * network_given): the summary must not present defaults as a calibrated grid. */
static int network_given(const config_setting_t *root) {
  const config_setting_t *net = config_setting_get_member(root, "network");
  const config_setting_t *wan = net ? config_setting_get_member(net, "wan") : NULL;
  if (has_values(net, "lan") || has_values(wan, "latency") || has_values(wan, "bandwidth") ||
      has_values(wan, "aggregate"))
    return 1;
  const config_setting_t *clusters = config_setting_get_member(root, "clusters");
  int n = clusters && config_setting_is_aggregate(clusters) ? config_setting_length(clusters) : 0;
  for (int i = 0; i < n; i++) {
    const config_setting_t *c = config_setting_get_elem(clusters, (unsigned)i);
    if (config_setting_is_group(c) && has_values(c, "lan")) return 1;
  }
  return 0;
}

static int load(struct gc_loader *ld, config_t *lc, const char *path) {
  size_t len;
  char *text = slurp(ld, path, &len);
  if (!text) return -1;
  struct gc_config_scan sc;
  char why[GC_ERR_MAX];
  int bad = gc_config_scan(text, len, &sc, why, sizeof why);
  ld->strict = sc.strict, ld->verbose = sc.verbose;
  if (bad) {
    free(text);
    snprintf(ld->err, ld->errlen, "%s:%s", ld->file, why);
    return -1;
  }
  int inc = include_line(text);
  if (inc) {
    free(text);
    snprintf(ld->err, ld->errlen, "%s:%d: @include is not supported: write the whole "
             "configuration in one file", ld->file, inc);
    return -1;
  }
  int ok = config_read_string(lc, text);
  free(text);
  if (!ok) {
    snprintf(ld->err, ld->errlen, "%s:%d: %s (not valid libconfig syntax: settings are written "
             "`key = value;`, groups `{ ... }`, lists `( ... )`, strings in double quotes)",
             ld->file, config_error_line(lc), config_error_text(lc));
    return -1;
  }
  intent_from_tree(ld, config_root_setting(lc));
  if (gc_config_walk(ld, config_root_setting(lc), "", ld->cfg, gc_config_top_keys) < 0) return -1;
  if (gc_config_load_clusters(ld) < 0) return -1;
  if (gc_config_load_wan(ld) < 0) return -1;
  if (gc_config_load_wan_curves(ld) < 0) return -1;
  if (gc_config_load_native(ld) < 0) return -1;
  ld->cfg->network_given = network_given(config_root_setting(lc));
  const config_setting_t *net = config_setting_get_member(config_root_setting(lc), "network");
  ld->cfg->network_lan_given = has_values(net, "lan");
  return 0;
}

/* The path as messages show it: whole up to 200 characters, else its start and its end,
 * so that a message of GC_ERR_MAX bytes still ends with its reason. */
static const char *shown(const char *path, char *buf, size_t len) {
  size_t n = strlen(path);
  if (n <= 200) return path;
  snprintf(buf, len, "%.80s...%s", path, path + n - 100);
  return buf;
}

int gc_config_load(struct gc_config *cfg, const char *path, const struct gc_config_names *names,
                   char *err, size_t errlen) {
  char scratch[GC_ERR_MAX], name[200];
  struct gc_loader ld = {.cfg = cfg, .file = path ? shown(path, name, sizeof name) : NULL,
                         .names = names, .err = err, .errlen = errlen, .verbose = -1};
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
  if (rc == 0 && !(cfg->path = gc_strdup(path)))
    rc = gc_config_no_memory(&ld, NULL, NULL);
  if (rc < 0) {
    gc_config_free(cfg);
    cfg->strict = ld.strict;
    if (ld.verbose >= 0) cfg->verbose = ld.verbose;
  }
  return rc == 0 ? 0 : ld.no_memory ? GC_CONFIG_NO_MEMORY : -1;
}

int gc_config_file_says_strict(const char *path) {
  char scratch[GC_ERR_MAX];
  struct gc_loader ld = {.file = "", .err = scratch, .errlen = sizeof scratch};
  struct gc_config_scan sc = {0};
  size_t len;
  char *text = path ? slurp(&ld, path, &len) : NULL;
  if (text) gc_config_scan(text, len, &sc, scratch, sizeof scratch);
  free(text);
  return sc.strict;
}
