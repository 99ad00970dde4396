"""The player in the notebook's language, and every player and card text readable in both JupyterLab themes.

* The Korean and the Chinese notebooks (trusted copies, so the stored widget state renders the players without
  running a cell): the visible frame's step line, caption, .grad panels, details and legend, and the player's
  buttons are in Korean / Chinese; no English words are left beyond PyTorch's identifiers and the tensors' names.
* WCAG AA in JupyterLab's light AND dark theme: every rendered text of the players (frames and controls), of the
  stored players' pictures with their one line, and of the tensor and grad_fn cards has a contrast of at least
  4.5:1 against the background it is drawn on. Colours are read with getComputedStyle in Chromium; the
  background is the first opaque one found walking up from the text, with the translucent ones on the way
  blended over it, and opacity applied to the text colour.
Screenshots: test-artifacts/ui/lang-<notebook>-<theme>.png.
"""
from __future__ import annotations

import re

import pytest

import jlab
from gradlab.viz import i18n

pytestmark = pytest.mark.ui

WIDTH, HEIGHT = 1280, 800
THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}
LANG_NOTEBOOKS = {"02_autograd_basics_ko.ipynb": "ko", "04_step_by_step_zh.ipynb": "zh"}
SCRIPT = {"ko": re.compile(r"[\uac00-\ud7a3]"), "zh": re.compile(r"[\u4e00-\u9fff]")}
# Latin words allowed in a ko/zh player: PyTorch's identifiers, the tensors' names, the dL/dx notation
ALLOWED = re.compile(r"\w*Backward\d*|AccumulateGrad|grad_fn|backward\(\)|backward|\.grad(?![A-Za-z])|None|"
                     r"dL/d\(?[A-Za-z0-9_. ]+\)?|(?<![A-Za-z])[A-Za-z]{1,3}\d*(?![A-Za-z])")

_JS_MARK_PLAYERS = """(n) => {
    const boxes = Array.from(document.querySelectorAll('.jp-OutputArea-output .widget-vbox'))
      .filter((b) => b.querySelector('.gradlab-frame') && !b.parentElement.closest('.gradlab-player'));
    boxes.forEach((b) => b.classList.add('gradlab-player'));
    return document.querySelectorAll('.gradlab-player').length >= n;
}"""

_JS_PLAYER_TEXT = """() => Array.from(document.querySelectorAll('.gradlab-player')).map((p) => {
    const frame = Array.from(p.querySelectorAll('.gradlab-frame')).find((f) => f.offsetParent !== null);
    const controls = Array.from(p.querySelectorAll('.widget-button, .widget-label, .widget-play button'))
      .map((e) => (e.innerText || '') + ' ' + (e.title && e.title !== 'null' ? e.title : '')).join(' | ');
    // a chain-rule line is code (grad_self = grad * other): its lead-in is checked, its identifiers are PyTorch's
    let text = frame ? frame.innerText : null;
    if (frame) frame.querySelectorAll('.gradlab-rule').forEach((r) => {
      const line = r.innerText, i = line.search(/[:：]/);
      if (i >= 0) text = text.replace(line.slice(i + 1), '');
    });
    return {frame: text, legend: frame ? frame.querySelector('.gradlab-legend').innerText : null,
            step: frame ? frame.querySelector('.gradlab-step').innerText : null, controls};
})"""

_JS_CONTRAST = """() => {
  const parse = (s) => {
    let m = s.match(/rgba?\\(([^)]+)\\)/);
    if (m) { const v = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; }
    m = s.match(/color\\(srgb ([^)]+)\\)/);
    if (m) { const v = m[1].split(/[ \\/]+/).filter(Boolean).map(Number); return [v[0] * 255, v[1] * 255, v[2] * 255, v.length > 3 ? v[3] : 1]; }
    return [0, 0, 0, 0];
  };
  const over = (top, under) => { const a = top[3];
    return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1]; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255, 1];
    if (layers.length && layers[layers.length - 1][3] >= 1) bg = layers.pop();
    while (layers.length) bg = over(layers.pop(), bg);
    return bg;
  };
  const opacity = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o; };
  const roots = document.querySelectorAll(
    '.gradlab-player, .gradlab-player-static, .gradlab-tensor, .gradlab-node, .gradlab-graph-text');
  const seen = new Set(), out = [];
  roots.forEach((root) => root.querySelectorAll('*').forEach((el) => {
    if (seen.has(el) || el.closest('svg')) return;
    seen.add(el);
    const own = Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
    const text = own || ((el.tagName === 'BUTTON' || el.tagName === 'INPUT') ? (el.innerText || el.value || '').trim() : '');
    if (!text) return;
    const st = getComputedStyle(el);
    if (st.visibility !== 'visible' || st.display === 'none' || !el.getClientRects().length) return;
    if (el.offsetParent === null && st.position !== 'fixed') return;
    const bg = background(el);
    const fg = parse(st.color);
    const shown = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
    const l1 = lum(shown), l2 = lum(bg);
    const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
    out.push({text: text.slice(0, 60), ratio: Math.round(ratio * 100) / 100, color: st.color,
              bg: 'rgb(' + bg.slice(0, 3).map(Math.round).join(',') + ')', where: Array.from(root.classList).find((c) => c.startsWith('gradlab-'))});
  }));
  return out;
}"""


@pytest.fixture
def window(browser, jupyter_server):
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    context.set_default_timeout(30_000)
    pg = context.new_page()
    try:
        yield pg
    finally:
        try:
            _set_theme(pg, THEMES["light"])     # the theme is a user setting: leave the session's server light
        except Exception:
            pass
        context.close()
        for sess in jupyter_server.api("GET", "/api/sessions") or []:
            jupyter_server.api("DELETE", f"/api/sessions/{sess['id']}")


def _set_theme(page, theme):
    page.evaluate("(t) => window.jupyterapp.commands.execute('apputils:change-theme', {theme: t})", theme)
    jlab.poll(lambda: page.evaluate("() => document.body.dataset.jpThemeName") == theme, 30, f"theme {theme}")
    page.wait_for_timeout(500)


def _open_trusted(page, server, name):
    import nbformat
    nb = nbformat.read(str(jlab.notebooks_dir() / name), as_version=4)
    nb.metadata["gradlab_test"] = "language and contrast"      # a trusted copy; the original stays untrusted
    path = server.add_notebook(f"_lang/{name}", nb)
    jlab.open_notebook(page, server, path)
    jlab.trust_notebook(page)
    return path


def _players(page, at_least=1):
    jlab.poll(lambda: page.evaluate(_JS_MARK_PLAYERS, at_least), 60, "the players to render")
    return page.evaluate(_JS_PLAYER_TEXT)


def _english_left(text):
    return re.findall(r"[A-Za-z]{4,}", ALLOWED.sub(" ", text))


def _step_all_players_to(page, step):
    for k in range(page.locator(".gradlab-player").count()):
        box = page.locator(".gradlab-player").nth(k).locator(".widget-text input[type='number']").first
        last = int(box.get_attribute("max"))
        box.fill(str(min(step, last)))
        box.press("Enter")
    page.wait_for_timeout(400)


@pytest.mark.parametrize("name", sorted(LANG_NOTEBOOKS))
def test_korean_and_chinese_players_speak_their_language(window, jupyter_server, name):
    lang = LANG_NOTEBOOKS[name]
    page = window
    _open_trusted(page, jupyter_server, name)
    for step in (0, 1, 99):                  # the start, a node's step, the last step (AccumulateGrad)
        _step_all_players_to(page, step)
        players = _players(page)
        assert players, f"no player rendered in {name}"
        for p in players:
            assert p["frame"], f"{name}: no visible frame"
            for part in ("frame", "legend", "step", "controls"):
                assert SCRIPT[lang].search(p[part]), f"{name} step {step}: {part} not in {lang}: {p[part]!r}"
                assert not _english_left(p[part]), f"{name} step {step}: English left in the {part}: " \
                                                   f"{_english_left(p[part])} in {p[part]!r}"
    page.locator(".gradlab-player").first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    page.screenshot(path=str(jlab.ARTIFACTS / f"lang-{name.removesuffix('.ipynb')}.png"))


# the players' notebook with cards and two players (zh) and one English player notebook
CONTRAST_NOTEBOOKS = ["04_step_by_step_zh.ipynb", "07_watching_backward.ipynb"]


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("name", CONTRAST_NOTEBOOKS)
def test_player_and_card_text_is_wcag_aa_in_both_themes(window, jupyter_server, name, theme):
    page = window
    _open_trusted(page, jupyter_server, name)
    _set_theme(page, THEMES[theme])
    _players(page)
    bad, checked = [], 0
    for step in (0, 1, 99):
        _step_all_players_to(page, step)
        rows = page.evaluate(_JS_CONTRAST)
        checked += len(rows)
        bad += [r for r in rows if r["ratio"] < 4.5]
        if step == 0:
            # the check itself: the "received: ..." line, #555 on #111, must be caught (about 2.3:1)
            probe = page.evaluate("""() => {
                const d = document.createElement('div'); d.className = 'gradlab-node'; d.id = 'gl-probe';
                d.style.background = '#111'; d.innerHTML = '<span style="color:#555">received: probe</span>';
                document.querySelector('.jp-Notebook').appendChild(d); return true; }""")
            caught = [r for r in page.evaluate(_JS_CONTRAST) if r["text"] == "received: probe"]
            page.evaluate("() => document.getElementById('gl-probe').remove()")
            assert probe and len(caught) == 1 and 2.0 < caught[0]["ratio"] < 2.6, caught
            where = {r["where"] for r in rows}
            assert "gradlab-player" in where, where
            if name.startswith("04"):
                assert "gradlab-tensor" in where and "gradlab-node" in where, where
    assert checked > 50
    page.locator(".gradlab-player").first.evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    page.screenshot(path=str(jlab.ARTIFACTS / f"contrast-{name.removesuffix('.ipynb')}-{theme}.png"))
    unique = {(r["text"], r["color"], r["bg"]): r for r in bad}
    assert not unique, f"{name}, {theme} theme: text below 4.5:1: " + "; ".join(
        f"{r['text']!r} {r['color']} on {r['bg']} = {r['ratio']}" for r in list(unique.values())[:12])


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_stored_player_pictures_and_cards_untrusted_are_wcag_aa(window, jupyter_server, theme):
    """Opened untrusted (no widgets): the players' pictures with their one line, and the cards."""
    page = window
    name = "04_step_by_step_zh.ipynb"
    jlab.open_notebook(page, jupyter_server, name)
    _set_theme(page, THEMES[theme])
    jlab.poll(lambda: page.locator(".gradlab-player-static").count() >= 1, 30, "the stored players' pictures")
    rows = page.evaluate(_JS_CONTRAST)
    assert {"gradlab-player-static", "gradlab-tensor"} <= {r["where"] for r in rows}
    bad = {(r["text"], r["color"], r["bg"]): r for r in rows if r["ratio"] < 4.5}
    assert not bad, f"untrusted, {theme} theme: text below 4.5:1: " + "; ".join(
        f"{r['text']!r} {r['color']} on {r['bg']} = {r['ratio']}" for r in list(bad.values())[:12])
    assert "运行这个单元" in page.locator(".gradlab-player-static").first.inner_text()
