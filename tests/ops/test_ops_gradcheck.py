"""Every op in the op table passes a float64 finite-difference gradient check.

The inputs come from tests/ops/op_samples.py (hypothesis-chosen shapes, broadcasting included). An op
key without samples fails `test_every_op_has_samples`, and each sample must really reach its op
(the op table's `apply` is watched while the sample runs).
"""
import contextlib
import importlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import gradlab
from gradlab.autograd import gradcheck, gradgradcheck
from gradlab.autograd.gradcheck import GradcheckError
from gradlab.ops import OPS, registry

for _module in ("gradlab.nn.functional", "gradlab.nn"):    # ops declared there join OPS on import
    try:
        importlib.import_module(_module)
    except ImportError:
        pass

from op_samples import SAMPLES, check_backward_raises  # noqa: E402

SETTINGS = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


@contextlib.contextmanager
def ops_applied():
    """The set of op keys run (through the op table) inside the block."""
    seen = set()
    original = registry.apply

    def watching(op, args, params):
        seen.add(op.key)
        return original(op, args, params)
    registry.apply = watching
    try:
        yield seen
    finally:
        registry.apply = original


def as_tuple(out):
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def leaves(case):
    return [gradlab.tensor(a, dtype=gradlab.float64, requires_grad=True) for a in case.arrays]


def test_every_op_has_samples():
    missing = sorted(set(OPS) - set(SAMPLES))
    assert not missing, f"ops in gradlab.ops.OPS without sample inputs in tests/ops/op_samples.py: {missing}"


def test_samples_name_existing_ops():
    stale = sorted(set(SAMPLES) - set(OPS))
    assert not stale, f"tests/ops/op_samples.py has samples for keys that are not in OPS: {stale}"


@pytest.mark.parametrize("key", sorted(OPS))
def test_gradcheck(key):
    if key not in SAMPLES:
        pytest.fail(f"op {key!r} has no sample inputs in tests/ops/op_samples.py")
    sample = SAMPLES[key]
    if sample.raises:               # (PyTorch has no derivative: a backward through it raises)
        return check_backward_raises(sample, gradlab)

    @SETTINGS
    @given(st.data())
    def check(data):
        case = sample.draw_case(data.draw)
        xs = leaves(case)

        def fn(*inputs):
            # grad mode on: some samples differentiate inside (double backward), and gradlab's
            # gradcheck evaluates finite differences under no_grad (torch's does not; reported)
            with gradlab.enable_grad():
                return case.fn(gradlab, *inputs)
        with ops_applied() as seen:
            outs = as_tuple(fn(*xs))
        assert key in seen, f"the sample for {key!r} never ran the op (ran {sorted(seen)})"
        assert any(o.requires_grad for o in outs), "no output requires grad"
        for o in outs:
            assert o.dtype == gradlab.float64 or sample.gradcheck, f"float64 inputs gave {o.dtype}"
        assert gradcheck(fn, xs, **sample.gradcheck)
    check()


@pytest.mark.parametrize("key", sorted(OPS))
def test_formulas_agree_on_arrays_and_on_tensors(key):
    """A plain backward runs each formula on numpy arrays; create_graph=True runs the same formula on
    Tensors (ops/dual.py). Both must give the same gradients, of the same dtype."""
    sample = SAMPLES[key]
    if sample.raises:               # (PyTorch has no derivative: a backward through it raises)
        return check_backward_raises(sample, gradlab)

    @settings(SETTINGS, max_examples=6)
    @given(st.data())
    def check(data):
        case = sample.draw_case(data.draw)
        xs = leaves(case)
        outs = [o for o in as_tuple(case.fn(gradlab, *xs)) if o.requires_grad]
        rng = np.random.default_rng(0)
        weights = [gradlab.tensor(rng.standard_normal(o.shape), dtype=o.dtype) for o in outs]
        plain = gradlab.autograd.grad(outs, xs, weights, retain_graph=True, allow_unused=True)
        graphed = gradlab.autograd.grad(outs, xs, weights, create_graph=True, allow_unused=True)
        for i, (a, b) in enumerate(zip(plain, graphed)):
            assert (a is None) == (b is None), f"input {i}: a gradient on one path only"
            if a is not None:
                assert type(a) is gradlab.Tensor and a.dtype == b.dtype and a.shape == b.shape
                # (force: a ZeroTensor gradient, sgn's, refuses a plain numpy() as PyTorch's does)
                np.testing.assert_allclose(a.numpy(force=True), b.detach().numpy(force=True), rtol=1e-10, atol=1e-12,
                                           err_msg=f"{key}: input {i}")
    check()


SECOND_ORDER = sorted(k for k, s in SAMPLES.items() if s.second_order)


def test_second_order_subset():
    wanted = {"mul", "exp", "tanh", "sigmoid", "pow", "pow_scalar", "mm", "softmax", "log_softmax", "sum", "mean"}
    assert wanted <= set(SECOND_ORDER)


@pytest.mark.parametrize("key", SECOND_ORDER)
def test_gradgradcheck(key):
    sample = SAMPLES[key]

    @settings(SETTINGS, max_examples=4)
    @given(st.data())
    def check(data):
        case = sample.draw_case(data.draw)
        assert gradgradcheck(lambda *xs: case.fn(gradlab, *xs), leaves(case))
    check()


# --- the checker itself must be able to fail ------------------------------------------------------

class _WrongExp(gradlab.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, g):
        y, = ctx.saved_tensors
        return g * y * 1.01        # 1 % off


def test_gradcheck_detects_a_wrong_gradient():
    x = gradlab.tensor([0.5, -1.0, 2.0], dtype=gradlab.float64, requires_grad=True)
    assert gradcheck(lambda t: t.exp(), (x,))
    assert gradcheck(_WrongExp.apply, (x,), raise_exception=False) is False
    with pytest.raises(GradcheckError, match="Jacobian mismatch"):
        gradcheck(_WrongExp.apply, (x,))


def test_gradgradcheck_detects_a_wrong_second_derivative():
    class WrongSquare(gradlab.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 2 * x.detach() * (1 + 0 * x)    # first derivative right, second lost by detach

    x = gradlab.tensor([0.5, -1.0], dtype=gradlab.float64, requires_grad=True)
    assert gradcheck(WrongSquare.apply, (x,))
    assert gradgradcheck(WrongSquare.apply, (x,), raise_exception=False) is False


def test_gradcheck_on_a_non_contiguous_input():
    base = gradlab.tensor(np.arange(6.0).reshape(2, 3) / 7, dtype=gradlab.float64)
    x = base.t().detach().requires_grad_()
    assert gradcheck(lambda t: (t * t).sum(0), (x,))
