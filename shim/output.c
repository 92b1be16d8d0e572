/* The files gridcoll writes (output.h): the log, its latency file, the summary. */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gc_log_expand_path(const char *pattern, int rank, char *out, size_t outlen)
{
  const char *job = getenv("SLURM_JOB_ID");
  if (!job)
    job = getenv("PMI_JOBID");
  if (!job)
    job = getenv("OMPI_MCA_ess_base_jobid");
  if (!job)
    job = "0";
  size_t n = 0;
  for (const char *p = pattern; *p; p++) {
    char piece[64];
    const char *add = piece;
    if (*p == '%' && p[1]) {
      p++;
      if (*p == 'r')
        snprintf(piece, sizeof piece, "%d", rank);
      else if (*p == 'p')
        snprintf(piece, sizeof piece, "%ld", (long)getpid());
      else if (*p == 'j')
        add = job;
      else if (*p == '%')
        add = "%";
      else
        snprintf(piece, sizeof piece, "%%%c", *p);
    } else {
      piece[0] = *p, piece[1] = '\0';
    }
    size_t len = strlen(add);
    if (n + len >= outlen)
      return -1;
    memcpy(out + n, add, len);
    n += len;
  }
  out[n] = '\0';
  return 0;
}

/* errno in words; memory running out reads as it does everywhere else in gridcoll's
 * messages (gc_warn_oom), not as strerror's "Cannot allocate memory". */
static const char *reason(int e)
{
  return e == ENOMEM ? "out of memory" : strerror(e);
}

FILE *gc_open_output(const char *path, char *why, size_t len)
{
  struct stat st;
  const char *kind = NULL;
  int fd = -1, e = EINVAL; /* what errno says on return: EINVAL for the wrong kind of file */
  /* Opening a FIFO for writing waits for a reader: refused before any open, and the open
   * is non-blocking in case the path changed in between. A character device (/dev/null,
   * /dev/full, a terminal) is fine. */
  if (stat(path, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISDIR(st.st_mode)))
    goto wrong_kind;
  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(why, len, "%s: %s", path, reason(e = errno));
    goto fail;
  }
  if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISDIR(st.st_mode))
    goto wrong_kind;
  int flags = fcntl(fd, F_GETFL);
  FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "w") : NULL;
  if (f)
    return f;
  snprintf(why, len, "%s: %s", path, reason(e = errno));
  goto fail;
wrong_kind:
  kind = S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)" : S_ISSOCK(st.st_mode) ? "a socket" : "a directory";
  snprintf(why, len, "%s: it is %s, not a regular file", path, kind);
fail:
  if (fd >= 0)
    close(fd);
  errno = e; /* the caller tells memory running out from the rest */
  return NULL;
}
