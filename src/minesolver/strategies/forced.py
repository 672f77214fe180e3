"""Unavoidable guesses: groups of cells no number can ever tell apart.

A guess that no play can avoid costs the same whenever it is taken; taking it first
puts the number it shows to use for the guesses after (``best``'s ``forced``,
``walled`` and ``pseudo`` options, docs/strategies.md).  :func:`forced_guess` finds
one: an isolated one-mine pair, a clue's uncertain cells walled in by certain mines,
a chain of one-mine pairs whose two sides swap unseen, or (``pseudo``) a pair holding
one mine or none walled in by mines.  The wider 50/50 shapes that are not yet certain
(a cell's long-term risk) live in :mod:`.longterm`.

>>> from minesolver.analysis import analyze
>>> p = Position.from_text("2x2x1\\n1H\\n1H\\n")
>>> [p.coords(i) for i in forced_guess(p, analyze(p))]
[(0, 1), (1, 1)]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..analysis import Analysis
from ..codes import COVERED, is_number
from ..geometry import neighbour_sum
from ..position import Position

__all__ = ["forced_guess"]


def forced_guess(
    position: Position, analysis: Analysis, *, walled: bool = False, pseudo: bool = False
) -> list[int]:
    """The cells of an unavoidable guess, or an empty list.

    Two unknown cells ``a`` and ``b`` form one when a clue's only uncertain
    neighbours are exactly ``a`` and ``b`` and it needs one more mine, and no
    uncertain cell other than ``a`` and ``b`` touches either of them or any clue
    next to them: nothing but opening one of them can ever tell them apart.

    With ``walled``, the uncertain neighbours ``S`` of any clue (two or more; the
    clue holds their number of mines, neither none nor all) form one when every
    cell next to some but not all of ``S`` is a certain mine, whatever touches all
    of them: every number that will ever be seen next to one cell of ``S`` is next
    to all of them and counts their mines together, so moving a mine within ``S``
    changes nothing visible.  Only opening a cell of ``S`` tells them apart, each
    is a mine with the same chance whenever it is opened, and the game cannot be
    won without opening one; opening one now puts the number it shows to use for
    the guesses that follow.  The answer is every cell of the group, for the caller
    to choose among.  The pairs are those of :func:`minesolver.survey.fifty_fifty_pairs`
    that a clue holds to one mine.  Failing a clue's group, pairs that clues hold to
    one mine each may chain into a 50/50 that no number can resolve (a 2x2 block with
    its mines on a diagonal, say: :func:`_swappable_chain`).

    With ``pseudo`` (and failing all of those), two uncertain cells ``a`` and ``b``
    among the uncertain neighbours of a clue that needs one more mine form one when
    every cell next to one of them but not the other is a certain mine: a *pseudo
    50/50*, one mine or none (JSMinesweeper takes these before other guesses).
    The two are never both mines, and moving a lone mine from one to the other
    changes no number outside them, so until one of them is opened nothing tells
    them apart; a safe one must be opened to win.  Whatever the play, the first of
    the two it opens is a blind pick between them, so opening ``a`` (or ``b``) now
    and then playing on as that play would loses no chance and shows the number
    sooner: either is a best move by perfect play, which the tests check against
    the game tree of every layout.

    >>> from minesolver.analysis import analyze
    >>> p = Position.from_text("4x3x6\\nHHH2\\n3HHH\\n1HH2\\n")
    >>> a = analyze(p)  # (1,1) and (2,1) share a mine; (0,0) (0,1) (0,2) are mines
    >>> forced_guess(p, a), [p.coords(i) for i in forced_guess(p, a, walled=True)]
    ([], [(1, 1), (2, 1)])
    >>> q = Position.from_text("5x3x5\\nHHH31\\n1HHHH\\nHH2HH\\n")  # one mine or none
    >>> [q.coords(i) for i in forced_guess(q, analyze(q), pseudo=True)]
    [(0, 0), (0, 1)]
    """
    cells = position.cells
    around = position.grid.neighbours

    def uncertain(j: int) -> bool:
        return cells[j] == COVERED and analysis.is_uncertain(j)

    def walled_in(group: list[int]) -> bool:
        """Whether every cell next to some but not all of ``group`` is a certain mine."""
        near = [set(around(j)) for j in group]
        walls = set().union(*near) - near[0].intersection(*near[1:]) - set(group)
        return all(analysis.is_mine(y) for y in walls)

    # only numbers with two (or, walled, more) uncertain cells around can start one (a
    # board of a million cells is not walked in Python)
    grid = np.frombuffer(cells, dtype=np.uint8).reshape(position.shape)
    mask = analysis.uncertain_mask.reshape(position.shape) & (grid == COVERED)
    count = neighbour_sum(mask)
    wide = walled or pseudo
    starts = np.flatnonzero((grid <= 8) & ((count >= 2) if wide else (count == 2))).tolist()
    pairs = []  # clues' one-mine pairs, for the chains
    wider = []  # clues needing one mine among three or more: pseudo 50/50s
    for i in starts:
        unsure = [j for j in around(i) if uncertain(j)]
        if len(unsure) == 2:
            if _isolated(unsure, cells, around, uncertain, analysis.is_mine):
                return unsure
            pairs.append(unsure)
        if walled and len(unsure) >= 2 and walled_in(unsure):
            return unsure
        if pseudo and len(unsure) >= 3:
            wider.append((i, unsure))
    chain = _swappable_chain(pairs, around, analysis.is_mine) if walled else []
    if chain or not pseudo:
        return chain
    for i, unsure in wider:
        if cells[i] - sum(1 for j in around(i) if analysis.is_mine(j)) != 1:
            continue
        for k, a in enumerate(unsure):
            for b in unsure[k + 1:]:
                if walled_in([a, b]):
                    return [a, b]
    return []


def _swappable_chain(
    pairs: list[list[int]],
    around: Callable[[int], tuple[int, ...]],
    is_mine: Callable[[int], bool],
) -> list[int]:
    """Cells of pairs that clues hold to one mine each, chained into a closed 50/50.

    Pairs sharing a cell chain up, and the mines of a chain are then one side of it or
    the other (every pair holds one).  When both sides have as many cells and every
    cell next to the chain but not in it either is a certain mine or touches as many
    cells of one side as of the other (a 2x2 block with its mines on a diagonal and
    mines at its four outer corners, say), swapping the sides changes nothing visible:
    a 50/50 that only opening one of its cells resolves.
    """
    links: dict[int, set[int]] = {}
    for a, b in pairs:
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)
    seen: set[int] = set()
    for root in links:
        if root in seen:
            continue
        side = {root: 0}
        todo = [root]
        two_sided = True
        while todo:
            x = todo.pop()
            for y in links[x]:
                if y not in side:
                    side[y] = 1 - side[x]
                    todo.append(y)
                elif side[y] == side[x]:
                    two_sided = False
        seen.update(side)
        ones = sum(side.values())
        if not two_sided or len(side) < 4 or 2 * ones != len(side):
            continue  # a lone pair is the clue's own group, handled above
        border = {y for x in side for y in around(x)} - side.keys()
        if all(is_mine(y) or sum(1 if side.get(z) else -1 for z in around(y) if z in side) == 0
               for y in border):
            return sorted(side)
    return []


def _isolated(
    pair: list[int],
    cells: bytes,
    around: Callable[[int], tuple[int, ...]],
    uncertain: Callable[[int], bool],
    is_mine: Callable[[int], bool],
) -> bool:
    """Whether no covered cell but the pair and certain mines touches it, nor any
    uncertain cell a clue next to it (a certainly safe cell would show a number)."""
    for x in pair:
        for y in around(x):
            if y in pair:
                continue
            if cells[y] == COVERED and not is_mine(y):
                return False
            if is_number(cells[y]) and any(uncertain(z) and z not in pair for z in around(y)):
                return False
    return True
