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
from .registry import op

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
