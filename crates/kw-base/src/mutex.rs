//! A mutex locked whatever happened to the thread that held it last.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// `mutex`, locked even if a thread panicked while holding it: what it guards (a list, a
/// count, a judge's record) stays usable, and kw's answer is better than a second panic.
pub fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
