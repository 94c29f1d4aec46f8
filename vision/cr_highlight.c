/*
 * cr_highlight.c - lamps from the highlights of well-seen balls, and balls
 * placed by their highlights (cr_highlight.h).
 */
#include "cr_highlight.h"
#include "cr_vision_internal.h"

#include <math.h>
#include <string.h>

#define CR_HL_TOL_ANG 0.04   /* a ray passes a lamp: within this angle, radians (2.3 degrees) */
#define CR_HL_MIN_COS 0.7    /* a spot this far toward the limb (n.v) is no lamp's: grazing */
#define CR_HL_MIN_SPREAD 300 /* mm between the farthest two balls that saw a lamp */
#define CR_HL_TRIES 4000     /* RANSAC pairs per lamp */
/* a rival constellation: as many lamps, and a residual scatter (px^2) not 3
 * sigmas worse, with the spots' own scatter 0.3 px */
#define CR_HL_RIVAL_SS (9.0 * 0.3 * 0.3)

static double cr_hl_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static bool cr_hl_unit(double a[3])
{
    double n = sqrt(cr_hl_dot(a, a));

    if (!(n > 0.0))
        return false;
    a[0] /= n, a[1] /= n, a[2] /= n;
    return true;
}

void cr_hl_model_init(cr_hl_model_t *m)
{
    if (m)
        memset(m, 0, sizeof *m);
}

/* Whether pixel p is a local maximum: above the neighbours before it in
 * raster order, not below those after (one pixel of a plateau). */
static bool cr_hl_local_max(const uint8_t *p, int stride)
{
    const int c = p[0];

    return c > p[-stride - 1] && c > p[-stride] && c > p[-stride + 1] && c > p[-1] && c >= p[1] &&
           c >= p[stride - 1] && c >= p[stride] && c >= p[stride + 1];
}

/* Keeps spot s among the *n (at most max) of out, strongest first
 * (insertion: the list is short); a spot weaker than all of a full list is
 * dropped. */
static void cr_hl_keep(cr_hl_spot_t *out, int *n, int max, const cr_hl_spot_t *s)
{
    int k;

    if (*n == max && s->top <= out[max - 1].top)
        return;
    for (k = *n < max ? *n : max - 1; k > 0 && out[k - 1].top < s->top; k--)
        out[k] = out[k - 1];
    out[k] = *s;
    if (*n < max)
        (*n)++;
}

int cr_hl_spots(const uint8_t *y, int stride, int w, int h, double cu, double cv, double rad, double r_px,
                double min_top, cr_hl_spot_t *out, int max)
{
    int rho = (int)lrint(0.17 * r_px), rd, x0, x1, y0, y1, i, j, n = 0;
    int ring[8][2];

    if (!y || !out || max <= 0 || !(rad > 0.0))
        return 0;
    rho = rho < 2 ? 2 : rho;
    rd = (int)lrint(0.7071 * rho);
    rd = rd < 2 ? 2 : rd; /* the diagonals at about rho, never the next pixel */
    ring[0][0] = rho, ring[0][1] = 0;
    ring[1][0] = -rho, ring[1][1] = 0;
    ring[2][0] = 0, ring[2][1] = rho;
    ring[3][0] = 0, ring[3][1] = -rho;
    ring[4][0] = rd, ring[4][1] = rd;
    ring[5][0] = -rd, ring[5][1] = rd;
    ring[6][0] = rd, ring[6][1] = -rd;
    ring[7][0] = -rd, ring[7][1] = -rd;
    x0 = (int)floor(cu - rad), x1 = (int)ceil(cu + rad);
    y0 = (int)floor(cv - rad), y1 = (int)ceil(cv + rad);
    x0 = x0 < rho + 1 ? rho + 1 : x0;
    y0 = y0 < rho + 1 ? rho + 1 : y0;
    x1 = x1 > w - rho - 2 ? w - rho - 2 : x1;
    y1 = y1 > h - rho - 2 ? h - rho - 2 : y1;
    for (j = y0; j <= y1; j++)
        for (i = x0; i <= x1; i++) {
            const uint8_t *p = y + (size_t)j * stride + i;
            int c = p[0], k, a, b;
            double mean = 0.0, top, sw = 0.0, su = 0.0, sv = 0.0;
            cr_hl_spot_t s;

            if ((i - cu) * (i - cu) + (j - cv) * (j - cv) > rad * rad)
                continue;
            if (!cr_hl_local_max(p, stride))
                continue;
            for (k = 0; k < 8; k++) {
                int q = p[ring[k][1] * stride + ring[k][0]];

                mean += q;
            }
            mean /= 8.0;
            top = c - mean;
            if (top < min_top)
                continue;
            /* smaller than the ring: at most two of its pixels nearly as
             * bright (another lamp's spot), not the rim of a number circle
             * or a stripe, which fills several */
            for (k = 0, a = 0; k < 8; k++)
                a += p[ring[k][1] * stride + ring[k][0]] > c - 0.5 * top;
            if (a > 2)
                continue;
            for (b = -1; b <= 1; b++)
                for (a = -1; a <= 1; a++) {
                    double e = p[b * stride + a] - mean;

                    if (e > 0.0)
                        sw += e, su += e * a, sv += e * b;
                }
            s.u = i + su / sw;
            s.v = j + sv / sw;
            s.top = top;
            cr_hl_keep(out, &n, max, &s);
        }
    return n;
}

/* Luma at (u, v), bilinear; -1 outside the image. */
static double cr_hl_luma_at(const uint8_t *y, int stride, int w, int h, double u, double v)
{
    const int i = (int)floor(u), j = (int)floor(v);
    const double fu = u - i, fv = v - j;
    const uint8_t *p;

    if (i < 0 || j < 0 || i + 1 >= w || j + 1 >= h)
        return -1.0;
    p = y + (size_t)j * stride + i;
    return (1.0 - fv) * ((1.0 - fu) * p[0] + fu * p[1]) + fv * ((1.0 - fu) * p[stride] + fu * p[stride + 1]);
}

int cr_hl_streaks(const uint8_t *y, int stride, int w, int h, double cu, double cv, double rad, double r_px,
                  double su, double sv, double min_top, cr_hl_spot_t *out, int max)
{
    const double len = hypot(su, sv);
    double rho = 0.17 * r_px, du, dv, nu, nv;
    int x0, x1, y0, y1, i, j, n = 0, pad;

    if (!y || !out || max <= 0 || !(rad > 0.0) || !(len > 0.0))
        return 0;
    rho = rho < 2.0 ? 2.0 : rho;
    du = su / len, dv = sv / len; /* along the smear */
    nu = -dv, nv = du;            /* across it */
    pad = (int)ceil(rho + len) + 2;
    x0 = (int)floor(cu - rad), x1 = (int)ceil(cu + rad);
    y0 = (int)floor(cv - rad), y1 = (int)ceil(cv + rad);
    x0 = x0 < pad ? pad : x0;
    y0 = y0 < pad ? pad : y0;
    x1 = x1 > w - pad - 1 ? w - pad - 1 : x1;
    y1 = y1 > h - pad - 1 ? h - pad - 1 : y1;
    for (j = y0; j <= y1; j++)
        for (i = x0; i <= x1; i++) {
            const uint8_t *p = y + (size_t)j * stride + i;
            const int c = p[0];
            /* the ring: beside the smear, at rho across it, level with
             * the pixel and half a rho either way along it */
            static const double along[3] = {-0.5, 0.0, 0.5};
            double ring[6], mean = 0.0, top, half, lo, hi, t, sw = 0.0, sx = 0.0, mu, mv;
            int k, bright = 0;
            cr_hl_spot_t s;

            if ((i - cu) * (i - cu) + (j - cv) * (j - cv) > rad * rad)
                continue;
            if (!cr_hl_local_max(p, stride))
                continue;
            for (k = 0; k < 6; k++) {
                const double a = k % 2 ? 1.0 : -1.0, f = along[k / 2];

                ring[k] =
                    cr_hl_luma_at(y, stride, w, h, i + a * rho * nu + f * rho * du, j + a * rho * nv + f * rho * dv);
                mean += ring[k];
            }
            mean /= 6.0;
            top = c - mean;
            if (top < min_top)
                continue;
            half = mean + 0.5 * top;
            for (k = 0; k < 6; k++)
                bright += ring[k] > c - 0.5 * top;
            if (bright > 1)
                continue; /* wider than a highlight: a stripe's edge, a number's rim */
            /* the smear's two ends: where it falls to half its height */
            for (lo = 0.0; lo > -(len + rho); lo -= 0.5)
                if (cr_hl_luma_at(y, stride, w, h, i + (lo - 0.5) * du, j + (lo - 0.5) * dv) <= half)
                    break;
            for (hi = 0.0; hi < len + rho; hi += 0.5)
                if (cr_hl_luma_at(y, stride, w, h, i + (hi + 0.5) * du, j + (hi + 0.5) * dv) <= half)
                    break;
            if (hi - lo >= len + rho)
                continue; /* longer than a lamp's smear can be: a line */
            /* across it: the centroid of the excess at the pixel's own
             * place along the smear */
            for (t = -1.0; t <= 1.0; t += 1.0) {
                double e = cr_hl_luma_at(y, stride, w, h, i + t * nu, j + t * nv) - mean;

                if (e > 0.0)
                    sw += e, sx += e * t;
            }
            t = 0.5 * (lo + hi);
            mu = i + t * du + (sw > 0.0 ? sx / sw : 0.0) * nu;
            mv = j + t * dv + (sw > 0.0 ? sx / sw : 0.0) * nv;
            /* one smear has several maxima along it: one spot, the
             * strongest */
            for (k = 0; k < n; k++)
                if (hypot(out[k].u - mu, out[k].v - mv) < rho)
                    break;
            if (k < n) {
                if (out[k].top >= top)
                    continue;
                for (; k + 1 < n; k++)
                    out[k] = out[k + 1];
                n--;
            }
            s.u = mu, s.v = mv, s.top = top;
            cr_hl_keep(out, &n, max, &s);
        }
    return n;
}

/* The point where the ray through pixel (u, v) meets the sphere (C, R)
 * first, and the unit vector from it to the camera. */
static bool cr_hl_hit(const cr_camera_t *cam, double R, const double C[3], double u, double v, double P[3],
                      double view[3])
{
    double d[3], oc[3], a, b, c, disc, t;

    if (!cr_camera_ray(cam, u, v, d))
        return false;
    oc[0] = cam->pos[0] - C[0], oc[1] = cam->pos[1] - C[1], oc[2] = cam->pos[2] - C[2];
    a = cr_hl_dot(d, d);
    b = cr_hl_dot(d, oc);
    c = cr_hl_dot(oc, oc) - R * R;
    disc = b * b - a * c;
    if (!(disc >= 0.0) || !(a > 0.0))
        return false;
    t = (-b - sqrt(disc)) / a;
    if (!(t > 0.0))
        return false;
    P[0] = cam->pos[0] + t * d[0], P[1] = cam->pos[1] + t * d[1], P[2] = cam->pos[2] + t * d[2];
    view[0] = -d[0], view[1] = -d[1], view[2] = -d[2];
    return cr_hl_unit(view);
}

bool cr_hl_new_place(const cr_hl_model_t *m, double R, double x, double y)
{
    int b;

    if (!m || m->n_balls >= CR_HL_MAX_BALLS || m->n_rays >= CR_HL_MAX_RAYS)
        return false;
    for (b = 0; b < m->n_balls; b++)
        if (hypot(m->ball_xy[b][0] - x, m->ball_xy[b][1] - y) < R)
            return false;
    return true;
}

int cr_hl_observe(cr_hl_model_t *m, const cr_camera_t *cam, double R, double x, double y, const cr_hl_spot_t *s,
                  int n)
{
    const double C[3] = {x, y, R};
    int i, added = 0;

    if (!m || !cam || !s || n <= 0 || !cr_hl_new_place(m, R, x, y))
        return 0;
    for (i = 0; i < n && m->n_rays < CR_HL_MAX_RAYS; i++) {
        double P[3], view[3], nr[3], c, *r = m->ray_d[m->n_rays];

        if (!cr_hl_hit(cam, R, C, s[i].u, s[i].v, P, view))
            continue;
        nr[0] = (P[0] - C[0]) / R, nr[1] = (P[1] - C[1]) / R, nr[2] = (P[2] - C[2]) / R;
        c = cr_hl_dot(nr, view);
        if (c < CR_HL_MIN_COS)
            continue;
        r[0] = 2.0 * c * nr[0] - view[0];
        r[1] = 2.0 * c * nr[1] - view[1];
        r[2] = 2.0 * c * nr[2] - view[2];
        if (!(r[2] > 0.0)) /* a lamp is above the ball */
            continue;
        memcpy(m->ray_p[m->n_rays], P, sizeof P);
        m->ray_ball[m->n_rays] = m->n_balls;
        m->n_rays++;
        added++;
    }
    if (added > 0) {
        m->ball_xy[m->n_balls][0] = x;
        m->ball_xy[m->n_balls][1] = y;
        m->n_balls++;
    }
    return added;
}

/* Angle (as distance over range) by which ray k misses point L; HUGE_VAL
 * when L is behind it. */
static double cr_hl_miss(const cr_hl_model_t *m, int k, const double L[3])
{
    double e[3], s, q[3];

    e[0] = L[0] - m->ray_p[k][0], e[1] = L[1] - m->ray_p[k][1], e[2] = L[2] - m->ray_p[k][2];
    s = cr_hl_dot(e, m->ray_d[k]);
    if (!(s > 0.0))
        return HUGE_VAL;
    q[0] = e[0] - s * m->ray_d[k][0], q[1] = e[1] - s * m->ray_d[k][1], q[2] = e[2] - s * m->ray_d[k][2];
    return sqrt(cr_hl_dot(q, q)) / s;
}

/* The rays (unused ones) passing L within the tolerance, one per ball (the
 * nearest), into sel (by ball); returns the number of balls and their
 * spread (mm). */
static int cr_hl_inliers(const cr_hl_model_t *m, const uint8_t *used, const double L[3], int *sel, double *spread)
{
    double best[CR_HL_MAX_BALLS];
    int k, b, a, nb = 0;

    for (b = 0; b < m->n_balls; b++)
        sel[b] = -1, best[b] = CR_HL_TOL_ANG;
    for (k = 0; k < m->n_rays; k++) {
        double e;

        if (used[k])
            continue;
        e = cr_hl_miss(m, k, L);
        if (e < best[m->ray_ball[k]])
            best[m->ray_ball[k]] = e, sel[m->ray_ball[k]] = k;
    }
    *spread = 0.0;
    for (b = 0; b < m->n_balls; b++) {
        if (sel[b] < 0)
            continue;
        nb++;
        for (a = 0; a < b; a++)
            if (sel[a] >= 0) {
                double dd = hypot(m->ball_xy[a][0] - m->ball_xy[b][0], m->ball_xy[a][1] - m->ball_xy[b][1]);

                *spread = dd > *spread ? dd : *spread;
            }
    }
    return nb;
}

/* The point nearest (least squares) to the selected rays. */
static bool cr_hl_nearest(const cr_hl_model_t *m, const int *sel, double L[3])
{
    double A[3][3] = {{0}}, bv[3] = {0};
    int b, i, j, n = 0;

    for (b = 0; b < m->n_balls; b++) {
        const double *d, *p;
        double M[3][3];

        if (sel[b] < 0)
            continue;
        d = m->ray_d[sel[b]], p = m->ray_p[sel[b]];
        for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++)
                M[i][j] = (i == j) - d[i] * d[j];
        for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++) {
                A[i][j] += M[i][j];
                bv[i] += M[i][j] * p[j];
            }
        n++;
    }
    if (n < 2 || !cr_vision_solve(A, bv, 3))
        return false;
    memcpy(L, bv, sizeof bv);
    return true;
}

int cr_hl_solve(cr_hl_model_t *m, double R, int min_balls)
{
    uint8_t used[CR_HL_MAX_RAYS];
    int sel[CR_HL_MAX_BALLS], bsel[CR_HL_MAX_BALLS];
    unsigned int seed = 12345u;
    int lamp, t, k;

    if (!m)
        return 0;
    m->n_lamps = 0;
    m->solved_balls = m->n_balls;
    if (m->n_rays < 2 || min_balls < 2)
        return 0;
    memset(used, 0, sizeof used);
    for (lamp = 0; lamp < CR_HL_MAX_LAMPS; lamp++) {
        double bestL[3] = {0}, spread;
        int best = 0;

        for (t = 0; t < CR_HL_TRIES; t++) {
            int i, j, nb;
            double w0[3], a, b, c, dd, e, den, s1, s2, L[3], p1[3], p2[3], gap[3];

            seed = seed * 1103515245u + 12345u;
            i = (int)((seed >> 8) % (unsigned)m->n_rays);
            seed = seed * 1103515245u + 12345u;
            j = (int)((seed >> 8) % (unsigned)m->n_rays);
            if (used[i] || used[j] || m->ray_ball[i] == m->ray_ball[j])
                continue;
            if (hypot(m->ball_xy[m->ray_ball[i]][0] - m->ball_xy[m->ray_ball[j]][0],
                      m->ball_xy[m->ray_ball[i]][1] - m->ball_xy[m->ray_ball[j]][1]) < 0.5 * CR_HL_MIN_SPREAD)
                continue;
            /* closest points of the two rays */
            for (k = 0; k < 3; k++)
                w0[k] = m->ray_p[i][k] - m->ray_p[j][k];
            a = cr_hl_dot(m->ray_d[i], m->ray_d[i]);
            b = cr_hl_dot(m->ray_d[i], m->ray_d[j]);
            c = cr_hl_dot(m->ray_d[j], m->ray_d[j]);
            dd = cr_hl_dot(m->ray_d[i], w0);
            e = cr_hl_dot(m->ray_d[j], w0);
            den = a * c - b * b;
            if (!(den > 1e-6))
                continue;
            s1 = (b * e - c * dd) / den;
            s2 = (a * e - b * dd) / den;
            if (!(s1 > 2.0 * R) || !(s2 > 2.0 * R))
                continue;
            for (k = 0; k < 3; k++) {
                p1[k] = m->ray_p[i][k] + s1 * m->ray_d[i][k];
                p2[k] = m->ray_p[j][k] + s2 * m->ray_d[j][k];
                gap[k] = p1[k] - p2[k];
                L[k] = 0.5 * (p1[k] + p2[k]);
            }
            if (sqrt(cr_hl_dot(gap, gap)) > CR_HL_TOL_ANG * (s1 < s2 ? s1 : s2))
                continue;
            nb = cr_hl_inliers(m, used, L, sel, &spread);
            if (nb > best && spread >= CR_HL_MIN_SPREAD) {
                best = nb;
                memcpy(bestL, L, sizeof L);
            }
        }
        if (best < min_balls)
            break;
        /* least squares over the inliers, twice (the inliers of the
         * refined point) */
        for (t = 0; t < 2; t++) {
            cr_hl_inliers(m, used, bestL, bsel, &spread);
            if (!cr_hl_nearest(m, bsel, bestL))
                break;
        }
        best = cr_hl_inliers(m, used, bestL, bsel, &spread);
        if (best < min_balls || spread < CR_HL_MIN_SPREAD)
            break;
        memcpy(m->lamp[lamp], bestL, sizeof bestL);
        m->lamp_balls[lamp] = best;
        m->n_lamps++;
        /* every ray near this lamp is this lamp's (not only the nearest per ball) */
        for (k = 0; k < m->n_rays; k++)
            if (!used[k] && cr_hl_miss(m, k, bestL) < CR_HL_TOL_ANG)
                used[k] = 1;
    }
    return m->n_lamps;
}

bool cr_hl_predict(const cr_hl_model_t *m, const cr_camera_t *cam, double R, int k, double x, double y, double *u,
                   double *v)
{
    const double C[3] = {x, y, R};
    double n[3], P[3], tl[3], tc[3];
    int it, i;

    if (!m || !cam || k < 0 || k >= m->n_lamps)
        return false;
    memcpy(P, C, sizeof P);
    for (it = 0; it < 5; it++) {
        for (i = 0; i < 3; i++) {
            tl[i] = m->lamp[k][i] - P[i];
            tc[i] = cam->pos[i] - P[i];
        }
        if (!cr_hl_unit(tl) || !cr_hl_unit(tc))
            return false;
        for (i = 0; i < 3; i++)
            n[i] = tl[i] + tc[i];
        if (!cr_hl_unit(n))
            return false;
        for (i = 0; i < 3; i++)
            P[i] = C[i] + R * n[i];
    }
    if (cr_hl_dot(n, tc) < CR_HL_MIN_COS)
        return false;
    return cr_camera_project(cam, P[0], P[1], P[2], u, v);
}

/* For the centre (x, y): how many lamps find a spot within tol of their
 * prediction (each spot once), the mean residual (du, dv) and its scatter. */
static int cr_hl_match(const cr_hl_model_t *m, const cr_camera_t *cam, double R, double x, double y, double tol,
                       const cr_hl_spot_t *s, int n, double *du, double *dv, double *ss)
{
    uint8_t taken[64];
    double ru[CR_HL_MAX_LAMPS], rv[CR_HL_MAX_LAMPS];
    int k, j, c = 0;

    memset(taken, 0, sizeof taken);
    *du = *dv = *ss = 0.0;
    for (k = 0; k < m->n_lamps; k++) {
        double pu, pv, bd = tol;
        int bj = -1;

        if (!cr_hl_predict(m, cam, R, k, x, y, &pu, &pv))
            continue;
        for (j = 0; j < n && j < 64; j++) {
            double e = hypot(s[j].u - pu, s[j].v - pv);

            if (!taken[j] && e < bd)
                bd = e, bj = j;
        }
        if (bj < 0)
            continue;
        taken[bj] = 1;
        ru[c] = s[bj].u - pu, rv[c] = s[bj].v - pv;
        *du += ru[c], *dv += rv[c];
        c++;
    }
    if (c == 0)
        return 0;
    *du /= c, *dv /= c;
    for (k = 0; k < c; k++)
        *ss += (ru[k] - *du) * (ru[k] - *du) + (rv[k] - *dv) * (rv[k] - *dv);
    return c;
}

/* A translation of the ball a lamp-spot pairing proposes: the centre, how
 * many lamps agree there and their residuals' scatter (cr_hl_match()). */
typedef struct {
    double x, y, ss;
    int c;
} cr_hl_cand_t;

int cr_hl_locate(const cr_hl_model_t *m, const cr_camera_t *cam, double R, double x0, double y0, double reach_mm,
                 double tol_px, const cr_hl_spot_t *s, int n, double *x, double *y, double *sigma_mm)
{
    cr_hl_cand_t cand[CR_HL_MAX_LAMPS * 64];
    double cu, cv, pu, pv, bx = x0, by = y0, bss = HUGE_VAL, r_px, u2, v2;
    int best = 0, k, j, it, nc = 0;

    if (!m || !cam || !s || !x || !y || !sigma_mm || m->n_lamps < 2 || n <= 0)
        return 0;
    if (!cr_camera_project(cam, x0, y0, R, &cu, &cv) || !cr_camera_project(cam, x0 + R, y0, R, &u2, &v2))
        return 0;
    r_px = hypot(u2 - cu, v2 - cv);
    n = n > 64 ? 64 : n;
    /* every pairing of a lamp with a spot proposes a translation of the
     * ball; the one the most lamps agree with wins */
    for (k = 0; k < m->n_lamps; k++) {
        if (!cr_hl_predict(m, cam, R, k, x0, y0, &pu, &pv))
            continue;
        for (j = 0; j < n; j++) {
            cr_hl_cand_t *cd = &cand[nc];
            double du, dv;

            if (!cr_camera_unproject_plane(cam, cu + s[j].u - pu, cv + s[j].v - pv, R, &cd->x, &cd->y) ||
                hypot(cd->x - x0, cd->y - y0) > reach_mm + R * tol_px / r_px)
                continue;
            cd->c = cr_hl_match(m, cam, R, cd->x, cd->y, tol_px, s, n, &du, &dv, &cd->ss);
            if (cd->c > best || (cd->c == best && cd->c > 0 && cd->ss < bss))
                best = cd->c, bss = cd->ss, bx = cd->x, by = cd->y;
            nc++;
        }
    }
    if (best < 2)
        return 0;
    /* a constellation that as many lamps find elsewhere too, about as
     * tightly (the spots of a number's ink or a stripe's edge), places
     * nothing */
    for (k = 0; k < nc; k++)
        if (hypot(cand[k].x - bx, cand[k].y - by) >= 0.2 * R && cand[k].c >= best &&
            cand[k].ss < bss + CR_HL_RIVAL_SS)
            return 0;
    /* refine: move the centre by the mean residual, three times */
    for (it = 0; it < 3; it++) {
        double du, dv, ss, u, v, nx, ny;
        int c = cr_hl_match(m, cam, R, bx, by, tol_px, s, n, &du, &dv, &ss);

        if (c < 2 || !cr_camera_project(cam, bx, by, R, &u, &v) ||
            !cr_camera_unproject_plane(cam, u + du, v + dv, R, &nx, &ny))
            break;
        bx = nx, by = ny, bss = ss, best = c;
    }
    if (hypot(bx - x0, by - y0) > reach_mm)
        return 0;
    *x = bx, *y = by;
    /* the residuals' scatter per lamp, over the lamps that agree (one
     * degree of freedom per axis spent on the mean), with a floor of 0.2 px
     * for the model's own error */
    {
        double sp = sqrt(bss / (2.0 * (best - 1)) / best + CR_HL_MIN_SIGMA_PX * CR_HL_MIN_SIGMA_PX);

        *sigma_mm = sp * R / r_px;
    }
    return best;
}
