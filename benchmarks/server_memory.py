"""Server memory over many board sizes: does RSS stay bounded?

Starts ``minesolver serve`` on 127.0.0.1 (a free port) and plays, through the HTTP
API, ``--games`` games cycling through ``--sizes`` board sizes from 9x9 up to
200x200: each game is created and opened at its centre (the server lays the mines,
floods the opening and keeps the game), and every fifth is a Minesweeper Flags game
against the ``mc`` AI (one sample per move, so the AI's time stays small on 200x200)
with one move played.  The server's own RSS (the analyses run
in sandboxed child processes, reported apart) is read from /proc after every game.

    python benchmarks/server_memory.py --games 1000 --sizes 50

prints one progress line per 100 games, then the start, peak and final RSS in MB.
The target (issue 15): the peak stays within 300 MB.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import httpx
from script_args import script_parser  # benchmarks/script_args.py: shared options


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB."""
    with open(f"/proc/{pid}/status") as handle:
        match = re.search(r"VmRSS:\s+(\d+) kB", handle.read())
    return int(match.group(1)) / 1024 if match else 0.0


def children_rss_mb(pid: int) -> float:
    """Resident memory of every descendant of ``pid`` (the sandbox workers) in MB."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == pid:
            total += rss_mb(int(entry)) + children_rss_mb(int(entry))
    return total


def sizes(count: int) -> list[tuple[int, int]]:
    """``count`` distinct board sizes from 9x9 to 200x200 (both sides growing)."""
    out: list[tuple[int, int]] = []
    for i in range(count):
        side = 9 + round((200 - 9) * i / max(1, count - 1))
        width, height = side, max(9, side - ((count - 1 - i) % 3) * 7)
        out.append((width, height))
    assert len(set(out)) == count, "sizes must differ"
    return out


def main() -> None:
    parser = script_parser(__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games played through the HTTP API")
    parser.add_argument("--sizes", type=int, default=50,
                        help="board sizes cycled through, 9x9 to 200x200")
    args = parser.parse_args()
    exe = os.path.join(os.path.dirname(sys.executable), "minesolver")
    server = subprocess.Popen(
        [exe, "serve", "--host", "127.0.0.1", "--port", "0"],  # this machine only
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            raise SystemExit(f"server did not start: {line!r}")
        base = f"http://127.0.0.1:{match.group(1)}"
        board_sizes = sizes(args.sizes)
        started = time.perf_counter()
        with httpx.Client(base_url=base, timeout=120, headers={"origin": base}) as client:
            client.get("/api").raise_for_status()
            start_rss = rss_mb(server.pid)
            peak = start_rss
            for game in range(args.games):
                width, height = board_sizes[game % len(board_sizes)]
                mines = max(1, width * height // 8)
                if game % 5 == 4:
                    made = client.post("/api/flags", json={
                        "rules": f"{width}x{height}x{mines}", "ai": "mc:samples=1,tries=20",
                        "seed": game})
                    made.raise_for_status()
                    fid = made.json()["game"]["id"]
                    client.post(f"/api/flags/{fid}/moves",
                                json={"kind": "open", "row": height // 2, "col": width // 2}
                                ).raise_for_status()
                else:
                    made = client.post("/api/games", json={
                        "rules": f"{width}x{height}x{mines}", "seed": game})
                    made.raise_for_status()
                    gid = made.json()["game"]["id"]
                    client.post(f"/api/games/{gid}/moves", json={
                        "action": "reveal", "row": height // 2, "col": width // 2}
                    ).raise_for_status()
                peak = max(peak, rss_mb(server.pid))
                if (game + 1) % 100 == 0:
                    print(f"{game + 1} games: server RSS {rss_mb(server.pid):.0f} MB "
                          f"(peak {peak:.0f}), workers {children_rss_mb(server.pid):.0f} MB, "
                          f"{time.perf_counter() - started:.0f} s", flush=True)
        print(f"games {args.games}, sizes {len(board_sizes)} (largest "
              f"{max(board_sizes)[0]}x{max(board_sizes)[1]}): server RSS start "
              f"{start_rss:.0f} MB, peak {peak:.0f} MB, end {rss_mb(server.pid):.0f} MB; "
              f"target peak <= 300 MB: {'met' if peak <= 300 else 'NOT met'}")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
