"""Small names against live PyTorch: torch.binary_cross_entropy_with_logits (the C function: int reduction,
broadcasting), F.pdist and F.native_channel_shuffle (torch's C functions under nn.functional), nn.Container
(deprecated: its FutureWarning) and nn.SyncBatchNorm as PyTorch's CPU build runs it (no process group:
a batch norm of any input of 2 or more dims; convert_sync_batchnorm). Generated inputs over dtypes, shapes
and arguments; printed results, dtypes, gradients, grad_fn names, exceptions and warnings compared."""
import warnings
import zlib

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _show(obj):
    if isinstance(obj, (torch.Tensor, gradlab.Tensor)):
        return repr(obj) + f" {obj.dtype} {tuple(obj.shape)}"
    if isinstance(obj, (tuple, list)):
        return type(obj).__name__ + "(" + ", ".join(_show(o) for o in obj) + ")"
    if isinstance(obj, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in obj.items()) + "}"
    return repr(obj)


def _outcome(fn):
    try:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            result = fn()
        return "ok", _show(result), [(x.category.__name__, str(x.message)) for x in w]
    except Exception as e:  # noqa: BLE001  (the exception is the result compared)
        return type(e).__name__, str(e), []


def _check(call, *arrays, requires_grad=()):
    """call(T, *tensors) under torch and gradlab; tensors whose index is in requires_grad require grad, and
    their gradients (for a fixed cotangent) are compared too."""
    def run(T):
        ts = [T.tensor(a, requires_grad=i in requires_grad) for i, a in enumerate(arrays)]

        def go():
            out = call(T, *ts)
            extra = []
            if isinstance(out, (torch.Tensor, gradlab.Tensor)):
                extra.append(out.grad_fn.name() if out.grad_fn is not None else None)
                if out.requires_grad and out.dtype.is_floating_point:
                    # (a cotangent of varied values: the gradient of a plain sum is 0 for a batch norm,
                    # where the rounding noise left is not what is compared)
                    cot = T.arange(out.numel(), dtype=out.dtype).reshape(out.shape).cos()
                    grads = T.autograd.grad(out, [ts[i] for i in requires_grad], cot, allow_unused=True)
                    extra.append(list(grads))
            return out, extra
        return _outcome(go)
    expected, got = run(torch), run(gradlab)
    assert got == expected, f"\ngradlab: {got}\ntorch:   {expected}"


def _rng(*parts):
    return np.random.default_rng(zlib.crc32(repr(parts).encode()))


# --- torch.binary_cross_entropy_with_logits ----------------------------------------------------------------
BCE_SHAPES = [((3, 4), (3, 4)), ((3, 1), (3, 4)), ((4,), (3, 4)), ((), (2,)), ((3, 4), (3, 1)), ((2, 4), (3, 4)),
              ((0, 3), (0, 3)), ((2, 3), (2, 3))]


@pytest.mark.parametrize("shapes", BCE_SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("reduction", [None, 0, 1, 2, 3, -1])
def test_binary_cross_entropy_with_logits(shapes, dtype, reduction):
    rng = _rng("bce", shapes, dtype, reduction)
    x = rng.standard_normal(shapes[0]).astype(dtype)
    y = rng.random(shapes[1]).astype(dtype)
    kw = {} if reduction is None else {"reduction": reduction}
    _check(lambda T, a, b: T.binary_cross_entropy_with_logits(a, b, **kw), x, y, requires_grad=(0,))
    _check(lambda T, a, b: T.binary_cross_entropy_with_logits(a, b, **kw), x, y, requires_grad=(0, 1))
    w = rng.random(shapes[1][-1:]).astype(dtype) if shapes[1] else rng.random(()).astype(dtype)
    _check(lambda T, a, b, c: T.binary_cross_entropy_with_logits(a, b, c, **kw), x, y, w, requires_grad=(0,))
    _check(lambda T, a, b, c: T.binary_cross_entropy_with_logits(a, b, pos_weight=c, **kw), x, y, w,
           requires_grad=(0,))
    _check(lambda T, a, b, c: T.binary_cross_entropy_with_logits(a, b, c, c * 2, **kw), x, y, w, requires_grad=(0,))


def test_binary_cross_entropy_with_logits_arguments():
    rng = _rng("bce-args")
    x, y = rng.standard_normal((3, 4)).astype("float32"), rng.random((3, 4)).astype("float32")
    B = "binary_cross_entropy_with_logits"
    cases = [
        lambda T, a, b: getattr(T, B)(a, b, reduction="mean"),
        lambda T, a, b: getattr(T, B)(a, b, size_average=True),
        lambda T, a, b: getattr(T, B)(a),
        lambda T, a, b: getattr(T, B)(a, 1.0),
        lambda T, a, b: getattr(T, B)(a, b, T.ones(3)),
        lambda T, a, b: getattr(T, B)(a, b, pos_weight=T.ones(3)),
        lambda T, a, b: getattr(T, B)(a, b.double()),
        lambda T, a, b: getattr(T, B)(a.double(), b),
        lambda T, a, b: getattr(T, B)(a, b.long()),
        lambda T, a, b: getattr(T, B)(a, b > 0.5),
        lambda T, a, b: getattr(T, B)(a.long(), b.long()),
        lambda T, a, b: getattr(T, B)(a, b, None, None, 1),
        lambda T, a, b: getattr(T, B)(input=a, target=b, reduction=2),
        lambda T, a, b: getattr(T, B)(a.t(), b.t().contiguous(), reduction=0),
        lambda T, a, b: getattr(T, B)(a[:, ::2], b[:, 1::2], reduction=0),
    ]
    for case in cases:
        _check(case, x, y, requires_grad=(0,))


# --- F.pdist, torch.pdist -----------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 3), (1, 5), (5, 1), (0, 3), (3, 0), (6, 2)])
@pytest.mark.parametrize("p", [2, 1, 0, 3, 0.5, float("inf")])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pdist(shape, p, dtype):
    x = _rng("pdist", shape, p, dtype).standard_normal(shape).astype(dtype)
    # (no backward where there are no pairs or no columns: PyTorch's _pdist_backward crashes the process there)
    rg = (0,) if shape[0] > 1 and shape[1] > 0 else ()
    _check(lambda T, a: T.nn.functional.pdist(a, p), x, requires_grad=rg)
    _check(lambda T, a: T.nn.functional.pdist(input=a, p=p), x)
    _check(lambda T, a: T.pdist(a, p), x, requires_grad=rg)
    _check(lambda T, a: T.nn.functional.pdist(a.t().contiguous().t(), p), x, requires_grad=rg)


def test_pdist_errors():
    x = _rng("pdist-errors").standard_normal((3, 4))
    for case in [lambda T, a: T.nn.functional.pdist(a, -1), lambda T, a: T.nn.functional.pdist(a[0]),
                 lambda T, a: T.nn.functional.pdist(a.long()), lambda T, a: T.nn.functional.pdist(a, "a"),
                 lambda T, a: T.nn.functional.pdist(), lambda T, a: T.nn.functional.pdist(a, 2, 3),
                 lambda T, a: T.nn.functional.pdist(a.unsqueeze(0)), lambda T, a: T.nn.functional.pdist(a.int()),
                 lambda T, a: T.nn.functional.pdist(a, p=None)]:
        _check(case, x)


# --- F.native_channel_shuffle, torch.native_channel_shuffle ------------------------------------------------
@pytest.mark.parametrize("shape", [(1, 6, 2, 2), (2, 4, 3), (2, 6), (1, 6, 1, 2, 2), (0, 4, 2), (2, 0, 2)])
@pytest.mark.parametrize("groups", [1, 2, 3, 4, 0, -1])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
def test_native_channel_shuffle(shape, groups, dtype):
    x = _rng("ncs", shape, groups, dtype).standard_normal(shape)
    x = (x > 0) if dtype == "bool" else (x * 10).astype(dtype)
    rg = (0,) if dtype.startswith("float") else ()
    _check(lambda T, a: T.nn.functional.native_channel_shuffle(a, groups), x, requires_grad=rg)
    _check(lambda T, a: T.native_channel_shuffle(a, groups), x)
    _check(lambda T, a: T.nn.functional.native_channel_shuffle(input=a, groups=groups), x)


def test_native_channel_shuffle_no_derivative():
    x = _rng("ncs-grad").standard_normal((1, 4, 2))
    _check(lambda T, a: T.autograd.grad(T.nn.functional.native_channel_shuffle(a, 2).sum(), a), x, requires_grad=(0,))
    for case in [lambda T, a: T.nn.functional.native_channel_shuffle(a, "a"),
                 lambda T, a: T.nn.functional.native_channel_shuffle(a),
                 lambda T, a: T.nn.functional.native_channel_shuffle(a, 2.0)]:
        _check(case, x)


# --- nn.Container --------------------------------------------------------------------------------------------
def test_container():
    cases = [
        lambda T: T.nn.Container(),
        lambda T: T.nn.Container(a=T.nn.ReLU(), b=T.nn.Tanh()),
        lambda T: T.nn.Container(a=3),
        lambda T: T.nn.Container(T.nn.ReLU()),
        lambda T: T.nn.Container()(T.ones(2)),
        lambda T: isinstance(T.nn.Container(), T.nn.Module),
        lambda T: [n for n, _ in T.nn.Container(x=T.nn.ReLU(), y=T.nn.Container(z=T.nn.Tanh())).named_modules()],
        lambda T: T.nn.Container.__name__,
        lambda T: type("Sub", (T.nn.Container,), {"forward": lambda self, x: x * 2})()(T.ones(2)),
        lambda T: str(T.nn.Container(a=T.nn.Linear(2, 3))),
    ]
    for case in cases:
        _check(case)


# --- nn.SyncBatchNorm on a CPU build -----------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 5), (2, 3, 2, 2), (2, 3, 1, 2, 2), (1, 3), (3,), (0, 3), (2, 0)])
@pytest.mark.parametrize("options", [{}, {"momentum": None}, {"affine": False}, {"track_running_stats": False},
                                     {"eps": 0.1, "momentum": 0.5}, {"bias": False}])
def test_sync_batch_norm(shape, options):
    x = _rng("sbn", shape, repr(options)).standard_normal(shape).astype("float32")
    n = shape[1] if len(shape) > 1 else 3

    def run(T, a, train=True):
        T.manual_seed(0)
        m = T.nn.SyncBatchNorm(n, **options)
        m.train(train)
        out = m(a)
        out2 = m(a * 2)
        return (out, out2, m.running_mean, m.running_var, m.num_batches_tracked, repr(m),
                [k for k in m.state_dict()], m.process_group)
    _check(lambda T, a: run(T, a), x, requires_grad=(0,))
    _check(lambda T, a: run(T, a, train=False), x, requires_grad=(0,))
    _check(lambda T, a: T.nn.SyncBatchNorm(n, **options)(a), x, requires_grad=(0,))
    _check(lambda T, a: T.nn.SyncBatchNorm(n, **options).double()(a.double()), x, requires_grad=(0,))


def test_sync_batch_norm_construction_and_convert():
    cases = [
        lambda T: T.nn.SyncBatchNorm(4, process_group="group"),
        lambda T: T.nn.SyncBatchNorm(4, dtype=T.float64).weight,
        lambda T: T.nn.SyncBatchNorm(),
        lambda T: T.nn.SyncBatchNorm(4)(T.ones(2, 5)),
        lambda T: T.nn.SyncBatchNorm(4)(T.ones(2, 4, dtype=T.int64)),
        lambda T: isinstance(T.nn.SyncBatchNorm(2), T.nn.modules.batchnorm._BatchNorm),
    ]
    for case in cases:
        _check(case)

    def convert(T):
        T.manual_seed(0)
        net = T.nn.Sequential(T.nn.Linear(3, 4), T.nn.BatchNorm1d(4, momentum=0.3),
                              T.nn.Sequential(T.nn.BatchNorm2d(2, affine=False).eval(), T.nn.ReLU()))
        net[1].running_mean.add_(1)
        conv = T.nn.SyncBatchNorm.convert_sync_batchnorm(net, process_group=None)
        single = T.nn.SyncBatchNorm.convert_sync_batchnorm(T.nn.BatchNorm3d(5, eps=0.01))
        return (repr(conv), conv is net, conv[1].weight is net[1].weight, conv[1].running_mean,
                conv[2][0].training, repr(single), conv(T.ones(2, 3)), type(single).__name__,
                T.nn.SyncBatchNorm.convert_sync_batchnorm(T.nn.ReLU()))
    _check(convert)
