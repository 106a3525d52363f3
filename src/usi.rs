//! The USI protocol, one implementation for two transports: the `hayanagi` binary's
//! stdin/stdout and the C ABI's text channel (`hayanagi_engine_usi_command`). A
//! [`UsiSession`] turns command lines into engine calls and output lines; the transport
//! feeds it lines and delivers what it writes.
//!
//! Search output (info lines, `bestmove`) comes from the engine's sinks on the search
//! thread; [`attach`] points them at the session's output. Malformed input never stops the
//! session: it is answered with `info string error: ...`.

use crate::bench::run_bench;
use crate::engine::{Engine, EngineError, MateRequest};
use crate::search::mate::MateReport;
use crate::search::{BestMove, Info, Limits, Progress};
use crate::shogi::{Color, Position, Square, Validation};
use std::sync::Arc;
use std::time::Instant;

/// Where the session's lines go (one line per call, without a newline).
pub type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Whether the session goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// Point the engine's info, best-move and log sinks at `out` as USI lines.
pub fn attach(engine: &Engine, out: &Output) {
    let o = out.clone();
    engine.set_info_sink(Some(Box::new(move |i: &Info| o(&i.to_usi()))));
    let o = out.clone();
    engine.set_progress_sink(Some(Box::new(move |p: &Progress| o(&p.to_usi()))));
    let o = out.clone();
    engine.set_bestmove_sink(Some(Box::new(move |b: &BestMove| o(&b.to_usi()))));
    let o = out.clone();
    engine.set_mate_sink(Some(Box::new(move |r: &MateReport| {
        for line in mate_lines(r) {
            o(&line);
        }
    })));
    let o = out.clone();
    engine.set_log_sink(Some(Box::new(move |m: &str| {
        for line in info_string_lines(m) {
            o(&line);
        }
    })));
}

/// The USI answer to `go mate`: an `info` line with the search's figures, then the
/// `checkmate` line.
pub fn mate_lines(r: &MateReport) -> [String; 2] {
    [
        format!(
            "info nodes {} time {} nps {}",
            r.nodes,
            r.time_ms,
            r.nodes * 1000 / r.time_ms.max(1)
        ),
        r.to_usi(),
    ]
}

/// A library message as USI `info string` lines (one per line of the message).
pub fn info_string_lines(msg: &str) -> impl Iterator<Item = String> + '_ {
    msg.lines()
        .map(|line| format!("info string {}", line.replace('\r', " ")))
}

/// The state of one USI conversation.
pub struct UsiSession {
    out: Output,
}

const KEYWORDS: [&str; 14] = [
    "btime",
    "wtime",
    "binc",
    "winc",
    "byoyomi",
    "movetime",
    "nodes",
    "depth",
    "infinite",
    "ponder",
    "mate",
    "searchmoves",
    "movestogo",
    "multipv",
];

impl UsiSession {
    pub fn new(out: Output) -> UsiSession {
        UsiSession { out }
    }

    fn say(&self, line: &str) {
        (self.out)(line);
    }

    /// `info string error: ...`; a message of several lines (or with a stray carriage
    /// return, which some GUIs also end lines at) stays `info string` lines, so no text in
    /// it (e.g. from a file) can pass for a command answer.
    fn error(&self, msg: impl std::fmt::Display) {
        for line in info_string_lines(&format!("error: {msg}")) {
            self.say(&line);
        }
    }

    /// Stop any search (a `go mate` is a search too) and wait until its final `bestmove` /
    /// `checkmate` line is out.
    pub fn finish(&self, engine: &Engine) {
        engine.stop();
        engine.wait(None);
    }

    /// Handle one command line.
    pub fn command(&self, engine: &Engine, line: &str) -> Flow {
        let line = line.trim();
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "usi" => self.usi(),
            "isready" => {
                // Heavy initialisation (table, book, net, and clearing a used table for the
                // next game) happens here, never before `usiok` nor at `usinewgame`, when
                // a GUI may already run the game's clock. During a search both are refused
                // as busy; the answer is the same.
                match engine.ready() {
                    Ok(()) | Err(EngineError::Busy) => {}
                    Err(e) => self.error(e),
                }
                match engine.prepare_new_game() {
                    Ok(()) | Err(EngineError::Busy) => {}
                    Err(e) => self.error(e),
                }
                self.say("readyok");
            }
            "setoption" => self.setoption(engine, rest),
            "usinewgame" => {
                if let Err(e) = engine.new_game() {
                    self.error(format!("usinewgame: {e}"));
                }
            }
            "position" => {
                // Composed positions (problems with extra pieces, immobile pieces on the
                // last ranks) are accepted: GUIs send them for analysis and `go mate`.
                let result = Position::from_usi_position_with(rest, Validation::Composed)
                    .map_err(EngineError::Position)
                    .and_then(|p| engine.set_position_value(p));
                if let Err(e) = result {
                    self.error(format!("position: {e}; the previous position is kept"));
                }
            }
            "go" => self.go(engine, rest),
            "stop" => engine.stop(),
            "ponderhit" => engine.ponderhit(),
            "gameover" => {
                if !matches!(rest, "win" | "lose" | "draw") {
                    self.error(format!(
                        "gameover: expected win, lose or draw, got '{rest}'"
                    ));
                }
                self.finish(engine);
            }
            "quit" => {
                self.finish(engine);
                return Flow::Quit;
            }
            "d" => self.display(engine),
            "moves" => {
                let moves: Vec<String> = engine.legal_moves().iter().map(|m| m.usi()).collect();
                self.say(&moves.join(" "));
            }
            "eval" => {
                let v = engine.evaluate();
                self.say(&format!("eval = {v}"));
            }
            "perft" => self.perft(engine, rest),
            "bench" => self.bench(engine, rest),
            other => self.error(format!("unknown command '{other}'")),
        }
        Flow::Continue
    }

    fn usi(&self) {
        self.say(&format!("id name hayanagi {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the hayanagi developers");
        for def in crate::options::OPTIONS.iter().filter(|d| !d.hidden) {
            self.say(&def.usi_line());
        }
        self.say("usiok");
    }

    fn setoption(&self, engine: &Engine, rest: &str) {
        let Some(spec) = rest.strip_prefix("name") else {
            self.error("setoption: expected 'setoption name <id> [value <x>]'");
            return;
        };
        let spec = spec.trim();
        let (name, value) = match spec.split_once(" value") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (spec, ""),
        };
        if name.is_empty() {
            self.error("setoption: missing option name");
            return;
        }
        // GUIs send `<empty>` for an empty string or file name.
        let value = if value == "<empty>" { "" } else { value };
        if let Err(e) = engine.set_option(name, value) {
            self.error(format!("setoption: {e}"));
        }
    }

    fn go(&self, engine: &Engine, rest: &str) {
        let pos = engine.position();
        let request = match parse_go(rest, &pos) {
            Ok(r) => r,
            Err(e) => {
                self.error(format!("go: {e}"));
                return;
            }
        };
        match request {
            GoRequest::Search(limits) => {
                if let Err(e) = engine.go(limits) {
                    self.error(format!("go: {e}"));
                }
            }
            GoRequest::Mate(ms) => {
                let request = MateRequest {
                    movetime_ms: ms,
                    ..MateRequest::default()
                };
                if let Err(e) = engine.go_mate(request) {
                    self.error(format!("go mate: {e}"));
                }
            }
        }
    }

    fn display(&self, engine: &Engine) {
        let pos = engine.position();
        for line in board_diagram(&pos).lines() {
            self.say(line);
        }
        self.say(&format!("sfen {}", pos.to_sfen()));
        self.say(&format!("key {:016x}", pos.key()));
    }

    fn perft(&self, engine: &Engine, rest: &str) {
        let Ok(depth) = rest.parse::<u64>() else {
            self.error(format!("perft: expected a depth, got '{rest}'"));
            return;
        };
        let start = Instant::now();
        match engine.perft(depth) {
            Ok(nodes) => {
                let ms = start.elapsed().as_millis() as u64;
                self.say(&format!("perft {depth} nodes {nodes} time {ms}"));
            }
            Err(e) => self.error(format!("perft: {e}")),
        }
    }

    fn bench(&self, engine: &Engine, rest: &str) {
        let depth = if rest.is_empty() {
            8
        } else {
            match rest.parse::<u32>() {
                Ok(d) if (1..=64).contains(&d) => d,
                _ => {
                    self.error(format!("bench: expected a depth 1-64, got '{rest}'"));
                    return;
                }
            }
        };
        if engine.is_searching() {
            self.error("bench: a search is running; send stop first");
            return;
        }
        // A separate engine: the session's table, position and sinks stay as they are.
        let bench_engine = Engine::new();
        let threads = engine.options().threads.to_string();
        if let Err(e) = bench_engine.set_option("Threads", &threads) {
            self.error(format!("bench: {e}"));
            return;
        }
        let out = self.out.clone();
        match run_bench(&bench_engine, depth, &mut |l| {
            out(&format!("info string {l}"))
        }) {
            Ok(s) => {
                self.say(&format!("info string Nodes searched: {}", s.nodes));
                self.say(&format!(
                    "info string Nodes/second: {}",
                    s.nodes_per_second()
                ));
            }
            Err(e) => self.error(format!("bench: {e}")),
        }
    }
}

/// What a `go` command asks for.
#[derive(Debug, PartialEq)]
pub enum GoRequest {
    Search(Limits),
    /// `go mate`: the time limit in ms, `None` for infinite.
    Mate(Option<u64>),
}

/// Parse the arguments of `go` in `pos` (for `searchmoves`).
pub fn parse_go(args: &str, pos: &Position) -> Result<GoRequest, String> {
    let tokens: Vec<&str> = args.split_whitespace().collect();
    let mut limits = Limits::default();
    let mut i = 0;
    let number = |i: usize, name: &str| -> Result<u64, String> {
        let t = tokens
            .get(i + 1)
            .ok_or_else(|| format!("{name} needs a number"))?;
        // Some GUIs send negative remaining times when the clock has run out.
        match t.parse::<i64>() {
            Ok(v) => Ok(v.max(0) as u64),
            Err(_) => Err(format!("{name}: '{t}' is not a number")),
        }
    };
    while i < tokens.len() {
        let t = tokens[i];
        match t {
            "btime" | "wtime" | "binc" | "winc" | "byoyomi" | "movetime" | "nodes" | "depth"
            | "movestogo" | "multipv" => {
                let v = number(i, t)?;
                match t {
                    "btime" => limits.time[Color::Black.index()] = Some(v),
                    "wtime" => limits.time[Color::White.index()] = Some(v),
                    "binc" => limits.increment[Color::Black.index()] = v,
                    "winc" => limits.increment[Color::White.index()] = v,
                    "byoyomi" => limits.byoyomi = v,
                    "movetime" => limits.movetime = Some(v),
                    "nodes" => limits.nodes = Some(v),
                    // The engine's request rules (src/request.rs) clamp the depth and
                    // refuse a multipv outside 1..=32, as for every front end.
                    "depth" => limits.depth = Some(v.min(u32::MAX as u64) as u32),
                    "multipv" => limits.multipv = Some(v.min(u32::MAX as u64) as u32),
                    // The time manager plans from the clock alone; accepted for GUIs.
                    _ => {}
                }
                i += 2;
            }
            "infinite" => {
                limits.infinite = true;
                i += 1;
            }
            "ponder" => {
                limits.ponder = true;
                i += 1;
            }
            "mate" => {
                return match tokens.get(i + 1) {
                    None | Some(&"infinite") => Ok(GoRequest::Mate(None)),
                    Some(_) => Ok(GoRequest::Mate(Some(number(i, "mate")?))),
                };
            }
            "searchmoves" => {
                i += 1;
                while i < tokens.len() && !KEYWORDS.contains(&tokens[i]) {
                    let m = pos
                        .parse_usi_move(tokens[i])
                        .map_err(|e| format!("searchmoves: {e}"))?;
                    limits.searchmoves.push(m);
                    i += 1;
                }
                if limits.searchmoves.is_empty() {
                    return Err("searchmoves needs at least one move".into());
                }
            }
            other => return Err(format!("unknown parameter '{other}'")),
        }
    }
    // A bare `go` searches until `stop`: the engine's rule for every front end
    // (src/request.rs).
    Ok(GoRequest::Search(limits))
}

/// The board as text: ranks a-i from the top, files 9-1 from the left; black pieces in
/// upper case, white in lower case, promoted pieces with `+`; hands below.
pub fn board_diagram(pos: &Position) -> String {
    let mut s = String::from("   9  8  7  6  5  4  3  2  1\n");
    s.push_str("+----------------------------+\n");
    for rank in 0..9u8 {
        s.push('|');
        for file in (0..9u8).rev() {
            let p = pos.piece_on(Square::from_file_rank(file, rank));
            match p.kind() {
                None => s.push_str("  ."),
                Some(pt) => {
                    let letter = pt.sfen_letter();
                    let letter = if p.color() == Color::White {
                        letter.to_ascii_lowercase()
                    } else {
                        letter
                    };
                    s.push_str(if pt.is_promoted() { " +" } else { "  " });
                    s.push(letter);
                }
            }
        }
        s.push_str(&format!(" | {}\n", (b'a' + rank) as char));
    }
    s.push_str("+----------------------------+\n");
    let sfen = pos.to_sfen();
    let hand = sfen.split(' ').nth(2).unwrap_or("-");
    s.push_str(&format!(
        "hands: {hand}\nside to move: {}\nmove number: {}",
        match pos.side_to_move() {
            Color::Black => "black",
            Color::White => "white",
        },
        pos.move_number()
    ));
    s
}

/// Serve USI on stdin/stdout until `quit` or end of input. Returns the process exit code.
pub fn serve_stdio() -> i32 {
    use std::io::{BufRead, Write};
    let out: Output = Arc::new(|line: &str| {
        let mut o = std::io::stdout().lock();
        // A GUI that closed the pipe cannot be told anything; keep going until EOF.
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    });
    let engine = Engine::new();
    attach(&engine, &out);
    let session = UsiSession::new(out);
    let stdin = std::io::stdin();
    let mut buf = Vec::new();
    let mut input = stdin.lock();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if session.command(&engine, &line) == Flow::Quit {
                    return 0;
                }
            }
            Err(e) => {
                session.error(format!("reading input: {e}"));
                break;
            }
        }
    }
    // End of input: a running search (even `go infinite`) ends with its best move.
    session.finish(&engine);
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::Bound;
    use crate::shogi::Move;
    use parking_lot::Mutex;

    fn session() -> (Engine, UsiSession, Arc<Mutex<Vec<String>>>) {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = lines.clone();
        let out: Output = Arc::new(move |l: &str| sink.lock().push(l.to_string()));
        let engine = Engine::new();
        attach(&engine, &out);
        (engine, UsiSession::new(out), lines)
    }

    fn search(engine: &Engine, session: &UsiSession) {
        session.command(engine, "position startpos");
        session.command(engine, "go depth 4");
        engine.wait(None);
    }

    /// An entry no search wrote, to see whether a command cleared the table.
    const MARKER: u64 = 0x1234_5678_9abc_def1;

    fn plant_marker(engine: &Engine) {
        engine
            .tt()
            .store(MARKER, Move::NONE, 7, None, 3, Bound::Exact, false);
        assert!(engine.probe_tt_key(MARKER).is_some());
    }

    #[test]
    fn isready_clears_a_used_table_so_usinewgame_does_no_heavy_work() {
        let (engine, session, lines) = session();
        search(&engine, &session);
        assert!(engine.tt().is_used() && engine.probe_tt().is_some());
        session.command(&engine, "isready");
        assert!(!engine.tt().is_used());
        assert!(engine.probe_tt().is_none());
        // The table is clean and no search ran since: `usinewgame` leaves it alone (the
        // entry planted without a search survives).
        plant_marker(&engine);
        session.command(&engine, "usinewgame");
        assert!(engine.probe_tt_key(MARKER).is_some());
        assert!(lines.lock().iter().all(|l| !l.contains("error")));
    }

    #[test]
    fn usinewgame_without_isready_still_clears_a_used_table() {
        let (engine, session, _) = session();
        session.command(&engine, "isready");
        search(&engine, &session);
        plant_marker(&engine);
        session.command(&engine, "usinewgame");
        assert!(engine.probe_tt_key(MARKER).is_none());
        assert!(engine.probe_tt().is_none());
        // A second game after isready: cleared there, not again at usinewgame.
        search(&engine, &session);
        session.command(&engine, "isready");
        plant_marker(&engine);
        session.command(&engine, "usinewgame");
        assert!(engine.probe_tt_key(MARKER).is_some());
    }

    #[test]
    fn a_parallel_clear_empties_every_part_of_a_large_table() {
        let tt = crate::search::TranspositionTable::try_new(128).unwrap();
        let keys: Vec<u64> = (0..4096u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
            .collect();
        tt.next_generation();
        for &k in &keys {
            tt.store(k, Move::NONE, 1, None, 1, Bound::Exact, false);
        }
        let stored = keys.iter().filter(|&&k| tt.probe(k).is_some()).count();
        assert!(stored > 4000, "{stored}");
        assert!(tt.clear_if_used());
        assert_eq!(keys.iter().filter(|&&k| tt.probe(k).is_some()).count(), 0);
        assert!(!tt.clear_if_used());
    }
}
