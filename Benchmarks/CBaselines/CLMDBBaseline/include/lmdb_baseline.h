// The standard workload (docs/workload.md) written directly against liblmdb in C: the physical
// limit the StrataLMDB backend is measured against (`strata bench --backend lmdb --baseline`).
#ifndef STRATA_LMDB_BASELINE_H
#define STRATA_LMDB_BASELINE_H

#include "strata_baselines.h"

/// Runs the standard workload on raw LMDB in `directory` (which must exist and be empty) with
/// `records` items and fills `figures`. `env_flags` are the environment flags the backend uses (its
/// sync settings). When `only_step` is not NULL, every step still runs (later steps need earlier
/// ones) but only that step runs inside `strata_measure` (for callgrind).
/// Returns 0 on success, -1 with `figures->error` set otherwise.
int strata_lmdb_baseline(const char *directory, int records, unsigned env_flags, const char *only_step, strata_baseline_figures *figures);

#endif
