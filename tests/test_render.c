/*
 * test_render.c - CUnit tests for the simulator's camera (sim/cr_camera),
 * renderer (sim/cr_render) and the video writer (capture/cr_video_writer).
 *
 * Geometry is checked against what is geometrically right, not against the
 * code under test:
 *   - a sphere seen off the optical axis projects to an ellipse (the cone
 *     of sight lines tangent to it, cut by the image plane) whose centre is
 *     NOT the projection of the sphere's centre: the far side of the ellipse
 *     is stretched more. The true silhouette centre is computed here by
 *     projecting the sphere's outline (its circle of tangency seen from the
 *     camera centre, distortion included) and taking the centroid of that
 *     polygon's area. Overhead, the difference is far below 0.3 px, so the
 *     rendered silhouette's centroid must match cr_camera_project() of the
 *     ball centre; for a close, strongly tilted camera it must match the
 *     outline centroid, and that must differ measurably from the projected
 *     centre (otherwise the test would not tell the two apart).
 *   - round trips pixel <-> cloth through strong distortion.
 * Files go to a fresh directory under /tmp, removed at the end.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "cr_camera.h"
#include "cr_render.h"
#include "cr_table.h"
#include "cr_video_writer.h"
#include "test_suites.h"

#define R CR_BALL_RADIUS_MM
#define PI 3.14159265358979323846

static cr_table_t t9(void)
{
    cr_table_t t;

    cr_table_init(&t, 2540.0, 1270.0);
    return t;
}

static bool inside_image(const cr_camera_t *cam, double u, double v)
{
    return u >= -0.5 && v >= -0.5 && u <= cam->width - 0.5 && v <= cam->height - 0.5;
}

/* ---- camera --------------------------------------------------------------- */

static void test_camera_defaults_fit(void)
{
    cr_table_t t = t9();
    static const int sizes[3][2] = {{1920, 1080}, {1280, 720}, {640, 480}};
    int s, k;

    for (s = 0; s < 3; s++) {
        cr_camera_t cam;
        double c[4][2], u, v;

        CU_ASSERT_EQUAL_FATAL(cr_camera_defaults(&cam, sizes[s][0], sizes[s][1], &t), CR_OK);
        CU_ASSERT_DOUBLE_EQUAL(cam.pos[2], 3000.0, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(cam.cx, (sizes[s][0] - 1) / 2.0, 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(cam.fx, cam.fy, 1e-12);
        CU_ASSERT_TRUE_FATAL(cr_camera_table_corners(&cam, &t, c));
        for (k = 0; k < 4; k++)
            CU_ASSERT_TRUE(inside_image(&cam, c[k][0], c[k][1]));
        /* the rails' outer corners too, and the table is not tiny */
        CU_ASSERT_TRUE(cr_camera_project(&cam, -CR_CAMERA_RAIL_WIDTH_MM, -CR_CAMERA_RAIL_WIDTH_MM, 48.0, &u, &v));
        CU_ASSERT_TRUE(inside_image(&cam, u, v));
        CU_ASSERT_TRUE(cr_camera_project(&cam, t.length_mm + CR_CAMERA_RAIL_WIDTH_MM,
                                         t.width_mm + CR_CAMERA_RAIL_WIDTH_MM, 48.0, &u, &v));
        CU_ASSERT_TRUE(inside_image(&cam, u, v));
        CU_ASSERT_TRUE(c[3][0] - c[0][0] > 0.6 * sizes[s][0] || c[1][1] - c[0][1] > 0.6 * sizes[s][1]);
        /* head on the left, left cushion (y = 0) at the top: SPEC §5 order */
        CU_ASSERT_STRING_EQUAL(cr_camera_head_side(&cam, &t), "left");
        CU_ASSERT_TRUE(c[0][0] < c[3][0] && c[0][1] < c[1][1]);
    }
}

static void test_camera_tilt_offsets(void)
{
    static const double tilts[] = {0.0, 2.0, 5.0, 8.0}, offs[][2] = {{0, 0}, {300, -250}, {-350, 200}, {150, 400}};
    static const double k1s[] = {0.0, -0.15, 0.08}, yaws[] = {0.0, -4.0, 7.0}, azs[] = {90.0, 0.0, 225.0};
    cr_table_t t = t9();
    size_t a, b, c, d;

    for (a = 0; a < sizeof(tilts) / sizeof(tilts[0]); a++)
        for (b = 0; b < sizeof(offs) / sizeof(offs[0]); b++)
            for (c = 0; c < sizeof(k1s) / sizeof(k1s[0]); c++)
                for (d = 0; d < 3; d++) {
                    cr_camera_setup_t s;
                    cr_camera_t cam;
                    double cr[4][2];
                    int k;

                    cr_camera_setup_defaults(&s, 1920, 1080);
                    s.tilt_deg = tilts[a];
                    s.tilt_azimuth_deg = azs[d];
                    s.yaw_deg = yaws[d];
                    s.offset_x_mm = offs[b][0];
                    s.offset_y_mm = offs[b][1];
                    s.k1 = k1s[c];
                    CU_ASSERT_EQUAL_FATAL(cr_camera_build(&s, &t, &cam), CR_OK);
                    CU_ASSERT_TRUE_FATAL(cr_camera_table_corners(&cam, &t, cr));
                    for (k = 0; k < 4; k++)
                        CU_ASSERT_TRUE(inside_image(&cam, cr[k][0], cr[k][1]));
                }
}

static void test_camera_invalid(void)
{
    cr_table_t t = t9();
    cr_camera_setup_t s;
    cr_camera_t cam, before;
    double u = 7.0, v = 8.0;

    memset(&before, 0x5a, sizeof(before));
    cam = before;
    cr_camera_setup_defaults(&s, 1920, 1080);
    s.tilt_deg = 70.0;
    CU_ASSERT_EQUAL(cr_camera_build(&s, &t, &cam), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(memcmp(&cam, &before, sizeof(cam)), 0);
    cr_camera_setup_defaults(&s, 0, 1080);
    CU_ASSERT_EQUAL(cr_camera_build(&s, &t, &cam), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_camera_build(NULL, &t, &cam), CR_ERR_INVALID);
    /* distortion that folds back inside the rails' outline */
    cr_camera_setup_defaults(&s, 1920, 1080);
    s.height_mm = 600.0;
    s.k1 = -0.9;
    CU_ASSERT_EQUAL(cr_camera_build(&s, &t, &cam), CR_ERR_INVALID);
    /* a point above the camera is behind it */
    CU_ASSERT_EQUAL_FATAL(cr_camera_defaults(&cam, 640, 360, &t), CR_OK);
    CU_ASSERT_FALSE(cr_camera_project(&cam, 1270.0, 635.0, 3500.0, &u, &v));
    CU_ASSERT_DOUBLE_EQUAL(u, 7.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(v, 8.0, 0.0);
}

/* Project -> unproject on the cloth (and the ball-centre plane) through
 * strong distortion: < 1e-6 mm; unproject -> project < 1e-6 px. */
static void test_camera_roundtrip(void)
{
    cr_table_t t = t9();
    cr_camera_setup_t s;
    cr_camera_t cam;
    double worst_mm = 0.0, worst_px = 0.0;
    int i, j, z;

    cr_camera_setup_defaults(&s, 1920, 1080);
    s.tilt_deg = 8.0;
    s.offset_y_mm = -300.0;
    s.k1 = -0.28;
    s.k2 = 0.06;
    CU_ASSERT_EQUAL_FATAL(cr_camera_build(&s, &t, &cam), CR_OK);
    for (z = 0; z < 2; z++) {
        double zz = z ? R : 0.0;

        for (j = 0; j <= 20; j++) {
            for (i = 0; i <= 40; i++) {
                double x = -100.0 + i * (t.length_mm + 200.0) / 40.0, y = -100.0 + j * (t.width_mm + 200.0) / 20.0;
                double u, v, x2, y2, u2, v2;

                CU_ASSERT_TRUE_FATAL(cr_camera_project(&cam, x, y, zz, &u, &v));
                CU_ASSERT_TRUE_FATAL(cr_camera_unproject_plane(&cam, u, v, zz, &x2, &y2));
                worst_mm = fmax(worst_mm, hypot(x2 - x, y2 - y));
                CU_ASSERT_TRUE_FATAL(cr_camera_project(&cam, x2, y2, zz, &u2, &v2));
                worst_px = fmax(worst_px, hypot(u2 - u, v2 - v));
            }
        }
    }
    CU_ASSERT_TRUE(worst_mm < 1e-6);
    CU_ASSERT_TRUE(worst_px < 1e-6);
    /* the image corners are far into the distortion: still invertible */
    {
        double x, y, u, v;

        CU_ASSERT_TRUE_FATAL(cr_camera_unproject_plane(&cam, 0.0, 0.0, 0.0, &x, &y));
        CU_ASSERT_TRUE_FATAL(cr_camera_project(&cam, x, y, 0.0, &u, &v));
        CU_ASSERT_DOUBLE_EQUAL(u, 0.0, 1e-6);
        CU_ASSERT_DOUBLE_EQUAL(v, 0.0, 1e-6);
    }
}

/* ---- renderer helpers ---------------------------------------------------------- */

static cr_render_ball_t ball_at(int id, double x, double y)
{
    cr_render_ball_t b;

    memset(&b, 0, sizeof(b));
    b.id = id;
    b.x_mm = x;
    b.y_mm = y;
    b.q[0] = 1.0;
    b.visible = true;
    return b;
}

static cr_render_scene_t scene_of(const cr_render_ball_t *balls, int n)
{
    cr_render_scene_t s;

    memset(&s, 0, sizeof(s));
    s.balls = balls;
    s.n_balls = n;
    return s;
}

/* Clean parameters for geometry: no noise, no shadows, no lens blur. */
static cr_render_params_t clean_params(const cr_table_t *t)
{
    cr_render_params_t p;

    cr_render_params_defaults(&p, t);
    p.noise_sigma = 0.0;
    p.shadow_strength = 0.0;
    p.lens_blur_px = 0.0;
    return p;
}

/* Centroid of the pixels labelled lab (the silhouette sampled at pixel
 * centres). Returns the count. */
static int label_centroid(const uint8_t *lab, int w, int h, int value, double *cu, double *cv)
{
    double su = 0.0, sv = 0.0;
    int x, y, n = 0;

    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++)
            if (lab[(size_t)y * w + x] == value) {
                su += x;
                sv += y;
                n++;
            }
    *cu = n ? su / n : NAN;
    *cv = n ? sv / n : NAN;
    return n;
}

/* Centroid of the pixels of rgb that differ from the background by more
 * than thresh (sum over channels). Returns the count. */
static int diff_centroid(const uint8_t *rgb, const uint8_t *bg, int w, int h, int thresh, double *cu, double *cv)
{
    double su = 0.0, sv = 0.0;
    int x, y, n = 0;

    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            size_t i = ((size_t)y * w + x) * 3;
            int d = abs(rgb[i] - bg[i]) + abs(rgb[i + 1] - bg[i + 1]) + abs(rgb[i + 2] - bg[i + 2]);

            if (d > thresh) {
                su += x;
                sv += y;
                n++;
            }
        }
    *cu = n ? su / n : NAN;
    *cv = n ? sv / n : NAN;
    return n;
}

/* The true centre of a sphere's silhouette: the area centroid of the
 * projected outline (the circle of tangency from the camera centre). */
static void silhouette_centre(const cr_camera_t *cam, const double c[3], double rad, double *cu, double *cv)
{
    enum { N = 2000 };
    double v[3] = {c[0] - cam->pos[0], c[1] - cam->pos[1], c[2] - cam->pos[2]};
    double d = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), e1[3], e2[3], n[3], centre[3], rc, pu[N], pv[N];
    double a = 0.0, sx = 0.0, sy = 0.0, len;
    int i;

    for (i = 0; i < 3; i++)
        n[i] = v[i] / d;
    /* tangency circle: centre c - n R^2/d, radius R sqrt(1 - R^2/d^2) */
    for (i = 0; i < 3; i++)
        centre[i] = c[i] - n[i] * rad * rad / d;
    rc = rad * sqrt(1.0 - rad * rad / (d * d));
    /* an orthonormal pair perpendicular to n */
    e1[0] = -n[1], e1[1] = n[0], e1[2] = 0.0;
    len = sqrt(e1[0] * e1[0] + e1[1] * e1[1]);
    if (len < 1e-9) {
        e1[0] = 1.0, e1[1] = 0.0;
        len = 1.0;
    }
    e1[0] /= len, e1[1] /= len;
    e2[0] = n[1] * e1[2] - n[2] * e1[1];
    e2[1] = n[2] * e1[0] - n[0] * e1[2];
    e2[2] = n[0] * e1[1] - n[1] * e1[0];
    for (i = 0; i < N; i++) {
        double ang = 2.0 * PI * i / N, p[3];
        int k;

        for (k = 0; k < 3; k++)
            p[k] = centre[k] + rc * (cos(ang) * e1[k] + sin(ang) * e2[k]);
        if (!cr_camera_project(cam, p[0], p[1], p[2], &pu[i], &pv[i]))
            pu[i] = pv[i] = NAN;
    }
    for (i = 0; i < N; i++) {
        int j = (i + 1) % N;
        double cr = pu[i] * pv[j] - pu[j] * pv[i];

        a += cr;
        sx += (pu[i] + pu[j]) * cr;
        sy += (pv[i] + pv[j]) * cr;
    }
    *cu = sx / (3.0 * a);
    *cv = sy / (3.0 * a);
}

/* ---- renderer -------------------------------------------------------------------- */

/* Overhead: the silhouette centroid is the projected centre within 0.3 px
 * everywhere on the bed (the off-axis shift is ~0.05 px here). */
static void test_ball_centroid_overhead(void)
{
    static const double pos[][2] = {
        {1270.0, 635.0}, {200.0, 150.0}, {2400.0, 1150.0}, {1905.3, 300.7}, {640.2, 1000.9}};
    cr_table_t t = t9();
    cr_camera_t cam;
    cr_render_params_t p = clean_params(&t);
    cr_renderer_t *r = NULL;
    const int w = 1280, h = 720;
    uint8_t *rgb = malloc((size_t)w * h * 3), *lab = malloc((size_t)w * h);
    size_t k;

    CU_ASSERT_FATAL(rgb != NULL && lab != NULL);
    CU_ASSERT_EQUAL_FATAL(cr_camera_defaults(&cam, w, h, &t), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_renderer_create(&cam, &t, &p, &r), CR_OK);
    for (k = 0; k < sizeof(pos) / sizeof(pos[0]); k++) {
        cr_render_ball_t b = ball_at(0, pos[k][0], pos[k][1]);
        cr_render_scene_t s = scene_of(&b, 1);
        double u, v, lu, lv, du, dv, su, sv;
        int n;

        CU_ASSERT_TRUE_FATAL(cr_camera_project(&cam, b.x_mm, b.y_mm, R, &u, &v));
        CU_ASSERT_EQUAL_FATAL(cr_render_labels(r, &s, lab, w), CR_OK);
        n = label_centroid(lab, w, h, CR_RENDER_LABEL_BALL0 + 0, &lu, &lv);
        CU_ASSERT_TRUE(n > 250); /* a ~20 px disc */
        CU_ASSERT_DOUBLE_EQUAL(lu, u, 0.3);
        CU_ASSERT_DOUBLE_EQUAL(lv, v, 0.3);
        /* the same on the rendered colours (white ball on blue cloth) */
        CU_ASSERT_EQUAL_FATAL(cr_render_frame(r, &s, 1, 0, rgb, w * 3, NULL), CR_OK);
        n = diff_centroid(rgb, cr_render_background(r), w, h, 60, &du, &dv);
        CU_ASSERT_TRUE(n > 250);
        CU_ASSERT_DOUBLE_EQUAL(du, u, 0.3);
        CU_ASSERT_DOUBLE_EQUAL(dv, v, 0.3);
        /* and the true silhouette centre is within 0.1 px of the projection */
        silhouette_centre(&cam, (double[3]){b.x_mm, b.y_mm, R}, R, &su, &sv);
        CU_ASSERT_DOUBLE_EQUAL(su, u, 0.1);
        CU_ASSERT_DOUBLE_EQUAL(sv, v, 0.1);
    }
    cr_renderer_destroy(r);
    free(rgb);
    free(lab);
}

/* A close camera looking 38 degrees down across the table from beside it
 * (700 mm up, 400 mm off the left cushion, f = 700 px, barrel distortion):
 * balls near the image corners are ~45 degrees off the axis and ~1 m away,
 * so their silhouettes are ellipses whose centres lie a pixel or more off
 * the projected ball centres; the rendered silhouette follows the ellipse. */
static void test_ball_centroid_tilted(void)
{
    static const double pix[][2] = {{640.0, 500.0}, {70.0, 660.0}, {1205.0, 665.0}, {70.0, 380.0}, {1200.0, 400.0}};
    cr_table_t t = t9();
    cr_camera_t cam;
    cr_render_params_t p = clean_params(&t);
    cr_renderer_t *r = NULL;
    const int w = 1280, h = 720;
    uint8_t *lab = malloc((size_t)w * h);
    double max_offset = 0.0, zc[3] = {0.0, 900.0, 700.0}, n = hypot(900.0, 700.0);
    size_t k;

    CU_ASSERT_FATAL(lab != NULL);
    memset(&cam, 0, sizeof(cam));
    cam.width = w;
    cam.height = h;
    cam.fx = cam.fy = 700.0;
    cam.cx = (w - 1) / 2.0;
    cam.cy = (h - 1) / 2.0;
    cam.k1 = -0.05;
    cam.pos[0] = 1270.0, cam.pos[1] = -400.0, cam.pos[2] = 700.0;
    /* rows: optical axis toward (1270, 500, 0), i.e. (0, 900, 700) in the
     * frame (x, y, -z); camera x = table -x (a viewer at the left cushion
     * has the foot on their left); camera y = z_c x x_c (down = near) */
    zc[1] /= n, zc[2] /= n;
    cam.rot[0] = -1.0, cam.rot[1] = 0.0, cam.rot[2] = 0.0;
    cam.rot[3] = 0.0, cam.rot[4] = -zc[2], cam.rot[5] = zc[1];
    cam.rot[6] = zc[0], cam.rot[7] = zc[1], cam.rot[8] = zc[2];
    CU_ASSERT_EQUAL_FATAL(cr_renderer_create(&cam, &t, &p, &r), CR_OK);
    for (k = 0; k < sizeof(pix) / sizeof(pix[0]); k++) {
        cr_render_ball_t b;
        cr_render_scene_t s;
        double x, y, u, v, su, sv, lu, lv;

        /* the ball whose centre is seen at this pixel */
        CU_ASSERT_TRUE_FATAL(cr_camera_unproject_plane(&cam, pix[k][0], pix[k][1], R, &x, &y));
        b = ball_at(3, x, y);
        s = scene_of(&b, 1);
        CU_ASSERT_TRUE_FATAL(cr_camera_project(&cam, x, y, R, &u, &v));
        silhouette_centre(&cam, (double[3]){x, y, R}, R, &su, &sv);
        CU_ASSERT_EQUAL_FATAL(cr_render_labels(r, &s, lab, w), CR_OK);
        CU_ASSERT_TRUE(label_centroid(lab, w, h, CR_RENDER_LABEL_BALL0 + 3, &lu, &lv) > 500);
        CU_ASSERT_DOUBLE_EQUAL(lu, su, 0.3);
        CU_ASSERT_DOUBLE_EQUAL(lv, sv, 0.3);
        /* closer to the true silhouette centre than to the projected centre
         * whenever the two are told apart */
        if (hypot(su - u, sv - v) > 0.6)
            CU_ASSERT_TRUE(hypot(lu - su, lv - sv) < hypot(lu - u, lv - v));
        max_offset = fmax(max_offset, hypot(su - u, sv - v));
    }
    /* the geometry must make the difference visible somewhere */
    CU_ASSERT_TRUE(max_offset > 0.6);
    cr_renderer_destroy(r);
    free(lab);
}

static uint8_t *render_once(const cr_table_t *t, const cr_render_params_t *p, const cr_render_scene_t *s, int n_sub,
                            uint64_t frame, int w, int h)
{
    cr_camera_t cam;
    cr_renderer_t *r = NULL;
    uint8_t *rgb = malloc((size_t)w * h * 3);

    if (!rgb || cr_camera_defaults(&cam, w, h, t) != CR_OK || cr_renderer_create(&cam, t, p, &r) != CR_OK ||
        cr_render_frame(r, s, n_sub, frame, rgb, w * 3, NULL) != CR_OK) {
        free(rgb);
        rgb = NULL;
    }
    cr_renderer_destroy(r);
    return rgb;
}

static cr_render_scene_t rack_scene(const cr_table_t *t, cr_render_ball_t balls[16])
{
    cr_ball_pos_t rack[15];
    int n = cr_table_rack(t, CR_GAME_8BALL, CR_EDITION_WPA2008, 5, rack, 15), i;
    cr_render_scene_t s;

    for (i = 0; i < n; i++) {
        balls[i] = ball_at(rack[i].id, rack[i].x, rack[i].y);
        balls[i].q[0] = cos(0.3 * i);
        balls[i].q[1] = sin(0.3 * i);
    }
    balls[n] = ball_at(0, t->length_mm / 4.0, t->width_mm / 2.0);
    s = scene_of(balls, n + 1);
    s.cue.present = true;
    s.cue.tip_x_mm = t->length_mm / 4.0 - 40.0;
    s.cue.tip_y_mm = t->width_mm / 2.0;
    s.cue.tip_z_mm = R;
    s.cue.dir_deg = 0.0;
    s.cue.elevation_deg = 5.0;
    return s;
}

static void test_determinism(void)
{
    cr_table_t t = t9();
    cr_render_params_t p;
    cr_render_ball_t balls[16];
    cr_render_scene_t s[2];
    const int w = 480, h = 270;
    uint8_t *a, *b, *c, *d;

    s[0] = s[1] = rack_scene(&t, balls);
    cr_render_params_defaults(&p, &t);
    p.seed = 42;
    a = render_once(&t, &p, s, 2, 7, w, h);
    b = render_once(&t, &p, s, 2, 7, w, h);
    c = render_once(&t, &p, s, 2, 8, w, h); /* next frame: new sensor noise */
    p.seed = 43;
    d = render_once(&t, &p, s, 2, 7, w, h);
    CU_ASSERT_FATAL(a && b && c && d);
    CU_ASSERT_EQUAL(memcmp(a, b, (size_t)w * h * 3), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(a, c, (size_t)w * h * 3), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(a, d, (size_t)w * h * 3), 0);
    free(a);
    free(b);
    free(c);
    free(d);
}

/* Pixels differing from the background by more than thresh. */
static int count_diff(const uint8_t *a, const uint8_t *bg, size_t n, int thresh)
{
    size_t i;
    int c = 0;

    for (i = 0; i < n; i++) {
        int d = abs(a[3 * i] - bg[3 * i]) + abs(a[3 * i + 1] - bg[3 * i + 1]) + abs(a[3 * i + 2] - bg[3 * i + 2]);

        c += d > thresh;
    }
    return c;
}

/* A stripe ball turned 90 degrees about y shows its stripe across the top
 * instead of a white cap: many pixels change. */
/* Random ball orientations: unit quaternions, the same for the same seed
 * and ball, and uniform: the stripe's axis (body z) points any way, so it
 * is within 26 degrees of vertical (a pole up, all white from above) for
 * about 1 - cos 26 = 10 % of balls, and its mean vertical component is 0. */
static void test_random_orientation(void)
{
    double q[4], q2[4], sum_z = 0.0;
    int n_up = 0, n = 4000;

    for (int i = 0; i < n; i++) {
        double z;

        cr_render_random_orientation(1000u + (uint64_t)(i / 16), i % 16, q);
        CU_ASSERT_DOUBLE_EQUAL(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-12);
        /* third row, third column of the rotation: body z's table z */
        z = 1.0 - 2.0 * (q[1] * q[1] + q[2] * q[2]);
        sum_z += z;
        n_up += fabs(z) > cos(26.0 * 3.14159265358979 / 180.0);
    }
    CU_ASSERT(fabs(sum_z / n) < 0.05);
    CU_ASSERT(n_up > 0.07 * n && n_up < 0.13 * n);
    cr_render_random_orientation(7, 3, q);
    cr_render_random_orientation(7, 3, q2);
    CU_ASSERT(memcmp(q, q2, sizeof(q)) == 0);
    cr_render_random_orientation(7, 4, q2);
    CU_ASSERT(memcmp(q, q2, sizeof(q)) != 0);
}

static void test_stripe_rotation(void)
{
    cr_table_t t = t9();
    cr_render_params_t p = clean_params(&t);
    cr_camera_t cam;
    cr_renderer_t *r = NULL;
    const int w = 1280, h = 720;
    uint8_t *a = malloc((size_t)w * h * 3), *b = malloc((size_t)w * h * 3), *lab = malloc((size_t)w * h);
    cr_render_ball_t ball = ball_at(11, 1270.0, 635.0);
    cr_render_scene_t s = scene_of(&ball, 1);
    int ball_px, changed = 0;
    size_t i;

    CU_ASSERT_FATAL(a && b && lab);
    CU_ASSERT_EQUAL_FATAL(cr_camera_defaults(&cam, w, h, &t), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_renderer_create(&cam, &t, &p, &r), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_render_frame(r, &s, 1, 0, a, w * 3, NULL), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_render_labels(r, &s, lab, w), CR_OK);
    ball.q[0] = cos(PI / 4.0); /* 90 degrees about y */
    ball.q[2] = sin(PI / 4.0);
    CU_ASSERT_EQUAL_FATAL(cr_render_frame(r, &s, 1, 0, b, w * 3, NULL), CR_OK);
    for (i = 0, ball_px = 0; i < (size_t)w * h; i++) {
        if (lab[i] != CR_RENDER_LABEL_BALL0 + 11)
            continue;
        ball_px++;
        changed += abs(a[3 * i] - b[3 * i]) + abs(a[3 * i + 1] - b[3 * i + 1]) + abs(a[3 * i + 2] - b[3 * i + 2]) > 90;
    }
    CU_ASSERT_TRUE(ball_px > 250);
    CU_ASSERT_TRUE(changed > ball_px / 4);
    /* the same orientation renders the same ball */
    CU_ASSERT_EQUAL_FATAL(cr_render_frame(r, &s, 1, 0, a, w * 3, NULL), CR_OK);
    CU_ASSERT_EQUAL(memcmp(a, b, (size_t)w * h * 3), 0);
    cr_renderer_destroy(r);
    free(a);
    free(b);
    free(lab);
}

/* Motion blur: a ball moving 40 mm per sub-frame smears over more pixels
 * than the same ball at rest; a still ball is the same with 1 or 4. */
static void test_motion_blur(void)
{
    cr_table_t t = t9();
    cr_render_params_t p = clean_params(&t);
    cr_camera_t cam;
    cr_renderer_t *r = NULL;
    const int w = 960, h = 540;
    uint8_t *still = malloc((size_t)w * h * 3), *still4 = malloc((size_t)w * h * 3), *fast = malloc((size_t)w * h * 3);
    cr_render_ball_t balls[4];
    cr_render_scene_t sub[4];
    cr_render_info_t info;
    int k, n_still, n_fast;

    CU_ASSERT_FATAL(still && still4 && fast);
    CU_ASSERT_EQUAL_FATAL(cr_camera_defaults(&cam, w, h, &t), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_renderer_create(&cam, &t, &p, &r), CR_OK);
    for (k = 0; k < 4; k++) {
        balls[k] = ball_at(5, 1200.0, 600.0);
        sub[k] = scene_of(&balls[k], 1);
    }
    CU_ASSERT_EQUAL_FATAL(cr_render_frame(r, sub, 1, 0, still, w * 3, &info), CR_OK);
    CU_ASSERT_TRUE(info.ball_px[5] > 100);
    CU_ASSERT_EQUAL_FATAL(cr_render_frame(r, sub, 4, 0, still4, w * 3, NULL), CR_OK);
    CU_ASSERT_EQUAL(memcmp(still, still4, (size_t)w * h * 3), 0);
    for (k = 0; k < 4; k++)
        balls[k].x_mm = 1200.0 + 40.0 * k;
    CU_ASSERT_EQUAL_FATAL(cr_render_frame(r, sub, 4, 0, fast, w * 3, NULL), CR_OK);
    n_still = count_diff(still, cr_render_background(r), (size_t)w * h, 12);
    n_fast = count_diff(fast, cr_render_background(r), (size_t)w * h, 12);
    CU_ASSERT_TRUE(n_still > 100);
    CU_ASSERT_TRUE(n_fast > 2 * n_still);
    cr_renderer_destroy(r);
    free(still);
    free(still4);
    free(fast);
}

/* Occlusion by height: a cue held over a ball hides it; the ball visible
 * counts and the label map agree; invisible balls are not drawn. */
static void test_occlusion_and_labels(void)
{
    cr_table_t t = t9();
    cr_render_params_t p = clean_params(&t);
    cr_camera_t cam;
    cr_renderer_t *r = NULL;
    const int w = 960, h = 540;
    uint8_t *rgb = malloc((size_t)w * h * 3), *lab = malloc((size_t)w * h);
    cr_render_ball_t balls[2] = {ball_at(9, 1000.0, 500.0), ball_at(2, 1500.0, 800.0)};
    cr_render_scene_t s = scene_of(balls, 2);
    cr_render_info_t info;
    double u, v;
    int n9, n2, full9;
    size_t i;

    CU_ASSERT_FATAL(rgb && lab);
    CU_ASSERT_EQUAL_FATAL(cr_camera_defaults(&cam, w, h, &t), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_renderer_create(&cam, &t, &p, &r), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_render_frame(r, &s, 1, 0, rgb, w * 3, &info), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_render_labels(r, &s, lab, w), CR_OK);
    for (i = 0, n9 = n2 = 0; i < (size_t)w * h; i++) {
        n9 += lab[i] == CR_RENDER_LABEL_BALL0 + 9;
        n2 += lab[i] == CR_RENDER_LABEL_BALL0 + 2;
    }
    CU_ASSERT_EQUAL(info.ball_px[9], n9);
    CU_ASSERT_EQUAL(info.ball_px[2], n2);
    CU_ASSERT_EQUAL(info.ball_px[0], 0);
    full9 = n9;
    /* the cue passes over ball 9, 20 mm above its top */
    s.cue.present = true;
    s.cue.tip_x_mm = 1100.0;
    s.cue.tip_y_mm = 500.0;
    s.cue.tip_z_mm = 2.0 * R + 20.0 + 100.0 * tan(2.0 * PI / 180.0);
    s.cue.dir_deg = 0.0;
    s.cue.elevation_deg = 2.0;
    CU_ASSERT_EQUAL_FATAL(cr_render_frame(r, &s, 1, 0, rgb, w * 3, &info), CR_OK);
    CU_ASSERT_EQUAL_FATAL(cr_render_labels(r, &s, lab, w), CR_OK);
    CU_ASSERT_TRUE(info.ball_px[9] < full9);
    CU_ASSERT_TRUE(info.ball_px[9] > 0);
    CU_ASSERT_TRUE_FATAL(cr_camera_project(&cam, 1000.0, 500.0, R, &u, &v));
    CU_ASSERT_EQUAL(lab[(size_t)(int)(v + 0.5) * w + (int)(u + 0.5)], CR_RENDER_LABEL_CUE);
    /* the cue below the ball's top but beside it does not hide it */
    s.cue.tip_y_mm = 500.0 + 3.0 * R;
    s.cue.tip_z_mm = R;
    CU_ASSERT_EQUAL_FATAL(cr_render_labels(r, &s, lab, w), CR_OK);
    CU_ASSERT_EQUAL(lab[(size_t)(int)(v + 0.5) * w + (int)(u + 0.5)], CR_RENDER_LABEL_BALL0 + 9);
    /* an arm from the cue is drawn; invisible balls are not */
    s.cue.tip_y_mm = 500.0;
    s.cue.tip_x_mm = 1600.0;
    CU_ASSERT_EQUAL(cr_render_arm_from_cue(&s.cue, (const uint8_t[3]){220, 170, 140}, (const uint8_t[3]){30, 30, 40},
                                           false, &s.arm),
                    CR_OK);
    balls[1].visible = false;
    CU_ASSERT_EQUAL_FATAL(cr_render_frame(r, &s, 1, 0, rgb, w * 3, &info), CR_OK);
    CU_ASSERT_EQUAL(info.ball_px[2], 0);
    CU_ASSERT_EQUAL_FATAL(cr_render_labels(r, &s, lab, w), CR_OK);
    for (i = 0, n9 = 0; i < (size_t)w * h; i++)
        n9 += lab[i] == CR_RENDER_LABEL_ARM;
    CU_ASSERT_TRUE(n9 > 1000);
    cr_renderer_destroy(r);
    free(rgb);
    free(lab);
}

static void test_render_invalid(void)
{
    cr_table_t t = t9();
    cr_render_params_t p;
    cr_camera_t cam;
    cr_renderer_t *r = NULL, *keep = (cr_renderer_t *)&t;
    uint8_t rgb[64 * 36 * 3];
    cr_render_ball_t b = ball_at(16, 100.0, 100.0);
    cr_render_scene_t s = scene_of(&b, 1);

    cr_render_params_defaults(&p, &t);
    CU_ASSERT_EQUAL_FATAL(cr_camera_defaults(&cam, 64, 36, &t), CR_OK);
    p.n_lamps = 0;
    CU_ASSERT_EQUAL(cr_renderer_create(&cam, &t, &p, &keep), CR_ERR_INVALID);
    CU_ASSERT_PTR_EQUAL(keep, (cr_renderer_t *)&t);
    cr_render_params_defaults(&p, &t);
    p.blur_subframes = 17;
    CU_ASSERT_EQUAL(cr_renderer_create(&cam, &t, &p, &r), CR_ERR_INVALID);
    cr_render_params_defaults(&p, &t);
    CU_ASSERT_EQUAL(cr_renderer_create(NULL, &t, &p, &r), CR_ERR_INVALID);
    CU_ASSERT_EQUAL_FATAL(cr_renderer_create(&cam, &t, &p, &r), CR_OK);
    CU_ASSERT_EQUAL(cr_render_frame(r, &s, 1, 0, rgb, 64 * 3, NULL), CR_ERR_INVALID); /* id 16 */
    b.id = 15;
    CU_ASSERT_EQUAL(cr_render_frame(r, &s, 1, 0, rgb, 64 * 3 - 1, NULL), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_render_frame(r, &s, 0, 0, rgb, 64 * 3, NULL), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_render_frame(r, &s, 17, 0, rgb, 64 * 3, NULL), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_render_frame(r, &s, 1, 0, rgb, 64 * 3, NULL), CR_OK);
    s.arm.present = true;
    s.arm.n_points = 1;
    CU_ASSERT_EQUAL(cr_render_frame(r, &s, 1, 0, rgb, 64 * 3, NULL), CR_ERR_INVALID);
    cr_renderer_destroy(r);
    cr_renderer_destroy(NULL);
    CU_ASSERT_EQUAL(cr_render_cloth_rgb(CR_CLOTH_PRESET_COUNT, rgb), CR_ERR_INVALID);
}

/* BT.709 limited range: white 235/128/128, black 16/128/128, pure red
 * Y = 16 + 219 * 0.2126 = 62.6, Cb = 128 - 112 * 0.2126 / 0.9278 = 102.3,
 * Cr = 240. */
static void test_i420(void)
{
    static const uint8_t colours[3][3] = {{255, 255, 255}, {0, 0, 0}, {255, 0, 0}};
    static const int expect[3][3] = {{235, 128, 128}, {16, 128, 128}, {63, 102, 240}};
    uint8_t rgb[6 * 4 * 3], y[6 * 4], u[3 * 2], v[3 * 2];
    int c, i;

    for (c = 0; c < 3; c++) {
        for (i = 0; i < 6 * 4; i++)
            memcpy(rgb + 3 * i, colours[c], 3);
        CU_ASSERT_EQUAL_FATAL(cr_render_rgb_to_i420(rgb, 18, 6, 4, y, 6, u, 3, v, 3), CR_OK);
        CU_ASSERT_TRUE(abs(y[5] - expect[c][0]) <= 1);
        CU_ASSERT_TRUE(abs(u[4] - expect[c][1]) <= 1);
        CU_ASSERT_TRUE(abs(v[4] - expect[c][2]) <= 1);
    }
    /* odd sizes: chroma of the last column averages what exists */
    CU_ASSERT_EQUAL(cr_render_rgb_to_i420(rgb, 18, 5, 3, y, 6, u, 3, v, 3), CR_OK);
    CU_ASSERT_EQUAL(cr_render_rgb_to_i420(rgb, 17, 6, 4, y, 6, u, 3, v, 3), CR_ERR_INVALID);
}

/* ---- video writer ------------------------------------------------------------------ */

static char tmpdir[64];

static int video_init(void)
{
    strcpy(tmpdir, "/tmp/cr_test_render_XXXXXX");
    return mkdtemp(tmpdir) ? 0 : 1;
}

/* Entries of dir other than . and .., or -1. */
static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;

    if (!d)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static int video_clean(void)
{
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    char path[320];

    if (!d)
        return 1;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
        unlink(path);
    }
    closedir(d);
    return rmdir(tmpdir) == 0 ? 0 : 1;
}

/* 30 frames of 320x240 at 30 fps read back as 30 frames and 1.0 s. */
static void test_video_roundtrip(void)
{
    const int w = 320, h = 240;
    cr_video_writer_params_t p;
    cr_video_writer_t *vw = NULL;
    uint8_t *rgb = malloc((size_t)w * h * 3);
    char path[128], err[512];
    uint64_t frames = 0;
    double dur = 0.0;
    int i, x, y, pw = 0, ph = 0;

    CU_ASSERT_FATAL(rgb != NULL);
    snprintf(path, sizeof(path), "%s/clip.mp4", tmpdir);
    cr_video_writer_params_defaults(&p, w, h, 30, 1);
    p.key_int_max = 10;
    CU_ASSERT_EQUAL_FATAL(cr_video_writer_create(path, &p, &vw, err, sizeof(err)), CR_OK);
    for (i = 0; i < 30; i++) {
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                uint8_t *px = rgb + ((size_t)y * w + x) * 3;

                px[0] = (uint8_t)(x + 4 * i);
                px[1] = (uint8_t)y;
                px[2] = (uint8_t)(((x / 20 + y / 20 + i) & 1) * 200);
            }
        CU_ASSERT_EQUAL_FATAL(cr_video_writer_write_rgb(vw, rgb, w * 3), CR_OK);
    }
    CU_ASSERT_EQUAL(cr_video_writer_frames(vw), 30);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0); /* not there before finish */
    CU_ASSERT_EQUAL_FATAL(cr_video_writer_finish(vw), CR_OK);
    cr_video_writer_destroy(vw);
    CU_ASSERT_EQUAL(dir_entries(tmpdir), 1); /* the file, no temporary */
    CU_ASSERT_EQUAL_FATAL(cr_video_probe(path, &frames, &dur, &pw, &ph, err, sizeof(err)), CR_OK);
    CU_ASSERT_EQUAL(frames, 30);
    CU_ASSERT_DOUBLE_EQUAL(dur, 1.0, 1.0 / 30.0);
    CU_ASSERT_EQUAL(pw, w);
    CU_ASSERT_EQUAL(ph, h);
    free(rgb);
    CU_ASSERT_EQUAL(unlink(path), 0);
}

/* I420 input from cr_render_rgb_to_i420, 30000/1001 fps, a bitrate. */
static void test_video_i420(void)
{
    const int w = 160, h = 120, cw = 80, ch = 60;
    cr_video_writer_params_t p;
    cr_video_writer_t *vw = NULL;
    uint8_t *rgb = malloc((size_t)w * h * 3), y[160 * 120], u[80 * 60], v[80 * 60];
    char path[128], err[512];
    uint64_t frames = 0;
    double dur = 0.0;
    int i;

    CU_ASSERT_FATAL(rgb != NULL);
    snprintf(path, sizeof(path), "%s/i420.mp4", tmpdir);
    cr_video_writer_params_defaults(&p, w, h, 30000, 1001);
    p.format = CR_VIDEO_I420;
    p.rate_control = CR_VIDEO_RC_BITRATE;
    p.bitrate_kbps = 500;
    p.speed_preset = "ultrafast";
    p.tune = "zerolatency";
    CU_ASSERT_EQUAL_FATAL(cr_video_writer_create(path, &p, &vw, err, sizeof(err)), CR_OK);
    CU_ASSERT_EQUAL(cr_video_writer_write_rgb(vw, rgb, w * 3), CR_ERR_INVALID); /* wrong format */
    for (i = 0; i < 12; i++) {
        memset(rgb, 20 * i, (size_t)w * h * 3);
        CU_ASSERT_EQUAL_FATAL(cr_render_rgb_to_i420(rgb, w * 3, w, h, y, w, u, cw, v, cw), CR_OK);
        CU_ASSERT_EQUAL_FATAL(cr_video_writer_write_i420(vw, y, w, u, cw, v, cw), CR_OK);
    }
    (void)ch;
    CU_ASSERT_EQUAL_FATAL(cr_video_writer_finish(vw), CR_OK);
    cr_video_writer_destroy(vw);
    CU_ASSERT_EQUAL_FATAL(cr_video_probe(path, &frames, &dur, NULL, NULL, err, sizeof(err)), CR_OK);
    CU_ASSERT_EQUAL(frames, 12);
    CU_ASSERT_DOUBLE_EQUAL(dur, 12.0 * 1001.0 / 30000.0, 1001.0 / 30000.0);
    free(rgb);
    CU_ASSERT_EQUAL(unlink(path), 0);
}

/* Errors leave nothing behind: a missing directory, an aborted writer, no
 * frames, a bad preset. */
static void test_video_errors(void)
{
    cr_video_writer_params_t p;
    cr_video_writer_t *vw = NULL, *keep = (cr_video_writer_t *)&p;
    uint8_t rgb[64 * 48 * 3];
    char path[128], err[512];
    int i;

    memset(rgb, 100, sizeof(rgb));
    cr_video_writer_params_defaults(&p, 64, 48, 30, 1);
    err[0] = '\0';
    CU_ASSERT_EQUAL(cr_video_writer_create("/tmp/cr-no-such-dir-4711/x/out.mp4", &p, &keep, err, sizeof(err)),
                    CR_ERR_IO);
    CU_ASSERT_PTR_EQUAL(keep, (cr_video_writer_t *)&p);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "cr-no-such-dir-4711"));
    CU_ASSERT_NOT_EQUAL(access("/tmp/cr-no-such-dir-4711", F_OK), 0);
    CU_ASSERT_EQUAL(cr_png_write("/tmp/cr-no-such-dir-4711/x.png", rgb, 64, 48, 64 * 3, err, sizeof(err)), CR_ERR_IO);

    /* aborted: destroy without finish removes the temporary */
    snprintf(path, sizeof(path), "%s/aborted.mp4", tmpdir);
    CU_ASSERT_EQUAL_FATAL(cr_video_writer_create(path, &p, &vw, err, sizeof(err)), CR_OK);
    for (i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(cr_video_writer_write_rgb(vw, rgb, 64 * 3), CR_OK);
    CU_ASSERT_EQUAL(dir_entries(tmpdir), 1); /* the temporary */
    cr_video_writer_destroy(vw);
    CU_ASSERT_EQUAL(dir_entries(tmpdir), 0);

    /* finish without frames */
    CU_ASSERT_EQUAL_FATAL(cr_video_writer_create(path, &p, &vw, err, sizeof(err)), CR_OK);
    CU_ASSERT_EQUAL(cr_video_writer_finish(vw), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(cr_video_writer_write_rgb(vw, rgb, 64 * 3), CR_ERR_INVALID);
    cr_video_writer_destroy(vw);
    CU_ASSERT_EQUAL(dir_entries(tmpdir), 0);

    /* bad parameters */
    p.speed_preset = "warp-speed";
    CU_ASSERT_EQUAL(cr_video_writer_create(path, &p, &vw, err, sizeof(err)), CR_ERR_INVALID);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "warp-speed"));
    cr_video_writer_params_defaults(&p, 63, 48, 30, 1);
    CU_ASSERT_EQUAL(cr_video_writer_create(path, &p, &vw, err, sizeof(err)), CR_ERR_INVALID);
    cr_video_writer_params_defaults(&p, 64, 48, 0, 1);
    CU_ASSERT_EQUAL(cr_video_writer_create(path, &p, &vw, err, sizeof(err)), CR_ERR_INVALID);
    CU_ASSERT_EQUAL(dir_entries(tmpdir), 0);
    CU_ASSERT_EQUAL(cr_video_probe("/tmp/cr-no-such-dir-4711/x.mp4", NULL, NULL, NULL, NULL, err, sizeof(err)),
                    CR_ERR_IO);
}

static void test_png(void)
{
    uint8_t rgb[33 * 17 * 3], head[8];
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    char path[128], err[512];
    FILE *f;
    int i;

    for (i = 0; i < 33 * 17 * 3; i++)
        rgb[i] = (uint8_t)(i * 7);
    snprintf(path, sizeof(path), "%s/odd.png", tmpdir);
    CU_ASSERT_EQUAL_FATAL(cr_png_write(path, rgb, 33, 17, 33 * 3, err, sizeof(err)), CR_OK);
    f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fread(head, 1, 8, f), 8);
    fclose(f);
    CU_ASSERT_EQUAL(memcmp(head, sig, 8), 0);
    CU_ASSERT_EQUAL(dir_entries(tmpdir), 1);
    CU_ASSERT_EQUAL(unlink(path), 0);
}

int cr_test_register_render(void)
{
    CU_pSuite s;

    s = CU_add_suite("camera", NULL, NULL);
    if (!s || !CU_add_test(s, "defaults fit the table", test_camera_defaults_fit) ||
        !CU_add_test(s, "tilt, yaw and offsets keep the corners in view", test_camera_tilt_offsets) ||
        !CU_add_test(s, "invalid setups and points behind", test_camera_invalid) ||
        !CU_add_test(s, "project/unproject round trip with distortion", test_camera_roundtrip))
        return 1;
    s = CU_add_suite("render", NULL, NULL);
    if (!s || !CU_add_test(s, "ball silhouette centre, overhead", test_ball_centroid_overhead) ||
        !CU_add_test(s, "ball silhouette centre, tilted close camera", test_ball_centroid_tilted) ||
        !CU_add_test(s, "same seed same bytes", test_determinism) ||
        !CU_add_test(s, "stripe follows the quaternion", test_stripe_rotation) ||
        !CU_add_test(s, "random orientations are uniform", test_random_orientation) ||
        !CU_add_test(s, "motion blur spreads a fast ball", test_motion_blur) ||
        !CU_add_test(s, "occlusion by height and labels", test_occlusion_and_labels) ||
        !CU_add_test(s, "invalid arguments", test_render_invalid) ||
        !CU_add_test(s, "RGB to I420", test_i420))
        return 1;
    s = CU_add_suite("video", video_init, video_clean);
    if (!s || !CU_add_test(s, "30 frames at 30 fps read back", test_video_roundtrip) ||
        !CU_add_test(s, "I420 input, fractional rate", test_video_i420) ||
        !CU_add_test(s, "errors leave nothing behind", test_video_errors) ||
        !CU_add_test(s, "PNG", test_png))
        return 1;
    return 0;
}
