/*
 * calib_file.c - the SPEC §5 calibration file (calib_file.h).
 */
#include <math.h>
#include <stdio.h>

#include "calib_file.h"

json_t *cr_calib_file_new(int width, int height, const cr_table_t *t, const double corners_px[4][2], const char *head)
{
    json_t *root = json_object(), *arr = json_array();
    int i;

    if (!root || !arr) {
        json_decref(root);
        json_decref(arr);
        return NULL;
    }
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "image", json_pack("{s:i,s:i}", "width", width, "height", height));
    json_object_set_new(root, "table", json_pack("{s:f,s:f}", "length_mm", t->length_mm, "width_mm", t->width_mm));
    for (i = 0; i < 4; i++)
        json_array_append_new(arr, json_pack("[f,f]", round(corners_px[i][0] * 1000) / 1000,
                                             round(corners_px[i][1] * 1000) / 1000));
    json_object_set_new(root, "corners_px", arr);
    json_object_set_new(root, "head", json_string(head));
    return root;
}

int cr_calib_file_write(json_t *root, const char *path)
{
    char tmp[4200];
    int rc;

    if (!root || snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp)) {
        json_decref(root);
        return -1;
    }
    rc = json_dump_file(root, tmp, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
    json_decref(root);
    if (rc != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}
