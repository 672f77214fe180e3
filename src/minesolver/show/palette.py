"""The one palette: number colours and mine-probability scales, for the terminal,
images and the web page alike.

Two probability scales: ``heat`` (green, safe, through yellow to red, mine) and
``colour-blind`` (dark blue through teal to yellow, after *cividis*: readable
with every common colour-vision deficiency and in grey scale).  Both spread the
low probabilities, where the interesting choices are, with a square root.

>>> NUMBER_RGB[1], hex_colour(heat(0.0)), hex_colour(heat(1.0))
((26, 63, 196), '#25d425', '#d42525')
>>> len(scale_table("colour-blind"))
101
"""

from __future__ import annotations

import colorsys
import math
from typing import Literal

__all__ = [
    "NUMBER_RGB",
    "RGB",
    "SCALES",
    "Scale",
    "heat",
    "hex_colour",
    "probability_rgb",
    "scale_table",
]

RGB = tuple[int, int, int]
Scale = Literal["heat", "colour-blind"]
SCALES: tuple[Scale, ...] = ("heat", "colour-blind")

# the classic colours of the numbers 1 to 8 (0 is never drawn)
NUMBER_RGB: dict[int, RGB] = {
    1: (26, 63, 196),
    2: (25, 128, 58),
    3: (198, 32, 32),
    4: (26, 26, 122),
    5: (122, 26, 26),
    6: (20, 122, 122),
    7: (17, 17, 17),
    8: (110, 110, 110),
}

# cividis at eleven stops (dark blue to yellow)
_CIVIDIS: tuple[RGB, ...] = (
    (0, 34, 78), (18, 53, 112), (59, 73, 108), (87, 92, 109), (112, 113, 115),
    (138, 134, 120), (165, 156, 116), (193, 180, 105), (222, 205, 88), (253, 231, 55),
    (253, 234, 69),
)


def heat(p: float) -> RGB:
    """Green (safe) through yellow to red (mine)."""
    p = min(1.0, max(0.0, p))
    hue = (1.0 - math.sqrt(p)) / 3.0  # 120 degrees to 0
    r, g, b = colorsys.hls_to_rgb(hue, 0.49, 0.70)
    return (round(r * 255), round(g * 255), round(b * 255))


def _cividis(p: float) -> RGB:
    x = math.sqrt(min(1.0, max(0.0, p))) * (len(_CIVIDIS) - 2)
    k = min(int(x), len(_CIVIDIS) - 2)
    t = x - k
    a, b = _CIVIDIS[k], _CIVIDIS[k + 1]
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def probability_rgb(p: float, scale: Scale = "heat") -> RGB:
    """The colour of mine probability ``p`` on ``scale``."""
    return _cividis(p) if scale == "colour-blind" else heat(p)


def hex_colour(rgb: RGB) -> str:
    """``#rrggbb``."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def scale_table(scale: Scale = "heat") -> list[str]:
    """The scale at p = 0, 0.01, ..., 1 as ``#rrggbb`` (what the web page draws with)."""
    return [hex_colour(probability_rgb(k / 100, scale)) for k in range(101)]
