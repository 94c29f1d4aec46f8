/*
 * cr_calib.c - table detection: cloth model, bed region, cushion nose edge
 * points, RANSAC line fits, corners and homography (see cr_calib.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cr_calib.h"
#include "cr_calib_internal.h"

const char *cr_calib_strerror(int status)
{
    switch (status) {
    case CR_CALIB_OK: return "ok";
    case CR_CALIB_ERR_INVALID: return "invalid argument";
    case CR_CALIB_ERR_NOMEM: return "out of memory";
    case CR_CALIB_ERR_BLACK: return "black frame";
    case CR_CALIB_ERR_NO_CLOTH: return "no cloth-coloured region";
    case CR_CALIB_ERR_EDGES: return "a cushion line has too few edge points (table partly out of frame?)";
    case CR_CALIB_ERR_GEOMETRY: return "the cushion lines do not form a table outline";
    default: return "unknown status";
    }
}

void cr_calib_params_defaults(cr_calib_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->head_on_right = false;
    p->head_from_rack = true;
    p->rack_min_balls = 3.0;
    p->rack_gap = 0.25;
    p->rack_spot_tol = 0.5;
    p->centre_frac = 0.3;
    p->chroma_tol = 0.06;
    p->bright_lo = 0.55;
    p->bright_hi = 1.8;
    p->min_cloth_frac = 0.5;
    p->black_level = 8.0;
    p->edge_search_px = 3.0;
    p->ransac_tol_px = 1.0;
    p->ransac_iters = 300;
    p->min_edge_points = 30;
    p->side_trim = 0.08;
    p->min_run_frac = 0.06;
    p->estimate_k1 = true;
    p->k1_min = -1.0;
    p->k1_max = 0.02;
    p->k1_step = 0.005;
    p->seed = 1;
    p->estimate_camera = true;
    p->rail_height_mm = CR_CAMERA_RAIL_HEIGHT_MM;
    p->nose_height_mm = 0.635 * 2.0 * CR_BALL_RADIUS_MM; /* 63.5 % of a ball (RULES.md §5) */
    p->size_balls = true;
    p->prior_height_mm = 3000.0;
    p->prior_height_sigma_mm = 1500.0;
    p->min_diamonds = 8;
    p->max_camera_rms_px = 2.0;
    p->max_diamond_rms_mm = 3.0;
    p->min_corner_angle_deg = 30.0;
}

/* ---- scratch and pixel access ----------------------------------------------------- */

typedef double cr_light_grid_t[CR_CALIB_LIGHT_NX][4]; /* a row of cloth_light */

typedef struct {
    const cr_calib_image_t *img;
    uint8_t *mask;   /* 1 cloth-coloured bed pixel, 2 in the grown region */
    int32_t *stack;  /* flood fill */
    double *pts;     /* edge points, 2 per point, per side */
    uint8_t *wt;     /* their weights (cr_collect) */
    int cap;         /* edge point capacity per side */
    double ref_chroma[3], ref_sum; /* the cloth model */
    const cr_light_grid_t *light;  /* its colour over the image (cloth_light), or NULL */
} cr_calib_ctx_t;

static const uint8_t *cr_px(const cr_calib_image_t *img, int u, int v)
{
    return img->rgb + (size_t)v * (size_t)img->stride + 3 * (size_t)u;
}

/* Brightness r + g + b (0..765). */
static double cr_lum(const cr_calib_image_t *img, int u, int v)
{
    const uint8_t *q = cr_px(img, u, v);

    return (double)q[0] + q[1] + q[2];
}

static int cr_fail(cr_calib_result_t *res, int status, const char *detail)
{
    res->status = status;
    if (detail)
        snprintf(res->message, sizeof res->message, "%s: %s", cr_calib_strerror(status), detail);
    else
        snprintf(res->message, sizeof res->message, "%s", cr_calib_strerror(status));
    return status;
}

/* ---- cloth model --------------------------------------------------------------------- */

static bool cr_is_cloth(const uint8_t q[3], const double ref_chroma[3], double ref_sum, const cr_calib_params_t *p);

/* The bin where the cumulative count of hist (nb bins, n in all) reaches
 * half: the median's bin (nb when n is 0). */
static int cr_hist_median(const int *hist, int nb, int n)
{
    int acc = 0, k;

    for (k = 0; k < nb; k++) {
        acc += hist[k];
        if (2 * acc >= n && n > 0)
            break;
    }
    return k;
}

/* Per-channel median over the region; with model non-NULL only over the
 * pixels within twice chroma_tol of the model colour model[3] (and its
 * brightness window), so that a ball, the cue or an arm in the centre does
 * not pull the cloth colour. Returns the number of pixels used. */
static int cr_median_rgb(const cr_calib_image_t *img, int u0, int v0, int u1, int v1, const uint8_t *model,
                         const cr_calib_params_t *p, uint8_t out[3])
{
    static const int zero[256];
    int hist[3][256], c, u, v, n = 0;
    double mc[3] = {0.0, 0.0, 0.0}, ms = 0.0;
    cr_calib_params_t loose;

    if (model) {
        loose = *p;
        loose.chroma_tol *= 2.0;
        ms = (double)model[0] + model[1] + model[2];
        for (c = 0; c < 3; c++)
            mc[c] = ms > 0.0 ? model[c] / ms : 0.0;
    }
    for (c = 0; c < 3; c++)
        memcpy(hist[c], zero, sizeof zero);
    for (v = v0; v < v1; v++)
        for (u = u0; u < u1; u++) {
            const uint8_t *q = cr_px(img, u, v);

            if (model && !cr_is_cloth(q, mc, ms, &loose))
                continue;
            hist[0][q[0]]++, hist[1][q[1]]++, hist[2][q[2]]++;
            n++;
        }
    if (n == 0)
        return 0;
    for (c = 0; c < 3; c++) {
        int k = cr_hist_median(hist[c], 256, n);

        out[c] = (uint8_t)(k > 255 ? 255 : k);
    }
    return n;
}

static bool cr_is_cloth_tol(const uint8_t q[3], const double ref_chroma[3], double ref_sum, const cr_calib_params_t *p,
                            double tol)
{
    double s = (double)q[0] + q[1] + q[2], d2 = 0.0;
    int c;

    if (s < p->bright_lo * ref_sum || s > p->bright_hi * ref_sum || s <= 0.0)
        return false;
    for (c = 0; c < 3; c++) {
        double d = q[c] / s - ref_chroma[c];

        d2 += d * d;
    }
    return d2 <= tol * tol;
}

static bool cr_is_cloth(const uint8_t q[3], const double ref_chroma[3], double ref_sum, const cr_calib_params_t *p)
{
    return cr_is_cloth_tol(q, ref_chroma, ref_sum, p, p->chroma_tol);
}

/* The cloth's colour at (u, v): bilinear between the centres of the grid's
 * cells g (cloth_light): out[0] the brightness share, out[1..3] the
 * chromaticity; false without a grid. */
static bool cr_light_at(const cr_light_grid_t *g, int w, int h, double u, double v, double out[4])
{
    double x = u * CR_CALIB_LIGHT_NX / w - 0.5, y = v * CR_CALIB_LIGHT_NY / h - 0.5, fx, fy;
    int i, j, c;

    if (!g || g[0][0][0] <= 0.0)
        return false;
    x = x < 0.0 ? 0.0 : x > CR_CALIB_LIGHT_NX - 1 ? CR_CALIB_LIGHT_NX - 1 : x;
    y = y < 0.0 ? 0.0 : y > CR_CALIB_LIGHT_NY - 1 ? CR_CALIB_LIGHT_NY - 1 : y;
    i = (int)x, j = (int)y;
    if (i > CR_CALIB_LIGHT_NX - 2)
        i = CR_CALIB_LIGHT_NX - 2;
    if (j > CR_CALIB_LIGHT_NY - 2)
        j = CR_CALIB_LIGHT_NY - 2;
    fx = x - i, fy = y - j;
    for (c = 0; c < 4; c++)
        out[c] = (1.0 - fy) * ((1.0 - fx) * g[j][i][c] + fx * g[j][i + 1][c]) +
                 fy * ((1.0 - fx) * g[j + 1][i][c] + fx * g[j + 1][i + 1][c]);
    return true;
}

/* The cloth test against the colour expected at (u, v). The sensor's noise
 * in chromaticity grows as the light falls: where the bed is darker than
 * the reference the tolerance widens in proportion, up to 3 times. */
static bool cr_is_cloth_at(const cr_calib_image_t *img, const cr_light_grid_t *light, const uint8_t q[3],
                           const double ref_chroma[3], double ref_sum, const cr_calib_params_t *p, int u, int v)
{
    double l[4];

    if (!cr_light_at(light, img->width, img->height, u, v, l))
        return cr_is_cloth(q, ref_chroma, ref_sum, p);
    return cr_is_cloth_tol(q, l + 1, ref_sum * l[0], p, p->chroma_tol * (l[0] < 1.0 / 3.0 ? 3.0 : l[0] < 1.0 ? 1.0 / l[0] : 1.0));
}

/* The bed's colour per grid cell: the medians of the brightness share and
 * of each chromaticity over the bed region's pixels (mask value 2, every
 * 2nd pixel) in each cell with at least 16 of them; the other cells, ring
 * by ring outward, the mean of their filled neighbours. False when no cell
 * has enough. */
static bool cr_fit_light(const cr_calib_image_t *img, const uint8_t *mask, double ref_sum, cr_light_grid_t *g)
{
    enum { NX = CR_CALIB_LIGHT_NX, NY = CR_CALIB_LIGHT_NY, NB = 766, NC = 257, STRIDE = NB + 3 * NC };
    int w = img->width, h = img->height, u, v, i, j, k, c, left = 0;
    int *hist = calloc((size_t)NX * NY * STRIDE, sizeof *hist), cnt[NY][NX];
    bool any = false;

    if (!hist)
        return false;
    memset(cnt, 0, sizeof cnt);
    for (v = 0; v < h; v += 2)
        for (u = 0; u < w; u += 2)
            if (mask[(size_t)v * w + u] == 2) {
                const uint8_t *q = cr_px(img, u, v);
                int sum = q[0] + q[1] + q[2], *hc;

                if (sum <= 0)
                    continue;
                i = u * NX / w, j = v * NY / h;
                hc = hist + ((size_t)j * NX + i) * STRIDE;
                hc[sum]++;
                for (c = 0; c < 3; c++)
                    hc[NB + c * NC + 256 * q[c] / sum]++;
                cnt[j][i]++;
            }
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++) {
            const int *hc = hist + ((size_t)j * NX + i) * STRIDE;

            memset(g[j][i], 0, sizeof g[j][i]);
            if (cnt[j][i] < 16) {
                left++;
                continue;
            }
            for (c = 0; c < 4; c++) {
                k = cr_hist_median(c == 0 ? hc : hc + NB + (c - 1) * NC, c == 0 ? NB : NC, cnt[j][i]);
                g[j][i][c] = c == 0 ? (k + 0.5) / ref_sum : (k + 0.5) / 256.0;
            }
            any = true;
        }
    free(hist);
    while (any && left > 0) { /* ring by ring: the cells next to filled ones */
        double nxt[NY][NX][4];

        memcpy(nxt, g, sizeof nxt);
        for (j = 0; j < NY; j++)
            for (i = 0; i < NX; i++) {
                double sum[4] = {0.0, 0.0, 0.0, 0.0};
                int m = 0, a, b;

                if (g[j][i][0] > 0.0)
                    continue;
                for (b = j - 1; b <= j + 1; b++)
                    for (a = i - 1; a <= i + 1; a++)
                        if (a >= 0 && b >= 0 && a < NX && b < NY && g[b][a][0] > 0.0)
                            for (c = 0, m++; c < 4; c++)
                                sum[c] += g[b][a][c];
                if (m > 0) {
                    for (c = 0; c < 4; c++)
                        nxt[j][i][c] = sum[c] / m;
                    left--;
                }
            }
        memcpy(g, nxt, sizeof nxt);
    }
    return any;
}

/* dst = src under a 3x3 box (edges clamped): the cloth tests on it see a
 * third of the sensor noise. */
static void cr_box3(const cr_calib_image_t *src, uint8_t *dst)
{
    int w = src->width, h = src->height, u, v, c, a, b;

    for (v = 0; v < h; v++)
        for (u = 0; u < w; u++)
            for (c = 0; c < 3; c++) {
                int acc = 0;

                for (b = -1; b <= 1; b++)
                    for (a = -1; a <= 1; a++) {
                        int x = u + a < 0 ? 0 : u + a >= w ? w - 1 : u + a, y = v + b < 0 ? 0 : v + b >= h ? h - 1 : v + b;

                        acc += cr_px(src, x, y)[c];
                    }
                dst[((size_t)v * w + u) * 3 + c] = (uint8_t)((acc + 4) / 9);
            }
}

/* The median chromaticity distance from ref_chroma of the pixels in the
 * brightness window of ref_sum (every 2nd) in the region u0..u1, v0..v1. */
static double cr_chroma_scatter(const cr_calib_image_t *img, int u0, int v0, int u1, int v1, const double ref_chroma[3],
                                double ref_sum, const cr_calib_params_t *p)
{
    enum { NH = 400 }; /* bins of 0.0005 */
    int u, v, k, c, n = 0, hist[NH] = {0};

    for (v = v0; v < v1; v += 2)
        for (u = u0; u < u1; u += 2) {
            const uint8_t *q = cr_px(img, u, v);
            double sum = (double)q[0] + q[1] + q[2], d2 = 0.0;

            if (sum < p->bright_lo * ref_sum || sum > p->bright_hi * ref_sum || sum <= 0.0)
                continue;
            for (c = 0; c < 3; c++)
                d2 += (q[c] / sum - ref_chroma[c]) * (q[c] / sum - ref_chroma[c]);
            k = (int)(sqrt(d2) / 0.0005);
            hist[k < NH ? k : NH - 1]++;
            n++;
        }
    return n > 0 ? (cr_hist_median(hist, NH, n) + 0.5) * 0.0005 : 1.0;
}

/* ---- edge points --------------------------------------------------------------------- */

/* Sub-pixel position, in units of dir from (u, v), of the strongest
 * brightness drop going outward along dir within +-s pixels; false when
 * the window leaves the image or there is no drop. */
static bool cr_edge_refine(const cr_calib_image_t *img, int u, int v, int du, int dv, int s, double *off)
{
    double d[32];
    int k, best = -1;

    if (s < 2)
        s = 2;
    if (s > 14)
        s = 14;
    if (u - (s + 1) * abs(du) < 0 || v - (s + 1) * abs(dv) < 0 || u + (s + 1) * abs(du) >= img->width ||
        v + (s + 1) * abs(dv) >= img->height)
        return false;
    for (k = -s; k <= s; k++) {
        d[k + s] = cr_lum(img, u + (k - 1) * du, v + (k - 1) * dv) - cr_lum(img, u + (k + 1) * du, v + (k + 1) * dv);
        if (k > -s && k < s && (best < 0 || d[k + s] > d[best]))
            best = k + s;
    }
    if (best < 0 || d[best] <= 0.0)
        return false;
    {
        double a = d[best - 1], b = d[best], c = d[best + 1], den = a - 2.0 * b + c, o = 0.0;

        if (den < 0.0)
            o = 0.5 * (a - c) / den;
        if (o > 0.5)
            o = 0.5;
        if (o < -0.5)
            o = -0.5;
        *off = (best - s) + o;
    }
    return true;
}

/* The cloth test on the mean of the 5 pixels through (u, v) along the
 * edge direction (vertical for row scans, horizontal for column scans). */
static bool cr_cloth_along(const cr_calib_ctx_t *cx, const cr_calib_params_t *p, int u, int v, bool rows)
{
    int acc[3] = {0, 0, 0}, k, c, m = 0;
    uint8_t q[3];

    for (k = -2; k <= 2; k++) {
        int pu = rows ? u : u + k, pv = rows ? v + k : v;
        const uint8_t *s;

        if (pu < 0 || pv < 0 || pu >= cx->img->width || pv >= cx->img->height)
            continue;
        s = cr_px(cx->img, pu, pv);
        for (c = 0; c < 3; c++)
            acc[c] += s[c];
        m++;
    }
    for (c = 0; c < 3; c++)
        q[c] = (uint8_t)((acc[c] + m / 2) / m);
    return cr_is_cloth_at(cx->img, cx->light, q, cx->ref_chroma, cx->ref_sum, p, u, v);
}

/* Brightness of the pixel k steps inward from the border on scanline i of
 * a side (outward direction du, dv), averaged over 5 pixels along the edge. */
static double cr_lum_along(const cr_calib_image_t *img, bool rows, int du, int dv, int i, int k)
{
    int pu = rows ? (du < 0 ? k : img->width - 1 - k) : i, pv = rows ? i : (dv < 0 ? k : img->height - 1 - k);
    int j, m = 0;
    double acc = 0.0;

    for (j = -2; j <= 2; j++) {
        int qu = rows ? pu : pu + j, qv = rows ? pv + j : pv;

        if (qu < 0 || qv < 0 || qu >= img->width || qv >= img->height)
            continue;
        acc += cr_lum(img, qu, qv);
        m++;
    }
    return m ? acc / m : 0.0;
}

/* Collects the edge points of one image side. On each scanline (rows for
 * the left and right sides, columns for the top and bottom), walking
 * inward from the image border, the bed edge is the start of the first run
 * of at least min_run cloth-coloured pixels (tested on the mean of 5
 * pixels along the edge, against noise): the cushion tops are cloth too
 * but narrower than min_run, and are skipped with the dark nose band
 * between them and the bed. The pixel found is refined to the brightness
 * drop going outward. The starts of up to three shorter cloth runs before
 * it are kept too, with half the weight (wt; see below). Returns the count. */
static int cr_collect(const cr_calib_ctx_t *cx, const cr_calib_params_t *p, int side, const int bb[4], double *pts,
                      uint8_t *wt)
{
    const cr_calib_image_t *img = cx->img;
    int w = img->width, h = img->height, n = 0, i, lo, hi, s = (int)ceil(p->edge_search_px), len, min_run;
    bool rows = side == CR_CALIB_SIDE_LEFT || side == CR_CALIB_SIDE_RIGHT;
    int du = side == CR_CALIB_SIDE_LEFT ? -1 : side == CR_CALIB_SIDE_RIGHT ? 1 : 0;
    int dv = side == CR_CALIB_SIDE_TOP ? -1 : side == CR_CALIB_SIDE_BOTTOM ? 1 : 0;

    /* bb: umin, umax, vmin, vmax of the region */
    if (rows) {
        int ext = bb[3] - bb[2];

        lo = bb[2] + (int)(p->side_trim * ext), hi = bb[3] - (int)(p->side_trim * ext);
        len = w;
        min_run = (int)(p->min_run_frac * (bb[3] - bb[2]));
    } else {
        int ext = bb[1] - bb[0];

        lo = bb[0] + (int)(p->side_trim * ext), hi = bb[1] - (int)(p->side_trim * ext);
        len = h;
        min_run = (int)(p->min_run_frac * (bb[3] - bb[2]));
    }
    if (min_run < 3)
        min_run = 3;
    for (i = lo; i <= hi && n + 5 <= cx->cap; i++) {
        int k, run = 0, first = -1, u, v, shorts[5], ns = 0, j, kend, beyond = -1;
        bool dipped = false;
        double off;

        for (k = 0; k < len; k++) {
            /* position k steps inward from the border */
            int pu = rows ? (du < 0 ? k : w - 1 - k) : i, pv = rows ? i : (dv < 0 ? k : h - 1 - k);

            if (cr_cloth_along(cx, p, pu, pv, rows)) {
                if (run++ == 0)
                    first = k;
                if (run >= min_run)
                    break;
            } else {
                if (run >= 3 && first > 0) { /* a short cloth run: keep the last three */
                    if (ns == 3)
                        shorts[0] = shorts[1], shorts[1] = shorts[2], ns = 2;
                    shorts[ns++] = first;
                }
                run = 0;
            }
        }
        if (run < min_run || first <= 0)
            continue; /* no bed, or the bed touches the image border */
        kend = k;
        /* a rail in the cloth's colour (grey on grey): the run is the rail and
         * the cushion top, and the nose is the first thin dark band after it
         * (narrower than half a ball; a ball, a pocket or an arm is wider)
         * with a run of bed behind it, within three more run lengths. Its
         * end is one more start, with cloth outside it; the run's own start
         * is then kept as it is (a seam between rail and cushion top is no
         * nose) */
        {
            int band = 0, thin = (int)fmax(3.0, 0.4 * min_run), kb;
            double dark = HUGE_VAL;

            for (kb = kend + 1; kb < kend + 3 * min_run && kb < len; kb++) {
                int pu = rows ? (du < 0 ? kb : w - 1 - kb) : i, pv = rows ? i : (dv < 0 ? kb : h - 1 - kb), r = 0, k2;

                if (!cr_cloth_along(cx, p, pu, pv, rows)) {
                    dark = fmin(dark, cr_lum_along(img, rows, du, dv, i, kb));
                    if (++band > thin)
                        break;
                    continue;
                }
                if (band == 0)
                    continue;
                for (k2 = kb; k2 < kb + min_run && k2 < len; k2++) {
                    int qu = rows ? (du < 0 ? k2 : w - 1 - k2) : i, qv = rows ? i : (dv < 0 ? k2 : h - 1 - k2);

                    if (!cr_cloth_along(cx, p, qu, qv, rows))
                        break;
                    r++;
                }
                if (r >= min_run && dark < 0.75 * cr_lum_along(img, rows, du, dv, i, kb + min_run / 2))
                    beyond = kb;
                break;
            }
        }
        /* a thin nose band the cloth test missed (seen steeply, it can be
         * 1-2 px and not dark enough): the deepest brightness dip within a
         * run's length moves the start inward past it. A dip is darker than
         * both sides and 10 % darker than the brighter: the bed just
         * inside the nose lies in the cushion's shadow, so the band can be
         * only a little darker than the bed there, never than the lit top */
        if (beyond < 0) {
            int best_k = -1;
            double best_r = 0.9;

            for (k = first + 3; k + 3 < first + min_run + 3 && k + 3 < len; k++) {
                double lk = cr_lum_along(img, rows, du, dv, i, k), la = cr_lum_along(img, rows, du, dv, i, k - 3),
                       lb = cr_lum_along(img, rows, du, dv, i, k + 3), r = lk / (la > lb ? la : lb);

                if (la > 0.0 && lb > 0.0 && lk < la && lk < lb && r < best_r)
                    best_r = r, best_k = k;
            }
            if (best_k >= 0)
                first = best_k + 1, dipped = true;
        }
        /* the bed's start (weight 2) and the short runs before it (weight 1):
         * a cue or an arm lying along the cushion cuts the bed between them
         * into a short run, whose start is then the nose. Each weight doubles
         * when cloth lies outside the start (a run before it, or the cushion
         * top before a dip): the nose has the cushion top outside it, the
         * cushion's back edge has the rail */
        shorts[ns] = first;
        if (beyond >= 0)
            shorts[ns + 1] = beyond;
        for (j = 0; j <= ns + (beyond >= 0); j++) {
            u = rows ? (du < 0 ? shorts[j] : w - 1 - shorts[j]) : i;
            v = rows ? i : (dv < 0 ? shorts[j] : h - 1 - shorts[j]);
            if (!cr_edge_refine(img, u, v, du, dv, s, &off))
                continue;
            pts[2 * n] = u + off * du;
            pts[2 * n + 1] = v + off * dv;
            wt[n] = (uint8_t)(j > ns ? 4 : (j == ns ? 2 : 1) * (j > 0 || (j == ns && dipped) ? 2 : 1));
            n++;
        }
    }
    return n;
}

/* ---- line fitting --------------------------------------------------------------------- */

static uint64_t cr_rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Total least squares on the points with flag set: line a u + b v + c = 0.
 * tw: each point's weight, the inverse of its place's variance (NULL: all
 * alike); rms is unweighted. */
static bool cr_tls(const double *pts, const uint8_t *in, const double *tw, int n, double line[3], double *rms)
{
    double mu = 0.0, mv = 0.0, suu = 0.0, svv = 0.0, suv = 0.0, th, a, b, e = 0.0, sw = 0.0;
    int i, m = 0;

    for (i = 0; i < n; i++)
        if (in[i]) {
            double q = tw ? tw[i] : 1.0;

            mu += q * pts[2 * i], mv += q * pts[2 * i + 1], sw += q, m++;
        }
    if (m < 2 || !(sw > 0.0))
        return false;
    mu /= sw, mv /= sw;
    for (i = 0; i < n; i++)
        if (in[i]) {
            double x = pts[2 * i] - mu, y = pts[2 * i + 1] - mv, q = tw ? tw[i] : 1.0;

            suu += q * x * x, svv += q * y * y, suv += q * x * y;
        }
    /* the normal is the eigenvector of the smaller eigenvalue */
    th = 0.5 * atan2(2.0 * suv, suu - svv); /* direction of the line */
    a = -sin(th), b = cos(th);
    line[0] = a, line[1] = b, line[2] = -(a * mu + b * mv);
    for (i = 0; i < n; i++)
        if (in[i]) {
            double d = a * pts[2 * i] + b * pts[2 * i + 1] + line[2];

            e += d * d;
        }
    *rms = sqrt(e / m);
    return true;
}

/* RANSAC + TLS refits. Returns the inlier count (in[] flags). */
static int cr_fit_side(const double *pts, const uint8_t *wt, const double *tw, int n, const cr_calib_params_t *p,
                       uint64_t *seed, uint8_t *in, double line[3], double *rms)
{
    int it, i, best = -1, pass;
    double bl[3] = {0.0, 0.0, 0.0};

    if (n < 2)
        return 0;
    for (it = 0; it < p->ransac_iters; it++) {
        int i0 = (int)(cr_rng(seed) % (uint64_t)n), i1 = (int)(cr_rng(seed) % (uint64_t)n), cnt = 0;
        double a, b, len, c;

        if (i0 == i1)
            continue;
        a = pts[2 * i1 + 1] - pts[2 * i0 + 1];
        b = pts[2 * i0] - pts[2 * i1];
        len = hypot(a, b);
        if (len < 1e-9)
            continue;
        a /= len, b /= len;
        c = -(a * pts[2 * i0] + b * pts[2 * i0 + 1]);
        for (i = 0; i < n; i++)
            if (fabs(a * pts[2 * i] + b * pts[2 * i + 1] + c) <= p->ransac_tol_px)
                cnt += wt[i];
        if (cnt > best)
            best = cnt, bl[0] = a, bl[1] = b, bl[2] = c;
    }
    if (best < 2)
        return 0;
    memcpy(line, bl, sizeof bl);
    for (pass = 0; pass < 3; pass++) {
        best = 0;
        for (i = 0; i < n; i++) {
            in[i] = fabs(line[0] * pts[2 * i] + line[1] * pts[2 * i + 1] + line[2]) <= p->ransac_tol_px;
            best += in[i];
        }
        if (!cr_tls(pts, in, tw, n, line, rms))
            return 0;
    }
    return best;
}

static bool cr_intersect(const double l0[3], const double l1[3], double out[2])
{
    double w = l0[0] * l1[1] - l0[1] * l1[0];

    if (fabs(w) < 1e-9)
        return false;
    out[0] = (l0[1] * l1[2] - l0[2] * l1[1]) / w;
    out[1] = (l0[2] * l1[0] - l0[0] * l1[2]) / w;
    return true;
}

/* ---- radial distortion ----------------------------------------------------------------- */

/* The radial model: a distorted pixel d and its undistorted pixel q relate
 * through normalised coordinates x = (q - c) / f, with c the image centre
 * and f the image width (a stand-in focal length), by d = c + f x (1 + k1
 * |x|^2) (k2 = 0); with known intrinsics c and f are theirs and k2 too. */
typedef struct {
    double cu, cv, f, k1, k2;
} cr_dist_t;

static bool cr_undistort_px(const cr_dist_t *m, double du, double dv, double *qu, double *qv)
{
    double xd = (du - m->cu) / m->f, yd = (dv - m->cv) / m->f, rd = hypot(xd, yd), ru = rd;
    int it;

    if ((m->k1 == 0.0 && m->k2 == 0.0) || rd == 0.0) {
        *qu = du, *qv = dv;
        return true;
    }
    for (it = 0; it < 30; it++) {
        double r2 = ru * ru, g = ru * (1.0 + m->k1 * r2 + m->k2 * r2 * r2) - rd,
               dg = 1.0 + 3.0 * m->k1 * r2 + 5.0 * m->k2 * r2 * r2;

        if (dg <= 1e-6)
            return false; /* beyond the monotonic range */
        ru -= g / dg;
        if (fabs(g) < 1e-13)
            break;
    }
    if (!(ru > 0.0) || 1.0 + 3.0 * m->k1 * ru * ru + 5.0 * m->k2 * ru * ru * ru * ru <= 0.0)
        return false;
    *qu = m->cu + m->f * xd * ru / rd;
    *qv = m->cv + m->f * yd * ru / rd;
    return true;
}

static void cr_distort_px(const cr_dist_t *m, double qu, double qv, double *du, double *dv)
{
    double x = (qu - m->cu) / m->f, y = (qv - m->cv) / m->f, r2 = x * x + y * y, s = 1.0 + m->k1 * r2 + m->k2 * r2 * r2;

    *du = m->cu + m->f * x * s;
    *dv = m->cv + m->f * y * s;
}

/* Undistorts n points from src into dst; false if one cannot be. */
static bool cr_undistort_all(const cr_dist_t *m, const double *src, int n, double *dst)
{
    int i;

    for (i = 0; i < n; i++)
        if (!cr_undistort_px(m, src[2 * i], src[2 * i + 1], &dst[2 * i], &dst[2 * i + 1]))
            return false;
    return true;
}

/* Fits the four sides on the points undistorted with m. Returns the MSAC
 * cost (sum over all points of min(d^2, tol^2), px^2, each point weighted
 * by its tw relative to its side's mean), or HUGE_VAL when a point cannot
 * be undistorted. Fills lines, inlier flags, rms. tw (NULL: all alike): the
 * points' inverse variances, cap a side like wt. */
static double cr_fit_all(const cr_dist_t *m, const double *raw, const uint8_t *wt, const double *tw, const int *n,
                         int cap, const cr_calib_params_t *p, double *und, uint8_t *in, double lines[4][3],
                         double rms[4], int ni[4])
{
    int side, i;
    double cost = 0.0, t2 = p->ransac_tol_px * p->ransac_tol_px;

    for (side = 0; side < CR_CALIB_SIDES; side++) {
        uint64_t seed = p->seed ? p->seed + (uint64_t)side : 1;
        const double *src = raw + (size_t)side * 2 * cap, *sw = tw ? tw + (size_t)side * cap : NULL;
        double *dst = und + (size_t)side * 2 * cap, mean = 0.0;

        if (!cr_undistort_all(m, src, n[side], dst))
            return HUGE_VAL;
        ni[side] = cr_fit_side(dst, wt + (size_t)side * cap, sw, n[side], p, &seed, in + (size_t)side * cap,
                               lines[side], &rms[side]);
        if (ni[side] < 2)
            return HUGE_VAL;
        for (i = 0; sw && i < n[side]; i++)
            mean += sw[i] / n[side];
        for (i = 0; i < n[side]; i++) {
            double d = lines[side][0] * dst[2 * i] + lines[side][1] * dst[2 * i + 1] + lines[side][2];

            cost += (sw && mean > 0.0 ? sw[i] / mean : 1.0) * (d * d < t2 ? d * d : t2);
        }
    }
    return cost;
}

/* The k1 of m whose undistortion puts the points (raw, wt, n per side, cap
 * a side) best on four lines (MSAC cost of cr_fit_all): a coarse grid of 4
 * steps over [k1_min, k1_max], the fine one around its minimum, then a
 * parabola through the minimum and its neighbours. res->lines and the fit
 * figures are scratch here. */
static void cr_search_k1(cr_dist_t *m, const double *raw, const uint8_t *wt, const double *tw, const int *n, int cap,
                         const cr_calib_params_t *p, double *und, uint8_t *in, cr_calib_result_t *res)
{
    double k, best_k = 0.0, best = HUGE_VAL, c_lo, c_hi, coarse = 4.0 * p->k1_step, lo, hi;

    for (k = p->k1_min; k <= p->k1_max + 1e-12; k += coarse) {
        double c;

        m->k1 = k;
        c = cr_fit_all(m, raw, wt, tw, n, cap, p, und, in, res->lines, res->rms_px, res->n_inliers);
        if (c < best)
            best = c, best_k = k;
    }
    lo = fmax(p->k1_min, best_k - coarse), hi = fmin(p->k1_max, best_k + coarse);
    for (k = lo; k <= hi + 1e-12; k += p->k1_step) {
        double c;

        m->k1 = k;
        c = cr_fit_all(m, raw, wt, tw, n, cap, p, und, in, res->lines, res->rms_px, res->n_inliers);
        if (c < best)
            best = c, best_k = k;
    }
    m->k1 = best_k - p->k1_step;
    c_lo = cr_fit_all(m, raw, wt, tw, n, cap, p, und, in, res->lines, res->rms_px, res->n_inliers);
    m->k1 = best_k + p->k1_step;
    c_hi = cr_fit_all(m, raw, wt, tw, n, cap, p, und, in, res->lines, res->rms_px, res->n_inliers);
    m->k1 = best_k;
    if (c_lo < HUGE_VAL && c_hi < HUGE_VAL && c_lo - 2.0 * best + c_hi > 0.0) {
        double o = 0.5 * (c_lo - c_hi) / (c_lo - 2.0 * best + c_hi);

        if (o > -1.0 && o < 1.0)
            m->k1 = best_k + o * p->k1_step;
    }
}

/* ---- diamond sights ------------------------------------------------------------------ */

#define CR_DIA_DEPTH_MIN 56.0  /* search band behind the nose line on the cloth plane, mm: past */
#define CR_DIA_DEPTH_MAX 165.0 /* a 2 in cushion, out to a 6 in rail plus the sights' parallax */
#define CR_DIA_MAX_PX 60000    /* window pixels at most (a larger window: the view is too close) */

typedef struct {
    int n;
    int32_t *uv;      /* pixel index v * w + u */
    double *lum, *tmp, *al, *dp; /* brightness, sort scratch, along / depth of the pixel (mm) */
    uint8_t *lab;     /* bbox-sized labels: 1 in window, 2 above threshold, 3 in the component */
    int32_t *stack;
} cr_dia_scratch_t;

static int cr_cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/* Median of n values (sorts tmp, a copy). */
static double cr_median_d(const double *v, double *tmp, int n)
{
    memcpy(tmp, v, (size_t)n * sizeof *tmp);
    qsort(tmp, (size_t)n, sizeof *tmp, cr_cmp_d);
    return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

/* Finds one sight in the window around table point (sx, sy) on the nose
 * line of the rail with outward normal (nx, ny): the blob of pixels that
 * differ most from the rail's median brightness (either sign; half of the
 * peak difference), compact, not touching the window's border; its centre
 * is the difference-weighted centroid. Writes the undistorted pixel. */
static bool cr_dia_one(const cr_calib_image_t *img, const cr_calib_result_t *res, cr_dia_scratch_t *sc, double sx,
                       double sy, double nx, double ny, double half_along, double out[2])
{
    double ax = -ny, ay = nx; /* along-rail direction */
    double cu[8][2], umin = HUGE_VAL, umax = -HUGE_VAL, vmin = HUGE_VAL, vmax = -HUGE_VAL;
    double bg, sig, pmax = 0.0, pmin = 0.0, peak, thr, sgn, su = 0.0, sv = 0.0, sw = 0.0;
    double amin = HUGE_VAL, amax = -HUGE_VAL, dmin = HUGE_VAL, dmax = -HUGE_VAL;
    int u0, u1, v0, v1, bw, bh, k, i, ipk = -1, top = 0, ncomp = 0;
    bool touches = false;

    for (k = 0; k < 8; k++) {
        double a = (k & 1 ? 1.0 : -1.0) * half_along, d = k & 2 ? CR_DIA_DEPTH_MAX : CR_DIA_DEPTH_MIN;

        if (k >= 4)
            a = 0.0, d = k & 1 ? CR_DIA_DEPTH_MAX : CR_DIA_DEPTH_MIN;
        if (!cr_calib_table_to_pixel(res, sx + a * ax + d * nx, sy + a * ay + d * ny, &cu[k][0], &cu[k][1]))
            return false;
        umin = fmin(umin, cu[k][0]), umax = fmax(umax, cu[k][0]);
        vmin = fmin(vmin, cu[k][1]), vmax = fmax(vmax, cu[k][1]);
    }
    u0 = (int)floor(umin) - 1, u1 = (int)ceil(umax) + 1, v0 = (int)floor(vmin) - 1, v1 = (int)ceil(vmax) + 1;
    if (u0 < 1 || v0 < 1 || u1 >= img->width - 1 || v1 >= img->height - 1)
        return false; /* the window leaves the image */
    bw = u1 - u0 + 1, bh = v1 - v0 + 1;
    if ((double)bw * bh > CR_DIA_MAX_PX || bw < 3 || bh < 3)
        return false;
    memset(sc->lab, 0, (size_t)bw * bh);
    sc->n = 0;
    for (int v = v0; v <= v1; v++)
        for (int u = u0; u <= u1; u++) {
            double x, y, a, d;

            if (!cr_calib_pixel_to_table(res, u, v, &x, &y))
                continue;
            a = (x - sx) * ax + (y - sy) * ay, d = (x - sx) * nx + (y - sy) * ny;
            if (fabs(a) > half_along || d < CR_DIA_DEPTH_MIN || d > CR_DIA_DEPTH_MAX)
                continue;
            sc->uv[sc->n] = v * img->width + u;
            sc->lum[sc->n] = cr_lum(img, u, v);
            sc->al[sc->n] = a, sc->dp[sc->n] = d;
            sc->lab[(size_t)(v - v0) * bw + (u - u0)] = 1;
            sc->n++;
        }
    if (sc->n < 30)
        return false;
    bg = cr_median_d(sc->lum, sc->tmp, sc->n);
    for (i = 0; i < sc->n; i++)
        sc->tmp[i] = fabs(sc->lum[i] - bg);
    sig = 1.4826 * cr_median_d(sc->tmp, sc->tmp + sc->n, sc->n);
    for (i = 0; i < sc->n; i++) {
        double dv = sc->lum[i] - bg;

        if (dv > pmax)
            pmax = dv;
        if (dv < pmin)
            pmin = dv;
    }
    sgn = pmax >= -pmin ? 1.0 : -1.0;
    peak = sgn > 0 ? pmax : -pmin;
    /* the sight must stand out of the rail's texture and noise */
    if (!(peak > 6.0 * sig + 15.0))
        return false;
    thr = 0.5 * peak;
    for (i = 0; i < sc->n; i++) {
        int u = sc->uv[i] % img->width - u0, v = sc->uv[i] / img->width - v0;

        if (sgn * (sc->lum[i] - bg) > thr) {
            sc->lab[(size_t)v * bw + u] = 2;
            if (ipk < 0 || sgn * (sc->lum[i] - bg) > sgn * (sc->lum[ipk] - bg))
                ipk = i;
        }
    }
    if (ipk < 0)
        return false;
    /* the component of the peak (8-connected) */
    {
        int u = sc->uv[ipk] % img->width - u0, v = sc->uv[ipk] / img->width - v0;

        sc->lab[(size_t)v * bw + u] = 3;
        sc->stack[top++] = v * bw + u;
    }
    while (top > 0) {
        int q = sc->stack[--top], qu = q % bw, qv = q / bw;
        double x, y, a, d;

        ncomp++;
        if (cr_calib_pixel_to_table(res, qu + u0, qv + v0, &x, &y)) {
            a = (x - sx) * ax + (y - sy) * ay, d = (x - sx) * nx + (y - sy) * ny;
            amin = fmin(amin, a), amax = fmax(amax, a), dmin = fmin(dmin, d), dmax = fmax(dmax, d);
        }
        for (int dv = -1; dv <= 1; dv++)
            for (int du = -1; du <= 1; du++) {
                int nu = qu + du, nv = qv + dv;

                if (nu < 0 || nv < 0 || nu >= bw || nv >= bh || sc->lab[(size_t)nv * bw + nu] == 0) {
                    touches = true;
                    continue;
                }
                if (sc->lab[(size_t)nv * bw + nu] == 2) {
                    sc->lab[(size_t)nv * bw + nu] = 3;
                    sc->stack[top++] = nv * bw + nu;
                }
            }
    }
    /* a sight: 25.4 x 11.1 mm (diamond) or 12.7 mm (round), a blob a few pixels
     * or more; not a ball, a cue, an arm or a graphic crossing the rail */
    if (touches || ncomp < 3 || amax - amin > 45.0 || dmax - dmin > 30.0)
        return false;
    for (i = 0; i < sc->n; i++) {
        double wgt = sgn * (sc->lum[i] - bg) - 0.2 * peak, a = sc->al[i], d = sc->dp[i];

        if (wgt <= 0.0 || a < amin - 8.0 || a > amax + 8.0 || d < dmin - 8.0 || d > dmax + 8.0)
            continue;
        su += wgt * (sc->uv[i] % img->width);
        sv += wgt * (sc->uv[i] / img->width);
        sw += wgt;
    }
    if (!(sw > 0.0))
        return false;
    return cr_calib_undistort(res, su / sw, sv / sw, &out[0], &out[1]);
}

/* Finds the diamond sights and keeps those consistent with one parallax:
 * a sight at along-rail position s maps through the cloth homography to
 * G_s = s + kappa (s - n_s), kappa = rail_h / (h - rail_h), n the camera's
 * nadir (x along the long rails, y along the end rails): linear least
 * squares on (kappa, kappa n_x, kappa n_y) with outliers (median absolute
 * residual) removed. Returns the count kept and their rms (mm). */
static int cr_find_diamonds(const cr_calib_image_t *img, const cr_table_t *t, const cr_calib_result_t *res,
                            const cr_calib_params_t *p, double px[CR_TABLE_DIAMOND_COUNT][2],
                            double along[CR_TABLE_DIAMOND_COUNT], bool lng[CR_TABLE_DIAMOND_COUNT], double *rms,
                            int *status)
{
    cr_point_t dm[CR_TABLE_DIAMOND_COUNT];
    cr_dia_scratch_t sc;
    double g[CR_TABLE_DIAMOND_COUNT], s[CR_TABLE_DIAMOND_COUNT], q[CR_TABLE_DIAMOND_COUNT][2];
    bool lg[CR_TABLE_DIAMOND_COUNT], keep[CR_TABLE_DIAMOND_COUNT];
    int nd, i, m = 0, pass, kept = 0, nlong = 0, nshort = 0;
    double sol[3] = {0.0, 0.0, 0.0}, e2 = 0.0;

    *rms = 0.0;
    *status = CR_CALIB_OK;
    memset(&sc, 0, sizeof sc);
    sc.uv = malloc(CR_DIA_MAX_PX * sizeof *sc.uv);
    sc.lum = malloc(CR_DIA_MAX_PX * sizeof *sc.lum);
    sc.tmp = malloc(2 * CR_DIA_MAX_PX * sizeof *sc.tmp);
    sc.al = malloc(CR_DIA_MAX_PX * sizeof *sc.al);
    sc.dp = malloc(CR_DIA_MAX_PX * sizeof *sc.dp);
    sc.lab = malloc(CR_DIA_MAX_PX);
    sc.stack = malloc(CR_DIA_MAX_PX * sizeof *sc.stack);
    if (!sc.uv || !sc.lum || !sc.tmp || !sc.al || !sc.dp || !sc.lab || !sc.stack) {
        *status = CR_CALIB_ERR_NOMEM;
        goto out;
    }
    nd = cr_table_diamonds(t, dm, CR_TABLE_DIAMOND_COUNT);
    for (i = 0; i < nd; i++) {
        bool is_long = dm[i].y == 0.0 || dm[i].y == t->width_mm;
        double nx = dm[i].y == 0.0 ? 0.0 : dm[i].y == t->width_mm ? 0.0 : dm[i].x == 0.0 ? -1.0 : 1.0;
        double ny = dm[i].y == 0.0 ? -1.0 : dm[i].y == t->width_mm ? 1.0 : 0.0;
        double spacing = is_long ? t->length_mm / 8.0 : t->width_mm / 4.0, x, y;

        if (!cr_dia_one(img, res, &sc, dm[i].x, dm[i].y, nx, ny, 0.3 * spacing, q[m]))
            continue;
        {
            const double *hh = res->px_to_table;
            double w = hh[6] * q[m][0] + hh[7] * q[m][1] + hh[8];

            if (fabs(w) < 1e-12)
                continue;
            x = (hh[0] * q[m][0] + hh[1] * q[m][1] + hh[2]) / w;
            y = (hh[3] * q[m][0] + hh[4] * q[m][1] + hh[5]) / w;
        }
        lg[m] = is_long;
        s[m] = is_long ? dm[i].x : dm[i].y;
        g[m] = is_long ? x : y;
        keep[m] = true;
        m++;
    }
    for (pass = 0; pass < 4; pass++) {
        double a[3][4] = {{0}}, r[CR_TABLE_DIAMOND_COUNT], tmp[2 * CR_TABLE_DIAMOND_COUNT], mad, lim;
        int nr = 0, k, j, np;

        nlong = nshort = 0;
        for (i = 0; i < m; i++)
            if (keep[i])
                lg[i] ? nlong++ : nshort++;
        np = nshort >= 2 ? 3 : 2;
        if (nlong < 4)
            break;
        /* normal equations of (G - s) = kappa s - mx [long] or - my [short] */
        for (i = 0; i < m; i++) {
            double row[3] = {s[i], lg[i] ? -1.0 : 0.0, lg[i] ? 0.0 : -1.0}, b = g[i] - s[i];

            if (!keep[i] || (np == 2 && !lg[i]))
                continue;
            for (j = 0; j < np; j++) {
                for (k = 0; k < np; k++)
                    a[j][k] += row[j] * row[k];
                a[j][3] += row[j] * b;
            }
        }
        for (j = 0; j < np; j++) { /* Gauss-Jordan on the small system */
            int piv = j;

            for (k = j + 1; k < np; k++)
                if (fabs(a[k][j]) > fabs(a[piv][j]))
                    piv = k;
            if (fabs(a[piv][j]) < 1e-12) {
                kept = 0, m = 0;
                goto out;
            }
            for (k = 0; k < 4; k++) {
                double tt = a[j][k];

                a[j][k] = a[piv][k], a[piv][k] = tt;
            }
            for (k = 0; k < np; k++) {
                double f;

                if (k == j)
                    continue;
                f = a[k][j] / a[j][j];
                for (int c = j; c < 4; c++)
                    a[k][c] -= f * a[j][c];
            }
        }
        for (j = 0; j < np; j++)
            sol[j] = a[j][3] / a[j][j];
        if (np == 2)
            sol[2] = 0.0;
        e2 = 0.0;
        for (i = 0; i < m; i++) {
            double pred = sol[0] * s[i] - (lg[i] ? sol[1] : sol[2]);

            r[i] = (g[i] - s[i]) - pred;
            if (keep[i] && (np == 3 || lg[i]))
                tmp[nr++] = fabs(r[i]), e2 += r[i] * r[i];
        }
        mad = cr_median_d(tmp, tmp + nr, nr);
        lim = fmax(4.0 * 1.4826 * mad, 1.0);
        kept = 0;
        for (i = 0; i < m; i++) {
            keep[i] = fabs(r[i]) <= lim && (np == 3 || lg[i]);
            kept += keep[i];
        }
        *rms = sqrt(e2 / (nr > 0 ? nr : 1));
    }
    /* the parallax must say the camera is above the rails, and enough
     * sights spread along the long rails must agree */
    nlong = nshort = 0;
    {
        double lo = HUGE_VAL, hi = -HUGE_VAL;

        for (i = 0; i < m; i++)
            if (keep[i] && lg[i])
                nlong++, lo = fmin(lo, s[i]), hi = fmax(hi, s[i]);
        if (kept < p->min_diamonds || nlong < 4 || hi - lo < 0.5 * t->length_mm || !(sol[0] > 0.0))
            m = 0; /* nothing kept */
    }
    kept = 0;
    for (i = 0; i < m; i++)
        if (keep[i]) {
            px[kept][0] = q[i][0], px[kept][1] = q[i][1];
            along[kept] = s[i];
            lng[kept] = lg[i];
            kept++;
        }
out:
    if (*status != CR_CALIB_OK || m == 0)
        kept = 0;
    free(sc.uv);
    free(sc.lum);
    free(sc.tmp);
    free(sc.al);
    free(sc.dp);
    free(sc.lab);
    free(sc.stack);
    return kept;
}

/* ---- balls, for the table size ---------------------------------------------------------- */

/* Point in the polygon (even-odd rule). */
static bool cr_in_poly(const double (*q)[2], int n, double u, double v)
{
    bool in = false;
    int i, j;

    for (i = 0, j = n - 1; i < n; j = i++)
        if ((q[i][1] > v) != (q[j][1] > v) &&
            u < (q[j][0] - q[i][0]) * (v - q[i][1]) / (q[j][1] - q[i][1]) + q[i][0])
            in = !in;
    return in;
}

/* Light at a sub-pixel place (bilinear), into c: each channel's level
 * decoded through lin (the sRGB curve, to linear light 0..255), in which
 * the light of a ball and of the cloth beside it mix in a pixel they
 * share; false outside. */
static bool cr_rgb_at(const cr_calib_image_t *img, const double *lin, double u, double v, double c[3])
{
    int iu = (int)floor(u), iv = (int)floor(v), k;
    double fu = u - iu, fv = v - iv;

    if (iu < 0 || iv < 0 || iu + 1 >= img->width || iv + 1 >= img->height)
        return false;
    for (k = 0; k < 3; k++)
        c[k] = (1.0 - fv) * ((1.0 - fu) * lin[cr_px(img, iu, iv)[k]] + fu * lin[cr_px(img, iu + 1, iv)[k]]) +
               fv * ((1.0 - fu) * lin[cr_px(img, iu, iv + 1)[k]] + fu * lin[cr_px(img, iu + 1, iv + 1)[k]]);
    return true;
}

#define CR_SPHERE_RAYS 48

/* Distance from p to the line through c along the unit vector d. */
static double cr_ray_dist(const double p[3], const double c[3], const double d[3])
{
    double q[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]}, a = q[0] * d[0] + q[1] * d[1] + q[2] * d[2];

    return sqrt(fmax(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] - a * a, 0.0));
}

/* Where a ray's profile crosses a ball's outline: the samples pr (linear
 * light) at radii rr (px from the ball's centre) told as the image of a
 * sphere of radius e beside flat cloth, blurred by the pixel and the lens (a
 * Gaussian of sigma 0.2 to 0.9 px, fitted): inside, a * sqrt(1 - (x / e)^2)
 * + b * x / e + k (a diffuse sphere's limb darkening toward its outline
 * under light from above, light from aside, and what reaches its side),
 * outside c; a, b, k and c per channel by least squares for each e within
 * 1.5 px of e0 and each blur, the e of the least residual refined between
 * its neighbours. The brightness's own edge lies inside the outline: the
 * last pixel of a ball lit from above is dark. False when the best e lies
 * at the search's end. */
static bool cr_limb_fit(const double *rr, const double (*pr)[3], int np, double e0, double *edge)
{
    enum { NE = 61, NB = 4, NS = 8 };
    const double de = 0.05;
    double cost[NS][NE], gw[NS][31], gsum[NS];
    int ie, is, best = -1, bs = 0; /* the best edge and blur */

    if (np < 10)
        return false;
    for (is = 0; is < NS; is++) { /* the blur's weights at 0.1 px */
        const double sig = 0.2 + 0.1 * is;
        int q;

        gsum[is] = 0.0;
        for (q = 0; q < 31; q++)
            gsum[is] += gw[is][q] = exp(-0.5 * (0.1 * (q - 15)) * (0.1 * (q - 15)) / (sig * sig));
    }
    for (ie = 0; ie < NS * NE; ie++) {
        const int isg = ie / NE, iedge = ie % NE;
        const double sig = 0.2 + 0.1 * isg, e = e0 - 1.5 + iedge * de;
        double M[NB][NB] = {{0}}, V[NB][3] = {{0}}, ss = 0.0, bas[64][NB];
        int i, j, c, q;

        for (i = 0; i < np; i++) {
            double sq = 0.0, ln = 0.0, wsum = gsum[isg], in = 0.5 * erfc((rr[i] - e) / (sig * 1.4142135623730951));

            for (q = -15; q <= 15; q++) { /* the limb blurred */
                double x = rr[i] + 0.1 * q;

                if (x >= e)
                    break;
                sq += gw[isg][q + 15] * sqrt(fmax(0.0, 1.0 - (x / e) * (x / e)));
                ln += gw[isg][q + 15] * (x / e);
            }
            bas[i][0] = sq / wsum, bas[i][1] = ln / wsum, bas[i][2] = in, bas[i][3] = 1.0 - in;
            for (j = 0; j < NB; j++) {
                for (q = 0; q < NB; q++)
                    M[j][q] += bas[i][j] * bas[i][q];
                for (c = 0; c < 3; c++)
                    V[j][c] += bas[i][j] * pr[i][c];
            }
        }
        /* a, b, k, c of the three channels at once */
        {
            double A[NB][NB + 3];

            for (j = 0; j < NB; j++) {
                for (q = 0; q < NB; q++)
                    A[j][q] = M[j][q];
                for (c = 0; c < 3; c++)
                    A[j][NB + c] = V[j][c];
            }
            if (!cr_calib_solve_rows(&A[0][0], NB, NB + 3)) {
                cost[isg][iedge] = HUGE_VAL;
                continue;
            }
            for (c = 0; c < 3; c++)
                for (i = 0; i < np; i++) {
                    double f = -pr[i][c];

                    for (j = 0; j < NB; j++)
                        f += A[j][NB + c] * bas[i][j];
                    ss += f * f;
                }
        }
        cost[isg][iedge] = ss;
        if (best < 0 || ss < cost[bs][best])
            best = iedge, bs = isg;
    }
    if (best <= 0 || best >= NE - 1)
        return false;
    {
        const double *cs = cost[bs];
        double den = cs[best - 1] - 2.0 * cs[best] + cs[best + 1];

        *edge = e0 - 1.5 + de * (best + (den > 0.0 ? 0.5 * (cs[best - 1] - cs[best + 1]) / den : 0.0));
    }
    return true;
}

/* The diameter of a ball from its outline and the posed camera, in table
 * mm of the camera's table: on each of CR_SPHERE_RAYS rays from the blob's
 * centre (cu, cv), the strongest colour edge in linear light (lin: the
 * sRGB levels decoded) between 0.6 and 1.5 times its radius rp (px), placed
 * on the outline by the limb's model (cr_limb_fit); the rays from the
 * camera through those edges are tangent to the ball, a sphere standing on
 * the cloth (its centre as high as its radius), which a robust
 * Gauss-Newton fit finds. No colour threshold and no flat-disc model: the
 * outline of a sphere seen off the vertical is longer away from the
 * camera's foot, and the fit knows it. False when too few edges agree
 * (within a tenth of the radius: a shadow's edge, a ball touching). */
static bool cr_ball_sphere(const cr_calib_image_t *img, const double *lin, const cr_camera_t *cam, double cu,
                           double cv, double rp, double *diam_mm)
{
    double dir[CR_SPHERE_RAYS][3], p[3], res_k[CR_SPHERE_RAYS], wk[CR_SPHERE_RAYS], mm_px;
    int k, n = 0, it, n_in = 0;

    /* the limb is fitted over 3 px inside the edge: in a smaller ball that
     * is more than its outer half (640x360 frames of a 9 ft table: 4 px) */
    if (rp < 6.0)
        return false;
    for (k = 0; k < CR_SPHERE_RAYS; k++) {
        const double a = 2.0 * 3.14159265358979323846 * k / CR_SPHERE_RAYS, ca = cos(a), sa = sin(a), step = 0.25;
        const double r0 = 0.6 * rp, r1 = 1.5 * rp;
        /* the profile in linear light, sampled once: sample j at r0 + (j - 12) step,
         * from 3 px inside the search to 2.5 px beyond it (the limb's window) */
        enum { LIMB_IN = 12, LIMB_N = 23 };
        double prof[128 + LIMB_N][3], g[128], rr[LIMB_N], pr[LIMB_N][3], best = 0.0, e;
        bool ok[128 + LIMB_N];
        int m = (int)((r1 - r0) / step), i, ib = -1, np = 0;

        if (m > 128)
            m = 128;
        for (i = 0; i < m + LIMB_N - 1; i++) {
            const double r = r0 + (i - LIMB_IN) * step;

            ok[i] = cr_rgb_at(img, lin, cu + r * ca, cv + r * sa, prof[i]);
        }
        /* the colour difference across one pixel of the ray, at r0 + i step */
        for (i = 0; i < m; i++) {
            const double *c0 = prof[i + LIMB_IN - 2], *c1 = prof[i + LIMB_IN + 2];
            double x, y, z;

            g[i] = 0.0;
            if (!ok[i + LIMB_IN - 2] || !ok[i + LIMB_IN + 2])
                continue;
            x = c1[0] - c0[0], y = c1[1] - c0[1], z = c1[2] - c0[2];
            g[i] = sqrt(x * x + y * y + z * z);
            if (g[i] > best)
                best = g[i], ib = i;
        }
        if (ib <= 0 || ib >= m - 1 || best < 4.0) /* no edge: 4 levels of linear light a pixel */
            continue;
        /* the silhouette where the profile around that edge is best told by
         * a lit sphere's limb beside flat cloth */
        for (i = 0; i < LIMB_N; i++) {
            const double r = r0 + ib * step - 3.0 + i * step;

            if (r > r0 + ib * step + 2.5)
                break;
            if (ok[ib + i]) {
                rr[np] = r;
                memcpy(pr[np++], prof[ib + i], sizeof prof[ib + i]);
            }
        }
        if (!cr_limb_fit(rr, (const double(*)[3])pr, np, r0 + ib * step, &e))
            continue;
        if (!cr_camera_ray(cam, cu + e * ca, cv + e * sa, dir[n]))
            continue;
        {
            double l = sqrt(dir[n][0] * dir[n][0] + dir[n][1] * dir[n][1] + dir[n][2] * dir[n][2]);

            dir[n][0] /= l, dir[n][1] /= l, dir[n][2] /= l;
        }
        n++;
    }
    if (n < CR_SPHERE_RAYS / 2)
        return false;
    /* start: a ball of the nominal size under the blob's centre */
    p[2] = CR_BALL_RADIUS_MM;
    if (!cr_camera_unproject_plane(cam, cu, cv, p[2], &p[0], &p[1]))
        return false;
    {
        double x1, y1;

        if (!cr_camera_unproject_plane(cam, cu + 1.0, cv, p[2], &x1, &y1))
            return false;
        mm_px = hypot(x1 - p[0], y1 - p[1]);
    }
    for (k = 0; k < n; k++)
        wk[k] = 1.0;
    for (it = 0; it < 12; it++) {
        /* Gauss-Newton on (x, y, rho), centre at z = rho: residual dist - rho */
        double A[3][4] = {{0}}, h = 1e-3;
        int i, j;

        for (k = 0; k < n; k++) {
            double f0, J[3];

            if (wk[k] <= 0.0)
                continue;
            f0 = cr_ray_dist(p, cam->pos, dir[k]) - p[2];
            for (i = 0; i < 3; i++) {
                double q[3] = {p[0], p[1], p[2]};

                q[i] += h;
                J[i] = (cr_ray_dist(q, cam->pos, dir[k]) - q[2] - f0) / h;
            }
            for (i = 0; i < 3; i++) {
                for (j = 0; j < 3; j++)
                    A[i][j] += wk[k] * J[i] * J[j];
                A[i][3] -= wk[k] * J[i] * f0;
            }
        }
        if (!cr_calib_solve_rows(&A[0][0], 3, 4))
            return false;
        for (i = 0; i < 3; i++)
            p[i] += A[i][3];
        if (!(p[2] > 5.0 && p[2] < 100.0))
            return false;
        /* Tukey weights at a scale shrinking to a tenth of the radius */
        {
            double c = (it < 4 ? 0.3 : 0.1) * p[2];

            for (k = 0; k < n; k++) {
                double u;

                res_k[k] = cr_ray_dist(p, cam->pos, dir[k]) - p[2];
                u = res_k[k] / c;
                wk[k] = fabs(u) < 1.0 ? (1.0 - u * u) * (1.0 - u * u) : 0.0;
            }
        }
    }
    for (k = 0; k < n; k++)
        n_in += fabs(res_k[k]) < fmax(0.1 * p[2], mm_px);
    if (n_in < CR_SPHERE_RAYS / 2)
        return false;
    *diam_mm = 2.0 * p[2];
    return true;
}

/* The apparent diameter of the balls on the bed, in table mm of t: the
 * blobs of non-cloth pixels inside the bed (60 mm in from the noses) that
 * are round (filling pi/4 of their box, the box square within 25%),
 * measured through the homography; the lower third over them. Balls stand on
 * the cloth, so their outline maps R h / (h - R) wide, about 1% more than
 * 2 R for a camera 3 m up. Uses the bed region of the mask (value 2),
 * with the pixels of the image that pass the cloth test of p added;
 * marks the blobs visited with 3. */
static void cr_measure_balls(cr_calib_ctx_t *cx, const cr_table_t *t, const cr_calib_params_t *p, cr_calib_result_t *res)
{
    const int per = 8, w = cx->img->width, h = cx->img->height;
    double poly[32][2], d[64], umin = HUGE_VAL, umax = -HUGE_VAL, vmin = HUGE_VAL, vmax = -HUGE_VAL;
    double L = t->length_mm, W = t->width_mm, m = 60.0, ds[64];
    int k, n = 0, u, v, ns = 0;
    const bool spheres = p->size_balls && res->camera_source != CR_CALIB_CAMERA_NONE;
    double lin[256]; /* sRGB levels to linear light, 0..255 */

    for (k = 0; spheres && k < 256; k++) {
        double x = k / 255.0;

        lin[k] = 255.0 * (x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4));
    }

    res->ball_diameter_mm = 0.0;
    res->n_balls_measured = 0;
    res->ball_size_mm = 0.0;
    res->n_balls_sized = 0;
    for (k = 0; k < 4 * per; k++) { /* the inset outline, 8 points a side, in (distorted) pixels */
        int sd = k / per;
        double f = (double)(k % per) / per, x, y;

        x = sd == 0 ? m + f * (L - 2 * m) : sd == 1 ? L - m : sd == 2 ? L - m - f * (L - 2 * m) : m;
        y = sd == 0 ? m : sd == 1 ? m + f * (W - 2 * m) : sd == 2 ? W - m : W - m - f * (W - 2 * m);
        if (!cr_calib_table_to_pixel(res, x, y, &poly[k][0], &poly[k][1]))
            return;
        umin = fmin(umin, poly[k][0]), umax = fmax(umax, poly[k][0]);
        vmin = fmin(vmin, poly[k][1]), vmax = fmax(vmax, poly[k][1]);
    }
    /* the blobs' outlines on the image itself with the tolerances given: the
     * bed mask was made on a smoothed image, whose blobs are a pixel wider */
    for (v = (int)fmax(1.0, vmin); v <= (int)fmin(h - 2.0, vmax); v++)
        for (u = (int)fmax(1.0, umin); u <= (int)fmin(w - 2.0, umax); u++)
            if (cx->mask[(size_t)v * w + u] < 2 &&
                cr_is_cloth_at(cx->img, cx->light, cr_px(cx->img, u, v), cx->ref_chroma, cx->ref_sum, p, u, v))
                cx->mask[(size_t)v * w + u] = 2;
    for (v = (int)fmax(1.0, vmin); v <= (int)fmin(h - 2.0, vmax) && n < 64; v++)
        for (u = (int)fmax(1.0, umin); u <= (int)fmin(w - 2.0, umax) && n < 64; u++) {
            size_t id = (size_t)v * w + u;
            int cnt = 0, b[4] = {u, u, v, v};
            size_t top = 0;
            bool outside = false;
            double rgb[3] = {0.0, 0.0, 0.0};

            if (cx->mask[id] >= 2 || !cr_in_poly((const double(*)[2])poly, 4 * per, u, v))
                continue;
            cx->mask[id] = 3;
            cx->stack[top++] = (int32_t)id;
            while (top > 0) {
                int32_t q = cx->stack[--top];
                int qu = q % w, qv = q / w, j;
                static const int nb[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

                cnt++;
                for (j = 0; j < 3; j++)
                    rgb[j] += cr_px(cx->img, qu, qv)[j];
                if (qu < b[0]) b[0] = qu;
                if (qu > b[1]) b[1] = qu;
                if (qv < b[2]) b[2] = qv;
                if (qv > b[3]) b[3] = qv;
                for (j = 0; j < 4; j++) {
                    int nu = qu + nb[j][0], nv = qv + nb[j][1];
                    size_t nid;

                    if (nu < 1 || nv < 1 || nu >= w - 1 || nv >= h - 1) {
                        outside = true;
                        continue;
                    }
                    nid = (size_t)nv * w + nu;
                    if (cx->mask[nid] < 2) {
                        cx->mask[nid] = 3;
                        cx->stack[top++] = (int32_t)nid;
                    }
                }
            }
            {
                double bw = b[1] - b[0] + 1.0, bh = b[3] - b[2] + 1.0, fill = cnt / (bw * bh), dp, cu, cv;
                double x0, y0, x1, y1, x2, y2, x3, y3;

                if (outside || cnt < 12 || bw / bh > 1.25 || bh / bw > 1.25 || fill < 0.68 || fill > 0.88)
                    continue;
                { /* a ball in the cloth's colour (a maroon ball on burgundy) shows only
                   * its shaded rim and highlight: too small, not measured */
                    double sum = rgb[0] + rgb[1] + rgb[2], d2 = 0.0, l[4];
                    const double *ref = cx->ref_chroma;
                    int c;

                    if (cr_light_at(cx->light, w, h, 0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3]), l))
                        ref = l + 1;
                    for (c = 0; c < 3 && sum > 0.0; c++)
                        d2 += (rgb[c] / sum - ref[c]) * (rgb[c] / sum - ref[c]);
                    if (sum <= 0.0 || d2 < 0.08 * 0.08)
                        continue;
                }
                if (!cr_in_poly((const double(*)[2])poly, 4 * per, b[0], b[2]) ||
                    !cr_in_poly((const double(*)[2])poly, 4 * per, b[1], b[3]))
                    continue;
                dp = 2.0 * sqrt(cnt / 3.14159265358979323846);
                cu = 0.5 * (b[0] + b[1]), cv = 0.5 * (b[2] + b[3]);
                if (!cr_calib_pixel_to_table(res, cu - dp / 2, cv, &x0, &y0) ||
                    !cr_calib_pixel_to_table(res, cu + dp / 2, cv, &x1, &y1) ||
                    !cr_calib_pixel_to_table(res, cu, cv - dp / 2, &x2, &y2) ||
                    !cr_calib_pixel_to_table(res, cu, cv + dp / 2, &x3, &y3))
                    continue;
                d[n] = 0.5 * (hypot(x1 - x0, y1 - y0) + hypot(x3 - x2, y3 - y2));
                if (d[n] > 30.0 && d[n] < 120.0) {
                    n++;
                    if (spheres && ns < 64 && cr_ball_sphere(cx->img, lin, &res->camera, cu, cv, 0.5 * dp, &ds[ns]) &&
                        ds[ns] > 30.0 && ds[ns] < 120.0)
                        ns++;
                }
            }
        }
    if (n > 0) {
        /* blobs only grow by what touches them (a shadow, the cue's tip, a
         * ball near by): the lower third is the least contaminated */
        qsort(d, (size_t)n, sizeof d[0], cr_cmp_d);
        res->ball_diameter_mm = d[(n - 1) / 3];
        res->n_balls_measured = n;
    }
    if (ns > 0) {
        /* each fit has set aside the edges that were not its ball's: the median */
        qsort(ds, (size_t)ns, sizeof ds[0], cr_cmp_d);
        res->ball_size_mm = ns % 2 ? ds[ns / 2] : 0.5 * (ds[ns / 2 - 1] + ds[ns / 2]);
        res->n_balls_sized = ns;
    }
}

/* ---- the head end, from a rack ------------------------------------------------------- */

/* Per-cluster moments over the grid cells (table mm). */
typedef struct {
    double n, sx, sy, sxx, syy, sxy;
    double gap[2];  /* nearest cell to each candidate spot (0: foot 3L/4, 1: the other end's L/4), mm */
    bool border;    /* reaches the band along the cushions */
} cr_rack_blob_t;

/* A cluster's spread (trace tr of its cells' second moments, mm^2, the
 * balls' footprints d mm across included) over that of a frozen rack of
 * game g (its ball centres from cr_table_rack, each a disc of 2 R: R^2 / 4
 * an axis); 0 when there is no such rack. */
static double cr_rack_scale(const cr_table_t *t, cr_game_t g, double tr, double d)
{
    cr_ball_pos_t pos[CR_TABLE_RACK_MAX];
    double mx = 0.0, my = 0.0, v = 0.0, nom;
    int n = cr_table_rack(t, g, CR_EDITION_WPA2008, 0, pos, CR_TABLE_RACK_MAX), k;

    if (n <= 0 || !(tr > 0.0))
        return 0.0;
    for (k = 0; k < n; k++)
        mx += pos[k].x / n, my += pos[k].y / n;
    for (k = 0; k < n; k++)
        v += ((pos[k].x - mx) * (pos[k].x - mx) + (pos[k].y - my) * (pos[k].y - my)) / n;
    /* the footprints: each ball's own disc, measured (d) in tr, nominal (2 R) here */
    nom = v + 0.5 * t->ball_radius_mm * t->ball_radius_mm;
    tr -= 0.125 * d * d - 0.5 * t->ball_radius_mm * t->ball_radius_mm;
    return tr > 0.0 ? sqrt(tr / nom) : 0.0;
}

/* Which rack a cluster is and its scale (out->game, out->scale): l1, l2 the
 * eigenvalues and tr the trace of its cells' second moments, n_balls its
 * area over one ball's footprint d (table mm of res). A diamond (2 to 3.6:1;
 * 2.7 frozen) is 9-ball. A 10- and a 15-ball triangle are one shape at two
 * scales (the 15 is the 10 1.23 times larger), and four balls left of a
 * broken rack make a diamond 0.69 times a 9-ball one: so a rack is read
 * only with a ball seen apart (the cue ball: res->ball_diameter_mm, one
 * ball or more) to say how large a ball is: the game whose frozen lattice,
 * scaled to the cluster's spread, has balls of that size (within 11 %,
 * halfway between a 10- and a 15-ball triangle); with none seen
 * apart, no scale (a 10-ball rack on a 9 ft table and a 15-ball one on a
 * 1033 mm wide table look alike, and a rack's spread errs by up to 4 %:
 * the standard sizes cannot tell them apart either). The scale then holds
 * only when the cluster is that rack's balls and nothing more or less:
 * their count by area (at the scale found) within 15 % of the game's (a
 * shadow cast aside by a low lamp, a ball of the cloth's colour unseen, a
 * hand beside it: the lattice is not the rack's). */
static void cr_rack_read(const cr_table_t *t, const cr_calib_result_t *res, double l1, double l2, double tr,
                         double n_balls, double d, cr_calib_rack_t *out)
{
    const double two_r = 2.0 * t->ball_radius_mm, seen = res->n_balls_measured >= 1 ? res->ball_diameter_mm : 0.0;
    double nb, sc = 0.0;

    out->scale = 0.0;
    if (l1 >= 2.0 * l2 && l1 <= 3.6 * l2) {
        out->game = CR_GAME_9BALL;
        sc = cr_rack_scale(t, CR_GAME_9BALL, tr, d);
        if (!(seen > 0.0 && sc > 0.0) || fabs(log(seen / (sc * two_r))) > log(1.11))
            sc = 0.0; /* four balls left of a broken rack are a diamond too, 0.69 times the size */
    } else if (l1 <= 1.35 * l2) {
        double s10 = cr_rack_scale(t, CR_GAME_10BALL, tr, d), s15 = cr_rack_scale(t, CR_GAME_8BALL, tr, d);

        out->game = n_balls < 12.5 ? CR_GAME_10BALL : CR_GAME_8BALL; /* a guess, when no ball says */
        if (seen > 0.0 && s10 > 0.0 && s15 > 0.0) {
            double e10 = fabs(log(seen / (s10 * two_r))), e15 = fabs(log(seen / (s15 * two_r)));

            out->game = e10 <= e15 ? CR_GAME_10BALL : CR_GAME_8BALL;
            if (fmin(e10, e15) <= log(1.11))
                sc = out->game == CR_GAME_10BALL ? s10 : s15;
        }
    } else {
        out->game = CR_GAME_NONE;
        return;
    }
    /* the count by area: the footprint d against a ball of the scale found */
    nb = out->game == CR_GAME_9BALL ? 9.0 : out->game == CR_GAME_10BALL ? 10.0 : 15.0;
    if (sc > 0.0 && fabs(n_balls * d * d / (nb * (sc * two_r) * (sc * two_r)) - 1.0) <= 0.15)
        out->scale = sc;
}

int cr_calib_rack_find(const cr_calib_image_t *img, const cr_table_t *t, const cr_calib_params_t *p,
                       const cr_calib_result_t *res, cr_calib_rack_t *out)
{
    const double pi = 3.14159265358979323846;
    double d, s, m, ref_chroma[3], ref_sum, a_ball, spot[2][2], best_n = 0.0;
    uint8_t *obj = NULL;
    int32_t *stack = NULL;
    int nx, ny, i, j, k, rg, w, h, found[2] = {0, 0}, status = CR_CALIB_OK;
    size_t ncell;

    if (!out)
        return CR_CALIB_ERR_INVALID;
    memset(out, 0, sizeof *out);
    if (!img || !t || !p || !res || !img->rgb || img->width < 16 || img->height < 16 || img->stride < 3 * img->width ||
        res->status != CR_CALIB_OK || !(t->length_mm > 0.0) || !(t->width_mm > 0.0) || !(p->rack_gap >= 0.0) ||
        !(p->rack_spot_tol >= 0.0))
        return CR_CALIB_ERR_INVALID;
    w = img->width, h = img->height;
    /* one ball's apparent diameter in table mm: measured on the isolated balls
     * when at least two agree on it (blur, shadow and the balls' height
     * included) and it is plausible (0.75 to 1.5 times 2 R: a smaller table
     * taken for t looks up to 1.3 times larger), else 2 R */
    d = 2.0 * t->ball_radius_mm;
    if (res->n_balls_measured >= 2 && res->ball_diameter_mm >= 0.75 * d && res->ball_diameter_mm <= 1.5 * d)
        d = res->ball_diameter_mm;
    a_ball = 0.25 * pi * d * d;
    s = d / 8.0, m = d;
    nx = (int)((t->length_mm - 2.0 * m) / s), ny = (int)((t->width_mm - 2.0 * m) / s);
    if (nx < 8 || ny < 8)
        return CR_CALIB_ERR_INVALID;
    ncell = (size_t)nx * (size_t)ny;
    ref_sum = (double)res->cloth_rgb[0] + res->cloth_rgb[1] + res->cloth_rgb[2];
    if (ref_sum <= 0.0)
        return CR_CALIB_ERR_INVALID;
    for (k = 0; k < 3; k++)
        ref_chroma[k] = res->cloth_rgb[k] / ref_sum;
    spot[0][0] = 0.75 * t->length_mm, spot[1][0] = 0.25 * t->length_mm;
    spot[0][1] = spot[1][1] = 0.5 * t->width_mm;
    obj = malloc(ncell);
    stack = malloc(ncell * sizeof *stack);
    if (!obj || !stack) {
        status = CR_CALIB_ERR_NOMEM;
        goto out;
    }
    /* 1: object cells (not cloth); 0: cloth or not in the image */
    for (j = 0; j < ny; j++)
        for (i = 0; i < nx; i++) {
            double u, v;
            int iu, iv;

            obj[(size_t)j * nx + i] = 0;
            if (!cr_calib_table_to_pixel(res, m + (i + 0.5) * s, m + (j + 0.5) * s, &u, &v))
                continue;
            iu = (int)lround(u), iv = (int)lround(v);
            if (iu < 0 || iv < 0 || iu >= w || iv >= h)
                continue;
            obj[(size_t)j * nx + i] = !cr_is_cloth_at(img, (const cr_light_grid_t *)res->cloth_light, cr_px(img, iu, iv),
                                                      ref_chroma, ref_sum, p, iu, iv);
        }
    /* clusters: object cells within rack_gap diameters of each other (2: visited) */
    rg = (int)fmax(1.0, ceil(p->rack_gap * d / s)); /* touching cells at least */
    for (j = 0; j < ny; j++)
        for (i = 0; i < nx; i++) {
            cr_rack_blob_t b;
            size_t top = 0;
            double cx, cy, vxx, vyy, vxy, tr, det, l1, l2, n_balls;
            int e;

            if (obj[(size_t)j * nx + i] != 1)
                continue;
            memset(&b, 0, sizeof b);
            b.gap[0] = b.gap[1] = HUGE_VAL;
            obj[(size_t)j * nx + i] = 2;
            stack[top++] = (int32_t)((size_t)j * nx + i);
            while (top > 0) {
                int32_t q = stack[--top];
                int qi = q % nx, qj = q / nx, di, dj;
                double x = m + (qi + 0.5) * s, y = m + (qj + 0.5) * s;

                b.n += 1.0, b.sx += x, b.sy += y, b.sxx += x * x, b.syy += y * y, b.sxy += x * y;
                for (e = 0; e < 2; e++)
                    b.gap[e] = fmin(b.gap[e], fmax(0.0, hypot(x - spot[e][0], y - spot[e][1]) - 0.5 * s));
                if (qi == 0 || qj == 0 || qi == nx - 1 || qj == ny - 1)
                    b.border = true;
                for (dj = -rg; dj <= rg; dj++)
                    for (di = -rg; di <= rg; di++) {
                        int ni = qi + di, nj = qj + dj;
                        size_t id;

                        if (ni < 0 || nj < 0 || ni >= nx || nj >= ny || (di * di + dj * dj) * s * s > (rg * s) * (rg * s))
                            continue;
                        id = (size_t)nj * nx + ni;
                        if (obj[id] == 1) {
                            obj[id] = 2;
                            stack[top++] = (int32_t)id;
                        }
                    }
            }
            n_balls = b.n * s * s / a_ball;
            if (b.border || n_balls < p->rack_min_balls - 0.5 || n_balls > 30.0)
                continue;
            /* compact: the second moments within 2.5:1 (a line of three balls is
             * 3.4:1, a cue far more), and the area at least a third of that of the
             * disc with the same polar moment (radius^2 = 2 trace; a disc fills
             * all of it, a triangle 0.83, a 2.5:1 rectangle 0.66; spread or
             * branching shapes, a hand, less) */
            cx = b.sx / b.n, cy = b.sy / b.n;
            vxx = b.sxx / b.n - cx * cx, vyy = b.syy / b.n - cy * cy, vxy = b.sxy / b.n - cx * cy;
            tr = vxx + vyy, det = vxx * vyy - vxy * vxy;
            l1 = 0.5 * tr + sqrt(fmax(0.0, 0.25 * tr * tr - det)), l2 = 0.5 * tr - sqrt(fmax(0.0, 0.25 * tr * tr - det));
            if (!(l2 > 0.0) || l1 > 2.5 * 2.5 * l2)
                continue;
            if (b.n * s * s < (1.0 / 3.0) * pi * 2.0 * tr)
                continue;
            out->n_clusters++;
            for (e = 0; e < 2; e++) {
                /* over the spot, centred on the long string, not in front of the spot
                 * (in front: toward that end's head; the foot rail is beyond it) */
                double ahead = e == 0 ? spot[e][0] - cx : cx - spot[e][0];

                if (b.gap[e] <= p->rack_spot_tol * d && fabs(cy - spot[e][1]) <= p->rack_spot_tol * d &&
                    ahead <= p->rack_spot_tol * d) {
                    found[e]++;
                    if (n_balls > best_n) {
                        double uc, vc, ut, vt;

                        best_n = n_balls;
                        out->n_balls = n_balls;
                        cr_rack_read(t, res, l1, l2, tr, n_balls, d, out);
                        out->centre_mm[0] = cx, out->centre_mm[1] = cy;
                        out->spot_gap_mm = b.gap[e];
                        if (cr_calib_table_to_pixel(res, cx, cy, &uc, &vc) &&
                            cr_calib_table_to_pixel(res, 0.5 * t->length_mm, 0.5 * t->width_mm, &ut, &vt))
                            out->on_image_right = uc > ut;
                    }
                }
            }
        }
    out->where = found[0] && found[1] ? CR_CALIB_RACK_BOTH
                 : found[0]           ? CR_CALIB_RACK_AT_FOOT
                 : found[1]           ? CR_CALIB_RACK_AT_HEAD
                                      : CR_CALIB_RACK_NONE;
out:
    free(obj);
    free(stack);
    return status;
}

int cr_calib_result_flip_head(cr_calib_result_t *res, const cr_table_t *t)
{
    double c[4][2], f[9], a[9];
    int k, i;

    if (!res || !t || res->status != CR_CALIB_OK)
        return CR_CALIB_ERR_INVALID;
    memcpy(c, res->corners_px, sizeof c);
    for (k = 0; k < 4; k++) /* head-left <- foot-right, head-right <- foot-left, ... */
        res->corners_px[k][0] = c[(k + 2) % 4][0], res->corners_px[k][1] = c[(k + 2) % 4][1];
    /* F: (x, y) -> (L - x, W - y), its own inverse; table_to_px F and F px_to_table */
    memset(f, 0, sizeof f);
    f[0] = -1.0, f[2] = t->length_mm, f[4] = -1.0, f[5] = t->width_mm, f[8] = 1.0;
    memcpy(a, res->table_to_px, sizeof a);
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++)
            res->table_to_px[3 * i + k] = a[3 * i] * f[k] + a[3 * i + 1] * f[3 + k] + a[3 * i + 2] * f[6 + k];
    memcpy(a, res->px_to_table, sizeof a);
    for (i = 0; i < 3; i++)
        for (k = 0; k < 3; k++)
            res->px_to_table[3 * i + k] = f[3 * i] * a[k] + f[3 * i + 1] * a[3 + k] + f[3 * i + 2] * a[6 + k];
    for (i = 0; i < 2; i++) { /* H[8] = 1, as cr_calib_homography4 leaves them */
        double *hm = i ? res->px_to_table : res->table_to_px, s = hm[8];

        if (fabs(s) > 1e-12)
            for (k = 0; k < 9; k++)
                hm[k] /= s;
    }
    /* the camera: X_cam = rot (x - pos, y - pos, -(z - pos)); with x = L - x'
     * the first two table columns of rot change sign */
    if (res->camera_source != CR_CALIB_CAMERA_NONE) {
        res->camera.pos[0] = t->length_mm - res->camera.pos[0];
        res->camera.pos[1] = t->width_mm - res->camera.pos[1];
        for (i = 0; i < 3; i++)
            res->camera.rot[3 * i] = -res->camera.rot[3 * i], res->camera.rot[3 * i + 1] = -res->camera.rot[3 * i + 1];
    }
    res->head_on_right = !res->head_on_right;
    if (res->rack.where == CR_CALIB_RACK_AT_FOOT || res->rack.where == CR_CALIB_RACK_AT_HEAD)
        res->rack.where = res->rack.where == CR_CALIB_RACK_AT_FOOT ? CR_CALIB_RACK_AT_HEAD : CR_CALIB_RACK_AT_FOOT;
    if (res->rack.n_balls > 0.0)
        res->rack.centre_mm[0] = t->length_mm - res->rack.centre_mm[0],
        res->rack.centre_mm[1] = t->width_mm - res->rack.centre_mm[1];
    return CR_CALIB_OK;
}

void cr_calib_head_describe(cr_calib_result_t *res)
{
    const char *side;

    if (!res)
        return;
    side = res->head_on_right ? "right" : "left";
    if (res->head_source == CR_CALIB_HEAD_GIVEN)
        snprintf(res->head_why, sizeof res->head_why, "given: image %s", side);
    else if (res->head_source == CR_CALIB_HEAD_RACK)
        snprintf(res->head_why, sizeof res->head_why,
                 "rack of about %.0f balls around the foot spot at the image %s", res->rack.n_balls,
                 res->rack.on_image_right ? "right" : "left");
    else
        snprintf(res->head_why, sizeof res->head_why, "default: image %s (%s)", side,
                 res->rack.where == CR_CALIB_RACK_BOTH ? "racks at both ends: ambiguous" : "no rack seen");
}

int cr_calib_camera_estimate(const cr_calib_image_t *img, const cr_table_t *t, const cr_calib_params_t *p,
                             cr_calib_result_t *res)
{
    double dpx[CR_TABLE_DIAMOND_COUNT][2], dal[CR_TABLE_DIAMOND_COUNT], drms = 0.0;
    bool dlong[CR_TABLE_DIAMOND_COUNT];
    int nd, st;

    if (!res)
        return CR_CALIB_ERR_INVALID;
    if (!img || !t || !p || !img->rgb || img->width < 16 || img->height < 16 || img->stride < 3 * img->width ||
        res->status != CR_CALIB_OK)
        return cr_fail(res, CR_CALIB_ERR_INVALID, NULL);
    nd = cr_find_diamonds(img, t, res, p, dpx, dal, dlong, &drms, &st);
    if (st != CR_CALIB_OK)
        return cr_fail(res, st, "diamond sights");
    /* the sights' scatter, at least 0.3 mm and a third of a pixel on the cloth
     * (a sight is a few pixels across in a small frame) */
    {
        double mm_px = t->length_mm / fmax(1.0, hypot(res->corners_px[3][0] - res->corners_px[0][0],
                                                      res->corners_px[3][1] - res->corners_px[0][1]));

        drms = fmax(drms, fmax(0.3, mm_px / 3.0));
    }
    st = cr_calib_camera_fit(res, img->width, img->height, p, (const double(*)[2])dpx, dal, dlong, nd, drms);
    if (st != CR_CALIB_OK)
        return cr_fail(res, st, "no camera above the cloth reproduces the outline");
    return CR_CALIB_OK;
}

/* ---- the detector --------------------------------------------------------------------- */

/* The outline from res->lines (undistorted px, distortion dm): corners in
 * SPEC §5 order, the homographies, and (params.estimate_camera) the posed
 * camera with its sanity checks. Returns CR_CALIB_OK or the failure,
 * res->message saying why. */
static int cr_outline(const cr_calib_image_t *img, const cr_table_t *t, const cr_calib_params_t *p, const cr_dist_t *dm,
                      size_t npx, cr_calib_result_t *res)
{
    /* corners (SPEC §5 order) and the homography, in undistorted pixels */
    {
        static const int head_left[4][2] = {{CR_CALIB_SIDE_LEFT, CR_CALIB_SIDE_TOP},
                                            {CR_CALIB_SIDE_LEFT, CR_CALIB_SIDE_BOTTOM},
                                            {CR_CALIB_SIDE_RIGHT, CR_CALIB_SIDE_BOTTOM},
                                            {CR_CALIB_SIDE_RIGHT, CR_CALIB_SIDE_TOP}};
        static const int head_right[4][2] = {{CR_CALIB_SIDE_RIGHT, CR_CALIB_SIDE_BOTTOM},
                                             {CR_CALIB_SIDE_RIGHT, CR_CALIB_SIDE_TOP},
                                             {CR_CALIB_SIDE_LEFT, CR_CALIB_SIDE_TOP},
                                             {CR_CALIB_SIDE_LEFT, CR_CALIB_SIDE_BOTTOM}};
        const int(*ord)[2] = p->head_on_right ? head_right : head_left;
        double tab[4][2], und_c[4][2], area = 0.0;
        int k;

        tab[0][0] = 0.0, tab[0][1] = 0.0;
        tab[1][0] = 0.0, tab[1][1] = t->width_mm;
        tab[2][0] = t->length_mm, tab[2][1] = t->width_mm;
        tab[3][0] = t->length_mm, tab[3][1] = 0.0;
        for (k = 0; k < 4; k++) {
            if (!cr_intersect(res->lines[ord[k][0]], res->lines[ord[k][1]], und_c[k])) {
                return cr_fail(res, CR_CALIB_ERR_GEOMETRY, "parallel cushion lines");
            }
            cr_distort_px(dm, und_c[k][0], und_c[k][1], &res->corners_px[k][0], &res->corners_px[k][1]);
        }
        for (k = 0; k < 4; k++) {
            const double *a = und_c[k], *b = und_c[(k + 1) % 4];

            area += 0.5 * (a[0] * b[1] - a[1] * b[0]);
        }
        if (fabs(area) < 0.05 * (double)npx) {
            return cr_fail(res, CR_CALIB_ERR_GEOMETRY, "the outline is too small");
        }
        for (k = 0; k < 4; k++) { /* corner angles: a rectangle seen from above-ish */
            const double *a = und_c[(k + 3) % 4], *b = und_c[k], *c = und_c[(k + 1) % 4];
            double ang = fabs(atan2((a[0] - b[0]) * (c[1] - b[1]) - (a[1] - b[1]) * (c[0] - b[0]),
                                    (a[0] - b[0]) * (c[0] - b[0]) + (a[1] - b[1]) * (c[1] - b[1]))) *
                         180.0 / 3.14159265358979323846;

            if (ang < p->min_corner_angle_deg || ang > 180.0 - p->min_corner_angle_deg) {
                char d[96];

                snprintf(d, sizeof d, "a corner of the outline is %.0f degrees", ang);
                return cr_fail(res, CR_CALIB_ERR_GEOMETRY, d);
            }
        }
        if (!cr_calib_homography4((const double(*)[2])tab, (const double(*)[2])und_c, res->table_to_px) ||
            !cr_calib_homography4((const double(*)[2])und_c, (const double(*)[2])tab, res->px_to_table)) {
            return cr_fail(res, CR_CALIB_ERR_GEOMETRY, "degenerate corners");
        }
    }
    res->status = CR_CALIB_OK; /* the mapping functions below need it */
    if (p->estimate_camera) {
        char d[160];
        double lim;

        int status = cr_calib_camera_estimate(img, t, p, res);

        if (status != CR_CALIB_OK)
            return status;
        /* sanity: a real camera (square pixels, centred principal point)
         * reproduces the outline, and the sights agree with it; a side fitted
         * to something else (a cue, a cushion's back edge) breaks both */
        /* sights that agree with the outline (a third of their limit) vouch for
         * it: then the outline may miss the camera by 2.5 times more (a small
         * frame, where k1 from the edges' curvature is uncertain) */
        lim = p->max_camera_rms_px;
        if (res->n_diamonds > 0 && res->diamond_rms_mm <= p->max_diamond_rms_mm / 3.0)
            lim *= 2.5;
        if (res->camera_rms_px > lim) {
            snprintf(d, sizeof d, "no camera reproduces the outline within %.1f px (rms %.2f px; %d sights, rms %.1f mm)",
                     lim, res->camera_rms_px, res->n_diamonds, res->diamond_rms_mm);
            return cr_fail(res, CR_CALIB_ERR_GEOMETRY, d);
        }
        if (res->n_diamonds > 0 && res->diamond_rms_mm > p->max_diamond_rms_mm) {
            snprintf(d, sizeof d, "the diamond sights disagree with the outline (rms %.1f mm along the rails)",
                     res->diamond_rms_mm);
            return cr_fail(res, CR_CALIB_ERR_GEOMETRY, d);
        }
    }
    return CR_CALIB_OK;
}

/* A second hypothesis for side sd: the line through the side's points
 * (und, wt: n of them) that lie inside its line (toward the point in,
 * the bed) by more than 3 px, nearly parallel to it (within 3 degrees) and
 * within max_px of it: the nose when the line found was a cushion's back
 * edge or a rail's. False when no such line has min_edge_points points. */
static bool cr_inner_line(const double *und, const uint8_t *wt, int n, const cr_calib_params_t *p, const double line[3],
                          const double in[2], double max_px, double out[3], double *rms, int *ni)
{
    double *pts = malloc((size_t)(n > 0 ? n : 1) * 2 * sizeof *pts), sgn = line[0] * in[0] + line[1] * in[1] + line[2];
    uint8_t *w = malloc((size_t)(n > 0 ? n : 1)), *inl = malloc((size_t)(n > 0 ? n : 1));
    uint64_t seed = p->seed ? p->seed + 17 : 17;
    int m = 0, i, k = 0;
    bool ok = false;

    if (pts && w && inl && sgn != 0.0) {
        for (i = 0; i < n; i++) {
            double d = (line[0] * und[2 * i] + line[1] * und[2 * i + 1] + line[2]) * (sgn > 0.0 ? 1.0 : -1.0);

            if (d > 3.0 && d < max_px)
                pts[2 * m] = und[2 * i], pts[2 * m + 1] = und[2 * i + 1], w[m] = wt[i], m++;
        }
        k = cr_fit_side(pts, w, NULL, m, p, &seed, inl, out, rms);
        ok = k >= p->min_edge_points && fabs(out[0] * line[1] - out[1] * line[0]) < sin(3.0 * 3.14159265358979323846 / 180.0);
    }
    *ni = k;
    free(pts);
    free(w);
    free(inl);
    return ok;
}

/* ---- the cushion noses ---------------------------------------------------------------- */

/* Brightness r + g + b at a sub-pixel place (bilinear); false outside. */
static bool cr_lum_at(const cr_calib_image_t *img, double u, double v, double *out)
{
    int iu = (int)floor(u), iv = (int)floor(v);
    double fu = u - iu, fv = v - iv;

    if (iu < 0 || iv < 0 || iu + 1 >= img->width || iv + 1 >= img->height)
        return false;
    *out = (1.0 - fv) * ((1.0 - fu) * cr_lum(img, iu, iv) + fu * cr_lum(img, iu + 1, iv)) +
           fv * ((1.0 - fu) * cr_lum(img, iu, iv + 1) + fu * cr_lum(img, iu + 1, iv + 1));
    return true;
}

/* The two corners on image side side of res's outline (undistorted px):
 * its line met by the lines of the sides across it. False when one does
 * not meet it. */
static bool cr_side_ends(const cr_calib_result_t *res, int side, double ends[2][2])
{
    const bool rows = side == CR_CALIB_SIDE_LEFT || side == CR_CALIB_SIDE_RIGHT;

    return cr_intersect(res->lines[side], res->lines[rows ? CR_CALIB_SIDE_TOP : CR_CALIB_SIDE_LEFT], ends[0]) &&
           cr_intersect(res->lines[side], res->lines[rows ? CR_CALIB_SIDE_BOTTOM : CR_CALIB_SIDE_RIGHT], ends[1]);
}

/* The points of one side's cushion nose, moved down to the cloth. The
 * bed's edge the outline was fitted to is no fixed place: the cloth darkens
 * toward the cushion in its shadow, by how much and how far depending on
 * the lamps, and the bed stays in view some way under the overhang (up to
 * the undercut, or to where the nose hides it). What does not move with the
 * light is the nose's own edge, nose_height_mm above the cloth: the
 * brightness rises there going outward, from the shadowed bed or face
 * under it to the lit cushion top. With the posed camera of res, each
 * point of the side's line on the cloth is lifted to the nose's height; on
 * the image row or column through that lifted point (rows for the left and
 * right sides, columns for the top and bottom) the strongest rise within
 * win px of it is the nose, when it is at least min_rise (brightness summed
 * over 3 pixels across the scan, differenced over 2 px), and the nose point
 * moved back down by the camera's parallax is where the line on the cloth
 * runs. Writes the distorted pixels into pts (at most cap), the places
 * scanned into *n_scan and their span (image rows for the left and right
 * sides, columns for the others) into span; returns the count of points. */
static int cr_nose_points(const cr_calib_image_t *img, const cr_calib_result_t *res, const cr_dist_t *dm,
                          const cr_calib_params_t *p, int side, double win, double min_rise, double *pts,
                          double *rise, int cap, int *n_scan, double span[2])
{
    const double *L = res->lines[side];
    const bool rows = side == CR_CALIB_SIDE_LEFT || side == CR_CALIB_SIDE_RIGHT;
    const double ou = side == CR_CALIB_SIDE_LEFT ? -1.0 : side == CR_CALIB_SIDE_RIGHT ? 1.0 : 0.0;
    const double ov = side == CR_CALIB_SIDE_TOP ? -1.0 : side == CR_CALIB_SIDE_BOTTOM ? 1.0 : 0.0;
    const int nk = (int)ceil(win);
    double lo = HUGE_VAL, hi = -HUGE_VAL, s, ends[2][2];
    int k, n = 0;

    *n_scan = 0;
    /* the side's extent: between the corners on it */
    if (!cr_side_ends(res, side, ends))
        return 0;
    for (k = 0; k < 2; k++)
        lo = fmin(lo, ends[k][rows]), hi = fmax(hi, ends[k][rows]);
    if (!(hi > lo) || (rows ? fabs(L[0]) : fabs(L[1])) < 0.5)
        return 0;
    s = p->side_trim * (hi - lo);
    span[0] = lo + s, span[1] = hi - s;
    for (double a = lo + s; a <= hi - s && n < cap; a += 1.0) {
        /* the line's undistorted point at a, on the image, on the cloth, lifted */
        double qu = rows ? -(L[1] * a + L[2]) / L[0] : a, qv = rows ? a : -(L[0] * a + L[2]) / L[1];
        double du, dv, x, y, nu, nv, g[64], best = 0.0, o;
        int j, bj = -1;

        (*n_scan)++;
        cr_distort_px(dm, qu, qv, &du, &dv);
        if (!cr_camera_unproject_plane(&res->camera, du, dv, 0.0, &x, &y) ||
            !cr_camera_project(&res->camera, x, y, p->nose_height_mm, &nu, &nv))
            continue;
        /* the rise outward, on 3 pixels across the scan */
        for (j = -nk - 1; j <= nk + 1; j++) {
            double sum = 0.0, l;
            int m;

            for (m = -1; m <= 1; m++) {
                if (!cr_lum_at(img, nu + j * ou + m * (rows ? 0.0 : 1.0), nv + j * ov + m * (rows ? 1.0 : 0.0), &l))
                    break;
                sum += l;
            }
            if (m <= 1)
                break;
            g[j + nk + 1] = sum;
        }
        if (j <= nk + 1)
            continue;
        for (j = -nk; j <= nk; j++) {
            double d = g[j + nk + 2] - g[j + nk];

            if (d > best && j > -nk && j < nk)
                best = d, bj = j;
        }
        if (bj < 0 || best < min_rise)
            continue; /* no edge the noise could not make */
        {
            double a0 = g[bj + nk + 1] - g[bj + nk - 1], b0 = best, c0 = g[bj + nk + 3] - g[bj + nk + 1],
                   den = a0 - 2.0 * b0 + c0;

            o = den < 0.0 ? fmax(-0.5, fmin(0.5, 0.5 * (a0 - c0) / den)) : 0.0;
        }
        /* the nose found, moved down by the parallax of the lifted point */
        pts[2 * n] = nu + (bj + o) * ou - (nu - du);
        pts[2 * n + 1] = nv + (bj + o) * ov - (nv - dv);
        rise[n] = best;
        n++;
    }
    return n;
}

/* The image's noise (with the cloth's texture) as a brightness sigma: the
 * median step between neighbouring pixels over the central region. */
static double cr_lum_noise(const cr_calib_image_t *img)
{
    int w = img->width, h = img->height, u, v, k = 0, hist[766] = {0};

    for (v = h * 7 / 20; v < h * 13 / 20; v += 2)
        for (u = w * 7 / 20; u < w * 13 / 20; u += 2, k++)
            hist[(int)fabs(cr_lum(img, u + 1, v) - cr_lum(img, u, v))]++;
    return cr_hist_median(hist, 766, k) / 0.954;
}

/* Refits the outline on the cushion noses (cr_nose_points) with the camera
 * of res. A side takes its nose points when they lie on a line (at least
 * min_edge_points inliers, half of the points and a quarter of the places
 * scanned, in three of the side's four quarters) within the search window
 * of its line; else it keeps its
 * bed-edge points (pts0, wt0, n0 a side, cap a side) that lie on its line.
 * The distortion is searched again on those points (the noses are straight
 * lines too), the sides fitted, and the outline and camera fitted again
 * (cr_outline). Twice, the second time with the camera the first gave. A
 * refit the camera or the sights refuse, or one the sights agree with less
 * than with the outline on the bed's edge, leaves res as it was. */
static void cr_nose_refine(const cr_calib_image_t *img, const cr_table_t *t, const cr_calib_params_t *p,
                           const cr_dist_t *dm, size_t npx, const double *pts0, const uint8_t *wt0, const int *n0,
                           int cap, cr_calib_result_t *res)
{
    cr_calib_result_t *r2 = malloc(sizeof *r2), *r0 = malloc(sizeof *r0);
    double *pts = malloc((size_t)cap * 2 * CR_CALIB_SIDES * sizeof *pts);
    double *und = malloc((size_t)cap * 2 * CR_CALIB_SIDES * sizeof *und);
    uint8_t *wt = malloc((size_t)cap * CR_CALIB_SIDES), *inl = malloc((size_t)cap * CR_CALIB_SIDES);
    double *tw = malloc((size_t)cap * CR_CALIB_SIDES * sizeof *tw);
    double win = fmin(30.0, fmax(4.0, ceil(0.0025 * img->width))), min_rise; /* cr_nose_points holds 64 */
    cr_dist_t m = *dm;
    cr_calib_params_t pn = *p; /* the noses' points fitted at half the tolerance */
    int pass, side;

    pn.ransac_tol_px = 0.5 * p->ransac_tol_px;
    /* a rise counts from three sigmas of the difference it is measured by
     * (3 pixels summed, differenced: sqrt(6) sigmas of one pixel) */
    min_rise = 3.0 * sqrt(6.0) * fmax(0.5, cr_lum_noise(img));

    if (r0)
        *r0 = *res;
    for (pass = 0; r0 && r2 && pts && und && wt && inl && tw && pass < 2 && res->camera_source != CR_CALIB_CAMERA_NONE;
         pass++) {
        int changed = 0, ns[CR_CALIB_SIDES];
        bool on[CR_CALIB_SIDES];
        cr_dist_t m2 = m;

        for (side = 0; side < CR_CALIB_SIDES; side++) {
            uint64_t seed = p->seed ? p->seed + 29 + (uint64_t)side : 29;
            double *sp = pts + (size_t)side * 2 * cap, line[3], rms, ends[2][2], far = 0.0, span[2];
            uint8_t *sw = wt + (size_t)side * cap;
            double *st = tw + (size_t)side * cap;
            int n_scan, n = cr_nose_points(img, res, &m, p, side, win, min_rise, sp, st, cap, &n_scan, span), ni = 0, i;
            int quarter[4] = {0, 0, 0, 0}, covered = 0;

            if (n >= p->min_edge_points && cr_undistort_all(&m, sp, n, und)) {
                for (i = 0; i < n; i++) /* an edge's place varies as 1 / its contrast^2 */
                    sw[i] = 1, st[i] = (st[i] / min_rise) * (st[i] / min_rise);
                ni = cr_fit_side(und, sw, st, n, &pn, &seed, inl, line, &rms);
            }
            /* a nose seen along the side: on a quarter of the places
             * scanned, in three of its four quarters (a line through one
             * stretch would turn about it), within the search of the bed's
             * edge; else what rose there was no nose (a cushion top no
             * brighter than the bed under it, a rounded nose lit from
             * aside), and the side keeps its points */
            for (i = 0; ni > 0 && i < n; i++)
                if (inl[i]) {
                    double a = side == CR_CALIB_SIDE_LEFT || side == CR_CALIB_SIDE_RIGHT ? sp[2 * i + 1] : sp[2 * i];
                    int q = (int)(4.0 * (a - span[0]) / (span[1] - span[0]));

                    quarter[q < 0 ? 0 : q > 3 ? 3 : q]++;
                }
            for (i = 0; i < 4; i++)
                covered += quarter[i] >= p->min_edge_points / 3;
            if (ni >= p->min_edge_points && 2 * ni >= n && 4 * ni >= n_scan && covered >= 3 &&
                cr_side_ends(res, side, ends)) {
                for (i = 0; i < 2; i++)
                    far = fmax(far, fabs(line[0] * ends[i][0] + line[1] * ends[i][1] + line[2]));
                if (far <= win) {
                    ns[side] = n;
                    changed++;
                    on[side] = true;
                    continue;
                }
            }
            /* the bed-edge points on the side's line (the hypothesis the
             * outline took, when it had two) */
            ns[side] = 0;
            on[side] = false;
            for (i = 0; i < n0[side]; i++) {
                const double *q = pts0 + (size_t)side * 2 * cap + 2 * i;
                double qu, qv;

                if (cr_undistort_px(&m, q[0], q[1], &qu, &qv) &&
                    fabs(res->lines[side][0] * qu + res->lines[side][1] * qv + res->lines[side][2]) <= p->ransac_tol_px) {
                    sp[2 * ns[side]] = q[0], sp[2 * ns[side] + 1] = q[1], st[ns[side]] = 1.0;
                    sw[ns[side]++] = wt0[(size_t)side * cap + i];
                }
            }
        }
        if (!changed)
            break;
        *r2 = *res;
        memcpy(r2->on_nose, on, sizeof on);
        if (!p->intrinsics && p->estimate_k1 && p->k1_step > 0.0 && p->k1_max > p->k1_min)
            cr_search_k1(&m2, pts, wt, tw, ns, cap, &pn, und, inl, r2);
        if (cr_fit_all(&m2, pts, wt, tw, ns, cap, &pn, und, inl, r2->lines, r2->rms_px, r2->n_inliers) >= HUGE_VAL)
            break;
        for (side = 0; side < CR_CALIB_SIDES && r2->n_inliers[side] >= p->min_edge_points; side++)
            ;
        if (side < CR_CALIB_SIDES)
            break;
        r2->k1 = m2.k1;
        if (cr_outline(img, t, p, &m2, npx, r2) != CR_CALIB_OK)
            break;
        *res = *r2;
        m = m2;
    }
    /* kept only when the diamond sights, measured apart on the rails, agree
     * with it better (without enough sights on both: when the camera
     * reproduces it as well): a nose's edge can mislead too, a rounded
     * nose's shading in a lamp beside it */
    if (r0 && res->camera_source != CR_CALIB_CAMERA_NONE &&
        !(res->n_diamonds >= p->min_diamonds && r0->n_diamonds >= p->min_diamonds
              ? res->diamond_rms_mm < r0->diamond_rms_mm
              : res->camera_rms_px <= r0->camera_rms_px))
        *res = *r0;
    free(r0);
    free(r2);
    free(pts);
    free(und);
    free(wt);
    free(tw);
    free(inl);
}

int cr_calib_detect(const cr_calib_image_t *img, const cr_table_t *t, const cr_calib_params_t *p,
                    cr_calib_result_t *res)
{
    cr_calib_ctx_t cx;
    int w, h, u, v, u0, v0, u1, v1, n_cloth = 0, n_central = 0, seed_u = -1, seed_v = -1, side, status;
    int bb[4], n_region = 0, pass;
    cr_calib_params_t pl = *p; /* p, with the chroma tolerance measured on the bed */
    cr_calib_image_t sm = {NULL, 0, 0, 0}; /* img under a 3x3 box, for the cloth mask */
    size_t top = 0, npx;
    double mean = 0.0, ref_chroma[3], ref_sum, best_d2 = HUGE_VAL;
    uint8_t *inl = NULL;
    double *und = NULL;
    int n_side[CR_CALIB_SIDES];
    cr_dist_t dm;
    static const char *side_names[CR_CALIB_SIDES] = {"top", "bottom", "left", "right"};

    if (!res)
        return CR_CALIB_ERR_INVALID;
    memset(res, 0, sizeof *res);
    if (!img || !t || !p || !img->rgb || img->width < 16 || img->height < 16 || img->stride < 3 * img->width ||
        t->length_mm <= 0.0 || t->width_mm <= 0.0)
        return cr_fail(res, CR_CALIB_ERR_INVALID, NULL);
    w = img->width, h = img->height, npx = (size_t)w * (size_t)h;
    memset(&cx, 0, sizeof cx);
    cx.img = img;

    /* black frame: mean brightness on a sparse grid */
    {
        int n = 0;

        for (v = 0; v < h; v += 4)
            for (u = 0; u < w; u += 4)
                mean += cr_lum(img, u, v) / 3.0, n++;
        mean /= n;
        if (mean < p->black_level) {
            char d[64];

            snprintf(d, sizeof d, "mean level %.1f of 255", mean);
            return cr_fail(res, CR_CALIB_ERR_BLACK, d);
        }
    }

    /* cloth model from the central region */
    u0 = (int)(w * (0.5 - p->centre_frac / 2)), u1 = (int)(w * (0.5 + p->centre_frac / 2));
    v0 = (int)(h * (0.5 - p->centre_frac / 2)), v1 = (int)(h * (0.5 + p->centre_frac / 2));
    if (u1 <= u0 || v1 <= v0)
        return cr_fail(res, CR_CALIB_ERR_INVALID, "centre_frac");
    cr_median_rgb(img, u0, v0, u1, v1, NULL, p, res->cloth_rgb);
    for (u = 0; u < 2; u++) { /* twice: the median of the pixels near the median */
        uint8_t m[3];

        if (cr_median_rgb(img, u0, v0, u1, v1, res->cloth_rgb, p, m) > 0.25 * (u1 - u0) * (v1 - v0))
            memcpy(res->cloth_rgb, m, 3);
    }
    ref_sum = (double)res->cloth_rgb[0] + res->cloth_rgb[1] + res->cloth_rgb[2];
    if (ref_sum < 3.0 * p->black_level)
        return cr_fail(res, CR_CALIB_ERR_NO_CLOTH, "the centre of the image is dark");
    for (u = 0; u < 3; u++)
        ref_chroma[u] = res->cloth_rgb[u] / ref_sum;
    memcpy(cx.ref_chroma, ref_chroma, sizeof ref_chroma);
    cx.ref_sum = ref_sum;

    cx.mask = malloc(npx);
    sm.rgb = malloc(3 * npx), sm.width = w, sm.height = h, sm.stride = 3 * w;
    cx.stack = malloc(npx * sizeof *cx.stack);
    cx.cap = 4 * (w > h ? w : h);
    cx.wt = malloc((size_t)cx.cap * CR_CALIB_SIDES);
    cx.pts = malloc((size_t)cx.cap * 2 * CR_CALIB_SIDES * sizeof *cx.pts);
    und = malloc((size_t)cx.cap * 2 * CR_CALIB_SIDES * sizeof *und);
    inl = malloc((size_t)cx.cap * CR_CALIB_SIDES);
    if (!cx.mask || !sm.rgb || !cx.stack || !cx.pts || !cx.wt || !und || !inl) {
        status = cr_fail(res, CR_CALIB_ERR_NOMEM, NULL);
        goto out;
    }
    /* the bed: cloth pixels, then the region grown from the centre; then the
     * cloth's brightness fitted over that region and both again with it, until
     * the region stops growing (a bed lit unevenly: one lamp, a dark end, a
     * lens that darkens the corners) */
    /* the chroma tolerance from the cloth's own scatter in the central region:
     * a rail in a colour near the cloth's (grey on grey) is told apart on a
     * clean image, a noisy one keeps the default */
    cr_box3(img, (uint8_t *)sm.rgb);
    pl.chroma_tol = fmin(p->chroma_tol, fmax(0.035, 5.0 * cr_chroma_scatter(&sm, u0, v0, u1, v1, ref_chroma, ref_sum, p)));
    for (pass = 0; pass < 5; pass++) {
        int prev_region = n_region;

        n_cloth = n_central = 0, seed_u = seed_v = -1, best_d2 = HUGE_VAL, n_region = 0;
        for (v = 0; v < h; v++)
            for (u = 0; u < w; u++) {
                bool c = cr_is_cloth_at(img, cx.light, cr_px(&sm, u, v), ref_chroma, ref_sum, &pl, u, v);

                cx.mask[(size_t)v * w + u] = c;
                if (u >= u0 && u < u1 && v >= v0 && v < v1) {
                    n_central++;
                    /* is there cloth at all: the tolerances given (the measured
                     * one is for the edges; a noisy frame's centre may scatter) */
                    n_cloth += c || cr_is_cloth_at(img, cx.light, cr_px(&sm, u, v), ref_chroma, ref_sum, p, u, v);
                    if (c) {
                        double d2 = (u - 0.5 * w) * (u - 0.5 * w) + (v - 0.5 * h) * (v - 0.5 * h);

                        if (d2 < best_d2)
                            best_d2 = d2, seed_u = u, seed_v = v;
                    }
                }
            }
        if (n_cloth < p->min_cloth_frac * n_central || seed_u < 0) {
            char d[96];

            snprintf(d, sizeof d, "%.0f%% of the central region matches its median colour", 100.0 * n_cloth / n_central);
            status = cr_fail(res, CR_CALIB_ERR_NO_CLOTH, d);
            goto out;
        }

        /* grow the bed region (4-connected) from the cloth pixel nearest the
         * centre, then from a grid of central seeds if that region is small (the
         * seed on a cloth-coloured patch of a ball or a sleeve); keep the largest */
        {
            int g, best_bb[4] = {0, 0, 0, 0};

            for (g = -1; g < 49 && n_region < 0.2 * (double)npx; g++) {
                int su = seed_u, sv = seed_v, cnt = 0, cb[4];

                if (g >= 0) {
                    su = u0 + (int)((g % 7 + 0.5) * (u1 - u0) / 7.0);
                    sv = v0 + (int)((g / 7 + 0.5) * (v1 - v0) / 7.0);
                }
                if (cx.mask[(size_t)sv * w + su] != 1)
                    continue;
                cb[0] = cb[1] = su, cb[2] = cb[3] = sv;
                cx.mask[(size_t)sv * w + su] = 2;
                top = 0;
                cx.stack[top++] = sv * w + su;
                while (top > 0) {
                    int32_t q = cx.stack[--top];
                    int qu = q % w, qv = q / w, k;
                    static const int nb[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};

                    cnt++;
                    if (qu < cb[0]) cb[0] = qu;
                    if (qu > cb[1]) cb[1] = qu;
                    if (qv < cb[2]) cb[2] = qv;
                    if (qv > cb[3]) cb[3] = qv;
                    for (k = 0; k < 4; k++) {
                        int nu = qu + nb[k][0], nv = qv + nb[k][1];
                        size_t id;

                        if (nu < 0 || nv < 0 || nu >= w || nv >= h)
                            continue;
                        id = (size_t)nv * w + nu;
                        if (cx.mask[id] == 1) {
                            cx.mask[id] = 2;
                            cx.stack[top++] = (int32_t)id;
                        }
                    }
                }
                if (cnt > n_region)
                    n_region = cnt, memcpy(best_bb, cb, sizeof cb);
            }
            memcpy(bb, best_bb, sizeof bb);
        }
        if (pass == 4 || n_region < 0.05 * (double)npx || (pass > 0 && abs(n_region - prev_region) < prev_region / 100))
            break;
        if (!cr_fit_light(&sm, cx.mask, ref_sum, res->cloth_light))
            break;
        cx.light = (const cr_light_grid_t *)res->cloth_light;
    }
    if (n_region < 0.05 * (double)npx) {
        status = cr_fail(res, CR_CALIB_ERR_NO_CLOTH, "the cloth region is too small");
        goto out;
    }

    /* edge points per side */
    for (side = 0; side < CR_CALIB_SIDES; side++) {
        n_side[side] = cr_collect(&cx, &pl, side, bb, cx.pts + (size_t)side * 2 * cx.cap, cx.wt + (size_t)side * cx.cap);
        res->n_points[side] = n_side[side];
        if (n_side[side] < p->min_edge_points) {
            char d[96];

            snprintf(d, sizeof d, "%s side: %d edge points", side_names[side], n_side[side]);
            status = cr_fail(res, CR_CALIB_ERR_EDGES, d);
            goto out;
        }
    }

    /* radial distortion: the k1 whose undistortion puts the edge points best
     * on four lines (MSAC cost on a grid, then a parabola through the minimum) */
    dm.cu = 0.5 * (w - 1), dm.cv = 0.5 * (h - 1), dm.f = w, dm.k1 = 0.0, dm.k2 = 0.0;
    if (p->intrinsics) { /* known: measured apart (a checkerboard) */
        const cr_calib_intrinsics_t *in = p->intrinsics;

        if (in->width != w || in->height != h || !(in->fx > 0.0)) {
            status = cr_fail(res, CR_CALIB_ERR_INVALID, "the intrinsics are for another image size");
            goto out;
        }
        dm.cu = in->cx, dm.cv = in->cy, dm.f = in->fx, dm.k1 = in->k1, dm.k2 = in->k2;
    } else if (p->estimate_k1 && p->k1_step > 0.0 && p->k1_max > p->k1_min) {
        cr_search_k1(&dm, cx.pts, cx.wt, NULL, n_side, cx.cap, p, und, inl, res);
    }
    if (cr_fit_all(&dm, cx.pts, cx.wt, NULL, n_side, cx.cap, p, und, inl, res->lines, res->rms_px, res->n_inliers) >= HUGE_VAL) {
        status = cr_fail(res, CR_CALIB_ERR_GEOMETRY, "edge points beyond the distortion's range");
        goto out;
    }
    for (side = 0; side < CR_CALIB_SIDES; side++)
        if (res->n_inliers[side] < p->min_edge_points) {
            char d[96];

            snprintf(d, sizeof d, "%s side: %d of %d points on a line", side_names[side], res->n_inliers[side],
                     n_side[side]);
            status = cr_fail(res, CR_CALIB_ERR_EDGES, d);
            goto out;
        }
    res->k1 = dm.k1, res->k2 = dm.k2;
    res->dist_centre_px[0] = dm.cu, res->dist_centre_px[1] = dm.cv, res->dist_f_px = dm.f;

    /* the outline; when the camera or the sights refuse it, each side in turn
     * replaced by a line inside it (a rail or a cushion top the cloth's
     * colour taken for the bed): of those that pass with the sights vouching
     * for them (at least min_diamonds, within half their limit), the one the
     * camera reproduces best; else the first attempt, refused */
    {
        double in[2];
        int attempt;

        if (!cr_undistort_px(&dm, seed_u, seed_v, &in[0], &in[1]))
            in[0] = seed_u, in[1] = seed_v;
        status = cr_outline(img, t, p, &dm, npx, res);
        if (status == CR_CALIB_ERR_GEOMETRY) {
            cr_calib_result_t *first = malloc(sizeof *first), *best = malloc(sizeof *best);
            double best_cost = HUGE_VAL;

            for (attempt = 0; first && best && attempt < CR_CALIB_SIDES; attempt++) {
                if (attempt == 0)
                    *first = *res;
                *res = *first;
                if (!cr_inner_line(und + (size_t)attempt * 2 * cx.cap, cx.wt + (size_t)attempt * cx.cap, n_side[attempt],
                                   p, first->lines[attempt], in, 0.12 * (w < h ? w : h), res->lines[attempt],
                                   &res->rms_px[attempt], &res->n_inliers[attempt]))
                    continue;
                if (cr_outline(img, t, p, &dm, npx, res) == CR_CALIB_OK && res->n_diamonds >= p->min_diamonds &&
                    res->diamond_rms_mm <= 0.5 * p->max_diamond_rms_mm &&
                    res->camera_rms_px / p->max_camera_rms_px + res->diamond_rms_mm / p->max_diamond_rms_mm < best_cost) {
                    best_cost = res->camera_rms_px / p->max_camera_rms_px + res->diamond_rms_mm / p->max_diamond_rms_mm;
                    *best = *res;
                }
            }
            if (first && best) {
                *res = best_cost < HUGE_VAL ? *best : *first;
                status = best_cost < HUGE_VAL ? CR_CALIB_OK : status;
            }
            free(first);
            free(best);
        }
        if (status != CR_CALIB_OK) {
            res->status = status;
            goto out;
        }
    }
    if (p->nose_height_mm > 0.0)
        cr_nose_refine(img, t, p, &dm, npx, cx.pts, cx.wt, n_side, cx.cap, res);
    cr_measure_balls(&cx, t, p, res);
    res->status = CR_CALIB_OK;
    res->message[0] = '\0';
    /* the head end: the side given, or the end whose foot spot a rack is on */
    res->head_on_right = p->head_on_right;
    res->head_source = p->head_from_rack ? CR_CALIB_HEAD_DEFAULT : CR_CALIB_HEAD_GIVEN;
    if (p->head_from_rack) {
        status = cr_calib_rack_find(img, t, p, res, &res->rack);
        if (status == CR_CALIB_ERR_NOMEM) {
            cr_fail(res, status, "looking for a rack");
            goto out;
        } /* else (a table too small for the grid): no rack, the default side */
        if (res->rack.where == CR_CALIB_RACK_AT_HEAD)
            cr_calib_result_flip_head(res, t);
        if (res->rack.where == CR_CALIB_RACK_AT_FOOT)
            res->head_source = CR_CALIB_HEAD_RACK;
    }
    cr_calib_head_describe(res);
    status = CR_CALIB_OK;
out:
    free(und);
    free(inl);
    free(cx.pts);
    free(cx.wt);
    free(cx.stack);
    free(cx.mask);
    free((void *)sm.rgb);
    return status;
}
