/*
 * cr_track.h - turns per-frame detections into per-ball tracks: identity,
 * position, velocity, seen / hidden / gone, in table millimetres.
 *
 * Identities are decided over whole tracks (a stripe that shows no white for
 * a while, a ball first seen under a hand), so output lags input by a bounded
 * number of frames (params.delay_frames): push a frame's detections, then
 * pop every frame that is ready; at the end, flush and pop the rest.
 *
 * Thread-safety: a tracker is used by one thread at a time.
 */
#ifndef CR_TRACK_H
#define CR_TRACK_H

#include "cr_vision.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int delay_frames; /* frames of look-ahead before a frame is output (implementation default) */
    /* further fields are the implementation's to add, each documented */
} cr_track_params_t;

void cr_track_params_defaults(cr_track_params_t *p);

typedef struct cr_tracker cr_tracker_t;

/* t is copied (table size, pockets, ball radius). */
int cr_tracker_create(const cr_table_t *t, const cr_track_params_t *p, cr_tracker_t **out);

/* One frame's detections at media time t_s (strictly increasing). Returns 0
 * or a negative cr_status_t. */
int cr_tracker_push(cr_tracker_t *tr, double t_s, uint64_t frame, const cr_detection_t *dets, int n);

/* No more frames: every frame pushed becomes ready. */
void cr_tracker_flush(cr_tracker_t *tr);

/* Copies the oldest ready frame into *out and returns 1, or returns 0 when
 * none is ready. Frames come out in order, each exactly once. */
int cr_tracker_pop(cr_tracker_t *tr, cr_ball_frame_t *out);

void cr_tracker_destroy(cr_tracker_t *tr);

#ifdef __cplusplus
}
#endif

#endif /* CR_TRACK_H */
