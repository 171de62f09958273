//! Typing scalars by the YAML 1.2 core schema, with YAML 1.1's `yes`/`no`/`on`/`off` kept as
//! strings (the frontmatter fields that take booleans are few, and a skill named `no` is text).

use super::Value;

/// The value of a scalar: `plain` scalars are typed by their spelling, quoted and block scalars
/// are strings. `tag` is a core-schema tag suffix (`str`, `int`, ...) or `""` for none; a tag
/// the value cannot satisfy is an error naming both.
pub(crate) fn resolve(text: &str, plain: bool, tag: Option<&str>) -> Result<Value, String> {
    let typed = match tag {
        None => {
            return Ok(if plain {
                implicit(text)
            } else {
                Value::Str(text.to_owned())
            });
        }
        Some("str") => return Ok(Value::Str(text.to_owned())),
        Some("null") => is_null(text).then_some(Value::Null),
        Some("bool") => boolean(text).map(Value::Bool),
        Some("int") => integer(text),
        Some("float") => float(text).or_else(|| match integer(text) {
            Some(Value::Int(i)) => Some(Value::Float(i as f64)),
            other => other,
        }),
        // `!!map` or `!!seq` on a scalar, or another core tag: the tag cannot hold.
        Some(_) => None,
    };
    let tag = tag.unwrap_or_default();
    typed.ok_or_else(|| format!("{} is not a valid !!{tag}", crate::diagnostic::quote(text)))
}

/// A plain scalar's implicit type.
fn implicit(text: &str) -> Value {
    if is_null(text) {
        return Value::Null;
    }
    if let Some(b) = boolean(text) {
        return Value::Bool(b);
    }
    // Every number starts with a digit, a sign or a dot; most scalars are text and stop here.
    if !matches!(
        text.as_bytes().first(),
        Some(b'0'..=b'9' | b'-' | b'+' | b'.')
    ) {
        return Value::Str(text.to_owned());
    }
    integer(text)
        .or_else(|| float(text))
        .unwrap_or_else(|| Value::Str(text.to_owned()))
}

fn is_null(text: &str) -> bool {
    matches!(text, "" | "~" | "null" | "Null" | "NULL")
}

fn boolean(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// `[-+]?` decimal digits, or `0x`/`0o`/`0b` digits; a value beyond `i64` becomes a float
/// rather than an error.
fn integer(text: &str) -> Option<Value> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits) = match unsigned.get(..2) {
        Some("0x") => (16, &unsigned[2..]),
        Some("0o") => (8, &unsigned[2..]),
        Some("0b") => (2, &unsigned[2..]),
        _ => (10, unsigned),
    };
    if digits.is_empty() || !digits.bytes().all(|b| (b as char).is_digit(radix)) {
        return None;
    }
    let magnitude = u128::from_str_radix(digits, radix).ok()?;
    let value = if negative {
        0i128.checked_sub_unsigned(magnitude)?
    } else {
        i128::try_from(magnitude).ok()?
    };
    Some(i64::try_from(value).map_or(Value::Float(value as f64), Value::Int))
}

/// `[-+]?(.d+|d+(.d*)?)([eE][-+]?d+)?`, `[-+]?.inf` and `.nan` in their three spellings.
fn float(text: &str) -> Option<Value> {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        let inf = if text.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        return Some(Value::Float(inf));
    }
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(Value::Float(f64::NAN));
    }
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => {
            (digits(int) && (frac.is_empty() || digits(frac))) || (int.is_empty() && digits(frac))
        }
        None => digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)));
    // Bare digits are an integer's spelling, never a float's.
    let integral = exponent.is_none() && !mantissa.contains('.');
    if !mantissa_ok || !exponent_ok || integral {
        return None;
    }
    text.parse().ok().map(Value::Float)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str) -> Value {
        resolve(text, true, None).unwrap()
    }

    #[test]
    fn plain_scalars_follow_the_core_schema() {
        for null in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(plain(null), Value::Null, "{null:?}");
        }
        assert_eq!(plain("TRUE"), Value::Bool(true));
        assert_eq!(plain("False"), Value::Bool(false));
        for text in ["yes", "no", "on", "off", "y", "nULL", "tRUE"] {
            assert_eq!(plain(text), Value::Str(text.into()), "{text:?}");
        }
        assert_eq!(plain("42"), Value::Int(42));
        assert_eq!(plain("-7"), Value::Int(-7));
        assert_eq!(plain("+7"), Value::Int(7));
        assert_eq!(plain("0x1F"), Value::Int(31));
        assert_eq!(plain("0o17"), Value::Int(15));
        assert_eq!(plain("007"), Value::Int(7));
        assert_eq!(plain("-9223372036854775808"), Value::Int(i64::MIN));
        assert_eq!(
            plain("9223372036854775808"),
            Value::Float(9.223_372_036_854_776e18)
        );
        assert_eq!(plain("1.10"), Value::Float(1.1));
        assert_eq!(plain(".5"), Value::Float(0.5));
        assert_eq!(plain("1."), Value::Float(1.0));
        assert_eq!(plain("1e3"), Value::Float(1000.0));
        assert_eq!(plain("-.inf"), Value::Float(f64::NEG_INFINITY));
        assert!(matches!(plain(".NaN"), Value::Float(f) if f.is_nan()));
        // Spellings that only look like numbers stay text.
        for text in [
            "0X1F", "1_000", "1.2.3", "-.nan", "inf", "nan", "1e", ".", "0x", "v1.2", "+",
        ] {
            assert_eq!(plain(text), Value::Str(text.into()), "{text:?}");
        }
    }

    #[test]
    fn quoted_scalars_are_strings_and_tags_are_checked() {
        assert_eq!(resolve("42", false, None).unwrap(), Value::Str("42".into()));
        assert_eq!(
            resolve("42", true, Some("str")).unwrap(),
            Value::Str("42".into())
        );
        assert_eq!(resolve("42", false, Some("int")).unwrap(), Value::Int(42));
        assert_eq!(
            resolve("3", true, Some("float")).unwrap(),
            Value::Float(3.0)
        );
        assert_eq!(resolve("~", true, Some("null")).unwrap(), Value::Null);
        let err = resolve("many", true, Some("int")).unwrap_err();
        assert_eq!(err, "`many` is not a valid !!int");
        assert!(resolve("a", true, Some("seq")).is_err());
    }
}
