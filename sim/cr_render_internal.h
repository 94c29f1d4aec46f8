/*
 * cr_render_internal.h - private declarations shared by cr_render.c (frames,
 * tiles, noise), cr_render_table.c (the static background) and
 * cr_render_objects.c (balls, cue, arm, shadows). Not installed.
 *
 * Light is computed in linear RGB (sRGB primaries, 0..1 = full scale) and
 * encoded to 8-bit sRGB through lookup tables.
 */
#ifndef CR_RENDER_INTERNAL_H
#define CR_RENDER_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cr_render.h"

#define CR_PI 3.14159265358979323846

/* Screen tiles of TILE x TILE pixels are the unit of per-frame work. */
#define CR_TILE 16

/* Linear -> sRGB table size (linear 0..1 in steps of 1/(N-1)). */
#define CR_LUT_BITS 14
#define CR_LUT_N (1 << CR_LUT_BITS)

/* Table geometry drawn around the playing surface (mm). */
#define CR_CUSHION_W 50.8       /* cushion nose to its back, RULES.md §5.5 (2 in) */
#define CR_NOSE_H 36.3          /* cushion nose above the cloth, RULES.md §5.5 */
#define CR_RAIL_H CR_CAMERA_RAIL_HEIGHT_MM
#define CR_RAIL_OUT CR_CAMERA_RAIL_WIDTH_MM /* nose to the rail's outer edge */
#define CR_UNDERCUT 12.0        /* the cushion face meets the cloth this far behind the nose */
#define CR_DIAMOND_SETBACK 93.66 /* RULES.md §5.2 */
#define CR_FLOOR_Z (-780.0)     /* floor below the cloth */

/* Ball contact darkening (ambient occlusion) fades out between these
 * horizontal distances from the contact point, in ball radii. */
#define CR_AO_FADE0 1.9
#define CR_AO_FADE1 2.6

/* Chalk smudges drawn on the bed. */
#define CR_CHALK_MARKS 24

/* Objects per sub-frame: 16 balls, the cue, up to 5 arm segments; one bit
 * each in the tile masks. */
#define CR_MAX_OBJS 24
#define CR_OBJ_CUE_BIT 16
#define CR_OBJ_ARM_BIT0 17

enum { CR_OBJ_BALL = 0, CR_OBJ_CUE, CR_OBJ_ARM };

/* A lamp prepared for shading. */
typedef struct {
    double pos[3];
    double radius;
    double weight; /* direct irradiance = weight * cos_surface * cos_lamp^m / r^2 */
} cr_lamp_t;

/* Lamp emission falls off as cos(angle from straight down)^CR_LAMP_M. */
#define CR_LAMP_M 1.0

/* Pocket geometry for the background. */
typedef struct {
    double a[2], b[2];   /* jaw points (cr_table_pocket_mouth) */
    double pa[2], pb[2]; /* unit normals of the facing lines, pointing into the cushions */
    double nm[2];        /* unit normal of the mouth line, pointing into the pocket */
    double hole[2];      /* centre of the hole in the slate and the rail cut */
    double hole_r;       /* its radius */
    double reach;        /* the throat ends this far behind the mouth line */
} cr_pocket_geo_t;

/* One drawable object of a sub-frame. */
typedef struct {
    int kind;        /* CR_OBJ_* */
    int id;          /* ball id, or arm segment index */
    int label;       /* CR_RENDER_LABEL_* */
    double a[3];     /* ball centre, or axis start (cue tip, arm point i) */
    double b[3];     /* axis end (cue butt, arm point i+1) */
    double ra, rb;   /* radius at a and at b (ball: ra) */
    double e[3];     /* b - a */
    double ee;       /* |e|^2 */
    double len;      /* |e| */
    double rot[9];   /* ball: body -> table, row-major */
    double oc[3];    /* ball: camera centre - ball centre */
    double oc2;      /* |oc|^2 */
    double pix;      /* ball: mm per pixel at the ball */
    double reach2;   /* ball: squared horizontal distance beyond which it darkens nothing */
    double mid[3];   /* cue, arm: axis midpoint ... */
    double bound;    /* ... and the radius of a sphere around it holding the object */
    float albedo[3]; /* linear base colour (ball colour, arm segment colour) */
} cr_obj_t;

struct cr_renderer {
    cr_camera_t cam;
    cr_table_t table;
    cr_render_params_t p;
    int w, h;
    int tiles_x, tiles_y;

    float *ray;      /* per pixel unit ray direction (table frame, z up); NAN: no ray; tile order */
    uint8_t *bg;     /* static background, sRGB, stride 3w */
    float *bg_z;     /* height of the background surface at each pixel (mm); NAN: takes no shadow;
                        tile order */
    float *acc;      /* linear RGB accumulator for motion blur, 3 floats per pixel, tile order
                        (row order while the background is made) */
    uint32_t *prim;  /* per tile: objects whose image may cover it */
    uint32_t *shad;  /* per tile: objects whose shadow may fall on it */
    uint8_t *tile_n; /* per tile: sub-frames that ray-cast it in this frame */
    int *touched;    /* tiles ray-cast in this frame */
    int n_touched;
    int *marked;     /* tiles with a mask bit set in this sub-frame */
    int n_marked;
    int8_t *noise;   /* Gaussian noise table, noise_len bytes */
    int *row_noise;  /* per row: offset into noise for the current frame */
    size_t noise_len;

    float lin_of_srgb[256];
    uint8_t srgb_of_lin[CR_LUT_N];

    double max_radius; /* cr_camera_max_radius() */
    int n_lamps;
    cr_lamp_t lamps[CR_RENDER_MAX_LAMPS];
    double ambient;      /* ambient irradiance (table-centre total is 1) */
    double exposure;
    float cloth_lin[3];  /* linear cloth albedo */
    cr_pocket_geo_t pockets[CR_POCKET_COUNT];
    double chalk[CR_CHALK_MARKS][4]; /* chalk smudges: x, y, radius (mm), strength */

    cr_obj_t objs[CR_MAX_OBJS];
    int n_objs;
};

/* ---- shared helpers ------------------------------------------------------- */

static inline double cr_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline double cr_clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline double cr_smoothstep(double e0, double e1, double x)
{
    double t = cr_clamp((x - e0) / (e1 - e0), 0.0, 1.0);

    return t * t * (3.0 - 2.0 * t);
}

/* sRGB byte -> linear. */
static inline double cr_srgb_to_lin(double c)
{
    c /= 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

/* Linear -> sRGB byte through the table (clamps). */
static inline uint8_t cr_lin_to_byte(const struct cr_renderer *r, double v)
{
    int i;

    if (!(v > 0.0))
        return 0;
    if (v >= 1.0)
        return 255;
    i = (int)(v * (CR_LUT_N - 1) + 0.5);
    return r->srgb_of_lin[i];
}

/* Per-pixel tables (ray, bg_z, and acc during frames) are stored tile by
 * tile, CR_TILE x CR_TILE pixels each, so that a tile's data is contiguous:
 * the index of pixel (x, y). */
static inline size_t cr_tidx(const struct cr_renderer *r, int x, int y)
{
    return ((size_t)(y / CR_TILE) * (size_t)r->tiles_x + (size_t)(x / CR_TILE)) * (CR_TILE * CR_TILE) +
           (size_t)(y % CR_TILE) * CR_TILE + (size_t)(x % CR_TILE);
}

/* Ray direction (unit, table frame, z up) of the pixel with tile index ti;
 * false when the pixel has no ray. */
static inline int cr_pixel_ray(const struct cr_renderer *r, size_t ti, double d[3])
{
    const float *v = r->ray + 3 * ti;

    if (v[0] != v[0])
        return 0;
    d[0] = v[0];
    d[1] = v[1];
    d[2] = v[2];
    return 1;
}

/* Direct irradiance at point p with unit normal n from lamp l (0 when the
 * lamp is behind the surface or above-facing). Writes the unit direction to
 * the lamp and the distance. */
static inline double cr_lamp_irradiance(const cr_lamp_t *l, const double p[3], const double n[3], double dir[3],
                                        double *dist)
{
    double v[3] = {l->pos[0] - p[0], l->pos[1] - p[1], l->pos[2] - p[2]};
    double r2 = cr_dot3(v, v), r = sqrt(r2), cs, cl;

    dir[0] = v[0] / r;
    dir[1] = v[1] / r;
    dir[2] = v[2] / r;
    *dist = r;
    cs = cr_dot3(n, dir);
    cl = dir[2]; /* cos of the angle from the lamp's downward axis */
    if (cs <= 0.0 || cl <= 0.0)
        return 0.0;
    return l->weight * cs * cl / r2; /* CR_LAMP_M == 1 */
}

/* Lens vignetting factor at pixel (x, y): 1 - v * (radius / half-diagonal)^2. */
static inline double cr_vignette(const struct cr_renderer *r, int x, int y)
{
    double dx = x - r->cam.cx, dy = y - r->cam.cy;
    double hd2 = 0.25 * ((double)r->w * r->w + (double)r->h * r->h);
    double f = 1.0 - r->p.vignetting * (dx * dx + dy * dy) / hd2;

    return f > 0.0 ? f : 0.0;
}

/* Deterministic hashing and value noise (textures). */
static inline uint32_t cr_hash3(int32_t x, int32_t y, uint32_t seed)
{
    uint32_t h = (uint32_t)x * 0x8da6b343u ^ (uint32_t)y * 0xd8163841u ^ seed * 0xcb1ab31fu;

    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    h *= 0x297a2d39u;
    h ^= h >> 15;
    return h;
}

/* splitmix64: the per-frame random stream. */
static inline uint64_t cr_splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- cr_render_table.c ----------------------------------------------------- */

/* Prepares pockets and lamps, renders r->bg, r->bg_z (uses r->acc as
 * scratch). Returns 0 or CR_ERR_NOMEM. */
int cr_render_table_background(struct cr_renderer *r);

/* ---- cr_render_objects.c --------------------------------------------------- */

/* Fills r->objs from a scene (validated before). */
void cr_render_objects_setup(struct cr_renderer *r, const cr_render_scene_t *s);

/* Image bounding boxes (inclusive pixel ranges, clipped) of object k's
 * image and of its shadow; calls mark(r, x0, y0, x1, y1, bit, is_shadow). */
typedef void (*cr_mark_fn)(struct cr_renderer *r, int x0, int y0, int x1, int y1, int bit, int shadow);
void cr_render_objects_bin(struct cr_renderer *r, cr_mark_fn mark);

/* Light factor (0..1) of the background at pixel (x, y) (ray d) under the
 * shadow casters in shad; 1 where the background takes no shadow. */
double cr_render_objects_shadow(const struct cr_renderer *r, int x, int y, const double d[3], uint32_t shad);

/* A ray's hit on an object. */
typedef struct {
    int obj;     /* index in r->objs, -1: none */
    double t;    /* distance along the ray, mm */
    double cov;  /* edge coverage 0..1 */
    double p[3]; /* surface point */
    double n[3]; /* unit normal */
    double w;    /* axis parameter 0..1 (cue, arm) */
} cr_ohit_t;

/* The two nearest object hits of unit ray d among the objects in prim.
 * Returns true when the background shows (no hit or partial coverage). */
bool cr_render_objects_hits(const struct cr_renderer *r, const double d[3], uint32_t prim, cr_ohit_t h[2]);

/* Shades pixel (x, y) from its hits over the background darkened by shadow:
 * linear RGB in out; *label gets the front object's label when its
 * coverage is at least 1/2 (else CR_RENDER_LABEL_NONE). */
void cr_render_objects_shade(const struct cr_renderer *r, int x, int y, const double d[3], const cr_ohit_t h[2],
                             double shadow, float out[3], int *label);

/* Only the label of pixel i (cheaper; no shading). */
int cr_render_objects_label(const struct cr_renderer *r, const double d[3], uint32_t prim);

#endif /* CR_RENDER_INTERNAL_H */
