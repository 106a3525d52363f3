//! What a solve spent its work on, for comparing solver variants (`examples/mate_bench`).

/// Work counters of one mate search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateCounters {
    /// Move lists generated (checks at attacker nodes, evasions at defender nodes).
    pub move_generations: u64,
    /// One-ply look-aheads: new checks whose evasions were counted (or tested for none).
    pub lookaheads: u64,
    /// Mate-in-one tests of a defender's replies with two plies left.
    pub mate_in_one_tests: u64,
    /// Mate-within-three tests of a defender's replies with four plies left.
    pub mate_in_three_tests: u64,
    /// Proof-table lookups.
    pub table_lookups: u64,
    /// Results written to the proof table.
    pub table_stores: u64,
    /// Results not stored because they rest on a repetition of the current path.
    pub path_dependent_discards: u64,
    /// Path-dependent disproofs stored once the search was back at the start of their cycle.
    pub settled_cycles: u64,
    /// Results stored under a hand other than the node's (proof or disproof pieces).
    pub hand_generalisations: u64,
    /// Results that contradicted a stored result for the same board and hands (a proof
    /// within fewer plies than a disproof holds for): 0 in a sound search.
    pub contradictions: u64,
    /// Checks tested for a mate in three at their attacker node
    /// (`MateVariant::mate_in_three_at_checks`).
    pub check_mate3_tests: u64,
    /// Node values whose proof or disproof number reached the largest finite number (the
    /// sums saturate there): from then on best-first order no longer tells such nodes apart.
    pub saturated: u64,
    /// Children found disproven in the path cache (`MateVariant::path_cache`).
    pub path_cache_hits: u64,
    /// Mate-in-one questions that decide whether an attacker node may leave checks
    /// uncounted (`MateVariant::lazy_lookahead`).
    pub lazy_guards: u64,
}

impl std::ops::AddAssign for MateCounters {
    fn add_assign(&mut self, d: MateCounters) {
        self.move_generations += d.move_generations;
        self.lookaheads += d.lookaheads;
        self.mate_in_one_tests += d.mate_in_one_tests;
        self.mate_in_three_tests += d.mate_in_three_tests;
        self.table_lookups += d.table_lookups;
        self.table_stores += d.table_stores;
        self.path_dependent_discards += d.path_dependent_discards;
        self.settled_cycles += d.settled_cycles;
        self.hand_generalisations += d.hand_generalisations;
        self.contradictions += d.contradictions;
        self.check_mate3_tests += d.check_mate3_tests;
        self.saturated += d.saturated;
        self.path_cache_hits += d.path_cache_hits;
        self.lazy_guards += d.lazy_guards;
    }
}

impl MateCounters {
    /// The counters as `name value` pairs, in a fixed order (for printing).
    pub fn fields(&self) -> [(&'static str, u64); 14] {
        [
            ("gens", self.move_generations),
            ("looks", self.lookaheads),
            ("mate1", self.mate_in_one_tests),
            ("mate3", self.mate_in_three_tests),
            ("lookups", self.table_lookups),
            ("stores", self.table_stores),
            ("pathdep", self.path_dependent_discards),
            ("settled", self.settled_cycles),
            ("generalised", self.hand_generalisations),
            ("contradictions", self.contradictions),
            ("check_mate3", self.check_mate3_tests),
            ("saturated", self.saturated),
            ("pathhits", self.path_cache_hits),
            ("lazyguards", self.lazy_guards),
        ]
    }
}
