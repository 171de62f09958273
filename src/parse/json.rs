//! JSON as the manifest reader needs it: strings, lists and objects, borrowed from the text.
//!
//! `serde_json::Value` allocates a `String` for every string and a tree node for every key;
//! a plugin manifest is mostly descriptions and keywords the audit never reads, so building
//! that tree cost more than parsing the text. Here a string without escapes is a slice of
//! the text, an object is a list of its entries, and numbers, booleans and null are
//! [`Json::Other`]. The text is parsed by serde_json all the same, so what it rejects (and
//! the message and position it gives) is unchanged.

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json<'a> {
    Str(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    /// Entries in the order written; a repeated key counts once, by its last value.
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
    /// A number, `true`, `false` or `null`.
    Other,
}

impl<'a> Json<'a> {
    /// Parse `text`, borrowing from it.
    #[cfg(test)]
    pub(crate) fn parse(text: &'a str) -> Result<Json<'a>, serde_json::Error> {
        Json::parse_keeping(text, &|_| true)
    }

    /// Parse `text`, borrowing from it, with only the object entries whose key `keep` picks
    /// (at any depth).
    pub(crate) fn parse_keeping(
        text: &'a str,
        keep: &dyn Fn(&str) -> bool,
    ) -> Result<Json<'a>, serde_json::Error> {
        let mut d = serde_json::Deserializer::from_str(text);
        let json = Keeping { keep }.deserialize(&mut d)?;
        d.end()?;
        Ok(json)
    }

    /// The value of `key`, when this is an object that has it (the last one, as serde_json's
    /// map keeps it).
    pub(crate) fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(entries) => entries.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }
}

/// Reads any JSON value into a [`Json`], keeping only the object entries whose key `keep`
/// picks: the others are parsed (so errors are still found) but not stored.
#[derive(Clone, Copy)]
struct Keeping<'k> {
    keep: &'k dyn Fn(&str) -> bool,
}

impl<'de> DeserializeSeed<'de> for Keeping<'_> {
    type Value = Json<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Keeping<'_> {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Json::Other)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Json::Other)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Json::Other)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Json::Other)
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Json::Other)
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Json::Other)
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Json::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Json::Str(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
        Ok(Json::Str(Cow::Owned(s)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries: Vec<(Cow<'de, str>, Json<'de>)> = Vec::new();
        while let Some(key) = map.next_key_seed(Key)? {
            if !(self.keep)(&key) {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let value = map.next_value_seed(self)?;
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = value,
                None => entries.push((key, value)),
            }
        }
        Ok(Json::Object(entries))
    }
}

/// An object's key, borrowed from the text when it has no escapes.
struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(s))
    }

    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s.to_owned()))
    }

    fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    /// What serde_json's `Value` says of the same text, in this module's terms.
    fn from_value(v: &Value) -> Json<'static> {
        match v {
            Value::String(s) => Json::Str(Cow::Owned(s.clone())),
            Value::Array(a) => Json::Array(a.iter().map(from_value).collect()),
            Value::Object(o) => Json::Object(
                o.iter()
                    .map(|(k, v)| (Cow::Owned(k.clone()), from_value(v)))
                    .collect(),
            ),
            _ => Json::Other,
        }
    }

    /// Objects compared as maps: `Value`'s are sorted by key, these are in the text's order.
    fn sorted(j: Json<'_>) -> Json<'static> {
        match j {
            Json::Str(s) => Json::Str(Cow::Owned(s.into_owned())),
            Json::Array(a) => Json::Array(a.into_iter().map(sorted).collect()),
            Json::Object(o) => {
                let mut o: Vec<(Cow<'static, str>, Json<'static>)> = o
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k.into_owned()), sorted(v)))
                    .collect();
                o.sort_by(|a, b| a.0.cmp(&b.0));
                Json::Object(o)
            }
            Json::Other => Json::Other,
        }
    }

    #[test]
    fn strings_without_escapes_are_borrowed() {
        let text = r#"{"name": "ops", "d": "a\"b", "n": [1, true, null]}"#;
        let j = Json::parse(text).unwrap();
        assert!(matches!(
            j.get("name"),
            Some(Json::Str(Cow::Borrowed("ops")))
        ));
        assert_eq!(j.get("d").and_then(Json::as_str), Some("a\"b"));
        assert_eq!(
            j.get("n").and_then(Json::as_array),
            Some(&[Json::Other, Json::Other, Json::Other][..])
        );
        assert_eq!(j.get("missing"), None);
        assert_eq!(Json::Other.get("name"), None);
    }

    #[test]
    fn a_repeated_key_keeps_its_last_value_as_serde_json_does() {
        let text = r#"{"name": "a", "x": 1, "name": "b"}"#;
        let j = Json::parse(text).unwrap();
        assert_eq!(j.get("name").and_then(Json::as_str), Some("b"));
        let v: Value = serde_json::from_str(text).unwrap();
        assert_eq!(sorted(j), sorted(from_value(&v)));
    }

    #[test]
    fn rejects_what_serde_json_rejects_with_its_message() {
        for text in [
            "{",
            "[1,]",
            r#"{"a" 1}"#,
            "\"\\x\"",
            "{} x",
            &"[".repeat(200),
        ] {
            let ours = Json::parse(text).unwrap_err().to_string();
            let theirs = serde_json::from_str::<Value>(text).unwrap_err().to_string();
            assert_eq!(ours, theirs, "{text}");
        }
    }

    fn json_text() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            (-1000i64..1000).prop_map(|n| n.to_string()),
            Just("1.5e3".to_owned()),
            "[a-c\"\\\\/é\n]{0,6}".prop_map(|s| serde_json::to_string(&s).unwrap()),
        ];
        leaf.prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5)
                    .prop_map(|items| format!("[{}]", items.join(", "))),
                proptest::collection::vec(("[a-c]{0,2}", inner), 0..5).prop_map(|entries| {
                    let entries: Vec<String> = entries
                        .iter()
                        .map(|(k, v)| format!("{}: {v}", serde_json::to_string(k).unwrap()))
                        .collect();
                    format!("{{{}}}", entries.join(", "))
                }),
            ]
        })
    }

    /// `j` without the object entries whose key is `b`, at any depth.
    fn without_b(j: Json<'static>) -> Json<'static> {
        match j {
            Json::Array(a) => Json::Array(a.into_iter().map(without_b).collect()),
            Json::Object(o) => Json::Object(
                o.into_iter()
                    .filter(|(k, _)| k != "b")
                    .map(|(k, v)| (k, without_b(v)))
                    .collect(),
            ),
            other => other,
        }
    }

    proptest! {
        /// The same tree as `Value`'s, object by object (repeated keys included), and with
        /// the entries not kept left out at every depth.
        #[test]
        fn agrees_with_serde_json_value(text in json_text()) {
            let v: Value = serde_json::from_str(&text).unwrap();
            let ours = Json::parse(&text).unwrap();
            prop_assert_eq!(sorted(ours), sorted(from_value(&v)));
            let kept = Json::parse_keeping(&text, &|k| k != "b").unwrap();
            prop_assert_eq!(sorted(kept), without_b(sorted(from_value(&v))));
        }
    }
}
