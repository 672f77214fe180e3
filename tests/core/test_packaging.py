"""The core installs with numpy alone: a real install of the project into a fresh
virtual environment, with no extras, plays and analyses; the command line says which
extra it needs."""

from __future__ import annotations

import shutil
import subprocess
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
from minesolver import Position
from minesolver.analysis import analyze
from minesolver.bench import Store
from minesolver.play import play_game
from minesolver.rules import Rules
from minesolver.strategies import find_strategy

p = Position.from_text('3x3x2\\nHHH\\n2H2\\nHHH\\n')
assert [str(analyze(p).probability(0, col)) for col in range(3)] == ['0', '2/3', '0']
play_game(Rules.from_string('intermediate'), find_strategy('best'), seed=3)
with Store('results.sqlite') as store:
    assert store.runs() == []
print('ok')
"""


def test_the_core_installs_and_runs_with_numpy_alone(tmp_path):
    # from a copy of what a release holds: pip builds in the folder it is given, and
    # would leave build/ in the checkout
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "src", project / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "*.egg-info"))
    env_dir = tmp_path / "core"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         str(project)], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-2000:]
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format", "freeze",
                             "--disable-pip-version-check"],
                            capture_output=True, text=True, timeout=120, check=True)
    installed = {line.split("==")[0].lower() for line in listed.stdout.split()}
    assert installed - {"pip", "setuptools", "wheel"} == {"minesolver", "numpy"}
    ran = subprocess.run([str(python), "-c", SCRIPT], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)  # not the checkout: the installed copy
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.strip() == "ok"
    cli = subprocess.run([str(env_dir / "bin" / "minesolver"), "--help"], capture_output=True,
                         text=True, timeout=120)
    assert cli.returncode == 2 and "Traceback" not in cli.stderr
    assert cli.stderr.strip() == ("minesolver: error: the command line needs click: pip "
                                  "install 'minesolver[cli]' (or [all] for the web app too)")
