/*
 * cr_scenario.c - loads scenario files (docs/SCENARIO.md) with jansson.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cr_scenario.h"

typedef struct {
    char *err;
    size_t err_len;
    int failed;
} ctx_t;

static int fail(ctx_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ctx_t *c, const char *fmt, ...)
{
    va_list ap;

    if (!c->failed && c->err && c->err_len) {
        va_start(ap, fmt);
        vsnprintf(c->err, c->err_len, fmt, ap);
        va_end(ap);
    }
    c->failed = 1;
    return CR_ERR_PARSE;
}

/* Every key of obj must be in the NULL-terminated list. */
static int check_keys(ctx_t *c, json_t *obj, const char *where, const char *const *keys)
{
    const char *k;
    json_t *v;
    int i, ok;

    json_object_foreach(obj, k, v) {
        ok = 0;
        for (i = 0; keys[i]; i++)
            if (!strcmp(k, keys[i]))
                ok = 1;
        if (!ok)
            return fail(c, "%s: unknown key \"%s\"", where, k);
        (void)v;
    }
    return 0;
}

static int get_num(ctx_t *c, json_t *obj, const char *key, const char *where, double lo, double hi, double *out)
{
    json_t *v = json_object_get(obj, key);

    if (!v)
        return 0;
    if (!json_is_number(v))
        return fail(c, "%s: \"%s\" must be a number", where, key);
    if (!(json_number_value(v) >= lo && json_number_value(v) <= hi))
        return fail(c, "%s: \"%s\" must be in %g..%g", where, key, lo, hi);
    *out = json_number_value(v);
    return 0;
}

static int get_point(ctx_t *c, json_t *v, const char *where, cr_point_t *p)
{
    if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_number(json_array_get(v, 0)) ||
        !json_is_number(json_array_get(v, 1)))
        return fail(c, "%s: want [x, y] in mm", where);
    p->x = json_number_value(json_array_get(v, 0));
    p->y = json_number_value(json_array_get(v, 1));
    if (!isfinite(p->x) || !isfinite(p->y))
        return fail(c, "%s: want finite numbers", where);
    return 0;
}

static int get_ball_id(ctx_t *c, json_t *v, const char *where, int *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > CR_BALL_MAX)
        return fail(c, "%s: a ball id 0..15", where);
    *out = (int)json_integer_value(v);
    return 0;
}

static int parse_camera(ctx_t *c, json_t *cam, cr_scn_camera_t *out)
{
    static const char *const keys[] = {"tilt_deg", "yaw_deg", "offset_mm", "height_mm", "k1", "k2", NULL};
    cr_point_t off;
    json_t *v;

    if (!json_is_object(cam))
        return fail(c, "camera: want an object");
    if (check_keys(c, cam, "camera", keys))
        return CR_ERR_PARSE;
    if (get_num(c, cam, "tilt_deg", "camera", 0, 30, &out->tilt_deg) ||
        get_num(c, cam, "yaw_deg", "camera", -180, 180, &out->yaw_deg) ||
        get_num(c, cam, "height_mm", "camera", 0, 20000, &out->height_mm) ||
        get_num(c, cam, "k1", "camera", -1, 1, &out->k1) || get_num(c, cam, "k2", "camera", -1, 1, &out->k2))
        return CR_ERR_PARSE;
    v = json_object_get(cam, "offset_mm");
    if (v) {
        if (get_point(c, v, "camera.offset_mm", &off))
            return CR_ERR_PARSE;
        out->offset_x_mm = off.x;
        out->offset_y_mm = off.y;
    }
    return 0;
}

static int parse_rack(ctx_t *c, json_t *root, cr_scenario_t *s)
{
    cr_ball_pos_t rack[CR_NUM_BALLS];
    cr_game_t g;
    cr_point_t cue = {cr_table_head_string_x(&s->table) - 150.0, cr_table_long_string_y(&s->table) - 80.0};
    json_t *v = json_object_get(root, "rack"), *cv = json_object_get(root, "cue");
    int n, i;

    if (!json_is_string(v) || cr_game_parse(json_string_value(v), &g) != CR_OK || g == CR_GAME_NONE)
        return fail(c, "rack: one of \"8ball\", \"9ball\", \"10ball\", \"14.1\"");
    if (cv && get_point(c, cv, "cue", &cue))
        return CR_ERR_PARSE;
    n = cr_table_rack(&s->table, g, strcmp(s->rules, "wpa2025") ? CR_EDITION_WPA2008 : CR_EDITION_WPA2025, s->seed,
                      rack, CR_NUM_BALLS);
    if (n <= 0)
        return fail(c, "rack: cannot rack %s", json_string_value(v));
    s->n_balls = 0;
    s->balls[s->n_balls].id = CR_BALL_CUE;
    s->balls[s->n_balls].x = cue.x;
    s->balls[s->n_balls].y = cue.y;
    s->n_balls++;
    for (i = 0; i < n && s->n_balls < CR_NUM_BALLS; i++)
        s->balls[s->n_balls++] = rack[i];
    return 0;
}

static int parse_balls(ctx_t *c, json_t *arr, cr_scenario_t *s)
{
    static const char *const keys[] = {"id", "x", "y", NULL};
    bool seen[CR_NUM_BALLS] = {false};
    size_t i;
    json_t *b;

    if (!json_is_array(arr) || json_array_size(arr) > CR_NUM_BALLS)
        return fail(c, "balls: want an array of at most 16 {\"id\",\"x\",\"y\"}");
    s->n_balls = 0;
    json_array_foreach(arr, i, b) {
        cr_ball_pos_t *p = &s->balls[s->n_balls];
        double x = NAN, y = NAN;

        if (!json_is_object(b) || check_keys(c, b, "balls[]", keys))
            return fail(c, "balls[%zu]: want {\"id\",\"x\",\"y\"}", i);
        if (get_ball_id(c, json_object_get(b, "id"), "balls[].id", &p->id))
            return CR_ERR_PARSE;
        if (seen[p->id])
            return fail(c, "balls: ball %d given twice", p->id);
        seen[p->id] = true;
        if (get_num(c, b, "x", "balls[]", -100, s->table.length_mm + 100, &x) ||
            get_num(c, b, "y", "balls[]", -100, s->table.width_mm + 100, &y))
            return CR_ERR_PARSE;
        if (!isfinite(x) || !isfinite(y))
            return fail(c, "balls[%zu]: x and y are required", i);
        p->x = x;
        p->y = y;
        s->n_balls++;
    }
    return 0;
}

static int parse_script(ctx_t *c, json_t *arr, cr_scn_shot_t *sh, size_t shot_i)
{
    static const char *const keys[] = {"touch", "drop", "leave", "at_contact", "t", "v", NULL};
    size_t i;
    json_t *e, *v;
    char where[64];

    if (!json_is_array(arr) || json_array_size(arr) > CR_SCN_MAX_SCRIPT)
        return fail(c, "shots[%zu].script: want an array of at most %d entries", shot_i, CR_SCN_MAX_SCRIPT);
    json_array_foreach(arr, i, e) {
        cr_scn_script_t *sc = &sh->script[sh->n_script];
        cr_point_t vel;

        snprintf(where, sizeof(where), "shots[%zu].script[%zu]", shot_i, i);
        if (!json_is_object(e) || check_keys(c, e, where, keys))
            return fail(c, "%s: want {\"touch\": ball, \"t\", \"v\"} or {\"drop\": ball, \"t\"}", where);
        memset(sc, 0, sizeof(*sc));
        sc->t_s = NAN;
        if ((v = json_object_get(e, "leave"))) {
            double nth = 1;

            sc->kind = CR_SCRIPT_LEAVE;
            sc->t_s = 0;
            if (get_ball_id(c, v, where, &sc->ball) || get_num(c, e, "at_contact", where, 1, 100, &nth))
                return CR_ERR_PARSE;
            sc->nth = (int)nth;
            sh->n_script++;
            continue;
        }
        if (get_num(c, e, "t", where, 0, 600, &sc->t_s))
            return CR_ERR_PARSE;
        if (!isfinite(sc->t_s))
            return fail(c, "%s: \"t\" (seconds after the stroke) is required", where);
        if ((v = json_object_get(e, "touch"))) {
            sc->kind = CR_SCRIPT_TOUCH;
            if (get_ball_id(c, v, where, &sc->ball))
                return CR_ERR_PARSE;
            if (!json_object_get(e, "v") || get_point(c, json_object_get(e, "v"), where, &vel))
                return fail(c, "%s: a touch needs \"v\": [vx, vy] in mm/s", where);
            sc->vx = vel.x;
            sc->vy = vel.y;
        } else if ((v = json_object_get(e, "drop"))) {
            sc->kind = CR_SCRIPT_DROP;
            if (get_ball_id(c, v, where, &sc->ball))
                return CR_ERR_PARSE;
        } else {
            return fail(c, "%s: want \"touch\", \"drop\" or \"leave\"", where);
        }
        sh->n_script++;
    }
    return 0;
}

static int parse_shot(ctx_t *c, json_t *o, cr_scn_shot_t *sh, size_t i)
{
    static const char *const keys[] = {"wait", "place", "aim", "speed", "tip", "call", "safety", "push_out",
                                       "cue", "script", NULL};
    static const char *const aim_keys[] = {"deg", "ball", "cut", NULL};
    static const char *const call_keys[] = {"ball", "pocket", NULL};
    char where[48];
    json_t *v;
    double speed = 3.0;
    cr_point_t tip;

    snprintf(where, sizeof(where), "shots[%zu]", i);
    memset(sh, 0, sizeof(*sh));
    sh->wait_s = 2.0;
    sh->call_ball = -1;
    sh->call_pocket = CR_POCKET_NONE;
    sh->show_cue = true;
    sh->aim = CR_AIM_ANGLE;
    if (!json_is_object(o) || check_keys(c, o, where, keys))
        return fail(c, "%s: want an object", where);
    if (get_num(c, o, "wait", where, -10, 600, &sh->wait_s) || get_num(c, o, "speed", where, 0.01, 12, &speed))
        return CR_ERR_PARSE;
    sh->speed_mm_s = speed * 1000.0;
    if ((v = json_object_get(o, "place"))) {
        if (get_point(c, v, where, &sh->place))
            return CR_ERR_PARSE;
        sh->has_place = true;
    }
    v = json_object_get(o, "aim");
    if (!v || !json_is_object(v) || check_keys(c, v, "aim", aim_keys))
        return fail(c, "%s: \"aim\" is required: {\"deg\": heading} or {\"ball\": id, \"cut\": -1..1}", where);
    if (json_object_get(v, "ball")) {
        sh->aim = CR_AIM_BALL;
        if (get_ball_id(c, json_object_get(v, "ball"), where, &sh->aim_ball) ||
            get_num(c, v, "cut", where, -1, 1, &sh->cut))
            return CR_ERR_PARSE;
    } else if (json_object_get(v, "deg")) {
        if (get_num(c, v, "deg", where, -360, 360, &sh->aim_deg))
            return CR_ERR_PARSE;
    } else {
        return fail(c, "%s: \"aim\" wants \"deg\" or \"ball\"", where);
    }
    if ((v = json_object_get(o, "tip"))) {
        if (get_point(c, v, where, &tip) || fabs(tip.x) > 0.6 || fabs(tip.y) > 0.6)
            return fail(c, "%s: \"tip\" wants [side, height] as fractions of R within -0.6..0.6", where);
        sh->tip_side = tip.x;
        sh->tip_height = tip.y;
    }
    if ((v = json_object_get(o, "call"))) {
        json_t *p;

        if (!json_is_object(v) || check_keys(c, v, "call", call_keys) ||
            get_ball_id(c, json_object_get(v, "ball"), where, &sh->call_ball))
            return fail(c, "%s: \"call\" wants {\"ball\": id, \"pocket\": name}", where);
        p = json_object_get(v, "pocket");
        if (!json_is_string(p) || (sh->call_pocket = cr_pocket_parse(json_string_value(p))) == CR_POCKET_NONE)
            return fail(c, "%s: \"call\" needs a pocket name (head-left, ..., foot-right)", where);
    }
    if ((v = json_object_get(o, "safety")))
        sh->safety = json_is_true(v);
    if ((v = json_object_get(o, "push_out")))
        sh->push_out = json_is_true(v);
    if ((v = json_object_get(o, "cue")))
        sh->show_cue = json_is_true(v);
    if ((v = json_object_get(o, "script")) && parse_script(c, v, sh, i))
        return CR_ERR_PARSE;
    return 0;
}

void cr_scenario_defaults(cr_scenario_t *s)
{
    memset(s, 0, sizeof(*s));
    cr_table_init(&s->table, 2540.0, 1270.0);
    s->game = CR_GAME_NONE;
    snprintf(s->rules, sizeof(s->rules), "wpa2008");
    s->fps = 60.0;
    s->width = 1920;
    s->height = 1080;
    s->seed = 1;
    snprintf(s->cloth, sizeof(s->cloth), "blue");
    s->light = 1.0;
    s->noise = 2.0;
    s->blur_subframes = 4;
    s->shutter = 0.5;
}

static int parse_root(ctx_t *c, json_t *root, cr_scenario_t *s)
{
    static const char *const keys[] = {"version", "table", "game", "rules", "fps", "size", "seed", "cloth", "light",
                                       "noise", "blur", "shutter", "camera", "rack", "cue", "balls", "shots", NULL};
    static const char *const cloths[] = {"blue", "green", "red", "tan", "grey", NULL};
    json_t *v;
    double d;
    size_t i;
    int k, ok;

    if (!json_is_object(root))
        return fail(c, "the scenario must be a JSON object");
    if (check_keys(c, root, "scenario", keys))
        return CR_ERR_PARSE;
    v = json_object_get(root, "version");
    if (!json_is_integer(v) || json_integer_value(v) != 1)
        return fail(c, "\"version\": 1 is required");
    if ((v = json_object_get(root, "table"))) {
        if (!json_is_string(v) || cr_table_parse(json_string_value(v), &s->table) != CR_OK)
            return fail(c, "\"table\": 9ft, 8ft, 7ft or LxW in mm");
    }
    if ((v = json_object_get(root, "game")) &&
        (!json_is_string(v) || cr_game_parse(json_string_value(v), &s->game) != CR_OK))
        return fail(c, "\"game\": 8ball, 9ball, 10ball, 14.1 or none");
    if ((v = json_object_get(root, "rules"))) {
        if (!json_is_string(v) || strlen(json_string_value(v)) >= sizeof(s->rules))
            return fail(c, "\"rules\": wpa2008, wpa2025 or bca");
        snprintf(s->rules, sizeof(s->rules), "%s", json_string_value(v));
    }
    if (get_num(c, root, "fps", "scenario", 1, 1000, &s->fps) || get_num(c, root, "light", "scenario", 0.1, 4, &s->light) ||
        get_num(c, root, "noise", "scenario", 0, 50, &s->noise) ||
        get_num(c, root, "shutter", "scenario", 0, 1, &s->shutter))
        return CR_ERR_PARSE;
    d = s->blur_subframes;
    if (get_num(c, root, "blur", "scenario", 1, 64, &d))
        return CR_ERR_PARSE;
    s->blur_subframes = (int)d;
    if ((v = json_object_get(root, "size"))) {
        if (!json_is_string(v) || sscanf(json_string_value(v), "%dx%d", &s->width, &s->height) != 2 ||
            s->width < 64 || s->height < 64 || s->width > 7680 || s->height > 4320)
            return fail(c, "\"size\": WxH, e.g. \"1920x1080\"");
    }
    if ((v = json_object_get(root, "seed"))) {
        if (!json_is_integer(v) || json_integer_value(v) < 0)
            return fail(c, "\"seed\": a non-negative integer");
        s->seed = (uint64_t)json_integer_value(v);
    }
    if ((v = json_object_get(root, "cloth"))) {
        ok = 0;
        for (k = 0; json_is_string(v) && cloths[k]; k++)
            if (!strcmp(cloths[k], json_string_value(v)))
                ok = 1;
        if (!ok)
            return fail(c, "\"cloth\": blue, green, red, tan or grey");
        snprintf(s->cloth, sizeof(s->cloth), "%s", json_string_value(v));
    }
    if ((v = json_object_get(root, "camera")) && parse_camera(c, v, &s->camera))
        return CR_ERR_PARSE;
    if (json_object_get(root, "rack") && json_object_get(root, "balls"))
        return fail(c, "give \"rack\" or \"balls\", not both");
    if (json_object_get(root, "rack")) {
        if (parse_rack(c, root, s))
            return CR_ERR_PARSE;
    } else if ((v = json_object_get(root, "balls"))) {
        if (parse_balls(c, v, s))
            return CR_ERR_PARSE;
    } else {
        return fail(c, "\"rack\" or \"balls\" is required");
    }
    v = json_object_get(root, "shots");
    if (!json_is_array(v) || json_array_size(v) > CR_SCN_MAX_SHOTS)
        return fail(c, "\"shots\": an array of at most %d shots", CR_SCN_MAX_SHOTS);
    s->n_shots = 0;
    for (i = 0; i < json_array_size(v); i++) {
        if (parse_shot(c, json_array_get(v, i), &s->shots[s->n_shots], i))
            return CR_ERR_PARSE;
        s->n_shots++;
    }
    return 0;
}

static int load(json_t *root, json_error_t *jerr, cr_scenario_t *s, char *err, size_t err_len)
{
    ctx_t c = {err, err_len, 0};
    int rc;

    cr_scenario_defaults(s);
    if (!root) {
        if (err && err_len)
            snprintf(err, err_len, "line %d, column %d: %s", jerr->line, jerr->column, jerr->text);
        return CR_ERR_PARSE;
    }
    rc = parse_root(&c, root, s);
    json_decref(root);
    return rc ? CR_ERR_PARSE : CR_OK;
}

int cr_scenario_parse(const char *text, cr_scenario_t *s, char *err, size_t err_len)
{
    json_error_t jerr;

    return load(json_loads(text, JSON_REJECT_DUPLICATES, &jerr), &jerr, s, err, err_len);
}

int cr_scenario_load(const char *path, cr_scenario_t *s, char *err, size_t err_len)
{
    json_error_t jerr;
    FILE *f = fopen(path, "rb");
    json_t *root;

    if (!f) {
        if (err && err_len)
            snprintf(err, err_len, "cannot read the scenario file");
        return CR_ERR_IO;
    }
    root = json_loadf(f, JSON_REJECT_DUPLICATES, &jerr);
    fclose(f);
    return load(root, &jerr, s, err, err_len);
}
