"""The page for players in a real browser: the advice in Analyse, Play's no-guess switch
and "Analyse this position", the Review mode stepping through a replay.

The fixtures and helpers are test_web_browser.py's (the real ``minesolver serve``,
Debian's chromium through playwright).  With ``MINESOLVER_SCREENSHOTS=docs/screenshots``
the pictures of docs/players.md are written there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import test_web_browser as chromium
from support import REPLAYS, WALL_FIFTY_FIFTY

from minesolver.advice import advise
from minesolver.noguess import no_guess_layout
from minesolver.position import EXAMPLE_POSITION, Position
from minesolver.replay import read_replay
from minesolver.review import review_game
from minesolver.rules import Rules

pytestmark = pytest.mark.browser

# the real server, chromium and a watched page, as test_web_browser.py makes them
server, browser, page = chromium.server, chromium.browser, chromium.page
click_cell, open_mode, screenshot = chromium.click_cell, chromium.open_mode, chromium.screenshot


# a position from `minesolver play --seed 12` (best, expert) where best must guess: a walled
# 50/50 pair it now takes first, and dead cells; the pictures and the example of
# docs/players.md
WALLED_PAIR = (Path(__file__).resolve().parents[2] / "docs" / "examples"
               / "walled_pair.mine").read_text()


def wait_advice(page: Any) -> None:
    page.wait_for_function("advice.data && document.querySelector('#advice-text').dataset.cell")


def wait_reason(page: Any, reason: str) -> None:
    page.wait_for_function("r => advice.data && advice.data.advice && "
                           "advice.data.advice.reason === r", arg=reason)


def test_analyse_says_what_to_click_and_why(page: Any) -> None:
    open_mode(page, "analyse")
    wait_advice(page)
    expected = advise(Position.from_text(EXAMPLE_POSITION))
    assert expected is not None
    assert page.text_content("#advice-text") == expected.text
    cell = page.get_attribute("#advice-text", "data-cell")
    assert cell == f"{expected.cell[0]},{expected.cell[1]}"
    assert "mine risk" in page.text_content("#advice-figures")
    # a 50/50 walled in by mines, taken before any other guess: its figures, the pair
    # and the dead cells drawn over the board
    page.fill("#analyse-text", WALLED_PAIR)
    page.click("#analyse-go")
    wait_reason(page, "forced")
    expected = advise(Position.from_text(WALLED_PAIR))
    assert expected is not None and page.text_content("#advice-text") == expected.text
    assert "survives this and the next move" in page.text_content("#advice-figures")
    assert page.evaluate("advice.overlay.marks.links.length") == 1
    # the overlay draws the advice ring; the chance of a zero replaces the colours
    assert page.evaluate("advice.overlay.marks.rings.length") > 0
    page.check("input[name=advice-overlay][value=zero]")
    assert page.evaluate("advice.overlay.marks.zero !== null")
    assert page.locator("#advice-zero-legend").is_visible()
    size = float(page.locator("#analyse-board").get_attribute("data-cell"))
    r, c = expected.cell
    page.locator("#analyse-board").hover(position={"x": (c + 0.5) * size, "y": (r + 0.5) * size})
    assert "a zero" in page.text_content("#tooltip")
    screenshot(page, "players-zero", readme=True)
    page.check("input[name=advice-overlay][value=prob]")
    assert page.evaluate("advice.overlay.marks.zero === null")
    page.evaluate("document.querySelector('#advice-panel').scrollIntoView()")
    screenshot(page, "players-advice", readme=True)


def test_a_50_50_is_named_and_linked(page: Any) -> None:
    open_mode(page, "analyse")
    wait_advice(page)
    page.fill("#analyse-text", WALL_FIFTY_FIFTY)
    page.click("#analyse-go")
    wait_reason(page, "forced")
    assert "50/50" in page.text_content("#advice-text")
    assert "(0, 0)–(1, 0)" in page.text_content("#advice-extra")
    assert page.evaluate("advice.overlay.marks.links.length") == 1


def test_play_a_no_guess_board_and_analyse_its_position(page: Any) -> None:
    open_mode(page, "play")
    page.select_option("#play-preset", "intermediate")
    page.fill("#play-seed", "31")
    page.check("#play-no-guess")
    page.click("#play-new")
    page.wait_for_function("play.game && play.game.no_guess && play.game.seed === '31'")
    click_cell(page, "#play-board", 8, 8)
    page.wait_for_function("play.game.status === 'playing' && !play.busy")
    rules = Rules(16, 16, 40, no_guess=True)
    layout = no_guess_layout(rules, 31, 8 * 16 + 8)
    rows = page.evaluate("play.game.position.rows")
    for i in range(256):  # every open cell shows the no-guess board's number
        r, c = divmod(i, 16)
        if rows[r][c] not in "HF":
            assert int(rows[r][c]) == int(layout.counts[i]) and i not in layout.mines
    page.click("#play-analyse")
    page.wait_for_function("location.hash === '#analyse'")
    wait_advice(page)
    text = page.input_value("#analyse-text")
    assert text.splitlines()[1:] == [row.replace("F", "H") for row in rows]
    expected = advise(Position.from_text(text))
    assert expected is not None and expected.reason == "deduction"  # a no-guess board
    assert page.text_content("#advice-text") == expected.text


def test_review_a_replay_click_by_click(page: Any) -> None:
    pytest.importorskip("ms_toollib")
    path = REPLAYS / "exp_49.25_3bv127.avf"
    expected = review_game(read_replay(path))
    open_mode(page, "review")
    page.set_input_files("#review-file", str(path))
    page.click("#review-go")
    page.wait_for_function("review.data !== null")
    figures = page.text_content("#review-figures")
    assert f"{expected.stats.bbbv} ({expected.bbbv_solved})" in figures
    assert f"{expected.stats.zini} · {expected.stats.hzini}" in figures
    guesses = page.locator("#review-guesses li")
    assert guesses.count() == len(expected.guesses)
    assert page.text_content("#review-judgement") == expected.clicks[0].text
    page.click("#review-next")
    assert page.text_content("#review-judgement") == expected.clicks[1].text
    page.keyboard.press("ArrowRight")
    assert page.text_content("#review-judgement") == expected.clicks[2].text
    # jump to the last guess: its judgement, the best move and the probabilities there
    guesses.nth(guesses.count() - 1).click()
    last = expected.guesses[-1]
    assert page.text_content("#review-judgement") == last.text
    page.wait_for_function("review.board.view.analysis !== null")
    assert page.evaluate("review.overlay.marks.rings.some(r => r.colour === '#000')")
    if last.advice is not None and last.advice.cell != last.cell:
        assert last.advice.text in page.text_content("#review-judgement")
        assert page.evaluate(f"review.overlay.marks.rings.some(r => r.cell.join() === "
                             f"'{last.advice.cell[0]},{last.advice.cell[1]}')")
    screenshot(page, "players-review", readme=True)


def test_a_file_that_cannot_be_reviewed_does_not_keep_the_last_review(
    page: Any, tmp_path: Any
) -> None:
    # the last game's figures and board stayed under the new file's name, the error only in
    # a banner gone after 6 s
    open_mode(page, "review")
    page.set_input_files("#review-file", str(REPLAYS / "beg_unfinished_marks_on.avf"))
    page.click("#review-go")
    page.wait_for_function("review.data !== null")
    cut = tmp_path / "cut.avf"
    cut.write_bytes((REPLAYS / "exp_49.25_3bv127.avf").read_bytes()[:3000])
    page.allowed_statuses.add(400)
    page.set_input_files("#review-file", str(cut))
    page.click("#review-go")
    page.wait_for_function("review.data === null && "
                           "document.querySelector('#review-status').dataset.status === 'error'")
    assert "cut.avf" in page.text_content("#review-status")
    for part in ("#review-figures", "#review-guesses", "#review-judgement", "#review-counter"):
        assert page.text_content(part) == "", part
    assert page.evaluate("review.board.view") is None


def test_an_analysis_that_goes_through_takes_the_last_error_down(page: Any) -> None:
    open_mode(page, "analyse")
    page.allowed_statuses.add(400)
    page.fill("#analyse-text", "5x3x3\nHHxHH\n12H21\n01110\n")
    page.click("#analyse-go")
    page.wait_for_selector("#error:not([hidden])")
    page.fill("#analyse-text", "5x3x3\nHHHHH\n12H21\n01110\n")
    page.click("#analyse-go")
    page.wait_for_function("analyse.result && analyse.result.analysis")
    assert page.locator("#error").is_hidden()


def test_chances_on_the_page_are_never_shown_as_certain_when_not(page: Any) -> None:
    open_mode(page, "analyse")
    shown = page.evaluate("async () => { const u = await import('/static/util.js'); "
                          "return [0.9997, 0.0004, 1 / 3, 1, 0].map(u.pct); }")
    assert shown == ["99.97%", "0.04%", "33.3%", "100.0%", "0.0%"]


def test_the_new_parts_run_under_the_pages_csp(browser: Any, server: str) -> None:
    context, tab, problems = chromium.watched_page(browser, server, bypass_csp=False)
    for mode in ("analyse", "review", "play"):
        open_mode(tab, mode)
        assert tab.locator(f"#{mode}").is_visible()
    assert tab.locator("#advice-panel").count() == 1 and tab.locator("#play-analyse").count() == 1
    context.close()
    assert not problems, problems
