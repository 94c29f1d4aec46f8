/*
 * detect_bench.c - accuracy and speed of ball detection (vision/cr_detect.h)
 * on a `cueref sim` output folder: decodes DIR/clip.mp4 through the frame
 * source (I420), builds the detector from the true camera of
 * DIR/calib.json and scores every frame against DIR/positions.csv.
 *
 * Truth classes: a ball is "resting" in a frame when it moved less than
 * 0.05 mm since the previous and until the next frame, "moving" when its
 * streak over the exposure (speed x shutter / fps) is under one ball
 * diameter; faster balls are counted apart. Matching: each visible truth
 * ball takes the nearest unused detection within R. A detection that is
 * not matched and lies more than R from every ball on the table is a
 * phantom; precision counts phantoms and duplicates against the matches.
 *
 * usage: detect_bench DIR [max_frames [shutter [every [skip_id]]]]
 *   shutter: exposure as a fraction of the frame period (default 0.5, the
 *   simulator's); every: score every n-th frame (default 1; all frames are
 *   still detected, as the background model needs them); skip_id: leave
 *   one ball out of the scores (e.g. a ball of the cloth's own colour; its
 *   detections are then neither matches nor phantoms)
 * Prints frames, balls, recall/precision, position error median/p95/max for
 * resting and moving balls, identity accuracy, phantoms and ms/frame (the
 * detector call alone, single thread, as thread CPU time; the stage split
 * is wall time).
 *
 * Per ball id (lines "id N"): resting recall, resting error median/p95/max,
 * mean reported sigma_mm, the moving balls' recall, and flips: of the pairs of consecutive scored
 * frames in which the ball rests (the truth moved less than 0.05 mm) and is
 * matched in both, those whose detected centre jumped by more than 3 mm.
 * The cloth colour is measured in the first frame (median over the bed)
 * and named; "close" marks the ids of nearly the cloth's colour (red 3/11
 * and maroon 7/15 on red, green 6/14 on green, blue 2/10 on blue, orange
 * 5/13 on tan), "colour dist" is the RGB distance between the ball's
 * nominal colour and the measured cloth. A summary line gives
 * the same figures for the close ids together and for the others.
 * BENCH_ERRS=FILE appends one line per resting match, "cloth id error_mm
 * sigma_mm flip", for pooling several clips. BENCH_DUMP=1 prints every
 * match ("dump f FRAME truth ID best ID p ... err MM dx dy uv U V r R"):
 * the id the detector's own probabilities favour, white share, colour
 * class and how well it fits (colour_fit), sigma_mm, the error and its
 * table components, the image centre.
 * BENCH_HL=1 lets the detector place resting balls by their highlights
 * (cr_detect_params_t.use_highlights) and prints the lamps it learned
 * ("lamp k at (x, y, z) mm, seen on n places").
 * BENCH_HINT=MM hints the detector (cr_detector_expect) before every frame
 * with each ball's true place carried on from the last two frames, shifted
 * MM in x, reach R: 0 is what a tracker that never errs would give (what
 * looking again can add at most); 80 puts the hints on bare cloth beside
 * the balls (what looking again makes up: phantoms).
 * BENCH_SCAN=N sets the frames of the scan's sweep of the bed for balls no
 * region shows (cr_detect_params_t.scan_sweep_frames; default 36, 0: no
 * scan; cueref review uses 2.4 s of frames, 144 at 60 fps).
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cr_detect.h"
#include "cr_frame_source.h"

typedef struct {
    int frame, id, visible;
    double x, y;
} bench_truth_t;

/* Balls of nearly the cloth's colour: red 3/11 and maroon 7/15 on red
 * cloth, green 6/14 on green, blue 2/10 on blue, orange 5/13 on tan. */
static int bench_close(const char *cloth, int id)
{
    int c = id == 0 ? 0 : (id - 1) % 8 + 1;

    if (!strcmp(cloth, "red"))
        return c == 3 || c == 7;
    if (!strcmp(cloth, "green"))
        return c == 6;
    if (!strcmp(cloth, "blue"))
        return c == 2;
    if (!strcmp(cloth, "tan"))
        return c == 5;
    return 0;
}

/* Per-id figures: resting, and the moving recall. */
typedef struct {
    long n_rest, n_hit, pairs, flips, n_move, n_move_hit;
    int n_err;
    double *err, sum_sigma, max_jump;
    double last_x, last_y, last_tx, last_ty; /* last scored frame's detection and truth */
    int last_f;                              /* that frame, -1 when not matched at rest */
} bench_id_t;

/* CPU time of this thread, ms: what the detector costs one core, whatever
 * else the machine runs. */
static double bench_now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
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
    return v[k < 0 ? 0 : (k >= n ? n - 1 : k)];
}

/* Nominal sRGB of the ball colours (a standard set; id 0 the cue ball, ids
 * 1-8 solids, 9-15 stripes of colours 1-7). */
static const double bench_ball_rgb[9][3] = {
    {242, 240, 230}, {250, 192, 8}, {12, 48, 165}, {212, 22, 24}, {82, 34, 132},
    {250, 104, 12},  {8, 118, 58},  {122, 20, 30}, {16, 16, 18},
};

static const double *bench_id_rgb(int id)
{
    return bench_ball_rgb[id == 0 ? 0 : (id - 1) % 8 + 1];
}

/* Median cloth colour of the bed in the first frame (RGB) and its name. */
static const char *bench_cloth(const cr_camera_t *cam, const cr_table_t *t, const cr_yuv_image_t *img,
                               double rgb[3])
{
    enum { N = 24 * 12 };
    double ys[N], us[N], vs[N], yy, cb, cr, mx, mn, hue, sat;
    int n = 0, i, j;

    for (j = 0; j < 12; j++)
        for (i = 0; i < 24; i++) {
            double u, v;
            int x, y;

            if (!cr_camera_project(cam, t->length_mm * (i + 0.5) / 24, t->width_mm * (j + 0.5) / 12, 0.0, &u, &v))
                continue;
            x = (int)lrint(u), y = (int)lrint(v);
            if (x < 0 || y < 0 || x >= img->width - 1 || y >= img->height - 1)
                continue;
            ys[n] = img->y[(size_t)y * img->stride_y + x];
            us[n] = img->u[(size_t)(y / 2) * img->stride_u + x / 2];
            vs[n] = img->v[(size_t)(y / 2) * img->stride_v + x / 2];
            n++;
        }
    if (n == 0) {
        rgb[0] = rgb[1] = rgb[2] = 0.0;
        return "unknown";
    }
    yy = 1.164383 * (bench_pct(ys, n, 0.5) - 16.0);
    cb = bench_pct(us, n, 0.5) - 128.0;
    cr = bench_pct(vs, n, 0.5) - 128.0;
    rgb[0] = yy + 1.596027 * cr;
    rgb[1] = yy - 0.391762 * cb - 0.812968 * cr;
    rgb[2] = yy + 2.017232 * cb;
    mx = fmax(rgb[0], fmax(rgb[1], rgb[2]));
    mn = fmin(rgb[0], fmin(rgb[1], rgb[2]));
    sat = mx > 1.0 ? (mx - mn) / mx : 0.0;
    if (sat < 0.15)
        return "grey";
    hue = atan2(sqrt(3.0) * (rgb[1] - rgb[2]), 2.0 * rgb[0] - rgb[1] - rgb[2]) * 180.0 / 3.14159265358979;
    hue = hue < 0.0 ? hue + 360.0 : hue;
    if (hue < 20.0 || hue >= 300.0)
        return "red";
    if (hue < 70.0)
        return "tan";
    if (hue < 170.0)
        return "green";
    return "blue";
}

static int bench_load_camera(const char *path, cr_camera_t *cam, cr_table_t *t)
{
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err), *c, *rot, *pos;
    int i;

    if (!root)
        return -1;
    c = json_object_get(root, "camera");
    rot = json_object_get(c, "rotation");
    pos = json_object_get(c, "position_mm");
    if (!c || json_array_size(rot) != 9 || json_array_size(pos) != 3) {
        json_decref(root);
        return -1;
    }
    memset(cam, 0, sizeof *cam);
    cam->width = (int)json_integer_value(json_object_get(json_object_get(root, "image"), "width"));
    cam->height = (int)json_integer_value(json_object_get(json_object_get(root, "image"), "height"));
    cam->fx = json_number_value(json_object_get(c, "fx"));
    cam->fy = json_number_value(json_object_get(c, "fy"));
    cam->cx = json_number_value(json_object_get(c, "cx"));
    cam->cy = json_number_value(json_object_get(c, "cy"));
    cam->k1 = json_number_value(json_object_get(c, "k1"));
    cam->k2 = json_number_value(json_object_get(c, "k2"));
    for (i = 0; i < 9; i++)
        cam->rot[i] = json_number_value(json_array_get(rot, (size_t)i));
    for (i = 0; i < 3; i++)
        cam->pos[i] = json_number_value(json_array_get(pos, (size_t)i));
    cr_table_init(t, json_number_value(json_object_get(json_object_get(root, "table"), "length_mm")),
                  json_number_value(json_object_get(json_object_get(root, "table"), "width_mm")));
    json_decref(root);
    return 0;
}

/* Truth rows indexed [frame * 16 + id]; visible -1 when absent. */
static bench_truth_t *bench_load_truth(const char *path, int *n_frames)
{
    FILE *f = fopen(path, "r");
    char line[256];
    bench_truth_t *tr = NULL;
    int cap = 0, maxf = -1;

    if (!f)
        return NULL;
    while (fgets(line, sizeof line, f)) {
        int fr, id, vis;
        double t, x, y;

        if (sscanf(line, "%d,%lf,%d,%lf,%lf,%d", &fr, &t, &id, &x, &y, &vis) != 6 || id < 0 || id > 15 || fr < 0)
            continue;
        if (fr >= cap) {
            int nc = cap ? cap : 1024, i;
            bench_truth_t *nt;

            while (nc <= fr)
                nc *= 2;
            nt = realloc(tr, sizeof *tr * 16 * (size_t)nc);
            if (!nt) {
                free(tr);
                fclose(f);
                return NULL;
            }
            tr = nt;
            for (i = cap * 16; i < nc * 16; i++)
                tr[i].visible = -1;
            cap = nc;
        }
        tr[fr * 16 + id].frame = fr;
        tr[fr * 16 + id].id = id;
        tr[fr * 16 + id].x = x;
        tr[fr * 16 + id].y = y;
        tr[fr * 16 + id].visible = vis;
        if (fr > maxf)
            maxf = fr;
    }
    fclose(f);
    *n_frames = maxf + 1;
    return tr;
}

int main(int argc, char **argv)
{
    char path[4096], err[256];
    cr_camera_t cam;
    cr_table_t tab;
    cr_detector_t *det = NULL;
    cr_detect_params_t dp;
    cr_frame_source_t *src = NULL;
    cr_frame_t fr;
    bench_truth_t *truth;
    int n_truth_frames = 0, max_frames, every, fps_n = 0, fps_d = 1, rc, skip_id, i;
    double shutter, fps, ms_total = 0.0, ms_max = 0.0, ms_coarse = 0.0, ms_hough = 0.0, ms_fit = 0.0;
    double *err_rest, *err_move;
    long n_rest = 0, n_rest_hit = 0, n_move = 0, n_move_hit = 0, n_fast = 0, n_fast_hit = 0;
    long n_match = 0, n_phantom = 0, n_dup = 0, n_id_ok = 0, n_id_conf = 0, n_id_conf_ok = 0, n_hidden_det = 0;
    long n_cue_ok = 0, n_cue = 0, n_eight_ok = 0, n_eight = 0;
    long ph_rest = 0, dup_rest = 0, match_rest = 0;
    int n_frames = 0, n_scored = 0, n_err_rest = 0, n_err_move = 0;
    double sum_regions = 0.0, sum_cands = 0.0, sum_searched = 0.0;
    static long confusion[16][16];
    long n_in_2sigma = 0, n_blur_truth = 0, n_blur_rep = 0;
    static double blur_ratio[1 << 20];
    static bench_id_t per_id[16];
    double cloth_rgb[3] = {0, 0, 0};
    const char *cloth = "unknown";
    FILE *errs_out = NULL;
    int last_scored = -1, id;

    if (argc < 2) {
        fprintf(stderr, "usage: detect_bench DIR [max_frames [shutter [every [skip_id]]]]\n");
        return 2;
    }
    max_frames = argc > 2 ? atoi(argv[2]) : 1 << 30;
    shutter = argc > 3 ? atof(argv[3]) : 0.5;
    every = argc > 4 ? atoi(argv[4]) : 1;
    skip_id = argc > 5 ? atoi(argv[5]) : -1;
    if (max_frames <= 0)
        max_frames = 1 << 30;
    if (every < 1)
        every = 1;
    snprintf(path, sizeof path, "%s/calib.json", argv[1]);
    if (bench_load_camera(path, &cam, &tab) != 0) {
        fprintf(stderr, "detect_bench: cannot read %s\n", path);
        return 2;
    }
    snprintf(path, sizeof path, "%s/positions.csv", argv[1]);
    truth = bench_load_truth(path, &n_truth_frames);
    if (!truth) {
        fprintf(stderr, "detect_bench: cannot read %s\n", path);
        return 2;
    }
    err_rest = malloc(sizeof(double) * 16 * (size_t)n_truth_frames);
    err_move = malloc(sizeof(double) * 16 * (size_t)n_truth_frames);
    if (!err_rest || !err_move) {
        fprintf(stderr, "detect_bench: out of memory\n");
        return 2;
    }
    for (i = 0; i < 16; i++) {
        per_id[i].err = malloc(sizeof(double) * (size_t)(n_truth_frames > 0 ? n_truth_frames : 1));
        per_id[i].last_f = -1;
        if (!per_id[i].err) {
            fprintf(stderr, "detect_bench: out of memory\n");
            return 2;
        }
    }
    if (getenv("BENCH_ERRS") && !(errs_out = fopen(getenv("BENCH_ERRS"), "a"))) {
        fprintf(stderr, "detect_bench: cannot write %s\n", getenv("BENCH_ERRS"));
        return 2;
    }
    cr_detect_params_defaults(&dp);
    dp.use_highlights = getenv("BENCH_HL") && atoi(getenv("BENCH_HL")) != 0;
    if (getenv("BENCH_SCAN"))
        dp.scan_sweep_frames = atoi(getenv("BENCH_SCAN"));
    rc = cr_detector_create(&cam, &tab, &dp, &det);
    if (rc != 0) {
        fprintf(stderr, "detect_bench: detector: %s\n", cr_status_str(rc));
        return 2;
    }
    snprintf(path, sizeof path, "%s/clip.mp4", argv[1]);
    if (cr_frame_source_open(path, NULL, &src, err, sizeof err) != 0) {
        fprintf(stderr, "detect_bench: %s\n", err);
        return 2;
    }
    cr_frame_source_info(src, NULL, NULL, &fps_n, &fps_d, NULL);
    fps = fps_n > 0 && fps_d > 0 ? (double)fps_n / fps_d : 30.0;
    while (n_frames < max_frames && cr_frame_source_next(src, &fr) == 1) {
        cr_yuv_image_t img = {fr.planes[0], fr.planes[1], fr.planes[2], fr.width, fr.height,
                              fr.strides[0], fr.strides[1], fr.strides[2]};
        cr_detection_t dets[CR_VISION_MAX_DETECTIONS];
        cr_detect_profile_t pf;
        int nd = 0, f = (int)fr.index, used[CR_VISION_MAX_DETECTIONS] = {0};
        double t0 = bench_now_ms(), dt;

        if (getenv("BENCH_HINT") && f >= 2) {
            cr_ball_hint_t hs[16];
            int nh = 0, id2;

            for (id2 = 0; id2 < 16; id2++) {
                const bench_truth_t *a1 = &truth[(f - 1) * 16 + id2], *a2 = &truth[(f - 2) * 16 + id2];

                if (a1->visible < 0 || a2->visible < 0)
                    continue;
                hs[nh].x = 2 * a1->x - a2->x + atof(getenv("BENCH_HINT"));
                hs[nh].y = 2 * a1->y - a2->y;
                hs[nh].reach_mm = tab.ball_radius_mm;
                hs[nh].tag = id2 + 1;
                hs[nh].at_rest = hypot(a1->x - a2->x, a1->y - a2->y) < 0.05;
                hs[nh].struck = 0;
                hs[nh].step_mm = hypot(a1->x - a2->x, a1->y - a2->y);
                hs[nh].unseen = 0;
                nh++;
            }
            cr_detector_expect(det, hs, nh);
        }
        rc = cr_detector_run(det, &img, dets, CR_VISION_MAX_DETECTIONS, &nd);
        dt = bench_now_ms() - t0;
        if (rc != 0) {
            fprintf(stderr, "detect_bench: frame %d: %s\n", f, cr_status_str(rc));
            return 2;
        }
        n_frames++;
        if (n_frames == 1)
            cloth = bench_cloth(&cam, &tab, &img, cloth_rgb);
        if (n_frames > 1) { /* the first frame learns the background */
            ms_total += dt;
            ms_max = dt > ms_max ? dt : ms_max;
            cr_detector_profile(det, &pf);
            ms_coarse += pf.ms_coarse;
            ms_hough += pf.ms_hough;
            ms_fit += pf.ms_fit;
            sum_regions += pf.regions;
            sum_searched += pf.searched;
            sum_cands += pf.candidates;
        }
        if (f >= n_truth_frames || f % every)
            continue;
        n_scored++;
        /* per-id continuity: only consecutive scored frames make pairs */
        if (last_scored != f - every)
            for (id = 0; id < 16; id++)
                per_id[id].last_f = -1;
        last_scored = f;
        for (id = 0; id < 16; id++) {
            const bench_truth_t *b = &truth[f * 16 + id];
            double speed = 0.0, blur, best = 1e9;
            int cls, bi = -1, rest;

            if (b->visible != 1)
                continue;
            if (id == skip_id) {
                /* left out: its nearest detection is taken out of the count */
                for (i = 0; i < nd; i++)
                    if (!used[i] && hypot(dets[i].x - b->x, dets[i].y - b->y) < tab.ball_radius_mm) {
                        used[i] = 1;
                        break;
                    }
                continue;
            }
            /* speed from neighbouring frames */
            rest = 1;
            if (f > 0 && truth[(f - 1) * 16 + id].visible >= 0) {
                double s = hypot(b->x - truth[(f - 1) * 16 + id].x, b->y - truth[(f - 1) * 16 + id].y);

                speed = s * fps;
                rest &= s < 0.05;
            }
            if (f + 1 < n_truth_frames && truth[(f + 1) * 16 + id].visible >= 0) {
                double s = hypot(b->x - truth[(f + 1) * 16 + id].x, b->y - truth[(f + 1) * 16 + id].y);

                speed = fmax(speed, s * fps);
                rest &= s < 0.05;
            }
            blur = speed * shutter / fps;
            cls = rest ? 0 : (blur < 2.0 * tab.ball_radius_mm ? 1 : 2);
            for (i = 0; i < nd; i++) {
                double e = hypot(dets[i].x - b->x, dets[i].y - b->y);

                if (!used[i] && e < best && e < tab.ball_radius_mm)
                    best = e, bi = i;
            }
            if (cls == 0) {
                per_id[id].n_rest++;
                if (bi < 0)
                    per_id[id].last_f = -1;
            } else {
                per_id[id].last_f = -1;
                per_id[id].n_move += cls == 1;
                per_id[id].n_move_hit += cls == 1 && bi >= 0;
            }
            if (cls == 0)
                n_rest++;
            else if (cls == 1)
                n_move++;
            else
                n_fast++;
            if (bi < 0) {
                if (getenv("BENCH_VERBOSE")) {
                    double pu = -1.0, pv = -1.0;

                    cr_camera_project(&cam, b->x, b->y, tab.ball_radius_mm, &pu, &pv);
                    printf("missed frame %d id %d class %d at (%.1f, %.1f) px (%.1f, %.1f)\n", f, id, cls, b->x, b->y,
                           pu, pv);
                }
                continue;
            }
            used[bi] = 1;
            n_match++;
            n_in_2sigma += best < 2.0 * dets[bi].sigma_mm;
            if (getenv("BENCH_VERBOSE") && best > 3.0)
                printf("large error frame %d id %d class %d: %.2f mm at (%.1f, %.1f) blur %.1f %.1f\n", f, id, cls,
                       best, b->x, b->y, dets[bi].blur_dx, dets[bi].blur_dy);
            if (cls == 0) {
                bench_id_t *pi = &per_id[id];
                int flip = 0;

                n_rest_hit++;
                err_rest[n_err_rest++] = best;
                match_rest++;
                pi->n_hit++;
                pi->err[pi->n_err++] = best;
                pi->sum_sigma += dets[bi].sigma_mm;
                if (pi->last_f == f - every && hypot(b->x - pi->last_tx, b->y - pi->last_ty) < 0.05) {
                    double jump = hypot(dets[bi].x - pi->last_x, dets[bi].y - pi->last_y);

                    pi->pairs++;
                    flip = jump > 3.0;
                    pi->flips += flip;
                    pi->max_jump = fmax(pi->max_jump, jump);
                    if (flip && getenv("BENCH_VERBOSE"))
                        printf("flip frame %d id %d: jump %.2f mm, error %.2f mm\n", f, id, jump, best);
                }
                pi->last_f = f;
                pi->last_x = dets[bi].x, pi->last_y = dets[bi].y;
                pi->last_tx = b->x, pi->last_ty = b->y;
                if (errs_out)
                    fprintf(errs_out, "%s %d %.4f %.4f %d\n", cloth, id, best, dets[bi].sigma_mm, flip);
            } else if (cls == 1) {
                n_move_hit++;
                err_move[n_err_move++] = best;
                if (f > 0 && f + 1 < n_truth_frames && truth[(f - 1) * 16 + id].visible >= 0 &&
                    truth[(f + 1) * 16 + id].visible >= 0) {
                    /* half the displacement over the exposure, mm */
                    double hb = 0.25 * shutter * hypot(truth[(f + 1) * 16 + id].x - truth[(f - 1) * 16 + id].x,
                                                       truth[(f + 1) * 16 + id].y - truth[(f - 1) * 16 + id].y);

                    if (hb > 0.5 * tab.ball_radius_mm) {
                        n_blur_truth++;
                        if (hypot(dets[bi].blur_dx, dets[bi].blur_dy) > 0.0 && n_blur_rep < (1 << 20)) {
                            n_blur_rep++;
                            blur_ratio[n_blur_rep - 1] = hypot(dets[bi].blur_dx, dets[bi].blur_dy) / hb;
                        }
                    }
                }
            } else {
                n_fast_hit++;
            }
            {
                int am = 0, k;

                for (k = 1; k < 16; k++)
                    if (dets[bi].id_p[k] > dets[bi].id_p[am])
                        am = k;
                n_id_ok += am == id;
                confusion[id][am]++;
                if (getenv("BENCH_DUMP")) {
                    int cm = 0;

                    for (k = 1; k < CR_COLOUR_COUNT; k++)
                        if (dets[bi].colour_p[k] > dets[bi].colour_p[cm])
                            cm = k;
                    printf("dump f %ld truth %2d best %2d p %.2f white %.2f colour %d p %.2f fit %.2f sigma %.2f "
                           "err %.2f dx %.2f dy %.2f uv %.1f %.1f r %.1f\n",
                           (long)f, id, am, dets[bi].id_p[am], dets[bi].white_frac, cm, dets[bi].colour_p[cm],
                           dets[bi].colour_fit, dets[bi].sigma_mm, best, dets[bi].x - b->x, dets[bi].y - b->y,
                           dets[bi].u, dets[bi].v, dets[bi].r_px);
                }
                if (dets[bi].id_p[am] >= 0.5f) {
                    n_id_conf++;
                    n_id_conf_ok += am == id;
                }
                if (id == 0) {
                    n_cue++;
                    n_cue_ok += am == 0;
                }
                if (id == 8) {
                    n_eight++;
                    n_eight_ok += am == 8;
                }
            }
        }
        for (i = 0; i < nd; i++) {
            double best = 1e9;
            int near_vis = 0;

            if (used[i])
                continue;
            for (id = 0; id < 16; id++) {
                const bench_truth_t *b = &truth[f * 16 + id];
                double e;

                if (b->visible < 0)
                    continue;
                e = hypot(dets[i].x - b->x, dets[i].y - b->y);
                if (e < best)
                    best = e, near_vis = b->visible;
            }
            if (best > tab.ball_radius_mm) {
                n_phantom++;
                ph_rest++;
                if (getenv("BENCH_VERBOSE"))
                    printf("phantom frame %d at (%.1f, %.1f) px (%.1f, %.1f) score %.2f colour fit %.2f\n", f,
                           dets[i].x, dets[i].y, dets[i].u, dets[i].v, dets[i].score, dets[i].colour_fit);
            } else if (near_vis == 1) {
                n_dup++;
                dup_rest++;
            } else {
                n_hidden_det++;
            }
        }
        if (getenv("BENCH_VERBOSE") && f % 100 == 0)
            printf("frame %d: %d detections, %.2f ms\n", f, nd, dt);
    }
    printf("detect_bench %s: %dx%d, %d frames (%d scored, every %d), shutter %.2f%s\n", argv[1], cam.width,
           cam.height, n_frames, n_scored, every, shutter, skip_id >= 0 ? ", one ball left out" : "");
    printf("balls: resting %ld, moving (blur < 1 diameter) %ld, faster %ld\n", n_rest, n_move, n_fast);
    printf("recall: resting %.4f%% (%ld missed), moving %.3f%% (%ld missed), faster %.2f%%\n",
           n_rest ? 100.0 * n_rest_hit / n_rest : NAN, n_rest - n_rest_hit,
           n_move ? 100.0 * n_move_hit / n_move : NAN, n_move - n_move_hit,
           n_fast ? 100.0 * n_fast_hit / n_fast : NAN);
    printf("precision: %.4f%% (%ld matched, %ld phantoms, %ld duplicates; %ld on balls under half visible)\n",
           n_match + n_phantom + n_dup ? 100.0 * n_match / (n_match + n_phantom + n_dup) : NAN, n_match, n_phantom,
           n_dup, n_hidden_det);
    printf("position error mm resting: median %.3f p95 %.3f max %.3f\n", bench_pct(err_rest, n_err_rest, 0.5),
           bench_pct(err_rest, n_err_rest, 0.95), bench_pct(err_rest, n_err_rest, 1.0));
    printf("position error mm moving:  median %.3f p95 %.3f max %.3f\n", bench_pct(err_move, n_err_move, 0.5),
           bench_pct(err_move, n_err_move, 0.95), bench_pct(err_move, n_err_move, 1.0));
    printf("identity (argmax id_p): %.2f%% of matches; confident (p >= 0.5) %.1f%% of matches, %.2f%% correct; "
           "cue ball %.2f%%, 8-ball %.2f%%\n",
           n_match ? 100.0 * n_id_ok / n_match : NAN, n_match ? 100.0 * n_id_conf / n_match : NAN,
           n_id_conf ? 100.0 * n_id_conf_ok / n_id_conf : NAN, n_cue ? 100.0 * n_cue_ok / n_cue : NAN,
           n_eight ? 100.0 * n_eight_ok / n_eight : NAN);
    printf("streaks (moving balls blurred by more than R/2): %ld, reported %ld, reported/true length median %.2f\n",
           n_blur_truth, n_blur_rep, bench_pct(blur_ratio, (int)(n_blur_rep < (1 << 20) ? n_blur_rep : (1 << 20)), 0.5));
    printf("sigma_mm check: %.1f%% of matches within 2 sigma (86%% for an honest 2-D Gaussian)\n",
           n_match ? 100.0 * n_in_2sigma / n_match : NAN);
    printf("phantoms: %ld\n", n_phantom);
    if (getenv("BENCH_VERBOSE")) {
        int a, b2;

        for (a = 0; a < 16; a++) {
            printf("id %2d ->", a);
            for (b2 = 0; b2 < 16; b2++)
                printf(" %5ld", confusion[a][b2]);
            printf("\n");
        }
    }
    printf("cloth: %s (RGB %.0f %.0f %.0f)\n", cloth, cloth_rgb[0], cloth_rgb[1], cloth_rgb[2]);
    {
        double lamps[6][3];
        int lb[6], nl = cr_detector_lamps(det, lamps, lb, 6), k;

        for (k = 0; k < nl && k < 6; k++)
            printf("lamp %d at (%.0f, %.0f, %.0f) mm, seen on %d places\n", k, lamps[k][0], lamps[k][1], lamps[k][2],
                   lb[k]);
    }
    {
        /* close-colour ids vs the rest, pooled */
        double *pool[2];
        long pn[2] = {0, 0}, ph[2] = {0, 0}, pp[2] = {0, 0}, pf[2] = {0, 0};
        int pe[2] = {0, 0}, g;

        pool[0] = err_move; /* reused: moving errors already printed */
        pool[1] = malloc(sizeof(double) * 16 * (size_t)(n_truth_frames > 0 ? n_truth_frames : 1));
        for (id = 0; id < 16; id++) {
            bench_id_t *pi = &per_id[id];
            const double *c = bench_id_rgb(id);
            double dist = sqrt((c[0] - cloth_rgb[0]) * (c[0] - cloth_rgb[0]) +
                               (c[1] - cloth_rgb[1]) * (c[1] - cloth_rgb[1]) +
                               (c[2] - cloth_rgb[2]) * (c[2] - cloth_rgb[2]));
            int close = bench_close(cloth, id);

            if (pi->n_rest == 0)
                continue;
            g = close;
            pn[g] += pi->n_rest, ph[g] += pi->n_hit, pp[g] += pi->pairs, pf[g] += pi->flips;
            if (pool[1])
                for (i = 0; i < pi->n_err; i++)
                    pool[g][pe[g]++] = pi->err[i];
            printf("id %2d %-5s colour dist %3.0f: resting %6ld recall %7.3f%%  err median %.3f p95 %.3f max %.3f  "
                   "sigma %.2f  flips %ld/%ld (max jump %.2f)  moving %ld recall %.1f%%\n",
                   id, close ? "close" : "", dist, pi->n_rest, 100.0 * pi->n_hit / pi->n_rest,
                   bench_pct(pi->err, pi->n_err, 0.5), bench_pct(pi->err, pi->n_err, 0.95),
                   bench_pct(pi->err, pi->n_err, 1.0), pi->n_hit ? pi->sum_sigma / pi->n_hit : NAN, pi->flips,
                   pi->pairs, pi->max_jump, pi->n_move, pi->n_move ? 100.0 * pi->n_move_hit / pi->n_move : NAN);
        }
        for (g = 1; g >= 0 && pool[1]; g--)
            printf("%s: resting %ld recall %.3f%%  err median %.3f p95 %.3f max %.3f  flips %ld/%ld\n",
                   g ? "close-colour ids" : "other ids", pn[g], pn[g] ? 100.0 * ph[g] / pn[g] : NAN,
                   bench_pct(pool[g], pe[g], 0.5), bench_pct(pool[g], pe[g], 0.95), bench_pct(pool[g], pe[g], 1.0),
                   pf[g], pp[g]);
        free(pool[1]);
    }
    printf("per frame: %.1f regions (%.1f searched again), %.1f Hough candidates fitted\n",
           n_frames > 1 ? sum_regions / (n_frames - 1) : NAN, n_frames > 1 ? sum_searched / (n_frames - 1) : NAN,
           n_frames > 1 ? sum_cands / (n_frames - 1) : NAN);
    printf("ms/frame: mean %.3f max %.3f (coarse %.3f, hough %.3f, fit+id %.3f)\n",
           n_frames > 1 ? ms_total / (n_frames - 1) : NAN, ms_max, n_frames > 1 ? ms_coarse / (n_frames - 1) : NAN,
           n_frames > 1 ? ms_hough / (n_frames - 1) : NAN, n_frames > 1 ? ms_fit / (n_frames - 1) : NAN);
    (void)ph_rest;
    (void)dup_rest;
    (void)match_rest;
    cr_frame_source_close(src);
    cr_detector_destroy(det);
    free(truth);
    free(err_rest);
    free(err_move);
    for (i = 0; i < 16; i++)
        free(per_id[i].err);
    if (errs_out)
        fclose(errs_out);
    return 0;
}
