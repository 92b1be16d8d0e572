/* Point-to-point and one-cluster all-to-all models, and the names table.
 * Every expected value is worked out by hand in the comment beside it. */
#include "model.h"
#include "model_check.h"

#include <string.h>

/* Gigabit Ethernet signature of 000 Sec. 3 with a 60 us, 8 ns/byte link. */
static const struct gc_lan gige = {.alpha = 60e-6, .beta = 8e-9, .gamma = 4.3628,
                                   .delta = 4.93e-3, .threshold = 8192};

START_TEST(p2p_core)
{
  double t;
  ck_assert_int_eq(gc_model_p2p_hockney(1000, 60e-6, 8e-9, &t), 0);
  ck_assert_rel(t, 68e-6, REL); /* 60 us + 1000 * 8 ns = 68 us */
}
END_TEST

START_TEST(p2p_limits)
{
  double t = -1;
  ck_assert_int_eq(gc_model_p2p_hockney(0, 60e-6, 8e-9, &t), 0);
  ck_assert_rel(t, 60e-6, REL); /* alpha alone */
  t = -1;
  ck_assert_int_eq(gc_model_p2p_hockney(10, NAN, 8e-9, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_p2p_hockney(10, 1e-6, -1.0, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_p2p_hockney(10, 1e-6, INFINITY, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_p2p_hockney(10, 1e-6, 1e-9, NULL), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0); /* untouched on error */
}
END_TEST

START_TEST(alltoall_core)
{
  double t;
  ck_assert_int_eq(gc_model_alltoall_linear(8, 1024, 60e-6, 8e-9, &t), 0);
  ck_assert_rel(t, 477.344e-6, REL); /* 7 * (60 + 1024*0.008 = 68.192 us) = 477.344 us */
  ck_assert_int_eq(gc_model_alltoall_signature(8, 4096, &gige, &t), 0);
  /* m < M: 7 * (60 us + 4096 * 8 ns * 4.3628 = 60 + 32.768*4.3628 = 60 + 142.9602304 us)
   *      = 7 * 202.9602304 us = 1420.7216128 us */
  ck_assert_rel(t, 1420.7216128e-6, REL);
  ck_assert_int_eq(gc_model_alltoall_signature(8, 8192, &gige, &t), 0);
  /* m == M: delta applies: 7 * (60 + 65.536*4.3628 + 4930 us)
   *        = 7 * (60 + 285.9204608 + 4930) = 7 * 5275.9204608 us = 36931.4432256 us */
  ck_assert_rel(t, 36931.4432256e-6, REL);
  /* Signature with gamma = 1, delta = 0 is the linear model (000 Eq. 5 -> Eq. 1). */
  struct gc_lan plain = {.alpha = 60e-6, .beta = 8e-9, .gamma = 1, .delta = 0, .threshold = 0};
  double lin;
  gc_model_alltoall_signature(8, 1024, &plain, &t);
  gc_model_alltoall_linear(8, 1024, 60e-6, 8e-9, &lin);
  ck_assert_rel(t, lin, REL);
}
END_TEST

START_TEST(alltoall_limits)
{
  double t = -1;
  ck_assert_int_eq(gc_model_alltoall_linear(1, 1024, 60e-6, 8e-9, &t), 0);
  ck_assert_rel(t, 0, 0); /* n = 1: nothing to exchange */
  ck_assert_int_eq(gc_model_alltoall_signature(1, 1 << 20, &gige, &t), 0);
  ck_assert_rel(t, 0, 0);
  ck_assert_int_eq(gc_model_alltoall_signature(8, 0, &gige, &t), 0);
  ck_assert_rel(t, 420e-6, REL); /* m = 0 < M: 7 * 60 us */
  struct gc_lan zero_m = gige;
  zero_m.threshold = 0;
  ck_assert_int_eq(gc_model_alltoall_signature(2, 0, &zero_m, &t), 0);
  ck_assert_rel(t, 4990e-6, REL); /* M = 0: delta from 0 bytes on: 60 + 4930 us */
  t = -1;
  ck_assert_int_eq(gc_model_alltoall_linear(0, 1, 60e-6, 8e-9, &t), GC_MODEL_EINVAL);
  ck_assert_int_eq(gc_model_alltoall_signature(8, 1, NULL, &t), GC_MODEL_EINVAL);
  struct gc_lan bad = gige;
  bad.gamma = NAN;
  ck_assert_int_eq(gc_model_alltoall_signature(8, 1, &bad, &t), GC_MODEL_EINVAL);
  bad = gige, bad.delta = -1e-3;
  ck_assert_int_eq(gc_model_alltoall_signature(8, 1, &bad, &t), GC_MODEL_EINVAL);
  ck_assert_rel(t, -1, 0);
}
END_TEST

START_TEST(names_core)
{
  for (int i = 0; i < GC_MODEL_LAST; i++) {
    const struct gc_model_info *info = gc_model_info((enum gc_model_id)i);
    ck_assert_ptr_nonnull(info);
    ck_assert_int_eq(info->id, i); /* table rows in enum order */
    ck_assert_ptr_nonnull(info->source);
    ck_assert_ptr_nonnull(info->desc);
    for (int j = 0; j < i; j++) /* one name, one formula */
      ck_assert_str_ne(gc_model_name((enum gc_model_id)j), info->name);
  }
  ck_assert_str_eq(gc_model_name(GC_MODEL_LG_BACKBONE), "lg-backbone");
  ck_assert_str_eq(gc_model_name(GC_MODEL_TREE_NIC_FANOUT), "tree-nic-fanout");
  ck_assert_str_eq(gc_model_name(GC_MODEL_BINOMIAL_GRID), "binomial-grid");
}
END_TEST

START_TEST(names_limits)
{
  ck_assert_ptr_null(gc_model_info(GC_MODEL_LAST));
  ck_assert_ptr_null(gc_model_info((enum gc_model_id)-1));
  ck_assert_str_eq(gc_model_name(GC_MODEL_LAST), "?");
}
END_TEST

int main(void)
{
  Suite *s = suite_create("model_alltoall");
  TCase *core = tcase_create("core"), *limits = tcase_create("limits");
  tcase_add_test(core, p2p_core);
  tcase_add_test(core, alltoall_core);
  tcase_add_test(core, names_core);
  tcase_add_test(limits, p2p_limits);
  tcase_add_test(limits, alltoall_limits);
  tcase_add_test(limits, names_limits);
  suite_add_tcase(s, core);
  suite_add_tcase(s, limits);
  return gc_run_suite(s);
}
