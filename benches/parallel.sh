#!/usr/bin/env bash
# Parallel search, side by side in one run: the generic model count of queens n (default 14)
# by plain depth-first search on one thread and by embarrassingly parallel search on THREADS
# threads (default 2); medians of RUNS runs (default 5). Then the exact count of queens 18 by
# the full-symmetry counter on all cores, once (set N18=0 to skip it).
#
#   bash benches/parallel.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
THREADS=${THREADS:-2}
N=${1:-14}
cargo build --release --bin queens -q
python3 - "$RUNS" "$THREADS" "$N" "${N18:-1}" <<'PY'
import statistics, subprocess, sys, time
runs, threads, n, n18 = (int(a) for a in sys.argv[1:])
q = "target/release/queens"
def timed(args):
    t = time.perf_counter()
    out = subprocess.run([q] + args, check=True, capture_output=True, text=True).stdout.split()
    return out[-1], time.perf_counter() - t
seq, par = [], []
for _ in range(runs):  # interleaved, so both see the same machine
    c1, t1 = timed(["count", str(n), "--engine", "model", "--threads", "1"])
    c2, t2 = timed(["count", str(n), "--engine", "model", "--threads", str(threads)])
    assert c1 == c2, (c1, c2)
    seq.append(t1); par.append(t2)
s, p = statistics.median(seq), statistics.median(par)
print(f"queens {n} model count {c1}: 1 thread (DFS) {s:.3f}s, {threads} threads (EPS) {p:.3f}s, speedup {s/p:.2f}x (median of {runs})")
if n18:
    c, t = timed(["count", "18", "--engine", "symmetry", "--quiet"])
    print(f"queens 18 symmetry count {c}: {t:.1f}s on all cores")
PY
