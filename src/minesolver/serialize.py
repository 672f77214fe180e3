"""The JSON shapes: one per thing, the same from the command line and the web app.

* a **position**: ``{"width", "height", "mines", "rows"}``, ``rows`` being the
  ``.mine`` text rows (``H`` covered, ``F`` flag, ``0``-``8`` numbers);
* an **analysis**: ``prob`` (rows of mine probabilities), ``safe`` and ``mine``
  (``[row, col]`` lists: certainly safe covered cells; certain mines, flags
  included, matching ``prob`` = 1), ``solutions`` (a decimal string: it can have
  thousands of digits), ``fronts`` and ``seconds``;
* a **move**: ``{"cell", "action", "reason", "probability", "win_chance", "text"}``;
* **advice** on a position: ``best``'s move, why, and its exact figures, beside the
  per-cell ``zero`` chances, the ``dead`` cells and the 50/50 ``pairs``
  (:func:`advice_json`);
* a **review** of a played game: the board, its figures and one entry per click
  (:func:`review_json`);
* a **step** of a played game: ``{"index", "position", "moves", "opened"}`` (plus
  ``"analysis"`` where it is wanted);
* a **record** of a finished game: its rules, seed, outcome and figures;
* a Minesweeper Flags game and **turn**.

Coordinates are ``[row, col]`` everywhere.

>>> from minesolver.position import Position
>>> position_json(Position.from_text("2x1x1\\n1H\\n"))
{'width': 2, 'height': 1, 'mines': 1, 'rows': ['1H']}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypedDict

from .advice import Advice
from .analysis import Analysis
from .play import GameRecord, Step
from .position import Position
from .review import ClickReview, Review
from .strategies import Move
from .survey import Survey
from .variants.flags import FlagsGame, FlagsTurn

__all__ = [
    "AdviceJson",
    "AnalysisJson",
    "MoveJson",
    "PositionJson",
    "advice_json",
    "analysis_json",
    "cells_json",
    "decimal",
    "flags_game_json",
    "move_json",
    "position_json",
    "record_json",
    "review_json",
    "step_json",
    "turn_json",
]

_CHUNK_DIGITS = 2000
_CHUNK_BASE = 10**_CHUNK_DIGITS


class PositionJson(TypedDict):
    width: int
    height: int
    mines: int
    rows: list[str]


class FrontJson(TypedDict):
    cells: list[list[int]]
    clues: list[list[int]]
    boxes: int
    min_mines: int
    max_mines: int


class AnalysisJson(TypedDict):
    prob: list[list[float]]
    safe: list[list[int]]
    mine: list[list[int]]
    solutions: str | None
    solutions_log10: float
    fronts: list[FrontJson]
    seconds: float


class MoveJson(TypedDict):
    cell: list[int]
    action: str
    reason: str
    probability: float | None
    win_chance: float | None
    text: str


MAX_EXACT_DIGITS = 250_000  # about a 1000x1000 board's count: 2 s to multiply out


def solutions_text(analysis: Analysis) -> str | None:
    """The exact number of layouts, written out; ``None`` past :data:`MAX_EXACT_DIGITS`
    digits, where multiplying it out alone takes longer than the analysis (30 s for
    the 870,000 digits of a 2000x2000 board): :attr:`Analysis.solutions_log10` tells
    its size, and the library still gives it whole (:attr:`Analysis.solutions`).

    >>> from minesolver.analysis import analyze
    >>> solutions_text(analyze(Position.from_text("3x3x2\\nHHH\\n2H2\\nHHH\\n")))
    '3'
    >>> solutions_text(analyze(Position.covered(2000, 2000, 800_000))) is None
    True
    """
    if analysis.solutions_log10 >= MAX_EXACT_DIGITS:  # its size, from floats: no 10**250000
        return None
    return decimal(analysis.solutions)


def decimal(n: int) -> str:
    """``str(n)`` for any size: layout counts can exceed Python's 4300-digit default.

    Big numbers are written in chunks of 2000 digits, so no caller has to lift
    the interpreter's limit.

    >>> decimal(10**5000) == "1" + "0" * 5000
    True
    """
    if n < _CHUNK_BASE**2:
        return str(n)
    high, low = divmod(n, _CHUNK_BASE)
    return decimal(high) + str(low).zfill(_CHUNK_DIGITS)


def cells_json(cells: Iterable[tuple[int, int]]) -> list[list[int]]:
    """``[(r, c), ...]`` as ``[[r, c], ...]``."""
    return [[r, c] for r, c in cells]


def position_json(position: Position) -> PositionJson:
    """A position."""
    return {
        "width": position.width,
        "height": position.height,
        "mines": position.mines,
        "rows": position.to_text().splitlines()[1:],
    }


def analysis_json(analysis: Analysis, *, digits: int | None = None) -> AnalysisJson:
    """An analysis (its position is served beside it); ``digits`` rounds ``prob``
    (the web app sends 5: enough for a tooltip, small for 200x200 boards).

    >>> from minesolver.analysis import analyze
    >>> a = analysis_json(analyze(Position.from_text("3x1x1\\n1HH\\n")))
    >>> a["prob"], a["safe"], a["mine"], a["solutions"]
    ([[0.0, 1.0, 0.0]], [[0, 2]], [[0, 1]], '1')
    """
    prob = analysis.prob if digits is None else analysis.prob.round(digits)
    return {
        "prob": prob.tolist(),
        "safe": cells_json(analysis.safe),
        "mine": cells_json(analysis.mines),
        "solutions": solutions_text(analysis),
        "solutions_log10": round(analysis.solutions_log10, 6),
        "fronts": [
            {
                "cells": cells_json(front.cells),
                "clues": cells_json(front.clues),
                "boxes": front.boxes,
                "min_mines": front.min_mines,
                "max_mines": front.max_mines,
            }
            for front in analysis.fronts
        ],
        "seconds": round(analysis.seconds, 6),
    }


class AdviceJson(TypedDict):
    cell: list[int]
    reason: str
    probability: float
    safety: float
    win_chance: float | None
    survive_two: float
    zero: float
    progress: float
    shows: dict[str, float]
    dead: bool
    pair: list[int] | None
    group: list[list[int]]
    safe_cells: int
    text: str


def advice_json(
    advice: Advice | None, survey: Survey | None = None, *, digits: int | None = None
) -> dict[str, Any]:
    """``{"advice": ..., "zero", "dead", "pairs", "skipped"}``: ``best``'s move and its
    exact figures (``null`` when nothing is left to open) and, with ``survey``, the
    per-cell figures (``zero``: rows of chances of a zero; ``skipped``: why they were
    not computed, else ``null``); ``digits`` rounds the zero chances.

    >>> from minesolver.advice import advise
    >>> from minesolver.survey import survey
    >>> p = Position.from_text("3x1x1\\n1HH\\n")
    >>> data = advice_json(advise(p), survey(p))
    >>> data["advice"]["cell"], data["advice"]["reason"], data["zero"], data["pairs"]
    ([0, 2], 'deduction', [[0.0, 0.0, 0.0]], [])
    """
    data: dict[str, Any] = {"advice": None if advice is None else _advice(advice)}
    if survey is not None:
        zero = [[float(x) for x in row] for row in survey.zero]
        if digits is not None:
            zero = [[round(x, digits) for x in row] for row in zero]
        data.update(
            zero=None if survey.skipped else zero,
            dead=cells_json(survey.dead),
            pairs=[cells_json(pair) for pair in survey.pairs],
            skipped=survey.skipped,
        )
    return data


def _advice(advice: Advice) -> AdviceJson:
    look = advice.outlook
    return {
        "cell": list(advice.cell),
        "reason": advice.reason,
        "probability": float(advice.probability),
        "safety": float(look.safety),
        "win_chance": advice.win_chance,
        "survive_two": float(look.survive_two),
        "zero": float(look.zero),
        "progress": float(look.progress),
        "shows": {str(v): float(p) for v, p in look.shows.items()},
        "dead": look.dead,
        "pair": None if advice.pair is None else list(advice.pair),
        "group": [list(cell) for cell in advice.group],
        "safe_cells": advice.safe_cells,
        "text": advice.text,
    }


def review_json(review: Review, *, positions: bool = False) -> dict[str, Any]:
    """A reviewed game: the board (``mines``), its figures, and ``clicks``, one entry per
    ``open`` or ``chord`` (with ``positions``, each with the ``position`` rows the player
    saw before it, for stepping through the game).  ``reader`` holds the replay
    reader's own figures (ms-toollib's), for comparison.

    >>> from minesolver.minefield import Layout
    >>> from minesolver.replay import Click, ClickCounts, Replay
    >>> from minesolver.review import review_game
    >>> replay = Replay(Layout(3, 1, (2,)), (Click("open", (0, 0)),), 2.0,
    ...                 ClickCounts(1, 0, 0, 1), "log")
    >>> data = review_json(review_game(replay))
    >>> data["mines"], data["bbbv"], data["seconds"], data["won"], len(data["clicks"])
    ([[0, 2]], 1, 2.0, True, 1)
    """
    replay = review.replay
    layout = replay.layout
    stats = review.stats
    counts = replay.counts
    guesses = review.guesses
    return {
        "file": replay.name,
        "format": replay.source,
        "player": replay.player,
        "software": replay.software,
        "width": layout.width,
        "height": layout.height,
        "mine_count": len(layout.mines),
        "mines": cells_json(layout.mine_cells()),
        "won": review.won,
        "outcome": review.outcome,
        "seconds": replay.seconds,
        "time_note": review.time_note,
        "bbbv": stats.bbbv,
        "bbbv_solved": review.bbbv_solved,
        "bbbv_per_second": review.bbbv_per_second,
        "openings": stats.openings,
        "islands": stats.islands,
        "zini": stats.zini,
        "hzini": stats.hzini,
        "numbers": list(stats.numbers),
        "click_counts": {
            "left": counts.left, "right": counts.right, "chords": counts.chords,
            "total": counts.total, "effective": counts.effective,
        },
        "ioe": review.ioe,
        "efficiency": None if review.ioe is None else 100 * review.ioe,
        "correctness": review.correctness,
        "throughput": review.throughput,
        "guesses": len(guesses),
        "needless_guesses": sum(1 for c in guesses if c.needless),
        "survival": float(review.survival),
        "reader": replay.reader or None,
        "clicks": [_click_json(c, positions) for c in review.clicks],
    }


def _click_json(click: ClickReview, position: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "index": click.index,
        "kind": click.kind,
        "cell": list(click.cell),
        "time": click.time,
        "first": click.first,
        "probability": None if click.probability is None else float(click.probability),
        "guess": click.guess,
        "needless": click.needless,
        "safe_cells": click.safe_cells,
        "safest": None if click.safest is None else float(click.safest),
        "safest_cells": cells_json(click.safest_cells),
        "advice": None if click.advice is None else _advice(click.advice),
        "best_win": click.best_win,
        "win": click.win,
        "given_up": click.given_up,
        "opened": click.opened,
        "exploded": click.exploded,
        "text": click.text,
    }
    if position:
        data["position"] = position_json(click.seen)["rows"]
    return data


def move_json(move: Move) -> MoveJson:
    """A strategy's move, with its reason and the line people read.

    >>> move_json(Move((2, 3), reason="guess", probability=0.25))["text"]
    'open (2, 3): guess at 25.0% mine risk'
    """
    return {
        "cell": list(move.cell),
        "action": move.action,
        "reason": move.reason,
        "probability": move.probability,
        "win_chance": move.win_chance,
        "text": move.describe(),
    }


def step_json(step: Step, analysis: Analysis | None = None, **extra: Any) -> dict[str, Any]:
    """One step of a played game: the position seen, the moves, the cells opened
    (and the analysis behind the moves, when given)."""
    data: dict[str, Any] = {
        "index": step.index,
        "position": position_json(step.position),
        "moves": [move_json(m) for m in step.moves],
        "opened": cells_json(step.opened),
        "analysis": None if analysis is None else analysis_json(analysis, digits=5),
    }
    data.update(extra)
    return data


def record_json(record: GameRecord) -> dict[str, Any]:
    """A finished game: what was played, how it ended, its figures."""
    rules = record.rules
    return {
        "rules": str(rules),
        "first_click": rules.first_click,
        "noise": rules.noise_text,
        "no_guess": rules.no_guess,
        "strategy": record.strategy,
        "seed": record.seed,
        "start": list(record.start),
        "won": record.won,
        "exploded": list(record.exploded) if record.exploded else None,
        "clicks": record.clicks,
        "guesses": record.guesses,
        "bbbv": record.bbbv,
        "seconds": record.seconds,
        "opened": record.opened,
        "safe_cells": record.safe_cells,
        "engine_limits": record.engine_limits,
    }


# ---------------------------------------------------------------------- Flags
def turn_json(turn: FlagsTurn, *, opened: bool = True) -> dict[str, Any]:
    """One Flags turn: who played it, the move and its reason, the mines claimed (and
    the cells opened, unless ``opened`` is false).

    >>> from minesolver.minefield import Layout
    >>> turn = FlagsGame.from_layout(Layout(3, 1, (0,))).open(0, 2)
    >>> data = turn_json(turn)
    >>> data["player"], data["text"], data["claimed"], data["opened"]
    (0, 'open (0, 2)', [], [[0, 2], [0, 1]])
    """
    move = turn.move
    data: dict[str, Any] = {
        "player": turn.player,
        "cell": list(move.cell),
        "kind": move.kind,
        "move": move.text(),
        "reason": move.reason,
        "probability": move.probability,
        "text": move.describe(),
        "claimed": cells_json(turn.claimed),
    }
    if opened:
        data["opened"] = cells_json(turn.opened)
    return data


def flags_game_json(game: FlagsGame) -> dict[str, Any]:
    """A Flags game as both players may see it: unclaimed mines only once it is over.

    ``board`` holds ``.mine`` rows (``H`` covered, ``F`` claimed, digits);
    ``claimed[s]`` the cells seat ``s`` claimed; ``mine_cells`` every mine, only
    when the game is over; ``last_move`` the last turn.

    >>> from minesolver.minefield import Layout
    >>> state = flags_game_json(FlagsGame.from_layout(Layout(2, 1, (1,))))
    >>> state["board"], state["turn"], state["mine_cells"]
    (['HH'], 0, None)
    """
    rules = game.rules
    last = game.history[-1] if game.history else None
    return {
        "rules": str(rules),
        "width": rules.width,
        "height": rules.height,
        "mines": rules.mines,
        "to_win": rules.mines // 2 + 1,
        "board": game.position().to_text().splitlines()[1:],
        "claimed": [cells_json(game.claimed(0)), cells_json(game.claimed(1))],
        "scores": list(game.scores),
        "mines_left": game.mines_left,
        "bombs_used": list(game.bombs_used),
        "can_bomb": [game.can_bomb(0), game.can_bomb(1)],
        "first": game.first,
        "turn": game.turn,
        "over": game.is_over,
        "winner": game.winner,
        "draw": game.is_draw,
        "last_move": None if last is None else turn_json(last),
        "mine_cells": cells_json(game.layout.mine_cells()) if game.is_over else None,
    }
