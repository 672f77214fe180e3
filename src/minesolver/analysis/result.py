"""What the engine answers: the :class:`Analysis` of a position and its fronts.

:mod:`.engine` builds these; they hold the exact per-group counts and derive every
cell's probability, the safe cells and the mines from them on demand.

>>> from minesolver.analysis import analyze
>>> analyze(Position.from_text("3x1x1\\n1HH\\n")).safe
[(0, 2)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import inf, log2, log10

import numpy as np

from ..codes import COVERED
from ..errors import OffBoardError
from ..position import Position
from .fronts import Front
from .joining import ONE, Binomials, Scale

__all__ = ["Analysis", "FrontSummary", "front_summary"]


@dataclass(frozen=True)
class FrontSummary:
    """One independent front, as reported to users.

    >>> from minesolver.analysis import analyze
    >>> a = analyze(Position.from_text("3x1x1\\n1HH\\n"))
    >>> a.fronts
    []
    """

    cells: list[tuple[int, int]]
    clues: list[tuple[int, int]]
    boxes: int
    min_mines: int
    max_mines: int
    width: int  # most clues open at once while counting


@dataclass(frozen=True)
class Analysis:
    """Exact mine probabilities of a position.

    ``solutions`` is the exact number of layouts (weighted by the clues'
    likelihoods for noisy clues): ``weight`` times the common factor ``scale`` the
    join leaves out (:mod:`.joining`), multiplied out only when asked, as a big
    board's count has hundreds of thousands of digits.  Probabilities are exact
    fractions; ``prob`` is the same as floats, one row per board row.
    """

    position: Position
    weight: int  # solutions / scale.value()
    seconds: float
    _nums: list[int] = field(repr=False)
    _dens: list[int] = field(repr=False)
    _sizes: list[int] = field(repr=False)  # covered cells of each group
    # builds, when first needed, per cell: index into _nums/_dens, or -1 revealed (0),
    # -2 mine (1); a board of a million cells is not walked for every hypothesis
    _grouping: Callable[[], np.ndarray] = field(repr=False)
    _front_data: list[tuple[Front, int, int]] = field(repr=False, default_factory=list)
    scale: Scale = ONE
    _binomials: Binomials | None = field(repr=False, compare=False, default=None)

    @cached_property
    def _cell_group(self) -> np.ndarray:
        return self._grouping()

    @cached_property
    def solutions(self) -> int:
        """The exact number of layouts (a huge integer on a big board).

        >>> from minesolver.analysis import analyze
        >>> analyze(Position.from_text("3x3x2\\nHHH\\n2H2\\nHHH\\n")).solutions
        3
        """
        exact = self.weight * self.scale.value(self._binomials)
        assert exact.denominator == 1, "the layouts' count is a whole number"
        return exact.numerator

    def share_of(self, whole: Analysis) -> Fraction:
        """``self.solutions / whole.solutions``, exactly, without multiplying out either
        count (on a big board each is an integer of up to a million digits, seconds to
        make): the share of ``whole``'s layouts that this analysis, of a hypothesis on
        ``whole``'s position, keeps.

        >>> from minesolver.analysis import analyze
        >>> from minesolver.codes import BLANK
        >>> whole = analyze(Position.covered(300, 300, 18_000))
        >>> corner_safe = analyze(whole.position.with_cells([(0, BLANK)]))
        >>> corner_safe.share_of(whole)
        Fraction(4, 5)
        """
        return Fraction(self.weight, whole.weight) * self.scale.ratio(whole.scale)

    @property
    def solutions_log10(self) -> float:
        """``log10`` of :attr:`solutions`, approximately: a float, without multiplying
        out the count (seconds for a count of a million digits).

        >>> from minesolver.analysis import analyze
        >>> round(analyze(Position.covered(30, 16, 99)).solutions_log10, 3)
        104.748
        """
        if not self.weight:
            return -inf
        return (log2(self.weight) + self.scale.log2()) * log10(2)

    def solutions_at_most(self, limit: int) -> bool:
        """Whether :attr:`solutions` is at most ``limit`` (``limit > 0``), without
        multiplying out a huge count when its size already answers (any ``limit``).

        >>> from minesolver.analysis import analyze
        >>> analyze(Position.from_text("3x3x2\\nHHH\\n2H2\\nHHH\\n")).solutions_at_most(2)
        False
        """
        if limit < 1 or not self.weight:
            return self.weight <= limit
        if log2(self.weight) + self.scale.log2() > log2(limit) + 8:
            return False  # 8 bits clear of the float estimate's error
        return self.solutions <= limit

    @property
    def safe_count(self) -> int:
        """How many covered cells are certainly safe (without walking the board).

        >>> from minesolver.analysis import analyze
        >>> analyze(Position.from_text("4x1x1\\n1HHH\\n")).safe_count
        2
        """
        return sum(size for n, size in zip(self._nums, self._sizes, strict=True) if n == 0)

    def risks(self) -> set[Fraction]:
        """The exact mine probabilities of the covered cells that may be safe, each once
        (one per group of cells that share it: no walk over the board).

        >>> from minesolver.analysis import analyze
        >>> analyze(Position.from_text("5x1x2\\n1HHHH\\n")).risks()  # (0, 1): a mine
        {Fraction(1, 3)}
        """
        return {
            Fraction(n, d)
            for n, d, size in zip(self._nums, self._dens, self._sizes, strict=True)
            if size and n < d
        }

    def lowest_risks(self, k: int = 2) -> list[float]:
        """The ``k`` lowest mine probabilities of covered cells that are not certain
        mines, one per cell, lowest first (fewer when fewer such cells).

        >>> from minesolver.analysis import analyze
        >>> analyze(Position.from_text("4x1x1\\n1HHH\\n")).lowest_risks(3)
        [0.0, 0.0]
        """
        groups = sorted(
            (n / d, size)
            for n, d, size in zip(self._nums, self._dens, self._sizes, strict=True)
            if size and n < d
        )
        out: list[float] = []
        for p, size in groups:
            out.extend([p] * min(size, k - len(out)))
            if len(out) >= k:
                break
        return out

    @cached_property
    def fronts(self) -> list[FrontSummary]:
        """The independent fronts the counting found (after the trivial rules)."""
        return [front_summary(front, lo, hi) for front, lo, hi in self._front_data]

    def probability(self, row: int, col: int) -> Fraction:
        """Exact mine probability of ``(row, col)`` (revealed: 0, flagged: 1)."""
        g = int(self._cell_group[self.position.index(row, col)])
        if g == -1:
            return Fraction(0)
        if g == -2:
            return Fraction(1)
        return Fraction(self._nums[g], self._dens[g])

    @cached_property
    def prob(self) -> np.ndarray:
        """Float mine probabilities, shape ``(height, width)``."""
        values = np.array(
            [1.0, 0.0] + [n / d if n else 0.0 for n, d in zip(self._nums, self._dens, strict=True)]
        )
        out: np.ndarray = values[self._cell_group + 2].reshape(self.position.shape)
        out.flags.writeable = False  # cached: shared by every reader
        return out

    @cached_property
    def safe(self) -> list[tuple[int, int]]:
        """Covered cells that are certainly safe, row-major."""
        w = self.position.width
        return [divmod(i, w) for i in self.safe_indices.tolist()]

    @cached_property
    def safe_indices(self) -> np.ndarray:
        """Flat indices of the covered cells that are certainly safe."""
        zero = np.array([False, False] + [n == 0 for n in self._nums], dtype=bool)
        covered = np.frombuffer(self.position.cells, dtype=np.uint8) == COVERED
        out: np.ndarray = np.flatnonzero(zero[self._cell_group + 2] & covered)
        out.flags.writeable = False  # cached: shared by every reader
        return out

    @cached_property
    def mines(self) -> list[tuple[int, int]]:
        """Covered cells that are certainly mines, flags included, row-major."""
        w = self.position.width
        return [divmod(i, w) for i in self.mine_indices.tolist()]

    @cached_property
    def mine_indices(self) -> np.ndarray:
        """Flat indices of the cells that are certainly mines, flags included."""
        certain = np.array(
            [True, False] + [n == d for n, d in zip(self._nums, self._dens, strict=True)],
            dtype=bool,
        )
        out: np.ndarray = np.flatnonzero(certain[self._cell_group + 2])
        out.flags.writeable = False  # cached: shared by every reader
        return out

    @cached_property
    def uncertain_mask(self) -> np.ndarray:
        """Per flat index: whether the cell may be a mine and may be safe (exactly
        :meth:`is_uncertain`, for the whole board at once).

        >>> from minesolver.analysis import analyze
        >>> analyze(Position.from_text("3x1x1\\nHHH\\n")).uncertain_mask.tolist()
        [True, True, True]
        """
        unsure = np.array(
            [False, False] + [0 < n < d for n, d in zip(self._nums, self._dens, strict=True)],
            dtype=bool,
        )
        out: np.ndarray = unsure[self._cell_group + 2]
        out.flags.writeable = False
        return out

    @cached_property
    def front_mask(self) -> np.ndarray:
        """Per flat index: whether the cell is in one of :attr:`fronts` (a covered cell
        that a number constrains; the cells away from the clues are not).

        >>> from minesolver.analysis import analyze
        >>> analyze(Position.from_text("5x1x2\\nH1HHH\\n")).front_mask.tolist()
        [True, False, True, False, False]
        """
        w = self.position.width
        out = np.zeros(len(self.position.cells), dtype=bool)
        for front in self.fronts:
            out[[r * w + c for r, c in front.cells]] = True
        out.flags.writeable = False
        return out

    def _flat(self, index: int) -> int:
        """``index`` when it names a cell (a negative one would wrap to the end)."""
        if not 0 <= index < len(self.position.cells):
            raise OffBoardError(f"cell index {index} is off the "
                                f"{self.position.width}x{self.position.height} board")
        return index

    def exact(self, index: int) -> tuple[int, int]:
        """``(numerator, denominator)`` of a covered cell's mine probability."""
        g = int(self._cell_group[self._flat(index)])
        if g == -1:
            return (0, 1)
        if g == -2:
            return (1, 1)
        return (self._nums[g], self._dens[g])

    def is_safe(self, index: int) -> bool:
        """Whether the cell at flat ``index`` is certainly safe (revealed cells are).

        >>> from minesolver.analysis import analyze
        >>> a = analyze(Position.from_text("3x1x1\\n1HH\\n"))
        >>> a.is_safe(2), a.is_mine(1), a.is_uncertain(1)
        (True, True, False)
        """
        g = int(self._cell_group[self._flat(index)])
        return g == -1 or (g >= 0 and self._nums[g] == 0)

    def is_mine(self, index: int) -> bool:
        """Whether the cell at flat ``index`` is certainly a mine (flags count)."""
        g = int(self._cell_group[self._flat(index)])
        return g == -2 or (g >= 0 and self._nums[g] == self._dens[g])

    def is_uncertain(self, index: int) -> bool:
        """Whether the cell at flat ``index`` may be a mine and may be safe."""
        g = int(self._cell_group[self._flat(index)])
        return g >= 0 and 0 < self._nums[g] < self._dens[g]



def front_summary(front: Front, min_mines: int, max_mines: int) -> FrontSummary:
    """What users are told of a counted front."""
    return FrontSummary(
        cells=[front.coords(c) for c in sorted(front.cells)],
        clues=[front.coords(c.at) for c in front.clues],
        boxes=len(front.boxes),
        min_mines=min_mines,
        max_mines=max_mines,
        width=front.width(),
    )
