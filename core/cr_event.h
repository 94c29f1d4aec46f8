/*
 * cr_event.h - one line of the event stream (SPEC §3 and docs/EVENTS.md) as a
 * plain C value. Fixed size, no pointers: events can be copied, kept in
 * arrays and produced without allocation.
 *
 * Fields that a line does not carry keep the values of cr_event_init():
 * numbers NAN (times, positions) or -1 (ids, shot, player), enums their NONE
 * value, strings empty, the ruling zeroed (ball_in_hand CR_BIH_NONE); and
 * confidence 1, version 1, and for a stroke ball 0 (the cue ball).
 */
#ifndef CR_EVENT_H
#define CR_EVENT_H

#include <stdbool.h>

#include "cr_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CR_EV_SESSION = 0,
    CR_EV_STROKE,
    CR_EV_COLLISION,
    CR_EV_CUSHION,
    CR_EV_POCKET,
    CR_EV_OFF_TABLE,
    CR_EV_DISTURBED,
    CR_EV_PLACED,
    CR_EV_REST,
    CR_EV_BALLS,
    CR_EV_FOUL,
    CR_EV_RULING,
    CR_EV_INPUT,
    CR_EV_DOUBLE_HIT, /* extension: vision suspects a double hit (6.7) */
    CR_EV_PUSH_SHOT,  /* extension: vision suspects a push shot (6.8) */
    CR_EV_WARNING,    /* extension: the analysis itself is in doubt (code, detail), e.g. the camera moved */
    CR_EV_TYPE_COUNT
} cr_event_type_t;

/* Operator input kinds (SPEC §3 "input", docs/EVENTS.md). */
typedef enum {
    CR_INPUT_NONE = -1,
    CR_INPUT_CALL = 0,  /* ball, pocket: the called shot */
    CR_INPUT_SAFETY,    /* the shooter calls safety */
    CR_INPUT_PUSH_OUT,  /* the shooter declares a push-out (9/10-ball) */
    CR_INPUT_PLAYER,    /* player: who is at the table now (an option taken) */
    CR_INPUT_RACK,      /* a new rack is racked; player = the breaker (optional) */
    CR_INPUT_LAG,       /* a lag follows: lag_ball[0] for player 1, [1] for player 2 */
    CR_INPUT_FROZEN,    /* ball, rail: the referee declares a ball frozen to a rail */
    CR_INPUT_CHOICE,    /* choice: an option taken after a ruling (see EVENTS.md) */
    CR_INPUT_EXTENSION, /* player takes a shot-clock extension */
    CR_INPUT_KIND_COUNT
} cr_input_kind_t;

/* What moved a `disturbed` ball, where known (extension field "cause"). */
typedef enum {
    CR_CAUSE_UNKNOWN = 0, /* default: judged as a touch (6.6) */
    CR_CAUSE_TOUCH,       /* touched by a player, cue, chalk... (6.6) */
    CR_CAUSE_SETTLE,      /* settled by itself (1.7): no foul */
    CR_CAUSE_OUTSIDE      /* outside interference (1.9): no foul */
} cr_cause_t;

/* Ball in hand (SPEC §3 ruling). */
typedef enum {
    CR_BIH_NONE = 0,   /* null */
    CR_BIH_ANYWHERE,   /* "anywhere" */
    CR_BIH_BEHIND_HEAD /* "behind_head_string" */
} cr_bih_t;

/* What a ruling line rules on (extension field "kind"). */
typedef enum {
    CR_RULING_SHOT = 0, /* a shot (default; field omitted when writing) */
    CR_RULING_LAG,      /* the lag: winner, or replay */
    CR_RULING_BETWEEN   /* a foul between shots (touched ball, slow play) */
} cr_ruling_kind_t;

#define CR_EVENT_MAX_BALLS 32
#define CR_EVENT_MAX_CODES 16
#define CR_EVENT_MAX_OPTIONS 6
#define CR_CODE_LEN 40
#define CR_TEXT_LEN 512

/* One ball in a stroke, rest or balls list. */
typedef struct {
    int id;
    double x, y;           /* mm */
    double vx, vy;         /* mm/s ("balls" lines only; NAN elsewhere) */
    unsigned frozen_rails; /* bit (1 << cr_rail_t): declared frozen to that cushion at the stroke */
    bool hidden;           /* "balls" lines: not seen in this frame; where it was last seen (at
                            * rest) or where its course takes it (rolling) */
} cr_ball_state_t;

/* The engine's decision for a shot (SPEC §3 ruling). */
typedef struct {
    cr_ruling_kind_t kind;
    bool legal;
    int n_fouls;
    char fouls[CR_EVENT_MAX_CODES][CR_CODE_LEN];
    int player;      /* who shot: 1 or 2 */
    int next_player; /* who is at the table next */
    cr_bih_t ball_in_hand;
    int n_spot;
    cr_ball_pos_t spot[CR_NUM_BALLS]; /* balls to be spotted and where */
    int n_pocketed;
    int pocketed[CR_NUM_BALLS];
    bool game_over;
    int winner;   /* 0 none, 1 or 2 */
    bool warning; /* next_player comes to the table on two fouls (6.14) */
    /* extensions */
    bool break_shot;  /* the shot was a break */
    bool push_out;    /* the shot was a declared push-out */
    bool rerack;      /* the balls are to be re-racked before the next shot */
    int n_options;
    char options[CR_EVENT_MAX_OPTIONS][CR_CODE_LEN]; /* choices open to next_player */
    bool has_score;   /* score is meaningful (14.1): written only when set */
    int score[3];     /* 14.1: score[1], score[2] after the shot; 0 otherwise */
    int groups[3];    /* 8-ball: groups[p] 0 open, 1 solids, 2 stripes */
    int fouls_in_row[3]; /* consecutive fouls per player after the shot */
    int lag_winner;   /* CR_RULING_LAG: 1 or 2, 0 when the lag is replayed */
    char detail[CR_TEXT_LEN]; /* a sentence for a referee */
} cr_ruling_t;

typedef struct {
    cr_event_type_t type;
    double t;  /* seconds; NAN when absent (only the session line) */
    int shot;  /* 0-based stroke index; -1 when absent or null */

    /* ball: cushion, pocket, off_table, disturbed, placed, double_hit,
     * push_shot; for stroke the struck ball (0 unless a lag). */
    int ball;
    int a, b;         /* collision */
    double x, y;      /* collision contact point; cushion/disturbed/placed ball centre */
    cr_rail_t rail;   /* cushion */
    cr_pocket_t pocket; /* pocket; input call */
    double confidence; /* collision, foul, double_hit, push_shot: 0..1; 1 when absent */
    cr_cause_t cause; /* disturbed */
    int player;       /* stroke (optional: who shot), input */

    int n_balls; /* stroke, rest, balls */
    cr_ball_state_t balls[CR_EVENT_MAX_BALLS];
    int n_moving; /* stroke */
    int moving[CR_EVENT_MAX_BALLS];

    /* input */
    cr_input_kind_t input_kind;
    int lag_ball[2]; /* CR_INPUT_LAG: ball lagged by player 1 and player 2 */
    char choice[CR_CODE_LEN];

    /* session */
    int version;
    char source[CR_TEXT_LEN];
    double fps;
    int width, height;
    double table_length_mm, table_width_mm;
    cr_game_t game;
    char rules[CR_CODE_LEN];

    /* foul, warning */
    bool early; /* foul: called from the newest frames (at the contact, at the drop), before
                   its shot's own events were judged (docs/EVENTS.md); false when absent */
    char code[CR_CODE_LEN];
    char rule[CR_CODE_LEN];
    char detail[CR_TEXT_LEN];

    /* ruling */
    cr_ruling_t ruling;
} cr_event_t;

/* Resets *ev to an empty event of the given type (see the header comment). */
void cr_event_init(cr_event_t *ev, cr_event_type_t type);

/* The stream's name of a type ("stroke", ...), "?" when out of range. */
const char *cr_event_type_name(cr_event_type_t type);
/* Returns the type, or -1 for an unknown name. */
int cr_event_type_parse(const char *name);

const char *cr_input_kind_name(cr_input_kind_t kind);
cr_input_kind_t cr_input_kind_parse(const char *name);
const char *cr_bih_name(cr_bih_t bih); /* NULL for CR_BIH_NONE */
const char *cr_cause_name(cr_cause_t cause);
/* The stream's names of ball in hand, disturbance causes and ruling kinds
 * (docs/EVENTS.md). Each _parse returns the value, or -1 for an unknown
 * name (cr_bih_parse never returns CR_BIH_NONE: that is JSON null). */
int cr_bih_parse(const char *name);
int cr_cause_parse(const char *name);
const char *cr_ruling_kind_name(cr_ruling_kind_t kind);
int cr_ruling_kind_parse(const char *name);

/* Finds ball id in a balls list; returns the index or -1. */
int cr_event_find_ball(const cr_event_t *ev, int id);

#ifdef __cplusplus
}
#endif

#endif /* CR_EVENT_H */
