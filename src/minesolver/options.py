"""Options written after a name: ``best:endgame=off,cutoff=0.8``.

Strategies and Flags players take their options this way (so each idea can be
switched off from the command line to measure it).  The options are the class's
keyword-only ``__init__`` parameters; a value is converted to the type of the
parameter's default (booleans take on/off, true/false, 1/0, yes/no).

>>> class Demo:
...     def __init__(self, *, depth: int = 2, fast: bool = True) -> None: ...
>>> parse_options(Demo, "depth=3, fast=off", error=ValueError, what="demo")
{'depth': 3, 'fast': False}
"""

from __future__ import annotations

import inspect

__all__ = ["parse_options"]

_TRUE = ("on", "true", "1", "yes")
_FALSE = ("off", "false", "0", "no")


def parse_options(
    cls: type, text: str, *, error: type[ValueError], what: str
) -> dict[str, object]:
    """Keyword arguments for ``cls`` from ``key=value`` items separated by commas.

    Unknown keys, missing values and unconvertible values raise ``error`` with a
    message that starts with ``what`` (e.g. ``"strategy best"``).
    """
    params = {
        p.name: p.default
        for p in inspect.signature(cls).parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }
    out: dict[str, object] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, sep, value = (part.strip() for part in item.partition("="))
        if key not in params:
            known = ", ".join(params) or "none"
            raise error(f"{what} has no option {key!r} (options: {known})")
        if not sep:
            raise error(f"option {key!r} of {what} needs a value: {key}=...")
        default = params[key]
        try:
            if isinstance(default, bool):
                lowered = value.lower()
                if lowered not in _TRUE + _FALSE:
                    raise ValueError(value)
                out[key] = lowered in _TRUE
            elif isinstance(default, int):
                out[key] = int(value)
            elif isinstance(default, float):
                out[key] = float(value)
            else:
                out[key] = value
        except ValueError:
            raise error(
                f"option {key}={value!r} of {what}: expected {type(default).__name__}"
            ) from None
    return out
