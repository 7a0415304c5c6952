//! `kw get`'s flags checked and made a plan, with no I/O: the template file `-o` names is
//! read by the caller (`FlagPlan::read_files`).

use std::time::Duration;

use crate::cli::GetArgs;
use kw_output::output::printer::format::{parse_output_spec, OutputSpec, TemplateFile};
use kw_output::output::printer::{self, DiffDetail, OutputFormat, SortBy, TimestampFormat};
use kw_output::output::terminal::ColorChoice;
use kw_wait::wait::{Expr, For, Rules};

use super::error::PlanError;
use super::get::GetPlan;
use super::output::OutputPlan;
use super::request::{parse_targets, Request};

/// How the caller reads a file the flags name (`std::fs::read_to_string` in a run).
pub type ReadFile<'a> = &'a dyn Fn(&std::path::Path) -> std::io::Result<String>;

/// `kw get`'s plan as the flags alone decide it: every flag checked, the template file `-o`
/// names (if any) not read yet. `read_files` reads it and gives the plan.
#[derive(Debug, Clone)]
pub struct FlagPlan {
    /// Its `output.format` is a stand-in while `template_file` is unread.
    plan: GetPlan,
    template_file: Option<TemplateFile>,
    /// `--allow-missing-template-keys=false`, for the template read from `template_file`.
    missing_keys_refused: bool,
}

impl FlagPlan {
    /// Read and check the flags of `kw get`. Pure: a template file is named, not read.
    pub fn from_args(args: &GetArgs) -> Result<FlagPlan, PlanError> {
        let rules = rules_of(args)?;
        let timeout = timeout_of(args.timeout.as_deref())?;
        if rules.has_conditions() && args.watch_only {
            return Err(PlanError::ConditionsWithWatchOnly);
        }
        if args.live && args.watch_only {
            return Err(PlanError::LiveWithWatchOnly);
        }
        let watching = args.watch || args.watch_only || args.live || rules.has_conditions();
        if args.output_watch_events && !watching {
            return Err(PlanError::WatchEventsWithoutWatch);
        }
        let output = printer::format::with_template_flag(&args.output, args.template.as_deref())?;
        let refused = |format: OutputFormat| match args.allow_missing_template_keys {
            true => format,
            false => format.missing_keys_refused(),
        };
        let (format, template_file) =
            match printer::check_label_flags(&args.output, args.show_labels, &args.label_columns)
                .and_then(|()| parse_output_spec(&output))?
            {
                OutputSpec::Format(format) => (refused(format), None),
                // A stand-in until `read_files` reads the template.
                OutputSpec::File(file) => (OutputFormat::default(), Some(file)),
            };
        let only = printer::parse_only(&args.only).map_err(|reason| PlanError::Value {
            flag: "--only",
            reason,
        })?;
        let timestamps = args
            .timestamps
            .as_deref()
            .map(str::parse::<TimestampFormat>)
            .transpose()
            .map_err(|reason| PlanError::Value {
                flag: "--timestamps",
                reason,
            })?;
        let color: ColorChoice = args.color.parse().map_err(|reason| PlanError::Value {
            flag: "--color",
            reason,
        })?;
        let diff = args
            .diff
            .as_deref()
            .map(str::parse::<DiffDetail>)
            .transpose()
            .map_err(|reason| PlanError::Value {
                flag: "--diff",
                reason,
            })?;
        // A template file never makes a table.
        if args.live && (template_file.is_some() || !format.is_table()) {
            return Err(PlanError::LiveWithFormat {
                format: args.output.clone(),
            });
        }
        check_kw_event_flags(args, &format, template_file.is_some(), watching)?;
        if args.logs.is_some() {
            if args.live {
                return Err(PlanError::LogsWithLive);
            }
            if args.until.is_empty() && args.fail_on.is_empty() {
                return Err(PlanError::LogsWithoutWait);
            }
        }
        let sort_by = args.sort_by.as_deref().map(SortBy::parse).transpose()?;
        let request = match args.filename.as_slice() {
            [] if args.targets.is_empty() => return Err(PlanError::NothingToGet),
            [] => Request::Types(parse_targets(&args.targets)?),
            _ if !args.targets.is_empty() => return Err(PlanError::ManifestWithTargets),
            paths => Request::Manifest {
                paths: paths.to_vec(),
                recursive: args.recursive,
            },
        };
        let asks_readiness = rules
            .until
            .iter()
            .chain(&rules.fail_on)
            .any(|e| matches!(e, Expr::Ready | Expr::Failed));
        let plan = GetPlan {
            request,
            watching,
            live: args.live,
            watch_asked: args.watch,
            ignore_not_found: args.ignore_not_found,
            print_list: !args.watch_only,
            timeout,
            request_timeout: None,
            output: OutputPlan {
                format,
                watch_events: args.output_watch_events,
                no_headers: args.no_headers,
                show_kind: args.show_kind,
                show_managed_fields: args.show_managed_fields,
                show_labels: args.show_labels,
                label_columns: args.label_columns.clone(),
                sort_by,
                timestamps,
                color,
                diff,
                ignore_unchanged: args.ignore_unchanged,
                only,
                client_side_table: !args.server_print,
            },
            all_namespaces: args.all_namespaces,
            namespace_set: None,
            label_selector: args.selector.clone(),
            field_selector: args.field_selector.clone(),
            chunk_size: args.chunk_size,
            max_object_size: args.max_object_size,
            several_contexts: false,
            // The live view too: its rows show each object's judgement, and the causes (held
            // while it draws) and the summary follow its last frame, as in `-w`.
            explain_waits: !args.quiet && asks_readiness,
            quiet: args.quiet,
            after_listing: None,
            summarize: asks_readiness,
            rules,
            streaming_list: false,
            logs: super::get::Logs::of(args.logs.as_deref()),
            logs_on_stdout: None,
            logs_container: None,
            subresource: args
                .subresource
                .clone()
                .filter(|sub| !sub.is_empty() && !watching),
        };
        Ok(FlagPlan {
            plan,
            template_file,
            missing_keys_refused: !args.allow_missing_template_keys,
        })
    }

    /// Take `-n` (see `GetPlan::with_namespace_flag`).
    pub fn with_namespace_flag(self, flag: Option<&str>) -> Result<FlagPlan, PlanError> {
        Ok(FlagPlan {
            plan: self.plan.with_namespace_flag(flag)?,
            ..self
        })
    }

    /// Take `--request-timeout`, checked with the other flags.
    pub fn with_request_timeout(mut self, flag: Option<&str>) -> Result<FlagPlan, PlanError> {
        self.plan.request_timeout = request_timeout(flag)?;
        Ok(self)
    }

    /// The plan, with the template file `-o` names parsed from what `read` gives for its path:
    /// the caller reads, so that planning does no I/O of its own.
    pub fn read_files(self, read: ReadFile<'_>) -> Result<GetPlan, PlanError> {
        let mut plan = self.plan;
        if let Some(file) = &self.template_file {
            let format = file.parse(read(file.path()))?;
            plan.output.format = match self.missing_keys_refused {
                true => format.missing_keys_refused(),
                false => format,
            };
        }
        Ok(plan)
    }
}

/// No flag of kw's is accepted and then ignored: `--timestamps` and `--diff` show in tables and
/// in JSON event lines only, `--diff` and `--ignore-unchanged` need events to act on, and the
/// live view (state, not events) takes none of the event flags.
fn check_kw_event_flags(
    args: &GetArgs,
    format: &OutputFormat,
    template_file: bool,
    watching: bool,
) -> Result<(), PlanError> {
    let event_flags = [
        ("--output-watch-events", args.output_watch_events),
        ("--timestamps", args.timestamps.is_some()),
        ("--diff", args.diff.is_some()),
        ("--only", !args.only.is_empty()),
        ("--ignore-unchanged", args.ignore_unchanged),
    ];
    if args.live {
        if let Some((flag, _)) = event_flags.iter().find(|(_, given)| *given) {
            return Err(PlanError::EventFlagWithLive { flag });
        }
        return Ok(());
    }
    for (flag, given) in [
        ("--diff", args.diff.is_some()),
        ("--ignore-unchanged", args.ignore_unchanged),
    ] {
        if given && !watching {
            return Err(PlanError::NeedsWatch { flag });
        }
    }
    let extras = [
        ("--timestamps", args.timestamps.is_some(), "ts"),
        ("--diff", args.diff.is_some(), "diff"),
    ];
    for (flag, _, member) in extras.into_iter().filter(|(_, given, _)| *given) {
        let table = !template_file && format.is_table();
        let json = matches!(format, OutputFormat::Json | OutputFormat::Jsonl);
        if table || (json && args.output_watch_events) {
            continue;
        }
        let format = args.output.clone();
        return Err(if json {
            PlanError::NeedsWatchEvents {
                flag,
                format,
                member,
            }
        } else {
            PlanError::NoPlaceInFormat { flag, format }
        });
    }
    Ok(())
}

/// The wait-for rules of `kw get` from its flags (`--until`, `--fail-on`, `--for`, ...).
fn rules_of(args: &GetArgs) -> Result<Rules, PlanError> {
    let parse_all = |flag: &'static str, texts: &[String]| -> Result<Vec<Expr>, PlanError> {
        texts.iter().map(|t| Ok(Expr::parse(flag, t)?)).collect()
    };
    if args.max_events == Some(0) {
        return Err(PlanError::NoEvents);
    }
    Ok(Rules {
        until: parse_all("--until", &args.until)?,
        fail_on: parse_all("--fail-on", &args.fail_on)?,
        mode: args.for_objects.parse::<For>()?,
        max_events: args.max_events,
        // The live view shows each judgement in its row; lines on stderr would tear its frame.
        progress: !args.quiet && !args.live,
        fail_grace: fail_grace_of(args.fail_grace.as_deref())?,
        ..Rules::default()
    })
}

/// How long a stuck Pod of a workload's current revision is given before it fails the
/// workload: kubedog stops at once, which fails a Pod that would have pulled on its second try;
/// 30 s covers a registry's hiccup and one back-off.
pub const DEFAULT_FAIL_GRACE: Duration = Duration::from_secs(30);

/// `--fail-grace`: humantime, or a bare number of seconds; `0` fails at once.
pub(super) fn fail_grace_of(text: Option<&str>) -> Result<Duration, PlanError> {
    let Some(text) = text else {
        return Ok(DEFAULT_FAIL_GRACE);
    };
    let parsed = match text.trim().parse::<u64>() {
        Ok(seconds) => Some(Duration::from_secs(seconds)),
        Err(_) => humantime::parse_duration(text.trim()).ok(),
    };
    parsed.ok_or_else(|| PlanError::FailGrace {
        text: text.to_string(),
    })
}

/// `--timeout`: humantime (`30s`, `5m`, `1h30m`), or a bare number of seconds.
fn timeout_of(text: Option<&str>) -> Result<Option<Duration>, PlanError> {
    let Some(text) = text else {
        return Ok(None);
    };
    let parsed = match text.parse::<u64>() {
        Ok(seconds) => Some(Duration::from_secs(seconds)),
        Err(_) => humantime::parse_duration(text).ok(),
    };
    match parsed {
        Some(d) if !d.is_zero() => Ok(Some(d)),
        _ => Err(PlanError::Timeout {
            text: text.to_string(),
        }),
    }
}

/// `--request-timeout`, as every verb's plan takes it (`None`: a watch is never cut).
pub fn request_timeout(flag: Option<&str>) -> Result<Option<std::time::Duration>, PlanError> {
    match flag {
        Some(value) => Ok(kw_client::config::flags::parse_request_timeout(value)?),
        None => Ok(None),
    }
}
