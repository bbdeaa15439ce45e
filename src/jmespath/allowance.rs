//! A budget that several searches share.

use super::value;

/// What searches may still spend when several share one budget
/// ([`Expression::search_view_within`](crate::jmespath::Expression::search_view_within)): evaluation steps (as [`JmespathLimits::max_steps`](crate::jmespath::JmespathLimits::max_steps) counts
/// them) and values of the output (each array element, object member and scalar of a result
/// costs one, counted before it is built).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Allowance {
    /// Evaluation steps left.
    pub steps: u64,
    /// Output values left.
    pub values: u64,
}

impl Allowance {
    /// No bound but the expression's own step limit.
    pub const UNLIMITED: Allowance = Allowance {
        steps: u64::MAX,
        values: u64::MAX,
    };

    /// Takes off what a search given `steps` of it left unspent in `budget`.
    pub(super) fn spent(&mut self, steps: u64, budget: &value::Budget) {
        let (steps_left, values_left) = budget.left();
        self.steps -= steps - steps_left;
        self.values = values_left;
    }
}
