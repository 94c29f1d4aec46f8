/*
 * cr_physics.h - event-based pool ball physics with exact event times.
 *
 * The standard event-based model (Leckie & Greenspan, "An event-based pool
 * physics simulator", ACG 2005; the same model as pooltool): between events
 * every ball moves with constant acceleration, so its position is a
 * polynomial of degree <= 2 in t, and every event time is the root of a
 * polynomial of degree <= 4, found by root isolation (not by time steps).
 *
 * Units: millimetres, seconds, mm/s, rad/s; table coordinates of SPEC §1
 * (cushion nose lines at x = 0, x = L, y = 0, y = W). Angular velocity is a
 * right-handed 3-D vector in table axes (x, y on the cloth, z up): a ball
 * rolling toward +x spins with wy = +v/R; right-hand side spin seen from
 * above (counter-clockwise) is wz > 0.
 *
 * Motion (per ball):
 *   sliding   the cloth contact point slips: a = -mu_slide g u/|u| (u the
 *             slip velocity); |u| falls at 7/2 mu_slide g until the ball
 *             rolls.
 *   rolling   no slip: a = -mu_roll g v/|v| until the ball stops (a ball
 *             left rolling slower than 0.5 mm/s by an impulse stops at
 *             once: it had under 0.0013 mm to go).
 *   spinning  in place, about the vertical only.
 *   stationary.
 *   Vertical spin wz decays at 5 mu_spin g / (2R) in every state
 *   (Leckie & Greenspan's spinning friction; mu_spin 0.044 -> 37.8 rad/s^2).
 *
 * Events:
 *   ball-ball  |p_i(t) - p_j(t)| = 2R (quartic); impulse with restitution
 *              along the line of centres and Coulomb friction between the
 *              balls at the contact point, limited by the impulse that stops
 *              the slip there (Alciatore's collision-induced throw model,
 *              TP A.14, with his slip-speed-dependent friction fit).
 *   cushion    the ball centre reaches distance R from a cushion nose
 *              segment (quadratic) or from a jaw point (quartic). Cushions
 *              are the straight nose segments of cr_table_cushion_segments()
 *              plus one jaw facing per jaw point, turned into the pocket by
 *              the pocket's cut angle (RULES.md §5.4: corner 142 deg, side
 *              104 deg). Rebound: one impulse at the nose contact point,
 *              which is 63.5 % of the ball diameter above the cloth (Han
 *              2005, "Dynamics in carom and three cushion billiards"): the
 *              contact normal is tilted 15.7 deg below the horizontal,
 *              restitution e along it (default 0.85, as pooltool; see
 *              cushion_e0), Coulomb friction at the contact limited by the
 *              sticking impulse; the vertical part of the impulse goes into
 *              the slate (no jumps). A slow ball without spin leaves at its
 *              incidence angle; topspin widens the angle, side spin throws.
 *   pocket     the ball centre crosses a line parallel to the pocket mouth,
 *              capture_depth behind it, between the jaws: the ball drops.
 *              A ball that reaches a jaw point or facing first rebounds
 *              from it (a rattle) and may come back out.
 *   off table  a ball whose normal speed into a cushion exceeds
 *              off_table_speed_mm_s (default: never), or a ball scripted
 *              with cr_sim_leave_at_contact(), leaves the table at that
 *              cushion contact: a cushion event, then off_table, same t.
 *   transitions  sliding -> rolling, rolling -> spinning/stationary,
 *              spinning -> stationary, at their analytic times.
 *
 * Pushes: a ball driven into another ball or a cushion by its own cloth
 * friction while still touching it (a follow ball chasing the ball it just
 * hit, a spinning ball against a cushion, balls left touching in a rack)
 * would, with restitution below 1, rebound ever less and ever more often.
 * Such contacts are "pushes": they get their impulse when the overlap
 * reaches 0.003 mm, the cloth slip of the balls involved is taken up at once
 * (the rolling state the cloth would give), and the balls are set touching
 * again. A push is not reported as an event; a contact is reported when the
 * balls (or ball and cushion) were apart by more than 0.5 mm since their
 * last contact, or when touching balls close faster than 5 mm/s. A ball
 * pushed 16 times within 0.1 ms of each other is wedged and stops. So: balls
 * may overlap each other or a cushion by up to about 0.005 mm, never more.
 *
 * Time: one global time base per simulation. cr_sim_run() advances it;
 * cr_sim_place(), cr_sim_place_ball(), cr_sim_strike() act at the current
 * time; cr_sim_wait() moves the clock forward while every ball is at rest,
 * so a simulation can hold any number of shots with increasing times.
 * Every state the simulation went through is kept (one record per ball
 * segment), so cr_sim_state_at() answers exactly for any past time.
 *
 * Memory: cr_sim_create() allocates everything; nothing else allocates. A
 * simulation holds at most max_segments motion segments in all (192 bytes
 * each; a placement takes 16, a 15-ball break at 10 m/s 200-300); a call
 * that would need more returns CR_ERR_FULL and leaves a consistent state.
 *
 * Determinism: no randomness and no clocks; the same calls give the same
 * results bit for bit on the same build.
 *
 * Thread-safety: a cr_sim_t is used by one thread at a time; distinct
 * simulations are independent. The const functions may run concurrently
 * with each other.
 */
#ifndef CR_PHYSICS_H
#define CR_PHYSICS_H

#include <stdbool.h>

#include "cr_event.h"
#include "cr_table.h"
#include "cr_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Physical and numerical parameters. Fill with cr_phys_params_defaults(),
 * then change fields. Sources for the defaults are in cr_physics.c. */
typedef struct {
    double ball_mass_kg;     /* 0.17; only scales energies (cr_sim_energy) */
    double gravity_mm_s2;    /* g = 9810 */
    double mu_slide;         /* ball-cloth sliding friction, 0.2 */
    double mu_roll;          /* rolling resistance, 0.01 */
    double mu_spin;          /* spinning friction, 0.044: dwz/dt = 5 mu_spin g / (2R) */
    double ball_restitution; /* ball-ball e along the line of centres, 0.95 */
    /* Ball-ball friction (throw), Alciatore's fit to throw measurements:
     * mu_b = a + b exp(-c v), v the slip speed at the contact in m/s;
     * defaults a = 0.00995, b = 0.108, c = 1.088 (mu_b = 0.06 at 0.6 m/s,
     * 0.03 at 1.5 m/s). b = 0 gives a constant mu_b = a. */
    double ball_friction_a, ball_friction_b, ball_friction_c;
    /* Cushion restitution along the tilted contact normal, e(v) = e0 + e1 v
     * + e2 v^2 with v the normal speed into the cushion in m/s, clamped to
     * [0, e_vmax]; e is then clamped to [0, 1]. Default: constant 0.85
     * (pooltool's e_c with Han's model; it keeps about 72 % of the
     * horizontal normal speed). The fit 0.39 + 0.257 v - 0.044 v^2, e_vmax
     * 2.92, is available but kills slow balls on the cushion (e = 0.46 at
     * 0.3 m/s, far wider than mirror rebounds without spin). */
    double cushion_e0, cushion_e1, cushion_e2, cushion_e_vmax_m_s;
    double cushion_friction;   /* ball-cushion friction, 0.2 (Han 2005) */
    double nose_height_ratio;  /* nose height / ball diameter, 0.635 (RULES.md §5.5) */
    double corner_cut_deg;     /* angle nose line / jaw facing, 142 (RULES.md §5.4) */
    double side_cut_deg;       /* 104 */
    double corner_jaw_mm;      /* length of a corner jaw facing, 60 */
    double side_jaw_mm;        /* length of a side jaw facing, 40 */
    double corner_capture_mm;  /* capture line depth behind a corner mouth, 15 */
    double side_capture_mm;    /* capture line depth behind a side mouth, 5 */
    double off_table_speed_mm_s; /* normal speed into a cushion above which a ball
                                  * leaves the table; INFINITY = never (default) */
    int max_segments;          /* motion segments kept, all balls, 32768 */
} cr_phys_params_t;

void cr_phys_params_defaults(cr_phys_params_t *p);

/* A ball's motion state. */
typedef enum {
    CR_MOTION_ABSENT = 0, /* not on the table: never placed, or removed */
    CR_MOTION_STATIONARY,
    CR_MOTION_SPINNING,   /* in place, about the vertical */
    CR_MOTION_SLIDING,
    CR_MOTION_ROLLING,
    CR_MOTION_POCKETED,   /* dropped into a pocket (not on the table) */
    CR_MOTION_OFF_TABLE,  /* left the table over a rail (not on the table) */
    CR_MOTION_COUNT
} cr_motion_t;

/* "absent", "stationary", ...; "?" when out of range. */
const char *cr_motion_name(cr_motion_t m);

/* One ball at one instant. Pocketed and off-table balls keep the position
 * where they left (the capture point, or the cushion contact) and zero
 * velocity; absent balls have NAN positions. */
typedef struct {
    int id;             /* 0..15 */
    cr_motion_t motion;
    bool on_table;      /* stationary, spinning, sliding or rolling */
    double x, y;        /* centre, mm */
    double vx, vy;      /* mm/s */
    double wx, wy, wz;  /* rad/s */
    cr_pocket_t pocket; /* CR_MOTION_POCKETED: where; CR_POCKET_NONE otherwise */
} cr_sim_ball_t;

/* A change of a ball's motion segment: every event and transition starts a
 * new segment. A ball "stops" at a transition to CR_MOTION_STATIONARY (or to
 * CR_MOTION_SPINNING: it stopped moving across the cloth). */
typedef struct {
    double t;          /* s */
    int ball;          /* 0..15 */
    cr_motion_t from;  /* motion before t */
    cr_motion_t to;    /* motion from t on */
} cr_sim_transition_t;

typedef struct cr_sim cr_sim_t;

/* Creates a simulation on table t (copied) with parameters p (copied; NULL
 * for the defaults). The clock starts at 0 with every ball absent. Returns
 * 0; CR_ERR_INVALID for a NULL t or out, a table with non-positive sizes or
 * radius, or parameters out of their domain (negative friction, restitution
 * outside [0, 1], max_segments < 64); CR_ERR_NOMEM. *out is set only on
 * success. */
int cr_sim_create(const cr_table_t *t, const cr_phys_params_t *p, cr_sim_t **out);

/* Frees everything; accepts NULL. */
void cr_sim_destroy(cr_sim_t *sim);

/* Puts balls[0..n-1] on the table at rest at the current time; every ball
 * not listed becomes absent. Ids 0..15, each at most once; every centre on
 * the bed (at least R from every cushion nose and jaw, in front of every
 * capture line: R <= x <= L - R, R <= y <= W - R, or in a pocket mouth)
 * and no two closer than 2R (touching, "frozen", is fine; 1e-6 mm of
 * slack). Cancels the cr_sim_leave_at_contact() scripts. Returns 0,
 * CR_ERR_INVALID (nothing changed), or CR_ERR_FULL (segment store full). */
int cr_sim_place(cr_sim_t *sim, const cr_ball_pos_t *balls, int n);

/* Moves one ball by hand to (x, y), at rest, at the current time (ball in
 * hand, a spotted ball, a ball put back). Same checks as cr_sim_place()
 * against the other balls on the table. Returns 0, CR_ERR_INVALID or
 * CR_ERR_FULL. */
int cr_sim_place_ball(cr_sim_t *sim, int id, double x_mm, double y_mm);

/* Takes a ball off the table (absent) at the current time. Returns 0,
 * CR_ERR_INVALID for a bad id, CR_ERR_FULL. */
int cr_sim_remove_ball(cr_sim_t *sim, int id);

/* A cue stroke on ball at the current time. speed_mm_s (0 < speed <= 12000)
 * is the ball's speed just after the stroke, heading_rad its direction
 * (0 = +x, pi/2 = +y). a and b are the tip offsets from the centre as
 * fractions of R, each in [-0.6, 0.6]: a > 0 right-hand side spin (as the
 * shooter sees it), b > 0 follow, b < 0 draw. Model: a level cue gives one
 * horizontal impulse m*speed through the tip contact point (Leckie &
 * Greenspan's cue model with the impulse fixed by the resulting speed; no
 * squirt, masse or jump): v = speed * heading, w = r x J / I. b = 0.4 is
 * natural roll. The impulse adds to the ball's current motion. Returns 0;
 * CR_ERR_INVALID for a bad argument or a ball not on the table;
 * CR_ERR_FULL. */
int cr_sim_strike(cr_sim_t *sim, int ball, double speed_mm_s, double heading_rad, double a, double b);

/* A scripted touch: at time t (>= the current time) ball gets velocity
 * (vx, vy) mm/s with its spin unchanged, and moves on under the physics
 * (no collision event is reported). When t is later than the current time
 * every ball must be at rest (cr_sim_wait() semantics); to touch a ball
 * while others move, cr_sim_run() up to t first. Returns 0, CR_ERR_INVALID,
 * CR_ERR_FULL. */
int cr_sim_nudge(cr_sim_t *sim, double t, int ball, double vx_mm_s, double vy_mm_s);

/* Scripts ball to leave the table at its nth cushion contact (n >= 1)
 * counted from now (n = 0 cancels). Returns 0 or CR_ERR_INVALID. */
int cr_sim_leave_at_contact(cr_sim_t *sim, int ball, int nth);

/* Moves the clock to t (>= the current time) while every ball is at rest.
 * Returns 0; CR_ERR_INVALID when t is earlier, or a ball still moves. */
int cr_sim_wait(cr_sim_t *sim, double t);

/* Simulates from the current time until every ball is at rest or t_max,
 * whichever comes first (events at exactly t_max are processed), writing
 * the public events in time order to events[0..cap-1]: CR_EV_COLLISION (a,
 * b, contact point x, y; a is the cue ball when involved, else the ball
 * that moved into the other), CR_EV_CUSHION (ball, rail, ball centre x, y;
 * a jaw reports the rail its side of the pocket belongs to), CR_EV_POCKET
 * (ball, pocket, centre x, y at the crossing), CR_EV_OFF_TABLE (ball, x, y).
 * Pushes (see above) are not reported. shot is -1 (the caller sets it).
 * *n_events gets the count. The clock
 * ends at the rest time, or t_max. Returns 0; CR_ERR_INVALID (t_max NaN or
 * earlier than now, NULL pointers with cap > 0); CR_ERR_FULL when events
 * or the segment store are full: the simulation stops just before the event
 * that did not fit, and a later call continues from there. */
int cr_sim_run(cr_sim_t *sim, double t_max, cr_event_t *events, int cap, int *n_events);

/* The current time of the simulation clock, s. */
double cr_sim_time(const cr_sim_t *sim);

/* When every ball is at rest now (stationary, or off the table): writes the
 * time at which the last of them came to rest or left the table and
 * returns 0. CR_ERR_INVALID while a ball still moves or spins. */
int cr_sim_time_all_at_rest(const cr_sim_t *sim, double *t);

/* Every ball's state at time t, for 0 <= t <= the current time, exactly
 * from the stored segments (when several changes happen at the same t, the
 * state after all of them); later times are allowed while every ball is at
 * rest. out[i] is ball i. Returns 0 or CR_ERR_INVALID. */
int cr_sim_state_at(const cr_sim_t *sim, double t, cr_sim_ball_t out[CR_NUM_BALLS]);

/* Kinetic energy (translation + rotation) of the balls on the table at time
 * t, joules; NAN when t is out of range as for cr_sim_state_at(). */
double cr_sim_energy(const cr_sim_t *sim, double t);

/* The motion changes with t0 <= t <= t1 in time order: every new motion
 * segment (placements, strokes, touches, events, pushes and transitions)
 * except those that leave a resting ball at rest. Writes up to cap, sets
 * *n to the count written. Returns 0, CR_ERR_FULL when more were left out,
 * CR_ERR_INVALID. */
int cr_sim_transitions(const cr_sim_t *sim, double t0, double t1, cr_sim_transition_t *out, int cap, int *n);

/* Real roots of c[0] + c[1] x + ... + c[deg] x^deg (deg <= 4) in [lo, hi],
 * ascending, by isolation between the roots of the derivative and
 * safeguarded Newton (accurate to a few ulps for simple roots; a double
 * root is reported once, or not at all when rounding lifts the polynomial
 * off zero there). Writes up to cap roots and returns how many it wrote, or
 * CR_ERR_INVALID. Pure, thread-safe. */
int cr_phys_poly_roots(const double *c, int deg, double lo, double hi, double *roots, int cap);

#ifdef __cplusplus
}
#endif

#endif /* CR_PHYSICS_H */
