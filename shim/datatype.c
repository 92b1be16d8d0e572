/* Datatype checks before gridcoll acts on a call (datatype.h). */
#include "datatype.h"

#include <pthread.h>

/* A duplicate of MPI_COMM_SELF with MPI_ERRORS_RETURN: the probe's errors come back as
 * codes. Created on first use (a collective over this process alone, so safe inside any
 * call), left to MPI_Finalize. MPI_COMM_NULL if it could not be made: every call then
 * passes through. */
static MPI_Comm probe_comm = MPI_COMM_NULL;

static void make_probe_comm(void)
{
  MPI_Comm c;
  if (PMPI_Comm_dup(MPI_COMM_SELF, &c) != MPI_SUCCESS)
    return;
  if (PMPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN) != MPI_SUCCESS) {
    PMPI_Comm_free(&c);
    return;
  }
  probe_comm = c;
}

/* Packing zero elements touches no memory and needs a valid, committed datatype; its
 * errors, an invalid handle's included, come back on probe_comm as codes. (Asked first,
 * PMPI_Type_size_x would report an invalid handle through MPI_COMM_WORLD's handler, as
 * MPICH does for calls without a communicator, and abort a program that only asked the
 * communicator it used to return errors.) */
static int packable(MPI_Datatype type)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, make_probe_comm);
  char scratch[1];
  int position = 0;
  return probe_comm != MPI_COMM_NULL &&
         PMPI_Pack(scratch, 0, type, scratch, (int)sizeof scratch, &position, probe_comm) ==
             MPI_SUCCESS;
}

int gc_datatype_usable(MPI_Datatype type, MPI_Count *size)
{
  return type != MPI_DATATYPE_NULL && packable(type) &&
         PMPI_Type_size_x(type, size) == MPI_SUCCESS && *size != MPI_UNDEFINED;
}
