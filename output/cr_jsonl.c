/*
 * cr_jsonl.c - the event stream as JSON Lines (SPEC §3, docs/EVENTS.md).
 *
 * All JSON is parsed and written by jansson. The reader checks every field
 * it uses (type, range, length) and names the field in its message; the
 * writer checks the event the same way, so that whatever it writes, the
 * reader reads back to the same line.
 */
#include "cr_jsonl.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#if defined(__GNUC__)
#define CR_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CR_PRINTF(f, a)
#endif

#define CR_JSONL_MAX_LINE (1024 * 1024) /* longest line the reader accepts, bytes */
#define CR_JSONL_MSG_LEN 512            /* a message without its "FILE:LINE: " */
#define CR_QUOTE_MAX 32                 /* bytes of a bad value quoted in a message */
#define CR_ID_WHAT "a ball id -1..15"

/* Output resolution (cr_jsonl.h): the writer rounds to these steps, given as
 * their inverse. Values too large for the step (never seen on a table) are
 * written unrounded, with 15 significant digits. */
#define CR_SCALE_TIME 1e6  /* 1 us */
#define CR_SCALE_MM 1e2    /* 0.01 mm (also mm/s) */
#define CR_SCALE_CONF 1e3  /* 0.001 */
#define CR_ROUND_LIMIT 1e9 /* |v| from which values are not rounded */
#define CR_DUMP_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

enum { CR_OPT = 0, CR_REQ = 1 };

/* ---------------------------------------------------------------------- */
/* Messages                                                                */

/* Adds the return value k of an snprintf into buf[cap] to the length n. */
static size_t cr_msg_advance(size_t n, int k, size_t cap)
{
    if (k > 0)
        n += (size_t)k;
    return n < cap ? n : cap;
}

/* Copies s into buf for a message: at most CR_QUOTE_MAX bytes, cut at a
 * UTF-8 character boundary and marked "...", with control characters,
 * quotes and backslashes replaced by '?'. buf holds CR_QUOTE_MAX + 4. */
static const char *cr_quote(const char *s, char *buf)
{
    size_t n = strlen(s);
    size_t i;
    bool cut = n > CR_QUOTE_MAX;

    if (cut) {
        n = CR_QUOTE_MAX;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    for (i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        buf[i] = (ch < 0x20 || ch == 0x7F || ch == '"' || ch == '\\') ? '?' : (char)ch;
    }
    if (cut) {
        memcpy(buf + i, "...", 3);
        i += 3;
    }
    buf[i] = '\0';
    return buf;
}

/* Replaces control characters in a finished message (jansson quotes the
 * input it stopped at). */
static void cr_msg_clean(char *msg)
{
    for (; msg && *msg; msg++) {
        if ((unsigned char)*msg < 0x20 || *msg == 0x7F)
            *msg = '?';
    }
}

/* ---------------------------------------------------------------------- */
/* Reading: one line                                                       */

typedef struct {
    char *err;
    size_t err_len;
    const char *type; /* the line's type name; NULL until known */
    const char *sub;  /* the array or object being read; NULL at top level */
    size_t idx;       /* index in sub; SIZE_MAX for an object */
} cr_pctx_t;

/* Writes "TYPE: SUB[IDX]: message" into the context's buffer and returns
 * CR_ERR_PARSE. */
static int cr_fail(cr_pctx_t *c, const char *fmt, ...) CR_PRINTF(2, 3);
static int cr_fail(cr_pctx_t *c, const char *fmt, ...)
{
    va_list ap;
    size_t n = 0;

    if (!c->err || c->err_len == 0)
        return CR_ERR_PARSE;
    c->err[0] = '\0';
    if (c->type)
        n = cr_msg_advance(n, snprintf(c->err, c->err_len, "%s: ", c->type), c->err_len);
    if (c->sub && n < c->err_len) {
        if (c->idx == SIZE_MAX)
            n = cr_msg_advance(n, snprintf(c->err + n, c->err_len - n, "%s: ", c->sub), c->err_len);
        else
            n = cr_msg_advance(n, snprintf(c->err + n, c->err_len - n, "%s[%zu]: ", c->sub, c->idx),
                               c->err_len);
    }
    if (n < c->err_len) {
        va_start(ap, fmt);
        vsnprintf(c->err + n, c->err_len - n, fmt, ap);
        va_end(ap);
    }
    return CR_ERR_PARSE;
}

/* Looks key up in obj. Returns 1 with *out set when present (for an
 * optional field: present and not null), 0 when absent (*out NULL), or
 * CR_ERR_PARSE when a required field is missing. */
static int cr_field(cr_pctx_t *c, json_t *obj, const char *key, int req, json_t **out)
{
    json_t *v = json_object_get(obj, key);

    *out = NULL;
    if (!v)
        return req ? cr_fail(c, "missing field \"%s\"", key) : 0;
    if (!req && json_is_null(v))
        return 0;
    *out = v;
    return 1;
}

/* An integer in lo..hi; `what` describes the domain for the message. */
static int cr_int_value(cr_pctx_t *c, json_t *v, const char *name, json_int_t lo, json_int_t hi,
                        const char *what, int *out)
{
    json_int_t i;

    if (!json_is_integer(v))
        return cr_fail(c, "\"%s\" must be %s", name, what);
    i = json_integer_value(v);
    if (i < lo || i > hi)
        return cr_fail(c, "\"%s\" must be %s, got %" JSON_INTEGER_FORMAT, name, what, i);
    *out = (int)i;
    return 1;
}

static int cr_get_int(cr_pctx_t *c, json_t *obj, const char *key, int req, json_int_t lo,
                      json_int_t hi, const char *what, int *out)
{
    json_t *v;
    int rc = cr_field(c, obj, key, req, &v);

    return rc <= 0 ? rc : cr_int_value(c, v, key, lo, hi, what, out);
}

static int cr_get_id(cr_pctx_t *c, json_t *obj, const char *key, int req, int *out)
{
    return cr_get_int(c, obj, key, req, CR_BALL_UNKNOWN, CR_BALL_MAX, CR_ID_WHAT, out);
}

/* A (finite) number in lo..hi. */
static int cr_get_num(cr_pctx_t *c, json_t *obj, const char *key, int req, double lo, double hi,
                      const char *what, double *out)
{
    json_t *v;
    double d;
    int rc = cr_field(c, obj, key, req, &v);

    if (rc <= 0)
        return rc;
    if (!json_is_number(v))
        return cr_fail(c, "\"%s\" must be %s", key, what);
    d = json_number_value(v);
    if (!isfinite(d) || d < lo || d > hi)
        return cr_fail(c, "\"%s\" must be %s, got %g", key, what, d);
    *out = d;
    return 1;
}

static int cr_get_coord(cr_pctx_t *c, json_t *obj, const char *key, int req, double *out)
{
    return cr_get_num(c, obj, key, req, -HUGE_VAL, HUGE_VAL, "a number", out);
}

static int cr_get_bool(cr_pctx_t *c, json_t *obj, const char *key, int req, bool *out)
{
    json_t *v;
    int rc = cr_field(c, obj, key, req, &v);

    if (rc <= 0)
        return rc;
    if (!json_is_boolean(v))
        return cr_fail(c, "\"%s\" must be true or false", key);
    *out = json_is_true(v);
    return 1;
}

/* A string value (for names looked up afterwards), valid while the
 * document lives; *out NULL when absent. */
static int cr_get_name(cr_pctx_t *c, json_t *obj, const char *key, int req, const char **out)
{
    json_t *v;
    int rc = cr_field(c, obj, key, req, &v);

    *out = NULL;
    if (rc <= 0)
        return rc;
    if (!json_is_string(v))
        return cr_fail(c, "\"%s\" must be a string", key);
    *out = json_string_value(v);
    return 1;
}

/* Copies a string value into dst[cap]; too long is an error, not a cut. */
static int cr_str_value(cr_pctx_t *c, json_t *v, const char *name, char *dst, size_t cap,
                        bool nonempty)
{
    size_t n;

    if (!json_is_string(v))
        return cr_fail(c, "\"%s\" must be a string", name);
    n = json_string_length(v);
    if (n >= cap)
        return cr_fail(c, "\"%s\" is too long (%zu bytes, at most %zu)", name, n, cap - 1);
    if (nonempty && n == 0)
        return cr_fail(c, "\"%s\" must not be empty", name);
    memcpy(dst, json_string_value(v), n + 1);
    return 1;
}

static int cr_get_str(cr_pctx_t *c, json_t *obj, const char *key, int req, char *dst, size_t cap,
                      bool nonempty)
{
    json_t *v;
    int rc = cr_field(c, obj, key, req, &v);

    return rc <= 0 ? rc : cr_str_value(c, v, key, dst, cap, nonempty);
}

static int cr_unknown(cr_pctx_t *c, const char *what, const char *value)
{
    char q[CR_QUOTE_MAX + 4];

    return cr_fail(c, "unknown %s \"%s\"", what, cr_quote(value, q));
}

/* An array of at most max entries. */
static int cr_get_array(cr_pctx_t *c, json_t *obj, const char *key, int req, size_t max,
                        json_t **out)
{
    int rc = cr_field(c, obj, key, req, out);

    if (rc <= 0)
        return rc;
    if (!json_is_array(*out))
        return cr_fail(c, "\"%s\" must be an array", key);
    if (json_array_size(*out) > max)
        return cr_fail(c, "\"%s\" has %zu entries, at most %zu", key, json_array_size(*out), max);
    return 1;
}

/* An array of ball ids. */
static int cr_get_ids(cr_pctx_t *c, json_t *obj, const char *key, int req, size_t max, int *ids,
                      int *n)
{
    json_t *arr;
    json_t *el;
    size_t i;
    char name[48];
    int rc = cr_get_array(c, obj, key, req, max, &arr);

    if (rc <= 0)
        return rc;
    json_array_foreach(arr, i, el) {
        snprintf(name, sizeof(name), "%s[%zu]", key, i);
        if (cr_int_value(c, el, name, CR_BALL_UNKNOWN, CR_BALL_MAX, CR_ID_WHAT, &ids[i]) < 0)
            return CR_ERR_PARSE;
    }
    *n = (int)json_array_size(arr);
    return 1;
}

/* An array of non-empty code strings into fixed char arrays. */
static int cr_get_codes(cr_pctx_t *c, json_t *obj, const char *key, int req, size_t max,
                        char (*codes)[CR_CODE_LEN], int *n)
{
    json_t *arr;
    json_t *el;
    size_t i;
    char name[48];
    int rc = cr_get_array(c, obj, key, req, max, &arr);

    if (rc <= 0)
        return rc;
    json_array_foreach(arr, i, el) {
        snprintf(name, sizeof(name), "%s[%zu]", key, i);
        if (cr_str_value(c, el, name, codes[i], CR_CODE_LEN, true) < 0)
            return CR_ERR_PARSE;
    }
    *n = (int)json_array_size(arr);
    return 1;
}

/* Opens an object field (or array element) for reading: later messages say
 * "TYPE: sub: ..." (or "TYPE: sub[idx]: ..."). */
static void cr_enter(cr_pctx_t *c, const char *sub, size_t idx)
{
    c->sub = sub;
    c->idx = idx;
}

static void cr_leave(cr_pctx_t *c)
{
    c->sub = NULL;
}

/* {"id", "x", "y"} of a ball list entry; c says which entry. */
static int cr_ball_pos(cr_pctx_t *c, json_t *el, int *id, double *x, double *y)
{
    if (!json_is_object(el))
        return cr_fail(c, "must be an object with \"id\", \"x\", \"y\"");
    if (cr_get_id(c, el, "id", CR_REQ, id) < 0 || cr_get_coord(c, el, "x", CR_REQ, x) < 0 ||
        cr_get_coord(c, el, "y", CR_REQ, y) < 0)
        return CR_ERR_PARSE;
    return 0;
}

enum {
    CR_BALLS_FROZEN = 1, /* entries may carry "frozen": [rails] (stroke) */
    CR_BALLS_VEL = 2     /* entries may carry "vx", "vy" (balls) */
};

/* The "balls" list of a stroke, rest or balls line (required). */
static int cr_get_ball_list(cr_pctx_t *c, json_t *obj, unsigned flags, cr_event_t *ev)
{
    json_t *arr;
    json_t *el;
    size_t i;

    if (cr_get_array(c, obj, "balls", CR_REQ, CR_EVENT_MAX_BALLS, &arr) < 0)
        return CR_ERR_PARSE;
    json_array_foreach(arr, i, el) {
        cr_ball_state_t *b = &ev->balls[i];
        json_t *rails;
        json_t *rv;
        size_t k;

        cr_enter(c, "balls", i);
        if (cr_ball_pos(c, el, &b->id, &b->x, &b->y) < 0)
            return CR_ERR_PARSE;
        if (flags & CR_BALLS_VEL) {
            if (cr_get_coord(c, el, "vx", CR_OPT, &b->vx) < 0 ||
                cr_get_coord(c, el, "vy", CR_OPT, &b->vy) < 0 || cr_get_bool(c, el, "hidden", CR_OPT, &b->hidden) < 0)
                return CR_ERR_PARSE;
        }
        if (flags & CR_BALLS_FROZEN) {
            if (cr_get_array(c, el, "frozen", CR_OPT, CR_RAIL_COUNT, &rails) < 0)
                return CR_ERR_PARSE;
            json_array_foreach(rails, k, rv) {
                cr_rail_t rail;

                if (!json_is_string(rv))
                    return cr_fail(c, "\"frozen\" must be an array of rail names");
                rail = cr_rail_parse(json_string_value(rv));
                if ((int)rail < 0 || rail >= CR_RAIL_COUNT)
                    return cr_unknown(c, "rail in \"frozen\"", json_string_value(rv));
                b->frozen_rails |= 1u << rail;
            }
        }
        cr_leave(c);
    }
    ev->n_balls = (int)json_array_size(arr);
    return 0;
}

/* "shot": an integer >= 0, or null / absent (-1) where allowed. */
static int cr_get_shot(cr_pctx_t *c, json_t *obj, int req, int *out)
{
    json_t *v = json_object_get(obj, "shot");

    if (!v && req)
        return cr_fail(c, "missing field \"shot\"");
    if (!v || json_is_null(v)) {
        if (req)
            return cr_fail(c, "\"shot\" must be an integer >= 0, not null");
        *out = -1;
        return 0;
    }
    return cr_int_value(c, v, "shot", 0, INT_MAX, "an integer >= 0", out);
}

static int cr_get_rail(cr_pctx_t *c, json_t *obj, const char *key, cr_rail_t *out)
{
    const char *s;
    cr_rail_t rail;

    if (cr_get_name(c, obj, key, CR_REQ, &s) < 0)
        return CR_ERR_PARSE;
    rail = cr_rail_parse(s);
    if ((int)rail < 0 || rail >= CR_RAIL_COUNT)
        return cr_unknown(c, "rail", s);
    *out = rail;
    return 0;
}

static int cr_get_pocket(cr_pctx_t *c, json_t *obj, const char *key, cr_pocket_t *out)
{
    const char *s;
    cr_pocket_t pocket;

    if (cr_get_name(c, obj, key, CR_REQ, &s) < 0)
        return CR_ERR_PARSE;
    pocket = cr_pocket_parse(s);
    if ((int)pocket < 0 || pocket >= CR_POCKET_COUNT)
        return cr_unknown(c, "pocket", s);
    *out = pocket;
    return 0;
}

static int cr_get_player(cr_pctx_t *c, json_t *obj, int req, int *out)
{
    return cr_get_int(c, obj, "player", req, 1, 2, "1 or 2", out);
}

static int cr_get_confidence(cr_pctx_t *c, json_t *obj, int req, double *out)
{
    return cr_get_num(c, obj, "confidence", req, 0.0, 1.0, "a number 0..1", out);
}

#define CR_TRY(expr)                                                                               \
    do {                                                                                           \
        if ((expr) < 0)                                                                            \
            return CR_ERR_PARSE;                                                                   \
    } while (0)

static int cr_parse_session(cr_pctx_t *c, json_t *o, cr_event_t *ev)
{
    json_t *table;
    const char *game;

    CR_TRY(cr_get_int(c, o, "version", CR_REQ, 1, 1, "1", &ev->version));
    CR_TRY(cr_get_str(c, o, "source", CR_OPT, ev->source, sizeof(ev->source), false));
    CR_TRY(cr_get_num(c, o, "fps", CR_OPT, 0.0, HUGE_VAL, "a number >= 0", &ev->fps));
    CR_TRY(cr_get_int(c, o, "width", CR_OPT, 0, INT_MAX, "an integer >= 0", &ev->width));
    CR_TRY(cr_get_int(c, o, "height", CR_OPT, 0, INT_MAX, "an integer >= 0", &ev->height));
    CR_TRY(cr_field(c, o, "table", CR_OPT, &table));
    if (table) {
        if (!json_is_object(table))
            return cr_fail(c, "\"table\" must be an object with \"length_mm\", \"width_mm\"");
        cr_enter(c, "table", SIZE_MAX);
        CR_TRY(cr_get_num(c, table, "length_mm", CR_REQ, DBL_MIN, HUGE_VAL, "a number > 0",
                          &ev->table_length_mm));
        CR_TRY(cr_get_num(c, table, "width_mm", CR_REQ, DBL_MIN, HUGE_VAL, "a number > 0",
                          &ev->table_width_mm));
        cr_leave(c);
    }
    if (cr_get_name(c, o, "game", CR_OPT, &game) < 0)
        return CR_ERR_PARSE;
    if (game && cr_game_parse(game, &ev->game) != 0)
        return cr_unknown(c, "game", game);
    CR_TRY(cr_get_str(c, o, "rules", CR_OPT, ev->rules, sizeof(ev->rules), false));
    return 0;
}

/* {"1": ..., "2": ...} of integers (score, fouls_in_row); both required. */
static int cr_get_per_player(cr_pctx_t *c, json_t *o, const char *key, json_int_t lo,
                             const char *what, int v[3], bool *present)
{
    json_t *obj;

    CR_TRY(cr_field(c, o, key, CR_OPT, &obj));
    if (!obj)
        return 0;
    if (!json_is_object(obj))
        return cr_fail(c, "\"%s\" must be an object {\"1\": ..., \"2\": ...}", key);
    cr_enter(c, key, SIZE_MAX);
    CR_TRY(cr_get_int(c, obj, "1", CR_REQ, lo, INT_MAX, what, &v[1]));
    CR_TRY(cr_get_int(c, obj, "2", CR_REQ, lo, INT_MAX, what, &v[2]));
    cr_leave(c);
    if (present)
        *present = true;
    return 0;
}

static int cr_parse_groups(cr_pctx_t *c, json_t *o, cr_ruling_t *r)
{
    static const char *const keys[3] = {NULL, "1", "2"};
    json_t *obj;
    json_t *v;
    int p;

    CR_TRY(cr_field(c, o, "groups", CR_OPT, &obj));
    if (!obj)
        return 0;
    if (!json_is_object(obj))
        return cr_fail(c, "\"groups\" must be an object {\"1\": ..., \"2\": ...}");
    cr_enter(c, "groups", SIZE_MAX);
    for (p = 1; p <= 2; p++) {
        const char *s;

        CR_TRY(cr_field(c, obj, keys[p], CR_OPT, &v));
        if (!v)
            continue;
        if (!json_is_string(v))
            return cr_fail(c, "\"%s\" must be \"solids\", \"stripes\" or null", keys[p]);
        s = json_string_value(v);
        if (strcmp(s, "solids") == 0)
            r->groups[p] = 1;
        else if (strcmp(s, "stripes") == 0)
            r->groups[p] = 2;
        else
            return cr_unknown(c, "group", s);
    }
    cr_leave(c);
    return 0;
}

static int cr_parse_ruling(cr_pctx_t *c, json_t *o, cr_event_t *ev)
{
    cr_ruling_t *r = &ev->ruling;
    const char *s;
    json_t *v;
    json_t *arr;
    json_t *el;
    size_t i;
    int req;
    int kind;

    if (cr_get_name(c, o, "kind", CR_OPT, &s) < 0)
        return CR_ERR_PARSE;
    if (s) {
        kind = cr_ruling_kind_parse(s);
        if (kind < 0)
            return cr_unknown(c, "kind", s);
        r->kind = (cr_ruling_kind_t)kind;
    }
    /* The SPEC fields are required for a shot, optional for the others. */
    req = r->kind == CR_RULING_SHOT ? CR_REQ : CR_OPT;

    CR_TRY(cr_get_bool(c, o, "legal", req, &r->legal));
    CR_TRY(cr_get_codes(c, o, "fouls", req, CR_EVENT_MAX_CODES, r->fouls, &r->n_fouls));
    CR_TRY(cr_get_int(c, o, "player", req, req ? 1 : 0, 2, req ? "1 or 2" : "0, 1 or 2",
                      &r->player));
    CR_TRY(cr_get_int(c, o, "next_player", req, req ? 1 : 0, 2, req ? "1 or 2" : "0, 1 or 2",
                      &r->next_player));
    v = json_object_get(o, "ball_in_hand");
    if (!v && req)
        return cr_fail(c, "missing field \"ball_in_hand\"");
    if (v && !json_is_null(v)) {
        int bih;

        if (!json_is_string(v))
            return cr_fail(c, "\"ball_in_hand\" must be null, \"anywhere\" or \"behind_head_string\"");
        bih = cr_bih_parse(json_string_value(v));
        if (bih < 0)
            return cr_unknown(c, "ball_in_hand", json_string_value(v));
        r->ball_in_hand = (cr_bih_t)bih;
    }
    CR_TRY(cr_get_array(c, o, "spot", req, CR_NUM_BALLS, &arr));
    json_array_foreach(arr, i, el) {
        cr_enter(c, "spot", i);
        CR_TRY(cr_ball_pos(c, el, &r->spot[i].id, &r->spot[i].x, &r->spot[i].y));
        cr_leave(c);
    }
    r->n_spot = arr ? (int)json_array_size(arr) : 0;
    CR_TRY(cr_get_ids(c, o, "pocketed", req, CR_NUM_BALLS, r->pocketed, &r->n_pocketed));
    CR_TRY(cr_get_bool(c, o, "game_over", req, &r->game_over));
    v = json_object_get(o, "winner");
    if (!v && req)
        return cr_fail(c, "missing field \"winner\"");
    if (v && !json_is_null(v))
        CR_TRY(cr_int_value(c, v, "winner", 0, 2, "1, 2 or null", &r->winner));
    CR_TRY(cr_get_bool(c, o, "warning", req, &r->warning));

    /* extensions */
    CR_TRY(cr_get_bool(c, o, "break", CR_OPT, &r->break_shot));
    CR_TRY(cr_get_bool(c, o, "push_out", CR_OPT, &r->push_out));
    CR_TRY(cr_get_bool(c, o, "rerack", CR_OPT, &r->rerack));
    CR_TRY(cr_get_codes(c, o, "options", CR_OPT, CR_EVENT_MAX_OPTIONS, r->options, &r->n_options));
    CR_TRY(cr_get_per_player(c, o, "score", INT_MIN, "an integer", r->score, &r->has_score));
    CR_TRY(cr_parse_groups(c, o, r));
    CR_TRY(cr_get_per_player(c, o, "fouls_in_row", 0, "an integer >= 0", r->fouls_in_row, NULL));
    if (r->kind == CR_RULING_LAG)
        CR_TRY(cr_get_int(c, o, "lag_winner", CR_OPT, 0, 2, "0, 1 or 2", &r->lag_winner));
    CR_TRY(cr_get_str(c, o, "detail", CR_OPT, r->detail, sizeof(r->detail), false));
    return 0;
}

static int cr_parse_input(cr_pctx_t *c, json_t *o, cr_event_t *ev)
{
    const char *s;
    int ids[2];
    int n = 0;

    CR_TRY(cr_get_name(c, o, "kind", CR_REQ, &s));
    ev->input_kind = cr_input_kind_parse(s);
    if (ev->input_kind == CR_INPUT_NONE)
        return cr_unknown(c, "input kind", s);
    switch (ev->input_kind) {
    case CR_INPUT_CALL:
        CR_TRY(cr_get_id(c, o, "ball", CR_REQ, &ev->ball));
        CR_TRY(cr_get_pocket(c, o, "pocket", &ev->pocket));
        break;
    case CR_INPUT_SAFETY:
    case CR_INPUT_PUSH_OUT:
    case CR_INPUT_RACK:
        CR_TRY(cr_get_player(c, o, CR_OPT, &ev->player));
        break;
    case CR_INPUT_PLAYER:
    case CR_INPUT_EXTENSION:
        CR_TRY(cr_get_player(c, o, CR_REQ, &ev->player));
        break;
    case CR_INPUT_LAG:
        CR_TRY(cr_get_ids(c, o, "balls", CR_REQ, 2, ids, &n));
        if (n != 2)
            return cr_fail(c, "\"balls\" must hold two ids (player 1's ball, player 2's ball)");
        ev->lag_ball[0] = ids[0];
        ev->lag_ball[1] = ids[1];
        break;
    case CR_INPUT_FROZEN:
        CR_TRY(cr_get_id(c, o, "ball", CR_REQ, &ev->ball));
        CR_TRY(cr_get_rail(c, o, "rail", &ev->rail));
        break;
    case CR_INPUT_CHOICE:
        CR_TRY(cr_get_str(c, o, "choice", CR_REQ, ev->choice, sizeof(ev->choice), true));
        break;
    default:
        return cr_unknown(c, "input kind", s);
    }
    return 0;
}

/* The fields of ev->type after "type", "t" and "shot". */
static int cr_parse_fields(cr_pctx_t *c, json_t *o, cr_event_t *ev)
{
    const char *s;

    switch (ev->type) {
    case CR_EV_SESSION:
        return cr_parse_session(c, o, ev);
    case CR_EV_STROKE:
        CR_TRY(cr_get_ball_list(c, o, CR_BALLS_FROZEN, ev));
        CR_TRY(cr_get_ids(c, o, "moving", CR_OPT, CR_EVENT_MAX_BALLS, ev->moving, &ev->n_moving));
        CR_TRY(cr_get_id(c, o, "ball", CR_OPT, &ev->ball));
        CR_TRY(cr_get_player(c, o, CR_OPT, &ev->player));
        return 0;
    case CR_EV_COLLISION:
        CR_TRY(cr_get_id(c, o, "a", CR_REQ, &ev->a));
        CR_TRY(cr_get_id(c, o, "b", CR_REQ, &ev->b));
        CR_TRY(cr_get_coord(c, o, "x", CR_REQ, &ev->x));
        CR_TRY(cr_get_coord(c, o, "y", CR_REQ, &ev->y));
        CR_TRY(cr_get_confidence(c, o, CR_OPT, &ev->confidence));
        return 0;
    case CR_EV_CUSHION:
        CR_TRY(cr_get_id(c, o, "ball", CR_REQ, &ev->ball));
        CR_TRY(cr_get_rail(c, o, "rail", &ev->rail));
        CR_TRY(cr_get_coord(c, o, "x", CR_REQ, &ev->x));
        CR_TRY(cr_get_coord(c, o, "y", CR_REQ, &ev->y));
        return 0;
    case CR_EV_POCKET:
        CR_TRY(cr_get_id(c, o, "ball", CR_REQ, &ev->ball));
        CR_TRY(cr_get_pocket(c, o, "pocket", &ev->pocket));
        CR_TRY(cr_get_confidence(c, o, CR_OPT, &ev->confidence));
        return 0;
    case CR_EV_OFF_TABLE:
        CR_TRY(cr_get_id(c, o, "ball", CR_REQ, &ev->ball));
        return 0;
    case CR_EV_DISTURBED:
    case CR_EV_PLACED:
        CR_TRY(cr_get_id(c, o, "ball", CR_REQ, &ev->ball));
        CR_TRY(cr_get_coord(c, o, "x", CR_REQ, &ev->x));
        CR_TRY(cr_get_coord(c, o, "y", CR_REQ, &ev->y));
        if (ev->type == CR_EV_DISTURBED) {
            CR_TRY(cr_get_name(c, o, "cause", CR_OPT, &s));
            if (s) {
                int cause = cr_cause_parse(s);

                if (cause < 0)
                    return cr_unknown(c, "cause", s);
                ev->cause = (cr_cause_t)cause;
            }
        }
        return 0;
    case CR_EV_REST:
        return cr_get_ball_list(c, o, 0, ev);
    case CR_EV_BALLS:
        return cr_get_ball_list(c, o, CR_BALLS_VEL, ev);
    case CR_EV_FOUL:
        CR_TRY(cr_get_str(c, o, "code", CR_REQ, ev->code, sizeof(ev->code), true));
        CR_TRY(cr_get_str(c, o, "rule", CR_REQ, ev->rule, sizeof(ev->rule), false));
        CR_TRY(cr_get_str(c, o, "detail", CR_REQ, ev->detail, sizeof(ev->detail), false));
        CR_TRY(cr_get_confidence(c, o, CR_OPT, &ev->confidence));
        CR_TRY(cr_get_bool(c, o, "early", CR_OPT, &ev->early));
        return 0;
    case CR_EV_RULING:
        return cr_parse_ruling(c, o, ev);
    case CR_EV_INPUT:
        return cr_parse_input(c, o, ev);
    case CR_EV_DOUBLE_HIT:
    case CR_EV_PUSH_SHOT:
        CR_TRY(cr_get_id(c, o, "ball", CR_OPT, &ev->ball));
        CR_TRY(cr_get_confidence(c, o, CR_REQ, &ev->confidence));
        return 0;
    case CR_EV_WARNING:
        CR_TRY(cr_get_str(c, o, "code", CR_REQ, ev->code, sizeof(ev->code), true));
        CR_TRY(cr_get_str(c, o, "detail", CR_REQ, ev->detail, sizeof(ev->detail), false));
        return 0;
    case CR_EV_TYPE_COUNT:
        break;
    }
    return cr_fail(c, "cannot read this type");
}

/* Types whose lines must carry a shot number. */
static bool cr_shot_required(cr_event_type_t type)
{
    switch (type) {
    case CR_EV_STROKE:
    case CR_EV_REST:
        return true;
    default: /* between shots there is none: null (a foul 6.6 or 6.15; a ball that
              * settles into a pocket, 1.7; balls knocked together by a hand) */
        return false;
    }
}

static bool cr_blank(const char *s, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return false;
    }
    return true;
}

int cr_jsonl_parse_line(const char *line, size_t len, int is_first, cr_event_t *ev, char *err,
                        size_t err_len)
{
    cr_pctx_t c = {err, err_len, NULL, NULL, 0};
    json_error_t jerr;
    json_t *root;
    json_t *v;
    char q[CR_QUOTE_MAX + 4];
    int type;
    int rc;

    if (err && err_len > 0)
        err[0] = '\0';
    if (!line || cr_blank(line, len))
        return 1;
    if (line[len - 1] == '\r')
        len--;
    root = json_loadb(line, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        rc = cr_fail(&c, "invalid JSON at column %d: %s", jerr.column, jerr.text);
        goto done;
    }
    if (!json_is_object(root)) {
        rc = cr_fail(&c, "not a JSON object");
        goto done;
    }
    v = json_object_get(root, "type");
    if (!v) {
        rc = cr_fail(&c, "missing field \"type\"");
        goto done;
    }
    if (!json_is_string(v)) {
        rc = cr_fail(&c, "\"type\" must be a string");
        goto done;
    }
    type = cr_event_type_parse(json_string_value(v));
    if (is_first && type != CR_EV_SESSION) {
        rc = cr_fail(&c, "first line must be the session line, not \"%s\"",
                     cr_quote(json_string_value(v), q));
        goto done;
    }
    if (type < 0) {
        rc = 1; /* a type this reader does not know: skipped (SPEC §3) */
        goto done;
    }
    cr_event_init(ev, (cr_event_type_t)type);
    c.type = cr_event_type_name(ev->type);
    rc = cr_get_num(&c, root, "t", type == CR_EV_SESSION ? CR_OPT : CR_REQ, 0.0, HUGE_VAL,
                    "a number >= 0", &ev->t);
    if (rc >= 0 && type != CR_EV_SESSION)
        rc = cr_get_shot(&c, root, cr_shot_required(ev->type) ? CR_REQ : CR_OPT, &ev->shot);
    if (rc >= 0)
        rc = cr_parse_fields(&c, root, ev);
    rc = rc < 0 ? CR_ERR_PARSE : 0;
done:
    json_decref(root);
    cr_msg_clean(err);
    return rc;
}

/* ---------------------------------------------------------------------- */
/* Writing: one line                                                       */

typedef struct {
    int status; /* the first failure; 0 while none */
    char *err;
    size_t err_len;
    const char *type;
} cr_bctx_t;

static void cr_bad(cr_bctx_t *b, const char *fmt, ...) CR_PRINTF(2, 3);
static void cr_bad(cr_bctx_t *b, const char *fmt, ...)
{
    va_list ap;
    size_t n = 0;

    if (b->status)
        return;
    b->status = CR_ERR_INVALID;
    if (!b->err || b->err_len == 0)
        return;
    b->err[0] = '\0';
    if (b->type)
        n = cr_msg_advance(n, snprintf(b->err, b->err_len, "%s: ", b->type), b->err_len);
    if (n < b->err_len) {
        va_start(ap, fmt);
        vsnprintf(b->err + n, b->err_len - n, fmt, ap);
        va_end(ap);
    }
}

static void cr_nomem(cr_bctx_t *b)
{
    if (b->status)
        return;
    b->status = CR_ERR_NOMEM;
    if (b->err && b->err_len > 0)
        snprintf(b->err, b->err_len, "out of memory");
}

/* Sets obj[key] = v, taking v; any NULL (an allocation that failed) or an
 * earlier failure makes this a no-op that frees v. */
static void cr_put(cr_bctx_t *b, json_t *obj, const char *key, json_t *v)
{
    if (b->status || !obj || !v) {
        if (!b->status)
            cr_nomem(b);
        json_decref(v);
        return;
    }
    if (json_object_set_new(obj, key, v) != 0)
        cr_nomem(b);
}

/* Appends v to arr, taking v (as cr_put). */
static void cr_append(cr_bctx_t *b, json_t *arr, json_t *v)
{
    if (b->status || !arr || !v) {
        if (!b->status)
            cr_nomem(b);
        json_decref(v);
        return;
    }
    if (json_array_append_new(arr, v) != 0)
        cr_nomem(b);
}

/* v rounded to 1/scale (0: not rounded); -0 becomes 0. */
static double cr_round(double v, double scale)
{
    if (scale <= 0.0 || !(fabs(v) < CR_ROUND_LIMIT))
        return v + 0.0;
    return round(v * scale) / scale + 0.0;
}

/* A number that must be finite, checked against lo..hi after rounding. */
static json_t *cr_num_json(cr_bctx_t *b, const char *key, double v, double scale, double lo,
                           double hi)
{
    double r = cr_round(v, scale);

    if (!isfinite(v) || r < lo || r > hi) {
        cr_bad(b, "\"%s\" is out of range: %g", key, v);
        return NULL;
    }
    return json_real(r);
}

static void cr_put_num(cr_bctx_t *b, json_t *obj, const char *key, double v, double scale,
                       double lo, double hi)
{
    json_t *j = cr_num_json(b, key, v, scale, lo, hi);

    if (j || !b->status)
        cr_put(b, obj, key, j);
}

static void cr_put_coord(cr_bctx_t *b, json_t *obj, const char *key, double v)
{
    cr_put_num(b, obj, key, v, CR_SCALE_MM, -HUGE_VAL, HUGE_VAL);
}

static void cr_put_int(cr_bctx_t *b, json_t *obj, const char *key, int v, int lo, int hi)
{
    if (v < lo || v > hi) {
        cr_bad(b, "\"%s\" is out of range: %d", key, v);
        return;
    }
    cr_put(b, obj, key, json_integer(v));
}

static void cr_put_id(cr_bctx_t *b, json_t *obj, const char *key, int id)
{
    cr_put_int(b, obj, key, id, CR_BALL_UNKNOWN, CR_BALL_MAX);
}

static void cr_put_bool(cr_bctx_t *b, json_t *obj, const char *key, bool v)
{
    cr_put(b, obj, key, json_boolean(v));
}

/* A JSON string of s[cap] (which must be NUL-terminated, valid UTF-8, and
 * non-empty when nonempty), or NULL with the failure noted. */
static json_t *cr_str_json(cr_bctx_t *b, const char *key, const char *s, size_t cap,
                           bool nonempty)
{
    size_t n = strnlen(s, cap);
    json_t *j;

    if (n == cap) {
        cr_bad(b, "\"%s\" is not NUL-terminated", key);
        return NULL;
    }
    if (nonempty && n == 0) {
        cr_bad(b, "\"%s\" is empty", key);
        return NULL;
    }
    j = json_stringn(s, n);
    if (!j) {
        /* jansson refuses invalid UTF-8 and fails on allocation alike. */
        json_t *probe = json_string("");

        if (probe)
            cr_bad(b, "\"%s\" is not valid UTF-8", key);
        else
            cr_nomem(b);
        json_decref(probe);
    }
    return j;
}

static void cr_put_str(cr_bctx_t *b, json_t *obj, const char *key, const char *s, size_t cap,
                       bool nonempty)
{
    json_t *j = cr_str_json(b, key, s, cap, nonempty);

    if (j || !b->status)
        cr_put(b, obj, key, j);
}

static void cr_put_name(cr_bctx_t *b, json_t *obj, const char *key, const char *name, int value)
{
    if (!name || strcmp(name, "?") == 0) {
        cr_bad(b, "\"%s\" has no name: %d", key, value);
        return;
    }
    cr_put(b, obj, key, json_string(name));
}

static bool cr_count_ok(cr_bctx_t *b, const char *key, int n, int max)
{
    if (n < 0 || n > max) {
        cr_bad(b, "\"%s\" has %d entries (0..%d)", key, n, max);
        return false;
    }
    return true;
}

/* {"id", "x", "y"} */
static json_t *cr_pos_json(cr_bctx_t *b, int id, double x, double y)
{
    json_t *e = json_object();

    cr_put_id(b, e, "id", id);
    cr_put_coord(b, e, "x", x);
    cr_put_coord(b, e, "y", y);
    return e;
}

static void cr_put_ball_list(cr_bctx_t *b, json_t *o, const cr_event_t *ev)
{
    json_t *arr;
    int i;
    int r;

    if (!cr_count_ok(b, "balls", ev->n_balls, CR_EVENT_MAX_BALLS))
        return;
    arr = json_array();
    for (i = 0; i < ev->n_balls; i++) {
        const cr_ball_state_t *s = &ev->balls[i];
        json_t *e = cr_pos_json(b, s->id, s->x, s->y);

        if (ev->type == CR_EV_BALLS) {
            if (!isnan(s->vx))
                cr_put_num(b, e, "vx", s->vx, CR_SCALE_MM, -HUGE_VAL, HUGE_VAL);
            if (!isnan(s->vy))
                cr_put_num(b, e, "vy", s->vy, CR_SCALE_MM, -HUGE_VAL, HUGE_VAL);
            if (s->hidden)
                cr_put(b, e, "hidden", json_true());
        }
        if (ev->type == CR_EV_STROKE && s->frozen_rails != 0) {
            json_t *rails = json_array();

            if (s->frozen_rails >> CR_RAIL_COUNT)
                cr_bad(b, "\"frozen\" has an unknown rail bit: 0x%x", s->frozen_rails);
            for (r = 0; r < CR_RAIL_COUNT; r++) {
                if (s->frozen_rails & (1u << r))
                    cr_append(b, rails, json_string(cr_rail_name((cr_rail_t)r)));
            }
            cr_put(b, e, "frozen", rails);
        }
        cr_append(b, arr, e);
    }
    cr_put(b, o, "balls", arr);
}

static void cr_put_ids(cr_bctx_t *b, json_t *o, const char *key, const int *ids, int n, int max)
{
    json_t *arr;
    int i;

    if (!cr_count_ok(b, key, n, max))
        return;
    arr = json_array();
    for (i = 0; i < n; i++) {
        if (ids[i] < CR_BALL_UNKNOWN || ids[i] > CR_BALL_MAX) {
            cr_bad(b, "\"%s\" holds a bad ball id: %d", key, ids[i]);
            break;
        }
        cr_append(b, arr, json_integer(ids[i]));
    }
    cr_put(b, o, key, arr);
}

static void cr_put_codes(cr_bctx_t *b, json_t *o, const char *key, const char (*codes)[CR_CODE_LEN],
                         int n, int max)
{
    json_t *arr;
    int i;

    if (!cr_count_ok(b, key, n, max))
        return;
    arr = json_array();
    for (i = 0; i < n; i++) {
        json_t *j = cr_str_json(b, key, codes[i], CR_CODE_LEN, true);

        if (!j && b->status)
            break;
        cr_append(b, arr, j);
    }
    cr_put(b, o, key, arr);
}

/* {"1": v[1], "2": v[2]} */
static void cr_put_per_player(cr_bctx_t *b, json_t *o, const char *key, const int v[3], int lo)
{
    json_t *obj = json_object();

    cr_put_int(b, obj, "1", v[1], lo, INT_MAX);
    cr_put_int(b, obj, "2", v[2], lo, INT_MAX);
    cr_put(b, o, key, obj);
}

static void cr_put_ruling(cr_bctx_t *b, json_t *o, const cr_ruling_t *r)
{
    static const char *const group_names[3] = {NULL, "solids", "stripes"};
    static const char *const keys[3] = {NULL, "1", "2"};
    bool shot = r->kind == CR_RULING_SHOT;
    json_t *arr;
    int i;

    if ((int)r->kind < CR_RULING_SHOT || r->kind > CR_RULING_BETWEEN) {
        cr_bad(b, "\"kind\" is out of range: %d", (int)r->kind);
        return;
    }
    cr_put_bool(b, o, "legal", r->legal);
    cr_put_codes(b, o, "fouls", (const char(*)[CR_CODE_LEN])r->fouls, r->n_fouls,
                 CR_EVENT_MAX_CODES);
    /* A lag or a foul between shots may have no shooter (0): then omitted. */
    if (shot || r->player != 0)
        cr_put_int(b, o, "player", r->player, 1, 2);
    if (shot || r->next_player != 0)
        cr_put_int(b, o, "next_player", r->next_player, 1, 2);
    if (r->ball_in_hand == CR_BIH_NONE)
        cr_put(b, o, "ball_in_hand", json_null());
    else
        cr_put_name(b, o, "ball_in_hand", cr_bih_name(r->ball_in_hand), (int)r->ball_in_hand);
    if (cr_count_ok(b, "spot", r->n_spot, CR_NUM_BALLS)) {
        arr = json_array();
        for (i = 0; i < r->n_spot; i++)
            cr_append(b, arr, cr_pos_json(b, r->spot[i].id, r->spot[i].x, r->spot[i].y));
        cr_put(b, o, "spot", arr);
    }
    cr_put_ids(b, o, "pocketed", r->pocketed, r->n_pocketed, CR_NUM_BALLS);
    cr_put_bool(b, o, "game_over", r->game_over);
    if (r->winner == 0)
        cr_put(b, o, "winner", json_null());
    else
        cr_put_int(b, o, "winner", r->winner, 1, 2);
    cr_put_bool(b, o, "warning", r->warning);

    /* extensions */
    if (!shot)
        cr_put(b, o, "kind", json_string(cr_ruling_kind_name(r->kind)));
    if (r->break_shot)
        cr_put_bool(b, o, "break", true);
    if (r->push_out)
        cr_put_bool(b, o, "push_out", true);
    if (r->rerack)
        cr_put_bool(b, o, "rerack", true);
    if (r->n_options != 0)
        cr_put_codes(b, o, "options", (const char(*)[CR_CODE_LEN])r->options, r->n_options,
                     CR_EVENT_MAX_OPTIONS);
    if (r->has_score)
        cr_put_per_player(b, o, "score", r->score, INT_MIN);
    if (r->groups[1] != 0 || r->groups[2] != 0) {
        json_t *g = json_object();

        for (i = 1; i <= 2; i++) {
            if (r->groups[i] < 0 || r->groups[i] > 2)
                cr_bad(b, "\"groups\" is out of range: %d", r->groups[i]);
            else if (r->groups[i] != 0)
                cr_put(b, g, keys[i], json_string(group_names[r->groups[i]]));
        }
        cr_put(b, o, "groups", g);
    }
    cr_put_per_player(b, o, "fouls_in_row", r->fouls_in_row, 0);
    if (r->kind == CR_RULING_LAG)
        cr_put_int(b, o, "lag_winner", r->lag_winner, 0, 2);
    if (strnlen(r->detail, sizeof(r->detail)) != 0)
        cr_put_str(b, o, "detail", r->detail, sizeof(r->detail), false);
}

static void cr_put_input(cr_bctx_t *b, json_t *o, const cr_event_t *ev)
{
    cr_put_name(b, o, "kind", cr_input_kind_name(ev->input_kind), (int)ev->input_kind);
    switch (ev->input_kind) {
    case CR_INPUT_CALL:
        cr_put_id(b, o, "ball", ev->ball);
        cr_put_name(b, o, "pocket", cr_pocket_name(ev->pocket), (int)ev->pocket);
        break;
    case CR_INPUT_SAFETY:
    case CR_INPUT_PUSH_OUT:
    case CR_INPUT_RACK:
        if (ev->player != -1)
            cr_put_int(b, o, "player", ev->player, 1, 2);
        break;
    case CR_INPUT_PLAYER:
    case CR_INPUT_EXTENSION:
        cr_put_int(b, o, "player", ev->player, 1, 2);
        break;
    case CR_INPUT_LAG:
        cr_put_ids(b, o, "balls", ev->lag_ball, 2, 2);
        break;
    case CR_INPUT_FROZEN:
        cr_put_id(b, o, "ball", ev->ball);
        cr_put_name(b, o, "rail", cr_rail_name(ev->rail), (int)ev->rail);
        break;
    case CR_INPUT_CHOICE:
        cr_put_str(b, o, "choice", ev->choice, sizeof(ev->choice), true);
        break;
    default:
        break; /* cr_put_name above has failed */
    }
}

/* Builds the JSON object for *ev into *out. Returns 0, CR_ERR_INVALID (an
 * event that cannot be written; message in err) or CR_ERR_NOMEM. */
static int cr_build(const cr_event_t *ev, json_t **out, char *err, size_t err_len)
{
    cr_bctx_t b = {0, err, err_len, NULL};
    cr_event_type_t type = ev->type;
    json_t *o;
    json_t *table;

    if (err && err_len > 0)
        err[0] = '\0';
    if ((int)type < 0 || type >= CR_EV_TYPE_COUNT) {
        cr_bad(&b, "unknown event type %d", (int)type);
        return b.status;
    }
    b.type = cr_event_type_name(type);
    o = json_object();
    if (!o) {
        cr_nomem(&b);
        return b.status;
    }
    cr_put(&b, o, "type", json_string(b.type));
    if (type != CR_EV_SESSION || !isnan(ev->t))
        cr_put_num(&b, o, "t", ev->t, CR_SCALE_TIME, 0.0, HUGE_VAL);
    if (type != CR_EV_SESSION) {
        if (ev->shot >= 0)
            cr_put_int(&b, o, "shot", ev->shot, 0, INT_MAX);
        else if (cr_shot_required(type) || ev->shot != -1)
            cr_bad(&b, "\"shot\" is out of range: %d", ev->shot);
        else if (type == CR_EV_DISTURBED || type == CR_EV_RULING || type == CR_EV_INPUT || type == CR_EV_FOUL ||
                 type == CR_EV_COLLISION || type == CR_EV_CUSHION || type == CR_EV_POCKET || type == CR_EV_OFF_TABLE)
            cr_put(&b, o, "shot", json_null()); /* in the type's SPEC §3 row: null */
    }

    switch (type) {
    case CR_EV_SESSION:
        cr_put_int(&b, o, "version", ev->version, 1, 1);
        if (strnlen(ev->source, sizeof(ev->source)) != 0)
            cr_put_str(&b, o, "source", ev->source, sizeof(ev->source), false);
        if (!isnan(ev->fps))
            cr_put_num(&b, o, "fps", ev->fps, 0.0, 0.0, HUGE_VAL);
        if (ev->width != -1)
            cr_put_int(&b, o, "width", ev->width, 0, INT_MAX);
        if (ev->height != -1)
            cr_put_int(&b, o, "height", ev->height, 0, INT_MAX);
        if (!isnan(ev->table_length_mm) || !isnan(ev->table_width_mm)) {
            table = json_object();
            cr_put_num(&b, table, "length_mm", ev->table_length_mm, 0.0, DBL_MIN, HUGE_VAL);
            cr_put_num(&b, table, "width_mm", ev->table_width_mm, 0.0, DBL_MIN, HUGE_VAL);
            cr_put(&b, o, "table", table);
        }
        cr_put_name(&b, o, "game", cr_game_name(ev->game), (int)ev->game);
        if (strnlen(ev->rules, sizeof(ev->rules)) != 0)
            cr_put_str(&b, o, "rules", ev->rules, sizeof(ev->rules), false);
        break;
    case CR_EV_STROKE:
        cr_put_ball_list(&b, o, ev);
        cr_put_ids(&b, o, "moving", ev->moving, ev->n_moving, CR_EVENT_MAX_BALLS);
        if (ev->ball != CR_BALL_CUE)
            cr_put_id(&b, o, "ball", ev->ball);
        if (ev->player != -1)
            cr_put_int(&b, o, "player", ev->player, 1, 2);
        break;
    case CR_EV_COLLISION:
        cr_put_id(&b, o, "a", ev->a);
        cr_put_id(&b, o, "b", ev->b);
        cr_put_coord(&b, o, "x", ev->x);
        cr_put_coord(&b, o, "y", ev->y);
        if (cr_round(ev->confidence, CR_SCALE_CONF) != 1.0)
            cr_put_num(&b, o, "confidence", ev->confidence, CR_SCALE_CONF, 0.0, 1.0);
        break;
    case CR_EV_CUSHION:
        cr_put_id(&b, o, "ball", ev->ball);
        cr_put_name(&b, o, "rail", cr_rail_name(ev->rail), (int)ev->rail);
        cr_put_coord(&b, o, "x", ev->x);
        cr_put_coord(&b, o, "y", ev->y);
        break;
    case CR_EV_POCKET:
        cr_put_id(&b, o, "ball", ev->ball);
        cr_put_name(&b, o, "pocket", cr_pocket_name(ev->pocket), (int)ev->pocket);
        if (cr_round(ev->confidence, CR_SCALE_CONF) != 1.0)
            cr_put_num(&b, o, "confidence", ev->confidence, CR_SCALE_CONF, 0.0, 1.0);
        break;
    case CR_EV_OFF_TABLE:
        cr_put_id(&b, o, "ball", ev->ball);
        break;
    case CR_EV_DISTURBED:
    case CR_EV_PLACED:
        cr_put_id(&b, o, "ball", ev->ball);
        cr_put_coord(&b, o, "x", ev->x);
        cr_put_coord(&b, o, "y", ev->y);
        if (type == CR_EV_DISTURBED && ev->cause != CR_CAUSE_UNKNOWN)
            cr_put_name(&b, o, "cause", cr_cause_name(ev->cause), (int)ev->cause);
        break;
    case CR_EV_REST:
    case CR_EV_BALLS:
        cr_put_ball_list(&b, o, ev);
        break;
    case CR_EV_FOUL:
        cr_put_str(&b, o, "code", ev->code, sizeof(ev->code), true);
        cr_put_str(&b, o, "rule", ev->rule, sizeof(ev->rule), false);
        cr_put_str(&b, o, "detail", ev->detail, sizeof(ev->detail), false);
        cr_put_num(&b, o, "confidence", ev->confidence, CR_SCALE_CONF, 0.0, 1.0);
        if (ev->early)
            cr_put(&b, o, "early", json_true());
        break;
    case CR_EV_RULING:
        cr_put_ruling(&b, o, &ev->ruling);
        break;
    case CR_EV_INPUT:
        cr_put_input(&b, o, ev);
        break;
    case CR_EV_DOUBLE_HIT:
    case CR_EV_PUSH_SHOT:
        if (ev->ball != CR_BALL_UNKNOWN)
            cr_put_id(&b, o, "ball", ev->ball);
        cr_put_num(&b, o, "confidence", ev->confidence, CR_SCALE_CONF, 0.0, 1.0);
        break;
    case CR_EV_WARNING:
        cr_put_str(&b, o, "code", ev->code, sizeof(ev->code), true);
        cr_put_str(&b, o, "detail", ev->detail, sizeof(ev->detail), false);
        break;
    case CR_EV_TYPE_COUNT:
        break;
    }
    if (b.status) {
        json_decref(o);
        return b.status;
    }
    *out = o;
    return 0;
}

/* *ev as one line of JSON without newline, in *out (free() it). */
static int cr_dump(const cr_event_t *ev, char **out, char *err, size_t err_len)
{
    json_t *o = NULL;
    int rc = cr_build(ev, &o, err, err_len);

    if (rc < 0)
        return rc;
    *out = json_dumps(o, CR_DUMP_FLAGS);
    json_decref(o);
    if (!*out) {
        if (err && err_len > 0)
            snprintf(err, err_len, "out of memory");
        return CR_ERR_NOMEM;
    }
    return 0;
}

int cr_jsonl_format_msg(const cr_event_t *ev, char *buf, size_t cap, char *err, size_t err_len)
{
    char *s = NULL;
    size_t n;
    int rc = cr_dump(ev, &s, err, err_len);

    if (rc < 0)
        return rc;
    n = strlen(s);
    if (n >= cap || n > INT_MAX) {
        if (err && err_len > 0)
            snprintf(err, err_len, "%zu bytes do not fit in a buffer of %zu", n + 1, cap);
        rc = CR_ERR_FULL;
        goto out;
    }
    memcpy(buf, s, n + 1);
    rc = (int)n;
out:
    free(s);
    return rc;
}

int cr_jsonl_format(const cr_event_t *ev, char *buf, size_t cap)
{
    return cr_jsonl_format_msg(ev, buf, cap, NULL, 0);
}

/* ---------------------------------------------------------------------- */
/* Reader                                                                  */

struct cr_jsonl_reader {
    FILE *f;
    bool own;          /* f is ours to close (not stdin) */
    bool seen_session; /* the first line has been read */
    char *name;        /* the path, or "<stdin>", for messages */
    char *buf;         /* the current line */
    size_t cap;
    long line; /* 1-based number of the last line read */
    char *err; /* "FILE:LINE: what is wrong" */
    size_t err_len;
};

int cr_jsonl_reader_open(const char *path, cr_jsonl_reader_t **out)
{
    cr_jsonl_reader_t *r;
    struct stat st;
    const char *name;
    int saved;

    if (!path || !out) {
        errno = EINVAL;
        return CR_ERR_INVALID;
    }
    r = calloc(1, sizeof(*r));
    if (!r)
        return CR_ERR_NOMEM;
    name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    r->name = strdup(name);
    r->err_len = strlen(name) + CR_JSONL_MSG_LEN + 32;
    r->err = calloc(1, r->err_len);
    if (!r->name || !r->err)
        goto fail_nomem;
    if (strcmp(path, "-") == 0) {
        r->f = stdin;
    } else {
        r->f = fopen(path, "r");
        if (!r->f)
            goto fail_io;
        r->own = true;
        if (fstat(fileno(r->f), &st) == 0 && S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            goto fail_io;
        }
    }
    *out = r;
    return 0;

fail_io:
    saved = errno;
    cr_jsonl_reader_destroy(r);
    errno = saved;
    return CR_ERR_IO;
fail_nomem:
    cr_jsonl_reader_destroy(r);
    return CR_ERR_NOMEM;
}

/* Reads one line (without '\n') into r->buf; a line longer than
 * CR_JSONL_MAX_LINE is consumed and flagged. Returns 1 with *len set, 0 at
 * end of file, CR_ERR_IO or CR_ERR_NOMEM. */
static int cr_reader_getline(cr_jsonl_reader_t *r, size_t *len, bool *too_long)
{
    size_t n = 0;
    bool any = false;
    int ch;

    *too_long = false;
    while ((ch = getc(r->f)) != EOF) {
        any = true;
        if (ch == '\n')
            break;
        if (n >= CR_JSONL_MAX_LINE) {
            *too_long = true;
            continue;
        }
        if (n + 1 >= r->cap) {
            size_t cap = r->cap ? r->cap * 2 : 4096;
            char *p;

            if (cap > CR_JSONL_MAX_LINE + 1)
                cap = CR_JSONL_MAX_LINE + 1;
            p = realloc(r->buf, cap);
            if (!p)
                return CR_ERR_NOMEM;
            r->buf = p;
            r->cap = cap;
        }
        r->buf[n++] = (char)ch;
    }
    if (ferror(r->f))
        return CR_ERR_IO;
    if (!any)
        return 0;
    if (r->buf)
        r->buf[n] = '\0';
    *len = n;
    return 1;
}

int cr_jsonl_reader_next(cr_jsonl_reader_t *r, cr_event_t *ev)
{
    char msg[CR_JSONL_MSG_LEN];
    size_t len = 0;
    bool too_long;
    int rc;

    r->err[0] = '\0';
    for (;;) {
        rc = cr_reader_getline(r, &len, &too_long);
        if (rc == CR_ERR_IO) {
            snprintf(r->err, r->err_len, "%s:%ld: read error: %s", r->name, r->line + 1,
                     strerror(errno));
            return CR_ERR_IO;
        }
        if (rc == CR_ERR_NOMEM) {
            snprintf(r->err, r->err_len, "%s:%ld: out of memory", r->name, r->line + 1);
            return CR_ERR_NOMEM;
        }
        if (rc == 0) {
            if (!r->seen_session) {
                snprintf(r->err, r->err_len, "%s:%ld: no session line (empty stream)", r->name,
                         r->line + 1);
                return CR_ERR_PARSE;
            }
            return 0;
        }
        r->line++;
        if (too_long) {
            snprintf(r->err, r->err_len, "%s:%ld: line longer than %d bytes", r->name, r->line,
                     CR_JSONL_MAX_LINE);
            return CR_ERR_PARSE;
        }
        rc = cr_jsonl_parse_line(r->buf, len, !r->seen_session, ev, msg, sizeof(msg));
        if (rc == 1)
            continue;
        if (rc < 0) {
            snprintf(r->err, r->err_len, "%s:%ld: %s", r->name, r->line, msg);
            return rc;
        }
        r->seen_session = true;
        return 1;
    }
}

const char *cr_jsonl_reader_error(const cr_jsonl_reader_t *r)
{
    return r->err;
}

long cr_jsonl_reader_line(const cr_jsonl_reader_t *r)
{
    return r->line;
}

void cr_jsonl_reader_destroy(cr_jsonl_reader_t *r)
{
    if (!r)
        return;
    if (r->own && r->f)
        fclose(r->f);
    free(r->buf);
    free(r->name);
    free(r->err);
    free(r);
}

/* ---------------------------------------------------------------------- */
/* Writer                                                                  */

struct cr_jsonl_writer {
    FILE *f;
    bool is_stdout;
    bool failed;   /* a write failed: commit must not publish the file */
    int failed_errno;
    char *path;    /* the destination */
    char *tmp;     /* PATH.tmp-XXXXXX while open */
    char err[CR_JSONL_MSG_LEN];
};

static void cr_writer_free(cr_jsonl_writer_t *w)
{
    free(w->path);
    free(w->tmp);
    free(w);
}

int cr_jsonl_writer_open(const char *path, cr_jsonl_writer_t **out)
{
    static const char suffix[] = ".tmp-XXXXXX";
    cr_jsonl_writer_t *w;
    struct stat st;
    mode_t mode = 0644;
    size_t n;
    int fd = -1;
    int saved;

    if (!path || !out || !*path) {
        errno = EINVAL;
        return CR_ERR_INVALID;
    }
    w = calloc(1, sizeof(*w));
    if (!w)
        return CR_ERR_NOMEM;
    if (strcmp(path, "-") == 0) {
        w->f = stdout;
        w->is_stdout = true;
        *out = w;
        return 0;
    }
    n = strlen(path);
    w->path = strdup(path);
    w->tmp = malloc(n + sizeof(suffix));
    if (!w->path || !w->tmp)
        goto fail_nomem;
    memcpy(w->tmp, path, n);
    memcpy(w->tmp + n, suffix, sizeof(suffix));
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            goto fail_io;
        }
        mode = st.st_mode & 0777; /* replacing a file keeps its permissions */
    }
    fd = mkstemp(w->tmp);
    if (fd < 0) {
        free(w->tmp); /* nothing was created */
        w->tmp = NULL;
        goto fail_io;
    }
    if (fchmod(fd, mode) != 0)
        goto fail_io;
    w->f = fdopen(fd, "w");
    if (!w->f)
        goto fail_io;
    *out = w;
    return 0;

fail_io:
    saved = errno;
    if (fd >= 0)
        close(fd);
    if (w->tmp)
        unlink(w->tmp);
    cr_writer_free(w);
    errno = saved;
    return CR_ERR_IO;
fail_nomem:
    cr_writer_free(w);
    return CR_ERR_NOMEM;
}

static void cr_writer_io_fail(cr_jsonl_writer_t *w, int e)
{
    w->failed = true;
    w->failed_errno = e;
    snprintf(w->err, sizeof(w->err), "cannot write %s: %s", w->path ? w->path : "stdout",
             strerror(e));
}

int cr_jsonl_writer_write(cr_jsonl_writer_t *w, const cr_event_t *ev)
{
    char *s = NULL;
    size_t n;
    int rc;

    if (w->failed)
        return CR_ERR_IO;
    rc = cr_dump(ev, &s, w->err, sizeof(w->err));
    if (rc < 0)
        return rc; /* nothing written: the stream so far stays good */
    n = strlen(s);
    s[n] = '\n'; /* json_dumps' NUL becomes the newline; written by length */
    if (fwrite(s, 1, n + 1, w->f) != n + 1 || (w->is_stdout && fflush(w->f) != 0)) {
        cr_writer_io_fail(w, errno);
        rc = CR_ERR_IO;
    }
    free(s);
    return rc;
}

/* Makes the rename durable: best effort, a failure changes nothing. */
static void cr_sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir;
    int fd;

    if (!slash) {
        dir = strdup(".");
    } else {
        size_t n = slash == path ? 1 : (size_t)(slash - path);

        dir = malloc(n + 1);
        if (dir) {
            memcpy(dir, path, n);
            dir[n] = '\0';
        }
    }
    if (!dir)
        return;
    fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

int cr_jsonl_writer_commit(cr_jsonl_writer_t *w)
{
    FILE *f;
    int saved;

    if (!w) {
        errno = EINVAL;
        return CR_ERR_INVALID;
    }
    if (w->is_stdout) {
        saved = w->failed ? w->failed_errno : 0;
        if (fflush(stdout) != 0 && !saved)
            saved = errno;
        free(w);
        if (!saved)
            return 0;
        errno = saved;
        return CR_ERR_IO;
    }
    if (w->failed) {
        errno = w->failed_errno;
        goto fail_io;
    }
    if (fflush(w->f) != 0 || fsync(fileno(w->f)) != 0)
        goto fail_io;
    f = w->f;
    w->f = NULL;
    if (fclose(f) != 0)
        goto fail_io;
    if (rename(w->tmp, w->path) != 0)
        goto fail_io;
    cr_sync_dir(w->path);
    cr_writer_free(w);
    return 0;

fail_io:
    saved = errno;
    if (w->f)
        fclose(w->f);
    unlink(w->tmp);
    cr_writer_free(w);
    errno = saved;
    return CR_ERR_IO;
}

void cr_jsonl_writer_abort(cr_jsonl_writer_t *w)
{
    if (!w)
        return;
    if (!w->is_stdout) {
        if (w->f)
            fclose(w->f);
        if (w->tmp)
            unlink(w->tmp);
        cr_writer_free(w);
        return;
    }
    fflush(stdout);
    free(w);
}

const char *cr_jsonl_writer_error(const cr_jsonl_writer_t *w)
{
    return w->err;
}
