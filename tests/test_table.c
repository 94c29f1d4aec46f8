/*
 * test_table.c - CUnit tests for core/cr_table: sizes and strings (RULES.md
 * §5.2), pockets and cushions (§5.4), racks (§5.6, §4.7) and spotting (§4.9).
 * Expected numbers are the ones printed in RULES.md, not recomputed with the
 * code under test.
 */
#include <math.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "cr_table.h"
#include "test_suites.h"

#define R CR_BALL_RADIUS_MM
#define D2R (2.0 * CR_BALL_RADIUS_MM) /* 57.15 mm */
#define TOL 1e-9                      /* mm, for values computed exactly */
#define TOL_PRINTED 0.01              /* mm, for values printed to 0.01 mm */

static cr_table_t t9(void)
{
    cr_table_t t;

    cr_table_init(&t, 2540.0, 1270.0);
    return t;
}

static double dist(double ax, double ay, double bx, double by)
{
    return hypot(ax - bx, ay - by);
}

/* ---- sizes, strings, spots --------------------------------------------- */

static void test_init_defaults(void)
{
    cr_table_t t = t9();

    CU_ASSERT_DOUBLE_EQUAL(t.length_mm, 2540.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(t.width_mm, 1270.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(t.corner_mouth_mm, 115.9, 0.05); /* 4 9/16 in */
    CU_ASSERT_DOUBLE_EQUAL(t.side_mouth_mm, 128.6, 0.05);   /* 5 1/16 in */
    /* Inside the WPA ranges of RULES.md §5.4. */
    CU_ASSERT(t.corner_mouth_mm >= 114.3 && t.corner_mouth_mm <= 117.5);
    CU_ASSERT(t.side_mouth_mm >= 127.0 && t.side_mouth_mm <= 130.2);
    CU_ASSERT_DOUBLE_EQUAL(t.ball_radius_mm, 28.575, TOL);
}

static void test_strings_9ft(void)
{
    cr_table_t t;
    cr_point_t p;

    CU_ASSERT_EQUAL_FATAL(cr_table_parse("9ft", &t), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(t.length_mm, 2540.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(t.width_mm, 1270.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_head_string_x(&t), 635.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_centre_string_x(&t), 1270.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_foot_string_x(&t), 1905.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_long_string_y(&t), 635.0, TOL);
    p = cr_table_foot_spot(&t);
    CU_ASSERT_DOUBLE_EQUAL(p.x, 1905.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(p.y, 635.0, TOL);
    p = cr_table_head_spot(&t);
    CU_ASSERT_DOUBLE_EQUAL(p.x, 635.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(p.y, 635.0, TOL);
    p = cr_table_centre_spot(&t);
    CU_ASSERT_DOUBLE_EQUAL(p.x, 1270.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(p.y, 635.0, TOL);
}

static void test_presets(void)
{
    /* RULES.md §5.2 table: name, L, W, head string, foot string. */
    static const struct {
        const char *name;
        double l, w, head, foot;
    } cases[] = {
        {"9ft", 2540.0, 1270.0, 635.0, 1905.0},     {"8ft", 2336.8, 1168.4, 584.2, 1752.6},
        {"8ft-home", 2235.2, 1117.6, 558.8, 1676.4}, {"7ft", 1981.2, 990.6, 495.3, 1485.9},
        {"7ft-large", 2032.0, 1016.0, 508.0, 1524.0}, {"7ft-small", 1930.4, 965.2, 482.6, 1447.8},
    };
    cr_table_t t;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        memset(&t, 0, sizeof(t));
        CU_ASSERT_EQUAL_FATAL(cr_table_parse(cases[i].name, &t), CR_OK);
        CU_ASSERT_DOUBLE_EQUAL(t.length_mm, cases[i].l, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(t.width_mm, cases[i].w, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(cr_table_head_string_x(&t), cases[i].head, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(cr_table_foot_string_x(&t), cases[i].foot, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(cr_table_long_string_y(&t), cases[i].w / 2.0, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(t.ball_radius_mm, R, TOL);
        CU_ASSERT_DOUBLE_EQUAL(t.corner_mouth_mm, 115.9, 0.05);
    }
    /* 8-ft WPA: centre string 1168.4 mm, long string 584.2 mm. */
    CU_ASSERT_EQUAL_FATAL(cr_table_parse("8ft", &t), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_centre_string_x(&t), 1168.4, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_long_string_y(&t), 584.2, 1e-6);
}

static void test_parse_lxw(void)
{
    cr_table_t t;

    CU_ASSERT_EQUAL_FATAL(cr_table_parse("2540x1270", &t), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(t.length_mm, 2540.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(t.width_mm, 1270.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(t.side_mouth_mm, 128.6, 0.05);
    CU_ASSERT_EQUAL_FATAL(cr_table_parse("2336.8x1168.4", &t), CR_OK);
    CU_ASSERT_EQUAL(t.length_mm, 2336.8); /* the same double as the literal */
    CU_ASSERT_EQUAL(t.width_mm, 1168.4);
    CU_ASSERT_EQUAL_FATAL(cr_table_parse("500x500", &t), CR_OK); /* limits included */
    CU_ASSERT_DOUBLE_EQUAL(t.length_mm, 500.0, TOL);
    CU_ASSERT_EQUAL_FATAL(cr_table_parse("5000x2500.25", &t), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(t.length_mm, 5000.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(t.width_mm, 2500.25, TOL);
}

static void test_parse_rejects(void)
{
    static const char *bad[] = {
        "",           "9",          "abc",        "100x5000",  "-2540x1270", "2540x-1270", "1270x2540",
        "2540x1270 ", " 2540x1270", "2540X1270",  "2540x",     "x1270",      "2540x1270x1", "2540.x1270",
        ".5x1270",    "5001x1000",  "2540x499",   "1e3x600",   "0x10x5",     "infxinf",    "nanxnan",
        "+2540x1270", "2540,5x1270", "9ft ",      "9FT",       "10ft",       "2540 x 1270", "2540x1270.",
        "0x0",        "2540.0000000000001x1270",
    };
    cr_table_t t, sentinel;
    size_t i;

    memset(&sentinel, 0x5a, sizeof(sentinel));
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        t = sentinel;
        CU_ASSERT_EQUAL(cr_table_parse(bad[i], &t), CR_ERR_INVALID);
        CU_ASSERT(memcmp(&t, &sentinel, sizeof(t)) == 0); /* untouched */
    }
    CU_ASSERT_EQUAL(cr_table_parse(NULL, &t), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_parse("9ft", NULL), CR_ERR_INVALID);
}

static void test_behind_head_string(void)
{
    cr_table_t t = t9();

    CU_ASSERT_TRUE(cr_table_behind_head_string(&t, 0.0));
    CU_ASSERT_TRUE(cr_table_behind_head_string(&t, 634.999));
    CU_ASSERT_FALSE(cr_table_behind_head_string(&t, 635.0)); /* on the string: not behind (8.1) */
    CU_ASSERT_FALSE(cr_table_behind_head_string(&t, 635.001));
    CU_ASSERT_FALSE(cr_table_behind_head_string(&t, 1905.0));
}

/* ---- pockets, cushions, diamonds ---------------------------------------- */

static void test_pocket_points(void)
{
    static const double want[CR_POCKET_COUNT][2] = {{0, 0}, {0, 1270}, {1270, 0}, {1270, 1270}, {2540, 0}, {2540, 1270}};
    cr_table_t t = t9();
    cr_point_t p;
    int i;

    for (i = 0; i < CR_POCKET_COUNT; i++) {
        p = cr_table_pocket_point(&t, (cr_pocket_t)i);
        CU_ASSERT_DOUBLE_EQUAL(p.x, want[i][0], TOL);
        CU_ASSERT_DOUBLE_EQUAL(p.y, want[i][1], TOL);
    }
}

/* Past a mouth: on the far side of the jaw points' line from the centre. */
static void test_past_mouth(void)
{
    cr_table_t t = t9();
    cr_point_t a, b, c, m;

    for (int i = 0; i < CR_POCKET_COUNT; i++) {
        CU_ASSERT_EQUAL_FATAL(cr_table_pocket_mouth(&t, (cr_pocket_t)i, &a, &b), CR_OK);
        c = cr_table_pocket_point(&t, (cr_pocket_t)i);
        m.x = (a.x + b.x) / 2;
        m.y = (a.y + b.y) / 2;
        CU_ASSERT_TRUE(cr_table_past_mouth(&t, (cr_pocket_t)i, c.x, c.y));
        CU_ASSERT_FALSE(cr_table_past_mouth(&t, (cr_pocket_t)i, 1270.0, 635.0));
        /* a millimetre either side of the mouth's middle, along the line to the pocket point */
        if (dist(m.x, m.y, c.x, c.y) > 1e-9) {
            double ux = (c.x - m.x) / dist(m.x, m.y, c.x, c.y), uy = (c.y - m.y) / dist(m.x, m.y, c.x, c.y);

            CU_ASSERT_TRUE(cr_table_past_mouth(&t, (cr_pocket_t)i, m.x + ux, m.y + uy));
            CU_ASSERT_FALSE(cr_table_past_mouth(&t, (cr_pocket_t)i, m.x - ux, m.y - uy));
        } else { /* a side pocket: its point is the mouth's middle */
            CU_ASSERT_TRUE(cr_table_past_mouth(&t, (cr_pocket_t)i, c.x, c.y > 0 ? c.y + 1 : -1));
            CU_ASSERT_FALSE(cr_table_past_mouth(&t, (cr_pocket_t)i, c.x, c.y > 0 ? c.y - 1 : 1));
        }
    }
    CU_ASSERT_FALSE(cr_table_past_mouth(&t, CR_POCKET_COUNT, 0, 0));
    CU_ASSERT_FALSE(cr_table_past_mouth(NULL, CR_POCKET_HEAD_LEFT, 0, 0));
}

static void test_pocket_mouths(void)
{
    cr_table_t t = t9();
    cr_point_t a, b, c;
    int i;

    for (i = 0; i < CR_POCKET_COUNT; i++) {
        const bool side = i == CR_POCKET_SIDE_LEFT || i == CR_POCKET_SIDE_RIGHT;
        const double mouth = side ? t.side_mouth_mm : t.corner_mouth_mm;

        CU_ASSERT_EQUAL(cr_pocket_is_side((cr_pocket_t)i), side);
        CU_ASSERT_DOUBLE_EQUAL(cr_table_mouth_width(&t, (cr_pocket_t)i), mouth, 1e-12);
        CU_ASSERT_EQUAL_FATAL(cr_table_pocket_mouth(&t, (cr_pocket_t)i, &a, &b), CR_OK);
        c = cr_table_pocket_point(&t, (cr_pocket_t)i);
        CU_ASSERT_DOUBLE_EQUAL(dist(a.x, a.y, b.x, b.y), mouth, 1e-9);
        /* Both jaw points on the table's outline, inside [0, L] x [0, W]. */
        CU_ASSERT(a.x >= 0.0 && a.x <= 2540.0 && a.y >= 0.0 && a.y <= 1270.0);
        CU_ASSERT(b.x >= 0.0 && b.x <= 2540.0 && b.y >= 0.0 && b.y <= 1270.0);
        if (side) {
            CU_ASSERT_DOUBLE_EQUAL(a.y, c.y, TOL);
            CU_ASSERT_DOUBLE_EQUAL(b.y, c.y, TOL);
            CU_ASSERT_DOUBLE_EQUAL(a.x, 1270.0 - 64.29375, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(b.x, 1270.0 + 64.29375, 1e-9);
        } else {
            /* a on the long cushion's line, b on the end cushion's, each
             * mouth/sqrt2 = 81.94 mm from the corner. */
            CU_ASSERT_DOUBLE_EQUAL(a.y, c.y, TOL);
            CU_ASSERT_DOUBLE_EQUAL(fabs(a.x - c.x), 81.9448, 1e-3);
            CU_ASSERT_DOUBLE_EQUAL(b.x, c.x, TOL);
            CU_ASSERT_DOUBLE_EQUAL(fabs(b.y - c.y), 81.9448, 1e-3);
        }
    }
    /* Foot-right corner: jaws at (L - 81.94, W) and (L, W - 81.94). */
    CU_ASSERT_EQUAL(cr_table_pocket_mouth(&t, CR_POCKET_FOOT_RIGHT, &a, &b), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(a.x, 2540.0 - 81.9448, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(a.y, 1270.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(b.x, 2540.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(b.y, 1270.0 - 81.9448, 1e-3);
    /* A custom mouth width is honoured. */
    t.corner_mouth_mm = 120.0;
    CU_ASSERT_EQUAL(cr_table_pocket_mouth(&t, CR_POCKET_HEAD_LEFT, &a, &b), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(dist(a.x, a.y, b.x, b.y), 120.0, 1e-9);

    CU_ASSERT_EQUAL(cr_table_pocket_mouth(&t, CR_POCKET_NONE, &a, &b), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_pocket_mouth(&t, CR_POCKET_COUNT, &a, &b), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_pocket_mouth(&t, CR_POCKET_HEAD_LEFT, NULL, &b), CR_ERR_INVALID);
}

static void test_cushion_segments(void)
{
    cr_table_t t = t9();
    cr_point_t a[2], b[2], ja, jb;
    const double dc = 81.9448;  /* corner jaw from the corner, mm */
    const double ds = 64.29375; /* side jaw from L/2, mm */

    CU_ASSERT_EQUAL_FATAL(cr_table_cushion_segments(&t, CR_RAIL_HEAD, a, b), 1);
    CU_ASSERT_DOUBLE_EQUAL(a[0].x, 0.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(b[0].x, 0.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(a[0].y, dc, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(b[0].y, 1270.0 - dc, 1e-3);

    CU_ASSERT_EQUAL_FATAL(cr_table_cushion_segments(&t, CR_RAIL_FOOT, a, b), 1);
    CU_ASSERT_DOUBLE_EQUAL(a[0].x, 2540.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(b[0].x, 2540.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(b[0].y - a[0].y, 1270.0 - 2.0 * dc, 1e-3);

    CU_ASSERT_EQUAL_FATAL(cr_table_cushion_segments(&t, CR_RAIL_RIGHT, a, b), 2);
    CU_ASSERT_DOUBLE_EQUAL(a[0].y, 1270.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(a[1].y, 1270.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(a[0].x, dc, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(b[0].x, 1270.0 - ds, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(a[1].x, 1270.0 + ds, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(b[1].x, 2540.0 - dc, 1e-3);

    /* The segments end exactly at the jaw points of the pockets. */
    CU_ASSERT_EQUAL_FATAL(cr_table_cushion_segments(&t, CR_RAIL_LEFT, a, b), 2);
    CU_ASSERT_EQUAL(cr_table_pocket_mouth(&t, CR_POCKET_HEAD_LEFT, &ja, &jb), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(a[0].x, ja.x, TOL);
    CU_ASSERT_DOUBLE_EQUAL(a[0].y, ja.y, TOL);
    CU_ASSERT_EQUAL(cr_table_pocket_mouth(&t, CR_POCKET_SIDE_LEFT, &ja, &jb), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(b[0].x, ja.x, TOL);
    CU_ASSERT_DOUBLE_EQUAL(a[1].x, jb.x, TOL);
    CU_ASSERT_EQUAL(cr_table_pocket_mouth(&t, CR_POCKET_FOOT_LEFT, &ja, &jb), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(b[1].x, ja.x, TOL);
    CU_ASSERT_EQUAL(cr_table_pocket_mouth(&t, CR_POCKET_HEAD_LEFT, &ja, &jb), CR_OK);
    CU_ASSERT_EQUAL(cr_table_cushion_segments(&t, CR_RAIL_HEAD, a, b), 1);
    CU_ASSERT_DOUBLE_EQUAL(a[0].y, jb.y, TOL);

    CU_ASSERT_EQUAL(cr_table_cushion_segments(&t, CR_RAIL_NONE, a, b), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_cushion_segments(&t, CR_RAIL_COUNT, a, b), CR_ERR_INVALID);
}

static void test_distance_to_rail(void)
{
    cr_table_t t = t9();
    cr_point_t p = {100.0, 200.0};
    cr_point_t out = {-5.0, 1275.0}; /* beyond the head and right noses */

    CU_ASSERT_DOUBLE_EQUAL(cr_table_distance_to_rail(&t, CR_RAIL_HEAD, p), 100.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_distance_to_rail(&t, CR_RAIL_FOOT, p), 2440.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_distance_to_rail(&t, CR_RAIL_LEFT, p), 200.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_distance_to_rail(&t, CR_RAIL_RIGHT, p), 1070.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_distance_to_rail(&t, CR_RAIL_HEAD, out), -5.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_distance_to_rail(&t, CR_RAIL_RIGHT, out), -5.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_distance_to_rail(&t, CR_RAIL_FOOT, out), 2545.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_distance_to_rail(&t, CR_RAIL_LEFT, out), 1275.0, TOL);
    /* A ball frozen to the foot cushion: centre R from the nose. */
    p.x = 2540.0 - R;
    CU_ASSERT_DOUBLE_EQUAL(cr_table_distance_to_rail(&t, CR_RAIL_FOOT, p), R, TOL);
    CU_ASSERT_TRUE(isnan(cr_table_distance_to_rail(&t, CR_RAIL_NONE, p)));
}

static cr_point_t pt(double x, double y)
{
    cr_point_t p = {x, y};

    return p;
}

/* The cushion a ball can touch: the nose line along the rail, the jaw's
 * facing in a pocket mouth (where the nose line alone would say the ball
 * is on the cushion, or past it). */
static void test_cushion_distance(void)
{
    cr_table_t t;
    const double pi = 3.14159265358979323846;
    cr_point_t ja, jb;

    cr_table_init(&t, 2540.0, 1270.0);
    /* along the rails: the nose line */
    CU_ASSERT_DOUBLE_EQUAL(cr_table_cushion_distance(&t, CR_RAIL_HEAD, pt(40.0, 635.0)), 40.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_cushion_distance(&t, CR_RAIL_FOOT, pt(2500.0, 300.0)), 40.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_cushion_distance(&t, CR_RAIL_LEFT, pt(600.0, R)), R, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(cr_table_cushion_distance(&t, CR_RAIL_RIGHT, pt(1900.0, 1270.0 - 35.0)), 35.0,
                           1e-9);
    /* a ball touching the head-left corner's facing on the left rail: the
     * left nose runs from ja toward +x, the facing turns 142 degrees from it
     * toward the pocket and the cushion (-y) */
    CU_ASSERT_EQUAL_FATAL(cr_table_pocket_mouth(&t, CR_POCKET_HEAD_LEFT, &ja, &jb), 0);
    {
        double b = 142.0 * pi / 180.0, f[2] = {cos(b), -sin(b)}, n[2] = {-f[1], f[0]};
        cr_point_t q;

        if (n[0] * (0.5 * (jb.x - ja.x)) + n[1] * (0.5 * (jb.y - ja.y)) < 0) {
            n[0] = -n[0];
            n[1] = -n[1];
        }
        q = pt(ja.x + 30.0 * f[0] + R * n[0], ja.y + 30.0 * f[1] + R * n[1]);
        CU_ASSERT_DOUBLE_EQUAL(cr_table_cushion_distance(&t, CR_RAIL_LEFT, q), R, 1e-9);
        CU_ASSERT(cr_table_distance_to_rail(&t, CR_RAIL_LEFT, q) < R - 5.0); /* the nose line: nearer */
    }
    /* the side pocket: the facing at x = L/2 - mouth/2 turns 104 degrees
     * from the nose (running toward -x) toward +x and the cushion (+y) */
    CU_ASSERT_EQUAL_FATAL(cr_table_pocket_mouth(&t, CR_POCKET_SIDE_RIGHT, &ja, &jb), 0);
    {
        double b = 104.0 * pi / 180.0, f[2] = {-cos(b), sin(b)}, n[2] = {f[1], -f[0]};
        cr_point_t q;

        if (n[0] < 0) {
            n[0] = -n[0];
            n[1] = -n[1];
        }
        q = pt(ja.x + 15.0 * f[0] + R * n[0], ja.y + 15.0 * f[1] + R * n[1]);
        CU_ASSERT_DOUBLE_EQUAL(cr_table_cushion_distance(&t, CR_RAIL_RIGHT, q), R, 1e-9);
    }
    /* in the middle of a side pocket's mouth, on the nose line: the facings,
     * which lean in over the pocket (104 > 90 degrees), are nearer than the
     * jaw points half a mouth away */
    CU_ASSERT_DOUBLE_EQUAL(cr_table_cushion_distance(&t, CR_RAIL_RIGHT, pt(1270.0, 1270.0)),
                           0.5 * t.side_mouth_mm * sin(104.0 * pi / 180.0), 1e-9);
    CU_ASSERT(isnan(cr_table_cushion_distance(&t, (cr_rail_t)7, pt(0, 0))));
    /* the piece measured to: a ball rolling along the right rail past the
     * side pocket's jaw point gets the nose line, not the facing, even
     * where the jaw point itself is nearest */
    {
        cr_point_t on;
        double dir[2], d;

        d = cr_table_cushion_piece(&t, CR_RAIL_RIGHT, pt(ja.x + 10.0, 1270.0 - R), &on, dir);
        CU_ASSERT_DOUBLE_EQUAL(d, hypot(10.0, R), 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(fabs(dir[0]), 1.0, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(on.x, ja.x, 1e-9); /* the jaw point */
        CU_ASSERT_DOUBLE_EQUAL(on.y, 1270.0, 1e-9);
        d = cr_table_cushion_piece(&t, CR_RAIL_RIGHT, pt(800.0, 1240.0), &on, dir);
        CU_ASSERT_DOUBLE_EQUAL(d, 30.0, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(on.x, 800.0, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(on.y, 1270.0, 1e-9);
        CU_ASSERT(isnan(cr_table_cushion_piece(&t, CR_RAIL_RIGHT, pt(800.0, 1240.0), NULL, dir)));
    }
}

static void test_diamonds(void)
{
    cr_table_t t = t9();
    cr_point_t d[CR_TABLE_DIAMOND_COUNT + 2];
    int n, i, on_left = 0, on_right = 0, on_head = 0, on_foot = 0, at_head_string = 0, at_foot_string = 0;

    CU_ASSERT_EQUAL(CR_TABLE_DIAMOND_COUNT, 18);
    n = cr_table_diamonds(&t, d, CR_TABLE_DIAMOND_COUNT + 2);
    CU_ASSERT_EQUAL_FATAL(n, 18);
    for (i = 0; i < n; i++) {
        if (d[i].y == 0.0)
            on_left++;
        else if (d[i].y == 1270.0)
            on_right++;
        else if (d[i].x == 0.0)
            on_head++;
        else if (d[i].x == 2540.0)
            on_foot++;
        /* Never at a side pocket (x = L/2 on a long rail) or a corner. */
        CU_ASSERT(!(fabs(d[i].x - 1270.0) < 1e-6 && (d[i].y == 0.0 || d[i].y == 1270.0)));
        CU_ASSERT(!((d[i].x == 0.0 || d[i].x == 2540.0) && (d[i].y == 0.0 || d[i].y == 1270.0)));
        /* RULES.md §5.2: the head string joins the second diamonds (k = 2). */
        if (fabs(d[i].x - 635.0) < 1e-9)
            at_head_string++;
        if (fabs(d[i].x - 1905.0) < 1e-9)
            at_foot_string++;
    }
    CU_ASSERT_EQUAL(on_left, 6);
    CU_ASSERT_EQUAL(on_right, 6);
    CU_ASSERT_EQUAL(on_head, 3);
    CU_ASSERT_EQUAL(on_foot, 3);
    CU_ASSERT_EQUAL(at_head_string, 2);
    CU_ASSERT_EQUAL(at_foot_string, 2);
    /* Sight spacing 317.5 mm (12.5 in). */
    CU_ASSERT_DOUBLE_EQUAL(d[0].x, 317.5, TOL);
    CU_ASSERT_DOUBLE_EQUAL(d[1].x - d[0].x, 317.5, TOL);
    CU_ASSERT_EQUAL(cr_table_diamonds(&t, d, 5), 5);
    CU_ASSERT_EQUAL(cr_table_diamonds(&t, d, 0), 0);
}

/* ---- racks ---------------------------------------------------------------- */

/* Checks that no two balls overlap, and returns how many pairs touch. */
static int check_rack_spacing(const cr_point_t *s, int n)
{
    int i, j, touching = 0;
    double d;

    for (i = 0; i < n; i++) {
        for (j = i + 1; j < n; j++) {
            d = dist(s[i].x, s[i].y, s[j].x, s[j].y);
            CU_ASSERT(d >= D2R - 1e-6);
            if (fabs(d - D2R) < 1e-6)
                touching++;
        }
    }
    return touching;
}

static void test_rack_slots_15(void)
{
    /* RULES.md §5.6: row offsets from the foot spot. */
    static const double row_dx[5] = {0.0, 49.49, 98.99, 148.48, 197.97};
    static const int row_of[15] = {0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4};
    cr_table_t t = t9();
    cr_point_t s[CR_TABLE_RACK_MAX];
    int n, i;

    n = cr_table_rack_slots(&t, CR_GAME_8BALL, CR_EDITION_WPA2008, s, CR_TABLE_RACK_MAX);
    CU_ASSERT_EQUAL_FATAL(n, 15);
    CU_ASSERT_DOUBLE_EQUAL(s[0].x, 1905.0, TOL); /* apex on the foot spot */
    CU_ASSERT_DOUBLE_EQUAL(s[0].y, 635.0, TOL);
    for (i = 0; i < 15; i++)
        CU_ASSERT_DOUBLE_EQUAL(s[i].x - 1905.0, row_dx[row_of[i]], 0.006);
    /* 9-ft back row at 2102.97 mm, edge 408.5 mm from the foot nose. */
    for (i = 10; i < 15; i++)
        CU_ASSERT_DOUBLE_EQUAL(s[i].x, 2102.97, TOL_PRINTED);
    CU_ASSERT_DOUBLE_EQUAL(2540.0 - (s[10].x + R), 408.5, 0.05);
    /* Back row y: W/2 + (2k - 4) R. */
    CU_ASSERT_DOUBLE_EQUAL(s[10].y, 635.0 - 4.0 * R, TOL);
    CU_ASSERT_DOUBLE_EQUAL(s[14].y, 635.0 + 4.0 * R, TOL);
    CU_ASSERT_DOUBLE_EQUAL(s[4].y, 635.0, TOL); /* row 3 middle */
    /* A 5-row triangle has 3 * (4 + 3 + 2 + 1) = 30 touching pairs. */
    CU_ASSERT_EQUAL(check_rack_spacing(s, n), 30);

    CU_ASSERT_EQUAL(cr_table_rack_slots(&t, CR_GAME_14_1, CR_EDITION_WPA2025, s, 15), 15);
    CU_ASSERT_DOUBLE_EQUAL(s[0].x, 1905.0, TOL); /* the 2025 change is 9-ball only */
    CU_ASSERT_EQUAL(cr_table_rack_slots(&t, CR_GAME_8BALL, CR_EDITION_WPA2008, s, 14), CR_ERR_FULL);
    CU_ASSERT_EQUAL(cr_table_rack_slots(&t, CR_GAME_NONE, CR_EDITION_WPA2008, s, 15), 0);
    CU_ASSERT_EQUAL(cr_table_rack_slots(&t, CR_GAME_COUNT, CR_EDITION_WPA2008, s, 15), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_rack_slots(&t, CR_GAME_8BALL, (cr_edition_t)7, s, 15), CR_ERR_INVALID);
}

static void test_rack_slots_9_10(void)
{
    cr_table_t t = t9();
    cr_point_t s[CR_TABLE_RACK_MAX];
    int n;

    n = cr_table_rack_slots(&t, CR_GAME_9BALL, CR_EDITION_WPA2008, s, CR_TABLE_RACK_MAX);
    CU_ASSERT_EQUAL_FATAL(n, 9);
    CU_ASSERT_DOUBLE_EQUAL(s[0].x, 1905.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(s[8].x, 1905.0 + 197.97, TOL_PRINTED); /* back point of the diamond */
    CU_ASSERT_DOUBLE_EQUAL(s[8].y, 635.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(s[6].y, 635.0 - R, TOL); /* row of 2 */
    /* Two 3-row triangles sharing a row of 3: 9 + 9 - 2 touching pairs. */
    CU_ASSERT_EQUAL(check_rack_spacing(s, n), 16);

    n = cr_table_rack_slots(&t, CR_GAME_9BALL, CR_EDITION_WPA2025, s, CR_TABLE_RACK_MAX);
    CU_ASSERT_EQUAL_FATAL(n, 9);
    CU_ASSERT_DOUBLE_EQUAL(s[0].x, 1905.0 - 98.99, TOL_PRINTED);
    CU_ASSERT_DOUBLE_EQUAL(s[4].x, 1905.0, TOL); /* the centre on the foot spot */
    CU_ASSERT_DOUBLE_EQUAL(s[4].y, 635.0, TOL);
    CU_ASSERT_EQUAL(check_rack_spacing(s, n), 16);
    CU_ASSERT_EQUAL(cr_table_rack_slots(&t, CR_GAME_9BALL, CR_EDITION_WPA2008, s, 8), CR_ERR_FULL);

    n = cr_table_rack_slots(&t, CR_GAME_10BALL, CR_EDITION_WPA2008, s, CR_TABLE_RACK_MAX);
    CU_ASSERT_EQUAL_FATAL(n, 10);
    CU_ASSERT_DOUBLE_EQUAL(s[0].x, 1905.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(s[9].x, 1905.0 + 148.48, TOL_PRINTED);
    CU_ASSERT_DOUBLE_EQUAL(s[6].y, 635.0 - 3.0 * R, TOL);
    /* A 4-row triangle: 3 * (3 + 2 + 1) = 18 touching pairs. */
    CU_ASSERT_EQUAL(check_rack_spacing(s, n), 18);
}

/* ids of a rack are a permutation of 1..n. */
static void check_permutation(const cr_ball_pos_t *b, int n)
{
    int seen[CR_NUM_BALLS] = {0};
    int i;

    for (i = 0; i < n; i++) {
        CU_ASSERT_FATAL(b[i].id >= 1 && b[i].id <= n);
        seen[b[i].id]++;
    }
    for (i = 1; i <= n; i++)
        CU_ASSERT_EQUAL(seen[i], 1);
}

static void test_rack_8ball(void)
{
    cr_table_t t = t9();
    cr_ball_pos_t b[CR_TABLE_RACK_MAX], b2[CR_TABLE_RACK_MAX];
    int seed, i, n, solid_left = 0, solid_right = 0, differ = 0, back = 0;

    for (seed = 0; seed < 300; seed++) {
        n = cr_table_rack(&t, CR_GAME_8BALL, CR_EDITION_WPA2008, (uint64_t)seed * 7919u, b, CR_TABLE_RACK_MAX);
        CU_ASSERT_EQUAL_FATAL(n, 15);
        check_permutation(b, n);
        back = 0;
        for (i = 0; i < n; i++) {
            /* The 8 in the middle of the third row (x_FS + 98.99, W/2). */
            if (b[i].id == 8) {
                CU_ASSERT_DOUBLE_EQUAL(b[i].x, 1905.0 + 98.99, TOL_PRINTED);
                CU_ASSERT_DOUBLE_EQUAL(b[i].y, 635.0, TOL);
            }
            /* The back corners: x = 2102.97 and y = W/2 -+ 4R. */
            if (fabs(b[i].x - 2102.97) < TOL_PRINTED && fabs(fabs(b[i].y - 635.0) - 4.0 * R) < 1e-6) {
                back++;
                if (b[i].y < 635.0 && b[i].id < 8)
                    solid_left++;
                if (b[i].y > 635.0 && b[i].id < 8)
                    solid_right++;
            }
        }
        CU_ASSERT_EQUAL(back, 2);
        /* One solid, one stripe. */
        CU_ASSERT((b[10].id < 8) != (b[14].id < 8));
        CU_ASSERT(b[10].id != 8 && b[14].id != 8);
        if (seed > 0) {
            for (i = 0; i < n; i++)
                differ += b[i].id != b2[i].id;
        }
        memcpy(b2, b, sizeof(b));
    }
    /* Both corner layouts occur and the racks change with the seed. */
    CU_ASSERT(solid_left > 50);
    CU_ASSERT(solid_right > 50);
    CU_ASSERT(differ > 1000);
}

static void test_rack_deterministic(void)
{
    cr_table_t t = t9();
    cr_ball_pos_t a[CR_TABLE_RACK_MAX], b[CR_TABLE_RACK_MAX];
    int i, same = 1;

    CU_ASSERT_EQUAL(cr_table_rack(&t, CR_GAME_14_1, CR_EDITION_WPA2008, 12345u, a, CR_TABLE_RACK_MAX), 15);
    CU_ASSERT_EQUAL(cr_table_rack(&t, CR_GAME_14_1, CR_EDITION_WPA2008, 12345u, b, CR_TABLE_RACK_MAX), 15);
    for (i = 0; i < 15; i++) {
        CU_ASSERT_EQUAL(a[i].id, b[i].id);
        CU_ASSERT_DOUBLE_EQUAL(a[i].x, b[i].x, 0.0);
        CU_ASSERT_DOUBLE_EQUAL(a[i].y, b[i].y, 0.0);
    }
    check_permutation(a, 15);
    CU_ASSERT_EQUAL(cr_table_rack(&t, CR_GAME_14_1, CR_EDITION_WPA2008, 12346u, b, CR_TABLE_RACK_MAX), 15);
    for (i = 0; i < 15; i++)
        same &= a[i].id == b[i].id;
    CU_ASSERT_FALSE(same);

    CU_ASSERT_EQUAL(cr_table_rack(&t, CR_GAME_NONE, CR_EDITION_WPA2008, 1u, a, CR_TABLE_RACK_MAX), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_rack(&t, CR_GAME_8BALL, CR_EDITION_WPA2008, 1u, a, 14), CR_ERR_FULL);
    CU_ASSERT_EQUAL(cr_table_rack(&t, CR_GAME_10BALL, CR_EDITION_WPA2008, 1u, a, 9), CR_ERR_FULL);
}

static void test_rack_9ball(void)
{
    cr_table_t t = t9();
    cr_ball_pos_t b[CR_TABLE_RACK_MAX];
    int seed, i, n;

    for (seed = 0; seed < 50; seed++) {
        n = cr_table_rack(&t, CR_GAME_9BALL, CR_EDITION_WPA2008, (uint64_t)seed, b, CR_TABLE_RACK_MAX);
        CU_ASSERT_EQUAL_FATAL(n, 9);
        check_permutation(b, n);
        for (i = 0; i < n; i++) {
            if (b[i].id == 1) { /* 2008: the 1 on the foot spot */
                CU_ASSERT_DOUBLE_EQUAL(b[i].x, 1905.0, TOL);
                CU_ASSERT_DOUBLE_EQUAL(b[i].y, 635.0, TOL);
            }
            if (b[i].id == 9) {
                CU_ASSERT_DOUBLE_EQUAL(b[i].x, 1905.0 + 98.99, TOL_PRINTED);
                CU_ASSERT_DOUBLE_EQUAL(b[i].y, 635.0, TOL);
            }
        }
        n = cr_table_rack(&t, CR_GAME_9BALL, CR_EDITION_WPA2025, (uint64_t)seed, b, CR_TABLE_RACK_MAX);
        CU_ASSERT_EQUAL_FATAL(n, 9);
        check_permutation(b, n);
        for (i = 0; i < n; i++) {
            if (b[i].id == 9) { /* 2025: the 9 on the foot spot */
                CU_ASSERT_DOUBLE_EQUAL(b[i].x, 1905.0, TOL);
                CU_ASSERT_DOUBLE_EQUAL(b[i].y, 635.0, TOL);
            }
            if (b[i].id == 1) {
                CU_ASSERT_DOUBLE_EQUAL(b[i].x, 1905.0 - 98.99, TOL_PRINTED);
                CU_ASSERT_DOUBLE_EQUAL(b[i].y, 635.0, TOL);
            }
        }
    }
}

static void test_rack_10ball(void)
{
    cr_table_t t = t9();
    cr_ball_pos_t b[CR_TABLE_RACK_MAX];
    int seed, i, n, ten_seen;

    for (seed = 0; seed < 50; seed++) {
        n = cr_table_rack(&t, CR_GAME_10BALL, CR_EDITION_WPA2025, (uint64_t)seed, b, CR_TABLE_RACK_MAX);
        CU_ASSERT_EQUAL_FATAL(n, 10);
        check_permutation(b, n);
        CU_ASSERT_EQUAL(b[0].id, 1);
        CU_ASSERT_DOUBLE_EQUAL(b[0].x, 1905.0, TOL);
        ten_seen = 0;
        for (i = 0; i < n; i++) {
            if (b[i].id == 10) { /* third row (3 balls), middle */
                CU_ASSERT_DOUBLE_EQUAL(b[i].x, 1905.0 + 98.99, TOL_PRINTED);
                CU_ASSERT_DOUBLE_EQUAL(b[i].y, 635.0, TOL);
                ten_seen = 1;
            }
            CU_ASSERT(b[i].x < 1905.0 + 148.48 + TOL_PRINTED);
        }
        CU_ASSERT_TRUE(ten_seen);
    }
}

static void test_rack_outline(void)
{
    cr_table_t t = t9();
    cr_point_t tri[3], s[CR_TABLE_RACK_MAX], p;
    int i;

    cr_table_rack_outline(&t, tri);
    /* RULES.md §5.6: apex vertex at x_FS - 57.15 mm, side about 327.6 mm. */
    CU_ASSERT_DOUBLE_EQUAL(tri[0].x, 1905.0 - 57.15, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(tri[0].y, 635.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(dist(tri[0].x, tri[0].y, tri[1].x, tri[1].y), 327.59, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(dist(tri[1].x, tri[1].y, tri[2].x, tri[2].y), 327.59, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(dist(tri[2].x, tri[2].y, tri[0].x, tri[0].y), 327.59, 0.01);
    /* Back side R behind the back-row centres (2102.97 mm). */
    CU_ASSERT_DOUBLE_EQUAL(tri[1].x, 2102.97 + R, TOL_PRINTED);
    CU_ASSERT(tri[1].y < tri[2].y);

    /* Every racked ball interferes; the apex slot in particular. */
    CU_ASSERT_EQUAL_FATAL(cr_table_rack_slots(&t, CR_GAME_14_1, CR_EDITION_WPA2008, s, 15), 15);
    for (i = 0; i < 15; i++)
        CU_ASSERT_TRUE(cr_table_in_rack_outline(&t, s[i]));
    CU_ASSERT_TRUE(cr_table_in_rack_outline(&t, s[0]));
    CU_ASSERT_FALSE(cr_table_in_rack_outline(&t, cr_table_head_spot(&t)));
    CU_ASSERT_FALSE(cr_table_in_rack_outline(&t, cr_table_centre_spot(&t)));
    /* In front of the apex vertex: touching the line counts, a gap does not. */
    p.y = 635.0;
    p.x = 1905.0 - 57.15 - R + 0.01;
    CU_ASSERT_TRUE(cr_table_in_rack_outline(&t, p));
    p.x = 1905.0 - 57.15 - R - 0.01;
    CU_ASSERT_FALSE(cr_table_in_rack_outline(&t, p));
    /* Behind the back side. */
    p.x = 2102.97 + 2.0 * R - 0.1;
    CU_ASSERT_TRUE(cr_table_in_rack_outline(&t, p));
    p.x = 2102.97 + 2.0 * R + 0.1;
    CU_ASSERT_FALSE(cr_table_in_rack_outline(&t, p));
    /* Beside the third row (x_FS + 98.99): the side of the outline passes
     * 90.13 mm from the long string there, so a ball centred 4R = 114.3 mm
     * out overlaps it (20.9 mm past the line) and one at 4R + 20 does not
     * (38.3 mm clear of it, more than R). */
    p.x = 1905.0 + 98.99;
    p.y = 635.0 + 4.0 * R;
    CU_ASSERT_TRUE(cr_table_in_rack_outline(&t, p));
    p.y = 635.0 - 4.0 * R - 20.0;
    CU_ASSERT_FALSE(cr_table_in_rack_outline(&t, p));
    p.y = 635.0 + 400.0;
    CU_ASSERT_FALSE(cr_table_in_rack_outline(&t, p));
}

/* ---- spotting (RULES.md §4.9) -------------------------------------------- */

static cr_ball_pos_t ball(int id, double x, double y)
{
    cr_ball_pos_t b;

    b.id = id;
    b.x = x;
    b.y = y;
    return b;
}

static void test_spot_empty(void)
{
    cr_table_t t = t9();
    cr_ball_pos_t out[3];
    const int ids[3] = {3, 5, 7};

    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, NULL, 0, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_EQUAL(out[0].id, 3);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1905.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(out[0].y, 635.0, TOL);
    /* Several balls, in the order given, each frozen behind the last. */
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, NULL, 0, ids, 3, 5.0, out), CR_OK);
    CU_ASSERT_EQUAL(out[0].id, 3);
    CU_ASSERT_EQUAL(out[1].id, 5);
    CU_ASSERT_EQUAL(out[2].id, 7);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1905.0, TOL);
    CU_ASSERT_DOUBLE_EQUAL(out[1].x, 1962.15, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(out[2].x, 2019.3, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(out[2].y, 635.0, TOL);
    CU_ASSERT_EQUAL(cr_table_spot_balls(&t, NULL, 0, ids, 0, 5.0, out), CR_OK);
}

static void test_spot_frozen(void)
{
    cr_table_t t = t9();
    cr_ball_pos_t on[2], out[2];
    const int ids[2] = {2, 4};

    /* A ball on the foot spot: the next one frozen behind it. */
    on[0] = ball(6, 1905.0, 635.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 1, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1905.0 + D2R, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1962.15, 1e-6);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 1, ids, 2, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1962.15, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(out[1].x, 2019.3, 1e-6);
    CU_ASSERT_EQUAL(out[1].id, 4);

    /* An unidentified ball blocks like an object ball. */
    on[0] = ball(CR_BALL_UNKNOWN, 1905.0, 635.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 1, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1962.15, 1e-6);

    /* A ball off the line at dy = 20 mm, 30 mm behind the spot: blocks
     * |x - 1935| < sqrt(57.15^2 - 20^2) = 53.536 mm. */
    on[0] = ball(6, 1935.0, 655.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 1, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1988.5362, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(dist(out[0].x, out[0].y, on[0].x, on[0].y), D2R, 1e-6); /* frozen */

    /* A ball 2R off the line blocks nothing: a ball spotted level with it
     * just touches it. */
    on[0] = ball(6, 1905.0, 635.0 + D2R);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 1, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1905.0, TOL);

    /* A ball exactly 2R behind the spot leaves it free. */
    on[0] = ball(6, 1905.0 + D2R, 635.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 1, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1905.0, TOL);
}

static void test_spot_gaps(void)
{
    cr_table_t t = t9();
    cr_ball_pos_t on[2], out[1];
    const int ids[1] = {9};

    /* Room between two balls: 1982.15 .. 2042.85 is free. */
    on[0] = ball(1, 1925.0, 635.0);
    on[1] = ball(2, 2100.0, 635.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 2, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1982.15, 1e-6);
    /* Too little room (105 mm between centres < 2 * 57.15): behind the second. */
    on[1] = ball(2, 2030.0, 635.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 2, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 2087.15, 1e-6);
    /* Exactly room for one ball (2 * 57.15 between centres): frozen to both. */
    on[1] = ball(2, 1925.0 + 2.0 * D2R, 635.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 2, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1982.15, 1e-6);
    /* The ball being spotted is not on the table even when listed. */
    on[0] = ball(9, 1905.0, 635.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 1, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1905.0, TOL);
}

static void test_spot_cue_gap(void)
{
    cr_table_t t = t9();
    cr_ball_pos_t on[1], out[2];
    const int ids[2] = {5, 6};
    double d;

    /* The cue ball 10 mm off the line on the spot: D = 2R + 5 = 62.15 mm,
     * blocks |x - 1905| < sqrt(62.15^2 - 10^2) = 61.340 mm. */
    on[0] = ball(CR_BALL_CUE, 1905.0, 645.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 1, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1966.3402, 1e-3);
    d = dist(out[0].x, out[0].y, on[0].x, on[0].y);
    CU_ASSERT_DOUBLE_EQUAL(d, D2R + 5.0, 1e-6);
    CU_ASSERT(d > D2R + 4.9); /* not frozen to the cue ball */
    /* The next object ball may be frozen to the spotted one. */
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 1, ids, 2, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[1].x, 1966.3402 + D2R, 1e-3);
    /* The same position as an object ball: frozen instead. */
    on[0] = ball(3, 1905.0, 645.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 1, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1905.0 + sqrt(D2R * D2R - 100.0), 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1961.2683, 1e-3);
}

static void test_spot_in_front(void)
{
    cr_table_t t = t9();
    cr_ball_pos_t on[44], out[2];
    const int ids[2] = {1, 2};
    int i, n;

    /* 11 balls frozen from the foot spot to 2476.5: no room up to L - R =
     * 2511.425, so the ball goes in front, frozen to the first. */
    for (i = 0; i < 11; i++)
        on[i] = ball(3 + i, 1905.0 + i * D2R, 635.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 11, ids, 2, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1905.0 - D2R, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1847.85, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(out[1].x, 1847.85 - D2R, 1e-6); /* then in front of that */

    /* With the last one removed there is room again at 2419.35 + 2R. */
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 10, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 2476.5, 1e-6);

    /* Room exactly up to L - R (frozen to the foot cushion) counts: a chain
     * 1905 .. 2362.2 and a ball at L - 3R = 2454.275, which blocks the end of
     * the chain (2419.35) and leaves only x = 2511.425. */
    for (i = 0; i < 9; i++)
        on[i] = ball(3 + i, 1905.0 + i * D2R, 635.0);
    on[9] = ball(12, 2540.0 - 3.0 * R, 635.0);
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 10, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 2511.425, 1e-6);
    /* 0.01 mm nearer the foot: no room behind, so in front. */
    on[9].x += 0.01;
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, 10, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, 1847.85, 1e-6);

    /* A line full from the head cushion to the foot cushion: no place. */
    n = 0;
    for (i = 0; i < 44; i++)
        on[n++] = ball(CR_BALL_UNKNOWN, R + i * D2R, 635.0);
    CU_ASSERT_EQUAL(cr_table_spot_balls(&t, on, n, ids, 1, 5.0, out), CR_ERR_FULL);
    /* Free one place near the head: that is the nearest in front. */
    on[3].y = 900.0;
    CU_ASSERT_EQUAL_FATAL(cr_table_spot_balls(&t, on, n, ids, 1, 5.0, out), CR_OK);
    CU_ASSERT_DOUBLE_EQUAL(out[0].x, R + 3.0 * D2R, 1e-6);
}

static void test_spot_invalid(void)
{
    cr_table_t t = t9();
    cr_ball_pos_t out[1];
    const int cue[1] = {0}, big[1] = {16}, ok[1] = {8};

    CU_ASSERT_EQUAL(cr_table_spot_balls(&t, NULL, 0, cue, 1, 5.0, out), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_spot_balls(&t, NULL, 0, big, 1, 5.0, out), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_spot_balls(&t, NULL, 0, ok, 1, 0.0, out), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_spot_balls(&t, NULL, 0, ok, 1, NAN, out), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_spot_balls(&t, NULL, 1, ok, 1, 5.0, out), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_spot_balls(&t, NULL, 0, ok, 1, 5.0, NULL), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_table_spot_balls(NULL, NULL, 0, ok, 1, 5.0, out), CR_ERR_INVALID);
}

int cr_test_register_table(void)
{
    CU_pSuite geo, rack, spot;

    geo = CU_add_suite("table geometry", NULL, NULL);
    if (!geo || !CU_add_test(geo, "init defaults", test_init_defaults) ||
        !CU_add_test(geo, "9ft strings and spots", test_strings_9ft) || !CU_add_test(geo, "presets", test_presets) ||
        !CU_add_test(geo, "parse LxW", test_parse_lxw) || !CU_add_test(geo, "parse rejects", test_parse_rejects) ||
        !CU_add_test(geo, "behind head string", test_behind_head_string) ||
        !CU_add_test(geo, "pocket points", test_pocket_points) ||
        !CU_add_test(geo, "pocket mouths", test_pocket_mouths) ||
        !CU_add_test(geo, "past a pocket's mouth", test_past_mouth) ||
        !CU_add_test(geo, "cushion segments", test_cushion_segments) ||
        !CU_add_test(geo, "distance to rail", test_distance_to_rail) ||
        !CU_add_test(geo, "distance to the cushion a ball can touch", test_cushion_distance) || !CU_add_test(geo, "diamonds", test_diamonds))
        return 1;
    rack = CU_add_suite("table rack", NULL, NULL);
    if (!rack || !CU_add_test(rack, "15-ball slots", test_rack_slots_15) ||
        !CU_add_test(rack, "9- and 10-ball slots", test_rack_slots_9_10) ||
        !CU_add_test(rack, "8-ball rack", test_rack_8ball) ||
        !CU_add_test(rack, "deterministic", test_rack_deterministic) ||
        !CU_add_test(rack, "9-ball rack", test_rack_9ball) || !CU_add_test(rack, "10-ball rack", test_rack_10ball) ||
        !CU_add_test(rack, "14.1 outline", test_rack_outline))
        return 1;
    spot = CU_add_suite("table spotting", NULL, NULL);
    if (!spot || !CU_add_test(spot, "empty table", test_spot_empty) ||
        !CU_add_test(spot, "frozen to a ball", test_spot_frozen) || !CU_add_test(spot, "gaps", test_spot_gaps) ||
        !CU_add_test(spot, "cue ball gap", test_spot_cue_gap) ||
        !CU_add_test(spot, "in front of the spot", test_spot_in_front) ||
        !CU_add_test(spot, "invalid", test_spot_invalid))
        return 1;
    return 0;
}
