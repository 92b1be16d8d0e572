/* The measured calls of a learning `auto` (measure.h). */
#include "measure.h"

#include <float.h>
#include <pthread.h>

#include "clock.h"

/* The pending ones, linked for MPI_Finalize; threads may measure on their own
 * communicators at once. */
static struct gc_measure *pending;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void link_pending(struct gc_measure *m)
{
  pthread_mutex_lock(&lock);
  m->prev = NULL;
  m->next = pending;
  if (pending)
    pending->prev = m;
  pending = m;
  m->pending = 1;
  pthread_mutex_unlock(&lock);
}

static void unlink_pending(struct gc_measure *m)
{
  pthread_mutex_lock(&lock);
  if (m->prev)
    m->prev->next = m->next;
  else
    pending = m->next;
  if (m->next)
    m->next->prev = m->prev;
  m->pending = 0;
  pthread_mutex_unlock(&lock);
}

void gc_measure_post(MPI_Comm priv, int rank, struct gc_measure *m, struct gc_learn *e,
                     int algorithm, int root, double t0, double t1)
{
  double offset = gc_clock_offset();
  m->span[0] = t1 - offset;
  /* A broadcast starts when its root enters: the others' entries do not count. */
  m->span[1] = root < 0 || root == rank ? offset - t0 : -DBL_MAX;
  m->entry = e;
  m->algorithm = algorithm;
  if (PMPI_Iallreduce(MPI_IN_PLACE, m->span, 2, MPI_DOUBLE, MPI_MAX, priv, &m->req) ==
      MPI_SUCCESS)
    link_pending(m);
}

void gc_measure_settle(struct gc_measure *m)
{
  if (!m->pending)
    return;
  PMPI_Wait(&m->req, MPI_STATUS_IGNORE);
  unlink_pending(m);
  gc_learn_record(m->entry, m->algorithm, m->span[0] + m->span[1]);
}

void gc_measure_finalize(void)
{
  /* Every member posted each of these: waiting in any order completes them all. */
  while (pending)
    gc_measure_settle(pending);
}
