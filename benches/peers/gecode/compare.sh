#!/usr/bin/env bash
# Bezzel against Gecode 6.2, side by side in one run, one thread each, pinned to one CPU.
# For each workload it prints the medians of RUNS runs: Gecode's time, Bezzel's time, the
# ratio Gecode/Bezzel (> 1 means Bezzel is faster), and both node counts. The primary times
# are each program's own search-only figure (Gecode: steady_clock around the search; Bezzel:
# the `time:` of --stats); the processes' wall times and CPU times (user + sys), each with its
# ratio, follow: on a busy machine wall clocks stretch, CPU time much less.
#
#   bash benches/peers/gecode/compare.sh [WORKLOAD...]     (RUNS=5 CPU=0 TIMEOUT=900)
#
# WORKLOAD picks rows by any part of their name, spaces left out (queens, queens13, dom,
# top1465, 17clue, golomb, nonogram...). Runs of the two programs alternate, so that load
# drifting on the machine hits both alike. A Bezzel row whose command fails or prints no
# stats reads "n/a".
# Builds Bezzel's examples first and runs install.sh (which installs Gecode and builds its
# programs only when they are missing or out of date). Needs g++, apt, python3. Not in CI.
set -euo pipefail
cd "$(dirname "$0")/../../.."

# ---- What Bezzel is asked and how its answers are read: adjust here when the CLI changes.
# {n}, {consistency} (value|bounds|domain) and {file} are filled in per workload.
BEZZEL_QUEENS=${BEZZEL_QUEENS:-"target/release/queens count {n} --engine model --threads 1 --consistency {consistency} --stats"}
# Sudoku: first-fail, as Gecode's example branches (INT_VAR_SIZE_MIN); the sudoku command's
# own default is dom/wdeg.
BEZZEL_SUDOKU=${BEZZEL_SUDOKU:-"target/release/sudoku --count --limit 2 --threads 1 --order first-fail --consistency {consistency} --stats {file}"}
BEZZEL_GOLOMB=${BEZZEL_GOLOMB:-"target/release/examples/golomb {n}"}  # stdout: `length: L ...`
BEZZEL_NONOGRAM=${BEZZEL_NONOGRAM:-"target/release/examples/nonogram {file}"}  # stops at 2 solutions
# Python regexes over Bezzel's stderr; the last match counts. (The nonogram's count is the
# `solutions:` of its stats, the Golomb ruler's the `length:` on its stdout.)
BEZZEL_NODES_RE=${BEZZEL_NODES_RE:-'nodes: ([0-9]+)'}
BEZZEL_TIME_RE=${BEZZEL_TIME_RE:-'time: ([0-9.]+) ?s\b'}
SUDOKU_DATA=${SUDOKU_DATA:-../shared/data/sudoku}  # from the repository root, where it runs
# ----

export RUNS=${RUNS:-5} CPU=${CPU:-0} TIMEOUT=${TIMEOUT:-900}
export BEZZEL_QUEENS BEZZEL_SUDOKU BEZZEL_GOLOMB BEZZEL_NONOGRAM BEZZEL_NODES_RE BEZZEL_TIME_RE SUDOKU_DATA

G=benches/peers/gecode
mkdir -p $G/build
if ! cargo build --release --bins -q >$G/build/cargo-build.log 2>&1; then
  echo "warning: cargo build --release --bins failed (see $G/build/cargo-build.log);" \
       "using the binaries already in target/release, which may be stale or missing" >&2
fi
bash $G/install.sh

exec python3 - "$@" <<'PY'
import os, re, resource, shlex, shutil, statistics, subprocess, sys, time

env = os.environ
runs, timeout = int(env["RUNS"]), float(env["TIMEOUT"])
nodes_re, time_re = re.compile(env["BEZZEL_NODES_RE"]), re.compile(env["BEZZEL_TIME_RE"])
pin = ["taskset", "-c", env["CPU"]] if shutil.which("taskset") else []
data = env["SUDOKU_DATA"]
gecode = "benches/peers/gecode/build/"
level = {"val": "value", "bnd": "bounds", "dom": "domain"}

# name, Gecode argv, Bezzel command template fields, and the count both must agree on.
def queens(n, ipl, count):
    return (f"queens {n} {ipl}", [gecode + "queens", str(n), ipl],
            env["BEZZEL_QUEENS"], dict(n=n, consistency=level[ipl]), count)
def sudoku(label, file, ipl):
    return (f"sudoku {label} {ipl}", [gecode + "sudoku", f"{data}/{file}", ipl],
            env["BEZZEL_SUDOKU"], dict(file=f"{data}/{file}", consistency=level[ipl]), None)
def golomb(n, length):
    return (f"golomb {n}", [gecode + "golomb", str(n)], env["BEZZEL_GOLOMB"], dict(n=n), length)
def nonogram(label, file, solutions):
    return (f"nonogram {label}", [gecode + "nonogram", file], env["BEZZEL_NONOGRAM"],
            dict(file=file), solutions)
workloads = [
    queens(13, "val", 73712),
    queens(14, "val", 365596),
    queens(12, "dom", 14200),
    queens(14, "dom", 365596),
    sudoku("top1465", "puzzles3_magictour_top1465", "dom"),
    sudoku("17clue", "puzzles2_17_clue", "dom"),
    golomb(10, 55),                                        # OEIS A003022
    nonogram("25x25", "benches/data/nonogram25.txt", 2),   # search stops at 2
]
picks = sys.argv[1:]
def picked(name):
    squashed = name.replace(" ", "").replace("-", "")
    return not picks or any(p.replace(" ", "").replace("-", "") in squashed for p in picks)

class Failed(Exception):
    pass

def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def run(argv, capture_stdout):
    """((wall s, cpu s), stdout, stderr) of one pinned run; Failed if it fails."""
    cpu = cpu_of_children()
    t = time.perf_counter()
    try:
        p = subprocess.run(pin + argv, text=True, timeout=timeout, stderr=subprocess.PIPE,
                           stdout=subprocess.PIPE if capture_stdout else subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Failed(str(e))
    wall = (time.perf_counter() - t, cpu_of_children() - cpu)
    if p.returncode != 0:
        raise Failed(f"exit {p.returncode}: {p.stderr.strip()[-300:]}")
    return wall, p.stdout, p.stderr

def run_gecode(argv):
    """(internal s, (wall s, cpu s), nodes, count or None)."""
    wall, out, _ = run(argv, True)
    f = out.split()
    if argv[0].endswith(("queens", "golomb", "nonogram")):  # count nodes failures seconds
        return float(f[3]), wall, int(f[1]), int(f[0])
    puzzles, unique = int(f[0]), int(f[1])  # puzzles unique nodes failures seconds
    if unique != puzzles:
        print(f"  warning: Gecode: only {unique} of {puzzles} puzzles unique", file=sys.stderr)
    return float(f[4]), wall, int(f[2]), None

def run_bezzel(template, fields, kind):
    argv = shlex.split(template.format(**fields))
    wall, out, err = run(argv, kind in ("queens", "golomb"))
    nodes, secs = nodes_re.findall(err), time_re.findall(err)
    if not nodes or not secs:
        raise Failed(f"no nodes/time in stderr: {err.strip()[-300:]!r}")
    count = None
    if kind == "queens" and out.split():
        count = int(out.split()[0])
    elif kind == "golomb" and (m := re.findall(r"length: ([0-9]+)", out)):
        count = int(m[-1])
    elif kind == "nonogram" and (m := re.findall(r"solutions: ([0-9]+)", err)):
        count = int(m[-1])
    return float(secs[-1]), wall, int(nodes[-1]), count

def one(values, what):
    if len(set(values)) != 1:
        print(f"  warning: {what} differs between runs: {sorted(set(values))}", file=sys.stderr)
    return values[-1]

def fmt_ratio(g, b):
    return f"{g / b:.2f}x" if g is not None and b else "n/a"
def fmt_s(s):
    return f"{s:.3f}" if s is not None else "n/a"
def fmt_n(n):
    return f"{n:,}" if n is not None else "n/a"

def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
print(f"medians of {runs} runs, 1 thread, {'pinned to CPU ' + env['CPU'] if pin else 'not pinned'},"
      f" {os.cpu_count()} CPUs, load average {load()};"
      " ratio = Gecode / Bezzel (> 1: Bezzel faster)")
print(f"{'workload':<19} {'gecode s':>8} {'bezzel s':>8} {'ratio':>6} | {'g wall':>6} {'b wall':>6}"
      f" {'ratio':>6} | {'g cpu':>6} {'b cpu':>6} {'ratio':>6} | {'gecode nodes':>12} {'bezzel nodes':>12}")
for name, gargv, template, fields, count in workloads:
    if not picked(name):
        continue
    g, b, b_err = [], [], None
    for _ in range(runs):
        try:
            g.append(run_gecode(gargv))
        except Failed as e:
            print(f"  {name}: Gecode failed: {e}", file=sys.stderr)
            break
        if b_err is None:
            try:
                b.append(run_bezzel(template, fields, name.split()[0]))
            except Failed as e:
                b_err = e
                print(f"  {name}: Bezzel n/a: {e}", file=sys.stderr)
    g = g if len(g) == runs else []
    b = b if len(b) == runs else []
    gt = statistics.median(r[0] for r in g) if g else None
    gw = statistics.median(r[1][0] for r in g) if g else None
    gc = statistics.median(r[1][1] for r in g) if g else None
    gn = one([r[2] for r in g], f"{name}: Gecode nodes") if g else None
    bt = statistics.median(r[0] for r in b) if b else None
    bw = statistics.median(r[1][0] for r in b) if b else None
    bc = statistics.median(r[1][1] for r in b) if b else None
    bn = one([r[2] for r in b], f"{name}: Bezzel nodes") if b else None
    for who, rs in (("Gecode", g), ("Bezzel", b)):
        got = {r[3] for r in rs} - {None}
        if count is not None and got and got != {count}:
            print(f"  warning: {name}: {who} counted {sorted(got)}, expected {count}", file=sys.stderr)
    print(f"{name:<19} {fmt_s(gt):>8} {fmt_s(bt):>8} {fmt_ratio(gt, bt):>6} | {fmt_s(gw):>6}"
          f" {fmt_s(bw):>6} {fmt_ratio(gw, bw):>6} | {fmt_s(gc):>6} {fmt_s(bc):>6}"
          f" {fmt_ratio(gc, bc):>6} | {fmt_n(gn):>12} {fmt_n(bn):>12}", flush=True)
print(f"load average at the end: {load()}")
PY
