//! Token budgets: the default, the environment override, clamping, and the estimate.

/// The budget when a call passes none and `NAVMAP_TOKEN_BUDGET` is unset or invalid.
pub const DEFAULT_TOKEN_BUDGET: i64 = 2000;
/// The smallest effective budget; smaller requests are clamped up.
pub const MIN_TOKEN_BUDGET: i64 = 100;
/// The largest effective budget, reported as `tokenBudget.max`.
pub const MAX_TOKEN_BUDGET: i64 = 10_000;
/// Overrides [`DEFAULT_TOKEN_BUDGET`] when set to a valid integer.
pub const TOKEN_BUDGET_ENV: &str = "NAVMAP_TOKEN_BUDGET";

/// What was asked and what applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    requested: i64,
    effective: usize,
}

impl Budget {
    /// A budget for this request, clamped to [`MIN_TOKEN_BUDGET`, `MAX_TOKEN_BUDGET`].
    pub fn new(requested: i64) -> Self {
        Budget {
            requested,
            effective: requested.clamp(MIN_TOKEN_BUDGET, MAX_TOKEN_BUDGET) as usize,
        }
    }

    /// `requested` if the call passed one, else the default (environment-aware).
    pub fn from_request(requested: Option<i64>) -> Self {
        Budget::new(requested.unwrap_or_else(Budget::default_requested))
    }

    /// The default budget: `NAVMAP_TOKEN_BUDGET` when it holds a valid integer, else 2000.
    pub fn default_requested() -> i64 {
        Budget::default_from(std::env::var(TOKEN_BUDGET_ENV).ok().as_deref())
    }

    /// [`Budget::default_requested`] with the environment value passed in (testable).
    pub fn default_from(env_value: Option<&str>) -> i64 {
        env_value
            .and_then(|v| v.trim().parse::<i64>().ok())
            .unwrap_or(DEFAULT_TOKEN_BUDGET)
    }

    /// What the call asked for (echoed as `tokenBudget.requested`).
    pub fn requested(&self) -> i64 {
        self.requested
    }

    /// The budget that applies: `used ≤ effective` always.
    pub fn effective(&self) -> usize {
        self.effective
    }

    /// Whether the request was outside the allowed range.
    pub fn clamped(&self) -> bool {
        self.requested != self.effective as i64
    }
}

/// The coarse estimate of contract §2: `ceil(chars / 4)`.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamps_and_echoes() {
        let b = Budget::new(50);
        assert_eq!((b.requested(), b.effective(), b.clamped()), (50, 100, true));
        let b = Budget::new(123_456);
        assert_eq!((b.requested(), b.effective()), (123_456, 10_000));
        let b = Budget::new(-5);
        assert_eq!(b.effective(), 100);
        let b = Budget::new(800);
        assert_eq!((b.effective(), b.clamped()), (800, false));
    }

    #[test]
    fn env_default_needs_a_valid_integer() {
        assert_eq!(Budget::default_from(None), 2000);
        assert_eq!(Budget::default_from(Some("lots")), 2000);
        assert_eq!(Budget::default_from(Some(" 500 ")), 500);
        assert_eq!(Budget::default_from(Some("50000")), 50000);
        assert_eq!(
            Budget::new(Budget::default_from(Some("50000"))).effective(),
            10_000
        );
    }

    #[test]
    fn estimate_counts_chars_not_bytes() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        assert_eq!(estimate_tokens("ééééé"), 2);
    }
}
