/*
 * test_calib.c - CUnit tests for the table calibration (calib/cr_calib).
 *
 * Fixtures are rendered in-process by the simulator (sim/cr_camera,
 * sim/cr_render) with a few balls, a cue and an arm on the table; the truth
 * is the camera model itself: cr_camera_table_corners() for the corners and
 * cr_camera_project() of random cloth points for the mapping. Tolerances:
 * corners within 1.5 px, mapping within 3 mm; for the posed camera, ball
 * centres (z = R) projected with the true camera and unprojected with the
 * fitted one within 1 mm.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "cr_calib.h"
#include "cr_camera.h"
#include "cr_render.h"
#include "cr_table.h"
#include "test_suites.h"

#define CAL_W 1280
#define CAL_H 720
#define CAL_CORNER_TOL_PX 1.5
#define CAL_MAP_TOL_MM 3.0

static cr_table_t cal_t9(void)
{
    cr_table_t t;

    cr_table_init(&t, 2540.0, 1270.0);
    return t;
}

/* Renders table t seen by the camera set up by cs, with cloth preset
 * cloth, eight balls (apart, at fixed fractions of the table), a cue and an
 * arm, into a fresh buffer (caller frees). NULL on failure. */
static uint8_t *cal_render_table(const cr_camera_setup_t *cs, cr_cloth_preset_t cloth, const cr_table_t *tp,
                                 cr_camera_t *cam)
{
    cr_table_t t = *tp;
    cr_render_params_t rp;
    cr_renderer_t *r = NULL;
    cr_render_ball_t balls[8];
    cr_render_scene_t sc;
    uint8_t *img;
    static const double pos9[8][2] = {{635, 635},  {1905, 635}, {300, 200}, {2200, 1000},
                                      {1270, 40},  {30, 600},   {2510, 300}, {1500, 1230}};
    static const uint8_t skin[3] = {205, 160, 130}, sleeve[3] = {30, 30, 40};
    int k;

    if (cr_camera_build(cs, &t, cam) != 0)
        return NULL;
    cr_render_params_defaults(&rp, &t);
    if (cr_render_cloth_rgb(cloth, rp.cloth_rgb) != 0 || cr_renderer_create(cam, &t, &rp, &r) != 0)
        return NULL;
    img = malloc((size_t)CAL_W * CAL_H * 3);
    memset(&sc, 0, sizeof sc);
    for (k = 0; k < 8; k++) {
        memset(&balls[k], 0, sizeof balls[k]);
        balls[k].id = k;
        balls[k].x_mm = pos9[k][0] * t.length_mm / 2540.0, balls[k].y_mm = pos9[k][1] * t.width_mm / 1270.0;
        balls[k].q[0] = 1.0;
        balls[k].visible = true;
    }
    sc.balls = balls, sc.n_balls = 8;
    sc.cue.present = true;
    sc.cue.tip_x_mm = balls[0].x_mm - 35.0, sc.cue.tip_y_mm = balls[0].y_mm, sc.cue.tip_z_mm = CR_BALL_RADIUS_MM;
    sc.cue.dir_deg = 10.0, sc.cue.elevation_deg = 8.0;
    if (!img || cr_render_arm_from_cue(&sc.cue, skin, sleeve, false, &sc.arm) != 0 ||
        cr_render_frame(r, &sc, 1, 0, img, 3 * CAL_W, NULL) != 0) {
        free(img);
        img = NULL;
    }
    cr_renderer_destroy(r);
    return img;
}

static uint8_t *cal_render(const cr_camera_setup_t *cs, cr_cloth_preset_t cloth, cr_camera_t *cam)
{
    cr_table_t t = cal_t9();

    return cal_render_table(cs, cloth, &t, cam);
}

/* Calibrates one rendered view and checks corners and mapping against the
 * camera. Returns the worst corner error (px), or HUGE_VAL on failure. */
static double cal_check(const cr_camera_setup_t *cs, cr_cloth_preset_t cloth, bool head_on_right, double *map_max)
{
    cr_table_t t = cal_t9();
    cr_camera_t cam;
    uint8_t *img = cal_render(cs, cloth, &cam);
    cr_calib_image_t im;
    cr_calib_params_t p;
    cr_calib_result_t res;
    double truth[4][2], worst = 0.0;
    int k, st;
    uint64_t s = 12345;

    *map_max = HUGE_VAL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    im.rgb = img, im.width = CAL_W, im.height = CAL_H, im.stride = 3 * CAL_W;
    cr_calib_params_defaults(&p);
    p.head_on_right = head_on_right;
    st = cr_calib_detect(&im, &t, &p, &res);
    free(img);
    CU_ASSERT_EQUAL(st, CR_CALIB_OK);
    CU_ASSERT_EQUAL(res.status, st);
    if (st != CR_CALIB_OK) {
        fprintf(stderr, "\ncalib: cloth %d tilt %.0f: %s\n", (int)cloth, cs->tilt_deg, res.message);
        return HUGE_VAL;
    }
    CU_ASSERT_TRUE_FATAL(cr_camera_table_corners(&cam, &t, truth));
    for (k = 0; k < 4; k++) {
        double e = hypot(res.corners_px[k][0] - truth[k][0], res.corners_px[k][1] - truth[k][1]);

        if (e > worst)
            worst = e;
    }
    *map_max = 0.0;
    for (k = 0; k < 200; k++) {
        double x, y, u, v, xm, ym, u2, v2;

        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x = t.length_mm * (double)(s >> 11) / 9007199254740992.0;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        y = t.width_mm * (double)(s >> 11) / 9007199254740992.0;
        CU_ASSERT_TRUE_FATAL(cr_camera_project(&cam, x, y, 0.0, &u, &v));
        CU_ASSERT_TRUE_FATAL(cr_calib_pixel_to_table(&res, u, v, &xm, &ym));
        if (hypot(xm - x, ym - y) > *map_max)
            *map_max = hypot(xm - x, ym - y);
        /* the two directions are inverses */
        CU_ASSERT_TRUE_FATAL(cr_calib_table_to_pixel(&res, xm, ym, &u2, &v2));
        CU_ASSERT_DOUBLE_EQUAL(u2, u, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(v2, v, 1e-6);
    }
    return worst;
}

/* ---- geometry ---------------------------------------------------------------------- */

static void test_homography4(void)
{
    /* a known projective map: H = [[1.2, 0.1, 30], [-0.05, 0.9, 12], [1e-4, -2e-4, 1]] */
    static const double hk[9] = {1.2, 0.1, 30.0, -0.05, 0.9, 12.0, 1e-4, -2e-4, 1.0};
    double src[4][2] = {{0, 0}, {0, 1270}, {2540, 1270}, {2540, 0}}, dst[4][2], h[9];
    int k;

    for (k = 0; k < 4; k++) {
        double w = hk[6] * src[k][0] + hk[7] * src[k][1] + hk[8];

        dst[k][0] = (hk[0] * src[k][0] + hk[1] * src[k][1] + hk[2]) / w;
        dst[k][1] = (hk[3] * src[k][0] + hk[4] * src[k][1] + hk[5]) / w;
    }
    CU_ASSERT_TRUE_FATAL(cr_calib_homography4((const double(*)[2])src, (const double(*)[2])dst, h));
    for (k = 0; k < 9; k++)
        CU_ASSERT_DOUBLE_EQUAL(h[k], hk[k], 1e-9 * (fabs(hk[k]) + 1.0));
    /* three collinear points: degenerate */
    src[2][0] = 0.0, src[2][1] = 600.0;
    CU_ASSERT_FALSE(cr_calib_homography4((const double(*)[2])src, (const double(*)[2])dst, h));
}

static void test_invalid(void)
{
    cr_table_t t = cal_t9();
    cr_calib_params_t p;
    cr_calib_result_t res;
    uint8_t px[3 * 32 * 32];
    cr_calib_image_t im = {px, 32, 32, 3 * 31}; /* stride too short */

    cr_calib_params_defaults(&p);
    CU_ASSERT_EQUAL(cr_calib_detect(&im, &t, &p, &res), CR_CALIB_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_calib_detect(NULL, &t, &p, &res), CR_CALIB_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_calib_detect(&im, &t, &p, NULL), CR_CALIB_ERR_INVALID);
    CU_ASSERT_FALSE(cr_calib_pixel_to_table(&res, 1.0, 1.0, &res.k1, &res.k1));
    CU_ASSERT_STRING_EQUAL(cr_calib_strerror(CR_CALIB_ERR_BLACK), "black frame");
}

/* ---- rendered views ------------------------------------------------------------------- */

static void test_cloths_and_tilts(void)
{
    static const cr_cloth_preset_t cloths[] = {CR_CLOTH_BLUE, CR_CLOTH_GREEN, CR_CLOTH_TAN};
    static const double tilts[] = {0.0, 4.0, 8.0};
    size_t c, k;

    for (c = 0; c < sizeof cloths / sizeof cloths[0]; c++)
        for (k = 0; k < sizeof tilts / sizeof tilts[0]; k++) {
            cr_camera_setup_t cs;
            double worst, map_max;

            cr_camera_setup_defaults(&cs, CAL_W, CAL_H);
            cs.tilt_deg = tilts[k];
            cs.tilt_azimuth_deg = 90.0 + 60.0 * (double)c;
            worst = cal_check(&cs, cloths[c], false, &map_max);
            if (worst > CAL_CORNER_TOL_PX || map_max > CAL_MAP_TOL_MM)
                fprintf(stderr, "\ncalib: cloth %d tilt %.0f: corner %.2f px, map %.2f mm\n", (int)cloths[c],
                        tilts[k], worst, map_max);
            CU_ASSERT(worst <= CAL_CORNER_TOL_PX);
            CU_ASSERT(map_max <= CAL_MAP_TOL_MM);
        }
}

static void test_offcentre_barrel(void)
{
    static const double k1s[] = {-0.05, -0.1};
    size_t k;

    for (k = 0; k < sizeof k1s / sizeof k1s[0]; k++) {
        cr_camera_setup_t cs;
        double worst, map_max;

        cr_camera_setup_defaults(&cs, CAL_W, CAL_H);
        cs.offset_x_mm = 200.0, cs.offset_y_mm = -150.0;
        cs.yaw_deg = 3.0;
        cs.tilt_deg = 4.0;
        cs.k1 = k1s[k];
        worst = cal_check(&cs, k == 0 ? CR_CLOTH_RED : CR_CLOTH_GREY, false, &map_max);
        if (worst > CAL_CORNER_TOL_PX || map_max > CAL_MAP_TOL_MM)
            fprintf(stderr, "\ncalib: k1 %.2f: corner %.2f px, map %.2f mm\n", k1s[k], worst, map_max);
        CU_ASSERT(worst <= CAL_CORNER_TOL_PX);
        CU_ASSERT(map_max <= CAL_MAP_TOL_MM);
    }
}

static void test_head_on_right(void)
{
    cr_camera_setup_t cs;
    double worst, map_max;

    cr_camera_setup_defaults(&cs, CAL_W, CAL_H);
    cs.yaw_deg = 180.0; /* the head end on the image right */
    worst = cal_check(&cs, CR_CLOTH_GREEN, true, &map_max);
    CU_ASSERT(worst <= CAL_CORNER_TOL_PX);
    CU_ASSERT(map_max <= CAL_MAP_TOL_MM);
}

static void test_black_frame(void)
{
    cr_table_t t = cal_t9();
    cr_calib_params_t p;
    cr_calib_result_t res;
    uint8_t *img = calloc((size_t)CAL_W * CAL_H, 3);
    cr_calib_image_t im;
    int i;

    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    for (i = 0; i < CAL_W * CAL_H * 3; i += 7)
        img[i] = (uint8_t)(i % 5); /* sensor noise in the dark */
    im.rgb = img, im.width = CAL_W, im.height = CAL_H, im.stride = 3 * CAL_W;
    cr_calib_params_defaults(&p);
    CU_ASSERT_EQUAL(cr_calib_detect(&im, &t, &p, &res), CR_CALIB_ERR_BLACK);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.message, "black frame"));
    CU_ASSERT_FALSE(cr_calib_pixel_to_table(&res, 640.0, 360.0, &res.k1, &res.k1));
    free(img);
}

static void test_no_table(void)
{
    cr_table_t t = cal_t9();
    cr_calib_params_t p;
    cr_calib_result_t res;
    uint8_t *img = malloc((size_t)CAL_W * CAL_H * 3);
    cr_calib_image_t im;
    int u, v;

    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    /* a room without a table: a hue ramp across, brightness ramp down */
    for (v = 0; v < CAL_H; v++)
        for (u = 0; u < CAL_W; u++) {
            double hue = 6.0 * u / CAL_W, b = 60.0 + 160.0 * v / CAL_H;
            uint8_t *q = img + ((size_t)v * CAL_W + u) * 3;

            q[0] = (uint8_t)(b * (0.5 + 0.5 * cos(hue)));
            q[1] = (uint8_t)(b * (0.5 + 0.5 * cos(hue - 2.094)));
            q[2] = (uint8_t)(b * (0.5 + 0.5 * cos(hue + 2.094)));
        }
    im.rgb = img, im.width = CAL_W, im.height = CAL_H, im.stride = 3 * CAL_W;
    cr_calib_params_defaults(&p);
    CU_ASSERT_EQUAL(cr_calib_detect(&im, &t, &p, &res), CR_CALIB_ERR_NO_CLOTH);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.message, "no cloth-coloured region"));
    free(img);
}

static void test_partly_out_of_frame(void)
{
    cr_table_t t = cal_t9();
    cr_camera_setup_t cs;
    cr_camera_t cam;
    cr_calib_params_t p;
    cr_calib_result_t res;
    cr_calib_image_t im;
    uint8_t *img;

    cr_camera_setup_defaults(&cs, CAL_W, CAL_H);
    cs.focal_scale = 1.4; /* the head and foot cushions leave the image */
    img = cal_render(&cs, CR_CLOTH_BLUE, &cam);
    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    im.rgb = img, im.width = CAL_W, im.height = CAL_H, im.stride = 3 * CAL_W;
    cr_calib_params_defaults(&p);
    CU_ASSERT_EQUAL(cr_calib_detect(&im, &t, &p, &res), CR_CALIB_ERR_EDGES);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.message, "a cushion line has too few edge points (table partly out of frame?)"));
    free(img);
}

/* ---- the posed camera ------------------------------------------------------------------ */

/* Worst ball-centre (z = R) error of the fitted camera over a grid of the
 * table, mm: project with the true camera, unproject with the fitted one. */
static double cal_ball_map_max(const cr_camera_t *truth, const cr_camera_t *fit, const cr_table_t *t)
{
    double worst = 0.0;
    int i, j;

    for (i = 0; i <= 10; i++)
        for (j = 0; j <= 5; j++) {
            double x = CR_BALL_RADIUS_MM + (t->length_mm - 2 * CR_BALL_RADIUS_MM) * i / 10.0;
            double y = CR_BALL_RADIUS_MM + (t->width_mm - 2 * CR_BALL_RADIUS_MM) * j / 5.0, u, v, xm, ym;

            if (!cr_camera_project(truth, x, y, CR_BALL_RADIUS_MM, &u, &v) ||
                !cr_camera_unproject_plane(fit, u, v, CR_BALL_RADIUS_MM, &xm, &ym))
                return HUGE_VAL;
            worst = fmax(worst, hypot(xm - x, ym - y));
        }
    return worst;
}

/* Pure geometry: the homography and the sights' pixels of a known camera
 * (no distortion) give that camera back. */
static void test_camera_fit_exact(void)
{
    cr_table_t t = cal_t9();
    cr_camera_setup_t cs;
    cr_camera_t cam;
    cr_calib_params_t p;
    cr_calib_result_t res;
    cr_point_t dm[CR_TABLE_DIAMOND_COUNT];
    double tab[4][2] = {{0, 0}, {0, 1270}, {2540, 1270}, {2540, 0}}, dpx[CR_TABLE_DIAMOND_COUNT][2],
           dal[CR_TABLE_DIAMOND_COUNT];
    bool dlong[CR_TABLE_DIAMOND_COUNT];
    int k, nd;

    cr_camera_setup_defaults(&cs, CAL_W, CAL_H);
    cs.height_mm = 2800.0, cs.offset_x_mm = 150.0, cs.offset_y_mm = -200.0, cs.yaw_deg = 2.0, cs.tilt_deg = 5.0;
    CU_ASSERT_EQUAL_FATAL(cr_camera_build(&cs, &t, &cam), 0);
    memset(&res, 0, sizeof res);
    CU_ASSERT_TRUE_FATAL(cr_camera_table_corners(&cam, &t, res.corners_px));
    CU_ASSERT_TRUE_FATAL(cr_calib_homography4((const double(*)[2])tab, (const double(*)[2])res.corners_px,
                                              res.table_to_px));
    CU_ASSERT_TRUE_FATAL(cr_calib_homography4((const double(*)[2])res.corners_px, (const double(*)[2])tab,
                                              res.px_to_table));
    res.status = CR_CALIB_OK, res.dist_f_px = CAL_W;
    res.dist_centre_px[0] = (CAL_W - 1) / 2.0, res.dist_centre_px[1] = (CAL_H - 1) / 2.0;
    nd = cr_table_diamonds(&t, dm, CR_TABLE_DIAMOND_COUNT);
    for (k = 0; k < nd; k++) { /* sights 93.66 mm behind the nose, on the 48 mm rail cap */
        double x = dm[k].x + (dm[k].x == 0.0 ? -93.66 : dm[k].x == t.length_mm ? 93.66 : 0.0);
        double y = dm[k].y + (dm[k].y == 0.0 ? -93.66 : dm[k].y == t.width_mm ? 93.66 : 0.0);

        CU_ASSERT_TRUE_FATAL(cr_camera_project(&cam, x, y, CR_CAMERA_RAIL_HEIGHT_MM, &dpx[k][0], &dpx[k][1]));
        dlong[k] = dm[k].y == 0.0 || dm[k].y == t.width_mm;
        dal[k] = dlong[k] ? dm[k].x : dm[k].y;
    }
    cr_calib_params_defaults(&p);
    CU_ASSERT_EQUAL_FATAL(cr_calib_camera_fit(&res, CAL_W, CAL_H, &p, (const double(*)[2])dpx, dal, dlong, nd, 0.3),
                          CR_CALIB_OK);
    CU_ASSERT_EQUAL(res.camera_source, CR_CALIB_CAMERA_DIAMONDS);
    for (k = 0; k < 3; k++)
        CU_ASSERT_DOUBLE_EQUAL(res.camera.pos[k], cam.pos[k], 0.5);
    CU_ASSERT_DOUBLE_EQUAL(res.camera.fx, cam.fx, 1e-3 * cam.fx);
    CU_ASSERT(cal_ball_map_max(&cam, &res.camera, &t) < 0.05);
    CU_ASSERT(res.camera_rms_px < 0.05);
    /* without the sights an overhead-ish view leaves the height to the prior */
    CU_ASSERT_EQUAL_FATAL(cr_calib_camera_fit(&res, CAL_W, CAL_H, &p, NULL, NULL, NULL, 0, 0.3), CR_CALIB_OK);
    CU_ASSERT_NOT_EQUAL(res.camera_source, CR_CALIB_CAMERA_DIAMONDS);
    CU_ASSERT(res.camera_sigma_mm[2] > 50.0);
    /* one side taken 20 px off (a cue along the cushion): no camera reproduces
     * that outline, and the sanity limit of the detector catches it */
    res.corners_px[2][1] += 20.0, res.corners_px[3][1] += 20.0 * 0.2;
    CU_ASSERT_TRUE_FATAL(cr_calib_homography4((const double(*)[2])tab, (const double(*)[2])res.corners_px,
                                              res.table_to_px));
    CU_ASSERT_TRUE_FATAL(cr_calib_homography4((const double(*)[2])res.corners_px, (const double(*)[2])tab,
                                              res.px_to_table));
    CU_ASSERT_EQUAL_FATAL(cr_calib_camera_fit(&res, CAL_W, CAL_H, &p, (const double(*)[2])dpx, dal, dlong, nd, 0.3),
                          CR_CALIB_OK);
    CU_ASSERT(res.camera_rms_px > p.max_camera_rms_px || res.diamond_rms_mm > p.max_diamond_rms_mm);
}

/* A rendered tilted, off-centre view with barrel distortion: the sights are
 * found, the camera is posed, ball centres map within 1 mm. */
static void test_camera_rendered(void)
{
    cr_table_t t = cal_t9();
    cr_camera_setup_t cs;
    cr_camera_t cam;
    cr_calib_params_t p;
    cr_calib_result_t res;
    cr_calib_image_t im;
    uint8_t *img;
    double bmax;

    cr_camera_setup_defaults(&cs, CAL_W, CAL_H);
    cs.height_mm = 2700.0, cs.offset_x_mm = -180.0, cs.offset_y_mm = 120.0, cs.yaw_deg = -2.0;
    cs.tilt_deg = 6.0, cs.tilt_azimuth_deg = 200.0, cs.k1 = -0.12;
    img = cal_render(&cs, CR_CLOTH_TAN, &cam);
    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    im.rgb = img, im.width = CAL_W, im.height = CAL_H, im.stride = 3 * CAL_W;
    cr_calib_params_defaults(&p);
    CU_ASSERT_EQUAL_FATAL(cr_calib_detect(&im, &t, &p, &res), CR_CALIB_OK);
    free(img);
    CU_ASSERT_EQUAL(res.camera_source, CR_CALIB_CAMERA_DIAMONDS);
    CU_ASSERT(res.n_diamonds >= p.min_diamonds);
    CU_ASSERT_DOUBLE_EQUAL(res.camera.pos[2], cam.pos[2], 0.05 * cam.pos[2]);
    CU_ASSERT_DOUBLE_EQUAL(res.camera.pos[0], cam.pos[0], 50.0);
    CU_ASSERT_DOUBLE_EQUAL(res.camera.pos[1], cam.pos[1], 50.0);
    CU_ASSERT_DOUBLE_EQUAL(res.camera.k1, cam.k1, 0.02);
    bmax = cal_ball_map_max(&cam, &res.camera, &t);
    if (bmax > 1.0)
        fprintf(stderr, "\ncalib: camera from %s: ball centres off by up to %.2f mm\n",
                cr_calib_camera_source_name(res.camera_source), bmax);
    CU_ASSERT(bmax <= 1.0);
}

/* A broadcast frame: an opaque score box over part of a rail and cushion. */
static void test_score_graphic(void)
{
    cr_camera_setup_t cs;
    cr_camera_t cam;
    cr_table_t t = cal_t9();
    cr_calib_params_t p;
    cr_calib_result_t res;
    cr_calib_image_t im;
    uint8_t *img;
    double truth[4][2], u, v;
    int x, y, k;

    cr_camera_setup_defaults(&cs, CAL_W, CAL_H);
    cs.tilt_deg = 3.0;
    img = cal_render(&cs, CR_CLOTH_BLUE, &cam);
    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    /* the box: a quarter of the image wide, centred on the left (y = 0) rail at x = L/3 */
    CU_ASSERT_TRUE_FATAL(cr_camera_project(&cam, t.length_mm / 3.0, -100.0, 48.0, &u, &v));
    for (y = (int)v - CAL_H / 30; y <= (int)v + CAL_H / 30; y++)
        for (x = (int)u - CAL_W / 8; x <= (int)u + CAL_W / 8; x++) {
            uint8_t *q = img + ((size_t)y * CAL_W + x) * 3;

            if (x < 0 || y < 0 || x >= CAL_W || y >= CAL_H)
                continue;
            q[0] = 20, q[1] = 30, q[2] = (x / 5) % 3 ? 90 : 240;
        }
    im.rgb = img, im.width = CAL_W, im.height = CAL_H, im.stride = 3 * CAL_W;
    cr_calib_params_defaults(&p);
    CU_ASSERT_EQUAL_FATAL(cr_calib_detect(&im, &t, &p, &res), CR_CALIB_OK);
    free(img);
    CU_ASSERT_TRUE_FATAL(cr_camera_table_corners(&cam, &t, truth));
    for (k = 0; k < 4; k++)
        CU_ASSERT(hypot(res.corners_px[k][0] - truth[k][0], res.corners_px[k][1] - truth[k][1]) <= CAL_CORNER_TOL_PX);
    CU_ASSERT(cal_ball_map_max(&cam, &res.camera, &t) <= 1.5);
}

/* The table size from the balls: an 8 ft table calibrated as a 9 ft one. */
static void test_table_infer(void)
{
    cr_table_t t9 = cal_t9(), t8, out;
    cr_camera_setup_t cs;
    cr_camera_t cam;
    cr_calib_params_t p;
    cr_calib_result_t res;
    cr_calib_image_t im;
    uint8_t *img;
    char why[256];

    CU_ASSERT_EQUAL_FATAL(cr_table_parse("8ft", &t8), CR_OK);
    cr_camera_setup_defaults(&cs, CAL_W, CAL_H);
    cs.tilt_deg = 2.0;
    img = cal_render_table(&cs, CR_CLOTH_GREEN, &t8, &cam);
    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    im.rgb = img, im.width = CAL_W, im.height = CAL_H, im.stride = 3 * CAL_W;
    cr_calib_params_defaults(&p);
    CU_ASSERT_EQUAL_FATAL(cr_calib_detect(&im, &t9, &p, &res), CR_CALIB_OK);
    free(img);
    CU_ASSERT(res.n_balls_measured >= 2);
    CU_ASSERT_EQUAL_FATAL(cr_calib_table_infer(&res, &t9, &out, why, sizeof why), CR_CALIB_OK);
    if (fabs(out.width_mm - t8.width_mm) > 0.5)
        fprintf(stderr, "\ncalib: table inferred: %s\n", why);
    CU_ASSERT_DOUBLE_EQUAL(out.width_mm, t8.width_mm, 0.5);
    CU_ASSERT_DOUBLE_EQUAL(out.length_mm, t8.length_mm, 0.5);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "8ft"));
    res.n_balls_measured = 1;
    CU_ASSERT_EQUAL(cr_calib_table_infer(&res, &t9, &out, why, sizeof why), CR_CALIB_ERR_INVALID);
}

int cr_test_register_calib(void)
{
    CU_pSuite geo, det;

    geo = CU_add_suite("calib geometry", NULL, NULL);
    if (!geo || !CU_add_test(geo, "homography from four points", test_homography4) ||
        !CU_add_test(geo, "invalid arguments", test_invalid) ||
        !CU_add_test(geo, "camera from an exact homography and sights", test_camera_fit_exact))
        return 1;
    det = CU_add_suite("calib detection", NULL, NULL);
    if (!det || !CU_add_test(det, "cloths and tilts", test_cloths_and_tilts) ||
        !CU_add_test(det, "off-centre, yawed, barrel distortion", test_offcentre_barrel) ||
        !CU_add_test(det, "head on the image right", test_head_on_right) ||
        !CU_add_test(det, "black frame", test_black_frame) || !CU_add_test(det, "no table", test_no_table) ||
        !CU_add_test(det, "table partly out of frame", test_partly_out_of_frame) ||
        !CU_add_test(det, "camera from a rendered view", test_camera_rendered) ||
        !CU_add_test(det, "score graphic over a rail", test_score_graphic) ||
        !CU_add_test(det, "table size from the balls", test_table_infer))
        return 1;
    return 0;
}
