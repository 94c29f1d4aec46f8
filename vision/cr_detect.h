/*
 * cr_detect.h - finds and describes every ball in one frame (no memory of
 * earlier frames except the slowly learned cloth background).
 *
 * Input: a planar I420 frame and the posed camera of the calibration; the
 * camera gives the exact image radius of a ball anywhere on the table and
 * restricts work to the playing surface and pocket mouths.
 * Output: cr_detection_t values (cr_vision.h), table mm at the ball centre.
 *
 * Thread-safety: a detector is used by one thread at a time.
 */
#ifndef CR_DETECT_H
#define CR_DETECT_H

#include "cr_vision.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double min_score; /* detections below this score are not returned (0.5) */
    /* further fields are the implementation's to add, each documented */
} cr_detect_params_t;

void cr_detect_params_defaults(cr_detect_params_t *p);

typedef struct cr_detector cr_detector_t;

/* Creates a detector for frames of cam->width x cam->height. The camera and
 * table are copied. Returns 0 or a negative cr_status_t. */
int cr_detector_create(const cr_camera_t *cam, const cr_table_t *t, const cr_detect_params_t *p,
                       cr_detector_t **out);

/* Finds the balls in img (same size as the camera's image): at most max
 * detections into out, their count in *n. Returns 0 or a negative
 * cr_status_t (CR_ERR_INVALID for a frame of the wrong size). */
int cr_detector_run(cr_detector_t *d, const cr_yuv_image_t *img, cr_detection_t *out, int max, int *n);

void cr_detector_destroy(cr_detector_t *d);

#ifdef __cplusplus
}
#endif

#endif /* CR_DETECT_H */
