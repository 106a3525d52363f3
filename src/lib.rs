//! hayanagi: an embeddable shogi engine.
//!
//! The product is the C ABI (`include/hayanagi.h`); this crate root is the Rust API it
//! mirrors. Every module is private: what a Rust user gets is the curated set below.
//!
//! * [`Engine`]: the engine facade. Options, the position, searches ([`Engine::go`] with
//!   [`Limits`], answers through sinks: [`Info`], [`BestMove`]), the mate solver
//!   ([`Engine::go_mate`] with a [`MateRequest`], answering a [`MateReport`]).
//! * Options: [`EngineOptions`] and the option registry ([`OPTIONS`], one [`OptionDef`] per
//!   option), the single owner of names, kinds, defaults and ranges.
//! * Rules: [`Position`] (SFEN in and out through [`FromStr`](std::str::FromStr) and
//!   [`Display`](std::fmt::Display)), [`Move`], move generation ([`legal`],
//!   [`generate`]), [`perft`], game outcomes ([`GameRules`], [`GameState`]).
//! * Evaluation: [`Evaluator`] (classical or an NNUE [`Network`] loaded from `nn.bin`;
//!   its HalfKP features through [`nnue_active_features`], for trainers).
//! * Learning: [`generate_training_data`] (self-play positions as [`TrainingRecord`]s, the
//!   `PackedSfenValue` of YaneuraOu's learner, positions packed as [`PackedSfen`]).
//! * Front ends: [`serve_stdio`] (the USI engine) and [`run_bench`] (the bench signature).
//!
//! ```
//! use hayanagi::{BestMove, Engine, Limits};
//!
//! let engine = Engine::new();
//! engine.set_position("startpos moves 7g7f 3c3d").unwrap();
//! let result = engine.search_blocking(Limits { depth: Some(4), ..Limits::default() }).unwrap();
//! assert!(matches!(result.best, BestMove::Move { .. }));
//! ```
//!
//! The design the code follows is written in `docs/DESIGN.md`.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod bench;
mod book;
mod engine;
mod eval;
mod learn;
mod options;
mod request;
mod search;
mod shogi;
mod usi;
mod util;

/// The C ABI (`include/hayanagi.h`), callable from Rust too: the in-process tests drive it
/// directly. Not part of the Rust API; C hosts see it through the header.
#[doc(hidden)]
pub mod ffi;

pub use bench::{run_bench, BenchSummary, BENCH_POSITIONS};
pub use engine::{
    reporting_search_id, BestMoveSink, Engine, EngineError, InfoSink, LogSink, MateRequest,
    MateSink, ProgressSink, SearchState, TtProbe,
};
pub use eval::classic::{features as classic_features, weighted_sum as classic_weighted_sum};
// Read-only HalfKP numbering for trainers (tools/nnue-train): the one owner of the feature
// indices, so a trainer's table lines up with the loader's.
pub use eval::nnue::features::{
    active_features as nnue_active_features, can_evaluate as nnue_can_evaluate,
    ACTIVE_FEATURES as NNUE_ACTIVE_FEATURES, FE_END as NNUE_FE_END, N_FEATURES as NNUE_FEATURES,
};
pub use eval::nnue::{
    load_bytes as load_network_bytes, load_file as load_network, LoadError, LoadErrorKind,
    Loaded as LoadedNetwork, NnueEvaluator, SimdLevel, DEFAULT_FV_SCALE,
};
pub use eval::weights::{layout as classic_layout, weights as classic_weights, Weights};
pub use eval::{ClassicEvaluator, EvalConfig, EvalKind, Evaluator, Network};
pub use learn::gensfen::{
    generate as generate_training_data, GensfenConfig, GensfenError, GensfenProgress,
    HANDICAP_STARTS,
};
pub use learn::leaf::{quiet_leaf, quiet_line, QUIET_LINE_MAX_PLIES};
pub use learn::record::{TrainingRecord, RECORD_BYTES};
pub use options::{
    option_specs, EngineOptions, OptionDef, OptionKind, OptionSpec, SideEffect, Value, ValueKind,
    MAX_HASH_MIB, MAX_MATE_HASH_MIB, MAX_MULTIPV, MAX_THREADS, OPTIONS,
};
pub use request::{perft_depth, MAX_DEPTH, MAX_PERFT_DEPTH};
pub use search::mate::{
    is_mating_line, solve as solve_mate, MateCounters, MateLimits, MateReport, MateResult,
    DEFAULT_MATE_HASH_MIB,
};
#[doc(hidden)]
pub use search::mate::{solve_variant as solve_mate_variant, MateVariant};
pub use search::threads::ParallelMode;
pub use search::time::TimeOptions;
pub use search::worker::{Features, SearchResult, NEVER_RESIGN};
pub use search::{
    BestMove, Info, Limits, Progress, Score, ScoreBound, TranspositionTable, MATE, MAX_PLY,
};
pub use shogi::packed_sfen::{
    move_from_psv, move_to_psv, PackedSfen, PackedSfenError, UnpackedSfen,
};
pub use shogi::perft::{perft, perft_divide, perft_stats, PerftStats};
pub use shogi::see::see_value;
pub use shogi::{
    generate, legal, legal_in_usi_order, Bitboard, Color, DeclarationRule, DrawReason, GameRules,
    GameState, GenType, Hand, Move, MoveError, MoveList, Piece, PieceType, Position, PositionError,
    Repetition, SfenError, SfenErrorKind, SfenField, Square, Validation, WinReason, STARTPOS_SFEN,
};
pub use usi::serve_stdio;
pub use util::memory::AllocError;
