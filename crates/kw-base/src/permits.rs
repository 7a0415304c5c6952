//! A few at a time: a counting semaphore for work that many threads would otherwise start at
//! once (a fleet's clusters connecting, exec credential plugins running). A holder counts
//! against the limit for its `patience` only: work that hangs (a connect to a cluster that drops
//! every packet, a plugin waiting for a login) gives its place to the next waiter then, so it
//! never holds up the others for longer, while work that goes at the usual pace stays bounded.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// At most `limit` holders younger than `patience` at a time.
pub struct Permits {
    holders: Mutex<Holders>,
    freed: Condvar,
    limit: usize,
    patience: Duration,
}

#[derive(Default)]
struct Holders {
    next: u64,
    /// Each holder, and since when it holds.
    since: Vec<(u64, Instant)>,
}

/// Held while the work runs; given back when dropped.
pub struct Permit<'a> {
    permits: &'a Permits,
    id: u64,
}

impl Permits {
    pub fn new(limit: usize, patience: Duration) -> Permits {
        Permits {
            holders: Mutex::default(),
            freed: Condvar::new(),
            limit: limit.max(1),
            patience,
        }
    }

    /// The holders, whatever a panicking thread left (only ids and instants).
    fn lock(&self) -> MutexGuard<'_, Holders> {
        self.holders.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A permit, once fewer than `limit` holders are younger than the patience.
    pub fn take(&self) -> Permit<'_> {
        let mut holders = self.lock();
        loop {
            let now = Instant::now();
            let young = holders
                .since
                .iter()
                .filter(|(_, since)| now.duration_since(*since) < self.patience);
            let (count, oldest) =
                young.fold((0, None::<Instant>), |(count, oldest), (_, since)| {
                    (count + 1, Some(oldest.map_or(*since, |o| o.min(*since))))
                });
            match oldest {
                Some(oldest) if count >= self.limit => {
                    // Until a holder gives its permit back, or the oldest turns patient's age.
                    let wait = (oldest + self.patience).saturating_duration_since(now);
                    holders = self
                        .freed
                        .wait_timeout(holders, wait)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
                _ => {
                    let id = holders.next;
                    holders.next += 1;
                    holders.since.push((id, now));
                    return Permit { permits: self, id };
                }
            }
        }
    }

    /// How many hold a permit now, young or not.
    pub fn held(&self) -> usize {
        self.lock().since.len()
    }
}

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        self.permits.lock().since.retain(|(id, _)| *id != self.id);
        self.permits.freed.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_waiter_waits_for_a_permit_given_back() {
        let permits = Permits::new(2, Duration::from_secs(3600));
        let first = permits.take();
        let _second = permits.take();
        let (told, heard) = mpsc::channel();
        std::thread::scope(|threads| {
            threads.spawn(|| {
                let _third = permits.take();
                told.send(()).unwrap();
            });
            // Two young holders: the third cannot have a permit until one goes.
            while permits.held() < 2 {
                std::thread::yield_now();
            }
            assert!(heard.try_recv().is_err());
            drop(first);
            heard.recv().unwrap();
        });
        assert_eq!(permits.held(), 1, "the third gave its permit back");
    }

    #[test]
    fn a_holder_past_its_patience_no_longer_counts() {
        // Patience zero: every holder is at once too old to count, so none holds up another.
        let permits = Permits::new(1, Duration::ZERO);
        let held: Vec<Permit> = (0..5).map(|_| permits.take()).collect();
        assert_eq!(permits.held(), 5);
        drop(held);
        assert_eq!(permits.held(), 0);
    }
}
