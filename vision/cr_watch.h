/*
 * cr_watch.h - notices that the camera has moved since calibration: the
 * cushion nose edges are no longer where the calibration puts them.
 *
 * Along the four cushion nose lines (away from the pockets) the watch
 * samples short luma profiles across the edge and finds the edge's sub-pixel
 * offset. The offsets of the first frame are the reference (the edge seen
 * from above is not exactly on the projected nose line: the cushion has
 * height); later checks compare with it. A hand, cue or arm covers some
 * samples, never most of a cushion, so each cushion's figure is the median
 * of its samples; the camera has moved when, on checks in a row, the edge
 * has shifted on a cushion by more than moved_px, or has vanished from most
 * samples (a large move or a camera pointing elsewhere). Each half of a
 * cushion has its own median, so that a camera turned about its axis (the
 * halves shift opposite ways) is seen too.
 *
 * Thread-safety: one watch per thread. No allocation after create.
 */
#ifndef CR_WATCH_H
#define CR_WATCH_H

#include <stdbool.h>

#include "cr_vision.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double check_every_s; /* media time between checks (1.0) */
    double moved_px;      /* a cushion's median edge shift that counts as moved (2.0) */
    double min_valid;     /* below this share of samples still showing their edge, the
                             table is lost (0.35) */
    int confirm;          /* checks in a row that must agree before moved is reported (3) */
    int profile_px;       /* half-length of each profile across the edge (8) */
    double spacing_mm;    /* samples along each cushion (every 60 mm) */
} cr_watch_params_t;

void cr_watch_params_defaults(cr_watch_params_t *p);

typedef struct cr_watch cr_watch_t;

/* What a check found. */
typedef struct {
    bool checked;          /* a check ran on this frame */
    bool moved;            /* the camera has moved (confirmed over `confirm` checks) */
    double shift_px[4];    /* per cushion (head, foot, left, right): the larger median edge
                              shift of its two halves, px; NAN when too few samples show
                              the edge */
    double valid_share;    /* share of samples that show their edge */
    int n_samples;
} cr_watch_report_t;

/* Samples the cushions of table t as seen by cam. Returns 0, CR_ERR_INVALID
 * (fewer than 8 samples fall inside the image), or CR_ERR_NOMEM. */
int cr_watch_create(const cr_camera_t *cam, const cr_table_t *t, const cr_watch_params_t *p, cr_watch_t **out);

/* Feeds one frame at media time t_s. The first frame sets the reference;
 * later frames run a check when check_every_s has passed. Never fails on a
 * frame of the camera's size; CR_ERR_INVALID for another size. */
int cr_watch_frame(cr_watch_t *w, const cr_yuv_image_t *img, double t_s, cr_watch_report_t *r);

void cr_watch_destroy(cr_watch_t *w);

#ifdef __cplusplus
}
#endif

#endif /* CR_WATCH_H */
