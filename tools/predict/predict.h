/* gridcoll-predict's parts (tools/gridcoll-predict.c runs them in order): the arguments
 * (args.c), the world cluster id of every rank (ranks.c) and the printed table
 * (table.c). The operations and their algorithm rows are the library's pure table of
 * operations (op_info.h), walked as it is: a row or an operation added there appears
 * here unchanged. No MPI: all of it is plain C over the library's pure code. */
#ifndef GC_TOOLS_PREDICT_H
#define GC_TOOLS_PREDICT_H

#include <stdio.h>

#include "config.h"
#include "layout.h"
#include "network.h"
#include "op_info.h"

#define PROG "gridcoll-predict"
#define MAX_SIZES 256

/* The command line, as given (sizes and layout are parsed later, in main's order). */
struct predict_args {
  const char *config_path, *op_name, *layout_arg, *sizes_arg;
  int nranks, root, csv, linear, bound;
};

/* args.c. Every function here exits with status 2 after a usage message on bad input. */
void predict_usage(FILE *f);
_Noreturn void predict_bad_usage(const char *fmt, const char *arg);
/* 1 when -h asked for the usage (printed on stdout), 0 otherwise. */
int predict_parse_args(int argc, char **argv, struct predict_args *a);
/* "LO:HI" or "A,B,C" into sizes[MAX_SIZES]; returns the count. */
int predict_parse_sizes(const char *text, double *sizes);
int predict_parse_count(const char *text, const char *flag, int min);
/* The operation -o names; exits 2, naming every operation, when none is called so. */
const struct gc_op_info *predict_find_op(const char *name);

/* ranks.c: world cluster id of every rank (malloc'd, *size entries), NULL when out of
 * memory. */
int *predict_place_ranks(const struct gc_config *cfg, const char *layout_arg, int nranks,
                         int *size);

/* table.c: the header (layout, models, column names), then one row per size. */
void predict_print_header(const struct predict_args *a, const struct gc_op_info *op,
                          const struct gc_config *cfg, const struct gc_network *net,
                          const struct gc_layout *layout, double m0);
void predict_print_row(const struct predict_args *a, const struct gc_op_info *op,
                       const struct gc_network *net, const struct gc_layout *layout, double m);

#endif
