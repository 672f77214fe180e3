"""Strategies in noisy games: never call a mine certain that is not, never deduce a mine safe."""

from __future__ import annotations

import pytest

from minesolver.analysis import analyze
from minesolver.noise import parse_noise, soft_clue
from minesolver.play import Step, play_game
from minesolver.rules import Rules
from minesolver.strategies import find_strategy


class Checker:
    """Observer that checks every step of a noisy game against the real layout (later)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def __call__(self, step: Step) -> None:
        self.steps.append(step)


@pytest.mark.parametrize("noise", ["withheld:0.5", "optimistic", "cautious"])
@pytest.mark.parametrize("name", ["tank", "best"])
def test_strategies_never_call_a_mine_certain_when_it_is_not(name, noise):
    rules = Rules(6, 6, 6, noise=noise)
    model = parse_noise(noise)
    soft = soft_clue(model)
    strategy = find_strategy(name)
    checked = 0
    for seed in range(12 if name == "best" else 25):
        checker = Checker()
        record = play_game(rules, strategy, seed=seed, observer=checker)
        mines = set(record.layout.mines)
        w = rules.width
        for step in checker.steps[1:]:
            analysis = analyze(step.position, soft=soft)
            for move in step.moves:
                index = step.position.index(*move.cell)
                num, den = analysis.exact(index)
                assert num < den, f"{name} opened a certain mine {move.cell}"
                if move.reason == "deduction":
                    assert index not in mines, f"{name} deduced {move.cell} safe: a mine"
                    assert num == 0
            for r, c in analysis.mines:
                assert r * w + c in mines, f"the posterior calls {(r, c)} a mine: it is not"
            if step.analysis is not None:
                assert {(r, c) for r, c in step.analysis.mines} == set(analysis.mines)
            checked += 1
    assert checked > 30
