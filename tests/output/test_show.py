"""Boards shown to people: terminal text, pictures and GIFs, and the one palette."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from minesolver.analysis import analyze
from minesolver.position import Position
from minesolver.show.image import board_image, gif_bytes
from minesolver.show.palette import (
    NUMBER_RGB,
    SCALES,
    heat,
    hex_colour,
    probability_rgb,
    scale_table,
)
from minesolver.show.terminal import board_text, probability_style

POSITION = Position.from_text("4x2x2\n1HF.\n12HH\n")


def test_board_text_without_an_analysis():
    text = board_text(POSITION)
    assert text.plain == "  1  #  F  -\n  1  2  #  #\n"
    assert board_text(Position.from_text("3x1x1\n01H\n")).plain == "  ·  1  #\n"
    assert board_text(POSITION, mines={1}).plain.startswith("  1  *  F")
    assert board_text(POSITION, highlight={(0, 1)}).plain == text.plain


def test_board_text_shows_probabilities_in_two_digits():
    position = Position.from_text("3x3x1\nHHH\nH1H\nHHH\n")
    plain = board_text(position, analyze(position)).plain
    assert plain.splitlines() == [" 12 12 12", " 12  1 12", " 12 12 12"]
    certain = Position.from_text("3x1x1\n1HH\n")
    assert board_text(certain, analyze(certain)).plain == "  1 ** ok\n"


def test_every_style_is_a_colour_of_the_palette():
    assert probability_style(0.0) == "black on rgb({},{},{})".format(*heat(0.0))


def test_board_image_size_and_colours():
    image = board_image(POSITION, cell=10, caption="hello")
    assert image.size == (40, 20 + 14)
    assert image.getpixel((15, 5)) == (160, 160, 170)  # covered, no analysis
    tinted = board_image(POSITION, analyze(POSITION), cell=10)
    assert tinted.size == (40, 20)
    assert tinted.getpixel((15, 5)) == heat(1.0)  # (0, 1) is certainly a mine: red
    assert tinted.getpixel((25, 15)) == heat(0.0)  # (1, 2) is certainly safe: green
    shown = board_image(POSITION, cell=10, mines={1})
    assert shown.getpixel((12, 2)) == (220, 40, 40)


def test_gif_bytes_is_a_looping_animation():
    frames = [board_image(POSITION), board_image(POSITION, mines={1})]
    data = gif_bytes(frames, ms_per_frame=100)
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "GIF" and image.is_animated and image.n_frames == 2
        assert image.info.get("loop") == 0
    with pytest.raises(ValueError, match="no frames"):
        gif_bytes([])


def test_the_palette():
    assert sorted(NUMBER_RGB) == list(range(1, 9))
    assert hex_colour((255, 0, 16)) == "#ff0010"
    for scale in SCALES:
        table = scale_table(scale)
        assert len(table) == 101 and all(len(c) == 7 and c[0] == "#" for c in table)
        assert table[0] == hex_colour(probability_rgb(0.0, scale))
        assert table[100] == hex_colour(probability_rgb(1.0, scale))
        assert len(set(table)) > 50  # a scale, not a few colours
    assert probability_rgb(0.3) == heat(0.3)
    assert heat(-1.0) == heat(0.0) and heat(2.0) == heat(1.0)
