#!/usr/bin/env bash
# Side by side, in one run: the classic C bitmask program (gcc -O2) against Bezzel's bitmask
# counter (mirror symmetry) and full-symmetry counter, each on one thread and on all threads.
# Prints medians of RUNS runs and the ratios.
#
#   bash benches/peers/queens_classic.sh [N...]        (default N: 15 16; RUNS=5)
#
# Needs gcc and python3 (both on our machines); not part of CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-5}
NS=${*:-15 16}
mkdir -p benches/peers/build
gcc -O2 -o benches/peers/build/queens_classic benches/peers/queens_classic.c
cargo build --release --bin queens -q
python3 - "$RUNS" $NS <<'PY'
import os, statistics, subprocess, sys, time
runs, ns = int(sys.argv[1]), [int(a) for a in sys.argv[2:]]
threads = os.cpu_count()
def median_time(cmd):
    times, outs = [], set()
    for _ in range(runs):
        t = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split()
        times.append(time.perf_counter() - t)
        outs.add(out[-1])
    assert len(outs) == 1, outs
    return outs.pop(), statistics.median(times)
q = "target/release/queens"
print(f"median of {runs} runs; ratio = C time / Bezzel time (higher is faster); cores: {threads}")
head = f"{'n':>3} {'count':>12} {'C -O2':>8}"
for e in ("bitmask", "symmetry"):
    head += f" | {e + ' x1':>12} {'ratio':>6} {e + ' xN':>12} {'ratio':>6}"
print(head)
for n in ns:
    c_count, c = median_time(["benches/peers/build/queens_classic", str(n)])
    row = f"{n:>3} {c_count:>12} {c:>7.3f}s"
    for e in ("bitmask", "symmetry"):
        one_count, one = median_time([q, "count", str(n), "--engine", e, "--threads", "1"])
        all_count, al = median_time([q, "count", str(n), "--engine", e])
        assert c_count == one_count == all_count, (c_count, one_count, all_count)
        row += f" | {one:>11.3f}s {c/one:>5.2f}x {al:>11.3f}s {c/al:>5.2f}x"
    print(row, flush=True)
PY
