//! Typos: the known word a misspelt one is likely to be, by a bounded edit distance.

/// The candidate closest to `key` when both are folded by `fold`, if it is close enough to be
/// a typo: at most two edits, and at most a third of the candidate's length (one for short
/// ones). Ties go to the candidate first in alphabetical order.
pub(crate) fn typo_of<'k>(
    key: &str,
    candidates: impl IntoIterator<Item = &'k str>,
    fold: impl Fn(&str) -> String,
) -> Option<&'k str> {
    let key = fold(key);
    closest(&key, candidates.into_iter().map(|k| (fold(k), k)))
}

/// [`typo_of`] for a key and candidates already folded (each with the name it stands for).
pub(crate) fn closest<'k, F: AsRef<str>>(
    key: &str,
    candidates: impl IntoIterator<Item = (F, &'k str)>,
) -> Option<&'k str> {
    let key: Vec<char> = key.chars().collect();
    let mut other = Vec::new();
    candidates
        .into_iter()
        .filter_map(|(k_folded, k)| {
            other.clear();
            other.extend(k_folded.as_ref().chars());
            let limit = 2.min(other.len() / 3).max(1);
            // Each edit changes the length by at most one: most candidates are ruled out here,
            // without computing the distance.
            if key.len().abs_diff(other.len()) > limit || count_bound(&key, &other) > limit {
                return None;
            }
            osa_within(&key, &other, limit).map(|d| (d, k))
        })
        .min()
        .map(|(_, k)| k)
}

/// A lower bound of the edit distance of `a` and `b`, from how often each ASCII character
/// occurs in each: an edit changes those counts by two at most (a substitution: one down, one
/// up; a swap changes none), so half their difference, rounded up, is never more than the
/// distance. Far cheaper than the distance, and most candidates differ by more.
fn count_bound(a: &[char], b: &[char]) -> usize {
    let mut counts = [0i16; 128];
    for &c in a.iter().filter(|c| c.is_ascii()) {
        counts[c as usize] = counts[c as usize].saturating_add(1);
    }
    for &c in b.iter().filter(|c| c.is_ascii()) {
        counts[c as usize] = counts[c as usize].saturating_sub(1);
    }
    let differ: usize = counts.iter().map(|n| usize::from(n.unsigned_abs())).sum();
    differ.div_ceil(2)
}

/// The optimal string alignment distance of `a` and `b` (Damerau-Levenshtein for typos: a
/// swap of neighbours is one edit), if it is at most `limit`. Only the cells within `limit` of
/// the diagonal are computed (any other is over it), and rows stop once two in a row exceed
/// it, since no later cell can come back under: most candidates stop within a few.
fn osa_within(a: &[char], b: &[char], limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    // Stands for every cell off the band: over the limit, whatever its value.
    let over = limit + 1;
    let width = b.len() + 1;
    let mut before: Vec<usize> = vec![over; width];
    let mut prev: Vec<usize> = (0..width).map(|j| j.min(over)).collect();
    let mut cur = vec![over; width];
    let mut prev_min = 0;
    for i in 1..=a.len() {
        let lo = i.saturating_sub(limit).max(1);
        let hi = (i + limit).min(b.len());
        // The cell left of the band: the first column, or off the band.
        cur[lo - 1] = if lo == 1 { i.min(over) } else { over };
        let mut row_min = cur[lo - 1];
        for j in lo..=hi {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            cur[j] = d.min(over);
            row_min = row_min.min(d);
        }
        // The cell right of the band, which the next row reads above it.
        if hi + 1 < width {
            cur[hi + 1] = over;
        }
        if row_min > limit && prev_min > limit {
            return None;
        }
        prev_min = row_min;
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[width - 1];
    (d <= limit).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The bounded distance agrees with strsim's unbounded one wherever it answers, and the
        /// count bound is never more than it.
        #[test]
        fn bounded_distance_is_the_distance(
            a in "[abcé]{0,12}",
            b in "[abcé]{0,12}",
            limit in 0..5usize,
        ) {
            let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let d = strsim::osa_distance(&a, &b);
            proptest::prop_assert_eq!(osa_within(&ca, &cb, limit), (d <= limit).then_some(d));
            proptest::prop_assert!(count_bound(&ca, &cb) <= d);
        }
    }

    #[test]
    fn typos_are_matched_within_a_few_edits() {
        let known = ["name", "description", "allowed-tools", "maxTurns"];
        let lower = |s: &str| s.to_lowercase();
        assert_eq!(typo_of("descripton", known, lower), Some("description"));
        assert_eq!(typo_of("NAME", known, lower), Some("name"));
        assert_eq!(typo_of("maxturn", known, lower), Some("maxTurns"));
        assert_eq!(typo_of("nam", known, lower), Some("name"));
        assert_eq!(
            typo_of("na", known, lower),
            None,
            "two edits on a short key"
        );
        assert_eq!(
            typo_of("allowed_tol", known, lower),
            None,
            "three edits away"
        );
        assert_eq!(typo_of("nämë", known, lower), None);
        assert_eq!(
            typo_of("namé", known, lower),
            Some("name"),
            "one edit, two bytes"
        );
    }
}
