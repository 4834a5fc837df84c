//! Watching search: an observer sees every node, and the recorded tree agrees with the
//! solver's own statistics and with published counts, whether it keeps every node or
//! summarises past its limit, and whether the run ends or stops early.

use bezzel_core::prelude::*;
use bezzel_core::search::tree::{self, SearchTree, Status};
use bezzel_core::search::{Node, Observer};

/// N-Queens: one variable per row, three all-differents through offset views.
fn queens(n: usize) -> (Model, Vec<VarId>) {
    crate::common::queens(n, Consistency::Value).unwrap()
}

/// The values at node `index`: the root's domains, changed down the path; `None` for a
/// variable left with more than one value.
fn values_at(tree: &SearchTree, index: usize) -> Vec<Option<i32>> {
    let mut chain = vec![index];
    while let Some(p) = tree.nodes[*chain.last().unwrap()].parent {
        chain.push(p as usize);
    }
    let mut doms = vec![String::new(); tree.names.len()];
    for &i in chain.iter().rev() {
        for (x, text) in &tree.nodes[i].changes {
            doms[*x as usize] = text.clone();
        }
    }
    doms.iter().map(|d| d.parse().ok()).collect()
}

#[test]
fn a_whole_tree_is_kept_and_agrees_with_the_statistics() {
    // Published counts of n-queens solutions: 1, 0, 0, 2, 10, 4, 40, 92.
    for (n, count) in [
        (1, 1),
        (2, 0),
        (3, 0),
        (4, 2),
        (5, 10),
        (6, 4),
        (7, 40),
        (8, 92),
    ] {
        let (m, _) = queens(n);
        let mut solver = Solver::new(m);
        let tree = tree::record(&mut solver, usize::MAX, |s| {
            s.count();
        });
        let stats = solver.stats().clone();
        assert_eq!(stats.solutions, count);
        assert!(tree.complete);
        assert_eq!(tree.total_nodes(), stats.nodes, "n = {n}");
        assert_eq!(tree.nodes.len() as u64, stats.nodes);
        assert_eq!(tree.total_failures(), stats.failures);
        assert_eq!(tree.total_solutions(), count);
        // Binary branching: a branched node has its decision's two branches, others none.
        let mut children = vec![0; tree.nodes.len()];
        for node in &tree.nodes[1..] {
            children[node.parent.unwrap() as usize] += 1;
        }
        for (i, node) in tree.nodes.iter().enumerate() {
            let expected = if node.status == Status::Branched {
                2
            } else {
                0
            };
            assert_eq!(children[i], expected, "node {i} of n = {n}");
            assert_ne!(node.status, Status::Open);
        }
        // Every solution node's values are a solution, by the model's own definitions (no
        // propagation), and searching below its decisions finds exactly it.
        for (i, node) in tree.nodes.iter().enumerate() {
            if node.status != Status::Solution {
                continue;
            }
            let values: Vec<i32> = values_at(&tree, i)
                .into_iter()
                .map(Option::unwrap)
                .collect();
            solver.model().check_assignment(&values).unwrap();
            let path = tree.path(i);
            let below = tree::record(&mut solver, usize::MAX, |s| {
                assert_eq!(s.count_in(&path).unwrap(), 1);
            });
            // Below a prefix, the prefix is part of the root: propagation alone solves it.
            assert_eq!(below.nodes.len(), 1);
            assert_eq!(below.nodes[0].status, Status::Solution);
        }
    }
}

#[test]
fn past_the_limit_nodes_are_summarised_and_still_counted() {
    let (m, _) = queens(8);
    let mut solver = Solver::new(m);
    for limit in [1, 2, 10, 100, 766, 767, 10_000] {
        let tree = tree::record(&mut solver, limit, |s| {
            s.count();
        });
        let stats = solver.stats();
        assert_eq!(tree.nodes.len(), limit.min(767));
        assert_eq!(tree.total_nodes(), stats.nodes);
        assert_eq!(tree.total_failures(), stats.failures);
        assert_eq!(tree.total_solutions(), 92);
        assert_eq!(tree.nodes.iter().any(|n| n.hidden.is_some()), limit < 767);
    }
}

#[test]
fn a_run_that_stops_early_leaves_open_branches() {
    let (m, q) = queens(8);
    let mut solver = Solver::new(m).branch_on(&q).unwrap();
    solver.config_mut().var_order = VarOrder::InputOrder;
    let tree = tree::record(&mut solver, usize::MAX, |s| {
        assert_eq!(s.first().unwrap().values_of(&q), [0, 4, 7, 5, 2, 6, 1, 3]);
    });
    assert!(!tree.complete);
    assert_eq!(tree.total_nodes(), solver.stats().nodes);
    assert_eq!(tree.total_solutions(), 1);
    // Each decision on the way to the solution whose right branch was not taken yet is
    // open; every branched node has its two branches, searched or open.
    let open: Vec<&tree::TreeNode> = tree
        .nodes
        .iter()
        .filter(|n| n.status == Status::Open)
        .collect();
    assert!(!open.is_empty());
    let mut children = vec![0; tree.nodes.len()];
    for node in &tree.nodes[1..] {
        children[node.parent.unwrap() as usize] += 1;
    }
    for (i, node) in tree.nodes.iter().enumerate() {
        if node.status == Status::Branched {
            assert_eq!(children[i], 2, "node {i}");
        }
    }
    // A node limit stops a count: the node it stopped at is open too.
    solver.config_mut().limits.nodes = Some(20);
    let tree = tree::record(&mut solver, usize::MAX, |s| {
        s.count();
    });
    assert_eq!(solver.stats().stopped, Some(StopReason::NodeLimit));
    assert_eq!(tree.total_nodes(), 20);
    let stopped: Vec<_> = tree
        .nodes
        .iter()
        .filter(|n| n.status == Status::Stopped)
        .collect();
    assert_eq!(stopped.len(), 1);
    assert!(!stopped[0].changes.is_empty());
}

/// Records depths and the order of events.
#[derive(Debug, Default)]
struct Log(Vec<(usize, bool, bool)>);

impl Observer for Log {
    fn node(&mut self, node: &Node<'_>) {
        assert_eq!(node.decision.is_none(), node.depth == 0);
        self.0.push((node.depth, node.failed, false));
    }
    fn solution(&mut self, depth: usize) {
        let last = self.0.last_mut().unwrap();
        assert_eq!(last.0, depth);
        last.2 = true;
    }
}

#[test]
fn observers_come_and_go() {
    let (m, _) = queens(6);
    let mut solver = Solver::new(m);
    assert!(!solver.is_observed());
    solver.observe(Log::default());
    assert!(solver.is_observed());
    assert_eq!(solver.count(), 4);
    let nodes = solver.stats().nodes;
    // The wrong type gives nothing back, and the observer is gone all the same.
    assert!(solver.take_observer::<tree::Recorder>().is_none());
    assert!(!solver.is_observed());
    solver.observe(Log::default());
    solver.count();
    let log: Log = solver.take_observer().unwrap();
    assert_eq!(log.0.len() as u64, nodes);
    assert_eq!(log.0.iter().filter(|e| e.2).count(), 4);
    assert_eq!(
        log.0.iter().filter(|e| e.1).count() as u64,
        solver.stats().failures
    );
    // Depth-first: each node is at most one deeper than the one before.
    assert!(log.0.windows(2).all(|w| w[1].0 <= w[0].0 + 1));
    // A recording run puts back the observer that was there.
    solver.observe(Log::default());
    let tree = tree::record(&mut solver, 5, |s| {
        s.count();
    });
    assert_eq!(tree.total_nodes(), nodes);
    assert!(solver.take_observer::<Log>().unwrap().0.is_empty());
    // Unwatched runs are the same runs.
    assert_eq!(solver.count(), 4);
    assert_eq!(solver.stats().nodes, nodes);
}

#[test]
fn the_page_holds_the_tree_and_fetches_nothing() {
    let (m, _) = queens(6);
    let mut solver = Solver::new(m);
    let tree = tree::record(&mut solver, usize::MAX, |s| {
        s.count();
    });
    let html = tree.to_html(&tree::PageOptions {
        title: "6 queens <&>".into(),
        ..tree::PageOptions::default()
    });
    assert!(html.contains("<title>6 queens &lt;&amp;&gt;</title>"));
    for outside in ["http://", "https://", "src=", "<link", "@import", "url("] {
        assert!(!html.contains(outside), "the page names {outside}");
    }
    let start = html
        .find(r#"<script type="application/json" id="data">"#)
        .unwrap();
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let data: serde_json::Value = serde_json::from_str(json).unwrap();
    // Read back, decisions name unbound variables (of the same index), so compare their JSON.
    let back: SearchTree = serde_json::from_value(data["tree"].clone()).unwrap();
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::to_value(&tree).unwrap()
    );
    assert_eq!(back.nodes.len(), tree.nodes.len());
    assert_eq!(data["total_nodes"], solver.stats().nodes);
}

/// A recorder that watches several runs keeps the latest: one root, and the totals of the
/// latest run's statistics, whatever its limit (a limit reached in an earlier run once left
/// the next root with nowhere to go, and two roots drew no page).
#[test]
fn a_recorder_over_several_runs_keeps_the_latest() {
    let (m, _) = queens(6);
    let mut solver = Solver::new(m);
    for limit in [1, 5, 1000] {
        type Runs = fn(&mut Solver);
        let runs: [Runs; 3] = [
            |s| {
                s.count();
                s.count();
            },
            |s| {
                s.first();
                s.solutions().count();
            },
            |s| {
                s.first();
                s.first();
            },
        ];
        for run in runs {
            let tree = tree::record(&mut solver, limit, run);
            let roots = tree.nodes.iter().filter(|n| n.parent.is_none()).count();
            assert_eq!(roots, 1, "limit {limit}");
            assert!(tree.nodes[0].parent.is_none());
            assert_eq!(tree.total_nodes(), solver.stats().nodes, "limit {limit}");
            assert_eq!(tree.total_failures(), solver.stats().failures);
        }
    }
}

/// Names and titles that look like markup stay text: inside the data's script element a
/// `<!--<script` (not only `</`) would swallow the page's own script, so the data holds no
/// `<` at all, and reads back as it was.
#[test]
fn markup_in_names_and_titles_stays_data() {
    let nasty = "<!--<script></script>";
    let mut m = Model::new();
    let x = m.named_var(nasty, 0..=1).unwrap();
    m.named_var("y", 0..=1).unwrap();
    let _ = x;
    let mut solver = Solver::new(m);
    let tree = tree::record(&mut solver, 100, |s| {
        s.count();
    });
    let html = tree.to_html(&tree::PageOptions {
        title: nasty.into(),
        ..tree::PageOptions::default()
    });
    let template = include_str!("../../src/search/tree_page.html");
    assert_eq!(
        html.matches("<script").count(),
        template.matches("<script").count()
    );
    assert_eq!(
        html.matches("<!--").count(),
        template.matches("<!--").count()
    );
    let start = html
        .find(r#"<script type="application/json" id="data">"#)
        .unwrap();
    let json = &html[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    assert!(!json.contains('<'), "{json}");
    let data: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(data["title"], nasty);
    assert_eq!(data["tree"]["names"][0], nasty);
}

/// The domains a tree holds are bounded in bytes, not only in nodes: a model of many wide
/// variables (each node changes hundreds of domains of hundreds of values) once made pages
/// of hundreds of megabytes from a few hundred nodes. Past the budget, nodes are kept
/// without their domains (and say so), and the totals stay exact.
#[test]
fn the_domains_recorded_are_bounded_in_bytes() {
    // 300 queens: about 300 nodes, 8 MB of domains unbounded.
    let budget = 1_000_000;
    let (m, _) = queens(300);
    let mut solver = Solver::new(m);
    let names = solver.model().names().to_vec();
    solver.observe(tree::Recorder::new(names, 10_000).with_domain_budget(budget));
    solver.first();
    let recorder: tree::Recorder = solver.take_observer().unwrap();
    let tree = recorder.finish(solver.is_exhausted());
    assert_eq!(tree.total_nodes(), solver.stats().nodes);
    let bytes: usize = tree
        .nodes
        .iter()
        .flat_map(|n| &n.changes)
        .map(|(_, text)| text.len() + 8)
        .sum();
    assert!(bytes <= budget, "{bytes} bytes of domains");
    let page = tree.to_html(&tree::PageOptions::default());
    assert!(
        page.len() <= budget + 200 * tree.nodes.len() + 100_000,
        "a page of {} bytes",
        page.len()
    );
    let unrecorded = tree.nodes.iter().filter(|n| n.unrecorded).count();
    assert!(unrecorded > 0 && unrecorded < tree.nodes.len());
    // A node that keeps its domains has ancestors that kept theirs (so they can be rebuilt).
    for (i, n) in tree.nodes.iter().enumerate() {
        if n.unrecorded {
            assert!(n.changes.is_empty());
        } else if let Some(p) = n.parent {
            assert!(!tree.nodes[p as usize].unrecorded, "node {i}");
        }
    }
}
