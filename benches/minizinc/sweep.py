#!/usr/bin/env python3
"""Every instance of the MiniZinc suite through `minizinc --solver bezzel`, each answer checked
by Gecode: the correctness sweep behind issue 14's first target.

For each model and data file of ../shared/data/minizinc (or --suite DIR), MiniZinc compiles the
model with Bezzel's mznlib and runs fzn-bezzel with a short time limit, printing the solution
as data (`--output-mode dzn`). Each instance ends in one of:

- `error`: Bezzel (or the compiler on its behalf) refused it; the message is shown (float or
  set variables, say). These are the "unsupported" lines of BENCHMARKS.md.
- `unsat`: Bezzel proved it unsatisfiable. Gecode is run on it with the check's limit:
  `unsat/confirmed` when it proves the same, `unsat-disagree` if it finds a solution,
  `unsat/unconfirmed` when it decides nothing in time.
- `solution`/`complete` (optimal, or every solution found): the last solution found, as data, is handed back to MiniZinc with
  Gecode's standard-library build: Gecode must accept the values (`REJECTED` if it finds the
  model unsatisfiable with them). A check that cannot decide in its own time limit, or whose
  data MiniZinc cannot take (an output variable with a definition), is `unchecked`.
- `unknown`: no answer within the limit (not an error: the instance is just hard).
- `other-model`: a family with several models, and this data file belongs to another one
  (the compiler says an identifier is undefined or unassigned); not an instance.

Usage, from the repository root (after `cargo build --release -p bezzel-flatzinc`):

    python3 benches/minizinc/sweep.py [--time-limit 3] [--check-limit 20] [FAMILY ...]

Prints one line per instance and the totals; exits 1 if any answer was rejected.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def instances(suite, family):
    """Every (model, data file) pair of a family; a model without data files is one alone."""
    fdir, models, data = bench.family_files(suite, family)
    if not models:
        return []
    if not data:
        return [(os.path.join(fdir, m), None) for m in models]
    # Several models share the data files (talent_scheduling's three, still_life's four) or
    # split them (league's two): every pair is tried, and a pair whose data belongs to the
    # other model is told apart by the compiler's message (see `foreign_data`).
    return [(os.path.join(fdir, m), d) for d in data for m in models]


def foreign_data(message):
    """Whether a compile error says that the data file is another model's."""
    return any(
        m in message
        for m in ("undefined identifier", "is undefined", "no value", "multiple assignment",
                  "type-inst mismatch", "not assigned", "type error: declaration")
    )


def run(cmd, limit):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, out, ""


def last_solution(stdout):
    parts = [s for s in stdout.split("----------\n")[:-1] if " = " in s]
    if not parts:
        return None
    # Assignments may span lines (2-D arrays): keep all but the objective and comments.
    lines = parts[-1].splitlines()
    return "".join(l + "\n" for l in lines if not l.startswith(("_objective", "%")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--time-limit", type=float, default=3.0, help="seconds per instance for Bezzel")
    ap.add_argument("--check-limit", type=float, default=20.0, help="seconds for each Gecode check")
    ap.add_argument("--suite", default=os.path.join(ROOT, "..", "shared", "data", "minizinc"))
    ap.add_argument("families", nargs="*")
    a = ap.parse_args()
    if not os.path.isdir(a.suite):
        sys.exit("the MiniZinc suite is absent: %s (see --suite)" % a.suite)
    if not os.path.exists(os.path.join(ROOT, "target", "release", "fzn-bezzel")):
        sys.exit("build it first: cargo build --release -p bezzel-flatzinc")
    msc = os.path.join(ROOT, "crates", "bezzel-flatzinc", "bezzel.msc")
    tmp = tempfile.mkdtemp(prefix="bezzel-sweep-")
    families = a.families or sorted(
        d for d in os.listdir(a.suite) if os.path.isdir(os.path.join(a.suite, d))
    )
    totals = {}
    rejected = []
    for fam in families:
        for model, data in instances(a.suite, fam):
            name = "%s/%s" % (fam, os.path.basename(data or model).rsplit(".", 1)[0])
            if data and len([m for m in os.listdir(os.path.join(a.suite, fam)) if m.endswith(".mzn")]) > 1:
                name += " (%s)" % os.path.basename(model)
            limit_ms = str(int(a.time_limit * 1000))
            cmd = ["minizinc", "--solver", msc, "--output-mode", "dzn", "--output-objective"]
            cmd += ["--solver-time-limit", limit_ms, model] + ([data] if data else [])
            rc, out, err = run(cmd, a.time_limit + 120)
            note = ""
            if rc is None:
                status = "compile-timeout" if "----------" not in out else "solution"
            elif "=====ERROR=====" in out or (rc != 0 and "----------" not in out):
                status = "error"
                lines = [l for l in (out + err).splitlines() if "rror" in l or "nsupported" in l]
                note = (lines[0] if lines else "exit %s" % rc)[:110]
                several = len([m for m in os.listdir(os.path.join(a.suite, fam)) if m.endswith(".mzn")])
                if several > 1 and foreign_data(out + err):
                    status = "other-model"
                    note = "the data is another model's: " + note
            elif "=====UNSATISFIABLE=====" in out:
                status = "unsat"
            elif "----------" in out:
                status = "complete" if "==========" in out else "solution"
            else:
                status = "unknown"
            if status == "unsat":
                g = ["minizinc", "--solver", "gecode", "-G", "std", "--solver-time-limit",
                     str(int(a.check_limit * 1000)), model] + ([data] if data else [])
                _, gout, _ = run(g, a.check_limit + 120)
                if "----------" in gout:
                    status = "unsat-disagree"
                    rejected.append(name)
                elif "=====UNSATISFIABLE=====" in gout:
                    status = "unsat/confirmed"
                else:
                    status = "unsat/unconfirmed"
            if status in ("solution", "complete"):
                sol = last_solution(out)
                if sol is None:
                    note = "no values printed"
                    status += "/unchecked"
                else:
                    dzn = os.path.join(tmp, "solution.dzn")
                    with open(dzn, "w") as f:
                        f.write(sol)
                    g = ["minizinc", "--solver", "gecode", "-G", "std", "--solver-time-limit",
                         str(int(a.check_limit * 1000)), model] + ([data] if data else []) + [dzn]
                    grc, gout, gerr = run(g, a.check_limit + 120)
                    if "----------" in gout:
                        status += "/checked"
                    elif "=====UNSATISFIABLE=====" in gout:
                        status = "REJECTED"
                        rejected.append(name)
                        note = sol.replace("\n", " ")[:110]
                    else:
                        status += "/unchecked"
                        lines = [l for l in (gout + gerr).splitlines() if "rror" in l]
                        note = (lines[0] if lines else "check undecided in time")[:110]
            totals[status] = totals.get(status, 0) + 1
            print("%-48s %-20s %s" % (name[:48], status, note))
            sys.stdout.flush()
    print()
    print("instances %d, Bezzel %gs each: %s" % (
        sum(totals.values()), a.time_limit,
        ", ".join("%s %d" % kv for kv in sorted(totals.items()))))
    if rejected:
        print("REJECTED or disagreeing: " + ", ".join(rejected))
        sys.exit(1)


if __name__ == "__main__":
    main()
