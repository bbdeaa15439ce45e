//! The syntax tree of a dialect pattern.
//!
//! The parser only builds trees for patterns JavaScript accepts in `u` mode; constructs outside the
//! dialect (lookaround, backreferences, lone surrogates, unshared properties) never get a node.
//!
//! Nodes live in one vector, each after its children, and each carries the facts the translator
//! asks about it ([`Props`]), computed from its children's facts when it is added. So no pass over
//! a tree recurses over the pattern's nesting: the facts are one lookup, the translator walks with
//! an explicit stack, and a node's subtree is a contiguous run of the vector ending at the node.

/// Index of a node in [`Ast::nodes`].
pub(crate) type NodeId = usize;

/// A node, where it starts in the pattern text, and its facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Node {
    pub kind: NodeKind,
    /// Byte offset of the node's first character in the pattern, for error messages.
    pub at: usize,
    pub props: Props,
}

/// The constructs of the dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NodeKind {
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
    /// `(…)` and `(?<name>…)` (with the group's number, 1-based by opening parenthesis, as
    /// JavaScript numbers them), or `(?:…)`.
    Group { capture: Option<u32>, child: NodeId },
    /// Terms one after another (two or more).
    Concat(Vec<NodeId>),
    /// `a|b|…` (two or more alternatives).
    Alternation(Vec<NodeId>),
    /// A quantified atom: `*` `+` `?` `{n}` `{n,}` `{n,m}`, each optionally lazy.
    Repeat(Repeat),
}

/// `\d` (digits), `\w` (ASCII word characters), `\s` (JavaScript white space), maybe negated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PerlClass {
    pub kind: PerlKind,
    /// `\D \W \S`.
    pub negated: bool,
}

/// The three built-in classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PerlKind {
    /// `[0-9]`.
    Digit,
    /// `[A-Za-z0-9_]`.
    Word,
    /// JavaScript `WhiteSpace` and `LineTerminator`.
    Space,
}

/// A Unicode property, already resolved to its canonical Unicode name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Property {
    pub kind: PropertyKind,
    /// `\P{…}`.
    pub negated: bool,
}

/// The property families the dialect accepts; each holds the canonical Unicode name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PropertyKind {
    /// `General_Category` value (`Lu`, `Letter`, …).
    GeneralCategory(&'static str),
    Script(&'static str),
    ScriptExtensions(&'static str),
    /// A binary property (`Alphabetic`, `ASCII`, …).
    Binary(&'static str),
}

/// A character class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Class {
    /// `[^…]`.
    pub negated: bool,
    /// The members, in written order.
    pub items: Vec<ClassItem>,
}

/// One member of a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ClassItem {
    Char(char),
    /// `a-z`; the ends are code points and may be surrogates (the part in `D800–DFFF` matches
    /// nothing in well-formed text).
    Range(u32, u32),
    Perl(PerlClass),
    Property(Property),
}

/// Zero-width assertions of the dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Assertion {
    /// `^`: start of the text (there is no `m` flag).
    Start,
    /// `$`: end of the text.
    End,
    /// `\b` with the ASCII `\w`.
    WordBoundary,
    /// `\B`.
    NotWordBoundary,
}

/// A quantifier and what it repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Repeat {
    pub child: NodeId,
    /// Fewest repetitions (saturated at `u32::MAX`).
    pub min: u32,
    /// Most repetitions; `None` is unbounded (saturated at `u32::MAX`).
    pub max: Option<u32>,
    /// `false` for the lazy form (`*?`).
    pub greedy: bool,
}

/// What the translator needs to know about a node, decided from its children's facts alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Props {
    /// First node of this node's subtree (the subtree is `first..=id`).
    pub first: NodeId,
    /// It can match the empty string.
    pub nullable: bool,
    /// It may match non-empty text (over-approximated: `a[]` counts, `[]` alone does not).
    pub consumes: bool,
    /// It can match the empty string between the two halves of an astral character, where `\B`
    /// holds and `^`, `$`, `\b` and every character fail.
    pub empty_mid_pair: bool,
    /// It holds a capture group (itself included).
    pub has_capture: bool,
    /// Some successful match of it skips a capture group inside it.
    pub skips_capture: bool,
}

/// A parsed pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ast {
    /// Every node, each after its children; the root is the last.
    pub nodes: Vec<Node>,
    /// Number of capturing groups.
    pub group_count: u32,
}

impl Ast {
    /// An empty tree, to be filled with [`Ast::push`].
    pub(crate) fn new() -> Ast {
        Ast {
            nodes: Vec::new(),
            group_count: 0,
        }
    }

    /// The root node (the last one pushed).
    pub(crate) fn root(&self) -> NodeId {
        self.nodes.len() - 1
    }

    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id]
    }

    pub(crate) fn props(&self, id: NodeId) -> Props {
        self.nodes[id].props
    }

    /// Adds a node whose children are already in the tree, with its facts.
    pub(crate) fn push(&mut self, kind: NodeKind, at: usize) -> NodeId {
        let id = self.nodes.len();
        let props = self.props_of(&kind, id);
        self.nodes.push(Node { kind, at, props });
        id
    }

    fn props_of(&self, kind: &NodeKind, id: NodeId) -> Props {
        let leaf = |nullable: bool, empty_mid_pair: bool| Props {
            first: id,
            nullable,
            consumes: !nullable,
            empty_mid_pair,
            has_capture: false,
            skips_capture: false,
        };
        match kind {
            NodeKind::Empty => leaf(true, true),
            NodeKind::Assertion(a) => leaf(true, *a == Assertion::NotWordBoundary),
            // `[]` matches nothing, so it never consumes: `(?:[]*)?` can only match empty text.
            NodeKind::Class(class) if class.items.is_empty() && !class.negated => Props {
                consumes: false,
                ..leaf(false, false)
            },
            NodeKind::Literal(_)
            | NodeKind::Dot
            | NodeKind::Perl(_)
            | NodeKind::Property(_)
            | NodeKind::Class(_) => leaf(false, false),
            NodeKind::Group { capture, child } => {
                let inner = self.props(*child);
                Props {
                    has_capture: inner.has_capture || capture.is_some(),
                    ..inner
                }
            }
            NodeKind::Concat(items) => {
                let all = items.iter().map(|&i| self.props(i));
                Props {
                    first: self.props(items[0]).first,
                    nullable: all.clone().all(|p| p.nullable),
                    consumes: all.clone().any(|p| p.consumes),
                    empty_mid_pair: all.clone().all(|p| p.empty_mid_pair),
                    has_capture: all.clone().any(|p| p.has_capture),
                    skips_capture: all.clone().any(|p| p.skips_capture),
                }
            }
            NodeKind::Alternation(items) => {
                let all = items.iter().map(|&i| self.props(i));
                let has_capture = all.clone().any(|p| p.has_capture);
                Props {
                    first: self.props(items[0]).first,
                    nullable: all.clone().any(|p| p.nullable),
                    consumes: all.clone().any(|p| p.consumes),
                    empty_mid_pair: all.clone().any(|p| p.empty_mid_pair),
                    has_capture,
                    // Each alternative skips the captures of the others.
                    skips_capture: has_capture,
                }
            }
            NodeKind::Repeat(rep) => {
                let inner = self.props(rep.child);
                Props {
                    first: inner.first,
                    nullable: rep.min == 0 || inner.nullable,
                    consumes: rep.max != Some(0) && inner.consumes,
                    empty_mid_pair: rep.min == 0 || inner.empty_mid_pair,
                    has_capture: inner.has_capture,
                    // Zero iterations skip every capture inside.
                    skips_capture: if rep.min == 0 {
                        inner.has_capture
                    } else {
                        inner.skips_capture
                    },
                }
            }
        }
    }
}
