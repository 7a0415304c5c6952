//! kw's integration tests, as one test binary: the real `kw` binary against `kw sim` over real
//! sockets on loopback (see `harness`). One binary links the crates once instead of once per area,
//! which is most of the build time of `cargo test` on a small machine.

// Helpers shared by the areas; not every area uses every one.
#[allow(dead_code)]
mod harness;

mod auth;
mod cause;
mod children;
mod ci;
mod ci_reports;
mod completion_terminal;
mod completions;
mod deploy_script;
mod descriptors;
mod discovery;
mod fleet;
mod fuzz_corpus;
mod get;
mod go_template;
mod golden;
mod help_style;
mod hostile;
mod join;
mod jsonpath;
mod kubeconfig;
mod kubectl_cases;
mod kubectl_flags;
mod kuberc;
mod kyaml_hostile;
mod live_terminal;
mod live_verdict;
mod live_widths;
mod logs;
mod logs_while_waiting;
mod namespaces;
mod newcomer;
mod one_summary;
mod output;
mod parking;
mod passthrough;
mod plugin_trees;
mod plugin_verbs;
mod proxy;
mod readiness;
mod recovering;
mod release;
mod rollout_status;
mod several_types;
mod structure;
mod summary_logs;
mod test_lint;
mod tls;
mod tls_trickle;
mod verdict;
mod wait_verb;
mod watch;
