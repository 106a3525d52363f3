//! The USI text channel of the C ABI (`hayanagi_engine_usi_command` and the USI output
//! callback): the same session as through the binary's pipes gives the same kinds of lines
//! in the same order and the same best move; random input never breaks it.

mod common;

use common::usi::UsiProcess;
use common::Rng;
use hayanagi::ffi::*;
use hayanagi::{legal, Position};
use parking_lot::Mutex;
use std::ffi::{c_char, c_void, CStr, CString};
use std::time::{Duration, Instant};

/// Collects channel output; shared with the callback through `user_data`.
#[derive(Default)]
struct Lines(Mutex<Vec<String>>);

unsafe extern "C" fn collect(user_data: *mut c_void, line: *const c_char) {
    // SAFETY: user_data is the `Lines` owned by the test, alive for the engine's lifetime;
    // `line` is a NUL-terminated string valid for this call.
    let lines = unsafe { &*(user_data as *const Lines) };
    let text = unsafe { CStr::from_ptr(line) }
        .to_string_lossy()
        .into_owned();
    lines.0.lock().push(text);
}

struct Channel {
    engine: *mut hayanagi_engine,
    lines: Box<Lines>,
}

impl Channel {
    fn new() -> Channel {
        let mut engine = std::ptr::null_mut();
        assert_eq!(
            hayanagi_engine_new(std::ptr::null(), &mut engine),
            HAYANAGI_OK
        );
        let lines = Box::<Lines>::default();
        let ud = &*lines as *const Lines as *mut c_void;
        assert_eq!(
            hayanagi_engine_set_usi_output_callback(engine, Some(collect), ud, None),
            HAYANAGI_OK
        );
        Channel { engine, lines }
    }

    fn send_bytes(&self, bytes: &[u8]) -> hayanagi_status {
        let c = CString::new(
            bytes
                .iter()
                .copied()
                .filter(|&b| b != 0)
                .collect::<Vec<u8>>(),
        )
        .unwrap();
        hayanagi_engine_usi_command(self.engine, c.as_ptr())
    }

    fn send(&self, line: &str) {
        assert_eq!(self.send_bytes(line.as_bytes()), HAYANAGI_OK, "{line}");
    }

    fn count(&self) -> usize {
        self.lines.0.lock().len()
    }

    /// Wait until a line satisfying `pred` appears at index `from` or later.
    fn wait_for(&self, from: usize, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + common::usi::PATIENCE;
        loop {
            if let Some(l) = self.lines.0.lock()[from..].iter().find(|l| pred(l)) {
                return l.clone();
            }
            assert!(
                Instant::now() < deadline,
                "timed out: {:?}",
                self.lines.0.lock()
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn all(&self) -> Vec<String> {
        self.lines.0.lock().clone()
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        assert_eq!(hayanagi_engine_free(self.engine), HAYANAGI_OK);
    }
}

/// The kind of a line: its first word, and for info lines which fields it carries (the
/// values of nodes, nps and time vary between runs).
fn kind(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.first() {
        Some(&"info") => {
            let keys: Vec<&str> = words
                .iter()
                .copied()
                .filter(|w| w.chars().all(|c| c.is_ascii_lowercase()))
                .collect();
            keys.join(" ")
        }
        Some(&"option") | Some(&"id") => line.to_string(),
        Some(w) => w.to_string(),
        None => String::new(),
    }
}

const SESSION: &[&str] = &[
    "usi",
    "setoption name USI_Hash value 16",
    "setoption name Threads value 1",
    "isready",
    "usinewgame",
    "position startpos moves 7g7f 3c3d 2g2f",
    "go depth 6",
];

#[test]
fn the_channel_and_the_pipes_say_the_same() {
    // Through the binary.
    let mut p = UsiProcess::start();
    for cmd in SESSION {
        p.send(cmd);
    }
    p.expect("bestmove", |l| l.starts_with("bestmove"));
    p.send("setoption name NoSuch value 1");
    p.send("position startpos moves 7g7f 3c3d 8h2b+ 2a2b");
    p.send("d");
    p.expect_prefix("key ");
    p.send("go mate 5000");
    p.expect_prefix("checkmate");
    p.send("quit");
    let piped = p.seen.clone();
    let (_, status) = p.close();
    assert!(status.success());

    // Through the C text channel.
    let c = Channel::new();
    for cmd in SESSION {
        c.send(cmd);
    }
    c.wait_for(0, |l| l.starts_with("bestmove"));
    c.send("setoption name NoSuch value 1");
    c.send("position startpos moves 7g7f 3c3d 8h2b+ 2a2b");
    c.send("d");
    c.send("go mate 5000");
    c.wait_for(0, |l| l.starts_with("checkmate"));
    c.send("quit");
    let channel = c.all();

    let kinds = |v: &[String]| v.iter().map(|l| kind(l)).collect::<Vec<_>>();
    assert_eq!(
        kinds(&piped),
        kinds(&channel),
        "\npipes: {piped:#?}\nchannel: {channel:#?}"
    );
    let best = |v: &[String]| v.iter().find(|l| l.starts_with("bestmove")).cloned();
    assert_eq!(best(&piped), best(&channel));
    // The answers that do not depend on timing are identical word for word.
    let fixed = |v: &[String]| {
        v.iter()
            .filter(|l| !l.starts_with("info") || l.starts_with("info string"))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(fixed(&piped), fixed(&channel));
}

#[test]
fn channel_and_structured_calls_drive_one_engine() {
    let c = Channel::new();
    c.send("position startpos moves 7g7f");
    let mut buf = [0 as c_char; 256];
    let mut len = 0usize;
    assert_eq!(
        hayanagi_engine_sfen(c.engine, buf.as_mut_ptr(), buf.len(), &mut len),
        HAYANAGI_OK
    );
    let sfen = unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap();
    assert!(sfen.ends_with(" w - 2"), "{sfen}");
    // A NULL line is refused with a status; the channel keeps working.
    assert_eq!(
        hayanagi_engine_usi_command(c.engine, std::ptr::null()),
        HAYANAGI_NULL_ARG
    );
    // Several lines in one call.
    let n = c.count();
    c.send("isready\nposition startpos\r\nisready");
    c.wait_for(n, |l| l == "readyok");
    assert_eq!(c.all()[n..], ["readyok", "readyok"]);
}

/// Random command lines: the status is always OK, every `isready` is answered, every
/// accepted `go` ends with exactly one `bestmove` or `checkmate`, and the engine still
/// plays afterwards.
#[test]
fn random_commands_never_break_the_channel() {
    const WORDS: &[&str] = &[
        "usi",
        "isready",
        "setoption",
        "name",
        "value",
        "Threads",
        "USI_Hash",
        "MultiPV",
        "SkillLevel",
        "BookFile",
        "USI_OwnBook",
        "true",
        "1",
        "2",
        "0",
        "-5",
        "99999999999999999999",
        "usinewgame",
        "position",
        "startpos",
        "sfen",
        "moves",
        "7g7f",
        "3c3d",
        "P*5e",
        "2b8h+",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL",
        "b",
        "w",
        "-",
        "go",
        "depth",
        "nodes",
        "btime",
        "wtime",
        "byoyomi",
        "movetime",
        "infinite",
        "ponder",
        "mate",
        "searchmoves",
        "stop",
        "ponderhit",
        "gameover",
        "win",
        "d",
        "moves",
        "eval",
        "perft",
        "\u{3042}",
        "\t",
        "",
        "\u{FFFD}",
    ];
    let c = Channel::new();
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut started = 0usize;
    let mut readies = 0usize;
    for _ in 0..1500 {
        let n = 1 + rng.below(8);
        let mut line: Vec<u8> = Vec::new();
        // A third of the lines are searches, the rest anything.
        if rng.below(3) == 0 {
            line.extend(b"go");
        }
        for i in 0..n {
            if i > 0 || !line.is_empty() {
                line.push(b' ');
            }
            if rng.below(20) == 0 {
                line.extend((0..rng.below(6)).map(|_| rng.next() as u8));
            } else {
                line.extend(WORDS[rng.below(WORDS.len())].as_bytes());
            }
        }
        // Keep searches short: limit every go.
        let text = String::from_utf8_lossy(&line).into_owned();
        let first = text.split_whitespace().next().unwrap_or("");
        if first == "go" {
            line.extend(b" nodes 3000");
            if text.contains("infinite") || text.contains("ponder") || text.contains("mate") {
                line.clear();
                line.extend(b"go mate 20");
            }
        }
        if first == "perft" || first == "bench" || first == "quit" {
            continue;
        }
        if line.windows(4).any(|w| w == b"Hash") {
            continue; // table sizes up to a TiB: not what this test is about
        }
        if rng.below(3) == 0 {
            const GOOD: &[&str] = &[
                "go depth 2",
                "go nodes 500",
                "go movetime 5",
                "go btime 0 wtime 0 byoyomi 10",
                "go mate 10",
                "go searchmoves 7g7f 2g2f nodes 100",
                "go btime 100 wtime 100 binc 10 winc 10",
            ];
            line = GOOD[rng.below(GOOD.len())].as_bytes().to_vec();
        }
        let before = c.count();
        assert_eq!(c.send_bytes(&line), HAYANAGI_OK);
        let text = String::from_utf8_lossy(&line).into_owned();
        if text.trim_start().starts_with("go") {
            let answer = c.all()[before..].to_vec();
            if !answer
                .iter()
                .any(|l| l.starts_with("info string error: go"))
            {
                started += 1;
            }
            // Let it finish: the next go would be refused as busy otherwise.
            let deadline = Instant::now() + Duration::from_secs(30);
            while hayanagi_engine_is_searching_now(c.engine) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
            c.send("isready");
            readies += 1;
        }
        if text.split_whitespace().next() == Some("isready") {
            readies += 1;
        }
    }
    c.send("quit");
    let lines = c.all();
    assert!(started >= 50, "only {started} searches started");
    let answers = lines
        .iter()
        .filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate"))
        .count();
    assert_eq!(answers, started, "{lines:#?}");
    assert_eq!(lines.iter().filter(|l| *l == "readyok").count(), readies);
    // Still plays.
    let n = c.count();
    c.send("position startpos moves 7g7f");
    c.send("go depth 3");
    let best = c.wait_for(n, |l| l.starts_with("bestmove"));
    let pos = Position::from_usi_position("startpos moves 7g7f").unwrap();
    let mv = pos
        .parse_usi_move(best.split_whitespace().nth(1).unwrap())
        .unwrap();
    assert!(legal(&pos).contains(mv));
}

fn hayanagi_engine_is_searching_now(engine: *mut hayanagi_engine) -> bool {
    let mut searching = false;
    assert_eq!(
        hayanagi_engine_is_searching(engine, &mut searching),
        HAYANAGI_OK
    );
    searching
}
