//! Token budgets: the default, the environment override, clamping, and the estimate.

use serde_json::{Number, Value};

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
    requested: Asked,
    effective: usize,
}

/// The asked number as the caller's JSON held it: echoing it back must not saturate
/// (`99999999999999999999` is not `i64::MAX`). Floats are kept as bits so `Budget` stays
/// `Copy + Eq`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    Int(i64),
    UInt(u64),
    Float(u64),
}

impl Budget {
    /// A budget for this request, clamped to [`MIN_TOKEN_BUDGET`, `MAX_TOKEN_BUDGET`].
    pub fn new(requested: i64) -> Self {
        Budget {
            requested: Asked::Int(requested),
            effective: requested.clamp(MIN_TOKEN_BUDGET, MAX_TOKEN_BUDGET) as usize,
        }
    }

    /// A budget for a JSON number exactly as the call passed it: `requested` echoes it
    /// unchanged, only the effective budget is clamped.
    pub fn from_number(n: &Number) -> Self {
        if let Some(i) = n.as_i64() {
            return Budget::new(i);
        }
        if let Some(u) = n.as_u64() {
            return Budget {
                requested: Asked::UInt(u),
                effective: MAX_TOKEN_BUDGET as usize,
            };
        }
        let f = n.as_f64().unwrap_or(0.0);
        let effective = if f.is_nan() {
            MIN_TOKEN_BUDGET
        } else {
            // `as` saturates; the clamp keeps it in range either way.
            (f.floor() as i64).clamp(MIN_TOKEN_BUDGET, MAX_TOKEN_BUDGET)
        };
        Budget {
            requested: Asked::Float(f.to_bits()),
            effective: effective as usize,
        }
    }

    /// The budget of a raw `tokenBudget` argument: a number as given, else the default.
    pub fn from_arg(value: Option<&Value>) -> Self {
        match value {
            Some(Value::Number(n)) => Budget::from_number(n),
            _ => Budget::from_request(None),
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

    /// What the call asked for (echoed as `tokenBudget.requested`), unclamped.
    pub fn requested(&self) -> Number {
        match self.requested {
            Asked::Int(i) => Number::from(i),
            Asked::UInt(u) => Number::from(u),
            Asked::Float(bits) => {
                Number::from_f64(f64::from_bits(bits)).unwrap_or_else(|| Number::from(0))
            }
        }
    }

    /// The budget that applies: `used ≤ effective` always.
    pub fn effective(&self) -> usize {
        self.effective
    }

    /// Whether this is the documented default budget (2000, what the server's instructions
    /// tell an agent): nothing to report back about it unless the answer was cut. A
    /// default changed by `NAVMAP_TOKEN_BUDGET` is not: the agent could not know it.
    pub fn is_default(&self) -> bool {
        self.requested == Asked::Int(DEFAULT_TOKEN_BUDGET)
    }

    /// Whether the request was outside the allowed range.
    pub fn clamped(&self) -> bool {
        match self.requested {
            Asked::Int(i) => i != self.effective as i64,
            Asked::UInt(_) => true,
            Asked::Float(bits) => f64::from_bits(bits) != self.effective as f64,
        }
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
        assert_eq!(
            (b.requested(), b.effective(), b.clamped()),
            (Number::from(50), 100, true)
        );
        let b = Budget::new(123_456);
        assert_eq!(
            (b.requested(), b.effective()),
            (Number::from(123_456), 10_000)
        );
        let b = Budget::new(-5);
        assert_eq!(b.effective(), 100);
        let b = Budget::new(800);
        assert_eq!((b.effective(), b.clamped()), (800, false));
    }

    #[test]
    fn huge_numbers_echo_as_asked() {
        // Beyond i64: kept exactly as a u64, not saturated to i64::MAX.
        let v: Value = serde_json::from_str("18446744073709551615").unwrap();
        let b = Budget::from_arg(Some(&v));
        assert_eq!(b.requested().to_string(), "18446744073709551615");
        assert_eq!((b.effective(), b.clamped()), (10_000, true));
        // Beyond u64 serde_json (without arbitrary_precision) holds a float; echoed as
        // that same number, not as i64::MAX.
        let v: Value = serde_json::from_str("99999999999999999999").unwrap();
        let b = Budget::from_arg(Some(&v));
        assert_eq!(b.requested().as_f64(), Some(1e20));
        assert_ne!(b.requested().as_i64(), Some(i64::MAX));
        assert_eq!(b.effective(), 10_000);
        let b = Budget::from_arg(Some(&serde_json::json!(-1e30)));
        assert_eq!((b.effective(), b.clamped()), (100, true));
        let b = Budget::from_arg(Some(&serde_json::json!(500.0)));
        assert_eq!((b.effective(), b.clamped()), (500, false));
        let b = Budget::from_arg(Some(&serde_json::json!("lots")));
        assert_eq!(b, Budget::from_request(None));
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
