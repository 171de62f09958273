//! Whether a text names a word as a word, not as part of a longer one, for one name or many.

/// A byte of a word: an ASCII letter or digit, or `_`.
pub(super) fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Where each run of word bytes ([`word_byte`]) in `text` starts and ends. They are ASCII, so
/// both ends are character boundaries.
pub(super) fn word_runs(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && !word_byte(bytes[at]) {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && word_byte(bytes[at]) {
            at += 1;
        }
        (start < at).then_some((start, at))
    })
}

/// Does `text` name `name` as a word: not inside a longer name (`jq` in `jquery`, `KEY` in
/// `API_KEY`)? A `-` before it joins it to a word (`--jq`), after it does not (`jq-1.7`).
pub(super) fn mentions(text: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    text.match_indices(name)
        .any(|(at, _)| stands_alone(text.as_bytes(), at, at + name.len()))
}

/// Is `bytes[start..end]` a word of its own: no word byte or `-` just before it, no word byte
/// just after?
pub(super) fn stands_alone(bytes: &[u8], start: usize, end: usize) -> bool {
    let before = start.checked_sub(1).map(|i| bytes[i]);
    let after = bytes.get(end).copied();
    !before.is_some_and(|b| word_byte(b) || b == b'-') && !after.is_some_and(word_byte)
}

/// Which of `names` `text` names as a word, as [`mentions`] decides, in one pass over the text
/// rather than one per name: a declaration may list tens of thousands of names.
pub(crate) fn mentioned<'n>(
    text: &str,
    names: impl IntoIterator<Item = &'n str>,
) -> foldhash::HashSet<&'n str> {
    let (plain, other): (Vec<&str>, Vec<&str>) = names
        .into_iter()
        .filter(|n| !n.is_empty())
        .partition(|n| n.bytes().all(word_byte));
    let mut found = foldhash::HashSet::default();
    if !plain.is_empty() {
        // A name of word characters is named exactly where it is a whole word of the text
        // with no `-` before it.
        let bytes = text.as_bytes();
        let words: foldhash::HashSet<&str> = word_runs(text)
            .filter(|&(at, _)| at == 0 || bytes[at - 1] != b'-')
            .map(|(at, end)| &text[at..end])
            .collect();
        found.extend(plain.into_iter().filter(|n| words.contains(n)));
    }
    if !other.is_empty() {
        match aho_corasick::AhoCorasick::new(&other) {
            Ok(searcher) => {
                for m in searcher.find_overlapping_iter(text) {
                    if stands_alone(text.as_bytes(), m.start(), m.end()) {
                        found.insert(other[m.pattern().as_usize()]);
                    }
                }
            }
            // Only past the searcher's size limits: one search per name, as before.
            Err(_) => found.extend(other.into_iter().filter(|n| mentions(text, n))),
        }
    }
    found
}
