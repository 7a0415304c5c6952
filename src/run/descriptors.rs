//! What a fleet needs of file descriptors, checked before it starts: a fleet too big for the
//! limit fails at once, in one line saying what to raise, not with `Too many open files` on
//! some contexts halfway through their first lists (issue 59).

use kw_base::descriptors::Limits;

use crate::report::error::UsageError;

/// kw's own, beside the contexts' sockets: stdin, stdout and stderr, the signal handlers'
/// pipes, and what the contexts getting ready at once hold for a moment (a second connection
/// for discovery, its cache file, an exec plugin's pipe: `member::READYING_AT_ONCE` of them,
/// 32). Measured: 7 to 9 with no context getting ready.
const KW_OWN: u64 = 64;

/// About how many descriptors `contexts` contexts watching `types` types each hold: a socket
/// per context and type (a watch holds its connection; a list does until it is read), and
/// kw's own. Measured on `kw sim` fleets: 1,000 contexts of one type held 1,007.
pub(super) fn needed(contexts: usize, types: usize) -> u64 {
    (contexts as u64).saturating_mul(types.max(1) as u64) + KW_OWN
}

/// Refuses a fleet of `contexts` that needs more than `limits` allow (kw has already raised
/// its soft limit as far as the hard one lets it, `kw_base::descriptors::raise`).
pub(super) fn check(
    contexts: usize,
    types: usize,
    limits: Option<Limits>,
) -> Result<(), UsageError> {
    let needed = needed(contexts, types);
    match limits {
        Some(limits) if needed > limits.soft => Err(UsageError::TooFewDescriptors {
            contexts,
            needed,
            own: KW_OWN,
            soft: limits.soft,
            hard: limits.hard,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fleet_past_the_limit_is_refused_and_one_within_it_is_not() {
        let limits = Some(Limits {
            soft: 256,
            hard: 256,
        });
        assert!(check(192, 1, limits).is_ok());
        assert!(check(193, 1, limits).is_err());
        assert!(check(96, 2, limits).is_ok());
        assert!(check(97, 2, limits).is_err());
        assert!(check(100_000, 1, None).is_ok(), "no limit to pass");
    }
}
