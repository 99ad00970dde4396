"""The order of PyTorch's checks, and the last differences of the errors/values/printing/dtypes/indexing areas
(issue 14's fuzzer groups), each widened into generated cases: every case runs under gradlab and under torch,
and the outcomes (value as printed, dtype, requires_grad, grad_fn name, or the exception's type and message,
and the warnings given) must be the same.
"""
import itertools
import warnings

import numpy as np
import pytest

import gradlab
from test_findings_parity import _describe

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def outcome(module, code):
    """What running code gives: `r` described, or the exception; and the warnings, in order."""
    namespace = {"torch": module, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
            result = _describe(namespace["r"])
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            result = f"{type(error).__name__}: {str(error).split(chr(10) + 'Exception raised from ')[0]}"
    return result, [(w.category.__name__, str(w.message)) for w in caught]


# indexing: PyTorch reads the whole key (slices, selects) before it looks at the index tensors' dtypes, and
# warns of a uint8 mask only when its index op runs; an empty broadcast index reads nothing (no bounds error)
_BAD = ["torch.tensor([0, 1], dtype=torch.int16)", "torch.tensor([0., 1.])", "torch.tensor([1], dtype=torch.uint8)",
        "torch.tensor([0, 1])"]
_BASIC = ["-1:-1:-1", "::0", "5", "-7", "1:", "None", "..."]
INDEX_CASES = [f"a = torch.arange(24.).reshape(2, 3, 4); r = a[{x}]"
               for i, j in itertools.product(_BAD, _BASIC)
               for x in (f"{i}, {j}", f"{j}, {i}", f"1::1, {i}, {j}", f"{i}, :, {j}", f"..., {i}, {j}")]
INDEX_CASES += [f"a = torch.arange(24.).reshape(2, 3, 4); a[{x}] = {v}; r = a"
                for i, j in itertools.product(_BAD, _BASIC) for x in (f"{i}, {j}", f"{j}, {i}", f"{i}, :, {j}")
                for v in ("0.5", "a[0, 0]")]
# the value overlapping the tensor is refused before the index's dtype
INDEX_CASES += [f"a = torch.arange(12.).reshape(3, 4); a[{i}] = {v}; r = a" for i in _BAD
                for v in ("a[0]", "a[0, 0]", "a[:2]", "a.clone()[0]")]
_EMPTY = ["torch.zeros(0, 3, dtype=torch.int64)", "torch.zeros(2, 0)", "torch.zeros(0, 0, 2)"]
_EMPTY_KEYS = ["[0], torch.tensor(False)", "[0], torch.tensor(False), -1", "[0], []", "torch.tensor(False), [0]",
               "[], [0]", "[1], []", "[0], torch.tensor(True)", "[0], [0]", "[7], []", "[0]", ":, [5]",
               "[0], torch.zeros(0, dtype=torch.long)", "torch.tensor([0], dtype=torch.int32), torch.tensor(False), "
               "np.array([0])", "[0, 0], [[]]"]
INDEX_CASES += [f"a = {e}; r = a[{k}]" for e in _EMPTY for k in _EMPTY_KEYS]
INDEX_CASES += [f"a = {e}; a[{k}] = 1; r = a" for e in _EMPTY for k in _EMPTY_KEYS]

# a uint8 mask: warned of when index_put_'s index op reads it, after the dtypes; one mask and one value go to
# masked_fill_ instead, which refuses uint8 (canDispatchToMaskedFill checks the mask's shape first)
_U8 = {"U": "torch.tensor([1, 0, 1], dtype=torch.uint8)", "S": "torch.tensor([1, 0], dtype=torch.uint8)"}
_U8_KEYS = ["U", "S", "U, S", "S, U", "U, -5", "U, [9]", "U, [0]", "U, 1", "S, torch.tensor([0.])",
            "torch.tensor([0.]), S", "..., 1::2, S", "S, 1::2", "U, torch.tensor([0.])", ":, U", "U, torch.tensor(True)"]
_U8_VALUES = ["1", "torch.ones(4)", "torch.ones(3)", "torch.tensor(2)", "a[0]", "torch.ones(3, 4, dtype=torch.int64)",
              "torch.ones(2)", "torch.tensor([[1.5]])"]
INDEX_CASES += [f"a = torch.zeros(3, 4){e}; a[{k.replace('U', _U8['U']).replace('S', _U8['S'])}] = {v}; r = a"
                for e in ("", ".expand(2, 3, 4)") for k in _U8_KEYS for v in _U8_VALUES]
INDEX_CASES += [f"a = torch.zeros(3, 4); r = a[{k.replace('U', _U8['U']).replace('S', _U8['S'])}]" for k in _U8_KEYS]


@pytest.mark.parametrize("code", INDEX_CASES)
def test_indexing_order(code):
    assert outcome(gradlab, code) == outcome(torch, code)


# view(dtype): the bytes read as another dtype, with PyTorch's rules on sizes, strides and storage offsets
_VIEW_DTYPES = ["torch.bool", "torch.uint8", "torch.int16", "torch.int32", "torch.int64", "torch.float16",
                "torch.float32", "torch.float64", "torch.complex64", "torch.complex128"]
_LAYOUTS = ["", ".reshape(2, 4)", ".reshape(2, 4).t()", ".reshape(2, 4)[:, 1:]", ".reshape(2, 4)[:, 2:]", "[1:]",
            "[4:]", ".reshape(4, 2)[::2]", ".reshape(2, 4)[:, ::2]", "[3]", ".reshape(2, 4)[:, :0]",
            ".reshape(8, 1)[:, :1]", ".reshape(1, 8).expand(2, 8)", ".reshape(2, 4)[1:, :2]"]
VIEW_CASES = [f"a = torch.arange(1, 9).to({d}){lay}; v = a.view({e}); r = (v, v.stride(), v.storage_offset())"
              for d in ("torch.uint8", "torch.int16", "torch.float32", "torch.float64", "torch.complex64")
              for e in _VIEW_DTYPES for lay in _LAYOUTS]
VIEW_CASES += [f"a = torch.arange(1, 9).to({d}){lay}; r = torch.view_copy(a, {e})" for d in ("torch.int32",)
               for e in ("torch.int16", "torch.int64", "torch.float32") for lay in _LAYOUTS]
VIEW_CASES += [
    f"x = torch.tensor([1., 2.], requires_grad=True){g}; v = x.view({e}); r = (v, v.is_leaf, v._base is None)"
    for g in ("", " * 2") for e in ("torch.float32", "torch.int32", "torch.float64", "torch.complex64")]
VIEW_CASES += [f"x = torch.tensor([1., 2.]); v = x.view(torch.int32); {w}; r = (x, v, x._version, v._version)"
               for w in ("v[0] = 0", "x.add_(1)", "v.zero_()", "x[1] = -3")]
VIEW_CASES += [f"x = torch.tensor([1., 2.]); r = {c}" for c in (
    "x.view(float)", "x.view(dtype=int)", "x.view(dtype=torch.int16)", "x.view(bool)", "x.view(torch.int32, 3)",
    "x.view(str)", "x.view('int')", "x.view(dtype=torch.int32, size=2)", "torch.tensor([1 + 1j]).conj().view(torch.float32)",
    "torch.tensor([1 + 1j]).conj().view(torch.complex64)", "torch.tensor([1 + 1j]).conj().view(torch.complex128)")]


@pytest.mark.parametrize("code", VIEW_CASES)
def test_view_dtype(code):
    assert outcome(gradlab, code) == outcome(torch, code)

# hsplit/vsplit/dsplit take their indices as varargs: one tensor that PyTorch's parser reads as an int (one
# element, integral or bool) is the list of that int; a 0-d integral one is the number of sections
_ONE = ["torch.tensor([0])", "torch.tensor([2])", "torch.tensor([[2]])", "torch.tensor(2)", "torch.tensor([True])",
        "torch.tensor(True)", "torch.tensor([2], dtype=torch.uint8)", "torch.tensor([7])", "torch.tensor([-1])",
        "torch.tensor(0)", "torch.tensor([2.])", "torch.tensor([2, 3])", "torch.tensor([[[1]]])", "np.int64(2)"]
SPLIT_CASES = [f"a = {make}; r = {call}"
               for make in ("torch.arange(24.).reshape(2, 6, 2)", "torch.arange(6.)", "torch.zeros(0, 4, 2)")
               for i in _ONE
               for call in (f"a.hsplit({i})", f"a.vsplit({i})", f"a.dsplit({i})", f"torch.hsplit(a, {i})",
                            f"a.tensor_split({i})", f"a.tensor_split({i}, -1)")]
SPLIT_CASES += [f"a = torch.zeros(0, dtype=torch.int16); r = a.hsplit({i})" for i in _ONE]


@pytest.mark.parametrize("code", SPLIT_CASES)
def test_split_indices(code):
    assert outcome(gradlab, code) == outcome(torch, code)

# in-place binary ops: TensorIterator checks the output's shape, then the result type's cast into it, then the
# kernel runs (fmod_ has no complex kernel); logical_*_ compute in the common dtype and copy back, warning
_INPLACE_DTYPES = ["torch.bool", "torch.uint8", "torch.int64", "torch.float16", "torch.float64", "torch.complex64",
                   "torch.complex128"]
_OTHERS = ["torch.tensor({v}, dtype={e})", "torch.tensor([{v}], dtype={e})", "torch.tensor([{v}, {v}, {v}], dtype={e})"]
INPLACE_CASES = [f"a = torch.tensor({x}, dtype={d}); r = a.{f}({o.format(v=v, e=e)}); r = (r, a)"
                 for d in _INPLACE_DTYPES for x in ("2", "[2, 0]")
                 for e in _INPLACE_DTYPES for o in _OTHERS
                 for f, v in (("atan2_", "-2"), ("fmod_", "3"), ("remainder_", "3"), ("logical_and_", "0.5j"),
                              ("logical_or_", "1"), ("logical_xor_", "0.5j"))
                 if "j" not in v or "complex" in e
                 # (a float16 tensor with a 0-d complex one: PyTorch's result is complex32, which gradlab has not)
                 if not (d == "torch.float16" and x == "[2, 0]" and "complex" in e and o == _OTHERS[0])]


@pytest.fixture
def warn_always():
    """TORCH_WARN_ONCE warnings given every time (else the first case of the run would be the only one to warn)."""
    gradlab.set_warn_always(True)
    torch.set_warn_always(True)
    yield
    gradlab.set_warn_always(False)
    torch.set_warn_always(False)


@pytest.mark.parametrize("code", INPLACE_CASES)
def test_inplace_order(code, warn_always):
    assert outcome(gradlab, code) == outcome(torch, code)

# products of bool matrices: an empty result, or zeros when nothing is summed, come before the kernel's refusal;
# tensordot's one-by-one product is a dot
PRODUCT_CASES = [f"a = torch.ones({m}, {k}, dtype={d}); b = torch.ones({k}, {n}, dtype={d}); r = {call}"
                 for d in ("torch.bool", "torch.int8", "torch.float32")
                 for m, k, n in itertools.product((0, 1, 2), repeat=3)
                 for call in ("torch.mm(a, b)", "a @ b", "torch.tensordot(a, b, dims=1)",
                              "torch.tensordot(a.t(), b, dims=([0], [0]))", "torch.tensordot(a, b.t(), dims=([1], [1]))")]
PRODUCT_CASES += [f"a = torch.ones({s}, dtype=torch.bool); r = torch.tensordot(a, a, dims={n})"
                  for s, n in (("3", 0), ("1", 0), ("0", 0), ("0", 1), ("3", 1), ("1, 2, 3", 2), ("2, 3", 2))]


@pytest.mark.parametrize("code", PRODUCT_CASES)
def test_bool_products(code):
    assert outcome(gradlab, code) == outcome(torch, code)

# functions whose checks come in an order of their own
_IP = "a = torch.tensor([[1, -3, 5, -7], [-7, -1, 2, 9], [0, -3, 0, 0]]{d}); "
ORDER_CASES = [_IP.format(d=d) + f"r = a.{f}(({i},), {v}, accumulate={acc})"
               for d in ("", ".float()") for f in ("index_put", "clone().index_put_")
               for i in ("torch.tensor([-4, 1, -3])", "torch.tensor([5, 1])", "torch.tensor([1, 1])", "torch.tensor([7.])",
                         "a > 0", "torch.tensor([1, 7])", "(a > 0)[0], torch.tensor([9])")
               for v in ("torch.tensor([0.5])", "torch.tensor([1, 2])", "torch.tensor(1)", "torch.tensor([[1., 2, 3, 4]])",
                         "torch.tensor([1, 2, 3, 4])")
               for acc in (True, False)]
ORDER_CASES += [_IP.format(d=d) + f"r = {call}" for d in ("", ".float()", ".bool()")
                for m in ("(a > 0).int()", "a > 0", "(a > 0).to(torch.uint8)", "torch.ones(5, dtype=torch.int32)",
                          "torch.ones(5, dtype=torch.bool)")
                for src in ("torch.tensor([-3.5, -1.0])", "torch.tensor([-3, -1])", "torch.tensor([True])")
                for call in (f"a.masked_scatter({m}, {src})", f"a.clone().masked_scatter_({m}, {src})",
                             f"torch.masked_scatter(a, {m}, {src})")]
ORDER_CASES += [f"r = torch.{f}({s}, {e}, {n}, dtype={d})" for f in ("linspace", "logspace")
                for s, e in (("0", "1j"), ("1j", "1"), ("torch.tensor(1j)", "2"), ("0", "1.5"))
                for n in (4, 1, 0, -1)
                for d in ("torch.bool", "torch.int64", "torch.float32", "torch.complex64", "torch.uint8")]
_HD = "i = torch.tensor([[-3, -4, 4], [-5, -5, 6]]); f = i.float(); "
ORDER_CASES += [_HD + f"r = torch.histogramdd({x}, {b}{rest})"
                for x in ("i", "f", "f.half()", "f.double()")
                for b in ("0", "2", "-1", "-2", "[2, 2]", "[1, 2, 3]", "[torch.tensor([0., 1.])] * 3",
                          "[torch.tensor([0, 1])] * 3", "[torch.tensor([0., 1.]).double()] * 2")
                for rest in ("", ", weight=torch.tensor([1.5, -1.88, 1.0])", ", weight=torch.tensor([1., 2.])",
                             ", weight=torch.tensor([1., 2.]).double()", ", range=[0., 1.]",
                             ", range=[0., 1., 0, 1, 0, 1], weight=torch.tensor([1, 2])",
                             ", weight=torch.tensor([1., 2.]), density=True")]

# the deprecated torch.cholesky returns a non-square empty input as it is; its backward then refuses it
ORDER_CASES += [f"a = torch.zeros({shape}, dtype=torch.float64, requires_grad=True); "
                f"y = torch.cholesky(a, upper={up}); y.sum().backward(); r = (y, a.grad)"
                for shape in ("2, 0", "0, 2", "3, 2, 0", "0, 0", "2, 0, 3") for up in (False, True)]


@pytest.mark.parametrize("code", ORDER_CASES)
def test_check_order(code):
    assert outcome(gradlab, code) == outcome(torch, code)


# rsub of complex operands: other - alpha * self, a complex product (an infinite or nan part spreads)
_SPECIAL = ["complex(float('nan'), 0)", "complex(float('inf'), 0)", "complex(0, -float('inf'))", "1.5-2j",
            "complex(2, float('nan'))"]
VALUE_CASES = [f"a = torch.tensor([{x}, 1 + 1j], dtype={d}); r = {expr}"
               for d in ("torch.complex64", "torch.complex128") for x in _SPECIAL
               for expr in ("2 ** 31 - a", "2 - a", "1.5 - a", "1j - a", "torch.rsub(a, 2)", "torch.rsub(a, 2, alpha=2)",
                            "torch.rsub(a, torch.tensor([1., 2.]))", "torch.tensor([1., 2.]) - a", "a.__rsub__(3)",
                            "torch.rsub(a, a)", "torch.rsub(torch.tensor([1., 2.]), a)", "torch.rsub(a, 1, alpha=1j)")]

# float16 norms: PyTorch accumulates a half tensor in float (the powers, the sum and the root)
_RNG = np.random.default_rng(14)
VALUE_CASES += [f"a = torch.tensor({(_RNG.standard_normal(shape) * 3).round(3).tolist()}, dtype=torch.float16); "
                f"r = a.norm(p={p}{dims})"
                for shape in ((2, 2, 2), (3, 17), (40,)) for p in (0.5, 1, 1.5, 2, 3, -1, 4, "float('inf')", 0)
                for dims in ("", ", dim=-1", ", dim=0, keepdim=True")]

# complex sums in PyTorch's order (vectors of complex numbers: the float32 cascade, part by part), to the last bit
VALUE_CASES += [f"a = torch.tensor({(_RNG.standard_normal(shape) * 3).round(4).tolist()}, dtype={d}); "
                f"a = torch.complex(a, a.flip(0) * 0.7 - 1); r = str(a.sum({dims}).tolist())"
                for d in ("torch.float32", "torch.float64")
                for shape in ((5,), (12, 12), (3, 4), (70, 3), (4, 70), (1000,), (2, 3, 5))
                for dims in ("", "0", "-1", "(0, 1)") if dims == "" or len(shape) > 1]


@pytest.mark.parametrize("code", VALUE_CASES)
def test_values(code):
    assert outcome(gradlab, code) == outcome(torch, code)


def test_cases_are_distinct():
    cases = INDEX_CASES + VIEW_CASES + SPLIT_CASES + INPLACE_CASES + PRODUCT_CASES + ORDER_CASES + VALUE_CASES
    assert len(set(cases)) == len(cases)
