/*
 * test_main.c - registers every module's CUnit suites. With an argument, runs
 * only the suites whose registration name matches it (CTest runs one each);
 * with a second, only the test of that name (cr_tests recon "a ball ...").
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "test_suites.h"

static const struct {
    const char *name;
    int (*reg)(void);
} modules[] = {
    {"types", cr_test_register_types},
    {"table", cr_test_register_table},
    {"jsonl", cr_test_register_jsonl},
    {"rules", cr_test_register_rules},
    {"scenario", cr_test_register_scenario},
    {"physics", cr_test_register_physics},
    {"render", cr_test_register_render},
    {"simulate", cr_test_register_simulate},
    {"capture", cr_test_register_capture},
    {"calib", cr_test_register_calib},
    {"eval", cr_test_register_eval},
    {"vision", cr_test_register_vision},
    {"highlight", cr_test_register_highlight},
    {"detect", cr_test_register_detect},
    {"track", cr_test_register_track},
    {"recon", cr_test_register_recon},
    {"early", cr_test_register_early},
};

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    unsigned failed;
    size_t i;
    int found = 0;

    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    for (i = 0; i < sizeof(modules) / sizeof(modules[0]); i++) {
        if (only && strcmp(only, modules[i].name) != 0)
            continue;
        found = 1;
        if (modules[i].reg() != 0) {
            fprintf(stderr, "cannot register suite %s: %s\n", modules[i].name, CU_get_error_msg());
            CU_cleanup_registry();
            return 1;
        }
    }
    if (!found) {
        fprintf(stderr, "no test suite named %s\n", only);
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_NORMAL);
    if (only && argc > 2) { /* cr_tests SUITE "test name": that test alone */
        CU_pSuite s;
        CU_pTest t = NULL;

        for (s = CU_get_registry()->pSuite; s; s = s->pNext)
            if ((t = CU_get_test(s, argv[2])) != NULL)
                break;
        if (!t) {
            fprintf(stderr, "no test named \"%s\" in suite %s\n", argv[2], only);
            CU_cleanup_registry();
            return 2;
        }
        CU_basic_run_test(s, t);
    } else {
        CU_basic_run_tests();
    }
    failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
