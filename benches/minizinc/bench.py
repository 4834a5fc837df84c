#!/usr/bin/env python3
"""Bezzel (fzn-bezzel) against Gecode (fzn-gecode) on the MiniZinc benchmark suite.

Each instance is compiled by MiniZinc once per solver (Bezzel's mznlib; a copy of Gecode's own
library mended for MiniZinc 2.6.4, see `gecode_solver`, or the standard library where that
still does not compile, marked "std"),
then both FlatZinc solvers run it with the same time limit, the models' search annotations
and one thread. The objective variable is marked for output so that both print it. Prints one
table row per instance and the totals. Usage, from the repository root:

    cargo build --release -p bezzel-flatzinc
    python3 benches/minizinc/bench.py --time-limit 10 --per-family 2 [FAMILY ...]

The suite is read from ../shared/data/minizinc (or --suite DIR). `--pumpkin DIR` adds Pumpkin
as a third column (DIR holds `bin/pumpkin-solver`, as `../shared/peers/pumpkin/setup.sh`
installs it under ~/.cache/pumpkin-0.5.0, and its `mznlib` is read from the `.msc` there). The
scheduling table of BENCHMARKS.md comes from

    python3 benches/minizinc/bench.py --time-limit 20 --per-family 99 \
        --suite ../shared/data/minizinc-scheduling --pumpkin ~/.cache/pumpkin-0.5.0

Two configurations of Bezzel side by side (no Gecode), e.g. learning against the default:

    python3 benches/minizinc/bench.py --time-limit 20 --per-family 99 \
        --suite ../shared/data/minizinc-scheduling --bezzel-flags=--learning --versus-flags=""
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def family_files(suite, family):
    """A family's folder, its models (names, sorted) and its data files (paths, sorted, from
    every subfolder)."""
    fdir = os.path.join(suite, family)
    models = sorted(f for f in os.listdir(fdir) if f.endswith(".mzn"))
    data = []
    for base, _, files in os.walk(fdir):
        data += [os.path.join(base, f) for f in files if f.endswith(".dzn")]
    return fdir, models, sorted(data)


def instances(suite, family, per_family):
    """The model and the chosen data files of a family: evenly spread over its sorted list."""
    fdir, models, data = family_files(suite, family)
    if not models:
        return []
    if data:
        model = family + ".mzn" if family + ".mzn" in models else models[0]
        pairs = [(os.path.join(fdir, model), d) for d in data]
    else:  # each model is an instance
        pairs = [(os.path.join(fdir, m), None) for m in models]
    if len(pairs) > per_family:
        step = len(pairs) / per_family
        pairs = [pairs[int(i * step)] for i in range(per_family)]
    return pairs


def compile_fzn(solver, model, data, fzn, extra=()):
    cmd = ["minizinc", "--solver", solver, "-c", model] + ([data] if data else [])
    cmd += ["--fzn", fzn, "--ozn", fzn + ".ozn"] + list(extra)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "compile timeout"
    if p.returncode != 0:
        return (p.stderr.strip().splitlines() or ["compile error"])[-1][:80]
    return None


def gecode_solver(tmp):
    """A solver configuration for Gecode 6.2 whose library compiles with MiniZinc 2.6.4.

    Gecode 6.2's `mznlib` declares `inverse` and `nvalue` with the signatures of older MiniZinc
    versions, so every model that includes `globals.mzn` fails to compile with it. The copy made
    here drops `nvalue.mzn` (the standard decomposition is used) and turns Gecode's `inverse`
    into `fzn_inverse`, so that Gecode keeps its own propagators for everything else
    (`cumulatives`, `all_different`, ...). Falls back to "gecode" when the library is absent."""
    lib = "/usr/share/minizinc/gecode"
    if not os.path.isdir(lib):
        return "gecode"
    copy = os.path.join(tmp, "gecode-lib")
    shutil.copytree(lib, copy)
    os.remove(os.path.join(copy, "nvalue.mzn"))
    text = open(os.path.join(copy, "inverse.mzn")).read()
    os.remove(os.path.join(copy, "inverse.mzn"))
    text = re.sub(r"^predicate inverse\(", "predicate fzn_inverse(", text, flags=re.M)
    open(os.path.join(copy, "fzn_inverse.mzn"), "w").write(text)
    msc = os.path.join(tmp, "gecode.msc")
    open(msc, "w").write(json.dumps({
        "id": "org.bezzel.gecode-6.2-fixed", "name": "Gecode 6.2, library fixed for MiniZinc 2.6",
        "version": "6.2", "mznlib": copy, "executable": shutil.which("fzn-gecode") or "fzn-gecode",
        "stdFlags": ["-a", "-f", "-n", "-p", "-r", "-s", "-t"], "supportsFzn": True}))
    return msc


def mark_objective(fzn):
    """Adds output_var to the objective's declaration; returns (sense, name) or (None, None)."""
    text = open(fzn).read()
    m = re.search(r"^solve\b.*\b(minimize|maximize)\s+([A-Za-z_][A-Za-z0-9_]*)\s*;", text, re.M)
    if not m:
        return None, None
    sense, name = m.group(1), m.group(2)
    decl = re.compile(r"^(var [^:]*:\s*" + re.escape(name) + r")(\s*(::|=|;))", re.M)
    if not re.search(r"^var [^:]*:\s*" + re.escape(name) + r"\b[^;]*output_var", text, re.M):
        text = decl.sub(lambda d: d.group(1) + " :: output_var" + d.group(2), text, count=1)
        open(fzn, "w").write(text)
    return sense, name


def solve(cmd, fzn, objective, limit_s):
    start = time.time()
    try:
        p = subprocess.run(cmd + [fzn], capture_output=True, text=True, timeout=limit_s + 10)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), -9
    elapsed = time.time() - start
    r = {"time": elapsed, "solved": False, "optimal": False, "unsat": False, "obj": None, "err": None}
    if "=====ERROR=====" in out or (rc not in (0, -9) and "----------" not in out):
        lines = [l for l in out.splitlines() if "rror" in l or "nsupported" in l]
        r["err"] = (lines[0] if lines else "exit %d" % rc)[:90]
        return r
    if objective:
        vals = re.findall(r"^" + re.escape(objective) + r" = (-?\d+);", out, re.M)
        if vals:
            r["obj"] = int(vals[-1])
    r["solved"] = "----------" in out
    r["unsat"] = "=====UNSATISFIABLE=====" in out
    r["optimal"] = "==========" in out or r["unsat"]
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per instance and solver")
    ap.add_argument("--per-family", type=int, default=2)
    ap.add_argument("--suite", default=os.path.join(ROOT, "..", "shared", "data", "minizinc"))
    ap.add_argument("--bezzel", help="the fzn-bezzel to run (default: target/release/fzn-bezzel)")
    ap.add_argument("--pumpkin", help="run Pumpkin too: its install folder (bin/, msc/)")
    ap.add_argument("--bezzel-flags", default="", help="extra fzn-bezzel flags, e.g. \"--learning\"")
    ap.add_argument("--versus-flags", metavar="FLAGS",
                    help="in place of Gecode, fzn-bezzel again with these flags (\"\" for none): "
                         "two configurations of Bezzel side by side, run one after the other per instance")
    ap.add_argument("families", nargs="*")
    a = ap.parse_args()
    if not os.path.isdir(a.suite):
        sys.exit("the MiniZinc suite is absent: %s (see --suite)" % a.suite)
    fzn_bezzel = a.bezzel or os.path.join(ROOT, "target", "release", "fzn-bezzel")
    if not os.path.exists(fzn_bezzel):
        sys.exit("build it first: cargo build --release -p bezzel-flatzinc")
    msc = os.path.join(ROOT, "crates", "bezzel-flatzinc", "bezzel.msc")
    ms = str(int(a.time_limit * 1000))
    families = a.families or sorted(d for d in os.listdir(a.suite) if os.path.isdir(os.path.join(a.suite, d)))
    pumpkin = None
    if a.pumpkin:
        pumpkin_bin = os.path.join(a.pumpkin, "bin", "pumpkin-solver")
        pumpkin_msc = os.path.join(a.pumpkin, "msc", "pumpkin.msc")
        if not (os.path.exists(pumpkin_bin) and os.path.exists(pumpkin_msc)):
            sys.exit("no Pumpkin in %s (run ../shared/peers/pumpkin/setup.sh)" % a.pumpkin)
        pumpkin = (pumpkin_msc, [pumpkin_bin, "-s", "-t", ms])
    tmp = tempfile.mkdtemp(prefix="bezzel-mzn-")
    versus = a.versus_flags is not None
    gecode = None if versus else gecode_solver(tmp)
    bezzel_cmd = [fzn_bezzel, "-s", "-t", ms] + a.bezzel_flags.split()
    peer_name = "bezzel " + a.versus_flags if versus else "gecode"
    rows = []
    print("%-40s %-3s %-26s %-26s %s%s" % ("instance", "", "bezzel: status obj time", peer_name[:16] + ": status obj time",
                                          "pumpkin: status obj time   " if pumpkin else "", "note"))
    for fam in families:
        for model, data in instances(a.suite, fam, a.per_family):
            name = fam + "/" + os.path.basename(data or model).rsplit(".", 1)[0]
            fb, fg = os.path.join(tmp, "b.fzn"), os.path.join(tmp, "g.fzn")
            note = []
            eb = compile_fzn(msc, model, data, fb)
            eg = eb if versus else compile_fzn(gecode, model, data, fg)
            if eg and not versus:
                eg2 = compile_fzn("gecode", model, data, fg, ["-G", "std"])
                note.append("gecode: std lib")
                eg = eg2
            runs = [
                ("bezzel", eb, fb, bezzel_cmd),
                ("gecode", eg, fb, [fzn_bezzel, "-s", "-t", ms] + a.versus_flags.split()) if versus
                else ("gecode", eg, fg, ["fzn-gecode", "-s", "-p", "1", "-time", ms]),
            ]
            if pumpkin:
                fp = os.path.join(tmp, "p.fzn")
                runs.append(("pumpkin", compile_fzn(pumpkin[0], model, data, fp), fp, pumpkin[1]))
            res = {}
            for key, err, fzn, cmd in runs:
                if err:
                    res[key] = {"time": 0, "solved": False, "optimal": False, "unsat": False, "obj": None, "err": err}
                    continue
                sense, obj = mark_objective(fzn)
                # Optimisation: every improving solution, so that a run cut short shows its best.
                res[key] = solve(cmd + (["-a"] if sense else []), fzn, obj, a.time_limit)
                res[key]["sense"] = sense
            b, g = res["bezzel"], res["gecode"]
            p = res.get("pumpkin")
            peers = [g] + ([p] if p else [])
            kind = b.get("sense") or g.get("sense") or ("satisfy" if not (b["err"] and g["err"]) else "?")
            for r in [b] + peers:
                # Done: a solution (satisfaction) or a proven optimum (optimisation), or unsat.
                r["done"] = r["unsat"] or (r["optimal"] if kind in ("minimize", "maximize") else r["solved"])
            for x in peers:
                if b["optimal"] and x["optimal"] and (b["obj"] != x["obj"] or b["unsat"] != x["unsat"]):
                    note.append("DISAGREE")
                if b["unsat"] and x["solved"] or x["unsat"] and b["solved"]:
                    note.append("DISAGREE")
            def cell(r):
                if r["err"]:
                    return "error"
                st = "unsat" if r["unsat"] else "opt" if r["optimal"] and kind != "satisfy" else "sol" if r["solved"] else "-"
                return "%-5s %8s %6.2fs" % (st, "" if r["obj"] is None else r["obj"], r["time"])
            print("%-40s %-3s %-26s %-26s %s%s" % (name[:40], kind[:3], cell(b), cell(g), "%-26s " % cell(p) if p else "",
                                                "; ".join(note + [r["err"] for r in [b] + peers if r["err"]])))
            sys.stdout.flush()
            rows.append((name, kind, b, g, p))
    both = [(b, g) for _, _, b, g, _ in rows if b["done"] and g["done"]]
    faster = sum(1 for b, g in both if b["time"] < g["time"])
    def better(x, y, sense):
        return x is not None and (y is None or (x < y if sense == "minimize" else x > y))
    print()
    print("instances %d, time limit %gs, one thread each" % (len(rows), a.time_limit))
    for key, who in (("bezzel", 2), (peer_name, 3)) + ((("pumpkin", 4),) if pumpkin else ()):
        rs = [r[who] for r in rows]
        print("%s: done %d (satisfied, proven optimal or unsatisfiable), a solution %d, errors %d" % (
            key, sum(r["done"] for r in rs), sum(r["solved"] for r in rs), sum(1 for r in rs if r["err"])))
    for peer, who in ((peer_name, 3),) + ((("pumpkin", 4),) if pumpkin else ()):
        opt = [(r[1], r[2], r[who]) for r in rows if r[1] in ("minimize", "maximize")]
        print("better objective than %s (optimisation, %d instances): bezzel %d, %s %d" % (
            peer, len(opt), sum(better(b["obj"], x["obj"], k) for k, b, x in opt), peer,
            sum(better(x["obj"], b["obj"], k) for k, b, x in opt)))
    print("both done (bezzel, %s): %d, bezzel faster on %d" % (peer_name, len(both), faster))


if __name__ == "__main__":
    main()
