/*
 * test_types.c - CUnit tests for core/cr_types: status strings, the rail,
 * pocket and game names of SPEC §1-§3, and ball ids.
 */
#include <string.h>

#include <CUnit/Basic.h>

#include "cr_types.h"
#include "test_suites.h"

static void test_status_str(void)
{
    static const int codes[] = {CR_OK,         CR_ERR_NOMEM,       CR_ERR_INVALID, CR_ERR_IO,
                                CR_ERR_PARSE, CR_ERR_UNSUPPORTED, CR_ERR_FULL};
    const int n = (int)(sizeof(codes) / sizeof(codes[0]));
    int i, j;

    CU_ASSERT_STRING_EQUAL(cr_status_str(CR_OK), "success");
    CU_ASSERT_STRING_EQUAL(cr_status_str(CR_ERR_NOMEM), "out of memory");
    CU_ASSERT_STRING_EQUAL(cr_status_str(CR_ERR_INVALID), "invalid argument");
    for (i = 0; i < n; i++) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(cr_status_str(codes[i]));
        CU_ASSERT(strlen(cr_status_str(codes[i])) > 0);
        for (j = i + 1; j < n; j++)
            CU_ASSERT(strcmp(cr_status_str(codes[i]), cr_status_str(codes[j])) != 0);
    }
    /* Unknown codes still get a string, distinct from the real ones. */
    CU_ASSERT_PTR_NOT_NULL_FATAL(cr_status_str(-1000));
    CU_ASSERT_PTR_NOT_NULL_FATAL(cr_status_str(7));
    CU_ASSERT_STRING_EQUAL(cr_status_str(-1000), "unknown status");
    CU_ASSERT_STRING_EQUAL(cr_status_str(7), "unknown status");
}

static void test_rail_names(void)
{
    static const char *names[] = {"head", "foot", "left", "right"};
    int i;

    CU_ASSERT_EQUAL(CR_RAIL_COUNT, 4);
    for (i = 0; i < CR_RAIL_COUNT; i++) {
        CU_ASSERT_STRING_EQUAL(cr_rail_name((cr_rail_t)i), names[i]);
        CU_ASSERT_EQUAL(cr_rail_parse(names[i]), (cr_rail_t)i);
    }
    CU_ASSERT_EQUAL(cr_rail_parse("head"), CR_RAIL_HEAD);
    CU_ASSERT_EQUAL(cr_rail_parse("right"), CR_RAIL_RIGHT);
    CU_ASSERT_STRING_EQUAL(cr_rail_name(CR_RAIL_NONE), "?");
    CU_ASSERT_STRING_EQUAL(cr_rail_name(CR_RAIL_COUNT), "?");
    CU_ASSERT_STRING_EQUAL(cr_rail_name((cr_rail_t)99), "?");
    CU_ASSERT_EQUAL(cr_rail_parse(NULL), CR_RAIL_NONE);
    CU_ASSERT_EQUAL(cr_rail_parse(""), CR_RAIL_NONE);
    CU_ASSERT_EQUAL(cr_rail_parse("Head"), CR_RAIL_NONE);
    CU_ASSERT_EQUAL(cr_rail_parse("head "), CR_RAIL_NONE);
    CU_ASSERT_EQUAL(cr_rail_parse("hea"), CR_RAIL_NONE);
    CU_ASSERT_EQUAL(cr_rail_parse("?"), CR_RAIL_NONE);
}

static void test_pocket_names(void)
{
    static const char *names[] = {"head-left", "head-right", "side-left", "side-right", "foot-left", "foot-right"};
    int i;

    CU_ASSERT_EQUAL(CR_POCKET_COUNT, 6);
    for (i = 0; i < CR_POCKET_COUNT; i++) {
        CU_ASSERT_STRING_EQUAL(cr_pocket_name((cr_pocket_t)i), names[i]);
        CU_ASSERT_EQUAL(cr_pocket_parse(names[i]), (cr_pocket_t)i);
    }
    CU_ASSERT_EQUAL(cr_pocket_parse("side-right"), CR_POCKET_SIDE_RIGHT);
    CU_ASSERT_EQUAL(cr_pocket_parse("foot-left"), CR_POCKET_FOOT_LEFT);
    CU_ASSERT_STRING_EQUAL(cr_pocket_name(CR_POCKET_NONE), "?");
    CU_ASSERT_STRING_EQUAL(cr_pocket_name(CR_POCKET_COUNT), "?");
    CU_ASSERT_EQUAL(cr_pocket_parse(NULL), CR_POCKET_NONE);
    CU_ASSERT_EQUAL(cr_pocket_parse(""), CR_POCKET_NONE);
    CU_ASSERT_EQUAL(cr_pocket_parse("head_left"), CR_POCKET_NONE);
    CU_ASSERT_EQUAL(cr_pocket_parse("left-head"), CR_POCKET_NONE);
    CU_ASSERT_EQUAL(cr_pocket_parse("head"), CR_POCKET_NONE);
}

static void test_game_names(void)
{
    static const char *names[] = {"none", "8ball", "9ball", "10ball", "14.1"};
    cr_game_t g;
    int i;

    CU_ASSERT_EQUAL(CR_GAME_COUNT, 5);
    for (i = 0; i < CR_GAME_COUNT; i++) {
        CU_ASSERT_STRING_EQUAL(cr_game_name((cr_game_t)i), names[i]);
        g = (cr_game_t)-7;
        CU_ASSERT_EQUAL(cr_game_parse(names[i], &g), CR_OK);
        CU_ASSERT_EQUAL(g, (cr_game_t)i);
    }
    CU_ASSERT_EQUAL(cr_game_parse("14.1", &g), CR_OK);
    CU_ASSERT_EQUAL(g, CR_GAME_14_1);
    CU_ASSERT_STRING_EQUAL(cr_game_name(CR_GAME_COUNT), "?");
    CU_ASSERT_STRING_EQUAL(cr_game_name((cr_game_t)-1), "?");

    /* Unknown names fail and leave *out alone. */
    g = CR_GAME_10BALL;
    CU_ASSERT_EQUAL(cr_game_parse("8-ball", &g), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_game_parse("", &g), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_game_parse("14", &g), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_game_parse("9BALL", &g), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_game_parse(NULL, &g), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(g, CR_GAME_10BALL);
    CU_ASSERT_EQUAL(cr_game_parse("9ball", NULL), CR_ERR_INVALID);
}

static void test_ball_id_valid(void)
{
    int id;

    CU_ASSERT_FALSE(cr_ball_id_valid(CR_BALL_UNKNOWN));
    CU_ASSERT_FALSE(cr_ball_id_valid(-2));
    CU_ASSERT_FALSE(cr_ball_id_valid(16));
    CU_ASSERT_FALSE(cr_ball_id_valid(1000));
    for (id = 0; id <= 15; id++)
        CU_ASSERT_TRUE(cr_ball_id_valid(id));
    CU_ASSERT_TRUE(cr_ball_id_valid(CR_BALL_CUE));
    CU_ASSERT_TRUE(cr_ball_id_valid(CR_BALL_MAX));
    CU_ASSERT_EQUAL(CR_NUM_BALLS, 16);
    CU_ASSERT_DOUBLE_EQUAL(CR_BALL_RADIUS_MM * 2.0, CR_BALL_DIAMETER_MM, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(CR_BALL_DIAMETER_MM, 2.25 * 25.4, 1e-9); /* 2 1/4 in, RULES.md §5.3 */
}

int cr_test_register_types(void)
{
    CU_pSuite s = CU_add_suite("types", NULL, NULL);

    if (!s)
        return 1;
    if (!CU_add_test(s, "status strings", test_status_str) || !CU_add_test(s, "rail names", test_rail_names) ||
        !CU_add_test(s, "pocket names", test_pocket_names) || !CU_add_test(s, "game names", test_game_names) ||
        !CU_add_test(s, "ball ids", test_ball_id_valid))
        return 1;
    return 0;
}
