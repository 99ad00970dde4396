"""A second backward through a (transposed) convolution's gradient (create_graph=True), against PyTorch: every mix of
inputs that require grad, 1-d and 2-d, gradient taken for the input or for the weight. (Each of gradlab's
ConvolutionBackwardBackward0 rows must keep what its own formulas read: it once failed with an
AttributeError when only the other input required grad.)"""
import itertools

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402

CASES = [c for c in itertools.product((1, 2), (True, False), (True, False), (True, False), ("input", "weight"),
                                      (0, 1), (False, True)) if c[1] or c[2]]


def _second_grads(T, arrays, dims, requires, wrt, padding, transposed):
    F = T.nn.functional
    x, w, b = (T.tensor(a, requires_grad=r) for a, r in zip(arrays, requires))
    y = (F.conv1d if dims == 1 else F.conv2d)(x, w, b, padding=padding) if not transposed else \
        (F.conv_transpose1d if dims == 1 else F.conv_transpose2d)(x, w.transpose(0, 1), b, padding=padding)
    source = x if (wrt == "input" and requires[0]) or not requires[1] else w
    g, = T.autograd.grad((y * y).sum(), source, create_graph=True)
    (g * g).sum().backward()
    return [None if t.grad is None else t.grad.detach().numpy() for t in (x, w, b)]


@pytest.mark.parametrize("dims, rx, rw, rb, wrt, padding, transposed", CASES)
def test_second_backward_through_convolution(dims, rx, rw, rb, wrt, padding, transposed):
    rng = np.random.default_rng(len(CASES) * dims + padding)
    shapes = [(2, 3, 6), (4, 3, 3), (4,)] if dims == 1 else [(2, 3, 5, 5), (4, 3, 3, 3), (4,)]
    arrays = [rng.standard_normal(s) for s in shapes]
    ours = _second_grads(gradlab, arrays, dims, (rx, rw, rb), wrt, padding, transposed)
    theirs = _second_grads(torch, arrays, dims, (rx, rw, rb), wrt, padding, transposed)
    for mine, torchs in zip(ours, theirs):
        assert (mine is None) == (torchs is None)
        if mine is not None:
            np.testing.assert_allclose(mine, torchs, rtol=1e-9, atol=1e-10)
