//! The payload compiler (engine.md §1–2): a JSON value to a [`Program`], collecting every
//! static problem with its location.
//!
//! The walk uses an explicit stack, so a payload of any depth is measured without recursion;
//! past the depth limit the subtree is not entered.

use super::program::{CallNode, Node, NodeId, Program};
use crate::catalog::{StaticArg, StaticArgs};
use crate::env::{Environment, Lookup};
use crate::error::{Error, ErrorCode, Phase};
use crate::path::{DataPath, escape_token};
use serde_json::{Map, Value};

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
    def: Option<crate::catalog::FunctionDef>,
    /// Declared slot of each argument, in document order (`None`: undeclared but accepted).
    slots: Vec<Option<usize>>,
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
}

struct Compiler<'e> {
    env: &'e Environment,
    nodes: Vec<Node>,
    errors: Vec<Error>,
}

pub(crate) fn compile(env: &Environment, payload: &Value) -> Result<Program, Error> {
    let mut c = Compiler {
        env,
        nodes: Vec::new(),
        errors: Vec::new(),
    };
    let root = c.run(payload);
    if let Some(err) = Error::from_many(std::mem::take(&mut c.errors)) {
        return Err(err);
    }
    let root = match root {
        Compiled::Const(v) => c.push(Node::Const(v)),
        Compiled::Node(id) => id,
        Compiled::Invalid => unreachable!("an invalid subtree always records an error"),
    };
    let calls_tools = c
        .nodes
        .iter()
        .any(|n| matches!(n, Node::Call(call) if call.tool));
    Ok(Program {
        nodes: c.nodes,
        root,
        calls_tools,
    })
}

fn child_location(parent: &str, token: &str) -> String {
    let mut s = String::with_capacity(parent.len() + 1 + token.len());
    s.push_str(parent);
    s.push('/');
    s.push_str(&escape_token(token));
    s
}

impl<'e> Compiler<'e> {
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

    fn run<'v>(&mut self, payload: &'v Value) -> Compiled {
        let mut tasks: Vec<Task<'v>> = vec![Task::Visit {
            value: payload,
            location: String::new(),
            depth: 0,
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
        if is_container && depth + 1 > self.env.limits().max_depth {
            self.problem(
                ErrorCode::LimitExceeded,
                &location,
                format!(
                    "the payload nests deeper than the limit of {} levels",
                    self.env.limits().max_depth
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
            Value::Object(map) if map.contains_key("@path") || map.contains_key("@call") => {
                if map.contains_key("@path") && map.contains_key("@call") {
                    self.problem(
                        ErrorCode::ValidationFailed,
                        &location,
                        "an object cannot be both a binding (@path) and a call (@call)".into(),
                    );
                    results.push(Compiled::Invalid);
                } else if map.contains_key("@path") {
                    let out = self.binding(map, &location);
                    results.push(out);
                } else {
                    self.call(map, location, depth, tasks);
                }
            }
            Value::Object(map) => {
                let mut keys = Vec::with_capacity(map.len());
                let mut children = Vec::with_capacity(map.len());
                for (key, child) in map {
                    let member = child_location(&location, key);
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

    fn binding(&mut self, map: &Map<String, Value>, location: &str) -> Compiled {
        if let Some(extra) = map.keys().find(|k| *k != "@path") {
            self.problem(
                ErrorCode::ValidationFailed,
                location,
                format!("a binding has only the key '@path', this one also has '{extra}' (write '@@path' for a literal key)"),
            );
            return Compiled::Invalid;
        }
        let Some(Value::String(path)) = map.get("@path") else {
            let kind = map.get("@path").map_or("nothing", crate::json::kind_name);
            self.problem(
                ErrorCode::ValidationFailed,
                location,
                format!("'@path' must be a string, got {kind}"),
            );
            return Compiled::Invalid;
        };
        match DataPath::parse(path) {
            Ok(p) => Compiled::Node(self.push(Node::Bind(p))),
            Err(e) => {
                self.errors
                    .push(e.with_location(location).with_phase(Phase::Compile));
                Compiled::Invalid
            }
        }
    }

    fn call<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        location: String,
        depth: usize,
        tasks: &mut Vec<Task<'v>>,
    ) {
        let mut ok = true;
        for key in map.keys() {
            if !matches!(key.as_str(), "@call" | "args" | "catalogId" | "returnType") {
                self.problem(
                    ErrorCode::ValidationFailed,
                    &location,
                    format!("a call takes the keys '@call', 'args', 'catalogId' and 'returnType', not '{key}'"),
                );
                ok = false;
            }
        }
        let name = match map.get("@call") {
            Some(Value::String(name)) => name.clone(),
            other => {
                let kind = other.map_or("nothing", crate::json::kind_name);
                self.problem(
                    ErrorCode::ValidationFailed,
                    &location,
                    format!("'@call' must be a string, got {kind}"),
                );
                ok = false;
                String::new()
            }
        };
        if let Some(rt) = map.get("returnType").filter(|v| !v.is_string()) {
            let kind = crate::json::kind_name(rt);
            self.problem(
                ErrorCode::ValidationFailed,
                &location,
                format!("'returnType' must be a string, got {kind}"),
            );
            ok = false;
        }
        let args = match map.get("args") {
            None => None,
            Some(Value::Object(args)) => Some(args),
            Some(other) => {
                let kind = crate::json::kind_name(other);
                self.problem(
                    ErrorCode::ValidationFailed,
                    &location,
                    format!("'args' must be an object, got {kind}"),
                );
                ok = false;
                None
            }
        };
        let catalog = match map.get("catalogId") {
            None => Some(self.env.default_catalog().to_owned()),
            Some(Value::String(id)) => Some(id.clone()),
            Some(other) => {
                let kind = crate::json::kind_name(other);
                self.problem(
                    ErrorCode::ValidationFailed,
                    &location,
                    format!("'catalogId' must be a string, got {kind}"),
                );
                ok = false;
                None
            }
        };
        let mut def = None;
        if let (Some(catalog), true) = (catalog, ok) {
            match self.env.lookup(&catalog, &name) {
                Lookup::NoCatalog => {
                    let err = Error::new(
                        ErrorCode::CatalogError,
                        format!("unknown catalog '{catalog}'"),
                    )
                    .with_function(name.clone())
                    .with_location(&location)
                    .with_phase(Phase::Compile);
                    self.errors.push(err);
                }
                Lookup::NoFunction => {
                    let err = Error::new(
                        ErrorCode::ExpressionError,
                        format!("unknown function '{name}' in catalog '{catalog}'"),
                    )
                    .with_function(name.clone())
                    .with_location(&location)
                    .with_phase(Phase::Compile);
                    self.errors.push(err);
                }
                Lookup::Found(found) => def = Some(found.clone()),
            }
        }
        // A catalog document's declaration: the call's returnType and literal arguments.
        if let Some(declared) = def.as_ref().and_then(|d| d.declaration.as_deref()) {
            let max_depth = self.env.limits().max_depth;
            for err in declared.check_call(map, &location, max_depth) {
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
                            let err = Error::new(
                                ErrorCode::ValidationFailed,
                                format!(
                                    "'{name}' has no argument '{key}' (its arguments are: {})",
                                    declared.join(", ")
                                ),
                            )
                            .with_function(name.clone())
                            .with_location(child_location(&child_location(&location, "args"), key))
                            .with_phase(Phase::Compile);
                            self.errors.push(err);
                        }
                        slots.push(None);
                    }
                }
            }
            for (slot, arg) in schema.names().enumerate() {
                if schema.is_required(slot) && !seen[slot] {
                    let err = Error::new(
                        ErrorCode::ValidationFailed,
                        format!("'{name}' requires the argument '{arg}'"),
                    )
                    .with_function(name.clone())
                    .with_location(&location)
                    .with_phase(Phase::Compile);
                    self.errors.push(err);
                }
            }
        } else {
            slots.extend(args.keys().map(|_| None));
        }
        let args_location = child_location(&location, "args");
        let children: Vec<_> = args.iter().collect();
        tasks.push(Task::FinishCall(Box::new(PendingCall {
            name,
            def,
            slots,
            location,
        })));
        for (key, value) in children.into_iter().rev() {
            tasks.push(Task::Visit {
                value,
                location: child_location(&args_location, key),
                depth: depth + 1,
            });
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
        let prepared = function.prepare(&StaticArgs {
            schema: &def.schema,
            args: static_args,
        });
        let prepared = match prepared {
            Ok(p) => p,
            Err(e) => {
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
            args: arg_nodes,
            prepared,
            location,
            tool: def.tool,
        };
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
