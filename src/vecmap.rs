//! [`VecMap`]: a small sorted map kept in one vector.
//!
//! Every skill carries a few tiny maps (availability per profile, `metadata`). A `BTreeMap`
//! allocates a node with room for eleven entries even for one, a large share of a big
//! library's memory (docs/architecture.md, Hand-written parts); a sorted vector holds exactly
//! what is there. Lookups are a
//! binary search, and it serialises as a JSON object in key order, just like a `BTreeMap`.

use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A map sorted by key, stored as a vector of pairs.
#[derive(Clone, PartialEq, Eq)]
pub struct VecMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap {
            entries: Vec::new(),
        }
    }
}

impl<K: Ord, V> VecMap<K, V> {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// Insert, replacing (and returning) any value under the same key.
    #[cfg(test)]
    pub(crate) fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in key order.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub(crate) fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    /// Like collecting into a `BTreeMap`: sorted, and the last value wins for a repeated key.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut entries: Vec<(K, V)> = iter.into_iter().collect();
        // Stable, so equal keys keep their order and the last one can be kept.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(K, V)> = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            match out.last_mut() {
                Some(last) if last.0 == k => last.1 = v,
                _ => out.push((k, v)),
            }
        }
        out.shrink_to_fit();
        VecMap { entries: out }
    }
}

impl<'a, K, V> IntoIterator for &'a VecMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (k, v))
    }
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for VecMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|(k, v)| (k, v)))
            .finish()
    }
}

impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, K, V> Deserialize<'de> for VecMap<K, V>
where
    K: Ord + Deserialize<'de>,
    V: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);

        impl<'de, K, V> Visitor<'de> for MapVisitor<K, V>
        where
            K: Ord + Deserialize<'de>,
            V: Deserialize<'de>,
        {
            type Value = VecMap<K, V>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                // The size hint comes from the input: cap it so a hostile file cannot ask for
                // a huge allocation up front.
                let mut entries = Vec::with_capacity(access.size_hint().unwrap_or(0).min(64));
                while let Some(entry) = access.next_entry()? {
                    entries.push(entry);
                }
                Ok(entries.into_iter().collect())
            }
        }

        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

impl<K: schemars::JsonSchema, V: schemars::JsonSchema> schemars::JsonSchema for VecMap<K, V> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <std::collections::BTreeMap<K, V>>::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <std::collections::BTreeMap<K, V>>::json_schema(generator)
    }

    fn inline_schema() -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_btreemap() {
        let pairs = [("b", 1), ("a", 2), ("c", 3), ("a", 4)];
        let v: VecMap<&str, i32> = pairs.into_iter().collect();
        let b: std::collections::BTreeMap<&str, i32> = pairs.into_iter().collect();
        assert_eq!(
            v.iter().collect::<Vec<_>>(),
            b.iter().collect::<Vec<_>>(),
            "sorted, last value wins"
        );
        assert_eq!(v.get("a"), Some(&4));
        assert_eq!(v.get("z"), None);
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
        let back: VecMap<String, i32> = serde_json::from_str(r#"{"z":1,"y":2}"#).unwrap();
        assert_eq!(back.keys().collect::<Vec<_>>(), ["y", "z"]);
    }

    #[test]
    fn insert_keeps_order() {
        let mut v = VecMap::new();
        assert_eq!(v.insert("m".to_owned(), 1), None);
        assert_eq!(v.insert("a".to_owned(), 2), None);
        assert_eq!(v.insert("m".to_owned(), 3), Some(1));
        assert_eq!(
            v.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
            ["a", "m"]
        );
        assert_eq!(v.len(), 2);
    }
}
