/*
 * cr_calib_internal.h - what the calibration's own files share and its
 * interface does not offer.
 */
#ifndef CR_CALIB_INTERNAL_H
#define CR_CALIB_INTERNAL_H

#include <stdbool.h>

/* Solves in place the n x n system held in the first n columns of the n
 * rows of a (cols to a row) for each right-hand side in the columns after
 * them (Gauss-Jordan, partial pivots): each row ends as the identity's, its
 * solutions in those columns. False (a changed) when the system is
 * singular. */
bool cr_calib_solve_rows(double *a, int n, int cols);

#endif
