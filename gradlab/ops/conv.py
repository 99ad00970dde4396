"""Ops: convolution, pooling and padding (rows of the op table; see registry.py), on numpy.

Convolution is im2col and matmul: the input's sliding windows are one strided view
(`as_strided`, no copy), copied once into columns (N, groups, C/groups*kh*kw, oh*ow) and multiplied by
the weight as a matrix. Its gradients are the two other products of the same three arrays (bilinear):
the weight's is the columns times the gradient, the input's is the weight times the gradient put back
with col2im (one strided add per kernel offset, faster here than np.add.at). Each gradient is an op of
its own under create_graph, as in PyTorch: convolution_backward (ConvolutionBackwardBackward0) gives the input's,
the weight's and the bias's gradients at once, and its formulas are PyTorch's _convolution_double_backward.

Arrays are (N, C, H, W); conv1d's (N, C, L) run as (N, C, 1, L). The parameters arrive as 2-tuples from
nn/_functional/conv.py, which checks the arguments as PyTorch does.
"""
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .._tensor_core import Tensor
from . import dual
from .double_backward import masked, on_tensors, once, output_mask, placeholders
from .registry import OPS, op
from .shape import cat

_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)


def _as4d(x):
    """(N, C, L) seen as (N, C, 1, L): conv1d runs as conv2d."""
    return x[:, :, None, :] if x.ndim == 3 else x


def _compute_dtype(x):
    return _F32 if x.dtype == _F16 else x.dtype


def _padded(x, padding, value=0):
    """x (..., *spatial) with `padding` (one per spatial dim, both sides) of `value` around its last dims."""
    if not any(padding):
        return x
    k = len(padding)
    out = np.full(x.shape[:-k] + tuple(n + 2 * p for n, p in zip(x.shape[-k:], padding)), value, x.dtype)
    out[(Ellipsis,) + tuple(slice(p, p + n) for n, p in zip(x.shape[-k:], padding))] = x
    return out


def _columns(x, kernel, stride, padding, dilation, groups, out_hw=None):
    """im2col: x (N, C, *spatial) -> (N, groups, C/groups*prod(kernel), prod(out)), and the output sizes (2-d or
    3-d alike). (out_hw: only the first blocks, for a transposed convolution's output_padding, which adds
    positions no block of its input reached.)"""
    n, c = x.shape[:2]
    xp = _padded(x, padding)
    out = [(size - d * (k - 1) - 1) // s + 1 for size, k, s, d in zip(xp.shape[2:], kernel, stride, dilation)]
    if out_hw is not None:
        out = [min(o, limit) for o, limit in zip(out, out_hw)]
    sn, sc, *ss = xp.strides
    windows = as_strided(xp, (n, c, *kernel, *out),
                         (sn, sc, *(st * d for st, d in zip(ss, dilation)), *(st * s for st, s in zip(ss, stride))),
                         writeable=False)
    return windows.reshape(n, groups, c // groups * math.prod(kernel), math.prod(out)), tuple(out)


def _col2im(cols, shape, kernel, stride, padding, dilation, out_hw):
    """The adjoint of _columns: cols (N, C, kh, kw, oh, ow) summed back into an (N, C, H, W) array."""
    if len(shape) == 5:
        return _col2vol(cols, shape, kernel, stride, padding, dilation, out_hw)
    n, c, h, w = shape
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    oh, ow = out_hw
    hp, wp = h + 2 * ph, w + 2 * pw
    out = np.zeros((n, c, hp, wp), cols.dtype)
    # (numpy adds a 2-d strided block into a strided block slowly: rows are summed first, into whole rows)
    rows = np.empty((n, c, hp, ow), cols.dtype)
    for j in range(kw):
        rows[...] = 0
        for i in range(kh):
            rows[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh] += cols[:, :, i, j]
        out[:, :, :, j * dw:j * dw + sw * (ow - 1) + 1:sw] += rows
    return out[:, :, ph:ph + h, pw:pw + w] if ph or pw else out


def _col2vol(cols, shape, kernel, stride, padding, dilation, out_dhw):
    """_col2im of a 3-d convolution: cols (N, C, kd, kh, kw, od, oh, ow) added back, one kernel offset at a time."""
    spatial = shape[2:]
    out = np.zeros(shape[:2] + tuple(n + 2 * p for n, p in zip(spatial, padding)), cols.dtype)
    for offset in np.ndindex(*kernel):
        where = tuple(slice(i * d, i * d + s * (o - 1) + 1, s) for i, d, s, o in zip(offset, dilation, stride, out_dhw))
        out[(slice(None), slice(None)) + where] += cols[(slice(None), slice(None)) + offset]
    return out[(Ellipsis,) + tuple(slice(p, p + n) for n, p in zip(spatial, padding))]


def _conv_forward(x, w, stride, padding, dilation, groups, columns=None):
    if x.dtype == _F16:         # (computed in float, as PyTorch's half kernels)
        x, w = x.astype(_F32), w.astype(_F32)
    x4, w4 = _as4d(x), _as4d(w)
    o = w4.shape[0]
    cols, out_sizes = _columns(x4, w4.shape[2:], stride, padding, dilation, groups)
    if columns is not None:     # kept for the weight's gradient (see convolution)
        columns.append(cols)
    out = np.matmul(w4.reshape(groups, o // groups, -1), cols)      # (N, groups, O/groups, oh*ow)
    return out.reshape((x.shape[0], o) + (out_sizes[1:] if x.ndim == 3 else out_sizes))


def _conv_input_grad(g, w, input_shape, stride, padding, dilation, groups):
    """The gradient of conv(x, w) for x: w's transpose times g, put back with col2im."""
    dtype = g.dtype
    g4, w4 = _as4d(g), _as4d(w.astype(_compute_dtype(g), copy=False))
    n, o, out_sizes = g4.shape[0], g4.shape[1], g4.shape[2:]
    c, kernel = w4.shape[1] * groups, w4.shape[2:]
    shape4 = tuple(input_shape) if len(input_shape) != 3 else (input_shape[0], input_shape[1], 1, input_shape[2])
    wm = w4.reshape(groups, o // groups, -1)
    g4 = g4.astype(_compute_dtype(g), copy=False)
    cols = np.matmul(wm.transpose(0, 2, 1), g4.reshape(n, groups, o // groups, -1))
    out = _col2im(cols.reshape((n, c) + kernel + out_sizes), shape4, kernel, stride, padding, dilation, out_sizes)
    return out.reshape(input_shape).astype(dtype, copy=False)


def _conv_weight_grad(x, g, weight_shape, stride, padding, dilation, groups, cols=None):
    """The gradient of conv(x, w) for w: g times the columns of x, summed over the batch."""
    dtype = x.dtype
    x4, g4 = _as4d(x.astype(_compute_dtype(x), copy=False)), _as4d(g.astype(_compute_dtype(x), copy=False))
    n, o = g4.shape[:2]
    kernel = (1, weight_shape[2]) if len(weight_shape) == 3 else tuple(weight_shape[2:])
    if cols is None:
        cols, _ = _columns(x4, kernel, stride, padding, dilation, groups, g4.shape[2:])
    gm = g4.reshape(n, groups, o // groups, -1)
    out = np.add.reduce(np.matmul(gm, cols.transpose(0, 1, 3, 2)), axis=0)     # (groups, O/groups, K)
    return out.reshape(weight_shape).astype(dtype, copy=False)


def _conv_params(n):
    return {"stride": n.stride, "padding": n.padding, "dilation": n.dilation, "groups": n.groups}


def _spatial_dims(g):
    return (0,) + tuple(range(2, dual.data(g).ndim))


def _weight_grad(g, n):
    if not isinstance(g, Tensor):
        if n.columns:        # the forward's columns: no second im2col
            return _conv_weight_grad(n.input, g, n.weight_shape, n.stride, n.padding, n.dilation, n.groups,
                                     n.columns[0])
        return _conv_weight_grad(n.input, g, n.weight_shape, **_conv_params(n))
    return _convolution_grads(g, n, False)[1]


@once
def _convolution_grads(g, n, transposed):
    """create_graph: PyTorch's convolution_backward, an op whose one node (ConvolutionBackwardBackward0) gives the
    input's, weight's and bias's gradients."""
    return OPS["convolution_backward"](g, n.input, n.weight, transposed=transposed, output_mask=output_mask(n),
                                       **_conv_params(n))


# The texts: torch.nn.grad's conv gradients (conv1d's parameters are conv.py's (1, s) pairs: their second
# element is the 1-d one); the forward convolutions are gradlab's own conv1d / conv2d.
def _conv_text(fn, *args):
    """'nn.grad.conv1d_<fn>(...) if 1-d else nn.grad.conv2d_<fn>(...)' (fn: 'input' or 'weight'; args: its first three);
    conv3d's for a 3-d convolution (every node of one has a 5-d grad)."""
    one = ", ".join(args + ("stride[1]", "padding[1]", "dilation[1]", "groups"))
    two = ", ".join(args + ("stride", "padding", "dilation", "groups"))
    return (f"nn.grad.conv1d_{fn}({one}) if {{1d}} else nn.grad.conv3d_{fn}({two}) if grad.dim() == 5 else "
            f"nn.grad.conv2d_{fn}({two})")


def _conv_call(*args):
    one = ", ".join(args + ("None", "stride[1]", "padding[1]", "dilation[1]", "groups"))
    two = ", ".join(args + ("None", "stride", "padding", "dilation", "groups"))
    return f"conv1d({one}) if {{1d}} else conv3d({two}) if grad.dim() == 5 else conv2d({two})"


# `columns`: a list the forward appends its im2col columns to (nn/_functional/conv.py passes one when the
# weight will want a gradient): the node keeps it as a parameter, and the weight's gradient reuses them.
@op("convolution", "ConvolutionBackward0", ("input", "weight", "bias"), promote=False,
    variants=("function",),     # (torch.convolution: nn/_functional/conv.py's, bound in gradlab/__init__.py)
    saves=("input", "weight"),      # (torch keeps both for any of the three: its formula is one call)
    shows={"input": _conv_text("input", "input_shape", "weight", "grad").format(**{"1d": "weight.dim() == 3"}),
           "weight": _conv_text("weight", "input", "weight_shape", "grad").format(**{"1d": "len(weight_shape) == 3"}),
           "bias": "grad.transpose(0, 1).flatten(1).sum(1)"},
    input=lambda g, n: (_conv_input_grad(g, n.weight, n.input_shape, **_conv_params(n)) if not isinstance(g, Tensor)
                        else _convolution_grads(g, n, False)[0]),
    weight=_weight_grad,
    bias=lambda g, n: dual.sum_dims(g, _spatial_dims(g)) if not isinstance(g, Tensor) else _convolution_grads(g, n, False)[2])
def convolution(input, weight, bias, stride, padding, dilation, groups, input_shape, weight_shape, columns=None):
    out = _conv_forward(input, weight, stride, padding, dilation, groups, columns)
    if bias is not None:
        out += bias.astype(out.dtype, copy=False).reshape((-1,) + (1,) * (out.ndim - 2))
    return out.astype(input.dtype, copy=False)


# --- convolution_backward: the three gradients as one op (create_graph) ----------------------------------
# convolution (transposed=False) and conv_transpose (transposed=True) are, in PyTorch, one op, `convolution`, whose
# gradients are one op, `convolution_backward`: (grad_input, grad_weight, grad_bias) from (grad_output, input,
# weight). A plain backward computes the same numbers on arrays, without the op.

def _convolution_backward_arrays(grad_output, input, weight, stride, padding, dilation, transposed, groups):
    """(grad_input, grad_weight, grad_bias) on arrays, as the forward rows' plain backward computes them."""
    if transposed:
        grad_input = conv_transpose_input_grad(grad_output, weight, input.shape, stride, padding, dilation, groups)
        grad_weight = _conv_weight_grad(grad_output, input, weight.shape, stride, padding, dilation, groups)
    else:
        grad_input = _conv_input_grad(grad_output, weight, input.shape, stride, padding, dilation, groups)
        grad_weight = _conv_weight_grad(input, grad_output, weight.shape, stride, padding, dilation, groups)
    return grad_input, grad_weight, dual.sum_dims(grad_output, _spatial_dims(grad_output))


def _convolution(x, w, transposed, output_shape, n, **geometry):
    """PyTorch's at::convolution (no bias) with the node's geometry (or `geometry`'s): gradlab's convolution or
    conv_transpose row (ConvolutionBackward0 both)."""
    params = {**_conv_params(n), **geometry}
    if transposed:
        return OPS["conv_transpose"](x, w, None, input_shape=x.shape, output_shape=output_shape,
                                     weight_shape=w.shape, **params)
    return OPS["convolution"](x, w, None, input_shape=x.shape, weight_shape=w.shape, **params)


def _narrow_to(t, shape):
    """t narrowed, in each spatial dim larger than shape's, to its first positions (PyTorch's loop of narrow)."""
    for i in range(2, t.dim()):
        if t.shape[i] > shape[i]:
            t = t.narrow(i, 0, shape[i])
    return t


@once
def _convolution_double_backward(grads, n):
    """PyTorch's _convolution_double_backward (Convolution.cpp) op for op: (ggO, gI, gW) from the gradients ggI,
    ggW, ggb of convolution_backward's three outputs (see double_backward.on_tensors)."""
    with on_tensors(grads) as (T, wrap):
        ggI, ggW, ggb = (T(gi) for gi in masked(grads, n.output_mask))
        gO, weight, input = T(n.grad_output), T(n.weight), T(n.input)
        transposed, groups = n.transposed, n.groups
        # ggO = conv(ggI, w) + conv(i, ggW) + ggb
        ggO = None
        if input.numel() != 0:
            if ggI is not None:
                ggO = _convolution(ggI, weight, transposed, gO.shape, n)
            if ggW is not None:
                ggW_term = _convolution(input, ggW, transposed, gO.shape, n)
                ggO = ggW_term if ggO is None else ggO + ggW_term
        if ggb is not None:
            new_size = [1] * gO.dim()
            new_size[1] = ggb.shape[0]
            ggb_expanded = ggb.contiguous().view(new_size).expand(gO.shape)
            ggO = ggb_expanded if ggO is None else ggO + ggb_expanded
        # gW = conv(ggI, gO): batch and channels swapped, stride and dilation swapped, one group at a time
        gW = None
        if ggI is not None and input.numel() != 0:
            swapped = {"stride": n.dilation, "dilation": n.stride, "groups": 1}
            gOt, ggIt = gO.transpose(0, 1), ggI.transpose(0, 1)
            pairs = (gOt, ggIt) if transposed else (ggIt, gOt)
            if groups == 1:
                gWt = _convolution(*pairs, False, None, n, **swapped)
            else:
                parts = []
                for i in range(groups):
                    a, b = (t.narrow(0, t.shape[0] // groups * i, t.shape[0] // groups) for t in pairs)
                    parts.append(_convolution(a, b, False, None, n, **swapped))
                gWt = cat(parts, 1)
            gW = _narrow_to(gWt.transpose(0, 1), weight.shape)
        # gI = convT(gO, ggW) if not transposed, conv(gO, ggW) if transposed
        gI = None
        if ggW is not None and input.numel() != 0:
            if transposed:
                gI = _narrow_to(_convolution(gO, ggW, False, None, n), input.shape)
            else:
                gI = _convolution(gO, ggW, True, input.shape, n)
        return tuple(wrap(t) for t in (ggO, gI, gW))


# (texts: the double backward's three terms with gradlab's functions; a 1-d convolution's geometry is the
# second element of each pair)
def _cb_text(fn, *args, cut=False):
    """'F.conv1d(...) if 1-d else F.conv3d(...) if 3-d else F.conv2d(...)' (fn: conv, conv_input, conv_weight), args:
    its first three; cut:
    the result's first positions only, as many as the input has."""
    def call(nd):
        i = "[1]" if nd == 1 else ""
        name = f"F.conv{nd}d" if fn == "conv" else f"nn.grad.conv{nd}d_{fn[5:]}"
        rest = ("None",) if fn == "conv" else ()
        text = f"{name}({', '.join(args + rest)}, stride{i}, padding{i}, dilation{i}, groups)"
        if cut:
            text += "[..., " + ", ".join(f":input.shape[{-i}]" for i in range(nd, 0, -1)) + "]"
        return text
    return f"({call(1)} if weight.dim() == 3 else {call(3)} if weight.dim() == 5 else {call(2)})"


_CB_BIAS = "(0 if grads[2] is None else grads[2].reshape([1, -1] + [1] * (grad_output.dim() - 2)))"
_CB_SHOWS = {
    "grad_output": f"({_cb_text('conv_input', 'grad_output.shape', 'weight', 'grads[0]')}"
                   f" + {_cb_text('conv_input', 'grad_output.shape', 'grads[1]', 'input')} if transposed else"
                   f" {_cb_text('conv', 'grads[0]', 'weight')} + {_cb_text('conv', 'input', 'grads[1]')}) + {_CB_BIAS}",
    "input": f"{_cb_text('conv', 'grad_output', 'grads[1]', cut=True)} if transposed else"
             f" {_cb_text('conv_input', 'input.shape', 'grads[1]', 'grad_output')}",
    "weight": f"{_cb_text('conv_weight', 'grad_output', 'weight.shape', 'grads[0]')} if transposed else"
              f" {_cb_text('conv_weight', 'grads[0]', 'weight.shape', 'grad_output')}"}


@op("convolution_backward", "ConvolutionBackwardBackward0", ("grad_output", "input", "weight"), num_outputs=3,
    promote=False, undefined_grads=True, saves=("grad_output", "input", "weight"), shows=_CB_SHOWS,
    grad_output=lambda g, n: _convolution_double_backward(g, n)[0],
    input=lambda g, n: _convolution_double_backward(g, n)[1],
    weight=lambda g, n: _convolution_double_backward(g, n)[2])
def convolution_backward(grad_output, input, weight, stride, padding, dilation, transposed, groups, output_mask):
    """The gradients of convolution (or, transposed, conv_transpose) for its input, weight and bias (those
    output_mask asks for; the others are zeros PyTorch leaves undefined)."""
    grads = _convolution_backward_arrays(grad_output, input, weight, stride, padding, dilation, transposed, groups)
    return placeholders(grads, output_mask)


# --- max pooling: the positions of the maxima, then a gather (forward) and a scatter (backward) ---------

def pool_out_size(size, k, s, p, d, ceil_mode):
    """torch's pooling_output_shape."""
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool_windows(x, kernel, stride, padding, dilation, out_hw, fill):
    """x (M, H, W), padded with `fill` as far as the windows reach, as (M, oh, ow, kh, kw) windows."""
    m, h, w = x.shape
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    oh, ow = out_hw
    right_h = max(0, (oh - 1) * sh + dh * (kh - 1) + 1 - h - ph)
    right_w = max(0, (ow - 1) * sw + dw * (kw - 1) + 1 - w - pw)
    if ph or pw or right_h or right_w:
        xp = np.full((m, ph + h + right_h, pw + w + right_w), fill, x.dtype)
        xp[:, ph:ph + h, pw:pw + w] = x
    else:
        xp = x
    s0, s1, s2 = xp.strides
    return as_strided(xp, (m, oh, ow, kh, kw), (s0, s1 * sh, s2 * sw, s1 * dh, s2 * dw), writeable=False)


def max_pool_indices(x, kernel, stride, padding, dilation, ceil_mode):
    """(values, indices) of max pooling over the last len(kernel) dims of x (..., [D,] H, W): indices count
    (d * H + h) * W + w in each plane, as PyTorch's. One strided view per kernel offset (no window copies),
    scanned in PyTorch's order: a later value wins when it is greater, or nan."""
    k = len(kernel)
    lead, sizes = x.shape[:-k], x.shape[-k:]
    out = [pool_out_size(n, kk, s, p, d, ceil_mode) for n, kk, s, p, d in zip(sizes, kernel, stride, padding, dilation)]
    planes = x.reshape((-1,) + sizes)
    right = [max(0, (o - 1) * s + d * (kk - 1) + 1 - n - p)
             for o, s, d, kk, n, p in zip(out, stride, dilation, kernel, sizes, padding)]
    if any(padding) or any(right):      # padded with -inf (the smallest integer), which never wins
        fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
        xp = np.full((planes.shape[0],) + tuple(p + n + r for p, n, r in zip(padding, sizes, right)), fill, x.dtype)
        xp[(slice(None),) + tuple(slice(p, p + n) for p, n in zip(padding, sizes))] = planes
    else:
        xp = planes
    # PyTorch's scan: the maximum starts as -inf (the smallest integer) at the window's first position inside the
    # input; a later value wins when it is greater, or nan (so padding, which holds that fill, never wins)
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    best = np.full((planes.shape[0],) + tuple(out), fill, x.dtype)
    code = np.full(best.shape, -1, np.int16 if math.prod(kernel) < 2 ** 15 else np.int64)
    for number, offset in enumerate(np.ndindex(*kernel)):
        v = xp[(slice(None),) + tuple(slice(i * d, i * d + s * (o - 1) + 1, s)
                                      for i, d, s, o in zip(offset, dilation, stride, out))]
        wins = v > best
        if x.dtype.kind == "f":
            wins |= v != v
        np.copyto(best, v, where=wins)
        np.copyto(code, number, where=wins)
    # each kernel offset's distance from the window's corner, and each window's corner, as plane positions
    place = np.cumprod((1,) + sizes[:0:-1])[::-1]           # (H*W, W, 1) for 3-d
    offsets = sum(np.asarray(i) * d * pl for i, d, pl in zip(np.unravel_index(np.arange(math.prod(kernel)), kernel),
                                                             dilation, place))
    base = first = 0
    for axis, (o, s, p, d, pl) in enumerate(zip(out, stride, padding, dilation, place)):
        corner = np.arange(o) * s - p
        inside = np.where(corner < 0, corner + -(corner // d) * d, corner)    # (its first position inside)
        base = np.add.outer(base, corner * pl) if axis else corner * pl
        first = np.add.outer(first, inside * pl) if axis else inside * pl
    indices = np.where(code < 0, first, base + np.asarray(offsets)[code])
    return best.reshape(lead + tuple(out)), indices.reshape(lead + tuple(out))


def _gather(x, indices, nd=2):
    """x (..., H, W) at the plane positions `indices` (..., oh, ow) (nd=3: the last three dims are a volume)."""
    lead = indices.shape[:-nd]
    planes = x.reshape((math.prod(lead), -1))
    return np.take_along_axis(planes, indices.reshape(planes.shape[0], -1), 1).reshape(indices.shape)


def _scatter(g, indices, input_shape, overlapping, nd=2):
    """The adjoint of _gather: g (..., oh, ow) added into zeros (..., H, W) at `indices`."""
    m = math.prod(input_shape[:-nd])
    size = math.prod(input_shape[-nd:])
    if not overlapping:          # every position is picked at most once
        out = np.zeros(m * size, g.dtype)
        out[(indices.reshape(m, -1) + (np.arange(m) * size)[:, None]).ravel()] = g.ravel()
    else:
        flat = indices.reshape(m, -1) + np.arange(m)[:, None] * size
        out = np.bincount(flat.ravel(), weights=g.ravel(), minlength=m * size).astype(g.dtype)
    return out.reshape(input_shape)


def _max_pool_op(key, name, nd=2):
    @op(f"{key}_backward", name.replace("Backward0", "BackwardBackward0"), ("grad_output", "self"), promote=False,
        shows={"grad_output": f"grad.flatten(-{nd}).gather(-1, indices.flatten(-{nd})).view_as(indices)"},
        grad_output=lambda g, n: dual.call(key, g, indices=n.indices, values=None, overlapping=n.overlapping))
    def backward(grad_output, self, indices, overlapping):
        return _scatter(grad_output, indices, self.shape, overlapping, nd)

    # (the gradient: grad added into zeros at the maxima's positions in each plane)
    @op(key, name, ("self",), promote=False, saves=("self",), variants=("function",) if key in ("max_pool2d", "max_pool3d") else (),
        shows={"self": f"zeros_like(self).flatten(-{nd}).scatter_add(-1, indices.flatten(-{nd}), "
                       f"grad.flatten(-{nd})).view_as(self)"},
        self=lambda g, n: dual.call(f"{key}_backward", g, n.self, indices=n.indices, overlapping=n.overlapping))
    def forward(self, indices, values, overlapping):
        return _gather(self, indices, nd) if values is None else values
    return forward


max_pool2d = _max_pool_op("max_pool2d", "MaxPool2DWithIndicesBackward0")
adaptive_max_pool2d = _max_pool_op("adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0")
max_pool3d = _max_pool_op("max_pool3d", "MaxPool3DWithIndicesBackward0", 3)
adaptive_max_pool3d = _max_pool_op("adaptive_max_pool3d", "AdaptiveMaxPool3DBackward0", 3)
fractional_max_pool2d = _max_pool_op("fractional_max_pool2d", "FractionalMaxPool2DBackward0")
fractional_max_pool3d = _max_pool_op("fractional_max_pool3d", "FractionalMaxPool3DBackward0", 3)


def _fractional_starts(samples, size, out, k):
    """ATen's generate_intervals, in the samples' dtype: window i starts at int((i + u) * alpha) - int(u * alpha),
    alpha = (size - k) / (out - 1), the last at size - k (u: the plane's random sample)."""
    dtype = samples.dtype.type
    starts = np.zeros(samples.shape + (out,), np.int64)
    if out > 1:
        alpha = dtype(size - k) / dtype(out - 1)
        i = np.arange(out - 1).astype(samples.dtype)
        starts[..., :out - 1] = (((i + samples[..., None]) * alpha).astype(np.int64)
                                 - (samples * alpha).astype(np.int64)[..., None])
    if out > 0:
        starts[..., out - 1] = size - k
    return starts


def fractional_max_indices(x, kernel, output_size, samples):
    """(values, indices) of fractional max pooling over the last len(kernel) dims of x: each plane's windows
    start where its random samples (samples (planes, k): the first for the first spatial dim... as ATen reads
    them: 2-d's [0] is the width's) put them; PyTorch's scan (greater, or nan, wins)."""
    k = len(kernel)
    lead, sizes = x.shape[:-k], x.shape[-k:]
    planes = x.reshape((-1,) + sizes)
    m = planes.shape[0]
    samples = samples.reshape(m, k)
    order = (1, 0) if k == 2 else (0, 1, 2)         # which sample each spatial dim reads
    starts = [_fractional_starts(samples[:, order[d]], sizes[d], output_size[d], kernel[d]) for d in range(k)]
    grids = []          # each dim's start, broadcast over the output (m, *out)
    for d in range(k):
        shape = [m] + [1] * k
        shape[d + 1] = output_size[d]
        grids.append(starts[d].reshape(shape))
    place = np.cumprod((1,) + sizes[:0:-1])[::-1]
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    best = np.full((m,) + tuple(output_size), fill, x.dtype)
    first = sum(g * p for g, p in zip(grids, place))
    indices = np.broadcast_to(first, best.shape).copy()
    rows = np.arange(m).reshape((m,) + (1,) * k)
    for offset in np.ndindex(*kernel):
        position = sum((g + o) * p for g, o, p in zip(grids, offset, place))
        v = planes.reshape(m, -1)[rows, position]
        wins = v > best
        if x.dtype.kind == "f":
            wins |= v != v
        np.copyto(best, v, where=wins)
        np.copyto(indices, np.broadcast_to(position, best.shape), where=wins)
    return best.reshape(lead + tuple(output_size)), indices.reshape(lead + tuple(output_size))


def adaptive_ranges(size, out):
    """torch's adaptive pooling windows: [floor(i * size / out), ceil((i + 1) * size / out))."""
    starts = [(i * size) // out for i in range(out)]
    ends = [-(-((i + 1) * size) // out) for i in range(out)]
    return starts, ends


def adaptive_max_indices(x, output_size):
    """(values, indices) of adaptive max pooling over the last len(output_size) dims (2 or 3), cell by cell:
    the first maximum, or the last nan (PyTorch's scan)."""
    k = len(output_size)
    lead, sizes = x.shape[:-k], x.shape[-k:]
    ranges = [adaptive_ranges(n, o) for n, o in zip(sizes, output_size)]
    planes = x.reshape((-1,) + sizes)
    values = np.empty((planes.shape[0],) + tuple(output_size), x.dtype)
    indices = np.empty((planes.shape[0],) + tuple(output_size), np.int64)
    for cell in np.ndindex(*output_size):
        starts = [r[0][i] for r, i in zip(ranges, cell)]
        lengths = [r[1][i] - r[0][i] for r, i in zip(ranges, cell)]
        block = planes[(slice(None),) + tuple(slice(a, a + n) for a, n in zip(starts, lengths))]
        flat = block.reshape(planes.shape[0], -1)
        j = np.argmax(flat, axis=1)
        if x.dtype.kind == "f":
            nans = np.isnan(flat)
            j = np.where(nans.any(1), flat.shape[1] - 1 - np.argmax(nans[:, ::-1], axis=1), j)
        values[(slice(None),) + cell] = flat[np.arange(flat.shape[0]), j]
        position = 0
        for a, where, n in zip(starts, np.unravel_index(j, lengths), sizes):
            position = position * n + a + where
        indices[(slice(None),) + cell] = position
    return values.reshape(lead + tuple(output_size)), indices.reshape(lead + tuple(output_size))


# --- average pooling ----------------------------------------------------------------------------------

def _avg_divisor(size, out, k, s, p, count_include_pad):
    """Per output position along one dim: the window's length counted as PyTorch divides by it."""
    start = np.arange(out) * s - p
    end = np.minimum(start + k, size + p)
    if count_include_pad:
        return end - start
    return np.minimum(end, size) - np.maximum(start, 0)


def _avg_params(self_shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """The output sizes, and each output's divisor (an outer product of one count per dim: 2-d or 3-d)."""
    sizes = self_shape[-len(kernel):]
    out = tuple(pool_out_size(n, k, s, p, 1, ceil_mode) for n, k, s, p in zip(sizes, kernel, stride, padding))
    if divisor_override:
        divisor = np.asarray(divisor_override)
    else:
        counts = [_avg_divisor(n, o, k, s, p, count_include_pad)
                  for n, o, k, s, p in zip(sizes, out, kernel, stride, padding)]
        divisor = counts[0]
        for c in counts[1:]:
            divisor = np.multiply.outer(divisor, c)
    return out, divisor


@op("avg_pool2d_backward", "AvgPool2DBackwardBackward0", ("grad_output", "self"), promote=False,
    shows={"grad_output": "F.avg_pool2d(grad, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)"},
    grad_output=lambda g, n: dual.call("avg_pool2d", g, **_avg_kwargs(n)))
def avg_pool2d_backward(grad_output, self, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    dtype = grad_output.dtype
    out_hw, divisor = _avg_params(self.shape, kernel, stride, padding, ceil_mode, count_include_pad,
                                  divisor_override)
    h, w = self.shape[-2:]
    g = grad_output.astype(_compute_dtype(grad_output), copy=False).reshape((-1,) + out_hw) / divisor
    (kh, kw), (sh, sw), (ph, pw) = kernel, stride, padding
    oh, ow = out_hw
    hp = max(h + 2 * ph, (oh - 1) * sh + kh)
    wp = max(w + 2 * pw, (ow - 1) * sw + kw)
    out = np.zeros((g.shape[0], hp, wp), g.dtype)
    rows = np.zeros((g.shape[0], hp, ow), g.dtype)       # (rows first, as in _col2im)
    for i in range(kh):
        rows[:, i:i + sh * (oh - 1) + 1:sh] += g
    for j in range(kw):
        out[:, :, j:j + sw * (ow - 1) + 1:sw] += rows
    return out[:, ph:ph + h, pw:pw + w].reshape(self.shape).astype(dtype, copy=False)


def _avg_kwargs(n):
    return {"kernel": n.kernel, "stride": n.stride, "padding": n.padding, "ceil_mode": n.ceil_mode,
            "count_include_pad": n.count_include_pad, "divisor_override": n.divisor_override}


# Average pooling is linear and separable: avg_pool2d(x) = Ph x Pw^T with Ph, Pw the pooling of each dim as a
# matrix (the pooling of the identity matrix along that dim), so its gradient is Ph^T grad Pw. (With
# divisor_override the rows' pooling divides by it and the columns' by 1.) `eye(n=...)`: the size by keyword.
def _pooled_eye(size, kernel, stride, padding, divisor):
    return (f"F.avg_pool2d(eye(n={size}, dtype=grad.dtype)[None], {kernel}, {stride}, {padding}, ceil_mode, "
            f"count_include_pad, {divisor})[0]")


_AVG_POOL_TEXT = (_pooled_eye("self.shape[-2]", "(kernel[0], 1)", "(stride[0], 1)", "(padding[0], 0)", "divisor_override")
                  + ".mT @ grad @ "
                  + _pooled_eye("self.shape[-1]", "(1, kernel[1])", "(1, stride[1])", "(0, padding[1])",
                                "1 if divisor_override else None") + ".mT")


@op("avg_pool2d", "AvgPool2DBackward0", ("self",), promote=False, saves=("self",), shows={"self": _AVG_POOL_TEXT},
    self=lambda g, n: dual.call("avg_pool2d_backward", g, n.self, **_avg_kwargs(n)))
def avg_pool2d(self, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    lead, (h, w) = self.shape[:-2], self.shape[-2:]
    out_hw, divisor = _avg_params(self.shape, kernel, stride, padding, ceil_mode, count_include_pad,
                                  divisor_override)
    x = self.astype(_compute_dtype(self), copy=False).reshape((-1, h, w))
    windows = _pool_windows(x, kernel, stride, padding, (1, 1), out_hw, 0)
    total = np.add.reduce(windows.reshape(windows.shape[:3] + (-1,)), axis=-1)
    return (total / divisor.astype(total.dtype)).reshape(lead + out_hw).astype(self.dtype, copy=False)


# adaptive average pooling: sums over rectangles are separable, (rows @ x @ cols.T) / counts
def _adaptive_matrices(h, w, output_size):
    mats = []
    for size, out in zip((h, w), output_size):
        starts, ends = adaptive_ranges(size, out)
        m = np.zeros((out, size))
        for i, (a, b) in enumerate(zip(starts, ends)):
            m[i, a:b] = 1
        mats.append(m)
    counts = np.multiply.outer(mats[0].sum(1), mats[1].sum(1))
    return mats[0], mats[1], counts


@op("adaptive_avg_pool2d_backward", "AdaptiveAvgPool2DBackwardBackward0", ("grad_output", "self"), promote=False,
    shows={"grad_output": "F.adaptive_avg_pool2d(grad, output_size)"},
    grad_output=lambda g, n: dual.call("adaptive_avg_pool2d", g, output_size=n.output_size))
def adaptive_avg_pool2d_backward(grad_output, self, output_size):
    rows, cols, counts = _adaptive_matrices(*self.shape[-2:], grad_output.shape[-2:])
    g = grad_output.astype(np.float64) / counts
    return (rows.T @ g @ cols).astype(self.dtype)


@op("adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0", ("self",), promote=False, saves=("self",),
    shows={"self": "F.adaptive_avg_pool1d(eye(n=self.shape[-2], dtype=grad.dtype), grad.shape[-2]) @ grad"
                   " @ F.adaptive_avg_pool1d(eye(n=self.shape[-1], dtype=grad.dtype), grad.shape[-1]).mT"},
    self=lambda g, n: dual.call("adaptive_avg_pool2d_backward", g, n.self, output_size=n.output_size))
def adaptive_avg_pool2d(self, output_size):
    rows, cols, counts = _adaptive_matrices(*self.shape[-2:], output_size)
    return ((rows @ self.astype(np.float64) @ cols.T) / counts).astype(self.dtype)


# 3-d average pooling: a sum over the kernel's offsets, one strided view each (PyTorch's order: d, h, w), over
# the zero-padded volume; its gradient adds grad / divisor back over the same views.
def _avg3d_padded_shape(sizes, out, kernel, stride, padding):
    return tuple(max(n + 2 * p, (o - 1) * s + k) for n, o, k, s, p in zip(sizes, out, kernel, stride, padding))


def _offset_view(offset, stride, out):
    return (slice(None),) + tuple(slice(i, i + s * (o - 1) + 1, s) for i, s, o in zip(offset, stride, out))


# (each dim's pooling as a matrix, the pooling of an identity matrix along it, as avg_pool2d's text)
def _pooled_eye_3d(axis, divisor):
    return (f"F.avg_pool2d(eye(n=self.shape[{axis - 3}], dtype=grad.dtype)[None], (kernel[{axis}], 1), "
            f"(stride[{axis}], 1), (padding[{axis}], 0), ceil_mode, count_include_pad, {divisor})[0]")


_AVG_POOL3D_TEXT = ("einsum('...abc,ad,be,cf->...def', grad, " + _pooled_eye_3d(0, "divisor_override") + ", "
                    + _pooled_eye_3d(1, "1 if divisor_override else None") + ", "
                    + _pooled_eye_3d(2, "1 if divisor_override else None") + ")")


@op("avg_pool3d_backward", "AvgPool3DBackwardBackward0", ("grad_output", "self"), promote=False,
    shows={"grad_output": "F.avg_pool3d(grad, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)"},
    grad_output=lambda g, n: dual.call("avg_pool3d", g, **_avg_kwargs(n)))
def avg_pool3d_backward(grad_output, self, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    dtype = grad_output.dtype
    out, divisor = _avg_params(self.shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
    sizes = self.shape[-3:]
    g = grad_output.astype(_compute_dtype(grad_output), copy=False).reshape((-1,) + out) / divisor
    total = np.zeros((g.shape[0],) + _avg3d_padded_shape(sizes, out, kernel, stride, padding), g.dtype)
    for offset in np.ndindex(*kernel):
        total[_offset_view(offset, stride, out)] += g
    inner = total[(slice(None),) + tuple(slice(p, p + n) for p, n in zip(padding, sizes))]
    return inner.reshape(self.shape).astype(dtype, copy=False)


@op("avg_pool3d", "AvgPool3DBackward0", ("self",), promote=False, saves=("self",), shows={"self": _AVG_POOL3D_TEXT},
    self=lambda g, n: dual.call("avg_pool3d_backward", g, n.self, **_avg_kwargs(n)))
def avg_pool3d(self, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    lead, sizes = self.shape[:-3], self.shape[-3:]
    out, divisor = _avg_params(self.shape, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
    x = self.astype(_compute_dtype(self), copy=False).reshape((-1,) + sizes)
    xp = np.zeros((x.shape[0],) + _avg3d_padded_shape(sizes, out, kernel, stride, padding), x.dtype)
    xp[(slice(None),) + tuple(slice(p, p + n) for p, n in zip(padding, sizes))] = x
    total = np.zeros((x.shape[0],) + out, x.dtype)
    for offset in np.ndindex(*kernel):
        total += xp[_offset_view(offset, stride, out)]
    return (total / divisor.astype(total.dtype)).reshape(lead + out).astype(self.dtype, copy=False)


# 3-d adaptive average pooling: separable, one window matrix per dim (as the 2-d one)
def _adaptive_matrix(size, out):
    starts, ends = adaptive_ranges(size, out)
    m = np.zeros((out, size))
    for i, (a, b) in enumerate(zip(starts, ends)):
        m[i, a:b] = 1
    return m


def _adaptive_3d(x, sizes, out, transpose):
    """x (..., out) -> (..., sizes) if transpose (the gradient) else x (..., sizes) -> (..., out), in float64."""
    d, h, w = (_adaptive_matrix(n, o) for n, o in zip(sizes, out))
    counts = np.multiply.outer(np.multiply.outer(d.sum(1), h.sum(1)), w.sum(1))
    if transpose:
        return np.einsum("...abc,ad,be,cf->...def", x.astype(np.float64) / counts, d, h, w)
    return np.einsum("...def,ad,be,cf->...abc", x.astype(np.float64), d, h, w) / counts


@op("adaptive_avg_pool3d_backward", "AdaptiveAvgPool3DBackwardBackward0", ("grad_output", "self"), promote=False,
    shows={"grad_output": "F.adaptive_avg_pool3d(grad, output_size)"},
    grad_output=lambda g, n: dual.call("adaptive_avg_pool3d", g, output_size=n.output_size))
def adaptive_avg_pool3d_backward(grad_output, self, output_size):
    return _adaptive_3d(grad_output, self.shape[-3:], grad_output.shape[-3:], True).astype(self.dtype)


def _adaptive_eye(axis):
    return f"F.adaptive_avg_pool1d(eye(n=self.shape[{axis}], dtype=grad.dtype), grad.shape[{axis}])"


@op("adaptive_avg_pool3d", "AdaptiveAvgPool3DBackward0", ("self",), promote=False, saves=("self",),
    shows={"self": f"einsum('...abc,da,eb,fc->...def', grad, {_adaptive_eye(-3)}, {_adaptive_eye(-2)}, "
                   f"{_adaptive_eye(-1)})"},
    self=lambda g, n: dual.call("adaptive_avg_pool3d_backward", g, n.self, output_size=n.output_size))
def adaptive_avg_pool3d(self, output_size):
    return _adaptive_3d(self, self.shape[-3:], output_size, False).astype(self.dtype)


# --- padding ----------------------------------------------------------------------------------------

def _pad_slices(shape, pad):
    """The region of the padded result that holds the input, and the part of the input kept (a
    negative pad crops), for torch's pad list (last dim first: left, right, then the dim before...)."""
    out_shape, inner, kept = list(shape), [slice(None)] * len(shape), [slice(None)] * len(shape)
    for i in range(len(pad) // 2):
        dim = len(shape) - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        size = shape[dim]
        out_shape[dim] = size + left + right
        inner[dim] = slice(max(left, 0), max(left, 0) + size + min(left, 0) + min(right, 0))
        kept[dim] = slice(max(-left, 0), size - max(-right, 0))
    return tuple(out_shape), tuple(inner), tuple(kept)


@op("constant_pad_nd", "ConstantPadNdBackward0", ("self",), promote=False, variants=("function",),
    shows={"self": "F.pad(grad, [-p for p in pad])"},
    self=lambda g, n: dual.call("constant_pad_nd", g, pad=tuple(-p for p in n.pad), value=0))
def constant_pad_nd(self, pad, value=0):
    out_shape, inner, kept = _pad_slices(self.shape, pad)
    out = np.full(out_shape, value, self.dtype) if value else np.zeros(out_shape, self.dtype)
    out[inner] = self[kept]
    return out


def _index_map(size, left, right, mode):
    """For each position of a padded dim, the input position it copies."""
    positions = np.arange(-left, size + right)
    if mode == "replicate":
        return np.clip(positions, 0, size - 1)
    period = 2 * (size - 1)     # reflect: ... 2 1 [0 1 2 3] 2 1 0 ...
    positions = np.abs(positions) % period if period else np.zeros_like(positions)
    return np.where(positions >= size, period - positions, positions)


def _index_pad(x, pad, mode):
    for i in range(len(pad) // 2):
        dim = x.ndim - 1 - i
        x = np.take(x, _index_map(x.shape[dim], pad[2 * i], pad[2 * i + 1], mode), axis=dim)
    return x


def _index_pad_backward(g, input_shape, pad, mode):
    for i in range(len(pad) // 2):
        dim = g.ndim - 1 - i
        index = _index_map(input_shape[dim], pad[2 * i], pad[2 * i + 1], mode)
        onehot = np.zeros((len(index), input_shape[dim]), g.dtype)
        onehot[np.arange(len(index)), index] = 1
        g = np.moveaxis(np.moveaxis(g, dim, -1) @ onehot, -1, dim)
    return np.ascontiguousarray(g)


def _index_pad_text(mode, nd):
    """The gradient of a reflect/replicate pad: per padded dim, the pad of the identity matrix says where each
    input element was copied (a row per element), so grad times its transpose adds up the copies."""
    def padded_eye(dim, part):
        return f"F.pad(eye(n=self.shape[{dim}], dtype=grad.dtype), {part}, mode={mode!r})"
    if nd == 1:
        return f"grad @ {padded_eye(-1, 'pad')}.mT"
    rows_cols = f"{padded_eye(-2, 'pad[2:4]')} @ grad @ {padded_eye(-1, 'pad[:2]')}.mT"
    if nd == 2:
        return rows_cols
    return f"({padded_eye(-3, 'pad[4:]')} @ ({rows_cols}).flatten(-2)).view_as(self)"


def _index_pad_ops(mode, torch_mode):
    for nd in (1, 2, 3):
        name = f"{torch_mode}Pad{nd}DBackward0"
        key = f"{mode}_pad{nd}d"

        @op(f"{key}_backward", name.replace("Backward0", "BackwardBackward0"), ("grad_output", "self"),
            promote=False, shows={"grad_output": f"F.pad(grad, pad, mode={mode!r})"}, grad_output=lambda g, n, key=key: dual.call(key, g, pad=n.pad))
        def backward(grad_output, self, pad, mode=mode):
            return _index_pad_backward(grad_output, self.shape, pad, mode)

        @op(key, name, ("self",), promote=False, saves=("self",), shows={"self": _index_pad_text(mode, nd)},
            self=lambda g, n, key=key: dual.call(f"{key}_backward", g, n.self, pad=n.pad))
        def forward(self, pad, mode=mode):
            return _index_pad(self, pad, mode)


_index_pad_ops("reflect", "Reflection")
_index_pad_ops("replicate", "Replication")


# --- unfold and fold (im2col and col2im): each the other's gradient ------------------------------------

def _blocks(size, k, d, p, s):
    """How many sliding blocks fit along a dim (PyTorch rounds toward minus infinity, as // does)."""
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


@op("im2col", "Im2ColBackward0", ("self",), promote=False,
    shows={"self": "F.fold(grad, input_size[-2:], kernel_size, dilation, padding, stride)"},
    self=lambda g, n: dual.call("col2im", g, output_size=tuple(n.input_size[-2:]), kernel_size=n.kernel_size,
                                dilation=n.dilation, padding=n.padding, stride=n.stride))
def im2col(self, input_size, kernel_size, dilation, padding, stride):
    """(N, C, H, W) -> (N, C*kh*kw, L): every block of the (zero-padded) input as a column, the blocks in
    row-major order; an unbatched (C, H, W) gives (C*kh*kw, L)."""
    x = self[None] if self.ndim == 3 else self
    cols, _ = _columns(x, kernel_size, stride, padding, dilation, 1)
    out = np.array(cols.reshape(x.shape[0], cols.shape[2], cols.shape[3]), order="C")
    return out[0] if self.ndim == 3 else out


@op("col2im", "Col2ImBackward0", ("self",), promote=False,
    shows={"self": "F.unfold(grad, kernel_size, dilation, padding, stride)"},
    self=lambda g, n: dual.call("im2col", g, input_size=dual.data(g).shape, kernel_size=n.kernel_size,
                                dilation=n.dilation, padding=n.padding, stride=n.stride))
def col2im(self, output_size, kernel_size, dilation, padding, stride):
    """(N, C*kh*kw, L) -> (N, C, H, W): each column added back where its block was, in PyTorch's order (channel,
    kernel row, kernel column), so overlapping blocks sum as PyTorch's do; im2col's adjoint."""
    cols = self[None] if self.ndim == 2 else self
    (kh, kw), (dh, dw), (ph, pw), (sh, sw) = kernel_size, dilation, padding, stride
    h, w = output_size
    oh, ow = _blocks(h, kh, dh, ph, sh), _blocks(w, kw, dw, pw, sw)
    n, c = cols.shape[0], cols.shape[1] // (kh * kw)
    blocks = cols.reshape(n, c, kh, kw, oh, ow)
    out = np.zeros((n, c, h + 2 * ph, w + 2 * pw), self.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw] += blocks[:, :, i, j]
    out = np.array(out[:, :, ph:ph + h, pw:pw + w], order="C")
    return out[0] if self.ndim == 2 else out


# --- transposed convolution: the input gradient of a convolution, used as a layer --------------------
# conv_transpose(x, w) is col2im of w's transpose times x (_conv_input_grad with x as the "gradient"); its
# gradients are the convolution of grad by w (for x) and the weight gradient of a convolution of grad whose
# output gradient is x (for w). PyTorch records all of them as convolutions: ConvolutionBackward0, and
# ConvolutionBackwardBackward0 for the gradients.

def _transpose_params(n):
    return {"stride": n.stride, "padding": n.padding, "dilation": n.dilation, "groups": n.groups}


def conv_transpose_input_grad(grad_output, weight, input_shape, stride, padding, dilation, groups):
    """The gradient of conv_transpose for its input: the convolution of grad_output by the weight (cut to the
    input's size: an output_padding that dilation allows beyond the stride adds positions no input reached)."""
    out = _conv_forward(grad_output, weight, stride, padding, dilation, groups)
    out = out[(Ellipsis,) + tuple(slice(0, n) for n in input_shape[2:])]
    return np.ascontiguousarray(out).astype(grad_output.dtype, copy=False)


@op("conv_transpose", "ConvolutionBackward0", ("input", "weight", "bias"), promote=False,
    saves=("input", "weight"),      # (torch keeps both for any of the three: its formula is one call)
    shows={"input": _conv_call("grad", "weight").format(**{"1d": "weight.dim() == 3"}),
           "weight": _conv_text("weight", "grad", "weight_shape", "input").format(**{"1d": "len(weight_shape) == 3"}),
           "bias": "grad.transpose(0, 1).flatten(1).sum(1)"},
    input=lambda g, n: (conv_transpose_input_grad(g, n.weight, n.input_shape, **_transpose_params(n))
                        if not isinstance(g, Tensor) else _convolution_grads(g, n, True)[0]),
    weight=lambda g, n: (_conv_weight_grad(g, n.input, n.weight_shape, **_transpose_params(n))
                         if not isinstance(g, Tensor) else _convolution_grads(g, n, True)[1]),
    bias=lambda g, n: dual.sum_dims(g, _spatial_dims(g)) if not isinstance(g, Tensor) else _convolution_grads(g, n, True)[2])
def conv_transpose(input, weight, bias, stride, padding, dilation, groups, input_shape, output_shape, weight_shape):
    out = _conv_input_grad(input, weight, output_shape, stride, padding, dilation, groups)
    if bias is not None:
        out = out + bias.astype(out.dtype, copy=False).reshape((-1,) + (1,) * (out.ndim - 2))
    return out.astype(input.dtype, copy=False)


# --- max unpooling: each value put back at the position max pooling found it (the rest zeros) ---------

@op("max_unpool2d", "MaxUnpool2DBackward0", ("self",), promote=False,
    shows={"self": "grad.flatten(-2).gather(-1, indices.flatten(-2)).view_as(indices)"},
    self=lambda g, n: dual.call("max_pool2d", g, indices=n.indices, values=None, overlapping=True))
def max_unpool2d(self, indices, output_size):
    lead = self.shape[:-2]
    planes = math.prod(lead)
    out = np.zeros((planes, output_size[0] * output_size[1]), self.dtype)
    out[np.arange(planes)[:, None], indices.reshape(planes, -1)] = self.reshape(planes, -1)
    return out.reshape(lead + tuple(output_size))


@op("max_unpool3d", "MaxUnpool3DBackward0", ("self",), promote=False,
    shows={"self": "grad.flatten(-3).gather(-1, indices.flatten(-3)).view_as(indices)"},
    self=lambda g, n: dual.call("max_pool3d", g, indices=n.indices, values=None, overlapping=True))
def max_unpool3d(self, indices, output_size):
    lead = self.shape[:-3]
    planes = math.prod(lead)
    out = np.zeros((planes, math.prod(output_size)), self.dtype)
    out[np.arange(planes)[:, None], indices.reshape(planes, -1)] = self.reshape(planes, -1)
    return out.reshape(lead + tuple(output_size))
