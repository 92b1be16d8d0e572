/* A model's prediction as the rest of the code may use it: pure C, no MPI.
 *
 * Every predicted time enters through this one check, where it leaves its model: the
 * dispatch's reads of a row's predict (dispatch.c), the tree cache's stored prediction
 * (tree_cache.c), gridcoll-predict's table. The loader keeps every parameter within what
 * physical sense allows (config/physical.c), where no model overflows; this is the second
 * line: should a model still give a NaN, an infinity or a negative time, it is no
 * prediction, and nothing downstream (gc_select, learning's candidates, the log, the
 * summary's histogram) ever sees it. */
#ifndef GC_PREDICTION_H
#define GC_PREDICTION_H

#include <math.h>

/* t when it is a time in seconds (finite and >= 0; -0 becomes +0, so that nothing prints
 * a minus), else -1: "no prediction", the convention of every row (a row with no model
 * returns -1 itself). */
static inline double gc_prediction_checked(double t)
{
  return isfinite(t) && t >= 0 ? t + 0.0 : -1;
}

#endif
