#!/usr/bin/env python3
"""Two builds of fzn-bezzel, side by side, on the MiniZinc suite's instances where all-different
families can form (issue 17: "no slowdown on any other benchmark").

Since the value-level and offset-view families, several all-differents that share variables
post one propagator for the whole group. Propagation reaches the same fixpoint, but a
dom/wdeg-style order counts failures per propagator, so the search tree may change. This
script compiles bench.py's instances once (Bezzel's mznlib), counts the `all_different_int`
constraints (and the globals that post one: inverse, circuit, subcircuit) in each FlatZinc,
and runs an OLD and a NEW `fzn-bezzel` on the same .fzn with bench.py's flags (`-s -t MS`,
`-a` when optimising), interleaved (old, new, old, new, ...), pinned to one core. Prints
status, objective, median wall time and the nodes of each, and flags NEW more than 10 %
slower or with a worse answer. Usage, from the repository root:

    git worktree add --detach ../old COMMIT && (cd ../old && cargo build --release -p bezzel-flatzinc)
    cargo build --release -p bezzel-flatzinc
    python3 benches/minizinc/families_check.py --list            # the counts of all 90
    python3 benches/minizinc/families_check.py --old ../old/target/release/fzn-bezzel \\
        --new target/release/fzn-bezzel --control queens/020 --control golomb/09

By default it runs every instance with two or more `all_different_int`; `--only NAME` (repeatable)
runs just those, `--control NAME` adds instances without one. The suite is read from
../shared/data/minizinc (or --suite DIR); the FlatZinc goes to --fzn-dir (kept between runs).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

GLOBALS = ("fzn_all_different_int", "fzn_inverse", "fzn_circuit", "fzn_subcircuit")


def compiled(suite, fzn_dir, per_family, names=None):
    """(name, fzn path or None, compile error, counts of GLOBALS) for bench.py's instances."""
    msc = os.path.join(bench.ROOT, "crates", "bezzel-flatzinc", "bezzel.msc")
    families = sorted(d for d in os.listdir(suite) if os.path.isdir(os.path.join(suite, d)))
    out = []
    for fam in families:
        for model, data in bench.instances(suite, fam, per_family):
            name = fam + "/" + os.path.basename(data or model).rsplit(".", 1)[0]
            if names is not None and name not in names:
                continue
            fzn = os.path.join(fzn_dir, name.replace("/", "__") + ".fzn")
            err = None
            if not os.path.exists(fzn):
                err = bench.compile_fzn(msc, model, data, fzn + ".tmp")
                if err is None:
                    os.replace(fzn + ".tmp", fzn)
                    bench.mark_objective(fzn)
            if err is not None or not os.path.exists(fzn):
                out.append((name, None, err or "not compiled", {}))
                continue
            text = open(fzn).read()
            counts = {g: len(re.findall(r"^constraint\s+" + g + r"\s*\(", text, re.M)) for g in GLOBALS}
            out.append((name, fzn, None, counts))
    return out


def run_once(binary, fzn, sense, objective, limit_s, cpu):
    """One run: (result dict as bench.solve's, plus wall time and nodes)."""
    cmd = ["taskset", "-c", str(cpu), "nice", "-n", "5", "timeout", "-s", "KILL", str(int(limit_s + 10))]
    cmd += [binary, "-s", "-t", str(int(limit_s * 1000))] + (["-a"] if sense else [])
    start = time.perf_counter()
    p = subprocess.run(cmd + [fzn], capture_output=True, text=True)
    wall = time.perf_counter() - start
    out = p.stdout + p.stderr
    r = {"wall": wall, "rc": p.returncode, "obj": None, "nodes": None, "failures": None, "propagations": None}
    vals = re.findall(r"^" + re.escape(objective) + r" = (-?\d+);", out, re.M) if objective else []
    if vals:
        r["obj"] = int(vals[-1])
    for key in ("nodes", "failures", "propagations"):
        m = re.findall(r"%%%mzn-stat:\s*" + key + r"=(\d+)", out)
        if m:
            r[key] = int(m[-1])
    r["unsat"] = "=====UNSATISFIABLE=====" in out
    r["solved"] = "----------" in out
    r["optimal"] = "==========" in out or r["unsat"]
    r["err"] = "=====ERROR=====" in out or (p.returncode != 0 and not r["solved"])
    if r["err"]:
        r["errtext"] = out.strip().splitlines()[-1:] if out.strip() else ["exit %d" % p.returncode]
    r["status"] = ("error" if r["err"] else "unsat" if r["unsat"] else
                   ("opt" if sense else "sol") if r["optimal"] else "sol" if r["solved"] else "-")
    return r


def worse(new, old, sense):
    """Whether NEW's answer is worse than OLD's: less done, or a worse objective."""
    rank = {"error": 0, "-": 1, "sol": 2, "opt": 3, "unsat": 3}
    if rank[new["status"]] != rank[old["status"]]:
        return rank[new["status"]] < rank[old["status"]]
    if sense and old["obj"] is not None:
        if new["obj"] is None:
            return True
        return new["obj"] > old["obj"] if sense == "minimize" else new["obj"] < old["obj"]
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", help="the baseline fzn-bezzel")
    ap.add_argument("--new", default=os.path.join(bench.ROOT, "target", "release", "fzn-bezzel"))
    ap.add_argument("--suite", default=os.path.join(bench.ROOT, "..", "shared", "data", "minizinc"))
    ap.add_argument("--fzn-dir", default=os.path.join(tempfile.gettempdir(), "bezzel-families-fzn"))
    ap.add_argument("--per-family", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per run")
    ap.add_argument("--repeats", type=int, default=3, help="runs of each build (interleaved)")
    ap.add_argument("--slow", type=float, default=20.0, help="one run each past this many seconds")
    ap.add_argument("--cpu", type=int, default=1, help="the core to pin to")
    ap.add_argument("--list", action="store_true", help="compile and count only")
    ap.add_argument("--only", action="append", help="run just this instance (repeatable)")
    ap.add_argument("--control", action="append", default=[], help="add this instance (repeatable)")
    a = ap.parse_args()
    if not os.path.isdir(a.suite):
        sys.exit("the MiniZinc suite is absent: %s (see --suite)" % a.suite)
    os.makedirs(a.fzn_dir, exist_ok=True)
    names = None if a.list or not a.only else set(a.only) | set(a.control)
    rows = compiled(a.suite, a.fzn_dir, a.per_family, names)
    if a.list:
        print("%-40s %s" % ("instance", "  ".join("%s" % g[4:] for g in GLOBALS)))
        for name, fzn, err, counts in rows:
            print("%-40s %s" % (name, err if err else "  ".join("%*d" % (len(g) - 4, counts[g]) for g in GLOBALS)))
        return
    if not a.old or not os.path.exists(a.old) or not os.path.exists(a.new):
        sys.exit("give --old and --new (built fzn-bezzel binaries)")
    chosen = [r for r in rows if r[1] and (
        r[0] in a.control or (a.only and r[0] in a.only) or (not a.only and r[3]["fzn_all_different_int"] >= 2))]
    print("old: %s\nnew: %s\nload at start: %s" % (a.old, a.new, os.getloadavg()))
    head = "%-32s %3s %-3s %-14s %-14s %8s %8s %6s %10s %10s %s" % (
        "instance", "#ad", "", "old", "new", "old t", "new t", "o/n", "old nodes", "new nodes", "note")
    print(head)
    flagged = []
    for name, fzn, _, counts in chosen:
        text = open(fzn).read()
        m = re.search(r"^solve\b.*\b(minimize|maximize)\s+([A-Za-z_][A-Za-z0-9_]*)\s*;", text, re.M)
        sense, objective = (m.group(1), m.group(2)) if m else (None, None)
        runs = {"old": [], "new": []}
        for rep in range(a.repeats):
            for key in ("old", "new"):
                runs[key].append(run_once(getattr(a, key), fzn, sense, objective, a.time_limit, a.cpu))
            if max(r["wall"] for r in runs["old"] + runs["new"]) > a.slow:
                break
        o, n = runs["old"][-1], runs["new"][-1]
        to = statistics.median(r["wall"] for r in runs["old"])
        tn = statistics.median(r["wall"] for r in runs["new"])
        same = o["status"] == n["status"] and o["obj"] == n["obj"]
        note = []
        if not same:
            note.append("answers differ")
        if worse(n, o, sense):
            note.append("WORSE ANSWER")
        timed_out = o["status"] in ("-", "sol") and sense or o["status"] == "-"
        if timed_out and all(r["nodes"] for r in runs["old"] + runs["new"]):
            # Both ran to the limit: throughput is the comparison, not time, and the node
            # counts differ only by where the limit cut (a tree change cannot be told here:
            # compare propagations per node, or instruction counts per node under callgrind).
            rate = {k: statistics.median(r["nodes"] / r["wall"] for r in runs[k]) for k in runs}
            ratio = rate["new"] / rate["old"]
            note.append("to limit: nodes/s new/old %.2f (old %s, new %s)" % (
                ratio, "/".join(str(r["nodes"]) for r in runs["old"]),
                "/".join(str(r["nodes"]) for r in runs["new"])))
            if ratio < 1 / 1.1:
                note.append("SLOWER (nodes/s)")
            ppn = {k: statistics.median(r["propagations"] / r["nodes"] for r in runs[k]) for k in runs}
            note.append("propagations/node %.1f -> %.1f" % (ppn["old"], ppn["new"]))
        else:
            if tn > 1.1 * to and tn - to > 0.005:
                note.append("SLOWER")
            if o["nodes"] != n["nodes"]:
                note.append("tree changed")
            if o["propagations"] != n["propagations"]:
                # Fewer propagator runs for the same nodes: a family formed.
                note.append("propagations %s -> %s" % (o["propagations"], n["propagations"]))
        if any(k in " ".join(note) for k in ("SLOWER", "WORSE")):
            flagged.append(name)
        print("%-32s %3d %-3s %-14s %-14s %8.3f %8.3f %6.2f %10s %10s %s [%d runs]" % (
            name[:32], counts["fzn_all_different_int"], (sense or "sat")[:3],
            ("%s %s" % (o["status"], "" if o["obj"] is None else o["obj"]))[:14],
            ("%s %s" % (n["status"], "" if n["obj"] is None else n["obj"]))[:14],
            to, tn, to / tn if tn else 0, o["nodes"], n["nodes"], "; ".join(note), len(runs["old"])))
        sys.stdout.flush()
    print("load at end: %s" % (os.getloadavg(),))
    print("flagged: %s" % (", ".join(flagged) or "none"))


if __name__ == "__main__":
    main()
