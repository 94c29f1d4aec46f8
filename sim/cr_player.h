/*
 * cr_player.h - a simple simulated player for `cueref sim --random N`: it
 * breaks, takes ball in hand, picks a legal target and the pocket with the
 * easiest cut, aims with the ghost-ball method, and misses the way people do
 * (Gaussian aim and speed error). The result is the natural mix of a match:
 * pots, misses, scratches, wrong balls first, no-rail shots, close calls.
 * Deterministic for a seed.
 */
#ifndef CR_PLAYER_H
#define CR_PLAYER_H

#include <stdint.h>

#include "cr_simulate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    cr_game_t game;
    cr_table_t table;
    int n_shots;           /* shots to play in all */
    double aim_sigma_deg;  /* aim error, standard deviation (0.7 degrees) */
    double speed_sigma;    /* relative speed error (0.15) */
    uint64_t rng;          /* generator state */
} cr_player_t;

/* A player for game on table t, playing n_shots shots, seeded by seed. */
void cr_player_init(cr_player_t *p, cr_game_t game, const cr_table_t *t, int n_shots, uint64_t seed);

/* The cr_shot_source_fn: user is a cr_player_t. */
int cr_player_next(void *user, int index, const cr_sim_ball_t state[CR_NUM_BALLS], const cr_ruling_t *last,
                   cr_scn_shot_t *shot);

#ifdef __cplusplus
}
#endif

#endif /* CR_PLAYER_H */
