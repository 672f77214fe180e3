"""No-guess boards: solvable by deduction alone, checked by solvers that share no code with
minesolver's, reproducible everywhere, uniform among no-guess boards.

* small boards: a deduction loop on the brute-force oracle (every layout listed);
* larger boards: a deduction loop on ms-toollib's own probability engine (a port of
  JSMinesweeper's, counting the mines left as minesolver does), and ms-toollib's
  ``is_solvable`` (which ignores the mine counter: it accepts the boards that need no
  counting, and the share it accepts is reported in docs/players.md);
* the exact engine with no guessing allowed: ``best`` plays them without a guess.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
from support import run_cli

from minesolver.analysis import brute_force
from minesolver.codes import COVERED
from minesolver.game import Game, random_layout
from minesolver.minefield import Layout
from minesolver.noguess import MAX_TRIES, NoGuessError, no_guess_layout, solvable
from minesolver.play import play_game
from minesolver.rules import Rules, RulesError
from minesolver.strategies import find_strategy


def oracle_solvable(layout: Layout, first: int) -> bool:
    """Open ``first``, then every cell the brute-force oracle proves safe, until stuck."""
    game = Game.from_layout(layout)
    game.reveal(*layout.grid.coords(first))
    while not game.is_over:
        position = game.position()
        _, probs = brute_force(position)
        safe = [i for i, p in enumerate(probs) if position.cells[i] == COVERED and p == 0]
        if not safe:
            return False
        for i in safe:
            if not game.is_over:
                game.reveal(*position.coords(i))
    return game.is_won


@pytest.mark.parametrize(
    ("rules", "start"),
    [
        (Rules(5, 5, 4, no_guess=True), (0, 0)),
        (Rules(5, 4, 5, first_click="opening", no_guess=True), (1, 1)),
        (Rules(6, 4, 6, first_click="opening", no_guess=True), (2, 3)),
    ],
)
def test_small_boards_are_solved_by_the_brute_force_oracle(rules, start):
    first = start[0] * rules.width + start[1]
    plain = rules.with_no_guess(False)
    guessy = 0
    for seed in range(40):
        layout = no_guess_layout(rules, seed, first)
        assert oracle_solvable(layout, first), (seed, layout)
        guessy += not oracle_solvable(random_layout(plain, seed, first), first)
    assert guessy > 0  # the test can tell: ordinary boards of these seeds need guesses


def toolkit_board(layout):
    ms = pytest.importorskip("ms_toollib")
    w, mines = layout.width, set(layout.mines)
    rows = [[-1 if r * w + c in mines else 0 for c in range(w)] for r in range(layout.height)]
    return ms.cal_board_numbers(rows)


def toolkit_solvable(board, mines, row, col):
    """Open (row, col), then every cell ms-toollib's probability engine calls certainly
    safe (probability exactly 0, the mine count given), until stuck."""
    import ms_toollib as ms

    h, w = len(board), len(board[0])
    seen = [[10] * w for _ in range(h)]  # ms-toollib's code of a covered cell

    def open_cell(r, c):
        stack = [(r, c)]
        while stack:
            r, c = stack.pop()
            if seen[r][c] != 10:
                continue
            assert board[r][c] != -1, "a cell called safe held a mine"
            seen[r][c] = board[r][c]
            if board[r][c] == 0:
                stack += [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                          if 0 <= r + dr < h and 0 <= c + dc < w]

    open_cell(row, col)
    while any(seen[r][c] == 10 and board[r][c] != -1 for r in range(h) for c in range(w)):
        prob, _ = ms.cal_probability_onboard(seen, mines)
        safe = [(r, c) for r in range(h) for c in range(w) if seen[r][c] == 10 and prob[r][c] == 0]
        if not safe:
            return False
        for r, c in safe:
            open_cell(r, c)
    return True


@pytest.mark.parametrize(
    ("rules", "start", "games"),
    [
        (Rules(9, 9, 10, no_guess=True), (0, 0), 40),
        (Rules(16, 16, 40, first_click="opening", no_guess=True), (8, 8), 25),
        (Rules(30, 16, 99, no_guess=True), (0, 0), 12),
    ],
)
def test_boards_are_solved_by_ms_toollib(rules, start, games):
    import_ms = pytest.importorskip("ms_toollib")
    first = start[0] * rules.width + start[1]
    counted = 0
    for seed in range(games):
        layout = no_guess_layout(rules, seed, first)
        board = toolkit_board(layout)
        assert toolkit_solvable(board, rules.mines, *start), (rules, seed)
        counted += not import_ms.is_solvable(board, *start)  # needed the mine counter
    assert counted < games  # most need no counting at all


def test_best_plays_them_without_a_guess():
    for rules, start in [(Rules(30, 16, 99, no_guess=True), "corner"),
                         (Rules(16, 16, 40, first_click="opening", no_guess=True), (8, 8))]:
        for seed in range(6):
            record = play_game(rules, find_strategy("best"), seed=seed, start=start)
            assert record.won and record.guesses == 0, (rules, seed)


def test_the_same_seed_gives_the_same_board_everywhere(tmp_path):
    rules = Rules(16, 16, 40, no_guess=True)
    layout = no_guess_layout(rules, 77, 0)
    assert layout == no_guess_layout(rules, 77, 0)
    game = Game(rules, seed=77, lay=no_guess_layout)
    game.reveal(0, 0)
    assert game.layout == layout
    record = play_game(rules, find_strategy("tank"), seed=77)
    assert record.layout == layout
    log = tmp_path / "game.jsonl"
    played = run_cli("play", "--rules", "16x16x40", "--no-guess", "--seed", "77", "--log",
                     str(log), "--json")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["no_guess"] is True
    mines = json.loads(log.read_text().splitlines()[-1])["mines"]
    assert Layout.from_cells(16, 16, [tuple(m) for m in mines]) == layout


def test_the_first_board_tried_is_the_ordinary_board_of_the_seed():
    rules = Rules(9, 9, 10, first_click="opening", no_guess=True)
    plain = rules.with_no_guess(False)
    same = sum(
        no_guess_layout(rules, seed, 40) == random_layout(plain, seed, 40)
        for seed in range(30)
        if solvable(random_layout(plain, seed, 40), 40)
    )
    assert same == sum(solvable(random_layout(plain, seed, 40), 40) for seed in range(30))


def test_boards_are_uniform_among_no_guess_boards():
    # every layout of a 4x4 board with 3 mines whose 2x2 corner is protected: the
    # generator must hit the no-guess ones, and only them, equally often
    rules = Rules(4, 4, 3, first_click="opening", no_guess=True)
    free = [i for i in range(16) if i not in (0, 1, 4, 5)]
    layouts = [Layout(4, 4, mines) for mines in combinations(free, 3)]
    good = {layout for layout in layouts if oracle_solvable(layout, 0)}
    assert 10 < len(good) < len(layouts)
    draws = 25 * len(good)
    seen = Counter(no_guess_layout(rules, seed, 0) for seed in range(draws))
    assert set(seen) == good
    expected = draws / len(good)
    chi2 = sum((seen[layout] - expected) ** 2 / expected for layout in good)
    df = len(good) - 1
    assert chi2 < df + 4 * (2 * df) ** 0.5  # far inside the chi-square's spread


def test_too_dense_says_so():
    rules = Rules(8, 8, 40, first_click="opening", no_guess=True)
    with pytest.raises(NoGuessError) as info:
        no_guess_layout(rules, 1, 0)
    message = str(info.value)
    assert f"in {MAX_TRIES} tries" in message and "ask for fewer mines" in message
    result = run_cli("play", "--rules", "8x8x40", "--no-guess", "--first-click", "opening")
    assert result.returncode == 2 and "ask for fewer mines" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_too_dense_suggests_only_what_the_rules_allow():
    # 3x3x1 from the middle: no opening first click can hold a mine there
    with pytest.raises(NoGuessError) as info:
        no_guess_layout(Rules(3, 3, 1, no_guess=True), 1, 4)
    assert "opening first click" not in str(info.value)
    assert "another first click" in str(info.value)
    with pytest.raises(NoGuessError) as info:
        no_guess_layout(Rules(9, 9, 70, no_guess=True), 1, 0)
    assert str(info.value).endswith("or an opening first click")


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [({"noise": "cautious"}, "exact clues"), ({"first_click": "none"}, "protected first click")],
)
def test_rules_that_cannot_be_no_guess(kwargs, needle):
    with pytest.raises(RulesError, match=needle):
        Rules(9, 9, 10, no_guess=True, **kwargs)


def test_a_game_refuses_no_guess_rules_without_a_layer():
    with pytest.raises(RulesError, match=r"minesolver\.noguess"):
        Game(Rules(9, 9, 10, no_guess=True), seed=1)


# ---------------------------------------------------------------------- bench and sweep
def test_bench_and_sweep_play_no_guess_boards_and_store_the_rule(tmp_path):
    from minesolver.bench import RunSpec, Store, layout_of

    db = tmp_path / "results.sqlite"
    result = run_cli("bench", "--rules", "beginner", "--no-guess", "--games", "12", "--seed",
                     "5", "--workers", "1", "--db", str(db), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["no_guess"] is True and data["wins"] == 12 and data["guesses_per_game"] == 0
    with Store(db) as store:
        _, spec = store.run_spec(data["run_id"])
        assert spec.rules.no_guess
        stored = list(store.games(data["run_id"]))
    assert all(json.loads(row.extra)["no_guess"] for row in stored)
    again = RunSpec.from_json(spec.to_json())
    assert layout_of(again, 3) == no_guess_layout(spec.rules, stored[3].seed, 0)
    sweep = run_cli("sweep", "--size", "9x9", "--densities", "0.1,0.15", "--no-guess",
                    "--games", "4", "--workers", "1", "--db", str(db), "--json",
                    "--csv", str(tmp_path / "s.csv"), "--plot", str(tmp_path / "s.png"))
    assert sweep.returncode == 0, sweep.stderr
    points = json.loads(sweep.stdout)["points"]
    assert all(p["no_guess"] and p["win_rate"] == 1.0 for p in points)


def test_a_bench_too_dense_for_no_guess_boards_stops_before_storing(tmp_path):
    db = tmp_path / "results.sqlite"
    result = run_cli("bench", "--rules", "8x8x40", "--first-click", "opening", "--no-guess",
                     "--games", "3", "--db", str(db))
    assert result.returncode == 2 and "ask for fewer mines" in result.stderr
    assert not db.exists()
