"""The page as people really use it (issue 12), in a real browser: reloads and second tabs,
a phone played by touch alone, the losing mine, keys, feedback, files and links, the
colour-blind palette, and the time from an input to the next frame on 200x200 boards.

The fixtures and helpers are test_web_browser.py's (the real ``minesolver serve``,
Debian's chromium through playwright, one of each per module).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import test_web_browser as chromium

from minesolver.analysis import analyze
from minesolver.formats import read_mbf, write_mbf
from minesolver.game import Game
from minesolver.minefield import Layout
from minesolver.position import EXAMPLE_POSITION, Position
from minesolver.rules import BEGINNER, INTERMEDIATE, Rules
from minesolver.show.palette import scale_table

pytestmark = pytest.mark.browser

server, browser, page = chromium.server, chromium.browser, chromium.page
click_cell, open_mode, screenshot = chromium.click_cell, chromium.open_mode, chromium.screenshot
game_state, play_move = chromium.game_state, chromium.play_move
ARTIFACTS = chromium.ARTIFACTS
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Any]:
    """A phone: 390x844, touch, a mobile viewport; fails the test on any page error."""
    context, tab, problems = chromium.watched_page(browser, server, bypass_csp=True, **PHONE)
    yield tab
    context.close()
    assert not problems, problems


def mines_of(rules: Any, seed: int, first: tuple[int, int]) -> set[tuple[int, int]]:
    """The mines of a seeded game after its first click: the server deals the same."""
    referee = Game(rules, seed=seed)
    referee.reveal(*first)
    assert referee.layout is not None
    return set(referee.layout.mine_cells())


def pixel(page: Any, board: str, row: int, col: int, dx: float = 0.15, dy: float = 0.5) -> str:
    """The colour drawn in a cell (near its left edge, clear of its mark) as #rrggbb."""
    colour: str = page.evaluate(
        """([id, r, c, dx, dy]) => {
          const canvas = document.querySelector(id);
          const cs = Number(canvas.dataset.cell) * (window.devicePixelRatio || 1);
          const d = canvas.getContext('2d').getImageData(
            Math.floor((c + dx) * cs), Math.floor((r + dy) * cs), 1, 1).data;
          return '#' + [d[0], d[1], d[2]].map((v) => v.toString(16).padStart(2, '0')).join('');
        }""",
        [board, row, col, dx, dy],
    )
    return colour


def settled_pixel(page: Any, board: str, row: int, col: int, expected: str) -> str:
    """The cell's colour once the board shows ``expected`` (or after 5 s, the colour it
    shows then): the status can say 'ok' for the previous position a moment before the
    board is redrawn for the new one."""
    deadline = time.monotonic() + 5.0
    colour = pixel(page, board, row, col)
    while colour != expected and time.monotonic() < deadline:
        page.wait_for_timeout(50)
        colour = pixel(page, board, row, col)
    return colour


def choose(page: Any, mode: str, rules: str, seed: int) -> None:
    """Fill in a mode's rules form: a preset by name, or a custom "WxHxM" board."""
    presets = {"beginner": "9x9x10", "intermediate": "16x16x40", "expert": "30x16x99"}
    if rules in presets:
        page.select_option(f"#{mode}-preset", rules)
    else:
        page.select_option(f"#{mode}-preset", "custom")
        for field, value in zip("whm", rules.split("x"), strict=True):
            page.fill(f"#{mode}-{field}", value)
    page.fill(f"#{mode}-seed", str(seed))


def new_game(page: Any, rules: str, seed: int) -> dict[str, Any]:
    """A new seeded game in Play, once the server has dealt it."""
    choose(page, "play", rules, seed)
    page.click("#play-new")
    page.wait_for_function("s => play.game && play.game.seed === s && play.game.version === 0",
                           arg=str(seed))
    return game_state(page)


def wait_version(page: Any, version: int) -> dict[str, Any]:
    page.wait_for_function("v => play.game.version > v && !play.busy", arg=version)
    return game_state(page)


# ---------------------------------------------------------------------- reloads, tabs
def test_a_reload_and_a_second_tab_resume_the_game(page: Any) -> None:
    open_mode(page, "play")
    new_game(page, "intermediate", 77)
    mines = mines_of(INTERMEDIATE, 77, (8, 8))
    state = play_move(page, 8, 8)
    def covered_safe(state: dict[str, Any]) -> list[tuple[int, int]]:
        return [(r, c) for r in range(16) for c in range(16)
                if state["position"]["rows"][r][c] == "H" and (r, c) not in mines]

    for _ in range(2):  # each time a cell still covered: a move that opens nothing is no change
        state = play_move(page, *covered_safe(state)[0])
    safe = covered_safe(state)
    state = play_move(page, *sorted(mines)[0], button="right")
    before = game_state(page)

    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    after = game_state(page)
    assert (after["id"], after["version"], after["position"]) == (
        before["id"], before["version"], before["position"])
    assert page.text_content("#play-mines") == "39"

    second = page.context.new_page()
    second.goto("/#play")
    second.wait_for_selector("body[data-ready=true]")
    assert second.evaluate("play.game.id") == before["id"]
    # a move in the second tab shows in the first once it is looked at again
    cell = next(c for c in safe if after["position"]["rows"][c[0]][c[1]] == "H")
    version = after["version"]
    click_cell(second, "#play-board", *cell)
    second.wait_for_function("v => play.game.version > v && !play.busy", arg=version)
    second.close()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("v => play.game.version > v", arg=version)


# ---------------------------------------------------------------------- phone
def tap_cell(page: Any, row: int, col: int) -> None:
    box = page.locator("#play-board").bounding_box()
    size = float(page.locator("#play-board").get_attribute("data-cell"))
    page.touchscreen.tap(box["x"] + (col + 0.5) * size, box["y"] + (row + 0.5) * size)


def long_press_cell(page: Any, row: int, col: int) -> None:
    """A finger held on the cell for 600 ms (real touch events, through the devtools)."""
    box = page.locator("#play-board").bounding_box()
    size = float(page.locator("#play-board").get_attribute("data-cell"))
    point = {"x": box["x"] + (col + 0.5) * size, "y": box["y"] + (row + 0.5) * size}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(600)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_phone_plays_a_beginner_game_to_the_end_by_touch(phone: Any) -> None:
    phone.goto("/?rules=beginner&seed=2024&first_click=safe#play")  # a shared link
    phone.wait_for_selector("body[data-ready=true]")
    phone.wait_for_function("play.game && play.game.seed === '2024'")
    assert "?" not in phone.url  # a reload now resumes this game, not a new one
    for width in (360, 390):  # nothing off-screen, from 360 px up
        phone.set_viewport_size({"width": width, "height": 844})
        for mode in ("play", "watch", "analyse", "review", "flags"):
            phone.goto(f"/#{mode}")
            phone.wait_for_selector("body[data-ready=true]")
            assert phone.evaluate("document.documentElement.scrollWidth") <= width, mode
            for tab in ("play", "watch", "analyse", "review", "flags"):
                box = phone.locator(f"#tab-{tab}").bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= width, tab
            assert phone.locator("#zoom").bounding_box()["x"] + 20 < width
    phone.goto("/#play")
    phone.wait_for_selector("body[data-ready=true]")
    # the board comes first, above the panel, in cells a finger can hit
    board = phone.locator("#play-board").bounding_box()
    assert board["y"] + board["height"] < phone.locator("#play .panel").bounding_box()["y"]
    assert board["y"] < 844 and float(phone.locator("#play-board").get_attribute("data-cell")) >= 24

    mines = mines_of(BEGINNER, 2024, (4, 4))
    version = game_state(phone)["version"]
    tap_cell(phone, 4, 4)
    state = wait_version(phone, version)
    assert state["status"] == "playing"
    flagged = sorted(m for m in mines if state["position"]["rows"][m[0]][m[1]] == "H")
    long_press_cell(phone, *flagged[0])  # a long press flags
    state = wait_version(phone, state["version"])
    assert state["position"]["rows"][flagged[0][0]][flagged[0][1]] == "F"
    phone.locator("#play-flag-mode").tap()  # flag mode: a tap flags
    tap_cell(phone, *flagged[1])
    state = wait_version(phone, state["version"])
    assert state["position"]["rows"][flagged[1][0]][flagged[1][1]] == "F"
    assert phone.text_content("#play-mines") == "8"
    phone.locator("#play-flag-mode").tap()
    while state["status"] == "playing":
        rows = state["position"]["rows"]
        cell = next((r, c) for r in range(9) for c in range(9)
                    if rows[r][c] == "H" and (r, c) not in mines)
        tap_cell(phone, *cell)
        state = wait_version(phone, state["version"])
    assert state["status"] == "won"
    assert phone.text_content("#play-mines") == "0"  # every mine is found, flagged or not
    assert phone.locator("#play-solve").is_disabled()
    phone.evaluate("window.scrollTo(0, 0)")
    screenshot(phone, "phone-play", readme=True)

    # the panel folds away; expert cells stay big enough to tap, the board scrolls
    phone.locator("#panel-toggle").tap()
    assert not phone.locator("#play .panel").is_visible()
    phone.locator("#panel-toggle").tap()
    phone.select_option("#play-preset", "expert")
    phone.locator("#play-new").tap()
    phone.wait_for_function("play.game.rules === '30x16x99'")
    assert float(phone.locator("#play-board").get_attribute("data-cell")) >= 24
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # sixteen columns fit a phone's width whole, at 20 px or more, rather than scroll
    phone.select_option("#play-preset", "intermediate")
    phone.locator("#play-new").tap()
    phone.wait_for_function("play.game.rules === '16x16x40'")
    for width in (360, 390):
        phone.set_viewport_size({"width": width, "height": 844})
        phone.wait_for_function(f"document.documentElement.clientWidth === {width}")
        phone.wait_for_function(
            "(() => { const w = document.querySelector('#play-board').parentElement;"
            " return w.scrollWidth <= w.clientWidth; })()")
        assert float(phone.locator("#play-board").get_attribute("data-cell")) >= 20
        box = phone.locator("#play-board").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, width


# ---------------------------------------------------------------------- the losing mine
def test_the_losing_mine_is_red_and_named_in_play_and_watch(page: Any) -> None:
    open_mode(page, "play")
    new_game(page, "beginner", 2024)
    play_move(page, 4, 4)
    mine = sorted(mines_of(BEGINNER, 2024, (4, 4)))[3]
    state = play_move(page, *mine)
    assert state["status"] == "lost" and state["exploded"] == list(mine)
    assert f"the mine at ({mine[0]}, {mine[1]}) went off" in page.text_content("#play-status")
    assert pixel(page, "#play-board", *mine) == "#e53935"
    other = next(m for m in sorted(mines_of(BEGINNER, 2024, (4, 4))) if m != mine)
    assert pixel(page, "#play-board", *other) != "#e53935"
    assert page.locator("#play-solve").is_disabled()  # no 409 from a solver move

    # Watch: a dense little board, so that best loses; the last step names the mine
    open_mode(page, "watch")
    for seed in range(1, 40):
        choose(page, "watch", "8x8x22", seed)
        page.click("#watch-go")
        page.wait_for_function("s => watch.summary && watch.summary.seed === s && "
                               "watch.summary.status === 'done'", arg=str(seed))
        if not page.evaluate("watch.summary.result.won"):
            break
    else:
        pytest.fail("best won 39 games in a row on 8x8 with 22 mines")
    page.click("#watch-step-last")
    page.wait_for_function("watch.step && watch.step.outcome === 'lost' && !watch.loading")
    r, c = page.evaluate("watch.step.exploded")
    reason = page.text_content("#watch-reason")
    assert f"at ({r}, {c})" in reason and "hit a mine" in reason and "mine risk" in reason
    assert pixel(page, "#watch-board", r, c) == "#e53935"
    assert "guess" in page.text_content("#watch-info")  # "1 guess" or "n guesses"
    assert "1 guesses" not in page.text_content("#watch-info")


# ---------------------------------------------------------------------- keys
def test_boards_and_tabs_are_played_from_the_keyboard(page: Any) -> None:
    open_mode(page, "play")
    page.focus("#tab-play")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#watch"
    assert page.evaluate("document.activeElement.id") == "tab-watch"
    page.wait_for_selector("#watch", state="visible")  # shown on 'hashchange'
    assert page.locator("#watch").is_visible() and not page.locator("#play").is_visible()
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("location.hash") == "#play"
    # the tabs are redrawn on 'hashchange', an event that comes a moment after the key
    page.wait_for_function("document.querySelector('#tab-play').tabIndex === 0")
    assert page.get_attribute("#tab-play", "tabindex") == "0"
    assert page.get_attribute("#tab-watch", "tabindex") == "-1"

    new_game(page, "beginner", 2024)
    page.focus("#play-board")
    page.keyboard.press("ArrowUp")  # the cursor starts in the middle: (4, 4), then (3, 4)
    page.keyboard.press("ArrowDown")
    version = game_state(page)["version"]
    page.keyboard.press("Enter")
    state = wait_version(page, version)
    assert state["position"]["rows"][4][4] != "H"
    mines = mines_of(BEGINNER, 2024, (4, 4))
    target = min(mines, key=lambda m: abs(m[0] - 4) + abs(m[1] - 4))
    for key, steps in (("ArrowDown" if target[0] > 4 else "ArrowUp", abs(target[0] - 4)),
                       ("ArrowRight" if target[1] > 4 else "ArrowLeft", abs(target[1] - 4))):
        for _ in range(steps):
            page.keyboard.press(key)
    assert page.evaluate("play.board.cursor") == list(target)
    page.keyboard.press("f")
    state = wait_version(page, state["version"])
    assert state["position"]["rows"][target[0]][target[1]] == "F"
    page.keyboard.press("f")
    state = wait_version(page, state["version"])
    assert state["position"]["rows"][target[0]][target[1]] == "H"
    assert "Enter or Space opens, F flags" in page.text_content("#play .help")

    # Analyse: keys paint
    open_mode(page, "analyse")
    chromium.blank_board(page, 3, 3, 1)
    page.focus("#analyse-board")
    page.keyboard.press("1")  # the cursor starts at the middle cell
    page.keyboard.press("ArrowRight")
    page.keyboard.press("0")
    page.wait_for_function("analyse.result && analyse.result.position.rows[1] === 'H10'")
    page.wait_for_function("document.querySelector('#analyse-status').dataset.state === 'ok'")

    # Flags: Enter opens the cell under the cursor
    open_mode(page, "flags")
    page.wait_for_function("flags.game && !flags.busy")
    page.evaluate("flags.stepMs = 0")
    page.focus("#flags-board")
    version = page.evaluate("flags.game.version")
    page.keyboard.press("Enter")
    page.wait_for_function("v => flags.game.version > v && !flags.busy", arg=version)
    assert page.evaluate("flags.game.history[0].cell") == [8, 8]


# ---------------------------------------------------------------------- feedback
def test_analyse_errors_copy_and_gif_limits_say_what_happened(page: Any) -> None:
    open_mode(page, "analyse")
    page.wait_for_function("document.querySelector('#analyse-status').dataset.state === 'ok'")
    page.allowed_statuses.add(400)
    page.fill("#analyse-text", "3x2x1\nH1Q\nHHH\n")
    page.click("#analyse-go")
    page.wait_for_function("document.querySelector('#analyse-status').dataset.state === 'error'")
    assert page.evaluate("analyse.board.view") is None  # the old board is gone
    assert page.locator("#analyse-board").bounding_box()["width"] == 0
    message = page.text_content("#analyse-status")
    assert "'Q'" in message or "Q" in message
    page.evaluate("document.querySelector('#error').hidden = true")  # the toast goes...
    assert page.text_content("#analyse-status") == message  # ...the reason stays
    page.fill("#analyse-text", "3x1x1\n1H1\n")
    page.click("#analyse-go")
    page.wait_for_function("document.querySelector('#analyse-status').dataset.state === 'ok'")
    assert page.text_content("#analyse-status") == "1 layout"
    assert "1 certain mine ·" in page.text_content("#analyse-info")
    page.fill("#analyse-text", "3x1x1\nH1H\n")
    page.click("#analyse-go")
    page.wait_for_function("document.querySelector('#analyse-status').textContent === '2 layouts'")
    assert "1 front ·" in page.text_content("#analyse-info")
    page.click("#analyse-copy")
    page.wait_for_selector("#analyse-copy + .note:not(:empty)")
    assert page.text_content("#analyse-copy + .note").startswith(("Copied", "Written"))

    # a board too big for a GIF says so instead of losing its button
    open_mode(page, "watch")
    choose(page, "watch", "101x100x5", 3)
    page.click("#watch-go")
    page.wait_for_function("watch.summary && watch.summary.status === 'done'", timeout=60_000)
    assert page.locator("#watch-gif").is_visible() and page.locator("#watch-gif").is_disabled()
    assert "limited to boards of 10,000 cells" in page.text_content("#watch-gif-info")
    assert "10,100" in page.text_content("#watch-gif-info")


# the requests whose address holds `part` take `ms` longer (a slow network, for them only)
SLOW_FETCH = """([ms, part]) => { const f = window.fetch;
  window.fetch = async (url, options) => {
    if (String(url).includes(part)) await new Promise(d => setTimeout(d, ms));
    return f(url, options); }; }"""


def test_strokes_painted_while_an_answer_is_on_its_way_are_kept(page: Any) -> None:
    open_mode(page, "analyse")
    chromium.blank_board(page, 9, 9, 10)
    page.evaluate(SLOW_FETCH, [400, "/api/analyse"])  # a phone's round trip
    for col in range(5):  # each stroke lands while the answer to the one before is away
        page.evaluate("c => analyse.paint(0, c, 0, '0')", col)
        page.wait_for_timeout(450)
    page.wait_for_function("analyse.result && analyse.result.position.rows[0] === '00000HHHH'",
                           timeout=10_000)
    assert page.evaluate("analyse.grid.rows[0]") == "00000HHHH"


def test_a_new_watched_game_never_shows_a_step_of_the_one_before(page: Any) -> None:
    open_mode(page, "watch")
    choose(page, "watch", "beginner", 1)
    page.click("#watch-go")
    page.wait_for_function("watch.summary && watch.summary.status === 'done'", timeout=60_000)
    page.evaluate(SLOW_FETCH, [1500, "/steps/"])
    page.evaluate("watch.go(1)")  # its answer comes after the switch to the next game
    choose(page, "watch", "expert", 2)
    page.click("#watch-go")
    page.wait_for_function("watch.summary && watch.summary.rules === '30x16x99' "
                           "&& watch.summary.status === 'done'", timeout=60_000)
    page.wait_for_timeout(3000)  # the old game's late answer has arrived
    sizes = page.evaluate("[...watch.steps.values()].map(s => s.position.width)")
    assert all(width == 30 for width in sizes), sizes
    assert page.evaluate("watch.go(2)")
    assert page.evaluate("watch.step.position.width") == 30
    # and while a new game's first step is on its way, nothing of this one stays on show
    # (on its way for 6.5 s: a busy machine may take a second to see the summary)
    page.evaluate(SLOW_FETCH, [5000, "/steps/"])
    choose(page, "watch", "beginner", 3)
    page.click("#watch-go")
    page.wait_for_function("watch.summary && watch.summary.rules === '9x9x10'")
    assert page.evaluate("watch.board.view") is None
    assert page.text_content("#watch-reason") == "Loading the first step…"
    assert page.text_content("#watch-info") == ""
    page.wait_for_function("watch.step && watch.step.position.width === 9", timeout=20_000)


def test_no_two_elements_share_an_id(page: Any) -> None:
    # the rules form's "First click" select and Watch's first-step button were both
    # "watch-first": the button's listener went to the select, the button did nothing
    for mode in ("play", "watch", "analyse", "review", "flags"):
        open_mode(page, mode)
        ids = page.evaluate("[...document.querySelectorAll('[id]')].map(e => e.id)")
        assert len(ids) > 50
        assert sorted({i for i in ids if ids.count(i) > 1}) == [], mode


def watch_played(page: Any, rules: str, seed: int) -> None:
    """A seeded game watched in Watch, played to its end, its first step on show."""
    open_mode(page, "watch")
    choose(page, "watch", rules, seed)
    page.click("#watch-go")
    page.wait_for_function("watch.summary && watch.summary.status === 'done' && watch.step "
                           "&& !watch.loading", timeout=60_000)


def test_a_game_started_while_a_step_loads_shows_its_own_first_step(page: Any) -> None:
    # the new game's step 0, asked for while the old game's last step was on its way,
    # was dropped with that step: a game over before it came stayed on "Loading…"
    watch_played(page, "beginner", 1)
    page.evaluate(SLOW_FETCH, [2500, "/steps/"])
    page.click("#watch-step-last")  # on its way for 2.5 s, and meanwhile a new game
    choose(page, "watch", "intermediate", 21)
    page.click("#watch-go")
    page.wait_for_function("watch.summary && watch.summary.rules === '16x16x40' "
                           "&& watch.summary.status === 'done'", timeout=60_000)
    page.wait_for_function("watch.step && watch.step.position.width === 16 && !watch.loading",
                           timeout=15_000)
    assert page.evaluate("watch.index") == 0
    assert page.get_attribute("#watch-counter", "data-index") == "0"


def test_steps_asked_for_while_one_is_on_its_way_are_shown(page: Any) -> None:
    # a click or key while a step loads was dropped: "Last" pressed as a paused
    # playback's step was still on its way did nothing
    watch_played(page, "expert", 22)
    last = page.evaluate("watch.summary.steps - 1")
    assert last >= 4
    page.evaluate(SLOW_FETCH, [800, "/steps/"])
    page.evaluate("watch.steps.clear()")  # every step now comes slowly
    page.click("#watch-next")  # step 1 on its way, and meanwhile...
    page.click("#watch-step-last")
    page.wait_for_function("i => watch.index === i && !watch.loading", arg=last, timeout=10_000)
    assert page.get_attribute("#watch-counter", "data-index") == str(last)
    # two quick presses go two steps, each counted from the one asked for before
    page.click("#watch-step-first")  # once dead: the page's first "#watch-first" was a select
    page.wait_for_function("watch.index === 0 && !watch.loading")
    page.evaluate("watch.steps.clear()")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("watch.index === 2 && !watch.loading", timeout=10_000)
    page.wait_for_timeout(1000)  # and stays there
    assert page.evaluate("watch.index") == 2
    # Play at the last step plays the game again from its first click
    page.click("#watch-step-last")
    page.wait_for_function("i => watch.index === i && !watch.loading", arg=last, timeout=10_000)
    page.fill("#watch-speed", "30")
    page.click("#watch-play")
    page.wait_for_function("watch.index >= 1 && watch.index < 5", timeout=10_000)
    page.click("#watch-play")  # pause


# ---------------------------------------------------------------------- files and links
def test_files_open_save_and_drop_and_links_reproduce(page: Any, tmp_path: Path) -> None:
    open_mode(page, "analyse")
    mine_file = tmp_path / "example.mine"
    mine_file.write_text(EXAMPLE_POSITION)
    page.fill("#analyse-text", "")
    page.set_input_files("#analyse-open", str(mine_file))
    expected = analyze(Position.from_text(EXAMPLE_POSITION))
    solved = "s => document.querySelector('#analyse-status').dataset.solutions === s"
    page.wait_for_function(solved, arg=str(expected.solutions))
    with page.expect_download() as download:
        page.click("#analyse-save")
    saved = Path(download.value.path()).read_text()
    assert download.value.suggested_filename == "position.mine"
    assert Position.from_text(saved) == Position.from_text(EXAMPLE_POSITION)
    # saved by Notepad ("UTF-8 with BOM") with a "W×H×M" header: still a position, not a board
    header, rest = EXAMPLE_POSITION.split("\n", 1)
    for name in ("notepad.mine", "notepad"):
        (tmp_path / name).write_bytes(
            b"\xef\xbb\xbf" + (header.replace("x", "×") + "\n" + rest).encode())
        page.fill("#analyse-text", "")
        page.set_input_files("#analyse-open", str(tmp_path / name))
        page.wait_for_function("document.querySelector('#analyse-text').value.includes('×')")
        page.wait_for_function(solved, arg=str(expected.solutions))
        assert page.evaluate("location.hash") == "#analyse"

    # a link to the position opens it in Analyse
    page.click("#analyse-share")
    page.wait_for_function("document.querySelector('#analyse-share').dataset.url")
    url = page.get_attribute("#analyse-share", "data-url")
    assert "?position=" in url and url.endswith("#analyse")
    other = page.context.new_page()
    other.goto(url)
    other.wait_for_selector("body[data-ready=true]")
    other.wait_for_function(solved, arg=str(expected.solutions))
    other.close()

    # an MBF board dropped on the page is dealt in Play; once over it saves back the same
    layout = Layout(9, 9, (0, 10, 20, 30, 40, 50, 60, 70, 80, 8))
    data = write_mbf(layout)
    page.evaluate(
        """bytes => {
          const moved = new DataTransfer();
          moved.items.add(new File([new Uint8Array(bytes)], 'diag ☃.mbf'));
          const drop = new DragEvent('drop',
            {dataTransfer: moved, bubbles: true, cancelable: true});
          document.querySelector('#analyse-board').dispatchEvent(drop);
        }""",
        list(data),
    )
    page.wait_for_function("play.game && play.game.board === 'diag ☃.mbf'")
    assert page.evaluate("location.hash") == "#play"
    assert page.locator("#play-save").is_disabled()  # secret until the game is over
    assert page.locator("#play-share").is_disabled()  # a file's board has no seed to share
    state = play_move(page, 0, 0)  # a mine: the board from the file, unprotected
    assert state["status"] == "lost" and "board diag ☃.mbf" in page.text_content("#play-status")
    with page.expect_download() as download:
        page.click("#play-save")
    assert read_mbf(Path(download.value.path()).read_bytes()) == layout
    assert download.value.suggested_filename == "diag ☃.mbf"  # saved under its own name

    # a seeded game's link deals the very same game
    new_game(page, "beginner", 515)
    url = page.get_attribute("#play-share", "data-url")
    assert "rules=9x9x10" in url and "seed=515" in url
    other = page.context.new_page()
    other.goto(url)
    other.wait_for_selector("body[data-ready=true]")
    other.wait_for_function("play.game && play.game.seed === '515'")
    assert other.evaluate("play.game.id") != game_state(page)["id"]
    other.close()


# ---------------------------------------------------------------------- palette
def test_a_colour_blind_safe_palette_from_the_server(page: Any) -> None:
    open_mode(page, "analyse")
    page.fill("#analyse-text", "3x1x1\nH1H\n")  # each covered cell: exactly 50%
    page.click("#analyse-go")
    page.wait_for_function("document.querySelector('#analyse-status').dataset.state === 'ok'")
    heat = scale_table("heat")[50]
    assert settled_pixel(page, "#analyse-board", 0, 0, heat) == heat
    page.select_option("#palette", "colour-blind")
    blind = scale_table("colour-blind")[50]
    assert settled_pixel(page, "#analyse-board", 0, 0, blind) == blind
    page.reload()  # the choice is remembered
    page.wait_for_selector("body[data-ready=true]")
    assert page.input_value("#palette") == "colour-blind"


# ---------------------------------------------------------------------- timing
# the time of the input (pointerdown) and of each frame after a drawing (rAF)
FRAME_PROBE = """board => {
  window.frames_ = [];
  const b = { play, analyse }[board].board;
  const draw = b.draw.bind(b);
  b.draw = (...args) => {
    draw(...args);
    requestAnimationFrame(() => frames_.push(performance.now()));
  };
  b.canvas.addEventListener('pointerdown', () => { window.t0_ = performance.now(); },
    {capture: true});
}"""
LATENCY = """() => {
  const f = frames_.find((t) => t > t0_);
  return f === undefined ? null : f - t0_;
}"""


def latency(page: Any) -> float:
    page.wait_for_function(f"({LATENCY})() !== null")
    ms: float = page.evaluate(LATENCY)
    return ms


def test_input_to_next_frame_on_200_by_200(page: Any) -> None:
    """Not asserted on time: the figures go to test-artifacts/web/timings.txt and
    docs/benchmarks.md."""
    open_mode(page, "play")
    new_game(page, "200x200x6000", 11)
    page.evaluate(FRAME_PROBE, "play")
    rules = Rules(200, 200, 6000, first_click=game_state(page)["first_click"])
    mines = mines_of(rules, 11, (2, 2))

    def reveals(rows_from: int, count: int, *, hinted: bool) -> list[float]:
        """Open `count` safe cells, one in each fifth row from `rows_from`: their latencies."""
        times = []
        for k in range(count):
            rows = game_state(page)["position"]["rows"]
            cell = next((r, c) for r in range(rows_from + 5 * k, 200) for c in range(2, 200)
                        if rows[r][c] == "H" and (r, c) not in mines)
            assert play_move(page, *cell)["status"] == "playing"
            times.append(latency(page))
            if hinted:
                page.wait_for_function("play.hint && play.hint.version === play.game.version",
                                       timeout=60_000)
        return times

    first, *reveal = reveals(2, 6, hinted=False)  # the first lays the 6,000 mines
    assert page.evaluate("play.board.lastDraw.cells") < 40_000
    # with probabilities: the last ones stay on the covered cells until the new ones come
    page.check("#play-hint")
    page.wait_for_function("play.hint && play.hint.version === play.game.version",
                           timeout=60_000)
    hinted = reveals(40, 3, hinted=True)
    page.uncheck("#play-hint")

    open_mode(page, "analyse")
    chromium.blank_board(page, 200, 200, 4000)
    page.evaluate(FRAME_PROBE, "analyse")
    paint = []
    for k in range(6):
        page.click(f"#analyse-brushes label:has-text('{k % 3 + 1}')")
        click_cell(page, "#analyse-board", 10 + 3 * k, 10 + 3 * k)
        paint.append(latency(page))
        assert page.evaluate("analyse.board.lastDraw.cells") <= 2
    full = page.evaluate("() => { const t = performance.now(); analyse.board.draw(); "
                         "return performance.now() - t; }")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / "timings.txt", "a") as log:
        log.write(
            "200x200 input to next frame (ms): "
            f"first reveal {first:.1f}; reveal {' '.join(f'{t:.1f}' for t in reveal)}; "
            f"reveal with probabilities {' '.join(f'{t:.1f}' for t in hinted)}; "
            f"paint {' '.join(f'{t:.1f}' for t in paint)}; one full redraw {full:.1f}\n")
