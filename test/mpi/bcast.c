/* MPI_Bcast through gridcoll equals PMPI_Bcast byte for byte, for every root, every
 * datatype case, on world, a duplicate, a reversed and a split communicator. */
#include "mpitest.h"

static int check(MPI_Comm comm, const struct type_case *tc, int root, int seed)
{
  int rank;
  MPI_Comm_rank(comm, &rank);
  size_t bytes = span(tc->send, tc->scount) + 1;
  unsigned char *got = malloc(bytes), *want = malloc(bytes);
  if (!got || !want)
    return 1;
  if (rank == root)
    fill_pattern(got, bytes, seed);
  else
    memset(got, SENTINEL, bytes);
  memcpy(want, got, bytes);
  MPI_Bcast(got, tc->scount, tc->send, root, comm);
  PMPI_Bcast(want, tc->scount, tc->send, root, comm);
  int bad = memcmp(got, want, bytes) != 0;
  free(got), free(want);
  return bad;
}

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int quick = quick_mode(argc, argv);
  int big = argc > 1 && !quick ? atoi(argv[1]) : 100000;
  struct type_case tc[16];
  int ntc = make_type_cases(tc, big);
  int ntypes = quick ? 2 : ntc;
  MPI_Comm comms[4];
  const char *cnames[4];
  int ncomms = make_comms(comms, cnames);
  int nused = quick ? 1 : ncomms;
  int checks = 0, failed = 0, calls = 0;
  for (int c = 0; c < nused; c++) {
    int size;
    MPI_Comm_size(comms[c], &size);
    for (int root = 0; root < size; root++)
      for (int t = 0; t < ntypes; t++) {
        if (tc[t].send != tc[t].recv)
          continue; /* broadcast has one type */
        char name[128];
        snprintf(name, sizeof name, "bcast %s root %d %s", cnames[c], root, tc[t].name);
        failed += verdict(name, check(comms[c], &tc[t], root, 31 * t + root));
        checks++, calls++;
      }
  }
  /* Every rank made the same number of calls only if the split halves have equal sizes;
   * report this rank 0's count, which the log test compares with rank 0's records. */
  free_comms(comms, ncomms);
  free_type_cases(tc, ntc);
  failed = total_failures(failed);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("bcast: %d checks, %d failed, %d calls per rank\n", checks, failed, calls);
  MPI_Finalize();
  return failed != 0;
}
