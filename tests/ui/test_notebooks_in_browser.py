"""Every notebook in notebooks/ (or $GRADLAB_UI_NOTEBOOKS), run in a real JupyterLab + Chromium.

* ``test_notebook_runs_clean``: open, run all cells, no error output, no
  "Error displaying widget"; a full screenshot goes to test-artifacts/ui/<name>.png.
* ``test_graph_cells``: every graphviz SVG output has at least one ``g.node``;
  where an output holds an element with ``data-gradlab-nodes="N"``, the SVG
  inside it has exactly N ``g.node`` groups (the hook for exact node counts).

Each notebook is run once; the graph test reuses that run.
"""

from __future__ import annotations

import pytest

import jlab

pytestmark = pytest.mark.ui

NOTEBOOKS = jlab.notebook_names()
NO_NOTEBOOKS = "<no notebooks>"
PARAMS = NOTEBOOKS or [pytest.param(NO_NOTEBOOKS, id="no-notebooks")]

_RUNS: dict[str, jlab.RunResult] = {}


def _require_notebooks(name: str) -> None:
    if name == NO_NOTEBOOKS:
        pytest.fail(
            f"no notebooks found: {jlab.notebooks_dir()} has no *.ipynb "
            "(set GRADLAB_UI_NOTEBOOKS to test another directory)",
            pytrace=False,
        )


def _run(page, server, name: str) -> jlab.RunResult:
    if name not in _RUNS:
        _RUNS[name] = jlab.run_notebook(page, server, name)
    return _RUNS[name]


@pytest.mark.parametrize("name", PARAMS)
def test_notebook_runs_clean(page, jupyter_server, name):
    _require_notebooks(name)
    res = _run(page, jupyter_server, name)
    print(f"{name}: {res.seconds}, graphs {res.graphs}, screenshot {res.screenshot}")
    for s in res.stderr:
        print(f"{name}: stderr (not an error): {s[:300]}")
    assert not res.errors and not res.widget_errors, res.failure_report()


@pytest.mark.parametrize("name", PARAMS)
def test_graph_cells(page, jupyter_server, name):
    _require_notebooks(name)
    res = _run(page, jupyter_server, name)
    problems = jlab.graph_problems(res.graphs)
    assert not problems, f"{name}: " + "; ".join(problems) + f"\n(screenshot: {res.screenshot})"
