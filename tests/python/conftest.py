"""pytest setup for the Python binding: import the package from bindings/python and use the
library of HAYANAGI_LIB or target/release (scripts/test-bindings.sh builds it)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings" / "python"))

import hayanagi  # noqa: E402

STARTPOS_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
AFTER_7G7F = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
# White to move and checkmated.
MATED = "sfen 1p2kg1n1/s+N1+P1s2l/5l2b/pB3pPP1/lP3N3/2NpSg1RL/+pS1P2+p2/3G5/4KG3 w R4P3p 116"
MATE1 = "sfen 4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1"
NOMATE = "sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1"
MATE3 = "sfen ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42"


@pytest.fixture
def engine() -> Iterator[hayanagi.Engine]:
    e = hayanagi.Engine(hash_mib=8)
    try:
        yield e
    finally:
        e.close()


def legal_moves_of(position: str) -> list:
    with hayanagi.Position(position) as p:
        return p.legal_moves()
