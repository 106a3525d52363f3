//! Subcommands of the `hayanagi` binary. Each takes the position as `--sfen P` (`startpos`,
//! a bare SFEN, `sfen <SFEN>`, or a whole USI position argument such as
//! `startpos moves 7g7f 3c3d`) plus optional `--moves "7g7f 3c3d"`.
//!
//! Bad input prints one line on stderr and exits with status 2.

use hayanagi::shogi::perft::{perft, perft_divide};
use hayanagi::shogi::{legal, Position, Validation};
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

const USAGE: &str = "usage: hayanagi <command> [options]
commands:
  perft --sfen P --depth N [--divide]   count leaf nodes of the legal move tree
  moves --sfen P                        list legal moves (USI, ASCII order)
  sfen  --sfen P                        print the normalised SFEN
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

const FLAGS: [&str; 2] = ["--divide", "--allow-extra-pieces"];

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
            if values.iter().any(|(k, _): &(String, String)| k == a) {
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

    fn flag(&self, name: &str) -> bool {
        self.flags.iter().any(|f| f == name)
    }

    fn position(&self) -> Result<Position, CliError> {
        let sfen = self
            .get("--sfen")
            .ok_or_else(|| CliError("missing --sfen".into()))?;
        let limit = if self.flag("--allow-extra-pieces") {
            Validation::Composed
        } else {
            Validation::Standard
        };
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
        "help" | "--help" | "-h" => {
            say!("{USAGE}");
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
    if depth > 20 {
        return Err(CliError(format!(
            "--depth {depth} is too deep (at most 20)"
        )));
    }
    let depth = depth as u32;
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
    let mut moves: Vec<String> = legal(&pos).iter().map(|m| m.usi()).collect();
    moves.sort();
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
