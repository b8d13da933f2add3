#!/usr/bin/env python3
"""Latency from a save in one process (`history write`) to the transaction printed by `history follow`
in another: median and p99 over N commits, per backend (docs/history.md, "Latency").

    latency.py --mode burst|one-at-a-time HISTORY_EXECUTABLE N BACKEND...

burst: one `history write --from 1 --to N` process saving back to back (the follower falls behind when
a save is quicker than its reload). one-at-a-time: a new `history write --from k --to k` process per
save, the next only after the follower printed #k (the latency of an isolated commit)."""
import argparse, subprocess, tempfile, os, shutil, statistics

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--mode", choices=["burst", "one-at-a-time"], required=True)
parser.add_argument("exe"); parser.add_argument("n", type=int); parser.add_argument("backends", nargs="+")
args = parser.parse_args()
exe, n = args.exe, args.n

def pct(xs, p):
    xs = sorted(xs); k = max(0, min(len(xs) - 1, int(round(p / 100 * len(xs) + 0.5)) - 1)); return xs[k]

def stamps(line):
    """`committed k @end started @start` -> (k, end, start)."""
    parts = line.split(); return int(parts[1]), int(parts[2][1:]), int(parts[4][1:])

def write(b, path, first, last):
    return subprocess.run([exe, "write", "--backend", b, "--path", path, "--from", str(first), "--to", str(last), "--timestamps"],
                          check=True, capture_output=True, text=True).stdout

def burst(b, path, f):
    start, end = {}, {}
    for line in write(b, path, 1, n).splitlines():
        k, end[k], start[k] = stamps(line)
    seen = {}
    for line in f.stdout:
        if line.startswith("#") and " @" in line:
            seen[int(line[1:line.index(" ")])] = int(line.rsplit("@", 1)[1])
    f.wait()
    ks = sorted(set(seen) & set(start))
    return [seen[k] - start[k] for k in ks], [seen[k] - end[k] for k in ks], [end[k] - start[k] for k in ks]

def one_at_a_time(b, path, f):
    fs, fe, saves = [], [], []
    for k in range(1, n + 1):
        _, end, start = stamps(write(b, path, k, k))
        while True:
            line = f.stdout.readline()
            assert line, f"follower ended before #{k}"
            if line.startswith(f"#{k} by") and " @" in line:
                seen = int(line.rsplit("@", 1)[1]); break
        fs.append(seen - start); fe.append(seen - end); saves.append(end - start)
    f.wait()
    return fs, fe, saves

for b in args.backends:
    d = tempfile.mkdtemp(prefix=f"strata-latency-{b}-"); path = os.path.join(d, "store")
    subprocess.run([exe, "write", "--backend", b, "--path", path, "--to", "0"], check=True, stdout=subprocess.DEVNULL)
    f = subprocess.Popen([exe, "follow", "--backend", b, "--path", path, "--count", str(n), "--timestamps"], stdout=subprocess.PIPE, text=True)
    first = f.stdout.readline().strip(); assert first == "following from the start", first
    fs, fe, saves = (burst if args.mode == "burst" else one_at_a_time)(b, path, f)
    ms = lambda xs: [x / 1e6 for x in xs]
    fs, fe, saves = ms(fs), ms(fe), ms(saves)
    print(f"{b:7} {args.mode}, commits seen {len(fs)}/{n} rc={f.returncode}  from save start: median {statistics.median(fs):7.2f} ms, p99 {pct(fs,99):7.2f} ms, max {max(fs):7.2f} ms | from save return: median {statistics.median(fe):7.2f} ms, p99 {pct(fe,99):7.2f} ms | save itself median {statistics.median(saves):6.2f} ms", flush=True)
    shutil.rmtree(d, ignore_errors=True)
