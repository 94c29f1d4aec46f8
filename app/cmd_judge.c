/*
 * cmd_judge.c - `cueref judge EVENTS.jsonl [--game G]`: re-runs the rules
 * engine on an event stream and writes the foul and ruling lines it derives.
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

/* One readable line per ruling (fouls are listed inside the ruling). */
static int text_line(cr_buf_t *b, const cr_event_t *ev, const cr_cli_last_stroke_t *last, cr_game_t game)
{
    char line[2048];

    if (!cr_cli_ruling_text(ev, last, game, line, sizeof(line)))
        return CR_OK;
    return buf_printf(b, "%s\n", line);
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
    cr_rules_opts_t r;
    const char *out;
    bool text;
} judge_opts_t;

/* Judges one stream into the buffers. Returns an exit code. */
static int judge_stream(const char *path, const judge_opts_t *o, cr_evbuf_t *events, cr_buf_t *text)
{
    cr_jsonl_reader_t *rd = NULL;
    cr_judge_t *judge = NULL;
    cr_rules_params_t p;
    cr_event_t *ev = NULL, *out = NULL, session;
    cr_cli_last_stroke_t last = CR_CLI_LAST_STROKE_INIT;
    int rc = CR_EXIT_FAIL, st, n, k;

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

    rc = cr_cli_rules_params(&o->r, &session, &p);
    if (rc != CR_EXIT_OK)
        goto done;
    rc = CR_EXIT_FAIL;
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
    snprintf(ev->rules, sizeof(ev->rules), "%s", o->r.rules ? o->r.rules : (session.rules[0] ? session.rules : "wpa2008"));
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
            if (evbuf_add(events, &out[k]) || text_line(text, &out[k], &last, p.game))
                goto nomem;
        cr_cli_note_stroke(&last, ev); /* after: a stroke may close the shot before it */
    }
    n = cr_judge_finish(judge, out, CR_JUDGE_MAX_OUT);
    for (k = 0; k < n; k++)
        if (evbuf_add(events, &out[k]) || text_line(text, &out[k], &last, p.game))
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
        case 't':
        case 'r':
        case 'R':
        case 'c':
            if (cr_cli_rules_option(&o.r, c, optarg) != CR_EXIT_OK)
                return CR_EXIT_USAGE;
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
