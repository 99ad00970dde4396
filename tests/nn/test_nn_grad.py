"""gradlab.nn.grad's convolution gradients equal torch.nn.grad's, on generated shapes and parameters."""
import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(5)


def _cases():
    for dims in (1, 2):
        for stride, padding, dilation, groups in ((1, 0, 1, 1), (2, 1, 1, 1), (1, 2, 2, 1), (2, 1, 1, 2)):
            size = (2, 4) + (7,) * dims
            weight = (6, 4 // groups) + (3,) * dims
            yield dims, size, weight, stride, padding, dilation, groups


@pytest.mark.parametrize("case", list(_cases()))
def test_conv_gradients_match_torch(case):
    dims, size, wsize, stride, padding, dilation, groups = case
    x, w = RNG.standard_normal(size), RNG.standard_normal(wsize)
    conv = getattr(torch.nn.functional, f"conv{dims}d")
    out_shape = conv(torch.tensor(x), torch.tensor(w), None, stride, padding, dilation, groups).shape
    g = RNG.standard_normal(tuple(out_shape))
    results = []
    for T in (torch, gradlab):
        grad = getattr(T.nn.grad, f"conv{dims}d_input")(size, T.tensor(w), T.tensor(g), stride, padding, dilation,
                                                         groups)
        wgrad = getattr(T.nn.grad, f"conv{dims}d_weight")(T.tensor(x), wsize, T.tensor(g), stride, padding,
                                                           dilation, groups)
        results.append((grad.numpy(), wgrad.numpy(), grad.requires_grad))
    np.testing.assert_allclose(results[1][0], results[0][0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(results[1][1], results[0][1], rtol=1e-10, atol=1e-12)
    assert results[1][2] == results[0][2]
