#!/usr/bin/env bash
# Every pair of built-in backends with files or a server converts one seeded random store of the
# differential schema with `strata convert` (its --verify on, the default), and `strata dump` of the
# source and of the new store are byte-identical (docs/convert.md, "Every pair at 10,000 records").
#
#   pairs.sh STRATA RECORDS SEED [BACKEND ...]
#
# STRATA: the strata binary; RECORDS: passed to `strata convert-sample --records` (about 4.5% of
# the notes are deleted afterwards, leaving gaps in the keys); BACKENDS default: sqlite lmdb json csv
# xml, and postgres when STRATA_POSTGRES_URL names a server (`make convert-pairs` runs this inside
# Tests/Postgres/cluster.sh). The memory backend's stores live inside one process, so the command
# refuses it; ConvertTests covers its pairs. Exits 1 when any pair fails, after running every pair.
set -euo pipefail

strata=$1 records=$2 seed=$3
shift 3
if [ $# -gt 0 ]; then
    backends="$*"
else
    backends="sqlite lmdb json csv xml"
    if [ -n "${STRATA_POSTGRES_URL:-}" ]; then backends="$backends postgres"; fi
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/strata-convert-pairs.XXXXXX")
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
passed=0 failed=0

for from in $backends; do
    source="$work/source-$from"
    "$strata" convert-sample --backend "$from" --path "$source" --records "$records" --seed "$seed"
    "$strata" dump --backend "$from" --path "$source" > "$work/source.dump"
    for to in $backends; do
        [ "$from" = "$to" ] && continue
        # PostgreSQL stores named by a path are namespaces on the server: a new path per pair.
        destination="$work/$from-to-$to"
        problem=""
        if ! output=$("$strata" convert --from-backend "$from" --from "$source" --to-backend "$to" --to "$destination" 2>&1); then
            problem="convert failed: $output"
        elif ! grep -q "^verified: both stores hold the same records and links" <<<"$output"; then
            problem="not verified: $output"
        elif ! grep -q "^keys: every record kept its primary key" <<<"$output"; then
            problem="keys not kept: $output"
        elif ! "$strata" dump --backend "$to" --path "$destination" > "$work/copy.dump"; then
            problem="the new store does not dump"
        elif ! cmp -s "$work/source.dump" "$work/copy.dump"; then
            problem="the dumps differ: $(diff "$work/source.dump" "$work/copy.dump" | head -5)"
        fi
        if [ -z "$problem" ]; then
            passed=$((passed + 1))
            printf '%-8s -> %-8s PASS  %s\n' "$from" "$to" "$(head -1 <<<"$output" | sed -e 's/.* in //')"
        else
            failed=$((failed + 1))
            printf '%-8s -> %-8s FAIL  %s\n' "$from" "$to" "$problem"
        fi
        [ "$to" = postgres ] || rm -rf "$destination"
    done
    [ "$from" = postgres ] || rm -rf "$source"
done

echo "convert pairs: $passed passed, $failed failed, $records records requested, seed $seed ($(( $(date +%s) - started )) s)"
[ "$failed" -eq 0 ]
