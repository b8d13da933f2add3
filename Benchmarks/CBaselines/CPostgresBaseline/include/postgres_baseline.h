// The standard workload (docs/workload.md) written directly against libpq in C: the limit the
// StrataPostgres backend is measured against (`strata bench --backend postgres --baseline`).
#ifndef STRATA_POSTGRES_BASELINE_H
#define STRATA_POSTGRES_BASELINE_H

#include "strata_baselines.h"

/// Runs the standard workload on the PostgreSQL server `conninfo` names (a libpq connection string
/// or URL; empty: libpq's `PG*` environment variables) with `records` items and fills `figures`.
/// It works in a namespace (PostgreSQL schema) of its own, `strata_raw_…`, dropped at the end.
/// When `only_step` is not NULL, every step still runs (later steps need earlier ones) but only that
/// step runs inside `strata_measure` (for callgrind).
/// Returns 0 on success, -1 with `figures->error` set otherwise (a password is never in it: libpq's
/// messages name the host and user only).
int strata_postgres_baseline(const char *conninfo, int records, const char *only_step, strata_baseline_figures *figures);

/// Whether the next runs send the rows of a many-row save (insert, update-batch) in libpq's
/// pipeline mode (nonzero, the default: what a careful C programmer does, and what the backend is
/// asked to do) or each statement waiting for its answer (zero: to compare round trip for round trip).
void strata_postgres_baseline_set_pipelined(int pipelined);

/// What a committed transaction on the server `conninfo` names survives, from its settings: 2 when
/// `fsync` is on and `synchronous_commit` is not off (power loss: SaveDurability.powerLoss), 1 when
/// `fsync` is off (the commit is in the server's WAL, written but not flushed: it survives any
/// process being killed, the server's included, but not power loss: processCrash), 0 when
/// `synchronous_commit` is off (a server crash may lose the last commits), -1 when the server cannot
/// be asked.
int strata_postgres_server_durability(const char *conninfo);

#endif
