//! A `serde::Serializer` that writes into a `Vec<u8>` the bytes `serde_json::to_writer_pretty`
//! writes (two spaces a level).
//!
//! It exists because serde_json passes every bracket, separator, line break, key and string
//! fragment through a `Formatter` call of its own, which made large reports measurably slower
//! to write (docs/architecture.md, Hand-written parts). The code itself is plain: strings are
//! escaped with serde_json's table a byte at a time, numbers formatted by `itoa` and `zmij` as
//! serde_json formats them, and the errors are serde_json's. Tests check the bytes against
//! serde_json's.
//!
//! It mirrors serde_json's serialiser call for call, `Compound` states and the pretty
//! formatter's `current_indent` and `has_value` included, so that even a `Serialize` impl
//! that announces a wrong length is written as serde_json writes it (all but a length of 0
//! followed by entries, which sends serde_json's indentation below zero).

use std::fmt::{self, Display};

use serde::ser::{self, Impossible, Serialize};
use serde_json::Error;

type Result<T = ()> = std::result::Result<T, Error>;

/// `value` as `serde_json::to_vec_pretty` writes it.
pub(crate) fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(128);
    value.serialize(&mut Serializer::new(&mut out, 0))?;
    Ok(out)
}

/// Writes values as serde_json's pretty printer does, `depth` levels deep.
pub(crate) struct Serializer<'w> {
    out: &'w mut Vec<u8>,
    /// Levels of indentation of the entries of the innermost open array or object.
    depth: usize,
    /// Whether the innermost array or object has an entry, so needs a line break before its
    /// closing bracket. One flag for all levels, as in serde_json.
    has_value: bool,
}

impl<'w> Serializer<'w> {
    /// A serialiser for a value `depth` levels deep: its entries are indented one level more.
    pub(crate) fn new(out: &'w mut Vec<u8>, depth: usize) -> Self {
        Serializer {
            out,
            depth,
            has_value: false,
        }
    }

    fn open(&mut self, bracket: u8) {
        self.depth += 1;
        self.has_value = false;
        self.out.push(bracket);
    }

    fn close(&mut self, bracket: u8) {
        self.depth -= 1;
        if self.has_value {
            line(self.out, self.depth, true);
        }
        self.out.push(bracket);
    }

    /// `{"variant": `, the start of an enum's newtype, tuple or struct variant.
    fn open_variant(&mut self, variant: &str) {
        self.open(b'{');
        line(self.out, self.depth, true);
        string(self.out, variant);
        self.out.extend_from_slice(b": ");
    }

    /// A struct field's separator, line break, indentation, key and `": "`.
    fn field_key(&mut self, first: bool, key: &str) {
        line(self.out, self.depth, first);
        string(self.out, key);
        self.out.extend_from_slice(b": ");
    }

    fn integer<I: itoa::Integer>(&mut self, value: I) {
        self.out
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }

    fn float<F: zmij::Float>(&mut self, value: F, finite: bool) {
        if finite {
            self.out
                .extend_from_slice(zmij::Buffer::new().format_finite(value).as_bytes());
        } else {
            self.out.extend_from_slice(b"null");
        }
    }
}

/// A line break and the indentation of `depth` levels, after a comma unless `first`.
pub(crate) fn line(out: &mut Vec<u8>, depth: usize, first: bool) {
    out.extend_from_slice(if first { b"\n" } else { b",\n" });
    out.resize(out.len() + 2 * depth, b' ');
}

/// `text` quoted and escaped.
fn string(out: &mut Vec<u8>, text: &str) {
    out.reserve(text.len() + 2);
    out.push(b'"');
    string_contents(out, text);
    out.push(b'"');
}

/// `text` escaped as serde_json escapes it: `"`, `\` and the control characters below U+0020,
/// nothing else (not DEL, not U+2028).
fn string_contents(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    match first_escape(bytes) {
        None => out.extend_from_slice(bytes),
        Some(at) => escaped(out, bytes, at),
    }
}

/// Writes `bytes`, escaped, the first byte to escape at `at`.
#[cold]
#[inline(never)]
fn escaped(out: &mut Vec<u8>, bytes: &[u8], mut at: usize) {
    let mut start = 0;
    loop {
        out.extend_from_slice(&bytes[start..at]);
        escape(out, bytes[at]);
        start = at + 1;
        match first_escape(&bytes[start..]) {
            Some(next) => at = start + next,
            None => break,
        }
    }
    out.extend_from_slice(&bytes[start..]);
}

/// The first byte of `bytes` that needs an escape.
fn first_escape(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| ESCAPE[usize::from(b)] != 0)
}

/// What follows the backslash in the escape of each byte, 0 for bytes not escaped: serde_json's
/// table.
static ESCAPE: [u8; 256] = {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// The escape of `byte`, one that [`ESCAPE`] escapes.
fn escape(out: &mut Vec<u8>, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match ESCAPE[usize::from(byte)] {
        b'u' => out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(byte >> 4)],
            HEX[usize::from(byte & 0xf)],
        ]),
        escaped => out.extend_from_slice(&[b'\\', escaped]),
    }
}

/// serde_json's errors for map keys it cannot write (their constructors are its own): what
/// serde_json answers for a map with such a key.
fn key_error<K: Serialize>(key: K, message: &str) -> Error {
    struct Map<K>(K);
    impl<K: Serialize> Serialize for Map<K> {
        fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            s.collect_map([(&self.0, ())])
        }
    }
    serde_json::to_vec(&Map(key))
        .err()
        .unwrap_or_else(|| ser::Error::custom(message))
}

fn key_must_be_a_string() -> Error {
    key_error((), "key must be a string")
}

fn float_key_must_be_finite() -> Error {
    key_error(f64::NAN, "float key must be finite (got NaN or +/-inf)")
}

/// `value`'s `Display` written as a string, escaped as it comes.
fn display<T: ?Sized + Display>(out: &mut Vec<u8>, value: &T) -> Result {
    struct Escaped<'a>(&'a mut Vec<u8>);
    impl fmt::Write for Escaped<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            string_contents(self.0, s);
            Ok(())
        }
    }
    out.push(b'"');
    // serde_json panics when a `Display` fails on its own; this is an error instead.
    fmt::write(&mut Escaped(&mut *out), format_args!("{value}")).map_err(ser::Error::custom)?;
    out.push(b'"');
    Ok(())
}

impl<'a, 'w> ser::Serializer for &'a mut Serializer<'w> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 'w>;
    type SerializeTuple = Compound<'a, 'w>;
    type SerializeTupleStruct = Compound<'a, 'w>;
    type SerializeTupleVariant = Compound<'a, 'w>;
    type SerializeMap = Compound<'a, 'w>;
    type SerializeStruct = Compound<'a, 'w>;
    type SerializeStructVariant = Compound<'a, 'w>;

    fn serialize_bool(self, value: bool) -> Result {
        let text: &[u8] = if value { b"true" } else { b"false" };
        self.out.extend_from_slice(text);
        Ok(())
    }

    fn serialize_i8(self, value: i8) -> Result {
        self.integer(value);
        Ok(())
    }

    fn serialize_i16(self, value: i16) -> Result {
        self.integer(value);
        Ok(())
    }

    fn serialize_i32(self, value: i32) -> Result {
        self.integer(value);
        Ok(())
    }

    fn serialize_i64(self, value: i64) -> Result {
        self.integer(value);
        Ok(())
    }

    fn serialize_i128(self, value: i128) -> Result {
        self.integer(value);
        Ok(())
    }

    fn serialize_u8(self, value: u8) -> Result {
        self.integer(value);
        Ok(())
    }

    fn serialize_u16(self, value: u16) -> Result {
        self.integer(value);
        Ok(())
    }

    fn serialize_u32(self, value: u32) -> Result {
        self.integer(value);
        Ok(())
    }

    fn serialize_u64(self, value: u64) -> Result {
        self.integer(value);
        Ok(())
    }

    fn serialize_u128(self, value: u128) -> Result {
        self.integer(value);
        Ok(())
    }

    fn serialize_f32(self, value: f32) -> Result {
        self.float(value, value.is_finite());
        Ok(())
    }

    fn serialize_f64(self, value: f64) -> Result {
        self.float(value, value.is_finite());
        Ok(())
    }

    fn serialize_char(self, value: char) -> Result {
        string(self.out, value.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result {
        string(self.out, value);
        Ok(())
    }

    fn serialize_bytes(self, value: &[u8]) -> Result {
        self.open(b'[');
        for (i, byte) in value.iter().enumerate() {
            line(self.out, self.depth, i == 0);
            self.integer(*byte);
            self.has_value = true;
        }
        self.close(b']');
        Ok(())
    }

    fn serialize_none(self) -> Result {
        self.serialize_unit()
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result {
        self.out.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.has_value = true;
        self.close(b'}');
        Ok(())
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, 'w>> {
        self.open(b'[');
        let state = if len == Some(0) {
            self.close(b']');
            State::Empty
        } else {
            State::First
        };
        Ok(Compound { ser: self, state })
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'w>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, 'w>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'w>> {
        self.open_variant(variant);
        self.serialize_seq(Some(len))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, 'w>> {
        self.open(b'{');
        let state = if len == Some(0) {
            self.close(b'}');
            State::Empty
        } else {
            State::First
        };
        Ok(Compound { ser: self, state })
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, 'w>> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 'w>> {
        self.open_variant(variant);
        self.serialize_map(Some(len))
    }

    fn collect_str<T: ?Sized + Display>(self, value: &T) -> Result {
        display(self.out, value)
    }
}

/// Where an array or object is: closed already (announced empty), before its first entry, or
/// after one.
#[derive(PartialEq, Eq)]
enum State {
    Empty,
    First,
    Rest,
}

/// An array or object being written.
pub(crate) struct Compound<'a, 'w> {
    ser: &'a mut Serializer<'w>,
    state: State,
}

impl Compound<'_, '_> {
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        line(self.ser.out, self.ser.depth, self.state == State::First);
        self.state = State::Rest;
        value.serialize(&mut *self.ser)?;
        self.ser.has_value = true;
        Ok(())
    }

    fn value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        value.serialize(&mut *self.ser)?;
        self.ser.has_value = true;
        Ok(())
    }

    fn end(self, bracket: u8) -> Result {
        if self.state != State::Empty {
            self.ser.close(bracket);
        }
        Ok(())
    }

    /// The end of a variant's array or object, and of the object around it.
    fn end_variant(self, bracket: u8) -> Result {
        if self.state != State::Empty {
            self.ser.close(bracket);
        }
        self.ser.has_value = true;
        self.ser.close(b'}');
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.element(value)
    }

    fn end(self) -> Result {
        self.end(b']')
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.element(value)
    }

    fn end(self) -> Result {
        self.end(b']')
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.element(value)
    }

    fn end(self) -> Result {
        self.end(b']')
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.element(value)
    }

    fn end(self) -> Result {
        self.end_variant(b']')
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result {
        line(self.ser.out, self.ser.depth, self.state == State::First);
        self.state = State::Rest;
        key.serialize(MapKey {
            out: &mut *self.ser.out,
        })
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.ser.out.extend_from_slice(b": ");
        self.value(value)
    }

    fn end(self) -> Result {
        self.end(b'}')
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        self.ser.field_key(self.state == State::First, key);
        self.state = State::Rest;
        self.value(value)
    }

    fn end(self) -> Result {
        self.end(b'}')
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        ser::SerializeStruct::serialize_field(self, key, value)
    }

    fn end(self) -> Result {
        self.end_variant(b'}')
    }
}

/// A map's key, as serde_json's `MapKeySerializer` writes it: strings, and numbers, bools and
/// chars in quotes; other keys are an error.
struct MapKey<'a> {
    out: &'a mut Vec<u8>,
}

impl MapKey<'_> {
    fn quoted(self, text: &str) -> Result {
        self.out.push(b'"');
        self.out.extend_from_slice(text.as_bytes());
        self.out.push(b'"');
        Ok(())
    }

    fn integer<I: itoa::Integer>(self, value: I) -> Result {
        self.quoted(itoa::Buffer::new().format(value))
    }

    fn float<F: zmij::Float>(self, value: F, finite: bool) -> Result {
        if !finite {
            return Err(float_key_must_be_finite());
        }
        self.quoted(zmij::Buffer::new().format_finite(value))
    }
}

impl ser::Serializer for MapKey<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_str(self, value: &str) -> Result {
        string(self.out, value);
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result {
        self.serialize_str(variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }

    fn serialize_bool(self, value: bool) -> Result {
        self.quoted(if value { "true" } else { "false" })
    }

    fn serialize_i8(self, value: i8) -> Result {
        self.integer(value)
    }

    fn serialize_i16(self, value: i16) -> Result {
        self.integer(value)
    }

    fn serialize_i32(self, value: i32) -> Result {
        self.integer(value)
    }

    fn serialize_i64(self, value: i64) -> Result {
        self.integer(value)
    }

    fn serialize_i128(self, value: i128) -> Result {
        self.integer(value)
    }

    fn serialize_u8(self, value: u8) -> Result {
        self.integer(value)
    }

    fn serialize_u16(self, value: u16) -> Result {
        self.integer(value)
    }

    fn serialize_u32(self, value: u32) -> Result {
        self.integer(value)
    }

    fn serialize_u64(self, value: u64) -> Result {
        self.integer(value)
    }

    fn serialize_u128(self, value: u128) -> Result {
        self.integer(value)
    }

    fn serialize_f32(self, value: f32) -> Result {
        self.float(value, value.is_finite())
    }

    fn serialize_f64(self, value: f64) -> Result {
        self.float(value, value.is_finite())
    }

    fn serialize_char(self, value: char) -> Result {
        self.serialize_str(value.encode_utf8(&mut [0; 4]))
    }

    fn serialize_bytes(self, _value: &[u8]) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_unit(self) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_none(self) -> Result {
        Err(key_must_be_a_string())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(key_must_be_a_string())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_must_be_a_string())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(key_must_be_a_string())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_must_be_a_string())
    }

    fn collect_str<T: ?Sized + Display>(self, value: &T) -> Result {
        display(self.out, value)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::collection::{btree_map, vec};
    use proptest::prelude::*;
    use serde::Serialize;
    use serde_json::{Number, Value};

    use super::Serializer;

    /// `value` written by [`Serializer`] `depth` levels deep, or its error.
    fn ours<T: ?Sized + Serialize>(value: &T, depth: usize) -> Result<String, String> {
        let mut out = Vec::new();
        value
            .serialize(&mut Serializer::new(&mut out, depth))
            .map_err(|e| e.to_string())?;
        Ok(String::from_utf8(out).expect("utf-8"))
    }

    /// `value` as serde_json's pretty printer writes it `depth` levels deep (as the only entry
    /// of `depth` arrays, taken out of them), or its error.
    fn theirs<T: Serialize>(value: &T, depth: usize) -> Result<String, String> {
        struct Nest<'a, T>(usize, &'a T);
        impl<T: Serialize> Serialize for Nest<'_, T> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self.0 {
                    0 => self.1.serialize(s),
                    depth => s.collect_seq([Nest(depth - 1, self.1)]),
                }
            }
        }
        let whole = serde_json::to_string_pretty(&Nest(depth, value)).map_err(|e| e.to_string())?;
        let (open, close): (String, String) = (1..=depth)
            .map(|d| {
                (
                    format!("[\n{}", "  ".repeat(d)),
                    format!("\n{}]", "  ".repeat(d - 1)),
                )
            })
            .unzip();
        let close: String = close
            .rsplit('\n')
            .filter(|s| !s.is_empty())
            .map(|s| format!("\n{s}"))
            .collect();
        let inner = whole
            .strip_prefix(&open)
            .and_then(|w| w.strip_suffix(&close));
        Ok(inner.expect("nested in arrays").to_owned())
    }

    fn same<T: Serialize>(value: &T, depth: usize) -> Result<(), TestCaseError> {
        prop_assert_eq!(ours(value, depth), theirs(value, depth));
        Ok(())
    }

    /// Characters, with those JSON escapes, those around them and those serde_json leaves alone
    /// (DEL, U+2028, non-ASCII) more often than chance.
    fn character() -> impl Strategy<Value = char> {
        prop_oneof![
            3 => any::<char>(),
            3 => (0x20u8..0x7f).prop_map(char::from),
            2 => (0u8..0x20).prop_map(char::from),
            2 => prop::sample::select(vec![
                '"', '\\', '\u{7f}', '\u{80}', '\u{2028}', '\u{2029}', '\u{e9}', '\u{1f600}',
                '!', '#', '[', ']', ' ', '\u{ffff}',
            ]),
        ]
    }

    fn text(max: usize) -> impl Strategy<Value = String> {
        vec(character(), 0..max).prop_map(|c| c.into_iter().collect())
    }

    fn float() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<f64>(),
            prop::sample::select(vec![
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                0.0,
                -0.0,
                1e300,
                -1e-300,
                5e-324,
                f64::MAX,
                f64::MIN_POSITIVE,
                0.1,
                1.0,
                1e16,
                123456789.0,
            ]),
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            float().prop_map(|f| Number::from_f64(f).map_or(Value::Null, Value::Number)),
            text(24).prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                vec(inner.clone(), 0..4).prop_map(Value::Array),
                btree_map(text(8), inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// A value of every shape serde has, nested in each other.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    enum Tree {
        Unit(()),
        Bool(bool),
        I8(i8),
        I64(i64),
        I128(i128),
        U16(u16),
        U64(u64),
        U128(u128),
        F32(f32),
        F64(f64),
        Char(char),
        Str(String),
        Bytes(Bytes),
        Shown(Shown),
        UnitStruct(UnitStruct),
        Value(Value),
        Keys(Box<Keys>),
        Opt(Option<Box<Tree>>),
        List(Vec<Tree>),
        Map(BTreeMap<String, Tree>),
        Tuple((Box<Tree>, u8)),
        Pair(Pair),
        Newtype(Newtype),
        Tagged(Box<Tagged>),
        Record(Box<Record>),
    }

    #[derive(Debug, Clone)]
    struct Bytes(Vec<u8>);

    impl Serialize for Bytes {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(&self.0)
        }
    }

    /// Text given to `collect_str` in pieces, as a `Display` writes it.
    #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
    struct Shown(Vec<String>);

    impl std::fmt::Display for Shown {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.0.iter().try_for_each(|piece| f.write_str(piece))
        }
    }

    impl Serialize for Shown {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(self)
        }
    }

    #[derive(Debug, Clone, Serialize)]
    struct UnitStruct;

    #[derive(Debug, Clone, Serialize)]
    struct Pair(Box<Tree>, i8);

    #[derive(Debug, Clone, Serialize)]
    struct Newtype(Box<Tree>);

    #[derive(Debug, Clone, Serialize)]
    enum Tagged {
        Unit,
        #[serde(rename = "re\"named\n")]
        Renamed,
        Newtype(Tree),
        Tuple(Tree, Tree),
        EmptyTuple(),
        Struct {
            a: Tree,
            #[serde(skip_serializing_if = "Option::is_none")]
            b: Option<Tree>,
        },
        EmptyStruct {},
    }

    #[derive(Debug, Clone, Serialize)]
    struct Record {
        name: String,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        list: Vec<Tree>,
        #[serde(rename = "we\"ird\u{1}key \\ long enough")]
        weird: Option<Tree>,
        #[serde(flatten)]
        inner: Inner,
        #[serde(flatten)]
        extra: BTreeMap<String, Tree>,
    }

    #[derive(Debug, Clone, Serialize)]
    struct Inner {
        #[serde(skip_serializing_if = "Option::is_none")]
        flag: Option<bool>,
        value: Value,
    }

    /// Map keys of every kind serde_json writes.
    #[derive(Debug, Clone, Serialize)]
    struct Keys {
        ints: BTreeMap<i64, u8>,
        small: BTreeMap<i8, u8>,
        big: BTreeMap<u128, u8>,
        bools: BTreeMap<bool, u8>,
        chars: BTreeMap<char, u8>,
        kinds: BTreeMap<Kind, u8>,
        ids: BTreeMap<Id, u8>,
        optional: BTreeMap<Option<String>, u8>,
        shown: BTreeMap<Shown, u8>,
        floats: FloatKeys,
    }

    #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
    enum Kind {
        A,
        #[serde(rename = "b\"\t")]
        B,
    }

    #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
    struct Id(u32);

    #[derive(Debug, Clone)]
    struct FloatKeys(Vec<(f64, f32)>);

    impl Serialize for FloatKeys {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(
                self.0
                    .iter()
                    .flat_map(|&(a, b)| [(a, ()), (f64::from(b), ())]),
            )
        }
    }

    fn keys() -> impl Strategy<Value = Keys> {
        let finite = float().prop_map(|f| if f.is_finite() { f } else { 2.5 });
        let finite32 = any::<f32>().prop_map(|f| if f.is_finite() { f } else { -0.0 });
        (
            (
                btree_map(prop_oneof![any::<i64>(), Just(i64::MIN)], any::<u8>(), 0..3),
                btree_map(any::<i8>(), any::<u8>(), 0..3),
                btree_map(
                    prop_oneof![any::<u128>(), Just(u128::MAX)],
                    any::<u8>(),
                    0..3,
                ),
                btree_map(any::<bool>(), any::<u8>(), 0..3),
                btree_map(character(), any::<u8>(), 0..3),
            ),
            (
                btree_map(prop_oneof![Just(Kind::A), Just(Kind::B)], any::<u8>(), 0..3),
                btree_map(any::<u32>().prop_map(Id), any::<u8>(), 0..3),
                btree_map(text(8).prop_map(Some), any::<u8>(), 0..3),
                btree_map(vec(text(10), 0..3).prop_map(Shown), any::<u8>(), 0..3),
                vec((finite, finite32), 0..3).prop_map(FloatKeys),
            ),
        )
            .prop_map(
                |((ints, small, big, bools, chars), (kinds, ids, optional, shown, floats))| Keys {
                    ints,
                    small,
                    big,
                    bools,
                    chars,
                    kinds,
                    ids,
                    optional,
                    shown,
                    floats,
                },
            )
    }

    fn leaf() -> impl Strategy<Value = Tree> {
        prop_oneof![
            prop_oneof![
                Just(Tree::Unit(())),
                Just(Tree::UnitStruct(UnitStruct)),
                any::<bool>().prop_map(Tree::Bool),
                any::<i8>().prop_map(Tree::I8),
                prop_oneof![any::<i64>(), Just(i64::MIN), Just(i64::MAX), Just(0)]
                    .prop_map(Tree::I64),
                any::<i128>().prop_map(Tree::I128),
                any::<u16>().prop_map(Tree::U16),
                prop_oneof![any::<u64>(), Just(u64::MAX)].prop_map(Tree::U64),
                any::<u128>().prop_map(Tree::U128),
            ],
            prop_oneof![
                any::<f32>().prop_map(Tree::F32),
                prop_oneof![
                    Just(f32::NAN),
                    Just(f32::INFINITY),
                    Just(-0.0f32),
                    Just(0.1f32)
                ]
                .prop_map(Tree::F32),
                float().prop_map(Tree::F64),
                character().prop_map(Tree::Char),
                text(40).prop_map(Tree::Str),
                vec(any::<u8>(), 0..4).prop_map(|b| Tree::Bytes(Bytes(b))),
                vec(text(12), 0..4).prop_map(|s| Tree::Shown(Shown(s))),
                value().prop_map(Tree::Value),
                keys().prop_map(|k| Tree::Keys(Box::new(k))),
            ],
        ]
    }

    fn tree() -> impl Strategy<Value = Tree> {
        leaf().prop_recursive(5, 64, 5, |inner| {
            let boxed = inner.clone().prop_map(Box::new);
            let tagged = prop_oneof![
                Just(Tagged::Unit),
                Just(Tagged::Renamed),
                Just(Tagged::EmptyTuple()),
                Just(Tagged::EmptyStruct {}),
                inner.clone().prop_map(Tagged::Newtype),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Tagged::Tuple(a, b)),
                (inner.clone(), proptest::option::of(inner.clone()))
                    .prop_map(|(a, b)| Tagged::Struct { a, b }),
            ];
            let record = (
                text(12),
                vec(inner.clone(), 0..3),
                proptest::option::of(inner.clone()),
                proptest::option::of(any::<bool>()),
                value(),
                btree_map(text(8), inner.clone(), 0..3),
            )
                .prop_map(|(name, list, weird, flag, value, extra)| Record {
                    name,
                    list,
                    weird,
                    inner: Inner { flag, value },
                    extra,
                });
            prop_oneof![
                proptest::option::of(boxed.clone()).prop_map(Tree::Opt),
                vec(inner.clone(), 0..4).prop_map(Tree::List),
                btree_map(text(10), inner.clone(), 0..4).prop_map(Tree::Map),
                (boxed.clone(), any::<u8>()).prop_map(Tree::Tuple),
                (boxed.clone(), any::<i8>()).prop_map(|(t, n)| Tree::Pair(Pair(t, n))),
                boxed.prop_map(|t| Tree::Newtype(Newtype(t))),
                tagged.prop_map(|t| Tree::Tagged(Box::new(t))),
                record.prop_map(|r| Tree::Record(Box::new(r))),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Any text, short or long, at any depth (past the prepared indentation too).
        #[test]
        fn text_is_written_as_serde_json_writes_it(text in text(300), depth in 0usize..40) {
            same(&text, depth)?;
        }

        /// Values of every shape, nested in each other.
        #[test]
        fn trees_are_written_as_serde_json_writes_them(tree in tree(), depth in 0usize..4) {
            same(&tree, depth)?;
        }

        /// Free-form JSON, as in the `metadata` of skills and agents.
        #[test]
        fn json_values_are_written_as_serde_json_writes_them(value in value(), depth in 0usize..4) {
            same(&value, depth)?;
        }

        /// The old test of the report's formatter: maps of lists of text.
        #[test]
        fn maps_of_lists_are_written_as_serde_json_writes_them(
            nested in vec(
                btree_map(
                    "[a-z\"\\\\\u{0}-\u{1f}\u{7f}\u{e9}\u{2028}]{0,6}",
                    vec("\\PC{0,8}", 0..3),
                    0..3,
                ),
                0..3,
            ),
        ) {
            same(&nested, 0)?;
        }
    }

    /// Each ASCII byte and some others, alone and in pairs, at every offset of strings a few
    /// words long, on backgrounds of bytes next to those escaped: every word and tail.
    #[test]
    fn each_byte_at_each_offset_is_written_as_serde_json_writes_it() {
        let odd: Vec<String> = (0u8..0x80)
            .map(char::from)
            .chain(['\u{80}', '\u{e9}', '\u{2028}', '\u{1f600}', '\u{ffff}'])
            .map(String::from)
            .collect();
        let check = |text: &str| {
            assert_eq!(ours(text, 0), theirs(&text, 0), "{text:?}");
        };
        for fill in [" ", "!", "#", "[", "]", "a", "\u{7f}", "\u{e9}"] {
            for len in 0..26 {
                for at in 0..=len {
                    for c in &odd {
                        check(&format!("{}{c}{}", fill.repeat(at), fill.repeat(len - at)));
                    }
                }
            }
        }
        for len in 0..26 {
            for a in 0..len {
                for b in a..len {
                    for (x, y) in [
                        ("\"", "\n"),
                        ("\u{0}", "\\"),
                        ("\u{1f}", "\u{1f}"),
                        ("\\", " "),
                    ] {
                        let mut text: Vec<&str> = vec!["a"; len];
                        text[a] = x;
                        text[b] = y;
                        check(&text.concat());
                    }
                }
            }
        }
    }

    /// Struct fields whose names need escaping, past the prepared indentation too.
    #[test]
    fn field_names_are_escaped_as_serde_json_escapes_them() {
        #[derive(Serialize)]
        struct Odd {
            #[serde(rename = "")]
            empty: u8,
            #[serde(rename = "\"")]
            quote: u8,
            #[serde(rename = "new\nline and some more words")]
            line: u8,
            #[serde(rename = "\u{7f}\u{2028}")]
            other: u8,
        }
        let odd = Odd {
            empty: 1,
            quote: 2,
            line: 3,
            other: 4,
        };
        for depth in [0, 1, 31, 32, 33, 40] {
            assert_eq!(ours(&odd, depth), theirs(&odd, depth));
        }
    }

    /// Struct fields named with every length up to 40, with escapes here and there, at depths
    /// below and past the prepared indentation.
    #[test]
    fn field_names_of_every_length_are_written_as_serde_json_writes_them() {
        struct Fields(&'static str);
        impl Serialize for Fields {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let mut fields = s.serialize_struct("Fields", self.0.len() + 1)?;
                for end in (0..=self.0.len()).filter(|&end| self.0.is_char_boundary(end)) {
                    fields.serialize_field(&self.0[..end], &end)?;
                }
                fields.end()
            }
        }
        for names in [
            "abcdefghijklmnopqrstuvwxyz0123456789ABCD",
            "\"bcdefghijklmnopq\nstuvwxyz\u{7f}0123456789",
            "\u{e9}\u{2028}abcdefghijklmn\\opqrstuvwxyz\u{1}",
        ] {
            for depth in [0, 1, 6, 7, 15, 16, 40] {
                assert_eq!(ours(&Fields(names), depth), theirs(&Fields(names), depth));
            }
        }
    }

    /// Keys serde_json refuses are refused with its errors.
    #[test]
    fn unwritable_keys_are_refused_as_serde_json_refuses_them() {
        fn refused<K: Serialize>(key: K) {
            let map = OneKey(key);
            let theirs = serde_json::to_vec_pretty(&map).expect_err("refused");
            let mut out = Vec::new();
            let ours = map
                .serialize(&mut Serializer::new(&mut out, 0))
                .expect_err("refused");
            assert_eq!(ours.to_string(), theirs.to_string());
            assert_eq!(ours.classify(), theirs.classify());
        }
        refused(());
        refused(None::<String>);
        refused(UnitStruct);
        refused(f64::NAN);
        refused(f32::INFINITY);
        refused(vec![1]);
        refused((1, 2));
        refused(Bytes(vec![1]));
        refused(Tagged::Newtype(Tree::Unit(())));
        refused(Tagged::EmptyTuple());
        refused(Tagged::EmptyStruct {});
        refused(BTreeMap::<String, u8>::new());
        refused(Pair(Box::new(Tree::Unit(())), 1));
        refused(Inner {
            flag: None,
            value: Value::Null,
        });
    }

    /// A map of one key.
    struct OneKey<K>(K);

    impl<K: Serialize> Serialize for OneKey<K> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map([(&self.0, 1)])
        }
    }

    /// Lengths announced wrong are written as serde_json writes them.
    #[test]
    fn wrong_lengths_are_written_as_serde_json_writes_them() {
        struct Lying(Option<usize>, usize);
        impl Serialize for Lying {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeSeq;
                let mut seq = s.serialize_seq(self.0)?;
                for _ in 0..self.1 {
                    seq.serialize_element(&[1])?;
                }
                seq.end()
            }
        }
        struct LyingMap(Option<usize>, usize);
        impl Serialize for LyingMap {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeMap;
                let mut map = s.serialize_map(self.0)?;
                for i in 0..self.1 {
                    map.serialize_entry(&i, &[i])?;
                }
                map.end()
            }
        }
        // Not entries after a length of 0: serde_json closes the array twice then, its
        // indentation wraps around below zero.
        for (len, n) in [
            (None, 0),
            (None, 2),
            (Some(0), 0),
            (Some(1), 0),
            (Some(1), 2),
            (Some(5), 1),
        ] {
            let v = [Lying(len, n)];
            assert_eq!(ours(&v, 1), theirs(&v, 1));
            let m = [LyingMap(len, n)];
            assert_eq!(ours(&m, 1), theirs(&m, 1));
        }
    }

    #[test]
    fn nested_values_are_indented_as_in_the_whole() {
        let value = serde_json::json!([{"a": [1, {"b": []}], "c": {}}]);
        let whole = serde_json::to_string_pretty(&value).expect("serialise");
        let nested = ours(&value[0], 1).expect("serialise");
        assert_eq!(whole, format!("[\n  {nested}\n]"));
    }

    /// Indentation deeper than the prepared line is written a level at a time, alike.
    #[test]
    fn deep_values_are_indented_as_serde_json_does() {
        let mut value = serde_json::json!({"leaf": [1, 2]});
        for depth in 0..40 {
            value = if depth % 2 == 0 {
                serde_json::json!([value, {}])
            } else {
                serde_json::json!({"k": value, "e": []})
            };
        }
        assert_eq!(ours(&value, 0), theirs(&value, 0));
        let bytes = super::to_vec(&value).expect("serialise");
        assert!(bytes == serde_json::to_vec_pretty(&value).expect("serialise"));
    }
}
