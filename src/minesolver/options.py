"""Options written after a name: ``best:endgame=off,cutoff=0.8``.

Strategies and Flags players take their options this way (so each idea can be
switched off from the command line to measure it).  The options are the class's
keyword-only ``__init__`` parameters; a value is converted to the type of the
parameter's default (booleans take on/off, true/false, 1/0, yes/no).  A number
must be finite, and lie in the :class:`Range` its annotation declares, if any:
the range is written once, beside the parameter, and every caller of the parser
(command line, web app) refuses the same values.

>>> from typing import Annotated
>>> class Demo:
...     def __init__(self, *, depth: Annotated[int, Range(1, 4)] = 2, fast: bool = True) -> None:
...         ...
>>> parse_options(Demo, "depth=3, fast=off", error=ValueError, what="demo")
{'depth': 3, 'fast': False}
>>> parse_options(Demo, "depth=0", error=ValueError, what="demo")
Traceback (most recent call last):
ValueError: option depth='0' of demo: expected 1 to 4
"""

from __future__ import annotations

import inspect
import math
import typing
from dataclasses import dataclass

from .errors import quote

__all__ = ["Range", "parse_options"]

_TRUE = ("on", "true", "1", "yes")
_FALSE = ("off", "false", "0", "no")
_MAX_DIGITS = 40  # a number longer than this is a typo or an attack, never an option


@dataclass(frozen=True)
class Range:
    """The values a numeric option may take, ``low`` to ``high`` inclusive.

    >>> Range(0, 1).allows(0.5), Range(1, None).allows(0)
    (True, False)
    >>> str(Range(1, None)), str(Range(0.0, 1.0))
    ('at least 1', '0.0 to 1.0')
    """

    low: float | None = None
    high: float | None = None

    def allows(self, value: float) -> bool:
        """Whether ``value`` lies in the range."""
        return (self.low is None or value >= self.low) and (
            self.high is None or value <= self.high
        )

    def __str__(self) -> str:
        if self.high is None:
            return f"at least {self.low}"
        if self.low is None:
            return f"at most {self.high}"
        return f"{self.low} to {self.high}"


def _ranges(cls: type) -> dict[str, Range]:
    """The :class:`Range` declared on each keyword option of ``cls``."""
    try:
        hints = typing.get_type_hints(cls.__init__, include_extras=True)  # type: ignore[misc]
    except (NameError, TypeError):  # annotations that cannot be evaluated: no ranges
        return {}
    out: dict[str, Range] = {}
    for name, hint in hints.items():
        for extra in getattr(hint, "__metadata__", ()):
            if isinstance(extra, Range):
                out[name] = extra
    return out


def parse_options(
    cls: type, text: str, *, error: type[ValueError], what: str
) -> dict[str, object]:
    """Keyword arguments for ``cls`` from ``key=value`` items separated by commas.

    Unknown keys, keys given twice, missing values, unconvertible values and values
    out of their range raise ``error`` with a message that starts with ``what`` (e.g.
    ``"strategy best"``).
    """
    params = {
        p.name: p.default
        for p in inspect.signature(cls).parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }
    ranges = _ranges(cls)
    out: dict[str, object] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, sep, value = (part.strip() for part in item.partition("="))
        if key not in params:
            known = ", ".join(params) or "none"
            raise error(f"{what} has no option {quote(key, 30)} (options: {known})")
        if not sep:
            raise error(f"option {key!r} of {what} needs a value: {key}=...")
        if key in out:
            raise error(f"option {key!r} of {what} is given twice")
        default = params[key]
        try:
            if isinstance(default, bool):
                lowered = value.lower()
                if lowered not in _TRUE + _FALSE:
                    raise ValueError(value)
                out[key] = lowered in _TRUE
            elif isinstance(default, int | float):
                if len(value) > _MAX_DIGITS:
                    raise ValueError(value)
                number = int(value) if isinstance(default, int) else float(value)
                if not math.isfinite(number):
                    raise ValueError(value)
                out[key] = number
            else:
                out[key] = value
        except ValueError:
            kind = "finite number" if isinstance(default, float) else type(default).__name__
            raise error(f"option {key}={quote(value, 30)} of {what}: expected {kind}") from None
        bound = ranges.get(key)
        if bound is not None and not bound.allows(out[key]):  # type: ignore[arg-type]
            raise error(f"option {key}={quote(value, 30)} of {what}: expected {bound}")
    return out
