//! Fault injection: the faults a test or benchmark asks for, and the counters that decide which
//! list request or watch connection gets one. Watch handlers ask for a [`WatchFaults`] plan when
//! a watch starts; list handlers ask [`FaultState::take_list_fault`] per request.

use std::sync::Mutex;

use serde::{Deserialize, Serialize};

/// The faults to inject. Watch faults count events from zero on each watch connection.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Faults {
    /// Drop the TCP connection after N events (no terminating chunk).
    pub close_after: Option<u64>,
    /// Send half of event N+1's chunk, then drop the connection.
    pub cut_after: Option<u64>,
    /// After N events send a 410 Expired ERROR event and end the stream.
    pub expire_after: Option<u64>,
    /// After N events stop sending; keep the connection open `stall_secs`.
    pub stall_after: Option<u64>,
    pub stall_secs: u64,
    /// After N events send the first half of the next event one byte every `trickle_ms`
    /// (each byte flushed: under TLS a record of its own), then drop the connection: bytes
    /// that never make an event, which a per-read timeout never notices.
    pub trickle_after: Option<u64>,
    pub trickle_ms: u64,
    /// Answer the next `list_count` LIST requests with this status.
    pub list_status: Option<u16>,
    pub list_count: u64,
    /// The `message` of those list faults' Status instead of the usual one (hostile servers).
    pub list_message: Option<String>,
    /// The `Retry-After` header of those list faults, verbatim (429 sends `1` without it).
    pub list_retry_after: Option<String>,
    /// Answer watch requests with this HTTP status (for the first `times` watches).
    pub watch_status: Option<u16>,
    /// After N events send a line that is not JSON.
    pub invalid_json_after: Option<u64>,
    /// Pad the first event of each watch with an annotation of this many bytes.
    pub huge_object_bytes: Option<usize>,
    /// Watch faults fire for the first K watch connections only; `None` = all.
    pub times: Option<u64>,
    /// Watch faults fire only on watches of these resources (plurals); empty = every watch.
    /// A client that watches events beside its object would otherwise take the fault there.
    pub watch_resources: Vec<String>,
    /// Hold the answer to the first GET of a single object this many milliseconds (a slow
    /// server, for requests kw makes beside a watch).
    pub first_get_stall_ms: Option<u64>,
    /// Hold the answer to every LIST of these resources (plurals: `pods`, `replicasets`)
    /// `slow_list_ms` milliseconds: lists a client makes side by side then arrive in a known
    /// order (a Pod's list before its ReplicaSet's, or after).
    pub slow_lists: Vec<String>,
    pub slow_list_ms: u64,
    /// A followed container log (`follow=true`) sends this many lines, then nothing more while
    /// it holds the connection open `log_stall_secs` (then drops it): a stream that stalls while
    /// its container still runs, which only a client's idle rule notices. For the first
    /// `log_stall_times` followed logs only (`None`: every one).
    pub log_stall_after: Option<u64>,
    pub log_stall_secs: u64,
    pub log_stall_times: Option<u64>,
    /// Pad the head of every answer with a body (lists, objects, discovery) with a header of
    /// this many bytes: a response head larger than a client's buffer.
    pub head_padding_bytes: Option<usize>,
}

/// What one LIST request gets instead of its list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListFault {
    pub code: u16,
    pub message: Option<String>,
    pub retry_after: Option<String>,
}

/// What one watch connection must do wrong.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WatchFaults {
    pub close_after: Option<u64>,
    pub cut_after: Option<u64>,
    pub expire_after: Option<u64>,
    pub stall_after: Option<u64>,
    pub stall_secs: u64,
    pub trickle_after: Option<u64>,
    pub trickle_ms: u64,
    pub invalid_json_after: Option<u64>,
    pub huge_object_bytes: Option<usize>,
}

/// What the watch request itself gets instead of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchStart {
    Refuse(u16),
    Stream(WatchFaults),
}

/// How many times each fault has actually fired since the server started: what a test asserts
/// to show that the fault it asked for happened (a fault configured but never reached proves
/// nothing). Unlike the counters that decide which request gets a fault, these survive
/// `FaultState::set` (a new fault set).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FaultsFired {
    /// LIST requests answered with `list_status`.
    pub lists_failed: u64,
    /// Watch requests answered with `watch_status` instead of a stream.
    pub watches_refused: u64,
    /// Watch connections dropped by `close_after`.
    pub closed: u64,
    /// Events cut in half by `cut_after`.
    pub cut: u64,
    /// 410 Expired ERROR events sent by `expire_after`.
    pub expired: u64,
    /// Watch connections stalled by `stall_after`.
    pub stalled: u64,
    /// Events trickled by `trickle_after`.
    pub trickled: u64,
    /// Lines that are not JSON sent by `invalid_json_after`.
    pub invalid_json: u64,
    /// Events padded by `huge_object_bytes`.
    pub padded: u64,
    /// Followed logs stalled by `log_stall_after`.
    pub logs_stalled: u64,
}

/// One fault that fired, for [`FaultState::fired`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fired {
    Closed,
    Cut,
    Expired,
    Stalled,
    Trickled,
    InvalidJson,
    Padded,
    LogStalled,
}

struct Counters {
    faults: Faults,
    lists_failed: u64,
    watches_seen: u64,
    gets_seen: u64,
    log_follows_seen: u64,
}

/// The configured faults and how many times each has fired; shared by all connections.
pub struct FaultState {
    counters: Mutex<Counters>,
    fired: Mutex<FaultsFired>,
}

impl FaultState {
    pub fn new(faults: Faults) -> FaultState {
        FaultState {
            counters: Mutex::new(Counters {
                faults,
                lists_failed: 0,
                watches_seen: 0,
                gets_seen: 0,
                log_follows_seen: 0,
            }),
            fired: Mutex::new(FaultsFired::default()),
        }
    }

    fn lock_fired(&self) -> std::sync::MutexGuard<'_, FaultsFired> {
        self.fired.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Count a watch fault that has just fired.
    pub fn fired(&self, fault: Fired) {
        let mut fired = self.lock_fired();
        let count = match fault {
            Fired::Closed => &mut fired.closed,
            Fired::Cut => &mut fired.cut,
            Fired::Expired => &mut fired.expired,
            Fired::Stalled => &mut fired.stalled,
            Fired::Trickled => &mut fired.trickled,
            Fired::InvalidJson => &mut fired.invalid_json,
            Fired::Padded => &mut fired.padded,
            Fired::LogStalled => &mut fired.logs_stalled,
        };
        *count += 1;
    }

    /// Every fault fired so far.
    pub fn fired_so_far(&self) -> FaultsFired {
        *self.lock_fired()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Counters> {
        self.counters.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Replace the faults and restart every count.
    pub fn set(&self, faults: Faults) {
        let mut counters = self.lock();
        *counters = Counters {
            faults,
            lists_failed: 0,
            watches_seen: 0,
            gets_seen: 0,
            log_follows_seen: 0,
        };
    }

    /// The status this LIST must fail with, if any.
    pub fn take_list_fault(&self) -> Option<ListFault> {
        let mut counters = self.lock();
        let code = counters.faults.list_status?;
        if counters.lists_failed >= counters.faults.list_count {
            return None;
        }
        counters.lists_failed += 1;
        self.lock_fired().lists_failed += 1;
        Some(ListFault {
            code,
            message: counters.faults.list_message.clone(),
            retry_after: counters.faults.list_retry_after.clone(),
        })
    }

    /// How long to hold the answer to this LIST of `plural`, if at all.
    pub fn list_stall(&self, plural: &str) -> Option<std::time::Duration> {
        let counters = self.lock();
        let faults = &counters.faults;
        faults
            .slow_lists
            .iter()
            .any(|slow| slow == plural)
            .then(|| std::time::Duration::from_millis(faults.slow_list_ms))
    }

    /// How many bytes of padding the head of an answer gets, if any.
    pub fn head_padding(&self) -> Option<usize> {
        self.lock().faults.head_padding_bytes
    }

    /// How long to hold the answer to this GET of a single object, if at all.
    pub fn take_get_stall(&self) -> Option<std::time::Duration> {
        let mut counters = self.lock();
        counters.gets_seen += 1;
        let stall = counters.faults.first_get_stall_ms?;
        (counters.gets_seen == 1).then(|| std::time::Duration::from_millis(stall))
    }

    /// Count a new followed log and say whether it stalls: after how many lines, held how long.
    pub fn start_log_follow(&self) -> Option<(u64, std::time::Duration)> {
        let mut counters = self.lock();
        let index = counters.log_follows_seen;
        counters.log_follows_seen += 1;
        let faults = &counters.faults;
        let after = faults.log_stall_after?;
        if faults.log_stall_times.is_some_and(|times| index >= times) {
            return None;
        }
        Some((after, std::time::Duration::from_secs(faults.log_stall_secs)))
    }

    /// Count a new watch connection and say what it gets.
    pub fn start_watch(&self, resource: &str) -> WatchStart {
        let mut counters = self.lock();
        let only = &counters.faults.watch_resources;
        if !only.is_empty() && !only.iter().any(|r| r == resource) {
            return WatchStart::Stream(WatchFaults::default());
        }
        let index = counters.watches_seen;
        counters.watches_seen += 1;
        let faults = &counters.faults;
        if faults.times.is_some_and(|times| index >= times) {
            return WatchStart::Stream(WatchFaults::default());
        }
        if let Some(status) = faults.watch_status {
            self.lock_fired().watches_refused += 1;
            return WatchStart::Refuse(status);
        }
        WatchStart::Stream(WatchFaults {
            close_after: faults.close_after,
            cut_after: faults.cut_after,
            expire_after: faults.expire_after,
            stall_after: faults.stall_after,
            stall_secs: faults.stall_secs,
            trickle_after: faults.trickle_after,
            trickle_ms: faults.trickle_ms,
            invalid_json_after: faults.invalid_json_after,
            huge_object_bytes: faults.huge_object_bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_faults_fire_k_times() {
        let state = FaultState::new(Faults {
            list_status: Some(429),
            list_count: 2,
            ..Faults::default()
        });
        let fired: Vec<Option<u16>> = (0..3)
            .map(|_| state.take_list_fault().map(|fault| fault.code))
            .collect();
        assert_eq!(fired, [Some(429), Some(429), None]);
        state.set(Faults::default());
        assert_eq!(state.take_list_fault(), None);
    }

    #[test]
    fn slow_lists_hold_back_only_the_resources_named() {
        let state = FaultState::new(Faults {
            slow_lists: vec!["replicasets".into()],
            slow_list_ms: 400,
            ..Faults::default()
        });
        assert_eq!(
            state.list_stall("replicasets"),
            Some(std::time::Duration::from_millis(400))
        );
        assert_eq!(state.list_stall("pods"), None);
        state.set(Faults::default());
        assert_eq!(state.list_stall("replicasets"), None);
    }

    #[test]
    fn watch_faults_respect_times() {
        let state = FaultState::new(Faults {
            close_after: Some(3),
            times: Some(1),
            ..Faults::default()
        });
        let first = state.start_watch("pods");
        let second = state.start_watch("pods");
        assert!(matches!(first, WatchStart::Stream(f) if f.close_after == Some(3)));
        assert_eq!(second, WatchStart::Stream(WatchFaults::default()));
    }

    #[test]
    fn a_log_stall_fires_for_the_first_follows_only() {
        let state = FaultState::new(Faults {
            log_stall_after: Some(4),
            log_stall_secs: 30,
            log_stall_times: Some(1),
            ..Faults::default()
        });
        let thirty = std::time::Duration::from_secs(30);
        assert_eq!(state.start_log_follow(), Some((4, thirty)));
        assert_eq!(state.start_log_follow(), None);
        state.set(Faults::default());
        assert_eq!(state.start_log_follow(), None);
    }

    #[test]
    fn fired_faults_are_counted_across_new_plans() {
        let state = FaultState::new(Faults {
            list_status: Some(500),
            list_count: 1,
            watch_status: Some(410),
            times: Some(1),
            ..Faults::default()
        });
        state.take_list_fault();
        state.take_list_fault();
        state.start_watch("pods");
        state.start_watch("pods");
        state.fired(Fired::Expired);
        state.set(Faults::default());
        assert_eq!(
            state.fired_so_far(),
            FaultsFired {
                lists_failed: 1,
                watches_refused: 1,
                expired: 1,
                ..FaultsFired::default()
            }
        );
    }
}
