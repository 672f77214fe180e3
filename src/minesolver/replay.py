"""Played games read back: the community's replay files and minesolver's own play logs.

A :class:`Replay` is the board (a :class:`~minesolver.minefield.Layout`) and every click
that changed it, in order: ``open``, ``chord``, ``flag`` and ``unflag``, each with its
cell and, in replay files, its time.  :mod:`minesolver.review` replays them.

* **Replay files** (``.avf`` Minesweeper Arbiter, ``.rmv`` Viennasweeper, ``.evf``
  Metasweeper, ``.mvf`` Minesweeper Clone) are read with
  `ms-toollib <https://pypi.org/project/ms-toollib/>`_ (MIT), an optional extra:
  ``pip install 'minesolver[replays]'``.  Its reader runs in a child process of its
  own: on a damaged file it can abort the whole process, which must not take
  minesolver with it.  Its replay of the mouse events gives the clicks that changed
  the board (and the counts of every click, useful or not); the review replays
  those clicks on minesolver's own game and checks, click by click, that the same
  number of cells is open.
* **Play logs** are what ``minesolver play --log`` writes: one step per line
  (:func:`minesolver.serialize.step_json`) and a last line
  ``{"result": ..., "mines": [[row, col], ...]}``.  Logs written before the mines
  were added can still be read when the game was won (its mines are the cells
  never opened).

>>> log = '{"index": 0, "position": {"width": 3, "height": 1, "mines": 1, "rows": ["HHH"]}, '
>>> log += '"moves": [{"cell": [0, 0], "action": "reveal"}], "opened": [[0, 0], [0, 1]]}\\n'
>>> log += '{"result": {"rules": "3x1x1", "won": true, "seconds": 0.01}, "mines": [[0, 2]]}\\n'
>>> replay = read_replay_bytes(log.encode(), "game.jsonl")
>>> replay.layout.mines, [(c.kind, c.cell) for c in replay.clicks], replay.seconds
((2,), [('open', (0, 0))], 0.01)
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .errors import InputError, printable, quote
from .files import read_capped
from .formats import read_json
from .game import Game
from .minefield import Layout
from .rules import FIRST_CLICK_RULES

__all__ = [
    "REPLAY_FORMATS",
    "Click",
    "ClickCounts",
    "Replay",
    "ReplayError",
    "describe",
    "read_replay",
    "read_replay_bytes",
]

REPLAY_FORMATS = ("avf", "rmv", "evf", "mvf")
INSTALL = "pip install 'minesolver[replays]' (or: pip install ms-toollib)"
MAX_BYTES = 16 << 20  # a replay of a 60x36 marathon is a few hundred KB
READER_SECONDS = 60.0
# what ms-toollib's bare error names mean, for people
READER_SAYS = {
    "Utf8Error": " (a name in the file is not UTF-8 text, which the reader requires)",
    "FileIsTooShort": " (the file ends early)",
}
# versions of a format ms-toollib does not read (it panics, or reads an empty board)
NOT_READ = {"mvf": "; Minesweeper Clone 0.96, 2006 and 2007 files are not read"}

ClickKind = Literal["open", "chord", "flag", "unflag"]


class ReplayError(InputError):
    """A replay or log that cannot be read, or a reader that is not installed."""


@dataclass(frozen=True)
class Click:
    """One click that changed the board: what it did, where, and when (seconds from
    the first click; ``None`` in play logs, which keep no clock)."""

    kind: ClickKind
    cell: tuple[int, int]
    time: float | None = None
    opened: int | None = None  # cells open after it, as the file's own replay says


@dataclass(frozen=True)
class ClickCounts:
    """Every click as the player made them, useful or not: ``left`` clicks, ``right``
    clicks, ``chords``; ``effective`` those that changed the board."""

    left: int
    right: int
    chords: int
    effective: int

    @property
    def total(self) -> int:
        """All clicks."""
        return self.left + self.right + self.chords


@dataclass(frozen=True)
class Replay:
    """A played game: the board, the clicks that changed it, the time it took."""

    layout: Layout
    clicks: tuple[Click, ...]
    seconds: float
    counts: ClickCounts
    source: str  # "avf", "rmv", "evf", "mvf" or "log"
    name: str = ""
    player: str | None = None
    software: str | None = None
    # the reader's own figures (ms-toollib's, for replay files), shown for comparison
    reader: dict[str, Any] = field(default_factory=dict, repr=False)


def read_replay(path: str | Path) -> Replay:
    """Read a replay file (by its extension) or a play log (JSON lines)."""
    path = Path(path)
    if path.is_dir():
        raise ReplayError(f"{path} is a folder, not a replay or log file")
    return read_replay_bytes(read_capped(path, MAX_BYTES, "a replay", ReplayError), path.name)


def read_replay_bytes(data: bytes, name: str, *, max_side: int | None = None) -> Replay:
    """Read a replay or log given as bytes; ``name`` (a file name) says which format.
    A board wider or taller than ``max_side`` is refused before any of it is built (a
    log of a few bytes can name a board of millions of cells)."""
    kind = Path(name).suffix.lower().lstrip(".")
    if kind in REPLAY_FORMATS:
        return _from_video(_read_video(kind, data, name), kind, name, max_side)
    if data.lstrip()[:1] == b"{":
        return _read_log(data, name, max_side)
    formats = ", ".join(f".{k}" for k in REPLAY_FORMATS)
    raise ReplayError(
        f"{name}: not a replay this reads: expected {formats} or a minesolver play log "
        "(JSON lines)"
    )


# ---------------------------------------------------------------------- replay files
def _read_video(kind: str, data: bytes, name: str) -> dict[str, Any]:
    """ms-toollib's reading of a replay, in a child process (it may abort on bad input).

    The child is :mod:`minesolver._replay_child`, a script that needs ms-toollib and
    the standard library only; it gets the bytes on stdin and answers JSON.
    """
    if importlib.util.find_spec("ms_toollib") is None:
        raise ReplayError(f"reading .{kind} replays needs ms-toollib: {INSTALL}")
    if not data:
        raise ReplayError(f"{name}: the file is empty")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    # a Rust panic writes crash.log into the working folder: keep it out of the user's
    with tempfile.TemporaryDirectory(prefix="minesolver-replay-") as folder:
        try:
            done = subprocess.run(
                [sys.executable, str(Path(__file__).with_name("_replay_child.py")), kind],
                input=data, capture_output=True, cwd=folder, env=env,
                timeout=READER_SECONDS, check=False,
            )
        except subprocess.TimeoutExpired:
            raise ReplayError(
                f"{name}: not a readable .{kind} replay: its reader took longer than "
                f"{READER_SECONDS:g} s"
            ) from None
        crash = Path(folder, "crash.log")
        panic = crash.read_text(errors="replace") if crash.exists() else ""
    try:
        status, payload = json.loads(done.stdout)
    except ValueError:
        said = next(  # "message: called `Result::unwrap()` on an `Err` value: FileIsTooShort"
            (line.split(":", 1)[1].rsplit("value: ", 1)[-1].strip()
             for line in panic.splitlines() if line.startswith("message:")),
            f"exit status {done.returncode}",
        )
        said = " ".join(said.split())[:120]
        raise ReplayError(
            f"{name}: not a readable .{kind} replay (damaged, cut short, or a version of "
            f"the format its reader does not know{NOT_READ.get(kind, '')}): its reader gave up: "
            f"{said}{READER_SAYS.get(said, '')}"
        ) from None
    if status != "ok":
        raise ReplayError(f"{name}: not a readable .{kind} replay: {payload}")
    result: dict[str, Any] = payload
    return result


COVERED_CELL, FLAGGED_CELL = 10, 11  # ms-toollib's codes of what the player sees


def _check_side(name: str, width: int, height: int, max_side: int | None) -> None:
    if max_side is not None and max(width, height) > max_side:
        raise ReplayError(f"{name}: board {width}x{height} is larger than allowed here: "
                          f"at most {max_side}x{max_side}")


def _from_video(raw: dict[str, Any], kind: str, name: str, max_side: int | None) -> Replay:
    board = raw["board"]
    if not board or not board[0]:
        raise ReplayError(f"{name}: the replay holds no board{NOT_READ.get(kind, '')}")
    height, width = len(board), len(board[0])
    _check_side(name, width, height, max_side)
    mines = [(r, c) for r in range(height) for c in range(width) if board[r][c] == -1]
    if len(mines) != raw["mines"]:
        raise ReplayError(
            f"{name}: the replay says {raw['mines']} mines but its board holds {len(mines)}"
        )
    clicks = []
    for time, level, before, row, col, opened in raw["clicks"]:
        kind_of: ClickKind
        if level == 1:
            if before not in (COVERED_CELL, FLAGGED_CELL):
                continue  # a question mark or the like: no flag changed
            kind_of = "flag" if before == COVERED_CELL else "unflag"
        elif level == 2:
            kind_of = "open"
        elif level == 3:
            kind_of = "chord"
        else:  # 4: the click that hit a mine, on a covered cell or a chord on a number
            kind_of = "open" if before in (COVERED_CELL, 12) else "chord"
        # the reader's sums of float steps (7.369999999999999): no file keeps more than µs
        clicks.append(Click(kind_of, (row, col), round(time, 6), opened))
    left, right, chords, effective = raw["counts"]
    return Replay(
        layout=Layout.from_cells(width, height, mines),
        clicks=tuple(clicks),
        seconds=round(raw["seconds"], 6),
        counts=ClickCounts(left, right, chords, effective),
        source=kind,
        name=name,
        player=raw["player"],
        software=raw["software"],
        reader=raw["reader"],
    )


# ---------------------------------------------------------------------- play logs
def _read_log(data: bytes, name: str, max_side: int | None) -> Replay:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    steps: list[dict[str, Any]] = []
    end: dict[str, Any] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = read_json(line)
        except ValueError as exc:
            raise ReplayError(f"{name}: line {number} is not JSON: {exc}") from None
        if not isinstance(item, dict):
            raise ReplayError(f"{name}: line {number} is not a JSON object")
        if end is not None:
            raise ReplayError(f"{name}: line {number} comes after the game's result")
        if "result" in item:
            end = item
        else:
            steps.append(item)
    if end is None:
        raise ReplayError(f"{name}: the log has no result line: it is cut short")
    if not steps:
        raise ReplayError(f"{name}: the log has no steps")
    try:
        return _log_replay(steps, end, name, max_side)
    except _Bad as exc:
        raise ReplayError(f"{name}: not a minesolver play log: {exc}") from None
    except InputError as exc:  # the board or a move the game refuses
        if isinstance(exc, ReplayError):
            raise
        raise ReplayError(f"{name}: {exc}") from None


class _Bad(Exception):
    """A field of a play log that is not what ``minesolver play --log`` writes."""


def _get(record: Any, key: str, where: str) -> Any:
    if not isinstance(record, dict):
        raise _Bad(f"{where} must be an object, got {quote(record)}")
    if key not in record:
        raise _Bad(f"{where} has no {key!r}")
    return record[key]


def _int(value: Any, what: str, low: int, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Bad(f"{what} must be an integer, got {quote(value)}")
    if value < low or (high is not None and value > high):
        raise _Bad(f"{what} {value} is off the board" if high is not None
                   else f"{what} must be at least {low}, got {value}")
    return value


def _cells(value: Any, what: str, width: int, height: int) -> list[tuple[int, int]]:
    """A list of ``[row, col]`` cells on the board."""
    if not isinstance(value, list):
        raise _Bad(f"{what} must be a list of [row, col], got {quote(value)}")
    out = []
    for item in value:
        if not isinstance(item, list) or len(item) != 2:
            raise _Bad(f"{what}: a cell must be [row, col], got {quote(item)}")
        out.append((_int(item[0], f"{what}: row", 0, height - 1),
                    _int(item[1], f"{what}: column", 0, width - 1)))
    return out


def _check_result(result: Any, width: int, height: int, total: int) -> float:
    """The game's time in seconds, once the result says nothing the board denies."""
    seconds = _get(result, "seconds", "the result")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
            or not 0 <= seconds < float("inf"):
        raise _Bad(f"the result's seconds must be a time of at least 0, got {quote(seconds)}")
    rules = result.get("rules")
    if rules is not None and rules != f"{width}x{height}x{total}":
        raise _Bad(f"the result's rules {quote(rules)} are not its board's "
                   f"{width}x{height}x{total}")
    if result.get("first_click", "safe") not in FIRST_CLICK_RULES:
        raise _Bad(f"the result's first_click {quote(result['first_click'])} is not one of "
                   f"{', '.join(FIRST_CLICK_RULES)}")
    if result.get("start") is not None:
        _cells([result["start"]], "the result's start", width, height)
    if not isinstance(result.get("won", False), bool):
        raise _Bad(f"the result's won must be true or false, got {quote(result['won'])}")
    return float(seconds)


def _log_replay(
    steps: list[dict[str, Any]], end: dict[str, Any], name: str, max_side: int | None
) -> Replay:
    board = _get(steps[0], "position", "step 0")
    width = _int(_get(board, "width", "the position"), "the board's width", 1)
    height = _int(_get(board, "height", "the position"), "the board's height", 1)
    _check_side(name, width, height, max_side)
    total = _int(_get(board, "mines", "the position"), "the board's mine count", 0)
    result = _get(end, "result", "the result line")
    seconds = _check_result(result, width, height, total)
    noise = result.get("noise")
    if noise not in (None, "none"):
        raise ReplayError(f"{name}: a game with noisy clues ({quote(noise)}): review judges "
                          "games whose numbers are exact")
    if "mines" in end:
        mines = _cells(end["mines"], "the mines", width, height)
    elif result.get("won"):  # an older log: a won game's mines are the cells never opened
        ever = {cell for k, step in enumerate(steps)
                for cell in _cells(_get(step, "opened", f"step {k}"), f"step {k}'s opened",
                                   width, height)}
        mines = [(r, c) for r in range(height) for c in range(width) if (r, c) not in ever]
    else:
        raise ReplayError(
            f"{name}: the log does not say where the mines were (written by an older "
            "minesolver?): only won games can be reviewed from it"
        )
    if len(mines) != total:
        raise ReplayError(f"{name}: the log names {len(mines)} mines but its board has {total}")
    layout = Layout.from_cells(width, height, mines)
    # play the moves again: a strategy's list of safe cells holds cells an earlier one
    # already flooded open; those are no clicks.  Each step must open what it says.
    game = Game.from_layout(layout)
    clicks: list[Click] = []
    for k, step in enumerate(steps):
        opened: set[tuple[int, int]] = set()
        moves = _get(step, "moves", f"step {k}")
        if not isinstance(moves, list):
            raise _Bad(f"step {k}'s moves must be a list, got {quote(moves)}")
        for move in moves:
            if game.is_over:
                break
            ((row, col),) = _cells([_get(move, "cell", f"a move of step {k}")],
                                   f"step {k}'s move", width, height)
            action = move.get("action", "reveal")
            if action not in ("reveal", "flag"):
                raise _Bad(f"step {k}'s move action must be reveal or flag, got {quote(action)}")
            if action == "flag":
                if game.flag(row, col):
                    clicks.append(Click("flag", (row, col)))
                continue
            got = game.reveal(row, col)
            if got:
                opened.update(got)
                clicks.append(Click("open", (row, col)))
        said = set(_cells(_get(step, "opened", f"step {k}"), f"step {k}'s opened", width, height))
        if said != opened:
            raise ReplayError(
                f"{name}: step {k} says it opened {len(said)} cells but its "
                f"moves open {len(opened)} on the board the log names: the log is damaged"
            )
    if "won" in result and result["won"] != game.is_won:
        claim = "won but its moves do not win it" if result["won"] else "lost but its moves win it"
        raise ReplayError(f"{name}: the result says the game was {claim}: the log is damaged")
    opens = sum(1 for c in clicks if c.kind == "open")
    return Replay(
        layout=layout,
        clicks=tuple(clicks),
        seconds=seconds,
        counts=ClickCounts(left=opens, right=len(clicks) - opens, chords=0, effective=len(clicks)),
        source="log",
        name=name,
        player=str(result["strategy"]) if result.get("strategy") else None,
        software="minesolver",
    )


def describe(replay: Replay) -> str:
    """One line naming the game: file, board, player."""
    layout = replay.layout
    who = f" by {quote(replay.player)}" if replay.player else ""
    return (
        f"{printable(replay.name)}: {layout.width}x{layout.height}, {len(layout.mines)} mines, "
        f"{replay.source}{who}"
    )
