/*
 * cli.h - the cueref program's commands. Each returns the process exit code
 * (SPEC §2: 0 success, 1 runtime failure, 2 usage error) and prints its
 * errors to stderr as one line.
 */
#ifndef CR_CLI_H
#define CR_CLI_H

#define CR_EXIT_OK 0
#define CR_EXIT_FAIL 1
#define CR_EXIT_USAGE 2

int cr_cmd_judge(int argc, char **argv);
int cr_cmd_demo(int argc, char **argv);
int cr_cmd_sim(int argc, char **argv);
int cr_cmd_calibrate(int argc, char **argv);
int cr_cmd_eval(int argc, char **argv);

/* Prints "cueref: " and the message to stderr. */
void cr_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
