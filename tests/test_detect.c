/* test_detect.c - vision/cr_detect.h (suite being written). */
#include <CUnit/CUnit.h>

#include "test_suites.h"

int cr_test_register_detect(void)
{
    return CU_add_suite("detect", NULL, NULL) ? 0 : -1;
}
