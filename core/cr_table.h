/*
 * cr_table.h - table geometry (SPEC §1, RULES.md §5): sizes, strings and
 * spots, cushion nose lines, pocket mouths, rack positions per game and the
 * spotting of balls (RULES.md §4.9).
 *
 * Every function is pure: no allocation, no global state, thread-safe.
 * All lengths are millimetres in table coordinates.
 */
#ifndef CR_TABLE_H
#define CR_TABLE_H

#include <stdint.h>

#include "cr_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A playing surface, nose to nose, and its pocket mouths. */
typedef struct {
    double length_mm;       /* L, head cushion nose to foot cushion nose */
    double width_mm;        /* W, left nose to right nose */
    double corner_mouth_mm; /* corner pocket mouth, jaw point to jaw point */
    double side_mouth_mm;   /* side pocket mouth, jaw point to jaw point */
    double ball_radius_mm;  /* R */
} cr_table_t;

/* Fills *t for an L x W surface with WPA pocket mouths (corner 4 9/16 in =
 * 115.9 mm, side 5 1/16 in = 128.6 mm, the middles of the WPA ranges) and
 * WPA balls. */
void cr_table_init(cr_table_t *t, double length_mm, double width_mm);

/* Parses a --table value: "9ft" (2540 x 1270), "8ft" (2336.8 x 1168.4, WPA
 * pro 8), "8ft-home" (2235.2 x 1117.6), "7ft" (1981.2 x 990.6), "7ft-large"
 * (2032 x 1016), "7ft-small" (1930.4 x 965.2), or "LxW" in mm (both in
 * 500..5000, L >= W). Returns 0, or CR_ERR_INVALID leaving *t untouched. */
int cr_table_parse(const char *spec, cr_table_t *t);

/* Strings (lines across the table, RULES.md §3 8.1): x positions. */
double cr_table_head_string_x(const cr_table_t *t);   /* L/4 */
double cr_table_centre_string_x(const cr_table_t *t); /* L/2 */
double cr_table_foot_string_x(const cr_table_t *t);   /* 3L/4 */
double cr_table_long_string_y(const cr_table_t *t);   /* W/2 */

cr_point_t cr_table_head_spot(const cr_table_t *t);
cr_point_t cr_table_centre_spot(const cr_table_t *t);
cr_point_t cr_table_foot_spot(const cr_table_t *t);

/* "Behind the head string": strictly x < L/4; a ball on the string is not
 * behind it (RULES.md §3 8.1, §4.8). Judged on the ball centre. */
bool cr_table_behind_head_string(const cr_table_t *t, double x_mm);

/* The pocket's reference point from SPEC §1 (corner: where the two nose
 * lines meet; side: on the nose line at L/2). */
cr_point_t cr_table_pocket_point(const cr_table_t *t, cr_pocket_t p);

/* Whether p is a side (middle) pocket. */
bool cr_pocket_is_side(cr_pocket_t p);

/* The width of pocket p's mouth, jaw point to jaw point (side or corner);
 * NAN for a bad pocket or a NULL table. */
double cr_table_mouth_width(const cr_table_t *t, cr_pocket_t p);

/* The two jaw points of a pocket mouth, on the cushion nose lines. For a
 * corner pocket each jaw point lies on one of the two nose lines at distance
 * mouth/sqrt(2) from the corner (the mouth is perpendicular to the corner's
 * bisector): *a on the long (left/right) cushion's line, *b on the end
 * (head/foot) cushion's line. For a side pocket they lie on the nose line at
 * x = L/2 - mouth/2 (*a) and L/2 + mouth/2 (*b). Returns 0, or
 * CR_ERR_INVALID for a bad pocket or a NULL pointer. */
int cr_table_pocket_mouth(const cr_table_t *t, cr_pocket_t p, cr_point_t *a, cr_point_t *b);

/* Whether (x, y) is through pocket p's mouth: on the far side of the line
 * between its jaw points from the table's centre (false for a bad pocket
 * or a NULL table). */
bool cr_table_past_mouth(const cr_table_t *t, cr_pocket_t p, double x, double y);

/* The straight part of a cushion nose line, between the jaw points of the
 * pockets at its ends (the head and foot cushions run between two corner
 * pockets; each long side has two segments split by the side pocket:
 * segment 0 is the head half, 1 the foot half). a[i] is the end with the
 * smaller coordinate along the cushion. Returns the number of segments
 * written (1 for head/foot, 2 for left/right), or CR_ERR_INVALID. */
int cr_table_cushion_segments(const cr_table_t *t, cr_rail_t rail, cr_point_t a[2], cr_point_t b[2]);

/* Distance from a point to a cushion's nose line (signed: positive on the
 * playing side), mm. NaN for a bad rail. */
double cr_table_distance_to_rail(const cr_table_t *t, cr_rail_t rail, cr_point_t p);

/* The pocket facings (RULES.md §5.4): from each jaw point the cushion turns
 * into the pocket by the WPA cut angle, 142 degrees at a corner and 104 at
 * a side pocket, measured from the nose line it ends; the facing runs
 * CR_TABLE_CORNER_FACING_MM or CR_TABLE_SIDE_FACING_MM from the jaw point
 * (about the cushion's depth seen along it). A corner jaw's facing belongs
 * to the cushion whose nose ends there. */
#define CR_TABLE_CORNER_CUT_DEG 142.0
#define CR_TABLE_SIDE_CUT_DEG 104.0
#define CR_TABLE_CORNER_FACING_MM 60.0
#define CR_TABLE_SIDE_FACING_MM 40.0

/* Distance from a ball centre at p to the cushion it could touch on a rail:
 * the nearest point of the rail's nose segments (cr_table_cushion_segments),
 * their jaw points and the facings from them into the pockets. Away from
 * the pockets it is cr_table_distance_to_rail; in a pocket mouth it is how
 * far the jaw is, which the nose line alone does not say. Unsigned, mm;
 * NaN for a bad rail. */
double cr_table_cushion_distance(const cr_table_t *t, cr_rail_t rail, cr_point_t p);

/* The same distance, and the straight piece of cushion it is measured to
 * (a nose segment or a facing): *on gets the piece's point nearest p (a jaw
 * point when p lies beyond the piece's ends), dir[] the piece's unit
 * direction. Where a jaw point is nearest (both pieces that
 * meet there are as near), the piece whose own span p lies closer to is
 * taken: a ball rolling past a jaw along the rail gets the nose line. A
 * ball whose distance to that line turns at R touched it; the distance to
 * a jaw point alone turns whenever a ball rolls past it. NaN for a bad
 * rail or NULL outputs. */
double cr_table_cushion_piece(const cr_table_t *t, cr_rail_t rail, cr_point_t p, cr_point_t *on, double dir[2]);

/* Diamond sight positions projected to the nose lines (x = k L/8, y = j W/4;
 * RULES.md §5.2), in the order: left cushion (y = 0) k = 1,2,3,5,6,7, right
 * cushion (y = W) the same, head cushion (x = 0) j = 1,2,3, foot cushion
 * (x = L) the same. Writes up to cap points and returns how many it wrote
 * (CR_TABLE_DIAMOND_COUNT when cap allows). */
#define CR_TABLE_DIAMOND_COUNT 18
int cr_table_diamonds(const cr_table_t *t, cr_point_t *out, int cap);

/* Rule edition that changes the rack (RULES.md §0, §5.6). */
typedef enum {
    CR_EDITION_WPA2008 = 0, /* 9-ball: 1 on the foot spot, 9 in the centre */
    CR_EDITION_WPA2025      /* 9-ball: 9 on the foot spot, 1 at the apex toward the head */
} cr_edition_t;

/* The rack slots of a game, apex first, rows toward the foot rail, each row
 * from y small to y large (RULES.md §5.6): 15 (8-ball, 14.1), 9 (9-ball
 * diamond), 10 (10-ball), 0 for CR_GAME_NONE. The apex is on the foot spot
 * except for the 2025 9-ball rack, where the 9 (the diamond's centre) is on
 * the foot spot. Returns the count written, CR_ERR_FULL when cap is too
 * small, or CR_ERR_INVALID for a bad game or edition. */
#define CR_TABLE_RACK_MAX 15 /* most balls in any rack */
int cr_table_rack_slots(const cr_table_t *t, cr_game_t game, cr_edition_t ed, cr_point_t *out, int cap);

/* The rack slots of a game as cr_table_rack_slots() writes them, each with
 * the number the rules always put there (8-ball: the 8 in the middle of the
 * third row; 9- and 10-ball: the 1 at the apex, the 9 or 10 in slot 4) or
 * -1 where the number is free. Returns the count or an error as
 * cr_table_rack_slots(). */
int cr_table_rack_fixed(const cr_table_t *t, cr_game_t game, cr_edition_t ed, cr_ball_pos_t *out, int cap);

/* A full legal rack with ball ids: the slots of cr_table_rack_slots with
 * the numbers placed as the game requires (8-ball: 8 in the middle of the
 * third row, a solid and a stripe in the back corners; 9-ball: 1 at the
 * apex, 9 in the centre; 10-ball: 1 at the apex, 10 in the middle of the
 * third row; 14.1: any). The free balls are shuffled with a deterministic
 * generator from seed. Returns the count written, or CR_ERR_FULL when cap is
 * too small, CR_ERR_INVALID for CR_GAME_NONE. */
int cr_table_rack(const cr_table_t *t, cr_game_t game, cr_edition_t ed, uint64_t seed, cr_ball_pos_t *out, int cap);

/* The 14.1 rack outline: the triangle of the 15 ball centres enlarged
 * outward by R (RULES.md §5.6). Writes its three vertices (apex first). */
void cr_table_rack_outline(const cr_table_t *t, cr_point_t tri[3]);

/* True when a ball centred at p is inside or overlaps the 14.1 rack outline
 * ("interferes with the rack", RULES.md §4.7): its centre is within R of the
 * filled triangle. A ball exactly touching the outline counts (it covers the
 * drawn line). */
bool cr_table_in_rack_outline(const cr_table_t *t, cr_point_t p);

/* Spotting (RULES.md §4.9 and WPA 1.4). Places the balls ids[0..n-1], in that
 * order, on the long string as close to the foot spot as the balls in
 * on_table allow: first the nearest free place at or behind the foot spot
 * (toward the foot rail), else the nearest free place in front of it (toward
 * the centre spot). Object balls may be frozen to a spotted ball; the cue ball
 * (id 0 in on_table) keeps a gap of cue_gap_mm (> 0). Each spotted ball
 * blocks the ones after it. Candidates run from the foot spot to L - R behind
 * and down to x = R in front; a placement exactly touching a blocking ball
 * is allowed. A ball of on_table whose id is one of ids (a ball being
 * spotted is not on the table) blocks nothing. Writes n positions to out.
 * Returns 0; CR_ERR_INVALID for a NULL pointer with a non-zero count, an id
 * outside 1..15 in ids, or cue_gap_mm <= 0; CR_ERR_FULL if no place is left
 * on the long string (out[0..i-1] hold the balls placed before it). */
int cr_table_spot_balls(const cr_table_t *t, const cr_ball_pos_t *on_table, int n_on_table, const int *ids, int n,
                        double cue_gap_mm, cr_ball_pos_t *out);

#ifdef __cplusplus
}
#endif

#endif /* CR_TABLE_H */
