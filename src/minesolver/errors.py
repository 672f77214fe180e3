"""One error hierarchy for everything minesolver refuses, translated once at each boundary.

Three kinds, because the command line and the web app must tell them apart:

* :class:`InputError` (a ``ValueError``): what was given cannot be used: rules,
  position text, files, names and options, a position no layout agrees with.
  The user's to fix: the CLI prints one line and exits with status 2, the web
  app answers 400 (422 for an inconsistent position).
* :class:`IllegalMoveError` (a ``ValueError``): a move the game cannot take now;
  :class:`GameOverError` when the game has ended (a 409 on the web).
* :class:`LimitError` (not a ``ValueError``: nothing is wrong with the input): the
  work needs more memory or time than allowed.  The message says which limit,
  so the user can raise it or ask something smaller.

Every error pickles with its extra fields, so it survives worker processes and
the web app's sandbox unchanged.  The words messages share live here too:
:func:`counted` (plurals), :func:`quote` and :func:`shorten` (input named, not
echoed), :func:`percent` (a chance never shown as certain when it is not).

>>> err = InconsistentPositionError("clue 3 at (0, 1) cannot be met", clue=(0, 1))
>>> import pickle
>>> back = pickle.loads(pickle.dumps(err))
>>> type(back).__name__, str(back), back.clue
('InconsistentPositionError', 'clue 3 at (0, 1) cannot be met', (0, 1))
>>> isinstance(OffBoardError("cell (9, 9) is off the 3x3 board"), IndexError)
True
"""

from __future__ import annotations

import numbers
from typing import Any, SupportsFloat, TypeVar

__all__ = [
    "EngineLimitError",
    "GameOverError",
    "IllegalMoveError",
    "InconsistentPositionError",
    "InputError",
    "LimitError",
    "MinesolverError",
    "OffBoardError",
    "OptionError",
    "cause_of",
    "counted",
    "is_whole",
    "make_whole",
    "percent",
    "printable",
    "quote",
    "shorten",
    "with_notes",
]

_E = TypeVar("_E", bound=BaseException)


def is_whole(value: object) -> bool:
    """Whether ``value`` is an integer of any kind (numpy's too), but not a bool: what
    a size, a count, a seed or an index given through the library must be.

    >>> is_whole(3), is_whole(3.0), is_whole(True)
    (True, False, False)
    """
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def make_whole(
    obj: object, names: tuple[str, ...], error: type[Exception], owner: str = ""
) -> None:
    """Make each field ``names`` of the frozen dataclass ``obj`` a plain ``int`` (numpy's
    integers become ints); a float, a bool or anything else raises ``error`` naming the
    field (``owner``: whose it is, as in "the layout's width").

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Size:
    ...     width: object
    ...     def __post_init__(self): make_whole(self, ("width",), ValueError)
    >>> Size(True)
    Traceback (most recent call last):
    ValueError: width must be an integer, got True
    """
    for name in names:
        value = getattr(obj, name)
        if type(value) is not int:
            if not is_whole(value):
                raise error(f"{owner}{name} must be an integer, got {value!r}")
            object.__setattr__(obj, name, int(value))


def cause_of(error: BaseException, kinds: type[_E] | tuple[type[_E], ...]) -> _E | None:
    """``error``, or the first of its chain of causes, that is one of ``kinds``;
    ``None`` if none is.  A signal handler's exception (Ctrl-C, or the time limit)
    that reaches a compiled kernel (numba) mid-call comes back as a
    ``SystemError`` whose context is that exception.

    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt:
    ...         raise SystemError("a kernel returned a result with an exception set")
    ... except SystemError as error:
    ...     cause_of(error, KeyboardInterrupt)
    KeyboardInterrupt()
    """
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, kinds):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


def with_notes(message: str, error: BaseException) -> str:
    """``message`` followed by the notes added to ``error`` on its way up (what run
    a stopped command can be resumed from, say).

    >>> error = KeyboardInterrupt()
    >>> error.add_note("run r3 in runs.sqlite: --resume r3 goes on")
    >>> with_notes("interrupted", error)
    'interrupted (run r3 in runs.sqlite: --resume r3 goes on)'
    """
    notes = getattr(error, "__notes__", None)
    return f"{message} ({'; '.join(notes)})" if notes else message


def counted(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1, for messages.

    >>> counted(1, "mine"), counted(3, "board")
    ('1 mine', '3 boards')
    """
    return f"{n} {word}{'' if n == 1 else 's'}"


def percent(chance: SupportsFloat) -> str:
    """A chance for people, to one decimal, but never a possible event shown as 0% or
    a risky one as 100%: those get the digits that tell them apart.

    >>> percent(1 / 3), percent(7999 / 8000), percent(1), percent(0)
    ('33.3%', '99.99%', '100.0%', '0.0%')
    """
    x = float(chance)
    digits = 1
    while 0 < x < 1 and f"{x:.{digits}%}" in (f"{0:.{digits}%}", f"{1:.{digits}%}") \
            and digits < 12:
        digits += 1
    return f"{x:.{digits}%}"


def printable(text: str, limit: int = 60) -> str:
    """``text`` from a file, safe to print: characters that are not printable (an
    escape sequence that would drive the terminal, a newline) written as escapes, and
    cut to about ``limit`` characters.

    >>> printable("Arbiter")
    'Arbiter'
    >>> print(printable("soft\\x1b[5mBLINK"))
    soft\\x1b[5mBLINK
    """
    shown = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text[:limit])
    return shown if len(text) <= limit else f"{shown}... ({len(text)} characters)"


def quote(value: object, limit: int = 60) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters so a
    huge input is named, not echoed.

    >>> quote("expert")
    "'expert'"
    >>> quote("9" * 100, limit=10)
    "'999999999'... (100 characters)"
    >>> quote("\\x00" * 100, limit=10)  # escapes count as what they print
    "'\\\\x00\\\\x00'... (100 characters)"
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit and (not isinstance(value, str) or len(repr(value)) <= 4 * limit):
        return repr(value) if isinstance(value, str) else text
    if not isinstance(value, str):
        return f"{text[:limit]}... ({len(text)} characters)"
    # the longest start whose repr fits the limit (a NUL prints as four characters)
    low, high = 0, min(len(text), limit - 1)
    while low < high:
        mid = (low + high + 1) // 2
        if len(repr(text[:mid])) <= limit + 1:
            low = mid
        else:
            high = mid - 1
    return f"{text[:low]!r}... ({len(text)} characters)"


def shorten(message: str, limit: int = 200) -> str:
    """``message`` on one line (runs of white space become one space), any word longer
    than ``limit`` cut to its two ends: an error names a 5,000-digit input, not echoes
    it, and a long path keeps its file name.  Both faces apply it to every message.

    >>> shorten("bad seed:\\n " + "1" + "0" * 300)
    'bad seed: 1000000000...0000000000 (301 characters)'
    """
    return " ".join(
        word if len(word) <= limit else f"{word[:10]}...{word[-10:]} ({len(word)} characters)"
        for word in str(message).split()
    )


class MinesolverError(Exception):
    """Base of every error minesolver raises on purpose.

    Subclasses take the message first and any extra fields as keywords; the
    fields are kept through pickling.
    """

    def __init__(self, message: str, **fields: Any) -> None:
        super().__init__(message)
        for name, value in fields.items():
            setattr(self, name, value)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), str(self), dict(self.__dict__)))


def _rebuild(cls: type[MinesolverError], message: str, fields: dict[str, Any]) -> Exception:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    error.__dict__.update(fields)
    return error


class InputError(MinesolverError, ValueError):
    """Input that cannot be used (the user's to fix)."""


class OffBoardError(InputError, IndexError):
    """A cell given by ``(row, col)`` that is not on the board."""


class OptionError(InputError):
    """An unknown name (strategy, player, noise model) or an option it does not take."""


class InconsistentPositionError(InputError):
    """No layout of mines agrees with the position.

    ``clue`` is the ``(row, col)`` of a revealed number involved, when there is one.
    """

    clue: tuple[int, int] | None

    def __init__(self, message: str, clue: tuple[int, int] | None = None) -> None:
        super().__init__(message, clue=clue)


class IllegalMoveError(MinesolverError, ValueError):
    """A move the game cannot take in its current state."""


class GameOverError(IllegalMoveError):
    """A move after the game has ended."""


class LimitError(MinesolverError):
    """The work needs more memory or time than allowed (``limit`` names which)."""


class EngineLimitError(LimitError):
    """A position whose exact count would need more memory than the engine allows.

    Counting is exponential in the *width* of a front (the clues open at once
    along it); real games keep it small, but clues scattered over a large board
    need not.  The error names the front and its width instead of exhausting
    memory.
    """
