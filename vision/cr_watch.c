/* cr_watch.c - camera-moved detection from the cushion edges (cr_watch.h). */
#include "cr_watch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WATCH_MAX_PROFILE 32

typedef struct {
    int rail;
    double u, v;     /* projected nose-line point, px */
    double nu, nv;   /* unit image direction of the table's outward normal */
    double ref;      /* edge offset at the reference frame, px along n (NAN: no edge then) */
    double ref_mag;  /* |gradient| there */
    int sign;        /* sign of the luma step going outward */
} watch_sample_t;

struct cr_watch {
    cr_watch_params_t p;
    int width, height;
    int n;
    watch_sample_t *s;
    double *scratch; /* n shifts */
    bool have_ref;
    double t_last;
    int streak;
    bool moved;
};

void cr_watch_params_defaults(cr_watch_params_t *p)
{
    p->check_every_s = 1.0;
    p->moved_px = 2.0;
    p->min_valid = 0.35;
    p->confirm = 3;
    p->profile_px = 8;
    p->spacing_mm = 60.0;
}

/* Bilinear luma at (u, v); the caller keeps (u, v) inside the image. */
static double luma_at(const cr_yuv_image_t *img, double u, double v)
{
    int x = (int)floor(u), y = (int)floor(v);
    double fx = u - x, fy = v - y;
    const uint8_t *r0 = img->y + (size_t)y * img->stride_y + x, *r1 = r0 + img->stride_y;

    return (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
}

/* The edge along sample s: offset (px along n) of the strongest luma step of
 * the wanted sign (0: either), sub-pixel; *mag its size, *sign its sign.
 * false when the profile leaves the image. */
static bool find_edge(const cr_watch_t *w, const cr_yuv_image_t *img, const watch_sample_t *s, int want, double *off,
                      double *mag, int *sign)
{
    const int h = w->p.profile_px;
    double prof[2 * WATCH_MAX_PROFILE + 2], g[2 * WATCH_MAX_PROFILE + 1], best = 0.0;
    int k, kb = -1;

    for (k = -h; k <= h + 1; k++) {
        double u = s->u + (k - 0.5) * s->nu, v = s->v + (k - 0.5) * s->nv;

        if (u < 0 || v < 0 || u >= w->width - 1 || v >= w->height - 1)
            return false;
        prof[k + h] = luma_at(img, u, v);
    }
    for (k = 0; k <= 2 * h; k++) {
        double d = prof[k + 1] - prof[k];

        g[k] = d;
        if ((want == 0 || (want > 0) == (d > 0)) && fabs(d) > best) {
            best = fabs(d);
            kb = k;
        }
    }
    if (kb < 0)
        return false;
    *off = kb - h;
    if (kb > 0 && kb < 2 * h) {
        double a = fabs(g[kb - 1]), b = fabs(g[kb]), c = fabs(g[kb + 1]), den = a - 2 * b + c;

        if (den < 0)
            *off += 0.5 * (a - c) / den;
    }
    *mag = best;
    *sign = g[kb] > 0 ? 1 : -1;
    return true;
}

int cr_watch_create(const cr_camera_t *cam, const cr_table_t *t, const cr_watch_params_t *p, cr_watch_t **out)
{
    cr_watch_t *w;
    int pass, rail, n;

    if (!cam || !t || !out || cam->width <= 0 || cam->height <= 0)
        return CR_ERR_INVALID;
    w = calloc(1, sizeof(*w));
    if (!w)
        return CR_ERR_NOMEM;
    if (p)
        w->p = *p;
    else
        cr_watch_params_defaults(&w->p);
    if (w->p.profile_px < 2 || w->p.profile_px > WATCH_MAX_PROFILE || !(w->p.spacing_mm > 1.0)) {
        free(w);
        return CR_ERR_INVALID;
    }
    w->width = cam->width;
    w->height = cam->height;
    /* two passes: count, then fill */
    for (pass = 0; pass < 2; pass++) {
        n = 0;
        for (rail = 0; rail < CR_RAIL_COUNT; rail++) {
            const bool along_x = rail == CR_RAIL_LEFT || rail == CR_RAIL_RIGHT;
            const double len = along_x ? t->length_mm : t->width_mm;
            const double margin = 0.08 * len + 2.5 * t->ball_radius_mm; /* clear of the corner pockets */
            double a;

            for (a = margin; a <= len - margin; a += w->p.spacing_mm) {
                double x, y, ox, oy, u0, v0, u1, v1, d;

                if (along_x && fabs(a - len / 2) < 3.0 * t->ball_radius_mm + 60.0)
                    continue; /* the side pocket */
                x = along_x ? a : (rail == CR_RAIL_HEAD ? 0.0 : t->length_mm);
                y = along_x ? (rail == CR_RAIL_LEFT ? 0.0 : t->width_mm) : a;
                ox = rail == CR_RAIL_HEAD ? -1.0 : rail == CR_RAIL_FOOT ? 1.0 : 0.0;
                oy = rail == CR_RAIL_LEFT ? -1.0 : rail == CR_RAIL_RIGHT ? 1.0 : 0.0;
                if (!cr_camera_project(cam, x, y, 0.0, &u0, &v0) ||
                    !cr_camera_project(cam, x + 10.0 * ox, y + 10.0 * oy, 0.0, &u1, &v1))
                    continue;
                d = hypot(u1 - u0, v1 - v0);
                if (!(d > 0.0))
                    continue;
                if (u0 < w->p.profile_px + 2 || v0 < w->p.profile_px + 2 || u0 > cam->width - w->p.profile_px - 3 ||
                    v0 > cam->height - w->p.profile_px - 3)
                    continue;
                if (pass == 1) {
                    watch_sample_t *s = &w->s[n];

                    s->rail = rail;
                    s->u = u0;
                    s->v = v0;
                    s->nu = (u1 - u0) / d;
                    s->nv = (v1 - v0) / d;
                    s->ref = NAN;
                }
                n++;
            }
        }
        if (pass == 0) {
            if (n < 8) {
                free(w);
                return CR_ERR_INVALID;
            }
            w->s = calloc((size_t)n, sizeof(*w->s));
            w->scratch = calloc((size_t)n, sizeof(*w->scratch));
            if (!w->s || !w->scratch) {
                cr_watch_destroy(w);
                return CR_ERR_NOMEM;
            }
        }
    }
    w->n = n;
    *out = w;
    return CR_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

int cr_watch_frame(cr_watch_t *w, const cr_yuv_image_t *img, double t_s, cr_watch_report_t *r)
{
    int i, rail, valid = 0, with_ref = 0;
    bool shifted = false;

    memset(r, 0, sizeof(*r));
    for (rail = 0; rail < 4; rail++)
        r->shift_px[rail] = NAN;
    r->n_samples = w->n;
    r->moved = w->moved;
    if (!img || img->width != w->width || img->height != w->height)
        return CR_ERR_INVALID;
    if (!w->have_ref) {
        for (i = 0; i < w->n; i++) {
            watch_sample_t *s = &w->s[i];
            double off, mag;
            int sign;

            if (find_edge(w, img, s, 0, &off, &mag, &sign) && mag >= 4.0) {
                s->ref = off;
                s->ref_mag = mag;
                s->sign = sign;
            }
        }
        w->have_ref = true;
        w->t_last = t_s;
        return CR_OK;
    }
    if (t_s - w->t_last < w->p.check_every_s)
        return CR_OK;
    w->t_last = t_s;
    r->checked = true;
    for (rail = 0; rail < 4; rail++) {
        int half, rail_ref = 0, rail_valid = 0;
        int first = -1, last = -1;

        for (i = 0; i < w->n; i++)
            if (w->s[i].rail == rail && isfinite(w->s[i].ref)) {
                if (first < 0)
                    first = i;
                last = i;
                rail_ref++;
            }
        with_ref += rail_ref;
        if (rail_ref == 0)
            continue;
        /* each half of the cushion on its own: a turned camera shifts the two
         * halves opposite ways, which one median over the cushion would hide */
        for (half = 0; half < 2; half++) {
            const int mid = first + (last - first + 1) / 2;
            const int lo = half ? mid : first, hi = half ? last + 1 : mid;
            int m = 0, half_ref = 0;
            double med;

            for (i = lo; i < hi; i++) {
                const watch_sample_t *sm = &w->s[i];
                double off, mag;
                int sign;

                if (sm->rail != rail || !isfinite(sm->ref))
                    continue;
                half_ref++;
                if (find_edge(w, img, sm, sm->sign, &off, &mag, &sign) && mag >= 0.5 * sm->ref_mag)
                    w->scratch[m++] = off - sm->ref;
            }
            rail_valid += m;
            if (m < 3 || m * 2 < half_ref)
                continue;
            qsort(w->scratch, (size_t)m, sizeof(double), cmp_double);
            med = m % 2 ? w->scratch[m / 2] : 0.5 * (w->scratch[m / 2 - 1] + w->scratch[m / 2]);
            if (!isfinite(r->shift_px[rail]) || fabs(med) > fabs(r->shift_px[rail]))
                r->shift_px[rail] = med;
        }
        valid += rail_valid;
        shifted |= isfinite(r->shift_px[rail]) && fabs(r->shift_px[rail]) > w->p.moved_px;
    }
    r->valid_share = with_ref ? (double)valid / with_ref : 0.0;
    if (with_ref && (shifted || r->valid_share < w->p.min_valid))
        w->streak++;
    else
        w->streak = 0;
    if (w->streak >= w->p.confirm)
        w->moved = true;
    r->moved = w->moved;
    return CR_OK;
}

void cr_watch_destroy(cr_watch_t *w)
{
    if (!w)
        return;
    free(w->s);
    free(w->scratch);
    free(w);
}
