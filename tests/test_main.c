/*
 * test_main.c - registers every module's CUnit suites. With an argument, runs
 * only the suites whose registration name matches it (CTest runs one each);
 * with a second, only the test of that name (cr_tests recon "a ball ..."), or
 * with "--part K/N" the K-th of N shares of its tests, every N-th from the K-th
 * in registration order (CTest runs the long suites as several shares, side by
 * side).
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

/* Leaves active only tests K, K+N, K+2N... (1-based) of the registered
 * suites; -1 on a malformed share. */
static int keep_part(const char *spec)
{
    CU_pSuite s;
    CU_pTest t;
    int k, n, i = 0;
    char end;

    if (sscanf(spec, "%d/%d%c", &k, &n, &end) != 2 || n < 1 || k < 1 || k > n)
        return -1;
    for (s = CU_get_registry()->pSuite; s; s = s->pNext)
        for (t = s->pTest; t; t = t->pNext, i++)
            if (CU_set_test_active(t, i % n == k - 1 ? CU_TRUE : CU_FALSE) != CUE_SUCCESS)
                return -1;
    CU_set_fail_on_inactive(CU_FALSE);
    return 0;
}

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
    if (only && argc > 3 && strcmp(argv[2], "--part") == 0) { /* cr_tests SUITE --part K/N */
        if (keep_part(argv[3]) != 0) {
            fprintf(stderr, "--part wants K/N with 1 <= K <= N, not \"%s\"\n", argv[3]);
            CU_cleanup_registry();
            return 2;
        }
        CU_basic_run_tests();
    } else if (only && argc > 2) { /* cr_tests SUITE "test name": that test alone */
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
