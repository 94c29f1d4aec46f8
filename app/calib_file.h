/*
 * calib_file.h - the calibration file of SPEC §5, shared by `cueref sim`
 * (the true camera) and `cueref calibrate` (what was found): the required
 * fields in one place, and an atomic write.
 */
#ifndef CR_CALIB_FILE_H
#define CR_CALIB_FILE_H

#include <jansson.h>

#include "cr_table.h"

/* A new object with version, image, table, corners_px (head-left,
 * head-right, foot-right, foot-left, rounded to 0.001 px) and head
 * ("left", "right", "top", "bottom"); the caller adds its own fields.
 * NULL when out of memory. */
json_t *cr_calib_file_new(int width, int height, const cr_table_t *t, const double corners_px[4][2], const char *head);

/* Writes root to path through path.tmp and a rename, and drops the reference.
 * Returns 0, or -1 with nothing left at path.tmp (path is untouched). */
int cr_calib_file_write(json_t *root, const char *path);

#endif
