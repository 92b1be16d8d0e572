/* Every C door into the two collectives besides the plain ones: MPI_Alltoall_c and
 * MPI_Bcast_c (MPI-4 large counts), MPI_Ialltoall(_c), MPI_Ibcast(_c), and the persistent
 * MPI_Alltoall_init(_c), MPI_Bcast_init(_c) started twice each. Checks every value it
 * receives against the value it must be; the test script checks gridcoll's log holds one
 * record per call, with its grid algorithm for the blocking _c calls.
 *
 *   entry_points          the calls above (counts of each printed on stdout)
 *   entry_points huge     one MPI_Bcast_c of 2^31 + 16 bytes (counts beyond int; 2 GiB
 *                         per rank): the tree broadcast's pieces then go through the _c
 *                         point-to-point calls */
#include "mpitest.h"

#include <stdint.h>

static int rank, nprocs;

/* Block i of rank r's send buffer, element j (2 ints per block). */
static int value(int r, int i, int j)
{
  return 1000 * r + 10 * i + j;
}

static void fill_send(int *buf, int shift)
{
  for (int i = 0; i < nprocs; i++)
    for (int j = 0; j < 2; j++)
      buf[2 * i + j] = value(rank, i, j) + shift;
}

/* recv holds block `rank` of every rank's send buffer. */
static int check_recv(const char *name, const int *recv, int shift)
{
  int bad = 0;
  for (int i = 0; i < nprocs; i++)
    for (int j = 0; j < 2; j++)
      bad |= recv[2 * i + j] != value(i, rank, j) + shift;
  return verdict(name, bad);
}

static void fill_bcast(double *x, int root, int shift)
{
  for (int k = 0; k < 5; k++)
    x[k] = rank == root ? 0.5 + k + 100 * root + shift : -1;
}

static int check_bcast(const char *name, const double *x, int root, int shift)
{
  int bad = 0;
  for (int k = 0; k < 5; k++) { /* byte for byte what the root sent */
    double want = 0.5 + k + 100 * root + shift;
    bad |= memcmp(&x[k], &want, sizeof want) != 0;
  }
  return verdict(name, bad);
}

#if MPI_VERSION >= 4
static int huge_bcast(void)
{
  MPI_Count count = ((MPI_Count)1 << 31) + 16;
  unsigned char *buf = malloc((size_t)count);
  if (!buf)
    return verdict("huge: malloc", 1);
  for (MPI_Count i = 0; i < count; i += 4096)
    buf[i] = rank == 0 ? (unsigned char)(i / 4096 * 7) : 0;
  buf[count - 1] = rank == 0 ? 0x5a : 0;
  int rc = MPI_Bcast_c(buf, count, MPI_BYTE, 0, MPI_COMM_WORLD), bad = rc != MPI_SUCCESS;
  for (MPI_Count i = 0; i < count; i += 4096)
    bad |= buf[i] != (unsigned char)(i / 4096 * 7);
  bad |= buf[count - 1] != 0x5a;
  free(buf);
  if (rank == 0)
    printf("entry: 1 huge bcast_c of %lld bytes\n", (long long)count);
  return verdict("huge: MPI_Bcast_c beyond INT_MAX", bad);
}
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int failed = 0, blocking = 0, nonblocking = 0, persistent = 0;
  int *send = malloc(sizeof(int) * 2 * (size_t)nprocs);
  int *recv = malloc(sizeof(int) * 2 * (size_t)nprocs);
  double x[5];
  MPI_Request req;

#if MPI_VERSION >= 4
  if (argc > 1 && strcmp(argv[1], "huge") == 0) {
    failed += huge_bcast();
    failed = total_failures(failed);
    if (rank == 0)
      printf("entry: %d failed\n", failed);
    MPI_Finalize();
    return failed != 0;
  }

  /* Blocking large-count calls: gridcoll's algorithms. */
  fill_send(send, 0);
  MPI_Alltoall_c(send, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD), blocking++;
  failed += check_recv("MPI_Alltoall_c", recv, 0);
  fill_send(recv, 1);
  MPI_Alltoall_c(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, 2, MPI_INT, MPI_COMM_WORLD),
      blocking++;
  failed += check_recv("MPI_Alltoall_c in place", recv, 1);
  for (int root = 0; root < nprocs; root++) {
    fill_bcast(x, root, 0);
    MPI_Bcast_c(x, 5, MPI_DOUBLE, root, MPI_COMM_WORLD), blocking++;
    failed += check_bcast("MPI_Bcast_c", x, root, 0);
  }
#endif

  /* Nonblocking. */
  fill_send(send, 2);
  MPI_Ialltoall(send, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD, &req), nonblocking++;
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  failed += check_recv("MPI_Ialltoall", recv, 2);
  fill_bcast(x, nprocs - 1, 2);
  MPI_Ibcast(x, 5, MPI_DOUBLE, nprocs - 1, MPI_COMM_WORLD, &req), nonblocking++;
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  failed += check_bcast("MPI_Ibcast", x, nprocs - 1, 2);
#if MPI_VERSION >= 4
  fill_send(send, 3);
  MPI_Ialltoall_c(send, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD, &req), nonblocking++;
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  failed += check_recv("MPI_Ialltoall_c", recv, 3);
  fill_bcast(x, 0, 3);
  MPI_Ibcast_c(x, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req), nonblocking++;
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  failed += check_bcast("MPI_Ibcast_c", x, 0, 3);

  /* Persistent: created once, started twice with new data each time. */
  for (int large = 0; large < 2; large++) {
    MPI_Request a, b;
    if (large) {
      MPI_Alltoall_init_c(send, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &a);
      MPI_Bcast_init_c(x, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &b);
    } else {
      MPI_Alltoall_init(send, 2, MPI_INT, recv, 2, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &a);
      MPI_Bcast_init(x, 5, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &b);
    }
    persistent += 2;
    for (int start = 0; start < 2; start++) {
      int shift = 10 + 2 * large + start;
      fill_send(send, shift);
      fill_bcast(x, 0, shift);
      MPI_Start(&a);
      MPI_Wait(&a, MPI_STATUS_IGNORE);
      MPI_Start(&b);
      MPI_Wait(&b, MPI_STATUS_IGNORE);
      failed += check_recv(large ? "MPI_Alltoall_init_c" : "MPI_Alltoall_init", recv, shift);
      failed += check_bcast(large ? "MPI_Bcast_init_c" : "MPI_Bcast_init", x, 0, shift);
    }
    MPI_Request_free(&a);
    MPI_Request_free(&b);
  }
#endif

  failed = total_failures(failed);
  if (rank == 0)
    printf("entry: %d failed, %d blocking, %d nonblocking, %d persistent calls per rank\n",
           failed, blocking, nonblocking, persistent);
  free(send), free(recv);
  MPI_Finalize();
  return failed != 0;
}
