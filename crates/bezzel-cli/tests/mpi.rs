//! Counts on three local MPI ranks (`mpirun --oversubscribe -np 3`), with the `mpi` feature
//! only (`cargo test --release --features mpi -p bezzel-cli --test mpi`; `.ci/mpi` installs
//! Open MPI for it). Ground truth: OEIS A000170 and A002562, and the thread pool's own count.
//!
//! As root, Open MPI wants `OMPI_ALLOW_RUN_AS_ROOT=1` and `OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1`;
//! the tests set them for the `mpirun` they start.
#![cfg(all(feature = "mpi", unix))]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The program `name`: `queens` or `sudoku`, or the repository's `distributed_count`
/// example (the library's entry point), which `cargo build --release --features mpi
/// --examples` builds next to the programs (`.ci/mpi` does so before these tests).
fn executable(name: &str) -> PathBuf {
    if name != "distributed_count" {
        return common::program(name);
    }
    let programs = common::program("queens");
    let path = programs
        .parent()
        .expect("the programs' folder")
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: build it with `cargo build --release --features mpi --examples`",
        path.display()
    );
    path
}

/// `mpirun --oversubscribe -np ranks PROGRAM ARGS`.
fn mpirun(ranks: usize, program: &str, args: &[&str]) -> Command {
    let mut c = Command::new("mpirun");
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(executable(program))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

fn output(mut c: Command) -> Output {
    c.output().expect("mpirun starts (is Open MPI installed?)")
}

/// The count printed on stdout by a run that must succeed: one line, from rank 0 only.
fn count_of(o: &Output) -> String {
    let (out, err) = (common::stdout(o), common::stderr(o));
    assert!(o.status.success(), "status {:?}: {err}", o.status);
    assert_eq!(out.lines().count(), 1, "only rank 0 prints: {out:?}");
    out.trim().to_string()
}

/// A000170.
const TOTALS: [(usize, u64); 4] = [(6, 4), (8, 92), (10, 724), (12, 14200)];

#[test]
fn every_engine_counts_a000170_on_three_ranks() {
    for engine in ["symmetry", "bitmask", "model"] {
        for (n, expected) in TOTALS {
            let o = output(mpirun(
                3,
                "queens",
                &[
                    "count",
                    &n.to_string(),
                    "--engine",
                    engine,
                    "--mpi",
                    "--threads",
                    "1",
                ],
            ));
            assert_eq!(count_of(&o), expected.to_string(), "{engine}, n = {n}");
        }
    }
    // Two threads a rank, and the unique count (A002562: 92 for n = 10).
    let o = output(mpirun(
        3,
        "queens",
        &["unique", "10", "--mpi", "--threads", "2"],
    ));
    assert_eq!(count_of(&o), "92 unique solutions (724 in total)");
}

#[test]
fn the_model_counts_on_ranks_what_it_counts_on_threads() {
    let threads = common::run(
        "queens",
        &["count", "11", "--engine", "model", "--threads", "2"],
        None,
    );
    let ranks = output(mpirun(
        3,
        "queens",
        &[
            "count",
            "11",
            "--engine",
            "model",
            "--mpi",
            "--threads",
            "1",
        ],
    ));
    assert_eq!(count_of(&ranks), common::stdout(&threads).trim());
    assert_eq!(count_of(&ranks), "2680");
    // The library's entry point, for a model of its own.
    let library = output(mpirun(3, "distributed_count", &["11"]));
    assert_eq!(count_of(&library), "2680");
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("bezzel-mpi-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Lines in the checkpoint: its header and one per finished subproblem.
fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

/// Waits until the checkpoint of the running `job` records some subproblems, so that stopping
/// it now stops it midway, well before the end.
fn wait_for_some_subproblems(job: &mut Child, checkpoint: &Path, job_name: &str) {
    let started = Instant::now();
    while lines(checkpoint) < 12 {
        assert!(
            job.try_wait().unwrap().is_none(),
            "{job_name} finished before it could be stopped: make it longer"
        );
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Kills the whole job (SIGKILL to mpirun, which takes its ranks down with it).
fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Counts A000170(17), one thread a rank, with a checkpoint: long enough on three ranks to be
/// stopped midway.
const QUEENS_17_ON_RANKS: [&str; 7] = [
    "count",
    "17",
    "--mpi",
    "--threads",
    "1",
    "--checkpoint",
    "CKPT",
];

/// `args` with `path` where `CKPT` stands for the checkpoint file.
fn with_checkpoint<'a>(args: &[&'a str], path: &'a str) -> Vec<&'a str> {
    args.iter()
        .map(|&a| if a == "CKPT" { path } else { a })
        .collect()
}

/// Runs `program` with `args` (where `CKPT` stands for a checkpoint file), kills the job
/// midway, reruns it, and expects `expected`.
fn resume_after_kill(program: &str, args: &[&str], expected: &str) {
    let dir = TempDir::new(program);
    let checkpoint = dir.0.join("run.ckpt");
    let path = checkpoint.to_str().unwrap();
    let args = with_checkpoint(args, path);
    let mut job = mpirun(3, program, &args).spawn().expect("mpirun starts");
    wait_for_some_subproblems(&mut job, &checkpoint, &format!("{program} {args:?}"));
    kill(&mut job);
    let recorded = lines(&checkpoint);
    let o = rerun(program, &args);
    assert_eq!(count_of(&o), expected, "{program} {args:?}");
    assert!(
        lines(&checkpoint) > recorded,
        "the rerun resumed and finished the rest"
    );
}

/// Runs `program` with `args` on three ranks again, once the ranks of the job before it are
/// gone: they notice that mpirun is gone and stop, and until then the checkpoint is locked.
fn rerun(program: &str, args: &[&str]) -> Output {
    let started = Instant::now();
    loop {
        let o = output(mpirun(3, program, args));
        let err = common::stderr(&o);
        if o.status.success() || !err.contains("in use") || started.elapsed().as_secs() > 30 {
            return o;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn a_killed_job_resumes_and_counts_nothing_twice() {
    // A000170(17): long enough on three ranks to be killed midway.
    resume_after_kill("queens", &QUEENS_17_ON_RANKS, "95815104");
    // The library's entry point, on the generic model (A000170(13)).
    resume_after_kill("distributed_count", &["13", "CKPT"], "73712");
}

#[test]
fn sudoku_answers_a_batch_on_three_ranks_as_on_threads() {
    for file in ["sudoku17_sample.txt", "top1465_sample.txt"] {
        let path = common::repository("tests/data").join(file);
        let path = path.to_str().unwrap();
        let threads = common::run("sudoku", &[path, "--threads", "2"], None);
        assert!(threads.status.success());
        let ranks = output(mpirun(3, "sudoku", &[path, "--mpi", "--threads", "1"]));
        assert!(ranks.status.success(), "{}", common::stderr(&ranks));
        // Every answer, in input order, printed once (by rank 0).
        assert_eq!(common::stdout(&ranks), common::stdout(&threads), "{file}");
        assert_eq!(common::stderr(&ranks).lines().count(), 1, "one summary");
    }
}

/// Ctrl-C at the terminal of `mpirun`: SIGINT to mpirun's process group. Open MPI relays it to
/// the ranks as SIGCONT, SIGTERM a second later, and SIGKILL to all a second after that or as
/// soon as one rank exits; other launchers forward the SIGINT and then send SIGTERM. One press
/// must give one orderly stop: rank 0 prints the summary once and exits with 130, no rank
/// "quits at once", and the checkpoint resumes to the exact total. (mpirun's own status after
/// a Ctrl-C is Open MPI's: 1.)
#[test]
fn one_ctrl_c_at_mpirun_stops_the_job_in_order_and_the_count_resumes() {
    use std::os::unix::process::CommandExt;
    let dir = TempDir::new("ctrl-c");
    let checkpoint = dir.0.join("run.ckpt");
    let statuses = dir.0.join("status");
    std::fs::create_dir_all(&statuses).unwrap();
    let queens = executable("queens");
    let args = with_checkpoint(&QUEENS_17_ON_RANKS, checkpoint.to_str().unwrap());
    // Each rank's exit status, written by a shell around it that catches the signals, so as
    // to outlive the rank. A worker's may be missing: the launcher kills the workers once
    // rank 0 has exited.
    let record = format!(
        "trap : INT TERM HUP; \"$0\" \"$@\"; echo $? > '{}'/$OMPI_COMM_WORLD_RANK",
        statuses.display()
    );
    let mut c = Command::new("mpirun");
    c.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .args(["--oversubscribe", "-np", "3", "sh", "-c", &record])
        .arg(&queens)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, as the foreground job of a terminal.
        .process_group(0);
    let mut job = c.spawn().expect("mpirun starts");
    wait_for_some_subproblems(&mut job, &checkpoint, &format!("queens {args:?}"));
    let sent = Command::new("kill")
        .args(["-INT", "--", &format!("-{}", job.id())])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let o = job.wait_with_output().expect("mpirun ends");
    let (out, err) = (common::stdout(&o), common::stderr(&o));
    assert!(out.is_empty(), "no count from an interrupted run: {out}");
    assert!(
        !err.contains("interrupted again"),
        "one press is not two: {err}"
    );
    let summaries: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("queens: interrupted: "))
        .collect();
    assert_eq!(summaries.len(), 1, "rank 0 prints the summary once: {err}");
    assert!(
        summaries[0].contains("subproblems done") && summaries[0].contains("run the same command"),
        "{err}"
    );
    let status_of = |rank: usize| std::fs::read_to_string(statuses.join(rank.to_string()));
    let status = status_of(0).expect("rank 0 ended by itself, not killed");
    assert_eq!(status.trim(), "130", "rank 0: {err}");
    for rank in 1..3 {
        if let Ok(status) = status_of(rank) {
            assert_eq!(status.trim(), "130", "rank {rank}: {err}");
        }
    }
    let recorded = lines(&checkpoint);
    let o = rerun("queens", &args);
    // A000170(17).
    assert_eq!(count_of(&o), "95815104");
    assert!(lines(&checkpoint) > recorded, "the rerun resumed");
}
