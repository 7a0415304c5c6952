//! `kw get`'s plan: everything the flags decide, checked and resolved once, before the kubeconfig
//! or the network is touched (ripgrep's low-args → high-args step). `FlagPlan::from_args` and
//! its `with_*` steps are pure (no I/O, no clock, no environment), so every rule here is
//! unit-tested without a cluster; `FlagPlan::read_files` reads the template file `-o` names, so
//! a bad template fails before the kubeconfig is read too. `GetPlan::targets` turns what
//! discovery found into the watcher targets; `run` runs them.
//!
//! - `error`: `PlanError`, every flag mistake; `request`: the types and names asked for;
//!   `output`: how to print; `deadlines`: when a run must stop.
//! - `get`: `GetPlan` and what it makes of discovery's answer; `flags`: `FlagPlan`, the flags
//!   checked and made a `GetPlan`.
//! - `manifest`, `rollout`, `wait`: `-f`'s objects, and the other verbs' plans.
//! - `log_filters`: `kw logs -w`'s container and line patterns, compiled.
//!
//! The tests below go through `FlagPlan` as a run does, so they stay here, over all of them.

pub mod deadlines;
pub mod error;
pub mod flags;
pub mod get;
pub mod log_filters;
pub mod manifest;
pub mod output;
pub mod request;
pub mod rollout;
pub mod wait;

pub use deadlines::Deadlines;
pub use error::PlanError;
pub use flags::{FlagPlan, ReadFile, DEFAULT_FAIL_GRACE};
pub use get::{GetPlan, Logs};
pub use log_filters::LogFilters;
pub use output::OutputPlan;
pub use request::{parse_targets, Request};

#[cfg(test)]
mod tests {
    use super::*;

    use std::time::{Duration, Instant, SystemTime};

    use clap::Parser;

    use crate::cli::{Cli, Command};
    use kw_client::config::settings::path_segment_refusal;
    use kw_client::discovery::Wanted;
    use kw_events::events::ResourceInfo;
    use kw_output::output::printer::OutputFormat;

    /// Issue #45: `..`, `.`, `/` and `%` would change the request path; refused before any
    /// request, in client-go's words.
    #[test]
    fn names_and_namespaces_that_are_no_path_segment_are_refused() {
        let refused = |args: &[&str]| match flag_plan(args) {
            Ok(_) => panic!("{args:?} accepted"),
            Err(error) => error.to_string(),
        };
        assert_eq!(
            refused(&["deployments", ".."]),
            "invalid resource name \"..\": [may not be '..']"
        );
        assert_eq!(
            refused(&["deploy/."]),
            "invalid resource name \".\": [may not be '.']"
        );
        assert_eq!(
            refused(&["pods", "a%2F"]),
            "invalid resource name \"a%2F\": [may not contain '%']"
        );
        let namespaced = |flag: &str| {
            flag_plan(&["pods"])
                .and_then(|p| p.with_namespace_flag(Some(flag)))
                .err()
                .map(|e| e.to_string())
        };
        assert_eq!(
            namespaced("..").as_deref(),
            Some("invalid namespace \"..\": [may not be '..']")
        );
        assert_eq!(
            namespaced("a,x/y").as_deref(),
            Some("invalid namespace \"x/y\": [may not contain '/']")
        );
        assert_eq!(namespaced("team-*"), None);
        assert_eq!(path_segment_refusal("web-1.example"), None);
        assert_eq!(
            path_segment_refusal("a/%").as_deref(),
            Some("may not contain '/' may not contain '%'")
        );
    }

    fn flag_plan(args: &[&str]) -> Result<FlagPlan, PlanError> {
        let argv = ["kw", "get"].iter().chain(args);
        let cli = Cli::try_parse_from(argv).expect("flags parse");
        let Command::Get(get) = &cli.command else {
            panic!("not kw get");
        };
        FlagPlan::from_args(get)?.with_request_timeout(cli.config.request_timeout.as_deref())
    }

    fn plan(args: &[&str]) -> Result<GetPlan, PlanError> {
        flag_plan(args)?.read_files(&|path| std::fs::read_to_string(path))
    }

    #[test]
    fn fail_grace_is_a_duration_thirty_seconds_unless_given() {
        let grace = |extra: &[&str]| {
            let mut args = vec!["deploy/web", "--until", "ready", "--fail-on", "failed"];
            args.extend_from_slice(extra);
            plan(&args).map(|p| p.rules.fail_grace)
        };
        assert_eq!(grace(&[]), Ok(DEFAULT_FAIL_GRACE));
        assert_eq!(grace(&["--fail-grace", "0"]), Ok(Duration::ZERO));
        assert_eq!(grace(&["--fail-grace", "2m"]), Ok(Duration::from_secs(120)));
        assert_eq!(
            grace(&["--fail-grace", "soon"]),
            Err(PlanError::FailGrace {
                text: "soon".into()
            })
        );
    }

    fn resource(plural: &str, namespaced: bool) -> ResourceInfo {
        ResourceInfo {
            plural: plural.into(),
            singular: plural.trim_end_matches('s').into(),
            kind: "Kind".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced,
        }
    }

    fn wanted(plural: &str, names: &[&str]) -> Wanted {
        Wanted {
            resource: resource(plural, plural != "nodes"),
            names: names.iter().map(|n| n.to_string()).collect(),
            namespace: None,
        }
    }

    #[test]
    fn flag_mistakes_are_found_before_anything_is_touched() {
        let message = |args: &[&str]| plan(args).unwrap_err().to_string();
        assert_eq!(
            message(&["pods", "--output-watch-events"]),
            "--output-watch-events option can only be used with --watch or --watch-only"
        );
        assert!(message(&["pods", "--watch-only", "--until", "delete"]).contains("--watch-only"));
        assert!(message(&["pods", "--timeout", "soon"]).contains("--timeout \"soon\""));
        assert_eq!(
            message(&["pods", "--until", "readyy"]),
            "--until \"readyy\": unknown condition; did you mean \"ready\"? (use ready, delete, \
             create, condition=NAME[=VALUE] or jsonpath='{.PATH}'[=VALUE])"
        );
        assert_eq!(
            message(&["pods", "--fail-on", "ready"]),
            "--fail-on \"ready\": ready is a word for --until (use --until ready, or --fail-on failed)"
        );
        assert_eq!(
            message(&["pods", "--until", "failed"]),
            "--until \"failed\": failed is a word for --fail-on (use --fail-on failed, or --until ready)"
        );
        assert!(message(&["pods", "--fail-on", "faild"]).contains("(use failed, delete"));
        let ready = plan(&["deploy", "--until", "Ready", "--fail-on", "failed"]).unwrap();
        assert!(
            ready.rules.progress,
            "changes of judgement go to stderr by default"
        );
        assert!(
            !plan(&["deploy", "--until", "ready", "-q"])
                .unwrap()
                .rules
                .progress
        );
        assert!(message(&["pods", "--max-events", "0"]).contains("at least 1"));
        assert!(message(&["pods", "-f", "x.yaml"]).contains("-f names the objects"));
        assert!(message(&["pods,", "-w"]).contains("must not be empty"));
        assert!(message(&["pods", "-o", "nope"]).contains("nope"));
    }

    #[test]
    fn several_namespaces_watch_cluster_wide_with_a_namespace_column() {
        let p = plan(&["pods,nodes"])
            .and_then(|p| p.with_namespace_flag(Some("team-*,web")))
            .unwrap();
        let targets = p.targets(vec![wanted("pods", &[]), wanted("nodes", &[])], "x");
        let targets = targets.unwrap();
        assert_eq!(targets[0].namespace, None);
        assert!(targets[0].shows("team-a") && targets[0].shows("web"));
        assert!(!targets[0].shows("kube-system"));
        assert!(
            targets[1].namespace_set.is_none(),
            "nodes have no namespace"
        );
        let options = p.print_options(
            &targets[0].resource,
            &targets,
            false,
            false,
            None,
            SystemTime::UNIX_EPOCH,
        );
        assert!(options.all_namespaces);
        assert_eq!(
            p.no_resources_message(&targets, "x").as_deref(),
            Some("No resources found in namespaces team-*,web.")
        );
        // One plain namespace keeps kubectl's meaning; -A beats a set.
        let one = plan(&["pods"]).and_then(|p| p.with_namespace_flag(Some("web")));
        assert!(one.unwrap().namespace_set.is_none());
        let all = plan(&["pods", "-A"]).and_then(|p| p.with_namespace_flag(Some("a,b")));
        assert!(all.unwrap().namespace_set.is_none());
        let named = plan(&["pods", "web"]).and_then(|p| p.with_namespace_flag(Some("a,b")));
        assert!(named.unwrap_err().to_string().contains("by name"));
    }

    #[test]
    fn conditions_imply_watching_and_the_list_is_printed_unless_watch_only() {
        let p = plan(&["pods", "--until", "delete"]).unwrap();
        assert!(p.watching && p.print_list && p.has_rules());
        let p = plan(&["pods", "--watch-only"]).unwrap();
        assert!(p.watching && !p.print_list && !p.has_rules());
        let p = plan(&["pods", "--max-events", "3"]).unwrap();
        assert!(!p.watching && p.has_rules());
    }

    /// `-o name` under `--until` prints each object once, as kubectl wait does; other formats,
    /// `-w` given, `--fail-on` alone and `--live` print every event.
    #[test]
    fn name_under_until_prints_each_object_once() {
        let once = |args: &[&str]| plan(args).unwrap().prints_once();
        assert!(once(&["deploy/shop", "--until", "ready", "-o", "name"]));
        assert!(!once(&[
            "deploy/shop",
            "--until",
            "ready",
            "-o",
            "name",
            "-w"
        ]));
        assert!(!once(&["deploy/shop", "--until", "ready"]));
        assert!(!once(&["deploy/shop", "--until", "ready", "-o", "json"]));
        assert!(!once(&["deploy/shop", "--fail-on", "failed", "-o", "name"]));
        assert!(!once(&["deploy/shop", "-w", "-o", "name"]));
    }

    #[test]
    fn targets_read_like_kubectl() {
        assert_eq!(
            parse_targets(&["pods,deploy".into()]).unwrap(),
            [("pods".into(), vec![]), ("deploy".into(), vec![])]
        );
        assert_eq!(
            parse_targets(&["po/a".into(), "deploy/b".into(), "po/c".into()]).unwrap(),
            [
                ("po".into(), vec!["a".to_string()]),
                ("deploy".into(), vec!["b".to_string()]),
                ("po".into(), vec!["c".to_string()])
            ]
        );
        assert_eq!(
            parse_targets(&["po/a".into(), "po/c".into()]).unwrap(),
            [("po".into(), vec!["a".to_string(), "c".into()])]
        );
        assert!(parse_targets(&["pods,deploy".into(), "a".into()]).is_err());
        assert!(parse_targets(&["po/a".into(), "b".into()]).is_err());
        assert!(parse_targets(&["po/a/b".into()]).is_err());
        assert_eq!(
            parse_targets(&["pod".into(), "a".into(), "svc/b".into()]),
            Err(PlanError::TypeBeforeSlashForm {
                target: "svc/b".into()
            })
        );
    }

    #[test]
    fn a_plain_watch_takes_one_name_per_type_and_a_wait_splits_them() {
        let two = || vec![wanted("pods", &["a", "b"])];
        let p = plan(&["pods", "a", "b", "-w"]).unwrap();
        assert_eq!(
            p.targets(two(), "web").err(),
            Some(PlanError::TooManyNames(2))
        );
        let p = plan(&["pods", "a", "b"]).unwrap();
        assert_eq!(p.targets(two(), "web").unwrap().len(), 1);
        let p = plan(&["pods", "a", "b", "--until", "delete"]).unwrap();
        let targets = p.targets(two(), "web").unwrap();
        let names: Vec<&[String]> = targets.iter().map(|t| t.names.as_slice()).collect();
        assert_eq!(names, [["a".to_string()], ["b".to_string()]]);
    }

    #[test]
    fn namespaces_come_from_the_manifest_the_flags_or_the_context() {
        let p = plan(&["pods,nodes"]).unwrap();
        let mut from_manifest = wanted("pods", &["a"]);
        from_manifest.namespace = Some("shop".into());
        let targets = p
            .targets(
                vec![wanted("pods", &[]), wanted("nodes", &[]), from_manifest],
                "web",
            )
            .unwrap();
        let namespaces: Vec<Option<&str>> =
            targets.iter().map(|t| t.namespace.as_deref()).collect();
        assert_eq!(namespaces, [Some("web"), None, Some("shop")]);
        assert_eq!(
            p.no_resources_message(&targets, "web").as_deref(),
            Some("No resources found in web namespace.")
        );
        let p = plan(&["pods", "-A"]).unwrap();
        let targets = p.targets(vec![wanted("pods", &[])], "web").unwrap();
        assert_eq!(targets[0].namespace, None);
        assert_eq!(
            p.no_resources_message(&targets, "web").as_deref(),
            Some("No resources found")
        );
    }

    #[test]
    fn table_rows_carry_objects_only_when_something_needs_them() {
        let include = |args: &[&str]| {
            plan(args)
                .unwrap()
                .targets(vec![wanted("pods", &[])], "d")
                .unwrap()[0]
                .include_object
        };
        assert!(!include(&["pods", "-w"]));
        assert!(include(&["pods", "--sort-by", ".metadata.name"]));
        assert!(include(&["pods", "--until", "condition=Ready"]));
        assert!(!include(&[
            "pods",
            "-o",
            "json",
            "--until",
            "condition=Ready"
        ]));
    }

    #[test]
    fn the_earlier_deadline_stops_the_watcher_and_only_timeout_is_a_failure() {
        let now = Instant::now();
        let with = |request_timeout: &str| {
            plan(&[
                "pods",
                "-w",
                "--timeout",
                "10s",
                "--request-timeout",
                request_timeout,
            ])
            .unwrap()
        };
        let d = with("5s").deadlines(now);
        assert_eq!(d.watcher(), Some(now + Duration::from_secs(5)));
        assert!(!d.timed_out(now + Duration::from_secs(6)));
        let d = with("20").deadlines(now);
        assert!(d.timed_out(now + Duration::from_secs(11)));
        // --request-timeout bounds a watch only; a one-shot list ignores it here.
        let p = plan(&["pods", "--request-timeout", "5s"]).unwrap();
        assert_eq!(p.deadlines(now).watcher(), None);
        // A timeout too far away to represent is no deadline at all, never a panic.
        let p = plan(&["pods", "-w", "--timeout", "18446744073709551615"]).unwrap();
        assert_eq!(p.deadlines(now).watcher(), None);
    }

    #[test]
    fn checking_the_flags_reads_no_file_and_reading_the_template_reports_it() {
        // The flags are checked with the template file named, not read: a missing file is
        // found by `read_files`, with the words `-o` always had.
        let named = flag_plan(&["pods", "-o", "jsonpath-file=/nonexistent/kw.tpl"]).unwrap();
        assert_eq!(
            named
                .read_files(&|path| std::fs::read_to_string(path))
                .unwrap_err()
                .to_string(),
            "error reading jsonpath-file file /nonexistent/kw.tpl: No such file or directory (os error 2)"
        );
        let dir = tempfile::tempdir().unwrap();
        let columns = dir.path().join("columns.txt");
        std::fs::write(&columns, "NAME PHASE\n.metadata.name .status.phase\n").unwrap();
        let p = plan(&[
            "pods",
            "-o",
            &format!("custom-columns-file={}", columns.display()),
        ])
        .unwrap();
        assert!(matches!(
            p.output.format,
            OutputFormat::CustomColumns {
                from_file: true,
                ..
            }
        ));
        // --live refuses a template file without reading it.
        assert_eq!(
            flag_plan(&["pods", "--live", "-o", "custom-columns-file=/nonexistent"]).unwrap_err(),
            PlanError::LiveWithFormat {
                format: "custom-columns-file=/nonexistent".into()
            }
        );
    }

    #[test]
    fn a_bad_request_timeout_is_a_flag_mistake() {
        let message = plan(&["pods", "--request-timeout=x"])
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("invalid --request-timeout \"x\": "),
            "{message}"
        );
    }

    #[test]
    fn every_flag_is_checked_before_the_kubeconfig_is_read() {
        // `kw get` stops at the bad flag, never reaching the kubeconfig that does not exist.
        let argv = [
            "kw",
            "get",
            "pods",
            "--request-timeout=x",
            "--kubeconfig",
            "/nonexistent/kubeconfig",
        ];
        let cli = Cli::try_parse_from(argv).expect("flags parse");
        let Command::Get(get) = &cli.command else {
            panic!("not kw get");
        };
        let error =
            crate::run::get(get, &cli.config, &kw_base::notices::Notices::new(false)).unwrap_err();
        assert!(
            matches!(
                error,
                crate::report::error::KwError::Plan(PlanError::RequestTimeout(_))
            ),
            "{error}"
        );
        let argv = [
            "kw",
            "get",
            "pods",
            "-o",
            "jsonpath-file=/nonexistent/kw.tpl",
            "--kubeconfig",
            "/nonexistent/kubeconfig",
        ];
        let cli = Cli::try_parse_from(argv).expect("flags parse");
        let Command::Get(get) = &cli.command else {
            panic!("not kw get");
        };
        let error = crate::run::get(get, &cli.config, &kw_base::notices::Notices::new(false))
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("error reading jsonpath-file file"),
            "{error}"
        );
    }

    /// No flag of kw's is accepted and then ignored: over every format, `--timestamps` and
    /// `--diff` either show (tables, JSON event lines) or are refused naming the flag to add or
    /// the format that has no place for them.
    #[test]
    fn kw_event_flags_show_or_are_refused_in_every_format() {
        let formats = [
            "",
            "wide",
            "json",
            "jsonl",
            "yaml",
            "name",
            "jsonpath={.metadata.name}",
            "jsonpath-as-json={.metadata.name}",
            "custom-columns=NAME:.metadata.name",
        ];
        for format in formats {
            for flag in ["--timestamps", "--diff"] {
                for events in [false, true] {
                    let mut args = vec!["pods", "-w", flag];
                    if !format.is_empty() {
                        args.extend(["-o", format]);
                    }
                    if events {
                        args.push("--output-watch-events");
                    }
                    let shows = matches!(format, "" | "wide")
                        || (matches!(format, "json" | "jsonl") && events);
                    let planned = plan(&args);
                    match planned {
                        Ok(_) => assert!(shows, "{args:?} accepted, shows nothing"),
                        Err(e) => {
                            assert!(!shows, "{args:?}: {e}");
                            let text = e.to_string();
                            assert!(text.starts_with(flag), "{args:?}: {text}");
                            assert!(!text.contains('\n'), "{text}");
                            if matches!(format, "json" | "jsonl") {
                                assert!(text.contains("add --output-watch-events"), "{text}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn flags_that_act_on_events_need_a_watch_and_no_live_view() {
        for flag in ["--diff", "--ignore-unchanged"] {
            assert_eq!(
                plan(&["pods", flag]).err(),
                Some(PlanError::NeedsWatch { flag })
            );
            assert!(plan(&["pods", "-w", flag]).is_ok());
        }
        for (flag, extra) in [
            ("--output-watch-events", None),
            ("--timestamps", None),
            ("--diff", None),
            ("--only", Some("added")),
            ("--ignore-unchanged", None),
        ] {
            let mut args = vec!["pods", "--live", flag];
            args.extend(extra);
            assert_eq!(
                plan(&args).err(),
                Some(PlanError::EventFlagWithLive { flag }),
                "{args:?}"
            );
        }
    }
}
