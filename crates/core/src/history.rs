//! The update rule that every game's move-ordering history shares.

/// History entries saturate here; [`gravity`] keeps them inside.
pub const HISTORY_MAX: i32 = 16_384;

/// `entry` after adding `bonus` (clamped to ±[`HISTORY_MAX`]), which
/// shrinks as the entry nears the bound: entries stay within
/// ±`HISTORY_MAX` and recent results weigh more than old ones.
#[inline]
pub fn gravity(entry: i32, bonus: i32) -> i32 {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = entry + bonus - entry * bonus.abs() / HISTORY_MAX;
    v.clamp(-HISTORY_MAX, HISTORY_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saturates_within_the_bound_and_recent_results_count_more() {
        let mut e = 0;
        for _ in 0..1000 {
            e = gravity(e, 2400);
        }
        assert!(e <= HISTORY_MAX && e > 16_000, "{e}");
        // A penalty moves a saturated entry further than it moves a small one.
        assert!(e - gravity(e, -400) > 400);
        assert_eq!(gravity(0, -400), -400);
        assert_eq!(gravity(0, 100_000), HISTORY_MAX);
    }
}
