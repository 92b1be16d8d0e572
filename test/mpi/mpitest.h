/* Helpers shared by the MPI integration tests.
 *
 * These programs are linked WITHOUT gridcoll: they get it only through LD_PRELOAD, as a
 * user's program would. Each check runs the intercepted MPI_ call and the library's own
 * PMPI_ call on identical inputs and compares the whole receive buffers byte for byte,
 * gaps of non-contiguous datatypes included. */
#ifndef MPITEST_H
#define MPITEST_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SENTINEL 0xA5

struct type_case {
  const char *name;
  MPI_Datatype send, recv; /* may differ, with the same type signature */
  int scount, rcount;
};

/* Datatypes every test runs: basic, zero count, large, strided, resized struct with gaps,
 * and different send and receive types with the same signature. */
static inline int make_type_cases(struct type_case *tc, int big_bytes)
{
  int n = 0;
  tc[n++] = (struct type_case){"int", MPI_INT, MPI_INT, 3, 3};
  tc[n++] = (struct type_case){"double", MPI_DOUBLE, MPI_DOUBLE, 2, 2};
  tc[n++] = (struct type_case){"count0", MPI_INT, MPI_INT, 0, 0};
  tc[n++] = (struct type_case){"bytes", MPI_BYTE, MPI_BYTE, big_bytes, big_bytes};

  MPI_Datatype vec; /* 2 ints, stride 3: holes between them */
  MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
  MPI_Type_commit(&vec);
  tc[n++] = (struct type_case){"vector", vec, vec, 2, 2};
  tc[n++] = (struct type_case){"vector-to-int", vec, MPI_INT, 2, 4};

  struct pair {
    int i;
    double d;
  };
  int lens[2] = {1, 1};
  MPI_Aint disp[2] = {offsetof(struct pair, i), offsetof(struct pair, d)};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, st, resized;
  MPI_Type_create_struct(2, lens, disp, types, &st);
  MPI_Type_create_resized(st, 0, 2 * (MPI_Aint)sizeof(struct pair), &resized); /* gap */
  MPI_Type_free(&st);
  MPI_Type_commit(&resized);
  tc[n++] = (struct type_case){"resized-struct", resized, resized, 2, 2};
  return n;
}

static inline void free_type_cases(struct type_case *tc, int n)
{
  MPI_Datatype freed[8];
  int nfreed = 0;
  for (int i = 0; i < n; i++) {
    MPI_Datatype t = tc[i].send;
    int skip = t == MPI_INT || t == MPI_DOUBLE || t == MPI_BYTE;
    for (int k = 0; k < nfreed; k++)
      skip = skip || freed[k] == t;
    if (!skip && nfreed < 8) {
      freed[nfreed++] = t;
      MPI_Type_free(&t);
    }
  }
}

/* Bytes spanned by `count` elements of `type` laid end to end (lb assumed 0). */
static inline size_t span(MPI_Datatype type, long count)
{
  MPI_Aint lb, extent, tlb, textent;
  MPI_Type_get_extent(type, &lb, &extent);
  MPI_Type_get_true_extent(type, &tlb, &textent);
  return count > 0 ? (size_t)((count - 1) * extent + tlb + textent) : 0;
}

static inline void fill_pattern(unsigned char *buf, size_t n, int seed)
{
  for (size_t i = 0; i < n; i++)
    buf[i] = (unsigned char)((seed * 131 + (int)i * 7 + 1) & 0xff);
}

/* Communicators every test runs on: world, a duplicate, world reversed, and the two
 * halves (even and odd world ranks, numbered from the top) when there are enough ranks. */
static inline int make_comms(MPI_Comm *comms, const char **names)
{
  int rank, size, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  comms[n] = MPI_COMM_WORLD, names[n++] = "world";
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[n]), names[n++] = "dup";
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &comms[n]), names[n++] = "reversed";
  if (size >= 4)
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &comms[n]), names[n++] = "halves";
  return n;
}

/* One blocking broadcast of an int on comm: under gridcoll its first blocking collective,
 * which makes what its nonblocking calls need and may not wait for the other ranks to
 * make (doc/design.md: Nonblocking collectives): its state, its name in the log, its
 * schedules' memory under GRIDCOLL_NONBLOCKING=grid. MPI_COMM_WORLD has them from
 * MPI_Init. */
static inline void nb_ready(MPI_Comm comm)
{
  int x = 0;
  MPI_Bcast(&x, 1, MPI_INT, 0, comm);
}

static inline void free_comms(MPI_Comm *comms, int n)
{
  for (int i = 1; i < n; i++)
    MPI_Comm_free(&comms[i]);
}

/* Local verdict: a failing rank prints "FAIL name (rank r)"; one reduction at the end
 * (total_failures) keeps oversubscribed runs fast. */
static inline int verdict(const char *name, int failed_here)
{
  if (failed_here) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("FAIL %s (rank %d)\n", name, rank);
  }
  return failed_here != 0;
}

static inline int total_failures(int failed_here)
{
  int failed = 0;
  MPI_Allreduce(&failed_here, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return failed;
}

/* "quick" as an argument: world communicator and the first few datatypes only, for the
 * tests that check configuration handling rather than the algorithms. */
static inline int quick_mode(int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "quick") == 0)
      return 1;
  return 0;
}

#endif
