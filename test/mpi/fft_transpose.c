/* A client built like a parallel FFT's transpose (FFTW's and heFFTe's slab transposes): an
 * N0 x N1 complex array in row slabs of uneven height becomes its N1 x N0 transpose in row
 * slabs, by packing column blocks, one MPI_Alltoallv, and unpacking. It calls MPI only as
 * an application does (no PMPI): every element is checked against the serial transpose,
 * then transposed back and checked against the original. Shapes: uneven slabs, a rank with
 * no rows (zero counts), a tall and a wide array; on world and a reversed communicator.
 * Prints "fft_transpose: N checks, N failed". */
#include <complex.h>
#include "mpitest.h"

/* Rows of slab r when n rows are cut over size ranks unevenly: rank r gets a share
 * proportional to r + 1 (the last rank takes the rest), so no two slabs need be equal. */
static void slabs(int n, int size, int *count, int *first)
{
  int total = size * (size + 1) / 2, at = 0;
  for (int r = 0; r < size; r++) {
    count[r] = r == size - 1 ? n - at : (int)((long)n * (r + 1) / total);
    first[r] = at;
    at += count[r];
  }
}

static double complex element(int i, int j) { return (double)i + 1000.0 * (double)j * I; }

/* in: my rows [rfirst[me], +rcount[me]) of an n0 x n1 array; out: my rows of its n1 x n0
 * transpose, cut by cslabs. */
static int transpose(MPI_Comm comm, const double complex *in, double complex *out, int n0,
                     int n1)
{
  int me, size;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &size);
  int *rc = malloc(sizeof(int) * 6 * (size_t)size), *rf = rc + size, *cc = rf + size,
      *cf = cc + size, *scount = cf + size, *sdispl = scount + size;
  int *rcount = malloc(sizeof(int) * 2 * (size_t)size), *rdispl = rcount + size;
  slabs(n0, size, rc, rf);
  slabs(n1, size, cc, cf);
  double complex *pack = malloc(sizeof(double complex) * ((size_t)rc[me] * (size_t)n1 + 1));
  double complex *recv = malloc(sizeof(double complex) * ((size_t)n0 * (size_t)cc[me] + 1));
  for (int d = 0, at = 0; d < size; d++) { /* block for d: my rows x d's columns, row-major */
    scount[d] = rc[me] * cc[d], sdispl[d] = at;
    for (int i = 0; i < rc[me]; i++)
      for (int j = 0; j < cc[d]; j++)
        pack[at++] = in[(size_t)i * (size_t)n1 + (size_t)(cf[d] + j)];
  }
  for (int s = 0, at = 0; s < size; s++)
    rcount[s] = rc[s] * cc[me], rdispl[s] = at, at += rcount[s];
  int err = MPI_Alltoallv(pack, scount, sdispl, MPI_C_DOUBLE_COMPLEX, recv, rcount, rdispl,
                          MPI_C_DOUBLE_COMPLEX, comm);
  for (int s = 0; s < size; s++) /* from s: its rows x my columns -> my rows, its columns */
    for (int i = 0; i < rc[s]; i++)
      for (int j = 0; j < cc[me]; j++)
        out[(size_t)j * (size_t)n0 + (size_t)(rf[s] + i)] = recv[rdispl[s] + i * cc[me] + j];
  free(rc), free(rcount), free(pack), free(recv);
  return err;
}

/* One shape: forward against the serial transpose, back against the original. */
static int check(MPI_Comm comm, int n0, int n1)
{
  int me, size, bad = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &size);
  int *count = malloc(sizeof(int) * 2 * (size_t)size), *first = count + size;
  slabs(n0, size, count, first);
  int rows = count[me], row0 = first[me];
  slabs(n1, size, count, first);
  int trows = count[me], trow0 = first[me];
  double complex *a = malloc(sizeof(double complex) * ((size_t)rows * (size_t)n1 + 1));
  double complex *t = malloc(sizeof(double complex) * ((size_t)trows * (size_t)n0 + 1));
  double complex *back = malloc(sizeof(double complex) * ((size_t)rows * (size_t)n1 + 1));
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < n1; j++)
      a[(size_t)i * (size_t)n1 + (size_t)j] = element(row0 + i, j);
  bad |= transpose(comm, a, t, n0, n1) != MPI_SUCCESS;
  for (int j = 0; j < trows; j++) /* row j of the transpose is column trow0 + j of a */
    for (int i = 0; i < n0; i++) { /* byte for byte the element sent */
      double complex want = element(i, trow0 + j);
      bad |= memcmp(&t[(size_t)j * (size_t)n0 + (size_t)i], &want, sizeof want) != 0;
    }
  bad |= transpose(comm, t, back, n1, n0) != MPI_SUCCESS;
  bad |= memcmp(a, back, sizeof(double complex) * (size_t)rows * (size_t)n1) != 0;
  free(count), free(a), free(t), free(back);
  return bad;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm comms[2] = {MPI_COMM_WORLD, MPI_COMM_NULL};
  const char *cnames[2] = {"world", "reversed"};
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &comms[1]);
  static const int shapes[][2] = {{37, 29}, {64, 64}, {5, 300}, {300, 7}, {1, 1}, {2, 3}};
  int checks = 0, failed = 0;
  for (int c = 0; c < 2; c++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      char name[96];
      snprintf(name, sizeof name, "fft_transpose %s %dx%d", cnames[c], shapes[s][0], shapes[s][1]);
      failed += verdict(name, check(comms[c], shapes[s][0], shapes[s][1]));
      checks++;
    }
  MPI_Comm_free(&comms[1]);
  failed = total_failures(failed);
  if (rank == 0)
    printf("fft_transpose: %d checks, %d failed\n", checks, failed);
  MPI_Finalize();
  return failed != 0;
}
