#!/usr/bin/env bash
# Bezzel's sudoku against two specialised solvers, solve + prove unique (count up to two
# solutions), one thread each, side by side in one run, pinned to one CPU (issue 17):
#   - the `sudoku` crate 0.8 (jczsolve, Rust), benches/peers/sudoku_crate;
#   - QQWing 1.3.4 (C++, Debian's libqqwing-dev), benches/peers/qqwing: not bit-parallel, but
#     the only C/C++ solver the package registries install (see BENCHMARKS.md).
# For each collection it prints the medians of RUNS runs of each program's own solving time
# (the peers: a clock around their loop of counts; Bezzel: the `search time:` of --stats;
# reading and parsing left out everywhere) and the ratios peer / Bezzel (< 1: Bezzel is
# slower). The three programs run one after the other within each run, so that load drifting
# on the machine hits all alike.
#
# Answers are checked before anything is timed: on every collection QQWing's solutions
# (which its driver validates itself) must equal Bezzel's line by line, and in every timed
# run all three must report the same numbers of unique / multiple / unsolvable puzzles. Any
# disagreement is printed with the puzzle and makes the script exit 1.
#
#   bash benches/peers/sudoku_peers.sh [COLLECTION...]   (RUNS=5 CPU=0)
#
# BEZZEL_ORDER (first-fail, dom-wdeg or rows) runs Bezzel with that `--order` instead of its
# default (dom-wdeg).
#
# COLLECTION: a file path, or a name under SUDOKU_DATA (../shared/data/sudoku). Default: top1465
# and 17-clue from ../shared/data/sudoku (said when absent), then the forum's "hardest" list,
# the generated hard set, the easy set and the many-solution set in benches/data. Builds the peers (cargo; install.sh, which may
# apt-get install qqwing) and Bezzel's sudoku example. Needs python3, g++. Not in CI.
set -euo pipefail
cd "$(dirname "$0")/../.."
export RUNS=${RUNS:-5} CPU=${CPU:-0} SUDOKU_DATA=${SUDOKU_DATA:-../shared/data/sudoku}

(cd benches/peers/sudoku_crate && CARGO_TARGET_DIR=target cargo build --release -q)
bash benches/peers/qqwing/install.sh
cargo build --release --bin sudoku -q
if [ $# -eq 0 ]; then
    set -- puzzles3_magictour_top1465 puzzles2_17_clue \
        benches/data/sudoku_forum_hardest_1106.txt benches/data/sudoku_hard.txt \
        benches/data/sudoku_easy.txt benches/data/sudoku_many_solutions.txt
fi

exec python3 - "$@" <<'PY'
import os, re, shutil, statistics, subprocess, sys

env = os.environ
runs, data = int(env["RUNS"]), env["SUDOKU_DATA"]
pin = ["taskset", "-c", env["CPU"]] if shutil.which("taskset") else []
CRATE = ["benches/peers/sudoku_crate/target/release/sudoku-crate-peer"]
QQWING = ["benches/peers/qqwing/build/peer"]
BEZZEL = ["target/release/sudoku", "--threads", "1", "-q"]
if env.get("BEZZEL_ORDER"):
    BEZZEL += ["--order", env["BEZZEL_ORDER"]]
COUNTS = ("puzzles", "unique", "multiple", "no solution")
bad = 0

def run(argv):
    p = subprocess.run(pin + argv, text=True, capture_output=True,
                       env=dict(env, BEZZEL_CHECK_SOLUTIONS="0"))
    if p.returncode != 0:
        sys.exit(f"{' '.join(argv)}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    return p.stdout, p.stderr

def summary(err, time_key):
    """(counts, seconds) from a summary line on stderr."""
    got = {k: int(v) for k, v in re.findall(r"(puzzles|unique|multiple|no solution): ([0-9]+)", err)}
    secs = re.findall(rf"(?:^|, ){time_key}: ([0-9.]+) s", err, re.M)
    if not secs or set(got) != set(COUNTS):
        sys.exit(f"no summary in: {err.strip()[-300:]!r}")
    return tuple(got[k] for k in COUNTS), float(secs[-1])

def puzzles_of(path):
    with open(path) as f:
        return [l.strip() for l in f if l.strip() and not l.lstrip().startswith("#")]

def check_solutions(name, path):
    """QQWing's answers (validated by its driver) against Bezzel's, line by line."""
    global bad
    q, _ = run(QQWING + ["--solutions", path])
    b, _ = run(BEZZEL + [path])
    q, b, puzzles = q.splitlines(), b.splitlines(), puzzles_of(path)
    if len(q) != len(puzzles) or len(b) != len(puzzles):
        print(f"  DISAGREE {name}: {len(puzzles)} puzzles, {len(q)} QQWing answers,"
              f" {len(b)} Bezzel answers", file=sys.stderr)
        bad += 1
        return
    for i, (x, y) in enumerate(zip(q, b)):
        if x != y:
            print(f"  DISAGREE {name} puzzle {i + 1} {puzzles[i]}: QQWing {x}, Bezzel {y}",
                  file=sys.stderr)
            bad += 1

def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())

print(f"medians of {runs} runs, 1 thread, {'pinned to CPU ' + env['CPU'] if pin else 'not pinned'},"
      f" load average {load()}; ratio = peer / Bezzel (< 1: Bezzel slower);"
      f" Bezzel's order: {env.get('BEZZEL_ORDER') or 'its default (dom-wdeg)'}")
print(f"{'collection':<34} {'puzzles':>7} {'crate s':>8} {'qqwing s':>9} {'bezzel s':>8}"
      f" {'crate/bz':>8} {'qqwing/bz':>9}")
for c in sys.argv[1:]:
    path = c if os.path.exists(c) else os.path.join(data, c)
    name = os.path.basename(c)
    if not os.access(path, os.R_OK):
        why = " (../shared/data is not in a user's clone)" if path.startswith(data) else ""
        print(f"{name}: {path} is absent{why}")
        continue
    check_solutions(name, path)
    times = {"crate": [], "qqwing": [], "bezzel": []}
    seen = set()
    for _ in range(runs):
        for who, argv, key in (("crate", CRATE + [path], "time"), ("qqwing", QQWING + [path], "time"),
                               ("bezzel", BEZZEL + ["--count", "--limit", "2", "--stats", path],
                                "search time")):
            counts, secs = summary(run(argv)[1], key)
            times[who].append(secs)
            seen.add((who, counts))
    if len({counts for _, counts in seen}) != 1:
        print(f"  DISAGREE {name}: counts (puzzles, unique, multiple, none): {sorted(seen)}",
              file=sys.stderr)
        bad += 1
    n = next(iter(seen))[1][0]
    m = {who: statistics.median(t) for who, t in times.items()}
    print(f"{name:<34} {n:>7} {m['crate']:8.4f} {m['qqwing']:9.4f} {m['bezzel']:8.4f}"
          f" {m['crate'] / m['bezzel']:7.3f}x {m['qqwing'] / m['bezzel']:8.3f}x", flush=True)
print(f"load average at the end: {load()}")
if bad:
    sys.exit(f"{bad} disagreement(s) between the solvers: see above")
PY
