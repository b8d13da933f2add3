#!/usr/bin/env python3
"""Mutation testing: applies each mutant of catalogue.py to a scratch copy of the repository, builds it
incrementally (one persistent build folder, .build-mutants), runs the conformance tests of the
backend the mutant touches and prints killed / survived. A mutant whose search text no longer
matches exactly once is reported as STALE, never silently skipped.

usage: run.py [--only ID[,ID…]] [--list]     (make mutants)"""
import os, shutil, subprocess, sys, time
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, here)
from catalogue import MUTANTS

FILTERS = {"memory": "StrataMemoryTests.Conformance", "sqlite": "StrataSQLiteTests.Conformance", "json": "StrataJSONTests.Conformance",
           "csv": "StrataCSVTests.Conformance", "lmdb": "StrataLMDBTests.Conformance"}
scratch = "/tmp/strata-mutants-" + str(os.getuid())
build = os.path.join(root, ".build-mutants")

def sync():
    # A fresh copy with the sources' timestamps (copy2), so the persistent build folder stays valid.
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(root, scratch, ignore=shutil.ignore_patterns(".build*", ".git", "reports"), symlinks=True)

def swift(*args, timeout=1800):
    return subprocess.run(["swift", *args, "--scratch-path", build], cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)

def main():
    args = sys.argv[1:]
    only = set(args[args.index("--only") + 1].split(",")) if "--only" in args else None
    chosen = [m for m in MUTANTS if only is None or m[0] in only]
    if "--list" in args:
        for m in chosen: print(f"{m[0]:40} {m[4]:7} {m[1]}: {m[5]}")
        return 0
    sync()
    base = swift("build", "--build-tests")
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
            built = swift("build", "--build-tests")
            if built.returncode != 0:
                verdict = "NO-BUILD"
            else:
                try:
                    tested = swift("test", "--skip-build", "--filter", FILTERS[backend], timeout=900)
                    verdict = "SURVIVED" if tested.returncode == 0 else "KILLED"
                except subprocess.TimeoutExpired:
                    verdict = "KILLED"  # hung: the suite noticed (a timeout, not a pass)
        finally:
            open(file, "w").write(original)
        results[verdict].append(mid)
        print(f"{verdict:9} {mid} ({backend}, {time.time() - start:.0f} s): {why}", flush=True)
    swift("build", "--build-tests")  # leave the build folder matching the unmutated copy
    valid = len(results["KILLED"]) + len(results["SURVIVED"])
    print(f"\nmutants: {len(results['KILLED'])} killed / {valid} valid ({len(chosen)} in the catalogue; "
          f"{len(results['NO-BUILD'])} did not build, {len(results['STALE'])} stale)")
    for k in ("SURVIVED", "STALE", "NO-BUILD"):
        if results[k]: print(f"{k.lower()}: {', '.join(results[k])}")
    return 1 if results["SURVIVED"] or results["STALE"] else 0

sys.exit(main())
