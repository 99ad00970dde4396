"""nn.functional: resampling and rearranging images (imported by gradlab/nn/functional.py): interpolate
and the deprecated upsample forms, pixel and channel shuffles (torch's own functions: gradlab/_functions/shape.py),
unfold and fold.

interpolate is PyTorch's Python function (its ValueErrors in its order), then the checks of its C++
kernels (upsample_*_common_check), then an op of ops/upsample.py, so the graph shows PyTorch's node
(UpsampleNearest2DBackward0, UpsampleBilinear2DBackward0, ...)."""
import math
from collections.abc import Iterable

import numpy as np

from ..._functions.shape import channel_shuffle, pixel_shuffle, pixel_unshuffle
from ... import _argparse
from ...ops.registry import OPS
from ...tensor import Tensor
from .conv import _int_list, _tensor, adaptive_avg_pool1d, adaptive_avg_pool2d
from ... import _warnings

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear", "pixel_shuffle", "pixel_unshuffle",
           "channel_shuffle"]

_SCALAR_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
                 "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool", "void32": "ComplexHalf", "complex64": "ComplexFloat",
                 "complex128": "ComplexDouble"}


def _scalar_name(t):
    return _SCALAR_NAMES.get(t._data.dtype.name, t._data.dtype.name)


def _is_integer(x):
    if isinstance(x, (int, np.integer)):
        return True
    return isinstance(x, Tensor) and not x.is_floating_point()


# (mode, input dims) -> the op of ops/upsample.py
_UPSAMPLE_OPS = {("nearest", 3): "upsample_nearest1d", ("nearest", 4): "upsample_nearest2d",
                 ("nearest", 5): "upsample_nearest3d", ("nearest-exact", 3): "_upsample_nearest_exact1d",
                 ("nearest-exact", 4): "_upsample_nearest_exact2d", ("nearest-exact", 5): "_upsample_nearest_exact3d",
                 ("linear", 3): "upsample_linear1d", ("bilinear", 4): "upsample_bilinear2d",
                 ("trilinear", 5): "upsample_trilinear3d", ("bicubic", 4): "upsample_bicubic2d"}
_NEEDS = {"linear": 3, "bilinear": 4, "trilinear": 5}


def _parse_upsample(key, input, output_size, scale_factors, align_corners):
    """PyTorch's argument parser on interpolate's call of torch._C._nn.<key>(input, output_size,
    [align_corners,] scale_factors): its TypeError for an output size of wrong items, its RuntimeError for a
    one-element bool Tensor in it; returns the output size as ints."""
    linear = "linear" in key
    dims = {"1d": ("scales",), "2d": ("scales_h", "scales_w"), "3d": ("scales_d", "scales_h", "scales_w")}[key[-2:]]
    corners = "bool align_corners, " if linear else ""
    entry = (f"{key}(Tensor input, SymIntArrayRef? output_size, {corners}ArrayRef<double>? scale_factors)",
             f"{key}(Tensor input, SymIntArrayRef output_size, {corners}"
             + ", ".join(f"double? {d}=None" for d in dims) + ", *, Tensor out=None)")
    args = (input, output_size, align_corners, scale_factors) if linear else (input, output_size, scale_factors)
    error = _argparse.check(entry, args, {})
    if error is not None:
        raise error
    return _int_list(key, "output_size", 2, output_size, sym=True)


def _upsample(key, input, output_size, scale_factors, align_corners):
    """The C++ side: the output size (from the scale factors: truncated), upsample_*_common_check, the
    kernel's dtype check, then the op."""
    shape = input._data.shape
    nd = len(shape) - 2
    if output_size is None:
        output_size = [int(shape[2 + i] * float(scale_factors[i])) for i in range(nd)]
    else:                          # torch._C._nn's op parses it (a SymInt[]: a one-element bool Tensor refused)
        output_size = _parse_upsample(key, input, output_size, scale_factors, align_corners)
    output_size = [int(v) for v in output_size]
    letters = "DHW"[3 - nd:]
    if any(v <= 0 for v in shape[2:]) or any(v <= 0 for v in output_size):
        given = ", ".join(f"{c}: {v}" for c, v in zip(letters, shape[2:]))
        wanted = ", ".join(f"{c}: {v}" for c, v in zip(letters, output_size))
        joint = " and " if nd == 1 else " "
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({given}){joint}"
                           f"output ({wanted})")
    if input._data.size == 0 and not all(shape[1:]):
        raise RuntimeError(f"Non-empty {nd + 2}D data tensor expected but got a tensor with sizes "
                           f"[{', '.join(map(str, shape))}]")
    kind = input._data.dtype
    linear = "linear" in key or "cubic" in key
    if not (kind.kind == "f" or (kind == np.uint8 and (not linear or nd == 2))):
        weights = "cubic" if "cubic" in key else "linear" if linear else "nearest"
        raise NotImplementedError(f'"compute_indices_weights_{weights}" not implemented for \'{_scalar_name(input)}\'')
    scales = None if scale_factors is None else tuple(float(s) for s in scale_factors)
    return OPS[key](input, input_size=shape, output_size=tuple(output_size), scales=scales,
                    align_corners=bool(align_corners) if linear else None)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input with "
                                 f"spatial dimensions of {list(input.shape[2:])} and output size of {size}. Please "
                                 "provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, "
                                 "...,oK) format.")
            if not all(_is_integer(x) for x in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, "
                                f"int], but got size with types {[type(x) for x in size]}")
            output_size = size
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {list(input.shape[2:])} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 "scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = scale_factor
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        output_size = [math.floor(input.size(i + 2) * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
                         "tensor as input")
    nd = input.dim()
    key = _UPSAMPLE_OPS.get((mode, nd))
    if key is not None and not antialias:
        return _upsample(key, input, output_size, scale_factors, align_corners)
    if mode == "area" and nd in (3, 4):
        return (adaptive_avg_pool1d if nd == 3 else adaptive_avg_pool2d)(input, output_size)
    if mode in _NEEDS and nd in (3, 4, 5):
        raise NotImplementedError(f"Got {nd}D input, but {mode} mode needs {_NEEDS[mode]}D input")
    if nd in (3, 4, 5) and (mode in ("lanczos", "area", "bilinear") or (mode == "bicubic" and nd == 4)):
        raise NotImplementedError(f"gradlab: F.interpolate(mode={mode!r}) of a {nd}D input is not implemented yet")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {nd}D) for the modes: "
                              "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact "
                              f"(got {mode})")


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    _warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    _warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    _warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# --- unfold and fold ----------------------------------------------------------------------------------

def _pair_list(fn, name, position, value):
    """_pair(value) as torch's argument parser reads it (an int[2])."""
    values = tuple(value) if isinstance(value, Iterable) else (value, value)     # (torch's _pair)
    values = _int_list(fn, name, position, values, sym=name == "output_size")     # (fold's is a SymInt[2])
    if len(values) != 2:
        raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(values)}")
    return tuple(values)


def _dims(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def _positive(kernel, dilation, padding, stride, order):
    checks = {"kernel": (kernel, "kernel size should be greater than zero, but got kernel_height: {} kernel_width: {}"),
              "dilation": (dilation, "dilation should be greater than zero, but got dilation_height: {} "
                                     "dilation_width: {}"),
              "stride": (stride, "stride should be greater than zero, but got stride_height: {} stride_width: {}")}
    for name in order:
        if name == "padding":
            if padding[0] < 0 or padding[1] < 0:
                raise RuntimeError(f"padding should be non-negative, but got pad_height: {padding[0]} pad_width: "
                                   f"{padding[1]}")
            continue
        value, text = checks[name]
        if value[0] <= 0 or value[1] <= 0:
            raise RuntimeError(text.format(*value))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    fn = "im2col"
    _tensor(fn, input, "input", 1)
    kernel, dilation, padding, stride = (_pair_list(fn, name, i + 2, v) for i, (name, v) in enumerate(
        (("kernel_size", kernel_size), ("dilation", dilation), ("padding", padding), ("stride", stride))))
    _positive(kernel, dilation, padding, stride, ("kernel", "dilation", "padding", "stride"))
    shape = input._data.shape
    x = shape if len(shape) != 3 else (1,) + shape
    if len(x) < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(len(x), 1)}, "
                         f"{max(len(x), 1) - 1}], but got {len(x) or 2})")     # (a 1-d input: 1)
    if not (len(x) == 4 and x[1] and x[2] and x[3]):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {_dims(x)}")
    h, w = x[2], x[3]
    oh = (h + 2 * padding[0] - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    ow = (w + 2 * padding[1] - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    if oh < 1 or ow < 1:
        raise RuntimeError(f"Given input with spatial size ({h}, {w}), kernel_size=({kernel[0]}, {kernel[1]}), "
                           f"dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, {padding[1]}), calculated "
                           f"shape of the array of sliding blocks as ({oh}, {ow}), but its components must be at least "
                           "one.")
    if input._data.dtype.kind not in "fb":
        raise NotImplementedError(f'"im2col_out_cpu" not implemented for \'{_scalar_name(input)}\'')
    return OPS["im2col"](input, input_size=shape, kernel_size=kernel, dilation=dilation, padding=padding,
                         stride=stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    fn = "col2im"
    _tensor(fn, input, "input", 1)
    size, kernel, dilation, padding, stride = (_pair_list(fn, name, i + 2, v) for i, (name, v) in enumerate(
        (("output_size", output_size), ("kernel_size", kernel_size), ("dilation", dilation), ("padding", padding),
         ("stride", stride))))
    _positive(kernel, dilation, padding, stride, ("kernel", "stride", "dilation", "padding"))
    shape = input._data.shape
    if not ((len(shape) == 2 and shape[0] and shape[1]) or (len(shape) == 3 and shape[1] and shape[2])):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {_dims(shape)}")
    planes, length = shape[-2], shape[-1]
    if planes % (kernel[0] * kernel[1]):
        raise RuntimeError("Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={planes} and kernel_size=({kernel[0]}, {kernel[1]}).")
    blocks = [(n + 2 * p - d * (k - 1) - 1) // s + 1 for n, k, d, p, s in zip(size, kernel, dilation, padding, stride)]
    given = (f"Given output_size=({size[0]}, {size[1]}), kernel_size=({kernel[0]}, {kernel[1]}), dilation=("
             f"{dilation[0]}, {dilation[1]}), padding=({padding[0]}, {padding[1]}), stride=({stride[0]}, {stride[1]}), ")
    if length != blocks[0] * blocks[1]:
        raise RuntimeError(f"{given}expected size of input's dimension 2 to match the calculated number of sliding "
                           f"blocks {blocks[0]} * {blocks[1]} = {blocks[0] * blocks[1]}, but got input.size(2)={length}.")
    if blocks[0] < 1 or blocks[1] < 1:
        raise RuntimeError(f"{given}calculated shape of the array of sliding blocks as ({blocks[0]}, {blocks[1]}), "
                           "which is too small (non-positive)")
    if input._data.dtype.kind not in "f":
        raise NotImplementedError(f'"col2im_out_cpu" not implemented for \'{_scalar_name(input)}\'')
    return OPS["col2im"](input, output_size=size, kernel_size=kernel, dilation=dilation, padding=padding,
                         stride=stride)


__all__ += ["unfold", "fold"]
