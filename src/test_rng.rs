//! A deterministic generator for the unit tests that walk random cases (xorshift64): the
//! same cases on every run, without a dependency.

/// The generator from `seed` (not zero): each call gives the next 64 bits.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// The generator from `seed`, each call giving a number below its argument.
pub(crate) fn below(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut next = xorshift(seed);
    move |n| next() % n
}
