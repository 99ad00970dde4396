"""Sorting, selection and counting against PyTorch on generated inputs, ties and nans included:
the indices PyTorch's CPU kernels choose among equal values (std::sort, nth_element, partial_sort,
TH's quickselect), values, dtypes and grad_fn names."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402

RNG = np.random.default_rng(1234)
DTYPES = ["float32", "float64", "int64", "int32", "int16", "uint8"]
LENGTHS = [1, 2, 3, 5, 16, 17, 20, 33, 64, 65, 130, 300]


def tied(shape, dtype, levels=4, nan=False):
    a = RNG.integers(0, levels, shape).astype(dtype)
    if nan and a.dtype.kind == "f" and a.size:
        a.reshape(-1)[RNG.random(a.size) < 0.15] = np.nan
    return a


def both(a):
    return gradlab.tensor(a), torch.tensor(a)


def same(g, t):
    gn = g._data if isinstance(g, gradlab.Tensor) else np.asarray(g)
    tn = t.numpy()
    assert str(g.dtype) == str(t.dtype)
    assert gn.shape == tn.shape
    np.testing.assert_array_equal(gn, tn)


def cases():
    for dtype in DTYPES:
        for n in LENGTHS:
            for rows in (1, 3):
                yield dtype, n, rows


@pytest.mark.parametrize("dtype,n,rows", list(cases()))
def test_sort_ties(dtype, n, rows):
    for trial in range(3):
        a = tied((rows, n), dtype, levels=2 + trial * 3, nan=trial == 2)
        g, t = both(a)
        for descending in (False, True):
            for stable in (False, True):
                gs, ts = g.sort(descending=descending, stable=stable), t.sort(descending=descending, stable=stable)
                same(gs.values, ts.values)
                same(gs.indices, ts.indices)
            same(g.argsort(dim=-1, descending=descending), t.argsort(dim=-1, descending=descending))
        same(gradlab.sort(g, 0).indices, torch.sort(t, 0).indices)


@pytest.mark.parametrize("dtype,n,rows", list(cases()))
def test_topk_ties(dtype, n, rows):
    for trial in range(3):
        a = tied((rows, n), dtype, levels=2 + trial * 3, nan=trial == 2)
        g, t = both(a)
        for k in sorted({0, 1, 2, n // 3, n // 2, n - 1, n} & set(range(n + 1))):
            for largest in (True, False):
                for srt in (True, False):
                    gk, tk = g.topk(k, largest=largest, sorted=srt), t.topk(k, largest=largest, sorted=srt)
                    same(gk.values, tk.values)
                    same(gk.indices, tk.indices)


@pytest.mark.parametrize("dtype,n,rows", [c for c in cases() if c[0] != "uint8"])
def test_kthvalue_median_mode_ties(dtype, n, rows):
    for trial in range(3):
        a = tied((rows, n), dtype, levels=2 + trial * 3, nan=trial == 2)
        g, t = both(a)
        for k in sorted({1, 2, n // 2, n} & set(range(1, n + 1))):
            for keepdim in (False, True):
                gk, tk = g.kthvalue(k, 1, keepdim), t.kthvalue(k, 1, keepdim)
                same(gk.values, tk.values)
                same(gk.indices, tk.indices)
        for name in ("median", "nanmedian", "mode"):
            gm, tm = getattr(g, name)(-1), getattr(t, name)(-1)
            same(gm.values, tm.values)
            same(gm.indices, tm.indices)
        for name in ("median", "nanmedian"):
            same(getattr(g, name)(), getattr(t, name)())
        for name in ("cummax", "cummin"):
            gc, tc = getattr(g, name)(1), getattr(t, name)(1)
            same(gc.values, tc.values)
            same(gc.indices, tc.indices)


@pytest.mark.parametrize("shape", [(5,), (2, 3), (3, 1, 4), (0, 3), (2, 0)])
def test_counting(shape):
    a = tied(shape, "int64", levels=4)
    g, t = both(a)
    same(g.count_nonzero(), t.count_nonzero())
    for d in range(len(shape)):
        same(g.count_nonzero(d), t.count_nonzero(d))
        if a.size:
            gu, tu = g.unique(dim=d, return_inverse=True, return_counts=True), \
                t.unique(dim=d, return_inverse=True, return_counts=True)
            for x, y in zip(gu, tu):
                same(x, y)
            for x, y in zip(g.unique_consecutive(dim=d, return_inverse=True, return_counts=True),
                            t.unique_consecutive(dim=d, return_inverse=True, return_counts=True)):
                same(x, y)
        same(g.cumprod(d), t.cumprod(d))
        same(g.diff(dim=d), t.diff(dim=d))
        same(g.diff(2, d), t.diff(2, d))
    for x, y in zip(gradlab.unique(g, return_inverse=True, return_counts=True),
                    torch.unique(t, return_inverse=True, return_counts=True)):
        same(x, y)
    for x, y in zip(gradlab.unique_consecutive(g, return_inverse=True, return_counts=True),
                    torch.unique_consecutive(t, return_inverse=True, return_counts=True)):
        same(x, y)
    flat = a.reshape(-1)
    gb, tb = both(flat)
    same(gb.bincount(), tb.bincount())
    same(gb.bincount(minlength=7), tb.bincount(minlength=7))
    w = RNG.random(flat.shape).astype(np.float32)
    same(gb.bincount(gradlab.tensor(w)), tb.bincount(torch.tensor(w)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_histc_searchsorted(dtype):
    for trial in range(5):
        a = (RNG.standard_normal(40) * 3).astype(dtype)
        g, t = both(a)
        for bins, lo, hi in ((10, 0, 0), (7, -2, 2), (3, -1, 0.5), (100, 0, 0)):
            same(g.histc(bins, lo, hi), t.histc(bins, lo, hi))
            same(gradlab.histc(g, bins=bins, min=lo, max=hi), torch.histc(t, bins=bins, min=lo, max=hi))
        boundaries = np.sort(tied((9,), dtype, levels=6))
        gs, ts = both(boundaries)
        for right in (False, True):
            same(gradlab.searchsorted(gs, g, right=right), torch.searchsorted(ts, t, right=right))
            same(gradlab.bucketize(g, gs, right=right), torch.bucketize(t, ts, right=right))
        same(gradlab.searchsorted(gs, g, side="right", out_int32=True),
             torch.searchsorted(ts, t, side="right", out_int32=True))
        b2 = np.sort(tied((3, 6), dtype, levels=5), axis=1)
        v2 = tied((3, 4), dtype, levels=6)
        same(gradlab.searchsorted(gradlab.tensor(b2), gradlab.tensor(v2)), torch.searchsorted(torch.tensor(b2),
                                                                                             torch.tensor(v2)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool"])
def test_cumprod_dtypes(dtype):
    a = tied((3, 4), dtype if dtype != "bool" else "int64", levels=3)
    if dtype == "bool":
        a = a.astype(bool)
    g, t = both(a)
    for d in (0, 1, -1):
        same(g.cumprod(d), t.cumprod(d))
        same(gradlab.cumprod(g, d, dtype=gradlab.float64), torch.cumprod(t, d, dtype=torch.float64))


def grads(T, a, fn):
    x = T.tensor(a, requires_grad=True)
    out = fn(T, x)
    out = out[0] if isinstance(out, tuple) else out
    out.backward(T.ones_like(out) * T.arange(out.numel(), dtype=out.dtype).reshape(out.shape))
    return type(out.grad_fn).__name__, x.grad.numpy() if T is torch else x.grad._data


@pytest.mark.parametrize("fn", [
    lambda T, x: x.sort(1, descending=True), lambda T, x: x.topk(2, 1), lambda T, x: x.kthvalue(2, 0),
    lambda T, x: x.median(1), lambda T, x: x.median(), lambda T, x: x.nanmedian(0, keepdim=True),
    lambda T, x: x.nanmedian(), lambda T, x: x.mode(1), lambda T, x: x.cummax(1), lambda T, x: x.cummin(0),
    lambda T, x: x.cumprod(1), lambda T, x: x.cumprod(0), lambda T, x: T.msort(x), lambda T, x: x.diff(dim=0),
    lambda T, x: T.diff(x, n=2, prepend=x[:, :1])])
def test_gradients_with_ties(fn):
    for trial in range(4):
        a = tied((3, 5), "float64", levels=3)
        if trial == 3:
            a[0, 0] = 0.0
        gname, ggrad = grads(gradlab, a, fn)
        tname, tgrad = grads(torch, a, fn)
        assert gname == tname
        np.testing.assert_allclose(ggrad, tgrad, rtol=1e-12, atol=1e-12)


def test_unique_has_no_derivative():
    x = gradlab.tensor([3.0, 1.0, 3.0], requires_grad=True)
    u = x.unique()
    assert type(u.grad_fn).__name__ == "Unique2Backward0"
    with pytest.raises(NotImplementedError, match="the derivative for '_unique2' is not implemented."):
        u.sum().backward()


@pytest.mark.parametrize("fn", [
    lambda x: x.cummax(0), lambda x: x.cummin(1), lambda x: x.cumprod(0), lambda x: x.sort(0), lambda x: x.sort(1),
    lambda x: x.topk(4, 0), lambda x: x.topk(3, 1), lambda x: x.topk(2, 0), lambda x: x.kthvalue(1, 0, True),
    lambda x: x.median(0, True), lambda x: x.mode(1, True), lambda x: x.diff(dim=0), lambda x: x.msort(),
    lambda x: x.argsort(1), lambda x: x.sort(dim=1, stable=True)])
def test_result_layouts(fn):
    """Strides of results from transposed, expanded and sliced inputs, as PyTorch lays them out."""
    def strides(T, view):
        out = fn(view(T))
        return [o.stride() for o in (out if isinstance(out, tuple) else (out,))]
    for view in (lambda T: T.arange(12.0).reshape(3, 4).t(),                  # (all of shape (4, 3))
                 lambda T: T.arange(4.0).reshape(4, 1).expand(4, 3),
                 lambda T: T.arange(3.0).expand(4, 3),
                 lambda T: T.arange(24.0).reshape(3, 8)[:, ::2].t(),
                 lambda T: T.arange(30.0).reshape(5, 6)[1:, ::2]):
        assert strides(gradlab, view) == strides(torch, view)


EDGE_CALLS = ["x.sort()", "x.sort(0)", "x.argsort()", "x.msort()", "x.topk(0)", "x.topk(1)", "x.topk(0, 0)",
              "x.kthvalue(1)", "x.kthvalue(1, 0)", "x.median()", "x.median(0)", "x.median(-1)", "x.nanmedian()",
              "x.nanmedian(0)", "x.mode()", "x.mode(0)", "x.unique()", "x.unique(dim=0)",
              "x.unique(return_inverse=True, return_counts=True)", "x.unique_consecutive()",
              "x.unique_consecutive(dim=0, return_counts=True)", "x.count_nonzero()", "x.count_nonzero(0)",
              "x.cumprod(0)", "x.cumprod(-1)", "x.cummax(0)", "x.cummin(-1)", "x.diff()", "x.diff(dim=0)", "x.histc(3)",
              "x.sort(descending=True, stable=True)", "x.bincount()", "x.kthvalue(2, 0)", "x.topk(2, 0)"]


def outcome(T, call, x):
    try:
        out = eval(call, {"T": T}, {"x": x})
    except Exception as e:      # noqa: BLE001 (the error is what is compared)
        return ("raises", type(e).__name__, str(e))
    outs = out if isinstance(out, tuple) else (out,)
    return (repr(out), [type(o.grad_fn).__name__ for o in outs])


@pytest.mark.parametrize("shape", [(), (0,), (2, 0), (0, 3), (1,), (3,), (2, 3)])
@pytest.mark.parametrize("dtype,requires_grad", [("float32", False), ("float32", True), ("int64", False),
                                                 ("bool", False)])
def test_edge_shapes(shape, dtype, requires_grad):
    """Empty, 0-d and one-element inputs: results, grad_fn names and errors as PyTorch's."""
    a = (np.arange(int(np.prod(shape))) % 3).reshape(shape).astype(dtype)
    for call in EDGE_CALLS:
        g = gradlab.tensor(a, requires_grad=requires_grad)
        t = torch.tensor(a, requires_grad=requires_grad)
        assert outcome(gradlab, call, g) == outcome(torch, call, t), call


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_cumprod_rounding(dtype):
    """Long running products round as PyTorch's (which accumulates in double, rounding each result)."""
    a = RNG.uniform(0.75, 1.25, (3, 400)).astype(dtype)
    g, t = both(a)
    same(g.cumprod(1), t.cumprod(1))


@pytest.mark.parametrize("n", [1, 5, 16, 17, 40, 100])
def test_unique_with_nans_and_zeros(n):
    """Each nan is its own value, -0.0 equals 0.0; inverse and counts follow PyTorch's sort."""
    for trial in range(4):
        a = tied((n,), "float32", levels=3, nan=True)
        a[RNG.random(n) < 0.2] = -0.0
        g, t = both(a)
        for sorted_ in (True, False):
            for x, y in zip(gradlab.unique(g, sorted=sorted_, return_inverse=True, return_counts=True),
                            torch.unique(t, sorted=sorted_, return_inverse=True, return_counts=True)):
                same(x, y)
