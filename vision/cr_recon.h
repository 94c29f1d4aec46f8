/*
 * cr_recon.h - reconstructs the events of play (SPEC §3: stroke, collision,
 * cushion, pocket, off_table, disturbed, placed, rest; docs/EVENTS.md:
 * double_hit) from the tracker's per-frame ball states.
 *
 * Times are reconstructed between frames from the trajectories (a contact
 * is almost never on a frame). Events come out in time order as soon as
 * they are certain; push frames in order, collect the events each push
 * produces, and call finish at the end.
 *
 * How: every ball is at rest (a running mean of its position) or moving
 * along a fitted segment (position quadratic in time, as between the events
 * of the standard event-based physics). A resting ball that leaves its rest
 * position is an onset; a moving ball that leaves its predicted path is a
 * kink. Each is confirmed by the next lookahead_frames frames (a single
 * outlier is dropped) and explained: a collision when another ball's path
 * (or rest position) came within 2R at that time (the contact time is the
 * root of |p_a(t) - p_b(t)| = 2R on the incoming paths), a cushion when the
 * path reached R from a nose line or a jaw, else a stroke (the cue ball) or
 * a disturbed ball. A ball that vanishes on its way into a pocket mouth is
 * pocketed; over a cushion, off the table. A stroke's time is its cue ball's
 * path extrapolated back to its rest position.
 *
 * Confidence: collisions inside frozen clusters (a rack) and first contacts
 * that cannot be ordered from the trajectories (closer than doubt_sigmas
 * timing sigmas, or with a ball the cue ball passed within reach of that has
 * not moved yet) get a confidence below 1, so that the rules engine defers
 * (and gives the shooter the benefit of the doubt) rather than guess.
 *
 * Ids: balls with id -1 are ignored (an event needs a ball number).
 *
 * Thread-safety: one thread at a time per reconstructor.
 */
#ifndef CR_RECON_H
#define CR_RECON_H

#include "cr_event.h"
#include "cr_vision.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parameters. Lengths in mm, times in s. Thresholds on positions scale with
 * each observation's own sigma_mm (the tracker's uncertainty), floored at
 * sigma_floor_mm; the fixed floors below only keep a perfect tracker from
 * reacting to rounding. */
typedef struct {
    double fps; /* nominal frame rate (for windows and thresholds that are per frame) */
    int lookahead_frames;   /* frames after a change that confirm it before it is decided (1):
                             * an event between frames k and k+1 comes out with frame
                             * k+1+lookahead at the latest (2 frames for 1) unless the
                             * motion is too slow to see that soon */
    double sigma_floor_mm;  /* lower bound on an observation's sigma (0.3) */
    double onset_k;         /* a resting ball has moved when it is further than onset_k sigma
                             * from its rest position (5; radial, so about 4e-6 a frame
                             * for noise alone, and confirmed by the lookahead) ... */
    double onset_min_mm;    /* ... and at least this far (1.5) */
    double kink_k;          /* a moving ball changed course when it is further than kink_k sigma
                             * from the prediction of its motion so far (5, widened by the
                             * prediction's own noise and by accel_max / 2 over two
                             * frames: a change of cloth friction is no kink) ... */
    double kink_min_mm;     /* ... and at least this far (2.5) */
    double accel_max_mm_s2; /* largest deceleration a fit may use (cloth sliding friction is
                             * about 0.2 g; 4000) */
    double fit_window_s;    /* samples used to fit a ball's current motion (0.25) */
    double still_s;         /* a ball has stopped when it moved less than still_mm (plus its
                             * noise) over this long (0.15); rest comes this long plus the
                             * lookahead after the last ball stops */
    double still_mm;        /* (1.0) */
    double contact_tol_mm;  /* slack on the contact distances 2R (ball) and R (cushion) (5) */
    double frozen_mm;       /* a ball resting this close to touching a cushion at the stroke
                             * is reported frozen to it (1.5) */
    double resume_s;        /* a ball that starts again this soon after stopping, the way it
                             * was going, was still creeping: no event (0.5) */
    double doubt_sigmas;    /* two first contacts closer than this many timing sigmas get a
                             * confidence below 1 (3) */
} cr_recon_params_t;

void cr_recon_params_defaults(cr_recon_params_t *p);

typedef struct cr_recon cr_recon_t;

int cr_recon_create(const cr_table_t *t, const cr_recon_params_t *p, cr_recon_t **out);

/* Feeds one frame; writes at most max events into out, their count in *n
 * (events not yet certain stay inside until a later push or finish).
 * Returns 0 or a negative cr_status_t (CR_ERR_NOMEM; CR_ERR_INVALID when max
 * is too small to ever hold what one frame can produce: use at least 64). */
int cr_recon_push(cr_recon_t *rc, const cr_ball_frame_t *frame, cr_event_t *out, int max, int *n);

/* End of input: the events still held (a final rest if the balls are
 * still, nothing invented otherwise). Same contract as push. */
int cr_recon_finish(cr_recon_t *rc, cr_event_t *out, int max, int *n);

void cr_recon_destroy(cr_recon_t *rc);

#ifdef __cplusplus
}
#endif

#endif /* CR_RECON_H */
