/* The log's spool (log_spool.h). */
#include "log_spool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A line as the spool keeps it: in full (its candidates, ncand of them, follow it), or,
 * when it is the next call on the communicator of the line before with every other
 * column the same (an application's loop), only what changed: 48 bytes, not 128. Writing
 * the spool costs about a nanosecond a byte on one node, most of what it costs. */
enum { FULL = 1, NEXT };

struct spooled {
  int kind; /* FULL */
  int comm_size;
  int ncand;
  int comm_rank;
  unsigned long long comm_id;
  struct gc_call_line line;
  struct gc_span_time time;
};

struct spooled_next {
  int kind; /* NEXT */
  int pad;
  double elapsed;
  struct gc_span_time time;
};

_Static_assert(sizeof(struct spooled) % 8 == 0 && sizeof(struct spooled_next) % 8 == 0 &&
                   sizeof(struct gc_candidate) % 8 == 0,
               "records follow each other aligned");

/* A chunk goes to the file as its length, then its records: a record never spans two. */
enum { GC_SPOOL_CHUNK = 1 << 16 };

static struct {
  int fd;        /* -1: no spool */
  off_t written; /* bytes in the file */
  size_t n;      /* bytes in fill */
  _Alignas(8) unsigned char fill[GC_SPOOL_CHUNK];
  _Alignas(8) unsigned char back[GC_SPOOL_CHUNK]; /* a chunk read back */
  struct spooled last; /* the last full record, its call the last one put; kind 0: none */
} sp = {.fd = -1};

int gc_spool_open(const char *log_path, const char **why)
{
  char name[4200];
  if (snprintf(name, sizeof name, "%s.spool.XXXXXX", log_path) >= (int)sizeof name) {
    *why = "name too long";
    return -1;
  }
  int fd = mkstemp(name);
  if (fd < 0) {
    *why = strerror(errno);
    return -1;
  }
  unlink(name); /* gone with the descriptor, however the program ends */
  sp.fd = fd, sp.written = 0, sp.n = 0, sp.last.kind = 0;
  return 0;
}

int gc_spool_on(void)
{
  return sp.fd >= 0;
}

/* The whole of len bytes at the file's end: 0, or -1. */
static int put_bytes(const void *p, size_t len)
{
  for (size_t done = 0; done < len;) {
    ssize_t w = pwrite(sp.fd, (const char *)p + done, len - done, sp.written + (off_t)done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    done += (size_t)w;
  }
  sp.written += (off_t)len;
  return 0;
}

static int fill_out(void)
{
  size_t n = sp.n;
  if (!n)
    return 0;
  off_t at = sp.written;
  if (put_bytes(&n, sizeof n) != 0 || put_bytes(sp.fill, n) != 0) {
    sp.written = at; /* the chunk stays in fill, the file as it was */
    return -1;
  }
  sp.n = 0;
  return 0;
}

/* 1 when l, on communicator comm_id, is the call after the last one, all else the same
 * (the rank in it too: one communicator, one rank of this process). */
static int is_next(unsigned long long comm_id, int comm_size, const struct gc_call_line *l)
{
  const struct spooled *p = &sp.last;
  const struct gc_call_line *k = &p->line;
  return p->kind && p->comm_id == comm_id && p->comm_size == comm_size && !p->ncand &&
         l->call == k->call + 1 && l->bytes == k->bytes && l->op_name == k->op_name &&
         l->algorithm_name == k->algorithm_name && l->model == k->model &&
         gc_same_bits(l->predicted, k->predicted) && l->root == k->root &&
         l->clusters == k->clusters && l->op == k->op && l->algorithm == k->algorithm &&
         l->ncandidates == k->ncandidates && l->explored == k->explored &&
         l->entry == k->entry;
}

int gc_spool_put(unsigned long long comm_id, int comm_size, int comm_rank,
                 const struct gc_call_line *l, const struct gc_span_time *t,
                 const struct gc_candidate *cand)
{
  int ncand = cand ? l->ncandidates : 0, next = !ncand && is_next(comm_id, comm_size, l);
  size_t need = next ? sizeof(struct spooled_next)
                     : sizeof(struct spooled) + sizeof *cand * (size_t)ncand;
  if (sp.n + need > sizeof sp.fill && fill_out() != 0)
    return -1;
  if (next) {
    struct spooled_next *s = (struct spooled_next *)(sp.fill + sp.n);
    s->kind = NEXT;
    s->elapsed = l->elapsed;
    s->time = *t;
    sp.last.line.call++;
  } else {
    struct spooled *s = (struct spooled *)(sp.fill + sp.n);
    *s = (struct spooled){FULL, comm_size, ncand, comm_rank, comm_id, *l, *t};
    if (ncand)
      memcpy(s + 1, cand, sizeof *cand * (size_t)ncand);
    sp.last = *s;
  }
  sp.n += need;
  return 0;
}

/* The records of one chunk, through writer; *last: the last full record replayed, the
 * line a short one continues. */
static void replay(const unsigned char *p, size_t n, struct spooled *last,
                   gc_spool_writer *writer)
{
  for (size_t at = 0; at + sizeof(struct spooled_next) <= n;) {
    const struct spooled *s = (const struct spooled *)(p + at);
    if (s->kind == NEXT && last->kind) {
      const struct spooled_next *x = (const struct spooled_next *)s;
      last->line.call++;
      last->line.elapsed = x->elapsed;
      writer(last->comm_id, last->comm_size, last->comm_rank, &last->line, &x->time, NULL);
      at += sizeof *x;
    } else if (s->kind == FULL && at + sizeof *s <= n) {
      writer(s->comm_id, s->comm_size, s->comm_rank, &s->line, &s->time,
             s->ncand ? (const struct gc_candidate *)(s + 1) : NULL);
      *last = *s;
      at += sizeof *s + sizeof(struct gc_candidate) * (size_t)s->ncand;
    } else {
      return; /* never written so */
    }
  }
}

/* The whole of len bytes at offset: 0, or -1. */
static int get_bytes(void *p, size_t len, off_t at)
{
  for (size_t done = 0; done < len;) {
    ssize_t r = pread(sp.fd, (char *)p + done, len - done, at + (off_t)done);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return -1;
    done += (size_t)r;
  }
  return 0;
}

int gc_spool_drain(gc_spool_writer *writer, const char **why)
{
  if (sp.fd < 0)
    return 0;
  int rc = 0;
  struct spooled last = {0};
  for (off_t at = 0; at < sp.written;) {
    size_t n;
    if (get_bytes(&n, sizeof n, at) != 0 || n > sizeof sp.back ||
        get_bytes(sp.back, n, at + (off_t)sizeof n) != 0) {
      *why = "its spool could not be read back";
      rc = -1;
      last.kind = 0; /* a short record in fill may continue one lost here */
      break;
    }
    replay(sp.back, n, &last, writer);
    at += (off_t)(sizeof n + n);
  }
  replay(sp.fill, sp.n, &last, writer);
  close(sp.fd);
  sp.fd = -1, sp.written = 0, sp.n = 0, sp.last.kind = 0;
  return rc;
}
