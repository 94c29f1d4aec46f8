/*
 * test_early.c - the first contact called from the newest frames
 * (cr_early.h), and the tracker's newest frame it reads (cr_tracker_peek()).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "cr_early.h"
#include "cr_track.h"
#include "test_suites.h"

/* ---- synthetic frames: the cue ball (track 0) sent at the 3 (track 1),
 * a cut: the 3 lies CUT_MM off the cue ball's line. The 1 (track 2) rests
 * out of the way. Everything seen, with a small noise. */

#define CUT_MM 20.0
#define SPEED 1500.0 /* mm/s */
#define T_STROKE 0.5

typedef enum {
    PLAIN,
    TWO_MOVE,     /* a second ball leaves its place in the frame the 3 does */
    HELD_IN_WAY,  /* a ball held hidden beside the cue ball's way */
    UNNAMED,      /* a ball on the table with no sure id */
    SIDEWAYS,     /* the 3 moves off across the line of centres (a hand, not a blow) */
    GRAZED,       /* a ball the cue ball's way passes a hair wide of, on its way (touched?) */
    LOST_ROLLING, /* a ball far off, lost from sight just before the contact and held rolling */
    PASSED_WIDE,  /* a ball the cue ball's way passes 5 mm wide of: not touched, a call */
    OFF_CUSHION,  /* the 3 lies 3 mm off the right cushion, is driven into it and comes back: a call */
    NEAR,         /* the cue ball rests 4 mm short of touching the 3: both leave their places at once */
    NEAR_CROWDED, /* ... and a ball rests 13 mm beside the cue ball, off its way (which is not seen) */
    WAVER,        /* a ball the cue ball's way passes a hair wide of is fitted 5 mm off, away from the
                     way, in one frame as the cue ball goes by (at 60 fps) */
} variant_t;

/* Where frames fall in time: frame k at (k + frame_phase) / fps. */
static double frame_phase = 0.37;

static unsigned noise_state;

static double noise(void)
{
    noise_state = noise_state * 1103515245u + 12345u;
    return ((double)((noise_state >> 8) & 0xffff) / 65535.0 - 0.5) * 0.4; /* +-0.2 mm */
}

static void put(cr_ball_frame_t *f, int track, int id, double x, double y, cr_ball_status_t st)
{
    cr_ball_obs_t *b = &f->balls[f->n++];

    memset(b, 0, sizeof(*b));
    b->track = track;
    b->id = id;
    b->status = st;
    b->sigma_mm = 0.3;
    b->has_raw = st == CR_BALL_SEEN;
    b->x = b->raw_x = x + (st == CR_BALL_SEEN ? noise() : 0.0);
    b->y = b->raw_y = y + (st == CR_BALL_SEEN ? noise() : 0.0);
}

/* Where the cue ball rests (x; its y is the 3's less CUT_MM). */
static double cue_start(variant_t v, double R)
{
    return v == NEAR || v == NEAR_CROWDED ? 1300.0 - sqrt(4.0 * R * R - CUT_MM * CUT_MM) - 4.0 : 1000.0;
}

/* The true contact time. */
static double contact_time(variant_t v, double R)
{
    double along = sqrt(4.0 * R * R - CUT_MM * CUT_MM);

    return T_STROKE + (1300.0 - along - cue_start(v, R)) / SPEED;
}

static void make_frame(variant_t v, double R, double t, cr_ball_frame_t *f)
{
    const double base = v == OFF_CUSHION ? 1270.0 - R - 3.0 - CUT_MM : 600.0;
    const double cx0 = cue_start(v, R), cy = base, bx = 1300.0, by = base + CUT_MM;
    double tc = contact_time(v, R), along = sqrt(4.0 * R * R - CUT_MM * CUT_MM);
    double ux = along / (2 * R), uy = CUT_MM / (2 * R); /* line of centres, cue ball to the 3 */
    double x, y;

    f->t = t;
    f->n = 0;
    /* the cue ball: rests, rolls at the 3, then on along the tangent line */
    if (t <= T_STROKE) {
        x = cx0;
        y = cy;
    } else if (t <= tc) {
        x = cx0 + SPEED * (t - T_STROKE);
        y = cy;
    } else {
        double vt = SPEED * uy; /* what the blow leaves it: the part across the line of centres */

        x = bx - along + vt * (t - tc) * uy;
        y = cy - vt * (t - tc) * ux;
    }
    put(f, 0, 0, x, y, CR_BALL_SEEN);
    /* the 3 */
    if (t <= tc) {
        x = bx;
        y = by;
    } else {
        double vb = SPEED * ux, dx = ux, dy = uy;

        if (v == SIDEWAYS) {
            dx = -uy;
            dy = ux;
        }
        x = bx + vb * (t - tc) * dx;
        y = by + vb * (t - tc) * dy;
        if (y > 1270.0 - R)
            y = 2.0 * (1270.0 - R) - y; /* off the right cushion */
    }
    put(f, 1, 3, x, y, CR_BALL_SEEN);
    /* the 1, far off; in TWO_MOVE it leaves its place just as the 3 does */
    x = 2000.0;
    y = 300.0;
    if (v == TWO_MOVE && t > tc)
        x += 900.0 * (t - tc);
    put(f, 2, 1, x, y, CR_BALL_SEEN);
    if (v == HELD_IN_WAY)
        put(f, 3, 5, 1150.0, 600.0 - 2.0 * R - 1.0, CR_BALL_HIDDEN);
    if (v == UNNAMED)
        put(f, 3, -1, 600.0, 1000.0, CR_BALL_SEEN);
    if (v == GRAZED)
        put(f, 3, 5, 1150.0, 600.0 - 2.0 * R - 1.5, CR_BALL_SEEN);
    if (v == WAVER) {
        /* the frame in which the cue ball is nearest it */
        const double tn = T_STROKE + (1150.0 - cx0) / SPEED, fps = 60.0;
        const bool off = fabs(t - tn) <= 0.5 / fps;

        put(f, 3, 5, 1150.0, 600.0 - 2.0 * R - 1.5 - (off ? 5.0 : 0.0), CR_BALL_SEEN);
    }
    if (v == NEAR_CROWDED)
        put(f, 3, 5, cx0, cy - 2.0 * R - 13.0, CR_BALL_SEEN);
    if (v == PASSED_WIDE)
        put(f, 3, 5, 1150.0, 600.0 - 2.0 * R - 5.0, CR_BALL_SEEN);
    if (v == LOST_ROLLING) {
        if (t < tc - 0.02)
            put(f, 3, 5, 1800.0, 1000.0, CR_BALL_SEEN);
        else
            put(f, 3, 5, 1800.0 + 400.0 * (t - tc + 0.02), 1000.0, CR_BALL_HIDDEN);
    }
}

/* Runs the watcher over 1.5 s of frames. Returns the count of calls; the
 * first's contact and the time of the frame that made it. */
static int run_early(variant_t v, double fps, cr_early_contact_t *c, double *t_called)
{
    cr_table_t tab;
    cr_early_t *e = NULL;
    cr_ball_frame_t f;
    cr_early_contact_t got;
    int k, calls = 0;

    cr_table_init(&tab, 2540.0, 1270.0);
    noise_state = 7u;
    CU_ASSERT_EQUAL_FATAL(cr_early_create(&tab, NULL, &e), CR_OK);
    for (k = 0; k < (int)(1.5 * fps); k++) {
        /* frames off the round times: the contact falls between frames */
        make_frame(v, tab.ball_radius_mm, (k + frame_phase) / fps, &f);
        f.frame = (uint64_t)k;
        if (cr_early_push(e, &f, &got) == 1) {
            if (calls++ == 0) {
                *c = got;
                *t_called = f.t;
            }
        }
    }
    cr_early_destroy(e);
    return calls;
}

/* Runs variant v at fps: one call, of the 3, timed within a fifth of a
 * frame of the true contact, made after it and within max_frames frame
 * periods, listing the balls on the table at the stroke. Returns it. */
static cr_early_contact_t called_once(variant_t v, double fps, double max_frames)
{
    cr_early_contact_t c;
    double tc = contact_time(v, CR_BALL_RADIUS_MM), t_called = -1;

    memset(&c, 0, sizeof(c));
    CU_ASSERT_EQUAL(run_early(v, fps, &c, &t_called), 1);
    CU_ASSERT_EQUAL(c.ball, 3);
    CU_ASSERT_DOUBLE_EQUAL(c.t, tc, 0.2 / fps);
    CU_ASSERT_TRUE(t_called > tc && t_called - tc <= max_frames / fps + 1e-9);
    CU_ASSERT_EQUAL(c.ids, (1u << 0) | (1u << 1) | (1u << 3));
    return c;
}

static void test_plain_first_contact(void)
{
    cr_early_contact_t w;
    double t_w;
    const double fps[] = {60.0, 30.0, 120.0};

    for (int i = 0; i < 3; i++) {
        /* timed from the cue ball's way in, called two frames after the
         * contact at the most */
        cr_early_contact_t c = called_once(PLAIN, fps[i], 2.0);

        CU_ASSERT_TRUE(c.t_stroke <= T_STROKE + 1e-9 && c.t_stroke > T_STROKE - 1.5 / fps[i]);
        CU_ASSERT_EQUAL(c.n_balls, 3);
    }
    CU_ASSERT_EQUAL(run_early(PASSED_WIDE, 60.0, &w, &t_w), 1);
    CU_ASSERT_EQUAL(w.ball, 3);
    /* at 30 fps its second sighting off its place is well after the bounce */
    CU_ASSERT_EQUAL(run_early(OFF_CUSHION, 30.0, &w, &t_w), 1);
    CU_ASSERT_EQUAL(w.ball, 3);
}

/* The cue ball rests 4 mm short of touching the 3: it touches it 3 ms
 * after the stroke. At 30 and 60 fps it is not seen moving before it does,
 * and both balls leave their places in one frame; no other ball lies near
 * enough to have been touched on any way to the 3, so the 3 is called from
 * the places, within two frames, timed (from the 3's way off) within a
 * fifth of a frame. With a ball resting 13 mm beside the cue ball (which
 * an unseen way could have touched first) nothing is called. At 120 fps
 * the cue ball is seen once on its way (the contact falls 0.4 ms before a
 * frame, the 3 barely moved by then): its way passes the other ball wide,
 * and the call comes by that way, at the 3's second sighting off its
 * place, in the third frame. */
static void test_near_first_contact(void)
{
    const double fps[] = {60.0, 30.0, 120.0};

    for (int i = 0; i < 3; i++) {
        cr_early_contact_t c = called_once(NEAR, fps[i], fps[i] > 100 ? 3.0 : 2.0);
        double t_called;

        CU_ASSERT_TRUE(c.t > c.t_stroke);
        CU_ASSERT_EQUAL(run_early(NEAR_CROWDED, fps[i], &c, &t_called), fps[i] > 100 ? 1 : 0);
    }
}

/* The contact falls a twentieth of a frame before a frame: in that frame
 * the 3 has barely left its place (1 mm at 60 fps, under moved_mm), in the
 * next it is well off it, and the cue ball, which the blow turned, is off
 * its straight way in: two witnesses in one frame, the call comes then,
 * within two frames of the contact (its second sighting off its place,
 * the frame after, would be over two). At 30, 60 and 120 fps. */
static void test_late_contact_called_at_first_clear_sighting(void)
{
    const double fps[] = {60.0, 30.0, 120.0}, tc = contact_time(PLAIN, CR_BALL_RADIUS_MM);

    for (int i = 0; i < 3; i++) {
        /* frame k at (k + phase) / fps: one 0.05 frame after the contact */
        frame_phase = fmod(tc * fps[i] + 0.05, 1.0);
        called_once(PLAIN, fps[i], 2.0);
    }
    frame_phase = 0.37;
}

static void test_unclear_first_contact_not_called(void)
{
    const variant_t v[] = {TWO_MOVE, HELD_IN_WAY, UNNAMED, SIDEWAYS, GRAZED, LOST_ROLLING, WAVER};
    int i;

    /* WAVER: the ball the cue ball passes a hair wide of is seen off its
     * place once, along a line of centres, over twice moved_mm; but the cue
     * ball goes on straight (nothing turned it): no call from that one
     * sighting, and then, as GRAZED, none for the 3 */
    for (i = 0; i < 7; i++) {
        cr_early_contact_t c;
        double t_called;
        int calls = run_early(v[i], 60.0, &c, &t_called);

        CU_ASSERT_EQUAL(calls, 0);
        if (calls != 0)
            fprintf(stderr, "\nvariant %d called the %d at %.4f s\n", (int)v[i], c.ball, c.t);
    }
}

/* ---- a ball dropped: the cue ball (track 5) rolls at 1 m/s along
 * (dx, dy) from (x0, y0) and is seen while its centre is short of the
 * foot-right mouth line of a 2540 x 1270 table (x + y = 3728), then is
 * GONE; or is seen until 28 mm past it (over the hole); or it stops at
 * x + y = 3740 (hung past the mouth line) and is GONE a second later; or,
 * rolling at 120 mm/s, it is lost 30 mm short of the mouth line for 0.6 s
 * (its straight course would have passed the line by a radius in 0.49 s,
 * followed longer than the watcher follows one) and found again where it
 * stopped, 20 mm short. */

typedef enum {
    DROP_CLEAN,
    DROP_SEEN_PAST,
    DROP_BY_A_JAW,
    DROP_HUNG,
    DROP_LOST_IN_THE_OPEN,
    DROP_LOST_SLOW
} drop_variant_t;

static int run_drop(drop_variant_t v, double fps, cr_early_drop_t *d, double *t_called, double *t_last_seen)
{
    cr_table_t tab;
    cr_early_t *e = NULL;
    cr_ball_frame_t f;
    cr_early_contact_t c;
    double x0 = 2300.0, y0 = v == DROP_BY_A_JAW ? 970.0 : 1030.0, u = sqrt(0.5), speed = v == DROP_LOST_SLOW ? 120.0 : 1000.0;
    int k, calls = 0;

    if (v == DROP_LOST_IN_THE_OPEN) {
        x0 = 1000.0;
        y0 = 300.0;
    }
    cr_table_init(&tab, 2540.0, 1270.0);
    noise_state = 11u;
    *t_last_seen = -1.0;
    CU_ASSERT_EQUAL_FATAL(cr_early_create(&tab, NULL, &e), CR_OK);
    for (k = 0; k < (int)((v == DROP_LOST_SLOW ? 4.0 : 2.0) * fps); k++) {
        double t = (k + 0.21) / fps, s = speed * t, x, y, past; /* past: mm beyond the mouth line */
        cr_early_drop_t got[4];
        bool seen;

        if (v == DROP_HUNG && x0 + y0 + 2.0 * u * s > 3740.0)
            s = (3740.0 - x0 - y0) / (2.0 * u);
        if (v == DROP_LOST_SLOW && x0 + y0 + 2.0 * u * s > 3728.0 - 20.0 / u)
            s = (3728.0 - 20.0 / u - x0 - y0) / (2.0 * u);
        x = x0 + u * s;
        y = y0 + u * s;
        past = (x + y - 3728.0) * u;
        if (v == DROP_LOST_IN_THE_OPEN)
            seen = t < 0.5;
        else if (v == DROP_HUNG)
            seen = t < 1.2;
        else if (v == DROP_LOST_SLOW)
            seen = past < -30.0 || t > (281.4 - 30.0) / speed + 0.6;
        else
            seen = past < (v == DROP_SEEN_PAST ? 28.0 : 0.0);
        f.t = t;
        f.frame = (uint64_t)k;
        f.n = 0;
        put(&f, 5, 0, x, y, seen ? CR_BALL_SEEN : CR_BALL_GONE);
        if (seen)
            *t_last_seen = t;
        cr_early_push(e, &f, &c);
        if (cr_early_drops(e, got, 4) > 0 && calls++ == 0) {
            *d = got[0];
            *t_called = t;
        }
    }
    cr_early_destroy(e);
    return calls;
}

static void test_drops(void)
{
    const double fps[] = {30.0, 60.0, 120.0}, R = 57.15 / 2.0;
    cr_early_drop_t d;
    double t_called, t_seen;
    int i;

    for (i = 0; i < 3; i++) {
        /* last seen short of the mouth line: dated where its course crossed
         * it (as the reconstruction dates it), called once unseen for two
         * frames and a radius past the line by its course (within two
         * frames of that: the course is measured from noisy sightings) */
        CU_ASSERT_EQUAL_FATAL(run_drop(DROP_CLEAN, fps[i], &d, &t_called, &t_seen), 1);
        CU_ASSERT_EQUAL(d.ball, 0);
        CU_ASSERT_EQUAL(d.pocket, CR_POCKET_FOOT_RIGHT);
        CU_ASSERT_DOUBLE_EQUAL(d.t, (3728.0 - 3330.0) / (2.0 * sqrt(0.5)) / 1000.0, 0.002);
        CU_ASSERT_TRUE(t_called - t_seen >= 2.0 / fps[i] - 1e-9 && t_called <= d.t + R / 1000.0 + 2.0 / fps[i]);
        if (!(t_called <= d.t + R / 1000.0 + 2.0 / fps[i]))
            printf("\n  %g fps: called %.1f ms after last seen, %.1f ms after its crossing", fps[i], 1000.0 * (t_called - t_seen), 1000.0 * (t_called - d.t));
        /* seen over the hole: dated when last seen, called after one unseen frame */
        CU_ASSERT_EQUAL_FATAL(run_drop(DROP_SEEN_PAST, fps[i], &d, &t_called, &t_seen), 1);
        CU_ASSERT_EQUAL(d.pocket, CR_POCKET_FOOT_RIGHT);
        CU_ASSERT_DOUBLE_EQUAL(d.t, t_seen, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(t_called - t_seen, 1.0 / fps[i], 1e-9);
    }
    /* in past a jaw point (within R of it), hung in the jaws, lost in the
     * open, lost slow short of the mouth for longer than three frames: not
     * called */
    CU_ASSERT_EQUAL(run_drop(DROP_BY_A_JAW, 60.0, &d, &t_called, &t_seen), 0);
    CU_ASSERT_EQUAL(run_drop(DROP_HUNG, 60.0, &d, &t_called, &t_seen), 0);
    CU_ASSERT_EQUAL(run_drop(DROP_LOST_IN_THE_OPEN, 60.0, &d, &t_called, &t_seen), 0);
    CU_ASSERT_EQUAL(run_drop(DROP_LOST_SLOW, 30.0, &d, &t_called, &t_seen), 0);
    CU_ASSERT_EQUAL(run_drop(DROP_LOST_SLOW, 60.0, &d, &t_called, &t_seen), 0);
}

/* The tracker's newest frame: this frame's own detection, before the
 * look-ahead lets the frame out. */
static void test_tracker_peek(void)
{
    cr_table_t tab;
    cr_track_params_t p;
    cr_tracker_t *tr = NULL;
    cr_ball_frame_t *f = calloc(2, sizeof(*f));
    cr_detection_t d;
    int k, popped = 0;

    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    cr_table_init(&tab, 2540.0, 1270.0);
    cr_track_params_defaults(&p);
    p.delay_frames = 8;
    CU_ASSERT_EQUAL_FATAL(cr_tracker_create(&tab, &p, &tr), CR_OK);
    CU_ASSERT_EQUAL(cr_tracker_peek(tr, f), 0); /* nothing pushed */
    memset(&d, 0, sizeof(d));
    d.sigma_mm = 0.5;
    d.score = 1.0f;
    d.visible = 1.0f;
    d.fg_share = 1.0f;
    d.colour_p[CR_COLOUR_WHITE] = 1.0f;
    d.white_frac = 1.0f;
    d.id_p[0] = 1.0f;
    for (k = 0; k < 30; k++) {
        d.x = 800.0 + 10.0 * k;
        d.y = 500.0;
        CU_ASSERT_EQUAL_FATAL(cr_tracker_push(tr, k / 60.0, (uint64_t)k, &d, 1), CR_OK);
        while (cr_tracker_pop(tr, &f[1]) == 1)
            popped++;
        CU_ASSERT_EQUAL_FATAL(cr_tracker_peek(tr, f), 1);
        CU_ASSERT_EQUAL(f->frame, (uint64_t)k);
        CU_ASSERT_DOUBLE_EQUAL(f->t, k / 60.0, 1e-9);
    }
    /* the frame popped last is delay_frames behind; the peeked one is this one */
    CU_ASSERT_EQUAL(popped, 30 - p.delay_frames);
    CU_ASSERT_EQUAL_FATAL(f->n, 1);
    CU_ASSERT_TRUE(f->balls[0].has_raw);
    CU_ASSERT_EQUAL(f->balls[0].status, CR_BALL_SEEN);
    CU_ASSERT_DOUBLE_EQUAL(f->balls[0].x, 800.0 + 10.0 * 29, 1e-3);
    CU_ASSERT_EQUAL(f->balls[0].id, 0);
    cr_tracker_destroy(tr);
    free(f);
}

int cr_test_register_early(void)
{
    CU_pSuite s = CU_add_suite("early", NULL, NULL);

    if (!s || !CU_add_test(s, "a plain first contact is called within two frames", test_plain_first_contact) ||
        !CU_add_test(s, "a ball the cue ball lay close to, touched before it was seen moving",
                     test_near_first_contact) ||
        !CU_add_test(s, "a contact late in a frame interval is called at the first clear sighting",
                     test_late_contact_called_at_first_clear_sighting) ||
        !CU_add_test(s, "an unclear first contact is left to the reconstruction",
                     test_unclear_first_contact_not_called) ||
        !CU_add_test(s, "a ball dropped into a pocket, and three that are not called", test_drops) ||
        !CU_add_test(s, "the tracker's newest frame, before its look-ahead", test_tracker_peek))
        return -1;
    return 0;
}
