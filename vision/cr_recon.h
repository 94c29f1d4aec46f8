/*
 * cr_recon.h - reconstructs the events of play (SPEC §3: stroke, collision,
 * cushion, pocket, off_table, disturbed, placed, rest; docs/EVENTS.md:
 * double_hit) from the tracker's per-frame ball states.
 *
 * Times are reconstructed between frames from the trajectories (a contact
 * is almost never on a frame). Events come out in time order as soon as
 * they are certain; push frames in order, collect the events each push
 * produces, and call finish at the end.
 *
 * Thread-safety: one thread at a time per reconstructor.
 */
#ifndef CR_RECON_H
#define CR_RECON_H

#include "cr_event.h"
#include "cr_vision.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double fps; /* nominal frame rate (for windows and thresholds that are per frame) */
    /* further fields are the implementation's to add, each documented */
} cr_recon_params_t;

void cr_recon_params_defaults(cr_recon_params_t *p);

typedef struct cr_recon cr_recon_t;

int cr_recon_create(const cr_table_t *t, const cr_recon_params_t *p, cr_recon_t **out);

/* Feeds one frame; writes at most max events into out, their count in *n
 * (events not yet certain stay inside until a later push or finish).
 * Returns 0 or a negative cr_status_t (CR_ERR_NOMEM; CR_ERR_INVALID when max
 * is too small to ever hold what one frame can produce: use at least 64). */
int cr_recon_push(cr_recon_t *rc, const cr_ball_frame_t *frame, cr_event_t *out, int max, int *n);

/* End of input: the events still held (a final rest if the balls are
 * still, nothing invented otherwise). Same contract as push. */
int cr_recon_finish(cr_recon_t *rc, cr_event_t *out, int max, int *n);

void cr_recon_destroy(cr_recon_t *rc);

#ifdef __cplusplus
}
#endif

#endif /* CR_RECON_H */
