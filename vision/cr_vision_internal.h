/*
 * cr_vision_internal.h - helpers shared by the vision stages, not part of
 * the library's interface.
 */
#ifndef CR_VISION_INTERNAL_H
#define CR_VISION_INTERNAL_H

#include <stdbool.h>

/* Solves the n x n system m x = r (n <= 3) in place by Gaussian
 * elimination with partial pivoting: x into r, m overwritten. False when
 * singular (a pivot under 1e-12). */
bool cr_vision_solve(double m[3][3], double r[3], int n);

/* The first time t >= 0 at which a point at (px, py) moving at (vx, vy)
 * per unit time comes within d of (cx, cy): 0 when it starts within d, NAN
 * when its straight way never comes that near. */
double cr_vision_reach_time(double px, double py, double vx, double vy, double cx, double cy, double d);

#endif /* CR_VISION_INTERNAL_H */
