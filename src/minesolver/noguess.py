"""No-guess boards: boards that can be solved from the first click by deduction alone.

A no-guess board is drawn by **rejection**: seeded boards are laid exactly as for an
ordinary game (:func:`minesolver.game.random_layout`: uniform among the layouts the
first-click rule allows) and each is played by :func:`solvable`, which opens only
cells the exact engine proves safe, until one is solved to the end.  The first board
tried is the ordinary board of the seed; board ``k`` uses ``derive_seed(seed,
NO_GUESS_SALT, k)``.  So:

* the result is **uniform among no-guess boards** (every board that deduction alone
  solves from that first click is equally likely: rejection keeps the uniform
  distribution, restricted to the accepted boards), with no bias to measure;
* it is **reproducible**: the same rules, seed and first click give the same board on
  every machine, from the command line, a bench or the web app;
* deduction is the exact engine's, which uses the mine counter (a cell is safe when no
  layout of the remaining mines puts one there): as a player with the counter in view.

Dense boards are rarely no-guess: after :data:`MAX_TRIES` boards without one the
generator stops with :class:`NoGuessError`, which says so; ``docs/players.md`` gives
the densities that work.

>>> from minesolver.rules import Rules
>>> rules = Rules(9, 9, 10, first_click="opening", no_guess=True)
>>> layout = no_guess_layout(rules, seed=1, first=0)
>>> solvable(layout, 0), layout == no_guess_layout(rules, seed=1, first=0)
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator

from .analysis import analyze
from .codes import COVERED, MINE
from .errors import LimitError
from .game import Game, random_layout
from .minefield import Layout
from .rng import derive_seed
from .rules import Rules

__all__ = [
    "MAX_TRIES",
    "NO_GUESS_SALT",
    "NoGuessError",
    "candidates",
    "no_guess_layout",
    "solvable",
]

MAX_TRIES = 1000  # boards tried before giving up
NO_GUESS_SALT = 0x40_6E55  # "no guess": the seeds of boards tried after the first


class NoGuessError(LimitError):
    """No no-guess board was found within the tries allowed: the board is too dense."""


def solvable(layout: Layout, first: int) -> bool:
    """True when opening ``first`` and then only cells the exact engine proves safe
    (the mine count included) opens every safe cell.

    >>> solvable(Layout(3, 1, (2,)), 0), solvable(Layout(2, 2, (0,)), 3)
    (True, False)
    """
    game = Game.from_layout(layout)
    if not game.reveal(*layout.grid.coords(first)) or game.is_lost:
        return False
    known: set[int] = set()  # mines proven so far, handed back to the engine
    while not game.is_over:
        position = game.position()
        cells = position.cells
        marked = [(i, MINE) for i in known if cells[i] == COVERED]
        analysis = analyze(position.with_cells(marked) if marked else position)
        safe = analysis.safe_indices.tolist()
        if not safe:
            return False
        known.update(analysis.mine_indices.tolist())
        for i in safe:
            if game.is_over:
                break
            game.reveal(*position.coords(i))
    return game.is_won


def candidates(rules: Rules, seed: int, first: int) -> Iterator[Layout]:
    """The :data:`MAX_TRIES` boards tried, in order: the seed's ordinary board, then
    those of ``derive_seed(seed, NO_GUESS_SALT, k)``.

    >>> from minesolver.rules import Rules
    >>> boards = candidates(Rules(9, 9, 10), seed=3, first=0)
    >>> next(boards) == random_layout(Rules(9, 9, 10), 3, 0)
    True
    """
    plain = rules.with_no_guess(False)
    for attempt in range(MAX_TRIES):
        board_seed = seed if attempt == 0 else derive_seed(seed, NO_GUESS_SALT, attempt)
        yield random_layout(plain, board_seed, first)


def no_guess_layout(rules: Rules, seed: int, first: int) -> Layout:
    """A seeded no-guess layout for a game whose first click is at flat index ``first``
    (a :data:`~minesolver.game.Layer` for :class:`~minesolver.game.Game`).

    Raises :class:`NoGuessError` when none of :data:`MAX_TRIES` boards is no-guess.

    >>> rules = Rules(9, 9, 10, first_click="opening", no_guess=True)
    >>> layout = no_guess_layout(rules, seed=1, first=40)  # first click in the centre
    >>> solvable(layout, 40), layout == no_guess_layout(rules, seed=1, first=40)
    (True, True)
    """
    for layout in candidates(rules, seed, first):
        if solvable(layout, first):
            return layout
    row, col = divmod(first, rules.width)
    fewer = ["fewer mines", "another first click"]
    if rules.first_click == "safe" and rules.mines <= rules.max_mines("opening"):
        fewer.append("an opening first click")  # only where the rule allows these mines
    raise NoGuessError(
        f"no no-guess board found for {rules} ({rules.density:.1%} mines, "
        f"{rules.first_click} first click at ({row}, {col})) in {MAX_TRIES} tries: boards "
        f"this dense, or opened there, can rarely be solved without guessing; ask for "
        f"{', '.join(fewer[:-1])} or {fewer[-1]}",
        limit="no-guess tries",
    )
