/* LG cases the generic checker cannot express: the agreed fallback when one rank cannot
 * allocate, and block offsets past 2 GiB (a type of 1 GiB extent on sparse buffers). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "lg_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "alltoall/lg.h"

static struct gc_alltoall_call lg_call(const void *sbuf, int scount, MPI_Datatype stype,
                                       void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
  int size;
  PMPI_Type_size(rtype, &size);
  return (struct gc_alltoall_call){sbuf, scount, stype, rbuf, rcount, rtype, comm,
                                   (size_t)rcount * (size_t)size, 0};
}

/* Address space now in use, from /proc (0 when unknown). */
static size_t vm_bytes(void)
{
  unsigned long pages = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%lu", &pages) != 1)
      pages = 0;
    fclose(f);
  }
  return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

int lg_limits_fallback(struct gc_comm_state *st, MPI_Comm comm)
{
  MPI_Comm priv, cluster; /* create them now: the limit below is for LG's buffers only */
  if (gc_comm_private(st, &priv) != MPI_SUCCESS || gc_comm_cluster(st, &cluster) != MPI_SUCCESS)
    return 1;
  int count = 1 << 20, n = st->size, poor = st->size - 1, ok = 1;
  int *send = calloc((size_t)n * (size_t)count, sizeof(int));
  int *recv = calloc((size_t)n * (size_t)count, sizeof(int));
  struct rlimit old, low;
  if (!send || !recv || getrlimit(RLIMIT_AS, &old) != 0)
    ok = 0;
  struct gc_alltoall_call call = lg_call(send, count, MPI_INT, recv, count, MPI_INT, comm);
  if (ok && st->rank == poor) { /* room for about 1 MiB more: not for n blocks of 4 MiB */
    low = old;
    low.rlim_cur = vm_bytes() + (1u << 20);
    ok = low.rlim_cur > (1u << 20) && setrlimit(RLIMIT_AS, &low) == 0;
  }
  int rc = ok ? gc_alltoall_lg_run(&call, st, NULL) : MPI_ERR_OTHER;
  if (st->rank == poor)
    setrlimit(RLIMIT_AS, &old);
  ok = ok && rc == GC_FALLBACK;
  if (!ok)
    fprintf(stderr, "rank %d: fallback case: run returned %d\n", st->rank, rc);
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  free(send), free(recv);
  return !ok;
}

#define GIB ((size_t)1 << 30)

/* One int per block, blocks 1 GiB apart: offsets past 2 GiB for n >= 3, with only the
 * touched pages backed. Checks the ints and their neighbours against PMPI_Alltoall. */
static int huge_extent_once(struct gc_comm_state *st, MPI_Comm comm, MPI_Datatype type,
                            int in_place)
{
  size_t n = (size_t)st->size, span = n * GIB;
  int prot = PROT_READ | PROT_WRITE, flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
  char *send = mmap(NULL, span, prot, flags, -1, 0), *got = mmap(NULL, span, prot, flags, -1, 0);
  char *want = mmap(NULL, span, prot, flags, -1, 0);
  int bad = send == MAP_FAILED || got == MAP_FAILED || want == MAP_FAILED;
  for (size_t d = 0; !bad && d < n; d++)
    for (int k = -1; k <= 1; k++) {
      if (d == 0 && k < 0)
        continue;
      int v = k ? -7 : st->rank * 1000 + (int)d, sentinel = -1;
      memcpy(send + d * GIB + 4 * k, &v, 4);
      memcpy(got + d * GIB + 4 * k, in_place ? &v : &sentinel, 4);
      memcpy(want + d * GIB + 4 * k, in_place ? &v : &sentinel, 4);
    }
  if (!bad) {
    const void *sbuf = in_place ? MPI_IN_PLACE : (const void *)send;
    struct gc_alltoall_call call = lg_call(sbuf, 1, type, got, 1, type, comm);
    int rc = gc_alltoall_lg_run(&call, st, NULL);
    bad = rc != MPI_SUCCESS || PMPI_Alltoall(sbuf, 1, type, want, 1, type, comm) != MPI_SUCCESS;
  }
  for (size_t d = 0; !bad && d < n; d++) {
    int v;
    memcpy(&v, got + d * GIB, 4);
    bad = v != (int)d * 1000 + st->rank || memcmp(got + d * GIB + 4, want + d * GIB + 4, 4) ||
          memcmp(got + d * GIB, want + d * GIB, 4) ||
          (d > 0 && memcmp(got + d * GIB - 4, want + d * GIB - 4, 4));
    if (bad)
      fprintf(stderr, "rank %d: huge extent: block %zu wrong\n", st->rank, d);
  }
  munmap(send, span), munmap(got, span), munmap(want, span);
  return bad;
}

int lg_limits_huge_extent(struct gc_comm_state *st, MPI_Comm comm)
{
  MPI_Datatype type;
  PMPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)GIB, &type);
  PMPI_Type_commit(&type);
  int bad = huge_extent_once(st, comm, type, 0) | huge_extent_once(st, comm, type, 1);
  PMPI_Type_free(&type);
  PMPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, comm);
  return bad;
}
