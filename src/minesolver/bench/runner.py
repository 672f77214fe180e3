"""Play many games, on all cores or on a Dask cluster, into the store.

Game ``i`` of a run always gets the board seed ``derive_seed(run_seed, i)``
(or layout ``i`` of a layout file), and every strategy of the run plays that same
board: results do not depend on the number of workers, the backend, or the
order in which games finish.  A *paired* run (sweeps: ``spec.extra["paired"]``)
seeds game ``j`` of every point with ``derive_seed(run_seed, j)`` and lays it with
:func:`~minesolver.game.paired_layout`, so points that differ only in the noise
model play the same layouts, and points that differ only in the first-click rule
play the same layout whenever it satisfies both rules.  Work is cut into small
chunks; each finished game is written to the store, so a killed run resumes where
it stopped.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from concurrent.futures import CancelledError
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from .. import __version__
from ..errors import InputError, counted, quote
from ..formats import layout_line, read_boards
from ..game import Game, Layer, first_click_broken, paired_layout
from ..minefield import Layout
from ..play import GameRecord, Start, format_start, layer_for, play_game, start_cell
from ..rng import derive_seed
from ..rules import Rules
from ..strategies import STRATEGIES, Strategy, find_strategy
from .pool import chunks, run_chunks
from .spec import RunSpec
from .store import GameRow, Store

__all__ = [
    "Job",
    "PendingJobs",
    "board_layer",
    "board_seed",
    "check_boards_unchanged",
    "check_scheduler",
    "layout_of",
    "load_layouts",
    "pending_jobs",
    "play_chunk",
    "play_job",
    "run_jobs",
    "validate",
    "warm_up",
]

CHUNK = 4  # games per task: small enough for a smooth progress bar
BIG_BOARD = 10_000  # cells: past it a game takes seconds, and a task is one game


@dataclass(frozen=True)
class Job:
    """One game of one strategy in a run."""

    strategy: str
    game_index: int
    layout: Layout | None = None


def load_layouts(spec: RunSpec) -> list[Layout] | None:
    """The boards a run plays from its board file (layout JSON lines or MBF): the
    first ``spec.total_games`` (fewer if the file holds fewer), or ``None`` for a run
    that lays its own boards."""
    if spec.layouts is None:
        return None
    return read_boards(spec.layouts, limit=spec.total_games)


BOARDS_DIGEST = "boards_sha256"  # in a run's extra: the boards it plays from its board file


def validate(spec: RunSpec) -> RunSpec:
    """Refuse a run that cannot be played, before anything is stored: unknown
    strategies, a start off a board, a board file that does not fit the run.  Returns
    the run to store: with a board file, ``spec`` with a digest of the boards it plays
    (``extra["boards_sha256"]``), so that a resumed run can tell the file has changed."""
    same: dict[object, str] = {}
    for name in spec.strategies:
        key = STRATEGIES.key(name)  # also refuses an unknown strategy or option
        if key in same:
            raise InputError(f"--strategy {quote(name)} is {quote(same[key])} again (the "
                             "same strategy with the same options): give it once")
        same[key] = name
    for point, rules in enumerate(spec.points):
        start_cell(rules, spec.start or "corner")
        if rules.no_guess:
            if spec.layouts is not None:
                raise InputError(
                    "a no-guess run lays its own boards: it cannot play a layout file"
                )
            layout_of(spec, point * spec.games)  # too dense: NoGuessError now, not in a worker
    if spec.layouts is None:
        return spec
    boards = load_layouts(spec)
    if not boards:
        raise InputError(f"{spec.layouts} holds no board")
    if len(boards) < spec.total_games:
        fewer = f": give --games {len(boards)} or fewer" if len(spec.points) == 1 else ""
        raise InputError(
            f"{spec.layouts} holds {counted(len(boards), 'board')} but the run needs "
            f"{spec.total_games}{fewer}"
        )
    for index, board in enumerate(boards):
        rules = spec.rules_for(index)
        if (board.width, board.height, len(board.mines)) != (
            rules.width, rules.height, rules.mines
        ):
            raise InputError(
                f"board {index + 1} of {spec.layouts} is "
                f"{board.width}x{board.height}x{len(board.mines)}, not {rules}"
            )
        broken = first_click_broken(rules, board, start_cell(rules, spec.start or "corner"))
        if broken:
            raise InputError(f"{_where(spec.layouts, index)} {broken}")
    return replace(spec, extra={**spec.extra, BOARDS_DIGEST: _boards_digest(boards)})


def check_boards_unchanged(spec: RunSpec) -> None:
    """Refuse to go on with a run whose board file no longer holds the boards it began
    on: the games stored were played on those, the rest would be played on others."""
    stored = spec.extra.get(BOARDS_DIGEST)
    if spec.layouts is None or stored is None:  # no board file, or a run made before
        return
    if _boards_digest(load_layouts(spec) or []) != stored:
        raise InputError(f"{spec.layouts} no longer holds the boards this run began on: "
                         "put the file back as it was, or start a new run")


def _boards_digest(boards: list[Layout]) -> str:
    digest = hashlib.sha256()
    for board in boards:
        digest.update(layout_line(board).encode())
    return digest.hexdigest()


def _where(path: str, index: int) -> str:
    """``board N of FILE``, with its line in a layout file (the N-th non-blank line)."""
    with open(path, "rb") as handle:
        if handle.read(64).lstrip()[:1] != b"{":  # MBF: records, not lines
            return f"board {index + 1} of {path}"
        handle.seek(0)
        lines = (number for number, line in enumerate(handle, start=1) if line.strip())
        line = next((n for i, n in enumerate(lines) if i == index), index + 1)
    return f"{path}: line {line} (board {index + 1})"


def board_seed(spec: RunSpec, game_index: int) -> int:
    """The seed of game ``game_index``'s board (the same at every point of a paired run).

    >>> spec = RunSpec(points=(Rules(9, 9, 10), Rules(9, 9, 10, noise="cautious")),
    ...                strategies=("tank",), games=5, seed=1, extra={"paired": True})
    >>> board_seed(spec, 2) == board_seed(spec, 7)
    True
    """
    if spec.extra.get("paired"):
        return derive_seed(spec.seed, game_index % spec.games)
    return derive_seed(spec.seed, game_index)


def board_layer(spec: RunSpec, rules: Rules) -> Layer | None:
    """How a run lays its boards under ``rules``: no-guess boards their own way,
    paired runs with :func:`~minesolver.game.paired_layout`."""
    if spec.extra.get("paired") and not rules.no_guess:
        return paired_layout
    return layer_for(rules)


def layout_of(spec: RunSpec, game_index: int, layouts: list[Layout] | None = None) -> Layout:
    """The board game ``game_index`` of a run is played on."""
    if layouts is not None:
        return layouts[game_index]
    rules = spec.rules_for(game_index)
    game = Game(rules, seed=board_seed(spec, game_index), lay=board_layer(spec, rules))
    game.reveal(*start_cell(rules, spec.start or "corner"))
    assert game.layout is not None
    return game.layout


class PendingJobs(Collection[Job]):
    """The jobs of a run not yet in the store, game by game (strategies interleaved),
    made as they are taken: a run of 10**8 games holds only the pairs already done."""

    def __init__(self, spec: RunSpec, done: set[tuple[str, int]]) -> None:
        self.spec = spec
        self.layouts = load_layouts(spec)
        if self.layouts is not None and len(self.layouts) < spec.total_games:
            raise InputError(
                f"the layout file {spec.layouts} holds {counted(len(self.layouts), 'board')}, "
                f"the run needs {spec.total_games}"
            )
        names = set(spec.strategies)
        self.done = {(name, i) for name, i in done if name in names and 0 <= i < spec.total_games}

    def __len__(self) -> int:
        return self.spec.all_games - len(self.done)

    def __iter__(self) -> Iterator[Job]:
        for index in range(self.spec.total_games):
            for name in self.spec.strategies:
                if (name, index) not in self.done:
                    layout = self.layouts[index] if self.layouts is not None else None
                    yield Job(name, index, layout)

    def __contains__(self, job: object) -> bool:
        return (
            isinstance(job, Job)
            and job.strategy in self.spec.strategies
            and 0 <= job.game_index < self.spec.total_games
            and (job.strategy, job.game_index) not in self.done
        )


def pending_jobs(spec: RunSpec, done: set[tuple[str, int]]) -> PendingJobs:
    """The jobs of a run not yet in the store (``done``: its (strategy, game) pairs).

    >>> from minesolver.rules import BEGINNER
    >>> jobs = pending_jobs(RunSpec((BEGINNER,), ("tank", "best"), 3, seed=1), {("tank", 0)})
    >>> len(jobs), [(j.strategy, j.game_index) for j in jobs][:3]
    (5, [('best', 0), ('tank', 1), ('best', 1)])
    """
    return PendingJobs(spec, done)


# strategies built once per worker process, and thread: a strategy keeps the state of
# the game it is playing, so two threads of a Dask worker must not share one
_LOCAL = threading.local()


def _strategies() -> dict[str, Strategy]:
    """This thread's strategies by name."""
    found: dict[str, Strategy] | None = getattr(_LOCAL, "strategies", None)
    if found is None:
        found = _LOCAL.strategies = {}
    return found


# the warm-up game's board (any board would do: its result is thrown away), and the
# largest board warmed up on, where a game costs milliseconds
WARM_UP_SEED = 0
WARM_UP_CELLS = 1000


def warm_up(rules: Rules, strategy: Strategy, start: Start) -> None:
    """Play one untimed game before a thread's first timed game of ``strategy``.

    The compiled kernels load from numba's disk cache on their first call (and
    compile, the first time the code meets a machine): up to tens of seconds that
    would otherwise count in the first game's time and swell the mean of a short
    run.  Nothing carries over into the games that follow: each starts with
    :meth:`~minesolver.strategies.Strategy.new_game` and its own seed.  Boards of
    more than :data:`WARM_UP_CELLS` cells are not warmed up on: their games take
    long enough for the load not to matter, and a warm-up game would cost as
    much as a real one.

    >>> from minesolver.rules import BEGINNER
    >>> warm_up(BEGINNER, find_strategy("tank"), "corner")
    """
    if rules.width * rules.height <= WARM_UP_CELLS:
        play_game(rules, strategy, seed=WARM_UP_SEED, start=start)


def play_job(spec: RunSpec, run_id: str, job: Job) -> tuple[GameRow, GameRecord]:
    """Play one job and return its store row (and the full record)."""
    rules = spec.rules_for(job.game_index)
    start = spec.start or "corner"
    built = _strategies()
    strategy = built.get(job.strategy)
    if strategy is None:
        strategy = built[job.strategy] = find_strategy(job.strategy)
        warm_up(rules, strategy, start)
    seed = board_seed(spec, job.game_index)
    record = play_game(rules, strategy, seed=seed, start=start, layout=job.layout,
                       lay=board_layer(spec, rules))
    row = GameRow(
        run_id=run_id,
        strategy=job.strategy,
        game_index=job.game_index,
        seed=seed,
        rules=str(rules),
        first_click=rules.first_click,
        start=format_start(start),
        won=record.won,
        clicks=record.clicks,
        guesses=record.guesses,
        bbbv=record.bbbv,
        seconds=record.seconds,
        opened=record.opened,
        safe_cells=record.safe_cells,
        version=__version__,
        extra=_extra(rules, record),
    )
    return row, record


def _extra(rules: Rules, record: GameRecord) -> str:
    """What a stored game row says beyond its columns: the noise model, no-guess
    boards, the game's measures (:meth:`~minesolver.play.GameRecord.measures`) and the
    turns the exact engine could not count (moves from the fallback)."""
    extra: dict[str, Any] = {}
    if record.engine_limits:
        extra["engine_limits"] = record.engine_limits
    if rules.noise:
        extra["noise"] = rules.noise_text
    if rules.no_guess:
        extra["no_guess"] = True
    extra.update(record.measures())
    return json.dumps(extra)


def play_chunk(spec: RunSpec, run_id: str, jobs: Sequence[Job]) -> list[GameRow]:
    """Play a chunk of jobs (a task for a worker process or a Dask worker)."""
    return [play_job(spec, run_id, job)[0] for job in jobs]


Callback = Callable[[GameRow], None]


def run_jobs(
    spec: RunSpec,
    run_id: str,
    store: Store,
    jobs: Iterable[Job],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    on_game: Callback | None = None,
    chunk: int | None = None,
    on_note: Callable[[str], None] | None = None,
) -> None:
    """Play ``jobs`` and store every game as it finishes.

    ``workers``: local processes (default: all cores; 1 plays in this process).
    ``scheduler``: a Dask scheduler address (``tcp://host:port``) instead; while it
    has no worker for :data:`IDLE_SECONDS`, ``on_note`` is told (the run waits: an
    adaptive cluster may be starting some).
    ``chunk``: games per task (default :data:`CHUNK`, one on boards past
    :data:`BIG_BOARD` cells, so progress and a stop lose little).
    """
    if chunk is None:
        chunk = 1 if max(rules.cells for rules in spec.points) > BIG_BOARD else CHUNK

    def finish(rows: list[GameRow]) -> None:
        store.add_games(rows)
        if on_game is not None:
            for row in rows:
                on_game(row)

    if scheduler is not None:
        _run_dask(spec, run_id, jobs, scheduler, finish, chunk, on_note)
        return
    run_chunks(play_chunk, (spec, run_id), jobs, workers=workers, chunk=chunk, finish=finish)


def check_scheduler(scheduler: str) -> None:
    """Connect to the Dask scheduler at ``scheduler`` and let go: a command checks it
    before it stores a run, so an unreachable or unreadable address leaves no empty
    run behind.  Raises as :func:`run_jobs` would (``InputError`` for an address
    that cannot be read, ``ConnectionError`` when nothing can be reached there in
    :data:`CONNECT_SECONDS`, or what is there does not answer as Dask in twice that)."""
    _connect(scheduler).close()


CONNECT_SECONDS = 10.0  # to reach the scheduler; as long again for it to answer
IDLE_SECONDS = 30.0  # a scheduler with no worker this long is told of (the run waits)


def _connect(scheduler: str) -> Any:
    try:
        from dask.distributed import Client
    except ImportError as exc:  # pragma: no cover - dask is a declared dependency
        raise RuntimeError("the Dask backend needs dask.distributed installed") from exc
    try:
        _ = urlsplit(scheduler).port  # a port past 65535: dask would try it for 10 s
    except ValueError as exc:
        raise InputError(f"cannot use the Dask scheduler address {quote(scheduler)}: "
                         f"{exc}") from None
    # dask's timeout covers reaching the address, not the handshake after it: a
    # listener that never answers would hold the command forever, so the client is
    # made on a thread of its own, given up (left to the interpreter's exit) when late
    made: dict[str, Any] = {}

    def connect() -> None:
        try:
            made["client"] = Client(scheduler, timeout=f"{CONNECT_SECONDS}s")  # type: ignore[no-untyped-call]
        except BaseException as exc:  # handed to the caller's thread
            made["error"] = exc

    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    thread.join(2 * CONNECT_SECONDS)
    if thread.is_alive():
        raise ConnectionError(f"the Dask scheduler at {scheduler} did not answer in "
                              f"{2 * CONNECT_SECONDS:.0f} s: is a Dask scheduler listening there?")
    error = made.get("error")
    if error is None:
        return made["client"]
    if isinstance(error, (OSError, TimeoutError)):
        raise ConnectionError(f"cannot reach the Dask scheduler at {scheduler}: {error}")
    if isinstance(error, MemoryError):  # bytes read as a message's length: not dask
        raise ConnectionError(f"what answers at {scheduler} does not speak Dask's protocol")
    if isinstance(error, ValueError):  # dask's word for an address it cannot read
        raise InputError(f"cannot use the Dask scheduler address {quote(scheduler)}: {error}")
    if isinstance(error, Exception):  # e.g. ucx:// without its library: a TypeError
        raise ConnectionError(f"cannot connect to the Dask scheduler at {quote(scheduler)}: "
                              f"{type(error).__name__}: {error}")
    raise error


def _run_dask(
    spec: RunSpec,
    run_id: str,
    jobs: Iterable[Job],
    scheduler: str,
    finish: Callable[[list[GameRow]], None],
    chunk: int,
    on_note: Callable[[str], None] | None = None,
) -> None:
    client = _connect(scheduler)
    from dask.distributed import as_completed  # there: _connect has imported it

    workers = _Workers(client, scheduler, on_note)
    try:
        parts = chunks(jobs, chunk)
        futures: Any = as_completed()  # type: ignore[no-untyped-call]
        in_flight = 0

        def top_up() -> None:  # three chunks per worker thread there is now, at least two
            nonlocal in_flight
            while in_flight < max(2, 3 * workers.threads):
                part = next(parts, [])
                if not part:
                    return
                futures.add(client.submit(play_chunk, spec, run_id, part, pure=False))
                in_flight += 1

        top_up()
        for future in futures:
            finish(future.result())
            in_flight -= 1
            top_up()  # workers may have joined (an adaptive cluster) or left
    except (CancelledError, OSError) as exc:  # the scheduler went away (dask cancels all)
        raise ConnectionError(
            f"lost the Dask scheduler at {scheduler} ({type(exc).__name__}): the games "
            "finished are stored, and --resume plays the rest"
        ) from None
    finally:
        workers.stop()
        client.close()


class _Workers:
    """The worker threads a Dask scheduler has, looked at once a second on a thread of
    its own (``threads``: the last count), telling ``on_note`` when it has had no
    worker for :data:`IDLE_SECONDS` (at the start, or once they all left) and again
    when one is back: the run waits for them, since an adaptive cluster starts its
    workers when work is asked of it."""

    def __init__(
        self, client: Any, scheduler: str, on_note: Callable[[str], None] | None
    ) -> None:
        self.client, self.scheduler, self.on_note = client, scheduler, on_note
        self.threads = self._look() or 0
        self._done = threading.Event()
        threading.Thread(target=self._watch, name="dask-workers", daemon=True).start()

    def stop(self) -> None:
        self._done.set()

    def _look(self) -> int | None:
        """The scheduler's worker threads now; ``None`` when it does not answer (a
        slow or lost scheduler: the run's own error says so)."""
        try:
            info = self.client.scheduler_info(n_workers=1)
        except Exception:
            return None
        return int(info.get("total_threads", sum(
            w.get("nthreads", 1) for w in info["workers"].values())))

    def _watch(self) -> None:
        since = time.monotonic()
        told = False
        while not self._done.wait(1.0):
            threads = self._look()
            if threads is None:
                continue
            self.threads = threads
            if threads:
                since = time.monotonic()
                if told:
                    self._note(f"the Dask scheduler at {self.scheduler} has workers again")
                told = False
            elif not told and time.monotonic() - since >= IDLE_SECONDS:
                told = True
                self._note(f"the Dask scheduler at {self.scheduler} has had no worker for "
                           f"{IDLE_SECONDS:g} s; the run waits for one (start some with "
                           f"`dask worker {self.scheduler}`, or stop with Ctrl-C: --resume "
                           "goes on)")

    def _note(self, text: str) -> None:
        if self.on_note is not None:
            self.on_note(text)
