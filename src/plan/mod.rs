//! `kw get`'s plan: everything the flags decide, checked and resolved once, before the kubeconfig
//! or the network is touched (ripgrep's low-args → high-args step). `FlagPlan::from_args` and
//! its `with_*` steps are pure (no I/O, no clock, no environment), so every rule here is
//! unit-tested without a cluster; `FlagPlan::read_files` reads the template file `-o` names, so
//! a bad template fails before the kubeconfig is read too. `GetPlan::targets` turns what
//! discovery found into the watcher targets; `run` runs them.

pub mod manifest;
pub mod rollout;
pub mod wait;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use crate::cli::GetArgs;
use crate::config::flags::RequestTimeoutError;
use crate::config::settings::{check_name, check_namespace};
use crate::discovery::Wanted;
use crate::events::ResourceInfo;
use crate::output::printer::format::{parse_output_spec, OutputSpec, TemplateFile};
use crate::output::printer::{
    self, DiffDetail, OutputFormat, PrintOptions, SortBy, TimestampFormat,
};
use crate::output::terminal::ColorChoice;
use crate::wait::{Expr, For, Rules};
use crate::watcher::namespaces::NamespaceSet;
use crate::watcher::{Options, Target};
use crate::wire::EventType;

/// A flag mistake, worded for the user (without the `error: ` prefix). Each names the flag
/// or argument at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("--until and --fail-on judge the initial list too: drop --watch-only")]
    ConditionsWithWatchOnly,
    #[error("--output-watch-events option can only be used with --watch or --watch-only")]
    WatchEventsWithoutWatch,
    /// `-o`, `--show-labels` with it, or `--sort-by`.
    #[error(transparent)]
    Format(#[from] printer::FormatError),
    /// A flag whose value its own parser refused, with that parser's words.
    #[error("{reason}")]
    Value { flag: &'static str, reason: String },
    #[error("-f names the objects to get: give no TYPE or NAME with it")]
    ManifestWithTargets,
    /// kubectl's words, and what to give instead.
    #[error("Required resource not specified: give a TYPE (`kw get pods`), TYPE/NAME, or -f FILE")]
    NothingToGet,
    #[error(transparent)]
    Namespaces(#[from] crate::watcher::namespaces::NamespaceSetError),
    #[error(
        "a resource cannot be retrieved by name across several namespaces (-n {set}): \
         name one namespace, or drop the names"
    )]
    NamesAcrossNamespaces { set: String },
    /// A name or namespace that would change the request's path (`..`, `a%2F`).
    #[error(transparent)]
    InvalidSegment(#[from] crate::config::settings::PathSegmentError),
    /// `--until`, `--fail-on` or `--for`.
    #[error(transparent)]
    Condition(#[from] crate::wait::ConditionError),
    #[error(transparent)]
    RequestTimeout(#[from] RequestTimeoutError),
    #[error("--max-events must be at least 1")]
    NoEvents,
    #[error("--timeout {text:?} is not a duration such as 30s, 5m or 1h30m")]
    Timeout { text: String },
    #[error("--fail-grace {text:?} is not a duration such as 0, 30s or 2m")]
    FailGrace { text: String },
    #[error("you must specify the type of resource to get")]
    NoType,
    #[error("resource types must not be empty: {typed:?}")]
    EmptyType { typed: String },
    #[error("names can only be given with a single resource type (or as TYPE/NAME)")]
    NamesWithSeveralTypes,
    #[error("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kw get resource/<resource_name>' instead of 'kw get resource resource/<resource_name>'): {target}")]
    TypeBeforeSlashForm { target: String },
    #[error("arguments in resource/name form must have a single resource and name: {target}")]
    BadSlashForm { target: String },
    #[error("--live draws on a terminal, and stdout is not one: use -w for a stream of events")]
    LiveWithoutTerminal,
    #[error("--live shows a table: drop -o {format}, or use -w")]
    LiveWithFormat { format: String },
    #[error("--live shows the current state: drop --watch-only, or use -w")]
    LiveWithWatchOnly,
    /// kw's event flags under `--live`, which draws state, not events.
    #[error("--live shows the current state, not events: drop {flag}, or use -w")]
    EventFlagWithLive { flag: &'static str },
    /// `--diff`/`--ignore-unchanged` without a watch: there are no MODIFIED events to act on.
    #[error("{flag} acts on the changes seen while watching: add -w")]
    NeedsWatch { flag: &'static str },
    /// `--timestamps`/`--diff` with `-o json|jsonl`: kw's members ride in the event envelope.
    #[error(
        "{flag} with -o {format}: add --output-watch-events, whose event lines carry {member:?}"
    )]
    NeedsWatchEvents {
        flag: &'static str,
        format: String,
        member: &'static str,
    },
    /// `--timestamps`/`--diff` with a format that has no place for them.
    #[error("{flag} has no place in -o {format}: use a table, or -o json|jsonl with --output-watch-events")]
    NoPlaceInFormat { flag: &'static str, format: String },
    /// kubectl's rule: a plain watch takes one name per type.
    #[error("watch is only supported on individual resources and resource collections, but {0} resources were found")]
    TooManyNames(usize),
}

/// What the command line asks for, before discovery.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `TYPE [NAME...]`, `TYPE1,TYPE2`, `TYPE/NAME...`: type queries and their names, in order.
    Types(Vec<(String, Vec<String>)>),
    /// `-f FILE...`: the objects the manifests name, file after file; a directory's manifests,
    /// and with `recursive` (`-R`) its subdirectories' too.
    Manifest {
        paths: Vec<PathBuf>,
        recursive: bool,
    },
}

/// How to print, as far as the flags decide it (the terminal and colour are decided by
/// `crate::output::terminal`, per run).
#[derive(Debug, Clone)]
pub struct OutputPlan {
    pub format: OutputFormat,
    pub watch_events: bool,
    pub no_headers: bool,
    pub show_kind: bool,
    pub show_managed_fields: bool,
    pub show_labels: bool,
    pub label_columns: Vec<String>,
    pub sort_by: Option<SortBy>,
    pub timestamps: Option<TimestampFormat>,
    pub color: ColorChoice,
    pub diff: Option<DiffDetail>,
    pub ignore_unchanged: bool,
    pub only: Vec<EventType>,
}

impl OutputPlan {
    /// A verb's own format with none of get's decorations: no headers to choose, no colour,
    /// no diff, every event type. `rollout status` and `wait` print kubectl's fixed lines.
    pub fn plain(format: OutputFormat) -> OutputPlan {
        OutputPlan {
            format,
            watch_events: false,
            no_headers: false,
            show_kind: false,
            show_managed_fields: false,
            show_labels: false,
            label_columns: Vec::new(),
            sort_by: None,
            timestamps: None,
            color: ColorChoice::Never,
            diff: None,
            ignore_unchanged: false,
            only: Vec::new(),
        }
    }
}

/// `kw get`, decided.
#[derive(Debug, Clone)]
pub struct GetPlan {
    pub request: Request,
    /// Keep watching after the list (`-w`, `--watch-only`, `--live`, or any condition).
    pub watching: bool,
    /// `--live`: the current state redrawn in place on the terminal (`crate::output::live`).
    pub live: bool,
    /// `-w` given: every event printed, conditions or not.
    pub watch_asked: bool,
    /// `--ignore-not-found`: a one-shot get drops NotFound for named objects and says nothing
    /// of an empty list.
    pub ignore_not_found: bool,
    /// Print the initial list (not with `--watch-only`).
    pub print_list: bool,
    pub rules: Rules,
    pub timeout: Option<Duration>,
    /// `--request-timeout`: cuts a watch quietly, as in kubectl (`None`: never).
    pub request_timeout: Option<Duration>,
    pub output: OutputPlan,
    pub all_namespaces: bool,
    /// `-n a,b` or `-n 'team-*'`: several namespaces, watched cluster-wide and filtered.
    pub namespace_set: Option<Arc<NamespaceSet>>,
    pub label_selector: Option<String>,
    pub field_selector: Option<String>,
    pub chunk_size: u64,
    pub max_object_size: usize,
    /// `--context a,b`, `--context 'prod-*'`, `--all-contexts`: objects are labelled with the
    /// context they came from.
    pub several_contexts: bool,
    /// Tell on stderr why a wait for `ready`/`failed` goes on (not with `--quiet`).
    pub explain_waits: bool,
    /// Say why, once, when a wait on objects' state fails or runs out: the summary (with
    /// `--quiet` too: it is the verdict's cause, not commentary).
    pub summarize: bool,
    /// Get the initial state of a JSON watch from a streaming list (`KW_STREAMING_LIST=1`, read
    /// by `main`) rather than a gzipped LIST as kubectl does.
    pub streaming_list: bool,
}

/// When a run must stop: `--request-timeout` cuts a watch quietly (kubectl's meaning);
/// `--timeout` is a failure of its own.
#[derive(Debug, Clone, Copy)]
pub struct Deadlines {
    request: Option<Instant>,
    timeout: Option<Instant>,
}

impl Deadlines {
    /// The watcher stops at the earlier of the two.
    pub fn watcher(&self) -> Option<Instant> {
        match (self.request, self.timeout) {
            (Some(r), Some(t)) => Some(r.min(t)),
            (r, t) => r.or(t),
        }
    }

    /// Whether `--timeout` (and not an earlier `--request-timeout`) is what ended the run.
    pub fn timed_out(&self, now: Instant) -> bool {
        self.timeout
            .is_some_and(|t| now >= t && self.request.is_none_or(|r| t <= r))
    }
}

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
        GetPlan::from_args(args)
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
        self.plan.request_timeout = match flag {
            Some(value) => crate::config::flags::parse_request_timeout(value)?,
            None => None,
        };
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

impl GetPlan {
    fn from_args(args: &GetArgs) -> Result<FlagPlan, PlanError> {
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
            summarize: asks_readiness,
            rules,
            streaming_list: false,
        };
        Ok(FlagPlan {
            plan,
            template_file,
            missing_keys_refused: !args.allow_missing_template_keys,
        })
    }

    /// Take `-n`: a comma list or a glob chooses several namespaces (`-A` beats it, as it beats
    /// any `-n` in kubectl). Named objects are looked up in one namespace only.
    fn with_namespace_flag(mut self, flag: Option<&str>) -> Result<GetPlan, PlanError> {
        let Some(flag) = flag.filter(|_| !self.all_namespaces) else {
            return Ok(self);
        };
        // Each namespace of a list or glob, as client-go checks one (`..` is no glob).
        for namespace in flag.split(',') {
            check_namespace(namespace.trim())?;
        }
        let Some(set) = NamespaceSet::parse(flag)? else {
            return Ok(self);
        };
        let named = match &self.request {
            Request::Types(types) => types.iter().any(|(_, names)| !names.is_empty()),
            Request::Manifest { .. } => true,
        };
        if named {
            return Err(PlanError::NamesAcrossNamespaces {
                set: set.to_string(),
            });
        }
        self.namespace_set = Some(Arc::new(set));
        Ok(self)
    }

    /// The same plan run in several contexts at once: output labelled with the context.
    pub fn for_several_contexts(mut self) -> GetPlan {
        self.several_contexts = true;
        self
    }

    /// Start JSON watches from a streaming list (`KW_STREAMING_LIST=1`).
    pub fn with_streaming_list(mut self, streaming_list: bool) -> GetPlan {
        self.streaming_list = streaming_list;
        self
    }

    /// Rows show a NAMESPACE column: `-A`, or several namespaces.
    fn across_namespaces(&self) -> bool {
        self.all_namespaces || self.namespace_set.is_some()
    }

    /// `-o name` under `--until` prints as kubectl wait does: each object once, with the event
    /// it first meets an `--until` condition with (the CI recipe's one line per object). Other
    /// formats, and `-o name` with `-w` given, print every event, as a watch does: they tell
    /// the story.
    pub fn prints_once(&self) -> bool {
        !self.live
            && !self.watch_asked
            && !self.rules.until.is_empty()
            && matches!(
                self.output.format,
                OutputFormat::Name | OutputFormat::ConditionMet { .. }
            )
    }

    /// Conditions or `--max-events` end this run on their own.
    pub fn has_rules(&self) -> bool {
        self.rules.has_conditions() || self.rules.max_events.is_some()
    }

    /// The deadlines of a run started at `started`.
    pub fn deadlines(&self, started: Instant) -> Deadlines {
        let after = |d: Duration| started.checked_add(d);
        Deadlines {
            request: self
                .request_timeout
                .filter(|_| self.watching)
                .and_then(after),
            timeout: self.timeout.and_then(after),
        }
    }

    pub fn watcher_options(&self, deadline: Option<Instant>) -> Options {
        Options {
            table: self.output.format.is_table(),
            chunk_size: self.chunk_size,
            watch: self.watching,
            print_list: self.print_list || self.measures_list(),
            deadline,
            max_object_size: self.max_object_size,
            // kubectl's rollout status GETs the object first: under its rules it must exist.
            named_must_exist: !self.rules.has_conditions()
                || self.rules.readiness != crate::readiness::status_viewer::Readiness::Kw
                || self.kubectl_wait_gets_first(),
            give_up_at_start: !(self.several_contexts && self.watching),
            streaming_list: self.streaming_list,
        }
    }

    /// `kw wait -f`: kubectl waits on a manifest's objects in the file's order, which is known
    /// once the run has read it (`names`, in that order); its printer says them in that order.
    pub fn with_manifest_order(mut self, names: impl Iterator<Item = String>) -> GetPlan {
        if let (Request::Manifest { .. }, OutputFormat::ConditionMet { order, .. }) =
            (&self.request, &mut self.output.format)
        {
            *order = names.collect();
        }
        self
    }

    /// kubectl wait GETs each named object before waiting on it (but for `--for=create` and
    /// `--for=delete`): under its printer, an object that does not exist fails at once.
    fn kubectl_wait_gets_first(&self) -> bool {
        matches!(self.output.format, OutputFormat::ConditionMet { .. })
            && !self
                .rules
                .until
                .iter()
                .any(|e| matches!(e, Expr::Create | Expr::Delete))
    }

    /// The watcher targets for what discovery found, in order. Objects named one by one
    /// (several names, or a manifest) are watched one watcher each when waiting on them; a
    /// plain watch keeps kubectl's rule of one name per type.
    pub fn targets(
        &self,
        wanted: Vec<Wanted>,
        default_namespace: &str,
    ) -> Result<Vec<Target>, PlanError> {
        let split_names =
            self.rules.has_conditions() || matches!(self.request, Request::Manifest { .. });
        let mut wanted = wanted;
        if self.watching {
            if !split_names {
                // One name per type, counted over the whole request (`po/a deploy/b po/c`
                // names two pods).
                for w in &wanted {
                    let named: usize = wanted
                        .iter()
                        .filter(|other| other.resource == w.resource)
                        .map(|other| other.names.len())
                        .sum();
                    if named > 1 {
                        return Err(PlanError::TooManyNames(named));
                    }
                }
            }
            if split_names {
                wanted = wanted
                    .into_iter()
                    .flat_map(|w| {
                        if w.names.len() <= 1 {
                            return vec![w];
                        }
                        w.names
                            .iter()
                            .map(|name| Wanted {
                                resource: w.resource.clone(),
                                names: vec![name.clone()],
                                namespace: w.namespace.clone(),
                            })
                            .collect()
                    })
                    .collect();
            }
        }
        // Table rows carry only metadata unless a printer or a condition needs the object.
        let include_object = self.output.format.is_table()
            && (self.rules.needs_object()
                || self.output.sort_by.is_some()
                || self.output.diff.is_some());
        let targets = wanted.into_iter().map(|w| Target {
            namespace: if self.across_namespaces() || !w.resource.namespaced {
                None
            } else {
                Some(w.namespace.unwrap_or_else(|| default_namespace.to_string()))
            },
            namespace_set: self
                .namespace_set
                .clone()
                .filter(|_| !self.all_namespaces && w.resource.namespaced),
            resource: w.resource,
            names: w.names,
            label_selector: self.label_selector.clone(),
            field_selector: self.field_selector.clone(),
            include_object,
        });
        if self.watching {
            return Ok(targets.collect());
        }
        // A list of a manifest's objects: neighbours of one type in one namespace are one
        // target, so one table, as kubectl prints them (a new header where the kind changes).
        let mut merged: Vec<Target> = Vec::new();
        for target in targets {
            match merged.last_mut() {
                Some(last)
                    if !last.names.is_empty()
                        && !target.names.is_empty()
                        && last.resource == target.resource
                        && last.namespace == target.namespace =>
                {
                    last.names.extend(target.names)
                }
                _ => merged.push(target),
            }
        }
        Ok(merged)
    }

    /// Several types print a kind in front of each name (`pod/web`), as kubectl does.
    pub fn with_kind(&self, targets: &[Target]) -> bool {
        self.output.show_kind || several_types(targets)
    }

    /// How to print the objects of `resource` in a run over `targets`.
    pub fn print_options(
        &self,
        resource: &ResourceInfo,
        targets: &[Target],
        color: bool,
        terminal: bool,
        width: Option<usize>,
        started: SystemTime,
    ) -> PrintOptions {
        let output = &self.output;
        let several_types = several_types(targets);
        PrintOptions {
            // The run's: where its judge leaves each event's judgement.
            judged: None,
            format: output.format.clone(),
            watch_events: output.watch_events,
            watching: self.watching,
            // Several types under -A keep the column for the cluster-scoped ones too, as kubectl.
            all_namespaces: self.across_namespaces() && (resource.namespaced || several_types),
            with_context: self.several_contexts,
            no_headers: output.no_headers,
            single_object: !self.watching && targets.len() == 1 && targets[0].names.len() == 1,
            show_managed_fields: output.show_managed_fields,
            show_labels: output.show_labels,
            label_columns: output.label_columns.clone(),
            sort_by: output.sort_by.clone(),
            timestamps: output.timestamps,
            started: Some(started),
            color,
            terminal,
            // The caller asked the terminal, so that neither the plan nor the printers do.
            width,
            diff: output.diff,
            ignore_unchanged: output.ignore_unchanged,
            only: output.only.clone(),
            measure_list: self.measures_list(),
        }
    }

    /// `--watch-only` with a table: the watcher delivers the initial list for the printer to
    /// measure (a terminal table's column widths, `--diff`'s memory) and not print. Not with
    /// rules: `--max-events` counts the events delivered.
    fn measures_list(&self) -> bool {
        self.watching && !self.print_list && self.output.format.is_table() && !self.has_rules()
    }

    /// What kubectl says on stderr when a one-shot get printed nothing (nothing under
    /// `--ignore-not-found`).
    pub fn no_resources_message(&self, targets: &[Target], namespace: &str) -> Option<String> {
        if self.ignore_not_found {
            return None;
        }
        Some(
            if let Some(set) = self.namespace_set.as_ref().filter(|_| !self.all_namespaces) {
                format!("No resources found in namespaces {set}.")
            } else if self.all_namespaces || !targets.iter().any(|t| t.resource.namespaced) {
                "No resources found".to_string()
            } else {
                format!("No resources found in {namespace} namespace.")
            },
        )
    }

    /// The `--timeout` message: what was being waited for.
    pub fn timeout_message(&self) -> String {
        let waited = humantime::format_duration(self.timeout.unwrap_or_default());
        let until: Vec<String> = self.rules.until.iter().map(|e| e.to_string()).collect();
        if until.is_empty() {
            format!("--timeout {waited} ran out")
        } else {
            format!(
                "timed out after {waited} waiting for --until {}",
                until.join(" or ")
            )
        }
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

fn several_types(targets: &[Target]) -> bool {
    targets.iter().any(|t| t.resource != targets[0].resource)
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
fn fail_grace_of(text: Option<&str>) -> Result<Duration, PlanError> {
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

/// `TYPE`, `TYPE NAME...`, `TYPE1,TYPE2`, `TYPE/NAME...` into types and their names, in the
/// order given (`po/a deploy/b po/c` is three groups).
pub fn parse_targets(targets: &[String]) -> Result<Vec<(String, Vec<String>)>, PlanError> {
    let groups = parse_target_groups(targets)?;
    for name in groups.iter().flat_map(|(_, names)| names) {
        check_name(name)?;
    }
    Ok(groups)
}

fn parse_target_groups(targets: &[String]) -> Result<Vec<(String, Vec<String>)>, PlanError> {
    let Some(first) = targets.first() else {
        return Err(PlanError::NoType);
    };
    if !first.contains('/') {
        let types: Vec<&str> = first.split(',').collect();
        if types.iter().any(|t| t.is_empty()) {
            return Err(PlanError::EmptyType {
                typed: first.clone(),
            });
        }
        let names = targets[1..].to_vec();
        // `pod a/b`: a TYPE, then a name in TYPE/NAME form.
        if let Some(slashed) = names.iter().find(|n| n.contains('/')) {
            return Err(PlanError::TypeBeforeSlashForm {
                target: slashed.clone(),
            });
        }
        if types.len() > 1 && !names.is_empty() {
            return Err(PlanError::NamesWithSeveralTypes);
        }
        return Ok(types
            .into_iter()
            .map(|t| (t.to_string(), names.clone()))
            .collect());
    }
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for target in targets {
        let Some((kind, name)) = target.split_once('/') else {
            return Err(PlanError::TypeBeforeSlashForm {
                target: target.clone(),
            });
        };
        if kind.is_empty() || name.is_empty() || name.contains('/') {
            return Err(PlanError::BadSlashForm {
                target: target.clone(),
            });
        }
        // Neighbours of one type share a group; a type named again later starts another, so
        // objects come in the order named, as kubectl prints them.
        match groups.last_mut() {
            Some((t, names)) if t == kind => names.push(name.to_string()),
            _ => groups.push((kind.to_string(), vec![name.to_string()])),
        }
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use crate::config::settings::path_segment_refusal;
    use clap::Parser;

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
            "--until \"readyy\": unknown condition (use ready, delete, create, \
             condition=NAME[=VALUE] or jsonpath='{.PATH}'[=VALUE])"
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
        assert_eq!(
            p.timeout_message(),
            format!(
                "--timeout {} ran out",
                humantime::format_duration(Duration::from_secs(u64::MAX))
            )
        );
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
            crate::run::get(get, &cli.config, &crate::notices::Notices::new(false)).unwrap_err();
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
        let error = crate::run::get(get, &cli.config, &crate::notices::Notices::new(false))
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
