/*
 * calib_bench.c - accuracy of the table calibration (calib/cr_calib) on
 * frames rendered by the simulator: N random cameras (seeded: tilt 0..8
 * degrees toward a random azimuth, camera offsets +-250 mm, yaw +-5
 * degrees, k1 0..-0.2, height 2600..3400 mm, every cloth preset, eight balls
 * and a cue with an arm on the table). Prints the success rate, the corner
 * error median / p95 / max (px) and the mapping error at random cloth
 * points median / max (mm), over successful detections.
 *
 * usage: calib_bench [N [seed [width height [only]]]]   (defaults 100 1 1280
 * 720; only: run camera index `only` alone and print its corners)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cr_calib.h"
#include "cr_camera.h"
#include "cr_render.h"

static uint64_t bench_rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double bench_uni(uint64_t *s, double lo, double hi)
{
    return lo + (hi - lo) * (double)(bench_rng(s) >> 11) / 9007199254740992.0;
}

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static double bench_pct(double *v, int n, double q)
{
    int k;

    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof *v, bench_cmp);
    k = (int)ceil(q * n) - 1;
    if (k < 0)
        k = 0;
    if (k >= n)
        k = n - 1;
    return v[k];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100, w = argc > 4 ? atoi(argv[3]) : 1280, h = argc > 4 ? atoi(argv[4]) : 720;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1, s = seed;
    cr_table_t t;
    uint8_t *img = malloc((size_t)w * h * 3);
    double *cerr = malloc(sizeof(double) * 4 * (size_t)(n > 0 ? n : 1));
    double *merr = malloc(sizeof(double) * 50 * (size_t)(n > 0 ? n : 1));
    int ok = 0, nc = 0, nm = 0, i, fails_by[8] = {0};
    double cmax = 0.0;
    int only = argc > 5 ? atoi(argv[5]) : -1;

    if (!img || !cerr || !merr || n <= 0) {
        fprintf(stderr, "calib_bench: bad arguments or out of memory\n");
        return 2;
    }
    cr_table_init(&t, 2540.0, 1270.0);
    for (i = 0; i < n; i++) {
        cr_camera_setup_t cs;
        cr_camera_t cam;
        cr_render_params_t rp;
        cr_renderer_t *r = NULL;
        cr_render_ball_t balls[8];
        cr_render_scene_t sc;
        cr_calib_params_t cp;
        cr_calib_result_t res;
        cr_calib_image_t im;
        double truth[4][2], worst = 0.0;
        int k, cloth;

        s = seed * 0x100000001B3ull + (uint64_t)i; /* each camera its own stream */
        cloth = (int)(bench_rng(&s) % CR_CLOTH_PRESET_COUNT);
        static const uint8_t skin[3] = {200, 160, 130}, sleeve[3] = {40, 40, 60};

        if (only >= 0 && i != only)
            continue;
        cr_camera_setup_defaults(&cs, w, h);
        cs.tilt_deg = bench_uni(&s, 0.0, 8.0);
        cs.tilt_azimuth_deg = bench_uni(&s, 0.0, 360.0);
        cs.offset_x_mm = bench_uni(&s, -250.0, 250.0);
        cs.offset_y_mm = bench_uni(&s, -250.0, 250.0);
        cs.yaw_deg = bench_uni(&s, -5.0, 5.0);
        cs.height_mm = bench_uni(&s, 2600.0, 3400.0);
        cs.k1 = bench_uni(&s, -0.2, 0.0);
        if (cr_camera_build(&cs, &t, &cam) != 0) {
            printf("camera %d: not buildable, skipped\n", i);
            continue;
        }
        cr_render_params_defaults(&rp, &t);
        cr_render_cloth_rgb((cr_cloth_preset_t)cloth, rp.cloth_rgb);
        rp.seed = bench_rng(&s);
        if (cr_renderer_create(&cam, &t, &rp, &r) != 0) {
            fprintf(stderr, "renderer failed\n");
            return 2;
        }
        memset(&sc, 0, sizeof sc);
        for (k = 0; k < 8; k++) {
            memset(&balls[k], 0, sizeof balls[k]);
            balls[k].id = k;
            balls[k].x_mm = bench_uni(&s, 40.0, t.length_mm - 40.0);
            balls[k].y_mm = bench_uni(&s, 40.0, t.width_mm - 40.0);
            balls[k].q[0] = 1.0;
            balls[k].visible = true;
        }
        sc.balls = balls;
        sc.n_balls = 8;
        sc.cue.present = true;
        sc.cue.tip_x_mm = balls[0].x_mm - 30.0;
        sc.cue.tip_y_mm = balls[0].y_mm;
        sc.cue.tip_z_mm = 28.575;
        sc.cue.dir_deg = bench_uni(&s, -60.0, 60.0);
        sc.cue.elevation_deg = 8.0;
        cr_render_arm_from_cue(&sc.cue, skin, sleeve, false, &sc.arm);
        if (cr_render_frame(r, &sc, 1, 0, img, 3 * w, NULL) != 0) {
            fprintf(stderr, "render failed\n");
            return 2;
        }
        cr_renderer_destroy(r);
        im.rgb = img, im.width = w, im.height = h, im.stride = 3 * w;
        cr_calib_params_defaults(&cp);
        cr_calib_detect(&im, &t, &cp, &res);
        cr_camera_table_corners(&cam, &t, truth);
        if (res.status != CR_CALIB_OK) {
            fails_by[-res.status < 8 ? -res.status : 0]++;
            printf("camera %d: cloth %d tilt %.1f k1 %.3f: %s\n", i, cloth, cs.tilt_deg, cs.k1, res.message);
            continue;
        }
        ok++;
        for (k = 0; k < 4; k++) {
            double e = hypot(res.corners_px[k][0] - truth[k][0], res.corners_px[k][1] - truth[k][1]);

            cerr[nc++] = e;
            if (e > worst)
                worst = e;
        }
        if (worst > cmax)
            cmax = worst;
        for (k = 0; k < 50; k++) {
            double x = bench_uni(&s, 0.0, t.length_mm), y = bench_uni(&s, 0.0, t.width_mm), u, v, xm, ym;

            if (cr_camera_project(&cam, x, y, 0.0, &u, &v) && cr_calib_pixel_to_table(&res, u, v, &xm, &ym))
                merr[nm++] = hypot(xm - x, ym - y);
        }
        if (only >= 0)
            for (k = 0; k < 4; k++)
                printf("corner %d truth %.2f %.2f found %.2f %.2f (k1 %.4f; cam yaw %.1f az %.0f)\n", k, truth[k][0],
                       truth[k][1], res.corners_px[k][0], res.corners_px[k][1], res.k1, cs.yaw_deg,
                       cs.tilt_azimuth_deg);
        if (worst > 1.5)
            printf("camera %d: cloth %d tilt %.1f k1 %.3f: worst corner %.2f px\n", i, cloth, cs.tilt_deg, cs.k1,
                   worst);
    }
    printf("calib_bench: N %d seed %llu %dx%d\n", n, (unsigned long long)seed, w, h);
    printf("success %d/%d (%.1f%%); failures: black %d, no cloth %d, edges %d, geometry %d\n", ok, n,
           100.0 * ok / n, fails_by[3], fails_by[4], fails_by[5], fails_by[6]);
    printf("corner error px: median %.3f p95 %.3f max %.3f\n", bench_pct(cerr, nc, 0.5), bench_pct(cerr, nc, 0.95),
           cmax);
    printf("mapping error mm: median %.3f max %.3f\n", bench_pct(merr, nm, 0.5), bench_pct(merr, nm, 1.0));
    free(img);
    free(cerr);
    free(merr);
    return 0;
}
