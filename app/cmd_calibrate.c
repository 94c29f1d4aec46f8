/*
 * cmd_calibrate.c - `cueref calibrate INPUT [-o table.json]`: finds the table
 * in an image, a video or an image sequence and writes the calibration file
 * (SPEC §5), a PNG that draws what was found, and a summary.
 *
 * From a video it takes the per-pixel median of frames spread over the first
 * seconds, so balls rolling, a cue or an arm passing do not hide the cushions.
 *
 * The head end, unless --head gives it: the end whose foot spot a rack
 * stands on (cr_calib_rack_find), looked for in the median and in each
 * frame it was taken from (a break within the first seconds leaves the rack
 * in the early frames only); racks at both ends, or none, keep the image
 * left, and the summary and the file's "head_from" say which it was.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "calib_file.h"
#include "cli.h"
#include "cr_calib.h"
#ifdef CR_HAVE_CV_CHECKER
#include "cr_cv_checker.h"
#endif
#include "cr_frame_source.h"
#include "cr_video_writer.h"

#define MAX_MEDIAN 9

static void calib_usage(FILE *f)
{
    fprintf(f, "usage: cueref calibrate INPUT [-o table.json] [options]\n"
               "       cueref calibrate --checkerboard COLSxROWS:SQUARE_MM IMAGE... [-o intrinsics.json]\n"
               "Finds the playing surface in an image, video or image sequence (frames/%%04d.png),\n"
               "a camera (/dev/video0) or a live stream (rtsp://..., udp://...; the first 10 s)\n"
               "and writes the calibration file (SPEC §5) and a PNG that draws what was found.\n\n"
               "options:\n"
               "  -o, --out FILE      calibration file (default: table.json); the PNG is FILE.png\n"
               "  --table SIZE        9ft, 8ft, 7ft or LxW in mm (default: inferred from a rack's\n"
               "                      spread or the balls' size against the cloth, else 9ft)\n"
               "  --head SIDE         image side of the head end: left or right (default: the end\n"
               "                      whose foot spot a rack stands on, else left)\n"
               "  --corners \"x,y;x,y;x,y;x,y\"  playing-surface corners in pixels (head-left,\n"
               "                      head-right, foot-right, foot-left): no automatic finding\n"
               "  --frames N          frames of a video to take the median of (1..9, default 9)\n"
               "  --intrinsics FILE   the camera's focal length, principal point and distortion,\n"
               "                      measured apart (--checkerboard): used, not estimated\n"
               "  --checkerboard COLSxROWS:SQUARE_MM  measure them instead: views (images or\n"
               "                      videos, first frame) of a flat board of COLSxROWS inner\n"
               "                      corners, squares SQUARE_MM, tilted 20-45 degrees, 3 or more\n"
               "  -h, --help          this help\n");
}

static int cmp_u8(const void *a, const void *b)
{
    return (int)*(const uint8_t *)a - (int)*(const uint8_t *)b;
}

/* Reads up to want frames spread over the first 10 s and keeps their median;
 * the frames themselves go to keep[0..n-1] (caller frees) when keep is not
 * NULL, else are freed. */
static int read_median(const char *path, int want, uint8_t **out, uint8_t **keep, int *w, int *h, char *err,
                       size_t errlen)
{
    cr_frame_source_params_t p;
    cr_frame_source_t *src = NULL;
    cr_frame_t fr;
    uint8_t *frames[MAX_MEDIAN] = {NULL}, *med = NULL, v[MAX_MEDIAN];
    int n = 0, st, fn = 0, fd = 1, k, y, c;
    double dur = 0;
    long step, idx = 0;

    cr_frame_source_params_defaults(&p);
    p.format = CR_VIDEO_RGB;
    if (cr_frame_source_open(path, &p, &src, err, errlen) != CR_OK)
        return -1;
    cr_frame_source_info(src, w, h, &fn, &fd, &dur);
    step = (fn > 0 && fd > 0) ? (long)fmax(1.0, (10.0 * fn / fd) / want) : 1;
    if (dur > 0 && fn > 0 && fd > 0)
        step = (long)fmax(1.0, fmin(dur, 10.0) * fn / fd / want);
    while (n < want && (st = cr_frame_source_next(src, &fr)) == 1) {
        if (idx++ % step)
            continue;
        frames[n] = malloc((size_t)fr.width * fr.height * 3);
        if (!frames[n])
            break;
        for (y = 0; y < fr.height; y++)
            memcpy(frames[n] + (size_t)y * fr.width * 3, fr.planes[0] + (size_t)y * fr.strides[0], (size_t)fr.width * 3);
        n++;
    }
    if (n == 0) {
        snprintf(err, errlen, "%s", cr_frame_source_error(src)[0] ? cr_frame_source_error(src) : "no frame");
        cr_frame_source_close(src);
        return -1;
    }
    cr_frame_source_close(src);
    med = malloc((size_t)*w * *h * 3);
    if (med) {
        for (k = 0; k < *w * *h * 3; k++) {
            for (c = 0; c < n; c++)
                v[c] = frames[c][k];
            qsort(v, (size_t)n, 1, cmp_u8);
            med[k] = v[n / 2];
        }
    }
    for (c = 0; c < n; c++) {
        if (keep && med)
            keep[c] = frames[c];
        else
            free(frames[c]);
    }
    if (!med) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    *out = med;
    return n;
}

/* ---- drawing for the check image */

static void put(uint8_t *rgb, int w, int h, int x, int y, const uint8_t col[3])
{
    if (x < 0 || y < 0 || x >= w || y >= h)
        return;
    memcpy(rgb + ((size_t)y * w + x) * 3, col, 3);
}

static void draw_table_line(uint8_t *rgb, int w, int h, const cr_calib_result_t *r, double x0, double y0, double x1,
                            double y1, const uint8_t col[3], int thick)
{
    int i, n = 400, dx, dy;
    double u, v;

    for (i = 0; i <= n; i++) {
        double x = x0 + (x1 - x0) * i / n, y = y0 + (y1 - y0) * i / n;

        if (!cr_calib_table_to_pixel(r, x, y, &u, &v))
            continue;
        for (dx = -thick; dx <= thick; dx++)
            for (dy = -thick; dy <= thick; dy++)
                put(rgb, w, h, (int)lround(u) + dx, (int)lround(v) + dy, col);
    }
}

static void draw_overlay(uint8_t *rgb, int w, int h, const cr_calib_result_t *r, const cr_table_t *t)
{
    static const uint8_t red[3] = {255, 40, 40}, yellow[3] = {255, 230, 0}, white[3] = {255, 255, 255},
                         cyan[3] = {0, 230, 255};
    const double L = t->length_mm, W = t->width_mm;
    int k, p;

    for (k = 1; k < 8; k++) /* a grid at every diamond */
        draw_table_line(rgb, w, h, r, k * L / 8, 0, k * L / 8, W, k == 2 || k == 6 ? yellow : white, 0);
    for (k = 1; k < 4; k++)
        draw_table_line(rgb, w, h, r, 0, k * W / 4, L, k * W / 4, k == 2 ? yellow : white, 0);
    draw_table_line(rgb, w, h, r, 0, 0, L, 0, red, 1); /* cushion nose lines */
    draw_table_line(rgb, w, h, r, 0, W, L, W, red, 1);
    draw_table_line(rgb, w, h, r, 0, 0, 0, W, red, 1);
    draw_table_line(rgb, w, h, r, L, 0, L, W, red, 1);
    for (p = 0; p < CR_POCKET_COUNT; p++) {
        cr_point_t a, b;

        if (cr_table_pocket_mouth(t, (cr_pocket_t)p, &a, &b) == CR_OK)
            draw_table_line(rgb, w, h, r, a.x, a.y, b.x, b.y, cyan, 1);
    }
    for (k = 1; k <= 3; k++) { /* head spot, centre spot, foot spot: crosses a ball wide */
        draw_table_line(rgb, w, h, r, k * L / 4 - CR_BALL_RADIUS_MM, W / 2, k * L / 4 + CR_BALL_RADIUS_MM, W / 2, red, 0);
        draw_table_line(rgb, w, h, r, k * L / 4, W / 2 - CR_BALL_RADIUS_MM, k * L / 4, W / 2 + CR_BALL_RADIUS_MM, red, 0);
    }
    if (r->camera_source != CR_CALIB_CAMERA_NONE) {
        /* where the posed camera puts the diamond sights: a tick across the rail
         * cap (48 mm up, 60-130 mm out from the nose) at each one's along-rail
         * position; the sight should sit on it */
        cr_point_t d[CR_TABLE_DIAMOND_COUNT];
        int n = cr_table_diamonds(t, d, CR_TABLE_DIAMOND_COUNT), a;

        for (k = 0; k < n; k++) {
            double nx = d[k].x <= 0.0 ? -1.0 : d[k].x >= L ? 1.0 : 0.0, ny = nx != 0.0 ? 0.0 : d[k].y <= 0.0 ? -1.0 : 1.0;

            for (a = 0; a <= 35; a++) {
                double o = 60.0 + 2.0 * a, u, v;

                if (cr_camera_project(&r->camera, d[k].x + o * nx, d[k].y + o * ny, CR_CAMERA_RAIL_HEIGHT_MM, &u, &v))
                    put(rgb, w, h, (int)lround(u), (int)lround(v), cyan);
            }
        }
    }
}

/* The rack for the table size: the median's when its spread gives a
 * scale, else the frame's (of those the median was taken from) whose rack
 * gives one with the most balls. The median of a film that breaks within
 * its frames shows the rack half gone; a frame before the break shows it
 * whole. res came from cr_calib_detect on the median; its rack is replaced
 * (the caller puts the median's back: head_from_frames reads it). */
static void size_rack_from_frames(const cr_calib_params_t *cp, const cr_table_t *t, uint8_t *const *frames, int n,
                                  int w, int h, cr_calib_result_t *res)
{
    cr_calib_rack_t r;
    int k;

    if (cr_calib_rack_gives_scale(&res->rack))
        return;
    for (k = 0; k < n; k++) {
        cr_calib_image_t im = {frames[k], w, h, 3 * w};

        if (cr_calib_rack_find(&im, t, cp, res, &r) == CR_CALIB_OK && cr_calib_rack_gives_scale(&r) &&
            !(cr_calib_rack_gives_scale(&res->rack) && res->rack.n_balls >= r.n_balls))
            res->rack = r;
    }
}

/* The head end from the frames the median was taken from as well: res came
 * from cr_calib_detect on the median (head_from_rack on, cp->head_on_right
 * the default side). A rack over one end's foot spot, in the median or in
 * any frame, decides it; racks over both ends, in one frame or across
 * frames, leave the default. Writes what decided it to why. */
static void head_from_frames(const cr_calib_params_t *cp, const cr_table_t *t, uint8_t *const *frames, int n, int w,
                             int h, cr_calib_result_t *res, char *why, size_t whylen)
{
    cr_calib_rack_t r, best;
    int k, foot = 0, head = 0, seen = 0;
    bool med_foot = res->rack.where == CR_CALIB_RACK_AT_FOOT || res->rack.where == CR_CALIB_RACK_BOTH;
    bool med_head = res->rack.where == CR_CALIB_RACK_AT_HEAD || res->rack.where == CR_CALIB_RACK_BOTH;

    memset(&best, 0, sizeof(best));
    for (k = 0; k < n; k++) {
        cr_calib_image_t im = {frames[k], w, h, 3 * w};

        if (cr_calib_rack_find(&im, t, cp, res, &r) != CR_CALIB_OK)
            continue;
        foot += r.where == CR_CALIB_RACK_AT_FOOT || r.where == CR_CALIB_RACK_BOTH;
        head += r.where == CR_CALIB_RACK_AT_HEAD || r.where == CR_CALIB_RACK_BOTH;
        if ((r.where == CR_CALIB_RACK_AT_FOOT || r.where == CR_CALIB_RACK_AT_HEAD) && r.n_balls > best.n_balls)
            best = r;
    }
    if ((foot || med_foot) && (head || med_head)) { /* both ends: nothing decided */
        if (res->head_source == CR_CALIB_HEAD_RACK && res->head_on_right != cp->head_on_right)
            cr_calib_result_flip_head(res, t);
        res->head_source = CR_CALIB_HEAD_DEFAULT;
        res->rack.where = CR_CALIB_RACK_BOTH;
    } else if (head || foot) {
        if (res->head_source != CR_CALIB_HEAD_RACK)
            res->rack = best; /* in the frame of res as it is now: the flip below turns it */
        if (head)
            cr_calib_result_flip_head(res, t);
        res->head_source = CR_CALIB_HEAD_RACK;
    }
    seen = foot + head;
    cr_calib_head_describe(res);
    if (res->head_source == CR_CALIB_HEAD_RACK)
        snprintf(why, whylen, "%s; seen in %d of %d frame%s%s", res->head_why, seen, n, n == 1 ? "" : "s",
                 med_foot || med_head ? " and their median" : "");
    else
        snprintf(why, whylen, "%s", res->head_why);
}

static int write_calibration(const char *path, const char *input, const cr_calib_result_t *r, const cr_table_t *t,
                             int w, int h, bool head_right, bool manual, int n_frames, const char *table_from,
                             const char *head_from)
{
    json_t *root, *hom;
    int i;

    root = cr_calib_file_new(w, h, t, r->corners_px, head_right ? "right" : "left");
    if (root && r->head_source == CR_CALIB_HEAD_RACK)
        json_object_set_new(root, "head_rack",
                            json_pack("{s:f,s:[f,f],s:f,s:s}", "balls", r->rack.n_balls, "centre_mm", r->rack.centre_mm[0],
                                      r->rack.centre_mm[1], "spot_gap_mm", r->rack.spot_gap_mm, "note",
                                      "a rack over the foot spot (3L/4, W/2): its size in balls by area, its "
                                      "centroid in table mm"));
    if (!root)
        return -1;
    json_object_set_new(root, "source", json_string(input));
    json_object_set_new(root, "method", json_string(manual ? "corners given (--corners)" : "automatic"));
    json_object_set_new(root, "frames", json_integer(n_frames));
    json_object_set_new(root, "table_from", json_string(table_from));
    json_object_set_new(root, "head_from", json_string(head_from));
    json_object_set_new(root, "distortion",
                        json_pack("{s:s,s:f,s:f,s:[f,f],s:f}", "model",
                                  "d = c + f x (1 + k1 |x|^2 + k2 |x|^4), x = (q - c) / f, q undistorted pixel",
                                  "k1", r->k1, "k2", r->k2, "centre_px", r->dist_centre_px[0], r->dist_centre_px[1],
                                  "f_px", r->dist_f_px));
    hom = json_array();
    for (i = 0; i < 9; i++)
        json_array_append_new(hom, json_real(r->table_to_px[i]));
    json_object_set_new(root, "table_to_undistorted_px", hom);
    json_object_set_new(root, "cloth_rgb", json_pack("[i,i,i]", r->cloth_rgb[0], r->cloth_rgb[1], r->cloth_rgb[2]));
    if (r->camera_source != CR_CALIB_CAMERA_NONE) {
        /* the same block as `cueref sim` writes for its true camera (one loader reads both) */
        json_object_set_new(root, "camera", cr_calib_file_camera(&r->camera));
        json_object_set_new(
            root, "camera_fit",
            json_pack("{s:s,s:[f,f,f],s:f,s:i,s:f,s:s}", "source", cr_calib_camera_source_name(r->camera_source),
                      "position_sigma_mm", r->camera_sigma_mm[0], r->camera_sigma_mm[1], r->camera_sigma_mm[2],
                      "outline_rms_px", r->camera_rms_px, "diamond_sights", r->n_diamonds, "diamond_rms_mm",
                      r->diamond_rms_mm, "note",
                      r->camera_source == CR_CALIB_CAMERA_DIAMONDS
                          ? "height and nadir from the parallax of the diamond sights (48 mm above the cloth)"
                      : r->camera_source == CR_CALIB_CAMERA_HOMOGRAPHY
                          ? "focal length from the perspective of the cloth outline (tilted view)"
                      : r->camera_source == CR_CALIB_CAMERA_INTRINSICS
                          ? "focal length, principal point and distortion given (--intrinsics)"
                          : "height from the 3000 mm prior: ball positions off the nadir may be off by several mm"));
    }
    json_object_set_new(root, "ball_diameter_mm", json_real(2 * t->ball_radius_mm));
    json_object_set_new(root, "line_rms_px",
                        json_pack("{s:f,s:f,s:f,s:f}", "top", r->rms_px[0], "bottom", r->rms_px[1], "left",
                                  r->rms_px[2], "right", r->rms_px[3]));
    return cr_calib_file_write(root, path);
}

/* `cueref calibrate --checkerboard COLSxROWS:SQUARE_MM IMAGE...`: the
 * intrinsics from views of a board (the first frame of each input). */
static int calibrate_checkerboard(const char *spec, char **inputs, int n, const char *out)
{
    int cols = 0, rows = 0, i, w = 0, h = 0, rc = CR_EXIT_FAIL;
    double sq = 0.0;
    char tail = 0;

    if (sscanf(spec, "%dx%d:%lf%c", &cols, &rows, &sq, &tail) != 3 || cols < 2 || rows < 2 || cols > 100 ||
        rows > 100 || !(sq > 0.0)) {
        cr_cli_error("calibrate: --checkerboard wants COLSxROWS:SQUARE_MM (inner corners, e.g. 9x6:25)");
        return CR_EXIT_USAGE;
    }
#ifndef CR_HAVE_CV_CHECKER
    (void)inputs, (void)n, (void)out, (void)i, (void)w, (void)h, (void)rc;
    cr_cli_error("calibrate: --checkerboard needs OpenCV: this cueref was built without calib/cr_cv_checker.cpp");
    return CR_EXIT_FAIL;
#else
    {
        uint8_t **bufs = calloc((size_t)n, sizeof(*bufs));
        cr_calib_image_t *views = calloc((size_t)n, sizeof(*views));
        bool *found = calloc((size_t)n, sizeof(*found));
        cr_calib_intrinsics_t in;
        char err[512];
        int st;

        if (!bufs || !views || !found) {
            cr_cli_error("out of memory");
            goto done;
        }
        for (i = 0; i < n; i++) {
            int wi, hi;

            if (read_median(inputs[i], 1, &bufs[i], NULL, &wi, &hi, err, sizeof(err)) < 0) {
                cr_cli_error("calibrate: %s: %s", inputs[i], err);
                goto done;
            }
            if (i > 0 && (wi != w || hi != h)) {
                cr_cli_error("calibrate: %s is %dx%d, the first view %dx%d", inputs[i], wi, hi, w, h);
                goto done;
            }
            w = wi, h = hi;
            views[i].rgb = bufs[i], views[i].width = w, views[i].height = h, views[i].stride = 3 * w;
        }
        st = cr_cv_checker_calibrate(views, n, cols, rows, sq, &in, found, err, sizeof(err));
        printf("cueref calibrate: checkerboard %dx%d inner corners, %.2f mm squares, %d view%s (%dx%d)\n", cols, rows,
               sq, n, n == 1 ? "" : "s", w, h);
        for (i = 0; i < n; i++)
            printf("  %s: %s\n", inputs[i], found[i] ? "board found" : "board not found (not used)");
        if (st != CR_CALIB_OK) {
            cr_cli_error("calibrate: %s", err);
            goto done;
        }
        printf("  fx %.2f px, principal point (%.2f, %.2f) px, k1 %.5f, k2 %.5f; reprojection rms %.3f px over %d "
               "views\n",
               in.fx, in.cx, in.cy, in.k1, in.k2, in.rms_px, in.n_views);
        if (cr_intrinsics_file_write(out, &in, cols, rows, sq) != 0) {
            cr_cli_error("calibrate: cannot write %s: %s", out, strerror(errno));
            goto done;
        }
        printf("  wrote %s (use it with: cueref calibrate --intrinsics %s INPUT)\n", out, out);
        rc = CR_EXIT_OK;
    done:
        for (i = 0; bufs && i < n; i++)
            free(bufs[i]);
        free(bufs);
        free(views);
        free(found);
    }
    return rc;
#endif
}

int cr_cmd_calibrate(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},     {"table", required_argument, NULL, 't'},
        {"head", required_argument, NULL, 'H'},    {"corners", required_argument, NULL, 'C'},
        {"frames", required_argument, NULL, 'f'},  {"help", no_argument, NULL, 'h'},
        {"intrinsics", required_argument, NULL, 'I'}, {"checkerboard", required_argument, NULL, 'B'},
        {NULL, 0, NULL, 0},
    };
    const char *out = "table.json", *table = NULL, *corners = NULL, *intr_path = NULL, *checker = NULL;
    bool out_given = false;
    cr_calib_intrinsics_t intr;
    bool head_right = false, head_given = false;
    int want = MAX_MEDIAN, c, w = 0, h = 0, n, st, i, rc = CR_EXIT_FAIL;
    cr_table_t t;
    cr_calib_params_t cp;
    cr_calib_result_t *res = NULL;
    cr_calib_image_t img;
    uint8_t *rgb = NULL, *frames[MAX_MEDIAN] = {NULL};
    char err[512] = "", png[4200], table_why[256] = "default 9 ft: not inferred with --corners", head_why[256];
    double manual[4][2];

    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            out_given = true;
            break;
        case 'I':
            intr_path = optarg;
            break;
        case 'B':
            checker = optarg;
            break;
        case 't':
            table = optarg;
            break;
        case 'H':
            if (strcmp(optarg, "left") && strcmp(optarg, "right")) {
                cr_cli_error("calibrate: --head wants left or right");
                return CR_EXIT_USAGE;
            }
            head_right = !strcmp(optarg, "right");
            head_given = true;
            break;
        case 'C':
            corners = optarg;
            break;
        case 'f':
            want = atoi(optarg);
            if (want < 1 || want > MAX_MEDIAN) {
                cr_cli_error("calibrate: --frames wants 1..%d", MAX_MEDIAN);
                return CR_EXIT_USAGE;
            }
            break;
        case 'h':
            calib_usage(stdout);
            return CR_EXIT_OK;
        case ':':
            cr_cli_error("calibrate: option '%s' needs a value", argv[optind - 1]);
            return CR_EXIT_USAGE;
        default:
            cr_cli_error("calibrate: unknown option '%s' (see cueref calibrate --help)", argv[optind - 1]);
            return CR_EXIT_USAGE;
        }
    }
    if (checker) {
        if (optind >= argc || corners || intr_path) {
            cr_cli_error("calibrate: --checkerboard wants one IMAGE or more, and no --corners or --intrinsics");
            return CR_EXIT_USAGE;
        }
        return calibrate_checkerboard(checker, argv + optind, argc - optind, out_given ? out : "intrinsics.json");
    }
    if (intr_path && corners) {
        cr_cli_error("calibrate: --intrinsics is for the automatic finding, not --corners");
        return CR_EXIT_USAGE;
    }
    if (intr_path && cr_intrinsics_file_read(intr_path, &intr, err, sizeof(err)) != 0) {
        cr_cli_error("calibrate: %s", err);
        return CR_EXIT_USAGE;
    }
    if (optind != argc - 1) {
        cr_cli_error("calibrate: give one INPUT (see cueref calibrate --help)");
        return CR_EXIT_USAGE;
    }
    cr_table_init(&t, 2540.0, 1270.0);
    if (table && cr_table_parse(table, &t) != CR_OK) {
        cr_cli_error("calibrate: bad table size '%s' (9ft, 8ft, 7ft or LxW in mm)", table);
        return CR_EXIT_USAGE;
    }
    if (corners && cr_calib_parse_corners(corners, manual) != 0) {
        cr_cli_error("calibrate: --corners wants \"x,y;x,y;x,y;x,y\" (head-left, head-right, foot-right, foot-left)");
        return CR_EXIT_USAGE;
    }
    res = calloc(1, sizeof(*res));
    if (!res) {
        cr_cli_error("out of memory");
        return CR_EXIT_FAIL;
    }
    n = read_median(argv[optind], corners ? 1 : want, &rgb, corners || head_given ? NULL : frames, &w, &h, err,
                    sizeof(err));
    if (n < 0) {
        cr_cli_error("calibrate: %s", err);
        goto done;
    }
    if (corners) {
        double tab[4][2] = {{0, 0}, {0, t.width_mm}, {t.length_mm, t.width_mm}, {t.length_mm, 0}};

        if (!cr_calib_homography4(tab, manual, res->table_to_px) ||
            !cr_calib_homography4(manual, tab, res->px_to_table)) {
            cr_cli_error("calibrate: the corners given do not form a quadrilateral");
            goto done;
        }
        memcpy(res->corners_px, manual, sizeof(manual));
        res->status = CR_CALIB_OK;
        res->k1 = 0;
        res->dist_f_px = w;
        res->dist_centre_px[0] = (w - 1) / 2.0;
        res->dist_centre_px[1] = (h - 1) / 2.0;
        cr_calib_params_defaults(&cp);
        img.rgb = rgb;
        img.width = w;
        img.height = h;
        img.stride = 3 * w;
        /* the corners given carry no distortion: the camera is fitted as a pinhole */
        if (cr_calib_camera_estimate(&img, &t, &cp, res) != CR_CALIB_OK || res->camera_rms_px > cp.max_camera_rms_px ||
            (res->n_diamonds > 0 && res->diamond_rms_mm > cp.max_diamond_rms_mm)) {
            fprintf(stderr,
                    "cueref: calibrate: no camera fits the corners given (%s; outline rms %.2f px, sights rms %.2f mm): "
                    "writing the corners only\n",
                    res->message[0] ? res->message : "inconsistent", res->camera_rms_px, res->diamond_rms_mm);
            res->status = CR_CALIB_OK;
            res->camera_source = CR_CALIB_CAMERA_NONE;
        }
        snprintf(head_why, sizeof(head_why), "--corners (the first corner given is head-left)");
    } else {
        cr_calib_params_defaults(&cp);
        cp.head_on_right = head_right;
        cp.head_from_rack = !head_given; /* else the side given, left by default */
        cp.intrinsics = intr_path ? &intr : NULL;
        img.rgb = rgb;
        img.width = w;
        img.height = h;
        img.stride = 3 * w;
        st = cr_calib_detect(&img, &t, &cp, res);
        if (st == CR_CALIB_OK && !table) {
            /* no --table: a rack's spread or the balls against the cloth tell the size */
            cr_table_t inferred;
            cr_calib_rack_t median_rack = res->rack;
            int inf_st;

            size_rack_from_frames(&cp, &t, frames, n, w, h, res);
            inf_st = cr_calib_table_infer(res, &t, &inferred, table_why, sizeof(table_why));
            res->rack = median_rack;
            if (inf_st == CR_CALIB_OK) {
                if (fabs(inferred.length_mm - t.length_mm) > 1.0) {
                    t = inferred;
                    st = cr_calib_detect(&img, &t, &cp, res);
                }
            } else if (res->n_balls_measured < 2 && res->rack.where != CR_CALIB_RACK_NONE) {
                snprintf(table_why, sizeof(table_why),
                         "default 9 ft: the rack's spread gives no scale (no ball seen apart to say how large a "
                         "ball is, or more or fewer than its balls seen) and too few separate balls");
            } else if (res->n_balls_measured < 2) {
                snprintf(table_why, sizeof(table_why), "default 9 ft: too few balls on the bed to infer the size");
            } else { /* the size refused: why says so, after what is kept */
                static const char pre[] = "default 9 ft: ";
                size_t len = strnlen(table_why, sizeof(table_why) - sizeof(pre));

                memmove(table_why + sizeof(pre) - 1, table_why, len);
                memcpy(table_why, pre, sizeof(pre) - 1);
                table_why[sizeof(pre) - 1 + len] = '\0';
            }
        }
        if (st != CR_CALIB_OK) {
            /* the message starts with the status's own words */
            cr_cli_error("calibrate: %s: the table was not found: %s", argv[optind],
                         res->message[0] ? res->message : cr_calib_strerror(st));
            goto done;
        }
        if (head_given)
            snprintf(head_why, sizeof(head_why), "--head");
        else
            head_from_frames(&cp, &t, frames, n, w, h, res, head_why, sizeof(head_why));
        head_right = res->head_on_right;
    }
    snprintf(png, sizeof(png), "%s.png", out);
    if (write_calibration(out, argv[optind], res, &t, w, h, head_right, corners != NULL, n,
                          table ? "--table" : table_why, head_why) != 0) {
        cr_cli_error("calibrate: cannot write %s: %s", out, strerror(errno));
        goto done;
    }
    draw_overlay(rgb, w, h, res, &t);
    if (cr_png_write(png, rgb, w, h, 3 * w, err, sizeof(err)) != CR_OK)
        fprintf(stderr, "cueref: calibrate: could not write the check image %s: %s\n", png, err);
    printf("cueref calibrate: %s (%dx%d, median of %d frame%s)\n", argv[optind], w, h, n, n == 1 ? "" : "s");
    printf("  table %.1f x %.1f mm (%s)\n", t.length_mm, t.width_mm, table ? "--table" : table_why);
    printf("  head end on the image %s (%s%s)\n", head_right ? "right" : "left", head_why,
           !corners && !head_given && res->head_source != CR_CALIB_HEAD_RACK ? "; give --head right if not" : "");
    for (i = 0; i < 4; i++)
        printf("  corner %-10s (%8.2f, %8.2f) px\n", (const char *[]){"head-left", "head-right", "foot-right",
                                                                    "foot-left"}[i],
               res->corners_px[i][0], res->corners_px[i][1]);
    if (!corners)
        printf("  cushion lines (top, bottom, left, right): rms %.2f / %.2f / %.2f / %.2f px from %d / %d / %d / %d "
               "edge points; k1 %.4f\n",
               res->rms_px[0], res->rms_px[1], res->rms_px[2], res->rms_px[3], res->n_inliers[0], res->n_inliers[1],
               res->n_inliers[2], res->n_inliers[3], res->k1);
    if (!corners) {
        static const char *const names[4] = {"top", "bottom", "left", "right"};
        char on[64] = "";
        int k;

        for (k = 0; k < 4; k++)
            if (res->on_nose[k])
                snprintf(on + strlen(on), sizeof on - strlen(on), "%s%s", on[0] ? ", " : "", names[k]);
        printf("  sides fitted on the cushion nose's edge: %s\n", on[0] ? on : "none (all on the bed's edge)");
    }
    if (res->camera_source != CR_CALIB_CAMERA_NONE)
        printf("  camera: %.0f mm above the cloth over (%.0f, %.0f) mm (sigma %.0f / %.0f / %.0f), fx %.1f px, k1 %.4f; "
               "from the %s (%d diamond sights, rms %.2f mm)\n",
               res->camera.pos[2], res->camera.pos[0], res->camera.pos[1], res->camera_sigma_mm[0],
               res->camera_sigma_mm[1], res->camera_sigma_mm[2], res->camera.fx, res->camera.k1,
               cr_calib_camera_source_name(res->camera_source), res->n_diamonds, res->diamond_rms_mm);
    printf("  wrote %s and the check image %s\n", out, png);
    rc = CR_EXIT_OK;
done:
    for (i = 0; i < MAX_MEDIAN; i++)
        free(frames[i]);
    free(rgb);
    free(res);
    return rc;
}
