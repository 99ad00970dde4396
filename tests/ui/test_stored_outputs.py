"""Every notebook as a student first sees it: opened untrusted (fresh Jupyter data dir), nothing run.

A notebook from git, Binder or nbgitpuller is not trusted, so JupyterLab sanitizes its stored HTML outputs
(inline <svg> is dropped, leaving its text: "n1 -> n0 ...") and never renders widgets or image/svg+xml.
gradlab stores drawings as <img src="data:image/svg+xml;base64,..."> inside text/html, and a player's
stored output falls back to the picture of its graph plus one line on how to play it. Checked here:

* every stored drawing shows as a decoded image (naturalWidth > 0), as many as the file stores;
* no output shows DOT or SVG text ("n1 -> n0", "digraph", "gradlab n0");
* every stored player shows its picture and the "Run this cell to play" line;
* the tab is not dirty once the kernel has started (language_info is the kernel's), closing it asks
  nothing, and saving it writes the same bytes (the files are written as JupyterLab writes them).

Screenshots (1280x800 window, whole notebook) go to test-artifacts/ui/<name>-untrusted.png.
"""
from __future__ import annotations

import json
import re
import urllib.parse

import pytest

import jlab

pytestmark = pytest.mark.ui

NOTEBOOKS = jlab.notebook_names()
DOT_TEXT = re.compile(r"\bn\d+\s*-(>|&gt;)\s*n\d+|digraph|\bgradlab n\d")
PLAY_LINE = "Run this cell to play"

_JS_OUTPUTS = r"""
() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const imgs = [], texts = [], players = [];
  panel.content.widgets.forEach((cell, ci) => {
    if (cell.model.type !== 'code') return;
    cell.node.querySelectorAll('.jp-OutputArea-output').forEach((out) => {
      texts.push({cell: ci, text: out.innerText || ''});
      out.querySelectorAll('img[src^="data:image/svg+xml"]').forEach((img) => {
        imgs.push({cell: ci, complete: img.complete, width: img.naturalWidth, height: img.naturalHeight,
                   shown: img.getBoundingClientRect().width});
      });
      if ((out.innerText || '').includes('%PLAY%')) players.push(ci);
    });
  });
  const trusted = [];
  panel.content.widgets.forEach((cell) => { if (cell.model.type === 'code') trusted.push(cell.model.trusted); });
  return {imgs, texts, players, trusted: trusted.some((t) => t), dirty: panel.context.model.dirty};
}
""".replace("%PLAY%", PLAY_LINE)


def _stored(name: str) -> tuple[int, int]:
    """(drawings, players) stored in the file: text/html outputs with an SVG data URI; players among them."""
    nb = json.loads((jlab.notebooks_dir() / name).read_text(encoding="utf-8"))
    drawings = players = 0
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            html = "".join(out.get("data", {}).get("text/html", ""))
            drawings += html.count("data:image/svg+xml;base64,")
            players += PLAY_LINE in html
    return drawings, players



@pytest.mark.parametrize("name", NOTEBOOKS)
def test_untrusted_notebook_shows_pictures_and_opens_unmodified(window, jupyter_server, name):
    page = window
    path = jupyter_server.root / name
    original = path.read_bytes()
    jlab.open_notebook(page, jupyter_server, name)
    page.wait_for_timeout(1500)        # kernel info has arrived (language_info), images decoded
    found = page.evaluate(_JS_OUTPUTS)
    shot = jlab.screenshot(page, name.replace(".ipynb", "-untrusted"))

    assert not found["trusted"], f"{name} opened trusted: this test needs a fresh trust database"
    drawings, players = _stored(name)
    assert len(found["imgs"]) == drawings, (name, found["imgs"], shot)
    bad = [i for i in found["imgs"] if not (i["complete"] and i["width"] > 0 and i["shown"] > 0)]
    assert not bad, f"{name}: drawings that do not show as an image: {bad} (screenshot {shot})"
    dot = [(t["cell"], t["text"][:200]) for t in found["texts"] if DOT_TEXT.search(t["text"])]
    assert not dot, f"{name}: outputs showing DOT/SVG text: {dot} (screenshot {shot})"
    assert len(found["players"]) == players, (name, found["players"], players)

    # opened and left alone: not modified, closing asks nothing, saving writes the same bytes
    assert found["dirty"] is False, f"{name} opens modified"
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    jlab.poll(lambda: not page.evaluate("() => window.jupyterapp.shell.currentWidget.context.model.dirty")
              and path.read_bytes() != b"", 20, "the save")
    page.wait_for_timeout(500)
    saved = path.read_bytes()
    path.write_bytes(original)
    if saved != original:
        import difflib
        diff = "".join(list(difflib.unified_diff(original.decode().splitlines(True), saved.decode().splitlines(True),
                                                 "built", "saved by JupyterLab", n=1))[:60])
        pytest.fail(f"{name}: JupyterLab writes the file differently:\n{diff}")
