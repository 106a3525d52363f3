//! Game-end rules: repetition (sennichite) and perpetual check, checkmate, entering-king
//! declaration (27-point CSA rule, 24-point rule, try rule) and a move limit, gathered in
//! one query, [`Position::game_state`].

use super::bitboard::Bitboard;
use super::movegen::legal;
use super::moves::Move;
use super::position::Position;
use super::types::{Color, PieceType, Square};

/// Which entering-king rule applies.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum DeclarationRule {
    /// No declaration.
    #[default]
    Off,
    /// CSA rule: king in the enemy camp, not in check, 10 other pieces in the camp, and 28
    /// points (black) or 27 points (white) counting camp pieces and hand, big pieces 5.
    Csa27,
    /// 24-point rule: same conditions; 31 points or more wins, 24 to 30 draws.
    Points24,
    /// Try rule: a king that reaches the enemy king's starting square (5a for black, 5i for
    /// white) by a legal move wins.
    Try,
}

/// The rules a game is played under, beyond the moves themselves.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GameRules {
    /// Which declaration (nyugyoku) rule applies.
    pub declaration: DeclarationRule,
    /// Draw once this many moves have been played (by move number), if set.
    pub max_moves: Option<u32>,
}

/// Why a game is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawReason {
    /// The same position (board, hands, side to move) for the fourth time.
    Repetition,
    /// The move limit was reached.
    MaxMoves,
    /// A declaration under the 24-point rule with 24 to 30 points.
    Declaration,
}

/// Why a game is won.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WinReason {
    /// The loser is to move and has no legal move.
    Checkmate,
    /// Fourfold repetition in which every move of the loser gave check.
    PerpetualCheck,
    /// The winner, to move, is entitled to declare (27/24-point rules).
    Declaration,
    /// The winner's king reached the try square.
    Try,
}

/// Outcome of a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameState {
    /// The game goes on.
    Ongoing,
    /// The game is drawn.
    Draw(DrawReason),
    /// The game is won.
    Win {
        /// The side that wins.
        winner: Color,
        /// How it wins.
        reason: WinReason,
    },
}

impl GameState {
    /// The loser of a won game.
    pub fn loser(self) -> Option<Color> {
        match self {
            GameState::Win { winner, .. } => Some(winner.flip()),
            _ => None,
        }
    }
}

/// Repetition status of the current position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Repetition {
    /// No repetition.
    None,
    /// Plain repetition: a draw.
    Draw,
    /// The opponent gave check with every one of its moves in the cycle: the side to move
    /// wins.
    Win,
    /// The side to move gave check with every one of its moves in the cycle: it loses.
    Loss,
}

/// The board and side to move of an earlier position come back with other hands
/// ([`Position::hand_cycle`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HandCycle {
    /// No such earlier position (or only ones whose hands cannot be compared).
    None,
    /// The side to move holds at least as many of every kind as it did then: it won
    /// material around the cycle.
    Superior,
    /// It holds at most as many of every kind: it lost material around the cycle.
    Inferior,
}

/// The square a king must reach under the try rule.
pub fn try_square(c: Color) -> Square {
    match c {
        Color::Black => Square::from_usi("5a").expect("valid"),
        Color::White => Square::from_usi("5i").expect("valid"),
    }
}

impl Position {
    /// Repetition status, counting the current position and the earlier occurrences of it
    /// in the move history. `occurrences` is how many occurrences make a repetition:
    /// 4 for the game rule (sennichite), 2 inside a search. Only positions since the last
    /// null move are considered.
    pub fn repetition(&self, occurrences: u32) -> Repetition {
        let states = &self.states;
        let n = states.len() - 1;
        let cur = &states[n];
        let limit = cur.plies_from_null as usize;
        let mut found = 1;
        let mut first = n;
        let mut back = 4;
        while back <= limit {
            let i = n - back;
            if states[i].key == cur.key {
                found += 1;
                first = i;
                if found >= occurrences {
                    break;
                }
            }
            back += 2;
        }
        if found < occurrences {
            return Repetition::None;
        }
        // State j was reached by a move of the side not to move at j, and that move gave
        // check iff state j has checkers. `n - first` is even, so the last mover's moves
        // led to n, n-2, ..., first+2 and the side to move's to n-1, ..., first+1.
        let mover_all_checks = ((first + 2)..=n)
            .rev()
            .step_by(2)
            .all(|j| states[j].checkers.any());
        let stm_all_checks = ((first + 1)..n)
            .rev()
            .step_by(2)
            .all(|j| states[j].checkers.any());
        if mover_all_checks {
            Repetition::Win
        } else if stm_all_checks {
            Repetition::Loss
        } else {
            Repetition::Draw
        }
    }

    /// Whether the board and side to move of a position at most `max_back` plies back
    /// (since the last null move) come back now with other hands, the side to move's
    /// dominating the one it had then or dominated by it (the pieces on the board being the
    /// same, what one side gained in hand the other lost). The nearest such position
    /// decides. Not a rule of the game: a search scores such a cycle as a gain or loss of
    /// material that the opponent (or it) could have avoided.
    pub(crate) fn hand_cycle(&self, max_back: usize) -> HandCycle {
        let states = &self.states;
        let n = states.len() - 1;
        let cur = &states[n];
        let limit = (cur.plies_from_null as usize).min(max_back);
        let mut back = 4;
        while back <= limit {
            let earlier = &states[n - back];
            if earlier.board_key == cur.board_key && earlier.key != cur.key {
                if cur.hand_to_move.dominates(earlier.hand_to_move) {
                    return HandCycle::Superior;
                }
                if earlier.hand_to_move.dominates(cur.hand_to_move) {
                    return HandCycle::Inferior;
                }
            }
            back += 2;
        }
        HandCycle::None
    }

    /// Points and camp count for a declaration by `c`: (points, pieces in camp other than
    /// the king). Big pieces (bishop, rook and their promotions) count 5, others 1; pieces
    /// in camp and in hand count.
    pub fn declaration_points(&self, c: Color) -> (u32, u32) {
        let camp = Bitboard::zone(c) & self.pieces(c);
        let mut points = 0;
        let mut count = 0;
        for sq in camp {
            let pt = self.piece_on(sq).piece_type();
            if pt == PieceType::King {
                continue;
            }
            count += 1;
            points += big_piece_points(pt);
        }
        let hand = self.hand(c);
        for pt in PieceType::HAND {
            points += hand.count(pt) * big_piece_points(pt);
        }
        (points, count)
    }

    /// What the side to move obtains by declaring now under `rule`: `Some(Win)`,
    /// `Some(Draw)` (24-point rule with 24-30 points) or `None` (not entitled). Under
    /// the try rule, a win when its king can legally step onto the try square.
    pub fn declaration(&self, rule: DeclarationRule) -> Option<GameState> {
        let us = self.side_to_move();
        let win = GameState::Win {
            winner: us,
            reason: WinReason::Declaration,
        };
        match rule {
            DeclarationRule::Off => None,
            DeclarationRule::Try => self.try_move().map(|_| GameState::Win {
                winner: us,
                reason: WinReason::Try,
            }),
            DeclarationRule::Csa27 | DeclarationRule::Points24 => {
                let ksq = self.king_square(us)?;
                if self.in_check() || !Bitboard::zone(us).has(ksq) {
                    return None;
                }
                let (points, count) = self.declaration_points(us);
                if count < 10 {
                    return None;
                }
                if rule == DeclarationRule::Csa27 {
                    let need = if us == Color::Black { 28 } else { 27 };
                    (points >= need).then_some(win)
                } else if points >= 31 {
                    Some(win)
                } else if points >= 24 {
                    Some(GameState::Draw(DrawReason::Declaration))
                } else {
                    None
                }
            }
        }
    }

    /// Under the try rule: the legal king move onto the try square, if there is one.
    pub fn try_move(&self) -> Option<Move> {
        let us = self.side_to_move();
        let ksq = self.king_square(us)?;
        let target = try_square(us);
        let m = Move::normal(ksq, target, false);
        (ksq != target && self.is_legal(m)).then_some(m)
    }

    /// The state of the game in this position under `rules`: a fourfold repetition (draw,
    /// or a loss for the side that gave perpetual check), checkmate (the side to move has no
    /// legal move), a king that reached the try square, a declaration the side to move is
    /// entitled to, or the move limit.
    pub fn game_state(&self, rules: &GameRules) -> GameState {
        let us = self.side_to_move();
        match self.repetition(4) {
            Repetition::None => {}
            Repetition::Draw => return GameState::Draw(DrawReason::Repetition),
            Repetition::Win => {
                return GameState::Win {
                    winner: us,
                    reason: WinReason::PerpetualCheck,
                }
            }
            Repetition::Loss => {
                return GameState::Win {
                    winner: us.flip(),
                    reason: WinReason::PerpetualCheck,
                }
            }
        }
        if legal(self).is_empty() {
            return GameState::Win {
                winner: us.flip(),
                reason: WinReason::Checkmate,
            };
        }
        if rules.declaration == DeclarationRule::Try {
            let them = us.flip();
            if self.king_square(them) == Some(try_square(them)) {
                return GameState::Win {
                    winner: them,
                    reason: WinReason::Try,
                };
            }
        } else if let Some(state) = self.declaration(rules.declaration) {
            return state;
        }
        if let Some(max) = rules.max_moves {
            if self.move_number() > max {
                return GameState::Draw(DrawReason::MaxMoves);
            }
        }
        GameState::Ongoing
    }
}

fn big_piece_points(pt: PieceType) -> u32 {
    match pt.unpromoted() {
        PieceType::Bishop | PieceType::Rook => 5,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board of a position coming back with other hands (`Position::hand_cycle`, which a
    /// search may score; not a rule of the game): black's bishop takes the pawn on 5e and
    /// goes home by way of 3g while white's king steps out and back and white drops its pawn
    /// on 5e again. Six plies on, the board and side to move are the start's, black holding
    /// the pawn white held.
    #[test]
    fn a_board_that_comes_back_with_other_hands_is_a_hand_cycle() {
        let play = |start: &str, moves: &[&str]| {
            let mut p = Position::from_usi_position(start).unwrap();
            for m in moves {
                let mv = p.parse_usi_move(m).unwrap();
                p.do_move(mv);
            }
            p
        };
        let black_first = "sfen 4k4/9/9/9/4p4/9/9/9/4K3B b p 1";
        let cycle = ["1i5e", "5a4a", "5e3g", "4a5a", "3g1i", "P*5e"];
        for n in 0..cycle.len() {
            let p = play(black_first, &cycle[..n]);
            assert_eq!(p.hand_cycle(16), HandCycle::None, "after {n} plies");
            assert_eq!(p.repetition(2), Repetition::None);
        }
        let p = play(black_first, &cycle);
        assert_eq!(p.to_sfen(), "4k4/9/9/9/4p4/9/9/9/4K3B b P 7");
        assert_eq!(p.hand_cycle(16), HandCycle::Superior);
        // Not a plain repetition: the keys differ.
        assert_eq!(p.repetition(2), Repetition::None);
        // Beyond the walk's bound.
        assert_eq!(p.hand_cycle(5), HandCycle::None);
        // Kings out and back: the position after the cycle repeats (a plain repetition), and the
        // start, ten plies back, still has the other hands.
        let mut longer = cycle.to_vec();
        longer.extend(["5i4i", "5a4a", "4i5i", "4a5a"]);
        let p = play(black_first, &longer);
        assert_eq!(p.repetition(2), Repetition::Draw);
        assert_eq!(p.hand_cycle(16), HandCycle::Superior);
        // The same cycle with white to move first: white ends without its pawn.
        let white_first = "sfen 4k4/9/9/9/4p4/9/9/9/4K3B w p 1";
        let p = play(
            white_first,
            &["5a4a", "1i5e", "4a5a", "5e3g", "P*5e", "3g1i"],
        );
        assert_eq!(p.to_sfen(), "4k4/9/9/9/4p4/9/9/9/4K3B w P 7");
        assert_eq!(p.hand_cycle(16), HandCycle::Inferior);
        // A null move ends the walk, as it does for repetitions.
        let mut p = play(black_first, &cycle);
        p.do_null_move();
        p.do_null_move();
        assert_eq!(p.hand_cycle(16), HandCycle::None);
    }
}
