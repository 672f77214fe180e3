"""``minesolver sweep``: win rate against density and first-click rule, as CSV and PNG."""

from __future__ import annotations

import csv
import json
import sqlite3

import pytest
from PIL import Image
from support import assert_one_error_line, run_cli

from minesolver.bench import Store, layout_of, wilson
from minesolver.bench.sweep import COLUMNS
from minesolver.game import random_layout
from minesolver.rules import Rules


def sweep(tmp_path, *args, name="sweep", db="results.sqlite"):
    csv_path, png = tmp_path / f"{name}.csv", tmp_path / f"{name}.png"
    result = run_cli("sweep", "--json", "--db", str(tmp_path / db), "--csv", str(csv_path),
                     "--plot", str(png), *args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), csv_path, png


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def untimed(table):
    return [{k: v for k, v in row.items() if k != "ms_per_game_mean"} for row in table]


ARGS = ("--size", "6x5", "--densities", "0.1:0.2:0.05", "--first-click", "safe",
        "--first-click", "none", "--games", "8", "--strategy", "tank", "--strategy", "random",
        "--seed", "4")


# ---------------------------------------------------------------------- the command


def test_sweep_writes_csv_and_png_from_the_stored_games(tmp_path):
    data, csv_path, png = sweep(tmp_path, *ARGS, "--workers", "2")
    table = read_csv(csv_path)
    assert list(table[0]) == COLUMNS
    # 6x5 board: densities 0.1, 0.15, 0.2 -> 3, 4 (4.5 rounds to even), 6 mines
    mines = [3, 4, 6]
    expected = [(s, fc, m) for s in ("tank", "random") for fc in ("safe", "none") for m in mines]
    assert [(r["strategy"], r["first_click"], int(r["mines"])) for r in table] == expected
    with sqlite3.connect(str(tmp_path / "results.sqlite")) as con:
        stored = con.execute(
            "SELECT strategy, game_index, rules, first_click, won FROM games"
        ).fetchall()
    assert len(stored) == 2 * 6 * 8
    for k, row in enumerate(table):
        point = k % 6
        games = [g for g in stored if g[0] == row["strategy"] and g[1] // 8 == point]
        assert len(games) == 8 == int(row["games"])
        assert {(g[2], g[3]) for g in games} == {(f"6x5x{row['mines']}", row["first_click"])}
        wins = sum(g[4] for g in games)
        assert int(row["wins"]) == wins
        assert float(row["win_rate"]) == pytest.approx(wins / 8)
        assert (float(row["ci_lo"]), float(row["ci_hi"])) == pytest.approx(wilson(wins, 8))
        assert float(row["density"]) == pytest.approx(int(row["mines"]) / 30)
        assert (row["width"], row["height"], row["noise"]) == ("6", "5", "none")
        if row["first_click"] == "none":  # the unprotected first click is a guess
            assert float(row["needs_guess"]) == 1.0
        assert 0 <= float(row["open_rate"]) <= 1
    # --json prints the same table
    assert data["run_id"] == "r1"
    assert (data["csv"], data["plot"]) == (str(csv_path), str(png))
    assert len(data["points"]) == len(table)
    for point, row in zip(data["points"], table, strict=True):
        assert point["wins"] == int(row["wins"])
        assert point["win_rate"] == pytest.approx(float(row["win_rate"]))
    with Image.open(png) as image:
        assert image.format == "PNG"
        assert image.size == (1320, 528)  # 12 x 4.8 inches at 110 dpi
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
        assert len(colours) > 10  # something was drawn
    # report reads the sweep back point by point, as it printed: never pooled
    db = str(tmp_path / "results.sqlite")
    reported = json.loads(run_cli("report", "--db", db, "--json").stdout)
    assert reported["kind"] == "sweep" and reported["points"] == data["points"]
    text = run_cli("report", "--db", db).stdout
    assert "r1 sweep" in text and "6x5 boards, 6 points of 8 games" in text
    for row in table:
        assert f"{row['first_click']:<8} 6x5x{row['mines']:<5}" in text


def test_human_output(tmp_path):
    result = run_cli("sweep", "--size", "5x5", "--densities", "0.2", "--games", "4",
                     "--strategy", "tank", "--db", str(tmp_path / "r.sqlite"), "--csv",
                     str(tmp_path / "s.csv"), "--plot", str(tmp_path / "s.png"), "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert "5x5x5" in result.stdout and "density 20.0%: win" in result.stdout
    assert f"wrote {tmp_path / 's.csv'} and {tmp_path / 's.png'}" in result.stdout
    assert result.stderr == ""


def test_rerunning_a_stopped_sweep_names_the_run_to_resume(tmp_path):
    db = tmp_path / "r.sqlite"
    args = ["--size", "5x5", "--densities", "0.2", "--games", "4", "--strategy", "tank",
            "--db", str(db), "--csv", str(tmp_path / "s.csv"), "--plot",
            str(tmp_path / "s.png"), "--workers", "1"]
    assert run_cli("sweep", *args).returncode == 0
    with sqlite3.connect(str(db)) as con:  # as if stopped after one game
        con.execute("DELETE FROM games WHERE game_index >= 1")
    again = run_cli("sweep", *args)
    assert again.returncode == 0, again.stderr
    assert again.stderr.strip() == (
        f"minesolver: note: run r1 in {db} asked the same and has 1 of 4 games; "
        "this starts a new run (--resume r1 continues that one)"
    )


def test_sweep_results_do_not_depend_on_workers(tmp_path):
    one, csv_one, _ = sweep(tmp_path, *ARGS, "--workers", "1", name="one")
    two, csv_two, _ = sweep(tmp_path, *ARGS, "--workers", "2", name="two")
    assert (one["run_id"], two["run_id"]) == ("r1", "r2")
    assert untimed(read_csv(csv_one)) == untimed(read_csv(csv_two))


def test_a_sweep_with_lost_games_resumes_to_the_same_table(tmp_path):
    _, csv_path, _ = sweep(tmp_path, *ARGS, "--workers", "2", name="first")
    before = untimed(read_csv(csv_path))
    db = tmp_path / "results.sqlite"
    with sqlite3.connect(str(db)) as con:  # as if the run had been killed
        con.execute("DELETE FROM games WHERE game_index % 3 = 1 OR game_index > 40")
        left = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    assert 0 < left < 96
    _, csv_path, _ = sweep(tmp_path, "--resume", "r1", "--workers", "2", name="resumed")
    assert untimed(read_csv(csv_path)) == before
    with sqlite3.connect(str(db)) as con:
        assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 96


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--size", "6by5"], ["cannot read board size '6by5'"]),
        (["--densities", "0.1,2"], ["strictly between 0 and 1"]),
        (["--densities", "x"], ["cannot read densities 'x'"]),
        (["--strategy", "nope"], ["unknown strategy 'nope'"]),
        (["--start", "9,9"], ["off the 6x5 board"]),
        (["--first-click", "maybe"], ["--first-click"]),
        (["--resume", "r3"], ["no results store at"]),
        (["--plot", "s.txt"], ["--plot s.txt: the file is written as .png", "name it s.png"]),
    ],
)
def test_user_errors_are_one_line(tmp_path, args, needles):
    result = run_cli("sweep", "--size", "6x5", "--densities", "0.2", "--games", "2", "--db",
                     str(tmp_path / "r.sqlite"), "--csv", str(tmp_path / "s.csv"), "--plot",
                     str(tmp_path / "s.png"), *args)
    assert_one_error_line(result, *needles)
    assert not (tmp_path / "s.csv").exists()
    assert not (tmp_path / "r.sqlite").exists()  # refused before the store is touched


def test_outputs_naming_one_file_are_refused(tmp_path):
    db = tmp_path / "r.sqlite"
    for csv_path, plot_path, named in ((db, tmp_path / "s.png", "--csv"),
                                       (tmp_path / "s.out", tmp_path / "s.out", "--plot")):
        result = run_cli("sweep", "--size", "6x5", "--densities", "0.2", "--games", "2",
                         "--db", str(db), "--csv", str(csv_path), "--plot", str(plot_path))
        assert_one_error_line(result, f"{named} ", "is the same file as")
    assert list(tmp_path.iterdir()) == []


def test_resume_compares_the_options_given_with_the_run(tmp_path):
    db = tmp_path / "r.sqlite"
    out = ["--db", str(db), "--csv", str(tmp_path / "s.csv"), "--plot", str(tmp_path / "s.png")]
    made = run_cli("sweep", "--size", "6x5", "--densities", "0.2,0.3", "--games", "2", *out)
    assert made.returncode == 0, made.stderr
    # the densities are read on the run's board when --size is left out
    same = run_cli("sweep", "--resume", "r1", "--densities", "0.2,0.3", *out)
    assert same.returncode == 0, same.stderr
    other = run_cli("sweep", "--resume", "r1", "--densities", "0.2,0.4", "--games", "2", *out)
    assert_one_error_line(other, "--densities (mines) 6, 12 (the run's: 6, 9): leave it out")


def test_resume_of_a_bench_is_refused(tmp_path):
    db = tmp_path / "r.sqlite"
    bench = run_cli("bench", "--rules", "5x5x3", "--games", "2", "--strategy", "tank", "--db",
                    str(db), "--workers", "1", "--json")
    assert bench.returncode == 0, bench.stderr
    result = run_cli("sweep", "--resume", "r1", "--db", str(db), "--csv",
                     str(tmp_path / "s.csv"), "--plot", str(tmp_path / "s.png"))
    assert_one_error_line(result, "run r1 is a bench run, not a sweep")


def test_points_are_paired_on_the_same_boards(tmp_path):
    """Every noise model plays the same layouts; both first-click rules play the same
    layout whenever it satisfies both (and each rule's protection always holds)."""
    sweep(tmp_path, "--size", "9x9", "--densities", "0.12,0.2", "--first-click", "safe",
          "--first-click", "opening", "--noise", "none", "--noise", "cautious",
          "--games", "12", "--strategy", "tank", "--seed", "8", "--start", "center",
          "--workers", "1")
    with Store(str(tmp_path / "results.sqlite")) as store:
        _, spec = store.run_spec("r1")
        seeds = {(r.game_index // 12, r.game_index % 12): r.seed for r in store.games("r1")}
    boards = {}
    for i in range(spec.total_games):
        rules = spec.rules_for(i)
        boards[(rules.noise_text, rules.first_click, rules.mines, i % 12)] = layout_of(spec, i)
    assert len({seed for (_, j), seed in seeds.items() if j == 3}) == 1
    centre = {r * 9 + c for r in (3, 4, 5) for c in (3, 4, 5)}
    shared = 0
    for (noise, first_click, mines, j), layout in boards.items():
        assert boards[("cautious" if noise is None else None, first_click, mines, j)] == layout
        if first_click == "opening":
            assert not centre & set(layout.mines)
            same = boards[(noise, "safe", mines, j)] == layout
            # the shared draw: this seed's board with no first-click rule at all
            drawn = random_layout(Rules(9, 9, mines, first_click="none"), seeds[(0, j)], 40)
            assert same == (not centre & set(drawn.mines))
            shared += same
        else:
            assert 40 not in layout.mines
    assert shared > 0


def test_report_says_when_a_point_has_fewer_games_than_asked(tmp_path):
    # a stopped sweep's point read like a finished one, but for its wider interval
    from minesolver import __version__
    from minesolver.bench import RunSpec, pending_jobs, run_jobs
    from minesolver.bench.sweep import density_points

    db = tmp_path / "r.sqlite"
    spec = RunSpec(points=tuple(density_points(6, 6, [0.1, 0.2, 0.3], ["safe"])),
                   strategies=("tank",), games=10, seed=3, extra={"paired": True})
    with Store(db) as store:
        run_id = store.new_run("sweep", spec, __version__)
        run_jobs(spec, run_id, store, list(pending_jobs(spec, set()))[:14], workers=1)
    result = run_cli("report", "--db", str(db))
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if "density" in line]
    assert len(lines) == 3
    assert "win" in lines[0] and "games)" not in lines[0]  # all 10
    assert "(4 of 10 games)" in lines[1]
    assert lines[2].endswith("no games yet (of 10)")
