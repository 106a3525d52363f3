//! Strength limit for game developers (`SkillLevel` 0-20, 20 = full strength).
//!
//! Below 20 the engine searches at most `level + 1` plies, always looks at several root
//! moves (MultiPV) and then picks among them at random, preferring better moves: a move
//! `d` centipawns worse than the best is chosen with weight `exp(-d / T)`, where the
//! temperature `T` grows by 15 cp per level below 20. Both the depth cap and the
//! temperature change a little per level, so strength falls smoothly. The random number
//! comes from the engine (`RandomSeed`), so a fixed seed repeats every choice.

use super::MATE_IN_MAX_PLY;

/// The level that means full strength (no limit).
pub const FULL_STRENGTH: u32 = 20;

/// Root moves compared when choosing a weaker move.
const CANDIDATES: usize = 4;

/// A strength limit in force for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    /// 0 (weakest) to 19.
    pub level: u32,
    /// A uniformly random number for this search's choice.
    pub random: u64,
}

impl Skill {
    /// The limit for `level`, or `None` at full strength.
    pub fn new(level: u32, random: u64) -> Option<Skill> {
        (level < FULL_STRENGTH).then_some(Skill { level, random })
    }

    /// Deepest iteration searched.
    pub fn max_depth(self) -> u32 {
        self.level + 1
    }

    /// Root moves searched as separate lines.
    pub fn multipv(self) -> usize {
        CANDIDATES
    }

    /// Temperature of the choice, in centipawns.
    fn temperature(self) -> f64 {
        f64::from(FULL_STRENGTH - self.level) * 15.0
    }

    /// Index of the chosen move among `scores` (best first; `scores[0]` is the best).
    pub fn pick(self, scores: &[i32]) -> usize {
        if scores.len() <= 1 {
            return 0;
        }
        // A mate for us is never thrown away, and a forced loss is not made worse on purpose.
        if scores[0] >= MATE_IN_MAX_PLY {
            return 0;
        }
        let t = self.temperature();
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| {
                let behind = f64::from((scores[0] - s).clamp(0, 3000));
                (-behind / t).exp()
            })
            .collect();
        let total: f64 = weights.iter().sum();
        // 53 random bits as a fraction in [0, 1).
        let mut x = (self.random >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        scores.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_strength_has_no_limit() {
        assert!(Skill::new(20, 1).is_none());
        assert_eq!(Skill::new(0, 1).unwrap().max_depth(), 1);
    }

    #[test]
    fn weaker_levels_spread_their_choices() {
        let scores = [100, 60, 20, -300];
        let share_of_best = |level: u32| {
            let n = 4000u64;
            let best = (0..n)
                .filter(|i| {
                    let r = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    Skill::new(level, r).unwrap().pick(&scores) == 0
                })
                .count();
            best as f64 / n as f64
        };
        let (l0, l10, l19) = (share_of_best(0), share_of_best(10), share_of_best(19));
        assert!(l0 < l10 && l10 < l19, "{l0} {l10} {l19}");
        assert!(l19 > 0.9);
        // A mate is always kept.
        assert_eq!(
            Skill::new(0, u64::MAX)
                .unwrap()
                .pick(&[MATE_IN_MAX_PLY + 5, 0]),
            0
        );
    }
}
