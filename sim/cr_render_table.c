/*
 * cr_render_table.c - the static background: every pixel's ray is cast
 * against the table (cloth bed, cushions with their sloped tops and
 * undercut faces, rail caps with diamonds, pocket cuts and holes, floor)
 * and shaded under the lamps; edges are supersampled, then the lens blur
 * and vignetting are applied and the result encoded to sRGB.
 *
 * Geometry (mm, table frame, z up): the cushion runs from the nose line to
 * CR_CUSHION_W behind it, its top rising from CR_NOSE_H at the nose to the
 * rail height at its back; the rail cap is flat at CR_RAIL_H out to
 * CR_RAIL_OUT behind the nose. Pocket facings leave the jaw points at the
 * WPA cut angles (corner 142 deg, side 104 deg, RULES.md §5.4); the hole
 * in the slate and the rail is a circle behind the mouth, past a shelf.
 */
#include <stdlib.h>
#include <string.h>

#include "cr_render_internal.h"

/* Pocket cut angles (RULES.md §5.4) and holes (mm). */
#define CR_CUT_CORNER_DEG 142.0
#define CR_CUT_SIDE_DEG 104.0
#define CR_COT_CORNER (-1.2799416321930783) /* cot 142 deg */
#define CR_COT_SIDE (-0.24932800284318074)  /* cot 104 deg */
#define CR_SHELF_CORNER 30.0
#define CR_SHELF_SIDE 6.0
#define CR_HOLE_R_CORNER 62.0
#define CR_HOLE_R_SIDE 66.0
#define CR_LINER_RING 14.0 /* leather band around the cut on the rail top */

/* Background materials (for the edge detector and shading). */
enum {
    M_NONE = 0,
    M_CLOTH,
    M_CUSHION,
    M_FACE,
    M_RAIL,
    M_DIAMOND,
    M_LINER,
    M_HOLE,
    M_WALL,
    M_FLOOR,
    M_SPOT,
    M_GROOVE
};

typedef struct {
    int mat;
    double p[3];  /* hit point */
    double n[3];  /* shading normal */
    double aux;   /* material detail: depth in the hole, across-rail distance */
    int rail;     /* rail of a cushion/rail hit */
} cr_hit_t;

/* ---- value noise ---------------------------------------------------------- */

static double cr_hashf(int32_t x, int32_t y, uint32_t seed)
{
    return (cr_hash3(x, y, seed) >> 8) * (2.0 / 16777216.0) - 1.0; /* [-1, 1) */
}

static double cr_vnoise(double x, double y, uint32_t seed)
{
    double fx = floor(x), fy = floor(y);
    int32_t ix = (int32_t)fx, iy = (int32_t)fy;
    double tx = x - fx, ty = y - fy;
    double a, b, c, d;

    tx = tx * tx * (3.0 - 2.0 * tx);
    ty = ty * ty * (3.0 - 2.0 * ty);
    a = cr_hashf(ix, iy, seed);
    b = cr_hashf(ix + 1, iy, seed);
    c = cr_hashf(ix, iy + 1, seed);
    d = cr_hashf(ix + 1, iy + 1, seed);
    return a + (b - a) * tx + (c - a) * ty + (a - b - c + d) * tx * ty;
}

static double cr_fbm(double x, double y, uint32_t seed, int octaves)
{
    double s = 0.0, amp = 0.5;
    int i;

    for (i = 0; i < octaves; i++) {
        s += amp * cr_vnoise(x, y, seed + 977u * (uint32_t)i);
        x = x * 2.03 + 17.1;
        y = y * 2.03 - 9.7;
        amp *= 0.5;
    }
    return s;
}

/* ---- geometry ----------------------------------------------------------------- */

/* Distance behind rail k's nose line (negative on the bed side). */
static double cr_depth(const cr_renderer_t *r, int k, double x, double y)
{
    switch (k) {
    case CR_RAIL_HEAD:
        return -x;
    case CR_RAIL_FOOT:
        return x - r->table.length_mm;
    case CR_RAIL_LEFT:
        return -y;
    default:
        return y - r->table.width_mm;
    }
}

/* Distance outside the playing rectangle (max over the rails). */
static double cr_dout(const cr_renderer_t *r, double x, double y, int *rail)
{
    double best = -HUGE_VAL;
    int k;

    for (k = 0; k < 4; k++) {
        double d = cr_depth(r, k, x, y);

        if (d > best) {
            best = d;
            if (rail)
                *rail = k;
        }
    }
    return best;
}

/* Cushion extent along rail k at depth d (0..CR_CUSHION_W): true when the
 * point with along-coordinate s lies on a cushion (between the facings). */
static bool cr_on_cushion(const cr_renderer_t *r, int k, double s, double d)
{
    const double cot_c = CR_COT_CORNER, cot_s = CR_COT_SIDE;
    double l = r->table.length_mm, w = r->table.width_mm;
    double dc = r->table.corner_mouth_mm / sqrt(2.0), ds = r->table.side_mouth_mm / 2.0;

    if (k == CR_RAIL_HEAD || k == CR_RAIL_FOOT)
        return s >= dc + d * cot_c && s <= w - dc - d * cot_c;
    return (s >= dc + d * cot_c && s <= l / 2.0 - ds - d * cot_s) ||
           (s >= l / 2.0 + ds + d * cot_s && s <= l - dc - d * cot_c);
}

static double cr_along(int k, double x, double y)
{
    return (k == CR_RAIL_HEAD || k == CR_RAIL_FOOT) ? y : x;
}

/* Pocket whose hole contains (x, y), or -1. */
static int cr_in_hole(const cr_renderer_t *r, double x, double y)
{
    int i;

    for (i = 0; i < CR_POCKET_COUNT; i++) {
        const cr_pocket_geo_t *g = &r->pockets[i];
        double dx = x - g->hole[0], dy = y - g->hole[1];

        if (dx * dx + dy * dy <= g->hole_r * g->hole_r)
            return i;
    }
    return -1;
}

/* True when (x, y) lies in a pocket's throat: past the mouth line, between
 * the facings. */
static bool cr_in_throat(const cr_renderer_t *r, double x, double y)
{
    int i;

    for (i = 0; i < CR_POCKET_COUNT; i++) {
        const cr_pocket_geo_t *g = &r->pockets[i];
        double mx = 0.5 * (g->a[0] + g->b[0]), my = 0.5 * (g->a[1] + g->b[1]);
        double behind = (x - mx) * g->nm[0] + (y - my) * g->nm[1];

        if (behind < 0.0 || behind > g->reach)
            continue;
        if ((x - g->a[0]) * g->pa[0] + (y - g->a[1]) * g->pa[1] > 0.0)
            continue;
        if ((x - g->b[0]) * g->pb[0] + (y - g->b[1]) * g->pb[1] > 0.0)
            continue;
        return true;
    }
    return false;
}

static void cr_set(double v[3], double x, double y, double z)
{
    v[0] = x;
    v[1] = y;
    v[2] = z;
}

/* Outward normal (xy) of rail k. */
static void cr_rail_normal(int k, double n[2])
{
    n[0] = k == CR_RAIL_HEAD ? -1.0 : k == CR_RAIL_FOOT ? 1.0 : 0.0;
    n[1] = k == CR_RAIL_LEFT ? -1.0 : k == CR_RAIL_RIGHT ? 1.0 : 0.0;
}

/* The ray (c, d) leaves the vertical cylinder (centre xy, radius) at
 * parameter *t (the larger root). Returns false when it misses. */
static bool cr_cyl_exit(const double c[3], const double d[3], const double ctr[2], double rad, double *t)
{
    double ox = c[0] - ctr[0], oy = c[1] - ctr[1];
    double a = d[0] * d[0] + d[1] * d[1], b = ox * d[0] + oy * d[1], q = ox * ox + oy * oy - rad * rad;
    double disc = b * b - a * q;

    if (a < 1e-12 || disc < 0.0)
        return false;
    *t = (-b + sqrt(disc)) / a;
    return true;
}

/* What the ray from the camera centre along unit d hits first. */
static void cr_table_hit(const cr_renderer_t *r, const double d[3], cr_hit_t *h)
{
    const double *c = r->cam.pos;
    const double slope = (CR_RAIL_H - CR_NOSE_H) / CR_CUSHION_W;
    double t_r, pr[3], p0[3], t0, dout_r, best = HUGE_VAL;
    int k, pk, rail = 0, best_k = -1, best_face = 0;

    memset(h, 0, sizeof(*h));
    if (!(d[2] < -1e-9)) {
        h->mat = M_NONE;
        return;
    }
    t_r = (CR_RAIL_H - c[2]) / d[2];
    cr_set(pr, c[0] + t_r * d[0], c[1] + t_r * d[1], CR_RAIL_H);
    t0 = -c[2] / d[2];
    cr_set(p0, c[0] + t0 * d[0], c[1] + t0 * d[1], 0.0);
    dout_r = cr_dout(r, pr[0], pr[1], &rail);

    if (dout_r > CR_RAIL_OUT) {
        double tf = (CR_FLOOR_Z - c[2]) / d[2];

        h->mat = M_FLOOR;
        cr_set(h->p, c[0] + tf * d[0], c[1] + tf * d[1], CR_FLOOR_Z);
        cr_set(h->n, 0.0, 0.0, 1.0);
        return;
    }
    pk = cr_in_hole(r, pr[0], pr[1]);
    if (dout_r >= CR_CUSHION_W && pk < 0) {
        h->mat = M_RAIL;
        h->rail = rail;
        h->aux = dout_r;
        memcpy(h->p, pr, sizeof(pr));
        cr_set(h->n, 0.0, 0.0, 1.0);
        return;
    }
    if (pk >= 0 && dout_r >= CR_CUSHION_W) {
        /* Through the cut in the rail: into the hole, onto the cut's wall,
         * or on to the shelf and cushions below. */
        if (cr_in_hole(r, p0[0], p0[1]) < 0 && cr_dout(r, p0[0], p0[1], NULL) >= CR_CUSHION_W) {
            const cr_pocket_geo_t *g = &r->pockets[pk];
            double tw;

            if (cr_cyl_exit(c, d, g->hole, g->hole_r, &tw)) {
                double px = c[0] + tw * d[0], py = c[1] + tw * d[1];

                h->mat = M_WALL;
                cr_set(h->p, px, py, c[2] + tw * d[2]);
                cr_set(h->n, (g->hole[0] - px) / g->hole_r, (g->hole[1] - py) / g->hole_r, 0.0);
                return;
            }
        }
    }

    /* Cushion tops (sloped planes) and undercut faces. */
    for (k = 0; k < 4; k++) {
        double n[2], cn, dn, off, t;

        cr_rail_normal(k, n);
        off = k == CR_RAIL_FOOT ? -r->table.length_mm : k == CR_RAIL_RIGHT ? -r->table.width_mm : 0.0;
        cn = n[0] * c[0] + n[1] * c[1] + off; /* depth of the camera centre */
        dn = n[0] * d[0] + n[1] * d[1];
        /* top: z = nose + slope * depth */
        if (fabs(d[2] - slope * dn) > 1e-12) {
            t = (CR_NOSE_H + slope * cn - c[2]) / (d[2] - slope * dn);
            if (t > 0.0 && t < best) {
                double x = c[0] + t * d[0], y = c[1] + t * d[1], dep = cn + t * dn;

                if (dep >= 0.0 && dep <= CR_CUSHION_W && cr_on_cushion(r, k, cr_along(k, x, y), dep) &&
                    cr_in_hole(r, x, y) < 0) {
                    best = t;
                    best_k = k;
                    best_face = 0;
                }
            }
        }
        /* face: depth = undercut * (1 - z / nose) */
        {
            double den = dn + (CR_UNDERCUT / CR_NOSE_H) * d[2];

            if (fabs(den) > 1e-12) {
                t = (CR_UNDERCUT - cn - (CR_UNDERCUT / CR_NOSE_H) * c[2]) / den;
                if (t > 0.0 && t < best) {
                    double x = c[0] + t * d[0], y = c[1] + t * d[1], z = c[2] + t * d[2];

                    if (z >= 0.0 && z <= CR_NOSE_H && cr_on_cushion(r, k, cr_along(k, x, y), 0.0)) {
                        best = t;
                        best_k = k;
                        best_face = 1;
                    }
                }
            }
        }
    }
    if (best_k >= 0) {
        double n[2], dep;

        cr_rail_normal(best_k, n);
        cr_set(h->p, c[0] + best * d[0], c[1] + best * d[1], c[2] + best * d[2]);
        h->rail = best_k;
        dep = cr_depth(r, best_k, h->p[0], h->p[1]);
        h->aux = dep;
        if (best_face) {
            double len = hypot(1.0, CR_UNDERCUT / CR_NOSE_H);

            h->mat = M_FACE;
            cr_set(h->n, -n[0] / len, -n[1] / len, -(CR_UNDERCUT / CR_NOSE_H) / len);
        } else {
            /* the sloped top, plus the rounded nose in its first 8 mm */
            double tilt = atan(slope) + (dep < 8.0 ? (1.0 - dep / 8.0) * 0.6 : 0.0);

            h->mat = M_CUSHION;
            cr_set(h->n, -n[0] * sin(tilt), -n[1] * sin(tilt), cos(tilt));
        }
        return;
    }

    /* The bed, the shelf, or the hole. */
    pk = cr_in_hole(r, p0[0], p0[1]);
    if (pk >= 0) {
        const cr_pocket_geo_t *g = &r->pockets[pk];
        double tw;

        h->mat = M_HOLE;
        memcpy(h->p, p0, sizeof(p0));
        h->aux = -300.0;
        if (cr_cyl_exit(c, d, g->hole, g->hole_r, &tw) && tw > t0)
            h->aux = c[2] + tw * d[2];
        return;
    }
    memcpy(h->p, p0, sizeof(p0));
    cr_set(h->n, 0.0, 0.0, 1.0);
    if (cr_dout(r, p0[0], p0[1], NULL) <= 0.0 || cr_in_throat(r, p0[0], p0[1])) {
        h->mat = M_CLOTH;
        if (r->p.foot_spot) {
            cr_point_t fs = cr_table_foot_spot(&r->table);

            if (hypot(p0[0] - fs.x, p0[1] - fs.y) <= 11.0)
                h->mat = M_SPOT;
        }
        return;
    }
    h->mat = M_FACE; /* under a cushion: only reachable through a facing */
    cr_set(h->n, 0.0, 0.0, -1.0);
}

/* ---- shading -------------------------------------------------------------------- */

static void cr_albedo(const uint8_t rgb[3], double out[3])
{
    int i;

    for (i = 0; i < 3; i++)
        out[i] = cr_srgb_to_lin(rgb[i]);
}

/* Diffuse irradiance at p with normal n: room light times sky (0..1) plus
 * the lamps. */
static double cr_irradiance(const cr_renderer_t *r, const double p[3], const double n[3], double sky)
{
    double e = r->ambient * sky, dir[3], dist;
    int i;

    for (i = 0; i < r->n_lamps; i++)
        e += cr_lamp_irradiance(&r->lamps[i], p, n, dir, &dist);
    return e;
}

/* Glossy reflection of the lamps at p (normal n, unit view ray d), as
 * reflected radiance: Fresnel f0 times the lamp discs, blurred by rough
 * (radians). Diffuse light here is albedo * irradiance (no 1/pi), so a
 * lamp disc of angular radius a giving irradiance E has radiance E / a^2. */
static double cr_gloss(const cr_renderer_t *r, const double p[3], const double n[3], const double d[3], double f0,
                       double rough)
{
    double dn = cr_dot3(d, n), refl[3], s = 0.0, fr;
    int i;

    refl[0] = d[0] - 2.0 * dn * n[0];
    refl[1] = d[1] - 2.0 * dn * n[1];
    refl[2] = d[2] - 2.0 * dn * n[2];
    fr = f0 + (1.0 - f0) * pow(1.0 - cr_clamp(-dn, 0.0, 1.0), 5.0);
    for (i = 0; i < r->n_lamps; i++) {
        const cr_lamp_t *l = &r->lamps[i];
        double v[3] = {l->pos[0] - p[0], l->pos[1] - p[1], l->pos[2] - p[2]};
        double dist = sqrt(cr_dot3(v, v)), cosang = cr_dot3(v, refl) / dist;
        double alpha = l->radius / dist, ang2 = 2.0 * (1.0 - cosang), e_norm, spread;

        if (v[2] <= 0.0)
            continue;
        e_norm = l->weight * (v[2] / dist) / (dist * dist); /* irradiance facing the lamp */
        spread = alpha + rough;
        /* lamp radiance E / (pi alpha^2) spread over a disc of radius alpha + rough */
        s += e_norm / (spread * spread) * exp(-ang2 / (spread * spread));
    }
    return fr * s;
}

static void cr_shade(const cr_renderer_t *r, const double d[3], const cr_hit_t *h, double out[3])
{
    const uint32_t seed = (uint32_t)(r->p.seed ^ (r->p.seed >> 32));
    const double x = h->p[0], y = h->p[1];
    double alb[3], e, tex = 1.0, spec = 0.0;
    int i;

    switch (h->mat) {
    case M_CLOTH:
    case M_CUSHION:
    case M_SPOT: {
        double s = r->p.cloth_noise, ao = 1.0, dn;

        for (i = 0; i < 3; i++)
            alb[i] = r->cloth_lin[i];
        tex = 1.0 + s * (0.06 * cr_fbm(x / 260.0, y / 260.0, seed + 11u, 3) +
                         0.035 * cr_vnoise(x / 22.0, y / 22.0, seed + 12u) +
                         0.03 * cr_vnoise(x / 70.0, y / 2.5, seed + 13u) +
                         0.05 * cr_hashf((int32_t)floor(x / 1.3), (int32_t)floor(y / 1.3), seed + 14u));
        if (h->mat == M_SPOT) {
            alb[0] = alb[1] = alb[2] = 0.62;
            tex = 1.0;
        }
        if (h->mat == M_CLOTH) {
            /* wear where racks are broken (the foot spot), and chalk
             * smudges: the cloth's history */
            cr_point_t fs = cr_table_foot_spot(&r->table);
            double wx = (x - fs.x) / 260.0, wy = (y - fs.y) / 160.0;

            tex *= 1.0 + 0.05 * s * exp(-(wx * wx + wy * wy));
            for (i = 0; i < CR_CHALK_MARKS; i++) {
                const double *m = r->chalk[i];
                double dx = x - m[0], dy = y - m[1], k;

                if (fabs(dx) > m[2] * 2.0 || fabs(dy) > m[2] * 2.0)
                    continue;
                k = m[3] * exp(-(dx * dx + dy * dy) / (m[2] * m[2]));
                alb[0] += k * (0.10 - alb[0]);
                alb[1] += k * (0.20 - alb[1]);
                alb[2] += k * (0.45 - alb[2]);
            }
        }
        if (h->mat == M_CLOTH) {
            dn = -cr_dout(r, x, y, NULL);
            if (dn >= 0.0)
                ao = 1.0 - 0.45 * exp(-dn / 22.0);
            else
                ao = 0.55; /* on the shelf, between the facings */
        } else {
            tex *= 0.95;
        }
        e = cr_irradiance(r, h->p, h->n, ao);
        break;
    }
    case M_FACE:
        for (i = 0; i < 3; i++)
            alb[i] = r->cloth_lin[i];
        e = r->ambient * 0.3;
        break;
    case M_RAIL: {
        double across = h->aux, along = cr_along(h->rail, x, y), n[3], rim, ring;
        int pk = -1;

        cr_albedo(r->p.rail_rgb, alb);
        /* lacquered wood: faint grain along the rail and slow colour drift */
        tex = across / 9.0 + 3.0 * cr_fbm(along / 500.0, across / 45.0, seed + 21u, 3);
        tex = 0.93 + 0.05 * sin(2.0 * CR_PI * tex);
        tex += 0.06 * cr_fbm(along / 160.0, across / 25.0, seed + 24u, 2);
        tex += 0.03 * cr_vnoise(along / 30.0, across / 1.5, seed + 22u);
        memcpy(n, h->n, sizeof(n));
        /* rounded outer edge: the normal turns outward over the last 14 mm */
        rim = across - (CR_RAIL_OUT - 14.0);
        if (rim > 0.0) {
            double rn[2], a = (rim / 14.0) * 1.2;

            cr_rail_normal(h->rail, rn);
            cr_set(n, rn[0] * sin(a), rn[1] * sin(a), cos(a));
        }
        e = cr_irradiance(r, h->p, n, 1.0);
        spec = cr_gloss(r, h->p, n, d, 0.05, 0.12);
        /* sights */
        for (i = 0; i < CR_POCKET_COUNT; i++) {
            const cr_pocket_geo_t *g = &r->pockets[i];
            double dist = hypot(x - g->hole[0], y - g->hole[1]);

            if (dist <= g->hole_r + CR_LINER_RING)
                pk = i;
        }
        ring = pk >= 0;
        if (ring) {
            cr_albedo(r->p.pocket_rgb, alb);
            tex = 1.0;
            spec = cr_gloss(r, h->p, n, d, 0.06, 0.25);
        } else if (across < CR_CUSHION_W + 2.5) {
            tex *= 0.35; /* the groove where the cushion cloth meets the wood */
        } else {
            cr_point_t dm[CR_TABLE_DIAMOND_COUNT];
            int nd = cr_table_diamonds(&r->table, dm, CR_TABLE_DIAMOND_COUNT), j;

            for (j = 0; j < nd; j++) {
                double rn[2], cx0, cy0, da, dc2, inside;

                /* each diamond is projected on a nose line; push it back to the rail */
                int k = dm[j].y == 0.0 ? CR_RAIL_LEFT
                        : dm[j].y == r->table.width_mm ? CR_RAIL_RIGHT
                        : dm[j].x == 0.0 ? CR_RAIL_HEAD
                                          : CR_RAIL_FOOT;

                cr_rail_normal(k, rn);
                cx0 = dm[j].x + rn[0] * CR_DIAMOND_SETBACK;
                cy0 = dm[j].y + rn[1] * CR_DIAMOND_SETBACK;
                da = fabs(cr_along(k, x - cx0, y - cy0));
                dc2 = fabs(k == CR_RAIL_HEAD || k == CR_RAIL_FOOT ? x - cx0 : y - cy0);
                if (r->p.round_diamonds)
                    inside = hypot(da, dc2) <= 6.35;
                else
                    inside = da / 12.7 + dc2 / 5.55 <= 1.0;
                if (inside) {
                    cr_albedo(r->p.diamond_rgb, alb);
                    tex = 1.0 + 0.06 * cr_vnoise(x / 3.0, y / 3.0, seed + 23u);
                    spec = cr_gloss(r, h->p, n, d, 0.06, 0.1);
                    break;
                }
            }
        }
        break;
    }
    case M_WALL:
        cr_albedo(r->p.pocket_rgb, alb);
        e = r->ambient * 0.4 * cr_clamp(h->p[2] / CR_RAIL_H, 0.1, 1.0);
        break;
    case M_HOLE:
        cr_albedo(r->p.pocket_rgb, alb);
        e = r->ambient * 0.35 * exp(h->aux / 35.0);
        break;
    case M_FLOOR:
        alb[0] = 0.030, alb[1] = 0.028, alb[2] = 0.026;
        tex = 1.0 + 0.25 * cr_fbm(x / 90.0, y / 90.0, seed + 31u, 2) +
              0.2 * cr_hashf((int32_t)floor(x / 4.0), (int32_t)floor(y / 4.0), seed + 32u);
        e = r->ambient * 1.2;
        break;
    default:
        out[0] = out[1] = out[2] = 0.0;
        return;
    }
    for (i = 0; i < 3; i++)
        out[i] = r->exposure * (alb[i] * tex * e + spec);
}

/* The height a shadow lands on at this hit, or NAN for surfaces that take
 * none (floor, pockets). */
static float cr_shadow_z(const cr_hit_t *h)
{
    switch (h->mat) {
    case M_CLOTH:
    case M_SPOT:
    case M_CUSHION:
    case M_RAIL:
        return (float)h->p[2];
    default:
        return NAN;
    }
}

/* ---- setup ------------------------------------------------------------------------------ */

static void cr_pockets_setup(cr_renderer_t *r)
{
    const double th_c = CR_CUT_CORNER_DEG * CR_PI / 180.0, th_s = CR_CUT_SIDE_DEG * CR_PI / 180.0;
    int i;

    for (i = 0; i < CR_POCKET_COUNT; i++) {
        cr_pocket_geo_t *g = &r->pockets[i];
        cr_point_t c = cr_table_pocket_point(&r->table, (cr_pocket_t)i), a, b;
        double ua[2], ub[2], na[2], nb[2], th, mx, my, len, shelf;
        bool side = i == CR_POCKET_SIDE_LEFT || i == CR_POCKET_SIDE_RIGHT;

        cr_table_pocket_mouth(&r->table, (cr_pocket_t)i, &a, &b);
        g->a[0] = a.x, g->a[1] = a.y, g->b[0] = b.x, g->b[1] = b.y;
        len = hypot(a.x - c.x, a.y - c.y);
        ua[0] = (a.x - c.x) / len, ua[1] = (a.y - c.y) / len;
        len = hypot(b.x - c.x, b.y - c.y);
        ub[0] = (b.x - c.x) / len, ub[1] = (b.y - c.y) / len;
        na[0] = 0.0, na[1] = c.y > 0.0 ? 1.0 : -1.0; /* the long cushion's outward normal */
        if (side) {
            nb[0] = na[0], nb[1] = na[1];
            th = th_s;
        } else {
            nb[0] = c.x > 0.0 ? 1.0 : -1.0, nb[1] = 0.0;
            th = th_c;
        }
        g->pa[0] = sin(th) * ua[0] - cos(th) * na[0];
        g->pa[1] = sin(th) * ua[1] - cos(th) * na[1];
        g->pb[0] = sin(th) * ub[0] - cos(th) * nb[0];
        g->pb[1] = sin(th) * ub[1] - cos(th) * nb[1];
        mx = 0.5 * (a.x + b.x), my = 0.5 * (a.y + b.y);
        if (side) {
            g->nm[0] = na[0], g->nm[1] = na[1];
            g->hole_r = CR_HOLE_R_SIDE;
            shelf = CR_SHELF_SIDE;
        } else {
            len = hypot(c.x - mx, c.y - my);
            g->nm[0] = (c.x - mx) / len, g->nm[1] = (c.y - my) / len;
            g->hole_r = CR_HOLE_R_CORNER;
            shelf = CR_SHELF_CORNER;
        }
        g->hole[0] = mx + g->nm[0] * (shelf + g->hole_r);
        g->hole[1] = my + g->nm[1] * (shelf + g->hole_r);
        g->reach = shelf + 2.0 * g->hole_r;
    }
}

/* Chalk smudges on the bed: position, size and strength from the seed. */
static void cr_chalk_setup(cr_renderer_t *r)
{
    uint64_t s = r->p.seed ^ 0x636861326bull;
    int i;

    for (i = 0; i < CR_CHALK_MARKS; i++) {
        double u1 = (cr_splitmix(&s) >> 11) * (1.0 / 9007199254740992.0);
        double u2 = (cr_splitmix(&s) >> 11) * (1.0 / 9007199254740992.0);
        double u3 = (cr_splitmix(&s) >> 11) * (1.0 / 9007199254740992.0);

        r->chalk[i][0] = 60.0 + u1 * (r->table.length_mm - 120.0);
        r->chalk[i][1] = 60.0 + u2 * (r->table.width_mm - 120.0);
        r->chalk[i][2] = 3.0 + 6.0 * u3;                  /* radius, mm */
        r->chalk[i][3] = r->p.cloth_noise * (0.15 + 0.25 * u1 * u2); /* strength */
    }
}

/* Lamp weights so that the lamps give 1 - ambient, and the room ambient,
 * at the table centre on the cloth. */
static void cr_lamps_setup(cr_renderer_t *r)
{
    double p[3] = {r->table.length_mm / 2.0, r->table.width_mm / 2.0, 0.0}, n[3] = {0.0, 0.0, 1.0};
    double sum = 0.0, dir[3], dist;
    int i;

    r->n_lamps = r->p.n_lamps;
    for (i = 0; i < r->n_lamps; i++) {
        cr_lamp_t *l = &r->lamps[i];

        l->pos[0] = r->p.lamps[i].x_mm;
        l->pos[1] = r->p.lamps[i].y_mm;
        l->pos[2] = r->p.lamps[i].z_mm;
        l->radius = r->p.lamps[i].radius_mm;
        l->weight = r->p.lamps[i].intensity;
        sum += cr_lamp_irradiance(l, p, n, dir, &dist);
    }
    for (i = 0; i < r->n_lamps; i++)
        r->lamps[i].weight *= sum > 0.0 ? (1.0 - r->p.ambient) / sum : 0.0;
    r->ambient = r->p.ambient;
    r->exposure = r->p.exposure;
    for (i = 0; i < 3; i++)
        r->cloth_lin[i] = (float)cr_srgb_to_lin(r->p.cloth_rgb[i]);
}

/* Separable Gaussian blur of a linear RGB float image, in place: rows
 * through a line buffer, columns through a ring of original rows. */
static int cr_blur(float *img, int w, int h, double sigma)
{
    int rad = (int)ceil(3.0 * sigma), x, y, k, nk;
    const size_t row = 3 * (size_t)w;
    float *ker, *line, *ring;
    double sum = 0.0;

    if (sigma < 0.05)
        return CR_OK;
    if (rad > 15)
        rad = 15;
    nk = 2 * rad + 1;
    ker = malloc(sizeof(float) * (size_t)nk);
    line = malloc(sizeof(float) * row);
    ring = malloc(sizeof(float) * row * (size_t)nk);
    if (!ker || !line || !ring) {
        free(ker);
        free(line);
        free(ring);
        return CR_ERR_NOMEM;
    }
    for (k = -rad; k <= rad; k++)
        sum += ker[k + rad] = (float)exp(-0.5 * k * k / (sigma * sigma));
    for (k = 0; k < nk; k++)
        ker[k] = (float)(ker[k] / sum);
    for (y = 0; y < h; y++) {
        float *rw = img + (size_t)y * row;

        for (x = 0; x < w; x++) {
            float s0 = 0, s1 = 0, s2 = 0;

            for (k = -rad; k <= rad; k++) {
                int xx = x + k < 0 ? 0 : x + k >= w ? w - 1 : x + k;

                s0 += ker[k + rad] * rw[3 * xx];
                s1 += ker[k + rad] * rw[3 * xx + 1];
                s2 += ker[k + rad] * rw[3 * xx + 2];
            }
            line[3 * x] = s0, line[3 * x + 1] = s1, line[3 * x + 2] = s2;
        }
        memcpy(rw, line, sizeof(float) * row);
    }
    /* ring slot of original row j (clamped to the image) is j mod nk */
    for (y = 0; y < rad && y < h; y++)
        memcpy(ring + (size_t)(y % nk) * row, img + (size_t)y * row, sizeof(float) * row);
    for (y = 0; y < h; y++) {
        if (y + rad < h)
            memcpy(ring + (size_t)((y + rad) % nk) * row, img + (size_t)(y + rad) * row, sizeof(float) * row);
        memset(line, 0, sizeof(float) * row);
        for (k = -rad; k <= rad; k++) {
            int yy = y + k < 0 ? 0 : y + k >= h ? h - 1 : y + k;
            const float *src = ring + (size_t)(yy % nk) * row;
            float kw = ker[k + rad];
            size_t c;

            for (c = 0; c < row; c++)
                line[c] += kw * src[c];
        }
        memcpy(img + (size_t)y * row, line, sizeof(float) * row);
    }
    free(ker);
    free(line);
    free(ring);
    return CR_OK;
}

int cr_render_table_background(cr_renderer_t *r)
{
    const int w = r->w, h = r->h;
    uint8_t *mat;
    int x, y, st;

    cr_pockets_setup(r);
    cr_lamps_setup(r);
    cr_chalk_setup(r);
    mat = malloc((size_t)w * (size_t)h);
    if (!mat)
        return CR_ERR_NOMEM;

    /* Rays and one sample per pixel centre. */
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x, ti = cr_tidx(r, x, y);
            double a, b, d[3], col[3];
            cr_hit_t hit;

            if (!cr_camera_undistort(&r->cam, x, y, &a, &b)) {
                r->ray[3 * ti] = r->ray[3 * ti + 1] = r->ray[3 * ti + 2] = NAN;
                mat[i] = M_NONE;
                r->bg_z[ti] = NAN;
                r->acc[3 * i] = r->acc[3 * i + 1] = r->acc[3 * i + 2] = 0.0f;
                continue;
            }
            {
                const double *m = r->cam.rot;
                double n;

                /* rot^T (a, b, 1) in (x, y, -z), flipped to z up, unit length */
                d[0] = m[0] * a + m[3] * b + m[6];
                d[1] = m[1] * a + m[4] * b + m[7];
                d[2] = -(m[2] * a + m[5] * b + m[8]);
                n = 1.0 / sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                d[0] *= n, d[1] *= n, d[2] *= n;
                r->ray[3 * ti] = (float)d[0];
                r->ray[3 * ti + 1] = (float)d[1];
                r->ray[3 * ti + 2] = (float)d[2];
            }
            cr_table_hit(r, d, &hit);
            cr_shade(r, d, &hit, col);
            mat[i] = (uint8_t)hit.mat;
            r->bg_z[ti] = cr_shadow_z(&hit);
            r->acc[3 * i] = (float)col[0];
            r->acc[3 * i + 1] = (float)col[1];
            r->acc[3 * i + 2] = (float)col[2];
        }
    }
    /* Supersample (3x3) where the material changes between neighbours. */
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            int m = mat[i], sx, sy, n = 0;
            double sum[3] = {0.0, 0.0, 0.0};

            if (m == M_NONE)
                continue;
            if (!((x > 0 && mat[i - 1] != m) || (x + 1 < w && mat[i + 1] != m) || (y > 0 && mat[i - w] != m) ||
                  (y + 1 < h && mat[i + w] != m) || m == M_RAIL))
                continue;
            if (m == M_RAIL) {
                /* diamonds and the liner ring share the rail material: test near them only */
                bool near_edge = (x > 0 && mat[i - 1] != m) || (x + 1 < w && mat[i + 1] != m) ||
                                 (y > 0 && mat[i - w] != m) || (y + 1 < h && mat[i + w] != m);
                double d[3];
                cr_hit_t hit;

                cr_pixel_ray(r, cr_tidx(r, x, y), d);
                cr_table_hit(r, d, &hit);
                if (!near_edge && !(hit.aux > CR_DIAMOND_SETBACK - 16.0 && hit.aux < CR_DIAMOND_SETBACK + 16.0) &&
                    cr_in_hole(r, hit.p[0], hit.p[1]) < 0) {
                    int pk, close = 0;

                    for (pk = 0; pk < CR_POCKET_COUNT; pk++)
                        if (hypot(hit.p[0] - r->pockets[pk].hole[0], hit.p[1] - r->pockets[pk].hole[1]) <
                            r->pockets[pk].hole_r + CR_LINER_RING + 6.0)
                            close = 1;
                    if (!close)
                        continue;
                }
            }
            for (sy = -1; sy <= 1; sy++) {
                for (sx = -1; sx <= 1; sx++) {
                    double d[3], col[3];
                    cr_hit_t hit;

                    if (!cr_camera_ray(&r->cam, x + sx / 3.0, y + sy / 3.0, d))
                        continue;
                    {
                        double nn = 1.0 / sqrt(cr_dot3(d, d));

                        d[0] *= nn, d[1] *= nn, d[2] *= nn;
                    }
                    cr_table_hit(r, d, &hit);
                    cr_shade(r, d, &hit, col);
                    sum[0] += col[0], sum[1] += col[1], sum[2] += col[2];
                    n++;
                }
            }
            if (n > 0) {
                r->acc[3 * i] = (float)(sum[0] / n);
                r->acc[3 * i + 1] = (float)(sum[1] / n);
                r->acc[3 * i + 2] = (float)(sum[2] / n);
            }
        }
    }
    free(mat);
    st = cr_blur(r->acc, w, h, r->p.lens_blur_px);
    if (st != CR_OK)
        return st;
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            double v = cr_vignette(r, x, y);
            int c;

            for (c = 0; c < 3; c++)
                r->bg[3 * i + c] = cr_lin_to_byte(r, r->acc[3 * i + c] * v);
        }
    }
    return CR_OK;
}
