//! The position: board, hands, side to move, and a stack of per-move state so that
//! `undo_move` restores everything without copying the position.
//!
//! Each `do_move` pushes a [`StateInfo`] holding the new Zobrist key, the checkers of the side
//! now to move and both kings' blockers (pieces that alone shield a king from an enemy
//! slider). `undo_move` pops it, so those sets are never recomputed on the way back up.
//! The stack also is the key history that repetition detection reads.

use super::attacks::{tables, Tables};
use super::bitboard::Bitboard;
use super::hand::Hand;
use super::moves::Move;
use super::types::{in_promotion_zone, is_dead_square, Color, Piece, PieceType, Square};
use super::zobrist;

/// State that changes with every move and is restored by popping.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// Zobrist key of the position (board, hands, side to move).
    pub key: u64,
    /// The same without the hands ([`Position::board_key`]).
    pub board_key: u64,
    /// The hand of the side to move (with `board_key`, a repetition of the board with other
    /// hands is seen: [`Position::hand_cycle`]).
    pub hand_to_move: Hand,
    /// Enemy pieces giving check to the side to move.
    pub checkers: Bitboard,
    /// For each colour, pieces (of either colour) that alone stand between that colour's
    /// king and an enemy slider.
    pub blockers: [Bitboard; 2],
    /// Piece captured by the move that led here (EMPTY if none).
    pub captured: Piece,
    /// The move that led here (NONE at the root).
    pub last_move: Move,
    /// Plies since the last null move (or the root): how far back repetition may look.
    pub plies_from_null: u16,
}

/// A shogi position: the board, both hands, the side to move and the move history (for
/// repetitions and `undo_move`). SFEN in and out through [`FromStr`](std::str::FromStr)
/// and [`Display`](std::fmt::Display).
///
/// ```
/// use hayanagi::{legal, Position};
///
/// let mut pos: Position = "startpos".parse().unwrap();
/// assert_eq!(legal(&pos).len(), 30);
/// let m = pos.parse_usi_move("7g7f").unwrap();
/// pos.do_move(m);
/// assert_eq!(
///     pos.to_string(),
///     "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
/// );
/// ```
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Piece; 81],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_type: [Bitboard; PieceType::NB],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    pub(crate) kings: [Option<Square>; 2],
    /// Move number of the position the stack starts from (SFEN's last field).
    pub(crate) start_move_number: u32,
    pub(crate) states: Vec<StateInfo>,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({self})")
    }
}

impl Position {
    /// An empty board, black to move, used by the SFEN parser to build positions.
    pub(crate) fn empty() -> Position {
        Position {
            board: [Piece::EMPTY; 81],
            by_color: [Bitboard::EMPTY; 2],
            by_type: [Bitboard::EMPTY; PieceType::NB],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            kings: [None; 2],
            start_move_number: 1,
            states: Vec::with_capacity(256),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_sfen(super::sfen::STARTPOS_SFEN).expect("start position parses")
    }

    // ----- queries -------------------------------------------------------------------

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq` ([`Piece::EMPTY`] if none).
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// The pieces `c` holds in hand.
    #[inline(always)]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `c`'s pieces.
    #[inline(always)]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    /// All pieces of type `pt`, both colours.
    #[inline(always)]
    pub fn pieces_of_type(&self, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()]
    }

    /// The squares of `c`'s pieces of kind `pt`.
    #[inline(always)]
    pub fn pieces_of(&self, c: Color, pt: PieceType) -> Bitboard {
        self.by_type[pt.index()] & self.by_color[c.index()]
    }

    /// Pieces moving like a gold (gold and the four promoted minors), both colours.
    #[inline(always)]
    pub fn golds(&self) -> Bitboard {
        self.by_type[PieceType::Gold.index()]
            | self.by_type[PieceType::ProPawn.index()]
            | self.by_type[PieceType::ProLance.index()]
            | self.by_type[PieceType::ProKnight.index()]
            | self.by_type[PieceType::ProSilver.index()]
    }

    /// Bishops and horses, both colours.
    #[inline(always)]
    pub fn bishops_horses(&self) -> Bitboard {
        self.by_type[PieceType::Bishop.index()] | self.by_type[PieceType::Horse.index()]
    }

    /// Rooks and dragons, both colours.
    #[inline(always)]
    pub fn rooks_dragons(&self) -> Bitboard {
        self.by_type[PieceType::Rook.index()] | self.by_type[PieceType::Dragon.index()]
    }

    /// Pieces with a one-step move in all eight directions (king, horse, dragon).
    #[inline(always)]
    pub fn kings_horses_dragons(&self) -> Bitboard {
        self.by_type[PieceType::King.index()]
            | self.by_type[PieceType::Horse.index()]
            | self.by_type[PieceType::Dragon.index()]
    }

    /// King square of `c`, if it has a king (tsume problems may have none).
    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        self.kings[c.index()]
    }

    #[inline(always)]
    pub(crate) fn st(&self) -> &StateInfo {
        self.states.last().expect("state stack is never empty")
    }

    /// Zobrist key of the current position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st().key
    }

    /// Zobrist key of the board and side to move only, without the hands. Mate search
    /// keys its table by this and compares hands separately (hand dominance).
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.st().board_key
    }

    /// The hands' part of [`Position::key`].
    fn hands_key(&self) -> u64 {
        let mut k = 0;
        for c in Color::ALL {
            for pt in PieceType::HAND {
                k ^= zobrist::hand(c, pt, self.hands[c.index()].count(pt));
            }
        }
        k
    }

    /// [`Position::board_key`] of the position after the legal move `m`, without playing it.
    pub fn board_key_after(&self, board_key: u64, m: Move) -> u64 {
        let us = self.side;
        let to = m.to();
        let mut k = board_key ^ zobrist::SIDE;
        if m.is_drop() {
            k ^= zobrist::board(Piece::new(us, m.dropped()), to);
        } else {
            let captured = self.board[to.index()];
            if !captured.is_empty() {
                k ^= zobrist::board(captured, to);
            }
            let p = self.board[m.from().index()];
            k ^= zobrist::board(p, m.from()) ^ zobrist::board(self.moved_piece_after(m), to);
        }
        k
    }

    /// [`Position::key`] of the position after the legal move `m`, without playing it.
    pub fn key_after(&self, m: Move) -> u64 {
        self.board_key_after(self.key(), m) ^ self.hands_key_change(m)
    }

    /// How the legal move `m` changes the hands' part of [`Position::key`].
    #[inline(always)]
    fn hands_key_change(&self, m: Move) -> u64 {
        let us = self.side;
        if m.is_drop() {
            let pt = m.dropped();
            let n = self.hands[us.index()].count(pt);
            zobrist::hand(us, pt, n) ^ zobrist::hand(us, pt, n - 1)
        } else {
            let captured = self.board[m.to().index()];
            if captured.is_empty() {
                0
            } else {
                let cpt = captured.piece_type().unpromoted();
                let n = self.hands[us.index()].count(cpt);
                zobrist::hand(us, cpt, n) ^ zobrist::hand(us, cpt, n + 1)
            }
        }
    }

    /// Both hands (indexed by colour) after the legal move `m`, without playing it.
    pub fn hands_after(&self, m: Move) -> [Hand; 2] {
        let mut hands = self.hands;
        let mine = &mut hands[self.side.index()];
        if m.is_drop() {
            mine.remove(m.dropped());
        } else {
            let captured = self.board[m.to().index()];
            if !captured.is_empty() && captured.piece_type() != PieceType::King {
                mine.add(captured.piece_type().unpromoted());
            }
        }
        hands
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.st().checkers
    }

    /// True when the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st().checkers.any()
    }

    /// Pieces (either colour) that alone shield `c`'s king from an enemy slider.
    #[inline(always)]
    pub fn blockers_for_king(&self, c: Color) -> Bitboard {
        self.st().blockers[c.index()]
    }

    /// `c`'s own pieces pinned to its king.
    #[inline(always)]
    pub fn pinned(&self, c: Color) -> Bitboard {
        self.st().blockers[c.index()] & self.by_color[c.index()]
    }

    /// The move that led to the current position (NONE at the root).
    pub fn last_move(&self) -> Move {
        self.st().last_move
    }

    /// Piece captured by the last move (EMPTY if none or at the root).
    pub fn last_captured(&self) -> Piece {
        self.st().captured
    }

    /// Move number: the SFEN move number of the root plus the moves played since.
    pub fn move_number(&self) -> u32 {
        // Saturates: an SFEN may start at u32::MAX.
        self.start_move_number
            .saturating_add(self.states.len() as u32 - 1)
    }

    /// Number of moves played since the position was set up.
    pub fn moves_played(&self) -> usize {
        self.states.len() - 1
    }

    /// The state stack, oldest first (root state at index 0).
    pub fn states(&self) -> &[StateInfo] {
        &self.states
    }

    /// Pieces of colour `c` attacking `sq`, given occupancy `occ`. A slider kind's attack
    /// set is looked up only when one of `c`'s sliders of that kind lies on one of its
    /// empty-board lines through `sq` (often none does: the king's square, which every move
    /// asks for its checkers, and a defender against mate, whose sliders the attacker
    /// mostly holds).
    #[inline]
    pub fn attackers_to(&self, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let t = tables();
        let ours = self.by_color[c.index()];
        let mut att = self.step_attackers_any_colour(t, c, sq) & ours;
        let rooks = self.rooks_dragons() & ours;
        if (t.rook_empty(sq) & rooks).any() {
            att |= t.rook(sq, occ) & rooks;
        }
        let bishops = self.bishops_horses() & ours;
        if (t.bishop_empty(sq) & bishops).any() {
            att |= t.bishop(sq, occ) & bishops;
        }
        let lances = self.by_type[PieceType::Lance.index()] & ours;
        if (t.lance_empty(c.flip(), sq) & lances).any() {
            att |= t.lance(c.flip(), sq, occ) & lances;
        }
        att
    }

    /// The pieces of both colours attacking `sq` given occupancy `occ`: the union of
    /// [`Self::attackers_to`] for the two colours, with each slider attack set looked up
    /// once instead of once per colour (a lance attacks along the rook's line on its file,
    /// so the rook set serves the lances of both sides too). Static exchange asks this at
    /// every capture it plays out.
    #[inline]
    pub fn attackers_to_both(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let t = tables();
        let black = self.by_color[Color::Black.index()];
        let white = self.by_color[Color::White.index()];
        let steps = (self.step_attackers_any_colour(t, Color::Black, sq) & black)
            | (self.step_attackers_any_colour(t, Color::White, sq) & white);
        steps | self.slider_attackers_to_both(sq, occ)
    }

    /// The sliders (lances, bishops, rooks and their promoted kinds) of both colours
    /// attacking `sq` given occupancy `occ`: the part of [`Self::attackers_to_both`] that a
    /// change of occupancy can change.
    #[inline]
    pub fn slider_attackers_to_both(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let t = tables();
        let black = self.by_color[Color::Black.index()];
        let white = self.by_color[Color::White.index()];
        // A black lance attacks `sq` from the squares a white lance on `sq` would reach.
        let lances = self.by_type[PieceType::Lance.index()]
            & ((t.lance_empty(Color::White, sq) & black)
                | (t.lance_empty(Color::Black, sq) & white));
        (t.bishop(sq, occ) & self.bishops_horses())
            | (t.rook(sq, occ) & (self.rooks_dragons() | lances))
    }

    /// The pieces of either colour standing where a step piece (pawn, knight, silver, gold
    /// or its promoted kinds, king, and the king steps of horse and dragon) of colour `c`
    /// would attack `sq`: the half of [`Self::attackers_to`] that does not depend on the
    /// occupancy, shared with [`Self::attacked_by`]. The caller masks the colour.
    #[inline(always)]
    fn step_attackers_any_colour(&self, t: &Tables, c: Color, sq: Square) -> Bitboard {
        let them = c.flip();
        let bt = &self.by_type;
        (t.pawn(them, sq) & bt[PieceType::Pawn.index()])
            | (t.knight(them, sq) & bt[PieceType::Knight.index()])
            | (t.silver(them, sq) & bt[PieceType::Silver.index()])
            | (t.gold(them, sq) & self.golds())
            | (t.king(sq) & self.kings_horses_dragons())
    }

    /// True when colour `c` has a piece attacking `sq`, given occupancy `occ`: the answer
    /// of `attackers_to(c, sq, occ).any()`, but the step pieces are asked first and a
    /// slider's attack set is looked up only when one of `c`'s sliders of that kind lies on
    /// one of its empty-board lines (the king's escape squares ask this most).
    #[inline]
    pub fn attacked_by(&self, c: Color, sq: Square, occ: Bitboard) -> bool {
        let t = tables();
        let them = c.flip();
        let bt = &self.by_type;
        let ours = self.by_color[c.index()];
        if (self.step_attackers_any_colour(t, c, sq) & ours).any() {
            return true;
        }
        let rooks = self.rooks_dragons() & ours;
        if (t.rook_empty(sq) & rooks).any() && (t.rook(sq, occ) & rooks).any() {
            return true;
        }
        let bishops = self.bishops_horses() & ours;
        if (t.bishop_empty(sq) & bishops).any() && (t.bishop(sq, occ) & bishops).any() {
            return true;
        }
        let lances = bt[PieceType::Lance.index()] & ours;
        (t.lance_empty(them, sq) & lances).any() && (t.lance(them, sq, occ) & lances).any()
    }

    /// True when colour `c` attacks `sq` with the current occupancy.
    #[inline]
    pub fn is_attacked(&self, c: Color, sq: Square) -> bool {
        self.attacked_by(c, sq, self.occupied())
    }

    /// Pieces (either colour) that alone stand between `c`'s king and an enemy slider.
    fn compute_blockers(&self, t: &Tables, c: Color) -> Bitboard {
        let Some(ksq) = self.kings[c.index()] else {
            return Bitboard::EMPTY;
        };
        let them = self.by_color[c.flip().index()];
        let snipers = ((t.lance_empty(c, ksq) & self.by_type[PieceType::Lance.index()])
            | (t.bishop_empty(ksq) & self.bishops_horses())
            | (t.rook_empty(ksq) & self.rooks_dragons()))
            & them;
        let occ = self.occupied() ^ snipers;
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = t.between(ksq, s) & occ;
            if b.any() && !b.more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    /// Fill checkers and blockers of the top state from the board.
    pub(crate) fn update_check_info(&mut self) {
        let t = tables();
        let us = self.side;
        let checkers = match self.kings[us.index()] {
            Some(k) => self.attackers_to(us.flip(), k, self.occupied()),
            None => Bitboard::EMPTY,
        };
        let b0 = self.compute_blockers(t, Color::Black);
        let b1 = self.compute_blockers(t, Color::White);
        let st = self.states.last_mut().expect("state");
        st.checkers = checkers;
        st.blockers = [b0, b1];
    }

    /// Key computed from scratch (for tests and the SFEN loader).
    pub fn compute_key(&self) -> u64 {
        self.compute_board_key() ^ self.hands_key()
    }

    /// [`Position::board_key`] computed from the board.
    fn compute_board_key(&self) -> u64 {
        let mut k = 0u64;
        for sq in Square::all() {
            let p = self.board[sq.index()];
            if !p.is_empty() {
                k ^= zobrist::board(p, sq);
            }
        }
        if self.side == Color::White {
            k ^= zobrist::SIDE;
        }
        k
    }

    // ----- board edits ---------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put_piece(&mut self, p: Piece, sq: Square) {
        self.board[sq.index()] = p;
        self.by_color[p.color().index()].set(sq);
        self.by_type[p.piece_type().index()].set(sq);
        if p.piece_type() == PieceType::King {
            self.kings[p.color().index()] = Some(sq);
        }
    }

    #[inline(always)]
    fn remove_piece(&mut self, sq: Square) -> Piece {
        let p = self.board[sq.index()];
        self.board[sq.index()] = Piece::EMPTY;
        self.by_color[p.color().index()].clear(sq);
        self.by_type[p.piece_type().index()].clear(sq);
        p
    }

    /// Reset the state stack to a single root state computed from the board.
    pub(crate) fn reset_states(&mut self) {
        self.states.clear();
        let board_key = self.compute_board_key();
        self.states.push(StateInfo {
            key: board_key ^ self.hands_key(),
            board_key,
            hand_to_move: self.hands[self.side.index()],
            checkers: Bitboard::EMPTY,
            blockers: [Bitboard::EMPTY; 2],
            captured: Piece::EMPTY,
            last_move: Move::NONE,
            plies_from_null: 0,
        });
        self.update_check_info();
    }

    // ----- making moves --------------------------------------------------------------

    /// Play `m`, which must be legal (see `is_legal`/`is_pseudo_legal` for moves from
    /// untrusted sources).
    pub fn do_move(&mut self, m: Move) {
        let prev = *self.st();
        let board_key = self.board_key_after(prev.board_key, m);
        let key = prev.key ^ prev.board_key ^ board_key ^ self.hands_key_change(m);
        let captured = self.move_on_board(m);
        self.states.push(StateInfo {
            key,
            board_key,
            hand_to_move: self.hands[self.side.index()],
            checkers: Bitboard::EMPTY,
            blockers: [Bitboard::EMPTY; 2],
            captured,
            last_move: m,
            plies_from_null: prev.plies_from_null.saturating_add(1),
        });
        self.update_check_info();
    }

    /// Take back the last move played with `do_move`.
    pub fn undo_move(&mut self) {
        let st = self.states.pop().expect("undo_move without a move");
        debug_assert!(!self.states.is_empty());
        self.unmove_on_board(st.last_move, st.captured);
    }

    /// `f` asked of the position after the legal move `m` with the board, hands, side to
    /// move, checkers and blockers as `do_move` leaves them, but neither the key nor the
    /// history: what a test of the replies needs (the mate-in-one detector's, for each
    /// candidate check), without a state pushed or a key computed. `f` may look further
    /// ahead the same way (or with `do_move`, taken back), but must leave the position as it
    /// found it; keys it reads are the position's before `m`.
    pub(crate) fn with_move_on_board<R>(
        &mut self,
        m: Move,
        f: impl FnOnce(&mut Position) -> R,
    ) -> R {
        let saved = *self.st();
        let captured = self.move_on_board(m);
        self.update_check_info();
        let r = f(self);
        self.unmove_on_board(m, captured);
        *self.states.last_mut().expect("state") = saved;
        r
    }

    /// The board, hands and side to move after `m`; the piece it captured.
    #[inline(always)]
    fn move_on_board(&mut self, m: Move) -> Piece {
        let us = self.side;
        let to = m.to();
        let mut captured = Piece::EMPTY;
        if m.is_drop() {
            let pt = m.dropped();
            self.hands[us.index()].remove(pt);
            self.put_piece(Piece::new(us, pt), to);
        } else {
            let from = m.from();
            captured = self.board[to.index()];
            if !captured.is_empty() {
                self.remove_piece(to);
                self.hands[us.index()].add(captured.piece_type().unpromoted());
                if captured.piece_type() == PieceType::King {
                    // Only reachable from illegal positions; keep the king slot honest.
                    self.kings[captured.color().index()] = None;
                }
            }
            let p = self.remove_piece(from);
            let moved = if m.is_promotion() {
                Piece::new(us, p.piece_type().promoted())
            } else {
                p
            };
            self.put_piece(moved, to);
        }
        self.side = us.flip();
        captured
    }

    /// [`Self::move_on_board`] taken back.
    #[inline(always)]
    fn unmove_on_board(&mut self, m: Move, captured: Piece) {
        self.side = self.side.flip();
        let us = self.side;
        let to = m.to();
        if m.is_drop() {
            self.remove_piece(to);
            self.hands[us.index()].add(m.dropped());
        } else {
            let from = m.from();
            let moved = self.remove_piece(to);
            let orig = if m.is_promotion() {
                Piece::new(us, moved.piece_type().unpromoted())
            } else {
                moved
            };
            self.put_piece(orig, from);
            if !captured.is_empty() {
                self.put_piece(captured, to);
                self.hands[us.index()].remove(captured.piece_type().unpromoted());
            }
        }
    }

    /// Pass the turn (search only; the side to move must not be in check).
    pub fn do_null_move(&mut self) {
        debug_assert!(!self.in_check());
        let prev = *self.st();
        self.side = self.side.flip();
        self.states.push(StateInfo {
            key: prev.key ^ zobrist::SIDE,
            board_key: prev.board_key ^ zobrist::SIDE,
            hand_to_move: self.hands[self.side.index()],
            checkers: Bitboard::EMPTY,
            blockers: prev.blockers,
            captured: Piece::EMPTY,
            last_move: Move::NULL,
            plies_from_null: 0,
        });
        // The mover was not in check, so after the pass it is not giving check either
        // unless the position was already illegal; recompute to stay exact.
        self.update_check_info();
    }

    /// Take back [`Position::do_null_move`].
    pub fn undo_null_move(&mut self) {
        self.states.pop();
        self.side = self.side.flip();
    }

    /// Piece that `m` puts on its destination square (after promotion).
    #[inline]
    pub fn moved_piece_after(&self, m: Move) -> Piece {
        if m.is_drop() {
            Piece::new(self.side, m.dropped())
        } else {
            let p = self.board[m.from().index()];
            if m.is_promotion() {
                Piece::new(p.color(), p.piece_type().promoted())
            } else {
                p
            }
        }
    }

    /// Does `m` (pseudo-legal) give check?
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let Some(ksq) = self.kings[us.flip().index()] else {
            return false;
        };
        let t = tables();
        let to = m.to();
        if m.is_drop() {
            return t.attacks(m.dropped(), us, to, self.occupied()).has(ksq);
        }
        let from = m.from();
        if self.st().blockers[us.flip().index()].has(from) && !t.aligned(from, to, ksq) {
            return true;
        }
        let pt = self.moved_piece_after(m).piece_type();
        let mut occ = self.occupied();
        occ.clear(from);
        occ.set(to);
        t.attacks(pt, us, to, occ).has(ksq)
    }

    /// Is `m` a capture?
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        !m.is_drop() && !self.board[m.to().index()].is_empty()
    }

    /// Would a pawn of `us` dropped on `to` give mate? (Pawn-drop mate is illegal.) Only
    /// call when the drop gives check, i.e. `to` is right in front of the enemy king.
    pub fn is_pawn_drop_mate(&self, us: Color, to: Square) -> bool {
        let them = us.flip();
        let Some(ksq) = self.kings[them.index()] else {
            return false;
        };
        let t = tables();
        let mut occ = self.occupied();
        occ.set(to);
        // The king takes the pawn unless we defend it.
        if !self.attacked_by(us, to, occ) {
            return false;
        }
        // Another piece takes it: any defender but the king, unless pinned off the line.
        let pinned = self.st().blockers[them.index()] & self.by_color[them.index()];
        let mut takers = self.attackers_to(them, to, occ);
        takers.clear(ksq);
        for s in takers {
            if !pinned.has(s) || t.aligned(s, to, ksq) {
                return false;
            }
        }
        // The king steps away.
        let occ_without_king = occ ^ Bitboard::from_square(ksq);
        let escapes = t.king(ksq) & !self.by_color[them.index()] & !Bitboard::from_square(to);
        for s in escapes {
            if !self.attacked_by(us, s, occ_without_king) {
                return false;
            }
        }
        true
    }

    /// Is `m` one of the legal moves here? Any bit pattern will do (a move from a hash
    /// table, a book or a host): it is exactly the generator's answer.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.is_legal_if_pseudo_legal(m)
    }

    /// The fast path of [`Position::is_legal`] for a move already known to be pseudo-legal
    /// (a generated move): own king not left in check, pins respected, no pawn-drop mate.
    /// For any other move the answer means nothing.
    #[inline]
    pub fn is_legal_if_pseudo_legal(&self, m: Move) -> bool {
        let us = self.side;
        if m.is_drop() {
            if m.dropped() == PieceType::Pawn {
                if let Some(ek) = self.kings[us.flip().index()] {
                    if tables().pawn(us, m.to()).has(ek) {
                        return !self.is_pawn_drop_mate(us, m.to());
                    }
                }
            }
            return true;
        }
        let Some(ksq) = self.kings[us.index()] else {
            return true;
        };
        let from = m.from();
        if from == ksq {
            let occ = self.occupied() ^ Bitboard::from_square(from);
            return !self.attacked_by(us.flip(), m.to(), occ);
        }
        !self.pinned(us).has(from) || tables().aligned(from, m.to(), ksq)
    }

    /// Is `m` a pseudo-legal move here: right piece, reachable square, promotion rules,
    /// drop rules (including nifu) and, when in check, an evasion? Accepts any bit
    /// pattern, so it validates moves from a hash table or a host; [`Position::is_legal`]
    /// adds the rest of legality.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        if !m.is_well_formed() {
            return false;
        }
        let us = self.side;
        let t = tables();
        let to = m.to();
        let checkers = self.checkers();
        if m.is_drop() {
            let pt = m.dropped();
            if !self.hands[us.index()].has(pt) || !self.board[to.index()].is_empty() {
                return false;
            }
            if is_dead_square(us, pt, to) {
                return false;
            }
            if pt == PieceType::Pawn {
                let own_pawns = self.pieces_of(us, PieceType::Pawn);
                if (own_pawns & Bitboard::file(to.file())).any() {
                    return false;
                }
            }
            if checkers.any() {
                if checkers.more_than_one() {
                    return false;
                }
                let ksq = self.kings[us.index()].expect("in check implies a king");
                return t.between(ksq, checkers.lsb()).has(to);
            }
            return true;
        }
        let from = m.from();
        let p = self.board[from.index()];
        if p.is_empty() || p.color() != us {
            return false;
        }
        if self.by_color[us.index()].has(to) {
            return false;
        }
        let pt = p.piece_type();
        if !t.attacks(pt, us, from, self.occupied()).has(to) {
            return false;
        }
        if m.is_promotion() {
            if !pt.can_promote() || !(in_promotion_zone(us, from) || in_promotion_zone(us, to)) {
                return false;
            }
        } else if is_dead_square(us, pt, to) {
            return false;
        }
        if checkers.any() && pt != PieceType::King {
            if checkers.more_than_one() {
                return false;
            }
            let ksq = self.kings[us.index()].expect("in check implies a king");
            let c = checkers.lsb();
            return to == c || t.between(ksq, c).has(to);
        }
        true
    }
}
