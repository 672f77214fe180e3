"""``minesolver analyze`` on big boards, this code against another checkout: wall
seconds, CPU seconds and peak RSS of each whole command.

Each board is an N x N board of covered cells at ``--density`` (with ``--shown F``:
that fraction of its safe cells shown at random, seeded by ``--seed``, hundreds of
small fronts; else nothing open); each is analysed as
text without advice, as ``--json`` without advice, and as text with advice (the
default), each with ``--max-seconds`` (a run past it counts as stopped, and its time is
the limit's).  The two versions run one after the other for each case, so they see
about the same machine load.  The library's own analysis of a board with nothing open
takes under a second; the rest is what the command does around it.

    python benchmarks/analyze_big.py --old-src /tmp/wt-old/src --sizes 1000 2000
    python benchmarks/analyze_big.py --old-src /tmp/wt-old/src --sizes 100 --density 0.18 \
        --shown 0.15 --seed 1
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine_bench import scattered_position
from script_args import at_least, script_parser

CASES = {  # name: the options of the case
    "text": ["--no-advice"],
    "json": ["--no-advice", "--json"],
    "advice": [],
}


def run(src: str | None, board: Path, options: list[str], limit: float) -> tuple[str, ...]:
    """(status, wall s, CPU s, peak MB) of one ``minesolver analyze`` process."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    command = [sys.executable, "-m", "minesolver", "analyze", *options, "--max-seconds",
               f"{limit:g}", "--max-memory", "none", str(board)]
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    assert process.stderr is not None
    error = process.stderr.read().strip()
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    said = "ok" if code == 0 else ("stopped" if "longer than" in error else f"exit {code}")
    cpu = usage.ru_utime + usage.ru_stime
    return said, f"{wall:.2f}", f"{cpu:.2f}", f"{usage.ru_maxrss / 1024:.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = script_parser(__doc__)
    parser.add_argument("--old-src", default=None,
                        help="the other checkout's src folder (its PYTHONPATH)")
    parser.add_argument("--sizes", type=at_least(1), nargs="+", default=[1000, 2000],
                        help="the side N of each N x N board")
    parser.add_argument("--density", type=float, default=0.2, help="mines per cell")
    parser.add_argument("--cases", nargs="+", choices=sorted(CASES), default=list(CASES),
                        help="text and json without advice; advice: text with it")
    parser.add_argument("--max-seconds", type=float, default=60.0,
                        help="each command's --max-seconds (analyze's own default)")
    parser.add_argument("--shown", type=float, default=None, metavar="F",
                        help="show this fraction of the safe cells, at random")
    parser.add_argument("--seed", type=at_least(0), default=1,
                        help="the mines and the cells shown, with --shown")
    opts = parser.parse_args(argv)
    if not 0 < opts.density < 1:
        parser.error("--density must be between 0 and 1")
    if opts.shown is not None and not 0 <= opts.shown <= 1:
        parser.error("--shown must be between 0 and 1")
    here = str(Path(__file__).resolve().parents[1] / "src")  # this checkout's code
    versions = [("new", here)] + ([("old", opts.old_src)] if opts.old_src else [])
    print("| board | case | version | result | wall s | CPU s | peak MB |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for size in opts.sizes:
            board = Path(folder) / f"covered_{size}.mine"
            mines = round(size * size * opts.density)
            if opts.shown is None:
                board.write_text(f"{size}x{size}x{mines}\n" + ("H" * size + "\n") * size)
            else:
                shown = scattered_position(opts.seed, opts.shown, size, mines)
                board.write_text(shown.to_text())
            for case in opts.cases:
                for name, src in versions:
                    row = run(src, board, CASES[case], opts.max_seconds)
                    print(f"| {size}x{size}x{mines} | {case} | {name} | " + " | ".join(row)
                          + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
