/*
 * calib_file.c - the SPEC §5 calibration file (calib_file.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cr_calib.h"

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

json_t *cr_calib_file_camera(const cr_camera_t *cam)
{
    json_t *c, *rot, *pos;
    int i;

    c = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f}", "fx", cam->fx, "fy", cam->fy, "cx", cam->cx, "cy", cam->cy, "k1",
                  cam->k1, "k2", cam->k2);
    rot = json_array();
    pos = json_array();
    if (!c || !rot || !pos) {
        json_decref(c);
        json_decref(rot);
        json_decref(pos);
        return NULL;
    }
    for (i = 0; i < 9; i++)
        json_array_append_new(rot, json_real(cam->rot[i]));
    for (i = 0; i < 3; i++)
        json_array_append_new(pos, json_real(cam->pos[i]));
    json_object_set_new(c, "rotation", rot);
    json_object_set_new(c, "position_mm", pos);
    json_object_set_new(c, "model", json_string("pinhole, radial distortion k1 k2 on normalised coordinates; "
                                                "rotation maps table (x, y, -z) to camera axes, row-major"));
    return c;
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

static int get_num(json_t *o, const char *key, double *v)
{
    json_t *j = json_object_get(o, key);

    if (!json_is_number(j))
        return -1;
    *v = json_number_value(j);
    return isfinite(*v) ? 0 : -1;
}

static int get_nums(json_t *arr, double *v, size_t n)
{
    size_t i;

    if (!json_is_array(arr) || json_array_size(arr) != n)
        return -1;
    for (i = 0; i < n; i++) {
        json_t *j = json_array_get(arr, i);

        if (!json_is_number(j))
            return -1;
        v[i] = json_number_value(j);
        if (!isfinite(v[i]))
            return -1;
    }
    return 0;
}

int cr_calib_camera_from_h(const double h[9], int w, int hgt, double k1, cr_camera_t *cam, char *source,
                           size_t srclen)
{
    bool solved = false;

    if (cr_camera_from_homography(h, w, hgt, 0.0, 0.0, 0.0, CR_CALIB_HEIGHT_PRIOR_MM, cam, &solved) != CR_OK)
        return -1;
    /* k1 given on width-normalised coordinates: rescale to fx-normalised */
    cam->k1 = k1 * (cam->fx / w) * (cam->fx / w);
    snprintf(source, srclen, "%s", solved ? "homography, focal length solved" : "homography, 3 m height assumed");
    return 0;
}

int cr_calib_parse_corners(const char *s, double c[4][2])
{
    int n = 0, used;

    while (n < 4 && sscanf(s, " %lf , %lf%n", &c[n][0], &c[n][1], &used) == 2) {
        if (!isfinite(c[n][0]) || !isfinite(c[n][1]))
            return -1;
        n++;
        s += used;
        while (*s == ' ')
            s++;
        if (n < 4 && *s++ != ';')
            return -1;
    }
    return n == 4 && *s == '\0' ? 0 : -1;
}

int cr_calib_camera_from_corners(const double corners_px[4][2], int width, int height, const cr_table_t *t,
                                 cr_camera_t *cam, char *source, size_t srclen)
{
    const double tab[4][2] = {{0.0, 0.0}, {0.0, t->width_mm}, {t->length_mm, t->width_mm}, {t->length_mm, 0.0}};
    double h[9];

    if (!cr_calib_homography4(tab, corners_px, h))
        return -1;
    return cr_calib_camera_from_h(h, width, height, 0.0, cam, source, srclen);
}

int cr_calib_file_read(const char *path, cr_calib_file_t *out, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr), *img, *tab, *cam, *head;
    double v[9], len, wid;
    int i;

    if (!root) {
        snprintf(err, errlen, "%s: %s", path, jerr.text);
        return -1;
    }
    memset(out, 0, sizeof(*out));
    img = json_object_get(root, "image");
    tab = json_object_get(root, "table");
    head = json_object_get(root, "head");
    if (!json_is_object(img) || get_num(img, "width", &v[0]) || get_num(img, "height", &v[1]) || v[0] < 1 ||
        v[1] < 1 || v[0] > 16384 || v[1] > 16384) {
        snprintf(err, errlen, "%s: no valid \"image\": {\"width\", \"height\"}", path);
        goto fail;
    }
    out->width = (int)v[0];
    out->height = (int)v[1];
    if (!json_is_object(tab) || get_num(tab, "length_mm", &len) || get_num(tab, "width_mm", &wid) || len < 500 ||
        wid < 250 || len > 10000 || wid > 5000) {
        snprintf(err, errlen, "%s: no valid \"table\": {\"length_mm\", \"width_mm\"}", path);
        goto fail;
    }
    cr_table_init(&out->table, len, wid);
    {
        json_t *c = json_object_get(root, "corners_px");

        for (i = 0; i < 4; i++)
            if (!json_is_array(c) || json_array_size(c) != 4 || get_nums(json_array_get(c, i), out->corners_px[i], 2)) {
                snprintf(err, errlen, "%s: \"corners_px\" must be four [x, y] pairs", path);
                goto fail;
            }
    }
    snprintf(out->head, sizeof(out->head), "%s", json_is_string(head) ? json_string_value(head) : "left");
    cam = json_object_get(root, "camera");
    if (json_is_object(cam)) {
        cr_camera_t *c = &out->camera;

        if (get_num(cam, "fx", &c->fx) || get_num(cam, "fy", &c->fy) || get_num(cam, "cx", &c->cx) ||
            get_num(cam, "cy", &c->cy) || get_num(cam, "k1", &c->k1) || get_num(cam, "k2", &c->k2) ||
            get_nums(json_object_get(cam, "rotation"), c->rot, 9) ||
            get_nums(json_object_get(cam, "position_mm"), c->pos, 3) || c->fx <= 0 || c->fy <= 0) {
            snprintf(err, errlen, "%s: \"camera\" needs fx, fy, cx, cy, k1, k2, rotation[9], position_mm[3]", path);
            goto fail;
        }
        c->width = out->width;
        c->height = out->height;
        snprintf(out->camera_source, sizeof(out->camera_source), "camera block");
    } else if (get_nums(json_object_get(root, "table_to_undistorted_px"), v, 9) == 0) {
        double k1 = 0.0;
        json_t *d = json_object_get(root, "distortion");

        if (json_is_object(d))
            get_num(d, "k1", &k1);
        if (cr_calib_camera_from_h(v, out->width, out->height, k1, &out->camera, out->camera_source,
                          sizeof(out->camera_source)) != 0) {
            snprintf(err, errlen, "%s: the homography does not describe a camera above the table", path);
            goto fail;
        }
    } else if (cr_calib_camera_from_corners(out->corners_px, out->width, out->height, &out->table, &out->camera,
                                            out->camera_source, sizeof(out->camera_source)) != 0) {
        snprintf(err, errlen, "%s: the corners do not form a quadrilateral", path);
        goto fail;
    }
    json_decref(root);
    return 0;
fail:
    json_decref(root);
    return -1;
}

int cr_intrinsics_file_write(const char *path, const cr_calib_intrinsics_t *in, int cols, int rows, double square_mm)
{
    json_t *root;

    if (!path || !in)
        return -1;
    root = json_pack("{s:i,s:s,s:{s:i,s:i},s:f,s:f,s:f,s:f,s:f,s:f,s:s,s:f,s:i,s:{s:i,s:i,s:f}}", "version", 1, "kind",
                     "intrinsics", "image", "width", in->width, "height", in->height, "fx", in->fx, "fy", in->fy, "cx",
                     in->cx, "cy", in->cy, "k1", in->k1, "k2", in->k2, "model",
                     "pinhole, radial (Brown): a = X/Z, b = Y/Z, r2 = a^2 + b^2, u = fx a (1 + k1 r2 + k2 r2^2) + cx, "
                     "v = fy b (1 + k1 r2 + k2 r2^2) + cy; pixel (i, j) centred at (i, j)",
                     "rms_px", in->rms_px, "views", in->n_views, "board", "cols", cols, "rows", rows, "square_mm",
                     square_mm);
    if (!root)
        return -1;
    return cr_calib_file_write(root, path);
}

int cr_intrinsics_file_read(const char *path, cr_calib_intrinsics_t *out, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr), *img, *kind;
    double w, h, views = 0.0;

    if (!root) {
        snprintf(err, errlen, "%s: %s", path, jerr.text);
        return -1;
    }
    memset(out, 0, sizeof(*out));
    img = json_object_get(root, "image");
    kind = json_object_get(root, "kind");
    if (!json_is_string(kind) || strcmp(json_string_value(kind), "intrinsics") || !json_is_object(img) ||
        get_num(img, "width", &w) || get_num(img, "height", &h) || w < 16 || h < 16 || w > 16384 || h > 16384 ||
        get_num(root, "fx", &out->fx) || get_num(root, "fy", &out->fy) || get_num(root, "cx", &out->cx) ||
        get_num(root, "cy", &out->cy) || get_num(root, "k1", &out->k1) || get_num(root, "k2", &out->k2) ||
        !(out->fx > 0.0) || !(out->fy > 0.0)) {
        snprintf(err, errlen,
                 "%s: not an intrinsics file (\"kind\": \"intrinsics\", image, fx, fy, cx, cy, k1, k2)", path);
        json_decref(root);
        return -1;
    }
    out->width = (int)w, out->height = (int)h;
    get_num(root, "rms_px", &out->rms_px);
    get_num(root, "views", &views);
    out->n_views = (int)views;
    json_decref(root);
    return 0;
}
