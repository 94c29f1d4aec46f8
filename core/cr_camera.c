/*
 * cr_camera.c - pinhole camera with Brown radial distortion over the table
 * (see cr_camera.h for the frames and the pixel convention).
 */
#include "cr_camera.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define CR_PI 3.14159265358979323846

/* Points per side of the rail outline sampled when fitting the focal length
 * (the outline is curved in the image once there is tilt or distortion). */
#define CR_FIT_SAMPLES 64

/* ---- distortion ---------------------------------------------------------- */

/* Distorted radius of undistorted radius r (normalised units). */
static double cr_dist_radius(double k1, double k2, double r)
{
    double r2 = r * r;

    return r * (1.0 + k1 * r2 + k2 * r2 * r2);
}

/* d/dr of cr_dist_radius. */
static double cr_dist_slope(double k1, double k2, double r)
{
    double r2 = r * r;

    return 1.0 + 3.0 * k1 * r2 + 5.0 * k2 * r2 * r2;
}

/* The smallest undistorted radius where the distortion stops increasing
 * (slope 0), or HUGE_VAL when it increases for ever. Roots of
 * 1 + 3 k1 s + 5 k2 s^2 = 0 in s = r^2. */
static double cr_dist_limit(double k1, double k2)
{
    double s = HUGE_VAL;

    if (k2 == 0.0) {
        if (k1 < 0.0)
            s = -1.0 / (3.0 * k1);
    } else {
        double a = 5.0 * k2, b = 3.0 * k1, disc = b * b - 4.0 * a;

        if (disc >= 0.0) {
            double q = sqrt(disc);
            double s1 = (-b - q) / (2.0 * a), s2 = (-b + q) / (2.0 * a);

            if (s1 > 0.0)
                s = s1;
            if (s2 > 0.0 && s2 < s)
                s = s2;
        }
    }
    return s == HUGE_VAL ? HUGE_VAL : sqrt(s);
}

/* Undistorted radius for distorted radius rd >= 0: safeguarded Newton
 * inside [0, limit]. Returns false when rd is beyond the turn-over. */
static bool cr_undist_radius(double k1, double k2, double rd, double *r_out)
{
    double lim = cr_dist_limit(k1, k2);
    double lo = 0.0, hi, r;
    int i;

    if (rd == 0.0) {
        *r_out = 0.0;
        return true;
    }
    if (lim != HUGE_VAL) {
        if (rd > cr_dist_radius(k1, k2, lim))
            return false;
        hi = lim;
    } else {
        hi = rd > 1.0 ? rd : 1.0;
        for (i = 0; i < 64 && cr_dist_radius(k1, k2, hi) < rd; i++)
            hi *= 2.0;
        if (cr_dist_radius(k1, k2, hi) < rd)
            return false;
    }
    if (k1 == 0.0 && k2 == 0.0) {
        *r_out = rd;
        return true;
    }
    r = rd < hi ? rd : 0.5 * hi;
    for (i = 0; i < 100; i++) {
        double f = cr_dist_radius(k1, k2, r) - rd;
        double df = cr_dist_slope(k1, k2, r);
        double rn;

        if (f == 0.0)
            break;
        if (f < 0.0)
            lo = r;
        else
            hi = r;
        rn = df > 0.0 ? r - f / df : 0.5 * (lo + hi);
        if (!(rn >= lo && rn <= hi))
            rn = 0.5 * (lo + hi);
        if (fabs(rn - r) <= 1e-16 * (1.0 + r)) {
            r = rn;
            break;
        }
        r = rn;
    }
    *r_out = r;
    return true;
}

/* ---- projection ---------------------------------------------------------- */

bool cr_camera_project(const cr_camera_t *cam, double x, double y, double z, double *u, double *v)
{
    const double *m = cam->rot;
    double px = x - cam->pos[0], py = y - cam->pos[1], pz = -(z - cam->pos[2]);
    double xc = m[0] * px + m[1] * py + m[2] * pz;
    double yc = m[3] * px + m[4] * py + m[5] * pz;
    double zc = m[6] * px + m[7] * py + m[8] * pz;
    double a, b, r2, s;

    if (!(zc > 0.0))
        return false;
    a = xc / zc;
    b = yc / zc;
    r2 = a * a + b * b;
    s = 1.0 + cam->k1 * r2 + cam->k2 * r2 * r2;
    *u = cam->fx * a * s + cam->cx;
    *v = cam->fy * b * s + cam->cy;
    return true;
}

double cr_camera_max_radius(const cr_camera_t *cam)
{
    return cr_dist_limit(cam->k1, cam->k2);
}

bool cr_camera_undistort(const cr_camera_t *cam, double u, double v, double *a, double *b)
{
    double xd = (u - cam->cx) / cam->fx, yd = (v - cam->cy) / cam->fy;
    double rd = hypot(xd, yd), r;

    if (!cr_undist_radius(cam->k1, cam->k2, rd, &r))
        return false;
    if (rd > 0.0) {
        *a = xd * (r / rd);
        *b = yd * (r / rd);
    } else {
        *a = 0.0;
        *b = 0.0;
    }
    return true;
}

bool cr_camera_ray(const cr_camera_t *cam, double u, double v, double dir[3])
{
    const double *m = cam->rot;
    double a, b;

    if (!cr_camera_undistort(cam, u, v, &a, &b))
        return false;
    /* rot^T (a, b, 1) in (x, y, -z); flip the last axis back to z up. */
    dir[0] = m[0] * a + m[3] * b + m[6];
    dir[1] = m[1] * a + m[4] * b + m[7];
    dir[2] = -(m[2] * a + m[5] * b + m[8]);
    return true;
}

bool cr_camera_unproject_plane(const cr_camera_t *cam, double u, double v, double z, double *x, double *y)
{
    double d[3], t;

    if (!cr_camera_ray(cam, u, v, d) || d[2] == 0.0)
        return false;
    t = (z - cam->pos[2]) / d[2];
    if (!(t > 0.0))
        return false;
    *x = cam->pos[0] + t * d[0];
    *y = cam->pos[1] + t * d[1];
    return true;
}

/* ---- building -------------------------------------------------------------- */

void cr_camera_setup_defaults(cr_camera_setup_t *s, int width, int height)
{
    if (!s)
        return;
    s->width = width;
    s->height = height;
    s->height_mm = 3000.0;
    s->offset_x_mm = 0.0;
    s->offset_y_mm = 0.0;
    s->yaw_deg = 0.0;
    s->tilt_deg = 0.0;
    s->tilt_azimuth_deg = 90.0;
    s->focal_scale = 1.0;
    s->margin = 0.04;
    s->k1 = 0.0;
    s->k2 = 0.0;
}

/* Rotates v about the unit axis k by angle (Rodrigues). */
static void cr_rotate(const double k[3], double angle, const double v[3], double out[3])
{
    double c = cos(angle), s = sin(angle);
    double kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    double kx[3] = {k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]};
    int i;

    for (i = 0; i < 3; i++)
        out[i] = v[i] * c + kx[i] * s + k[i] * kv * (1.0 - c);
}

int cr_camera_build(const cr_camera_setup_t *s, const cr_table_t *t, cr_camera_t *out)
{
    cr_camera_t cam;
    double yaw, tilt, az, axes[3][3], k[3];
    double lim, fit = HUGE_VAL, x0, x1, y0, y1, half_w, half_h;
    int i, j, side;

    if (!s || !t || !out || s->width <= 0 || s->height <= 0 || !(s->height_mm > 100.0) ||
        !(s->tilt_deg >= 0.0 && s->tilt_deg <= 60.0) || !(s->focal_scale > 0.0) ||
        !(s->margin >= 0.0 && s->margin < 0.5) || !isfinite(s->k1) || !isfinite(s->k2) ||
        !isfinite(s->offset_x_mm) || !isfinite(s->offset_y_mm) || !isfinite(s->yaw_deg) ||
        !isfinite(s->tilt_azimuth_deg) || !(t->length_mm > 0.0) || !(t->width_mm > 0.0))
        return CR_ERR_INVALID;

    yaw = s->yaw_deg * CR_PI / 180.0;
    tilt = s->tilt_deg * CR_PI / 180.0;
    az = s->tilt_azimuth_deg * CR_PI / 180.0;
    /* Camera axes in the right-handed frame (x, y, -z): looking down, yawed. */
    axes[0][0] = cos(yaw), axes[0][1] = sin(yaw), axes[0][2] = 0.0;
    axes[1][0] = -sin(yaw), axes[1][1] = cos(yaw), axes[1][2] = 0.0;
    axes[2][0] = 0.0, axes[2][1] = 0.0, axes[2][2] = 1.0;
    /* Tilt: rotate all three about (down x azimuth direction), which turns
     * the optical axis toward (cos az, sin az, 0). */
    k[0] = -sin(az);
    k[1] = cos(az);
    k[2] = 0.0;
    for (i = 0; i < 3; i++) {
        double r[3];

        cr_rotate(k, tilt, axes[i], r);
        for (j = 0; j < 3; j++)
            cam.rot[i * 3 + j] = r[j];
    }

    cam.width = s->width;
    cam.height = s->height;
    cam.cx = (s->width - 1) / 2.0;
    cam.cy = (s->height - 1) / 2.0;
    cam.k1 = s->k1;
    cam.k2 = s->k2;
    cam.pos[0] = t->length_mm / 2.0 + s->offset_x_mm;
    cam.pos[1] = t->width_mm / 2.0 + s->offset_y_mm;
    cam.pos[2] = s->height_mm;

    /* Fit: with fx = fy = 1 and cx = cy = 0 the projection gives the
     * distorted normalised coordinates, which do not depend on f. */
    cam.fx = cam.fy = 1.0;
    cam.cx = cam.cy = 0.0;
    /* The turn-over radius of the distortion bounds the usable field. */
    lim = cr_dist_limit(s->k1, s->k2);
    x0 = -CR_CAMERA_RAIL_WIDTH_MM;
    x1 = t->length_mm + CR_CAMERA_RAIL_WIDTH_MM;
    y0 = -CR_CAMERA_RAIL_WIDTH_MM;
    y1 = t->width_mm + CR_CAMERA_RAIL_WIDTH_MM;
    half_w = (s->width - 1) / 2.0 * (1.0 - s->margin);
    half_h = (s->height - 1) / 2.0 * (1.0 - s->margin);
    for (side = 0; side < 4; side++) {
        for (i = 0; i <= CR_FIT_SAMPLES; i++) {
            double f = (double)i / CR_FIT_SAMPLES, px, py, u, v, a, b;
            const double *m = cam.rot;
            double qx, qy, qz, zc;

            switch (side) {
            case 0: px = x0 + f * (x1 - x0), py = y0; break;
            case 1: px = x1, py = y0 + f * (y1 - y0); break;
            case 2: px = x1 - f * (x1 - x0), py = y1; break;
            default: px = x0, py = y1 - f * (y1 - y0); break;
            }
            qx = px - cam.pos[0];
            qy = py - cam.pos[1];
            qz = -(CR_CAMERA_RAIL_HEIGHT_MM - cam.pos[2]);
            zc = m[6] * qx + m[7] * qy + m[8] * qz;
            if (!(zc > 0.0))
                return CR_ERR_INVALID;
            a = (m[0] * qx + m[1] * qy + m[2] * qz) / zc;
            b = (m[3] * qx + m[4] * qy + m[5] * qz) / zc;
            if (hypot(a, b) >= lim)
                return CR_ERR_INVALID;
            if (!cr_camera_project(&cam, px, py, CR_CAMERA_RAIL_HEIGHT_MM, &u, &v))
                return CR_ERR_INVALID;
            if (fabs(u) > 0.0 && half_w / fabs(u) < fit)
                fit = half_w / fabs(u);
            if (fabs(v) > 0.0 && half_h / fabs(v) < fit)
                fit = half_h / fabs(v);
        }
    }
    if (!(fit > 0.0) || fit == HUGE_VAL)
        return CR_ERR_INVALID;
    cam.fx = cam.fy = fit * s->focal_scale;
    cam.cx = (s->width - 1) / 2.0;
    cam.cy = (s->height - 1) / 2.0;
    *out = cam;
    return CR_OK;
}

int cr_camera_defaults(cr_camera_t *out, int width, int height, const cr_table_t *t)
{
    cr_camera_setup_t s;

    cr_camera_setup_defaults(&s, width, height);
    return cr_camera_build(&s, t, out);
}

bool cr_camera_table_corners(const cr_camera_t *cam, const cr_table_t *t, double corners_px[4][2])
{
    const double l = t->length_mm, w = t->width_mm;
    const double pts[4][2] = {{0.0, 0.0}, {0.0, w}, {l, w}, {l, 0.0}};
    int i;

    for (i = 0; i < 4; i++)
        if (!cr_camera_project(cam, pts[i][0], pts[i][1], 0.0, &corners_px[i][0], &corners_px[i][1]))
            return false;
    return true;
}

const char *cr_camera_head_side(const cr_camera_t *cam, const cr_table_t *t)
{
    double uh, vh, uc, vc, du, dv;

    if (!cr_camera_project(cam, 0.0, t->width_mm / 2.0, 0.0, &uh, &vh) ||
        !cr_camera_project(cam, t->length_mm / 2.0, t->width_mm / 2.0, 0.0, &uc, &vc))
        return "left";
    du = uh - uc;
    dv = vh - vc;
    if (fabs(du) >= fabs(dv))
        return du < 0.0 ? "left" : "right";
    return dv < 0.0 ? "top" : "bottom";
}

bool cr_camera_plane_homography(const cr_camera_t *cam, double h[9])
{
    const double *m = cam->rot;
    const double p[3] = {-cam->pos[0], -cam->pos[1], cam->pos[2]};
    double t[3];
    int i;

    for (i = 0; i < 3; i++)
        t[i] = m[3 * i] * p[0] + m[3 * i + 1] * p[1] + m[3 * i + 2] * p[2];
    /* columns: K r1, K r2, K t with r1, r2 the rotation's first two columns */
    for (i = 0; i < 3; i++) {
        const double col[3] = {m[i == 2 ? 0 : i], m[3 + (i == 2 ? 0 : i)], m[6 + (i == 2 ? 0 : i)]};
        const double *c = i == 2 ? t : col;

        h[i] = cam->fx * c[0] + cam->cx * c[2];
        h[3 + i] = cam->fy * c[1] + cam->cy * c[2];
        h[6 + i] = c[2];
    }
    if (fabs(h[8]) < 1e-12)
        return false;
    for (i = 0; i < 9; i++)
        h[i] /= h[8];
    h[8] = 1.0;
    return true;
}

/* Decomposes h with focal length f (principal point c): fills rot and pos.
 * Returns false when degenerate. */
static bool decompose(const double h[9], double f, double cx, double cy, double rot[9], double pos[3])
{
    double m[3][3], n1, n2, lam, e, r1[3], r2[3], r3[3], t[3];
    int i;

    for (i = 0; i < 3; i++) {
        m[i][0] = (h[i] - cx * h[6 + i]) / f;
        m[i][1] = (h[3 + i] - cy * h[6 + i]) / f;
        m[i][2] = h[6 + i];
    }
    n1 = sqrt(m[0][0] * m[0][0] + m[0][1] * m[0][1] + m[0][2] * m[0][2]);
    n2 = sqrt(m[1][0] * m[1][0] + m[1][1] * m[1][1] + m[1][2] * m[1][2]);
    if (!(n1 > 0.0 && n2 > 0.0))
        return false;
    lam = 2.0 / (n1 + n2);
    if (m[2][2] * lam < 0.0) /* the table lies in front of the camera */
        lam = -lam;
    for (i = 0; i < 3; i++) {
        r1[i] = m[0][i] / n1 * (lam > 0 ? 1.0 : -1.0);
        r2[i] = m[1][i] / n2 * (lam > 0 ? 1.0 : -1.0);
        t[i] = m[2][i] * lam;
    }
    /* the nearest orthonormal pair, symmetric in r1 and r2 */
    e = r1[0] * r2[0] + r1[1] * r2[1] + r1[2] * r2[2];
    for (i = 0; i < 3; i++) {
        double a = r1[i] - 0.5 * e * r2[i], b = r2[i] - 0.5 * e * r1[i];

        r1[i] = a, r2[i] = b;
    }
    n1 = sqrt(r1[0] * r1[0] + r1[1] * r1[1] + r1[2] * r1[2]);
    n2 = sqrt(r2[0] * r2[0] + r2[1] * r2[1] + r2[2] * r2[2]);
    for (i = 0; i < 3; i++)
        r1[i] /= n1, r2[i] /= n2;
    r3[0] = r1[1] * r2[2] - r1[2] * r2[1];
    r3[1] = r1[2] * r2[0] - r1[0] * r2[2];
    r3[2] = r1[0] * r2[1] - r1[1] * r2[0];
    for (i = 0; i < 3; i++) {
        rot[3 * i] = r1[i];
        rot[3 * i + 1] = r2[i];
        rot[3 * i + 2] = r3[i];
    }
    /* (-px, -py, pz) = R^T t */
    for (i = 0; i < 3; i++) {
        double v = rot[i] * t[0] + rot[3 + i] * t[1] + rot[6 + i] * t[2];

        pos[i] = i < 2 ? -v : v;
    }
    return pos[2] > 0.0;
}

int cr_camera_from_homography(const double h[9], int width, int height, double k1, double k2, double f_hint_px,
                              double height_prior_mm, cr_camera_t *out, bool *f_solved)
{
    const double cx = (width - 1) / 2.0, cy = (height - 1) / 2.0;
    double a[2], b[2], c[2], A1, B1, A2, B2, g, f = 0.0, rot[9], pos[3];
    bool solved = false;
    int i;

    if (width <= 0 || height <= 0 || !h)
        return CR_ERR_INVALID;
    for (i = 0; i < 2; i++) {
        a[i] = h[i] - cx * h[6 + i];
        b[i] = h[3 + i] - cy * h[6 + i];
        c[i] = h[6 + i];
    }
    A1 = a[0] * a[1] + b[0] * b[1], B1 = c[0] * c[1];
    A2 = a[0] * a[0] + b[0] * b[0] - a[1] * a[1] - b[1] * b[1], B2 = c[0] * c[0] - c[1] * c[1];
    if (A1 * A1 + A2 * A2 > 0.0) {
        g = -(A1 * B1 + A2 * B2) / (A1 * A1 + A2 * A2);
        if (g > 0.0) {
            double fs = 1.0 / sqrt(g);

            if (fs > 0.2 * width && fs < 20.0 * width && decompose(h, fs, cx, cy, rot, pos) &&
                acos(fmin(1.0, fabs(rot[8]))) > 2.0 * 3.14159265358979323846 / 180.0) {
                f = fs;
                solved = true;
            }
        }
    }
    if (!solved && f_hint_px > 0.0)
        f = f_hint_px;
    if (!solved && !(f > 0.0)) {
        if (!(height_prior_mm > 0.0))
            return CR_ERR_INVALID;
        f = width; /* the height scales with f for a near-overhead view: two steps settle it */
        for (i = 0; i < 3; i++) {
            if (!decompose(h, f, cx, cy, rot, pos))
                return CR_ERR_INVALID;
            f *= height_prior_mm / pos[2];
        }
    }
    if (!decompose(h, f, cx, cy, rot, pos))
        return CR_ERR_INVALID;
    out->width = width;
    out->height = height;
    out->fx = out->fy = f;
    out->cx = cx;
    out->cy = cy;
    out->k1 = k1;
    out->k2 = k2;
    memcpy(out->rot, rot, sizeof(rot));
    memcpy(out->pos, pos, sizeof(pos));
    if (f_solved)
        *f_solved = solved;
    return CR_OK;
}
