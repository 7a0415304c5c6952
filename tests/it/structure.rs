//! The workspace's shape, checked: every arrow between modules points one way, so a maintainer
//! can read any module knowing only what lies below it.
//!
//! What is enforced, in every crate of the workspace:
//! - **Ranks.** Each top-level unit (a folder or a top-level `.rs` file under `src/`) has a rank
//!   in its crate's table below; the crate root (`lib.rs`) is above them all. An arrow between
//!   two units points strictly down: to a lower rank, never to an equal or a higher one. A unit
//!   missing from the table fails, so a new one gets its place on purpose.
//! - **No circle at file level.** Every module file is a node (`a.rs` and `a/mod.rs` are module
//!   `a`); no chain of arrows comes back to where it started, inside a folder too (a child that
//!   uses an item of its `mod.rs` while the `mod.rs` uses the child is a circle).
//!
//! An arrow A → B is A's product code naming an item defined in module B: through `crate::`,
//! `super::` (any depth), `self::` or a child module's name, `use` groups included. A name that a
//! module re-exports with `pub use` is credited to the module that defines it, and the `pub use`
//! line itself is no arrow of the re-exporter; a path to a module itself is an arrow to that
//! module. `mod x;` is no arrow. Comments and literals are blanked first; an item under
//! `#[cfg(test)]` (a `mod tests { .. }`, a `use`, a `fn`, a `mod tests;` file) is dropped, and
//! only that item: the product code after it counts.
//!
//! Sources are read as text, with a small lexer rather than a parser: fast, and enough for the
//! paths that name modules. All violations are reported at once, sorted, one per line.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

/// A module's path inside its crate: `[]` is the crate root, `["config", "settings"]` is
/// src/config/settings.rs.
type Module = Vec<String>;

/// Module → its source text.
type Tree = BTreeMap<Module, String>;

/// Module → the modules its product code names items of.
type Graph = BTreeMap<Module, BTreeSet<Module>>;

/// A unit's rank: it may import only units of a lower rank.
type Ranks = &'static [(&'static str, u32)];

/// The client, lowest first (CONTRIBUTING.md explains each layer): the leaf libraries, the
/// configuration, the HTTP client, decoding, discovery, the watcher, the readiness rules,
/// output, waiting; then the command line, the plan made from it, what words the ending, the
/// runner, and the commands beside `get`.
const KW_RANKS: Ranks = &[
    ("log", 0),
    ("spelling", 0),
    ("private_file", 0),
    ("permits", 0),
    ("goformat", 0),
    ("events", 0),
    ("jsonpath", 1),
    ("gotemplate", 1),
    ("config", 2),
    ("client", 3),
    ("decode", 4),
    ("discovery", 5),
    ("watcher", 6),
    ("readiness", 7),
    ("output", 8),
    ("wait", 9),
    ("cli", 10),
    ("cli_help", 10),
    ("plan", 11),
    ("passthrough", 11),
    ("report", 12),
    ("run", 13),
    ("demo", 14),
    ("version", 14),
    ("completion", 14),
];

/// The wire types shared by client and simulator: one file, nothing to rank.
const KW_WIRE_RANKS: Ranks = &[];

/// The simulator (the layout of issue #30), lowest first: the leaves (its error, the faults it
/// can be told to inject, HTTP from bytes to requests), its configuration, the world as data,
/// the API that answers one request, the server (listener, connections, handle), and its
/// command line. A request meets them top down.
const KW_SIM_RANKS: Ranks = &[
    ("error", 0),
    ("faults", 0),
    ("http", 0),
    ("config", 1),
    ("world", 2),
    ("api", 3),
    ("server", 4),
    ("cli", 5),
];

/// Every crate of the workspace: name, sources relative to the workspace root, ranks.
const CRATES: &[(&str, &str, Ranks)] = &[
    ("kw", "src", KW_RANKS),
    ("kw-sim", "crates/kw-sim/src", KW_SIM_RANKS),
    ("kw-wire", "crates/kw-wire/src", KW_WIRE_RANKS),
];

#[test]
fn every_arrow_in_the_workspace_points_down_and_none_closes_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for (name, src, ranks) in CRATES {
        found.extend(violations(name, &read_tree(&root.join(src)), ranks));
    }
    assert!(
        found.is_empty(),
        "{} violations of the house's structure:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn every_crate_of_the_workspace_is_checked_and_read() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut members: Vec<String> = std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .map(|entry| entry.expect("entry").path())
        .filter(|dir| dir.join("Cargo.toml").is_file())
        .map(|dir| format!("crates/{}/src", dir.file_name().unwrap().to_string_lossy()))
        .collect();
    members.push("src".into());
    members.sort();
    let mut checked: Vec<String> = CRATES.iter().map(|(_, src, _)| src.to_string()).collect();
    checked.sort();
    assert_eq!(checked, members, "a crate is missing from CRATES");
    // A reader that finds nothing would pass every rule: the client's graph must be its real one.
    let kw = graph(&read_tree(&root.join("src")));
    let arrows: usize = kw.values().map(BTreeSet::len).sum();
    assert!(
        kw.len() > 80 && arrows > 200,
        "{} modules, {arrows} arrows",
        kw.len()
    );
}

// ---- Reading a crate ----

/// The sources under `src`, by module. `main.rs` beside a `lib.rs` is a crate of its own that
/// reaches the library by its name, so it has no `crate::` arrows to check.
fn read_tree(src: &Path) -> Tree {
    let mut tree = Tree::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("source folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src).expect("under src");
                let text = std::fs::read_to_string(&path).expect("source file");
                tree.insert(module_path(&relative.to_string_lossy()), text);
            }
        }
    }
    if src.join("lib.rs").is_file() && src.join("main.rs").is_file() {
        let library = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
        tree.insert(Vec::new(), library);
    }
    tree
}

/// `a.rs` and `a/mod.rs` are `[a]`, `a/b.rs` is `[a, b]`; `lib.rs` and `main.rs` are `[]`.
fn module_path(relative: &str) -> Module {
    let mut path: Module = relative
        .trim_end_matches(".rs")
        .split(['/', '\\'])
        .map(String::from)
        .collect();
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    if path.len() == 1 && (path[0] == "lib" || path[0] == "main") {
        path.clear();
    }
    path
}

// ---- Product code: comments and literals blanked, test items dropped ----

/// The text with comments turned into a space and every string, raw string and char literal
/// into an empty one, so that nothing inside them reads as code (a brace, a path).
fn blank_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < chars.len() {
        let rest = &chars[at..];
        let (skipped, blank) = match rest {
            ['/', '/', ..] => (skip_line_comment(rest), " "),
            ['/', '*', ..] => (skip_block_comment(rest), " "),
            ['"', ..] => (skip_string(rest), "\"\""),
            ['r', ..] if starts_raw_string(&chars, at) => (skip_raw_string(rest), "\"\""),
            ['\'', ..] => (char_literal_len(rest).unwrap_or(0), "' '"),
            _ => (0, ""),
        };
        if skipped == 0 {
            out.push(rest[0]);
            at += 1;
        } else {
            out.push_str(blank);
            at += skipped;
        }
    }
    out
}

fn skip_line_comment(rest: &[char]) -> usize {
    rest.iter().position(|c| *c == '\n').unwrap_or(rest.len())
}

/// Block comments nest in Rust.
fn skip_block_comment(rest: &[char]) -> usize {
    let (mut depth, mut at) = (0, 0);
    while at < rest.len() {
        match &rest[at..] {
            ['/', '*', ..] => (depth, at) = (depth + 1, at + 2),
            ['*', '/', ..] => {
                (depth, at) = (depth - 1, at + 2);
                if depth == 0 {
                    return at;
                }
            }
            _ => at += 1,
        }
    }
    rest.len()
}

/// A `"…"` string with its escapes, quotes included.
fn skip_string(rest: &[char]) -> usize {
    let mut at = 1;
    while at < rest.len() {
        match rest[at] {
            '\\' => at += 2,
            '"' => return at + 1,
            _ => at += 1,
        }
    }
    rest.len()
}

/// `r"`, `r#"`, `br"`: an `r` that starts a word (or follows the `b` that does).
fn starts_raw_string(chars: &[char], at: usize) -> bool {
    let before = |n: usize| at.checked_sub(n).map(|i| chars[i]);
    let starts_word = |c: Option<char>| c.is_none_or(|c| !is_ident(c));
    let hashes = chars[at + 1..].iter().take_while(|c| **c == '#').count();
    chars.get(at + 1 + hashes) == Some(&'"')
        && (starts_word(before(1)) || (before(1) == Some('b') && starts_word(before(2))))
}

fn skip_raw_string(rest: &[char]) -> usize {
    let hashes = rest[1..].iter().take_while(|c| **c == '#').count();
    let mut at = 2 + hashes;
    while at < rest.len() {
        if rest[at] == '"'
            && rest[at + 1..]
                .iter()
                .take(hashes)
                .filter(|c| **c == '#')
                .count()
                == hashes
        {
            return at + 1 + hashes;
        }
        at += 1;
    }
    rest.len()
}

/// The length of the char literal `rest` starts with (`'x'`, `'\n'`, `'\u{1F600}'`), or `None`
/// for a lifetime (`'a`).
fn char_literal_len(rest: &[char]) -> Option<usize> {
    match rest {
        ['\'', '\\', _, ..] => rest[3..].iter().position(|c| *c == '\'').map(|end| end + 4),
        ['\'', _, '\'', ..] => Some(3),
        _ => None,
    }
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The attributes that make an item test-only.
const TEST_ONLY: &[&str] = &["#[cfg(test)]", "#[cfg(all(test,"];

/// Product code (blanked) without the items `#[cfg(test)]` is attached to, and the names of the
/// `mod x;` files that are test-only. `None` if the whole file is (`#![cfg(test)]`).
fn product_code(text: &str) -> Option<(String, Vec<String>)> {
    let mut code = blank_comments_and_literals(text);
    if code.contains("#![cfg(test)]") {
        return None;
    }
    let mut test_files = Vec::new();
    while let Some(start) = TEST_ONLY.iter().filter_map(|a| code.find(a)).min() {
        let item = start + bracket_end(&code[start + 1..], '[', ']') + 1;
        let item = item + skip_attributes(&code[item..]);
        let (len, test_file) = item_len(&code[item..]);
        test_files.extend(test_file);
        code.replace_range(start..item + len, " ");
    }
    Some((code, test_files))
}

/// The length of the `open … close` group `text` starts with, nested ones included.
fn bracket_end(text: &str, open: char, close: char) -> usize {
    let mut depth = 0;
    for (at, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return at + 1;
            }
        }
    }
    text.len()
}

/// Whitespace and further `#[..]` attributes before an item.
fn skip_attributes(text: &str) -> usize {
    let mut at = 0;
    loop {
        at += text[at..].len() - text[at..].trim_start().len();
        if !text[at..].starts_with("#[") {
            return at;
        }
        at += 1 + bracket_end(&text[at + 1..], '[', ']');
    }
}

/// The length of the item `text` starts with: a `use` to its `;`, anything else to its first
/// `;` or through its `{ .. }` body; and the file name if the item is `mod x;`.
fn item_len(text: &str) -> (usize, Option<String>) {
    // The words before the first `{` or `;`: `pub(crate) mod x` is `pub crate mod x`.
    let head = &text[..text.find(['{', ';']).unwrap_or(text.len())];
    let words: Vec<&str> = head
        .split(|c: char| !is_ident(c))
        .filter(|w| !w.is_empty())
        .collect();
    let keyword = |name: &str| words.iter().take(3).position(|w| *w == name);
    let is_use = keyword("use").is_some();
    let (mut parens, mut at) = (0i32, 0);
    for (i, c) in text.char_indices() {
        at = i;
        match c {
            '(' | '[' => parens += 1,
            ')' | ']' => parens -= 1,
            '{' if parens == 0 && !is_use => return (i + bracket_end(&text[i..], '{', '}'), None),
            ';' if parens == 0 => {
                let test_file = keyword("mod").and_then(|at| words.get(at + 1));
                let test_file = test_file.map(|name| name.to_string());
                return (i + 1, test_file);
            }
            _ => {}
        }
    }
    (at + 1, None)
}

// ---- Paths: `use` trees and the paths in expressions ----

/// One path of a `use` tree, flattened (`a::{b, c::D as E}` is `a::b` and `a::c::D as E`).
#[derive(Debug, Clone, PartialEq)]
struct UsePath {
    segments: Vec<String>,
    alias: Option<String>,
}

/// Reads a path or `use` tree from the start of `text`; `end` is how far it went.
struct PathReader<'a> {
    text: &'a str,
    end: usize,
}

impl PathReader<'_> {
    fn read(text: &str) -> (Vec<UsePath>, usize) {
        let mut reader = PathReader { text, end: 0 };
        let paths = reader.tree(&[]);
        (paths, reader.end)
    }

    fn skip_space(&mut self) {
        let rest = &self.text[self.end..];
        self.end += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_space();
        let found = self.text[self.end..].starts_with(token);
        if found {
            self.end += token.len();
        }
        found
    }

    fn word(&mut self) -> Option<String> {
        self.skip_space();
        let rest = &self.text[self.end..];
        let rest_after_dollar = rest.strip_prefix('$').unwrap_or(rest);
        let len = rest_after_dollar
            .find(|c: char| !is_ident(c))
            .unwrap_or(rest_after_dollar.len());
        if len == 0 {
            return None;
        }
        self.end += rest.len() - rest_after_dollar.len() + len;
        Some(rest_after_dollar[..len].to_string())
    }

    fn tree(&mut self, prefix: &[String]) -> Vec<UsePath> {
        let mut segments = prefix.to_vec();
        loop {
            if self.eat("{") {
                return self.group(&segments);
            }
            if self.eat("*") {
                segments.push("*".into());
                break;
            }
            let Some(word) = self.word() else { break };
            segments.push(word);
            let before = self.end;
            if !self.eat("::") {
                self.end = before;
                break;
            }
        }
        let before = self.end;
        let alias = match self.word() {
            Some(word) if word == "as" => self.word(),
            _ => {
                self.end = before;
                None
            }
        };
        vec![UsePath { segments, alias }]
    }

    fn group(&mut self, prefix: &[String]) -> Vec<UsePath> {
        let mut paths = Vec::new();
        while !self.eat("}") && self.end < self.text.len() {
            let before = self.end;
            paths.extend(self.tree(prefix));
            self.eat(",");
            if self.end == before {
                self.end += 1;
            }
        }
        paths
    }
}

/// The `pub use` statements of `code` (any visibility), as (where it starts, where it ends,
/// its tree's text).
fn reexport_statements(code: &str) -> Vec<(usize, usize, &str)> {
    let mut found = Vec::new();
    for (start, _) in code.match_indices("pub") {
        if code[..start].ends_with(is_ident) || code[start + 3..].starts_with(is_ident) {
            continue;
        }
        let mut rest = code[start + 3..].trim_start();
        if rest.starts_with('(') {
            rest = rest[bracket_end(rest, '(', ')')..].trim_start();
        }
        let Some(tree) = rest.strip_prefix("use") else {
            continue;
        };
        if tree.starts_with(is_ident) {
            continue;
        }
        let tree_start = code.len() - tree.len();
        let end = tree_start + tree.find(';').unwrap_or(tree.len());
        found.push((start, end, &code[tree_start..end]));
    }
    found
}

/// Every path in `code` that starts with `crate`, `super`, `self` or one of `children`, as a
/// `use` tree (a plain path is a tree of one).
fn paths_in(code: &str, children: &BTreeSet<&str>) -> Vec<UsePath> {
    let bytes = code.as_bytes();
    let mut paths = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let starts_word = (bytes[at] as char).is_ascii_alphabetic() || bytes[at] == b'_';
        let after_path = at > 0 && (is_ident(bytes[at - 1] as char) || bytes[at - 1] == b':');
        if !starts_word || after_path {
            at += 1;
            continue;
        }
        let len = code[at..]
            .find(|c: char| !is_ident(c))
            .unwrap_or(code.len() - at);
        let word = &code[at..at + len];
        let is_path_head = matches!(word, "crate" | "super" | "self") || children.contains(word);
        if is_path_head && code[at + len..].trim_start().starts_with("::") {
            let (found, read) = PathReader::read(&code[at..]);
            paths.extend(found);
            at += read.max(len);
        } else {
            at += len;
        }
    }
    paths
}

// ---- The graph ----

/// What the graph is built from: each module's product code and the names it re-exports.
struct Crate {
    /// Product code of each module that is not test-only, `pub use` statements taken out.
    code: BTreeMap<Module, String>,
    /// Module → re-exported name → the path it stands for, from that module.
    reexports: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
}

impl Crate {
    fn read(tree: &Tree) -> Crate {
        let mut code = BTreeMap::new();
        let mut test_only: BTreeSet<Module> = BTreeSet::new();
        for (module, text) in tree {
            match product_code(text) {
                Some((product, test_files)) => {
                    for file in test_files {
                        test_only.insert([module.clone(), vec![file]].concat());
                    }
                    code.insert(module.clone(), product);
                }
                None => {
                    test_only.insert(module.clone());
                }
            }
        }
        code.retain(|module, _| !test_only.iter().any(|t| module.starts_with(t)));
        let mut reexports = BTreeMap::new();
        for (module, product) in code.iter_mut() {
            let mut names = BTreeMap::new();
            let mut lines = Vec::new();
            for (start, end, tree) in reexport_statements(product) {
                for path in PathReader::read(tree).0 {
                    if let Some(name) = exported_name(&path) {
                        names.insert(name, path.segments);
                    }
                }
                lines.push(start..end);
            }
            for line in lines.into_iter().rev() {
                product.replace_range(line, " ");
            }
            reexports.insert(module.clone(), names);
        }
        for (module, name) in exported_macros(&code) {
            let path = [vec!["crate".to_string()], module, vec![name.clone()]].concat();
            reexports.entry(Vec::new()).or_default().insert(name, path);
        }
        Crate { code, reexports }
    }

    fn children(&self, module: &Module) -> BTreeSet<&str> {
        self.code
            .keys()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
            .map(|m| m[module.len()].as_str())
            .collect()
    }

    /// The module a path in `here` names an item of; `None` outside the crate.
    fn resolve(&self, here: &Module, segments: &[String], hops: usize) -> Option<Module> {
        let (mut module, rest) = match segments.first().map(String::as_str) {
            Some("crate") => (Vec::new(), &segments[1..]),
            Some("self") => (here.clone(), &segments[1..]),
            Some("super") => {
                let supers = segments.iter().take_while(|s| *s == "super").count();
                let depth = here.len().checked_sub(supers)?;
                (here[..depth].to_vec(), &segments[supers..])
            }
            Some(child)
                if self
                    .code
                    .contains_key(&[here.clone(), vec![child.into()]].concat()) =>
            {
                (here.clone(), segments)
            }
            _ => return None,
        };
        for (i, segment) in rest.iter().enumerate() {
            if segment == "self" || segment == "*" {
                break;
            }
            let child = [module.clone(), vec![segment.clone()]].concat();
            if self.code.contains_key(&child) {
                module = child;
                continue;
            }
            // An item of `module`, unless `module` only re-exports it.
            let Some(target) = self.reexports.get(&module).and_then(|r| r.get(segment)) else {
                break;
            };
            if hops > 16 {
                break;
            }
            let through = [target.clone(), rest[i + 1..].to_vec()].concat();
            return self.resolve(&module, &through, hops + 1);
        }
        Some(module)
    }
}

/// The `#[macro_export]` macros of each module: they are named from the crate root
/// (`crate::vlog!`) but defined where their `macro_rules!` is.
fn exported_macros(code: &BTreeMap<Module, String>) -> Vec<(Module, String)> {
    let mut found = Vec::new();
    for (module, product) in code {
        for (at, _) in product.match_indices("#[macro_export]") {
            let rest = &product[at..];
            let Some(rules) = rest.find("macro_rules!") else {
                continue;
            };
            let name = rest[rules + "macro_rules!".len()..].trim_start();
            let len = name.find(|c: char| !is_ident(c)).unwrap_or(name.len());
            found.push((module.clone(), name[..len].to_string()));
        }
    }
    found
}

/// The name a `pub use` path makes visible: its alias, or its last segment (`a::{self}` is `a`).
fn exported_name(path: &UsePath) -> Option<String> {
    if let Some(alias) = &path.alias {
        return Some(alias.clone());
    }
    match path.segments.as_slice() {
        [.., last] if last == "*" => None,
        [.., named, last] if last == "self" => Some(named.clone()),
        [.., last] => Some(last.clone()),
        [] => None,
    }
}

/// Module → the modules it names items of, itself left out.
fn graph(tree: &Tree) -> Graph {
    let krate = Crate::read(tree);
    let mut graph = Graph::new();
    for (module, code) in &krate.code {
        let children = krate.children(module);
        let targets = paths_in(code, &children)
            .into_iter()
            .filter_map(|path| krate.resolve(module, &path.segments, 0))
            .filter(|target| target != module)
            .collect();
        graph.insert(module.clone(), targets);
    }
    graph
}

// ---- The rules ----

/// Every violation in the crate `name`, sorted, one line each.
fn violations(name: &str, tree: &Tree, ranks: Ranks) -> Vec<String> {
    let graph = graph(tree);
    let mut found = rank_violations(&graph, ranks);
    found.extend(circles(&graph));
    let mut found: Vec<String> = found.into_iter().map(|v| format!("{name}: {v}")).collect();
    found.sort();
    found.dedup();
    found
}

fn shown(module: &Module) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        module.join("::")
    }
}

/// Units missing from the table (or ranked but gone), and every arrow between two units that
/// does not point strictly down.
fn rank_violations(graph: &Graph, ranks: Ranks) -> Vec<String> {
    let rank_of = |unit: &str| ranks.iter().find(|(u, _)| *u == unit).map(|(_, r)| *r);
    let units: BTreeSet<&str> = graph
        .keys()
        .filter_map(|m| m.first())
        .map(String::as_str)
        .collect();
    let mut found = Vec::new();
    for unit in units.iter().filter(|u| rank_of(u).is_none()) {
        found.push(format!(
            "unranked module {unit}: give it a rank in structure.rs"
        ));
    }
    for (unit, _) in ranks.iter().filter(|(u, _)| !units.contains(u)) {
        found.push(format!(
            "ranked module {unit} is not in the tree: take it out of structure.rs"
        ));
    }
    // The crate root is above every unit.
    let rank = |module: &Module| match module.first() {
        None => Some(u32::MAX),
        Some(unit) => rank_of(unit),
    };
    for (from, targets) in graph {
        for to in targets.iter().filter(|to| to.first() != from.first()) {
            let (Some(high), Some(low)) = (rank(from), rank(to)) else {
                continue;
            };
            let (a, b) = (unit_name(from), unit_name(to));
            let arrow = format!("{} → {}", shown(from), shown(to));
            if high == low {
                found.push(format!(
                    "{arrow}: {a} and {b} share rank {high}; units of one rank do not import each other"
                ));
            } else if high < low {
                found.push(format!(
                    "{arrow}: {a} (rank {high}) imports {b} (rank {}); arrows point down only",
                    if low == u32::MAX {
                        "root".to_string()
                    } else {
                        low.to_string()
                    }
                ));
            }
        }
    }
    found
}

fn unit_name(module: &Module) -> &str {
    module.first().map(String::as_str).unwrap_or("crate")
}

/// One circle through each group of modules that reach each other, shortest first found.
fn circles(graph: &Graph) -> Vec<String> {
    let mut reversed = Graph::new();
    for (from, targets) in graph {
        for to in targets {
            reversed.entry(to.clone()).or_default().insert(from.clone());
        }
    }
    let mut found = Vec::new();
    let mut seen: BTreeSet<&Module> = BTreeSet::new();
    for start in graph.keys() {
        if seen.contains(start) {
            continue;
        }
        let Some(circle) = shortest_path(graph, start, start) else {
            continue;
        };
        // Everything on a circle with `start` (reached from it and reaching it) goes with it.
        let (there, back) = (reachable(graph, start), reachable(&reversed, start));
        seen.extend(
            graph
                .keys()
                .filter(|m| there.contains(m) && back.contains(m)),
        );
        let names: Vec<String> = circle.iter().map(|m| shown(m)).collect();
        found.push(format!("circle {}", names.join(" → ")));
    }
    found
}

/// The modules reached from `from` by one arrow or more.
fn reachable<'a>(graph: &'a Graph, from: &Module) -> BTreeSet<&'a Module> {
    let mut reached = BTreeSet::new();
    let mut queue: VecDeque<&Module> = graph.get(from).into_iter().flatten().collect();
    while let Some(module) = queue.pop_front() {
        if reached.insert(module) {
            queue.extend(graph.get(module).into_iter().flatten());
        }
    }
    reached
}

/// The shortest chain of arrows from `from` to `to` (at least one arrow), ends included.
fn shortest_path<'a>(graph: &'a Graph, from: &'a Module, to: &Module) -> Option<Vec<&'a Module>> {
    let mut came_from: BTreeMap<&Module, &Module> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(module) = queue.pop_front() {
        for next in graph.get(module).into_iter().flatten() {
            if came_from.contains_key(next) {
                continue;
            }
            came_from.insert(next, module);
            if next == to {
                let mut chain = vec![next];
                let mut at = module;
                while at != from {
                    chain.push(at);
                    at = came_from[at];
                }
                chain.push(from);
                chain.reverse();
                return Some(chain);
            }
            queue.push_back(next);
        }
    }
    None
}

// ---- Each rule, failing on a seeded violation ----

/// An in-memory crate from (file under src/, text) pairs.
fn seeded(files: &[(&str, &str)]) -> Tree {
    files
        .iter()
        .map(|(file, text)| (module_path(file), text.to_string()))
        .collect()
}

/// The arrows of a seeded crate, as `from → to` lines.
fn arrows(files: &[(&str, &str)]) -> Vec<String> {
    let mut found = Vec::new();
    for (from, targets) in graph(&seeded(files)) {
        found.extend(
            targets
                .iter()
                .map(|to| format!("{} → {}", shown(&from), shown(to))),
        );
    }
    found
}

const SEEDED_RANKS: Ranks = &[("low", 0), ("mid", 1), ("peer", 1), ("high", 2)];

fn seeded_violations(files: &[(&str, &str)]) -> Vec<String> {
    violations("seed", &seeded(files), SEEDED_RANKS)
}

/// A crate that keeps every rule, to add one violation to.
const CLEAN: &[(&str, &str)] = &[
    (
        "lib.rs",
        "mod low; mod mid; mod peer; mod high;\npub use high::run;",
    ),
    ("low.rs", "pub struct Low;"),
    ("mid.rs", "use crate::low::Low;\npub fn mid(_: Low) {}"),
    ("peer.rs", "pub fn peer() { crate::low::Low; }"),
    ("high/mod.rs", "mod a; mod b;\npub use a::run;"),
    (
        "high/a.rs",
        "pub fn run() { super::b::helper(); crate::mid::mid(crate::low::Low); }",
    ),
    ("high/b.rs", "pub fn helper() {}"),
];

fn with(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut files: BTreeMap<&str, &str> = CLEAN.iter().copied().collect();
    files.extend(extra.iter().copied());
    files.into_iter().collect()
}

#[test]
fn a_crate_that_keeps_the_rules_has_no_violation() {
    assert_eq!(seeded_violations(CLEAN), Vec::<String>::new());
    assert_eq!(
        arrows(CLEAN),
        [
            "high::a → high::b",
            "high::a → low",
            "high::a → mid",
            "mid → low",
            "peer → low",
        ]
    );
}

#[test]
fn a_back_edge_across_units_fails() {
    let files = with(&[(
        "low.rs",
        "pub struct Low;\nfn up() { crate::high::b::helper(); }",
    )]);
    assert_eq!(
        seeded_violations(&files),
        ["seed: low → high::b: low (rank 0) imports high (rank 2); arrows point down only"]
    );
}

#[test]
fn an_edge_between_equal_ranks_fails() {
    let files = with(&[(
        "peer.rs",
        "use crate::mid::mid;\npub fn peer() { mid(crate::low::Low) }",
    )]);
    assert_eq!(
        seeded_violations(&files),
        ["seed: peer → mid: peer and mid share rank 1; units of one rank do not import each other"]
    );
}

#[test]
fn a_circle_between_sibling_files_fails() {
    let files = with(&[("high/b.rs", "pub fn helper() { super::a::run(); }")]);
    assert_eq!(
        seeded_violations(&files),
        ["seed: circle high::a → high::b → high::a"]
    );
}

#[test]
fn a_circle_between_a_child_and_its_mod_rs_fails() {
    let files = with(&[
        (
            "high/mod.rs",
            "mod a; mod b;\npub use a::run;\npub struct Shared;\nfn go() { b::helper() }",
        ),
        ("high/b.rs", "pub fn helper() { let _ = super::Shared; }"),
    ]);
    assert_eq!(
        seeded_violations(&files),
        ["seed: circle high → high::b → high"]
    );
}

#[test]
fn an_unranked_module_fails() {
    let files = with(&[("stray.rs", "pub fn stray() {}")]);
    assert_eq!(
        seeded_violations(&files),
        ["seed: unranked module stray: give it a rank in structure.rs"]
    );
}

#[test]
fn an_edge_after_a_test_block_is_seen() {
    let low = "pub struct Low;\n\
               #[cfg(test)]\n\
               mod tests {\n\
                   // a comment's brace }\n\
                   fn braces() { let _ = (\"}\", '}', r#\"}\"#); }\n\
               }\n\
               fn up() { crate::high::b::helper() }";
    assert_eq!(
        seeded_violations(&with(&[("low.rs", low)])),
        ["seed: low → high::b: low (rank 0) imports high (rank 2); arrows point down only"]
    );
}

#[test]
fn an_edge_inside_a_test_item_is_not_seen() {
    let low = "pub struct Low;\n\
               #[cfg(test)]\n\
               mod tests { use super::Low; fn t() { crate::high::run() } }\n\
               #[cfg(test)]\n\
               use crate::mid::mid;\n\
               #[cfg(test)]\n\
               #[mod = \"{\"]\n\
               fn helper() -> crate::peer::Peer { todo!() }\n\
               #[cfg(test)]\n\
               mod test_data;\n\
               // crate::high::run in a comment\n\
               const NOTE: &str = \"crate::high::run\";";
    let files = with(&[
        ("low.rs", low),
        ("low/test_data.rs", "fn uses() { crate::high::run() }"),
    ]);
    assert_eq!(seeded_violations(&files), Vec::<String>::new());
}

#[test]
fn an_edge_through_a_reexport_is_credited_to_the_defining_module() {
    // `crate::high::run` is defined in high/a.rs and only re-exported by high/mod.rs and lib.rs.
    let files = with(&[(
        "peer.rs",
        "pub fn peer() { crate::run(); crate::high::run(); }",
    )]);
    assert!(arrows(&files).contains(&"peer → high::a".to_string()));
    assert!(!arrows(&files)
        .iter()
        .any(|a| a == "peer → high" || a == "peer → crate"));
    // A `pub use` line is no arrow of the module it is in; a path to a module is an arrow to it.
    let files = with(&[(
        "mid.rs",
        "pub use crate::high::run;\nuse crate::low;\nfn f() { low::Low; }",
    )]);
    assert!(!arrows(&files).iter().any(|a| a.starts_with("mid → high")));
    assert!(arrows(&files).contains(&"mid → low".to_string()));
}

#[test]
fn use_groups_nest_and_every_kind_of_path_is_read() {
    let files = [
        ("lib.rs", "mod a; mod b; mod c;"),
        ("a/mod.rs", "mod x; mod y;\nuse self::x::X;\nfn f() { y::Y; }"),
        ("a/x.rs", "pub struct X;"),
        ("a/y.rs", "pub struct Y;"),
        (
            "b.rs",
            "use crate::{a::{x::{self, X}, y::Y as Why}, c::*};\nuse std::fmt;\nfn g() { kw_crate::c::C; }",
        ),
        ("c.rs", "pub struct C;\nfn h() { super::super::nothing(); }"),
    ];
    assert_eq!(
        arrows(&files),
        ["a → a::x", "a → a::y", "b → a::x", "b → a::y", "b → c"]
    );
}

#[test]
fn a_report_lists_every_violation_sorted() {
    let files = with(&[
        ("stray.rs", "pub fn stray() {}"),
        (
            "low.rs",
            "pub struct Low;\nfn up() { crate::high::b::helper(); }",
        ),
        ("peer.rs", "pub fn peer() { crate::high::b::helper(); }"),
    ]);
    let found = seeded_violations(&files);
    assert_eq!(found.len(), 3, "{found:#?}");
    let mut sorted = found.clone();
    sorted.sort();
    assert_eq!(found, sorted);
}
