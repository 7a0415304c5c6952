//! The order a one-shot fleet's contexts are printed in. Every context lists on a thread of its
//! own and hands in what it found; the run prints them in the kubeconfig's order, so that the
//! same fleet prints the same way every time. A context that hangs (a credential plugin that
//! never exits, a LIST that trickles) must not hold up the others for longer than `patience`:
//! a context still missing that long after a context behind it handed in is *late*. The
//! others are printed without it (their output closed, as if the fleet ended there), and each
//! late context is printed after them, a block of its own, when it hands in.
//!
//! Pure bookkeeping, told of hand-ins and asked what to do next, so that the rules are tested
//! without a cluster.

use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not handed in yet.
    Awaited,
    /// Handed in at this instant, not printed yet (or printed: `Printed`).
    HandedIn(Instant),
    Printed(Instant),
    /// Missing for too long: printed after the others, when it hands in.
    Late,
    LateHandedIn,
    LatePrinted,
}

/// What the run does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    /// Print this member, in its place among the others.
    Print(usize),
    /// These members are late (in the fleet's order): say so; they print after the others.
    Late(Vec<usize>),
    /// Every member that is not late is printed: close their output, so it is seen now.
    CloseOnTime,
    /// Print this late member, a block of its own.
    PrintLate(usize),
    /// Wait for a hand-in, or until this instant (when a member turns late).
    Wait(Option<Instant>),
    /// Every member is printed.
    Finished,
}

pub(super) struct InOrder {
    states: Vec<State>,
    /// The first member not printed or late.
    next: usize,
    patience: Duration,
    /// Said as `Late`, not said yet.
    newly_late: Vec<usize>,
    closed: bool,
}

impl InOrder {
    pub(super) fn new(members: usize, patience: Duration) -> InOrder {
        InOrder {
            states: vec![State::Awaited; members],
            next: 0,
            patience,
            newly_late: Vec::new(),
            closed: false,
        }
    }

    /// `member` handed in what it found at `at`.
    pub(super) fn handed_in(&mut self, member: usize, at: Instant) {
        if let Some(state) = self.states.get_mut(member) {
            *state = match *state {
                State::Awaited => State::HandedIn(at),
                State::Late => State::LateHandedIn,
                other => other,
            };
        }
    }

    /// What to do now; the caller does it (a `Print` member is printed once `step` says so).
    pub(super) fn step(&mut self, now: Instant) -> Step {
        if !self.closed {
            while let Some(state) = self.states.get(self.next).copied() {
                match state {
                    // The late are said before anything printed after them.
                    State::HandedIn(_) if !self.newly_late.is_empty() => {
                        return Step::Late(std::mem::take(&mut self.newly_late));
                    }
                    State::HandedIn(at) => {
                        self.states[self.next] = State::Printed(at);
                        self.next += 1;
                        return Step::Print(self.next - 1);
                    }
                    State::Late | State::LateHandedIn | State::LatePrinted | State::Printed(_) => {
                        self.next += 1
                    }
                    State::Awaited => match self.handed_in_behind(self.next) {
                        Some(since) if now >= since + self.patience => {
                            self.states[self.next] = State::Late;
                            self.newly_late.push(self.next);
                            self.next += 1;
                        }
                        since => {
                            if !self.newly_late.is_empty() {
                                return Step::Late(std::mem::take(&mut self.newly_late));
                            }
                            return Step::Wait(since.map(|since| since + self.patience));
                        }
                    },
                }
            }
            if !self.newly_late.is_empty() {
                return Step::Late(std::mem::take(&mut self.newly_late));
            }
            self.closed = true;
            if self
                .states
                .iter()
                .any(|s| matches!(s, State::Late | State::LateHandedIn))
            {
                return Step::CloseOnTime;
            }
        }
        if let Some(member) = self.states.iter().position(|s| *s == State::LateHandedIn) {
            self.states[member] = State::LatePrinted;
            return Step::PrintLate(member);
        }
        match self.states.contains(&State::Late) {
            true => Step::Wait(None),
            false => Step::Finished,
        }
    }

    /// The earliest hand-in of a member behind `member`: how long it has been held up.
    fn handed_in_behind(&self, member: usize) -> Option<Instant> {
        self.states[member + 1..]
            .iter()
            .filter_map(|state| match state {
                State::HandedIn(at) | State::Printed(at) => Some(*at),
                _ => None,
            })
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATIENCE: Duration = Duration::from_secs(5);

    fn steps(order: &mut InOrder, now: Instant) -> Vec<Step> {
        let mut steps = Vec::new();
        loop {
            let step = order.step(now);
            let waiting = matches!(step, Step::Wait(_) | Step::Finished);
            steps.push(step);
            if waiting {
                return steps;
            }
        }
    }

    #[test]
    fn members_print_in_the_fleets_order_whatever_order_they_hand_in() {
        let start = Instant::now();
        let mut order = InOrder::new(3, PATIENCE);
        order.handed_in(2, start);
        order.handed_in(1, start);
        // The first is awaited: the others wait for it, as long as the patience.
        assert_eq!(
            steps(&mut order, start),
            [Step::Wait(Some(start + PATIENCE))]
        );
        order.handed_in(0, start + Duration::from_secs(1));
        assert_eq!(
            steps(&mut order, start + Duration::from_secs(1)),
            [
                Step::Print(0),
                Step::Print(1),
                Step::Print(2),
                Step::Finished
            ]
        );
    }

    #[test]
    fn a_member_that_holds_up_the_others_past_the_patience_is_late_and_printed_after_them() {
        let start = Instant::now();
        let mut order = InOrder::new(3, PATIENCE);
        order.handed_in(1, start);
        order.handed_in(2, start);
        assert_eq!(
            steps(&mut order, start + PATIENCE),
            [
                Step::Late(vec![0]),
                Step::Print(1),
                Step::Print(2),
                Step::CloseOnTime,
                Step::Wait(None)
            ]
        );
        order.handed_in(0, start + Duration::from_secs(60));
        assert_eq!(
            steps(&mut order, start + Duration::from_secs(60)),
            [Step::PrintLate(0), Step::Finished]
        );
    }

    #[test]
    fn many_hung_members_cost_the_others_one_patience_not_one_each() {
        // Hung, healthy, hung, healthy: every healthy one hands in at once.
        let start = Instant::now();
        let mut order = InOrder::new(4, PATIENCE);
        order.handed_in(1, start);
        order.handed_in(3, start);
        assert_eq!(
            steps(&mut order, start + PATIENCE),
            [
                Step::Late(vec![0]),
                Step::Print(1),
                Step::Late(vec![2]),
                Step::Print(3),
                Step::CloseOnTime,
                Step::Wait(None)
            ]
        );
    }

    #[test]
    fn the_last_member_is_never_late_for_nobody_waits_behind_it() {
        let start = Instant::now();
        let mut order = InOrder::new(2, PATIENCE);
        order.handed_in(0, start);
        let late = start + Duration::from_secs(600);
        assert_eq!(steps(&mut order, late), [Step::Print(0), Step::Wait(None)]);
        order.handed_in(1, late);
        assert_eq!(steps(&mut order, late), [Step::Print(1), Step::Finished]);
    }

    #[test]
    fn late_members_print_in_the_fleets_order_among_those_handed_in() {
        let start = Instant::now();
        let mut order = InOrder::new(3, PATIENCE);
        order.handed_in(2, start);
        let later = start + PATIENCE;
        assert_eq!(
            steps(&mut order, later),
            [
                Step::Late(vec![0, 1]),
                Step::Print(2),
                Step::CloseOnTime,
                Step::Wait(None)
            ]
        );
        order.handed_in(1, later);
        order.handed_in(0, later);
        assert_eq!(
            steps(&mut order, later),
            [Step::PrintLate(0), Step::PrintLate(1), Step::Finished]
        );
    }
}
