"""Sample inputs for the rows of as_strided, unfold, the *_copy ops, the *_scatter ops, and torch.fill
(see op_samples.py)."""
from hypothesis import strategies as st

from op_samples import Case, dim_of, pick, sample, shape, uniform


def _strided(draw, shp):
    """A size, stride and storage offset that stay inside a contiguous tensor of shape shp."""
    n = 1
    for s in shp:
        n *= s
    size = tuple(draw(st.lists(st.integers(1, 3), min_size=0, max_size=2)))
    stride = tuple(draw(st.integers(0, 3)) for _ in size)
    reach = sum((a - 1) * b for a, b in zip(size, stride))
    offset = draw(st.integers(0, max(n - 1 - reach, 0))) if reach < n else 0
    if reach + offset >= n:
        size, stride, offset = (1,), (1,), 0
    return size, stride, offset


@sample("as_strided_view", second_order=True)
def _as_strided_view(draw):
    shp = shape(draw, min_dims=1, min_side=2)
    size, stride, offset = _strided(draw, shp)
    fn = pick(draw, [lambda T, x: x.as_strided(size, stride, offset), lambda T, x: T.as_strided(x, size, stride),
                     lambda T, x: (x * 1).as_strided(size, stride, offset) * 2])
    return Case(fn, [uniform(draw, shp)])


def _as_strided_backward_fn(size, stride, offset):
    def fn(T, x, g):
        return T.autograd.grad(x.as_strided(size, stride, offset), x, g, create_graph=True)[0]
    return fn


@sample("as_strided_backward", graph_names=False)
def _as_strided_backward(draw):
    shp = shape(draw, min_dims=1, min_side=2)
    size, stride, offset = _strided(draw, shp)
    return Case(_as_strided_backward_fn(size, stride, offset), [uniform(draw, shp), uniform(draw, size)])


@sample("as_strided_copy")
def _as_strided_copy(draw):
    shp = shape(draw, min_dims=1, min_side=2)
    size, stride, offset = _strided(draw, shp)
    return Case(lambda T, x: T.as_strided_copy(x, size, stride, offset), [uniform(draw, shp)])


@sample("as_strided_inplace")
def _as_strided_inplace(draw):
    shp = shape(draw, min_dims=1, min_side=2)
    size, stride, offset = _strided(draw, shp)
    return Case(lambda T, x: (x * 1).as_strided_(size, stride, offset), [uniform(draw, shp)])


def _unfold_args(draw, shp):
    d = dim_of(draw, shp)
    n = shp[d] if shp else 1
    return d, draw(st.integers(0 if n else 0, n)), draw(st.integers(1, 3))


@sample("unfold", second_order=True)
def _unfold(draw):
    shp = shape(draw)
    d, size, step = _unfold_args(draw, shp)
    return Case(pick(draw, [lambda T, x: x.unfold(d, size, step), lambda T, x: (x * 2).unfold(d, size, step).exp()]),
                [uniform(draw, shp)])


def _unfold_backward_fn(d, size, step):
    def fn(T, x, g):
        return T.autograd.grad(x.unfold(d, size, step), x, g, create_graph=True)[0]
    return fn


@sample("unfold_backward")
def _unfold_backward(draw):
    shp = shape(draw, min_dims=1)
    d, size, step = _unfold_args(draw, shp)
    out = list(shp)
    out[d] = (shp[d] - size) // step + 1
    return Case(_unfold_backward_fn(d, size, step), [uniform(draw, shp), uniform(draw, tuple(out) + (size,))])


@sample("unfold_copy")
def _unfold_copy(draw):
    shp = shape(draw)
    d, size, step = _unfold_args(draw, shp)
    return Case(lambda T, x: T.unfold_copy(x, d, size, step), [uniform(draw, shp)])


# --- the *_copy ops -------------------------------------------------------------------------------------

@sample("view_copy")
def _view_copy(draw):
    shp = shape(draw)
    return Case(lambda T, x: T.view_copy(x, (-1,)), [uniform(draw, shp)])


@sample("alias_copy")
def _alias_copy(draw):
    return Case(lambda T, x: T.alias_copy(x), [uniform(draw, shape(draw))])


@sample("t_copy")
def _t_copy(draw):
    return Case(lambda T, x: T.t_copy(x), [uniform(draw, shape(draw, max_dims=2))])


@sample("transpose_copy")
def _transpose_copy(draw):
    shp = shape(draw, min_dims=1)
    a, b = dim_of(draw, shp), dim_of(draw, shp)
    return Case(lambda T, x: T.transpose_copy(x, a, b), [uniform(draw, shp)])


@sample("permute_copy")
def _permute_copy(draw):
    shp = shape(draw)
    dims = draw(st.permutations(list(range(len(shp)))))
    return Case(lambda T, x: T.permute_copy(x, dims), [uniform(draw, shp)])


@sample("squeeze_copy")
def _squeeze_copy(draw):
    return Case(lambda T, x: T.squeeze_copy(x), [uniform(draw, shape(draw, min_side=1, max_side=2))])


@sample("squeeze_dim_copy")
def _squeeze_dim_copy(draw):
    shp = shape(draw, max_side=2)
    d = dim_of(draw, shp)
    return Case(lambda T, x: T.squeeze_copy(x, d), [uniform(draw, shp)])


@sample("squeeze_dims_copy")
def _squeeze_dims_copy(draw):
    shp = shape(draw, min_dims=1, max_side=2)
    dims = (0, -1) if len(shp) > 1 else (0,)
    return Case(lambda T, x: T.squeeze_copy(x, dims), [uniform(draw, shp)])


@sample("unsqueeze_copy")
def _unsqueeze_copy(draw):
    shp = shape(draw)
    d = draw(st.integers(-len(shp) - 1, len(shp)))
    return Case(lambda T, x: T.unsqueeze_copy(x, d), [uniform(draw, shp)])


@sample("expand_copy")
def _expand_copy(draw):
    shp = shape(draw, max_side=1)
    return Case(lambda T, x: T.expand_copy(x, (2,) + tuple(2 for _ in shp)), [uniform(draw, shp)])


@sample("select_copy")
def _select_copy(draw):
    shp = shape(draw, min_dims=1)
    d = dim_of(draw, shp)
    i = draw(st.integers(-shp[d], shp[d] - 1))
    return Case(lambda T, x: T.select_copy(x, d, i), [uniform(draw, shp)])


@sample("slice_copy")
def _slice_copy(draw):
    shp = shape(draw, min_dims=1)
    d = dim_of(draw, shp)
    # (never empty: the displayed formula reads the slice's positions as an index tensor)
    start, end, step = draw(st.sampled_from([None, 0, -shp[d]])), draw(st.sampled_from([None, shp[d]])), \
        draw(st.integers(1, 2))
    return Case(lambda T, x: T.slice_copy(x, d, start, end, step), [uniform(draw, shp)])


@sample("split_copy")
def _split_copy(draw):
    shp = shape(draw, min_dims=1)
    d = dim_of(draw, shp)
    size = draw(st.integers(1, shp[d]))
    return Case(pick(draw, [lambda T, x: T.split_copy(x, size, d), lambda T, x: T.split_copy(x, size, d)[0]]),
                [uniform(draw, shp)])


@sample("split_with_sizes_copy")
def _split_with_sizes_copy(draw):
    shp = shape(draw, min_dims=1)
    d = dim_of(draw, shp)
    first = draw(st.integers(0, shp[d]))
    return Case(lambda T, x: T.split_with_sizes_copy(x, [first, shp[d] - first], d), [uniform(draw, shp)])


@sample("unbind_copy")
def _unbind_copy(draw):
    shp = shape(draw, min_dims=1)
    d = dim_of(draw, shp)
    return Case(lambda T, x: T.unbind_copy(x, d), [uniform(draw, shp)])


@sample("view_as_real_copy")
def _view_as_real_copy(draw):
    shp = shape(draw)
    return Case(lambda T, x: T.view_as_real_copy(x * (1 + 1j)), [uniform(draw, shp)])


@sample("narrow_copy")
def _narrow_copy(draw):
    shp = shape(draw, min_dims=1)
    d = dim_of(draw, shp)
    start = draw(st.integers(0, shp[d] - 1))
    length = draw(st.integers(1, shp[d] - start))
    return Case(pick(draw, [lambda T, x: x.narrow_copy(d, start, length), lambda T, x: T.narrow_copy(x, d, start,
                                                                                                     length)]),
                [uniform(draw, shp)])


@sample("unsafe_split_with_sizes")
def _unsafe_split_with_sizes(draw):
    shp = shape(draw, min_dims=1)
    d = dim_of(draw, shp)
    first = draw(st.integers(0, shp[d]))
    return Case(lambda T, x: T.unsafe_split_with_sizes(x, [first, shp[d] - first], d), [uniform(draw, shp)])


# --- src written into a view of a copy --------------------------------------------------------------------

@sample("select_scatter")
def _select_scatter(draw):
    shp = shape(draw, min_dims=1)
    d = dim_of(draw, shp)
    i = draw(st.integers(-shp[d], shp[d] - 1))
    rest = tuple(n for k, n in enumerate(shp) if k != d % len(shp))
    return Case(lambda T, x, s: T.select_scatter(x, s, d, i), [uniform(draw, shp), uniform(draw, rest)])


@sample("slice_scatter")
def _slice_scatter(draw):
    shp = shape(draw, min_dims=1)
    d = dim_of(draw, shp) % len(shp)
    step = draw(st.integers(1, 2))
    part = list(shp)
    part[d] = len(range(0, shp[d], step))
    return Case(lambda T, x, s: x.slice_scatter(s, d, None, None, step), [uniform(draw, shp), uniform(draw, part)])


@sample("diagonal_scatter")
def _diagonal_scatter(draw):
    shp = shape(draw, min_dims=2, max_dims=2)
    offset = draw(st.integers(-1, 1))
    n = max(0, min(shp[0] - max(0, -offset), shp[1] - max(0, offset)))
    return Case(lambda T, x, s: T.diagonal_scatter(x, s, offset), [uniform(draw, shp), uniform(draw, (n,))])


@sample("as_strided_scatter_view")
def _as_strided_scatter_view(draw):
    shp = shape(draw, min_dims=1, min_side=2)
    n = 1
    for s in shp:
        n *= s
    k = draw(st.integers(1, n))
    # (self enters without history: PyTorch's gradient for self is grad's part at the view, not grad with zeros
    # there, which no finite difference confirms; tests/core/test_views_parity.py compares it with PyTorch's)
    return Case(lambda T, x, s: T.as_strided_scatter(T.ones(shp, dtype=x.dtype), s, (k,), (1,)) + x,
                [uniform(draw, shp), uniform(draw, (k,))])


# --- torch.fill, torch.complex, torch.polar ---------------------------------------------------------------

@sample("fill_out")
def _fill_out(draw):
    return Case(lambda T, x: T.fill(x, 1.5) + x, [uniform(draw, shape(draw))])


@sample("fill_tensor_out")
def _fill_tensor_out(draw):
    return Case(lambda T, x, v: T.fill(x, v) * x, [uniform(draw, shape(draw)), uniform(draw, ())])
