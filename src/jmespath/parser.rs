//! Top-down operator-precedence parser: tokens to an [`Ast`], with the function names, arities,
//! length and nesting checked on the way.

use super::ast::{Ast, Cmp, Node, NodeId};
use super::error::{JmespathError, JmespathErrorKind};
use super::func::Func;
use super::lexer::{Tok, Token, tokenize};
use super::limits::{JmespathLimits, MAX_DEPTH_CEILING};

/// Binding power below which a token ends a projection's right-hand side.
const PROJECTION_STOP: u8 = 10;

/// Left binding power of each token (the JMESPath grammar's precedence table).
fn lbp(tok: &Tok) -> u8 {
    match tok {
        Tok::Pipe => 1,
        Tok::Or => 2,
        Tok::And => 3,
        Tok::Eq | Tok::Ne | Tok::Lt | Tok::Le | Tok::Gt | Tok::Ge => 5,
        Tok::Flatten => 9,
        Tok::Star => 20,
        Tok::Filter => 21,
        Tok::Dot => 40,
        Tok::Not => 45,
        Tok::LBrace => 50,
        Tok::LBracket => 55,
        Tok::LParen => 60,
        _ => 0,
    }
}

/// Parses `text` under `limits`.
pub(crate) fn parse(text: &str, limits: &JmespathLimits) -> Result<Ast, JmespathError> {
    if text.len() > limits.max_length {
        return Err(JmespathError::limit(format!(
            "expression is {} bytes long, over the limit of {}",
            text.len(),
            limits.max_length
        )));
    }
    let tokens = tokenize(text)?;
    let mut parser = Parser {
        tokens,
        pos: 0,
        nodes: Vec::new(),
        depths: Vec::new(),
        level: 0,
        max_depth: limits.max_depth.min(MAX_DEPTH_CEILING),
        arg_start: usize::MAX,
    };
    let root = parser.expression(0)?;
    if parser.current() != &Tok::Eof {
        return Err(parser.unexpected("end of expression"));
    }
    Ok(Ast {
        nodes: parser.nodes,
        root,
    })
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    nodes: Vec<Node>,
    /// Depth of the subtree under each node, to enforce the nesting limit as the tree grows.
    depths: Vec<usize>,
    /// Current recursion depth of the parser itself (parentheses nest without adding nodes).
    level: usize,
    max_depth: usize,
    /// Token index where the function argument being parsed starts: the only place `&` may be.
    arg_start: usize,
}

impl Parser {
    fn current(&self) -> &Tok {
        &self.tokens[self.pos].tok
    }

    fn offset(&self) -> usize {
        self.tokens[self.pos].offset
    }

    fn peek(&self, n: usize) -> &Tok {
        let last = self.tokens.len() - 1;
        &self.tokens[(self.pos + n).min(last)].tok
    }

    /// Consumes the current token. Tokens that own data are moved out (each is consumed once)
    /// and leave [`Tok::Taken`] behind.
    fn advance(&mut self) -> Token {
        let slot = &mut self.tokens[self.pos];
        let tok = match slot.tok {
            Tok::Ident(_) | Tok::Quoted(_) | Tok::Literal(_) => {
                std::mem::replace(&mut slot.tok, Tok::Taken)
            }
            _ => slot.tok.clone(),
        };
        let token = Token {
            tok,
            offset: slot.offset,
        };
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        token
    }

    fn unexpected(&self, expected: &str) -> JmespathError {
        JmespathError::syntax(
            self.offset(),
            format!("expected {expected}, found {}", self.current().describe()),
        )
    }

    fn expect(&mut self, tok: Tok, expected: &str) -> Result<(), JmespathError> {
        if *self.current() == tok {
            self.advance();
            Ok(())
        } else {
            Err(self.unexpected(expected))
        }
    }

    fn too_deep(&self) -> JmespathError {
        JmespathError::limit(format!(
            "expression nests deeper than the limit of {} levels",
            self.max_depth
        ))
        .at(self.offset())
    }

    /// Adds a node, or the node specialised for its shape, failing if it makes the tree deeper
    /// than the limit.
    fn push(&mut self, node: Node) -> Result<NodeId, JmespathError> {
        let mut child_depth = 0;
        let mut see = |id: NodeId| child_depth = child_depth.max(self.depths[id as usize]);
        match &node {
            Node::Identity
            | Node::Field(_)
            | Node::Index(_)
            | Node::Slice { .. }
            | Node::Literal(_) => {}
            Node::Sub(a, b)
            | Node::Pipe(a, b)
            | Node::Projection(a, b)
            | Node::ValueProjection(a, b)
            | Node::Or(a, b)
            | Node::And(a, b)
            | Node::Compare(_, a, b) => {
                see(*a);
                see(*b);
            }
            Node::Filter { lhs, cond, rhs } => {
                see(*lhs);
                see(*cond);
                see(*rhs);
            }
            Node::Records(records) => {
                see(records.lhs);
                records.cond.into_iter().for_each(&mut see);
                see(records.rhs);
            }
            Node::Flatten(a) | Node::Not(a) | Node::ExpRef(a) => see(*a),
            Node::List(items) | Node::Call(_, items) => items.iter().for_each(|&a| see(a)),
            Node::Hash { pairs, .. } => pairs.iter().for_each(|&(_, a)| see(a)),
        }
        let depth = child_depth + 1;
        if depth > self.max_depth {
            return Err(self.too_deep());
        }
        let id = NodeId::try_from(self.nodes.len()).map_err(|_| self.too_deep())?;
        let node = node.specialised(&self.nodes);
        self.nodes.push(node);
        self.depths.push(depth);
        Ok(id)
    }

    fn expression(&mut self, rbp: u8) -> Result<NodeId, JmespathError> {
        self.level += 1;
        if self.level > self.max_depth {
            return Err(self.too_deep());
        }
        let mut left = self.nud()?;
        while rbp < lbp(self.current()) {
            left = self.led(left)?;
        }
        self.level -= 1;
        Ok(left)
    }

    fn nud(&mut self) -> Result<NodeId, JmespathError> {
        let start = self.pos;
        let token = self.advance();
        match token.tok {
            Tok::Literal(value) => self.push(Node::Literal(value)),
            Tok::Ident(name) => self.push(Node::Field(name.into())),
            Tok::Quoted(name) => {
                if *self.current() == Tok::LParen {
                    return Err(JmespathError::syntax(
                        token.offset,
                        "a quoted identifier cannot name a function",
                    ));
                }
                self.push(Node::Field(name.into()))
            }
            Tok::Star => {
                let left = self.push(Node::Identity)?;
                let right = self.projection_rhs(lbp(&Tok::Star))?;
                self.push(Node::ValueProjection(left, right))
            }
            Tok::Filter => {
                let left = self.push(Node::Identity)?;
                self.filter(left)
            }
            Tok::LBrace => self.hash(),
            Tok::LParen => {
                let inner = self.expression(0)?;
                self.expect(Tok::RParen, "')'")?;
                Ok(inner)
            }
            Tok::Flatten => {
                let left = self.push(Node::Identity)?;
                self.flatten(left)
            }
            Tok::Not => {
                let operand = self.expression(lbp(&Tok::Not))?;
                self.push(Node::Not(operand))
            }
            Tok::LBracket => match self.current() {
                Tok::Number(_) | Tok::Colon => {
                    let left = self.push(Node::Identity)?;
                    self.index(left)
                }
                Tok::Star if *self.peek(1) == Tok::RBracket => {
                    self.advance();
                    self.advance();
                    let left = self.push(Node::Identity)?;
                    let right = self.projection_rhs(lbp(&Tok::Star))?;
                    self.push(Node::Projection(left, right))
                }
                _ => self.list(),
            },
            Tok::At => self.push(Node::Identity),
            Tok::Ampersand => {
                if start != self.arg_start {
                    return Err(JmespathError::syntax(
                        token.offset,
                        "'&' is only allowed at the start of a function argument",
                    ));
                }
                let inner = self.expression(0)?;
                self.push(Node::ExpRef(inner))
            }
            other => Err(JmespathError::syntax(
                token.offset,
                format!("expected an expression, found {}", other.describe()),
            )),
        }
    }

    fn led(&mut self, left: NodeId) -> Result<NodeId, JmespathError> {
        let token = self.advance();
        match token.tok {
            Tok::Dot => {
                if *self.current() == Tok::Star {
                    self.advance();
                    // The JavaScript and Python libraries parse this right-hand side at the
                    // binding power of '.', which ends the projection at the next '.'
                    // (`foo.*.bar.baz` is null; jmespath.py issue #182). The specification
                    // projects the rest, as `*.bar.baz` and `foo[*].bar.baz` do: so do we.
                    let right = self.projection_rhs(lbp(&Tok::Star))?;
                    self.push(Node::ValueProjection(left, right))
                } else {
                    let right = self.dot_rhs(lbp(&Tok::Dot))?;
                    self.push(Node::Sub(left, right))
                }
            }
            Tok::Pipe => {
                let right = self.expression(lbp(&Tok::Pipe))?;
                self.push(Node::Pipe(left, right))
            }
            Tok::Or => {
                let right = self.expression(lbp(&Tok::Or))?;
                self.push(Node::Or(left, right))
            }
            Tok::And => {
                let right = self.expression(lbp(&Tok::And))?;
                self.push(Node::And(left, right))
            }
            Tok::LParen => self.call(left, token.offset),
            Tok::Filter => self.filter(left),
            Tok::Flatten => self.flatten(left),
            Tok::LBracket => match self.current() {
                Tok::Number(_) | Tok::Colon => self.index(left),
                _ => {
                    self.expect(Tok::Star, "a number, ':' or '*'")?;
                    self.expect(Tok::RBracket, "']'")?;
                    let right = self.projection_rhs(lbp(&Tok::Star))?;
                    self.push(Node::Projection(left, right))
                }
            },
            Tok::Eq => self.compare(Cmp::Eq, left),
            Tok::Ne => self.compare(Cmp::Ne, left),
            Tok::Lt => self.compare(Cmp::Lt, left),
            Tok::Le => self.compare(Cmp::Le, left),
            Tok::Gt => self.compare(Cmp::Gt, left),
            Tok::Ge => self.compare(Cmp::Ge, left),
            other => Err(JmespathError::syntax(
                token.offset,
                format!("expected an operator, found {}", other.describe()),
            )),
        }
    }

    fn compare(&mut self, op: Cmp, left: NodeId) -> Result<NodeId, JmespathError> {
        let right = self.expression(5)?;
        self.push(Node::Compare(op, left, right))
    }

    fn filter(&mut self, left: NodeId) -> Result<NodeId, JmespathError> {
        let cond = self.expression(0)?;
        self.expect(Tok::RBracket, "']'")?;
        let rhs = self.projection_rhs(lbp(&Tok::Filter))?;
        self.push(Node::Filter {
            lhs: left,
            cond,
            rhs,
        })
    }

    fn flatten(&mut self, left: NodeId) -> Result<NodeId, JmespathError> {
        let flat = self.push(Node::Flatten(left))?;
        let right = self.projection_rhs(lbp(&Tok::Flatten))?;
        self.push(Node::Projection(flat, right))
    }

    /// `[n]` or a slice, the `[` already consumed and a number or ':' current.
    fn index(&mut self, left: NodeId) -> Result<NodeId, JmespathError> {
        if *self.current() == Tok::Colon || *self.peek(1) == Tok::Colon {
            let slice = self.slice()?;
            let sliced = self.sub(left, slice)?;
            let right = self.projection_rhs(lbp(&Tok::Star))?;
            return self.push(Node::Projection(sliced, right));
        }
        let Tok::Number(n) = *self.current() else {
            return Err(self.unexpected("a number"));
        };
        self.advance();
        self.expect(Tok::RBracket, "']'")?;
        let index = self.push(Node::Index(n))?;
        self.sub(left, index)
    }

    /// `left` then `right`, without the no-op step when `left` is `@`.
    fn sub(&mut self, left: NodeId, right: NodeId) -> Result<NodeId, JmespathError> {
        if self.nodes[left as usize] == Node::Identity {
            Ok(right)
        } else {
            self.push(Node::Sub(left, right))
        }
    }

    fn slice(&mut self) -> Result<NodeId, JmespathError> {
        let start_offset = self.offset();
        let mut parts: [Option<i64>; 3] = [None; 3];
        let mut part = 0;
        loop {
            match *self.current() {
                Tok::RBracket => break,
                Tok::Colon => {
                    part += 1;
                    if part == 3 {
                        return Err(self.unexpected("']' (a slice has at most two ':')"));
                    }
                    self.advance();
                }
                Tok::Number(n) if parts[part].is_none() => {
                    parts[part] = Some(n);
                    self.advance();
                }
                _ => return Err(self.unexpected("a number, ':' or ']'")),
            }
        }
        self.advance();
        let step = parts[2].unwrap_or(1);
        if step == 0 {
            return Err(JmespathError::new(
                JmespathErrorKind::InvalidValue,
                format!("invalid slice at offset {start_offset}: the step cannot be 0"),
            )
            .at(start_offset));
        }
        self.push(Node::Slice {
            start: parts[0],
            stop: parts[1],
            step,
        })
    }

    fn projection_rhs(&mut self, rbp: u8) -> Result<NodeId, JmespathError> {
        let tok = self.current();
        if lbp(tok) < PROJECTION_STOP {
            return self.push(Node::Identity);
        }
        match tok {
            Tok::LBracket | Tok::Filter => self.expression(rbp),
            Tok::Dot => {
                self.advance();
                self.dot_rhs(rbp)
            }
            _ => Err(self.unexpected("'.', '[' or the end of the projection")),
        }
    }

    fn dot_rhs(&mut self, rbp: u8) -> Result<NodeId, JmespathError> {
        match self.current() {
            Tok::Ident(_) | Tok::Quoted(_) | Tok::Star => self.expression(rbp),
            // The JavaScript and Python libraries return the multi-select here, so whatever
            // follows it is applied to the whole projection (`foo[*].{a: a}.a` is null). The
            // specification projects the rest, as it does after an identifier (`foo[*].a.b`):
            // so do we, by going on at the same binding power.
            Tok::LBracket => {
                self.advance();
                let list = self.list()?;
                self.continue_from(list, rbp)
            }
            Tok::LBrace => {
                self.advance();
                let hash = self.hash()?;
                self.continue_from(hash, rbp)
            }
            _ => Err(self.unexpected("an identifier, '*', '[' or '{' after '.'")),
        }
    }

    /// The operators that bind tighter than `rbp` after an already parsed `left`.
    fn continue_from(&mut self, mut left: NodeId, rbp: u8) -> Result<NodeId, JmespathError> {
        while rbp < lbp(self.current()) {
            left = self.led(left)?;
        }
        Ok(left)
    }

    /// `[a, b]`, the `[` already consumed.
    fn list(&mut self) -> Result<NodeId, JmespathError> {
        self.enter()?;
        let mut items = Vec::new();
        loop {
            items.push(self.expression(0)?);
            match self.current() {
                Tok::RBracket => {
                    self.advance();
                    break;
                }
                Tok::Comma => {
                    self.advance();
                }
                _ => return Err(self.unexpected("',' or ']'")),
            }
        }
        self.level -= 1;
        self.push(Node::List(items))
    }

    /// `{k: v, ...}`, the `{` already consumed.
    fn hash(&mut self) -> Result<NodeId, JmespathError> {
        self.enter()?;
        let mut pairs = Vec::new();
        loop {
            let key: Box<str> = match self.current() {
                Tok::Ident(name) | Tok::Quoted(name) => name.as_str().into(),
                _ => return Err(self.unexpected("a key")),
            };
            self.advance();
            self.expect(Tok::Colon, "':'")?;
            let value = self.expression(0)?;
            // A repeated key keeps its first position and takes the last value, as a JavaScript
            // object literal does.
            match pairs.iter_mut().find(|(k, _)| *k == key) {
                Some(pair) => pair.1 = value,
                None => pairs.push((key, value)),
            }
            match self.current() {
                Tok::RBrace => {
                    self.advance();
                    break;
                }
                Tok::Comma => {
                    self.advance();
                }
                _ => return Err(self.unexpected("',' or '}'")),
            }
        }
        self.level -= 1;
        let template = pairs
            .iter()
            .map(|(k, _)| (k.to_string(), serde_json::Value::Null))
            .collect();
        self.push(Node::Hash { pairs, template })
    }

    fn enter(&mut self) -> Result<(), JmespathError> {
        self.level += 1;
        if self.level > self.max_depth {
            return Err(self.too_deep());
        }
        Ok(())
    }

    /// A call, `(` consumed; `left` must be the plain identifier just before it.
    fn call(&mut self, left: NodeId, paren_offset: usize) -> Result<NodeId, JmespathError> {
        let name_token = &self.tokens[self.pos.saturating_sub(2)];
        let name_offset = name_token.offset;
        // The name token was moved into the field node (a quoted name failed already).
        let name = match (&name_token.tok, &self.nodes[left as usize]) {
            (Tok::Taken, Node::Field(name)) => name.to_string(),
            _ => {
                return Err(JmespathError::syntax(
                    paren_offset,
                    "'(' must follow a function name",
                ));
            }
        };
        let func = Func::lookup(&name).ok_or_else(|| {
            JmespathError::new(
                JmespathErrorKind::UnknownFunction,
                format!("unknown function '{name}()'"),
            )
            .at(name_offset)
        })?;
        self.enter()?;
        let mut args = Vec::new();
        if *self.current() == Tok::RParen {
            self.advance();
        } else {
            loop {
                let saved = self.arg_start;
                self.arg_start = self.pos;
                let arg = self.expression(0);
                self.arg_start = saved;
                args.push(arg?);
                match self.current() {
                    Tok::RParen => {
                        self.advance();
                        break;
                    }
                    Tok::Comma => {
                        self.advance();
                    }
                    _ => return Err(self.unexpected("',' or ')'")),
                }
            }
        }
        self.level -= 1;
        func.check_arity(args.len())
            .map_err(|e| e.at(name_offset))?;
        // The function replaces the name node, which stays in the arena unused.
        self.push(Node::Call(func, args))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> JmespathErrorKind {
        parse(text, &JmespathLimits::default()).unwrap_err().kind()
    }

    #[test]
    fn precedence() {
        let ast = parse("a || b && c", &JmespathLimits::default()).unwrap();
        assert!(matches!(ast.node(ast.root), Node::Or(_, _)));
        let ast = parse("a.b | c[0]", &JmespathLimits::default()).unwrap();
        assert!(matches!(ast.node(ast.root), Node::Pipe(_, _)));
        let ast = parse("a[*].b", &JmespathLimits::default()).unwrap();
        assert!(matches!(ast.node(ast.root), Node::Projection(_, _)));
    }

    #[test]
    fn records_kept_when_not_null_test_the_element_itself() {
        let not_null = |text: &str| {
            let ast = parse(text, &JmespathLimits::default()).unwrap();
            match ast.node(ast.root) {
                Node::Records(records) => Some(records.not_null),
                _ => None,
            }
        };
        assert_eq!(not_null("[?@ != null].{a: [0], b: [1]}"), Some(true));
        assert_eq!(not_null("[?null != @].{a: [0]}"), Some(true));
        assert_eq!(not_null("[?@ != `null`].{a: [0]}"), Some(true));
        // Any other condition is evaluated for each element.
        assert_eq!(not_null("[?@ == null].{a: [0]}"), Some(false));
        assert_eq!(not_null("[?@ != `\"x\"`].{a: [0]}"), Some(false));
        assert_eq!(not_null("[?a != null].{a: [0]}"), Some(false));
        assert_eq!(not_null("[?@ != nil].{a: [0]}"), Some(false));
        assert_eq!(not_null("[*].{a: [0]}"), Some(false));
    }

    #[test]
    fn syntax_errors() {
        for text in [
            "a[",
            "foo.",
            "[:::]",
            "a{foo: 0}",
            "abs(a b)",
            "abs(@,)",
            "&a",
            "[&a]",
            "\"abs\"(@)",
            "foo[*]bar",
            "",
        ] {
            assert_eq!(kind(text), JmespathErrorKind::Syntax, "{text}");
        }
        let err = parse("entries[", &JmespathLimits::default()).unwrap_err();
        assert_eq!(
            err.message(),
            "syntax error at offset 8: expected a number, ':' or '*', found end of expression"
        );
    }

    #[test]
    fn functions_checked_when_compiled() {
        assert_eq!(kind("foo(@)"), JmespathErrorKind::UnknownFunction);
        assert_eq!(kind("abs(`1`, `2`)"), JmespathErrorKind::Arity);
        assert_eq!(kind("not_null()"), JmespathErrorKind::Arity);
        assert_eq!(kind("a[::0]"), JmespathErrorKind::InvalidValue);
        assert!(parse("sort_by(@, &a.b)", &JmespathLimits::default()).is_ok());
    }

    #[test]
    fn limits_are_errors_not_crashes() {
        let deep = format!("{}a{}", "(".repeat(10_000), ")".repeat(10_000));
        let limits = JmespathLimits {
            max_length: 1 << 20,
            ..JmespathLimits::default()
        };
        assert_eq!(
            parse(&deep, &limits).unwrap_err().kind(),
            JmespathErrorKind::LimitExceeded
        );
        let chain = vec!["a"; 100].join(".");
        assert_eq!(kind(&chain), JmespathErrorKind::LimitExceeded);
        let brackets = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
        assert_eq!(
            parse(&brackets, &limits).unwrap_err().kind(),
            JmespathErrorKind::LimitExceeded
        );
        assert_eq!(kind(&"a".repeat(5000)), JmespathErrorKind::LimitExceeded);
    }
}
