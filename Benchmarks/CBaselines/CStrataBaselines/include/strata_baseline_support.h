// What every C baseline shares: the clock, the workload's random draws, the bracket callgrind
// counts, medians. One copy, so the baselines time and draw exactly alike.
#ifndef STRATA_BASELINE_SUPPORT_H
#define STRATA_BASELINE_SUPPORT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strata_baselines.h"

/// Seconds on the monotonic clock.
static inline double strata_now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/// The workload's SplitMix64 (start `*state` at 42), as `SeededGenerator` draws, so a baseline
/// probes the same keys as the backend.
static inline uint64_t strata_next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// Runs `body(context)` and returns the seconds it took; inside `strata_measure` (what callgrind
/// counts) when `only_step` is NULL or names this step.
static inline double strata_timed(const char *only_step, const char *name, void (*body)(void *), void *context) {
    double start = strata_now_seconds();
    if (only_step == NULL || strcmp(only_step, name) == 0) strata_measure(body, context); else body(context);
    return strata_now_seconds() - start;
}

static inline int strata_compare_doubles(const void *x, const void *y) {
    double a = *(const double *)x, c = *(const double *)y;
    return (a > c) - (a < c);
}

/// The median of `count` values (sorts them in place), as the workload computes it.
static inline double strata_median(double *values, int count) {
    qsort(values, (size_t)count, sizeof(double), strata_compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

/// The workload's `count` fetch-by-id probes: keys 1…`records` drawn from `*rng` as the backend
/// draws them. Allocated with malloc (NULL when out of memory); the caller frees them.
static inline int64_t *strata_probe_keys(uint64_t *rng, int records, int count) {
    int64_t *keys = malloc(sizeof(int64_t) * (size_t)count);
    if (keys) for (int i = 0; i < count; i++) keys[i] = (int64_t)(strata_next_random(rng) % (uint64_t)records) + 1;
    return keys;
}

/// update-one: `rounds` (at most 100) saves each timed alone as step "update-one". Before each
/// round's clock starts, `setup(context, index, price)` is told the round's item, the scan's row
/// `index` drawn from `*rng` below `records` as the backend draws it, and its new price (`round +
/// 0.5`). Stops early once `*failed` is set. Returns the median in milliseconds.
static inline double strata_update_one_median(const char *only_step, uint64_t *rng, int records, int rounds, void (*setup)(void *, int, double), void (*body)(void *), void *context, const int *failed) {
    double durations[100];
    int done = 0;
    for (int round = 0; round < rounds && round < 100 && !*failed; round++) {
        setup(context, (int)(strata_next_random(rng) % (uint64_t)records), round + 0.5);
        durations[done++] = strata_timed(only_step, "update-one", body, context) * 1000;
    }
    return done > 0 ? strata_median(durations, done) : 0;
}

#endif
