//! The `fzn-bezzel` command line: the FlatZinc specification's standard flags (those that
//! `minizinc` passes, listed as `stdFlags` in the solver configuration), and `--write-msc`,
//! which writes a solver configuration naming the running executable and a copy of the
//! `mznlib`, so that MiniZinc finds Bezzel wherever it was built or installed.

use crate::FznError;
use bezzel_core::Neighbourhood;
use clap::{Args, Parser};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The options of a FlatZinc run (the FlatZinc specification's standard flags).
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct Options {
    /// Print every solution (satisfaction) or every improving one (optimisation).
    #[arg(short = 'a', long = "all-solutions")]
    pub all: bool,
    /// Print every improving solution (optimisation; as `-a` there).
    #[arg(short = 'i', long = "intermediate")]
    pub intermediate: bool,
    /// Stop after this many solutions (at least 1; `-a` asks for all).
    #[arg(
        short = 'n',
        long = "num-solutions",
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = parse_positive::<u64>
    )]
    pub solutions: Option<u64>,
    /// Ignore the search annotations.
    #[arg(short = 'f', long = "free-search")]
    pub free: bool,
    /// Print statistics as `%%%mzn-stat:` lines.
    #[arg(short = 's', long = "statistics")]
    pub stats: bool,
    /// The time limit in milliseconds, counted from [`started`](Options::started).
    #[arg(
        short = 't',
        long = "time-limit",
        value_name = "MS",
        allow_negative_numbers = true,
        value_parser = parse_positive::<u64>
    )]
    pub time_ms: Option<u64>,
    /// Stop after this many search nodes, all runs of the search together
    /// (branch and bound, neighbourhoods): a limit that, unlike the time, gives the same
    /// answer on every machine. What was found is printed, not claimed complete. Searches on
    /// one thread.
    #[arg(
        long = "node-limit",
        value_name = "N",
        allow_negative_numbers = true,
        value_parser = parse_positive::<u64>
    )]
    pub node_limit: Option<u64>,
    /// Do not post the `disjunctive` constraints implied by pairs of reified precedences
    /// (see the crate docs): the same answers, usually in more nodes; for measurements.
    #[arg(long = "no-implied-disjunctives")]
    pub no_implied_disjunctives: bool,
    /// Large neighbourhood search's complete runs all follow the search annotations (by
    /// default every other one searches freely, as `-f` does, so that a stated search that
    /// proves slowly does not keep an optimum unproven); for measurements.
    #[arg(long = "no-free-proofs")]
    pub no_free_proofs: bool,
    /// When the time limit's clock started: `fzn-bezzel` sets its own start, so that reading
    /// and translating a large model counts, as MiniZinc's `-t` means; `None` starts it when
    /// the run starts.
    #[arg(skip)]
    pub started: Option<Instant>,
    /// Threads: optimisation runs branch and bound on that many, sharing the best objective
    /// value; satisfaction searches on one.
    #[arg(
        short = 'p',
        long = "parallel",
        value_name = "N",
        default_value_t = 1,
        allow_negative_numbers = true,
        value_parser = parse_positive::<usize>
    )]
    pub threads: usize,
    /// The seed of large neighbourhood search's choices; every search is deterministic for a
    /// given seed.
    #[arg(
        short = 'r',
        long = "random-seed",
        value_name = "SEED",
        allow_negative_numbers = true
    )]
    pub seed: Option<i64>,
    /// Optimise by large neighbourhood search: branch and bound first (`--lns-first-nodes`),
    /// then neighbourhoods of the incumbent interleaved with complete branch and bound, which
    /// alone proves the optimum. The default for optimisation on one thread; this flag only
    /// overrides an earlier `--no-lns`.
    #[arg(long = "lns", overrides_with = "no_lns")]
    pub lns: bool,
    /// Optimise by branch and bound alone, without large neighbourhood search.
    #[arg(long = "no-lns", overrides_with = "lns")]
    pub no_lns: bool,
    /// How large neighbourhood search chooses the variables it frees: `random` (the
    /// default), `guided` (propagation-guided: related variables, those that fixing the
    /// others narrows least) or `adaptive` (both, drawn by how often each recently improved
    /// the incumbent).
    #[arg(
        long = "lns-neighbourhood",
        value_name = "KIND",
        default_value = "random",
        value_parser = parse_neighbourhood
    )]
    pub neighbourhood: Neighbourhood,
    /// The nodes of plain branch and bound large neighbourhood search starts with (past the
    /// first solution, improving it, proving easy models outright) before its first
    /// neighbourhood; [`LNS_FIRST_NODES`] when absent.
    #[arg(
        long = "lns-first-nodes",
        value_name = "N",
        allow_negative_numbers = true
    )]
    pub lns_first_nodes: Option<u64>,
    /// Learn from failures (see `docs/learning.md` in the repository): each failure is
    /// analysed into a nogood that is kept and propagated. Optimises on one thread by large
    /// neighbourhood search whose every part learns (the nogoods of a neighbourhood stay in
    /// it; the complete runs that prove optimality learn too), or with `--no-lns` by branch
    /// and bound alone.
    #[arg(long = "learning")]
    pub learning: bool,
    /// The FlatZinc file; standard input when absent or `-`.
    #[arg(value_name = "MODEL.fzn")]
    pub file: Option<PathBuf>,
}

/// The nodes of branch and bound before the first neighbourhood, unless `--lns-first-nodes`
/// says otherwise: enough to prove the small job shops and project schedules of the MiniZinc
/// benchmarks outright, a few seconds at most before the neighbourhoods take over on the
/// larger ones.
pub const LNS_FIRST_NODES: u64 = 20_000;

/// Reads a number that must be at least 1 (`-n`, `-p`, `-t`, `--node-limit`): zero
/// solutions, threads, milliseconds or nodes would run nothing, so zero is refused rather than
/// read as "all" or "no limit" (Gecode's readings of `-n 0` and `-t 0`) or silently ignored.
fn parse_positive<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialEq + From<u8>,
{
    match text.parse::<T>() {
        Ok(n) if n != T::from(0) => Ok(n),
        Ok(_) => Err("must be at least 1".to_string()),
        Err(_) => Err(format!("`{text}` is not a whole number of at least 1")),
    }
}

/// Reads a `--lns-neighbourhood` kind.
fn parse_neighbourhood(kind: &str) -> Result<Neighbourhood, String> {
    match kind {
        "random" => Ok(Neighbourhood::Random),
        "guided" => Ok(Neighbourhood::PropagationGuided),
        "adaptive" => Ok(Neighbourhood::Adaptive),
        _ => Err(format!(
            "`{kind}` is not a kind of neighbourhood: random, guided or adaptive"
        )),
    }
}

/// The whole command line: a run, or `--write-msc`.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "fzn-bezzel",
    version,
    about = "Bezzel as a FlatZinc solver: reads FlatZinc (a file, or standard input with none \
             or `-`), prints solutions as the FlatZinc specification asks"
)]
pub struct Cli {
    /// The run's options.
    #[command(flatten)]
    pub options: Options,
    /// Write `bezzel.msc` (naming this executable by its absolute path) and a copy of the
    /// `mznlib` into DIR, then exit; `minizinc --solver DIR/bezzel.msc`, or DIR in
    /// `MZN_SOLVER_PATH` and `minizinc --solver bezzel`.
    #[arg(long = "write-msc", value_name = "DIR", exclusive = true)]
    pub write_msc: Option<PathBuf>,
}

/// The `mznlib` files by name, each with its text built in.
macro_rules! mznlib {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../mznlib/", $name)))),*]
    };
}

/// The `mznlib` files, built into the executable so that `--write-msc` works for an
/// installed one too.
pub const MZNLIB: &[(&str, &str)] = mznlib![
    "fzn_all_different_int.mzn",
    "fzn_among.mzn",
    "fzn_circuit.mzn",
    "fzn_count_eq.mzn",
    "fzn_count_eq_par.mzn",
    "fzn_cumulative.mzn",
    "fzn_diffn.mzn",
    "fzn_diffn_k.mzn",
    "fzn_diffn_nonstrict.mzn",
    "fzn_diffn_nonstrict_k.mzn",
    "fzn_disjunctive.mzn",
    "fzn_disjunctive_strict.mzn",
    "fzn_global_cardinality.mzn",
    "fzn_global_cardinality_closed.mzn",
    "fzn_global_cardinality_low_up.mzn",
    "fzn_global_cardinality_low_up_closed.mzn",
    "fzn_inverse.mzn",
    "fzn_lex_less_bool.mzn",
    "fzn_lex_less_int.mzn",
    "fzn_lex_lesseq_bool.mzn",
    "fzn_lex_lesseq_int.mzn",
    "fzn_regular.mzn",
    "fzn_subcircuit.mzn",
    "fzn_table_bool.mzn",
    "fzn_table_int.mzn",
    "fzn_value_precede_int.mzn",
    "redefinitions-2.0.mzn",
    "redefinitions.mzn",
];

/// The flags `minizinc` may pass (the configuration's `stdFlags`).
pub const STD_FLAGS: &[&str] = &["-a", "-f", "-i", "-n", "-p", "-r", "-s", "-t"];

/// A solver configuration for MiniZinc naming `executable` and `mznlib` (absolute paths,
/// or relative to the configuration's folder).
pub fn solver_config(id: &str, name: &str, executable: &Path, mznlib: &Path) -> String {
    let json = |s: &str| {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
                c => out.push(c),
            }
        }
        out.push('"');
        out
    };
    let flags: Vec<String> = STD_FLAGS.iter().map(|f| json(f)).collect();
    format!(
        "{{\n  \"id\": {},\n  \"name\": {},\n  \"description\": \"Bezzel's FlatZinc solver\",\n  \
         \"version\": {},\n  \"mznlib\": {},\n  \"executable\": {},\n  \"tags\": [\"cp\", \"int\"],\n  \
         \"stdFlags\": [{}],\n  \"supportsMzn\": false,\n  \"supportsFzn\": true,\n  \
         \"needsSolns2Out\": true,\n  \"needsMznExecutable\": false,\n  \"needsStdlibDir\": false,\n  \
         \"isGUIApplication\": false\n}}\n",
        json(id),
        json(name),
        json(env!("CARGO_PKG_VERSION")),
        json(&mznlib.to_string_lossy()),
        json(&executable.to_string_lossy()),
        flags.join(", ")
    )
}

/// Writes `dir/bezzel.msc`, naming `executable`, and the `mznlib` as `dir/bezzel-mznlib`.
/// Returns the configuration's path.
pub fn write_msc(dir: &Path, executable: &Path) -> Result<PathBuf, FznError> {
    let io = |action: String| {
        move |e: std::io::Error| FznError::Io {
            action,
            reason: bezzel_cli::io_reason(&e),
        }
    };
    std::fs::create_dir_all(dir).map_err(io(format!("create {}", dir.display())))?;
    let dir = std::path::absolute(dir).map_err(io(format!("find {}", dir.display())))?;
    let mznlib = dir.join("bezzel-mznlib");
    std::fs::create_dir_all(&mznlib).map_err(io(format!("create {}", mznlib.display())))?;
    for (name, text) in MZNLIB {
        let path = mznlib.join(name);
        std::fs::write(&path, text).map_err(io(format!("write {}", path.display())))?;
    }
    let msc = dir.join("bezzel.msc");
    let config = solver_config("org.bezzel.bezzel", "Bezzel", executable, &mznlib);
    std::fs::write(&msc, config).map_err(io(format!("write {}", msc.display())))?;
    Ok(msc)
}
