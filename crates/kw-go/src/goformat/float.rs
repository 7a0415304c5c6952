//! Go's `fmt` verbs on a float64 (`%b %e %E %f %F %g %G %x %X`, and `%v` with a precision or a
//! flag), as `fmt.(*fmt).fmtFloat` writes what `strconv.AppendFloat` gives it: the sign (`+`,
//! or a space with the space flag), `#`'s decimal point and kept zeros, `+Inf`/`NaN`. Widths
//! are the caller's. Digits come from Rust's formatter, which, like Go's, gives the shortest
//! digits that read back as the same float, or the correctly rounded digits of a precision.

/// `fmtFloat(v, 64, verb, prec)`: `precision` is the format's (`%.3g`), `None` for the verb's
/// default (shortest for `%g %x %b %v`, 6 for `%e %f`). `flags` are the format's (`#+- 0`).
pub fn format(float: f64, verb: char, precision: Option<usize>, flags: &str) -> String {
    let default = match verb {
        'e' | 'E' | 'f' | 'F' => Some(6),
        _ => None,
    };
    let precision = precision.or(default);
    let conversion = match verb {
        'v' => 'g',
        'F' => 'f',
        other => other,
    };
    let mut num = String::with_capacity(32);
    num.push(if float.is_sign_negative() { '-' } else { '+' });
    append_float(&mut num, float.abs(), conversion, precision);
    let plus = flags.contains('+');
    if flags.contains(' ') && num.starts_with('+') && !plus {
        num.replace_range(..1, " ");
    }
    if !float.is_finite() {
        // Go keeps `+Inf`'s sign; a NaN's only when asked for.
        if float.is_nan() && !flags.contains(' ') && !plus {
            num.remove(0);
        }
        return num;
    }
    if flags.contains('#') && verb != 'b' {
        num = sharp(num, verb, precision);
    }
    if plus || !num.starts_with('+') {
        num
    } else {
        num[1..].to_string()
    }
}

/// `#`: a decimal point always, and for `%g`/`%x`/`%v` the trailing zeros up to the precision
/// (6 by default) kept, as Go's loop over the digits counts them.
fn sharp(num: String, verb: char, precision: Option<usize>) -> String {
    let mut digits: i64 = match verb {
        'v' | 'g' | 'G' | 'x' => precision.map_or(6, |p| p as i64),
        _ => 0,
    };
    let bytes = num.as_bytes();
    let mut end = bytes.len();
    let mut has_point = false;
    let mut saw_nonzero = false;
    let mut i = 1;
    while i < end {
        let byte = bytes[i];
        match byte {
            b'.' => has_point = true,
            b'p' | b'P' => end = i,
            b'e' | b'E' if verb != 'x' && verb != 'X' => end = i,
            _ => {
                saw_nonzero |= byte != b'0';
                if saw_nonzero {
                    digits -= 1;
                }
            }
        }
        i += 1;
    }
    let (head, tail) = num.split_at(end);
    let mut out = head.to_string();
    if !has_point {
        // A leading 0 counts once.
        if head.len() == 2 && head.as_bytes()[1] == b'0' {
            digits -= 1;
        }
        out.push('.');
    }
    if digits > 0 {
        out.extend(std::iter::repeat_n('0', digits as usize));
    }
    out.push_str(tail);
    out
}

/// `strconv.AppendFloat(dst, float, verb, prec, 64)` of a float that is not negative.
fn append_float(out: &mut String, float: f64, verb: char, precision: Option<usize>) {
    if float.is_nan() {
        out.truncate(0);
        out.push_str("+NaN");
        return;
    }
    if float.is_infinite() {
        out.push_str("Inf");
        return;
    }
    match verb {
        'b' => binary(out, float),
        'x' | 'X' => hex(out, float, verb, precision),
        'g' | 'G' => general(out, float, verb == 'G', precision),
        'e' | 'E' => {
            let digits = Digits::rounded(float, precision.unwrap_or(6) + 1);
            digits.write_e(out, precision.unwrap_or(6), verb);
        }
        _ => fixed(out, float, precision.unwrap_or(6)),
    }
}

/// A float's decimal digits as Go's `decimalSlice` holds them: `digits` without trailing zeros
/// (none at all for zero), the point after `point` of them.
struct Digits {
    digits: Vec<u8>,
    point: i64,
}

impl Digits {
    /// The shortest digits that read back as `float`.
    fn shortest(float: f64) -> Digits {
        Digits::parse(&format!("{float:e}"))
    }

    /// `float` rounded to `significant` digits. A float64's exact expansion has at most 767
    /// significant digits: past those the digits are zeros, trimmed all the same.
    fn rounded(float: f64, significant: usize) -> Digits {
        let significant = significant.clamp(1, 1_100);
        Digits::parse(&format!("{float:.*e}", significant - 1))
    }

    /// Rust's `{:e}`: `1.25e-7`, `0e0`.
    fn parse(text: &str) -> Digits {
        let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
        let mut digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
        while digits.last() == Some(&b'0') {
            digits.pop();
        }
        let exponent: i64 = exponent.parse().unwrap_or(0);
        let point = if digits.is_empty() { 0 } else { exponent + 1 };
        Digits { digits, point }
    }

    fn len(&self) -> i64 {
        self.digits.len() as i64
    }

    /// strconv's `fmtE`: `d.ddddde±dd`, `precision` digits after the point.
    fn write_e(&self, out: &mut String, precision: usize, verb: char) {
        out.push(self.digits.first().map_or('0', |&d| d as char));
        if precision > 0 {
            out.push('.');
            let more = self.digits.get(1..).unwrap_or(&[]);
            let shown = more.len().min(precision);
            out.extend(more[..shown].iter().map(|&d| d as char));
            out.extend(std::iter::repeat_n('0', precision - shown));
        }
        out.push(verb);
        let exponent = if self.digits.is_empty() {
            0
        } else {
            self.point - 1
        };
        out.push(if exponent < 0 { '-' } else { '+' });
        let magnitude = exponent.unsigned_abs();
        if magnitude < 10 {
            out.push('0');
        }
        out.push_str(&magnitude.to_string());
    }

    /// strconv's `fmtF`: the integer part (`0` when there is none), `precision` digits after.
    fn write_f(&self, out: &mut String, precision: usize) {
        if self.point > 0 {
            let whole = (self.point as usize).min(self.digits.len());
            out.extend(self.digits[..whole].iter().map(|&d| d as char));
            out.extend(std::iter::repeat_n('0', self.point as usize - whole));
        } else {
            out.push('0');
        }
        if precision > 0 {
            out.push('.');
            for i in 1..=precision as i64 {
                let j = self.point + i - 1;
                let digit = usize::try_from(j)
                    .ok()
                    .and_then(|j| self.digits.get(j))
                    .copied()
                    .unwrap_or(b'0');
                out.push(digit as char);
            }
        }
    }
}

/// `%f` for any precision up to fmt's million: Rust's formatter takes at most 65,535 digits,
/// while a float64's exact expansion ends within 1,074 digits after the point.
fn fixed(out: &mut String, float: f64, precision: usize) {
    const EXACT: usize = 1_100;
    out.push_str(&format!("{float:.*}", precision.min(EXACT)));
    if precision > EXACT {
        out.extend(std::iter::repeat_n('0', precision - EXACT));
    }
}

/// `%g`: `%e` when the exponent is < -4 or >= the precision (6 when shortest), else `%f`;
/// either with the digits there are, no trailing zeros.
fn general(out: &mut String, float: f64, upper: bool, precision: Option<usize>) {
    let shortest = precision.is_none();
    let digits = match precision {
        None => Digits::shortest(float),
        Some(p) => Digits::rounded(float, p.max(1)),
    };
    let mut precision = match precision {
        None => digits.len(),
        Some(p) => p.max(1) as i64,
    };
    let mut eprec = precision;
    if eprec > digits.len() && digits.len() >= digits.point {
        eprec = digits.len();
    }
    if shortest {
        eprec = 6;
    }
    let exponent = digits.point - 1;
    if exponent < -4 || exponent >= eprec {
        if precision > digits.len() {
            precision = digits.len();
        }
        let after = (precision - 1).max(0) as usize;
        digits.write_e(out, after, if upper { 'E' } else { 'e' });
    } else {
        if precision > digits.point {
            precision = digits.len();
        }
        digits.write_f(out, (precision - digits.point).max(0) as usize);
    }
}

/// strconv's `fmtX`: `0x1.8p+01`, the mantissa's hex digits (all there are, or `precision` of
/// them rounded half to even), the binary exponent signed, of two digits at least.
fn hex(out: &mut String, float: f64, verb: char, precision: Option<usize>) {
    let (mut mant, mut exp) = binary_parts(float);
    exp += MANT_BITS;
    if mant == 0 {
        exp = 0;
    }
    // The leading 1 (if any) at bit 60.
    mant <<= 60 - MANT_BITS as u32;
    while mant != 0 && mant & (1 << 60) == 0 {
        mant <<= 1;
        exp -= 1;
    }
    if let Some(p) = precision.filter(|&p| p < 15) {
        let shift = p as u32 * 4;
        let extra = (mant << shift) & ((1 << 60) - 1);
        mant >>= 60 - shift;
        if extra | (mant & 1) > 1 << 59 {
            mant += 1;
        }
        mant <<= 60 - shift;
        if mant & (1 << 61) != 0 {
            mant >>= 1;
            exp += 1;
        }
    }
    let upper = verb == 'X';
    let digit = |d: u64| {
        let c = char::from_digit(d as u32, 16).unwrap_or('0');
        if upper {
            c.to_ascii_uppercase()
        } else {
            c
        }
    };
    out.push('0');
    out.push(verb);
    out.push(if (mant >> 60) & 1 == 1 { '1' } else { '0' });
    mant <<= 4;
    match precision {
        None if mant != 0 => {
            out.push('.');
            while mant != 0 {
                out.push(digit((mant >> 60) & 15));
                mant <<= 4;
            }
        }
        Some(p) if p > 0 => {
            out.push('.');
            for _ in 0..p {
                out.push(digit((mant >> 60) & 15));
                mant <<= 4;
            }
        }
        _ => {}
    }
    out.push(if upper { 'P' } else { 'p' });
    out.push(if exp < 0 { '-' } else { '+' });
    let magnitude = exp.unsigned_abs();
    if magnitude < 10 {
        out.push('0');
    }
    out.push_str(&magnitude.to_string());
}

/// A float64's mantissa bits.
const MANT_BITS: i64 = 52;

/// `float` as `mant * 2^exp`, as strconv's `genericFtoa` reads its bits: the implicit top bit
/// added to a normal float's mantissa, a subnormal's exponent that of the smallest normal.
fn binary_parts(float: f64) -> (u64, i64) {
    let bits = float.to_bits();
    let biased = ((bits >> MANT_BITS) & 0x7ff) as i64;
    let fraction = bits & ((1 << MANT_BITS) - 1);
    match biased {
        0 => (fraction, 1 - 1023 - MANT_BITS),
        _ => (fraction | 1 << MANT_BITS, biased - 1023 - MANT_BITS),
    }
}

/// strconv's `fmtB`: the mantissa in decimal, `p`, the binary exponent.
fn binary(out: &mut String, float: f64) {
    let (mant, exp) = binary_parts(float);
    out.push_str(&mant.to_string());
    out.push('p');
    if exp >= 0 {
        out.push('+');
    }
    out.push_str(&exp.to_string());
}

#[cfg(test)]
mod tests {
    use super::format;

    /// kubectl 1.37's printf of each (tests/golden/gotmpl_printf_floats.out has them all):
    /// the shortest `%g` with its exponent threshold, precisions, `#`, hex floats, `%b`.
    #[test]
    fn prints_as_go_fmt() {
        let cases: &[(f64, char, Option<usize>, &str, &str)] = &[
            (1.5, 'g', None, "", "1.5"),
            (1e21, 'g', None, "", "1e+21"),
            (1e21, 'G', None, "", "1E+21"),
            (100000.0, 'g', None, "", "100000"),
            (1000000.0, 'g', None, "", "1e+06"),
            (0.0001, 'g', None, "", "0.0001"),
            (0.00001, 'g', None, "", "1e-05"),
            (0.0, 'g', None, "", "0"),
            (1.0, 'g', Some(3), "", "1"),
            (123456.0, 'g', Some(3), "", "1.23e+05"),
            (123.456, 'g', Some(0), "", "1e+02"),
            (0.1, 'g', Some(20), "", "0.10000000000000000555"),
            (1.5, 'g', None, "#", "1.50000"),
            (0.0, 'g', None, "#", "0.00000"),
            (1e21, 'g', None, "#", "1.00000e+21"),
            (100000.0, 'g', None, "#", "100000."),
            (1.5, 'g', None, "+", "+1.5"),
            (1.5, 'g', None, " ", " 1.5"),
            (3.0, 'x', None, "", "0x1.8p+01"),
            (0.0, 'x', None, "", "0x0p+00"),
            (-1.5, 'x', None, "", "-0x1.8p+00"),
            (0.1, 'X', None, "", "0X1.999999999999AP-04"),
            (5e-324, 'x', None, "", "0x1p-1074"),
            (0.1, 'x', Some(0), "", "0x1p-03"),
            (0.1, 'x', Some(3), "", "0x1.99ap-04"),
            (0.1, 'x', Some(14), "", "0x1.999999999999a0p-04"),
            (1.96875, 'x', Some(1), "", "0x1.0p+01"),
            (3.0, 'x', None, "#", "0x1.8000p+01"),
            (0.0, 'x', None, "#", "0x0.0000p+00"),
            (1.5, 'x', Some(0), "#", "0x1.p+01"),
            (1.5, 'b', None, "", "6755399441055744p-52"),
            (5e-324, 'b', None, "", "1p-1074"),
            (1.5, 'e', None, "#", "1.500000e+00"),
            (1.0, 'e', Some(0), "#", "1.e+00"),
            (1.0, 'f', Some(0), "#", "1."),
        ];
        for &(float, verb, precision, flags, go) in cases {
            assert_eq!(
                format(float, verb, precision, flags),
                go,
                "%{flags}{}{verb} of {float}",
                precision.map(|p| format!(".{p}")).unwrap_or_default()
            );
        }
    }
}
