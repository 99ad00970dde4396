"""The strides (and is_contiguous, storage_offset) of results, against live torch: what an explorer of result
layouts found. Every case is generated: inputs with dims of size 0 and 1, laid out contiguous, permuted, transposed,
sliced with a step, narrowed, expanded; the same statement then runs under torch and gradlab.

The rules (PyTorch's, see gradlab/ops/registry.py's torch_layout and empty_result):
* an elementwise result (TensorIterator) on its fast path (every operand shaped like the result and contiguous, or
  dense with the same strides) is contiguous or takes those strides; on its general path the dims are sorted by the
  inputs' strides, and an empty result gets `compatible_stride`s: the product of the sizes before each dim, so 0
  after a size-0 dim (`x.t() > 0` of a (0, 3) x has strides (1, 0));
* a copy with preserve_format (clone, .to(), flip, sort, nan_to_num, *_like, complex abs) keeps self's strides when
  self is dense, as every empty tensor is;
* reductions, topk, cummax and the other contiguous results have C order's strides, size-1 dims included;
* nonzero is laid out column by column, (1, 0) when nothing is found; unique(dim=d) is contiguous with d first,
  then moved back to d."""
import random

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _input(r, shape, dtype):
    """Code building a tensor of `shape` with a random layout (the same text for both libraries)."""
    nd = len(shape)

    def base(s):
        return f"torch.arange({_numel(s)}).reshape({tuple(s)}).to({dtype})"
    kind = r.choice(["contig", "perm", "perm", "step", "narrow", "t", "expand"]) if nd else "contig"
    if kind == "t" and nd >= 2:
        return base(shape[:-2] + [shape[-1], shape[-2]]) + ".transpose(-1, -2)"
    if kind in ("perm", "t"):
        p = list(range(nd))
        r.shuffle(p)
        b = [0] * nd
        for i, q in enumerate(p):
            b[q] = shape[i]
        return base(b) + f".permute({', '.join(map(str, p))},)"
    if kind == "step":
        d = r.randrange(nd)
        b = list(shape)
        b[d] = shape[d] * 2 + (1 if shape[d] == 0 else 0)
        return base(b) + "[" + ", ".join([":"] * d + ["::2" if shape[d] else "1:1"]) + "]"
    if kind == "narrow":
        d = r.randrange(nd)
        b = list(shape)
        b[d] = shape[d] + 2
        return base(b) + f".narrow({d}, 1, {shape[d]})"
    if kind == "expand":
        b = [1 if n > 1 and r.random() < 0.5 else n for n in shape]
        return base(b) + f".expand({tuple(shape)})"
    return base(shape)


def _shape(r, empty=True, ndim=None):
    nd = ndim or r.choice([1, 2, 2, 3, 3, 4])
    s = [r.choice([0, 1, 1, 2, 3]) for _ in range(nd)]
    if empty and 0 not in s:
        s[r.randrange(nd)] = 0
    return s


def _describe(lib, v):
    if isinstance(v, lib.Tensor):
        return (tuple(v.shape), str(v.dtype), v.stride(), v.is_contiguous(), v.storage_offset())
    if isinstance(v, (tuple, list)):
        return [_describe(lib, e) for e in v]
    return repr(v)


def _outcome(lib, setup, expr):
    ns = {"torch": lib}
    try:
        for line in setup:
            exec(line, ns)
        return _describe(lib, eval(expr, ns))
    except Exception as e:        # (the exception's type and first line are part of the outcome)
        return type(e).__name__, str(e).split("\n")[0]


def _check(cases):
    for setup, expr in cases:
        expected = _outcome(torch, setup, expr)
        assert _outcome(gradlab, setup, expr) == expected, (setup, expr)


def _cases(seed, make, n=60):
    r = random.Random(seed)
    return [make(r) for _ in range(n)]


_FLOATS = ["torch.float32", "torch.float64"]
_DTYPES = _FLOATS + ["torch.int64", "torch.int32", "torch.bool", "torch.uint8", "torch.float16"]


def _broadcast(r, shape):
    s = [1 if r.random() < 0.3 else n for n in shape]
    return s[r.randrange(len(s) + 1):] if r.random() < 0.3 else s


_BINARY = ["x + y", "y - x", "x * y", "torch.maximum(x, y)", "x == y", "x < y", "torch.atan2(x, y)", "x // y",
           "torch.add(x, y, alpha=2)", "torch.where(x > 0, x, y)", "torch.logical_and(x, y)", "torch.mul(y, x)"]
_SCALAR = ["x > 0", "x == 1", "x * 2", "2 * x", "x + 1", "x.pow(2)", "torch.where(x > 1, x, 0.0)", "x.neg()",
           "x.abs()", "torch.clamp(x, 0, 3)", "x.exp()", "x.logical_not()", "torch.clamp(x, min=x)"]


def test_empty_elementwise_results_take_tensor_iterators_strides():
    def make(r):
        shape = _shape(r)
        dtype = r.choice(_DTYPES[:4])
        if r.random() < 0.5:
            return [f"x = {_input(r, _broadcast(r, shape), dtype)}", f"y = {_input(r, shape, r.choice(_FLOATS))}"], \
                r.choice(_BINARY)
        return [f"x = {_input(r, shape, dtype)}"], r.choice(_SCALAR)
    _check(_cases(1, make, 150))


_PRESERVING = ["x.clone()", "torch.clone(x)", "x.to(torch.float64)", "x.double()", "x.half()", "x.long()", "x.bool()",
               "x.type(torch.int32)", "x.flip(0)", "x.flip(-1)", "torch.fliplr(x) if x.ndim >= 2 else x.flip(0)",
               "x.roll(1, 0)", "x.sort(-1)", "x.sort(0, descending=True)", "x.argsort(0)", "x.msort()",
               "torch.nan_to_num(x)", "x.rot90() if x.ndim >= 2 else x.flip(0)", "torch.zeros_like(x)",
               "torch.ones_like(x)", "torch.full_like(x, 3)", "torch.empty_like(x).stride()",
               "x.clone(memory_format=torch.preserve_format)", "x.to(torch.complex64).conj()",
               "x.to(torch.complex64).abs()", "x.rot90(2, (0, -1)) if x.ndim >= 2 else x.flip(0)"]


def test_copies_of_an_empty_tensor_keep_its_strides():
    def make(r):
        return [f"x = {_input(r, _shape(r), r.choice(_FLOATS + ['torch.int64']))}"], r.choice(_PRESERVING)
    _check(_cases(2, make, 150))


def test_like_factories_follow_memory_format():
    def make(r):
        shape = _shape(r, empty=r.random() < 0.3, ndim=r.choice([2, 3, 4, 4]))
        fmt = r.choice(["torch.contiguous_format", "torch.preserve_format", "torch.channels_last"])
        fn = r.choice(["torch.zeros_like(x, memory_format=F)", "torch.empty_like(x, memory_format=F).stride()",
                       "torch.ones_like(x, memory_format=F, dtype=torch.float64)", "torch.full_like(x, 2, memory_format=F)",
                       "torch.zeros_like(x)", "torch.ones_like(x, dtype=torch.int32)"])
        return [f"x = {_input(r, shape, 'torch.float32')}"], fn.replace("F", fmt)
    _check(_cases(3, make, 100))


def test_nonzero_is_laid_out_by_column():
    def make(r):
        shape = _shape(r, empty=r.random() < 0.5, ndim=r.choice([1, 2, 3]))
        return [f"x = {_input(r, shape, r.choice(['torch.int64', 'torch.bool', 'torch.float32']))} % 2"], \
            r.choice(["x.nonzero()", "torch.nonzero(x)", "torch.argwhere(x)", "x[0].nonzero() if x.ndim > 1 else x.nonzero()"])
    _check(_cases(4, make, 60) + [(["x = torch.tensor(0)"], "x.nonzero()"), (["x = torch.tensor(2)"], "x.nonzero()")])


_CONTIGUOUS = ["x.sum(D, keepdim=True)", "x.prod(D, keepdim=True)", "x.all(D, keepdim=True)", "x.any(D)",
               "x.all()", "x.any(D, keepdim=False)", "x.aminmax(dim=D, keepdim=True)", "x.logcumsumexp(D)",
               "x.amax(D, keepdim=True)", "x.mean(D, keepdim=True)", "x.topk(0, D)", "x.cummax(D)", "x.cummin(D)",
               "x.sum(D, keepdim=True).exp()", "x.std(D, keepdim=True)", "x.logsumexp(D, keepdim=True)"]


def test_reductions_and_contiguous_results_have_c_order_strides():
    def make(r):
        shape = _shape(r, empty=r.random() < 0.4)
        expr = r.choice(_CONTIGUOUS).replace("D", str(r.randrange(-len(shape), len(shape))))
        return [f"x = {_input(r, shape, r.choice(_FLOATS))}"], expr
    _check(_cases(5, make, 150))


_SIZE_ONE = ["x.double()", "x.to(torch.float64)", "x.sort(0)", "x.sort(-1)", "x.argsort(0)", "torch.nan_to_num(x)",
             "x.logical_not()", "x.abs()", "x.exp()", "x.clone()", "x.neg()", "x.to(torch.complex64).conj()"]


def test_size_one_dims_keep_preserved_or_dense_strides():
    def make(r):
        shape = [r.choice([1, 1, 2, 3]) for _ in range(r.choice([1, 2, 3, 4]))]
        return [f"x = {_input(r, shape, r.choice(_FLOATS))}"], r.choice(_SIZE_ONE)
    _check(_cases(6, make, 150))


def test_unique_along_a_dim_layout_and_checks():
    def make(r):
        shape = _shape(r, empty=r.random() < 0.4, ndim=r.choice([1, 2, 3]))
        dtype = r.choice(_FLOATS + ["torch.int64", "torch.complex64"])
        d = r.randrange(-len(shape), len(shape))
        expr = r.choice([f"torch.unique(x, dim={d})", f"torch.unique_consecutive(x, dim={d}, return_inverse=True)",
                         f"x.unique(dim={d}, return_counts=True)", "x.unique_consecutive()", "torch.unique(x)"])
        return [f"x = {_input(r, shape, dtype)}"], expr
    _check(_cases(7, make, 120))


def test_matmul_folding_of_empty_operands():
    def make(r):
        shape = _shape(r, empty=r.random() < 0.7, ndim=r.choice([3, 4]))
        m = [shape[-1], r.choice([0, 1, 2])]
        return [f"x = {_input(r, shape, 'torch.float32')}", f"m = {_input(r, m, 'torch.float32')}"], \
            r.choice(["x @ m", "torch.matmul(x, m)", "m.mT @ x.mT", "x @ m[:, 0]"])
    _check(_cases(8, make, 60))


def test_views_and_new_results_of_one_dim_empty_tensors():
    cases = [(["x = torch.arange(0)"], e) for e in
             ["x.unsqueeze(0)", "x.unsqueeze(1)", "x[None]", "x[:, None]", "x.expand(2, 0)", "x.repeat(2)",
              "x.reshape(2, 0).repeat(1, 3)", "x.reshape(0, 1)", "x.view(1, 0, 1)"]]

    def make(r):
        shape = _shape(r)
        return [f"x = {_input(r, shape, 'torch.float32')}"], r.choice(
            ["x.repeat(*([2] * x.ndim))", "x.repeat(*([1] * x.ndim))", "x.mode(0)", "x.to(torch.complex64).mode(0)",
             "x.unsqueeze(0)", "x.unsqueeze(-1)"])
    _check(cases + _cases(9, make, 60))


def test_mixed_dtype_operands_are_cast_before_the_layout_is_chosen():
    """On the CPU, TensorIterator copies an operand of another dtype than the common one (.to(), preserve_format)
    before it picks its path: the copy of an overlapping input is dense, and the operands may then all be
    contiguous (its fast path) where the inputs as given were not."""
    dtypes = ["torch.float32", "torch.float64", "torch.int32", "torch.int64", "torch.float16", "torch.bool"]

    def make(r):
        shape = [r.choice([1, 2, 3]) for _ in range(r.choice([2, 3, 4]))]
        a, b = r.sample(dtypes, 2)
        other = _broadcast(r, shape) if r.random() < 0.4 else list(shape)
        return [f"x = {_input(r, shape, a)}", f"y = {_input(r, other, b)}"], r.choice(
            ["x + y", "y * x", "torch.maximum(x, y)", "x == y", "x < y", "torch.where(x > 0, x, y)"])
    _check(_cases(10, make, 200))
