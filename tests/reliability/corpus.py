"""The bad-input corpus: generated, not hand-listed.

Every command is described once by the options it takes (:data:`COMMANDS`); every
kind of option by the bad values a careless user or an attacker would give it
(:data:`BAD`).  A case is one command with one option set to one bad value, the
rest valid, so each case tests exactly one refusal.  Files the cases need (a
foreign SQLite file, binary junk, a layout nested 100,000 deep, ...) are made by
:func:`make_files` in the case's own folder.

``needles`` of a case are strings of which the error line must hold one: the bad
value (its start, as a long value is quoted cut), the option's name, or the file.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

HUGE = "9" * 5000


@dataclass(frozen=True)
class Case:
    """One bad command line: ``args`` for ``minesolver``, what the error must name."""

    id: str
    args: tuple[str, ...]
    needles: tuple[str, ...]


# --------------------------------------------------------------------- bad values
# kind -> bad values.  "@name" is a file made by make_files.
BAD: dict[str, list[str]] = {
    "rules": ["0x0x0", "99999x99999x1", "1x99999999999999999999x1", "abc", "", "9x9x81",
              "9x9x-1", "9x9x10x3", HUGE, "9.5x9x10", "9x9", "expert!", "x9x10"],
    "first_click": ["maybe", "", "SAFE!"],
    "start": ["9,99", "-1,0", "a,b", "1,2,3", "99999999999999999999999,0", "middle", ""],
    "noise": ["withheld:2", "withheld:nan", "loud", "withheld:", "withheld:-0.1", HUGE],
    "seed": ["-1", "18446744073709551616", "abc", "1.5", HUGE],
    "strategy": ["nosuch", "best:depth=-1", "best:breadth=0", "best:cutoff=nan", "best:depth=5",
                 "best:nope=1", "best:depth", "best:cutoff=inf", "best:endgame=maybe",
                 "best:depth=" + "9" * 50, "sampling:samples=0", "sampling:method=x",
                 "x" * 5000, "best:cutoff=1e400"],
    "games": ["0", "-5", "abc", "1e9", "100000001"],
    "workers": ["0", "65", "abc", "-1"],
    "db": ["@adir", "@foreign.sqlite", "@notes.txt", "nodir/x.sqlite", "@junk.bin"],
    "resume": ["r99", "", "x" * 5000],
    "layouts": ["@missing.jsonl", "@junk.bin", "@deep.jsonl", "@hugeint.jsonl",
                "@mine_at_start.jsonl", "@wrong_size.jsonl", "@empty.jsonl", "@adir",
                "@nan.jsonl", "@notjson.jsonl"],
    "out": ["nodir/out.file", "@adir"],
    "max_seconds": ["nan", "-1", "0", "abc", "inf"],
    "max_memory": ["lots", "0", "1K", HUGE, "-5G"],
    "size": ["0x5", "abc", "99999x99999", "5", "-3x5", HUGE],
    "densities": ["0.1:inf:0.1", "0.1:0.2:0", "nan", "1.5", "", "abc", "0.1:0.2",
                  "0.1:0.9:0.0000001", "0,0.1", HUGE],
    "player": ["nosuch", "hard:zero_samples=0", "mc:samples=0", "hard:bomb=maybe",
               "exact:x=1", "hard:threshold=nan"],
    "flags_rules": ["3x3x9", "abc", "0x0x1", "99999x99999x1", "16x16x0"],
    "first": ["p3", ""],
    "position": ["@missing.mine", "@junk.bin", "@empty.mine", "@bad.mine", "@inconsistent.mine",
                 "@adir", "@huge_header.mine", "@hugeint_header.mine"],
    "replay": ["@missing.log", "@junk.bin", "@empty.mine", "@hugeint.jsonl", "@adir",
               "@truncated.jsonl"],
    "report_db": ["@foreign.sqlite", "missing.sqlite", "@adir", "@notes.txt", "@junk.bin"],
    "port": ["-1", "70000", "abc"],
    "max_side": ["0", "1001", "abc"],
}


# --------------------------------------------------------------------- the commands
# command -> (valid base arguments, {option: kind}); "ARG" is the positional argument.
COMMANDS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "play": (("--rules", "9x9x10", "--seed", "1"), {
        "--rules": "rules", "--first-click": "first_click", "--start": "start",
        "--noise": "noise", "--seed": "seed", "--strategy": "strategy", "--gif": "out",
        "--log": "out", "--max-seconds": "max_seconds", "--max-memory": "max_memory",
    }),
    "demo": (("--seed", "1"), {"--seed": "seed", "--max-seconds": "max_seconds"}),
    "bench": (("--rules", "9x9x10", "--games", "2", "--db", "run.sqlite", "--quiet",
               "--workers", "1"), {
        "--rules": "rules", "--first-click": "first_click", "--start": "start",
        "--noise": "noise", "--seed": "seed", "--strategy": "strategy", "--games": "games",
        "--workers": "workers", "--db": "db", "--resume": "resume", "--layouts": "layouts",
        "--dump-layouts": "out", "--max-seconds": "max_seconds", "--max-memory": "max_memory",
    }),
    "sweep": (("--size", "9x9", "--densities", "0.1,0.12", "--games", "1", "--db",
               "run.sqlite", "--quiet", "--workers", "1"), {
        "--size": "size", "--densities": "densities", "--first-click": "first_click",
        "--noise": "noise", "--start": "start", "--strategy": "strategy", "--games": "games",
        "--seed": "seed", "--workers": "workers", "--db": "db", "--resume": "resume",
        "--csv": "out", "--plot": "out", "--max-seconds": "max_seconds",
    }),
    "flags": (("--games", "1", "--db", "run.sqlite", "--quiet", "--workers", "1",
               "--rules", "8x8x10"), {
        "--p1": "player", "--p2": "player", "--games": "games", "--seed": "seed",
        "--rules": "flags_rules", "--workers": "workers", "--db": "db", "--resume": "resume",
        "--max-memory": "max_memory",
    }),
    "analyze": ((), {"ARG": "position", "--max-seconds": "max_seconds"}),
    "review": ((), {"ARG": "replay"}),
    "report": ((), {"--db": "report_db"}),
    "serve": ((), {"--port": "port", "--max-side": "max_side"}),
}

# a valid positional argument for commands that need one when another option is bad
VALID_ARG = {"analyze": "@good.mine"}


# Valid input too big for the limits given: refused by the limit, naming it.
LIMIT_CASES = [
    Case("analyze-scattered-200x200-time", ("analyze", "@scatter.mine", "--max-seconds", "2"),
         ("--max-seconds",)),
    Case("analyze-scattered-200x200-memory",
         ("analyze", "@scatter.mine", "--max-memory", "50M"), ("--max-memory",)),
    Case("play-3000x3000-time", ("play", "--rules", "3000x3000x1", "--seed", "1",
                                 "--max-seconds", "2"), ("--max-seconds",)),
]


def cases() -> list[Case]:
    """Every (command, option, bad value) case, then the limit cases."""
    out = list(LIMIT_CASES)
    for command, (base, options) in COMMANDS.items():
        for option, kind in options.items():
            for number, value in enumerate(BAD[kind]):
                if option == "ARG":
                    args = (command, *base, value)
                else:
                    args = (command, *base, option, value)
                    if command in VALID_ARG:
                        args = (*args, VALID_ARG[command])
                if option == "--resume" and command in ("bench", "sweep", "flags"):
                    args = (*args, "--db", "@store.sqlite")
                needles = [option.lstrip("-")] if option != "ARG" else []
                if value.startswith("@"):
                    needles.append(value[1:])
                elif not value:
                    needles.append("''")
                else:  # a part of the value: messages quote the part that is wrong
                    size = min(3, len(value))
                    needles += [value[i:i + size] for i in range(len(value) - size + 1)][:60]
                out.append(Case(f"{command}{option}-{kind}-{number}", args, tuple(needles)))
    return out


def resolve(args: tuple[str, ...], folder: Path) -> list[str]:
    """Arguments with ``@name`` turned into the path of that file in ``folder``."""
    return [str(folder / a[1:]) if a.startswith("@") else a for a in args]


def scattered_position(seed: int = 5) -> str:
    """A valid 200x200x8000 position whose clues (4% of the cells) are scattered all
    over the board: exact counting needs far more memory and time than a machine has."""
    import random

    from minesolver.game import Game
    from minesolver.rules import Rules

    game = Game(Rules(200, 200, 8000), seed=seed)
    game.reveal(100, 100)
    assert game.layout is not None
    mines = set(game.layout.mine_cells())
    grid = [["H"] * 200 for _ in range(200)]
    safe = [(r, c) for r in range(200) for c in range(200) if (r, c) not in mines]
    for r, c in random.Random(seed).sample(safe, 1600):
        near = sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        grid[r][c] = str(near)
    return "200x200x8000\n" + "".join("".join(row) + "\n" for row in grid)


_SCATTERED: list[str] = []


def make_files(folder: Path) -> None:
    """The files the cases refer to, in ``folder``."""
    if not _SCATTERED:
        _SCATTERED.append(scattered_position())
    (folder / "scatter.mine").write_text(_SCATTERED[0])
    (folder / "adir").mkdir()
    db = sqlite3.connect(folder / "foreign.sqlite")
    db.execute("CREATE TABLE notes (text)")
    db.commit()
    db.close()
    (folder / "notes.txt").write_text("just some notes\n")
    (folder / "junk.bin").write_bytes(bytes(range(256)) * 4)
    (folder / "deep.jsonl").write_text('{"width": ' + "[" * 100_000 + "\n")
    (folder / "hugeint.jsonl").write_text('{"width": ' + HUGE + ', "height": 9, "mines": []}\n')
    free = [1, 10, 20, 30, 40, 50, 60, 70, 80, 72]
    (folder / "mine_at_start.jsonl").write_text(
        json.dumps({"width": 9, "height": 9, "mines": free}) + "\n"
        + json.dumps({"width": 9, "height": 9, "mines": [0, *free[1:]]}) + "\n"
    )
    (folder / "wrong_size.jsonl").write_text(
        json.dumps({"width": 8, "height": 9, "mines": free[:-2]}) + "\n" * 3
    )
    (folder / "empty.jsonl").write_text("")
    (folder / "nan.jsonl").write_text('{"width": NaN, "height": 9, "mines": []}\n')
    (folder / "notjson.jsonl").write_text('{"width": 9, "height": \n')
    (folder / "good.mine").write_text("3x3x1\n000\n011\n01H\n")
    (folder / "empty.mine").write_text("")
    (folder / "bad.mine").write_text("3x3x1\n00Z\n011\n01H\n")
    (folder / "inconsistent.mine").write_text("3x3x1\n000\n031\n01H\n")
    (folder / "huge_header.mine").write_text("99999x99999x1\nH\n")
    (folder / "hugeint_header.mine").write_text(f"{HUGE}x3x1\nHHH\n")
    (folder / "truncated.jsonl").write_text('{"step": 1, "position": {"rows": ["HH"\n')
