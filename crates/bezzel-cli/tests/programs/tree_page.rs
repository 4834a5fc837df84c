//! The search-tree pages of `queens --tree` and `sudoku --tree`: the data they hold agrees with
//! the solver's statistics, and, in a real browser (headless Chromium, driven over the
//! DevTools protocol by `tests/browser/open_page.py`), the page loads without a script error,
//! says how many nodes there were, and shows a clicked node's decisions; a screenshot of each
//! goes to `target/tree-pages/`.
//!
//! Without Chromium (or Python) the browser part is skipped with a note on stderr, unless
//! `BEZZEL_REQUIRE_CHROMIUM=1` (which `.ci/run` sets after installing it) makes it a failure.
//! `BEZZEL_CHROMIUM` names the browser if it is not `chromium` on the PATH.

use crate::common::{self, run, stderr};
use bezzel_core::search::Decision;
use bezzel_core::search::tree::{SearchTree, Status};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A folder of this test's own under the build's target folder, emptied first.
fn scratch(name: &str) -> PathBuf {
    let mut dir = std::env::current_exe().expect("test binary path");
    dir.pop();
    if dir.ends_with("deps") {
        dir.pop();
    }
    dir.pop(); // the profile: release or debug
    let dir = dir.join("tree-pages").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// The tree a page holds, and the node count it says.
fn tree_of(page: &Path) -> (SearchTree, u64) {
    let html = std::fs::read_to_string(page).expect("the page was written");
    for outside in ["http://", "https://", "src=", "<link", "@import"] {
        assert!(
            !html.contains(outside),
            "the page names {outside}: it must fetch nothing"
        );
    }
    let start = html
        .find(r#"<script type="application/json" id="data">"#)
        .unwrap();
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let data: serde_json::Value = serde_json::from_str(json).expect("the data is JSON");
    let tree: SearchTree = serde_json::from_value(data["tree"].clone()).expect("a tree");
    (tree, data["total_nodes"].as_u64().unwrap())
}

/// The number after `nodes: ` in a `--stats` line.
fn stat(text: &str, name: &str) -> u64 {
    let at = text
        .find(&format!("{name}: "))
        .unwrap_or_else(|| panic!("{name} in {text}"));
    let digits: String = text[at + name.len() + 2..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap()
}

/// How a decision reads, written here from the definition rather than from the page's code:
/// value `v` as the `v`th character of `symbols` (a puzzle's alphabet), or as the number when
/// `symbols` is empty.
fn reads(tree: &SearchTree, d: &Decision, symbols: &str) -> String {
    let (x, op, v) = match *d {
        Decision::Assign(x, v) => (x, "=", v),
        Decision::Exclude(x, v) => (x, "\u{2260}", v),
        Decision::AtMost(x, v) => (x, "\u{2264}", v),
        Decision::Above(x, v) => (x, ">", v),
    };
    let v = match symbols.chars().nth(v as usize) {
        Some(symbol) => symbol.to_string(),
        None => v.to_string(),
    };
    format!("{} {op} {v}", tree.names[x.index()])
}

/// What `open_page.py` reports of a page after clicking node `node`; `None` when no browser
/// is at hand (and none is required).
fn open_in_browser(page: &Path, node: usize, shot: &Path) -> Option<serde_json::Value> {
    let required = std::env::var_os("BEZZEL_REQUIRE_CHROMIUM").is_some_and(|v| v == "1");
    let chromium = std::env::var_os("BEZZEL_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            ["chromium", "chromium-browser"].iter().find_map(|name| {
                let found = Command::new("which").arg(name).output().ok()?;
                let path = String::from_utf8(found.stdout).ok()?;
                (found.status.success() && !path.trim().is_empty())
                    .then(|| PathBuf::from(path.trim()))
            })
        });
    let python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let missing = match (&chromium, python) {
        (None, _) => "no chromium on the PATH (or BEZZEL_CHROMIUM)",
        (_, false) => "no python3 to drive it",
        _ => "",
    };
    if !missing.is_empty() {
        assert!(!required, "BEZZEL_REQUIRE_CHROMIUM=1 but {missing}");
        // Straight to stderr, past the test harness's capture, so that a skip is seen.
        let _ = writeln!(
            std::io::stderr(),
            "skipped the browser check of {}: {missing}",
            page.display()
        );
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/open_page.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(chromium.unwrap())
        .arg(page)
        .arg(node.to_string())
        .arg(shot)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "open_page.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    eprintln!("{}: {report}", page.display());
    assert_eq!(
        report["errors"],
        serde_json::json!([]),
        "script errors on {}",
        page.display()
    );
    assert!(shot.exists(), "a screenshot");
    Some(report)
}

/// Checks the browser's report of clicking `node` against the tree.
fn check_click(
    report: &serde_json::Value,
    tree: &SearchTree,
    node: usize,
    (nodes, cells): (u64, u64),
    symbols: &str,
) {
    assert_eq!(
        report["node_count"],
        nodes.to_string(),
        "the page's node count"
    );
    let expected: Vec<String> = tree
        .path(node)
        .iter()
        .map(|d| reads(tree, d, symbols))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(
        report["path"],
        serde_json::json!(expected),
        "the clicked node's decisions"
    );
    assert!(
        report["title"]
            .as_str()
            .unwrap()
            .starts_with(&format!("Node {node}:"))
    );
    assert_eq!(report["board_cells"], cells);
}

#[test]
fn queens_first_8() {
    let dir = scratch("queens8");
    let page = dir.join("tree.html");
    let out = run(
        "queens",
        &["first", "8", "--tree", page.to_str().unwrap(), "--stats"],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let nodes = stat(&stderr(&out), "nodes");
    // The same search through the library, unwatched.
    let mut q = bezzel_queens::model::Queens::lexicographic(8).unwrap();
    assert_eq!(q.first(), Some(vec![0, 4, 7, 5, 2, 6, 1, 3]));
    assert_eq!(q.stats().nodes, nodes);
    let (tree, total) = tree_of(&page);
    assert_eq!((total, tree.total_nodes()), (nodes, nodes));
    assert!(!tree.complete, "first stops at the first solution");
    let solution = tree
        .nodes
        .iter()
        .position(|n| n.status == Status::Solution)
        .unwrap();
    if let Some(report) = open_in_browser(&page, solution, &dir.join("queens8.png")) {
        check_click(&report, &tree, solution, (nodes, 64), "");
        assert!(report["title"].as_str().unwrap().contains("a solution"));
    }
}

#[test]
fn queens_count_12_is_over_100000_nodes() {
    let dir = scratch("queens12");
    let page = dir.join("tree.html");
    let args = [
        "count",
        "12",
        "--engine",
        "model",
        "--tree",
        page.to_str().unwrap(),
        "--stats",
    ];
    let out = run("queens", &args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(common::stdout(&out).trim(), "14200");
    let nodes = stat(&stderr(&out), "nodes");
    assert!(nodes > 100_000);
    let (tree, total) = tree_of(&page);
    assert_eq!((total, tree.total_nodes()), (nodes, nodes));
    assert_eq!(tree.nodes.len(), 200_000, "the default --tree-nodes");
    assert_eq!(tree.total_solutions(), 14200);
    // The root's right branch: one decision, drawn apart from everything else.
    let node = tree
        .nodes
        .iter()
        .rposition(|n| n.parent == Some(0))
        .unwrap();
    if let Some(report) = open_in_browser(&page, node, &dir.join("queens12.png")) {
        check_click(&report, &tree, node, (nodes, 144), "");
        assert!(
            report["drawn"].as_u64().unwrap() <= 1000,
            "folded, not all drawn"
        );
    }
}

#[test]
fn sudoku_one_puzzle() {
    let dir = scratch("sudoku");
    let page = dir.join("tree.html");
    let puzzle =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n";
    let args = [
        "--tree",
        page.to_str().unwrap(),
        "--consistency",
        "value",
        "--stats",
    ];
    let out = run("sudoku", &args, Some(puzzle));
    assert!(out.status.success(), "{}", stderr(&out));
    let nodes = stat(&stderr(&out), "nodes");
    let (tree, total) = tree_of(&page);
    assert_eq!((total, tree.total_nodes()), (nodes, nodes));
    assert!(tree.complete, "a unique puzzle's whole tree is searched");
    assert_eq!(tree.total_solutions(), 1);
    // The shallowest failure: the page opens with the top of the tree unfolded.
    let depth = |mut i: usize| {
        let mut d = 0;
        while let Some(p) = tree.nodes[i].parent {
            (i, d) = (p as usize, d + 1);
        }
        d
    };
    let node = (0..tree.nodes.len())
        .filter(|&i| tree.nodes[i].status == Status::Failed)
        .min_by_key(|&i| depth(i))
        .unwrap();
    if let Some(report) = open_in_browser(&page, node, &dir.join("sudoku.png")) {
        check_click(&report, &tree, node, (nodes, 81), "");
    }
    // More than one puzzle is refused, by name.
    let out = run(
        "sudoku",
        &["--tree", page.to_str().unwrap()],
        Some(&puzzle.repeat(2)),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("one puzzle"), "{}", stderr(&out));
}

#[test]
fn tree_options_are_refused_where_they_do_not_apply() {
    let out = run("queens", &["count", "8", "--tree", "t.html"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--engine model"), "{}", stderr(&out));
    let out = run(
        "queens",
        &[
            "count",
            "8",
            "--engine",
            "model",
            "--threads",
            "2",
            "--tree",
            "t.html",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    // `-` is not stdout here, nor a file named `-`: it is refused.
    for program in ["queens", "sudoku"] {
        let args: &[&str] = if program == "queens" {
            &["first", "8", "--tree", "-"]
        } else {
            &["--tree", "-"]
        };
        let out = run(program, args, Some("1...\n"));
        assert_eq!(out.status.code(), Some(2), "{program}");
        assert!(stderr(&out).contains("not to stdout"), "{}", stderr(&out));
    }
    let out = run("queens", &["first", "8", "--tree-nodes", "5"], None);
    assert_eq!(out.status.code(), Some(2), "--tree-nodes needs --tree");
    let out = run(
        "queens",
        &["first", "8", "--tree", "/nonexistent-dir/t.html"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot write the tree"),
        "{}",
        stderr(&out)
    );
}

/// A `--tree` file that cannot be written was found only once the search was over, which may
/// be hours: both programs refuse it before searching. The searches here would take minutes:
/// 16 queens counted on the model, and an empty grid's solutions counted to 10^8.
#[test]
fn an_unwritable_tree_file_is_refused_before_the_search() {
    use std::io::Write as _;
    let dir = scratch("unwritable");
    let missing = dir.join("no-such-folder").join("tree.html");
    let targets = [missing.to_str().unwrap(), dir.to_str().unwrap()];
    let empty = format!("{}\n", ".".repeat(81));
    for target in targets {
        for (program, args) in [
            (
                "queens",
                &["count", "16", "--engine", "model", "--tree"][..],
            ),
            (
                "sudoku",
                &[
                    "--count",
                    "--limit",
                    "100000000",
                    "--threads",
                    "1",
                    "--tree",
                ],
            ),
        ] {
            let mut args = args.to_vec();
            args.push(target);
            let mut child = common::spawn(program, &args);
            let mut stdin = child.stdin.take().unwrap();
            if program == "sudoku" {
                // Refused before reading, the program may have closed its end already.
                if let Err(e) = stdin.write_all(empty.as_bytes()) {
                    assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
                }
            }
            drop(stdin);
            let status = common::wait_at_most(&mut child, std::time::Duration::from_secs(20));
            assert!(status.is_some(), "{program} {args:?} searched first");
            let out = child.wait_with_output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{program} {args:?}");
            assert_eq!(common::stdout(&out), "", "{program} {args:?}");
            let err = stderr(&out);
            assert!(
                err.contains(&format!("cannot write the tree to {target}")),
                "{program} {args:?}: {err}"
            );
        }
    }
    assert!(dir.is_dir(), "the folder given as the file is left alone");
}

/// Checking that the `--tree` file can be written before the search leaves an existing file
/// as it was until the page replaces it, and leaves no new file behind when the run is
/// refused for another reason.
#[test]
fn checking_the_tree_file_changes_nothing() {
    let dir = scratch("checked");
    let page = dir.join("tree.html");
    let path = page.to_str().unwrap();
    // Two puzzles: refused once the second is read, after the check.
    let two = "1...\n.2..\n";
    let out = run("sudoku", &["--tree", path], Some(two));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("more than one"), "{}", stderr(&out));
    assert!(!page.exists(), "no page for a refused run");
    std::fs::write(&page, "kept").unwrap();
    let out = run("sudoku", &["--tree", path], Some(two));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "kept");
    let out = run("queens", &["first", "8", "--tree", path], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&page).unwrap().contains("<html"));
}

/// A search the time limit cuts short still leaves its page, and the page is that search:
/// the nodes it holds are the nodes the summary reports (the page once came from a second
/// search, or from none at all when the limit came during the first). Counting the solutions
/// of an empty grid to 10^8 never ends within the limit, however fast the machine.
#[test]
fn sudoku_cut_short_draws_the_search_it_reports() {
    let dir = scratch("sudoku-cut");
    let page = dir.join("tree.html");
    let empty = format!("{}\n", ".".repeat(81));
    let args = [
        "--tree",
        page.to_str().unwrap(),
        "--count",
        "--limit",
        "100000000",
        "--threads",
        "1",
        "--time-limit",
        "0.2s",
        "--stats",
    ];
    let out = run("sudoku", &args, Some(&empty));
    assert_eq!(out.status.code(), Some(124), "{}", stderr(&out));
    // A count cut short prints the solutions found so far, `K+`, never an exact count.
    let printed = common::stdout(&out);
    let bound = printed.trim().strip_suffix('+').map(str::parse::<u64>);
    assert!(matches!(bound, Some(Ok(_))), "{printed}");
    let nodes = stat(&stderr(&out), "nodes");
    let (tree, total) = tree_of(&page);
    assert_eq!((total, tree.total_nodes()), (nodes, nodes));
    assert!(!tree.complete);
}

/// `--tree` over two files of one puzzle each is refused before either is solved, as one
/// file of two puzzles is: nothing on stdout.
#[test]
fn sudoku_tree_refuses_two_puzzles_before_solving() {
    let dir = scratch("sudoku-two");
    let puzzle =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n";
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    std::fs::write(&a, puzzle).unwrap();
    std::fs::write(&b, puzzle).unwrap();
    let page = dir.join("tree.html");
    let args = [
        "--tree",
        page.to_str().unwrap(),
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ];
    let out = run("sudoku", &args, None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("one puzzle"), "{}", stderr(&out));
    assert_eq!(common::stdout(&out), "", "nothing solved");
    assert!(!page.exists());
}

/// A puzzle in another alphabet: the decisions down to a node read in the puzzle's symbols,
/// as its grid does (the page once wrote the values' numbers, `r1c4 = 4` for the `3` of a
/// 0-F puzzle).
#[test]
fn sudoku_decisions_read_in_the_puzzle_alphabet() {
    let dir = scratch("sudoku-hex");
    let page = dir.join("tree.html");
    let puzzle = std::fs::read_to_string(common::repository("examples/data/hex16.txt")).unwrap();
    let args = ["--tree", page.to_str().unwrap(), "--stats"];
    let out = run("sudoku", &args, Some(&puzzle));
    assert!(out.status.success(), "{}", stderr(&out));
    let nodes = stat(&stderr(&out), "nodes");
    let (tree, _) = tree_of(&page);
    // The deepest node: a path of several decisions.
    let depth = |mut i: usize| {
        let mut d = 0;
        while let Some(p) = tree.nodes[i].parent {
            (i, d) = (p as usize, d + 1);
        }
        d
    };
    let node = (0..tree.nodes.len()).max_by_key(|&i| depth(i)).unwrap();
    assert!(depth(node) >= 1);
    // Value v is the symbol one lower: 1 is 0, 10 is 9, 11 is A.
    let symbols = "?0123456789ABCDEF";
    if let Some(report) = open_in_browser(&page, node, &dir.join("hex.png")) {
        check_click(&report, &tree, node, (nodes, 256), symbols);
    }
}
