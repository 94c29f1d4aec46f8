/*
 * cr_early.h - the cue ball's first contact, seen in the newest frames,
 * before the tracker's look-ahead and the reconstruction have settled it.
 *
 * A wrong ball first (6.2) is certain the moment the cue ball touches the
 * ball, but the reconstruction sees each frame only once the tracker's
 * look-ahead for identities has passed (cr_track.h, delay_frames): some
 * 0.14 s. The watcher here reads the tracker's newest frame
 * (cr_tracker_peek()) and names the first contact of a shot two frames
 * after it happened, and only in the plainest case; everything else it
 * leaves to the reconstruction, whose events stay the record.
 *
 * How (per frame, the balls by track):
 *  - a ball is at its place once it has been seen within rest_mm of one
 *    point for rest_s; it has left it when seen more than moved_mm off it
 *    (moved_mm at least moved_sigma times the detection's sigma).
 *  - armed: every ball seen in the frame is at its place and the cue ball
 *    (id 0, sure) is one of them; the balls held hidden (under an arm) are
 *    remembered where they were.
 *  - the stroke: the armed cue ball leaves its place while every other ball
 *    seen stays at its place, or while one other ball leaves its own in the
 *    same frame (touched before the cue ball was seen moving). Every ball
 *    then on the table must carry a sure id (else nothing is called this
 *    shot).
 *  - the first contact: the first ball to leave its place after the stroke,
 *    alone: seen off its place in two frames, the second farther off, and no
 *    other ball off its place by then; or seen off it once, by over twice
 *    moved_mm, while the cue ball's sighting of that frame (or the next)
 *    lies off its straight way in, carried on, by over twice the slack of
 *    its way (below): the blow that turned it is a second witness (a contact
 *    late in a frame interval shows the ball barely off its place in the
 *    next frame, and its second sighting would come over two frames after
 *    the contact). It is called when it has a sure id
 *    (the same as at the stroke); the cue ball was seen on its way in (its
 *    last two sightings, or its place and one, before the ball left) and
 *    that straight way reaches within `reach` of the ball's place before the
 *    ball left it, without having run through it (reach: 2R plus the error
 *    of the cue ball's measured way, contact_sigma times its sightings'
 *    sigma, contact_mm at least); the ball moved off along the line of
 *    centres (within max_angle_deg: a blow pushes a ball along the line of
 *    centres, friction throws it a few degrees), or along its mirror image
 *    in a cushion it was near enough to reach at the cue ball's speed by
 *    then (a ball near a cushion, driven into it, comes back off it); and
 *    no other ball lay within reach of the cue ball's path on its way
 *    there: neither one held hidden, nor one seen at its place (a ball
 *    frozen to a cushion, struck into it, barely leaves its place; a ball
 *    the cue ball grazed may barely move). The contact's time is where that
 *    straight way reaches 2R from the ball's place (its nearest point when
 *    it passes a little wider).
 *  - a ball that lay so near the cue ball that its way in was not seen
 *    (the cue ball not seen before the ball left, or seen once and its way
 *    from its place not timed to reach it) is called from the places
 *    alone: whatever straight way the cue ball took, it met the ball within
 *    the tangent length T = sqrt((2R + g)^2 - (2R)^2) of its place (g: the
 *    gap between them, plus the slack), so no other ball (at its place, or
 *    held hidden) may lie within 2R + T of the cue ball's place; the ball
 *    left within acos(2R / (2R + g)) + max_angle_deg of the line between
 *    the places (or of its mirror in a cushion within 2R); a cue ball seen
 *    once went from its place on a straight way that passes within 2R of
 *    the ball. Its time: the ball's first sighting off its place, less
 *    what its way off took at the speed of its next step (midway between
 *    the cue ball's last frame at rest and that sighting when that falls
 *    outside them).
 *  - after a call, or once a shot's first contact cannot be called, the
 *    watcher waits until it is armed again.
 *
 * And a ball dropped into a pocket (cr_early_drops()), by the rule the
 * reconstruction uses, but for its wait: a surely named ball the tracker
 * has GONE (it stopped being seen running into a pocket mouth), and (with
 * vanish_s, none by default: the reconstruction waits 50 ms too, which at
 * 60 fps is three frames)
 *  - last seen past a mouth line it crossed in clear of the jaw points (its
 *    centre over the pocket), not resting there: unseen for one frame. Its
 *    time is its last sighting;
 *  - else unseen for two frames, and for 0.15 s at most (a straight course
 *    followed longer says nothing of a slow ball lost in a corner's
 *    shadow), last seen within a mouth's width and R of the pocket point,
 *    whose straight course from its last two sightings has passed that
 *    mouth's line by now, by R, without leaving the cushions' contact lines
 *    outside the mouth, in clear of the jaw points. Its time is where the
 *    course crossed the mouth line.
 * A ball seen again may drop again (a call the shot's events do not
 * confirm is withdrawn after the ruling).
 *
 * Thread-safety: one watcher per thread. No allocation after create.
 */
#ifndef CR_EARLY_H
#define CR_EARLY_H

#include <stdint.h>

#include "cr_vision.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double rest_s;        /* seen in one place this long: at rest there (0.3) */
    double rest_mm;       /* ... within this of its mean (1.5) */
    double moved_mm;      /* seen farther than this from its place: it left it (2.0) */
    double moved_sigma;   /* ... and farther than this many detection sigmas (5) */
    double contact_mm;    /* slack on 2R for the cue ball's way to reach a ball (2.0), and ... */
    double contact_sigma; /* ... at least this many sigmas of its sightings (3) */
    double max_angle_deg; /* a struck ball's way off the line of centres (30) */
    double max_shot_s;    /* a stroke with no contact called this long after: given up (10) */
    double vanish_s;      /* a ball gone this long (and its frames, above) into a pocket dropped (0) */
} cr_early_params_t;

void cr_early_params_defaults(cr_early_params_t *p);

/* One first contact, called. */
typedef struct {
    double t_stroke; /* the last frame the cue ball was seen at its place */
    double t;        /* the contact: where the cue ball's path reached 2R from the ball */
    int ball;        /* the object ball touched (1..15) */
    double x, y;     /* the contact point, table mm */
    uint32_t ids;    /* bit i: ball i was on the table at the stroke (seen or held hidden) */
    int n_balls;     /* and where: the places of those balls */
    int ball_id[CR_NUM_BALLS];
    double ball_x[CR_NUM_BALLS], ball_y[CR_NUM_BALLS];
} cr_early_contact_t;

/* One ball dropped into a pocket, called. */
typedef struct {
    double t; /* when its course crossed the mouth line */
    int ball;
    cr_pocket_t pocket;
} cr_early_drop_t;

typedef struct cr_early cr_early_t;

/* t is copied (ball radius, pockets). p may be NULL for the defaults. Returns 0,
 * CR_ERR_INVALID or CR_ERR_NOMEM. */
int cr_early_create(const cr_table_t *t, const cr_early_params_t *p, cr_early_t **out);

/* The newest frame (cr_tracker_peek()), frames in order. Returns 1 and
 * fills *out when this frame called a first contact, else 0; a negative
 * cr_status_t on bad arguments. */
int cr_early_push(cr_early_t *e, const cr_ball_frame_t *f, cr_early_contact_t *out);

/* After cr_early_push() of a frame: the balls that frame showed dropped, at
 * most max into out; returns their count. */
int cr_early_drops(const cr_early_t *e, cr_early_drop_t *out, int max);

void cr_early_destroy(cr_early_t *e);

#ifdef __cplusplus
}
#endif

#endif /* CR_EARLY_H */
