"""Every notebook's backward players laid out for a real network: at 1280x800, with the player's top at the
top of the notebook, the running node is inside the window at every step, and nothing moves between steps.

The notebook is trusted (as after running it), so the stored widget state renders the players without
running a cell; each step is chosen with the player's step box (linked in the browser). Screenshots of the
first and the last step of every player go to test-artifacts/ui/player-<notebook>-<k>-first/last.png.
"""
from __future__ import annotations

import json

import pytest

import jlab
from gradlab.viz import i18n
from gradlab.viz.player import COLORS

pytestmark = pytest.mark.ui

WIDTH, HEIGHT = 1280, 800
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _players(name: str) -> int:
    nb = json.loads((jlab.notebooks_dir() / name).read_text(encoding="utf-8"))
    return sum(WIDGET_VIEW in out.get("data", {}) and "gradlab backward player" in "".join(
        out["data"].get("text/plain", "")) for c in nb["cells"] for out in c.get("outputs", []))


NOTEBOOKS = [n for n in jlab.notebook_names() if _players(n)]
RUN_FILL = "rgb({}, {}, {})".format(*(int(COLORS["run_fill"][i:i + 2], 16) for i in (1, 3, 5)))

_JS_STEP = """
([k, runFill]) => {
  const player = document.querySelectorAll('.gradlab-player:not(.gradlab-quiz)')[k];
  const frames = Array.from(player.querySelectorAll('.gradlab-frame')).filter((f) => f.offsetParent !== null);
  if (frames.length !== 1) return {visible: frames.length};
  const frame = frames[0];
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom].map(Math.round); };
  let running = null;
  frame.querySelectorAll('g.node').forEach((g) => {
    const shape = g.querySelector('path, polygon, ellipse');
    if (shape && getComputedStyle(shape).fill === runFill) running = box(g);
  });
  const svg = frame.querySelector('.gradlab-graph svg, .gradlab-graph table');
  return {visible: 1, step: frame.querySelector('.gradlab-step').innerText.trim(), running,
          graph: svg ? box(svg) : null, player: box(player)};
}
"""



@pytest.mark.parametrize("name", NOTEBOOKS)
def test_running_node_stays_on_screen(window, jupyter_server, name):
    import nbformat
    page = window
    # Trust a copy that differs in one metadata key: Jupyter's trust is a signature of the content, and the
    # originals must stay untrusted for test_stored_outputs.
    nb = nbformat.read(str(jlab.notebooks_dir() / name), as_version=4)
    nb.metadata["gradlab_test"] = "player layout"
    name = jupyter_server.add_notebook(f"_layout/{name}", nb)
    jlab.open_notebook(page, jupyter_server, name)
    jlab.trust_notebook(page)
    count = _players(name.split("/")[-1])
    # mark each player's widget (the VBox holding a step box and frames) for the JS above
    jlab.poll(lambda: page.evaluate("""(n) => {
        const boxes = Array.from(document.querySelectorAll('.jp-OutputArea-output .widget-vbox'))
          .filter((b) => b.querySelector('.gradlab-frame') && !b.parentElement.closest('.gradlab-player'))
          .filter((b) => !b.classList.contains('gradlab-quiz'));     // a quiz (animate_backward(quiz=True)) is no player
        boxes.forEach((b) => b.classList.add('gradlab-player'));
        return boxes.length === n;
    }""", count), 60, f"{count} players of {name} to render")
    stem = name.split("/")[-1].removesuffix(".ipynb")
    for k in range(count):
        player = page.locator(".gradlab-player:not(.gradlab-quiz)").nth(k)
        player.evaluate("(e) => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(200)
        stepper = player.locator(".widget-text input[type='number']").first
        last = int(stepper.get_attribute("max"))
        places = None
        for step in range(last + 1):
            stepper.fill(str(step))
            stepper.press("Enter")
            # the step line in any of the player's languages (the ko/zh notebooks play in theirs)
            want = {i18n.TEXT["step_start"][lang] if step == 0 else i18n.TEXT["step_of"][lang].format(i=step, n=last)
                    for lang in i18n.LANGUAGES}
            seen = jlab.poll(lambda: (lambda s: s if s.get("step") in want else None)(
                page.evaluate(_JS_STEP, [k, RUN_FILL])), 10, f"{name} player {k} at {want}")
            if step > 0:
                assert seen["running"], f"{name} player {k} step {step}: no running node found"
                left, top, right, bottom = seen["running"]
                assert 0 <= left and right <= WIDTH and 0 <= top and bottom <= HEIGHT, \
                    f"{name} player {k} step {step}: running node at {seen['running']}, outside {WIDTH}x{HEIGHT}"
            where = (seen["player"][1], seen["graph"])
            assert places is None or where == places, f"{name} player {k} moved at step {step}: {where} vs {places}"
            places = where
            if step in (0, last):
                page.screenshot(path=str(jlab.ARTIFACTS / f"player-{stem}-{k}-{'first' if step == 0 else 'last'}.png"))
