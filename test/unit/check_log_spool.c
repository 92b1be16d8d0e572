/* The log's spool and its lines (shim/pure/log_spool.c, log_line.c): every line put comes
 * back at the end in order, every field as it went in, short records and full ones mixed,
 * over several chunks; a write that fails (injected here: this file's pwrite stands in for
 * libc's) loses no line put before it; and a line's text is printf's. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "log_line.h"
#include "log_spool.h"

/* pwrite as the spool sees it: fails with ENOSPC from the fail_at-th call on (0: never). */
static int pwrites, fail_at;

ssize_t pwrite(int fd, const void *buf, size_t n, off_t at)
{
  if (fail_at && ++pwrites >= fail_at) {
    errno = ENOSPC;
    return -1;
  }
  return syscall(SYS_pwrite64, fd, buf, n, at);
}

/* What went in, and what came back. */
struct seen {
  unsigned long long comm_id;
  int comm_size, comm_rank;
  struct gc_call_line line;
  struct gc_span_time time;
  int ncand;
  struct gc_candidate cand[GC_MAX_ALGORITHMS];
};

enum { CALLS = 5000 };
static struct seen put[CALLS], got[CALLS];
static int nput, ngot;

static void collect(unsigned long long comm_id, int comm_size, int comm_rank,
                    const struct gc_call_line *l, const struct gc_span_time *t,
                    const struct gc_candidate *cand)
{
  ck_assert_int_lt(ngot, CALLS);
  struct seen *s = &got[ngot++];
  *s = (struct seen){comm_id, comm_size, comm_rank, *l, *t, cand ? l->ncandidates : 0, {{0}}};
  if (cand)
    memcpy(s->cand, cand, sizeof *cand * (size_t)l->ncandidates);
}

static char dir[64];
static unsigned long long next_call[2]; /* call_of's, on comm 7 and comm 9 */

/* A fresh start for each test (they share this process with CK_FORK=no), and the log's
 * name in a new directory, removed at the end (the spool leaves no file in it). */
static void setup(void)
{
  nput = ngot = pwrites = fail_at = 0;
  next_call[0] = next_call[1] = 0;
  snprintf(dir, sizeof dir, "/tmp/check_log_spool.XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
  ck_assert_msg(rmdir(dir) == 0, "the spool left a file behind in %s", dir);
}

/* Call i of a loop on two communicators: mostly the same call again on comm 7 (short
 * records), every 97th on comm 9, every 500th with another size, every 701st with
 * candidates (full records). */
static struct seen call_of(int i)
{
  unsigned long long *next = next_call;
  int other = i % 97 == 50;
  struct seen s = {.comm_id = other ? 9 : 7, .comm_size = other ? 3 : 4, .comm_rank = other ? 2 : 0};
  s.line = (struct gc_call_line){next[other]++, i % 500 == 499 ? 65536 : 8, "bcast", "hlot",
                                 "hlot-link", 1e-5, i * 1e-6, 2, 2, 0, 3, 0, 0, 0};
  s.time = (struct gc_span_time){i * 2e-6, i * 1.5e-6, i % 3 ? 1e-7 : 0, -1};
  if (i % 701 == 700) {
    s.ncand = s.line.ncandidates = 2;
    s.cand[0] = (struct gc_candidate){"native", 2e-5};
    s.cand[1] = (struct gc_candidate){"hlot", 1e-5};
  }
  return s;
}

static int put_call(int i)
{
  put[nput] = call_of(i);
  const struct seen *s = &put[nput];
  int rc = gc_spool_put(s->comm_id, s->comm_size, s->comm_rank, &s->line, &s->time, s->ncand ? s->cand : NULL);
  if (rc == 0)
    nput++;
  return rc;
}

static void same_calls(void)
{
  ck_assert_int_eq(ngot, nput);
  for (int i = 0; i < nput; i++) {
    const struct seen *a = &put[i], *b = &got[i];
    ck_assert_msg(a->comm_id == b->comm_id && a->comm_size == b->comm_size &&
                      a->comm_rank == b->comm_rank &&
                      a->line.call == b->line.call && a->line.bytes == b->line.bytes &&
                      a->line.elapsed == b->line.elapsed && a->line.predicted == b->line.predicted &&
                      a->line.op_name == b->line.op_name && a->line.root == b->line.root &&
                      a->line.ncandidates == b->line.ncandidates,
                  "call %d: line differs", i);
    ck_assert_msg(memcmp(&a->time, &b->time, sizeof a->time) == 0, "call %d: times differ", i);
    ck_assert_int_eq(a->ncand, b->ncand);
    for (int c = 0; c < a->ncand; c++)
      ck_assert(a->cand[c].name == b->cand[c].name && a->cand[c].predicted == b->cand[c].predicted);
  }
}

START_TEST(every_line_back_in_order)
{
  char log[256];
  snprintf(log, sizeof log, "%s/log-0.csv", dir);
  const char *why = NULL;
  ck_assert_int_eq(gc_spool_open(log, &why), 0);
  ck_assert(gc_spool_on());
  for (int i = 0; i < CALLS; i++)
    ck_assert_int_eq(put_call(i), 0);
  ck_assert_int_eq(gc_spool_drain(collect, &why), 0);
  ck_assert(!gc_spool_on());
  same_calls();
  ck_assert_msg(pwrites == 0 && fail_at == 0, "no fault injected here");
}
END_TEST

START_TEST(a_failed_write_loses_nothing_put)
{
  char log[256];
  snprintf(log, sizeof log, "%s/log-0.csv", dir);
  const char *why = NULL;
  ck_assert_int_eq(gc_spool_open(log, &why), 0);
  fail_at = 3; /* the first chunk written (its length, its records), the second not */
  int i = 0;
  while (i < CALLS && put_call(i) == 0)
    i++;
  ck_assert_msg(i < CALLS && nput > 1365, "the second chunk's write failed (%d calls put)", nput);
  ck_assert_int_eq(gc_spool_drain(collect, &why), 0);
  same_calls();
}
END_TEST

START_TEST(no_spool_where_none_can_be_made)
{
  const char *why = NULL;
  ck_assert_int_eq(gc_spool_open("/nonexistent-dir/log-0.csv", &why), -1);
  ck_assert_ptr_nonnull(why);
  ck_assert(!gc_spool_on());
  ck_assert_int_eq(gc_spool_drain(collect, &why), 0);
  ck_assert_int_eq(ngot, 0);
}
END_TEST

/* A line as printf writes it (doc/log.md's columns). */
static void printf_line(char *out, size_t len, int rank, unsigned long long comm, int size,
                        const struct gc_call_line *l, const struct gc_span_time *t)
{
  char spread[32] = "", late[32] = "";
  if (t->spread >= 0)
    snprintf(spread, sizeof spread, "%.9f", t->spread);
  if (t->root_late >= 0)
    snprintf(late, sizeof late, "%.9f", t->root_late);
  snprintf(out, len, "%d,%llu,%d,%llu,%s,%s,%d,%zu,%d,%s,%.9f,%.9f,,%.9f,%.9f,%s,%s,%d\n", rank,
           comm, size, l->call, l->op_name, l->algorithm_name, l->root, l->bytes, l->clusters,
           l->model, l->predicted, t->actual, l->elapsed, t->own, spread, late, l->explored);
}

START_TEST(a_line_is_printfs)
{
  /* the same call again and again: the repeating columns come from the last line's text,
   * the call's digits advanced in place (9 to 10 and 99 to 100 included) */
  for (int i = 0; i < 120; i++) {
    struct seen s = call_of(i % 97 == 50 ? 0 : 1);
    s.line.call = (unsigned long long)i;
    s.line.elapsed = i * 3.25e-7;
    s.time.actual = i * 4.5e-7 + 1e-9;
    char ours[512], want[512];
    size_t room = gc_log_line_room(&s.line, &s.time, NULL, 0);
    ck_assert_uint_lt(room + 16, sizeof ours);
    char *end = gc_log_line_put(ours, 5, s.comm_id, s.comm_size, &s.line, &s.time, NULL, 0);
    *end = '\0';
    ck_assert_uint_le((size_t)(end - ours), room);
    printf_line(want, sizeof want, 5, s.comm_id, s.comm_size, &s.line, &s.time);
    ck_assert_str_eq(ours, want);
  }
}
END_TEST

static Suite *spool_suite(void)
{
  Suite *s = suite_create("log_spool");
  TCase *core = tcase_create("core");
  tcase_add_checked_fixture(core, setup, teardown);
  tcase_add_test(core, every_line_back_in_order);
  tcase_add_test(core, a_failed_write_loses_nothing_put);
  tcase_add_test(core, no_spool_where_none_can_be_made);
  tcase_add_test(core, a_line_is_printfs);
  suite_add_tcase(s, core);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(spool_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
