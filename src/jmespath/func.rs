//! The 26 built-in functions of standard JMESPath by name: what the parser resolves a call to
//! and checks the arity of, before anything runs. Their implementations are in `functions.rs`,
//! which the interpreter calls; this table is apart so that the syntax tree can name a
//! function without depending on the interpreter.

use super::error::{JmespathError, JmespathErrorKind};

/// A built-in function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Func {
    Abs,
    Avg,
    Ceil,
    Contains,
    EndsWith,
    Floor,
    Join,
    Keys,
    Length,
    Map,
    Max,
    MaxBy,
    Merge,
    Min,
    MinBy,
    NotNull,
    Reverse,
    Sort,
    SortBy,
    StartsWith,
    Sum,
    ToArray,
    ToNumber,
    ToString,
    Type,
    Values,
}

/// Name, function, and arity: the number of arguments, or the minimum for variadic ones.
const TABLE: [(&str, Func, usize, bool); 26] = [
    ("abs", Func::Abs, 1, false),
    ("avg", Func::Avg, 1, false),
    ("ceil", Func::Ceil, 1, false),
    ("contains", Func::Contains, 2, false),
    ("ends_with", Func::EndsWith, 2, false),
    ("floor", Func::Floor, 1, false),
    ("join", Func::Join, 2, false),
    ("keys", Func::Keys, 1, false),
    ("length", Func::Length, 1, false),
    ("map", Func::Map, 2, false),
    ("max", Func::Max, 1, false),
    ("max_by", Func::MaxBy, 2, false),
    ("merge", Func::Merge, 1, true),
    ("min", Func::Min, 1, false),
    ("min_by", Func::MinBy, 2, false),
    ("not_null", Func::NotNull, 1, true),
    ("reverse", Func::Reverse, 1, false),
    ("sort", Func::Sort, 1, false),
    ("sort_by", Func::SortBy, 2, false),
    ("starts_with", Func::StartsWith, 2, false),
    ("sum", Func::Sum, 1, false),
    ("to_array", Func::ToArray, 1, false),
    ("to_number", Func::ToNumber, 1, false),
    ("to_string", Func::ToString, 1, false),
    ("type", Func::Type, 1, false),
    ("values", Func::Values, 1, false),
];

impl Func {
    pub(crate) fn lookup(name: &str) -> Option<Func> {
        TABLE.iter().find(|e| e.0 == name).map(|e| e.1)
    }

    fn entry(self) -> &'static (&'static str, Func, usize, bool) {
        // Every variant is in the table, in declaration order.
        &TABLE[self as usize]
    }

    pub(crate) fn name(self) -> &'static str {
        self.entry().0
    }

    pub(crate) fn check_arity(self, given: usize) -> Result<(), JmespathError> {
        let &(name, _, n, variadic) = self.entry();
        let ok = if variadic { given >= n } else { given == n };
        if ok {
            return Ok(());
        }
        let plural = if n == 1 { "" } else { "s" };
        let expected = if variadic {
            format!("at least {n} argument{plural}")
        } else {
            format!("{n} argument{plural}")
        };
        Err(JmespathError::new(
            JmespathErrorKind::Arity,
            format!("invalid arity for {name}(): expected {expected}, got {given}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_declaration_order() {
        for (i, entry) in TABLE.iter().enumerate() {
            assert_eq!(entry.1 as usize, i, "{}", entry.0);
            assert_eq!(Func::lookup(entry.0), Some(entry.1));
        }
        assert_eq!(Func::lookup("let"), None);
    }
}
