/* A settled call's CSV line (log_line.h), built by hand: logfmt.h writes printf's own
 * characters for %d, %llu, %.9f and %.6g at a fraction of its cost, and the columns that
 * repeat from one line to the next are copied from the last line's text. */
#include "log_line.h"

#include <string.h>

#include "logfmt.h"

/* n bytes from src to dst in whole 16-byte pieces, each loaded before it is stored: the
 * text a line copies (head, middle, a time) is a few dozen bytes, where libc's memcpy
 * costs a call and its size dispatch. It reads and writes up to 15 bytes past n: src's
 * array has them (the caches below are sized so; a time's text sits in the line before
 * dst, which it may overlap), and so has dst's line (its room counts every column at its
 * widest, and at least 20 bytes follow each copy). */
static char *copy16(char *dst, const char *src, size_t n)
{
  for (size_t i = 0; i < n; i += 16) {
    char piece[16];
    memcpy(piece, src + i, 16);
    memcpy(dst + i, piece, 16);
  }
  return dst + n;
}

static char *put_name(char *p, const char *s, size_t n)
{
  memcpy(p, s, n);
  p[n] = ',';
  return p + n + 1;
}

/* A time in %.9f, nothing for none (< 0); then the comma. */
static char *put_time(char *p, double s)
{
  if (s >= 0)
    p += gc_fmt_fixed9(p, s);
  *p = ',';
  return p + 1;
}

/* The widest a time's text can be, its comma included: 19 characters below 10^9 s,
 * printf's beyond. */
static size_t time_room(double s)
{
  return s < 1e9 ? 20 : GC_FMT_FIXED9_MAX;
}

/* The columns that repeat from one line to the next (the same communicator; the same
 * call again, as an application's loop makes it), kept as text: a line whose key matches
 * copies them instead of formatting them again, half of what a line costs. One entry
 * each; every column is still written as its own value says. The head holds the call
 * index too: the next call on the same communicator adds one to its digits in place
 * (what "%llu" of call + 1 writes: a carry through nines, a new digit only from 9...9,
 * which is formatted afresh), a few instructions where formatting it took ~45. */
static struct {
  unsigned long long comm_id, call;
  int comm_size;
  size_t n;      /* 0: empty */
  size_t digits; /* where the call's digits start in text */
  char text[80]; /* "rank,comm,comm_size,call,": the widest, rounded up to 16 bytes */
} head;

static struct {
  const char *op_name, *algorithm_name, *model;
  size_t bytes;
  int root, clusters;
  double predicted; /* compared bit for bit */
  size_t n;         /* 0: empty */
  char text[256];   /* "op,algorithm,root,bytes,clusters,model,predicted_s," */
} middle;

/* The widest head: the rank (11 characters), the comm id (20), the comm size (11), the
 * call (20), 4 commas. */
#define GC_HEAD_MAX (11 + 20 + 11 + 20 + 4)
_Static_assert((GC_HEAD_MAX + 15) / 16 * 16 <= sizeof head.text,
               "the head's cache holds the widest head, in 16-byte pieces");
_Static_assert(sizeof middle.text % 16 == 0, "the middle's cache, in 16-byte pieces");

/* 1 when the cached head, its call index advanced by one in place, is this call's. */
static int head_next(unsigned long long comm_id, int comm_size, unsigned long long call)
{
  if (!head.n || head.comm_id != comm_id || head.comm_size != comm_size || call != head.call + 1 ||
      call == 0)
    return 0;
  char *first = head.text + head.digits, *d = head.text + head.n - 2; /* the last digit */
  while (d >= first && *d == '9')
    *d-- = '0';
  if (d < first) { /* 9...9 + 1 has one digit more: the caller formats it */
    head.n = 0;
    return 0;
  }
  ++*d;
  head.call = call;
  return 1;
}

static char *put_head(char *p, int rank, unsigned long long comm_id, int comm_size,
                      unsigned long long call)
{
  if (head_next(comm_id, comm_size, call))
    return copy16(p, head.text, head.n);
  char *start = p;
  p += gc_fmt_int(p, rank), *p++ = ',';
  p += gc_fmt_u64(p, comm_id), *p++ = ',';
  p += gc_fmt_int(p, comm_size), *p++ = ',';
  head.digits = (size_t)(p - start);
  p += gc_fmt_u64(p, call), *p++ = ',';
  head.n = (size_t)(p - start);
  memcpy(head.text, start, head.n);
  head.comm_id = comm_id, head.comm_size = comm_size, head.call = call;
  return p;
}

static int middle_matches(const struct gc_call_line *l)
{
  return middle.n && middle.op_name == l->op_name && middle.algorithm_name == l->algorithm_name &&
         middle.model == l->model && middle.bytes == l->bytes && middle.root == l->root &&
         middle.clusters == l->clusters && gc_same_bits(middle.predicted, l->predicted);
}

/* The widest middle: the names, the root (11), the bytes (20), the clusters (11), 6
 * commas and the prediction. */
static size_t middle_room(const struct gc_call_line *l)
{
  return strlen(l->op_name) + strlen(l->algorithm_name) + (l->model ? strlen(l->model) : 0) +
         11 + 20 + 11 + 6 + time_room(l->predicted);
}

/* The middle columns, formatted (hit: 0, the cached text copied). */
static char *put_middle(char *p, const struct gc_call_line *l, int hit)
{
  if (hit)
    return copy16(p, middle.text, middle.n);
  char *start = p;
  p = put_name(p, l->op_name, strlen(l->op_name));
  p = put_name(p, l->algorithm_name, strlen(l->algorithm_name));
  if (l->root >= 0)
    p += gc_fmt_int(p, l->root);
  *p++ = ',';
  p += gc_fmt_u64(p, l->bytes), *p++ = ',';
  p += gc_fmt_int(p, l->clusters), *p++ = ',';
  p = put_name(p, l->model ? l->model : "", l->model ? strlen(l->model) : 0);
  p = put_time(p, l->predicted);
  size_t n = (size_t)(p - start);
  middle.n = 0;
  if (n <= sizeof middle.text) {
    memcpy(middle.text, start, n);
    middle.op_name = l->op_name, middle.algorithm_name = l->algorithm_name;
    middle.model = l->model, middle.bytes = l->bytes, middle.root = l->root;
    middle.clusters = l->clusters, middle.predicted = l->predicted, middle.n = n;
  }
  return p;
}

/* A time whose value is the one written at `text` (ntime characters, its comma
 * included): that text copied (local mode's own time, a broadcast's own time), else
 * formatted. */
static char *put_time_as(char *p, double s, double written, const char *text, size_t ntime)
{
  if (!gc_same_bits(s, written))
    return put_time(p, s);
  if (ntime > 20) /* 10^9 s and more: printf's text, longer than the room after it */
    return (char *)memcpy(p, text, ntime) + ntime;
  return copy16(p, text, ntime);
}

size_t gc_log_line_room(const struct gc_call_line *l, const struct gc_span_time *t,
                        const struct gc_candidate *cand, int ncand)
{
  /* the head (the call included), the middle, the times, the candidates' comma, the
     explored flag and the newline */
  size_t need = GC_HEAD_MAX + (middle_matches(l) ? middle.n : middle_room(l)) + 3 +
                (t->actual < 1e9 && l->elapsed < 1e9 && t->own < 1e9 && t->spread < 1e9 &&
                         t->root_late < 1e9
                     ? 5 * 20
                     : time_room(t->actual) + time_room(l->elapsed) + time_room(t->own) +
                           time_room(t->spread) + time_room(t->root_late));
  for (int a = 0; a < ncand; a++) /* ";name=%.6g" */
    if (cand[a].predicted >= 0)
      need += strlen(cand[a].name) + 2 + GC_FMT_MAX;
  return need;
}

char *gc_log_line_put(char *p, int rank, unsigned long long comm_id, int comm_size,
                      const struct gc_call_line *l, const struct gc_span_time *t,
                      const struct gc_candidate *cand, int ncand)
{
  double actual = t->actual;
  p = put_head(p, rank, comm_id, comm_size, l->call);
  p = put_middle(p, l, middle_matches(l));
  char *time = p;
  p = put_time(p, actual);
  size_t ntime = (size_t)(p - time);
  /* "native=1.2e-05;lg=8.1e-06": a semicolon list keeps the CSV one column wide. */
  for (int a = 0; a < ncand; a++)
    if (cand[a].predicted >= 0) {
      if (a)
        *p++ = ';';
      size_t n = strlen(cand[a].name);
      memcpy(p, cand[a].name, n);
      p += n;
      *p++ = '=';
      p += gc_fmt_g(p, cand[a].predicted, 6);
    }
  *p++ = ',';
  /* local mode: elapsed and own are actual, the same text; a broadcast's own too */
  p = put_time_as(p, l->elapsed, actual, time, ntime);
  p = put_time_as(p, t->own, actual, time, ntime);
  p = put_time(p, t->spread);
  p = put_time(p, t->root_late);
  *p++ = l->explored ? '1' : '0'; /* measured for learning (learn.h) */
  *p++ = '\n';
  return p;
}
