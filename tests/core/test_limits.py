"""The time limit (``--max-seconds``) when it fires inside a compiled kernel."""

from __future__ import annotations

import pytest

from minesolver.analysis.kernels import compiled_available
from minesolver.errors import LimitError
from minesolver.game import Game
from minesolver.limits import deadline
from minesolver.rules import Rules


@pytest.mark.skipif(not compiled_available(), reason="numba is not installed")
def test_the_time_limit_in_a_compiled_kernel_is_still_the_time_limit():
    # the alarm's LimitError reaching numba's dispatcher mid-call came back as
    # "SystemError: CPUDispatcher(...) returned a result with an exception set"
    # (about 9 runs in 10 here), which the command line called an internal error
    from minesolver.analysis._compiled_board import board_probabilities

    game = Game(Rules.from_string("expert"), seed=3)
    game.reveal(0, 0)
    position = game.position()
    codes = bytes(position.cells)
    board_probabilities(codes, position.height, position.width, position.mines)  # compile
    for attempt in range(60):
        seconds = 0.002 + attempt % 13 * 0.00007
        with (
            pytest.raises(LimitError, match="longer than --max-seconds"),
            deadline(seconds, what="--max-seconds"),
        ):
            while True:
                board_probabilities(codes, position.height, position.width, position.mines)


def test_another_system_error_is_left_as_it_is():
    with pytest.raises(SystemError, match="something else"), deadline(10):
        raise SystemError("something else")


def test_the_limit_keeps_the_notes_added_on_its_way_up():
    # the run to resume, noted by the command while numba's SystemError carried it
    with pytest.raises(LimitError) as caught, deadline(0.01):
        try:
            while True:  # until the timer's own LimitError
                pass
        except LimitError:
            error = SystemError("returned a result with an exception set")
            error.add_note("run r1 in x.sqlite: --resume r1 goes on")
            raise error from None
    assert caught.value.__notes__ == ["run r1 in x.sqlite: --resume r1 goes on"]


def test_a_limit_met_earlier_and_being_handled_is_not_the_timer_s():
    # Ctrl-C in a kernel called while an EngineLimitError was handled: the walk found that
    # older limit and reported it as the user's error, where the run was interrupted
    from minesolver.errors import EngineLimitError

    with pytest.raises(SystemError, match="kernel"), deadline(30):
        try:
            raise EngineLimitError("front 1 is 80 clues wide")
        except EngineLimitError:
            try:
                raise KeyboardInterrupt
            except KeyboardInterrupt:
                raise SystemError("kernel") from None
