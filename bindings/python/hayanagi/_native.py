"""The raw C API over ctypes: structs, callback types and the prototype of every function of
``include/hayanagi.h`` (``PROTOTYPES``; tests/bindings/test_header_bindings.py compares them
with the header). The library is loaded on first use (:func:`lib`), from the first of:

1. inside this package, next to this file: the copy ``pip install`` and wheels bundle
   (the build compiles it from the repository's Rust sources, bindings/python/setup.py);
2. ``HAYANAGI_LIB``: the path of the shared library (or of a directory holding it), for a
   package without a bundled library (the source tree); when set, it must exist;
3. ``target/release`` of the source checkout this package sits in (development, after
   ``cargo clib --release``), only when the package is the checkout's bindings/python.

ctypes.CDLL releases the GIL for the duration of every foreign call, so a search thread that
needs the GIL for a callback can always get it while Python waits in a native call.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from ctypes import (
    CFUNCTYPE,
    POINTER,
    Structure,
    c_bool,
    c_char,
    c_char_p,
    c_int32,
    c_int64,
    c_size_t,
    c_uint8,
    c_uint32,
    c_uint64,
    c_void_p,
)
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ABI_VERSION = 1

# ----- status codes, constants ---------------------------------------------------------------

OK = 0
NULL_ARG = 1
INVALID_ARG = 2
PARSE = 3
ILLEGAL_MOVE = 4
BUSY = 5
REENTRANT = 6
BUFFER_TOO_SMALL = 7
TIMEOUT = 8
IO = 9
FORMAT = 10
PANIC = 11
POISONED = 12
NO_MEMORY = 13

SCORE_CP = 0
SCORE_MATE = 1

EVENT_NONE = 0
EVENT_INFO = 1
EVENT_BESTMOVE = 2
EVENT_MATE = 3

MATE_ANY_LENGTH = 1

OPTION_SPIN = 0
OPTION_CHECK = 1
OPTION_COMBO = 2
OPTION_STRING = 3
OPTION_FILENAME = 4
OPTION_HIDDEN = 1
OPTION_AT_READY = 2
OPTION_TEXT_DEFAULT = 0
OPTION_TEXT_CHOICES = 1
OPTION_TEXT_HELP = 2
OPTION_TEXT_USI = 3

# ----- opaque handles and structs (named as in the header) -----------------------------------


class hayanagi_engine(Structure):
    """Opaque engine handle (only used through POINTER)."""


class hayanagi_table(Structure):
    """Opaque table handle (only used through POINTER)."""


class hayanagi_position(Structure):
    """Opaque position handle (only used through POINTER)."""


class hayanagi_limits(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("btime_ms", c_int64),
        ("wtime_ms", c_int64),
        ("binc_ms", c_int64),
        ("winc_ms", c_int64),
        ("byoyomi_ms", c_int64),
        ("movetime_ms", c_int64),
        ("movestogo", c_int32),
        ("depth", c_int32),
        ("nodes", c_int64),
        ("infinite", c_bool),
        ("ponder", c_bool),
        ("multipv", c_uint32),
        ("searchmoves", c_char_p),
    ]


class hayanagi_engine_config(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("hash_mib", c_uint32),
        ("threads", c_uint32),
    ]


class hayanagi_mate_result(Structure):
    _fields_ = [
        ("kind", c_int32),
        ("plies", c_uint32),
        ("shortest", c_bool),
        ("nodes", c_uint64),
        ("time_ms", c_uint64),
    ]


class hayanagi_info(Structure):
    _fields_ = [
        ("depth", c_uint32),
        ("seldepth", c_uint32),
        ("multipv", c_uint32),
        ("score_kind", c_int32),
        ("score_value", c_int32),
        ("bound", c_int32),
        ("nodes", c_uint64),
        ("nps", c_uint64),
        ("time_ms", c_uint64),
        ("hashfull", c_uint32),
        ("pv", c_char_p),
    ]


class hayanagi_event(Structure):
    _fields_ = [
        ("kind", c_int32),
        ("info", hayanagi_info),
    ]


class hayanagi_event2(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("kind", c_int32),
        ("search_id", c_uint64),
        ("dropped_info", c_uint64),
        ("info", hayanagi_info),
    ]


class hayanagi_event_stats(Structure):
    _fields_ = [
        ("struct_size", c_size_t),
        ("queued", c_uint64),
        ("capacity", c_uint64),
        ("dropped_full", c_uint64),
        ("dropped_stale", c_uint64),
        ("dropped_stale_final", c_uint64),
    ]


class hayanagi_tt_probe(Structure):
    _fields_ = [
        ("found", c_bool),
        ("move_usi", c_char * 8),
        ("move_legal", c_bool),
        ("score_kind", c_int32),
        ("score_value", c_int32),
        ("depth", c_int32),
        ("bound", c_int32),
        ("generation", c_uint8),
    ]


class hayanagi_option_info(Structure):
    _fields_ = [
        ("kind", c_int32),
        ("flags", c_uint32),
        ("min", c_int64),
        ("max", c_int64),
        ("choices", c_uint32),
    ]


# ----- callback types ------------------------------------------------------------------------

hayanagi_info_callback = CFUNCTYPE(None, c_void_p, POINTER(hayanagi_info), c_char_p)
hayanagi_free_callback = CFUNCTYPE(None, c_void_p)
hayanagi_bestmove_callback = CFUNCTYPE(None, c_void_p, c_char_p, c_char_p)
hayanagi_log_callback = CFUNCTYPE(None, c_void_p, c_char_p)
hayanagi_mate_callback = CFUNCTYPE(None, c_void_p, POINTER(hayanagi_mate_result), c_char_p)
hayanagi_usi_output_callback = CFUNCTYPE(None, c_void_p, c_char_p)

# ----- prototypes: name -> (restype, [argtypes]) ---------------------------------------------

_E = POINTER(hayanagi_engine)
_T = POINTER(hayanagi_table)
_P = POINTER(hayanagi_position)
_BUF = POINTER(c_char)  # a caller buffer (char *buf)
_LEN = POINTER(c_size_t)

PROTOTYPES: Dict[str, Tuple[Any, List[Any]]] = {
    "hayanagi_abi_version": (c_uint32, []),
    "hayanagi_version_string": (c_char_p, []),
    "hayanagi_status_str": (c_char_p, [c_int32]),
    "hayanagi_last_error": (c_int32, [_BUF, c_size_t, _LEN]),
    "hayanagi_limits_init": (c_int32, [POINTER(hayanagi_limits)]),
    "hayanagi_table_new": (c_int32, [c_uint32, POINTER(_T)]),
    "hayanagi_table_free": (c_int32, [_T]),
    "hayanagi_engine_new": (c_int32, [POINTER(hayanagi_engine_config), POINTER(_E)]),
    "hayanagi_engine_free": (c_int32, [_E]),
    "hayanagi_engine_last_error": (c_int32, [_E, _BUF, c_size_t, _LEN]),
    "hayanagi_engine_set_option": (c_int32, [_E, c_char_p, c_char_p]),
    "hayanagi_engine_get_option": (c_int32, [_E, c_char_p, _BUF, c_size_t, _LEN]),
    "hayanagi_engine_option_count": (c_int32, [_E, c_uint32, _LEN]),
    "hayanagi_engine_option_info": (
        c_int32,
        [_E, c_size_t, c_uint32, POINTER(hayanagi_option_info), _BUF, c_size_t, _LEN],
    ),
    "hayanagi_engine_option_text": (c_int32, [_E, c_char_p, c_int32, _BUF, c_size_t, _LEN]),
    "hayanagi_engine_ready": (c_int32, [_E]),
    "hayanagi_engine_new_game": (c_int32, [_E]),
    "hayanagi_engine_set_position": (c_int32, [_E, c_char_p]),
    "hayanagi_engine_go": (c_int32, [_E, POINTER(hayanagi_limits)]),
    "hayanagi_engine_go_mate": (c_int32, [_E, c_int64, c_uint64, c_uint32]),
    "hayanagi_engine_last_mate": (
        c_int32,
        [_E, POINTER(hayanagi_mate_result), _BUF, c_size_t, _LEN],
    ),
    "hayanagi_engine_stop": (c_int32, [_E]),
    "hayanagi_engine_ponderhit": (c_int32, [_E]),
    "hayanagi_engine_wait": (c_int32, [_E, c_int64]),
    "hayanagi_engine_is_searching": (c_int32, [_E, POINTER(c_bool)]),
    "hayanagi_engine_set_info_callback": (
        c_int32,
        [_E, hayanagi_info_callback, c_void_p, hayanagi_free_callback],
    ),
    "hayanagi_engine_set_bestmove_callback": (
        c_int32,
        [_E, hayanagi_bestmove_callback, c_void_p, hayanagi_free_callback],
    ),
    "hayanagi_engine_set_log_callback": (
        c_int32,
        [_E, hayanagi_log_callback, c_void_p, hayanagi_free_callback],
    ),
    "hayanagi_engine_set_mate_callback": (
        c_int32,
        [_E, hayanagi_mate_callback, c_void_p, hayanagi_free_callback],
    ),
    "hayanagi_engine_set_usi_output_callback": (
        c_int32,
        [_E, hayanagi_usi_output_callback, c_void_p, hayanagi_free_callback],
    ),
    "hayanagi_engine_usi_command": (c_int32, [_E, c_char_p]),
    "hayanagi_engine_enable_events": (c_int32, [_E, c_bool]),
    "hayanagi_engine_poll_event": (c_int32, [_E, POINTER(hayanagi_event), _BUF, c_size_t, _LEN]),
    "hayanagi_engine_poll_event2": (c_int32, [_E, POINTER(hayanagi_event2), _BUF, c_size_t, _LEN]),
    "hayanagi_engine_set_event_capacity": (c_int32, [_E, c_size_t]),
    "hayanagi_engine_event_stats": (c_int32, [_E, POINTER(hayanagi_event_stats)]),
    "hayanagi_engine_search_id": (c_int32, [_E, POINTER(c_uint64)]),
    "hayanagi_engine_callback_search_id": (c_int32, [_E, POINTER(c_uint64)]),
    "hayanagi_engine_probe_tt": (c_int32, [_E, c_char_p, POINTER(hayanagi_tt_probe)]),
    "hayanagi_engine_probe_tt_key": (c_int32, [_E, c_uint64, POINTER(hayanagi_tt_probe)]),
    "hayanagi_engine_hashfull": (c_int32, [_E, POINTER(c_uint32)]),
    "hayanagi_engine_clear_hash": (c_int32, [_E]),
    "hayanagi_engine_set_table": (c_int32, [_E, _T]),
    "hayanagi_engine_sfen": (c_int32, [_E, _BUF, c_size_t, _LEN]),
    "hayanagi_engine_legal_moves": (c_int32, [_E, _BUF, c_size_t, _LEN]),
    "hayanagi_engine_is_legal": (c_int32, [_E, c_char_p, POINTER(c_bool)]),
    "hayanagi_engine_perft": (c_int32, [_E, c_uint32, POINTER(c_uint64)]),
    "hayanagi_engine_evaluate": (c_int32, [_E, POINTER(c_int32)]),
    "hayanagi_engine_game_state": (c_int32, [_E, POINTER(c_int32), POINTER(c_int32)]),
    "hayanagi_position_new": (c_int32, [c_char_p, POINTER(_P)]),
    "hayanagi_position_free": (c_int32, [_P]),
    "hayanagi_position_set": (c_int32, [_P, c_char_p]),
    "hayanagi_position_play": (c_int32, [_P, c_char_p]),
    "hayanagi_position_undo": (c_int32, [_P]),
    "hayanagi_position_moves_played": (c_int32, [_P, POINTER(c_uint32)]),
    "hayanagi_position_sfen": (c_int32, [_P, _BUF, c_size_t, _LEN]),
    "hayanagi_position_legal_moves": (c_int32, [_P, _BUF, c_size_t, _LEN]),
    "hayanagi_position_is_legal": (c_int32, [_P, c_char_p, POINTER(c_bool)]),
    "hayanagi_position_side_to_move": (c_int32, [_P, POINTER(c_int32), POINTER(c_bool)]),
    "hayanagi_position_perft": (c_int32, [_P, c_uint32, POINTER(c_uint64)]),
    "hayanagi_position_game_state": (c_int32, [_P, POINTER(c_int32), POINTER(c_int32)]),
    "hayanagi_position_evaluate": (c_int32, [_P, POINTER(c_int32)]),
}

# Functions of the header deliberately not bound (name -> reason). Empty: every function is.
NOT_BOUND: Dict[str, str] = {}

# ----- loading -------------------------------------------------------------------------------


def library_filename() -> str:
    """The file name of the shared library on this platform."""
    if sys.platform == "win32":
        return "hayanagi.dll"
    if sys.platform == "darwin":
        return "libhayanagi.dylib"
    return "libhayanagi.so"


def _checkout_root() -> Optional[Path]:
    """The repository root when this package is the source tree's bindings/python/hayanagi
    (None for an installed package)."""
    here = Path(__file__).resolve().parent
    root = here.parent.parent.parent
    if here.parent.name == "python" and here.parent.parent.name == "bindings" and (root / "Cargo.toml").is_file():
        return root
    return None


def candidate_paths() -> List[Path]:
    """Where the library is looked for, in order (see the module documentation)."""
    name = library_filename()
    out = [Path(__file__).resolve().parent / name]
    env = os.environ.get("HAYANAGI_LIB")
    if env:
        p = Path(env)
        out.append(p / name if p.is_dir() else p)
    root = _checkout_root()
    if root is not None:
        out.append(root / "target" / "release" / name)
    return out


class LibraryNotFoundError(OSError):
    """The shared library is in none of the places :func:`candidate_paths` lists."""


def _find_library() -> Path:
    name = library_filename()
    bundled, *rest = candidate_paths()
    if bundled.is_file():
        return bundled
    env = os.environ.get("HAYANAGI_LIB")
    if env:
        # An explicit choice is never second-guessed by the checkout's copy.
        path = rest[0]
        if path.is_file():
            return path
        raise LibraryNotFoundError(
            f"hayanagi: HAYANAGI_LIB={env} names no {name} (it must be the library file or the "
            "directory holding it; unset it to use the checkout's target/release)"
        )
    if rest and rest[0].is_file():
        return rest[0]
    root = _checkout_root()
    if root is not None:
        how = (
            f"this package is the source tree of {root}: build the library with "
            f"`cargo clib --release` there (it writes {rest[0]}), or install the package "
            f"with `pip install {root / 'bindings' / 'python'}`, which builds and bundles it"
        )
    else:
        how = (
            "this installed copy of the package has no library inside: reinstall it from a "
            "hayanagi checkout (`pip install ./bindings/python`, which builds the library "
            "with cargo) or from a wheel"
        )
    raise LibraryNotFoundError(
        f"hayanagi: {name} not found (looked in {', '.join(str(p) for p in candidate_paths())}). "
        f"{how}; or set HAYANAGI_LIB to the path of a {name}."
    )


_lib: Optional[ctypes.CDLL] = None
_lib_lock = threading.Lock()


def lib() -> ctypes.CDLL:
    """The loaded library with every prototype applied (loaded once)."""
    global _lib
    if _lib is not None:
        return _lib
    with _lib_lock:
        if _lib is None:
            path = _find_library()
            handle = ctypes.CDLL(str(path))
            for name, (restype, argtypes) in PROTOTYPES.items():
                f = getattr(handle, name)
                f.restype = restype
                f.argtypes = argtypes
            abi = handle.hayanagi_abi_version()
            if abi != ABI_VERSION:
                raise OSError(f"hayanagi: {path} has ABI version {abi}, this package needs {ABI_VERSION}")
            _lib = handle
    return _lib


def library_path() -> str:
    """The path the library is loaded from (loading it if needed)."""
    return str(lib()._name)
