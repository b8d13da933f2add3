#!/usr/bin/env bash
# The consumer check (docs/public-api.md): Tests/Consumer depends on Strata by version, through the
# file:// URL of a temporary copy of this repository tagged with the version in
# Sources/Strata/StrataVersion.swift, and uses every library product.
#
#   run.sh plan   what `make test` runs: resolve and load the package graph (`swift package
#                 show-dependencies`), where SwiftPM refuses a product whose targets have unsafe flags;
#                 compiles nothing.
#   run.sh run    what `make consumer` runs: the full build of the consumer (everything, swift-syntax
#                 included, compiled again) and its run.
#
# Either fails if the consumer does not name every library product of Package.swift.
set -euo pipefail
mode=${1:-run}
repo=$(cd "$(dirname "$0")/../.." && pwd)
swift=${SWIFT:-swift}
version=$(sed -n 's/.*static let current = "\([0-9][0-9.]*\)".*/\1/p' "$repo/Sources/Strata/StrataVersion.swift")
[ -n "$version" ] || { echo "consumer: no version found in Sources/Strata/StrataVersion.swift"; exit 1; }

# Every library product must be used by the consumer, or the check proves nothing about it.
missing=""
for product in $(grep -o '\.library(name: "[^"]*"' "$repo/Package.swift" | sed 's/.*"\(.*\)"/\1/'); do
    grep -q "product(name: \"$product\"" "$repo/Tests/Consumer/Package.swift" || missing="$missing $product"
done
[ -z "$missing" ] || { echo "consumer: Tests/Consumer/Package.swift does not use the library products:$missing"; exit 1; }

work=$(mktemp -d /tmp/strata-consumer.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The working tree as it is (uncommitted edits included), without build products, as a tagged repository.
mkdir "$work/strata"
tar -C "$repo" --exclude=./.build --exclude='./.build-*' --exclude='./.build_*' --exclude=./.git \
    --exclude=./reports --exclude=./docs-site --exclude=./Tests/Consumer/.build -cf - . | tar -C "$work/strata" -xf -
git -C "$work/strata" init -q
git -C "$work/strata" add -A
git -C "$work/strata" -c user.name=consumer -c user.email=consumer@localhost commit -q -m "Strata $version"
git -C "$work/strata" tag "$version"
mkdir "$work/consumer"
cp -R "$repo/Tests/Consumer/Package.swift" "$repo/Tests/Consumer/Sources" "$work/consumer/"
export STRATA_URL="file://$work/strata" STRATA_VERSION="$version"

start=$(date +%s)
case "$mode" in
plan)
    if ! out=$("$swift" package --package-path "$work/consumer" show-dependencies --format flatlist 2>&1); then
        echo "$out" | grep -v '^\(Fetching\|Fetched\|Computing\|Computed\|Creating\|Working copy\)' >&2
        echo "consumer check FAILED: a package that depends on Strata $version by version cannot use every library product (above)." >&2
        exit 1
    fi
    echo "consumer check: every library product of Strata $version loads as a version dependency ($(( $(date +%s) - start )) s)"
    ;;
run)
    "$swift" build --package-path "$work/consumer" -q
    "$swift" run --package-path "$work/consumer" --skip-build StrataConsumer
    echo "consumer: built and ran against Strata $version by version ($(( $(date +%s) - start )) s)"
    ;;
*) echo "usage: $0 plan|run"; exit 2 ;;
esac
