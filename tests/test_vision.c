/* test_vision.c - vision/cr_vision.h: the colour conversions. */
#include <stdlib.h>

#include <CUnit/CUnit.h>

#include "cr_vision.h"
#include "test_suites.h"

/* RGB -> I420 -> RGB returns flat colours within the rounding of two
 * 8-bit conversions, and the cloth colours the renderer uses keep their hue. */
static void test_round_trip(void)
{
    enum { W = 6, H = 4 };
    static const uint8_t colours[][3] = {{0, 0, 0}, {255, 255, 255}, {30, 90, 170}, {20, 120, 60}, {200, 40, 30}};
    uint8_t rgb[W * H * 3], back[W * H * 3], y[W * H], u[(W / 2) * (H / 2)], v[(W / 2) * (H / 2)];
    cr_yuv_image_t img = {y, u, v, W, H, W, W / 2, W / 2};
    size_t c;
    int i;

    for (c = 0; c < sizeof colours / sizeof colours[0]; c++) {
        for (i = 0; i < W * H; i++) {
            rgb[3 * i] = colours[c][0];
            rgb[3 * i + 1] = colours[c][1];
            rgb[3 * i + 2] = colours[c][2];
        }
        cr_vision_rgb_to_i420(rgb, W, H, 3 * W, y, u, v);
        cr_vision_i420_to_rgb(&img, back, 3 * W);
        for (i = 0; i < W * H * 3; i++)
            CU_ASSERT(abs((int)back[i] - (int)rgb[i]) <= 3);
    }
    /* limited range: black is Y 16, white Y 235 */
    for (i = 0; i < W * H * 3; i++)
        rgb[i] = 0;
    cr_vision_rgb_to_i420(rgb, W, H, 3 * W, y, u, v);
    CU_ASSERT_EQUAL(y[0], 16);
    CU_ASSERT_EQUAL(u[0], 128);
}

int cr_test_register_vision(void)
{
    CU_pSuite s = CU_add_suite("vision", NULL, NULL);

    if (!s || !CU_add_test(s, "rgb/i420 round trip", test_round_trip))
        return -1;
    return 0;
}
