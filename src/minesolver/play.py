"""One game: a :class:`~minesolver.game.Game` played by a strategy, start to end.

The first click goes to the start cell (``corner`` is ``(0, 0)``, ``center`` the
middle cell, or any ``(row, col)``); after that the strategy chooses every move.
An optional observer sees every step (for ``--show``, GIFs and logs).

>>> from minesolver.rules import BEGINNER
>>> from minesolver.strategies import find_strategy
>>> record = play_game(BEGINNER, find_strategy("tank"), seed=3)
>>> record.won, record.strategy
(True, 'tank')
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from .analysis import Analysis
from .analysis.deduce import Deducer
from .errors import EngineLimitError, InputError, OffBoardError, is_whole, quote
from .game import Game, Layer, first_click_broken
from .minefield import Layout
from .noguess import no_guess_layout
from .position import Position
from .rng import derive_seed
from .rules import Rules, RulesError
from .strategies import Move, Strategy
from .strategies.baselines import fallback_moves

__all__ = [
    "GameRecord",
    "Start",
    "Step",
    "format_start",
    "layer_for",
    "parse_start",
    "play_game",
    "start_cell",
]

Start = Literal["corner", "center"] | tuple[int, int]

# salt for the strategy's own seed, so it never equals the board's seed
_STRATEGY_SALT = 0x5EED


def parse_start(text: str) -> Start:
    """``corner``, ``center`` (or ``centre``), or ``ROW,COL``.

    >>> parse_start("3,4"), parse_start("corner")
    ((3, 4), 'corner')
    """
    key = text.strip().lower()
    if key in ("corner", "center", "centre"):
        return "center" if key == "centre" else key  # type: ignore[return-value]
    match = re.fullmatch(r"\(?\s*(\d{1,9})\s*,\s*(\d{1,9})\s*\)?", key)
    if match is None:
        raise RulesError(f"cannot read start {quote(text)}: expected corner, center or ROW,COL")
    return (int(match.group(1)), int(match.group(2)))


def format_start(start: Start) -> str:
    """The inverse of :func:`parse_start`.

    >>> format_start((3, 4)), format_start("center")
    ('3,4', 'center')
    """
    return start if isinstance(start, str) else f"{start[0]},{start[1]}"


def start_cell(rules: Rules, start: Start) -> tuple[int, int]:
    """The ``(row, col)`` of a start on these rules' board."""
    if start == "corner":
        return (0, 0)
    if start == "center":
        return (rules.height // 2, rules.width // 2)
    if (isinstance(start, str) or not isinstance(start, tuple | list) or len(start) != 2
            or not all(is_whole(x) for x in start)):
        raise InputError(f"start must be 'corner', 'center' or (row, col), got {start!r}")
    row, col = start
    if not (0 <= row < rules.height and 0 <= col < rules.width):
        raise OffBoardError(
            f"start ({row}, {col}) is off the {rules.width}x{rules.height} board"
        )
    return (row, col)


def layer_for(rules: Rules) -> Layer | None:
    """How a game under ``rules`` lays its mines: no-guess boards by
    :func:`minesolver.noguess.no_guess_layout`, others uniformly (``None``).

    >>> layer_for(Rules(9, 9, 10, no_guess=True)).__name__
    'no_guess_layout'
    """
    return no_guess_layout if rules.no_guess else None


@dataclass(frozen=True)
class Step:
    """What happened in one turn: the position seen, the moves, the cells opened."""

    index: int
    position: Position
    moves: list[Move]
    analysis: Analysis | None
    opened: list[tuple[int, int]]


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one game."""

    rules: Rules
    strategy: str
    seed: int
    start: tuple[int, int]
    won: bool
    clicks: int
    guesses: int
    bbbv: int
    seconds: float
    opened: int  # safe cells opened
    safe_cells: int
    layout: Layout = field(repr=False)
    final: Position = field(repr=False)  # what the player saw at the end
    risks: tuple[float, ...] = field(default=(), repr=False)  # mine risk of each guess
    exploded: tuple[int, int] | None = None  # the mine that ended a lost game
    turns: int = 0  # positions handed to the strategy
    # of which the cheap rules proved no cell safe (None: not measured, see play_game)
    engine_turns: int | None = 0
    chain: int = 0  # most deduction turns in a row after one reveal (see measures)
    chain_cells: int = 0  # safe cells those turns opened
    # turns the exact engine could not count (EngineLimitError): the moves came from
    # strategies.baselines.fallback_moves instead
    engine_limits: int = 0

    def measures(self) -> dict[str, int | None]:
        """The figures a stored game keeps beyond its columns (``docs/studies.md``):
        ``turns``, ``engine_turns`` (turns whose position the trivial and subset rules
        could not advance: the probability engine was needed), ``chain`` and
        ``chain_cells`` (the longest run of deduction-only turns set off by one
        reveal that was not a deduction, and the cells it opened)."""
        return {"turns": self.turns, "engine_turns": self.engine_turns, "chain": self.chain,
                "chain_cells": self.chain_cells}


Observer = Callable[[Step], None]


def play_game(
    rules: Rules,
    strategy: Strategy,
    *,
    seed: int,
    start: Start = "corner",
    layout: Layout | None = None,
    observer: Observer | None = None,
    lay: Layer | None = None,
    measure: bool = True,
) -> GameRecord:
    """Play one game to its end and return its record.

    With ``layout`` the board is fixed, and must keep the first-click rule's promise
    for the start (else :class:`~minesolver.rules.RulesError`: the record would say a
    protected first click lost); otherwise ``seed`` lays the mines (a
    no-guess board under ``rules.no_guess``: :mod:`minesolver.noguess`), or ``lay``
    when given (sweeps pair boards with :func:`minesolver.game.paired_layout`).

    ``measure`` runs the cheap rules after every move to count the turns they could
    not settle (``engine_turns``, kept by ``bench`` for the studies, out of the
    game's seconds); without it ``engine_turns`` is ``None``.  On a 1000x1000 board
    that measure costs about a third of the game's time.

    >>> from minesolver.rules import BEGINNER
    >>> from minesolver.strategies import find_strategy
    >>> record = play_game(BEGINNER, find_strategy("best"), seed=7)
    >>> record.won, record.clicks, record.guesses, record.bbbv
    (True, 26, 0, 25)
    """
    t0 = time.perf_counter()
    if layout is not None:
        # the record reports ``rules``: a layout with another mine count would make it lie
        if (layout.width, layout.height, len(layout.mines)) != (
            rules.width, rules.height, rules.mines
        ):
            raise RulesError(
                f"layout is {layout.width}x{layout.height}x{len(layout.mines)} but the rules "
                f"say {rules}"
            )
        broken = first_click_broken(rules, layout, start_cell(rules, start))
        if broken:  # and that the first click was protected
            raise RulesError(f"the layout {broken}")
        game = Game.from_layout(layout, first_click=rules.first_click, noise=rules.noise, seed=seed)
    else:
        game = Game(rules, seed=seed, lay=lay or layer_for(rules))
    game_rules = game.rules
    strategy.new_game(game_rules, derive_seed(seed, _STRATEGY_SALT))
    first = start_cell(rules, start)
    before = game.position()
    opened = game.reveal(*first)
    guesses = 1 if rules.first_click == "none" else 0
    risks: list[float] = []
    engine_limits = 0
    if observer is not None:
        observer(Step(0, before, [Move(first, reason="first")], None, opened))
    step = 0
    engine_turns = 0
    chain = chain_cells = run = run_cells = 0
    measuring = 0.0  # time spent on the measures, kept out of the game's time
    deducer = Deducer()  # the cheap rules, following the game move by move
    while not game.is_over:
        step += 1
        position = game.position()
        if measure:
            t1 = time.perf_counter()
            # noisy numbers defeat the cheap rules: every turn needs the engine
            if rules.noise is not None:
                engine_turns += 1
            else:
                deducer.advance(position)
                engine_turns += not deducer.any_safe
            measuring += time.perf_counter() - t1
        try:
            moves = strategy.moves(position)
        except EngineLimitError:
            moves = fallback_moves(strategy, position)
            engine_limits += 1
        if not moves:
            raise RuntimeError(f"{strategy.name} returned no move")
        opened = []
        changed = False
        for move in moves:
            if move.action == "flag":
                changed |= game.flag(*move.cell)
                continue
            got = game.reveal(*move.cell)
            if got:
                changed = True
                opened.extend(got)
                if move.reason != "deduction" and (move.probability or 0.0) > 0.0:
                    guesses += 1
                    risks.append(move.probability or 0.0)
            if game.is_over:
                break
        if all(m.reason == "deduction" for m in moves):
            run += 1
            run_cells += len(opened)
            if run > chain:
                chain, chain_cells = run, run_cells
        else:
            run = run_cells = 0
        if observer is not None:
            observer(Step(step, position, moves, strategy.last_analysis, opened))
        if not changed:
            raise RuntimeError(f"{strategy.name} chose moves that change nothing: {moves[:3]}")
    final = game.layout
    assert final is not None
    return GameRecord(
        rules=rules,
        strategy=strategy.label,
        seed=seed,
        start=first,
        won=game.is_won,
        clicks=game.clicks,
        guesses=guesses,
        bbbv=game.bbbv(),
        seconds=time.perf_counter() - t0 - measuring,
        opened=rules.cells - len(final.mines) - game.safe_left,
        safe_cells=rules.cells - len(final.mines),
        layout=final,
        final=game.position(),
        risks=tuple(risks),
        exploded=game.exploded,
        turns=step,
        engine_turns=engine_turns if measure else None,
        chain=chain,
        chain_cells=chain_cells,
        engine_limits=engine_limits,
    )
