"""Helpers that drive a real JupyterLab 4 page (Playwright, sync API).

Everything here talks to the page through ``window.jupyterapp`` (the server is
started with ``--LabApp.expose_app_in_browser=True``) and through the DOM.

The detectors (:func:`collect_errors`, :func:`collect_widget_errors`,
:func:`collect_graphs`) are what the notebook tests assert on;
``tests/ui/test_negative.py`` proves that they do report failures.
"""

from __future__ import annotations

import json
import os
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "ui"

# Generous but bounded timeouts (seconds).  The machine is small and shared;
# a first kernel start can take most of a minute.
OPEN_TIMEOUT = 90
KERNEL_IDLE_TIMEOUT = 120
RUN_TIMEOUT = 240
QUIET_END = 5  # idle kernel + nothing queued for this long ends a run even if cells never ran

WIDGET_ERROR_TEXT = "Error displaying widget"


def notebooks_dir() -> Path:
    """Where the notebooks under test live (``$GRADLAB_UI_NOTEBOOKS`` overrides ``notebooks/``)."""
    return Path(os.environ.get("GRADLAB_UI_NOTEBOOKS") or REPO / "notebooks").resolve()


def notebook_names() -> list[str]:
    """Every ``*.ipynb`` directly in :func:`notebooks_dir`, sorted."""
    d = notebooks_dir()
    return sorted(p.name for p in d.glob("*.ipynb")) if d.is_dir() else []


class JLabTimeout(AssertionError):
    """A bounded wait ran out; the message says what was being waited for."""


@dataclass
class RunResult:
    """What :func:`run_notebook` saw after running every cell."""

    name: str
    errors: list[str] = field(default_factory=list)
    widget_errors: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    expected_errors: list[str] = field(default_factory=list)
    graphs: list[dict] = field(default_factory=list)
    screenshot: Path | None = None
    seconds: dict = field(default_factory=dict)

    def failure_report(self) -> str:
        lines = [f"notebook {self.name}:"]
        for e in self.errors:
            lines.append("  ERROR OUTPUT:\n    " + e.strip().replace("\n", "\n    "))
        for w in self.widget_errors:
            lines.append("  WIDGET ERROR: " + w.strip())
        if self.screenshot:
            lines.append(f"  screenshot: {self.screenshot}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# JavaScript run inside the page.
# ---------------------------------------------------------------------------

# The current notebook panel (the one whose path ends with the given name).
_JS_PANEL = """
(name) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return null;
  const w = app.shell.currentWidget;
  if (!w || !w.content || !w.sessionContext) return null;
  if (name && !(w.context && w.context.path.endsWith(name))) return null;
  return w;
}
"""

# A cell may raise on purpose only with the ``raises-exception`` tag: JupyterLab's
# Run All then goes on with the next cells (and nbval accepts the tag too).
# nbval's ``# NBVAL_RAISES_EXCEPTION`` comment / tag is NOT enough in the
# browser: Run All stops at that cell, so a student never sees the rest.
_JS_RAISES = """
(cell) => (cell.model.getMetadata('tags') || []).includes('raises-exception')
"""

_JS_NBVAL_ONLY = """
(cell) => {
  const tags = cell.model.getMetadata('tags') || [];
  return tags.includes('NBVAL_RAISES_EXCEPTION') || tags.includes('nbval-raises-exception')
    || /^\\s*#\\s*NBVAL_RAISES_EXCEPTION/m.test(cell.model.sharedModel.getSource());
}
"""

_JS_STATE = (
    """
(name) => {
  const raises = %s;
  const panel = (%s)(name);
  if (!panel) return {ready: false};
  const sc = panel.sessionContext;
  const kernel = sc.session && sc.session.kernel;
  const cells = panel.content.widgets;
  let code = 0, counted = 0, pending = 0, errors = 0, anyErrors = 0;
  const notRun = [];
  for (const cell of cells) {
    if (cell.model.type !== 'code') continue;
    const src = cell.model.sharedModel.getSource();
    if (!src.trim()) continue;           // JupyterLab never executes empty cells
    code += 1;
    if (cell.model.executionCount !== null) counted += 1; else notRun.push(panel.content.widgets.indexOf(cell));
    const prompt = cell.node.querySelector('.jp-InputPrompt');
    if (prompt && prompt.textContent.includes('*')) pending += 1;
    const outs = cell.model.outputs;
    for (let i = 0; i < outs.length; i++) {
      if (outs.get(i).type === 'error') { anyErrors += 1; if (!raises(cell)) errors += 1; }
    }
  }
  return {
    ready: panel.context.isReady && sc.isReady,
    status: kernel ? kernel.status : null,
    connection: kernel ? kernel.connectionStatus : null,
    kernelId: kernel ? kernel.id : null,
    code, counted, pending, errors, anyErrors, notRun,
  };
}
"""
    % (_JS_RAISES, _JS_PANEL)
)

# Error outputs: from the output models (type 'error') and from the DOM
# (stderr text that carries a traceback).  Plain stderr (warnings) is
# returned separately.
_JS_ERRORS = (
    """
(name) => {
  const raises = %s;
  const nbvalOnly = %s;
  const panel = (%s)(name);
  const errors = [], stderr = [], expected = [];
  if (!panel) return {errors: ['notebook panel not found'], stderr, expected};
  panel.content.widgets.forEach((cell, ci) => {
    if (cell.model.type !== 'code') return;
    if (raises(cell)) {
      // errors here are the point of the cell: report them apart
      const outs = cell.model.outputs;
      for (let i = 0; i < outs.length; i++) {
        const o = outs.get(i).toJSON();
        if (o.output_type === 'error') expected.push(`cell ${ci}: ${o.ename}: ${o.evalue}`);
      }
      return;
    }
    const outs = cell.model.outputs;
    for (let i = 0; i < outs.length; i++) {
      const o = outs.get(i).toJSON();
      if (o.output_type === 'error') {
        const hint = nbvalOnly(cell)
          ? ' [marked NBVAL_RAISES_EXCEPTION but not tagged raises-exception: Run All stops here in JupyterLab]'
          : '';
        errors.push(`cell ${ci}: ${o.ename}: ${o.evalue}${hint}`);
      }
    }
    cell.node.querySelectorAll(
      '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"],' +
      '.jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"]'
    ).forEach((el) => {
      if (el.parentElement && el.parentElement.closest('[data-mime-type="application/vnd.jupyter.stderr"]')) return;
      const text = el.innerText || el.textContent || '';
      if (/Traceback|Error\\b|Exception\\b/.test(text)) {
        errors.push(`cell ${ci} (rendered): ${text.slice(0, 4000)}`);
      } else {
        stderr.push(`cell ${ci}: ${text.slice(0, 2000)}`);
      }
    });
  });
  return {errors, stderr, expected};
}
"""
    % (_JS_RAISES, _JS_NBVAL_ONLY, _JS_PANEL)
)

_JS_WIDGET_ERRORS = """
(text) => {
  const found = [];
  document.querySelectorAll('.jp-OutputArea-output, .jp-Cell-outputArea').forEach((el) => {
    if (el.querySelector('.jp-OutputArea-output')) return;   // only leaves
    const t = el.innerText || el.textContent || '';
    if (t.includes(text)) found.push(t.slice(0, 1000));
  });
  return found;
}
"""

# Graphviz SVGs in every output.  image/svg+xml outputs are drawn by
# JupyterLab as <img src="data:image/svg+xml,...">, so those are parsed
# from the data URI; text/html outputs (and widgets) have inline <svg>.
_JS_GRAPHS = r"""
() => {
  const parseImg = (img) => {
    const src = img.getAttribute('src') || '';
    const m = src.match(/^data:image\/svg\+xml(;base64)?,(.*)$/s);
    if (!m) return null;
    let text;
    try { text = m[1] ? atob(m[2]) : decodeURIComponent(m[2]); } catch (e) { return null; }
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return doc.documentElement;
  };
  const svgsIn = (root) => {
    const out = [];
    root.querySelectorAll('svg').forEach((s) => { if (!s.parentElement.closest('svg')) out.push(s); });
    root.querySelectorAll('img[src^="data:image/svg+xml"]').forEach((img) => {
      const s = parseImg(img); if (s && s.nodeName.toLowerCase() === 'svg') out.push(s);
    });
    return out;
  };
  const isGraphviz = (svg) =>
    !!svg.querySelector('g.graph') ||
    Array.from(svg.childNodes).some((n) => n.nodeType === 8 && /graphviz/i.test(n.nodeValue));
  const result = [];
  const cells = document.querySelectorAll('.jp-Notebook .jp-Cell');
  cells.forEach((cell, ci) => {
    cell.querySelectorAll('.jp-OutputArea-output').forEach((out, oi) => {
      if (out.parentElement.closest('.jp-OutputArea-output')) return;   // nested (Output widget)
      const inRendered = out.querySelector('.jp-RenderedSVG, .jp-RenderedHTMLCommon, .jp-RenderedImage, .widget-html-content')
        || out.matches('.jp-RenderedSVG, .jp-RenderedHTMLCommon');
      if (!inRendered) return;
      const svgs = svgsIn(out).filter(isGraphviz).map((s) => ({nodes: s.querySelectorAll('g.node').length}));
      const wrappers = [];
      out.querySelectorAll('[data-gradlab-nodes]').forEach((w) => {
        const inner = svgsIn(w);
        wrappers.push({
          expected: w.getAttribute('data-gradlab-nodes'),
          svgs: inner.length,
          nodes: inner.reduce((a, s) => a + s.querySelectorAll('g.node').length, 0),
        });
      });
      if (svgs.length || wrappers.length) result.push({cell: ci, output: oi, svgs, wrappers});
    });
  });
  return result;
}
"""


# ---------------------------------------------------------------------------
# Polling
# ---------------------------------------------------------------------------


def poll(fn, timeout: float, what: str, interval: float = 0.25):
    """Call ``fn`` until it returns something truthy; raise JLabTimeout after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        last = fn()
        if last:
            return last
        if time.monotonic() > deadline:
            raise JLabTimeout(f"timed out after {timeout:.0f}s waiting for {what} (last: {last!r})")
        time.sleep(interval)


def state(page, name: str | None = None) -> dict:
    return page.evaluate(_JS_STATE, name) or {"ready": False}


def _dismiss_kernel_dialog(page) -> None:
    """Accept a 'Select Kernel' dialog if JupyterLab shows one (no kernelspec in the file)."""
    dlg = page.locator(".jp-Dialog")
    if dlg.count() and "Kernel" in (dlg.first.inner_text(timeout=2000) or ""):
        page.locator(".jp-Dialog .jp-mod-accept").first.click()


# ---------------------------------------------------------------------------
# Public helpers
# ---------------------------------------------------------------------------


def notebook_url(server, name: str) -> str:
    path = urllib.parse.quote(name)
    return f"{server.url}/lab/tree/{path}?reset&token={server.token}"


def open_notebook(page, server, name: str) -> None:
    """Open ``name`` (relative to the server root) and wait until its kernel is idle."""
    page.goto(notebook_url(server, name), wait_until="domcontentloaded", timeout=OPEN_TIMEOUT * 1000)
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=OPEN_TIMEOUT * 1000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=OPEN_TIMEOUT * 1000)
    poll(lambda: state(page, name).get("ready") or _dismiss_kernel_dialog(page), OPEN_TIMEOUT,
         f"notebook {name} to load")
    # More room for the notebook (and the screenshot): hide the file browser.
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    wait_kernel_idle(page, name)


def trust_notebook(page) -> None:
    """Trust the open notebook ('notebook:trust' + accept the dialog) so stored outputs render fully."""
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:trust'); }")
    btn = page.locator(".jp-Dialog .jp-mod-accept")
    try:
        btn.first.wait_for(timeout=10_000)
        btn.first.click()
    except Exception:
        pass  # already trusted: no dialog
    page.locator(".jp-Dialog").first.wait_for(state="detached", timeout=10_000)


def wait_kernel_idle(page, name: str | None = None, timeout: float = KERNEL_IDLE_TIMEOUT) -> dict:
    def idle():
        _dismiss_kernel_dialog(page)
        s = state(page, name)
        return s if s.get("status") == "idle" and s.get("connection") == "connected" else None

    return poll(idle, timeout, "kernel to be idle")


def run_all(page, name: str | None = None, timeout: float = RUN_TIMEOUT) -> dict:
    """Clear outputs, run every cell, wait until all ran (or one failed) and the kernel is idle."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    stable = {"n": 0, "quiet_since": None}
    last = {}

    def done():
        s = state(page, name)
        last.update(s)
        quiet = s.get("status") == "idle" and s.get("pending") == 0
        finished = quiet and (s.get("counted") == s.get("code") or s.get("anyErrors", 0) > 0)
        # Require two consecutive 'done' observations: the kernel can be idle
        # for an instant between two queued cells.
        stable["n"] = stable["n"] + 1 if finished else 0
        if stable["n"] >= 2:
            return s
        # Nothing queued and the kernel idle for a while, yet some cells never
        # ran (e.g. Run All stopped): that is an end too; run_notebook reports it.
        now = time.monotonic()
        if not quiet:
            stable["quiet_since"] = None
        elif stable["quiet_since"] is None:
            stable["quiet_since"] = now
        elif now - stable["quiet_since"] > QUIET_END:
            return s
        return None

    try:
        return poll(done, timeout, "all cells to run and the kernel to be idle", interval=0.3)
    except JLabTimeout as exc:
        raise JLabTimeout(f"{exc}; notebook state: {last}") from None


def collect_errors(page, name: str | None = None) -> tuple[list[str], list[str]]:
    """(error outputs, other stderr outputs) of the open notebook.

    Cells that raise on purpose (tag ``raises-exception`` / ``NBVAL_RAISES_EXCEPTION``)
    are left out; :func:`collect_expected_errors` lists their errors.
    """
    r = page.evaluate(_JS_ERRORS, name)
    return r["errors"], r["stderr"]


def collect_expected_errors(page, name: str | None = None) -> list[str]:
    """Errors of cells marked as raising on purpose."""
    return page.evaluate(_JS_ERRORS, name)["expected"]


def collect_widget_errors(page) -> list[str]:
    """Texts of outputs that show 'Error displaying widget'."""
    return page.evaluate(_JS_WIDGET_ERRORS, WIDGET_ERROR_TEXT)


def collect_graphs(page) -> list[dict]:
    """One entry per output holding a graphviz SVG or a ``data-gradlab-nodes`` wrapper:

    ``{"cell": i, "output": j, "svgs": [{"nodes": n}, ...],
       "wrappers": [{"expected": "N", "svgs": k, "nodes": n}, ...]}``
    """
    return page.evaluate(_JS_GRAPHS)


def graph_problems(graphs: list[dict]) -> list[str]:
    """What is wrong with the graph outputs (empty list: all fine)."""
    problems = []
    for g in graphs:
        where = f"cell {g['cell']} output {g['output']}"
        for k, s in enumerate(g["svgs"]):
            if s["nodes"] < 1:
                problems.append(f"{where}: graphviz svg #{k} has no g.node")
        for w in g["wrappers"]:
            try:
                expected = int(w["expected"])
            except (TypeError, ValueError):
                problems.append(f"{where}: bad data-gradlab-nodes={w['expected']!r}")
                continue
            if w["svgs"] < 1:
                problems.append(f"{where}: data-gradlab-nodes={expected} wrapper holds no svg")
            elif w["nodes"] != expected:
                problems.append(f"{where}: data-gradlab-nodes={expected} but svg has {w['nodes']} g.node")
    return problems


def screenshot(page, name: str, max_height: int = 15000) -> Path:
    """Full screenshot of the notebook into test-artifacts/ui/<name>.png.

    JupyterLab scrolls inside the notebook panel, not the page, so a plain
    full-page screenshot would only show the viewport: the viewport is grown
    to the notebook's height for the shot and then restored.
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = Path(name).name
    if stem.endswith(".ipynb"):
        stem = stem[: -len(".ipynb")]
    path = ARTIFACTS / f"{stem}.png"
    size = page.viewport_size or {"width": 1280, "height": 900}
    _scroll_to_top(page)
    extra = page.evaluate(
        """() => {
          const s = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer')
                 || document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');
          if (!s) return 0;
          const cells = s.querySelectorAll('.jp-Cell');
          if (!cells.length) return Math.max(0, s.scrollHeight - s.clientHeight);
          // bottom of the last cell, in the scroller's content coordinates
          const last = cells[cells.length - 1].getBoundingClientRect().bottom;
          const top = s.getBoundingClientRect().top;
          return Math.max(0, last - top + s.scrollTop - s.clientHeight);
        }"""
    )
    height = min(max_height, size["height"] + int(extra) + 40)
    try:
        if height > size["height"]:
            page.set_viewport_size({"width": size["width"], "height": height})
            page.wait_for_timeout(300)  # let the layout settle after the resize
            _scroll_to_top(page)
        page.screenshot(path=str(path), full_page=True)
    finally:
        if height > size["height"]:
            page.set_viewport_size(size)
    return path


def _scroll_to_top(page) -> None:
    """Make the first cell active and scroll the notebook to its top (run-all leaves it at the end)."""
    page.evaluate(
        """() => {
          const w = window.jupyterapp.shell.currentWidget;
          if (w && w.content && w.content.widgets && w.content.widgets.length) {
            w.content.activeCellIndex = 0;
            w.content.mode = 'command';
          }
          document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer')
            .forEach((s) => { s.scrollTop = 0; });
        }"""
    )
    page.wait_for_timeout(150)


def run_notebook(page, server, name: str, shot: bool = True) -> RunResult:
    """Open ``name``, run all cells, and collect what the detectors find."""
    res = RunResult(name=name)
    t0 = time.monotonic()
    open_notebook(page, server, name)
    t1 = time.monotonic()
    final = None
    try:
        final = run_all(page, name)
    except JLabTimeout as exc:
        res.errors.append(str(exc))
    t2 = time.monotonic()
    inspect_notebook(page, name, res, shot=shot)
    if final and final.get("notRun"):
        res.errors.append(f"code cells {final['notRun']} never ran (Run All stopped early)")
    res.seconds = {"open": round(t1 - t0, 1), "run": round(t2 - t1, 1), "total": round(time.monotonic() - t0, 1)}
    return res


# Widget outputs (found through the output models: the DOM node carries no
# mime type) that show neither a widget view nor an error text yet.
_JS_UNSETTLED_WIDGETS = """
(text) => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.content || !panel.content.widgets) return 0;
  let n = 0;
  for (const cell of panel.content.widgets) {
    if (cell.model.type !== 'code') continue;
    const outs = cell.model.outputs;
    const children = cell.node.querySelectorAll(':scope .jp-Cell-outputArea > .jp-OutputArea-child');
    for (let i = 0; i < outs.length; i++) {
      const data = outs.get(i).data || {};
      if (!('application/vnd.jupyter.widget-view+json' in data)) continue;
      const el = children[i];
      if (!el) { n += 1; continue; }
      if (el.querySelector('.jupyter-widgets') || (el.textContent || '').includes(text)) continue;
      n += 1;
    }
  }
  return n;
}
"""


def wait_widgets_rendered(page, timeout: float = 20) -> bool:
    """Wait (bounded, never fails) until every widget output shows a widget or an error."""
    try:
        poll(lambda: page.evaluate(_JS_UNSETTLED_WIDGETS, WIDGET_ERROR_TEXT) == 0, timeout,
             "widget views to render")
        return True
    except JLabTimeout:
        return False


def inspect_notebook(page, name: str, res: RunResult | None = None, shot: bool = True) -> RunResult:
    """Run every detector on the open notebook (as it is now) and take the screenshot."""
    res = res or RunResult(name=name)
    if not wait_widgets_rendered(page):
        res.widget_errors.append("some widget outputs never rendered (no widget view, no error text)")
    errors, stderr = collect_errors(page, name)
    res.errors += errors
    res.stderr += stderr
    res.expected_errors += collect_expected_errors(page, name)
    res.widget_errors += collect_widget_errors(page)
    res.graphs += collect_graphs(page)
    if shot:
        res.screenshot = screenshot(page, name)
    return res


def kernel_id(page, name: str | None = None) -> str | None:
    return state(page, name).get("kernelId")


def shutdown_kernel(page, server=None, name: str | None = None, via: str = "command", timeout: float = 60) -> None:
    """Shut the notebook's kernel down, as a user would ('kernelmenu:shutdown') or via REST.

    Waits until the page no longer has a live kernel.
    """
    kid = kernel_id(page, name)
    if via == "rest":
        if server is None or kid is None:
            raise ValueError("REST shutdown needs the server and a running kernel")
        server.api("DELETE", f"/api/kernels/{kid}")
    else:
        page.evaluate("() => window.jupyterapp.commands.execute('kernelmenu:shutdown')")
        page.wait_for_timeout(200)
        _dismiss_shutdown_dialog(page)

    def gone():
        s = state(page, name)
        return s.get("kernelId") is None or s.get("status") in ("dead", "unknown")

    poll(gone, timeout, "the kernel to shut down")
    if server is not None and kid is not None:
        poll(lambda: kid not in [k["id"] for k in server.api("GET", "/api/kernels")], timeout,
             "the server to forget the kernel")


def _dismiss_shutdown_dialog(page) -> None:
    dlg = page.locator(".jp-Dialog .jp-mod-accept")
    if dlg.count():
        dlg.first.click()


def rest(url: str, method: str = "GET", token: str = "", timeout: float = 10):
    """Tiny JSON REST client (urllib only)."""
    req = urllib.request.Request(url, method=method, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        body = resp.read()
    return json.loads(body) if body else None
