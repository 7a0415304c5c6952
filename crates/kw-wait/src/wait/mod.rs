//! Wait-for conditions (`--until`, `--fail-on`, `--for`, `--max-events`): parsing the EXPRs
//! (kubectl wait's vocabulary) and judging them over the events the watcher prints.
//!
//! A `ConditionSink` sits in front of the printer's sink. It forwards every event, then asks the
//! shared `Judge` whether the watch is over; when it is, the judge records why (`Verdict`) and
//! every condition sink answers `Flow::Stop`, which ends each watcher; the runner reads the
//! judge's record and `report` turns it into an exit code. The judge sees exactly the events the
//! watcher prints, so it inherits the watcher's guarantees over reconnects and re-lists (a
//! DELETED synthesised by a re-list is a deletion). It never talks to the server, knows nothing
//! of formats and writes nothing: its changes of judgement go to the writer the runner gives it.
//!
//! Beside kubectl's words, `ready` (for `--until`) and `failed` (for `--fail-on`) ask the
//! `readiness` rules for a judgement of each object as its events arrive.
//!
//! - `expr`: the grammar (`Expr`, `For`) and what an EXPR says of one object;
//! - `rules`: what the judge is asked to decide;
//! - `identity`: the objects named and the key each watched object is known by;
//! - `verdict`: why a watch ended (`Verdict`), and the objects a failed wait names;
//! - `assessment`: what the judge holds of one object;
//! - `grace`: a workload's stuck children, and the grace they get;
//! - `telling`: what the judge tells on stderr while a wait runs;
//! - `judge`: the judge;
//! - `findings`: what the judge has found, as the summary and the report read it;
//! - `judged`: what the live view reads of the judge (`Judging`);
//! - `shared`: the run's one judge behind its lock;
//! - `sink`: a watcher's way to the judge;
//! - `summary`: the block written when a wait for `ready` fails;
//! - `grouped`: each cause under an object of the summary, said once.

mod assessment;
mod expr;
mod findings;
mod grace;
pub mod grouped;
mod identity;
mod judge;
mod judged;
mod rules;
mod shared;
mod sink;
pub mod summary;
mod telling;
mod verdict;

pub use expr::{ConditionError, Expr, For};
pub use findings::Findings;
pub use identity::{GroupResource, Key, Named};
pub use judge::Judge;
pub use judged::{Failing, Judged, Judging, ObjectKey};
pub use rules::{PastGrace, Rules};
pub use shared::{SayProgress, SharedJudge};
pub use sink::ConditionSink;
pub use verdict::{Reported, Standing, Trouble, Unmet, Unready, Verdict};
