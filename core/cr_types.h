/*
 * cr_types.h - shared value types of cueref: status codes, ball ids, rails,
 * pockets, games. Pure C11, no allocation, thread-safe.
 *
 * Coordinates follow SPEC §1: millimetres on the cloth, origin where the head
 * cushion nose line meets the left cushion nose line, x toward the foot, y
 * toward the right cushion. Times are seconds.
 */
#ifndef CR_TYPES_H
#define CR_TYPES_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes: 0 success, negative failure. */
typedef enum {
    CR_OK = 0,
    CR_ERR_NOMEM = -1,       /* an allocation failed */
    CR_ERR_INVALID = -2,     /* an argument or a value is out of its domain */
    CR_ERR_IO = -3,          /* a file could not be read or written */
    CR_ERR_PARSE = -4,       /* input text is malformed */
    CR_ERR_UNSUPPORTED = -5, /* the request names something not implemented */
    CR_ERR_FULL = -6         /* a fixed-capacity output is full */
} cr_status_t;

/* A constant English string for a status; never NULL. */
const char *cr_status_str(int status);

/* Ball ids: 0 is the cue ball, 1..15 object balls, -1 unidentified. */
#define CR_BALL_CUE 0
#define CR_BALL_UNKNOWN (-1)
#define CR_BALL_MAX 15 /* highest object ball number */
#define CR_NUM_BALLS 16

/* WPA ball: 2 1/4 in diameter (RULES.md §5.3). */
#define CR_BALL_DIAMETER_MM 57.15
#define CR_BALL_RADIUS_MM 28.575

/* A point or vector on the cloth, millimetres. */
typedef struct {
    double x;
    double y;
} cr_point_t;

/* One ball's position on the cloth. */
typedef struct {
    int id;   /* CR_BALL_CUE, 1..15, or CR_BALL_UNKNOWN */
    double x; /* mm */
    double y; /* mm */
} cr_ball_pos_t;

/* Cushions (SPEC §1 "rail"). */
typedef enum {
    CR_RAIL_NONE = -1,
    CR_RAIL_HEAD = 0, /* x = 0 */
    CR_RAIL_FOOT,     /* x = L */
    CR_RAIL_LEFT,     /* y = 0 */
    CR_RAIL_RIGHT,    /* y = W */
    CR_RAIL_COUNT
} cr_rail_t;

/* Pockets (SPEC §1). */
typedef enum {
    CR_POCKET_NONE = -1,
    CR_POCKET_HEAD_LEFT = 0, /* (0, 0) */
    CR_POCKET_HEAD_RIGHT,    /* (0, W) */
    CR_POCKET_SIDE_LEFT,     /* (L/2, 0) */
    CR_POCKET_SIDE_RIGHT,    /* (L/2, W) */
    CR_POCKET_FOOT_LEFT,     /* (L, 0) */
    CR_POCKET_FOOT_RIGHT,    /* (L, W) */
    CR_POCKET_COUNT
} cr_pocket_t;

/* Games the rules engine knows (SPEC §2 --game). */
typedef enum {
    CR_GAME_NONE = 0, /* general fouls only */
    CR_GAME_8BALL,
    CR_GAME_9BALL,
    CR_GAME_10BALL,
    CR_GAME_14_1,
    CR_GAME_COUNT
} cr_game_t;

/* Names as they appear in the event stream and on the command line.
 * The _name functions return a constant string ("?" when out of range);
 * the _parse functions return the value, or the NONE / -1 value when the
 * string is not a known name. */
const char *cr_rail_name(cr_rail_t rail);
cr_rail_t cr_rail_parse(const char *name);
const char *cr_pocket_name(cr_pocket_t pocket);
cr_pocket_t cr_pocket_parse(const char *name);
const char *cr_game_name(cr_game_t game);
/* Returns 0 and sets *out on success, CR_ERR_INVALID for an unknown name. */
int cr_game_parse(const char *name, cr_game_t *out);

/* true for 0..15. */
bool cr_ball_id_valid(int id);

#ifdef __cplusplus
}
#endif

#endif /* CR_TYPES_H */
