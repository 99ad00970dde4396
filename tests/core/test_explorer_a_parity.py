"""What an independent explorer of values, dtypes, indexing, printing and attributes found (issue 14), each
finding widened into generated cases run under gradlab and under live torch: the outcomes (printed text,
dtype, shape, strides, storage offset, the sign of every zero, requires_grad and grad_fn's name; or the
exception's type and message) must be the same.

- complex neg: ATen's vector loop computes 0 - x (a zero part comes out +0), its scalar loop -x;
- complex operands of kernels that have none (softmax, the activations, erf, round with decimals, nansum,
  searchsorted/bucketize, histc, bitwise_not) and the order of PyTorch's checks (maximum's complex check
  before the shapes, clamp's shapes before its bounds' dtype, sort's dim before its dtype);
- searchsorted with 0-d boundaries, arange with a complex bound, vector_norm's dtype checks, the mean of an
  empty complex tensor;
- layouts: unsqueeze's (and `x[None]`'s) new stride, the rows of torch.where(cond) and nonzero(as_tuple=True)
  as one block's, a write into an expanded tensor checking the value's shape before the overlap; elementwise
  results of inputs whose size-1 dims carry other strides (a number operand: TensorIterator sorts the dims);
  index results' size-1 dims; scatter-like results contiguous; matmul's folding test on strides;
- where's numbers checked against the result dtype (they wrapped silently); histc of numbers near the largest
  (a numpy error); cummax/cummin's 0-d dim message; numpy() of an empty tensor; conj().imag's negative bit;
- in-place abs_/floor_/ceil_/trunc_/sign_ of a complex tensor (abs_ computed a wrong answer), copy_ of a Python
  number, index_fill's complex number; complex64 abs correctly rounded (numpy's float32 hypot is not);
- empty operands of searchsorted and batched matmul (numpy's reshape errors), cummax of an empty complex
  tensor, arange beyond memory.
"""
import itertools
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _signs(t):
    """The sign bit of every number (tells -0.0 from 0.0, and a complex number's two parts apart)."""
    flat = t.detach().resolve_conj().resolve_neg().reshape(-1).tolist()
    if t.dtype.is_complex:
        flat = [part for z in flat for part in (z.real, z.imag)]
    return tuple(bool(np.signbit(float(v))) for v in flat)


def _describe(value):
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(_describe(v) for v in value)
    if type(value).__name__ in ("Tensor", "Parameter"):
        signs = _signs(value) if value.dtype.is_floating_point or value.dtype.is_complex else ()
        return ("Tensor", str(value), str(value.dtype), tuple(value.shape), value.stride(), value.storage_offset(),
                signs, value.requires_grad, value.grad_fn.name() if value.grad_fn is not None else None)
    return type(value).__name__, str(value)


def outcome(module, code):
    namespace = {"torch": module, "np": np, "F": module.nn.functional}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(code, namespace)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            return f"{type(error).__name__}: {error}"
    return _describe(namespace["r"])


_COMPLEX_PARTS = ["complex(7, 0)", "complex(0, 8)", "complex(-0.0, -0.0)", "complex(0.0, 0.0)", "complex(-1, -0.0)",
                  "complex(2.5, -3)"]

# complex neg: every length around the vector loop's blocks (8 complex64, 4 complex128), and layouts that walk it
# differently (a strided slice: the scalar loop; an expanded row: the loop along each row)
NEG_CASES = [f"x = torch.tensor([{', '.join(itertools.islice(itertools.cycle(_COMPLEX_PARTS), n))}], "
             f"dtype=torch.{d}); r = {form}"
             for d in ("complex64", "complex128") for n in (1, 3, 4, 5, 8, 9, 12, 17)
             for form in ("-x", "x.neg()", "torch.negative(x)", "-x[::2]", "-x.reshape(1, -1).expand(3, -1)",
                          "x.clone().neg_()", "-x.reshape(-1, 1).t()")]

# complex tensors where PyTorch has no kernel, in each form
_C = "c = torch.tensor([1 + 2j, 3 - 1j, -2 + 0.5j, 0j]); c2 = c.reshape(2, 2).to(torch.complex128); "
COMPLEX_KERNEL_CASES = [_C + f"r = {e}" for e in (
    "torch.softmax(c, -1)", "c.softmax(0)", "torch.log_softmax(c2, 0)", "torch.softmax(c2, 1)", "c2.log_softmax(1)",
    "F.softmax(c, 0)", "F.softmin(c, 0)", "torch.softmax(c, 0, dtype=torch.float32)",
    "torch.softmax(torch.zeros(0, 2, dtype=torch.complex64), 0)", "torch.softmax(torch.tensor(1j), 0)",
    "torch.round(c, decimals=0)", "torch.round(c, decimals=2)", "c.clone().round_(decimals=1)", "torch.round(c)",
    "torch.erf(c)", "c.erf()", "c.clone().erf_()", "torch.erfc(c)", "torch.bitwise_not(c)", "~c", "c.bitwise_not()",
    "torch.nansum(c)", "c.nansum(dtype=torch.float64)", "c2.nansum(0)", "torch.ones(2).nansum(dtype=torch.complex64)",
    "torch.histc(c)", "torch.histc(c, bins=3, min=0, max=1)", "torch.histc(torch.tensor([1j, float('nan')]))",
    "torch.sort(c, 1)", "torch.sort(c, 0)", "c.sort(dim=-2)", "torch.argsort(c, 2)", "torch.argsort(c)",
    "torch.norm(c, dtype=torch.float64)", "torch.ones(2).norm(dtype=torch.complex64)",
    "torch.linalg.vector_norm(c, dtype=torch.complex64)", "c2.norm(dtype=torch.complex64)",
    "torch.tensor([], dtype=torch.complex64).mean()", "torch.zeros(2, 0, dtype=torch.complex128).mean(1)",
    "torch.zeros(0, 2, dtype=torch.complex64).mean(1)")]
COMPLEX_KERNEL_CASES += [_C + f"r = F.{f}(c)" for f in (
    "gelu", "softplus", "silu", "elu", "selu", "celu", "hardtanh", "relu6", "leaky_relu", "hardswish", "hardsigmoid",
    "mish", "logsigmoid", "softshrink", "hardshrink", "tanhshrink", "softsign", "glu", "relu", "rrelu")]

# the order of the checks: a complex operand against mismatched shapes
_F = "f = torch.tensor([1., 2., 3.]); f2 = torch.tensor([1., 2.]); c = torch.tensor([1 + 2j, 3 - 1j]); "
ORDER_CASES = [_F + f"r = {e}" for x, y in (("c", "f"), ("f", "c"), ("c", "f2"), ("f2", "c"), ("c", "c"))
               for e in dict.fromkeys((f"torch.maximum({x}, {y})", f"torch.minimum({x}, {y})", f"{x}.maximum({y})",
                         f"torch.clamp({x}, {y})", f"torch.clamp({x}, max={y})", f"torch.clamp({x}, {y}, {y})",
                         f"torch.clamp({x}, f, {y})", f"torch.clamp({x}, {y}, f)", f"torch.clip({x}, min={y})",
                         f"{x}.clamp_min({y})", f"{x}.clamp_max({y})"))]

# searchsorted and bucketize: the common dtype's kernel (none for bool or complex), 0-d boundaries
_S = "b = torch.tensor([True, False]); c = torch.tensor([1j, 2j]); f = torch.tensor([1., 2.]); "
SEARCH_CASES = [_S + f"r = {e}" for e in (
    "torch.searchsorted(b, b)", "torch.searchsorted(f, b)", "torch.searchsorted(b, torch.tensor([], dtype=torch.bool))",
    "torch.searchsorted(torch.tensor(1.), torch.tensor(1.))", "torch.searchsorted(torch.tensor(1.), f)",
    "torch.searchsorted(c, torch.zeros(0))", "torch.searchsorted(c, f)", "torch.searchsorted(f, c)",
    "torch.searchsorted(f, 1j)", "torch.searchsorted(c.to(torch.complex128), torch.tensor([1], dtype=torch.int8))",
    "torch.searchsorted(torch.tensor([[1., 2.]]), c)", "torch.bucketize(c, f)", "torch.bucketize(f, torch.tensor(1.))",
    "torch.bucketize(1j, f)", "torch.bucketize(b, b)", "torch.searchsorted(f, f, right=True)",
    "torch.bucketize(torch.tensor([[0, 3]]), f)")]

# arange with complex bounds (a zero imaginary part is read as its real part)
ARANGE_CASES = [f"r = torch.arange({a})" for a in (
    "3j", "0, 1j", "1 + 0j", "0, 5, 1j", "float('nan'), 3j", "3j, dtype=torch.complex64", "0, 3j, dtype=torch.float32",
    "complex(4, 0), dtype=torch.int64", "0, complex(2, 0), 0.5")]

# layouts: the new dim's stride (x[None], unsqueeze) over views, empties and size-1 dims
_VIEWS = ["torch.zeros(3, 1).t()", "torch.zeros(0, 3)", "torch.arange(24.).reshape(2, 3, 4)[:, :, ::2]",
          "torch.arange(6).reshape(2, 3).t()", "torch.tensor(5.)", "torch.zeros(2, 0).t()",
          "torch.arange(4.).expand(3, 4)", "torch.arange(12).reshape(3, 4)[1:, ::3]"]
LAYOUT_CASES = [f"x = {v}; r = {e}" for v in _VIEWS
                for e in ("x[None]", "x.unsqueeze(0)", "x.unsqueeze(-1)", "x[..., None]", "x[:, None]", "x.unsqueeze(1)",
                          "x[None, ..., None]", "torch.unsqueeze(x, -2)", "x.clone().unsqueeze_(0)")
                # (gradlab's clone of an empty transposed tensor lays it out otherwise: not this finding)
                if not (v == "torch.zeros(2, 0).t()" and "clone" in e)]
LAYOUT_CASES += [f"x = {v}; r = {e}" for v in ("torch.tensor([[1, 0, 2], [0, 3, 0]])", "torch.tensor(5)",
                                               "torch.tensor([0., 1.5, 0., 2.])", "torch.zeros(2, 0, 3)",
                                               "torch.arange(24).reshape(2, 3, 4) % 3")
                 for e in ("torch.where(x > 0)", "x.nonzero(as_tuple=True)", "torch.nonzero(x, as_tuple=True)",
                           "torch.where(x != 0)[-1]")]

# writes into an expanded tensor: the value's shape is checked before the overlap
SETITEM_CASES = [f"t = {s}; t[{k}] = {v}; r = t"
                 for s in ("torch.tensor([1, 2, 3]).expand(2, 3)", "torch.tensor([[1.], [2.]]).expand(2, 3)")
                 for k, v in (("0:2, -2", "t[0]"), ("None", "torch.zeros(0)"), ("..., None", "torch.tensor([1, 2, 3])"),
                              ("0", "torch.ones(3)"), ("0", "torch.ones(1, 1, 3)"), (":", "torch.ones(4)"), ("0", "5"),
                              (":, 1", "torch.ones(2)"), (":, 1", "torch.ones(3)"), ("1:", "torch.zeros(1, 2)"))]

# results of elementwise ops on inputs whose size-1 dims carry other strides (x.t() of a row): TensorIterator's general
# path (a Python number, a 0-d or broadcast operand) sorts the dims by those strides, its fast path does not
_ODD = ["torch.tensor([3, -1, 0, 7], dtype=torch.int16).reshape(1, 4).t()",
        "torch.tensor([1.5, -2., 0., 4.]).reshape(1, 1, 1, 4).transpose(0, -1)",
        "torch.tensor([[1.5, -2., 3.]]).reshape(3, 1).transpose(-1, -2)",
        "torch.tensor([True, False, True]).reshape(1, 3).t()"]
SIZE_ONE_CASES = [f"x = {x}; r = {e}" for x in _ODD
                  for e in ("x > True", "x.remainder(2)", "torch.copysign(x, -0.5)", "False << x if x.dtype != torch.float32 "
                            "else 2 ** x", "x * 2", "x + x", "x + torch.ones(x.shape)", "3j != x", "x.eq(0)",
                            "torch.remainder(x, torch.tensor([2.]))", "torch.logical_or(x, torch.zeros(2, *x.shape[1:]))",
                            "x.logical_and(x)", "np.float64(2.5) - x", "x.float() / 0.1", "x.abs()",
                            "torch.maximum(x, torch.tensor(1, dtype=x.dtype))")]
SIZE_ONE_CASES += [f"t = {t}; r = {e}" for t in ("torch.arange(9).reshape(3, 3)", "torch.arange(12.).reshape(4, 3).t()",
                                                 "torch.arange(3).reshape(3, 1).t()", "torch.arange(8).reshape(2, 2, 2)")
                   for e in ("t[None, [0, 1]]", "t[..., [-1]]", "t[None, np.array([0, 1])]", "t[:2, [0]]", "t[None, [[0], [1]]]",
                             "t[[0], None]")]
# scatter-like structured kernels allocate their result contiguous (self copied into it)
_T = "t = torch.arange(12.).reshape(4, 3).t(); i = torch.zeros_like(t, dtype=torch.long); "
SIZE_ONE_CASES += [_T + f"r = {e}" for e in (
    "torch.scatter(t, 0, i, 1)", "torch.scatter(t, 0, i, t)", "torch.scatter_add(t, 0, i, t)", "t.scatter(1, i, 2.5)",
    "torch.scatter(t, 0, i, t, reduce='add')", "t.index_add(0, torch.tensor([0]), t[:1])",
    "t.index_copy(0, torch.tensor([0]), t[:1])", "t.masked_scatter(t > 0, t)", "t.tril()", "t.triu(1)",
    "torch.tril(t[:, None, :].expand(3, 2, 4))", "t.clone().tril_()", "t.index_fill(0, torch.tensor([0]), 1)",
    "t.masked_fill(t > 0, 1)", "t.diagonal_scatter(torch.zeros(3))", "t.select_scatter(torch.zeros(4), 0, 0)")]

# where with a number: converted to the result dtype with c10's overflow check (255 into int8 was a silent -1)
_W = "c = torch.tensor([True, False]); "
WHERE_CASES = [_W + f"r = torch.where(c, {a}, {b})" for a, b in (
    ("255", "torch.tensor([-1, 5], dtype=torch.int8)"), ("300", "torch.tensor([1, 2], dtype=torch.uint8)"),
    ("-1", "torch.tensor([1, 2], dtype=torch.uint8)"), ("-300", "torch.tensor([1, 2], dtype=torch.uint8)"),
    ("torch.tensor([1, 2], dtype=torch.int8)", "-200"), ("torch.tensor([1, 2], dtype=torch.int16)", "40000"),
    ("torch.tensor([1, 2], dtype=torch.int32)", "2**31"), ("2**63", "torch.tensor([1, 2])"), ("1e300", "torch.tensor([1., 2])"),
    ("1e300", "torch.tensor([1, 2], dtype=torch.int8)"), ("1e300", "torch.tensor([1., 2], dtype=torch.float64)"),
    ("1e10", "torch.tensor([1., 2], dtype=torch.float16)"), ("70000", "torch.tensor([1., 2], dtype=torch.float16)"),
    ("float('inf')", "torch.tensor([1., 2])"), ("float('nan')", "torch.tensor([1, 2], dtype=torch.int8).float()"),
    ("1e39j", "torch.tensor([1., 2])"), ("300", "torch.tensor([True, False])"), ("1e300", "2"), ("2**63", "1"),
    ("1", "2**63"), ("3.5", "2"), ("2.5", "1e300"), ("torch.tensor(300)", "torch.tensor([1, 2], dtype=torch.int8)"),
    ("2**70", "torch.tensor([1., 2])"), ("127", "torch.tensor([1, 2], dtype=torch.int8)"))]

# cummax/cummin of a 0-d tensor: their own dim message; matmul folds a batch into rows only when no copy is needed
# (size-1 dims' strides included), else bmm and its message; histc of numbers near the dtype's largest
MORE_CASES = [f"r = torch.{f}(torch.tensor(2.), {d})" for f in ("cummax", "cummin") for d in (1, -2, 0, -1)]
MORE_CASES += [f"r = {a} @ {b}" for a, b in (
    ("torch.ones(3)", "torch.ones(2, 2, 2)"), ("torch.ones(2, 1, 1, 1)", "torch.ones(4)"),
    ("torch.ones(1, 1, 1, 2).transpose(0, -1)", "torch.ones(4)"), ("torch.ones(1, 1, 1, 2).transpose(0, -1)", "torch.ones(1)"),
    ("torch.ones(2, 3, 4).transpose(0, 1)", "torch.ones(4)"), ("torch.ones(4)", "torch.ones(2, 4, 3)"),
    ("torch.ones(2, 3, 4)[:, :, :2]", "torch.ones(2, 5)"), ("torch.ones(1, 2, 4).transpose(0, 1)", "torch.ones(4, 5)"),
    ("torch.ones(5, 3)", "torch.ones(2, 4, 3)"), ("torch.ones(2)", "torch.ones(3, 1, 2, 1)"),
    ("torch.arange(6.).reshape(3, 1, 2).transpose(0, 1)", "torch.ones(2, 2)"))]
MORE_CASES += [f"r = torch.histc(torch.tensor({v}{d}), bins=4)" for v in (
    "[0., 1e38]", "[0., 1e38, 5e37, 3e37]", "[0., 3e38, 2e38]", "[-3e38, 3e38, 2e38]", "[-1e-10, 7., 1e38, 1e10]")
    for d in ("", ", dtype=torch.float64")]

# numpy() of an empty tensor: zero strides, as numpy gives PyTorch's; the negative bit of a conj()'s imaginary parts
_EMPTIES = ["torch.zeros(0)", "torch.zeros(2, 0)", "torch.zeros(0, 3)", "torch.zeros(2, 0).t()", "torch.zeros(3)[::2]",
            "torch.zeros(3, 1).t()", "torch.zeros(0, 2, dtype=torch.int8).expand(3, 0, 2)"]
MORE_CASES += [f"t = {t}; a = {f}; r = (a.strides, a.shape, str(a.dtype))" for t in _EMPTIES
               for f in ("t.numpy()", "np.asarray(t)", "t.__array__()", "np.asarray(t, dtype=np.float64)")]
MORE_CASES += [f"c = torch.tensor([1 + 2j, 3 - 1j]); i = {v}; r = (i, i.is_neg(), torch.is_neg(i), i.resolve_neg().is_neg(), "
               "(i * 1).is_neg(), i.is_conj())" for v in ("c.conj().imag", "c.imag", "c.conj().real", "c.conj()",
                                                          "c.conj().imag.clone()", "torch.imag(c.conj())")]
# in-place ops refusing a complex self before the overlap check; copy_ of a Python number (a 0-d tensor, cast);
# index_fill's refusal of a complex number for a real tensor
_CX = ["torch.zeros(2, dtype=torch.complex64)", "torch.tensor([1 + 1j, -2j]).expand(2, 2)", "torch.zeros(3, 1, dtype=torch.complex128).t()"]
MORE_CASES += [f"t = {t}; r = t.{m}()" for t in _CX for m in ("abs_", "absolute_", "floor_", "ceil_", "trunc_", "sign_",
                                                              "round_", "frac_", "neg_", "sgn_")]
MORE_CASES += [f"t = torch.zeros(2{d}); r = (t.copy_({v}), t._version)" for d in ("", ", dtype=torch.uint8", ", dtype=torch.int8",
                                                                                  ", dtype=torch.complex64", ", dtype=torch.bool")
               for v in ("3j", "300", "2.7", "True", "2**70", "-2**70", "np.float64(2.5)", "float('nan')", "1 + 2j", "-1")]
MORE_CASES += [f"t = torch.zeros(3{d}); r = t.{f}(0, torch.tensor([{i}]), {v})" for d in ("", ", dtype=torch.int8", ", dtype=torch.complex64")
               for f in ("index_fill", "index_fill_") for i in (0, 5) for v in ("1j", "300", "np.complex64(1)", "2.5")]
# empty operands that reached numpy's reshape errors (searchsorted's rows, matmul's batch), cummax of an empty complex
# tensor (empty results before the kernel), arange beyond memory (PyTorch's allocator's message)
MORE_CASES += [f"r = {e}" for e in (
    "torch.searchsorted(torch.tensor([], dtype=torch.int16).reshape(2, 0), torch.ones(2, 3, dtype=torch.int16))",
    "torch.searchsorted(torch.zeros(0, 3), torch.zeros(0, 2))", "torch.searchsorted(torch.zeros(0), torch.ones(3))",
    "torch.searchsorted(torch.zeros(2, 0), torch.ones(2, 0))", "torch.ones(2, 3, 2, 2) @ torch.zeros(2, 0)",
    "torch.ones(3, 2, 2).expand(2, 3, 2, 2) @ torch.zeros(2, 0).flip(-1)", "torch.zeros(0, 2, 3) @ torch.zeros(3)",
    "torch.zeros(2, 0, 3) @ torch.zeros(1, 3, 4)", "torch.zeros(2, 2, 0) @ torch.zeros(2, 0, 4)",
    "torch.cummax(torch.tensor([], dtype=torch.complex64), dim=-1)", "torch.cummin(torch.zeros(2, 0, dtype=torch.complex128), 1)",
    "torch.cummax(torch.zeros(0, dtype=torch.bool), 0)", "torch.arange(2**40)")]

CASES = (NEG_CASES + COMPLEX_KERNEL_CASES + ORDER_CASES + SEARCH_CASES + ARANGE_CASES + LAYOUT_CASES
         + SETITEM_CASES + SIZE_ONE_CASES + WHERE_CASES + MORE_CASES)


@pytest.mark.parametrize("code", CASES)
def test_same_outcome_as_torch(code):
    assert outcome(gradlab, code) == outcome(torch, code)


def test_cases_are_distinct():
    assert len(set(CASES)) == len(CASES)


def test_generated_complex_neg_signs():
    """-x of random complex tensors with zero parts, in random layouts: the same sign bits as PyTorch's."""
    rng = np.random.default_rng(14)
    for _ in range(60):
        n = int(rng.integers(1, 40))
        parts = rng.choice([0.0, -0.0, 1.5, -2.0], size=(n, 2))
        data = (parts[:, 0] + 1j * parts[:, 1]).astype(rng.choice([np.complex64, np.complex128]))
        step = int(rng.integers(1, 3))
        results = []
        for lib in (torch, gradlab):
            x = lib.from_numpy(data.copy())[::step]
            results.append(_signs(-x))
        assert results[0] == results[1]


def test_generated_complex64_abs_bits():
    """|z| of complex64 numbers over many magnitudes, contiguous and strided: PyTorch's bits (correctly rounded)."""
    rng = np.random.default_rng(5)
    parts = np.concatenate([rng.standard_normal((4000, 2)) * 10.0 ** rng.integers(-20, 20, (4000, 1)),
                            rng.integers(-9, 9, (1000, 2)).astype(float)])
    z = (parts[:, 0] + 1j * parts[:, 1]).astype(np.complex64)
    results = []
    for lib in (torch, gradlab):
        t = lib.from_numpy(z.copy())
        results.append(np.concatenate([t.abs().numpy(), t[::3].abs().numpy(), t.reshape(50, 100).t().abs().numpy().ravel()]))
    assert np.array_equal(results[0].view(np.int32), results[1].view(np.int32))
