//! The workspace's shape, checked: every arrow between modules points one way, so a maintainer
//! can read any module knowing only what lies below it.
//!
//! Between kw's layers the compiler holds the order: each layer is a crate (kw-base, kw-go,
//! kw-events, kw-client, kw-watcher, kw-wait, kw-output, then kw), and Cargo refuses an arrow
//! from one up into another. What is enforced here, inside every crate of the workspace:
//! - **Ranks.** Each top-level unit (a folder or a top-level `.rs` file under `src/`) has a rank
//!   in its crate's table below; the crate root (`lib.rs`) is above them all, and `main.rs` (a
//!   crate of its own that names the library `kw::`) above the root. An arrow between two units
//!   points strictly down: to a lower rank, never to an equal or a higher one. A unit missing
//!   from the table fails, so a new one gets its place on purpose.
//! - **Ranks inside folders.** The same, between the rooms of a ranked folder (its files, its
//!   subfolders, and its `mod.rs` as `mod`): `output/` and most others, see `KW_FOLDER_RANKS`
//!   and `KW_SIM_FOLDER_RANKS`.
//! - **No circle at file level.** Every module file is a node (`a.rs` and `a/mod.rs` are module
//!   `a`); no chain of arrows comes back to where it started, inside a folder too (a child that
//!   uses an item of its `mod.rs` while the `mod.rs` uses the child is a circle).
//! - **Other crates of the workspace** are named only by the units allowed to (the simulator
//!   only by `demo` and `main`): any mention of the crate's name counts, an alias included.
//! - **A type's methods live with the type.** An inherent `impl T` in a file that does not
//!   define `T` fails (but for a short list of known splits): its methods are called as
//!   `value.method()`, arrows no path shows, so a split type can call itself round in a circle
//!   this scan would never see.
//!
//! An arrow A → B is A's product code naming an item defined in module B: through `crate::`,
//! `super::` (any depth, counted from the inline `mod x { .. }` it is written in), `self::` or a
//! child module's name, `use` groups included. A `pub use` is an arrow of the module it is in;
//! others naming the re-exported name are credited through it to the module that defines it. A
//! path to a module itself is an arrow to that module. `mod x;` is no arrow. Comments and
//! literals are blanked first, but for a path in an attribute's string (`#[serde(with =
//! "crate::x::f")]`), which is one; `#[path]` fails, as it would move a module's file away
//! from where this scan reads it. What `#[cfg(test)]` is attached to is dropped, and only
//! that: an item (a `mod tests { .. }`, a `use`, a `fn`, a `mod tests;` file) whole, a field,
//! variant, match arm or statement up to its `,` or `;`. The product code after it counts.
//!
//! Sources are read as text, with a small lexer rather than a parser: fast, and enough for the
//! paths that name modules. All violations are reported at once, sorted, one per line. Each
//! rule, and each form of arrow a text scan could miss, is shown a seeded crate below that
//! breaks it (issue 46 found five forms the first version missed).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

/// A module's path inside its crate: `[]` is the crate root, `["config", "settings"]` is
/// crates/kw-client/src/config/settings.rs.
type Module = Vec<String>;

/// Module → its source text.
type Tree = BTreeMap<Module, String>;

/// Module → the modules its product code names items of.
type Graph = BTreeMap<Module, BTreeSet<Module>>;

/// A unit's rank: it may import only units of a lower rank.
type Ranks = &'static [(&'static str, u32)];

/// Folders ranked inside, as a crate's table ranks its units: each room of the folder (a file,
/// a subfolder, and `mod` for its own mod.rs) imports only rooms of a lower rank.
type FolderRanks = &'static [(&'static str, Ranks)];

/// The other crates of the workspace a crate may name, and which of its units may (`*`: any;
/// `main` is its binary, `crate` its root).
type Uses = &'static [(&'static str, &'static [&'static str])];

/// Inherent `impl`s written away from the file that defines their type, known and kept for
/// now: (the impl's module, the type, why). Any other fails, and so does an entry that no
/// longer matches, so the list only shrinks.
type SplitImpls = &'static [(&'static str, &'static str, &'static str)];

/// Modules of a crate that may hold a process-wide static (`static`, `thread_local!`), with why:
/// (the module, why). `None` for the crates where statics are at home (the plumbing).
type Statics = Option<&'static [(&'static str, &'static str)]>;

/// What is checked of one crate.
struct Rules {
    /// Its name in Cargo.toml.
    name: &'static str,
    /// Its sources, relative to the workspace root.
    src: &'static str,
    ranks: Ranks,
    folders: FolderRanks,
    uses: Uses,
    split_impls: SplitImpls,
    statics: Statics,
}

// The layers are crates, in the order data flows (kw-base at the bottom, then kw-go, kw-events,
// kw-client, kw-watcher, kw-wait, kw-output, and kw): Cargo refuses an arrow from one up into
// another, so the tables below rank only the units inside each crate.

/// The plumbing: the leaves, then the diagnostics worded over the secrets they cut out, then
/// the notices, cleaned as they are.
const KW_BASE_RANKS: Ranks = &[
    ("mutex", 0),
    ("spelling", 0),
    ("private_file", 0),
    ("permits", 0),
    ("parking", 0),
    ("secrets", 1),
    ("log", 2),
    ("notices", 3),
];

/// Go's formats, then the engines that print with them.
const KW_GO_RANKS: Ranks = &[("goformat", 0), ("jsonpath", 1), ("gotemplate", 1)];

/// The decoder and the readiness rules, then the event, which carries a judgement.
const KW_EVENTS_RANKS: Ranks = &[("decode", 0), ("readiness", 0), ("events", 1)];

/// The settings, the HTTP client they make, then discovery over the client.
const KW_CLIENT_RANKS: Ranks = &[("config", 0), ("client", 1), ("discovery", 2)];

/// The command over the layers: the command line (with kubectl's help pages), the plan made
/// from it, what words the ending, the runner, and the commands beside `get`.
const KW_RANKS: Ranks = &[
    ("cli", 0),
    ("plan", 1),
    ("passthrough", 1),
    ("report", 2),
    ("run", 3),
    ("demo", 4),
    ("version", 4),
    ("completion", 4),
];

/// Inside kw's folders, lowest first; `mod` is the folder's mod.rs. Each order is the code's
/// own when it was written down (a room's rank: the longest chain of arrows below it), so a
/// new arrow that climbs, or joins two rooms of one rank, is a choice made here on purpose.
/// Every folder of kw is ranked (the last, client, decode, watcher and private_file, in issue 46).
const KW_FOLDER_RANKS: FolderRanks = &[
    // The error, each platform's way of keeping a file private, then what picks one.
    (
        "private_file",
        &[("error", 0), ("portable", 1), ("unix", 1), ("mod", 2)],
    ),
    // A job's turns, the pool that runs them, the poller that waits for parked jobs' sockets
    // (handing them to the pool through a callback), then what ties the two.
    (
        "parking",
        &[("job", 0), ("pool", 1), ("poller", 1), ("mod", 2)],
    ),
    // Leaves (escaping, the terminal, the sink adapters), the printers, then what draws or
    // writes what printers make.
    (
        "output",
        &[
            ("escape", 0),
            ("mod", 0),
            ("sinks", 0),
            ("terminal", 0),
            ("printer", 1),
            ("live", 2),
            ("writer", 2),
            // What a signal does to the live view.
            ("signals", 3),
        ],
    ),
    // The building blocks of kubectl's formats, the options they are told, then the formats
    // from the simplest to those made of others (yaml of json, columns of templates).
    (
        "output::printer",
        &[
            ("cell", 0),
            ("changes", 0),
            ("contract", 0),
            ("diff_lines", 0),
            ("fallback", 0),
            ("format", 0),
            ("go_sort", 0),
            ("reencode", 0),
            ("sort_keys", 0),
            ("style", 0),
            ("tabwriter", 0),
            ("timestamp", 0),
            ("condition_met", 1),
            ("filter", 1),
            ("name", 1),
            ("rollout_status", 1),
            ("sorted_list", 1),
            ("options", 2),
            ("extras", 3),
            ("table", 3),
            ("json", 4),
            ("jsonl", 4),
            ("template", 5),
            ("yaml", 5),
            ("columns", 6),
            ("go_template", 6),
            ("mod", 7),
        ],
    ),
    // A row's cells, kept moving and drawn, then the board (the judge's word on it comes from wait).
    (
        "output::live",
        &[
            ("cells", 0),
            ("clock", 1),
            ("screen", 1),
            ("board", 2),
            ("mod", 3),
        ],
    ),
    // Where a connection's parts are named (endpoint), the files and environment read, then
    // what is made of them: credentials, the contexts, the connection, the settings over all.
    (
        "config",
        &[
            ("endpoint", 0),
            ("environment", 0),
            ("flags", 0),
            ("material", 0),
            ("mod", 0),
            ("kubeconfig", 1),
            ("pem", 1),
            ("proxy", 1),
            ("auth", 2),
            ("contexts", 2),
            ("in_cluster", 2),
            ("connection", 3),
            ("settings", 4),
        ],
    ),
    // Its errors, exec plugins, the credentials they make, then how a user's entry is read.
    (
        "config::auth",
        &[("error", 0), ("exec", 1), ("mod", 2), ("config", 3)],
    ),
    // Go's pieces (durations, floats' verbs, quoting, JSON), its fmt over JSON, then YAML over
    // both.
    (
        "goformat",
        &[
            ("duration", 0),
            ("float", 0),
            ("json", 0),
            ("mod", 0),
            ("quote", 0),
            ("fmt", 1),
            ("yaml", 2),
        ],
    ),
    // The flags of each verb, pflag's booleans and kubectl's help pages, the verbs over them,
    // then what reads the command (its help, an optional value after a space).
    (
        "cli",
        &[
            ("demo", 0),
            ("kubectl_help", 0),
            ("pflag", 0),
            ("rollout", 0),
            ("wait", 0),
            ("get", 1),
            ("verbs", 2),
            ("help", 3),
            ("spaced", 3),
            ("mod", 4),
        ],
    ),
    // Leaves (backoff, the server's clock, what a connection holds above its socket, the
    // CONNECT tunnel), the sockets and TLS that count input in a probe, what a run's clients
    // share (TLS configurations), then the client.
    (
        "client",
        &[
            ("backoff", 0),
            ("clock", 0),
            ("probe", 0),
            ("tunnel", 0),
            ("socket", 1),
            ("tls", 1),
            ("shared", 2),
            ("mod", 3),
        ],
    ),
    // The line's words and candidates, what can be typed, what is asked, the cluster's
    // answers, then the two entry points.
    (
        "completion",
        &[
            ("candidate", 0),
            ("words", 0),
            ("vocabulary", 1),
            ("question", 2),
            ("answers", 3),
            ("handed", 3),
            ("serve", 4),
            ("kubectl", 5),
            ("mod", 5),
        ],
    ),
    // The scanner, nesting depth, the framer and the shapes that need no scanning (list
    // bodies, a whole value), the walk the scanned shapes share, then object heads, Tables
    // (rows carry heads) and watch events (a table event carries a Table).
    (
        "decode",
        &[
            ("depth", 0),
            ("framer", 0),
            ("list", 0),
            ("scan", 0),
            ("value", 0),
            ("fields", 1),
            ("head", 2),
            ("table", 3),
            ("event", 4),
            ("mod", 5),
        ],
    ),
    (
        "discovery",
        &[
            ("error", 0),
            ("names", 0),
            ("cache", 1),
            ("served", 1),
            ("cluster_handle", 2),
            ("mod", 2),
            // A run's discoveries, each read once for contexts that share a server.
            ("once", 3),
        ],
    ),
    (
        "gotemplate",
        &[("parse", 0), ("value", 0), ("exec", 1), ("mod", 2)],
    ),
    (
        "jsonpath",
        &[("error", 0), ("parser", 1), ("eval", 2), ("mod", 3)],
    ),
    (
        "plan",
        &[
            ("deadlines", 0),
            ("error", 0),
            ("manifest", 0),
            ("output", 0),
            ("request", 1),
            ("get", 2),
            ("flags", 3),
            ("rollout", 4),
            ("wait", 4),
            ("mod", 5),
        ],
    ),
    // The answer and the fields read, one file of rules per kind, then kubectl's viewers.
    (
        "readiness",
        &[
            ("fields", 0),
            ("judgement", 0),
            ("batch", 1),
            ("children", 1),
            ("plain", 1),
            ("pod", 1),
            ("workloads", 1),
            ("mod", 2),
            ("status_viewer", 3),
        ],
    ),
    (
        "report",
        &[
            ("exit", 0),
            // A line of a report, its `error: ` written only when it reaches stderr.
            ("line", 0),
            // The one error type, and the exit code each of its errors gives.
            ("error", 1),
            ("outcome", 2),
            ("panic", 2),
            ("mod", 3),
            ("rollout", 4),
            ("wait", 4),
        ],
    ),
    // A member and its watches, what is told on the way, the drive, `get`, then the verbs run
    // through it.
    (
        "run",
        &[
            ("manifest_files", 0),
            ("member", 0),
            ("outputs", 0),
            ("turns", 0),
            ("watches", 0),
            ("cause", 1),
            ("evidence", 2),
            ("drive", 3),
            ("mod", 4),
            ("rollout", 5),
            ("wait", 5),
        ],
    ),
    // The grammar and identities, what the live view reads of the judge; the rules, what is told
    // and the verdict's words; one object's assessment and the children's grace; what the
    // judge found; the judge, its lock, the sink in front of it.
    (
        "wait",
        &[
            ("expr", 0),
            ("identity", 0),
            ("judged", 0),
            ("summary", 0),
            ("rules", 1),
            ("telling", 1),
            ("verdict", 1),
            ("assessment", 2),
            ("grace", 2),
            ("findings", 3),
            ("judge", 4),
            ("shared", 5),
            ("sink", 6),
            ("mod", 7),
        ],
    ),
    // Leaves (what was printed, the selector check, namespace sets, the options, the errors,
    // when to try again), request paths and how things end, the state every room is handed,
    // then the rooms in the order they call: LISTs, streaming lists (which fall back to a
    // LIST), the reading of one stream (which ends a streaming list), and the watcher's cycle
    // of requests over them all. No room calls back up (issue 46 undid the split `impl
    // Watcher` whose rooms called each other through `self.`).
    (
        "watcher",
        &[
            ("error", 0),
            ("known", 0),
            ("left_selector", 0),
            ("namespaces", 0),
            ("options", 0),
            ("pacing", 0),
            ("ends", 1),
            ("request", 1),
            ("namespace_access", 2),
            ("state", 2),
            ("list", 3),
            ("streaming", 4),
            ("stream", 5),
            ("mod", 6),
        ],
    ),
];

/// kw names the wire types and its layers anywhere (they are below every unit), and a layer any
/// other (Cargo lets it link only those below it); the simulator only where kw starts one:
/// `kw demo` and `main` (`kw sim`). An error or a type of the simulator elsewhere would tie a
/// layer of the client to the server it is tested against.
const KW_USES: Uses = &[
    ("kw_wire", &["*"]),
    ("kw_base", &["*"]),
    ("kw_go", &["*"]),
    ("kw_events", &["*"]),
    ("kw_client", &["*"]),
    ("kw_watcher", &["*"]),
    ("kw_wait", &["*"]),
    ("kw_output", &["*"]),
    ("kw_sim", &["demo", MAIN]),
];

/// kw's statics, each with why (every other module passes its state down as a value).
const KW_STATICS: &[(&str, &str)] = &[(
    "demo",
    "the Ctrl-C handler removes the demo's directory (with the sim's tokens)",
)];

/// Known splits, each to be undone where its type lives (none left since issue 46).
const KW_SPLIT_IMPLS: SplitImpls = &[];

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

/// Inside the simulator's folders, lowest first, as `KW_FOLDER_RANKS`. Not ranked: `config`
/// (its mod.rs alone). `api` had a `flood/` room that `shared` both held the data of and was
/// read by; the flood's bytes are now `flood_data`, below `shared`, and its serving `flood`,
/// above it.
const KW_SIM_FOLDER_RANKS: FolderRanks = &[
    // HTTP/1.1's codec, then the bodies it compresses.
    ("http", &[("mod", 0), ("compress", 1)]),
    // The cluster's data (types, objects, logs, tables), the store of it, then what changes it.
    (
        "world",
        &[
            ("catalog", 0),
            ("container_logs", 0),
            ("mod", 0),
            ("objects", 0),
            ("printers", 0),
            ("churn", 1),
            ("store", 1),
            ("controllers", 2),
            ("rollout", 2),
        ],
    ),
    // Object ids, each kind's shapes, workloads made of Pods, then the catalogue of them all.
    (
        "world::objects",
        &[
            ("ids", 0),
            ("cluster", 1),
            ("config", 1),
            ("events", 1),
            ("pods", 1),
            ("services", 1),
            ("widgets", 1),
            ("workloads", 2),
            ("mod", 3),
        ],
    ),
    // Certificates and the pieces a server is started with, a connection, the handle over
    // them, then the control ops a handle answers.
    (
        "server",
        &[
            ("certs", 0),
            ("drivers", 0),
            ("kubeconfig", 0),
            ("listener", 0),
            ("mod", 0),
            ("connection", 1),
            ("handle", 2),
            ("control", 3),
        ],
    ),
    // Each request's pieces: who asks, the list options and selectors, the Tables, the flood's
    // bytes, the state all share, the watch stream, the reply, then each verb's answer, and
    // the router over them all.
    (
        "api",
        &[
            ("auth", 0),
            ("defaults", 0),
            ("discovery", 0),
            ("mod", 0),
            ("patch", 0),
            ("selector", 0),
            ("status", 0),
            ("paging", 1),
            ("query", 1),
            ("table", 2),
            ("flood_data", 3),
            ("shared", 4),
            ("watch", 5),
            ("reply", 6),
            ("flood", 7),
            ("openapi", 7),
            ("pod_logs", 7),
            ("write", 7),
            ("router", 8),
        ],
    ),
    // A patch's three formats over the error they share; `mod` picks one.
    (
        "api::patch",
        &[
            ("error", 0),
            ("merge", 0),
            ("json_patch", 1),
            ("strategic", 1),
            ("mod", 2),
        ],
    ),
];

/// One of kw's layer crates: its units ranked by `ranks`, its folders by kw's one table, the
/// crates it names as kw's own (Cargo decides which it may link: a lower layer only, never the
/// simulator), its statics where `statics` lets them be.
const fn layer(name: &'static str, src: &'static str, ranks: Ranks, statics: Statics) -> Rules {
    Rules {
        name,
        src,
        ranks,
        folders: KW_FOLDER_RANKS,
        uses: KW_USES,
        split_impls: &[],
        statics,
    }
}

/// Every crate of the workspace.
const CRATES: &[Rules] = &[
    layer("kw-base", "crates/kw-base/src", KW_BASE_RANKS, None),
    layer("kw-go", "crates/kw-go/src", KW_GO_RANKS, Some(&[])),
    layer(
        "kw-events",
        "crates/kw-events/src",
        KW_EVENTS_RANKS,
        Some(&[(
            "events",
            "next_column_generation: unique in the process, as several watchers share one printer",
        )]),
    ),
    layer(
        "kw-client",
        "crates/kw-client/src",
        KW_CLIENT_RANKS,
        Some(&[
            (
                "discovery::cache",
                "a warning said once per run, however many clusters open the cache",
            ),
            (
                "client::probe",
                "ureq's connector chain hands no state from the socket to TLS but the thread",
            ),
        ]),
    ),
    layer(
        "kw-watcher",
        "crates/kw-watcher/src",
        &[("watcher", 0)],
        Some(&[]),
    ),
    layer("kw-wait", "crates/kw-wait/src", &[("wait", 0)], Some(&[])),
    layer(
        "kw-output",
        "crates/kw-output/src",
        &[("output", 0)],
        Some(&[
            (
                "output::live::screen",
                "the terminal is the process's: a signal handler puts it back as it was",
            ),
            (
                "output::signals",
                "the self-pipe a signal handler writes to, the one thing it may touch",
            ),
            (
                "output::printer::contract",
                "an immutable null to lend where an object does not decode",
            ),
        ]),
    ),
    Rules {
        name: "kw",
        src: "src",
        ranks: KW_RANKS,
        folders: KW_FOLDER_RANKS,
        uses: KW_USES,
        split_impls: KW_SPLIT_IMPLS,
        statics: Some(KW_STATICS),
    },
    Rules {
        name: "kw-sim",
        src: "crates/kw-sim/src",
        ranks: KW_SIM_RANKS,
        folders: KW_SIM_FOLDER_RANKS,
        uses: &[("kw_wire", &["*"])],
        split_impls: &[],
        statics: None,
    },
    Rules {
        name: "kw-wire",
        src: "crates/kw-wire/src",
        ranks: KW_WIRE_RANKS,
        folders: &[],
        uses: &[],
        split_impls: &[],
        statics: Some(&[]),
    },
];

/// The crates' names as code writes them (`kw_sim`).
fn workspace() -> Vec<String> {
    CRATES.iter().map(|c| c.name.replace('-', "_")).collect()
}

#[test]
fn every_arrow_in_the_workspace_points_down_and_none_closes_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = workspace();
    let workspace: Vec<&str> = workspace.iter().map(String::as_str).collect();
    let mut found = Vec::new();
    for rules in CRATES {
        found.extend(violations(
            rules,
            &read_tree(&root.join(rules.src)),
            &workspace,
        ));
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
    let mut checked: Vec<String> = CRATES.iter().map(|c| c.src.to_string()).collect();
    checked.sort();
    assert_eq!(checked, members, "a crate is missing from CRATES");
    // Each of kw's ranked folders is checked by the one crate that holds it.
    for (folder, _) in KW_FOLDER_RANKS {
        let holders: Vec<&str> = CRATES
            .iter()
            .filter(|rules| rules.folders == KW_FOLDER_RANKS && in_crate(folder, rules))
            .map(|rules| rules.name)
            .collect();
        assert_eq!(holders.len(), 1, "folder {folder} is held by {holders:?}");
    }
    // A reader that finds nothing would pass every rule: the client's graph must be its real one.
    let kw = graph(&read_tree(&root.join("src")), "kw");
    let arrows: usize = kw.values().map(BTreeSet::len).sum();
    assert!(
        kw.len() > 40 && arrows > 120,
        "{} modules, {arrows} arrows",
        kw.len()
    );
    // main.rs is read, and reaches the library through `kw::`.
    let main = kw.get(&vec![MAIN.to_string()]).expect("main.rs is read");
    assert!(main.contains(&vec!["report".to_string()]), "{main:?}");
    // The crate-name rule sees the simulator where kw does start it, and only there.
    let code = Crate::read(&read_tree(&root.join("src")), "kw").code;
    assert_eq!(
        crate_violations(&code, &["kw_sim"], &[]),
        [
            "demo → kw_sim: this crate does not use kw_sim",
            "main → kw_sim: this crate does not use kw_sim",
        ]
    );
}

/// What only the edges of a run may do (read files, stdin, the environment, the terminal):
/// the plan is decided from values its caller read (issue 46).
const PLAN_IO: &[&str] = &[
    "std::fs",
    "fs::read",
    "File::open",
    "stdin(",
    "env::var",
    "stdout_width",
    "stdout_is_terminal",
];

/// The I/O calls in the product code of the modules under `folder`.
fn io_calls(tree: &Tree, folder: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (module, text) in tree {
        if module.first().map(String::as_str) != Some(folder) {
            continue;
        }
        let Some((code, _)) = product_code(text) else {
            continue;
        };
        for call in PLAN_IO {
            if code.contains(call) {
                found.push(format!("{}: {call}", shown(module)));
            }
        }
    }
    found
}

#[test]
fn the_plan_is_decided_without_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let found = io_calls(&read_tree(&root.join("src")), "plan");
    assert!(found.is_empty(), "the plan does I/O:\n{}", found.join("\n"));
    // The check sees a read in product code, and leaves a test's alone.
    let seeded = seeded(&[
        (
            "plan/mod.rs",
            "pub fn f() { let _ = std::fs::read_to_string(\"x\"); }",
        ),
        (
            "plan/wait.rs",
            "#[cfg(test)]\nmod tests { fn g() { std::io::stdin(); } }",
        ),
        (
            "output/mod.rs",
            "pub fn h() { std::env::var(\"COLUMNS\"); }",
        ),
    ]);
    assert_eq!(
        io_calls(&seeded, "plan"),
        ["plan: std::fs", "plan: fs::read"]
    );
}

// ---- Reading a crate ----

/// The sources under `src`, by module. `main.rs` beside a `lib.rs` is a crate of its own that
/// reaches the library by its name: it is read as the module `main`, above the library's root.
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
    if !tree.contains_key(&Vec::new()) {
        if let Some(main) = tree.remove(&vec![MAIN.to_string()]) {
            tree.insert(Vec::new(), main);
        }
    }
    tree
}

/// The binary's module: `main.rs` beside a `lib.rs`.
const MAIN: &str = "main";

/// `a.rs` and `a/mod.rs` are `[a]`, `a/b.rs` is `[a, b]`; `lib.rs` is `[]`, `main.rs` is `[main]`
/// (the root itself when there is no `lib.rs`, see `read_tree`).
fn module_path(relative: &str) -> Module {
    let mut path: Module = relative
        .trim_end_matches(".rs")
        .split(['/', '\\'])
        .map(String::from)
        .collect();
    if path.last().is_some_and(|last| last == "mod") {
        path.pop();
    }
    if path.len() == 1 && path[0] == "lib" {
        path.clear();
    }
    path
}

// ---- Product code: comments and literals blanked, test items dropped ----

/// The text with comments turned into a space and every string, raw string and char literal
/// into an empty one, so that nothing inside them reads as code (a brace, a path). A string in
/// an attribute that is a path (`#[serde(with = "crate::x")]`) names that path: it is kept,
/// after the empty literal.
fn blank_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    // How many `[` are open inside the attribute being read (0: not in one).
    let mut attribute = 0;
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
            match rest[0] {
                '[' if attribute > 0 || out.ends_with('#') || out.ends_with("#!") => attribute += 1,
                ']' if attribute > 0 => attribute -= 1,
                _ => {}
            }
            out.push(rest[0]);
            at += 1;
        } else {
            out.push_str(blank);
            let literal: String = rest[..skipped].iter().collect();
            let inside = literal.trim_matches('"');
            if attribute > 0
                && inside.contains("::")
                && inside.chars().all(|c| is_ident(c) || c == ':')
            {
                out.push_str(&format!(" {inside} "));
            }
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

/// Product code (blanked) without what `#[cfg(test)]` is attached to, and the names of the
/// `mod x;` files that are test-only. `None` if the whole file is (`#![cfg(test)]` at its top:
/// the same attribute inside an inline `mod { .. }` drops only that module).
fn product_code(text: &str) -> Option<(String, Vec<String>)> {
    let mut code = blank_comments_and_literals(text);
    if let Some(at) = code.find("#![cfg(test)]") {
        if depth_at(&code, at) == 0 {
            return None;
        }
    }
    let mut test_files = Vec::new();
    while let Some(start) = TEST_ONLY.iter().filter_map(|a| code.find(a)).min() {
        let inner = code[start..].starts_with("#!");
        let attached = start + bracket_end(&code[start + 1..], '[', ']') + 1;
        let attached = attached + skip_attributes(&code[attached..]);
        let (len, test_file) = if inner {
            // `#![cfg(test)]` inside `mod x { .. }`: the rest of that module.
            (enclosing_end(&code[attached..]), None)
        } else {
            attached_len(&code[attached..])
        };
        test_files.extend(test_file);
        code.replace_range(start..attached + len, " ");
    }
    Some((code, test_files))
}

/// How many `{` are open at `at`.
fn depth_at(code: &str, at: usize) -> i32 {
    code[..at].chars().fold(0, |depth, c| match c {
        '{' => depth + 1,
        '}' => depth - 1,
        _ => depth,
    })
}

/// Where the group `text` is inside closes (the closer itself excluded).
fn enclosing_end(text: &str) -> usize {
    let mut depth = 0;
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return at,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    text.len()
}

/// The words that start an item (after a visibility), where `#[cfg(test)]` drops a whole item.
const ITEM_KEYWORDS: &[&str] = &[
    "fn",
    "mod",
    "use",
    "impl",
    "struct",
    "enum",
    "union",
    "trait",
    "type",
    "const",
    "static",
    "macro_rules",
    "extern",
    "async",
    "unsafe",
];

/// The length of what an outer `#[cfg(test)]` is attached to at the start of `text`: an item
/// (see `item_len`), or anything else (a struct field, an enum variant, a match arm, a
/// statement) up to its `,` or `;`, through its first `{ .. }`, or to the bracket that closes
/// around it, whichever comes first. When unsure it ends early: code wrongly kept is seen and
/// fails loudly, code wrongly dropped would hide an arrow.
fn attached_len(text: &str) -> (usize, Option<String>) {
    let mut words = text
        .split(|c: char| !is_ident(c))
        .filter(|w| !w.is_empty())
        .skip_while(|w| matches!(*w, "pub" | "crate" | "super" | "self" | "in"));
    if text.trim_start().starts_with(is_ident)
        && words.next().is_some_and(|w| ITEM_KEYWORDS.contains(&w))
    {
        return item_len(text);
    }
    let (mut depth, mut angles) = (0i32, 0i32);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let after_dash_or_eq = i > 0 && matches!(chars[i - 1].1, '-' | '=');
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return (at, None),
            '}' if depth == 1 => return (at + 1, None),
            ')' | ']' | '}' => depth -= 1,
            '<' if depth == 0 => angles += 1,
            '>' if depth == 0 && !after_dash_or_eq => angles = (angles - 1).max(0),
            ',' | ';' if depth == 0 && angles == 0 => return (at + 1, None),
            _ => {}
        }
    }
    (text.len(), None)
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
            '{' if parens == 0 && !is_use => return (i + bracket_end(&text[i..], '{', '}'), None),
            '(' | '[' | '{' => parens += 1,
            // A bracket that closes around the item: it ended without `;` or body.
            ')' | ']' | '}' if parens == 0 => return (i, None),
            ')' | ']' | '}' => parens -= 1,
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

/// The trees of the `pub use` statements of `code` (any visibility).
fn reexport_statements(code: &str) -> Vec<&str> {
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
        found.push(&code[tree_start..end]);
    }
    found
}

/// Every path in `code` that starts with `crate`, `super`, `self` or one of `heads` (the
/// module's children, and in `main.rs` the library's name), as a `use` tree (a plain path is a
/// tree of one), with where it starts.
fn paths_in(code: &str, heads: &BTreeSet<&str>) -> Vec<(usize, UsePath)> {
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
        let is_path_head = matches!(word, "crate" | "super" | "self") || heads.contains(word);
        if is_path_head && code[at + len..].trim_start().starts_with("::") {
            let (found, read) = PathReader::read(&code[at..]);
            paths.extend(found.into_iter().map(|path| (at, path)));
            at += read.max(len);
        } else {
            at += len;
        }
    }
    paths
}

/// The inline modules of `code` (`mod x { .. }`), as (name, where its body starts, where it
/// ends), outer ones first.
fn inline_modules(code: &str) -> Vec<(String, usize, usize)> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("mod") {
        let rest = &code[at + 3..];
        if code[..at].ends_with(is_ident) || !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let name = rest.trim_start();
        let len = name.find(|c: char| !is_ident(c)).unwrap_or(name.len());
        if len == 0 || !name[len..].trim_start().starts_with('{') {
            continue;
        }
        let body = code.len() - name[len..].trim_start().len();
        let end = body + bracket_end(&code[body..], '{', '}');
        found.push((name[..len].to_string(), body, end));
    }
    found
}

/// The module a path at `at` in `file`'s code is written in: the file's module, and the
/// inline modules around `at`.
fn module_at(file: &Module, inline: &[(String, usize, usize)], at: usize) -> Module {
    let mut here = file.clone();
    here.extend(
        inline
            .iter()
            .filter(|(_, body, end)| *body < at && at < *end)
            .map(|(name, _, _)| name.clone()),
    );
    here
}

// ---- The graph ----

/// What the graph is built from: each module's product code and the names it re-exports.
struct Crate {
    /// Product code of each module that is not test-only. A `pub use` stays in: it is an arrow
    /// of the module it is in (an upward re-export is an upward arrow), as well as a name that
    /// others' paths are credited through to where it is defined.
    code: BTreeMap<Module, String>,
    /// Module → re-exported name → the path it stands for, from that module.
    reexports: BTreeMap<Module, BTreeMap<String, Vec<String>>>,
    /// How `main.rs` names the library.
    library: String,
}

impl Crate {
    fn read(tree: &Tree, library: &str) -> Crate {
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
        for (module, product) in &code {
            let mut names = BTreeMap::new();
            for tree in reexport_statements(product) {
                for path in PathReader::read(tree).0 {
                    if let Some(name) = exported_name(&path) {
                        names.insert(name, path.segments);
                    }
                }
            }
            reexports.insert(module.clone(), names);
        }
        for (module, name) in exported_macros(&code) {
            let path = [vec!["crate".to_string()], module, vec![name.clone()]].concat();
            reexports.entry(Vec::new()).or_default().insert(name, path);
        }
        Crate {
            code,
            reexports,
            library: library.to_string(),
        }
    }

    fn children(&self, module: &Module) -> BTreeSet<&str> {
        self.code
            .keys()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
            .map(|m| m[module.len()].as_str())
            .collect()
    }

    /// The file whose module `module` is or is inside (an inline `mod x { .. }`'s file).
    fn file_of(&self, mut module: Module) -> Module {
        while !module.is_empty() && !self.code.contains_key(&module) {
            module.pop();
        }
        module
    }

    /// The module a path in `here` (a file's module, or an inline module in it) names an item
    /// of; `None` outside the crate.
    fn resolve(&self, here: &Module, segments: &[String], hops: usize) -> Option<Module> {
        let in_main = here.first().is_some_and(|m| m == MAIN);
        let (mut module, rest) = match segments.first().map(String::as_str) {
            // `main.rs` is a crate of its own: `crate::` is itself, the library is `kw::`.
            Some("crate") if in_main => (vec![MAIN.to_string()], &segments[1..]),
            Some(name) if in_main && name == self.library => (Vec::new(), &segments[1..]),
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

/// Module → the modules it names items of, itself left out. `library` is the crate's name as
/// its `main.rs` writes it (`kw::`).
fn graph(tree: &Tree, library: &str) -> Graph {
    let krate = Crate::read(tree, library);
    let mut graph = Graph::new();
    for (module, code) in &krate.code {
        let mut heads = krate.children(module);
        if *module == [MAIN] {
            heads.insert(library);
        }
        let inline = inline_modules(code);
        let targets = paths_in(code, &heads)
            .into_iter()
            .filter_map(|(at, path)| {
                krate.resolve(&module_at(module, &inline, at), &path.segments, 0)
            })
            .map(|target| krate.file_of(target))
            .filter(|target| target != module)
            .collect();
        graph.insert(module.clone(), targets);
    }
    graph
}

// ---- The rules ----

/// Every violation in the crate `rules` describes, read as `tree`, sorted, one line each.
/// `workspace` names every crate of the workspace, as code writes them (`kw_sim`).
fn violations(rules: &Rules, tree: &Tree, workspace: &[&str]) -> Vec<String> {
    let library = rules.name.replace('-', "_");
    let graph = graph(tree, &library);
    let code = Crate::read(tree, &library).code;
    let mut found = rank_violations(&graph, rules.ranks);
    for (folder, ranks) in rules
        .folders
        .iter()
        .filter(|(folder, _)| in_crate(folder, rules))
    {
        found.extend(room_violations(&graph, folder, ranks));
    }
    found.extend(circles(&graph));
    let others: Vec<&str> = workspace
        .iter()
        .copied()
        .filter(|other| *other != library)
        .collect();
    found.extend(crate_violations(&code, &others, rules.uses));
    found.extend(split_impl_violations(&code, rules.split_impls));
    found.extend(test_only_violations(tree, &code));
    if let Some(allowed) = rules.statics {
        found.extend(static_violations(&code, allowed));
    }
    for module in code.keys().filter(|m| names_path_attribute(&code[*m])) {
        found.push(format!(
            "#[path] in {}: a module lives where the tree says, as this scan reads it",
            shown(module)
        ));
    }
    let mut found: Vec<String> = found
        .into_iter()
        .map(|v| format!("{}: {v}", rules.name))
        .collect();
    found.sort();
    found.dedup();
    found
}

/// `#[cfg(test)]` on anything but a module: product code holds no test-only statement, field
/// or function (issue 54). A module may be test-only (`mod tests`, test data, a seam the tests
/// swap).
fn test_only_violations(tree: &Tree, code: &BTreeMap<Module, String>) -> Vec<String> {
    let mut found = Vec::new();
    for module in code.keys() {
        let text = blank_comments_and_literals(&tree[module]);
        for attribute in TEST_ONLY {
            let mut from = 0;
            while let Some(at) = text[from..].find(attribute) {
                let start = from + at;
                let attached = start + bracket_end(&text[start + 1..], '[', ']') + 1;
                let item = text[attached + skip_attributes(&text[attached..])..].trim_start();
                let item = match item.strip_prefix("pub") {
                    Some(rest) if rest.starts_with('(') => &rest[bracket_end(rest, '(', ')')..],
                    Some(rest) => rest,
                    None => item,
                };
                if !item.trim_start().starts_with("mod ") {
                    found.push(format!(
                        "{}: {attribute} on something other than a module: test-only code lives in a test module",
                        shown(module)
                    ));
                }
                from = attached;
            }
        }
    }
    found
}

/// Process-wide statics (`static NAME`, `thread_local!`) outside the modules `allowed` names:
/// state is passed down as a value, and the plumbing holds the few that are process-wide.
fn static_violations(code: &BTreeMap<Module, String>, allowed: &[(&str, &str)]) -> Vec<String> {
    let mut found = Vec::new();
    for (module, product) in code {
        let place = shown(module);
        if allowed.iter().any(|(m, _)| *m == place) {
            continue;
        }
        let statics = product.match_indices("static ").filter(|(at, _)| {
            let before = product[..*at].chars().next_back();
            !before.is_some_and(|c| is_ident(c) || c == '\'')
        });
        if statics.count() > 0 || product.contains("thread_local!") {
            found.push(format!(
                "{place}: a process-wide static outside the plumbing: pass it down as a value, or list it with why"
            ));
        }
    }
    for (gone, _) in allowed.iter().filter(|(m, _)| {
        code.get(&m.split("::").map(String::from).collect::<Module>())
            .is_none_or(|product| !product.contains("static "))
    }) {
        found.push(format!(
            "{gone} holds no static any more: take it off the list"
        ));
    }
    found
}

/// Whether `folder` (`output::printer`) is under one of the crate's own units: kw's layers
/// share one table of folders, each crate checking those it holds.
fn in_crate(folder: &str, rules: &Rules) -> bool {
    let unit = folder.split("::").next().unwrap_or(folder);
    rules.ranks.iter().any(|(ranked, _)| *ranked == unit)
}

fn shown(module: &Module) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        module.join("::")
    }
}

/// A module's rank among its crate's units: its unit's, with the crate root above every unit
/// and `main` (a crate of its own, which reaches all of the library) above the root.
fn unit_rank(module: &Module, ranks: Ranks) -> Option<u32> {
    match module.first().map(String::as_str) {
        None => Some(u32::MAX - 1),
        Some(MAIN) if module.len() == 1 => Some(u32::MAX),
        Some(unit) => ranks.iter().find(|(u, _)| *u == unit).map(|(_, r)| *r),
    }
}

fn rank_name(rank: u32) -> String {
    match rank {
        u32::MAX => "main".into(),
        r if r == u32::MAX - 1 => "root".into(),
        r => r.to_string(),
    }
}

/// Units missing from the table (or ranked but gone), and every arrow between two units that
/// does not point strictly down.
fn rank_violations(graph: &Graph, ranks: Ranks) -> Vec<String> {
    let units: BTreeSet<&str> = graph
        .keys()
        .filter(|m| m.as_slice() != [MAIN])
        .filter_map(|m| m.first())
        .map(String::as_str)
        .collect();
    let mut found = Vec::new();
    for unit in units.iter().filter(|u| !ranks.iter().any(|(r, _)| r == *u)) {
        found.push(format!(
            "unranked module {unit}: give it a rank in structure.rs"
        ));
    }
    for (unit, _) in ranks.iter().filter(|(u, _)| !units.contains(u)) {
        found.push(format!(
            "ranked module {unit} is not in the tree: take it out of structure.rs"
        ));
    }
    for (from, targets) in graph {
        for to in targets.iter().filter(|to| to.first() != from.first()) {
            let (Some(high), Some(low)) = (unit_rank(from, ranks), unit_rank(to, ranks)) else {
                continue;
            };
            found.extend(arrow_violation(
                from,
                to,
                (unit_name(from), high),
                (unit_name(to), low),
            ));
        }
    }
    found
}

/// The violation of `from → to` between rooms `a` and `b` of the given ranks, if any.
fn arrow_violation(
    from: &Module,
    to: &Module,
    (a, high): (&str, u32),
    (b, low): (&str, u32),
) -> Option<String> {
    let arrow = format!("{} → {}", shown(from), shown(to));
    if high == low {
        Some(format!(
            "{arrow}: {a} and {b} share rank {}; units of one rank do not import each other",
            rank_name(high)
        ))
    } else if high < low {
        Some(format!(
            "{arrow}: {a} (rank {}) imports {b} (rank {}); arrows point down only",
            rank_name(high),
            rank_name(low)
        ))
    } else {
        None
    }
}

fn unit_name(module: &Module) -> &str {
    module.first().map(String::as_str).unwrap_or("crate")
}

/// Inside the folder `folder` (`output::printer`): its rooms (each file or subfolder, and
/// `mod` for its own mod.rs) missing from `ranks` or ranked but gone, and every arrow between
/// two of its rooms that does not point strictly down.
fn room_violations(graph: &Graph, folder: &str, ranks: Ranks) -> Vec<String> {
    let folder: Module = folder.split("::").map(String::from).collect();
    let room = |module: &Module| -> Option<String> {
        if !module.starts_with(&folder) {
            return None;
        }
        Some(
            module
                .get(folder.len())
                .cloned()
                .unwrap_or_else(|| "mod".into()),
        )
    };
    let rank_of = |room: &str| ranks.iter().find(|(r, _)| *r == room).map(|(_, r)| *r);
    let rooms: BTreeSet<String> = graph.keys().filter_map(&room).collect();
    let place = shown(&folder);
    let mut found = Vec::new();
    if rooms.is_empty() {
        return vec![format!(
            "ranked folder {place} is not in the tree: take it out of structure.rs"
        )];
    }
    for unranked in rooms.iter().filter(|r| rank_of(r).is_none()) {
        found.push(format!(
            "unranked module {unranked} in {place}: give it a rank in structure.rs"
        ));
    }
    for (gone, _) in ranks.iter().filter(|(r, _)| !rooms.contains(*r)) {
        found.push(format!(
            "ranked module {gone} is not in {place}: take it out of structure.rs"
        ));
    }
    for (from, targets) in graph {
        let Some(a) = room(from) else { continue };
        for to in targets {
            let Some(b) = room(to).filter(|b| *b != a) else {
                continue;
            };
            let (Some(high), Some(low)) = (rank_of(&a), rank_of(&b)) else {
                continue;
            };
            found.extend(arrow_violation(from, to, (&a, high), (&b, low)));
        }
    }
    found
}

/// Every module that names another crate of the workspace (`kw_sim::`, `use kw_sim as sim`,
/// `extern crate`) where `uses` does not let its unit: wherever the name is written, so that
/// no alias hides it. A crate the table does not name may be named nowhere.
fn crate_violations(code: &BTreeMap<Module, String>, others: &[&str], uses: Uses) -> Vec<String> {
    let mut found = Vec::new();
    for (module, product) in code {
        for other in others.iter().filter(|other| names_crate(product, other)) {
            let allowed = uses.iter().find(|(name, _)| name == other);
            let unit = unit_name(module);
            match allowed {
                Some((_, units)) if units.contains(&"*") || units.contains(&unit) => {}
                Some((_, units)) => found.push(format!(
                    "{} → {other}: only {} may use {other}",
                    shown(module),
                    units.join(", ")
                )),
                None => found.push(format!(
                    "{} → {other}: this crate does not use {other}",
                    shown(module)
                )),
            }
        }
    }
    found
}

/// Whether `code` has a `#[path = ".."]` attribute, which would put a module's file where the
/// scan does not look for it.
fn names_path_attribute(code: &str) -> bool {
    code.match_indices("#[").any(|(at, _)| {
        let rest = code[at + 2..].trim_start();
        rest.starts_with("path") && rest[4..].trim_start().starts_with('=')
    })
}

/// Whether `code` names the crate `name`: as a path's head (`name::`), or after `use` or
/// `extern crate` (`use name as alias;`). A variable that happens to share the name is not it.
fn names_crate(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(at, _)| {
        let (before, after) = (&code[..at], &code[at + name.len()..]);
        let word_before = before.trim_end();
        let word_before = &word_before[word_before.trim_end_matches(is_ident).len()..];
        !before.ends_with(is_ident)
            && !after.starts_with(is_ident)
            && (after.trim_start().starts_with("::") || matches!(word_before, "use" | "crate"))
    })
}

/// Every inherent `impl T` written in a module that does not define `T`, unless `allowed`
/// names it (and every entry of `allowed` that no longer matches one). Its methods are called
/// as `value.method()`, an arrow no path shows: a type split over files (`impl Watcher` in
/// watcher/list.rs beside watcher/mod.rs) can call back and forth in a circle the graph never
/// sees.
fn split_impl_violations(code: &BTreeMap<Module, String>, allowed: SplitImpls) -> Vec<String> {
    let defined: BTreeMap<&Module, BTreeSet<String>> =
        code.iter().map(|(m, c)| (m, defined_types(c))).collect();
    let mut found = Vec::new();
    let mut matched = BTreeSet::new();
    for (module, product) in code {
        for ty in inherent_impls(product) {
            if defined[module].contains(&ty) {
                continue;
            }
            let place = shown(module);
            if let Some(entry) = allowed.iter().position(|(m, t, _)| *m == place && *t == ty) {
                matched.insert(entry);
                continue;
            }
            let homes: Vec<String> = defined
                .iter()
                .filter(|(_, types)| types.contains(&ty))
                .map(|(m, _)| shown(m))
                .collect();
            found.push(format!(
                "impl {ty} in {place}, away from its type (defined in {}): its method calls are \
                 arrows no path shows; keep a type's methods with the type",
                if homes.is_empty() {
                    "another file".to_string()
                } else {
                    homes.join(", ")
                }
            ));
        }
    }
    for (i, (module, ty, _)) in allowed.iter().enumerate() {
        if !matched.contains(&i) {
            found.push(format!(
                "impl {ty} in {module} is allowed but gone: take it out of structure.rs"
            ));
        }
    }
    found
}

/// The names `code` defines types under: `struct`, `enum`, `union`, `type`, `trait`.
fn defined_types(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for keyword in ["struct", "enum", "union", "type", "trait"] {
        for (at, _) in code.match_indices(keyword) {
            let rest = &code[at + keyword.len()..];
            if code[..at].ends_with(is_ident) || !rest.starts_with(char::is_whitespace) {
                continue;
            }
            let name = rest.trim_start();
            let len = name.find(|c: char| !is_ident(c)).unwrap_or(name.len());
            if len > 0 {
                found.insert(name[..len].to_string());
            }
        }
    }
    found
}

/// The types of the inherent `impl` blocks in `code` (`impl<'a> super::Watcher<'a> { .. }` is
/// `Watcher`); trait impls (`impl X for T`) are left out.
fn inherent_impls(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("impl") {
        let rest = &code[at + 4..];
        if code[..at].ends_with(is_ident) || rest.starts_with(is_ident) {
            continue;
        }
        // An item, not `-> impl Trait` or `x: impl Fn()`: after a `;`, a brace, an attribute's
        // `]`, the start, or `unsafe`.
        let before = code[..at].trim_end();
        let before = before.strip_suffix("unsafe").unwrap_or(before).trim_end();
        if !(before.is_empty() || before.ends_with([';', '{', '}', ']'])) {
            continue;
        }
        let mut header = rest.trim_start();
        if header.starts_with('<') {
            header = &header[angle_end(header)..];
        }
        let header = &header[..header.find('{').unwrap_or(header.len())];
        let header = match header.find("where") {
            Some(w) if !header[..w].ends_with(is_ident) => &header[..w],
            _ => header,
        };
        let words: Vec<&str> = header
            .split(|c: char| !is_ident(c))
            .filter(|w| !w.is_empty())
            .collect();
        if words.contains(&"for") {
            continue;
        }
        // The last segment of the path before its generics: `super::Watcher<'a>` is `Watcher`.
        let path = header.trim_start_matches(['&', ' ', '\n']);
        let path = path.strip_prefix("mut ").unwrap_or(path).trim_start();
        let path = &path[..path.find('<').unwrap_or(path.len())];
        if let Some(name) = path.trim().rsplit("::").next().filter(|n| !n.is_empty()) {
            if name.chars().all(is_ident) {
                found.push(name.to_string());
            }
        }
    }
    found
}

/// The length of the `<..>` group `text` starts with; a `->` inside (`F: Fn() -> T`) is no
/// closer.
fn angle_end(text: &str) -> usize {
    let mut depth = 0;
    let mut previous = ' ';
    for (at, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if previous != '-' => {
                depth -= 1;
                if depth == 0 {
                    return at + 1;
                }
            }
            _ => {}
        }
        previous = c;
    }
    text.len()
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
    for (from, targets) in graph(&seeded(files), "seed") {
        found.extend(
            targets
                .iter()
                .map(|to| format!("{} → {}", shown(&from), shown(to))),
        );
    }
    found
}

/// The seeded crate's rules: four units, the folder `high` ranked inside, the crate
/// `seed_sim` only for `high` and `main` (and `seed_other`, another crate of the seeded
/// workspace, for none), and one split `impl` let through.
const SEEDED: Rules = Rules {
    name: "seed",
    src: "",
    ranks: &[("low", 0), ("mid", 1), ("peer", 1), ("high", 2)],
    folders: &[(
        "high",
        &[("b", 0), ("c", 0), ("a", 1), ("d", 1), ("mod", 2)],
    )],
    uses: &[("seed_sim", &["high", MAIN])],
    split_impls: &[("high::a", "Split", "seeded: one the list lets through")],
    statics: Some(&[]),
};

fn seeded_violations(files: &[(&str, &str)]) -> Vec<String> {
    violations(&SEEDED, &seeded(files), &["seed", "seed_sim", "seed_other"])
}

/// The violations of a seeded crate but the rule on where `#[cfg(test)]` may go: what the
/// tests of the scan's dropping of test-only code read.
fn arrow_violations(files: &[(&str, &str)]) -> Vec<String> {
    let mut found = seeded_violations(files);
    found.retain(|line| !line.contains("on something other than a module"));
    found
}

/// A crate that keeps every rule, to add one violation to.
const CLEAN: &[(&str, &str)] = &[
    (
        "lib.rs",
        "mod low; mod mid; mod peer; mod high;\npub use high::run;",
    ),
    ("main.rs", "fn main() { seed::run(); seed_sim::start(); }"),
    ("low.rs", "pub struct Low;"),
    ("mid.rs", "use crate::low::Low;\npub fn mid(_: Low) {}"),
    ("peer.rs", "pub fn peer() { crate::low::Low; }"),
    (
        "high/mod.rs",
        "mod a; mod b; mod c; mod d;\npub use a::run;",
    ),
    (
        "high/a.rs",
        "pub fn run() { super::b::helper(); crate::mid::mid(crate::low::Low); }\n\
         impl super::c::Split { fn more(&self) {} }",
    ),
    ("high/b.rs", "pub fn helper() {}"),
    (
        "high/c.rs",
        "pub struct Split;\nimpl Split { fn new() {} }\npub fn start() { seed_sim::start() }",
    ),
    ("high/d.rs", "pub fn d() { crate::low::Low; }"),
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
            "crate → high::a",
            "high → high::a",
            "high::a → high::b",
            "high::a → high::c",
            "high::a → low",
            "high::a → mid",
            "high::d → low",
            "main → high::a",
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
        [
            "seed: circle high::a → high::b → high::a",
            "seed: high::b → high::a: b (rank 0) imports a (rank 1); arrows point down only"
        ]
    );
}

#[test]
fn a_circle_between_a_child_and_its_mod_rs_fails() {
    let files = with(&[
        (
            "high/mod.rs",
            "mod a; mod b; mod c; mod d;\npub use a::run;\npub struct Shared;\n\
             fn go() { b::helper() }",
        ),
        ("high/b.rs", "pub fn helper() { let _ = super::Shared; }"),
    ]);
    assert_eq!(
        seeded_violations(&files),
        [
            "seed: circle high → high::b → high",
            "seed: high::b → high: b (rank 0) imports mod (rank 2); arrows point down only"
        ]
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
    assert_eq!(arrow_violations(&files), Vec::<String>::new());
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
    // A path to a module is an arrow to it.
    let files = with(&[("mid.rs", "use crate::low;\nfn f() { low::Low; }")]);
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

// ---- The five blind spots of the first structure test (issue 46), each seeded ----

#[test]
fn an_upward_pub_use_is_an_upward_arrow() {
    // Nobody uses the name `low` re-exports: the re-export alone is the arrow.
    let upward = "seed: low → high::b: low (rank 0) imports high (rank 2); arrows point down only";
    for low in [
        "pub struct Low;\npub use crate::high::b::helper;",
        "pub struct Low;\npub(crate) use crate::high::{b::helper as go};",
        "pub struct Low;\npub use crate::high::b::*;",
    ] {
        assert_eq!(
            seeded_violations(&with(&[("low.rs", low)])),
            [upward],
            "{low}"
        );
    }
    // Credited through a re-export: `crate::run` is high/a.rs's (which uses low: a circle too).
    let through = "pub struct Low;\npub use crate::run as go;";
    assert_eq!(
        seeded_violations(&with(&[("low.rs", through)])),
        [
            "seed: circle high::a → low → high::a",
            "seed: low → high::a: low (rank 0) imports high (rank 2); arrows point down only"
        ]
    );
}

#[test]
fn a_test_only_field_or_variant_drops_only_itself() {
    let upward =
        ["seed: low → high::b: low (rank 0) imports high (rank 2); arrows point down only"];
    for low in [
        // A field: to its comma, past the comma in its type's generics.
        "pub struct Low { #[cfg(test)] seen: Map<u8, u8>, n: u8 }\n\
         fn up() { crate::high::b::helper() }",
        // The last field, no comma: to the brace that closes the struct.
        "pub struct Low { n: u8, #[cfg(test)] seen: u8 }\n\
         fn up() { crate::high::b::helper() }",
        // An enum variant with a body.
        "pub enum Low { #[cfg(test)] Seen { n: u8 } }\nfn up() { crate::high::b::helper() }",
        // A statement, and a block.
        "pub struct Low;\nfn up() { #[cfg(test)] let x = 1; crate::high::b::helper() }",
        "pub struct Low;\nfn up() { #[cfg(test)] { x() } crate::high::b::helper() }",
        // `#![cfg(test)]` inside an inline module drops that module, not the file.
        "pub struct Low;\nmod t { #![cfg(test)] fn t() {} }\nfn up() { crate::high::b::helper() }",
    ] {
        assert_eq!(arrow_violations(&with(&[("low.rs", low)])), upward, "{low}");
    }
    // What the attribute is on is still dropped.
    let low = "pub struct Low { #[cfg(test)] up: crate::high::b::Helper, n: u8 }";
    assert_eq!(
        arrow_violations(&with(&[("low.rs", low)])),
        Vec::<String>::new()
    );
}

#[test]
fn super_in_an_inline_module_counts_from_the_module() {
    // From `low::inner`, `super::super` is the crate root; from the file `low` it is nothing.
    let low = "pub struct Low;\nmod inner { fn up() { super::super::high::b::helper() } }";
    assert_eq!(
        seeded_violations(&with(&[("low.rs", low)])),
        ["seed: low → high::b: low (rank 0) imports high (rank 2); arrows point down only"]
    );
    // Two levels deep, and `self` and `super` that stay inside the file are no arrow.
    let d = "pub fn d() {}\nmod x { mod y { use super::super::super::a::run; } }\n\
             mod z { pub struct Z; fn f() { self::Z; super::d(); } }";
    assert_eq!(
        seeded_violations(&with(&[("high/d.rs", d)])),
        ["seed: high::d → high::a: d and a share rank 1; units of one rank do not import each other"]
    );
}

#[test]
fn another_crate_of_the_workspace_is_named_only_where_allowed() {
    // A path, an alias, an `extern crate`, a re-export from the root: each names the crate.
    for (file, text, from) in [
        (
            "low.rs",
            "pub struct Low;\nfn f() -> seed_sim::Error { todo!() }",
            "low",
        ),
        (
            "mid.rs",
            "use seed_sim as sim;\npub fn mid(_: sim::Low) {}",
            "mid",
        ),
        (
            "peer.rs",
            "extern crate seed_sim;\npub fn peer() {}",
            "peer",
        ),
        (
            "lib.rs",
            "mod low; mod mid; mod peer; mod high;\npub use seed_sim as sim;",
            "crate",
        ),
    ] {
        assert_eq!(
            seeded_violations(&with(&[(file, text)])),
            [format!(
                "seed: {from} → seed_sim: only high, main may use seed_sim"
            )],
            "{text}"
        );
    }
    // A variable of the same name is not the crate.
    let low = "pub struct Low;\nfn f() { let seed_sim = 1; g(seed_sim) }";
    assert_eq!(
        seeded_violations(&with(&[("low.rs", low)])),
        Vec::<String>::new()
    );
    // A crate of the workspace the table does not list may be named nowhere.
    let main = "fn main() { seed::run(); seed_other::go(); }";
    assert_eq!(
        seeded_violations(&with(&[("main.rs", main)])),
        ["seed: main → seed_other: this crate does not use seed_other"]
    );
    // `main.rs` is read: a crate of its own, above the library, whose `kw::` is the library.
    assert!(arrows(CLEAN).contains(&"main → high::a".to_string()));
}

#[test]
fn a_type_split_over_files_fails() {
    // The circle of issue 46: `impl W` in two files calling each other through `self.`,
    // with no path between them but `use super::*`.
    let files = with(&[
        (
            "high/mod.rs",
            "mod a; mod b; mod c; mod d;\npub use a::run;\n\
             pub struct W;\nimpl W { fn go(&self) { self.page() } }",
        ),
        (
            "high/d.rs",
            "use super::*;\nimpl W { fn page(&self) { self.go() } }\npub fn d() {}",
        ),
    ]);
    let found = seeded_violations(&files);
    assert!(
        found.contains(
            &"seed: impl W in high::d, away from its type (defined in high): its method calls \
              are arrows no path shows; keep a type's methods with the type"
                .to_string()
        ),
        "{found:#?}"
    );
    // Any inherent impl away from its type, whatever its generics and path.
    let mid = "pub fn mid() {}\nimpl<'a, T: Fn() -> u8> crate::low::Low<'a, T> where T: Copy {}";
    assert_eq!(
        seeded_violations(&with(&[("mid.rs", mid)])),
        [
            "seed: impl Low in mid, away from its type (defined in low): its method calls are \
          arrows no path shows; keep a type's methods with the type"
        ]
    );
    // Trait impls and `impl Trait` types are not inherent impls.
    let mid = "pub fn mid() -> impl Iterator<Item = u8> { None.into_iter() }\n\
               impl std::fmt::Debug for crate::low::Low {}\n\
               unsafe impl<T> Send for crate::low::Low where T: for<'a> Fn(&'a u8) {}";
    assert_eq!(
        seeded_violations(&with(&[("mid.rs", mid)])),
        Vec::<String>::new()
    );
    // An allowed split that is gone fails too, so the list only shrinks.
    let a = "pub fn run() { super::b::helper(); crate::mid::mid(crate::low::Low); }";
    assert_eq!(
        seeded_violations(&with(&[("high/a.rs", a)])),
        ["seed: impl Split in high::a is allowed but gone: take it out of structure.rs"]
    );
}

#[test]
fn rooms_of_a_ranked_folder_import_only_lower_rooms() {
    // No circle here: c → d only climbs.
    let c = "pub struct Split;\nimpl Split { fn new() {} }\npub fn start() { super::d::d() }";
    assert_eq!(
        seeded_violations(&with(&[("high/c.rs", c)])),
        ["seed: high::c → high::d: c (rank 0) imports d (rank 1); arrows point down only"]
    );
    let d = "pub fn d() { super::a::run() }";
    assert_eq!(
        seeded_violations(&with(&[("high/d.rs", d)])),
        ["seed: high::d → high::a: d and a share rank 1; units of one rank do not import each other"]
    );
    // A new room gets its rank in the same change.
    let files = with(&[("high/e.rs", "pub fn e() {}")]);
    assert_eq!(
        seeded_violations(&files),
        ["seed: unranked module e in high: give it a rank in structure.rs"]
    );
}

#[test]
fn a_path_in_an_attribute_string_is_an_arrow() {
    // serde calls the function the string names: an arrow hidden in a literal.
    let low = "pub struct Low { #[serde(deserialize_with = \"crate::high::b::helper\")] n: u8 }";
    assert_eq!(
        seeded_violations(&with(&[("low.rs", low)])),
        ["seed: low → high::b: low (rank 0) imports high (rank 2); arrows point down only"]
    );
    // Other strings stay blank: a message, a name in the same module, a path outside an
    // attribute.
    let low = "#[error(\"crate::high::b: {0}\")]\n#[serde(rename = \"as-groups\", with = \"f\")]\n\
               pub struct Low;\nconst PATH: &str = \"crate::high::b::helper\";";
    assert_eq!(
        seeded_violations(&with(&[("low.rs", low)])),
        Vec::<String>::new()
    );
}

#[test]
fn a_module_moved_by_a_path_attribute_fails() {
    // `#[path]` would make high/b.rs's code that of another module: the scan reads modules by
    // where their files are.
    let lib = "mod low; mod mid; mod peer; mod high;\n#[path = \"high/b.rs\"]\nmod moved;";
    assert_eq!(
        seeded_violations(&with(&[("lib.rs", lib)])),
        ["seed: #[path] in crate: a module lives where the tree says, as this scan reads it"]
    );
}

/// CONTRIBUTING.md's map of the house names every top-level module of every crate under its
/// crate's heading, and nothing that is not there, so the map cannot go stale (issue 54). Every
/// crate has a lib.rs; the map need not say so.
#[test]
fn the_house_map_names_every_module_of_every_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("CONTRIBUTING.md")).expect("CONTRIBUTING.md");
    let house = guide
        .split("## The house\n")
        .nth(1)
        .expect("a house section");
    let map = house.split("```").nth(1).expect("the house map");
    // A heading (`crates/kw-base/`, `src/`) opens a crate; a line indented by two spaces starts
    // with the modules it describes (`mutex.rs spelling.rs private_file/   leaves: ...`).
    let mut mapped: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut src = String::new();
    for line in map.lines().filter(|line| !line.trim().is_empty()) {
        if !line.starts_with(' ') {
            let heading = line.split_whitespace().next().unwrap_or_default();
            src = format!("{}src", heading.trim_end_matches("src/"));
            mapped.entry(src.clone()).or_default();
        } else if !line.starts_with("   ") {
            let names = line[2..].split("  ").next().unwrap_or_default();
            let units = names.split(' ').filter(|name| *name != "lib.rs");
            mapped
                .entry(src.clone())
                .or_default()
                .extend(units.map(String::from));
        }
    }
    let mut actual: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for rules in CRATES {
        let units = std::fs::read_dir(root.join(rules.src))
            .expect("a crate's src/")
            .map(|entry| entry.expect("entry").path())
            .filter_map(|path| {
                let name = path.file_name()?.to_string_lossy().into_owned();
                if path.is_dir() {
                    path.join("mod.rs").is_file().then(|| format!("{name}/"))
                } else {
                    (name.ends_with(".rs") && name != "lib.rs").then_some(name)
                }
            })
            .collect();
        actual.insert(rules.src.to_string(), units);
    }
    assert_eq!(
        mapped, actual,
        "CONTRIBUTING.md's house map against the crates' modules"
    );
}

/// A process-wide static outside the modules listed is a violation, `thread_local!` too; a
/// `'static` lifetime is none; a listed module that no longer holds one is reported.
#[test]
fn a_static_outside_the_listed_modules_fails() {
    let counted = "pub struct Low;\nstatic SEEN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);";
    let per_thread = "pub struct Low;\nthread_local! { static SEEN: u8 = const { 0 }; }";
    for low in [counted, per_thread] {
        assert_eq!(
            seeded_violations(&with(&[("low.rs", low)])),
            ["seed: low: a process-wide static outside the plumbing: pass it down as a value, or list it with why"],
            "{low}"
        );
    }
    let lifetime = "pub struct Low;\npub fn name() -> &'static str { \"low\" }";
    assert_eq!(
        seeded_violations(&with(&[("low.rs", lifetime)])),
        Vec::<String>::new()
    );
    let listed = Rules {
        statics: Some(&[("low", "seeded")]),
        ..SEEDED
    };
    let tree = seeded(&with(&[("low.rs", counted)]));
    assert_eq!(
        violations(&listed, &tree, &["seed", "seed_sim"]),
        Vec::<String>::new()
    );
    let gone = seeded(CLEAN);
    assert_eq!(
        violations(&listed, &gone, &["seed", "seed_sim"]),
        ["seed: low holds no static any more: take it off the list"]
    );
}

/// `#[cfg(test)]` on a function, a statement or a `use` of product code is a violation; on a
/// module (inline or a file, of any visibility) it is not.
#[test]
fn cfg_test_on_anything_but_a_module_fails() {
    let message = "seed: low: #[cfg(test)] on something other than a module: test-only code lives in a test module";
    for low in [
        "pub struct Low;\n#[cfg(test)]\nfn helper() {}",
        "pub struct Low;\nfn f() {\n    #[cfg(test)]\n    count();\n}",
        "pub struct Low;\n#[cfg(test)]\nuse std::fmt;",
    ] {
        assert_eq!(
            seeded_violations(&with(&[("low.rs", low)])),
            [message],
            "{low}"
        );
    }
    for low in [
        "pub struct Low;\n#[cfg(test)]\nmod tests { fn t() {} }",
        "pub struct Low;\n#[cfg(test)]\npub(crate) mod testdata { pub fn d() {} }",
        "pub struct Low;\n#[cfg(test)]\n#[allow(dead_code)]\npub mod seam { pub fn value() {} }",
    ] {
        assert_eq!(
            seeded_violations(&with(&[("low.rs", low)])),
            Vec::<String>::new(),
            "{low}"
        );
    }
}
