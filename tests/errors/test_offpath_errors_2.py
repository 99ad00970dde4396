"""Off the tutorial paths, part 2: the fuzzer's remaining groups in indexing, reductions and shape ops.

Same method as test_offpath_errors.py: each case is a setup line and an expression, run under gradlab and
under torch; the printed result, dtype, requires_grad, grad_fn name (or the exception's type and message)
and the warnings must agree. Cases are generated from small grids of shapes, dtypes and argument kinds.
"""
import itertools
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

_INTERNAL = ("AxisError", "numpy", "_data", "ndarray", "tuple index out of range", "too many indices for array",
             "missing 1 required", "missing 2 required", "not supported between")


def _describe(r):
    if isinstance(r, (torch.Tensor, gradlab.Tensor)):
        grad_fn = type(r.grad_fn).__name__ if r.grad_fn is not None else None
        return ("tensor", repr(r), str(r.dtype), r.requires_grad, grad_fn, tuple(r.shape), r.is_contiguous())
    if isinstance(r, (tuple, list)):
        return ("sequence",) + tuple(_describe(x) for x in r)
    return ("value", repr(r))


def outcome(module, setup, expression):
    env = {"torch": module, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(setup, env)
        try:
            result = ("ok", _describe(eval(expression, env)))
        except Exception as e:    # noqa: BLE001 (the exception is the outcome)
            result = ("error", type(e).__name__, str(e))
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def check(setup, expression):
    expected = outcome(torch, setup, expression)
    got = outcome(gradlab, setup, expression)
    if expected[0][0] == "error" and "got an unexpected error" in expected[0][2]:
        # PyTorch's text then carries a C++ traceback (addresses, paths): the first line must agree
        expected = (expected[0][:2] + (expected[0][2].split("\nException raised from")[0],), expected[1])
    if got != expected and got[0][0] == "error":      # numpy's/Python's own words are a failure of their own
        assert not any(s in got[0][1] + got[0][2] for s in _INTERNAL), got
    assert got == expected


def _ids(cases):
    return [f"{s} :: {e}" for s, e in cases]


_DTYPES = ["torch.float32", "torch.float64", "torch.float16", "torch.int64", "torch.int8", "torch.uint8",
           "torch.bool"]


# --- broadcast_tensors / broadcast_shapes -------------------------------------------------------------

_SHAPES = ["()", "(2,)", "(3,)", "(2, 1)", "(1, 3)", "(0,)", "(0, 1)", "(4, 1, 1)", "(2, 3)"]
_BROADCAST = [("a = torch.ones(2, requires_grad=True)", e) for e in (
    "torch.broadcast_tensors(3)", "torch.broadcast_tensors()", "torch.broadcast_tensors(a, None)",
    "torch.broadcast_tensors([a])", "torch.broadcast_tensors((a, a))", "torch.broadcast_tensors(a, 0, 1)",
    "torch.broadcast_tensors(a, [1., 2.])", "torch.broadcast_tensors(a, np.ones(2))",
    "torch.broadcast_tensors(a)", "torch.broadcast_tensors(a, a.detach())", "torch.broadcast_tensors(a, a.t())",
    "torch.broadcast_shapes()", "torch.broadcast_shapes(None)", "torch.broadcast_shapes(None, (2,))",
    "torch.broadcast_shapes('a')", "torch.broadcast_shapes((2.,))", "torch.broadcast_shapes(2.5)",
    "torch.broadcast_shapes(-1)", "torch.broadcast_shapes((-1,))", "torch.broadcast_shapes(True)",
    "torch.broadcast_shapes(a)", "torch.broadcast_shapes(a, (0,))", "torch.broadcast_shapes(torch.tensor(2))",
    "torch.broadcast_shapes(torch.tensor(2.5))", "torch.broadcast_shapes(np.int64(2))",
    "torch.broadcast_shapes(np.array([2, 3]))", "torch.broadcast_shapes(((2,),))", "torch.broadcast_shapes({2: 3})",
    "torch.broadcast_shapes(a.shape, (3,))", "torch.broadcast_shapes(torch.Size([2, 3]), torch.Size([2]))",
    "torch.broadcast_shapes([2], [1])", "torch.broadcast_shapes(2, 3)", "torch.broadcast_shapes(2, 1)")]
_BROADCAST += [("", f"torch.broadcast_tensors(*[torch.zeros(s, requires_grad=i == 0) for i, s in enumerate([{a}, {b}])])")
               for a, b in itertools.product(_SHAPES, repeat=2)]
_BROADCAST += [("", f"torch.broadcast_shapes({a}, {b}, (1, 1, 1, 1))") for a, b in itertools.product(_SHAPES, repeat=2)]
_BROADCAST += [("", f"torch.broadcast_tensors(torch.ones({a}), torch.ones({b}), torch.ones({c}))")
               for a, b, c in itertools.product(_SHAPES[::2], repeat=3)]


@pytest.mark.parametrize("setup, expression", _BROADCAST, ids=_ids(_BROADCAST))
def test_broadcast_functions(setup, expression):
    check(setup, expression)


# --- sizes by keyword, and torch.reshape/permute/flip taking one tuple only ----------------------------

_SIZED = [
    ("reshape", "shape", ["(6,)", "[-1]", "(3, -1)", "6", "-1", "None", "(2.0, 3)", "torch.Size([3, 2])", "(7,)"]),
    ("view", "size", ["(6,)", "[-1]", "(3, -1)", "6", "None"]),
    ("permute", "dims", ["(1, 0)", "[0, 1]", "0", "(0,)", "(0, 0)", "None"]),
    ("flip", "dims", ["(1,)", "[0, 1]", "0", "(0, 0)", "[True]", "(0, False)", "[]", "None", "(2,)", "(-1, 0)"]),
    ("expand", "size", ["(2, 3)", "(4, 2, 3)", "2", "(-1, 3)"]),
    ("repeat", "repeats", ["(2, 1)", "[1, 1, 2]", "2"]),
]
_SETUPS = ["a = torch.arange(6.).reshape(2, 3)", "a = torch.arange(6.).reshape(3, 2).t()",
           "a = torch.zeros(2, 0, dtype=torch.int16)", "a = torch.arange(6., requires_grad=True).reshape(2, 3)"]
_KEYWORDS = []
for _name, _kw, _values in _SIZED:
    for _setup, _v in itertools.product(_SETUPS, _values):
        _KEYWORDS.append((_setup, f"a.{_name}({_kw}={_v})"))
        if _name in ("reshape", "permute", "flip"):
            _KEYWORDS += [(_setup, f"torch.{_name}(a, {_v})"), (_setup, f"torch.{_name}(a, {_kw}={_v})")]
    _KEYWORDS.append((_SETUPS[0], f"a.{_name}(1, {_kw}=(1,))"))
_KEYWORDS += [(s, e) for s in _SETUPS for e in ("a.flip(True)", "a.flip(0, 0)", "a.flip(1, -1)", "a.flip()",
                                                "torch.flip(a)", "a.flip(dim=0)", "torch.flip(input=a, dims=[0])")]
_KEYWORDS += [("a = torch.tensor(2.)", e) for e in ("a.flip(0)", "a.flip(0, -1)", "a.flip(1)", "a.flip([])",
                                                    "torch.flip(a, [0])", "torch.reshape(a, [1])")]


@pytest.mark.parametrize("setup, expression", _KEYWORDS, ids=_ids(_KEYWORDS))
def test_sizes_keywords_and_functions(setup, expression):
    check(setup, expression)


# --- unflatten, and reshape's inferred size (PyTorch's infer_size messages) ----------------------------

_UNFLATTEN = []
for _shape, _dim, _sizes in itertools.product(["(2, 3)", "(2, 4)", "(2, 0)", "(6,)", "(0, 3)"], ["1", "-1", "0", "2"],
                                               ["(2, -1)", "(2, 2)", "(3, 1)", "(-1,)", "()", "[]", "(0, -1)", "(-1, -1)",
                                                "(1, 3)", "(3,)", "[3, 'a']", "(3.0,)", "(True, 3)", "3", "(3, None)"]):
    _UNFLATTEN.append((f"a = torch.ones({_shape})", f"a.unflatten({_dim}, {_sizes})"))
_UNFLATTEN += [("a = torch.ones(2, 3)", e) for e in (
    "a.unflatten('a', (3,))", "a.unflatten(None, (3,))", "a.unflatten((1,), (3,))", "a.unflatten(True, (3, 1))",
    "a.unflatten(np.int64(1), (3, 1))", "a.unflatten(1, (np.int64(3), 1))", "a.unflatten(1, torch.Size([3, 1]))",
    "a.unflatten(dim=-1, sizes=(1, 3))", "a.t().unflatten(0, (3, 1))", "torch.unflatten(a, 1, (3, 1))",
    "a.requires_grad_().unflatten(1, (1, 3))")]
_UNFLATTEN += [(f"a = torch.zeros({n})", f"a.reshape({s})") for n, s in itertools.product(
    ["0", "6", "(2, 0)"], ["0, -1", "-1, 0", "-2, 3", "-1, -1", "-1, -2", "4, -1", "3, -1", "7", "-1", "0", "(-1, 2)"])]
_UNFLATTEN += [(f"a = torch.zeros({n})", f"a.view({s})") for n, s in itertools.product(
    ["0", "6"], ["-1, 0", "0, -1", "-1, 2", "2, -3"])]


@pytest.mark.parametrize("setup, expression", _UNFLATTEN, ids=_ids(_UNFLATTEN))
def test_unflatten_and_inferred_sizes(setup, expression):
    check(setup, expression)


# --- trace (integers sum to int64), gather (shaped like the index), index_select, index_fill --------------

_MATRICES = ["torch.arange(6).reshape(2, 3)", "torch.arange(6).reshape(3, 2).t()", "torch.zeros(2, 0)",
             "torch.zeros(0, 0)", "torch.full((3, 3), 100)", "torch.ones(3, 3)"]
_INDEXED = [(f"a = ({m}).to({d})", "a.trace()") for m, d in itertools.product(_MATRICES, _DTYPES)]
_INDEXED += [(f"a = ({m}).to({d}).requires_grad_()", "a.trace()")
             for m, d in itertools.product(_MATRICES, ["torch.float32", "torch.float64", "torch.float16"])]
_GATHER_INPUTS = ["torch.arange(6.).reshape(2, 3)", "torch.arange(6.).reshape(3, 2).t()",
                  "torch.arange(24.).reshape(2, 3, 4)[:, ::2]", "torch.ones(1, 3, 2).expand(2, 3, 2)", "torch.tensor(5.)"]
_GATHER_INDICES = ["[[0]]", "[[1]]", "[[0], [2]]", "[[0, 1, 2, 0]]", "[[[1, 0]]]", "[[[0, 1]], [[1, 1]]]", "[[-1]]",
                   "[[5]]", "0", "[0]", "[0, 1]"]
_INDEXED += [(f"a = {x}", f"a.gather({d}, torch.tensor({i}))")
             for x, i, d in itertools.product(_GATHER_INPUTS, _GATHER_INDICES, ["0", "1", "-1"])]
_INDEXED += [("a = torch.arange(6.).reshape(2, 3)", e) for e in (
    "a.gather(1, torch.zeros(2, 0, dtype=torch.long))", "a.gather(1, torch.tensor([[0]], dtype=torch.int32))",
    "a.requires_grad_().gather(1, torch.tensor([[0]]))")]
for _shape, _dt in itertools.product(["0", "(0, 2)", "(2, 0)", "(2, 3, 0)", "(3,)"], ["torch.float32", "torch.int8",
                                                                                     "torch.bool", "torch.float64"]):
    for _d, _i in itertools.product(["0", "1", "2", "-1"], ["[0, 0]", "[1]", "[]", "0", "[-1]", "[3]", "[5]"]):
        _idx = f"torch.tensor({_i}, dtype=torch.long)"
        _INDEXED.append((f"a = torch.zeros({_shape}, dtype={_dt})", f"a.index_select({_d}, {_idx})"))
        _INDEXED.append((f"a = torch.zeros({_shape}, dtype={_dt})", f"a.index_fill({_d}, {_idx}, 1)"))


@pytest.mark.parametrize("setup, expression", _INDEXED, ids=_ids(_INDEXED))
def test_trace_gather_index_select_index_fill(setup, expression):
    check(setup, expression)


# --- dtype names in messages (masked_fill's mask, lerp's end and weight), lerp's checks in order ----------

_NAMED = [(f"a = torch.tensor([1, 2]).to({d}); m = torch.tensor([1, 0]).to({m})", "a.masked_fill(m, -1)")
          for d, m in itertools.product(_DTYPES[:4], _DTYPES)]
_LERP_WEIGHTS = ["0.3", "torch.tensor(0.5, dtype=torch.float64)", "torch.tensor([0.5], dtype=torch.float64)",
                 "torch.tensor(1)", "torch.tensor([1])", "torch.full((2,), 0.25)", "torch.ones(3)", "torch.ones(3, 1)",
                 "torch.tensor([True])", "torch.tensor(0.5, requires_grad=True)"]
_NAMED += [(f"a = torch.tensor([1, 2]).to({d}); e = torch.ones(2).to({e})", f"a.lerp(e, {w})")
           for d, e, w in itertools.product(_DTYPES, ["torch.float32", "torch.int8", "torch.uint8", "torch.int16"],
                                            _LERP_WEIGHTS)]
_NAMED += [(f"a = torch.tensor([1, 2]).to({d}); e = torch.ones({n}).to({d})", f"a.lerp_(e, {w})")
           for d, n, w in itertools.product(["torch.float32", "torch.int16", "torch.bool"], ["2", "3", "(1, 2)"],
                                            ["0.5", "torch.tensor([1])", "torch.ones(2)"])]


@pytest.mark.parametrize("setup, expression", _NAMED, ids=_ids(_NAMED))
def test_dtype_names_and_lerp_checks(setup, expression):
    check(setup, expression)


# --- argument rules: nonzero(as_tuple=), any/all keepdim, split by a bool; keys with two `...` ----------

_TENSORS = ["torch.ones(2, 3)", "torch.tensor(2.)", "torch.tensor(0.)", "torch.zeros(0, 2)", "torch.arange(6).reshape(2, 3)",
            "torch.tensor([True, False])"]
_ARGUMENTS = [(f"a = {t}", e) for t in _TENSORS for e in (
    "a.nonzero(as_tuple=True)", "a.nonzero(True)", "a.nonzero(as_tuple=1)", "a.nonzero(as_tuple=None)",
    "a.nonzero(as_tuple='a')", "torch.nonzero(a, as_tuple=False)", "torch.nonzero(a, as_tuple=np.bool_(True))",
    "torch.all(a, 0, 1)", "torch.all(a, 0, True)", "torch.any(a, -1, 1)", "a.all(0, 1)", "a.all(0, keepdim=1)",
    "a.any(0, keepdim=None)", "a.any(0, keepdim=np.bool_(True))", "a.any(keepdim=True)",
    "a.split(True)", "torch.split(a, True)", "a.split(False, 1.5)", "a.split([True])", "a.split(True, dim=0)",
    "a.split([1, True])")]
_KEYS2 = ["..., ...", "..., ..., :", "..., ..., None", "..., ..., 1", "..., 1, ...", "1, ..., ...", "..., ..., ...",
          "..., ..., 1:", "..., ..., [0]", "..., ..., 0, 0", "None, ..., None, ..., 0", "..., 0, ..., 0",
          "..., ..., torch.tensor([True, False, True])", "..., ..., torch.tensor(0)", "..., ..., :, 0", "..., ..., ::2"]
# (not 3-d with two `...` and an int past the last dim: PyTorch reads a size past its sizes array there)
_ARGUMENTS += [(f"a = torch.ones({s})", f"a[{k}]") for s, k in itertools.product(["2, 3", "3", "2, 3, 4", "()"], _KEYS2)
               if not (s == "2, 3, 4" and k == "None, ..., None, ..., 0")]


@pytest.mark.parametrize("setup, expression", _ARGUMENTS, ids=_ids(_ARGUMENTS))
def test_argument_rules_and_double_ellipsis(setup, expression):
    check(setup, expression)


# --- float16 softmax/log_softmax (computed as torch's half kernels), result layouts of non-contiguous inputs ---

def _softmax_outcome(module, values, dtype, fn, dim):
    a = module.tensor(values, dtype=getattr(module, dtype), requires_grad=True)
    y = getattr(module, fn)(a, dim)
    y.backward(module.arange(1., 1 + a.numel(), dtype=a.dtype).reshape(a.shape) / 4)
    return repr(y.detach()), a.grad.detach().numpy(), y.is_contiguous()


_SOFTMAX = []
_rng = np.random.default_rng(7)
for _n, _dtype, _fn in itertools.product([3, 4, 8, 17], ["float16", "float32", "float64"], ["softmax", "log_softmax"]):
    for _ in range(6):
        _SOFTMAX.append((np.round(_rng.uniform(-5, 5, _n), 3).tolist(), _dtype, _fn))


@pytest.mark.parametrize("values, dtype, fn", _SOFTMAX)
def test_softmax_half_and_float(values, dtype, fn):
    got, expected = _softmax_outcome(gradlab, values, dtype, fn, -1), _softmax_outcome(torch, values, dtype, fn, -1)
    assert (got[0], got[2]) == (expected[0], expected[2])       # the result exactly
    if fn == "log_softmax" and dtype == "float16":
        np.testing.assert_array_equal(got[1], expected[1])
    else:   # (g - sum(g * y) cancels: the last bits of the sum, in torch's summation order, show)
        eps = {"float16": 1e-3, "float32": 1e-6, "float64": 1e-14}[dtype]
        np.testing.assert_allclose(got[1], expected[1], rtol=0, atol=eps * len(values) / 4)


_LAYOUT_INPUTS = ["torch.arange(6.).reshape(2, 3).t()", "torch.arange(6.).reshape(1, 6).expand(3, 6)[:, ::3]",
                  "torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)[:, :1]"]
_LAYOUT_OPS = ["x.cumsum(0)", "x.cumsum(1)", "x.flip(0)", "x.roll(1, 0)", "x.roll(1)", "x.index_fill(0, torch.tensor([1]), 0.)",
               "x.gather(0, torch.zeros(3, 2, dtype=torch.long))", "x.gather(1, torch.zeros(3, 1, dtype=torch.long))",
               "x.index_select(0, torch.tensor([0, 1, 2]))", "x.index_select(1, torch.tensor([0]))", "x.repeat(1, 1)",
               "x.repeat(2, 1)", "x.sum()", "x.amax()", "x.mean()", "x.trace()", "x.prod()", "x.logsumexp(0)",
               "x.clamp(1, 3)", "x.masked_fill(x > 2, 0.)"]
_LAYOUTS = [(f"x = {i}", f"({e}).stride()") for i, e in itertools.product(_LAYOUT_INPUTS, _LAYOUT_OPS)]
_LAYOUTS += [(f"x = {i}", e) for i, e in itertools.product(_LAYOUT_INPUTS, _LAYOUT_OPS)]


@pytest.mark.parametrize("setup, expression", _LAYOUTS, ids=_ids(_LAYOUTS))
def test_result_layouts(setup, expression):
    check(setup, expression)


# --- in-place writes into an expanded tensor: fill_/zero_ write its memory, masked_fill_/index_fill_ too (with
# PyTorch's deprecation warning), random initialisers refuse it -------------------------------------------------

_EXPANDED = ["b = torch.tensor([2.]); a = b.expand(4)", "b = torch.tensor([[2., 3.]]); a = b.expand(3, 2)",
             "b = torch.tensor([[2, 3]], dtype=torch.int16); a = b.expand(3, 2)", "b = torch.tensor(2.); a = b.expand(3)",
             "b = torch.tensor([[True, False]]); a = b.expand(2, 2)"]
_WRITES = ["(a.fill_(1), b)", "(a.zero_(), b)", "(a[1:].fill_(5), b)", "(a.fill_(torch.tensor(3)), b)",
           "a.uniform_().shape", "a.normal_().shape", "(a.masked_fill_(a > 2, 1), b)", "(a.masked_fill_(a < 0, 1), b)",
           "(a.masked_fill_(torch.ones_like(a, dtype=torch.bool), torch.tensor(7)), b)",
           "(a.index_fill_(0, torch.tensor([1]), 1), b)", "(a.index_fill_(-1, torch.tensor([0]), torch.tensor(4)), b)"]
_EXPANDED_CASES = [(s, e) for s, e in itertools.product(_EXPANDED, _WRITES)]


@pytest.mark.parametrize("setup, expression", _EXPANDED_CASES, ids=_ids(_EXPANDED_CASES))
def test_writes_into_expanded_tensors(setup, expression):
    check(setup, expression)


# log_softmax of float16 along any dim, softmax along the last (its other-dims half kernel is not reproduced)
_SOFTMAX_ND = []
for _shape, _dtype in itertools.product([(2, 3, 2), (4, 3), (3, 5)], ["float16", "float32"]):
    for _ in range(4):
        _v = np.round(_rng.uniform(-5, 5, _shape), 3).tolist()
        _SOFTMAX_ND += [(_v, _dtype, "log_softmax", d) for d in range(len(_shape))]
        _SOFTMAX_ND.append((_v, _dtype, "softmax", len(_shape) - 1))


@pytest.mark.parametrize("values, dtype, fn, dim", _SOFTMAX_ND)
def test_softmax_any_dim(values, dtype, fn, dim):
    got, expected = (_softmax_outcome(m, values, dtype, fn, dim) for m in (gradlab, torch))
    assert (got[0], got[2]) == (expected[0], expected[2])
    np.testing.assert_allclose(got[1], expected[1], rtol=0, atol=(1e-3 if dtype == "float16" else 1e-6) * 8)


# roll/narrow/dot/trace/reshape: checks in PyTorch's order, reshape's grad_fn by layout
_ORDER = [("a = torch.zeros(2, 0, requires_grad=True)", e) for e in (
    "a.roll(3, dims=-3)", "a.roll(3, dims=5)", "a.roll((1, 2), dims=0)", "a.roll(1, 0)", "a.roll((1, 2), (0, 1))")]
_ORDER += [(f"a = torch.zeros({s})", f"a.narrow({d}, {st}, {n})") for s, d, st, n in itertools.product(
    ["3", "(0, 2)", "(2, 0)"], ["0", "-1"], ["4", "-4", "-3", "3", "2", "1", "0"], ["0", "1", "2"])]
_ORDER += [(f"a = torch.ones({n}); b = torch.ones({m}, dtype={d})", e) for n, m, d in itertools.product(
    ["1", "3"], ["2", "3"], ["torch.int32", "torch.float32", "torch.bool", "torch.float64"]) for e in ("a.dot(b)", "a @ b")]
_ORDER += [(f"a = torch.tensor({v})", "torch.trace(a)") for v in ("True", "[True]", "1", "[1.]", "[[True]]")]
_ORDER += [(f"x = {x}", f"x.reshape({s}).grad_fn.name()") for x, s in itertools.product(
    ["torch.tensor([-1.94], requires_grad=True).expand(3)", "torch.ones(2, 3, requires_grad=True).t()",
     "torch.ones(2, 3, requires_grad=True)[:, :2]", "torch.ones(2, 3, requires_grad=True)",
     "torch.ones(2, 3, requires_grad=True)[:1]"], ["-1", "3, 1", "1, -1", "2, 1, -1", "(-1, 2)"])]


@pytest.mark.parametrize("setup, expression", _ORDER, ids=_ids(_ORDER))
def test_checks_in_torch_order(setup, expression):
    check(setup, expression)
