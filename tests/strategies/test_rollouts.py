"""Rollouts (``best:rollouts=N``): playouts on layouts drawn exactly from the position.

A rollout value is an estimate of the chance of winning under the playout policy;
on small positions that chance is computed exactly here, by playing every
consistent layout out, and the estimate must agree with it within its noise.
"""

from __future__ import annotations

import math

import pytest
from support import best_game_positions, layouts_of, run_cli

from minesolver import Rules
from minesolver.analysis import analyze
from minesolver.codes import COVERED
from minesolver.minefield import HIDDEN, OPEN, Layout, Minefield
from minesolver.play import play_game
from minesolver.position import Position
from minesolver.rng import SplitMix64
from minesolver.strategies.best import Best
from minesolver.strategies.rollouts import playout, rollout_values

pytestmark = pytest.mark.usefixtures("compiled_kernels")


def exact_policy_wins(position: Position, cell: int, policy: Best | None = None) -> float:
    """The exact chance that opening ``cell`` and then the playout policy wins."""
    layouts = layouts_of(position)
    state = bytearray(OPEN if code <= 8 else HIDDEN for code in position.cells)
    won = 0
    for mines in layouts:
        if cell in mines:
            continue
        field = Minefield(Layout(position.width, position.height, tuple(mines)), bytearray(state))
        if policy is not None:
            policy.new_game(Rules(position.width, position.height, position.mines), 0)
        won += playout(position, field, cell, policy)
    return won / len(layouts)


POSITIONS = [
    "5x4x4\n11HHH\nH2HHH\nHHHHH\nHHHHH\n",
    "6x3x3\n01HHHH\n12HHHH\nHHHHHH\n",
    "6x3x3\n001HHH\n012HHH\n01HHHH\n",
    "4x4x3\n1HHH\nHHHH\nHHHH\nHHH1\n",
]


@pytest.mark.parametrize("text,player", [(t, "safest") for t in POSITIONS] + [
    (POSITIONS[1], "best"), (POSITIONS[3], "best"),
])
def test_rollout_values_estimate_the_exact_playout_win_chance(text, player):
    position = Position.from_text(text)
    analysis = analyze(position)
    cells = [i for i, code in enumerate(position.cells) if code == COVERED][:5]
    draws = 1500 if player == "safest" else 300
    policy = Best() if player == "best" else None
    values = rollout_values(position, cells, draws, SplitMix64(7), policy=policy)
    for value in values:
        exact = exact_policy_wins(position, value.cell, policy)
        # the safety is exact: only the share won after surviving is estimated
        assert value.safety == pytest.approx(1 - float(analysis.prob[position.coords(value.cell)]))
        assert value.played <= draws
        if value.played:
            p = exact / value.safety  # the chance of winning once the cell is safe
            noise = value.safety * math.sqrt(max(p * (1 - p), 1e-4) / value.played)
            assert abs(value.value - exact) <= 4.5 * noise + 1e-12, (value, exact)
        else:
            assert value.safety == 0 and exact == 0


def test_a_certain_mine_is_worth_nothing_and_a_solved_board_everything():
    position = Position.from_text("3x1x1\n1HH\n")  # (0, 1) is the mine
    mine, safe = rollout_values(position, [1, 2], 16, SplitMix64(3))
    assert (mine.value, mine.played) == (0.0, 0)
    assert (safe.value, safe.won, safe.played) == (1.0, 16, 16)


def test_a_playout_loses_on_a_mine_and_wins_a_board_that_needs_no_guess():
    position = Position.covered(4, 1, 1)
    layout = Layout(4, 1, (3,))
    assert playout(position, Minefield(layout), 3) is False
    assert playout(position, Minefield(layout), 0) is True  # 0 floods to 0,1,2 and wins


def best_guesses(rules: str, seed: int, games: int) -> list[Position]:
    """Positions where ``best`` guesses by its lookahead in seeded games."""
    return [p for p, move in best_game_positions(rules, seed, games) if move.reason == "guess"]


@pytest.mark.parametrize("rules,seed,games", [("beginner", 5, 20), ("intermediate", 9, 6)])
def test_rollouts_only_settle_the_lookaheads_near_ties(rules, seed, games):
    changed = 0
    seen = 0
    for position in best_guesses(rules, seed, games):
        plain, rolled = Best(), Best(rollouts=24)
        for s in (plain, rolled):
            s.new_game(Rules.from_string(rules), seed)
        ours = rolled.moves(position)[0]
        theirs = plain.moves(position)[0]
        seen += 1
        if ours.cell == theirs.cell:
            continue
        changed += 1
        # the rollouts' pick scores within the margin of the lookahead's
        analysis = analyze(position)
        scored = {c.cell: c for c in plain._candidates(position, analysis)}
        pick, lookahead_pick = (scored[position.index(*m.cell)] for m in (ours, theirs))
        for cand in (pick, lookahead_pick):
            plain._score(plain.analysis_engine, cand, None)
        assert ours.reason == "guess"
        assert pick.score >= lookahead_pick.score * (1 - rolled.rollout_margin) - 1e-9
    assert seen >= 8 and changed > 0, (seen, changed)  # else nothing was tested


@pytest.mark.parametrize("player", ["safest", "best"])
def test_rollout_games_are_legal_and_repeat_for_a_seed(player):
    rules = Rules.from_string("intermediate")
    first = play_game(rules, Best(rollouts=8, rollout_policy=player), seed=4)
    again = play_game(rules, Best(rollouts=8, rollout_policy=player), seed=4)
    assert first.won == again.won and first.clicks == again.clicks
    assert first.opened > 0


def test_an_unknown_rollout_policy_is_refused():
    from minesolver.strategies.base import StrategyError, find_strategy

    with pytest.raises(StrategyError, match="rollout_policy must be safest or best"):
        find_strategy("best:rollout_policy=tank")


@pytest.mark.parametrize("option,message", [
    ("rollout_policy=tank", "rollout_policy must be safest or best, not 'tank'"),
    ("rollout_top=1", "option rollout_top='1' of strategy best: expected 2 to 16"),
    ("rollouts=-3", "option rollouts='-3' of strategy best"),
])
def test_the_cli_refuses_bad_rollout_options_in_one_line(option, message):
    result = run_cli("play", "--rules", "beginner", "--strategy", f"best:{option}")
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_the_cli_plays_a_game_with_rollouts():
    result = run_cli("play", "--rules", "beginner", "--seed", "3", "--strategy",
                     "best:rollouts=8,rollout_policy=best")
    assert result.returncode == 0, result.stderr


def test_the_lookaheads_pick_is_always_among_the_played_out():
    # the lookahead treats scores within 1e-12 as equal and keeps the first: its pick
    # may score a hair below rivals, and must still be played out (not dropped by
    # rollout_top), as a game once found
    from minesolver.strategies.best import _Scored

    position = Position.from_text("5x4x4\n11HHH\nH2HHH\nHHHHH\nHHHHH\n")
    cells = [i for i, code in enumerate(position.cells) if code == COVERED][:5]
    chosen = _Scored(cells[0], 0.8, 0.5)
    rivals = [_Scored(c, 0.8, 0.5 + 1e-15) for c in cells[1:]]
    strategy = Best(rollouts=8, rollout_top=2)
    strategy.new_game(Rules(5, 4, 4), 1)
    pick = strategy._rollout(position, [chosen, *rivals], chosen)
    assert pick in (chosen, rivals[0])


def test_a_policy_that_opens_nothing_loses_its_playout_instead_of_looping():
    from minesolver.strategies.base import Move, Strategy

    class Stuck(Strategy):
        name = "stuck"

        def moves(self, position):
            return [Move((0, 0), reason="guess", probability=0.0)]  # already open

    position = Position.from_text("4x2x1\n1HHH\nHHHH\n")
    field = Minefield(Layout(4, 2, (1,)), bytearray([OPEN, HIDDEN, HIDDEN, HIDDEN] + [HIDDEN] * 4))
    stuck = Stuck()
    stuck.new_game(Rules(4, 2, 1), 0)
    assert playout(position, field, 3, stuck) is False
