/* test_track.c - vision/cr_track.h (suite being written). */
#include <CUnit/CUnit.h>

#include "test_suites.h"

int cr_test_register_track(void)
{
    return CU_add_suite("track", NULL, NULL) ? 0 : -1;
}
