/*
 * test_simulate.c - the simulated match end to end, without video: the truth
 * stream reads back, the rules engine's calls in it follow from what the
 * physics did, scripted match events come out as the events and fouls they
 * stand for, and the same seed gives the same bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "cr_jsonl.h"
#include "cr_player.h"
#include "cr_render.h"
#include "cr_simulate.h"
#include "test_suites.h"

#define MAX_LINES 4096

#define MAX_FRAMES_KEPT 20000

typedef struct {
    char *lines[MAX_LINES];
    int n;
    int frames;
    int visible_rows;
    int bad_rows;
    float frame_t[MAX_FRAMES_KEPT];       /* each frame's time */
    unsigned char on_table[MAX_FRAMES_KEPT]; /* and how many balls it has on the table */
} sink_t;

static int on_event(void *user, const cr_event_t *ev)
{
    sink_t *s = user;
    char buf[CR_JSONL_LINE_MAX];

    if (s->n >= MAX_LINES || cr_jsonl_format(ev, buf, sizeof(buf)) < 0)
        return 1;
    s->lines[s->n] = strdup(buf);
    return s->lines[s->n++] ? 0 : 1;
}

static int on_frame(void *user, int index, double t, const uint8_t *rgb, int stride,
                    const cr_frame_ball_t balls[CR_NUM_BALLS])
{
    sink_t *s = user;
    int i;

    (void)index;
    (void)rgb;
    (void)stride;
    for (i = 0; i < CR_NUM_BALLS; i++)
        if (balls[i].in_play && !(isfinite(balls[i].x) && isfinite(balls[i].y)))
            s->bad_rows++; /* a row the CSV could not hold */
    if (s->frames < MAX_FRAMES_KEPT) {
        s->frame_t[s->frames] = (float)t;
        s->on_table[s->frames] = 0;
        for (i = 0; i < CR_NUM_BALLS; i++)
            s->on_table[s->frames] += balls[i].on_table;
    }
    s->frames++;
    for (i = 0; i < CR_NUM_BALLS; i++)
        s->visible_rows += balls[i].visible;
    return 0;
}

static void sink_free(sink_t *s)
{
    int i;

    for (i = 0; i < s->n; i++)
        free(s->lines[i]);
    memset(s, 0, sizeof(*s));
}

static int count(const sink_t *s, const char *needle)
{
    int i, n = 0;

    for (i = 0; i < s->n; i++)
        if (strstr(s->lines[i], needle))
            n++;
    return n;
}

static int run(const char *text, sink_t *out)
{
    static cr_scenario_t scn;
    cr_simulate_opts_t o;
    cr_simulate_sink_t sink = {on_event, on_frame, out};
    char err[256];

    if (cr_scenario_parse(text, &scn, err, sizeof(err)) != CR_OK) {
        fprintf(stderr, "\nscenario: %s\n", err);
        return -1;
    }
    cr_simulate_opts_defaults(&o);
    o.render = false;
    if (cr_simulate_run(&scn, &o, cr_simulate_scenario_shots, &scn, &sink, err, sizeof(err)) != CR_OK) {
        fprintf(stderr, "\nsimulate: %s\n", err);
        return -1;
    }
    return 0;
}

/* A straight shot into the foot-right corner: stroke, one collision, a pocket,
 * rest; legal, and the truth reads back line by line. */
static void test_straight_pot(void)
{
    sink_t s = {0};
    cr_event_t ev;
    char err[256];
    int i;

    CU_ASSERT_EQUAL_FATAL(run("{\"version\":1,\"balls\":[{\"id\":0,\"x\":1900,\"y\":900},"
                              "{\"id\":3,\"x\":2300,\"y\":1100}],"
                              "\"shots\":[{\"aim\":{\"ball\":3},\"speed\":2.5}]}",
                              &s),
                          0);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"stroke\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"collision\",\"t\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"pocket\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"pocket\":\"foot-right\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"rest\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"foul\""), 0);
    CU_ASSERT_EQUAL(count(&s, "\"legal\":true"), 1);
    CU_ASSERT_TRUE(s.frames > 60);
    for (i = 0; i < s.n; i++) {
        if (cr_jsonl_parse_line(s.lines[i], strlen(s.lines[i]), i == 0, &ev, err, sizeof(err)) != 0) {
            fprintf(stderr, "\ntruth line %d: %s\n", i + 1, err);
            CU_FAIL("truth line does not read back");
        }
    }
    sink_free(&s);
}

/* Scripted match events: a touched ball (6.6), a stroke while balls still
 * roll (6.9), the cue ball placed by hand, a hanging ball that drops later. */
static void test_scripted(void)
{
    sink_t s = {0};

    CU_ASSERT_EQUAL_FATAL(
        run("{\"version\":1,\"balls\":[{\"id\":0,\"x\":600,\"y\":600},{\"id\":3,\"x\":1500,\"y\":600},"
            "{\"id\":5,\"x\":1200,\"y\":300},{\"id\":7,\"x\":2505,\"y\":1235}],"
            "\"shots\":[{\"aim\":{\"ball\":3},\"speed\":2.0,"
            "\"script\":[{\"touch\":5,\"t\":0.3,\"v\":[150,0]},{\"drop\":7,\"t\":0.5}]},"
            "{\"wait\":1.0,\"place\":[500,400],\"aim\":{\"deg\":0},\"speed\":1.5}]}",
            &s),
        0);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"disturbed\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"code\":\"touched_ball\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"pocket\",\"t\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"ball\":7,\"pocket\":\"foot-right\""), 1);
    sink_free(&s);
}

/* A ball scripted to jump the rail: off_table, and the 6.5 foul. */
static void test_leave(void)
{
    sink_t s = {0};

    CU_ASSERT_EQUAL_FATAL(run("{\"version\":1,\"balls\":[{\"id\":0,\"x\":1000,\"y\":600},"
                              "{\"id\":4,\"x\":1400,\"y\":600}],"
                              "\"shots\":[{\"aim\":{\"ball\":4},\"speed\":5,"
                              "\"script\":[{\"leave\":4,\"at_contact\":1}]}]}",
                              &s),
                          0);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"off_table\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"code\":\"object_ball_off_table\""), 1);
    sink_free(&s);
}

/* A stroke while balls still move: the moving list and the 6.9 foul. */
static void test_early_stroke(void)
{
    sink_t s = {0};

    CU_ASSERT_EQUAL_FATAL(run("{\"version\":1,\"balls\":[{\"id\":0,\"x\":600,\"y\":600},"
                              "{\"id\":3,\"x\":1500,\"y\":600},{\"id\":9,\"x\":700,\"y\":1000}],"
                              "\"shots\":[{\"aim\":{\"ball\":3},\"speed\":3.0},"
                              "{\"wait\":-1.5,\"aim\":{\"ball\":9},\"speed\":1.5}]}",
                              &s),
                          0);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"stroke\""), 2);
    CU_ASSERT_EQUAL(count(&s, "\"moving\":[]"), 1); /* the first stroke only */
    CU_ASSERT_EQUAL(count(&s, "\"code\":\"balls_moving\""), 1);
    sink_free(&s);
}

/* The time of the first line holding needle (-1 when none). */
static double time_of(const sink_t *s, const char *needle)
{
    for (int i = 0; i < s->n; i++) {
        const char *p = strstr(s->lines[i], needle), *t = strstr(s->lines[i], "\"t\":");

        if (p && t)
            return atof(t + 4);
    }
    return -1.0;
}

/* A game won, and the next rack: the balls left are gathered off the table,
 * the rack stands there RACK_GATHER_S later (the rack input line), the cue
 * ball is put down by hand (a placed line) and the break comes after. No
 * ball is teleported into the rack while others stand beside it. */
static void test_rerack(void)
{
    static sink_t s;
    double t_rest, t_rack, t_placed, t_break;
    int f, empty = 0, during = 0;

    memset(&s, 0, sizeof(s));
    CU_ASSERT_EQUAL_FATAL(run("{\"version\":1,\"game\":\"9ball\",\"balls\":[{\"id\":0,\"x\":600,\"y\":600},"
                              "{\"id\":9,\"x\":900,\"y\":900}],"
                              "\"shots\":[{\"aim\":{\"ball\":9},\"speed\":2.5},{\"aim\":{\"deg\":0},\"speed\":7}]}",
                              &s),
                          0);
    CU_ASSERT_EQUAL(count(&s, "\"game_over\":true"), 1);
    CU_ASSERT_EQUAL(count(&s, "\"kind\":\"rack\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"placed\""), 1);
    CU_ASSERT_EQUAL(count(&s, "\"type\":\"stroke\""), 2);
    t_rest = time_of(&s, "\"type\":\"rest\"");
    t_rack = time_of(&s, "\"kind\":\"rack\"");
    t_placed = time_of(&s, "\"type\":\"placed\"");
    t_break = time_of(&s, "\"shot\":1,\"balls\"");
    CU_ASSERT(t_rest > 0.0 && t_rack >= t_rest + 3.0);
    CU_ASSERT(t_placed >= t_rack && t_break >= t_placed && t_break >= t_rack + 0.3);
    for (f = 0; f < s.frames && f < MAX_FRAMES_KEPT; f++) {
        if (s.frame_t[f] > t_rest + 0.6 && s.frame_t[f] < t_rack - 0.05)
            empty += s.on_table[f] == 0, during++;
        if (s.frame_t[f] > t_rack + 0.05 && s.frame_t[f] < t_placed - 0.05)
            CU_ASSERT_EQUAL(s.on_table[f], 9); /* the rack alone */
    }
    CU_ASSERT(during > 0 && empty == during); /* the table is cleared, then racked */
    CU_ASSERT_EQUAL(s.bad_rows, 0);
    sink_free(&s);
}

/* Motion-blur sub-frames: the scenario's for a slow frame; for a fast one
 * enough that the ball moves at most a third of a radius between two (a
 * break at 30 fps with half a frame of exposure: about 130 mm), capped. */
static void test_blur_subframes(void)
{
    CU_ASSERT_EQUAL(cr_simulate_blur_subframes(0.0, 28.575, 4), 4);
    CU_ASSERT_EQUAL(cr_simulate_blur_subframes(30.0, 28.575, 4), 4);
    CU_ASSERT_EQUAL(cr_simulate_blur_subframes(130.0, 28.575, 4), 14);
    CU_ASSERT_EQUAL(cr_simulate_blur_subframes(600.0, 28.575, 4), CR_RENDER_MAX_SUBFRAMES);
    CU_ASSERT_EQUAL(cr_simulate_blur_subframes(130.0, 28.575, 1), 1); /* no blur asked: none */
    CU_ASSERT_EQUAL(cr_simulate_blur_subframes(NAN, 28.575, 4), 4);
}

/* The same seed gives the same truth, byte for byte; random play makes a
 * natural mix (pots and fouls). */
static void test_random_determinism(void)
{
    static cr_scenario_t scn;
    sink_t a = {0}, b = {0};
    cr_simulate_opts_t o;
    cr_player_t p;
    cr_simulate_sink_t sa = {on_event, on_frame, &a}, sb = {on_event, on_frame, &b};
    char err[256];
    int i, same = 1;

    CU_ASSERT_EQUAL_FATAL(
        cr_scenario_parse("{\"version\":1,\"game\":\"9ball\",\"rack\":\"9ball\",\"seed\":11,\"shots\":[]}", &scn, err,
                          sizeof(err)),
        CR_OK);
    cr_simulate_opts_defaults(&o);
    o.render = false;
    cr_player_init(&p, scn.game, &scn.table, 40, 11);
    CU_ASSERT_EQUAL_FATAL(cr_simulate_run(&scn, &o, cr_player_next, &p, &sa, err, sizeof(err)), CR_OK);
    cr_player_init(&p, scn.game, &scn.table, 40, 11);
    CU_ASSERT_EQUAL_FATAL(cr_simulate_run(&scn, &o, cr_player_next, &p, &sb, err, sizeof(err)), CR_OK);
    CU_ASSERT_EQUAL(a.n, b.n);
    for (i = 0; i < a.n && i < b.n; i++)
        if (strcmp(a.lines[i], b.lines[i]))
            same = 0;
    CU_ASSERT_TRUE(same);
    CU_ASSERT_EQUAL(count(&a, "\"type\":\"stroke\""), 40);
    CU_ASSERT_TRUE(count(&a, "\"type\":\"pocket\"") >= 5);
    CU_ASSERT_TRUE(count(&a, "\"type\":\"foul\"") >= 1);
    CU_ASSERT_TRUE(count(&a, "\"legal\":true") >= 10);
    sink_free(&a);
    sink_free(&b);
}

int cr_test_register_simulate(void)
{
    CU_pSuite s = CU_add_suite("simulate", NULL, NULL);

    if (!s || !CU_add_test(s, "a straight pot", test_straight_pot) ||
        !CU_add_test(s, "scripted touch, drop, placement", test_scripted) ||
        !CU_add_test(s, "6.9 stroke while balls move", test_early_stroke) ||
        !CU_add_test(s, "6.5 a ball driven off the table", test_leave) ||
        !CU_add_test(s, "a game won, then the next rack", test_rerack) ||
        !CU_add_test(s, "motion blur: enough sub-frames for a fast ball", test_blur_subframes) ||
        !CU_add_test(s, "random play: deterministic, a natural mix", test_random_determinism))
        return 1;
    return 0;
}
