/*
 * report.h - the per-shot review report (DIR/report.md): for each shot the
 * stroke, the first contact and how sure it is, contacts, pockets, balls off
 * the table or touched, each foul with its rule and sentence, the ruling;
 * warnings where the analysis is in doubt. Built from the events the review
 * wrote, so every line has its evidence in events.jsonl.
 */
#ifndef CR_REPORT_H
#define CR_REPORT_H

#include <stddef.h>

#include "cr_event.h"

typedef struct {
    const char *source; /* the input */
    int width, height;
    double fps, duration_s;
    double table_length_mm, table_width_mm;
    cr_game_t game;
    const char *rules;
    const char *camera; /* where the calibration came from */
    long shots, fouls;
    const char *head;   /* the image side of the head end and what decided it, or NULL */
} cr_report_info_t;

/* Writes the report to path (through path.tmp and a rename). Returns 0, or
 * -1 with nothing left behind. */
int cr_report_write(const char *path, const cr_report_info_t *info, const cr_event_t *ev, size_t n);

#endif
