// Raw engine baselines for `strata bench --baseline`, written in C as a careful C programmer would:
// the physical limit each Strata backend is measured against, run in the same process on the same data.
#ifndef STRATA_BASELINES_H
#define STRATA_BASELINES_H

#include <stddef.h>
#include <stdint.h>

/// The figures of one baseline run, one field per step of the standard workload (docs/workload.md).
/// A step that was not run holds a negative value.
typedef struct strata_baseline_figures {
    double insert_per_second;        ///< records (owners + items) per second, one transaction
    double reopen_ms;                ///< close and open again, ready to fetch
    double fetch_by_id_per_second;   ///< point lookups of one item by primary key
    double scan_per_second;          ///< every item read into records
    double filter_ms;                ///< category == 42, ordered by price descending
    double update_one_ms;            ///< median of 100 one-record saves
    double update_batch_per_second;  ///< 10% of the items in one save
    double unique_violation_ms;      ///< a duplicate name refused, transaction rolled back
    double cascade_delete_ms;        ///< 10 owners and their 1,000 items
    double size_bytes;               ///< every file of the store after the cascade, while still open
    char error[256];                 ///< empty on success, else what failed
} strata_baseline_figures;

/// Brackets one measured step: `valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect=strata_measure` counts only what runs inside it. Calls `body(context)`.
void strata_measure(void (*body)(void *context), void *context);

/// Runs the standard workload on raw SQLite in `directory` (which must exist and be empty) with
/// `records` items and fills `figures`. When `only_step` is not NULL, every step still runs (later
/// steps need earlier ones) but only that step runs inside `strata_measure`.
/// Returns 0 on success, -1 with `figures->error` set otherwise.
int strata_sqlite_baseline(const char *directory, int records, const char *only_step, strata_baseline_figures *figures);

/// The durability of the next `strata_sqlite_baseline` runs: nonzero (the default) runs with
/// `synchronous = FULL` (SaveDurability.powerLoss), zero with `synchronous = NORMAL` (processCrash),
/// as the backend does at each level.
void strata_sqlite_baseline_set_power_loss_safe(int power_loss_safe);

/// Counts the records (lines, a final line break optional) and fields of CSV text with RFC 4180
/// quoting, building nothing: the floor under parsing the CSV backend's tables.
/// Returns 0, or -1 for an unterminated quoted field.
int strata_csv_count(const unsigned char *bytes, size_t length, int64_t *records, int64_t *fields);

#endif
