/* Threads on different communicators at once (MPI_THREAD_MULTIPLE).
 *
 * Each thread owns two communicators (a duplicate of the world and the world reversed)
 * and calls MPI_Alltoall and MPI_Bcast on them in a loop, while the other threads do the
 * same on theirs; every few iterations it also duplicates one of its communicators, uses
 * the duplicate once and frees it, so gridcoll builds and deletes per-communicator state
 * while other threads are inside it. Every receive buffer is checked against values
 * computed from (sender, receiver, index, iteration). MPI forbids concurrent collectives
 * on one communicator, never on different ones: this is the pattern a threaded program
 * may use.
 *
 *   threads [THREADS [ITERATIONS]]   (defaults 3 and 60)
 * Prints "FAIL ..." per failing check and
 *   "threads: T threads, N calls per rank, F failed" (calls as gridcoll would log them).
 * Exit 1 when a check failed or MPI_THREAD_MULTIPLE is not provided. */
#include <pthread.h>

#include "mpitest.h"

#define MAX_THREADS 8
#define NCOMMS 2

struct worker {
  pthread_t thread;
  int id, iterations;
  MPI_Comm comms[NCOMMS];
  int failed;
  long calls;
};

static int value(int from, int to, int i, int salt)
{
  return from * 1000003 + to * 10007 + i * 31 + salt;
}

/* count ints per block; the block for `to` holds value(me, to, i, salt). */
static int check_alltoall(MPI_Comm comm, int count, int salt)
{
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int *send = malloc(sizeof(int) * (size_t)count * (size_t)size);
  int *recv = malloc(sizeof(int) * (size_t)count * (size_t)size);
  for (int d = 0; d < size; d++)
    for (int i = 0; i < count; i++) {
      send[d * count + i] = value(rank, d, i, salt);
      recv[d * count + i] = -1;
    }
  int bad = MPI_Alltoall(send, count, MPI_INT, recv, count, MPI_INT, comm) != MPI_SUCCESS;
  for (int s = 0; s < size && !bad; s++)
    for (int i = 0; i < count && !bad; i++)
      bad = recv[s * count + i] != value(s, rank, i, salt);
  free(send);
  free(recv);
  return bad;
}

static int check_bcast(MPI_Comm comm, int count, int root, int salt)
{
  int rank;
  MPI_Comm_rank(comm, &rank);
  int *buf = malloc(sizeof(int) * (size_t)count);
  for (int i = 0; i < count; i++)
    buf[i] = rank == root ? value(root, 0, i, salt) : -1;
  int bad = MPI_Bcast(buf, count, MPI_INT, root, comm) != MPI_SUCCESS;
  for (int i = 0; i < count && !bad; i++)
    bad = buf[i] != value(root, 0, i, salt);
  free(buf);
  return bad;
}

static void *work(void *arg)
{
  struct worker *w = arg;
  /* Small blocks, blocks that make LG grow its cached buffers, a large broadcast that a
   * segmented tree cuts into pieces. */
  static const int counts[] = {1, 7, 300, 2048};
  static const int bcast_counts[] = {1, 100, 5000, 40000};
  for (int it = 0; it < w->iterations; it++) {
    for (int c = 0; c < NCOMMS; c++) {
      int size, salt = w->id * 100000 + it * 10 + c;
      MPI_Comm_size(w->comms[c], &size);
      int a = counts[(it + c) % 4], b = bcast_counts[(it + 2 * c) % 4];
      if (check_alltoall(w->comms[c], a, salt)) {
        printf("FAIL alltoall thread %d comm %d iteration %d count %d\n", w->id, c, it, a);
        w->failed++;
      }
      if (check_bcast(w->comms[c], b, (it + w->id) % size, salt)) {
        printf("FAIL bcast thread %d comm %d iteration %d count %d\n", w->id, c, it, b);
        w->failed++;
      }
      w->calls += 2;
    }
    if (it % 5 == 4) { /* state built and freed while the other threads run */
      MPI_Comm tmp;
      MPI_Comm_dup(w->comms[it % NCOMMS], &tmp);
      if (check_alltoall(tmp, 3, it) || check_bcast(tmp, 50, 0, it)) {
        printf("FAIL short-lived communicator, thread %d iteration %d\n", w->id, it);
        w->failed++;
      }
      w->calls += 2;
      MPI_Comm_free(&tmp);
    }
  }
  return NULL;
}

int main(int argc, char **argv)
{
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0)
      printf("FAIL threads: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
    MPI_Finalize();
    return 1;
  }
  int nthreads = argc > 1 ? atoi(argv[1]) : 3, iterations = argc > 2 ? atoi(argv[2]) : 60;
  if (nthreads < 1 || nthreads > MAX_THREADS)
    nthreads = 3;

  /* Communicators are made here, one thread, in the same order on every rank. */
  struct worker w[MAX_THREADS];
  for (int t = 0; t < nthreads; t++) {
    w[t] = (struct worker){.id = t, .iterations = iterations};
    MPI_Comm_dup(MPI_COMM_WORLD, &w[t].comms[0]);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &w[t].comms[1]);
  }
  for (int t = 0; t < nthreads; t++)
    pthread_create(&w[t].thread, NULL, work, &w[t]);
  int failed = 0;
  long calls = 0;
  for (int t = 0; t < nthreads; t++) {
    pthread_join(w[t].thread, NULL);
    failed += w[t].failed;
    calls += w[t].calls;
    for (int c = 0; c < NCOMMS; c++)
      MPI_Comm_free(&w[t].comms[c]);
  }
  failed = total_failures(failed);
  if (rank == 0)
    printf("threads: %d threads, %ld calls per rank, %d failed\n", nthreads, calls, failed);
  MPI_Finalize();
  return failed != 0;
}
