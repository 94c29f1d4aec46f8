/*
 * cr_render.c - renderer object, parameters, frame compositing over screen
 * tiles, motion blur, sensor noise, labels and the RGB -> I420 conversion.
 * The table background is in cr_render_table.c, the balls, cue and arm in
 * cr_render_objects.c.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cr_render_internal.h"

#define CR_RENDER_MAX_DIM 8192
#define CR_NOISE_PERIOD 65536 /* noise table rows start at random offsets below this */

static const uint8_t cr_cloth_presets[CR_CLOTH_PRESET_COUNT][3] = {
    {28, 92, 158},   /* blue */
    {32, 118, 62},   /* green */
    {132, 30, 40},   /* red */
    {176, 150, 104}, /* tan */
    {112, 116, 120}, /* grey */
};

int cr_render_cloth_rgb(cr_cloth_preset_t preset, uint8_t rgb[3])
{
    if (!rgb || (int)preset < 0 || preset >= CR_CLOTH_PRESET_COUNT)
        return CR_ERR_INVALID;
    memcpy(rgb, cr_cloth_presets[preset], 3);
    return CR_OK;
}

void cr_render_random_orientation(uint64_t seed, int id, double q[4])
{
    uint64_t s = seed ^ (0x6a09e667f3bcc909ull * (uint64_t)(id + 1));
    double u1 = (double)(cr_splitmix(&s) >> 11) * 0x1.0p-53, u2 = (double)(cr_splitmix(&s) >> 11) * 0x1.0p-53,
           u3 = (double)(cr_splitmix(&s) >> 11) * 0x1.0p-53;

    q[0] = sqrt(1.0 - u1) * sin(2.0 * CR_PI * u2);
    q[1] = sqrt(1.0 - u1) * cos(2.0 * CR_PI * u2);
    q[2] = sqrt(u1) * sin(2.0 * CR_PI * u3);
    q[3] = sqrt(u1) * cos(2.0 * CR_PI * u3);
}

void cr_render_params_defaults(cr_render_params_t *p, const cr_table_t *t)
{
    static const uint8_t rail[3] = {92, 50, 28}, diamond[3] = {232, 226, 206}, pocket[3] = {34, 26, 22};
    double l = t ? t->length_mm : 2540.0, w = t ? t->width_mm : 1270.0;
    int i;

    if (!p)
        return;
    memset(p, 0, sizeof(*p));
    cr_render_cloth_rgb(CR_CLOTH_BLUE, p->cloth_rgb);
    p->cloth_noise = 0.5;
    memcpy(p->rail_rgb, rail, 3);
    memcpy(p->diamond_rgb, diamond, 3);
    memcpy(p->pocket_rgb, pocket, 3);
    p->round_diamonds = false;
    p->foot_spot = true;
    p->n_lamps = 3;
    for (i = 0; i < 3; i++) {
        p->lamps[i].x_mm = l / 2.0 + (i - 1) * l / 3.0;
        p->lamps[i].y_mm = w / 2.0;
        p->lamps[i].z_mm = 1000.0;
        p->lamps[i].radius_mm = 150.0;
        p->lamps[i].intensity = 1.0;
    }
    p->ambient = 0.3;
    p->exposure = 1.0;
    p->vignetting = 0.25;
    p->lens_blur_px = 0.6;
    p->noise_sigma = 2.0;
    p->shadow_strength = 1.0;
    p->blur_subframes = 1;
    p->seed = 1;
}

/* ---- create / destroy ---------------------------------------------------------- */

static bool cr_params_valid(const cr_render_params_t *p)
{
    int i;

    if (p->n_lamps < 1 || p->n_lamps > CR_RENDER_MAX_LAMPS || !(p->cloth_noise >= 0.0 && p->cloth_noise <= 2.0) ||
        !(p->ambient >= 0.0 && p->ambient <= 1.0) || !(p->exposure > 0.0 && p->exposure < 100.0) ||
        !(p->vignetting >= 0.0 && p->vignetting <= 1.0) || !(p->lens_blur_px >= 0.0 && p->lens_blur_px <= 5.0) ||
        !(p->noise_sigma >= 0.0 && p->noise_sigma <= 50.0) ||
        !(p->shadow_strength >= 0.0 && p->shadow_strength <= 1.0) || p->blur_subframes < 1 ||
        p->blur_subframes > CR_RENDER_MAX_SUBFRAMES)
        return false;
    for (i = 0; i < p->n_lamps; i++) {
        const cr_render_lamp_t *l = &p->lamps[i];

        if (!isfinite(l->x_mm) || !isfinite(l->y_mm) || !(l->z_mm > 100.0 && l->z_mm < 1e5) ||
            !(l->radius_mm > 0.0 && l->radius_mm < 5000.0) || !(l->intensity >= 0.0 && l->intensity < 1e6))
            return false;
    }
    return true;
}

/* Linear <-> sRGB tables; every byte survives byte -> linear -> byte. */
static void cr_luts(cr_renderer_t *r)
{
    int i;

    for (i = 0; i < 256; i++)
        r->lin_of_srgb[i] = (float)cr_srgb_to_lin(i);
    for (i = 0; i < CR_LUT_N; i++) {
        double v = (double)i / (CR_LUT_N - 1);
        double s = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1.0 / 2.4) - 0.055;

        r->srgb_of_lin[i] = (uint8_t)cr_clamp(floor(s * 255.0 + 0.5), 0.0, 255.0);
    }
    for (i = 0; i < 256; i++)
        r->srgb_of_lin[(int)(r->lin_of_srgb[i] * (CR_LUT_N - 1) + 0.5)] = (uint8_t)i;
}

/* Gaussian table, deterministic in the seed. */
static void cr_noise_table(cr_renderer_t *r)
{
    uint64_t s = r->p.seed ^ 0x6e6f697365ull;
    size_t i;

    for (i = 0; i < r->noise_len; i++) {
        double u1 = ((cr_splitmix(&s) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
        double u2 = (cr_splitmix(&s) >> 11) * (1.0 / 9007199254740992.0);
        double g = sqrt(-2.0 * log(u1)) * cos(2.0 * CR_PI * u2) * r->p.noise_sigma;

        r->noise[i] = (int8_t)cr_clamp(floor(g + 0.5), -127.0, 127.0);
    }
}

void cr_renderer_destroy(cr_renderer_t *r)
{
    if (!r)
        return;
    free(r->ray);
    free(r->bg);
    free(r->bg_z);
    free(r->acc);
    free(r->prim);
    free(r->shad);
    free(r->tile_n);
    free(r->touched);
    free(r->marked);
    free(r->noise);
    free(r->row_noise);
    free(r);
}

int cr_renderer_create(const cr_camera_t *cam, const cr_table_t *t, const cr_render_params_t *p,
                       cr_renderer_t **out)
{
    cr_renderer_t *r;
    size_t npx, ntiles, tpx;
    int st;

    if (!cam || !t || !p || !out)
        return CR_ERR_INVALID;
    if (cam->width <= 0 || cam->height <= 0 || cam->width > CR_RENDER_MAX_DIM || cam->height > CR_RENDER_MAX_DIM ||
        !(cam->fx > 0.0) || !(cam->fy > 0.0) || !(t->length_mm > 0.0) || !(t->width_mm > 0.0) ||
        !(t->ball_radius_mm > 0.0) || !cr_params_valid(p))
        return CR_ERR_INVALID;
    r = calloc(1, sizeof(*r));
    if (!r)
        return CR_ERR_NOMEM;
    r->cam = *cam;
    r->table = *t;
    r->p = *p;
    r->w = cam->width;
    r->h = cam->height;
    r->max_radius = cr_camera_max_radius(cam);
    r->tiles_x = (r->w + CR_TILE - 1) / CR_TILE;
    r->tiles_y = (r->h + CR_TILE - 1) / CR_TILE;
    npx = (size_t)r->w * (size_t)r->h;
    ntiles = (size_t)r->tiles_x * (size_t)r->tiles_y;
    r->noise_len = CR_NOISE_PERIOD + 3 * (size_t)r->w;
    tpx = ntiles * CR_TILE * CR_TILE; /* tile-ordered tables, >= npx */
    r->ray = malloc(tpx * 3 * sizeof(float));
    r->bg = malloc(npx * 3);
    r->bg_z = malloc(tpx * sizeof(float));
    r->acc = malloc(tpx * 3 * sizeof(float));
    r->prim = calloc(ntiles, sizeof(uint32_t));
    r->shad = calloc(ntiles, sizeof(uint32_t));
    r->tile_n = calloc(ntiles, 1);
    r->touched = malloc(ntiles * sizeof(int));
    r->marked = malloc(ntiles * sizeof(int));
    r->noise = malloc(r->noise_len);
    r->row_noise = malloc((size_t)r->h * sizeof(int));
    if (!r->ray || !r->bg || !r->bg_z || !r->acc || !r->prim || !r->shad || !r->tile_n || !r->touched ||
        !r->marked || !r->noise || !r->row_noise) {
        st = CR_ERR_NOMEM;
        goto fail;
    }
    cr_luts(r);
    cr_noise_table(r);
    st = cr_render_table_background(r);
    if (st != CR_OK)
        goto fail;
    *out = r;
    return CR_OK;

fail:
    cr_renderer_destroy(r);
    return st;
}

const uint8_t *cr_render_background(const cr_renderer_t *r)
{
    return r ? r->bg : NULL;
}

/* ---- per frame ---------------------------------------------------------------------- */

static double cr_now_ms(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0.0;
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static bool cr_finite3(const double v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static bool cr_scene_valid(const cr_render_scene_t *s)
{
    int i;

    if (s->n_balls < 0 || s->n_balls > CR_RENDER_MAX_BALLS || (s->n_balls > 0 && !s->balls))
        return false;
    for (i = 0; i < s->n_balls; i++) {
        const cr_render_ball_t *b = &s->balls[i];

        if (!cr_ball_id_valid(b->id) || !isfinite(b->x_mm) || !isfinite(b->y_mm) || !(b->lift_mm >= -1000.0) ||
            !(b->lift_mm < 1e5) || !isfinite(b->q[0]) || !isfinite(b->q[1]) || !isfinite(b->q[2]) ||
            !isfinite(b->q[3]))
            return false;
    }
    if (s->cue.present) {
        double tip[3] = {s->cue.tip_x_mm, s->cue.tip_y_mm, s->cue.tip_z_mm};

        if (!cr_finite3(tip) || !isfinite(s->cue.dir_deg) ||
            !(s->cue.elevation_deg >= 0.0 && s->cue.elevation_deg <= 89.0))
            return false;
    }
    if (s->arm.present) {
        if (s->arm.n_points < 2 || s->arm.n_points > CR_RENDER_ARM_MAX_POINTS)
            return false;
        for (i = 0; i < s->arm.n_points; i++)
            if (!cr_finite3(s->arm.pts_mm[i]) || !(s->arm.radius_mm[i] > 0.0 && s->arm.radius_mm[i] < 1000.0))
                return false;
    }
    return true;
}

static void cr_mark(cr_renderer_t *r, int x0, int y0, int x1, int y1, int bit, int shadow)
{
    int tx0 = x0 / CR_TILE, ty0 = y0 / CR_TILE, tx1 = x1 / CR_TILE, ty1 = y1 / CR_TILE, tx, ty;
    uint32_t m = 1u << bit;

    for (ty = ty0; ty <= ty1; ty++) {
        for (tx = tx0; tx <= tx1; tx++) {
            int t = ty * r->tiles_x + tx;

            if (!(r->prim[t] | r->shad[t]))
                r->marked[r->n_marked++] = t;
            if (shadow)
                r->shad[t] |= m;
            else
                r->prim[t] |= m;
        }
    }
}

static void cr_clear_marks(cr_renderer_t *r)
{
    int k;

    for (k = 0; k < r->n_marked; k++)
        r->prim[r->marked[k]] = r->shad[r->marked[k]] = 0;
    r->n_marked = 0;
}

/* Draws the per-row noise offsets of a frame from (seed, frame_index). */
static void cr_noise_rows(cr_renderer_t *r, uint64_t frame_index)
{
    uint64_t s = r->p.seed * 0x9e3779b97f4a7c15ull ^ (frame_index + 1) * 0xd1b54a32d192ed03ull;
    int y;

    for (y = 0; y < r->h; y++)
        r->row_noise[y] = (int)(cr_splitmix(&s) % CR_NOISE_PERIOD);
}

/* dst = saturate(src + noise), in blocks of 64 that compilers vectorise. */
static void cr_row_noise(uint8_t *restrict dst, const uint8_t *restrict src, const int8_t *restrict nz, int n)
{
    int x = 0, k;

    for (; x + 64 <= n; x += 64) {
        for (k = 0; k < 64; k++) {
            int v = src[x + k] + nz[x + k];

            dst[x + k] = (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
        }
    }
    for (; x < n; x++) {
        int v = src[x] + nz[x];

        dst[x] = (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
    }
}

/* Writes linear colour col to pixel (x, y) with the frame's noise. */
static void cr_put(const cr_renderer_t *r, uint8_t *rgb, int stride, int x, int y, const float col[3])
{
    uint8_t *px = rgb + (size_t)y * stride + 3 * (size_t)x;
    const int8_t *nz = r->noise + r->row_noise[y] + 3 * x;
    int c;

    for (c = 0; c < 3; c++) {
        int v = cr_lin_to_byte(r, col[c]) + nz[c];

        px[c] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

/* Shadow factors are computed on a grid every CR_SHADOW_STEP pixels and
 * interpolated where the four around a pixel agree within this. */
#define CR_SHADOW_STEP 4
#define CR_SHADOW_TOL 0.05
#define CR_SHADOW_GRID (CR_TILE / CR_SHADOW_STEP + 1)

/* Ray-casts tile t of sub-frame k into rgb (one sub-frame) or the
 * accumulator (blur). */
static void cr_render_tile(cr_renderer_t *r, int t, int k, int n_sub, uint8_t *rgb, int stride, cr_render_info_t *info)
{
    const int tx = t % r->tiles_x, ty = t / r->tiles_x, x0 = tx * CR_TILE, y0 = ty * CR_TILE;
    const int x1 = x0 + CR_TILE < r->w ? x0 + CR_TILE : r->w, y1 = y0 + CR_TILE < r->h ? y0 + CR_TILE : r->h;
    const uint32_t prim = r->prim[t], shad = r->shad[t];
    double grid[CR_SHADOW_GRID][CR_SHADOW_GRID];
    float gz[CR_SHADOW_GRID][CR_SHADOW_GRID];
    bool have[CR_SHADOW_GRID][CR_SHADOW_GRID];
    int x, y;

    if (shad)
        memset(have, 0, sizeof(have));
    for (y = y0; y < y1; y++) {
        for (x = x0; x < x1; x++) {
            size_t ti = (size_t)t * (CR_TILE * CR_TILE) + (size_t)(y - y0) * CR_TILE + (size_t)(x - x0);
            double d[3], f = 1.0;
            cr_ohit_t hits[2];
            float col[3];
            int label;

            if (!cr_pixel_ray(r, ti, d))
                continue;
            if (cr_render_objects_hits(r, d, prim, hits) && shad) {
                int bx = (x - x0) / CR_SHADOW_STEP, by = (y - y0) / CR_SHADOW_STEP, gi, gj;
                double lo = 2.0, hi = -1.0;
                float z = r->bg_z[ti];
                bool same = true;

                /* the four grid factors around the pixel, computed on demand */
                for (gj = by; gj <= by + 1; gj++) {
                    for (gi = bx; gi <= bx + 1; gi++) {
                        if (!have[gj][gi]) {
                            int px = x0 + gi * CR_SHADOW_STEP, py = y0 + gj * CR_SHADOW_STEP;
                            double gd[3];

                            px = px < r->w ? px : r->w - 1;
                            py = py < r->h ? py : r->h - 1;
                            gz[gj][gi] = r->bg_z[cr_tidx(r, px, py)];
                            grid[gj][gi] = cr_pixel_ray(r, cr_tidx(r, px, py), gd)
                                               ? cr_render_objects_shadow(r, px, py, gd, shad)
                                               : 1.0;
                            have[gj][gi] = true;
                        }
                        lo = grid[gj][gi] < lo ? grid[gj][gi] : lo;
                        hi = grid[gj][gi] > hi ? grid[gj][gi] : hi;
                        same = same && fabsf(gz[gj][gi] - z) <= 3.0f;
                    }
                }
                if (same && hi - lo <= CR_SHADOW_TOL) {
                    double fx = (double)((x - x0) % CR_SHADOW_STEP) / CR_SHADOW_STEP;
                    double fy = (double)((y - y0) % CR_SHADOW_STEP) / CR_SHADOW_STEP;

                    f = (grid[by][bx] * (1.0 - fx) + grid[by][bx + 1] * fx) * (1.0 - fy) +
                        (grid[by + 1][bx] * (1.0 - fx) + grid[by + 1][bx + 1] * fx) * fy;
                } else {
                    f = cr_render_objects_shadow(r, x, y, d, shad);
                }
            }
            if (hits[0].obj < 0 && f >= 1.0) {
                /* untouched: the background (already in rgb with its noise) */
                if (n_sub > 1) {
                    const uint8_t *b = r->bg + ((size_t)y * r->w + x) * 3;
                    float *a = r->acc + 3 * ti;

                    a[0] += r->lin_of_srgb[b[0]], a[1] += r->lin_of_srgb[b[1]], a[2] += r->lin_of_srgb[b[2]];
                }
                continue;
            }
            cr_render_objects_shade(r, x, y, d, hits, f, col, &label);
            if (n_sub == 1) {
                cr_put(r, rgb, stride, x, y, col);
            } else {
                float *a = r->acc + 3 * ti;

                a[0] += col[0], a[1] += col[1], a[2] += col[2];
            }
            if (info && k == n_sub / 2 && label >= CR_RENDER_LABEL_BALL0 &&
                label < CR_RENDER_LABEL_BALL0 + CR_NUM_BALLS)
                info->ball_px[label - CR_RENDER_LABEL_BALL0]++;
        }
    }
}

int cr_render_frame(cr_renderer_t *r, const cr_render_scene_t *sub, int n_sub, uint64_t frame_index, uint8_t *rgb,
                    int stride, cr_render_info_t *info)
{
    double t_start = cr_now_ms(), t_obj;
    int k, j, y, tiles = 0;

    if (!r || !sub || !rgb || n_sub < 1 || n_sub > CR_RENDER_MAX_SUBFRAMES || stride < 3 * r->w)
        return CR_ERR_INVALID;
    for (k = 0; k < n_sub; k++)
        if (!cr_scene_valid(&sub[k]))
            return CR_ERR_INVALID;
    if (info)
        memset(info, 0, sizeof(*info));
    /* The background with this frame's sensor noise. */
    cr_noise_rows(r, frame_index);
    for (y = 0; y < r->h; y++)
        cr_row_noise(rgb + (size_t)y * stride, r->bg + (size_t)y * 3 * r->w, r->noise + r->row_noise[y], 3 * r->w);

    t_obj = cr_now_ms();
    r->n_touched = 0;
    for (k = 0; k < n_sub; k++) {
        cr_render_objects_setup(r, &sub[k]);
        cr_render_objects_bin(r, cr_mark);
        for (j = 0; j < r->n_marked; j++) {
            int t = r->marked[j];

            tiles++;
            if (r->tile_n[t] == 0) {
                r->touched[r->n_touched++] = t;
                if (n_sub > 1)
                    memset(r->acc + (size_t)t * (CR_TILE * CR_TILE) * 3, 0, sizeof(float) * 3 * CR_TILE * CR_TILE);
            }
            r->tile_n[t]++;
            cr_render_tile(r, t, k, n_sub, rgb, stride, info);
        }
        cr_clear_marks(r);
    }
    /* Motion blur: average the sub-frames; a tile missed by a sub-frame saw
     * the background then. */
    for (j = 0; j < r->n_touched; j++) {
        int t = r->touched[j], tx = t % r->tiles_x, ty = t / r->tiles_x, x, x0 = tx * CR_TILE;
        int x1 = x0 + CR_TILE < r->w ? x0 + CR_TILE : r->w, y1 = (ty + 1) * CR_TILE < r->h ? (ty + 1) * CR_TILE : r->h;

        if (n_sub > 1) {
            float rest = (float)(n_sub - r->tile_n[t]), inv = 1.0f / (float)n_sub;

            for (y = ty * CR_TILE; y < y1; y++) {
                for (x = x0; x < x1; x++) {
                    size_t i = (size_t)y * r->w + x, ti = cr_tidx(r, x, y);
                    float col[3];
                    int c;

                    if (r->ray[3 * ti] != r->ray[3 * ti])
                        continue;
                    for (c = 0; c < 3; c++)
                        col[c] = (r->acc[3 * ti + c] + rest * r->lin_of_srgb[r->bg[3 * i + c]]) * inv;
                    cr_put(r, rgb, stride, x, y, col);
                }
            }
        }
        r->tile_n[t] = 0;
    }
    if (info) {
        info->tiles = tiles;
        info->ms_objects = cr_now_ms() - t_obj;
        info->ms_total = cr_now_ms() - t_start;
    }
    return CR_OK;
}

int cr_render_frame_cb(cr_renderer_t *r, cr_render_scene_fn fn, void *user, uint64_t frame_index, uint8_t *rgb,
                       int stride, cr_render_info_t *info)
{
    if (!r)
        return CR_ERR_INVALID;
    return cr_render_frame_cb_n(r, fn, user, r->p.blur_subframes, frame_index, rgb, stride, info);
}

int cr_render_frame_cb_n(cr_renderer_t *r, cr_render_scene_fn fn, void *user, int n, uint64_t frame_index, uint8_t *rgb,
                         int stride, cr_render_info_t *info)
{
    cr_render_scene_t scenes[CR_RENDER_MAX_SUBFRAMES];
    cr_render_ball_t balls[CR_RENDER_MAX_SUBFRAMES][CR_RENDER_MAX_BALLS];
    int k, st;

    if (!r || !fn || !rgb || n < 1 || n > CR_RENDER_MAX_SUBFRAMES)
        return CR_ERR_INVALID;
    for (k = 0; k < n; k++) {
        memset(&scenes[k], 0, sizeof(scenes[k]));
        st = fn(user, (k + 0.5) / n, &scenes[k]);
        if (st != CR_OK)
            return st < 0 ? st : CR_ERR_INVALID;
        if (scenes[k].n_balls < 0 || scenes[k].n_balls > CR_RENDER_MAX_BALLS ||
            (scenes[k].n_balls > 0 && !scenes[k].balls))
            return CR_ERR_INVALID;
        /* the caller's ball storage may be reused by the next call */
        if (scenes[k].n_balls > 0)
            memcpy(balls[k], scenes[k].balls, sizeof(balls[k][0]) * (size_t)scenes[k].n_balls);
        scenes[k].balls = balls[k];
    }
    return cr_render_frame(r, scenes, n, frame_index, rgb, stride, info);
}

int cr_render_labels(cr_renderer_t *r, const cr_render_scene_t *scene, uint8_t *labels, int stride)
{
    int j, y;

    if (!r || !scene || !labels || stride < r->w || !cr_scene_valid(scene))
        return CR_ERR_INVALID;
    for (y = 0; y < r->h; y++)
        memset(labels + (size_t)y * stride, CR_RENDER_LABEL_NONE, (size_t)r->w);
    cr_render_objects_setup(r, scene);
    cr_render_objects_bin(r, cr_mark);
    for (j = 0; j < r->n_marked; j++) {
        int t = r->marked[j], tx = t % r->tiles_x, ty = t / r->tiles_x, x, x1, y1;
        uint32_t prim = r->prim[t];

        if (!prim)
            continue;
        x1 = (tx + 1) * CR_TILE < r->w ? (tx + 1) * CR_TILE : r->w;
        y1 = (ty + 1) * CR_TILE < r->h ? (ty + 1) * CR_TILE : r->h;
        for (y = ty * CR_TILE; y < y1; y++) {
            for (x = tx * CR_TILE; x < x1; x++) {
                double d[3];

                if (cr_pixel_ray(r, cr_tidx(r, x, y), d))
                    labels[(size_t)y * stride + x] = (uint8_t)cr_render_objects_label(r, d, prim);
            }
        }
    }
    cr_clear_marks(r);
    return CR_OK;
}

/* ---- arm ------------------------------------------------------------------------- */

int cr_render_arm_from_cue(const cr_render_cue_t *cue, const uint8_t skin[3], const uint8_t sleeve[3],
                           bool short_sleeves, cr_render_arm_t *arm)
{
    double h, el, u[3], uh[3], right[3], g[3];
    double (*p)[3];
    int k;

    if (!cue || !skin || !sleeve || !arm || !cue->present)
        return CR_ERR_INVALID;
    h = cue->dir_deg * CR_PI / 180.0;
    el = cue->elevation_deg * CR_PI / 180.0;
    u[0] = cos(h) * cos(el), u[1] = sin(h) * cos(el), u[2] = -sin(el); /* butt -> tip */
    uh[0] = cos(h), uh[1] = sin(h), uh[2] = 0.0;
    right[0] = -sin(h), right[1] = cos(h), right[2] = 0.0; /* +y is right of +x (SPEC §1) */
    g[0] = cue->tip_x_mm - (CR_RENDER_CUE_LENGTH_MM - 200.0) * u[0];
    g[1] = cue->tip_y_mm - (CR_RENDER_CUE_LENGTH_MM - 200.0) * u[1];
    g[2] = cue->tip_z_mm - (CR_RENDER_CUE_LENGTH_MM - 200.0) * u[2];
    memset(arm, 0, sizeof(*arm));
    arm->present = true;
    arm->n_points = 5;
    p = arm->pts_mm;
    for (k = 0; k < 3; k++) {
        p[0][k] = g[k] + 45.0 * u[k];                                         /* knuckles */
        p[1][k] = g[k] - 30.0 * u[k] + (k == 2 ? 35.0 : 0.0);                 /* wrist */
        p[2][k] = g[k] - 40.0 * uh[k] + 30.0 * right[k] + (k == 2 ? 300.0 : 0.0); /* elbow */
        p[3][k] = p[2][k] + 270.0 * uh[k] + 60.0 * right[k] + (k == 2 ? 150.0 : 0.0); /* shoulder */
        p[4][k] = p[3][k] - 450.0 * uh[k] - 160.0 * right[k] + (k == 2 ? -40.0 : 0.0); /* torso, off the table */
    }
    arm->radius_mm[0] = 40.0;
    arm->radius_mm[1] = 30.0;
    arm->radius_mm[2] = 44.0;
    arm->radius_mm[3] = 62.0;
    arm->radius_mm[4] = 150.0;
    memcpy(arm->rgb[0], skin, 3);
    memcpy(arm->rgb[1], short_sleeves ? skin : sleeve, 3);
    memcpy(arm->rgb[2], sleeve, 3);
    memcpy(arm->rgb[3], sleeve, 3);
    return CR_OK;
}

/* ---- colour conversion ------------------------------------------------------------ */

int cr_render_rgb_to_i420(const uint8_t *rgb, int rgb_stride, int width, int height, uint8_t *y, int y_stride,
                          uint8_t *u, int u_stride, uint8_t *v, int v_stride)
{
    const int cw = (width + 1) / 2, ch = (height + 1) / 2;
    int i, j;

    if (!rgb || !y || !u || !v || width <= 0 || height <= 0 || rgb_stride < 3 * width || y_stride < width ||
        u_stride < cw || v_stride < cw)
        return CR_ERR_INVALID;
    /* BT.709 limited range, 16.16 fixed point:
     * Y = 16 + 219 (0.2126 R + 0.7152 G + 0.0722 B) / 255 */
    for (j = 0; j < height; j++) {
        const uint8_t *s = rgb + (size_t)j * rgb_stride;
        uint8_t *d = y + (size_t)j * y_stride;

        for (i = 0; i < width; i++, s += 3)
            d[i] = (uint8_t)((11966 * s[0] + 40254 * s[1] + 4064 * s[2] + (16 << 16) + 32768) >> 16);
    }
    /* Cb = 128 + 224 (B - Y') / 1.8556 / 255, Cr = 128 + 224 (R - Y') / 1.5748 / 255
     * on the 2x2 block means: coefficients scaled by 2^16, sums of 4 pixels,
     * so the result is (sum + offset) >> 18 (the offset keeps it positive). */
    for (j = 0; j < ch; j++) {
        for (i = 0; i < cw; i++) {
            long sr = 0, sg = 0, sb = 0, cb, cr;
            int n = 0, dy, dx;

            if (2 * j + 1 < height && 2 * i + 1 < width) {
                const uint8_t *a = rgb + (size_t)(2 * j) * rgb_stride + 6 * (size_t)i, *b = a + rgb_stride;

                sr = a[0] + a[3] + b[0] + b[3];
                sg = a[1] + a[4] + b[1] + b[4];
                sb = a[2] + a[5] + b[2] + b[5];
            } else {
                /* a block cut by an odd edge: scale the pixels there to four */
                for (dy = 0; dy < 2; dy++) {
                    for (dx = 0; dx < 2; dx++) {
                        const uint8_t *px;

                        if (2 * j + dy >= height || 2 * i + dx >= width)
                            continue;
                        px = rgb + (size_t)(2 * j + dy) * rgb_stride + 3 * (size_t)(2 * i + dx);
                        sr += px[0], sg += px[1], sb += px[2];
                        n++;
                    }
                }
                sr = sr * 4 / n, sg = sg * 4 / n, sb = sb * 4 / n;
            }
            cb = (-6596L * sr - 22189L * sg + 28784L * sb + (128L << 18) + (1L << 17)) >> 18;
            cr = (28784L * sr - 26145L * sg - 2639L * sb + (128L << 18) + (1L << 17)) >> 18;
            u[(size_t)j * u_stride + i] = (uint8_t)(cb < 16 ? 16 : cb > 240 ? 240 : cb);
            v[(size_t)j * v_stride + i] = (uint8_t)(cr < 16 ? 16 : cr > 240 ? 240 : cr);
        }
    }
    return CR_OK;
}
