"""Position: a game record (start position plus moves) with the rules queries of the
library: legal moves, SFEN, perft, legality, the hand-crafted evaluation and game state.

It is backed by the C ABI's light position handle (``hayanagi_position_*``): a few
kilobytes and microseconds, no engine, table or thread.
"""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Iterable, List, Optional, Tuple

from . import _native as N

if TYPE_CHECKING:
    from ._engine import GameState

STARTPOS_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


class Position:
    """A start position (USI syntax: ``startpos``, ``sfen <SFEN>`` or a bare SFEN) and the
    moves played from it.

    >>> p = Position()
    >>> p.push("7g7f"); p.push("3c3d")
    >>> len(p.legal_moves()), p.perft(2)
    """

    def __init__(self, position: str = "startpos", moves: Iterable[str] = ()) -> None:
        from ._engine import _enc

        base = position.strip()
        if " moves " in f" {base} ":
            head, _, tail = f" {base} ".partition(" moves ")
            base, moves = head.strip(), list(tail.split()) + list(moves)
        self._base = base or "startpos"
        self._moves: List[str] = []
        self._lib = N.lib()
        handle = N._P()
        self._check(self._lib.hayanagi_position_new(_enc(self._start(), "position"), ctypes.byref(handle)))
        self._handle: Optional[N._P] = handle
        try:
            for m in moves:
                self.push(m)
        except BaseException:
            self.close()
            raise

    def _start(self) -> str:
        base = self._base
        if base != "startpos" and not base.startswith("sfen "):
            base = "sfen " + base
        return base

    @staticmethod
    def _check(st: int) -> None:
        from ._engine import _check_global

        _check_global(st)

    def _h(self) -> "N._P":
        from ._engine import HayanagiError

        if self._handle is None:
            raise HayanagiError(N.INVALID_ARG, "the position is closed")
        return self._handle

    def _text(self, name: str) -> str:
        from ._engine import _copy_out

        f, h = getattr(self._lib, name), self._h()
        return _copy_out(lambda b, c, n: f(h, b, c, n), self._check)

    @classmethod
    def from_sfen(cls, sfen: str) -> "Position":
        """The position of a bare SFEN string, with no moves."""
        return cls("sfen " + sfen)

    def close(self) -> None:
        """Free the position's handle now (otherwise the garbage collector does); closing
        twice does nothing."""
        handle, self._handle = getattr(self, "_handle", None), None
        if handle is not None:
            self._lib.hayanagi_position_free(handle)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: the library may be gone already
            pass

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
        return self._start() + (" moves " + " ".join(self._moves) if self._moves else "")

    def push(self, move: str) -> None:
        """Play a move; HayanagiError ILLEGAL_MOVE (position unchanged) when it is illegal."""
        from ._engine import _enc

        self._check(self._lib.hayanagi_position_play(self._h(), _enc(move, "move")))
        self._moves.append(move)

    def pop(self) -> str:
        """Take back the last move and return it (IndexError when none was played)."""
        if not self._moves:
            raise IndexError("pop from a position with no moves")
        self._check(self._lib.hayanagi_position_undo(self._h()))
        return self._moves.pop()

    def copy(self) -> "Position":
        """An independent Position with the same start and moves."""
        return Position(self._base, self._moves)

    # --- queries ---

    def sfen(self) -> str:
        """The current position as SFEN."""
        return self._text("hayanagi_position_sfen")

    def legal_moves(self) -> List[str]:
        """Legal moves in USI, ASCII order (every legal non-promotion included)."""
        return self._text("hayanagi_position_legal_moves").split()

    def is_legal(self, move: str) -> bool:
        """Is the USI ``move`` legal here? Malformed text is not legal."""
        from ._engine import _enc

        ok = ctypes.c_bool(False)
        self._check(self._lib.hayanagi_position_is_legal(self._h(), _enc(move, "move"), ctypes.byref(ok)))
        return bool(ok.value)

    def perft(self, depth: int) -> int:
        """The number of legal move sequences of ``depth`` plies (0 to 10)."""
        if not 0 <= depth < 2**32:
            from ._engine import HayanagiError

            raise HayanagiError(N.INVALID_ARG, f"perft depth {depth} is not in 0..=10")
        n = ctypes.c_uint64(0)
        self._check(self._lib.hayanagi_position_perft(self._h(), depth, ctypes.byref(n)))
        return int(n.value)

    def evaluate(self) -> int:
        """The hand-crafted static evaluation for the side to move, in centipawns."""
        v = ctypes.c_int32(0)
        self._check(self._lib.hayanagi_position_evaluate(self._h(), ctypes.byref(v)))
        return int(v.value)

    def game_state(self) -> "Tuple[GameState, Optional[int]]":
        """The game state under the default rules and the winner (0 black, 1 white, None)."""
        from ._engine import GameState

        state, winner = ctypes.c_int32(0), ctypes.c_int32(-1)
        self._check(self._lib.hayanagi_position_game_state(self._h(), ctypes.byref(state), ctypes.byref(winner)))
        return GameState(state.value), (None if winner.value < 0 else int(winner.value))

    @property
    def side_to_move(self) -> str:
        """"b" (black, sente) or "w" (white, gote)."""
        side = ctypes.c_int32(0)
        self._check(self._lib.hayanagi_position_side_to_move(self._h(), ctypes.byref(side), None))
        return "b" if side.value == 0 else "w"

    def in_check(self) -> bool:
        """Is the side to move in check?"""
        check = ctypes.c_bool(False)
        self._check(self._lib.hayanagi_position_side_to_move(self._h(), None, ctypes.byref(check)))
        return bool(check.value)

    def __repr__(self) -> str:
        return f"Position({self.usi()!r})"

    def __str__(self) -> str:
        return self.sfen()
