"""gradlab.nn, nn.functional and optim against PyTorch, off the tutorial paths: every keyword argument
(legacy size_average/reduce, reduction, weight, ignore_index, label_smoothing, inplace, dtype), non-tensor
arguments, integer/bool/half/empty inputs, the errors and warnings of layers and losses, module
bookkeeping and optimizer construction.

Each case is one Python expression, evaluated with `torch` bound to real PyTorch and then to gradlab
(same seed): the printed result, grad_fn name, exception type and message and warnings must agree.
"""
import importlib
import sys
import itertools
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch
torch.set_num_threads(1)


def _show(value):
    """What a user sees of a result: its printed form (and grad_fn's name, which repr may hide)."""
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [_show(v) for v in value]
    if isinstance(value, dict):
        return {k: _show(v) for k, v in value.items()}
    grad_fn = getattr(value, "grad_fn", None) if hasattr(value, "dtype") else None
    return repr(value), type(grad_fn).__name__ if grad_fn is not None else None


def outcome(lib, code):
    env = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional, "np": np}
    lib.manual_seed(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", _show(eval(code, env)))
        except Exception as e:      # noqa: BLE001 - whatever each library raises is compared
            result = ("raised", type(e).__name__, str(e))
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def check(code):
    expected = outcome(torch, code)
    got = outcome(gradlab, code)
    assert got == expected, f"\n{code}\n  torch:   {expected}\n  gradlab: {got}"


# --- 1. keyword arguments of the losses: legacy flags, reduction names ---------------------------------------
_LOSS_CALLS = {     # loss -> (module, functional, inputs)
    "mse": ("nn.MSELoss", "F.mse_loss", "torch.tensor([[1., 2.], [0.5, -1.]]), torch.tensor([[0., 1.], [2., 2.]])"),
    "l1": ("nn.L1Loss", "F.l1_loss", "torch.tensor([[1., 2.], [0.5, -1.]]), torch.tensor([[0., 1.], [2., 2.]])"),
    "nll": ("nn.NLLLoss", "F.nll_loss", "torch.tensor([[-1., -2., -0.5], [-0.1, -3., -2.]]), torch.tensor([2, 0])"),
    "ce": ("nn.CrossEntropyLoss", "F.cross_entropy", "torch.tensor([[1., 2., 0.5], [0.1, 3., 2.]]), torch.tensor([2, 0])"),
    "bce": ("nn.BCELoss", "F.binary_cross_entropy", "torch.tensor([0.2, 0.9, 0.5]), torch.tensor([0., 1., 1.])"),
    "bcel": ("nn.BCEWithLogitsLoss", "F.binary_cross_entropy_with_logits",
             "torch.tensor([0.2, -0.9, 1.5]), torch.tensor([0., 1., 1.])"),
}
_FLAGS = [None, True, False]
_REDUCTIONS = ["'mean'", "'sum'", "'none'", "'elementwise_mean'", "'bogus'", "None", "1"]


def _reduction_cases():
    for module, functional, inputs in _LOSS_CALLS.values():
        for size_average, reduce in itertools.product(_FLAGS, _FLAGS):
            kw = f"size_average={size_average}, reduce={reduce}"
            yield f"{module}({kw})({inputs})"
            yield f"{module}({kw}).reduction"
            yield f"{functional}({inputs}, {kw})"
            yield f"{functional}({inputs}, {kw}, reduction='bogus')"
        for reduction in _REDUCTIONS:
            yield f"{module}(reduction={reduction})({inputs})"
            yield f"{functional}({inputs}, reduction={reduction})"
        yield f"{module}(foo=1)"
        yield f"{functional}({inputs}, foo=1)"


@pytest.mark.parametrize("code", list(_reduction_cases()))
def test_loss_reduction_keywords(code):
    check(code)


# --- the other keywords of layers and losses ------------------------------------------------------------------
_LOGITS = "torch.tensor([[1., 2., 0.5], [0.1, 3., 2.], [-1., 0., 1.]])"
_KEYWORD_CASES = [
    f"F.cross_entropy({_LOGITS}, torch.tensor([2, 0, 1]), ignore_index=0)",
    f"F.cross_entropy({_LOGITS}, torch.tensor([2, 0, 1]), ignore_index=0, reduction='none')",
    f"F.cross_entropy({_LOGITS}, torch.tensor([-100, -100, -100]))",
    f"F.cross_entropy({_LOGITS}, torch.tensor([2, 0, 1]), weight=torch.tensor([1., 2., 3.]))",
    f"F.cross_entropy({_LOGITS}, torch.tensor([2, 0, 1]), weight=[1., 2., 3.])",
    f"F.cross_entropy({_LOGITS}, torch.tensor([2, 0, 1]), weight=torch.tensor([1., 2.]))",
    f"F.cross_entropy({_LOGITS}, torch.tensor([2, 0, 1]), weight=torch.tensor([1., 2., 3.]).double())",
    f"F.cross_entropy({_LOGITS}, torch.softmax({_LOGITS}, 1), weight=torch.tensor([1., 2., 3.]))",
    f"F.nll_loss({_LOGITS}, torch.tensor([2, 0, 1]), weight=[1., 2., 3.])",
    f"nn.CrossEntropyLoss(weight=torch.tensor([1., 2., 3.]), ignore_index=2)({_LOGITS}, torch.tensor([2, 0, 1]))",
    f"nn.NLLLoss(ignore_index=1)({_LOGITS}, torch.tensor([2, 0, 1]))",
    f"nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2., 3., 1.]))({_LOGITS}, torch.ones(3, 3) / 2)",
    f"nn.BCEWithLogitsLoss(weight=torch.tensor([2., 3., 1.]))({_LOGITS}, torch.ones(3, 3) / 2)",
    f"F.binary_cross_entropy_with_logits({_LOGITS}, torch.ones(3, 3) / 2, pos_weight=[2., 3., 1.])",
    f"F.binary_cross_entropy_with_logits({_LOGITS}, torch.ones(3, 3) / 2, pos_weight=torch.ones(2))",
    f"F.binary_cross_entropy_with_logits({_LOGITS}, torch.ones(3, 3) / 2, weight=torch.ones(2))",
    "F.binary_cross_entropy(torch.ones(3) / 2, torch.ones(3), weight=torch.ones(2))",
    "F.binary_cross_entropy(torch.ones(3) / 2, torch.ones(3), weight=[1., 2., 3.])",
    "nn.BCELoss(weight=torch.tensor([1., 2., 3.]))(torch.ones(3) / 3, torch.ones(3))",
    "F.mse_loss(torch.tensor([1., 2., 3.]), torch.zeros(3), weight=torch.tensor([1., 2., 3.]))",
    "F.mse_loss(torch.tensor([1., 2., 3.]), torch.zeros(3), weight=torch.tensor([1., 2.]))",
    "F.l1_loss(torch.tensor([1., 2., 3.]), torch.zeros(3), weight=torch.tensor([1., 2., 3.]), reduction='sum')",
    "F.l1_loss(torch.tensor([1., 2., 3.]), torch.zeros(3), weight=torch.tensor([1., 2., 3.]), reduction='x')",
    "nn.Linear(3, 2, bias=False)",
    "nn.Linear(3, 2, bias=False).bias",
    "nn.Linear(3, 2, bias=False)(torch.ones(4, 3))",
    "nn.Linear(3, 2, dtype=torch.float64)(torch.ones(3, dtype=torch.float64))",
    "nn.Linear(3, 2, dtype=torch.float16).weight",
    "nn.Linear(3, 2, dtype=torch.int64)",
    "nn.Linear(3, 2, device='cpu').weight",
    "nn.Linear(0, 2).bias",
    "nn.Linear(2, 0)(torch.ones(2))",
    "nn.Linear(-1, 2)",
    "nn.Linear(3, 2, foo=1)",
    "nn.Dropout(foo=1)",
    "nn.Dropout(1.5)",
    "nn.ReLU(inplace=True)",
    "nn.Softmax(dim=1, foo=1)",
    "[nn.Linear(2, 2).weight._version, nn.Linear(2, 2).bias._version]",
]
for _smoothing in (0.0, 0.2, 1.0, 1.5, -0.3):
    for _weight in ("None", "torch.tensor([1., 2., 3.])"):
        for _reduction in ("mean", "sum", "none"):
            _KEYWORD_CASES.append(f"F.cross_entropy({_LOGITS}, torch.tensor([2, 0, -100]), weight={_weight}, "
                                  f"label_smoothing={_smoothing}, reduction='{_reduction}')")
            _KEYWORD_CASES.append(f"F.cross_entropy({_LOGITS}, torch.softmax({_LOGITS} * 2, 1), weight={_weight}, "
                                  f"label_smoothing={_smoothing}, reduction='{_reduction}')")


@pytest.mark.parametrize("code", _KEYWORD_CASES)
def test_keyword_arguments(code):
    check(code)


# --- 2. non-tensor arguments ------------------------------------------------------------------------------------
_CALLS = ["F.relu({})", "F.relu({}, inplace=True)", "F.leaky_relu({})", "F.gelu({})", "F.softplus({})", "F.silu({})",
          "F.elu({})", "F.tanh({})", "F.sigmoid({})", "F.softmax({}, dim=0)", "F.softmax({})", "F.log_softmax({}, 0)",
          "F.softmin({})", "F.dropout({})", "F.dropout({}, training=False)", "F.dropout({}, inplace=True)",
          "F.linear({}, torch.ones(2, 2))", "F.linear(torch.ones(2), {})", "F.linear(torch.ones(2), torch.ones(2, 2), {})",
          "F.mse_loss({}, torch.ones(2))", "F.mse_loss(torch.ones(2), {})", "F.l1_loss({}, torch.ones(2))",
          "F.l1_loss(torch.ones(2), {})", "F.nll_loss({}, torch.tensor([0]))", "F.nll_loss(torch.ones(1, 2), {})",
          "F.cross_entropy({}, torch.tensor([0]))", "F.cross_entropy(torch.ones(1, 2), {})",
          "F.binary_cross_entropy({}, torch.ones(2))", "F.binary_cross_entropy(torch.ones(2) / 2, {})",
          "F.binary_cross_entropy_with_logits({}, torch.ones(2))",
          "F.binary_cross_entropy_with_logits(torch.ones(2), {})",
          "nn.Linear(2, 2)({})", "nn.ReLU()({})", "nn.Tanh()({})", "nn.Sigmoid()({})", "nn.Softmax(0)({})",
          "nn.LogSoftmax(0)({})", "nn.Dropout()({})", "nn.Flatten()({})", "nn.Identity()({})",
          "nn.MSELoss()({}, torch.ones(2))", "nn.CrossEntropyLoss()({}, torch.tensor([0]))",
          "nn.Sequential(nn.Linear(2, 2), nn.ReLU())({})", "nn.Parameter({})"]
_NON_TENSORS = ["[1., 2.]", "np.ones(2, dtype=np.float32)", "None", "3", "2.5", "'a'", "(1., 2.)"]


@pytest.mark.parametrize("code", [c.format(a) for c in _CALLS for a in _NON_TENSORS])
def test_non_tensor_arguments(code):
    check(code)


def test_functional_has_torch_names_only():
    assert hasattr(gradlab.nn.functional, "flatten") == hasattr(torch.nn.functional, "flatten")


# --- 3. dtypes, shapes and warnings of activations and softmax ---------------------------------------------------
_ACTIVATIONS = ["F.relu({})", "F.leaky_relu({}, 0.2)", "F.gelu({})", "F.gelu({}, approximate='tanh')",
                "F.gelu({}, approximate='x')", "F.softplus({}, beta=2, threshold=1)", "F.silu({})",
                "F.elu({}, alpha=0.5)", "F.softmax({}, 0)", "F.softmax({}, -1)", "F.log_softmax({}, 0)",
                "F.log_softmax({}, -1)", "F.softmin({}, 0)", "F.softmax({})", "F.log_softmax({})", "F.softmin({})",
                "F.softmax({}, 0, torch.float64)", "F.softmax({}, 0, dtype=torch.float64)", "F.softmax({}, 5)",
                "F.dropout({}, 0.0)", "F.dropout({}, 1.0)", "F.dropout({}, training=False)", "F.dropout({}, 1.5)",
                "nn.Softmax()({})", "nn.LogSoftmax()({})"]
_TENSORS = ["torch.tensor([[1, -2, 0]])", "torch.tensor([[True, False]])", "torch.tensor([[1, 2]], dtype=torch.uint8)",
            "torch.tensor([[1, -2]], dtype=torch.int32)", "torch.tensor([[1., -2.]], dtype=torch.float64)",
            "torch.tensor([[0.5, -2.]], dtype=torch.float16)", "torch.zeros(0, 2)", "torch.zeros(2, 0)",
            "torch.tensor(3.)", "torch.ones(2, 2, 2)", "torch.tensor([[1., -2., 0.5], [3., -0.1, 2.]]).t()"]


@pytest.mark.parametrize("code", [c.format(t) for c in _ACTIVATIONS for t in _TENSORS])
def test_activations_dtypes_and_shapes(code):
    check(code)


_INPLACE = ["F.relu(x * 1, inplace=True)", "F.leaky_relu(x * 1, 0.1, inplace=True)", "F.elu(x * 1, inplace=True)",
            "F.silu(x * 1, inplace=True)", "F.dropout(x * 1, 1.0, inplace=True)", "F.gelu(x, approximate='tanh')"]


@pytest.mark.parametrize("code", _INPLACE)
def test_inplace_activations_record_torch_nodes(code):
    check(f"(lambda x: (lambda y: (y, y.sum().backward(), x.grad))({code}))"
          f"(torch.tensor([1., -2., 0.5, -0.25], requires_grad=True))")


# --- 4. linear: shapes and dtypes, random ---------------------------------------------------------------------
def _linear_cases(seed=0, n=80):
    rng = random.Random(seed)
    dtypes = ["torch.float32", "torch.float64", "torch.int64"]
    for _ in range(n):
        batch = rng.choice([(), (), (2,), (3,), (2, 3), (0,)])
        k = rng.choice([0, 1, 3])
        in_k = k if rng.random() < 0.8 else k + 1
        out = rng.choice([1, 2])
        dt = rng.choice(dtypes) if rng.random() < 0.2 else "torch.float32"
        x = f"torch.arange({int(np.prod(batch + (in_k,)))}, dtype={dt}).reshape({batch + (in_k,)})"
        w = f"torch.ones({out}, {k})" if rng.random() < 0.9 else rng.choice(
            ["torch.tensor(1.)", f"torch.ones({k})", f"torch.ones(1, {out}, {k})"])
        bias = rng.choice(["", f", torch.ones({out})", f", torch.ones({out + 1})", f", torch.ones(1, {out})",
                           f", torch.ones({out}).double()", ", torch.tensor(2.)"])
        yield f"F.linear({x}, {w}{bias})"


@pytest.mark.parametrize("code", list(_linear_cases()) + [
    "nn.Linear(3, 2)(torch.ones(1, 2))", "nn.Linear(3, 2)(torch.tensor(1.))", "nn.Linear(1, 2)(torch.tensor(1.))",
    "nn.Linear(3, 2)(torch.ones(3, dtype=torch.float64))", "F.linear(torch.ones(3), torch.ones(2, 3), torch.ones(2, 2))",
    "F.linear(torch.ones(2, 3), torch.ones(2, 3, 1))", "F.linear(input=torch.ones(3), weight=torch.ones(2, 3))"])
def test_linear(code):
    check(code)


# --- 3/4. losses: size warnings, dtypes, errors, gradients --------------------------------------------------
def _loss_cases():
    shapes = ["torch.ones(2)", "torch.ones(2, 2)", "torch.ones(1, 2)", "torch.ones(3)", "torch.tensor(1.)",
              "torch.zeros(0)"]
    for fn in ("F.mse_loss", "F.l1_loss", "F.binary_cross_entropy", "F.binary_cross_entropy_with_logits"):
        for a, b in itertools.product(shapes, shapes):
            yield f"{fn}({a} / 2, {b} / 4)"
        for dt_a, dt_b in itertools.product(["torch.int64", "torch.float64", "torch.bool", "torch.float32"], repeat=2):
            yield f"{fn}(torch.tensor([1, 0]).to({dt_a}), torch.tensor([0, 1]).to({dt_b}))"
    for target in ["torch.tensor([0., 1.])", "torch.tensor([0, 1], dtype=torch.int32)", "torch.tensor([0, 1]).byte()",
                   "torch.tensor([True, False])", "torch.tensor([0, 3])", "torch.tensor([-1, 0])",
                   "torch.tensor([0, -100])", "torch.tensor([0, 1, 2])", "torch.tensor(1)", "torch.zeros(2, 3).long()",
                   "torch.zeros(2, 1).long()", "torch.ones(2, 3) / 3", "torch.ones(2, 3).long()"]:
        for fn in ("F.cross_entropy", "F.nll_loss"):
            yield f"{fn}(torch.tensor([[1., 2., 0.], [0., 1., 3.]]), {target})"
    for inp in ["torch.ones(3)", "torch.tensor(1.)", "torch.ones(2, 3, dtype=torch.int64)",
                "torch.ones(2, 3, dtype=torch.float64)", "torch.zeros(0, 3)"]:
        for fn in ("F.cross_entropy", "F.nll_loss"):
            yield f"{fn}({inp}, torch.tensor([0, 1]))"
            yield f"{fn}({inp}, torch.tensor(1))"
            yield f"{fn}({inp}, torch.zeros(0).long())"
    # K-dimensional inputs (N, C, d1, ...): NllLoss2DBackward0, through a view unless 4-d
    for shape in [(2, 3, 4), (2, 3, 2, 2), (1, 3, 2, 1, 2), (2, 3, 0)]:
        inp = f"torch.arange({int(np.prod(shape))}.).reshape{shape}.sin()"
        target_shape = shape[:1] + shape[2:]
        n = int(np.prod(target_shape))
        good = f"(torch.arange({n}) % 3).reshape{target_shape}"
        for target in [good, f"torch.zeros({shape[0]}).long()", f"torch.zeros{shape[:2]}.long()",
                       f"({good}).float()", f"({good}) + 1", f"torch.zeros{target_shape + (1,)}.long()"]:
            for fn in ("F.cross_entropy", "F.nll_loss"):
                for kw in ("", ", reduction='none'", ", reduction='sum'", ", ignore_index=1",
                           ", weight=torch.tensor([1., 2., 3.])"):
                    yield f"{fn}({inp}, {target}{kw})"
        yield f"F.cross_entropy({inp}, {good}, label_smoothing=0.2)"
        yield f"F.cross_entropy({inp}, {inp}.softmax(1), label_smoothing=0.2, weight=torch.tensor([1., 2., 3.]))"
    yield "F.binary_cross_entropy(torch.tensor([0.5, 2.]), torch.tensor([0., 1.]))"
    yield "F.binary_cross_entropy(torch.tensor([0.5, float('nan')]), torch.tensor([0., 1.]))"
    yield "F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([0., 2.]))"
    yield "F.binary_cross_entropy(torch.tensor([0., 1.]), torch.tensor([1., 0.]))"


@pytest.mark.parametrize("code", list(_loss_cases()))
def test_loss_inputs(code):
    check(code)


_GRAD_LOSSES = ["F.mse_loss(x, t)", "F.mse_loss(x, t, reduction='sum')", "F.l1_loss(x, t, reduction='none').sum()",
                "F.mse_loss(x, t[0])", "F.mse_loss(x, t, weight=t + 1)", "F.l1_loss(x, t, weight=t + 1)",
                "F.binary_cross_entropy(x.sigmoid(), t)", "F.binary_cross_entropy(x.sigmoid(), t, weight=t + 1)",
                "F.binary_cross_entropy_with_logits(x, t, pos_weight=torch.tensor([2., 0.5, 1.]))",
                "F.binary_cross_entropy_with_logits(x, t, weight=t + 1, reduction='sum')",
                "F.cross_entropy(x, torch.tensor([2, 0]), label_smoothing=0.1)",
                "F.cross_entropy(x, torch.tensor([2, 0]), weight=torch.tensor([1., 2., 3.]), label_smoothing=0.3)",
                "F.cross_entropy(x, t.softmax(1), label_smoothing=0.2, weight=torch.tensor([1., 2., 3.]))",
                "F.nll_loss(x.log_softmax(1), torch.tensor([2, -100]), size_average=False)",
                "F.cross_entropy(x.view(1, 2, 3), torch.tensor([[2, 0, -100]]), weight=torch.tensor([1., 2.]))",
                "F.nll_loss(x.view(1, 2, 3, 1), torch.tensor([[[1], [0], [1]]]), reduction='none').sum()",
                "nn.MSELoss(size_average=False)(x, t)", "nn.CrossEntropyLoss(reduce=False)(x, torch.tensor([2, 0])).sum()"]


@pytest.mark.parametrize("code", _GRAD_LOSSES)
def test_loss_gradients_and_second_backward(code):
    """The loss, its graph, x.grad, and torch's error for a second backward through the freed graph."""
    check(f"(lambda x, t: (lambda l: (l, l.backward(), x.grad, l.backward()))({code}))"
          f"(torch.tensor([[0.5, -1., 2.], [0.1, 0.3, -0.7]], requires_grad=True), "
          f"torch.tensor([[1., 0., 0.5], [0., 1., 0.2]]))")


# --- 4. modules: containers, state_dict, load_state_dict, train/eval, zero_grad -----------------------------------
_MODULE_CASES = [
    "list(nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)).state_dict().keys())",
    "[n for n, _ in nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1, bias=False)).named_parameters()]",
    "nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)).load_state_dict({'0.weight': torch.ones(3, 2)})",
    "nn.Sequential(nn.Linear(2, 3)).load_state_dict({'0.weight': torch.ones(3, 2), '0.bias': torch.ones(3), "
    "'x': torch.ones(1)})",
    "nn.Sequential(nn.Linear(2, 3)).load_state_dict({'0.weight': torch.ones(3, 2), '0.bias': torch.ones(3), "
    "'x': torch.ones(1)}, strict=False)",
    "nn.Sequential(nn.Linear(2, 3)).load_state_dict({'0.weight': torch.ones(2, 2), '0.bias': torch.ones(3)})",
    "nn.Sequential(nn.Linear(2, 3)).load_state_dict({'0.weight': [1.], '0.bias': torch.ones(3)})",
    "nn.Sequential(nn.Linear(2, 3)).load_state_dict([1])",
    "nn.Linear(2, 3).train('a')",
    "nn.Sequential(nn.Linear(2, 3), nn.Dropout()).eval()[1].training",
    "nn.Linear(2, 3).zero_grad(set_to_none=False)",
    "nn.Sequential(nn.Linear(2, 3), nn.ReLU(inplace=True), nn.Dropout(0.1), nn.Softmax(dim=1), nn.LogSoftmax(), "
    "nn.Flatten(), nn.Tanh(), nn.Sigmoid(), nn.Identity())",
    "nn.Sequential(nn.MSELoss(), nn.L1Loss(), nn.CrossEntropyLoss(), nn.NLLLoss(), nn.BCELoss(), nn.BCEWithLogitsLoss())",
    "nn.Sequential(nn.Linear(2, 2))[5]", "nn.Sequential(nn.Linear(2, 2))['a']", "nn.Sequential(nn.Linear(2, 2))[-1]",
    "nn.ModuleList([nn.Linear(2, 2)])[3]", "nn.ModuleList([nn.Linear(2, 2)])['a']", "nn.ModuleList(nn.Linear(2, 2))",
    "nn.ModuleList([3])", "nn.Sequential(nn.Linear(2, 2), 3)",
    "nn.CrossEntropyLoss(weight=torch.ones(3)).state_dict()", "nn.BCEWithLogitsLoss(pos_weight=torch.ones(3)).state_dict()",
    "nn.CrossEntropyLoss(weight=[1., 2.])", "nn.Parameter(torch.ones(2, dtype=torch.int64))",
    "nn.Linear(2, 2).to(torch.int64)", "nn.Module()(1)",
]
_ACTIVATION_MODULES = ["nn.LeakyReLU()", "nn.LeakyReLU(0.2, True)", "nn.GELU()", "nn.GELU('tanh')", "nn.GELU('x')",
                       "nn.ELU()", "nn.ELU(0.5, inplace=True)", "nn.SiLU()", "nn.SiLU(True)", "nn.Softplus()",
                       "nn.Softplus(2, 10)", "nn.Softmin()", "nn.Softmin(1)", "nn.Tanh()", "nn.Sigmoid()", "nn.ReLU(True)"]
_MODULE_CASES += [m for m in _ACTIVATION_MODULES]
_MODULE_CASES += [f"{m}(torch.tensor([[1., -2., 0.5], [2.5, -0.1, 2.]]) * 1)" for m in _ACTIVATION_MODULES]
_MODULE_CASES += ["nn.Tanh(3)", "nn.Identity(3, foo=4)", "nn.Module(foo=1)"]
_MODULE_CASES += [f"{m}(torch.tensor([1, -2]))" for m in _ACTIVATION_MODULES]
_MODULE_CASES += [f"{m}([1.])" for m in _ACTIVATION_MODULES]
_MODULE_CASES += [f"{m.split('(')[0]}(foo=1)" for m in _ACTIVATION_MODULES]

_MODULE_CASES += [
    '(lambda m: (m.register_forward_hook(lambda mod, i, o: o * 2), m(torch.ones(1, 2)))[1])(nn.Linear(2, 1))',
    '(lambda m: [n for n, _ in m.named_modules()])(nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 1))))',
    "(lambda m: list(m.state_dict(prefix='net.').keys()))(nn.Sequential(nn.Linear(2, 2)))",
    "(lambda m: m.state_dict(keep_vars=True)['0.weight'].requires_grad)(nn.Sequential(nn.Linear(2, 2)))",
    "(lambda m: m.state_dict()['0.weight'].requires_grad)(nn.Sequential(nn.Linear(2, 2)))",
    '(lambda m: (m.zero_grad(), m[0].weight.grad))(nn.Sequential(nn.Linear(2, 2)))',
    '(lambda m: sum(p.numel() for p in m.parameters()))(nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1)))',
    "(lambda m: (setattr(m, 'w', nn.Parameter(torch.ones(2))), [n for n, _ in m.named_parameters()]))(nn.Linear(2, 2))",
    "(lambda m: setattr(m, 'weight', torch.ones(2, 2)))(nn.Linear(2, 2))",
    "(lambda m: m.register_buffer('running', torch.zeros(2)) or list(m.state_dict()))(nn.Linear(2, 2))",
    "(lambda m: m.register_buffer('running', [1]))(nn.Linear(2, 2))",
    "(lambda m: m.add_module('x', 3))(nn.Linear(2, 2))",
    "(lambda m: m.get_submodule('0.1'))(nn.Sequential(nn.Linear(2, 2)))",
    '(lambda m: m.apply(lambda x: None))(nn.Sequential(nn.Linear(2, 2)))',
    'nn.Sequential(nn.Linear(2, 2), nn.ReLU())(torch.ones(3, 2)).shape',
    'nn.Sequential(nn.Linear(2, 2), nn.ReLU())(torch.ones(3, 5))',
    'nn.Sequential(nn.Linear(2, 2), nn.ReLU())(torch.ones(3, 2), torch.ones(1))',
    'nn.Linear(2, 2)(torch.ones(3, 2), torch.ones(1))',
    'nn.Linear(2, 2)()',
    'nn.MSELoss()(torch.ones(2))',
    'nn.MSELoss()(torch.ones(2), torch.ones(2), torch.ones(2))',
    'nn.CrossEntropyLoss()(torch.ones(2, 3))',
    'F.mse_loss(torch.ones(2))',
    'F.relu()',
    'F.linear(torch.ones(2))',
]

_MODULE_CASES += [  # Module.to: devices of a CPU-only build
    "nn.Linear(2, 2).to('cuda')",
    "nn.ReLU().to('cuda')",
    "nn.Linear(2, 2).to('foo')",
    "nn.ReLU().to('foo')",
    "nn.Linear(2, 2).to(device='cuda')",
    "nn.Linear(2, 2).to('cpu', torch.float64).weight.dtype",
    "nn.Linear(2, 2).to(torch.device('cuda'))",
    'nn.Linear(2, 2).to(3)',
    "nn.Linear(2, 2).to('float64')",
    'nn.Linear(2, 2).to(torch.ones(1).double()).weight.dtype',
    'nn.Linear(2, 2).to(dtype=torch.int64)',
    "nn.Linear(2, 2).to(torch.device('cpu')).weight.dtype",
    'nn.Linear(2, 2).cpu().weight.dtype',
    'nn.Linear(2, 2).cuda()',
    'nn.ReLU().cuda()',
]


@pytest.mark.parametrize("code", _MODULE_CASES)
def test_modules(code):
    check(code)


# --- nn.init: keywords, dtypes, errors, zero-element tensors ------------------------------------------------
_INIT_CASES = [
    'nn.init.uniform_(torch.empty(2, 3), a=-1, b=1)',
    'nn.init.uniform_(torch.empty(2, 3), -1, 1)',
    'nn.init.uniform_([1., 2.])',
    'nn.init.uniform_(torch.empty(2, 3, dtype=torch.int64))',
    'nn.init.normal_(torch.empty(2, 3), mean=1, std=0.1)',
    'nn.init.normal_(torch.empty(2, 3), std=-1)',
    'nn.init.constant_(torch.empty(2, 3), 0.5)',
    'nn.init.constant_(torch.empty(2, 3), val=2)',
    'nn.init.constant_([1.], 2)',
    'nn.init.zeros_(torch.empty(2, 3))',
    'nn.init.ones_(torch.empty(2, 3, dtype=torch.int64))',
    'nn.init.eye_(torch.empty(2, 3))',
    'nn.init.eye_(torch.empty(2, 3, 4))',
    'nn.init.eye_(torch.empty(3))',
    'nn.init.kaiming_uniform_(torch.empty(2, 3))',
    "nn.init.kaiming_uniform_(torch.empty(2, 3), a=0.1, mode='fan_out', nonlinearity='relu')",
    "nn.init.kaiming_uniform_(torch.empty(2, 3), mode='bogus')",
    "nn.init.kaiming_uniform_(torch.empty(2, 3), nonlinearity='bogus')",
    'nn.init.kaiming_uniform_(torch.empty(3))',
    'nn.init.kaiming_uniform_(torch.empty(0, 3))',
    "nn.init.kaiming_normal_(torch.empty(2, 3), nonlinearity='tanh')",
    'nn.init.kaiming_normal_(torch.empty(2, 3, 4))',
    'nn.init.xavier_uniform_(torch.empty(2, 3))',
    'nn.init.xavier_uniform_(torch.empty(2, 3), gain=2.)',
    'nn.init.xavier_uniform_(torch.empty(3))',
    'nn.init.xavier_normal_(torch.empty(2, 3))',
    'nn.init.xavier_normal_(torch.empty(2, 3, 2))',
    "nn.init.calculate_gain('relu')",
    "nn.init.calculate_gain('leaky_relu', 0.2)",
    "nn.init.calculate_gain('bogus')",
    "nn.init.calculate_gain('tanh')",
    "nn.init.calculate_gain('selu')",
    'nn.init._calculate_fan_in_and_fan_out(torch.empty(2, 3, 4))',
    'nn.init._calculate_fan_in_and_fan_out(torch.empty(3))',
    'nn.init.uniform_(nn.Parameter(torch.empty(2)))',
    'nn.init.uniform_(torch.empty(2, requires_grad=True) * 1)',
    'nn.init.normal_(torch.empty(2, 3, dtype=torch.float64))',
    'nn.init.zeros_(torch.empty(2, 3), 1)',
    'nn.init.uniform_(torch.empty(2, 3), foo=1)',
    'nn.init.uniform_(torch.empty(2, 3, dtype=torch.float16))',
    'nn.init.normal_(torch.empty(2, 3, dtype=torch.float16))',
    'nn.init.kaiming_uniform_(torch.empty(2, 3, dtype=torch.float16))',
    'nn.init.xavier_normal_(torch.empty(2, 3, dtype=torch.float16))',
    "nn.init.kaiming_uniform_(torch.empty(2, 3), mode='FAN_OUT')",
    'nn.init.kaiming_normal_(torch.empty(2, 3, dtype=torch.int64))',
    'nn.init.xavier_uniform_(torch.empty(2, 3, dtype=torch.int64))',
    'nn.init.normal_(torch.empty(2, 3), std=-1.5)',
    'nn.init.normal_(torch.empty(2, 3, dtype=torch.int64), std=-1.5)',
    'nn.init.eye_([1.])',
    'nn.init.xavier_uniform_(3)',
]


@pytest.mark.parametrize("code", _INIT_CASES)
def test_init(code):
    check(code)


# --- 5. optimizers: construction errors, param groups, state_dict -----------------------------------------------
_P = "[torch.ones(2, requires_grad=True)]"
_OPTIM_CASES = [f"torch.optim.{name}({params}, {kw})"
                for name in ("SGD", "Adam", "AdamW")
                for params in (_P,)
                for kw in ("lr=-1", "lr=-0.0", "lr='a'", "lr=None", "lr=torch.tensor(0.1)", "lr=torch.ones(2)",
                           "lr=0.1, weight_decay=-1", "lr=0.1, eps=-1", "lr=0.1, momentum=-0.5",
                           "lr=0.1, betas=(1.0, 0.9)", "lr=0.1, betas=(0.9, -0.1)", "lr=0.1, betas=(0, 0.9)",
                           "lr=0.1, betas=0.9", "lr=0.1, nesterov=True", "lr=0.1, momentum=0.9, nesterov=True",
                           "lr=0.1, foo=1", "lr=0.1, amsgrad=True", "lr=0.1, maximize=True")]
_OPTIM_CASES += [
    "torch.optim.SGD(torch.ones(1, requires_grad=True), lr=1)",
    "torch.optim.SGD(torch.ones(1, dtype=torch.float64), lr=1)",
    "torch.optim.SGD([], lr=1)", "torch.optim.Adam(iter([]))", "torch.optim.SGD(None, lr=0.1)",
    "torch.optim.SGD(3, lr=0.1)", "torch.optim.SGD([1.0], lr=0.1)", "torch.optim.SGD([np.ones(2)], lr=0.1)",
    "torch.optim.SGD({'a': torch.ones(1, requires_grad=True)}, lr=0.1)",
    "torch.optim.SGD({torch.ones(1, requires_grad=True)}, lr=0.1)",
    "torch.optim.SGD([torch.ones(1, requires_grad=True) * 2], lr=0.1)",
    "torch.optim.SGD([{'params': []}], lr=0.1)", "torch.optim.SGD([{'lr': 0.1}], lr=0.1)",
    "torch.optim.SGD([{'params': torch.ones(1, requires_grad=True), 'momentum': 0.5}], lr=0.1).param_groups",
    "torch.optim.SGD([{'params': [torch.ones(1, requires_grad=True)]}, "
    "{'params': [torch.ones(1, requires_grad=True)], 'lr': 0.5}], lr=0.1).state_dict()",
    "(lambda p: torch.optim.SGD([{'params': [p]}, {'params': [p]}], lr=0.1))(torch.ones(1, requires_grad=True))",
    "(lambda p: torch.optim.SGD([p, p], lr=0.1))(torch.ones(1, requires_grad=True))",
    "torch.optim.SGD(nn.Linear(2, 2).named_parameters(), lr=0.1)",
    "torch.optim.SGD(nn.Linear(2, 2).named_parameters(), lr=0.1).state_dict()",
    "torch.optim.SGD([('w', torch.ones(1, requires_grad=True)), torch.ones(1, requires_grad=True)], lr=0.1)",
    "torch.optim.Adam(nn.Linear(2, 2).parameters(), 0.1, (0.8, 0.9), 1e-6, 0.1, True)",
    "torch.optim.SGD([torch.ones(1, requires_grad=True)], 0.1, 0.9, 0.1, 0.01, False, True)",
]

_OPTIM_CASES += [
    '(lambda p: (lambda o: (p.sum().backward(), o.step(), o.state_dict()))(torch.optim.SGD([p], lr=0.1, momentum=0.9)))(torch.tensor([1., 2.], requires_grad=True))',
    '(lambda p: (lambda o: (p.sum().backward(), o.step(), o.step(), o.state_dict()))(torch.optim.Adam([p], lr=0.1, amsgrad=True)))(torch.tensor([1., 2.], requires_grad=True))',
    '(lambda p: (lambda o: (p.sum().backward(), o.step(), p))(torch.optim.AdamW([p], lr=0.1, maximize=True)))(torch.tensor([1., 2.], requires_grad=True))',
    '(lambda p: (lambda o: (p.sum().backward(), o.step(), p))(torch.optim.SGD([p], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.1)))(torch.tensor([1., 2.], requires_grad=True))',
    '(lambda p: (lambda o: (o.step(), o.state_dict()))(torch.optim.SGD([p], lr=0.1, momentum=0.9)))(torch.tensor([1., 2.], requires_grad=True))',
    '(lambda p: (lambda o: (p.sum().backward(), o.zero_grad(set_to_none=False), p.grad))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], requires_grad=True))',
    '(lambda p: (lambda o: (p.sum().backward(), o.zero_grad(), p.grad))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], requires_grad=True))',
    "(lambda p: (lambda o: o.load_state_dict({'state': {}, 'param_groups': []}))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], requires_grad=True))",
    "(lambda p: (lambda o: o.load_state_dict({'state': {}, 'param_groups': [{'params': [0, 1]}]}))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], requires_grad=True))",
    '(lambda p: (lambda o: o.load_state_dict({}))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], requires_grad=True))',
    "(lambda p: (lambda o: (o.load_state_dict({'state': {0: {'momentum_buffer': torch.ones(2)}}, 'param_groups': [{'params': [0], 'lr': 0.5, 'momentum': 0.9}]}), o.param_groups[0]['lr'], o.state_dict()))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], requires_grad=True))",
    "(lambda p: (lambda o: (o.add_param_group({'params': [torch.ones(1, requires_grad=True)], 'lr': 0.3}), o.state_dict()))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], requires_grad=True))",
    "(lambda p: (lambda o: o.add_param_group({'params': [p]}))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], requires_grad=True))",
    '(lambda p: (lambda o: o.add_param_group([p]))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], requires_grad=True))',
    '(lambda p: (lambda o: o.step(lambda: 3))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], requires_grad=True))',
    "(lambda p: (lambda o: (setattr(p, 'grad', torch.ones(2)), o.step(), p))(torch.optim.SGD([p], lr=torch.tensor(0.5))))(torch.tensor([1., 2.], requires_grad=True))",
    '(lambda p: (lambda o: (p.sum().backward(), o.step(), p))(torch.optim.SGD([p], lr=0.1)))(torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True))',
    '(lambda p: (lambda o: (p.sum().backward(), o.step(), p))(torch.optim.Adam([p], lr=0.1, weight_decay=0.1)))(torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True))',
    "(lambda p: (lambda o: (p.sum().backward(), o.step(), o.state_dict()['param_groups']))(torch.optim.AdamW([p])))(torch.tensor([1., 2.], requires_grad=True))",
    'torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1).defaults',
    'torch.optim.Adam([torch.ones(1, requires_grad=True)]).defaults',
    'torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1).state',
]


@pytest.mark.parametrize("code", _OPTIM_CASES)
def test_optimizers(code):
    check(code)


# --- short training loops with the legacy and keyword options (losses after each step, 4 decimals) -------------
_TRAINING_LOOPS = [
    '(lambda m, o, lf, x, y: [(o.zero_grad(), lf(m(x), y).backward(), o.step(), round(lf(m(x), y).item(), 4))[3] for _ in range(5)])(*(lambda m: (m, torch.optim.SGD(m.parameters(), lr=1e-3, momentum=0.9), nn.MSELoss(size_average=False), torch.linspace(-1, 1, 20).reshape(10, 2), torch.linspace(0, 1, 10).reshape(10, 1)))(nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))))',
    '(lambda m, o, lf, x, y: [(o.zero_grad(), lf(m(x), y).backward(), o.step(), round(lf(m(x), y).item(), 4))[3] for _ in range(5)])(*(lambda m: (m, torch.optim.Adam(m.parameters(), lr=1e-2, amsgrad=True, weight_decay=0.1), nn.CrossEntropyLoss(label_smoothing=0.1, weight=torch.tensor([1., 2., 3.])), torch.linspace(-1, 1, 20).reshape(10, 2), torch.arange(10) % 3))(nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 3))))',
    '(lambda m, o, lf, x, y: [(o.zero_grad(), lf(m(x), y).backward(), o.step(), round(lf(m(x), y).item(), 4))[3] for _ in range(5)])(*(lambda m: (m, torch.optim.AdamW(m.parameters(), lr=1e-2), nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.])), torch.linspace(-1, 1, 20).reshape(10, 2), (torch.arange(10) % 2).float().reshape(10, 1)))(nn.Sequential(nn.Linear(2, 4), nn.LeakyReLU(0.1), nn.Linear(4, 1))))',
    '(lambda m, o, lf, x, y: [(o.zero_grad(), lf(m(x), y).backward(), o.step(), round(lf(m(x), y).item(), 4))[3] for _ in range(5)])(*(lambda m: (m, torch.optim.SGD(m.parameters(), lr=0.1, nesterov=True, momentum=0.5), nn.NLLLoss(reduce=False), torch.linspace(-1, 1, 20).reshape(10, 2), torch.arange(10) % 3))(nn.Sequential(nn.Linear(2, 3), nn.LogSoftmax(dim=1))))',
    '(lambda m, o, lf, x, y: [(o.zero_grad(), lf(m(x), y).sum().backward(), o.step(), round(lf(m(x), y).sum().item(), 4))[3] for _ in range(5)])(*(lambda m: (m, torch.optim.SGD(m.parameters(), lr=0.1, nesterov=True, momentum=0.5), nn.NLLLoss(reduce=False), torch.linspace(-1, 1, 20).reshape(10, 2), torch.arange(10) % 3))(nn.Sequential(nn.Linear(2, 3), nn.LogSoftmax(dim=1))))',
    '(lambda m, o, lf, x, y: [(o.zero_grad(), lf(m(x), y).backward(), o.step(), round(lf(m(x), y).item(), 4))[3] for _ in range(5)])(*(lambda m: (m, torch.optim.SGD(m.parameters(), lr=0.1), nn.BCELoss(size_average=False), torch.linspace(-1, 1, 20).reshape(10, 2), (torch.arange(10) % 2).float().reshape(10, 1)))(nn.Sequential(nn.Linear(2, 4), nn.GELU(), nn.Linear(4, 1), nn.Sigmoid())))',
    "(lambda m, o, lf, x, y: [(o.zero_grad(), lf(m(x), y).backward(), o.step(), round(lf(m(x), y).item(), 4))[3] for _ in range(5)])(*(lambda m: (m, torch.optim.SGD(m.parameters(), lr=0.1), nn.L1Loss(reduction='sum'), torch.linspace(-1, 1, 20).reshape(10, 2), torch.linspace(0, 1, 10).reshape(10, 1)))(nn.Sequential(nn.Linear(2, 4), nn.ELU(), nn.Dropout(0.0), nn.Linear(4, 1))))",
]


@pytest.mark.parametrize("code", _TRAINING_LOOPS)
def test_training_loops(code):
    check(code)


# --- dropout draws torch's bernoulli stream: a seeded dropout zeroes the same elements ---------------------
_DROPOUT_CASES = [
    'F.dropout(torch.linspace(-1, 1, 12).reshape(3, 4))',
    'F.dropout(torch.linspace(-1, 1, 12).reshape(3, 4), 0.3)',
    'F.dropout(torch.linspace(-1, 1, 12).reshape(3, 4), 0.9)',
    'F.dropout(torch.linspace(-1, 1, 12).reshape(3, 4).double(), 0.3)',
    'F.dropout(torch.linspace(-1, 1, 12).reshape(3, 4).half(), 0.3)',
    'F.dropout(torch.linspace(-1, 1, 12).reshape(3, 4).t(), 0.3)',
    'F.dropout(torch.tensor(3.), 0.3)',
    'F.dropout(torch.zeros(0, 3), 0.3)',
    '(F.dropout(torch.ones(5), 0.5), F.dropout(torch.ones(5), 0.5), torch.rand(2))',
    'nn.Dropout(0.25)(torch.linspace(-1, 1, 12).reshape(3, 4))',
    'nn.Dropout(0.25).eval()(torch.linspace(-1, 1, 12).reshape(3, 4))',
    '(lambda x: (lambda y: (y, y.sum().backward(), x.grad))(F.dropout(x, 0.4)))(torch.linspace(-1, 1, 8).requires_grad_())',
    '(lambda x: (lambda y: (y, y.sum().backward(), x.grad))(F.dropout(x * 1, 0.4, inplace=True)))(torch.linspace(-1, 1, 8).requires_grad_())',
    'nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 2))(torch.linspace(-1, 1, 12).reshape(3, 4))',
    'F.dropout(torch.linspace(-1, 1, 24).reshape(2, 3, 4).permute(2, 0, 1), 0.3)',
    'F.dropout(torch.linspace(-1, 1, 24).reshape(2, 3, 4)[:, ::2], 0.3)',
    'F.dropout(torch.linspace(-1, 1, 24).reshape(2, 3, 4).transpose(0, 1)[1:], 0.3)',
    'F.dropout(torch.linspace(-1, 1, 24).reshape(4, 6)[:, 1:], 0.3)',
    'F.dropout(torch.ones(3, 1, 4).transpose(0, 1), 0.3)',
    'F.dropout(torch.ones(1, 3).expand(4, 3), 0.3)',
    'F.dropout(torch.linspace(-1, 1, 24).reshape(2, 3, 4)[:, :, ::2].transpose(1, 2), 0.3)',
]


@pytest.mark.parametrize("code", _DROPOUT_CASES)
def test_dropout_masks(code):
    check(code)


# --- random calls: losses, activations and linear with random shapes, dtypes, keywords and backward -------------
def _random_tensor(rng):
    shape = rng.choice([(), (3,), (2, 3), (3, 2), (2, 3, 2), (0, 3), (1,)])
    base = f"torch.linspace(-2, 2, {int(np.prod(shape))}).reshape({shape!r})"
    kind = rng.choice(["float", "float", "float", "double", "long", "bool"])
    if kind == "bool":
        return f"({base} > 0)"
    if kind == "long":
        return f"({base} * 2).long()"
    if kind == "double":
        return f"{base}.double()"
    if rng.random() < 0.2 and len(shape) == 2:
        base += ".t()"
    return f"{base}.requires_grad_()" if rng.random() < 0.4 else base


def _random_calls(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        a, b = _random_tensor(rng), _random_tensor(rng)
        kw = ""
        if rng.random() < 0.3:
            kw += f", reduction={rng.choice(['mean', 'sum', 'none'])!r}"
        if rng.random() < 0.1:
            kw += f", size_average={rng.choice([True, False])}"
        if rng.random() < 0.1:
            kw += f", reduce={rng.choice([True, False])}"
        kind = rng.choice(["mse", "l1", "bce", "bcel", "ce", "nll", "act", "linear"])
        if kind in ("mse", "l1"):
            code = f"F.{kind}_loss({a}, {b}{kw})"
        elif kind == "bce":
            code = f"F.binary_cross_entropy(({a}).float().sigmoid(), ({b}).float().sigmoid(){kw})"
        elif kind == "bcel":
            code = f"F.binary_cross_entropy_with_logits({a}, ({b}).float().sigmoid(){kw})"
        elif kind in ("ce", "nll"):
            target = rng.choice(["torch.tensor([0, 2])", "torch.tensor([1, 0, 2])", "torch.tensor(1)",
                                 "torch.tensor([0, 1])", "torch.zeros(0).long()", b])
            if rng.random() < 0.2:
                kw += f", ignore_index={rng.choice([0, 1, -100])}"
            if rng.random() < 0.2:
                kw += ", weight=torch.tensor([1., 2., 0.5])"
            if kind == "ce" and rng.random() < 0.2:
                kw += f", label_smoothing={rng.choice([0.1, 0.5])}"
            code = f"F.{'cross_entropy' if kind == 'ce' else 'nll_loss'}({a}, {target}{kw})"
        elif kind == "act":
            code = rng.choice(["F.relu({})", "F.leaky_relu({}, 0.1)", "F.silu({})", "F.elu({})", "F.softplus({})",
                               "F.softmax({}, -1)", "F.log_softmax({}, 0)", "F.softmin({}, -1)", "F.tanh({})",
                               "F.sigmoid({})", "F.dropout({}, 0.0)", "F.dropout({}, training=False)"]).format(a)
        else:
            bias = rng.choice(["", ", torch.tensor([0.5, -0.5])"])
            code = f"F.linear({a}, torch.linspace(-1, 1, 6).reshape(2, 3){bias})"
        yield code
        if "requires_grad_" in code:
            yield f"(lambda l: (l, l.sum().backward()))({code})"


@pytest.mark.parametrize("code", list(_random_calls(0, 400)))
def test_random_calls(code):
    check(code)


# --- 8. where the classes live: PyTorch's files torch/nn/modules/<file>.py -----------------------------------
def _module_classes():
    """Every class gradlab.nn and its files define, with its twin in torch (same name, same file)."""
    seen = {}
    files = sorted(m.__name__.rsplit(".", 1)[1] for m in vars(gradlab.nn.modules).values()
                   if type(m) is type(sys) and m.__name__.startswith("gradlab.nn.modules."))     # (every file)
    for file in files:
        mine = __import__(f"gradlab.nn.modules.{file}", fromlist=["_"])
        for name, cls in vars(mine).items():
            # public classes (helpers of a file are private; an autograd Function is named by its node)
            if isinstance(cls, type) and cls.__module__ == mine.__name__ and not name.startswith("_") and \
                    not issubclass(cls, gradlab.autograd.Function):
                seen[cls] = getattr(torch.nn.modules, file)
    for mine, theirs in ((importlib.import_module("gradlab.nn.parallel.data_parallel"),   # (gradlab loads it at first use)
                          sys.modules["torch.nn.parallel.data_parallel"]),):
        for name, cls in vars(mine).items():
            if isinstance(cls, type) and cls.__module__ == mine.__name__ and not name.startswith("_"):
                seen[cls] = theirs
    for name in gradlab.nn.__all__:
        cls = getattr(gradlab.nn, name)
        if isinstance(cls, type) and issubclass(cls, gradlab.nn.Module):
            seen.setdefault(cls, None)
    return seen


@pytest.mark.parametrize("cls", list(_module_classes()), ids=lambda c: c.__name__)
def test_classes_live_in_torch_files(cls):
    """type(layer) prints torch's path, the file is a real file of that name, pickle finds the class."""
    import inspect
    import pickle
    import pickletools
    twin_file = _module_classes()[cls]
    assert twin_file is not None, f"{cls.__name__} is not defined in a gradlab.nn.modules file"
    twin = getattr(twin_file, cls.__name__)
    assert (cls.__module__.replace("gradlab", "torch"), cls.__qualname__) == (twin.__module__, twin.__qualname__)
    assert repr(cls).replace("gradlab", "torch") == repr(twin)
    assert inspect.getsourcefile(cls).endswith(cls.__module__.replace(".", "/") + ".py")
    names = [[arg for op, arg, _ in pickletools.genops(pickle.dumps(c)) if isinstance(arg, str)] for c in (cls, twin)]
    assert [n.replace("gradlab", "torch") for n in names[0]] == names[1]         # pickled by torch's path
    assert pickle.loads(pickle.dumps(cls)) is cls


def test_modules_package_exports_torch_names():
    """gradlab.nn.modules exports what torch.nn.modules does (of the classes gradlab has)."""
    mine = {n for n in vars(gradlab.nn.modules) if isinstance(getattr(gradlab.nn.modules, n), type)}
    theirs = {n for n in vars(torch.nn.modules) if isinstance(getattr(torch.nn.modules, n), type)}
    assert mine <= theirs
    assert {n for n in gradlab.nn.__all__ if isinstance(getattr(gradlab.nn, n), type)} - {
        "Parameter", "UninitializedParameter", "Buffer", "UninitializedBuffer", "DataParallel"} <= mine


def test_pickled_model_round_trip():
    gradlab.manual_seed(0)
    model = gradlab.nn.Sequential(gradlab.nn.Linear(3, 2), gradlab.nn.ReLU(), gradlab.nn.Flatten(0),
                                  gradlab.nn.Dropout(0.2), gradlab.nn.ModuleList([gradlab.nn.Softmax(0)]))
    import pickle
    copy = pickle.loads(pickle.dumps(model))
    assert repr(copy) == repr(model)
    assert all(gradlab.equal(a, b) for a, b in zip(copy.parameters(), model.parameters()))
    loaded = copy.load_state_dict(model.state_dict())
    assert type(loaded).__module__ == "gradlab.nn.modules.module" and repr(loaded) == "<All keys matched successfully>"
