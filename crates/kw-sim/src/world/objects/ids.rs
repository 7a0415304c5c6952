//! Deterministic identity for simulated objects: a tiny PRNG, UIDs, name suffixes and timestamps.
//!
//! Everything here is a pure function of a seed, so the same seed always builds the same world
//! and churn replays the same story. No wall clock is read here; callers pass `now`.

use std::time::{Duration, SystemTime};

/// splitmix64: small, fast and good enough to make a believable cluster. Not for cryptography.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`0` when `bound` is 0). The modulo bias is irrelevant here.
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            0
        } else {
            self.next_u64() % bound
        }
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// FNV-1a, to turn a name into a number that mixes into a seed.
fn fnv1a(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// A UUID-formatted (version 4 layout) uid, deterministic for a seed and a key such as
/// `pods/default/web-7d4b9c6f5-x2k9p`.
pub fn uid(seed: u64, key: &str) -> String {
    let mut rng = SplitMix64::new(seed ^ fnv1a(key));
    let high = rng.next_u64();
    let low = rng.next_u64();
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0x0fff,
        ((low >> 48) & 0x3fff) | 0x8000,
        low & 0xffff_ffff_ffff
    )
}

/// The alphabet Kubernetes uses for generated name suffixes and `pod-template-hash` (no vowels,
/// no look-alike characters, so generated names never spell words).
const SAFE_ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// `len` characters from the safe alphabet, deterministic for a seed and a key.
pub fn safe_suffix(seed: u64, key: &str, len: usize) -> String {
    let mut rng = SplitMix64::new(seed ^ fnv1a(key));
    (0..len)
        .map(|_| {
            let index = rng.below(SAFE_ALPHABET.len() as u64) as usize;
            char::from(SAFE_ALPHABET[index])
        })
        .collect()
}

/// A hex string of `len` digits (container IDs, image digests, machine IDs).
pub fn hex(seed: u64, key: &str, len: usize) -> String {
    let mut rng = SplitMix64::new(seed ^ fnv1a(key));
    let mut out = String::with_capacity(len + 16);
    while out.len() < len {
        out.push_str(&format!("{:016x}", rng.next_u64()));
    }
    out.truncate(len);
    out
}

/// RFC 3339 with seconds precision in UTC, as the API server writes `metav1.Time`.
pub fn rfc3339(at: SystemTime) -> String {
    humantime::format_rfc3339_seconds(at).to_string()
}

/// `now` minus `seconds`, clamped at the epoch so a silly `now` cannot panic.
pub fn ago(now: SystemTime, seconds: u64) -> SystemTime {
    now.checked_sub(Duration::from_secs(seconds))
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// `at` plus `seconds`.
pub fn later(at: SystemTime, seconds: u64) -> SystemTime {
    at.checked_add(Duration::from_secs(seconds)).unwrap_or(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uid_is_uuid_shaped_and_deterministic() {
        let first = uid(7, "pods/default/web");
        assert_eq!(first, uid(7, "pods/default/web"));
        assert_ne!(first, uid(8, "pods/default/web"));
        assert_ne!(first, uid(7, "pods/default/api"));
        let parts: Vec<&str> = first.split('-').collect();
        let lengths: Vec<usize> = parts.iter().map(|p| p.len()).collect();
        assert_eq!(lengths, vec![8, 4, 4, 4, 12]);
        assert!(parts[2].starts_with('4'));
        assert!(first.chars().all(|c| c == '-' || c.is_ascii_hexdigit()));
    }

    #[test]
    fn safe_suffix_uses_the_kubernetes_alphabet() {
        let suffix = safe_suffix(1, "x", 10);
        assert_eq!(suffix.len(), 10);
        assert!(suffix.bytes().all(|b| SAFE_ALPHABET.contains(&b)));
    }

    #[test]
    fn rfc3339_has_seconds_precision() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_millis(1_700_000_000_500);
        assert_eq!(rfc3339(at), "2023-11-14T22:13:20Z");
    }

    #[test]
    fn splitmix_is_deterministic() {
        let mut a = SplitMix64::new(42);
        let mut b = SplitMix64::new(42);
        for _ in 0..10 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_eq!(SplitMix64::new(1).below(0), 0);
    }
}
