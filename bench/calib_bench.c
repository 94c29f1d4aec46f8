/*
 * calib_bench.c - accuracy of the table calibration (calib/cr_calib) on
 * frames rendered by the simulator: N random cameras (seeded: tilt 0..8
 * degrees toward a random azimuth, camera offsets +-250 mm, yaw +-5
 * degrees, k1 0..-0.2, height 2600..3400 mm, every cloth preset, eight balls
 * and a cue with an arm on the table). Prints the success rate, the corner
 * error median / p95 / max (px) and the mapping error at random cloth
 * points median / max (mm), over successful detections; and for the posed
 * camera the calibration fits: the ball-centre mapping error (random table
 * points (x, y, R) projected with the true camera, unprojected with the
 * estimated one onto z = R) median / p95 / max (mm), the camera height and
 * nadir errors (mm), and how each camera was obtained; for the table size
 * inferred from the balls, how many were right, how far the width they
 * give lies off the true one and the blobs' measure over the true diameter
 * (after the parallax h / (h - R)), signed: its median and 5th-95th
 * percentiles (the 9, 8 and 7 ft sizes lie 8-9 % apart); and the balls'
 * size from their outlines fitted as spheres seen by the posed camera
 * (cr_calib_result_t.ball_size_mm, what the size is inferred from when two
 * or more are measured) over the truth, signed: median, 5th-95th
 * percentiles, min and max over the cameras.
 *
 *
 * The head end (cr_calib_rack_find, params.head_from_rack): in the plain
 * mode no rack is on the table and the head is on the image left, so every
 * decision by a rack is a false one (counted). With -r (or --rack as the
 * last argument) each camera is also yawed by 180 degrees at random (the head on the
 * image right) and three of four scenes hold a rack on the foot spot (9-ball
 * 2008 or 2025, 8-ball, 10-ball; shifted up to 15 mm off the spot, the cue ball
 * behind the head string with the cue and arm aiming at the rack), the
 * fourth eight balls apart: it prints the share of racks decided right,
 * wrong and left at the default, and of rack-less scenes decided at all;
 * and the table size in racked scenes (from the rack's spread where it
 * gives one, cr_calib_table_infer) and in the others apart.
 * In that mode the corner and mapping figures include the rack-less
 * cameras with the head on the right kept at the default (the image left):
 * their corners are the other way round, by design.
 *
 * With ONLY, the camera's setup and the balls' places are printed too (to
 * render that view again in a test), and with CALIB_BENCH_OUTLINES=1 in the
 * environment each ball's true outline (its extent along the image axes,
 * from the true camera); CALIB_BENCH_SIZES=1 prints each camera's balls'
 * measures over the truth (spheres and blobs).
 *
 * usage: calib_bench [-c] [-g] [-n] [-N] [-r] [-v] [N [seed [width height [only]]]] [--rack]
 * (defaults 100 1 1280 720; only: run camera index `only` alone, print its
 * corners and write its frame to calib_bench_ONLY.ppm; -g: draw an opaque
 * broadcast graphic, a score box, over a random rail; -n: fit the camera
 * without the diamond sights, as where none are seen; -N: the outline on
 * the bed's edge alone, not fitted again on the cushion noses
 * (cr_calib_params_t.nose_height_mm 0); -r, --rack: the head
 * end from racks, above; -c: with -r, the racked scenes without the cue
 * and arm (the cue ball put down before the break, standing apart); -v:
 * vary the lighting and the look, see bench_vary_look)
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

static int bench_count(const double *v, int n, double above)
{
    int i, c = 0;

    for (i = 0; i < n; i++)
        c += v[i] > above;
    return c;
}

/* An opaque score box (dark fill, light text bars) centred on the rail cap
 * of a random rail at a random place along it, about a quarter of the
 * image wide and a fifteenth high. */
static void bench_graphic(uint8_t *img, int w, int h, const cr_camera_t *cam, const cr_table_t *t, uint64_t *s)
{
    int rail = (int)(bench_rng(s) % 4), x0, x1, y0, y1, x, y;
    double f = bench_uni(s, 0.2, 0.8), px, py, u, v;

    switch (rail) {
    case 0: px = f * t->length_mm, py = -100.0; break;
    case 1: px = f * t->length_mm, py = t->width_mm + 100.0; break;
    case 2: px = -100.0, py = f * t->width_mm; break;
    default: px = t->length_mm + 100.0, py = f * t->width_mm; break;
    }
    if (!cr_camera_project(cam, px, py, 48.0, &u, &v))
        return;
    x0 = (int)(u - w / 8), x1 = (int)(u + w / 8), y0 = (int)(v - h / 30), y1 = (int)(v + h / 30);
    for (y = y0 < 0 ? 0 : y0; y <= y1 && y < h; y++)
        for (x = x0 < 0 ? 0 : x0; x <= x1 && x < w; x++) {
            uint8_t *q = img + ((size_t)y * w + x) * 3;
            bool text = (y - y0) > (y1 - y0) / 3 && (y - y0) < 2 * (y1 - y0) / 3 && ((x - x0) / 6) % 3 != 2;

            q[0] = text ? 240 : 20, q[1] = text ? 240 : 30, q[2] = text ? 240 : 90;
        }
}

/* -v: the look of the room and the table, from its own stream (the cameras
 * and balls stay those of the plain run): the cloth colour off its preset
 * (each channel +-12 %; one table in six purple or teal instead), the rail
 * wood (five finishes), sights round or diamond, 1-4 lamps anywhere over
 * the bed at 0.8-1.5 m, 0.6-1.4 strong, room light 0.1-0.6, exposure
 * 0.7-1.3, vignetting 0-0.5, lens blur 0.4-1.2 px, sensor noise 0.5-4
 * levels, cloth texture 0.2-1, shadows 0.6-1. The table is a 9, 8 or 7 ft
 * one too, and the camera is aimed at it (main). */
static void bench_vary_look(uint64_t seed, int i, const cr_table_t *t, cr_render_params_t *rp)
{
    static const uint8_t rails[5][3] = {{92, 50, 28}, {160, 110, 60}, {32, 30, 30}, {110, 108, 104}, {112, 42, 30}};
    static const uint8_t odd[2][3] = {{88, 52, 120}, {24, 112, 112}};
    uint64_t s = (seed ^ 0xC0FFEE1234567ull) * 0x100000001B3ull + (uint64_t)i;
    int c, k;

    if (bench_rng(&s) % 6 == 0)
        memcpy(rp->cloth_rgb, odd[bench_rng(&s) & 1], 3);
    for (c = 0; c < 3; c++)
        rp->cloth_rgb[c] = (uint8_t)fmin(255.0, rp->cloth_rgb[c] * bench_uni(&s, 0.88, 1.12));
    memcpy(rp->rail_rgb, rails[bench_rng(&s) % 5], 3);
    rp->round_diamonds = bench_rng(&s) & 1;
    rp->n_lamps = 1 + (int)(bench_rng(&s) % 4);
    for (k = 0; k < rp->n_lamps; k++) {
        rp->lamps[k].x_mm = bench_uni(&s, 0.15, 0.85) * t->length_mm;
        rp->lamps[k].y_mm = bench_uni(&s, 0.3, 0.7) * t->width_mm;
        rp->lamps[k].z_mm = bench_uni(&s, 800.0, 1500.0);
        rp->lamps[k].radius_mm = bench_uni(&s, 100.0, 300.0);
        rp->lamps[k].intensity = bench_uni(&s, 0.6, 1.4);
    }
    rp->ambient = bench_uni(&s, 0.1, 0.6);
    rp->exposure = bench_uni(&s, 0.7, 1.3);
    rp->vignetting = bench_uni(&s, 0.0, 0.5);
    rp->lens_blur_px = bench_uni(&s, 0.4, 1.2);
    rp->noise_sigma = bench_uni(&s, 0.5, 4.0);
    rp->cloth_noise = bench_uni(&s, 0.2, 1.0);
    rp->shadow_strength = bench_uni(&s, 0.6, 1.0);
}

int main(int argc, char **argv)
{
    bool graphic = false, no_sights = false, rack_mode = false, vary = false, no_nose = false, rack_no_cue = false;

    while (argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0' && argv[1][2] == '\0' &&
           (argv[1][1] == 'g' || argv[1][1] == 'n' || argv[1][1] == 'r' || argv[1][1] == 'v' || argv[1][1] == 'N' ||
            argv[1][1] == 'c')) {
        rack_no_cue |= argv[1][1] == 'c';
        graphic |= argv[1][1] == 'g';
        no_nose |= argv[1][1] == 'N';
        vary |= argv[1][1] == 'v';
        no_sights |= argv[1][1] == 'n';
        rack_mode |= argv[1][1] == 'r';
        argc--, argv++;
    }
    if (argc > 1 && !strcmp(argv[argc - 1], "--rack"))
        rack_mode = true, argc--;
    int n = argc > 1 ? atoi(argv[1]) : 100, w = argc > 4 ? atoi(argv[3]) : 1280, h = argc > 4 ? atoi(argv[4]) : 720;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1, s = seed;
    cr_table_t t;
    uint8_t *img = malloc((size_t)w * h * 3);
    double *cerr = malloc(sizeof(double) * 4 * (size_t)(n > 0 ? n : 1));
    double *merr = malloc(sizeof(double) * 50 * (size_t)(n > 0 ? n : 1));
    double *berr = malloc(sizeof(double) * 50 * (size_t)(n > 0 ? n : 1));
    double *herr = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    double *nerr = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    double *bworst = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    double *serr = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1)); /* inferred width off the true, % */
    double *sbias = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1)); /* the balls' measure over the truth - 1, % */
    int n_inf = 0, n_inf_ok = 0, ncrms = 0, ndrms = 0, inf_by[2][2] = {{0, 0}, {0, 0}}; /* [racked][inferred, right] */
    int n_sb = 0, n_sph = 0;
    double *sph = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1)); /* the spheres' measure over the truth - 1, % */
    double *crms = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1)), *drms = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    int ok = 0, nc = 0, nm = 0, nb = 0, ncam = 0, i, fails_by[8] = {0}, by_src[4] = {0}, ndia = 0;
    /* head end: [racked][right, wrong, default] over successful detections */
    int head[2][3] = {{0, 0, 0}, {0, 0, 0}}, head_default_right[2] = {0, 0}, racked_failed = 0;
    double cmax = 0.0;
    int only = argc > 5 ? atoi(argv[5]) : -1;

    if (!img || !crms || !drms || !cerr || !merr || !berr || !herr || !nerr || !bworst || !serr || !sbias || !sph || n <= 0) {
        fprintf(stderr, "calib_bench: bad arguments or out of memory\n");
        return 2;
    }
    cr_table_init(&t, 2540.0, 1270.0);
    for (i = 0; i < n; i++) {
        cr_camera_setup_t cs;
        cr_camera_t cam;
        cr_render_params_t rp;
        cr_renderer_t *r = NULL;
        cr_render_ball_t balls[CR_TABLE_RACK_MAX + 1];
        cr_render_scene_t sc;
        cr_calib_params_t cp;
        cr_calib_result_t res;
        cr_calib_image_t im;
        double truth[4][2], worst = 0.0;
        int k, cloth, kind = 0;
        bool truth_right = false;

        s = seed * 0x100000001B3ull + (uint64_t)i; /* each camera its own stream */
        cloth = (int)(bench_rng(&s) % CR_CLOTH_PRESET_COUNT);
        static const uint8_t skin[3] = {200, 160, 130}, sleeve[3] = {40, 40, 60};

        if (only >= 0 && i != only)
            continue;
        if (vary) { /* a 9, 8 or 7 ft table, from the look's stream */
            static const char *const sizes[3] = {"9ft", "8ft", "7ft"};
            uint64_t sv = (seed ^ 0x7AB1E5ull) * 0x100000001B3ull + (uint64_t)i;

            cr_table_parse(sizes[bench_rng(&sv) % 3], &t);
        }
        cr_camera_setup_defaults(&cs, w, h);
        cs.tilt_deg = bench_uni(&s, 0.0, 8.0);
        cs.tilt_azimuth_deg = bench_uni(&s, 0.0, 360.0);
        cs.offset_x_mm = bench_uni(&s, -250.0, 250.0);
        cs.offset_y_mm = bench_uni(&s, -250.0, 250.0);
        cs.yaw_deg = bench_uni(&s, -5.0, 5.0);
        cs.height_mm = bench_uni(&s, 2600.0, 3400.0);
        cs.k1 = bench_uni(&s, -0.2, 0.0);
        if (vary) { /* mounted off to the side and aimed at the table: the optical axis
                     * meets the cloth within the offsets of its centre, as an installer
                     * would aim it, whatever the table's size */
            double tt = tan(cs.tilt_deg * 3.14159265358979323846 / 180.0),
                   az = cs.tilt_azimuth_deg * 3.14159265358979323846 / 180.0;

            cs.offset_x_mm -= cs.height_mm * tt * cos(az);
            cs.offset_y_mm -= cs.height_mm * tt * sin(az);
        }
        if (rack_mode) { /* the head on either side; no rack, or one of three games */
            truth_right = bench_rng(&s) & 1;
            cs.yaw_deg += truth_right ? 180.0 : 0.0;
            kind = (int)(bench_rng(&s) % 4);
        }
        if (cr_camera_build(&cs, &t, &cam) != 0) {
            printf("camera %d: not buildable, skipped\n", i);
            continue;
        }
        cr_render_params_defaults(&rp, &t);
        cr_render_cloth_rgb((cr_cloth_preset_t)cloth, rp.cloth_rgb);
        rp.seed = bench_rng(&s);
        if (vary)
            bench_vary_look(seed, i, &t, &rp);
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
        if (kind > 0) { /* a rack on the foot spot, the cue ball behind the head string */
            static const cr_game_t games[4] = {CR_GAME_NONE, CR_GAME_9BALL, CR_GAME_8BALL, CR_GAME_10BALL};
            cr_ball_pos_t pos[CR_TABLE_RACK_MAX];
            cr_edition_t ed = (bench_rng(&s) & 1) ? CR_EDITION_WPA2025 : CR_EDITION_WPA2008;
            double ox = bench_uni(&s, -15.0, 15.0), oy = bench_uni(&s, -15.0, 15.0);
            int nr = cr_table_rack(&t, games[kind], ed, bench_rng(&s), pos, CR_TABLE_RACK_MAX);

            if (nr <= 0) {
                fprintf(stderr, "rack failed\n");
                return 2;
            }
            balls[0].x_mm = bench_uni(&s, 150.0, 0.25 * t.length_mm - 30.0);
            balls[0].y_mm = bench_uni(&s, 150.0, t.width_mm - 150.0);
            for (k = 0; k < nr; k++) {
                memset(&balls[k + 1], 0, sizeof balls[k + 1]);
                balls[k + 1].id = pos[k].id;
                balls[k + 1].x_mm = pos[k].x + ox, balls[k + 1].y_mm = pos[k].y + oy;
                balls[k + 1].q[0] = 1.0;
                balls[k + 1].visible = true;
            }
            sc.n_balls = nr + 1;
            sc.cue.dir_deg = atan2(pos[0].y - balls[0].y_mm, pos[0].x - balls[0].x_mm) * 180.0 / 3.14159265358979323846;
            sc.cue.tip_x_mm = balls[0].x_mm - 30.0 * cos(sc.cue.dir_deg * 3.14159265358979323846 / 180.0);
            sc.cue.tip_y_mm = balls[0].y_mm - 30.0 * sin(sc.cue.dir_deg * 3.14159265358979323846 / 180.0);
        }

        if (kind > 0 && rack_no_cue)
            sc.cue.present = false; /* no arm either */
        else
            cr_render_arm_from_cue(&sc.cue, skin, sleeve, false, &sc.arm);
        if (cr_render_frame(r, &sc, 1, 0, img, 3 * w, NULL) != 0) {
            fprintf(stderr, "render failed\n");
            return 2;
        }
        cr_renderer_destroy(r);
        if (graphic)
            bench_graphic(img, w, h, &cam, &t, &s);
        im.rgb = img, im.width = w, im.height = h, im.stride = 3 * w;
        if (only >= 0) {
            printf("setup: cloth %d seed %llu tilt %.4f az %.4f off %.4f %.4f yaw %.4f height %.4f k1 %.5f cue dir %.4f\n",
                   cloth, (unsigned long long)rp.seed, cs.tilt_deg, cs.tilt_azimuth_deg, cs.offset_x_mm, cs.offset_y_mm,
                   cs.yaw_deg, cs.height_mm, cs.k1, sc.cue.dir_deg);
            for (k = 0; k < sc.n_balls; k++)
                printf("ball %d %.2f %.2f\n", balls[k].id, balls[k].x_mm, balls[k].y_mm);
        }
        if (only >= 0 && getenv("CALIB_BENCH_OUTLINES"))
            for (k = 0; k < sc.n_balls; k++) { /* the true outline's extent along the image axes */
                double umin = 1e9, umax = -1e9, vmin = 1e9, vmax = -1e9, uc, vc;
                int a, b2;

                cr_camera_project(&cam, balls[k].x_mm, balls[k].y_mm, CR_BALL_RADIUS_MM, &uc, &vc);
                for (a = 0; a < 400; a++)
                    for (b2 = 0; b2 < 200; b2++) {
                        double th = 2.0 * 3.14159265358979323846 * a / 400,
                               ph = 3.14159265358979323846 * (b2 + 0.5) / 200, u, v;

                        if (cr_camera_project(&cam, balls[k].x_mm + CR_BALL_RADIUS_MM * sin(ph) * cos(th),
                                              balls[k].y_mm + CR_BALL_RADIUS_MM * sin(ph) * sin(th),
                                              CR_BALL_RADIUS_MM * (1 + cos(ph)), &u, &v)) {
                            umin = fmin(umin, u), umax = fmax(umax, u), vmin = fmin(vmin, v), vmax = fmax(vmax, v);
                        }
                    }
                fprintf(stderr, "true ball %d centre %.2f %.2f u %.2f..%.2f v %.2f..%.2f\n", k, uc, vc, umin, umax, vmin,
                        vmax);
            }
        if (only >= 0) { /* the frame, for a look: calib_bench_ONLY.ppm in the working directory */
            char name[64];
            FILE *f;

            snprintf(name, sizeof name, "calib_bench_%d.ppm", only);
            f = fopen(name, "wb");
            if (f) {
                fprintf(f, "P6\n%d %d\n255\n", w, h);
                fwrite(img, 3, (size_t)w * h, f);
                fclose(f);
            }
        }
        cr_calib_params_defaults(&cp);
        if (no_sights)
            cp.min_diamonds = CR_TABLE_DIAMOND_COUNT + 1; /* the camera without the sights' parallax */
        if (no_nose)
            cp.nose_height_mm = 0.0; /* the outline on the bed's edge alone */
        cr_calib_detect(&im, &t, &cp, &res);
        cr_camera_table_corners(&cam, &t, truth);
        if (res.status != CR_CALIB_OK && kind > 0)
            racked_failed++;
        if (res.status == CR_CALIB_OK) {
            int racked = kind > 0, o = res.head_source != CR_CALIB_HEAD_RACK ? 2 : res.head_on_right == truth_right ? 0 : 1;

            head[racked][o]++;
            head_default_right[racked] += o == 2 && res.head_on_right == truth_right;
            if ((racked && o != 0) || (!racked && o != 2) || only >= 0)
                printf("camera %d: %s, head on the image %s: %s (%s; %d clusters)\n", i, racked ? "racked" : "no rack",
                       truth_right ? "right" : "left", o == 0 ? "right" : o == 1 ? "WRONG" : "default", res.head_why,
                       res.rack.n_clusters);
        }
        if (res.status != CR_CALIB_OK) {
            fails_by[-res.status < 8 ? -res.status : 0]++;
            for (k = 0; k < 4; k++)
                worst = fmax(worst, hypot(res.corners_px[k][0] - truth[k][0], res.corners_px[k][1] - truth[k][1]));
            printf("camera %d: cloth %d (%d %d %d) tilt %.1f k1 %.3f: %s (worst corner %.2f px)\n", i, cloth, rp.cloth_rgb[0], rp.cloth_rgb[1], rp.cloth_rgb[2], cs.tilt_deg, cs.k1,
                   res.message, worst);
            if (only >= 0)
                for (k = 0; k < 4; k++)
                    printf("  corner %d: found %.2f %.2f, true %.2f %.2f\n", k, res.corners_px[k][0], res.corners_px[k][1],
                           truth[k][0], truth[k][1]);
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
        if (res.camera_source != CR_CALIB_CAMERA_NONE) {
            double bw = 0.0;

            by_src[res.camera_source]++;
            ndia += res.n_diamonds;
            herr[ncam] = fabs(res.camera.pos[2] - cam.pos[2]);
            nerr[ncam] = hypot(res.camera.pos[0] - cam.pos[0], res.camera.pos[1] - cam.pos[1]);
            for (k = 0; k < 50; k++) {
                double x = bench_uni(&s, t.ball_radius_mm, t.length_mm - t.ball_radius_mm);
                double y = bench_uni(&s, t.ball_radius_mm, t.width_mm - t.ball_radius_mm), u, v, xm, ym;

                if (cr_camera_project(&cam, x, y, t.ball_radius_mm, &u, &v) &&
                    cr_camera_unproject_plane(&res.camera, u, v, t.ball_radius_mm, &xm, &ym)) {
                    berr[nb++] = hypot(xm - x, ym - y);
                    bw = fmax(bw, hypot(xm - x, ym - y));
                }
            }
            bworst[ncam++] = bw;
            if (bw > 3.0 || only >= 0)
                printf("camera %d: ball mapping worst %.2f mm; camera from %s (%d sights, rms %.2f mm), height "
                       "%.0f (true %.0f, sigma %.0f), nadir error %.0f mm, tilt %.1f\n",
                       i, bw, cr_calib_camera_source_name(res.camera_source), res.n_diamonds, res.diamond_rms_mm,
                       res.camera.pos[2], cam.pos[2], res.camera_sigma_mm[2], nerr[ncam - 1], cs.tilt_deg);
        }
        if (res.n_balls_sized > 0) {
            sph[n_sph++] = 100.0 * (res.ball_size_mm / (2.0 * CR_BALL_RADIUS_MM) - 1.0);
            if (getenv("CALIB_BENCH_SIZES"))
                printf("camera %d: spheres %+.2f %% (%d sized)\n", i, sph[n_sph - 1], res.n_balls_sized);
        }
        {
            cr_table_t ti;
            char why[256];

            if (cr_calib_table_infer(&res, &t, &ti, why, sizeof why) == CR_CALIB_OK) {
                const double par = cr_calib_parallax(&res);
                bool by_rack = cr_calib_rack_gives_scale(&res.rack); /* as cr_calib_table_infer */
                bool sized = !by_rack && res.n_balls_sized >= 2 && res.ball_size_mm > 0.0;

                /* the surface's width measured (before the nearest size is taken), over the truth */
                serr[n_inf] = 100.0 * fabs((by_rack ? par / res.rack.scale
                                            : sized ? 2.0 * CR_BALL_RADIUS_MM / res.ball_size_mm
                                                    : 2.0 * CR_BALL_RADIUS_MM / (res.ball_diameter_mm / par)) - 1.0);
                if (!by_rack)
                    sbias[n_sb++] = 100.0 * (res.ball_diameter_mm / par / (2.0 * CR_BALL_RADIUS_MM) - 1.0);
                if (!by_rack && getenv("CALIB_BENCH_SIZES"))
                    printf("camera %d: balls %+.2f %% (%d measured)\n", i, sbias[n_sb - 1], res.n_balls_measured);
                n_inf++;
                n_inf_ok += fabs(ti.width_mm - t.width_mm) < 1.0;
                inf_by[kind > 0][0]++, inf_by[kind > 0][1] += fabs(ti.width_mm - t.width_mm) < 1.0;
                if (fabs(ti.width_mm - t.width_mm) >= 1.0 || only >= 0)
                    printf("camera %d: table %.0f x %.0f inferred %.0f x %.0f: %s\n", i, t.length_mm, t.width_mm,
                           ti.length_mm, ti.width_mm, why);
            } else if (only >= 0) {
                printf("camera %d: table not inferred (%d balls measured)\n", i, res.n_balls_measured);
            }
        }
        if (only >= 0)
            printf("true fx %.1f k1 %.4f (in the calibration's units %.4f); found fx %.1f k1 %.4f\n", cam.fx, cam.k1,
                   cam.k1 * (w / cam.fx) * (w / cam.fx), res.camera.fx, res.camera.k1);
        if (only >= 0)
            for (k = 0; k < 4; k++)
                printf("corner %d truth %.2f %.2f found %.2f %.2f (k1 %.4f; cam yaw %.1f az %.0f)\n", k, truth[k][0],
                       truth[k][1], res.corners_px[k][0], res.corners_px[k][1], res.k1, cs.yaw_deg,
                       cs.tilt_azimuth_deg);
        if (worst > 1.5)
            printf("camera %d: cloth %d tilt %.1f k1 %.3f: worst corner %.2f px (outline rms %.2f px against the "
                   "camera, sights rms %.2f mm)\n",
                   i, cloth, cs.tilt_deg, cs.k1, worst, res.camera_rms_px, res.diamond_rms_mm);
        if (res.camera_source != CR_CALIB_CAMERA_NONE)
            crms[ncrms++] = res.camera_rms_px, drms[ndrms] = res.diamond_rms_mm, ndrms += res.n_diamonds > 0;
    }
    printf("calib_bench: N %d seed %llu %dx%d\n", n, (unsigned long long)seed, w, h);
    printf("success %d/%d (%.1f%%); failures: black %d, no cloth %d, edges %d, geometry %d\n", ok, n,
           100.0 * ok / n, fails_by[3], fails_by[4], fails_by[5], fails_by[6]);
    printf("corner error px: median %.3f p95 %.3f max %.3f\n", bench_pct(cerr, nc, 0.5), bench_pct(cerr, nc, 0.95),
           cmax);
    printf("mapping error mm: median %.3f max %.3f\n", bench_pct(merr, nm, 0.5), bench_pct(merr, nm, 1.0));
    printf("camera: %d fitted (diamond parallax %d, cloth perspective %d, prior %d); %.1f sights per camera\n", ncam,
           by_src[CR_CALIB_CAMERA_DIAMONDS], by_src[CR_CALIB_CAMERA_HOMOGRAPHY], by_src[CR_CALIB_CAMERA_PRIOR],
           ncam ? (double)ndia / ncam : 0.0);
    printf("ball-centre mapping error mm (z = R, estimated camera): median %.3f p95 %.3f max %.3f; cameras with "
           "worst > 1 mm: %d, > 3 mm: %d\n",
           bench_pct(berr, nb, 0.5), bench_pct(berr, nb, 0.95), bench_pct(berr, nb, 1.0), bench_count(bworst, ncam, 1.0),
           bench_count(bworst, ncam, 3.0));
    printf("table size inferred from the balls: %d of %d successful, %d of them right; the width they give off by "
           "median %.2f%% p95 %.2f%% max %.2f%% (the sizes lie 8-9%% apart); separate balls' measure (%d) over the "
           "truth: median %+.2f%%, 5th-95th percentile %+.2f%% to %+.2f%%\n",
           n_inf, ok, n_inf_ok, bench_pct(serr, n_inf, 0.5), bench_pct(serr, n_inf, 0.95), bench_pct(serr, n_inf, 1.0),
           n_sb, bench_pct(sbias, n_sb, 0.5), bench_pct(sbias, n_sb, 0.05), bench_pct(sbias, n_sb, 0.95));
    printf("balls sized from their outlines and the posed camera (%d cameras): over the truth median %+.2f%%, "
           "5th-95th percentile %+.2f%% to %+.2f%%, min %+.2f%%, max %+.2f%%\n",
           n_sph, bench_pct(sph, n_sph, 0.5), bench_pct(sph, n_sph, 0.05), bench_pct(sph, n_sph, 0.95),
           bench_pct(sph, n_sph, 0.0), bench_pct(sph, n_sph, 1.0));
    printf("head end, scenes without a rack: %d decided by a rack (false), %d default (%d of them right)\n",
           head[0][0] + head[0][1], head[0][2], head_default_right[0]);
    if (rack_mode) {
        int nr = head[1][0] + head[1][1] + head[1][2];

        printf("head end, racked scenes: %d found: decided right %d (%.1f%%), wrong %d (%.1f%%), left at the default "
               "%d (%.1f%%, %d of them right by chance); %d racked scenes not calibrated\n",
               nr, head[1][0], nr ? 100.0 * head[1][0] / nr : 0.0, head[1][1], nr ? 100.0 * head[1][1] / nr : 0.0,
               head[1][2], nr ? 100.0 * head[1][2] / nr : 0.0, head_default_right[1], racked_failed);
        printf("table size, racked scenes: %d inferred, %d right; scenes without a rack: %d inferred, %d right\n",
               inf_by[1][0], inf_by[1][1], inf_by[0][0], inf_by[0][1]);
    }
    printf("camera height error mm: median %.1f p95 %.1f max %.1f; nadir error mm: median %.1f p95 %.1f max %.1f\n",
           bench_pct(herr, ncam, 0.5), bench_pct(herr, ncam, 0.95), bench_pct(herr, ncam, 1.0),
           bench_pct(nerr, ncam, 0.5), bench_pct(nerr, ncam, 0.95), bench_pct(nerr, ncam, 1.0));
    printf("outline rms against the camera px: median %.3f p95 %.3f max %.3f; sights rms mm: median %.3f p95 %.3f max "
           "%.3f\n",
           bench_pct(crms, ncrms, 0.5), bench_pct(crms, ncrms, 0.95), bench_pct(crms, ncrms, 1.0),
           bench_pct(drms, ndrms, 0.5), bench_pct(drms, ndrms, 0.95), bench_pct(drms, ndrms, 1.0));
    free(crms);
    free(drms);
    free(berr);
    free(herr);
    free(nerr);
    free(bworst);
    free(serr);
    free(sbias);
    free(sph);
    free(img);
    free(cerr);
    free(merr);
    return 0;
}
