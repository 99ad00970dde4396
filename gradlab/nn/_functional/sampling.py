"""nn.functional: embedding bags, grid sampling, Gumbel-softmax and fractional max pooling (imported by
gradlab/nn/functional.py), with PyTorch's checks and messages; the ops are in ops/sampling.py and ops/conv.py."""

import numpy as np

from ...autograd import grad_mode
from ...creation import rand
from ...ops import conv as _conv
from ...ops import sampling as _sampling
from ...ops.registry import OPS
from ..._dtype import int64 as _int64
from ...tensor import Tensor
from .normalization import _name, _renorm, _tensor
from ... import _warnings

__all__ = ["embedding_bag"]


# --- embedding bags ------------------------------------------------------------------------------------

def _check_indices(indices, fn):
    if indices._data.dtype not in (np.int64, np.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{_name(indices)}Tensor instead (while checking arguments for "
                           f"{fn})")


def torch_embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                        per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """torch.embedding_bag: (output, offset2bag, bag_size, max_indices), as PyTorch's CPU kernel returns them
    (offset2bag empty for a plain sum; bag_size zeros for a sum; max_indices the bag sizes for a mean)."""
    _tensor("embedding_bag", weight, "weight", 1)
    _tensor("embedding_bag", indices, "indices", 2)
    _tensor("embedding_bag", offsets, "offsets", 3)
    _check_indices(indices, "embedding_bag")
    if offsets._data.dtype not in (np.int64, np.int32):
        raise RuntimeError("Expected tensor for argument #1 'offsets' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{_name(offsets)}Tensor instead (while checking arguments for "
                           "embedding_bag)")
    w = weight._data
    num_weights = w.shape[0] if w.ndim else 0
    if padding_idx is not None:
        if not -num_weights <= padding_idx < num_weights:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, -{num_weights} through "
                               f"{num_weights - 1}, but got {padding_idx}")
        padding_idx = padding_idx % num_weights
    else:
        padding_idx = -1
    if indices._data.ndim != 1:
        raise RuntimeError(f"input has to be a 1D or 2D Tensor, but got Tensor of dimension {indices._data.ndim}")
    if offsets._data.ndim != 1:
        raise RuntimeError(f"offsets has to be a 1D Tensor, but got Tensor of dimension {offsets._data.ndim}")
    if w.ndim != 2:
        raise RuntimeError(f"weight has to be a 2D Tensor, but got Tensor of dimension {w.ndim}")
    mode = int(mode)
    if per_sample_weights is not None:
        if mode != 0:
            raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
        if per_sample_weights._data.dtype != w.dtype:
            raise RuntimeError(f"Expected tensor for argument #1 'per_sample_weights' to have the same type as "
                               f"tensor for argument #1 'weight'; but type torch.{_name(per_sample_weights)}Tensor "
                               f"does not equal torch.{_name(weight)}Tensor (while checking arguments for "
                               "embedding_bag)")
        if per_sample_weights._data.ndim != 1 or per_sample_weights._data.shape[0] != indices._data.shape[0]:
            raise RuntimeError(f"expected per_sample_weights.numel() ({per_sample_weights._data.size}) to be the same "
                               f"as indices.numel() ({indices._data.size})")
    idx = indices._data.astype(np.int64)
    offs = offsets._data.astype(np.int64)
    n = idx.shape[0]
    if offs.size and offs[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {int(offs[0])}")
    if offs.size and offs[-1] > n:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got offsets[-1] of "
                           f"{int(offs[-1])}")
    if idx.size and (idx.min() < 0 or idx.max() >= num_weights):
        where = int(np.flatnonzero((idx < 0) | (idx >= num_weights))[0])
        if w.dtype == np.float32 and mode != 2:     # (the fast float kernel's message)
            raise RuntimeError(f"Index {where} of input takes value {int(idx[where])} which is not in the valid range "
                               f"[0, {num_weights})")
        raise RuntimeError("embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be "
                           f"{int(idx[where])}")
    starts = offs[:-1] if include_last_offset else offs
    bags = starts.shape[0]
    # each index's bag: the last bag starting at or before it (an empty bag starts where the next one does)
    offset2bag = np.searchsorted(starts, np.arange(n), side="right") - 1 if bags else np.zeros(n, np.int64)
    keep = idx != padding_idx
    bag_size = np.bincount(offset2bag[keep], minlength=bags)[:bags] if bags else np.zeros(0, np.int64)
    dim = w.shape[1]
    values = np.zeros((bags, dim), w.dtype)
    max_indices = np.zeros((bags, dim), np.int64)
    if mode == 2:
        for b in range(bags):       # PyTorch's scan: a later row wins where it is greater
            rows = idx[keep & (offset2bag == b)]
            if rows.size:
                best, where = w[rows[0]].copy(), np.full(dim, rows[0])
                for r in rows[1:]:
                    wins = w[r] > best
                    best[wins], where[wins] = w[r][wins], r
                values[b], max_indices[b] = best, where
    else:
        # (with include_last_offset, PyTorch's sums stop at the last offset, though its bag sizes, its mean's
        # divisor and its gradient count the indices after it in the last bag)
        summed = keep & (np.arange(n) < offs[-1]) if include_last_offset and offs.size else keep
        picked = w[idx[summed]]
        if per_sample_weights is not None:
            picked = picked * per_sample_weights._data[summed][:, None]
        np.add.at(values, offset2bag[summed], picked)       # (one row after another, as PyTorch's sums)
        if mode == 1:
            filled = bag_size > 0
            values[filled] = values[filled] / bag_size[filled][:, None].astype(w.dtype)
    out = OPS["embedding_bag"](weight, per_sample_weights, indices=idx, offset2bag=offset2bag, keep=keep,
                               bag_size=bag_size, max_indices=max_indices, mode=mode, num_weights=num_weights,
                               scale_grad_by_freq=bool(scale_grad_by_freq),
                               freq_counts=_sampling.freq_counts(idx, num_weights) if scale_grad_by_freq else None,
                               values=values)
    itype = indices._data.dtype
    if mode == 0:
        # (PyTorch's fast float sum fills no offset2bag; its sums report len(offsets) zero sizes)
        o2b = offset2bag if padding_idx >= 0 or w.dtype != np.float32 else np.zeros(0, np.int64)
        # (and zero sizes: one per bag when the weight wants a gradient, one per offset when PyTorch runs its
        # forward-only kernel)
        wants_grad = weight.requires_grad and grad_mode._state["enabled"]
        sizes = maxes = np.zeros(bags if wants_grad else offs.shape[0], np.int64)
    else:
        o2b, sizes = offset2bag, bag_size
        maxes = bag_size if mode == 1 else max_indices
    return (out, Tensor._make(o2b.astype(itype)), Tensor._make(sizes.astype(itype)),
            Tensor._make(np.array(maxes, dtype=itype)))


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """torch.nn.functional.embedding_bag: its Python checks, then torch.embedding_bag's output."""
    if weight.dtype == _int64 and input.is_floating_point():
        _warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, "
                       "input, ...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.")
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if not weight.dim() == 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
        offsets = Tensor._make(np.arange(0, input.numel(), input.size(1), dtype=input._data.dtype))
        include_last_offset = False
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode == "sum":
        mode_enum = 0
    elif mode == "mean":
        mode_enum = 1
    elif mode == "max":
        mode_enum = 2
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    else:
        raise ValueError("mode has to be one of sum, mean or max")
    if max_norm is not None:
        _check_indices(input, "embedding_renorm_")
        _renorm(weight, input._data.astype(np.int64), max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    return torch_embedding_bag(weight, input, offsets, scale_grad_by_freq, mode_enum, sparse, per_sample_weights,
                               include_last_offset, padding_idx)[0]


def torch_embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """torch.embedding (the C function behind F.embedding): a negative padding_idx is none."""
    _tensor("embedding", weight, "weight", 1)
    _tensor("embedding", indices, "indices", 2)
    if weight._data.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    _check_indices(indices, "embedding")
    idx = indices._data.astype(np.int64)
    rows = weight._data.shape[0]
    if idx.size and (idx.min() < 0 or idx.max() >= rows):
        raise IndexError("index out of range in self")
    return OPS["embedding"](weight, indices=idx, num_weights=rows, padding_idx=padding_idx if padding_idx >= 0 else -1,
                            scale_grad_by_freq=bool(scale_grad_by_freq))


# --- grid sampling -------------------------------------------------------------------------------------

_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. Please "
                  "specify align_corners=True if the old behavior is desired. See the documentation of grid_sample "
                  "for details.")


def _grid_checks(input, grid, interpolation_mode, nd):
    """ATen's check_grid_sampler_common, then the 2-d or 3-d check, in its order."""
    shape, gshape = input._data.shape, grid._data.shape
    if not shape or not gshape:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if shape[:1] != gshape[:1]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got input with "
                           f"sizes {_dims(shape)} and grid with sizes {_dims(gshape)}")
    if not gshape or gshape[-1] != len(shape) - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {len(shape) - 2} in last dimension, but got "
                           f"grid with sizes {_dims(gshape)}")
    for i in range(2, len(shape)):
        if shape[i] <= 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
                               f"sizes {_dims(shape)} with dimension {i} being empty")
    if not (len(shape) == nd + 2 and len(shape) == len(gshape)):
        raise RuntimeError(f"grid_sampler(): expected {nd + 2}D input and grid with same number of dimensions, but "
                           f"got input with sizes {_dims(shape)} and grid with sizes {_dims(gshape)}")
    if nd == 3 and interpolation_mode == 2:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if input._data.dtype != grid._data.dtype:
        raise RuntimeError(f"expected scalar type {_name(input)} but found {_name(grid)}")
    if input._data.dtype.kind != "f":
        kernel = "grid_sampler_2d_cpu_kernel_impl" if nd == 2 else "grid_sampler3d_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_name(input)}'")


def _dims(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def _grid_sampler_nd(nd, input, grid, interpolation_mode, padding_mode, align_corners):
    fn = f"grid_sampler_{nd}d"
    _tensor(fn, input, "input", 1)
    _tensor(fn, grid, "grid", 2)
    _grid_checks(input, grid, int(interpolation_mode), nd)
    return OPS[fn](input, grid, interpolation_mode=int(interpolation_mode), padding_mode=int(padding_mode),
                   align_corners=bool(align_corners))


def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners):
    return _grid_sampler_nd(2, input, grid, interpolation_mode, padding_mode, align_corners)


def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners):
    return _grid_sampler_nd(3, input, grid, interpolation_mode, padding_mode, align_corners)


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """torch.grid_sampler: the 2-d sampler for a 4-d input, the 3-d one otherwise."""
    _tensor("grid_sampler", input, "input", 1)
    _tensor("grid_sampler", grid, "grid", 2)
    nd = 2 if input._data.ndim == 4 else 3
    return _grid_sampler_nd(nd, input, grid, interpolation_mode, padding_mode, align_corners)


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         f"got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    mode_enum = ("bilinear", "nearest", "bicubic").index(mode)
    padding_enum = ("zeros", "border", "reflection").index(padding_mode)
    if align_corners is None:
        _warnings.warn(_ALIGN_WARNING)
        align_corners = False
    return grid_sampler(input, grid, mode_enum, padding_enum, align_corners)


def affine_grid_generator(theta, size, align_corners):
    """torch.affine_grid_generator: (N, *spatial, k) grid of the affine maps theta (N, k, k + 1)."""
    _tensor("affine_grid_generator", theta, "theta", 1)
    size = [int(v) for v in size]
    if len(size) not in (4, 5):
        raise RuntimeError("AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.")
    return OPS["affine_grid_generator"](theta, size=tuple(size), align_corners=bool(align_corners))


def affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        _warnings.warn(_ALIGN_WARNING)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got "
                             f"{theta.shape}.")
        spatial_size = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. Got "
                             f"{theta.shape}.")
        spatial_size = size[-3:]
    else:
        raise NotImplementedError("affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(spatial_size) == 1:
        _warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                       "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                       "of affine_grid for details.")
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return affine_grid_generator(theta, size, align_corners)


__all__ += ["grid_sample", "affine_grid"]


# --- Gumbel-softmax: torch's composition, drawing its Gumbel noise from the global generator as PyTorch's
# exponential_ does (same stream, so the same samples for the same seed) --------------------------------

def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    if eps != 1e-10:
        _warnings.warn("`eps` parameter is deprecated and has no effect.")
    gumbels = -logits.new_empty(logits.shape).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = logits.new_zeros(logits.shape).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


__all__ += ["gumbel_softmax"]


# --- fractional max pooling: windows at pseudo-random starts (PyTorch's samples: torch.rand from the global
# generator, (N, C, 2 or 3) in the input's dtype), then a max pooling's gather and scatter ------------------

def _fractional_nd(nd, input, kernel_size, output_size, samples):
    """torch._C._nn.fractional_max_pool2d / 3d: ATen's checks, then the row."""
    fn = f"fractional_max_pool{nd}d"
    _tensor(fn, input, "input", 1)
    _tensor(fn, samples, "random_samples", 4)
    kernel = [int(v) for v in (kernel_size if isinstance(kernel_size, (list, tuple)) else (kernel_size,) * nd)]
    size = [int(v) for v in (output_size if isinstance(output_size, (list, tuple)) else (output_size,) * nd)]
    if len(kernel) == 1:
        kernel = kernel * nd
    if len(size) == 1:
        size = size * nd
    if len(kernel) != nd:
        raise RuntimeError(f"{fn}: kernel_size must either be a single Int or tuple of {'Ints' if nd == 2 else 'three Ints'}")
    if len(size) != nd:
        raise RuntimeError(f"{fn}: output_size must either be a single Int or tuple of {'Ints' if nd == 2 else 'three Ints'}")
    shape = input._data.shape
    where = f"{fn}()" if nd == 2 else f"{fn}_out()"
    if len(shape) not in (nd + 1, nd + 2):
        raise RuntimeError(f"{where}: Expected {nd + 1}D or {nd + 2}D tensor, but got: {_dims(shape)}")
    for i in range(1, len(shape)):
        if shape[i] <= 0:
            raise RuntimeError(f"{where}: Expected input to have non-zero size for non-batch dimensions, but got"
                               f"{_dims(shape)} with dimension {i} being empty.")
    names = ("height", "width") if nd == 2 else ("time", "height", "width")
    checks = list(zip(names, size, kernel, shape[-nd:]))
    if nd == 3:         # (ATen checks time, width, then height)
        checks = [checks[0], checks[2], checks[1]]
    for name, o, k, n in checks:
        # (the 3-d check is strict: an output as large as the input minus the kernel plus one is refused)
        if o + k - 1 > n or (nd == 3 and o + k - 1 == n):
            raise RuntimeError(f"{where}: pool {name} {k} too large relative to input {name} {n}")
    r = samples._data
    if r.dtype != input._data.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if r.ndim != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {r.ndim}")
    if r.shape[0] < (shape[0] if len(shape) == nd + 2 else 1):
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if r.shape[1] != shape[-nd - 1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if r.shape[2] != nd:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {nd}; got {r.shape[2]}.")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f"\"{fn}_out_frame\" not implemented for '{_name(input)}'")
    planes = shape[0] * shape[1] if len(shape) == nd + 2 else shape[0]
    values, indices = _conv.fractional_max_indices(input._data, tuple(kernel), tuple(size),
                                                   samples._data[:planes // shape[-nd - 1]].reshape(planes, nd))
    out = OPS[fn](input, indices=indices, values=values, overlapping=True)
    return out, Tensor._make(indices)


def _fractional_with_indices(nd, input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                             _random_samples=None):
    fn = f"fractional_max_pool{nd}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{fn} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if nd == 2 and len(output_ratio) > 2:
            raise ValueError(f"{fn} requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = tuple(output_ratio) if isinstance(output_ratio, (list, tuple)) else (output_ratio,) * nd
        output_size = [int(input.size(-nd + d) * ratio[d]) for d in range(nd)]
    if _random_samples is None:
        n_batch = 1 if input.dim() == nd + 1 else input.size(0)
        _random_samples = rand(n_batch, input.size(-nd - 1), nd, dtype=input.dtype)
    return _fractional_nd(nd, input, kernel_size, output_size, _random_samples)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    return _fractional_with_indices(2, input, kernel_size, output_size, output_ratio, return_indices, _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    return _fractional_with_indices(3, input, kernel_size, output_size, output_ratio, return_indices, _random_samples)


def _fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                           _random_samples=None):
    return fractional_max_pool2d_with_indices(input, kernel_size, output_size, output_ratio, return_indices,
                                              _random_samples)[0]


def _fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                           _random_samples=None):
    return fractional_max_pool3d_with_indices(input, kernel_size, output_size, output_ratio, return_indices,
                                              _random_samples)[0]


def _dispatch(name, if_true, if_false):
    """torch's boolean_dispatch on return_indices (argument 4)."""
    def fn(*args, **kwargs):
        flag = kwargs["return_indices"] if "return_indices" in kwargs else (args[4] if len(args) > 4 else False)
        return if_true(*args, **kwargs) if flag else if_false(*args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    return fn


fractional_max_pool2d = _dispatch("fractional_max_pool2d", fractional_max_pool2d_with_indices, _fractional_max_pool2d)
fractional_max_pool3d = _dispatch("fractional_max_pool3d", fractional_max_pool3d_with_indices, _fractional_max_pool3d)

__all__ += ["fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
            "fractional_max_pool3d_with_indices"]
