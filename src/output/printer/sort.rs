//! Ordering rows for `--sort-by` as kubectl's `TableSorter` orders them (`kubectl/pkg/cmd/get/
//! sorter.go`): numbers by value, strings that are both resource quantities (`100m`, `1Gi`) by
//! quantity, other strings in natural order (`pod-2` before `pod-10`, `sortorder.NaturalLess`),
//! arrays element by element; values kubectl cannot sort (booleans, maps, mixed types) compare
//! as "not less". Also Go's own `sort.Sort`, which kubectl sorts rows with.

use serde_json::Value;

/// kubectl's `isLess` for values decoded from JSON.
pub fn sort_key_less(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => false,
        (Value::Null, _) => true,
        (_, Value::Null) => false,
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x < y,
            (None, None) => x.as_f64() < y.as_f64(),
            _ => false,
        },
        (Value::String(x), Value::String(y)) => match (parse_quantity(x), parse_quantity(y)) {
            (Some(qx), Some(qy)) => qx < qy,
            _ => natural_less(x, y),
        },
        (Value::Array(x), Value::Array(y)) => {
            for (i, j) in x.iter().zip(y) {
                if !sort_key_less(i, j) {
                    return false;
                }
            }
            true
        }
        _ => false,
    }
}

/// `github.com/fvbommel/sortorder.NaturalLess`: digits sort before other bytes, runs of digits
/// compare as numbers (then by leading zeros), other bytes compare as bytes.
pub fn natural_less(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (da, db) = (a[i].is_ascii_digit(), b[j].is_ascii_digit());
        if da != db {
            return da;
        }
        if !da {
            if a[i] != b[j] {
                return a[i] < b[j];
            }
            i += 1;
            j += 1;
            continue;
        }
        while i < a.len() && a[i] == b'0' {
            i += 1;
        }
        while j < b.len() && b[j] == b'0' {
            j += 1;
        }
        let (start_a, start_b) = (i, j);
        while i < a.len() && a[i].is_ascii_digit() {
            i += 1;
        }
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let (na, nb) = (&a[start_a..i], &b[start_b..j]);
        if na.len() != nb.len() {
            return na.len() < nb.len();
        }
        if na != nb {
            return na < nb;
        }
        if start_a != start_b {
            return start_a < start_b;
        }
    }
    a.len() < b.len()
}

/// A Kubernetes resource quantity (`1.5`, `100m`, `2Gi`, `1e3`) as a number, or `None` when
/// the text is not one.
pub fn parse_quantity(text: &str) -> Option<f64> {
    let number_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(number_end);
    let digits = number.strip_prefix(['+', '-']).unwrap_or(number);
    if digits.is_empty()
        || digits == "."
        || digits.matches('.').count() > 1
        || digits.contains(['+', '-'])
    {
        return None;
    }
    let value: f64 = number.parse().ok()?;
    let scale = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024f64,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        exponent => {
            let power = exponent.strip_prefix(['e', 'E'])?;
            let digits = power.strip_prefix(['+', '-']).unwrap_or(power);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            10f64.powi(power.parse().ok()?)
        }
    };
    Some(value * scale)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn natural_order() {
        assert!(natural_less("pod-2", "pod-10"));
        assert!(!natural_less("pod-10", "pod-2"));
        assert!(natural_less("a1", "ab"));
        assert!(natural_less("a01", "a001"));
        assert!(natural_less("a", "ab"));
        assert!(!natural_less("b", "a"));
    }

    #[test]
    fn quantities_and_numbers() {
        assert_eq!(parse_quantity("100m"), Some(0.1));
        assert_eq!(parse_quantity("2Gi"), Some(2.0 * 1024f64.powi(3)));
        assert_eq!(parse_quantity("1e3"), Some(1000.0));
        assert_eq!(parse_quantity("Running"), None);
        assert_eq!(parse_quantity("web-1"), None);
        assert!(sort_key_less(&json!("500m"), &json!("1")));
        assert!(sort_key_less(&json!("900Mi"), &json!("1Gi")));
        assert!(sort_key_less(&json!(2), &json!(10)));
        assert!(sort_key_less(&json!(null), &json!("a")));
        assert!(!sort_key_less(&json!(true), &json!(false)));
    }
}

/// Go's `sort.Sort` (pattern-defeating quicksort, Go 1.19+), step for step: it is not stable,
/// and kubectl's `--sort-by` uses it, so rows with equal keys come out in exactly the order
/// kubectl prints them only if kw swaps exactly as Go does. Never panics, whatever `less`.
pub fn go_sort<T>(data: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = data.len();
    if n <= 1 {
        return;
    }
    let limit = bit_length(n);
    let mut sorter = GoSorter { data, less };
    sorter.pdqsort(0, n, limit);
}

fn bit_length(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

struct GoSorter<'d, T, F> {
    data: &'d mut [T],
    less: F,
}

impl<T, F: Fn(&T, &T) -> bool> GoSorter<'_, T, F> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(&self.data[i], &self.data[j])
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.data.swap(i, j);
    }

    fn insertion_sort(&mut self, a: usize, b: usize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    fn sift_down(&mut self, lo: usize, hi: usize, first: usize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                return;
            }
            if child + 1 < hi && self.less(first + child, first + child + 1) {
                child += 1;
            }
            if !self.less(first + root, first + child) {
                return;
            }
            self.swap(first + root, first + child);
            root = child;
        }
    }

    fn heap_sort(&mut self, a: usize, b: usize) {
        let first = a;
        let hi = b - a;
        for i in (0..=(hi.saturating_sub(1)) / 2).rev() {
            self.sift_down(i, hi, first);
        }
        for i in (0..hi).rev() {
            self.swap(first, first + i);
            self.sift_down(0, i, first);
        }
    }

    fn pdqsort(&mut self, mut a: usize, mut b: usize, mut limit: usize) {
        const MAX_INSERTION: usize = 12;
        let mut was_balanced = true;
        let mut was_partitioned = true;
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion_sort(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == Hint::Decreasing {
                self.reverse_range(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            if was_balanced
                && was_partitioned
                && hint == Hint::Increasing
                && self.partial_insertion_sort(a, b)
            {
                return;
            }
            if a > 0 && !self.less(a - 1, pivot) {
                a = self.partition_equal(a, b, pivot);
                continue;
            }
            let (mid, already_partitioned) = self.partition(a, b, pivot);
            was_partitioned = already_partitioned;
            let (left_len, right_len) = (mid - a, b - mid);
            let balance_threshold = length / 8;
            if left_len < right_len {
                was_balanced = left_len >= balance_threshold;
                self.pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right_len >= balance_threshold;
                self.pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    fn partition(&mut self, a: usize, b: usize, pivot: usize) -> (usize, bool) {
        self.swap(a, pivot);
        // i and j are inclusive; j may step below a + 1, so work in signed numbers.
        let (mut i, mut j) = (a as isize + 1, b as isize - 1);
        while i <= j && self.less(i as usize, a) {
            i += 1;
        }
        while i <= j && !self.less(j as usize, a) {
            j -= 1;
        }
        if i > j {
            self.swap(j as usize, a);
            return (j as usize, true);
        }
        self.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
        loop {
            while i <= j && self.less(i as usize, a) {
                i += 1;
            }
            while i <= j && !self.less(j as usize, a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i as usize, j as usize);
            i += 1;
            j -= 1;
        }
        self.swap(j as usize, a);
        (j as usize, false)
    }

    fn partition_equal(&mut self, a: usize, b: usize, pivot: usize) -> usize {
        self.swap(a, pivot);
        let (mut i, mut j) = (a as isize + 1, b as isize - 1);
        loop {
            while i <= j && !self.less(a, i as usize) {
                i += 1;
            }
            while i <= j && self.less(a, j as usize) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i as usize, j as usize);
            i += 1;
            j -= 1;
        }
        i as usize
    }

    fn partial_insertion_sort(&mut self, a: usize, b: usize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: usize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.swap(i, i - 1);
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                    j -= 1;
                }
            }
            if b - i >= 2 {
                for j in i + 1..b {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                }
            }
        }
        false
    }

    fn break_patterns(&mut self, a: usize, b: usize) {
        let length = b - a;
        if length >= 8 {
            let mut random = length as u64;
            let modulus = 1usize << bit_length(length);
            let middle = a + (length / 4) * 2;
            for idx in middle - 1..=middle + 1 {
                random ^= random << 13;
                random ^= random >> 7;
                random ^= random << 17;
                let mut other = (random as usize) & (modulus - 1);
                if other >= length {
                    other -= length;
                }
                self.swap(idx, a + other);
            }
        }
    }

    fn choose_pivot(&mut self, a: usize, b: usize) -> (usize, Hint) {
        const SHORTEST_NINTHER: usize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let l = b - a;
        let mut swaps = 0;
        let mut i = a + l / 4;
        let mut j = a + l / 4 * 2;
        let mut k = a + l / 4 * 3;
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = self.median(i - 1, i, i + 1, &mut swaps);
                j = self.median(j - 1, j, j + 1, &mut swaps);
                k = self.median(k - 1, k, k + 1, &mut swaps);
            }
            j = self.median(i, j, k, &mut swaps);
        }
        match swaps {
            0 => (j, Hint::Increasing),
            MAX_SWAPS => (j, Hint::Decreasing),
            _ => (j, Hint::Unknown),
        }
    }

    fn order2(&self, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
        if self.less(b, a) {
            *swaps += 1;
            (b, a)
        } else {
            (a, b)
        }
    }

    fn median(&self, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, c) = self.order2(b, c, swaps);
        let _ = c;
        let (_, b) = self.order2(a, b, swaps);
        b
    }

    fn reverse_range(&mut self, a: usize, b: usize) {
        let (mut i, mut j) = (a, b - 1);
        while i < j {
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }
}

#[cfg(test)]
mod go_sort_tests {
    use super::*;

    #[test]
    fn sorts_like_a_sort() {
        let mut state = 12345u64;
        for n in [0, 1, 5, 13, 50, 51, 200, 1000] {
            let mut values: Vec<u64> = (0..n)
                .map(|_| {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                    (state >> 33) % 17
                })
                .collect();
            let mut expected = values.clone();
            expected.sort();
            go_sort(&mut values, |a, b| a < b);
            assert_eq!(values, expected, "n={n}");
        }
        let mut descending: Vec<u32> = (0..300).rev().collect();
        go_sort(&mut descending, |a, b| a < b);
        assert!(descending.windows(2).all(|w| w[0] <= w[1]));
        let mut chaos: Vec<u32> = (0..300).collect();
        go_sort(&mut chaos, |_, _| true);
        assert_eq!(chaos.len(), 300);
    }
}
