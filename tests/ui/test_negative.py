"""The detectors must catch failures: otherwise a green ui suite proves nothing.

Notebooks are built with nbformat and written under the session server's root
(``_ui_selftest/``), then driven through the very helpers the notebook tests use.
"""

from __future__ import annotations

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

import jlab

pytestmark = pytest.mark.ui

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def _nb(cells) -> nbformat.NotebookNode:
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = KERNELSPEC
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def test_detects_exception(page, jupyter_server):
    nb = _nb([
        new_code_cell("x = 1\nprint('first cell ran')"),
        new_code_cell("def boom():\n    raise ValueError('gradlab-ui-selftest boom')\nboom()"),
        new_code_cell("print('never runs')"),
    ])
    name = jupyter_server.add_notebook("_ui_selftest/raises.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name)
    assert res.errors, "an exception in cell 2 was not reported"
    joined = "\n".join(res.errors)
    assert "ValueError" in joined and "gradlab-ui-selftest boom" in joined, joined
    assert "cell 1" in joined, joined
    assert not any("cell 0" in e or "cell 2" in e for e in res.errors), joined
    # The run ended (stop-on-error leaves cell 3 unexecuted) instead of timing out.
    assert not any("timed out" in e for e in res.errors), joined
    assert res.seconds["run"] < jlab.RUN_TIMEOUT


def test_error_on_purpose_is_not_a_failure(page, jupyter_server):
    """A cell tagged ``raises-exception`` may raise; Run All goes on past it."""
    tagged = new_code_cell("raise KeyError('shown on purpose')")
    tagged.metadata["tags"] = ["raises-exception"]
    nb = _nb([tagged, new_code_cell("print('after the demonstration')")])
    name = jupyter_server.add_notebook("_ui_selftest/raises_on_purpose.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name)
    assert not res.errors, res.failure_report()
    assert len(res.expected_errors) == 1 and "KeyError" in res.expected_errors[0], res.expected_errors
    assert page.get_by_text("after the demonstration", exact=True).count() == 1


def test_nbval_marker_alone_is_reported(page, jupyter_server):
    """``# NBVAL_RAISES_EXCEPTION`` without the tag: JupyterLab's Run All stops there."""
    nb = _nb([
        new_code_cell("# NBVAL_RAISES_EXCEPTION\n1 / 0"),
        new_code_cell("print('a student never gets here')"),
    ])
    name = jupyter_server.add_notebook("_ui_selftest/nbval_marker_only.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name)
    joined = "\n".join(res.errors)
    assert "ZeroDivisionError" in joined and "tagged raises-exception" in joined, res.errors
    assert res.seconds["run"] < 60, res.seconds


def test_cells_that_never_ran_are_reported(page, jupyter_server):
    """Run All that ends early without any error output (here: the kernel exits) is a failure."""
    nb = _nb([
        new_code_cell("import os\nos._exit(0)"),
        new_code_cell("print('unreachable')"),
    ])
    name = jupyter_server.add_notebook("_ui_selftest/kernel_exits.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name)
    print(res.errors, res.seconds)
    assert res.errors, "cells that never ran were not reported"


def test_detects_traceback_printed_to_stderr(page, jupyter_server):
    nb = _nb([
        new_code_cell(
            "import traceback\n"
            "try:\n    1 / 0\nexcept ZeroDivisionError:\n    traceback.print_exc()\n"
        ),
        new_code_cell("import sys\nprint('just a warning', file=sys.stderr)"),
    ])
    name = jupyter_server.add_notebook("_ui_selftest/stderr_traceback.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name)
    joined = "\n".join(res.errors)
    assert "ZeroDivisionError" in joined and "(rendered)" in joined, res.errors
    # plain stderr is reported, but not as an error
    assert any("just a warning" in s for s in res.stderr), res.stderr
    assert "just a warning" not in joined


def test_detects_missing_widget_model(page, jupyter_server):
    """A stored widget view whose model exists nowhere, opened without running it."""
    out = new_output(
        "display_data",
        data={
            "application/vnd.jupyter.widget-view+json": {
                "version_major": 2,
                "version_minor": 0,
                "model_id": "0123456789abcdef0123456789abcdef",
            },
            "text/plain": "IntSlider(value=0)",
        },
    )
    cell = new_code_cell("import ipywidgets\nipywidgets.IntSlider()", execution_count=1, outputs=[out])
    nb = _nb([new_markdown_cell("widget without a model"), cell])
    name = jupyter_server.add_notebook("_ui_selftest/missing_widget.ipynb", nb)
    jlab.open_notebook(page, jupyter_server, name)
    jlab.trust_notebook(page)  # untrusted outputs never reach the widget renderer
    jlab.poll(lambda: page.locator(".jp-OutputArea-output").count(), 30, "the stored output to render")
    # The error text appears once the widget manager gave up on the model.
    try:
        page.get_by_text(jlab.WIDGET_ERROR_TEXT).first.wait_for(timeout=30_000)
    except Exception:
        pass  # the assertion below reports what the detector saw
    res = jlab.inspect_notebook(page, name)
    assert res.widget_errors, "a widget view with no model was not reported"
    assert any(jlab.WIDGET_ERROR_TEXT in w for w in res.widget_errors), res.widget_errors
    assert jlab.WIDGET_ERROR_TEXT in res.failure_report()


def test_detects_bad_graphs(page, jupyter_server):
    nb = _nb([
        new_code_cell("import graphviz\ng = graphviz.Digraph()\ng.edge('a', 'b'); g.edge('b', 'c')\nsvg = g.pipe(format='svg').decode()"),
        # exact-count hook: the wrapper claims 5 nodes, the drawing has 3
        new_code_cell("from IPython.display import HTML\nHTML('<div data-gradlab-nodes=\"5\">' + svg + '</div>')"),
        # a graphviz drawing with no node at all
        new_code_cell("graphviz.Digraph()"),
        # correct claim: must NOT be reported
        new_code_cell("HTML('<div data-gradlab-nodes=\"3\">' + svg + '</div>')"),
    ])
    name = jupyter_server.add_notebook("_ui_selftest/bad_graphs.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name)
    assert not res.errors, res.failure_report()
    problems = jlab.graph_problems(res.graphs)
    assert any("data-gradlab-nodes=5 but svg has 3 g.node" in p for p in problems), problems
    assert any(p.startswith("cell 2 ") and "has no g.node" in p for p in problems), problems
    assert not any(p.startswith("cell 3 ") for p in problems), problems
