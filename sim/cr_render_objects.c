/*
 * cr_render_objects.c - what moves: balls (ray-cast spheres with stripes,
 * number circles and printed numbers), the cue (a tapered cylinder) and the
 * arm (round capsules), their shading under the lamps, and the soft shadows
 * and contact darkening they cast on the table.
 *
 * Every pixel ray is intersected with the objects binned to its tile; edges
 * get an analytic coverage from the ray's distance to the surface (one pixel
 * wide), and the two nearest layers are blended over the background.
 */
#include <string.h>

#include "cr_render_internal.h"

/* Ball surface (body frame, unit normal): stripe band and number circles. */
#define CR_STRIPE_HALF 0.45       /* |n_z| below this is the stripe */
#define CR_NUMBER_CIRCLE_COS 0.9004471023526769 /* cos 0.45: the white number circle's */
#define CR_NUMBER_CIRCLE_SIN 0.43496553411123023 /* angular radius is 0.45 rad */

/* sRGB ball colours (RULES.md §5.3). */
static const uint8_t cr_ball_rgb[9][3] = {
    {242, 240, 230}, /* 0: cue ball (ivory white) */
    {250, 192, 8},   /* 1 yellow */
    {12, 48, 165},   /* 2 blue */
    {212, 22, 24},   /* 3 red */
    {82, 34, 132},   /* 4 purple */
    {250, 104, 12},  /* 5 orange */
    {8, 118, 58},    /* 6 green */
    {122, 20, 30},   /* 7 maroon */
    {16, 16, 18},    /* 8 black */
};

/* 5 x 7 digits, rows top to bottom, bit 4 = leftmost column. */
static const uint8_t cr_digits[10][7] = {
    {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}, {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e},
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}, {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e},
    {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}, {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e},
    {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}, {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
    {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}, {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c},
};

/* Cue colours along its length from the tip (mm, sRGB). */
static const struct {
    double until_mm;
    uint8_t rgb[3];
} cr_cue_bands[] = {
    {4.0, {48, 86, 150}},    /* chalked tip */
    {26.0, {236, 234, 222}}, /* ferrule */
    {735.0, {226, 196, 142}}, /* maple shaft */
    {760.0, {40, 40, 42}},   /* joint */
    {775.0, {205, 205, 210}}, /* joint ring */
    {1010.0, {96, 44, 22}},  /* forearm */
    {1030.0, {225, 210, 170}}, /* ring */
    {1290.0, {30, 30, 32}},  /* wrap */
    {1440.0, {82, 36, 20}},  /* butt sleeve */
    {1e9, {18, 18, 18}},     /* bumper */
};

/* ---- small vector helpers --------------------------------------------------- */

static void cr_sub3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[0] - b[0];
    out[1] = a[1] - b[1];
    out[2] = a[2] - b[2];
}

static double cr_norm3(double v[3])
{
    double n = sqrt(cr_dot3(v, v));

    if (n > 0.0) {
        v[0] /= n;
        v[1] /= n;
        v[2] /= n;
    }
    return n;
}

/* Closest points of segments p0 + s*d0 and p1 + t*d1 (s, t in [0, 1];
 * Ericson, Real-Time Collision Detection 5.1.9). */
static void cr_seg_seg(const double p0[3], const double d0[3], const double p1[3], const double d1[3], double *s_out,
                       double *t_out)
{
    double r[3], a = cr_dot3(d0, d0), e = cr_dot3(d1, d1), f, s, t;

    cr_sub3(p0, p1, r);
    f = cr_dot3(d1, r);
    if (a <= 1e-12 && e <= 1e-12) {
        s = t = 0.0;
    } else if (a <= 1e-12) {
        s = 0.0;
        t = cr_clamp(f / e, 0.0, 1.0);
    } else {
        double c = cr_dot3(d0, r);

        if (e <= 1e-12) {
            t = 0.0;
            s = cr_clamp(-c / a, 0.0, 1.0);
        } else {
            double b = cr_dot3(d0, d1), den = a * e - b * b;

            s = den > 1e-12 ? cr_clamp((b * f - c * e) / den, 0.0, 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = cr_clamp(-c / a, 0.0, 1.0);
            } else if (t > 1.0) {
                t = 1.0;
                s = cr_clamp((b - c) / a, 0.0, 1.0);
            }
        }
    }
    *s_out = s;
    *t_out = t;
}

static void cr_lin3(const uint8_t rgb[3], float out[3])
{
    out[0] = (float)cr_srgb_to_lin(rgb[0]);
    out[1] = (float)cr_srgb_to_lin(rgb[1]);
    out[2] = (float)cr_srgb_to_lin(rgb[2]);
}

/* ---- setup ------------------------------------------------------------------ */

static void cr_quat_matrix(const double q_in[4], double m[9])
{
    double w = q_in[0], x = q_in[1], y = q_in[2], z = q_in[3];
    double n = sqrt(w * w + x * x + y * y + z * z);

    if (!(n > 1e-12)) {
        w = 1.0, x = y = z = 0.0;
    } else {
        w /= n, x /= n, y /= n, z /= n;
    }
    m[0] = 1.0 - 2.0 * (y * y + z * z);
    m[1] = 2.0 * (x * y - w * z);
    m[2] = 2.0 * (x * z + w * y);
    m[3] = 2.0 * (x * y + w * z);
    m[4] = 1.0 - 2.0 * (x * x + z * z);
    m[5] = 2.0 * (y * z - w * x);
    m[6] = 2.0 * (x * z - w * y);
    m[7] = 2.0 * (y * z + w * x);
    m[8] = 1.0 - 2.0 * (x * x + y * y);
}

static void cr_obj_axis(cr_obj_t *o)
{
    int k;

    cr_sub3(o->b, o->a, o->e);
    o->ee = cr_dot3(o->e, o->e);
    o->len = sqrt(o->ee);
    for (k = 0; k < 3; k++)
        o->mid[k] = 0.5 * (o->a[k] + o->b[k]);
    o->bound = 0.5 * o->len + (o->ra > o->rb ? o->ra : o->rb);
}

/* How far (horizontally, mm) the shadow and contact darkening of a ball
 * centred at b can reach from its contact point. */
static double cr_ball_reach(const cr_renderer_t *r, const double b[3], double R)
{
    double reach = CR_AO_FADE1 * R;
    int l;

    for (l = 0; l < r->n_lamps; l++) {
        const cr_lamp_t *lp = &r->lamps[l];
        double h = lp->pos[2] - b[2], f, off, ext;

        if (h <= 1.0)
            return HUGE_VAL;
        f = b[2] / h; /* ground shift per mm of lamp offset */
        off = hypot(b[0] - lp->pos[0], b[1] - lp->pos[1]) * f;
        ext = off + R * lp->pos[2] / h + lp->radius * f + 1.0;
        reach = ext > reach ? ext : reach;
    }
    return reach;
}

void cr_render_objects_setup(cr_renderer_t *r, const cr_render_scene_t *s)
{
    const double R = r->table.ball_radius_mm;
    int i, n = 0;

    for (i = 0; i < s->n_balls; i++) {
        const cr_render_ball_t *b = &s->balls[i];
        cr_obj_t *o;

        if (!b->visible)
            continue;
        o = &r->objs[n++];
        memset(o, 0, sizeof(*o));
        o->kind = CR_OBJ_BALL;
        o->id = b->id;
        o->label = CR_RENDER_LABEL_BALL0 + b->id;
        o->a[0] = b->x_mm;
        o->a[1] = b->y_mm;
        o->a[2] = R + b->lift_mm;
        o->ra = o->rb = R;
        cr_quat_matrix(b->q, o->rot);
        cr_sub3(r->cam.pos, o->a, o->oc);
        o->oc2 = cr_dot3(o->oc, o->oc);
        o->pix = sqrt(o->oc2) / r->cam.fx;
        o->reach2 = cr_ball_reach(r, o->a, R);
        o->reach2 *= o->reach2;
        cr_lin3(cr_ball_rgb[b->id == 0 ? 0 : (b->id - 1) % 8 + 1], o->albedo);
    }
    if (s->cue.present) {
        const cr_render_cue_t *c = &s->cue;
        double h = c->dir_deg * CR_PI / 180.0, el = c->elevation_deg * CR_PI / 180.0;
        cr_obj_t *o = &r->objs[n++];

        memset(o, 0, sizeof(*o));
        o->kind = CR_OBJ_CUE;
        o->label = CR_RENDER_LABEL_CUE;
        o->a[0] = c->tip_x_mm;
        o->a[1] = c->tip_y_mm;
        o->a[2] = c->tip_z_mm;
        o->b[0] = c->tip_x_mm - CR_RENDER_CUE_LENGTH_MM * cos(h) * cos(el);
        o->b[1] = c->tip_y_mm - CR_RENDER_CUE_LENGTH_MM * sin(h) * cos(el);
        o->b[2] = c->tip_z_mm + CR_RENDER_CUE_LENGTH_MM * sin(el);
        o->ra = CR_RENDER_CUE_TIP_RADIUS_MM;
        o->rb = CR_RENDER_CUE_BUTT_RADIUS_MM;
        cr_obj_axis(o);
    }
    if (s->arm.present) {
        for (i = 0; i + 1 < s->arm.n_points; i++) {
            cr_obj_t *o = &r->objs[n++];

            memset(o, 0, sizeof(*o));
            o->kind = CR_OBJ_ARM;
            o->id = i;
            o->label = CR_RENDER_LABEL_ARM;
            memcpy(o->a, s->arm.pts_mm[i], sizeof(o->a));
            memcpy(o->b, s->arm.pts_mm[i + 1], sizeof(o->b));
            o->ra = s->arm.radius_mm[i];
            o->rb = s->arm.radius_mm[i + 1];
            cr_lin3(s->arm.rgb[i], o->albedo);
            cr_obj_axis(o);
        }
    }
    r->n_objs = n;
}

/* ---- binning ------------------------------------------------------------------- */

/* Image bounding box of the 3D box [lo, hi]; false when nothing is in view.
 * Corners beyond the distortion's turn-over radius are projected at that
 * radius (the edge of what the camera images) so that they cannot fold
 * back; a corner behind the camera gives the whole image. */
static bool cr_box_image(const cr_renderer_t *r, const double lo[3], const double hi[3], int bb[4])
{
    const cr_camera_t *cam = &r->cam;
    const double *m = cam->rot, lim = r->max_radius;
    double u0 = HUGE_VAL, v0 = HUGE_VAL, u1 = -HUGE_VAL, v1 = -HUGE_VAL;
    int k;

    for (k = 0; k < 8; k++) {
        double px = (k & 1 ? hi[0] : lo[0]) - cam->pos[0], py = (k & 2 ? hi[1] : lo[1]) - cam->pos[1];
        double pz = -((k & 4 ? hi[2] : lo[2]) - cam->pos[2]);
        double zc = m[6] * px + m[7] * py + m[8] * pz, a, b, rr, s, u, v;

        if (!(zc > 1e-6)) {
            u0 = v0 = -1e9;
            u1 = v1 = 1e9;
            break;
        }
        a = (m[0] * px + m[1] * py + m[2] * pz) / zc;
        b = (m[3] * px + m[4] * py + m[5] * pz) / zc;
        rr = sqrt(a * a + b * b);
        if (rr > lim) {
            a *= lim / rr;
            b *= lim / rr;
        }
        rr = a * a + b * b;
        s = 1.0 + cam->k1 * rr + cam->k2 * rr * rr;
        u = cam->fx * a * s + cam->cx;
        v = cam->fy * b * s + cam->cy;
        u0 = u < u0 ? u : u0;
        u1 = u > u1 ? u : u1;
        v0 = v < v0 ? v : v0;
        v1 = v > v1 ? v : v1;
    }
    /* margin for the one-pixel edge ramp, distortion and blur */
    u0 -= 3.0, v0 -= 3.0, u1 += 3.0, v1 += 3.0;
    if (u1 < 0.0 || v1 < 0.0 || u0 > r->w - 1 || v0 > r->h - 1)
        return false;
    bb[0] = u0 < 0.0 ? 0 : (int)u0;
    bb[1] = v0 < 0.0 ? 0 : (int)v0;
    bb[2] = u1 > r->w - 1 ? r->w - 1 : (int)u1;
    bb[3] = v1 > r->h - 1 ? r->h - 1 : (int)v1;
    return true;
}

/* Marks the image of a round piece (segment p0 -> p1 with radii r0, r1;
 * p0 == p1 for a sphere) and the region its shadow may fall on. */
static void cr_bin_piece(cr_renderer_t *r, const double p0[3], const double p1[3], double r0, double r1, int bit,
                         bool contact, cr_mark_fn mark)
{
    double lo[3], hi[3], slo[3], shi[3], rad = r0 > r1 ? r0 : r1;
    int bb[4], k, l;

    for (k = 0; k < 3; k++) {
        lo[k] = (p0[k] < p1[k] ? p0[k] : p1[k]) - rad;
        hi[k] = (p0[k] > p1[k] ? p0[k] : p1[k]) + rad;
    }
    if (cr_box_image(r, lo, hi, bb))
        mark(r, bb[0], bb[1], bb[2], bb[3], bit, 0);
    if (!(r->p.shadow_strength > 0.0) || lo[2] > 1500.0)
        return;
    /* Shadow: the box seen from every lamp, cast on z = 0 and z = rail top. */
    slo[0] = slo[1] = HUGE_VAL;
    shi[0] = shi[1] = -HUGE_VAL;
    for (l = 0; l < r->n_lamps; l++) {
        const cr_lamp_t *lp = &r->lamps[l];
        double pen;

        if (hi[2] >= lp->pos[2] - 1.0)
            continue;
        pen = lp->radius * hi[2] / (lp->pos[2] - hi[2]) + 2.0;
        for (k = 0; k < 16; k++) {
            double cx = k & 1 ? hi[0] : lo[0], cy = k & 2 ? hi[1] : lo[1], cz = k & 4 ? hi[2] : lo[2];
            double zp = k & 8 ? CR_RAIL_H : 0.0, f, x, y;

            if (cz <= zp)
                f = 0.0;
            else
                f = (lp->pos[2] - zp) / (lp->pos[2] - cz);
            x = lp->pos[0] + (cx - lp->pos[0]) * f;
            y = lp->pos[1] + (cy - lp->pos[1]) * f;
            if (cz <= zp) {
                x = cx;
                y = cy;
            }
            slo[0] = x - pen < slo[0] ? x - pen : slo[0];
            slo[1] = y - pen < slo[1] ? y - pen : slo[1];
            shi[0] = x + pen > shi[0] ? x + pen : shi[0];
            shi[1] = y + pen > shi[1] ? y + pen : shi[1];
        }
    }
    if (contact) {
        /* the contact darkening */
        double c0 = 0.5 * (lo[0] + hi[0]), c1 = 0.5 * (lo[1] + hi[1]), rr = CR_AO_FADE1 * rad + 1.0;

        slo[0] = c0 - rr < slo[0] ? c0 - rr : slo[0];
        slo[1] = c1 - rr < slo[1] ? c1 - rr : slo[1];
        shi[0] = c0 + rr > shi[0] ? c0 + rr : shi[0];
        shi[1] = c1 + rr > shi[1] ? c1 + rr : shi[1];
    }
    if (slo[0] > shi[0])
        return;
    slo[2] = 0.0;
    shi[2] = CR_RAIL_H;
    if (cr_box_image(r, slo, shi, bb))
        mark(r, bb[0], bb[1], bb[2], bb[3], bit, 1);
}

void cr_render_objects_bin(cr_renderer_t *r, cr_mark_fn mark)
{
    int k;

    for (k = 0; k < r->n_objs; k++) {
        const cr_obj_t *o = &r->objs[k];
        int pieces, j;

        if (o->kind == CR_OBJ_BALL) {
            cr_bin_piece(r, o->a, o->a, o->ra, o->ra, k, true, mark);
            continue;
        }
        /* long objects in pieces of at most 60 mm so the tiles follow them */
        pieces = (int)ceil(o->len / 60.0);
        if (pieces < 1)
            pieces = 1;
        for (j = 0; j < pieces; j++) {
            double w0 = (double)j / pieces, w1 = (double)(j + 1) / pieces, p0[3], p1[3];
            int c;

            for (c = 0; c < 3; c++) {
                p0[c] = o->a[c] + w0 * o->e[c];
                p1[c] = o->a[c] + w1 * o->e[c];
            }
            cr_bin_piece(r, p0, p1, o->ra + (o->rb - o->ra) * w0, o->ra + (o->rb - o->ra) * w1, k, false, mark);
        }
    }
}

/* ---- intersection ------------------------------------------------------------ */

static bool cr_hit_ball(const cr_renderer_t *r, const cr_obj_t *o, const double d[3], cr_ohit_t *h)
{
    const double *c = r->cam.pos;
    double b = cr_dot3(d, o->oc), s = -b, perp2 = o->oc2 - b * b, dist, R = o->ra;

    if (s <= 0.0)
        return false;
    dist = perp2 > 0.0 ? sqrt(perp2) : 0.0;
    h->cov = cr_clamp((R - dist) / o->pix + 0.5, 0.0, 1.0);
    if (h->cov <= 0.0)
        return false;
    if (dist < R) {
        h->t = s - sqrt(R * R - perp2);
        h->p[0] = c[0] + h->t * d[0];
        h->p[1] = c[1] + h->t * d[1];
        h->p[2] = c[2] + h->t * d[2];
        cr_sub3(h->p, o->a, h->n);
        h->n[0] /= R, h->n[1] /= R, h->n[2] /= R;
    } else {
        double q[3] = {c[0] + s * d[0], c[1] + s * d[1], c[2] + s * d[2]};

        cr_sub3(q, o->a, h->n);
        cr_norm3(h->n);
        h->p[0] = o->a[0] + R * h->n[0];
        h->p[1] = o->a[1] + R * h->n[1];
        h->p[2] = o->a[2] + R * h->n[2];
        h->t = s;
    }
    h->w = 0.0;
    return true;
}

/* A round cone around the axis a -> b (the cue and the arm). */
static bool cr_hit_capsule(const cr_renderer_t *r, const cr_obj_t *o, const double d[3], cr_ohit_t *h)
{
    const double *c = r->cam.pos;
    double w0[3], bdot, dd, ee, den, sc, tc, q[3], x[3], delta, rad, pix, tmp[3];

    cr_sub3(c, o->a, w0);
    bdot = cr_dot3(d, o->e);
    dd = cr_dot3(d, w0);
    ee = cr_dot3(o->e, w0);
    den = o->ee - bdot * bdot; /* |d| = 1 */
    tc = den > 1e-9 ? (o->ee > 0.0 ? (ee - bdot * dd) / den : 0.0) : 0.0;
    tc = cr_clamp(tc, 0.0, 1.0);
    sc = tc * bdot - dd;
    if (sc <= 0.0)
        return false;
    q[0] = c[0] + sc * d[0], q[1] = c[1] + sc * d[1], q[2] = c[2] + sc * d[2];
    x[0] = o->a[0] + tc * o->e[0], x[1] = o->a[1] + tc * o->e[1], x[2] = o->a[2] + tc * o->e[2];
    cr_sub3(q, x, tmp);
    delta = sqrt(cr_dot3(tmp, tmp));
    rad = o->ra + (o->rb - o->ra) * tc;
    pix = sc / r->cam.fx;
    h->cov = cr_clamp((rad - delta) / pix + 0.5, 0.0, 1.0);
    if (h->cov <= 0.0)
        return false;
    if (delta < rad) {
        double half = sqrt(rad * rad - delta * delta), axis_w;

        if (tc > 0.0 && tc < 1.0 && o->len > 0.0) {
            double cosang = bdot / o->len, sinang = sqrt(cr_clamp(1.0 - cosang * cosang, 0.0025, 1.0));

            half /= sinang;
        }
        h->t = sc - half;
        h->p[0] = c[0] + h->t * d[0], h->p[1] = c[1] + h->t * d[1], h->p[2] = c[2] + h->t * d[2];
        cr_sub3(h->p, o->a, tmp);
        axis_w = o->ee > 0.0 ? cr_clamp(cr_dot3(tmp, o->e) / o->ee, 0.0, 1.0) : 0.0;
        x[0] = o->a[0] + axis_w * o->e[0], x[1] = o->a[1] + axis_w * o->e[1], x[2] = o->a[2] + axis_w * o->e[2];
        cr_sub3(h->p, x, h->n);
        cr_norm3(h->n);
        h->w = axis_w;
    } else {
        cr_sub3(q, x, h->n);
        cr_norm3(h->n);
        h->p[0] = x[0] + rad * h->n[0], h->p[1] = x[1] + rad * h->n[1], h->p[2] = x[2] + rad * h->n[2];
        h->t = sc;
        h->w = tc;
    }
    return true;
}

static bool cr_hit_obj(const cr_renderer_t *r, int k, const double d[3], cr_ohit_t *h)
{
    const cr_obj_t *o = &r->objs[k];
    bool hit = o->kind == CR_OBJ_BALL ? cr_hit_ball(r, o, d, h) : cr_hit_capsule(r, o, d, h);

    h->obj = k;
    return hit;
}

/* The two nearest hits among the objects in mask. */
static int cr_nearest(const cr_renderer_t *r, const double d[3], uint32_t mask, cr_ohit_t *h0, cr_ohit_t *h1)
{
    int k, n = 0;

    h0->obj = h1->obj = -1;
    for (k = 0; k < r->n_objs && mask; k++) {
        cr_ohit_t h;

        if (!(mask & (1u << k)))
            continue;
        mask &= ~(1u << k);
        if (!cr_hit_obj(r, k, d, &h))
            continue;
        n++;
        if (h0->obj < 0 || h.t < h0->t) {
            *h1 = *h0;
            *h0 = h;
        } else if (h1->obj < 0 || h.t < h1->t) {
            *h1 = h;
        }
    }
    return n;
}

/* ---- shading ---------------------------------------------------------------------- */

/* Coverage 0..1 of the ink of number num at tangent coordinates (u, v) of
 * the number circle (radius rho). */
static double cr_number_ink(int num, double u, double v, double rho)
{
    int nd = num >= 10 ? 2 : 1, digits[2], k;
    double hgt = 1.15 * rho, gw = hgt * 5.0 / 7.0, gap = 0.12 * gw, total = nd * gw + (nd - 1) * gap;
    double x0 = -total / 2.0;

    digits[0] = nd == 2 ? num / 10 : num;
    digits[1] = num % 10;
    double ink = 0.0;

    for (k = 0; k < nd; k++) {
        double gx = (u - (x0 + k * (gw + gap))) / gw * 5.0 - 0.5;
        double gy = (hgt / 2.0 - v) / hgt * 7.0 - 0.5;
        int ix = (int)floor(gx), iy = (int)floor(gy), a, b;
        double fx = gx - ix, fy = gy - iy, s = 0.0;

        if (gx < -1.0 || gx > 5.0 || gy < -1.0 || gy > 7.0)
            continue;
        for (b = 0; b < 2; b++) {
            for (a = 0; a < 2; a++) {
                int cx = ix + a, cy = iy + b;
                double wgt = (a ? fx : 1.0 - fx) * (b ? fy : 1.0 - fy);

                if (cx >= 0 && cx < 5 && cy >= 0 && cy < 7 && (cr_digits[digits[k]][cy] >> (4 - cx) & 1))
                    s += wgt;
            }
        }
        s = cr_smoothstep(0.25, 0.6, s);
        ink = s > ink ? s : ink;
    }
    return ink;
}

/* Surface colour of ball o at body-frame normal nb; aa is the edge width in
 * normal units. */
static void cr_ball_albedo(const cr_obj_t *o, const double nb[3], double aa, double alb[3])
{
    static const double white[3] = {0.88, 0.86, 0.79};
    const double cos_c = CR_NUMBER_CIRCLE_COS, rho = CR_NUMBER_CIRCLE_SIN;
    double colour = 0.0, circle, ink = 0.0;
    int k;

    if (o->id == 0) {
        for (k = 0; k < 3; k++)
            alb[k] = white[k];
        return;
    }
    if (o->id <= 8)
        colour = 1.0;
    else
        colour = cr_smoothstep(CR_STRIPE_HALF + aa, CR_STRIPE_HALF - aa, fabs(nb[2]));
    circle = cr_smoothstep(cos_c - aa * rho, cos_c + aa * rho, fabs(nb[0]));
    if (circle > 0.0) {
        /* digits upright along body z, read from outside the ball
         * (checked on rendered images: the camera's view is not mirrored) */
        double u = nb[0] > 0.0 ? nb[1] : -nb[1];

        ink = cr_number_ink(o->id, u, nb[2], rho);
    }
    for (k = 0; k < 3; k++) {
        double base = colour * o->albedo[k] + (1.0 - colour) * white[k];
        double in_circle = (1.0 - ink) * white[k] + ink * 0.012;

        alb[k] = (1.0 - circle) * base + circle * in_circle;
    }
}

/* Reflected lamp light at p (normal n, unit view ray d) for a glossy
 * surface (Fresnel f0, blur rough radians). */
static double cr_obj_gloss(const cr_renderer_t *r, const double p[3], const double n[3], const double d[3],
                           double fresnel, double rough)
{
    double dn = cr_dot3(d, n), refl[3] = {d[0] - 2.0 * dn * n[0], d[1] - 2.0 * dn * n[1], d[2] - 2.0 * dn * n[2]};
    double s = 0.0;
    int i;

    for (i = 0; i < r->n_lamps; i++) {
        const cr_lamp_t *l = &r->lamps[i];
        double v[3] = {l->pos[0] - p[0], l->pos[1] - p[1], l->pos[2] - p[2]};
        double dist = sqrt(cr_dot3(v, v)), cosang = cr_dot3(v, refl) / dist, ang2, spread, e_norm;

        if (v[2] <= 0.0 || cosang < 0.9)
            continue;
        ang2 = 2.0 * (1.0 - cosang);
        spread = l->radius / dist + rough;
        e_norm = l->weight * (v[2] / dist) / (dist * dist);
        s += e_norm / (spread * spread) * exp(-ang2 / (spread * spread));
    }
    return fresnel * s;
}

/* Linear colour of a hit (before vignetting). */
static void cr_shade_hit(const cr_renderer_t *r, const cr_ohit_t *h, const double d[3], double out[3])
{
    const cr_obj_t *o = &r->objs[h->obj];
    const double *n = h->n;
    double alb[3], e, dir[3], dist, cosv = cr_clamp(-cr_dot3(d, n), 0.0, 1.0), fr, spec, env[3];
    int i, k;

    e = r->ambient * (0.55 + 0.45 * n[2]);
    for (i = 0; i < r->n_lamps; i++)
        e += cr_lamp_irradiance(&r->lamps[i], h->p, n, dir, &dist);
    if (o->kind == CR_OBJ_BALL) {
        double nb[3];
        const double *m = o->rot;
        double refl_z = d[2] - 2.0 * cr_dot3(d, n) * n[2];

        /* body normal = rot^T n */
        nb[0] = m[0] * n[0] + m[3] * n[1] + m[6] * n[2];
        nb[1] = m[1] * n[0] + m[4] * n[1] + m[7] * n[2];
        nb[2] = m[2] * n[0] + m[5] * n[1] + m[8] * n[2];
        cr_ball_albedo(o, nb, 0.8 * o->pix / o->ra, alb);
        {
            double g = 1.0 - cosv, g2 = g * g;

            fr = 0.04 + 0.96 * g2 * g2 * g;
        }
        spec = cr_obj_gloss(r, h->p, n, d, 0.05, 0.015);
        /* the room above is dim, the lit cloth below is coloured */
        for (k = 0; k < 3; k++)
            env[k] = refl_z < 0.0 ? 0.75 * r->cloth_lin[k] : 0.03;
        for (k = 0; k < 3; k++) {
            double bounce = 0.3 * r->cloth_lin[k] * (n[2] < 0.0 ? -n[2] : 0.0);

            out[k] = (1.0 - fr) * alb[k] * (e + bounce) + fr * env[k] + spec;
        }
    } else if (o->kind == CR_OBJ_CUE) {
        double s_mm = h->w * o->len, grain;
        size_t b = 0;

        while (s_mm > cr_cue_bands[b].until_mm)
            b++;
        for (k = 0; k < 3; k++)
            alb[k] = cr_srgb_to_lin(cr_cue_bands[b].rgb[k]);
        grain = 1.0 + 0.06 * sin(s_mm * 0.21 + 3.0 * sin(s_mm * 0.013));
        spec = cr_obj_gloss(r, h->p, n, d, 0.045, 0.06);
        for (k = 0; k < 3; k++)
            out[k] = alb[k] * grain * e + spec;
    } else {
        for (k = 0; k < 3; k++)
            out[k] = o->albedo[k] * e * (0.92 + 0.08 * cosv);
    }
    for (k = 0; k < 3; k++)
        out[k] *= r->exposure;
}

/* Fraction of a lamp disc (radius w at the occluder) hidden by a disc of
 * radius rad whose centre is delta away. */
static double cr_disc_cover(double rad, double w, double delta)
{
    double maxo, lo, hi;

    if (delta >= rad + w)
        return 0.0;
    if (w < 1e-9)
        return delta < rad ? 1.0 : 0.0;
    maxo = rad >= w ? 1.0 : (rad * rad) / (w * w);
    lo = fabs(rad - w);
    hi = rad + w;
    if (delta <= lo)
        return maxo;
    return maxo * cr_smoothstep(hi, lo, delta);
}

/* Light factor (0..1) of the background at surface point p from the
 * shadow casters in mask. */
static double cr_shadow_factor(const cr_renderer_t *r, const double p[3], uint32_t mask)
{
    static const double up[3] = {0.0, 0.0, 1.0};
    double direct[CR_RENDER_MAX_LAMPS], vis[CR_RENDER_MAX_LAMPS];
    double ldir[CR_RENDER_MAX_LAMPS][3], ldist[CR_RENDER_MAX_LAMPS];
    double occ_amb = 0.0, total, lit;
    int i, k;

    for (i = 0; i < r->n_lamps; i++) {
        direct[i] = cr_lamp_irradiance(&r->lamps[i], p, up, ldir[i], &ldist[i]);
        vis[i] = 1.0;
    }
    for (k = 0; k < r->n_objs && mask; k++) {
        const cr_obj_t *o = &r->objs[k];

        if (!(mask & (1u << k)))
            continue;
        mask &= ~(1u << k);
        if (o->kind == CR_OBJ_BALL) {
            double v[3], dist2, dist, hz2;

            cr_sub3(o->a, p, v);
            hz2 = v[0] * v[0] + v[1] * v[1];
            if (hz2 > o->reach2)
                continue;
            dist2 = hz2 + v[2] * v[2];
            dist = sqrt(dist2);
            if (v[2] > 0.0) {
                double s = sqrt(hz2) / o->ra;

                occ_amb += (o->ra * o->ra / dist2) * (v[2] / dist) * (1.0 - cr_smoothstep(CR_AO_FADE0, CR_AO_FADE1, s));
            }
            for (i = 0; i < r->n_lamps; i++) {
                double u = cr_dot3(v, ldir[i]), q[3], delta, w;

                if (direct[i] <= 0.0 || u <= 0.0 || u >= ldist[i])
                    continue;
                q[0] = v[0] - u * ldir[i][0], q[1] = v[1] - u * ldir[i][1], q[2] = v[2] - u * ldir[i][2];
                delta = cr_dot3(q, q);
                w = r->lamps[i].radius * u / ldist[i];
                if (delta >= (o->ra + w) * (o->ra + w))
                    continue;
                vis[i] *= 1.0 - cr_disc_cover(o->ra, w, sqrt(delta));
            }
        } else {
            double vm[3];

            cr_sub3(o->mid, p, vm);
            for (i = 0; i < r->n_lamps; i++) {
                double seg[3], s, t, a[3], b[3], diff[3], delta, u, rad, um, q[3], lim;

                if (direct[i] <= 0.0)
                    continue;
                /* quick reject: the object's bounding sphere against the
                 * cone from p to the lamp disc */
                um = cr_dot3(vm, ldir[i]);
                q[0] = vm[0] - um * ldir[i][0], q[1] = vm[1] - um * ldir[i][1], q[2] = vm[2] - um * ldir[i][2];
                lim = o->bound + r->lamps[i].radius;
                if (um < -o->bound || cr_dot3(q, q) > lim * lim)
                    continue;
                cr_sub3(r->lamps[i].pos, p, seg);
                cr_seg_seg(p, seg, o->a, o->e, &s, &t);
                if (s <= 0.0 || s >= 1.0)
                    continue;
                a[0] = p[0] + s * seg[0], a[1] = p[1] + s * seg[1], a[2] = p[2] + s * seg[2];
                b[0] = o->a[0] + t * o->e[0], b[1] = o->a[1] + t * o->e[1], b[2] = o->a[2] + t * o->e[2];
                cr_sub3(a, b, diff);
                delta = sqrt(cr_dot3(diff, diff));
                u = s * ldist[i];
                rad = o->ra + (o->rb - o->ra) * t;
                vis[i] *= 1.0 - cr_disc_cover(rad, r->lamps[i].radius * u / ldist[i], delta);
            }
        }
    }
    if (occ_amb > 1.0)
        occ_amb = 1.0;
    total = r->ambient;
    lit = r->ambient * (1.0 - occ_amb);
    for (i = 0; i < r->n_lamps; i++) {
        total += direct[i];
        lit += direct[i] * vis[i];
    }
    if (!(total > 0.0))
        return 1.0;
    return 1.0 - r->p.shadow_strength * (1.0 - lit / total);
}

double cr_render_objects_shadow(const cr_renderer_t *r, int x, int y, const double d[3], uint32_t shad)
{
    float z = r->bg_z[cr_tidx(r, x, y)];
    double t, p[3];

    if (!shad || z != z || !(r->p.shadow_strength > 0.0) || !(d[2] < 0.0))
        return 1.0;
    t = (z - r->cam.pos[2]) / d[2];
    p[0] = r->cam.pos[0] + t * d[0];
    p[1] = r->cam.pos[1] + t * d[1];
    p[2] = z;
    return cr_shadow_factor(r, p, shad);
}

bool cr_render_objects_hits(const cr_renderer_t *r, const double d[3], uint32_t prim, cr_ohit_t h[2])
{
    if (prim)
        cr_nearest(r, d, prim, &h[0], &h[1]);
    else
        h[0].obj = h[1].obj = -1;
    return h[0].obj < 0 || h[0].cov < 1.0;
}

void cr_render_objects_shade(const cr_renderer_t *r, int x, int y, const double d[3], const cr_ohit_t h[2],
                             double shadow, float out[3], int *label)
{
    const size_t i = (size_t)y * r->w + x;
    double bgc[3], c0[3], c1[3], vig;
    int k;

    *label = CR_RENDER_LABEL_NONE;
    for (k = 0; k < 3; k++)
        bgc[k] = r->lin_of_srgb[r->bg[3 * i + k]] * shadow;
    if (h[0].obj < 0) {
        for (k = 0; k < 3; k++)
            out[k] = (float)bgc[k];
        return;
    }
    vig = cr_vignette(r, x, y);
    cr_shade_hit(r, &h[0], d, c0);
    if (h[0].cov < 1.0 && h[1].obj >= 0) {
        cr_shade_hit(r, &h[1], d, c1);
        for (k = 0; k < 3; k++)
            c1[k] = h[1].cov * c1[k] * vig + (1.0 - h[1].cov) * bgc[k];
    } else {
        for (k = 0; k < 3; k++)
            c1[k] = bgc[k];
    }
    for (k = 0; k < 3; k++)
        out[k] = (float)(h[0].cov * c0[k] * vig + (1.0 - h[0].cov) * c1[k]);
    if (h[0].cov >= 0.5)
        *label = r->objs[h[0].obj].label;
}

int cr_render_objects_label(const cr_renderer_t *r, const double d[3], uint32_t prim)
{
    cr_ohit_t h0, h1;

    cr_nearest(r, d, prim, &h0, &h1);
    if (h0.obj >= 0 && h0.cov >= 0.5)
        return r->objs[h0.obj].label;
    if (h1.obj >= 0 && h1.cov >= 0.5)
        return r->objs[h1.obj].label;
    return CR_RENDER_LABEL_NONE;
}
