"""Pictures of boards (Pillow): a frame per step, and animated GIFs of a solve.

Covered cells are tinted by their mine probability (:mod:`.palette`: green safe to
red mine), the cell just opened is outlined, numbers use the classic colours.

>>> from minesolver.position import Position
>>> image = board_image(Position.from_text("2x1x1\\n1H\\n"))
>>> image.size
(40, 20)
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw, ImageFont

from ..analysis import Analysis
from ..codes import COVERED, FLAG, MINE, is_open
from ..position import Position
from .palette import NUMBER_RGB, heat

__all__ = ["board_image", "gif_bytes"]

def board_image(
    position: Position,
    analysis: Analysis | None = None,
    *,
    cell: int = 20,
    highlight: Collection[tuple[int, int]] = (),
    mines: Collection[int] = (),
    caption: str = "",
) -> Image.Image:
    """Draw a position; with an analysis, covered cells show their mine probability."""
    w, h = position.width, position.height
    extra = 14 if caption else 0
    image = Image.new("RGB", (w * cell, h * cell + extra), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    prob = analysis.prob if analysis is not None else None
    shown = set(mines)
    for r in range(h):
        for c in range(w):
            i = r * w + c
            code = position.cells[i]
            x0, y0 = c * cell, r * cell
            box = (x0, y0, x0 + cell - 1, y0 + cell - 1)
            if is_open(code):
                draw.rectangle(box, fill=(225, 225, 225), outline=(190, 190, 190))
                if 1 <= code <= 8:
                    _centered(draw, box, str(code), NUMBER_RGB[code], font)
            elif code in (FLAG, MINE):
                draw.rectangle(box, fill=(150, 150, 160), outline=(110, 110, 120))
                _centered(draw, box, "F", (200, 0, 0), font)
            elif i in shown:
                draw.rectangle(box, fill=(220, 40, 40), outline=(110, 110, 120))
                _centered(draw, box, "*", (0, 0, 0), font)
            elif prob is not None and code == COVERED:
                draw.rectangle(box, fill=heat(float(prob[r, c])), outline=(110, 110, 120))
            else:
                draw.rectangle(box, fill=(160, 160, 170), outline=(110, 110, 120))
    for r, c in highlight:
        x0, y0 = c * cell, r * cell
        draw.rectangle((x0, y0, x0 + cell - 1, y0 + cell - 1), outline=(0, 0, 255), width=2)
    if caption:
        draw.text((3, h * cell + 1), caption, fill=(0, 0, 0), font=font)
    return image


def _centered(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    text: str,
    fill: tuple[int, int, int],
    font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
) -> None:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    x = (box[0] + box[2] - (right - left)) / 2
    y = (box[1] + box[3] - (bottom - top)) / 2 - top
    draw.text((x, y), text, fill=fill, font=font)


def gif_bytes(frames: Sequence[Image.Image], *, ms_per_frame: int = 300) -> bytes:
    """Frames as an animated GIF that loops; the last frame lingers."""
    if not frames:
        raise ValueError("no frames to write")
    durations = [ms_per_frame] * (len(frames) - 1) + [ms_per_frame * 6]
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=list(frames[1:]),
        duration=durations,
        loop=0,
        optimize=False,
    )
    return out.getvalue()
