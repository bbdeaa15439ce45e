//! The payload compiler: a JSON value to a [`Program`], collecting every static problem with
//! its location (the payload grammar is stated on [`Payload`](crate::Payload)).
//!
//! The walk uses an explicit stack, so a payload of any depth is measured without recursion;
//! past the depth limit the subtree is not entered.

use super::program::{CallNode, Node, NodeId, Program};
use super::tool_names::ToolNames;
use crate::builtins::index;
use crate::catalog::{Catalog, FunctionDef, LiteralToolName, Reads, StaticArg, StaticArgs};
use crate::error::{Denial, Error, ErrorCode, MissingCatalog, Phase, Warning, WarningCode};
use crate::json::kind_name;
use crate::limits::Limits;
use crate::origin::Origin;
use crate::path::{DataPath, JsonPointer, escape_token};
use crate::syntax::{
    Form, Misfit, PlainShape, Spelling, binding_misfits, call_misfits, form, is_dynamic,
    plain_shape,
};
use serde_json::{Map, Value};
use std::collections::HashMap;

/// What a payload is compiled against: the catalogs by id, the catalog of calls without
/// `catalogId`, the limits, and how bindings and calls are spelled.
pub(crate) struct Scope<'a> {
    pub(crate) catalogs: &'a HashMap<String, Catalog>,
    /// The catalog of a call that names none; `None`: there is none here, and such a call is a
    /// `CATALOG_ERROR` ([`MissingCatalog::NoDefault`](crate::MissingCatalog::NoDefault)).
    pub(crate) default_catalog: Option<&'a str>,
    pub(crate) limits: &'a Limits,
    pub(crate) spelling: Spelling,
    /// Who evaluates the payload, when that is known now: a function whose `allowedCallers`
    /// refuses it is a compile error.
    pub(crate) caller: Option<Origin>,
    /// Literal arguments of the built-in functions are validated against their documents'
    /// schemas too ([`Environment::set_schema_checks`](crate::Environment::set_schema_checks)).
    pub(crate) schema_checks: bool,
}

enum Lookup<'a> {
    NoCatalog,
    NoFunction,
    Found(&'a FunctionDef),
}

impl Scope<'_> {
    fn lookup(&self, catalog: &str, function: &str) -> Lookup<'_> {
        match self.catalogs.get(catalog) {
            None => Lookup::NoCatalog,
            Some(c) => c
                .function(function)
                .map_or(Lookup::NoFunction, Lookup::Found),
        }
    }
}

/// What a visited subtree compiled to: a constant (so far) or a node.
enum Compiled {
    Const(Value),
    Node(NodeId),
    /// The subtree had a problem (already recorded); the parent will be dropped too.
    Invalid,
}

/// A call whose arguments are being compiled.
struct PendingCall {
    name: String,
    def: Option<FunctionDef>,
    /// Declared slot of each argument, in document order (`None`: undeclared but accepted).
    slots: Vec<Option<usize>>,
    /// The declared slots the function expanded ([`Function::expand`]).
    expanded: Vec<bool>,
    location: String,
}

enum Task<'v> {
    Visit {
        value: &'v Value,
        location: String,
        depth: usize,
    },
    FinishArray {
        len: usize,
    },
    FinishObject {
        keys: Vec<String>,
    },
    FinishCall(Box<PendingCall>),
    /// An argument a function expanded, compiled already.
    Compiled(Compiled),
}

/// What one walk of the compiler saw of a payload besides its program, for a caller that judges
/// the payload's place (the surfaces processor): how deep it nests, whether it is a literal
/// that compiles to itself, and every call with the catalog it names. Recorded only when asked
/// ([`compile_walked`]); a plain compile pays nothing for it: the compiler is generic over what
/// it records ([`Record`]), and a plain compile records into `()`, whose methods do nothing and
/// are compiled away (a WebAssembly module that never asks for a walk carries none of it).
#[derive(Debug, Default)]
pub(crate) struct Walk {
    /// The deepest level a value of the payload is at (the payload itself is level 1); a
    /// subtree past the depth limit is not entered, so this is at most the limit plus one.
    /// Expansions are not the payload and are not measured.
    pub(crate) deepest: usize,
    /// Whether the payload is not a literal that compiles to itself: it has a binding, a call,
    /// a reserved key (an `@@` escape compiles to another key), or a member `path` or `call`
    /// (a plain-shaped literal, read as one by the spelling). A payload that is none of these
    /// need not be kept.
    pub(crate) rewritten: bool,
    /// Every call the payload writes (not the calls of expansions), in document order.
    pub(crate) calls: Vec<CallSite>,
}

/// A call a [`Walk`] saw.
#[derive(Debug)]
pub(crate) struct CallSite {
    /// A JSON Pointer to the call inside the payload.
    pub(crate) location: String,
    /// The function's name (`""` when the name is not a string).
    pub(crate) name: String,
    /// The `catalogId` it names.
    pub(crate) catalog: SiteCatalog,
}

/// The `catalogId` of a [`CallSite`].
#[derive(Debug)]
pub(crate) enum SiteCatalog {
    /// None: the default catalog of where it is compiled.
    Default,
    /// This id.
    Named(String),
    /// A value that is not a string, of this kind (`number`, …).
    NotAString(&'static str),
}

/// What the compiler tells a recorder as it walks a payload (expansions are not told).
trait Record {
    /// A value of the payload at this level (the payload itself is level 1).
    fn level(&mut self, level: usize);
    /// The payload does not compile to itself.
    fn rewritten(&mut self);
    /// A call whose name is a string, at `location`, naming `catalog_id` (or none).
    fn call(&mut self, location: &str, name: &str, catalog_id: Option<&Value>);
}

/// A plain compile: nothing is recorded.
impl Record for () {
    fn level(&mut self, _: usize) {}
    fn rewritten(&mut self) {}
    fn call(&mut self, _: &str, _: &str, _: Option<&Value>) {}
}

impl Record for Walk {
    fn level(&mut self, level: usize) {
        self.deepest = self.deepest.max(level);
    }
    fn rewritten(&mut self) {
        self.rewritten = true;
    }
    fn call(&mut self, location: &str, name: &str, catalog_id: Option<&Value>) {
        self.calls.push(CallSite {
            location: location.to_owned(),
            name: name.to_owned(),
            catalog: match catalog_id {
                None => SiteCatalog::Default,
                Some(Value::String(id)) => SiteCatalog::Named(id.clone()),
                Some(other) => SiteCatalog::NotAString(kind_name(other)),
            },
        });
    }
}

struct Compiler<'e, R> {
    scope: &'e Scope<'e>,
    /// What the walk records ([`Record`]).
    walk: R,
    nodes: Vec<Node>,
    errors: Vec<Error>,
    warnings: Vec<Warning>,
    calls_tools: bool,
    tool_names: ToolNames,
    /// Whether an expansion is being compiled (expansions are not expanded again).
    expanding: bool,
}

/// Compiles a payload; the warnings come whether it compiles or not.
pub(crate) fn compile(
    scope: &Scope<'_>,
    payload: &Value,
) -> (Result<Program, Error>, Vec<Warning>) {
    let (program, warnings, ()) = run_compiler(scope, payload, ());
    (program, warnings)
}

/// Compiles a payload as [`compile`] does, and says what the walk saw ([`Walk`]).
pub(crate) fn compile_walked(
    scope: &Scope<'_>,
    payload: &Value,
) -> (Result<Program, Error>, Vec<Warning>, Walk) {
    run_compiler(scope, payload, Walk::default())
}

fn run_compiler<R: Record + Default>(
    scope: &Scope<'_>,
    payload: &Value,
    walk: R,
) -> (Result<Program, Error>, Vec<Warning>, R) {
    let mut c = Compiler {
        scope,
        walk,
        nodes: Vec::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        calls_tools: false,
        tool_names: ToolNames::default(),
        expanding: false,
    };
    let root = c.run(payload, String::new(), 0);
    if !matches!(root, Compiled::Const(_)) {
        c.walk.rewritten();
    }
    let warnings = std::mem::take(&mut c.warnings);
    let walk = std::mem::take(&mut c.walk);
    (c.finish(root), warnings, walk)
}

impl<R: Record> Compiler<'_, R> {
    fn finish(mut self, root: Compiled) -> Result<Program, Error> {
        if let Some(err) = Error::from_many(std::mem::take(&mut self.errors)) {
            return Err(err);
        }
        let root = match root {
            Compiled::Const(v) => self.push(Node::Const(v)),
            Compiled::Node(id) => id,
            Compiled::Invalid => unreachable!("an invalid subtree always records an error"),
        };
        Ok(Program {
            nodes: self.nodes,
            root,
            calls_tools: self.calls_tools,
            tool_names: self.tool_names,
        })
    }
}

fn child_location(parent: &str, token: &str) -> String {
    let mut s = String::with_capacity(parent.len() + 1 + token.len());
    s.push_str(parent);
    s.push('/');
    s.push_str(&escape_token(token));
    s
}

impl<'e, R: Record> Compiler<'e, R> {
    fn push(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        // A payload has fewer nodes than JSON values fit in memory; u32 is plenty in practice,
        // and a larger one is refused by the depth/size it would need long before.
        NodeId::try_from(self.nodes.len() - 1).unwrap_or(NodeId::MAX)
    }

    fn problem(&mut self, code: ErrorCode, location: &str, message: String) {
        self.errors.push(
            Error::new(code, message)
                .with_location(location)
                .with_phase(Phase::Compile),
        );
    }

    /// A problem of the call to `function` at `location`.
    fn call_problem(&mut self, code: ErrorCode, function: &str, location: &str, message: String) {
        let err = Error::new(code, message).with_function(function);
        self.errors
            .push(err.with_location(location).with_phase(Phase::Compile));
    }

    fn run<'v>(&mut self, payload: &'v Value, location: String, depth: usize) -> Compiled {
        let mut tasks: Vec<Task<'v>> = vec![Task::Visit {
            value: payload,
            location,
            depth,
        }];
        let mut results: Vec<Compiled> = Vec::new();
        while let Some(task) = tasks.pop() {
            match task {
                Task::Visit {
                    value,
                    location,
                    depth,
                } => self.visit(value, location, depth, &mut tasks, &mut results),
                Task::FinishArray { len } => {
                    let items = results.split_off(results.len() - len);
                    let out = self.finish_array(items);
                    results.push(out);
                }
                Task::FinishObject { keys } => {
                    let values = results.split_off(results.len() - keys.len());
                    let out = self.finish_object(keys, values);
                    results.push(out);
                }
                Task::FinishCall(call) => {
                    let args = results.split_off(results.len() - call.slots.len());
                    let out = self.finish_call(*call, args);
                    results.push(out);
                }
                Task::Compiled(compiled) => results.push(compiled),
            }
        }
        results.pop().unwrap_or(Compiled::Invalid)
    }

    fn visit<'v>(
        &mut self,
        value: &'v Value,
        location: String,
        depth: usize,
        tasks: &mut Vec<Task<'v>>,
        results: &mut Vec<Compiled>,
    ) {
        let is_container = matches!(value, Value::Array(_) | Value::Object(_));
        if !self.expanding {
            self.walk.level(depth + 1);
        }
        if is_container && depth + 1 > self.scope.limits.max_depth {
            self.problem(
                ErrorCode::LimitExceeded,
                &location,
                format!(
                    "the payload nests deeper than the limit of {} levels",
                    self.scope.limits.max_depth
                ),
            );
            results.push(Compiled::Invalid);
            return;
        }
        match value {
            Value::Array(items) => {
                tasks.push(Task::FinishArray { len: items.len() });
                for (i, item) in items.iter().enumerate().rev() {
                    tasks.push(Task::Visit {
                        value: item,
                        location: child_location(&location, &i.to_string()),
                        depth: depth + 1,
                    });
                }
            }
            Value::Object(map) if is_dynamic(map, self.scope.spelling) => {
                match form(map, self.scope.spelling) {
                    Some(Form::Binding(key)) => {
                        let out = self.binding(map, key, &location);
                        results.push(out);
                    }
                    Some(Form::Call(key)) => self.call(map, key, location, depth, tasks),
                    Some(Form::BindingAndCall) | None => {
                        self.problem(
                            ErrorCode::ValidationFailed,
                            &location,
                            "an object cannot be both a binding (@path) and a call (@call)".into(),
                        );
                        results.push(Compiled::Invalid);
                    }
                }
            }
            Value::Object(map) => {
                if let Some(shape) = plain_shape(map) {
                    self.other_spelling(map, shape, &location);
                }
                // A literal with a `path` or `call` member was read as a literal by this
                // spelling: it is kept compiled, so that the reading is on record.
                if map.contains_key("path") || map.contains_key("call") {
                    self.walk.rewritten();
                }
                let mut keys = Vec::with_capacity(map.len());
                let mut children = Vec::with_capacity(map.len());
                for (key, child) in map {
                    let member = child_location(&location, key);
                    if key.starts_with('@') {
                        self.walk.rewritten();
                    }
                    if let Some(escaped) = key.strip_prefix("@@") {
                        keys.push(format!("@{escaped}"));
                    } else if let Some(rest) = key.strip_prefix('@') {
                        self.problem(
                            ErrorCode::InvalidReservedKey,
                            &member,
                            format!("the key '{key}' starts with a reserved '@'; write '@@{rest}' for a literal key '{key}'"),
                        );
                        keys.push(key.clone());
                    } else {
                        keys.push(key.clone());
                    }
                    children.push((child, member));
                }
                tasks.push(Task::FinishObject { keys });
                for (child, member) in children.into_iter().rev() {
                    tasks.push(Task::Visit {
                        value: child,
                        location: member,
                        depth: depth + 1,
                    });
                }
            }
            scalar => results.push(Compiled::Const(scalar.clone())),
        }
    }

    /// A literal object shaped like a binding or call of the plain spelling, which the `@`
    /// spelling reads as the object itself: a warning saying what to write.
    fn other_spelling(&mut self, map: &Map<String, Value>, shape: PlainShape, location: &str) {
        let quoted = |key: &str| map.get(key).map(Value::to_string).unwrap_or_default();
        let (written, suggestion, what) = match shape {
            PlainShape::Binding => {
                let path = quoted("path");
                (
                    format!("{{\"path\": {path}}}"),
                    format!("{{\"@path\": {path}}}"),
                    "read the data model",
                )
            }
            PlainShape::Call => {
                let name = quoted("call");
                let more = if map.len() > 1 { ", …" } else { "" };
                (
                    format!("{{\"call\": {name}{more}}}"),
                    format!("{{\"@call\": {name}{more}}}"),
                    "call the function",
                )
            }
        };
        let message = format!(
            "{written} is a literal object in the '@' spelling: write {suggestion} to {what} (or compile with the plain spelling)"
        );
        self.warnings.push(
            Warning::new(WarningCode::OtherSpelling, message)
                .with_location(location)
                .with_suggestion(suggestion),
        );
    }

    /// A binding whose path is the member `key` (`@path`, or `path` in the plain spelling).
    fn binding(&mut self, map: &Map<String, Value>, key: &str, location: &str) -> Compiled {
        // A plain binding is only recognised when it fits exactly.
        let misfits = if key == "@path" {
            binding_misfits(map)
        } else {
            Vec::new()
        };
        // One problem per binding: the first extra key, else the path's type.
        let first = misfits
            .iter()
            .find(|m| matches!(m, Misfit::Unknown(_)))
            .or(misfits.first());
        if let Some(misfit) = first {
            let message = match misfit {
                Misfit::Unknown(extra) => format!(
                    "a binding has only the key '@path', this one also has '{extra}' (write '@@path' for a literal key)"
                ),
                Misfit::WrongType { key, wanted, got } => {
                    format!("'{key}' must be {wanted}, got {}", kind_name(got))
                }
            };
            self.problem(ErrorCode::ValidationFailed, location, message);
            return Compiled::Invalid;
        }
        // Without misfits, the path is there and a string.
        let path = map.get(key).and_then(Value::as_str).unwrap_or_default();
        match DataPath::parse_limited(path, self.scope.limits.max_depth) {
            Ok(p) => Compiled::Node(self.push(Node::Bind(p))),
            Err(e) => {
                self.errors
                    .push(e.with_location(location).with_phase(Phase::Compile));
                Compiled::Invalid
            }
        }
    }

    /// A call whose function is named by the member `key` (`@call`, or `call` in the plain
    /// spelling).
    fn call<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        key: &str,
        location: String,
        depth: usize,
        tasks: &mut Vec<Task<'v>>,
    ) {
        // A plain call is only recognised when it fits exactly.
        let misfits = if key == "@call" {
            call_misfits(map)
        } else {
            Vec::new()
        };
        let ok = misfits.is_empty();
        for misfit in misfits {
            let message = match misfit {
                Misfit::Unknown(key) => format!(
                    "a call takes the keys '@call', 'args', 'catalogId' and 'returnType', not '{key}'"
                ),
                Misfit::WrongType { key, wanted, got } => {
                    format!("'{key}' must be {wanted}, got {}", kind_name(got))
                }
            };
            self.problem(ErrorCode::ValidationFailed, &location, message);
        }
        let name = map
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let args = map.get("args").and_then(Value::as_object);
        // A call whose name is not a string is a misfit of its own, and calls nothing.
        if !self.expanding && map.get(key).is_some_and(Value::is_string) {
            self.walk.call(&location, &name, map.get("catalogId"));
        }
        let catalog = match map.get("catalogId") {
            None => match self.scope.default_catalog {
                Some(default) => Some(default.to_owned()),
                None => {
                    if ok && name != index::NAME {
                        let err = Error::new(
                            ErrorCode::CatalogError,
                            "the call names no catalogId, and there is no default catalog here",
                        )
                        .with_missing_catalog(MissingCatalog::NoDefault)
                        .with_function(name.clone());
                        self.errors
                            .push(err.with_location(&location).with_phase(Phase::Compile));
                    }
                    None
                }
            },
            Some(id) => id.as_str().map(str::to_owned),
        };
        let mut def = None;
        if name == index::NAME {
            // A system function: the compiler resolves it, no catalog holds it.
            if ok {
                self.index_call(map, args, &location);
                def = Some(index::definition());
            }
        } else if let (Some(catalog), true) = (catalog, ok) {
            match self.scope.lookup(&catalog, &name) {
                Lookup::NoCatalog => {
                    let err = Error::new(
                        ErrorCode::CatalogError,
                        format!("unknown catalog '{catalog}'"),
                    )
                    .with_function(name.clone())
                    .with_missing_catalog(MissingCatalog::NotRegistered(catalog.clone()));
                    self.errors
                        .push(err.with_location(&location).with_phase(Phase::Compile));
                }
                Lookup::NoFunction => self.call_problem(
                    ErrorCode::ExpressionError,
                    &name,
                    &location,
                    format!("unknown function '{name}' in catalog '{catalog}'"),
                ),
                Lookup::Found(found) => {
                    // Only who may call: user activation depends on the gesture, known
                    // when the value runs.
                    if let Some(caller) = self.scope.caller
                        && let Some((denial @ Denial::AllowedCallers, why)) =
                            found.access.refusal(caller)
                    {
                        let err = Error::new(
                            ErrorCode::ExpressionError,
                            format!("function '{name}' may not be called here: {why}"),
                        )
                        .with_denial(denial)
                        .with_function(name.clone());
                        self.errors
                            .push(err.with_location(&location).with_phase(Phase::Compile));
                    }
                    def = Some(found.clone());
                }
            }
        }
        // A catalog document's declaration: the call's returnType and literal arguments.
        if let Some(declared) = def.as_ref().and_then(|d| d.declaration.as_deref()) {
            let max_depth = self.scope.limits.max_depth;
            for err in declared.check_call(map, &location, max_depth, self.scope.schema_checks) {
                self.errors.push(err.with_phase(Phase::Compile));
            }
        }
        // Arguments are compiled even when the call itself is invalid, so that their own
        // problems are reported too.
        static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
        let args: &'v Map<String, Value> = args.unwrap_or(&EMPTY);
        let mut slots = Vec::with_capacity(args.len());
        if let Some(found) = &def {
            let schema = &found.schema;
            let mut seen = vec![false; schema.len()];
            for key in args.keys() {
                match schema.slot(key) {
                    Some(slot) => {
                        seen[slot] = true;
                        slots.push(Some(slot));
                    }
                    None => {
                        if !schema.accepts_additional() {
                            let declared: Vec<&str> = schema.names().collect();
                            let at = child_location(&child_location(&location, "args"), key);
                            let message = format!(
                                "'{name}' has no argument '{key}' (its arguments are: {})",
                                declared.join(", ")
                            );
                            self.call_problem(ErrorCode::ValidationFailed, &name, &at, message);
                        }
                        slots.push(None);
                    }
                }
            }
            for (slot, arg) in schema.names().enumerate() {
                if schema.is_required(slot) && !seen[slot] {
                    let message = format!("'{name}' requires the argument '{arg}'");
                    self.call_problem(ErrorCode::ValidationFailed, &name, &location, message);
                }
            }
        } else {
            slots.extend(args.keys().map(|_| None));
        }
        let args_location = child_location(&location, "args");
        let mut expanded = vec![false; def.as_ref().map_or(0, |d| d.schema.len())];
        let mut children: Vec<Task<'v>> = Vec::with_capacity(args.len());
        for ((key, value), slot) in args.iter().zip(&slots) {
            let at = child_location(&args_location, key);
            match self.expansion(def.as_ref(), &name, key, value) {
                Ok(Some(expansion)) => {
                    if let Some(slot) = slot {
                        expanded[*slot] = true;
                    }
                    // One level: the expansion is compiled now, with expansion turned off, so
                    // that nothing it contains is expanded again.
                    self.expanding = true;
                    let compiled = self.run(&expansion, at, depth + 1);
                    self.expanding = false;
                    children.push(Task::Compiled(compiled));
                }
                Ok(None) => children.push(Task::Visit {
                    value,
                    location: at,
                    depth: depth + 1,
                }),
                Err(err) => {
                    self.errors
                        .push(err.at_call(&name, &at).with_phase(Phase::Compile));
                    children.push(Task::Compiled(Compiled::Invalid));
                }
            }
        }
        tasks.push(Task::FinishCall(Box::new(PendingCall {
            name,
            def,
            slots,
            expanded,
            location,
        })));
        tasks.extend(children.into_iter().rev());
    }

    /// What the called function expands a literal argument into ([`Function::expand`]), if
    /// anything.
    fn expansion(
        &self,
        def: Option<&FunctionDef>,
        name: &str,
        arg: &str,
        value: &Value,
    ) -> Result<Option<Value>, Error> {
        let Some(def) = def else { return Ok(None) };
        if self.expanding || def.imp.is_none() {
            return Ok(None);
        }
        if let Value::Object(map) = value
            && is_dynamic(map, self.scope.spelling)
        {
            return Ok(None);
        }
        let function = crate::catalog::implementation(def, name);
        function.expand(arg, value, self.scope.limits)
    }

    /// The checks of `@index` that no argument schema states: no `catalogId`, a `returnType`
    /// (when given) of `number`, and a literal `offset` that is a number.
    fn index_call(
        &mut self,
        map: &Map<String, Value>,
        args: Option<&Map<String, Value>>,
        location: &str,
    ) {
        let mut problem = |err: Error, at: String| {
            self.errors.push(
                err.with_function(index::NAME)
                    .with_location(at)
                    .with_phase(Phase::Compile),
            );
        };
        if map.contains_key("catalogId") {
            let err = Error::new(
                ErrorCode::ValidationFailed,
                "@index is a system function: it belongs to no catalog and takes no 'catalogId'",
            );
            problem(err, child_location(location, "catalogId"));
        }
        if let Some(Value::String(rt)) = map.get("returnType")
            && rt != index::RETURN_TYPE
        {
            let err = Error::new(
                ErrorCode::ValidationFailed,
                format!("@index returns a number, not '{rt}' (returnType)"),
            );
            problem(err, child_location(location, "returnType"));
        }
        // A binding or a call has its value only at evaluation, where the same check runs.
        if let Some(offset) = args.and_then(|a| a.get("offset"))
            && !offset.is_number()
            && !matches!(offset, Value::Object(m) if is_dynamic(m, self.scope.spelling))
        {
            let at = child_location(&child_location(location, "args"), "offset");
            problem(index::offset_not_a_number(offset), at);
        }
    }

    fn finish_array(&mut self, items: Vec<Compiled>) -> Compiled {
        if items.iter().any(|c| matches!(c, Compiled::Invalid)) {
            return Compiled::Invalid;
        }
        if items.iter().all(|c| matches!(c, Compiled::Const(_))) {
            return Compiled::Const(Value::Array(items.into_iter().map(into_const).collect()));
        }
        let ids = items.into_iter().map(|c| self.node_of(c)).collect();
        Compiled::Node(self.push(Node::Array(ids)))
    }

    fn finish_object(&mut self, keys: Vec<String>, values: Vec<Compiled>) -> Compiled {
        if values.iter().any(|c| matches!(c, Compiled::Invalid)) {
            return Compiled::Invalid;
        }
        if values.iter().all(|c| matches!(c, Compiled::Const(_))) {
            let map: Map<String, Value> = keys
                .into_iter()
                .zip(values.into_iter().map(into_const))
                .collect();
            return Compiled::Const(Value::Object(map));
        }
        let members = keys
            .into_iter()
            .zip(values)
            .map(|(k, c)| (k, self.node_of(c)))
            .collect();
        Compiled::Node(self.push(Node::Object(members)))
    }

    fn finish_call(&mut self, call: PendingCall, args: Vec<Compiled>) -> Compiled {
        let PendingCall {
            name,
            def,
            slots,
            expanded,
            location,
        } = call;
        let Some(def) = def else {
            return Compiled::Invalid;
        };
        if args.iter().any(|c| matches!(c, Compiled::Invalid)) {
            return Compiled::Invalid;
        }
        let mut static_args = vec![StaticArg::Absent; def.schema.len()];
        for (slot, arg) in slots.iter().zip(&args) {
            if let Some(slot) = slot {
                static_args[*slot] = match arg {
                    Compiled::Const(v) => StaticArg::Literal(v),
                    _ => StaticArg::Dynamic,
                };
            }
        }
        // A declared function the host has not implemented fails when it runs, not now.
        let function = crate::catalog::implementation(&def, &name);
        let static_args = StaticArgs {
            schema: &def.schema,
            args: static_args,
            limits: self.scope.limits,
            expanded,
        };
        let may_write = function.may_write(&static_args);
        let reads = match function.reads(&static_args) {
            Reads::Everything => vec![DataPath::Absolute(JsonPointer::root())],
            Reads::Paths(paths) => {
                let mut parsed = Vec::with_capacity(paths.len());
                for path in paths {
                    match DataPath::parse(&path) {
                        Ok(p) => parsed.push(p),
                        Err(e) => {
                            let message = format!(
                                "'{name}' declares that it reads '{path}', which is not a path: {}",
                                e.message()
                            );
                            self.call_problem(e.code(), &name, &location, message);
                            return Compiled::Invalid;
                        }
                    }
                }
                parsed
            }
        };
        let prepared = function.prepare(&static_args);
        let prepared = match prepared {
            Ok(p) => p,
            Err(e) => {
                // A location relative to the call (`args/decimals`) goes under it.
                let e = if e.location().is_empty() || e.location().starts_with('/') {
                    e
                } else {
                    let at = format!("{location}/{}", e.location());
                    e.with_location(at)
                };
                self.errors
                    .push(e.at_call(&name, &location).with_phase(Phase::Compile));
                return Compiled::Invalid;
            }
        };
        let arg_nodes = slots
            .into_iter()
            .zip(args)
            .map(|(slot, c)| (slot, self.node_of(c)))
            .collect();
        let node = CallNode {
            name,
            function,
            schema: def.schema,
            access: def.access,
            args: arg_nodes,
            prepared,
            location,
            may_write,
            reads,
        };
        self.calls_tools |= def.tool;
        if def.tool {
            // The tool function reports a literal name when it prepares the call site.
            let literal = node
                .prepared
                .as_ref()
                .and_then(|p| p.downcast_ref::<LiteralToolName>());
            self.tool_names
                .add(literal.map(|name| name.0.as_str()), &node.location);
        }
        Compiled::Node(self.push(Node::Call(Box::new(node))))
    }

    fn node_of(&mut self, c: Compiled) -> NodeId {
        match c {
            Compiled::Const(v) => self.push(Node::Const(v)),
            Compiled::Node(id) => id,
            Compiled::Invalid => {
                unreachable!("invalid subtrees are dropped before nodes are built")
            }
        }
    }
}

fn into_const(c: Compiled) -> Value {
    match c {
        Compiled::Const(v) => v,
        _ => unreachable!("checked by the caller"),
    }
}
