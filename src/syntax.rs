//! The payload's syntax: the outer shape of a dynamic value (a binding or a call) in either
//! spelling. It is a layer of its own, below the catalogs, so that the compiler, the catalog
//! documents' literal checks, the `McpApp` properties and the message streams read one
//! definition and none of them hands it to another.
//!
//! In the `@` spelling a binding is `{"@path": <string>}` alone; a call has `@call` (a string)
//! and may have `args` (an object), `catalogId` and `returnType` (strings), nothing else. Any
//! object with `@path` or `@call` is meant as one, so a member that does not fit is an error.
//!
//! In the plain spelling the same shapes have `path` and `call` instead, and only an object
//! that fits exactly is one: any other object with `path` or `call` is a literal (a list
//! template's `{"componentId", "path"}` is one), as the A2UI reference renderers read them.

use serde_json::{Map, Value};

/// How bindings and calls are spelled in the payloads an
/// [`Environment`](crate::Environment) compiles.
///
/// - [`At`](Spelling::At) (the default): `{"@path": "/x"}` and `{"@call": "f", "args": {…}}`,
///   the spelling of the MCP catalog and its guide. A literal object shaped exactly like a
///   binding or a call of the plain spelling compiles as the literal it is, with a warning
///   ([`WarningCode::OtherSpelling`](crate::WarningCode::OtherSpelling)).
/// - [`Plain`](Spelling::Plain): `{"path": "/x"}` alone is a binding and `{"call": "f", "args"?:
///   {…}, "catalogId"?: "…", "returnType"?: "…"}` (nothing else) a call, as the A2UI
///   specification's examples and its reference renderers write them. The `@` spelling is read
///   too: keys starting with `@` are reserved in both spellings, so `{"@path": …}` can never be
///   meant as a literal, and reading it lets a plain environment take the MCP guide's payloads
///   unchanged (no warning: nothing is misread). `@index` is `{"call": "@index"}` or
///   `{"@call": "@index"}`.
///
/// The plain spelling brings back the ambiguity the `@` spelling removes: an object that is
/// data and happens to have this shape is read as a dynamic value. A tool argument object
/// `{"path": "/tmp/x"}` (`callMcpTool`'s `arguments`) is a binding to the data model path
/// `/tmp/x`, and `updateDataModel`'s `{"updates": {"path": "/x"}}` writes the value at `/x` of
/// the model rather than the string `"/x"` at `path`. There is no escape for such literals in
/// the plain spelling; in the `@` spelling the same objects are literals (and warned about).
///
/// ```
/// use a2ui_catalog_mcp::{Environment, Spelling};
/// use serde_json::json;
///
/// let env = Environment::new().with_spelling(Spelling::Plain);
/// let payload = env.compile(&json!({"items": {"call": "split", "args": {"value": {"path": "/csv"}, "separator": ","}}}))?;
/// assert_eq!(payload.eval(&mut json!({"csv": "a,b"}))?, json!({"items": ["a", "b"]}));
/// assert_eq!(Spelling::parse("plain"), Some(Spelling::Plain));
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Spelling {
    /// `{"@path": …}`, `{"@call": …}` only.
    #[default]
    At,
    /// `{"path": …}`, `{"call": …}` as well.
    Plain,
}

impl Spelling {
    /// `"at"` or `"plain"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Spelling::At => "at",
            Spelling::Plain => "plain",
        }
    }

    /// Parses `"at"` or `"plain"`.
    pub fn parse(text: &str) -> Option<Spelling> {
        match text {
            "at" => Some(Spelling::At),
            "plain" => Some(Spelling::Plain),
            _ => None,
        }
    }
}

/// A member of a binding or call object that does not fit its shape.
pub(crate) enum Misfit<'v> {
    /// A key the object may not have.
    Unknown(&'v str),
    /// A member of the wrong type: what it must be, and what it is.
    WrongType {
        key: &'v str,
        wanted: &'static str,
        got: &'v Value,
    },
}

/// The members of each shape and the type of each: `true` for an object, `false` for a string.
const BINDING: &[(&str, bool)] = &[("@path", false)];
const CALL: &[(&str, bool)] = &[
    ("@call", false),
    ("args", true),
    ("catalogId", false),
    ("returnType", false),
];
const PLAIN_BINDING: &[(&str, bool)] = &[("path", false)];
const PLAIN_CALL: &[(&str, bool)] = &[
    ("call", false),
    ("args", true),
    ("catalogId", false),
    ("returnType", false),
];

fn misfits<'v>(map: &'v Map<String, Value>, members: &[(&str, bool)]) -> Vec<Misfit<'v>> {
    let mut out = Vec::new();
    for (key, value) in map {
        match members.iter().find(|(name, _)| name == key) {
            None => out.push(Misfit::Unknown(key)),
            Some((_, true)) if !value.is_object() => out.push(Misfit::WrongType {
                key,
                wanted: "an object",
                got: value,
            }),
            Some((_, false)) if !value.is_string() => out.push(Misfit::WrongType {
                key,
                wanted: "a string",
                got: value,
            }),
            Some(_) => {}
        }
    }
    out
}

/// Whether every member fits (without collecting the misfits).
fn fits(map: &Map<String, Value>, members: &[(&str, bool)]) -> bool {
    map.iter().all(|(key, value)| {
        members
            .iter()
            .find(|(name, _)| name == key)
            .is_some_and(|(_, object)| {
                if *object {
                    value.is_object()
                } else {
                    value.is_string()
                }
            })
    })
}

/// What does not fit in an object with `@path`, in member order.
pub(crate) fn binding_misfits(map: &Map<String, Value>) -> Vec<Misfit<'_>> {
    misfits(map, BINDING)
}

/// What does not fit in an object with `@call`, in member order.
pub(crate) fn call_misfits(map: &Map<String, Value>) -> Vec<Misfit<'_>> {
    misfits(map, CALL)
}

/// A binding or a call of the plain spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PlainShape {
    /// `{"path": string}`.
    Binding,
    /// `{"call": string, "args"?: object, "catalogId"?: string, "returnType"?: string}`.
    Call,
}

/// Whether an object is shaped exactly like a binding or a call of the plain spelling.
pub(crate) fn plain_shape(map: &Map<String, Value>) -> Option<PlainShape> {
    if map.contains_key("path") && fits(map, PLAIN_BINDING) {
        Some(PlainShape::Binding)
    } else if map.contains_key("call") && fits(map, PLAIN_CALL) {
        Some(PlainShape::Call)
    } else {
        None
    }
}

/// What an object is read as: the key naming the binding's path or the call's function, or
/// both keys of the `@` spelling at once (an error); `None` for a literal.
pub(crate) enum Form {
    Binding(&'static str),
    Call(&'static str),
    BindingAndCall,
}

/// How `spelling` reads an object (see the module docs).
pub(crate) fn form(map: &Map<String, Value>, spelling: Spelling) -> Option<Form> {
    match (map.contains_key("@path"), map.contains_key("@call")) {
        (true, true) => return Some(Form::BindingAndCall),
        (true, false) => return Some(Form::Binding("@path")),
        (false, true) => return Some(Form::Call("@call")),
        (false, false) => {}
    }
    if spelling == Spelling::At {
        return None;
    }
    plain_shape(map).map(|shape| match shape {
        PlainShape::Binding => Form::Binding("path"),
        PlainShape::Call => Form::Call("call"),
    })
}

/// Where values show which spelling they are written in: the JSON Pointer of the first object
/// of the `@` spelling (a `@path` or `@call` key) and of the first object in the exact shape of
/// a plain binding or call, in document order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Evidence {
    pub(crate) at: Option<String>,
    pub(crate) plain: Option<String>,
}

impl Evidence {
    /// Adds what `value`, at `pointer`, shows. The walk uses an explicit stack, builds a JSON
    /// Pointer only for what it finds (each node visited records its parent and its key, no
    /// text), and stops when both spellings have been seen.
    pub(crate) fn add(&mut self, pointer: String, value: &Value) {
        enum Token<'v> {
            Root,
            Key(&'v str),
            Index(usize),
        }
        // (parent node, token from the parent) of every node visited.
        let mut nodes: Vec<(usize, Token<'_>)> = vec![(0, Token::Root)];
        let mut stack: Vec<(usize, &Value)> = vec![(0, value)];
        let locate = |nodes: &[(usize, Token<'_>)], mut at: usize| {
            let mut tokens = Vec::new();
            while at != 0 {
                let (parent, token) = &nodes[at];
                tokens.push(match token {
                    Token::Key(k) => crate::path::escape_token(k).into_owned(),
                    Token::Index(i) => i.to_string(),
                    Token::Root => String::new(),
                });
                at = *parent;
            }
            let mut out = pointer.clone();
            for token in tokens.iter().rev() {
                out.push('/');
                out.push_str(token);
            }
            out
        };
        while let Some((node, value)) = stack.pop() {
            if self.at.is_some() && self.plain.is_some() {
                return;
            }
            match value {
                Value::Object(map) => {
                    if map.contains_key("@path") || map.contains_key("@call") {
                        if self.at.is_none() {
                            self.at = Some(locate(&nodes, node));
                        }
                    } else if plain_shape(map).is_some() && self.plain.is_none() {
                        self.plain = Some(locate(&nodes, node));
                    }
                    let first = nodes.len();
                    nodes.extend(map.keys().map(|k| (node, Token::Key(k))));
                    stack.extend(map.values().enumerate().rev().map(|(i, v)| (first + i, v)));
                }
                Value::Array(items) => {
                    let first = nodes.len();
                    nodes.extend((0..items.len()).map(|i| (node, Token::Index(i))));
                    stack.extend(items.iter().enumerate().rev().map(|(i, v)| (first + i, v)));
                }
                _ => {}
            }
        }
    }

    /// The spelling a surface reads its values in, given the one it read them in so far
    /// (`None`: no binding or call yet) and this evidence: once decided, it stays; else the `@`
    /// spelling when anything is written with `@` (a plain-shaped object beside it is then a
    /// literal, most likely a tool's argument such as `{"path": "/docs"}`), the plain one when
    /// only plain shapes show. `None` while nothing tells.
    pub(crate) fn decide(&self, so_far: Option<Spelling>) -> Option<Spelling> {
        so_far.or(if self.at.is_some() {
            Some(Spelling::At)
        } else if self.plain.is_some() {
            Some(Spelling::Plain)
        } else {
            None
        })
    }

    /// Where values of the other spelling than `spelling` show, if they do: what a mixed
    /// surface is warned about.
    pub(crate) fn other_than(&self, spelling: Spelling) -> Option<&str> {
        match spelling {
            Spelling::At => self.plain.as_deref(),
            Spelling::Plain => self.at.as_deref(),
        }
    }
}

/// Whether `spelling` reads an object as a binding or a call (malformed `@` ones included: the
/// compiler reports them), whose value is only known when the payload runs.
pub(crate) fn is_dynamic(map: &Map<String, Value>, spelling: Spelling) -> bool {
    form(map, spelling).is_some()
}

/// Whether an object is a binding or a call in either spelling: what the literal checks of
/// catalog documents leave out. In the `@` spelling a plain-shaped object is a literal, but most
/// likely a misspelled dynamic value (warned about), so its value is not the schema's question.
#[cfg_attr(not(feature = "json-schema"), allow(dead_code))]
pub(crate) fn looks_dynamic(map: &Map<String, Value>) -> bool {
    is_dynamic(map, Spelling::Plain)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shape(v: Value) -> Option<PlainShape> {
        plain_shape(v.as_object().unwrap())
    }

    #[test]
    fn evidence_locates_the_first_value_of_each_spelling() {
        let mut e = Evidence::default();
        e.add(
            "/c/0/text".into(),
            &json!({"a/b": [1, {"path": "/x"}], "z": {"@call": "f", "args": {"v": {"path": "/y"}}}}),
        );
        assert_eq!(e.plain.as_deref(), Some("/c/0/text/a~1b/1"));
        assert_eq!(e.at.as_deref(), Some("/c/0/text/z"));
        assert_eq!(e.decide(None), Some(Spelling::At));
        assert_eq!(e.decide(Some(Spelling::Plain)), Some(Spelling::Plain));
        assert_eq!(e.other_than(Spelling::Plain), Some("/c/0/text/z"));
        let mut plain = Evidence::default();
        plain.add(String::new(), &json!({"path": "/x"}));
        assert_eq!(
            (plain.plain.as_deref(), plain.decide(None)),
            (Some(""), Some(Spelling::Plain))
        );
        let mut none = Evidence::default();
        none.add(String::new(), &json!({"@@path": "literal", "path": 3}));
        assert_eq!((none.decide(None), none.at, none.plain), (None, None, None));
    }

    #[test]
    fn plain_shapes_fit_exactly() {
        assert_eq!(shape(json!({"path": "/x"})), Some(PlainShape::Binding));
        assert_eq!(shape(json!({"path": 1})), None);
        assert_eq!(shape(json!({"componentId": "c", "path": "/x"})), None);
        assert_eq!(shape(json!({"call": "f"})), Some(PlainShape::Call));
        assert_eq!(
            shape(json!({"call": "f", "args": {}, "catalogId": "c", "returnType": "string"})),
            Some(PlainShape::Call)
        );
        assert_eq!(shape(json!({"call": "f", "args": []})), None);
        assert_eq!(
            shape(json!({"call": "f", "callableFrom": "clientOnly"})),
            None
        );
        assert_eq!(shape(json!({"args": {}})), None);
        assert_eq!(shape(json!({})), None);
    }

    #[test]
    fn each_spelling_reads_its_forms() {
        let form_of = |v: Value, s| match form(v.as_object().unwrap(), s) {
            None => "literal",
            Some(Form::Binding(k) | Form::Call(k)) => k,
            Some(Form::BindingAndCall) => "both",
        };
        assert_eq!(form_of(json!({"path": "/x"}), Spelling::At), "literal");
        assert_eq!(form_of(json!({"path": "/x"}), Spelling::Plain), "path");
        assert_eq!(form_of(json!({"call": "f"}), Spelling::Plain), "call");
        assert_eq!(form_of(json!({"@path": "/x"}), Spelling::Plain), "@path");
        assert_eq!(
            form_of(json!({"@call": "f", "x": 1}), Spelling::At),
            "@call"
        );
        assert_eq!(
            form_of(json!({"@call": "f", "@path": "/x"}), Spelling::Plain),
            "both"
        );
        assert!(looks_dynamic(json!({"call": "f"}).as_object().unwrap()));
        assert!(!is_dynamic(
            json!({"call": "f"}).as_object().unwrap(),
            Spelling::At
        ));
    }
}
