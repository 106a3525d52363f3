"""Engine, Table and the value types of the Python binding.

Threading model
    The library runs each search on its own thread and reports through callbacks on that
    thread. The callbacks installed here are module-level ctypes functions (alive as long as
    the module) that only put items on a per-engine ``queue.SimpleQueue``: they never take a
    Python lock and never run user code, so they cannot deadlock against a Python thread.
    User code (``on_info``, the streaming iterator) runs on the thread that called ``go``.
    Every foreign call goes through ``ctypes.CDLL``, which releases the GIL, so a callback
    that needs the GIL gets it while Python waits in ``hayanagi_engine_wait``.

Lifetime
    ``close()`` (or leaving a ``with`` block) stops a running search, waits for calls in
    progress on other threads, then frees the engine; the library delivers the stopped
    search's best move before it returns. An Engine that is never closed is freed by a
    ``weakref.finalize`` hook (also at interpreter exit, while callbacks can still run).
"""

from __future__ import annotations

import ctypes
import itertools
import logging
import queue
import threading
import time
import weakref
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import (
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Literal,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
    overload,
)

from . import _native as N

_log = logging.getLogger("hayanagi")

# ----- enums and errors ----------------------------------------------------------------------


class Status(IntEnum):
    """Status codes of the C API."""

    OK = N.OK
    NULL_ARG = N.NULL_ARG
    INVALID_ARG = N.INVALID_ARG
    PARSE = N.PARSE
    ILLEGAL_MOVE = N.ILLEGAL_MOVE
    BUSY = N.BUSY
    REENTRANT = N.REENTRANT
    BUFFER_TOO_SMALL = N.BUFFER_TOO_SMALL
    TIMEOUT = N.TIMEOUT
    IO = N.IO
    FORMAT = N.FORMAT
    PANIC = N.PANIC
    POISONED = N.POISONED
    NO_MEMORY = N.NO_MEMORY


class ScoreKind(str, Enum):
    """What a :class:`Score` counts: ``"cp"`` (centipawns) or ``"mate"`` (plies to mate), the
    words of a USI ``info score``. A ``str``: ``ScoreKind.CP == "cp"``."""

    CP = "cp"
    MATE = "mate"

    def __str__(self) -> str:
        return self.value


# The C API's score kinds (HAYANAGI_SCORE_*) -> ScoreKind.
_SCORE_KINDS = {N.SCORE_CP: ScoreKind.CP, N.SCORE_MATE: ScoreKind.MATE}


class Bound(IntEnum):
    """Whether a score is exact or a bound (a search that failed high or low)."""

    EXACT = 0
    LOWER = 1
    UPPER = 2


class MateKind(IntEnum):
    """The outcome of a mate search."""

    FOUND = 1
    NO_MATE = 2
    TIMEOUT = 3


class GameState(IntEnum):
    """The state of a game as the rules see it (:meth:`Engine.game_state`)."""

    ONGOING = 0
    DRAW = 1
    CHECKMATE = 2
    PERPETUAL_CHECK = 3
    DECLARATION = 4


class EventKind(IntEnum):
    """The kind of a :class:`PolledEvent`."""

    INFO = N.EVENT_INFO
    BESTMOVE = N.EVENT_BESTMOVE
    MATE = N.EVENT_MATE


def status_str(status: int) -> str:
    """The library's static description of a status code."""
    raw: bytes = N.lib().hayanagi_status_str(int(status))
    return raw.decode("utf-8")


class HayanagiError(Exception):
    """A failed call: ``status`` (a :class:`Status`) and the library's ``message``."""

    def __init__(self, status: int, message: str = "") -> None:
        try:
            self.status: Union[Status, int] = Status(status)
        except ValueError:
            self.status = status
        self.message = message
        name = self.status.name if isinstance(self.status, Status) else str(status)
        text = f"{status_str(status)} ({name})"
        super().__init__(f"{text}: {message}" if message else text)

    @property
    def code(self) -> int:
        """The numeric status code."""
        return int(self.status)


class InvalidArgumentError(HayanagiError, ValueError):
    """``HAYANAGI_INVALID_ARG``: the engine rejected a value (an option value or name, a
    limit, an index). A ``ValueError`` too, as Python code expects of a bad argument."""


def _error(status: int, message: str) -> HayanagiError:
    return (InvalidArgumentError if status == N.INVALID_ARG else HayanagiError)(status, message)


class EngineClosedError(ValueError):
    """A method was called on a closed Engine or Table."""


# ----- small helpers -------------------------------------------------------------------------


def _enc(s: str, what: str) -> bytes:
    if not isinstance(s, str):
        raise TypeError(f"{what} must be a str, not {type(s).__name__}")
    if "\0" in s:
        raise ValueError(f"{what} contains a NUL character")
    return s.encode("utf-8")


def _copy_out(fill: Callable[[Any, int, Any], int], check: Callable[[int], None], initial: int = 256) -> str:
    """Call ``fill(buf, cap, byref(len))`` until the text fits (growing the buffer to the
    size the library reports on BUFFER_TOO_SMALL)."""
    size = max(initial, 1)
    for _ in range(8):
        buf = ctypes.create_string_buffer(size)
        n = ctypes.c_size_t(0)
        st = fill(buf, size, ctypes.byref(n))
        if st == N.OK:
            return buf.raw[: n.value].decode("utf-8")
        if st != N.BUFFER_TOO_SMALL:
            check(st)
        size = max(n.value + 1, size * 2)
    raise HayanagiError(N.BUFFER_TOO_SMALL, "the text kept growing")


def _thread_last_error() -> str:
    lib = N.lib()
    return _copy_out(lambda b, c, n: lib.hayanagi_last_error(b, c, n), lambda st: None)


def _check_global(st: int) -> None:
    if st != N.OK:
        raise HayanagiError(st, _thread_last_error())


def version() -> str:
    """The library version, e.g. "0.1.0"."""
    raw: bytes = N.lib().hayanagi_version_string()
    return raw.decode("utf-8")


def abi_version() -> int:
    """The ABI version of the loaded library."""
    return int(N.lib().hayanagi_abi_version())


def last_error() -> str:
    """The message of the last failure on the calling thread."""
    return _thread_last_error()


# ----- value types ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """A search score from the side to move's point of view, the one shape every score of
    this package has (:attr:`Info.score`, :attr:`SearchResult.score`, :attr:`TtEntry.score`).

    ``kind`` is ``ScoreKind.CP`` (``value`` in centipawns) or ``ScoreKind.MATE`` (``value``
    in plies to mate: positive when the side to move mates, negative when it is mated).
    ``str(score)`` is the USI form, ``"cp 35"`` or ``"mate -3"``.
    """

    kind: ScoreKind
    value: int

    @classmethod
    def from_c(cls, kind: int, value: int) -> "Score":
        """From the C API's ``score_kind`` (0 cp, 1 mate) and ``score_value``."""
        return cls(_SCORE_KINDS[kind], int(value))

    @property
    def is_mate(self) -> bool:
        """True for a mate score."""
        return self.kind == ScoreKind.MATE

    @property
    def cp(self) -> Optional[int]:
        """The centipawns, or None for a mate score."""
        return None if self.is_mate else self.value

    @property
    def mate(self) -> Optional[int]:
        """The plies to mate (negative: being mated), or None for a centipawn score."""
        return self.value if self.is_mate else None

    def __str__(self) -> str:
        return f"{self.kind.value} {self.value}"

    def __repr__(self) -> str:
        return f"Score(ScoreKind.{self.kind.name}, {self.value})"


@dataclass(frozen=True)
class Info:
    """One info report of a search."""

    depth: int
    seldepth: int
    multipv: int
    score: Score
    bound: Bound
    nodes: int
    nps: int
    time_ms: int
    hashfull: int
    pv: Tuple[str, ...]
    usi: str  # the same report as a USI "info ..." line

    def __str__(self) -> str:
        return self.usi


@dataclass(frozen=True)
class BestMove:
    """The answer of a search: a USI move, "resign" or "win"; ``ponder`` may be None."""

    move: str
    ponder: Optional[str] = None

    @property
    def is_resign(self) -> bool:
        """The engine resigns (no legal move, or a lost position)."""
        return self.move == "resign"

    @property
    def is_win(self) -> bool:
        """The engine declares a win (entering-king rule)."""
        return self.move == "win"

    def __str__(self) -> str:
        return f"bestmove {self.move}" + (f" ponder {self.ponder}" if self.ponder else "")


@dataclass(frozen=True)
class MateResult:
    """The answer of a mate search."""

    kind: MateKind
    plies: int
    shortest: bool
    nodes: int
    time_ms: int
    moves: Tuple[str, ...]

    @property
    def found(self) -> bool:
        """A mate was found (``moves`` holds it)."""
        return self.kind == MateKind.FOUND

    def __str__(self) -> str:
        if self.kind == MateKind.FOUND:
            return "checkmate " + " ".join(self.moves)
        return "checkmate nomate" if self.kind == MateKind.NO_MATE else "checkmate timeout"


@dataclass(frozen=True)
class LogMessage:
    """A warning or diagnostic from the library."""

    text: str


@dataclass(frozen=True)
class TtEntry:
    """What the transposition table holds for a position."""

    move: str  # "" when none
    move_legal: bool
    score: Score
    depth: int
    bound: Bound
    generation: int


@dataclass(frozen=True)
class PolledEvent:
    """An event of the library's own queue (:meth:`Engine.poll_event`)."""

    kind: EventKind
    text: str  # "info ...", "bestmove ..." or "checkmate ..."
    info: Optional[Info] = None
    bestmove: Optional[BestMove] = None


@dataclass
class SearchResult:
    """What :meth:`Engine.go` returns: the best move and every info report, in order."""

    bestmove: BestMove
    infos: List[Info] = field(default_factory=list)

    @property
    def move(self) -> str:
        """The best move (USI), or "resign" / "win"."""
        return self.bestmove.move

    @property
    def ponder(self) -> Optional[str]:
        """The expected reply, if the engine has one."""
        return self.bestmove.ponder

    @property
    def last_info(self) -> Optional[Info]:
        """The last report of the first line (multipv 1), if any."""
        for i in reversed(self.infos):
            if i.multipv == 1:
                return i
        return None

    @property
    def pv(self) -> Tuple[str, ...]:
        """The principal variation of the last report (empty when there was none)."""
        i = self.last_info
        return i.pv if i else ()

    @property
    def score(self) -> Optional[Score]:
        """The score of the last report, or None when there was none (e.g. an immediate
        resign)."""
        i = self.last_info
        return i.score if i else None


@dataclass
class Limits:
    """Search limits; None/False means not set. With nothing set the search is infinite
    (until :meth:`Engine.stop`)."""

    movetime_ms: Optional[int] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    btime_ms: Optional[int] = None
    wtime_ms: Optional[int] = None
    binc_ms: Optional[int] = None
    winc_ms: Optional[int] = None
    byoyomi_ms: Optional[int] = None
    movestogo: Optional[int] = None
    infinite: bool = False
    ponder: bool = False
    multipv: Optional[int] = None  # 1-32; None for the MultiPV option
    searchmoves: Optional[Sequence[str]] = None

    def to_c(self) -> Tuple[N.hayanagi_limits, Optional[bytes]]:
        """The C struct (and the bytes its searchmoves points into: keep them alive)."""
        c = N.hayanagi_limits()
        _check_global(N.lib().hayanagi_limits_init(ctypes.byref(c)))
        for name in ("movetime_ms", "btime_ms", "wtime_ms", "binc_ms", "winc_ms", "byoyomi_ms"):
            v = getattr(self, name)
            if v is not None:
                setattr(c, name, int(v))
        if self.depth is not None:
            c.depth = int(self.depth)
        if self.nodes is not None:
            c.nodes = int(self.nodes)
        if self.movestogo is not None:
            c.movestogo = int(self.movestogo)
        c.infinite = bool(self.infinite)
        c.ponder = bool(self.ponder)
        if self.multipv is not None:
            if not 1 <= int(self.multipv) <= 0xFFFFFFFF:
                raise ValueError("multipv must be 1-32")
            c.multipv = int(self.multipv)
        keep = None
        if self.searchmoves is not None:
            moves = self.searchmoves.split() if isinstance(self.searchmoves, str) else list(self.searchmoves)
            keep = _enc(" ".join(moves), "searchmoves")
            c.searchmoves = keep
        return c, keep


def _info_from_c(i: N.hayanagi_info, pv: Sequence[str], line: str) -> Info:
    return Info(
        depth=i.depth,
        seldepth=i.seldepth,
        multipv=i.multipv,
        score=Score.from_c(i.score_kind, i.score_value),
        bound=Bound(i.bound),
        nodes=i.nodes,
        nps=i.nps,
        time_ms=i.time_ms,
        hashfull=i.hashfull,
        pv=tuple(pv),
        usi=line,
    )


def _mate_from_c(r: N.hayanagi_mate_result, moves: str) -> MateResult:
    return MateResult(
        kind=MateKind(r.kind),
        plies=r.plies,
        shortest=bool(r.shortest),
        nodes=r.nodes,
        time_ms=r.time_ms,
        moves=tuple(moves.split()),
    )


def _bestmove_from_text(line: str) -> BestMove:
    w = line.split()
    return BestMove(w[1] if len(w) > 1 else "", w[3] if len(w) > 3 and w[2] == "ponder" else None)


def _position_text(position: Any) -> str:
    if isinstance(position, str):
        return position
    if isinstance(position, Position):
        return position.usi()
    raise TypeError(f"position must be a str or a Position, not {type(position).__name__}")


def _dec(b: Optional[bytes]) -> Optional[str]:
    return None if b is None else b.decode("utf-8", "replace")


# ----- callbacks: module-level trampolines, per-engine state through user_data ---------------


class _State:
    """What the callbacks reach through user_data. Never references the Engine."""

    def __init__(self) -> None:
        self.events: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        self.usi: "queue.SimpleQueue[str]" = queue.SimpleQueue()
        self.usi_enabled = False
        self.callback_errors = 0
        self.bestmoves = 0
        # True from a search started by the Engine until its answer's callback starts.
        self.outstanding = False


# user_data key -> state. Each callback slot gets its own key; the library releases it through
# _on_free exactly once (when the engine is freed or the slot replaced).
_STATES: Dict[int, _State] = {}
_keys = itertools.count(1)


def live_user_data() -> int:
    """How many user_data keys the library still holds (for tests)."""
    return len(_STATES)


def _state(ud: Optional[int]) -> Optional[_State]:
    return _STATES.get(ud or 0)


def _on_info(ud: Optional[int], info: Any, line: Optional[bytes]) -> None:
    s = _state(ud)
    if s is None:
        return
    try:
        i = info.contents
        text = _dec(line) or ""
        s.events.put(_info_from_c(i, (_dec(i.pv) or "").split(), text))
    except BaseException:  # never unwind into the library
        s.callback_errors += 1


def _on_bestmove(ud: Optional[int], best: Optional[bytes], ponder: Optional[bytes]) -> None:
    s = _state(ud)
    if s is None:
        return
    try:
        s.outstanding = False
        s.bestmoves += 1
        s.events.put(BestMove(_dec(best) or "", _dec(ponder)))
    except BaseException:
        s.callback_errors += 1


def _on_mate(ud: Optional[int], result: Any, moves: Optional[bytes]) -> None:
    s = _state(ud)
    if s is None:
        return
    try:
        s.outstanding = False
        s.events.put(_mate_from_c(result.contents, _dec(moves) or ""))
    except BaseException:
        s.callback_errors += 1


def _on_log(ud: Optional[int], message: Optional[bytes]) -> None:
    s = _state(ud)
    if s is None:
        return
    try:
        s.events.put(LogMessage(_dec(message) or ""))
    except BaseException:
        s.callback_errors += 1


def _on_usi_output(ud: Optional[int], line: Optional[bytes]) -> None:
    s = _state(ud)
    if s is None or not s.usi_enabled:
        return
    try:
        s.usi.put(_dec(line) or "")
    except BaseException:
        s.callback_errors += 1


def _on_free(ud: Optional[int]) -> None:
    _STATES.pop(ud or 0, None)


# The ctypes function objects: module globals, so they outlive every engine.
_INFO_CB = N.hayanagi_info_callback(_on_info)
_BESTMOVE_CB = N.hayanagi_bestmove_callback(_on_bestmove)
_MATE_CB = N.hayanagi_mate_callback(_on_mate)
_LOG_CB = N.hayanagi_log_callback(_on_log)
_USI_CB = N.hayanagi_usi_output_callback(_on_usi_output)
_FREE_CB = N.hayanagi_free_callback(_on_free)


_deferred_frees = 0


def _free_engine(handle: Any) -> None:
    """weakref.finalize hook and close(): free the native engine."""
    global _deferred_frees
    lib = N.lib()
    st = lib.hayanagi_engine_free(handle)
    if st == N.REENTRANT:
        # Collected by the cycle collector on the engine's own search thread (inside one of
        # its callbacks): free it from another thread instead of leaking it.
        _deferred_frees += 1
        threading.Thread(target=lib.hayanagi_engine_free, args=(handle,), daemon=True).start()


def _free_table(handle: Any) -> None:
    N.lib().hayanagi_table_free(handle)


# ----- guarded handles -----------------------------------------------------------------------


class _Handle:
    """A native handle plus a count of calls in progress, so that closing waits for calls
    running on other threads instead of freeing the handle under them."""

    def __init__(self, ptr: Any, what: str) -> None:
        self.ptr = ptr
        self.what = what
        self.inflight = 0
        self.cond = threading.Condition()

    def __enter__(self) -> Any:
        with self.cond:
            if self.ptr is None:
                raise EngineClosedError(f"the {self.what} is closed")
            self.inflight += 1
            return self.ptr

    def __exit__(self, *exc: Any) -> None:
        with self.cond:
            self.inflight -= 1
            if self.inflight == 0:
                self.cond.notify_all()

    def detach(self, nudge: Optional[Callable[[Any], None]] = None) -> Any:
        """Refuse new calls, wait for the running ones (calling nudge every 50 ms, e.g. to
        stop a search that a waiting call waits for), and return the pointer (None if
        already detached)."""
        with self.cond:
            ptr, self.ptr = self.ptr, None
            if ptr is None:
                return None
            while self.inflight:
                if nudge is not None:
                    nudge(ptr)
                self.cond.wait(0.05)
        return ptr


class Table:
    """A transposition table that several engines can share (:meth:`Engine.set_table`).
    Engines using it keep it alive, so it may be closed before them."""

    def __init__(self, size_mib: int) -> None:
        lib = N.lib()
        ptr = ctypes.POINTER(N.hayanagi_table)()
        _check_global(lib.hayanagi_table_new(int(size_mib), ctypes.byref(ptr)))
        self._h = _Handle(ptr, "table")
        self._finalizer = weakref.finalize(self, _free_table, ptr)

    def close(self) -> None:
        """Release this handle (engines using the table keep it alive). Idempotent."""
        if self._h.detach() is not None:
            self._finalizer()

    def __enter__(self) -> "Table":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# ----- options -------------------------------------------------------------------------------


OptionValue = Union[str, int, bool]


def _format_option(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class OptionType(IntEnum):
    SPIN = N.OPTION_SPIN
    CHECK = N.OPTION_CHECK
    COMBO = N.OPTION_COMBO
    STRING = N.OPTION_STRING
    FILENAME = N.OPTION_FILENAME


@dataclass(frozen=True)
class OptionInfo:
    """One engine option as the engine's option registry describes it: values are typed
    (``int`` for spin, ``bool`` for check, ``str`` otherwise)."""

    name: str
    type: OptionType
    default: OptionValue
    #: The range of a spin option (None otherwise).
    min: Optional[int]
    max: Optional[int]
    #: The words of a combo option (empty otherwise).
    choices: Tuple[str, ...]
    #: A developer or tuning option, not shown by USI ``usi``.
    hidden: bool
    #: Checked when set, used at the next ``ready()`` (table size, files).
    at_ready: bool
    help: str


def _typed(kind: OptionType, text: str) -> OptionValue:
    if kind == OptionType.SPIN:
        return int(text)
    if kind == OptionType.CHECK:
        return text == "true"
    return text


class Options(MutableMapping):  # type: ignore[type-arg]
    """The engine's options as a dict, read from the engine itself: ``engine.options["MultiPV"]
    = 3`` sets the option (validated at once: ``ValueError`` for a bad value or name,
    HayanagiError BUSY during a search); ``engine.options["MultiPV"]`` reads the value the
    engine holds, typed (``int``, ``bool`` or ``str``). Names are case-insensitive, as in
    USI. Iterating lists the options a GUI is shown; :meth:`info` describes each one,
    :meth:`all_info` the hidden ones too."""

    def __init__(self, engine: "Engine") -> None:
        self._engine = weakref.ref(engine)

    def _live(self) -> "Engine":
        engine = self._engine()
        if engine is None:
            raise EngineClosedError("the engine is gone")
        return engine

    def __getitem__(self, name: str) -> OptionValue:
        """The value the engine holds for option ``name``, typed; KeyError if unknown."""
        engine = self._live()
        info = engine._option_info_by_name(name)
        if info is None:
            raise KeyError(name)
        return _typed(info.type, engine._get_option_raw(info.name))

    def __setitem__(self, name: str, value: OptionValue) -> None:
        """Set option ``name`` (validated at once: ValueError for a bad value or name)."""
        self._live()._set_option_raw(name, _format_option(value))

    def __delitem__(self, name: str) -> None:
        raise TypeError("options cannot be removed (set a value instead)")

    def __iter__(self) -> Iterator[str]:
        """The names of the options a GUI is shown, in USI ``usi`` order."""
        return iter([i.name for i in self._live()._option_infos(False)])

    def __len__(self) -> int:
        return len(self._live()._option_infos(False))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._live()._option_info_by_name(name) is not None

    def info(self, name: str) -> OptionInfo:
        """The description of option ``name`` (hidden ones too); KeyError if unknown."""
        info = self._live()._option_info_by_name(name)
        if info is None:
            raise KeyError(name)
        return info

    def all_info(self, hidden: bool = True) -> List[OptionInfo]:
        """Every option's description, in the order USI ``usi`` prints them (with the hidden
        developer options when ``hidden``)."""
        return list(self._live()._option_infos(hidden))

    def __repr__(self) -> str:
        return repr(dict(self.items()))


# ----- the engine ----------------------------------------------------------------------------

PositionLike = Union[str, "Position"]


class Engine:
    """A shogi engine (one ``hayanagi_engine``).

    >>> with Engine(options={"MultiPV": 1}) as engine:
    ...     engine.set_position("startpos", ["7g7f", "3c3d"])
    ...     result = engine.go(depth=6)
    ...     print(result.move, result.score)

    Every method may be called from any thread. One search at a time: ``go`` while a
    search runs raises ``HayanagiError`` with ``Status.BUSY``.
    """

    def __init__(
        self,
        options: Optional[Mapping[str, OptionValue]] = None,
        *,
        hash_mib: int = 0,
        threads: int = 0,
    ) -> None:
        lib = N.lib()
        config = N.hayanagi_engine_config(ctypes.sizeof(N.hayanagi_engine_config), int(hash_mib), int(threads))
        ptr = ctypes.POINTER(N.hayanagi_engine)()
        _check_global(lib.hayanagi_engine_new(ctypes.byref(config), ctypes.byref(ptr)))
        self._lib = lib
        self._state = _State()
        self._h = _Handle(ptr, "engine")
        self._finalizer = weakref.finalize(self, _free_engine, ptr)
        self._go_lock = threading.Lock()
        self._options = Options(self)
        try:
            self._install(lib.hayanagi_engine_set_info_callback, _INFO_CB)
            self._install(lib.hayanagi_engine_set_bestmove_callback, _BESTMOVE_CB)
            self._install(lib.hayanagi_engine_set_mate_callback, _MATE_CB)
            self._install(lib.hayanagi_engine_set_log_callback, _LOG_CB)
            self._install(lib.hayanagi_engine_set_usi_output_callback, _USI_CB)
            if options:
                self.set_options(options)
        except BaseException:
            self.close()
            raise

    def _install(self, setter: Any, cb: Any) -> None:
        key = next(_keys)
        _STATES[key] = self._state
        with self._h as h:
            st = setter(h, cb, key, _FREE_CB)
        if st != N.OK:
            _STATES.pop(key, None)  # the library did not take it
            self._check(st)

    # --- lifetime ---

    def close(self) -> None:
        """Stop any search, wait for calls in progress on other threads, free the engine
        (the stopped search's best move is delivered first). Idempotent."""
        ptr = self._h.detach(nudge=self._lib.hayanagi_engine_stop)
        if ptr is not None:
            self._lib.hayanagi_engine_stop(ptr)
            self._finalizer()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._h.ptr is None

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # --- errors ---

    def _check(self, st: int) -> None:
        if st == N.OK:
            return
        # The thread's copy first: another thread failing on this engine cannot replace it.
        msg = _thread_last_error()
        if not msg:
            msg = self.last_error()
        raise _error(st, msg)

    def last_error(self) -> str:
        """This engine's last error message."""
        with self._h as h:
            return _copy_out(lambda b, c, n: self._lib.hayanagi_engine_last_error(h, b, c, n), lambda st: None)

    def _call(self, name: str, *args: Any) -> None:
        with self._h as h:
            st = getattr(self._lib, name)(h, *args)
        self._check(st)

    def _text(self, name: str, initial: int = 256) -> str:
        f = getattr(self._lib, name)
        with self._h as h:
            return _copy_out(lambda b, c, n: f(h, b, c, n), self._check, initial)

    # --- options and position ---

    def _set_option_raw(self, name: str, value: str) -> None:
        self._call("hayanagi_engine_set_option", _enc(name, "name"), _enc(value, "value"))

    def _get_option_raw(self, name: str) -> str:
        key = _enc(name, "name")
        with self._h as h:
            return _copy_out(lambda b, c, n: self._lib.hayanagi_engine_get_option(h, key, b, c, n), self._check)

    def _option_text(self, name: str, what: int) -> str:
        key = _enc(name, "name")
        with self._h as h:
            return _copy_out(
                lambda b, c, n: self._lib.hayanagi_engine_option_text(h, key, what, b, c, n), self._check
            )

    def _option_infos(self, hidden: bool) -> List[OptionInfo]:
        # The registry is fixed for a library: read it once per engine and kind of list.
        cache: Dict[bool, List[OptionInfo]] = self.__dict__.setdefault("_option_cache", {})
        if hidden not in cache:
            cache[hidden] = self._read_option_infos(hidden)
        return cache[hidden]

    def _read_option_infos(self, hidden: bool) -> List[OptionInfo]:
        flags = N.OPTION_HIDDEN if hidden else 0
        count = ctypes.c_size_t(0)
        with self._h as h:
            self._check(self._lib.hayanagi_engine_option_count(h, flags, ctypes.byref(count)))
        out = []
        for i in range(count.value):
            raw = N.hayanagi_option_info()
            with self._h as h:
                name = _copy_out(
                    lambda b, c, n: self._lib.hayanagi_engine_option_info(h, i, flags, ctypes.byref(raw), b, c, n),
                    self._check,
                    64,
                )
            kind = OptionType(raw.kind)
            spin = kind == OptionType.SPIN
            choices = self._option_text(name, N.OPTION_TEXT_CHOICES).split()
            out.append(
                OptionInfo(
                    name=name,
                    type=kind,
                    default=_typed(kind, self._option_text(name, N.OPTION_TEXT_DEFAULT)),
                    min=raw.min if spin else None,
                    max=raw.max if spin else None,
                    choices=tuple(choices),
                    hidden=bool(raw.flags & N.OPTION_HIDDEN),
                    at_ready=bool(raw.flags & N.OPTION_AT_READY),
                    help=self._option_text(name, N.OPTION_TEXT_HELP),
                )
            )
        return out

    def _option_info_by_name(self, name: str) -> Optional[OptionInfo]:
        if not isinstance(name, str):
            return None
        try:
            usi_name = self._option_text(name, N.OPTION_TEXT_USI).split()[2]
        except HayanagiError as e:
            if e.status == N.INVALID_ARG:
                return None
            raise
        return next((i for i in self._option_infos(True) if i.name == usi_name), None)

    @property
    def options(self) -> Options:
        """The options as a dict: ``engine.options["MultiPV"] = 2`` sets one; assigning a
        dict (``engine.options = {...}``) sets each of its items."""
        return self._options

    @options.setter
    def options(self, values: Mapping[str, OptionValue]) -> None:
        self.set_options(values)

    def set_option(self, name: str, value: OptionValue) -> None:
        """Set a USI option (``engine.options[name] = value`` does the same)."""
        self.options[name] = value

    def set_options(self, values: Mapping[str, OptionValue]) -> None:
        """Set several options, in the mapping's order (stops at the first bad one)."""
        for k, v in values.items():
            self.options[k] = v

    def ready(self) -> None:
        """Apply deferred work (table resize, book): the USI ``isready`` step."""
        self._call("hayanagi_engine_ready")

    def new_game(self) -> None:
        """Start a new game: clears the table and, at the next search, the move-ordering history."""
        self._call("hayanagi_engine_new_game")

    def set_position(self, position: PositionLike = "startpos", moves: Optional[Iterable[str]] = None) -> None:
        """USI position syntax (``startpos``, ``sfen <SFEN>`` or a bare SFEN, optionally
        ``moves ...``) or a :class:`Position`, plus optional moves. Raises HayanagiError
        PARSE (bad SFEN) or ILLEGAL_MOVE; the previous position is kept then."""
        text = _position_text(position)
        moves = list(moves or [])
        if moves:
            text += (" " if " moves " in f" {text} " else " moves ") + " ".join(moves)
        self._call("hayanagi_engine_set_position", _enc(text, "position"))

    def sfen(self) -> str:
        """The current position as SFEN."""
        return self._text("hayanagi_engine_sfen", 128)

    def legal_moves(self) -> List[str]:
        """The legal moves of the current position (USI, ASCII order)."""
        return self._text("hayanagi_engine_legal_moves", 1024).split()

    def is_legal(self, move: str) -> bool:
        """Is the USI ``move`` legal in the current position? Malformed text is not legal."""
        out = ctypes.c_bool(False)
        self._call("hayanagi_engine_is_legal", _enc(move, "move"), ctypes.byref(out))
        return bool(out.value)

    def perft(self, depth: int) -> int:
        """Perft of the current position (depth 0 to 10)."""
        out = ctypes.c_uint64(0)
        self._call("hayanagi_engine_perft", int(depth), ctypes.byref(out))
        return int(out.value)

    def evaluate(self) -> int:
        """Static evaluation for the side to move, in centipawns."""
        out = ctypes.c_int32(0)
        self._call("hayanagi_engine_evaluate", ctypes.byref(out))
        return int(out.value)

    def game_state(self) -> Tuple[GameState, Optional[int]]:
        """The game state and the winner (0 black, 1 white, None)."""
        state, winner = ctypes.c_int32(0), ctypes.c_int32(-1)
        self._call("hayanagi_engine_game_state", ctypes.byref(state), ctypes.byref(winner))
        return GameState(state.value), (None if winner.value < 0 else int(winner.value))

    # --- searching ---

    def _require_idle(self) -> None:
        """Before pairing a new search with the event queue: a search started here that has
        not answered is BUSY at once; one that is only delivering its best move (or runs on
        the USI channel) is waited for, at most 2 s."""
        if not self.is_searching():
            return
        if self._state.outstanding:
            raise HayanagiError(N.BUSY, "a search is running")
        if not self.wait(2.0):
            raise HayanagiError(N.BUSY, "a search is running")

    def _drain_stale(self) -> None:
        while True:
            try:
                item = self._state.events.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, LogMessage):
                _log.warning("%s", item.text)

    def _start(self, starter: Callable[[Any], int]) -> None:
        with self._go_lock:
            self._require_idle()
            self._drain_stale()
            self._state.outstanding = True
            with self._h as h:
                st = starter(h)
            if st != N.OK:
                self._state.outstanding = False
                self._check(st)

    def start(self, limits: Optional[Limits] = None, **kwargs: Any) -> None:
        """Start a search and return at once (``go`` without waiting). Read its reports
        with :meth:`results` / :meth:`stream`, or just :meth:`wait` for it."""
        lim = _make_limits(limits, kwargs)
        c, keep = lim.to_c()

        def go(h: Any) -> int:
            return int(self._lib.hayanagi_engine_go(h, ctypes.byref(c)))

        self._start(go)
        del keep  # the library parsed searchmoves during the call

    @overload
    def go(
        self,
        limits: Optional[Limits] = None,
        *,
        stream: Literal[False] = False,
        on_info: Optional[Callable[[Info], None]] = None,
        **kwargs: Any,
    ) -> SearchResult: ...

    @overload
    def go(
        self,
        limits: Optional[Limits] = None,
        *,
        stream: Literal[True],
        on_info: Optional[Callable[[Info], None]] = None,
        **kwargs: Any,
    ) -> Iterator[Union[Info, BestMove]]: ...

    def go(
        self,
        limits: Optional[Limits] = None,
        *,
        stream: bool = False,
        on_info: Optional[Callable[[Info], None]] = None,
        **kwargs: Any,
    ) -> Union[SearchResult, Iterator[Union[Info, BestMove]]]:
        """Search the current position.

        Limits come as a :class:`Limits` or as keywords (``movetime_ms=1000``, ``depth=8``,
        ``nodes=...``, ``btime_ms``/``wtime_ms``/``binc_ms``/``winc_ms``/``byoyomi_ms``,
        ``infinite=True``, ``multipv=3``, ``searchmoves=[...]``); none means infinite.

        Returns a :class:`SearchResult` (blocking; ``on_info`` is called for each report on
        this thread), or with ``stream=True`` an iterator of :class:`Info` reports ending with
        the :class:`BestMove` (the search starts at once; leaving the loop early stops it).
        Ctrl-C while waiting stops the search and re-raises. Another thread may call
        :meth:`stop` at any time.
        """
        self.start(limits, **kwargs)
        if stream:
            return self.stream()
        return self.results(on_info=on_info)

    def results(self, on_info: Optional[Callable[[Info], None]] = None) -> SearchResult:
        """Wait for the running search (started by :meth:`start`) and collect its reports."""
        infos: List[Info] = []
        for item in self.stream():
            if isinstance(item, Info):
                infos.append(item)
                if on_info is not None:
                    on_info(item)
            else:
                return SearchResult(item, infos)
        raise HayanagiError(N.POISONED, "the search ended without a best move")

    def stream(self, poll_s: float = 0.1) -> Iterator[Union[Info, BestMove]]:
        """The reports of the running search as they arrive, ending with its best move. If
        the consumer stops early (or an exception passes through), the search is stopped
        and waited for."""
        done = False
        try:
            while True:
                try:
                    item = self._state.events.get(timeout=poll_s)
                except queue.Empty:
                    if self.closed:
                        raise EngineClosedError("the engine was closed during the search")
                    continue
                if isinstance(item, LogMessage):
                    _log.warning("%s", item.text)
                elif isinstance(item, (Info, BestMove)):
                    if isinstance(item, BestMove):
                        done = True
                        self._wait_quietly()
                    yield item
                    if done:
                        return
        finally:
            if not done:
                self._stop_and_wait_quietly()

    def _wait_quietly(self) -> None:
        try:
            self.wait()
        except EngineClosedError:
            pass

    def _stop_and_wait_quietly(self) -> None:
        try:
            self.stop()
            self.wait()
        except EngineClosedError:
            pass

    def stop(self) -> None:
        """Ask the search to finish now. Never blocks; a no-op when idle or when the engine
        is closed (a closed engine searches nothing); any thread."""
        try:
            self._call("hayanagi_engine_stop")
        except EngineClosedError:
            pass

    def ponderhit(self) -> None:
        """The predicted move was played: the ponder search becomes a timed search."""
        self._call("hayanagi_engine_ponderhit")

    def wait(self, timeout: Optional[float] = None) -> bool:
        """Block (GIL released) until the best move has been delivered; ``timeout`` in
        seconds (None: forever, in 100 ms slices so that Ctrl-C works). False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            slice_ms = 100
            if deadline is not None:
                slice_ms = max(0, min(slice_ms, int((deadline - time.monotonic()) * 1000)))
            with self._h as h:
                st = self._lib.hayanagi_engine_wait(h, slice_ms)
            if st == N.OK:
                return True
            if st != N.TIMEOUT:
                self._check(st)
            if deadline is not None and time.monotonic() >= deadline:
                return False

    def is_searching(self) -> bool:
        """True from ``go`` until the search's best move has been delivered."""
        out = ctypes.c_bool(False)
        self._call("hayanagi_engine_is_searching", ctypes.byref(out))
        return bool(out.value)

    # --- mate search ---

    def start_mate(self, movetime_ms: Optional[int] = None, nodes: Optional[int] = None, any_length: bool = False) -> None:
        """Start a mate search (df-pn) and return at once; :meth:`mate_result` waits for it."""
        mt = -1 if movetime_ms is None else int(movetime_ms)
        nd = 0 if nodes is None else int(nodes)
        flags = N.MATE_ANY_LENGTH if any_length else 0
        self._start(lambda h: int(self._lib.hayanagi_engine_go_mate(h, mt, nd, flags)))

    def go_mate(self, movetime_ms: Optional[int] = None, nodes: Optional[int] = None, any_length: bool = False) -> MateResult:
        """Search for a forced mate (shortest unless ``any_length``) and wait for the answer.
        With neither limit it runs until :meth:`stop` (from another thread)."""
        self.start_mate(movetime_ms, nodes, any_length)
        return self.mate_result()

    def mate_result(self) -> MateResult:
        """Wait for the running mate search's answer."""
        try:
            while True:
                try:
                    item = self._state.events.get(timeout=0.1)
                except queue.Empty:
                    continue
                if isinstance(item, LogMessage):
                    _log.warning("%s", item.text)
                elif isinstance(item, MateResult):
                    self.wait()
                    return item
        except BaseException:
            self._stop_and_wait_quietly()
            raise

    def last_mate(self) -> MateResult:
        """The answer of the last finished mate search (INVALID_ARG when none)."""
        r = N.hayanagi_mate_result()
        with self._h as h:
            moves = _copy_out(lambda b, c, n: self._lib.hayanagi_engine_last_mate(h, ctypes.byref(r), b, c, n), self._check)
        return _mate_from_c(r, moves)

    # --- the library's own event queue ---

    def enable_events(self, enabled: bool = True) -> None:
        """Queue events in the library for :meth:`poll_event` (the pull alternative to the
        callbacks, which stay installed)."""
        self._call("hayanagi_engine_enable_events", bool(enabled))

    def poll_event(self) -> Optional[PolledEvent]:
        """The oldest event of the library's queue, or None when it is empty."""
        ev = N.hayanagi_event()
        with self._h as h:
            text = _copy_out(lambda b, c, n: self._lib.hayanagi_engine_poll_event(h, ctypes.byref(ev), b, c, n), self._check)
        if ev.kind == N.EVENT_NONE:
            return None
        kind = EventKind(ev.kind)
        if kind == EventKind.INFO:
            pv = text.split(" pv ", 1)[1].split() if " pv " in text else []
            return PolledEvent(kind, text, info=_info_from_c(ev.info, pv, text))
        if kind == EventKind.BESTMOVE:
            return PolledEvent(kind, text, bestmove=_bestmove_from_text(text))
        return PolledEvent(kind, text)

    # --- USI text channel ---

    def usi_command(self, line: str) -> None:
        """Send a USI command line; the output lines are read with :meth:`usi_output`."""
        self._state.usi_enabled = True
        with self._go_lock:
            self._call("hayanagi_engine_usi_command", _enc(line, "line"))

    def _usi_line_queue(self) -> "queue.SimpleQueue[Any]":
        """The queue the USI output callback fills, enabled from now on (python -m hayanagi
        drains it on its own writer thread)."""
        self._state.usi_enabled = True
        return self._state.usi

    def usi_output(self, timeout: float = 0.0, until: Optional[str] = None) -> List[str]:
        """USI output lines received so far. With ``until``, wait (at most ``timeout``
        seconds) for a line starting with it and return the lines up to and including it."""
        lines: List[str] = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                remaining = deadline - time.monotonic()
                if until is not None and remaining > 0:
                    line = self._state.usi.get(timeout=remaining)
                else:
                    line = self._state.usi.get_nowait()
            except queue.Empty:
                return lines
            lines.append(line)
            if until is not None and line.startswith(until):
                return lines

    # --- table ---

    @staticmethod
    def _entry(p: N.hayanagi_tt_probe) -> Optional[TtEntry]:
        if not p.found:
            return None
        return TtEntry(
            move=p.move_usi.decode("ascii"),
            move_legal=bool(p.move_legal),
            score=Score.from_c(p.score_kind, p.score_value),
            depth=p.depth,
            bound=Bound(p.bound),
            generation=p.generation,
        )

    def probe_tt(self, position: Optional[PositionLike] = None) -> Optional[TtEntry]:
        """What the table holds for the current position, or for ``position``; None."""
        p = N.hayanagi_tt_probe()
        text = None if position is None else _enc(_position_text(position), "position")
        self._call("hayanagi_engine_probe_tt", text, ctypes.byref(p))
        return self._entry(p)

    def probe_tt_key(self, key: int) -> Optional[TtEntry]:
        """Probe by Zobrist key (the move is not checked)."""
        p = N.hayanagi_tt_probe()
        self._call("hayanagi_engine_probe_tt_key", int(key), ctypes.byref(p))
        return self._entry(p)

    def hashfull(self) -> int:
        """Permille of the table used by the current generation."""
        out = ctypes.c_uint32(0)
        self._call("hayanagi_engine_hashfull", ctypes.byref(out))
        return int(out.value)

    def clear_hash(self) -> None:
        """Empty the transposition table (BUSY during a search)."""
        self._call("hayanagi_engine_clear_hash")

    def set_table(self, table: Table) -> None:
        """Use ``table`` from now on (shared with every engine using it)."""
        with table._h as t:
            self._call("hayanagi_engine_set_table", t)

    # --- diagnostics ---

    @property
    def callback_errors(self) -> int:
        """Exceptions swallowed inside the callbacks (should stay 0)."""
        return self._state.callback_errors


def _make_limits(limits: Optional[Limits], kwargs: Dict[str, Any]) -> Limits:
    if limits is not None and kwargs:
        raise TypeError("pass a Limits or keywords, not both")
    if limits is not None:
        return limits
    return Limits(**kwargs)


from ._position import Position  # noqa: E402  (circular: Position uses Engine)
