"""hayanagi: Python binding (ctypes) of the hayanagi shogi engine's C API.

>>> import hayanagi
>>> with hayanagi.Engine() as engine:
...     engine.set_position("startpos moves 7g7f 3c3d")
...     for item in engine.go(movetime_ms=1000, stream=True):
...         print(item)          # Info reports, then the BestMove

The shared library is found inside this package (``pip install`` and wheels bundle it),
through ``HAYANAGI_LIB``, or in the ``target/release`` of the source checkout.
``python -m hayanagi`` runs the USI engine on stdin/stdout.
"""

from ._engine import (
    BestMove,
    Bound,
    Engine,
    EngineClosedError,
    EventKind,
    GameState,
    HayanagiError,
    Info,
    InvalidArgumentError,
    Limits,
    LogMessage,
    MateKind,
    MateResult,
    OptionInfo,
    Options,
    OptionType,
    PolledEvent,
    Score,
    ScoreKind,
    SearchResult,
    Status,
    Table,
    TtEntry,
    abi_version,
    last_error,
    status_str,
    version,
)
from ._native import LibraryNotFoundError, library_path
from ._position import STARTPOS_SFEN, Position

__version__ = "0.1.0"

__all__ = [
    "BestMove",
    "Bound",
    "Engine",
    "EngineClosedError",
    "EventKind",
    "GameState",
    "HayanagiError",
    "Info",
    "InvalidArgumentError",
    "LibraryNotFoundError",
    "Limits",
    "LogMessage",
    "MateKind",
    "MateResult",
    "OptionInfo",
    "OptionType",
    "Options",
    "PolledEvent",
    "Position",
    "STARTPOS_SFEN",
    "Score",
    "ScoreKind",
    "SearchResult",
    "Status",
    "Table",
    "TtEntry",
    "abi_version",
    "last_error",
    "library_path",
    "status_str",
    "version",
]
