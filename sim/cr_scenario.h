/*
 * cr_scenario.h - a simulated match as the scenario file describes it
 * (docs/SCENARIO.md): the table, cloth, light and camera, the balls, and the
 * shots with the scripted things a real match has (a ball touched, the
 * stroke taken while a ball still rolls, the cue ball placed by hand, the cue
 * and arm over the table, a ball hanging in a pocket that drops later).
 *
 * Plain values, fixed capacities, no allocation. Loading uses jansson and is
 * strict: an unknown key is an error, so a typo never silently changes a shot.
 */
#ifndef CR_SCENARIO_H
#define CR_SCENARIO_H

#include <stddef.h>
#include <stdint.h>

#include "cr_table.h"
#include "cr_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CR_SCN_MAX_SHOTS 512
#define CR_SCN_MAX_SCRIPT 8

typedef enum {
    CR_AIM_ANGLE = 0, /* heading in degrees, 0 = toward the foot (+x), 90 = toward the right (+y) */
    CR_AIM_BALL       /* at a ball: a full hit, or a cut (ghost-ball offset) */
} cr_aim_kind_t;

/* Something scripted during or after a shot. */
typedef enum {
    CR_SCRIPT_TOUCH = 0, /* at t after the stroke, ball gets velocity (vx, vy): touched by a hand or the cue */
    CR_SCRIPT_DROP,      /* at t after the stroke, ball (hanging in a pocket mouth) drops into the nearest pocket */
    CR_SCRIPT_LEAVE      /* ball leaves the table over the rail at its nth cushion contact of the shot */
} cr_script_kind_t;

typedef struct {
    cr_script_kind_t kind;
    double t_s;     /* seconds after the stroke */
    int ball;
    double vx, vy;  /* mm/s, for a touch */
    int nth;        /* for a leave: which cushion contact (1 = the first) */
} cr_scn_script_t;

typedef struct {
    double wait_s;     /* from the previous shot's rest to this stroke; negative: the stroke
                        * comes that long before the previous shot's balls stop (6.9) */
    bool has_place;    /* the cue ball is placed by hand first (ball in hand) */
    cr_point_t place;  /* mm */
    cr_aim_kind_t aim;
    double aim_deg;
    int aim_ball;
    double cut;        /* -1..1: 0 full ball, +-0.5 half ball (to the right / left of the
                        * line of centres as seen from the cue ball) */
    double speed_mm_s; /* cue ball speed just after the stroke, up to 12000 */
    double tip_side;   /* tip offset as a fraction of R: + right english */
    double tip_height; /* + follow, - draw */
    int call_ball;     /* -1: no call */
    cr_pocket_t call_pocket;
    bool safety;
    bool push_out;
    bool show_cue;     /* render the cue stick and arm before and at the stroke (default true) */
    int n_script;
    cr_scn_script_t script[CR_SCN_MAX_SCRIPT];
} cr_scn_shot_t;

typedef struct {
    double tilt_deg;      /* camera tilt from straight down */
    double yaw_deg;       /* rotation about the vertical */
    double offset_x_mm;   /* camera centre off the table centre */
    double offset_y_mm;
    double height_mm;     /* above the cloth; 0 = automatic */
    double k1, k2;        /* radial distortion */
} cr_scn_camera_t;

typedef struct {
    cr_table_t table;
    cr_game_t game;
    char rules[16];
    double fps;
    int width, height;
    uint64_t seed;
    char cloth[16];       /* "blue", "green", "red", "tan", "grey" */
    double light;         /* overall brightness factor (1.0) */
    double noise;         /* sensor noise sigma in 8-bit levels */
    int blur_subframes;   /* motion blur sub-frames per frame (1 = none) */
    double shutter;       /* exposure as a fraction of the frame period */
    cr_scn_camera_t camera;
    int n_balls;
    cr_ball_pos_t balls[CR_NUM_BALLS];
    int n_shots;
    cr_scn_shot_t shots[CR_SCN_MAX_SHOTS];
} cr_scenario_t;

/* Defaults: 9 ft table, game none, wpa2008, 60 fps, 1920x1080, seed 1, blue
 * cloth, a camera 2.9 m over the table centre with no tilt, no shots. */
void cr_scenario_defaults(cr_scenario_t *s);

/* Loads a scenario file: the defaults, then what the file says. Returns 0, CR_ERR_IO (cannot
 * read), CR_ERR_PARSE (with "what is wrong" in err: invalid JSON with its
 * line, an unknown key, a value out of range). */
int cr_scenario_load(const char *path, cr_scenario_t *s, char *err, size_t err_len);

/* The same from a string (tests). */
int cr_scenario_parse(const char *text, cr_scenario_t *s, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* CR_SCENARIO_H */
