#!/usr/bin/env bash
# Speed-ups of the issue-15 targets, side by side in one run (medians of RUNS runs, default 3,
# interleaved so that every configuration sees the same machine). Run it on an idle machine:
#
#   1 vs 2 MPI ranks (1 thread each): queens count 17 (full symmetry), queens count 14 --engine model
#   1 vs 2 threads:                   queens count 16 (full symmetry), the sudoku 17-clue batch
#
#   bash benches/mpi.sh
#
# Builds the programs with `--features mpi` (Open MPI and libclang-dev needed). The sudoku
# batch is read from ../shared/data/sudoku/puzzles2_17_clue (49,158 puzzles), or SUDOKU=FILE;
# skipped with a note when absent. Prints the load average before and after: a number taken
# on a busy machine says little.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SUDOKU=${SUDOKU:-../shared/data/sudoku/puzzles2_17_clue}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# On one machine, Open MPI's default point-to-point layer (UCX) spends 0.2 s of every start
# probing for networks: a fixed cost in 1-second jobs that says nothing of Bezzel. Bezzel's
# messages are few and small, and `ob1` (shared memory here, TCP between machines) carries
# them as well. A setting already made in the environment is kept.
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
cargo build --release --features mpi --bin queens --bin sudoku -q
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); OMPI_MCA_pml=$OMPI_MCA_pml"
python3 - "$RUNS" "$SUDOKU" <<'PY'
import os, statistics, subprocess, sys, time
runs, sudoku = int(sys.argv[1]), sys.argv[2]
q, s = "target/release/queens", "target/release/sudoku"
def mpi(k, args):
    return ["mpirun", "--oversubscribe", "-np", str(k)] + args + ["--mpi"]
def timed(cmd):
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return out, time.perf_counter() - t
def compare(name, one, two, target):
    t1, t2, outs = [], [], set()
    for _ in range(runs):
        o1, a = timed(one)
        o2, b = timed(two)
        outs.add((o1 == o2))
        t1.append(a); t2.append(b)
    assert outs == {True}, f"{name}: the answers differ"
    a, b = statistics.median(t1), statistics.median(t2)
    print(f"{name}: {a:.3f} s vs {b:.3f} s, speed-up {a / b:.2f}x (target {target}x), median of {runs}")
compare("queens count 17, 1 vs 2 ranks",
        mpi(1, [q, "count", "17", "--threads", "1"]), mpi(2, [q, "count", "17", "--threads", "1"]), 1.8)
compare("queens count 14 --engine model, 1 vs 2 ranks",
        mpi(1, [q, "count", "14", "--engine", "model", "--threads", "1"]),
        mpi(2, [q, "count", "14", "--engine", "model", "--threads", "1"]), 1.7)
compare("queens count 16, 1 vs 2 threads",
        [q, "count", "16", "--threads", "1"], [q, "count", "16", "--threads", "2"], 1.85)
if os.path.exists(sudoku):
    compare("sudoku 17-clue batch, 1 vs 2 threads",
            [s, sudoku, "--quiet", "--threads", "1"], [s, sudoku, "--quiet", "--threads", "2"], 1.85)
else:
    print(f"sudoku batch skipped: {sudoku} not found (set SUDOKU=FILE)")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
