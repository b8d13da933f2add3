#!/bin/sh
# make perfcheck: callgrind instruction counts of every standard workload step of every built-in
# backend at N = RECORDS, each compared with its limit in Benchmarks/Thresholds/<backend>-<step>.txt
# (one number). Fails when a step costs more than its limit plus TOLERANCE percent, or has no limit.
#   Benchmarks/perfcheck.sh STRATA RECORDS TOLERANCE [record] BACKEND...
# With `record`, writes the measured counts as the new limits instead (the commit that earns a lower
# limit, or accepts a higher one, carries the files). One callgrind run per backend: `strata bench
# --step all` runs each step inside strata_measure and names it on standard error, and callgrind dumps
# its count after every call (--dump-after); update-one's several saves are summed.
set -u
strata=$1; records=$2; tolerance=$3; shift 3
mode=check
if [ "${1:-}" = record ]; then mode=record; shift; fi
# No backend named would check nothing and still say PASS.
if [ $# -eq 0 ]; then echo "perfcheck: name at least one backend (make perfcheck passes PERFCHECK_BACKENDS)" >&2; exit 2; fi
here=$(cd "$(dirname "$0")" && pwd)
limits="$here/Thresholds"
work=$(mktemp -d /tmp/strata-perfcheck.XXXXXX)
status=0
for backend in "$@"; do
	rm -f "$work"/callgrind.out* "$work/steps"
	# Deterministic hashing: the same dictionary layouts, so the same counts, run after run.
	SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
		--collect-atstart=no --toggle-collect=strata_measure --dump-after=strata_measure \
		"$strata" bench --backend "$backend" --records "$records" --step all --format json \
		>/dev/null 2>"$work/stderr" || { echo "FAIL $backend: strata bench failed"; tail -5 "$work/stderr"; status=1; continue; }
	grep '^strata-measure: ' "$work/stderr" | sed 's/^strata-measure: //' > "$work/steps"
	# The dumps in call order (callgrind.out.1, .2, …), one per measured call.
	i=0
	: > "$work/counts"
	while read -r step; do
		i=$((i + 1))
		total=$(sed -n 's/^totals: *//p; s/^summary: *//p' "$work/callgrind.out.$i" 2>/dev/null | head -1)
		[ -n "$total" ] || { echo "FAIL $backend: no callgrind dump for call $i ($step)"; status=1; continue; }
		echo "$step $total" >> "$work/counts"
	done < "$work/steps"
	for step in $(awk '{ print $1 }' "$work/counts" | uniq); do
		count=$(awk -v s="$step" '$1 == s { sum += $2 } END { printf "%.0f", sum }' "$work/counts")
		file="$limits/$backend-$step.txt"
		if [ "$mode" = record ]; then
			echo "$count" > "$file"
			printf "recorded %-6s %-16s %14s\n" "$backend" "$step" "$count"
			continue
		fi
		if [ ! -f "$file" ]; then echo "FAIL $backend $step: $count instructions, no limit in $file"; status=1; continue; fi
		limit=$(cat "$file")
		verdict=$(awk -v c="$count" -v l="$limit" -v t="$tolerance" 'BEGIN { r = c / l; printf "%s %+.2f%%", (c > l * (1 + t / 100)) ? "FAIL" : "ok  ", (r - 1) * 100 }')
		printf "%s %-6s %-16s %14s instructions, limit %14s (%s)\n" "${verdict%% *}" "$backend" "$step" "$count" "$limit" "${verdict#* }"
		case $verdict in FAIL*) status=1 ;; esac
	done
done
rm -rf "$work"
if [ "$mode" = check ]; then
	if [ $status -eq 0 ]; then echo "perfcheck: PASS (every step within its limit + $tolerance%)"; else echo "perfcheck: FAIL"; fi
fi
exit $status
