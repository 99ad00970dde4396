"""Where PyTorch leaves a gradient undefined (the 0-"norm" counts nonzeros: flat everywhere), `.grad` stays
None, in gradlab as in PyTorch, alone or beside a defined path, with and without create_graph."""
import pytest

import gradlab

torch = pytest.importorskip("torch")

CASES = [
    lambda T, x: x.norm(p=0),
    lambda T, x: T.linalg.vector_norm(x, 0),
    lambda T, x: T.linalg.vector_norm(x.reshape(2, 3), 0, dim=1).sum(),
    lambda T, x: x.norm(p=0) * 2 + x.sum(),
    lambda T, x: (x * 3).norm(p=0) + (x * x).sum(),
]


@pytest.mark.parametrize("case", range(len(CASES)))
@pytest.mark.parametrize("create_graph", [False, True])
def test_norm_zero_has_no_gradient(case, create_graph):
    grads = []
    for T in (torch, gradlab):
        x = T.tensor([1.0, -2.0, 0.0, 3.0, 0.5, 0.0], requires_grad=True)
        CASES[case](T, x).backward(create_graph=create_graph)
        grads.append(None if x.grad is None else x.grad.tolist())
    assert grads[1] == grads[0]


def _none_function(T):
    class NoGradient(T.autograd.Function):
        """Doubles its input; its backward returns None: no gradient goes this way."""
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return None
    return NoGradient


JOINED = [
    lambda T, f, x: f.apply(x * 3).sum() + (x * x).sum(),                  # the other path still counts
    lambda T, f, x: f.apply(x.exp()).sum() + f.apply(x).sum(),             # no path at all: .grad stays None
    lambda T, f, x: (f.apply(x * 3) * x).sum() + x.sin().sum(),
    lambda T, f, x: f.apply(f.apply(x * 3) + x).sum() + (x * 2).tanh().sum(),
]


@pytest.mark.parametrize("case", range(len(JOINED)))
def test_a_none_gradient_does_not_stop_the_other_paths(case):
    grads = []
    for T in (torch, gradlab):
        x = T.tensor([1.0, -2.0, 0.5], requires_grad=True)
        JOINED[case](T, _none_function(T), x).backward()
        grads.append(None if x.grad is None else [round(v, 6) for v in x.grad.tolist()])
    assert grads[1] == grads[0]
