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

#endif /* CR_VISION_INTERNAL_H */
