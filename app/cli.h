/*
 * cli.h - the cueref program's commands. Each returns the process exit code
 * (SPEC §2: 0 success, 1 runtime failure, 2 usage error) and prints its
 * errors to stderr as one line.
 */
#ifndef CR_CLI_H
#define CR_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "cr_event.h"
#include "cr_rules.h"

#define CR_EXIT_OK 0
#define CR_EXIT_FAIL 1
#define CR_EXIT_USAGE 2

int cr_cmd_judge(int argc, char **argv);
int cr_cmd_demo(int argc, char **argv);
int cr_cmd_sim(int argc, char **argv);
int cr_cmd_calibrate(int argc, char **argv);
int cr_cmd_eval(int argc, char **argv);

int cr_cmd_review(int argc, char **argv);

/* The rules options shared by judge and review: --game, --table, --rules,
 * --rule KEY=VALUE (repeatable), --shot-clock. */
typedef struct {
    const char *game;
    const char *table;
    const char *rules;
    const char *shot_clock;
    int n_rule;
    char *rule[64];
} cr_rules_opts_t;

/* Records one of those options (c: 'g', 't', 'r', 'R', 'c' as in the
 * commands' getopt tables). Returns CR_EXIT_OK or CR_EXIT_USAGE (printed). */
int cr_cli_rules_option(cr_rules_opts_t *o, int c, const char *value);

/* The rules parameters: the session line's table, game and edition (session
 * may be NULL), then the options over them. Returns CR_EXIT_OK, or
 * CR_EXIT_USAGE after printing what is wrong. */
int cr_cli_rules_params(const cr_rules_opts_t *o, const cr_event_t *session, cr_rules_params_t *p);

/* The last stroke of a stream, so that a ruling, which comes when the shot
 * is over, can say when its shot was played. */
typedef struct {
    int shot; /* -1: none yet */
    double t;
} cr_cli_last_stroke_t;

#define CR_CLI_LAST_STROKE_INIT {-1, 0.0}

/* Notes ev when it is a stroke. */
void cr_cli_note_stroke(cr_cli_last_stroke_t *s, const cr_event_t *ev);

/* A readable line (no newline) for a ruling event; false for other events.
 * "shot N at mm:ss.s": when the shot was played (its stroke, from last when
 * it is that shot's; else the ruling's own time), as the review's report
 * says it. */
bool cr_cli_ruling_text(const cr_event_t *ev, const cr_cli_last_stroke_t *last, cr_game_t game, char *out,
                        size_t n);

/* "mm:ss.s" for a media time in seconds. */
void cr_cli_clock_text(double t, char out[32]);

/* A long command stopped by a signal: SIGTERM, and SIGINT (Ctrl-C) where it
 * was not ignored when the command began (a job put in the background by a
 * shell without job control is not Ctrl-C's). The first such signal sets
 * cr_cli_stopped, which the command reads at its next step to end cleanly;
 * a second ends the process at once, as by default. */
typedef struct {
    struct sigaction old_int, old_term;
} cr_cli_stop_t;

extern volatile sig_atomic_t cr_cli_stopped;

/* Clears cr_cli_stopped and catches the signals; the old handlers in s. */
void cr_cli_stop_catch(cr_cli_stop_t *s);

/* Puts back the handlers cr_cli_stop_catch() found. */
void cr_cli_stop_release(const cr_cli_stop_t *s);

/* Prints "cueref: " and the message to stderr. */
void cr_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
