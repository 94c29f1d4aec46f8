/*
 * test_physics.c - CUnit tests for sim/cr_physics: the root solver, the
 * equations of motion against their closed forms, collisions against the
 * conservation laws and the billiards rules of thumb (90 deg stun rule, 30
 * deg rolling rule, TP numbers from Alciatore), cushions, pockets, jaws,
 * frozen balls, event-time exactness, full breaks, determinism and the API
 * contract. Expected values come from physics and the table spec, not from
 * the code under test.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "cr_physics.h"
#include "test_suites.h"

int cr_test_register_physics(void);

#define R CR_BALL_RADIUS_MM
#define D2R (2.0 * CR_BALL_RADIUS_MM)
#define G 9810.0
#define DEG (180.0 / 3.14159265358979323846)
#define PI 3.14159265358979323846
#define EV_CAP 512

static cr_event_t ev[EV_CAP];
static cr_event_t ev2[EV_CAP];

static cr_table_t t9(void)
{
    cr_table_t t;

    cr_table_init(&t, 2540.0, 1270.0);
    return t;
}

/* A simulation on a 9-ft table with p (NULL: defaults). */
static cr_sim_t *sim_new(const cr_phys_params_t *p)
{
    cr_table_t t = t9();
    cr_sim_t *s = NULL;

    CU_ASSERT_EQUAL(cr_sim_create(&t, p, &s), CR_OK);
    return s;
}

static cr_phys_params_t ideal_params(void)
{
    cr_phys_params_t p;

    cr_phys_params_defaults(&p);
    p.ball_restitution = 1.0;
    p.ball_friction_a = 0.0;
    p.ball_friction_b = 0.0;
    return p;
}

static double dist_xy(double ax, double ay, double bx, double by)
{
    return hypot(ax - bx, ay - by);
}

/* The first transition of ball b strictly after t (its next segment). */
static double next_change(const cr_sim_t *s, int b, double t, cr_motion_t *to)
{
    cr_sim_transition_t tr[256];
    int n = 0, i;

    cr_sim_transitions(s, t, 1e9, tr, 256, &n);
    for (i = 0; i < n; i++)
        if (tr[i].ball == b && tr[i].t > t) {
            if (to)
                *to = tr[i].to;
            return tr[i].t;
        }
    return NAN;
}

/* Bit-for-bit equal states (field by field: the structs have padding). */
static bool same_states(const cr_sim_ball_t *a, const cr_sim_ball_t *b)
{
    int i;

    for (i = 0; i < CR_NUM_BALLS; i++) {
        const double va[7] = {a[i].x, a[i].y, a[i].vx, a[i].vy, a[i].wx, a[i].wy, a[i].wz};
        const double vb[7] = {b[i].x, b[i].y, b[i].vx, b[i].vy, b[i].wx, b[i].wy, b[i].wz};

        if (a[i].id != b[i].id || a[i].motion != b[i].motion || a[i].on_table != b[i].on_table ||
            a[i].pocket != b[i].pocket || memcmp(va, vb, sizeof(va)) != 0)
            return false;
    }
    return true;
}

static int count_type(const cr_event_t *e, int n, cr_event_type_t type)
{
    int i, c = 0;

    for (i = 0; i < n; i++)
        c += e[i].type == type;
    return c;
}

/* ---- root solver ----------------------------------------------------------- */

static void test_roots_simple(void)
{
    /* (x-1)(x-2)(x-3)(x-4) = x^4 - 10x^3 + 35x^2 - 50x + 24 */
    const double c[5] = {24.0, -50.0, 35.0, -10.0, 1.0};
    double r[4];
    int n = cr_phys_poly_roots(c, 4, -10.0, 10.0, r, 4), i;

    CU_ASSERT_EQUAL_FATAL(n, 4);
    for (i = 0; i < 4; i++)
        CU_ASSERT_DOUBLE_EQUAL(r[i], i + 1.0, 1e-12);
    /* restricted interval */
    n = cr_phys_poly_roots(c, 4, 1.5, 3.5, r, 4);
    CU_ASSERT_EQUAL(n, 2);
    CU_ASSERT_DOUBLE_EQUAL(r[0], 2.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(r[1], 3.0, 1e-12);
}

static void test_roots_hard(void)
{
    double r[4], c[5];
    int n;

    /* close pair: (x - 1)(x - 1 - 1e-6)(x^2 + 1) */
    {
        double a = 1.0, b = 1.0 + 1e-6;
        double q0 = a * b, q1 = -(a + b);

        c[0] = q0;
        c[1] = q1;
        c[2] = 1.0 + q0;
        c[3] = q1;
        c[4] = 1.0;
    }
    n = cr_phys_poly_roots(c, 4, 0.0, 2.0, r, 4);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_DOUBLE_EQUAL(r[0], 1.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(r[1], 1.0 + 1e-6, 1e-9);
    /* tiny leading coefficient: near-quadratic, one root far away */
    {
        const double d[5] = {-1.0, 0.0, 1.0, 0.0, 1e-18}; /* ~ x^2 - 1 */

        n = cr_phys_poly_roots(d, 4, -5.0, 5.0, r, 4);
        CU_ASSERT_EQUAL(n, 2);
        CU_ASSERT_DOUBLE_EQUAL(r[0], -1.0, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(r[1], 1.0, 1e-12);
    }
    /* no real root */
    {
        const double d[5] = {1.0, 0.0, 0.0, 0.0, 1.0};

        CU_ASSERT_EQUAL(cr_phys_poly_roots(d, 4, -10.0, 10.0, r, 4), 0);
    }
    /* scales of a real look-ahead: balls 2 m apart closing at 3 m/s */
    {
        const double d[3] = {2000.0 * 2000.0 - D2R * D2R, -2.0 * 2000.0 * 3000.0, 3000.0 * 3000.0};

        n = cr_phys_poly_roots(d, 2, 0.0, 10.0, r, 4);
        CU_ASSERT_EQUAL_FATAL(n, 2);
        CU_ASSERT_DOUBLE_EQUAL(r[0], (2000.0 - D2R) / 3000.0, 1e-15);
    }
    CU_ASSERT_EQUAL(cr_phys_poly_roots(NULL, 2, 0.0, 1.0, r, 4), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_phys_poly_roots(c, 5, 0.0, 1.0, r, 4), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_phys_poly_roots(c, 4, 1.0, 0.0, r, 4), CR_ERR_INVALID);
}

/* ---- motion ------------------------------------------------------------- */

/* A centre-ball hit slides, then rolls at 5/7 of its speed after 2 v0 /
 * (7 mu_s g) ([AL] TP A.4); it then rolls v^2 / (2 mu_r g) before stopping. */
static void test_slide_roll_stop(void)
{
    cr_sim_t *s = sim_new(NULL);
    const cr_ball_pos_t b[1] = {{0, 500.0, 635.0}};
    const double v0 = 600.0;
    cr_sim_ball_t st[CR_NUM_BALLS], st2[CR_NUM_BALLS];
    cr_motion_t to = CR_MOTION_ABSENT;
    double t_roll, t_stop, vr, d_roll;
    int n;

    CU_ASSERT_FATAL(s != NULL);
    CU_ASSERT_EQUAL(cr_sim_place(s, b, 1), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, v0, 0.0, 0.0, 0.0), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_EQUAL(n, 0);
    t_roll = next_change(s, 0, 0.0, &to);
    CU_ASSERT_EQUAL(to, CR_MOTION_ROLLING);
    CU_ASSERT_DOUBLE_EQUAL(t_roll, 2.0 * v0 / (7.0 * 0.2 * G), 1e-12);
    cr_sim_state_at(s, t_roll, st);
    vr = hypot(st[0].vx, st[0].vy);
    CU_ASSERT_DOUBLE_EQUAL(vr, 5.0 / 7.0 * v0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(st[0].wy, vr / R, 1e-9); /* rolling: v = R w */
    t_stop = next_change(s, 0, t_roll, &to);
    CU_ASSERT_EQUAL(to, CR_MOTION_STATIONARY);
    CU_ASSERT_DOUBLE_EQUAL(t_stop - t_roll, vr / (0.01 * G), 1e-9);
    cr_sim_state_at(s, t_stop + 1.0, st2);
    d_roll = dist_xy(st[0].x, st[0].y, st2[0].x, st2[0].y);
    CU_ASSERT(fabs(d_roll / (vr * vr / (2.0 * 0.01 * G)) - 1.0) < 0.01);
    CU_ASSERT_DOUBLE_EQUAL(st2[0].y, 635.0, 1e-9); /* straight */
    CU_ASSERT_EQUAL(st2[0].motion, CR_MOTION_STATIONARY);
    cr_sim_destroy(s);
}

/* Follow at b = 0.4 is natural roll at once. Draw only brings the cue ball
 * back after it hits a ball. A stop shot with side spin leaves the cue ball
 * spinning in place, for |wz| / (5 mu_sp g / 2R) ([LG]). */
static void test_spin_states(void)
{
    cr_sim_t *s = sim_new(NULL);
    const cr_ball_pos_t b[1] = {{0, 1270.0, 635.0}};
    const cr_ball_pos_t pair[2] = {{0, 1000.0, 635.0}, {1, 1005.0 + D2R, 635.0}};
    const cr_ball_pos_t far_pair[2] = {{0, 700.0, 635.0}, {1, 1100.0, 635.0}};
    cr_sim_ball_t st[CR_NUM_BALLS];
    cr_motion_t to = CR_MOTION_ABSENT;
    double t1, t2, wz;
    int n;

    CU_ASSERT_FATAL(s != NULL);
    /* natural roll */
    cr_sim_place(s, b, 1);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 500.0, 0.0, 0.0, 0.4), CR_OK);
    cr_sim_state_at(s, 0.0, st);
    CU_ASSERT(st[0].motion == CR_MOTION_ROLLING || next_change(s, 0, 0.0, &to) < 1e-9);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    /* draw shot: the cue ball comes back from the object ball */
    cr_sim_place(s, far_pair, 2);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 2500.0, 0.0, 0.0, -0.5), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_FATAL(n >= 1);
    CU_ASSERT_EQUAL(ev[0].type, CR_EV_COLLISION);
    cr_sim_state_at(s, cr_sim_time(s), st);
    CU_ASSERT(st[0].x < ev[0].x - R - 200.0);
    /* stop shot with right english */
    cr_sim_place(s, pair, 2);
    t1 = cr_sim_time(s);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 2000.0, 0.0, 0.5, 0.0), CR_OK);
    cr_sim_state_at(s, t1, st);
    CU_ASSERT_DOUBLE_EQUAL(st[0].wz, 2.5 * 2000.0 * 0.5 / R, 1e-9); /* right english: wz > 0 */
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_EQUAL(ev[0].type, CR_EV_COLLISION);
    t1 = ev[0].t;
    do {
        t1 = next_change(s, 0, t1, &to);
    } while (to != CR_MOTION_SPINNING && isfinite(t1));
    CU_ASSERT_EQUAL_FATAL(to, CR_MOTION_SPINNING);
    cr_sim_state_at(s, t1, st);
    wz = st[0].wz;
    CU_ASSERT(wz > 30.0);
    CU_ASSERT_EQUAL(st[0].vx, 0.0);
    CU_ASSERT(st[0].x < pair[0].x + 60.0); /* it stopped near the contact */
    t2 = next_change(s, 0, t1, &to);
    CU_ASSERT_EQUAL(to, CR_MOTION_STATIONARY);
    CU_ASSERT_DOUBLE_EQUAL(t2 - t1, wz / (2.5 * 0.044 * G / R), 1e-9);
    CU_ASSERT_EQUAL(cr_sim_time_all_at_rest(s, &t1), CR_OK);
    CU_ASSERT(t1 >= t2);
    cr_sim_destroy(s);
}

/* ---- ball-ball ------------------------------------------------------------- */

/* Total momentum is conserved exactly by every collision (equal and
 * opposite impulses), and the normal relative speed after is e times the
 * speed before. */
static void test_momentum(void)
{
    cr_sim_t *s = sim_new(NULL);
    const cr_ball_pos_t b[2] = {{0, 800.0, 500.0}, {5, 1100.0, 560.0}};
    cr_sim_ball_t pre[CR_NUM_BALLS], post[CR_NUM_BALLS];
    double t, nx, ny, d, vn_pre, vn_post;
    int n;

    CU_ASSERT_FATAL(s != NULL);
    cr_sim_place(s, b, 2);
    cr_sim_strike(s, 0, 2500.0, 0.15, 0.3, 0.2);
    cr_sim_nudge(s, 0.0, 5, -300.0, 40.0);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_FATAL(n >= 1);
    CU_ASSERT_EQUAL_FATAL(ev[0].type, CR_EV_COLLISION);
    CU_ASSERT_EQUAL(ev[0].a, 0);
    CU_ASSERT_EQUAL(ev[0].b, 5);
    t = ev[0].t;
    cr_sim_state_at(s, t - 1e-12, pre);
    cr_sim_state_at(s, t, post);
    CU_ASSERT_DOUBLE_EQUAL(pre[0].vx + pre[5].vx, post[0].vx + post[5].vx, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(pre[0].vy + pre[5].vy, post[0].vy + post[5].vy, 1e-6);
    d = dist_xy(post[0].x, post[0].y, post[5].x, post[5].y);
    nx = (post[5].x - post[0].x) / d;
    ny = (post[5].y - post[0].y) / d;
    vn_pre = (pre[0].vx - pre[5].vx) * nx + (pre[0].vy - pre[5].vy) * ny;
    vn_post = (post[0].vx - post[5].vx) * nx + (post[0].vy - post[5].vy) * ny;
    CU_ASSERT(vn_pre > 0.0);
    CU_ASSERT_DOUBLE_EQUAL(vn_post, -0.95 * vn_pre, 1e-6);
    cr_sim_destroy(s);
}

/* A stun cut shot (no spin at contact): the balls separate at 90 deg for
 * ideal balls (e = 1, no friction, the "90 deg rule", [AL] TP 3.1); real
 * balls (e = 0.95, throw) separate a few degrees less. Measured from the
 * velocities just after the collision. */
static double stun_separation(const cr_phys_params_t *p, double cut_deg, double speed)
{
    cr_sim_t *s = sim_new(p);
    double phi = cut_deg / DEG, a0, a1, d;
    /* the object ball 1 mm ahead of contact along the cue ball's path */
    cr_ball_pos_t b[2] = {{0, 1000.0, 635.0}, {1, 1001.0 + D2R * cos(phi), 635.0 + D2R * sin(phi)}};
    cr_sim_ball_t st[CR_NUM_BALLS];
    int n;

    cr_sim_place(s, b, 2);
    cr_sim_strike(s, 0, speed, 0.0, 0.0, 0.0);
    cr_sim_run(s, 0.01, ev, EV_CAP, &n);
    CU_ASSERT_EQUAL(n, 1);
    cr_sim_state_at(s, ev[0].t, st);
    a0 = atan2(st[0].vy, st[0].vx);
    a1 = atan2(st[1].vy, st[1].vx);
    d = (a1 - a0) * DEG;
    cr_sim_destroy(s);
    return d;
}

static void test_stun_90(void)
{
    cr_phys_params_t ideal = ideal_params(), def;
    const double cuts[] = {15.0, 30.0, 45.0, 60.0};
    size_t i;

    cr_phys_params_defaults(&def);
    for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
        double a_ideal = stun_separation(&ideal, cuts[i], 2000.0);
        double a_real = stun_separation(&def, cuts[i], 2000.0);

        CU_ASSERT_DOUBLE_EQUAL(a_ideal, 90.0, 2.0);
        /* a few degrees under 90 with real balls ([AL]: e < 1 and throw) */
        CU_ASSERT(a_real < 90.0 && a_real > 78.0);
    }
    /* half-ball stun with real balls: 90 less about 2.5 deg of restitution
     * and about 2.5 deg of throw at 2 m/s ([AL] TP A.14 gives 2-3 deg of
     * throw for a stun half-ball hit at medium speed) */
    CU_ASSERT_DOUBLE_EQUAL(stun_separation(&def, 30.0, 2000.0), 85.0, 2.0);
}

/* A rolling cue ball hitting half-ball leaves about 30 deg from its line
 * once it rolls again (the "30 deg rule", [AL] TP A.5: 33.7 deg for ideal
 * balls). */
static void test_rolling_30(void)
{
    cr_sim_t *s = sim_new(NULL);
    const cr_ball_pos_t b[2] = {{0, 500.0, 635.0}, {1, 1100.0, 635.0 + R}};
    cr_sim_ball_t st[CR_NUM_BALLS];
    cr_motion_t to = CR_MOTION_ABSENT;
    double tc, tr, defl;
    int n;

    CU_ASSERT_FATAL(s != NULL);
    cr_sim_place(s, b, 2);
    cr_sim_strike(s, 0, 1500.0, 0.0, 0.0, 0.4);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_FATAL(n >= 1);
    CU_ASSERT_EQUAL(ev[0].type, CR_EV_COLLISION);
    tc = ev[0].t;
    cr_sim_state_at(s, tc, st);
    CU_ASSERT_EQUAL(st[0].motion, CR_MOTION_SLIDING); /* the path bends */
    tr = next_change(s, 0, tc, &to);
    CU_ASSERT_EQUAL(to, CR_MOTION_ROLLING);
    cr_sim_state_at(s, tr, st);
    defl = -atan2(st[0].vy, st[0].vx) * DEG;
    CU_ASSERT_DOUBLE_EQUAL(defl, 30.0, 4.0);
    cr_sim_destroy(s);
}

/* Two independent collisions 0.5 ms apart come out in time order, either
 * way round. */
static void test_order(void)
{
    int flip;

    for (flip = 0; flip < 2; flip++) {
        cr_sim_t *s = sim_new(NULL);
        double g1 = flip ? 101.0 : 100.0, g2 = flip ? 100.0 : 101.0; /* gaps, mm */
        cr_ball_pos_t b[4] = {{0, 500.0, 300.0}, {1, 500.0 + D2R + g1, 300.0},
                              {2, 500.0, 900.0}, {3, 500.0 + D2R + g2, 900.0}};
        int n;

        cr_sim_place(s, b, 4);
        cr_sim_strike(s, 0, 2000.0, 0.0, 0.0, 0.4);
        cr_sim_strike(s, 2, 2000.0, 0.0, 0.0, 0.4);
        cr_sim_run(s, 0.2, ev, EV_CAP, &n);
        CU_ASSERT_FATAL(n >= 2);
        CU_ASSERT_EQUAL(ev[0].type, CR_EV_COLLISION);
        CU_ASSERT_EQUAL(ev[1].type, CR_EV_COLLISION);
        CU_ASSERT_EQUAL(ev[0].a, flip ? 2 : 0);
        CU_ASSERT_EQUAL(ev[1].a, flip ? 0 : 2);
        CU_ASSERT(ev[0].t < ev[1].t);
        CU_ASSERT_DOUBLE_EQUAL(ev[1].t - ev[0].t, 0.5e-3, 0.01e-3);
        cr_sim_destroy(s);
    }
}

/* ---- frozen balls ---------------------------------------------------------- */

/* A tight 15-ball rack and a ball frozen to a cushion: a stroke that touches
 * neither gives no event for them and leaves them exactly in place; a ball
 * rolling along the cushion it is frozen to reports no contact. */
static void test_frozen_quiet(void)
{
    cr_table_t t = t9();
    cr_sim_t *s = sim_new(NULL);
    cr_ball_pos_t b[16];
    cr_sim_ball_t st0[CR_NUM_BALLS], st1[CR_NUM_BALLS];
    int nb, n, i;

    CU_ASSERT_FATAL(s != NULL);
    nb = cr_table_rack(&t, CR_GAME_8BALL, CR_EDITION_WPA2008, 7, b, 15);
    CU_ASSERT_EQUAL_FATAL(nb, 15);
    b[nb].id = 0; /* cue ball frozen to the head cushion */
    b[nb].x = R;
    b[nb].y = 300.0;
    CU_ASSERT_EQUAL(cr_sim_place(s, b, nb + 1), CR_OK);
    cr_sim_state_at(s, 0.0, st0);
    /* the cue ball rolls along the head cushion it is frozen to */
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 400.0, PI / 2.0, 0.0, 0.4), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_EQUAL(n, 0);
    cr_sim_state_at(s, cr_sim_time(s), st1);
    for (i = 1; i < CR_NUM_BALLS; i++) {
        CU_ASSERT_EQUAL(st1[i].motion, CR_MOTION_STATIONARY);
        CU_ASSERT_EQUAL(st1[i].x, st0[i].x);
        CU_ASSERT_EQUAL(st1[i].y, st0[i].y);
    }
    CU_ASSERT_DOUBLE_EQUAL(st1[0].x, R, 1e-9);
    CU_ASSERT(st1[0].y > 600.0);
    /* struck away from the cushion it is frozen to: no event */
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 200.0, 0.0, 0.0, 0.0), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_EQUAL(n, 0);
    cr_sim_destroy(s);
}

/* A ball struck into a frozen pair in line: the far ball takes nearly all
 * the motion at the same instant (Newton's cradle); a cue ball frozen to an
 * object ball and struck into it collides at once. */
static void test_frozen_transfer(void)
{
    cr_sim_t *s = sim_new(NULL);
    cr_ball_pos_t b[3] = {{0, 800.0, 635.0}, {1, 1200.0, 635.0}, {2, 1200.0 + D2R, 635.0}};
    cr_sim_ball_t st[CR_NUM_BALLS];
    int n;

    CU_ASSERT_FATAL(s != NULL);
    cr_sim_place(s, b, 3);
    cr_sim_strike(s, 0, 2000.0, 0.0, 0.0, 0.0);
    CU_ASSERT_EQUAL(cr_sim_run(s, 0.5, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_FATAL(n >= 2);
    CU_ASSERT_EQUAL(ev[0].type, CR_EV_COLLISION);
    CU_ASSERT_EQUAL(ev[0].a, 0);
    CU_ASSERT_EQUAL(ev[0].b, 1);
    CU_ASSERT_EQUAL(ev[1].type, CR_EV_COLLISION);
    CU_ASSERT_EQUAL(ev[1].a, 1);
    CU_ASSERT_EQUAL(ev[1].b, 2);
    CU_ASSERT_EQUAL(ev[1].t, ev[0].t);
    cr_sim_state_at(s, ev[1].t, st);
    CU_ASSERT(st[2].vx > 0.9 * hypot(st[0].vx, st[0].vy) + 1000.0);
    CU_ASSERT(fabs(st[1].vx) < 0.1 * st[2].vx);
    CU_ASSERT(dist_xy(st[1].x, st[1].y, st[2].x, st[2].y) >= D2R - 1e-6);
    /* frozen cue ball struck into the object ball */
    {
        cr_ball_pos_t c[2] = {{0, 800.0, 635.0}, {1, 800.0 + D2R, 635.0}};
        double t0;

        cr_sim_place(s, c, 2);
        t0 = cr_sim_time(s);
        cr_sim_strike(s, 0, 1000.0, 0.0, 0.0, 0.0);
        CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
        CU_ASSERT_FATAL(n >= 1);
        CU_ASSERT_EQUAL(ev[0].type, CR_EV_COLLISION);
        CU_ASSERT_EQUAL(ev[0].t, t0);
        cr_sim_state_at(s, t0, st);
        CU_ASSERT(st[1].vx > 900.0);
    }
    cr_sim_destroy(s);
}

/* ---- cushions ---------------------------------------------------------------- */

/* Angle from the cushion normal of a ball after its first cushion contact,
 * which is on the right cushion (y = W). */
static double rebound_angle(double inc_deg, double speed, double b_follow, double *rebound_speed)
{
    cr_sim_t *s = sim_new(NULL);
    const cr_ball_pos_t b[1] = {{0, 1000.0, 1270.0 - R - 1.0}}; /* arrives without spin */
    double th = inc_deg / DEG, a;
    cr_sim_ball_t st[CR_NUM_BALLS];
    int n;

    cr_sim_place(s, b, 1);
    if (b_follow > 0.0) {
        cr_sim_strike(s, 0, speed, atan2(cos(th), sin(th)), 0.0, b_follow);
    } else {
        cr_sim_nudge(s, 0.0, 0, speed * sin(th), speed * cos(th)); /* no spin */
    }
    cr_sim_run(s, INFINITY, ev, EV_CAP, &n);
    CU_ASSERT_FATAL(n >= 1);
    CU_ASSERT_EQUAL(ev[0].type, CR_EV_CUSHION);
    CU_ASSERT_EQUAL(ev[0].rail, CR_RAIL_RIGHT);
    cr_sim_state_at(s, ev[0].t, st);
    a = atan2(st[0].vx, -st[0].vy) * DEG;
    if (rebound_speed)
        *rebound_speed = -st[0].vy;
    cr_sim_destroy(s);
    return a;
}

/* A slow ball with no spin leaves a cushion at its incidence angle; a
 * rolling ball comes off wider (its topspin keeps driving it along); a
 * head-on hit keeps about 72 % of the normal speed ([HAN] geometry, e =
 * 0.85). */
static void test_cushion_rebound(void)
{
    double vout = 0.0;

    CU_ASSERT_DOUBLE_EQUAL(rebound_angle(30.0, 500.0, 0.0, NULL), 30.0, 2.0);
    CU_ASSERT_DOUBLE_EQUAL(rebound_angle(45.0, 500.0, 0.0, NULL), 45.0, 2.0);
    CU_ASSERT(rebound_angle(45.0, 500.0, 0.4, NULL) > 40.0);
    CU_ASSERT_DOUBLE_EQUAL(rebound_angle(0.0, 1000.0, 0.0, &vout), 0.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(vout / 1000.0, 0.72, 0.03);
}

/* A dead cushion (e = 0.2): a rolling ball driven into it at a shallow
 * angle keeps coming back into it (its topspin), then rolls along it. One
 * or two reported contacts, not a cascade; it never sinks in. */
static void test_cushion_push(void)
{
    cr_phys_params_t p;
    int ang;

    cr_phys_params_defaults(&p);
    p.cushion_e0 = 0.2;
    for (ang = 10; ang <= 20; ang += 10) {
        cr_sim_t *s = sim_new(&p);
        const cr_ball_pos_t b[1] = {{0, 800.0, 1270.0 - R - 200.0}};
        cr_sim_ball_t st[CR_NUM_BALLS];
        double t, worst = 0.0;
        int n;

        CU_ASSERT_FATAL(s != NULL);
        cr_sim_place(s, b, 1);
        cr_sim_strike(s, 0, 1500.0, ang / DEG, 0.0, 0.4);
        CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
        CU_ASSERT(count_type(ev, n, CR_EV_CUSHION) >= 1 && count_type(ev, n, CR_EV_CUSHION) <= 3);
        for (t = 0.0; t <= cr_sim_time(s); t += 1e-4) {
            cr_sim_state_at(s, t, st);
            worst = fmax(worst, st[0].y - (1270.0 - R));
        }
        CU_ASSERT(worst <= 0.006);
        CU_ASSERT_DOUBLE_EQUAL(st[0].y, 1270.0 - R, 0.01); /* ends against the cushion */
        cr_sim_destroy(s);
    }
}

/* Right english into a cushion head-on throws the ball to the shooter's
 * right; left english to the left. */
static void test_cushion_english(void)
{
    int side;

    for (side = -1; side <= 1; side += 2) {
        cr_sim_t *s = sim_new(NULL);
        const cr_ball_pos_t b[1] = {{0, 2200.0, 635.0}};
        cr_sim_ball_t st[CR_NUM_BALLS];
        int n;

        cr_sim_place(s, b, 1);
        cr_sim_strike(s, 0, 1500.0, 0.0, 0.5 * side, 0.0); /* toward the foot cushion */
        cr_sim_run(s, INFINITY, ev, EV_CAP, &n);
        CU_ASSERT_FATAL(n >= 1);
        CU_ASSERT_EQUAL(ev[0].type, CR_EV_CUSHION);
        CU_ASSERT_EQUAL(ev[0].rail, CR_RAIL_FOOT);
        cr_sim_state_at(s, ev[0].t, st);
        CU_ASSERT(st[0].vx < 0.0);
        /* heading +x, the shooter's right is -y */
        CU_ASSERT(side > 0 ? st[0].vy < -50.0 : st[0].vy > 50.0);
        cr_sim_destroy(s);
    }
}

/* ---- pockets and jaws -------------------------------------------------------- */

/* A straight shot along a corner pocket's bisector pockets the object ball;
 * a straight shot across the table into a side pocket too. */
static void test_pocket_straight(void)
{
    cr_sim_t *s = sim_new(NULL);
    cr_ball_pos_t b[2] = {{0, 2540.0 - 600.0, 1270.0 - 600.0}, {3, 2540.0 - 250.0, 1270.0 - 250.0}};
    cr_sim_ball_t st[CR_NUM_BALLS];
    int n, i, found = 0;

    CU_ASSERT_FATAL(s != NULL);
    cr_sim_place(s, b, 2);
    cr_sim_strike(s, 0, 2000.0, PI / 4.0, 0.0, -0.2); /* a little draw: the cue ball stays out */
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    for (i = 0; i < n; i++) {
        if (ev[i].type == CR_EV_POCKET) {
            CU_ASSERT_EQUAL(ev[i].ball, 3);
            CU_ASSERT_EQUAL(ev[i].pocket, CR_POCKET_FOOT_RIGHT);
            found++;
        }
        CU_ASSERT(ev[i].type != CR_EV_CUSHION || ev[i].ball != 3); /* dead centre: no jaw */
    }
    CU_ASSERT_EQUAL(found, 1);
    cr_sim_state_at(s, cr_sim_time(s), st);
    CU_ASSERT_EQUAL(st[3].motion, CR_MOTION_POCKETED);
    CU_ASSERT_FALSE(st[3].on_table);
    CU_ASSERT_EQUAL(st[3].pocket, CR_POCKET_FOOT_RIGHT);
    CU_ASSERT(st[0].on_table);

    /* side pocket */
    {
        cr_ball_pos_t c[2] = {{0, 1270.0, 600.0}, {9, 1270.0, 200.0}};

        cr_sim_place(s, c, 2);
        cr_sim_strike(s, 0, 1500.0, -PI / 2.0, 0.0, -0.3);
        CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
        for (i = 0, found = 0; i < n; i++)
            if (ev[i].type == CR_EV_POCKET && ev[i].ball == 9 && ev[i].pocket == CR_POCKET_SIDE_LEFT)
                found++;
        CU_ASSERT_EQUAL(found, 1);
    }
    cr_sim_destroy(s);
}

/* A ball run into the jaw point of a corner pocket bounces off it: a
 * cushion event on the rail the jaw belongs to, no pocket. The same ball
 * aimed a little inside the jaw drops. */
static void test_jaw_rattle(void)
{
    cr_table_t t = t9();
    cr_sim_t *s = sim_new(NULL);
    cr_point_t ja, jb;
    int n, i, k, pockets = 0;

    CU_ASSERT_FATAL(s != NULL);
    cr_table_pocket_mouth(&t, CR_POCKET_FOOT_RIGHT, &ja, &jb); /* jb on the foot line */
    for (k = 0; k < 2; k++) {
        /* parallel to the long cushions, centre 10 or 3 mm wide of the foot
         * jaw point (beyond the end of the straight nose) */
        const double off = k ? 3.0 : 10.0;
        cr_ball_pos_t b[1] = {{0, 2000.0, jb.y + off}};

        cr_sim_place(s, b, 1);
        cr_sim_strike(s, 0, 1200.0, 0.0, 0.0, 0.4);
        CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
        CU_ASSERT_FATAL(n >= 1);
        CU_ASSERT_EQUAL(ev[0].type, CR_EV_CUSHION);
        CU_ASSERT_EQUAL(ev[0].rail, CR_RAIL_FOOT);
        /* the ball touched the point, not the nose line */
        CU_ASSERT_DOUBLE_EQUAL(ev[0].x, 2540.0 - sqrt(R * R - off * off), 1e-6);
        for (i = 0, pockets = 0; i < n; i++)
            pockets += ev[i].type == CR_EV_POCKET;
        CU_ASSERT_EQUAL(pockets, 0);
    }
    {
        /* clear of the jaw point, along the long cushion */
        cr_ball_pos_t b[1] = {{0, 2000.0, jb.y + R + 10.0}};

        cr_sim_place(s, b, 1);
        cr_sim_strike(s, 0, 1200.0, 0.0, 0.0, 0.4);
        CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
        CU_ASSERT_FATAL(n >= 1);
        CU_ASSERT_EQUAL(ev[n - 1].type, CR_EV_POCKET);
        CU_ASSERT_EQUAL(ev[n - 1].pocket, CR_POCKET_FOOT_RIGHT);
    }
    cr_sim_destroy(s);
}

/* ---- off the table ------------------------------------------------------------ */

static void test_off_table(void)
{
    cr_phys_params_t p;
    cr_sim_t *s;
    const cr_ball_pos_t b[1] = {{4, 1000.0, 635.0}};
    cr_sim_ball_t st[CR_NUM_BALLS];
    int n;

    /* scripted: leaves at its first cushion contact */
    s = sim_new(NULL);
    CU_ASSERT_FATAL(s != NULL);
    cr_sim_place(s, b, 1);
    CU_ASSERT_EQUAL(cr_sim_leave_at_contact(s, 4, 1), CR_OK);
    cr_sim_nudge(s, 0.0, 4, 0.0, 1500.0);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(ev[0].type, CR_EV_CUSHION);
    CU_ASSERT_EQUAL(ev[1].type, CR_EV_OFF_TABLE);
    CU_ASSERT_EQUAL(ev[1].ball, 4);
    CU_ASSERT_EQUAL(ev[1].t, ev[0].t);
    cr_sim_state_at(s, cr_sim_time(s), st);
    CU_ASSERT_EQUAL(st[4].motion, CR_MOTION_OFF_TABLE);
    CU_ASSERT_FALSE(st[4].on_table);
    cr_sim_destroy(s);

    /* by speed: above the threshold only */
    cr_phys_params_defaults(&p);
    p.off_table_speed_mm_s = 3000.0;
    s = sim_new(&p);
    CU_ASSERT_FATAL(s != NULL);
    cr_sim_place(s, b, 1);
    cr_sim_nudge(s, 0.0, 4, 0.0, 2000.0);
    cr_sim_run(s, INFINITY, ev, EV_CAP, &n);
    CU_ASSERT_EQUAL(count_type(ev, n, CR_EV_OFF_TABLE), 0);
    cr_sim_place(s, b, 1);
    cr_sim_nudge(s, cr_sim_time(s), 4, 0.0, 5000.0);
    cr_sim_run(s, INFINITY, ev, EV_CAP, &n);
    CU_ASSERT_EQUAL(count_type(ev, n, CR_EV_OFF_TABLE), 1);
    cr_sim_destroy(s);
}

/* ---- whole runs ------------------------------------------------------------------ */

typedef struct {
    int n_events;
    double rest;
    bool ok;
} run_info_t;

/* Places a rack (game) with the cue ball on the head spot and breaks it at
 * speed, slightly off the long string. */
static run_info_t run_break(cr_sim_t *s, cr_game_t game, double speed, cr_event_t *out)
{
    cr_table_t t = t9();
    cr_ball_pos_t b[16];
    run_info_t r = {0, NAN, false};
    int nb;

    nb = cr_table_rack(&t, game, CR_EDITION_WPA2008, 3, b, 15);
    CU_ASSERT_FATAL(nb > 0);
    b[nb].id = 0;
    b[nb].x = 635.0;
    b[nb].y = 640.0;
    CU_ASSERT_EQUAL(cr_sim_place(s, b, nb + 1), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, speed, -0.004, 0.0, 0.1), CR_OK);
    r.ok = cr_sim_run(s, INFINITY, out, EV_CAP, &r.n_events) == CR_OK;
    r.ok = r.ok && cr_sim_time_all_at_rest(s, &r.rest) == CR_OK;
    return r;
}

/* On the bed: inside the nose rectangle less R, or in a pocket's throat.
 * A ball pushed into a cushion may sink 0.005 mm in (cr_physics.h). */
static bool on_bed(const cr_sim_ball_t *b)
{
    const double tol = 0.006;
    const double px[3] = {0.0, 1270.0, 2540.0}, py[2] = {0.0, 1270.0};
    int i, j;

    if (b->x >= R - tol && b->x <= 2540.0 - R + tol && b->y >= R - tol && b->y <= 1270.0 - R + tol)
        return true;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 2; j++)
            if (dist_xy(b->x, b->y, px[i], py[j]) < 90.0)
                return true;
    return false;
}

/* A cushion event on a straight nose (centre between the jaw points) has
 * the centre exactly R from the nose line; one at a jaw point exactly R
 * from that point. Contacts with the jaw facings (inside the pocket mouth)
 * are not checked here. Returns 1 when the contact was checked. */
static int check_cushion_contact(const cr_event_t *e)
{
    cr_table_t t = t9();
    cr_point_t a[2], b[2], p = {e->x, e->y};
    int ns = cr_table_cushion_segments(&t, e->rail, a, b), i, pk;
    bool along_x = e->rail == CR_RAIL_LEFT || e->rail == CR_RAIL_RIGHT;

    for (i = 0; i < ns; i++) {
        double s = along_x ? p.x : p.y, lo = along_x ? a[i].x : a[i].y, hi = along_x ? b[i].x : b[i].y;

        if (s >= lo && s <= hi) {
            double dr = cr_table_distance_to_rail(&t, e->rail, p);

            CU_ASSERT(fabs(dr - R) < 1e-6);
            return 1;
        }
    }
    for (pk = 0; pk < CR_POCKET_COUNT; pk++) {
        cr_point_t ja, jb;

        cr_table_pocket_mouth(&t, (cr_pocket_t)pk, &ja, &jb);
        if (fabs(dist_xy(p.x, p.y, ja.x, ja.y) - R) < 1e-6 || fabs(dist_xy(p.x, p.y, jb.x, jb.y) - R) < 1e-6)
            return 1;
    }
    return 0; /* a jaw facing */
}

/* Checks a finished run: no overlap over 0.01 mm and every ball on the bed
 * at samples every ms; the event times exact: balls exactly 2R apart within
 * exact_mm at a collision (1e-6 mm; within a cluster of pushing balls a
 * contact may start from a push overlap, up to 0.005 mm). */
static void check_run_tol(const cr_sim_t *s, double t0, double t1, const cr_event_t *e, int n, double exact_mm)
{
    cr_sim_ball_t st[CR_NUM_BALLS];
    double t, worst = 0.0;
    int i, j, k, off_bed = 0, exact_cushions = 0;

    for (t = t0; t <= t1; t += 1e-3) {
        CU_ASSERT_EQUAL_FATAL(cr_sim_state_at(s, t, st), CR_OK);
        for (i = 0; i < CR_NUM_BALLS; i++) {
            if (!st[i].on_table)
                continue;
            off_bed += !on_bed(&st[i]);
            for (j = i + 1; j < CR_NUM_BALLS; j++)
                if (st[j].on_table)
                    worst = fmax(worst, D2R - dist_xy(st[i].x, st[i].y, st[j].x, st[j].y));
        }
    }
    CU_ASSERT(worst <= 0.01);
    CU_ASSERT_EQUAL(off_bed, 0);
    for (k = 0; k < n; k++) {
        if (k > 0)
            CU_ASSERT(e[k].t >= e[k - 1].t);
        CU_ASSERT_EQUAL(e[k].shot, -1);
        cr_sim_state_at(s, e[k].t, st);
        if (e[k].type == CR_EV_COLLISION) {
            double d = dist_xy(st[e[k].a].x, st[e[k].a].y, st[e[k].b].x, st[e[k].b].y);

            CU_ASSERT(fabs(d - D2R) < exact_mm);
        } else if (e[k].type == CR_EV_CUSHION) {
            CU_ASSERT_EQUAL(st[e[k].ball].x, e[k].x);
            CU_ASSERT_EQUAL(st[e[k].ball].y, e[k].y);
            exact_cushions += check_cushion_contact(&e[k]);
        }
    }
    CU_ASSERT(exact_cushions >= count_type(e, n, CR_EV_CUSHION) / 2);
}

static void check_run(const cr_sim_t *s, double t0, double t1, const cr_event_t *e, int n)
{
    check_run_tol(s, t0, t1, e, n, 1e-6);
}

static void test_break(void)
{
    const cr_game_t games[2] = {CR_GAME_8BALL, CR_GAME_9BALL};
    int g;

    for (g = 0; g < 2; g++) {
        cr_sim_t *s = sim_new(NULL);
        run_info_t r;
        int i, moved = 0;
        cr_sim_ball_t st0[CR_NUM_BALLS], st1[CR_NUM_BALLS];

        CU_ASSERT_FATAL(s != NULL);
        r = run_break(s, games[g], 10000.0, ev);
        CU_ASSERT(r.ok);
        CU_ASSERT(r.rest > 2.0 && r.rest < 60.0);
        CU_ASSERT(count_type(ev, r.n_events, CR_EV_COLLISION) >= (g == 0 ? 15 : 9));
        CU_ASSERT(count_type(ev, r.n_events, CR_EV_CUSHION) >= 5);
        cr_sim_state_at(s, 0.0, st0);
        cr_sim_state_at(s, r.rest, st1);
        for (i = 0; i < CR_NUM_BALLS; i++) {
            if (st0[i].on_table && (!st1[i].on_table || dist_xy(st0[i].x, st0[i].y, st1[i].x, st1[i].y) > 50.0))
                moved++;
            if (st1[i].on_table)
                CU_ASSERT_EQUAL(st1[i].motion, CR_MOTION_STATIONARY);
        }
        CU_ASSERT(moved >= (g == 0 ? 12 : 7)); /* the rack is spread */
        check_run(s, 0.0, r.rest, ev, r.n_events);
        cr_sim_destroy(s);
    }
}

/* Energy never increases: not at events, not between them. */
static void test_energy(void)
{
    cr_sim_t *s = sim_new(NULL);
    cr_sim_transition_t tr[4096];
    run_info_t r;
    double e_prev, t;
    int n, i, rises = 0;

    CU_ASSERT_FATAL(s != NULL);
    r = run_break(s, CR_GAME_8BALL, 9000.0, ev);
    CU_ASSERT(r.ok);
    CU_ASSERT_EQUAL(cr_sim_transitions(s, 1e-9, r.rest, tr, 4096, &n), CR_OK);
    CU_ASSERT(n > 50);
    e_prev = cr_sim_energy(s, 0.0);
    /* 9 m/s and R w = 2.5 * 0.1 v: E = m v^2 / 2 (1 + 2/5 * 0.25^2) */
    CU_ASSERT_DOUBLE_EQUAL(e_prev, 0.5 * 0.17 * 81.0 * (1.0 + 0.4 * 0.0625), 1e-9);
    /* per distinct change time: friction only loses energy up to it, and
     * the changes there (all of them together) lose energy */
    for (i = 0, t = 0.0; i < n; i++) {
        double before, after;

        if (tr[i].t == t)
            continue;
        before = cr_sim_energy(s, fmax(t, tr[i].t - 1e-12));
        after = cr_sim_energy(s, tr[i].t);
        if (after > before * (1.0 + 1e-9) + 1e-12 || before > e_prev * (1.0 + 1e-9) + 1e-12)
            rises++;
        e_prev = after;
        t = tr[i].t;
    }
    CU_ASSERT_EQUAL(rises, 0);
    for (t = 0.0, e_prev = INFINITY; t < r.rest; t += 0.5e-3) {
        double e = cr_sim_energy(s, t);

        rises += e > e_prev * (1.0 + 1e-9) + 1e-12;
        e_prev = e;
    }
    CU_ASSERT_EQUAL(rises, 0);
    CU_ASSERT_DOUBLE_EQUAL(cr_sim_energy(s, r.rest), 0.0, 1e-15);
    cr_sim_destroy(s);
}

/* Event times are exact: the collision distance is 2R and a nose cushion
 * distance R within 1e-6 mm; a long multi-cushion path with spin. */
static void test_exact_times(void)
{
    cr_sim_t *s = sim_new(NULL);
    const cr_ball_pos_t b[4] = {{0, 300.0, 200.0}, {1, 1500.0, 900.0}, {2, 1900.0, 300.0}, {3, 700.0, 1000.0}};
    int n, k, checked = 0;

    CU_ASSERT_FATAL(s != NULL);
    cr_sim_place(s, b, 4);
    cr_sim_strike(s, 0, 6000.0, 0.37, -0.3, 0.2);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT(n >= 5);
    check_run(s, 0.0, cr_sim_time(s), ev, n);
    for (k = 0; k < n; k++)
        if (ev[k].type == CR_EV_CUSHION)
            checked += check_cushion_contact(&ev[k]);
    CU_ASSERT(checked >= 3);
    CU_ASSERT(count_type(ev, n, CR_EV_COLLISION) >= 1);
    cr_sim_destroy(s);
}

/* A ball with topspin chasing a slower ball pushes it: no Zeno cascade of
 * collisions, no overlap, a handful of reported contacts. Slow breaks of a
 * tight rack (many touching balls pushing each other) settle too. */
static void test_pushes(void)
{
    cr_sim_t *s = sim_new(NULL);
    const cr_ball_pos_t b[2] = {{0, 600.0, 635.0}, {1, 600.0 + D2R + 2.0, 635.0}};
    cr_sim_transition_t tr[4096];
    run_info_t r;
    double rest;
    int n, nt, k;

    CU_ASSERT_FATAL(s != NULL);
    cr_sim_place(s, b, 2);
    /* the object ball rolls slowly ahead; the cue ball follows with heavy topspin */
    cr_sim_strike(s, 1, 150.0, 0.0, 0.0, 0.4);
    cr_sim_strike(s, 0, 200.0, 0.0, 0.0, 0.6);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT(n >= 1 && n <= 6);
    CU_ASSERT_EQUAL(cr_sim_time_all_at_rest(s, &rest), CR_OK);
    check_run(s, 0.0, rest, ev, n);
    CU_ASSERT_EQUAL(cr_sim_transitions(s, 0.0, rest, tr, 4096, &nt), CR_OK);
    CU_ASSERT(nt < 200);
    /* slow breaks */
    for (k = 0; k < 4; k++) {
        cr_sim_t *q = sim_new(NULL);

        r = run_break(q, k % 2 ? CR_GAME_9BALL : CR_GAME_8BALL, 500.0 + 400.0 * k, ev);
        CU_ASSERT(r.ok);
        check_run(q, 0.0, r.rest, ev, r.n_events);
        CU_ASSERT_EQUAL(cr_sim_transitions(q, 0.0, r.rest, tr, 4096, &nt), CR_OK);
        CU_ASSERT(nt < 2000);
        cr_sim_destroy(q);
    }
    cr_sim_destroy(s);
}

/* A cue ball resting a hair (under SEP_MM) from an object ball, struck
 * into it: a collision at the stroke (reported), not a push, and the
 * object ball leaves along the line of centres. Pushed slower than V_PUSH
 * the two stay a push (no event). */
static void test_struck_into_frozen_ball(void)
{
    static const double gaps[3] = {0.0, 0.05, 0.3};

    for (int q = 0; q < 3; q++) {
        cr_sim_t *s = sim_new(NULL);
        const cr_ball_pos_t b[2] = {{0, 600.0, 635.0}, {1, 600.0 + D2R + gaps[q], 635.0}};
        cr_sim_ball_t st[CR_NUM_BALLS];
        int n, k, hits = 0;

        CU_ASSERT_FATAL(s != NULL);
        CU_ASSERT_EQUAL(cr_sim_place(s, b, 2), CR_OK);
        CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 1500.0, 0.0, 0.0, 0.0), CR_OK);
        CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
        for (k = 0; k < n; k++)
            if (ev[k].type == CR_EV_COLLISION && ((ev[k].a == 0 && ev[k].b == 1) || (ev[k].a == 1 && ev[k].b == 0))) {
                hits++;
                if (hits == 1)
                    CU_ASSERT(ev[k].t < 1e-3);
            }
        CU_ASSERT(hits >= 1);
        CU_ASSERT_EQUAL(cr_sim_state_at(s, 0.2, st), CR_OK);
        CU_ASSERT(st[1].x > 600.0 + D2R + 100.0); /* driven off along the line */
        cr_sim_destroy(s);
    }
}

/* Slow breaks found by randomized testing where the balls end in tight
 * clusters: a ball wedged between others (the jam rule), balls pushed over
 * and over against resting neighbours (no drift into them). They must end,
 * in a bounded number of segments, with no overlap beyond 0.005 mm at any
 * change of motion. */
static void test_clusters(void)
{
    static const struct {
        uint64_t rack_seed;
        double cue_x, cue_y, speed, heading, a, b;
    } cases[] = {
        {4860, 767.88814278474342, 1018.0259124179631, 1368.7952730397631, -0.32931850968573834,
         0.0020683713324312959, -0.48958279194929777},
        {60, 854.17980718442846, 703.85008202133349, 1353.2140480764451, -0.066884981005932098,
         -0.15455306104701755, -0.31241862520942032},
    };
    static cr_sim_transition_t tr[4096];
    cr_table_t t = t9();
    size_t c;

    for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        cr_sim_t *s = sim_new(NULL);
        cr_ball_pos_t b[16];
        cr_sim_ball_t st[CR_NUM_BALLS];
        double rest, worst = 0.0;
        int nb, n, nt, k, i, j;

        CU_ASSERT_FATAL(s != NULL);
        nb = cr_table_rack(&t, CR_GAME_8BALL, CR_EDITION_WPA2008, cases[c].rack_seed, b, 15);
        b[nb].id = 0;
        b[nb].x = cases[c].cue_x;
        b[nb].y = cases[c].cue_y;
        CU_ASSERT_EQUAL(cr_sim_place(s, b, nb + 1), CR_OK);
        cr_sim_strike(s, 0, cases[c].speed, cases[c].heading, cases[c].a, cases[c].b);
        CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
        CU_ASSERT_EQUAL_FATAL(cr_sim_time_all_at_rest(s, &rest), CR_OK);
        CU_ASSERT_EQUAL(cr_sim_transitions(s, 0.0, rest, tr, 4096, &nt), CR_OK);
        CU_ASSERT(nt < 1000);
        for (k = 0; k < nt; k++) {
            cr_sim_state_at(s, tr[k].t, st);
            for (i = 0; i < CR_NUM_BALLS; i++)
                for (j = i + 1; j < CR_NUM_BALLS; j++)
                    if (st[i].on_table && st[j].on_table)
                        worst = fmax(worst, D2R - dist_xy(st[i].x, st[i].y, st[j].x, st[j].y));
        }
        CU_ASSERT(worst <= 0.005);
        check_run_tol(s, 0.0, rest, ev, n, 0.005);
        cr_sim_destroy(s);
    }
}

/* Two identical runs give identical events and states, bit for bit. */
static void test_determinism(void)
{
    cr_sim_t *a = sim_new(NULL), *b = sim_new(NULL);
    run_info_t ra, rb;
    cr_sim_ball_t sa[CR_NUM_BALLS], sb[CR_NUM_BALLS];
    int i;

    CU_ASSERT_FATAL(a != NULL && b != NULL);
    ra = run_break(a, CR_GAME_8BALL, 10000.0, ev);
    rb = run_break(b, CR_GAME_8BALL, 10000.0, ev2);
    CU_ASSERT_EQUAL_FATAL(ra.n_events, rb.n_events);
    CU_ASSERT(memcmp(&ra.rest, &rb.rest, sizeof(double)) == 0);
    for (i = 0; i < ra.n_events; i++) {
        CU_ASSERT_EQUAL(ev[i].type, ev2[i].type);
        CU_ASSERT(memcmp(&ev[i].t, &ev2[i].t, sizeof(double)) == 0);
        CU_ASSERT(memcmp(&ev[i].x, &ev2[i].x, sizeof(double)) == 0);
        CU_ASSERT_EQUAL(ev[i].a, ev2[i].a);
        CU_ASSERT_EQUAL(ev[i].ball, ev2[i].ball);
    }
    cr_sim_state_at(a, ra.rest * 0.37, sa);
    cr_sim_state_at(b, rb.rest * 0.37, sb);
    CU_ASSERT(same_states(sa, sb));
    cr_sim_destroy(a);
    cr_sim_destroy(b);
}

/* ---- several shots, touches, ball in hand ------------------------------------------ */

static void test_multi_shot(void)
{
    cr_sim_t *s = sim_new(NULL);
    const cr_ball_pos_t b[2] = {{0, 635.0, 635.0}, {1, 1905.0, 700.0}};
    cr_sim_ball_t mid1[CR_NUM_BALLS], again[CR_NUM_BALLS], st[CR_NUM_BALLS];
    double rest1, rest2, tmid;
    int n, n1;

    CU_ASSERT_FATAL(s != NULL);
    cr_sim_place(s, b, 2);
    cr_sim_strike(s, 0, 3000.0, 0.03, 0.0, 0.0);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n1), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_time_all_at_rest(s, &rest1), CR_OK);
    tmid = 0.5 * rest1;
    cr_sim_state_at(s, tmid, mid1);
    /* the next shot 3 s later */
    CU_ASSERT_EQUAL(cr_sim_wait(s, rest1 + 3.0), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_time_all_at_rest(s, &rest2), CR_OK);
    CU_ASSERT_EQUAL(rest2, rest1); /* nothing moved since */
    cr_sim_state_at(s, cr_sim_time(s), st);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 2000.0, PI, 0.0, 0.0), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_time_all_at_rest(s, &rest2), CR_OK);
    CU_ASSERT(rest2 > rest1 + 3.0);
    if (n > 0)
        CU_ASSERT(ev[0].t > rest1 + 3.0);
    /* the first shot's history is still there, exactly */
    cr_sim_state_at(s, tmid, again);
    CU_ASSERT(same_states(mid1, again));
    /* ball in hand: the cue ball taken off and put down again */
    CU_ASSERT_EQUAL(cr_sim_remove_ball(s, 0), CR_OK);
    cr_sim_state_at(s, cr_sim_time(s), st);
    CU_ASSERT_EQUAL(st[0].motion, CR_MOTION_ABSENT);
    CU_ASSERT_EQUAL(cr_sim_place_ball(s, 0, 400.0, 300.0), CR_OK);
    cr_sim_state_at(s, cr_sim_time(s), st);
    CU_ASSERT(st[0].on_table);
    CU_ASSERT_EQUAL(st[0].x, 400.0);
    /* not on another ball */
    CU_ASSERT_EQUAL(cr_sim_place_ball(s, 0, st[1].x + 30.0, st[1].y), CR_ERR_INVALID);
    cr_sim_destroy(s);
}

/* A touched ball (scripted, mid-shot) starts moving with no collision and
 * then follows the physics: slides, rolls, stops. */
static void test_nudge(void)
{
    cr_sim_t *s = sim_new(NULL);
    const cr_ball_pos_t b[2] = {{0, 500.0, 300.0}, {6, 1500.0, 1000.0}};
    cr_sim_ball_t st[CR_NUM_BALLS];
    cr_motion_t to = CR_MOTION_ABSENT;
    double t;
    int n;

    CU_ASSERT_FATAL(s != NULL);
    cr_sim_place(s, b, 2);
    cr_sim_strike(s, 0, 1500.0, 0.0, 0.0, 0.0);
    CU_ASSERT_EQUAL(cr_sim_run(s, 0.4, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_time(s), 0.4);
    CU_ASSERT_EQUAL(cr_sim_nudge(s, 0.3, 6, 0.0, -100.0), CR_ERR_INVALID); /* the past */
    CU_ASSERT_EQUAL(cr_sim_nudge(s, 0.5, 6, 0.0, -100.0), CR_ERR_INVALID); /* balls move */
    CU_ASSERT_EQUAL(cr_sim_nudge(s, 0.4, 6, 0.0, -150.0), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_run(s, INFINITY, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_EQUAL(count_type(ev, n, CR_EV_COLLISION), 0);
    t = next_change(s, 6, 0.4, &to);
    CU_ASSERT_EQUAL(to, CR_MOTION_ROLLING);
    CU_ASSERT_DOUBLE_EQUAL(t - 0.4, 2.0 * 150.0 / (7.0 * 0.2 * G), 1e-12);
    cr_sim_state_at(s, cr_sim_time(s), st);
    CU_ASSERT_EQUAL(st[6].motion, CR_MOTION_STATIONARY);
    CU_ASSERT(st[6].y < 1000.0 - 20.0);
    CU_ASSERT_DOUBLE_EQUAL(st[6].x, 1500.0, 1e-9);
    cr_sim_destroy(s);
}

/* ---- contract --------------------------------------------------------------------- */

static void test_api_errors(void)
{
    cr_table_t t = t9();
    cr_phys_params_t p;
    cr_sim_t *s = NULL, *keep = (cr_sim_t *)&t;
    cr_ball_pos_t b[2] = {{0, 500.0, 500.0}, {1, 500.0 + D2R - 0.01, 500.0}};
    cr_sim_ball_t st[CR_NUM_BALLS];
    double x;
    int n;

    CU_ASSERT_EQUAL(cr_sim_create(NULL, NULL, &s), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_sim_create(&t, NULL, NULL), CR_ERR_INVALID);
    cr_phys_params_defaults(&p);
    p.ball_restitution = 1.5;
    CU_ASSERT_EQUAL(cr_sim_create(&t, &p, &keep), CR_ERR_INVALID);
    CU_ASSERT(keep == (cr_sim_t *)&t); /* untouched on failure */
    cr_phys_params_defaults(&p);
    p.mu_roll = NAN;
    CU_ASSERT_EQUAL(cr_sim_create(&t, &p, &s), CR_ERR_INVALID);
    cr_sim_destroy(NULL);

    s = sim_new(NULL);
    CU_ASSERT_FATAL(s != NULL);
    CU_ASSERT_EQUAL(cr_sim_place(s, b, 2), CR_ERR_INVALID); /* overlap */
    b[1].x = 500.0 + D2R;
    b[1].id = 0;
    CU_ASSERT_EQUAL(cr_sim_place(s, b, 2), CR_ERR_INVALID); /* duplicate id */
    b[1].id = 16;
    CU_ASSERT_EQUAL(cr_sim_place(s, b, 2), CR_ERR_INVALID); /* bad id */
    b[1].id = 1;
    b[1].y = R - 0.5;
    CU_ASSERT_EQUAL(cr_sim_place(s, b, 2), CR_ERR_INVALID); /* in the cushion */
    b[1].y = 500.0;
    CU_ASSERT_EQUAL(cr_sim_place(s, b, 2), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 2, 1000.0, 0.0, 0.0, 0.0), CR_ERR_INVALID); /* absent */
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 12001.0, 0.0, 0.0, 0.0), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 0.0, 0.0, 0.0, 0.0), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 1000.0, 0.0, 0.61, 0.0), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 1000.0, NAN, 0.0, 0.0), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_sim_run(s, -1.0, ev, EV_CAP, &n), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_sim_run(s, NAN, ev, EV_CAP, &n), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_sim_state_at(s, -0.1, st), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_sim_time_all_at_rest(s, &x), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_strike(s, 0, 1000.0, PI, 0.0, 0.0), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_time_all_at_rest(s, &x), CR_ERR_INVALID); /* moving */
    CU_ASSERT_EQUAL(cr_sim_wait(s, 5.0), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_sim_state_at(s, 1.0, st), CR_ERR_INVALID); /* not simulated yet */
    CU_ASSERT_EQUAL(cr_sim_run(s, 0.1, ev, EV_CAP, &n), CR_OK);
    CU_ASSERT_EQUAL(cr_sim_run(s, 0.05, ev, EV_CAP, &n), CR_ERR_INVALID); /* the past */
    CU_ASSERT_EQUAL(cr_sim_leave_at_contact(s, 0, -1), CR_ERR_INVALID);
    CU_ASSERT_STRING_EQUAL(cr_motion_name(CR_MOTION_ROLLING), "rolling");
    CU_ASSERT_STRING_EQUAL(cr_motion_name(CR_MOTION_COUNT), "?");
    cr_sim_destroy(s);
}

/* A full event buffer stops the run just before the event that does not
 * fit; running on gives the same stream as one big buffer. A full segment
 * store reports CR_ERR_FULL. */
static void test_full(void)
{
    cr_sim_t *a = sim_new(NULL), *b = sim_new(NULL), *c;
    cr_phys_params_t p;
    run_info_t ra;
    int n, total = 0, rc, guard = 0;
    cr_table_t t = t9();
    cr_ball_pos_t rack[16];
    int nb;

    CU_ASSERT_FATAL(a != NULL && b != NULL);
    ra = run_break(a, CR_GAME_9BALL, 8000.0, ev);
    CU_ASSERT(ra.ok);
    nb = cr_table_rack(&t, CR_GAME_9BALL, CR_EDITION_WPA2008, 3, rack, 15);
    rack[nb].id = 0;
    rack[nb].x = 635.0;
    rack[nb].y = 640.0;
    cr_sim_place(b, rack, nb + 1);
    cr_sim_strike(b, 0, 8000.0, -0.004, 0.0, 0.1);
    do {
        rc = cr_sim_run(b, INFINITY, ev2 + total, 3, &n);
        CU_ASSERT(n <= 3);
        total += n;
    } while (rc == CR_ERR_FULL && ++guard < 10000);
    CU_ASSERT_EQUAL(rc, CR_OK);
    CU_ASSERT_EQUAL_FATAL(total, ra.n_events);
    for (n = 0; n < total; n++) {
        CU_ASSERT_EQUAL(ev[n].type, ev2[n].type);
        CU_ASSERT(memcmp(&ev[n].t, &ev2[n].t, sizeof(double)) == 0);
    }
    cr_sim_destroy(a);
    cr_sim_destroy(b);

    cr_phys_params_defaults(&p);
    p.max_segments = 64;
    c = sim_new(&p);
    CU_ASSERT_FATAL(c != NULL);
    cr_sim_place(c, rack, nb + 1);
    cr_sim_strike(c, 0, 8000.0, -0.004, 0.0, 0.1);
    CU_ASSERT_EQUAL(cr_sim_run(c, INFINITY, ev, EV_CAP, &n), CR_ERR_FULL);
    cr_sim_destroy(c);
}

int cr_test_register_physics(void)
{
    CU_pSuite solver, motion, balls, cushions, runs, api;

    solver = CU_add_suite("physics solver", NULL, NULL);
    if (!solver || !CU_add_test(solver, "simple roots", test_roots_simple) ||
        !CU_add_test(solver, "hard roots", test_roots_hard))
        return 1;
    motion = CU_add_suite("physics motion", NULL, NULL);
    if (!motion || !CU_add_test(motion, "slide, roll, stop", test_slide_roll_stop) ||
        !CU_add_test(motion, "spin states", test_spin_states) || !CU_add_test(motion, "nudge", test_nudge))
        return 1;
    balls = CU_add_suite("physics ball-ball", NULL, NULL);
    if (!balls || !CU_add_test(balls, "momentum and restitution", test_momentum) ||
        !CU_add_test(balls, "stun 90 deg rule", test_stun_90) ||
        !CU_add_test(balls, "rolling 30 deg rule", test_rolling_30) ||
        !CU_add_test(balls, "collision order", test_order) ||
        !CU_add_test(balls, "frozen balls quiet", test_frozen_quiet) ||
        !CU_add_test(balls, "frozen balls transfer", test_frozen_transfer))
        return 1;
    cushions = CU_add_suite("physics cushions and pockets", NULL, NULL);
    if (!cushions || !CU_add_test(cushions, "rebound angles", test_cushion_rebound) ||
        !CU_add_test(cushions, "english", test_cushion_english) ||
        !CU_add_test(cushions, "dead cushion pushes", test_cushion_push) ||
        !CU_add_test(cushions, "straight pots", test_pocket_straight) ||
        !CU_add_test(cushions, "jaw rattle", test_jaw_rattle) ||
        !CU_add_test(cushions, "off the table", test_off_table))
        return 1;
    runs = CU_add_suite("physics runs", NULL, NULL);
    if (!runs || !CU_add_test(runs, "breaks", test_break) || !CU_add_test(runs, "energy", test_energy) ||
        !CU_add_test(runs, "exact event times", test_exact_times) || !CU_add_test(runs, "pushes", test_pushes) ||
        !CU_add_test(runs, "struck into a ball it rests a hair from", test_struck_into_frozen_ball) ||
        !CU_add_test(runs, "clusters", test_clusters) ||
        !CU_add_test(runs, "determinism", test_determinism) ||
        !CU_add_test(runs, "several shots", test_multi_shot))
        return 1;
    api = CU_add_suite("physics api", NULL, NULL);
    if (!api || !CU_add_test(api, "errors", test_api_errors) || !CU_add_test(api, "full buffers", test_full))
        return 1;
    return 0;
}
