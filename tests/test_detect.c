/*
 * test_detect.c - vision/cr_detect.h on frames rendered by the simulator
 * (sim/cr_render.h) at 640x360 and converted to I420.
 *
 * Truth is the scene itself: ball centres in table mm, and the renderer's
 * per-ball pixel counts tell which balls are at least half visible. Every
 * such ball must be found within tolerance, nothing may be reported more
 * than R from a ball (no phantoms from the cue, the arm, shadows, pockets,
 * diamonds), and the cue ball and the 8-ball must be told apart from the
 * rest. At 640x360 a ball is about 5.6 px in radius (1 px is about 5 mm),
 * at 960x540 8.5 px (1 px about 3.4 mm), so the position bounds are looser
 * than the 1080p targets.
 *
 * Known weakness, tested apart: a ball of the cloth's own colour (red 3 on
 * burgundy, green 6 on green, blue 2 on blue) shows no colour edge; only its
 * shading outlines it, and its cast shadow can pull the fit by up to a few
 * pixels. Those balls must be found, within 4 px; the others within the
 * tighter bounds. At rest in frames that differ only by noise (1280x720),
 * such a ball must also keep still: no jump over 3 mm between frames.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "cr_camera.h"
#include "cr_detect.h"
#include "cr_render.h"
#include "cr_table.h"
#include "cr_vision.h"
#include "test_suites.h"

#define RB CR_BALL_RADIUS_MM

typedef struct {
    int w, h;
    cr_camera_t cam;
    cr_table_t tab;
    cr_renderer_t *r;
    uint8_t *rgb, *y, *u, *v;
} td_ctx_t;

/* Builds a renderer for w x h frames, a camera (tilt, k1) and a cloth. */
static int td_open_lit(td_ctx_t *c, int w, int h, double tilt, double az, double k1, cr_cloth_preset_t cloth,
                       uint64_t seed, double exposure)
{
    cr_camera_setup_t cs;
    cr_render_params_t rp;
    const int W = w, H = h;

    memset(c, 0, sizeof *c);
    c->w = w, c->h = h;
    cr_table_init(&c->tab, 2540.0, 1270.0);
    cr_camera_setup_defaults(&cs, W, H);
    cs.tilt_deg = tilt;
    cs.tilt_azimuth_deg = az;
    cs.k1 = k1;
    if (cr_camera_build(&cs, &c->tab, &c->cam) != 0)
        return -1;
    cr_render_params_defaults(&rp, &c->tab);
    cr_render_cloth_rgb(cloth, rp.cloth_rgb);
    rp.seed = seed;
    rp.exposure = exposure;
    if (cr_renderer_create(&c->cam, &c->tab, &rp, &c->r) != 0)
        return -1;
    c->rgb = malloc((size_t)W * H * 3);
    c->y = malloc((size_t)W * H);
    c->u = malloc((size_t)(W / 2) * (H / 2));
    c->v = malloc((size_t)(W / 2) * (H / 2));
    return c->rgb && c->y && c->u && c->v ? 0 : -1;
}

static int td_open(td_ctx_t *c, int w, int h, double tilt, double az, double k1, cr_cloth_preset_t cloth,
                   uint64_t seed)
{
    return td_open_lit(c, w, h, tilt, az, k1, cloth, seed, 1.0);
}

static void td_close(td_ctx_t *c)
{
    cr_renderer_destroy(c->r);
    free(c->rgb);
    free(c->y);
    free(c->u);
    free(c->v);
}

/* Renders n_sub sub-frames and converts to I420. */
static int td_render(td_ctx_t *c, const cr_render_scene_t *sub, int n_sub, uint64_t frame, cr_render_info_t *info,
                     cr_yuv_image_t *img)
{
    const int W = c->w, H = c->h;

    if (cr_render_frame(c->r, sub, n_sub, frame, c->rgb, 3 * W, info) != 0)
        return -1;
    cr_vision_rgb_to_i420(c->rgb, W, H, 3 * W, c->y, c->u, c->v);
    img->y = c->y, img->u = c->u, img->v = c->v;
    img->width = W, img->height = H;
    img->stride_y = W, img->stride_u = W / 2, img->stride_v = W / 2;
    return 0;
}

/* Image area of a fully visible ball at (x, y), px. */
static double td_disc_px(const cr_camera_t *cam, double x, double y)
{
    double u0, v0, u1, v1, r;

    if (!cr_camera_project(cam, x, y, RB, &u0, &v0) || !cr_camera_project(cam, x + RB, y, RB, &u1, &v1))
        return 1.0;
    r = hypot(u1 - u0, v1 - v0);
    return 3.14159265358979 * r * r;
}

static void td_ball(cr_render_ball_t *b, int id, double x, double y)
{
    memset(b, 0, sizeof *b);
    b->id = id;
    b->x_mm = x;
    b->y_mm = y;
    b->q[0] = 1.0;
    b->visible = true;
}

typedef struct {
    unsigned same_mask; /* in: ids of the cloth's own colour (bit per id) */
    int visible, found, phantoms;
    double err_sum, err_max;   /* balls whose colour differs from the cloth */
    double err_same_max;       /* balls of the cloth's own colour */
    int n_err;
    int id_ok[16]; /* argmax id_p == id for found balls */
    int id_found[16];
} td_score_t;

/* Scores detections against balls (truth at mid-exposure: xs, ys). */
static void td_score(const td_ctx_t *c, const cr_render_ball_t *balls, const double *xs, const double *ys, int nb,
                     const cr_render_info_t *info, const cr_detection_t *det, int nd, td_score_t *s)
{
    int used[CR_VISION_MAX_DETECTIONS] = {0}, i, k;

    for (i = 0; i < nb; i++) {
        double area = td_disc_px(&c->cam, xs[i], ys[i]), best = 1e9;
        int bi = -1;

        if (!balls[i].visible || info->ball_px[balls[i].id] < 0.5 * area)
            continue;
        s->visible++;
        for (k = 0; k < nd; k++) {
            double e = hypot(det[k].x - xs[i], det[k].y - ys[i]);

            if (!used[k] && e < best && e < RB)
                best = e, bi = k;
        }
        if (bi < 0) {
            double u = 0.0, v = 0.0;

            cr_camera_project(&c->cam, xs[i], ys[i], RB, &u, &v);
            printf("\n  missed ball %d at (%.1f, %.1f) mm, (%.1f, %.1f) px", balls[i].id, xs[i], ys[i], u, v);
            continue;
        }
        used[bi] = 1;
        s->found++;
        if (s->same_mask & (1u << balls[i].id)) {
            if (best > s->err_same_max)
                s->err_same_max = best;
            continue;
        }
        if (best > 5.0)
            printf("\n  ball %d at (%.1f, %.1f) mm: error %.2f mm, found at (%.2f, %.2f) px", balls[i].id, xs[i],
                   ys[i], best, det[bi].u, det[bi].v);
        s->err_sum += best;
        s->n_err++;
        if (best > s->err_max)
            s->err_max = best;
        {
            int am = 0, j;

            for (j = 1; j < 16; j++)
                if (det[bi].id_p[j] > det[bi].id_p[am])
                    am = j;
            s->id_found[balls[i].id]++;
            s->id_ok[balls[i].id] += am == balls[i].id;
        }
    }
    for (k = 0; k < nd; k++) {
        double best = 1e9;

        if (used[k])
            continue;
        for (i = 0; i < nb; i++)
            if (balls[i].visible && hypot(det[k].x - xs[i], det[k].y - ys[i]) < best)
                best = hypot(det[k].x - xs[i], det[k].y - ys[i]);
        if (best > RB) {
            s->phantoms++;
            printf("\n  phantom at (%.1f, %.1f) score %.2f", det[k].x, det[k].y, det[k].score);
        }
    }
}

/* The ids of the balls in a scene: full rack, cue ball, balls on cushions
 * and in pocket mouths. Returns the count. */
static int td_table_scene(const cr_table_t *t, cr_render_ball_t *balls, uint64_t seed)
{
    cr_ball_pos_t rack[15];
    int n = cr_table_rack(t, CR_GAME_8BALL, CR_EDITION_WPA2008, seed, rack, 15), i, nb = 0;

    for (i = 0; i < n; i++)
        td_ball(&balls[nb++], rack[i].id, rack[i].x, rack[i].y);
    (void)nb;
    return nb;
}

/* Renders balls at rest as frame 0, creates a detector on it and runs it:
 * returns the number of detections (det), or -1. */
static int td_first_frame(td_ctx_t *c, cr_render_ball_t *still, int n, cr_detector_t **d, cr_detection_t *det)
{
    cr_render_scene_t sc;
    cr_render_info_t info;
    cr_yuv_image_t img;
    int nd = 0;

    memset(&sc, 0, sizeof sc);
    sc.balls = still;
    sc.n_balls = n;
    if (td_render(c, &sc, 1, 0, &info, &img) != 0 || cr_detector_create(&c->cam, &c->tab, NULL, d) != 0 ||
        cr_detector_run(*d, &img, det, CR_VISION_MAX_DETECTIONS, &nd) != 0)
        return -1;
    return nd;
}

/* Sub-frames of an exposure in which ball 0 of the three still ones moves
 * through (x, y) by +-b mm along heading dir: sub-frame k at fraction
 * (k + 0.5) / nsub of the exposure. */
static void td_moving_subs(const cr_render_ball_t still[3], int nsub, double x, double y, double b, double dir,
                           cr_render_ball_t (*sub_balls)[3], cr_render_scene_t *subs)
{
    for (int k = 0; k < nsub; k++) {
        double f = (k + 0.5) / nsub * 2.0 - 1.0;

        memcpy(sub_balls[k], still, 3 * sizeof *still);
        sub_balls[k][0].x_mm = x + f * b * cos(dir);
        sub_balls[k][0].y_mm = y + f * b * sin(dir);
        memset(&subs[k], 0, sizeof subs[k]);
        subs[k].balls = sub_balls[k];
        subs[k].n_balls = 3;
    }
}

/* Adds zero-mean noise of about sigma levels (sum of four uniforms) to a
 * plane; x is the generator's state. */
static void td_noise(uint8_t *p, size_t n, double sigma, uint64_t *x)
{
    size_t i;

    for (i = 0; i < n; i++) {
        double e = 0.0, v;
        int k;

        for (k = 0; k < 4; k++) {
            *x = *x * 6364136223846793005ull + 1442695040888963407ull;
            e += (double)(*x >> 11) / 9007199254740992.0 - 0.5;
        }
        v = p[i] + e * sigma * 1.732;
        p[i] = (uint8_t)(v < 0.0 ? 0.0 : (v > 255.0 ? 255.0 : v + 0.5));
    }
}

/* Uniform in [0, 1); x is the generator's state. */
static double td_unit(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*x >> 11) / 9007199254740992.0;
}

/* Sensor noise of about sigma levels on the frame's luma and half that on
 * its chroma (4:2:0 chroma averages four pixels); x is the generator's
 * state. */
static void td_add_noise(td_ctx_t *c, double sigma, uint64_t *x)
{
    const size_t ny = (size_t)c->w * c->h, nc = (size_t)(c->w / 2) * (c->h / 2);

    td_noise(c->y, ny, sigma, x);
    td_noise(c->u, nc, 0.5 * sigma, x);
    td_noise(c->v, nc, 0.5 * sigma, x);
}

/* Renders the n balls at rest as frame 0 into img and keeps a copy of its
 * planes (*y0, *u0, *v0; the caller frees them) for td_renoise(). */
static int td_render_still(td_ctx_t *c, cr_render_ball_t *balls, int n, cr_yuv_image_t *img, uint8_t **y0,
                           uint8_t **u0, uint8_t **v0)
{
    const size_t ny = (size_t)c->w * c->h, nc = (size_t)(c->w / 2) * (c->h / 2);
    cr_render_scene_t sc;
    cr_render_info_t info;

    memset(&sc, 0, sizeof sc);
    sc.balls = balls;
    sc.n_balls = n;
    *y0 = *u0 = *v0 = NULL;
    if (td_render(c, &sc, 1, 0, &info, img) != 0)
        return -1;
    *y0 = malloc(ny), *u0 = malloc(nc), *v0 = malloc(nc);
    if (!*y0 || !*u0 || !*v0)
        return -1;
    memcpy(*y0, c->y, ny), memcpy(*u0, c->u, nc), memcpy(*v0, c->v, nc);
    return 0;
}

/* The frame saved in y0, u0, v0 again, with fresh noise (td_add_noise()):
 * the next frame of a scene at rest. */
static void td_renoise(td_ctx_t *c, const uint8_t *y0, const uint8_t *u0, const uint8_t *v0, double sigma,
                       uint64_t *x)
{
    const size_t ny = (size_t)c->w * c->h, nc = (size_t)(c->w / 2) * (c->h / 2);

    memcpy(c->y, y0, ny);
    memcpy(c->u, u0, nc);
    memcpy(c->v, v0, nc);
    td_add_noise(c, sigma, x);
}

/* Renders frame 1, in which ball 0 of the three still ones moves through
 * (x, y) by +-b mm along heading dir over nsub (at most 16) sub-frames,
 * with sensor noise of about sigma levels on luma and half that on chroma
 * (0: none; *noise is the generator's state), into img. */
static int td_moving_frame(td_ctx_t *c, const cr_render_ball_t still[3], int nsub, double x, double y, double b,
                           double dir, double sigma, uint64_t *noise, cr_yuv_image_t *img)
{
    cr_render_ball_t sub_balls[16][3];
    cr_render_scene_t subs[16];
    cr_render_info_t info;

    if (nsub > 16)
        return -1;
    td_moving_subs(still, nsub, x, y, b, dir, sub_balls, subs);
    if (td_render(c, subs, nsub, 1, &info, img) != 0)
        return -1;
    if (sigma > 0.0)
        td_add_noise(c, sigma, noise);
    return 0;
}

/* A full rack (frozen balls), the cue ball, on different cloths and
 * cameras: all found, no phantoms, cue ball and 8-ball identified. */
static void test_rack_cloths_cameras(void)
{
    static const struct {
        double tilt, az, k1;
        cr_cloth_preset_t cloth;
        unsigned same; /* ids of the cloth's colour */
    } cases[] = {
        {0.0, 90.0, 0.0, CR_CLOTH_BLUE, 1u << 2 | 1u << 10},
        {6.0, 30.0, -0.15, CR_CLOTH_GREEN, 1u << 6 | 1u << 14},
        {3.0, 200.0, -0.08, CR_CLOTH_RED, 1u << 3 | 1u << 11 | 1u << 7 | 1u << 15},
        {5.0, 120.0, 0.0, CR_CLOTH_TAN, 0u},
        {0.0, 90.0, -0.2, CR_CLOTH_GREY, 0u},
    };
    size_t ci;

    for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        td_ctx_t c;
        cr_render_ball_t balls[16];
        double xs[16], ys[16];
        cr_render_scene_t sc;
        cr_render_info_t info;
        cr_yuv_image_t img;
        cr_detector_t *d = NULL;
        cr_detection_t det[CR_VISION_MAX_DETECTIONS];
        td_score_t s;
        int nb, nd = 0, i;

        CU_ASSERT_FATAL(td_open(&c, 960, 540, cases[ci].tilt, cases[ci].az, cases[ci].k1, cases[ci].cloth, 7 + ci) == 0);
        nb = td_table_scene(&c.tab, balls, 3 + ci);
        td_ball(&balls[nb++], 0, 600.0, 500.0 + 40.0 * ci);
        for (i = 0; i < nb; i++)
            xs[i] = balls[i].x_mm, ys[i] = balls[i].y_mm;
        memset(&sc, 0, sizeof sc);
        sc.balls = balls;
        sc.n_balls = nb;
        CU_ASSERT_FATAL(td_render(&c, &sc, 1, 0, &info, &img) == 0);
        CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, NULL, &d) == 0);
        CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
        memset(&s, 0, sizeof s);
        s.same_mask = cases[ci].same;
        td_score(&c, balls, xs, ys, nb, &info, det, nd, &s);
        CU_ASSERT_EQUAL(s.found, s.visible);
        CU_ASSERT_EQUAL(s.visible, 16);
        CU_ASSERT(s.err_same_max < 4.0 * 2540.0 / 900.0);
        CU_ASSERT_EQUAL(s.phantoms, 0);
        CU_ASSERT(s.n_err > 0 && s.err_sum / s.n_err < 2.0);
        CU_ASSERT(s.err_max < 5.0);
        CU_ASSERT_EQUAL(s.id_ok[0], s.id_found[0]);
        CU_ASSERT_EQUAL(s.id_ok[8], s.id_found[8]);
        if (s.found != s.visible || s.phantoms || s.err_max >= 5.0 || s.id_ok[0] != s.id_found[0] ||
            s.id_ok[8] != s.id_found[8])
            printf("\n  case %zu: found %d/%d phantoms %d mean err %.2f max %.2f cue %d/%d eight %d/%d", ci, s.found,
                   s.visible, s.phantoms, s.n_err ? s.err_sum / s.n_err : 0.0, s.err_max, s.id_ok[0], s.id_found[0],
                   s.id_ok[8], s.id_found[8]);
        /* the same frame again: the same answer (regions unchanged) */
        {
            cr_detection_t det2[CR_VISION_MAX_DETECTIONS];
            int nd2 = 0;

            CU_ASSERT_EQUAL(cr_detector_run(d, &img, det2, CR_VISION_MAX_DETECTIONS, &nd2), 0);
            CU_ASSERT_EQUAL(nd2, nd);
        }
        cr_detector_destroy(d);
        td_close(&c);
    }
}

/* Balls frozen to cushions and sitting in pocket mouths; a cue and an arm
 * over the table and over one ball; a second frame after the arm moved.
 * Visible balls are found, none is invented on the cue, the arm, the
 * pockets or the diamonds. */
static void test_cushions_pockets_cue_arm(void)
{
    static const uint8_t skin[3] = {205, 160, 130}, sleeve[3] = {30, 30, 40};
    const double L = 2540.0, Wt = 1270.0;
    td_ctx_t c;
    cr_render_ball_t balls[16];
    double xs[16], ys[16];
    cr_render_scene_t sc;
    cr_render_info_t info;
    cr_yuv_image_t img;
    cr_detector_t *d = NULL;
    cr_detection_t det[CR_VISION_MAX_DETECTIONS];
    td_score_t s;
    int nb = 0, nd = 0, i, frame;

    CU_ASSERT_FATAL(td_open(&c, 640, 360, 4.0, 60.0, -0.1, CR_CLOTH_BLUE, 11) == 0);
    td_ball(&balls[nb++], 0, 700.0, 400.0);
    td_ball(&balls[nb++], 8, RB, 300.0);                  /* frozen to the head cushion */
    td_ball(&balls[nb++], 3, 1500.0, Wt - RB);             /* right cushion */
    td_ball(&balls[nb++], 11, 1500.0 + 2 * RB, Wt - RB);   /* and frozen to the 3 */
    td_ball(&balls[nb++], 5, L - RB, 900.0);               /* foot cushion */
    td_ball(&balls[nb++], 2, 36.0, 36.0);                  /* head-left corner mouth */
    td_ball(&balls[nb++], 14, L / 2, RB - 8.0);            /* in the left side pocket mouth */
    td_ball(&balls[nb++], 9, L - 40.0, Wt - 40.0);         /* foot-right corner mouth */
    td_ball(&balls[nb++], 1, 1000.0, 700.0);
    td_ball(&balls[nb++], 6, 1800.0, 300.0);
    for (i = 0; i < nb; i++)
        xs[i] = balls[i].x_mm, ys[i] = balls[i].y_mm;
    CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, NULL, &d) == 0);
    for (frame = 0; frame < 3; frame++) {
        memset(&sc, 0, sizeof sc);
        sc.balls = balls;
        sc.n_balls = nb;
        if (frame > 0) {
            /* the cue aims at the cue ball; in frame 2 the bridge hand lies over the 1 */
            sc.cue.present = true;
            sc.cue.tip_x_mm = frame == 1 ? 700.0 - RB - 20.0 : 1000.0 - 60.0;
            sc.cue.tip_y_mm = frame == 1 ? 400.0 : 700.0;
            sc.cue.tip_z_mm = RB;
            sc.cue.dir_deg = frame == 1 ? 10.0 : -20.0;
            sc.cue.elevation_deg = 6.0;
            CU_ASSERT_FATAL(cr_render_arm_from_cue(&sc.cue, skin, sleeve, frame == 2, &sc.arm) == 0);
        }
        CU_ASSERT_FATAL(td_render(&c, &sc, 1, (uint64_t)frame, &info, &img) == 0);
        CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
        memset(&s, 0, sizeof s);
        td_score(&c, balls, xs, ys, nb, &info, det, nd, &s);
        CU_ASSERT_EQUAL(s.found, s.visible);
        CU_ASSERT(s.visible >= nb - 2);
        CU_ASSERT_EQUAL(s.phantoms, 0);
        CU_ASSERT(s.n_err > 0 && s.err_sum / s.n_err < 2.5);
        CU_ASSERT(s.err_max < 6.0);
        if (s.found != s.visible || s.phantoms || s.err_max >= 6.0)
            printf("\n  frame %d: found %d/%d phantoms %d mean err %.2f max %.2f", frame, s.found, s.visible,
                   s.phantoms, s.n_err ? s.err_sum / s.n_err : 0.0, s.err_max);
    }
    cr_detector_destroy(d);
    td_close(&c);
}

/* A fast ball smeared over the exposure (eight sub-frames, streak 1.2 ball
 * radii): found at its mid-exposure position, and the streak is reported
 * along the motion. */
static void test_motion_blur(void)
{
    enum { NSUB = 8 };
    td_ctx_t c;
    cr_render_ball_t still[3];
    cr_yuv_image_t img;
    cr_detector_t *d = NULL;
    cr_detection_t det[CR_VISION_MAX_DETECTIONS];
    const double b = 0.6 * RB, dir = 0.5; /* half the displacement over the exposure, mm; heading rad */
    int nd = 0, k, found = 0;

    CU_ASSERT_FATAL(td_open(&c, 640, 360, 2.0, 90.0, -0.05, CR_CLOTH_GREEN, 5) == 0);
    td_ball(&still[0], 0, 900.0, 600.0);
    td_ball(&still[1], 4, 1700.0, 400.0);
    td_ball(&still[2], 8, 400.0, 900.0);
    nd = td_first_frame(&c, still, 3, &d, det);
    CU_ASSERT_FATAL(d != NULL);
    CU_ASSERT_EQUAL(nd, 3);
    /* the cue ball moves */
    CU_ASSERT_FATAL(td_moving_frame(&c, still, NSUB, 900.0, 600.0, b, dir, 0.0, NULL, &img) == 0);
    CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
    for (k = 0; k < nd; k++) {
        double e = hypot(det[k].x - 900.0, det[k].y - 600.0);

        if (e < RB) {
            found++;
            CU_ASSERT(e < 6.0);
            /* the streak, if reported, lies along the motion */
            if (hypot(det[k].blur_dx, det[k].blur_dy) > 0.0) {
                double cosang = fabs(det[k].blur_dx * cos(dir) + det[k].blur_dy * sin(dir)) /
                                hypot(det[k].blur_dx, det[k].blur_dy);

                CU_ASSERT(cosang > 0.8);
            }
            if (e >= 6.0)
                printf("\n  blurred ball error %.2f mm", e);
        }
    }
    CU_ASSERT_EQUAL(found, 1);
    CU_ASSERT_EQUAL(nd, 3);
    cr_detector_destroy(d);
    td_close(&c);
}

/* A ball of nearly the cloth's colour (maroon 7 on red cloth, green 6 on
 * green), resting away from the lamps' line so that its shadow lies beside
 * it on one side, in a run of frames that differ only by sensor noise (as
 * a resting ball's do). Its outline is faint and on the shadow's side
 * ambiguous, so a fit may settle a few pixels toward the shadow: each
 * frame's fit on its own (every region examined in every frame) must find
 * it in every frame within 0.4 R; with the default change detection it must
 * moreover not jump between frames by more than 3 mm (a jump reads
 * downstream as a touched ball; the detector used to refit such a ball
 * whenever noise elsewhere in its region made the region be searched
 * again, and the refit could land on the other side of the ambiguity). The
 * other balls stay within 5 mm. 1280x720 (r about 10 px), as the clips
 * where this was seen. */
static void test_low_contrast(void)
{
    enum { NF = 8 };
    static const struct {
        cr_cloth_preset_t cloth;
        int id;      /* the ball of the cloth's colour */
        double x, y; /* where it rests, mm */
    } cases[] = {
        {CR_CLOTH_RED, 7, 1316.0, 928.0},
        {CR_CLOTH_RED, 7, 520.0, 820.0},
        {CR_CLOTH_GREEN, 6, 510.0, 816.0},
        {CR_CLOTH_GREEN, 6, 2004.0, 578.0},
    };
    static const int others[7] = {0, 1, 4, 5, 8, 9, 12};
    static const double ox[7] = {600.0, 1000.0, 400.0, 2100.0, 1450.0, 2200.0, 1250.0};
    static const double oy[7] = {520.0, 420.0, 820.0, 400.0, 300.0, 1000.0, 760.0};
    size_t ci;

    for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        td_ctx_t c;
        cr_render_ball_t balls[8];
        cr_yuv_image_t img;
        uint8_t *y0 = NULL, *u0 = NULL, *v0 = NULL;
        double u, v;
        int nb = 0, i, pass;

        CU_ASSERT_FATAL(td_open(&c, 1280, 720, 4.0, 60.0, -0.1, cases[ci].cloth, 21 + ci) == 0);
        for (i = 0; i < 7; i++)
            td_ball(&balls[nb++], others[i], ox[i], oy[i]);
        td_ball(&balls[nb++], cases[ci].id, cases[ci].x, cases[ci].y);
        CU_ASSERT_FATAL(td_render_still(&c, balls, nb, &img, &y0, &u0, &v0) == 0);
        CU_ASSERT_FATAL(cr_camera_project(&c.cam, cases[ci].x, cases[ci].y, RB, &u, &v));
        for (pass = 0; pass < 2; pass++) {
            cr_detect_params_t p;
            cr_detector_t *d = NULL;
            uint64_t x = 12345 + 77 * ci;
            double px = 0.0, py = 0.0, err_max = 0.0, jump_max = 0.0, other_max = 0.0;
            int f, found = 0, have_prev = 0;

            cr_detect_params_defaults(&p);
            if (pass == 0)
                p.change_sigmas = 0.0;
            CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, &p, &d) == 0);
            for (f = 0; f < NF; f++) {
                cr_detection_t det[CR_VISION_MAX_DETECTIONS];
                int nd = 0, k, b;

                td_renoise(&c, y0, u0, v0, 1.5, &x);
                CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
                for (b = 0; b < nb; b++) {
                    double best = 1e9;
                    int bk = -1;

                    for (k = 0; k < nd; k++)
                        if (hypot(det[k].x - balls[b].x_mm, det[k].y - balls[b].y_mm) < best)
                            best = hypot(det[k].x - balls[b].x_mm, det[k].y - balls[b].y_mm), bk = k;
                    if (best > RB)
                        continue;
                    if (balls[b].id != cases[ci].id) {
                        other_max = fmax(other_max, best);
                        continue;
                    }
                    found++;
                    err_max = fmax(err_max, best);
                    if (have_prev)
                        jump_max = fmax(jump_max, hypot(det[bk].x - px, det[bk].y - py));
                    px = det[bk].x, py = det[bk].y, have_prev = 1;
                }
            }
            CU_ASSERT_EQUAL(found, NF);
            CU_ASSERT(err_max < 0.4 * RB);
            CU_ASSERT(pass == 0 || jump_max < 3.0);
            CU_ASSERT(other_max < 5.0);
            if (found != NF || err_max >= 0.4 * RB || (pass == 1 && jump_max >= 3.0) || other_max >= 5.0)
                printf("\n  ball %d on cloth %d, pass %d: found %d/%d, error max %.2f mm, jump max %.2f mm, others max "
                       "%.2f mm",
                       cases[ci].id, (int)cases[ci].cloth, pass, found, NF, err_max, jump_max, other_max);
            cr_detector_destroy(d);
        }
        free(y0);
        free(u0);
        free(v0);
        td_close(&c);
    }
}

/* A ball crossing about two of its diameters while the shutter is open (a
 * break at 30 fps: 8 m/s, 0.4 of the frame) is filmed as a stadium as wide
 * as the ball, with no outline: on five cloths and headings, the cue ball
 * and a coloured ball, the moving ball is found within 6 mm of where it was
 * at mid-exposure with its streak along the motion (0.6-1.2 of its true
 * length: the smear's ends fade into the cloth, so a faint one measures
 * short) and no phantom; the resting balls are found as before. */
static void test_long_smear(void)
{
    enum { NSUB = 16 };
    const int ids[2] = {0, 3};
    int ci;

    for (ci = 0; ci < CR_CLOTH_PRESET_COUNT; ci++) {
        td_ctx_t c;
        cr_render_ball_t still[3];
        cr_yuv_image_t img;
        cr_detector_t *d = NULL;
        cr_detection_t det[CR_VISION_MAX_DETECTIONS];
        /* b: half the displacement over the exposure, mm */
        const double dir = 0.15 + 1.3 * ci, x0 = 1000.0 + 150.0 * ci, y0 = 620.0 - 40.0 * ci, b = 57.0 + 7.0 * ci;
        int nd = 0, k, found = 0, phantoms = 0;
        uint64_t noise = 77 + ci;

        CU_ASSERT_FATAL(td_open(&c, 1280, 720, 1.5 * ci, 90.0, -0.03 * ci, (cr_cloth_preset_t)ci, 40 + ci) == 0);
        td_ball(&still[0], ids[ci % 2], x0, y0);
        td_ball(&still[1], 5, 2100.0, 300.0);
        td_ball(&still[2], 8, 350.0, 950.0);
        nd = td_first_frame(&c, still, 3, &d, det);
        CU_ASSERT_FATAL(d != NULL);
        CU_ASSERT_EQUAL(nd, 3);
        CU_ASSERT_FATAL(td_moving_frame(&c, still, NSUB, x0, y0, b, dir, 2.0, &noise, &img) == 0);
        CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
        for (k = 0; k < nd; k++) {
            double e = hypot(det[k].x - x0, det[k].y - y0), bl = hypot(det[k].blur_dx, det[k].blur_dy);

            if (e < 2.0 * RB) {
                found++;
                CU_ASSERT(e < 6.0);
                CU_ASSERT(bl > 0.6 * b && bl < 1.2 * b);
                if (bl > 0.0)
                    CU_ASSERT(fabs(det[k].blur_dx * cos(dir) + det[k].blur_dy * sin(dir)) / bl > 0.95);
                if (e >= 6.0 || !(bl > 0.6 * b && bl < 1.2 * b))
                    printf("\n  cloth %d: smear found %.2f mm off, streak %.1f mm", ci, e, bl);
            } else if (hypot(det[k].x - 2100.0, det[k].y - 300.0) > RB &&
                       hypot(det[k].x - 350.0, det[k].y - 950.0) > RB) {
                phantoms++;
            }
        }
        if (found != 1)
            printf("\n  cloth %d: the smear found %d times", ci, found);
        CU_ASSERT_EQUAL(found, 1);
        CU_ASSERT_EQUAL(phantoms, 0);
        CU_ASSERT_EQUAL(nd, 3);
        cr_detector_destroy(d);
        td_close(&c);
    }
}

/* A ball of the cloth's colour in dim light (maroon 7 on red cloth at 0.3
 * and 0.8 of the default exposure, 1280x720 with sensor noise): the
 * detector's own search misses it in most frames; told where the tracker
 * expects it (a hint 5 mm off, reach one radius) it finds it in every
 * frame, within half a radius (its outline is faint and its shadow beside
 * it: the fit can lean toward the shadow). A hint on bare cloth, and one
 * beside a ball already found, add nothing. */
static void test_hints(void)
{
    enum { NF = 8 };
    static const int ids[5] = {0, 1, 7, 9, 3};
    static const double xs[5] = {600.0, 1000.0, 1840.0, 1600.0, 2100.0};
    static const double ys[5] = {520.0, 420.0, 700.0, 300.0, 1000.0};
    static const double expo[2] = {0.3, 0.8};
    int ci;

    for (ci = 0; ci < 2; ci++) {
        td_ctx_t c;
        cr_render_ball_t balls[5];
        cr_yuv_image_t img;
        uint8_t *y0, *u0, *v0;
        int i, pass, found[2] = {0, 0}, extra = 0;
        double err_max = 0.0;

        CU_ASSERT_FATAL(td_open_lit(&c, 1280, 720, 3.0, 30.0, -0.05, CR_CLOTH_RED, 91, expo[ci]) == 0);
        for (i = 0; i < 5; i++)
            td_ball(&balls[i], ids[i], xs[i], ys[i]);
        CU_ASSERT_FATAL(td_render_still(&c, balls, 5, &img, &y0, &u0, &v0) == 0);
        for (pass = 0; pass < 2; pass++) {
            cr_detector_t *d = NULL;
            uint64_t x = 777;
            int f;

            CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, NULL, &d) == 0);
            for (f = 0; f < NF; f++) {
                cr_detection_t det[CR_VISION_MAX_DETECTIONS];
                /* the 7 (5 mm off), bare cloth, beside the 1 */
                const cr_ball_hint_t hint[3] = {
                    {xs[2] + 4.0, ys[2] - 3.0, RB, 1, 1, 0, 0.0, 0, 0.0, 0.0},
                    {1300.0, 900.0, RB, 2, 1, 0, 0.0, 0, 0.0, 0.0},
                    {xs[1] + 20.0, ys[1], RB, 3, 1, 0, 0.0, 0, 0.0, 0.0}};
                int nd = 0, k;

                td_renoise(&c, y0, u0, v0, 1.5, &x);
                if (pass == 1)
                    CU_ASSERT_EQUAL(cr_detector_expect(d, hint, 3), 0);
                CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
                for (k = 0; k < nd; k++) {
                    double e = hypot(det[k].x - xs[2], det[k].y - ys[2]);

                    if (e < RB) {
                        found[pass]++;
                        if (pass == 1) {
                            err_max = fmax(err_max, e);
                            /* the 7 was looked for: tagged with its hint */
                            CU_ASSERT(det[k].hint_tag == 0 || det[k].hint_tag == 1);
                        }
                    } else {
                        for (i = 0; i < 5 && hypot(det[k].x - xs[i], det[k].y - ys[i]) > RB; i++)
                            ;
                        extra += i == 5;
                    }
                }
            }
            cr_detector_destroy(d);
        }
        CU_ASSERT(found[0] <= NF / 2);
        CU_ASSERT_EQUAL(found[1], NF);
        CU_ASSERT(err_max < 0.5 * RB);
        CU_ASSERT_EQUAL(extra, 0);
        if (found[0] > NF / 2 || found[1] != NF || err_max >= 0.5 * RB || extra)
            printf("\n  exposure %.1f: the 7 found in %d frames alone, %d with hints, error max %.2f mm, %d others",
                   expo[ci], found[0], found[1], err_max, extra);
        free(y0), free(u0), free(v0);
        td_close(&c);
    }
}

/* A ball of the cloth's colour rolling (maroon 7 on red cloth and green 6
 * on green, a quarter of the default light, sensor noise 2 levels,
 * 1280x720, 22 mm a frame with half of that smeared over the exposure),
 * looked for where the tracker expects it on its way (a hint 4 mm off its
 * place, reach one radius, not at rest). Where the search fits its faint
 * outline under min_score (a fit that is not reported), that fit is no ball
 * found, and the look's fainter edges find it: in all 16 frames, within
 * half a radius, and nowhere else (such a fit used to keep the look away:
 * here the 6 was lost in 2 frames; on the 1080p60 films the rolling green
 * 6 was lost in about a third of its frames, on the 720p30 films the maroon
 * 7 in half). */
static void test_look_for_a_rolling_faint_ball(void)
{
    enum { NF = 16 };
    static const struct {
        cr_cloth_preset_t cloth;
        int id;
        double x, y, dir, expo;
    } cases[] = {
        {CR_CLOTH_RED, 7, 900.0, 500.0, 0.3, 0.25},
        {CR_CLOTH_GREEN, 6, 1500.0, 800.0, -0.6, 0.25},
    };
    const double step = 22.0;
    size_t ci;

    for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        td_ctx_t c;
        cr_render_ball_t still[3];
        cr_detector_t *d = NULL;
        cr_detection_t det[CR_VISION_MAX_DETECTIONS];
        uint64_t x = 9090 + ci;
        const double ux = cos(cases[ci].dir), uy = sin(cases[ci].dir);
        int f, found = 0, extra = 0;
        double err_max = 0.0;

        CU_ASSERT_FATAL(td_open_lit(&c, 1280, 720, 3.0, 120.0, -0.05, cases[ci].cloth, 17 + ci, cases[ci].expo) == 0);
        td_ball(&still[0], cases[ci].id, cases[ci].x, cases[ci].y);
        td_ball(&still[1], 0, 1700.0, 300.0);
        td_ball(&still[2], 9, 400.0, 1000.0);
        /* the background learned without it (no ghost where it started) */
        CU_ASSERT_FATAL(td_first_frame(&c, still + 1, 2, &d, det) >= 0);
        CU_ASSERT_FATAL(d != NULL);
        for (f = 1; f <= NF; f++) {
            cr_yuv_image_t img;
            const double bx = cases[ci].x + f * step * ux, by = cases[ci].y + f * step * uy;
            const cr_ball_hint_t hint = {bx + 3.0, by - 2.5, RB, 1, 0, 0, step, 0, step * ux, step * uy};
            int nd = 0, k;

            CU_ASSERT_FATAL(td_moving_frame(&c, still, 8, bx, by, 0.25 * step, cases[ci].dir, 2.0, &x, &img) == 0);
            CU_ASSERT_EQUAL(cr_detector_expect(d, &hint, 1), 0);
            CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
            for (k = 0; k < nd; k++) {
                double e = hypot(det[k].x - bx, det[k].y - by);

                if (e < RB) {
                    found++;
                    err_max = fmax(err_max, e);
                } else if (det[k].hint_tag == 1) {
                    extra++; /* the look's, not the ball */
                }
            }
        }
        CU_ASSERT_EQUAL(found, NF);
        CU_ASSERT(err_max < 0.5 * RB);
        CU_ASSERT_EQUAL(extra, 0);
        if (found < NF || err_max >= 0.5 * RB || extra)
            printf("\n  the %d rolling: found in %d of %d frames, %.1f mm off at most, %d looked-for fits elsewhere",
                   cases[ci].id, found, NF, err_max, extra);
        cr_detector_destroy(d);
        td_close(&c);
    }
}

/* A ball of the cloth's colour rolling with nobody looking for it (lost in
 * a break, its track ended; the maroon 7 on red, the green 6 on green, in
 * five exposures, noise of 4 levels), step mm a frame,
 * blurred over a quarter of its step: no region shows it, and the scan's
 * tiles (all but off here) come round too seldom. The samples it crosses
 * still change from frame to frame: the looks at what moves find it, a
 * probe follows it at the step it goes, and it is reported once found in
 * probe_frames frames. Each case: without those looks found (within R) in
 * at most 2 of its frames after the first few; with them never further
 * than err_lim from it; over the cases found in min_found frames at least.
 * Returns the detections more than R from the rolling ball and from the
 * two resting ones, over all cases (none made up elsewhere; a fast ball's
 * fit dragged toward its shadow and blur). */
static int found_by_what_moves(double step, int min_found, double err_lim)
{
    enum { NF = 40, F0 = 12 };
    static const struct {
        cr_cloth_preset_t cloth;
        int id;
        double x, y, dir;
        double expo;
    } cases[] = {
        {CR_CLOTH_RED, 7, 700.0, 450.0, 0.3, 0.3},   {CR_CLOTH_RED, 7, 1200.0, 900.0, -0.4, 0.4},
        {CR_CLOTH_RED, 7, 1500.0, 300.0, 2.8, 0.6},  {CR_CLOTH_GREEN, 6, 600.0, 300.0, 0.5, 0.3},
        {CR_CLOTH_GREEN, 6, 1700.0, 850.0, -2.6, 0.45},
    };
    size_t ci;
    int sum[2] = {0, 0}, extras = 0;

    for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const double ux = cos(cases[ci].dir), uy = sin(cases[ci].dir);
        int pass, found[2] = {0, 0}, extra = 0;
        double err_max = 0.0;

        for (pass = 0; pass < 2; pass++) {
            td_ctx_t c;
            cr_render_ball_t still[3];
            cr_render_scene_t sc;
            cr_render_info_t info;
            cr_yuv_image_t img;
            cr_detect_params_t p;
            cr_detector_t *d = NULL;
            cr_detection_t det[CR_VISION_MAX_DETECTIONS];
            uint64_t x = 7070 + ci;
            int f, nd = 0;

            CU_ASSERT_FATAL(td_open_lit(&c, 1280, 720, 3.0, 30.0, -0.05, cases[ci].cloth, 17 + ci, cases[ci].expo) ==
                            0);
            td_ball(&still[0], cases[ci].id, cases[ci].x, cases[ci].y);
            td_ball(&still[1], 0, 1900.0, 300.0);
            td_ball(&still[2], 9, 400.0, 1000.0);
            cr_detect_params_defaults(&p);
            p.scan_sweep_frames = 100000; /* the tiles' sweep all but off */
            p.motion_looks = pass ? p.motion_looks : 0;
            memset(&sc, 0, sizeof sc);
            sc.balls = still + 1;
            sc.n_balls = 2;
            CU_ASSERT_FATAL(td_render(&c, &sc, 1, 0, &info, &img) == 0);
            td_add_noise(&c, 4.0, &x);
            CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, &p, &d) == 0);
            CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
            for (f = 1; f <= NF; f++) {
                const double bx = cases[ci].x + f * step * ux, by = cases[ci].y + f * step * uy;
                int k;

                CU_ASSERT_FATAL(td_moving_frame(&c, still, 4, bx, by, 0.25 * step, cases[ci].dir, 4.0, &x, &img) == 0);
                CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
                for (k = 0; k < nd; k++) {
                    const double e = hypot(det[k].x - bx, det[k].y - by);

                    if (e < RB) {
                        found[pass] += f >= F0;
                        if (pass && f >= F0)
                            err_max = fmax(err_max, e);
                    } else if (hypot(det[k].x - 1900.0, det[k].y - 300.0) > RB &&
                               hypot(det[k].x - 400.0, det[k].y - 1000.0) > RB) {
                        extra++;
                    }
                }
            }
            cr_detector_destroy(d);
            td_close(&c);
        }
        CU_ASSERT(found[0] <= 2);
        CU_ASSERT(err_max < err_lim);
        extras += extra;
        sum[0] += found[0], sum[1] += found[1];
        if (found[0] > 2 || err_max >= err_lim || extra || getenv("MOVE_DEBUG"))
            printf("\n  the %d rolling, unlooked-for: found in %d of the last %d frames without the looks at what "
                   "moves, %d with them, %.1f mm off at most; %d others",
                   cases[ci].id, found[0], NF - F0 + 1, found[1], err_max, extra);
    }
    CU_ASSERT(sum[1] >= min_found);
    if (sum[1] < min_found || getenv("MOVE_DEBUG"))
        printf("\n  %.0f mm a frame: found in %d and %d frames", step, sum[0], sum[1]);
    return extras;
}

static void test_found_by_what_moves(void)
{
    /* 10 mm a frame (600 mm/s at 60 fps): found in 1 and 111 of the 145
     * frames (the faintest, the 7 in the darkest light: 12) */
    CU_ASSERT_EQUAL(found_by_what_moves(10.0, 90, 0.6 * RB), 0);
}

/* The same at 30 mm a frame, half a ball's width (0.9 m/s at 30 fps, 1.8
 * m/s at 60): the samples it changes are its place in both frames and its
 * shadow round them, their centre behind the ball. Looked at within R of
 * that centre and followed from where it was found with no step known, it
 * was found in 5 of the 145 frames; looked at over the group and followed
 * on its way, in 61 (its fit up to 19 mm off, one fit over R off it). */
static void test_found_by_what_moves_fast(void)
{
    CU_ASSERT(found_by_what_moves(30.0, 45, 0.85 * RB) <= 2);
}

/* A ball blurred over one to two of its diameters (a break at 30 fps) is
 * often fitted as two balls, one at each end of its streak, which are
 * merged into one streak when both ends show the same ball. The blur mixes
 * the ball's colour with the cloth's, differently at each end: the orange
 * 5 over red cloth (noise 3.5 levels, dimmed light) can read red at one end
 * and maroon at the other, and was reported as two balls. On six headings
 * and lengths the streak must be one ball, within 0.4 R of where it was at
 * mid-exposure on five of them (known weakness: where one end alone is
 * fitted, it is reported at that end, about half the streak off). */
static void test_streak_ends(void)
{
    enum { NSUB = 16, NH = 6 };
    int hi, near = 0;

    for (hi = 0; hi < NH; hi++) {
        td_ctx_t c;
        cr_render_ball_t still[3];
        cr_yuv_image_t img;
        cr_detector_t *d = NULL;
        cr_detection_t det[CR_VISION_MAX_DETECTIONS];
        const double dir = 0.4 + 1.05 * hi, x0 = 1400.0 + 60.0 * hi, y0 = 500.0 + 40.0 * hi, b = 24.0 + 8.0 * hi;
        int nd = 0, k, found = 0;
        double err = 0.0;
        uint64_t noise = 91 + hi;

        CU_ASSERT_FATAL(
            td_open_lit(&c, 1280, 720, 2.0 + hi, 120.0, -0.05, CR_CLOTH_RED, 60 + hi, 0.8 + 0.08 * hi) == 0);
        td_ball(&still[0], 5, x0, y0);
        td_ball(&still[1], 1, 600.0, 300.0);
        td_ball(&still[2], 8, 350.0, 950.0);
        nd = td_first_frame(&c, still, 3, &d, det);
        CU_ASSERT_FATAL(d != NULL);
        CU_ASSERT_FATAL(td_moving_frame(&c, still, NSUB, x0, y0, b, dir, 3.5, &noise, &img) == 0);
        CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
        for (k = 0; k < nd; k++)
            if (hypot(det[k].x - x0, det[k].y - y0) < 2.0 * RB) {
                found++;
                err = hypot(det[k].x - x0, det[k].y - y0);
            }
        CU_ASSERT_EQUAL(found, 1);
        if (found != 1 || err >= 0.4 * RB)
            printf("\n  heading %.2f, streak %.0f mm: found %d times, %.1f mm off", dir, 2.0 * b, found, err);
        near += found == 1 && err < 0.4 * RB;
        cr_detector_destroy(d);
        td_close(&c);
    }
    CU_ASSERT(near >= NH - 1);
}

/* A resting maroon 7 on red cloth (sensor noise 3 levels) that the search
 * misses is looked for where the tracker holds it. Its outline is faint
 * and, on its shadow's side, ambiguous: the look's fit from its Hough
 * candidate can settle a centimetre toward the shadow, where the fit from
 * the hint's own place does not. Where the two disagree the one nearer the
 * hint is kept (a resting ball stays where it rested): at four places on
 * the bed, the 7 is found in at least five of six hinted frames, always
 * within a quarter radius (it was up to 13 mm off). */
/* Runs the detector on nf + 1 frames of the still scene saved in y0, u0,
 * v0 (fresh noise of sigma levels each, x the generator's state), with a
 * hint that a ball rests at (bx, by) (reach R/2, tag 1) from the second
 * frame on: the detections within R of there in the hinted frames, and the
 * largest distance of those (*err_max). */
static int td_look_at_rest(td_ctx_t *c, cr_detector_t *d, const cr_yuv_image_t *img, const uint8_t *y0,
                           const uint8_t *u0, const uint8_t *v0, double bx, double by, int nf, double sigma,
                           uint64_t *x, double *err_max)
{
    const cr_ball_hint_t hint = {bx, by, 0.5 * RB, 1, 1, 0, 0.0, 0, 0.0, 0.0};
    int f, found = 0;

    *err_max = 0.0;
    for (f = 0; f <= nf; f++) {
        cr_detection_t det[CR_VISION_MAX_DETECTIONS];
        int nd = 0, k;

        td_renoise(c, y0, u0, v0, sigma, x);
        if (f > 0)
            CU_ASSERT_EQUAL(cr_detector_expect(d, &hint, 1), 0);
        CU_ASSERT_EQUAL(cr_detector_run(d, img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
        for (k = 0; k < nd && f > 0; k++) {
            double e = hypot(det[k].x - bx, det[k].y - by);

            if (e < RB) {
                found++;
                *err_max = fmax(*err_max, e);
            }
        }
    }
    return found;
}

static void test_look_at_a_resting_faint_ball(void)
{
    enum { NF = 6 };
    static const struct {
        double x, y, expo;
        uint64_t seed, noise;
    } cases[] = {
        {2492.5, 746.2, 1.0, 3, 4242}, {1840.0, 700.0, 0.6, 6, 4245}, {2400.0, 200.0, 0.8, 9, 4248},
        {1500.0, 400.0, 0.7, 11, 4250},
    };
    size_t ci;

    for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        td_ctx_t c;
        cr_render_ball_t balls[3];
        cr_yuv_image_t img;
        uint8_t *y0, *u0, *v0;
        cr_detector_t *d = NULL;
        uint64_t x = cases[ci].noise;
        int found;
        double err_max;

        CU_ASSERT_FATAL(td_open_lit(&c, 1280, 720, 3.0, 200.0, -0.08, CR_CLOTH_RED, cases[ci].seed, cases[ci].expo) ==
                        0);
        td_ball(&balls[0], 7, cases[ci].x, cases[ci].y);
        td_ball(&balls[1], 9, cases[ci].x - 70.0, cases[ci].y - 25.0);
        td_ball(&balls[2], 0, 1270.0, 635.0);
        CU_ASSERT_FATAL(td_render_still(&c, balls, 3, &img, &y0, &u0, &v0) == 0);
        CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, NULL, &d) == 0);
        found = td_look_at_rest(&c, d, &img, y0, u0, v0, cases[ci].x, cases[ci].y, NF, 3.0, &x, &err_max);
        CU_ASSERT(found >= NF - 1);
        CU_ASSERT(err_max < 0.25 * RB);
        if (found < NF - 1 || err_max >= 0.25 * RB)
            printf("\n  the 7 at (%.0f, %.0f): found in %d of %d hinted frames, %.1f mm off at most", cases[ci].x,
                   cases[ci].y, found, NF, err_max);
        cr_detector_destroy(d);
        free(y0), free(u0), free(v0);
        td_close(&c);
    }
}

/* The maroon 7 resting on red cloth, 1080p, put down after the first
 * frame (the background is the bare cloth) and hinted at rest where it
 * lies, which the search misses: the look's Hough peaks for it can all lie
 * beyond the hint's reach (half a radius; the ball of the cloth's colour
 * and its shadow make one stronger circle beside it), and the fit started
 * from the hint's own place finds it. With no ball put down, the same hint
 * finds nothing: a fit on bare background is no ball, whatever circle the
 * look's faint edges find in the cloth. */
static void test_look_fits_from_the_hint(void)
{
    enum { NF = 6 };
    static const struct {
        double x, y;
        uint64_t seed;
    } cases[] = {{900.0, 200.0, 2}, {1930.0, 1100.0, 2}};

    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        for (int bare = 0; bare < 2; bare++) {
            const cr_ball_hint_t hint = {cases[ci].x, cases[ci].y, 0.5 * RB, 1, 1, 0, 0.0, 0, 0.0, 0.0};
            td_ctx_t c;
            cr_render_ball_t balls[2];
            cr_yuv_image_t img;
            uint8_t *y0, *u0, *v0, *y1, *u1, *v1;
            cr_detector_t *d = NULL;
            uint64_t x = 4242 + cases[ci].seed;
            double err_max = 0.0;
            int found = 0;

            CU_ASSERT_FATAL(td_open_lit(&c, 1920, 1080, 3.0, 200.0, -0.08, CR_CLOTH_RED, cases[ci].seed, 0.8) == 0);
            td_ball(&balls[0], 0, 1270.0, 300.0);
            td_ball(&balls[1], 7, cases[ci].x, cases[ci].y);
            CU_ASSERT_FATAL(td_render_still(&c, balls, 1, &img, &y0, &u0, &v0) == 0);
            CU_ASSERT_FATAL(td_render_still(&c, balls, bare ? 1 : 2, &img, &y1, &u1, &v1) == 0);
            CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, NULL, &d) == 0);
            for (int f = 0; f <= NF; f++) {
                cr_detection_t det[CR_VISION_MAX_DETECTIONS];
                int nd = 0;

                if (f == 0)
                    td_renoise(&c, y0, u0, v0, 3.0, &x);
                else
                    td_renoise(&c, y1, u1, v1, 3.0, &x);
                if (f > 0)
                    CU_ASSERT_EQUAL(cr_detector_expect(d, &hint, 1), 0);
                CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
                for (int k = 0; k < nd && f > 0; k++) {
                    const double e = hypot(det[k].x - cases[ci].x, det[k].y - cases[ci].y);

                    if (e < RB) {
                        found++;
                        err_max = fmax(err_max, e);
                    }
                }
            }
            if (bare) {
                CU_ASSERT_EQUAL(found, 0);
            } else {
                CU_ASSERT(found >= NF - 1);
                CU_ASSERT(err_max < 0.1 * RB);
            }
            if (bare ? found != 0 : found < NF - 1 || err_max >= 0.1 * RB)
                printf("\n  the 7 at (%.0f, %.0f), seed %d%s: found in %d of %d hinted frames, %.1f mm off at most",
                       cases[ci].x, cases[ci].y, (int)cases[ci].seed, bare ? ", never put down" : "", found, NF,
                       err_max);
            cr_detector_destroy(d);
            free(y0), free(u0), free(v0), free(y1), free(u1), free(v1);
            td_close(&c);
        }
    }
}

/* The maroon 7 rested at P on red cloth, dim light (which the search
 * misses); the cue ball struck it and stopped a ball's width from P, and
 * the 7 rolled on 75 mm unseen. The tracker's hint for the 7 is a struck
 * one (reach 3.5 R): the cue ball within that reach is not the 7 (found
 * still at P it would be within half a radius), so the 7 is looked for
 * and found where it went. A hint of the same reach that is not struck
 * takes the cue ball for the ball it looks for, and looks no further. */
static void test_look_for_a_struck_ball(void)
{
    enum { NF = 6 };
    static const double place[3][2] = {{2400.0, 200.0}, {1500.0, 400.0}, {1000.0, 900.0}};

    for (int pi = 0; pi < 3; pi++) {
        const double px = place[pi][0], py = place[pi][1], x7 = px + 75.0;
        int found[2] = {0, 0};

        for (int q = 0; q < 2; q++) {
            td_ctx_t c;
            cr_render_ball_t balls[2];
            cr_yuv_image_t img;
            uint8_t *y0, *u0, *v0;
            cr_detector_t *d = NULL;
            uint64_t x = 4245;
            const cr_ball_hint_t hint = {px, py, 3.5 * RB, 1, 0, q == 0, 0.0, 0, 0.0, 0.0};

            CU_ASSERT_FATAL(td_open_lit(&c, 1280, 720, 3.0, 200.0, -0.08, CR_CLOTH_RED, 6, 0.6) == 0);
            td_ball(&balls[0], 7, x7, py);
            td_ball(&balls[1], 0, px - 2.0 * RB, py);
            CU_ASSERT_FATAL(td_render_still(&c, balls, 2, &img, &y0, &u0, &v0) == 0);
            CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, NULL, &d) == 0);
            for (int f = 0; f <= NF; f++) {
                cr_detection_t det[CR_VISION_MAX_DETECTIONS];
                int nd = 0;

                td_renoise(&c, y0, u0, v0, 3.0, &x);
                if (f > 0)
                    CU_ASSERT_EQUAL(cr_detector_expect(d, &hint, 1), 0);
                CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
                for (int k = 0; k < nd && f > 0; k++)
                    found[q] += hypot(det[k].x - x7, det[k].y - py) < 0.5 * RB;
            }
            cr_detector_destroy(d);
            free(y0), free(u0), free(v0);
            td_close(&c);
        }
        CU_ASSERT(found[0] >= NF - 1);
        CU_ASSERT_EQUAL(found[1], 0);
        if (found[0] < NF - 1 || found[1])
            printf("\n  the 7 by (%.0f, %.0f): found with a struck hint in %d of %d frames, with a plain one in %d", px,
                   py, found[0], NF, found[1]);
    }
}

/* Where a hint finds no ball, the detector says whether its place shows the
 * background (cr_detector_bare): the place of a ball taken away, and bare
 * cloth, do; a place under the cue does not (something covers it). Balls
 * found stand out from the background (fg_share). */
static void test_bare_places(void)
{
    static const uint8_t skin[3] = {205, 160, 130}, sleeve[3] = {30, 30, 40};
    td_ctx_t c;
    cr_render_ball_t balls[3];
    cr_render_scene_t sc;
    cr_render_info_t info;
    cr_yuv_image_t img;
    cr_detector_t *d = NULL;
    cr_detection_t det[CR_VISION_MAX_DETECTIONS];
    /* the 5's place, a place on the cue 200 mm behind its tip, bare cloth */
    const cr_ball_hint_t hint[3] = {
        {1800.0, 300.0, RB / 2, 1, 1, 0, 0.0, 0, 0.0, 0.0},
        {752.0, 768.0, RB / 2, 2, 1, 0, 0.0, 0, 0.0, 0.0},
        {1300.0, 900.0, RB / 2, 3, 1, 0, 0.0, 0, 0.0, 0.0}};
    int nd = 0, frame, i, tags[8], nt;

    CU_ASSERT_FATAL(td_open(&c, 640, 360, 4.0, 60.0, -0.1, CR_CLOTH_GREEN, 13) == 0);
    td_ball(&balls[0], 0, 700.0, 400.0);
    td_ball(&balls[1], 1, 1000.0, 700.0);
    td_ball(&balls[2], 5, 1800.0, 300.0);
    CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, NULL, &d) == 0);
    CU_ASSERT_EQUAL(cr_detector_bare(d, tags, 8), 0);
    CU_ASSERT_EQUAL(cr_detector_bare(NULL, tags, 8), 0);
    for (frame = 0; frame < 4; frame++) {
        memset(&sc, 0, sizeof sc);
        sc.balls = balls;
        sc.n_balls = frame == 0 ? 3 : 2; /* the 5 is taken away */
        if (frame > 0) {
            sc.cue.present = true;
            sc.cue.tip_x_mm = 1000.0 - 60.0;
            sc.cue.tip_y_mm = 700.0;
            sc.cue.tip_z_mm = RB;
            sc.cue.dir_deg = -20.0;
            sc.cue.elevation_deg = 6.0;
            CU_ASSERT_FATAL(cr_render_arm_from_cue(&sc.cue, skin, sleeve, true, &sc.arm) == 0);
            CU_ASSERT_EQUAL(cr_detector_expect(d, hint, 3), 0);
        }
        CU_ASSERT_FATAL(td_render(&c, &sc, 1, (uint64_t)frame, &info, &img) == 0);
        CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
        if (frame == 0) {
            CU_ASSERT_EQUAL(nd, 3);
            for (i = 0; i < nd; i++)
                CU_ASSERT(det[i].fg_share >= 0.8f);
            continue;
        }
        nt = cr_detector_bare(d, tags, 8);
        {
            int bare1 = 0, bare2 = 0, bare3 = 0, at3 = 0;

            for (i = 0; i < nt; i++) {
                bare1 += tags[i] == 1;
                bare2 += tags[i] == 2;
                bare3 += tags[i] == 3;
            }
            /* a look's fit on bare cloth is possible (noise); it then says
             * it stands on the background */
            for (i = 0; i < nd; i++)
                if (det[i].hint_tag == 3) {
                    at3++;
                    CU_ASSERT(det[i].fg_share <= 0.1f);
                }
            CU_ASSERT_EQUAL(bare1, 1);
            CU_ASSERT_EQUAL(bare2, 0);
            for (i = 0; i < nd; i++)
                CU_ASSERT(det[i].hint_tag != 2);
            CU_ASSERT_EQUAL(bare3 + at3, 1);
        }
        CU_ASSERT_EQUAL(cr_detector_bare(d, tags, 1), nt > 0 ? 1 : 0); /* at most max */
    }
    cr_detector_destroy(d);
    td_close(&c);
}

/* A resting ball at (bx, by) looked for over nf frames (noise sigma 2) at
 * a hint that follows what is reported there, as the tracker's does
 * (reach R/2, moved a fifth of the way to each report): the largest error
 * of a report from (bx, by) and the largest move between two reports (mm);
 * returns the frames it was reported in. */
static int td_rest_follow(td_ctx_t *c, cr_detector_t *d, const cr_yuv_image_t *img, const uint8_t *y0,
                          const uint8_t *u0, const uint8_t *v0, double bx, double by, int nf, uint64_t *x,
                          double *err_max, double *jump_max)
{
    double px = bx, py = by, lx = 0.0, ly = 0.0;
    int f, found = 0;

    *err_max = 0.0, *jump_max = 0.0;
    for (f = 0; f <= nf; f++) {
        cr_detection_t det[CR_VISION_MAX_DETECTIONS];
        const cr_ball_hint_t hint = {px, py, 0.5 * RB, 1, 1, 0, 0.0, 0, 0.0, 0.0};
        int nd = 0, k;

        td_renoise(c, y0, u0, v0, 2.0, x);
        if (f > 0)
            CU_ASSERT_EQUAL(cr_detector_expect(d, &hint, 1), 0);
        CU_ASSERT_EQUAL(cr_detector_run(d, img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
        for (k = 0; k < nd && f > 0; k++)
            if (hypot(det[k].x - px, det[k].y - py) < RB) {
                if (found++ > 0)
                    *jump_max = fmax(*jump_max, hypot(det[k].x - lx, det[k].y - ly));
                *err_max = fmax(*err_max, hypot(det[k].x - bx, det[k].y - by));
                lx = det[k].x, ly = det[k].y;
                px += 0.2 * (det[k].x - px), py += 0.2 * (det[k].y - py);
                break;
            }
    }
    return found;
}

/* Shows detector d (use_highlights) ten layouts of six well-seen balls
 * resting at places all over the table, each held for three frames (as
 * balls rest between shots; noise sigma 2, x its generator's state, seed
 * the layouts'): enough places for it to learn the lamps. */
static void td_learn_lamps(td_ctx_t *c, cr_detector_t *d, uint64_t *seed, uint64_t *x)
{
    enum { LAYOUTS = 10, PER = 6, HOLD = 3 };
    static const int ids[PER] = {0, 1, 2, 4, 5, 6};
    int l, f;

    for (l = 0; l < LAYOUTS; l++) {
        cr_render_ball_t balls[PER];
        cr_yuv_image_t img;
        uint8_t *y0, *u0, *v0;
        int b = 0, tries = 0;

        /* balls at least four radii apart, clear of the cushions */
        while (b < PER && tries++ < 1000) {
            double bx = 2.0 * RB + td_unit(seed) * (c->tab.length_mm - 4.0 * RB);
            double by = 2.0 * RB + td_unit(seed) * (c->tab.width_mm - 4.0 * RB);
            int a;

            for (a = 0; a < b; a++)
                if (hypot(balls[a].x_mm - bx, balls[a].y_mm - by) < 4.0 * RB)
                    break;
            if (a == b)
                td_ball(&balls[b], ids[b], bx, by), b++;
        }
        CU_ASSERT_FATAL(td_render_still(c, balls, PER, &img, &y0, &u0, &v0) == 0);
        for (f = 0; f < HOLD; f++) {
            cr_detection_t det[CR_VISION_MAX_DETECTIONS];
            int nd = 0;

            td_renoise(c, y0, u0, v0, 2.0, x);
            CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
        }
        free(y0), free(u0), free(v0);
    }
}

/* The scene of the highlight tests: 1920x1080, red cloth, a dim exposure
 * (0.7), a detector placing balls by their highlights that has learned the
 * lamps (td_learn_lamps()). */
static void td_open_lamps(td_ctx_t *c, cr_detector_t **d, uint64_t *seed, uint64_t *x)
{
    cr_detect_params_t p;

    CU_ASSERT_FATAL(td_open_lit(c, 1920, 1080, 3.0, 200.0, -0.08, CR_CLOTH_RED, 5, 0.7) == 0);
    cr_detect_params_defaults(&p);
    p.use_highlights = 1;
    CU_ASSERT_FATAL(cr_detector_create(&c->cam, &c->tab, &p, d) == 0);
    td_learn_lamps(c, *d, seed, x);
}

/* A ball of the cloth's colour at rest is placed by its highlights once the
 * lamps are known: the detector learns them from well-seen balls resting at
 * places all over the table (layouts held for a few frames, as balls rest
 * between shots) - the three lamps where the simulator put them - then a
 * maroon 7 on red cloth (a dim exposure), looked for where it rests, is
 * found in every frame within a millimetre of its place: its outline alone
 * settled up to 19 mm toward its shadow in six of these eight places. Held
 * at rest for 80 frames, hinted where it was reported, it stays within 1.5
 * mm of its place and never moves a millimetre from one frame to the next;
 * gone, it is not reported where it rested. */
static void test_placed_by_its_highlights(void)
{
    enum { NF = 4, NR = 80 };
    static const double cases[][2] = {{2240.0, 1090.0}, {1017.0, 149.0}, {640.0, 900.0},   {1900.0, 420.0},
                                      {2091.7, 1232.2}, {261.0, 791.0},  {2254.7, 1093.3}, {400.0, 200.0}};
    td_ctx_t c;
    cr_detector_t *d = NULL;
    uint64_t seed = 4321, x = 99, x2 = 77; /* x2: the noise of the checks after the first */
    int ci;

    td_open_lamps(&c, &d, &seed, &x);
    /* the simulator's lamps: 1000 mm above the long string at L/2 and
     * L/2 +- L/3 (cr_render.h) */
    {
        double lamps[6][3];
        int n = cr_detector_lamps(d, lamps, NULL, 6), k, a, near = 0;

        CU_ASSERT_EQUAL(n, 3);
        for (k = 0; k < n && k < 6; k++)
            for (a = -1; a <= 1; a++) {
                double ex = lamps[k][0] - c.tab.length_mm * (0.5 + a / 3.0), ey = lamps[k][1] - 0.5 * c.tab.width_mm;

                near += hypot(hypot(ex, ey), lamps[k][2] - 1000.0) < 60.0;
            }
        CU_ASSERT_EQUAL(near, 3);
        if (n != 3 || near != 3)
            for (k = 0; k < n && k < 6; k++)
                printf("\n  lamp %d at (%.0f, %.0f, %.0f) mm", k, lamps[k][0], lamps[k][1], lamps[k][2]);
    }
    for (ci = 0; ci < (int)(sizeof cases / sizeof cases[0]); ci++) {
        cr_render_ball_t balls[3];
        cr_yuv_image_t img;
        uint8_t *y0, *u0, *v0;
        int found;
        double err_max, jump_max;

        td_ball(&balls[0], 7, cases[ci][0], cases[ci][1]);
        td_ball(&balls[1], 9, cases[ci][0] - 90.0, cases[ci][1] + 60.0);
        td_ball(&balls[2], 0, 1270.0, 635.0);
        CU_ASSERT_FATAL(td_render_still(&c, balls, 3, &img, &y0, &u0, &v0) == 0);
        found = td_look_at_rest(&c, d, &img, y0, u0, v0, cases[ci][0], cases[ci][1], NF, 2.0, &x, &err_max);
        CU_ASSERT(found == NF);
        CU_ASSERT(err_max < 1.0);
        if (found != NF || err_max >= 1.0)
            printf("\n  the 7 at (%.0f, %.0f): found in %d of %d hinted frames, %.2f mm off at most", cases[ci][0],
                   cases[ci][1], found, NF, err_max);
        /* held there while it rests, frame after frame: its outline, as
         * sure as the highlights by its own sigma in some frames (the 7 at
         * (400, 200) is fitted 14 mm off in a few of these 80), never takes
         * it back */
        found = td_rest_follow(&c, d, &img, y0, u0, v0, cases[ci][0], cases[ci][1], NR, &x2, &err_max, &jump_max);
        CU_ASSERT(found == NR);
        CU_ASSERT(err_max < 1.5);
        CU_ASSERT(jump_max < 1.0);
        if (found != NR || err_max >= 1.5 || jump_max >= 1.0)
            printf("\n  the 7 at (%.0f, %.0f) held at rest: found in %d of %d frames, %.2f mm off and %.2f mm from "
                   "the frame before at most",
                   cases[ci][0], cases[ci][1], found, NR, err_max, jump_max);
        free(y0), free(u0), free(v0);
        /* then gone (struck away unseen, or pocketed) while the tracker
         * still holds it there: the place its highlights gave is no ball */
        CU_ASSERT_FATAL(td_render_still(&c, balls + 1, 2, &img, &y0, &u0, &v0) == 0);
        {
            cr_detection_t det[CR_VISION_MAX_DETECTIONS];
            const cr_ball_hint_t hint = {cases[ci][0], cases[ci][1], 0.5 * RB, 1, 1, 0, 0.0, 0, 0.0, 0.0};
            int nd = 0, k, there = 0;

            td_renoise(&c, y0, u0, v0, 2.0, &x2);
            CU_ASSERT_EQUAL(cr_detector_expect(d, &hint, 1), 0);
            CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
            for (k = 0; k < nd; k++)
                there += hypot(det[k].x - cases[ci][0], det[k].y - cases[ci][1]) < RB;
            CU_ASSERT_EQUAL(there, 0);
            if (there)
                printf("\n  the 7 gone from (%.0f, %.0f): still reported there", cases[ci][0], cases[ci][1]);
        }
        free(y0), free(u0), free(v0);
    }
    cr_detector_destroy(d);
    td_close(&c);
}

/* A ball of the cloth's colour that came to rest where no tracker saw it
 * go (a maroon 7 on red cloth, a dim exposure: frozen to a cushion, where
 * its outline's fit takes the cushion's shadow for its edge, near one, by
 * a corner pocket's jaw, or out on the bed), once the lamps are known, is
 * found by the scan of the bed (step 8), through its highlights where the
 * outline fails, and then, hinted at rest where it was reported (as the
 * tracker hints), reported in each of the last 40 frames within a
 * millimetre of its place. By its outline alone the ball frozen to the
 * cushion was reported in none of those 40 frames (in another order of
 * these cases: first 86 frames after it appeared, 7.8 mm off).
 * Nothing else is reported: the scan places no ball by highlights on bare
 * cloth, the cushions, the pockets or the diamonds. */
static void test_scan_finds_by_highlights(void)
{
    enum { BARE = 10, NF = 110, LAST = 40 };
    static const double cases[][2] = {{2092.0, 1241.4}, {2091.7, 1232.2}, {2431.0, 40.0}, {1400.0, 600.0}};
    td_ctx_t c;
    cr_detector_t *d = NULL;
    uint64_t seed = 4321, x = 99;
    int ci;

    td_open_lamps(&c, &d, &seed, &x);
    for (ci = 0; ci < (int)(sizeof cases / sizeof cases[0]); ci++) {
        cr_render_ball_t balls[3];
        cr_yuv_image_t img;
        uint8_t *y0, *u0, *v0, *ya, *ua, *va;
        int f, found = 0, extra = 0, hinted = 0;
        double err_max = 0.0, hx = 0.0, hy = 0.0;

        td_ball(&balls[0], 7, cases[ci][0], cases[ci][1]);
        td_ball(&balls[1], 9, 600.0, 400.0);
        td_ball(&balls[2], 0, 1900.0, 300.0);
        CU_ASSERT_FATAL(td_render_still(&c, balls + 1, 2, &img, &ya, &ua, &va) == 0);
        CU_ASSERT_FATAL(td_render_still(&c, balls, 3, &img, &y0, &u0, &v0) == 0);
        for (f = 0; f < BARE + NF; f++) {
            cr_detection_t det[CR_VISION_MAX_DETECTIONS];
            const cr_ball_hint_t hint = {hx, hy, 0.5 * RB, 1, 1, 0, 0.0, 0, 0.0, 0.0};
            int nd = 0, k;

            if (f < BARE)
                td_renoise(&c, ya, ua, va, 2.0, &x);
            else
                td_renoise(&c, y0, u0, v0, 2.0, &x);
            if (hinted)
                CU_ASSERT_EQUAL(cr_detector_expect(d, &hint, 1), 0);
            CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
            for (k = 0; k < nd; k++) {
                const double e = hypot(det[k].x - cases[ci][0], det[k].y - cases[ci][1]);

                if (f >= BARE && e < RB) {
                    if (!hinted)
                        hx = det[k].x, hy = det[k].y, hinted = 1;
                    else
                        hx += 0.2 * (det[k].x - hx), hy += 0.2 * (det[k].y - hy);
                    if (f >= BARE + NF - LAST) {
                        found += e < 1.0;
                        err_max = fmax(err_max, e);
                    }
                } else if (hypot(det[k].x - 600.0, det[k].y - 400.0) > RB &&
                           hypot(det[k].x - 1900.0, det[k].y - 300.0) > RB) {
                    extra++;
                }
            }
        }
        CU_ASSERT_EQUAL(found, LAST);
        CU_ASSERT_EQUAL(extra, 0);
        if (found != LAST || extra)
            printf("\n  the 7 at (%.0f, %.0f): within 1 mm in %d of the last %d frames (%.2f mm off at most), %d "
                   "others reported",
                   cases[ci][0], cases[ci][1], found, LAST, err_max, extra);
        free(y0), free(u0), free(v0), free(ya), free(ua), free(va);
    }
    cr_detector_destroy(d);
    td_close(&c);
}

/* A ball of the cloth's colour rolling slowly (the maroon 7 on red cloth,
 * 1 to 1.5 mm a frame: 60 to 90 mm/s at 60 fps), looked for at the
 * tracker's hint (its place predicted a frame on, 3.6 mm off, not at
 * rest): placed by its highlights where the outline's fit strays, and
 * found by them where no fit is: reported in all but two frames at most,
 * within 2 mm of the ball. By its outline alone the two cases were
 * reported in 38 and 29 of 39 frames, up to 14.8 and 24.2 mm off (the fit
 * strayed toward the ball's shadow and the cushion's edge). */
static void test_slow_roll_by_highlights(void)
{
    enum { NF = 40 };
    static const double cases[][4] = {{2020.0, 1232.2, 1.5, 0.0}, {700.0, 180.0, 1.0, 1.0}};
    td_ctx_t c;
    cr_detector_t *d = NULL;
    uint64_t seed = 4321, x = 99;
    int ci;

    td_open_lamps(&c, &d, &seed, &x);
    for (ci = 0; ci < (int)(sizeof cases / sizeof cases[0]); ci++) {
        const double dx = cases[ci][2], dy = cases[ci][3];
        int f, found = 0;
        double err_max = 0.0;

        for (f = 0; f < NF; f++) {
            const double bx = cases[ci][0] + f * dx, by = cases[ci][1] + f * dy;
            const cr_ball_hint_t hint = {bx + 3.0, by - 2.0, RB, 1, 0, 0, hypot(dx, dy), 0, dx, dy};
            cr_render_ball_t balls[3];
            cr_detection_t det[CR_VISION_MAX_DETECTIONS];
            cr_yuv_image_t img;
            uint8_t *y0, *u0, *v0;
            int nd = 0, k;

            td_ball(&balls[0], 7, bx, by);
            td_ball(&balls[1], 9, 600.0, 400.0);
            td_ball(&balls[2], 0, 1900.0, 300.0);
            CU_ASSERT_FATAL(td_render_still(&c, balls, 3, &img, &y0, &u0, &v0) == 0);
            td_renoise(&c, y0, u0, v0, 2.0, &x);
            if (f > 0)
                CU_ASSERT_EQUAL(cr_detector_expect(d, &hint, 1), 0);
            CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
            for (k = 0; k < nd && f > 0; k++) {
                const double e = hypot(det[k].x - bx, det[k].y - by);

                if (e < 2.0 * RB) {
                    found++;
                    err_max = fmax(err_max, e);
                }
            }
            free(y0), free(u0), free(v0);
        }
        CU_ASSERT(found >= NF - 3);
        CU_ASSERT(err_max < 2.0);
        if (found < NF - 3 || err_max >= 2.0)
            printf("\n  the 7 rolling from (%.0f, %.0f): reported in %d of %d frames, %.2f mm off at most",
                   cases[ci][0], cases[ci][1], found, NF - 1, err_max);
    }
    cr_detector_destroy(d);
    td_close(&c);
}

/* A maroon 7 rolling fast on red cloth (a dim exposure; 20 mm a frame, its
 * highlights smeared over half of that in the exposure), hinted rolling
 * with its step as a tracker hints it: once its highlights' smears have
 * placed it in two frames running, it is placed by them, within 1.5 mm of
 * its centre at mid-exposure in every frame; the outline alone (the same
 * frames, a detector not placing balls by their highlights) settles toward
 * the ball's shadow, over 3 mm off in most. A well-seen ball rolling
 * beside it (the 1, yellow) stays within 2.5 mm of its centre (as its
 * outline places it: its smears move it only where they follow it and its
 * outline is far less sure than they are). */
static void test_fast_roll_by_highlights(void)
{
    enum { NF = 14, F0 = 3 };
    static const double cases[][3] = {{700.0, 300.0, 0.35}, {1500.0, 950.0, -2.6}};
    const double step = 20.0;
    td_ctx_t c;
    cr_detector_t *d = NULL;
    uint64_t seed = 4321, x = 99;
    int ci;

    td_open_lamps(&c, &d, &seed, &x);
    for (ci = 0; ci < (int)(sizeof cases / sizeof cases[0]); ci++) {
        const double ux = cos(cases[ci][2]), uy = sin(cases[ci][2]);
        cr_detector_t *plain = NULL;
        int f, found = 0, plain_off = 0;
        double err_max = 0.0, plain_max = 0.0, one_max = 0.0;

        CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, NULL, &plain) == 0);
        for (f = 0; f < NF; f++) {
            const double bx = cases[ci][0] + f * step * ux, by = cases[ci][1] + f * step * uy;
            const double ox = bx + 6.0 * RB * uy, oy = by - 6.0 * RB * ux; /* the 1, alongside */
            const cr_ball_hint_t hint[2] = {{bx + 2.0, by - 1.5, RB, 1, 0, 0, step, 0, step * ux, step * uy},
                                            {ox, oy, RB, 2, 0, 0, step, 0, step * ux, step * uy}};
            cr_render_ball_t still[3], sub_balls[8][3];
            cr_render_scene_t subs[8];
            cr_render_info_t info;
            cr_detection_t det[CR_VISION_MAX_DETECTIONS], pdet[CR_VISION_MAX_DETECTIONS];
            cr_yuv_image_t img;
            int nd = 0, np = 0, k, j, sub;

            td_ball(&still[0], 7, bx, by);
            td_ball(&still[1], 1, ox, oy);
            td_ball(&still[2], 0, 1900.0, 300.0);
            td_moving_subs(still, 8, bx, by, 0.25 * step, cases[ci][2], sub_balls, subs);
            for (sub = 0; sub < 8; sub++) { /* the 1 rolls alongside */
                sub_balls[sub][1].x_mm = sub_balls[sub][0].x_mm + ox - bx;
                sub_balls[sub][1].y_mm = sub_balls[sub][0].y_mm + oy - by;
            }
            CU_ASSERT_FATAL(td_render(&c, subs, 8, 1, &info, &img) == 0);
            td_add_noise(&c, 2.0, &x);
            if (f > 0) {
                CU_ASSERT_EQUAL(cr_detector_expect(d, hint, 2), 0);
                CU_ASSERT_EQUAL(cr_detector_expect(plain, hint, 2), 0);
            }
            CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
            CU_ASSERT_EQUAL(cr_detector_run(plain, &img, pdet, CR_VISION_MAX_DETECTIONS, &np), 0);
            if (f < F0)
                continue;
            for (k = 0; k < nd; k++) {
                const double e = hypot(det[k].x - bx, det[k].y - by);

                if (e < 2.0 * RB) {
                    found++;
                    err_max = fmax(err_max, e);
                }
                if (hypot(det[k].x - ox, det[k].y - oy) < 2.0 * RB)
                    one_max = fmax(one_max, hypot(det[k].x - ox, det[k].y - oy));
            }
            for (j = 0; j < np; j++) {
                const double e = hypot(pdet[j].x - bx, pdet[j].y - by);

                if (e < 2.0 * RB) {
                    plain_max = fmax(plain_max, e);
                    plain_off += e > 3.0;
                }
            }
        }
        CU_ASSERT(found == NF - F0);
        CU_ASSERT(err_max < 1.5);
        CU_ASSERT(one_max < 2.5);
        CU_ASSERT(plain_off >= (NF - F0) / 2); /* the outline alone is off: what is being mended */
        if (found != NF - F0 || err_max >= 1.5 || one_max >= 2.5 || plain_off < (NF - F0) / 2)
            printf("\n  the 7 rolling from (%.0f, %.0f): reported in %d of %d frames, %.2f mm off at most "
                   "(outline alone: %.2f mm, over 3 mm in %d); the 1 beside it %.2f mm off at most",
                   cases[ci][0], cases[ci][1], found, NF - F0, err_max, plain_max, plain_off, one_max);
        cr_detector_destroy(plain);
    }
    cr_detector_destroy(d);
    td_close(&c);
}

/* Bad arguments are refused, a frame of the wrong size too. */
/* A ball of nearly the cloth's colour that comes to rest where the
 * background model learned bare cloth (it rolled there after the first
 * frame), filmed by a noisy camera (4 levels of noise: a cheap webcam in a
 * dim room), differs from the background by less than the noise allows
 * for: no coarse sample makes a region there, and no tracker hints at a
 * ball it never saw. The scan of the bed (step 8) finds it and it is then
 * reported in nearly every frame (a look at it fails now and then at this
 * noise); nothing else is reported (the scan invents no ball on bare
 * cloth, at the cushions, the pockets or the diamonds). With the scan off
 * it is found in at most half the frames (in none, here). 1280x720; the
 * ball appears in frame 10. Placement is the looks' (the fit of such a
 * ball can settle toward its shadow: the known weakness of cr_detect.h):
 * within 0.8 R here. */
static void test_scan_finds_unseen_ball(void)
{
    enum { NF = 80, F0 = 55 };
    static const struct {
        cr_cloth_preset_t cloth;
        int id;
        double x, y, expo;
    } cases[] = {
        {CR_CLOTH_RED, 7, 1840.0, 700.0, 0.3},  {CR_CLOTH_RED, 7, 1200.0, 900.0, 0.4},
        {CR_CLOTH_RED, 7, 350.0, 180.0, 0.6},   {CR_CLOTH_GREEN, 6, 600.0, 300.0, 0.3},
        {CR_CLOTH_GREEN, 6, 1500.0, 800.0, 0.45},
    };
    size_t ci;

    for (ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        static const double ox[3] = {1000.0, 1600.0, 2100.0}, oy[3] = {420.0, 300.0, 1000.0};
        static const int oid[3] = {0, 9, 1};
        td_ctx_t c;
        cr_render_ball_t balls[4];
        cr_yuv_image_t img;
        uint8_t *y0, *u0, *v0, *ya, *ua, *va;
        int i, pass, found[2] = {0, 0}, late[2] = {0, 0}, extra = 0;
        double err_max = 0.0;

        CU_ASSERT_FATAL(td_open_lit(&c, 1280, 720, 3.0, 30.0, -0.05, cases[ci].cloth, 17 + ci, cases[ci].expo) == 0);
        td_ball(&balls[0], cases[ci].id, cases[ci].x, cases[ci].y);
        for (i = 0; i < 3; i++)
            td_ball(&balls[1 + i], oid[i], ox[i], oy[i]);
        CU_ASSERT_FATAL(td_render_still(&c, balls + 1, 3, &img, &ya, &ua, &va) == 0);
        CU_ASSERT_FATAL(td_render_still(&c, balls, 4, &img, &y0, &u0, &v0) == 0);
        for (pass = 0; pass < 2; pass++) {
            cr_detect_params_t p;
            cr_detector_t *d = NULL;
            uint64_t x = 991 + ci;
            int f;

            cr_detect_params_defaults(&p);
            if (pass == 0)
                p.scan_sweep_frames = 0;
            CU_ASSERT_FATAL(cr_detector_create(&c.cam, &c.tab, &p, &d) == 0);
            for (f = 0; f < NF; f++) {
                cr_detection_t det[CR_VISION_MAX_DETECTIONS];
                int nd = 0, k;

                if (f < 10)
                    td_renoise(&c, ya, ua, va, 4.0, &x);
                else
                    td_renoise(&c, y0, u0, v0, 4.0, &x);
                CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, CR_VISION_MAX_DETECTIONS, &nd), 0);
                for (k = 0; k < nd; k++) {
                    double e = hypot(det[k].x - cases[ci].x, det[k].y - cases[ci].y);

                    if (e < RB && f >= 10) {
                        found[pass]++;
                        late[pass] += f >= F0;
                        if (pass == 1)
                            err_max = fmax(err_max, e);
                    } else {
                        for (i = 0; i < 3 && hypot(det[k].x - ox[i], det[k].y - oy[i]) > RB; i++)
                            ;
                        extra += i == 3;


                    }
                }
            }
            cr_detector_destroy(d);
        }
        CU_ASSERT(found[0] <= NF / 2);
        CU_ASSERT(late[1] >= NF - F0 - 6);
        CU_ASSERT(err_max < 0.8 * RB);
        CU_ASSERT_EQUAL(extra, 0);
        if (found[0] > NF / 2 || late[1] < NF - F0 - 6 || err_max >= 0.8 * RB || extra)
            printf("\n  the %d at (%.0f, %.0f): found in %d of %d frames without the scan, with it in %d (%d of "
                   "the last %d), error max %.2f mm, %d others",
                   cases[ci].id, cases[ci].x, cases[ci].y, found[0], NF, found[1], late[1], NF - F0, err_max, extra);
        free(y0), free(u0), free(v0), free(ya), free(ua), free(va);
        td_close(&c);
    }
}

static void test_invalid(void)
{
    cr_table_t t;
    cr_camera_t cam;
    cr_detector_t *d = NULL;
    cr_detect_params_t p;
    uint8_t y[16 * 16], u[64], v[64];
    cr_yuv_image_t img = {y, u, v, 16, 16, 16, 8, 8};
    cr_detection_t det[4];
    int n = -1;

    cr_table_init(&t, 2540.0, 1270.0);
    CU_ASSERT_EQUAL(cr_camera_defaults(&cam, 320, 180, &t), 0);
    CU_ASSERT_EQUAL(cr_detector_create(NULL, &t, NULL, &d), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_detector_create(&cam, NULL, NULL, &d), CR_ERR_INVALID);
    cr_detect_params_defaults(&p);
    p.max_candidates = 0;
    CU_ASSERT_EQUAL(cr_detector_create(&cam, &t, &p, &d), CR_ERR_INVALID);
    CU_ASSERT_PTR_NULL(d);
    CU_ASSERT_EQUAL_FATAL(cr_detector_create(&cam, &t, NULL, &d), 0);
    memset(y, 100, sizeof y);
    memset(u, 128, sizeof u);
    memset(v, 128, sizeof v);
    CU_ASSERT_EQUAL(cr_detector_run(d, &img, det, 4, &n), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_detector_run(d, NULL, det, 4, &n), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_detector_expect(NULL, NULL, 0), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_detector_expect(d, NULL, 1), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_detector_expect(d, NULL, -1), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_detector_expect(d, NULL, 0), CR_OK);
    cr_detector_destroy(d);
    cr_detector_destroy(NULL);
}

int cr_test_register_detect(void)
{
    CU_pSuite s = CU_add_suite("detect", NULL, NULL);

    if (!s || !CU_add_test(s, "invalid arguments", test_invalid) ||
        !CU_add_test(s, "rack on five cloths and cameras", test_rack_cloths_cameras) ||
        !CU_add_test(s, "cushions, pocket mouths, cue and arm", test_cushions_pockets_cue_arm) ||
        !CU_add_test(s, "motion blur", test_motion_blur) ||
        !CU_add_test(s, "a ball smeared over two diameters", test_long_smear) ||
        !CU_add_test(s, "ball of the cloth's colour, noise only", test_low_contrast) ||
        !CU_add_test(s, "a ball the search misses is found where the tracker expects it", test_hints) ||
        !CU_add_test(s, "a hint's place that shows the background is bare", test_bare_places) ||
        !CU_add_test(s, "a ball no region shows and nobody looks for is found by the scan",
                     test_scan_finds_unseen_ball) ||
        !CU_add_test(s, "a resting faint ball looked for stays where it rests", test_look_at_a_resting_faint_ball) ||
        !CU_add_test(s, "a resting ball the look's peaks miss is fitted from where it rests",
                     test_look_fits_from_the_hint) ||
        !CU_add_test(s, "a struck ball is looked for as far as it could go", test_look_for_a_struck_ball) ||
        !CU_add_test(s, "a rolling ball of the cloth's colour is looked for past a faint fit",
                     test_look_for_a_rolling_faint_ball) ||
        !CU_add_test(s, "a streak whose ends read as different colours is one ball", test_streak_ends) ||
        !CU_add_test(s, "a ball of the cloth's colour rolling fast, unlooked-for, is found by what moves",
                     test_found_by_what_moves_fast) ||
        !CU_add_test(s, "a ball of the cloth's colour rolling unlooked-for is found by what moves",
                     test_found_by_what_moves) ||
        !CU_add_test(s, "a resting ball of the cloth's colour is placed and held by its highlights",
                     test_placed_by_its_highlights) ||
        !CU_add_test(s, "a ball of the cloth's colour no one saw come to rest is found by its highlights",
                     test_scan_finds_by_highlights) ||
        !CU_add_test(s, "a ball of the cloth's colour rolling slowly is placed by its highlights",
                     test_slow_roll_by_highlights) ||
        !CU_add_test(s, "a ball of the cloth's colour rolling fast is placed by its highlights' smears",
                     test_fast_roll_by_highlights))
        return -1;
    return 0;
}
