/* LG executor called directly (no wrappers), compared byte for byte with PMPI_Alltoall for
 * every case of alltoall_check.h on many cluster layouts of MPI_COMM_WORLD.
 *   mpiexec -n N lg_direct                 built-in layouts for N ranks
 *   mpiexec -n N lg_direct 0,1,1,0,2,...   one layout: the cluster id of every rank
 * Rank 0 prints one PASS/FAIL/SKIP line per layout and case; exit status 1 on any FAIL.
 * The fallbacks count printed at the end is of the generic cases: it should be 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alltoall/lg.h"
#include "alltoall_check.h"
#include "comm_state_stub.h"
#include "lg_limits.h"

static struct gc_comm_state *current; /* the state lg_alltoall runs on */
static int fallbacks;

static int lg_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  int size;
  PMPI_Type_size(recvtype, &size);
  struct gc_alltoall_call call = {sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm, (size_t)recvcount * (size_t)size, 0};
  int rc = gc_alltoall_lg_run(&call, current, NULL);
  if (rc == GC_FALLBACK) { /* agreed on every rank */
    fallbacks++;
    rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  return rc;
}

static void describe(char *out, size_t len, const int *ids, int n)
{
  size_t used = 0;
  for (int r = 0; r < n && used + 12 < len; r++)
    used += (size_t)snprintf(out + used, len - used, r ? ",%d" : "%d", ids[r]);
}

/* Runs every case on one layout; returns the number of failed cases. */
static int run_layout(const int *ids, int n, int rank)
{
  char name[256];
  describe(name, sizeof name, ids, n);
  struct gc_comm_state st;
  if (gc_test_state_init(&st, MPI_COMM_WORLD, ids) != MPI_SUCCESS) {
    if (rank == 0)
      printf("FAIL layout=%s: state\n", name);
    return 1;
  }
  current = &st;
  struct gc_alltoall_call probe = {.recvcount = 1, .recvtype = MPI_INT, .block_bytes = 4};
  int failed = 0, big = 0;
  for (int c = 0; c < st.layout.nclusters; c++)
    big |= st.layout.cluster_size[c] >= 2;
  int expect = st.layout.nclusters >= 2 && big;
  if (gc_alltoall_lg_supports(&probe, &st) != expect) {
    if (rank == 0)
      printf("FAIL layout=%s: supports() says %d\n", name, !expect);
    failed++;
  } else if (!expect) {
    if (rank == 0)
      printf("SKIP layout=%s: LG does not apply (supports() = 0 as expected)\n", name);
  } else {
    struct a2a_check_case cases[A2A_CHECK_MAX_CASES];
    int ncases = a2a_check_cases(cases, A2A_CHECK_MAX_CASES);
    for (int i = 0; i < ncases; i++) {
      int bad = a2a_check_run(MPI_COMM_WORLD, &cases[i], lg_alltoall);
      failed += bad;
      if (rank == 0)
        printf("%s layout=%s case=%s\n", bad ? "FAIL" : "PASS", name, cases[i].name);
    }
    a2a_check_cases_free(cases, ncases);
    static const char *names[2] = {"fallback agreed when one rank cannot allocate",
                                   "1 GiB extent: offsets past 2 GiB"};
    int (*limits[2])(struct gc_comm_state *, MPI_Comm) = {lg_limits_fallback,
                                                           lg_limits_huge_extent};
    for (int i = 0; i < 2; i++) {
      int bad = limits[i](&st, MPI_COMM_WORLD);
      failed += bad;
      if (rank == 0)
        printf("%s layout=%s case=%s\n", bad ? "FAIL" : "PASS", name, names[i]);
    }
  }
  fflush(stdout);
  gc_test_state_free(&st);
  return failed;
}

/* Two clusters split at every point, interleaved, three clusters, a random layout. */
static int run_builtin(int n, int rank)
{
  int *ids = malloc(sizeof(int) * (size_t)n), failed = 0;
  if (!ids)
    return 1;
  for (int k = 1; k < n; k++) {
    for (int r = 0; r < n; r++)
      ids[r] = r < k ? 0 : 1;
    failed += run_layout(ids, n, rank);
  }
  for (int r = 0; r < n; r++)
    ids[r] = r % 2;
  failed += run_layout(ids, n, rank);
  if (n >= 4) {
    for (int r = 0; r < n; r++)
      ids[r] = r % 3;
    failed += run_layout(ids, n, rank);
    for (int r = 0; r < n; r++)
      ids[r] = 2 - (r * 3) / n; /* contiguous thirds, last first */
    failed += run_layout(ids, n, rank);
  }
  unsigned seed = 7u * (unsigned)n; /* same on every rank */
  for (int r = 0; r < n; r++)
    ids[r] = (int)(rand_r(&seed) % 3u);
  failed += run_layout(ids, n, rank);
  free(ids);
  return failed;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, n, failed = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc > 1) {
    int *ids = calloc((size_t)n, sizeof(int)), got = 0;
    for (char *tok = strtok(argv[1], ","); ids && tok && got < n; tok = strtok(NULL, ","))
      ids[got++] = atoi(tok);
    if (!ids || got != n) {
      if (rank == 0)
        fprintf(stderr, "lg_direct: the layout needs %d comma-separated cluster ids\n", n);
      failed = 1;
    } else {
      failed = run_layout(ids, n, rank);
    }
    free(ids);
  } else {
    failed = run_builtin(n, rank);
  }
  if (rank == 0)
    printf("%s: lg_direct on %d ranks, %d failed, %d fallbacks\n", failed ? "FAIL" : "PASS",
           n, failed, fallbacks);
  MPI_Finalize();
  return failed ? 1 : 0;
}
