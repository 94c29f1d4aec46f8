/*
 * cr_cv_checker.cpp - the OpenCV side of cr_cv_checker.h: images wrapped
 * without copying, every entry point exception-proof.
 */
#include "cr_cv_checker.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace {

int fail(char *err, size_t errlen, int status, const char *what)
{
    if (err && errlen > 0)
        std::snprintf(err, errlen, "%s", what);
    return status;
}

/* Corners of one view, refined; false when the board is not found whole. */
bool view_corners(const cr_calib_image_t &v, int cols, int rows, std::vector<cv::Point2f> &pts)
{
    const cv::Mat rgb(v.height, v.width, CV_8UC3, const_cast<uint8_t *>(v.rgb), static_cast<size_t>(v.stride));
    cv::Mat grey;
    double spacing = HUGE_VAL;

    cv::cvtColor(rgb, grey, cv::COLOR_RGB2GRAY);
    if (!cv::findChessboardCorners(grey, cv::Size(cols, rows), pts,
                                   cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE))
        return false;
    /* the refinement window: under half the nearest corner spacing */
    for (int j = 0; j < rows; j++)
        for (int i = 0; i + 1 < cols; i++) {
            const cv::Point2f d = pts[static_cast<size_t>(j * cols + i + 1)] - pts[static_cast<size_t>(j * cols + i)];

            spacing = std::min(spacing, std::hypot(static_cast<double>(d.x), static_cast<double>(d.y)));
        }
    const int win = static_cast<int>(std::max(2.0, std::min(11.0, 0.4 * spacing)));
    cv::cornerSubPix(grey, pts, cv::Size(win, win), cv::Size(-1, -1),
                     cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 50, 1e-3));
    return true;
}

} // namespace

extern "C" int cr_cv_checker_calibrate(const cr_calib_image_t *views, int n, int cols, int rows, double square_mm,
                                       cr_calib_intrinsics_t *out, bool *found, char *err, size_t errlen)
{
    if (!views || n < 1 || cols < 2 || rows < 2 || !(square_mm > 0.0) || !out)
        return fail(err, errlen, CR_CALIB_ERR_INVALID, "invalid argument");
    for (int i = 0; i < n; i++)
        if (!views[i].rgb || views[i].width < 16 || views[i].height < 16 || views[i].stride < 3 * views[i].width ||
            views[i].width != views[0].width || views[i].height != views[0].height)
            return fail(err, errlen, CR_CALIB_ERR_INVALID, "views missing or of different sizes");
    try {
        std::vector<std::vector<cv::Point2f>> img_pts;
        std::vector<std::vector<cv::Point3f>> obj_pts;
        std::vector<cv::Point3f> board;
        std::vector<cv::Mat> rvecs, tvecs;
        cv::Mat k = cv::Mat::eye(3, 3, CV_64F), dist = cv::Mat::zeros(5, 1, CV_64F);
        double rms;

        for (int j = 0; j < rows; j++)
            for (int i = 0; i < cols; i++)
                board.emplace_back(static_cast<float>(i * square_mm), static_cast<float>(j * square_mm), 0.0f);
        for (int i = 0; i < n; i++) {
            std::vector<cv::Point2f> pts;
            const bool ok = view_corners(views[i], cols, rows, pts);

            if (found)
                found[i] = ok;
            if (ok) {
                img_pts.push_back(pts);
                obj_pts.push_back(board);
            }
        }
        if (img_pts.size() < 3) {
            char d[96];

            std::snprintf(d, sizeof d, "the %dx%d board was found in %zu of %d views (3 needed)", cols, rows,
                          img_pts.size(), n);
            return fail(err, errlen, CR_CALIB_ERR_EDGES, d);
        }
        rms = cv::calibrateCamera(obj_pts, img_pts, cv::Size(views[0].width, views[0].height), k, dist, rvecs, tvecs,
                                  cv::CALIB_FIX_ASPECT_RATIO | cv::CALIB_ZERO_TANGENT_DIST | cv::CALIB_FIX_K3,
                                  cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 100, 1e-12));
        if (!std::isfinite(rms) || !(k.at<double>(0, 0) > 0.0) || !(k.at<double>(1, 1) > 0.0))
            return fail(err, errlen, CR_CALIB_ERR_GEOMETRY, "the fit did not converge");
        out->width = views[0].width, out->height = views[0].height;
        out->fx = k.at<double>(0, 0), out->fy = k.at<double>(1, 1);
        out->cx = k.at<double>(0, 2), out->cy = k.at<double>(1, 2);
        out->k1 = dist.at<double>(0), out->k2 = dist.at<double>(1);
        out->rms_px = rms;
        out->n_views = static_cast<int>(img_pts.size());
        return CR_CALIB_OK;
    } catch (const std::bad_alloc &) {
        return fail(err, errlen, CR_CALIB_ERR_NOMEM, "out of memory");
    } catch (const cv::Exception &e) {
        return fail(err, errlen, CR_CALIB_ERR_GEOMETRY, e.what());
    } catch (...) {
        return fail(err, errlen, CR_CALIB_ERR_GEOMETRY, "unexpected failure");
    }
}
