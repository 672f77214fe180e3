"""Sweep points and tables: densities read and limited, one Rules per point, the CSV."""

from __future__ import annotations

import csv
import io

import pytest

from minesolver.bench import GameRow, RunSpec, wilson
from minesolver.bench.sweep import (
    COLUMNS,
    density_points,
    parse_densities,
    plot_sweep,
    sweep_table,
    write_csv,
)
from minesolver.noise import NoiseModel
from minesolver.rules import Rules, RulesError

# ---------------------------------------------------------------------- points


def test_parse_densities():
    assert parse_densities("0.1,0.15, 0.3") == [0.1, 0.15, 0.3]
    assert parse_densities("0.10:0.30:0.05") == [0.1, 0.15, 0.2, 0.25, 0.3]  # stop included
    assert parse_densities(" 0.2:0.2:0.1 ") == [0.2]


@pytest.mark.parametrize(
    ("text", "needle"),
    [("", "between 0 and 1"), ("0.1,1.5", "between 0 and 1"), ("0", "between 0 and 1"),
     ("a,b", "cannot read densities"), ("0.1:0.3", "cannot read densities"),
     ("0.1:0.3:0", "step must be positive"), ("0.1:0.3:-0.1", "step must be positive"),
     ("0.5:0.1:0.1", "a range runs up"),
     ("nan", "between 0 and 1"), ("0.1:nan:0.1", "between 0 and 1"),
     ("0.001:0.999:0.001", "makes 999 densities: at most 200"),
     (",".join(["0.5"] * 201), "201 densities: at most 200")],
)
def test_bad_densities(text, needle):
    with pytest.raises(RulesError, match=needle):
        parse_densities(text)


def test_density_points_round_and_deduplicate():
    points = density_points(10, 10, [0.1, 0.104, 0.2], ["safe", "none"])
    # 0.104 rounds to the same 10 mines as 0.1: one point, not two
    assert points == (
        Rules(10, 10, 10), Rules(10, 10, 20),
        Rules(10, 10, 10, first_click="none"), Rules(10, 10, 20, first_click="none"),
    )
    assert density_points(3, 3, [0.01], ["safe"]) == (Rules(3, 3, 1),)  # at least one
    with pytest.raises(RulesError):
        density_points(3, 3, [0.99], ["opening"])  # no room left for an opening


def test_density_points_per_noise_model():
    points = density_points(8, 8, [0.1, 0.2], ["safe"], [None, NoiseModel("cautious")])
    assert points == (
        Rules(8, 8, 6), Rules(8, 8, 13),
        Rules(8, 8, 6, noise="cautious"), Rules(8, 8, 13, noise="cautious"),
    )
    assert all(isinstance(p.noise, NoiseModel | None) for p in points)


# ---------------------------------------------------------------------- the table


def row(strategy, index, won, *, rules="5x5x5", guesses=1):
    return GameRow("r1", strategy, index, index, rules, "safe", "corner", won, 3, guesses, 5,
                   0.01, 20 if won else 10, 20, "0")


def test_sweep_table_has_a_row_per_strategy_and_point():
    spec = RunSpec(points=(Rules(5, 5, 5), Rules(5, 5, 8, noise="optimistic")),
                   strategies=("tank", "best"), games=2, seed=1)
    rows = [row("tank", 0, True), row("tank", 1, False), row("tank", 2, True),
            row("tank", 3, True), row("best", 0, True), row("best", 2, False, guesses=0)]
    table = sweep_table(spec, rows)
    assert [(r["strategy"], r["mines"], r["noise"], r["games"], r["wins"]) for r in table] == [
        ("tank", 5, "none", 2, 1), ("tank", 8, "optimistic", 2, 2),
        ("best", 5, "none", 1, 1), ("best", 8, "optimistic", 1, 0),
    ]
    assert all(list(r) == COLUMNS for r in table)
    assert table[1]["density"] == 8 / 25
    assert (table[1]["ci_lo"], table[1]["ci_hi"]) == pytest.approx(wilson(2, 2))
    assert table[3]["needs_guess"] == 0.0 and table[3]["open_rate"] == 0.5


def test_write_csv_writes_to_an_open_file():
    spec = RunSpec(points=(Rules(5, 5, 5),), strategies=("tank",), games=2, seed=1)
    table = sweep_table(spec, [row("tank", 0, True), row("tank", 1, False)])
    out = io.StringIO()
    write_csv(table, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == ",".join(COLUMNS)
    read = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [(r["strategy"], r["mines"], r["wins"], r["games"]) for r in read] == [
        ("tank", "5", "1", "2")
    ]
    assert float(read[0]["win_rate"]) == 0.5


def test_the_plot_of_a_stopped_sweep_leaves_out_the_points_with_no_game(tmp_path):
    # report could already show such a sweep; its plot failed on the missing figures
    spec = RunSpec(points=(Rules(5, 5, 5), Rules(5, 5, 8)), strategies=("tank",), games=2,
                   seed=1)
    table = sweep_table(spec, [row("tank", 0, True), row("tank", 1, False)])
    assert table[1]["games"] == 0 and table[1]["win_rate"] is None
    table[0]["open_rate"] = None  # no game opened enough of the board to count
    path = tmp_path / "sweep.png"
    plot_sweep(table, path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
