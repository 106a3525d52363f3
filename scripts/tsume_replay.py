"""Replay a mate line with cshogi, the rules oracle: shared by the mate benchmarks."""
import cshogi


def replay(sfen, moves):
    """True when `moves` (USI) is a mate line from `sfen`: odd length, every move legal,
    every attacker move gives check, and the last position is checkmate."""
    b = cshogi.Board(sfen)
    if len(moves) % 2 == 0:
        return False
    for i, m in enumerate(moves):
        mv = b.move_from_usi(m)
        if mv == 0 or not b.is_legal(mv):
            return False
        b.push(mv)
        if i % 2 == 0 and not b.is_check():
            return False
    return b.is_game_over()
