"""The backward-pass player works in a real browser, and keeps working without a kernel.

Widget contract (what ``gradlab.viz.animate_backward`` returns): an
``ipywidgets.VBox`` holding a ``Play``, an ``IntSlider``, prev/next ``Button``s
and a ``Stack`` of ``HTML`` frames, wired with
``jslink((play, 'value'), (slider, 'value'))`` and
``jsdlink((slider, 'value'), (stack, 'selected_index'))``; every frame has its
caption in an element with class ``gradlab-caption``.

``STANDIN_CODE`` builds exactly such a widget with plain ipywidgets (captions
"step 1".."step 3", checked exactly); ``GRADLAB_CODE`` calls the real
``gradlab.viz.animate_backward`` (checked against the contract only).  Which
one is "the" player under test is the single line ``ANIMATION_CODE = ...``;
the stand-in case always runs as well, as a check of the harness itself.
"""

from __future__ import annotations

import time

import pytest
from nbformat.v4 import new_code_cell, new_notebook

import jlab

pytestmark = pytest.mark.ui

STANDIN_CODE = '''\
import ipywidgets as widgets

def animate_backward_standin(captions):
    frames = [widgets.HTML(f'<div class="gradlab-frame"><p class="gradlab-caption">{c}</p></div>')
              for c in captions]
    n = len(frames)
    play = widgets.Play(value=0, min=0, max=n - 1, step=1, interval=400)
    slider = widgets.IntSlider(value=0, min=0, max=n - 1)
    prev = widgets.Button(description="prev")
    nxt = widgets.Button(description="next")
    stack = widgets.Stack(frames, selected_index=0)
    widgets.jslink((play, "value"), (slider, "value"))
    widgets.jsdlink((slider, "value"), (stack, "selected_index"))
    prev.on_click(lambda _: setattr(slider, "value", max(slider.min, slider.value - 1)))
    nxt.on_click(lambda _: setattr(slider, "value", min(slider.max, slider.value + 1)))
    return widgets.VBox([widgets.HBox([play, prev, nxt, slider]), stack])

animate_backward_standin(["step 1", "step 2", "step 3"])
'''

GRADLAB_CODE = '''\
import gradlab as torch
from gradlab import viz
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
loss = (a * b).sum()
viz.animate_backward(loss, names=locals(), interval_ms=400)
'''

# The one line to switch: STANDIN_CODE (plain ipywidgets) or GRADLAB_CODE (the real player).
ANIMATION_CODE = GRADLAB_CODE

# The stand-in always runs too: it checks the harness itself, with exact captions.
CASES = {"standin": STANDIN_CODE}
if ANIMATION_CODE is not STANDIN_CODE:
    CASES["gradlab"] = ANIMATION_CODE
STANDIN_CAPTIONS = ["step 1", "step 2", "step 3"]


def _player(page):
    return page.locator(".jp-OutputArea-output").filter(has=page.locator(".gradlab-caption")).first


def _view(player) -> tuple[str, str]:
    """(slider readout, visible caption text) as the user sees them now."""
    readout = player.locator(".widget-readout").first.inner_text().strip()
    caps = player.locator(".gradlab-caption:visible")
    caption = caps.first.inner_text().strip() if caps.count() == 1 else f"<{caps.count()} visible captions>"
    return readout, caption


def _wait_view(player, pred, what: str, timeout: float = 15):
    return jlab.poll(lambda: (lambda v: v if pred(v) else None)(_view(player)), timeout, what, interval=0.05)


def _at(frame: int, not_caption: str | None = None):
    """Predicate: the readout shows ``frame`` and exactly one caption, other than ``not_caption``."""
    return lambda v: v[0] == str(frame) and not v[1].startswith("<") and v[1] != not_caption


def _play_and_record(page, player, last: int, timeout: float | None = None) -> list[tuple[str, str]]:
    """Press Play; record every distinct (readout, caption) until the slider reaches ``last``."""
    timeout = timeout or 15 + 3 * last
    seen = [_view(player)]
    player.locator(".widget-play button").first.click()
    deadline = time.monotonic() + timeout
    while seen[-1][0] != str(last):
        if time.monotonic() > deadline:
            raise jlab.JLabTimeout(f"Play did not reach frame {last}; saw {seen}")
        page.wait_for_timeout(50)
        v = _view(player)
        if v != seen[-1]:
            seen.append(v)
    # the caption follows the slider through jsdlink: give it a moment to settle
    seen[-1] = _wait_view(player, _at(last, not_caption=seen[0][1]), "the last frame")
    return seen


def _nav_buttons(player):
    # prev / next: the Button widgets that are not part of the Play widget
    buttons = player.locator("button.widget-button")
    all_btns = [b for b in buttons.all() if not b.evaluate("e => !!e.closest('.widget-play')")]
    assert len(all_btns) >= 2, f"expected prev/next buttons, found {len(all_btns)}"
    return all_btns[0], all_btns[-1]


@pytest.mark.parametrize("case", list(CASES))
def test_backward_player(page, jupyter_server, case):
    code = CASES[case]
    expected_captions = STANDIN_CAPTIONS if code is STANDIN_CODE else None
    nb = new_notebook(cells=[new_code_cell(code)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    name = jupyter_server.add_notebook(f"_ui_selftest/animation_{case}.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name, shot=False)
    assert not res.errors and not res.widget_errors, res.failure_report()

    player = _player(page)
    player.locator(".widget-play button").first.wait_for()
    handle = player.locator(".widget-slider .noUi-handle").first
    last = int(float(handle.get_attribute("aria-valuemax")))
    assert last >= 1, "the player needs at least two frames"

    # 1. Play advances the slider readout and the visible frame/caption.
    start = _wait_view(player, lambda v: v[0] == "0" and not v[1].startswith("<"), "frame 0")
    seen = _play_and_record(page, player, last)
    readouts = [r for r, _ in seen]
    captions = [c for _, c in seen if not c.startswith("<")]
    assert readouts[0] == "0" and readouts[-1] == str(last), seen
    assert len(set(captions)) >= 2 and captions[-1] != start[1], f"caption did not change: {seen}"
    if expected_captions:
        assert start[1] == expected_captions[0]
        assert seen[-1][1] == expected_captions[-1], seen
        order = [expected_captions.index(c) for c in dict.fromkeys(captions)]  # frames in order
        assert order == sorted(order), seen

    # 2. prev / next (kernel-side handlers) move one frame.  The readout and the
    # frame update in separate steps (slider, then jsdlink -> stack): wait for both.
    prev, nxt = _nav_buttons(player)
    prev.click()
    before = _wait_view(player, _at(last - 1, not_caption=seen[-1][1]), "prev to go back one frame")
    nxt.click()
    after = _wait_view(player, _at(last, not_caption=before[1]), "next to go forward one frame")
    jlab.screenshot(page, f"animation_{case}-kernel-alive")

    # 3. Without a kernel, the slider still changes the visible frame (all client-side).
    jlab.shutdown_kernel(page, jupyter_server, name)
    handle.focus()
    page.keyboard.press("Home")
    first = _wait_view(player, _at(0, not_caption=after[1]), "the slider (kernel dead) to go to frame 0")
    page.keyboard.press("ArrowRight")
    second = _wait_view(player, _at(1, not_caption=first[1]), "the slider (kernel dead) to step one frame")
    if expected_captions:
        assert (first[1], second[1]) == (expected_captions[0], expected_captions[1])
    # gradlab's player also has a step box whose arrows move one frame, linked in the browser
    stepper = player.locator(".widget-text input[type='number']")
    if code is GRADLAB_CODE:
        assert stepper.count() == 1, "the gradlab player should have a step box"
        stepper.first.focus()
        page.keyboard.press("ArrowUp")
        second = _wait_view(player, _at(2, not_caption=second[1]), "the step box (kernel dead) to step one frame")

    # 4. ... and Play still animates without a kernel.
    handle.focus()
    page.keyboard.press("Home")
    start = _wait_view(player, _at(0, not_caption=second[1]), "frame 0 again")
    seen = _play_and_record(page, player, last)
    assert seen[-1][0] == str(last) and seen[-1][1] != start[1], seen
    jlab.screenshot(page, f"animation_{case}-kernel-dead")
