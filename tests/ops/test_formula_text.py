"""Every op's displayed gradient formula evaluates to the gradient the engine computed.

For each op of the table, sample inputs (tests/ops/op_samples.py) run forward; backward then runs
under the engine's events. When a node of that op starts, the text the player shows for each input
slot (`grad * other`, from gradlab/ops/formula_text.py) is evaluated with gradlab's own functions on
the node's saved values (gradlab/viz/formulas.py); when the node finishes, that value must equal
the gradient the engine sent. A slot without a readable text fails too.
"""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gradlab
from gradlab.autograd import events
from gradlab.ops import OPS
from gradlab.ops.formula_text import formula_text, formula_texts
from gradlab.viz import formulas

from op_samples import SAMPLES, check_backward_raises
from test_ops_gradcheck import SETTINGS, as_tuple, leaves


def _check_nodes(key, case):
    """Run the case's backward; return [(slot, text, shown value, engine value)] for nodes of `key`."""
    xs = leaves(case)
    outs = [o for o in as_tuple(case.fn(gradlab, *xs)) if isinstance(o, gradlab.Tensor) and o.requires_grad]
    rng = np.random.default_rng(1)
    weights = [gradlab.tensor(rng.standard_normal(o.shape) + 0.5, dtype=o.dtype) for o in outs]
    found, shown = [], {}

    def watch(event):
        op = getattr(getattr(event, "node", None), "_op", None)
        if op is None or op.key != key:
            return
        if isinstance(event, events.NodeStarted):
            shown[id(event.node)] = formulas.steps(event.node, event.grad_outputs)
        elif isinstance(event, events.NodeFinished):
            by_slot = {s.slot: s for s in shown.pop(id(event.node))}
            for slot, got in zip(op.inputs, event.grad_inputs):
                if got is not None:
                    found.append((slot, by_slot.get(slot), got))
    with events.observe(watch):
        gradlab.autograd.backward(outs, weights)
    return found


@pytest.mark.parametrize("key", sorted(OPS))
def test_displayed_formula_is_the_engines_gradient(key):
    sample = SAMPLES[key]
    checked = []
    if sample.raises:               # (no derivative: no formula to show)
        return check_backward_raises(sample, gradlab)

    @settings(SETTINGS, max_examples=4)
    @given(st.data())
    def check(data):
        case = sample.draw_case(data.draw)
        found = _check_nodes(key, case)
        checked.extend(found)
        for slot, step, got in found:
            text = formula_text(OPS[key], slot)
            assert text is not None, f"{key}: input {slot!r} has no readable formula (add shows= to its row)"
            assert step is not None and step.value is not None, f"{key}: {slot}: {text!r} could not be evaluated: {step and step.error}"
            assert step.value.shape == np.shape(got), f"{key}: {slot}: {text!r} has shape {step.value.shape}"
            np.testing.assert_allclose(step.value, got, rtol=1e-7, atol=1e-9,
                                       err_msg=f"{key}: {slot}: {text!r} is not the engine's gradient")
    check()
    assert checked, f"{key}: no gradient of this op was computed by its samples: nothing was compared"


def test_every_slot_with_a_formula_has_a_text():
    missing = sorted(f"{key}.{slot}" for key, op in OPS.items() for slot, text in formula_texts(op).items()
                     if text is None)
    assert not missing, f"{len(missing)} formulas without a readable text: {missing[:40]}"


def test_a_wrong_text_is_caught():
    """The check can fail: mul's text with the other operand swapped in gives another gradient."""
    x = gradlab.tensor([1.0, 2.0], dtype=gradlab.float64, requires_grad=True)
    w = gradlab.tensor([3.0, 5.0], dtype=gradlab.float64, requires_grad=True)
    y = x * w
    value = formulas.evaluate("grad * self", y.grad_fn, (np.ones(2),)).numpy()     # the rule for `other`
    assert not np.allclose(value, w.detach().numpy())
    assert np.allclose(formulas.evaluate(formula_text(OPS["mul"], "self"), y.grad_fn, (np.ones(2),)).numpy(),
                       w.detach().numpy())


def test_the_tutorial_numbers():
    """x = ones(2, 2); y = x + 2; z = y * y * 3; out = z.mean(): the steps read the tutorial's numbers."""
    x = gradlab.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    lines = []

    def watch(event):
        if isinstance(event, events.NodeStarted):
            for step in formulas.steps(event.node, event.grad_outputs):
                lines.append(step.line(formulas.result_text(step.value, step.constant)))
    with events.observe(watch):
        out.backward()
    assert lines[0] == "grad_self = grad.expand(self_sizes) / count = (1).expand((2, 2)) / 4 = 0.25"
    assert "grad_self = grad * other = 0.25 * 3 = 0.75" in lines
    assert lines.count("grad_self = grad * other = 0.75 * 3 = 2.25") == 1
    assert "grad_other = grad * self = 0.75 * 3 = 2.25" in lines
    assert x.grad.tolist() == [[4.5, 4.5], [4.5, 4.5]]
