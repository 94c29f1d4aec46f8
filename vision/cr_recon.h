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
 * root of |p_a(t) - p_b(t)| = 2R on the incoming paths, then refined from
 * both balls' raw samples: the time at which each ball's sampled path,
 * continuous there and changing its velocity, puts the centres 2R apart
 * fits best; the first estimate stands while the samples allow it within
 * two standard errors, and no refinement is tried across a rack, another
 * contact of either ball or a stroke), a cushion when the
 * path reached R from a nose line or a jaw, else a stroke (the cue ball) or
 * a disturbed ball (a cue ball that sped up mid-shot is a new stroke only
 * when it was close to stopping and no ball came within reach). A ball that
 * vanishes on its way into a pocket mouth (unseen for two frames and 50 ms,
 * its path past the mouth line by then) is pocketed; over a cushion, off
 * the table; one near a pocket whose path has not reached the mouth is
 * lost, and its course decides (below). One at rest past the line between a pocket's jaw points (hung
 * in the jaws) and then unseen for 0.3 s (the tracker holds it hidden
 * where it was) dropped (RULES.md G7): pocketed when last seen. One lost while rolling and never seen again is pocketed, with
 * confidence below 1, when its course (straight on, slowing as measured;
 * from the line through its raw sightings when a wavering fit has split its
 * path into pieces of a few samples) goes through a mouth before any
 * cushion or resting ball, turned by three standard errors of its
 * direction either way too; decided once the other balls have stopped (a
 * ball that came back out of the jaws is found again meanwhile). One struck at rest (a
 * ball kinked against it) and never seen to move, whose track then ends
 * (a ball of the cloth's colour), left along the line of centres at the
 * striker's speed along it: of its courses within three standard errors
 * of that direction (normal weights), a pocket that gets over half the
 * weight is where it went when it has not been seen by the time the others
 * rest, a cushion that does was reached; both with confidence 0.6; not
 * when another track was seen where it rested since (the struck ball under
 * a new track). A ball that starts with nothing seen near it, on such a
 * ball's course from the blow where it could be by then, was struck by it
 * (a collision at confidence 0.6, no touched ball). A stroke's time is its
 * cue ball's path extrapolated back to its rest position; a ball frozen to
 * the cue ball (centres within 2R + contact_tol) that starts up to
 * max(3 frames, 0.1 s) before the cue ball's onset or a frame and a half
 * after, with no contact from a ball that was moving (one with a resting
 * ball it drove on, a chain, does not count), was struck through the
 * contact: the stroke is at the earlier onset and the collision with it at
 * the stroke (struck into it, the cue ball gives nearly all its speed away
 * and goes on only as its spin takes the cloth, so its own onset is
 * measured late). A ball that rested at least resume_s and started that
 * shortly before the stroke (through such a chain, or touched) is not
 * listed as still moving at the stroke.
 *
 * A ball never starts moving by itself during a shot. An onset (or a kink
 * that speeds a ball up) with no contact at its estimated time is traced
 * back up to cause_window_s (a slow ball is seen to move late): any ball
 * whose path came within 2R of it hit it, at the first time the distance
 * reached 2R; a ball resting against a chain of touching resting balls one
 * of which was hit (a rack, a frozen pair) was hit through them. Between
 * shots nothing is struck: a start such a cause would explain is no event
 * (the other ball wavered or was moved by hand, and is the one judged).
 * Only a start with no possible cause is `disturbed`; a slow start moments
 * after a ball seemed to stop is its creep, no event.
 * A resting ball starts when a sample leaves its rest by onset_k sigmas:
 * the sample's own, or, after 30 samples at that rest, the scatter seen
 * there when it is 30 % larger (the fits of a ball of the cloth's colour
 * under the cue waver by more than they claim).
 * A ball that jumps more than R in a frame and stays put was put there by
 * hand (its rest is the sigma-weighted mean of its samples there).
 *
 * Cushions, beyond the kinks: the normal velocity reverses only at distance
 * R from the cushion, so a ball whose distance to it came down to R (its
 * nearest sample may lie up to a frame's travel beyond: at 30 fps a turn
 * right after a collision is seen 5-17 mm off) and clearly rose again
 * touched it (shallow and slow contacts, a turn hidden in a kink); the time is
 * where a V (the paths before and after, as distance against time) fitted
 * to the samples meets R (samples from where the ball's motion into the
 * cushion began: not the path before a collision just before it), and the
 * V must be significant on both sides (a
 * ball rolling along a cushion in noise is no contact). "The cushion" is
 * the piece a ball can touch (cr_table_cushion_piece): the nose line along
 * the rail, a jaw's facing or the jaw point itself in a pocket mouth (WPA
 * cut angles); the distance is measured to the line of the piece nearest
 * the ball at its turn, so that a ball rolling past a jaw point makes no V,
 * and the ball, carried on from its last sample to the fitted time, must
 * be within reach of that piece there; a turn about a jaw point must also
 * change the ball's velocity, away from the point. A ball struck into
 * a cushion less than R away, faster than the cloth can stop it over the
 * gap, or seen leaving it, touched it; when frames after the blow saw it
 * on its way in, the contact is no earlier than the last of them (and is
 * the V's time once the ball has turned). Two moving balls whose distance
 * turns at 2R (a V with its free vertex at 2R, both sides significant)
 * touched: a glancing contact too slight for a kink.
 *
 * Confidence: collisions inside frozen clusters (a rack) and first contacts
 * that cannot be ordered from the trajectories (closer than doubt_sigmas
 * timing sigmas, a second cue-ball contact found after the first went out
 * yet as early, or with a ball the cue ball passed within reach of that has
 * not moved yet) get a confidence below 1, so that the rules engine defers
 * (and gives the shooter the benefit of the doubt) rather than guess.
 *
 * Double hit (RULES 6.7, docs/EVENTS.md `double_hit`): when the cue ball
 * rested within half a ball of the object ball it hits first, a single
 * impact leaves it at most 5 % of its speed along the line of centres plus
 * what cloth friction (accel_max) adds; a cue ball seen going on faster
 * than that (3 sigma) was pushed again by the tip: a `double_hit` event
 * (ball: the object ball, t: the contact) with a confidence in [0.5, 0.9],
 * never 1 (a 1 ms tip contact is not seen at video rates).
 *
 * Latency: an object ball hit during a shot is taken to have started at
 * frame a when the lookahead frame is clearly away from its rest and frame
 * a already 3 sigma that way (a contact late in the frame interval).
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
                             * is reported frozen to it (0.5). WPA 8.4 takes a ball as not
                             * frozen unless declared, and a frozen mark stops its contacts
                             * with that cushion from counting as "driven to" it; so only a
                             * ball that is surely touching (well under typical calibration
                             * error) is marked, the rest is left to the referee's input */
    double resume_s;        /* a ball that starts again this soon after stopping, slowly
                             * (under 200 mm/s), the way it was going or with no cause found,
                             * was still creeping: no event (no stroke for a cue ball, in its
                             * own shot or just after the rest its seeming stop closed; no
                             * disturbed ball) (0.5) */
    double doubt_sigmas;    /* two first contacts closer than this many timing sigmas get a
                             * confidence below 1 (3) */
    double cause_window_s;  /* a ball never starts moving by itself during a shot: how far
                             * before a ball's onset (seen late when it creeps) the search
                             * for the ball that hit it looks (0.5) */
    double name_wait_s;     /* an event about a ball the tracker has not identified yet is
                             * held (with every later event, to keep the order) until the
                             * ball has a number or this long has passed; then it names
                             * the ball -1 (3.0; 0: never held) */
    double merge_hold_s;    /* a track first seen without a number that the tracker has named
                             * ball n for this long, while ball n is off the table (pocketed,
                             * lifted, never seen), becomes ball n: e.g. the cue ball put
                             * back in hand after a scratch (0.5) */
    double disturbed_min_mm; /* a ball that starts from rest with no cause is reported
                             * disturbed when, at the next stroke or rest (or the end of
                             * the input), it rests at least this far from where it
                             * was (and more than 3 sigmas of its samples at both rests: a
                             * ball the detector measures poorly is not called touched for
                             * a shift within its own uncertainty), or leaves the table
                             * (10); a ball seen to shift and come back is the picture
                             * wavering (a hand over it), not a touch; nor is a ball that
                             * starts in a shot while another ball is seen within reach
                             * (two radii plus the wider of 20 mm and 3 sigmas): that is
                             * a contact the paths could not time */
    double unseen_wait_s;   /* an object ball that vanished during a shot with nothing seen
                             * of where it went (a ball of the cloth's colour struck
                             * unseen, never seen to move off) may lie anywhere: once the
                             * others have settled, the shot's rest waits this long for it
                             * to be found on the bed (the caller's sweep of the bed for
                             * balls no region shows must take less); not found, it left
                             * the bed: pocketed, confidence 0.5, in the pocket nearest
                             * where it was last seen, which is a guess. A new stroke ends
                             * the wait at once. 0: no wait, no such pocket (0: a caller
                             * with no sweep) */
    bool stay_down;         /* a game is judged: a pocketed object ball (or one off the
                             * table) comes back only where the rules put balls back (the
                             * long string, the rack behind the foot spot) or where it
                             * was last seen (it was not pocketed after all); named
                             * anywhere else, it is not that ball (a hand or the cue's
                             * butt the tracker named for it). false: practice, balls
                             * set up anywhere (true) */
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
 * still, nothing invented otherwise). Same contract as push; call it again
 * until *n is 0 when out may be smaller than what is held. */
int cr_recon_finish(cr_recon_t *rc, cr_event_t *out, int max, int *n);

/* Whether the ball the tracker reports as o is one this reconstruction
 * has reported pocketed or off the table (its pocket or off_table event
 * made) and has not seen come back: the tracker holds a ball where it
 * vanished until it is found again, which a picture of the table must not
 * show. A ball the tracker sees in this frame is never down here (a ball
 * put back, or one that was not pocketed after all, is on the table). */
bool cr_recon_is_down(const cr_recon_t *rc, const cr_ball_obs_t *o);

void cr_recon_destroy(cr_recon_t *rc);

#ifdef __cplusplus
}
#endif

#endif /* CR_RECON_H */
