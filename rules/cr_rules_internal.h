/*
 * cr_rules_internal.h - the judge's state, shared by the general-foul code
 * (cr_rules.c) and the per-game code (cr_games.c). Not a public header.
 */
#ifndef CR_RULES_INTERNAL_H
#define CR_RULES_INTERNAL_H

#include <stdarg.h>

#include "cr_rules.h"

#define CR_MAX_FOULS 16

/* One foul found on a shot (or between shots). */
typedef struct {
    char code[CR_CODE_LEN];
    char rule[CR_CODE_LEN];
    char detail[CR_TEXT_LEN];
    double confidence;
    double t;
    bool emitted; /* already written as a `foul` line */
} cr_foul_t;

/* Everything seen of the shot in progress. */
typedef struct {
    bool active;
    int shot;
    double t_stroke;
    double t_end;
    int shooter;
    bool is_break;
    bool is_push_out;
    cr_bih_t bih; /* cue ball in hand when it was struck */

    bool on_table[CR_NUM_BALLS]; /* at the stroke */
    bool has_pos[CR_NUM_BALLS];
    cr_point_t pos[CR_NUM_BALLS]; /* at the stroke */
    int lowest;                   /* lowest object ball on the table at the stroke, -1 none */

    int call_ball; /* -1 none */
    cr_pocket_t call_pocket;
    bool safety;

    /* cue ball's contacts with other balls, the two earliest */
    int first_ball;
    double t_first;
    double first_conf;
    bool unknown_contact; /* the cue ball touched a ball vision could not identify (id -1) */
    double t_unknown;     /* the earliest such contact */
    int second_ball;
    double t_second;
    bool first_judged; /* the first contact was judged when it arrived */

    unsigned frozen[CR_NUM_BALLS];    /* rails the ball was frozen to at the stroke */
    unsigned left_rail[CR_NUM_BALLS]; /* rails it has been seen away from since */
    double t_rail[CR_NUM_BALLS];      /* when it was last driven to a rail in the shot (-INFINITY:
                                         never; cr_shot_rail_any()) */
    double t_rail_unknown;            /* when a ball vision could not identify last was */

    bool cue_crossed; /* cue ball centre seen at x >= L/4 */
    double t_crossed;

    int n_pocketed;
    int pocketed[CR_NUM_BALLS];
    cr_pocket_t pocket_of[CR_NUM_BALLS];
    double t_pocket[CR_NUM_BALLS];
    int n_off;
    int off[CR_NUM_BALLS];
    double t_off[CR_NUM_BALLS];

    bool has_rest[CR_NUM_BALLS];
    cr_point_t rest[CR_NUM_BALLS];

    int n_fouls;
    cr_foul_t fouls[CR_MAX_FOULS];
    char note[CR_TEXT_LEN]; /* what the ruling should add (benefit of the doubt, ...) */
} cr_shot_t;

/* A lag in progress (RULES.md §4.13). Indexes are players 1 and 2. */
typedef struct {
    bool active;
    int ball[3];
    bool struck[3];
    double t_stroke[3];
    cr_point_t start[3];
    int foot_contacts[3];
    double t_first_foot[3];
    bool side_contact[3];
    bool gone[3]; /* pocketed or off the table */
    bool crossed[3];
    bool fouled[3];
    bool has_rest[3];
    cr_point_t rest[3];
} cr_lag_t;

/* the kinds of foul called early (cr_judge.early) */
enum { CR_EARLY_FIRST, CR_EARLY_SCRATCH, CR_EARLY_COUNT };

struct cr_judge {
    cr_rules_params_t p;
    char err[256];

    int at_table;   /* the player to shoot next: 1 or 2 */
    int breaker;    /* breaker of the current rack */
    bool need_break;
    bool on_table[CR_NUM_BALLS];
    cr_bih_t bih;
    bool bih_optional;       /* the player may accept the table instead (8-ball 3.3) */
    bool push_out_available; /* 9/10-ball: the shot after the break */
    int fouls_in_row[3];
    int groups[3];
    int score[3];
    bool game_over;
    int winner;
    bool placed_since_rest;

    bool has_ready;
    double t_ready;
    double t_last; /* the latest time fed or advanced to (a shot open at the stream's end ends there) */
    bool ext_used[3];
    bool ext_pending[3];

    int call_ball;
    cr_pocket_t call_pocket;
    bool safety;
    bool push_out;
    unsigned frozen_decl[CR_NUM_BALLS];

    cr_shot_t s;
    cr_lag_t lag;

    /* fouls called before their shot's events reached the engine
     * (cr_judge_early_contact(), cr_judge_early_pocket()): the foul line
     * already written. [CR_EARLY_FIRST]: a wrong ball first; [CR_EARLY_SCRATCH]:
     * the cue ball pocketed. */
    struct {
        bool on;        /* called, the shot not judged yet */
        bool started;   /* the shot it belongs to has begun: s.shot */
        bool confirmed; /* the shot's own events gave the same foul */
        int ball;       /* the ball first contacted (a scratch: the cue ball) */
        double t;
        char code[CR_CODE_LEN];
        char detail[CR_TEXT_LEN];
    } early[CR_EARLY_COUNT];
};

/* Helpers shared by the two files. */
int cr_other(int player);
const char *cr_ball_str(int id, char buf[16]);
void cr_appendf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
cr_foul_t *cr_shot_add_foul(cr_judge_t *j, const char *code, double t, double confidence, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
bool cr_shot_has_foul(const cr_shot_t *s, const char *code);
bool cr_shot_pocketed(const cr_shot_t *s, int id);
/* Whether ball id (or any ball, id -1, an unidentified one included) was
 * driven to a rail after the first contact of the shot (8.4), by the
 * events' times, not the order they came in: a contact timed from the
 * paths may come after a cushion it preceded. */
bool cr_shot_rail_after_contact(const cr_shot_t *s, int id);
/* Whether ball id was driven to a rail at any time in the shot (8.4). */
bool cr_shot_rail_any(const cr_shot_t *s, int id);
bool cr_shot_off(const cr_shot_t *s, int id);
int cr_shot_object_pocketed_count(const cr_shot_t *s);
void cr_judge_rack_balls(cr_judge_t *j);
bool cr_game_target_legal(const cr_judge_t *j, int ball, char *why, size_t why_len);
bool cr_game_uses_three_fouls(cr_game_t g);

/* Per-game end of shot: fills the ruling (except the fields set by the
 * caller: kind, player, pocketed, fouls list, fouls_in_row, warning). May add
 * fouls (illegal break, loss of rack). Updates the game state. */
void cr_games_end_shot(cr_judge_t *j, cr_ruling_t *r);

#endif /* CR_RULES_INTERNAL_H */
