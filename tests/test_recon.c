/* test_recon.c - vision/cr_recon.h (suite being written). */
#include <CUnit/CUnit.h>

#include "test_suites.h"

int cr_test_register_recon(void)
{
    return CU_add_suite("recon", NULL, NULL) ? 0 : -1;
}
