/*
 * cr_calib.c - table detection: cloth model, bed region, cushion nose edge
 * points, RANSAC line fits, corners and homography (see cr_calib.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cr_calib.h"

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
    p->k1_min = -0.35;
    p->k1_max = 0.02;
    p->k1_step = 0.005;
    p->seed = 1;
}

/* ---- scratch and pixel access ----------------------------------------------------- */

typedef struct {
    const cr_calib_image_t *img;
    uint8_t *mask;   /* 1 cloth-coloured bed pixel, 2 in the grown region */
    int32_t *stack;  /* flood fill */
    double *pts;     /* edge points, 2 per point, per side */
    int cap;         /* edge point capacity per side */
    double ref_chroma[3], ref_sum; /* the cloth model */
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

static void cr_median_rgb(const cr_calib_image_t *img, int u0, int v0, int u1, int v1, uint8_t out[3])
{
    static const int zero[256];
    int hist[3][256], c, u, v, n = 0;

    for (c = 0; c < 3; c++)
        memcpy(hist[c], zero, sizeof zero);
    for (v = v0; v < v1; v++)
        for (u = u0; u < u1; u++) {
            const uint8_t *q = cr_px(img, u, v);

            hist[0][q[0]]++, hist[1][q[1]]++, hist[2][q[2]]++;
            n++;
        }
    for (c = 0; c < 3; c++) {
        int acc = 0, k;

        for (k = 0; k < 256; k++) {
            acc += hist[c][k];
            if (2 * acc >= n)
                break;
        }
        out[c] = (uint8_t)(k > 255 ? 255 : k);
    }
}

static bool cr_is_cloth(const uint8_t q[3], const double ref_chroma[3], double ref_sum, const cr_calib_params_t *p)
{
    double s = (double)q[0] + q[1] + q[2], d2 = 0.0;
    int c;

    if (s < p->bright_lo * ref_sum || s > p->bright_hi * ref_sum || s <= 0.0)
        return false;
    for (c = 0; c < 3; c++) {
        double d = q[c] / s - ref_chroma[c];

        d2 += d * d;
    }
    return d2 <= p->chroma_tol * p->chroma_tol;
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
    return cr_is_cloth(q, cx->ref_chroma, cx->ref_sum, p);
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
 * drop going outward. Returns the count. */
static int cr_collect(const cr_calib_ctx_t *cx, const cr_calib_params_t *p, int side, const int bb[4], double *pts)
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
    for (i = lo; i <= hi && n < cx->cap; i++) {
        int k, run = 0, first = -1, u, v;
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
                run = 0;
            }
        }
        if (run < min_run || first <= 0)
            continue; /* no bed, or the bed touches the image border */
        /* a thin nose band the cloth test missed (seen steeply, it can be
         * 1-2 px and not dark enough): the deepest brightness dip in the
         * first half of the run moves the start inward past it */
        {
            int best_k = -1;
            double best_r = 0.75;

            for (k = first + 3; k + 3 < first + min_run / 2 + 3 && k + 3 < len; k++) {
                double lk = cr_lum_along(img, rows, du, dv, i, k), la = cr_lum_along(img, rows, du, dv, i, k - 3),
                       lb = cr_lum_along(img, rows, du, dv, i, k + 3), r = lk / (la < lb ? la : lb);

                if (la > 0.0 && lb > 0.0 && r < best_r)
                    best_r = r, best_k = k;
            }
            if (best_k >= 0)
                first = best_k + 1;
        }
        u = rows ? (du < 0 ? first : w - 1 - first) : i;
        v = rows ? i : (dv < 0 ? first : h - 1 - first);
        if (!cr_edge_refine(img, u, v, du, dv, s, &off))
            continue;
        pts[2 * n] = u + off * du;
        pts[2 * n + 1] = v + off * dv;
        n++;
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

/* Total least squares on the points with flag set: line a u + b v + c = 0. */
static bool cr_tls(const double *pts, const uint8_t *in, int n, double line[3], double *rms)
{
    double mu = 0.0, mv = 0.0, suu = 0.0, svv = 0.0, suv = 0.0, th, a, b, e = 0.0;
    int i, m = 0;

    for (i = 0; i < n; i++)
        if (in[i])
            mu += pts[2 * i], mv += pts[2 * i + 1], m++;
    if (m < 2)
        return false;
    mu /= m, mv /= m;
    for (i = 0; i < n; i++)
        if (in[i]) {
            double x = pts[2 * i] - mu, y = pts[2 * i + 1] - mv;

            suu += x * x, svv += y * y, suv += x * y;
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
static int cr_fit_side(const double *pts, int n, const cr_calib_params_t *p, uint64_t *seed, uint8_t *in,
                       double line[3], double *rms)
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
                cnt++;
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
        if (!cr_tls(pts, in, n, line, rms))
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

/* The one-parameter model: a distorted pixel d and its undistorted pixel q
 * relate through normalised coordinates x = (q - c) / f, with c the image
 * centre and f the image width (a stand-in focal length), by
 * d = c + f x (1 + k1 |x|^2). */
typedef struct {
    double cu, cv, f, k1;
} cr_dist_t;

static bool cr_undistort_px(const cr_dist_t *m, double du, double dv, double *qu, double *qv)
{
    double xd = (du - m->cu) / m->f, yd = (dv - m->cv) / m->f, rd = hypot(xd, yd), ru = rd;
    int it;

    if (m->k1 == 0.0 || rd == 0.0) {
        *qu = du, *qv = dv;
        return true;
    }
    for (it = 0; it < 30; it++) {
        double g = ru * (1.0 + m->k1 * ru * ru) - rd, dg = 1.0 + 3.0 * m->k1 * ru * ru;

        if (dg <= 1e-6)
            return false; /* beyond the monotonic range */
        ru -= g / dg;
        if (fabs(g) < 1e-13)
            break;
    }
    if (!(ru > 0.0) || 1.0 + 3.0 * m->k1 * ru * ru <= 0.0)
        return false;
    *qu = m->cu + m->f * xd * ru / rd;
    *qv = m->cv + m->f * yd * ru / rd;
    return true;
}

static void cr_distort_px(const cr_dist_t *m, double qu, double qv, double *du, double *dv)
{
    double x = (qu - m->cu) / m->f, y = (qv - m->cv) / m->f, s = 1.0 + m->k1 * (x * x + y * y);

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
 * cost (sum over all points of min(d^2, tol^2), px^2), or HUGE_VAL when a
 * point cannot be undistorted. Fills lines, inlier flags, rms. */
static double cr_fit_all(const cr_dist_t *m, const double *raw, const int *n, int cap, const cr_calib_params_t *p,
                         double *und, uint8_t *in, double lines[4][3], double rms[4], int ni[4])
{
    int side, i;
    double cost = 0.0, t2 = p->ransac_tol_px * p->ransac_tol_px;

    for (side = 0; side < CR_CALIB_SIDES; side++) {
        uint64_t seed = p->seed ? p->seed + (uint64_t)side : 1;
        const double *src = raw + (size_t)side * 2 * cap;
        double *dst = und + (size_t)side * 2 * cap;

        if (!cr_undistort_all(m, src, n[side], dst))
            return HUGE_VAL;
        ni[side] = cr_fit_side(dst, n[side], p, &seed, in + (size_t)side * cap, lines[side], &rms[side]);
        if (ni[side] < 2)
            return HUGE_VAL;
        for (i = 0; i < n[side]; i++) {
            double d = lines[side][0] * dst[2 * i] + lines[side][1] * dst[2 * i + 1] + lines[side][2];

            cost += d * d < t2 ? d * d : t2;
        }
    }
    return cost;
}

/* ---- the detector --------------------------------------------------------------------- */

int cr_calib_detect(const cr_calib_image_t *img, const cr_table_t *t, const cr_calib_params_t *p,
                    cr_calib_result_t *res)
{
    cr_calib_ctx_t cx;
    int w, h, u, v, u0, v0, u1, v1, n_cloth = 0, n_central = 0, seed_u = -1, seed_v = -1, side, status;
    int bb[4], n_region = 0;
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
    cr_median_rgb(img, u0, v0, u1, v1, res->cloth_rgb);
    ref_sum = (double)res->cloth_rgb[0] + res->cloth_rgb[1] + res->cloth_rgb[2];
    if (ref_sum < 3.0 * p->black_level)
        return cr_fail(res, CR_CALIB_ERR_NO_CLOTH, "the centre of the image is dark");
    for (u = 0; u < 3; u++)
        ref_chroma[u] = res->cloth_rgb[u] / ref_sum;
    memcpy(cx.ref_chroma, ref_chroma, sizeof ref_chroma);
    cx.ref_sum = ref_sum;

    cx.mask = malloc(npx);
    cx.stack = malloc(npx * sizeof *cx.stack);
    cx.cap = 2 * (w > h ? w : h);
    cx.pts = malloc((size_t)cx.cap * 2 * CR_CALIB_SIDES * sizeof *cx.pts);
    und = malloc((size_t)cx.cap * 2 * CR_CALIB_SIDES * sizeof *und);
    inl = malloc((size_t)cx.cap * CR_CALIB_SIDES);
    if (!cx.mask || !cx.stack || !cx.pts || !und || !inl) {
        status = cr_fail(res, CR_CALIB_ERR_NOMEM, NULL);
        goto out;
    }
    for (v = 0; v < h; v++)
        for (u = 0; u < w; u++) {
            bool c = cr_is_cloth(cr_px(img, u, v), ref_chroma, ref_sum, p);

            cx.mask[(size_t)v * w + u] = c;
            if (u >= u0 && u < u1 && v >= v0 && v < v1) {
                n_central++;
                if (c) {
                    double d2 = (u - 0.5 * w) * (u - 0.5 * w) + (v - 0.5 * h) * (v - 0.5 * h);

                    n_cloth++;
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
    if (n_region < 0.05 * (double)npx) {
        status = cr_fail(res, CR_CALIB_ERR_NO_CLOTH, "the cloth region is too small");
        goto out;
    }

    /* edge points per side */
    for (side = 0; side < CR_CALIB_SIDES; side++) {
        n_side[side] = cr_collect(&cx, p, side, bb, cx.pts + (size_t)side * 2 * cx.cap);
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
    dm.cu = 0.5 * (w - 1), dm.cv = 0.5 * (h - 1), dm.f = w, dm.k1 = 0.0;
    if (p->estimate_k1 && p->k1_step > 0.0 && p->k1_max > p->k1_min) {
        double k, best_k = 0.0, best = HUGE_VAL, c_lo = HUGE_VAL, c_hi = HUGE_VAL;

        for (k = p->k1_min; k <= p->k1_max + 1e-12; k += p->k1_step) {
            double c;

            dm.k1 = k;
            c = cr_fit_all(&dm, cx.pts, n_side, cx.cap, p, und, inl, res->lines, res->rms_px, res->n_inliers);
            if (c < best)
                best = c, best_k = k;
        }
        /* parabola through the grid minimum and its neighbours */
        dm.k1 = best_k - p->k1_step;
        c_lo = cr_fit_all(&dm, cx.pts, n_side, cx.cap, p, und, inl, res->lines, res->rms_px, res->n_inliers);
        dm.k1 = best_k + p->k1_step;
        c_hi = cr_fit_all(&dm, cx.pts, n_side, cx.cap, p, und, inl, res->lines, res->rms_px, res->n_inliers);
        dm.k1 = best_k;
        if (c_lo < HUGE_VAL && c_hi < HUGE_VAL && c_lo - 2.0 * best + c_hi > 0.0) {
            double o = 0.5 * (c_lo - c_hi) / (c_lo - 2.0 * best + c_hi);

            if (o > -1.0 && o < 1.0)
                dm.k1 = best_k + o * p->k1_step;
        }
    }
    if (cr_fit_all(&dm, cx.pts, n_side, cx.cap, p, und, inl, res->lines, res->rms_px, res->n_inliers) >= HUGE_VAL) {
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
    res->k1 = dm.k1;
    res->dist_centre_px[0] = dm.cu, res->dist_centre_px[1] = dm.cv, res->dist_f_px = dm.f;

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
                status = cr_fail(res, CR_CALIB_ERR_GEOMETRY, "parallel cushion lines");
                goto out;
            }
            cr_distort_px(&dm, und_c[k][0], und_c[k][1], &res->corners_px[k][0], &res->corners_px[k][1]);
        }
        for (k = 0; k < 4; k++) {
            const double *a = und_c[k], *b = und_c[(k + 1) % 4];

            area += 0.5 * (a[0] * b[1] - a[1] * b[0]);
        }
        if (fabs(area) < 0.05 * (double)npx) {
            status = cr_fail(res, CR_CALIB_ERR_GEOMETRY, "the outline is too small");
            goto out;
        }
        if (!cr_calib_homography4((const double(*)[2])tab, (const double(*)[2])und_c, res->table_to_px) ||
            !cr_calib_homography4((const double(*)[2])und_c, (const double(*)[2])tab, res->px_to_table)) {
            status = cr_fail(res, CR_CALIB_ERR_GEOMETRY, "degenerate corners");
            goto out;
        }
    }
    res->status = CR_CALIB_OK;
    res->message[0] = '\0';
    status = CR_CALIB_OK;
out:
    free(und);
    free(inl);
    free(cx.pts);
    free(cx.stack);
    free(cx.mask);
    return status;
}
