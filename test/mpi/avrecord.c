/* MPI_Alltoallv's log records, each true to its own call (test/mpi/alltoallv.sh): a
 * sequence of calls whose counts, and so whose totals, differ from call to call (ints and
 * doubles), a pattern coming back (calls 0, 3 and 6 are alike) so that a prediction made on
 * the call's own totals can be told from one made on another call's. Each rank writes the
 * bytes it sent in every call, one line per call in call order, to the file argv[1] with
 * %r replaced by its world rank, for the script to hold the log's bytes column against;
 * and checks every received element. Prints "avrecord: N calls, N failed". */
#include "mpitest.h"

#define CALLS 9

/* Elements from s to d in call c: one of three patterns (c % 3), scaled by 1 + c, except
 * the first pattern's, never scaled: calls 0, 3 and 6 are alike (the repeat the script
 * compares), every other call's totals its own. */
static int units(int c, int s, int d)
{
  int p = c % 3;
  int scale = p == 0 ? 1 : 1 + c;
  return ((s * 3 + d * 5 + p * 7) % 11 + 1) * scale;
}

/* Element value: which call, sender, receiver and index. */
static double value(int c, int s, int d, int i)
{
  return c * 1e6 + s * 1e4 + d * 1e2 + i % 100;
}

static int one_call(int c, int rank, int size, long long *sent)
{
  MPI_Datatype type = c % 3 && c % 2 ? MPI_DOUBLE : MPI_INT; /* calls 0, 3, 6: ints */
  int tsize, scount[64], sdispl[64], rcount[64], rdispl[64], st = 0, rt = 0, bad = 0;
  MPI_Type_size(type, &tsize);
  for (int p = 0; p < size; p++) {
    scount[p] = units(c, rank, p), sdispl[p] = st, st += scount[p];
    rcount[p] = units(c, p, rank), rdispl[p] = rt, rt += rcount[p];
  }
  double *sd = malloc(sizeof(double) * (size_t)st), *rd = malloc(sizeof(double) * (size_t)rt);
  int *si = malloc(sizeof(int) * (size_t)st), *ri = malloc(sizeof(int) * (size_t)rt);
  for (int p = 0; p < size; p++)
    for (int i = 0; i < scount[p]; i++)
      sd[sdispl[p] + i] = value(c, rank, p, i), si[sdispl[p] + i] = (int)value(c, rank, p, i);
  if (type == MPI_DOUBLE)
    MPI_Alltoallv(sd, scount, sdispl, type, rd, rcount, rdispl, type, MPI_COMM_WORLD);
  else
    MPI_Alltoallv(si, scount, sdispl, type, ri, rcount, rdispl, type, MPI_COMM_WORLD);
  for (int p = 0; p < size; p++)
    for (int i = 0; i < rcount[p]; i++) {
      double want = value(c, p, rank, i);
      double got = type == MPI_DOUBLE ? rd[rdispl[p] + i] : (double)ri[rdispl[p] + i];
      bad |= got < want - 0.5 || got > want + 0.5;
    }
  *sent = (long long)st * tsize;
  free(sd), free(rd), free(si), free(ri);
  return bad;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2 || size > 64)
    MPI_Abort(MPI_COMM_WORLD, 2);
  char path[4096];
  const char *at = strstr(argv[1], "%r");
  if (!at)
    MPI_Abort(MPI_COMM_WORLD, 2);
  snprintf(path, sizeof path, "%.*s%d%s", (int)(at - argv[1]), argv[1], rank, at + 2);
  FILE *f = fopen(path, "w");
  if (!f)
    MPI_Abort(MPI_COMM_WORLD, 2);
  for (int c = 0; c < CALLS; c++) {
    long long sent;
    if (one_call(c, rank, size, &sent)) {
      failed++;
      printf("FAIL rank %d call %d: wrong data\n", rank, c);
    }
    fprintf(f, "%lld\n", sent);
  }
  fclose(f);
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("avrecord: %d calls, %d failed\n", CALLS, failed);
  MPI_Finalize();
  return 0;
}
