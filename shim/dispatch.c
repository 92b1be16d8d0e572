#include "dispatch.h"

#include <string.h>

#include "gridcoll.h"
#include "select.h"

int gc_dispatch_needs_predictions(const char *wanted)
{
  return strcmp(wanted, "auto") == 0 || gc_log_enabled();
}

int gc_dispatch_choose(const char *wanted, int n, const char *const *names, const int *supported,
                       const double *predicted, const char *const *models,
                       struct gc_record *rec)
{
  int a = gc_select(wanted, n, names, supported, predicted);
  rec->ncandidates = n < GC_MAX_CANDIDATES ? n : GC_MAX_CANDIDATES;
  for (int i = 0; i < rec->ncandidates; i++)
    rec->candidates[i] = supported[i] ? predicted[i] : -1;
  rec->algorithm = a;
  rec->predicted = predicted[a];
  rec->model = models[a];
  return a;
}

void gc_dispatch_fell_back(struct gc_record *rec)
{
  rec->algorithm = GC_NATIVE;
  rec->predicted = -1;
  rec->model = NULL;
}

int gc_dispatch_finish(struct gc_comm_state *st, struct gc_timing *timing, struct gc_record *rec,
                       int rc)
{
  gc_call_stop(st, timing, rec);
  if (rc != MPI_SUCCESS && rec->algorithm != GC_NATIVE)
    PMPI_Comm_call_errhandler(st->comm, rc);
  return rc;
}
