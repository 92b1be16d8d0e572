#include <string.h>

#include "select.h"

int gc_select(const char *wanted, int n, const char *const *names, const int *supported,
              const double *predicted)
{
  if (strcmp(wanted, "auto") != 0) {
    for (int i = 0; i < n; i++)
      if (strcmp(wanted, names[i]) == 0)
        return supported[i] ? i : GC_NATIVE;
    return GC_NATIVE; /* the loader rejects unknown names; never guess */
  }
  int best = GC_NATIVE;
  double best_time = predicted[GC_NATIVE];
  for (int i = 1; i < n; i++) {
    if (!supported[i] || predicted[i] < 0)
      continue;
    /* Faster by more than rounding only: a tie keeps the MPI library's own algorithm
     * (two models may sum the same terms in another order). Without a native
     * prediction nothing can be compared, and native stays. */
    if (best_time >= 0 && predicted[i] < best_time * (1 - 1e-9)) {
      best = i;
      best_time = predicted[i];
    }
  }
  return best;
}
