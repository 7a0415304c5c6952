//! "Did you mean": the known word nearest to a mistyped one (a resource type, a context), for
//! the hint under an error. Pure: the caller brings the words it knows.

/// The word of `known` nearest to `typed`, if one is near enough to be a slip of the fingers:
/// an edit distance (a swap of neighbours counts as one edit) of 1 for three or four letters, 2
/// up to eight, 3 beyond. One or two letters are a guess only by a letter missed, added or
/// swapped (`sv` for `svc`, `op` for `po`): one letter changed in two is another word (`pv` is
/// not a slip for `ev`). The first of `known` wins a tie; `typed` itself among `known` means no
/// mistake, so no guess.
pub fn nearest<'k>(typed: &str, known: impl IntoIterator<Item = &'k str>) -> Option<&'k str> {
    let letters = typed.chars().count();
    let allowed = match letters {
        0 => return None,
        1..=4 => 1,
        5..=8 => 2,
        _ => 3,
    };
    let mut best: Option<(usize, &str)> = None;
    for candidate in known {
        let distance = edit_distance(typed, candidate);
        if distance == 0 {
            return None;
        }
        let slip = letters > 2 || candidate.chars().count() != letters || is_swap(typed, candidate);
        if slip && distance <= allowed && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, word)| word)
}

/// `b` is `a` with two neighbouring characters swapped.
fn is_swap(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    a.len() == b.len() && {
        let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        matches!(differ[..], [i, j] if j == i + 1 && a[i] == b[j] && a[j] == b[i])
    }
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbouring characters each cost one.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the table: two back (for swaps), one back, this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut last);
        std::mem::swap(&mut last, &mut row);
    }
    last[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_a_swap_as_one() {
        assert_eq!(edit_distance("pdos", "pods"), 1);
        assert_eq!(edit_distance("pod", "pods"), 1);
        assert_eq!(edit_distance("pods", "pods"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("abc", ""), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("deploymnets", "deployments"), 1);
        assert_eq!(edit_distance("foo", "po"), 2);
        assert_eq!(edit_distance("prod-ue", "prod-eu"), 1);
    }

    #[test]
    fn nearest_allows_more_slips_in_longer_words() {
        let known = ["prod-eu", "prod-us", "dev", "staging-cluster-1"];
        assert_eq!(nearest("prod-ue", known), Some("prod-eu"));
        assert_eq!(nearest("dve", known), Some("dev"));
        assert_eq!(nearest("dxx", known), None);
        assert_eq!(
            nearest("stagign-clustr-1", known),
            Some("staging-cluster-1")
        );
        assert_eq!(nearest("prod", known), None, "two edits in four letters");
        assert_eq!(nearest("dev", known), None, "not a mistake");
        assert_eq!(nearest("", known), None);
    }

    #[test]
    fn one_or_two_letters_are_guessed_only_as_a_swap() {
        let known = ["ev", "po", "no", "svc"];
        assert_eq!(nearest("pv", known), None);
        assert_eq!(nearest("op", known), Some("po"));
        assert_eq!(nearest("sv", known), Some("svc"));
        assert_eq!(nearest("p", known), Some("po"));
        assert_eq!(nearest("x", known), None);
        assert_eq!(nearest("scv", known), Some("svc"));
    }
}
