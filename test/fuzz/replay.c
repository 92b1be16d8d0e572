/* Runs a fuzz target's LLVMFuzzerTestOneInput once on each file named, or on each file of
 * each folder named, without fuzzing: the regression check that `make check` runs. Built
 * with the plain C compiler (and its sanitizers), so it needs no clang or libFuzzer.
 * Exit status 0 when every input ran; a crash or a sanitizer report ends it earlier. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return perror(path), -1;
  size_t cap = 4096, len = 0, n;
  uint8_t *buf = malloc(cap);
  while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
    len += n;
    if (len == cap) {
      uint8_t *b = realloc(buf, cap *= 2);
      if (!b) free(buf);
      buf = b;
    }
  }
  int bad = !buf || ferror(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "%s: cannot read\n", path);
    free(buf);
    return -1;
  }
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Files of a folder in name order, so that a run is repeatable. */
static int run_dir(const char *dir, int *count) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  if (!d) return perror(dir), -1;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue; /* ".", "..", and .gitkeep-like files */
    if (n == cap) {
      char **g = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
      if (!g) break;
      names = g;
    }
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    if (!(names[n] = malloc(len))) break;
    snprintf(names[n++], len, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
      if (run_file(names[i]) < 0) rc = -1;
      ++*count;
    }
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  int count = 0, rc = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      perror(argv[i]);
      rc = 1;
    } else if (S_ISDIR(st.st_mode)) {
      if (run_dir(argv[i], &count) < 0) rc = 1;
    } else {
      if (run_file(argv[i]) < 0) rc = 1;
      count++;
    }
  }
  fprintf(stderr, "%s: replayed %d input(s)%s\n", argv[0], count, rc ? ", some unreadable" : "");
  return rc;
}
