//! Search parameters as data (DESIGN.md §6.5): every margin, reduction constant and history
//! divisor the search uses, in one table. Each is a hidden spin option (`Tune_<name>`, in
//! the option registry) so that SPSA can tune it and an SPRT can test a value without a
//! rebuild; tuned values become the defaults here once an SPRT confirms them.

/// One parameter: its option name, default and range.
pub struct ParamDef {
    /// The option name (`Tune_` + the field name in CamelCase).
    pub name: &'static str,
    /// The value the search uses unless the option says otherwise.
    pub default: i32,
    /// The least value the option accepts.
    pub min: i32,
    /// The greatest value the option accepts.
    pub max: i32,
}

macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $field:ident, $index:ident, $name:literal, $default:expr, $min:expr, $max:expr;)*) => {
        /// Indices of the parameters in [`PARAMS`] and [`SearchParams::values`].
        #[allow(missing_docs)]
        pub mod index {
            search_params!(@indices 0usize; $($index)*);
        }

        /// Every parameter, in option order.
        pub const PARAMS: &[ParamDef] = &[
            $(ParamDef { name: $name, default: $default, min: $min, max: $max },)*
        ];

        /// The values of one search.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            /// Indexed by [`index`].
            pub values: [i32; PARAMS.len()],
        }

        impl Default for SearchParams {
            fn default() -> Self {
                SearchParams { values: [$($default,)*] }
            }
        }

        impl SearchParams {
            $(
                $(#[doc = $doc])*
                #[inline(always)]
                pub fn $field(&self) -> i32 {
                    self.values[index::$index]
                }
            )*
        }
    };
    (@indices $n:expr; $first:ident $($rest:ident)*) => {
        pub const $first: usize = $n;
        search_params!(@indices $n + 1usize; $($rest)*);
    };
    (@indices $n:expr;) => {};
}

search_params! {
    /// Reverse futility margin per ply of depth (DESIGN.md §6.2).
    rfp_margin, RFP_MARGIN, "Tune_RfpMargin", 120, 40, 300;
    /// Deepest reverse futility node. 7 against 5: SPRT s-rfpd7, H1, LLR 2.96, 1,410 games,
    /// +26.2 Elo (+9.6..+42.9).
    rfp_depth, RFP_DEPTH, "Tune_RfpDepth", 7, 1, 12;
    /// Razoring margin per ply of depth.
    razor_margin, RAZOR_MARGIN, "Tune_RazorMargin", 350, 100, 800;
    /// Deepest razoring node.
    razor_depth, RAZOR_DEPTH, "Tune_RazorDepth", 2, 1, 8;
    /// Futility pruning: the margin's constant part.
    futility_base, FUTILITY_BASE, "Tune_FutilityBase", 150, 0, 500;
    /// Futility pruning: the margin per ply of depth.
    futility_margin, FUTILITY_MARGIN, "Tune_FutilityMargin", 120, 30, 400;
    /// Late-move pruning: quiet moves tried before the rest are skipped, plus depth².
    lmp_base, LMP_BASE, "Tune_LmpBase", 3, 0, 20;
    /// Deepest node whose late quiet moves are pruned by count.
    lmp_depth, LMP_DEPTH, "Tune_LmpDepth", 4, 1, 12;
    /// Deepest node whose quiet moves are pruned by futility.
    futility_depth, FUTILITY_DEPTH, "Tune_FutilityDepth", 3, 1, 12;
    /// Futility pruning of captures (undecided: SPRT s-capfut150, 150 against 0, stopped at
    /// +4.6 Elo after 763 games, DESIGN.md §6.6): off the PV, at depth 6 or less, a capture
    /// that neither promotes nor checks is skipped when the static evaluation plus what it
    /// takes (on the board and in hand) plus this margin per ply of depth plus one stays at
    /// or below alpha (0: off).
    capture_futility_margin, CAPTURE_FUTILITY_MARGIN, "Tune_CaptureFutilityMargin", 0, 0, 1000;
    /// Null move: the shallowest node that tries it (DESIGN.md §4.7).
    nmp_min_depth, NMP_MIN_DEPTH, "Tune_NmpMinDepth", 3, 1, 8;
    /// Null move: the base reduction (DESIGN.md §4.7).
    nmp_base, NMP_BASE, "Tune_NmpBase", 3, 1, 6;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_divisor, NMP_DEPTH_DIVISOR, "Tune_NmpDepthDivisor", 3, 1, 8;
    /// Null move: one more ply per this many centipawns of eval above beta (at most 3).
    nmp_eval_divisor, NMP_EVAL_DIVISOR, "Tune_NmpEvalDivisor", 200, 50, 1000;
    /// SEE pruning of captures: the SEE margin per ply of depth.
    see_capture_margin, SEE_CAPTURE_MARGIN, "Tune_SeeCaptureMargin", 120, 20, 400;
    /// SEE pruning of quiet moves: the SEE margin per ply² of depth.
    see_quiet_margin, SEE_QUIET_MARGIN, "Tune_SeeQuietMargin", 40, 5, 200;
    /// Log-scaled LMR: reductions are ln(depth)·ln(index)·100 / this.
    lmr_divisor, LMR_DIVISOR, "Tune_LmrDivisor", 200, 100, 400;
    /// Quiet statistics per ply of less (or more) reduction (DESIGN.md §5.3).
    history_lmr_divisor, HISTORY_LMR_DIVISOR, "Tune_HistoryLmrDivisor", 8192, 1024, 65536;
    /// At most this many plies of reduction added or taken away by the statistics. 3
    /// against 2: s-hlmrlim3, +5.2 Elo (-3.0..+13.3) at 1,606 games (DESIGN.md §6.6).
    history_lmr_limit, HISTORY_LMR_LIMIT, "Tune_HistoryLmrLimit", 2, 0, 4;
    /// History bonus: the quadratic part per ply².
    bonus_quadratic, BONUS_QUADRATIC, "Tune_BonusQuadratic", 16, 0, 64;
    /// History bonus: the linear part per ply.
    bonus_linear, BONUS_LINEAR, "Tune_BonusLinear", 32, 0, 256;
    /// History bonus: the cap.
    bonus_max, BONUS_MAX, "Tune_BonusMax", 1500, 200, 4000;
    /// Ordering score of the counter move among quiescence evasions (killers: 90,000 and
    /// 80,000; the main search's picker tries it right after the killers, DESIGN.md §5.4).
    counter_move_bonus, COUNTER_MOVE_BONUS, "Tune_CounterMoveBonus", 70_000, 0, 100_000;
    /// First aspiration window half-width.
    aspiration_delta, ASPIRATION_DELTA, "Tune_AspirationDelta", 40, 5, 200;
    /// Quiescence: captures losing more than this by SEE are skipped (negative).
    qsearch_see_margin, QSEARCH_SEE_MARGIN, "Tune_QsearchSeeMargin", -120, -1000, 0;
    /// Nodes of at least this depth, not in check and without a table move, first ask the
    /// mate-in-one detector (0: never). 1 against 0 with `Tune_QsMate1` on, the new side at
    /// 13,300 nodes for its 0.888x speed: s-mate1d1, -43.4 Elo (-77.5..-10.2) at 362 games
    /// (DESIGN.md §6.6).
    mate1_depth, MATE1_DEPTH, "Tune_Mate1Depth", 0, 0, 64;
    /// Singular extension from this depth on, with a table move of at least depth - 3
    /// (0: never; DESIGN.md §4.12). 6: SPRT se6, +28.1 Elo (+10.8..+45.5), 1,551 games.
    singular_depth, SINGULAR_DEPTH, "Tune_SingularDepth", 6, 0, 64;
    /// Singular extension: the others must stay below the table score minus this per ply.
    singular_margin, SINGULAR_MARGIN, "Tune_SingularMargin", 2, 0, 20;
    /// Singular extension: 1 searches the table move of a cut node one ply shallower when
    /// it is not singular (0: only when the table's score is above beta). 1 against 0: SPRT
    /// s-sgcut1, H1, LLR 2.98, 1,428 games, +29.0 Elo (+11.4..+46.8).
    singular_cut_node_reduction, SINGULAR_CUT_NODE_REDUCTION, "Tune_SingularCutNodeReduction", 1, 0, 1;
    /// Internal iterative reduction from this depth on: a PV or cut node without a table
    /// move is searched one ply shallower (0: never; DESIGN.md §4.12). 4 against 0: SPRT
    /// s-iir4, H1, LLR 3.01, 1,720 games, +25.9 Elo (+9.5..+42.4).
    iir_depth, IIR_DEPTH, "Tune_IirDepth", 4, 0, 64;
    /// Quiescence plies after which only recaptures on the last move's square are
    /// searched (outside check; DESIGN.md §4.9).
    qs_recapture_ply, QS_RECAPTURE_PLY, "Tune_QsRecapturePly", 6, 1, 64;
    /// Captures, promotions and checks from this move index on are reduced by the log
    /// table less one ply (0: never; DESIGN.md §4.8). 6 against 0: SPRT s-noisy6c59,
    /// +18.1 Elo (+3.4..+32.8) at its cap of 2,000 games, undecided; not confirmed at
    /// 12,000 nodes (s-noisy6n12k, -4.8 Elo at 1,026 games; DESIGN.md §6.6).
    lmr_noisy_index, LMR_NOISY_INDEX, "Tune_LmrNoisyIndex", 0, 0, 64;
    /// Late quiet moves of a node expected to fail high (a cut node) are reduced this many
    /// plies more (DESIGN.md §4.8). With `Tune_LmrTtPv` 1, against both at 0: SPRT
    /// nodetype2, +29.9 Elo (+11.9..+48.1), 1,256 games.
    lmr_cut_node, LMR_CUT_NODE, "Tune_LmrCutNode", 1, 0, 4;
    /// Late quiet moves that are a killer or the counter move (the picker's refutations,
    /// DESIGN.md §5.4) are reduced this many plies less (0: like any other quiet move; 1
    /// against 0, SPRT s-lmrref1c55, +5.1 Elo at 1,016 games, DESIGN.md §6.6).
    lmr_refutation, LMR_REFUTATION, "Tune_LmrRefutation", 0, 0, 4;
    /// Late quiet moves are reduced a ply more once this many of the node's children (and
    /// of its earlier siblings' children) have failed high (0: never; undecided: SPRT
    /// s-cutcnt3, 3 against 0, +10.3 Elo at its cap of 2,000 games; run again on the
    /// current search, -21.8 Elo (-52.9..+8.9) at 495 games, DESIGN.md §6.6).
    lmr_cutoff_count, LMR_CUTOFF_COUNT, "Tune_LmrCutoffCount", 0, 0, 64;
    /// Late quiet moves of a node off the PV that was on one when the table saw it are
    /// reduced this many plies less (a PV node's: one ply less).
    lmr_tt_pv, LMR_TT_PV, "Tune_LmrTtPv", 1, 0, 4;
    /// Quiescence plies (from the first) that also try quiet checks that do not lose the
    /// checking piece by SEE (0: none; DESIGN.md §4.9). 1 against 0: SPRT qschecks2,
    /// H1, LLR 2.97, 1,723 games, +24.0 Elo (+8.3..+39.9). 2 against 1 (with
    /// `Tune_QsMate1` on): s-qschk2, -56.1 Elo (-94.8..-18.7) at 356 games (§6.6).
    qs_check_plies, QS_CHECK_PLIES, "Tune_QsCheckPlies", 1, 0, 2;
    /// Quiescence futility (DESIGN.md §4.9): a capture that neither promotes nor checks is
    /// skipped when the stand-pat score plus this margin plus what it takes (the piece on
    /// the board and in hand, by exchange values) stays at or below alpha (0: off). 200
    /// against 0: SPRT s-qsfut200, H1, LLR 2.97, 1,666 games, +24.6 Elo (+8.7..+40.7).
    qs_futility_margin, QS_FUTILITY_MARGIN, "Tune_QsFutilityMargin", 200, 0, 1000;
    /// A quiescence node whose stand pat reaches beta returns the mean of the two instead
    /// of the stand pat, and one whose best capture beats beta three quarters of its
    /// lead (0: the score itself; Stockfish's form). 1 against 0: SPRT s-qsfhblend1c57,
    /// H1, LLR 2.98, 1,385 games, W/D/L 745/11/629, +28.9 Elo (+11.3..+46.7), counted with
    /// repeated openings; verified on distinct ones (v-qsfhblend): no decision at the 2,946
    /// cap, +9.8 Elo (-2.4..+22.0), so kept (DESIGN.md §6.4).
    qs_fail_high_blend, QS_FAIL_HIGH_BLEND, "Tune_QsFailHighBlend", 1, 0, 1;
    /// Off the PV, a table lower bound at least this far above beta from a search at
    /// most four plies shallower cuts the node at beta plus this (0: off; Stockfish's
    /// "small ProbCut"; undecided: SPRT s-sprobcut200, 200 against 0, +7.4 Elo at 1,175
    /// games, DESIGN.md §6.6).
    small_probcut_margin, SMALL_PROBCUT_MARGIN, "Tune_SmallProbcutMargin", 0, 0, 2000;
    /// Late quiet moves are reduced by the log table from this move index on (DESIGN.md
    /// §6.2's `log_lmr`; Stockfish reduces from the second move). 2 against 3: SPRT
    /// s-lmrmin2, +2.1 Elo (-19.5..+23.7) at 1,003 games (DESIGN.md §6.6).
    lmr_min_move, LMR_MIN_MOVE, "Tune_LmrMinMove", 3, 1, 16;
    /// A table move whose score alone reaches beta, where the singular search does not
    /// extend it, is searched this many plies shallower (DESIGN.md §4.12; Stockfish's
    /// is 2 or more). 2 against 1: SPRT s-singneg2, -1.7 Elo (-21.7..+18.3) at 1,020
    /// games (DESIGN.md §6.6).
    singular_negative_extension, SINGULAR_NEGATIVE_EXTENSION, "Tune_SingularNegativeExtension", 1, 0, 3;
    /// Depth in hindsight (0: off; Stockfish's form, to test): a node its parent reduced
    /// by three plies or more is searched a ply deeper unless the opponent's position got
    /// worse (its static evaluation above minus the parent's), and one reduced by two or
    /// more a ply shallower when the two static evaluations add up to more than this
    /// margin (both sides think they stand well, so little happens here). 100 against 0:
    /// SPRT s-hindsight100, -36.7 Elo (-72.2..-1.9) at 380 games (DESIGN.md §6.6).
    hindsight_margin, HINDSIGHT_MARGIN, "Tune_HindsightMargin", 0, 0, 1000;
    /// Added to the ordering score of a quiet move that checks from its destination and
    /// does not lose the moved piece by SEE (0: checks ranked by their history alone;
    /// Stockfish's form). 16,384 against 0: SPRT s-qchk16k, +1.3 Elo (-17.9..+20.5) at
    /// 1,076 games (DESIGN.md §6.6).
    quiet_check_bonus, QUIET_CHECK_BONUS, "Tune_QuietCheckBonus", 0, 0, 100_000;
    /// Threats in the quiet moves' order (0: off; Stockfish's form, to test): a quiet move
    /// that takes a piece away from a square a cheaper enemy piece attacks, to one no
    /// cheaper piece attacks, ranks this times the piece's class higher (classes: 1 lance
    /// to gold-movers, 2 bishop and rook, 3 horse and dragon; pawns 0), and one that moves
    /// or drops a piece where a cheaper enemy piece attacks it ranks that much lower.
    /// 8,000 against 0: SPRT s-threat8k, +7.5 Elo (-9.0..+24.1) at 1,711 games, stopped by
    /// the early-stop rule (DESIGN.md §6.6).
    threat_escape_bonus, THREAT_ESCAPE_BONUS, "Tune_ThreatEscapeBonus", 0, 0, 100_000;
    /// Low-ply history (0: off; Stockfish's form): in the first four plies of a search, a
    /// quiet move's butterfly statistics of this search alone, at those plies, times this
    /// over (1 + ply), are added to its ordering score. 2 against 0: SPRT s-lowply2, -8.2
    /// Elo (-28.3..+11.9) at 1,021 games (DESIGN.md §6.6).
    low_ply_history, LOW_PLY_HISTORY, "Tune_LowPlyHistory", 0, 0, 32;
    /// 1: our move three moves ago (six plies back) keys a continuation history too,
    /// beside the moves 1, 2 and 4 plies back (DESIGN.md §5.3; Stockfish's). 1 against 0:
    /// SPRT s-cont6, +5.1 Elo (-16.2..+26.4) at 1,027 games (DESIGN.md §6.6).
    continuation_ply6, CONTINUATION_PLY6, "Tune_ContinuationPly6", 0, 0, 1;
    /// Late quiet moves that lose the moved piece by SEE are reduced this many plies more
    /// (0: like the others; to test).
    lmr_bad_quiet, LMR_BAD_QUIET, "Tune_LmrBadQuiet", 0, 0, 4;
    /// Quiescence move-count pruning (0: off): not in check, from this move
    /// index on only checks, promotions and recaptures on the last move's square are
    /// searched (Stockfish and YaneuraOu: from the third). 2 against 0: SPRT s-qsmcp2,
    /// +12.7 Elo (-2.3..+27.7) at its cap of 2,000 games, undecided (DESIGN.md §6.6).
    qs_move_count_prune, QS_MOVE_COUNT_PRUNE, "Tune_QsMoveCountPrune", 0, 0, 64;
    /// The opponent's last quiet move gains butterfly history by how the static evaluation
    /// moved across it: this times `clamp(-(parent's + ours), -90, 90) + 30` (0: off;
    /// Stockfish's and YaneuraOu's form). 24 against 0: SPRT s-evaldiff24, -40.8 Elo
    /// (-77.6..-5.0) at 343 games (DESIGN.md §6.6).
    eval_diff_history, EVAL_DIFF_HISTORY, "Tune_EvalDiffHistory", 0, 0, 200;
    /// Once a move raises alpha at a node of depth 3 to 13 (not the root), the remaining
    /// moves are searched this many plies shallower (0: off; Stockfish's form). 1 against
    /// 0: SPRT s-alpharaise1, -0.7 Elo (-20.9..+19.5) at 1,014 games (DESIGN.md §6.6).
    alpha_raise_reduction, ALPHA_RAISE_REDUCTION, "Tune_AlphaRaiseReduction", 0, 0, 3;
    /// 1: the quiescence stand pat is the table's score where its bound points the right
    /// way, as the main search's eval is (the futility bound stays on the static
    /// evaluation; 0: off). 1 against 0: SPRT s-qsttsp1, -23.1 Elo (-55.5..+8.9) at 422
    /// games (DESIGN.md §6.6).
    qs_tt_stand_pat, QS_TT_STAND_PAT, "Tune_QsTtStandPat", 0, 0, 1;
    /// 1: a singular search whose own score (not a mate) reaches beta cuts the node with
    /// that score, besides the multi-cut at the singular bound (0: off). 1 against 0: SPRT
    /// s-multicut1, -27.6 Elo (-62.3..+6.6) at 405 games (DESIGN.md §6.6).
    multi_cut_value, MULTI_CUT_VALUE, "Tune_MultiCutValue", 0, 0, 1;
    /// 1: the null move only at cut nodes (0: at any node off the PV; Stockfish's and
    /// YaneuraOu's form). 1 against 0: SPRT s-nmpcut1, -24.7 Elo (-57.7..+7.8) at 423
    /// games (DESIGN.md §6.6).
    nmp_cut_node_only, NMP_CUT_NODE_ONLY, "Tune_NmpCutNodeOnly", 0, 0, 1;
    /// Late quiet moves are reduced a ply less per this many centipawns by which the
    /// correction history moved the node's static evaluation (0: off). 100 against 0: SPRT
    /// s-lmrcorr100, -18.3 Elo (-43.9..+7.1) at 666 games (DESIGN.md §6.6).
    lmr_corr_divisor, LMR_CORR_DIVISOR, "Tune_LmrCorrDivisor", 0, 0, 1000;
    /// A reduced quiet move that beats alpha again at full depth gains this much
    /// continuation history (0: off; Stockfish's form). 600 against 0: SPRT s-postlmr600d
    /// (distinct openings), +7.9 Elo (-13.7..+29.5) at 1,012 games (DESIGN.md §6.6).
    post_lmr_bonus, POST_LMR_BONUS, "Tune_PostLmrBonus", 0, 0, 4000;
    /// A reduced quiet move that beat alpha reduced but fails low at full depth loses this
    /// much continuation history (0: off; Stockfish's form). 600 against 0: SPRT
    /// s-plmalus600, -5.5 Elo (-29.8..+18.6) on its 377 distinct positions (DESIGN.md §6.6).
    post_lmr_malus, POST_LMR_MALUS, "Tune_PostLmrMalus", 0, 0, 4000;
    /// Quiet moves whose statistics are below minus this are tried after the captures that
    /// lose material (0: off, every quiet move before them; Stockfish's order). 3,000
    /// against 0: SPRT s-badqord3k0, +7.2 Elo (-10.5..+25.0) at 1,008 games (DESIGN.md §6.6).
    bad_quiet_threshold, BAD_QUIET_THRESHOLD, "Tune_BadQuietThreshold", 0, 0, 100_000;
    /// 1: a quiescence result that tried quiet checks (or every evasion) is stored at
    /// depth 0, the others at -1, and a quiescence node that tries quiet checks takes a
    /// cut-off only from the first kind (0: every result at -1, each good for any
    /// quiescence node). With 0 a result from the second quiescence ply, searched
    /// without checks, answers a razoring probe at the first, which would try them: a mate
    /// in one by a quiet drop is missed (DESIGN.md §4.9). 1 against 0: SPRT s-qschktt1,
    /// +2.7 Elo (-18.3..+23.7) at 1,020 games, early-stopped (DESIGN.md §6.6).
    qs_check_tt_depth, QS_CHECK_TT_DEPTH, "Tune_QsCheckTtDepth", 0, 0, 1;
    /// 1: a quiescence node not in check whose stand pat is below beta first asks the
    /// mate-in-one detector (DESIGN.md §2.6), and a mate ends the node (0: off; YaneuraOu's
    /// quiescence does the same). Quiet checks are tried only at the first quiescence ply,
    /// and only those that keep the checking piece by SEE: a mate by a quiet drop further
    /// down is otherwise missed. 1 against 0, the new side at 14,300 nodes for its cost:
    /// SPRT s-qsmate1, H1, LLR 2.95, 482 games, +75.4 Elo (+44.5..+107.6) (DESIGN.md §4.9).
    qs_mate1, QS_MATE1, "Tune_QsMate1", 1, 0, 1;
    /// A quiescence stand pat above alpha loses this much when the opponent, were it to
    /// move, would have a mate in one (0: off). The stand pat assumes the side to
    /// move may pass, which a mate threat makes false, and quiescence tries no quiet
    /// defence; found in gauntlet losses where the engine rated itself far ahead while
    /// being mated. 250 against 0, the new side at 14,400 nodes for its cost: SPRT
    /// s-qsmt250, -12.5 Elo (-39.8..+14.7) at 614 games (DESIGN.md §6.6).
    qs_mate_threat, QS_MATE_THREAT, "Tune_QsMateThreat", 0, 0, 2000;
    /// A root move that becomes the best (or is searched first) is checked once per search
    /// by the mate solver for a mate by the opponent, within this many solver nodes
    /// (counted as search nodes; 0: off). Gauntlet and self-play losses showed the engine
    /// walking into mates the solver finds in tens to thousands of nodes. 1,000 from the
    /// first iteration: SPRT s-rmt1000, -26.8 Elo (-58.7..+4.7) at 442 games; 200 from the
    /// third: s-rmt200d3, -15.1 Elo (-36.1..+5.7) at 988 games (DESIGN.md §4.14).
    root_mate_threat_nodes, ROOT_MATE_THREAT_NODES, "Tune_RootMateThreatNodes", 0, 0, 1_000_000;
    /// The check of `Tune_RootMateThreatNodes` starts with the iteration of this depth: the
    /// first iterations change their best move often, and each new one would be checked.
    root_mate_threat_depth, ROOT_MATE_THREAT_DEPTH, "Tune_RootMateThreatDepth", 3, 1, 64;
    /// 1: a node whose null-move search finds the opponent mating prunes no quiet move by
    /// late-move or futility pruning (0: off): under a mate threat the moves that hold are
    /// few and often late in the order. 1 against 0: SPRT s-nmnoprune1, H1, LLR 3.16,
    /// 1,284 games, +9.5 Elo (+2.1..+16.9) (DESIGN.md §4.7).
    null_mate_no_prune, NULL_MATE_NO_PRUNE, "Tune_NullMateNoPrune", 1, 0, 1;
    /// 1: at such a node (see `Tune_NullMateNoPrune`) quiet moves are not SEE-pruned either
    /// (0: off): the interposing drop that holds a mate off often stands where it can be
    /// taken.
    null_mate_see_keep, NULL_MATE_SEE_KEEP, "Tune_NullMateSeeKeep", 0, 0, 1;
    /// 1: a node where no null move was searched asks, the first time late-move or
    /// futility pruning would skip a quiet move, whether the opponent would mate in one
    /// were it to move; if so the node counts as under a mate threat (see
    /// `Tune_NullMateNoPrune`) (0: off).
    mate1_threat_keep, MATE1_THREAT_KEEP, "Tune_Mate1ThreatKeep", 0, 0, 1;
    /// Late quiet drops at least three squares (king distance) from both kings are reduced
    /// this many plies more (0: off): most of a shogi node's moves are such drops, and few
    /// of them matter.
    lmr_far_drop, LMR_FAR_DROP, "Tune_LmrFarDrop", 0, 0, 3;
    /// 1: below the root the main search leaves out pawn, bishop and rook moves that could
    /// promote and do not (0: off; quiescence always does; YaneuraOu's generator does); 2:
    /// lance moves to their second rank that do not promote as well (YaneuraOu's too). 1
    /// against 0: s-skipunp1, +7.0 Elo (-9.7..+23.8) at 1,530 games, undecided (DESIGN.md
    /// §6.6).
    skip_unpromoted, SKIP_UNPROMOTED, "Tune_SkipUnpromoted", 0, 0, 2;
    /// Inside the search, a position whose board and side to move came back within 16
    /// plies with the side to move holding more in hand (and nothing less) scores this,
    /// one holding less minus this (0: off; YaneuraOu scores such cycles near a mate).
    /// 10,000 against 0: s-handcyc10k, -25.5 Elo (-57.7..+6.2) at 436 games (DESIGN.md
    /// §6.6).
    hand_cycle_score, HAND_CYCLE_SCORE, "Tune_HandCycleScore", 0, 0, 20000;
    /// A pawn history (the quiet statistics of each (piece, destination) by a hash of the
    /// board's pawns, Stockfish's) counts this many times in a quiet move's statistics (0:
    /// off): where the pawns stand decides which files take a pawn drop and where pawns
    /// strike. 1 against 0: stopped at 5,218 games, +7.7 Elo (-1.6..+17.1), LLR 1.20
    /// (DESIGN.md §6.6); to test again.
    pawn_history, PAWN_HISTORY, "Tune_PawnHistory", 0, 0, 4;
    /// 1: at a PV node the table move whose entry is deeper than one ply (or a mate found
    /// at depth 1 or more) is searched at least a ply deep, never in quiescence (0: off;
    /// YaneuraOu's rule).
    pv_tt_move_depth, PV_TT_MOVE_DEPTH, "Tune_PvTtMoveDepth", 0, 0, 1;
    /// Each fail high in a row at the root searches the widened window this many plies
    /// shallower, at least one ply (0: off; Stockfish's: the move that failed high is
    /// likely good, and a shallower search confirms it sooner).
    aspiration_fail_high_cut, ASPIRATION_FAIL_HIGH_CUT, "Tune_AspirationFailHighCut", 0, 0, 2;
    /// Late quiet moves of a node the table knows no move for are reduced this many plies
    /// more (0: off; Stockfish's).
    lmr_no_tt_move, LMR_NO_TT_MOVE, "Tune_LmrNoTtMove", 0, 0, 3;
    /// The quiet moves searched before a quiet cut move lose `max(bonus, this x depth)`,
    /// at most twice `Tune_BonusMax` (0: the cut move's bonus). 500 against 0: SPRT
    /// s-malus500, -16.9 Elo (-48.4..+14.4) at 494 games (DESIGN.md §6.6).
    quiet_malus_linear, QUIET_MALUS_LINEAR, "Tune_QuietMalusLinear", 0, 0, 2000;
    /// Correction history (DESIGN.md §4.13): the weight, in 256ths, of the board pawns'
    /// entry in the correction of the static evaluation.
    corr_pawn_weight, CORR_PAWN_WEIGHT, "Tune_CorrPawnWeight", 128, 0, 1024;
    /// The weight of each side's piece-placement entry (pieces other than pawns).
    corr_pieces_weight, CORR_PIECES_WEIGHT, "Tune_CorrPiecesWeight", 128, 0, 1024;
    /// The weight of the hands' entry.
    corr_hands_weight, CORR_HANDS_WEIGHT, "Tune_CorrHandsWeight", 128, 0, 1024;
    /// The weight of the entry of the last move (its piece and destination). 128 against
    /// 0: SPRT s-corr2-lastmove, H1, 1,611 games, +27.5 Elo (+10.3..+44.7).
    corr_last_move_weight, CORR_LAST_MOVE_WEIGHT, "Tune_CorrLastMoveWeight", 128, 0, 1024;
    /// 1: the null move's reply is searched as a node expected to fail low, whatever this
    /// node is (0: the opposite of this node's expectation; Stockfish and YaneuraOu pass
    /// "not a cut node" to the null move's search).
    null_child_all_node, NULL_CHILD_ALL_NODE, "Tune_NullChildAllNode", 0, 0, 1;
    /// 1: quiescence also skips a capture whose static exchange cannot lift stand pat plus
    /// `Tune_QsFutilityMargin` to alpha, its score taken as at most alpha (0: off;
    /// Stockfish's and YaneuraOu's second futility test in quiescence). 1 against 0:
    /// s-qsseefut1, -12.6 Elo (-33.5..+8.2) at 1,024 games (DESIGN.md §6.6).
    qs_see_futility, QS_SEE_FUTILITY, "Tune_QsSeeFutility", 0, 0, 1;
    /// 1: a quiet move skipped by futility pruning raises the node's best score to the
    /// futility bound (static eval plus margin), so a node that fails low stores that bound
    /// rather than a lower one (0: off; Stockfish's). 1 against 0 (with
    /// `Tune_PruneLmrDepth` 1): s-futbest3, early-stopped at 416 games, -25.9 Elo
    /// (-61.2..+8.8) (DESIGN.md §6.6).
    futility_raises_best, FUTILITY_RAISES_BEST, "Tune_FutilityRaisesBest", 0, 0, 1;
    /// Reverse futility only at nodes that were never on a PV (1), and also only where the
    /// table move is not quiet (2) (0: off; Stockfish's guards). 1 against 0: s-rfpguard1,
    /// +4.8 Elo (-15.5..+25.2) at 1,084 games (DESIGN.md §6.6).
    rfp_guard, RFP_GUARD, "Tune_RfpGuard", 0, 0, 2;
    /// 1: a node whose static evaluation reaches beta counts as improving once the null
    /// move has failed to cut it (0: off; Stockfish's). 1 against 0 (with
    /// `Tune_PruneLmrDepth` 1): s-impnull3, early-stopped at 1,018 games, -5.8 Elo
    /// (-26.5..+14.8) (DESIGN.md §6.6).
    improving_after_null, IMPROVING_AFTER_NULL, "Tune_ImprovingAfterNull", 0, 0, 1;
    /// 1: internal iterative reduction leaves the singular search's nodes alone (their
    /// table move is the excluded one, not an unknown one) (0: off; the peers' searches
    /// keep the excluded move as the table move). Not measurable at 15,000 nodes a move
    /// (s-sgnoiir1: 88 of 92 pairs scored one point; DESIGN.md §6.6).
    singular_no_iir, SINGULAR_NO_IIR, "Tune_SingularNoIir", 0, 0, 1;
    /// 1: a late quiet move's reduction is the log formula's alone (0: never less than the
    /// base design's 1-2 plies, §4.8, so good statistics and the PV cannot lower it below
    /// them; Stockfish has no such floor). 1 against 0: s-lmrnofloor1, +5.7 Elo
    /// (-14.5..+26.1) at 1,030 games (DESIGN.md §6.6).
    lmr_no_floor, LMR_NO_FLOOR, "Tune_LmrNoFloor", 0, 0, 1;
    /// 1: late-move pruning counts every move of the node so far, captures, checks and
    /// pruned moves included (0: the quiet moves searched; Stockfish and YaneuraOu count
    /// every move). 1 against 0: s-lmpall3, early-stopped at 542 games, -15.4 Elo
    /// (-43.8..+12.8) (DESIGN.md §6.6).
    lmp_count_all, LMP_COUNT_ALL, "Tune_LmpCountAll", 0, 0, 1;
    /// A table entry cuts a node only when it is deeper than the node where it says the
    /// node fails high (1), and also, below depth 6, only where the node is expected to
    /// fail the way the entry says (2) (0: any entry as deep as the node; Stockfish's
    /// conditions). 1 against 0: s-ttstrict1, -18.4 Elo (-51.1..+13.9) at 416 games
    /// (DESIGN.md §6.6).
    tt_cut_strict, TT_CUT_STRICT, "Tune_TtCutStrict", 0, 0, 2;
    /// 1: late-move pruning of quiet moves and SEE pruning of captures at PV nodes other
    /// than the root too (0: off the PV only; Stockfish prunes so at PV nodes). 1 against
    /// 0: s-pvprune1, H1 at 744 games, +54.1 Elo (+28.9..+80.0); verified at 12,000 nodes,
    /// v-pvprune1, H1 at 610 games, +58.1 (+31.6..+85.2); at 40,000 nodes, v2-pvprune1, H1
    /// at 1,046 games, +38.0 (+17.3..+59.0) (DESIGN.md §6.2). 2: futility
    /// pruning and the SEE pruning of quiet moves at those nodes as well (Stockfish's; 2
    /// against 1, s-pvprune2, early-stopped at 1,022 games, +4.8 (-15.8..+25.3): §6.6).
    pv_prune, PV_PRUNE, "Tune_PvPrune", 1, 0, 2;
    /// 1: a node that fails low stores itself as once on a PV when its parent was (0:
    /// off; Stockfish's), which `Tune_LmrTtPv` then reads.
    tt_pv_fail_low, TT_PV_FAIL_LOW, "Tune_TtPvFailLow", 0, 0, 1;
    /// 1: futility pruning and the SEE pruning of a quiet move take the depth its reduced
    /// search would have, the node's depth less a ply and the log table's reduction, for
    /// their depth limit and margins (0: the node's depth; Stockfish's `lmrDepth`).
    /// 1 against 0: s-prunelmrd1, H1 at 1,080 games, +37.8 Elo (+17.0..+58.8) (DESIGN.md
    /// §6.2).
    prune_lmr_depth, PRUNE_LMR_DEPTH, "Tune_PruneLmrDepth", 1, 0, 1;
    /// 1: a node that fails low updates the correction history even where its best-scoring
    /// move was a capture (0: a capture as best move never teaches it; Stockfish's best
    /// move is only one that raised alpha, so its fail-low nodes always teach).
    corr_fail_low_capture, CORR_FAIL_LOW_CAPTURE, "Tune_CorrFailLowCapture", 0, 0, 1;
}

impl SearchParams {
    /// `name = value` for every parameter that differs from its default ("" when none).
    pub fn changed(&self) -> String {
        PARAMS
            .iter()
            .zip(self.values)
            .filter(|(p, v)| p.default != *v)
            .map(|(p, v)| format!("{}={v}", p.name))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        let d = SearchParams::default();
        for (p, v) in PARAMS.iter().zip(d.values) {
            assert_eq!(p.default, v);
            assert!(p.min <= v && v <= p.max, "{}", p.name);
            assert!(p.name.starts_with("Tune_"));
        }
        let mut names: Vec<_> = PARAMS.iter().map(|p| p.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), PARAMS.len());
        assert_eq!(PARAMS[index::QSEARCH_SEE_MARGIN].default, -120);
        assert_eq!(d.changed(), "");
    }

    /// `scripts/arena/search.params` (the SPSA file) writes each parameter's default and a
    /// range again: it must start at today's defaults, inside the ranges the options accept.
    #[test]
    fn the_spsa_file_starts_at_the_defaults() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/arena/search.params");
        let text = std::fs::read_to_string(path).expect("scripts/arena/search.params");
        let mut lines = 0;
        for line in text.lines() {
            let words: Vec<&str> = line.split('#').next().unwrap().split_whitespace().collect();
            if words.is_empty() {
                continue;
            }
            assert_eq!(words.len(), 5, "{line}");
            let p = PARAMS.iter().find(|p| p.name == words[0]).expect(words[0]);
            let [start, min, max] = [1, 2, 3].map(|i| words[i].parse::<i32>().expect(line));
            assert_eq!(start, p.default, "{}: START is not the default", p.name);
            assert!(
                p.min <= min && max <= p.max,
                "{}: range outside the option's",
                p.name
            );
            lines += 1;
        }
        assert!(lines > 0);
    }
}
