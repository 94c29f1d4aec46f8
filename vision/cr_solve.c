/* cr_solve.c - small dense linear systems for the vision stages
 * (cr_vision_internal.h). */
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
