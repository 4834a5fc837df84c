//! The search tree, recorded: what a run did, node by node, kept as data and drawn as a page.
//!
//! A [`Recorder`] is an [`Observer`] that keeps each node it sees: its parent, its decision,
//! what became of it (failed, branched, a solution) and the domains propagation changed
//! there, relative to its parent. It keeps at most [`Recorder::new`]'s number of nodes; the
//! nodes after that are summarised, counted (nodes, failures, solutions) on the deepest kept
//! node above them, so a tree of any size is recorded in bounded memory and its totals stay
//! exact. [`record`] runs a search under a recorder and returns the [`SearchTree`]: plain
//! data (serde), from which [`SearchTree::to_html`] makes one self-contained HTML page that
//! draws the tree: failures, solutions and open subtrees in colours of their own, subtrees
//! collapsible (the page opens with as many nodes drawn as stay legible, the others folded
//! into triangles that say how much they hold), and a click on a node shows the decisions
//! down to it and its domains, as a table, a chessboard or a grid ([`PageOptions`]).
//!
//! Memory and page size are bounded twice: by the number of nodes kept, and by
//! [`DOMAIN_BUDGET`] bytes of domains (a model of many wide variables changes hundreds of
//! long domains at every node). Past the budget, nodes are still kept, drawn and counted, but
//! without their domains ([`TreeNode::unrecorded`]): the page says so where it would show
//! them.
//!
//! A recorder keeps the latest run: a new run's root drops what came before. Restarts
//! ([`SearchConfig::restarts`](crate::SearchConfig::restarts)) are one run: search goes back
//! to the root without a node of its own, so each attempt's first decision is one more child
//! of the root, and attempts often repeat one another's first decisions (the root's children
//! are the attempts, left to right; [`Statistics::restarts`](crate::Statistics::restarts)
//! counts them).
//!
//! ```
//! use bezzel_core::prelude::*;
//! use bezzel_core::search::tree::{self, PageOptions};
//!
//! let mut m = Model::new();
//! let q = m.named_vars("q", 6, 0..6)?;
//! m.all_different(&q)?;
//! let mut solver = Solver::new(m);
//! let tree = tree::record(&mut solver, 100_000, |s| { s.count(); });
//! assert_eq!(tree.total_nodes(), solver.stats().nodes);
//! let html = tree.to_html(&PageOptions::default());
//! assert!(html.starts_with("<!DOCTYPE html>"));
//! # Ok::<(), ModelError>(())
//! ```

use super::brancher::Domains;
use super::decision::Decision;
use super::dfs::Solver;
use super::observe::{Node, Observer};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// What became of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Its decision or propagation failed.
    #[serde(rename = "F")]
    Failed,
    /// Propagation left variables unfixed: search branched below it.
    #[serde(rename = "B")]
    Branched,
    /// Every variable fixed: a solution.
    #[serde(rename = "S")]
    Solution,
    /// Propagated, but the run stopped (a limit, the cancel flag) before it branched there:
    /// the subtree below it is unexplored.
    #[serde(rename = "T")]
    Stopped,
    /// Not searched: a branch the run did not take before it stopped (a limit, the cancel
    /// flag, the first solution found). An open node is no search node: it stands for the
    /// unexplored subtree of its decision.
    #[serde(rename = "O")]
    Open,
}

/// Nodes that were searched below a kept node but not kept, past the recorder's limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hidden {
    /// Nodes.
    #[serde(rename = "n")]
    pub nodes: u64,
    /// Of those, failures.
    #[serde(rename = "f")]
    pub failures: u64,
    /// Of those, solutions.
    #[serde(rename = "s")]
    pub solutions: u64,
}

/// One kept node. The field names are short in JSON, as a page may hold 100,000 of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeNode {
    /// The index of the parent in [`SearchTree::nodes`]; `None` for the root.
    #[serde(rename = "p")]
    pub parent: Option<u32>,
    /// The decision that made this node; `None` for the root.
    #[serde(rename = "d")]
    pub decision: Option<Decision>,
    /// What became of it.
    #[serde(rename = "s")]
    pub status: Status,
    /// The domains that differ from the parent's after propagation (all of them at the
    /// root), as `(variable index, values)` with the values written as
    /// [`domain_text`] writes them; empty for failed and open nodes.
    #[serde(rename = "c", default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<(u32, String)>,
    /// Searched nodes below this one that were not kept.
    #[serde(rename = "h", default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<Hidden>,
    /// Whether the domains here were left out (`changes` is empty): the recorder's budget
    /// for domains was spent before this node. Every node below it is left out too.
    #[serde(rename = "u", default, skip_serializing_if = "std::ops::Not::not")]
    pub unrecorded: bool,
}

/// A recorded search tree: see the [module docs](self).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchTree {
    /// The variables' names, by index.
    pub names: Vec<String>,
    /// The kept nodes in depth-first order (a parent before its children, left branch
    /// first); the root is node 0.
    pub nodes: Vec<TreeNode>,
    /// The most nodes the recorder kept.
    pub limit: usize,
    /// Whether the run explored its whole tree (no open or stopped nodes).
    pub complete: bool,
}

impl SearchTree {
    /// Search nodes, kept or not: the run's [`Statistics::nodes`](crate::Statistics::nodes).
    pub fn total_nodes(&self) -> u64 {
        self.nodes
            .iter()
            .map(|n| u64::from(n.status != Status::Open) + n.hidden.map_or(0, |h| h.nodes))
            .sum()
    }

    /// Failures, kept or not: the run's [`Statistics::failures`](crate::Statistics::failures).
    pub fn total_failures(&self) -> u64 {
        self.nodes
            .iter()
            .map(|n| u64::from(n.status == Status::Failed) + n.hidden.map_or(0, |h| h.failures))
            .sum()
    }

    /// Solutions, kept or not.
    pub fn total_solutions(&self) -> u64 {
        self.nodes
            .iter()
            .map(|n| u64::from(n.status == Status::Solution) + n.hidden.map_or(0, |h| h.solutions))
            .sum()
    }

    /// The decisions from the root down to node `index`, root first.
    pub fn path(&self, index: usize) -> Vec<Decision> {
        let mut path = Vec::new();
        let mut at = Some(index);
        while let Some(i) = at {
            let node = &self.nodes[i];
            path.extend(node.decision);
            at = node.parent.map(|p| p as usize);
        }
        path.reverse();
        path
    }

    /// The tree as one self-contained HTML page (inline script and style, nothing fetched):
    /// see [`PageOptions`].
    pub fn to_html(&self, options: &PageOptions) -> String {
        page(self, options)
    }
}

/// How a page shows the domains at a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Layout {
    /// A table: each variable's name and values.
    #[default]
    Domains,
    /// A chessboard: variable `r` is the column of row `r`'s queen, values `0..n`.
    Queens,
    /// A grid of `rows` x `cols` cells, the variables row by row (Sudoku: the value of a
    /// fixed cell, the candidates of another); `boxes` draws heavier lines every so many
    /// cells (0 for none).
    Grid {
        /// Rows of the grid.
        rows: usize,
        /// Columns of the grid.
        cols: usize,
        /// Cells per box side; 0 for no boxes.
        boxes: usize,
    },
}

/// How [`SearchTree::to_html`] draws a page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageOptions {
    /// The page's title and heading (escaped).
    pub title: String,
    /// How the domains at a clicked node are shown.
    pub layout: Layout,
    /// Values shown for a grid's cells and in the decisions: `symbols[v]` for value `v` where
    /// given and not empty (Sudoku's alphabets), else the number.
    pub symbols: Vec<String>,
}

/// Keeps the nodes of a run, up to a limit: see the [module docs](self).
#[derive(Debug)]
pub struct Recorder {
    names: Vec<String>,
    nodes: Vec<TreeNode>,
    limit: usize,
    /// For each depth of the current path, the kept node there or, past the limit, the
    /// deepest kept node above it.
    path: Vec<u32>,
    /// For each depth of the current path, the domains there, as `(min, max, size)` (a
    /// child's domains are subsets of its parent's, so equal triples are equal domains).
    shapes: Vec<Vec<(i32, i32, u32)>>,
    /// Whether the last node reported was kept.
    last_kept: bool,
    /// Bytes of domains left to record (texts, and the shapes kept along the path).
    budget: usize,
    /// Whether the budget ran out: no later node records its domains.
    spent: bool,
}

/// The bytes of domains a [`Recorder`] keeps at most, unless told otherwise
/// ([`Recorder::with_domain_budget`]): 32 MiB.
pub const DOMAIN_BUDGET: usize = 32 << 20;

impl Recorder {
    /// A recorder that keeps at most `limit` nodes (at least the root), for a model with
    /// variables named `names`. It keeps the latest run: a run's root drops the nodes of the
    /// runs before.
    pub fn new(names: Vec<String>, limit: usize) -> Recorder {
        Recorder {
            names,
            nodes: Vec::new(),
            limit: limit.max(1),
            path: Vec::new(),
            shapes: Vec::new(),
            last_kept: false,
            budget: DOMAIN_BUDGET,
            spent: false,
        }
    }

    /// The recorder, keeping at most `bytes` of domains rather than [`DOMAIN_BUDGET`].
    pub fn with_domain_budget(mut self, bytes: usize) -> Recorder {
        self.budget = bytes;
        self
    }

    /// The tree, once the run is over; `complete` says whether it explored the whole tree,
    /// and if not, the branches it did not take are added as open nodes.
    pub fn finish(self, complete: bool) -> SearchTree {
        let mut nodes = self.nodes;
        let mut children = vec![0u32; nodes.len()];
        let mut first_child = vec![None; nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            if let Some(p) = n.parent {
                children[p as usize] += 1;
                first_child[p as usize].get_or_insert(i);
            }
        }
        if !complete {
            for i in 0..children.len() {
                if nodes[i].status != Status::Branched || nodes[i].hidden.is_some() {
                    continue;
                }
                match (children[i], first_child[i]) {
                    (0, _) => nodes[i].status = Status::Stopped,
                    (1, Some(c)) => {
                        let decision = nodes[c].decision.map(Decision::negate);
                        nodes.push(TreeNode {
                            parent: Some(i as u32),
                            decision,
                            status: Status::Open,
                            changes: Vec::new(),
                            hidden: None,
                            unrecorded: nodes[i].unrecorded,
                        });
                    }
                    _ => {}
                }
            }
        }
        SearchTree {
            names: self.names,
            nodes,
            limit: self.limit,
            complete,
        }
    }

    fn keep(&mut self, node: &Node<'_>, parent: Option<u32>) {
        self.shapes.truncate(node.depth);
        // The shapes along the path count against the budget too: they are what a deep path
        // of many variables costs. Once a node goes without, so do all later ones (they come
        // after it, or below it), so a recorded node's ancestors are all recorded.
        let vars = node.domains.vars().count();
        let shape_bytes = |depth: usize| (depth + 1) * vars * 12;
        self.spent |= shape_bytes(node.depth) > self.budget;
        let mut changes = Vec::new();
        if !self.spent && !node.failed {
            let shapes = shapes_of(node.domains);
            let before = node.depth.checked_sub(1).and_then(|d| self.shapes.get(d));
            let mut bytes = 0;
            for (x, shape) in shapes.iter().enumerate() {
                if before.is_none_or(|b| b.get(x) != Some(shape)) {
                    let text = domain_text(node.domains, x as u32);
                    bytes += text.len() + 8;
                    changes.push((x as u32, text));
                }
            }
            if bytes > self.budget - shape_bytes(node.depth) {
                self.spent = true;
                changes = Vec::new();
            } else {
                self.budget -= bytes;
                self.shapes.push(shapes);
            }
        } else if !self.spent {
            // A failed node has no children: its shapes are never read.
            self.shapes.push(Vec::new());
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(TreeNode {
            parent,
            decision: node.decision,
            status: if node.failed {
                Status::Failed
            } else {
                Status::Branched
            },
            changes,
            hidden: None,
            unrecorded: self.spent,
        });
        self.path.push(id);
    }
}

impl Observer for Recorder {
    fn node(&mut self, node: &Node<'_>) {
        if node.depth == 0 {
            // A new run's root: the tree is the latest run's, so an earlier run's nodes go
            // (and the root is always kept, whatever the limit).
            self.nodes.clear();
            self.shapes.clear();
        }
        self.path.truncate(node.depth);
        let parent = self.path.last().copied();
        self.last_kept = self.nodes.len() < self.limit;
        if self.last_kept {
            self.keep(node, parent);
            return;
        }
        // Past the limit: counted on the deepest kept node above, which stands in for it on
        // the path so that its descendants are counted there too.
        let above = parent.expect("the root is always kept");
        let hidden = self.nodes[above as usize].hidden.get_or_insert_default();
        hidden.nodes += 1;
        hidden.failures += u64::from(node.failed);
        self.path.push(above);
    }

    fn solution(&mut self, depth: usize) {
        let Some(&at) = self.path.get(depth) else {
            return;
        };
        let node = &mut self.nodes[at as usize];
        if self.last_kept {
            node.status = Status::Solution;
        } else {
            node.hidden.get_or_insert_default().solutions += 1;
        }
    }
}

/// Each variable's `(min, max, size)`.
fn shapes_of(domains: &Domains<'_>) -> Vec<(i32, i32, u32)> {
    domains
        .vars()
        .map(|x| (domains.min(x), domains.max(x), domains.size(x)))
        .collect()
}

/// The values of variable `x` as text: runs of consecutive values as `a..b`, others alone,
/// separated by commas (`1,3..5,9`); a domain of more than 1,000 values as `min..max`
/// followed by its size in brackets (`0..1000000 [999990]`).
pub fn domain_text(domains: &Domains<'_>, x: u32) -> String {
    let x = domains
        .vars()
        .nth(x as usize)
        .expect("a variable of the model");
    let size = domains.size(x);
    if size > 1000 {
        return format!("{}..{} [{size}]", domains.min(x), domains.max(x));
    }
    let mut text = String::new();
    let mut run: Option<(i32, i32)> = None;
    let flush = |text: &mut String, (a, b): (i32, i32)| {
        if !text.is_empty() {
            text.push(',');
        }
        match b - a {
            0 => write!(text, "{a}"),
            1 => write!(text, "{a},{b}"),
            _ => write!(text, "{a}..{b}"),
        }
        .expect("writing to a String");
    };
    for v in domains.values(x) {
        run = match run {
            Some((a, b)) if v == b + 1 => Some((a, v)),
            Some(r) => {
                flush(&mut text, r);
                Some((v, v))
            }
            None => Some((v, v)),
        };
    }
    if let Some(r) = run {
        flush(&mut text, r);
    }
    text
}

/// Runs `run` on `solver` with a [`Recorder`] keeping at most `limit` nodes, and returns the
/// tree. An observer the solver had is put back afterwards.
pub fn record(solver: &mut Solver, limit: usize, run: impl FnOnce(&mut Solver)) -> SearchTree {
    let before = solver.observer.take();
    start(solver, limit);
    run(solver);
    let tree = take(solver).expect("the recorder put there");
    solver.observer = before;
    tree
}

/// Puts a [`Recorder`] keeping at most `limit` nodes on `solver`, for the next runs; [`take`]
/// takes the tree back. For code that drives the solver through a wrapper (a puzzle's own
/// type) rather than in a closure, as [`record`] does.
pub fn start(solver: &mut Solver, limit: usize) {
    let names = solver.model().names().to_vec();
    solver.observe(Recorder::new(names, limit));
}

/// The tree of the latest run, from the [`Recorder`] that [`start`] put on `solver`, which no
/// longer watches; `None` if there was none.
pub fn take(solver: &mut Solver) -> Option<SearchTree> {
    let recorder: Recorder = solver.take_observer()?;
    Some(recorder.finish(solver.is_exhausted()))
}

/// The page's script, style and markup; the tree's data goes in where it says `/*DATA*/`.
const PAGE: &str = include_str!("tree_page.html");

/// The page of [`SearchTree::to_html`].
fn page(tree: &SearchTree, options: &PageOptions) -> String {
    #[derive(Serialize)]
    struct Data<'a> {
        title: &'a str,
        layout: Layout,
        symbols: &'a [String],
        tree: &'a SearchTree,
        total_nodes: u64,
        total_failures: u64,
        total_solutions: u64,
    }
    let data = Data {
        title: &options.title,
        layout: options.layout,
        symbols: &options.symbols,
        tree,
        total_nodes: tree.total_nodes(),
        total_failures: tree.total_failures(),
        total_solutions: tree.total_solutions(),
    };
    let json = serde_json::to_string(&data).expect("the tree serializes");
    // No `<` at all inside the script element: `</script` would end it early, and `<!--`
    // followed by `<script` would make the parser swallow the page's own script. `<` occurs
    // only inside JSON strings, where `\u003c` reads back as `<`.
    let json = json.replace('<', "\\u003c");
    let title = crate::markup::escape(if options.title.is_empty() {
        "Search tree"
    } else {
        &options.title
    });
    let (before, after) = PAGE
        .split_once("/*DATA*/")
        .expect("the page has a data slot");
    let mut html = before.replace("/*TITLE*/", &title);
    html.push_str(&json);
    html.push_str(&after.replace("/*TITLE*/", &title));
    html
}
