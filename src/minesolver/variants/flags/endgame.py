"""Exact Flags endgame: a two-player expectimax over the layouts that remain.

When few layouts agree with the board (:func:`~minesolver.analysis.enumerate.enumerate_layouts`
lists them), the rest of the game is a finite game of chance: each layout is
equally likely, a move splits the layouts by what it shows, and the value of a
state is the mover's chance to win (a draw counts one half) when both players
play perfectly.

* A state is the set ``S`` of layouts still possible, the cells opened during the
  search, both scores and both bombs.
* Mines certain in every layout of ``S`` are claimed at once: claiming a known
  mine shows nothing new and keeps the turn, so without bombs it is never worse
  to take it now (a lead that changes who may still bomb is ignored).
* Opening cell ``c``: in the layouts where ``c`` is a mine the mover scores and
  moves again; in the others the cells it opens (zeros flood) and their numbers
  split ``S``, and the opponent moves.
* The bomb (when the mover may drop it) is tried on the ``bomb_squares`` squares
  that hold the most expected mines.
* On boards with many covered cells, the safe cells that show the same number in
  every layout are only counted, as passes (see :func:`best_flags_move`).

States are memoised; past a node budget the search gives up and returns
``None`` so the player falls back to its heuristics.

One mine on a 3x1 board: the middle cell wins 1/3 at once and, when safe,
shows a 1 that leaves the opponent a 50/50; an end cell, when safe, shows
the opponent where the mine is.

>>> from minesolver.minefield import Layout
>>> from minesolver.variants.flags import FlagsGame
>>> game = FlagsGame.from_layout(Layout(3, 1, (0,)))
>>> result = best_flags_move(game.view())
>>> result.move.text(), round(result.win_chance, 4)
('0,1', 0.6667)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...analysis.enumerate import enumerate_layouts
from ...codes import FLAG, MINE
from ...position import Position
from .game import FlagsMove, FlagsView, bomb_square

__all__ = ["FlagsEndgame", "best_flags_move"]


@dataclass(frozen=True)
class FlagsEndgame:
    """The best move found by the search and the mover's exact chance to win with it."""

    move: FlagsMove
    win_chance: float
    layouts: int
    nodes: int


class _Budget(Exception):
    pass


class _Search:
    def __init__(
        self, position: Position, cells: list[int], budget: int, bomb_squares: int
    ) -> None:
        w, h = position.width, position.height
        grid = position.grid
        index = {c: j for j, c in enumerate(cells)}
        self.cells = cells
        self.total = position.mines
        self.nbr = [sum(1 << index[n] for n in grid.neighbours(c) if n in index) for c in cells]
        # a cell whose neighbours outside ``cells`` hold a claimed mine never shows zero
        self.flagged = [
            any(position.cells[n] in (FLAG, MINE) for n in grid.neighbours(c)) for c in cells
        ]
        squares: dict[int, int] = {}
        for centre in range(w * h):
            mask = sum(1 << index[i] for i in bomb_square(centre, w, h) if i in index)
            if mask:
                squares.setdefault(mask, centre)
        self.squares = squares  # mask over ``cells`` -> a centre that gives it
        self.bomb_squares = bomb_squares
        self.memo: dict[tuple[object, ...], float] = {}
        self.budget = budget
        self.nodes = 0

    # ------------------------------------------------------------------ outcomes
    def _flood(self, lay: int, starts: int, opened: int) -> tuple[int, tuple[int, ...]]:
        """Open the safe cells ``starts`` in layout ``lay``, zeros flooding.

        Returns the opened mask afterwards and what the newly opened cells show.
        """
        new = opened | starts
        stack = []
        bits = starts
        while bits:
            low = bits & -bits
            stack.append(low.bit_length() - 1)
            bits ^= low
        shown = []
        while stack:
            j = stack.pop()
            count = (lay & self.nbr[j]).bit_count()
            shown.append(j << 4 | count)
            if count == 0 and not self.flagged[j]:
                bits = self.nbr[j] & ~new
                new |= bits
                while bits:
                    low = bits & -bits
                    stack.append(low.bit_length() - 1)
                    bits ^= low
        return new, tuple(sorted(shown))

    def _split_open(
        self, layouts: list[int], j: int, opened: int
    ) -> tuple[list[int], list[tuple[int, list[int]]]]:
        """Layouts where ``j`` is a mine; and ``(opened after, layouts)`` per safe outcome."""
        bit = 1 << j
        mined = [lay for lay in layouts if lay & bit]
        groups: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        for lay in layouts:
            if not lay & bit:
                groups.setdefault(self._flood(lay, bit, opened), []).append(lay)
        return mined, [(key[0], g) for key, g in groups.items()]

    def _split_bomb(
        self, layouts: list[int], square: int, opened: int
    ) -> list[tuple[int, int, list[int]]]:
        """``(opened after, mines claimed, layouts)`` for each outcome of a bomb."""
        live = square & ~opened
        groups: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}
        for lay in layouts:
            claimed = lay & live
            new, shown = self._flood(lay, live & ~lay, opened | claimed)
            groups.setdefault((new, claimed, shown), []).append(lay)
        return [(k[0], k[1].bit_count(), g) for k, g in groups.items()]

    # ------------------------------------------------------------------ values
    def _result(self, me: int, them: int) -> float | None:
        left = self.total - me - them
        if me > them + left:
            return 1.0
        if them > me + left:
            return 0.0
        if left == 0:
            return 0.5
        return None

    def value(
        self,
        layouts: list[int],
        opened: int,
        me: int,
        them: int,
        bombs: tuple[bool, bool],
        passes: int = 0,
    ) -> float:
        """The mover's chance to win; ``bombs`` = (mover's used, opponent's used);
        ``passes``: safe cells left that tell nothing (see :func:`best_flags_move`)."""
        # certain mines first: they keep the turn and show nothing
        inter = ~opened
        for lay in layouts:
            inter &= lay
        if inter:
            opened |= inter
            me += inter.bit_count()
            done = self._result(me, them)
            if done is not None:
                return done
        passes = passes if passes <= 3 else 2 + passes % 2  # only the parity of many matters
        key = (frozenset(layouts), opened, me, them, bombs, passes)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        best = max(v for _, v in self.moves(layouts, opened, me, them, bombs, passes))
        self.memo[key] = best
        return best

    def moves(
        self,
        layouts: list[int],
        opened: int,
        me: int,
        them: int,
        bombs: tuple[bool, bool],
        passes: int = 0,
    ) -> list[tuple[tuple[str, int], float]]:
        """Every move of the mover with its value: ``("open", j)``, ``("bomb", mask)``
        or ``("pass", 0)``.

        Cells that split the layouts exactly alike (the same mined layouts, the same
        groups of safe outcomes: mirror images, or safe cells that tell nothing) are
        searched once; while a pass is left, safe cells that would tell the opponent
        something are not tried.  The search stops early at a certain win.
        """
        n = len(layouts)
        out: list[tuple[tuple[str, int], float]] = []
        free = [j for j in range(len(self.cells)) if not opened >> j & 1]
        counts = {j: sum(1 for lay in layouts if lay >> j & 1) for j in free}
        seen: set[object] = set()
        for j in sorted(free, key=lambda j: -counts[j]):
            if passes and not counts[j]:
                continue  # a safe cell that tells: a pass gives the turn without telling
            mined, groups = self._split_open(layouts, j, opened)
            key = (frozenset(mined), frozenset(frozenset(g) for _, g in groups))
            if key in seen:
                continue
            seen.add(key)
            total = 0.0
            if mined:
                after = opened | 1 << j
                done = self._result(me + 1, them)
                win = (
                    done
                    if done is not None
                    else self.value(mined, after, me + 1, them, bombs, passes)
                )
                total += len(mined) * win
            swapped = (bombs[1], bombs[0])
            for new, group in groups:
                total += len(group) * (
                    1.0 - self.value(group, opened | new, them, me, swapped, passes)
                )
            out.append((("open", j), total / n))
            if total >= n:
                return out
        if passes:
            swapped = (bombs[1], bombs[0])
            out.append((("pass", 0), 1.0 - self.value(layouts, opened, them, me, swapped,
                                                       passes - 1)))
        if not bombs[0] and me < them:
            for mask in self._best_squares(layouts, opened):
                total = 0.0
                for after, got, group in self._split_bomb(layouts, mask, opened):
                    done = self._result(me + got, them)
                    if done is None:
                        swapped = (bombs[1], True)
                        done = 1.0 - self.value(group, after, them, me + got, swapped, passes)
                    total += len(group) * done
                out.append((("bomb", mask), total / n))
        return out

    def _best_squares(self, layouts: list[int], opened: int) -> list[int]:
        scored = []
        for mask in self.squares:
            live = mask & ~opened
            if live:
                scored.append((sum((lay & live).bit_count() for lay in layouts), live, mask))
        scored.sort(key=lambda t: -t[0])
        seen: set[int] = set()
        picks = []
        for _, live, mask in scored:
            if live not in seen:
                seen.add(live)
                picks.append(mask)
            if len(picks) >= self.bomb_squares:
                break
        return picks


def best_flags_move(
    view: FlagsView,
    *,
    max_layouts: int = 60,
    budget: int = 4000,
    bomb_squares: int = 3,
    full_cells: int = 16,
) -> FlagsEndgame | None:
    """The move with the highest chance to win, when at most ``max_layouts`` remain.

    With at most ``full_cells`` covered cells every cell is searched, exactly.  On
    larger boards the search keeps the cells whose state or number differs between
    layouts; every other covered cell is safe and shows the same number in every
    layout, so opening it only passes the turn: those count as a number of
    *passes* (only its parity beyond three), and the floods they might start are
    ignored.  Returns ``None`` when there are more layouts or the search needs more
    than ``budget`` states.
    """
    position = view.position
    found = enumerate_layouts(position, max_layouts)
    if found is None or not found[1]:
        return None
    cells, layouts = found
    search = _Search(position, cells, budget, bomb_squares)
    full = (1 << len(cells)) - 1
    opened, passes, pass_cell = 0, 0, -1
    if len(cells) > full_cells:
        union, inter = 0, full
        for lay in layouts:
            union |= lay
            inter &= lay
        telling = union & ~inter  # cells that hold a mine in some layouts only
        for j in range(len(cells)):
            bit = 1 << j
            if bit & union:
                continue
            shown = {(lay & search.nbr[j]).bit_count() for lay in layouts}
            if len(shown) > 1:
                telling |= bit  # a safe cell whose number tells layouts apart
            else:
                opened |= bit  # a pass: searched as a count
                passes += 1
                if pass_cell < 0 or shown != {0}:
                    pass_cell = j
        opened &= ~(telling | inter)
    me, them = view.scores[view.player], view.scores[1 - view.player]
    bombs = (view.bombs_used[view.player], view.bombs_used[1 - view.player])
    try:
        scored = search.moves(layouts, opened, me, them, bombs, passes)
    except _Budget:
        return None
    if not scored:
        return None
    (kind, arg), win = max(scored, key=lambda t: t[1])
    if kind == "bomb":
        centre = search.squares[arg]
        expected = sum((lay & arg).bit_count() for lay in layouts) / len(layouts)
        move = FlagsMove(position.coords(centre), "bomb", reason="endgame", probability=expected)
    elif kind == "pass":
        move = FlagsMove(position.coords(cells[pass_cell]), reason="endgame pass", probability=0.0)
    else:
        p = sum(1 for lay in layouts if lay >> arg & 1) / len(layouts)
        move = FlagsMove(position.coords(cells[arg]), reason="endgame", probability=p)
    return FlagsEndgame(move, win, len(layouts), search.nodes)
