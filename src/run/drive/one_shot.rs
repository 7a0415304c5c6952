//! A one-shot list over several contexts. Every member gets ready and reads its lists on a
//! thread of its own (under the readying permits, as a watch's first lists are), so that a
//! slow context costs the run its own time, not its time added to every other's. What each
//! hands in is printed on this thread in the kubeconfig's order, targets in the order given
//! (`in_order`), so the same fleet prints the same way every time; a member that holds the
//! others up for `LATE_AFTER` (a credential plugin that never exits, a LIST that trickles) is
//! said to be late on stderr, and printed after them, a block of its own, when it answers.
//! This room hands the members over in that order; the drive prints them.

use std::io;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kw_base::notices::{self, ContextScope};
use kw_client::config::settings::{Settings, SettingsError};
use kw_events::decode::depth;
use kw_watcher::watcher::WatchError;

use crate::report::error::KwError;
use crate::run::in_order::{InOrder, Step};
use crate::run::member::{Member, Preparation};
use crate::run::recording::Recording;

/// How long the members behind one that has not answered wait for it before they are printed
/// without it. Longer than a healthy cluster's list takes (a thousand clusters list in about
/// as long, issue 59), short beside a hung one's: a healthy fleet prints in order, as before.
const LATE_AFTER: Duration = Duration::from_secs(5);

type MemberSettings = Result<Settings, SettingsError>;

/// What a member's thread hands in: the member ready (or why not), and each target's list.
pub(super) struct HandIn {
    pub(super) preparation: Result<Preparation, KwError>,
    pub(super) lists: Vec<Recording>,
}

/// Gets a member ready and reads its lists, on the member's thread.
pub(super) type Work = Arc<dyn Fn(MemberSettings) -> HandIn + Send + Sync>;

/// A member to print, as `Listing::next` gives it.
pub(super) enum Handed {
    /// To be readied and listed by the caller, now (one context, or no thread could be
    /// started for it).
    InTurn(Box<MemberSettings>),
    Listed(HandIn),
}

/// What the run does next.
pub(super) enum Next {
    /// Print this member; `late`: a block of its own, after the others.
    Print {
        member: usize,
        handed: Handed,
        late: bool,
    },
    /// These members are late: say so (`say_late`).
    Late(Vec<usize>),
    /// Every member that is not late is printed: close their output.
    CloseOnTime,
    /// Every member is printed.
    Finished,
}

/// A member of a one-shot run on its way to being printed.
enum Slot {
    InTurn(Box<MemberSettings>),
    /// Readying and listing on a thread of its own.
    Started,
    HandedIn(HandIn),
    Printed,
}

/// The members of a one-shot run, listing side by side, given back in the order to print.
pub(super) struct Listing {
    slots: Vec<Slot>,
    order: InOrder,
    handed_in: mpsc::Receiver<(usize, HandIn)>,
}

impl Listing {
    /// Start every member: several each on a thread of its own doing `work`, kubectl's one
    /// context in turn.
    pub(super) fn start(
        members: Vec<Member>,
        scopes: &[Option<ContextScope>],
        work: &Work,
    ) -> Listing {
        let mut order = InOrder::new(members.len(), LATE_AFTER);
        let (hand_in, handed_in) = mpsc::channel();
        let slots = start(members, scopes, work, &hand_in);
        let now = Instant::now();
        for (member, slot) in slots.iter().enumerate() {
            if matches!(slot, Slot::InTurn(_)) {
                order.handed_in(member, now);
            }
        }
        Listing {
            slots,
            order,
            handed_in,
        }
    }

    /// What to do next, once there is something to do (a member handed in, or turned late).
    pub(super) fn next(&mut self) -> Next {
        loop {
            let (member, late) = match self.order.step(Instant::now()) {
                Step::Print(member) => (member, false),
                Step::PrintLate(member) => (member, true),
                Step::Late(late) => return Next::Late(late),
                Step::CloseOnTime => return Next::CloseOnTime,
                Step::Finished => return Next::Finished,
                Step::Wait(until) => {
                    self.wait(until);
                    continue;
                }
            };
            let handed = match std::mem::replace(&mut self.slots[member], Slot::Printed) {
                Slot::InTurn(settings) => Handed::InTurn(settings),
                Slot::HandedIn(handed) => Handed::Listed(handed),
                // `in_order` prints a member once, after it handed in.
                Slot::Started | Slot::Printed => continue,
            };
            return Next::Print {
                member,
                handed,
                late,
            };
        }
    }

    /// Until a member hands in, or `until`.
    fn wait(&mut self, until: Option<Instant>) {
        let received = match until {
            Some(until) => self
                .handed_in
                .recv_timeout(until.saturating_duration_since(Instant::now())),
            None => self
                .handed_in
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok((member, handed)) => {
                self.slots[member] = Slot::HandedIn(handed);
                self.order.handed_in(member, Instant::now());
            }
            Err(RecvTimeoutError::Timeout) => {}
            // Every thread has ended: one that handed nothing in ended without a word.
            Err(RecvTimeoutError::Disconnected) => {
                for (member, slot) in self.slots.iter_mut().enumerate() {
                    if matches!(slot, Slot::Started) {
                        *slot = Slot::HandedIn(HandIn {
                            preparation: Err(ended_without_a_word()),
                            lists: Vec::new(),
                        });
                        self.order.handed_in(member, Instant::now());
                    }
                }
            }
        }
    }
}

/// Each member's slot: several each on a thread of their own, started now, handing in on
/// `hand_in`; kubectl's one context in turn.
fn start(
    members: Vec<Member>,
    scopes: &[Option<ContextScope>],
    work: &Work,
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
                let work = Arc::clone(work);
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
                            let _ = hand_in.send((index, work(settings)));
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

/// A member late to answer, said once on stderr (in its context's name).
pub(super) fn say_late(scope: Option<&ContextScope>) {
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
