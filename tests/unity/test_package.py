#!/usr/bin/env python3
"""The Unity package layout (bindings/unity): its JSON files parse and carry the fields Unity
reads, Runtime/Hayanagi.cs is the binding, every plugin folder has its notes, and the README
says what was not run. Nothing here runs Unity or builds for its platforms.

    python3 tests/unity/test_package.py      (also under pytest)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "bindings" / "unity"


def cargo_version() -> str:
    m = re.search(r'^version = "([^"]+)"', (ROOT / "Cargo.toml").read_text(encoding="utf-8"), re.M)
    assert m
    return m.group(1)


def test_package_json() -> None:
    p = json.loads((PKG / "package.json").read_text(encoding="utf-8"))
    # UPM: a lowercase reverse-domain name, at most 214 characters.
    assert re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9-]+){2,}", p["name"]) and len(p["name"]) <= 214, p["name"]
    assert p["version"] == cargo_version(), "package version follows Cargo.toml"
    assert re.fullmatch(r"\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", p["version"])
    assert p["displayName"] and p["description"]
    assert re.fullmatch(r"20\d\d\.\d+", p["unity"]), p["unity"]
    assert isinstance(p["author"], dict) and p["author"]["name"]
    assert p["license"] == "MIT OR Apache-2.0"
    assert all(isinstance(k, str) for k in p.get("keywords", []))


def test_asmdef() -> None:
    path = PKG / "Runtime" / "Hayanagi.Runtime.asmdef"
    a = json.loads(path.read_text(encoding="utf-8"))
    assert a["name"] == path.stem == "Hayanagi.Runtime"
    assert a["rootNamespace"] == "Hayanagi"
    assert a["excludePlatforms"] == ["WebGL"] and a["includePlatforms"] == []
    assert a["allowUnsafeCode"] is False and a["autoReferenced"] is True
    assert a["noEngineReferences"] is False
    for key in ("references", "precompiledReferences", "defineConstraints", "versionDefines"):
        assert a[key] == [], key
    assert a["overrideReferences"] is False


def test_runtime_source_is_the_binding() -> None:
    copy = (PKG / "Runtime" / "Hayanagi.cs").read_bytes()
    source = (ROOT / "bindings" / "csharp" / "Hayanagi.cs").read_bytes()
    assert copy == source, "copy bindings/csharp/Hayanagi.cs to bindings/unity/Runtime/ again"
    cs = sorted(p.name for p in (PKG / "Runtime").glob("*.cs"))
    assert cs == ["Hayanagi.cs"], cs


def test_plugin_folders_have_notes() -> None:
    expect = {
        "x86_64": ("hayanagi.dll", "libhayanagi.so"),
        "macOS": ("libhayanagi.dylib", "quarantine"),
        "Android/arm64-v8a": ("libhayanagi.so", "ARM64"),
        "Android/armeabi-v7a": ("libhayanagi.so", "ARMv7"),
        "iOS": ("libhayanagi.a", "__Internal"),
    }
    for folder, words in expect.items():
        text = (PKG / "Plugins" / folder / "README.md").read_text(encoding="utf-8")
        assert "Import settings" in text, folder
        for w in words:
            assert w in text, (folder, w)


def test_readme_covers_the_platforms_and_says_not_run() -> None:
    text = (PKG / "README.md").read_text(encoding="utf-8")
    assert "None of these steps was run" in text
    for w in ("rustup target add", "x86_64-pc-windows-msvc", "lipo -create", "com.apple.quarantine",
              "max-page-size=16384", "16 KB", "aarch64-apple-ios", "staticlib", "tvOS",
              "Restart the Editor", "WebGL: unsupported", "symlink"):
        assert w in text, w


if __name__ == "__main__":
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_") and callable(f)]
    failed = 0
    for name, f in tests:
        try:
            f()
            print(f"ok   {name}")
        except AssertionError as e:
            failed += 1
            print(f"FAIL {name}: {e}")
    print(f"unity package: {len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
