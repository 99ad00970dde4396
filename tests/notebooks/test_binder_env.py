"""What a Binder user gets: binder/requirements.txt installed into a fresh virtual environment from the repo
root (as repo2docker does), then every notebook run and compared by nbval in that environment.

Slow by nature (an install of JupyterLab and its dependencies; pip takes the wheels from the local cache/wheel
directory when it can). Marked `binder`: it runs with the whole suite; deselect it with `-m "not binder"`.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.binder

REPO = Path(__file__).resolve().parents[2]
BINDER = REPO / "binder"
# Test tools for the check only (a Binder user does not need them), at the versions the suite uses.
TEST_TOOLS = ["pytest==9.2.0", "nbval==0.11.0"]


def run(cmd, cwd, timeout, env=None):
    result = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, (
        f"{' '.join(map(str, cmd))} failed ({result.returncode}) in {cwd}\n"
        f"--- stdout\n{result.stdout[-6000:]}\n--- stderr\n{result.stderr[-6000:]}")
    return result.stdout


def test_binder_files_are_complete():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    assert "graphviz" in (BINDER / "apt.txt").read_text().split()
    lines = [line.split("#")[0].strip() for line in (BINDER / "requirements.txt").read_text().splitlines()]
    lines = [line for line in lines if line]
    assert ".[notebooks]" in lines, "the package itself must be named: repo2docker ignores pyproject.toml"
    for line in lines:
        if line != ".[notebooks]":
            assert "==" in line, f"not pinned: {line}"
    post = (BINDER / "postBuild").read_text()
    assert post.startswith("#!/bin/bash\n") and "set -euo pipefail" in post and "dot -V" in post
    assert os.access(BINDER / "postBuild", os.X_OK)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz `dot` is missing (Binder installs it from apt.txt)")
def test_fresh_environment_from_binder_requirements_runs_the_notebooks(tmp_path):
    start = time.perf_counter()
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path, timeout=120)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    # From the repo root, like repo2docker: `.[notebooks]` in the file means this checkout.
    run([python, "-m", "pip", "install", "--quiet", "--prefer-binary", "--no-compile", "-r", "binder/requirements.txt",
         *TEST_TOOLS], cwd=REPO, timeout=300, env=env)
    installed = time.perf_counter()

    # A copy of the notebooks outside the repo, so that `import gradlab` can only find the installed package.
    work = tmp_path / "work"
    shutil.copytree(REPO / "notebooks", work / "notebooks", ignore=shutil.ignore_patterns("__pycache__"))
    where = run([python, "-c", "import gradlab, gradlab.viz; print(gradlab.__file__)"], cwd=work, timeout=60,
                env=env)
    assert Path(where.strip()).is_relative_to(venv), where
    run([python, "-c", "import gradlab; print(gradlab.ones(2))"], cwd=work, timeout=60, env=env)

    run([venv / "bin" / "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax", "--nbval-current-env",
         "--nbval-sanitize-with", REPO / "notebooks_src" / "nbval_sanitize.cfg", "notebooks"], cwd=work, timeout=300, env=env)
    print(f"install {installed - start:.0f} s, nbval {time.perf_counter() - installed:.0f} s")
