// The standard workload (shared/WORKLOAD.md) written directly against liblmdb in C: the physical
// limit the StrataLMDB backend is measured against (`strata bench --backend lmdb --baseline`).
#ifndef STRATA_LMDB_BASELINE_H
#define STRATA_LMDB_BASELINE_H

#include <stddef.h>
#include <stdint.h>

/// The figures of one run, in the units of `strata bench`.
typedef struct {
    double insert;            // records/s
    double reopen_ms;         // ms
    double fetch_by_id;       // lookups/s
    double scan;              // records/s
    double filter_ms;         // ms
    double update_one_ms;     // ms (median of the rounds)
    double update_batch;      // records/s
    double unique_violation_ms;
    double cascade_delete_ms;
    double size_bytes;
} strata_lmdb_figures;

/// Runs every step in the folder `dir` (created by the caller, empty) with `records` items.
/// `probes` are the item keys fetched by id, `updates` the item keys of the update-one rounds
/// (both drawn by the caller with the workload's seed). `env_flags` are the environment flags the
/// backend uses (sync settings). Returns 0, or -1 with a message in `error`.
int strata_lmdb_baseline_run(const char *dir, int records, unsigned env_flags,
                             const int64_t *probes, int probe_count,
                             const int64_t *updates, int update_count,
                             strata_lmdb_figures *out, char *error, size_t error_size);

#endif
