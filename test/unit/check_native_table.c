/* The native rows with the configuration's `native` table (issue 25): the MPI library's
 * own all-to-all and broadcast as gridcoll-calibrate measured them predict from the table
 * on the layout it was measured on ("measured"), and from their formulas everywhere else,
 * exactly as a configuration without the table. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h> /* mkdtemp */
#include <string.h>
#include <unistd.h>

#include "alltoall_algorithms.h"
#include "bcast_algorithms.h"
#include "config.h"
#include "layout.h"
#include "model.h"
#include "network.h"
#include "shape.h"

#define TWO "clusters = ( { name = \"a\"; ranks = \"0-2\"; }, { name = \"b\"; ranks = \"3-5\"; } );\n" \
            "network = { wan = { latency = ( (\"0\", \"5 ms\"), (\"5 ms\", \"0\") ); }; };\n"
#define TABLE "native = { procs = 4; sizes = [ 2, 2 ];\n" \
              " alltoall = ( (\"1 B\", \"30 us\"), (\"1 KiB\", \"40 us\"), (\"1 MiB\", \"9 ms\") );\n" \
              " bcast = ( { root = \"b\"; curve = ( (\"1 B\", \"20 us\"), (\"1 MiB\", \"5 ms\") ); } ); };\n"

static void load(struct gc_config *cfg, const char *text)
{
  char dir[] = "/tmp/gc-native-XXXXXX", path[64], err[GC_ERR_MAX];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/c.cfg", dir);
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fputs(text, fp);
  fclose(fp);
  gc_config_defaults(cfg);
  ck_assert_msg(gc_config_load(cfg, path, NULL, err, sizeof err) == 0, "%s", err);
  unlink(path), rmdir(dir);
}

/* The native row of op (alltoall when root < 0, else the broadcast from root) on the
 * layout `of` of n ranks; its model's name in *model. */
static double predict(const struct gc_config *cfg, int n, const int *of, int root, double m,
                      const char **model)
{
  struct gc_layout layout;
  struct gc_network net;
  double pair[16];
  struct gc_shape shape;
  ck_assert_int_eq(gc_layout_build(&layout, n, of), 0);
  ck_assert_int_eq(gc_network_build(&net, cfg, &layout), 0);
  double t;
  if (root < 0) {
    gc_shape_blocks(&layout, m, -1, pair, &shape);
    t = gc_alltoall_native_predict(&net, &layout, &shape, model);
  } else {
    gc_shape_rooted(&layout, m, root, pair, &shape);
    t = gc_bcast_native_predict(&net, &layout, &shape, model);
  }
  gc_network_free(&net);
  gc_layout_free(&layout);
  return t;
}

START_TEST(measured_where_it_applies)
{
  struct gc_config cfg;
  const char *model;
  load(&cfg, TWO TABLE);
  int four[4] = {0, 0, 1, 1};
  /* The all-to-all's table, interpolated: halfway from 1 B to 1 KiB in bytes. */
  double t = predict(&cfg, 4, four, -1, 512.5, &model);
  ck_assert_str_eq(model, "measured");
  ck_assert_msg(fabs(t - 35e-6) < 1e-12, "%g", t);
  ck_assert(fabs(predict(&cfg, 4, four, -1, 1024, &model) - 40e-6) < 1e-12);
  /* The broadcast from b's ranks reads b's curve; from a, none measured: the formula. */
  t = predict(&cfg, 4, four, 2, 524288.5, &model);
  ck_assert_str_eq(model, "measured");
  ck_assert_msg(fabs(t - 2.51e-3) < 1e-9, "%g", t);
  /* From b's other rank the library's tree is another one than the one measured (from
   * b's leader, rank 2): the formula, as without the table. */
  struct gc_config without;
  const char *model0;
  load(&without, TWO);
  double a = predict(&cfg, 4, four, 3, 1024, &model), b = predict(&without, 4, four, 3, 1024, &model0);
  ck_assert_str_eq(model, "binomial-grid");
  ck_assert(memcmp(&a, &b, sizeof a) == 0);
  predict(&cfg, 4, four, 0, 1024, &model);
  ck_assert_str_eq(model, "binomial-grid");
  gc_config_free(&cfg);
  gc_config_free(&without);
}
END_TEST

/* Another communicator (another size, or the same size split otherwise): the formula,
 * bit for bit the prediction of a configuration without the table. */
START_TEST(formula_elsewhere)
{
  struct gc_config with, without;
  const char *model, *model0;
  load(&with, TWO TABLE);
  load(&without, TWO);
  int six[6] = {0, 0, 0, 1, 1, 1}, uneven[4] = {0, 1, 1, 1}, one[2] = {0, 0};
  const int *layouts[] = {six, uneven, one};
  int sizes[] = {6, 4, 2};
  for (int l = 0; l < 3; l++)
    for (double m = 1; m <= 1048576; m *= 32) {
      double a = predict(&with, sizes[l], layouts[l], -1, m, &model);
      double b = predict(&without, sizes[l], layouts[l], -1, m, &model0);
      ck_assert(memcmp(&a, &b, sizeof a) == 0);
      ck_assert_str_eq(model, model0);
      ck_assert_str_ne(model, "measured");
      a = predict(&with, sizes[l], layouts[l], sizes[l] - 1, m, &model);
      b = predict(&without, sizes[l], layouts[l], sizes[l] - 1, m, &model0);
      ck_assert(memcmp(&a, &b, sizeof a) == 0);
      ck_assert_str_eq(model, model0);
      ck_assert_str_ne(model, "measured");
    }
  gc_config_free(&with);
  gc_config_free(&without);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("native_table");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, measured_where_it_applies);
  tcase_add_test(tc, formula_elsewhere);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
