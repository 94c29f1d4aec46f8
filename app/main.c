/*
 * main.c - `cueref COMMAND [options]`: dispatches to the commands of SPEC §2.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef CR_VERSION
#define CR_VERSION "0.1.0"
#endif

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv); /* NULL: not available yet */
    const char *summary;
    const char *help;
} cr_command_t;

static const cr_command_t commands[] = {
    {"judge", cr_cmd_judge, "judge an event stream by the WPA rules (no video)", NULL},
    {"demo", cr_cmd_demo, "simulate a short 9-ball rack, review its video and print the calls", NULL},
    {"review", cr_cmd_review, "review a recorded video: events, fouls and rulings per shot", NULL},
    {"live", NULL, "analyse a live camera or stream in real time",
     "usage: cueref live [--device /dev/videoN | --uri URI] [--mqtt HOST[:PORT]] [options]\n"
     "Analyses a live source and publishes events as they happen (SPEC §2).\n"},
    {"calibrate", cr_cmd_calibrate, "find the table in a frame or video and write a calibration file", NULL},
    {"sim", cr_cmd_sim, "simulate and film shots with exact ground truth", NULL},
    {"eval", cr_cmd_eval, "score an event stream against ground truth", NULL},
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

void cr_cli_error(const char *fmt, ...)
{
    va_list ap;

    fputs("cueref: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

volatile sig_atomic_t cr_cli_stopped;

static void cr_cli_on_signal(int sig)
{
    (void)sig;
    cr_cli_stopped = 1;
}

void cr_cli_stop_catch(cr_cli_stop_t *s)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = cr_cli_on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    cr_cli_stopped = 0;
    sigaction(SIGTERM, &sa, &s->old_term);
    sigaction(SIGINT, NULL, &s->old_int);
    if (s->old_int.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
}

void cr_cli_stop_release(const cr_cli_stop_t *s)
{
    sigaction(SIGINT, &s->old_int, NULL);
    sigaction(SIGTERM, &s->old_term, NULL);
}

static void usage(FILE *f)
{
    size_t i;

    fprintf(f, "usage: cueref COMMAND [options]   (cueref COMMAND --help for each)\n\ncommands:\n");
    for (i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s%s\n", commands[i].name, commands[i].summary,
                commands[i].run ? "" : " (not available yet)");
    fprintf(f, "\nExit codes: 0 success, 1 runtime failure, 2 usage error.\n");
}

int main(int argc, char **argv)
{
    size_t i;

    if (argc < 2) {
        usage(stderr);
        return CR_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CR_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("cueref %s\n", CR_VERSION);
        return CR_EXIT_OK;
    }
    for (i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        if (commands[i].run)
            return commands[i].run(argc - 1, argv + 1);
        if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
            fputs(commands[i].help, stdout);
            printf("This command is not available in cueref %s yet.\n", CR_VERSION);
            return CR_EXIT_OK;
        }
        cr_cli_error("'%s' is not available in this version yet; 'cueref judge' judges event streams today",
                     commands[i].name);
        return CR_EXIT_FAIL;
    }
    cr_cli_error("unknown command '%s' (see cueref --help)", argv[1]);
    return CR_EXIT_USAGE;
}
