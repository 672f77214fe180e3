"""Writing files whole or not at all: a failure leaves no file, no ``.part`` and the old file."""

from __future__ import annotations

import pytest

from minesolver.files import atomic_write, write_bytes


class Boom(Exception):
    pass


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir())


def test_atomic_write_writes_the_whole_text(tmp_path):
    path = tmp_path / "out.txt"
    with atomic_write(path) as handle:
        handle.write("héllo\n")
        handle.write("world\n")
        assert not path.exists()  # nothing is in place before the block ends
    assert path.read_text(encoding="utf-8") == "héllo\nworld\n"
    assert leftovers(tmp_path) == ["out.txt"]


def test_a_failing_block_leaves_no_file_and_no_part(tmp_path):
    path = tmp_path / "out.txt"
    with pytest.raises(Boom), atomic_write(path) as handle:
        handle.write("half of it")
        raise Boom
    assert not path.exists()
    assert leftovers(tmp_path) == []


def test_an_existing_file_survives_a_failure(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("the old content")
    with pytest.raises(Boom), atomic_write(path) as handle:
        handle.write("the new")
        raise Boom
    assert path.read_text() == "the old content"
    assert leftovers(tmp_path) == ["out.txt"]
    with pytest.raises(KeyboardInterrupt), atomic_write(path) as handle:
        handle.write("interrupted")
        raise KeyboardInterrupt
    assert path.read_text() == "the old content"
    assert leftovers(tmp_path) == ["out.txt"]


def test_an_existing_file_is_replaced_whole(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("a much longer old content than the new one")
    with atomic_write(path) as handle:
        handle.write("new")
    assert path.read_text() == "new"
    write_bytes(path, b"\x00\x01")
    assert path.read_bytes() == b"\x00\x01"
    assert leftovers(tmp_path) == ["out.txt"]


def test_write_bytes_whole_or_not_at_all(tmp_path):
    path = tmp_path / "picture.gif"
    write_bytes(str(path), b"GIF89a")
    assert path.read_bytes() == b"GIF89a"
    with pytest.raises(TypeError):
        write_bytes(path, "not bytes")  # type: ignore[arg-type]
    assert path.read_bytes() == b"GIF89a"
    assert leftovers(tmp_path) == ["picture.gif"]


def test_a_relative_path_is_written_in_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with atomic_write("here.txt") as handle:
        handle.write("x")
    assert (tmp_path / "here.txt").read_text() == "x"


def test_errors_name_the_file(tmp_path):
    missing = tmp_path / "no such folder" / "out.txt"
    with pytest.raises(FileNotFoundError) as info, atomic_write(missing):
        pass
    assert info.value.filename == str(missing)
    with pytest.raises(OSError) as info:
        write_bytes(missing, b"x")
    assert info.value.filename == str(missing)
    with pytest.raises(IsADirectoryError) as info:
        write_bytes(tmp_path, b"x")
    assert info.value.filename == str(tmp_path)
    assert leftovers(tmp_path) == []
