//! The one judge of a run, shared by every watcher's sink and by the runner. Its lock (which
//! survives a holder that panicked) is taken here only, and the changes of judgement it makes
//! go to the writer the runner gave it: nothing in `wait` writes stderr.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

use super::identity::{Key, Named};
use super::judge::Judge;
use super::verdict::{Trouble, Verdict};

/// Writes the judge's changes of judgement (`Rules::progress`), one line each.
pub type SayProgress = fn(&[String]);

/// A handle on the run's judge; clones share it.
#[derive(Clone)]
pub struct SharedJudge {
    judge: Arc<Mutex<Judge>>,
    say: SayProgress,
}

impl SharedJudge {
    pub fn new(judge: Judge, say: SayProgress) -> SharedJudge {
        SharedJudge {
            judge: Arc::new(Mutex::new(judge)),
            say,
        }
    }

    /// The judge, locked; a sink holds it while printing so that nothing is printed after the
    /// event that ended the watch.
    pub(super) fn lock(&self) -> MutexGuard<'_, Judge> {
        kw_base::mutex::lock(&self.judge)
    }

    /// Write out the changes of judgement `judge` has made since it was last asked.
    pub(super) fn say_progress(&self, judge: &mut Judge) {
        let lines = judge.take_progress();
        if !lines.is_empty() {
            (self.say)(&lines);
        }
    }

    /// When a judgement changes with time alone next (`Judge::next_tick`).
    pub fn next_tick(&self) -> Option<SystemTime> {
        self.lock().next_tick()
    }

    /// Judge again what changes with time alone (`Judge::tick`).
    pub fn tick(&self, now: SystemTime) -> Option<Verdict> {
        let mut judge = self.lock();
        let ended = judge.tick(now);
        self.say_progress(&mut judge);
        ended
    }

    /// A workload's child is stuck, or no longer is (`Judge::child_trouble`).
    pub fn child_trouble(
        &self,
        workload: &Key,
        child: &str,
        trouble: Option<Trouble>,
        now: SystemTime,
    ) -> Option<Verdict> {
        let mut judge = self.lock();
        let ended = judge.child_trouble(workload, child, trouble, now);
        self.say_progress(&mut judge);
        ended
    }

    /// What ended the watch, once something has.
    pub fn ended(&self) -> Option<Verdict> {
        self.lock().ended()
    }

    /// The verdict, its cause worded with what was learnt since (`Judge::reword`).
    pub fn reword(&self) -> Option<Verdict> {
        self.lock().reword()
    }

    /// The named object of watcher `index` does not exist; kubectl wait goes on without it
    /// (`Judge::not_found`). `Some` when that decides the wait.
    pub fn not_found(
        &self,
        index: usize,
        resource: &kw_events::events::ResourceInfo,
        name: &str,
        line: String,
    ) -> Option<Verdict> {
        self.lock().not_found(index, resource, name, line)
    }

    /// Whether kubectl wait's rules hold: objects met in turn, a missing one passed over.
    pub fn goes_past_missing(&self) -> bool {
        self.lock().goes_past_missing()
    }

    /// Whether the run cannot decide without every context (`Judge::needs_every_context`).
    pub fn needs_every_context(&self) -> bool {
        self.lock().needs_every_context()
    }

    /// A member's watchers are known (`Judge::member_resolved`): the index of its first.
    pub fn member_resolved(&self, named: Vec<Named>, watchers: usize) -> usize {
        self.lock().member_resolved(named, watchers)
    }

    /// A member watches collections (`Judge::watches_collections`).
    pub fn watches_collections(&self, kinds: Vec<String>, selector: Option<String>) {
        self.lock().watches_collections(kinds, selector)
    }

    /// Every object in kubectl wait's order, and whether it met the condition
    /// (`Findings::in_order`).
    pub fn in_order(&self) -> Vec<(String, super::Standing)> {
        self.lock().findings().in_order()
    }

    /// Every watched object not ready, with its judgement (`Findings::unready`).
    pub fn unready(&self) -> Vec<super::Unready> {
        self.lock().findings().unready()
    }

    /// Every watched object that did not meet what was asked (`Findings::unmet`), and what was
    /// asked when it is not readiness (`Judge::question`).
    pub fn unmet(&self) -> (Vec<super::Unmet>, Option<String>) {
        let judge = self.lock();
        (judge.findings().unmet(), judge.question())
    }

    /// Every object judged (`Findings::every`).
    pub fn every(&self) -> Vec<super::Reported> {
        self.lock().findings().every()
    }

    /// As `every`, if the judge's lock comes within `wait`: what a signal's handler reads, which
    /// must not wait on a thread that holds it.
    pub fn every_within(&self, wait: std::time::Duration) -> Option<Vec<super::Reported>> {
        use std::sync::TryLockError;
        let until = std::time::Instant::now() + wait;
        loop {
            match self.judge.try_lock() {
                Ok(judge) => return Some(judge.findings().every()),
                Err(TryLockError::Poisoned(held)) => {
                    return Some(held.into_inner().findings().every())
                }
                Err(TryLockError::WouldBlock) if std::time::Instant::now() < until => {
                    std::thread::sleep(std::time::Duration::from_millis(10))
                }
                Err(TryLockError::WouldBlock) => return None,
            }
        }
    }

    /// The objects that did not meet what was asked, for stdout's cut (`Findings::not_met`).
    pub fn not_met(&self) -> Vec<super::identity::Key> {
        self.lock().findings().not_met()
    }

    /// Every object judged, as (its type as discovery resolved it, namespace, name), in a
    /// server's list order (by namespace, then name): what a type or a selector matched
    /// (`kw rollout status -l`).
    pub fn seen(&self) -> Vec<(kw_events::events::ResourceInfo, String, String)> {
        let judge = self.lock();
        let mut seen: Vec<(&super::GroupResource, &String, &String)> = judge
            .findings()
            .judgements()
            .map(|(key, _)| (&key.resource, &key.namespace, &key.name))
            .collect();
        seen.sort_by(|a, b| (a.1, a.2, a.0).cmp(&(b.1, b.2, b.0)));
        seen.into_iter()
            // Every object judged came in an event, which told its type.
            .filter_map(|(resource, namespace, name)| {
                let resolved = judge.resolved(resource)?.clone();
                Some((resolved, namespace.clone(), name.clone()))
            })
            .collect()
    }
}

/// The live view reads each object's judgement and the verdict from the run's one judge.
impl super::judged::Judging for SharedJudge {
    fn judged(&self) -> super::judged::Judged {
        let judge = self.lock();
        let mut judged = super::judged::Judged::default();
        for (key, judgement) in judge.findings().judgements() {
            let of_type = (key.resource.group.as_str(), key.resource.plural.as_str());
            let object = (
                key.context.as_str(),
                key.namespace.as_str(),
                key.name.as_str(),
            );
            judged.insert(of_type, object, judgement.clone());
            if let Some((at, cause)) = judge.pending_failure(key) {
                judged.insert_failing(of_type, object, super::judged::Failing { at, cause });
            }
        }
        judged
    }

    fn verdict(&self) -> Option<String> {
        self.ended().map(|ended| ended.to_string())
    }
}
