"""Fixtures every test folder may use (helpers live in ``support.py``)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from support import ENTRY_POINTS


@pytest.fixture(params=ENTRY_POINTS)
def entry(request: pytest.FixtureRequest) -> str:
    """Run a CLI test through both entry points."""
    return str(request.param)


@pytest.fixture(autouse=True)
def _kernels_restored() -> Iterator[None]:
    """Give the next test the kernel choice this one started with: a CLI command run in
    this process with a memory cap (``limits.cap``) switches it to the Python kernels
    for good, and every later test here (and every subprocess it starts) would then play
    ``best``'s endgame search in Python, tens of times slower, by the luck of the order."""
    saved = os.environ.get("MINESOLVER_KERNELS")
    yield
    if saved is None:
        os.environ.pop("MINESOLVER_KERNELS", None)
    else:
        os.environ["MINESOLVER_KERNELS"] = saved


@pytest.fixture(scope="module")
def compiled_kernels() -> Iterator[None]:
    """Choose the compiled kernels for a module's tests (``pytestmark =
    pytest.mark.usefixtures("compiled_kernels")``), whatever an earlier test in this
    process left behind: a CLI run with a memory cap switches a process to the Python
    kernels for good (``limits.cap``)."""
    saved = os.environ.get("MINESOLVER_KERNELS")
    os.environ["MINESOLVER_KERNELS"] = "numba"
    yield
    if saved is None:
        os.environ.pop("MINESOLVER_KERNELS", None)
    else:
        os.environ["MINESOLVER_KERNELS"] = saved
