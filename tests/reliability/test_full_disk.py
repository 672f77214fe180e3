"""A full disk (ENOSPC) while writing an output file: one line naming the file, exit 2,
and no empty or half-written file left behind (nor the temporary file)."""

from __future__ import annotations

import errno
import os
import signal

import pytest

import minesolver.files
from minesolver.cli import main

CASES = {
    "play-log": (["play", "--rules", "9x9x10", "--seed", "1", "--log", "out.jsonl"],
                 ["out.jsonl"]),
    "play-gif": (["play", "--rules", "9x9x10", "--seed", "1", "--gif", "out.gif"],
                 ["out.gif"]),
    "play-both": (["play", "--rules", "9x9x10", "--seed", "1", "--gif", "out.gif",
                   "--log", "out.jsonl"], ["out.gif", "out.jsonl"]),
    "bench-dump": (["bench", "--rules", "9x9x10", "--games", "2", "--workers", "1", "--quiet",
                    "--db", "r.sqlite", "--dump-layouts", "boards.jsonl"], ["boards.jsonl"]),
    "sweep": (["sweep", "--size", "9x9", "--densities", "0.1", "--games", "2", "--workers",
               "1", "--quiet", "--db", "r.sqlite", "--csv", "s.csv", "--plot", "s.png"],
              ["s.csv", "s.png"]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_full_disk_leaves_no_output_file(name, tmp_path, monkeypatch, capsys):
    args, outputs = CASES[name]
    monkeypatch.chdir(tmp_path)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(minesolver.files.os, "fsync", full)
    interrupt = signal.getsignal(signal.SIGINT)
    try:
        with pytest.raises(SystemExit) as exit_:
            main(args)
    finally:
        signal.signal(signal.SIGINT, interrupt)
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert len(err.splitlines()) == 1
    assert "No space left on device" in err
    assert any(f"{out}:" in err for out in outputs), err
    left = {p.name for p in tmp_path.iterdir()}
    assert not left & set(outputs), left
    assert not [n for n in left if n.endswith(".part")], left
