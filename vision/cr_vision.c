/* cr_vision.c - colour conversions between packed RGB and planar I420. */
#include "cr_vision.h"

#include <math.h>
#include <stddef.h>

static uint8_t clamp_u8(double v)
{
    if (v <= 0.0)
        return 0;
    if (v >= 255.0)
        return 255;
    return (uint8_t)lrint(v);
}

/* BT.601 limited range: Y in 16..235, Cb/Cr in 16..240. */
void cr_vision_rgb_to_i420(const uint8_t *rgb, int width, int height, int stride, uint8_t *y, uint8_t *u,
                           uint8_t *v)
{
    const int cw = (width + 1) / 2, ch = (height + 1) / 2;
    int i, j;

    for (j = 0; j < height; j++)
        for (i = 0; i < width; i++) {
            const uint8_t *p = rgb + (size_t)j * stride + 3 * (size_t)i;

            y[(size_t)j * width + i] = clamp_u8(16.0 + 0.256788 * p[0] + 0.504129 * p[1] + 0.097906 * p[2]);
        }
    for (j = 0; j < ch; j++)
        for (i = 0; i < cw; i++) {
            double r = 0.0, g = 0.0, b = 0.0;
            int n = 0, dj, di;

            for (dj = 0; dj < 2; dj++)
                for (di = 0; di < 2; di++) {
                    int x = 2 * i + di, yy = 2 * j + dj;
                    const uint8_t *p;

                    if (x >= width || yy >= height)
                        continue;
                    p = rgb + (size_t)yy * stride + 3 * (size_t)x;
                    r += p[0], g += p[1], b += p[2];
                    n++;
                }
            r /= n, g /= n, b /= n;
            u[(size_t)j * cw + i] = clamp_u8(128.0 - 0.148223 * r - 0.290993 * g + 0.439216 * b);
            v[(size_t)j * cw + i] = clamp_u8(128.0 + 0.439216 * r - 0.367788 * g - 0.071427 * b);
        }
}

void cr_vision_i420_to_rgb(const cr_yuv_image_t *img, uint8_t *rgb, int stride)
{
    int i, j;

    for (j = 0; j < img->height; j++)
        for (i = 0; i < img->width; i++) {
            double yy = 1.164383 * (img->y[(size_t)j * img->stride_y + i] - 16.0);
            double cb = img->u[(size_t)(j / 2) * img->stride_u + i / 2] - 128.0;
            double cr = img->v[(size_t)(j / 2) * img->stride_v + i / 2] - 128.0;
            uint8_t *p = rgb + (size_t)j * stride + 3 * (size_t)i;

            p[0] = clamp_u8(yy + 1.596027 * cr);
            p[1] = clamp_u8(yy - 0.391762 * cb - 0.812968 * cr);
            p[2] = clamp_u8(yy + 2.017232 * cb);
        }
}
