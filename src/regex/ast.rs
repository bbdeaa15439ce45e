//! The syntax tree of a dialect pattern, with byte offsets into the pattern text.
//!
//! The parser only builds trees for patterns JavaScript accepts in `u` mode; constructs outside the
//! dialect (lookaround, backreferences, lone surrogates, unshared properties) never get a node.

/// A byte range of the pattern text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset just past the last byte.
    pub end: usize,
}

/// A node and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// What the node is.
    pub kind: NodeKind,
    /// Where it is in the pattern.
    pub span: Span,
}

/// The constructs of the dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeKind {
    /// Matches the empty string (an empty alternative or group).
    Empty,
    /// One code point, written or escaped (`a`, `\n`, `\u{1F600}`, `\uD83D\uDE00`).
    Literal(char),
    /// `.`: any code point but the four JavaScript line terminators.
    Dot,
    /// `\d \w \s` and their negations.
    Perl(PerlClass),
    /// `\p{…}` / `\P{…}`.
    Property(Property),
    /// `[…]` / `[^…]`.
    Class(Class),
    /// `^ $ \b \B`.
    Assertion(Assertion),
    /// `(…)`, `(?<name>…)` or `(?:…)`.
    Group(Box<Group>),
    /// Terms one after another.
    Concat(Vec<Node>),
    /// `a|b|…` (two or more alternatives).
    Alternation(Vec<Node>),
    /// A quantified atom.
    Repeat(Box<Repeat>),
}

/// `\d` (digits), `\w` (ASCII word characters), `\s` (JavaScript white space), maybe negated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerlClass {
    /// Which of the three.
    pub kind: PerlKind,
    /// `\D \W \S`.
    pub negated: bool,
}

/// The three built-in classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PerlKind {
    /// `[0-9]`.
    Digit,
    /// `[A-Za-z0-9_]`.
    Word,
    /// JavaScript `WhiteSpace` and `LineTerminator`.
    Space,
}

/// A Unicode property, already resolved to its canonical Unicode name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Property {
    /// Which property and value.
    pub kind: PropertyKind,
    /// `\P{…}`.
    pub negated: bool,
}

/// The property families the dialect accepts; each holds the canonical Unicode name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropertyKind {
    /// `General_Category` value (`Lu`, `Letter`, …).
    GeneralCategory(&'static str),
    /// `Script` value.
    Script(&'static str),
    /// `Script_Extensions` value.
    ScriptExtensions(&'static str),
    /// A binary property (`Alphabetic`, `ASCII`, …).
    Binary(&'static str),
}

/// A character class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Class {
    /// `[^…]`.
    pub negated: bool,
    /// The members, in written order.
    pub items: Vec<ClassItem>,
}

/// One member of a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassItem {
    /// One code point.
    Char(char),
    /// `a-z`; the ends are code points and may be surrogates (the part in `D800–DFFF` matches
    /// nothing in well-formed text).
    Range(u32, u32),
    /// `\d` etc. inside the class.
    Perl(PerlClass),
    /// `\p{…}` inside the class.
    Property(Property),
}

/// Zero-width assertions of the dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assertion {
    /// `^`: start of the text (there is no `m` flag).
    Start,
    /// `$`: end of the text.
    End,
    /// `\b` with the ASCII `\w`.
    WordBoundary,
    /// `\B`.
    NotWordBoundary,
}

/// A group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// `Some` for a capturing group.
    pub capture: Option<Capture>,
    /// The contents.
    pub node: Node,
}

/// A capturing group's number (1-based, by opening parenthesis) and optional name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// Group number, as JavaScript numbers it.
    pub index: u32,
    /// The name of a `(?<name>…)` group, escapes resolved.
    pub name: Option<String>,
}

/// A quantified atom: `*` `+` `?` `{n}` `{n,}` `{n,m}`, each optionally lazy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeat {
    /// The repeated atom.
    pub node: Node,
    /// Fewest repetitions (saturated at `u32::MAX`).
    pub min: u32,
    /// Most repetitions; `None` is unbounded (saturated at `u32::MAX`).
    pub max: Option<u32>,
    /// `false` for the lazy form (`*?`).
    pub greedy: bool,
}

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ast {
    /// The root node.
    pub root: Node,
    /// Number of capturing groups.
    pub group_count: u32,
}
