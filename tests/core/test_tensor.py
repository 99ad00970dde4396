"""Tensor basics: dtype inference and promotion, factories, attributes, is_leaf/requires_grad,
`.data` vs `.detach()`, formatting, torch.Size and dtype printing (torch-parity.md 1.1, 1.12, 4.3-4.8).

Expected values are PyTorch 2.13's (from the parity reference); the `*_torch` tests also run the
same code with real torch when it is installed and compare the printed output.
"""
import contextlib
import inspect
import io
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

import gradlab

ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def run_snippet(module, code):
    """Run `code` with `torch` bound to `module`; return its stdout (addresses normalised)."""
    out = io.StringIO()
    ns = {"torch": module, "np": np}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(out):
            exec(code, ns)
    return ADDRESS.sub("0x…", out.getvalue())


# --- 4.6 dtype inference and promotion -------------------------------------------------------------

PROMOTION = [
    ("torch.tensor([1, 2]) + 2.5", "float32"), ("torch.tensor([1, 2]) * 2", "int64"),
    ("torch.tensor([1, 2]) + True", "int64"), ("torch.tensor([1, 2]) // 2", "int64"),
    ("torch.tensor([1, 2]) % 2", "int64"), ("torch.tensor([1, 2]) ** 2", "int64"),
    ("torch.tensor([1, 2]) / 2", "float32"), ("torch.tensor([1, 2]) // 2.0", "float32"),
    ("torch.tensor([1, 2]) ** -1.0", "float32"), ("torch.tensor([1, 2]) ** 0.5", "float32"),
    ("torch.tensor([1, 2]).sqrt()", "float32"),
    ("torch.tensor([1, 2], dtype=torch.int32) + 5", "int32"),
    ("torch.tensor([1, 2], dtype=torch.int32) + torch.tensor(5)", "int32"),
    ("torch.tensor([1, 2], dtype=torch.int32) + 5.5", "float32"),
    ("torch.tensor([True]) + 1", "int64"), ("torch.tensor([True]) + True", "bool"),
    ("torch.ones(2) + 1", "float32"), ("torch.ones(2) + torch.tensor([1, 2])", "float32"),
    ("torch.tensor([1, 2]) * torch.ones(2)", "float32"),
    ("torch.ones(2) + torch.tensor(1., dtype=torch.float64)", "float32"),
    ("torch.ones(2) + torch.ones(2, dtype=torch.float64)", "float64"),
    ("torch.ones(2, dtype=torch.float16) + 1.5", "float16"),
    ("torch.ones(2, dtype=torch.float16) * torch.ones(2)", "float32"),
    ("torch.ones(2, dtype=torch.float16) + torch.tensor([1, 2])", "float16"),
    ("torch.tensor([1, 2], dtype=torch.uint8) + torch.tensor([1, 2], dtype=torch.int8)", "int16"),
    ("1 - torch.tensor([1, 2])", "int64"), ("2.5 - torch.tensor([1, 2])", "float32"),
    ("2 ** torch.tensor([1, 2])", "int64"), ("2.0 ** torch.tensor([1, 2])", "float32"),
    ("torch.tensor(3) * 2.5", "float32"),
    ("torch.tensor(3) + torch.tensor(2.5, dtype=torch.float64)", "float64"),
    ("torch.ones(2) > 1", "bool"), ("torch.tensor([1, 2]) == 2", "bool"),
    ("torch.tensor([1, 2]).sum()", "int64"),
]


@pytest.mark.parametrize("expr, dtype", PROMOTION, ids=[p[0] for p in PROMOTION])
def test_promotion(expr, dtype):
    assert eval(expr, {"torch": gradlab}).dtype is getattr(gradlab, dtype)


@pytest.mark.torch
def test_promotion_torch_agrees():
    torch = pytest.importorskip("torch")
    for expr, dtype in PROMOTION:
        assert str(eval(expr, {"torch": torch}).dtype) == "torch." + dtype, expr


INFERENCE = [
    ("1", "int64", ()), ("1.0", "float32", ()), ("True", "bool", ()), ("[1, 2]", "int64", (2,)),
    ("[1., 2]", "float32", (2,)), ("[True, False]", "bool", (2,)), ("[True, 2]", "int64", (2,)),
    ("[1, 2.5]", "float32", (2,)), ("1+2j", "complex64", ()), ("[np.float64(1.5)]", "float64", (1,)),
    ("np.array([1., 2.])", "float64", (2,)), ("np.array([1, 2], dtype=np.int32)", "int32", (2,)),
    ("[[1, 2], [3, 4]]", "int64", (2, 2)), ("[]", "float32", (0,)), ("np.float32(2.0)", "float32", ()),
    ("[np.int32(3)]", "int32", (1,)), ("[[1.5]]", "float32", (1, 1)),
]


@pytest.mark.parametrize("data, dtype, shape", INFERENCE, ids=[i[0] for i in INFERENCE])
def test_inference_from_python_data(data, dtype, shape):
    t = gradlab.tensor(eval(data, {"np": np}))
    assert t.dtype is getattr(gradlab, dtype)
    assert t.shape == shape and isinstance(t.shape, gradlab.Size)
    assert t.is_leaf and not t.requires_grad


def test_explicit_dtype_converts_python_numbers_directly():
    # float64 must not pass through float32: 1e-4 stays exactly 1e-4
    t = gradlab.tensor([1e-4, 0.1], dtype=gradlab.float64)
    assert t.tolist() == [1e-4, 0.1]
    assert repr(t) == "tensor([0.0001, 0.1000], dtype=torch.float64)"   # float32 would print 1.0000e-04
    assert gradlab.tensor([1, 2], dtype=gradlab.float32).tolist() == [1.0, 2.0]
    assert gradlab.tensor(2.5, dtype=gradlab.int64).item() == 2


def test_float32_storage_item_is_exact_double():
    assert gradlab.tensor(0.1).item() == 0.10000000149011612
    assert gradlab.tensor(1 / 3).item() == 0.3333333432674408
    assert gradlab.tensor(5).item() == 5 and isinstance(gradlab.tensor(5).item(), int)
    assert gradlab.tensor(True).item() is True
    assert gradlab.from_numpy(np.array([1., 2.])).dtype is gradlab.float64


# --- 4.7 factories -----------------------------------------------------------------------------------

FACTORIES = [
    ("torch.ones(2)", "float32", (2,)), ("torch.zeros(2, 3)", "float32", (2, 3)),
    ("torch.ones((2, 3))", "float32", (2, 3)), ("torch.ones([2, 3])", "float32", (2, 3)),
    ("torch.zeros(())", "float32", ()), ("torch.ones(torch.Size([2]))", "float32", (2,)),
    ("torch.empty(2)", "float32", (2,)), ("torch.full((2,), 7)", "int64", (2,)),
    ("torch.full((2,), 7.)", "float32", (2,)), ("torch.full((2,), True)", "bool", (2,)),
    ("torch.arange(5)", "int64", (5,)), ("torch.arange(5.)", "float32", (5,)),
    ("torch.arange(0, 1, 0.25)", "float32", (4,)), ("torch.arange(1, 4)", "int64", (3,)),
    ("torch.linspace(0, 1, 5)", "float32", (5,)), ("torch.eye(2)", "float32", (2, 2)),
    ("torch.eye(2, 3)", "float32", (2, 3)), ("torch.rand(2)", "float32", (2,)),
    ("torch.randn(())", "float32", ()), ("torch.randn(2, 3)", "float32", (2, 3)),
    ("torch.randn((2, 3))", "float32", (2, 3)), ("torch.randint(10, (3,))", "int64", (3,)),
    ("torch.randint(3, 10, (3,))", "int64", (3,)), ("torch.ones(2, dtype=torch.long)", "int64", (2,)),
    ("torch.arange(3, dtype=torch.float64)", "float64", (3,)),
    ("torch.ones_like(torch.ones(2, dtype=torch.float64))", "float64", (2,)),
    ("torch.zeros_like(torch.ones(2, dtype=torch.float64))", "float64", (2,)),
    ("torch.rand_like(torch.ones(2, dtype=torch.float64))", "float64", (2,)),
    ("torch.randn_like(torch.ones(2, dtype=torch.float64))", "float64", (2,)),
    ("torch.empty_like(torch.ones(2, dtype=torch.float64))", "float64", (2,)),
    ("torch.ones_like(torch.ones(2, dtype=torch.float64), dtype=torch.float32)", "float32", (2,)),
    ("torch.full_like(torch.ones(2, 2), 3)", "float32", (2, 2)),
    ("torch.normal(0., 1., (2,))", "float32", (2,)),
]


@pytest.mark.parametrize("expr, dtype, shape", FACTORIES, ids=[f[0] for f in FACTORIES])
def test_factory_dtype_and_shape(expr, dtype, shape):
    t = eval(expr, {"torch": gradlab})
    assert t.dtype is getattr(gradlab, dtype)
    assert tuple(t.shape) == shape
    assert t.is_leaf and not t.requires_grad and t.grad_fn is None


@pytest.mark.torch
def test_factories_torch_agrees():
    torch = pytest.importorskip("torch")
    for expr, dtype, shape in FACTORIES:
        t = eval(expr, {"torch": torch})
        assert (str(t.dtype), tuple(t.shape)) == ("torch." + dtype, shape), expr


def test_factory_values_print_like_torch():
    ns = {"torch": gradlab}
    assert repr(eval("torch.arange(0, 1, 0.25)", ns)) == "tensor([0.0000, 0.2500, 0.5000, 0.7500])"
    assert repr(eval("torch.arange(10, 0, -3)", ns)) == "tensor([10,  7,  4,  1])"
    assert repr(eval("torch.linspace(-1, 1, 3)", ns)) == "tensor([-1.,  0.,  1.])"
    assert repr(eval("torch.eye(2, 3)", ns)) == "tensor([[1., 0., 0.],\n        [0., 1., 0.]])"
    assert repr(eval("torch.full((2, 2), 1.5, requires_grad=True)", ns)) == \
        "tensor([[1.5000, 1.5000],\n        [1.5000, 1.5000]], requires_grad=True)"
    assert repr(eval("torch.ones(2, requires_grad=True)", ns)) == "tensor([1., 1.], requires_grad=True)"


KEYWORD_ONLY = {
    "tensor": ["dtype", "device", "requires_grad"], "ones": ["dtype", "device", "requires_grad"],
    "zeros": ["dtype", "requires_grad"], "empty": ["dtype", "requires_grad"],
    "rand": ["generator", "dtype", "requires_grad"], "randn": ["generator", "dtype", "requires_grad"],
    "randint": ["generator", "dtype", "requires_grad"], "arange": ["dtype", "requires_grad"],
    "linspace": ["dtype", "requires_grad"], "full": ["dtype", "requires_grad"], "eye": ["dtype", "requires_grad"],
    "ones_like": ["dtype", "requires_grad"], "zeros_like": ["dtype", "requires_grad"],
}


@pytest.mark.parametrize("name", sorted(KEYWORD_ONLY))
def test_factory_signatures(name):
    params = inspect.signature(getattr(gradlab, name)).parameters
    for kw in KEYWORD_ONLY[name]:
        assert params[kw].kind is inspect.Parameter.KEYWORD_ONLY, (name, kw)
    assert params["requires_grad"].default is False


def test_requires_grad_factories_and_no_grad():
    for make in (lambda: gradlab.ones(2, requires_grad=True), lambda: gradlab.randn(2, requires_grad=True),
                 lambda: gradlab.tensor([1., 2.], requires_grad=True), lambda: gradlab.zeros(2, requires_grad=True)):
        t = make()
        assert t.requires_grad and t.is_leaf and t.grad is None
    with gradlab.no_grad():
        t = gradlab.ones(2, requires_grad=True)
    assert t.requires_grad and t.is_leaf and repr(t) == "tensor([1., 1.], requires_grad=True)"


# --- 4.8 attributes, 1.12 printed objects --------------------------------------------------------------

def test_attributes():
    t = gradlab.ones(2, 3)
    assert t.shape == (2, 3) and t.size() == (2, 3) and t.size(0) == 2 and t.size(-1) == 3
    assert t.ndim == 2 and t.dim() == 2 and t.numel() == 6
    assert t.dtype is gradlab.float32 and t.dtype is gradlab.float
    assert repr(t.device) == "device(type='cpu')" and str(t.device) == "cpu"
    assert t.requires_grad is False and t.is_leaf is True and t.grad is None and t.grad_fn is None
    assert t.retains_grad is False and t._version == 0 and t.output_nr == 0
    assert t.tolist() == [[1.0] * 3] * 2
    assert isinstance(t.numpy(), np.ndarray) and repr(t.numpy()) == \
        "array([[1., 1., 1.],\n       [1., 1., 1.]], dtype=float32)"
    assert np.asarray(t).shape == (2, 3)
    assert t.requires_grad_() is t and t.requires_grad
    assert t.requires_grad_(False) is t and not t.requires_grad
    t.requires_grad = True
    assert t.requires_grad


def test_type_strings():
    assert gradlab.ones(2).type() == "torch.FloatTensor"
    assert gradlab.tensor(1).type() == "torch.LongTensor"
    assert gradlab.ones(2).double().type() == "torch.DoubleTensor"
    assert gradlab.ones(2, dtype=gradlab.int32).type() == "torch.IntTensor"
    assert gradlab.tensor([True]).type() == "torch.BoolTensor"


def test_size_and_dtype_printing():
    assert repr(gradlab.ones(2, 3).shape) == str(gradlab.ones(2, 3).shape) == "torch.Size([2, 3])"
    assert repr(gradlab.ones(()).shape) == "torch.Size([])"
    s = gradlab.ones(2, 3, 4).shape
    assert isinstance(s[1:], gradlab.Size) and repr(s[1:]) == "torch.Size([3, 4])"
    assert s[0] == 2 and s == (2, 3, 4) and s.numel() == 24
    assert repr(s + (5,)) == "torch.Size([2, 3, 4, 5])"
    names = {"float32": "float32", "float": "float32", "double": "float64", "float64": "float64",
             "half": "float16", "float16": "float16", "long": "int64", "int64": "int64", "int": "int32",
             "int32": "int32", "bool": "bool", "uint8": "uint8", "int16": "int16", "int8": "int8",
             "short": "int16", "complex64": "complex64"}
    for attr, name in names.items():
        assert repr(getattr(gradlab, attr)) == str(getattr(gradlab, attr)) == "torch." + name
    assert gradlab.long is gradlab.int64 and gradlab.double is gradlab.float64
    assert gradlab.get_default_dtype() is gradlab.float32
    assert gradlab.float32.is_floating_point and not gradlab.int64.is_floating_point


def test_format_of_0d_and_nd_tensors():
    assert f"{gradlab.tensor(2.5, requires_grad=True)}" == "2.5"
    assert f"{gradlab.tensor(3.)}" == "3.0"
    assert f"{gradlab.tensor(3)}" == "3"
    assert f"{gradlab.tensor(True)}" == "True"
    assert f"{gradlab.tensor(2.5):.2f}" == "2.50"
    assert "{}".format(gradlab.tensor(1.5)) == "1.5"
    assert f"{gradlab.ones(2)}" == str(gradlab.ones(2)) == "tensor([1., 1.])"
    assert "%s" % gradlab.ones(1) == "tensor([1.])"
    for spec in (".2f", ">5", "s"):
        with pytest.raises(TypeError, match=r"^unsupported format string passed to Tensor.__format__$"):
            format(gradlab.ones(2), spec)


def test_containers_use_repr_unchanged():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print((gradlab.ones(2, 2),))
    assert out.getvalue() == "(tensor([[1., 1.],\n        [1., 1.]]),)\n"


# --- 4.3 is_leaf / requires_grad -------------------------------------------------------------------------

def test_is_leaf_requires_grad_table():
    x = gradlab.ones(2, requires_grad=True)
    c = gradlab.ones(2)
    rows = {
        "factory": (gradlab.ones(2), True, False),
        "factory requires_grad": (x, True, True),
        "op on constants": (c * 2, True, False),
        "op with grad input": (x * 2, False, True),
        "detach": (x.detach(), True, False),
        "data": (x.data, True, False),
    }
    with gradlab.no_grad():
        rows["no_grad"] = (x * 2, True, False)
    with gradlab.set_grad_enabled(False):
        rows["set_grad_enabled(False)"] = (x * 2, True, False)
    with gradlab.inference_mode():
        rows["inference_mode"] = (x * 2, True, False)
    for name, (t, leaf, req) in rows.items():
        assert (t.is_leaf, t.requires_grad) == (leaf, req), name
        assert (t.grad_fn is None) == leaf, name
    y = x * 2
    assert y.requires_grad_() is y and y.requires_grad_(True) is y and not y.is_leaf


# --- 4.4 data vs detach -------------------------------------------------------------------------------

def test_data_and_detach_share_storage():
    x = gradlab.ones(2, requires_grad=True)
    for alias in (x.detach(), x.data):
        assert alias.data_ptr() == x.data_ptr()
        assert not alias.requires_grad and alias.is_leaf and alias.grad_fn is None
        assert repr(alias) == "tensor([1., 1.])"
    y = x * 2
    assert repr(y.detach()) == repr(y.data) == "tensor([2., 2.])"
    x.data = gradlab.zeros(2)
    assert repr(x) == "tensor([0., 0.], requires_grad=True)"


def test_version_counter_through_views_detach_and_data():
    t = gradlab.ones(3)
    assert t._version == 0
    t.add_(1)
    assert t._version == 1
    t[0] = 3
    assert t._version == 2
    t.detach().mul_(2)
    assert t._version == 3
    t[1:].add_(1)
    assert t._version == 4
    t.data.add_(1)              # .data does not share the counter
    assert t._version == 4
    t += 1
    t.zero_()
    t.fill_(2)
    assert t._version == 7 and repr(t) == "tensor([2., 2., 2.])"


def test_detach_vs_data_example():
    # torch-parity.md 4.4: zero q = p.exp() through an alias, then backward
    p = gradlab.ones(3, requires_grad=True)
    q = p.exp()
    q.detach().zero_()
    with pytest.raises(RuntimeError, match="which is output 0 of Exp, is at version 1; expected version 0"):
        q.sum().backward()
    p = gradlab.ones(3, requires_grad=True)
    q = p.exp()
    q.data.zero_()
    q.sum().backward()
    assert repr(p.grad) == "tensor([0., 0., 0.])" and q._version == 0


# --- parity snippets (printed output compared with torch) ------------------------------------------------

SNIPPETS = [
    """
t = torch.ones(2, 3)
print(t.shape, t.size(), t.size(0), t.ndim, t.dim(), t.numel(), t.dtype, t.device, t.type(), t.tolist())
print(torch.tensor(0.1).item(), torch.tensor(1/3).item(), torch.ones(2).numpy())
print(f"{torch.tensor(2.5, requires_grad=True)}", f"{torch.tensor(3)}", f"{torch.tensor(2.5):.3f}")
""",
    """
for d in [1, 1.0, True, [1, 2], [1., 2], [True, 2], 1+2j, [np.float64(1.5)], np.array([1, 2], dtype=np.int32), []]:
    t = torch.tensor(d); print(t.dtype, t.shape, t)
""",
    """
print(torch.arange(0, 1, 0.25), torch.linspace(0, 1, 5), torch.eye(2, 3), torch.full((2,), 7), torch.arange(10, 0, -3))
print(torch.ones(2, requires_grad=True) * 2, torch.ones(2, dtype=torch.float64, requires_grad=True).sum())
""",
    """
x = torch.ones(2, requires_grad=True); y = x * 2
print(x.detach(), x.data, y.detach(), y.data, y.data.is_leaf, y.detach().requires_grad)
t = torch.ones(2); v = [t._version]; t.add_(1); v.append(t._version); t[0] = 3; v.append(t._version)
t.detach().mul_(2); v.append(t._version); t.data.add_(1); v.append(t._version); print(v, t)
""",
    """
from IPython.lib.pretty import pretty
print(pretty(torch.ones(2).shape), pretty(torch.float64), pretty((torch.ones(2, 2), torch.tensor(1.))))
""",
]


@pytest.mark.torch
@pytest.mark.parametrize("code", SNIPPETS)
def test_snippet_prints_like_torch(code):
    torch = pytest.importorskip("torch")
    assert run_snippet(gradlab, code) == run_snippet(torch, code)


# --- import hygiene ------------------------------------------------------------------------------------------

def test_import_pulls_in_only_numpy():
    code = ("import sys; import gradlab; import gradlab as torch; "
            "x = torch.ones(2, requires_grad=True); (x * x).sum().backward(); repr(x.grad); "
            "bad = [m for m in ('torch', 'graphviz', 'ipywidgets', 'matplotlib', 'IPython', 'PIL', 'scipy') "
            "if m in sys.modules]; print(bad)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
