"""The compiled kernel equals the plain-Python reference, on the fixtures and the oracle.

``make test`` installs the dev extra, which includes numba, so the compiled path is
tested here; ``MINESOLVER_KERNELS=python`` selects the reference everywhere.
"""

from __future__ import annotations

import os
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from support import consistent_positions, fixture_ids, load_fixture

from minesolver.analysis import analyze, brute_force
from minesolver.analysis.fronts import split_fronts
from minesolver.analysis.kernels import compiled_available, count_fronts, kernel_in_use
from minesolver.analysis.system import build_system


def test_the_dev_install_has_the_compiled_kernel():
    assert compiled_available()
    assert kernel_in_use("auto") == "numba"


def test_the_environment_variable_selects_the_path(monkeypatch):
    monkeypatch.setenv("MINESOLVER_KERNELS", "python")
    assert kernel_in_use() == "python"
    monkeypatch.setenv("MINESOLVER_KERNELS", "fortran")
    with pytest.raises(ValueError, match="MINESOLVER_KERNELS"):
        kernel_in_use()


@pytest.mark.parametrize("fid", fixture_ids())
def test_compiled_counts_equal_python_on_fixtures(fid):
    fronts, _ = split_fronts(build_system(load_fixture(fid)))
    compiled = count_fronts(fronts, kernel="numba")
    reference = count_fronts(fronts, kernel="python")
    for a, b in zip(compiled, reference, strict=True):
        assert a.poly == b.poly
        assert a.box_polys == b.box_polys


@given(consistent_positions())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_both_paths_equal_the_oracle(position):
    total, probs = brute_force(position)
    saved = os.environ.get("MINESOLVER_KERNELS")
    try:
        for kernel in ("python", "numba"):
            os.environ["MINESOLVER_KERNELS"] = kernel
            analysis = analyze(position)
            assert analysis.solutions == total
            for i, p in enumerate(probs):
                assert Fraction(*analysis.exact(i)) == p
    finally:
        if saved is None:
            os.environ.pop("MINESOLVER_KERNELS", None)
        else:
            os.environ["MINESOLVER_KERNELS"] = saved
