//! A one-shot list over several contexts. Every member gets ready and reads its lists on a
//! thread of its own (under the readying permits, as a watch's first lists are), so that a
//! slow context costs the run its own time, not its time added to every other's. What each
//! hands in is printed on this thread in the kubeconfig's order, targets in the order given
//! (`in_order`), so the same fleet prints the same way every time; a member that holds the
//! others up for `LATE_AFTER` (a credential plugin that never exits, a LIST that trickles) is
//! said to be late on stderr, and printed after them, a block of its own, when it answers.

use std::io;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kw_base::notices::{self, ContextScope};
use kw_client::config::settings::{Settings, SettingsError};
use kw_events::decode::depth;
use kw_watcher::watcher::WatchError;

use super::{Collector, MemberNews, Run};
use crate::report::error::KwError;
use crate::report::outcome::End;
use crate::run::in_order::{InOrder, Step};
use crate::run::member::{Member, Preparation};
use crate::run::recording::{Recorder, Recording};

/// How long the members behind one that has not answered wait for it before they are printed
/// without it. Longer than a healthy cluster's list takes (a thousand clusters list in about
/// as long, issue 59), short beside a hung one's: a healthy fleet prints in order, as before.
const LATE_AFTER: Duration = Duration::from_secs(5);

/// What a member's thread hands in: the member ready (or why not), and each target's list.
struct HandIn {
    preparation: Result<Preparation, KwError>,
    lists: Vec<Recording>,
}

/// A member of a one-shot run on its way to being printed.
enum Slot {
    /// Readied and listed on this thread when its turn comes (one context, or no thread could
    /// be started for it).
    InTurn(Box<Result<Settings, SettingsError>>),
    /// Readying and listing on a thread of its own.
    Started,
    HandedIn(HandIn),
    Printed,
}

/// List `members`, printing them as `in_order` says; the run's end.
pub(super) fn list(
    run: &Arc<Run>,
    members: Vec<Member>,
    scopes: &[Option<ContextScope>],
    collector: &mut Collector,
) -> Result<End, KwError> {
    let contexts: Vec<Option<Arc<str>>> = members.iter().map(|m| m.context.clone()).collect();
    let mut order = InOrder::new(members.len(), LATE_AFTER);
    let (hand_in, handed_in) = mpsc::channel();
    let mut slots = start(run, members, scopes, &hand_in);
    drop(hand_in);
    let now = Instant::now();
    for (member, slot) in slots.iter().enumerate() {
        if matches!(slot, Slot::InTurn(_)) {
            order.handed_in(member, now);
        }
    }
    loop {
        let (member, late) = match order.step(Instant::now()) {
            Step::Print(member) => (member, false),
            Step::PrintLate(member) => (member, true),
            Step::Late(late) => {
                for member in late {
                    say_late(scopes[member].as_ref());
                }
                continue;
            }
            Step::Wait(until) => {
                let received = match until {
                    Some(until) => {
                        handed_in.recv_timeout(until.saturating_duration_since(Instant::now()))
                    }
                    None => handed_in.recv().map_err(|_| RecvTimeoutError::Disconnected),
                };
                match received {
                    Ok((member, handed)) => {
                        slots[member] = Slot::HandedIn(handed);
                        order.handed_in(member, Instant::now());
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    // Every thread has ended: one that handed nothing in ended without a word.
                    Err(RecvTimeoutError::Disconnected) => {
                        for (member, slot) in slots.iter_mut().enumerate() {
                            if matches!(slot, Slot::Started) {
                                *slot = Slot::HandedIn(HandIn {
                                    preparation: Err(ended_without_a_word()),
                                    lists: Vec::new(),
                                });
                                order.handed_in(member, Instant::now());
                            }
                        }
                    }
                }
                continue;
            }
            Step::CloseOnTime => {
                run.outputs
                    .start_block(collector.printed > 0)
                    .map_err(KwError::Watch)?;
                continue;
            }
            Step::Finished => return collector.all_done(),
        };
        if let Some(scope) = &scopes[member] {
            scope.enter();
        }
        let (preparation, lists) = match std::mem::replace(&mut slots[member], Slot::Printed) {
            Slot::InTurn(settings) => (run.prepare(*settings), Vec::new()),
            Slot::HandedIn(handed) => (handed.preparation, handed.lists),
            // `in_order` prints a member once, after it handed in.
            Slot::Started | Slot::Printed => continue,
        };
        let mut verdict = None;
        run.list_member(
            contexts[member].as_ref(),
            preparation,
            lists,
            &mut |report| {
                verdict = verdict.take().or_else(|| collector.take(report));
                verdict.is_none()
            },
        );
        if let Some(verdict) = verdict.or_else(|| collector.take(MemberNews::Done)) {
            return verdict;
        }
        // A late member's block is seen as soon as it is printed.
        if late {
            run.outputs
                .start_block(collector.printed > 0)
                .map_err(KwError::Watch)?;
        }
    }
}

/// Each member's slot: several each on a thread of their own, started now, handing in on
/// `hand_in`; kubectl's one context in turn.
fn start(
    run: &Arc<Run>,
    members: Vec<Member>,
    scopes: &[Option<ContextScope>],
    hand_in: &mpsc::Sender<(usize, HandIn)>,
) -> Vec<Slot> {
    let several = members.len() > 1;
    members
        .into_iter()
        .zip(scopes.iter().cloned())
        .enumerate()
        .map(|(index, (member, scope))| {
            if !several {
                return Slot::InTurn(Box::new(member.settings));
            }
            // Taken back if the thread cannot be started.
            let settings = Arc::new(Mutex::new(Some(member.settings)));
            let spawned = {
                let run = Arc::clone(run);
                let settings = Arc::clone(&settings);
                let hand_in = hand_in.clone();
                // The thread decodes the member's lists: a stack sized for the deepest object.
                std::thread::Builder::new()
                    .stack_size(depth::STACK)
                    .spawn(move || {
                        if let Some(scope) = &scope {
                            scope.enter();
                        }
                        let taken = kw_base::mutex::lock(&settings).take();
                        if let Some(settings) = taken {
                            let _ = hand_in.send((index, run.ready_and_list(settings)));
                        }
                    })
            };
            let taken_back = match spawned {
                Ok(_) => None,
                Err(_) => kw_base::mutex::lock(&settings).take(),
            };
            match taken_back {
                Some(settings) => Slot::InTurn(Box::new(settings)),
                None => Slot::Started,
            }
        })
        .collect()
}

impl Run {
    /// A member got ready, and each of its targets' lists read into a recording, to be
    /// printed in its turn.
    fn ready_and_list(&self, settings: Result<Settings, SettingsError>) -> HandIn {
        let preparation = self.prepare(settings);
        let lists = match &preparation {
            Ok(Preparation::Ready(prepared)) => prepared
                .targets
                .iter()
                .map(|target| {
                    let mut recorder = Recorder::default();
                    let ended = self.watcher(prepared, target, true).run(&mut recorder);
                    recorder.finished(ended)
                })
                .collect(),
            _ => Vec::new(),
        };
        HandIn { preparation, lists }
    }
}

/// A member late to answer, said once on stderr (in its context's name).
fn say_late(scope: Option<&ContextScope>) {
    if let Some(scope) = scope {
        scope.enter();
    }
    notices::notice(&format!(
        "no answer after {}s: the other contexts are printed without waiting for it, and its \
         objects after them when it answers",
        LATE_AFTER.as_secs()
    ));
}

fn ended_without_a_word() -> KwError {
    KwError::Watch(WatchError::Output(io::Error::other(
        "the thread getting the context ready ended without a word",
    )))
}
