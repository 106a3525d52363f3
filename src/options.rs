//! The option registry: the one owner of every engine option.
//!
//! Each [`OptionDef`] says, once, an option's name (and aliases), its kind with its range
//! or choices, whether it takes effect at `ready`, whether it is hidden (developer and
//! tuning options: not printed by USI `usi`, still settable and listed on request), what it
//! means, and how its value is read from and written to [`EngineOptions`]. Its default is
//! what it reads from `EngineOptions::default()`. The USI `usi` answer, `Engine::set_option`
//! and `Engine::get_option` (and so the CLI's `--option`, the C ABI's option calls and every
//! binding), and the README's option table (checked by a test) all come from [`OPTIONS`].

use crate::eval::nnue;
use crate::search::mate::DEFAULT_MATE_HASH_MIB;
use crate::search::params::{index as param, SearchParams, PARAMS};
use crate::search::skill::FULL_STRENGTH;
use crate::search::threads::ParallelMode;
use crate::search::time::TimeOptions;
use crate::search::worker::{Features, NEVER_RESIGN};
use crate::shogi::rules::DeclarationRule;

/// Largest hash table accepted, in MiB.
pub const MAX_HASH_MIB: usize = 1 << 20;
/// Largest mate-solver table accepted, in MiB.
pub const MAX_MATE_HASH_MIB: usize = 1 << 16;
/// Most principal variations a search reports (`MultiPV`, and `multipv` of a request).
pub const MAX_MULTIPV: u32 = 32;
/// Most search threads (`Threads`).
pub const MAX_THREADS: usize = 256;

/// Engine options (USI names in [`OPTIONS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// `USI_Hash` / `Hash`: table size in MiB (default 16).
    pub hash_mib: usize,
    /// `Threads`: search threads (1-256; Lazy SMP over the shared table).
    pub threads: usize,
    /// `MultiPV`: principal variations reported (1-32).
    pub multipv: u32,
    /// `NetworkDelay` (ms), `NetworkDelay2` (ms), `MinimumThinkingTime` (ms), `SlowMover` (%).
    pub time: TimeOptions,
    /// `EnteringKingRule`: `CSARule27` (default), `CSARule24`, `TryRule`, `NoEnteringKing`.
    pub declaration: DeclarationRule,
    /// `ParallelMode` (developer option): `lazy` (Lazy SMP, default) or `rootsplit`.
    pub parallel_mode: ParallelMode,
    /// `SearchFeatures` (developer option): techniques beyond the base design (DESIGN.md
    /// §6), a comma-separated list or `default`.
    pub features: Features,
    /// `USI_Ponder`: the GUI may send `go ponder` (no effect on the search itself).
    pub ponder: bool,
    /// `MaxMovesToDraw`: a game reaching this move number is a draw (0 = no limit).
    pub max_moves_to_draw: u32,
    /// `ResignValue`: resign when the final score is below minus this (99999: never).
    pub resign_value: i32,
    /// `DrawValueBlack` / `DrawValueWhite`: what a repetition draw is worth to the engine
    /// when it plays black / white (centipawns).
    pub draw_value: [i32; 2],
    /// `SkillLevel`: 0-20, 20 = full strength.
    pub skill_level: u32,
    /// `RandomSeed`: 0 = a new seed every time; otherwise book and skill choices repeat.
    pub random_seed: u64,
    /// `USI_OwnBook`: play from `BookFile` when the position is in it.
    pub own_book: bool,
    /// `BookFile`: a YaneuraOu DB2016 text book, loaded at `ready`.
    pub book_file: String,
    /// `MateHash`: size of the mate solver's proof-number table in MiB (default 64),
    /// allocated per mate search (it starts small and grows up to this).
    pub mate_hash_mib: usize,
    /// `RootMateSearch`: run the mate solver on a thread of its own beside each normal
    /// search; a proven mate ends the search and is played (default true).
    pub root_mate: bool,
    /// `EvalFile`: an NNUE net (YaneuraOu `nn.bin`, HalfKP 256x2-32-32), loaded at
    /// `ready`. A relative path is resolved against the process's working directory when
    /// the option is set. Empty: no net.
    pub eval_file: String,
    /// `EvalDir`: a folder holding `nn.bin` (YaneuraOu's option), used when `EvalFile` is
    /// empty; resolved like `EvalFile`.
    pub eval_dir: String,
    /// `FV_SCALE`: the net's output is divided by this (default 16).
    pub fv_scale: u32,
    /// `PvInterval`: least time between two info lines of iterations before the last (ms;
    /// 0: every iteration). The final line at the end of a search always comes.
    pub pv_interval_ms: u64,
    /// `ConsiderationMode`: analysis (検討) output: every iteration's lines regardless of
    /// `PvInterval`, and no fail-high / fail-low bound lines.
    pub consideration_mode: bool,
    /// `DepthLimit`: no search goes deeper than this (0: no limit), whatever it asks.
    pub depth_limit: u32,
    /// `NodesLimit`: no search counts more nodes than this (0: no limit).
    pub nodes_limit: u64,
    /// `Tune_*` (hidden): the search parameters (DESIGN.md §6.5).
    pub search: SearchParams,
}

/// The default of `PvInterval` (ms): GUIs redraw their PV pane about as often.
pub const DEFAULT_PV_INTERVAL_MS: u64 = 200;

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mib: 16,
            threads: 1,
            multipv: 1,
            time: TimeOptions::default(),
            declaration: DeclarationRule::Csa27,
            features: Features::default(),
            parallel_mode: ParallelMode::Lazy,
            ponder: true,
            max_moves_to_draw: 0,
            resign_value: NEVER_RESIGN,
            draw_value: [0, 0],
            skill_level: FULL_STRENGTH,
            random_seed: 0,
            own_book: false,
            book_file: String::new(),
            mate_hash_mib: DEFAULT_MATE_HASH_MIB,
            root_mate: true,
            eval_file: String::new(),
            eval_dir: String::new(),
            fv_scale: nnue::DEFAULT_FV_SCALE as u32,
            pv_interval_ms: DEFAULT_PV_INTERVAL_MS,
            consideration_mode: false,
            depth_limit: 0,
            nodes_limit: 0,
            search: SearchParams::default(),
        }
    }
}

/// The type, default and range of an option, as the USI `option` line shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin {
        /// The default value.
        default: i64,
        /// The least value accepted.
        min: i64,
        /// The greatest value accepted.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// The default value.
        default: bool,
    },
    /// One of a fixed list of words.
    Combo {
        /// The default choice.
        default: &'static str,
        /// Every choice, in the order `usi` prints them.
        vars: &'static [&'static str],
    },
    /// Free text.
    String {
        /// The default value.
        default: String,
    },
    /// A file or directory path.
    Filename {
        /// The default value.
        default: String,
    },
}

/// One engine option as a GUI sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option's name, as `usi` prints it.
    pub name: &'static str,
    /// Its kind, default and range or choices.
    pub kind: OptionKind,
}

/// What values an option takes (its default comes from `EngineOptions::default()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// An integer in `min..=max`.
    /// An integer in `min..=max`.
    Spin {
        /// The least value accepted.
        min: i64,
        /// The greatest value accepted.
        max: i64,
    },
    /// `true` or `false`.
    Check,
    /// One of these words.
    Combo(&'static [&'static str]),
    /// Any text.
    String,
    /// A file name (any text; GUIs offer a file dialog).
    Filename,
}

/// A value checked against its option's [`ValueKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value<'a> {
    /// The value of a spin option.
    Int(i64),
    /// The value of a check option.
    Bool(bool),
    /// The value of a combo, string or filename option.
    Text(&'a str),
}

/// Something a setter cannot do on the options alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideEffect {
    /// Nothing beyond storing the value.
    None,
    /// Reseed the engine's book and skill choices (`RandomSeed`).
    Reseed,
}

/// One entry of the registry.
pub struct OptionDef {
    /// The USI name, as `usi` prints it.
    pub name: &'static str,
    /// Other names `set_option` accepts (case-insensitive like the name).
    pub aliases: &'static [&'static str],
    /// Its kind, with range or choices.
    pub kind: ValueKind,
    /// Developer and tuning options: not printed by `usi`, still settable and listed when
    /// asked for.
    pub hidden: bool,
    /// The value is checked when set and used at the next `ready` (or `go`): table sizes,
    /// files to load.
    pub at_ready: bool,
    /// What the option does (the README table's last column).
    pub help: &'static str,
    /// What the engine does when the value changes, besides storing it.
    pub side_effect: SideEffect,
    read: fn(&EngineOptions) -> String,
    write: fn(&mut EngineOptions, Value<'_>) -> Result<(), String>,
}

const ENTERING_KING_RULES: &[&str] = &["NoEnteringKing", "CSARule24", "CSARule27", "TryRule"];
const PARALLEL_MODES: &[&str] = &["lazy", "rootsplit"];

fn int(v: Value<'_>) -> i64 {
    match v {
        Value::Int(i) => i,
        _ => unreachable!("a spin option gets an integer"),
    }
}

fn boolean(v: Value<'_>) -> bool {
    match v {
        Value::Bool(b) => b,
        _ => unreachable!("a check option gets a boolean"),
    }
}

fn text(v: Value<'_>) -> &str {
    match v {
        Value::Text(t) => t,
        _ => unreachable!("a text option gets text"),
    }
}

/// `s` unless it is empty (GUIs send `<empty>` for an empty string).
pub(crate) fn non_empty(s: &str) -> Option<&str> {
    let s = s.trim();
    (!s.is_empty() && s != "<empty>").then_some(s)
}

/// `value` as an absolute path (relative to the working directory now), or as given when
/// it is empty or the working directory is unknown.
fn absolute_path(value: &str) -> String {
    match non_empty(value) {
        Some(v) => std::path::absolute(v)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| v.to_string()),
        None => String::new(),
    }
}

fn declaration_name(d: DeclarationRule) -> &'static str {
    match d {
        DeclarationRule::Csa27 => "CSARule27",
        DeclarationRule::Points24 => "CSARule24",
        DeclarationRule::Try => "TryRule",
        DeclarationRule::Off => "NoEnteringKing",
    }
}

/// A spin option over an integer field, with its range.
macro_rules! spin {
    ($name:literal, $min:expr, $max:expr, |$o:ident| $field:expr, $help:literal) => {
        OptionDef {
            name: $name,
            aliases: &[],
            kind: ValueKind::Spin {
                min: $min as i64,
                max: $max as i64,
            },
            hidden: false,
            at_ready: false,
            help: $help,
            side_effect: SideEffect::None,
            read: |$o| $field.to_string(),
            write: |$o, v| {
                // In range: checked by `OptionDef::parse` against the same bounds.
                $field = int(v) as _;
                Ok(())
            },
        }
    };
}

/// A check option over a boolean field.
macro_rules! check {
    ($name:literal, |$o:ident| $field:expr, $help:literal) => {
        OptionDef {
            name: $name,
            aliases: &[],
            kind: ValueKind::Check,
            hidden: false,
            at_ready: false,
            help: $help,
            side_effect: SideEffect::None,
            read: |$o| $field.to_string(),
            write: |$o, v| {
                $field = boolean(v);
                Ok(())
            },
        }
    };
}

/// A file or folder option over a string field, used at `ready`; `store` makes the stored
/// text of the value.
macro_rules! path {
    ($name:literal, $kind:expr, |$o:ident| $field:expr, $store:expr, $help:literal) => {
        OptionDef {
            name: $name,
            aliases: &[],
            kind: $kind,
            hidden: false,
            at_ready: true,
            help: $help,
            side_effect: SideEffect::None,
            read: |$o| $field.clone(),
            write: |$o, v| {
                $field = $store(text(v));
                Ok(())
            },
        }
    };
}

/// A hidden spin over one search parameter: name and range from the parameter table.
macro_rules! tune {
    ($index:ident) => {
        OptionDef {
            name: PARAMS[param::$index].name,
            aliases: &[],
            kind: ValueKind::Spin {
                min: PARAMS[param::$index].min as i64,
                max: PARAMS[param::$index].max as i64,
            },
            hidden: true,
            at_ready: false,
            help: "search parameter (DESIGN.md §6.5), for SPSA and SPRT tests",
            side_effect: SideEffect::None,
            read: |o| o.search.values[param::$index].to_string(),
            write: |o, v| {
                o.search.values[param::$index] = int(v) as i32;
                Ok(())
            },
        }
    };
}

/// Every option, in the order a GUI shows them.
///
/// ```
/// let hash = hayanagi::OPTIONS.iter().find(|o| o.name == "USI_Hash").unwrap();
/// assert_eq!(hash.default_text(), "16");
/// assert!(hash.at_ready && !hash.hidden);
/// ```
pub static OPTIONS: &[OptionDef] = &[
    OptionDef {
        aliases: &["Hash"],
        at_ready: true,
        ..spin!("USI_Hash", 1, MAX_HASH_MIB, |o| o.hash_mib, "transposition table size (MiB); allocated at `isready`, or at the next `go`")
    },
    spin!("Threads", 1, MAX_THREADS, |o| o.threads, "Lazy SMP threads"),
    spin!("MateHash", 1, MAX_MATE_HASH_MIB, |o| o.mate_hash_mib, "most memory of the mate solver's proof-number table, per mate search, in MiB (it starts at 256 KiB and grows)"),
    check!("RootMateSearch", |o| o.root_mate, "run the mate solver on its own thread beside every normal search (one line, all root moves, full strength); a proven mate ends the search and is played"),
    spin!("MultiPV", 1, MAX_MULTIPV, |o| o.multipv, "principal variations reported"),
    check!("USI_Ponder", |o| o.ponder, "the GUI may ponder"),
    spin!("NetworkDelay", 0, 10_000, |o| o.time.network_delay, "kept back from every clock deadline (ms); from a byoyomi at most a tenth of it; never from movetime"),
    spin!("NetworkDelay2", 0, 10_000, |o| o.time.network_delay2, "kept back from the whole time left (clock + byoyomi) for the hard limit while the main clock runs (ms)"),
    spin!("MinimumThinkingTime", 0, 60_000, |o| o.time.minimum_thinking_time, "think at least this long when the clock allows (ms)"),
    spin!("SlowMover", 1, 1000, |o| o.time.slow_mover, "scales the planned time per move (%)"),
    OptionDef {
        name: "EnteringKingRule",
        aliases: &[],
        kind: ValueKind::Combo(ENTERING_KING_RULES),
        hidden: false,
        at_ready: false,
        help: "the entering-king declaration rule",
        side_effect: SideEffect::None,
        read: |o| declaration_name(o.declaration).to_string(),
        write: |o, v| {
            o.declaration = match text(v) {
                "CSARule27" => DeclarationRule::Csa27,
                "CSARule24" => DeclarationRule::Points24,
                "TryRule" => DeclarationRule::Try,
                _ => DeclarationRule::Off,
            };
            Ok(())
        },
    },
    spin!("MaxMovesToDraw", 0, 100_000, |o| o.max_moves_to_draw, "a game reaching this move number is drawn (0: no limit)"),
    spin!("ResignValue", 0, NEVER_RESIGN, |o| o.resign_value, "resign when the score is below minus this (99999: never while a move exists)"),
    spin!("DrawValueBlack", -30_000, 30_000, |o| o.draw_value[0], "what a repetition draw is worth to the engine playing black (cp)"),
    spin!("DrawValueWhite", -30_000, 30_000, |o| o.draw_value[1], "what a repetition draw is worth to the engine playing white (cp)"),
    check!("USI_OwnBook", |o| o.own_book, "play from `BookFile`"),
    path!(
        "BookFile",
        ValueKind::Filename,
        |o| o.book_file,
        |v: &str| v.trim().to_string(),
        "YaneuraOu \"DB2016\" text book, loaded at `isready`; moves chosen by their count; bad lines skipped with a warning"
    ),
    spin!("DepthLimit", 0, crate::request::MAX_DEPTH, |o| o.depth_limit, "no search goes deeper than this, whatever `go` asks (0: no limit)"),
    spin!("NodesLimit", 0, i64::MAX, |o| o.nodes_limit, "no search counts more nodes than this, whatever `go` asks (0: no limit)"),
    spin!("PvInterval", 0, 60_000, |o| o.pv_interval_ms, "least time between info lines of unfinished searches (ms; 0: every iteration; `go infinite` shows every iteration); the final line always comes"),
    check!("ConsiderationMode", |o| o.consideration_mode, "analysis output: every iteration's lines whatever `PvInterval` says, no fail-high/low bound lines"),
    spin!("SkillLevel", 0, FULL_STRENGTH, |o| o.skill_level, "below 20: depth capped at level + 1, four root moves compared, a worse move chosen with weight exp(-loss / ((20 - level) x 15 cp))"),
    OptionDef {
        side_effect: SideEffect::Reseed,
        ..spin!("RandomSeed", 0, i64::MAX, |o| o.random_seed, "0: new choices each run; otherwise book and skill choices repeat exactly")
    },
    OptionDef {
        name: "ParallelMode",
        aliases: &[],
        kind: ValueKind::Combo(PARALLEL_MODES),
        hidden: true,
        at_ready: false,
        help: "developer option: `lazy` (Lazy SMP) or `rootsplit` (root moves handed out to the threads)",
        side_effect: SideEffect::None,
        read: |o| match o.parallel_mode {
            ParallelMode::Lazy => "lazy".into(),
            ParallelMode::RootSplit => "rootsplit".into(),
        },
        write: |o, v| {
            o.parallel_mode = if text(v) == "rootsplit" {
                ParallelMode::RootSplit
            } else {
                ParallelMode::Lazy
            };
            Ok(())
        },
    },
    OptionDef {
        name: "SearchFeatures",
        aliases: &[],
        kind: ValueKind::String,
        hidden: true,
        at_ready: false,
        help: "developer option: the search techniques beyond the base design, a comma-separated list, `none` or `default`",
        side_effect: SideEffect::None,
        read: |o| {
            if o.features == Features::default() {
                "default".into()
            } else {
                o.features.to_list()
            }
        },
        write: |o, v| {
            o.features = match text(v).trim() {
                "default" => Features::default(),
                list => Features::parse(list)?,
            };
            Ok(())
        },
    },
    // Paths are made absolute when set, so that a later change of working directory does
    // not change which file they name.
    path!(
        "EvalFile",
        ValueKind::Filename,
        |o| o.eval_file,
        absolute_path,
        "an NNUE net, YaneuraOu `nn.bin` HalfKP 256x2-32-32, loaded at `isready` (see \"NNUE evaluation\" below); empty or `<empty>`: the hand-crafted evaluation"
    ),
    path!(
        "EvalDir",
        ValueKind::String,
        |o| o.eval_dir,
        absolute_path,
        "a folder holding `nn.bin` (YaneuraOu's option), used when `EvalFile` is empty"
    ),
    spin!("FV_SCALE", 1, 128, |o| o.fv_scale, "the net's output is divided by this (Suisho5 recommends 24)"),
    tune!(RFP_MARGIN),
    tune!(RFP_DEPTH),
    tune!(RAZOR_MARGIN),
    tune!(RAZOR_DEPTH),
    tune!(FUTILITY_BASE),
    tune!(FUTILITY_MARGIN),
    tune!(LMP_BASE),
    tune!(LMP_DEPTH),
    tune!(FUTILITY_DEPTH),
    tune!(CAPTURE_FUTILITY_MARGIN),
    tune!(NMP_BASE),
    tune!(NMP_DEPTH_DIVISOR),
    tune!(NMP_EVAL_DIVISOR),
    tune!(SEE_CAPTURE_MARGIN),
    tune!(SEE_QUIET_MARGIN),
    tune!(LMR_DIVISOR),
    tune!(HISTORY_LMR_DIVISOR),
    tune!(HISTORY_LMR_LIMIT),
    tune!(BONUS_QUADRATIC),
    tune!(BONUS_LINEAR),
    tune!(BONUS_MAX),
    tune!(COUNTER_MOVE_BONUS),
    tune!(ASPIRATION_DELTA),
    tune!(QSEARCH_SEE_MARGIN),
    tune!(MATE1_DEPTH),
    tune!(SINGULAR_DEPTH),
    tune!(SINGULAR_MARGIN),
    tune!(QS_RECAPTURE_PLY),
    tune!(LMR_NOISY_INDEX),
    tune!(LMR_CUT_NODE),
    tune!(LMR_TT_PV),
    tune!(LMR_REFUTATION),
    tune!(QS_CHECK_PLIES),
    tune!(QS_FUTILITY_MARGIN),
    tune!(CORR_PAWN_WEIGHT),
    tune!(CORR_PIECES_WEIGHT),
    tune!(CORR_HANDS_WEIGHT),
    tune!(CORR_LAST_MOVE_WEIGHT),
    tune!(SINGULAR_CUT_NODE_REDUCTION),
    tune!(IIR_DEPTH),
    tune!(LMR_CUTOFF_COUNT),
    tune!(QS_FAIL_HIGH_BLEND),
    tune!(SMALL_PROBCUT_MARGIN),
    tune!(LMR_MIN_MOVE),
    tune!(SINGULAR_NEGATIVE_EXTENSION),
    tune!(HINDSIGHT_MARGIN),
    tune!(QUIET_CHECK_BONUS),
    tune!(THREAT_ESCAPE_BONUS),
    tune!(LOW_PLY_HISTORY),
    tune!(CONTINUATION_PLY6),
    tune!(LMR_BAD_QUIET),
    tune!(QS_MOVE_COUNT_PRUNE),
    tune!(EVAL_DIFF_HISTORY),
    tune!(ALPHA_RAISE_REDUCTION),
    tune!(QS_TT_STAND_PAT),
    tune!(MULTI_CUT_VALUE),
    tune!(NMP_CUT_NODE_ONLY),
    tune!(LMR_CORR_DIVISOR),
    tune!(POST_LMR_BONUS),
    tune!(POST_LMR_MALUS),
    tune!(BAD_QUIET_THRESHOLD),
    tune!(QS_CHECK_TT_DEPTH),
    tune!(QS_MATE1),
    tune!(QS_MATE_THREAT),
    tune!(ROOT_MATE_THREAT_NODES),
    tune!(ROOT_MATE_THREAT_DEPTH),
    tune!(NULL_MATE_NO_PRUNE),
    tune!(NULL_MATE_SEE_KEEP),
    tune!(MATE1_THREAT_KEEP),
    tune!(LMR_FAR_DROP),
    tune!(SKIP_UNPROMOTED),
    tune!(HAND_CYCLE_SCORE),
    tune!(PAWN_HISTORY),
    tune!(PV_TT_MOVE_DEPTH),
    tune!(ASPIRATION_FAIL_HIGH_CUT),
    tune!(LMR_NO_TT_MOVE),
    tune!(QUIET_MALUS_LINEAR),
    tune!(NMP_MIN_DEPTH),
    tune!(NULL_CHILD_ALL_NODE),
    tune!(QS_SEE_FUTILITY),
    tune!(FUTILITY_RAISES_BEST),
    tune!(RFP_GUARD),
    tune!(IMPROVING_AFTER_NULL),
    tune!(SINGULAR_NO_IIR),
    tune!(LMR_NO_FLOOR),
    tune!(LMP_COUNT_ALL),
    tune!(TT_CUT_STRICT),
    tune!(PV_PRUNE),
    tune!(TT_PV_FAIL_LOW),
    tune!(PRUNE_LMR_DEPTH),
    tune!(CORR_FAIL_LOW_CAPTURE),
];

/// The option called `name` (or one of its aliases), case-insensitively.
pub fn find(name: &str) -> Option<&'static OptionDef> {
    OPTIONS.iter().find(|d| {
        d.name.eq_ignore_ascii_case(name) || d.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    })
}

/// `a, b or c`.
fn one_of(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

impl OptionDef {
    /// Check `value` against the option's kind.
    pub fn parse<'a>(&self, value: &'a str) -> Result<Value<'a>, String> {
        match self.kind {
            ValueKind::Spin { min, max } => {
                let text = value.trim();
                // A sign only where negative values exist ("-0" is no count).
                let v = if min >= 0 {
                    text.parse::<u64>().map(i128::from)
                } else {
                    text.parse::<i64>().map(i128::from)
                }
                .map_err(|_| "not a number".to_string())?;
                if v < min as i128 || v > max as i128 {
                    return Err(format!("must be between {min} and {max}"));
                }
                Ok(Value::Int(v as i64))
            }
            ValueKind::Check => match value.trim() {
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                _ => Err("expected true or false".into()),
            },
            ValueKind::Combo(vars) => {
                let v = value.trim();
                if vars.contains(&v) {
                    Ok(Value::Text(v))
                } else {
                    Err(format!("expected {}", one_of(vars)))
                }
            }
            ValueKind::String | ValueKind::Filename => Ok(Value::Text(value)),
        }
    }

    /// Set the option in `options` from its text (checked first).
    pub fn apply(&self, options: &mut EngineOptions, value: &str) -> Result<(), String> {
        let v = self.parse(value)?;
        (self.write)(options, v)
    }

    /// The option's value in `options`, as text a `set_option` takes back.
    pub fn read(&self, options: &EngineOptions) -> String {
        (self.read)(options)
    }

    /// The default value, as text.
    pub fn default_text(&self) -> String {
        (self.read)(&EngineOptions::default())
    }

    /// Kind, default and range as the USI `option` line shows them.
    pub fn spec(&self) -> OptionSpec {
        let default = self.default_text();
        let kind = match self.kind {
            ValueKind::Spin { min, max } => OptionKind::Spin {
                default: default.parse().expect("a spin default is a number"),
                min,
                max,
            },
            ValueKind::Check => OptionKind::Check {
                default: default == "true",
            },
            ValueKind::Combo(vars) => OptionKind::Combo {
                default: vars
                    .iter()
                    .find(|v| **v == default)
                    .expect("a combo default is one of its choices"),
                vars,
            },
            ValueKind::String => OptionKind::String { default },
            ValueKind::Filename => OptionKind::Filename { default },
        };
        OptionSpec {
            name: self.name,
            kind,
        }
    }

    /// The option's USI `option name ... type ...` line.
    pub fn usi_line(&self) -> String {
        let or_empty = |s: String| {
            if s.is_empty() {
                "<empty>".to_string()
            } else {
                s
            }
        };
        let kind = match self.spec().kind {
            OptionKind::Spin { default, min, max } => {
                format!("spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => format!("check default {default}"),
            OptionKind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("combo default {default}{vars}")
            }
            OptionKind::String { default } => format!("string default {}", or_empty(default)),
            OptionKind::Filename { default } => format!("filename default {}", or_empty(default)),
        };
        format!("option name {} type {kind}", self.name)
    }
}

/// The options a GUI is shown (the hidden ones left out), in order.
pub fn option_specs() -> Vec<OptionSpec> {
    OPTIONS
        .iter()
        .filter(|d| !d.hidden)
        .map(OptionDef::spec)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_reads_back_and_is_accepted_by_its_own_option() {
        for def in OPTIONS {
            let mut o = EngineOptions::default();
            let default = def.default_text();
            def.apply(&mut o, &default)
                .unwrap_or_else(|e| panic!("{}: default '{default}' refused: {e}", def.name));
            assert_eq!(o, EngineOptions::default(), "{}", def.name);
            let _ = def.spec();
        }
    }

    /// Every search parameter is a hidden spin option over its own range and sets its own
    /// value (a parameter left out of `OPTIONS` could not be tuned or tested, and a test
    /// that sends it would compare an engine with itself).
    #[test]
    fn every_search_parameter_is_a_hidden_option_that_sets_it() {
        for (i, p) in PARAMS.iter().enumerate() {
            let def = find(p.name).unwrap_or_else(|| panic!("{} is no option", p.name));
            assert!(def.hidden, "{}", p.name);
            assert!(
                matches!(def.kind, ValueKind::Spin { min, max } if min == p.min as i64 && max == p.max as i64),
                "{}",
                p.name
            );
            let mut o = EngineOptions::default();
            def.apply(&mut o, &p.max.to_string()).unwrap();
            assert_eq!(o.search.values[i], p.max, "{}", p.name);
        }
    }

    #[test]
    fn names_and_aliases_are_unique_and_found_in_any_case() {
        let mut all: Vec<String> = OPTIONS
            .iter()
            .flat_map(|d| std::iter::once(d.name).chain(d.aliases.iter().copied()))
            .map(str::to_ascii_lowercase)
            .collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n);
        assert_eq!(find("hash").map(|d| d.name), Some("USI_Hash"));
        assert_eq!(find("fv_scale").map(|d| d.name), Some("FV_SCALE"));
        assert!(find("NoSuchOption").is_none());
    }

    #[test]
    fn values_round_trip_through_read() {
        let cases = [
            ("USI_Hash", "64"),
            ("DrawValueBlack", "-20"),
            ("EnteringKingRule", "TryRule"),
            ("ParallelMode", "rootsplit"),
            ("SearchFeatures", "futility,razoring"),
            ("SearchFeatures", "none"),
            ("USI_Ponder", "false"),
        ];
        for (name, value) in cases {
            let def = find(name).unwrap();
            let mut o = EngineOptions::default();
            def.apply(&mut o, value).unwrap();
            assert_eq!(def.read(&o), value, "{name}");
        }
    }

    #[test]
    fn bad_values_say_why() {
        let mut o = EngineOptions::default();
        let err = |name: &str, v: &str| find(name).unwrap().apply(&mut o.clone(), v).unwrap_err();
        assert_eq!(err("Threads", "0"), "must be between 1 and 256");
        assert_eq!(err("Threads", "many"), "not a number");
        assert_eq!(err("USI_OwnBook", "yes"), "expected true or false");
        assert_eq!(
            err("EnteringKingRule", "Sometimes"),
            "expected NoEnteringKing, CSARule24, CSARule27 or TryRule"
        );
        assert!(err("SearchFeatures", "warp").contains("unknown search feature"));
        assert!(find("MultiPV").unwrap().apply(&mut o, "32").is_ok());
    }
}
