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

Every verdict is appended to ledger.tsv beside this file (id, verdict, backend, seconds, the commit
the mutant ran on, UTC time), so the whole catalogue completes over several sessions: --pending runs
only the mutants the ledger has no verdict for on the current catalogue entry (a changed search or
replacement text, or a re-pointed file, makes a mutant pending again), --limit N stops after N
mutants, and --list shows each mutant's last verdict.

usage: run.py [--only ID[,ID…]] [--pending] [--limit N] [--list]     (make mutants)"""
import hashlib, json, os, shutil, subprocess, sys, time
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, here)
from catalogue import MUTANTS

# One scratch copy per clone: two clones of one user running mutants at once must not share it.
scratch = "/tmp/strata-mutants-" + os.path.basename(root) + "-" + str(os.getuid())
build = os.path.join(root, ".build-mutants")

ledger_path = os.path.join(here, "ledger.tsv")
LEDGER_HEADER = "id\tverdict\tbackend\tseconds\tcommit\tentry\tutc\n"

def entry_digest(m):
    """A short digest of a catalogue entry (file, search, replace, backend): a verdict counts for the
    entry it was measured on, so a re-pointed mutant is pending again."""
    return hashlib.sha1("\0".join(m[1:5]).encode()).hexdigest()[:10]

def read_ledger():
    """The last ledger line per mutant id, as a dict of column name to value."""
    last = {}
    if os.path.exists(ledger_path):
        lines = open(ledger_path).read().splitlines()
        names = lines[0].split("\t") if lines else []
        for line in lines[1:]:
            row = dict(zip(names, line.split("\t")))
            if "id" in row: last[row["id"]] = row
    return last

def current_commit():
    """The commit the run applies mutants to: HEAD, with "+dirty" when the working tree differs."""
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=root, stdout=subprocess.PIPE, text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, stdout=subprocess.PIPE, text=True).stdout.strip()
    return head + ("+dirty" if dirty else "")

def record(m, verdict, seconds, commit):
    new = not os.path.exists(ledger_path)
    with open(ledger_path, "a") as f:
        if new: f.write(LEDGER_HEADER)
        f.write(f"{m[0]}\t{verdict}\t{m[4]}\t{seconds:.0f}\t{commit}\t{entry_digest(m)}\t{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}\n")

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
    ledger = read_ledger()
    def verdict_of(m):
        row = ledger.get(m[0])
        return row["verdict"] if row and row.get("entry") == entry_digest(m) else None
    if "--pending" in args:
        chosen = [m for m in chosen if verdict_of(m) is None]
    if "--limit" in args:
        chosen = chosen[:int(args[args.index("--limit") + 1])]
    if "--list" in args:
        for m in chosen:
            row = ledger.get(m[0])
            last = f"{row['verdict']} on {row['commit']}" if verdict_of(m) else "pending"
            print(f"{m[0]:40} {m[4]:7} {last:32} {m[1]}: {m[5]}")
        done = sum(1 for m in chosen if verdict_of(m))
        print(f"\n{done} of {len(chosen)} with a verdict in {os.path.relpath(ledger_path, root)}")
        return 0
    commit = current_commit()
    sync()
    base = build_tool()
    if base.returncode != 0:
        print(base.stdout[-3000:]); print("The unmutated copy does not build."); return 2
    # A kill means something only if the unmutated copy passes the same check: a test that fails
    # anyway (an environment problem, a broken main) would otherwise "kill" every mutant it judges.
    for backend in sorted({m[4] for m in chosen}):
        if suite_fails(backend) is not False:
            print(f"The unmutated copy fails its check on {backend}: no verdict would mean anything."); return 2
    results = {"KILLED": [], "SURVIVED": [], "STALE": [], "NO-BUILD": []}
    for m in chosen:
        (mid, path, search, replace, backend, why) = m
        file = os.path.join(scratch, path)
        original = open(file).read()
        count = original.count(search)
        if count != 1:
            results["STALE"].append(mid); print(f"STALE     {mid}: search text found {count} times in {path}", flush=True)
            record(m, "STALE", 0, commit); continue
        open(file, "w").write(original.replace(search, replace))
        start = time.time()
        try:
            built = build_tool()
            failed = suite_fails(backend) if built.returncode == 0 else None
            verdict = "NO-BUILD" if failed is None else ("KILLED" if failed else "SURVIVED")
        finally:
            open(file, "w").write(original)
        results[verdict].append(mid)
        record(m, verdict, time.time() - start, commit)
        print(f"{verdict:9} {mid} ({backend}, {time.time() - start:.0f} s): {why}", flush=True)
    build_tool()  # leave the build folder matching the unmutated copy
    valid = len(results["KILLED"]) + len(results["SURVIVED"])
    print(f"\nmutants: {len(results['KILLED'])} killed / {valid} valid ({len(chosen)} in the catalogue; "
          f"{len(results['NO-BUILD'])} did not build, {len(results['STALE'])} stale)")
    for k in ("SURVIVED", "STALE", "NO-BUILD"):
        if results[k]: print(f"{k.lower()}: {', '.join(results[k])}")
    return 1 if results["SURVIVED"] or results["STALE"] else 0

sys.exit(main())
