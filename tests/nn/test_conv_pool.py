"""Convolution, pooling and padding against PyTorch: generated shapes and parameters (values, gradients,
grad_fn names, indices), module reprs and initial weights after manual_seed, and the errors of bad calls
(exception type and message)."""
import random
import warnings
import zlib

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch
torch.set_num_threads(1)


def _pair(lib, array, dtype="float64", requires_grad=True):
    return lib.tensor(array, dtype=getattr(lib, dtype), requires_grad=requires_grad)


def run_both(fn, arrays, dtype="float64", grad=True):
    """fn(lib, F, *tensors) in both libraries: (outputs, grads, grad_fn names) for each."""
    results = []
    for lib in (gradlab, torch):
        xs = [_pair(lib, a, dtype, grad) for a in arrays]
        out = fn(lib, lib.nn.functional, *xs)
        outs = out if isinstance(out, tuple) else (out,)
        names = [type(o.grad_fn).__name__ if o.grad_fn is not None else None for o in outs]
        grads = []
        if grad:
            g = np.random.default_rng(1).standard_normal(tuple(outs[0].shape))
            outs[0].backward(lib.tensor(g, dtype=outs[0].dtype))
            grads = [x.grad.detach().numpy() if x.grad is not None else None for x in xs]
        results.append(([o.detach().numpy() for o in outs], grads, names,
                        [str(o.dtype) for o in outs], [tuple(o.shape) for o in outs]))
    return results


def assert_same(results, rtol=1e-6, atol=1e-6):
    (go, gg, gn, gd, gs), (to, tg, tn, td, ts) = results
    assert gs == ts
    assert gd == td
    assert gn == tn
    for a, b in zip(go, to):
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    for a, b in zip(gg, tg):
        if b is None:
            assert a is None
        else:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


def _conv_cases():
    rnd = random.Random(0)
    cases = []
    for dim in (1, 2):
        for _ in range(60):
            groups = rnd.choice([1, 1, 2, 3])
            cin, cout = groups * rnd.randint(1, 2), groups * rnd.randint(1, 2)
            k = tuple(rnd.randint(1, 3) for _ in range(dim))
            s = tuple(rnd.randint(1, 3) for _ in range(dim))
            d = tuple(rnd.randint(1, 2) for _ in range(dim))
            p = tuple(rnd.randint(0, 2) for _ in range(dim))
            size = tuple(rnd.randint(dd * (kk - 1) + 1, 7) for kk, dd in zip(k, d))
            batch = rnd.choice([None, 1, 2, 3])
            bias = rnd.random() < 0.7
            padding = rnd.choice([p, p, "valid", "same"] if all(v == 1 for v in s) else [p])
            cases.append((dim, batch, cin, cout, k, s, padding, d, groups, size, bias))
    return cases


@pytest.mark.parametrize("case", _conv_cases(), ids=str)
def test_conv_matches_torch(case):
    dim, batch, cin, cout, k, s, padding, d, groups, size, bias = case
    rng = np.random.default_rng(zlib.crc32(str(case).encode()))
    x = rng.standard_normal(((batch,) if batch else ()) + (cin,) + size)
    w = rng.standard_normal((cout, cin // groups) + k)
    arrays = [x, w] + ([rng.standard_normal(cout)] if bias else [])
    name = f"conv{dim}d"

    def fn(lib, F, x, w, b=None):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return getattr(F, name)(x, w, b, stride=s, padding=padding, dilation=d, groups=groups)
    assert_same(run_both(fn, arrays))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_conv_float32_and_half(dtype):
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((2, 3, 9, 9)), rng.standard_normal((4, 3, 3, 3)), rng.standard_normal(4)]
    fn = lambda lib, F, x, w, b: F.conv2d(x, w, b, stride=2, padding=1)  # noqa: E731
    tol = 1e-5 if dtype == "float32" else 1e-2
    assert_same(run_both(fn, arrays, dtype, grad=dtype == "float32"), rtol=tol, atol=tol)


def _pool_cases():
    rnd = random.Random(1)
    cases = []
    for _ in range(80):
        k = (rnd.randint(1, 3), rnd.randint(1, 3))
        s = (rnd.randint(1, 3), rnd.randint(1, 3))
        d = (rnd.randint(1, 2), rnd.randint(1, 2))
        p = tuple(rnd.randint(0, kk // 2) for kk in k)
        ceil = rnd.random() < 0.4
        size = tuple(rnd.randint(dd * (kk - 1) + 1, 8) for kk, dd in zip(k, d))
        lead = rnd.choice([(2,), (2, 3), (1, 1)])
        cases.append((lead + size, k, s, p, d, ceil))
    return cases


@pytest.mark.parametrize("case", _pool_cases(), ids=str)
def test_max_pool2d_matches_torch(case):
    shape, k, s, p, d, ceil = case
    # distinct values: no ties for the maximum
    x = np.random.default_rng(zlib.crc32(str(case).encode())).permutation(np.prod(shape)).reshape(shape) / 7.0
    fn = lambda lib, F, x: F.max_pool2d(x, k, s, p, d, ceil_mode=ceil, return_indices=True)  # noqa: E731
    results = run_both(fn, [x])
    assert_same(results)
    np.testing.assert_array_equal(results[0][0][1], results[1][0][1])       # the indices


@pytest.mark.parametrize("case", _pool_cases(), ids=str)
def test_avg_pool2d_matches_torch(case):
    shape, k, s, p, _, ceil = case
    rnd = random.Random(str(case))
    include, divisor = rnd.random() < 0.5, rnd.choice([None, None, 3])
    x = np.random.default_rng(zlib.crc32(str(case).encode())).standard_normal(shape)
    fn = lambda lib, F, x: F.avg_pool2d(x, k, s, p, ceil, include, divisor)  # noqa: E731
    assert_same(run_both(fn, [x]))


@pytest.mark.parametrize("case", [((2, 9), 3, None, 0), ((2, 3, 10), 2, 1, 1), ((1, 2, 7), 3, 2, 1), ((3, 5), 1, 2, 0)],
                         ids=str)
def test_pool1d_matches_torch(case):
    shape, k, s, p = case
    x = np.random.default_rng(0).permutation(np.prod(shape)).reshape(shape) / 5.0
    for fn in (lambda lib, F, x: F.max_pool1d(x, k, s, p, return_indices=True),
               lambda lib, F, x: F.max_pool1d(x, k, s, p, ceil_mode=True),
               lambda lib, F, x: F.avg_pool1d(x, k, s, p),
               lambda lib, F, x: F.avg_pool1d(x, k, s, p, ceil_mode=True, count_include_pad=False)):
        assert_same(run_both(fn, [x]))


@pytest.mark.parametrize("shape,size", [((2, 3, 6, 6), 1), ((2, 3, 6, 6), (1, 1)), ((1, 7, 5), 3),
                                        ((2, 2, 7, 9), (4, 5)),
                                        ((1, 2, 5, 5), (None, 2)), ((1, 3, 3), 5), ((2, 3, 8, 8), (2, 4))], ids=str)
def test_adaptive_pool2d_matches_torch(shape, size):
    x = np.random.default_rng(0).permutation(np.prod(shape)).reshape(shape) / 3.0
    assert_same(run_both(lambda lib, F, x: F.adaptive_avg_pool2d(x, size), [x]))
    assert_same(run_both(lambda lib, F, x: F.adaptive_max_pool2d(x, size, return_indices=True), [x]))


@pytest.mark.parametrize("shape,size", [((2, 3, 6), 1), ((3, 7), 3), ((2, 2, 9), 4)], ids=str)
def test_adaptive_pool1d_matches_torch(shape, size):
    x = np.random.default_rng(0).permutation(np.prod(shape)).reshape(shape) / 3.0
    assert_same(run_both(lambda lib, F, x: F.adaptive_avg_pool1d(x, size), [x]))
    assert_same(run_both(lambda lib, F, x: F.adaptive_max_pool1d(x, size), [x]))


@pytest.mark.parametrize("mode,shape,pad", [
    ("constant", (2, 3), (1, 2)), ("constant", (2, 3, 4), (1, 0, 2, 1)), ("constant", (2, 5), (-1, 2)),
    ("constant", (2, 3, 4), (1, 1, 1, 1, 1, 1)), ("reflect", (2, 5), (2, 3)), ("reflect", (1, 2, 4, 5), (1, 2, 3, 0)),
    ("reflect", (2, 3, 4), (3, 1, 1, 2)), ("replicate", (2, 3), (4, 1)), ("replicate", (1, 2, 3, 3), (2, 2, 1, 3)),
    ("reflect", (1, 3, 5), (-1, 2)), ("replicate", (1, 1, 3, 3, 3), (1, 1, 2, 0, 1, 1)),
], ids=str)
def test_pad_matches_torch(mode, shape, pad):
    x = np.random.default_rng(0).standard_normal(shape)
    assert_same(run_both(lambda lib, F, x: F.pad(x, pad, mode=mode), [x]))


def test_conv_second_order():
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((2, 2, 5, 5)), rng.standard_normal((3, 2, 3, 3))]
    grads = []
    for lib in (gradlab, torch):
        x, w = [_pair(lib, a) for a in arrays]
        y = lib.nn.functional.conv2d(x, w, stride=2, padding=1)
        gx, gw = lib.autograd.grad((y ** 2).sum(), (x, w), create_graph=True)
        (gx.sum() + (gw ** 2).sum()).backward()
        grads.append((x.grad.numpy(), w.grad.numpy()))
    for a, b in zip(*grads):
        np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-8)


# --- modules -------------------------------------------------------------------------------------------------

MODULES = [
    "nn.Conv2d(1, 6, 5)", "nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False)",
    "nn.Conv2d(4, 8, (3, 5), padding='same', groups=2)", "nn.Conv2d(2, 4, 3, dilation=2, padding_mode='reflect')",
    "nn.Conv2d(2, 2, 3, padding=(1, 0), padding_mode='replicate')", "nn.Conv1d(2, 3, 3, padding='valid')",
    "nn.Conv1d(16, 33, 3, stride=2)", "nn.Conv1d(4, 4, 2, groups=4, bias=False)",
    "nn.MaxPool2d(2)", "nn.MaxPool2d(3, stride=2, padding=1, ceil_mode=True)", "nn.MaxPool2d((2, 3), (1, 2))",
    "nn.MaxPool1d(3)", "nn.MaxPool1d(2, 1, return_indices=True)", "nn.AvgPool2d(2)",
    "nn.AvgPool2d((2, 3), padding=(1, 0))",
    "nn.AvgPool1d(3)", "nn.AvgPool1d(4, 2, 1)", "nn.AdaptiveAvgPool2d((1, 1))", "nn.AdaptiveAvgPool2d(5)",
    "nn.AdaptiveAvgPool2d((None, 3))", "nn.AdaptiveAvgPool1d(2)", "nn.AdaptiveMaxPool2d(2)",
]


@pytest.mark.parametrize("code", MODULES)
def test_module_repr_init_and_forward(code):
    outs = []
    for lib in (gradlab, torch):
        lib.manual_seed(0)
        m = eval(code, {"nn": lib.nn})
        state = {k: v.detach().numpy().copy() for k, v in m.state_dict().items()}
        shape = (2, 4, 9, 11) if "2d" in code or "2D" in code else (2, 4, 11)
        if "Conv" in code:
            shape = shape[:1] + (m.in_channels,) + shape[2:]
        x = lib.tensor(np.random.default_rng(0).standard_normal(shape), dtype=lib.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y = m(x)
        y = y[0] if isinstance(y, tuple) else y
        outs.append((repr(m), state, y.detach().numpy(), type(y.grad_fn).__name__ if y.grad_fn else None))
    assert outs[0][0] == outs[1][0]
    assert outs[0][1].keys() == outs[1][1].keys()
    for k in outs[0][1]:
        np.testing.assert_array_equal(outs[0][1][k], outs[1][1][k])
    np.testing.assert_allclose(outs[0][2], outs[1][2], rtol=1e-5, atol=1e-5)
    assert outs[0][3] == outs[1][3]


# --- errors --------------------------------------------------------------------------------------------------

ERRORS = [
    "nn.Conv2d(1, 6, 5)(torch.randn(2, 3, 8, 8))", "nn.Conv2d(1, 6, 5)(torch.randn(2, 1, 3, 3))",
    "nn.Conv2d(1, 6, 5)(torch.randn(8, 8))", "nn.Conv2d(1, 6, 5)(torch.randn(1, 1, 1, 8, 8))",
    "nn.Conv2d(1, 6, 5)(torch.randn(2, 1, 8, 8, dtype=torch.float64))", "nn.Conv2d(3, 4, 2, groups=2)",
    "nn.Conv2d(4, 3, 2, groups=2)", "nn.Conv2d(4, 4, 2, padding='same', stride=2)", "nn.Conv2d(4, 4, 2, groups=0)",
    "nn.Conv2d(4, 4, 2, padding_mode='zero')", "nn.Conv1d(2, 3, 3)(torch.randn(2, 3, 5))",
    "nn.Conv1d(2, 3, 3)(torch.randn(2, 2, 2))", "nn.Conv1d(2, 3, 3)(torch.randn(5))",
    "F.conv2d(torch.randn(1, 1, 5, 5), torch.randn(1, 1, 3))",
    "F.conv2d(torch.randn(1, 1, 5, 5), torch.randn(1, 1, 3, 3), padding=-1)",
    "F.conv2d(torch.randn(1, 1, 5, 5), torch.randn(1, 1, 3, 3), stride=0)",
    "F.conv2d(torch.randn(1, 1, 5, 5), torch.randn(2, 1, 3, 3), bias=torch.randn(3))",
    "F.conv2d(torch.randn(2, 4, 6, 6), torch.randn(3, 2, 3, 3), groups=2)",
    "F.conv2d(torch.randn(2, 4, 6, 6), torch.randn(3, 4, 3, 3), stride=(1, 1, 1))",
    "F.conv2d(torch.randn(2, 4, 6, 6), torch.randn(4, 4, 3, 3), padding='same', stride=2)",
    "F.conv2d(torch.randn(2, 4, 6, 6), torch.randn(4, 4, 3, 3), padding='foo')",
    "F.conv2d(torch.randn(2, 4, 6, 6).double(), torch.randn(4, 4, 3, 3))",
    "F.conv2d(torch.randn(2, 4, 6, 6), torch.randn(4, 4, 3, 3).double())",
    "F.conv2d(torch.randn(2, 4, 6, 6).double(), torch.randn(4, 4, 3, 3).double(), torch.randn(4))",
    "F.conv2d(torch.randn(2, 4, 6, 6), torch.randn(4, 4, 3, 3), groups=0)",
    "F.max_pool2d(torch.randn(1, 1, 3, 3), 5)", "F.max_pool2d(torch.randn(1, 1, 3, 3), 2, padding=2)",
    "F.max_pool2d(torch.randn(4, 4), 2)", "F.max_pool2d(torch.randn(1, 4, 4), 0)",
    "F.max_pool2d(torch.randn(1, 4, 4), 2, dilation=0)", "F.max_pool2d(torch.randn(1, 4, 4), 2, padding=-1)",
    "F.max_pool2d(torch.randn(1, 4, 4), (2, 2, 2))", "F.max_pool2d(torch.ones(1, 4, 4, dtype=torch.bool), 2)",
    "F.max_pool2d(torch.arange(16).reshape(1, 4, 4), 2)", "F.max_pool1d(torch.randn(4), 2)",
    "F.max_pool1d(torch.randn(1, 1, 3), 4)", "F.avg_pool2d(torch.randn(1, 1, 3, 3), 4)",
    "F.avg_pool2d(torch.randn(4, 4), 2)", "F.avg_pool2d(torch.randn(1, 4, 4), 2, divisor_override=0)",
    "F.avg_pool2d(torch.arange(16).reshape(1, 4, 4), 2)", "F.avg_pool1d(torch.randn(4), 2)",
    "F.adaptive_avg_pool2d(torch.randn(1, 4, 4), -1)", "F.adaptive_avg_pool2d(torch.randn(4, 4), 2)",
    "F.adaptive_avg_pool2d(torch.arange(16).reshape(1, 4, 4), 2)",
    "F.adaptive_avg_pool2d(torch.randn(1, 4, 4), (1, 2, 3))",
    "F.adaptive_avg_pool2d(torch.randn(1, 4, 4), 0)", "F.adaptive_avg_pool1d(torch.randn(4), 2)",
    "F.adaptive_max_pool2d(torch.randn(4, 4), 2)", "nn.MaxPool2d(2)(torch.randn(4))",
    "F.pad(torch.randn(1, 1, 3), (3, 3), mode='reflect')", "F.pad(torch.randn(3), (1, 1), mode='reflect')",
    "F.pad(torch.randn(1, 5), (1,))", "F.pad(torch.randn(1, 5), (1, 1, 1, 1, 1, 1))",
    "F.pad(torch.randn(1, 5), (1, 1), mode='foo')", "F.pad(torch.randn(1, 5), (1, 1), mode='reflect', value=1)",
    "F.pad(torch.randn(1, 5), (-3, -3))", "F.pad(torch.randn(0, 5), (1, 1), mode='reflect')",
    "F.pad(torch.arange(3), (1, 1), value=2.5)", "F.pad(torch.arange(3).reshape(1, 3), (1, 1), mode='reflect')",
    "F.pad(torch.randn(1, 2, 3, 3), (1, 1, 2, 2), mode='reflect')",
    # arguments of the wrong type (PyTorch's argument parser)
    "F.pad(torch.randn(1, 5), None)", "F.pad(torch.randn(1, 5), 2)", "F.pad(torch.randn(1, 5), (1.5, 1))",
    "nn.MaxPool2d(2.5)(torch.randn(1, 4, 4))", "F.max_pool1d(torch.randn(1, 4), torch.float64)",
    "F.max_pool1d(torch.randn(1, 4), None)", "F.max_pool1d(torch.randn(1, 4), True)",
    "F.max_pool2d(torch.randn(1, 4, 4))",
    "F.max_pool2d(torch.randn(1, 4, 4), dim=0)", "F.max_pool1d_with_indices(torch.randn(3), 0.5, 2)",
    "F.max_pool1d_with_indices(torch.randn(1, 3), -1)", "F.max_pool1d(torch.zeros(2, 0), 1)",
    "F.max_pool1d(torch.randn(2, 3, requires_grad=True), 4)", "F.max_pool2d([1.0], 2)",
    "F.adaptive_max_pool1d(torch.randn(1, 4))", "F.adaptive_max_pool1d(torch.randn(1, 4), 0.5, 2)",
    "F.adaptive_max_pool1d(torch.randn(3, 1), -1)", "F.adaptive_max_pool1d(torch.randn(3, 1), torch.ones(3))",
    "F.adaptive_max_pool2d(torch.randn(1, 3, 3), torch.float64)", "F.adaptive_max_pool2d(torch.randn(1, 3, 3), -1)",
    "nn.AdaptiveMaxPool1d(True)(torch.randn(1, 4))", "F.conv2d([1.0], torch.randn(1, 1, 1, 1))",
    "F.conv1d(torch.randn(1, 2, 5), torch.randn(1, 2, 2), stride=1.5)",
]


def outcome(lib, code):
    lib.manual_seed(0)
    env = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(code, env)
        except Exception as e:      # noqa: BLE001 - whatever each library raises is compared
            return type(e).__name__, str(e)
    return "ok", repr(value)


@pytest.mark.parametrize("code", ERRORS)
def test_errors_match_torch(code):
    expected = outcome(torch, code)
    got = outcome(gradlab, code)
    if "one of {'" in expected[1]:     # (a set's order depends on the string hash seed)
        expected, got = expected[0], got[0]
    assert got == expected


@pytest.mark.parametrize("code", ["nn.Conv2d(2, 3, 3, dtype=torch.float64)", "nn.Conv1d(3, 2, 4, dtype=torch.float64)",
                                  "nn.Conv2d(4, 4, (1, 2), groups=4, bias=False)", "nn.Conv2d(3, 5, 2, device='cpu')"])
def test_initial_weights_for_other_dtypes(code):
    states = []
    for lib in (gradlab, torch):
        lib.manual_seed(3)
        m = eval(code, {"nn": lib.nn, "torch": lib})
        states.append({k: (str(v.dtype), v.detach().numpy().copy()) for k, v in m.state_dict().items()})
        states[-1]["next"] = lib.rand(2).numpy()      # the stream after the layer drew its numbers
    assert states[0].keys() == states[1].keys()
    for k in states[0]:
        if k == "next":
            np.testing.assert_array_equal(states[0][k], states[1][k])
        else:
            assert states[0][k][0] == states[1][k][0]
            np.testing.assert_array_equal(states[0][k][1], states[1][k][1])
