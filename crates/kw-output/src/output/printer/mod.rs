//! Printers: turn events into bytes on a writer. They know nothing of flags, HTTP or the watcher;
//! the printer is chosen once from `-o` (as kubectl's `cli-runtime/pkg/printers` does).
//!
//! `table` (default and `-o wide`, through `tabwriter`, cells by `cell`) and `json` reproduce
//! kubectl v1.32 byte for byte (`kw_go::goformat` holds Go's encoders); `jsonl` and `name` are
//! kw's own line formats. Printers write into the caller's buffered writer and never flush it.

mod as_list;
pub mod cell;
pub mod changes;
mod columns;
mod condition_met;
mod contract;
pub mod diff_lines;
mod extras;
pub mod fallback;
mod filter;
pub mod format;

mod go_sort;
mod go_template;
mod json;
mod jsonl;
mod name;
mod options;
mod raw_widths;
mod reencode;
mod rollout_status;
mod sort_keys;
mod sorted_list;
mod style;
mod table;
pub mod tabwriter;
mod template;
pub mod timestamp;
mod yaml;

pub use columns::ColumnsPrinter;
pub use condition_met::ConditionMetPrinter;
pub(crate) use contract::DecodedObject;
pub use contract::{Closing, ObjectDecodeError, Printer};
pub use diff_lines::DiffDetail;
pub use fallback::fallback_row;
pub use filter::parse_only;
pub use format::{check_label_flags, parse_output, Column, FormatError, OutputFormat};
pub use go_template::{GoTemplateError, GoTemplateOutOfTime, GoTemplatePrinter};
pub use json::JsonPrinter;
pub use jsonl::JsonlPrinter;
pub use name::NamePrinter;
pub(crate) use options::ObjectLayout;
pub use options::{PrintOptions, SortBy};
pub use rollout_status::RolloutStatusPrinter;
pub use sort_keys::{NothingSorted, SortFieldMissing, Unsortable};
pub use table::TablePrinter;
pub use template::{JsonPathPrinter, TemplateError};
pub use timestamp::TimestampFormat;
pub use yaml::{Dialect, YamlPrinter};

use kw_events::events::{Event, Origin};

/// Choose the printer for these options (behind the event filters when asked for).
pub fn new_printer(options: &PrintOptions) -> Box<dyn Printer> {
    let mut printer = format_printer(options);
    // kubectl sorts object formats only without --watch (tables it sorts either way).
    let sorts_objects = !options.format.is_table() && !options.watching;
    if let Some(sort_by) = options.sort_by.as_ref().filter(|_| sorts_objects) {
        printer = Box::new(sorted_list::SortingPrinter::new(
            printer,
            (&sort_by.template, &sort_by.path),
            options.single_object,
        ));
    }
    if !options.only.is_empty() || options.ignore_unchanged {
        printer = Box::new(filter::FilterPrinter::new(
            printer,
            &options.only,
            options.ignore_unchanged,
        ));
    }
    if options.measure_list {
        printer = Box::new(MeasuredList { inner: printer });
    }
    printer
}

/// `PrintOptions::measure_list`: the initial list is measured, not printed (nor filtered: the
/// filters judge printed events only).
struct MeasuredList {
    inner: Box<dyn Printer>,
}

impl Printer for MeasuredList {
    fn print_decoded(
        &mut self,
        event: &Event<'_>,
        object: DecodedObject<'_>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        if event.origin == Origin::List {
            return self.inner.measure_decoded(event, object);
        }
        self.inner.print_decoded(event, object, out)
    }

    fn checkpoint(&mut self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.inner.checkpoint(out)
    }

    fn finish(
        &mut self,
        closing: &Closing<'_>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        self.inner.finish(closing, out)
    }
}

fn format_printer(options: &PrintOptions) -> Box<dyn Printer> {
    match &options.format {
        OutputFormat::Table | OutputFormat::Wide => Box::new(TablePrinter::new(options)),
        OutputFormat::Json => Box::new(JsonPrinter::new(options)),
        OutputFormat::Jsonl => Box::new(JsonlPrinter::new(options)),
        OutputFormat::Name => Box::new(NamePrinter::new()),
        OutputFormat::Yaml => Box::new(YamlPrinter::new(options, Dialect::Yaml)),
        OutputFormat::Kyaml => Box::new(YamlPrinter::new(options, Dialect::Kyaml)),
        OutputFormat::JsonPath {
            template,
            path,
            as_json,
        } => Box::new(JsonPathPrinter::new(template, path, *as_json, options)),
        OutputFormat::GoTemplate { template, parsed } => {
            Box::new(GoTemplatePrinter::new(template, parsed, options))
        }
        OutputFormat::CustomColumns { columns, from_file } => {
            Box::new(ColumnsPrinter::new(columns, *from_file, options))
        }
        // Its revision is the judge's (`Readiness::Kubectl`): the printer only says.
        OutputFormat::RolloutStatus { .. } => Box::<RolloutStatusPrinter>::default(),
        OutputFormat::ConditionMet {
            inner,
            order,
            steps,
        } => {
            let inner = inner.as_ref().map(|format| {
                let options = PrintOptions {
                    format: (**format).clone(),
                    ..options.clone()
                };
                match **format {
                    // kubectl wait writes its objects straight out, not through the
                    // tabwriter of get's watch.
                    OutputFormat::Kyaml => {
                        Box::new(YamlPrinter::new(&options, Dialect::Kyaml).straight())
                    }
                    _ => format_printer(&options),
                }
            });
            Box::new(ConditionMetPrinter::new(inner, order, *steps))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;

    use super::*;
    use kw_events::events::{Event, Origin, ResourceInfo};
    use kw_wire::EventType;

    /// `--ignore-unchanged` reads each object to see whether it changed, and the printer behind
    /// it reads it again to print it (and `--diff` once more): they share one decode per event.
    #[test]
    fn a_filter_and_the_printer_behind_it_decode_each_object_once() {
        use crate::output::printer::contract::decoder;

        let resource = ResourceInfo {
            plural: "pods".into(),
            singular: "pod".into(),
            kind: "Pod".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced: true,
        };
        let objects = [
            r#"{"metadata":{"name":"web"},"spec":{"image":"nginx:1"}}"#,
            r#"{"metadata":{"name":"web"},"spec":{"image":"nginx:2"}}"#,
        ];
        let formats = [
            (OutputFormat::Yaml, false),
            (OutputFormat::Json, true),
            (OutputFormat::Jsonl, true),
            (OutputFormat::Table, false),
        ];
        for (format, watch_events) in formats {
            let options = PrintOptions {
                format: format.clone(),
                watch_events,
                watching: true,
                ignore_unchanged: true,
                only: vec![EventType::Added, EventType::Modified],
                diff: Some(DiffDetail::All),
                ..PrintOptions::default()
            };
            let mut printer = new_printer(&options);
            let mut out = Vec::new();
            let before = decoder::decodes();
            for (kind, text) in [EventType::Added, EventType::Modified]
                .into_iter()
                .zip(objects)
            {
                let raw = RawValue::from_string(text.into()).unwrap();
                let event = Event {
                    kind,
                    origin: Origin::Watch,
                    resource: &resource,
                    object: &raw,
                    object_lacks_type: true,
                    name: "web",
                    namespace: "default",
                    row: None,
                    context: None,
                    judged: None,
                };
                printer.print(&event, &mut out).unwrap();
                printer.checkpoint(&mut out).unwrap();
            }
            assert_eq!(decoder::decodes() - before, objects.len(), "{format:?}");
            assert!(
                String::from_utf8(out).unwrap().contains("nginx:2"),
                "{format:?}: the change is printed"
            );
        }
    }

    /// Every format gets a working printer (no `todo!`), and each writes what its format says.
    #[test]
    fn new_printer_builds_each_format() {
        let resource = ResourceInfo {
            plural: "pods".into(),
            singular: "pod".into(),
            kind: "Pod".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced: true,
        };
        let raw = RawValue::from_string(r#"{"metadata":{"name":"nginx"}}"#.into()).unwrap();
        let event = Event {
            kind: EventType::Added,
            origin: Origin::List,
            resource: &resource,
            object: &raw,
            object_lacks_type: true,
            name: "nginx",
            namespace: "default",
            row: None,
            context: None,
            judged: None,
        };
        let cases = [
            (OutputFormat::Name, "pod/nginx\n"),
            (
                OutputFormat::Jsonl,
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"nginx\"}}\n",
            ),
            (
                OutputFormat::Json,
                "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n    \"metadata\": {\n        \"name\": \"nginx\"\n    }\n}\n",
            ),
            // A table event without a row (the server could not print it) is laid out by kw,
            // from the object, with the kind's usual columns.
            (
                OutputFormat::Table,
                "NAME    READY   STATUS   RESTARTS   AGE\nnginx   0/0              0          <unknown>\n",
            ),
        ];
        for (format, expected) in cases {
            let options = PrintOptions {
                format: format.clone(),
                watch_events: false,
                watching: true,
                all_namespaces: false,
                no_headers: false,
                single_object: false,
                named_object: false,
                show_managed_fields: false,
                ..PrintOptions::default()
            };
            let mut printer = new_printer(&options);
            let mut out = Vec::new();
            printer.print(&event, &mut out).unwrap();
            printer.checkpoint(&mut out).unwrap();
            printer.finish(&Default::default(), &mut out).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), expected, "{format:?}");
        }
    }

    /// In a run over several contexts, every format says the context in its one place: a
    /// CONTEXT column, a `CONTEXT/` prefix, a top-level `kw.context` member (in the event
    /// envelope beside `synthetic`, else in the object).
    #[test]
    fn every_format_labels_the_context() {
        let resource = ResourceInfo {
            plural: "pods".into(),
            singular: "pod".into(),
            kind: "Pod".into(),
            group: String::new(),
            version: "v1".into(),
            namespaced: true,
        };
        let raw = RawValue::from_string(r#"{"metadata":{"name":"nginx"}}"#.into()).unwrap();
        let event = |origin| Event {
            kind: EventType::Added,
            origin,
            resource: &resource,
            object: &raw,
            object_lacks_type: true,
            name: "nginx",
            namespace: "default",
            row: None,
            context: Some("east"),
            judged: None,
        };
        let cases = [
            (OutputFormat::Name, false, "east/pod/nginx\n"),
            (
                OutputFormat::Jsonl,
                false,
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"nginx\"},\"kw\":{\"context\":\"east\"}}\n",
            ),
            (
                OutputFormat::Jsonl,
                true,
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"nginx\"}},\"kw\":{\"context\":\"east\",\"synthetic\":true}}\n",
            ),
            (
                OutputFormat::Json,
                false,
                "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Pod\",\n    \"kw\": {\n        \"context\": \"east\"\n    },\n    \"metadata\": {\n        \"name\": \"nginx\"\n    }\n}\n",
            ),
            (
                OutputFormat::Json,
                true,
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"nginx\"}},\"kw\":{\"context\":\"east\",\"synthetic\":true}}\n",
            ),
            (
                OutputFormat::Yaml,
                false,
                "apiVersion: v1\nkind: Pod\nkw:\n  context: east\nmetadata:\n  name: nginx\n",
            ),
            (
                OutputFormat::Table,
                false,
                "CONTEXT   NAME    READY   STATUS   RESTARTS   AGE\neast      nginx   0/0              0          <unknown>\n",
            ),
        ];
        for (format, watch_events, expected) in cases {
            let options = PrintOptions {
                format: format.clone(),
                watch_events,
                watching: true,
                with_context: true,
                ..PrintOptions::default()
            };
            let mut printer = new_printer(&options);
            let mut out = Vec::new();
            let origin = if watch_events {
                Origin::Relist
            } else {
                Origin::List
            };
            printer.print(&event(origin), &mut out).unwrap();
            printer.checkpoint(&mut out).unwrap();
            printer.finish(&Default::default(), &mut out).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), expected, "{format:?}");
        }
    }
}
