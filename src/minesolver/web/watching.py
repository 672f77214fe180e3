"""A watched game: a strategy plays it in a child process, step by step.

The game is played in a :mod:`.sandbox` child (a strategy like ``random`` makes
positions the engine may find very hard) which sends each step back as the JSON
the API serves, zlib-compressed (a 200x200 board's probabilities are ~250 kB of
JSON but compress tenfold).  A thread of the server stores them, so the page can
step forward and back through a game while it is still being played.  The last
step is the end of the game: the final position, the outcome and every mine.

>>> from minesolver.rules import BEGINNER
>>> watch = Watch("id", BEGINNER, "tank", seed=3, start=(0, 0), limits=Limits())
>>> watch.run()
>>> watch.status, watch.step(watch.count - 1)["outcome"]
('done', 'won')
"""

from __future__ import annotations

import json
import threading
import zlib
from collections.abc import Callable
from typing import Any, Literal

from PIL import Image

from ..analysis import Analysis, analyze
from ..errors import InconsistentPositionError, MinesolverError
from ..minefield import Layout
from ..play import GameRecord, Step, play_game
from ..position import Position
from ..rules import Rules
from ..serialize import cells_json, position_json, record_json, step_json
from ..show.image import board_image, gif_bytes
from ..strategies import find_strategy
from ..strategies.best import Best
from .sandbox import Limits, stream

__all__ = ["GIF_MAX_CELLS", "Watch", "WatchStatus", "play_watched", "render_gif"]

WatchStatus = Literal["running", "done", "failed", "cancelled"]
GIF_MAX_CELLS = 100 * 100  # bigger boards make GIFs too slow to draw on request


class Watch:
    """One game played by a strategy, recorded step by step.  Mutable.

    The recording thread only appends to ``_steps`` and sets the status and
    result at the end; readers on the event loop only read, so no lock is needed.
    """

    def __init__(
        self,
        id: str,
        rules: Rules,
        strategy: str,
        *,
        seed: int,
        start: tuple[int, int],
        limits: Limits,
    ) -> None:
        self.id = id
        self.rules = rules
        self.strategy = strategy
        self.seed = seed
        self.start = start
        self.limits = limits
        self.status: WatchStatus = "running"
        self.error: str | None = None
        self.result: dict[str, Any] | None = None
        self.cancelled = False
        self._steps: list[bytes] = []
        self.gif: bytes | None = None  # drawn on the first request, then kept

    # ------------------------------------------------------------------ playing
    def start_thread(self) -> None:
        """Play the game in the background."""
        threading.Thread(target=self.run, name=f"watch-{self.id[:6]}", daemon=True).start()

    def run(self) -> None:
        """Play the game to its end in a child process, recording every step."""
        args = (self.rules, self.strategy, self.seed, self.start)
        try:
            for kind, data in stream(
                play_watched, *args, limits=self.limits, cancelled=lambda: self.cancelled
            ):
                self._steps.append(data)
                if kind == "end":
                    self.result = json.loads(zlib.decompress(data))["result"]
        except Exception as exc:  # the thread's end: a failure is reported, never lost
            self.error = str(exc) if isinstance(exc, MinesolverError) else repr(exc)
            self.status = "failed"
            return
        self.status = "cancelled" if self.cancelled else "done"

    # ------------------------------------------------------------------ reading
    @property
    def count(self) -> int:
        """Steps recorded so far (the end of the game counts as one)."""
        return len(self._steps)

    def step(self, index: int) -> dict[str, Any]:
        """Step ``index`` as JSON (raises ``IndexError`` when not recorded)."""
        if not 0 <= index < len(self._steps):
            raise IndexError(index)
        data: dict[str, Any] = json.loads(zlib.decompress(self._steps[index]))
        data["index"] = index
        data.pop("result", None)  # the end step carries it for the summary only
        return data

    def summary(self) -> dict[str, Any]:
        """What the game is and how far it got."""
        return {
            "id": self.id,
            "rules": str(self.rules),
            "width": self.rules.width,
            "height": self.rules.height,
            "mines": self.rules.mines,
            "first_click": self.rules.first_click,
            "strategy": self.strategy,
            "seed": str(self.seed),
            "start": list(self.start),
            "status": self.status,
            "steps": self.count,
            "result": self.result,
            "error": self.error,
        }

    def recorded(self) -> list[bytes]:
        """Every step recorded so far, compressed (for :func:`render_gif`)."""
        return list(self._steps)


# ---------------------------------------------------------------------- in the child
def play_watched(
    emit: Callable[[tuple[str, bytes]], None],
    rules: Rules,
    strategy_name: str,
    seed: int,
    start: tuple[int, int],
) -> None:
    """Play the game, emitting ``("step", json)`` per step and ``("end", json)`` last.

    In the capped sandbox the endgame search runs in Python: ``best`` keeps it to its
    Python range (:data:`~minesolver.strategies.best.PYTHON_ENDGAME`), as advice does,
    so a watched game ends within the sandbox's time."""
    strategy = find_strategy(strategy_name)
    if isinstance(strategy, Best):
        strategy.within_python_range()

    def observe(step: Step) -> None:
        analysis = strategy.last_analysis
        if analysis is None or analysis.position != step.position:
            analysis = _analyze(step.position)
        emit(("step", _pack(_step_json(step, analysis))))

    record = play_game(rules, strategy, seed=seed, start=start, observer=observe)
    emit(("end", _pack(_end_step(record))))


def render_gif(steps: list[bytes]) -> bytes:
    """An animated GIF of recorded steps: a frame each, the last with every mine."""
    frames = [_frame(json.loads(zlib.decompress(data))) for data in steps]
    return gif_bytes(frames, ms_per_frame=400)


def _frame(data: dict[str, Any]) -> Image.Image:
    position = Position.from_text(_text(data["position"]))
    cell = max(4, min(20, 800 // max(position.width, position.height)))
    if data["outcome"] is not None:
        w = position.width
        mines = {r * w + c for r, c in data["mines"]}
        return board_image(position, None, cell=cell, mines=mines, caption=data["outcome"])
    moves = data["moves"]
    caption = "; ".join(m["text"] for m in moves if m["reason"] != "deduction")[:90]
    if not caption and moves:
        caption = f"{len(moves)} safe cells by deduction"
    return board_image(
        position,
        _analyze(position),
        cell=cell,
        highlight={(m["cell"][0], m["cell"][1]) for m in moves},
        caption=caption,
    )


def _pack(data: dict[str, Any]) -> bytes:
    return zlib.compress(json.dumps(data).encode(), 1)


def _analyze(position: Position) -> Analysis | None:
    if position.is_blank():
        return None
    try:
        return analyze(position)
    except InconsistentPositionError:  # cannot happen on a real game; draw it plain
        return None


def _text(position: dict[str, Any]) -> str:
    header = f"{position['width']}x{position['height']}x{position['mines']}\n"
    return header + "".join(row + "\n" for row in position["rows"])


def _step_json(step: Step, analysis: Analysis | None) -> dict[str, Any]:
    return step_json(step, analysis, outcome=None, mines=None, exploded=None)


def _end_step(record: GameRecord) -> dict[str, Any]:
    layout: Layout = record.layout
    final = record.final
    return {
        "index": None,  # set by the reader: the count of steps before it
        "position": position_json(final),
        "moves": [],
        "opened": [],
        "analysis": None,
        "outcome": "won" if record.won else "lost",
        "mines": cells_json(layout.mine_cells()),
        "exploded": list(record.exploded) if record.exploded else None,
        # seeds are strings on the web (they pass 2**53, where JavaScript rounds)
        "result": {**record_json(record), "seed": str(record.seed)},
    }
