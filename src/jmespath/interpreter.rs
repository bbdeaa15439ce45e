//! Evaluates a compiled expression against any [`JsonView`]. Recursion follows the syntax
//! tree, whose depth the parser bounded; input data is only ever walked with loops.
//!
//! Two ways to evaluate a node: [`Interp::eval`] computes a [`Val`], borrowing from the input
//! where it can (what functions, comparisons and conditions need), and [`Interp::emit`] writes
//! the result straight into the `serde_json` output for the nodes that build containers
//! (projections, filters, multi-selects), so a transform's result is built once instead of as
//! an intermediate value that is then converted. A [`Node::Records`] over an array of the input
//! reads each element in place, without a `Val` for it or its members.

use super::ast::{Ast, Cmp, Node, NodeId, RecordMember, Records};
use super::error::JmespathError;
use super::value::{Budget, Val, array_position, equals, number_text, to_value};
use super::view::{JsonKind, JsonView};
use crate::json::same_text;
use serde_json::{Map, Value};
use std::cmp::Ordering;
use std::marker::PhantomData;
use std::rc::Rc;

/// A copy of a hash's template (its keys, in order, with `null` values), which saves hashing
/// each key again for every record. `clone` would size the copy's entries to its index table
/// (3 for 2 keys); `clone_from` into a map of the exact capacity keeps them at the key count,
/// which is memory saved in every output record.
fn new_record(template: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::with_capacity(template.len());
    out.clone_from(template);
    out
}

/// How many elements of an input array a [`Node::Records`] tests before building their records:
/// one bit each in a `u64`.
const TEST_BATCH: usize = 64;

/// One evaluation: the tree, the budget, and the input type.
pub(crate) struct Interp<'a, V: ?Sized> {
    ast: &'a Ast,
    pub(crate) budget: Budget,
    _input: PhantomData<fn(&'a V)>,
}

impl<'a, V: JsonView + ?Sized> Interp<'a, V> {
    pub(crate) fn new(ast: &'a Ast, max_steps: u64, max_values: u64) -> Self {
        Interp {
            ast,
            budget: Budget::with_values(max_steps, max_values),
            _input: PhantomData,
        }
    }

    pub(crate) fn eval(&self, id: NodeId, cur: &Val<'a, V>) -> Result<Val<'a, V>, JmespathError> {
        let ast: &'a Ast = self.ast;
        match ast.node(id) {
            Node::Identity => Ok(cur.clone()),
            Node::Field(name) => Ok(cur.member(name).unwrap_or(Val::Null)),
            Node::Index(i) => Ok(cur.index(*i)),
            Node::Slice { start, stop, step } => self.slice(cur, *start, *stop, *step),
            Node::Literal(value) => Ok(Val::from_json(value)),
            Node::Sub(lhs, rhs) | Node::Pipe(lhs, rhs) => {
                let left = self.eval(*lhs, cur)?;
                self.eval(*rhs, &left)
            }
            Node::Projection(lhs, rhs) => self.eval_projection(*lhs, None, *rhs, cur),
            Node::Filter { lhs, cond, rhs } => self.eval_projection(*lhs, Some(*cond), *rhs, cur),
            Node::Records(records) => {
                self.eval_projection(records.lhs, records.cond, records.rhs, cur)
            }
            Node::ValueProjection(lhs, rhs) => {
                let base = self.eval(*lhs, cur)?;
                let Some(entries) = base.entries() else {
                    return Ok(Val::Null);
                };
                self.budget.spend(base.len() as u64)?;
                self.project(entries.map(|(_, v)| v), None, *rhs, base.len())
            }
            Node::Flatten(inner) => {
                let base = self.eval(*inner, cur)?;
                let Some(items) = base.items() else {
                    return Ok(Val::Null);
                };
                let mut out = Vec::with_capacity(base.len());
                for item in items {
                    match item.items() {
                        Some(inner_items) => {
                            self.budget.spend(item.len() as u64 + 1)?;
                            out.extend(inner_items);
                        }
                        None => {
                            self.budget.spend(1)?;
                            out.push(item);
                        }
                    }
                }
                Ok(Val::array(out))
            }
            Node::Or(lhs, rhs) => {
                let left = self.eval(*lhs, cur)?;
                if left.is_truthy() {
                    Ok(left)
                } else {
                    self.eval(*rhs, cur)
                }
            }
            Node::And(lhs, rhs) => {
                let left = self.eval(*lhs, cur)?;
                if left.is_truthy() {
                    self.eval(*rhs, cur)
                } else {
                    Ok(left)
                }
            }
            Node::Not(inner) => Ok(Val::Bool(!self.eval(*inner, cur)?.is_truthy())),
            Node::Compare(op, lhs, rhs) => self.compare(*op, *lhs, *rhs, cur),
            Node::List(items) => {
                if cur.is_null() {
                    return Ok(Val::Null);
                }
                self.budget.spend(items.len() as u64)?;
                let mut out = Vec::with_capacity(items.len());
                for &item in items {
                    out.push(self.eval(item, cur)?);
                }
                Ok(Val::array(out))
            }
            Node::Hash { pairs, .. } => {
                if cur.is_null() {
                    return Ok(Val::Null);
                }
                self.budget.spend(pairs.len() as u64)?;
                let mut out = Vec::with_capacity(pairs.len());
                for (key, value) in pairs {
                    out.push((&**key, self.eval(*value, cur)?));
                }
                Ok(Val::Object(Rc::new(out)))
            }
            Node::Call(func, args) => self.call(*func, args, cur),
            Node::ExpRef(inner) => Ok(Val::ExpRef(*inner)),
        }
    }

    /// Evaluates `id` straight into the output. `None` is JMESPath's `null` (which projections
    /// drop); `Some(Value::Null)` is a value that has no JSON form other than `null`.
    pub(crate) fn eval_out(
        &self,
        id: NodeId,
        cur: &Val<'a, V>,
    ) -> Result<Option<Value>, JmespathError> {
        let mut out = Value::Null;
        Ok(self.emit(id, cur, &mut out)?.then_some(out))
    }

    /// Evaluates `id` into `slot`, which holds `Value::Null`, and tells whether the result is
    /// anything but JMESPath's `null` (`slot` is then left as it was). Results are written in
    /// place rather than returned because a `Value` is large and every level of a returned
    /// `Result<Option<Value>>` would copy it.
    fn emit(&self, id: NodeId, cur: &Val<'a, V>, slot: &mut Value) -> Result<bool, JmespathError> {
        let ast: &'a Ast = self.ast;
        match ast.node(id) {
            Node::Field(name) => self.emit_value(cur.member(name).unwrap_or(Val::Null), slot),
            Node::Index(i) => self.emit_value(cur.index(*i), slot),
            Node::Sub(lhs, rhs) | Node::Pipe(lhs, rhs) => {
                let left = self.eval(*lhs, cur)?;
                self.emit(*rhs, &left, slot)
            }
            Node::Projection(lhs, rhs) => self.emit_projection(*lhs, None, *rhs, cur, slot),
            Node::Filter { lhs, cond, rhs } => {
                self.emit_projection(*lhs, Some(*cond), *rhs, cur, slot)
            }
            Node::Records(records) => self.emit_records(records, cur, slot),
            Node::ValueProjection(lhs, rhs) => {
                let base = self.eval(*lhs, cur)?;
                match base.entries() {
                    Some(entries) => {
                        let items = entries.map(|(_, v)| v);
                        self.emit_elements(items, base.len(), None, *rhs, slot)
                    }
                    None => Ok(false),
                }
            }
            Node::List(items) => {
                if cur.is_null() {
                    return Ok(false);
                }
                self.budget.spend_output(items.len() as u64)?;
                let mut out = Vec::with_capacity(items.len());
                for &item in items {
                    out.push(Value::Null);
                    if let Some(last) = out.last_mut() {
                        self.emit(item, cur, last)?;
                    }
                }
                *slot = Value::Array(out);
                Ok(true)
            }
            Node::Hash { pairs, template } => {
                if cur.is_null() {
                    return Ok(false);
                }
                // Each member's key and value.
                self.budget.spend_output(2 * pairs.len() as u64)?;
                let mut record = new_record(template);
                for ((_, value), member) in pairs.iter().zip(record.values_mut()) {
                    self.emit(*value, cur, member)?;
                }
                *slot = Value::Object(record);
                Ok(true)
            }
            _ => self.emit_value(self.eval(id, cur)?, slot),
        }
    }

    /// [`Interp::emit`] of `lhs[*].rhs` (`cond` is `None`) or `lhs[?cond].rhs`.
    fn emit_projection(
        &self,
        lhs: NodeId,
        cond: Option<NodeId>,
        rhs: NodeId,
        cur: &Val<'a, V>,
        slot: &mut Value,
    ) -> Result<bool, JmespathError> {
        let base = self.eval(lhs, cur)?;
        match base.items() {
            Some(items) => self.emit_elements(items, base.len(), cond, rhs, slot),
            None => Ok(false),
        }
    }

    /// [`Interp::emit`] of a [`Node::Records`]: over an array of the input, each element is
    /// tested and its record built from the element itself; anything else as the generic node.
    fn emit_records(
        &self,
        records: &'a Records,
        cur: &Val<'a, V>,
        slot: &mut Value,
    ) -> Result<bool, JmespathError> {
        let base = self.eval(records.lhs, cur)?;
        let elements = match &base {
            Val::View(array) => array.array_iter(),
            _ => None,
        };
        let Some(mut elements) = elements else {
            return match base.items() {
                Some(items) => {
                    self.emit_elements(items, base.len(), records.cond, records.rhs, slot)
                }
                None => Ok(false),
            };
        };
        self.budget.spend_output(base.len() as u64)?;
        let mut out = Vec::with_capacity(base.len());
        // The elements are tested a batch at a time, then the batch's passing elements become
        // records. The test reads a member of each element, and in a large input those are
        // scattered in memory: in a loop that does nothing else, the processor waits for
        // several elements' members at once, which building records in between prevents.
        let mut batch: Vec<&'a V> = Vec::with_capacity(TEST_BATCH);
        loop {
            batch.clear();
            batch.extend(elements.by_ref().take(TEST_BATCH));
            if batch.is_empty() {
                break;
            }
            let mut passing = 0u64;
            for (i, element) in batch.iter().enumerate() {
                if self.element_passes(records, element)? {
                    passing |= 1 << i;
                }
            }
            while passing != 0 {
                let element = batch[passing.trailing_zeros() as usize];
                passing &= passing - 1;
                self.budget.spend_output(2 * records.members.len() as u64)?;
                let mut record = new_record(&records.template);
                for (member, value) in records.members.iter().zip(record.values_mut()) {
                    self.write_record_value(member, element, value)?;
                }
                out.push(Value::Object(record));
            }
        }
        *slot = Value::Array(out);
        Ok(true)
    }

    /// Whether `element` passes the condition of a [`Node::Records`] and has a record (a
    /// multi-select over `null` is `null`, which the projection drops).
    #[inline]
    fn element_passes(&self, records: &'a Records, element: &'a V) -> Result<bool, JmespathError> {
        let passes = match (&records.field_test, records.cond) {
            (Some(test), _) => {
                let field = element.get(&test.field).and_then(JsonView::as_str);
                field.is_some_and(|field| same_text(field, &test.text)) == test.equal
            }
            // `@ != null`: the kind test below is the whole condition.
            (None, Some(_)) if records.not_null => true,
            (None, Some(cond)) => self.eval(cond, &Val::from_view(element))?.is_truthy(),
            (None, None) => true,
        };
        Ok(passes && element.kind() != JsonKind::Null)
    }

    /// Writes the value `member` reads from `element` into `slot`, a value of a
    /// [`Node::Records`] record that holds `null`. Written in place: a `Value` returned through
    /// a `Result` is copied through memory, once per member of every record.
    #[inline]
    fn write_record_value(
        &self,
        member: &RecordMember,
        element: &'a V,
        slot: &mut Value,
    ) -> Result<(), JmespathError> {
        let (found, to_string) = match member {
            RecordMember::Field(name) => (element.get(name), false),
            RecordMember::FieldText(name) => (element.get(name), true),
            RecordMember::Index(i) => {
                let position = match element.kind() {
                    JsonKind::Array => array_position(element.len(), *i),
                    _ => None,
                };
                (position.and_then(|p| element.index(p)), false)
            }
        };
        match found.map_or(Val::Null, Val::from_view) {
            Val::Null if !to_string => {}
            Val::Num(n) if to_string => {
                self.budget.spend(1)?;
                *slot = Value::String(number_text(n));
            }
            Val::Str(s) => {
                self.budget.spend_output_text(s.len())?;
                *slot = Value::String(s.to_owned());
            }
            other if to_string => *slot = to_value(self.to_string_of(other)?, &self.budget)?,
            other => *slot = to_value(other, &self.budget)?,
        }
        Ok(())
    }

    /// `rhs` over each of the `len` elements that pass `cond` (all when there is none, as in
    /// `[*]`), into the output; `null` results are dropped.
    fn emit_elements(
        &self,
        items: impl Iterator<Item = Val<'a, V>>,
        len: usize,
        cond: Option<NodeId>,
        rhs: NodeId,
        slot: &mut Value,
    ) -> Result<bool, JmespathError> {
        self.budget.spend_output(len as u64)?;
        // Sized for every element to pass: one allocation instead of a series of
        // reallocations, each of which copies the results gathered so far.
        let mut out = Vec::with_capacity(len);
        for item in items {
            if let Some(cond) = cond
                && !self.eval(cond, &item)?.is_truthy()
            {
                continue;
            }
            out.push(Value::Null);
            if let Some(last) = out.last_mut()
                && !self.emit(rhs, &item, last)?
            {
                out.pop();
            }
        }
        *slot = Value::Array(out);
        Ok(true)
    }

    /// [`Interp::emit`] of a computed value.
    #[inline]
    fn emit_value(&self, value: Val<'a, V>, slot: &mut Value) -> Result<bool, JmespathError> {
        if value.is_null() {
            return Ok(false);
        }
        *slot = to_value(value, &self.budget)?;
        Ok(true)
    }

    /// [`Interp::eval`] of `lhs[*].rhs` (`cond` is `None`) or `lhs[?cond].rhs`.
    fn eval_projection(
        &self,
        lhs: NodeId,
        cond: Option<NodeId>,
        rhs: NodeId,
        cur: &Val<'a, V>,
    ) -> Result<Val<'a, V>, JmespathError> {
        let base = self.eval(lhs, cur)?;
        let Some(items) = base.items() else {
            return Ok(Val::Null);
        };
        self.budget.spend(base.len() as u64)?;
        self.project(items, cond, rhs, base.len())
    }

    /// `rhs` over each element that passes `cond` (all when there is none), dropping `null`
    /// results.
    fn project(
        &self,
        items: impl Iterator<Item = Val<'a, V>>,
        cond: Option<NodeId>,
        rhs: NodeId,
        len: usize,
    ) -> Result<Val<'a, V>, JmespathError> {
        let mut out = Vec::with_capacity(if cond.is_some() { 0 } else { len });
        for item in items {
            if let Some(cond) = cond
                && !self.eval(cond, &item)?.is_truthy()
            {
                continue;
            }
            let value = self.eval(rhs, &item)?;
            if !value.is_null() {
                out.push(value);
            }
        }
        Ok(Val::array(out))
    }

    fn compare(
        &self,
        op: Cmp,
        lhs: NodeId,
        rhs: NodeId,
        cur: &Val<'a, V>,
    ) -> Result<Val<'a, V>, JmespathError> {
        let left = self.eval(lhs, cur)?;
        let right = self.eval(rhs, cur)?;
        Ok(match op {
            Cmp::Eq => Val::Bool(equals(&left, &right, &self.budget)?),
            Cmp::Ne => Val::Bool(!equals(&left, &right, &self.budget)?),
            _ => {
                // Ordering is defined for numbers only; anything else is null (specification).
                let (Some(a), Some(b)) = (left.as_num(), right.as_num()) else {
                    return Ok(Val::Null);
                };
                let Some(ord) = a.compare(b) else {
                    return Ok(Val::Null);
                };
                Val::Bool(match op {
                    Cmp::Lt => ord == Ordering::Less,
                    Cmp::Le => ord != Ordering::Greater,
                    Cmp::Gt => ord == Ordering::Greater,
                    _ => ord != Ordering::Less,
                })
            }
        })
    }

    fn slice(
        &self,
        cur: &Val<'a, V>,
        start: Option<i64>,
        stop: Option<i64>,
        step: i64,
    ) -> Result<Val<'a, V>, JmespathError> {
        if !cur.is_array() {
            return Ok(Val::Null);
        }
        let len = i64::try_from(cur.len()).unwrap_or(i64::MAX);
        let backwards = step < 0;
        let clamp = |i: i64| -> i64 {
            if i < 0 {
                let from_end = i.saturating_add(len);
                if from_end < 0 {
                    if backwards { -1 } else { 0 }
                } else {
                    from_end
                }
            } else if i >= len {
                if backwards { len - 1 } else { len }
            } else {
                i
            }
        };
        let start = start.map_or(if backwards { len - 1 } else { 0 }, clamp);
        let stop = stop.map_or(if backwards { -1 } else { len }, clamp);
        let items: Vec<Val<'a, V>> = match cur.items() {
            Some(items) => items.collect(),
            None => return Ok(Val::Null),
        };
        self.budget.spend(items.len() as u64)?;
        let mut out = Vec::new();
        let mut i = start;
        while if backwards { i > stop } else { i < stop } {
            if let Some(item) = usize::try_from(i).ok().and_then(|at| items.get(at)) {
                out.push(item.clone());
            }
            i = match i.checked_add(step) {
                Some(next) => next,
                None => break,
            };
        }
        Ok(Val::array(out))
    }
}
