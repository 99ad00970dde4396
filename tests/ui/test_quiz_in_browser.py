"""The backward quiz in a real JupyterLab: predict a gradient, Check, and see it judged.

The autograd tutorial's example runs in a cell (`viz.animate_backward(out, quiz=True)`). In a 1280x800 window:

* step 0 only shows; at step 1 the question is asked, the step's values are not on screen, next ▶ is locked;
* an unreadable answer gets a sentence (no traceback, nothing scored); a wrong answer is rejected with the
  value backward sent and the step's caption; next ▶ opens; a right answer (PyTorch's own gradient, computed
  here live) is accepted and the score line counts both;
* with the kernel restarted or shut down, the quiz says plainly that checking needs a running kernel;
* opened untrusted, the stored output shows the same sentence and the graph's picture, no value on it;
* every text reaches WCAG AA in the light and the dark theme; the Korean and Chinese quizzes speak their language.

Screenshots: test-artifacts/ui/quiz-<what>.png.
"""
from __future__ import annotations

import numpy as np
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output

import jlab
from gradlab.viz import i18n

pytestmark = pytest.mark.ui

WIDTH, HEIGHT = 1280, 800
TUTORIAL = """\
import gradlab as torch
from gradlab import viz
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
"""
QUIZ_CODE = TUTORIAL + "viz.animate_backward(out, names=locals(), quiz=True)\n"
EN = {key: i18n.TEXT[key]["en"] for key in ("check", "reveal", "next", "prev", "quiz_needs_kernel")}


def _torch_gradients():
    """What the tutorial's nodes send, from PyTorch itself: dL/dz (MeanBackward0 sends it) and dL/d(y*y)
    (the *3's MulBackward0 sends it), via autograd.grad on the same graph."""
    real = pytest.importorskip("torch")
    x = real.ones(2, 2, requires_grad=True)
    y = x + 2
    yy = y * y
    z = yy * 3
    out = z.mean()
    dz, dyy = real.autograd.grad(out, [z, yy])
    return dz.numpy(), dyy.numpy()


def _typed(g):
    """How a student writes a gradient: one number when every element is the same, else the nested list."""
    flat = np.asarray(g).reshape(-1)
    return repr(float(flat[0])) if np.all(flat == flat[0]) else repr(np.asarray(g).tolist())


_JS_QUIZ = """() => {
  const quiz = document.querySelector('.gradlab-quiz');
  if (!quiz) return null;
  const shown = (e) => !!e && e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden';
  const words = quiz.querySelector('.gradlab-quiz-box');
  const frame = quiz.querySelector('.gradlab-frame');
  const button = (text) => Array.from(quiz.querySelectorAll('button')).find((b) => b.innerText.trim() === text);
  // the edge labels the graph shows (hidden ones are values still to predict)
  const labels = frame ? Array.from(frame.querySelectorAll('g.edge text'))
    .filter((t) => getComputedStyle(t).visibility !== 'hidden').map((t) => t.textContent.trim()).filter(Boolean) : [];
  const running = frame ? Array.from(frame.querySelectorAll('g.node')).filter((g) => {
    const s = g.querySelector('path, polygon'); return s && getComputedStyle(s).strokeWidth === '3px'; }).length : 0;
  return {
    words: words ? words.innerText : '', step: (quiz.querySelector('.gradlab-quiz-step') || {}).innerText || '',
    frame: frame ? frame.innerText : '', labels, running,
    graph: frame ? Math.round(frame.querySelector('svg').getBoundingClientRect().bottom) : 0,
    fields: Array.from(quiz.querySelectorAll('input[type=text]')).filter(shown).length,
    score: (quiz.querySelector('.gradlab-quiz-score') || {}).innerText || '',
    right: Array.from(quiz.querySelectorAll('.gradlab-quiz-right')).filter(shown).map((e) => e.innerText),
    wrong: Array.from(quiz.querySelectorAll('.gradlab-quiz-wrong')).filter(shown).map((e) => e.innerText),
    problem: Array.from(quiz.querySelectorAll('.gradlab-quiz-problem')).filter(shown).map((e) => e.innerText),
    check: shown(button(%CHECK%)) && !button(%CHECK%).disabled,
    next: !!button(%NEXT%) && !button(%NEXT%).disabled,
    nokernel: shown(quiz.querySelector('.gradlab-quiz-nokernel')),
    nokernelText: (quiz.querySelector('.gradlab-quiz-nokernel') || {}).innerText || '',
    top: Math.round(quiz.getBoundingClientRect().top), bottom: Math.round(quiz.getBoundingClientRect().bottom),
  };
}""".replace("%CHECK%", repr(EN["check"])).replace("%NEXT%", repr(EN["next"]))


def _quiz(page):
    return page.evaluate(_JS_QUIZ)


def _wait(page, pred, what, timeout=20):
    return jlab.poll(lambda: (lambda s: s if s and pred(s) else None)(_quiz(page)), timeout, what, interval=0.1)


def _click(page, text):
    page.locator(".gradlab-quiz button", has_text=text).first.click()


def _answer(page, text):
    field = page.locator(".gradlab-quiz input[type=text]:visible").first
    field.fill(text)
    page.wait_for_timeout(300)        # the typed value reaches the kernel before the click does
    _click(page, EN["check"])


def _shot(page, what):
    page.evaluate("() => document.querySelector('.gradlab-quiz').scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    path = jlab.ARTIFACTS / f"quiz-{what}.png"
    jlab.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    return path


def test_quiz_rejects_a_wrong_answer_and_accepts_the_right_one(window, jupyter_server):
    page = window
    dz, dyy = _torch_gradients()
    nb = new_notebook(cells=[new_code_cell(QUIZ_CODE)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    name = jupyter_server.add_notebook("_ui_selftest/quiz.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name, shot=False)
    assert not res.errors and not res.widget_errors, res.failure_report()

    # step 0: the start is shown, nothing asked; next ▶ is open
    start = _wait(page, lambda s: s["step"] and s["next"] and s["score"], "the quiz at its start")
    assert start["fields"] == 0 and not start["check"] and "backward() starts at out" in start["words"], start
    assert not start["nokernel"], "the no-kernel sentence shows while the kernel runs"
    _shot(page, "start")

    # step 1: asked first. The value MeanBackward0 sends is nowhere on screen yet, and next ▶ is locked
    _click(page, EN["next"])
    # (each widget's change is its own message: wait for the whole step, not its first sign)
    asked = _wait(page, lambda s: s["fields"] == 1 and s["check"] and not s["next"], "the first question")
    assert "MeanBackward0" in asked["words"] and "?" in asked["words"] and asked["running"] >= 1, asked
    assert not asked["next"] and asked["check"], asked
    assert not any(v in asked["frame"] + " ".join(asked["labels"]) for v in ("0.25", "0.75", "2.25", "4.5")), asked
    _shot(page, "asked")

    # an unreadable answer: a sentence, no traceback, nothing scored, still locked
    _answer(page, "[[0.25, 0.25], [0.25")
    bad = _wait(page, lambda s: s["problem"] and s["check"], "the sentence about an unreadable answer")
    assert "cannot read" in bad["problem"][0] and "Traceback" not in bad["words"], bad
    assert not bad["next"] and bad["score"].startswith("Score: 0 of 0"), bad
    assert not res.errors and not jlab.collect_errors(page, name)[0]

    # a wrong answer (PyTorch's value, doubled): rejected, with what backward sent and why; next ▶ opens
    _answer(page, _typed(dz * 2))
    wrong = _wait(page, lambda s: s["wrong"] and s["next"] and "0.25" in " ".join(s["labels"]),
                  "the wrong answer to be rejected")
    assert "Not quite" in wrong["wrong"][0] and "0.25 everywhere" in wrong["wrong"][0], wrong
    assert "Why: MeanBackward0 received" in wrong["words"] and wrong["next"], wrong
    assert "0.25" in " ".join(wrong["labels"]), "the edge's value is shown once the answer is in"
    assert wrong["score"] == "Score: 0 of 1 right (5 questions)", wrong
    _shot(page, "wrong")

    # step 2: the right answer, PyTorch's gradient as a student types it: accepted
    _click(page, EN["next"])
    _wait(page, lambda s: s["fields"] == 1 and not s["wrong"] and s["check"], "the second question")
    _answer(page, _typed(dyy))
    right = _wait(page, lambda s: s["right"] and "1 of 2" in s["score"], "the right answer to be accepted")
    assert "Right" in right["right"][0] and right["score"] == "Score: 1 of 2 right (5 questions)", right
    _shot(page, "right")
    # scrolled to its top, the quiz fits the window: question, answer, verdict and the whole graph
    placed = _quiz(page)
    assert placed["bottom"] <= HEIGHT and placed["graph"] <= HEIGHT, placed

    # step 3 asks for each of its two inputs: two boxes
    _click(page, EN["next"])
    two = _wait(page, lambda s: s["fields"] == 2, "the question with two inputs")
    assert "each of its 2 inputs" in two["words"], two
    _shot(page, "two-inputs")

    # the kernel restarted: this quiz's buttons reach nobody (ipywidgets marks it disconnected); it says so
    # (not awaited: the command's promise waits for the dialog clicked below)
    page.evaluate("() => { window.jupyterapp.commands.execute('kernelmenu:restart'); }")
    page.locator(".jp-Dialog .jp-mod-accept").first.click()
    jlab.wait_kernel_idle(page, name)
    restarted = _wait(page, lambda s: s["nokernel"], "the no-kernel sentence after a restart")
    assert restarted["nokernelText"].strip() == EN["quiz_needs_kernel"], restarted
    _shot(page, "kernel-restarted")

    # the kernel gone: the quiz says so plainly, in a sentence on screen
    jlab.shutdown_kernel(page, jupyter_server, name)
    gone = _wait(page, lambda s: s["nokernel"], "the no-kernel sentence")
    assert gone["nokernelText"].strip() == EN["quiz_needs_kernel"], gone
    _shot(page, "no-kernel")


def test_untrusted_stored_quiz_says_to_run_the_cell(window, jupyter_server):
    """A notebook saved with a quiz and opened untrusted shows the picture and the plain sentence."""
    import gradlab as torch
    from gradlab import viz
    page = window
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    quiz = viz.animate_backward(out, names=locals(), quiz=True)
    bundle = quiz._repr_mimebundle_()
    bundle.pop("application/vnd.jupyter.widget-view+json")       # no widget state is stored with it
    cell = new_code_cell(QUIZ_CODE, execution_count=1,
                         outputs=[new_output("execute_result", data=bundle, execution_count=1)])
    nb = new_notebook(cells=[cell])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    name = jupyter_server.add_notebook("_ui_selftest/quiz_stored.ipynb", nb)
    jlab.open_notebook(page, jupyter_server, name)
    seen = jlab.poll(lambda: page.evaluate("""(sentence) => {
        const out = document.querySelector('.jp-OutputArea-output');
        const img = out && out.querySelector('img[src^="data:image/svg+xml"]');
        if (!out || !img || !(img.naturalWidth > 0)) return null;
        // the innermost element that holds the sentence
        const line = Array.from(out.querySelectorAll('div')).filter((d) => d.innerText.includes(sentence)).pop();
        return {text: out.innerText, line: line ? line.getBoundingClientRect().bottom : null}; }""",
                                         EN["quiz_needs_kernel"]), 20, "the stored picture")
    # the sentence, on screen without scrolling (the picture below it is tall)
    assert seen["line"] is not None and seen["line"] <= HEIGHT, seen
    page.screenshot(path=str(jlab.ARTIFACTS / "quiz-untrusted.png"))


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_quiz_text_is_wcag_aa_in_both_themes(window, jupyter_server, theme):
    """Every text of the quiz, asked and then judged, reaches 4.5:1 against what it is drawn on, in
    JupyterLab's light and dark theme (disabled controls aside: WCAG exempts them)."""
    from test_language_and_contrast import _JS_CONTRAST, THEMES, _set_theme
    page = window
    nb = new_notebook(cells=[new_code_cell(QUIZ_CODE)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    name = jupyter_server.add_notebook(f"_ui_selftest/quiz_{theme}.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name, shot=False)
    assert not res.errors and not res.widget_errors, res.failure_report()
    _set_theme(page, THEMES[theme])

    def measured():
        """The contrast of every text on screen now, but the disabled controls' (WCAG exempts them)."""
        disabled = set(page.evaluate("""() => Array.from(document.querySelectorAll('.gradlab-quiz button:disabled, '
            + '.gradlab-quiz input:disabled')).map((e) => (e.innerText || e.value || '').trim())"""))
        return [r for r in page.evaluate(_JS_CONTRAST) if r["text"] not in disabled]

    try:
        _wait(page, lambda s: s["next"] and s["score"], "the quiz at its start")
        _click(page, EN["next"])
        _wait(page, lambda s: s["fields"] == 1 and s["check"] and not s["next"], "the first question")
        seen = measured()
        _answer(page, "0.5")
        _wait(page, lambda s: s["wrong"] and s["next"], "the verdict")
        seen += measured()
        path = _shot(page, f"{theme}-theme")
    finally:
        _set_theme(page, THEMES["light"])          # a user setting: leave the session's server light
    assert any("Not quite" in r["text"] for r in seen) and any("received" in r["text"] for r in seen), seen
    low = {(r["text"], r["ratio"], r["color"], r["bg"]) for r in seen if r["ratio"] < 4.5}
    assert not low, f"{theme} theme: text below 4.5:1 (screenshot {path}): {sorted(low)}"


@pytest.mark.parametrize("lang", ["ko", "zh"])
def test_quiz_in_korean_and_chinese(window, jupyter_server, lang):
    """The quiz in the Korean and Chinese tutorials' words: question, buttons, verdict (screenshots)."""
    page = window
    code = TUTORIAL + f"viz.animate_backward(out, names=locals(), quiz=True, lang={lang!r})\n"
    nb = new_notebook(cells=[new_code_cell(code)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    name = jupyter_server.add_notebook(f"_ui_selftest/quiz_{lang}.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name, shot=False)
    assert not res.errors and not res.widget_errors, res.failure_report()
    words = {key: i18n.TEXT[key][lang] for key in ("next", "check", "quiz_wrong")}
    page.locator(".gradlab-quiz button", has_text=words["next"]).first.click()
    jlab.poll(lambda: page.locator(".gradlab-quiz input[type=text]:visible").count() == 1, 20, "the question")
    page.locator(".gradlab-quiz input[type=text]:visible").first.fill("0.5")
    page.wait_for_timeout(300)
    page.locator(".gradlab-quiz button", has_text=words["check"]).first.click()
    verdict = jlab.poll(lambda: page.evaluate(
        "() => (document.querySelector('.gradlab-quiz-wrong') || {}).innerText"), 20, "the verdict")
    assert verdict.startswith(words["quiz_wrong"].split("{")[0].strip()), verdict
    _shot(page, f"lang-{lang}")
