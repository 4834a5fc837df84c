//! `fzn-bezzel` as a program: its command line (the flags MiniZinc passes, standard input,
//! the exit statuses), `--write-msc`, and surroundings that once crashed it.

use bezzel_core::Neighbourhood;
use bezzel_flatzinc::{Cli, Options};
use clap::Parser;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// The options of a command line.
fn options(args: &[&str]) -> Result<Options, clap::Error> {
    Cli::try_parse_from(std::iter::once("fzn-bezzel").chain(args.iter().copied()))
        .map(|c| c.options)
}

#[test]
fn every_flag_minizinc_passes_is_read() {
    let o = options(&["-a", "-n", "3", "-t", "500", "f.fzn"]).unwrap();
    assert!(o.all && o.solutions == Some(3) && o.time_ms == Some(500));
    assert_eq!(o.file.as_deref(), Some(std::path::Path::new("f.fzn")));
    let o = options(&["-i", "-f", "-s", "-p", "4", "-r", "-7"]).unwrap();
    assert!(o.intermediate && o.free && o.stats && o.threads == 4 && o.seed == Some(-7));
    assert_eq!(o.file, None);
    let o = options(&[
        "--all-solutions",
        "--num-solutions",
        "2",
        "--free-search",
        "--statistics",
        "--time-limit",
        "9",
        "--parallel",
        "2",
        "--random-seed",
        "1",
        "--intermediate",
    ])
    .unwrap();
    assert!(o.all && o.intermediate && o.free && o.stats);
    assert_eq!(
        (o.solutions, o.time_ms, o.threads, o.seed),
        (Some(2), Some(9), 2, Some(1))
    );
    // Every flag of the solver configuration is one of them.
    for flag in bezzel_flatzinc::STD_FLAGS {
        let args: &[&str] = if ["-n", "-p", "-r", "-t"].contains(flag) {
            &[flag, "1"]
        } else {
            &[flag]
        };
        assert!(options(args).is_ok(), "{flag}");
    }
    assert_eq!(options(&[]).unwrap().threads, 1);
}

#[test]
fn the_node_limit_is_read_and_shown_in_the_help() {
    assert_eq!(options(&["--node-limit", "7"]).unwrap().node_limit, Some(7));
    assert_eq!(options(&[]).unwrap().node_limit, None);
    assert!(options(&["--node-limit", "-1"]).is_err());
    let help = Command::new(env!("CARGO_BIN_EXE_fzn-bezzel"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("--node-limit <N>"));
}

#[test]
fn lns_and_its_neighbourhood_kind_are_read() {
    let o = options(&[]).unwrap();
    // Large neighbourhood search is the default; --no-lns turns it off, and the later of
    // --lns and --no-lns wins.
    assert!(!o.no_lns);
    assert_eq!(o.neighbourhood, Neighbourhood::Random);
    assert_eq!(o.lns_first_nodes, None);
    assert!(options(&["--no-lns"]).unwrap().no_lns);
    assert!(!options(&["--no-lns", "--lns"]).unwrap().no_lns);
    assert!(options(&["--lns", "--no-lns"]).unwrap().no_lns);
    // The library's defaults are the command line's.
    let d = Options::default();
    assert_eq!(
        (o.no_lns, o.neighbourhood, o.lns_first_nodes),
        (d.no_lns, d.neighbourhood, d.lns_first_nodes)
    );
    for (kind, expected) in [
        ("random", Neighbourhood::Random),
        ("guided", Neighbourhood::PropagationGuided),
        ("adaptive", Neighbourhood::Adaptive),
    ] {
        let o = options(&["--lns-neighbourhood", kind, "-r", "5"]).unwrap();
        assert!(!o.no_lns && o.seed == Some(5));
        assert_eq!(o.neighbourhood, expected);
        let o = options(&["--lns-neighbourhood", kind, "--lns-first-nodes", "70"]).unwrap();
        assert_eq!(o.lns_first_nodes, Some(70));
    }
}

#[test]
fn a_bad_command_line_is_refused_with_status_2() {
    assert!(options(&["-q"]).is_err());
    assert!(options(&["-n", "many"]).is_err());
    assert!(options(&["a.fzn", "b.fzn"]).is_err());
    assert!(options(&["--lns-neighbourhood", "sideways"]).is_err());
    for args in [
        &["-q"][..],
        &["-n", "many"],
        &["a.fzn", "b.fzn"],
        &["--lns-neighbourhood", "sideways"],
        &["-n", "0"],
        &["-p", "0"],
        &["-n", "-1"],
        &["-t", "-5"],
        &["--node-limit", "-1"],
        &["-t", "0"],
        &["--node-limit", "0"],
        &["--node-limit", "99999999999999999999999"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_fzn-bezzel"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with("fzn-bezzel: ") && stderr.lines().count() == 1,
            "{stderr}"
        );
        // A number refused names its option, not "unexpected argument".
        if args.len() == 2 && args[1].parse::<i64>().is_ok() {
            assert!(
                stderr.contains(args[0]) || stderr.contains("--"),
                "{stderr}"
            );
            assert!(!stderr.contains("unexpected argument"), "{stderr}");
        }
    }
}

/// Runs `fzn-bezzel args` in `dir` with `input` on standard input.
fn run_with_input(args: &[&str], input: &str, dir: &std::path::Path) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fzn-bezzel"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_dash_reads_standard_input() {
    let text = "var 1..3: x :: output_var;\nconstraint int_le(2, x);\nsolve minimize x;\n";
    // Run where a file named `-` exists, to be sure it is not what is read.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("-"), "this is not FlatZinc").unwrap();
    for args in [&["-"][..], &["-a", "-"], &[]] {
        let out = run_with_input(args, text, dir.path());
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{args:?}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.ends_with("x = 2;\n----------\n==========\n"),
            "{args:?}: {stdout}"
        );
    }
}

#[test]
fn a_model_error_prints_the_error_line_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let text = "var bool: b;\nvar 0..3: x;\nconstraint int_le(b, x);\nsolve satisfy;\n";
    let out = run_with_input(&["-"], text, dir.path());
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.ends_with("=====ERROR=====\n"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("fzn-bezzel: line 3: argument 1 of `int_le`"),
        "{stderr}"
    );
}

#[test]
fn write_msc_names_this_executable_and_a_copy_of_the_mznlib() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("solvers");
    let out = Command::new(env!("CARGO_BIN_EXE_fzn-bezzel"))
        .arg("--write-msc")
        .arg(&target)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let msc = std::fs::read_to_string(target.join("bezzel.msc")).unwrap();
    let executable = std::fs::canonicalize(env!("CARGO_BIN_EXE_fzn-bezzel")).unwrap();
    assert!(
        msc.contains(&format!(
            "\"executable\": {:?}",
            executable.to_string_lossy()
        )),
        "{msc}"
    );
    let mznlib = std::path::absolute(&target).unwrap().join("bezzel-mznlib");
    assert!(
        msc.contains(&format!("\"mznlib\": {:?}", mznlib.to_string_lossy())),
        "{msc}"
    );
    // The copy is the crate's mznlib, file for file.
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mznlib");
    let mut names: Vec<String> = std::fs::read_dir(&source)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut written: Vec<String> = std::fs::read_dir(&mznlib)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(names, written);
    for name in &names {
        assert_eq!(
            std::fs::read_to_string(source.join(name)).unwrap(),
            std::fs::read_to_string(mznlib.join(name)).unwrap(),
            "{name}"
        );
    }
    // --write-msc is alone on its command line.
    assert!(Cli::try_parse_from(["fzn-bezzel", "--write-msc", "d", "-a"]).is_err());
}

#[test]
fn the_checked_in_msc_lists_the_flags_fzn_bezzel_reads() {
    let msc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("bezzel.msc"),
    )
    .unwrap();
    let flags: Vec<String> = bezzel_flatzinc::STD_FLAGS
        .iter()
        .map(|f| format!("{f:?}"))
        .collect();
    assert!(
        msc.contains(&format!("\"stdFlags\": [{}]", flags.join(", "))),
        "{msc}"
    );
}

#[test]
fn a_closed_output_pipe_is_not_a_panic() {
    // Many solutions, the reader gone after the first line; standard error is the same
    // closed pipe, as with `fzn-bezzel -a big.fzn 2>&1 | head -1`.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.fzn");
    std::fs::write(&path, "var 1..100000: x :: output_var;\nsolve satisfy;\n").unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fzn-bezzel"))
        .arg("-a")
        .arg(&path)
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    {
        let mut reader = BufReader::new(reader);
        reader.read_line(&mut first).unwrap();
    }
    let status = child.wait().unwrap();
    assert_eq!(first, "x = 1;\n");
    // 101 is Rust's panic exit; a signal (no code) would be an abort.
    assert!(matches!(status.code(), Some(0 | 1)), "{status:?}");
}

#[test]
fn ctrl_c_stops_the_search_prints_what_was_found_and_exits_130() {
    // Ten billion solutions: only an interrupt ends this run.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.fzn");
    std::fs::write(
        &path,
        "var 1..100000: x :: output_var;\nvar 1..100000: y :: output_var;\nsolve satisfy;\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fzn-bezzel"))
        .arg("-a")
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "x = 1;\n");
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // Read on until the program ends, so that it never waits on a full pipe.
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{rest}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("fzn-bezzel: interrupted"), "{stderr}");
    // What was printed is whole solutions, and no claim that they are all.
    assert!(
        rest.ends_with("----------\n"),
        "{}",
        &rest[rest.len().saturating_sub(200)..]
    );
    assert!(!rest.contains("=========="));
}

#[test]
fn the_time_limit_counts_from_the_start_so_a_slow_read_keeps_the_best_solution() {
    // An optimisation that runs for ever (the objective is a product modulo a prime, which
    // bounds reasoning cannot cut) and finds its first solutions at once.
    let text = "var 1..4000: x;\nvar 1..4000: y;\nvar 1..16000000: p;\n\
                var 0..1000002: obj :: output_var;\nconstraint int_times(x, y, p);\n\
                constraint int_mod(p, 1000003, obj);\n\
                solve :: int_search([x, y], input_order, indomain_min, complete) maximize obj;\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_fzn-bezzel"))
        .args(["-t", "2500", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The model arrives 1.5 s after the start, as a slow reader or translator would leave it:
    // the search then has 1 s, and stops before the watchdog (a second after the limit).
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(text.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("obj = "), "{stdout}");
    assert!(stdout.ends_with("----------\n"), "{stdout}");
    assert!(!stdout.contains("UNKNOWN"), "{stdout}");
}
