/*
 * test_scenario.c - the scenario file loader: defaults, every field, racks,
 * and the errors that keep a typo from silently changing a shot.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "cr_scenario.h"
#include "test_suites.h"

static cr_scenario_t scn;

static void test_full(void)
{
    char err[256] = "";
    const char *text =
        "{\"version\":1,\"table\":\"8ft\",\"game\":\"9ball\",\"fps\":120,\"size\":\"1280x720\",\"seed\":42,"
        "\"cloth\":\"tan\",\"noise\":1.5,\"blur\":6,\"camera\":{\"tilt_deg\":4,\"offset_mm\":[30,-20],\"k1\":-0.1},"
        "\"rack\":\"9ball\",\"cue\":[500,600],"
        "\"shots\":[{\"aim\":{\"ball\":1,\"cut\":0.25},\"speed\":8,\"tip\":[0.1,-0.3],\"place\":[450,580],"
        "\"script\":[{\"touch\":5,\"t\":1.5,\"v\":[200,0]},{\"drop\":7,\"t\":4}]},"
        "{\"wait\":-0.5,\"aim\":{\"deg\":90},\"call\":{\"ball\":2,\"pocket\":\"side-left\"},\"push_out\":true,"
        "\"cue\":false}]}";

    CU_ASSERT_EQUAL_FATAL(cr_scenario_parse(text, &scn, err, sizeof(err)), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(scn.table.length_mm, 2336.8, 1e-9);
    CU_ASSERT_EQUAL(scn.game, CR_GAME_9BALL);
    CU_ASSERT_DOUBLE_EQUAL(scn.fps, 120.0, 1e-9);
    CU_ASSERT_EQUAL(scn.width, 1280);
    CU_ASSERT_EQUAL(scn.height, 720);
    CU_ASSERT_EQUAL(scn.seed, 42u);
    CU_ASSERT_STRING_EQUAL(scn.cloth, "tan");
    CU_ASSERT_EQUAL(scn.blur_subframes, 6);
    CU_ASSERT_DOUBLE_EQUAL(scn.camera.tilt_deg, 4.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(scn.camera.offset_y_mm, -20.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(scn.camera.k1, -0.1, 1e-9);
    CU_ASSERT_EQUAL(scn.n_balls, 10); /* cue ball + 9 */
    CU_ASSERT_EQUAL(scn.balls[0].id, 0);
    CU_ASSERT_DOUBLE_EQUAL(scn.balls[0].x, 500.0, 1e-9);
    CU_ASSERT_EQUAL_FATAL(scn.n_shots, 2);
    CU_ASSERT_EQUAL(scn.shots[0].aim, CR_AIM_BALL);
    CU_ASSERT_EQUAL(scn.shots[0].aim_ball, 1);
    CU_ASSERT_DOUBLE_EQUAL(scn.shots[0].cut, 0.25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(scn.shots[0].speed_mm_s, 8000.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(scn.shots[0].tip_height, -0.3, 1e-12);
    CU_ASSERT_TRUE(scn.shots[0].has_place);
    CU_ASSERT_EQUAL(scn.shots[0].n_script, 2);
    CU_ASSERT_EQUAL(scn.shots[0].script[0].kind, CR_SCRIPT_TOUCH);
    CU_ASSERT_DOUBLE_EQUAL(scn.shots[0].script[0].vx, 200.0, 1e-12);
    CU_ASSERT_EQUAL(scn.shots[0].script[1].kind, CR_SCRIPT_DROP);
    CU_ASSERT_EQUAL(scn.shots[0].script[1].ball, 7);
    CU_ASSERT_DOUBLE_EQUAL(scn.shots[1].wait_s, -0.5, 1e-12);
    CU_ASSERT_EQUAL(scn.shots[1].aim, CR_AIM_ANGLE);
    CU_ASSERT_EQUAL(scn.shots[1].call_pocket, CR_POCKET_SIDE_LEFT);
    CU_ASSERT_TRUE(scn.shots[1].push_out);
    CU_ASSERT_FALSE(scn.shots[1].show_cue);
    CU_ASSERT_TRUE(scn.shots[0].show_cue);
}

static void test_errors(void)
{
    static const struct {
        const char *text;
        const char *want; /* substring of the message */
    } bad[] = {
        {"{\"version\":1,\"rack\":\"9ball\",\"shots\":[],\"tabel\":\"9ft\"}", "unknown key \"tabel\""},
        {"{\"rack\":\"9ball\",\"shots\":[]}", "version"},
        {"{\"version\":1,\"shots\":[]}", "\"rack\" or \"balls\""},
        {"{\"version\":1,\"rack\":\"snooker\",\"shots\":[]}", "rack"},
        {"{\"version\":1,\"rack\":\"9ball\",\"shots\":[{\"speed\":3}]}", "\"aim\" is required"},
        {"{\"version\":1,\"rack\":\"9ball\",\"shots\":[{\"aim\":{\"deg\":0},\"speed\":30}]}", "0.01..12"},
        {"{\"version\":1,\"rack\":\"9ball\",\"shots\":[{\"aim\":{\"ball\":16}}]}", "ball id"},
        {"{\"version\":1,\"rack\":\"9ball\",\"shots\":[{\"aim\":{\"deg\":0},\"tip\":[0.9,0]}]}", "tip"},
        {"{\"version\":1,\"rack\":\"9ball\",\"shots\":[{\"aim\":{\"deg\":0},\"call\":{\"ball\":3,\"pocket\":\"top\"}}]}",
         "pocket"},
        {"{\"version\":1,\"balls\":[{\"id\":0,\"x\":1,\"y\":2},{\"id\":0,\"x\":5,\"y\":6}],\"shots\":[]}", "twice"},
        {"{\"version\":1,\"rack\":\"9ball\",\"cloth\":\"purple\",\"shots\":[]}", "cloth"},
        {"{\"version\":1,\"rack\":\"9ball\",\"size\":\"big\",\"shots\":[]}", "size"},
        {"{\"version\":1,\n\"rack\":\"9ball\",,\"shots\":[]}", "line 2"},
    };
    char err[256];
    size_t i;

    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = '\0';
        CU_ASSERT_EQUAL(cr_scenario_parse(bad[i].text, &scn, err, sizeof(err)), CR_ERR_PARSE);
        if (!strstr(err, bad[i].want)) {
            fprintf(stderr, "\nscenario error %zu: \"%s\" lacks \"%s\"\n", i, err, bad[i].want);
            CU_FAIL("error message");
        }
    }
    CU_ASSERT_EQUAL(cr_scenario_load("/nonexistent/scenario.json", &scn, err, sizeof(err)), CR_ERR_IO);
}

static void test_defaults(void)
{
    char err[256];

    CU_ASSERT_EQUAL_FATAL(
        cr_scenario_parse("{\"version\":1,\"balls\":[{\"id\":0,\"x\":600,\"y\":600}],\"shots\":[{\"aim\":{\"deg\":0}}]}",
                          &scn, err, sizeof(err)),
        CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(scn.table.length_mm, 2540.0, 1e-9);
    CU_ASSERT_EQUAL(scn.game, CR_GAME_NONE);
    CU_ASSERT_DOUBLE_EQUAL(scn.fps, 60.0, 1e-9);
    CU_ASSERT_EQUAL(scn.n_balls, 1);
    CU_ASSERT_DOUBLE_EQUAL(scn.shots[0].speed_mm_s, 3000.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(scn.shots[0].wait_s, 2.0, 1e-9);
    CU_ASSERT_EQUAL(scn.shots[0].call_ball, -1);
}

int cr_test_register_scenario(void)
{
    CU_pSuite s = CU_add_suite("scenario", NULL, NULL);

    if (!s || !CU_add_test(s, "every field", test_full) || !CU_add_test(s, "errors name what is wrong", test_errors) ||
        !CU_add_test(s, "defaults", test_defaults))
        return 1;
    return 0;
}
