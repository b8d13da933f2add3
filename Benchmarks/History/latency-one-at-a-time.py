#!/usr/bin/env python3
"""Lockstep latency: `history write --from k --to k` (a new process per save), then wait until the
follower (`history follow`, another process) prints transaction #k; save start/return -> seen."""
import subprocess, sys, tempfile, os, shutil, statistics
exe = sys.argv[1]; n = int(sys.argv[2]); backends = sys.argv[3:]
def pct(xs, p):
    xs = sorted(xs); k = max(0, min(len(xs) - 1, int(round(p / 100 * len(xs) + 0.5)) - 1)); return xs[k]
for b in backends:
    d = tempfile.mkdtemp(prefix=f"strata-latency-{b}-"); path = os.path.join(d, "store")
    subprocess.run([exe, "write", "--backend", b, "--path", path, "--to", "0"], check=True, stdout=subprocess.DEVNULL)
    f = subprocess.Popen([exe, "follow", "--backend", b, "--path", path, "--count", str(n), "--timestamps"], stdout=subprocess.PIPE, text=True)
    first = f.stdout.readline().strip(); assert first == "following from the start", first
    fs, fe = [], []
    for k in range(1, n + 1):
        w = subprocess.run([exe, "write", "--backend", b, "--path", path, "--from", str(k), "--to", str(k), "--timestamps"], check=True, capture_output=True, text=True)
        parts = w.stdout.split(); end = int(parts[2][1:]); start = int(parts[4][1:])
        while True:
            line = f.stdout.readline()
            assert line, f"follower ended before #{k}"
            if line.startswith(f"#{k} by") and " @" in line:
                seen = int(line.rsplit("@", 1)[1]); break
        fs.append((seen - start) / 1e6); fe.append((seen - end) / 1e6)
    f.wait()
    print(f"{b:7} lockstep, {len(fs)}/{n} seen, rc={f.returncode}: from save start median {statistics.median(fs):6.2f} ms, p99 {pct(fs,99):7.2f} ms, max {max(fs):7.2f} ms | from save return median {statistics.median(fe):6.2f} ms, p99 {pct(fe,99):7.2f} ms", flush=True)
    shutil.rmtree(d, ignore_errors=True)
