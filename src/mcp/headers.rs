//! `--header 'Name: value'` for HTTP servers. Values may name environment variables (`$VAR`,
//! `${VAR}`), expanded only when the connection is made, so secrets stay out of shell history,
//! command lines shown by `ps` and saved files.

/// Split `Name: value` into its name and its (unexpanded) value.
pub(crate) fn split(raw: &str) -> Result<(String, String), String> {
    let Some((name, value)) = raw.split_once(':') else {
        return Err(format!(
            "header `{}` has no `:`; write it as `Name: value`",
            name_only(raw)
        ));
    };
    let name = name.trim();
    if name.is_empty() || !name.bytes().all(is_token_byte) {
        return Err(format!(
            "`{}` is not a valid HTTP header name",
            name_only(name)
        ));
    }
    Ok((name.to_owned(), value.trim().to_owned()))
}

/// What of a header may be shown in messages: never its value, which may hold a secret.
fn name_only(raw: &str) -> String {
    raw.split(':')
        .next()
        .unwrap_or_default()
        .chars()
        .take(64)
        .collect()
}

/// RFC 9110 `token` characters.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Replace `$VAR` and `${VAR}` with the variable's value, looked up with `lookup`. A `$` not
/// followed by a name stays as it is; `$$` is one `$`. An unset variable is an error.
pub(crate) fn expand(
    value: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(tail) = after.strip_prefix('$') {
            out.push('$');
            rest = tail;
            continue;
        }
        let (name, tail) = if let Some(inner) = after.strip_prefix('{') {
            let Some(end) = inner.find('}') else {
                return Err("a `${` in a header value has no closing `}`".into());
            };
            (&inner[..end], &inner[end + 1..])
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        if name.is_empty() {
            out.push('$');
            rest = after;
            continue;
        }
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!("`${{{name}}}` is not an environment variable name"));
        }
        match lookup(name) {
            Some(v) => out.push_str(&v),
            None => {
                return Err(format!(
                    "environment variable `{name}` (named in a --header value) is not set"
                ));
            }
        }
        rest = tail;
    }
    out.push_str(rest);
    Ok(out)
}

/// Expand every header against the process environment.
pub(crate) fn resolve(headers: &[(String, String)]) -> Result<Vec<(String, String)>, String> {
    headers
        .iter()
        .map(|(n, v)| Ok((n.clone(), expand(v, |k| std::env::var(k).ok())?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "TOKEN" => Some("s3cret".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn splits_name_and_value() {
        assert_eq!(
            split("Authorization: Bearer $TOKEN").unwrap(),
            ("Authorization".into(), "Bearer $TOKEN".into())
        );
        assert_eq!(split("X-A:b:c").unwrap(), ("X-A".into(), "b:c".into()));
        assert!(split("no colon").is_err());
        assert!(split("bad name: x").is_err());
        assert!(split(": x").is_err());
    }

    #[test]
    fn messages_never_show_the_value() {
        let e = split("Bearer secret-value").unwrap_err();
        assert!(
            e.contains("Bearer secret-value"),
            "the whole text is the name here: {e}"
        );
        let e = split("bad name: topsecret").unwrap_err();
        assert!(!e.contains("topsecret"), "{e}");
    }

    #[test]
    fn expands_both_forms() {
        assert_eq!(expand("Bearer $TOKEN", env).unwrap(), "Bearer s3cret");
        assert_eq!(expand("Bearer ${TOKEN}x", env).unwrap(), "Bearer s3cretx");
        assert_eq!(expand("a$EMPTY-b", env).unwrap(), "a-b");
        assert_eq!(
            expand("cost: 5$ and $$TOKEN", env).unwrap(),
            "cost: 5$ and $TOKEN"
        );
        assert_eq!(expand("plain", env).unwrap(), "plain");
    }

    #[test]
    fn unset_or_malformed_variables_are_errors() {
        let e = expand("Bearer $NOPE", env).unwrap_err();
        assert!(e.contains("`NOPE`"), "{e}");
        assert!(expand("${TOKEN", env).is_err());
        assert!(expand("${A-B}", env).is_err());
    }
}
