//! Job shop: jobs of tasks, each task on one machine for a time, tasks of a job in order, one
//! task at a time on a machine; the shortest makespan. It shows the three ways Bezzel
//! optimises, on the same model and time limit: plain branch and bound with the default
//! search (`--search plain`), branch and bound with the optimisation configuration
//! (`--search strong`: dom/wdeg, last conflict, solution-guided values, restarts), and large
//! neighbourhood search on top of it (`--search lns`, the default).
//!
//! ```text
//! cargo run --release --example jobshop                      # ft06 (built in): 55, proven
//! cargo run --release --example jobshop -- FILE.dzn --time 10 --search lns --seed 1
//! ```
//!
//! `FILE.dzn` is an instance in the MiniZinc benchmarks' `jobshop.mzn` format (`n_jobs`,
//! `n_machines`, `job_task_machine` and `job_task_duration` as `array2d(..., [...])`), such as
//! those of `../shared/data/minizinc-scheduling/jobshop/`. The model is that file's: start
//! times, precedences within a job, and for every two tasks on one machine a Boolean that
//! says which goes first, each order enforced by it (`m.post_if(b, (a + da).le(c))`,
//! `m.post_if(!b, (c + dc).le(a))`, which post half-reified view relations); search branches
//! on the start times. The schedule found is checked here, in plain Rust,
//! before it is printed; the makespan, whether it is proven optimal, and the statistics go
//! to stdout.

use bezzel::core::{Lns, Sense};
use bezzel::prelude::*;
use std::process::ExitCode;
use std::time::Duration;

/// A job-shop instance: for each job, its tasks in order as (machine, duration).
#[derive(Debug, Clone)]
pub(crate) struct Instance {
    pub(crate) jobs: Vec<Vec<(usize, i32)>>,
    pub(crate) machines: usize,
}

/// Fisher and Thompson's 6 × 6 instance (ft06), optimum 55.
pub(crate) fn ft06() -> Instance {
    let jobs = [
        [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
        [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
        [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
        [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
        [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
        [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
    ];
    Instance {
        jobs: jobs.iter().map(|j| j.to_vec()).collect(),
        machines: 6,
    }
}

/// The integer after `name =` in a `.dzn` text.
fn dzn_int(text: &str, name: &str) -> Result<i64, String> {
    let at = find_assignment(text, name)?;
    let rest = &text[at..];
    let end = rest.find(';').ok_or(format!("`{name}` has no `;`"))?;
    rest[..end]
        .trim()
        .parse()
        .map_err(|e| format!("`{name}`: {e}"))
}

/// The numbers between the brackets after `name =` in a `.dzn` text.
fn dzn_array(text: &str, name: &str) -> Result<Vec<i64>, String> {
    let at = find_assignment(text, name)?;
    let rest = &text[at..];
    let open = rest.find('[').ok_or(format!("`{name}` has no `[`"))?;
    let close = rest.find(']').ok_or(format!("`{name}` has no `]`"))?;
    rest[open + 1..close]
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().map_err(|e| format!("`{name}`: `{s}`: {e}")))
        .collect()
}

/// Where the value of `name = ...` starts, skipping `%` comments.
fn find_assignment(text: &str, name: &str) -> Result<usize, String> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let code = line.split('%').next().unwrap_or("");
        if let Some(rest) = code.trim_start().strip_prefix(name)
            && let Some(value) = rest.trim_start().strip_prefix('=')
        {
            return Ok(
                offset + line.len() - line.trim_start().len() + code.trim_start().len()
                    - value.len(),
            );
        }
        offset += line.len();
    }
    Err(format!("no `{name} = ...` in the file"))
}

/// Reads an instance in `jobshop.mzn`'s `.dzn` format.
fn parse(text: &str) -> Result<Instance, String> {
    let n_jobs = dzn_int(text, "n_jobs")?;
    let machines = dzn_int(text, "n_machines")?;
    if !(1..=1000).contains(&n_jobs) || !(1..=1000).contains(&machines) {
        return Err(format!(
            "{n_jobs} jobs and {machines} machines: out of range"
        ));
    }
    let (n_jobs, machines) = (n_jobs as usize, machines as usize);
    let machine = dzn_array(text, "job_task_machine")?;
    let duration = dzn_array(text, "job_task_duration")?;
    for (what, array) in [
        ("job_task_machine", &machine),
        ("job_task_duration", &duration),
    ] {
        if array.len() != n_jobs * machines {
            return Err(format!(
                "`{what}` has {} entries, not {n_jobs} × {machines}",
                array.len()
            ));
        }
    }
    if let Some(m) = machine.iter().find(|&&m| m < 0 || m >= machines as i64) {
        return Err(format!("machine {m} is not in 0..{machines}"));
    }
    if let Some(d) = duration.iter().find(|&&d| !(0..=100_000).contains(&d)) {
        return Err(format!("duration {d} is not in 0..=100000"));
    }
    let jobs = (0..n_jobs)
        .map(|j| {
            (0..machines)
                .map(|k| {
                    let i = j * machines + k;
                    (machine[i] as usize, duration[i] as i32)
                })
                .collect()
        })
        .collect();
    Ok(Instance { jobs, machines })
}

/// The model: the solver (branching on the start times), the start times by job and task,
/// and the makespan.
pub(crate) fn model(
    instance: &Instance,
    config: SearchConfig,
) -> Result<(Solver, Vec<Vec<VarId>>, VarId), ModelError> {
    let horizon: i32 = instance.jobs.iter().flatten().map(|t| t.1).sum();
    let longest_job: i32 = instance
        .jobs
        .iter()
        .map(|j| j.iter().map(|t| t.1).sum())
        .max()
        .unwrap_or(0);
    let mut m = Model::new();
    let mut starts = Vec::new();
    for (j, job) in instance.jobs.iter().enumerate() {
        let s = m.named_vars(format!("start{j}_"), job.len(), 0..=horizon)?;
        for (k, pair) in s.windows(2).enumerate() {
            m.post((pair[0] + job[k].1).le(pair[1]))?;
        }
        starts.push(s);
    }
    let makespan = m.named_var("makespan", longest_job..=horizon)?;
    for (j, job) in instance.jobs.iter().enumerate() {
        let (last, d) = (starts[j][job.len() - 1], job[job.len() - 1].1);
        m.post((last + d).le(makespan))?;
    }
    let tasks: Vec<(usize, usize)> = (0..instance.jobs.len())
        .flat_map(|j| (0..instance.jobs[j].len()).map(move |k| (j, k)))
        .collect();
    for (i, &(ja, ka)) in tasks.iter().enumerate() {
        for &(jb, kb) in &tasks[i + 1..] {
            let ((ma, da), (mb, db)) = (instance.jobs[ja][ka], instance.jobs[jb][kb]);
            if ja == jb || ma != mb {
                continue;
            }
            let (a, b) = (starts[ja][ka], starts[jb][kb]);
            let first = m.named_bool(format!("before{ja}_{ka}_{jb}_{kb}"))?;
            m.post_if(first, (a + da).le(b))?;
            m.post_if(!first, (b + db).le(a))?;
        }
    }
    let all: Vec<VarId> = starts.iter().flatten().copied().collect();
    let solver = Solver::with_config(m, config).branch_on(&all)?;
    Ok((solver, starts, makespan))
}

/// Checks a schedule in plain Rust: precedences within jobs, no two tasks at once on a
/// machine, the makespan the end of the last task. Returns the makespan.
fn check(instance: &Instance, starts: &[Vec<i32>]) -> Result<i32, String> {
    let mut on_machine = vec![Vec::new(); instance.machines];
    let mut end = 0;
    for (j, job) in instance.jobs.iter().enumerate() {
        for (k, &(machine, d)) in job.iter().enumerate() {
            let s = starts[j][k];
            if s < 0 || (k > 0 && starts[j][k - 1] + job[k - 1].1 > s) {
                return Err(format!("task {k} of job {j} starts too early"));
            }
            on_machine[machine].push((s, s + d));
            end = end.max(s + d);
        }
    }
    for (machine, tasks) in on_machine.iter_mut().enumerate() {
        tasks.sort();
        if tasks.windows(2).any(|w| w[0].1 > w[1].0) {
            return Err(format!("two tasks overlap on machine {machine}"));
        }
    }
    Ok(end)
}

/// The command line: an instance file (ft06 if none), `--search`, `--time`, `--seed`.
struct Options {
    file: Option<String>,
    search: String,
    time: f64,
    seed: u64,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        file: None,
        search: "lns".into(),
        time: 10.0,
        seed: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |flag: &str| args.next().ok_or(format!("{flag} needs a value"));
        match a.as_str() {
            "--search" => o.search = value("--search")?,
            "--time" => {
                o.time = value("--time")?
                    .parse()
                    .map_err(|e| format!("--time: {e}"))?;
                if !(o.time > 0.0 && o.time < 1e6) {
                    return Err("--time must be a positive number of seconds".into());
                }
            }
            "--seed" => {
                o.seed = value("--seed")?
                    .parse()
                    .map_err(|e| format!("--seed: {e}"))?
            }
            f if !f.starts_with("--") && o.file.is_none() => o.file = Some(f.into()),
            f => return Err(format!("unexpected argument `{f}`")),
        }
    }
    if !["plain", "strong", "lns"].contains(&o.search.as_str()) {
        return Err(format!(
            "--search is plain, strong or lns, not `{}`",
            o.search
        ));
    }
    Ok(o)
}

fn run() -> Result<(), String> {
    let o = options()?;
    let instance = match &o.file {
        Some(f) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
            parse(&text).map_err(|e| format!("{f}: {e}"))?
        }
        None => ft06(),
    };
    let mut config = if o.search == "plain" {
        SearchConfig::default()
    } else {
        SearchConfig::for_optimization()
    };
    config.limits.time = Some(Duration::from_secs_f64(o.time));
    let (mut solver, starts, makespan) = model(&instance, config).map_err(|e| e.to_string())?;
    let best = if o.search == "lns" {
        let lns = Lns {
            seed: o.seed,
            ..Lns::default()
        };
        solver
            .lns(makespan, Sense::Minimize, &lns)
            .map(|run| run.finish())
    } else {
        solver.minimize(makespan).map(|run| run.finish())
    }
    .map_err(|e| e.to_string())?;
    let Some(solution) = &best.solution else {
        println!(
            "no schedule found ({})",
            if best.infeasible {
                "none exists"
            } else {
                "time out"
            }
        );
        return Ok(());
    };
    let values: Vec<Vec<i32>> = starts.iter().map(|s| solution.values_of(s)).collect();
    let end = check(&instance, &values).map_err(|e| format!("bezzel bug: {e}"))?;
    if best.value != Some(end) || solution[makespan] != end {
        return Err(format!(
            "bezzel bug: makespan {:?}, schedule ends at {end}",
            best.value
        ));
    }
    println!(
        "makespan {end}{}  ({} search, {} s, {} nodes, {} failures, {} solutions)",
        if best.optimal { ", optimal" } else { "" },
        o.search,
        best.stats.elapsed.as_secs_f64(),
        best.stats.nodes,
        best.stats.failures,
        best.stats.solutions,
    );
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jobshop: {e}");
            ExitCode::from(2)
        }
    }
}
