/*
 * test_jsonl.c - the event stream reader and writer (output/cr_jsonl.h):
 * every type read with its fields, format/parse round trips, every malformed
 * case named in its message, the file reader's line numbers, and the
 * writer's all-or-nothing files.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "cr_event.h"
#include "cr_jsonl.h"
#include "test_suites.h"

#define SESSION_LINE "{\"type\":\"session\",\"version\":1}"
#define ERR_LEN 512

/* ---------------------------------------------------------------------- */
/* Helpers                                                                 */

/* Parses a line that is not the stream's first. */
static void check_round_trip(const cr_event_t *ev);

static int parse(const char *line, cr_event_t *ev, char *err)
{
    return cr_jsonl_parse_line(line, strlen(line), 0, ev, err, ERR_LEN);
}

/* Doubles equal, NaN equal to NaN. */
static int same_num(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* A fresh directory under $TMPDIR (or /tmp) for file tests; "" on failure. */
static void make_tmpdir(char *dir, size_t cap)
{
    const char *base = getenv("TMPDIR");

    snprintf(dir, cap, "%s/cr_test_jsonl-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(dir))
        dir[0] = '\0';
}

/* Number of entries in dir other than "." and "..", -1 on error. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    }
    closedir(d);
    return n;
}

/* Removes every plain file in dir, then dir. */
static void remove_tmpdir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];

    if (d) {
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    int ok;

    if (!f)
        return -1;
    ok = fputs(text, f) >= 0;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* Reads at most cap-1 bytes of path into buf; returns the length or -1. */
static long read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n;

    if (!f)
        return -1;
    n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    return (long)n;
}

/* ---------------------------------------------------------------------- */
/* Every type read with its fields                                         */

static void test_parse_session(void)
{
    cr_event_t ev;
    char err[ERR_LEN];
    const char *line = "{\"type\":\"session\",\"version\":1,\"source\":\"clip.mp4\",\"fps\":30,"
                       "\"width\":1920,\"height\":1080,\"table\":{\"length_mm\":2540,"
                       "\"width_mm\":1270},\"game\":\"9ball\",\"rules\":\"wpa2008\"}";

    CU_ASSERT_EQUAL_FATAL(cr_jsonl_parse_line(line, strlen(line), 1, &ev, err, sizeof(err)), 0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_SESSION);
    CU_ASSERT(isnan(ev.t));
    CU_ASSERT_EQUAL(ev.shot, -1);
    CU_ASSERT_EQUAL(ev.version, 1);
    CU_ASSERT_STRING_EQUAL(ev.source, "clip.mp4");
    CU_ASSERT_DOUBLE_EQUAL(ev.fps, 30.0, 1e-12);
    CU_ASSERT_EQUAL(ev.width, 1920);
    CU_ASSERT_EQUAL(ev.height, 1080);
    CU_ASSERT_DOUBLE_EQUAL(ev.table_length_mm, 2540.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ev.table_width_mm, 1270.0, 1e-12);
    CU_ASSERT_EQUAL(ev.game, CR_GAME_9BALL);
    CU_ASSERT_STRING_EQUAL(ev.rules, "wpa2008");

    /* Only the version is required; the rest keeps cr_event_init's values. */
    CU_ASSERT_EQUAL_FATAL(parse(SESSION_LINE, &ev, err), 0);
    CU_ASSERT_STRING_EQUAL(ev.source, "");
    CU_ASSERT(isnan(ev.fps));
    CU_ASSERT_EQUAL(ev.width, -1);
    CU_ASSERT(isnan(ev.table_length_mm));
    CU_ASSERT_EQUAL(ev.game, CR_GAME_NONE);
}

static void test_parse_stroke(void)
{
    cr_event_t ev;
    char err[ERR_LEN];

    CU_ASSERT_EQUAL_FATAL(
        parse("{\"type\":\"stroke\",\"t\":1.5,\"shot\":3,\"balls\":[{\"id\":0,\"x\":635,\"y\":"
              "635.5,\"frozen\":[\"head\",\"right\"]},{\"id\":9,\"x\":1905,\"y\":-2}],"
              "\"moving\":[9],\"player\":2}",
              &ev, err),
        0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_STROKE);
    CU_ASSERT_DOUBLE_EQUAL(ev.t, 1.5, 1e-12);
    CU_ASSERT_EQUAL(ev.shot, 3);
    CU_ASSERT_EQUAL_FATAL(ev.n_balls, 2);
    CU_ASSERT_EQUAL(ev.balls[0].id, 0);
    CU_ASSERT_DOUBLE_EQUAL(ev.balls[0].x, 635.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ev.balls[0].y, 635.5, 1e-12);
    CU_ASSERT_EQUAL(ev.balls[0].frozen_rails, (1u << CR_RAIL_HEAD) | (1u << CR_RAIL_RIGHT));
    CU_ASSERT(isnan(ev.balls[0].vx));
    CU_ASSERT_EQUAL(ev.balls[1].id, 9);
    CU_ASSERT_DOUBLE_EQUAL(ev.balls[1].y, -2.0, 1e-12);
    CU_ASSERT_EQUAL(ev.balls[1].frozen_rails, 0u);
    CU_ASSERT_EQUAL_FATAL(ev.n_moving, 1);
    CU_ASSERT_EQUAL(ev.moving[0], 9);
    CU_ASSERT_EQUAL(ev.ball, 0); /* default: the cue ball */
    CU_ASSERT_EQUAL(ev.player, 2);
    CU_ASSERT_EQUAL(cr_event_find_ball(&ev, 9), 1);
    CU_ASSERT_EQUAL(cr_event_find_ball(&ev, 5), -1);

    /* moving and player are optional; ball may name the lag ball */
    CU_ASSERT_EQUAL_FATAL(
        parse("{\"type\":\"stroke\",\"t\":0,\"shot\":0,\"balls\":[],\"ball\":-1}", &ev, err), 0);
    CU_ASSERT_EQUAL(ev.n_balls, 0);
    CU_ASSERT_EQUAL(ev.n_moving, 0);
    CU_ASSERT_EQUAL(ev.ball, -1);
    CU_ASSERT_EQUAL(ev.player, -1);
}

static void test_parse_contacts(void)
{
    cr_event_t ev;
    char err[ERR_LEN];

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"collision\",\"t\":2,\"shot\":0,\"a\":0,\"b\":-1,"
                                "\"x\":10.5,\"y\":20.25,\"confidence\":0.75}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_COLLISION);
    CU_ASSERT_EQUAL(ev.a, 0);
    CU_ASSERT_EQUAL(ev.b, -1);
    CU_ASSERT_DOUBLE_EQUAL(ev.x, 10.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ev.y, 20.25, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ev.confidence, 0.75, 1e-12);
    CU_ASSERT_EQUAL_FATAL(
        parse("{\"type\":\"collision\",\"t\":2,\"shot\":0,\"a\":0,\"b\":1,\"x\":1,\"y\":2}", &ev,
              err),
        0);
    CU_ASSERT_DOUBLE_EQUAL(ev.confidence, 1.0, 1e-12);

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"cushion\",\"t\":2.5,\"shot\":1,\"ball\":7,"
                                "\"rail\":\"foot\",\"x\":2511.4,\"y\":600}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_CUSHION);
    CU_ASSERT_EQUAL(ev.shot, 1);
    CU_ASSERT_EQUAL(ev.ball, 7);
    CU_ASSERT_EQUAL(ev.rail, CR_RAIL_FOOT);
    CU_ASSERT_DOUBLE_EQUAL(ev.x, 2511.4, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ev.y, 600.0, 1e-12);

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"pocket\",\"t\":3,\"shot\":1,\"ball\":7,"
                                "\"pocket\":\"side-right\"}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_POCKET);
    CU_ASSERT_EQUAL(ev.ball, 7);
    CU_ASSERT_EQUAL(ev.pocket, CR_POCKET_SIDE_RIGHT);
    CU_ASSERT_DOUBLE_EQUAL(ev.confidence, 1.0, 1e-12);
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"pocket\",\"t\":3,\"shot\":1,\"ball\":7,"
                                "\"pocket\":\"side-right\",\"confidence\":0.75}",
                                &ev, err),
                          0);
    CU_ASSERT_DOUBLE_EQUAL(ev.confidence, 0.75, 1e-12);

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"off_table\",\"t\":3,\"shot\":1,\"ball\":4}", &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_OFF_TABLE);
    CU_ASSERT_EQUAL(ev.ball, 4);
}

static void test_parse_between_shots(void)
{
    cr_event_t ev;
    char err[ERR_LEN];

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"disturbed\",\"t\":4,\"shot\":null,\"ball\":3,"
                                "\"x\":100,\"y\":200,\"cause\":\"outside\"}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_DISTURBED);
    CU_ASSERT_EQUAL(ev.shot, -1);
    CU_ASSERT_EQUAL(ev.ball, 3);
    CU_ASSERT_DOUBLE_EQUAL(ev.x, 100.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ev.y, 200.0, 1e-12);
    CU_ASSERT_EQUAL(ev.cause, CR_CAUSE_OUTSIDE);
    CU_ASSERT_EQUAL_FATAL(
        parse("{\"type\":\"disturbed\",\"t\":4,\"shot\":2,\"ball\":3,\"x\":1,\"y\":2}", &ev, err), 0);
    CU_ASSERT_EQUAL(ev.shot, 2);
    CU_ASSERT_EQUAL(ev.cause, CR_CAUSE_UNKNOWN);

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"placed\",\"t\":5,\"ball\":0,\"x\":300,\"y\":635}", &ev,
                                err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_PLACED);
    CU_ASSERT_EQUAL(ev.shot, -1);
    CU_ASSERT_EQUAL(ev.ball, 0);
    CU_ASSERT_DOUBLE_EQUAL(ev.x, 300.0, 1e-12);

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"rest\",\"t\":6,\"shot\":2,\"balls\":[{\"id\":0,"
                                "\"x\":1,\"y\":2},{\"id\":1,\"x\":3,\"y\":4}]}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_REST);
    CU_ASSERT_EQUAL(ev.shot, 2);
    CU_ASSERT_EQUAL_FATAL(ev.n_balls, 2);
    CU_ASSERT_EQUAL(ev.balls[1].id, 1);
    CU_ASSERT_DOUBLE_EQUAL(ev.balls[1].y, 4.0, 1e-12);

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"balls\",\"t\":6.5,\"balls\":[{\"id\":0,\"x\":1,"
                                "\"y\":2,\"vx\":-10.5,\"vy\":3},{\"id\":-1,\"x\":5,\"y\":6,\"hidden\":true}]}",
                                &ev, err),
                          0);
    CU_ASSERT(!ev.balls[0].hidden);
    CU_ASSERT(ev.balls[1].hidden);
    CU_ASSERT_EQUAL(ev.type, CR_EV_BALLS);
    CU_ASSERT_EQUAL(ev.shot, -1);
    CU_ASSERT_EQUAL_FATAL(ev.n_balls, 2);
    CU_ASSERT_DOUBLE_EQUAL(ev.balls[0].vx, -10.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(ev.balls[0].vy, 3.0, 1e-12);
    CU_ASSERT_EQUAL(ev.balls[1].id, -1);
    CU_ASSERT(isnan(ev.balls[1].vx));
    CU_ASSERT(isnan(ev.balls[1].vy));
}

static void test_parse_foul_ruling(void)
{
    cr_event_t ev;
    char err[ERR_LEN];
    const cr_ruling_t *r = &ev.ruling;

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"foul\",\"t\":7,\"shot\":2,\"code\":\"no_rail\","
                                "\"rule\":\"6.3\",\"detail\":\"No rail after contact.\","
                                "\"confidence\":0.8}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_FOUL);
    CU_ASSERT_STRING_EQUAL(ev.code, "no_rail");
    CU_ASSERT_STRING_EQUAL(ev.rule, "6.3");
    CU_ASSERT_STRING_EQUAL(ev.detail, "No rail after contact.");
    CU_ASSERT_DOUBLE_EQUAL(ev.confidence, 0.8, 1e-12);
    CU_ASSERT_FALSE(ev.early);
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"foul\",\"t\":7,\"shot\":2,\"code\":\"wrong_ball_first\","
                                "\"rule\":\"6.2\",\"detail\":\"The 3.\",\"early\":true}",
                                &ev, err),
                          0);
    CU_ASSERT_TRUE(ev.early);
    CU_ASSERT_NOT_EQUAL(parse("{\"type\":\"foul\",\"t\":7,\"shot\":2,\"code\":\"wrong_ball_first\","
                              "\"rule\":\"6.2\",\"detail\":\"The 3.\",\"early\":1}",
                              &ev, err),
                        0);

    CU_ASSERT_EQUAL_FATAL(
        parse("{\"type\":\"ruling\",\"t\":7,\"shot\":2,\"legal\":false,\"fouls\":[\"no_rail\"],"
              "\"player\":1,\"next_player\":2,\"ball_in_hand\":\"anywhere\",\"spot\":[{\"id\":9,"
              "\"x\":1905,\"y\":635}],\"pocketed\":[9],\"game_over\":false,\"winner\":null,"
              "\"warning\":true}",
              &ev, err),
        0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_RULING);
    CU_ASSERT_EQUAL(r->kind, CR_RULING_SHOT);
    CU_ASSERT_FALSE(r->legal);
    CU_ASSERT_EQUAL_FATAL(r->n_fouls, 1);
    CU_ASSERT_STRING_EQUAL(r->fouls[0], "no_rail");
    CU_ASSERT_EQUAL(r->player, 1);
    CU_ASSERT_EQUAL(r->next_player, 2);
    CU_ASSERT_EQUAL(r->ball_in_hand, CR_BIH_ANYWHERE);
    CU_ASSERT_EQUAL_FATAL(r->n_spot, 1);
    CU_ASSERT_EQUAL(r->spot[0].id, 9);
    CU_ASSERT_DOUBLE_EQUAL(r->spot[0].x, 1905.0, 1e-12);
    CU_ASSERT_EQUAL_FATAL(r->n_pocketed, 1);
    CU_ASSERT_EQUAL(r->pocketed[0], 9);
    CU_ASSERT_FALSE(r->game_over);
    CU_ASSERT_EQUAL(r->winner, 0);
    CU_ASSERT_TRUE(r->warning);
    CU_ASSERT_FALSE(r->has_score);

    /* Extension fields. */
    CU_ASSERT_EQUAL_FATAL(
        parse("{\"type\":\"ruling\",\"t\":7,\"shot\":2,\"legal\":true,\"fouls\":[],\"player\":2,"
              "\"next_player\":2,\"ball_in_hand\":null,\"spot\":[],\"pocketed\":[],"
              "\"game_over\":true,\"winner\":2,\"warning\":false,\"break\":true,\"push_out\":true,"
              "\"rerack\":true,\"options\":[\"accept\",\"pass\"],\"score\":{\"1\":-2,\"2\":150},"
              "\"groups\":{\"1\":\"stripes\",\"2\":\"solids\"},\"fouls_in_row\":{\"1\":2,\"2\":0},"
              "\"detail\":\"Player 2 wins.\"}",
              &ev, err),
        0);
    CU_ASSERT_TRUE(r->legal);
    CU_ASSERT_EQUAL(r->ball_in_hand, CR_BIH_NONE);
    CU_ASSERT_TRUE(r->game_over);
    CU_ASSERT_EQUAL(r->winner, 2);
    CU_ASSERT_TRUE(r->break_shot);
    CU_ASSERT_TRUE(r->push_out);
    CU_ASSERT_TRUE(r->rerack);
    CU_ASSERT_EQUAL_FATAL(r->n_options, 2);
    CU_ASSERT_STRING_EQUAL(r->options[1], "pass");
    CU_ASSERT_TRUE(r->has_score);
    CU_ASSERT_EQUAL(r->score[1], -2);
    CU_ASSERT_EQUAL(r->score[2], 150);
    CU_ASSERT_EQUAL(r->groups[1], 2);
    CU_ASSERT_EQUAL(r->groups[2], 1);
    CU_ASSERT_EQUAL(r->fouls_in_row[1], 2);
    CU_ASSERT_EQUAL(r->fouls_in_row[2], 0);
    CU_ASSERT_STRING_EQUAL(r->detail, "Player 2 wins.");

    /* A lag ruling needs none of the SPEC fields. */
    CU_ASSERT_EQUAL_FATAL(
        parse("{\"type\":\"ruling\",\"t\":1,\"kind\":\"lag\",\"lag_winner\":1,\"next_player\":1}",
              &ev, err),
        0);
    CU_ASSERT_EQUAL(r->kind, CR_RULING_LAG);
    CU_ASSERT_EQUAL(r->lag_winner, 1);
    CU_ASSERT_EQUAL(r->next_player, 1);
    CU_ASSERT_EQUAL(r->player, 0);
    CU_ASSERT_EQUAL(ev.shot, -1);
    CU_ASSERT_EQUAL_FATAL(
        parse("{\"type\":\"ruling\",\"t\":1,\"kind\":\"between\",\"fouls\":[\"touched_ball\"]}",
              &ev, err),
        0);
    CU_ASSERT_EQUAL(r->kind, CR_RULING_BETWEEN);
    CU_ASSERT_EQUAL(r->n_fouls, 1);
}

static void test_parse_input(void)
{
    cr_event_t ev;
    char err[ERR_LEN];

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"input\",\"t\":1,\"shot\":4,\"kind\":\"call\","
                                "\"ball\":8,\"pocket\":\"foot-left\"}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_INPUT);
    CU_ASSERT_EQUAL(ev.shot, 4);
    CU_ASSERT_EQUAL(ev.input_kind, CR_INPUT_CALL);
    CU_ASSERT_EQUAL(ev.ball, 8);
    CU_ASSERT_EQUAL(ev.pocket, CR_POCKET_FOOT_LEFT);

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"input\",\"t\":1,\"kind\":\"safety\"}", &ev, err), 0);
    CU_ASSERT_EQUAL(ev.input_kind, CR_INPUT_SAFETY);
    CU_ASSERT_EQUAL(ev.player, -1);
    CU_ASSERT_EQUAL(ev.shot, -1);
    CU_ASSERT_EQUAL_FATAL(
        parse("{\"type\":\"input\",\"t\":1,\"shot\":null,\"kind\":\"push_out\",\"player\":2}", &ev,
              err),
        0);
    CU_ASSERT_EQUAL(ev.input_kind, CR_INPUT_PUSH_OUT);
    CU_ASSERT_EQUAL(ev.player, 2);
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"input\",\"t\":1,\"kind\":\"player\",\"player\":1}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.input_kind, CR_INPUT_PLAYER);
    CU_ASSERT_EQUAL(ev.player, 1);
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"input\",\"t\":1,\"kind\":\"rack\"}", &ev, err), 0);
    CU_ASSERT_EQUAL(ev.input_kind, CR_INPUT_RACK);
    CU_ASSERT_EQUAL(ev.player, -1);
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"input\",\"t\":1,\"kind\":\"lag\",\"balls\":[0,-1]}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.input_kind, CR_INPUT_LAG);
    CU_ASSERT_EQUAL(ev.lag_ball[0], 0);
    CU_ASSERT_EQUAL(ev.lag_ball[1], -1);
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"input\",\"t\":1,\"kind\":\"frozen\",\"ball\":5,"
                                "\"rail\":\"left\"}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.input_kind, CR_INPUT_FROZEN);
    CU_ASSERT_EQUAL(ev.ball, 5);
    CU_ASSERT_EQUAL(ev.rail, CR_RAIL_LEFT);
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"input\",\"t\":1,\"kind\":\"choice\","
                                "\"choice\":\"pass\"}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.input_kind, CR_INPUT_CHOICE);
    CU_ASSERT_STRING_EQUAL(ev.choice, "pass");
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"input\",\"t\":1,\"kind\":\"extension\","
                                "\"player\":2}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.input_kind, CR_INPUT_EXTENSION);
    CU_ASSERT_EQUAL(ev.player, 2);
}

static void test_parse_vision_extensions(void)
{
    cr_event_t ev;
    char err[ERR_LEN];

    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"double_hit\",\"t\":1,\"shot\":0,\"confidence\":0.6}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_DOUBLE_HIT);
    CU_ASSERT_EQUAL(ev.ball, -1);
    CU_ASSERT_DOUBLE_EQUAL(ev.confidence, 0.6, 1e-12);
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"push_shot\",\"t\":1,\"shot\":0,\"ball\":0,"
                                "\"confidence\":0.3}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_PUSH_SHOT);
    CU_ASSERT_EQUAL(ev.ball, 0);
    CU_ASSERT_DOUBLE_EQUAL(ev.confidence, 0.3, 1e-12);
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"warning\",\"t\":12.5,\"code\":\"camera_moved\","
                                "\"detail\":\"The table edges moved by 6 px.\"}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.type, CR_EV_WARNING);
    CU_ASSERT_STRING_EQUAL(ev.code, "camera_moved");
    CU_ASSERT_STRING_EQUAL(ev.detail, "The table edges moved by 6 px.");
    CU_ASSERT_NOT_EQUAL(parse("{\"type\":\"warning\",\"t\":1,\"detail\":\"no code\"}", &ev, err), 0);
    /* a ball that settles into a pocket between shots (1.7): a null shot */
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"pocket\",\"t\":3,\"shot\":null,\"ball\":5,\"pocket\":\"side-left\"}",
                                &ev, NULL),
                          CR_OK);
    CU_ASSERT_EQUAL(ev.shot, -1);
    CU_ASSERT_EQUAL(ev.ball, 5);
    check_round_trip(&ev);
    /* a foul between shots carries a null shot */
    CU_ASSERT_EQUAL_FATAL(parse("{\"type\":\"foul\",\"t\":3,\"shot\":null,\"code\":\"touched_ball\","
                                "\"rule\":\"6.6\",\"detail\":\"x\"}",
                                &ev, err),
                          0);
    CU_ASSERT_EQUAL(ev.shot, -1);
}

static void test_names(void)
{
    int t;
    int k;

    for (t = 0; t < CR_EV_TYPE_COUNT; t++)
        CU_ASSERT_EQUAL(cr_event_type_parse(cr_event_type_name((cr_event_type_t)t)), t);
    CU_ASSERT_STRING_EQUAL(cr_event_type_name(CR_EV_OFF_TABLE), "off_table");
    CU_ASSERT_STRING_EQUAL(cr_event_type_name(CR_EV_TYPE_COUNT), "?");
    CU_ASSERT_EQUAL(cr_event_type_parse("Stroke"), -1);
    CU_ASSERT_EQUAL(cr_event_type_parse(NULL), -1);
    for (k = 0; k < CR_INPUT_KIND_COUNT; k++)
        CU_ASSERT_EQUAL(cr_input_kind_parse(cr_input_kind_name((cr_input_kind_t)k)), k);
    CU_ASSERT_EQUAL(cr_input_kind_parse("nope"), CR_INPUT_NONE);
    CU_ASSERT_STRING_EQUAL(cr_input_kind_name(CR_INPUT_NONE), "?");
    CU_ASSERT_PTR_NULL(cr_bih_name(CR_BIH_NONE));
    CU_ASSERT_STRING_EQUAL(cr_bih_name(CR_BIH_BEHIND_HEAD), "behind_head_string");
    CU_ASSERT_EQUAL(cr_bih_parse("anywhere"), CR_BIH_ANYWHERE);
    CU_ASSERT_EQUAL(cr_bih_parse("nowhere"), -1);
    CU_ASSERT_STRING_EQUAL(cr_cause_name(CR_CAUSE_SETTLE), "settle");
    CU_ASSERT_EQUAL(cr_cause_parse("touch"), CR_CAUSE_TOUCH);
    CU_ASSERT_EQUAL(cr_cause_parse("wind"), -1);
    CU_ASSERT_STRING_EQUAL(cr_ruling_kind_name(CR_RULING_BETWEEN), "between");
    CU_ASSERT_EQUAL(cr_ruling_kind_parse("lag"), CR_RULING_LAG);
    CU_ASSERT_EQUAL(cr_ruling_kind_parse("shoot"), -1);
}

static void test_init_defaults(void)
{
    cr_event_t ev;

    cr_event_init(&ev, CR_EV_CUSHION);
    CU_ASSERT_EQUAL(ev.type, CR_EV_CUSHION);
    CU_ASSERT(isnan(ev.t));
    CU_ASSERT(isnan(ev.x) && isnan(ev.y));
    CU_ASSERT_EQUAL(ev.shot, -1);
    CU_ASSERT_EQUAL(ev.ball, -1);
    CU_ASSERT_EQUAL(ev.a, -1);
    CU_ASSERT_EQUAL(ev.b, -1);
    CU_ASSERT_EQUAL(ev.player, -1);
    CU_ASSERT_EQUAL(ev.rail, CR_RAIL_NONE);
    CU_ASSERT_EQUAL(ev.pocket, CR_POCKET_NONE);
    CU_ASSERT_EQUAL(ev.input_kind, CR_INPUT_NONE);
    CU_ASSERT_EQUAL(ev.cause, CR_CAUSE_UNKNOWN);
    CU_ASSERT_DOUBLE_EQUAL(ev.confidence, 1.0, 0.0);
    CU_ASSERT_STRING_EQUAL(ev.code, "");
    CU_ASSERT_EQUAL(ev.ruling.ball_in_hand, CR_BIH_NONE);
    CU_ASSERT_EQUAL(ev.ruling.n_fouls, 0);
    CU_ASSERT_FALSE(ev.ruling.has_score);
    cr_event_init(&ev, CR_EV_STROKE);
    CU_ASSERT_EQUAL(ev.ball, CR_BALL_CUE);
}

/* ---------------------------------------------------------------------- */
/* Round trips                                                             */

/* Field by field, so a failure names the field. */
static void check_same_event(const cr_event_t *a, const cr_event_t *b)
{
    const cr_ruling_t *ra = &a->ruling;
    const cr_ruling_t *rb = &b->ruling;
    int i;

    CU_ASSERT_EQUAL(a->type, b->type);
    CU_ASSERT(same_num(a->t, b->t));
    CU_ASSERT_EQUAL(a->shot, b->shot);
    CU_ASSERT_EQUAL(a->ball, b->ball);
    CU_ASSERT_EQUAL(a->a, b->a);
    CU_ASSERT_EQUAL(a->b, b->b);
    CU_ASSERT(same_num(a->x, b->x));
    CU_ASSERT(same_num(a->y, b->y));
    CU_ASSERT_EQUAL(a->rail, b->rail);
    CU_ASSERT_EQUAL(a->pocket, b->pocket);
    CU_ASSERT(same_num(a->confidence, b->confidence));
    CU_ASSERT_EQUAL(a->cause, b->cause);
    CU_ASSERT_EQUAL(a->player, b->player);
    CU_ASSERT_EQUAL_FATAL(a->n_balls, b->n_balls);
    for (i = 0; i < a->n_balls; i++) {
        CU_ASSERT_EQUAL(a->balls[i].id, b->balls[i].id);
        CU_ASSERT(same_num(a->balls[i].x, b->balls[i].x));
        CU_ASSERT(same_num(a->balls[i].y, b->balls[i].y));
        CU_ASSERT(same_num(a->balls[i].vx, b->balls[i].vx));
        CU_ASSERT(same_num(a->balls[i].vy, b->balls[i].vy));
        CU_ASSERT_EQUAL(a->balls[i].frozen_rails, b->balls[i].frozen_rails);
        CU_ASSERT_EQUAL(a->balls[i].hidden, b->balls[i].hidden);
    }
    CU_ASSERT_EQUAL_FATAL(a->n_moving, b->n_moving);
    for (i = 0; i < a->n_moving; i++)
        CU_ASSERT_EQUAL(a->moving[i], b->moving[i]);
    CU_ASSERT_EQUAL(a->input_kind, b->input_kind);
    CU_ASSERT_EQUAL(a->lag_ball[0], b->lag_ball[0]);
    CU_ASSERT_EQUAL(a->lag_ball[1], b->lag_ball[1]);
    CU_ASSERT_STRING_EQUAL(a->choice, b->choice);
    CU_ASSERT_EQUAL(a->version, b->version);
    CU_ASSERT_STRING_EQUAL(a->source, b->source);
    CU_ASSERT(same_num(a->fps, b->fps));
    CU_ASSERT_EQUAL(a->width, b->width);
    CU_ASSERT_EQUAL(a->height, b->height);
    CU_ASSERT(same_num(a->table_length_mm, b->table_length_mm));
    CU_ASSERT(same_num(a->table_width_mm, b->table_width_mm));
    CU_ASSERT_EQUAL(a->game, b->game);
    CU_ASSERT_STRING_EQUAL(a->rules, b->rules);
    CU_ASSERT_STRING_EQUAL(a->code, b->code);
    CU_ASSERT_STRING_EQUAL(a->rule, b->rule);
    CU_ASSERT_STRING_EQUAL(a->detail, b->detail);

    CU_ASSERT_EQUAL(ra->kind, rb->kind);
    CU_ASSERT_EQUAL(ra->legal, rb->legal);
    CU_ASSERT_EQUAL_FATAL(ra->n_fouls, rb->n_fouls);
    for (i = 0; i < ra->n_fouls; i++)
        CU_ASSERT_STRING_EQUAL(ra->fouls[i], rb->fouls[i]);
    CU_ASSERT_EQUAL(ra->player, rb->player);
    CU_ASSERT_EQUAL(ra->next_player, rb->next_player);
    CU_ASSERT_EQUAL(ra->ball_in_hand, rb->ball_in_hand);
    CU_ASSERT_EQUAL_FATAL(ra->n_spot, rb->n_spot);
    for (i = 0; i < ra->n_spot; i++) {
        CU_ASSERT_EQUAL(ra->spot[i].id, rb->spot[i].id);
        CU_ASSERT(same_num(ra->spot[i].x, rb->spot[i].x));
        CU_ASSERT(same_num(ra->spot[i].y, rb->spot[i].y));
    }
    CU_ASSERT_EQUAL_FATAL(ra->n_pocketed, rb->n_pocketed);
    for (i = 0; i < ra->n_pocketed; i++)
        CU_ASSERT_EQUAL(ra->pocketed[i], rb->pocketed[i]);
    CU_ASSERT_EQUAL(ra->game_over, rb->game_over);
    CU_ASSERT_EQUAL(ra->winner, rb->winner);
    CU_ASSERT_EQUAL(ra->warning, rb->warning);
    CU_ASSERT_EQUAL(ra->break_shot, rb->break_shot);
    CU_ASSERT_EQUAL(ra->push_out, rb->push_out);
    CU_ASSERT_EQUAL(ra->rerack, rb->rerack);
    CU_ASSERT_EQUAL_FATAL(ra->n_options, rb->n_options);
    for (i = 0; i < ra->n_options; i++)
        CU_ASSERT_STRING_EQUAL(ra->options[i], rb->options[i]);
    CU_ASSERT_EQUAL(ra->has_score, rb->has_score);
    for (i = 1; i <= 2; i++) {
        CU_ASSERT_EQUAL(ra->score[i], rb->score[i]);
        CU_ASSERT_EQUAL(ra->groups[i], rb->groups[i]);
        CU_ASSERT_EQUAL(ra->fouls_in_row[i], rb->fouls_in_row[i]);
    }
    CU_ASSERT_EQUAL(ra->lag_winner, rb->lag_winner);
    CU_ASSERT_STRING_EQUAL(ra->detail, rb->detail);
}

/* Formats ev, parses the line back, compares, and formats again: the two
 * lines must be identical. */
static void check_round_trip(const cr_event_t *ev)
{
    char line[CR_JSONL_LINE_MAX];
    char line2[CR_JSONL_LINE_MAX];
    char err[ERR_LEN] = "";
    cr_event_t back;
    int n = cr_jsonl_format_msg(ev, line, sizeof(line), err, sizeof(err));
    int first = ev->type == CR_EV_SESSION;

    if (n < 0)
        fprintf(stderr, "\ncannot format %s: %s\n", cr_event_type_name(ev->type), err);
    CU_ASSERT_FATAL(n > 0);
    CU_ASSERT_EQUAL((size_t)n, strlen(line));
    CU_ASSERT_PTR_NULL(strchr(line, '\n'));
    if (cr_jsonl_parse_line(line, (size_t)n, first, &back, err, sizeof(err)) != 0)
        fprintf(stderr, "\ncannot read back %s: %s\n", line, err);
    CU_ASSERT_EQUAL_FATAL(cr_jsonl_parse_line(line, (size_t)n, first, &back, err, sizeof(err)), 0);
    check_same_event(ev, &back);
    CU_ASSERT_EQUAL(cr_jsonl_format(&back, line2, sizeof(line2)), n);
    CU_ASSERT_STRING_EQUAL(line, line2);
}

static void set_balls(cr_event_t *ev, int n)
{
    int i;

    ev->n_balls = n;
    for (i = 0; i < n; i++) {
        ev->balls[i].id = i % 16;
        ev->balls[i].x = 100.25 + 50.0 * i;
        ev->balls[i].y = 1200.5 - 30.0 * i;
    }
}

static void test_round_trip_every_type(void)
{
    cr_event_t ev;
    int i;

    cr_event_init(&ev, CR_EV_SESSION);
    ev.t = 0.0;
    snprintf(ev.source, sizeof(ev.source), "rtsp://cam/\"pool\" \\ table \xc3\xa9\t1");
    ev.fps = 29.97;
    ev.width = 1280;
    ev.height = 720;
    ev.table_length_mm = 2540.0;
    ev.table_width_mm = 1270.0;
    ev.game = CR_GAME_14_1;
    snprintf(ev.rules, sizeof(ev.rules), "wpa2008");
    check_round_trip(&ev);
    cr_event_init(&ev, CR_EV_SESSION); /* all optional fields absent */
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_STROKE);
    ev.t = 12.345678;
    ev.shot = 7;
    set_balls(&ev, CR_EVENT_MAX_BALLS);
    ev.balls[0].frozen_rails = 1u << CR_RAIL_FOOT;
    ev.balls[3].frozen_rails = (1u << CR_RAIL_HEAD) | (1u << CR_RAIL_LEFT) | (1u << CR_RAIL_RIGHT);
    ev.n_moving = 2;
    ev.moving[0] = 4;
    ev.moving[1] = -1;
    ev.player = 2;
    check_round_trip(&ev);
    ev.ball = -1; /* a lag stroke */
    ev.player = -1;
    ev.n_moving = 0;
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_COLLISION);
    ev.t = 13.0;
    ev.shot = 7;
    ev.a = 0;
    ev.b = 15;
    ev.x = -3.75;
    ev.y = 0.01;
    ev.confidence = 0.875;
    check_round_trip(&ev);
    ev.confidence = 1.0;
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_CUSHION);
    ev.t = 13.5;
    ev.shot = 7;
    ev.ball = 3;
    ev.rail = CR_RAIL_RIGHT;
    ev.x = 1000.0;
    ev.y = 1241.42;
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_POCKET);
    ev.t = 14.0;
    ev.shot = 7;
    ev.ball = 3;
    ev.pocket = CR_POCKET_HEAD_RIGHT;
    check_round_trip(&ev);
    ev.confidence = 0.75; /* a drop not seen */
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_OFF_TABLE);
    ev.t = 14.25;
    ev.shot = 7;
    ev.ball = 0;
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_DISTURBED);
    ev.t = 20.0;
    ev.ball = 6;
    ev.x = 500.0;
    ev.y = 600.0;
    check_round_trip(&ev); /* shot null, cause unknown */
    ev.shot = 7;
    ev.cause = CR_CAUSE_TOUCH;
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_PLACED);
    ev.t = 21.0;
    ev.ball = 0;
    ev.x = 400.5;
    ev.y = 635.0;
    check_round_trip(&ev);
    ev.shot = 8;
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_REST);
    ev.t = 22.0;
    ev.shot = 7;
    set_balls(&ev, 10);
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_BALLS);
    ev.t = 22.033333;
    set_balls(&ev, 5);
    ev.balls[0].vx = 1234.5;
    ev.balls[0].vy = -0.25;
    ev.balls[2].vx = 3.0; /* vy absent */
    ev.balls[3].hidden = true;
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_FOUL);
    ev.t = 22.0;
    ev.shot = 7;
    snprintf(ev.code, sizeof(ev.code), "wrong_ball_first");
    snprintf(ev.rule, sizeof(ev.rule), "6.2");
    snprintf(ev.detail, sizeof(ev.detail), "The cue ball first hit the 5, not the 1.");
    ev.confidence = 0.9;
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_RULING);
    ev.t = 22.0;
    ev.shot = 7;
    ev.ruling.legal = false;
    ev.ruling.n_fouls = CR_EVENT_MAX_CODES;
    for (i = 0; i < CR_EVENT_MAX_CODES; i++)
        snprintf(ev.ruling.fouls[i], CR_CODE_LEN, "foul_code_%d", i);
    ev.ruling.player = 1;
    ev.ruling.next_player = 2;
    ev.ruling.ball_in_hand = CR_BIH_BEHIND_HEAD;
    ev.ruling.n_spot = 2;
    ev.ruling.spot[0] = (cr_ball_pos_t){9, 1905.0, 635.0};
    ev.ruling.spot[1] = (cr_ball_pos_t){1, 1962.15, 635.0};
    ev.ruling.n_pocketed = CR_NUM_BALLS;
    for (i = 0; i < CR_NUM_BALLS; i++)
        ev.ruling.pocketed[i] = i;
    ev.ruling.game_over = true;
    ev.ruling.winner = 2;
    ev.ruling.warning = true;
    ev.ruling.break_shot = true;
    ev.ruling.push_out = true;
    ev.ruling.rerack = true;
    ev.ruling.n_options = CR_EVENT_MAX_OPTIONS;
    for (i = 0; i < CR_EVENT_MAX_OPTIONS; i++)
        snprintf(ev.ruling.options[i], CR_CODE_LEN, "option_%d", i);
    ev.ruling.has_score = true;
    ev.ruling.score[1] = -3;
    ev.ruling.score[2] = 149;
    ev.ruling.groups[1] = 1;
    ev.ruling.groups[2] = 2;
    ev.ruling.fouls_in_row[1] = 2;
    ev.ruling.fouls_in_row[2] = 1;
    snprintf(ev.ruling.detail, sizeof(ev.ruling.detail), "Scratch; player 2 has ball in hand.");
    check_round_trip(&ev);
    ev.ruling.groups[2] = 0; /* only one group set */
    ev.ruling.has_score = false;
    ev.ruling.score[1] = 0;
    ev.ruling.score[2] = 0;
    check_round_trip(&ev);
    cr_event_init(&ev, CR_EV_RULING);
    ev.t = 1.0;
    ev.ruling.kind = CR_RULING_LAG;
    ev.ruling.lag_winner = 2;
    ev.ruling.next_player = 2;
    check_round_trip(&ev);
    ev.ruling.kind = CR_RULING_BETWEEN;
    ev.ruling.lag_winner = 0;
    ev.ruling.player = 1;
    ev.ruling.n_fouls = 1;
    snprintf(ev.ruling.fouls[0], CR_CODE_LEN, "touched_ball");
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_INPUT);
    ev.t = 30.0;
    ev.input_kind = CR_INPUT_CALL;
    ev.ball = 8;
    ev.pocket = CR_POCKET_SIDE_LEFT;
    check_round_trip(&ev);
    cr_event_init(&ev, CR_EV_INPUT);
    ev.t = 30.0;
    ev.shot = 9;
    ev.input_kind = CR_INPUT_SAFETY;
    check_round_trip(&ev);
    ev.player = 1;
    check_round_trip(&ev);
    ev.input_kind = CR_INPUT_PUSH_OUT;
    check_round_trip(&ev);
    ev.input_kind = CR_INPUT_PLAYER;
    ev.player = 2;
    check_round_trip(&ev);
    ev.input_kind = CR_INPUT_RACK;
    check_round_trip(&ev);
    ev.input_kind = CR_INPUT_EXTENSION;
    check_round_trip(&ev);
    cr_event_init(&ev, CR_EV_INPUT);
    ev.t = 30.0;
    ev.input_kind = CR_INPUT_LAG;
    ev.lag_ball[0] = 0;
    ev.lag_ball[1] = 9;
    check_round_trip(&ev);
    cr_event_init(&ev, CR_EV_INPUT);
    ev.t = 30.0;
    ev.input_kind = CR_INPUT_FROZEN;
    ev.ball = 2;
    ev.rail = CR_RAIL_HEAD;
    check_round_trip(&ev);
    cr_event_init(&ev, CR_EV_INPUT);
    ev.t = 30.0;
    ev.input_kind = CR_INPUT_CHOICE;
    snprintf(ev.choice, sizeof(ev.choice), "opponent_shoots");
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_DOUBLE_HIT);
    ev.t = 31.0;
    ev.shot = 9;
    ev.confidence = 0.5;
    check_round_trip(&ev);
    ev.ball = 0;
    check_round_trip(&ev);
    cr_event_init(&ev, CR_EV_PUSH_SHOT);
    ev.t = 31.0;
    ev.confidence = 0.25;
    check_round_trip(&ev);
}

/* Exact lines: key order ("type", "t", "shot", then SPEC order) and short
 * numbers (rounded to the documented resolution). */
static void test_format_exact(void)
{
    char line[CR_JSONL_LINE_MAX];
    cr_event_t ev;

    cr_event_init(&ev, CR_EV_CUSHION);
    ev.t = 1.2299999999;
    ev.shot = 0;
    ev.ball = 9;
    ev.rail = CR_RAIL_FOOT;
    ev.x = 2511.40000001;
    ev.y = 600.004;
    CU_ASSERT_TRUE(cr_jsonl_format(&ev, line, sizeof(line)) > 0);
    CU_ASSERT_STRING_EQUAL(line, "{\"type\":\"cushion\",\"t\":1.23,\"shot\":0,\"ball\":9,"
                                 "\"rail\":\"foot\",\"x\":2511.4,\"y\":600.0}");

    cr_event_init(&ev, CR_EV_STROKE);
    ev.t = 0.0000004;
    ev.shot = 0;
    ev.n_balls = 1;
    ev.balls[0] = (cr_ball_state_t){0, -0.001, 635.123, NAN, NAN, 0, false};
    CU_ASSERT_TRUE(cr_jsonl_format(&ev, line, sizeof(line)) > 0);
    CU_ASSERT_STRING_EQUAL(line, "{\"type\":\"stroke\",\"t\":0.0,\"shot\":0,\"balls\":[{\"id\":0,"
                                 "\"x\":0.0,\"y\":635.12}],\"moving\":[]}");

    cr_event_init(&ev, CR_EV_DISTURBED);
    ev.t = 3;
    ev.ball = 4;
    ev.x = 1;
    ev.y = 2;
    CU_ASSERT_TRUE(cr_jsonl_format(&ev, line, sizeof(line)) > 0);
    CU_ASSERT_STRING_EQUAL(line, "{\"type\":\"disturbed\",\"t\":3.0,\"shot\":null,\"ball\":4,"
                                 "\"x\":1.0,\"y\":2.0}");

    /* "shot" absent: null where the SPEC row has it, omitted elsewhere. */
    cr_event_init(&ev, CR_EV_INPUT);
    ev.t = 30;
    ev.input_kind = CR_INPUT_SAFETY;
    CU_ASSERT_TRUE(cr_jsonl_format(&ev, line, sizeof(line)) > 0);
    CU_ASSERT_STRING_EQUAL(line, "{\"type\":\"input\",\"t\":30.0,\"shot\":null,\"kind\":\"safety\"}");
    cr_event_init(&ev, CR_EV_PLACED);
    ev.t = 31;
    ev.ball = 0;
    ev.x = 1;
    ev.y = 2;
    CU_ASSERT_TRUE(cr_jsonl_format(&ev, line, sizeof(line)) > 0);
    CU_ASSERT_STRING_EQUAL(line, "{\"type\":\"placed\",\"t\":31.0,\"ball\":0,\"x\":1.0,\"y\":2.0}");

    cr_event_init(&ev, CR_EV_FOUL);
    ev.t = 4.5;
    ev.shot = 1;
    snprintf(ev.code, sizeof(ev.code), "no_rail");
    snprintf(ev.rule, sizeof(ev.rule), "6.3");
    snprintf(ev.detail, sizeof(ev.detail), "No rail.");
    ev.confidence = 0.12345;
    CU_ASSERT_TRUE(cr_jsonl_format(&ev, line, sizeof(line)) > 0);
    CU_ASSERT_STRING_EQUAL(line, "{\"type\":\"foul\",\"t\":4.5,\"shot\":1,\"code\":\"no_rail\","
                                 "\"rule\":\"6.3\",\"detail\":\"No rail.\",\"confidence\":0.123}");
    ev.early = true;
    CU_ASSERT_TRUE(cr_jsonl_format(&ev, line, sizeof(line)) > 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, ",\"early\":true}"));

    cr_event_init(&ev, CR_EV_RULING);
    ev.t = 4.5;
    ev.shot = 1;
    ev.ruling.player = 1;
    ev.ruling.next_player = 2;
    CU_ASSERT_TRUE(cr_jsonl_format(&ev, line, sizeof(line)) > 0);
    CU_ASSERT_STRING_EQUAL(line, "{\"type\":\"ruling\",\"t\":4.5,\"shot\":1,\"legal\":false,"
                                 "\"fouls\":[],\"player\":1,\"next_player\":2,"
                                 "\"ball_in_hand\":null,\"spot\":[],\"pocketed\":[],"
                                 "\"game_over\":false,\"winner\":null,\"warning\":false,"
                                 "\"fouls_in_row\":{\"1\":0,\"2\":0}}");
}

/* The longest event fits CR_JSONL_LINE_MAX; a small buffer gives
 * CR_ERR_FULL; values the reader would refuse give CR_ERR_INVALID. */
static void test_format_limits(void)
{
    static char line[CR_JSONL_LINE_MAX];
    char err[ERR_LEN];
    cr_event_t ev;
    cr_event_t bad;
    int i;
    int n;

    cr_event_init(&ev, CR_EV_RULING);
    ev.t = 123456789.123456;
    ev.shot = 2147483647;
    ev.ruling.n_fouls = CR_EVENT_MAX_CODES;
    for (i = 0; i < CR_EVENT_MAX_CODES; i++)
        memset(ev.ruling.fouls[i], '\x01', CR_CODE_LEN - 1);
    ev.ruling.player = 1;
    ev.ruling.next_player = 2;
    ev.ruling.n_spot = CR_NUM_BALLS;
    for (i = 0; i < CR_NUM_BALLS; i++)
        ev.ruling.spot[i] = (cr_ball_pos_t){-1, -123456789.25, -123456789.25};
    ev.ruling.n_pocketed = CR_NUM_BALLS;
    for (i = 0; i < CR_NUM_BALLS; i++)
        ev.ruling.pocketed[i] = -1;
    ev.ruling.winner = 1;
    ev.ruling.n_options = CR_EVENT_MAX_OPTIONS;
    for (i = 0; i < CR_EVENT_MAX_OPTIONS; i++)
        memset(ev.ruling.options[i], '\x01', CR_CODE_LEN - 1);
    ev.ruling.kind = CR_RULING_LAG;
    ev.ruling.has_score = true;
    ev.ruling.score[1] = -2147483647 - 1;
    ev.ruling.score[2] = -2147483647 - 1;
    ev.ruling.groups[1] = 1;
    ev.ruling.groups[2] = 2;
    ev.ruling.fouls_in_row[1] = 2147483647;
    ev.ruling.fouls_in_row[2] = 2147483647;
    ev.ruling.lag_winner = 1;
    memset(ev.ruling.detail, '\x01', CR_TEXT_LEN - 1);
    ev.ruling.break_shot = ev.ruling.push_out = ev.ruling.rerack = true;
    n = cr_jsonl_format(&ev, line, sizeof(line));
    CU_ASSERT_TRUE(n > 0 && n < CR_JSONL_LINE_MAX);
    check_round_trip(&ev);

    cr_event_init(&ev, CR_EV_STROKE);
    ev.t = 123456789.123456;
    ev.shot = 2147483647;
    set_balls(&ev, CR_EVENT_MAX_BALLS);
    for (i = 0; i < CR_EVENT_MAX_BALLS; i++) {
        ev.balls[i].id = -1;
        ev.balls[i].x = -1.2345678912345e300;
        ev.balls[i].y = -1.2345678912345e-300;
        ev.balls[i].frozen_rails = 0xF;
    }
    ev.n_moving = CR_EVENT_MAX_BALLS;
    for (i = 0; i < CR_EVENT_MAX_BALLS; i++)
        ev.moving[i] = -1;
    ev.ball = -1;
    ev.player = 2;
    n = cr_jsonl_format(&ev, line, sizeof(line));
    CU_ASSERT_TRUE(n > 0 && n < CR_JSONL_LINE_MAX);
    CU_ASSERT_EQUAL(cr_jsonl_format(&ev, line, (size_t)n), CR_ERR_FULL);
    CU_ASSERT_EQUAL(cr_jsonl_format(&ev, line, (size_t)n + 1), n);

    /* Values the reader would refuse are refused here too. */
    cr_event_init(&ev, CR_EV_CUSHION);
    ev.t = 1.0;
    ev.shot = 0;
    ev.ball = 1;
    ev.rail = CR_RAIL_HEAD;
    ev.x = 1.0;
    ev.y = 2.0;
    CU_ASSERT_TRUE(cr_jsonl_format(&ev, line, sizeof(line)) > 0);
    bad = ev;
    bad.t = NAN;
    CU_ASSERT_EQUAL(cr_jsonl_format_msg(&bad, line, sizeof(line), err, sizeof(err)), CR_ERR_INVALID);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"t\""));
    bad = ev;
    bad.t = -1.0;
    CU_ASSERT_EQUAL(cr_jsonl_format(&bad, line, sizeof(line)), CR_ERR_INVALID);
    bad = ev;
    bad.ball = 16;
    CU_ASSERT_EQUAL(cr_jsonl_format_msg(&bad, line, sizeof(line), err, sizeof(err)), CR_ERR_INVALID);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"ball\""));
    bad = ev;
    bad.rail = CR_RAIL_NONE;
    CU_ASSERT_EQUAL(cr_jsonl_format_msg(&bad, line, sizeof(line), err, sizeof(err)), CR_ERR_INVALID);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"rail\""));
    bad = ev;
    bad.shot = -2; /* -1 is a cushion between shots: null */
    CU_ASSERT_EQUAL(cr_jsonl_format(&bad, line, sizeof(line)), CR_ERR_INVALID);
    bad = ev;
    bad.y = INFINITY;
    CU_ASSERT_EQUAL(cr_jsonl_format(&bad, line, sizeof(line)), CR_ERR_INVALID);
    bad = ev;
    bad.type = CR_EV_TYPE_COUNT;
    CU_ASSERT_EQUAL(cr_jsonl_format(&bad, line, sizeof(line)), CR_ERR_INVALID);

    cr_event_init(&bad, CR_EV_FOUL);
    bad.t = 1.0;
    bad.shot = 0;
    CU_ASSERT_EQUAL(cr_jsonl_format_msg(&bad, line, sizeof(line), err, sizeof(err)), CR_ERR_INVALID);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"code\"")); /* empty code */
    snprintf(bad.code, sizeof(bad.code), "bad_\xff_utf8");
    CU_ASSERT_EQUAL(cr_jsonl_format(&bad, line, sizeof(line)), CR_ERR_INVALID);
    memset(bad.code, 'a', sizeof(bad.code)); /* not terminated */
    CU_ASSERT_EQUAL(cr_jsonl_format(&bad, line, sizeof(line)), CR_ERR_INVALID);

    cr_event_init(&bad, CR_EV_RULING);
    bad.t = 1.0;
    bad.ruling.player = 1; /* next_player 0 is not a shot's */
    CU_ASSERT_EQUAL(cr_jsonl_format(&bad, line, sizeof(line)), CR_ERR_INVALID);
    bad.ruling.next_player = 2;
    bad.ruling.n_fouls = CR_EVENT_MAX_CODES + 1;
    CU_ASSERT_EQUAL(cr_jsonl_format(&bad, line, sizeof(line)), CR_ERR_INVALID);

    cr_event_init(&bad, CR_EV_INPUT);
    bad.t = 1.0;
    CU_ASSERT_EQUAL(cr_jsonl_format(&bad, line, sizeof(line)), CR_ERR_INVALID); /* no kind */
    bad.input_kind = CR_INPUT_PLAYER;
    CU_ASSERT_EQUAL(cr_jsonl_format(&bad, line, sizeof(line)), CR_ERR_INVALID); /* no player */
}

/* ---------------------------------------------------------------------- */
/* Malformed lines                                                         */

static const struct {
    const char *line;
    int is_first;
    const char *needle; /* must appear in the message */
} malformed[] = {
    {"{\"type\":\"stroke\",", 0, "invalid JSON at column"},
    {"not json", 0, "invalid JSON"},
    {"{\"type\":\"pocket\",\"t\":1,\"t\":2,\"shot\":0,\"ball\":1,\"pocket\":\"foot-left\"}", 0,
     "invalid JSON"}, /* duplicate key */
    {"[1,2]", 0, "not a JSON object"},
    {"42", 0, "not a JSON object"},
    {"\"session\"", 1, "not a JSON object"},
    {"{\"t\":1}", 0, "missing field \"type\""},
    {"{\"type\":7,\"t\":1}", 0, "\"type\" must be a string"},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[]}", 1, "first line must be the session"},
    {"{\"type\":\"wobble\"}", 1, "first line must be the session"},
    {"{\"type\":\"session\"}", 1, "missing field \"version\""},
    {"{\"type\":\"session\",\"version\":2}", 1, "\"version\" must be 1"},
    {"{\"type\":\"session\",\"version\":1,\"game\":\"snooker\"}", 1, "unknown game \"snooker\""},
    {"{\"type\":\"session\",\"version\":1,\"table\":{\"length_mm\":2540}}", 1,
     "table: missing field \"width_mm\""},
    {"{\"type\":\"session\",\"version\":1,\"width\":-5}", 1, "\"width\""},
    {"{\"type\":\"stroke\",\"shot\":0,\"balls\":[]}", 0, "stroke: missing field \"t\""},
    {"{\"type\":\"stroke\",\"t\":\"x\",\"shot\":0,\"balls\":[]}", 0, "\"t\" must be a number"},
    {"{\"type\":\"stroke\",\"t\":-0.5,\"shot\":0,\"balls\":[]}", 0, "\"t\" must be a number >= 0"},
    {"{\"type\":\"stroke\",\"t\":null,\"shot\":0,\"balls\":[]}", 0, "\"t\" must be a number"},
    {"{\"type\":\"stroke\",\"t\":1,\"balls\":[]}", 0, "missing field \"shot\""},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":null,\"balls\":[]}", 0, "\"shot\""},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":-1,\"balls\":[]}", 0, "\"shot\" must be"},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":1.5,\"balls\":[]}", 0, "\"shot\" must be"},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":0}", 0, "missing field \"balls\""},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[{\"id\":16,\"x\":1,\"y\":2}]}", 0,
     "balls[0]: \"id\" must be a ball id -1..15, got 16"},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[{\"id\":1,\"x\":1,\"y\":2},{\"id\":2,"
     "\"x\":1}]}",
     0, "balls[1]: missing field \"y\""},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[{\"id\":1,\"x\":\"1\",\"y\":2}]}", 0,
     "\"x\" must be a number"},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[7]}", 0, "balls[0]: must be an object"},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[{\"id\":1,\"x\":1,\"y\":2,"
     "\"frozen\":[\"top\"]}]}",
     0, "unknown rail in \"frozen\" \"top\""},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[],\"moving\":3}", 0,
     "\"moving\" must be an array"},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[],\"moving\":[-2]}", 0, "\"moving[0]\""},
    {"{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[],\"player\":3}", 0,
     "\"player\" must be 1 or 2, got 3"},
    {"{\"type\":\"collision\",\"t\":1,\"shot\":0,\"a\":0,\"x\":1,\"y\":2}", 0,
     "collision: missing field \"b\""},
    {"{\"type\":\"collision\",\"t\":1,\"shot\":0,\"a\":0,\"b\":1,\"x\":1,\"y\":2,"
     "\"confidence\":1.5}",
     0, "\"confidence\" must be a number 0..1, got 1.5"},
    {"{\"type\":\"collision\",\"t\":1,\"shot\":0,\"a\":0,\"b\":1,\"x\":1,\"y\":2,"
     "\"confidence\":-0.1}",
     0, "\"confidence\""},
    {"{\"type\":\"cushion\",\"t\":1,\"shot\":0,\"ball\":1,\"x\":1,\"y\":2}", 0,
     "cushion: missing field \"rail\""},
    {"{\"type\":\"cushion\",\"t\":1,\"shot\":0,\"ball\":1,\"rail\":\"top\",\"x\":1,\"y\":2}", 0,
     "cushion: unknown rail \"top\""},
    {"{\"type\":\"cushion\",\"t\":1,\"shot\":0,\"ball\":16,\"rail\":\"head\",\"x\":1,\"y\":2}", 0,
     "\"ball\" must be a ball id -1..15, got 16"},
    {"{\"type\":\"pocket\",\"t\":1,\"shot\":0,\"ball\":1,\"pocket\":\"corner\"}", 0,
     "pocket: unknown pocket \"corner\""},
    {"{\"type\":\"pocket\",\"t\":1,\"shot\":0,\"ball\":1}", 0, "missing field \"pocket\""},
    {"{\"type\":\"off_table\",\"t\":1,\"shot\":0}", 0, "off_table: missing field \"ball\""},
    {"{\"type\":\"disturbed\",\"t\":1,\"ball\":1,\"x\":1,\"y\":2,\"cause\":\"wind\"}", 0,
     "unknown cause \"wind\""},
    {"{\"type\":\"placed\",\"t\":1,\"ball\":0,\"x\":1}", 0, "placed: missing field \"y\""},
    {"{\"type\":\"rest\",\"t\":1,\"shot\":0,\"balls\":{}}", 0, "\"balls\" must be an array"},
    {"{\"type\":\"balls\",\"t\":1,\"balls\":[{\"id\":1,\"x\":1,\"y\":2,\"vx\":\"fast\"}]}", 0,
     "\"vx\" must be a number"},
    {"{\"type\":\"foul\",\"t\":1,\"shot\":0,\"rule\":\"6.3\",\"detail\":\"\"}", 0,
     "missing field \"code\""},
    {"{\"type\":\"foul\",\"t\":1,\"shot\":0,\"code\":\"\",\"rule\":\"6.3\",\"detail\":\"\"}", 0,
     "\"code\" must not be empty"},
    {"{\"type\":\"foul\",\"t\":1,\"shot\":0,\"code\":\"no_rail\",\"rule\":6.3,\"detail\":\"\"}",
     0, "\"rule\" must be a string"},
    {"{\"type\":\"foul\",\"t\":1,\"shot\":0,\"code\":\"a_code_that_is_much_longer_than_forty_"
     "bytes\",\"rule\":\"6.3\",\"detail\":\"\"}",
     0, "\"code\" is too long"},
    {"{\"type\":\"ruling\",\"t\":1,\"shot\":0,\"legal\":true,\"fouls\":[],\"player\":1,"
     "\"next_player\":2,\"ball_in_hand\":\"nowhere\",\"spot\":[],\"pocketed\":[],"
     "\"game_over\":false,\"winner\":null,\"warning\":false}",
     0, "unknown ball_in_hand \"nowhere\""},
    {"{\"type\":\"ruling\",\"t\":1,\"shot\":0,\"legal\":true,\"fouls\":[],\"player\":1,"
     "\"next_player\":2,\"spot\":[],\"pocketed\":[],\"game_over\":false,\"winner\":null,"
     "\"warning\":false}",
     0, "missing field \"ball_in_hand\""},
    {"{\"type\":\"balls\",\"t\":1,\"balls\":[{\"id\":3,\"x\":5,\"y\":6,\"hidden\":1}]}", 0,
     "\"hidden\" must be true or false"},
    {"{\"type\":\"ruling\",\"t\":1,\"shot\":0,\"legal\":1,\"fouls\":[],\"player\":1,"
     "\"next_player\":2,\"ball_in_hand\":null,\"spot\":[],\"pocketed\":[],"
     "\"game_over\":false,\"winner\":null,\"warning\":false}",
     0, "\"legal\" must be true or false"},
    {"{\"type\":\"ruling\",\"t\":1,\"shot\":0,\"legal\":true,\"fouls\":[],\"player\":1,"
     "\"next_player\":2,\"ball_in_hand\":null,\"spot\":[],\"pocketed\":[],"
     "\"game_over\":false,\"warning\":false}",
     0, "missing field \"winner\""},
    {"{\"type\":\"ruling\",\"t\":1,\"shot\":0,\"legal\":true,\"fouls\":[],\"player\":1,"
     "\"next_player\":2,\"ball_in_hand\":null,\"spot\":[],\"pocketed\":[],"
     "\"game_over\":false,\"winner\":3,\"warning\":false}",
     0, "\"winner\" must be"},
    {"{\"type\":\"ruling\",\"t\":1,\"kind\":\"replay\"}", 0, "unknown kind \"replay\""},
    {"{\"type\":\"ruling\",\"t\":1,\"kind\":\"between\",\"fouls\":[\"a\",\"b\",\"c\",\"d\","
     "\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\",\"m\",\"n\",\"o\",\"p\",\"q\"]}",
     0, "\"fouls\" has 17 entries"},
    {"{\"type\":\"ruling\",\"t\":1,\"kind\":\"between\",\"options\":[\"a\",\"b\",\"c\",\"d\","
     "\"e\",\"f\",\"g\"]}",
     0, "\"options\" has 7 entries"},
    {"{\"type\":\"ruling\",\"t\":1,\"kind\":\"between\",\"score\":{\"1\":3}}", 0,
     "score: missing field \"2\""},
    {"{\"type\":\"ruling\",\"t\":1,\"kind\":\"between\",\"groups\":{\"1\":\"spots\"}}", 0,
     "unknown group \"spots\""},
    {"{\"type\":\"ruling\",\"t\":1,\"kind\":\"between\",\"fouls_in_row\":{\"1\":-1,\"2\":0}}", 0,
     "fouls_in_row: \"1\" must be an integer >= 0"},
    {"{\"type\":\"ruling\",\"t\":1,\"kind\":\"lag\",\"lag_winner\":3}", 0, "\"lag_winner\""},
    {"{\"type\":\"ruling\",\"t\":1,\"kind\":\"between\",\"spot\":[{\"id\":1,\"y\":2}]}", 0,
     "spot[0]: missing field \"x\""},
    {"{\"type\":\"input\",\"t\":1}", 0, "input: missing field \"kind\""},
    {"{\"type\":\"input\",\"t\":1,\"kind\":\"dance\"}", 0, "unknown input kind \"dance\""},
    {"{\"type\":\"input\",\"t\":1,\"kind\":\"call\",\"ball\":8}", 0, "missing field \"pocket\""},
    {"{\"type\":\"input\",\"t\":1,\"kind\":\"player\"}", 0, "missing field \"player\""},
    {"{\"type\":\"input\",\"t\":1,\"kind\":\"player\",\"player\":3}", 0,
     "\"player\" must be 1 or 2, got 3"},
    {"{\"type\":\"input\",\"t\":1,\"kind\":\"extension\",\"player\":0}", 0, "\"player\""},
    {"{\"type\":\"input\",\"t\":1,\"kind\":\"lag\",\"balls\":[0]}", 0, "\"balls\" must hold two"},
    {"{\"type\":\"input\",\"t\":1,\"kind\":\"lag\",\"balls\":[0,1,2]}", 0, "\"balls\" has 3"},
    {"{\"type\":\"input\",\"t\":1,\"kind\":\"frozen\",\"ball\":1,\"rail\":\"top\"}", 0,
     "unknown rail \"top\""},
    {"{\"type\":\"input\",\"t\":1,\"kind\":\"choice\",\"choice\":\"\"}", 0,
     "\"choice\" must not be empty"},
    {"{\"type\":\"double_hit\",\"t\":1,\"shot\":0}", 0, "missing field \"confidence\""},
    {"{\"type\":\"push_shot\",\"t\":1,\"confidence\":2}", 0, "\"confidence\""},
    {"{\"type\":\"push_shot\",\"t\":1,\"confidence\":0.5,\"ball\":\"cue\"}", 0, "\"ball\""},
};

static void test_malformed(void)
{
    char err[ERR_LEN];
    cr_event_t ev;
    size_t i;

    for (i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
        const char *line = malformed[i].line;
        int rc = cr_jsonl_parse_line(line, strlen(line), malformed[i].is_first, &ev, err,
                                     sizeof(err));

        if (rc != CR_ERR_PARSE || !strstr(err, malformed[i].needle))
            fprintf(stderr, "\nline %s\n  rc %d, message \"%s\", expected \"%s\"\n", line, rc, err,
                    malformed[i].needle);
        CU_ASSERT_EQUAL(rc, CR_ERR_PARSE);
        CU_ASSERT_PTR_NOT_NULL(strstr(err, malformed[i].needle));
    }
}

static void test_too_many_balls(void)
{
    char line[8192];
    char err[ERR_LEN];
    cr_event_t ev;
    size_t n;
    int i;

    n = (size_t)snprintf(line, sizeof(line), "{\"type\":\"rest\",\"t\":1,\"shot\":0,\"balls\":[");
    for (i = 0; i <= CR_EVENT_MAX_BALLS; i++)
        n += (size_t)snprintf(line + n, sizeof(line) - n, "%s{\"id\":-1,\"x\":1,\"y\":2}",
                              i ? "," : "");
    snprintf(line + n, sizeof(line) - n, "]}");
    CU_ASSERT_EQUAL(parse(line, &ev, err), CR_ERR_PARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"balls\" has 33 entries"));
}

static void test_long_strings(void)
{
    char line[2048];
    char err[ERR_LEN];
    cr_event_t ev;
    char text[CR_TEXT_LEN + 1];

    /* 511 bytes fit, 512 do not: no silent truncation. */
    memset(text, 'a', CR_TEXT_LEN - 1);
    text[CR_TEXT_LEN - 1] = '\0';
    snprintf(line, sizeof(line), "{\"type\":\"session\",\"version\":1,\"source\":\"%s\"}", text);
    CU_ASSERT_EQUAL(parse(line, &ev, err), 0);
    CU_ASSERT_EQUAL(strlen(ev.source), (size_t)CR_TEXT_LEN - 1);
    memset(text, 'a', CR_TEXT_LEN);
    text[CR_TEXT_LEN] = '\0';
    snprintf(line, sizeof(line), "{\"type\":\"session\",\"version\":1,\"source\":\"%s\"}", text);
    CU_ASSERT_EQUAL(parse(line, &ev, err), CR_ERR_PARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "\"source\" is too long"));

    /* An escaped NUL is refused by the JSON parser. */
    CU_ASSERT_EQUAL(parse("{\"type\":\"session\",\"version\":1,\"source\":\"a\\u0000b\"}", &ev, err),
                    CR_ERR_PARSE);
    /* Quoted values in messages are cut short and have no control characters. */
    CU_ASSERT_EQUAL(parse("{\"type\":\"cushion\",\"t\":1,\"shot\":0,\"ball\":1,\"rail\":\"a\\nb"
                          "ccccccccccccccccccccccccccccccccccccccccccccc\",\"x\":1,\"y\":2}",
                          &ev, err),
                    CR_ERR_PARSE);
    CU_ASSERT_PTR_NULL(strchr(err, '\n'));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "unknown rail \"a?bccc"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "...\""));
}

/* ---------------------------------------------------------------------- */
/* Tolerated input                                                         */

static void test_skip_and_ignore(void)
{
    char err[ERR_LEN];
    cr_event_t ev;
    const char *crlf = "{\"type\":\"off_table\",\"t\":1,\"shot\":0,\"ball\":3}\r";

    /* Unknown types are skipped, even malformed ones. */
    CU_ASSERT_EQUAL(parse("{\"type\":\"wobble\",\"t\":1}", &ev, err), 1);
    CU_ASSERT_EQUAL(parse("{\"type\":\"wobble\",\"t\":\"x\",\"shot\":-4}", &ev, err), 1);
    /* Unknown fields are ignored, whatever their value. */
    CU_ASSERT_EQUAL(parse("{\"type\":\"pocket\",\"t\":1,\"shot\":0,\"ball\":1,\"pocket\":"
                          "\"head-left\",\"speed\":{\"a\":[1,2,null]},\"note\":\"x\"}",
                          &ev, err),
                    0);
    CU_ASSERT_EQUAL(ev.pocket, CR_POCKET_HEAD_LEFT);
    /* Blank lines. */
    CU_ASSERT_EQUAL(cr_jsonl_parse_line("", 0, 1, &ev, err, sizeof(err)), 1);
    CU_ASSERT_EQUAL(cr_jsonl_parse_line("  \t ", 4, 1, &ev, err, sizeof(err)), 1);
    CU_ASSERT_EQUAL(cr_jsonl_parse_line("\r", 1, 0, &ev, err, sizeof(err)), 1);
    /* CRLF line ends; whitespace around the object. */
    CU_ASSERT_EQUAL(cr_jsonl_parse_line(crlf, strlen(crlf), 0, &ev, err, sizeof(err)), 0);
    CU_ASSERT_EQUAL(ev.ball, 3);
    CU_ASSERT_EQUAL(parse("  {\"type\":\"off_table\",\"t\":1,\"shot\":0,\"ball\":3}  ", &ev, err), 0);
    /* The session line may come again later, and may carry "t". */
    CU_ASSERT_EQUAL(parse("{\"type\":\"session\",\"t\":5,\"version\":1}", &ev, err), 0);
    CU_ASSERT_DOUBLE_EQUAL(ev.t, 5.0, 0.0);
    /* The length given counts, not a NUL. */
    CU_ASSERT_EQUAL(cr_jsonl_parse_line(SESSION_LINE "garbage", strlen(SESSION_LINE), 1, &ev, err,
                                        sizeof(err)),
                    0);
}

/* ---------------------------------------------------------------------- */
/* Files                                                                   */

static void test_reader_file(void)
{
    char dir[256];
    char path[512];
    char expect[600];
    cr_jsonl_reader_t *r = NULL;
    cr_event_t ev;
    int types[8];
    int n = 0;
    int rc;

    make_tmpdir(dir, sizeof(dir));
    CU_ASSERT_FATAL(dir[0] != '\0');
    snprintf(path, sizeof(path), "%s/events.jsonl", dir);

    /* Blank lines, CRLF, an unknown type, no final newline. */
    CU_ASSERT_EQUAL_FATAL(
        write_file(path, "\n" SESSION_LINE "\r\n"
                         "\r\n"
                         "{\"type\":\"wobble\",\"t\":1}\n"
                         "{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[]}\r\n"
                         "   \n"
                         "{\"type\":\"rest\",\"t\":2,\"shot\":0,\"balls\":[]}"),
        0);
    CU_ASSERT_EQUAL_FATAL(cr_jsonl_reader_open(path, &r), 0);
    while ((rc = cr_jsonl_reader_next(r, &ev)) == 1 && n < 8)
        types[n++] = (int)ev.type;
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_STRING_EQUAL(cr_jsonl_reader_error(r), "");
    CU_ASSERT_EQUAL_FATAL(n, 3);
    CU_ASSERT_EQUAL(types[0], CR_EV_SESSION);
    CU_ASSERT_EQUAL(types[1], CR_EV_STROKE);
    CU_ASSERT_EQUAL(types[2], CR_EV_REST);
    CU_ASSERT_EQUAL(cr_jsonl_reader_line(r), 7);
    cr_jsonl_reader_destroy(r);
    r = NULL;

    /* An error on line 5 is reported as FILE:5: with the field. */
    CU_ASSERT_EQUAL_FATAL(write_file(path, SESSION_LINE "\n"
                                           "{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[]}\n"
                                           "\n"
                                           "{\"type\":\"collision\",\"t\":1.1,\"shot\":0,\"a\":0,"
                                           "\"b\":1,\"x\":5,\"y\":6}\n"
                                           "{\"type\":\"cushion\",\"t\":1.2,\"shot\":0,\"ball\":1,"
                                           "\"rail\":\"top\",\"x\":5,\"y\":6}\n"
                                           "{\"type\":\"rest\",\"t\":2,\"shot\":0,\"balls\":[]}\n"),
                          0);
    CU_ASSERT_EQUAL_FATAL(cr_jsonl_reader_open(path, &r), 0);
    n = 0;
    while ((rc = cr_jsonl_reader_next(r, &ev)) == 1)
        n++;
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_EQUAL(rc, CR_ERR_PARSE);
    CU_ASSERT_EQUAL(cr_jsonl_reader_line(r), 5);
    snprintf(expect, sizeof(expect), "%s:5: cushion: unknown rail \"top\"", path);
    CU_ASSERT_STRING_EQUAL(cr_jsonl_reader_error(r), expect);
    cr_jsonl_reader_destroy(r);
    r = NULL;

    /* The first line must be the session line. */
    CU_ASSERT_EQUAL_FATAL(write_file(path, "\n{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[]}\n"),
                          0);
    CU_ASSERT_EQUAL_FATAL(cr_jsonl_reader_open(path, &r), 0);
    CU_ASSERT_EQUAL(cr_jsonl_reader_next(r, &ev), CR_ERR_PARSE);
    snprintf(expect, sizeof(expect), "%s:2: first line must be the session line", path);
    CU_ASSERT_NSTRING_EQUAL(cr_jsonl_reader_error(r), expect, strlen(expect));
    cr_jsonl_reader_destroy(r);
    r = NULL;

    /* An empty stream has no session line. */
    CU_ASSERT_EQUAL_FATAL(write_file(path, ""), 0);
    CU_ASSERT_EQUAL_FATAL(cr_jsonl_reader_open(path, &r), 0);
    CU_ASSERT_EQUAL(cr_jsonl_reader_next(r, &ev), CR_ERR_PARSE);
    CU_ASSERT_PTR_NOT_NULL(strstr(cr_jsonl_reader_error(r), "no session line"));
    cr_jsonl_reader_destroy(r);
    r = NULL;

    /* Missing files and directories are I/O errors; *out stays untouched. */
    snprintf(path, sizeof(path), "%s/missing.jsonl", dir);
    CU_ASSERT_EQUAL(cr_jsonl_reader_open(path, &r), CR_ERR_IO);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT_EQUAL(cr_jsonl_reader_open(dir, &r), CR_ERR_IO);
    CU_ASSERT_PTR_NULL(r);
    cr_jsonl_reader_destroy(NULL);

    remove_tmpdir(dir);
}

static void sample_events(cr_event_t ev[3])
{
    cr_event_init(&ev[0], CR_EV_SESSION);
    snprintf(ev[0].source, sizeof(ev[0].source), "test");
    cr_event_init(&ev[1], CR_EV_STROKE);
    ev[1].t = 1.5;
    ev[1].shot = 0;
    set_balls(&ev[1], 2);
    cr_event_init(&ev[2], CR_EV_POCKET);
    ev[2].t = 2.5;
    ev[2].shot = 0;
    ev[2].ball = 1;
    ev[2].pocket = CR_POCKET_FOOT_RIGHT;
}

static void test_writer_commit(void)
{
    char dir[256];
    char path[512];
    char text[4096];
    cr_jsonl_writer_t *w = NULL;
    cr_jsonl_reader_t *r = NULL;
    cr_event_t ev[3];
    cr_event_t back;
    int i;

    sample_events(ev);
    make_tmpdir(dir, sizeof(dir));
    CU_ASSERT_FATAL(dir[0] != '\0');
    snprintf(path, sizeof(path), "%s/out.jsonl", dir);

    CU_ASSERT_EQUAL_FATAL(cr_jsonl_writer_open(path, &w), 0);
    for (i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(cr_jsonl_writer_write(w, &ev[i]), 0);
    /* Nothing at PATH until the commit; only the temporary exists. */
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    CU_ASSERT_EQUAL(count_entries(dir), 1);
    /* A bad event is refused without spoiling the stream. */
    back = ev[2];
    back.ball = 99;
    CU_ASSERT_EQUAL(cr_jsonl_writer_write(w, &back), CR_ERR_INVALID);
    CU_ASSERT_PTR_NOT_NULL(strstr(cr_jsonl_writer_error(w), "\"ball\""));
    CU_ASSERT_EQUAL(cr_jsonl_writer_commit(w), 0);
    CU_ASSERT_EQUAL(count_entries(dir), 1); /* the file, and no temporary */
    CU_ASSERT_TRUE(read_file(path, text, sizeof(text)) > 0);
    CU_ASSERT_STRING_EQUAL(text,
                           "{\"type\":\"session\",\"version\":1,\"source\":\"test\",\"game\":\"none\"}\n"
                           "{\"type\":\"stroke\",\"t\":1.5,\"shot\":0,\"balls\":[{\"id\":0,"
                           "\"x\":100.25,\"y\":1200.5},{\"id\":1,\"x\":150.25,\"y\":1170.5}],"
                           "\"moving\":[]}\n"
                           "{\"type\":\"pocket\",\"t\":2.5,\"shot\":0,\"ball\":1,"
                           "\"pocket\":\"foot-right\"}\n");

    /* What was written reads back. */
    CU_ASSERT_EQUAL_FATAL(cr_jsonl_reader_open(path, &r), 0);
    for (i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL_FATAL(cr_jsonl_reader_next(r, &back), 1);
        check_same_event(&ev[i], &back);
    }
    CU_ASSERT_EQUAL(cr_jsonl_reader_next(r, &back), 0);
    cr_jsonl_reader_destroy(r);

    remove_tmpdir(dir);
}

static void test_writer_abort(void)
{
    char dir[256];
    char path[512];
    char text[4096];
    cr_jsonl_writer_t *w = NULL;
    cr_event_t ev[3];
    int i;

    sample_events(ev);
    make_tmpdir(dir, sizeof(dir));
    CU_ASSERT_FATAL(dir[0] != '\0');
    snprintf(path, sizeof(path), "%s/out.jsonl", dir);

    /* Abort leaves no file and no temporary. */
    CU_ASSERT_EQUAL_FATAL(cr_jsonl_writer_open(path, &w), 0);
    for (i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(cr_jsonl_writer_write(w, &ev[i]), 0);
    cr_jsonl_writer_abort(w);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    CU_ASSERT_EQUAL(count_entries(dir), 0);
    cr_jsonl_writer_abort(NULL);

    /* An existing file is untouched by an aborted rewrite... */
    CU_ASSERT_EQUAL_FATAL(write_file(path, "old contents\n"), 0);
    CU_ASSERT_EQUAL_FATAL(cr_jsonl_writer_open(path, &w), 0);
    for (i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(cr_jsonl_writer_write(w, &ev[i]), 0);
    cr_jsonl_writer_abort(w);
    CU_ASSERT_TRUE(read_file(path, text, sizeof(text)) > 0);
    CU_ASSERT_STRING_EQUAL(text, "old contents\n");
    CU_ASSERT_EQUAL(count_entries(dir), 1);

    /* ...and replaced whole by a committed one. */
    CU_ASSERT_EQUAL_FATAL(cr_jsonl_writer_open(path, &w), 0);
    CU_ASSERT_EQUAL(cr_jsonl_writer_write(w, &ev[0]), 0);
    CU_ASSERT_EQUAL(cr_jsonl_writer_commit(w), 0);
    CU_ASSERT_TRUE(read_file(path, text, sizeof(text)) > 0);
    CU_ASSERT_STRING_EQUAL(text,
                           "{\"type\":\"session\",\"version\":1,\"source\":\"test\",\"game\":\"none\"}\n");
    CU_ASSERT_EQUAL(count_entries(dir), 1);

    remove_tmpdir(dir);
}

static void test_writer_bad_path(void)
{
    char dir[256];
    char path[512];
    cr_jsonl_writer_t *w = NULL;

    make_tmpdir(dir, sizeof(dir));
    CU_ASSERT_FATAL(dir[0] != '\0');
    snprintf(path, sizeof(path), "%s/no/such/dir/out.jsonl", dir);
    errno = 0;
    CU_ASSERT_EQUAL(cr_jsonl_writer_open(path, &w), CR_ERR_IO);
    CU_ASSERT_EQUAL(errno, ENOENT);
    CU_ASSERT_PTR_NULL(w);
    /* A directory cannot be replaced by the stream. */
    CU_ASSERT_EQUAL(cr_jsonl_writer_open(dir, &w), CR_ERR_IO);
    CU_ASSERT_PTR_NULL(w);
    CU_ASSERT_EQUAL(count_entries(dir), 0);
    remove_tmpdir(dir);
}

/* ---------------------------------------------------------------------- */

int cr_test_register_jsonl(void)
{
    CU_pSuite s = CU_add_suite("jsonl", NULL, NULL);

    if (!s)
        return -1;
    if (!CU_add_test(s, "parse session", test_parse_session) ||
        !CU_add_test(s, "parse stroke", test_parse_stroke) ||
        !CU_add_test(s, "parse collision, cushion, pocket, off_table", test_parse_contacts) ||
        !CU_add_test(s, "parse disturbed, placed, rest, balls", test_parse_between_shots) ||
        !CU_add_test(s, "parse foul and ruling", test_parse_foul_ruling) ||
        !CU_add_test(s, "parse input (every kind)", test_parse_input) ||
        !CU_add_test(s, "parse double_hit, push_shot", test_parse_vision_extensions) ||
        !CU_add_test(s, "names", test_names) ||
        !CU_add_test(s, "cr_event_init defaults", test_init_defaults) ||
        !CU_add_test(s, "round trip of every type", test_round_trip_every_type) ||
        !CU_add_test(s, "exact output", test_format_exact) ||
        !CU_add_test(s, "format limits and invalid events", test_format_limits) ||
        !CU_add_test(s, "malformed lines", test_malformed) ||
        !CU_add_test(s, "too many balls", test_too_many_balls) ||
        !CU_add_test(s, "long strings", test_long_strings) ||
        !CU_add_test(s, "unknown types, unknown fields, blanks, CRLF", test_skip_and_ignore) ||
        !CU_add_test(s, "reader: files and line numbers", test_reader_file) ||
        !CU_add_test(s, "writer: commit", test_writer_commit) ||
        !CU_add_test(s, "writer: abort", test_writer_abort) ||
        !CU_add_test(s, "writer: bad path", test_writer_bad_path))
        return -1;
    return 0;
}
