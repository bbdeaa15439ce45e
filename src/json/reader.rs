//! The reader of tool texts: JSON read as `JSON.parse` reads it, in two steps.
//!
//! 1. [`scan`] checks the whole text in one pass without recursion: the grammar, the depth limit,
//!    and whether a number is past the range of a double (JavaScript's `Infinity`). It records
//!    where each array and object closes ([`Structure`]), nothing else.
//! 2. [`decode`] builds the value of the parts of the text a reader asks for ([`Need`]):
//!    members nobody reads are stepped over, a container in one jump (its end is in the
//!    structure), a string with a search for its closing quote. A search reads a [`Lite`] tree
//!    built in an arena ([`Lites`]: strings borrowed from the text, one allocation per arena
//!    chunk rather than per object, nothing to drop one by one); a whole `json` is a
//!    `serde_json` value ([`Values`]).
//!
//! So a tool text is checked when it arrives (a bad text is found at the call, as before), and
//! what a JMESPath expression reads of a large response is decoded at the time it reads it.
//!
//! The value is the one `JSON.parse` gives, written as JSON: a repeated member name keeps its
//! first position and its last value; a lone surrogate escape (`"\ud800"`) is U+FFFD, as
//! JavaScript's string is when encoded as UTF-8; numbers are doubles rounded correctly, except
//! integers that fit 64 bits, which stay exact (as `serde_json` keeps them).

use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::hash::{BuildHasher, RandomState};

/// Why [`scan`] refused a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReadError {
    /// Nested deeper than the limit.
    TooDeep,
    /// JSON, but with a number past the range of a double (at the byte offset).
    Infinity(usize),
    /// Not JSON: what is wrong, at the byte offset.
    Syntax(usize, &'static str),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::TooDeep => f.write_str("nested deeper than the limit"),
            ReadError::Infinity(at) => write!(
                f,
                "a number beyond the range of a double at byte {at} (JavaScript reads it as \
                 Infinity, which JSON cannot hold)"
            ),
            ReadError::Syntax(at, what) => write!(f, "{what} at byte {at}"),
        }
    }
}

/// One array or object of a scanned text.
#[derive(Debug, Clone, Copy)]
struct Container {
    /// The byte offset of its closing bracket.
    close: usize,
    /// The number of containers that open before it closes, itself included: the index of
    /// the next container after it is its own index plus this.
    span: usize,
    /// The number of strings (names included) that start before it closes: the index in
    /// [`Structure::strings`] of the next string after it.
    strings: usize,
    /// Its elements or members, repeated names counted each time.
    len: usize,
}

/// Where the arrays and objects of a scanned text close, in the order they open.
#[derive(Debug, Default)]
pub(crate) struct Structure {
    containers: Vec<Container>,
    /// For each string, names included, in the order of the text: the offset after its closing
    /// quote, with [`ESCAPED`] set when it holds an escape. Decoding reads names and steps over
    /// strings with it instead of looking for their ends again.
    strings: Vec<usize>,
}

/// The bit of a [`Structure::strings`] entry that says the string holds an escape.
const ESCAPED: usize = 1 << (usize::BITS - 1);

/// What a reader needs of a value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Need {
    /// All of it.
    All,
    /// Of an object, the members named in `fields` (with what is needed of each), and with
    /// `names` every other member too, with [`Need::NOTHING`], so that the object's length is
    /// right (what `length` reads); of an array, every element with `items` (with
    /// [`Need::NOTHING`] when `None`: the length is kept); a scalar whole.
    Part {
        fields: Vec<(Box<str>, Need)>,
        items: Option<Box<Need>>,
        names: bool,
    },
}

impl Need {
    /// Nothing of an object's members, the length of an array, a scalar whole.
    pub(crate) const NOTHING: Need = Need::Part {
        fields: Vec::new(),
        items: None,
        names: false,
    };

    /// What is needed of the member `name` of an object, if anything, with the index of the
    /// field that asks for it (`None` for [`Need::All`], and for a member read for its name).
    fn field(&self, name: &str) -> Option<(Option<usize>, &Need)> {
        match self {
            Need::All => Some((None, &Need::All)),
            // Every member name of every object read is compared with the fields: most differ
            // in length or first byte, which is checked inline before the bytes (a call into
            // the C library's comparison cost more than the rest of the test).
            Need::Part { fields, names, .. } => fields
                .iter()
                .position(|(f, _)| {
                    f.len() == name.len()
                        && f.as_bytes().first() == name.as_bytes().first()
                        && **f == *name
                })
                .map(|at| (Some(at), &fields[at].1))
                .or_else(|| names.then_some((None, &NOTHING))),
        }
    }

    /// How many members are read of an object of `len` members (repeated names counted each
    /// time): what its builder is sized for.
    fn capacity(&self, len: usize) -> usize {
        match self {
            Need::All | Need::Part { names: true, .. } => len,
            Need::Part { fields, .. } => fields.len().min(len),
        }
    }

    /// What is needed of each element of an array.
    pub(crate) fn items(&self) -> &Need {
        match self {
            Need::All => &Need::All,
            Need::Part { items: Some(n), .. } => n,
            Need::Part { items: None, .. } => &NOTHING,
        }
    }
}

/// [`Need::NOTHING`] as a place to borrow from.
static NOTHING: Need = Need::NOTHING;

#[inline]
fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = b.get(i) {
        i += 1;
    }
    i
}

/// Whether a byte ends the plain run of a string: a quote, a backslash, or a control character
/// (which a JSON string may not hold as it is).
#[inline]
fn special(c: u8) -> bool {
    c == b'"' || c == b'\\' || c < 0x20
}

/// The offset of the first byte at or after `from` that [`special`] picks, else the length.
///
/// Strings are most of a tool text, and most of them are short (member names, words): a call
/// into a search routine per string costs more than the string. So the bytes are compared 16
/// at a time inline, with the `wide` vector type where the target has vectors (SSE2, NEON,
/// `simd128` on WebAssembly when enabled), and 8 at a time in a `u64` elsewhere: `wide`'s plain
/// fallback compares byte by byte and builds its mask bit by bit, which made it the slowest
/// step of a WebAssembly module built without `simd128` (docs/performance.md).
#[inline]
fn find_special(b: &[u8], from: usize) -> usize {
    #[cfg(any(
        target_feature = "sse2",
        target_feature = "neon",
        target_feature = "simd128"
    ))]
    let i = find_special_vectors(b, from);
    #[cfg(not(any(
        target_feature = "sse2",
        target_feature = "neon",
        target_feature = "simd128"
    )))]
    let i = find_special_words(b, from);
    find_special_bytes(b, i)
}

/// [`find_special`] over whole 16-byte blocks: the offset of the first special byte, or of the
/// first block it did not look at (fewer than 16 bytes left).
#[cfg(any(
    test,
    target_feature = "sse2",
    target_feature = "neon",
    target_feature = "simd128"
))]
#[inline]
fn find_special_vectors(b: &[u8], from: usize) -> usize {
    use wide::u8x16;
    let (quote, backslash, control) = (u8x16::splat(b'"'), u8x16::splat(b'\\'), u8x16::splat(0x1f));
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 16) {
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(chunk);
        let v = u8x16::new(bytes);
        let hits = v.cmp_eq(quote) | v.cmp_eq(backslash) | v.min(control).cmp_eq(v);
        let mask = hits.move_mask();
        if mask != 0 {
            return i + mask.trailing_zeros() as usize;
        }
        i += 16;
    }
    i
}

/// [`find_special`] over whole 8-byte words, as a `u64` each: the offset of the first special
/// byte, or of the first word it did not look at (fewer than 8 bytes left).
///
/// `(x - 0x01…01) & !x & 0x80…80` flags the bytes of `x` that are zero, and `(w - 0x20…20) &
/// !w & 0x80…80` the bytes of `w` below 0x20. A flagged byte's borrow can wrongly flag the
/// byte above it, never one below: the lowest flag of each test is right, so the lowest of
/// the three tests together is the first special byte (the word is read little-endian).
#[cfg(any(
    test,
    not(any(
        target_feature = "sse2",
        target_feature = "neon",
        target_feature = "simd128"
    ))
))]
#[inline]
fn find_special_words(b: &[u8], from: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let zero_bytes = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(chunk);
        let w = u64::from_le_bytes(bytes);
        let hits = zero_bytes(w ^ (ONES * u64::from(b'"')))
            | zero_bytes(w ^ (ONES * u64::from(b'\\')))
            | (w.wrapping_sub(ONES * 0x20) & !w & HIGH);
        if hits != 0 {
            return i + hits.trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    i
}

/// [`find_special`] byte by byte from `from`.
#[inline]
fn find_special_bytes(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(&c) = b.get(i) {
        if special(c) {
            return i;
        }
        i += 1;
    }
    b.len()
}

fn hex4(b: &[u8], at: usize) -> Option<u16> {
    let digits = b.get(at..at + 4)?;
    let mut unit = 0u16;
    for &d in digits {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return None,
        };
        unit = unit << 4 | u16::from(v);
    }
    Some(unit)
}

/// Checks the string whose opening quote is at `i`; its [`Structure::strings`] entry (the
/// offset after its closing quote, and whether it holds an escape).
///
/// Inlined into the checking pass, which calls it for every string: as a call, its result
/// (an offset or an error) went back through memory, which cost the pass a few percent
/// natively and on WebAssembly (docs/performance.md).
#[inline(always)]
fn scan_string(b: &[u8], i: usize) -> Result<usize, ReadError> {
    let mut j = i + 1;
    let mut escaped = 0;
    loop {
        j = find_special(b, j);
        match b.get(j) {
            Some(b'"') => return Ok((j + 1) | escaped),
            Some(b'\\') => match b.get(j + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                    escaped = ESCAPED;
                    j += 2;
                }
                Some(b'u') if hex4(b, j + 2).is_some() => {
                    escaped = ESCAPED;
                    j += 6;
                }
                _ => return Err(ReadError::Syntax(j, "invalid escape")),
            },
            Some(_) => return Err(ReadError::Syntax(j, "control character in a string")),
            None => return Err(ReadError::Syntax(i, "unterminated string")),
        }
    }
}

/// Checks the member name and the colon at `i` (recording the name in `strings`); the offset of
/// the member's value.
///
/// Inlined for the reason [`scan_string`] is: the checking pass calls it for every member.
#[inline(always)]
fn member_name(b: &[u8], i: usize, strings: &mut Vec<usize>) -> Result<usize, ReadError> {
    if b.get(i) != Some(&b'"') {
        return Err(ReadError::Syntax(i, "expected a member name"));
    }
    let entry = scan_string(b, i)?;
    strings.push(entry);
    let j = skip_ws(b, entry & !ESCAPED);
    if b.get(j) != Some(&b':') {
        return Err(ReadError::Syntax(j, "expected ':'"));
    }
    Ok(skip_ws(b, j + 1))
}

/// Checks the number that starts at `i`; the offset after it, and whether it is beyond the
/// range of a double.
fn scan_number(b: &[u8], i: usize) -> Result<(usize, bool), ReadError> {
    let digits = |mut j: usize| {
        while let Some(b'0'..=b'9') = b.get(j) {
            j += 1;
        }
        j
    };
    let mut j = i;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    let int_start = j;
    match b.get(j) {
        Some(b'0') => j += 1,
        Some(b'1'..=b'9') => j = digits(j),
        _ => return Err(ReadError::Syntax(j, "invalid number")),
    }
    let int_digits = j - int_start;
    let mut exponent = false;
    if b.get(j) == Some(&b'.') {
        let k = digits(j + 1);
        if k == j + 1 {
            return Err(ReadError::Syntax(j, "invalid number"));
        }
        j = k;
    }
    if let Some(b'e' | b'E') = b.get(j) {
        exponent = true;
        j += 1;
        if let Some(b'+' | b'-') = b.get(j) {
            j += 1;
        }
        let k = digits(j);
        if k == j {
            return Err(ReadError::Syntax(j, "invalid number"));
        }
        j = k;
    }
    // Only a number with an exponent or more than 308 integer digits can pass f64::MAX.
    let infinite = (exponent || int_digits > 308)
        && std::str::from_utf8(&b[i..j])
            .ok()
            .and_then(|s| s.parse::<f64>().ok())
            .is_none_or(f64::is_infinite);
    Ok((j, infinite))
}

/// Checks `text` (see the module docs): its structure, or why it is refused. A syntax error
/// is reported before a number past a double's range; nesting past `max_depth` is reported
/// whatever else is wrong with the text, as the depth pre-scan did.
pub(crate) fn scan(text: &str, max_depth: usize) -> Result<Structure, ReadError> {
    match scan_checked(text, max_depth) {
        // Past the error the text is measured all the same (brackets outside strings), so that
        // deep text is refused as too deep whatever it holds.
        Err(ReadError::Syntax(..)) if super::nests_deeper_than(text, max_depth) => {
            Err(ReadError::TooDeep)
        }
        other => other,
    }
}

/// Whether the tool-text reader's checking pass accepts `text` within `max_depth` (the grammar,
/// the depth limit, numbers within a double's range), recording the structure it would decode
/// from and dropping it. With the `internals` feature only: the benchmarks measure the pass
/// against [`nests_deeper_than`](super::nests_deeper_than) with it.
///
/// ```
/// use a2ui_catalog_mcp::json::tool_text_checks;
/// assert!(tool_text_checks(r#"[{"a": "[[[["}]"#, 2));
/// assert!(!tool_text_checks("[[[1]]]", 2));
/// assert!(!tool_text_checks("[1,]", 2));
/// ```
#[cfg(feature = "internals")]
#[doc(hidden)]
pub fn tool_text_checks(text: &str, max_depth: usize) -> bool {
    scan(text, max_depth).is_ok()
}

fn scan_checked(text: &str, max_depth: usize) -> Result<Structure, ReadError> {
    let b = text.as_bytes();
    // Sized for a tool text (a string every 16 bytes, a container every 64) so that they are
    // not copied as they grow; past that they grow as usual. The two reserve as many bytes as
    // the text holds, no more than its structure takes when it is dense.
    let mut containers: Vec<Container> = Vec::with_capacity(text.len() / 64);
    let mut strings: Vec<usize> = Vec::with_capacity(text.len() / 16);
    // The open containers: index in `containers`, whether an object, values read so far.
    let mut stack: Vec<(usize, bool, usize)> = Vec::new();
    let mut infinity = None;
    // Whether the after-value step below follows a value (not an empty container's opening).
    let mut value_read = true;
    let mut i = skip_ws(b, 0);
    'value: loop {
        // A value starts at `i`.
        match b.get(i) {
            Some(&open @ (b'{' | b'[')) => {
                if stack.len() >= max_depth {
                    return Err(ReadError::TooDeep);
                }
                let object = open == b'{';
                stack.push((containers.len(), object, 0));
                containers.push(Container {
                    close: 0,
                    span: 0,
                    strings: 0,
                    len: 0,
                });
                i = skip_ws(b, i + 1);
                let close = if object { b'}' } else { b']' };
                if b.get(i) != Some(&close) {
                    if object {
                        i = member_name(b, i, &mut strings)?;
                    }
                    continue 'value;
                }
                // Empty: the close is read below, after no value.
                value_read = false;
            }
            Some(b'"') => {
                let entry = scan_string(b, i)?;
                strings.push(entry);
                i = entry & !ESCAPED;
            }
            Some(b't') if b[i..].starts_with(b"true") => i += 4,
            Some(b'f') if b[i..].starts_with(b"false") => i += 5,
            Some(b'n') if b[i..].starts_with(b"null") => i += 4,
            Some(b'-' | b'0'..=b'9') => {
                let (end, infinite) = scan_number(b, i)?;
                if infinite && infinity.is_none() {
                    infinity = Some(i);
                }
                i = end;
            }
            Some(_) => return Err(ReadError::Syntax(i, "expected a value")),
            None => return Err(ReadError::Syntax(i, "unexpected end")),
        }
        // After a value: a comma, the close of the container, or the end.
        loop {
            i = skip_ws(b, i);
            if let Some(top) = stack.last_mut() {
                top.2 += usize::from(std::mem::replace(&mut value_read, true));
            }
            let Some(&(k, object, len)) = stack.last() else {
                if i < b.len() {
                    return Err(ReadError::Syntax(i, "unexpected text after the value"));
                }
                let structure = Structure {
                    containers,
                    strings,
                };
                return match infinity {
                    // JSON.parse gives Infinity only where it stays: a repeated member name
                    // may replace it. Rare, so found by decoding it all.
                    Some(at) if decode_checked(&Values, text, &structure, &Need::All).1 => {
                        Err(ReadError::Infinity(at))
                    }
                    _ => Ok(structure),
                };
            };
            match (b.get(i), object) {
                (Some(b','), _) => {
                    i = skip_ws(b, i + 1);
                    if object {
                        i = member_name(b, i, &mut strings)?;
                    }
                    continue 'value;
                }
                (Some(b'}'), true) | (Some(b']'), false) => {
                    containers[k] = Container {
                        close: i,
                        span: containers.len() - k,
                        strings: strings.len(),
                        len,
                    };
                    stack.pop();
                    i += 1;
                }
                (None, _) => return Err(ReadError::Syntax(i, "unexpected end")),
                _ => return Err(ReadError::Syntax(i, "expected ',' or a closing bracket")),
            }
        }
    }
}

/// What [`decode`] builds and how: [`Values`] builds a `serde_json` value, [`Lites`] a [`Lite`]
/// tree in an arena.
pub(crate) trait Tree<'t> {
    /// A value built.
    type Value;
    /// An array being built.
    type Array;
    /// An object being built.
    type Object;
    /// An array for about `capacity` elements (0: nothing is allocated).
    fn new_array(&self, capacity: usize) -> Self::Array;
    fn push_item(&self, array: &mut Self::Array, item: Self::Value);
    fn array(&self, array: Self::Array) -> Self::Value;
    /// An object for about `capacity` members (0: nothing is allocated).
    fn new_object(&self, capacity: usize) -> Self::Object;
    /// Adds a member; a repeated name keeps its place and takes the later value.
    fn insert(&self, object: &mut Self::Object, name: Cow<'t, str>, value: Self::Value);
    /// Adds a member whose name the object does not hold yet.
    fn push(&self, object: &mut Self::Object, name: Cow<'t, str>, value: Self::Value);
    fn object(&self, object: Self::Object) -> Self::Value;
    fn null(&self) -> Self::Value;
    fn boolean(&self, b: bool) -> Self::Value;
    /// A number (`None`: past a double's range, which JSON cannot hold).
    fn number(&self, n: Option<Number>) -> Self::Value;
    fn string(&self, s: Cow<'t, str>) -> Self::Value;
}

/// Builds `serde_json` values.
pub(crate) struct Values;

impl<'t> Tree<'t> for Values {
    type Value = Value;
    type Array = Vec<Value>;
    type Object = Map<String, Value>;
    fn new_array(&self, capacity: usize) -> Vec<Value> {
        Vec::with_capacity(capacity)
    }
    fn push_item(&self, array: &mut Vec<Value>, item: Value) {
        array.push(item);
    }
    fn array(&self, array: Vec<Value>) -> Value {
        Value::Array(array)
    }
    fn new_object(&self, capacity: usize) -> Map<String, Value> {
        Map::with_capacity(capacity)
    }
    fn insert(&self, object: &mut Map<String, Value>, name: Cow<'t, str>, value: Value) {
        object.insert(name.into_owned(), value);
    }
    fn push(&self, object: &mut Map<String, Value>, name: Cow<'t, str>, value: Value) {
        object.insert(name.into_owned(), value);
    }
    fn object(&self, object: Map<String, Value>) -> Value {
        Value::Object(object)
    }
    fn null(&self) -> Value {
        Value::Null
    }
    fn boolean(&self, b: bool) -> Value {
        Value::Bool(b)
    }
    fn number(&self, n: Option<Number>) -> Value {
        n.map_or(Value::Null, Value::Number)
    }
    fn string(&self, s: Cow<'t, str>) -> Value {
        Value::String(s.into_owned())
    }
}

/// A JSON value whose strings borrow from the text where they have no escapes, and whose
/// arrays, objects and other strings are in an arena: what a search reads of a tool text,
/// built without a copy of its strings, a hash of its names or an allocation per object, and
/// dropped with its arena after the search (nothing in it has a destructor to run).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Lite<'a> {
    Null,
    Bool(bool),
    Number(Number),
    Str(&'a str),
    Array(&'a [Lite<'a>]),
    Object(&'a LiteObject<'a>),
}

/// The members of a [`Lite`] object, in order, names unique.
#[derive(Debug)]
pub(crate) struct LiteObject<'a> {
    pub(crate) members: &'a [(&'a str, Lite<'a>)],
    /// For an object of more than [`LiteObject::SCAN`] members, a hash table of their
    /// positions (open addressing, a power of two at least twice their number; a slot holds a
    /// position plus one, 0 when empty); empty for smaller objects, which are searched member
    /// by member.
    slots: &'a [usize],
    /// The hash of the slots: keyed at random, so that no text can make its names collide.
    hasher: &'a RandomState,
}

impl PartialEq for LiteObject<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.members == other.members
    }
}

impl<'a> LiteObject<'a> {
    /// Members compared one by one up to this many; past it, looked up by hash.
    const SCAN: usize = 16;

    /// The value of the member `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&Lite<'a>> {
        if self.slots.is_empty() {
            return self
                .members
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v);
        }
        let mask = self.slots.len() - 1;
        let mut at = self.hasher.hash_one(name) as usize & mask;
        // Half the slots at least are empty: the probe ends.
        loop {
            let member = self.members.get(self.slots.get(at)?.checked_sub(1)?)?;
            if member.0 == name {
                return Some(&member.1);
            }
            at = (at + 1) & mask;
        }
    }
}

/// Builds [`Lite`] trees in an arena.
pub(crate) struct Lites<'a> {
    arena: &'a bumpalo::Bump,
    hasher: &'a RandomState,
}

impl<'a> Lites<'a> {
    pub(crate) fn new(arena: &'a bumpalo::Bump) -> Self {
        Lites {
            arena,
            hasher: arena.alloc(RandomState::new()),
        }
    }

    fn str(&self, s: Cow<'a, str>) -> &'a str {
        match s {
            Cow::Borrowed(s) => s,
            Cow::Owned(s) => self.arena.alloc_str(&s),
        }
    }
}

/// A [`Lite`] object being built: its members in the arena, and once it has more than
/// [`LiteObject::SCAN`] of them, the position of each name (on the heap, for the time it is
/// built: a repeated name must be found without a search through them all).
pub(crate) struct LiteObjectBuilder<'a> {
    members: bumpalo::collections::Vec<'a, (&'a str, Lite<'a>)>,
    #[allow(clippy::box_collection)]
    index: Option<Box<std::collections::HashMap<&'a str, usize>>>,
}

impl<'a> Tree<'a> for Lites<'a> {
    type Value = Lite<'a>;
    type Array = bumpalo::collections::Vec<'a, Lite<'a>>;
    type Object = LiteObjectBuilder<'a>;
    fn new_array(&self, capacity: usize) -> Self::Array {
        bumpalo::collections::Vec::with_capacity_in(capacity, self.arena)
    }
    fn push_item(&self, array: &mut Self::Array, item: Lite<'a>) {
        array.push(item);
    }
    fn array(&self, array: Self::Array) -> Lite<'a> {
        Lite::Array(array.into_bump_slice())
    }
    fn new_object(&self, capacity: usize) -> LiteObjectBuilder<'a> {
        LiteObjectBuilder {
            members: bumpalo::collections::Vec::with_capacity_in(capacity, self.arena),
            index: None,
        }
    }
    fn insert(&self, object: &mut LiteObjectBuilder<'a>, name: Cow<'a, str>, value: Lite<'a>) {
        let at = match &object.index {
            Some(index) => index.get(&*name).copied(),
            None => object.members.iter().position(|(k, _)| *k == name),
        };
        match at.and_then(|at| object.members.get_mut(at)) {
            Some(member) => member.1 = value,
            None => self.push(object, name, value),
        }
    }
    fn push(&self, object: &mut LiteObjectBuilder<'a>, name: Cow<'a, str>, value: Lite<'a>) {
        let name = self.str(name);
        let at = object.members.len();
        if let Some(index) = &mut object.index {
            index.insert(name, at);
        } else if at == LiteObject::SCAN {
            let mut index: std::collections::HashMap<&'a str, usize> = object
                .members
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (*k, i))
                .collect();
            index.insert(name, at);
            object.index = Some(Box::new(index));
        }
        object.members.push((name, value));
    }
    fn object(&self, object: LiteObjectBuilder<'a>) -> Lite<'a> {
        let members = object.members.into_bump_slice();
        let slots: &'a [usize] = match object.index {
            Some(_) => {
                let mask = (2 * members.len()).next_power_of_two() - 1;
                let slots = self.arena.alloc_slice_fill_copy(mask + 1, 0usize);
                for (position, (name, _)) in members.iter().enumerate() {
                    let mut at = self.hasher.hash_one(name) as usize & mask;
                    while slots[at] != 0 {
                        at = (at + 1) & mask;
                    }
                    slots[at] = position + 1;
                }
                slots
            }
            None => &[],
        };
        Lite::Object(self.arena.alloc(LiteObject {
            members,
            slots,
            hasher: self.hasher,
        }))
    }
    fn null(&self) -> Lite<'a> {
        Lite::Null
    }
    fn boolean(&self, b: bool) -> Lite<'a> {
        Lite::Bool(b)
    }
    fn number(&self, n: Option<Number>) -> Lite<'a> {
        n.map_or(Lite::Null, Lite::Number)
    }
    fn string(&self, s: Cow<'a, str>) -> Lite<'a> {
        Lite::Str(self.str(s))
    }
}

/// Builds the value of a scanned text: all of it, or what `need` asks for.
struct Decoder<'t, 's> {
    text: &'t str,
    b: &'t [u8],
    containers: &'s [Container],
    strings: &'s [usize],
    /// The byte offset read next.
    i: usize,
    /// The index in `containers` of the next container to open.
    k: usize,
    /// The index in `strings` of the next string.
    s: usize,
}

/// An open container being built, with what is needed of its elements or members.
enum Frame<'t, 'n, T: Tree<'t>> {
    Array(T::Array, &'n Need, Infinities),
    Object {
        /// The members so far.
        members: T::Object,
        need: &'n Need,
        /// The name of the member being read, and whether the object cannot hold it yet.
        name: Cow<'t, str>,
        fresh: bool,
        /// The fields of `need` read so far (see [`Decoder::next_member`]).
        seen: u64,
        infinities: Infinities,
    },
}

/// Where a container being built holds a number past a double's range (decoded as `null`):
/// how many of its elements do, or which of its members do now (a repeated name replaces).
#[derive(Default)]
struct Infinities {
    items: usize,
    /// Boxed: rarely there, and a frame is moved on each container opened and closed.
    #[allow(clippy::box_collection)]
    members: Option<Box<std::collections::HashSet<String>>>,
}

impl Infinities {
    fn any(&self) -> bool {
        self.items > 0 || self.members.as_ref().is_some_and(|m| !m.is_empty())
    }

    /// The member `name` now holds a value with (`infinite`) or without one.
    fn member(&mut self, name: &str, infinite: bool) {
        if infinite {
            self.members.get_or_insert_default().insert(name.to_owned());
        } else if let Some(members) = &mut self.members {
            members.remove(name);
        }
    }
}

impl<'t> Decoder<'t, '_> {
    #[inline]
    fn peek(&self) -> u8 {
        self.b.get(self.i).copied().unwrap_or(0)
    }

    #[inline]
    fn ws(&mut self) {
        self.i = skip_ws(self.b, self.i);
    }

    /// The elements or members of the array or object at the offset.
    #[inline]
    fn container_len(&self) -> usize {
        self.containers.get(self.k).map_or(0, |c| c.len)
    }

    /// The [`Structure::strings`] entry of the string at the offset, moving past it.
    #[inline]
    fn next_string(&mut self) -> usize {
        let entry = self.strings.get(self.s).copied().unwrap_or(self.b.len());
        self.s += 1;
        entry
    }

    /// The string whose opening quote is at the offset, borrowed when it has no escapes.
    fn string(&mut self) -> Cow<'t, str> {
        let entry = self.next_string();
        if entry & ESCAPED == 0 {
            let text = self
                .text
                .get(self.i + 1..entry.saturating_sub(1))
                .unwrap_or_default();
            self.i = entry;
            return Cow::Borrowed(text);
        }
        let start = self.i + 1;
        let mut j = start;
        let mut out: Option<String> = None;
        loop {
            // A scanned string has no control characters: the byte found is `"` or `\`.
            let end = find_special(self.b, j);
            let piece = self.text.get(j..end).unwrap_or_default();
            j = end;
            if self.b.get(j) != Some(&b'\\') {
                self.i = j + 1;
                return match out {
                    None => Cow::Borrowed(self.text.get(start..j).unwrap_or_default()),
                    Some(mut s) => {
                        s.push_str(piece);
                        Cow::Owned(s)
                    }
                };
            }
            let s = out.get_or_insert_with(String::new);
            s.push_str(piece);
            let escape = self.b.get(j + 1).copied().unwrap_or(b'u');
            j += 2;
            match escape {
                b'b' => s.push('\u{8}'),
                b'f' => s.push('\u{c}'),
                b'n' => s.push('\n'),
                b'r' => s.push('\r'),
                b't' => s.push('\t'),
                b'u' => {
                    let unit = hex4(self.b, j).unwrap_or(0xFFFD);
                    j += 4;
                    let c = match unit {
                        0xD800..=0xDBFF => {
                            let low = (self.b.get(j) == Some(&b'\\')
                                && self.b.get(j + 1) == Some(&b'u'))
                            .then(|| hex4(self.b, j + 2))
                            .flatten()
                            .filter(|low| (0xDC00..=0xDFFF).contains(low));
                            match low {
                                Some(low) => {
                                    j += 6;
                                    let code = 0x10000
                                        + ((u32::from(unit) - 0xD800) << 10)
                                        + (u32::from(low) - 0xDC00);
                                    char::from_u32(code).unwrap_or('\u{FFFD}')
                                }
                                None => '\u{FFFD}',
                            }
                        }
                        unit => char::from_u32(u32::from(unit)).unwrap_or('\u{FFFD}'),
                    };
                    s.push(c);
                }
                // `"`, `\` and `/` stand for themselves.
                other => s.push(char::from(other)),
            }
        }
    }

    /// Steps over the value at the offset.
    fn skip(&mut self) {
        match self.peek() {
            b'{' | b'[' => {
                let c = self.containers.get(self.k).copied().unwrap_or(Container {
                    close: self.b.len(),
                    span: 1,
                    strings: self.strings.len(),
                    len: 0,
                });
                self.i = c.close + 1;
                self.k += c.span;
                self.s = c.strings;
            }
            b'"' => {
                self.i = self.next_string() & !ESCAPED;
            }
            _ => {
                while !matches!(
                    self.peek(),
                    b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t' | 0
                ) {
                    self.i += 1;
                }
            }
        }
    }

    /// The number at the offset.
    fn number(&mut self) -> (Option<Number>, bool) {
        let start = self.i;
        let mut integer = true;
        while let Some(&c) = self.b.get(self.i) {
            match c {
                b'0'..=b'9' | b'-' | b'+' => {}
                b'.' | b'e' | b'E' => integer = false,
                _ => break,
            }
            self.i += 1;
        }
        number_value(self.text.get(start..self.i).unwrap_or("0"), integer)
    }

    /// Moves to the next member of the object `need` asks for (past `{` or a value); the need
    /// of that member, its name set in `name`, and whether the object cannot hold that name
    /// yet (the first time one of the first 64 fields is read: `seen` has a bit for each);
    /// `None` past the closing `}`.
    fn next_member<'n>(
        &mut self,
        need: &'n Need,
        name: &mut Cow<'t, str>,
        seen: &mut u64,
    ) -> Option<(&'n Need, bool)> {
        loop {
            self.ws();
            match self.peek() {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b'"' => {}
                // `}` (or the end, which a scanned text does not reach here).
                _ => {
                    self.i += 1;
                    return None;
                }
            }
            let key = self.string();
            self.ws();
            self.i += 1; // ':'
            self.ws();
            if let Some((at, member)) = need.field(&key) {
                *name = key;
                let bit = at.and_then(|at| 1u64.checked_shl(u32::try_from(at).ok()?));
                let fresh = bit.is_some_and(|bit| *seen & bit == 0);
                *seen |= bit.unwrap_or(0);
                return Some((member, fresh));
            }
            self.skip();
        }
    }

    /// The string, boolean, `null` or number at the offset, and whether it is a number past a
    /// double's range (read as `null`).
    #[inline]
    fn scalar<T: Tree<'t>>(&mut self, tree: &T) -> (T::Value, bool) {
        match self.peek() {
            b'"' => (tree.string(self.string()), false),
            b't' => {
                self.i += 4;
                (tree.boolean(true), false)
            }
            b'f' => {
                self.i += 5;
                (tree.boolean(false), false)
            }
            b'n' => {
                self.i += 4;
                (tree.null(), false)
            }
            _ => {
                let (n, infinite) = self.number();
                (tree.number(n), infinite)
            }
        }
    }

    /// The object at the offset, read in one go when every member `need` asks for holds a
    /// string, a boolean, `null` or a number within a double's range; else `None`, the offset
    /// left where it was for the general loop of [`decode_checked`].
    ///
    /// Tool records are such objects (`[?state == 'open'].{number: …, title: …}` reads three
    /// scalars of each issue): read here, a record costs its members' walk and nothing else,
    /// where the general loop puts a frame on its stack for it and goes round once per member.
    /// Nothing here recurses: a member holding an array or object sends the whole object back
    /// to the general loop, which reads it without recursion.
    fn flat_object<T: Tree<'t>>(&mut self, tree: &T, need: &Need) -> Option<T::Value> {
        if matches!(need, Need::All) {
            return None;
        }
        let (i, k, s) = (self.i, self.k, self.s);
        let capacity = need.capacity(self.container_len());
        self.i += 1;
        self.k += 1;
        let mut members = tree.new_object(capacity);
        let mut name = Cow::Borrowed("");
        let mut seen = 0;
        loop {
            let Some((_, fresh)) = self.next_member(need, &mut name, &mut seen) else {
                return Some(tree.object(members));
            };
            let value = match self.peek() {
                b'{' | b'[' => None,
                _ => match self.scalar(tree) {
                    (value, false) => Some(value),
                    (_, true) => None,
                },
            };
            // An array or object, or a number past a double's range.
            let Some(value) = value else {
                (self.i, self.k, self.s) = (i, k, s);
                return None;
            };
            let read = std::mem::take(&mut name);
            if fresh {
                tree.push(&mut members, read, value);
            } else {
                tree.insert(&mut members, read, value);
            }
        }
    }
}

/// The value of a number's text, as `serde_json` holds what `JSON.parse` reads: an integer that
/// fits 64 bits exactly, anything else as the nearest double.
/// Also whether the number is past a double's range (then `None`).
fn number_value(raw: &str, integer: bool) -> (Option<Number>, bool) {
    if integer && raw.len() <= 20 {
        if raw == "-0" {
            return (Number::from_f64(-0.0), false);
        }
        if raw.starts_with('-') {
            if let Ok(n) = raw.parse::<i64>() {
                return (Some(n.into()), false);
            }
        } else if let Ok(n) = raw.parse::<u64>() {
            return (Some(n.into()), false);
        }
    }
    match raw.parse::<f64>().ok().and_then(Number::from_f64) {
        Some(n) => (Some(n), false),
        None => (None, true),
    }
}

/// The value of `text`, which [`scan`] accepted with `structure`, as far as `need` asks.
/// Iterative: the text's depth is bounded only by the limit it was scanned with.
pub(crate) fn decode<'t, T: Tree<'t>>(
    tree: &T,
    text: &'t str,
    structure: &Structure,
    need: &Need,
) -> T::Value {
    decode_checked(tree, text, structure, need).0
}

/// [`decode`], and whether the value holds a number past a double's range (as `null`).
fn decode_checked<'t, T: Tree<'t>>(
    tree: &T,
    text: &'t str,
    structure: &Structure,
    need: &Need,
) -> (T::Value, bool) {
    let mut d = Decoder {
        text,
        b: text.as_bytes(),
        containers: &structure.containers,
        strings: &structure.strings,
        i: 0,
        k: 0,
        s: 0,
    };
    d.ws();
    let mut stack: Vec<Frame<'t, '_, T>> = Vec::new();
    let mut need = need;
    'value: loop {
        // A value starts at the offset; `need` says how much of it.
        let (mut value, mut infinite) = match d.peek() {
            // An object of which no member is needed is stepped over in one jump.
            b'{' if matches!(need, Need::Part { fields, names: false, .. } if fields.is_empty()) => {
                d.skip();
                (tree.object(tree.new_object(0)), false)
            }
            // A record of scalars in one go; anything else member by member.
            b'{' => match d.flat_object(tree, need) {
                Some(object) => (object, false),
                None => {
                    let len = d.container_len();
                    d.i += 1;
                    d.k += 1;
                    let mut name = Cow::Borrowed("");
                    let mut seen = 0;
                    match d.next_member(need, &mut name, &mut seen) {
                        Some((member, fresh)) => {
                            stack.push(Frame::Object {
                                members: tree.new_object(need.capacity(len)),
                                need,
                                name,
                                fresh,
                                seen,
                                infinities: Infinities::default(),
                            });
                            need = member;
                            continue 'value;
                        }
                        None => (tree.object(tree.new_object(0)), false),
                    }
                }
            },
            b'[' => {
                let len = d.container_len();
                d.i += 1;
                d.k += 1;
                d.ws();
                if d.peek() == b']' {
                    d.i += 1;
                    (tree.array(tree.new_array(0)), false)
                } else {
                    let items = need.items();
                    stack.push(Frame::Array(
                        tree.new_array(len),
                        items,
                        Infinities::default(),
                    ));
                    need = items;
                    continue 'value;
                }
            }
            _ => d.scalar(tree),
        };
        // A value is complete: into its container, then on to the next value to read.
        loop {
            match stack.last_mut() {
                None => return (value, infinite),
                Some(Frame::Array(items, item_need, infinities)) => {
                    tree.push_item(items, value);
                    infinities.items += usize::from(infinite);
                    d.ws();
                    if d.peek() == b',' {
                        d.i += 1;
                        d.ws();
                        need = item_need;
                        continue 'value;
                    }
                    d.i += 1;
                    // Taken out of the frame, which is popped below; the empty array left in
                    // its place allocates nothing.
                    value = tree.array(std::mem::replace(items, tree.new_array(0)));
                    infinite = infinities.any();
                }
                Some(Frame::Object {
                    members,
                    need: object_need,
                    name,
                    fresh,
                    seen,
                    infinities,
                }) => {
                    infinities.member(name, infinite);
                    let read = std::mem::take(name);
                    if *fresh {
                        tree.push(members, read, value);
                    } else {
                        // A repeated name keeps its place and takes the later value.
                        tree.insert(members, read, value);
                    }
                    if let Some((member, is_new)) = d.next_member(object_need, name, seen) {
                        *fresh = is_new;
                        need = member;
                        continue 'value;
                    }
                    value = tree.object(std::mem::replace(members, tree.new_object(0)));
                    infinite = infinities.any();
                }
            }
            stack.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(text: &str) -> Value {
        let s = scan(text, 128).unwrap();
        decode(&Values, text, &s, &Need::All)
    }

    /// The vector and the word searches find what a byte-by-byte search finds, at every
    /// offset of every buffer: each special byte at each place, next to the bytes that borrow
    /// or carry in the word test (0x00, 0x01, 0x1f, 0x20, 0x21, 0x7f, 0x80, 0xff).
    #[test]
    fn special_bytes_found_by_vectors_and_words_as_by_bytes() {
        let bytes_only = |b: &[u8], from: usize| find_special_bytes(b, from);
        let vectors = |b: &[u8], from: usize| find_special_bytes(b, find_special_vectors(b, from));
        let words = |b: &[u8], from: usize| find_special_bytes(b, find_special_words(b, from));
        let plain = [
            b'a',
            b' ',
            b'!',
            0x7f,
            0x80,
            0xff,
            0x21,
            0xc3,
            0x5c ^ 0x80,
            0x22 ^ 0x80,
        ];
        let tricky = [0x00, 0x01, 0x1f, 0x20, 0x21, 0x7f, 0x80, 0xff, b'"', b'\\'];
        let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
        let mut checked = 0;
        for len in 0..40 {
            for _ in 0..20 {
                let mut buffer: Vec<u8> = (0..len)
                    .map(|_| plain[next() as usize % plain.len()])
                    .collect();
                for at in 0..len {
                    for &special_byte in &tricky {
                        let before = buffer[at];
                        buffer[at] = special_byte;
                        if at + 1 < len {
                            buffer[at + 1] = tricky[next() as usize % tricky.len()];
                        }
                        for from in [0, at / 2, at] {
                            let expected = bytes_only(&buffer, from);
                            assert_eq!(vectors(&buffer, from), expected, "{buffer:?} from {from}");
                            assert_eq!(words(&buffer, from), expected, "{buffer:?} from {from}");
                            checked += 1;
                        }
                        buffer[at] = before;
                    }
                }
            }
        }
        assert!(checked > 10_000);
        assert_eq!(words(b"abc", 3), 3);
        assert_eq!(words(b"0123456789abcdef\"", 0), 16);
    }

    #[test]
    fn reads_like_serde_json_where_both_agree() {
        for text in [
            r#"{"z": 1, "a": [true, null, -3, 1.5, 18446744073709551615, "é😀"], "m": {"k": {}}}"#,
            "[]",
            "{}",
            " [ [ ] , { } , [ 1 ] ] ",
            r#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#,
            "-12",
            "0",
            "1e3",
            "-9223372036854775808",
            "-9223372036854775809",
            "18446744073709551616",
            "123.456e-7",
        ] {
            let want: Value = serde_json::from_str(text).unwrap();
            assert_eq!(read(text), want, "{text}");
        }
    }

    #[test]
    fn a_repeated_name_keeps_its_place_and_takes_the_last_value() {
        let v = read(r#"{"a":1,"b":0,"a":2}"#);
        assert_eq!(v, json!({"a": 2, "b": 0}));
        assert_eq!(
            v.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["a", "b"]
        );
    }

    #[test]
    fn refusals() {
        for (text, what) in [
            ("", "unexpected end"),
            ("[1,", "unexpected end"),
            ("[1,]", "expected a value"),
            ("[,1]", "expected a value"),
            ("{,}", "expected a member name"),
            (r#"{"a" 1}"#, "expected ':'"),
            ("[01]", "expected ',' or a closing bracket"),
            ("[1.]", "invalid number"),
            ("[-]", "invalid number"),
            ("[1e]", "invalid number"),
            ("[1] x", "unexpected text after the value"),
            (r#"["\x"]"#, "invalid escape"),
            (r#"["\u12g4"]"#, "invalid escape"),
            ("[\"a\u{1}\"]", "control character in a string"),
            ("[\"abc", "unterminated string"),
            ("[tru]", "expected a value"),
            ("{]", "expected a member name"),
            ("[}", "expected a value"),
            ("[1}", "expected ',' or a closing bracket"),
        ] {
            match scan(text, 10) {
                Err(ReadError::Syntax(_, w)) => assert_eq!(w, what, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        assert_eq!(scan("[1e400]", 10).unwrap_err(), ReadError::Infinity(1));
        assert_eq!(
            scan(r#"{"a":[{"b":1e400}]}"#, 10).unwrap_err(),
            ReadError::Infinity(11)
        );
        // JSON.parse('{"a":1e400,"a":1}') is {a: 1}: a replaced Infinity is no Infinity.
        assert!(scan(r#"{"a":1e400,"b":0,"a":1}"#, 10).is_ok());
        assert!(scan(r#"{"a":{"x":[1e400]},"a":{"x":1}}"#, 10).is_ok());
        assert!(scan(r#"{"a":1,"a":-1e400}"#, 10).is_err());
        assert!(scan(r#"[{"a":1e400,"a":1},{"a":1,"a":1e400}]"#, 10).is_err());
        assert_eq!(
            scan("[-1e400, x]", 10).unwrap_err(),
            ReadError::Syntax(9, "expected a value")
        );
        assert!(scan(&format!("[{}]", "9".repeat(400)), 10).is_err());
        assert!(scan(&format!("[{}]", "9".repeat(308)), 10).is_ok());
        assert_eq!(scan("[[1]]", 1).unwrap_err(), ReadError::TooDeep);
        // Deep past a syntax error is still too deep.
        let deep = format!("[x{}", "[".repeat(200));
        assert_eq!(scan(&deep, 128).unwrap_err(), ReadError::TooDeep);
    }

    #[test]
    fn lone_surrogates_read_as_u_fffd() {
        assert_eq!(
            read(r#"["\ud800", "a\udc00b", "\ud83d\ude00\ud83d", "\ud800\ud800\udc00"]"#),
            json!(["\u{fffd}", "a\u{fffd}b", "😀\u{fffd}", "\u{fffd}𐀀"])
        );
    }

    #[test]
    fn numbers_are_what_json_parse_reads() {
        assert_eq!(
            read("-0").as_f64().map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
        // Correctly rounded (the nearest double), where serde_json's fast path is one off.
        assert_eq!(
            read("2.2250738585072011e-308").as_f64(),
            Some(2.225_073_858_507_201e-308)
        );
        let long = format!("1{}", "0".repeat(10_000));
        let text = format!("[{long}.5e-9990]");
        assert_eq!(read(&text), json!([1e10]));
    }

    #[test]
    fn a_need_reads_only_its_members() {
        let text = r#"[{"state":"open","n":1,"body":{"x":[1,2,{"y":3}]},"t":"a\"b"},{"n":2,"state":"closed","body":[[]],"t":"c"}, 5, "s", [1, {"n": 3}]]"#;
        let s = scan(text, 10).unwrap();
        let need = Need::Part {
            fields: vec![],
            items: Some(Box::new(Need::Part {
                fields: vec![("n".into(), Need::All), ("t".into(), Need::All)],
                items: None,
                names: false,
            })),
            names: false,
        };
        assert_eq!(
            decode(&Values, text, &s, &need),
            json!([{"n": 1, "t": "a\"b"}, {"n": 2, "t": "c"}, 5, "s", [1, {}]])
        );
        assert_eq!(
            decode(&Values, text, &s, &Need::NOTHING),
            json!([{}, {}, 5, "s", [1, {}]])
        );
        assert_eq!(
            decode(&Values, text, &s, &Need::All),
            serde_json::from_str::<Value>(text).unwrap()
        );
    }

    #[test]
    fn a_needed_name_repeated_takes_the_last_value_in_its_first_place() {
        // The first reading of a needed field is pushed without a search for its name; a
        // repeat must still replace it, for the first 64 fields (a bit each) and past them.
        let mut fields: Vec<(Box<str>, Need)> = (0..70)
            .map(|k| (format!("f{k}").into_boxed_str(), Need::All))
            .collect();
        fields.push(("a".into(), Need::All));
        fields.push(("b".into(), Need::NOTHING));
        let need = Need::Part {
            fields,
            items: None,
            names: false,
        };
        let members: Vec<String> = (0..70).map(|k| format!("\"f{k}\":{k}")).collect();
        let text = format!(
            r#"{{"a":1,"x":0,"b":{{"c":1}},{},"a":[2],"f3":"again","f69":"last","b":{{}}}}"#,
            members.join(",")
        );
        let s = scan(&text, 10).unwrap();
        let mut want = serde_json::Map::new();
        want.insert("a".into(), json!([2]));
        want.insert("b".into(), json!({}));
        for k in 0..70 {
            want.insert(format!("f{k}"), json!(k));
        }
        want.insert("f3".into(), json!("again"));
        want.insert("f69".into(), json!("last"));
        let value: Value = decode(&Values, &text, &s, &need);
        assert_eq!(value, Value::Object(want.clone()));
        let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
        assert_eq!(keys[..3], ["a", "b", "f0"]);
        let arena = bumpalo::Bump::new();
        let lite = decode(&Lites::new(&arena), &text, &s, &need);
        assert_eq!(lite_to_value(&lite), Value::Object(want));
        let Lite::Object(object) = &lite else {
            panic!("{lite:?}")
        };
        let names: Vec<&str> = object.members.iter().map(|(k, _)| *k).collect();
        assert_eq!(names.len(), 72);
        assert_eq!(names[..4], ["a", "b", "f0", "f1"]);
        assert_eq!(object.get("f69"), Some(&Lite::Str("last")));
    }

    #[test]
    fn a_need_of_names_keeps_every_member_with_nothing_of_the_others() {
        let names = |fields: Vec<(&str, Need)>| Need::Part {
            fields: fields.into_iter().map(|(f, n)| (f.into(), n)).collect(),
            items: None,
            names: true,
        };
        // A repeated name keeps its first place and takes the later value, as `JSON.parse`;
        // what is not a field is read as `Need::NOTHING` reads it (an object empty, an array's
        // elements kept, a scalar whole).
        let text = r#"{"a":1,"x":{"deep":[1]},"b":[1,2,{"c":3}],"x":"s","c":2,"a":{"k":1}}"#;
        let cases = [
            (
                text,
                names(vec![("a", Need::All)]),
                json!({"a": {"k": 1}, "x": "s", "b": [1, 2, {}], "c": 2}),
            ),
            (
                text,
                names(vec![]),
                json!({"a": {}, "x": "s", "b": [1, 2, {}], "c": 2}),
            ),
            // Scalars only: read in one go.
            (
                r#"{"p":1,"q":"2","p":true}"#,
                names(vec![("y", Need::All)]),
                json!({"p": true, "q": "2"}),
            ),
        ];
        for (text, need, want) in cases {
            let s = scan(text, 10).unwrap();
            let value: Value = decode(&Values, text, &s, &need);
            assert_eq!(value, want, "{text} {need:?}");
            let keys: Vec<&String> = value.as_object().unwrap().keys().collect();
            let want_keys: Vec<&String> = want.as_object().unwrap().keys().collect();
            assert_eq!(keys, want_keys);
            let arena = bumpalo::Bump::new();
            let lite = decode(&Lites::new(&arena), text, &s, &need);
            assert_eq!(lite_to_value(&lite), want, "{text} {need:?}");
        }
        // Past 16 members (the arena's hash table) and with repeats: one member per name.
        let members: Vec<String> = (0..40).map(|k| format!("\"m{}\":{k}", k % 20)).collect();
        let text = format!("{{{}}}", members.join(","));
        let s = scan(&text, 10).unwrap();
        let arena = bumpalo::Bump::new();
        let lite = decode(&Lites::new(&arena), &text, &s, &names(vec![]));
        assert!(matches!(lite, Lite::Object(o) if o.members.len() == 20));
        let value: Value = decode(&Values, &text, &s, &names(vec![]));
        assert_eq!(value.as_object().unwrap().len(), 20);
        assert_eq!(value["m3"], json!(23));
        assert_eq!(lite_to_value(&lite), value);
    }

    #[test]
    fn records_read_in_one_go_or_by_the_general_loop_alike() {
        let need = Need::Part {
            fields: vec![],
            items: Some(Box::new(Need::Part {
                fields: vec![("a".into(), Need::All), ("b".into(), Need::NOTHING)],
                items: None,
                names: false,
            })),
            names: false,
        };
        let text = r#"[{"a":1,"b":"x\"y","c":{}},{"a":{"k":[1]},"b":2},{"a":"s","a":[3]},
            {"b":1e999,"a":true,"b":2},{"a":null,"x":[],"b":false,"a":-0.5},{"c":[{"a":1}]}]"#;
        let s = scan(text, 10).unwrap();
        let want = json!([{"a": 1, "b": "x\"y"}, {"a": {"k": [1]}, "b": 2}, {"a": [3]},
            {"b": 2, "a": true}, {"a": -0.5, "b": false}, {}]);
        assert_eq!(decode(&Values, text, &s, &need), want);
        let arena = bumpalo::Bump::new();
        let lite = decode(&Lites::new(&arena), text, &s, &need);
        assert_eq!(lite_to_value(&lite), want);

        // Which objects the one-go reading takes: those whose needed members hold scalars.
        // The others leave the offsets where they were.
        let item = need.items();
        let mut d = Decoder {
            text,
            b: text.as_bytes(),
            containers: &s.containers,
            strings: &s.strings,
            i: 1,
            k: 1,
            s: 0,
        };
        let mut taken = Vec::new();
        while d.peek() != b']' {
            d.ws();
            let at = (d.i, d.k, d.s);
            let read = d.flat_object(&Values, item);
            if read.is_none() {
                assert_eq!((d.i, d.k, d.s), at);
                d.skip();
            }
            taken.push(read.is_some());
            d.ws();
            d.i += usize::from(d.peek() == b',');
        }
        assert_eq!(taken, [true, false, false, false, true, true]);
    }

    /// A [`Lite`] tree as `serde_json`, to compare.
    fn lite_to_value(lite: &Lite<'_>) -> Value {
        match lite {
            Lite::Null => Value::Null,
            Lite::Bool(b) => Value::Bool(*b),
            Lite::Number(n) => Value::Number(n.clone()),
            Lite::Str(s) => Value::String(s.to_string()),
            Lite::Array(items) => Value::Array(items.iter().map(lite_to_value).collect()),
            Lite::Object(o) => Value::Object(
                o.members
                    .iter()
                    .map(|(k, v)| (k.to_string(), lite_to_value(v)))
                    .collect(),
            ),
        }
    }

    #[test]
    fn the_borrowed_tree_reads_like_the_value() {
        // Small and large objects (past the scan limit, where names are hashed), names
        // repeated in both, escaped names.
        let big: Vec<String> = (0..40).map(|i| format!("\"k{}\":{i}", i % 23)).collect();
        let text = format!(
            r#"[{{"a":1,"b":"x\ty","a":[2,{{"c":null}}],"\u0062":true}}, {{{}}}, "s\u00e9", -0, 1.5e3]"#,
            big.join(",")
        );
        let s = scan(&text, 10).unwrap();
        let arena = bumpalo::Bump::new();
        let lite = decode(&Lites::new(&arena), &text, &s, &Need::All);
        let value: Value = decode(&Values, &text, &s, &Need::All);
        assert_eq!(lite_to_value(&lite), value);
        let Lite::Array(items) = &lite else {
            panic!("{lite:?}")
        };
        let Lite::Object(big) = &items[1] else {
            panic!("{lite:?}")
        };
        assert_eq!(big.members.len(), 23);
        assert_eq!(big.get("k5"), Some(&Lite::Number(28.into())));
        assert_eq!(big.get("k22"), Some(&Lite::Number(22.into())));
        assert_eq!(big.get("k23"), None);
        // Strings without escapes borrow from the text.
        let Lite::Object(first) = &items[0] else {
            panic!("{lite:?}")
        };
        let name = first.members[0].0;
        assert_eq!(name, "a");
        assert!(text.as_bytes().as_ptr_range().contains(&name.as_ptr()));
        assert_eq!(first.members.len(), 2);
    }

    #[test]
    fn a_large_object_finds_every_member_by_hash_and_nothing_else() {
        for size in [17, 64, 1000] {
            let members: Vec<String> = (0..size).map(|i| format!("\"m{i}\":{i}")).collect();
            let text = format!("{{{}}}", members.join(","));
            let s = scan(&text, 10).unwrap();
            let arena = bumpalo::Bump::new();
            let lite = decode(&Lites::new(&arena), &text, &s, &Need::All);
            let Lite::Object(object) = &lite else {
                panic!("{lite:?}")
            };
            assert!(!object.slots.is_empty());
            for i in 0..size {
                assert_eq!(object.get(&format!("m{i}")), Some(&Lite::Number(i.into())));
            }
            for absent in ["m", "m-1", &format!("m{size}"), ""] {
                assert_eq!(object.get(absent), None);
            }
        }
    }

    #[test]
    fn deep_text_within_the_limit_reads_without_recursion() {
        let text = format!("{}1{}", "[".repeat(50_000), "]".repeat(50_000));
        let s = scan(&text, 50_000).unwrap();
        let v = decode(&Values, &text, &s, &Need::All);
        assert!(super::super::depth_exceeds(&v, 49_999));
        super::super::drop_deep(v);
    }
}
