"""Reviews of seeded games checked against what the player knew at each click.

Games are played by strategies (``random`` guesses needlessly, ``tank`` and ``best``
never do), written as play logs and as .evf replays (by ms-toollib's own recorder), and
reviewed.  Each click is checked against the position the log says the player saw: its
exact mine chance (brute force on small boards), whether a safe cell was there, and,
where few layouts are left, the exact win chance from a brute-force game tree.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest
from support import evf_of, log_of, numbers_of

from minesolver.analysis import analyze, brute_force
from minesolver.codes import COVERED, FLAG
from minesolver.game import Game
from minesolver.minefield import Layout
from minesolver.position import Position
from minesolver.replay import read_replay_bytes
from minesolver.review import review_game
from minesolver.rules import BEGINNER, Rules

SMALL = Rules(5, 5, 5, first_click="safe")


def unflagged(position):
    cells = position.cells.replace(bytes([FLAG]), bytes([COVERED]))
    return Position(position.width, position.height, position.mines, cells)


def seen_before_each_click(log_text):
    """(position the step saw, cell, first of its step) of every move of the log that
    opened something (a strategy's later safe cells may have been flooded open by then:
    the moves are played on the log's board to tell).  A step's later moves see more
    than the step's position: the cells its earlier moves opened."""
    lines = [json.loads(line) for line in log_text.splitlines()]
    board = lines[0]["position"]
    game = Game.from_layout(
        Layout.from_cells(board["width"], board["height"], [tuple(m) for m in lines[-1]["mines"]])
    )
    out = []
    for step in lines[:-1]:
        rows = step["position"]["rows"]
        text = f"{board['width']}x{board['height']}x{board['mines']}\n" + "\n".join(rows)
        position = Position.from_text(text)
        first = True
        for move in step["moves"]:
            if game.is_over:
                break
            cell = tuple(move["cell"])
            if move["action"] == "reveal" and game.reveal(*cell):
                out.append((position, cell, first))
                first = False
    return out


def game_tree_win(position):
    """Win chance with perfect play, by brute force over every layout (the reference)."""
    w, h, cells = position.width, position.height, position.cells
    unknown = [i for i, code in enumerate(cells) if code == COVERED]
    numbers = [(i, code) for i, code in enumerate(cells) if code <= 8]
    layouts = [
        frozenset(m) for m in combinations(unknown, position.mines)
        if all(numbers_of(w, h, set(m), i) == n for i, n in numbers)
    ]

    def groups(layouts, cell):
        out = {}
        for mines in layouts:
            if cell not in mines:
                out.setdefault(numbers_of(w, h, mines, cell), []).append(mines)
        return [frozenset(g) for g in out.values()]

    @cache
    def value(layouts):
        if len(layouts) == 1:
            return 1.0
        best = 0.0
        for cell in unknown:
            split = groups(layouts, cell)
            if split and split != [layouts]:
                best = max(best, sum(len(g) * value(g) for g in split) / len(layouts))
        return best

    def after(cell):
        full = frozenset(layouts)
        return sum(len(g) * value(g) for g in groups(full, cell)) / len(full)

    return value(frozenset(layouts)), after


@pytest.mark.parametrize("strategy", ["random", "tank", "best"])
def test_every_click_against_what_the_player_knew(strategy):
    checked = guesses = needless = wins = 0
    for seed in range(1, 13):
        text, record = log_of(SMALL, strategy, seed)
        review = review_game(read_replay_bytes(text.encode(), "game.jsonl"))
        seen = seen_before_each_click(text)
        assert [c.cell for c in review.clicks] == [cell for _, cell, _ in seen]
        assert review.won == record.won and review.stats.bbbv == record.bbbv
        for judged, (position, cell, first) in zip(review.clicks, seen, strict=True):
            if judged.first:
                continue
            if not first:  # a later deduction of a step: still certainly safe
                assert judged.probability == 0
                assert analyze(unflagged(position)).probability(*cell) == 0
                continue
            assert judged.seen == position
            plain = unflagged(position)
            _, probs = brute_force(plain)
            index = plain.index(*cell)
            assert judged.probability == probs[index]
            safe = [i for i, p in enumerate(probs) if plain.cells[i] == COVERED and p == 0]
            assert judged.safe_cells == len(safe)
            assert judged.needless == (probs[index] > 0 and bool(safe))
            covered = [p for i, p in enumerate(probs) if plain.cells[i] == COVERED and p < 1]
            assert judged.safest == min(covered)
            if judged.guess:
                guesses += 1
                needless += judged.needless
                assert judged.advice is not None
            if judged.best_win is not None and brute_force(plain)[0] <= 80:  # the tree is slow
                best, after = game_tree_win(plain)
                assert judged.best_win == pytest.approx(best, abs=1e-9)
                assert judged.win == pytest.approx(after(index), abs=1e-9)
                wins += 1
            checked += 1
        assert len(review.guesses) == record.guesses
    assert checked > 20 and (guesses > 0 or strategy == "best")
    assert wins > 0 or strategy != "random"
    if strategy in ("tank", "best"):
        assert needless == 0  # they never guess while a safe cell is there
    else:
        assert needless > 0


def test_an_evf_replay_reviews_as_its_log_does():
    pytest.importorskip("ms_toollib")
    for seed in range(1, 9):
        text, record = log_of(BEGINNER, "random" if seed % 2 else "best", seed)
        from_log = review_game(read_replay_bytes(text.encode(), "game.jsonl"))
        replay = read_replay_bytes(evf_of(from_log.replay.layout, from_log.replay.clicks),
                                   "game.evf")
        from_evf = review_game(replay)
        assert replay.layout == record.layout
        assert [(c.cell, c.probability, c.needless, c.best_win, c.win) for c in from_evf.clicks] \
            == [(c.cell, c.probability, c.needless, c.best_win, c.win) for c in from_log.clicks]
        reader = replay.reader
        assert (from_evf.stats.bbbv, from_evf.bbbv_solved, from_evf.won) == (
            reader["bbbv"], reader["bbbv_solved"], reader["completed"]
        )
        assert (from_evf.stats.openings, from_evf.stats.islands) == (
            reader["openings"], reader["islands"]
        )
        assert (from_evf.stats.zini, from_evf.stats.hzini) == (reader["zini"], reader["hzini"])
        assert from_evf.ioe == pytest.approx(reader["ioe"])


def test_flags_and_chords_are_followed():
    # logs hold no chords (strategies open cells one by one); the real replays have many,
    # and this game shows how a chord is judged: by the chance any cell it opens is a mine
    from minesolver.replay import Click, ClickCounts, Replay

    clicks = (Click("open", (0, 0)), Click("flag", (1, 1)), Click("chord", (0, 0)),
              Click("chord", (0, 1)))
    layout = Layout.from_cells(3, 3, [(1, 1)])
    review = review_game(Replay(layout, clicks, 1.0, ClickCounts(1, 1, 2, 4), "log"))
    kinds = [(c.kind, c.cell, c.probability) for c in review.clicks]
    # the corner shows 1 and the player flags (1, 1): the chord opens (0, 1) and (1, 0),
    # each 1/3 likely to hold the mine (flags are not trusted), so it risks 2/3
    assert kinds[0] == ("open", (0, 0), None)
    assert kinds[1] == ("chord", (0, 0), Fraction(2, 3))
    assert review.clicks[1].opened == 2 and not review.clicks[1].exploded
    # with one mine on the board, the five cells away from the 1 were certainly safe
    assert review.clicks[1].needless and review.clicks[1].safe_cells == 5


def test_a_lost_game_ends_the_review_at_the_mine():
    for seed in range(1, 40):
        text, record = log_of(BEGINNER, "random", seed)
        if not record.won:
            break
    review = review_game(read_replay_bytes(text.encode(), "game.jsonl"))
    assert not review.won and review.clicks[-1].exploded
    assert review.clicks[-1].cell == record.exploded
    assert review.bbbv_solved < review.stats.bbbv


def test_analysis_at_each_click_is_the_engines():
    text, _ = log_of(BEGINNER, "tank", 3)
    review = review_game(read_replay_bytes(text.encode(), "game.jsonl"))
    for judged in review.clicks[1:]:
        analysis = analyze(unflagged(judged.seen))
        assert judged.probability == analysis.probability(*judged.cell)


def test_the_safest_click_is_not_blamed_for_best_preferring_a_riskier_cell():
    from dataclasses import replace

    from minesolver.advice import advise
    from minesolver.review import ClickReview

    position = Position.from_text("3x3x1\nHHH\nHHH\nHHH\n")
    advice = advise(position)
    judged = ClickReview(4, position, "open", (1, 1), None, False, probability=Fraction(1, 9),
                         safest=Fraction(1, 9), safest_cells=((1, 1),))
    other = (0, 0) if advice.cell != (0, 0) else (0, 2)
    riskier = replace(judged, advice=replace(advice, cell=other, probability=Fraction(1, 8)))
    text = riskier.text
    assert "no cell was safer" in text
    assert f"best would risk more for what its cell may open: open {other}" in text
    level = replace(judged, advice=replace(advice, cell=other, probability=Fraction(1, 9)))
    assert "; best: open" in level.text and "risk more" not in level.text
    worse = replace(judged, probability=Fraction(1, 3))
    assert "the safest cell had 11.1%" in worse.text and "no cell was safer" not in worse.text


def test_an_open_that_does_nothing_is_not_judged():
    # an open on a flag or an open cell changes nothing: it was judged a 100% risk
    from minesolver.replay import Click, ClickCounts, Replay

    clicks = (Click("open", (0, 0)), Click("flag", (0, 2)), Click("open", (0, 2)),
              Click("open", (0, 0)), Click("open", (0, 3)))
    layout = Layout(4, 1, (2,))
    review = review_game(Replay(layout, clicks, 1.0, ClickCounts(4, 1, 0, 3), "log"))
    assert [c.cell for c in review.clicks] == [(0, 0), (0, 3)]
    assert review.won and not review.guesses


def test_a_time_far_from_the_last_click_is_doubted():
    # one byte of a replay's header changed its time from 1184.6 s to 1058149 s, and
    # every per-second figure with it, without a word
    from dataclasses import replace

    from minesolver.replay import Click, ClickCounts, Replay

    clicks = (Click("open", (0, 0), 0.0), Click("open", (0, 3), 12.5))
    replay = Replay(Layout(4, 1, (1,)), clicks, 12.52, ClickCounts(2, 0, 0, 2), "avf")
    assert review_game(replay).time_note is None
    doubted = review_game(replace(replay, seconds=1058149.183)).time_note
    assert doubted is not None and "1058149.183 s, is far from its last click's, 12.500 s" \
        in doubted
    untimed = (Click("open", (0, 0)), Click("open", (0, 3)))  # a play log: no click times
    assert review_game(replace(replay, clicks=untimed, seconds=99.0)).time_note is None

