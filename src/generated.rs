//! Generated input for unit tests that hold a one-pass reading to a plainer one.

/// A deterministic picker of numbers below `n` (a linear congruential generator): the same
/// texts on every run, so a failure can be replayed.
pub(crate) fn picker(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize % n
    }
}
