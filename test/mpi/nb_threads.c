/* Nonblocking calls completed in one thread while another makes the communicator's
 * blocking calls (MPI_THREAD_MULTIPLE; issue 28 item 5). The main thread posts an
 * MPI_Ibcast on a duplicate of the world, hands its request to a waiter thread, and
 * makes a blocking MPI_Bcast on the same duplicate, ITERATIONS times; the waiter
 * completes each request with MPI_Wait as it comes. In sync mode the log's window posts
 * its halves inside those blocking calls while the waiter's completions are kept for
 * them (shim/span.c: carry, keep_nb): test/sanitize/robust.sh runs it under
 * ThreadSanitizer. Every buffer is checked.
 *
 *   nb_threads [ITERATIONS]   (default 300)
 * Prints "nb_threads: N calls per rank, F failed"; exit 1 when a check failed or
 * MPI_THREAD_MULTIPLE is not provided. */
#include <pthread.h>

#include "mpitest.h"

enum { N = 16, QUEUE = 8 };

static struct {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  MPI_Request req[QUEUE];
  int (*buf)[N];
  int head, tail, done, failed;
} q = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};

static int value(int call, int i)
{
  return call * 1009 + i;
}

static void *waiter(void *arg)
{
  (void)arg;
  for (int call = 0;; call++) {
    pthread_mutex_lock(&q.lock);
    while (q.head == q.tail && !q.done)
      pthread_cond_wait(&q.changed, &q.lock);
    if (q.head == q.tail) {
      pthread_mutex_unlock(&q.lock);
      return NULL;
    }
    MPI_Request r = q.req[q.head % QUEUE];
    pthread_mutex_unlock(&q.lock);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
      q.failed += q.buf[call][i] != value(call, i);
    pthread_mutex_lock(&q.lock);
    q.head++;
    pthread_cond_broadcast(&q.changed);
    pthread_mutex_unlock(&q.lock);
  }
}

int main(int argc, char **argv)
{
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank, iterations = argc > 1 ? atoi(argv[1]) : 300, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0)
      printf("FAIL nb_threads: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
    MPI_Finalize();
    return 1;
  }
  if (iterations < 1)
    iterations = 300;
  q.buf = malloc(sizeof *q.buf * (size_t)iterations);
  if (!q.buf)
    MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  int one = 0;
  MPI_Bcast(&one, 1, MPI_INT, 0, c); /* names it: its nonblocking calls are logged */
  pthread_t t;
  pthread_create(&t, NULL, waiter, NULL);
  for (int call = 0; call < iterations; call++) {
    for (int i = 0; i < N; i++)
      q.buf[call][i] = rank == 0 ? value(call, i) : -1;
    MPI_Request r;
    MPI_Ibcast(q.buf[call], N, MPI_INT, 0, c, &r);
    pthread_mutex_lock(&q.lock);
    while (q.tail - q.head == QUEUE)
      pthread_cond_wait(&q.changed, &q.lock);
    q.req[q.tail++ % QUEUE] = r;
    pthread_cond_broadcast(&q.changed);
    pthread_mutex_unlock(&q.lock);
    one = rank == 0 ? call : -1;
    MPI_Bcast(&one, 1, MPI_INT, 0, c);
    failed += one != call;
  }
  pthread_mutex_lock(&q.lock);
  q.done = 1;
  pthread_cond_broadcast(&q.changed);
  pthread_mutex_unlock(&q.lock);
  pthread_join(t, NULL);
  MPI_Comm_free(&c);
  failed = total_failures(failed + q.failed);
  if (rank == 0)
    printf("nb_threads: %d calls per rank, %d failed\n", 2 * iterations + 1, failed);
  free(q.buf);
  MPI_Finalize();
  return failed != 0;
}
