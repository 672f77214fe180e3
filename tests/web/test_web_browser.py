"""The page in a real browser: playwright drives Debian's chromium against the real server.

``make test`` installs chromium with apt when it is missing (``playwright install``
cannot download here).  The tests are skipped, saying why, only when chromium cannot
be started at all.  Screenshots of each mode are kept in ``test-artifacts/web/``;
with ``MINESOLVER_SCREENSHOTS=docs/screenshots`` they are written there too (the
README's pictures).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minesolver.analysis import analyze
from minesolver.codes import COVERED
from minesolver.game import Game
from minesolver.position import EXAMPLE_POSITION, Position
from minesolver.rules import BEGINNER
from minesolver.variants.flags import FLAGS, FlagsGame, bomb_square

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "web"
LAPTOP = {"width": 1366, "height": 768}


# ---------------------------------------------------------------------- fixtures
# the app with the AI's runs in Flags cut after every move (a crowded board's long run)
CUT_RUNS = """
import socket, uvicorn
from minesolver.web import create_app
sock = socket.create_server(("127.0.0.1", 0))
print(f"serving on http://127.0.0.1:{sock.getsockname()[1]}/", flush=True)
config = uvicorn.Config(create_app(flags_run_seconds=0.0), log_level="warning")
uvicorn.Server(config).run(sockets=[sock])
"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The real ``minesolver serve`` on a free port of 127.0.0.1; yields its address."""
    yield from serving([sys.executable, "-m", "minesolver", "serve", "--port", "0"])


@pytest.fixture(scope="module")
def cut_server() -> Iterator[str]:
    """The app on a free port of 127.0.0.1, each AI run in Flags cut after one move."""
    yield from serving([sys.executable, "-c", CUT_RUNS])


def serving(command: list[str]) -> Iterator[str]:
    """Run ``command`` (a server that prints its address first); yield the address."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
    if match is None:
        process.kill()
        pytest.fail(f"minesolver serve did not start: {line!r} {process.stderr.read()!r}")
    yield match.group(1)
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium through playwright, or a skip that says why it cannot start."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"chromium is not installed at {CHROMIUM} (make test installs it with apt)")
    with sync_api.sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Exception as exc:  # the one reason to skip: no browser can run here
            pytest.skip(f"chromium at {CHROMIUM} cannot be started: {exc}")
        yield chromium
        chromium.close()


def watched_page(
    browser: Any, server: str, *, bypass_csp: bool, **options: Any
) -> tuple[Any, Any, list[str]]:
    """A fresh context (its own session cookie), a laptop-sized window (or the viewport and
    touch emulation given in ``options``), its errors."""
    context = browser.new_context(
        **{"viewport": LAPTOP, "base_url": server, "bypass_csp": bypass_csp, **options})
    tab = context.new_page()
    problems: list[str] = []
    tab.allowed_statuses = set()  # 4xx answers a test provokes on purpose
    tab.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))

    def console(msg: Any) -> None:
        # chromium logs every 4xx as "Failed to load resource"; responses are checked below
        if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
            problems.append(f"console: {msg.text}")

    def response(answer: Any) -> None:
        if answer.status >= 400 and answer.status not in tab.allowed_statuses:
            problems.append(f"{answer.status} from {answer.request.method} {answer.url}")

    tab.on("console", console)
    tab.on("response", response)
    return context, tab, problems


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A page whose scripts the test may inspect; fails the test on any page error.

    The app's Content-Security-Policy forbids eval, which playwright's
    ``wait_for_function`` needs, so these contexts bypass it;
    ``test_the_page_runs_under_its_own_csp`` covers the page with it.
    """
    context, tab, problems = watched_page(browser, server, bypass_csp=True)
    yield tab
    context.close()
    assert not problems, problems


def test_the_page_runs_under_its_own_csp(browser: Any, server: str) -> None:
    context, tab, problems = watched_page(browser, server, bypass_csp=False)
    for mode in ("play", "watch", "analyse", "flags"):
        open_mode(tab, mode)
        assert tab.locator(f"#{mode}").is_visible()
    context.close()
    assert not problems, problems


def open_mode(page: Any, mode: str) -> None:
    page.goto(f"/#{mode}")
    page.wait_for_selector("body[data-ready=true]")


def screenshot(page: Any, name: str, *, readme: bool = False) -> None:
    """Keep a screenshot as a test artifact (and as a README picture when asked)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    extra = os.environ.get("MINESOLVER_SCREENSHOTS")
    if extra and readme:
        Path(extra).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(extra) / path.name)


def click_cell(page: Any, board: str, row: int, col: int, button: str = "left") -> None:
    canvas = page.locator(board)
    size = float(canvas.get_attribute("data-cell"))
    canvas.click(position={"x": (col + 0.5) * size, "y": (row + 0.5) * size}, button=button)


def game_state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("play.game")
    return state


def play_move(page: Any, row: int, col: int, button: str = "left") -> dict[str, Any]:
    """Click a cell in Play and wait for the server's answer to be drawn."""
    version = game_state(page)["version"]
    click_cell(page, "#play-board", row, col, button)
    page.wait_for_function("v => play.game.version > v && !play.busy", arg=version)
    return game_state(page)


# ---------------------------------------------------------------------- Play
def test_play_a_seeded_game_to_a_win(page: Any) -> None:
    open_mode(page, "play")
    page.select_option("#play-preset", "beginner")
    page.fill("#play-seed", "2024")
    page.click("#play-new")
    page.wait_for_function("play.game && play.game.seed === '2024' && play.game.status === 'ready'")
    assert page.text_content("#play-mines") == "10"

    state = play_move(page, 4, 4)
    assert state["status"] == "playing"
    referee = Game(BEGINNER, seed=2024)  # the same seed and first click: the same layout
    referee.reveal(4, 4)
    assert referee.layout is not None
    mines = set(referee.layout.mine_cells())

    page.check("#play-hint")
    page.wait_for_function("document.querySelector('#play-hint-info').textContent.includes('layouts')")
    hint = page.evaluate("play.hint.analysis")
    expected = analyze(Position.from_text("9x9x10\n" + "\n".join(state["position"]["rows"])))
    assert hint["solutions"] == str(expected.solutions)

    flag = sorted(mines)[0]
    state = play_move(page, *flag, button="right")
    assert state["position"]["rows"][flag[0]][flag[1]] == "F"
    assert page.text_content("#play-mines") == "9"

    while state["status"] == "playing":
        rows = state["position"]["rows"]
        cell = next((r, c) for r in range(9) for c in range(9)
                    if rows[r][c] == "H" and (r, c) not in mines)
        state = play_move(page, *cell)
    assert state["status"] == "won"
    status = page.locator("#play-status")
    assert status.get_attribute("data-status") == "won"
    assert "won" in status.text_content()
    screenshot(page, "play-won")


def test_play_hints_and_solver_on_an_expert_board(page: Any) -> None:
    open_mode(page, "play")
    page.select_option("#play-preset", "expert")
    page.fill("#play-seed", "140")
    page.click("#play-new")
    page.wait_for_function("play.game && play.game.rules === '30x16x99'")
    play_move(page, 8, 15)
    page.check("#play-hint")
    for _ in range(3):  # the solver opens every cell it proves safe (it never guesses here)
        page.wait_for_function("play.hint && play.hint.version === play.game.version")
        if not page.evaluate("play.hint.analysis.safe.length"):
            break
        version = game_state(page)["version"]
        page.click("#play-solve")
        page.wait_for_function("v => play.game.version > v && !play.busy", arg=version)
        assert page.text_content("#play-move").endswith(("deduction", "…")) or "safe cells" in (
            page.text_content("#play-move"))
    assert game_state(page)["status"] == "playing"
    page.wait_for_function("play.hint && play.hint.version === play.game.version")
    rows = game_state(page)["position"]["rows"]
    r, c = next((r, c) for r in range(16) for c in range(30) if rows[r][c] == "H")
    size = float(page.locator("#play-board").get_attribute("data-cell"))
    page.locator("#play-board").hover(position={"x": (c + 0.5) * size, "y": (r + 0.5) * size})
    assert page.text_content("#tooltip").startswith(f"({r}, {c}): covered")
    screenshot(page, "play", readme=True)


def test_a_200_by_200_board_plays_with_hints(page: Any) -> None:
    open_mode(page, "play")
    page.select_option("#play-preset", "custom")
    page.fill("#play-w", "200")
    page.fill("#play-h", "200")
    page.fill("#play-m", "6000")
    page.fill("#play-seed", "11")
    page.click("#play-new")
    page.wait_for_function("play.game && play.game.rules === '200x200x6000'")
    state = play_move(page, 2, 2)
    assert state["status"] == "playing"
    page.check("#play-hint")
    page.wait_for_function("play.hint && play.hint.version === play.game.version", timeout=60_000)
    ms = page.evaluate("() => { const t = performance.now(); play.board.draw(); "
                       "return performance.now() - t; }")
    (ARTIFACTS / "timings.txt").parent.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / "timings.txt", "a") as log:
        log.write(f"200x200 board with hints: one redraw took {ms:.1f} ms\n")
    assert page.locator("#play-board").get_attribute("data-cols") == "200"
    screenshot(page, "play-200x200")


# ---------------------------------------------------------------------- Watch
def test_watch_steps_forward_and_back(page: Any) -> None:
    open_mode(page, "watch")
    page.select_option("#watch-preset", "expert")
    page.select_option("#watch-strategy", "best")
    page.fill("#watch-seed", "22")
    page.click("#watch-go")
    counter = page.locator("#watch-counter")
    page.wait_for_function("document.querySelector('#watch-counter').dataset.status === 'done'")
    page.wait_for_function("watch.step && watch.index === 0 && !watch.loading")
    assert counter.get_attribute("data-index") == "0"
    assert page.locator("#watch-reason").get_attribute("data-reason") == "first"

    def index() -> int:
        return int(counter.get_attribute("data-index"))

    page.click("#watch-next")
    page.wait_for_function("watch.index === 1 && !watch.loading")
    assert page.locator("#watch-reason").get_attribute("data-reason") in (
        "deduction", "guess", "forced", "fifty", "region", "endgame")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("watch.index === 2 && !watch.loading")
    page.click("#watch-back")
    page.wait_for_function("watch.index === 1 && !watch.loading")
    assert index() == 1

    page.fill("#watch-speed", "30")
    page.click("#watch-play")
    page.wait_for_function("watch.index >= 3")
    page.click("#watch-play")  # pause
    assert page.text_content("#watch-play") == "Play"

    page.click("#watch-step-last")
    page.wait_for_function("watch.step && watch.step.outcome !== null && !watch.loading")
    assert page.locator("#watch-reason").get_attribute("data-reason") in ("won", "lost")

    # a step with fronts in their colours, for the picture
    best = page.evaluate(
        """async () => {
          let best = 1, most = -1;
          for (let i = 1; i < watch.summary.steps - 1; i++) {
            const fronts = (await watch.fetchStep(i)).analysis.fronts.length;
            if (fronts > most) { most = fronts; best = i; }
          }
          return best;
        }"""
    )
    page.evaluate("i => watch.go(i)", best)
    page.wait_for_function("i => watch.index === i && !watch.loading", arg=best)
    assert page.locator("#watch-fronts-list .chip").count() >= 1
    screenshot(page, "watch", readme=True)

    # the GIF is drawn on request: the page counts the seconds, then hands the file over
    gif = page.locator("#watch-gif")
    assert gif.is_visible() and gif.is_enabled()
    page.evaluate("""() => {
      window.gifTexts = [];
      const info = document.querySelector('#watch-gif-info');
      new MutationObserver(() => gifTexts.push(info.textContent))
        .observe(info, {childList: true, characterData: true, subtree: true});
    }""")
    with page.expect_download() as download:
        gif.click()
    assert Path(download.value.path()).read_bytes()[:6] == b"GIF89a"
    page.wait_for_function("document.querySelector('#watch-gif-info').dataset.state === 'done'")
    assert "GIF ready" in page.text_content("#watch-gif-info")
    assert page.evaluate("gifTexts")[0].startswith("Drawing ")


# ---------------------------------------------------------------------- Analyse
def blank_board(page: Any, width: int, height: int, mines: int) -> None:
    """A new blank board to paint in Analyse, once the server has analysed it."""
    for field, value in (("w", width), ("h", height), ("m", mines)):
        page.fill(f"#analyse-{field}", str(value))
    page.click("#analyse-blank")
    page.wait_for_function(
        "w => analyse.result && analyse.result.position.width === w && "
        "document.querySelector('#analyse-status').dataset.state === 'ok'",
        arg=width, timeout=60_000)


def test_analyse_pasted_painted_and_inconsistent_positions(page: Any) -> None:
    open_mode(page, "analyse")
    status = page.locator("#analyse-status")
    page.fill("#analyse-text", EXAMPLE_POSITION)
    page.click("#analyse-go")
    expected = analyze(Position.from_text(EXAMPLE_POSITION))
    page.wait_for_function(
        "s => document.querySelector('#analyse-status').dataset.solutions === s",
        arg=str(expected.solutions),
    )
    assert status.get_attribute("data-state") == "ok"
    assert f"{len(expected.safe)} safe" in page.text_content("#analyse-info")
    # the API's "mine" includes the flags; the page counts the certain mines not flagged
    unflagged = sum(1 for r, c in expected.mines if expected.position.cell(r, c) == COVERED)
    assert unflagged < len(expected.mines)
    assert f"· {unflagged} certain mines ·" in page.text_content("#analyse-info")
    page.locator("#analyse-board").hover(position={"x": 5, "y": 5})
    assert "mine probability" in page.text_content("#tooltip")
    screenshot(page, "analyse", readme=True)

    # an inconsistent position: the clue is named and outlined
    page.allowed_statuses.add(422)
    page.fill("#analyse-text", "3x1x1\n1H2\n")
    page.click("#analyse-go")
    page.wait_for_function(
        "document.querySelector('#analyse-status').dataset.state === 'inconsistent'")
    assert "(0, 2)" in page.text_content("#analyse-info")
    screenshot(page, "analyse-inconsistent")

    # paint a position, then copy it out as .mine text
    blank_board(page, 4, 3, 2)
    page.click("#analyse-brushes label:has-text('1')")
    click_cell(page, "#analyse-board", 1, 1)
    page.click("#analyse-brushes label:has-text('0')")
    click_cell(page, "#analyse-board", 2, 3)
    page.wait_for_function(
        "analyse.result && analyse.result.position.rows[2][3] === '0'")
    page.wait_for_function("document.querySelector('#analyse-status').dataset.state === 'ok'")
    page.click("#analyse-copy")
    page.wait_for_function("document.querySelector('#analyse-text').value.startsWith('4x3x2')")
    assert page.input_value("#analyse-text") == "4x3x2\nHHHH\nH1HH\nHHH0\n"


# ---------------------------------------------------------------------- Flags
def flags_state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("flags.game")
    return state


def flags_move(page: Any, row: int, col: int) -> dict[str, Any]:
    """Click a cell in Flags and wait for the AI's answer to be shown to its end."""
    version = flags_state(page)["version"]
    click_cell(page, "#flags-board", row, col)
    page.wait_for_function("v => flags.game.version > v && !flags.busy", arg=version)
    return flags_state(page)


def ai_first(page: Any, rules: str, seed: int) -> None:
    """A new Flags game against ``exact``, which moves first, on ``rules`` (WxHxM)."""
    for field, value in zip(("#flags-w", "#flags-h", "#flags-m"), rules.split("x"),
                            strict=True):
        page.fill(field, value)
    page.fill("#flags-seed", str(seed))
    page.select_option("#flags-ai", "exact")
    page.select_option("#flags-first", "ai")
    page.click("#flags-new")


def test_flags_asks_for_the_rest_of_a_long_ai_run(browser: Any, cut_server: str) -> None:
    """On a crowded board the AI claims mine after mine; the server answers after part of
    such a run (here after each move) and the page asks for the rest until the end."""
    context, tab, problems = watched_page(browser, cut_server, bypass_csp=True)
    asked: list[str] = []
    tab.on("request", lambda r: asked.append(r.url) if r.url.endswith("/ai") else None)
    open_mode(tab, "flags")
    tab.wait_for_function("flags.game && !flags.busy")
    tab.evaluate("flags.stepMs = 20")
    ai_first(tab, "6x6x33", 14)
    tab.wait_for_function("flags.game && flags.game.over && !flags.busy")
    state = flags_state(tab)
    # the AI won without the person's moving: 17 mines in a row, 16 of them asked for
    assert state["scores"] == [0, 17] and state["winner"] == 1
    assert [t["player"] for t in state["history"]] == [1] * 17
    assert len(asked) == 16
    assert tab.get_attribute("#flags-status", "data-status") == "lost"
    assert tab.text_content("#flags-score-1") == "17"
    assert not problems, problems
    context.close()


def test_flags_a_run_cut_by_a_failed_request_goes_on_at_a_click(
    browser: Any, cut_server: str
) -> None:
    # the game stayed in the AI's turn with nothing to press but New game
    context, tab, problems = watched_page(browser, cut_server, bypass_csp=True)
    failed: list[str] = []

    def once(route: Any) -> None:
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort()

    tab.route("**/ai", once)
    open_mode(tab, "flags")
    tab.wait_for_function("flags.game && !flags.busy")
    tab.evaluate("flags.stepMs = 20")
    ai_first(tab, "6x6x33", 14)
    tab.wait_for_function("flags.game && flags.game.seed === '14' && !flags.busy")
    assert failed and flags_state(tab)["turn"] == 1
    assert tab.text_content("#flags-status") == (
        "exact stopped part way: click the board to let it go on.")
    click_cell(tab, "#flags-board", 5, 5)
    tab.wait_for_function("flags.game.over && !flags.busy")
    assert flags_state(tab)["scores"] == [0, 17]
    context.close()
    assert not [p for p in problems if "/ai" not in p], problems


def test_flags_log_follows_a_long_answer_as_it_is_shown(page: Any) -> None:
    # the log was the game's last 50 turns less those not shown yet: empty while an
    # answer of 73 turns was shown
    open_mode(page, "flags")
    page.wait_for_function("flags.game && !flags.busy")
    # what the log held as each turn was shown (turns still to come, entries, the newest)
    page.evaluate("""() => { window.seen = []; const show = flags.showLog.bind(flags);
      flags.showLog = () => { show(); const log = document.querySelectorAll('#flags-log li');
        window.seen.push([flags.view.pending, log.length, log.length ? log[0].textContent
          : '', document.querySelector('#flags-status').textContent]); }; }""")
    ai_first(page, "20x20x396", 1)
    page.wait_for_function("flags.game && flags.game.turns === 73 && !flags.busy",
                           timeout=60_000)
    seen = page.evaluate("window.seen")
    during = [row for row in seen if 50 < row[0] <= 61]  # 12 to 22 turns of 73 shown
    assert len(during) == 11
    for _, entries, newest, status in during:
        assert entries == 12 and status.endswith(newest.removeprefix("exact"))
    assert page.locator("#flags-log li").count() == 12


def test_flags_against_the_ai_with_a_bomb(page: Any) -> None:
    open_mode(page, "flags")
    page.wait_for_function("flags.game && !flags.busy")  # the tab starts a game when shown
    page.select_option("#flags-ai", "hard")
    page.select_option("#flags-first", "you")
    page.fill("#flags-seed", "31")
    page.click("#flags-new")
    page.wait_for_function("flags.game && flags.game.seed === '31' && !flags.busy")
    page.evaluate("flags.stepMs = 60")  # show the AI's turns quickly
    state = flags_state(page)
    assert (state["rules"], state["ai"], state["turn"]) == ("16x16x51", "hard", 0)
    assert page.text_content("#flags-score-0") == "0"
    assert page.locator("#flags-bomb").is_disabled()
    referee = FlagsGame(FLAGS, seed=31)  # the same seed: the same mines
    mines = set(referee.layout.mine_cells())

    # open safe cells, so the AI gets the turn each time, until it leads
    for _ in range(12):
        if state["over"] or state["can_bomb"][0]:
            break
        rows = state["board"]
        cell = next((r, c) for r in range(16) for c in range(16)
                    if rows[r][c] == "H" and (r, c) not in mines)
        state = flags_move(page, *cell)
        assert state["history"][-1]["player"] == 1 and state["turn"] == 0
        assert page.get_attribute("#flags-status", "data-status") == "you"
    assert state["can_bomb"] == [True, False]
    assert page.text_content("#flags-score-1") == str(state["scores"][1])
    assert page.locator("#flags-log li.p1").count() >= 1

    # the bomb: the square around the pointer is outlined, a click drops it
    rows = state["board"]

    def unclaimed_in(r: int, c: int) -> int:
        return sum(1 for i in bomb_square(r * 16 + c, 16, 16)
                   if divmod(i, 16) in mines and rows[i // 16][i % 16] == "H")

    target = max(((r, c) for r in range(16) for c in range(16)), key=lambda rc: unclaimed_in(*rc))
    page.click("#flags-bomb")
    assert page.get_attribute("#flags-bomb", "aria-pressed") == "true"
    size = float(page.locator("#flags-board").get_attribute("data-cell"))
    page.locator("#flags-board").hover(
        position={"x": (target[1] + 0.5) * size, "y": (target[0] + 0.5) * size})
    r, c = target
    square = [max(0, r - 2), max(0, c - 2), min(15, r + 2), min(15, c + 2)]
    page.wait_for_function("s => JSON.stringify(flags.board.view.square) === s",
                           arg=str(square).replace(" ", ""))
    before = state["scores"][0]
    state = flags_move(page, *target)
    bomb = next(t for t in reversed(state["history"]) if t["player"] == 0)
    assert (bomb["kind"], bomb["cell"]) == ("bomb", list(target))
    assert state["bombs_used"][0] and len(bomb["claimed"]) == unclaimed_in(*target) > 0
    assert state["scores"][0] == before + len(bomb["claimed"])
    assert page.locator("#flags-bomb").is_disabled()
    assert page.get_attribute("#flags-bomb", "aria-pressed") == "false"
    page.mouse.move(0, 0)  # no tooltip in the picture
    screenshot(page, "flags", readme=True)

    # a mine of the person's: it is claimed in the person's colour and the turn stays
    if not state["over"]:
        rows = state["board"]
        mine = next(m for m in sorted(mines) if rows[m[0]][m[1]] == "H")
        state = flags_move(page, *mine)
        assert list(mine) in state["claimed"][0]
        assert state["history"][-1]["player"] == 0 and (state["over"] or state["turn"] == 0)
        page.locator("#flags-board").hover(
            position={"x": (mine[1] + 0.5) * size, "y": (mine[0] + 0.5) * size})
        assert page.text_content("#tooltip") == f"({mine[0]}, {mine[1]}): mine claimed by you"
    assert "You" in page.inner_text("#flags-log")
    screenshot(page, "flags-end")


def test_a_small_flags_game_to_the_end(page: Any) -> None:
    open_mode(page, "flags")
    page.wait_for_function("flags.game && !flags.busy")
    page.fill("#flags-w", "6")
    page.fill("#flags-h", "5")
    page.fill("#flags-m", "7")
    page.select_option("#flags-ai", "exact")
    page.select_option("#flags-first", "ai")
    page.fill("#flags-seed", "5")
    page.evaluate("flags.stepMs = 0")
    page.click("#flags-new")
    page.wait_for_function("flags.game && flags.game.rules === '6x5x7' && !flags.busy")
    state = flags_state(page)
    assert state["first"] == 1 and state["history"][0]["player"] == 1
    while not state["over"]:  # the person opens the first covered cell each time
        rows = state["board"]
        state = flags_move(page, *next((r, c) for r in range(5) for c in range(6)
                                       if rows[r][c] == "H"))
    status = page.locator("#flags-status")
    expected = "draw" if state["draw"] else "won" if state["winner"] == 0 else "lost"
    assert status.get_attribute("data-status") == expected
    assert "Seed 5." in status.text_content()
    assert page.evaluate("flags.board.view.mineSet.size") == 7  # every mine is drawn
    assert page.locator("#flags-bomb").is_disabled()
    screenshot(page, "flags-over")
