#!/usr/bin/env python3
"""The C# snippets of README.md and bindings/csharp/README.md compile as shown and run.

Each snippet is the first ```csharp block after its marker, taken verbatim: its leading
`using X;` directives go to the top of a file, the rest becomes the body of Main, with the
console output captured. Compiled with mcs together with bindings/csharp/Hayanagi.cs
(warnings are errors) and run with mono, next to the library. The run must print every info
line the engine's info callback had (none lost: the snippet drains up to the best move), each
before the one best move, which comes last; no line of another search (none stale).

    python3 tests/csharp/readme_snippets.py OUT_DIR    (OUT_DIR holds libhayanagi.so)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNIPPETS = [
    ("readme_top", ROOT / "README.md", "## C# (Mono/Unity)"),
    ("readme_csharp", ROOT / "bindings" / "csharp" / "README.md", "# hayanagi for C#"),
]

WRAPPER = """{usings}
static class ReadmeSnippet
{{
    static int Main()
    {{
        var stdout = System.Console.Out;
        var captured = new System.IO.StringWriter();
        System.Console.SetOut(captured);
        long before = System.Threading.Interlocked.Read(ref Hayanagi.Engine.InfoCallbacksTotal);
        {{
// ----- the snippet, as shown -----
{body}
// ----- end of the snippet -----
        }}
        long infos = System.Threading.Interlocked.Read(ref Hayanagi.Engine.InfoCallbacksTotal) - before;
        System.Console.SetOut(stdout);
        string text = captured.ToString();
        System.Console.Write(text);
        System.Console.WriteLine("INFO_CALLBACKS " + infos);
        return 0;
    }}
}}
"""


def extract(path: Path, marker: str) -> str:
    text = path.read_text(encoding="utf-8")
    at = text.index(marker)
    m = re.compile(r"```csharp\n(.*?)```", re.S).search(text, at)
    assert m, f"no ```csharp block after {marker!r} in {path}"
    return m.group(1)


def wrap(snippet: str) -> str:
    lines = snippet.splitlines()
    usings = []
    while lines and (re.match(r"using [\w.]+;\s*$", lines[0]) or not lines[0].strip()):
        usings.append(lines.pop(0))
    return WRAPPER.format(usings="\n".join(usings), body="\n".join(lines))


def check_output(name: str, out: str) -> list:
    lines = out.splitlines()
    problems = []
    tail = lines.pop() if lines else ""
    m = re.match(r"INFO_CALLBACKS (\d+)$", tail)
    if not m:
        return [f"{name}: no INFO_CALLBACKS line"]
    callbacks = int(m.group(1))
    infos = [l for l in lines if l.startswith("info ")]
    bests = [i for i, l in enumerate(lines) if l.startswith("bestmove ")]
    if callbacks == 0:
        problems.append(f"{name}: the search reported no info line")
    if len(infos) != callbacks:
        problems.append(f"{name}: printed {len(infos)} info lines, the info callback had {callbacks} (lost events)")
    if len(bests) != 1 or bests[0] != len(lines) - 1:
        problems.append(f"{name}: expected exactly one best move, last; got lines {bests} of {len(lines)}")
    others = [l for l in lines if not l.startswith(("info ", "bestmove "))]
    if others:
        problems.append(f"{name}: unexpected lines {others[:3]}")
    depths = [int(re.search(r"depth (\d+)", l).group(1)) for l in infos]
    if depths != sorted(depths):
        problems.append(f"{name}: info depths out of order (a stale search?) {depths}")
    return problems


def main() -> int:
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "target" / "bindings" / "csharp")
    assert (out_dir / "libhayanagi.so").exists(), f"{out_dir}/libhayanagi.so missing"
    problems = []
    for name, path, marker in SNIPPETS:
        src = out_dir / f"{name}.cs"
        exe = out_dir / f"{name}.exe"
        src.write_text(wrap(extract(path, marker)), encoding="utf-8")
        subprocess.run(
            ["mcs", "-nologo", "-warn:4", "-warnaserror", f"-out:{exe}",
             str(ROOT / "bindings" / "csharp" / "Hayanagi.cs"), str(src)],
            check=True,
        )
        run = subprocess.run(["mono", "--debug", str(exe)], capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            problems.append(f"{name}: exit {run.returncode}: {run.stderr[-2000:]}")
            continue
        p = check_output(name, run.stdout)
        problems += p
        lines = run.stdout.splitlines()
        print(f"{name}: {len(lines) - 1} lines, last {lines[-2] if len(lines) > 1 else ''!r}; {'ok' if not p else 'FAILED'}")
    for p in problems:
        print("FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
