#!/usr/bin/env python3
"""Reruns every instance that both solvers finished in an earlier `bench.py` table, with the
current fzn-bezzel and the same limit and flags, interleaved instance by instance: how a change
made after a long run moves the "faster on" count, without rerunning the instances neither
finishes (the slow part). Usage, from the repository root:

    python3 benches/minizinc/bench.py --time-limit 60 --per-family 3 > table.txt   # once
    cargo build --release -p bezzel-flatzinc                                        # the change
    python3 benches/minizinc/rerun_both.py table.txt [--time-limit 60]
"""

import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def both_done(table):
    """(instance, kind) of each row where both cells are done, as bench.py prints them."""
    rows = []
    for line in open(table):
        if not re.match(r"^\S+/\S+\s", line):
            continue
        kind = line[41:44].strip()
        cells = (line[45:71].split(), line[72:98].split())
        finished = ("opt", "unsat") if kind in ("min", "max") else ("sol", "unsat")
        if all(c and c[0] in finished for c in cells):
            rows.append((line.split()[0], kind))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("table", help="the output of an earlier bench.py run")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--suite", default=os.path.join(bench.ROOT, "..", "shared", "data", "minizinc"))
    a = ap.parse_args()
    fzn_bezzel = os.path.join(bench.ROOT, "target", "release", "fzn-bezzel")
    msc = os.path.join(bench.ROOT, "crates", "bezzel-flatzinc", "bezzel.msc")
    ms = str(int(a.time_limit * 1000))
    tmp = tempfile.mkdtemp(prefix="bezzel-rerun-")
    rows = both_done(a.table)
    faster = 0
    for name, _ in rows:
        family, instance = name.split("/", 1)
        # bench.py's choice of instances (3 per family), so the same data file is found again.
        pairs = bench.instances(a.suite, family, 3)
        found = [(m, d) for m, d in pairs if os.path.basename(d or m).rsplit(".", 1)[0] == instance]
        if not found:
            print("%-40s not found with 3 per family" % name)
            continue
        model, data = found[0]
        fb, fg = os.path.join(tmp, "b.fzn"), os.path.join(tmp, "g.fzn")
        bench.compile_fzn(msc, model, data, fb)
        if bench.compile_fzn("gecode", model, data, fg):
            bench.compile_fzn("gecode", model, data, fg, ["-G", "std"])
        times = []
        for fzn, cmd in ((fb, [fzn_bezzel, "-s", "-t", ms]),
                         (fg, ["fzn-gecode", "-s", "-p", "1", "-time", ms])):
            sense, objective = bench.mark_objective(fzn)
            times.append(bench.solve(cmd + (["-a"] if sense else []), fzn, objective, a.time_limit)["time"])
        faster += times[0] < times[1]
        print("%-40s %8.3fs %8.3fs %s" % (name, times[0], times[1],
                                          "bezzel faster" if times[0] < times[1] else ""), flush=True)
    print("both done before: %d, bezzel faster now on %d" % (len(rows), faster))


if __name__ == "__main__":
    main()
