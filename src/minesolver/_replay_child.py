"""Read one replay with ms-toollib: bytes on stdin, JSON on stdout (a child process).

Run by :mod:`minesolver.replay` as ``python _replay_child.py KIND`` (``avf``, ``rmv``,
``evf`` or ``mvf``), in a process of its own: ms-toollib aborts the process on some
damaged files, which must not take minesolver with it.  It needs ms-toollib and the
standard library only.  It prints ``["ok", {...}]`` or ``["error", "message"]``.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def extract(kind: str, data: bytes) -> dict[str, Any]:
    """Everything the review needs from ms-toollib, as plain values."""
    import ms_toollib as ms

    readers = {"avf": ms.AvfVideo, "rmv": ms.RmvVideo, "evf": ms.EvfVideo, "mvf": ms.MvfVideo}
    video: Any = readers[kind](file_name="", raw_data=list(data))
    video.parse()
    video.analyse()
    video.current_time = 1e9  # to the end: the counters follow the replay's clock
    board = [[int(x) for x in row] for row in video.board]
    height = len(board)
    width = len(board[0]) if board else 0
    pix = int(video.pix_size)
    if pix <= 0:
        raise ValueError(f"the replay's cells are {pix} pixels wide")
    clicks = []
    for event in video.events:
        level = event.useful_level
        if level < 1 or not event.event.is_mouse():
            continue
        mouse = event.event.unwrap_mouse()
        row, col = int(mouse.y) // pix, int(mouse.x) // pix
        if not (0 <= row < height and 0 <= col < width):
            raise ValueError(f"a click at pixel ({mouse.x}, {mouse.y}) is off the board")
        before = int(event.prior_game_board.game_board[row][col])
        after = event.next_game_board.game_board
        opened = sum(1 for line in after for value in line if 0 <= value <= 8)
        clicks.append([float(event.time), int(level), before, row, col, opened])
    return {
        "board": board,
        "mines": int(video.mine_num),
        "clicks": clicks,
        "seconds": float(video.rtime),
        "counts": [int(video.left), int(video.right), int(video.double), int(video.ce)],
        "player": str(video.player_identifier or "") or None,
        "software": str(video.software or "") or None,
        "reader": {
            "bbbv": int(video.bbbv),
            "bbbv_solved": int(video.bbbv_solved),
            "openings": int(video.op),
            "islands": int(video.isl),
            "zini": int(video.zini),
            "hzini": int(video.hzini),
            "clicks": int(video.cl),
            "effective": int(video.ce),
            "ioe": float(video.ioe),
            "bbbv_s": float(video.bbbv_s),
            "seconds": float(video.rtime),
            "completed": bool(video.is_completed),
        },
    }


def main() -> None:
    kind = sys.argv[1]
    data = sys.stdin.buffer.read()
    try:
        answer: list[Any] = ["ok", extract(kind, data)]
    except Exception as exc:  # the reader's own complaint, sent back as one line
        answer = ["error", " ".join(str(exc).split()) or type(exc).__name__]
    sys.stdout.write(json.dumps(answer))


if __name__ == "__main__":
    main()
