//! Listing: read a complete list (paged), compare it with what was printed, and print the
//! difference; retry what is worth retrying; and `kw get TYPE NAME` without a watch.

use std::time::Instant;

use serde_json::value::RawValue;

use crate::watcher::ends::{end_of_sync, Interrupted};
use crate::watcher::error::WatchError;
use crate::watcher::namespace_access;
use crate::watcher::namespaces::NamespaceSet;
use crate::watcher::pacing::retry_pause;
use crate::watcher::state::{listed_event, seen_of, WatchState};
use kw_base::log;
use kw_base::vlog;
use kw_client::client::ClientError;
use kw_events::decode::{self, ListBody, ObjectHead, TableBody};
use kw_events::events::{Origin, Sink};
use kw_wire::EventType;

/// The pages one list may take, restarts after an expired continue token included: 10,000
/// pages of `--chunk-size` 500 is five million objects, past any real cluster.
pub const MAX_LIST_PAGES: u32 = 10_000;

/// Why a list was not read to its end.
pub(super) enum SyncError {
    Deadline,
    Fatal(Interrupted),
}

/// Read a complete list and print how it differs from what was printed before (everything is
/// new the first time). Restarts if a continue token expires half-way.
pub(super) fn sync(
    state: &mut WatchState<'_>,
    sink: &mut dyn Sink,
    origin: Origin,
    print: bool,
    first: bool,
) -> Result<(), SyncError> {
    // Counted over restarts too: a server that expires every token must not loop either.
    let mut pages = 0u32;
    'restart: loop {
        state.known.begin_sync();
        let mut continue_token: Option<String> = None;
        loop {
            let path = state
                .target
                .list_path(state.options.chunk_size, continue_token.as_deref());
            pages += 1;
            if pages > MAX_LIST_PAGES {
                return Err(SyncError::Fatal(Interrupted::Failed(
                    WatchError::TooManyPages {
                        path: state.target.list_path(0, None),
                        pages: MAX_LIST_PAGES,
                    },
                )));
            }
            let body = match get_with_retry(state, &path, first) {
                Ok(body) => body,
                Err(SyncError::Fatal(Interrupted::Failed(WatchError::Client(
                    ClientError::Status { code: 410, .. },
                )))) if continue_token.is_some() => {
                    vlog!(
                        log::REQUESTS,
                        "continue token expired; listing again from the start"
                    );
                    continue 'restart;
                }
                Err(e) => return Err(e),
            };
            let next = read_list_page(state, &body, &path, sink, origin, print)
                .map_err(SyncError::Fatal)?;
            match next {
                Some(token) => continue_token = Some(token),
                None => break,
            }
        }
        for gone in state.known.end_sync() {
            if print {
                state
                    .emit_gone(sink, &gone, origin)
                    .map_err(SyncError::Fatal)?;
            }
        }
        return Ok(());
    }
}

/// Print one page; returns the continue token if there are more pages.
fn read_list_page(
    state: &mut WatchState<'_>,
    body: &[u8],
    path: &str,
    sink: &mut dyn Sink,
    origin: Origin,
    print: bool,
) -> Result<Option<String>, Interrupted> {
    let bad = |reason: String| WatchError::BadResponse {
        path: path.to_string(),
        reason,
    };
    if state.tables() && !is_table(body) {
        state.tables_unavailable();
    }
    if state.tables() {
        let table: TableBody = serde_json::from_slice(body).map_err(|e| bad(e.to_string()))?;
        if let Some(columns) = table.column_definitions {
            state.take_columns(columns);
        }
        // A list's resourceVersion replaces what was seen, even when empty (a re-list starts
        // over).
        state.resource_version = table.metadata.resource_version.into_owned();
        for row in &table.rows {
            let object = row.object.unwrap_or(RawValue::NULL);
            // A row's cells count with its object, as both count in a watch event's line.
            check_item_size(state, row.size(), path)?;
            let cells = row
                .printed_cells(state.column_count())
                .map_err(|e| bad(e.to_string()))?;
            let head: ObjectHead = decode::object_head(object.get()).unwrap_or_default();
            let seen = seen_of(&head, Some(&cells));
            let change = state.known.listed(&seen);
            if print {
                if let Some(kind) = listed_event(change) {
                    state.emit(sink, kind, origin, object, &head, Some(&cells), false)?;
                }
            }
        }
        Ok(table
            .metadata
            .continue_token
            .map(|c| c.into_owned())
            .filter(|c| !c.is_empty()))
    } else {
        let list: ListBody = serde_json::from_slice(body).map_err(|e| bad(e.to_string()))?;
        state.resource_version = list.metadata.resource_version.into_owned();
        for item in &list.items {
            check_item_size(state, item.get().len(), path)?;
            let head: ObjectHead =
                decode::object_head(item.get()).map_err(|e| bad(e.to_string()))?;
            let seen = seen_of(&head, None);
            let change = state.known.listed(&seen);
            if print {
                if let Some(kind) = listed_event(change) {
                    let lacks_type = head.kind.is_empty() || head.api_version.is_empty();
                    state.emit(sink, kind, origin, item, &head, None, lacks_type)?;
                }
            }
        }
        Ok(list
            .metadata
            .continue_token
            .map(|c| c.into_owned())
            .filter(|c| !c.is_empty()))
    }
}

/// `--max-object-size` holds for each object of a list, as for each watch event.
fn check_item_size(state: &WatchState<'_>, size: usize, path: &str) -> Result<(), WatchError> {
    let limit = state.options.max_object_size;
    if size > limit {
        return Err(WatchError::ItemTooLarge {
            path: path.split('?').next().unwrap_or_default().to_string(),
            limit,
        });
    }
    Ok(())
}

/// GET with retries for what is worth retrying. The first list of a run fails fast when the
/// server cannot be reached at all (a typo in the server address should not hang).
fn get_with_retry(
    state: &mut WatchState<'_>,
    path: &str,
    first: bool,
) -> Result<Vec<u8>, SyncError> {
    let mut attempts = 0u32;
    loop {
        if state.deadline_passed() {
            return Err(SyncError::Deadline);
        }
        attempts += 1;
        let error = match state.client.get_list(path, state.accept()) {
            Ok(body) => {
                state.backoff.healthy(Instant::now());
                kw_base::notices::recovered();
                return Ok(body);
            }
            Err(ClientError::Status { code: 406, .. }) if state.tables() => {
                state.tables_unavailable();
                continue;
            }
            Err(e @ ClientError::DeadlinePassed { .. }) => {
                // The run's end, not a failure: the caller says how the run ended.
                kw_base::notices::notice(&e.to_string());
                return Err(SyncError::Deadline);
            }
            Err(e) => e,
        };
        let give_up = first && state.options.give_up_at_start;
        let pause = match retry_pause(&error, &mut state.backoff) {
            Some(pause) if !(give_up && attempts >= 5) => pause,
            _ => return Err(SyncError::Fatal(error.into())),
        };
        if give_up
            && matches!(
                error,
                ClientError::Unreachable { .. } | ClientError::Tls { .. }
            )
        {
            return Err(SyncError::Fatal(error.into()));
        }
        kw_base::notices::trouble(&format!("{error}; retrying in {:.1}s", pause.as_secs_f64()));
        if state.sleep(pause) {
            return Err(SyncError::Deadline);
        }
    }
}

/// `kw get TYPE NAME...` without a watch: GET each; print what exists, then fail for the rest.
pub(super) fn get_named(
    state: &mut WatchState<'_>,
    sink: &mut dyn Sink,
) -> Result<(), Interrupted> {
    let mut missing: Vec<ClientError> = Vec::new();
    let names = state.target.names.clone();
    for name in &names {
        let path = state.target.named_get_path(name);
        let body = match state.client.get(&path, state.accept()) {
            Ok(body) => body,
            Err(e @ ClientError::Status { code: 404, .. }) => {
                // kubectl prints the objects it found and reports the missing ones after.
                missing.push(e);
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        if state.tables() && !is_table(&body) {
            state.tables_unavailable();
        }
        if state.tables() {
            read_list_page(state, &body, &path, sink, Origin::List, true)?;
        } else {
            let object: &RawValue =
                serde_json::from_slice(&body).map_err(|e| WatchError::BadResponse {
                    path: path.clone(),
                    reason: e.to_string(),
                })?;
            let head: ObjectHead =
                serde_json::from_str(object.get()).map_err(|e| WatchError::BadResponse {
                    path: path.clone(),
                    reason: e.to_string(),
                })?;
            state.emit(
                sink,
                EventType::Added,
                Origin::List,
                object,
                &head,
                None,
                false,
            )?;
        }
    }
    end_of_sync(sink)?;
    if missing.is_empty() {
        Ok(())
    } else {
        Err(WatchError::NotFound(missing).into())
    }
}

/// `-n nosuch -w`: a watch in a namespace that does not exist is valid (its objects arrive
/// once it is created), but looks like a quiet cluster: after an empty first list, say so
/// once and go on waiting. So for `-n 'nosuch*'` when no namespace matches. A server that will
/// not tell (403) gets no notice.
pub(super) fn say_if_namespace_missing(state: &WatchState<'_>) {
    if !state.options.watch || !state.options.tells_waits {
        return;
    }
    if let Some(set) = &state.target.namespace_set {
        say_if_no_namespace_matches(state, set);
        return;
    }
    if !state.known.is_empty() {
        return;
    }
    let Some(path) = state.target.namespace_path() else {
        return;
    };
    if let Err(ClientError::Status { code: 404, .. }) = state.client.get(&path, "application/json")
    {
        let namespace = state.target.namespace.as_deref().unwrap_or_default();
        kw_base::notices::notice_once(&format!(
            "namespace \"{namespace}\" does not exist yet; waiting for it to be created"
        ));
    }
}

/// `-n 'nosuch*' -w`: the cluster-wide watch lists the other namespaces' objects, so only the
/// namespaces themselves tell whether the set matches any yet.
fn say_if_no_namespace_matches(state: &WatchState<'_>, set: &NamespaceSet) {
    if !state.target.resource.namespaced || state.known.any_in(|ns| state.target.shows(ns)) {
        return;
    }
    let Ok(names) = namespace_access::namespace_names(&state.client) else {
        return;
    };
    if !names.iter().any(|name| set.contains(name)) {
        kw_base::notices::notice_once(&format!(
            "no namespace matches \"{set}\" yet; waiting for one to be created"
        ));
    }
}

/// `kw get TYPE NAME -w`: the object must exist when the watch starts, as in kubectl, so a
/// typo fails at once instead of looking like a quiet cluster. (Waiting for an object to
/// appear is `--until create`, which does not come here.)
pub(super) fn check_named_exists(state: &WatchState<'_>) -> Result<(), Interrupted> {
    let [name] = state.target.names.as_slice() else {
        return Ok(());
    };
    match state
        .client
        .get(&state.target.object_path(name), "application/json")
    {
        Err(e @ ClientError::Status { code: 404, .. }) => Err(WatchError::NotFound(vec![e]).into()),
        // Anything else is the watch's to meet (and retry, or report) as usual.
        _ => Ok(()),
    }
}

/// Whether a response body is a `meta.k8s.io` `Table` (checked on the head only).
pub(super) fn is_table(body: &[u8]) -> bool {
    std::str::from_utf8(body)
        .ok()
        .and_then(|text| decode::object_head(text).ok())
        .is_some_and(|head| head.kind == "Table")
}
