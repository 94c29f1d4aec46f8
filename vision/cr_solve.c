/* cr_solve.c - small dense linear systems and the reach of a straight way
 * for the vision stages (cr_vision_internal.h). */
#include "cr_vision_internal.h"

#include <math.h>

bool cr_vision_solve(double m[3][3], double r[3], int n)
{
    int i, j, k, piv;

    for (i = 0; i < n; i++) {
        piv = i;
        for (k = i + 1; k < n; k++)
            if (fabs(m[k][i]) > fabs(m[piv][i]))
                piv = k;
        if (fabs(m[piv][i]) < 1e-12)
            return false;
        if (piv != i) {
            for (j = 0; j < n; j++) {
                double t = m[i][j];
                m[i][j] = m[piv][j];
                m[piv][j] = t;
            }
            double t = r[i];
            r[i] = r[piv];
            r[piv] = t;
        }
        for (k = i + 1; k < n; k++) {
            double f = m[k][i] / m[i][i];
            for (j = i; j < n; j++)
                m[k][j] -= f * m[i][j];
            r[k] -= f * r[i];
        }
    }
    for (i = n - 1; i >= 0; i--) {
        for (j = i + 1; j < n; j++)
            r[i] -= m[i][j] * r[j];
        r[i] /= m[i][i];
    }
    return true;
}

double cr_vision_reach_time(double px, double py, double vx, double vy, double cx, double cy, double d)
{
    const double fx = px - cx, fy = py - cy, A = vx * vx + vy * vy, B = 2 * (fx * vx + fy * vy),
                 C = fx * fx + fy * fy - d * d, disc = B * B - 4 * A * C;

    if (C <= 0)
        return 0.0;
    if (A > 0 && disc >= 0 && B < 0)
        return (-B - sqrt(disc)) / (2 * A);
    return NAN;
}
