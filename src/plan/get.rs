//! `kw get`, decided: the plan, and what it makes of what discovery found (the watcher
//! targets, the printer's options, the words for an empty answer).

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use kw_client::config::settings::check_namespace;
use kw_client::discovery::Wanted;
use kw_events::events::ResourceInfo;
use kw_output::output::printer::{OutputFormat, PrintOptions};
use kw_wait::wait::{Expr, Rules};
use kw_watcher::watcher::namespaces::NamespaceSet;
use kw_watcher::watcher::{Options, Target};

use super::deadlines::Deadlines;
use super::error::PlanError;
use super::output::OutputPlan;
use super::request::Request;

/// `kw get`, decided.
#[derive(Debug, Clone)]
pub struct GetPlan {
    pub request: Request,
    /// Keep watching after the list (`-w`, `--watch-only`, `--live`, or any condition).
    pub watching: bool,
    /// `--live`: the current state redrawn in place on the terminal (`kw_output::output::live`).
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
    /// `--quiet`: not even what a watch waits for (a namespace yet to be created) is said.
    pub quiet: bool,
    /// Said on stderr once the first list is printed, under the rows it explains (`kw demo`'s
    /// banner).
    pub after_listing: Option<String>,
    /// Say why, once, when a wait on objects' state fails or runs out: the summary (with
    /// `--quiet` too: it is the verdict's cause, not commentary).
    pub summarize: bool,
    /// Get the initial state of a JSON watch from a streaming list (`KW_STREAMING_LIST=1`, read
    /// by `main`) rather than a gzipped LIST as kubectl does.
    pub streaming_list: bool,
    /// `--logs`: the containers whose logs are shown on stderr while the run waits.
    pub logs: Option<Logs>,
    /// Where those logs go: `None`, stderr (a wait's diagnostics); `Some(jsonl)`, stdout
    /// (`kw logs -w --until`, where they are the output), as JSON lines or not.
    pub logs_on_stdout: Option<bool>,
    /// Which containers and lines (`kw logs -w -c REGEX --exclude-container/--include/--exclude`).
    pub logs_container: Option<super::LogFilters>,
    /// `--subresource` (`status`, `scale`) of a one-shot get of named objects; `None` under a
    /// watch, which kubectl reads without it.
    pub subresource: Option<String>,
}

/// Which containers `--logs` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Logs {
    /// Every container of the Pods followed.
    All,
    /// Only those that crashed or are not ready (`--logs=failed`).
    Failed,
}

impl Logs {
    /// `--logs`'s value, as clap checked it (`all` or `failed`).
    pub fn of(value: Option<&str>) -> Option<Logs> {
        value.map(|v| match v {
            "failed" => Logs::Failed,
            _ => Logs::All,
        })
    }
}

impl GetPlan {
    /// Take `-n`: a comma list or a glob chooses several namespaces (`-A` beats it, as it beats
    /// any `-n` in kubectl). Named objects are looked up in one namespace only.
    pub(super) fn with_namespace_flag(mut self, flag: Option<&str>) -> Result<GetPlan, PlanError> {
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
            Request::Resolved(types) => types.iter().any(|(_, names)| !names.is_empty()),
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
            table: self.output.format.is_table() && !self.output.client_side_table,
            chunk_size: self.chunk_size,
            watch: self.watching,
            print_list: self.print_list || self.measures_list(),
            deadline,
            max_object_size: self.max_object_size,
            // kubectl's rollout status GETs the object first: under its rules it must exist.
            named_must_exist: !self.rules.has_conditions()
                || self.rules.readiness != kw_events::readiness::status_viewer::Readiness::Kw
                || self.kubectl_wait_gets_first(),
            give_up_at_start: !(self.several_contexts && self.watching),
            streaming_list: self.streaming_list,
            tells_waits: !self.quiet,
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
        // kubectl's builder refuses a subresource of a whole collection; its watch has none.
        if self.subresource.is_some() && wanted.iter().any(|w| w.names.is_empty()) {
            return Err(PlanError::BulkSubresource);
        }
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
            subresource: self.subresource.clone(),
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
        self.check_sorted_tables(&merged)?;
        Ok(merged)
    }

    /// kubectl gets a table as one server Table per request (a list, or one named object) and
    /// sorts several by the field on the Tables themselves: unless the field is one a Table
    /// has (`.kind`), none has it and kubectl refuses before printing.
    fn check_sorted_tables(&self, targets: &[Target]) -> Result<(), PlanError> {
        let Some(sort_by) = self.output.sort_by.as_ref() else {
            return Ok(());
        };
        let requests: usize = targets.iter().map(|t| t.names.len().max(1)).sum();
        if !self.output.format.is_table() || self.rules.has_conditions() || requests < 2 {
            return Ok(());
        }
        let table = serde_json::json!({
            "apiVersion": "meta.k8s.io/v1",
            "kind": "Table",
            "metadata": {"resourceVersion": ""},
            "columnDefinitions": [],
            "rows": [],
        });
        let found = sort_by
            .path
            .find(&table)
            .is_ok_and(|groups| groups.first().is_some_and(|g| !g.is_empty()));
        match found {
            true => Ok(()),
            false => Err(PlanError::SortTables(sort_by.template.clone())),
        }
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
            format: output.format.clone(),
            watch_events: output.watch_events,
            watching: self.watching,
            // Several types under -A keep the column for the cluster-scoped ones too, as kubectl.
            all_namespaces: self.across_namespaces() && (resource.namespaced || several_types),
            with_context: self.several_contexts,
            no_headers: output.no_headers,
            single_object: !self.watching && targets.len() == 1 && targets[0].names.len() == 1,
            named_object: targets.len() == 1 && targets[0].names.len() == 1,
            show_managed_fields: output.show_managed_fields,
            show_labels: output.show_labels,
            label_columns: output.label_columns.clone(),
            sort_by: output.sort_by.clone(),
            client_side_table: output.client_side_table,
            kind_in_names: self.with_kind(targets),
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
            // The run's: `--timeout` from when it started.
            deadline: None,
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
        // kubectl says it from its table path only (`-o name|json|yaml|jsonpath|...` print an
        // empty list, or nothing, in silence).
        let kubectls_generic = matches!(
            self.output.format,
            OutputFormat::Name
                | OutputFormat::Json
                | OutputFormat::Yaml
                | OutputFormat::JsonPath { .. }
                | OutputFormat::GoTemplate { .. }
                | OutputFormat::CustomColumns { .. }
        );
        if self.ignore_not_found || kubectls_generic {
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
}

pub(super) fn several_types(targets: &[Target]) -> bool {
    targets.iter().any(|t| t.resource != targets[0].resource)
}
