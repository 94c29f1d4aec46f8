/*
 * cr_calib_geom.c - small dense geometry for the calibration: the
 * Gauss-Jordan solve the calibration's small systems share, the
 * four-point homography, its
 * inverse, and point mapping; the posed camera fitted to the homography and
 * the diamond sights (Levenberg-Marquardt); the table size from the balls.
 * Pure functions, no allocation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cr_calib.h"
#include "cr_calib_internal.h"

/* Solves in place the n x n system held in the first n columns of the n
 * rows of a (cols to a row) for each right-hand side in the columns after
 * them (Gauss-Jordan, partial pivots): each row ends as the identity's, its
 * solutions in those columns. False (a changed) when the system is
 * singular. */
bool cr_calib_solve_rows(double *a, int n, int cols)
{
    int j, k, c;

    for (j = 0; j < n; j++) {
        int piv = j;
        double d;

        for (k = j + 1; k < n; k++)
            if (fabs(a[k * cols + j]) > fabs(a[piv * cols + j]))
                piv = k;
        if (!(fabs(a[piv * cols + j]) >= 1e-12))
            return false;
        for (c = 0; c < cols; c++) {
            double t = a[j * cols + c];

            a[j * cols + c] = a[piv * cols + c], a[piv * cols + c] = t;
        }
        d = a[j * cols + j];
        for (c = j; c < cols; c++)
            a[j * cols + c] /= d;
        for (k = 0; k < n; k++) {
            double f = a[k * cols + j];

            if (k == j || f == 0.0)
                continue;
            for (c = j; c < cols; c++)
                a[k * cols + c] -= f * a[j * cols + c];
        }
    }
    return true;
}

/* Similarity that moves the points' centroid to 0 and their mean distance
 * to sqrt(2) (Hartley normalisation): p' = s (p - c). */
static void cr_calib_norm(const double p[4][2], double *s, double c[2])
{
    double d = 0.0;
    int i;

    c[0] = c[1] = 0.0;
    for (i = 0; i < 4; i++)
        c[0] += p[i][0] / 4.0, c[1] += p[i][1] / 4.0;
    for (i = 0; i < 4; i++)
        d += hypot(p[i][0] - c[0], p[i][1] - c[1]) / 4.0;
    *s = d > 0.0 ? sqrt(2.0) / d : 1.0;
}

bool cr_calib_homography4(const double src[4][2], const double dst[4][2], double h[9])
{
    double a[8][9], ss, sd, cs[2], cd[2], g[9], tmp[9];
    double ts[9], td_inv[9];
    int i, j, k;

    cr_calib_norm(src, &ss, cs);
    cr_calib_norm(dst, &sd, cd);
    for (i = 0; i < 4; i++) {
        double x = ss * (src[i][0] - cs[0]), y = ss * (src[i][1] - cs[1]);
        double u = sd * (dst[i][0] - cd[0]), v = sd * (dst[i][1] - cd[1]);
        double r0[9] = {x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, u};
        double r1[9] = {0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y, v};

        for (k = 0; k < 9; k++)
            a[2 * i][k] = r0[k], a[2 * i + 1][k] = r1[k];
    }
    if (!cr_calib_solve_rows(&a[0][0], 8, 9))
        return false;
    for (i = 0; i < 8; i++)
        g[i] = a[i][8];
    g[8] = 1.0;
    /* h = Td^-1 g Ts */
    ts[0] = ss, ts[1] = 0.0, ts[2] = -ss * cs[0];
    ts[3] = 0.0, ts[4] = ss, ts[5] = -ss * cs[1];
    ts[6] = 0.0, ts[7] = 0.0, ts[8] = 1.0;
    td_inv[0] = 1.0 / sd, td_inv[1] = 0.0, td_inv[2] = cd[0];
    td_inv[3] = 0.0, td_inv[4] = 1.0 / sd, td_inv[5] = cd[1];
    td_inv[6] = 0.0, td_inv[7] = 0.0, td_inv[8] = 1.0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            tmp[3 * i + j] = 0.0;
            for (k = 0; k < 3; k++)
                tmp[3 * i + j] += g[3 * i + k] * ts[3 * k + j];
        }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++) {
            h[3 * i + j] = 0.0;
            for (k = 0; k < 3; k++)
                h[3 * i + j] += td_inv[3 * i + k] * tmp[3 * k + j];
        }
    if (fabs(h[8]) < 1e-15)
        return false;
    for (i = 0; i < 9; i++)
        h[i] /= h[8];
    return true;
}

static bool cr_calib_apply(const double h[9], double x, double y, double *u, double *v)
{
    double w = h[6] * x + h[7] * y + h[8];

    if (fabs(w) < 1e-12)
        return false;
    *u = (h[0] * x + h[1] * y + h[2]) / w;
    *v = (h[3] * x + h[4] * y + h[5]) / w;
    return true;
}

bool cr_calib_undistort(const cr_calib_result_t *res, double u, double v, double *qu, double *qv)
{
    double f, xd, yd, rd, ru;
    int it;

    if (!res || !qu || !qv || !(res->dist_f_px > 0.0))
        return false;
    f = res->dist_f_px;
    xd = (u - res->dist_centre_px[0]) / f, yd = (v - res->dist_centre_px[1]) / f;
    rd = hypot(xd, yd), ru = rd;
    if ((res->k1 == 0.0 && res->k2 == 0.0) || rd == 0.0) {
        *qu = u, *qv = v;
        return true;
    }
    for (it = 0; it < 30; it++) {
        double r2 = ru * ru, g = ru * (1.0 + res->k1 * r2 + res->k2 * r2 * r2) - rd,
               dg = 1.0 + 3.0 * res->k1 * r2 + 5.0 * res->k2 * r2 * r2;

        if (dg <= 1e-6)
            return false;
        ru -= g / dg;
        if (fabs(g) < 1e-13)
            break;
    }
    if (!(ru > 0.0) || 1.0 + 3.0 * res->k1 * ru * ru + 5.0 * res->k2 * ru * ru * ru * ru <= 0.0)
        return false;
    *qu = res->dist_centre_px[0] + f * xd * ru / rd;
    *qv = res->dist_centre_px[1] + f * yd * ru / rd;
    return true;
}

bool cr_calib_pixel_to_table(const cr_calib_result_t *res, double u, double v, double *x_mm, double *y_mm)
{
    double qu, qv;

    if (!res || !x_mm || !y_mm || res->status != CR_CALIB_OK)
        return false;
    if (!cr_calib_undistort(res, u, v, &qu, &qv))
        return false;
    return cr_calib_apply(res->px_to_table, qu, qv, x_mm, y_mm);
}

bool cr_calib_table_to_pixel(const cr_calib_result_t *res, double x_mm, double y_mm, double *u, double *v)
{
    double qu, qv, x, y, s;

    if (!res || !u || !v || res->status != CR_CALIB_OK)
        return false;
    if (!cr_calib_apply(res->table_to_px, x_mm, y_mm, &qu, &qv))
        return false;
    x = (qu - res->dist_centre_px[0]) / res->dist_f_px, y = (qv - res->dist_centre_px[1]) / res->dist_f_px;
    s = 1.0 + res->k1 * (x * x + y * y) + res->k2 * (x * x + y * y) * (x * x + y * y);
    *u = res->dist_centre_px[0] + res->dist_f_px * x * s;
    *v = res->dist_centre_px[1] + res->dist_f_px * y * s;
    return true;
}

/* ---- the posed camera ------------------------------------------------------------------ */

const char *cr_calib_camera_source_name(int source)
{
    switch (source) {
    case CR_CALIB_CAMERA_DIAMONDS: return "diamond parallax";
    case CR_CALIB_CAMERA_HOMOGRAPHY: return "cloth homography perspective";
    case CR_CALIB_CAMERA_PRIOR: return "prior height";
    case CR_CALIB_CAMERA_INTRINSICS: return "known intrinsics";
    default: return "none";
    }
}

/* 3x3 helpers, row-major. */
static void cr_m3_mul(const double a[9], const double b[9], double out[9])
{
    double t[9];
    int i, j;

    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
    for (i = 0; i < 9; i++)
        out[i] = t[i];
}

static double cr_m3_det(const double m[9])
{
    return m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
           m[2] * (m[3] * m[7] - m[4] * m[6]);
}

/* Inverse transpose; false when singular. */
static bool cr_m3_inv_t(const double m[9], double out[9])
{
    double d = cr_m3_det(m);

    if (fabs(d) < 1e-300)
        return false;
    out[0] = (m[4] * m[8] - m[5] * m[7]) / d;
    out[1] = -(m[3] * m[8] - m[5] * m[6]) / d;
    out[2] = (m[3] * m[7] - m[4] * m[6]) / d;
    out[3] = -(m[1] * m[8] - m[2] * m[7]) / d;
    out[4] = (m[0] * m[8] - m[2] * m[6]) / d;
    out[5] = -(m[0] * m[7] - m[1] * m[6]) / d;
    out[6] = (m[1] * m[5] - m[2] * m[4]) / d;
    out[7] = -(m[0] * m[5] - m[2] * m[3]) / d;
    out[8] = (m[0] * m[4] - m[1] * m[3]) / d;
    return true;
}

/* The rotation nearest to m (positive determinant): polar decomposition by
 * the averaging iteration R <- (R + R^-T) / 2. */
static bool cr_m3_orthonormalise(double m[9])
{
    int it, i;

    for (it = 0; it < 60; it++) {
        double it_[9], d = 0.0;

        if (!cr_m3_inv_t(m, it_))
            return false;
        for (i = 0; i < 9; i++) {
            double n = 0.5 * (m[i] + it_[i]);

            d += fabs(n - m[i]);
            m[i] = n;
        }
        if (d < 1e-15)
            break;
    }
    return cr_m3_det(m) > 0.5;
}

/* Rodrigues: R = exp([w]x) r0. */
static void cr_rot_update(const double r0[9], const double w[3], double out[9])
{
    double th = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]), k[3] = {0.0, 0.0, 0.0}, e[9], c, s;

    if (th < 1e-300) {
        for (int i = 0; i < 9; i++)
            out[i] = r0[i];
        return;
    }
    for (int i = 0; i < 3; i++)
        k[i] = w[i] / th;
    c = cos(th), s = sin(th);
    e[0] = c + k[0] * k[0] * (1 - c), e[1] = k[0] * k[1] * (1 - c) - k[2] * s, e[2] = k[0] * k[2] * (1 - c) + k[1] * s;
    e[3] = k[1] * k[0] * (1 - c) + k[2] * s, e[4] = c + k[1] * k[1] * (1 - c), e[5] = k[1] * k[2] * (1 - c) - k[0] * s;
    e[6] = k[2] * k[0] * (1 - c) - k[1] * s, e[7] = k[2] * k[1] * (1 - c) + k[0] * s, e[8] = c + k[2] * k[2] * (1 - c);
    cr_m3_mul(e, r0, out);
}

#define CR_CAM_NP 7        /* log f, rotation increment (3), position (3) */
#define CR_CAM_GRID_U 5    /* homography grid over the table */
#define CR_CAM_GRID_V 3
#define CR_CAM_MAX_RES (2 * CR_CAM_GRID_U * CR_CAM_GRID_V + CR_TABLE_DIAMOND_COUNT + 2)
#define CR_CAM_KNOWN_F_SIGMA 1e-4 /* log f held to a known focal length (1e-4: 0.01%) */
#define CR_CAM_H_SIGMA_PX 0.5

typedef struct {
    const double *h;                   /* table -> undistorted px */
    double cx, cy, L, W;
    const double (*dpx)[2];
    const double *dal;
    const bool *dlong;
    int nd;
    double dsig, rail_h, prior_h, prior_sig;
    bool known_f;      /* the focal length is known (intrinsics) ... */
    double known_logf; /* ... its log */
} cr_cam_problem_t;

/* Residuals of the camera (log f, r, pos) : returns the count, or -1 when a
 * point is behind the camera or a diamond ray misses the rail plane. */
static int cr_cam_residuals(const cr_cam_problem_t *pb, double logf, const double r[9], const double pos[3],
                            double *out)
{
    double f = exp(logf);
    int n = 0, i, j;

    for (j = 0; j < CR_CAM_GRID_V; j++)
        for (i = 0; i < CR_CAM_GRID_U; i++) {
            double x = pb->L * i / (CR_CAM_GRID_U - 1), y = pb->W * j / (CR_CAM_GRID_V - 1);
            double w = pb->h[6] * x + pb->h[7] * y + pb->h[8], qu, qv, px = x - pos[0], py = y - pos[1], pz = pos[2];
            double xc = r[0] * px + r[1] * py + r[2] * pz, yc = r[3] * px + r[4] * py + r[5] * pz,
                   zc = r[6] * px + r[7] * py + r[8] * pz;

            if (!(zc > 0.0) || fabs(w) < 1e-12)
                return -1;
            qu = (pb->h[0] * x + pb->h[1] * y + pb->h[2]) / w;
            qv = (pb->h[3] * x + pb->h[4] * y + pb->h[5]) / w;
            out[n++] = (pb->cx + f * xc / zc - qu) / CR_CAM_H_SIGMA_PX;
            out[n++] = (pb->cy + f * yc / zc - qv) / CR_CAM_H_SIGMA_PX;
        }
    for (i = 0; i < pb->nd; i++) {
        double a = (pb->dpx[i][0] - pb->cx) / f, b = (pb->dpx[i][1] - pb->cy) / f;
        double dx = r[0] * a + r[3] * b + r[6], dy = r[1] * a + r[4] * b + r[7], dz = -(r[2] * a + r[5] * b + r[8]);
        double t;

        if (!(dz < 0.0))
            return -1;
        t = (pb->rail_h - pos[2]) / dz;
        out[n++] = ((pb->dlong[i] ? pos[0] + t * dx : pos[1] + t * dy) - pb->dal[i]) / pb->dsig;
    }
    out[n++] = (pos[2] - pb->prior_h) / pb->prior_sig;
    if (pb->known_f)
        out[n++] = (logf - pb->known_logf) / CR_CAM_KNOWN_F_SIGMA;
    return n;
}

/* Solves the n x n system a x = b in place (Gauss-Jordan, partial pivoting);
 * with inv non-NULL also writes a's inverse. False when singular. */
static bool cr_solve_n(int n, double a[CR_CAM_NP][CR_CAM_NP], double b[CR_CAM_NP], double inv[CR_CAM_NP][CR_CAM_NP])
{
    double m[CR_CAM_NP][2 * CR_CAM_NP + 1];
    int i, j, k;

    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            m[i][j] = a[i][j], m[i][n + j] = i == j;
        m[i][2 * n] = b[i];
    }
    for (i = 0; i < n; i++) {
        int piv = i;

        for (j = i + 1; j < n; j++)
            if (fabs(m[j][i]) > fabs(m[piv][i]))
                piv = j;
        if (fabs(m[piv][i]) < 1e-300)
            return false;
        for (k = 0; k <= 2 * n; k++) {
            double t = m[i][k];

            m[i][k] = m[piv][k], m[piv][k] = t;
        }
        for (j = 0; j < n; j++) {
            double f;

            if (j == i)
                continue;
            f = m[j][i] / m[i][i];
            for (k = i; k <= 2 * n; k++)
                m[j][k] -= f * m[i][k];
        }
    }
    for (i = 0; i < n; i++) {
        b[i] = m[i][2 * n] / m[i][i];
        if (inv)
            for (j = 0; j < n; j++)
                inv[i][j] = m[i][n + j] / m[i][i];
    }
    return true;
}

/* Closed-form start: given the camera centre (nadir x, y and height h), the
 * homography H ~ K R M with M (x, y, 1) = (x - nx, y - ny, h); K R from
 * H M^-1, f from its row norms, R the nearest rotation. */
static bool cr_cam_start(const cr_cam_problem_t *pb, const double pos[3], double *logf, double r[9])
{
    double mi[9] = {1.0, 0.0, pos[0] / pos[2], 0.0, 1.0, pos[1] / pos[2], 0.0, 0.0, 1.0 / pos[2]};
    double t[9] = {1.0, 0.0, -pb->cx, 0.0, 1.0, -pb->cy, 0.0, 0.0, 1.0}, a[9], n1, n2, n3, f, lam;
    int i;

    cr_m3_mul(pb->h, mi, a);
    cr_m3_mul(t, a, a);
    n1 = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    n2 = sqrt(a[3] * a[3] + a[4] * a[4] + a[5] * a[5]);
    n3 = sqrt(a[6] * a[6] + a[7] * a[7] + a[8] * a[8]);
    if (!(n3 > 0.0) || !(n1 > 0.0) || !(n2 > 0.0))
        return false;
    f = sqrt(n1 * n2) / n3;
    for (i = 0; i < 6; i++)
        a[i] /= f;
    lam = cbrt(cr_m3_det(a));
    if (lam == 0.0 || !isfinite(lam))
        return false;
    for (i = 0; i < 9; i++)
        r[i] = a[i] / lam;
    if (!cr_m3_orthonormalise(r))
        return false;
    *logf = log(f);
    return true;
}

int cr_calib_camera_fit(cr_calib_result_t *res, int width, int height, const cr_calib_params_t *p,
                        const double (*diamond_px)[2], const double *diamond_along_mm, const bool *diamond_long,
                        int n_diamonds, double diamond_sigma_mm)
{
    cr_cam_problem_t pb;
    double logf, r[9], pos[3], cur[CR_CAM_MAX_RES], trial[CR_CAM_MAX_RES], jac[CR_CAM_NP][CR_CAM_MAX_RES];
    double lambda = 1e-3, cost, cov[CR_CAM_NP][CR_CAM_NP], cu, cv, x0, y0;
    int n, it, i, j, k;

    if (!res || !p || width <= 0 || height <= 0 || n_diamonds < 0 || n_diamonds > CR_TABLE_DIAMOND_COUNT ||
        (n_diamonds > 0 && (!diamond_px || !diamond_along_mm || !diamond_long || !(diamond_sigma_mm > 0.0))) ||
        !(p->prior_height_mm > 0.0) || !(p->prior_height_sigma_mm > 0.0))
        return CR_CALIB_ERR_INVALID;
    res->camera_source = CR_CALIB_CAMERA_NONE;
    memset(&pb, 0, sizeof pb);
    pb.h = res->table_to_px;
    pb.cx = 0.5 * (width - 1), pb.cy = 0.5 * (height - 1);
    if (p->intrinsics) { /* the principal point and focal length measured apart */
        if (!(p->intrinsics->fx > 0.0))
            return CR_CALIB_ERR_INVALID;
        pb.cx = p->intrinsics->cx, pb.cy = p->intrinsics->cy;
        pb.known_f = true, pb.known_logf = log(p->intrinsics->fx);
    }
    /* the table size from the homography's own corners is not known here:
     * recover L and W as the preimages' extent of the result's corners */
    {
        double xs[4], ys[4];

        for (k = 0; k < 4; k++) {
            double qu, qv;

            if (!cr_calib_undistort(res, res->corners_px[k][0], res->corners_px[k][1], &qu, &qv) ||
                !cr_calib_apply(res->px_to_table, qu, qv, &xs[k], &ys[k]))
                return CR_CALIB_ERR_GEOMETRY;
        }
        pb.L = 0.5 * (xs[2] + xs[3] - xs[0] - xs[1]);
        pb.W = 0.5 * (ys[1] + ys[2] - ys[0] - ys[3]);
        if (!(pb.L > 0.0) || !(pb.W > 0.0))
            return CR_CALIB_ERR_GEOMETRY;
    }
    pb.dpx = diamond_px, pb.dal = diamond_along_mm, pb.dlong = diamond_long, pb.nd = n_diamonds;
    pb.dsig = n_diamonds > 0 ? diamond_sigma_mm : 1.0;
    pb.rail_h = p->rail_height_mm;
    pb.prior_h = p->prior_height_mm, pb.prior_sig = p->prior_height_sigma_mm;

    /* start: above the footprint of the principal ray at the prior height */
    cu = pb.cx, cv = pb.cy;
    if (!cr_calib_apply(res->px_to_table, cu, cv, &x0, &y0))
        return CR_CALIB_ERR_GEOMETRY;
    pos[0] = x0, pos[1] = y0, pos[2] = p->prior_height_mm;
    if (!cr_cam_start(&pb, pos, &logf, r))
        return CR_CALIB_ERR_GEOMETRY;
    if (pb.known_f) { /* along the family height and focal length scale together */
        pos[2] *= exp(pb.known_logf - logf);
        if (!cr_cam_start(&pb, pos, &logf, r))
            return CR_CALIB_ERR_GEOMETRY;
        logf = pb.known_logf;
    }
    n = cr_cam_residuals(&pb, logf, r, pos, cur);
    if (n < 0)
        return CR_CALIB_ERR_GEOMETRY;
    cost = 0.0;
    for (i = 0; i < n; i++)
        cost += cur[i] * cur[i];
    /* Levenberg-Marquardt, forward-difference Jacobian */
    for (it = 0; it < 100; it++) {
        double jtj[CR_CAM_NP][CR_CAM_NP], g[CR_CAM_NP], step[CR_CAM_NP], steps[CR_CAM_NP];
        bool better = false;

        steps[0] = 1e-6;
        steps[1] = steps[2] = steps[3] = 1e-7;
        steps[4] = steps[5] = steps[6] = 1e-3;
        for (k = 0; k < CR_CAM_NP; k++) {
            double lf = logf, w[3] = {0.0, 0.0, 0.0}, rr[9], pp[3] = {pos[0], pos[1], pos[2]};

            if (k == 0)
                lf += steps[0];
            else if (k < 4)
                w[k - 1] = steps[k];
            else
                pp[k - 4] += steps[k];
            cr_rot_update(r, w, rr);
            if (cr_cam_residuals(&pb, lf, rr, pp, jac[k]) != n)
                return CR_CALIB_ERR_GEOMETRY;
            for (i = 0; i < n; i++)
                jac[k][i] = (jac[k][i] - cur[i]) / steps[k];
        }
        for (j = 0; j < CR_CAM_NP; j++) {
            g[j] = 0.0;
            for (i = 0; i < n; i++)
                g[j] -= jac[j][i] * cur[i];
            for (k = 0; k < CR_CAM_NP; k++) {
                jtj[j][k] = 0.0;
                for (i = 0; i < n; i++)
                    jtj[j][k] += jac[j][i] * jac[k][i];
            }
        }
        if (it > 0 && lambda < 1e-12)
            lambda = 1e-12;
        for (;;) {
            double a[CR_CAM_NP][CR_CAM_NP], lf, w[3], rr[9], pp[3], c2 = 0.0;
            int m;

            memcpy(a, jtj, sizeof a);
            for (j = 0; j < CR_CAM_NP; j++)
                a[j][j] *= 1.0 + lambda, step[j] = g[j];
            if (!cr_solve_n(CR_CAM_NP, a, step, NULL))
                return CR_CALIB_ERR_GEOMETRY;
            lf = logf + step[0];
            w[0] = step[1], w[1] = step[2], w[2] = step[3];
            cr_rot_update(r, w, rr);
            pp[0] = pos[0] + step[4], pp[1] = pos[1] + step[5], pp[2] = pos[2] + step[6];
            m = cr_cam_residuals(&pb, lf, rr, pp, trial);
            if (m == n) {
                for (i = 0; i < n; i++)
                    c2 += trial[i] * trial[i];
            }
            if (m == n && c2 <= cost) {
                better = cost - c2 > 1e-12 * (1.0 + cost);
                logf = lf, memcpy(r, rr, sizeof rr), memcpy(pos, pp, sizeof pp);
                memcpy(cur, trial, sizeof(double) * (size_t)n);
                cost = c2;
                lambda *= 0.3;
                break;
            }
            lambda *= 10.0;
            if (lambda > 1e12)
                break;
        }
        if (!better)
            break;
    }
    /* covariance of the parameters: (J^T J)^-1 at the solution */
    {
        double jtj[CR_CAM_NP][CR_CAM_NP], b[CR_CAM_NP] = {0.0};

        for (j = 0; j < CR_CAM_NP; j++)
            for (k = 0; k < CR_CAM_NP; k++) {
                jtj[j][k] = 0.0;
                for (i = 0; i < n; i++)
                    jtj[j][k] += jac[j][i] * jac[k][i];
            }
        if (!cr_solve_n(CR_CAM_NP, jtj, b, cov))
            return CR_CALIB_ERR_GEOMETRY;
    }
    if (!(pos[2] > p->rail_height_mm))
        return CR_CALIB_ERR_GEOMETRY;
    {
        cr_camera_t *cam = &res->camera;
        double f = exp(logf), e = 0.0;
        int ng = 2 * CR_CAM_GRID_U * CR_CAM_GRID_V;

        memset(cam, 0, sizeof *cam);
        cam->width = width, cam->height = height;
        cam->fx = cam->fy = f;
        cam->cx = pb.cx, cam->cy = pb.cy;
        cam->k1 = res->dist_f_px > 0.0 ? res->k1 * (f / res->dist_f_px) * (f / res->dist_f_px) : 0.0;
        cam->k2 = res->dist_f_px > 0.0 ? res->k2 * pow(f / res->dist_f_px, 4.0) : 0.0;
        memcpy(cam->rot, r, sizeof r);
        memcpy(cam->pos, pos, sizeof pos);
        for (i = 0; i < 3; i++)
            res->camera_sigma_mm[i] = sqrt(fabs(cov[4 + i][4 + i]));
        for (i = 0; i < ng; i++)
            e += cur[i] * cur[i];
        res->camera_rms_px = CR_CAM_H_SIGMA_PX * sqrt(e / ng);
        if (n_diamonds > 0) {
            e = 0.0;
            for (i = 0; i < n_diamonds; i++)
                e += cur[ng + i] * cur[ng + i];
            res->diamond_rms_mm = pb.dsig * sqrt(e / n_diamonds);
        }
        res->n_diamonds = n_diamonds;
        if (pb.known_f)
            res->camera_source = CR_CALIB_CAMERA_INTRINSICS;
        else if (n_diamonds > 0)
            res->camera_source = CR_CALIB_CAMERA_DIAMONDS;
        else if (res->camera_sigma_mm[2] < 0.1 * pos[2])
            res->camera_source = CR_CALIB_CAMERA_HOMOGRAPHY;
        else
            res->camera_source = CR_CALIB_CAMERA_PRIOR;
    }
    return CR_CALIB_OK;
}

/* ---- the table size from the balls ------------------------------------------------------ */

bool cr_calib_rack_gives_scale(const cr_calib_rack_t *r)
{
    return r && r->scale > 0.0 && (r->where == CR_CALIB_RACK_AT_FOOT || r->where == CR_CALIB_RACK_AT_HEAD);
}

double cr_calib_parallax(const cr_calib_result_t *res)
{
    const double h = res->camera_source != CR_CALIB_CAMERA_NONE ? res->camera.pos[2] : 3000.0;

    return h > 2.0 * CR_BALL_RADIUS_MM ? h / (h - CR_BALL_RADIUS_MM) : 1.0;
}

int cr_calib_table_infer(const cr_calib_result_t *res, const cr_table_t *t, cr_table_t *out, char *why,
                         size_t why_len)
{
    static const char *const names[] = {"9ft", "8ft", "7ft"};
    double par, width, best = HUGE_VAL;
    char what[160];
    int i, bi = -1;
    bool rack, sized;

    if (!res || !t || !out || res->status != CR_CALIB_OK || !(t->width_mm > 0.0))
        return CR_CALIB_ERR_INVALID;
    /* a rack over a foot spot, else two or more separate balls */
    rack = cr_calib_rack_gives_scale(&res->rack);
    sized = res->n_balls_sized >= 2 && res->ball_size_mm > 0.0;
    if (!rack && !sized && (res->n_balls_measured < 2 || !(res->ball_diameter_mm > 0.0)))
        return CR_CALIB_ERR_INVALID;
    par = cr_calib_parallax(res);
    if (rack) {
        width = t->width_mm / (res->rack.scale / par);
        snprintf(what, sizeof what, "the rack, a %s by its shape, spreads %.1f%% %s than a frozen one,",
                 res->rack.game == CR_GAME_9BALL ? "9-ball diamond" : res->rack.game == CR_GAME_10BALL ? "10-ball triangle"
                                                                                                      : "15-ball triangle",
                 100.0 * fabs(res->rack.scale / par - 1.0), res->rack.scale >= par ? "wider" : "narrower");
    } else if (sized) {
        /* the spheres the outlines give: no parallax or perspective left */
        width = t->width_mm * 2.0 * CR_BALL_RADIUS_MM / res->ball_size_mm;
        snprintf(what, sizeof what, "%d balls, their outlines fitted as spheres, measure %.1f mm across",
                 res->n_balls_sized, res->ball_size_mm);
    } else {
        width = t->width_mm * 2.0 * CR_BALL_RADIUS_MM / (res->ball_diameter_mm / par);
        snprintf(what, sizeof what, "%d balls measure %.1f mm across", res->n_balls_measured,
                 res->ball_diameter_mm / par);
    }
    for (i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
        cr_table_t c;

        if (cr_table_parse(names[i], &c) != CR_OK)
            continue;
        if (fabs(c.width_mm / width - 1.0) < best)
            best = fabs(c.width_mm / width - 1.0), bi = i, *out = c;
    }
    if (bi < 0 || best > 0.06) {
        if (width < 800.0 || width > 1500.0) { /* no pool table: a blob that was no ball */
            if (why && why_len > 0)
                snprintf(why, why_len,
                         "%s against a %.0f mm wide surface: a %.0f mm wide surface is no pool table, size not "
                         "inferred",
                         what, t->width_mm, width);
            return CR_CALIB_ERR_GEOMETRY;
        }
        cr_table_init(out, 2.0 * width, width);
        bi = -1;
    }
    if (why && why_len > 0)
        snprintf(why, why_len, "%s against a %.0f mm wide surface: the surface is %.0f x %.0f mm (balls 57.15 mm, 2:1)%s%s",
                 what, t->width_mm, 2.0 * width, width, bi >= 0 ? ", nearest standard size " : ", no standard size within 6%",
                 bi >= 0 ? names[bi] : "");
    return CR_CALIB_OK;
}
