/* Reusable core of the all-to-all tests: run an implementation with the MPI_Alltoall
 * signature and PMPI_Alltoall on the same input, and compare the whole receive buffers
 * byte for byte (the gaps of non-contiguous types included: they must stay untouched).
 *
 * Used by test/mpi/direct/lg_direct.c (the algorithm called directly) and meant for the
 * LD_PRELOAD tests, where the implementation under test is MPI_Alltoall itself.
 *   struct a2a_check_case cases[A2A_CHECK_MAX_CASES];
 *   int n = a2a_check_cases(cases, A2A_CHECK_MAX_CASES);
 *   for (i...) failed |= a2a_check_run(comm, &cases[i], MPI_Alltoall);
 *   a2a_check_cases_free(cases, n);                                                    */
#ifndef GC_TEST_ALLTOALL_CHECK_H
#define GC_TEST_ALLTOALL_CHECK_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*a2a_check_fn)(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);

struct a2a_check_case {
  const char *name;
  int in_place;
  int sendcount, recvcount;
  MPI_Datatype sendtype, recvtype;
  int free_send, free_recv; /* derived types this module created */
};

#define A2A_CHECK_MAX_CASES 16

struct a2a_check_padded { char c; double d; int i; }; /* holes inside and at the end */

static inline int a2a_check_add(struct a2a_check_case *c, int n, int max, const char *name,
                                int in_place, int scount, MPI_Datatype stype, int rcount,
                                MPI_Datatype rtype)
{
  if (n < max)
    c[n] = (struct a2a_check_case){name, in_place, scount, rcount, stype, rtype, 0, 0};
  return n + 1;
}

/* Fills cases[] (at most max) and returns how many; derived types are committed. */
static inline int a2a_check_cases(struct a2a_check_case *c, int max)
{
  MPI_Datatype vec, vec6, padded, tmp, neg_lb;
  PMPI_Type_vector(3, 2, 4, MPI_INT, &vec); /* 6 ints in 10: strided with holes */
  PMPI_Type_vector(6, 1, 2, MPI_INT, &vec6); /* 6 ints, same signature as 6 x MPI_INT */
  int blen[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(struct a2a_check_padded, c), offsetof(struct a2a_check_padded, d),
                      offsetof(struct a2a_check_padded, i)};
  MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
  PMPI_Type_create_struct(3, blen, disp, types, &tmp);
  PMPI_Type_create_resized(tmp, 0, sizeof(struct a2a_check_padded) + 8, &padded);
  PMPI_Type_free(&tmp);
  PMPI_Type_create_resized(MPI_INT, -8, 16, &neg_lb); /* lower bound below the pointer */
  PMPI_Type_commit(&vec), PMPI_Type_commit(&vec6), PMPI_Type_commit(&padded);
  PMPI_Type_commit(&neg_lb);
  MPI_Datatype derived[4] = {vec, vec6, padded, neg_lb};
  int n = 0;
  n = a2a_check_add(c, n, max, "int x1", 0, 1, MPI_INT, 1, MPI_INT);
  n = a2a_check_add(c, n, max, "int x3", 0, 3, MPI_INT, 3, MPI_INT);
  n = a2a_check_add(c, n, max, "double x5", 0, 5, MPI_DOUBLE, 5, MPI_DOUBLE);
  n = a2a_check_add(c, n, max, "double x20000 (rendezvous)", 0, 20000, MPI_DOUBLE, 20000, MPI_DOUBLE);
  n = a2a_check_add(c, n, max, "vector(3,2,4,int) x2", 0, 2, vec, 2, vec);
  n = a2a_check_add(c, n, max, "resized struct{char,double,int} x3", 0, 3, padded, 3, padded);
  n = a2a_check_add(c, n, max, "resized int lb=-8 x2", 0, 2, neg_lb, 2, neg_lb);
  n = a2a_check_add(c, n, max, "send int x6, recv vector(6,1,2) x1", 0, 6, MPI_INT, 1, vec6);
  n = a2a_check_add(c, n, max, "send vector(6,1,2) x1, recv int x6", 0, 1, vec6, 6, MPI_INT);
  n = a2a_check_add(c, n, max, "send resized int lb=-8 x6, recv vector(6,1,2) x1", 0, 6, neg_lb, 1, vec6);
  n = a2a_check_add(c, n, max, "in place int x4", 1, 0, MPI_DATATYPE_NULL, 4, MPI_INT);
  n = a2a_check_add(c, n, max, "in place vector(3,2,4) x2", 1, 0, MPI_DATATYPE_NULL, 2, vec);
  n = a2a_check_add(c, n, max, "in place resized struct x2", 1, 0, MPI_DATATYPE_NULL, 2, padded);
  n = a2a_check_add(c, n, max, "count 0", 0, 0, MPI_INT, 0, MPI_INT);
  n = n < max ? n : max;
  for (int k = 0; k < 4; k++) { /* the first case using a derived type frees it */
    int i = 0;
    while (i < n && c[i].sendtype != derived[k] && c[i].recvtype != derived[k])
      i++;
    if (i == n)
      PMPI_Type_free(&derived[k]);
    else if (c[i].sendtype == derived[k])
      c[i].free_send = 1;
    else
      c[i].free_recv = 1;
  }
  return n;
}

static inline void a2a_check_cases_free(struct a2a_check_case *c, int n)
{
  for (int i = 0; i < n; i++) {
    if (c[i].free_send)
      PMPI_Type_free(&c[i].sendtype);
    if (c[i].free_recv)
      PMPI_Type_free(&c[i].recvtype);
  }
}

/* A buffer for `blocks` blocks of count x type, with guard bytes on both sides. */
struct a2a_check_buf { unsigned char *mem, *base; size_t bytes; };

static inline int a2a_check_alloc(struct a2a_check_buf *b, int blocks, int count, MPI_Datatype type)
{
  MPI_Aint lb, extent, tlb, textent;
  PMPI_Type_get_extent(type, &lb, &extent);
  PMPI_Type_get_true_extent(type, &tlb, &textent);
  long long elems = (long long)blocks * count;
  size_t lo = (size_t)(tlb < 0 ? -tlb : 0) + 64;
  size_t span = elems > 0 ? (size_t)((elems - 1) * extent + tlb + textent) : 0;
  b->bytes = lo + span + 64;
  b->mem = malloc(b->bytes);
  b->base = b->mem ? b->mem + lo : NULL;
  return b->mem ? 0 : -1;
}

static inline void a2a_check_fill(struct a2a_check_buf *b, int seed)
{
  for (size_t i = 0; i < b->bytes; i++)
    b->mem[i] = seed < 0 ? 0xa5 : (unsigned char)(seed * 131 + i * 7 + (i >> 8) * 13 + 1);
}

/* Runs one case with fn and with PMPI_Alltoall. Collective; returns the same on all ranks:
 * 0 when every rank got the same return code (MPI_SUCCESS) and identical bytes, else 1. */
static inline int a2a_check_run(MPI_Comm comm, const struct a2a_check_case *c, a2a_check_fn fn)
{
  int rank, size, bad = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  struct a2a_check_buf send = {0}, got = {0}, want = {0};
  if ((!c->in_place && a2a_check_alloc(&send, size, c->sendcount, c->sendtype) != 0) ||
      a2a_check_alloc(&got, size, c->recvcount, c->recvtype) != 0 ||
      a2a_check_alloc(&want, size, c->recvcount, c->recvtype) != 0) {
    fprintf(stderr, "rank %d: out of memory for case %s\n", rank, c->name);
    bad = 1;
  } else {
    if (!c->in_place)
      a2a_check_fill(&send, rank + 1);
    a2a_check_fill(&got, c->in_place ? rank + 1 : -1);
    a2a_check_fill(&want, c->in_place ? rank + 1 : -1);
    const void *sbuf = c->in_place ? MPI_IN_PLACE : (const void *)send.base;
    int rc1 = fn(sbuf, c->sendcount, c->sendtype, got.base, c->recvcount, c->recvtype, comm);
    int rc2 = PMPI_Alltoall(sbuf, c->sendcount, c->sendtype, want.base, c->recvcount, c->recvtype, comm);
    if (rc1 != MPI_SUCCESS || rc2 != MPI_SUCCESS) {
      fprintf(stderr, "rank %d: %s: return codes %d (tested) and %d (PMPI)\n", rank, c->name, rc1, rc2);
      bad = 1;
    }
    for (size_t i = 0; i < got.bytes && !bad; i++)
      if (got.mem[i] != want.mem[i]) {
        fprintf(stderr, "rank %d: %s: first difference at byte %td of the receive buffer\n",
                rank, c->name, got.mem + i - got.base);
        bad = 1;
      }
  }
  free(send.mem), free(got.mem), free(want.mem);
  PMPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, comm);
  return bad;
}

#endif
