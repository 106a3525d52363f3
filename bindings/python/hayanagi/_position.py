"""Position: a game record (start position plus moves) with the rules queries of the
library: legal moves, SFEN, perft, legality, evaluation and game state.

It owns a small private engine (1 MiB table, never searching) that holds the position; the
C API has no engine-less position calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, List, Optional, Tuple

from . import _native as N

if TYPE_CHECKING:
    from ._engine import Engine, GameState

STARTPOS_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


class Position:
    """A start position (USI syntax: ``startpos``, ``sfen <SFEN>`` or a bare SFEN) and the
    moves played from it.

    >>> p = Position()
    >>> p.push("7g7f"); p.push("3c3d")
    >>> len(p.legal_moves()), p.perft(2)
    """

    def __init__(self, position: str = "startpos", moves: Iterable[str] = ()) -> None:
        from ._engine import Engine

        base = position.strip()
        if " moves " in f" {base} ":
            head, _, tail = f" {base} ".partition(" moves ")
            base, moves = head.strip(), list(tail.split()) + list(moves)
        self._base = base or "startpos"
        self._moves: List[str] = []
        self._engine: Engine = Engine(hash_mib=1)
        try:
            self._engine.set_position(self._base)  # PARSE for a bad SFEN
            for m in moves:
                self.push(m)
        except BaseException:
            self._engine.close()
            raise

    @classmethod
    def from_sfen(cls, sfen: str) -> "Position":
        """The position of a bare SFEN string, with no moves."""
        return cls("sfen " + sfen)

    def close(self) -> None:
        """Free the private engine now (otherwise the garbage collector does)."""
        self._engine.close()

    def __enter__(self) -> "Position":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the record ---

    @property
    def moves(self) -> Tuple[str, ...]:
        """The moves played from the start position (USI)."""
        return tuple(self._moves)

    def usi(self) -> str:
        """The USI position argument: ``startpos moves ...`` or ``sfen ... moves ...``."""
        base = self._base
        if base != "startpos" and not base.startswith("sfen "):
            base = "sfen " + base
        return base + (" moves " + " ".join(self._moves) if self._moves else "")

    def push(self, move: str) -> None:
        """Play a move; HayanagiError ILLEGAL_MOVE (position unchanged) when it is illegal."""
        from ._engine import HayanagiError

        if not self._engine.is_legal(move):
            raise HayanagiError(N.ILLEGAL_MOVE, f"{move} is not legal in {self.sfen()}")
        self._moves.append(move)
        self._engine.set_position(self.usi())

    def pop(self) -> str:
        """Take back the last move and return it."""
        m = self._moves.pop()
        self._engine.set_position(self.usi())
        return m

    def copy(self) -> "Position":
        """An independent Position with the same start and moves."""
        return Position(self._base, self._moves)

    # --- queries ---

    def sfen(self) -> str:
        """The current position as SFEN."""
        return self._engine.sfen()

    def legal_moves(self) -> List[str]:
        """Legal moves in USI, ASCII order (every legal non-promotion included)."""
        return self._engine.legal_moves()

    def is_legal(self, move: str) -> bool:
        """Is the USI ``move`` legal here? Malformed text is not legal."""
        return self._engine.is_legal(move)

    def perft(self, depth: int) -> int:
        """The number of legal move sequences of ``depth`` plies (0 to 10)."""
        return self._engine.perft(depth)

    def evaluate(self) -> int:
        """Static evaluation for the side to move, in centipawns."""
        return self._engine.evaluate()

    def game_state(self) -> "Tuple[GameState, Optional[int]]":
        """The game state and the winner (0 black, 1 white, None)."""
        return self._engine.game_state()

    @property
    def side_to_move(self) -> str:
        """"b" (black, sente) or "w" (white, gote)."""
        return self.sfen().split()[1]

    def __repr__(self) -> str:
        return f"Position({self.usi()!r})"

    def __str__(self) -> str:
        return self.sfen()
