/* A derived datatype freed and another made in its place, whose handle MPI gives out
 * again: gridcoll keeps what it learnt of a datatype (usable, its size: shim/datatype.c)
 * from call to call, and must never serve the old type's size for the new one. Each
 * round makes MPI_Type_contiguous(len, MPI_INT) with len changing from round to round,
 * runs REPS all-to-alls and broadcasts of 3 elements with it, compares every buffer with
 * the PMPI call's byte for byte (and the bytes past its end), then frees the type. The
 * all-to-all is the sensitive one: LG moves block_bytes = count x the cached size.
 *
 *   typereuse [ROUNDS [REPS]]   (default 40 and 3)
 * Prints "typereuse: N calls per rank, F failed, R handles reused with another size"; a
 * run where MPI never reused a handle (R = 0) proves nothing, and run.sh says so. */
#include "mpitest.h"

enum { COUNT = 3, MAX_LEN = 7 };

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rounds = argc > 1 ? atoi(argv[1]) : 40, reps = argc > 2 ? atoi(argv[2]) : 3;
  int me, size, failed = 0, calls = 0, reused = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  size_t max = (size_t)size * COUNT * MAX_LEN * sizeof(int) + 64;
  unsigned char *send = malloc(max), *got = malloc(max), *want = malloc(max);
  if (!send || !got || !want)
    MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Datatype last = MPI_DATATYPE_NULL;
  int last_len = 0;
  for (int r = 0; r < rounds; r++) {
    int len = 1 + (r * 3) % MAX_LEN; /* 1 4 7 3 6 2 5 1 ...: grows and shrinks */
    MPI_Datatype t;
    MPI_Type_contiguous(len, MPI_INT, &t);
    MPI_Type_commit(&t);
    reused += t == last && len != last_len;
    size_t block = (size_t)COUNT * (size_t)len * sizeof(int), all = block * (size_t)size;
    for (int k = 0; k < reps; k++) {
      fill_pattern(send, all, me * 17 + r * 5 + k);
      memset(got, 0x5a, max), memset(want, 0x5a, max);
      MPI_Alltoall(send, COUNT, t, got, COUNT, t, MPI_COMM_WORLD);
      PMPI_Alltoall(send, COUNT, t, want, COUNT, t, MPI_COMM_WORLD);
      failed += verdict("alltoall", memcmp(got, want, max) != 0);
      int root = (r + k) % size;
      memset(got, 0x5a, max), memset(want, 0x5a, max);
      if (me == root)
        fill_pattern(got, block, r * 7 + k), fill_pattern(want, block, r * 7 + k);
      MPI_Bcast(got, COUNT, t, root, MPI_COMM_WORLD);
      PMPI_Bcast(want, COUNT, t, root, MPI_COMM_WORLD);
      failed += verdict("bcast", memcmp(got, want, max) != 0);
      calls += 2;
    }
    last = t, last_len = len;
    MPI_Type_free(&t);
  }
  free(send), free(got), free(want);
  failed = total_failures(failed);
  if (me == 0)
    printf("typereuse: %d calls per rank, %d failed, %d handles reused with another size\n",
           calls, failed, reused);
  MPI_Finalize();
  return 0;
}
