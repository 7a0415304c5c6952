//! Ordering rows for `--sort-by` as kubectl's `TableSorter` orders them (`kubectl/pkg/cmd/get/
//! sorter.go`): numbers by value, strings that are both resource quantities (`100m`, `1Gi`) by
//! quantity, other strings in natural order (`pod-2` before `pod-10`, `sortorder.NaturalLess`),
//! arrays element by element; values kubectl cannot sort (booleans, maps, mixed types) compare
//! as "not less". The sort itself is Go's (`go_sort`).

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
