//! The conformance suite: every model of `tests/models` compiled by MiniZinc for Bezzel (its
//! `mznlib`) and solved by `fzn-bezzel`, through `minizinc` as a user runs it. Each model's
//! `% expect:` line gives the answer, which does not come from Bezzel (a published count, a
//! count by hand, or Gecode's count); and every printed solution is checked by Gecode: those
//! of a satisfaction model must be the very solutions Gecode enumerates, each improving
//! solution of an optimisation is handed back to MiniZinc as data and solved with Gecode,
//! which must accept it.
//!
//! Needs `minizinc` (Debian's package, 2.6). Without it the tests say so and pass, unless
//! `BEZZEL_REQUIRE_MINIZINC=1` (set by `.ci/run`), where they fail.

use bezzel_flatzinc::BUILTINS;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn minizinc_present() -> bool {
    let found = Command::new("minizinc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        if std::env::var_os("BEZZEL_REQUIRE_MINIZINC").is_some_and(|v| v == "1") {
            panic!("BEZZEL_REQUIRE_MINIZINC=1 but `minizinc` cannot be run");
        }
        eprintln!("skipped: `minizinc` is not installed (apt-get install minizinc flatzinc)");
    }
    found
}

fn gecode_present() -> bool {
    let out = Command::new("minizinc").arg("--solvers").output();
    let found = out.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("org.gecode.gecode"));
    if !found {
        if std::env::var_os("BEZZEL_REQUIRE_MINIZINC").is_some_and(|v| v == "1") {
            panic!("BEZZEL_REQUIRE_MINIZINC=1 but MiniZinc has no Gecode to check solutions with");
        }
        eprintln!("solutions not checked: MiniZinc has no Gecode (apt-get install flatzinc)");
    }
    found
}

/// A solver configuration naming this build's `fzn-bezzel` and a copy of the crate's
/// `mznlib`, as `fzn-bezzel --write-msc` writes it.
fn solver_config(dir: &Path) -> PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-bezzel"))
        .arg("--write-msc")
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    dir.join("bezzel.msc")
}

fn models() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mzn"))
        .collect();
    v.sort();
    v
}

/// A printed solution as data: its assignments, without the objective and comments.
fn data(solution: &str) -> String {
    solution
        .lines()
        .filter(|l| !l.starts_with("_objective") && !l.starts_with('%') && !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

#[test]
fn conformance_models_give_the_expected_answers() {
    if !minizinc_present() {
        return;
    }
    let check_with_gecode = gecode_present();
    let dir = tempfile::tempdir().unwrap();
    let msc = solver_config(dir.path());
    let mut failures = Vec::new();
    for model in models() {
        let name = model.file_name().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&model).unwrap();
        let expect = source
            .lines()
            .find_map(|l| l.strip_prefix("% expect: "))
            .unwrap_or_else(|| panic!("{name}: no `% expect:` line"));
        let expect = expect.split_whitespace().next().unwrap();
        let out = Command::new("minizinc")
            .arg("--solver")
            .arg(&msc)
            .args(["-a", "--output-mode", "dzn", "--output-objective"])
            .arg(&model)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let solutions: Vec<&str> = stdout
            .split("----------\n")
            .filter(|s| s.contains(" = "))
            .collect();
        let complete = stdout.contains("==========");
        let ok = match expect.split_once('=') {
            Some(("solutions", n)) => complete && solutions.len() == n.parse::<usize>().unwrap(),
            Some(("optimum", v)) => {
                complete
                    && solutions
                        .last()
                        .is_some_and(|s| s.contains(&format!("_objective = {v};")))
            }
            _ if expect == "unsat" => stdout.contains("=====UNSATISFIABLE====="),
            _ if expect == "error" => {
                !out.status.success() && text(&out).contains("=====ERROR=====")
            }
            _ => panic!("{name}: unknown expectation {expect}"),
        };
        if !ok {
            failures.push(format!("{name}: expected {expect}, got\n{}", text(&out)));
            continue;
        }
        if !check_with_gecode || solutions.is_empty() {
            continue;
        }
        if expect.starts_with("solutions=") {
            // Every solution at once: Gecode's own enumeration of the model must print the
            // same solutions, as many times each.
            let gecode = Command::new("minizinc")
                .args([
                    "--solver",
                    "gecode",
                    "-G",
                    "std",
                    "-a",
                    "--output-mode",
                    "dzn",
                ])
                .arg(&model)
                .output()
                .unwrap();
            let theirs = String::from_utf8_lossy(&gecode.stdout).into_owned();
            let mut theirs: Vec<String> = theirs
                .split("----------\n")
                .filter(|s| s.contains(" = "))
                .map(data)
                .collect();
            let mut ours: Vec<String> = solutions.iter().map(|s| data(s)).collect();
            theirs.sort();
            ours.sort();
            if ours != theirs {
                let missing: Vec<&String> = theirs
                    .iter()
                    .filter(|s| !ours.contains(s))
                    .take(3)
                    .collect();
                let extra: Vec<&String> = ours
                    .iter()
                    .filter(|s| !theirs.contains(s))
                    .take(3)
                    .collect();
                failures.push(format!(
                    "{name}: {} solutions, Gecode {}; Gecode's not found: {missing:?}; found, not Gecode's: {extra:?}",
                    ours.len(),
                    theirs.len()
                ));
            }
            continue;
        }
        // Each improving solution as data: MiniZinc then only has to check it.
        for (i, solution) in solutions.iter().enumerate() {
            let data = data(solution);
            let dzn = dir.path().join("solution.dzn");
            std::fs::write(&dzn, &data).unwrap();
            let check = Command::new("minizinc")
                .args(["--solver", "gecode", "-G", "std"])
                .arg(&model)
                .arg(&dzn)
                .output()
                .unwrap();
            let verdict = String::from_utf8_lossy(&check.stdout);
            if !check.status.success() || !verdict.contains("----------") {
                failures.push(format!(
                    "{name}: Gecode rejects solution {i}:\n{data}{}",
                    text(&check)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A folder holding Bezzel's solver configuration, and its path; `None` without `minizinc`.
fn bezzel_for_minizinc() -> Option<(tempfile::TempDir, PathBuf)> {
    if !minizinc_present() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let msc = solver_config(dir.path());
    Some((dir, msc))
}

/// The FlatZinc that MiniZinc makes of `model` for the solver of `msc`, written in `dir`.
fn compile(msc: &Path, model: &Path, dir: &Path) -> String {
    let fzn = dir.join("model.fzn");
    let out = Command::new("minizinc")
        .arg("--solver")
        .arg(msc)
        .arg("-c")
        .arg(model)
        .arg("--fzn")
        .arg(&fzn)
        .arg("--ozn") // else it lands beside the model
        .arg(dir.join("model.ozn"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}: {}", model.display(), text(&out));
    std::fs::read_to_string(&fzn).unwrap()
}

#[test]
fn every_global_of_the_mznlib_is_exercised() {
    let Some((dir, msc)) = bezzel_for_minizinc() else {
        return;
    };
    let mut flat = String::new();
    for model in models().iter().filter(|m| !m.ends_with("conf_float.mzn")) {
        flat += &compile(&msc, model, dir.path());
    }
    for name in BUILTINS
        .iter()
        .map(|b| b.name)
        .filter(|n| n.starts_with("fzn_") || n.starts_with("bezzel_"))
    {
        assert!(
            flat.contains(&format!("constraint {name}(")),
            "no model posts {name}"
        );
    }
}

#[test]
fn filters_style_diffn_compiles_to_the_native_constraint() {
    // The `filters` family states each unit's operations as a diffn whose sizes are arrays
    // of `var int` with constant values: they must reach Bezzel as `bezzel_diffn` with
    // constant sizes, not as MiniZinc's decomposition into reified pairs.
    let Some((dir, msc)) = bezzel_for_minizinc() else {
        return;
    };
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/models/conf_diffn_filters.mzn");
    let flat = compile(&msc, &model, dir.path());
    assert_eq!(
        flat.matches("constraint bezzel_diffn(").count(),
        2,
        "{flat}"
    );
    for decomposed in ["int_lin_le_reif", "array_bool_or", "bezzel_diffn_vars"] {
        assert!(!flat.contains(decomposed), "{decomposed} in {flat}");
    }
}
