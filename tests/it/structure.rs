//! The workspace's shape, checked. In every crate the top-level modules import each other
//! without circles, and in kw data flows one way (flags + kubeconfig → settings → client →
//! watcher → events → printer → stdout): the client, discovery, the watcher and the printers
//! never reach the layers that decide what to run (`cli`, `plan`, `run`,
//! `report`), directly or through another module. A new maintainer can then read any module
//! knowing only what it imports.
//!
//! Imports are read from the source text: `crate::` and `super::` paths (with `{..}` groups),
//! outside comments and test code, resolved to the top-level module they name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level module → the top-level modules of the same crate it imports.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// The pipeline from the server to stdout (client, discovery, watcher, decoder, events,
/// printers and the sinks they write to): it must not reach the modules that decide what to run.
const LOWER: &[&str] = &[
    "config",
    "client",
    "discovery",
    "watcher",
    "decode",
    "events",
    "output",
];
/// The command line, the plan made from it, and the runner with what words its ending.
const UPPER: &[&str] = &["cli", "plan", "run", "report", "demo", "version"];

/// Every crate of the workspace: the root package and each one under crates/, by the directory
/// of its sources.
fn crates() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = vec![("kw".to_string(), root.join("src"))];
    let mut members: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|dir| dir.join("Cargo.toml").is_file())
        .collect();
    members.sort();
    for dir in members {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        found.push((name, dir.join("src")));
    }
    found
}

/// The module path of a source file relative to the crate's src/: `a.rs` and `a/mod.rs` are
/// `[a]`, `a/b.rs` is `[a, b]`; the crate roots (`lib.rs`, `main.rs`) are `[]`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut path: Vec<String> = relative
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    if path.len() == 1 && (path[0] == "lib" || path[0] == "main") {
        path.clear();
    }
    path
}

/// The source without test code and comments: everything from the first `#[cfg(test)]` on, and
/// every line comment.
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    code.lines()
        .map(|line| match line.find("//") {
            // `//` inside a string (a URL) is rare in paths that matter; a quote before it
            // keeps the line.
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The first segment of each item of a `{..}` group (`a::b, c, self` → `a, c, self`),
/// braces nested inside items skipped.
fn group_heads(group: &str) -> Vec<&str> {
    let mut heads = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                heads.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    heads.push(&group[start..]);
    heads
        .into_iter()
        .map(|item| item.trim().split("::").next().unwrap_or_default().trim())
        .filter(|head| !head.is_empty())
        .collect()
}

/// The text of the `{..}` group that `rest` starts with, without its braces.
fn group_at(rest: &str) -> &str {
    let mut depth = 0;
    for (at, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &rest[1..at];
                }
            }
            _ => {}
        }
    }
    &rest[1..]
}

/// The top-level modules that the `crate::` and `super::` paths in `code` name, for code in
/// module `here`.
fn imported_from(code: &str, here: &[String]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut at = 0;
    while let Some(found) = code[at..]
        .find("crate::")
        .into_iter()
        .chain(code[at..].find("super::"))
        .min()
    {
        let start = at + found;
        at = start + 1;
        // A path starts here, not in the middle of another (`a::super::`, `kw_crate::`).
        if code[..start]
            .chars()
            .next_back()
            .is_some_and(|c| is_ident(c) || c == ':')
        {
            continue;
        }
        let mut rest = &code[start..];
        let mut base: Vec<String> = here.to_vec();
        if let Some(after) = rest.strip_prefix("crate::") {
            base.clear();
            rest = after;
        } else {
            while let Some(after) = rest.strip_prefix("super::") {
                base.pop();
                rest = after;
            }
        }
        at = start + (code[start..].len() - rest.len());
        let heads: Vec<&str> = if rest.starts_with('{') {
            group_heads(group_at(rest))
        } else {
            let end = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
            vec![&rest[..end]]
        };
        for head in heads {
            let target = match (base.first(), head) {
                (Some(top), _) => top.clone(),
                (None, "self" | "*") => continue,
                (None, name) => name.to_string(),
            };
            names.insert(target);
        }
    }
    names
}

/// The import graph of the crate whose sources are in `src`, test files left out.
fn imports(src: &Path) -> Graph {
    let mut graph = Graph::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            // `mod tests;` files hold test code only.
            if path.extension().is_none_or(|e| e != "rs") || path.ends_with("tests.rs") {
                continue;
            }
            let here = module_path(path.strip_prefix(src).unwrap());
            let Some(top) = here.first().cloned() else {
                continue;
            };
            let text = std::fs::read_to_string(&path).unwrap();
            let names = imported_from(&code_of(&text), &here);
            graph.entry(top).or_default().extend(names);
        }
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for (module, names) in graph.iter_mut() {
        names.retain(|n| modules.contains(n) && n != module);
    }
    graph
}

/// A module path that comes back to where it started, if any.
fn find_circle(graph: &Graph) -> Option<Vec<String>> {
    // Depth-first search with colours; the path on the stack is the circle when one closes.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut marks: BTreeMap<&str, Mark> = BTreeMap::new();
    for start in graph.keys() {
        if marks.contains_key(start.as_str()) {
            continue;
        }
        let mut path: Vec<&str> = vec![start];
        let mut pending: Vec<Vec<&str>> = vec![graph[start].iter().map(String::as_str).collect()];
        marks.insert(start, Mark::Open);
        while let Some(next) = pending.last_mut() {
            match next.pop() {
                Some(module) => match marks.get(module) {
                    Some(Mark::Open) => {
                        let from = path.iter().position(|m| *m == module).unwrap_or(0);
                        let mut circle: Vec<String> =
                            path[from..].iter().map(|m| m.to_string()).collect();
                        circle.push(module.to_string());
                        return Some(circle);
                    }
                    Some(Mark::Done) => {}
                    None => {
                        marks.insert(module, Mark::Open);
                        path.push(module);
                        pending.push(graph[module].iter().map(String::as_str).collect());
                    }
                },
                None => {
                    pending.pop();
                    if let Some(done) = path.pop() {
                        marks.insert(done, Mark::Done);
                    }
                }
            }
        }
    }
    None
}

/// For each module of `from` that reaches a module of `to`, the shortest import chain.
fn layer_breaks(graph: &Graph, from: &[&str], to: &[&str]) -> Vec<Vec<String>> {
    let mut breaks = Vec::new();
    for start in from.iter().filter(|m| graph.contains_key(**m)) {
        // Breadth-first, so the chain shown is the shortest.
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([*start]);
        while let Some(module) = queue.pop_front() {
            if to.contains(&module) {
                let mut chain = vec![module.to_string()];
                let mut at = module;
                while let Some(previous) = came_from.get(at) {
                    chain.push(previous.to_string());
                    at = previous;
                }
                chain.reverse();
                breaks.push(chain);
                break;
            }
            for next in graph.get(module).into_iter().flatten() {
                if next != start && !came_from.contains_key(next.as_str()) {
                    came_from.insert(next, module);
                    queue.push_back(next);
                }
            }
        }
    }
    breaks
}

#[test]
fn no_crate_has_an_import_circle() {
    let crates = crates();
    let names: Vec<&str> = crates.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["kw", "kw-sim", "kw-wire"]);
    let circles: Vec<String> = crates
        .iter()
        .filter_map(|(name, src)| {
            let circle = find_circle(&imports(src))?;
            Some(format!("import circle in {name}: {}", circle.join(" → ")))
        })
        .collect();
    assert!(circles.is_empty(), "{}", circles.join("\n"));
}

#[test]
fn the_scan_reads_crate_and_super_imports() {
    let kw = imports(&crates()[0].1);
    assert!(kw.len() > 20, "modules found: {:?}", kw.keys());
    assert!(kw["run"].contains("config"), "{:?}", kw["run"]);
    // output/printer/table.rs: `use super::cell::..` stays inside output; `crate::events` leaves it.
    assert!(kw["output"].contains("events"), "{:?}", kw["output"]);
    assert!(!kw["output"].contains("output"));
    let sim = imports(&crates()[1].1);
    assert!(sim["api"].contains("shared"), "{:?}", sim["api"]);
    assert!(sim["api"].contains("status"), "{:?}", sim["api"]);
}

#[test]
fn client_discovery_watcher_and_printers_never_reach_the_command_line_or_the_runners() {
    let graph = imports(&crates()[0].1);
    let breaks = layer_breaks(&graph, LOWER, UPPER);
    let shown: Vec<String> = breaks.iter().map(|chain| chain.join(" → ")).collect();
    assert!(
        breaks.is_empty(),
        "lower layers import upper ones:\n{}",
        shown.join("\n")
    );
}

#[test]
fn imports_are_resolved_to_top_level_modules() {
    let here = vec!["printer".to_string(), "table".to_string()];
    let code = "use super::cell::Cell;\nuse crate::{events::Event, output::{self, Out}};\n\
                use super::super::decode;\nlet x = kw_crate::nothing; crate::log::warn!();";
    let names: Vec<String> = imported_from(code, &here).into_iter().collect();
    assert_eq!(names, ["decode", "events", "log", "output", "printer"]);
    assert_eq!(
        module_path(Path::new("watcher/mod.rs")),
        ["watcher".to_string()]
    );
    assert!(module_path(Path::new("lib.rs")).is_empty());
    assert_eq!(
        code_of("use crate::a; // crate::b\n#[cfg(test)]\nuse crate::c;"),
        "use crate::a; "
    );
}

#[test]
fn a_circle_is_found_when_there_is_one() {
    let mut graph = Graph::new();
    let edge = |g: &mut Graph, a: &str, b: &str| {
        g.entry(a.into()).or_default().insert(b.into());
        g.entry(b.into()).or_default();
    };
    edge(&mut graph, "settings", "auth");
    edge(&mut graph, "auth", "kubeconfig");
    assert_eq!(find_circle(&graph), None);
    edge(&mut graph, "kubeconfig", "settings");
    let circle = find_circle(&graph).expect("a circle");
    assert_eq!(circle.first(), circle.last());
    assert_eq!(circle.len(), 4, "{circle:?}");
}

#[test]
fn a_layer_break_is_found_through_another_module() {
    let mut graph = Graph::new();
    for (a, b) in [
        ("watcher", "backoff"),
        ("backoff", "log"),
        ("plan", "watcher"),
    ] {
        graph.entry(a.into()).or_default().insert(b.into());
        graph.entry(b.into()).or_default();
    }
    assert!(layer_breaks(&graph, LOWER, UPPER).is_empty());
    graph.get_mut("log").unwrap().insert("run".into());
    graph.entry("run".into()).or_default();
    assert_eq!(
        layer_breaks(&graph, LOWER, UPPER),
        [["watcher", "backoff", "log", "run"]]
    );
}
