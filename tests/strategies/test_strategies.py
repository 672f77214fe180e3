"""Strategies: the registry, and the invariants every move must keep, checked step by step.

Every strategy is played on many seeded small games with an observer that re-analyses
each position it was shown, independently of the strategy's own analysis:

* no strategy ever opens a cell the position proves to be a mine;
* ``tank`` and ``best`` never guess while a certainly-safe cell exists;
* a deduction is safe in the real layout, and the risk a move reports is the exact one.
"""

from __future__ import annotations

import collections
import random
from dataclasses import dataclass, field

import pytest
from support import layouts_of, only_move, random_position

from minesolver.analysis import analyze
from minesolver.codes import COVERED, MINE
from minesolver.errors import OffBoardError, OptionError
from minesolver.game import Game
from minesolver.minefield import Layout
from minesolver.play import Step, play_game
from minesolver.position import Position
from minesolver.rules import BEGINNER, Rules, RulesError
from minesolver.strategies import STRATEGIES, Move, Strategy, StrategyError, find_strategy
from minesolver.strategies.forced import forced_guess
from minesolver.strategies.worth import win_chances
from minesolver.survey import fifty_fifty_pairs

BUILTIN = {"best", "dfs", "max-constraint", "mean-constraint", "random", "sampling", "tank"}

# every built-in strategy, and the options that change how best and sampling decide
STRATEGY_NAMES = [
    "random",
    "max-constraint",
    "mean-constraint",
    "tank",
    "dfs:cap=5",
    "dfs",
    "sampling",
    "sampling:method=reject,samples=50",
    "best",
    "best:endgame=off",
    # the switches of the heuristics, with the endgame search's old budget: they act
    # more where it gives up, and the suite stays inside CI's time
    "best:lookahead=off,forced=off,endgame_budget=20000",
    "best:dead=off,off_edge=off,cutoff=0.5,endgame_budget=20000",
    "best:endgame_layouts=20",
    "best:fifty=0.9,endgame_budget=1",
    "best:endgame_layouts=5,sample=40",
]
EXACT = ("tank", "best")  # the strategies that never guess while a safe cell exists

BOARDS = [
    (BEGINNER, 6),
    (Rules(5, 5, 5), 8),
    (Rules(6, 4, 6), 8),
    (Rules(7, 7, 11), 6),
]
FIRST_CLICKS = ["safe", "opening", "none"]


# ---------------------------------------------------------------------- the registry


def test_every_builtin_is_registered_with_a_summary():
    # importing minesolver.strategies registers the built-ins: nothing to load first
    assert set(STRATEGIES.names()) >= BUILTIN
    assert all(name in STRATEGIES for name in BUILTIN)
    assert [name for name, _ in STRATEGIES.summaries()] == STRATEGIES.names()
    for name in BUILTIN:
        strategy = find_strategy(name)
        assert strategy.name == name
        assert strategy.label == name
        summary = STRATEGIES[name].summary
        assert summary and "\n" not in summary


def test_options_are_parsed_and_kept_in_the_label():
    best = find_strategy("best:endgame=off,cutoff=0.8,endgame_layouts=50")
    assert (best.endgame, best.cutoff, best.endgame_layouts) == (False, 0.8, 50)
    assert best.lookahead is True  # untouched options keep their defaults
    assert best.label == "best:endgame=off,cutoff=0.8,endgame_layouts=50"
    for text, value in [("on", True), ("true", True), ("1", True), ("off", False), ("0", False)]:
        assert find_strategy(f"best:forced={text}").forced is value
    sampling = find_strategy("sampling:method=reject,samples=7")
    assert (sampling.method, sampling.samples) == ("reject", 7)


@pytest.mark.parametrize(
    ("name", "needles"),
    [
        ("nope", ["unknown strategy 'nope'", "best", "tank"]),
        ("best:nope=1", ["no option 'nope'", "endgame"]),
        ("best:endgame", ["needs a value"]),
        ("best:depth=2,depth=3", ["option 'depth' of strategy best is given twice"]),
        ("best:endgame=off, endgame=off", ["'endgame'", "given twice"]),
        ("best:endgame=maybe", ["endgame", "bool"]),
        ("best:cutoff=high", ["cutoff", "finite number"]),
        ("best:endgame_layouts=1.5", ["endgame_layouts", "int"]),
        ("best:depth=-1", ["depth", "1 to 4"]),
        ("best:breadth=0", ["breadth", "1 to 64"]),
        ("best:cutoff=nan", ["cutoff", "finite number"]),
        ("tank:x=1", ["no option 'x'", "total"]),
        ("dfs:cap=0", ["cap"]),
        ("random:deduce=all", ["none, trivial, subset"]),
        ("sampling:method=magic", ["front or reject"]),
        ("sampling:samples=0", ["samples", "1 to 100000"]),
    ],
)
def test_bad_names_and_options_are_strategy_errors(name, needles):
    with pytest.raises(StrategyError) as info:
        find_strategy(name)
    assert isinstance(info.value, OptionError)
    assert isinstance(info.value, ValueError)
    for needle in needles:
        assert needle in str(info.value)


def test_move_describes_itself():
    assert Move((2, 3)).describe() == "open (2, 3): deduction"
    text = Move((0, 1), reason="guess", probability=0.125).describe()
    assert text == "open (0, 1): guess at 12.5% mine risk"
    text = Move((4, 4), reason="endgame", probability=0.5, win_chance=0.25).describe()
    assert text == "open (4, 4): endgame at 50.0% mine risk, win chance 25.0%"
    assert Move((1, 1), action="flag").describe().startswith("flag (1, 1)")
    # a chance is never shown as certain when it is not (an endgame nearly won)
    text = Move((0, 0), reason="endgame", probability=0.0004, win_chance=0.9996).describe()
    assert text == "open (0, 0): endgame at 0.04% mine risk, win chance 99.96%"


# ---------------------------------------------------------------------- the invariants


@dataclass
class Referee:
    """Observer that re-analyses every position a strategy was shown and checks its moves."""

    exact: bool
    steps: list[tuple[Step, object]] = field(default_factory=list)
    guesses: int = 0

    def __call__(self, step: Step) -> None:
        if step.index == 0:
            assert [m.reason for m in step.moves] == ["first"]
            return
        position = step.position
        analysis = analyze(position)
        self.steps.append((step, analysis))
        assert step.moves, "a strategy returned no move"
        w = position.width
        for move in step.moves:
            r, c = move.cell
            assert position.cells[r * w + c] == COVERED, f"{move} is not a covered cell"
            num, den = analysis.exact(r * w + c)
            if move.action == "flag":
                assert num == den, f"{move} flags a cell that is not a proven mine"
                continue
            assert num != den, f"{move} opens a proven mine in\n{position}"
            if move.reason == "deduction":
                assert num == 0, f"{move} is called a deduction but has risk {num}/{den}"
            else:
                assert move.reason in ("guess", "forced", "fifty", "region", "endgame")
                assert move.probability == pytest.approx(num / den, abs=1e-9), move
                self.guesses += num > 0
        if self.exact and analysis.safe:
            safe = set(analysis.safe)
            for move in step.moves:
                assert move.action == "reveal" and move.reason == "deduction", (
                    f"{move} while {len(safe)} cells are certainly safe"
                )
                assert move.cell in safe

    def check_layout(self, mines: set[int]) -> None:
        """Every deduction was safe on the real board."""
        for step, _ in self.steps:
            w = step.position.width
            for move in step.moves:
                if move.reason == "deduction":
                    r, c = move.cell
                    assert r * w + c not in mines, f"deduction {move} hit a mine"


def assert_lost_on_a_risky_move(record, referee):
    """A lost game ended on a guess (or an unprotected first click), never a deduction."""
    w = record.rules.width
    exploded = [i for i, code in enumerate(record.final.cells) if code == MINE]
    assert len(exploded) == 1
    cell = divmod(exploded[0], w)
    if not referee.steps:
        assert record.rules.first_click == "none" and record.start == cell
        return
    last, analysis = referee.steps[-1]
    (move,) = [m for m in last.moves if m.cell == cell]
    assert move.reason != "deduction"
    assert analysis.exact(exploded[0])[0] > 0  # it was a risk, not a certain mine either


def play_refereed(rules, name, seed, start="corner"):
    strategy = find_strategy(name)
    referee = Referee(exact=strategy.name in EXACT)
    record = play_game(rules, strategy, seed=seed, start=start, observer=referee)
    referee.check_layout(set(record.layout.mines))
    return record, referee


@pytest.mark.parametrize("name", STRATEGY_NAMES)
@pytest.mark.parametrize("first_click", FIRST_CLICKS)
def test_moves_keep_the_invariants(name, first_click):
    played = won = 0
    for base, games in BOARDS:
        rules = base.with_first_click(first_click)
        for k in range(games):
            seed = 1000 * k + 7
            start = "center" if k % 2 else "corner"
            record, referee = play_refereed(rules, name, seed, start=start)
            played += 1
            won += record.won
            if not record.won:
                assert_lost_on_a_risky_move(record, referee)
            # a game counts its risky guesses, plus the first click when it is not protected
            assert record.guesses == referee.guesses + (first_click == "none")
            assert 0 <= record.opened <= record.safe_cells
            assert record.won == (record.opened == record.safe_cells)
    assert played == sum(games for _, games in BOARDS)
    if name != "random":
        assert won > 0  # a sanity check that games are really being played


@pytest.mark.parametrize("kernel", ["python", "numba"])
def test_best_keeps_to_its_python_range_only_where_the_search_runs_in_python(
    kernel, monkeypatch
):
    from minesolver.strategies.best import ENDGAME_BUDGET, ENDGAME_LAYOUTS, PYTHON_ENDGAME

    if kernel == "numba":
        pytest.importorskip("numba")
    monkeypatch.setenv("MINESOLVER_KERNELS", kernel)
    wide = find_strategy("best").within_python_range()
    narrow = find_strategy("best:endgame_layouts=300,endgame_budget=500").within_python_range()
    if kernel == "python":
        assert (wide.endgame_layouts, wide.endgame_budget) == PYTHON_ENDGAME
    else:
        assert (wide.endgame_layouts, wide.endgame_budget) == (ENDGAME_LAYOUTS, ENDGAME_BUDGET)
    assert (narrow.endgame_layouts, narrow.endgame_budget) == (300, 500)  # never widened


def test_best_takes_the_endgame_move_with_its_exact_win_chance():
    from minesolver.strategies.worth import win_probability

    seen = 0
    for seed in range(40):
        strategy = find_strategy("best")
        steps = []
        play_game(Rules(6, 6, 7), strategy, seed=seed, observer=steps.append)
        for step in steps[1:]:
            for move in step.moves:
                # the Python reference, where it is quick (the compiled search is
                # tested equal to it on larger ones: test_compiled_endgame.py)
                if move.reason == "endgame" and analyze(step.position).solutions_at_most(1000):
                    seen += 1
                    assert move.win_chance == pytest.approx(
                        win_probability(step.position, max_layouts=1000), abs=1e-9
                    )
    assert seen > 5


def test_a_small_endgame_budget_leaves_more_choices_to_the_heuristics():
    def endgame_moves(name: str) -> int:
        count = 0
        for seed in range(20):
            steps = []
            play_game(Rules(6, 6, 7), find_strategy(name), seed=seed, observer=steps.append)
            count += sum(m.reason == "endgame" for step in steps for m in step.moves)
        return count

    # a one-state budget still settles endgames whose every split is a single layout
    assert 0 < endgame_moves("best:endgame_budget=1") < endgame_moves("best")


def test_fifty_changes_a_choice_only_towards_a_cell_in_a_possible_fifty_fifty():
    from minesolver.strategies.longterm import fifty_influence

    changed = 0
    for seed in range(30):
        steps = []
        play_game(
            Rules(8, 8, 14), find_strategy("best:endgame=off"), seed=seed, observer=steps.append
        )
        for step in steps[1:]:
            if not step.moves or step.moves[0].reason != "guess":
                continue
            plain, boosted = (
                find_strategy("best:endgame=off"),
                find_strategy("best:endgame=off,fifty=2"),
            )
            for strategy in (plain, boosted):
                strategy.new_game(Rules(8, 8, 14), seed)
            (a,) = plain.moves(step.position)
            (b,) = boosted.moves(step.position)
            if a.cell != b.cell:
                changed += 1
                engine = boosted.analysis_engine
                assert fifty_influence(engine, step.position.index(*b.cell)) > 0
    assert changed > 0


def test_tank_opens_every_safe_cell_at_once_and_otherwise_the_safest():
    rules = Rules(8, 8, 12)
    for seed in range(15):
        steps = []
        play_game(rules, find_strategy("tank"), seed=seed, observer=steps.append)
        for step in steps[1:]:
            analysis = analyze(step.position)
            if analysis.safe:
                assert sorted(m.cell for m in step.moves) == sorted(analysis.safe)
            else:
                (move,) = step.moves
                covered = [cell for cell in step.position.covered_cells()]
                lowest = min(float(analysis.prob[cell]) for cell in covered)
                assert float(analysis.prob[move.cell]) == pytest.approx(lowest, abs=1e-12)


def test_forced_guess_finds_an_isolated_fifty_fifty():
    # the two covered cells share one mine and nothing else can ever tell them apart
    position = Position.from_text("3x2x1\nH10\nH10\n")
    analysis = analyze(position)
    assert sorted(forced_guess(position, analysis)) == [0, 3]
    best = find_strategy("best:endgame=off")
    best.new_game(Rules(3, 2, 1), 1)
    (chosen,) = best.moves(position)
    assert chosen.reason == "forced"
    assert chosen.cell in ((0, 0), (1, 0))
    assert chosen.probability == pytest.approx(0.5)
    # uncertain cells touching a clue next to the pair: opening them may tell it apart
    spoiled = Position.from_text("3x3x2\nH10\nH21\nHHH\n")
    assert forced_guess(spoiled, analyze(spoiled)) == []
    # a certainly safe cell next to one of the two will show a number that tells them
    # apart (best opens safe cells before guessing, but the function stands alone)
    told = Position.from_text("3x3x1\nH10\nH10\nHH0\n")
    assert analyze(told).safe == [(2, 0), (2, 1)]
    for walled in (False, True):
        assert forced_guess(told, analyze(told), walled=walled) == []


WALLED = Position.from_text("4x3x6\nHHH2\n3HHH\n1HH2\n")  # (1,1)/(2,1) walled by mines


def test_a_fifty_fifty_walled_by_mines_is_forced_unless_walled_is_off():
    # (1,2) is uncertain and touches both cells of the pair: the isolated rule does not
    # see it, the walled one does
    assert forced_guess(WALLED, analyze(WALLED)) == []
    group = forced_guess(WALLED, analyze(WALLED), walled=True)
    assert sorted(WALLED.coords(i) for i in group) == [(1, 1), (2, 1)]
    for name, reason in (("best:endgame=off,walled=off,chains=off", "guess"),
                         ("best:endgame=off", "forced")):
        best = find_strategy(name)
        best.new_game(Rules(4, 3, 6), 1)
        (chosen,) = best.moves(WALLED)
        assert chosen.reason == reason, name
    assert chosen.cell in ((1, 1), (2, 1)) and chosen.probability == pytest.approx(0.5)
    # three cells holding two mines, every cell next to some but not all of them a mine
    group = Position.from_text("4x3x6\nHH31\n4HH2\nHHH2\n")
    best = find_strategy("best:endgame=off,walled=on")
    best.new_game(Rules(4, 3, 6), 1)
    (chosen,) = best.moves(group)
    assert chosen.reason == "forced" and chosen.cell in ((0, 0), (2, 0), (2, 1))
    assert chosen.probability == pytest.approx(2 / 3)


def assert_unavoidable(position: Position, group: list[int]) -> None:
    """From the definition, over every layout: the group holds the same number of mines
    in every layout (neither none nor all), and whatever is seen outside it (which cells
    are mines, the numbers of the others), each of its cells may still be a mine and may
    be safe: only opening one of them can tell."""
    inside = set(group)
    every = layouts_of(position)
    assert len({len(inside & layout) for layout in every}) == 1, position
    assert 0 < len(inside & every[0]) < len(inside), position
    around = [set(position.grid.neighbours(i)) for i in range(len(position.cells))]
    seen: dict[tuple[object, ...], list[frozenset[int]]] = collections.defaultdict(list)
    for layout in every:
        outside = layout - inside
        numbers = tuple(len(around[y] & layout) for y in range(len(position.cells))
                        if y not in inside and y not in layout)
        seen[(outside, numbers)].append(layout)
    for alike in seen.values():
        for cell in inside:
            assert 0 < sum(cell in layout for layout in alike) < len(alike), position


def test_every_forced_group_is_unavoidable_by_its_definition():
    rng = random.Random(20261125)
    found = {False: 0, True: 0}
    sizes: collections.Counter[int] = collections.Counter()
    for _ in range(4000):
        position = random_position(rng)
        analysis = analyze(position)
        if analysis.safe:
            continue
        pairs = fifty_fifty_pairs(position, analysis)
        for walled in (False, True):
            group = forced_guess(position, analysis, walled=walled)
            if not group:
                continue
            found[walled] += 1
            sizes[len(group)] += 1
            if len(group) == 2:
                assert any(position.coords(group[0]) in pair for pair in pairs), position
            assert_unavoidable(position, group)
    # both rules meet groups here, the walled one more, and groups of three or more
    assert 0 < found[False] < found[True]
    assert any(size > 2 for size in sizes), sizes


@pytest.mark.parametrize(
    ("text", "chain"),
    [
        # a 2x2 block with its mines on a diagonal: three clues each hold two of its cells
        # to one mine, the mines at (2,0) and (2,3) wall it; no single clue holds it
        ("4x3x4\n1HH1\n2HH2\nH22H\n", [(0, 1), (0, 2), (1, 1), (1, 2)]),
        # found by a random search over 5x4 and 5x5 positions: a row of four, a block
        ("5x5x6\nH111H\n2H3H2\nHHHHH\n123H2\n00111\n", [(2, 0), (2, 1), (2, 3), (2, 4)]),
        ("5x4x8\n1233H\n2HHH3\nHHHHH\n123H2\n", [(2, 0), (2, 1), (2, 3), (2, 4)]),
        ("5x4x7\n2H322\n3H4HH\nH3HH3\n12HH1\n", [(2, 2), (2, 3), (3, 2), (3, 3)]),
    ],
)
def test_a_chain_of_pairs_swapping_sides_unseen_is_forced_with_walled_on(
    text: str, chain: list[tuple[int, int]]
) -> None:
    position = Position.from_text(text)
    analysis = analyze(position)
    assert forced_guess(position, analysis) == []
    group = forced_guess(position, analysis, walled=True)
    assert [position.coords(i) for i in group] == chain
    assert_unavoidable(position, group)


# (0,0) and (0,1): the 1 at (1,0) needs one mine among five cells, and the cells next
# to one of the two but not the other, (0,2) and (1,2), are certain mines
PSEUDO = Position.from_text("5x3x5\nHHH31\n1HHHH\nHH2HH\n")


def test_a_pseudo_fifty_fifty_is_taken_first_with_pseudo_on():
    analysis = analyze(PSEUDO)
    assert forced_guess(PSEUDO, analysis, walled=True) == []
    pair = [PSEUDO.coords(i) for i in forced_guess(PSEUDO, analysis, pseudo=True)]
    assert pair == [(0, 0), (0, 1)]
    plain = only_move("best:endgame=off,chains=off", PSEUDO)
    taken = only_move("best:endgame=off,pseudo=on", PSEUDO)
    assert (plain.cell, plain.reason, plain.probability) == ((2, 1), "guess", pytest.approx(1 / 8))
    assert taken.cell in pair and taken.reason == "forced"
    assert taken.probability == pytest.approx(1 / 4)
    # twice the risk of the safest cell, and yet a best move: perfect play from either
    # cell of the pair wins as often as perfect play from the start
    perfect, chances = win_chances(PSEUDO, [*pair, (1, 1)])
    assert chances == pytest.approx([perfect, perfect, 1 / 4]) and perfect == pytest.approx(3 / 8)


def test_every_pseudo_fifty_fifty_is_one_by_its_definition_and_a_best_move():
    """Over every layout of random small positions: the two cells are never both
    mines, swapping a lone mine between them gives a layout of the position that
    shows the same number in every other safe cell, and opening either is a best
    move (its chance with perfect play after equals the position's)."""
    rng = random.Random(20261127)
    found = 0
    for _ in range(20000):
        position = random_position(rng)
        analysis = analyze(position)
        if analysis.safe or forced_guess(position, analysis, walled=True):
            continue
        pair = forced_guess(position, analysis, walled=True, pseudo=True)
        if not pair:
            continue
        found += 1
        a, b = pair
        every = layouts_of(position)
        allowed = set(every)
        around = [set(position.grid.neighbours(i)) for i in range(len(position.cells))]
        assert not any(a in layout and b in layout for layout in every), position
        for layout in every:
            if (a in layout) != (b in layout):
                swapped = layout ^ {a, b}
                assert swapped in allowed, position
                assert all(len(around[y] & layout) == len(around[y] & swapped)
                           for y in range(len(position.cells))
                           if y not in layout and y not in pair), position
        perfect, chances = win_chances(position, [position.coords(a), position.coords(b)],
                                       max_layouts=5000, budget=2_000_000)
        assert chances == pytest.approx([perfect, perfect], abs=1e-12), position
    assert found >= 10


# ---------------------------------------------------------------------- replays


@pytest.mark.parametrize("name", ["random", "sampling", "tank", "best"])
def test_the_same_seed_replays_the_same_game(name):
    rules = Rules(8, 8, 12, first_click="opening")
    reused = find_strategy(name)  # new_game must forget the previous game entirely
    for seed in (1, 2, 3, 4):
        a = play_game(rules, find_strategy(name), seed=seed)
        b = play_game(rules, reused, seed=seed)
        assert (a.won, a.clicks, a.guesses, a.bbbv, a.opened, a.risks) == (
            b.won,
            b.clicks,
            b.guesses,
            b.bbbv,
            b.opened,
            b.risks,
        )
        assert a.layout == b.layout
        assert a.final == b.final


def test_a_fixed_layout_is_played_as_given():
    game = Game(Rules(9, 9, 10), seed=11)
    game.reveal(4, 4)
    layout = game.layout
    record = play_game(Rules(9, 9, 10), find_strategy("tank"), seed=5, layout=layout, start=(4, 4))
    assert record.layout == layout
    assert record.bbbv == Game.from_layout(layout).bbbv()


@pytest.mark.parametrize("layout", [Layout(8, 9, (0, 1)), Layout(9, 9, (0, 1, 2))])
def test_a_layout_that_is_not_the_rules_board_is_refused(layout):
    # the record reports the rules: a board of another size or mine count would make it lie
    with pytest.raises(RulesError, match="but the rules say 9x9x2"):
        play_game(Rules(9, 9, 2), find_strategy("tank"), seed=1, layout=layout)


@pytest.mark.parametrize(("first_click", "mine"), [("safe", 0), ("opening", 10), ("opening", 1)])
def test_a_layout_that_breaks_the_first_click_rule_is_refused(first_click, mine):
    # the record said a protected first click lost, with no guess
    rules = Rules(9, 9, 1, first_click=first_click)
    with pytest.raises(RulesError, match=rf"has a mine at .*--first-click {first_click}"):
        play_game(rules, find_strategy("best"), seed=0, layout=Layout(9, 9, (mine,)))
    unprotected = Rules(9, 9, 1, first_click="none")
    record = play_game(unprotected, find_strategy("best"), seed=0, layout=Layout(9, 9, (mine,)))
    assert record.guesses >= 1  # without protection the first click is a guess


def test_a_start_off_the_board_is_refused():
    with pytest.raises(OffBoardError, match=r"start \(9, 0\) is off the 9x9 board"):
        play_game(Rules(9, 9, 10), find_strategy("tank"), seed=1, start=(9, 0))


class Stuck(Strategy):
    """A broken plug-in: no move at all, or a move that changes nothing."""

    name = ""  # never registered
    summary = "a test double"

    def __init__(self, moves: list[Move]) -> None:
        super().__init__()
        self.fixed = moves

    def moves(self, position: Position) -> list[Move]:
        return list(self.fixed)


def test_a_strategy_that_cannot_move_is_a_bug_not_the_users_fault():
    # a RuntimeError (the CLI's "internal error"), not an error of the user's input
    with pytest.raises(RuntimeError, match="returned no move"):
        play_game(Rules(5, 5, 3), Stuck([]), seed=1)
    with pytest.raises(RuntimeError, match="chose moves that change nothing"):
        play_game(Rules(5, 5, 3), Stuck([Move((0, 0))]), seed=1)


def test_a_front_too_wide_to_count_degrades_the_move_not_the_game(monkeypatch):
    from minesolver.analysis import counting

    monkeypatch.setattr(counting, "MAX_TABLE_BYTES", 2000)  # every real front is too wide
    monkeypatch.setenv("MINESOLVER_KERNELS", "python")  # the budget is the reference's
    limited = 0
    for seed in range(5):
        record = play_game(Rules(16, 16, 40), find_strategy("best"), seed=seed)
        assert record.clicks > 0 and record.won in (True, False)
        limited += record.engine_limits
    assert limited > 0
