/*
 * cr_simulate.h - plays a scenario on the physics simulation, judges it with
 * the rules engine and renders it as the scenario's camera films it. This is
 * what `cueref sim` runs; the caller decides where the truth lines and the
 * frames go (files, tests).
 *
 * Truth (SPEC §4): session, input (calls, push-outs), placed, stroke,
 * collision, cushion, pocket, off_table, disturbed, rest, and the foul and
 * ruling lines the rules engine derives from them for the scenario's game.
 * Times are media time: frame k of the video is at t = k / fps.
 *
 * Not thread-safe per call; independent calls may run in parallel.
 */
#ifndef CR_SIMULATE_H
#define CR_SIMULATE_H

#include <stdbool.h>
#include <stdint.h>

#include "cr_camera.h"
#include "cr_event.h"
#include "cr_physics.h"
#include "cr_scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One ball in one frame (positions.csv). */
typedef struct {
    bool in_play;  /* placed on the table at some point and listed in the CSV */
    bool on_table; /* on the playing surface at the frame's time */
    bool visible;  /* on the table and at least half of its disc seen (not under the cue or an arm) */
    double x, y;   /* mm, at the frame's time (the middle of the exposure) */
} cr_frame_ball_t;

typedef struct {
    /* Each truth line, in stream order. Return non-zero to abort. */
    int (*on_event)(void *user, const cr_event_t *ev);
    /* Each frame: rgb is width x height RGB (stride bytes a row), NULL when
     * rendering is off; balls[id]. Return non-zero to abort. */
    int (*on_frame)(void *user, int index, double t, const uint8_t *rgb, int stride,
                    const cr_frame_ball_t balls[CR_NUM_BALLS]);
    void *user;
} cr_simulate_sink_t;

/* Supplies the next shot. index counts shots from 0; state is every ball at
 * the current time (all at rest unless the previous shot's stroke came
 * early); last is the rules engine's ruling on the previous shot (NULL before
 * the first shot or for game none without a ruling yet). Returns 1 when *shot
 * was filled, 0 when there are no more shots, a negative status to abort. */
typedef int (*cr_shot_source_fn)(void *user, int index, const cr_sim_ball_t state[CR_NUM_BALLS],
                                 const cr_ruling_t *last, cr_scn_shot_t *shot);

/* A source that plays scn->shots in order (user is the scenario). */
int cr_simulate_scenario_shots(void *user, int index, const cr_sim_ball_t state[CR_NUM_BALLS],
                               const cr_ruling_t *last, cr_scn_shot_t *shot);

typedef struct {
    bool render;          /* render frames (else on_frame gets rgb NULL) */
    double lead_in_s;     /* still frames before the first stroke's cue appears (1.0) */
    double tail_s;        /* frames after the last rest (1.0) */
    int max_shots;        /* stop after this many shots (CR_SCN_MAX_SHOTS) */
} cr_simulate_opts_t;

void cr_simulate_opts_defaults(cr_simulate_opts_t *o);

/* The camera the scenario describes (calib.json's model). */
int cr_simulate_camera(const cr_scenario_t *scn, cr_camera_t *cam);

/* Plays, judges and renders. Returns 0, or a negative status with a message
 * in err: CR_ERR_INVALID (a shot that cannot be played: a placement on
 * another ball, an aim at a ball not on the table...), CR_ERR_FULL (the
 * simulation's capacity), a sink's abort (CR_ERR_IO). */
int cr_simulate_run(const cr_scenario_t *scn, const cr_simulate_opts_t *opts, cr_shot_source_fn source,
                    void *source_user, const cr_simulate_sink_t *sink, char *err, size_t err_len);

/* Motion-blur sub-frames for a frame in which the fastest ball travels
 * travel_mm over the exposure: base (the scenario's), or more, up to
 * CR_RENDER_MAX_SUBFRAMES, so that it moves at most a third of a radius
 * between two. A camera integrates light over the whole exposure: a fast
 * ball is one continuous smear, not a row of copies of itself. */
int cr_simulate_blur_subframes(double travel_mm, double ball_radius_mm, int base);

#ifdef __cplusplus
}
#endif

#endif /* CR_SIMULATE_H */
