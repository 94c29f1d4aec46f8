/*
 * test_rules.c - table-driven scenarios for the rules engine. Each scenario is
 * an event stream (JSON lines, as a camera or an operator would produce
 * them) and what a referee would rule on its last shot. Every foul and game
 * rule has a legal counterpart, so a judge that calls every shot a foul, or
 * none, fails.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "cr_jsonl.h"
#include "cr_rules.h"
#include "test_suites.h"

/* ---- compact JSON builders (string literals only) */
#define B(id, x, y) "{\"id\":" #id ",\"x\":" #x ",\"y\":" #y "},"
#define BF(id, x, y, rail) "{\"id\":" #id ",\"x\":" #x ",\"y\":" #y ",\"frozen\":[\"" rail "\"]},"
#define STROKE(t, shot, balls) "{\"type\":\"stroke\",\"t\":" #t ",\"shot\":" #shot ",\"balls\":[" balls "]}"
#define STROKE_MOVING(t, shot, balls, mv)                                                                      \
    "{\"type\":\"stroke\",\"t\":" #t ",\"shot\":" #shot ",\"balls\":[" balls "],\"moving\":[" mv "]}"
#define COL(t, shot, a, b) "{\"type\":\"collision\",\"t\":" #t ",\"shot\":" #shot ",\"a\":" #a ",\"b\":" #b ",\"x\":1000,\"y\":600}"
#define COLC(t, shot, a, b, c)                                                                                 \
    "{\"type\":\"collision\",\"t\":" #t ",\"shot\":" #shot ",\"a\":" #a ",\"b\":" #b                       \
    ",\"x\":1000,\"y\":600,\"confidence\":" #c "}"
/* a collision at its contact point */
#define COLP(t, shot, a, b, x, y)                                                                              \
    "{\"type\":\"collision\",\"t\":" #t ",\"shot\":" #shot ",\"a\":" #a ",\"b\":" #b ",\"x\":" #x ",\"y\":" #y "}"
#define CUSH(t, shot, ball, rail, x, y)                                                                        \
    "{\"type\":\"cushion\",\"t\":" #t ",\"shot\":" #shot ",\"ball\":" #ball ",\"rail\":\"" rail "\",\"x\":" #x \
    ",\"y\":" #y "}"
#define POCKET(t, shot, ball, p)                                                                               \
    "{\"type\":\"pocket\",\"t\":" #t ",\"shot\":" #shot ",\"ball\":" #ball ",\"pocket\":\"" p "\"}"
#define OFF(t, shot, ball) "{\"type\":\"off_table\",\"t\":" #t ",\"shot\":" #shot ",\"ball\":" #ball "}"
#define REST(t, shot, balls) "{\"type\":\"rest\",\"t\":" #t ",\"shot\":" #shot ",\"balls\":[" balls "]}"
#define BALLS(t, balls) "{\"type\":\"balls\",\"t\":" #t ",\"balls\":[" balls "]}"
#define DIST(t, shot, ball) "{\"type\":\"disturbed\",\"t\":" #t ",\"shot\":" #shot ",\"ball\":" #ball ",\"x\":1000,\"y\":500}"
#define INPUT(t, body) "{\"type\":\"input\",\"t\":" #t "," body "}"
#define CALL(t, ball, p) INPUT(t, "\"kind\":\"call\",\"ball\":" #ball ",\"pocket\":\"" p "\"")

/* A 9-ball rack and a legal break by player 1 that pockets the 2. */
#define RACK9                                                                                                  \
    B(0, 400, 600) B(1, 1905, 635) B(2, 1955, 606) B(3, 1955, 664) B(4, 2004, 578) B(5, 2004, 692)       \
        B(6, 2054, 606) B(7, 2054, 664) B(8, 2103, 635) B(9, 2004, 635)
#define BREAK9(first)                                                                                          \
    STROKE(1, 0, RACK9), COL(1.3, 0, 0, first), CUSH(1.6, 0, 4, "foot", 2511, 500),                            \
        CUSH(1.7, 0, 5, "right", 2200, 1241), CUSH(1.8, 0, 6, "left", 2100, 29),                                \
        CUSH(1.9, 0, 7, "foot", 2511, 900), POCKET(2.0, 0, 2, "foot-left"), REST(5, 0, B(0, 1300, 600))
/* After BREAK9: player 1 at the table, balls 1,3..9 on it. */
#define TABLE9 B(0, 1000, 600) B(1, 1500, 300) B(3, 1700, 900) B(4, 2000, 200) B(5, 1200, 1000) B(9, 2200, 635)

#define RACK10                                                                                                 \
    B(0, 400, 600) B(1, 1905, 635) B(2, 1955, 606) B(3, 1955, 664) B(4, 2004, 578) B(5, 2004, 692)       \
        B(6, 2004, 635) B(7, 2054, 550) B(8, 2054, 610) B(9, 2054, 670) B(10, 2054, 720)
#define BREAK10                                                                                                \
    STROKE(1, 0, RACK10), COL(1.3, 0, 0, 1), CUSH(1.6, 0, 4, "foot", 2511, 500),                               \
        CUSH(1.7, 0, 5, "right", 2200, 1241), CUSH(1.8, 0, 6, "left", 2100, 29),                                \
        CUSH(1.9, 0, 7, "foot", 2511, 900), POCKET(2.0, 0, 2, "foot-left"), REST(5, 0, B(0, 1300, 600))
#define TABLE10 B(0, 1000, 600) B(1, 1500, 300) B(3, 1700, 900) B(10, 2200, 635)

#define RACK15                                                                                                 \
    B(0, 400, 600) B(1, 1905, 635) B(2, 1955, 606) B(3, 1955, 664) B(4, 2004, 578) B(5, 2004, 692)       \
        B(6, 2004, 635) B(7, 2054, 550) B(8, 2054, 610) B(9, 2054, 670) B(10, 2054, 720) B(11, 2103, 520) \
        B(12, 2103, 580) B(13, 2103, 640) B(14, 2103, 700) B(15, 2103, 760)
/* An 8-ball break by player 1 that pockets the 1: open table, player 1 continues. */
#define BREAK8                                                                                                 \
    STROKE(1, 0, RACK15), COL(1.3, 0, 0, 1), CUSH(1.6, 0, 4, "foot", 2511, 500),                               \
        CUSH(1.7, 0, 5, "right", 2200, 1241), POCKET(2.0, 0, 1, "foot-left"), REST(5, 0, B(0, 1300, 600))
#define TABLE8 B(0, 1000, 600) B(2, 1500, 300) B(8, 1700, 900) B(12, 2000, 200) B(13, 1200, 1000)

/* A 14.1 opening break by player 1: safe break, cue ball and two object
 * balls to a rail, called ball (the 1) not made: player 2 to shoot. */
#define BREAK141                                                                                               \
    STROKE(1, 0, RACK15), COL(1.3, 0, 0, 11), CUSH(1.5, 0, 11, "foot", 2511, 520),                             \
        CUSH(1.6, 0, 15, "right", 2200, 1241), CUSH(2.0, 0, 0, "head", 29, 600), REST(5, 0, B(0, 200, 600))
#define TABLE141 B(0, 1000, 600) B(1, 1500, 300) B(3, 1700, 900) B(5, 2000, 200) B(7, 1200, 1000)

#define MAX_LINES 48

typedef struct {
    const char *name;  /* names the rule */
    const char *game;  /* --game */
    const char *opts;  /* "key=value key=value" rule switches, or NULL */
    const char *lines[MAX_LINES];
    const char *fouls; /* expected codes on the last ruling, space separated; "" = legal */
    int next;          /* expected next_player, 0 = not checked */
    const char *bih;   /* "anywhere", "behind_head_string", "none", NULL = not checked */
    int over;          /* -1 not checked; else game_over */
    int winner;        /* -1 not checked */
    const char *detail; /* substring of the ruling's detail, or NULL */
    const char *early;  /* a foul code that must be emitted by the line `early_at` (0-based), or NULL */
    int early_at;
} scenario_t;

#define NOCHECK -1, -1

static const scenario_t scenarios[] = {
    /* ---------------- 6.1 cue ball scratch or off the table */
    {"6.1 scratch: cue ball pocketed after contact", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3), CUSH(1.8, 0, 3, "foot", 2511, 600),
      POCKET(2.0, 0, 0, "side-left"), REST(4, 0, B(3, 2400, 600))},
     "cue_ball_scratch", 2, "anywhere", NOCHECK, "side-left", "cue_ball_scratch", 3},
    {"6.1 legal counterpart: object ball pocketed, cue ball stays", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3), POCKET(2.0, 0, 3, "foot-left"),
      REST(4, 0, B(0, 1400, 600))},
     "", 1, "none", NOCHECK, "continues", NULL, 0},
    {"6.1 cue ball driven off the table", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3), CUSH(1.8, 0, 3, "foot", 2511, 600),
      OFF(2.0, 0, 0), REST(4, 0, B(3, 2400, 600))},
     "cue_ball_off_table", 2, "anywhere", NOCHECK, NULL, "cue_ball_off_table", 3},

    /* ---------------- 6.2 wrong ball first, no contact */
    {"6.2 wrong ball first (9-ball lowest ball)", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 3), CUSH(6.9, 1, 3, "right", 1800, 1241),
      REST(9, 1, TABLE9)},
     "wrong_ball_first", 2, "anywhere", NOCHECK, "lowest ball on the table was the 1", "wrong_ball_first", 9},
    {"6.2 the lowest ball on the table but not identified at the stroke (every ball of the table accounted for)",
     "9ball", NULL,
     {BREAK9(1),
      STROKE(6, 1,
             B(0, 1000, 600) B(-1, 1500, 300) B(3, 1700, 900) B(4, 2000, 200) B(5, 1200, 1000) B(6, 2100, 400)
                 B(7, 2300, 800) B(8, 1800, 500) B(9, 2200, 635)),
      COL(6.5, 1, 0, 3), CUSH(6.9, 1, 3, "right", 1800, 1241), REST(9, 1, TABLE9)},
     "wrong_ball_first", 2, "anywhere", NOCHECK, "lowest ball on the table was the 1", "wrong_ball_first", 9},
    {"6.2 balls missing beyond the unidentified ones: the stroke's list is believed", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, B(0, 1000, 600) B(-1, 1500, 300) B(3, 1700, 900) B(9, 2200, 635)), COL(6.5, 1, 0, 3),
      CUSH(6.9, 1, 3, "right", 1800, 1241), REST(9, 1, TABLE9)},
     "", 2, "none", 0, -1, NULL, NULL, 0},
    {"6.2 legal counterpart: lowest ball first, then a rail", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 1), CUSH(6.9, 1, 1, "left", 1600, 29), REST(9, 1, TABLE9)},
     "", 2, "none", 0, -1, NULL, NULL, 0},
    {"6.2/6.3 no contact", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), CUSH(6.9, 1, 0, "right", 1800, 1241), REST(9, 1, TABLE9)},
     "no_contact", 2, "anywhere", NOCHECK, "did not contact", NULL, 0},
    {"6.2 benefit of the doubt: unresolved contacts 5 ms apart go to the shooter", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COLC(6.5, 1, 0, 3, 0.4), COLC(6.505, 1, 0, 1, 0.4),
      CUSH(6.9, 1, 1, "left", 1600, 29), REST(9, 1, TABLE9)},
     "", 2, NULL, NOCHECK, "benefit of the doubt", NULL, 0},
    {"6.2 doubt switched to the opponent: the same contacts are a foul", "9ball", "doubt=opponent",
     {BREAK9(1), STROKE(6, 1, TABLE9), COLC(6.5, 1, 0, 3, 0.4), COLC(6.505, 1, 0, 1, 0.4),
      CUSH(6.9, 1, 1, "left", 1600, 29), REST(9, 1, TABLE9)},
     "wrong_ball_first", 2, "anywhere", NOCHECK, NULL, NULL, 0},

    {"6.2 an unidentified first ball is not judged (no wrong-ball or no-contact call)", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, -1), CUSH(6.9, 1, -1, "right", 1800, 1241),
      REST(9, 1, TABLE9)},
     "", 2, "none", NOCHECK, "could not identify", NULL, 0},
    {"6.2 a ball hit first but missing from the stroke's list (unnamed then) was on the table", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, B(0, 1000, 600) B(3, 1700, 900) B(4, 2000, 200) B(9, 2200, 635)), COL(6.5, 1, 0, 1),
      CUSH(6.9, 1, 1, "left", 1600, 29), REST(9, 1, TABLE9)},
     "", 2, "none", 0, -1, NULL, NULL, 0},
    {"6.3 after an unidentified first ball, no rail is still a foul", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, -1), REST(9, 1, TABLE9)},
     "no_rail", 2, "anywhere", NOCHECK, "contacted a ball, no ball", NULL, 0},

    /* ---------------- 6.3 no rail after contact, 8.4 driven to a rail */
    {"6.3 no rail after contact", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3), REST(4, 0, B(0, 1400, 600) B(3, 1600, 600))},
     "no_rail", 2, "anywhere", NOCHECK, "no ball was driven to a rail", NULL, 0},
    {"6.3 legal counterpart: object ball to a rail after contact", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3), CUSH(2.0, 0, 3, "foot", 2511, 600),
      REST(4, 0, B(0, 1400, 600) B(3, 2300, 600))},
     "", 2, "none", NOCHECK, NULL, NULL, 0},
    {"6.3 a cushion before the contact does not count", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), CUSH(1.2, 0, 0, "right", 900, 1241), COL(1.5, 0, 0, 3),
      REST(4, 0, B(0, 1400, 600) B(3, 1600, 600))},
     "no_rail", 0, NULL, NOCHECK, NULL, NULL, 0},
    {"6.3 benefit of the doubt: a rail 4 ms before the contact, too close to order", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 2480, 600)), CUSH(1.496, 0, 0, "foot", 2511, 640), COL(1.5, 0, 0, 3),
      REST(4, 0, B(0, 2300, 700) B(3, 2440, 600))},
     "", 2, NULL, NOCHECK, "benefit of the doubt", NULL, 0},
    {"6.3 the doubt is measured from the first contact, an unidentified ball's", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 2480, 600)), CUSH(1.485, 0, 0, "foot", 2511, 640), COL(1.5, 0, 0, -1),
      COL(1.52, 0, 0, 3), REST(4, 0, B(0, 2300, 700) B(3, 2440, 600))},
     "", 2, NULL, NOCHECK, "Legal shot", NULL, 0},
    {"6.3 doubt switched to the opponent: the same rail and contact are a foul", "none", "doubt=opponent",
     {STROKE(1, 0, B(0, 500, 600) B(3, 2480, 600)), CUSH(1.496, 0, 0, "foot", 2511, 640), COL(1.5, 0, 0, 3),
      REST(4, 0, B(0, 2300, 700) B(3, 2440, 600))},
     "no_rail", 2, "anywhere", NOCHECK, NULL, NULL, 0},
    {"6.3 a contact that comes in after a cushion it preceded (timed from the paths later)", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 2480, 600)), CUSH(1.512, 0, 0, "foot", 2511, 640), COL(1.507, 0, 0, 3),
      REST(4, 0, B(0, 2300, 700) B(3, 2484, 560))},
     "", 2, "none", NOCHECK, NULL, NULL, 0},
    {"8.4 a ball frozen to a rail is not driven to it by staying there", "none", NULL,
     {STROKE(1, 0, B(0, 500, 300) BF(3, 1500, 29, "left")), COL(1.5, 0, 0, 3), CUSH(1.7, 0, 3, "left", 1700, 29),
      REST(4, 0, B(0, 1400, 300) B(3, 1800, 29))},
     "no_rail", 2, NULL, NOCHECK, NULL, NULL, 0},
    {"8.4 legal counterpart: the frozen ball leaves the rail and comes back", "none", NULL,
     {STROKE(1, 0, B(0, 500, 300) BF(3, 1500, 29, "left")), COL(1.5, 0, 0, 3), BALLS(1.6, B(3, 1600, 140)),
      CUSH(1.9, 0, 3, "left", 1900, 29), REST(4, 0, B(0, 1400, 300) B(3, 2000, 40))},
     "", 2, NULL, NOCHECK, NULL, NULL, 0},
    {"8.4 frozen declared by the referee (input frozen)", "none", NULL,
     {INPUT(0.5, "\"kind\":\"frozen\",\"ball\":3,\"rail\":\"left\""), STROKE(1, 0, B(0, 500, 300) B(3, 1500, 29)),
      COL(1.5, 0, 0, 3), CUSH(1.7, 0, 3, "left", 1700, 29), REST(4, 0, B(0, 1400, 300) B(3, 1800, 29))},
     "no_rail", 0, NULL, NOCHECK, NULL, NULL, 0},
    {"8.4 pocketed balls count as driven to a rail (cue ball pocketed after contact)", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3), POCKET(2.0, 0, 0, "side-left"),
      REST(4, 0, B(3, 1600, 600))},
     "cue_ball_scratch", 0, NULL, NOCHECK, NULL, NULL, 0},

    /* ---------------- 6.5 object ball off the table */
    {"6.5 object ball driven off the table (9-ball: the 9 is spotted)", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 1), COL(6.7, 1, 1, 9), OFF(7.0, 1, 9), REST(9, 1, TABLE9)},
     "object_ball_off_table", 2, "anywhere", NOCHECK, "The 9 is spotted", "object_ball_off_table", 11},

    /* ---------------- 6.6 touched ball */
    {"6.6 touched ball during the shot", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600) B(5, 300, 300)), COL(1.5, 0, 0, 3),
      CUSH(2.0, 0, 3, "foot", 2511, 600), DIST(2.5, 0, 5), REST(4, 0, B(0, 1400, 600))},
     "touched_ball", 2, "anywhere", NOCHECK, NULL, "touched_ball", 3},
    {"6.6 legal counterpart: a ball settling by itself (1.7) is no foul", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600) B(5, 300, 300)), COL(1.5, 0, 0, 3),
      CUSH(2.0, 0, 3, "foot", 2511, 600),
      "{\"type\":\"disturbed\",\"t\":2.5,\"shot\":0,\"ball\":5,\"x\":300,\"y\":301,\"cause\":\"settle\"}",
      REST(4, 0, B(0, 1400, 600))},
     "", 2, NULL, NOCHECK, NULL, NULL, 0},
    {"6.6 touched ball between shots ends the turn", "9ball", NULL,
     {BREAK9(1), "{\"type\":\"disturbed\",\"t\":5.5,\"shot\":null,\"ball\":4,\"x\":2000,\"y\":210}"},
     "touched_ball", 2, "anywhere", NOCHECK, "between shots", "touched_ball", 8},
    {"6.6 cue-ball-only switch: an object ball touched is no foul", "none", "touch=cue",
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600) B(5, 300, 300)), COL(1.5, 0, 0, 3),
      CUSH(2.0, 0, 3, "foot", 2511, 600), DIST(2.5, 0, 5), REST(4, 0, B(0, 1400, 600))},
     "", 0, NULL, NOCHECK, NULL, NULL, 0},

    /* ---------------- 6.7 double hit, 6.8 push shot (flagged by vision) */
    {"6.7 double hit flagged with confidence 0.8", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 560, 600)),
      "{\"type\":\"double_hit\",\"t\":1.02,\"shot\":0,\"ball\":3,\"confidence\":0.8}", COL(1.01, 0, 0, 3),
      CUSH(2.0, 0, 3, "foot", 2511, 600), REST(4, 0, B(0, 1400, 600))},
     "double_hit", 2, "anywhere", NOCHECK, "confidence 0.80", "double_hit", 1},
    {"6.7 legal counterpart: a weak suspicion (0.3) is not a foul", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 560, 600)),
      "{\"type\":\"double_hit\",\"t\":1.02,\"shot\":0,\"ball\":3,\"confidence\":0.3}", COL(1.01, 0, 0, 3),
      CUSH(2.0, 0, 3, "foot", 2511, 600), REST(4, 0, B(0, 1400, 600))},
     "", 2, NULL, NOCHECK, NULL, NULL, 0},
    {"6.8 push shot flagged", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)),
      "{\"type\":\"push_shot\",\"t\":1.05,\"shot\":0,\"confidence\":0.9}", COL(1.5, 0, 0, 3),
      CUSH(2.0, 0, 3, "foot", 2511, 600), REST(4, 0, B(0, 1400, 600))},
     "push_shot", 2, NULL, NOCHECK, NULL, NULL, 0},

    /* ---------------- 6.9 balls still moving */
    {"6.9 the stroke while a ball still moves", "none", NULL,
     {STROKE_MOVING(1, 0, B(0, 500, 600) B(3, 1500, 600) B(5, 300, 300), "5"), COL(1.5, 0, 0, 3),
      CUSH(2.0, 0, 3, "foot", 2511, 600), REST(4, 0, B(0, 1400, 600))},
     "balls_moving", 2, NULL, NOCHECK, "the 5 was still moving", "balls_moving", 0},
    {"6.9 a stroke before the previous shot's rest closes that shot", "none", NULL,
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3), CUSH(2.0, 0, 3, "foot", 2511, 600),
      STROKE_MOVING(3, 1, B(0, 1400, 600) B(3, 2000, 600), "3"), COL(3.5, 1, 0, 3),
      CUSH(3.9, 1, 3, "foot", 2511, 600), REST(6, 1, B(0, 1900, 600))},
     "balls_moving", 1, NULL, NOCHECK, NULL, "balls_moving", 3},

    /* ---------------- 6.10, 6.11 ball in hand behind the head string */
    {"6.10 break played from in front of the head string", "9ball", NULL,
     {STROKE(1, 0, B(0, 700, 600) B(1, 1905, 635) B(2, 1955, 606) B(3, 1955, 664) B(4, 2004, 578)
             B(5, 2004, 692) B(9, 2004, 635)),
      COL(1.3, 0, 0, 1), CUSH(1.6, 0, 4, "foot", 2511, 500), POCKET(2.0, 0, 2, "foot-left"),
      REST(5, 0, B(0, 1300, 600))},
     "bad_cue_ball_placement", 2, "anywhere", NOCHECK, "x = 700.0 mm", "bad_cue_ball_placement", 0},
    {"6.10 a cue ball on the head string is not behind it", "9ball", NULL,
     {STROKE(1, 0, B(0, 635, 600) B(1, 1905, 635) B(2, 1955, 606) B(3, 1955, 664) B(4, 2004, 578)
             B(5, 2004, 692) B(9, 2004, 635)),
      COL(1.3, 0, 0, 1), POCKET(2.0, 0, 2, "foot-left"), REST(5, 0, B(0, 1300, 600))},
     "bad_cue_ball_placement", 0, NULL, NOCHECK, NULL, NULL, 0},
    {"6.10 legal counterpart: break from behind the head string", "9ball", NULL, {BREAK9(1)},
     "", 1, "none", 0, -1, "Legal break", NULL, 0},
    {"6.11 a cue ball that touches a ball well past the head string crossed it (even if it rolls back)", "9ball",
     NULL,
     {STROKE(1, 0, RACK9), COLP(1.3, 0, 0, -1, 1876, 640), CUSH(1.6, 0, 4, "foot", 2511, 500),
      CUSH(1.7, 0, 5, "right", 2200, 1241), CUSH(1.8, 0, 6, "left", 2100, 29), CUSH(1.9, 0, 7, "foot", 2511, 900),
      POCKET(2.0, 0, 2, "foot-left"), REST(5, 0, B(0, 400, 500))},
     "", 1, "none", NOCHECK, NULL, NULL, 0},
    {"6.11 first ball behind the head string without crossing (14.1 after a scratch)", "14.1", NULL,
     {BREAK141, STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 3), POCKET(7, 1, 0, "foot-right"), REST(9, 1, TABLE141),
      STROKE(11, 2, B(0, 400, 600) B(1, 300, 300) B(3, 1700, 900)), COLP(11.5, 2, 0, 1, 312, 318),
      CUSH(11.8, 2, 1, "left", 250, 29), REST(14, 2, B(0, 350, 500))},
     "bad_play_from_behind_head_string", 2, NULL, NOCHECK, "without first crossing", "bad_play_from_behind_head_string",
     11},
    {"6.11 legal counterpart: the cue ball crosses, comes back and hits the ball", "14.1", NULL,
     {BREAK141, STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 3), POCKET(7, 1, 0, "foot-right"), REST(9, 1, TABLE141),
      STROKE(11, 2, B(0, 400, 600) B(1, 300, 300) B(3, 1700, 900)), CUSH(11.4, 2, 0, "foot", 2511, 600),
      COL(11.9, 2, 0, 1), CUSH(12.1, 2, 1, "left", 250, 29), REST(14, 2, B(0, 350, 500))},
     "", 2, NULL, NOCHECK, NULL, NULL, 0},
    {"6.11 legal counterpart: a ball on the head string is playable", "14.1", NULL,
     {BREAK141, STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 3), POCKET(7, 1, 0, "foot-right"), REST(9, 1, TABLE141),
      STROKE(11, 2, B(0, 400, 600) B(1, 635, 300) B(3, 1700, 900)), COL(11.5, 2, 0, 1),
      CUSH(11.8, 2, 1, "left", 800, 29), REST(14, 2, B(0, 500, 500))},
     "", 2, NULL, NOCHECK, NULL, NULL, 0},
    {"6.11 ¶2 the cue ball neither crosses nor hits a ball", "14.1", NULL,
     {BREAK141, STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 3), POCKET(7, 1, 0, "foot-right"), REST(9, 1, TABLE141),
      STROKE(11, 2, B(0, 400, 600) B(1, 1500, 300) B(3, 1700, 900)), CUSH(11.4, 2, 0, "left", 300, 29),
      REST(14, 2, B(0, 350, 500))},
     "no_contact bad_play_from_behind_head_string", 2, "behind_head_string", NOCHECK, "neither crossed", NULL, 0},
    {"6.11 seed/BCA kitchen rule: a cushion before crossing is a foul", "14.1", "kitchen=seed",
     {BREAK141, STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 3), POCKET(7, 1, 0, "foot-right"), REST(9, 1, TABLE141),
      STROKE(11, 2, B(0, 400, 600) B(1, 1500, 300) B(3, 1700, 900)), CUSH(11.2, 2, 0, "left", 450, 29),
      COL(11.6, 2, 0, 1), CUSH(11.9, 2, 1, "left", 1700, 29), REST(14, 2, B(0, 1000, 500))},
     "bad_play_from_behind_head_string", 0, NULL, NOCHECK, "seed/BCA", NULL, 0},
    {"6.11 WPA kitchen rule: the same cushion first is legal", "14.1", NULL,
     {BREAK141, STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 3), POCKET(7, 1, 0, "foot-right"), REST(9, 1, TABLE141),
      STROKE(11, 2, B(0, 400, 600) B(1, 1500, 300) B(3, 1700, 900)), CUSH(11.2, 2, 0, "left", 450, 29),
      COL(11.6, 2, 0, 1), CUSH(11.9, 2, 1, "left", 1700, 29), REST(14, 2, B(0, 1000, 500))},
     "", 0, NULL, NOCHECK, NULL, NULL, 0},

    /* ---------------- 6.14 three consecutive fouls */
    {"6.14 third consecutive foul loses the 9-ball rack", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 3), CUSH(6.9, 1, 3, "right", 1800, 1241), REST(9, 1, TABLE9),
      STROKE(10, 2, TABLE9), COL(10.5, 2, 0, 1), CUSH(10.9, 2, 1, "left", 1600, 29), REST(12, 2, TABLE9),
      STROKE(13, 3, TABLE9), COL(13.5, 3, 0, 3), CUSH(13.9, 3, 3, "right", 1800, 1241), REST(15, 3, TABLE9),
      STROKE(16, 4, TABLE9), COL(16.5, 4, 0, 1), CUSH(16.9, 4, 1, "left", 1600, 29), REST(18, 4, TABLE9),
      STROKE(19, 5, TABLE9), COL(19.5, 5, 0, 3), CUSH(19.9, 5, 3, "right", 1800, 1241), REST(21, 5, TABLE9)},
     "wrong_ball_first three_consecutive_fouls", 2, "behind_head_string", 1, 2, "loses the rack", NULL, 0},
    {"6.14 warning: coming to the table on two fouls", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 3), CUSH(6.9, 1, 3, "right", 1800, 1241), REST(9, 1, TABLE9),
      STROKE(10, 2, TABLE9), COL(10.5, 2, 0, 1), CUSH(10.9, 2, 1, "left", 1600, 29), REST(12, 2, TABLE9),
      STROKE(13, 3, TABLE9), COL(13.5, 3, 0, 3), CUSH(13.9, 3, 3, "right", 1800, 1241), REST(15, 3, TABLE9),
      STROKE(16, 4, TABLE9), COL(16.5, 4, 0, 1), CUSH(16.9, 4, 1, "left", 1600, 29), REST(18, 4, TABLE9)},
     "", 1, NULL, 0, -1, "on two fouls", NULL, 0},
    {"6.14 legal counterpart: a legal shot between fouls resets the count", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 3), CUSH(6.9, 1, 3, "right", 1800, 1241), REST(9, 1, TABLE9),
      STROKE(10, 2, TABLE9), COL(10.5, 2, 0, 1), CUSH(10.9, 2, 1, "left", 1600, 29), REST(12, 2, TABLE9),
      STROKE(13, 3, TABLE9), COL(13.5, 3, 0, 1), CUSH(13.9, 3, 1, "right", 1800, 1241), REST(15, 3, TABLE9),
      STROKE(16, 4, TABLE9), COL(16.5, 4, 0, 1), CUSH(16.9, 4, 1, "left", 1600, 29), REST(18, 4, TABLE9),
      STROKE(19, 5, TABLE9), COL(19.5, 5, 0, 3), CUSH(19.9, 5, 3, "right", 1800, 1241), REST(21, 5, TABLE9),
      STROKE(22, 6, TABLE9), COL(22.5, 6, 0, 1), CUSH(22.9, 6, 1, "left", 1600, 29), REST(24, 6, TABLE9),
      STROKE(25, 7, TABLE9), COL(25.5, 7, 0, 3), CUSH(25.9, 7, 3, "right", 1800, 1241), REST(27, 7, TABLE9)},
     "wrong_ball_first", 2, "anywhere", 0, -1, NULL, NULL, 0},
    {"6.14 does not apply to 8-ball", "8ball", NULL,
     {BREAK8, STROKE(6, 1, TABLE8), COL(6.5, 1, 0, 8), CUSH(6.9, 1, 8, "right", 1800, 1241), REST(9, 1, TABLE8),
      STROKE(10, 2, TABLE8), COL(10.5, 2, 0, 2), CUSH(10.9, 2, 2, "left", 1600, 29), REST(12, 2, TABLE8),
      STROKE(13, 3, TABLE8), COL(13.5, 3, 0, 8), CUSH(13.9, 3, 8, "right", 1800, 1241), REST(15, 3, TABLE8),
      STROKE(16, 4, TABLE8), COL(16.5, 4, 0, 2), CUSH(16.9, 4, 2, "left", 1600, 29), REST(18, 4, TABLE8),
      STROKE(19, 5, TABLE8), COL(19.5, 5, 0, 8), CUSH(19.9, 5, 8, "right", 1800, 1241), REST(21, 5, TABLE8)},
     "wrong_ball_first", 2, "anywhere", 0, -1, NULL, NULL, 0},

    /* ---------------- 6.15 slow play */
    {"6.15 slow play: 40 s with a 35 s shot clock", "none", "shot_clock=35",
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3), CUSH(2.0, 0, 3, "foot", 2511, 600),
      REST(4, 0, B(0, 1400, 600) B(3, 2400, 600)), STROKE(44, 1, B(0, 1400, 600) B(3, 2400, 600)),
      COL(44.5, 1, 0, 3), CUSH(45, 1, 3, "foot", 2511, 600), REST(47, 1, B(0, 1400, 600) B(3, 2400, 600))},
     "slow_play", 1, NULL, NOCHECK, "shot clock allows 35", "slow_play", 4},
    {"6.15 legal counterpart: 30 s", "none", "shot_clock=35",
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3), CUSH(2.0, 0, 3, "foot", 2511, 600),
      REST(4, 0, B(0, 1400, 600) B(3, 2400, 600)), STROKE(34, 1, B(0, 1400, 600) B(3, 2400, 600)),
      COL(34.5, 1, 0, 3), CUSH(35, 1, 3, "foot", 2511, 600), REST(37, 1, B(0, 1400, 600) B(3, 2400, 600))},
     "", 1, NULL, NOCHECK, NULL, NULL, 0},
    {"6.15 an extension adds 25 s once per rack", "none", "shot_clock=35",
     {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3), CUSH(2.0, 0, 3, "foot", 2511, 600),
      REST(4, 0, B(0, 1400, 600) B(3, 2400, 600)), INPUT(20, "\"kind\":\"extension\",\"player\":2"),
      STROKE(44, 1, B(0, 1400, 600) B(3, 2400, 600)), COL(44.5, 1, 0, 3), CUSH(45, 1, 3, "foot", 2511, 600),
      REST(47, 1, B(0, 1400, 600) B(3, 2400, 600))},
     "", 1, NULL, NOCHECK, NULL, NULL, 0},

    /* ---------------- 9-ball */
    {"9-ball 2.3 illegal break: nothing pocketed, three balls to a rail", "9ball", NULL,
     {STROKE(1, 0, RACK9), COL(1.3, 0, 0, 1), CUSH(1.6, 0, 4, "foot", 2511, 500),
      CUSH(1.7, 0, 5, "right", 2200, 1241), CUSH(1.8, 0, 6, "left", 2100, 29), REST(5, 0, B(0, 1300, 600))},
     "illegal_break", 2, "anywhere", 0, -1, "only 3 object balls", NULL, 0},
    {"9-ball 2.3 legal break: four balls to a rail", "9ball", NULL,
     {STROKE(1, 0, RACK9), COL(1.3, 0, 0, 1), CUSH(1.6, 0, 4, "foot", 2511, 500),
      CUSH(1.7, 0, 5, "right", 2200, 1241), CUSH(1.8, 0, 6, "left", 2100, 29), CUSH(1.9, 0, 7, "foot", 2511, 900),
      REST(5, 0, B(0, 1300, 600))},
     "", 2, "none", 0, -1, "push-out", NULL, 0},
    {"9-ball break must hit the 1 first", "9ball", NULL, {BREAK9(2)},
     "wrong_ball_first", 2, "anywhere", 0, -1, NULL, "wrong_ball_first", 1},
    {"9-ball the 9 on a legal break wins", "9ball", NULL,
     {STROKE(1, 0, RACK9), COL(1.3, 0, 0, 1), POCKET(2.0, 0, 9, "foot-right"), REST(5, 0, B(0, 1300, 600))},
     "", 2, "behind_head_string", 1, 1, "wins the rack", NULL, 0},
    {"9-ball the 9 on a break with a scratch is spotted", "9ball", NULL,
     {STROKE(1, 0, RACK9), COL(1.3, 0, 0, 1), POCKET(2.0, 0, 9, "foot-right"), POCKET(2.2, 0, 0, "side-left"),
      REST(5, 0, B(3, 1300, 600))},
     "cue_ball_scratch", 2, "anywhere", 0, -1, "The 9 is spotted", NULL, 0},
    {"9-ball the 9 legally pocketed wins", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 1), COL(6.7, 1, 1, 9), POCKET(7, 1, 9, "foot-right"),
      REST(9, 1, TABLE9)},
     "", 2, "behind_head_string", 1, 1, NULL, NULL, 0},
    {"9-ball the 9 pocketed on a foul is spotted", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 3), COL(6.7, 1, 3, 9), POCKET(7, 1, 9, "foot-right"),
      REST(9, 1, B(0, 1000, 600) B(1, 1500, 300))},
     "wrong_ball_first", 2, "anywhere", 0, -1, "The 9 is spotted", NULL, 0},
    {"9-ball continue after pocketing any ball legally", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 1), COL(6.7, 1, 1, 5), POCKET(7, 1, 5, "side-right"),
      REST(9, 1, TABLE9)},
     "", 1, "none", 0, -1, "continues", NULL, 0},
    {"9-ball 2.7 push-out: 6.2 and 6.3 suspended, the opponent chooses", "9ball", NULL,
     {BREAK9(1), INPUT(5.5, "\"kind\":\"push_out\""), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 5), REST(9, 1, TABLE9)},
     "", 2, "none", 0, -1, "Push-out", NULL, 0},
    {"9-ball push-out passed back: the pusher shoots next", "9ball", NULL,
     {BREAK9(1), INPUT(5.5, "\"kind\":\"push_out\""), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 5), REST(9, 1, TABLE9),
      INPUT(9.5, "\"kind\":\"choice\",\"choice\":\"pass\""), STROKE(10, 2, TABLE9), COL(10.5, 2, 0, 1),
      CUSH(10.9, 2, 1, "left", 1600, 29), REST(12, 2, TABLE9)},
     "", 2, NULL, 0, -1, NULL, NULL, 0},
    {"9-ball a push-out is only allowed right after the break", "9ball", NULL,
     {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 1), CUSH(6.9, 1, 1, "left", 1600, 29), REST(9, 1, TABLE9),
      INPUT(9.5, "\"kind\":\"push_out\""), STROKE(10, 2, TABLE9), COL(10.5, 2, 0, 5), REST(12, 2, TABLE9)},
     "wrong_ball_first no_rail", 1, "anywhere", 0, -1, NULL, NULL, 0},
    {"9-ball three-ball rule regulation noted on the break", "9ball", "three_ball_rule=on",
     {STROKE(1, 0, RACK9), COL(1.3, 0, 0, 1), CUSH(1.6, 0, 4, "foot", 2511, 500),
      CUSH(1.7, 0, 5, "right", 2200, 1241), CUSH(1.8, 0, 6, "left", 2100, 29), POCKET(2.0, 0, 2, "foot-left"),
      REST(5, 0, B(0, 1300, 600) B(1, 1500, 600))},
     "", 1, NULL, 0, -1, "Three-ball rule: only 1", NULL, 0},

    /* ---------------- 10-ball */
    {"10-ball called ball made: continue", "10ball", NULL,
     {BREAK10, CALL(5.5, 1, "foot-left"), STROKE(6, 1, TABLE10), COL(6.5, 1, 0, 1), POCKET(7, 1, 1, "foot-left"),
      REST(9, 1, TABLE10)},
     "", 1, "none", 0, -1, "continues", NULL, 0},
    {"10-ball a ball pocketed but not as called: the opponent chooses", "10ball", NULL,
     {BREAK10, CALL(5.5, 1, "foot-left"), STROKE(6, 1, TABLE10), COL(6.5, 1, 0, 1), POCKET(7, 1, 1, "side-left"),
      REST(9, 1, TABLE10)},
     "", 2, "none", 0, -1, "chooses who shoots", NULL, 0},
    {"10-ball the 10 on the break is spotted and the breaker continues", "10ball", NULL,
     {STROKE(1, 0, RACK10), COL(1.3, 0, 0, 1), POCKET(2.0, 0, 10, "foot-right"), REST(5, 0, B(0, 1300, 600))},
     "", 1, "none", 0, -1, "The 10 is spotted", NULL, 0},
    {"10-ball the called 10 made wins", "10ball", NULL,
     {BREAK10, CALL(5.5, 10, "foot-right"), STROKE(6, 1, TABLE10), COL(6.5, 1, 0, 1), COL(6.7, 1, 1, 10),
      POCKET(7, 1, 10, "foot-right"), REST(9, 1, TABLE10)},
     "", 2, NULL, 1, 1, NULL, NULL, 0},
    {"10-ball the 10 made when the 1 was called is spotted", "10ball", "calls=strict",
     {BREAK10, CALL(5.5, 1, "side-left"), STROKE(6, 1, TABLE10), COL(6.5, 1, 0, 1), COL(6.7, 1, 1, 10),
      POCKET(7, 1, 10, "foot-right"), REST(9, 1, TABLE10)},
     "", 2, NULL, 0, -1, "The 10 is spotted", NULL, 0},
    {"10-ball 2025: the called 10 wins only as the last ball", "10ball", "ten_ball_last_only=on",
     {BREAK10, CALL(5.5, 10, "foot-right"), STROKE(6, 1, TABLE10), COL(6.5, 1, 0, 1), COL(6.7, 1, 1, 10),
      POCKET(7, 1, 10, "foot-right"), REST(9, 1, TABLE10)},
     "", 1, NULL, 0, -1, "The 10 is spotted", NULL, 0},

    /* ---------------- 8-ball */
    {"8-ball 3.3 illegal break: not a foul, the opponent chooses", "8ball", NULL,
     {STROKE(1, 0, RACK15), COL(1.3, 0, 0, 1), CUSH(1.6, 0, 4, "foot", 2511, 500), REST(5, 0, B(0, 1300, 600))},
     "", 2, "none", 0, -1, "Illegal break", NULL, 0},
    {"8-ball 3.3 legal break: the table stays open", "8ball", NULL, {BREAK8},
     "", 1, "none", 0, -1, "table is open", NULL, 0},
    {"8-ball scratch on the break: ball in hand behind the head string", "8ball", NULL,
     {STROKE(1, 0, RACK15), COL(1.3, 0, 0, 1), POCKET(2.0, 0, 5, "foot-left"), POCKET(2.2, 0, 0, "side-left"),
      REST(5, 0, B(3, 1300, 600))},
     "cue_ball_scratch", 2, "behind_head_string", 0, -1, NULL, NULL, 0},
    {"8-ball the 8 on a legal break is spotted and the breaker continues", "8ball", NULL,
     {STROKE(1, 0, RACK15), COL(1.3, 0, 0, 1), POCKET(2.0, 0, 8, "foot-left"), REST(5, 0, B(0, 1300, 600))},
     "", 1, "none", 0, -1, "The 8 is spotted", NULL, 0},
    {"8-ball 8 first on an open table is a foul", "8ball", NULL,
     {BREAK8, STROKE(6, 1, TABLE8), COL(6.5, 1, 0, 8), CUSH(6.9, 1, 8, "right", 1800, 1241), REST(9, 1, TABLE8)},
     "wrong_ball_first", 2, "anywhere", 0, -1, "open table", NULL, 0},
    {"8-ball 3.4 a called ball made on an open table decides the groups", "8ball", NULL,
     {BREAK8, CALL(5.5, 12, "foot-left"), STROKE(6, 1, TABLE8), COL(6.5, 1, 0, 12), POCKET(7, 1, 12, "foot-left"),
      REST(9, 1, TABLE8)},
     "", 1, "none", 0, -1, "Player 1 takes the stripes", NULL, 0},
    {"8-ball hitting the other group first is a foul", "8ball", NULL,
     {BREAK8, CALL(5.5, 12, "foot-left"), STROKE(6, 1, TABLE8), COL(6.5, 1, 0, 12), POCKET(7, 1, 12, "foot-left"),
      REST(9, 1, TABLE8), STROKE(10, 2, TABLE8), COL(10.5, 2, 0, 2), POCKET(11, 2, 2, "side-left"),
      REST(12, 2, TABLE8)},
     "wrong_ball_first", 2, "anywhere", 0, -1, "shoots the stripes", NULL, 0},
    {"8-ball 3.8 the 8 pocketed before the group is cleared loses", "8ball", NULL,
     {BREAK8, CALL(5.5, 12, "foot-left"), STROKE(6, 1, TABLE8), COL(6.5, 1, 0, 12), POCKET(7, 1, 12, "foot-left"),
      REST(9, 1, TABLE8), STROKE(10, 2, TABLE8), COL(10.5, 2, 0, 13), COL(10.7, 2, 13, 8),
      POCKET(11, 2, 8, "side-left"), REST(12, 2, TABLE8)},
     "eight_ball_loss", 2, NULL, 1, 2, "before clearing", NULL, 0},
    {"8-ball 3.8 the 8 in an uncalled pocket loses", "8ball", NULL,
     {BREAK8, CALL(5.5, 12, "foot-left"), STROKE(6, 1, TABLE8), COL(6.5, 1, 0, 12), POCKET(7, 1, 12, "foot-left"),
      REST(9, 1, TABLE8), CALL(9.5, 8, "foot-right"),
      STROKE(10, 1, B(0, 1000, 600) B(2, 1500, 300) B(8, 1700, 900)), COL(10.5, 1, 0, 8),
      POCKET(11, 1, 8, "side-left"), REST(12, 1, B(0, 1000, 600))},
     "eight_ball_loss", 2, NULL, 1, 2, "not called", NULL, 0},
    {"8-ball the 8 with a scratch loses", "8ball", NULL,
     {BREAK8, CALL(5.5, 12, "foot-left"), STROKE(6, 1, TABLE8), COL(6.5, 1, 0, 12), POCKET(7, 1, 12, "foot-left"),
      REST(9, 1, TABLE8), CALL(9.5, 8, "side-left"), STROKE(10, 1, B(0, 1000, 600) B(2, 1500, 300) B(8, 1700, 900)),
      COL(10.5, 1, 0, 8), POCKET(11, 1, 8, "side-left"), POCKET(11.2, 1, 0, "foot-left"), REST(12, 1, B(2, 1500, 300))},
     "cue_ball_scratch eight_ball_loss", 2, NULL, 1, 2, "fouled while pocketing the 8", NULL, 0},
    {"8-ball legal counterpart: the called 8 after the group wins", "8ball", NULL,
     {BREAK8, CALL(5.5, 12, "foot-left"), STROKE(6, 1, TABLE8), COL(6.5, 1, 0, 12), POCKET(7, 1, 12, "foot-left"),
      REST(9, 1, TABLE8), CALL(9.5, 8, "side-left"), STROKE(10, 1, B(0, 1000, 600) B(2, 1500, 300) B(8, 1700, 900)),
      COL(10.5, 1, 0, 8), POCKET(11, 1, 8, "side-left"), REST(12, 1, B(0, 1000, 600) B(2, 1500, 300))},
     "", 2, "behind_head_string", 1, 1, "legally pocketed the 8", NULL, 0},
    {"8-ball 2025: the 8 first on an open table is legal once a group is gone", "8ball", "open_table_8=on",
     {BREAK8, STROKE(6, 1, B(0, 1000, 600) B(8, 1700, 900) B(12, 2000, 200) B(13, 1200, 1000)),
      COL(6.5, 1, 0, 8), CUSH(6.9, 1, 8, "right", 1800, 1241),
      REST(9, 1, B(0, 1000, 600) B(8, 1700, 900) B(12, 2000, 200) B(13, 1200, 1000))},
     "", 2, "none", 0, -1, NULL, NULL, 0},

    /* ---------------- 14.1 */
    {"14.1 4.3 legal opening break: cue ball and two object balls to a rail", "14.1", NULL, {BREAK141},
     "", 2, "none", 0, -1, "Score 0 : 0", NULL, 0},
    {"14.1 4.10 breaking foul: -2, the opponent may make the breaker re-break", "14.1", NULL,
     {STROKE(1, 0, RACK15), COL(1.3, 0, 0, 11), CUSH(1.5, 0, 11, "foot", 2511, 520), REST(5, 0, B(0, 1200, 600))},
     "breaking_foul", 2, "none", 0, -1, "Score -2 : 0", NULL, 0},
    {"14.1 4.7 a called ball made scores every ball pocketed", "14.1", NULL,
     {BREAK141, CALL(5.5, 1, "side-left"), STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 1), COL(6.6, 1, 1, 3),
      POCKET(7, 1, 1, "side-left"), POCKET(7.1, 1, 3, "foot-right"), REST(9, 1, TABLE141)},
     "", 2, "none", 0, -1, "Score 0 : 2", NULL, 0},
    {"14.1 4.6 a ball made that was not called is spotted", "14.1", "calls=strict",
     {BREAK141, CALL(5.5, 1, "side-left"), STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 3), POCKET(7, 1, 3, "foot-right"),
      REST(9, 1, B(0, 1000, 600) B(1, 1500, 300))},
     "", 1, "none", 0, -1, "The 3 is spotted at (1905.0, 635.0)", NULL, 0},
    {"14.1 4.9 a standard foul costs a point and leaves the cue ball", "14.1", NULL,
     {BREAK141, STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 3), REST(9, 1, TABLE141)},
     "no_rail", 1, "none", 0, -1, "Score 0 : -1", NULL, 0},
    {"14.1 4.9 a scratch: ball in hand behind the head string", "14.1", NULL,
     {BREAK141, STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 3), POCKET(7, 1, 0, "foot-right"), REST(9, 1, TABLE141)},
     "cue_ball_scratch", 1, "behind_head_string", 0, -1, "Score 0 : -1", NULL, 0},
    {"14.1 4.8 the 14th ball made: re-rack with the apex empty", "14.1", NULL,
     {BREAK141, CALL(5.5, 1, "side-left"),
      STROKE(6, 1, B(0, 1000, 600) B(1, 1500, 300) B(7, 1200, 1000)), COL(6.5, 1, 0, 1),
      POCKET(7, 1, 1, "side-left"), REST(9, 1, B(0, 1000, 600) B(7, 1200, 1000))},
     "", 2, "none", 0, -1, "re-racked with the apex empty", NULL, 0},
    {"14.1 4.11 third consecutive foul: -16 and a re-break by the offender", "14.1", NULL,
     {BREAK141, STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 3), REST(9, 1, TABLE141),
      STROKE(10, 2, TABLE141), COL(10.5, 2, 0, 1), CUSH(10.9, 2, 1, "left", 1600, 29), REST(12, 2, TABLE141),
      STROKE(13, 3, TABLE141), COL(13.5, 3, 0, 3), REST(15, 3, TABLE141),
      STROKE(16, 4, TABLE141), COL(16.5, 4, 0, 1), CUSH(16.9, 4, 1, "left", 1600, 29), REST(18, 4, TABLE141),
      STROKE(19, 5, TABLE141), COL(19.5, 5, 0, 3), REST(21, 5, TABLE141)},
     "no_rail three_consecutive_fouls", 2, "behind_head_string", 0, -1, "Score 0 : -18", NULL, 0},
    {"14.1 the target score wins", "14.1", "target=2",
     {BREAK141, CALL(5.5, 1, "side-left"), STROKE(6, 1, TABLE141), COL(6.5, 1, 0, 1), COL(6.6, 1, 1, 3),
      POCKET(7, 1, 1, "side-left"), POCKET(7.1, 1, 3, "foot-right"), REST(9, 1, TABLE141)},
     "", 0, NULL, 1, 2, "wins the rack", NULL, 0},
};

/* ---- lag scenarios: the expected ruling is a lag ruling */
typedef struct {
    const char *name;
    const char *lines[16];
    int winner; /* 0: replay */
    const char *detail;
} lag_scenario_t;

#define LAG_IN INPUT(0.5, "\"kind\":\"lag\",\"balls\":[0,9]")
#define LAG_STROKES                                                                                            \
    "{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"ball\":0,\"balls\":[" B(0, 300, 300) B(9, 300, 950) "]}",  \
        "{\"type\":\"stroke\",\"t\":1.1,\"shot\":0,\"ball\":9,\"balls\":[" B(0, 320, 300) B(9, 300, 950) "]}"

static const lag_scenario_t lags[] = {
    {"1.2 lag: the ball nearer the head cushion wins",
     {LAG_IN, LAG_STROKES, CUSH(2, 0, 0, "foot", 2511, 310), CUSH(2.1, 0, 9, "foot", 2511, 940),
      REST(6, 0, B(0, 60, 320) B(9, 95, 930))},
     1, "Player 1 wins the lag"},
    {"1.2 lag: a side cushion loses the lag",
     {LAG_IN, LAG_STROKES, CUSH(2, 0, 0, "foot", 2511, 310), CUSH(2.1, 0, 9, "foot", 2511, 940),
      CUSH(3, 0, 0, "left", 900, 29), REST(6, 0, B(0, 60, 320) B(9, 95, 930))},
     2, "side cushion"},
    {"1.2 lag: crossing the long string loses the lag",
     {LAG_IN, LAG_STROKES, CUSH(2, 0, 0, "foot", 2511, 700), CUSH(2.1, 0, 9, "foot", 2511, 940),
      REST(6, 0, B(0, 60, 700) B(9, 95, 930))},
     2, "long string"},
    {"1.2 lag: no foot cushion loses the lag",
     {LAG_IN, LAG_STROKES, CUSH(2.1, 0, 9, "foot", 2511, 940), REST(6, 0, B(0, 1200, 320) B(9, 95, 930))},
     2, "foot cushion 0 times"},
    {"1.2 lag: both bad, replay",
     {LAG_IN, LAG_STROKES, OFF(3, 0, 9), REST(6, 0, B(0, 1200, 320))}, 0, "Both lags were bad"},
    {"1.2 lag: a tie within 1 mm, replay",
     {LAG_IN, LAG_STROKES, CUSH(2, 0, 0, "foot", 2511, 310), CUSH(2.1, 0, 9, "foot", 2511, 940),
      REST(6, 0, B(0, 60, 320) B(9, 60.5, 930))},
     0, "tie"},
    {"1.2 lag: a ball struck after the other touched the foot cushion, replay",
     {LAG_IN, "{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"ball\":0,\"balls\":[" B(0, 300, 300) B(9, 300, 950) "]}",
      CUSH(2, 0, 0, "foot", 2511, 310),
      "{\"type\":\"stroke\",\"t\":2.5,\"shot\":0,\"ball\":9,\"balls\":[" B(0, 1500, 300) B(9, 300, 950) "]}",
      CUSH(3.1, 0, 9, "foot", 2511, 940), REST(7, 0, B(0, 60, 320) B(9, 95, 930))},
     0, "struck after"},
};

/* ---- running a stream through a judge */

typedef struct {
    cr_event_t out[CR_JUDGE_MAX_OUT];
    cr_event_t last_ruling;
    bool have_ruling;
    char fouls_seen[1024]; /* every foul code emitted, space separated */
    int early_line;        /* line at which `early` was emitted, -1 if never */
} run_result_t;

static cr_event_t ev_buf;
static run_result_t res;

static int run_stream(const char *game, const char *opts, const char *const *lines, const char *early)
{
    cr_rules_params_t p;
    cr_judge_t *j = NULL;
    char err[256], optbuf[256], *save = NULL, *tok;
    int i, k, n;

    memset(&res, 0, sizeof(res));
    res.early_line = -1;
    cr_rules_params_defaults(&p);
    if (cr_game_parse(game, &p.game) != CR_OK)
        return -1;
    if (opts) {
        snprintf(optbuf, sizeof(optbuf), "%s", opts);
        for (tok = strtok_r(optbuf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(tok, '=');

            if (!eq)
                return -1;
            *eq = '\0';
            if (cr_rules_params_set(&p, tok, eq + 1) != CR_OK)
                return -1;
        }
    }
    if (cr_judge_create(&p, &j) != CR_OK)
        return -1;
    for (i = 0; i < MAX_LINES && lines[i]; i++) {
        /* The builders leave a comma after each ball: drop it before ']'. */
        char line[4096], *w = line;
        const char *r;

        for (r = lines[i]; *r && w < line + sizeof(line) - 1; r++)
            if (!(r[0] == ',' && r[1] == ']'))
                *w++ = *r;
        *w = '\0';
        if (cr_jsonl_parse_line(line, strlen(line), 0, &ev_buf, err, sizeof(err)) != 0) {
            fprintf(stderr, "\nscenario line %d does not parse: %s\n  %s\n", i, err, lines[i]);
            cr_judge_destroy(j);
            return -1;
        }
        n = cr_judge_feed(j, &ev_buf, res.out, CR_JUDGE_MAX_OUT);
        if (n < 0) {
            fprintf(stderr, "\nscenario line %d rejected: %s\n", i, cr_judge_error(j));
            cr_judge_destroy(j);
            return -1;
        }
        for (k = 0; k < n; k++) {
            if (res.out[k].type == CR_EV_RULING) {
                res.last_ruling = res.out[k];
                res.have_ruling = true;
            } else if (res.out[k].type == CR_EV_FOUL) {
                size_t len = strlen(res.fouls_seen);

                snprintf(res.fouls_seen + len, sizeof(res.fouls_seen) - len, "%s ", res.out[k].code);
                if (early && !strcmp(res.out[k].code, early) && res.early_line < 0)
                    res.early_line = i;
            }
        }
    }
    n = cr_judge_finish(j, res.out, CR_JUDGE_MAX_OUT);
    for (k = 0; k < n; k++)
        if (res.out[k].type == CR_EV_RULING) {
            res.last_ruling = res.out[k];
            res.have_ruling = true;
        }
    cr_judge_destroy(j);
    return 0;
}

/* The ruling's foul codes as one sorted, space-separated string. */
static void sorted_codes(const char *in, char *out, size_t cap)
{
    char words[CR_EVENT_MAX_CODES][CR_CODE_LEN], tmp[CR_CODE_LEN], buf[1024], *save = NULL, *tok;
    int n = 0, i, k;

    snprintf(buf, sizeof(buf), "%s", in);
    for (tok = strtok_r(buf, " ", &save); tok && n < CR_EVENT_MAX_CODES; tok = strtok_r(NULL, " ", &save))
        snprintf(words[n++], CR_CODE_LEN, "%s", tok);
    for (i = 1; i < n; i++)
        for (k = i; k > 0 && strcmp(words[k - 1], words[k]) > 0; k--) {
            memcpy(tmp, words[k], CR_CODE_LEN);
            memcpy(words[k], words[k - 1], CR_CODE_LEN);
            memcpy(words[k - 1], tmp, CR_CODE_LEN);
        }
    out[0] = '\0';
    for (i = 0; i < n; i++) {
        size_t len = strlen(out);

        snprintf(out + len, cap - len, "%s%s", i ? " " : "", words[i]);
    }
}

static void test_scenarios(void)
{
    size_t i;
    int failures = 0;

    for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
        const scenario_t *sc = &scenarios[i];
        const cr_ruling_t *r = &res.last_ruling.ruling;
        char got[1024] = "", want[1024], joined[1024] = "";
        const char *bih;
        bool ok = true;
        int k;

        if (run_stream(sc->game, sc->opts, sc->lines, sc->early) != 0 || !res.have_ruling) {
            fprintf(stderr, "\nFAIL [%s]: no ruling\n", sc->name);
            failures++;
            continue;
        }
        for (k = 0; k < r->n_fouls; k++) {
            size_t len = strlen(joined);

            snprintf(joined + len, sizeof(joined) - len, "%s ", r->fouls[k]);
        }
        sorted_codes(joined, got, sizeof(got));
        sorted_codes(sc->fouls, want, sizeof(want));
        if (strcmp(got, want) != 0) {
            fprintf(stderr, "\nFAIL [%s]: fouls \"%s\", want \"%s\"", sc->name, got, want);
            ok = false;
        }
        if (r->legal != (want[0] == '\0')) {
            fprintf(stderr, "\nFAIL [%s]: legal %d", sc->name, r->legal);
            ok = false;
        }
        if (sc->next && r->next_player != sc->next) {
            fprintf(stderr, "\nFAIL [%s]: next_player %d, want %d", sc->name, r->next_player, sc->next);
            ok = false;
        }
        bih = cr_bih_name(r->ball_in_hand);
        if (sc->bih && strcmp(bih ? bih : "none", sc->bih) != 0) {
            fprintf(stderr, "\nFAIL [%s]: ball_in_hand %s, want %s", sc->name, bih ? bih : "none", sc->bih);
            ok = false;
        }
        if (sc->over >= 0 && (int)r->game_over != sc->over) {
            fprintf(stderr, "\nFAIL [%s]: game_over %d, want %d", sc->name, r->game_over, sc->over);
            ok = false;
        }
        if (sc->winner >= 0 && r->winner != sc->winner) {
            fprintf(stderr, "\nFAIL [%s]: winner %d, want %d", sc->name, r->winner, sc->winner);
            ok = false;
        }
        if (sc->detail && !strstr(r->detail, sc->detail) && !strstr(res.fouls_seen, sc->detail)) {
            int m, found = 0;

            for (m = 0; m < CR_JUDGE_MAX_OUT; m++)
                if (res.out[m].type == CR_EV_FOUL && strstr(res.out[m].detail, sc->detail))
                    found = 1;
            if (!found) {
                fprintf(stderr, "\nFAIL [%s]: detail lacks \"%s\": %s", sc->name, sc->detail, r->detail);
                ok = false;
            }
        }
        if (sc->early && res.early_line != sc->early_at) {
            fprintf(stderr, "\nFAIL [%s]: %s emitted at line %d, want %d", sc->name, sc->early, res.early_line,
                    sc->early_at);
            ok = false;
        }
        if (!ok)
            failures++;
    }
    if (failures)
        fprintf(stderr, "\n%d of %zu scenarios failed\n", failures, sizeof(scenarios) / sizeof(scenarios[0]));
    CU_ASSERT_EQUAL(failures, 0);
}

static void test_lags(void)
{
    size_t i;
    int failures = 0;

    for (i = 0; i < sizeof(lags) / sizeof(lags[0]); i++) {
        const cr_ruling_t *r = &res.last_ruling.ruling;

        if (run_stream("9ball", NULL, lags[i].lines, NULL) != 0 || !res.have_ruling) {
            fprintf(stderr, "\nFAIL [%s]: no ruling\n", lags[i].name);
            failures++;
            continue;
        }
        if (r->kind != CR_RULING_LAG || r->lag_winner != lags[i].winner || !strstr(r->detail, lags[i].detail)) {
            fprintf(stderr, "\nFAIL [%s]: kind %d winner %d (want %d): %s\n", lags[i].name, r->kind, r->lag_winner,
                    lags[i].winner, r->detail);
            failures++;
        }
    }
    CU_ASSERT_EQUAL(failures, 0);
}

/* The lag winner breaks the first rack. */
static void test_lag_then_break(void)
{
    const char *lines[] = {LAG_IN, LAG_STROKES, CUSH(2, 0, 0, "foot", 2511, 310), CUSH(2.1, 0, 9, "foot", 2511, 940),
                           REST(6, 0, B(0, 60, 320) B(9, 40, 930)), STROKE(10, 1, RACK9), COL(10.3, 1, 0, 1),
                           POCKET(11, 1, 2, "foot-left"), REST(14, 1, B(0, 1300, 600)), NULL};

    CU_ASSERT_EQUAL_FATAL(run_stream("9ball", NULL, lines, NULL), 0);
    CU_ASSERT_TRUE(res.have_ruling);
    CU_ASSERT_EQUAL(res.last_ruling.ruling.player, 2);
    CU_ASSERT_TRUE(res.last_ruling.ruling.break_shot);
}

/* Spot positions: a blocked foot spot puts the 9 frozen behind the blocker. */
static void test_spot_blocked(void)
{
    const char *lines[] = {BREAK9(1), STROKE(6, 1, TABLE9), COL(6.5, 1, 0, 3), COL(6.7, 1, 3, 9),
                           POCKET(7, 1, 9, "foot-right"), REST(9, 1, B(0, 1000, 600) B(1, 1905, 635)), NULL};
    const cr_ruling_t *r = &res.last_ruling.ruling;

    CU_ASSERT_EQUAL_FATAL(run_stream("9ball", NULL, lines, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(r->n_spot, 1);
    CU_ASSERT_EQUAL(r->spot[0].id, 9);
    CU_ASSERT_DOUBLE_EQUAL(r->spot[0].x, 1905.0 + CR_BALL_DIAMETER_MM, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(r->spot[0].y, 635.0, 1e-6);
}

/* Fouls that are certain mid-shot carry the time of the event that made
 * them certain; the ruling comes with the rest. */
static void test_foul_timing(void)
{
    const char *lines[] = {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), COL(1.5, 0, 0, 3),
                           POCKET(2.25, 0, 0, "side-left"), REST(4, 0, B(3, 2400, 600)), NULL};
    int k, nfoul = 0;

    CU_ASSERT_EQUAL_FATAL(run_stream("none", NULL, lines, "cue_ball_scratch"), 0);
    CU_ASSERT_EQUAL(res.early_line, 2);
    CU_ASSERT_DOUBLE_EQUAL(res.last_ruling.t, 4.0, 1e-9);
    for (k = 0; k < CR_JUDGE_MAX_OUT; k++)
        if (res.out[k].type == CR_EV_FOUL)
            nfoul++;
    CU_ASSERT_EQUAL(nfoul, 0); /* nothing repeated with the ruling */
}

/* A shot the stream ends in (no rest) is judged at the stream's last
 * event, not back at its stroke. */
static void test_stream_end(void)
{
    const char *open_shot[] = {STROKE(1, 0, B(0, 500, 600) B(3, 1500, 600)), CUSH(1.6, 0, 0, "foot", 2511, 600),
                               CUSH(3.5, 0, 0, "head", 29, 600), NULL};
    int k, nfoul = 0;

    CU_ASSERT_EQUAL_FATAL(run_stream("none", NULL, open_shot, NULL), 0);
    CU_ASSERT_TRUE_FATAL(res.have_ruling);
    CU_ASSERT_DOUBLE_EQUAL(res.last_ruling.t, 3.5, 1e-9);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.last_ruling.ruling.detail, "the stream ended"));
    for (k = 0; k < CR_JUDGE_MAX_OUT; k++)
        if (res.out[k].type == CR_EV_FOUL && !strcmp(res.out[k].code, "no_contact")) {
            nfoul++;
            CU_ASSERT_DOUBLE_EQUAL(res.out[k].t, 3.5, 1e-9);
        }
    CU_ASSERT_EQUAL(nfoul, 1);

    /* frames with no event after the last one carry the end further */
    {
        const char *stroke = "{\"type\":\"stroke\",\"t\":1,\"shot\":0,\"balls\":[{\"id\":0,\"x\":500,\"y\":600}]}";
        cr_rules_params_t p;
        cr_judge_t *j = NULL;
        int n;

        cr_rules_params_defaults(&p);
        CU_ASSERT_EQUAL_FATAL(cr_judge_create(&p, &j), CR_OK);
        CU_ASSERT_EQUAL_FATAL(cr_jsonl_parse_line(stroke, strlen(stroke), 0, &ev_buf, NULL, 0), 0);
        CU_ASSERT_TRUE(cr_judge_feed(j, &ev_buf, res.out, CR_JUDGE_MAX_OUT) >= 0);
        cr_judge_advance(j, 4.25);
        cr_judge_advance(j, 2.0); /* never back */
        n = cr_judge_finish(j, res.out, CR_JUDGE_MAX_OUT);
        CU_ASSERT_TRUE(n >= 1);
        if (n >= 1)
            CU_ASSERT_DOUBLE_EQUAL(res.out[n - 1].t, 4.25, 1e-9);
        cr_judge_destroy(j);
    }
}

/* ---- a first contact called early (cr_judge_early_contact) */

/* After BREAK9 the engine has these on the table (the stroke lists them all). */
#define TABLE9ALL                                                                                              \
    B(0, 1000, 600) B(1, 1500, 300) B(3, 1700, 900) B(4, 2000, 200) B(5, 1200, 1000) B(6, 2100, 400)           \
        B(7, 2300, 800) B(8, 1800, 500) B(9, 2200, 635)

static void parse_into(const char *line, cr_event_t *ev)
{
    char buf[4096], *w = buf;
    const char *r;

    for (r = line; *r && w < buf + sizeof(buf) - 1; r++)
        if (!(r[0] == ',' && r[1] == ']'))
            *w++ = *r;
    *w = '\0';
    CU_ASSERT_EQUAL_FATAL(cr_jsonl_parse_line(buf, strlen(buf), 0, ev, NULL, 0), 0);
}

/* Feeds lines; appends "code " for every foul and warning written. */
static void feed_all(cr_judge_t *j, const char *const *lines, char *seen, size_t cap, cr_event_t *ruling)
{
    int i, k, n;

    for (i = 0; lines[i]; i++) {
        parse_into(lines[i], &ev_buf);
        n = cr_judge_feed(j, &ev_buf, res.out, CR_JUDGE_MAX_OUT);
        CU_ASSERT_TRUE_FATAL(n >= 0);
        for (k = 0; k < n; k++) {
            size_t len = strlen(seen);

            if (res.out[k].type == CR_EV_FOUL || res.out[k].type == CR_EV_WARNING)
                snprintf(seen + len, cap - len, "%s ", res.out[k].code);
            if (res.out[k].type == CR_EV_RULING && ruling)
                *ruling = res.out[k];
        }
    }
}

/* What j writes for lines a (NULL: none), then b, into seen from empty
 * (feed_all()); the last ruling of b in *ruling. */
static void feed_seen(cr_judge_t *j, const char *const *a, const char *const *b, char *seen, size_t cap,
                      cr_event_t *ruling)
{
    seen[0] = '\0';
    if (a)
        feed_all(j, a, seen, cap, NULL);
    feed_all(j, b, seen, cap, ruling);
}

/* The early call on a fresh 9-ball judge after BREAK9 (the stroke fed first
 * when fed_stroke): the call's return and its foul line. */
static int early9(cr_judge_t **j, const char *stroke, const char *contact, const char *const *inputs, bool fed_stroke,
                  cr_event_t *foul)
{
    const char *brk[] = {BREAK9(1), NULL};
    cr_event_t st, ct, in[4];
    cr_rules_params_t p;
    char seen[256] = "";
    int n = 0;

    cr_rules_params_defaults(&p);
    p.game = CR_GAME_9BALL;
    CU_ASSERT_EQUAL_FATAL(cr_judge_create(&p, j), CR_OK);
    feed_all(*j, brk, seen, sizeof(seen), NULL);
    parse_into(stroke, &st);
    parse_into(contact, &ct);
    if (fed_stroke) {
        const char *one[] = {stroke, NULL};

        feed_all(*j, one, seen, sizeof(seen), NULL);
    }
    for (; inputs && inputs[n] && n < 4; n++)
        parse_into(inputs[n], &in[n]);
    return cr_judge_early_contact(*j, in, n, &st, &ct, foul);
}

static void test_early_contact(void)
{
    const char *stroke = STROKE(6, 1, TABLE9ALL);
    const char *on_3[] = {COL(6.5, 1, 0, 3), CUSH(6.9, 1, 3, "right", 1800, 1241), REST(9, 1, TABLE9ALL), NULL};
    const char *on_1[] = {COL(6.5, 1, 0, 1), CUSH(6.9, 1, 1, "left", 1600, 29), REST(9, 1, TABLE9ALL), NULL};
    const char *push[] = {INPUT(5.5, "\"kind\":\"push_out\""), NULL};
    cr_judge_t *j = NULL;
    cr_event_t foul, ruling;
    char seen[512];
    const char *one[] = {stroke, NULL};

    /* before its stroke reached the engine: the 3 before the 1 is called
     * now; the shot's own contact confirms it, no second line */
    CU_ASSERT_EQUAL(early9(&j, stroke, COL(6.5, 1, 0, 3), NULL, false, &foul), 1);
    CU_ASSERT_STRING_EQUAL(foul.code, "wrong_ball_first");
    CU_ASSERT_EQUAL(foul.shot, 1);
    CU_ASSERT_TRUE(foul.early);
    CU_ASSERT_DOUBLE_EQUAL(foul.t, 6.5, 1e-9);
    CU_ASSERT_PTR_NOT_NULL(strstr(foul.detail, "the 3"));
    feed_seen(j, one, on_3, seen, sizeof(seen), &ruling);
    CU_ASSERT_STRING_EQUAL(seen, "");
    CU_ASSERT_FALSE(ruling.ruling.legal);
    CU_ASSERT_EQUAL(ruling.ruling.n_fouls, 1);
    CU_ASSERT_STRING_EQUAL(ruling.ruling.fouls[0], "wrong_ball_first");
    cr_judge_destroy(j);

    /* the shot's own first contact was the 1: the call is withdrawn after
     * the (legal) ruling */
    CU_ASSERT_EQUAL(early9(&j, stroke, COL(6.5, 1, 0, 3), NULL, false, &foul), 1);
    feed_seen(j, one, on_1, seen, sizeof(seen), &ruling);
    CU_ASSERT_STRING_EQUAL(seen, "early_call_withdrawn ");
    CU_ASSERT_TRUE(ruling.ruling.legal);
    cr_judge_destroy(j);

    /* the stroke already judged (the contact came well after it): called
     * all the same, once */
    CU_ASSERT_EQUAL(early9(&j, stroke, COL(6.5, 1, 0, 3), NULL, true, &foul), 1);
    CU_ASSERT_EQUAL(foul.shot, 1);
    feed_seen(j, NULL, on_3, seen, sizeof(seen), &ruling);
    CU_ASSERT_STRING_EQUAL(seen, "");
    CU_ASSERT_EQUAL(ruling.ruling.n_fouls, 1);
    cr_judge_destroy(j);

    /* nothing to call: the lowest ball first; a table that is not the
     * engine's (the 6 missing); a push-out declared before the stroke */
    CU_ASSERT_EQUAL(early9(&j, stroke, COL(6.5, 1, 0, 1), NULL, false, &foul), 0);
    cr_judge_destroy(j);
    CU_ASSERT_EQUAL(early9(&j,
                           STROKE(6, 1,
                                  B(0, 1000, 600) B(1, 1500, 300) B(3, 1700, 900) B(4, 2000, 200) B(5, 1200, 1000)
                                      B(7, 2300, 800) B(8, 1800, 500) B(9, 2200, 635)),
                           COL(6.5, 1, 0, 3), NULL, false, &foul),
                    0);
    cr_judge_destroy(j);
    CU_ASSERT_EQUAL(early9(&j, stroke, COL(6.5, 1, 0, 3), push, false, &foul), 0);
    /* and nothing was remembered: the shot's own foul line still comes */
    feed_seen(j, one, on_3, seen, sizeof(seen), &ruling);
    CU_ASSERT_STRING_EQUAL(seen, "wrong_ball_first ");
    cr_judge_destroy(j);
}

/* A cue ball dropped, called from the newest frames (cr_judge_early_pocket). */
static void test_early_pocket(void)
{
    const char *brk[] = {BREAK9(1), NULL};
    const char *shot[] = {STROKE(6, 1, TABLE9ALL), COL(6.5, 1, 0, 1), CUSH(6.8, 1, 1, "left", 1600, 29), NULL};
    const char *dropped[] = {POCKET(7.05, 1, 0, "side-left"), REST(9, 1, TABLE9ALL), NULL};
    const char *stayed[] = {REST(9, 1, TABLE9ALL), NULL};
    const char *stroke_only[] = {STROKE(6, 1, TABLE9ALL), NULL};
    cr_rules_params_t p;
    cr_judge_t *j = NULL;
    cr_event_t pk, foul, ruling;
    char seen[512];
    int k;

    cr_rules_params_defaults(&p);
    p.game = CR_GAME_9BALL;
    parse_into(POCKET(7.0, 1, 0, "side-left"), &pk);
    for (k = 0; k < 2; k++) {
        CU_ASSERT_EQUAL_FATAL(cr_judge_create(&p, &j), CR_OK);
        seen[0] = '\0';
        feed_all(j, brk, seen, sizeof(seen), NULL);
        feed_all(j, shot, seen, sizeof(seen), NULL);
        seen[0] = '\0';
        CU_ASSERT_EQUAL(cr_judge_early_pocket(j, &pk, &foul), 1);
        CU_ASSERT_STRING_EQUAL(foul.code, "cue_ball_scratch");
        CU_ASSERT_EQUAL(foul.shot, 1);
        CU_ASSERT_TRUE(foul.early);
        CU_ASSERT_DOUBLE_EQUAL(foul.t, 7.0, 1e-9);
        CU_ASSERT_EQUAL(cr_judge_early_pocket(j, &pk, &foul), 0); /* once a shot */
        feed_all(j, k == 0 ? dropped : stayed, seen, sizeof(seen), &ruling);
        if (k == 0) {
            /* the shot's own pocket confirms it: no second line, the ruling lists it */
            CU_ASSERT_STRING_EQUAL(seen, "");
            CU_ASSERT_FALSE(ruling.ruling.legal);
            CU_ASSERT_STRING_EQUAL(ruling.ruling.fouls[0], "cue_ball_scratch");
        } else {
            /* the cue ball was not pocketed after all: withdrawn after the legal ruling */
            CU_ASSERT_STRING_EQUAL(seen, "early_call_withdrawn ");
            CU_ASSERT_TRUE(ruling.ruling.legal);
        }
        cr_judge_destroy(j);
    }
    /* no shot open, or an object ball: nothing */
    CU_ASSERT_EQUAL_FATAL(cr_judge_create(&p, &j), CR_OK);
    feed_all(j, brk, seen, sizeof(seen), NULL);
    CU_ASSERT_EQUAL(cr_judge_early_pocket(j, &pk, &foul), 0);
    feed_all(j, stroke_only, seen, sizeof(seen), NULL);
    parse_into(POCKET(7.0, 1, 3, "side-left"), &pk);
    CU_ASSERT_EQUAL(cr_judge_early_pocket(j, &pk, &foul), 0);
    cr_judge_destroy(j);
}

static void test_params(void)
{
    cr_rules_params_t p;

    cr_rules_params_defaults(&p);
    CU_ASSERT_EQUAL(p.edition, CR_EDITION_WPA2008);
    CU_ASSERT_EQUAL(cr_rules_params_set_edition(&p, "wpa2025"), CR_OK);
    CU_ASSERT_TRUE(p.open_table_8_exception);
    CU_ASSERT_FALSE(p.ten_ball_safety);
    CU_ASSERT_EQUAL(cr_rules_params_set_edition(&p, "bca"), CR_OK);
    CU_ASSERT_EQUAL(p.kitchen, CR_KITCHEN_SEED);
    CU_ASSERT_EQUAL(cr_rules_params_set_edition(&p, "wpa1999"), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_rules_params_set(&p, "shot_clock", "35"), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(p.shot_clock_s, 35.0, 1e-9);
    CU_ASSERT_EQUAL(cr_rules_params_set(&p, "shot_clock", "-1"), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_rules_params_set(&p, "shot_clock", "abc"), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_rules_params_set(&p, "kitchen", "both"), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_rules_params_set(&p, "no_such_switch", "1"), CR_ERR_INVALID);
    CU_ASSERT_STRING_EQUAL(cr_rules_foul_rule("no_rail", CR_GAME_9BALL), "6.3");
    CU_ASSERT_STRING_EQUAL(cr_rules_foul_rule("no_contact", CR_GAME_9BALL), "6.2");
    CU_ASSERT_STRING_EQUAL(cr_rules_foul_rule("illegal_break", CR_GAME_8BALL), "3.3");
}

int cr_test_register_rules(void)
{
    CU_pSuite s = CU_add_suite("rules", NULL, NULL);

    if (!s)
        return 1;
    if (!CU_add_test(s, "scenarios: every foul and game rule with its legal counterpart", test_scenarios) ||
        !CU_add_test(s, "1.2 lag rulings", test_lags) || !CU_add_test(s, "lag winner breaks", test_lag_then_break) ||
        !CU_add_test(s, "1.4 spotting behind a blocked foot spot", test_spot_blocked) ||
        !CU_add_test(s, "certain fouls are emitted at once", test_foul_timing) ||
        !CU_add_test(s, "a shot open at the stream's end is judged at its end", test_stream_end) ||
        !CU_add_test(s, "a wrong ball first called at the contact, confirmed or withdrawn", test_early_contact) ||
        !CU_add_test(s, "a cue ball scratch called at the drop, confirmed or withdrawn", test_early_pocket) ||
        !CU_add_test(s, "rule switches and editions", test_params))
        return 1;
    return 0;
}
