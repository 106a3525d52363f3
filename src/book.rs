//! Opening book in YaneuraOu's "DB2016" text format, which many shogi users already own:
//!
//! ```text
//! #YANEURAOU-DB2016 1.00
//! sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
//! 7g7f 3c3d 0 32 60
//! 2g2f none 0 30 40
//! ```
//!
//! Each `sfen` line opens a position; each following line is `move ponder value depth
//! count`. A move is chosen with probability proportional to its count (uniformly when all
//! counts are 0). Positions are keyed by their Zobrist key, so the move number and the
//! spelling of the SFEN do not matter. Lines that cannot be used are skipped, each with a
//! warning; a position listed twice keeps the moves of both entries.

use crate::shogi::{Move, Position, Validation};
use std::collections::HashMap;

/// One book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// The expected reply, when the book gives one that is legal.
    pub ponder: Option<Move>,
    pub value: i32,
    pub depth: i32,
    /// Weight of the move when choosing.
    pub count: u64,
}

/// A loaded book.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<u64, Vec<BookMove>>,
}

/// The result of parsing a book text: the book, a warning for each of the first
/// [`MAX_WARNINGS`] skipped lines, and how many lines were skipped in all.
pub struct Loaded {
    pub book: Book,
    pub warnings: Vec<String>,
    pub skipped: usize,
}

/// Warnings kept per book: a file of bad lines must not turn into far more memory in
/// messages than the file itself.
pub const MAX_WARNINGS: usize = 100;

/// Read and parse a book file. Only a regular file is read (a FIFO or a device such as
/// `/dev/zero` named as a book would block or never end), and only one that fits the
/// memory policy of [`crate::util::memory`]; the text is read into a buffer reserved
/// fallibly. The error is a message naming the file.
pub fn read_file(path: &std::path::Path) -> Result<Loaded, String> {
    use std::io::Read;
    let shown = path.display();
    let cannot = |e: &dyn std::fmt::Display| format!("cannot read book file '{shown}': {e}");
    let meta = std::fs::metadata(path).map_err(|e| cannot(&e))?;
    if !meta.is_file() {
        return Err(cannot(&"not a regular file"));
    }
    let len = meta.len();
    crate::util::memory::check_fits(len, "the book file").map_err(|e| cannot(&e))?;
    let mut bytes: Vec<u8> = Vec::new();
    bytes
        .try_reserve_exact(len as usize)
        .map_err(|_| cannot(&format!("no memory for its {len} bytes")))?;
    // At most the size seen above: a file that grows meanwhile is read as it was.
    std::fs::File::open(path)
        .and_then(|f| f.take(len).read_to_end(&mut bytes))
        .map_err(|e| cannot(&e))?;
    Ok(Book::parse(&String::from_utf8_lossy(&bytes)))
}

impl Book {
    /// Parse book text. Never fails: unusable lines become warnings.
    pub fn parse(text: &str) -> Loaded {
        let mut book = Book::default();
        let mut warnings = Vec::new();
        let mut skipped = 0;
        let mut warn = |message: String| {
            skipped += 1;
            if warnings.len() < MAX_WARNINGS {
                warnings.push(message);
            }
        };
        let mut current: Option<Position> = None;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
                continue;
            }
            if let Some(sfen) = line.strip_prefix("sfen ") {
                match Position::from_sfen_with(sfen.trim(), Validation::Composed) {
                    Ok(p) => current = Some(p),
                    Err(e) => {
                        warn(format!("book line {line_no}: bad sfen ({e}); skipped"));
                        current = None;
                    }
                }
                continue;
            }
            let Some(pos) = &current else {
                warn(format!(
                    "book line {line_no}: move line without a usable sfen line; skipped"
                ));
                continue;
            };
            match parse_move_line(pos, line) {
                Ok(bm) => book.entries.entry(pos.key()).or_default().push(bm),
                Err(e) => warn(format!("book line {line_no}: {e}; skipped")),
            }
        }
        Loaded {
            book,
            warnings,
            skipped,
        }
    }

    /// Number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The moves the book lists for `pos` (empty when the position is not in the book).
    pub fn moves(&self, pos: &Position) -> &[BookMove] {
        self.entries.get(&pos.key()).map_or(&[], Vec::as_slice)
    }

    /// Choose a move for `pos` by weight; `random` is a uniformly random 64-bit number.
    pub fn choose(&self, pos: &Position, random: u64) -> Option<BookMove> {
        let moves = self.moves(pos);
        if moves.is_empty() {
            return None;
        }
        let total: u64 = moves.iter().map(|m| m.count).sum();
        if total == 0 {
            return Some(moves[(random % moves.len() as u64) as usize]);
        }
        let mut pick = random % total;
        for m in moves {
            if pick < m.count {
                return Some(*m);
            }
            pick -= m.count;
        }
        moves.last().copied()
    }
}

fn parse_move_line(pos: &Position, line: &str) -> Result<BookMove, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 2 {
        return Err(format!(
            "expected 'move ponder value depth count', got '{line}'"
        ));
    }
    let mv = Move::from_usi(fields[0])
        .filter(|&m| pos.is_legal(m))
        .ok_or_else(|| format!("move '{}' is not legal in the position", fields[0]))?;
    let number = |i: usize, name: &str| -> Result<i64, String> {
        match fields.get(i) {
            None => Ok(0),
            Some(s) => s
                .parse::<i64>()
                .map_err(|_| format!("{name} '{s}' is not a number")),
        }
    };
    let value = number(2, "value")?.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    let depth = number(3, "depth")?.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    let count = number(4, "count")?;
    if count < 0 {
        return Err(format!("count {count} is negative"));
    }
    let mut after = pos.clone();
    after.do_move(mv);
    let ponder = Move::from_usi(fields[1]).filter(|&p| after.is_legal(p));
    Ok(BookMove {
        mv,
        ponder,
        value,
        depth,
        count: count as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f 3c3d 0 32 3
2g2f none 0 30 1
5e5d none 0 1 1
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
3c3d 2g2f 12 20 0
8c8d 2g2f x 20 0
sfen not/a/position b - 1
1a1b none 0 0 0
";

    #[test]
    fn parses_db2016_and_skips_bad_lines() {
        let loaded = Book::parse(TEXT);
        assert_eq!(loaded.book.len(), 2);
        // 5e5d illegal, bad value 'x', bad sfen, orphan move line.
        assert_eq!(loaded.warnings.len(), 4, "{:?}", loaded.warnings);
        assert_eq!(loaded.skipped, 4);
        let start = Position::startpos();
        let moves = loaded.book.moves(&start);
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].mv.usi(), "7g7f");
        assert_eq!(moves[0].ponder.map(|m| m.usi()), Some("3c3d".into()));
        assert_eq!(moves[1].ponder, None);
    }

    #[test]
    fn chooses_by_weight() {
        let book = Book::parse(TEXT).book;
        let start = Position::startpos();
        // Counts 3 and 1: random values 0..3 pick 7g7f, 3 picks 2g2f.
        let picks: Vec<String> = (0..4)
            .map(|r| book.choose(&start, r).unwrap().mv.usi())
            .collect();
        assert_eq!(picks, ["7g7f", "7g7f", "7g7f", "2g2f"]);
        // All counts zero: uniform.
        let mut p = start.clone();
        p.do_move(Move::from_usi("7g7f").unwrap());
        assert_eq!(book.choose(&p, 0).unwrap().mv.usi(), "3c3d");
        assert!(book
            .choose(
                &Position::from_sfen("9/9/9/9/4k4/9/9/9/4K4 b - 1").unwrap(),
                0
            )
            .is_none());
    }
}

#[cfg(test)]
mod file_tests {
    use super::*;

    #[test]
    fn a_device_or_a_folder_is_not_read_as_a_book() {
        for path in ["/dev/zero", "/"] {
            let e = read_file(std::path::Path::new(path)).err().expect(path);
            assert!(e.contains("not a regular file"), "{e}");
        }
        let e = read_file(std::path::Path::new("/no/such/book.db"))
            .err()
            .expect("missing");
        assert!(
            e.starts_with("cannot read book file '/no/such/book.db': "),
            "{e}"
        );
    }

    #[test]
    fn warnings_are_capped_but_counted() {
        let text = "x\n".repeat(MAX_WARNINGS * 3);
        let loaded = Book::parse(&text);
        assert_eq!(loaded.warnings.len(), MAX_WARNINGS);
        assert_eq!(loaded.skipped, MAX_WARNINGS * 3);
    }
}
