//! Subcommands of the `hayanagi` binary. Each takes the position as `--sfen P` (`startpos`,
//! a bare SFEN, `sfen <SFEN>`, or a whole USI position argument such as
//! `startpos moves 7g7f 3c3d`) plus optional `--moves "7g7f 3c3d"`.
//!
//! Bad input prints one line on stderr and exits with status 2.

use hayanagi::run_bench;
use hayanagi::{perft, perft_divide};
use hayanagi::{Engine, MateRequest};
use hayanagi::{Info, Limits};
use hayanagi::{Position, Validation};
use std::io::Write;
use std::time::Instant;

/// Print a line on stdout. A closed pipe (`hayanagi moves ... | head`) ends the process
/// quietly instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut out = std::io::stdout().lock();
        if let Err(e) = writeln!(out, $($arg)*) {
            std::process::exit(if e.kind() == std::io::ErrorKind::BrokenPipe { 0 } else { 1 });
        }
    }};
}

const USAGE: &str = "usage: hayanagi                 speak USI on stdin/stdout (for GUIs)
       hayanagi <command> [options]
commands:
  --version                             print the version and the C ABI version
  perft --sfen P --depth N [--divide]   count leaf nodes of the legal move tree
  moves --sfen P                        list legal moves (USI, ASCII order)
  sfen  --sfen P                        print the normalised SFEN
  bench [--depth N] [--threads N] [--option Name=Value ...]
                                        search built-in positions, print a node signature
  analyze --sfen P [--movetime MS | --depth N | --nodes N] [--threads N] [--option Name=Value ...]
                                        print USI info lines and a bestmove (5 s by default)
  eval --sfen P [--option Name=Value ...]
                                        print 'eval = V', the static evaluation for the
                                        side to move (an NNUE net with
                                        --option EvalFile=nn.bin, else hand-crafted)
  gensfen --output FILE [--positions N] [--threads N] [--nodes N | --depth N]
          [--openings FILE] [--handicap PCT] [--random-moves K] [--random-plies LO-HI]
          [--random-multipv N] [--random-multipv-diff CP] [--eval-limit CP]
          [--max-plies N] [--seed N] [--hash MIB] [--option Name=Value ...]
                                        self-play training positions, appended to FILE
                                        as 40-byte PackedSfenValue records (YaneuraOu's
                                        learner, cshogi); resumes where FILE stops
  dump-psv --input FILE [--skip N] [--count N]
                                        print records of such a file, one a line:
                                        'sfen <SFEN> move <M> score <S> result <R>'
  mate --sfen P [--movetime MS | --nodes N] [--any-length] [--option MateHash=MiB]
                                        df-pn mate search (10 s by default): prints one of
                                        'checkmate <moves>', 'checkmate nomate',
                                        'checkmate timeout', then 'info string nodes N time_ms T';
                                        --any-length: the first mate proven, maybe not
                                        the shortest; composed positions (no attacking
                                        king, extra pieces) are always accepted
options:
  --sfen P      startpos | <SFEN> | sfen <SFEN> | a USI position argument with 'moves ...'
  --moves M     extra moves to play, e.g. \"7g7f 3c3d\"
  --allow-extra-pieces
                accept composed positions: more pieces of a kind than the set (up to 31
                pawns, 7 of each other kind) and immobile
                pawns, lances and knights on their last ranks";

/// A command-line error: printed on one line, exit status 2.
struct CliError(String);

type CliResult = Result<(), CliError>;

/// Parsed `--name value` options plus bare flags.
struct Options {
    values: Vec<(String, String)>,
    flags: Vec<String>,
}

const FLAGS: [&str; 3] = ["--divide", "--allow-extra-pieces", "--any-length"];
/// Options that may be given more than once.
const REPEATABLE: [&str; 1] = ["--option"];

impl Options {
    fn parse(args: &[String], allowed: &[&str]) -> Result<Options, CliError> {
        let mut values = Vec::new();
        let mut flags = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let a = &args[i];
            if !allowed.contains(&a.as_str()) {
                return Err(CliError(format!("unknown option '{a}'")));
            }
            if FLAGS.contains(&a.as_str()) {
                flags.push(a.clone());
                i += 1;
                continue;
            }
            let Some(v) = args.get(i + 1) else {
                return Err(CliError(format!("option '{a}' needs a value")));
            };
            if !REPEATABLE.contains(&a.as_str())
                && values.iter().any(|(k, _): &(String, String)| k == a)
            {
                return Err(CliError(format!("option '{a}' given twice")));
            }
            values.push((a.clone(), v.clone()));
            i += 2;
        }
        Ok(Options { values, flags })
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn all(&self, name: &str) -> Vec<&str> {
        self.values
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    fn position(&self) -> Result<Position, CliError> {
        let limit = if self.flag("--allow-extra-pieces") {
            Validation::Composed
        } else {
            Validation::Standard
        };
        self.position_with(limit)
    }

    fn position_with(&self, limit: Validation) -> Result<Position, CliError> {
        let sfen = self
            .get("--sfen")
            .ok_or_else(|| CliError("missing --sfen".into()))?;
        let mut pos =
            Position::from_usi_position_with(sfen, limit).map_err(|e| CliError(e.to_string()))?;
        if let Some(m) = self.get("--moves") {
            pos.play_usi_moves(m).map_err(|e| CliError(e.to_string()))?;
        }
        Ok(pos)
    }

    fn number(&self, name: &str) -> Result<Option<u64>, CliError> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => v
                .parse::<u64>()
                .map(Some)
                .map_err(|_| CliError(format!("{name} must be a non-negative integer, got '{v}'"))),
        }
    }
}

/// Run the command line; returns the process exit status.
pub fn run(args: &[String]) -> i32 {
    let Some(cmd) = args.first() else {
        say!("{USAGE}");
        return 0;
    };
    let rest = &args[1..];
    let result = match cmd.as_str() {
        "perft" => cmd_perft(rest),
        "moves" => cmd_moves(rest),
        "sfen" => cmd_sfen(rest),
        "bench" => cmd_bench(rest),
        "analyze" => cmd_analyze(rest),
        "mate" => cmd_mate(rest),
        "eval" => cmd_eval(rest),
        "gensfen" => cmd_gensfen(rest),
        "dump-psv" => cmd_dump_psv(rest),
        "help" | "--help" | "-h" => {
            say!("{USAGE}");
            Ok(())
        }
        "--version" | "-V" | "version" => {
            say!(
                "hayanagi {} (C ABI {})",
                env!("CARGO_PKG_VERSION"),
                hayanagi::ffi::HAYANAGI_ABI_VERSION
            );
            Ok(())
        }
        other => Err(CliError(format!(
            "unknown command '{other}' (try 'hayanagi help')"
        ))),
    };
    match result {
        Ok(()) => 0,
        Err(CliError(msg)) => {
            eprintln!("hayanagi: {msg}");
            2
        }
    }
}

fn cmd_perft(args: &[String]) -> CliResult {
    let o = Options::parse(
        args,
        &[
            "--sfen",
            "--moves",
            "--allow-extra-pieces",
            "--depth",
            "--divide",
        ],
    )?;
    let mut pos = o.position()?;
    let depth = o
        .number("--depth")?
        .ok_or_else(|| CliError("missing --depth".into()))?;
    // The depth limit of every front end (src/request.rs).
    let depth = hayanagi::perft_depth(depth).map_err(|e| CliError(format!("--depth: {e}")))?;
    let start = Instant::now();
    let nodes = if o.flag("--divide") && depth > 0 {
        let mut total = 0;
        for (m, n) in perft_divide(&mut pos, depth) {
            say!("{m}: {n}");
            total += n;
        }
        total
    } else {
        perft(&mut pos, depth)
    };
    let elapsed = start.elapsed();
    let ms = elapsed.as_millis();
    let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    say!("nodes {nodes}");
    say!("time_ms {ms}");
    say!("nps {nps}");
    Ok(())
}

fn cmd_moves(args: &[String]) -> CliResult {
    let o = Options::parse(args, &["--sfen", "--moves", "--allow-extra-pieces"])?;
    let pos = o.position()?;
    let moves: Vec<String> = hayanagi::legal_in_usi_order(&pos)
        .iter()
        .map(|m| m.usi())
        .collect();
    let mut out = String::new();
    for m in moves {
        out.push_str(&m);
        out.push('\n');
    }
    if !out.is_empty() {
        say!("{}", out.trim_end());
    }
    Ok(())
}

fn cmd_sfen(args: &[String]) -> CliResult {
    let o = Options::parse(args, &["--sfen", "--moves", "--allow-extra-pieces"])?;
    say!("{}", o.position()?.to_sfen());
    Ok(())
}

/// Built-in bench positions: openings, middle games, an endgame and the "matsuri"
/// move-generation torture position.
fn cmd_bench(args: &[String]) -> CliResult {
    let o = Options::parse(args, &["--depth", "--threads", "--option"])?;
    let depth = o.number("--depth")?.unwrap_or(8);
    if !(1..=64).contains(&depth) {
        return Err(CliError(format!(
            "--depth {depth} must be between 1 and 64"
        )));
    }
    let engine = Engine::new();
    engine
        .set_option("Hash", "16")
        .map_err(|e| CliError(e.to_string()))?;
    if let Some(t) = o.get("--threads") {
        engine
            .set_option("Threads", t)
            .map_err(|e| CliError(e.to_string()))?;
    }
    set_options(&engine, &o)?;
    let summary = run_bench(&engine, depth as u32, &mut |line| say!("{line}"))
        .map_err(|e| CliError(e.to_string()))?;
    // Stop latency: from `stop` during an infinite search to the delivered best move.
    engine.set_info_sink(None);
    engine
        .set_position("startpos")
        .map_err(|e| CliError(e.to_string()))?;
    let mut latencies = Vec::new();
    for _ in 0..5 {
        engine
            .go(Limits::infinite())
            .map_err(|e| CliError(e.to_string()))?;
        std::thread::sleep(std::time::Duration::from_millis(200));
        let t = Instant::now();
        engine.stop();
        engine.wait(None);
        latencies.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let max = latencies.iter().cloned().fold(0.0, f64::max);
    let avg = latencies.iter().sum::<f64>() / latencies.len() as f64;
    say!("Stop latency (ms): avg {avg:.2} max {max:.2}");
    say!("Total time (ms): {}", summary.millis);
    say!("Nodes searched: {}", summary.nodes);
    say!("Nodes/second: {}", summary.nodes_per_second());
    Ok(())
}

/// Apply every `--option Name=Value`, then load what they name (a net, a book) as the
/// USI `isready` would; the engine's diagnostics go to stderr.
fn set_options(engine: &Engine, o: &Options) -> CliResult {
    for opt in o.all("--option") {
        let (name, value) = opt
            .split_once('=')
            .ok_or_else(|| CliError(format!("--option '{opt}' must look like Name=Value")))?;
        engine
            .set_option(name.trim(), value.trim())
            .map_err(|e| CliError(e.to_string()))?;
    }
    engine.set_log_sink(Some(Box::new(|msg: &str| eprintln!("hayanagi: {msg}"))));
    engine.ready().map_err(|e| CliError(e.to_string()))
}

fn cmd_eval(args: &[String]) -> CliResult {
    let o = Options::parse(
        args,
        &["--sfen", "--moves", "--option", "--allow-extra-pieces"],
    )?;
    let pos = o.position()?;
    let engine = Engine::new();
    set_options(&engine, &o)?;
    engine
        .set_position_value(pos)
        .map_err(|e| CliError(e.to_string()))?;
    say!("eval = {}", engine.evaluate());
    Ok(())
}

fn cmd_analyze(args: &[String]) -> CliResult {
    let o = Options::parse(
        args,
        &[
            "--sfen",
            "--moves",
            "--movetime",
            "--depth",
            "--nodes",
            "--option",
            "--threads",
            "--allow-extra-pieces",
        ],
    )?;
    let pos = o.position()?;
    let engine = Engine::new();
    set_options(&engine, &o)?;
    if let Some(t) = o.get("--threads") {
        engine
            .set_option("Threads", t)
            .map_err(|e| CliError(e.to_string()))?;
    }
    engine
        .set_position_value(pos)
        .map_err(|e| CliError(e.to_string()))?;
    let given = ["--movetime", "--depth", "--nodes"]
        .iter()
        .filter(|n| o.get(n).is_some())
        .count();
    if given > 1 {
        return Err(CliError(
            "give at most one of --movetime, --depth, --nodes".into(),
        ));
    }
    let limits = if let Some(d) = o.number("--depth")? {
        if !(1..=200).contains(&d) {
            return Err(CliError(format!("--depth {d} must be between 1 and 200")));
        }
        Limits::depth(d as u32)
    } else if let Some(n) = o.number("--nodes")? {
        Limits::nodes(n.max(1))
    } else {
        Limits::movetime(o.number("--movetime")?.unwrap_or(5000).max(1))
    };
    engine.set_info_sink(Some(Box::new(|info: &Info| say!("{}", info.to_usi()))));
    engine.set_bestmove_sink(Some(Box::new(|b| say!("{}", b.to_usi()))));
    engine
        .search_blocking(limits)
        .map_err(|e| CliError(e.to_string()))?;
    Ok(())
}

fn cmd_gensfen(args: &[String]) -> CliResult {
    let o = Options::parse(
        args,
        &[
            "--output",
            "--positions",
            "--threads",
            "--nodes",
            "--depth",
            "--openings",
            "--handicap",
            "--random-moves",
            "--random-plies",
            "--random-multipv",
            "--random-multipv-diff",
            "--eval-limit",
            "--max-plies",
            "--seed",
            "--hash",
            "--option",
        ],
    )?;
    let mut c = hayanagi::GensfenConfig {
        output: o
            .get("--output")
            .ok_or_else(|| CliError("missing --output".into()))?
            .into(),
        ..Default::default()
    };
    if o.get("--nodes").is_some() && o.get("--depth").is_some() {
        return Err(CliError("give --nodes or --depth, not both".into()));
    }
    let small = |name: &str, v: u64| {
        u32::try_from(v).map_err(|_| CliError(format!("{name} {v} is too large")))
    };
    c.positions = o.number("--positions")?.unwrap_or(c.positions);
    if let Some(t) = o.number("--threads")? {
        c.threads = small("--threads", t)? as usize;
    }
    c.nodes = o.number("--nodes")?.unwrap_or(c.nodes);
    if let Some(d) = o.number("--depth")? {
        c.depth = Some(small("--depth", d)?.min(hayanagi::MAX_DEPTH));
    }
    if let Some(file) = o.get("--openings") {
        let text = std::fs::read_to_string(file).map_err(|e| CliError(format!("{file}: {e}")))?;
        c.openings = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        if c.openings.is_empty() {
            return Err(CliError(format!("{file}: no opening line")));
        }
    }
    if let Some(v) = o.number("--handicap")? {
        c.handicap_percent = small("--handicap", v)?;
    }
    if let Some(v) = o.number("--random-moves")? {
        c.random_moves = small("--random-moves", v)?;
    }
    if let Some(r) = o.get("--random-plies") {
        let bad = || CliError(format!("--random-plies must look like 1-24, got '{r}'"));
        let (lo, hi) = r.split_once('-').ok_or_else(bad)?;
        c.random_plies = (
            lo.trim().parse().map_err(|_| bad())?,
            hi.trim().parse().map_err(|_| bad())?,
        );
    }
    if let Some(v) = o.number("--random-multipv")? {
        c.random_multipv = small("--random-multipv", v)?;
    }
    if let Some(v) = o.number("--random-multipv-diff")? {
        c.random_multipv_diff = small("--random-multipv-diff", v)?.min(i32::MAX as u32) as i32;
    }
    if let Some(v) = o.number("--eval-limit")? {
        c.eval_limit = small("--eval-limit", v)?.min(i32::MAX as u32) as i32;
    }
    if let Some(v) = o.number("--max-plies")? {
        c.max_plies = small("--max-plies", v)?;
    }
    c.seed = o.number("--seed")?.unwrap_or(c.seed);
    if let Some(v) = o.number("--hash")? {
        c.hash_mib = small("--hash", v)?;
    }
    for opt in o.all("--option") {
        let (name, value) = opt
            .split_once('=')
            .ok_or_else(|| CliError(format!("--option '{opt}' must look like Name=Value")))?;
        c.engine_options
            .push((name.trim().to_string(), value.trim().to_string()));
    }
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut report = |p: &hayanagi::GensfenProgress| {
        let eta = p
            .eta()
            .map_or("-".to_string(), |d| format!("{}s", d.as_secs()));
        eprintln!(
            "gensfen: {} of {} positions ({} this run, {} games), {:.1} positions/s, {} s, ETA {eta}",
            p.positions,
            p.target,
            p.written,
            p.games,
            p.per_second(),
            p.elapsed.as_secs()
        );
    };
    let end = hayanagi::generate_training_data(
        &c,
        &stop,
        std::time::Duration::from_secs(10),
        &mut report,
    )
    .map_err(|e| CliError(e.to_string()))?;
    say!(
        "positions {} written {} games {} seconds {:.1} positions_per_second {:.1}",
        end.positions,
        end.written,
        end.games,
        end.elapsed.as_secs_f64(),
        end.per_second()
    );
    Ok(())
}

fn cmd_dump_psv(args: &[String]) -> CliResult {
    use std::io::Read;
    let o = Options::parse(args, &["--input", "--skip", "--count"])?;
    let path = o
        .get("--input")
        .ok_or_else(|| CliError("missing --input".into()))?;
    let mut f = std::io::BufReader::new(
        std::fs::File::open(path).map_err(|e| CliError(format!("{path}: {e}")))?,
    );
    let skip = o.number("--skip")?.unwrap_or(0);
    let count = o.number("--count")?.unwrap_or(u64::MAX);
    let mut buf = [0u8; hayanagi::RECORD_BYTES];
    let mut index = 0u64;
    let mut shown = 0u64;
    while shown < count {
        match f.read_exact(&mut buf) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(CliError(format!("{path}: {e}"))),
        }
        index += 1;
        if index <= skip {
            continue;
        }
        shown += 1;
        let r = hayanagi::TrainingRecord::from_bytes(&buf);
        let pos = r
            .sfen
            .unpack(u32::from(r.game_ply))
            .map_err(|e| CliError(format!("{path}: record {}: {e}", index - 1)))?;
        let mv = match r.best_move() {
            Some(m) if pos.is_legal(m) => m.usi(),
            _ => "none".to_string(),
        };
        say!(
            "sfen {} move {mv} score {} result {}",
            pos.to_sfen(),
            r.score,
            r.game_result
        );
    }
    Ok(())
}

/// Default time limit of `hayanagi mate`.
const MATE_DEFAULT_MS: u64 = 10_000;

fn cmd_mate(args: &[String]) -> CliResult {
    let o = Options::parse(
        args,
        &[
            "--sfen",
            "--moves",
            "--movetime",
            "--nodes",
            "--option",
            "--allow-extra-pieces",
            "--any-length",
        ],
    )?;
    // Tsume problems have no attacking king and often more pieces than a game set.
    let pos = o.position_with(Validation::Composed)?;
    let engine = Engine::new();
    set_options(&engine, &o)?;
    engine
        .set_position_value(pos)
        .map_err(|e| CliError(e.to_string()))?;
    let nodes = o.number("--nodes")?;
    let movetime = match (o.number("--movetime")?, nodes) {
        (Some(ms), _) => Some(ms.max(1)),
        (None, Some(_)) => None,
        (None, None) => Some(MATE_DEFAULT_MS),
    };
    let report = engine
        .mate_blocking(MateRequest {
            movetime_ms: movetime,
            nodes,
            any_length: o.flag("--any-length"),
        })
        .map_err(|e| CliError(e.to_string()))?;
    say!("{}", report.to_usi());
    say!(
        "info string nodes {} time_ms {}",
        report.nodes,
        report.time_ms
    );
    Ok(())
}
