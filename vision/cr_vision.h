/*
 * cr_vision.h - the values that flow through the vision pipeline, shared by
 * its three stages:
 *
 *   frame (I420) --cr_detect.h--> detections (per frame, no memory of the past)
 *                --cr_track.h---> ball states (per frame: identity, position,
 *                                 velocity, seen/hidden/gone; identities fixed
 *                                 along whole tracks, so output lags input)
 *                --cr_recon.h---> events (SPEC §3: stroke, collision, cushion,
 *                                 pocket, off_table, disturbed, placed, rest,
 *                                 double_hit)
 *
 * Geometry comes from a posed camera (cr_camera.h): a ball at rest has its
 * centre at z = R above the cloth, so a ball's table position is where the
 * ray through its image centre meets the plane z = R
 * (cr_camera_unproject_plane(cam, u, v, R, ...)), never the cloth plane
 * (which would put balls up to ~12 mm too far from the camera's nadir).
 *
 * All values are plain, fixed size and copyable.
 */
#ifndef CR_VISION_H
#define CR_VISION_H

#include <stdbool.h>
#include <stdint.h>

#include "cr_camera.h"
#include "cr_table.h"
#include "cr_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A non-owning planar I420 image (luma full size, chroma (w+1)/2 x (h+1)/2),
 * e.g. a cr_frame_t from capture/ without the copy. */
typedef struct {
    const uint8_t *y, *u, *v;
    int width, height;
    int stride_y, stride_u, stride_v; /* bytes between rows */
} cr_yuv_image_t;

/* Ball colour classes of a standard set (the stripe 9..15 carries the colour
 * of ball n - 8). */
typedef enum {
    CR_COLOUR_WHITE = 0, /* cue ball */
    CR_COLOUR_YELLOW,    /* 1, 9 */
    CR_COLOUR_BLUE,      /* 2, 10 */
    CR_COLOUR_RED,       /* 3, 11 */
    CR_COLOUR_PURPLE,    /* 4, 12 */
    CR_COLOUR_ORANGE,    /* 5, 13 */
    CR_COLOUR_GREEN,     /* 6, 14 */
    CR_COLOUR_MAROON,    /* 7, 15 */
    CR_COLOUR_BLACK,     /* 8 */
    CR_COLOUR_COUNT
} cr_colour_t;

#define CR_VISION_MAX_DETECTIONS 64
#define CR_VISION_MAX_BALLS 16 /* ids 0..15 */

/* One ball candidate in one frame. */
typedef struct {
    double u, v;       /* image centre, pixels (the distorted image as decoded) */
    double x, y;       /* table mm: ball centre projected onto the cloth (see above) */
    double r_px;       /* expected image radius of a ball at (x, y), pixels */
    double sigma_mm;   /* 1-sigma position uncertainty, mm */
    double blur_dx, blur_dy; /* motion streak: half the displacement over the exposure,
                                table mm (0, 0 when sharp); (x, y) is mid-exposure */
    float score;       /* 0..1: how sure this is a ball */
    float visible;     /* 0..1: share of the disc seen (hand, cue, arm, pocket jaw) */
    float colour_p[CR_COLOUR_COUNT]; /* colour class probabilities (sum 1) */
    float white_frac;  /* share of the seen disc that is white (stripe evidence) */
    float colour_fit;  /* log-likelihood of the colour class that fits best (0: a ball's
                          colour as expected; -2: two standard deviations off every class) */
    float fg_share;    /* share of the coarse samples within 0.8 R of the centre that differ
                          from the background (-1: too few in view) */
    float id_p[CR_VISION_MAX_BALLS]; /* this frame alone: probability of each id 0..15 */
    int hint_tag;      /* 0: found by the detector's own search; else the tag of the
                          hint (cr_ball_hint_t) it was looked for at, and only for */
} cr_detection_t;

/* A place whose coarse samples differ from the background on at most this
 * share of them shows the bare background (cr_detection_t.fg_share): no ball
 * that stood out from it is there (cr_detector_bare, cr_tracker_bare). */
#define CR_VISION_BARE_SHARE 0.1

/* A detection whose colour fits no ball's (cr_detection_t.colour_fit below
 * this: a standard deviation and three quarters off every class, as skin is
 * off the orange's saturation) is of none of the balls: the tracker gives a
 * track seen so no number (and, moving, leaves it out), the detector's
 * probes do not follow it. */
#define CR_VISION_COLOUR_OFF (-1.5)

/* A ball the tracker expects to see in the next frame (a hint for the
 * detector): table mm, how far from there it may be, the tracker's tag
 * (not 0) for the ball, copied into what is found there, and whether it
 * rests there (1: held still; 0: on its way, the place a prediction).
 * struck: held where it rested but struck lately and lost, so perhaps
 * sent off unseen: looked for anywhere within reach_mm (a ball found
 * there within half a radius of (x, y) is it, still at rest; one found
 * further off is another ball, or it, which the tracker decides).
 * step_mm: how far it goes in a frame at the speed it was last seen at
 * (0 for a ball held where it rested). unseen: the tracker did not see it
 * in the last frame (held, or on its way). step_dx, step_dy: that step's
 * direction and length (table mm; 0, 0 when step_mm is 0 or the direction
 * is not known). */
typedef struct {
    double x, y;
    double reach_mm;
    int tag;
    int at_rest;
    int struck;
    double step_mm;
    int unseen;
    double step_dx, step_dy;
} cr_ball_hint_t;

/* Where a tracked ball is. */
typedef enum {
    CR_BALL_SEEN = 0, /* detected in this frame */
    CR_BALL_HIDDEN,   /* not detected; position held or predicted (under a hand, cue, arm) */
    CR_BALL_GONE      /* vanished and not seen since (pocketed or off the table: recon decides) */
} cr_ball_status_t;

/* One ball in one frame, as the tracker finally knows it. */
typedef struct {
    int id;           /* 0..15, or -1 when still unsure */
    int track;        /* tracker's id for this ball, stable for the whole input */
    double x, y;      /* table mm (last known for HIDDEN/GONE) */
    double vx, vy;    /* mm/s (0 for HIDDEN with no motion, GONE) */
    double sigma_mm;  /* position uncertainty */
    cr_ball_status_t status;
    float id_conf;    /* 0..1 confidence in id */
    bool blurred;     /* the detection was a motion streak */
    bool not_cue;     /* id -1 only: its looks already rule out the cue ball (a
                       * coloured ball whose number is not known yet) */
    bool has_raw;     /* raw_x, raw_y hold this frame's own detection (SEEN) */
    double raw_x, raw_y; /* table mm: the detection before smoothing */
    bool refit;       /* seen at rest in one place, then in another from the frame of
                       * its step on, for as long as the tracker's look-ahead shows: its
                       * fit moved, not the ball (x, y the new place, vx, vy 0) */
} cr_ball_obs_t;

/* All balls the tracker knows of at one frame time. */
typedef struct {
    double t;         /* seconds of media time (the frame's PTS, mid-exposure) */
    uint64_t frame;   /* frame index */
    int n;
    cr_ball_obs_t balls[CR_VISION_MAX_DETECTIONS];
} cr_ball_frame_t;

/* Converts a packed RGB image to I420 (BT.601 limited range, as x264 and
 * the decoders use), for tests and for stills. y, u, v must hold w*h and
 * ((w+1)/2)*((h+1)/2) bytes each; strides are the widths. */
void cr_vision_rgb_to_i420(const uint8_t *rgb, int width, int height, int stride, uint8_t *y, uint8_t *u,
                           uint8_t *v);

/* And back (for calibration from I420 frames and for check images). */
void cr_vision_i420_to_rgb(const cr_yuv_image_t *img, uint8_t *rgb, int stride);

#ifdef __cplusplus
}
#endif

#endif /* CR_VISION_H */
