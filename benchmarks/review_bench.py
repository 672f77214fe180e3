"""How long ``minesolver review`` takes on 30x16 replays.

For each replay: the clicks it holds, then the time to read it (ms-toollib in a
process of its own), to review it (an analysis per click, ``best`` and the endgame
search at each guess), and the wall time of the whole command (``python -m minesolver
review FILE``, a fresh process: interpreter, imports, reader, review, output), the
median of ``--repeat`` runs.  The replays are the expert samples of tests/data/replays
(players' games) and ``--generated`` .evf files of seeded no-guess expert games that
``best`` plays, written by ms-toollib's own recorder: about 230 clicks each.

    python benchmarks/review_bench.py --repeat 5 --generated 2 --seed 1
"""

from __future__ import annotations

import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from script_args import script_parser  # benchmarks/script_args.py: shared options

from minesolver.cli.one_game import StepLogger
from minesolver.play import play_game
from minesolver.replay import read_replay, read_replay_bytes
from minesolver.review import review_game
from minesolver.rules import EXPERT
from minesolver.serialize import cells_json, record_json
from minesolver.strategies import find_strategy

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [ROOT / "tests/data/replays/exp_49.25_3bv127.avf",
           ROOT / "tests/data/replays/exp_98763_FL.rmv"]
PIXELS = 16


def generated(folder: Path, count: int, seed: int) -> list[Path]:
    """.evf replays of seeded no-guess expert games played by ``best``, one click per cell
    it opened (read back from its play log), written by ms-toollib's recorder."""
    import ms_toollib as ms

    paths = []
    rules = EXPERT.with_no_guess()
    for k in range(count):
        out = io.StringIO()
        record = play_game(rules, find_strategy("best"), seed=seed + k, observer=StepLogger(out))
        mines = cells_json(record.layout.mine_cells())
        out.write(json.dumps({"result": record_json(record), "mines": mines}) + "\n")
        replay = read_replay_bytes(out.getvalue().encode(), "game.jsonl")
        w = rules.width
        mined = set(record.layout.mines)
        board = [[-1 if r * w + c in mined else 0 for c in range(w)] for r in range(rules.height)]
        video = ms.BaseVideo(ms.cal_board_numbers(board), PIXELS)
        for click in replay.clicks:
            r, c = click.cell
            pixel = (r * PIXELS + PIXELS // 2, c * PIXELS + PIXELS // 2)
            video.step("lc", pixel)
            video.step("lr", pixel)
        video.software = "minesolver-bench"
        video.generate_evf_v4_raw_data()
        video.checksum = [0] * 32
        path = folder / f"best_expert_seed{seed + k}.evf"
        path.write_bytes(bytes(video.raw_data))
        paths.append(path)
    return paths


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="runs per replay; the median is kept")
    parser.add_argument("--generated", type=int, default=2,
                        help="seeded no-guess expert games of best to add, as .evf")
    parser.add_argument("--seed", type=int, default=1, help="the first generated game's seed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paths = SAMPLES + generated(Path(folder), args.generated, args.seed)
        print(f"{'replay':<30}{'clicks':>7}{'reviewed':>9}{'read s':>8}{'review s':>9}"
              f"{'command s (median)':>20}")
        for path in paths:
            t0 = time.perf_counter()
            replay = read_replay(path)
            t1 = time.perf_counter()
            review = review_game(replay)
            t2 = time.perf_counter()
            walls = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                subprocess.run([sys.executable, "-m", "minesolver", "review", str(path)],
                               check=True, capture_output=True)
                walls.append(time.perf_counter() - t)
            print(f"{path.name:<30}{replay.counts.total:>7}{len(review.clicks):>9}"
                  f"{t1 - t0:>8.2f}{t2 - t1:>9.2f}{statistics.median(walls):>20.2f}")


if __name__ == "__main__":
    main()
