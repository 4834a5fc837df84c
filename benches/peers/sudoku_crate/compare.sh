#!/usr/bin/env bash
# Bezzel's sudoku against the specialised `sudoku` crate (jczsolve), solve + prove unique
# (count up to two solutions), one thread each, side by side in one run, pinned to one CPU.
# For each collection it prints the medians of RUNS runs of each program's own solving time
# (the crate: a clock around its loop; Bezzel: the `search time:` of --stats, reading and
# setting up the puzzles left out on both sides) and the ratio peer / Bezzel (< 1: Bezzel is
# slower). Runs alternate, so that load drifting on the machine hits both alike.
#
#   bash benches/peers/sudoku_crate/compare.sh [COLLECTION...]   (RUNS=5 CPU=0)
#
# COLLECTION: files under ../shared/data/sudoku (default: top1465 and 17-clue), said when absent.
# Builds the peer (crates.io `sudoku` 0.8, into benches/peers/sudoku_crate/target) and
# Bezzel's examples. Not in CI.
set -euo pipefail
cd "$(dirname "$0")/../../.."
RUNS=${RUNS:-5}
CPU=${CPU:-0}
DATA=${SUDOKU_DATA:-../shared/data/sudoku}
P=benches/peers/sudoku_crate
(cd $P && CARGO_TARGET_DIR=target cargo build --release -q)
cargo build --release --bin sudoku -q
if [ $# -eq 0 ]; then set -- puzzles3_magictour_top1465 puzzles2_17_clue; fi
pin=""; if command -v taskset >/dev/null; then pin="taskset -c $CPU"; fi
echo "medians of $RUNS runs, 1 thread, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-28s %10s %10s %8s\n' collection "crate s" "bezzel s" ratio
for c in "$@"; do
    f=$DATA/$c
    if [ ! -r "$f" ]; then echo "$c: $f is absent (../shared/data is not in a user's clone)"; continue; fi
    peer=(); ours=()
    for _ in $(seq "$RUNS"); do
        peer+=("$($pin $P/target/release/sudoku-crate-peer "$f" 2>&1 | sed -n 's/.*time: \([0-9.]*\) s.*/\1/p')")
        ours+=("$(BEZZEL_CHECK_SOLUTIONS=0 $pin target/release/sudoku --count --limit 2 --threads 1 --stats -q "$f" 2>&1 | sed -n 's/.*search time: \([0-9.]*\) s.*/\1/p')")
    done
    python3 - "$c" "${peer[*]}" "${ours[*]}" <<'PY'
import statistics, sys
name, peer, ours = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
p, o = statistics.median(peer), statistics.median(ours)
print(f"{name:<28} {p:10.4f} {o:10.4f} {p / o:7.3f}x")
PY
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
