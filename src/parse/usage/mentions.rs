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

/// Which of `names` occur anywhere in `text`, even inside a longer word, in one pass over the
/// text rather than one per name. An Aho-Corasick automaton of the names marks the states the
/// text reaches, and the marks are passed along the failure links: a name is in the text when
/// the state it ends in is marked. Built here rather than by the `aho-corasick` crate, whose
/// construction grows with the square of the names when thousands share a prefix (`A_0`,
/// `A_1`, ...); and only which names occur is wanted, not where.
pub(super) fn occurring<'n>(text: &str, names: &[&'n str]) -> foldhash::HashSet<&'n str> {
    // The trie of the names. State 0 is the root; each other state is reached from `parent`
    // by `byte`, at `depth`.
    struct State {
        parent: usize,
        byte: u8,
        depth: usize,
    }
    let mut states = vec![State {
        parent: 0,
        byte: 0,
        depth: 0,
    }];
    let mut goto: foldhash::HashMap<(usize, u8), usize> = foldhash::HashMap::default();
    let mut ends = Vec::with_capacity(names.len());
    for name in names {
        let mut at = 0;
        for &byte in name.as_bytes() {
            at = match goto.get(&(at, byte)) {
                Some(&next) => next,
                None => {
                    let next = states.len();
                    let depth = states[at].depth + 1;
                    states.push(State {
                        parent: at,
                        byte,
                        depth,
                    });
                    goto.insert((at, byte), next);
                    next
                }
            };
        }
        ends.push(at);
    }
    // Each state's failure link: the state of the longest proper suffix of its text that the
    // trie holds. Set shallow states first, since a state's link follows its parent's.
    let mut by_depth: Vec<usize> = (1..states.len()).collect();
    by_depth.sort_by_key(|&s| states[s].depth);
    let mut fail = vec![0; states.len()];
    for &s in &by_depth {
        let State { parent, byte, .. } = states[s];
        if parent == 0 {
            continue;
        }
        fail[s] = step(&goto, &fail, fail[parent], byte);
    }
    // The state after each byte of the text is the longest suffix of the text so far that the
    // trie holds; the names ending there are on its chain of failure links.
    let mut reached = vec![false; states.len()];
    reached[0] = true;
    let mut at = 0;
    for &byte in text.as_bytes() {
        at = step(&goto, &fail, at, byte);
        reached[at] = true;
    }
    for &s in by_depth.iter().rev() {
        if reached[s] {
            reached[fail[s]] = true;
        }
    }
    names
        .iter()
        .zip(ends)
        .filter(|&(_, end)| reached[end])
        .map(|(name, _)| *name)
        .collect()
}

/// The state [`occurring`]'s automaton goes to from `at` on `byte`: its child by `byte`, or
/// that of the first state on its chain of failure links that has one, or the root.
fn step(
    goto: &foldhash::HashMap<(usize, u8), usize>,
    fail: &[usize],
    mut at: usize,
    byte: u8,
) -> usize {
    loop {
        if let Some(&next) = goto.get(&(at, byte)) {
            return next;
        }
        if at == 0 {
            return 0;
        }
        at = fail[at];
    }
}
