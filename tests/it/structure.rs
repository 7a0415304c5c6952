//! The crate's shape, checked: its top-level modules import each other without circles, so
//! data flows one way (flags + kubeconfig → settings → client → watcher → events → printer →
//! stdout) and a new maintainer can read any module knowing only what it imports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level module → the top-level modules it names (`crate::x`), test code left out.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&src).unwrap();
            let first = relative.components().next().unwrap().as_os_str();
            let module = first.to_string_lossy().trim_end_matches(".rs").to_string();
            if module == "main" || module == "lib" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            let names = graph.entry(module.clone()).or_default();
            for (index, _) in code.match_indices("crate::") {
                let rest = &code[index + "crate::".len()..];
                let mut found = Vec::new();
                if let Some(group) = rest.strip_prefix('{') {
                    let group = &group[..group.find('}').unwrap_or(group.len())];
                    for item in group.split(',') {
                        found.push(item.trim().split("::").next().unwrap_or_default());
                    }
                } else {
                    let end = rest
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    found.push(&rest[..end]);
                }
                for name in found {
                    if !name.is_empty()
                        && name != module
                        && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                    {
                        names.insert(name.to_string());
                    }
                }
            }
        }
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for names in graph.values_mut() {
        names.retain(|n| modules.contains(n));
    }
    graph
}

/// A module path that comes back to where it started, if any.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
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

#[test]
fn top_level_modules_import_each_other_without_circles() {
    let graph = imports();
    assert!(graph.len() > 20, "modules found: {:?}", graph.keys());
    assert!(
        graph["settings"].contains("connection"),
        "the scan reads imports"
    );
    if let Some(circle) = find_circle(&graph) {
        panic!("import circle: {}", circle.join(" → "));
    }
}

#[test]
fn a_circle_is_found_when_there_is_one() {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let edge = |g: &mut BTreeMap<String, BTreeSet<String>>, a: &str, b: &str| {
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
