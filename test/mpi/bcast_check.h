/* Checking a broadcast against the MPI library's own, byte for byte.
 *
 * Header only, for any MPI test program: the direct harness (test/mpi/direct/) passes
 * gridcoll's algorithms as the function under test, the LD_PRELOAD tests pass a wrapper
 * over MPI_Bcast. The reference is always PMPI_Bcast, which gridcoll does not intercept,
 * and the bookkeeping here (allreduce) also goes straight to PMPI.
 *
 * Every rank starts both runs from the same bytes: the root a pattern of (salt, byte),
 * the others a pattern of (salt, rank, byte) that differs from the root's, so a byte that
 * should not move (a hole of a strided or resized type) is caught if either run writes it. */
#ifndef GC_TEST_BCAST_CHECK_H
#define GC_TEST_BCAST_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*bcheck_fn)(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm,
                         void *ctx);

enum { BCHECK_NTYPES = 4 };

struct bcheck_type {
  const char *name;
  MPI_Datatype type;
  int derived; /* ours to free */
};

/* int, double, a strided vector (3 blocks of 2 ints, stride 3: holes between blocks and
 * between elements) and a struct {int; double} resized to 32 bytes (holes after the int
 * and at the end). MPI_SUCCESS or the PMPI error. */
static inline int bcheck_types_create(struct bcheck_type t[BCHECK_NTYPES])
{
  MPI_Datatype vec, st;
  int blen[2] = {1, 1};
  MPI_Aint disp[2] = {0, 8};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
  int rc;
  t[0] = (struct bcheck_type){"int", MPI_INT, 0};
  t[1] = (struct bcheck_type){"double", MPI_DOUBLE, 0};
  if ((rc = PMPI_Type_vector(3, 2, 3, MPI_INT, &vec)) != MPI_SUCCESS ||
      (rc = PMPI_Type_commit(&vec)) != MPI_SUCCESS)
    return rc;
  t[2] = (struct bcheck_type){"vector", vec, 1};
  if ((rc = PMPI_Type_create_struct(2, blen, disp, types, &st)) != MPI_SUCCESS ||
      (rc = PMPI_Type_create_resized(st, 0, 32, &t[3].type)) != MPI_SUCCESS ||
      (rc = PMPI_Type_free(&st)) != MPI_SUCCESS ||
      (rc = PMPI_Type_commit(&t[3].type)) != MPI_SUCCESS)
    return rc;
  t[3].name = "resized-struct";
  t[3].derived = 1;
  return MPI_SUCCESS;
}

static inline void bcheck_types_free(struct bcheck_type t[BCHECK_NTYPES])
{
  for (int i = 0; i < BCHECK_NTYPES; i++)
    if (t[i].derived)
      PMPI_Type_free(&t[i].type);
}

/* Bytes spanned by count elements of dt from the buffer's start (lb >= 0 assumed). */
static inline size_t bcheck_span(int count, MPI_Datatype dt)
{
  MPI_Aint lb, extent, tlb, textent;
  PMPI_Type_get_extent(dt, &lb, &extent);
  PMPI_Type_get_true_extent(dt, &tlb, &textent);
  if (count <= 0)
    return 0;
  return (size_t)((MPI_Aint)(count - 1) * extent + tlb + textent);
}

static inline void bcheck_fill(unsigned char *p, size_t n, int rank, int root, unsigned salt)
{
  unsigned x = salt * 2654435761u + (rank == root ? 0u : 0x9e3779b9u * (unsigned)(rank + 1));
  for (size_t i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    p[i] = (unsigned char)(x >> 16);
  }
}

/* Runs fn and PMPI_Bcast from identical buffers and compares them. Collective over comm.
 * Returns the number of ranks whose bytes differ (the same on every rank), or -1 when out
 * of memory somewhere; *fn_rc gets fn's return code on this rank (MPI_SUCCESS expected). */
static inline int bcheck_case(MPI_Comm comm, int root, int count, MPI_Datatype dt,
                              unsigned salt, bcheck_fn fn, void *ctx, int *fn_rc)
{
  int rank, bad = 0, nbad = 0;
  PMPI_Comm_rank(comm, &rank);
  size_t span = bcheck_span(count, dt);
  unsigned char *ref = malloc(span + 1), *got = malloc(span + 1);
  if (!ref || !got)
    bad = -1000000; /* makes the sum negative */
  if (ref && got) {
    bcheck_fill(ref, span + 1, rank, root, salt);
    memcpy(got, ref, span + 1);
  }
  PMPI_Allreduce(&bad, &nbad, 1, MPI_INT, MPI_SUM, comm);
  if (nbad < 0) {
    free(ref);
    free(got);
    return -1;
  }
  PMPI_Bcast(ref, count, dt, root, comm);
  *fn_rc = fn(got, count, dt, root, comm, ctx);
  bad = *fn_rc != MPI_SUCCESS || memcmp(ref, got, span + 1) != 0;
  free(ref);
  free(got);
  PMPI_Allreduce(&bad, &nbad, 1, MPI_INT, MPI_SUM, comm);
  return nbad;
}

#endif
