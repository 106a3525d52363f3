//! The `hayanagi` binary: with no arguments a USI engine on stdin/stdout (for shogi GUIs
//! and match runners); with a subcommand a command-line tool (perft, bench, analyze, ...).

mod cli;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args == ["usi"] {
        std::process::exit(hayanagi::serve_stdio());
    }
    std::process::exit(cli::run(&args));
}
