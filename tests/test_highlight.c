/*
 * test_highlight.c - lamps from highlights, and balls placed by their
 * highlights (vision/cr_highlight.h): spots found at sub-pixel places and
 * not inside a number circle; lamps of a fixture unlike the simulator's
 * found from noisy spots with outliers; a ball placed to a fraction of a
 * millimetre among the spots of its number, and nothing placed where two
 * constellations compete or one lamp alone agrees.
 */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cr_camera.h"
#include "cr_highlight.h"
#include "cr_table.h"
#include "test_suites.h"

#define RB CR_BALL_RADIUS_MM

/* Three lamps unlike the simulator's row of three: at different heights,
 * off the long string. */
static const double th_lamps[3][3] = {{900.0, 400.0, 1200.0}, {1800.0, 800.0, 900.0}, {1300.0, 700.0, 1600.0}};

static int th_camera(cr_camera_t *cam, cr_table_t *t)
{
    cr_camera_setup_t cs;

    cr_table_init(t, 2540.0, 1270.0);
    cr_camera_setup_defaults(&cs, 1920, 1080);
    cs.tilt_deg = 4.0;
    cs.tilt_azimuth_deg = 30.0;
    cs.k1 = -0.05;
    return cr_camera_build(&cs, t, cam);
}

static void th_truth(cr_hl_model_t *m)
{
    int k;

    cr_hl_model_init(m);
    m->n_lamps = 3;
    for (k = 0; k < 3; k++)
        memcpy(m->lamp[k], th_lamps[k], sizeof th_lamps[k]);
}

/* Uniform in [0, 1) from a 64-bit LCG. */
static double th_rand(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* The image radius of a ball at (x, y). */
static double th_r_px(const cr_camera_t *cam, double x, double y)
{
    double u0 = 0, v0 = 0, u1 = 0, v1 = 0;

    cr_camera_project(cam, x, y, RB, &u0, &v0);
    cr_camera_project(cam, x + RB, y, RB, &u1, &v1);
    return hypot(u1 - u0, v1 - v0);
}

static void test_spots(void)
{
    enum { W = 64, H = 64 };
    static uint8_t img[W * H];
    cr_hl_spot_t s[8];
    int i, j, n;

    /* cloth at 60; a highlight (Gaussian, sigma 0.8 px, +80) at (30.3,
     * 20.6); a number circle (disc of radius 5 px, +100) at (20, 44) */
    for (j = 0; j < H; j++)
        for (i = 0; i < W; i++) {
            double v = 60.0 + 80.0 * exp(-((i - 30.3) * (i - 30.3) + (j - 20.6) * (j - 20.6)) / (2 * 0.64));

            if (hypot(i - 20.0, j - 44.0) <= 5.0)
                v += 100.0;
            img[j * W + i] = (uint8_t)lrint(v > 255.0 ? 255.0 : v);
        }
    n = cr_hl_spots(img, W, W, H, 32.0, 32.0, 30.0, 12.0, 20.0, s, 8);
    CU_ASSERT_EQUAL(n, 1);
    if (n >= 1) {
        CU_ASSERT(fabs(s[0].u - 30.3) < 0.25);
        CU_ASSERT(fabs(s[0].v - 20.6) < 0.25);
        CU_ASSERT(s[0].top > 40.0);
    }
    /* nothing outside the radius searched */
    CU_ASSERT_EQUAL(cr_hl_spots(img, W, W, H, 50.0, 50.0, 8.0, 12.0, 20.0, s, 8), 0);
}

/* A highlight smeared by the ball's motion during the exposure (a line of
 * Gaussian spots, sigma 0.8 px, from (20, 20) to (30, 24), +80): one spot,
 * at the smear's middle (25, 22), given the most a smear can be (the
 * frame's step, (12, 4.8) px). A longer bright line along the same way (a
 * stripe's edge, the cue: 40 px) and a spot with a zero smear give none. */
static void test_streaks(void)
{
    enum { W = 96, H = 64 };
    static uint8_t img[W * H];
    cr_hl_spot_t s[8];
    int i, j, n;

    for (int line = 0; line < 2; line++) {
        /* line 0: the smear; 1: a 40 px line through the same place */
        const double u0 = line ? 5.0 : 20.0, v0 = line ? 14.0 : 20.0, u1 = line ? 45.0 : 30.0, v1 = line ? 30.0 : 24.0;

        for (j = 0; j < H; j++)
            for (i = 0; i < W; i++) {
                double best = 1e9;

                for (int k = 0; k <= 100; k++) { /* distance to the segment */
                    const double f = k / 100.0, du = i - (u0 + f * (u1 - u0)), dv = j - (v0 + f * (v1 - v0));

                    best = fmin(best, du * du + dv * dv);
                }
                img[j * W + i] = (uint8_t)lrint(60.0 + 80.0 * exp(-best / (2 * 0.64)));
            }
        n = cr_hl_streaks(img, W, W, H, 25.0, 22.0, 20.0, 12.0, 12.0, 4.8, 20.0, s, 8);
        if (line == 0) {
            CU_ASSERT_EQUAL(n, 1);
            if (n >= 1) {
                CU_ASSERT(fabs(s[0].u - 25.0) < 0.3);
                CU_ASSERT(fabs(s[0].v - 22.0) < 0.3);
                CU_ASSERT(s[0].top > 40.0);
            }
            CU_ASSERT_EQUAL(cr_hl_streaks(img, W, W, H, 25.0, 22.0, 20.0, 12.0, 0.0, 0.0, 20.0, s, 8), 0);
        } else {
            CU_ASSERT_EQUAL(n, 0);
        }
    }
}

static void test_lamps_from_spots(void)
{
    cr_camera_t cam;
    cr_table_t t;
    cr_hl_model_t truth, m;
    uint64_t seed = 77;
    int b, k, lamps, matched[3] = {0, 0, 0};
    double worst = 0.0;

    CU_ASSERT_FATAL(th_camera(&cam, &t) == 0);
    th_truth(&truth);
    cr_hl_model_init(&m);
    /* 40 balls over the bed: each lamp's spot with 0.15 px of noise, and
     * two spots of a number's ink anywhere on the ball */
    for (b = 0; b < 40; b++) {
        double x = RB + th_rand(&seed) * (t.length_mm - 2 * RB), y = RB + th_rand(&seed) * (t.width_mm - 2 * RB);
        double cu = 0, cv = 0, r = th_r_px(&cam, x, y);
        cr_hl_spot_t s[5];
        int n = 0;

        cr_camera_project(&cam, x, y, RB, &cu, &cv);
        for (k = 0; k < 3; k++)
            if (cr_hl_predict(&truth, &cam, RB, k, x, y, &s[n].u, &s[n].v)) {
                s[n].u += 0.3 * (th_rand(&seed) - 0.5);
                s[n].v += 0.3 * (th_rand(&seed) - 0.5);
                s[n++].top = 100.0;
            }
        for (k = 0; k < 2; k++) {
            s[n].u = cu + 0.6 * r * (th_rand(&seed) - 0.5);
            s[n].v = cv + 0.6 * r * (th_rand(&seed) - 0.5);
            s[n++].top = 60.0;
        }
        cr_hl_observe(&m, &cam, RB, x, y, s, n);
    }
    /* the same place twice is one witness */
    CU_ASSERT_FALSE(cr_hl_new_place(&m, RB, m.ball_xy[0][0] + 0.5 * RB, m.ball_xy[0][1]));
    lamps = cr_hl_solve(&m, RB, 10);
    CU_ASSERT_EQUAL(lamps, 3);
    for (k = 0; k < m.n_lamps; k++) {
        int a;

        for (a = 0; a < 3; a++)
            if (hypot(hypot(m.lamp[k][0] - th_lamps[a][0], m.lamp[k][1] - th_lamps[a][1]),
                      m.lamp[k][2] - th_lamps[a][2]) < 40.0)
                matched[a]++;
    }
    CU_ASSERT(matched[0] == 1 && matched[1] == 1 && matched[2] == 1);
    /* the learned lamps predict the spots anywhere to a fraction of a pixel */
    for (b = 0; b < 20 && lamps == 3; b++) {
        double x = RB + th_rand(&seed) * (t.length_mm - 2 * RB), y = RB + th_rand(&seed) * (t.width_mm - 2 * RB);

        for (k = 0; k < 3; k++) {
            double u0, v0, u1, v1, best = HUGE_VAL;
            int a;

            if (!cr_hl_predict(&truth, &cam, RB, k, x, y, &u0, &v0))
                continue;
            for (a = 0; a < m.n_lamps; a++)
                if (cr_hl_predict(&m, &cam, RB, a, x, y, &u1, &v1))
                    best = fmin(best, hypot(u1 - u0, v1 - v0));
            worst = fmax(worst, best);
        }
    }
    CU_ASSERT(worst < 0.3);
    if (lamps != 3 || worst >= 0.3)
        printf("\n  %d lamps, prediction off by %.2f px at most", lamps, worst);
}

static void test_locate(void)
{
    cr_camera_t cam;
    cr_table_t t;
    cr_hl_model_t m;
    const double x = 1000.0, y = 500.0;
    double cu = 0, cv = 0, r, lx, ly, sig;
    cr_hl_spot_t s[16];
    int k, n = 0, c;

    CU_ASSERT_FATAL(th_camera(&cam, &t) == 0);
    th_truth(&m);
    cr_camera_project(&cam, x, y, RB, &cu, &cv);
    r = th_r_px(&cam, x, y);
    for (k = 0; k < 3; k++) {
        CU_ASSERT_FATAL(cr_hl_predict(&m, &cam, RB, k, x, y, &s[n].u, &s[n].v));
        s[n++].top = 120.0;
    }
    /* the ink of a number: four spots near the centre */
    for (k = 0; k < 4; k++) {
        s[n].u = cu + 0.3 * r * cos(1.7 * k);
        s[n].v = cv + 0.3 * r * sin(1.7 * k);
        s[n++].top = 50.0;
    }
    c = cr_hl_locate(&m, &cam, RB, x + 8.0, y - 5.0, RB, 1.0, s, n, &lx, &ly, &sig);
    CU_ASSERT_EQUAL(c, 3);
    CU_ASSERT(hypot(lx - x, ly - y) < 0.1);
    CU_ASSERT(sig > 0.0 && sig < 0.5);
    /* one lamp alone places nothing (any spot would do) */
    c = cr_hl_locate(&m, &cam, RB, x + 8.0, y - 5.0, RB, 1.0, s + 2, n - 2, &lx, &ly, &sig);
    CU_ASSERT_EQUAL(c, 0);
    /* beyond the reach: nothing */
    c = cr_hl_locate(&m, &cam, RB, x + 40.0, y, 10.0, 1.0, s, n, &lx, &ly, &sig);
    CU_ASSERT_EQUAL(c, 0);
    /* a second constellation as good, 12 mm away within the reach: which
     * is the ball's cannot be told */
    {
        int n2 = n;

        for (k = 0; k < 3; k++) {
            CU_ASSERT_FATAL(cr_hl_predict(&m, &cam, RB, k, x + 12.0, y, &s[n2].u, &s[n2].v));
            s[n2++].top = 120.0;
        }
        c = cr_hl_locate(&m, &cam, RB, x + 6.0, y, RB, 1.0, s, n2, &lx, &ly, &sig);
        CU_ASSERT_EQUAL(c, 0);
    }
}

int cr_test_register_highlight(void)
{
    CU_pSuite s = CU_add_suite("highlight", NULL, NULL);

    if (!s || !CU_add_test(s, "highlights are small bright spots, not number circles", test_spots) ||
        !CU_add_test(s, "a highlight smeared by motion is placed at its smear's middle", test_streaks) ||
        !CU_add_test(s, "lamps found from the highlights of balls over the table", test_lamps_from_spots) ||
        !CU_add_test(s, "a ball placed by its highlights, and only when they are unambiguous", test_locate))
        return -1;
    return 0;
}
