/*
 * cmd_demo.c - `cueref demo [--out DIR]`: the product end to end with no
 * input of the user's: simulates a short 9-ball rack (with the fouls an
 * imperfect player makes), films it, reviews the video, and prints the calls
 * next to what really happened.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* A seed whose six shots include fouls (a scratch and two wrong balls first). */
#define DEMO_SEED "1"
#define DEMO_SHOTS "6"

static int run(int (*cmd)(int, char **), char **argv)
{
    int argc = 0;

    while (argv[argc])
        argc++;
    return cmd(argc, argv);
}

int cr_cmd_demo(int argc, char **argv)
{
    const char *out = "cueref-demo";
    char sim_dir[4096], review_dir[4096], clip[4200], truth[4200], events[4200];
    int rc;

    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: cueref demo [--out DIR]\n"
               "Simulates a short 9-ball rack filmed by an overhead camera (DIR/sim: the video and\n"
               "its exact truth), reviews the video as it would a real one (DIR/review/events.jsonl)\n"
               "and prints the calls next to the truth's. DIR defaults to cueref-demo.\n");
        return CR_EXIT_OK;
    }
    if (argc == 3 && !strcmp(argv[1], "--out"))
        out = argv[2];
    else if (argc != 1) {
        cr_cli_error("demo: the only option is --out DIR");
        return CR_EXIT_USAGE;
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        cr_cli_error("demo: cannot create %s: %s", out, strerror(errno));
        return CR_EXIT_FAIL;
    }
    snprintf(sim_dir, sizeof(sim_dir), "%s/sim", out);
    snprintf(review_dir, sizeof(review_dir), "%s/review", out);
    snprintf(clip, sizeof(clip), "%s/clip.mp4", sim_dir);
    snprintf(truth, sizeof(truth), "%s/truth.jsonl", sim_dir);
    snprintf(events, sizeof(events), "%s/events.jsonl", review_dir);

    printf("== 1. Simulating %s shots of 9-ball, filmed at 1280x720, 30 fps -> %s\n", DEMO_SHOTS, sim_dir);
    fflush(stdout);
    {
        char *a[] = {"sim", "--random", DEMO_SHOTS, "--seed", DEMO_SEED, "--game", "9ball", "--size", "1280x720",
                     "--fps", "30", "-o", sim_dir, NULL};

        rc = run(cr_cmd_sim, a);
        if (rc != CR_EXIT_OK)
            return rc;
    }
    printf("\n== 2. Reviewing the video (the table found automatically) -> %s\n", events);
    fflush(stdout);
    {
        char *a[] = {"review", clip, "--game", "9ball", "--out", review_dir, NULL};

        rc = run(cr_cmd_review, a);
        if (rc != CR_EXIT_OK)
            return rc;
    }
    printf("\n== 3. What really happened (the simulator's truth, judged by the same rules)\n");
    fflush(stdout);
    {
        char *a[] = {"judge", truth, "--game", "9ball", "--text", NULL};

        rc = run(cr_cmd_judge, a);
        if (rc != CR_EXIT_OK)
            return rc;
    }
    printf("\nThe review's events, fouls and rulings: %s\n"
           "Score them against the truth:  cueref eval --truth %s --events %s\n"
           "Judge a recorded event stream:  cueref judge examples/match-9ball.jsonl --game 9ball --text\n",
           events, truth, events);
    return CR_EXIT_OK;
}
