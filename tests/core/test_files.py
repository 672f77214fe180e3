"""Writing files whole or not at all: a failure leaves no file, no ``.part`` and the old file."""

from __future__ import annotations

import errno
import os
import stat
import threading

import pytest

from minesolver.errors import InputError
from minesolver.files import (
    atomic_write,
    check_distinct,
    check_suffix,
    check_writable,
    write_bytes,
)


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


def test_a_link_is_written_through_to_its_target(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "out.csv"
    target.write_text("old")
    link = tmp_path / "out.csv"
    link.symlink_to(target)
    write_bytes(link, b"new")
    assert link.is_symlink()  # the link stays a link
    assert target.read_bytes() == b"new"
    dangling = tmp_path / "later.csv"
    dangling.symlink_to(tmp_path / "real" / "later.csv")
    check_writable(dangling)
    with atomic_write(dangling) as handle:
        handle.write("made")
    assert dangling.is_symlink() and (tmp_path / "real" / "later.csv").read_text() == "made"
    assert leftovers(tmp_path) == ["later.csv", "out.csv", "real"]
    assert leftovers(tmp_path / "real") == ["later.csv", "out.csv"]


def devices(folder):
    """Copies of /dev/null and /dev/full in ``folder`` (made with mknod, so a write
    that replaced a device would replace these, not the machine's), or a skip."""
    null, full = folder / "null", folder / "full"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))
        with open(null, "wb") as handle:
            handle.write(b"")
    except OSError as exc:  # not root, or a folder mounted nodev
        pytest.skip(f"cannot make device nodes here: {exc}")
    return null, full


def test_a_device_is_written_straight_and_its_errors_said(tmp_path):
    null, full = devices(tmp_path)
    write_bytes(null, b"gone")
    check_writable(null)
    assert stat.S_ISCHR(os.stat(null).st_mode)  # still the device
    with pytest.raises(OSError) as info:
        write_bytes(full, b"x" * 100_000)
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(full)
    assert stat.S_ISCHR(os.stat(full).st_mode)
    assert leftovers(tmp_path) == ["full", "null"]


def test_a_pipe_is_written_straight(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_bytes(fifo, b"through the pipe")
    reader.join(10)
    assert got == [b"through the pipe"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert leftovers(tmp_path) == ["fifo"]


def test_two_options_naming_one_file_are_refused(tmp_path):
    store = tmp_path / "runs.sqlite"
    store.write_bytes(b"data")
    link = tmp_path / "link"
    link.symlink_to(store)
    hard = tmp_path / "hard"
    os.link(store, hard)
    for other in (store, tmp_path / "." / "runs.sqlite", link, hard):
        with pytest.raises(InputError, match=r"--csv .* is the same file as --db"):
            check_distinct({"--db": store, "--csv": other})
    with pytest.raises(InputError, match="--plot x is the same file as --csv"):
        check_distinct({"--csv": "x", "--plot": "x"})
    check_distinct({"--db": store, "--csv": tmp_path / "new.csv", "--plot": None, "--gif": None})
    check_distinct({"--gif": os.devnull, "--log": os.devnull})  # a device takes both (no write)
    assert store.read_bytes() == b"data"


def test_a_folder_where_no_file_can_be_made_is_said(tmp_path, monkeypatch):
    # /proc/version: the file is there, but its folder takes no new file to rename
    def refuse(**_: object) -> tuple[int, str]:
        raise OSError(errno.ENOENT, "No such file or directory")

    monkeypatch.setattr("minesolver.files.tempfile.mkstemp", refuse)
    target = tmp_path / "out.txt"
    target.write_text("kept")
    with pytest.raises(OSError) as caught, atomic_write(target) as handle:
        handle.write("lost")
    assert caught.value.filename == str(target)
    assert "no file can be made in its folder" in str(caught.value)
    assert target.read_text() == "kept"


@pytest.mark.parametrize("name", ["anim.gif", "anim.GIF", "anim", "/dev/null"])
def test_a_name_of_the_format_written_is_taken(name):
    check_suffix("--gif", name, ".gif")


def test_a_name_of_another_format_is_refused():
    with pytest.raises(InputError, match=r"--gif out\.png: .*written as \.gif.*name it out\.gif"):
        check_suffix("--gif", "out.png", ".gif")
