//! Move generation.
//!
//! [`generate`] produces pseudo-legal moves (every rule except: own king left in check, pins,
//! and pawn-drop mate), for callers that check [`Position::is_legal_if_pseudo_legal`]
//! lazily.
//! [`generate_legal`] and [`legal_moves`] settle those three during generation instead:
//! pinned pieces move only along their pin line, king moves are checked against the
//! enemy's attacks, and the one pawn drop that could mate is examined.
//!
//! Every legal non-promotion is generated (pawn, lance, bishop and rook included), as all
//! published perft tables count them.
//!
//! Stages for search:
//! * [`GenType::CapturesPromotions`]: captures (promoting or not) and non-capturing promotions.
//! * [`GenType::Quiets`]: non-capturing non-promotions, and drops.
//! * [`GenType::Evasions`]: every pseudo-legal move when in check.
//! * [`GenType::NonEvasions`]: every pseudo-legal move when not in check (= the two above).
//! * [`GenType::Checks`]: pseudo-legal moves that give check (when not in check).

use super::attacks::tables;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::types::{dead_rank_count, Color, PieceType, Square};
use std::mem::MaybeUninit;

/// Room for every pseudo-legal move of any position (the most legal moves known is 593).
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves, kept on the stack.
pub struct MoveList {
    /// Only the first `len` entries are initialised. Zeroing the whole 2 KiB at every new
    /// list cost about 2,000 instructions, a fifth of a mate-in-one test (callgrind,
    /// examples/mate1_bench.rs), which makes a fresh list each time.
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut copy = MoveList::new();
        copy.moves[..self.len].copy_from_slice(&self.moves[..self.len]);
        copy.len = self.len;
        copy
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Append `m`.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// Number of moves in the list.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the list holds no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in generation order.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        let init = &self.moves[..self.len];
        // SAFETY: every entry below `len` was written (`push`, `retain_from` and `clone`
        // only ever write below it before raising it), and `MaybeUninit<Move>` has the
        // layout of `Move`.
        unsafe { std::slice::from_raw_parts(init.as_ptr().cast::<Move>(), init.len()) }
    }

    /// The moves, to reorder in place.
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        let init = &mut self.moves[..self.len];
        // SAFETY: as in `as_slice`; the borrow of `self` keeps the slice unique.
        unsafe { std::slice::from_raw_parts_mut(init.as_mut_ptr().cast::<Move>(), init.len()) }
    }

    /// Remove every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Like [`MoveList::retain`], for the moves from index `start` on only.
    pub fn retain_from(&mut self, start: usize, mut f: impl FnMut(Move) -> bool) {
        let mut kept = start;
        for i in start..self.len {
            let m = self.as_slice()[i];
            if f(m) {
                self.moves[kept] = MaybeUninit::new(m);
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// Keep only the moves for which `f` is true.
    #[inline]
    pub fn retain(&mut self, f: impl FnMut(Move) -> bool) {
        self.retain_from(0, f);
    }

    /// True when `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Iterate over the moves in generation order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    /// Captures, and promotions that capture nothing (the quiescence moves).
    CapturesPromotions,
    /// Quiet moves that are not promotions.
    Quiets,
    /// Replies to a check (only valid in check).
    Evasions,
    /// Every pseudo-legal move when not in check.
    NonEvasions,
    /// Quiet moves that give check.
    Checks,
}

/// Which promotion variants to emit for a set of destinations.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Promo {
    Both,
    Only,
    Never,
}

/// The squares on which a piece of kind `pt` and colour `c` could never move again
/// ([`dead_rank_count`]): a non-promotion or a drop there is illegal.
#[inline(always)]
pub(super) fn dead_ranks(c: Color, pt: PieceType) -> Bitboard {
    let n = dead_rank_count(pt);
    if n == 0 {
        return Bitboard::EMPTY;
    }
    match c {
        Color::Black => Bitboard::ranks(0, n - 1),
        Color::White => Bitboard::ranks(9 - n, 8),
    }
}

/// The destinations among `targets` where a move of a `pt` of colour `us` from `from` may
/// promote: every one when the move starts in the promotion zone, else those inside it; none
/// for a piece that never promotes. With [`non_promoting_targets`] this is the one owner of
/// the promotion rule, for the generator and for [`count_evasions`].
#[inline(always)]
fn promoting_targets(us: Color, pt: PieceType, from: Square, targets: Bitboard) -> Bitboard {
    if !pt.can_promote() {
        return Bitboard::EMPTY;
    }
    let zone = Bitboard::zone(us);
    if zone.has(from) {
        targets
    } else {
        targets & zone
    }
}

/// The destinations among `targets` where a `pt` of colour `us` may stay unpromoted: all but
/// its dead ranks.
#[inline(always)]
fn non_promoting_targets(us: Color, pt: PieceType, targets: Bitboard) -> Bitboard {
    targets.and_not(dead_ranks(us, pt))
}

#[inline(always)]
fn emit(
    list: &mut MoveList,
    us: Color,
    pt: PieceType,
    from: Square,
    targets: Bitboard,
    promo: Promo,
) {
    if promo != Promo::Never {
        for to in promoting_targets(us, pt, from, targets) {
            list.push(Move::normal(from, to, true));
        }
    }
    if promo != Promo::Only {
        for to in non_promoting_targets(us, pt, targets) {
            list.push(Move::normal(from, to, false));
        }
    }
}

/// Board moves of every piece but the king to `targets`, with the given promotion variants.
/// With `LEGAL`, pinned pieces only move along their pin line.
fn board_moves<const LEGAL: bool>(
    pos: &Position,
    list: &mut MoveList,
    targets: Bitboard,
    promo: Promo,
) {
    board_moves_from::<LEGAL>(pos, list, Bitboard::ALL, targets, promo);
}

/// [`board_moves`] for the pieces on `movers` only.
pub(super) fn board_moves_from<const LEGAL: bool>(
    pos: &Position,
    list: &mut MoveList,
    movers: Bitboard,
    targets: Bitboard,
    promo: Promo,
) {
    let t = tables();
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let pinned = if LEGAL {
        pos.pinned(us)
    } else {
        Bitboard::EMPTY
    };
    // Unpinned pawns in bulk: shift the whole set one rank forward. Composed positions may
    // hold pawns on their last rank; they have no moves and must not be shifted into the
    // neighbouring file.
    let pawns = (pos.pieces_of(us, PieceType::Pawn) & movers)
        .and_not(dead_ranks(us, PieceType::Pawn) | pinned);
    let pawn_to = pawns.shift_forward(us) & targets;
    let back = match us {
        Color::Black => 1i32,
        Color::White => -1i32,
    };
    let zone = Bitboard::zone(us);
    let dead = dead_ranks(us, PieceType::Pawn);
    if promo != Promo::Never {
        for to in pawn_to & zone {
            let from = Square::new((to.index() as i32 + back) as u8);
            list.push(Move::normal(from, to, true));
        }
    }
    if promo != Promo::Only {
        for to in pawn_to.and_not(dead) {
            let from = Square::new((to.index() as i32 + back) as u8);
            list.push(Move::normal(from, to, false));
        }
    }
    // Pinned pawns and pawns on dead ranks go through the general loop.
    let others = (pos.pieces(us) & movers).and_not(pawns | pos.pieces_of_type(PieceType::King));
    for from in others {
        let pt = pos.piece_on(from).piece_type();
        let mut att = t.attacks(pt, us, from, occ) & targets;
        if LEGAL && pinned.has(from) {
            let ksq = pos.king_square(us).expect("pinned implies a king");
            att &= t.line(ksq, from);
        }
        emit(list, us, pt, from, att, promo);
    }
}

/// King moves to `targets`; with `LEGAL`, only to squares the enemy does not attack.
pub(super) fn king_moves<const LEGAL: bool>(
    pos: &Position,
    list: &mut MoveList,
    targets: Bitboard,
) {
    let us = pos.side_to_move();
    if let Some(k) = pos.king_square(us) {
        let occ = pos.occupied() ^ Bitboard::from_square(k);
        for to in tables().king(k) & targets {
            if !LEGAL || !pos.attacked_by(us.flip(), to, occ) {
                list.push(Move::normal(k, to, false));
            }
        }
    }
}

/// The squares of `targets` (empty) where the side to move may drop a pawn: not on a file
/// holding one of its pawns, not on its last rank, and with `LEGAL` not a pawn-drop mate.
fn pawn_drop_squares<const LEGAL: bool>(pos: &Position, targets: Bitboard) -> Bitboard {
    let us = pos.side_to_move();
    let mut pawn_files = Bitboard::EMPTY;
    for s in pos.pieces_of(us, PieceType::Pawn) {
        pawn_files |= Bitboard::file(s.file());
    }
    let mut pawn_to = targets.and_not(pawn_files | dead_ranks(us, PieceType::Pawn));
    if LEGAL {
        if let Some(ek) = pos.king_square(us.flip()) {
            // The only pawn drop that checks is the one right in front of the king.
            let front = tables().pawn(us.flip(), ek);
            if (pawn_to & front).any() && pos.is_pawn_drop_mate(us, front.lsb()) {
                pawn_to = pawn_to.and_not(front);
            }
        }
    }
    pawn_to
}

/// Drops onto `targets` (which must be empty squares). With `LEGAL`, a pawn drop that
/// would mate is left out.
fn drops<const LEGAL: bool>(pos: &Position, list: &mut MoveList, targets: Bitboard) {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    if hand.is_empty() || targets.is_empty() {
        return;
    }
    if hand.has(PieceType::Pawn) {
        for to in pawn_drop_squares::<LEGAL>(pos, targets) {
            list.push(Move::drop(PieceType::Pawn, to));
        }
    }
    if hand.has(PieceType::Lance) {
        for to in targets.and_not(dead_ranks(us, PieceType::Lance)) {
            list.push(Move::drop(PieceType::Lance, to));
        }
    }
    if hand.has(PieceType::Knight) {
        for to in targets.and_not(dead_ranks(us, PieceType::Knight)) {
            list.push(Move::drop(PieceType::Knight, to));
        }
    }
    // Silver, gold, bishop, rook drop anywhere: emit them together per square.
    let mut kinds = [PieceType::Pawn; 4];
    let mut n = 0;
    for pt in [
        PieceType::Silver,
        PieceType::Gold,
        PieceType::Bishop,
        PieceType::Rook,
    ] {
        if hand.has(pt) {
            kinds[n] = pt;
            n += 1;
        }
    }
    if n > 0 {
        for to in targets {
            for &pt in &kinds[..n] {
                list.push(Move::drop(pt, to));
            }
        }
    }
}

fn generate_impl<const LEGAL: bool>(pos: &Position, gen: GenType, list: &mut MoveList) {
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    let enemy = pos.pieces(us.flip());
    let empty = !pos.occupied();
    match gen {
        GenType::NonEvasions => {
            board_moves::<LEGAL>(pos, list, !own, Promo::Both);
            king_moves::<LEGAL>(pos, list, !own);
            drops::<LEGAL>(pos, list, empty);
        }
        GenType::CapturesPromotions => {
            board_moves::<LEGAL>(pos, list, enemy, Promo::Both);
            board_moves::<LEGAL>(pos, list, empty, Promo::Only);
            king_moves::<LEGAL>(pos, list, enemy);
        }
        GenType::Quiets => {
            board_moves::<LEGAL>(pos, list, empty, Promo::Never);
            king_moves::<LEGAL>(pos, list, empty);
            drops::<LEGAL>(pos, list, empty);
        }
        GenType::Evasions => {
            let checkers = pos.checkers();
            debug_assert!(checkers.any());
            king_moves::<LEGAL>(pos, list, !own);
            if checkers.more_than_one() {
                return;
            }
            let ksq = pos.king_square(us).expect("in check implies a king");
            let checker = checkers.lsb();
            let between = tables().between(ksq, checker);
            board_moves::<LEGAL>(pos, list, between | checkers, Promo::Both);
            drops::<LEGAL>(pos, list, between);
        }
        GenType::Checks => {
            let them = us.flip();
            let Some(ksq) = pos.king_square(them) else {
                return;
            };
            // Candidates, then the exact test. A direct check lands on a square from which
            // some kind of piece attacks the king (the king's own attack sets for the other
            // colour, over every kind a move can produce). A discovered check moves a piece
            // off a line between one of ours and the king: those pieces may go anywhere.
            let t = tables();
            let occ = pos.occupied();
            // Where each kind (after the move) attacks the king from, indexed by
            // `PieceType::index` (1 to 14); `near` is their union.
            let mut check_squares = [Bitboard::EMPTY; 15];
            let mut near = Bitboard::EMPTY;
            for pt in PieceType::ALL {
                if pt != PieceType::King {
                    check_squares[pt.index()] = t.attacks(pt, them, ksq, occ);
                    near |= check_squares[pt.index()];
                }
            }
            let discoverers = pos.blockers_for_king(them) & own;
            // Candidates go straight into `list` (no second buffer to clear) and are then
            // filtered in place.
            let start = list.len();
            board_moves_from::<LEGAL>(pos, list, !discoverers, near & !own, Promo::Both);
            board_moves_from::<LEGAL>(pos, list, discoverers, !own, Promo::Both);
            // A king next to the other king "checks" it in pseudo-legal generation only.
            let king_targets = match pos.king_square(us) {
                Some(k) if discoverers.has(k) => !own,
                _ => t.king(ksq) & !own,
            };
            king_moves::<LEGAL>(pos, list, king_targets);
            drops::<LEGAL>(pos, list, near & empty);
            // The exact test, cheap for most candidates: a drop, or a move of a piece that
            // cannot uncover a line (neither the king nor one of `discoverers`), checks when
            // it lands where its kind after the move attacks the king from. (Moving off the
            // square cannot open that piece's own line to the king: a piece behind itself on
            // the line would already be giving check.) The others ask `gives_check`.
            let own_king = pos.king_square(us);
            list.retain_from(start, |m| {
                if m.is_drop() {
                    return check_squares[m.dropped().index()].has(m.to());
                }
                let from = m.from();
                if discoverers.has(from) || own_king == Some(from) {
                    return pos.gives_check(m);
                }
                check_squares[pos.moved_piece_after(m).piece_type().index()].has(m.to())
            });
        }
    }
}

/// Append pseudo-legal moves of kind `gen` to `list`. `Evasions` requires the side to move
/// to be in check; the others require it not to be.
pub fn generate(pos: &Position, gen: GenType, list: &mut MoveList) {
    generate_impl::<false>(pos, gen, list);
}

/// Like [`generate`], but only legal moves: pins, king safety and pawn-drop mate are
/// resolved during generation.
pub fn generate_legal(pos: &Position, gen: GenType, list: &mut MoveList) {
    generate_impl::<true>(pos, gen, list);
}

/// All legal moves of the position.
pub fn legal_moves(pos: &Position, list: &mut MoveList) {
    let gen = if pos.in_check() {
        GenType::Evasions
    } else {
        GenType::NonEvasions
    };
    generate_impl::<true>(pos, gen, list);
}

/// The king's legal moves alone (in check or not): the replies a mate test tries first, as
/// the likeliest escapes, before it generates the others.
pub fn legal_king_moves(pos: &Position, list: &mut MoveList) {
    king_moves::<true>(pos, list, !pos.pieces(pos.side_to_move()));
}

/// Convenience: the legal moves as a fresh list.
pub fn legal(pos: &Position) -> MoveList {
    let mut l = MoveList::new();
    legal_moves(pos, &mut l);
    l
}

/// The legal moves in the one order every front end lists them: by their USI text.
pub fn legal_in_usi_order(pos: &Position) -> Vec<Move> {
    let mut moves: Vec<Move> = legal(pos).iter().copied().collect();
    moves.sort_by_cached_key(|m| m.usi());
    moves
}

/// The number of legal replies to a check, without making the list: what
/// `generate_legal(pos, GenType::Evasions, ..)` would produce, counted. The mate solver
/// asks this of every new check (its first proof number), so it goes from the few target
/// squares to the pieces that reach them (in shogi a piece moves where it attacks) rather
/// than from every piece. A pinned piece moves along its line only, as in the generator
/// (the pinned set counts a piece behind another slider of theirs as pinned, so a capture
/// of the checker along that line is one). Only valid in check.
pub fn count_evasions(pos: &Position) -> u32 {
    let us = pos.side_to_move();
    let t = tables();
    let Some(ksq) = pos.king_square(us) else {
        return 0;
    };
    let count = count_king_escapes(pos, us, ksq);
    let checkers = pos.checkers();
    if checkers.more_than_one() || checkers.is_empty() {
        return count;
    }
    let between = t.between(ksq, checkers.lsb());
    count + interposing_moves::<false>(pos, us, ksq, checkers, between) + count_drops(pos, between)
}

/// The board moves of `us`'s pieces other than the king on `ksq` onto the single checker
/// (`checkers`) or onto `between` (the squares between it and the king), pins respected:
/// how many there are, promoting and not, or with `FIRST` a count above 0 as soon as one
/// is found. One walk for [`count_evasions`] (every move) and [`has_evasion`] (the first).
#[inline(always)]
fn interposing_moves<const FIRST: bool>(
    pos: &Position,
    us: Color,
    ksq: Square,
    checkers: Bitboard,
    between: Bitboard,
) -> u32 {
    let t = tables();
    let occ = pos.occupied();
    let pinned = pos.pinned(us);
    let movers = pos.pieces(us).and_not(Bitboard::from_square(ksq));
    let mut count = 0;
    for to in between | checkers {
        for from in pos.attackers_to(us, to, occ) & movers {
            if pinned.has(from) && !t.line(ksq, from).has(to) {
                continue;
            }
            let pt = pos.piece_on(from).piece_type();
            let one = Bitboard::from_square(to);
            count += promoting_targets(us, pt, from, one).count()
                + non_promoting_targets(us, pt, one).count();
            if FIRST && count > 0 {
                return count;
            }
        }
    }
    count
}

/// The squares next to `us`'s king on `ksq`, not held by `us`, that the other side does
/// not attack once the king has left `ksq`: its escapes. One attack map of the pieces that
/// can reach them (step pieces within two files and three ranks, the sliders whose
/// empty-board lines cross them) instead of every piece kind asked square by square.
fn count_king_escapes(pos: &Position, us: Color, ksq: Square) -> u32 {
    free_king_squares(pos, us, ksq).count()
}

/// The squares next to `us`'s king on `ksq` without a piece of `us` that nothing of the
/// other side attacks, the king taken off the board (a slider's ray does not stop at the
/// king it checks): from one attack map, the other side's step pieces near the king and
/// the sliders whose empty-board lines cross a square still free, each attack set looked up
/// once, stopping when no square is left.
pub(crate) fn free_king_squares(pos: &Position, us: Color, ksq: Square) -> Bitboard {
    let t = tables();
    let them = us.flip();
    let targets = t.king(ksq) & !pos.pieces(us);
    if targets.is_empty() {
        return targets;
    }
    let occ = pos.occupied() ^ Bitboard::from_square(ksq);
    let theirs = pos.pieces(them);
    let sliders =
        (pos.pieces_of_type(PieceType::Lance) | pos.bishops_horses() | pos.rooks_dragons())
            & theirs;
    let mut free = targets;
    for from in theirs.and_not(sliders) & step_reach(ksq) {
        free = free.and_not(t.attacks(pos.piece_on(from).piece_type(), them, from, occ));
        if free.is_empty() {
            return free;
        }
    }
    for from in sliders {
        let pt = pos.piece_on(from).piece_type();
        let lines = match pt {
            PieceType::Lance => t.lance_empty(them, from),
            PieceType::Bishop => t.bishop_empty(from),
            PieceType::Rook => t.rook_empty(from),
            PieceType::Horse => t.bishop_empty(from) | t.king(from),
            _ => t.rook_empty(from) | t.king(from),
        };
        if (lines & free).is_empty() {
            continue;
        }
        free = free.and_not(t.attacks(pt, them, from, occ));
        if free.is_empty() {
            return free;
        }
    }
    free
}

/// Squares within two files and three ranks of `sq`: where a step piece (a knight
/// included) must stand to attack a square next to `sq`.
fn step_reach(sq: Square) -> Bitboard {
    STEP_REACH[sq.index()]
}

/// [`step_reach`] of every square (index = 9 * file + rank, the bitboard layout).
const STEP_REACH: [Bitboard; 81] = {
    let mut table = [Bitboard(0); 81];
    let mut i = 0usize;
    while i < 81 {
        let (f, r) = ((i / 9) as u32, (i % 9) as u8);
        let ranks = Bitboard::ranks(r.saturating_sub(3), if r + 3 > 8 { 8 } else { r + 3 });
        let (f_lo, f_hi) = (f.saturating_sub(2), if f + 2 > 8 { 8 } else { f + 2 });
        let files = ((1u128 << ((f_hi - f_lo + 1) * 9)) - 1) << (f_lo * 9);
        table[i] = Bitboard(ranks.0 & files);
        i += 1;
    }
    table
};

/// How many drops [`drops`] (legal) would produce on `targets` (empty squares).
fn count_drops(pos: &Position, targets: Bitboard) -> u32 {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    if hand.is_empty() || targets.is_empty() {
        return 0;
    }
    let mut count = 0;
    if hand.has(PieceType::Pawn) {
        count += pawn_drop_squares::<true>(pos, targets).count();
    }
    for pt in [PieceType::Lance, PieceType::Knight] {
        if hand.has(pt) {
            count += targets.and_not(dead_ranks(us, pt)).count();
        }
    }
    let anywhere = [
        PieceType::Silver,
        PieceType::Gold,
        PieceType::Bishop,
        PieceType::Rook,
    ]
    .iter()
    .filter(|&&pt| hand.has(pt))
    .count() as u32;
    count + anywhere * targets.count()
}

/// True when the side to move has at least one legal move. In check (where mate search
/// asks) without generating: [`has_evasion`], the king's free squares first.
pub fn has_legal_move(pos: &Position) -> bool {
    let mut list = MoveList::new();
    if !pos.in_check() {
        generate_impl::<true>(pos, GenType::NonEvasions, &mut list);
        return !list.is_empty();
    }
    has_evasion(pos)
}

/// In check: whether [`count_evasions`] would count at least one, asked cheapest first and
/// stopping at the first (the king's free squares, a drop between, a piece that takes the
/// checker or steps between). Without a list: the mate-in-one detector asks it after every
/// candidate check it plays.
fn has_evasion(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let t = tables();
    let Some(ksq) = pos.king_square(us) else {
        return false;
    };
    if free_king_squares(pos, us, ksq).any() {
        return true;
    }
    let checkers = pos.checkers();
    if checkers.more_than_one() || checkers.is_empty() {
        return false;
    }
    let between = t.between(ksq, checkers.lsb());
    count_drops(pos, between) > 0 || interposing_moves::<true>(pos, us, ksq, checkers, between) > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Validation;

    /// Every attacker of colour `c`, each attack set looked up whether or not a piece of
    /// its kind could be on its lines: the reference for the lazy lookups.
    fn attackers_by_every_lookup(pos: &Position, c: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let t = tables();
        let them = c.flip();
        let of = |pt: PieceType| pos.pieces_of_type(pt);
        let kings_horses_dragons =
            of(PieceType::King) | of(PieceType::Horse) | of(PieceType::Dragon);
        ((t.pawn(them, sq) & of(PieceType::Pawn))
            | (t.knight(them, sq) & of(PieceType::Knight))
            | (t.silver(them, sq) & of(PieceType::Silver))
            | (t.gold(them, sq) & pos.golds())
            | (t.king(sq) & kings_horses_dragons)
            | (t.lance(them, sq, occ) & of(PieceType::Lance))
            | (t.bishop(sq, occ) & pos.bishops_horses())
            | (t.rook(sq, occ) & pos.rooks_dragons()))
            & pos.pieces(c)
    }

    /// `attackers_to` (which looks a slider kind up only when one is on its lines) and
    /// `attacked_by` agree with every attack set looked up, on every square, for both
    /// colours and with the king of either side lifted off, and `attackers_to_both` with
    /// the two colours' union (also with the centre square emptied), along random games
    /// from the start and from the mate problems (few sliders on one side).
    #[test]
    fn lazy_attackers_equal_every_lookup() {
        let mut starts = vec![Position::startpos()];
        let path = format!(
            "{}/tests/data/tsume/generated.tsv",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(path).unwrap();
        for line in text.lines().filter(|l| !l.starts_with('#')).step_by(50) {
            let sfen = line.split('\t').next().unwrap();
            starts.push(Position::from_sfen_with(sfen, Validation::Composed).unwrap());
        }
        let mut rng = crate::util::rng::Rng::new(11);
        let mut compared = 0;
        for mut pos in starts {
            for _ in 0..30 {
                for c in [Color::Black, Color::White] {
                    let lifted = pos
                        .king_square(c.flip())
                        .map_or(Bitboard::EMPTY, Bitboard::from_square);
                    for occ in [pos.occupied(), pos.occupied() ^ lifted] {
                        for i in 0..81u8 {
                            let sq = Square::new(i);
                            let full = attackers_by_every_lookup(&pos, c, sq, occ);
                            assert_eq!(pos.attackers_to(c, sq, occ), full, "{pos} {i}");
                            assert_eq!(pos.attacked_by(c, sq, occ), full.any(), "{pos} {i}");
                            compared += 1;
                        }
                    }
                }
                for occ in [
                    pos.occupied(),
                    pos.occupied() ^ Bitboard::from_square(Square::new(40)),
                ] {
                    for i in 0..81u8 {
                        let sq = Square::new(i);
                        let both = pos.attackers_to(Color::Black, sq, occ)
                            | pos.attackers_to(Color::White, sq, occ);
                        assert_eq!(pos.attackers_to_both(sq, occ), both, "{pos} {i}");
                    }
                }
                let moves = legal(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.do_move(moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
            }
        }
        assert!(compared > 100_000, "{compared}");
    }

    /// Every square from which a step piece of either colour (a knight, or the king step
    /// of a horse or dragon, included) attacks a square next to a king lies in that king's
    /// `step_reach`, on every square of the board: the escape count may skip the rest.
    #[test]
    fn step_reach_holds_every_step_attacker_of_the_escape_squares() {
        let t = tables();
        for k in 0..81u8 {
            let ksq = Square::new(k);
            let reach = step_reach(ksq);
            for s in t.king(ksq) {
                for c in [Color::Black, Color::White] {
                    let attackers =
                        t.pawn(c, s) | t.knight(c, s) | t.silver(c, s) | t.gold(c, s) | t.king(s);
                    assert!(
                        attackers.and_not(reach).is_empty(),
                        "king {k}, square {}",
                        s.index()
                    );
                }
            }
        }
        // Not the whole board: the point of it.
        assert_eq!(step_reach(Square::from_file_rank(4, 4)).count(), 5 * 7);
    }

    /// `count_evasions` equals the length of the legal evasion list after every legal check
    /// of every position along random games from the mate problems (composed positions with
    /// pins, interpositions, pawn-drop mates and pieces on their last ranks) and from the
    /// start position.
    #[test]
    fn counted_evasions_equal_the_generated_ones() {
        let mut starts: Vec<Position> = Vec::new();
        for file in ["tsume_sample100.tsv", "generated.tsv"] {
            let path = format!("{}/tests/data/tsume/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(path).unwrap();
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let sfen = line.split('\t').next().unwrap();
                starts.push(Position::from_sfen_with(sfen, Validation::Composed).unwrap());
            }
        }
        starts.push(Position::startpos());
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut checked, mut with_interpositions) = (0u32, 0u32);
        for start in starts {
            let mut pos = start;
            for _ in 0..12 {
                let all = legal(&pos);
                if all.is_empty() {
                    break;
                }
                let checks: Vec<Move> = all
                    .iter()
                    .copied()
                    .filter(|&m| pos.gives_check(m))
                    .collect();
                for m in checks {
                    pos.do_move(m);
                    let mut list = MoveList::new();
                    generate_legal(&pos, GenType::Evasions, &mut list);
                    assert_eq!(
                        count_evasions(&pos),
                        list.len() as u32,
                        "{pos} after {}: {:?}",
                        m.usi(),
                        list.iter().map(|e| e.usi()).collect::<Vec<_>>()
                    );
                    assert_eq!(has_evasion(&pos), !list.is_empty(), "{pos}");
                    checked += 1;
                    with_interpositions += list.iter().any(|e| e.is_drop()) as u32;
                    pos.undo_move();
                }
                pos.do_move(all.as_slice()[next(all.len())]);
            }
        }
        assert!(
            checked > 50_000 && with_interpositions > 5_000,
            "{checked} {with_interpositions}"
        );
    }
}
