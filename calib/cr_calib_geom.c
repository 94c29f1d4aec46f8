/*
 * cr_calib_geom.c - small dense geometry for the calibration: the
 * four-point homography (8x8 Gauss-Jordan with partial pivoting), its
 * inverse, and point mapping. Pure functions, no allocation.
 */
#include <math.h>

#include "cr_calib.h"

static bool cr_calib_solve8(double a[8][9])
{
    int i, j, k;

    for (i = 0; i < 8; i++) {
        int piv = i;

        for (j = i + 1; j < 8; j++)
            if (fabs(a[j][i]) > fabs(a[piv][i]))
                piv = j;
        if (fabs(a[piv][i]) < 1e-12)
            return false;
        if (piv != i)
            for (k = 0; k < 9; k++) {
                double tmp = a[i][k];

                a[i][k] = a[piv][k];
                a[piv][k] = tmp;
            }
        for (j = 0; j < 8; j++) {
            double f;

            if (j == i)
                continue;
            f = a[j][i] / a[i][i];
            for (k = i; k < 9; k++)
                a[j][k] -= f * a[i][k];
        }
    }
    for (i = 0; i < 8; i++)
        a[i][8] /= a[i][i];
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
    if (!cr_calib_solve8(a))
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
    if (res->k1 == 0.0 || rd == 0.0) {
        *qu = u, *qv = v;
        return true;
    }
    for (it = 0; it < 30; it++) {
        double g = ru * (1.0 + res->k1 * ru * ru) - rd, dg = 1.0 + 3.0 * res->k1 * ru * ru;

        if (dg <= 1e-6)
            return false;
        ru -= g / dg;
        if (fabs(g) < 1e-13)
            break;
    }
    if (!(ru > 0.0) || 1.0 + 3.0 * res->k1 * ru * ru <= 0.0)
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
    s = 1.0 + res->k1 * (x * x + y * y);
    *u = res->dist_centre_px[0] + res->dist_f_px * x * s;
    *v = res->dist_centre_px[1] + res->dist_f_px * y * s;
    return true;
}
