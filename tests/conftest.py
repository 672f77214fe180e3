"""Fixtures every test folder may use (helpers live in ``support.py``)."""

from __future__ import annotations

import pytest
from support import ENTRY_POINTS


@pytest.fixture(params=ENTRY_POINTS)
def entry(request: pytest.FixtureRequest) -> str:
    """Run a CLI test through both entry points."""
    return str(request.param)
