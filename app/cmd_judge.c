/*
 * cmd_judge.c - `cueref judge EVENTS.jsonl [--game G]`: re-runs the rules
 * engine on an event stream and writes the foul and ruling lines it derives;
 * `cueref demo` judges the bundled example matches.
 *
 * The whole input is read and judged before anything is written, so a
 * malformed line (reported as FILE:LINE) leaves no partial output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cr_jsonl.h"
#include "cr_rules.h"

#ifndef CR_EXAMPLES_DIR
#define CR_EXAMPLES_DIR "examples"
#endif

/* A growing text buffer for the summary. */
typedef struct {
    char *data;
    size_t len, cap;
} cr_buf_t;

/* The derived events, kept until the whole input has been judged. */
typedef struct {
    cr_event_t *ev;
    size_t n, cap;
} cr_evbuf_t;

static int evbuf_add(cr_evbuf_t *b, const cr_event_t *ev)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        cr_event_t *d = realloc(b->ev, cap * sizeof(*d));

        if (!d)
            return CR_ERR_NOMEM;
        b->ev = d;
        b->cap = cap;
    }
    b->ev[b->n++] = *ev;
    return CR_OK;
}

static int buf_add(cr_buf_t *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 65536;
        char *d;

        while (cap < b->len + n + 1)
            cap *= 2;
        d = realloc(b->data, cap);
        if (!d)
            return CR_ERR_NOMEM;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return CR_OK;
}

static int buf_printf(cr_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int buf_printf(cr_buf_t *b, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n < 0)
        return CR_ERR_INVALID;
    return buf_add(b, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static void clock_text(double t, char out[32])
{
    int m;

    if (!isfinite(t) || t < 0) {
        snprintf(out, 32, "--:--.-");
        return;
    }
    m = (int)(t / 60.0);
    snprintf(out, 32, "%02d:%04.1f", m, t - 60.0 * m);
}

/* One readable line per ruling (fouls are listed inside the ruling). */
static int text_line(cr_buf_t *b, const cr_event_t *ev, cr_game_t game)
{
    const cr_ruling_t *r = &ev->ruling;
    char when[32], calls[256] = "";
    int i;

    if (ev->type != CR_EV_RULING)
        return CR_OK;
    clock_text(ev->t, when);
    if (r->kind == CR_RULING_LAG)
        return buf_printf(b, "lag at %s: %s\n", when, r->detail);
    for (i = 0; i < r->n_fouls; i++) {
        size_t n = strlen(calls);

        snprintf(calls + n, sizeof(calls) - n, "%s%s (%s)", i ? ", " : "FOUL ", r->fouls[i],
                 cr_rules_foul_rule(r->fouls[i], game));
    }
    if (r->kind == CR_RULING_BETWEEN)
        return buf_printf(b, "between shots at %s, player %d: %s -- %s\n", when, r->player, calls, r->detail);
    return buf_printf(b, "shot %d at %s, player %d: %s -- %s%s\n", ev->shot, when, r->player,
                      r->legal ? "legal" : calls, r->detail, r->game_over ? "  [GAME OVER]" : "");
}

static void judge_usage(FILE *f)
{
    fprintf(f,
            "usage: cueref judge EVENTS.jsonl [options]\n"
            "Re-runs the rules engine on an event stream (SPEC §3; '-' reads stdin) and writes\n"
            "the foul and ruling lines it derives, after a session line. Any foul or ruling\n"
            "lines in the input are ignored.\n\n"
            "options:\n"
            "  --game G          8ball|9ball|10ball|14.1|none (default: the session's game, else none)\n"
            "  --table SIZE      9ft|8ft|7ft|LxW in mm (default: the session's table, else 9ft)\n"
            "  --rules EDITION   wpa2008 (default) | wpa2025 | bca\n"
            "  --rule KEY=VALUE  one rule switch (docs/RULES-ENGINE.md), repeatable\n"
            "  --shot-clock S    impose a shot clock of S seconds (6.15)\n"
            "  -o, --out FILE    write the JSON lines to FILE (atomically) and a summary to stdout\n"
            "  --text            print a readable per-shot summary instead of JSON lines\n"
            "  -h, --help        this help\n");
}

typedef struct {
    const char *game;
    const char *table;
    const char *rules;
    const char *out;
    bool text;
    int n_rule;
    char *rule[64];
    const char *shot_clock;
} judge_opts_t;

/* Judges one stream into the buffers. Returns an exit code. */
static int judge_stream(const char *path, const judge_opts_t *o, cr_evbuf_t *events, cr_buf_t *text)
{
    cr_jsonl_reader_t *rd = NULL;
    cr_judge_t *judge = NULL;
    cr_rules_params_t p;
    cr_event_t *ev = NULL, *out = NULL, session;
    int rc = CR_EXIT_FAIL, st, n, i, k;

    ev = malloc(sizeof(*ev));
    out = malloc(sizeof(*out) * CR_JUDGE_MAX_OUT);
    if (!ev || !out) {
        cr_cli_error("out of memory");
        goto done;
    }
    if (cr_jsonl_reader_open(path, &rd) != CR_OK) {
        cr_cli_error("%s: cannot open: %s", path, strerror(errno));
        goto done;
    }
    st = cr_jsonl_reader_next(rd, &session);
    if (st <= 0) {
        cr_cli_error("%s", st == 0 ? "empty event stream (no session line)" : cr_jsonl_reader_error(rd));
        if (st == 0)
            fprintf(stderr, "cueref: %s:1: the first line must be the session line\n", path);
        goto done;
    }

    cr_rules_params_defaults(&p);
    if (isfinite(session.table_length_mm) && isfinite(session.table_width_mm) && session.table_length_mm > 0 &&
        session.table_width_mm > 0)
        cr_table_init(&p.table, session.table_length_mm, session.table_width_mm);
    p.game = session.game;
    if (o->game && cr_game_parse(o->game, &p.game) != CR_OK) {
        cr_cli_error("unknown game '%s' (8ball, 9ball, 10ball, 14.1, none)", o->game);
        rc = CR_EXIT_USAGE;
        goto done;
    }
    if (o->table && cr_table_parse(o->table, &p.table) != CR_OK) {
        cr_cli_error("bad table size '%s' (9ft, 8ft, 7ft or LxW in mm)", o->table);
        rc = CR_EXIT_USAGE;
        goto done;
    }
    if (!o->rules && session.rules[0] && cr_rules_params_set_edition(&p, session.rules) != CR_OK)
        fprintf(stderr, "cueref: %s: unknown rules edition '%s' in the session line; using wpa2008\n", path,
                session.rules);
    if (o->rules && cr_rules_params_set_edition(&p, o->rules) != CR_OK) {
        cr_cli_error("unknown rules edition '%s' (wpa2008, wpa2025, bca)", o->rules);
        rc = CR_EXIT_USAGE;
        goto done;
    }
    if (o->shot_clock && cr_rules_params_set(&p, "shot_clock", o->shot_clock) != CR_OK) {
        cr_cli_error("bad --shot-clock '%s' (seconds, 0..3600)", o->shot_clock);
        rc = CR_EXIT_USAGE;
        goto done;
    }
    for (i = 0; i < o->n_rule; i++) {
        char *eq = strchr(o->rule[i], '=');

        if (!eq) {
            cr_cli_error("--rule wants KEY=VALUE, got '%s'", o->rule[i]);
            rc = CR_EXIT_USAGE;
            goto done;
        }
        *eq = '\0';
        st = cr_rules_params_set(&p, o->rule[i], eq + 1);
        *eq = '=';
        if (st != CR_OK) {
            cr_cli_error("unknown rule switch or value '%s' (see docs/RULES-ENGINE.md)", o->rule[i]);
            rc = CR_EXIT_USAGE;
            goto done;
        }
    }
    if (cr_judge_create(&p, &judge) != CR_OK) {
        cr_cli_error("cannot create the rules engine");
        goto done;
    }

    /* Our own session line: the input's, with the rules actually used. */
    cr_event_init(ev, CR_EV_SESSION);
    *ev = session;
    ev->game = p.game;
    ev->table_length_mm = p.table.length_mm;
    ev->table_width_mm = p.table.width_mm;
    snprintf(ev->rules, sizeof(ev->rules), "%s", o->rules ? o->rules : (session.rules[0] ? session.rules : "wpa2008"));
    if (evbuf_add(events, ev))
        goto nomem;
    if (buf_printf(text, "== %s: game %s, rules %s, table %.0f x %.0f mm\n", path, cr_game_name(p.game), ev->rules,
                   p.table.length_mm, p.table.width_mm))
        goto nomem;

    for (;;) {
        st = cr_jsonl_reader_next(rd, ev);
        if (st == 0)
            break;
        if (st < 0) {
            fprintf(stderr, "cueref: %s\n", cr_jsonl_reader_error(rd));
            goto done;
        }
        n = cr_judge_feed(judge, ev, out, CR_JUDGE_MAX_OUT);
        if (n < 0) {
            fprintf(stderr, "cueref: %s:%ld: %s\n", path, cr_jsonl_reader_line(rd), cr_judge_error(judge));
            goto done;
        }
        for (k = 0; k < n; k++)
            if (evbuf_add(events, &out[k]) || text_line(text, &out[k], p.game))
                goto nomem;
    }
    n = cr_judge_finish(judge, out, CR_JUDGE_MAX_OUT);
    for (k = 0; k < n; k++)
        if (evbuf_add(events, &out[k]) || text_line(text, &out[k], p.game))
            goto nomem;
    rc = CR_EXIT_OK;
    goto done;
nomem:
    cr_cli_error("out of memory while judging %s", path);
done:
    cr_judge_destroy(judge);
    cr_jsonl_reader_destroy(rd);
    free(ev);
    free(out);
    return rc;
}

/* Writes the results where the options say: JSON lines to -o FILE (through a
 * temporary renamed into place) or stdout, the summary to stdout. */
static int write_results(const judge_opts_t *o, const cr_evbuf_t *events, const cr_buf_t *text)
{
    cr_jsonl_writer_t *w = NULL;
    const char *dest = o->out ? o->out : "-";
    size_t i;

    if (!o->out && o->text) {
        fwrite(text->data, 1, text->len, stdout);
        return fflush(stdout) == 0 ? CR_EXIT_OK : CR_EXIT_FAIL;
    }
    if (cr_jsonl_writer_open(dest, &w) != CR_OK) {
        cr_cli_error("cannot write %s: %s", dest, strerror(errno));
        return CR_EXIT_FAIL;
    }
    for (i = 0; i < events->n; i++) {
        if (cr_jsonl_writer_write(w, &events->ev[i]) != CR_OK) {
            cr_cli_error("cannot write %s: %s", dest, cr_jsonl_writer_error(w));
            cr_jsonl_writer_abort(w);
            return CR_EXIT_FAIL;
        }
    }
    if (cr_jsonl_writer_commit(w) != CR_OK) {
        cr_cli_error("cannot write %s", dest);
        return CR_EXIT_FAIL;
    }
    if (o->out && text->len)
        fwrite(text->data, 1, text->len, stdout);
    return fflush(stdout) == 0 ? CR_EXIT_OK : CR_EXIT_FAIL;
}

int cr_cmd_judge(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"game", required_argument, NULL, 'g'},   {"table", required_argument, NULL, 't'},
        {"rules", required_argument, NULL, 'r'},  {"rule", required_argument, NULL, 'R'},
        {"shot-clock", required_argument, NULL, 'c'}, {"out", required_argument, NULL, 'o'},
        {"text", no_argument, NULL, 'x'},         {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    judge_opts_t o;
    cr_evbuf_t events = {0};
    cr_buf_t text = {0};
    int c, rc;

    memset(&o, 0, sizeof(o));
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'g':
            o.game = optarg;
            break;
        case 't':
            o.table = optarg;
            break;
        case 'r':
            o.rules = optarg;
            break;
        case 'R':
            if (o.n_rule >= 64) {
                cr_cli_error("too many --rule options");
                return CR_EXIT_USAGE;
            }
            o.rule[o.n_rule++] = optarg;
            break;
        case 'c':
            o.shot_clock = optarg;
            break;
        case 'o':
            o.out = optarg;
            break;
        case 'x':
            o.text = true;
            break;
        case 'h':
            judge_usage(stdout);
            return CR_EXIT_OK;
        case ':':
            cr_cli_error("judge: option '%s' needs a value", argv[optind - 1]);
            return CR_EXIT_USAGE;
        default:
            cr_cli_error("judge: unknown option '%s' (see cueref judge --help)", argv[optind - 1]);
            return CR_EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        cr_cli_error("judge: %s (see cueref judge --help)",
                     optind >= argc ? "give one EVENTS.jsonl file" : "give exactly one EVENTS.jsonl file");
        return CR_EXIT_USAGE;
    }
    rc = judge_stream(argv[optind], &o, &events, &text);
    if (rc == CR_EXIT_OK)
        rc = write_results(&o, &events, &text);
    free(events.ev);
    free(text.data);
    return rc;
}

int cr_cmd_demo(int argc, char **argv)
{
    static const struct {
        const char *file;
        const char *game;
    } demos[] = {
        {"match-9ball.jsonl", "9ball"},
        {"match-8ball.jsonl", "8ball"},
    };
    judge_opts_t o;
    cr_evbuf_t events = {0};
    cr_buf_t text = {0};
    char path[4096];
    size_t i;
    int rc = CR_EXIT_OK;

    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: cueref demo\nJudges the bundled example matches (%s) and prints the calls.\n"
               "Video review, which the demo will show once it exists, is not available yet.\n",
               CR_EXAMPLES_DIR);
        return CR_EXIT_OK;
    }
    if (argc > 1) {
        cr_cli_error("demo takes no arguments");
        return CR_EXIT_USAGE;
    }
    for (i = 0; i < sizeof(demos) / sizeof(demos[0]) && rc == CR_EXIT_OK; i++) {
        memset(&o, 0, sizeof(o));
        o.game = demos[i].game;
        o.text = true;
        snprintf(path, sizeof(path), "%s/%s", CR_EXAMPLES_DIR, demos[i].file);
        text.len = 0;
        events.n = 0;
        rc = judge_stream(path, &o, &events, &text);
        if (rc == CR_EXIT_OK)
            rc = write_results(&o, &events, &text);
        printf("\n");
    }
    if (rc == CR_EXIT_OK)
        printf("The event streams are in %s; judge one yourself with\n"
               "  cueref judge %s/match-9ball.jsonl --game 9ball --text\n",
               CR_EXAMPLES_DIR, CR_EXAMPLES_DIR);
    free(events.ev);
    free(text.data);
    return rc;
}
