/* A collective's times from the numbers its ranks gave (shim/span.c): pure C, no MPI, so
 * that every case (a late rank, a late root, no numbers at all) is tested
 * (test/unit/check_span_time.c).
 *
 * Each rank gives GC_SPAN_NUMBERS doubles per timed call, in world rank 0's clock, and one
 * MPI_MAX over the communicator's ranks assembles them; a rank that has nothing to say
 * gives -DBL_MAX (MAX's identity). Every number is a maximum, so a minimum (the first
 * entry) travels negated. From the assembled numbers come the completion time and, apart
 * from it, the wait for late ranks: a late rank is not a slow algorithm, and neither the
 * summary's error nor learning should count it as one. */
#ifndef GC_SPAN_TIME_H
#define GC_SPAN_TIME_H

enum {
  GC_SPAN_EXIT,   /* the exit: the last one */
  GC_SPAN_FIRST,  /* -entry: the first entry, negated */
  GC_SPAN_LAST,   /* +entry: the last entry */
  GC_SPAN_START,  /* -entry of the rank the call starts with: all ranks (all-to-all), the
                     root alone (a broadcast: the others give -DBL_MAX) */
  GC_SPAN_NUMBERS
};

/* A call's times in seconds, as the log and the summary show them and learning reads
 * them; < 0: none. */
struct gc_span_time {
  /* from the start (the first entry; a broadcast's: the root's) to the last exit */
  double actual;
  /* the collective's own time, from the moment it could start to the last exit: an
   * all-to-all from the last entry (nothing moves until every rank is in); a broadcast
   * from its root's entry (it can start once its root is in), so that a receiver that
   * comes late, the root on time, still counts in it (spread shows it) */
  double own;
  /* the arrival spread: the last entry less the first */
  double spread;
  /* a broadcast's: how late its root came after the first entry (the receivers' wait,
   * Scalasca's Late Broadcast), 0 when it was first; none for an all-to-all */
  double root_late;
};

/* This rank's numbers for a call entered at `entry` and left at `exit` (world rank 0's
 * clock). rooted: a broadcast; root: this rank is its root. */
void gc_span_numbers(double q[GC_SPAN_NUMBERS], double entry, double exit, int rooted, int root);

/* Numbers that say only this rank's own time `elapsed` (nothing assembled: local mode,
 * an exit without MPI_Finalize, a reduction that failed): gc_span_time_of then gives
 * actual = own = elapsed, and no spread nor root_late. */
void gc_span_numbers_alone(double q[GC_SPAN_NUMBERS], double elapsed);

/* What gc_span_time_of gives of gc_span_numbers_alone(elapsed), without the numbers:
 * local mode's every call (the log's cheapest path). */
static inline struct gc_span_time gc_span_time_alone(double elapsed)
{
  return (struct gc_span_time){elapsed, elapsed, -1, -1};
}

/* The times of the assembled numbers q. rooted: a broadcast. Each time is >= 0 (a clock
 * estimate off by more than the call reads as 0) or -1 for none. */
struct gc_span_time gc_span_time_of(const double q[GC_SPAN_NUMBERS], int rooted);

#endif
