"""viz.vjp in JupyterLab: the tutorial's `y.backward(v)` example, run in a real kernel and read back from
the rendered page at 1280x800. The J, v and vᵀJ matrices show the numbers PyTorch gives for the same code
(computed live here), side by side; the player started with gradient=v shows the same panel at its first
step; in the dark theme every number and word keeps a 4.5:1 contrast. Screenshots:
test-artifacts/ui/jacobian-vjp.png, jacobian-vjp-player.png and jacobian-vjp-dark.png.
"""
from __future__ import annotations

import pytest
from nbformat.v4 import new_code_cell, new_notebook

import jlab
from gradlab.viz.jacobian import number_text
from test_language_and_contrast import _JS_CONTRAST, _set_theme

# the contrast check of the players and cards, pointed at the panels
_JS_PANEL_CONTRAST = _JS_CONTRAST.replace("'.gradlab-player, ", "'.gradlab-vjp, .gradlab-player, ")
assert _JS_PANEL_CONTRAST != _JS_CONTRAST

pytestmark = pytest.mark.ui

WIDTH, HEIGHT = 1280, 800

# The autograd tutorial's cells (`import gradlab as torch`), with the panel before the real backward.
SETUP = '''\
import gradlab as torch
from gradlab import viz
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
'''
PANEL = "viz.vjp(y, x, v, names=locals())"
BACKWARD = "y.backward(v)\nprint(x.grad)"
PLAYER = '''\
x.grad = None
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
viz.animate_backward(y, gradient=v, names=locals())
'''

# Each matrix of a panel (v, J, vᵀJ in page order): its caption, its cells row by row, its box.
_JS_MATRICES = """
(root) => Array.from(root.querySelectorAll('table.gradlab-matrix')).map((t) => {
  const r = t.getBoundingClientRect();
  return {
    caption: t.parentElement.firstElementChild === t ? '' : t.parentElement.firstElementChild.innerText.trim(),
    rows: Array.from(t.querySelectorAll('tr')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.innerText.trim()))
          .filter((cells) => cells.length),
    box: [r.left, r.top, r.right, r.bottom].map(Math.round),
  };
})
"""


def torch_numbers():
    """What PyTorch gives for the tutorial's code: J (diagonal: y is x times a power of two), v, x.grad."""
    torch = pytest.importorskip("torch")

    def doubled(x):
        y = x * 2
        while y.data.norm() < 1000:
            y = y * 2
        return y

    torch.manual_seed(0)
    x = torch.randn(3, requires_grad=True)
    y = doubled(x)
    v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
    J = torch.autograd.functional.jacobian(doubled, x.detach())
    y.backward(v)
    return ([[number_text(a) for a in row] for row in J.tolist()], [number_text(a) for a in v.tolist()],
            [number_text(a) for a in x.grad.tolist()], str(x.grad))



def _check_panel(matrices, J, v, grad):
    assert [m["caption"] for m in matrices] == ["vᵀ", "J = ∂y/∂x", "vᵀJ"], matrices
    vt, jm, res = matrices
    assert vt["rows"] == [v] and jm["rows"] == J and res["rows"] == [grad], matrices


def test_vjp_panel_shows_the_tutorials_numbers(window, jupyter_server):
    page = window
    J, v, grad, printed = torch_numbers()
    nb = new_notebook(cells=[new_code_cell(SETUP), new_code_cell(PANEL), new_code_cell(BACKWARD),
                             new_code_cell(PLAYER)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    name = jupyter_server.add_notebook("_ui_selftest/jacobian_vjp.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name, shot=False)
    assert not res.errors and not res.widget_errors, res.failure_report()

    # 1. the panel: vᵀ · J = vᵀJ with PyTorch's numbers, side by side inside the window
    panel = page.locator(".jp-OutputArea-output .gradlab-vjp").first
    panel.scroll_into_view_if_needed()
    matrices = panel.evaluate(_JS_MATRICES)
    _check_panel(matrices, J, v, grad)
    boxes = [m["box"] for m in matrices]
    assert boxes[0][2] <= boxes[1][0] and boxes[1][2] <= boxes[2][0], boxes       # left to right
    assert all(0 <= b[0] and b[2] <= WIDTH for b in boxes), boxes
    text = panel.inner_text()
    assert "exactly what y.backward(v) adds into x.grad" in text and "autograd.grad(y, x, v)" in text
    # 2. the real backward afterwards: the graph was intact, and x.grad prints as PyTorch's does
    outputs = page.locator(".jp-Notebook .jp-Cell").nth(2).locator(".jp-OutputArea-output")
    assert outputs.first.inner_text().strip() == printed
    page.evaluate("(el) => el.closest('.jp-Cell').scrollIntoView({block: 'start'})", panel.element_handle())
    page.wait_for_timeout(300)
    jlab.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(jlab.ARTIFACTS / "jacobian-vjp.png"))

    # 3. the player started from gradient=v shows the same panel at its first step
    start = page.locator(".gradlab-player .gradlab-start-vjp").first
    start.wait_for()
    start.scroll_into_view_if_needed()
    assert start.is_visible()
    _check_panel(start.evaluate(_JS_MATRICES), J, v, grad)
    assert "exactly what this backward adds into x.grad" in start.inner_text()
    page.evaluate("(el) => el.closest('.jp-Cell').scrollIntoView({block: 'start'})", start.element_handle())
    page.wait_for_timeout(300)
    page.screenshot(path=str(jlab.ARTIFACTS / "jacobian-vjp-player.png"))

    # 4. JupyterLab's dark theme restyles output tables: the panels keep their text readable
    try:
        _set_theme(page, "JupyterLab Dark")
        rows = page.evaluate(_JS_PANEL_CONTRAST)
        assert {r["where"] for r in rows} >= {"gradlab-vjp"} and len(rows) > 30
        bad = {(r["text"], r["color"], r["bg"]): r for r in rows if r["ratio"] < 4.5}
        page.evaluate("(el) => el.closest('.jp-Cell').scrollIntoView({block: 'start'})", panel.element_handle())
        page.wait_for_timeout(300)
        page.screenshot(path=str(jlab.ARTIFACTS / "jacobian-vjp-dark.png"))
        assert not bad, "dark theme: text below 4.5:1: " + "; ".join(
            f"{r['text']!r} {r['color']} on {r['bg']} = {r['ratio']}" for r in list(bad.values())[:12])
    finally:
        _set_theme(page, "JupyterLab Light")      # the theme is a user setting: leave the server light
