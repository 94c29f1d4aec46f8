/*
 * cr_table.c - table geometry (SPEC §1, RULES.md §3 8.1, §4.7, §4.9, §5).
 *
 * Pure functions on a cr_table_t: no allocation, no globals, thread-safe.
 * All lengths are millimetres in table coordinates.
 */
#include "cr_table.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* WPA pocket mouths, the middles of the ranges in RULES.md §5.4:
 * corner 4.5-4.625 in -> 4 9/16 in, side 5-5.125 in -> 5 1/16 in. */
#define CR_CORNER_MOUTH_MM 115.8875
#define CR_SIDE_MOUTH_MM 128.5875

/* cr_table_parse "LxW" limits, mm. */
#define CR_TABLE_MIN_MM 500.0
#define CR_TABLE_MAX_MM 5000.0

/* Spotting: slack on centre distances for "exactly touching" after
 * floating-point arithmetic (mm; far below any measurement, far above
 * rounding at table scale). */
#define CR_SPOT_EPS_MM 1e-9

#define CR_SQRT3 1.7320508075688772

/* ---- sizes -------------------------------------------------------------- */

void cr_table_init(cr_table_t *t, double length_mm, double width_mm)
{
    if (!t)
        return;
    t->length_mm = length_mm;
    t->width_mm = width_mm;
    t->corner_mouth_mm = CR_CORNER_MOUTH_MM;
    t->side_mouth_mm = CR_SIDE_MOUTH_MM;
    t->ball_radius_mm = CR_BALL_RADIUS_MM;
}

/* Named sizes (RULES.md §5.2), inches converted exactly (1 in = 25.4 mm). */
static const struct {
    const char *name;
    double length_mm;
    double width_mm;
} cr_table_presets[] = {
    {"9ft", 2540.0, 1270.0},      /* WPA 100 x 50 in */
    {"8ft", 2336.8, 1168.4},      /* WPA pro 8, 92 x 46 in */
    {"8ft-home", 2235.2, 1117.6}, /* 88 x 44 in */
    {"7ft", 1981.2, 990.6},       /* 78 x 39 in */
    {"7ft-large", 2032.0, 1016.0}, /* bar box, 80 x 40 in */
    {"7ft-small", 1930.4, 965.2},  /* 76 x 38 in */
};

/* Parses an unsigned decimal "123" or "123.45" from *s: at least one digit
 * before the point and one after it if there is a point; no sign, exponent,
 * spaces or hex, and independent of the locale. At most 15 significant
 * digits, so mantissa / 10^k is exact over exact and correctly rounded: the
 * same double as the C literal. Advances *s past it. Returns 0 or
 * CR_ERR_INVALID. */
static int cr_parse_decimal(const char **s, double *out)
{
    const char *p = *s;
    double mant = 0.0, scale = 1.0;
    int int_digits = 0, frac_digits = 0;

    while (*p >= '0' && *p <= '9') {
        mant = mant * 10.0 + (*p - '0');
        int_digits++;
        p++;
    }
    if (int_digits == 0)
        return CR_ERR_INVALID;
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') {
            mant = mant * 10.0 + (*p - '0');
            scale *= 10.0;
            frac_digits++;
            p++;
        }
        if (frac_digits == 0)
            return CR_ERR_INVALID;
    }
    if (int_digits + frac_digits > 15)
        return CR_ERR_INVALID;
    *out = mant / scale;
    *s = p;
    return CR_OK;
}

int cr_table_parse(const char *spec, cr_table_t *t)
{
    const char *p;
    double l, w;
    size_t i;

    if (!spec || !t)
        return CR_ERR_INVALID;
    for (i = 0; i < sizeof(cr_table_presets) / sizeof(cr_table_presets[0]); i++) {
        if (strcmp(spec, cr_table_presets[i].name) == 0) {
            cr_table_init(t, cr_table_presets[i].length_mm, cr_table_presets[i].width_mm);
            return CR_OK;
        }
    }
    p = spec;
    if (cr_parse_decimal(&p, &l) != CR_OK || *p != 'x')
        return CR_ERR_INVALID;
    p++;
    if (cr_parse_decimal(&p, &w) != CR_OK || *p != '\0')
        return CR_ERR_INVALID;
    if (l < CR_TABLE_MIN_MM || l > CR_TABLE_MAX_MM || w < CR_TABLE_MIN_MM || w > CR_TABLE_MAX_MM || l < w)
        return CR_ERR_INVALID;
    cr_table_init(t, l, w);
    return CR_OK;
}

/* ---- strings and spots (RULES.md §3 8.1, SPEC §1) ------------------------ */

double cr_table_head_string_x(const cr_table_t *t)
{
    return t->length_mm / 4.0;
}

double cr_table_centre_string_x(const cr_table_t *t)
{
    return t->length_mm / 2.0;
}

double cr_table_foot_string_x(const cr_table_t *t)
{
    return t->length_mm * 3.0 / 4.0;
}

double cr_table_long_string_y(const cr_table_t *t)
{
    return t->width_mm / 2.0;
}

static cr_point_t cr_point(double x, double y)
{
    cr_point_t p;

    p.x = x;
    p.y = y;
    return p;
}

cr_point_t cr_table_head_spot(const cr_table_t *t)
{
    return cr_point(cr_table_head_string_x(t), cr_table_long_string_y(t));
}

cr_point_t cr_table_centre_spot(const cr_table_t *t)
{
    return cr_point(cr_table_centre_string_x(t), cr_table_long_string_y(t));
}

cr_point_t cr_table_foot_spot(const cr_table_t *t)
{
    return cr_point(cr_table_foot_string_x(t), cr_table_long_string_y(t));
}

/* 8.1: "behind the head string" excludes the string itself (RULES.md §4.8). */
bool cr_table_behind_head_string(const cr_table_t *t, double x_mm)
{
    return x_mm < cr_table_head_string_x(t);
}

/* ---- pockets and cushions (SPEC §1, RULES.md §5.4) ----------------------- */

cr_point_t cr_table_pocket_point(const cr_table_t *t, cr_pocket_t p)
{
    const double l = t->length_mm, w = t->width_mm;

    switch (p) {
    case CR_POCKET_HEAD_LEFT:
        return cr_point(0.0, 0.0);
    case CR_POCKET_HEAD_RIGHT:
        return cr_point(0.0, w);
    case CR_POCKET_SIDE_LEFT:
        return cr_point(l / 2.0, 0.0);
    case CR_POCKET_SIDE_RIGHT:
        return cr_point(l / 2.0, w);
    case CR_POCKET_FOOT_LEFT:
        return cr_point(l, 0.0);
    case CR_POCKET_FOOT_RIGHT:
        return cr_point(l, w);
    default:
        return cr_point(NAN, NAN);
    }
}

bool cr_pocket_is_side(cr_pocket_t p)
{
    return p == CR_POCKET_SIDE_LEFT || p == CR_POCKET_SIDE_RIGHT;
}

double cr_table_mouth_width(const cr_table_t *t, cr_pocket_t p)
{
    if (!t || (int)p < 0 || p >= CR_POCKET_COUNT)
        return NAN;
    return cr_pocket_is_side(p) ? t->side_mouth_mm : t->corner_mouth_mm;
}

int cr_table_pocket_mouth(const cr_table_t *t, cr_pocket_t p, cr_point_t *a, cr_point_t *b)
{
    cr_point_t c;
    double d, sx, sy;

    if (!t || !a || !b || (int)p < 0 || p >= CR_POCKET_COUNT)
        return CR_ERR_INVALID;
    c = cr_table_pocket_point(t, p);
    if (cr_pocket_is_side(p)) {
        d = t->side_mouth_mm / 2.0;
        *a = cr_point(c.x - d, c.y);
        *b = cr_point(c.x + d, c.y);
        return CR_OK;
    }
    /* Corner: the legs of a right isosceles triangle whose hypotenuse is the
     * mouth; step from the corner into the table along each nose line. */
    d = t->corner_mouth_mm / sqrt(2.0);
    sx = c.x > 0.0 ? -1.0 : 1.0;
    sy = c.y > 0.0 ? -1.0 : 1.0;
    *a = cr_point(c.x + sx * d, c.y); /* on the left/right cushion's line */
    *b = cr_point(c.x, c.y + sy * d); /* on the head/foot cushion's line */
    return CR_OK;
}

bool cr_table_past_mouth(const cr_table_t *t, cr_pocket_t p, double x, double y)
{
    cr_point_t ja, jb;
    double nx, ny;

    if (cr_table_pocket_mouth(t, p, &ja, &jb) != CR_OK)
        return false;
    nx = -(jb.y - ja.y);
    ny = jb.x - ja.x;
    if ((ja.x - t->length_mm / 2) * nx + (ja.y - t->width_mm / 2) * ny < 0) {
        nx = -nx;
        ny = -ny;
    }
    return (x - ja.x) * nx + (y - ja.y) * ny >= 0;
}

int cr_table_cushion_segments(const cr_table_t *t, cr_rail_t rail, cr_point_t a[2], cr_point_t b[2])
{
    double l, w, dc, ds, y;

    if (!t || !a || !b)
        return CR_ERR_INVALID;
    l = t->length_mm;
    w = t->width_mm;
    dc = t->corner_mouth_mm / sqrt(2.0); /* corner jaw point from the corner */
    ds = t->side_mouth_mm / 2.0;         /* side jaw point from L/2 */
    switch (rail) {
    case CR_RAIL_HEAD:
    case CR_RAIL_FOOT: {
        double x = rail == CR_RAIL_HEAD ? 0.0 : l;

        a[0] = cr_point(x, dc);
        b[0] = cr_point(x, w - dc);
        return 1;
    }
    case CR_RAIL_LEFT:
    case CR_RAIL_RIGHT:
        y = rail == CR_RAIL_LEFT ? 0.0 : w;
        a[0] = cr_point(dc, y);
        b[0] = cr_point(l / 2.0 - ds, y);
        a[1] = cr_point(l / 2.0 + ds, y);
        b[1] = cr_point(l - dc, y);
        return 2;
    default:
        return CR_ERR_INVALID;
    }
}

/* Distance from p to the segment from a along unit (dx, dy) for len mm;
 * *over gets how far beyond its span p projects (0 inside). */
static double seg_distance(cr_point_t p, cr_point_t a, double dx, double dy, double len, double *over, cr_point_t *q)
{
    double u = (p.x - a.x) * dx + (p.y - a.y) * dy, c;

    *over = u < 0.0 ? -u : u > len ? u - len : 0.0;
    c = u < 0.0 ? 0.0 : u > len ? len : u;
    q->x = a.x + c * dx;
    q->y = a.y + c * dy;
    return hypot(p.x - q->x, p.y - q->y);
}

double cr_table_cushion_piece(const cr_table_t *t, cr_rail_t rail, cr_point_t p, cr_point_t *on, double dir[2])
{
    static const double out[CR_RAIL_COUNT][2] = {
        [CR_RAIL_HEAD] = {-1.0, 0.0}, [CR_RAIL_FOOT] = {1.0, 0.0}, [CR_RAIL_LEFT] = {0.0, -1.0}, [CR_RAIL_RIGHT] = {0.0, 1.0}};
    cr_point_t a[2], b[2];
    double best = INFINITY, best_over = INFINITY;
    int n, i, e;

    if (!t || !on || !dir || (int)rail < 0 || rail >= CR_RAIL_COUNT)
        return NAN;
    n = cr_table_cushion_segments(t, rail, a, b);
    for (i = 0; i < n; i++) {
        double dx = b[i].x - a[i].x, dy = b[i].y - a[i].y, len = hypot(dx, dy);

        dx /= len;
        dy /= len;
        for (e = -1; e < 2; e++) {
            /* e < 0: the nose segment; else the facing at its jaw point e
             * (dn runs along the nose away from the pocket, the facing
             * turns from it through the cushion) */
            cr_point_t j = e == 1 ? b[i] : a[i];
            double fx = dx, fy = dy, flen = len, d, over;
            cr_point_t q;

            if (e >= 0) {
                double dn[2] = {e ? -dx : dx, e ? -dy : dy};
                bool side = (rail == CR_RAIL_LEFT || rail == CR_RAIL_RIGHT) && (e ? i == 0 : i == 1);
                double beta = (side ? CR_TABLE_SIDE_CUT_DEG : CR_TABLE_CORNER_CUT_DEG) * 3.14159265358979323846 / 180.0;

                fx = cos(beta) * dn[0] + sin(beta) * out[rail][0];
                fy = cos(beta) * dn[1] + sin(beta) * out[rail][1];
                flen = side ? CR_TABLE_SIDE_FACING_MM : CR_TABLE_CORNER_FACING_MM;
            }
            d = seg_distance(p, j, fx, fy, flen, &over, &q);
            if (d < best - 1e-9 || (d < best + 1e-9 && over < best_over)) {
                best = d;
                best_over = over;
                *on = q;
                dir[0] = fx;
                dir[1] = fy;
            }
        }
    }
    return best;
}

double cr_table_cushion_distance(const cr_table_t *t, cr_rail_t rail, cr_point_t p)
{
    cr_point_t on;
    double dir[2];

    return cr_table_cushion_piece(t, rail, p, &on, dir);
}

double cr_table_distance_to_rail(const cr_table_t *t, cr_rail_t rail, cr_point_t p)
{
    switch (rail) {
    case CR_RAIL_HEAD:
        return p.x;
    case CR_RAIL_FOOT:
        return t->length_mm - p.x;
    case CR_RAIL_LEFT:
        return p.y;
    case CR_RAIL_RIGHT:
        return t->width_mm - p.y;
    default:
        return NAN;
    }
}

/* RULES.md §5.2: six sights on each long rail at k L/8 (k = 4 is the side
 * pocket), three on each end rail at j W/4. */
int cr_table_diamonds(const cr_table_t *t, cr_point_t *out, int cap)
{
    static const int ks[6] = {1, 2, 3, 5, 6, 7};
    cr_point_t all[CR_TABLE_DIAMOND_COUNT];
    int i, n = 0;

    if (!t || !out || cap <= 0)
        return 0;
    for (i = 0; i < 6; i++)
        all[n++] = cr_point(ks[i] * t->length_mm / 8.0, 0.0);
    for (i = 0; i < 6; i++)
        all[n++] = cr_point(ks[i] * t->length_mm / 8.0, t->width_mm);
    for (i = 1; i <= 3; i++)
        all[n++] = cr_point(0.0, i * t->width_mm / 4.0);
    for (i = 1; i <= 3; i++)
        all[n++] = cr_point(t->length_mm, i * t->width_mm / 4.0);
    if (n > cap)
        n = cap;
    memcpy(out, all, (size_t)n * sizeof(out[0]));
    return n;
}

/* ---- racks (RULES.md §5.6) ---------------------------------------------- */

/* Balls per row, apex first; the row lists end with 0. */
static const int cr_rows_triangle[] = {1, 2, 3, 4, 5, 0}; /* 8-ball, 14.1 */
static const int cr_rows_diamond[] = {1, 2, 3, 2, 1, 0};  /* 9-ball */
static const int cr_rows_ten[] = {1, 2, 3, 4, 0};         /* 10-ball */

/* The row layout of a game, or NULL for CR_GAME_NONE or a bad game. */
static const int *cr_rack_rows(cr_game_t game)
{
    switch (game) {
    case CR_GAME_8BALL:
    case CR_GAME_14_1:
        return cr_rows_triangle;
    case CR_GAME_9BALL:
        return cr_rows_diamond;
    case CR_GAME_10BALL:
        return cr_rows_ten;
    default:
        return NULL;
    }
}

int cr_table_rack_slots(const cr_table_t *t, cr_game_t game, cr_edition_t ed, cr_point_t *out, int cap)
{
    const int *rows;
    cr_point_t fs;
    double r, dx, x0;
    int row, k, n, total = 0;

    if (!t || (ed != CR_EDITION_WPA2008 && ed != CR_EDITION_WPA2025) || (int)game < 0 || game >= CR_GAME_COUNT)
        return CR_ERR_INVALID;
    if (game == CR_GAME_NONE)
        return 0;
    rows = cr_rack_rows(game);
    for (row = 0; rows[row]; row++)
        total += rows[row];
    if (!out || cap < total)
        return CR_ERR_FULL;

    fs = cr_table_foot_spot(t);
    r = t->ball_radius_mm;
    dx = CR_SQRT3 * r; /* row spacing, 49.49 mm for WPA balls */
    x0 = fs.x;
    /* 2025 9-ball: the 9 (row 2, the diamond's centre) on the foot spot. */
    if (game == CR_GAME_9BALL && ed == CR_EDITION_WPA2025)
        x0 -= 2.0 * dx;
    n = 0;
    for (row = 0; rows[row]; row++) {
        for (k = 0; k < rows[row]; k++)
            out[n++] = cr_point(x0 + row * dx, fs.y + (2 * k - rows[row] + 1) * r);
    }
    return n;
}

/* splitmix64 (Steele, Lea, Flood 2014): a small, well-mixed deterministic
 * generator; the same seed gives the same rack on every platform. */
static uint64_t cr_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n >= 1), without modulo bias. */
static int cr_rand_below(uint64_t *state, int n)
{
    const uint64_t un = (uint64_t)n;
    const uint64_t limit = UINT64_MAX - UINT64_MAX % un;
    uint64_t v;

    do {
        v = cr_splitmix64(state);
    } while (v >= limit);
    return (int)(v % un);
}

/* Fisher-Yates shuffle of a[0..n-1]. */
static void cr_shuffle(uint64_t *state, int *a, int n)
{
    int i, j, tmp;

    for (i = n - 1; i > 0; i--) {
        j = cr_rand_below(state, i + 1);
        tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
    }
}

/* Slot indices in the apex-first, row-by-row order of cr_table_rack_slots. */
#define CR_SLOT_ROW3_MIDDLE 4 /* triangle, 10-ball and diamond: row 2 (third), middle */
#define CR_SLOT_BACK_LEFT 10  /* 15-ball triangle, row 4, k = 0 */
#define CR_SLOT_BACK_RIGHT 14 /* 15-ball triangle, row 4, k = 4 */

/* The number the rules always rack on slot i of a game's n slots, or -1:
 * 8-ball the 8 in the middle of the third row; 9-ball (WPA 2008 section 2)
 * the 1 at the apex and the 9 in the centre of the diamond, 10-ball (WPA
 * 10-ball 2009) the 1 at the apex and the 10 in the middle of the third
 * row: both centre balls sit in slot 4. */
static int rack_fixed_id(cr_game_t game, int n, int i)
{
    switch (game) {
    case CR_GAME_8BALL:
        return i == CR_SLOT_ROW3_MIDDLE ? 8 : -1;
    case CR_GAME_9BALL:
    case CR_GAME_10BALL:
        return i == 0 ? 1 : i == CR_SLOT_ROW3_MIDDLE ? n : -1; /* 9 or 10: the highest ball */
    default:
        return -1;
    }
}

int cr_table_rack_fixed(const cr_table_t *t, cr_game_t game, cr_edition_t ed, cr_ball_pos_t *out, int cap)
{
    cr_point_t slots[CR_TABLE_RACK_MAX];
    int n = cr_table_rack_slots(t, game, ed, slots, CR_TABLE_RACK_MAX), i;

    if (n < 0)
        return n;
    if (!out || cap < n)
        return CR_ERR_FULL;
    for (i = 0; i < n; i++) {
        out[i].id = rack_fixed_id(game, n, i);
        out[i].x = slots[i].x;
        out[i].y = slots[i].y;
    }
    return n;
}

int cr_table_rack(const cr_table_t *t, cr_game_t game, cr_edition_t ed, uint64_t seed, cr_ball_pos_t *out, int cap)
{
    cr_point_t slots[CR_TABLE_RACK_MAX];
    int ids[CR_TABLE_RACK_MAX];
    int free_ids[CR_TABLE_RACK_MAX] = {0};
    uint64_t state = seed;
    int n, i, n_free = 0, f;

    if (game == CR_GAME_NONE)
        return CR_ERR_INVALID;
    n = cr_table_rack_slots(t, game, ed, slots, CR_TABLE_RACK_MAX);
    if (n < 0)
        return n;
    if (!out || cap < n)
        return CR_ERR_FULL;

    for (i = 0; i < n; i++)
        ids[i] = rack_fixed_id(game, n, i);
    switch (game) {
    case CR_GAME_8BALL: {
        /* 8-ball racking (WPA 2008 section 3, RULES.md §5.6): the 8 in the
         * middle of the third row, one solid and one stripe in the back
         * corners (either way round), the rest at random. */
        int solid = 1 + cr_rand_below(&state, 7);  /* 1..7 */
        int stripe = 9 + cr_rand_below(&state, 7); /* 9..15 */
        bool solid_left = cr_rand_below(&state, 2) == 0;

        ids[CR_SLOT_BACK_LEFT] = solid_left ? solid : stripe;
        ids[CR_SLOT_BACK_RIGHT] = solid_left ? stripe : solid;
        for (i = 1; i <= CR_BALL_MAX; i++) {
            if (i != 8 && i != solid && i != stripe)
                free_ids[n_free++] = i;
        }
        break;
    }
    case CR_GAME_9BALL:
        /* 9-ball racking (WPA 2008 section 2): 1 at the apex, 9 in the
         * centre of the diamond. */
    case CR_GAME_10BALL:
        /* 10-ball racking (WPA 10-ball 2009): 1 at the apex, 10 in the
         * middle of the third row (rack_fixed_id()). */
        for (i = 2; i < n; i++)
            free_ids[n_free++] = i;
        break;
    default:
        /* 14.1 (WPA 2008 section 4): any order. */
        for (i = 1; i <= CR_BALL_MAX; i++)
            free_ids[n_free++] = i;
        break;
    }
    cr_shuffle(&state, free_ids, n_free);

    f = 0;
    for (i = 0; i < n; i++) {
        out[i].id = ids[i] >= 0 ? ids[i] : free_ids[f++];
        out[i].x = slots[i].x;
        out[i].y = slots[i].y;
    }
    return n;
}

void cr_table_rack_outline(const cr_table_t *t, cr_point_t tri[3])
{
    const cr_point_t fs = cr_table_foot_spot(t);
    const double r = t->ball_radius_mm;

    /* Centre triangle: apex at the foot spot, back corners at
     * (x_FS + 4 sqrt3 R, W/2 -+ 4R). Offsetting each side of an equilateral
     * triangle outward by R moves each vertex 2R along its bisector: the apex
     * to x_FS - 2R, each back corner by sqrt3 R outward in y and R in x.
     * Side 8R + 2 sqrt3 R = 327.6 mm for WPA balls (RULES.md §5.6). */
    tri[0] = cr_point(fs.x - 2.0 * r, fs.y);
    tri[1] = cr_point(fs.x + 4.0 * CR_SQRT3 * r + r, fs.y - 4.0 * r - CR_SQRT3 * r);
    tri[2] = cr_point(fs.x + 4.0 * CR_SQRT3 * r + r, fs.y + 4.0 * r + CR_SQRT3 * r);
}

/* Distance from p to the segment a-b, mm. */
static double cr_dist_point_segment(cr_point_t p, cr_point_t a, cr_point_t b)
{
    const double vx = b.x - a.x, vy = b.y - a.y;
    const double len2 = vx * vx + vy * vy;
    double s = 0.0;

    if (len2 > 0.0) {
        s = ((p.x - a.x) * vx + (p.y - a.y) * vy) / len2;
        s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
    }
    return hypot(p.x - (a.x + s * vx), p.y - (a.y + s * vy));
}

/* z of (b - a) x (p - a): the side of the line a->b that p lies on. */
static double cr_cross(cr_point_t a, cr_point_t b, cr_point_t p)
{
    return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

bool cr_table_in_rack_outline(const cr_table_t *t, cr_point_t p)
{
    cr_point_t tri[3];
    double c0, c1, c2, d;
    int i;

    cr_table_rack_outline(t, tri);
    c0 = cr_cross(tri[0], tri[1], p);
    c1 = cr_cross(tri[1], tri[2], p);
    c2 = cr_cross(tri[2], tri[0], p);
    if ((c0 >= 0.0 && c1 >= 0.0 && c2 >= 0.0) || (c0 <= 0.0 && c1 <= 0.0 && c2 <= 0.0))
        return true; /* centre inside the outline */
    /* RULES.md §4.7: overlapping the outline also interferes. */
    for (i = 0; i < 3; i++) {
        d = cr_dist_point_segment(p, tri[i], tri[(i + 1) % 3]);
        if (d <= t->ball_radius_mm)
            return true;
    }
    return false;
}

/* ---- spotting (RULES.md §4.9, WPA 1.4) ----------------------------------- */

/* One blocking ball (RULES.md §4.9 step 2): centre (x, dy) with dy its
 * distance from the long string, the centre distance d it requires (2R, or
 * 2R + gap for the cue ball) and the half-width h of the interval of the
 * string it blocks, |x_c - x| < h = sqrt(d^2 - dy^2). */
typedef struct {
    double x;
    double dy;
    double d;
    double h;
} cr_spot_block_t;

/* The i-th blocker: on_table first, then the balls already spotted.
 * Returns false when that ball blocks nothing. */
static bool cr_spot_blocker(const cr_table_t *t, const cr_ball_pos_t *on_table, int n_on_table, const int *ids,
                            int n, const cr_ball_pos_t *placed, int i, double cue_gap_mm, cr_spot_block_t *blk)
{
    const double two_r = 2.0 * t->ball_radius_mm;
    const cr_ball_pos_t *b;
    int j;

    if (i < n_on_table) {
        b = &on_table[i];
        /* A ball being spotted is not on the table, whatever the list says. */
        for (j = 0; j < n; j++) {
            if (b->id == ids[j])
                return false;
        }
    } else {
        b = &placed[i - n_on_table];
    }
    blk->x = b->x;
    blk->dy = fabs(b->y - cr_table_long_string_y(t));
    /* Object balls may be frozen to the spotted ball; the cue ball never is. */
    blk->d = b->id == CR_BALL_CUE ? two_r + cue_gap_mm : two_r;
    if (!(blk->dy < blk->d - CR_SPOT_EPS_MM))
        return false; /* at most touching the string's balls: blocks nothing */
    blk->h = sqrt(blk->d * blk->d - blk->dy * blk->dy);
    return true;
}

/* True when a ball at x on the string would overlap some blocker. Judged on
 * the centre distance, so that touching (up to rounding) is free: "frozen"
 * is allowed, and a ball nearly 2R off the string blocks nothing. */
static bool cr_spot_blocked(const cr_table_t *t, const cr_ball_pos_t *on_table, int n_on_table, const int *ids, int n,
                            const cr_ball_pos_t *placed, int n_placed, double cue_gap_mm, double x)
{
    cr_spot_block_t blk;
    int i;

    for (i = 0; i < n_on_table + n_placed; i++) {
        if (!cr_spot_blocker(t, on_table, n_on_table, ids, n, placed, i, cue_gap_mm, &blk))
            continue;
        if (hypot(x - blk.x, blk.dy) < blk.d - CR_SPOT_EPS_MM)
            return true;
    }
    return false;
}

/* Places one ball given the blockers; returns 0 and *x_out, or CR_ERR_FULL.
 * The free set's infimum behind the spot is the spot itself or the right end
 * of some blocked interval, and its supremum in front is the left end of
 * some interval, so only those candidates need checking. */
static int cr_spot_one(const cr_table_t *t, const cr_ball_pos_t *on_table, int n_on_table, const int *ids, int n,
                       const cr_ball_pos_t *placed, int n_placed, double cue_gap_mm, double *x_out)
{
    const double x_fs = cr_table_foot_string_x(t);
    const double x_max = t->length_mm - t->ball_radius_mm; /* frozen to the foot cushion */
    const double x_min = t->ball_radius_mm;                /* frozen to the head cushion */
    const int n_blk = n_on_table + n_placed;
    cr_spot_block_t blk;
    double best, c;
    int i;

    /* Step 3a: the first unblocked x >= foot spot, up to L - R. */
    if (!cr_spot_blocked(t, on_table, n_on_table, ids, n, placed, n_placed, cue_gap_mm, x_fs)) {
        *x_out = x_fs;
        return CR_OK;
    }
    best = INFINITY;
    for (i = 0; i < n_blk; i++) {
        if (!cr_spot_blocker(t, on_table, n_on_table, ids, n, placed, i, cue_gap_mm, &blk))
            continue;
        c = blk.x + blk.h;
        if (c < x_fs || c > x_max + CR_SPOT_EPS_MM || c >= best)
            continue;
        if (!cr_spot_blocked(t, on_table, n_on_table, ids, n, placed, n_placed, cue_gap_mm, c))
            best = c;
    }
    if (best < INFINITY) {
        *x_out = best;
        return CR_OK;
    }
    /* Step 3b: the unblocked x < foot spot closest to it, down to R. */
    best = -INFINITY;
    for (i = 0; i < n_blk; i++) {
        if (!cr_spot_blocker(t, on_table, n_on_table, ids, n, placed, i, cue_gap_mm, &blk))
            continue;
        c = blk.x - blk.h;
        if (c >= x_fs || c < x_min - CR_SPOT_EPS_MM || c <= best)
            continue;
        if (!cr_spot_blocked(t, on_table, n_on_table, ids, n, placed, n_placed, cue_gap_mm, c))
            best = c;
    }
    if (best > -INFINITY) {
        *x_out = best;
        return CR_OK;
    }
    return CR_ERR_FULL;
}

int cr_table_spot_balls(const cr_table_t *t, const cr_ball_pos_t *on_table, int n_on_table, const int *ids, int n,
                        double cue_gap_mm, cr_ball_pos_t *out)
{
    double x;
    int i, rc;

    if (!t || n_on_table < 0 || n < 0 || (n_on_table > 0 && !on_table) || (n > 0 && (!ids || !out)) ||
        !(cue_gap_mm > 0.0))
        return CR_ERR_INVALID;
    for (i = 0; i < n; i++) {
        if (ids[i] < 1 || ids[i] > CR_BALL_MAX)
            return CR_ERR_INVALID;
    }
    for (i = 0; i < n; i++) {
        rc = cr_spot_one(t, on_table, n_on_table, ids, n, out, i, cue_gap_mm, &x);
        if (rc != CR_OK)
            return rc;
        out[i].id = ids[i];
        out[i].x = x;
        out[i].y = cr_table_long_string_y(t);
    }
    return CR_OK;
}
