/* test_suites.h - one registration function per module's test file. Each
 * adds its CUnit suites and returns 0, or non-zero on a CUnit error. */
#ifndef CR_TEST_SUITES_H
#define CR_TEST_SUITES_H

int cr_test_register_types(void);
int cr_test_register_table(void);
int cr_test_register_jsonl(void);
int cr_test_register_rules(void);
int cr_test_register_scenario(void);
int cr_test_register_physics(void);
int cr_test_register_render(void);
int cr_test_register_simulate(void);
int cr_test_register_capture(void);
int cr_test_register_calib(void);
int cr_test_register_eval(void);
int cr_test_register_vision(void);
int cr_test_register_highlight(void);
int cr_test_register_detect(void);
int cr_test_register_track(void);
int cr_test_register_recon(void);
int cr_test_register_early(void);

#endif
