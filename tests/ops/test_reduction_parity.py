"""Differential tests against PyTorch for the reductions, softmax/nll gradients, F.linear's errors,
gradcheck's message and SGD's state: generated inputs, torch's answer computed in the test."""
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

SHAPES = [(), (0,), (1,), (3,), (5,), (2, 3), (4, 5), (3, 0), (2, 3, 4), (17,), (40, 3)]
VIEWS = ["plain", "T", "expanded"]


def _view(lib, arr, view):
    leaf = lib.tensor(arr, requires_grad=True)
    if view == "T" and arr.ndim >= 2:
        return leaf, leaf.transpose(0, 1)
    if view == "expanded" and arr.ndim >= 1:
        return leaf, leaf.unsqueeze(0).expand(3, *arr.shape)
    return leaf, leaf


def _run(lib, arr, view, call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        leaf, x = _view(lib, arr, view)
        y = call(x)
        grad = None
        if y.numel():
            y.backward(lib.ones_like(y))
            grad = leaf.grad.numpy().copy()
    return y.detach().numpy().copy(), grad


HALF_CALLS = {
    "mean()": lambda x: x.mean(), "mean(0)": lambda x: x.mean(0), "mean((0, -1))": lambda x: x.mean((0, -1)),
    "var()": lambda x: x.var(), "std()": lambda x: x.std(), "var(0)": lambda x: x.var(0), "std(0)": lambda x: x.std(0),
    "var(correction=5)": lambda x: x.var(correction=5), "std(correction=0)": lambda x: x.std(correction=0),
    "var(-1, keepdim=True)": lambda x: x.var(-1, keepdim=True), "std((0, -1))": lambda x: x.std((0, -1)),
}


@pytest.mark.parametrize("name", list(HALF_CALLS))
def test_half_reductions_and_gradients_match_torch_bitwise(name):
    """float16 mean/var/std accumulate in float (double for var/std) and round once, as torch's CPU
    kernels; their gradients follow torch's formulas in torch's order."""
    call = HALF_CALLS[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    for shape in SHAPES:
        for view in VIEWS:
            if 0 < len(shape) < 2 and "(0, -1)" in name and view != "expanded":
                continue
            if not shape and name not in ("mean()", "var()", "std()", "var(correction=5)", "std(correction=0)"):
                continue
            for _ in range(3):
                arr = (rng.standard_normal(shape) * rng.choice([1, 3, 100])).astype(np.float16)
                try:
                    want = _run(torch, arr, view, call)
                except (RuntimeError, IndexError) as e:
                    with pytest.raises(type(e)):
                        _run(gradlab, arr, view, call)
                    continue
                got = _run(gradlab, arr, view, call)
                assert got[0].dtype == want[0].dtype and got[0].shape == want[0].shape
                assert np.array_equal(got[0], want[0], equal_nan=True), (name, shape, view, arr, got[0], want[0])
                if want[1] is not None:
                    assert np.array_equal(got[1], want[1], equal_nan=True), (name, shape, view, arr, got[1], want[1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_var_std_gradient_with_no_degrees_of_freedom(dtype):
    """torch: grad * where(self == mean, nan, inf) for a full reduction with correction >= numel."""
    for arr in ([-3.0, 1.9, -1.07], [2.0, 2.0, 2.0], [1.5]):
        for call in (lambda x: x.var(correction=5), lambda x: x.std(correction=3), lambda x: x.var(0, correction=3)):
            want = _run(torch, np.array(arr, dtype), "plain", call)
            got = _run(gradlab, np.array(arr, dtype), "plain", call)
            for w, g in zip(want, got):
                assert np.array_equal(g, w, equal_nan=True), (arr, g, w)


def _second_order(lib, fn, arr, g2_seed):
    x = lib.tensor(arr, requires_grad=True)
    y = fn(lib, x)
    g, = lib.autograd.grad(y.sum(), x, create_graph=True)
    name = g.grad_fn.name() if g.grad_fn is not None else None
    if not g.requires_grad:         # (max(dim)'s gradient is a constant scatter of the incoming one)
        return name, g.detach().numpy(), None
    w = lib.tensor(np.random.default_rng(g2_seed).standard_normal(arr.shape))
    gg, = lib.autograd.grad((g * w).sum(), x, allow_unused=True)
    return name, g.detach().numpy(), None if gg is None else gg.numpy()


SECOND_ORDER = {
    "softmax(1)": lambda T, x: x.softmax(1),
    "softmax(0)": lambda T, x: x.softmax(0) * x,
    "log_softmax(1)": lambda T, x: x.log_softmax(1) * x,
    "log_softmax(0)": lambda T, x: x.log_softmax(0),
    "cross_entropy": lambda T, x: T.nn.functional.cross_entropy(x * x, T.tensor([2, 0])),
    "nll_loss mean": lambda T, x: T.nn.functional.nll_loss(x, T.tensor([2, 0])),
    "nll_loss sum": lambda T, x: T.nn.functional.nll_loss(x, T.tensor([1, 0]), reduction="sum"),
    "nll_loss none": lambda T, x: T.nn.functional.nll_loss(x, T.tensor([1, 2]), reduction="none"),
    "nll_loss weight": lambda T, x: T.nn.functional.nll_loss(x, T.tensor([1, 2]), weight=T.tensor([1., 2., 3.],
                                                                                                  dtype=x.dtype)),
    "prod()": lambda T, x: x.prod(),
    "prod(1)": lambda T, x: x.prod(1),
    "prod(0) keepdim": lambda T, x: x.prod(0, keepdim=True),
    "max(1)": lambda T, x: x.max(1)[0],
    "min(0)": lambda T, x: x.min(0)[0],
    "var": lambda T, x: x.var(),
    "std(1)": lambda T, x: x.std(1),
    "float().std()": lambda T, x: x.float().std(),
}


@pytest.mark.parametrize("name", list(SECOND_ORDER))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_create_graph_names_and_second_derivatives_match_torch(name, dtype):
    """The gradient's grad_fn is the node torch's backward formula records (derivatives.yaml:
    SoftmaxBackwardDataBackward0, NllLossBackwardBackward0, prod's MulBackward0...), and
    differentiating it again gives torch's numbers."""
    fn = SECOND_ORDER[name]
    rng = np.random.default_rng(len(name))
    for _ in range(3):
        arr = rng.uniform(-2, 2, (2, 3)).astype(dtype)
        want = _second_order(torch, fn, arr, 1)
        got = _second_order(gradlab, fn, arr, 1)
        assert got[0] == want[0]
        np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)
        if want[2] is None:
            assert got[2] is None
        else:
            np.testing.assert_allclose(got[2], want[2], rtol=1e-4, atol=1e-5)


def _linear_outcome(lib, make_input, bias, weight_rg, in_features):
    a = make_input(lib)
    w = lib.ones(4, in_features, requires_grad=weight_rg)
    try:
        y = lib.nn.functional.linear(a, w, lib.zeros(4) if bias else None)
    except Exception as e:        # noqa: BLE001  (the exception itself is compared)
        return type(e).__name__, str(e)
    return y.grad_fn.name() if y.grad_fn else None, y.shape, y.stride(), y.detach().numpy().tolist()


INPUTS = {
    "expanded": lambda T: T.tensor([[[4.0, 2.76, 1.], [0.8, 0.4003, 2.], [-0.21, -2.1946, 3.]]]).expand(2, 3, 3),
    "contiguous": lambda T: T.arange(18.).reshape(2, 3, 3),
    "transposed": lambda T: T.arange(18.).reshape(2, 3, 3).transpose(1, 2),
    "4-d expanded": lambda T: T.arange(18.).reshape(1, 2, 3, 3).expand(2, 2, 3, 3),
    "4-d permuted": lambda T: T.arange(36.).reshape(2, 2, 3, 3).transpose(0, 1),
    "2-d transposed": lambda T: T.arange(9.).reshape(3, 3).t(),
}


@pytest.mark.parametrize("name", list(INPUTS))
def test_linear_of_non_contiguous_input_matches_torch(name):
    """torch folds only a contiguous input into addmm: otherwise matmul (bmm's size check) then add_."""
    for bias in (True, False):
        for weight_rg in (False, True):
            for in_features in (3, 2):
                want = _linear_outcome(torch, INPUTS[name], bias, weight_rg, in_features)
                got = _linear_outcome(gradlab, INPUTS[name], bias, weight_rg, in_features)
                assert got == want


def _gradcheck_outcome(lib, fn, arr):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = lib.tensor(arr, requires_grad=True)
        try:
            return lib.autograd.gradcheck(fn, (x,), atol=1e-9, rtol=1e-9)
        except Exception as e:    # noqa: BLE001
            return type(e).__name__, str(e)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_gradcheck_error_message_matches_torch(dtype):
    """The numerical Jacobian is computed as torch's: x - eps then x + eps in the input's dtype,
    (b - a) / (2 * eps) in the output's (half through float)."""
    rng = np.random.default_rng(3)
    fns = [lambda t: t * 3, lambda t: (t * t).sum(), lambda t: t * t * t, lambda t: t / 7]
    for fn in fns:
        for _ in range(3):
            arr = np.round(rng.uniform(0.2, 3, (2, 2)), 3).astype(dtype)
            assert _gradcheck_outcome(gradlab, fn, arr) == _gradcheck_outcome(torch, fn, arr)


@pytest.mark.parametrize("options", [{}, {"momentum": 0.9}, {"weight_decay": 0.1},
                                     {"momentum": 0.5, "nesterov": True}, {"momentum": 0.5, "dampening": 0.1}])
def test_sgd_state_matches_torch(options):
    """Plain SGD keeps no per-parameter state (torch: state_dict()['state'][0] is a KeyError)."""
    def run(lib):
        w = lib.tensor([1., 2., 3.], requires_grad=True)
        b = lib.tensor([0.5], requires_grad=True)
        unused = lib.tensor([0.5], requires_grad=True)
        opt = lib.optim.SGD([w, b, unused], lr=0.1, **options)
        for _ in range(2):
            ((w * b).sum() ** 2).backward()
            opt.step()
        sd = opt.state_dict()
        again = lib.optim.SGD([w, b, unused], lr=0.1, **options)
        again.load_state_dict(sd)
        return (len(opt.state), {k: sorted(v) for k, v in sd["state"].items()}, len(again.state)), w.detach().numpy()
    got, want = run(gradlab), run(torch)
    assert got[0] == want[0]
    np.testing.assert_allclose(got[1], want[1], rtol=1e-6)
