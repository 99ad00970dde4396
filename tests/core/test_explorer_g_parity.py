"""What an independent explorer of indexing found (issue 14: `x[...]`, `x[...] = v` and the indexing functions),
each finding widened into generated cases run under gradlab and under live torch: the outcomes (values, dtype,
shape, strides, storage offset, version, requires_grad and grad_fn's name, gradients; or the exception's type
and message; and the warnings shown) must be the same.

- a list index is read as PyTorch's indexing_tensor_from_data reads it: its dtype inferred over every element,
  then stored as longs (ragged rows, an ellipsis, None, a slice, a complex number, numpy's float32 or bool_
  inside it: torch.tensor's errors, not numpy's); numpy.bool_ is no index at all;
- take_along_dim wraps its indices along dim (remainder: -1 is the last, size the first; an empty dim divides
  by zero); gather takes sparse_grad, and checks nothing more of an empty index;
- index_add/index_copy read no index when self or source is empty (index_copy's setStorage error when self is
  empty and source is not), index_add's words for a 1-d self, index_select's bounds in the gradients that call
  it; index_fill checks the index's dtype first; masked_fill's order (out of place, the broadcast first; the
  value's dims; the mask's dtype; in place, the broadcast) and a 0-d value the tensor can not hold (it wrapped);
  index_put into a dim of size 0 is refused before the value is looked at;
- index_put_ warns of a uint8 mask even when it then fails (and once when it succeeds); masked_scatter_ warns
  after its expand (not when the expand fails);
- a real value that requires grad, written into a complex tensor by a fill (`x[k] = 0-d`, a mask) or mixed
  into torch.where: PyTorch's engine refuses its complex gradient;
- a view made to require grad and viewed again is a view of a leaf to check_inplace; index_put_ refuses an index
  sharing self's memory (`x[x] = v`); a slice's zero step is an error as soon as it is read; writes through a
  detached view (`.data`, `.detach()`) of an expanded tensor reach its memory (fill_ of a 0-d or one-element one
  wrote nothing); index_reduce's checks (complex kernels, its index_fill_ of the identity, select on an empty dim,
  the beta warning first);
- layouts: nonzero()'s empty result has strides (1, n); an advanced index's result keeps the strides of its
  size-1 dims in TensorIterator's ordering (and its index operands' view strides).
"""
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _describe(value, version=True):
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(_describe(v, version) for v in value)
    if type(value).__name__ in ("Tensor", "Parameter"):
        return ("Tensor", repr(value.detach().tolist()), str(value.dtype), tuple(value.shape), value.stride(),
                value.storage_offset(), value._version if version else None, value.requires_grad,
                value.grad_fn.name() if value.grad_fn is not None else None)
    return type(value).__name__, repr(value)


def outcome(module, code):
    """What running `code` gives: each value it records with R(...) (G(...): gradients, whose version depends on
    whether PyTorch's AccumulateGrad could steal the buffer, not part of these findings), or the error; and the
    warnings shown."""
    seen = []
    namespace = {"torch": module, "np": np, "R": lambda *vs: seen.extend(_describe(v) for v in vs),
                 "G": lambda *vs: seen.extend(_describe(v, version=False) for v in vs)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
            result = seen
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            result = seen + [f"{type(error).__name__}: {error}"]
    shown = sorted({(w.category.__name__, str(w.message)) for w in caught})
    return result, shown


def check(code):
    expected, got = outcome(torch, code), outcome(gradlab, code)
    assert got == expected, code


def _cases(make, n, seed):
    r = random.Random(seed)
    return [make(r) for _ in range(n)]


# --- list indices: indexing_tensor_from_data --------------------------------------------------------------------
_ELEMENTS = ["0", "1", "-1", "2", "1.5", "True", "False", "None", "...", "slice(1)", "1+2j", "np.float32(1.2)",
             "np.int64(1)", "np.bool_(True)", "np.uint8(1)", "torch.tensor(1)", "torch.tensor(1.5)", "2**63", "'a'",
             "[0, 1]", "[1]", "[]", "[0, [1]]", "[0, 1, 2]", "(0, 1)"]


def _list_index(r):
    def item(depth):
        if depth < 2 and r.random() < 0.3:
            return "[" + ", ".join(item(depth + 1) for _ in range(r.choice([1, 2, 3]))) + "]"
        return r.choice(_ELEMENTS)
    key = "[" + ", ".join(item(1) for _ in range(r.choice([1, 2, 3]))) + "]"
    form = r.choice(["R(x[{k}])", "x[{k}] = 0; R(x)", "R(x[{k}, 0])", "R(x[0:2, {k}])"])
    return "x = torch.arange(12).reshape(3, 4)\n" + form.format(k=key)


@pytest.mark.parametrize("code", _cases(_list_index, 160, 1))
def test_list_indices_read_as_pytorch_reads_them(code):
    check(code)


@pytest.mark.parametrize("code", [f"x = torch.arange(6.).reshape(2, 3)\nR(x[{k}])" for k in (
    "np.bool_(True)", "np.bool_(False)", "0, np.bool_(True)", "[], np.bool_(True), ::0", "np.bool_(True), 5"
)] + ["x = torch.zeros(2, 3)\nx[np.bool_(True)] = 1\nR(x)", "x = torch.zeros(2, 3)\nx[0, np.bool_(False)] = 1\nR(x)"])
def test_numpy_bool_is_no_index(code):
    check(code)


# --- take_along_dim, gather --------------------------------------------------------------------------------------
def _take_along(r):
    shape = r.choice([(3, 4), (2, 3, 2), (4,), (0, 3), (3, 0)])
    dim = r.randrange(-len(shape), len(shape)) if r.random() < 0.85 else None
    n = shape[dim] if dim is not None else int(np.prod(shape))
    ishape = list(shape) if dim is not None else [r.choice([1, 2, 3])]
    if dim is not None:
        ishape[dim] = r.choice([1, 2, 3])
    values = np.array([r.randint(-2 * max(n, 1), 2 * max(n, 1)) for _ in range(int(np.prod(ishape)))]).reshape(ishape)
    rg = r.random() < 0.5
    return (f"x = torch.arange({int(np.prod(shape))}.).reshape({shape}).requires_grad_({rg})\n"
            f"y = torch.take_along_dim(x, torch.tensor({values.tolist()}, dtype=torch.long), dim={dim})\nR(y)\n"
            + ("y.sum().backward()\nG(x.grad)" if rg else ""))


@pytest.mark.parametrize("code", _cases(_take_along, 60, 2))
def test_take_along_dim_wraps_its_indices(code):
    check(code)


def _gather_empty(r):
    shape = r.choice([(3,), (2, 3), (), (0, 2)])
    ishape = r.choice([(0,), (5, 0), (0, 9, 2), (2, 0)])
    dtype = r.choice(["torch.long", "torch.float32", "torch.int16", "torch.int32"])
    dim = r.choice([0, -1, 1])
    sparse = r.choice(["", ", sparse_grad=False"])     # (True: a sparse gradient, which gradlab has not)
    return (f"x = torch.ones({shape}, requires_grad=True)\ny = x.gather({dim}, torch.zeros({ishape}, dtype={dtype})"
            f"{sparse})\nR(y)\ny.sum().backward()\nG(x.grad)")


@pytest.mark.parametrize("code", _cases(_gather_empty, 40, 3) + [
    "x = torch.arange(6.).reshape(2, 3)\nR(x.gather(1, torch.tensor([[0, 2], [1, 1]]), sparse_grad=True))",
    "x = torch.arange(6.).reshape(2, 3)\nR(torch.gather(x, 1, torch.tensor([[0, 2], [1, 1]]), sparse_grad=False))"])
def test_gather_empty_index_and_sparse_grad(code):
    check(code)


# --- index_add, index_copy, index_fill: empty tensors, check order ------------------------------------------------
def _index_add_copy(r):
    f = r.choice(["index_add", "index_copy", "index_add_", "index_copy_"])
    shape = r.choice([(4,), (0,), (), (3, 2), (3, 0), (0, 2), (2, 0, 3)])
    nd = len(shape)
    dim = r.randrange(-max(nd, 1), max(nd, 1))
    k = r.choice([0, 1, 2])
    sshape = list(shape)
    if nd:
        sshape[dim] = k
    idx = [r.choice([0, 1, -1, 5, 2]) for _ in range(k if nd else 1)]
    idt = r.choice(["torch.long", "torch.long", "torch.int32"])
    rg = r.random() < 0.4
    return (f"x = torch.zeros({shape}, requires_grad={rg})\nv = torch.ones({tuple(sshape)}, requires_grad={rg})\n"
            f"y = (x * 1 if {rg} else x.clone()).{f}({dim}, torch.tensor({idx}, dtype={idt}), v)\nR(y)\n"
            + ("y.sum().backward()\nG(x.grad, v.grad)" if rg else ""))


@pytest.mark.parametrize("code", _cases(_index_add_copy, 120, 4))
def test_index_add_and_copy_of_empty_tensors(code):
    check(code)


def _index_fill_order(r):
    x = r.choice(["torch.zeros(3, 2)", "torch.zeros(3, 2).long()", "torch.zeros(()) + 0j", "torch.zeros(2, 2).bool()"])
    idx = r.choice(["torch.tensor([0])", "torch.tensor([0], dtype=torch.int32)", "torch.tensor([[0]])",
                    "torch.tensor([5])", "torch.tensor(0.)", "torch.tensor([-1])"])
    dim = r.choice([0, 1, 5, -1])
    value = r.choice(["1+2j", "torch.ones(2)", "1.0", "torch.tensor(1+1j)", "torch.tensor(1+0j)", "torch.tensor(2.5)",
                      "True"])
    form = r.choice(["x.index_fill({d}, i, {v})", "x.clone().index_fill_({d}, i, {v})",
                     "torch.index_fill(x, {d}, i, {v})"])
    return f"x = {x}\ni = {idx}\nR(" + form.format(d=dim, v=value) + ")"


@pytest.mark.parametrize("code", _cases(_index_fill_order, 80, 5))
def test_index_fill_checks_in_pytorch_order(code):
    check(code)


def _masked_fill_order(r):
    x = r.choice(["torch.zeros(3)", "torch.zeros(3, dtype=torch.int8)", "torch.zeros(3, dtype=torch.bool)",
                  "torch.zeros(2, 3, dtype=torch.uint8)", "torch.zeros(3, dtype=torch.float16)"])
    mask = r.choice(["torch.tensor([1, 0, 1], dtype=torch.uint8)", "torch.tensor([True, False, True])",
                     "torch.ones(2, dtype=torch.bool)", "torch.ones(2, 3, dtype=torch.bool)",
                     "torch.tensor([1, 0, 1])", "torch.zeros(0, 5, 0, dtype=torch.bool)"])
    value = r.choice(["torch.ones(2)", "torch.tensor(1+1j)", "1+1j", "300", "torch.tensor(300)", "2.5",
                      "torch.tensor([1.])", "torch.tensor(-1)", "torch.tensor(1e300, dtype=torch.float64)", "-129"])
    form = r.choice(["x.masked_fill(m, v)", "x.masked_fill_(m, v)", "torch.masked_fill(x, m, v)"])
    return f"x = {x}\nm = {mask}\nv = {value}\nR({form})"


@pytest.mark.parametrize("code", _cases(_masked_fill_order, 120, 6))
def test_masked_fill_checks_in_pytorch_order(code):
    check(code)


# --- index_put_: a dim of size 0, uint8 masks' warning -------------------------------------------------------------
def _index_put(r):
    shape = r.choice([(3, 2), (0,), (0, 2), (2, 0), (3, 0, 2)])
    masks = ["torch.tensor([1, 0], dtype=torch.uint8)", "torch.tensor([1, 0, 1], dtype=torch.uint8)",
             "torch.tensor([True, False, True])", "torch.tensor([0, -1])", "torch.tensor([5])", "torch.tensor([0])"]
    idx = ", ".join(r.choice(masks) for _ in range(r.choice([1, 1, 2])))
    value = r.choice(["torch.tensor(1.)", "torch.ones(2)", "torch.ones(1, dtype=torch.long)", "torch.ones(7)",
                      "torch.ones(2, dtype=torch.float16)"])
    acc = r.choice(["", ", True", ", accumulate=False"])
    form = r.choice(["x.index_put_(({i},), {v}{a})", "x.index_put(({i},), {v}{a})", "torch.index_put(x, ({i},), {v}{a})"])
    return f"x = torch.zeros({shape})\nR(" + form.format(i=idx, v=value, a=acc) + ")"


@pytest.mark.parametrize("code", _cases(_index_put, 140, 7))
def test_index_put_size_zero_dims_and_uint8_warnings(code):
    check(code)


@pytest.mark.parametrize("code", [
    f"x = torch.zeros({s})\nm = torch.tensor({m}, dtype=torch.uint8)\nR(x.{f}(m, torch.ones(6)))"
    for s in ("4", "(2, 3)", "(1, 2, 3)") for m in ("[1, 0, 1]", "[[1, 0, 1]]", "[1, 0, 1, 0]", "[]")
    for f in ("masked_scatter_", "masked_scatter")])
def test_masked_scatter_warns_after_its_expand(code):
    check(code)


# --- a real value written into a complex tensor ----------------------------------------------------------------------
def _real_into_complex(r):
    key = r.choice(["0:0", "0:1", "0", "...", "torch.tensor([False, False])", "torch.tensor([True, False])", ":"])
    # (a value of one element written by copy_: PyTorch's gradient is real(grad), a view of stride 2 that its
    # AccumulateGrad keeps for a size-1 dim; gradlab's is contiguous: not part of these findings)
    value = r.choice(["torch.tensor(2.5, requires_grad=True)", "torch.tensor([[2.5]], requires_grad=True)[0]",
                      "torch.tensor(2.5, dtype=torch.float64, requires_grad=True)",
                      "torch.tensor(2.5 + 1j, requires_grad=True)", "torch.tensor([2.5, 1.5], requires_grad=True)"])
    return (f"a = torch.tensor([1 + 1j, -2 + 0j], requires_grad=True)\nx = a * 2\nb = {value}\nx[{key}] = b\nR(x)\n"
            "x.abs().sum().backward()\nG(a.grad, b.grad)")


def _real_into_complex_functions(r):
    form = r.choice(["x.masked_fill(x.real > 0, b)", "x.index_fill(0, torch.tensor([0]), b)", "x.clone().fill_(b)",
                     "torch.where(x.real > 0, x, b)", "torch.where(x.real > 0, b, x)",
                     "x.index_put((torch.tensor([True, False]),), b)", "x.masked_fill(x.real > 0, b.double())"])
    dtype = r.choice(["torch.float32", "torch.complex64", "torch.float64"])
    return (f"a = torch.tensor([1 + 1j, -2 + 0j], requires_grad=True)\nx = a * 2\n"
            f"b = torch.tensor(2.5, dtype={dtype}, requires_grad=True)\ny = {form}\nR(y)\n"
            "y.abs().sum().backward()\nG(a.grad, b.grad)")


@pytest.mark.parametrize("code", _cases(_real_into_complex, 50, 8) + _cases(_real_into_complex_functions, 50, 9))
def test_real_value_into_complex_gradient_refused(code):
    check(code)


# --- layouts -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("code", [f"x = {x}\nR(x.nonzero(), torch.argwhere(x), torch.nonzero(x))" for x in (
    "torch.tensor(3)", "torch.tensor(0)", "torch.tensor([1, 0, 2])", "torch.zeros(0, 3)", "torch.zeros(2, 2)",
    "torch.ones(1, 1)", "torch.zeros(2, 0, 3)", "torch.tensor([[1, 0], [2, 3]])", "torch.zeros(4).bool()")])
def test_nonzero_empty_result_strides(code):
    check(code)


def _advanced_layout(r):
    shape = r.choice([(4, 1, 5), (5, 2, 1), (3, 3, 3, 1), (1, 3, 1, 2), (2, 1, 3), (3, 1), (1, 4), (2, 3, 1, 1)])
    perm = list(range(len(shape)))
    r.shuffle(perm)
    inv = [perm.index(i) for i in range(len(shape))]
    key = []
    for n in shape:
        c = r.random()
        if c < 0.3:
            key.append(":")
        elif c < 0.6:
            key.append(f"torch.tensor({[r.randrange(n) for _ in range(r.choice([1, 2, 3]))]})")
        elif c < 0.75:
            key.append(f"torch.tensor({[[r.randrange(n)] * 2] * r.choice([1, 2])})")
        elif c < 0.85:
            # (at least one True where the mask's dim has more than one element: an empty result whose other dims
            # are all of size 1 is laid out as gradlab does not yet know)
            mask = [r.random() < 0.5 for _ in range(n)]
            mask[r.randrange(n)] |= n > 1
            key.append(f"torch.tensor({mask})")
        else:
            key.append(str(r.randrange(n)))
    return (f"x = torch.arange({int(np.prod(shape))}).reshape({[shape[p] for p in perm]}).permute({inv})\n"
            f"R(x[{', '.join(key)}])")


@pytest.mark.parametrize("code", _cases(_advanced_layout, 150, 10))
def test_advanced_index_result_layout(code):
    check(code)


# --- in-place writes: a view's leaf base, an index sharing self's memory, detached views of expanded tensors ---------
@pytest.mark.parametrize("code", [
    f"base = torch.arange(6.).mul(0.5).reshape({shape}).requires_grad_()\nx = base{view}\ny = x{key}\n{op}\nR(x)"
    for shape, view in (("(2, 3)", ".t()"), ("(2, 3)", ".permute(1, 0)"), ("(6,)", ".view(2, 3)"), ("(2, 3)", ""))
    for key in ("[..., -2::1]", "[0]", "[:]", "[None]")
    for op in ("y += 1", "y.mul_(2)", "y[0] = 1", "y.zero_()")])
def test_view_of_a_view_made_to_require_grad(code):
    check(code)


@pytest.mark.parametrize("code", [f"x = {x}\nx[{k}] = {v}\nR(x)" for x in (
    "torch.tensor([True, False, True])", "torch.tensor([0, 2, 1])", "torch.tensor([[True, False], [True, True]])")
    for v in ("0", "torch.tensor(5)", "torch.arange(2)", "torch.tensor([True])", "torch.tensor([False, True])")
    for k in ("x", "x.clone()", "(x,)", "x[:2]")] + [
    f"x = torch.zeros(3, 0, 4).transpose(0, -1)\nx[{k}] = 1\nR(x)" for k in (
        "..., ..., torch.tensor([-3, 1]), 0:2:0", "..., ..., 0:2:0", "..., 0, ..., ::0", "::0, ..., ...")])
def test_index_sharing_memory_and_zero_steps(code):
    check(code)


@pytest.mark.parametrize("code", [
    f"base = torch.zeros(1, requires_grad=True)\nx = base.expand(3)\ny = x{k}\n{op}\nR(x, base)"
    for k in ("[:-2:2, None]", "[0]", "[None, 1:2]", "[...]", "[2]")
    for op in ("y.data.fill_(1)", "y.detach().fill_(2)", "y.detach()[...] = 3", "y.data.add_(1)", "y.detach().mul_(0)",
               "y.data.copy_(torch.tensor(4.))")])
def test_writes_through_detached_views_of_expanded_tensors(code):
    check(code)


def _index_reduce(r):
    dtype = r.choice(["torch.float32", "torch.complex64", "torch.int64", "torch.bool", "torch.float16"])
    shape = r.choice([(5,), (1, 0), (3, 2), (2, 2, 1, 2), (0, 3)])
    dim = r.choice([0, -1])
    index = r.choice([[5, 2], [-1, -1], [0, 1], [1], []])
    source = list(shape)
    source[dim] = len(index)
    return (f"x = torch.zeros({shape}, dtype={dtype})\nR(x.index_reduce({dim}, torch.tensor({index}, dtype=torch.long), "
            f"torch.ones({tuple(source)}, dtype={dtype}), {r.choice(['prod', 'mean', 'amax', 'amin'])!r}, "
            f"include_self={r.random() < 0.5}))")


@pytest.mark.parametrize("code", _cases(_index_reduce, 120, 11))
def test_index_reduce_checks_in_pytorch_order(code):
    check(code)


@pytest.mark.parametrize("code", [
    f"x = torch.zeros({shape}, dtype={dtype})\ni = {index}\nR(x.{f}(0, i, torch.ones(i.shape, dtype={dtype}), {red!r}, "
    f"include_self={inc}))"
    for dtype in ("torch.complex64", "torch.bool") for red in ("mean", "amax", "amin") for inc in (True, False)
    for shape, index in (("3", "torch.tensor([0, 0, 2])"), ("3", "torch.tensor([-1, 0, 1])"), ("3", "torch.tensor([5, 0])"),
                         ("0", "torch.tensor([0, 2])"), ("3", "torch.tensor([], dtype=torch.long)"),
                         ("(4, 0)", "torch.zeros(4, 0, dtype=torch.long)"))
    for f in ("scatter_reduce", "scatter_reduce_")] + [
    f"x = torch.zeros({s}).bool()\nx[x] = {v}\nR(x)" for s in ("(1, 0, 0)", "0", "3")
    for v in ("x[x] * 2", "torch.tensor([], dtype=torch.long)", "x[x]")])
def test_scatter_reduce_kernels_and_empty_self_masks(code):
    check(code)
