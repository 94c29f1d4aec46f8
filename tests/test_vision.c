/* test_vision.c - vision/cr_vision.h: the colour conversions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "cr_camera.h"
#include "cr_table.h"
#include "cr_render.h"
#include "cr_vision.h"
#include "cr_watch.h"
#include "test_suites.h"

/* RGB -> I420 -> RGB returns flat colours within the rounding of two
 * 8-bit conversions, and the cloth colours the renderer uses keep their hue. */
static void test_round_trip(void)
{
    enum { W = 6, H = 4 };
    static const uint8_t colours[][3] = {{0, 0, 0}, {255, 255, 255}, {30, 90, 170}, {20, 120, 60}, {200, 40, 30}};
    uint8_t rgb[W * H * 3], back[W * H * 3], y[W * H], u[(W / 2) * (H / 2)], v[(W / 2) * (H / 2)];
    cr_yuv_image_t img = {y, u, v, W, H, W, W / 2, W / 2};
    size_t c;
    int i;

    for (c = 0; c < sizeof colours / sizeof colours[0]; c++) {
        for (i = 0; i < W * H; i++) {
            rgb[3 * i] = colours[c][0];
            rgb[3 * i + 1] = colours[c][1];
            rgb[3 * i + 2] = colours[c][2];
        }
        cr_vision_rgb_to_i420(rgb, W, H, 3 * W, y, u, v);
        cr_vision_i420_to_rgb(&img, back, 3 * W);
        for (i = 0; i < W * H * 3; i++)
            CU_ASSERT(abs((int)back[i] - (int)rgb[i]) <= 3);
    }
    /* limited range: black is Y 16, white Y 235 */
    for (i = 0; i < W * H * 3; i++)
        rgb[i] = 0;
    cr_vision_rgb_to_i420(rgb, W, H, 3 * W, y, u, v);
    CU_ASSERT_EQUAL(y[0], 16);
    CU_ASSERT_EQUAL(u[0], 128);
}

/* A tilted camera's plane homography gives back its focal length and pose;
 * a camera looking straight down gives its pose from the height prior, and
 * balls at z = R map back to within 0.05 mm either way. */
static void test_camera_from_homography(void)
{
    static const double tilts[] = {0.0, 3.0, 6.0, 8.0};
    cr_table_t t;
    size_t k;

    CU_ASSERT_EQUAL_FATAL(cr_table_parse("9ft", &t), CR_OK);
    for (k = 0; k < sizeof tilts / sizeof tilts[0]; k++) {
        cr_camera_setup_t cs;
        cr_camera_t cam, est;
        double h[9], x, y, u, v, xe, ye, worst = 0.0;
        bool solved = false;
        int i, j;

        cr_camera_setup_defaults(&cs, 1920, 1080);
        cs.tilt_deg = tilts[k];
        cs.yaw_deg = 1.5;
        cs.offset_x_mm = 120.0;
        cs.height_mm = 3000.0;
        cs.k1 = -0.05;
        CU_ASSERT_EQUAL_FATAL(cr_camera_build(&cs, &t, &cam), CR_OK);
        CU_ASSERT_FATAL(cr_camera_plane_homography(&cam, h));
        CU_ASSERT_EQUAL_FATAL(cr_camera_from_homography(h, 1920, 1080, cam.k1, cam.k2, 0.0, 3000.0, &est, &solved),
                              CR_OK);
        if (tilts[k] >= 3.0) {
            CU_ASSERT(solved);
            CU_ASSERT(fabs(est.fx - cam.fx) < 1e-3 * cam.fx);
        } else {
            CU_ASSERT(!solved);
        }
        CU_ASSERT(fabs(est.pos[0] - cam.pos[0]) < 2.0);
        CU_ASSERT(fabs(est.pos[1] - cam.pos[1]) < 2.0);
        CU_ASSERT(fabs(est.pos[2] - cam.pos[2]) < 2.0);
        for (i = 0; i <= 10; i++)
            for (j = 0; j <= 5; j++) {
                x = t.length_mm * i / 10.0, y = t.width_mm * j / 5.0;
                CU_ASSERT_FATAL(cr_camera_project(&cam, x, y, t.ball_radius_mm, &u, &v));
                CU_ASSERT_FATAL(cr_camera_unproject_plane(&est, u, v, t.ball_radius_mm, &xe, &ye));
                worst = fmax(worst, hypot(xe - x, ye - y));
            }
        CU_ASSERT(worst < 0.05);
    }
}

/* Renders an empty table (plus an optional cue and arm reaching over the
 * left cushion) seen by cam into I420 buffers. */
static int render_i420(const cr_camera_t *cam, const cr_table_t *t, bool arm, uint8_t *rgb, uint8_t *y, uint8_t *u,
                       uint8_t *v)
{
    static const uint8_t skin[3] = {200, 160, 130}, sleeve[3] = {40, 40, 90};
    cr_render_params_t rp;
    cr_renderer_t *r = NULL;
    cr_render_scene_t sc;
    cr_render_ball_t ball;

    cr_render_params_defaults(&rp, t);
    rp.seed = 3;
    if (cr_renderer_create(cam, t, &rp, &r) != CR_OK)
        return -1;
    memset(&sc, 0, sizeof(sc));
    memset(&ball, 0, sizeof(ball));
    ball.id = 0;
    ball.x_mm = 900.0;
    ball.y_mm = 300.0;
    ball.q[0] = 1.0;
    ball.visible = true;
    sc.balls = &ball;
    sc.n_balls = 1;
    if (arm) {
        sc.cue.present = true;
        sc.cue.tip_x_mm = 900.0;
        sc.cue.tip_y_mm = 240.0;
        sc.cue.tip_z_mm = 28.575;
        sc.cue.dir_deg = 80.0;
        sc.cue.elevation_deg = 8.0;
        cr_render_arm_from_cue(&sc.cue, skin, sleeve, false, &sc.arm);
    }
    if (cr_render_frame(r, &sc, 1, 0, rgb, 3 * cam->width, NULL) != CR_OK) {
        cr_renderer_destroy(r);
        return -1;
    }
    cr_renderer_destroy(r);
    cr_vision_rgb_to_i420(rgb, cam->width, cam->height, 3 * cam->width, y, u, v);
    return 0;
}

/* The watch stays quiet for the same view (with an arm over a cushion) and
 * reports a camera that turned by one degree, after `confirm` checks. */
static void test_watch(void)
{
    enum { W = 640, H = 360 };
    cr_table_t t;
    cr_camera_setup_t cs;
    cr_camera_t cam, moved;
    cr_watch_t *w = NULL;
    cr_watch_report_t rep;
    uint8_t *rgb = malloc(W * H * 3), *y = malloc(W * H), *u = malloc(W * H / 4), *v = malloc(W * H / 4);
    cr_yuv_image_t img = {y, u, v, W, H, W, W / 2, W / 2};
    int k;

    CU_ASSERT_FATAL(rgb && y && u && v);
    CU_ASSERT_EQUAL_FATAL(cr_table_parse("9ft", &t), CR_OK);
    cr_camera_setup_defaults(&cs, W, H);
    cs.tilt_deg = 4.0;
    cs.k1 = -0.05;
    CU_ASSERT_EQUAL_FATAL(cr_camera_build(&cs, &t, &cam), CR_OK);
    cs.yaw_deg = 1.0;
    CU_ASSERT_EQUAL_FATAL(cr_camera_build(&cs, &t, &moved), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_watch_create(&cam, &t, NULL, &w), CR_OK);

    CU_ASSERT_EQUAL_FATAL(render_i420(&cam, &t, false, rgb, y, u, v), 0);
    CU_ASSERT_EQUAL(cr_watch_frame(w, &img, 0.0, &rep), CR_OK);
    CU_ASSERT(!rep.checked);
    CU_ASSERT_EQUAL_FATAL(render_i420(&cam, &t, true, rgb, y, u, v), 0);
    for (k = 1; k <= 5; k++) {
        CU_ASSERT_EQUAL(cr_watch_frame(w, &img, k, &rep), CR_OK);
        CU_ASSERT(rep.checked);
        CU_ASSERT(!rep.moved);
        CU_ASSERT(rep.valid_share > 0.8);
    }
    CU_ASSERT(fabs(rep.shift_px[CR_RAIL_LEFT]) < 0.5);
    CU_ASSERT_EQUAL_FATAL(render_i420(&moved, &t, false, rgb, y, u, v), 0);
    CU_ASSERT_EQUAL(cr_watch_frame(w, &img, 6.0, &rep), CR_OK);
    CU_ASSERT(!rep.moved);
    CU_ASSERT_EQUAL(cr_watch_frame(w, &img, 7.0, &rep), CR_OK);
    CU_ASSERT_EQUAL(cr_watch_frame(w, &img, 8.0, &rep), CR_OK);
    CU_ASSERT(rep.moved);
    CU_ASSERT(fabs(rep.shift_px[CR_RAIL_HEAD]) > 2.0 || fabs(rep.shift_px[CR_RAIL_FOOT]) > 2.0 ||
              rep.valid_share < 0.35);
    img.width = W / 2;
    CU_ASSERT_EQUAL(cr_watch_frame(w, &img, 9.0, &rep), CR_ERR_INVALID);
    cr_watch_destroy(w);
    free(rgb);
    free(y);
    free(u);
    free(v);
}

int cr_test_register_vision(void)
{
    CU_pSuite s = CU_add_suite("vision", NULL, NULL);

    if (!s || !CU_add_test(s, "rgb/i420 round trip", test_round_trip) ||
        !CU_add_test(s, "camera from homography", test_camera_from_homography) ||
        !CU_add_test(s, "camera moved", test_watch))
        return -1;
    return 0;
}
