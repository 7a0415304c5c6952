//! In-process benchmarks of kw's per-event hot paths, on a realistic ~4 KB pod (the sim's
//! `po.json` fixture, the one kubectl's own fixtures were taken from):
//!
//! - framing a watch body into lines and decoding each event's head (type, identity, RV);
//! - printing: `-o jsonl` pass-through, `-o json` (kubectl-exact), the table row;
//! - re-list diffing: a 20,000-object list compared with what was printed.
//!
//! `cargo bench --bench hot_paths` measures; `cargo bench --bench hot_paths -- --test` runs each
//! benchmark once ("does it still run"). Whole-process figures against kubectl are
//! `benches/bench.sh`'s job.

use std::borrow::Cow;

use divan::counter::{BytesCount, ItemsCount};
use divan::Bencher;
use serde_json::value::RawValue;
use serde_json::Value;

use kw::decode::{Framer, ObjectHead, WireEvent};
use kw::events::{Event, Origin, ResourceInfo, TableRow};
use kw::output::printer::{self, OutputFormat, PrintOptions};
use kw::watcher::known::{Known, Seen};
use kw::wire::{EventType, TableColumnDefinition};

fn main() {
    divan::main();
}

const POD: &str = include_str!("../crates/kw-sim/src/fixtures/po.json");
/// Events per measured iteration of the stream benchmarks.
const EVENTS: usize = 1000;
/// Objects in the re-list benchmark.
const LISTED: usize = 20_000;

/// The fixture pod, compact, named `name` at `rv`.
fn pod(name: &str, rv: u64) -> String {
    let mut value: Value = serde_json::from_str(POD).unwrap_or(Value::Null);
    value["metadata"]["name"] = Value::from(name);
    value["metadata"]["uid"] = Value::from(format!("uid-{name}"));
    value["metadata"]["resourceVersion"] = Value::from(rv.to_string());
    value.to_string()
}

/// A watch body of `EVENTS` MODIFIED events, one per line, as the API server writes it.
fn watch_body() -> Vec<u8> {
    let mut body = Vec::new();
    for index in 0..EVENTS {
        body.extend_from_slice(br#"{"type":"MODIFIED","object":"#);
        body.extend_from_slice(pod(&format!("web-{}", index % 100), index as u64 + 1).as_bytes());
        body.extend_from_slice(b"}\n");
    }
    body
}

fn pods_resource() -> ResourceInfo {
    ResourceInfo {
        plural: "pods".into(),
        singular: "pod".into(),
        kind: "Pod".into(),
        group: String::new(),
        version: "v1".into(),
        namespaced: true,
    }
}

fn options(format: OutputFormat, watch_events: bool) -> PrintOptions {
    PrintOptions {
        format,
        watch_events,
        watching: true,
        all_namespaces: false,
        no_headers: false,
        ..PrintOptions::default()
    }
}

/// Frame every line and decode the envelope and the object's head, as the watcher does.
#[divan::bench]
fn frame_and_decode(bencher: Bencher) {
    let body = watch_body();
    bencher.counter(BytesCount::new(body.len())).bench(|| {
        let mut framer = Framer::new(&body[..], 64 << 20);
        let mut versions = 0usize;
        while let Ok(Some(frame)) = framer.next_frame() {
            let Ok(event) = kw::decode::wire_event(frame) else {
                break;
            };
            let head: ObjectHead = event.head().unwrap_or_default();
            versions += head.metadata.resource_version.len();
        }
        versions
    });
}

/// Print `EVENTS` events of one object with the printer `-o` chooses, into a reused buffer.
fn print_events(bencher: Bencher, format: OutputFormat, watch_events: bool) {
    let resource = pods_resource();
    let text = pod("web-1", 42);
    let Ok(object) = RawValue::from_string(text.clone()) else {
        return;
    };
    let mut printer = printer::new_printer(&options(format, watch_events));
    let mut out: Vec<u8> = Vec::with_capacity(8 << 20);
    bencher
        .counter(BytesCount::new(text.len() * EVENTS))
        .bench_local(|| {
            out.clear();
            for _ in 0..EVENTS {
                let event = Event {
                    kind: EventType::Modified,
                    origin: Origin::Watch,
                    resource: &resource,
                    object: &object,
                    object_lacks_type: false,
                    name: "web-1",
                    namespace: "default",
                    row: None,
                    context: None,
                    judged: None,
                };
                let _ = printer.print(&event, &mut out);
            }
            out.len()
        });
}

#[divan::bench]
fn print_jsonl(bencher: Bencher) {
    print_events(bencher, OutputFormat::Jsonl, false);
}

#[divan::bench]
fn print_jsonl_events(bencher: Bencher) {
    print_events(bencher, OutputFormat::Jsonl, true);
}

#[divan::bench]
fn print_json(bencher: Bencher) {
    print_events(bencher, OutputFormat::Json, false);
}

/// kubectl's pod columns, as the server sends them.
fn pod_columns() -> Vec<TableColumnDefinition> {
    let text = r#"[
        {"name":"Name","type":"string","format":"name","priority":0},
        {"name":"Ready","type":"string","priority":0},
        {"name":"Status","type":"string","priority":0},
        {"name":"Restarts","type":"string","priority":0},
        {"name":"Age","type":"string","priority":0},
        {"name":"IP","type":"string","priority":1},
        {"name":"Node","type":"string","priority":1},
        {"name":"Nominated Node","type":"string","priority":1},
        {"name":"Readiness Gates","type":"string","priority":1}
    ]"#;
    serde_json::from_str(text).unwrap_or_default()
}

/// Table rows with an EVENT column, flushed per event as in a watch.
#[divan::bench]
fn print_table_rows(bencher: Bencher) {
    let resource = pods_resource();
    let columns = pod_columns();
    let cells: Vec<Value> = serde_json::from_str(
        r#"["web-1","1/1","Running","3 (2d ago)","5d","10.244.1.17","node-1","<none>","<none>"]"#,
    )
    .unwrap_or_default();
    let object = RawValue::NULL;
    let mut printer = printer::new_printer(&options(OutputFormat::Table, true));
    let mut out: Vec<u8> = Vec::with_capacity(1 << 20);
    bencher.counter(ItemsCount::new(EVENTS)).bench_local(|| {
        out.clear();
        // One set of definitions for the whole watch, as the watcher numbers it.
        let generation = kw::events::next_column_generation();
        for _ in 0..EVENTS {
            let event = Event {
                kind: EventType::Modified,
                origin: Origin::Watch,
                resource: &resource,
                object,
                object_lacks_type: false,
                name: "web-1",
                namespace: "default",
                row: Some(TableRow {
                    columns: &columns,
                    cells: &cells,
                    generation,
                }),
                context: None,
                judged: None,
            };
            let _ = printer.print(&event, &mut out);
            let _ = printer.checkpoint(&mut out);
        }
        out.len()
    });
}

/// A re-list of `LISTED` objects against what was printed: a tenth changed, the rest not.
#[divan::bench]
fn relist_diff(bencher: Bencher) {
    let names: Vec<(String, String)> = (0..LISTED)
        .map(|index| (format!("pod-{index:05}"), format!("uid-{index:05}")))
        .collect();
    let seen = |index: usize, rv: &'static str| Seen {
        name: &names[index].0,
        namespace: "default",
        uid: &names[index].1,
        resource_version: rv,
        cells: None,
    };
    let mut known = Known::new(false);
    known.begin_sync();
    for index in 0..LISTED {
        known.listed(&seen(index, "10"));
    }
    let _ = known.end_sync();
    let mut round = 0u64;
    bencher.counter(ItemsCount::new(LISTED)).bench_local(|| {
        round += 1;
        // Alternate versions so that "changed" stays changed from one iteration to the next.
        let changed: &'static str = if round.is_multiple_of(2) { "11" } else { "12" };
        known.begin_sync();
        for index in 0..LISTED {
            let rv = if index % 10 == 0 { changed } else { "10" };
            known.listed(&seen(index, rv));
        }
        known.end_sync().len()
    });
}

/// The decode a table event needs: the Table envelope, its row, the row object's head.
#[divan::bench]
fn decode_table_event(bencher: Bencher) {
    let line = br#"{"type":"MODIFIED","object":{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"42"},"columnDefinitions":null,"rows":[{"cells":["web-1","1/1","Running","3 (2d ago)","5d","10.244.1.17","node-1","<none>","<none>"],"object":{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"name":"web-1","namespace":"default","uid":"0b8d4a52-3c1f-4a8e-9e7b-2f6a1c9d7e01","resourceVersion":"42","creationTimestamp":"2026-01-01T12:00:00Z","labels":{"app":"web"}}}}]}}"#;
    bencher.counter(ItemsCount::new(1usize)).bench(|| {
        let Ok(mut event) = kw::decode::table_event(line) else {
            return Cow::Borrowed("");
        };
        let head: ObjectHead = event
            .take_table()
            .ok()
            .flatten()
            .and_then(|table| table.rows.first().and_then(|row| row.head().ok()))
            .unwrap_or_default();
        Cow::Owned(head.metadata.resource_version.into_owned())
    });
}

/// The watch body's events, one frame each.
fn event_frames() -> Vec<Vec<u8>> {
    watch_body()
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

/// Checking a 4 KB pod event and finding its object: what kw must do to pass an event through
/// without printing anything that is not JSON. sonic-rs and simd-json were measured here too
/// (commit afe6a09: 1.70 and 0.92 GB/s against the scanner's 2.40 and serde_json's 1.49).
mod validate_event {
    use super::*;

    fn each(bencher: Bencher, check: impl Fn(&[u8]) -> usize + Sync) {
        let frames = event_frames();
        let bytes: usize = frames.iter().map(Vec::len).sum();
        bencher
            .counter(BytesCount::new(bytes))
            .bench(|| frames.iter().map(|frame| check(frame)).sum::<usize>());
    }

    /// serde_json, as kw decoded events before the scanner.
    #[divan::bench]
    fn serde_json(bencher: Bencher) {
        each(bencher, |frame| {
            serde_json::from_slice::<WireEvent>(frame).map_or(0, |e| e.object.get().len())
        });
    }

    /// kw's scanner (`kw::decode::scan`, through `decode::wire_event`).
    #[divan::bench]
    fn kw_scan(bencher: Bencher) {
        each(bencher, |frame| {
            kw::decode::wire_event(frame).map_or(0, |e| e.object.get().len())
        });
    }
}
