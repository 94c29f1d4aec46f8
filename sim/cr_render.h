/*
 * cr_render.h - renders what an overhead table camera films: cloth, rails,
 * diamonds, pockets and lamps, the balls as shaded spheres with stripes and
 * numbers, an optional cue stick and arm, ball and arm shadows, motion blur
 * over the shutter interval, lens vignetting and blur, and sensor noise.
 *
 * Coordinates are table millimetres (SPEC §1, z up from the cloth; see
 * cr_camera.h). The static background (table, lighting) is rendered once in
 * cr_renderer_create(); each frame copies it and ray-casts only the screen
 * tiles that balls, the cue, the arm or their shadows touch.
 *
 * Determinism: the output is a pure function of the camera, the table, the
 * parameters (seed included), the scenes and the frame index.
 * Thread-safety: a renderer may be used by one thread at a time; different
 * renderers are independent.
 */
#ifndef CR_RENDER_H
#define CR_RENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "cr_camera.h"
#include "cr_table.h"
#include "cr_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- parameters ------------------------------------------------------------- */

typedef enum {
    CR_CLOTH_BLUE = 0, /* tournament blue */
    CR_CLOTH_GREEN,    /* classic green */
    CR_CLOTH_RED,      /* burgundy */
    CR_CLOTH_TAN,      /* camel */
    CR_CLOTH_GREY,     /* steel grey */
    CR_CLOTH_PRESET_COUNT
} cr_cloth_preset_t;

/* Writes the sRGB colour of a cloth preset, as it appears at the table
 * centre under the default lighting. Returns 0 or CR_ERR_INVALID. */
int cr_render_cloth_rgb(cr_cloth_preset_t preset, uint8_t rgb[3]);

#define CR_RENDER_MAX_LAMPS 4

/* An overhead lamp: a downward-facing disc (shade opening). */
typedef struct {
    double x_mm, y_mm, z_mm; /* centre of the opening, table coordinates */
    double radius_mm;        /* radius of the glowing opening (soft shadows, highlight size) */
    double intensity;        /* relative; the defaults use 1 */
} cr_render_lamp_t;

typedef struct {
    uint8_t cloth_rgb[3];    /* sRGB at the table centre; cr_render_cloth_rgb() or custom */
    double cloth_noise;      /* nap texture and mottling strength, 0..1 (default 0.5) */
    uint8_t rail_rgb[3];     /* rail cap wood, sRGB */
    uint8_t diamond_rgb[3];  /* sight inlays, sRGB */
    uint8_t pocket_rgb[3];   /* pocket liner leather, sRGB */
    bool round_diamonds;     /* round 12.7 mm sights instead of 25.4 x 11.1 mm diamonds */
    bool foot_spot;          /* a 22 mm white spot sticker on the foot spot */
    int n_lamps;             /* 1..CR_RENDER_MAX_LAMPS */
    cr_render_lamp_t lamps[CR_RENDER_MAX_LAMPS];
    double ambient;          /* share of the table-centre light that is room light, 0..1 */
    double exposure;         /* scale on all light (1: the cloth preset colour at the centre) */
    double vignetting;       /* lens darkening at the image corners, 0..1 (default 0.25) */
    double lens_blur_px;     /* Gaussian sigma of the lens on the background, pixels */
    double noise_sigma;      /* sensor noise per channel, 8-bit levels (0: none) */
    double shadow_strength;  /* 0..1; 0 disables all shadows and contact darkening */
    int blur_subframes;      /* sub-frames per frame for cr_render_frame_cb (1: no blur) */
    uint64_t seed;           /* drives every texture and noise */
} cr_render_params_t;

/* Defaults for table t: blue cloth, noise 0.5, dark wood rails, pearl
 * diamonds, three lamps 1000 mm above the long string at L/2 and L/2 +-
 * L/3, ambient 0.3, exposure 1, vignetting 0.25, lens blur 0.6 px, noise
 * sigma 2, shadows 1, 1 sub-frame, seed 1. */
void cr_render_params_defaults(cr_render_params_t *p, const cr_table_t *t);

/* ---- scene ---------------------------------------------------------------- */

/* One ball. Orientation: the unit quaternion q = (w, x, y, z) whose
 * standard rotation matrix maps ball body coordinates to table coordinates
 * (x, y, z up). In the body frame the stripe of balls 9-15 is the band
 * |z| < 0.45 R around the body z axis, and the two number circles are
 * centred on the body +x and -x axes (numbers upright along body +z). The
 * caller integrates the angular velocity. Balls are drawn over the table
 * (a ball sinking into a pocket is not cut by the rim): set visible to
 * false once it has dropped. */
typedef struct {
    int id;          /* 0 cue ball, 1..15 */
    double x_mm;     /* centre, table coordinates */
    double y_mm;
    double lift_mm;  /* bottom of the ball above the cloth (0 when resting) */
    double q[4];     /* w, x, y, z; a zero quaternion means identity */
    bool visible;    /* false: not drawn (pocketed, off the table) */
} cr_render_ball_t;

/* A uniformly random orientation (Shoemake's method) for ball id, the same
 * for the same seed and id: balls are racked and spotted with their stripes
 * and numbers any way up, as real ones are. */
void cr_render_random_orientation(uint64_t seed, int id, double q[4]);

#define CR_RENDER_CUE_LENGTH_MM 1470.0
#define CR_RENDER_CUE_TIP_RADIUS_MM 6.5
#define CR_RENDER_CUE_BUTT_RADIUS_MM 15.0

/* The cue: a tapered cylinder, tip to butt, maple shaft and dark butt. */
typedef struct {
    bool present;
    double tip_x_mm, tip_y_mm, tip_z_mm; /* centre of the tip, table coordinates */
    double dir_deg;       /* horizontal heading from butt to tip, degrees from +x toward +y */
    double elevation_deg; /* butt above the tip: angle of the cue over the cloth, 0..89 */
} cr_render_cue_t;

#define CR_RENDER_ARM_MAX_POINTS 6

/* An arm (and body) as a chain of round capsules: segment i joins points
 * [i] and [i+1] with radii radius_mm[i] -> radius_mm[i+1] and colour rgb[i].
 * cr_render_arm_from_cue() builds a hand, forearm, upper arm and shoulder. */
typedef struct {
    bool present;
    int n_points; /* 2..CR_RENDER_ARM_MAX_POINTS */
    double pts_mm[CR_RENDER_ARM_MAX_POINTS][3];
    double radius_mm[CR_RENDER_ARM_MAX_POINTS];
    uint8_t rgb[CR_RENDER_ARM_MAX_POINTS - 1][3]; /* sRGB per segment */
} cr_render_arm_t;

/* Builds a right arm holding the cue 200 mm from its butt: hand blob,
 * forearm hanging to the elbow, upper arm to the shoulder, and the torso
 * going back off the table. skin and sleeve are sRGB; short_sleeves shows
 * skin on the forearm. Returns 0, or CR_ERR_INVALID when the cue is absent. */
int cr_render_arm_from_cue(const cr_render_cue_t *cue, const uint8_t skin[3], const uint8_t sleeve[3],
                           bool short_sleeves, cr_render_arm_t *arm);

#define CR_RENDER_MAX_BALLS 16

/* Everything that moves, at one instant. */
typedef struct {
    const cr_render_ball_t *balls; /* n_balls entries (0..CR_RENDER_MAX_BALLS) */
    int n_balls;
    cr_render_cue_t cue;
    cr_render_arm_t arm;
} cr_render_scene_t;

/* ---- renderer ----------------------------------------------------------------- */

typedef struct cr_renderer cr_renderer_t;

/* Creates a renderer for images of cam->width x cam->height and renders the
 * static background (about 1 s at 1920x1080 on one core). Copies cam, t and
 * p. Memory: about 31 bytes per pixel (64 MB at 1920x1080), all allocated
 * here; frames allocate nothing. Returns 0; CR_ERR_INVALID for NULL
 * pointers or parameters out of range (n_lamps, negative strengths, sizes
 * above 8192); CR_ERR_NOMEM. *out is untouched on failure. */
int cr_renderer_create(const cr_camera_t *cam, const cr_table_t *t, const cr_render_params_t *p,
                       cr_renderer_t **out);

/* Frees everything; NULL is a no-op. */
void cr_renderer_destroy(cr_renderer_t *r);

#define CR_RENDER_MAX_SUBFRAMES 16

/* Per-frame results (optional). */
typedef struct {
    /* Pixels whose centre sees ball id first with coverage >= 1/2, in the
     * middle sub-frame: 0 for a hidden or absent ball. */
    int ball_px[CR_NUM_BALLS];
    int tiles;              /* screen tiles ray-cast, summed over sub-frames */
    double ms_objects;      /* wall time ray-casting objects and shadows, ms */
    double ms_total;        /* wall time of the whole call, ms */
} cr_render_info_t;

/* Renders one frame into rgb (width x height, 3 bytes per pixel R, G, B,
 * rows stride bytes apart, stride >= 3 * width): the average of n_sub
 * sub-frames (1..CR_RENDER_MAX_SUBFRAMES) spread evenly over the shutter
 * interval, sub[k] being the scene at fraction (k + 0.5) / n_sub. Noise is
 * drawn from the seed and frame_index. info may be NULL. No allocation.
 * Returns 0; CR_ERR_INVALID for NULL pointers, a bad count, stride, ball id
 * or arm. */
int cr_render_frame(cr_renderer_t *r, const cr_render_scene_t *sub, int n_sub, uint64_t frame_index, uint8_t *rgb,
                    int stride, cr_render_info_t *info);

/* Fills *scene with the scene at shutter fraction frac in [0, 1) (the
 * pointers in it must stay valid until the next call or the end of
 * cr_render_frame_cb). Returns 0, or a negative status that aborts the frame. */
typedef int (*cr_render_scene_fn)(void *user, double frac, cr_render_scene_t *scene);

/* As cr_render_frame with p->blur_subframes sub-frames requested from fn at
 * fractions (k + 0.5) / n. Returns fn's failure status if it fails. */
int cr_render_frame_cb(cr_renderer_t *r, cr_render_scene_fn fn, void *user, uint64_t frame_index, uint8_t *rgb,
                       int stride, cr_render_info_t *info);

/* As cr_render_frame_cb with n sub-frames (1..CR_RENDER_MAX_SUBFRAMES) for
 * this frame: more where balls move fast, so that a fast ball is a smear, as
 * a camera integrates it, not copies of itself. */
int cr_render_frame_cb_n(cr_renderer_t *r, cr_render_scene_fn fn, void *user, int n, uint64_t frame_index, uint8_t *rgb,
                         int stride, cr_render_info_t *info);

/* Label values of cr_render_labels(). */
#define CR_RENDER_LABEL_NONE 0   /* table or background */
#define CR_RENDER_LABEL_BALL0 1  /* ball id k is CR_RENDER_LABEL_BALL0 + k */
#define CR_RENDER_LABEL_CUE 17
#define CR_RENDER_LABEL_ARM 18

/* Ground-truth segmentation of one scene: for every pixel the object its
 * centre ray meets first (coverage >= 1/2), as CR_RENDER_LABEL_* values
 * (width bytes per row, rows stride bytes apart). Returns 0 or CR_ERR_INVALID. */
int cr_render_labels(cr_renderer_t *r, const cr_render_scene_t *scene, uint8_t *labels, int stride);

/* The static background without noise (what frames are composited on):
 * valid until the renderer is destroyed; stride is 3 * width. */
const uint8_t *cr_render_background(const cr_renderer_t *r);

/* ---- colour conversion --------------------------------------------------------- */

/* RGB (3 bytes per pixel) to I420 with BT.709 limited-range coefficients
 * (what the video writer declares): y is width x height, u and v are
 * ceil(width/2) x ceil(height/2), each with its own stride; chroma is the
 * mean of each 2x2 block. Returns 0 or CR_ERR_INVALID. */
int cr_render_rgb_to_i420(const uint8_t *rgb, int rgb_stride, int width, int height, uint8_t *y, int y_stride,
                          uint8_t *u, int u_stride, uint8_t *v, int v_stride);

#ifdef __cplusplus
}
#endif

#endif /* CR_RENDER_H */
