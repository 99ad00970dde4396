"""Ops: upsampling (F.interpolate's nearest, nearest-exact and linear modes), on numpy.

Each mode is separable: along every spatial dim an output position reads one input position (nearest) or
two with weights (linear), computed in float32 for float32 tensors with PyTorch's own formulas
(UpSample.h: area_pixel_compute_scale, area_pixel_compute_source_index, nearest_idx), so the chosen
positions and weights are PyTorch's. The forward applies the last dim first, as PyTorch's kernel nests
its loops, so float32 results round as PyTorch's do.

Each dim's map is also a matrix M (out x in): the gradient is M's transpose along each dim
(upsample_*_backward, an op of its own so that create_graph records it), and its gradient is the upsample again.
"""
import numpy as np

from . import dual
from .registry import _channels_last, op

_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def _math_type(dtype):
    """PyTorch's opmath type: double for double, float for the rest."""
    return _F64 if dtype == _F64 else _F32


def _scale(in_size, out_size, scale, align_corners, t):
    """area_pixel_compute_scale: input positions per output position."""
    if align_corners:
        return t.type(in_size - 1) / t.type(out_size - 1) if out_size > 1 else t.type(0)
    if scale is not None and scale > 0:
        return t.type(1.0 / scale)
    return t.type(in_size) / t.type(out_size)


def nearest_positions(in_size, out_size, scale, exact):
    """For each output position, the input position it copies (nearest_idx / nearest_exact_idx)."""
    positions = np.arange(out_size)
    if not exact and out_size == in_size:
        return positions
    if not exact and out_size == 2 * in_size:
        return positions >> 1
    s = _scale(in_size, out_size, scale, False, _F32)
    if exact:       # floorf((i + 0.5) * scale): a double product rounded to float
        source = ((positions + 0.5) * np.float64(s)).astype(_F32)
    else:
        source = positions.astype(_F32) * s
    return np.minimum(np.floor(source).astype(np.int64), in_size - 1)


def linear_weights(in_size, out_size, scale, align_corners, t):
    """compute_source_index_and_lambda: per output position, the two input positions and their weights."""
    positions = np.arange(out_size)
    if out_size == in_size:
        return positions, positions, np.ones(out_size, t), np.zeros(out_size, t)
    s = _scale(in_size, out_size, scale, align_corners, t)
    if align_corners:
        real = positions.astype(t) * s
    else:
        real = np.maximum(s * (positions.astype(t) + t.type(0.5)) - t.type(0.5), t.type(0))
    index0 = np.minimum(np.floor(real).astype(np.int64), in_size - 1)
    lambda1 = np.minimum(np.maximum(real - index0.astype(t), t.type(0)), t.type(1)).astype(t)
    index1 = index0 + (index0 < in_size - 1)
    return index0, index1, (t.type(1) - lambda1).astype(t), lambda1


def _matrix(kind, in_size, out_size, scale, align_corners, t):
    """The dim's map as an (out, in) matrix."""
    m = np.zeros((out_size, in_size), t)
    rows = np.arange(out_size)
    if kind == "linear":
        i0, i1, l0, l1 = linear_weights(in_size, out_size, scale, align_corners, t)
        np.add.at(m, (rows, i0), l0)
        np.add.at(m, (rows, i1), l1)
    else:
        m[rows, nearest_positions(in_size, out_size, scale, kind == "nearest_exact")] = 1
    return m


def _scales(scales, nd):
    return scales if scales is not None else (None,) * nd


def upsample_forward(x, kind, output_size, scales, align_corners):
    nd = len(output_size)
    dtype = x.dtype
    t = _math_type(dtype)
    out = x.astype(t, copy=False) if dtype == _F16 else x
    for i in reversed(range(nd)):       # the last dim first: PyTorch's innermost loop
        axis = x.ndim - nd + i
        in_size, scale = x.shape[axis], _scales(scales, nd)[i]
        if kind == "linear":
            i0, i1, l0, l1 = linear_weights(in_size, output_size[i], scale, align_corners, t)
            shape = (-1,) + (1,) * (nd - 1 - i)
            out = np.take(out, i0, axis) * l0.reshape(shape) + np.take(out, i1, axis) * l1.reshape(shape)
        else:
            out = np.take(out, nearest_positions(in_size, output_size[i], scale, kind == "nearest_exact"), axis)
    return np.ascontiguousarray(out).astype(dtype, copy=False)


def upsample_backward(g, kind, input_size, output_size, scales, align_corners):
    nd = len(output_size)
    dtype = g.dtype
    t = _math_type(dtype)
    out = g.astype(t, copy=False)
    for i in range(nd):
        axis = g.ndim - nd + i
        m = _matrix(kind, input_size[axis], output_size[i], _scales(scales, nd)[i], align_corners, t)
        out = np.moveaxis(np.moveaxis(out, axis, -1) @ m, -1, axis)
    return np.ascontiguousarray(out).astype(dtype, copy=False)


def _interpolate_text(arg, mode):
    return f"F.interpolate({arg}, None if scales else output_size, scales, mode={mode!r}, align_corners=align_corners)"


def _gradient_text(nd, mode):
    """The gradient as each dim's map (the 1-d interpolation of an identity matrix: M's transpose) applied to
    grad along its dim."""
    def m_t(i):
        return (f"F.interpolate(eye(n=input_size[{i - nd}], dtype=grad.dtype)[None], "
                f"None if scales else output_size[{i}:{i + 1}], None if scales is None else scales[{i}:{i + 1}], "
                f"mode={mode!r}, align_corners=align_corners)[0]")
    if nd == 1:
        return f"grad @ {m_t(0)}.mT"
    rows_cols = f"{m_t(nd - 2)} @ grad @ {m_t(nd - 1)}.mT"
    if nd == 2:
        return rows_cols
    return f"({m_t(0)} @ ({rows_cols}).flatten(-2)).reshape(input_size)"


def _upsample_ops(kind, key, name, nd, mode, mode1d):
    def again(g, n):
        return dual.call(key, g, input_size=dual.data(g).shape, output_size=n.output_size, scales=n.scales,
                         align_corners=n.align_corners)

    @op(f"{key}_backward", name.replace("Backward0", "BackwardBackward0"), ("grad_output",), promote=False,
        shows={"grad_output": _interpolate_text("grad", mode)}, grad_output=again)
    def backward(grad_output, input_size, output_size, scales, align_corners):
        return upsample_backward(grad_output, kind, input_size, output_size, scales, align_corners)

    @op(key, name, ("self",), promote=False, shows={"self": _gradient_text(nd, mode1d)},
        self=lambda g, n: dual.call(f"{key}_backward", g, input_size=n.input_size, output_size=n.output_size,
                                    scales=n.scales, align_corners=n.align_corners))
    def forward(self, input_size, output_size, scales, align_corners):
        return upsample_forward(self, kind, output_size, scales, align_corners)


for _nd in (1, 2, 3):
    _upsample_ops("nearest", f"upsample_nearest{_nd}d", f"UpsampleNearest{_nd}DBackward0", _nd, "nearest", "nearest")
    _upsample_ops("nearest_exact", f"_upsample_nearest_exact{_nd}d", f"UpsampleNearestExact{_nd}DBackward0", _nd,
                  "nearest-exact", "nearest-exact")
_upsample_ops("linear", "upsample_linear1d", "UpsampleLinear1DBackward0", 1, "linear", "linear")
_upsample_ops("linear", "upsample_bilinear2d", "UpsampleBilinear2DBackward0", 2, "bilinear", "linear")
_upsample_ops("linear", "upsample_trilinear3d", "UpsampleTrilinear3DBackward0", 3, "trilinear", "linear")


# --- bicubic (F.interpolate(mode="bicubic"), 4-d only) --------------------------------------------------------
# PyTorch's CPU kernel (UpSampleKernel.cpp: upsample_generic_Nd_kernel_impl with HelperInterpCubic): per output
# position 4 taps along each dim, at the clamped positions floor(x) - 1 .. floor(x) + 2, weighted by Keys' cubic
# convolution (A = -0.75); each of the 4 rows' taps summed, then the rows. PyTorch's compiled kernel fuses
# multiply-adds (one rounding for a * b + c) at fixed places: `fma` below does the same, so float32 and
# float64 results are PyTorch's bits (found against its outputs: the order below is the one that agrees).

_CUBIC_A = -0.75
_SPLIT = 134217729.0        # 2 ** 27 + 1: Dekker's split of a double into two halves


def fma(a, b, c):
    """a * b + c rounded once, in a's dtype (float32: the product is exact in float64; float64: Dekker's exact
    product and Knuth's two-sum, which round once but in the rarest ties)."""
    if np.result_type(a, b, c) == _F32:
        return (np.asarray(a, _F64) * np.asarray(b, _F64) + np.asarray(c, _F64)).astype(_F32)
    a, b, c = np.asarray(a, _F64), np.asarray(b, _F64), np.asarray(c, _F64)
    p = a * b
    big_a, big_b = _SPLIT * a, _SPLIT * b
    a_hi, b_hi = big_a - (big_a - a), big_b - (big_b - b)
    a_lo, b_lo = a - a_hi, b - b_hi
    error = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
    total = p + c
    back = total - p
    return total + (((p - (total - back)) + (c - back)) + error)


def _unfused(a, b, c):
    return a * b + c


def cubic_coefficients(t, fused=True):
    """get_cubic_upsample_coefficients: the 4 taps' weights at fraction t (t's dtype), computed with the
    forward kernel's fused multiply-adds, or (fused=False) the backward kernel's plain ones."""
    dt = t.dtype.type
    a, one = dt(_CUBIC_A), dt(1)
    f = fma if fused else _unfused

    def near(x):            # cubic_convolution1, |x| <= 1: ((A + 2) x - (A + 3)) x x + 1
        return (f(a + 2, x, -(a + 3)) * x * x + one).astype(t.dtype)

    def far(x):             # cubic_convolution2, 1 < |x| < 2: ((A x - 5 A) x + 8 A) x - 4 A
        return (f(f(a, x, -5 * a), x, 8 * a) * x - 4 * a).astype(t.dtype)
    x2 = (one - t).astype(t.dtype)
    return [far((t + one).astype(t.dtype)), near(t), near(x2), far((x2 + one).astype(t.dtype))]


def cubic_weights(in_size, out_size, scale, align_corners, t, fused=True):
    """Per output position the 4 input positions (clamped to the input) and their weights."""
    s = _scale(in_size, out_size, scale, align_corners, t)
    positions = np.arange(out_size).astype(t)
    if align_corners:
        real = s * positions
    else:                   # area_pixel_compute_source_index(cubic=True): no clamp at 0
        real = (fma if fused else _unfused)(s, positions + t.type(0.5), t.type(-0.5)).astype(t)
    index = np.minimum(np.floor(real.astype(_F32)).astype(np.int64), in_size - 1)      # (floorf)
    fraction = np.minimum(np.maximum(real - index.astype(t), t.type(0)), t.type(1)).astype(t)
    return [np.clip(index - 1 + j, 0, in_size - 1) for j in range(4)], cubic_coefficients(fraction, fused)


def _sum4(terms, weights):
    """The kernel's `output = t0 * w0; output += t * w` for 4 taps, as compiled: the first two as
    fma(t0, w0, t1 * w1), then two fused multiply-adds."""
    out = fma(terms[0], weights[0], terms[1] * weights[1])
    return fma(terms[3], weights[3], fma(terms[2], weights[2], out))


def _bicubic_uint8(x, output_size, scales, align_corners):
    """uint8 images: PyTorch's separable kernel, a pass along W then one along H, each rounded to uint8
    (here the passes in float32, rounded half up and clamped to 0..255, as its integer arithmetic does)."""
    out = x.astype(_F32)
    scales = _scales(scales, 2)
    for axis, i in ((3, 1), (2, 0)):
        if out.shape[axis] == output_size[i]:
            continue
        taps, weights = cubic_weights(x.shape[axis], output_size[i], scales[i], align_corners, _F32)
        shape = [1] * 4
        shape[axis] = -1
        total = sum(np.take(out, taps[j], axis) * weights[j].reshape(shape) for j in range(4))
        out = np.clip(np.floor(total + np.float32(0.5)), 0, 255)
    return out.astype(np.uint8)


def bicubic_forward(x, output_size, scales, align_corners):
    out = _bicubic_uint8(x, output_size, scales, align_corners) if x.dtype == np.uint8 else \
        _bicubic_float(x, output_size, scales, align_corners)
    if _channels_last(x):
        return np.ascontiguousarray(out.transpose(0, 2, 3, 1)).transpose(0, 3, 1, 2)
    return out


def _bicubic_float(x, output_size, scales, align_corners):
    dtype = x.dtype
    t = _math_type(dtype)
    xx = x.astype(t, copy=False)
    scales = _scales(scales, 2)
    (rows, row_w), (cols, col_w) = [cubic_weights(x.shape[2 + i], output_size[i], scales[i], align_corners, t)
                                    for i in range(2)]
    row_w = [w.astype(dtype).astype(t)[:, None] for w in row_w]        # (kept in the input's dtype)
    col_w = [w.astype(dtype).astype(t) for w in col_w]
    sums = []
    for i in range(4):
        taps = xx[:, :, rows[i], :]
        sums.append(_sum4([taps[:, :, :, cols[j]] for j in range(4)], col_w))
    return np.ascontiguousarray(_sum4(sums, row_w)).astype(dtype, copy=False)


def bicubic_backward(g, input_size, output_size, scales, align_corners):
    """upsample_bicubic2d_backward: each output's gradient times its 16 weights added into the input's
    gradient, in the kernel's order (output rows, output columns, then the taps). (This kernel,
    UpSampleBicubic2d.cpp, is compiled without fused multiply-adds.)"""
    dtype = g.dtype
    t = _math_type(dtype)
    n, c, h, w = input_size
    oh, ow = output_size
    scales = _scales(scales, 2)
    (rows, row_w), (cols, col_w) = [cubic_weights(input_size[2 + i], output_size[i], scales[i], align_corners, t,
                                                  fused=False) for i in range(2)]
    shape = (oh, ow, 4, 4)
    target = np.broadcast_to(np.stack(rows, -1)[:, None, :, None] * w + np.stack(cols, -1)[None, :, None, :], shape)
    wy = np.broadcast_to(np.stack(row_w, -1)[:, None, :, None], shape).reshape(-1)
    wx = np.broadcast_to(np.stack(col_w, -1)[None, :, None, :], shape).reshape(-1)
    gg = g.astype(t, copy=False).reshape(n * c, oh * ow)[:, np.repeat(np.arange(oh * ow), 16)]
    values = (gg * wy) * wx
    out = np.zeros((n * c, h * w), t)
    np.add.at(out, (slice(None), target.reshape(-1)), values)
    return out.reshape(input_size).astype(dtype, copy=False)


def _bicubic_text(i):
    """Dim i's map, transposed (in x out): the bicubic interpolation of an identity matrix along that dim."""
    size = "(output_size[0], 1)" if i == 0 else "(1, output_size[1])"
    scale = "(scales[0], 1.)" if i == 0 else "(1., scales[1])"
    eye = "eye(n=input_size[2], dtype=grad.dtype)[None, :, :, None]" if i == 0 else \
        "eye(n=input_size[3], dtype=grad.dtype)[None, :, None, :]"
    part = "[0, :, :, 0]" if i == 0 else "[0, :, 0, :]"
    return (f"F.interpolate({eye}, None if scales else {size}, {scale} if scales else None, mode='bicubic', "
            f"align_corners=align_corners){part}")


@op("upsample_bicubic2d_backward", "UpsampleBicubic2DBackwardBackward0", ("grad_output",), promote=False,
    shows={"grad_output": _interpolate_text("grad", "bicubic")},
    grad_output=lambda g, n: dual.call("upsample_bicubic2d", g, input_size=dual.data(g).shape,
                                       output_size=n.output_size, scales=n.scales, align_corners=n.align_corners))
def upsample_bicubic2d_backward(grad_output, input_size, output_size, scales, align_corners):
    return bicubic_backward(grad_output, input_size, output_size, scales, align_corners)


@op("upsample_bicubic2d", "UpsampleBicubic2DBackward0", ("self",), promote=False,
    shows={"self": f"{_bicubic_text(0)} @ grad @ {_bicubic_text(1)}.mT"},
    self=lambda g, n: dual.call("upsample_bicubic2d_backward", g, input_size=n.input_size,
                                output_size=n.output_size, scales=n.scales, align_corners=n.align_corners))
def upsample_bicubic2d(self, input_size, output_size, scales, align_corners):
    return bicubic_forward(self, output_size, scales, align_corners)
