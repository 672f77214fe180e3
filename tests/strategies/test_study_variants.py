"""The studies' variants: pure naive baselines, the capped depth-first search, tank
without the mine counter.

* ``dfs`` with a cap above the number of solutions gives the engine's exact
  probabilities; below it, an estimate that the rotation moves around;
* the baselines with ``engine=off`` decide from the cheap rules alone: their
  deductions are still safe, but they do open cells the engine proves to be mines;
* every guess is reported with its exact risk.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from support import consistent_positions

from minesolver.analysis import analyze
from minesolver.codes import COVERED
from minesolver.play import Step, play_game
from minesolver.position import Position
from minesolver.rules import BEGINNER, EXPERT, Rules
from minesolver.strategies import find_strategy
from minesolver.strategies.dfs import DepthFirst

PURE = [
    "random:deduce=trivial,engine=off",
    "random:deduce=subset,engine=off",
    "max-constraint:engine=off,subset=off",
    "mean-constraint:engine=off,subset=off",
    "max-constraint:engine=off",
    "mean-constraint:engine=off",
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(consistent_positions())
def test_an_uncapped_search_gives_the_exact_probabilities(position):
    strategy = DepthFirst(cap=10**9)
    estimate, complete = strategy.estimate(position)
    assert complete
    analysis = analyze(position)
    for i, p in estimate.items():
        assert p == float(analysis.probability(*position.coords(i))), (i, str(position))


def test_a_capped_search_is_biased_and_the_rotation_moves_the_bias():
    # the expert position of a seeded game with the longest front where a guess is
    # unavoidable
    strategy = find_strategy("tank")
    positions: list[tuple[int, Position]] = []

    def keep(step: Step) -> None:
        analysis = analyze(step.position)
        if step.index and not analysis.safe:
            front = sum(len(f.cells) for f in analysis.fronts)
            positions.append((front, step.position))

    play_game(EXPERT, strategy, seed=5, observer=keep)
    assert positions
    front, position = max(positions, key=lambda item: item[0])
    assert front >= 10
    exact = analyze(position)
    rotating = DepthFirst(cap=3)
    rotating.new_game(EXPERT, seed=1)
    starts = []
    for _ in range(6):
        estimate, complete = rotating.estimate(position)
        assert not complete
        zeros = {i for i, p in estimate.items() if p == 0.0}
        starts.append(frozenset(zeros))
        # cells the capped search calls safe that the engine does not
        assert any(exact.exact(i)[0] > 0 for i in zeros)
    assert len(set(starts)) > 1  # the bias falls on different cells as the start rotates


def test_the_cap_lifts_the_win_rate_towards_tank():
    rules = Rules(16, 16, 40)
    wins = {}
    for name in ("dfs:cap=1,rotate=off", "dfs:cap=100000"):
        strategy = find_strategy(name)
        wins[name] = sum(play_game(rules, strategy, seed=s).won for s in range(40))
    assert wins["dfs:cap=100000"] > wins["dfs:cap=1,rotate=off"]


def test_pure_baselines_decide_without_the_engine():
    """Their deductions are safe and their risks exact, yet some of their guesses are
    cells the engine proves to be mines: the engine took no part in choosing."""
    proven_mines_opened = 0
    for name in PURE:
        strategy = find_strategy(name)
        for seed in range(25):

            def check(step: Step) -> None:
                nonlocal proven_mines_opened
                if step.index == 0:
                    return
                analysis = analyze(step.position)
                for move in step.moves:
                    num, den = analysis.exact(step.position.index(*move.cell))
                    assert step.position.cells[step.position.index(*move.cell)] == COVERED
                    if move.reason == "deduction":
                        assert num == 0
                    else:
                        assert move.probability == num / den
                        proven_mines_opened += num == den

            play_game(BEGINNER, strategy, seed=seed, observer=check)
    assert proven_mines_opened > 0


def test_trivial_only_means_no_subset_rule():
    # the subset rule proves (1, 0) and (1, 3) safe here; the trivial rule does not
    position = Position.from_text("4x2x2\n1221\nHHHH\n")
    for name in ("max-constraint:engine=off,subset=off", "random:deduce=trivial,engine=off"):
        strategy = find_strategy(name)
        strategy.new_game(Rules(4, 2, 2), seed=1)
        assert all(m.reason == "guess" for m in strategy.moves(position))
    strategy = find_strategy("max-constraint:engine=off")
    strategy.new_game(Rules(4, 2, 2), seed=1)
    assert {m.cell for m in strategy.moves(position)} == {(1, 0), (1, 3)}


def test_tank_without_the_counter_plays_and_differs():
    rules = Rules(9, 9, 10)
    with_count = find_strategy("tank")
    without = find_strategy("tank:total=off")
    records = [(play_game(rules, with_count, seed=s), play_game(rules, without, seed=s))
               for s in range(30)]
    assert any(a.clicks != b.clicks or a.won != b.won for a, b in records)
    assert sum(b.won for _, b in records) > 0


def test_a_fixed_layout_is_played_under_the_rules_noise():
    """``bench --layouts`` with ``--noise``: the given board shows noisy numbers, as a
    seeded board would (it used to show exact ones while the record named the noise)."""
    rules = Rules(9, 9, 10, noise="cautious")
    seeded = play_game(rules, find_strategy("tank"), seed=3)
    again = play_game(rules, find_strategy("tank"), seed=3, layout=seeded.layout)
    assert again.final.to_text() == seeded.final.to_text()
    assert (again.won, again.clicks) == (seeded.won, seeded.clicks)


def test_a_game_played_without_the_measure_is_the_same_game():
    """``measure=False`` (``minesolver play``) skips the cheap rules run after every move
    for ``engine_turns``: that figure is then unknown (None), and nothing else moves."""
    for seed in range(6):
        measured = play_game(EXPERT, find_strategy("best"), seed=seed)
        unmeasured = play_game(EXPERT, find_strategy("best"), seed=seed, measure=False)
        assert measured.engine_turns is not None and measured.engine_turns >= 0
        assert unmeasured.engine_turns is None
        for name in ("won", "clicks", "guesses", "opened", "risks", "turns", "chain"):
            assert getattr(unmeasured, name) == getattr(measured, name), name
        assert unmeasured.final == measured.final
