"""The bindings follow include/hayanagi.h.

Parses the header's function declarations, callback typedefs, structs and #define constants,
and compares them with

- the Python binding: ``hayanagi._native.PROTOTYPES`` (restype and argtypes of every
  function), its CFUNCTYPE callback types and ctypes structs (field names and types), and
  its status/enum constants;
- the C# binding: the ``[DllImport]`` declarations of ``bindings/csharp/Hayanagi.cs``
  (name, parameter names, count and types, ``CallingConvention.Cdecl``), its
  ``[UnmanagedFunctionPointer(Cdecl)]`` delegates, ``[StructLayout(Sequential)]`` structs and
  enums, and that every static callback it hands to the library is marked
  ``[MonoPInvokeCallback]``;
- the C compiler: every struct's size and field offsets as ctypes and Mono compute them
  (compiled with ``cc``; the C# side is dumped by ``HayanagiTests.exe --layout``).

Every ``hayanagi_*`` function of the header must be bound by both bindings or listed, with a
reason, in ``PYTHON_NOT_BOUND`` (``hayanagi._native.NOT_BOUND``) / ``CSHARP_NOT_BOUND``
below; both are empty (everything is bound). A function bound but no longer in the header
fails too. The last tests feed altered headers to the same checks to show that a header
change the bindings do not follow is caught.
"""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "include" / "hayanagi.h"
CSHARP = ROOT / "bindings" / "csharp" / "Hayanagi.cs"
CSHARP_TESTS = ROOT / "tests" / "csharp" / "HayanagiTests.cs"
sys.path.insert(0, str(ROOT / "bindings" / "python"))

from hayanagi import _engine as PE  # noqa: E402
from hayanagi import _native as N  # noqa: E402

# Header functions the C# binding deliberately does not import (name -> reason).
CSHARP_NOT_BOUND: Dict[str, str] = {}
PYTHON_NOT_BOUND: Dict[str, str] = N.NOT_BOUND

# ----- the header -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CType:
    """A C type: base name (struct keyword dropped), pointer depth, const on the pointee,
    array length (struct fields only)."""

    base: str
    stars: int = 0
    const: bool = False
    array: Optional[int] = None

    def __str__(self) -> str:
        s = ("const " if self.const else "") + self.base + "*" * self.stars
        return s + (f"[{self.array}]" if self.array is not None else "")


@dataclass(frozen=True)
class Param:
    ctype: CType
    name: str


@dataclass
class Header:
    functions: Dict[str, Tuple[CType, List[Param]]]
    callbacks: Dict[str, Tuple[CType, List[Param]]]
    structs: Dict[str, List[Param]]
    defines: Dict[str, int]


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _parse_decl(decl: str) -> Param:
    """'const struct hayanagi_info *info' -> Param(CType('hayanagi_info', 1, True), 'info')."""
    decl = " ".join(decl.replace("*", " * ").split())
    array = None
    m = re.search(r"\[(\d+)\]$", decl)
    if m:
        array = int(m.group(1))
        decl = decl[: m.start()].strip()
    words = decl.split()
    name = words[-1]
    rest = [w for w in words[:-1] if w != "struct"]
    stars = rest.count("*")
    const = "const" in rest
    base = [w for w in rest if w not in ("*", "const")]
    assert len(base) == 1, f"cannot parse declaration {decl!r}"
    return Param(CType(base[0], stars, const, array), name)


def _parse_type(text: str) -> CType:
    return _parse_decl(text + " _").ctype


def _params(text: str) -> List[Param]:
    text = text.strip()
    if text in ("", "void"):
        return []
    return [_parse_decl(p) for p in text.split(",")]


def parse_header(text: str) -> Header:
    defines = {m.group(1): int(m.group(2)) for m in re.finditer(r"#define\s+(HAYANAGI_\w+)\s+(-?\d+)\s*$", text, re.M)}
    code = _strip_comments(text)
    code = re.sub(r"#[^\n]*", " ", code)  # preprocessor lines
    structs: Dict[str, List[Param]] = {}
    for m in re.finditer(r"typedef\s+struct\s+(hayanagi_\w+)\s*\{(.*?)\}\s*\1\s*;", code, re.S):
        structs[m.group(1)] = [_parse_decl(f) for f in m.group(2).split(";") if f.strip()]
    code = re.sub(r"typedef\s+struct\s+(hayanagi_\w+)\s*\{.*?\}\s*\1\s*;", " ", code, flags=re.S)
    callbacks: Dict[str, Tuple[CType, List[Param]]] = {}
    for m in re.finditer(r"typedef\s+([\w\s\*]+?)\s*\(\s*\*\s*(hayanagi_\w+)\s*\)\s*\(([^;]*?)\)\s*;", code, re.S):
        callbacks[m.group(2)] = (_parse_type(m.group(1)), _params(m.group(3)))
    code = re.sub(r"typedef[^;]*;", " ", code, flags=re.S)
    functions: Dict[str, Tuple[CType, List[Param]]] = {}
    for m in re.finditer(r"([\w\s\*]+?)\b(hayanagi_\w+)\s*\(([^;{}]*?)\)\s*;", code, re.S):
        ret = m.group(1).replace('extern "C"', " ")
        functions[m.group(2)] = (_parse_type(ret), _params(m.group(3)))
    return Header(functions, callbacks, structs, defines)


@pytest.fixture(scope="module")
def header() -> Header:
    return parse_header(HEADER.read_text(encoding="utf-8"))


def test_header_parses(header: Header) -> None:
    # Sanity of the parser itself on known declarations.
    assert len(header.functions) >= 40
    assert header.functions["hayanagi_engine_go"] == (
        CType("hayanagi_status"),
        [Param(CType("hayanagi_engine", 1), "engine"), Param(CType("hayanagi_limits", 1, True), "limits")],
    )
    assert header.functions["hayanagi_abi_version"] == (CType("uint32_t"), [])
    assert header.callbacks["hayanagi_bestmove_callback"][1][1] == Param(CType("char", 1, True), "bestmove")
    assert Param(CType("char", 0, False, 8), "move_usi") in header.structs["hayanagi_tt_probe"]
    assert header.defines["HAYANAGI_BUSY"] == 5
    # Every exported symbol of the library is declared (nm, when available).
    lib = ROOT / "target" / "release" / N.library_filename()
    if shutil.which("nm") and lib.is_file() and sys.platform.startswith("linux"):
        out = subprocess.run(["nm", "-D", "--defined-only", str(lib)], capture_output=True, text=True, check=True).stdout
        exported = {l.split()[-1] for l in out.splitlines() if re.search(r" T hayanagi_", l)}
        assert exported == set(header.functions), exported ^ set(header.functions)


# ----- Python -----------------------------------------------------------------------------------

_PY_SCALARS = {
    "int32_t": ctypes.c_int32,
    "hayanagi_status": ctypes.c_int32,
    "uint32_t": ctypes.c_uint32,
    "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64,
    "uint8_t": ctypes.c_uint8,
    "size_t": ctypes.c_size_t,
    "bool": ctypes.c_bool,
}


def py_type(t: CType, header: Header):
    """The ctypes type a C type must be bound as."""
    if t.array is not None:
        return py_type(CType(t.base), header) * t.array
    if t.base == "void" and t.stars == 0:
        return None
    if t.base == "void" and t.stars == 1:
        return ctypes.c_void_p
    if t.base == "char" and t.stars == 1:
        return ctypes.c_char_p if t.const else ctypes.POINTER(ctypes.c_char)
    if t.stars > 0:
        return ctypes.POINTER(py_type(CType(t.base, t.stars - 1, t.const), header))
    if t.base == "char":
        return ctypes.c_char
    if t.base in _PY_SCALARS:
        return _PY_SCALARS[t.base]
    if t.base in header.callbacks or t.base in header.structs or t.base in ("hayanagi_engine", "hayanagi_table", "hayanagi_position"):
        return getattr(N, t.base, f"<missing {t.base}>")
    raise AssertionError(f"no ctypes mapping for {t}")


def _same(a, b) -> bool:
    if a is b:
        return True
    # Arrays (c_char * 8) are created anew each time.
    return (
        isinstance(a, type) and isinstance(b, type)
        and issubclass(a, ctypes.Array) and issubclass(b, ctypes.Array)
        and a._type_ is b._type_ and a._length_ == b._length_
    )


def check_python(h: Header, prototypes, not_bound, module=N) -> List[str]:
    problems = []
    for name, (ret, params) in h.functions.items():
        if name in not_bound:
            continue
        if name not in prototypes:
            problems.append(f"python: {name} is not bound (bind it or list it in NOT_BOUND with a reason)")
            continue
        restype, argtypes = prototypes[name]
        if not _same(restype, py_type(ret, h)):
            problems.append(f"python: {name} returns {restype}, header says {ret}")
        if len(argtypes) != len(params):
            problems.append(f"python: {name} has {len(argtypes)} argtypes, header has {len(params)} parameters")
            continue
        for k, (a, p) in enumerate(zip(argtypes, params)):
            if not _same(a, py_type(p.ctype, h)):
                problems.append(f"python: {name} argument {k} ({p.name}) is {a}, header says {p.ctype}")
    for name in prototypes:
        if name not in h.functions:
            problems.append(f"python: {name} is bound but not in the header")
    for name in not_bound:
        if name not in h.functions:
            problems.append(f"python: NOT_BOUND lists {name}, which is not in the header")
    for name, (ret, params) in h.callbacks.items():
        cb = getattr(module, name, None)
        if cb is None:
            problems.append(f"python: no callback type {name}")
            continue
        if not _same(cb._restype_, py_type(ret, h)) or len(cb._argtypes_) != len(params) or not all(
            _same(a, py_type(p.ctype, h)) for a, p in zip(cb._argtypes_, params)
        ):
            problems.append(f"python: callback type {name} is {cb._restype_}{cb._argtypes_}, header says {ret} {[str(p.ctype) for p in params]}")
    for name, fields in h.structs.items():
        cls = getattr(module, name, None)
        if cls is None:
            problems.append(f"python: no struct {name}")
            continue
        got = [(f[0], f[1]) for f in cls._fields_]
        if [g[0] for g in got] != [f.name for f in fields]:
            problems.append(f"python: struct {name} fields {[g[0] for g in got]}, header {[f.name for f in fields]}")
            continue
        for (fname, ftype), f in zip(got, fields):
            if not _same(ftype, py_type(f.ctype, h)):
                problems.append(f"python: {name}.{fname} is {ftype}, header says {f.ctype}")
    return problems


def _define_group(h: Header, prefix: str, exclude: Tuple[str, ...] = ()) -> Dict[str, int]:
    return {k[len(prefix):]: v for k, v in h.defines.items() if k.startswith(prefix) and k not in exclude}


STATUS_NAMES = (
    "OK NULL_ARG INVALID_ARG PARSE ILLEGAL_MOVE BUSY REENTRANT BUFFER_TOO_SMALL TIMEOUT IO FORMAT PANIC POISONED NO_MEMORY"
).split()


def option_types(h: Header) -> Dict[str, int]:
    # The option kinds; the flags and text selectors share the prefix.
    kinds = ("SPIN", "CHECK", "COMBO", "STRING", "FILENAME")
    return {k: v for k, v in _define_group(h, "HAYANAGI_OPTION_").items() if k in kinds}


def header_statuses(h: Header) -> Dict[str, int]:
    # Status codes are the HAYANAGI_* defines that are not in a named group.
    groups = ("VERSION_", "ABI_", "SCORE_", "BOUND_", "EVENT_", "MATE_", "GAME_", "OPTION_")
    return {k[len("HAYANAGI_"):]: v for k, v in h.defines.items() if not k[len("HAYANAGI_"):].startswith(groups)}


def check_python_constants(h: Header) -> List[str]:
    problems = []
    if {s.name: s.value for s in PE.Status} != header_statuses(h):
        problems.append(f"python: Status {[(s.name, s.value) for s in PE.Status]} != header {header_statuses(h)}")
    for name, value in header_statuses(h).items():
        if getattr(N, name, None) != value:
            problems.append(f"python: _native.{name} != {value}")
    # ScoreKind is a str enum ("cp", "mate"); the C values map onto it through _SCORE_KINDS.
    score_kinds = {kind.name: value for value, kind in PE._SCORE_KINDS.items()}
    if score_kinds != _define_group(h, "HAYANAGI_SCORE_") or set(PE._SCORE_KINDS.values()) != set(PE.ScoreKind):
        problems.append(f"python: _SCORE_KINDS {score_kinds} != header {_define_group(h, 'HAYANAGI_SCORE_')}")
    for name, value in _define_group(h, "HAYANAGI_SCORE_").items():
        if getattr(N, f"SCORE_{name}", None) != value:
            problems.append(f"python: _native.SCORE_{name} != {value}")
    pairs = [
        (PE.Bound, _define_group(h, "HAYANAGI_BOUND_")),
        (PE.GameState, _define_group(h, "HAYANAGI_GAME_")),
        (PE.EventKind, _define_group(h, "HAYANAGI_EVENT_", ("HAYANAGI_EVENT_NONE",))),
        (PE.MateKind, _define_group(h, "HAYANAGI_MATE_", ("HAYANAGI_MATE_ANY_LENGTH",))),
        (PE.OptionType, option_types(h)),
    ]
    for enum, group in pairs:
        if sorted(e.value for e in enum) != sorted(group.values()):
            problems.append(f"python: {enum.__name__} values {sorted(e.value for e in enum)} != header {group}")
    if N.ABI_VERSION != h.defines["HAYANAGI_ABI_VERSION"]:
        problems.append("python: ABI_VERSION differs from the header")
    if N.MATE_ANY_LENGTH != h.defines["HAYANAGI_MATE_ANY_LENGTH"] or N.EVENT_NONE != h.defines["HAYANAGI_EVENT_NONE"]:
        problems.append("python: MATE_ANY_LENGTH / EVENT_NONE differ from the header")
    return problems


def test_python_functions_callbacks_structs(header: Header) -> None:
    assert check_python(header, N.PROTOTYPES, PYTHON_NOT_BOUND) == []


def test_python_constants_and_version(header: Header) -> None:
    assert check_python_constants(header) == []
    version = "{}.{}.{}".format(
        header.defines["HAYANAGI_VERSION_MAJOR"], header.defines["HAYANAGI_VERSION_MINOR"], header.defines["HAYANAGI_VERSION_PATCH"]
    )
    import hayanagi

    assert hayanagi.__version__ == version
    # The package version is hayanagi.__version__ (setup.py refuses a build when it differs
    # from the crate's).
    pyproject = (ROOT / "bindings" / "python" / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject and 'version = { attr = "hayanagi.__version__" }' in pyproject


# ----- C# ---------------------------------------------------------------------------------------

_CS_SCALARS = {
    "int32_t": "int",
    "hayanagi_status": "int",
    "uint32_t": "uint",
    "int64_t": "long",
    "uint64_t": "ulong",
    "uint8_t": "byte",
    "size_t": "UIntPtr",
}
_CS_HANDLES = {"hayanagi_engine": "EngineHandle", "hayanagi_table": "TableHandle", "hayanagi_position": "PositionHandle"}
_U1_BOOL = "[MarshalAs(UnmanagedType.U1)] bool"


def cs_struct_name(c_name: str) -> str:
    """hayanagi_tt_probe -> NativeTtProbe."""
    return "Native" + "".join(w.capitalize() for w in c_name[len("hayanagi_"):].split("_"))


def cs_allowed(t: CType, h: Header, context: str, delegates: Dict[str, str]) -> Set[str]:
    """The C# spellings a C type may be bound as. context: 'param', 'return', 'field',
    'callback' (a parameter of a delegate the library calls)."""
    if t.array is not None:
        assert t.base == "char"
        return {f"[MarshalAs(UnmanagedType.ByValArray, SizeConst = {t.array})] byte[]"}
    if t.stars == 0:
        if t.base == "void":
            return {"void"}
        if t.base == "bool":
            return {"byte", _U1_BOOL}
        if t.base in _CS_SCALARS:
            return {_CS_SCALARS[t.base]}
        if t.base in h.callbacks:
            key = t.base[len("hayanagi_"):].replace("_", "").lower()
            return {d for d in delegates if d.lower() == key}
        if t.base in h.structs and context == "field":
            return {cs_struct_name(t.base)}
        raise AssertionError(f"no C# mapping for {t}")
    if context in ("return", "callback", "field"):
        return {"IntPtr"}  # never string: the marshaller would free library memory
    if t.stars == 1:
        if t.base == "char":
            return {"byte[]", "IntPtr"} if t.const else {"[Out] byte[]", "byte[]", "IntPtr"}
        if t.base == "void":
            return {"IntPtr"}
        if t.base in _CS_HANDLES:
            return {_CS_HANDLES[t.base], "IntPtr"}
        if t.base in h.structs:
            n = cs_struct_name(t.base)
            return {f"ref {n}", "IntPtr"} if t.const else {f"out {n}", f"ref {n}", "IntPtr"}
        if t.base == "bool":
            return {"out byte", "ref byte", f"[MarshalAs(UnmanagedType.U1)] out bool"}
        if t.base in _CS_SCALARS:
            s = _CS_SCALARS[t.base]
            return {f"out {s}", f"ref {s}"}
    if t.stars == 2 and t.base in _CS_HANDLES:
        return {f"out {_CS_HANDLES[t.base]}", "out IntPtr"}
    raise AssertionError(f"no C# mapping for {t} as {context}")


@dataclass
class CsDecl:
    name: str
    ret: str
    params: List[Tuple[str, str]]  # (type spelling, name)
    attribute: str


def _balanced(text: str, start: int) -> int:
    """Index just after the ')' matching the '(' at start."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    raise AssertionError("unbalanced parentheses")


def _split_params(text: str) -> List[Tuple[str, str]]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    params = []
    for p in out:
        p = " ".join(p.split())
        typ, name = p.rsplit(" ", 1)
        params.append((typ, name.lstrip("@")))
    return params


def parse_csharp(text: str) -> Tuple[Dict[str, CsDecl], Dict[str, CsDecl], Dict[str, List[Tuple[str, str]]], Dict[str, Dict[str, int]]]:
    """(DllImports, delegates, structs, enums) of Hayanagi.cs."""
    code = re.sub(r"//[^\n]*", "", text)
    imports: Dict[str, CsDecl] = {}
    for m in re.finditer(r"\[DllImport\(([^\]]*)\)\]\s*internal static extern (\S+) (\w+)\s*\(", code):
        end = _balanced(code, m.end() - 1)
        imports[m.group(3)] = CsDecl(m.group(3), m.group(2), _split_params(code[m.end() : end - 1]), m.group(1))
    delegates: Dict[str, CsDecl] = {}
    for m in re.finditer(r"(\[UnmanagedFunctionPointer\([^\]]*\)\]\s*)?internal delegate (\S+) (\w+)\s*\(", code):
        end = _balanced(code, m.end() - 1)
        delegates[m.group(3)] = CsDecl(m.group(3), m.group(2), _split_params(code[m.end() : end - 1]), m.group(1) or "")
    structs: Dict[str, List[Tuple[str, str]]] = {}
    for m in re.finditer(r"\[StructLayout\(LayoutKind\.Sequential\)\]\s*internal struct (\w+)\s*\{(.*?)\}", code, re.S):
        fields = []
        for f in m.group(2).split(";"):
            f = " ".join(f.split())
            if not f:
                continue
            mm = re.match(r"((?:\[[^\]]*\]\s*)*)public (\S+) (\w+)$", f)
            assert mm, f"cannot parse field {f!r} of {m.group(1)}"
            typ = (mm.group(1).strip() + " " + mm.group(2)).strip()
            fields.append((typ, mm.group(3)))
        structs[m.group(1)] = fields
    enums: Dict[str, Dict[str, int]] = {}
    for m in re.finditer(r"public enum (\w+)\s*\{([^}]*)\}", code):
        values = {}
        for item in m.group(2).split(","):
            item = item.strip()
            if item:
                k, v = item.split("=")
                values[k.strip()] = int(v)
        enums[m.group(1)] = values
    return imports, delegates, structs, enums


def check_csharp(h: Header, text: str, not_bound: Dict[str, str]) -> List[str]:
    problems = []
    imports, delegates, structs, enums = parse_csharp(text)
    for name, (ret, params) in h.functions.items():
        if name in not_bound:
            continue
        d = imports.get(name)
        if d is None:
            problems.append(f"c#: {name} is not imported (import it or list it in CSHARP_NOT_BOUND with a reason)")
            continue
        if "CallingConvention = CallingConvention.Cdecl" not in d.attribute:
            problems.append(f"c#: {name} is not Cdecl")
        if d.ret not in cs_allowed(ret, h, "return", delegates):
            problems.append(f"c#: {name} returns {d.ret}, header says {ret} (allowed {cs_allowed(ret, h, 'return', delegates)})")
        if len(d.params) != len(params):
            problems.append(f"c#: {name} has {len(d.params)} parameters, header has {len(params)}")
            continue
        for (typ, pname), p in zip(d.params, params):
            allowed = cs_allowed(p.ctype, h, "param", delegates)
            if typ not in allowed:
                problems.append(f"c#: {name} parameter {pname} is {typ!r}, header says {p.ctype} (allowed {sorted(allowed)})")
            if pname != p.name:
                problems.append(f"c#: {name} parameter {pname!r} is {p.name!r} in the header")
    for name in imports:
        if name not in h.functions:
            problems.append(f"c#: {name} is imported but not in the header")
    for name, (ret, params) in h.callbacks.items():
        key = name[len("hayanagi_"):].replace("_", "").lower()
        match = [d for n, d in delegates.items() if n.lower() == key]
        if not match:
            problems.append(f"c#: no delegate for {name}")
            continue
        d = match[0]
        if "CallingConvention.Cdecl" not in d.attribute:
            problems.append(f"c#: delegate {d.name} lacks [UnmanagedFunctionPointer(CallingConvention.Cdecl)]")
        if d.ret not in cs_allowed(ret, h, "return", delegates) or len(d.params) != len(params):
            problems.append(f"c#: delegate {d.name} does not match {name}")
            continue
        for (typ, pname), p in zip(d.params, params):
            if typ not in cs_allowed(p.ctype, h, "callback", delegates) or pname != p.name:
                problems.append(f"c#: delegate {d.name} parameter {typ} {pname}, header says {p.ctype} {p.name}")
    for name, fields in h.structs.items():
        cs = structs.get(cs_struct_name(name))
        if cs is None:
            problems.append(f"c#: no struct {cs_struct_name(name)} for {name}")
            continue
        if [n for _, n in cs] != [f.name for f in fields]:
            problems.append(f"c#: {cs_struct_name(name)} fields {[n for _, n in cs]}, header {[f.name for f in fields]}")
            continue
        for (typ, fname), f in zip(cs, fields):
            allowed = cs_allowed(f.ctype, h, "field", delegates)
            if typ not in allowed:
                problems.append(f"c#: {cs_struct_name(name)}.{fname} is {typ!r}, header says {f.ctype} (allowed {sorted(allowed)})")
    # Constants.
    camel = {"".join(w.capitalize() for w in k.split("_")): v for k, v in header_statuses(h).items()}
    if enums.get("Status") != camel:
        problems.append(f"c#: enum Status {enums.get('Status')} != header {camel}")
    pairs = [
        ("ScoreKind", _define_group(h, "HAYANAGI_SCORE_")),
        ("Bound", _define_group(h, "HAYANAGI_BOUND_")),
        ("GameState", _define_group(h, "HAYANAGI_GAME_")),
        ("MateKind", _define_group(h, "HAYANAGI_MATE_", ("HAYANAGI_MATE_ANY_LENGTH",))),
        ("OptionType", option_types(h)),
    ]
    for enum, group in pairs:
        if sorted(enums.get(enum, {}).values()) != sorted(group.values()):
            problems.append(f"c#: enum {enum} {enums.get(enum)} != header {group}")
    events = _define_group(h, "HAYANAGI_EVENT_", ("HAYANAGI_EVENT_NONE",))
    if not set(events.values()) <= set(enums.get("EventKind", {}).values()):
        problems.append(f"c#: EventKind lacks header event kinds {events}")
    m = re.search(r"ExpectedAbiVersion = (\d+);", text)
    if not m or int(m.group(1)) != h.defines["HAYANAGI_ABI_VERSION"]:
        problems.append("c#: ExpectedAbiVersion differs from HAYANAGI_ABI_VERSION")
    return problems


def check_csharp_callbacks_marked(text: str) -> List[str]:
    """Every static method turned into a delegate handed to the library carries
    [MonoPInvokeCallback(typeof(<its delegate>))], and those delegates live in static fields."""
    problems = []
    thunks = re.findall(r"static readonly Native\.(\w+) \w+ = (\w+);", text)
    if not thunks:
        problems.append("c#: no static delegate fields found")
    for delegate, method in thunks:
        if not re.search(rf"\[MonoPInvokeCallback\(typeof\(Native\.{delegate}\)\)\]\s*static void {method}\(", text):
            problems.append(f"c#: {method} lacks [MonoPInvokeCallback(typeof(Native.{delegate}))]")
    # Setters only ever receive those static fields.
    for m in re.finditer(r"hayanagi_engine_set_\w+_callback\(handle, (\w+), ud, (\w+)\)", text):
        for field in m.groups():
            if field not in {f for f in re.findall(r"static readonly Native\.\w+ (\w+) =", text)}:
                problems.append(f"c#: {field} handed to the library is not a static delegate field")
    return problems


def test_csharp_imports_delegates_structs(header: Header) -> None:
    assert check_csharp(header, CSHARP.read_text(encoding="utf-8"), CSHARP_NOT_BOUND) == []


def test_csharp_callbacks_are_static_and_marked() -> None:
    assert check_csharp_callbacks_marked(CSHARP.read_text(encoding="utf-8")) == []


# ----- layouts: C compiler vs ctypes vs Mono ------------------------------------------------------


def c_layout(h: Header, tmp: Path) -> Dict[str, int]:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler")
    lines = ["#include <stdio.h>", "#include <stddef.h>", '#include "hayanagi.h"', "int main(void) {"]
    for name, fields in h.structs.items():
        lines.append(f'    printf("{name} %zu\\n", sizeof({name}));')
        for f in fields:
            lines.append(f'    printf("{name}.{f.name} %zu\\n", offsetof({name}, {f.name}));')
    lines += ["    return 0;", "}"]
    src = tmp / "layout.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp / "layout"
    subprocess.run([cc, "-std=c11", "-Wall", "-Werror", "-I", str(ROOT / "include"), "-o", str(exe), str(src)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return {k: int(v) for k, v in (l.split() for l in out.splitlines())}


def test_python_struct_layouts_match_the_c_compiler(header: Header, tmp_path: Path) -> None:
    want = c_layout(header, tmp_path)
    got = {}
    for name, fields in header.structs.items():
        cls = getattr(N, name)
        got[name] = ctypes.sizeof(cls)
        for f in fields:
            got[f"{name}.{f.name}"] = getattr(cls, f.name).offset
    assert got == want


def test_csharp_struct_layouts_match_the_c_compiler(header: Header, tmp_path: Path) -> None:
    mcs, mono = shutil.which("mcs"), shutil.which("mono")
    if not (mcs and mono):
        pytest.skip("mcs/mono not installed (apt-get install mono-mcs mono-runtime)")
    want = c_layout(header, tmp_path)
    exe = tmp_path / "layout.exe"
    subprocess.run([mcs, "-nologo", f"-out:{exe}", str(CSHARP), str(CSHARP_TESTS)], check=True, capture_output=True)
    out = subprocess.run([mono, str(exe), "--layout"], check=True, capture_output=True, text=True).stdout
    got = {k: int(v) for k, v in (l.split() for l in out.splitlines())}
    assert got == want


# ----- the checks catch header changes ------------------------------------------------------------


def _mutated(old: str, new: str) -> Header:
    text = HEADER.read_text(encoding="utf-8")
    assert old in text
    return parse_header(text.replace(old, new, 1))


@pytest.mark.parametrize(
    "old,new,py_expect,cs_expect",
    [
        # A parameter's type changes.
        ("hayanagi_status hayanagi_engine_wait(struct hayanagi_engine *engine, int64_t timeout_ms);",
         "hayanagi_status hayanagi_engine_wait(struct hayanagi_engine *engine, int32_t timeout_ms);",
         "hayanagi_engine_wait argument 1", "hayanagi_engine_wait parameter timeout_ms"),
        # A parameter is added.
        ("hayanagi_status hayanagi_engine_stop(struct hayanagi_engine *engine);",
         "hayanagi_status hayanagi_engine_stop(struct hayanagi_engine *engine, uint32_t flags);",
         "hayanagi_engine_stop has 1 argtypes", "hayanagi_engine_stop has 1 parameters"),
        # A new function.
        ("uint32_t hayanagi_abi_version(void);",
         "uint32_t hayanagi_abi_version(void);\nhayanagi_status hayanagi_engine_new_feature(struct hayanagi_engine *engine);",
         "hayanagi_engine_new_feature is not bound", "hayanagi_engine_new_feature is not imported"),
        # A function removed (still bound).
        ("hayanagi_status hayanagi_engine_ponderhit(struct hayanagi_engine *engine);", "",
         "hayanagi_engine_ponderhit is bound but not in the header", "hayanagi_engine_ponderhit is imported but not in the header"),
        # A struct field added.
        ("  uint32_t threads;\n} hayanagi_engine_config;", "  uint32_t threads;\n  uint32_t flags;\n} hayanagi_engine_config;",
         "struct hayanagi_engine_config fields", "NativeEngineConfig fields"),
        # A callback gains a parameter.
        ("typedef void (*hayanagi_log_callback)(void *user_data, const char *message);",
         "typedef void (*hayanagi_log_callback)(void *user_data, int32_t level, const char *message);",
         "callback type hayanagi_log_callback", "delegate LogCallback does not match"),
        # A new status code.
        ("#define HAYANAGI_NO_MEMORY 13", "#define HAYANAGI_NO_MEMORY 13\n\n#define HAYANAGI_CANCELLED 14",
         "_native.CANCELLED", "enum Status"),
    ],
)
def test_header_changes_are_caught(old: str, new: str, py_expect: str, cs_expect: str) -> None:
    h = _mutated(old, new)
    py = check_python(h, N.PROTOTYPES, PYTHON_NOT_BOUND) + check_python_constants(h)
    cs = check_csharp(h, CSHARP.read_text(encoding="utf-8"), CSHARP_NOT_BOUND)
    assert any(py_expect in p for p in py), py
    assert any(cs_expect in p for p in cs), cs


def test_binding_changes_are_caught(header: Header) -> None:
    text = CSHARP.read_text(encoding="utf-8")
    bad = text.replace("hayanagi_engine_wait(EngineHandle engine, long timeout_ms)", "hayanagi_engine_wait(EngineHandle engine, int timeout_ms)")
    assert any("timeout_ms" in p for p in check_csharp(header, bad, CSHARP_NOT_BOUND))
    bad = text.replace("[MonoPInvokeCallback(typeof(Native.LogCallback))]", "")
    assert check_csharp_callbacks_marked(bad)
    bad = text.replace("int hayanagi_engine_enable_events(EngineHandle engine, [MarshalAs(UnmanagedType.U1)] bool enabled)",
                       "int hayanagi_engine_enable_events(EngineHandle engine, bool enabled)")
    assert any("enabled" in p for p in check_csharp(header, bad, CSHARP_NOT_BOUND))
    protos = dict(N.PROTOTYPES)
    protos["hayanagi_engine_perft"] = (ctypes.c_int32, [protos["hayanagi_engine_perft"][1][0], ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint32)])
    assert any("hayanagi_engine_perft" in p for p in check_python(header, protos, PYTHON_NOT_BOUND))
    del protos["hayanagi_engine_perft"]
    assert any("not bound" in p for p in check_python(header, protos, PYTHON_NOT_BOUND))
