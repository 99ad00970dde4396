"""The player states the chain rule at every step, with that step's numbers, and drawings can list
each node's formulas. The numbers must be the ones backward really sent (checked against the frames'
own gradients and against PyTorch)."""
import numpy as np
import pytest

import gradlab
from gradlab import viz

torch = pytest.importorskip("torch")


def _tutorial(T):
    x = T.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return x, y, z, out


def test_tutorial_captions_show_the_rule_and_its_numbers():
    x, y, z, out = _tutorial(gradlab)
    frames = viz.record_backward(out, names={"x": x, "y": y, "z": z, "out": out})
    rules = [f.rule for f in frames]
    assert "grad_self = grad.expand(self_sizes) / count = (1).expand((2, 2)) / 4 = 0.25" in rules[1]
    assert "grad_self = grad * other = 0.25 * 3 = 0.75" in rules[2]
    assert "grad_self = grad * other = 0.75 * 3 = 2.25; grad_other = grad * self = 0.75 * 3 = 2.25" in rules[3]
    assert "grad_self = grad = 4.5" in rules[4]
    for f in frames:
        assert f.caption.endswith(f.rule)
    tx, *_, tout = _tutorial(torch)
    tout.backward()
    np.testing.assert_array_equal(x.grad.numpy(), tx.grad.numpy())      # the 4.5 the rules add up to


def _graphs(T):
    """Small graphs of several kinds; the same code under gradlab and torch."""
    a = T.tensor([0.5, -1.0, 2.0], requires_grad=True)
    w = T.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], requires_grad=True)
    yield (T.tanh(w @ a) * a[:2]).sum(), (a, w)
    yield (a.exp() / a.exp().sum()).log()[1], (a,)
    yield (w * a).relu().mean() + (a ** 3).sum(), (a, w)
    yield T.sigmoid(w).max(), (w,)


@pytest.mark.parametrize("case", range(4))
def test_every_rule_gives_the_gradient_the_step_sent(case):
    out, leaves = list(_graphs(gradlab))[case]
    frames = viz.record_backward(out)
    shown = 0
    for f in frames:
        by_slot = {s.slot: s for s in f.formulas}
        for sent in f.sent:
            slot = f.node.inputs[sent.edge.input_nr]
            step = by_slot[slot]
            assert step.value is not None, step.error
            np.testing.assert_allclose(step.value, sent.value, rtol=1e-6, atol=1e-7)
            assert f"grad_{slot} = {step.text}" in f.caption
            shown += 1
    assert shown >= 2
    tout, tleaves = list(_graphs(torch))[case]
    tout.backward()
    for mine, theirs in zip(leaves, tleaves):
        np.testing.assert_allclose(mine.grad.numpy(), theirs.grad.numpy(), rtol=1e-6)


def test_large_tensors_are_written_by_shape():
    x = gradlab.randn(64, 20)
    layer = gradlab.nn.Linear(20, 10)
    loss = layer(x).pow(2).mean()
    frames = viz.record_backward(loss, names={"x": x, "loss": loss})
    text = " ".join(f.rule for f in frames)
    assert "(64×10 values)" in text
    assert "summed from 64×10 to the input's shape" in text        # the bias's gradient
    assert "[[" not in text                                       # no 640 numbers in a caption


def test_korean_and_chinese_rules():
    for lang, lead in (("ko", "연쇄 법칙"), ("zh", "链式法则")):
        *_, out = _tutorial(gradlab)
        frames = viz.record_backward(out, lang=lang)
        assert lead in frames[2].caption and "grad * other = 0.25 * 3 = 0.75" in frames[2].caption


def test_drawings_list_the_formula_of_each_input():
    x, y, z, out = _tutorial(gradlab)
    source = viz.draw(out, names=locals(), formulas=True).source
    assert "grad_self = grad * other" in source and "grad_other = grad * self" in source
    assert "grad.expand(self_sizes) / count" in source
    assert "grad_other = grad * alpha" not in source        # y = x + 2: the constant 2 gets no gradient
    assert "grad_self" not in viz.draw(out).source           # only when asked


def test_the_leaf_step_multiplies_along_every_path():
    """The tutorial's whole chain at x: 1/4 · 3 · y · 1 along each of the two paths through y * y."""
    x, y, z, out = _tutorial(gradlab)
    frames = viz.record_backward(out, names={"x": x, "y": y, "z": z, "out": out})
    assert "0.25 × 3 × 3 × 1 + 0.25 × 3 × 3 × 1 = 4.5" in frames[-1].rule
    assert "2 paths" in frames[-1].rule


CHAINS = [
    lambda T, x: ((x * 2 + 1) * (x * 2 + 1)).sum(),
    lambda T, x: (x.exp() * 3 - x).mean(),
    lambda T, x: ((x + 1) * x * x).sum() / 2,
    lambda T, x: (T.tanh(x) * x + x.sin()).mean(),
]


@pytest.mark.parametrize("case", range(len(CHAINS)))
def test_path_products_add_up_to_pytorchs_gradient(case):
    """On a constant input every gradient is one repeated number: the leaf's step writes the sum of the
    paths' products, and that sum is PyTorch's gradient."""
    x = gradlab.full((2, 2), 0.5, requires_grad=True)
    frames = viz.record_backward(CHAINS[case](gradlab, x))
    rule = frames[-1].rule
    assert "×" in rule, rule
    total = float(rule.rsplit("= ", 1)[1].rstrip("."))
    tx = torch.full((2, 2), 0.5, requires_grad=True)
    CHAINS[case](torch, tx).backward()
    assert total == pytest.approx(float(tx.grad[0, 0]), rel=1e-3)       # (the terms are written to 4 digits)


def test_no_path_line_when_gradients_differ_per_element():
    a = gradlab.tensor([1.0, 2.0], requires_grad=True)
    frames = viz.record_backward((a * a).sum())
    assert frames[-1].rule == ""
