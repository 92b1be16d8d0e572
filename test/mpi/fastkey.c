/* The dispatch's fast path (shim/call.h: the memo) sends a call straight to the
 * library when its counts, datatypes and root equal those of the last call `auto` sent
 * there, under the same network view and with no watched datatype freed since. Every
 * rank must still run the same algorithm, though ranks may pass the same bytes with
 * other keys: here rank 0 passes 1 x MPI_Type_contiguous(len, MPI_BYTE), made anew each
 * round and freed after it (MPI hands its handle out again, for another len), and the
 * other ranks pass len x MPI_BYTE. Rounds alternate a length `auto` sends to the library
 * and one it runs a grid algorithm for (test/mpi/fastpath.sh gives the slow wide area
 * that makes it so), REPS calls each, broadcasts from a root in each cluster in turn,
 * then all-to-alls. A stale key on rank 0 (a freed type's handle taken for the new
 * type's) would run the library's broadcast there and a tree elsewhere: wrong bytes or
 * a hang. Every buffer is compared with the expected bytes, and the bytes past it.
 *
 *   fastkey SMALL LARGE [ROUNDS [REPS]]   (lengths in bytes; default 20 rounds, 3 reps)
 * Prints "fastkey: N calls per rank, F failed, R handles reused with another length". */
#include "mpitest.h"

enum { SLACK = 64 };

/* What rank `me` passes for len bytes: rank 0 a derived type (*made, to free), the
 * others bytes. */
static void describe(int me, int len, MPI_Datatype *type, int *count, MPI_Datatype *made)
{
  *made = MPI_DATATYPE_NULL;
  if (me == 0) {
    MPI_Type_contiguous(len, MPI_BYTE, made);
    MPI_Type_commit(made);
    *type = *made, *count = 1;
  } else {
    *type = MPI_BYTE, *count = len;
  }
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  if (argc < 3) {
    fprintf(stderr, "usage: fastkey SMALL LARGE [ROUNDS [REPS]]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int small = atoi(argv[1]), large = atoi(argv[2]);
  int rounds = argc > 3 ? atoi(argv[3]) : 20, reps = argc > 4 ? atoi(argv[4]) : 3;
  int me, size, failed = 0, calls = 0, reused = 0, last_len = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  size_t max = (size_t)large * (size_t)size + SLACK;
  unsigned char *send = malloc(max), *got = malloc(max), *want = malloc(max);
  if (!send || !got || !want)
    MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Datatype last = MPI_DATATYPE_NULL;
  for (int r = 0; r < rounds; r++) {
    int len = r % 2 ? large : small;
    MPI_Datatype type, made;
    int count;
    describe(me, len, &type, &count, &made);
    reused += me == 0 && made == last && len != last_len;
    for (int k = 0; k < reps; k++) {
      int root = (r / 2 + k) % 2 ? size - 1 : 0; /* one root in each cluster */
      memset(got, SENTINEL, max), memset(want, SENTINEL, max);
      fill_pattern(want, (size_t)len, r * 13 + k);
      if (me == root)
        memcpy(got, want, (size_t)len);
      MPI_Bcast(got, count, type, root, MPI_COMM_WORLD);
      failed += verdict("bcast", memcmp(got, want, max) != 0);

      size_t all = (size_t)len * (size_t)size;
      fill_pattern(send, all, me * 101 + r * 7 + k);
      memset(got, SENTINEL, max), memset(want, SENTINEL, max);
      for (int p = 0; p < size; p++) { /* block p of everyone's send is p's block `me`... */
        unsigned char *peer = malloc(all);
        if (!peer)
          MPI_Abort(MPI_COMM_WORLD, 2);
        fill_pattern(peer, all, p * 101 + r * 7 + k); /* ...of p's pattern */
        memcpy(want + (size_t)p * (size_t)len, peer + (size_t)me * (size_t)len, (size_t)len);
        free(peer);
      }
      MPI_Alltoall(send, count, type, got, count, type, MPI_COMM_WORLD);
      failed += verdict("alltoall", memcmp(got, want, max) != 0);
      calls += 2;
    }
    last = made, last_len = len;
    if (made != MPI_DATATYPE_NULL)
      MPI_Type_free(&made);
  }
  free(send), free(got), free(want);
  failed = total_failures(failed);
  MPI_Allreduce(MPI_IN_PLACE, &reused, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0)
    printf("fastkey: %d calls per rank, %d failed, %d handles reused with another length\n",
           calls, failed, reused);
  MPI_Finalize();
  return 0;
}
