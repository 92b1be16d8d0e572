/* What one clock read costs, each way the library could read it (shim/clock.h): MPI_Wtime,
 * clock_gettime(CLOCK_MONOTONIC), gridcoll's clock through the processor's counter
 * (shim/pure/timebase.h) and forced to CLOCK_MONOTONIC, and the counter's raw reads
 * unordered (rdtsc) and ordered (rdtscp, lfence;rdtsc), the choice timebase.h explains.
 * Blocks of N reads of each, in turn, ROUNDS times; the median ns per read of each.
 *
 *   clock_read [N [ROUNDS]]   N = 10000, ROUNDS = 101; one process (mpiexec -n 1): short
 *                             blocks, so that most run undisturbed on a loaded machine
 *
 * Output (one line): "clock_read mpi_wtime=X monotonic=X gridcoll=X gridcoll_monotonic=X
 * rdtsc=X rdtscp=X lfence_rdtsc=X source=S" (ns; S: what gridcoll's clock read). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "timebase.h"

static double mono(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static volatile double sink;
static volatile uint64_t isink;

enum { WTIME, MONO, GRIDCOLL, GRIDCOLL_MONO, RDTSC, RDTSCP, LFENCE, WAYS };
static const char *const names[WAYS] = {"mpi_wtime", "monotonic", "gridcoll", "gridcoll_monotonic",
                                        "rdtsc", "rdtscp", "lfence_rdtsc"};

/* ns per read of one block of n reads. */
static double block(int way, long n)
{
  double t0 = mono();
  switch (way) {
  case WTIME:
    for (long i = 0; i < n; i++)
      sink = MPI_Wtime();
    break;
  case MONO:
    for (long i = 0; i < n; i++)
      sink = mono();
    break;
  case GRIDCOLL:
  case GRIDCOLL_MONO:
    for (long i = 0; i < n; i++)
      sink = gc_timebase_now();
    break;
#if defined(__x86_64__)
  case RDTSC:
    for (long i = 0; i < n; i++)
      isink = __builtin_ia32_rdtsc();
    break;
  case RDTSCP: {
    unsigned aux;
    for (long i = 0; i < n; i++)
      isink = __builtin_ia32_rdtscp(&aux);
    break;
  }
  case LFENCE:
    for (long i = 0; i < n; i++) {
      __builtin_ia32_lfence();
      isink = __builtin_ia32_rdtsc();
    }
    break;
#endif
  default:
    return -1;
  }
  return (mono() - t0) / (double)n * 1e9;
}

static int by_value(const void *x, const void *y)
{
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  long n = argc > 1 ? atol(argv[1]) : 10000;
  int rounds = argc > 2 ? atoi(argv[2]) : 101;
  if (n < 1 || rounds < 1)
    return 2;
  double *t = malloc(sizeof(double) * (size_t)(WAYS * rounds));
  if (!t)
    return 2;
  /* Past the counter's calibration and first segments before anything is timed. */
  for (double end = mono() + 0.3; mono() < end;)
    sink = gc_timebase_now();
  const char *source = gc_timebase_source();
  for (int r = 0; r < rounds; r++)
    for (int w = 0; w < WAYS; w++) {
      if (w == GRIDCOLL || w == GRIDCOLL_MONO) /* its own clock each time: a fresh start */
        gc_timebase_use(NULL, w == GRIDCOLL);
      if (w == GRIDCOLL)
        for (double end = mono() + 0.02; mono() < end;)
          sink = gc_timebase_now();
      t[w * rounds + r] = block(w, n);
    }
  printf("clock_read");
  for (int w = 0; w < WAYS; w++) {
    qsort(t + w * rounds, (size_t)rounds, sizeof *t, by_value);
    printf(" %s=%.1f", names[w], t[w * rounds + rounds / 2]);
  }
  printf(" source=%s\n", source);
  free(t);
  MPI_Finalize();
  return 0;
}
