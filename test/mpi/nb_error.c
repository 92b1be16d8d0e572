/* A nonblocking or persistent broadcast that fails on one rank reports its error there,
 * through the completion call, as the MPI library's own does (issue 28): the last rank
 * receives into a buffer half the root's count (erroneous, and every MPI reports it as a
 * truncation of that rank's receive), under MPI_ERRORS_RETURN. Run with a flat tree, so
 * that the short rank is a leaf and nobody waits for what it could not receive.
 *
 * Each completion call in turn on a persistent request started again: MPI_Wait,
 * MPI_Test, MPI_Waitall (MPI_ERR_IN_STATUS, the error in the status),
 * MPI_Request_get_status then MPI_Wait, MPI_Testany, MPI_Waitsome; then MPI_Ibcast with
 * MPI_Wait. Every other rank completes without error and with the root's data; then a
 * persistent broadcast of matching counts runs clean on every rank. Prints one line per
 * case on rank `size - 1` ("nb_error: CASE class NAME"), then "nb_error: C checks, F
 * failed". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N = 64 };

static int failed, checks;

static void check(int ok, int rank, const char *what)
{
  checks++;
  if (!ok) {
    failed++;
    fprintf(stderr, "nb_error: rank %d: %s\n", rank, what);
  }
}

static const char *class_name(int rc)
{
  int cls = MPI_SUCCESS;
  if (rc != MPI_SUCCESS)
    MPI_Error_class(rc, &cls);
  return cls == MPI_SUCCESS ? "success" : cls == MPI_ERR_TRUNCATE ? "truncate"
                                        : cls == MPI_ERR_IN_STATUS ? "in_status" : "other";
}

#if MPI_VERSION >= 4
/* One completion of *req by the form `how`; the error it reports (for the array forms,
 * the status's when they return MPI_ERR_IN_STATUS). MPI_Request_get_status, once it
 * finds the request complete, reports what the MPI_Wait after it reports. */
static int complete(MPI_Request *req, const char *how, int *outer, int rank)
{
  MPI_Status st[1];
  int flag = 0, index = -1, outcount = 0, rc;
  st[0].MPI_ERROR = MPI_SUCCESS;
  if (!strcmp(how, "wait")) {
    rc = MPI_Wait(req, st);
  } else if (!strcmp(how, "test")) {
    do
      rc = MPI_Test(req, &flag, st);
    while (rc == MPI_SUCCESS && !flag);
  } else if (!strcmp(how, "get_status")) {
    do
      rc = MPI_Request_get_status(*req, &flag, st);
    while (rc == MPI_SUCCESS && !flag);
    int w = MPI_Wait(req, st);
    check((rc == MPI_SUCCESS) == (w == MPI_SUCCESS), rank,
          "MPI_Request_get_status and MPI_Wait disagree");
    rc = rc != MPI_SUCCESS ? rc : w;
  } else if (!strcmp(how, "testany")) {
    do
      rc = MPI_Testany(1, req, &index, &flag, st);
    while (rc == MPI_SUCCESS && !flag);
  } else if (!strcmp(how, "waitall")) {
    rc = MPI_Waitall(1, req, st);
  } else {
    rc = MPI_Waitsome(1, req, &outcount, &index, st);
  }
  *outer = rc;
  return rc == MPI_ERR_IN_STATUS ? st[0].MPI_ERROR : rc;
}
#endif

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* On the world too: MPICH raises an error found by MPI_Test, MPI_Wait ... (no
   * communicator in their arguments) on MPI_COMM_WORLD's handler, the schedule's steps'
   * too. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int shortr = size - 1, count = rank == shortr ? N / 2 : N, buf[N];

#if MPI_VERSION >= 4
  const char *forms[] = {"wait", "test", "waitall", "get_status", "testany", "waitsome"};
  int nforms = (int)(sizeof forms / sizeof *forms);
  MPI_Request req;
  int rc = MPI_Bcast_init(buf, count, MPI_INT, 0, comm, MPI_INFO_NULL, &req);
  check(rc == MPI_SUCCESS, rank, "MPI_Bcast_init");
  for (int f = 0; f < nforms && rc == MPI_SUCCESS; f++) {
    for (int i = 0; i < N; i++)
      buf[i] = rank == 0 ? 1000 * f + i : -1;
    rc = MPI_Start(&req);
    check(rc == MPI_SUCCESS, rank, "MPI_Start");
    int outer, err = complete(&req, forms[f], &outer, rank);
    char what[96];
    snprintf(what, sizeof what, "persistent %s: %s (outer %s)", forms[f], class_name(err),
             class_name(outer));
    if (rank == shortr) {
      printf("nb_error: persistent %s class %s\n", forms[f], class_name(err));
      check(err != MPI_SUCCESS, rank, what);
      if (!strcmp(forms[f], "waitall") || !strcmp(forms[f], "waitsome"))
        check(outer == MPI_ERR_IN_STATUS, rank, what);
    } else {
      check(err == MPI_SUCCESS, rank, what);
      for (int i = 0; i < count; i++)
        check(buf[i] == 1000 * f + i, rank, "persistent data");
    }
    rc = MPI_SUCCESS;
  }
  MPI_Request_free(&req);
  /* The communicator still serves a correct call, persistent and started twice. */
  rc = MPI_Bcast_init(buf, N, MPI_INT, 0, comm, MPI_INFO_NULL, &req);
  check(rc == MPI_SUCCESS, rank, "MPI_Bcast_init (matching)");
  for (int s = 0; s < 2 && rc == MPI_SUCCESS; s++) {
    for (int i = 0; i < N; i++)
      buf[i] = rank == 0 ? 7 * i + s : -1;
    MPI_Start(&req);
    check(MPI_Wait(&req, MPI_STATUS_IGNORE) == MPI_SUCCESS, rank, "matching persistent wait");
    for (int i = 0; i < N; i++)
      check(buf[i] == 7 * i + s, rank, "matching persistent data");
  }
  MPI_Request_free(&req);
#endif

  MPI_Request ireq;
  for (int i = 0; i < N; i++)
    buf[i] = rank == 0 ? 5 * i : -1;
  int rc2 = MPI_Ibcast(buf, count, MPI_INT, 0, comm, &ireq);
  check(rc2 == MPI_SUCCESS, rank, "MPI_Ibcast");
  int err = MPI_Wait(&ireq, MPI_STATUS_IGNORE);
  if (rank == shortr) {
    printf("nb_error: nonblocking wait class %s\n", class_name(err));
    check(err != MPI_SUCCESS, rank, "nonblocking: no error on the short rank");
  } else {
    check(err == MPI_SUCCESS, rank, "nonblocking: an error");
    for (int i = 0; i < N; i++)
      check(buf[i] == 5 * i, rank, "nonblocking data");
  }

  MPI_Comm_free(&comm);
  int totals[2] = {checks, failed}, sums[2];
  MPI_Reduce(totals, sums, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("nb_error: %d checks, %d failed\n", sums[0], sums[1]);
  MPI_Finalize();
  return 0;
}
