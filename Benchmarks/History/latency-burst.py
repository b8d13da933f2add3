#!/usr/bin/env python3
"""Latency from a save in one process (`history write`) to the transaction printed by
`history follow` in another: median and p99 over N commits, per backend."""
import subprocess, sys, tempfile, os, shutil, statistics
exe = sys.argv[1]; n = int(sys.argv[2]); backends = sys.argv[3:]
def pct(xs, p):
    xs = sorted(xs); k = max(0, min(len(xs) - 1, int(round(p / 100 * len(xs) + 0.5)) - 1)); return xs[k]
for b in backends:
    d = tempfile.mkdtemp(prefix=f"strata-latency-{b}-"); path = os.path.join(d, "store")
    subprocess.run([exe, "write", "--backend", b, "--path", path, "--to", "0"], check=True, stdout=subprocess.DEVNULL)
    f = subprocess.Popen([exe, "follow", "--backend", b, "--path", path, "--count", str(n), "--timestamps"], stdout=subprocess.PIPE, text=True)
    first = f.stdout.readline().strip(); assert first == "following from the start", first
    w = subprocess.run([exe, "write", "--backend", b, "--path", path, "--from", "1", "--to", str(n), "--timestamps"], check=True, capture_output=True, text=True)
    seen = {}
    for line in f.stdout:
        if line.startswith("#") and " @" in line:
            k = int(line[1:line.index(" ")]); seen[k] = int(line.rsplit("@", 1)[1])
    f.wait()
    start, end = {}, {}
    for line in w.stdout.splitlines():
        parts = line.split()  # committed n @end started @start
        k = int(parts[1]); end[k] = int(parts[2][1:]); start[k] = int(parts[4][1:])
    ks = sorted(set(seen) & set(start))
    fs = [(seen[k] - start[k]) / 1e6 for k in ks]; fe = [(seen[k] - end[k]) / 1e6 for k in ks]
    saves = [(end[k] - start[k]) / 1e6 for k in ks]
    print(f"{b:7} commits seen {len(ks)}/{n} rc={f.returncode}  from save start: median {statistics.median(fs):7.2f} ms, p99 {pct(fs,99):7.2f} ms, max {max(fs):7.2f} ms | from save return: median {statistics.median(fe):7.2f} ms, p99 {pct(fe,99):7.2f} ms | save itself median {statistics.median(saves):6.2f} ms", flush=True)
    shutil.rmtree(d, ignore_errors=True)
