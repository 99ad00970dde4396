"""The player's captions show each step's chain rule with its numbers, in a real JupyterLab page.

The tutorial's graph (x = ones(2, 2); y = x + 2; z = y * y * 3; out = z.mean()) is played step by step
with the slider's keyboard arrows; each visible caption is read from the page, and the rules a student
sees must be the tutorial's arithmetic: 1/4, then times 3, then times y = 3 (twice), adding up to 4.5,
and at x's step the whole chain, 1/4 · 3 · y · 1 along each of the two paths.
"""
from __future__ import annotations

import pytest
from nbformat.v4 import new_code_cell, new_notebook

import jlab

pytestmark = pytest.mark.ui

CODE = '''\
import gradlab as torch
from gradlab import viz
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
viz.animate_backward(out, names=locals())
'''


def _visible_rule(player):
    rules = player.locator(".gradlab-rule:visible")
    return rules.first.inner_text().strip() if rules.count() == 1 else ""


def test_captions_show_the_rule_with_numbers(page, jupyter_server):
    nb = new_notebook(cells=[new_code_cell(CODE)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    name = jupyter_server.add_notebook("_ui_selftest/chain_rule_captions.ipynb", nb)
    res = jlab.run_notebook(page, jupyter_server, name, shot=False)
    assert not res.errors and not res.widget_errors, res.failure_report()

    player = page.locator(".jp-OutputArea-output").filter(has=page.locator(".gradlab-caption")).first
    handle = player.locator(".widget-slider .noUi-handle").first
    handle.wait_for()
    last = int(float(handle.get_attribute("aria-valuemax")))
    handle.focus()
    page.keyboard.press("Home")
    rules = []
    for step in range(last + 1):
        if step:
            page.keyboard.press("ArrowRight")
        readout = lambda: player.locator(".widget-readout").first.inner_text().strip()   # noqa: E731
        jlab.poll(lambda: readout() == str(step) or None, 10, f"the slider to reach step {step}", interval=0.05)
        page.wait_for_timeout(100)
        rules.append(_visible_rule(player))
        if "0.75 * 3 = 2.25" in rules[-1]:
            # the rule is shown in the caption box, in its own line, readable at the student's window size
            box = player.locator(".gradlab-rule:visible").first.bounding_box()
            assert box and box["width"] > 150 and box["height"] > 10, box
            jlab.screenshot(page, "chain-rule-caption")
    text = " | ".join(rules)
    assert "grad_self = grad.expand(self_sizes) / count = (1).expand((2, 2)) / 4 = 0.25" in text, text
    assert "grad_self = grad * other = 0.25 * 3 = 0.75" in text, text
    assert "grad_self = grad * other = 0.75 * 3 = 2.25" in text and "grad_other = grad * self = 0.75 * 3 = 2.25" in text
    assert "grad_self = grad = 4.5" in text, text
    assert "0.25 × 3 × 3 × 1 + 0.25 × 3 × 3 × 1 = 4.5" in rules[-1], rules[-1]   # the whole chain, at x's step
    assert rules[0] == "", "the start frame has no rule: nothing has been computed yet"
