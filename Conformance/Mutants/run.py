#!/usr/bin/env python3
"""Mutation testing: applies each mutant of catalogue.py to a scratch copy of the repository, builds it
incrementally (one persistent build folder, .build-mutants), runs the conformance suite on the
backend the mutant touches and prints killed / survived. A mutant whose search text no longer
matches exactly once is reported as STALE, never silently skipped.

The suite runs through `strata conformance --format json` (the same cases as the test targets, as a
library), so a mutant costs an incremental build of the `strata` product only: no test bundle to
link and no swift-syntax for the macro targets, which on a busy 2-core machine took longer than all
the mutants together. A mutant is killed when any case fails (required or optional) or the run
crashes or hangs.

usage: run.py [--only ID[,ID…]] [--list]     (make mutants)"""
import json, os, shutil, subprocess, sys, time
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, here)
from catalogue import MUTANTS

# One scratch copy per clone: two clones of one user running mutants at once must not share it.
scratch = "/tmp/strata-mutants-" + os.path.basename(root) + "-" + str(os.getuid())
build = os.path.join(root, ".build-mutants")

def sync():
    # A fresh copy with the sources' timestamps (copy2), so the persistent build folder stays valid.
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(root, scratch, ignore=shutil.ignore_patterns(".build*", ".git", "reports"), symlinks=True)

def swift(*args, timeout=7200):
    return subprocess.run(["swift", *args, "--scratch-path", build], cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)

def build_tool():
    return swift("build", "--product", "strata")

def oracle_disagrees():
    """True when the differential test on the memory backend alone diverges: with one backend, the
    only other participant is the independent oracle (DifferentialOracle), so a kill is the oracle's."""
    tool = os.path.join(build, "debug", "strata")
    try:
        run = subprocess.run([tool, "difftest", "--backends", "memory", "--seeds", "100"], cwd=scratch,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return True
    return run.returncode != 0

def model_tests_fail(filter):
    """True when the model-layer tests matching `filter` (a `swift test --filter` pattern) fail, crash or
    hang (20 minutes): the model layer is not in `strata conformance`, so its mutants are judged by the
    test target StrataModelTests, built in the same build folder (the test bundle links every target)."""
    built = swift("build", "--build-tests")
    if built.returncode != 0:
        return None
    try:
        run = swift("test", "--skip-build", "--filter", filter, timeout=1200)
    except subprocess.TimeoutExpired:
        return True
    return run.returncode != 0

def suite_fails(backend):
    """True when the suite catches the mutant: a failed case, a crash or a hang (15 minutes).
    Backend `difftest`: the differential test against the oracle instead (oracle_disagrees);
    `model:FILTER`: the model-layer tests matching FILTER (model_tests_fail)."""
    if backend == "difftest":
        return oracle_disagrees()
    if backend.startswith("model:"):
        return model_tests_fail(backend[len("model:"):])
    tool = os.path.join(build, "debug", "strata")
    try:
        run = subprocess.run([tool, "conformance", "--backend", backend, "--format", "json"], cwd=scratch,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=900)
    except subprocess.TimeoutExpired:
        return True
    try:
        report = json.loads(run.stdout)
    except ValueError:
        return True  # died before printing its report
    return run.returncode != 0 or any(c["outcome"] == "failed" for c in report["cases"])

def main():
    args = sys.argv[1:]
    only = set(args[args.index("--only") + 1].split(",")) if "--only" in args else None
    chosen = [m for m in MUTANTS if only is None or m[0] in only]
    if "--list" in args:
        for m in chosen: print(f"{m[0]:40} {m[4]:7} {m[1]}: {m[5]}")
        return 0
    sync()
    base = build_tool()
    if base.returncode != 0:
        print(base.stdout[-3000:]); print("The unmutated copy does not build."); return 2
    results = {"KILLED": [], "SURVIVED": [], "STALE": [], "NO-BUILD": []}
    for (mid, path, search, replace, backend, why) in chosen:
        file = os.path.join(scratch, path)
        original = open(file).read()
        count = original.count(search)
        if count != 1:
            results["STALE"].append(mid); print(f"STALE     {mid}: search text found {count} times in {path}", flush=True); continue
        open(file, "w").write(original.replace(search, replace))
        start = time.time()
        try:
            built = build_tool()
            failed = suite_fails(backend) if built.returncode == 0 else None
            verdict = "NO-BUILD" if failed is None else ("KILLED" if failed else "SURVIVED")
        finally:
            open(file, "w").write(original)
        results[verdict].append(mid)
        print(f"{verdict:9} {mid} ({backend}, {time.time() - start:.0f} s): {why}", flush=True)
    build_tool()  # leave the build folder matching the unmutated copy
    valid = len(results["KILLED"]) + len(results["SURVIVED"])
    print(f"\nmutants: {len(results['KILLED'])} killed / {valid} valid ({len(chosen)} in the catalogue; "
          f"{len(results['NO-BUILD'])} did not build, {len(results['STALE'])} stale)")
    for k in ("SURVIVED", "STALE", "NO-BUILD"):
        if results[k]: print(f"{k.lower()}: {', '.join(results[k])}")
    return 1 if results["SURVIVED"] or results["STALE"] else 0

sys.exit(main())
