"""Ops: embedding bags and grid sampling (rows of the op table; see registry.py), on numpy.

embedding_bag: the rows of a weight picked by indices, summed (or averaged, or maxed) per bag. The bags'
layout (which bag each index falls in, how many indices each bag counts, the rows holding each maximum)
is worked out by nn/_functional/sampling.py before the row runs, as PyTorch's kernel returns it
(offset2bag, bag_size, max_indices); the row reads them for the gradient (EmbeddingBagBackward0).

grid_sampler_2d/3d: each output position reads the input at a point of `grid` (coordinates in [-1, 1]),
bilinearly (trilinearly) interpolated, or at the nearest pixel, or bicubically; affine_grid_generator makes
such a grid from affine matrices (a matrix product: its gradient is another).
"""
import numpy as np

from . import dual
from .registry import op

# --- embedding_bag -----------------------------------------------------------------------------------


def _bag_weight_grad(g, n):
    """The weight's gradient; under create_graph, as a node of its own (EmbeddingBagBackwardBackward0), whose
    own derivative PyTorch does not implement."""
    if not isinstance(g, np.ndarray):
        return dual.call("embedding_bag_backward", g, **{name: getattr(n, name) for name in _BAG_PARAMS},
                         per_sample_weights=None if n.per_sample_weights is None else dual.data(n.per_sample_weights))
    return _bag_weight_grad_array(g, n)


_BAG_PARAMS = ("indices", "offset2bag", "keep", "bag_size", "max_indices", "mode", "num_weights",
               "scale_grad_by_freq", "freq_counts")


def _bag_weight_grad_array(g, n):
    """Each picked row's share of its bag's gradient (times its per-sample weight, over its bag's size for
    a mean, over its index's count with scale_grad_by_freq), added back into zeros; for a max, each bag's
    gradient goes to the rows holding the maxima. Padding positions give nothing."""
    g = dual.data(g)
    out = np.zeros((n.num_weights, g.shape[1]), g.dtype)
    if n.mode == 2:
        filled = n.bag_size > 0
        rows = n.max_indices[filled]
        np.add.at(out, (rows, np.broadcast_to(np.arange(g.shape[1]), rows.shape)), g[filled])
        return out
    keep = n.keep
    rows = g[n.offset2bag[keep]]
    if n.per_sample_weights is not None:
        rows = rows * dual.data(n.per_sample_weights)[keep][:, None]
    if n.mode == 1:
        rows = rows / n.bag_size[n.offset2bag[keep]][:, None].astype(rows.dtype)
    if n.scale_grad_by_freq:
        rows = rows / n.freq_counts[keep][:, None].astype(rows.dtype)
    np.add.at(out, n.indices[keep], rows)
    return out


def freq_counts(indices, num_weights):
    """The count each index's gradient is divided by with scale_grad_by_freq, as PyTorch's CPU kernel computes it:
    for the k-th distinct index (in sorted order), the count of the k-th *sorted index* (an off-by-group slip of
    its loop, counts[indices_data[i]] with i the group's number), which is the index's own count only while
    every index before it occurs once."""
    order = np.argsort(indices, kind="stable")
    ordered = indices[order]
    counts = np.bincount(indices, minlength=num_weights)
    group = np.concatenate(([0], np.cumsum(ordered[1:] != ordered[:-1]))) if ordered.size else ordered
    out = np.empty(indices.shape, np.int64)
    out[order] = counts[ordered[group]]
    return out


def _bag_sample_weights_grad(g, n):
    """d out[bag] / d per_sample_weights[i] = weight[indices[i]]: grad's row of its bag dotted with that row."""
    g = dual.data(g)
    rows = dual.data(n.weight)[n.indices] * g[n.offset2bag]
    return np.where(n.keep, rows.sum(-1), 0).astype(g.dtype)


_BAG_ROWS = "grad[offset2bag] * keep.unsqueeze(-1)"
_BAG_TEXT = ("grad.new_zeros(num_weights, grad.shape[-1]).index_put((max_indices, arange(grad.shape[-1])), "
             "grad * (bag_size > 0).unsqueeze(-1), accumulate=True) if mode == 2 else "
             "grad.new_zeros(num_weights, grad.shape[-1]).index_add(0, indices, " + _BAG_ROWS
             + " * (per_sample_weights.unsqueeze(-1) if per_sample_weights is not None else 1)"
             " / (bag_size[offset2bag].unsqueeze(-1) if mode == 1 else 1)"
             " / (freq_counts.unsqueeze(-1) if scale_grad_by_freq else 1))")


@op("embedding_bag", "EmbeddingBagBackward0", ("weight", "per_sample_weights"), promote=False, variants=("function",),
    saves={"weight": ("per_sample_weights",), "per_sample_weights": ("weight",)},
    shows={"weight": _BAG_TEXT,
           "per_sample_weights": "(weight[indices] * grad[offset2bag]).sum(-1) * keep"},
    weight=_bag_weight_grad, per_sample_weights=_bag_sample_weights_grad)
def embedding_bag(weight, per_sample_weights, indices, offset2bag, keep, bag_size, max_indices, mode, num_weights,
                  scale_grad_by_freq, freq_counts, values):
    return values


def _not_implemented(g, n):
    raise NotImplementedError("the derivative for '_embedding_bag_backward' is not implemented.")


class _Params:
    def __init__(self, params):
        self.__dict__.update(params)


@op("embedding_bag_backward", "EmbeddingBagBackwardBackward0", ("grad",), promote=False, grad=_not_implemented,
    shows={"grad": "PyTorch implements no derivative of _embedding_bag_backward"})
def embedding_bag_backward(grad, indices, offset2bag, keep, bag_size, max_indices, mode, num_weights,
                           scale_grad_by_freq, freq_counts, per_sample_weights):
    return _bag_weight_grad_array(grad, _Params(locals()))


# --- grid sampling -------------------------------------------------------------------------------------

def _source_index(coord, size, padding_mode, align_corners):
    """ATen's grid_sampler_compute_source_index_set_grad: a grid coordinate in [-1, 1] as a position in the
    input (unnormalized, then clipped or reflected by the padding mode), and its derivative by the coordinate."""
    if align_corners:
        mult = (size - 1) / 2
        x = (coord + 1) / 2 * (size - 1)
    else:
        mult = size / 2
        x = ((coord + 1) * size - 1) / 2
    grad = np.full(x.shape, mult, x.dtype)
    if padding_mode == 1:                       # border: clipped
        x, grad = _clip(x, size - 1, grad)
    elif padding_mode == 2:                     # reflection: folded back, then clipped
        if align_corners:
            x, grad = _reflect(x, 0, 2 * (size - 1), grad)
        else:
            x, grad = _reflect(x, -1, 2 * size - 1, grad)
        x, grad = _clip(x, size - 1, grad)
    return x, grad


def _clip(x, limit, grad):
    inside = (x > 0) & (x < limit)
    return np.clip(x, 0, limit), np.where(inside, grad, 0).astype(x.dtype)


def _reflect(x, twice_low, twice_high, grad):
    if twice_low == twice_high:
        return np.zeros_like(x), np.zeros_like(grad)
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    sign = np.where(x < low, -1, 1).astype(x.dtype)
    x = np.abs(x - low)
    extra = np.fmod(x, span)
    flips = np.floor(x / span)
    even = flips % 2 == 0
    out = np.where(even, extra + low, span - extra + low).astype(x.dtype)
    sign = np.where(even, sign, -sign)
    return out, grad * sign


def _sample(input, grid, interpolation_mode, padding_mode, align_corners, grad_output=None):
    """grid_sampler over k = 2 or 3 spatial dims: the output, or with grad_output the two gradients (input,
    grid). The grid's last dim holds (x, y[, z]), x running along the input's last dim."""
    k = grid.shape[-1]
    n, c = input.shape[:2]
    sizes = input.shape[2:][::-1]               # (W, H[, D]): the sizes of x, y, z
    out_spatial = grid.shape[1:-1]
    coords, mults = zip(*(_source_index(grid[..., j], sizes[j], padding_mode, align_corners) for j in range(k)))
    flat = input.reshape(n, c, -1)
    places = np.cumprod((1,) + tuple(sizes[:-1]))     # x steps 1, y steps W, z steps W*H
    batch = np.arange(n).reshape((n,) + (1,) * len(out_spatial))
    if grad_output is not None:
        g = grad_output.reshape(n, c, -1)
        grad_input = np.zeros((n, c, flat.shape[2]), input.dtype)
        grad_grid = np.zeros(grid.shape, grid.dtype)
    else:
        out = np.zeros((n, c) + out_spatial, input.dtype)

    def read(parts):
        """The input at integer positions (0 outside: zeros padding), the positions' inside mask and flat index."""
        inside = np.ones(parts[0].shape, bool)
        for part, size in zip(parts, sizes):
            inside &= (part >= 0) & (part < size)
        position = 0
        for part, place in zip(parts, places):
            position = position + np.where(inside, part, 0).astype(np.int64) * place
        values = np.moveaxis(flat[batch, :, position], -1, 1) * inside[:, None]     # (N, C, *out)
        return values, inside, position

    if interpolation_mode == 1:                 # nearest: the closest position (halves to even, as nearbyint)
        values, inside, position = read([np.rint(x) for x in coords])
        if grad_output is None:
            return values.astype(input.dtype, copy=False)
        _add(grad_input, position, np.moveaxis(grad_output, 1, -1) * inside[..., None], n)
        return grad_input.reshape(input.shape), grad_grid
    if interpolation_mode == 2:
        return _bicubic(input, grid, padding_mode, align_corners, grad_output, read, batch, n, sizes)
    # bilinear / trilinear: the 2^k corners around the point, each weighted by the opposite box's volume,
    # in PyTorch's order (x fastest: nw, ne, sw, se; then the back ones)
    lows = [np.floor(x) for x in coords]
    grads = [np.zeros(grid.shape[:-1], grid.dtype) for _ in range(k)]
    for corner in np.ndindex(*(2,) * k):
        bits = corner[::-1]                     # (bx, by[, bz])
        factors = [(x - low) if b else (low + 1 - x) for x, low, b in zip(coords, lows, bits)]
        weight = factors[0]
        for f in factors[1:]:
            weight = weight * f
        parts = [low + b for low, b in zip(lows, bits)]
        values, inside, position = read(parts)
        if grad_output is None:
            out += values * weight[:, None]
            continue
        _add(grad_input, position, np.moveaxis(grad_output, 1, -1) * (weight * inside)[..., None], n)
        dot = (values * grad_output).sum(1)     # grad . the corner's value, over channels
        for j in range(k):
            others = np.ones_like(weight)
            for i in range(k):
                if i != j:
                    others = others * factors[i]
            grads[j] += (dot * others) if bits[j] else -(dot * others)
    if grad_output is None:
        return out
    for j in range(k):
        grad_grid[..., j] = grads[j] * mults[j]
    return grad_input.reshape(input.shape), grad_grid


_A = -0.75      # the bicubic convolution's parameter (as PyTorch's, and Keys')


def _cubic_coefficients(t):
    """The weights of the 4 taps around a point at fraction t (ATen's get_cubic_upsample_coefficients)."""
    a = t.dtype.type(_A)
    x1, x2 = t, 1 - t
    return [((a * (x1 + 1) - 5 * a) * (x1 + 1) + 8 * a) * (x1 + 1) - 4 * a,
            ((a + 2) * x1 - (a + 3)) * x1 * x1 + 1,
            ((a + 2) * x2 - (a + 3)) * x2 * x2 + 1,
            ((a * (x2 + 1) - 5 * a) * (x2 + 1) + 8 * a) * (x2 + 1) - 4 * a]


def _cubic_coefficients_grad(t):
    """Their derivatives by t (ATen's get_cubic_coefficients_grad)."""
    a = t.dtype.type(_A)
    x0, x1, x2, x3 = -1 - t, -t, 1 - t, 2 - t
    return [(-3 * a * x0 - 10 * a) * x0 - 8 * a, (-3 * (a + 2) * x1 - 2 * (a + 3)) * x1,
            (3 * (a + 2) * x2 - 2 * (a + 3)) * x2, (3 * a * x3 - 10 * a) * x3 + 8 * a]


def _bounded(position, size, padding_mode, align_corners):
    """A tap's integer position after the padding mode (ATen's compute_coordinates: clipped or reflected)."""
    if padding_mode == 1:
        return np.clip(position, 0, size - 1)
    if padding_mode == 2:
        twice = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        position, _ = _reflect(position, twice[0], twice[1], np.zeros_like(position))
        return np.clip(position, 0, size - 1)
    return position


def _bicubic(input, grid, padding_mode, align_corners, grad_output, read, batch, n, sizes):
    """Bicubic sampling (2-d only): 4 x 4 taps around each point, rows interpolated then the column; or, with
    grad_output, the gradients (the taps' weights for the input, their derivatives for the grid)."""
    coords, mults = [], []
    for j in range(2):
        size = sizes[j]
        if align_corners:
            coords.append((grid[..., j] + 1) / 2 * (size - 1))
            mults.append((size - 1) / 2)
        else:
            coords.append(((grid[..., j] + 1) * size - 1) / 2)
            mults.append(size / 2)
    (ix, iy), lows = coords, [np.floor(c) for c in coords]
    tx, ty = ix - lows[0], iy - lows[1]
    wx, wy = _cubic_coefficients(tx), _cubic_coefficients(ty)
    if grad_output is None:
        rows = []
        for i in range(4):
            y = _bounded(lows[1] - 1 + i, sizes[1], padding_mode, align_corners)
            taps = [read([_bounded(lows[0] - 1 + j, sizes[0], padding_mode, align_corners), y])[0] for j in range(4)]
            rows.append(taps[0] * wx[0][:, None] + taps[1] * wx[1][:, None] + taps[2] * wx[2][:, None]
                        + taps[3] * wx[3][:, None])
        return (rows[0] * wy[0][:, None] + rows[1] * wy[1][:, None] + rows[2] * wy[2][:, None]
                + rows[3] * wy[3][:, None]).astype(input.dtype, copy=False)
    gx_w, gy_w = _cubic_coefficients_grad(tx), _cubic_coefficients_grad(ty)
    grad_input = np.zeros((n, input.shape[1], int(np.prod(input.shape[2:]))), input.dtype)
    gix = np.zeros(grid.shape[:-1], grid.dtype)
    giy = np.zeros(grid.shape[:-1], grid.dtype)
    g_last = np.moveaxis(grad_output, 1, -1)
    for i in range(4):
        for j in range(4):
            parts = [_bounded(lows[0] - 1 + i, sizes[0], padding_mode, align_corners),
                     _bounded(lows[1] - 1 + j, sizes[1], padding_mode, align_corners)]
            values, inside, position = read(parts)
            _add(grad_input, position, g_last * (wx[i] * wy[j] * inside)[..., None], n)
            dot = (values * grad_output).sum(1)
            gix -= dot * gx_w[i] * wy[j]
            giy -= dot * gy_w[j] * wx[i]
    grad_grid = np.stack([gix * mults[0], giy * mults[1]], -1).astype(grid.dtype)
    return grad_input.reshape(input.shape), grad_grid


def _add(grad_input, position, contrib, n):
    """grad_input (N, C, P) += contrib (N, *out, C) at the plane positions `position` (N, *out)."""
    c = grad_input.shape[1]
    rows = (np.arange(n)[:, None] * c + np.arange(c)) * grad_input.shape[2]      # (N, C)
    index = (rows[:, None, :] + position.reshape(n, -1)[:, :, None]).ravel()
    np.add.at(grad_input.reshape(-1), index, contrib.reshape(n, -1, c).ravel())


def _grid_sampler_grads(g, n, slot):
    grad_input, grad_grid = _sample(dual.data(n.input), dual.data(n.grid), n.interpolation_mode, n.padding_mode,
                                    n.align_corners, dual.data(g))
    return grad_input if slot == "input" else grad_grid


def _vjp_text(key, slot):
    """The gradient for `slot` as a vector-Jacobian product: the gradient of (key(...) * grad).sum(), taken under
    enable_grad (no closed form reads better than the kernel's loops). (The lambda's defaults carry the node's
    values in: a lambda's body sees no other names.)"""
    args = {"input": "x, grid", "grid": "input, x"}[slot]
    return (f"enable_grad()(lambda x, f={key}, input=input, grid=grid, grad=grad, m=interpolation_mode, "
            f"p=padding_mode, a=align_corners: (f({args}, m, p, a) * grad).sum().backward() or x.grad)"
            f"({slot}.detach().requires_grad_())")


def _grid_sampler_op(key, name):
    @op(key, name, ("input", "grid"), promote=False, saves=("input", "grid"), variants=("function",),
        shows={slot: _vjp_text(key, slot) for slot in ("input", "grid")},
        input=lambda g, n: _grid_sampler_grads(g, n, "input"), grid=lambda g, n: _grid_sampler_grads(g, n, "grid"))
    def forward(input, grid, interpolation_mode, padding_mode, align_corners):
        return _sample(input, grid, interpolation_mode, padding_mode, align_corners)
    return forward


grid_sampler_2d = _grid_sampler_op("grid_sampler_2d", "GridSampler2DBackward0")
grid_sampler_3d = _grid_sampler_op("grid_sampler_3d", "GridSampler3DBackward0")


# --- affine grids: each output position's (x, y[, z], 1) times the transposed matrix --------------------

def _linspace_from_neg_one(num_steps, align_corners, dtype):
    """ATen's linspace_from_neg_one: linspace(-1, 1) (computed from both ends, as torch's linspace), scaled by
    (n - 1) / n without align_corners."""
    if num_steps <= 1:
        return np.zeros(1 if num_steps == 1 else 0, dtype)
    step = dtype.type(2) / dtype.type(num_steps - 1)
    i = np.arange(num_steps)
    half = num_steps // 2
    out = np.where(i < half, dtype.type(-1) + step * i.astype(dtype),
                   dtype.type(1) - step * (num_steps - 1 - i).astype(dtype)).astype(dtype)
    if not align_corners:
        out = (out * dtype.type(num_steps - 1) / dtype.type(num_steps)).astype(dtype)
    return out


def base_grid(size, align_corners, dtype):
    """(N, *spatial, k + 1): each output position's normalized (x, y[, z]) and a 1."""
    spatial = tuple(size[2:])
    k = len(spatial)
    grid = np.empty((size[0],) + spatial + (k + 1,), dtype)
    for j in range(k):                          # x varies along the last spatial dim, y the one before, ...
        axis = len(spatial) - 1 - j
        shape = [1] * len(spatial)
        shape[axis] = spatial[axis]
        grid[..., j] = _linspace_from_neg_one(spatial[axis], align_corners, dtype).reshape(shape)
    grid[..., k] = 1
    return grid


@op("affine_grid_generator", "AffineGridGeneratorBackward0", ("theta",), promote=False, variants=("function",),
    shows={"theta": "(affine_grid_generator(eye(n=grad.dim() - 1, dtype=grad.dtype).expand(size[0], -1, -1), size, "
                    "align_corners).flatten(1, -2).mT @ grad.flatten(1, -2)).mT"},
    theta=lambda g, n: dual.call("affine_grid_generator_backward", g, size=n.size, align_corners=n.align_corners))
def affine_grid_generator(theta, size, align_corners):
    base = base_grid(size, align_corners, theta.dtype)
    n = size[0]
    flat = base.reshape(n, -1, base.shape[-1])
    # (x * t0 + y * t1) + 1 * t2, term after term in the dtype: PyTorch's float32 bits for these 3-long products
    out = flat[..., :1] * theta[:, None, :, 0]
    for j in range(1, flat.shape[-1]):
        out = out + flat[..., j:j + 1] * theta[:, None, :, j]
    return out.reshape(base.shape[:-1] + (theta.shape[1],))


@op("affine_grid_generator_backward", "AffineGridGeneratorBackwardBackward0", ("grad",), promote=False,
    shows={"grad": "affine_grid_generator(grad, size, align_corners)"},
    grad=lambda g, n: dual.call("affine_grid_generator", g, size=n.size, align_corners=n.align_corners))
def affine_grid_generator_backward(grad, size, align_corners):
    base = base_grid(size, align_corners, grad.dtype)
    n = size[0]
    flat = base.reshape(n, -1, base.shape[-1])
    return np.matmul(flat.transpose(0, 2, 1), grad.reshape(n, -1, grad.shape[-1])).transpose(0, 2, 1)
