"""gradlab.<fn> functions: shape (see gradlab/_functions/__init__.py).

hstack, vstack, dstack, column_stack and meshgrid are PyTorch's compositions (TensorShape.cpp):
views of each input (atleast_1d/2d/3d, view, expand), then cat, so the graph has PyTorch's nodes."""
import inspect

import numpy as np

from ..autograd.forward_grads import set_tangent, tangent_of
from .. import _dtype, _signatures
from .._argparse.wrappers import _vetter
from .._tensor_core import _wrap_dim
from ..autograd import grad_mode as _grad_mode
from ..ops.operands import _py
from .._tensor_methods.operators import _no_derivative
from .._ctype import tp_name
from .._tensor_core import Tensor
from ..creation import tensor
from ..creation.factories import _checked_fill
from ..creation.options import _finish, _options
from .._tensor_methods._common import _check_tensor_argument, _warn_once
from .._tensor_methods.shape import _infer_shape, _repeated_positions, _size_args
from ..ops import OPS
from ..ops.shape import _MAX_CAT, _tensor_list, cat, stack
from ._common import method_forms

__all__ = ["hstack", "vstack", "row_stack", "dstack", "column_stack", "meshgrid", "cartesian_prod", "tril_indices",
           "triu_indices", "atleast_1d", "atleast_2d", "atleast_3d", "view_as_real", "view_as_complex"]

# (scatter, scatter_add, index_add, index_copy, take, masked_select, masked_scatter are made from the op
# table: _functions/variants.py)
_METHOD_FORMS = ["ravel", "tile", "movedim", "moveaxis", "broadcast_to", "swapdims",
                 "scatter_reduce", "index_reduce"]      # (their rows are one per reduction: ops/scatter.py)
globals().update(method_forms(*_METHOD_FORMS))
__all__ += _METHOD_FORMS


# torch.reshape(t, (2, 3)) takes the sizes as one tuple only, where t.reshape(2, 3) takes ints too
def reshape(input, shape):
    return (input if isinstance(input, Tensor) else tensor(input)).reshape(shape=shape)


def permute(input, dims):
    return (input if isinstance(input, Tensor) else tensor(input)).permute(dims=dims)


def flip(input, dims):
    return (input if isinstance(input, Tensor) else tensor(input)).flip(dims=dims)


__all__ += ["reshape", "permute", "flip"]


def _tensors(name, tensors):
    tensors = _tensor_list(name, tensors, 0)
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def _atleast_1d(t):
    return t.reshape(1) if t._data.ndim == 0 else t


def _atleast_2d(t):
    if t._data.ndim == 0:
        return t.reshape(1, 1)
    return t.unsqueeze(0) if t._data.ndim == 1 else t


def _atleast_3d(t):
    nd = t._data.ndim
    if nd == 0:
        return t.reshape(1, 1, 1)
    if nd == 1:
        return t.unsqueeze(0).unsqueeze(-1)
    return t.unsqueeze(-1) if nd == 2 else t


def hstack(tensors):
    parts = [_atleast_1d(t) for t in _tensors("hstack", tensors)]
    return cat(parts, 0 if parts[0]._data.ndim == 1 else 1)


def vstack(tensors):
    return cat([_atleast_2d(t) for t in _tensors("vstack", tensors)], 0)


def row_stack(tensors):
    return cat([_atleast_2d(t) for t in _tensors("row_stack", tensors)], 0)


def dstack(tensors):
    return cat([_atleast_3d(t) for t in _tensors("dstack", tensors)], 2)


def column_stack(tensors):
    parts = [t.reshape(t._data.size, 1) if t._data.ndim <= 1 else t for t in _tensors("column_stack", tensors)]
    return hstack(parts)


_MESHGRID_WARNING = ("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument. "
                     "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4215.)")


_vet_meshgrid = _vetter(_signatures.CALLED["meshgrid"])


def meshgrid(*tensors, indexing=None):
    """torch.meshgrid(a, b) or meshgrid([a, b]): each input viewed along its own dim and expanded
    (with 'xy', the first two swap roles, as numpy's meshgrid)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    # (torch/functional.py hands them to _VF.meshgrid, whose parser refuses indexing=True)
    _vet_meshgrid((tensors,), {} if indexing is None else {"indexing": indexing})
    tensors = _tensor_list("meshgrid", tensors, 0)
    if indexing is None:
        _warn_once(_MESHGRID_WARNING)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors[1:]:
        if t._data.dtype != tensors[0]._data.dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    for t in tensors:
        if t._data.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {_legacy_text(t)}")
    if indexing not in ("xy", "ij"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    refs = list(tensors)
    swap = indexing == "xy" and len(refs) >= 2
    if swap:
        refs[0], refs[1] = refs[1], refs[0]
    shape = tuple(t._data.size for t in refs)
    grids = []
    for i, t in enumerate(refs):
        view = [1] * len(refs)
        view[i] = -1
        grids.append(t.view(view).expand(shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def _legacy_text(t):
    """A tensor as PyTorch's C++ `<<` prints it (in its error messages)."""
    data = t._data
    rows = data.reshape(data.shape[0], -1) if data.ndim == 2 else data.reshape(-1, data.shape[-1])
    width = max(len(_num(v)) for v in data.reshape(-1)) if data.size else 0
    text = "\n".join(" ".join(_num(v).rjust(width + 1) for v in row) for row in rows)
    kind = Tensor.type(t).split(".")[-1]
    return f"{text}\n[ torch.{kind}{{{','.join(map(str, data.shape))}}} ]"


def _num(v):
    v = v.item()
    if isinstance(v, float) and v == int(v):
        return str(int(v))
    return str(v)


def repeat_interleave(input=None, repeats=None, dim=None, *, output_size=None):
    """torch.repeat_interleave(x, repeats, dim) is x.repeat_interleave(repeats, dim);
    torch.repeat_interleave(repeats) repeats each position i of a 1-d tensor repeats[i] times."""
    if input is None:                        # torch.repeat_interleave(repeats=r): PyTorch's one-argument overload
        input, repeats = repeats, None
    if repeats is None:
        _check_tensor_argument("repeat_interleave", input, "repeats", position=0)
        return _repeated_positions(input, output_size)
    return input.repeat_interleave(repeats, dim, output_size=output_size)


__all__ += ["repeat_interleave"]


def cartesian_prod(*tensors):
    """PyTorch's composition (Itertools.cpp): the meshgrid of 1-d tensors, each flattened, stacked as columns."""
    for t in _tensor_list("cartesian_prod", tensors, 0):
        if t._data.ndim != 1:
            raise RuntimeError(f"Expect a 1D vector, but got shape [{', '.join(map(str, t._data.shape))}]")
    if len(tensors) == 1:
        return tensors[0]
    return stack([g.flatten() for g in meshgrid(*tensors, indexing="ij")], 1)


def block_diag(*tensors):
    """One BlockDiagBackward0 node (PyTorch's native block_diag): each input seen as 2-d (a 1-d one as a row,
    a 0-d one as 1 x 1) on the diagonal of zeros of the inputs' result type; no inputs give an empty 1 x 0."""
    tensors = _tensor_list("block_diag", tensors, 0)
    if not tensors:
        return Tensor._make(np.empty((1, 0), np.float32))
    heights, widths = [], []
    for i, t in enumerate(tensors):
        nd = t._data.ndim
        if nd > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has {nd} "
                               "dimensions")
        h, w = t._data.shape if nd == 2 else (1, t._data.shape[0] if nd == 1 else 1)
        heights.append(h)
        widths.append(w)
    if len(tensors) > _MAX_CAT:
        raise NotImplementedError(f"gradlab's block_diag takes at most {_MAX_CAT} tensors")
    rows = np.concatenate([[0], np.cumsum(heights)[:-1]]).astype(int).tolist()
    cols = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(int).tolist()
    counted = [not (t._data.ndim == 1 and t._data.size == 0) for t in tensors]      # (see ops/shape.py)
    grad_rows = np.concatenate([[0], np.cumsum([h * c for h, c in zip(heights, counted)])[:-1]]).astype(int).tolist()
    grad_cols = np.concatenate([[0], np.cumsum([w * c for w, c in zip(widths, counted)])[:-1]]).astype(int).tolist()
    result_complex = any(t._data.dtype.kind == "c" for t in tensors)
    return OPS["block_diag"](*tensors, rows=rows, cols=cols, heights=heights, widths=widths,
                             sizes=[t._data.shape for t in tensors], grad_rows=grad_rows, grad_cols=grad_cols,
                             complex_grad=[result_complex and t._data.dtype.kind != "c" for t in tensors])


def vander(x, N=None, increasing=False):
    """PyTorch's composition (Linear.cpp): a column of ones, then x's copies multiplied up by cumprod, written
    into slices of one result (CopySlices), flipped unless increasing. Integer inputs give int64 (cumprod's)."""
    _check_tensor_argument("vander", x, "x", position=0)
    if x._data.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x._data.shape[0]
    if N is not None:
        n = N
        if n < 0:
            raise RuntimeError("N must be non-negative.")
    dt = _dtype.from_numpy_dtype(_dtype.result_np_dtype([(1, x._data.dtype), (1, np.dtype(np.int64))], []))
    result = Tensor._make(np.empty((x._data.shape[0], n), dt.np))
    if n > 0:
        result.select(1, 0).fill_(1)
        if n > 1:
            result[:, 1:] = x.unsqueeze(1)
            # (PyTorch's cumprod_out writes over the slice its node saved: a backward through it raises
            # PyTorch's in-place modification error, as here)
            result[:, 1:] = result[:, 1:].cumprod(1)
    return result if increasing else result.flip(1)


def combinations(input, r=2, with_replacement=False):
    """PyTorch's composition (Itertools.cpp): the meshgrid of r copies of input, each masked_select'ed by the
    mask of strictly (or, with replacement, weakly) increasing positions, stacked as columns."""
    _check_tensor_argument("combinations", input, "input", position=0)
    if input._data.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape [{', '.join(map(str, input._data.shape))}]")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return Tensor._make(np.empty(0, input._data.dtype))
    n = input._data.size
    positions = np.indices((n,) * r)
    keep = np.ones((n,) * r, bool)
    for a, b in zip(positions[:-1], positions[1:]):
        keep &= (a <= b) if with_replacement else (a < b)
    mask = Tensor._make(keep)
    return stack([g.masked_select(mask) for g in meshgrid(*[input] * r, indexing="ij")], 1)


__all__ += ["block_diag", "vander", "combinations"]


def _triangle_indices(name, row, col, offset, dtype, keep, device, pin_memory, requires_grad):
    """The (row, col) positions of a row x col matrix's lower or upper triangle, row by row, as a 2 x N tensor."""
    _options(name, dtype, device, pin_memory=pin_memory)
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    dtype = _dtype.int64 if dtype is None else dtype
    if dtype.name not in ("int32", "int64"):          # (PyTorch's kernel has index types only)
        raise NotImplementedError(f'"{name}" not implemented for \'{dtype._legacy[:-len("Tensor")]}\'')
    rows, cols = np.indices((row, col)).reshape(2, -1)
    chosen = keep(cols - rows, offset)
    return _finish(np.stack([rows[chosen], cols[chosen]]).astype(dtype.np), requires_grad)


def tril_indices(row, col, offset=0, *, dtype=_dtype.int64, layout=None, device=None, pin_memory=False,
                 requires_grad=False):
    return _triangle_indices("tril_indices", row, col, offset, dtype, lambda diagonal, k: diagonal <= k, device,
                             pin_memory, requires_grad)


def triu_indices(row, col, offset=0, *, dtype=_dtype.int64, layout=None, device=None, pin_memory=False,
                 requires_grad=False):
    return _triangle_indices("triu_indices", row, col, offset, dtype, lambda diagonal, k: diagonal >= k, device,
                             pin_memory, requires_grad)


def _each(view, name):
    """atleast_1d/2d/3d: one tensor gives one view, several (or a list of them) a tuple."""
    def fn(*tensors):
        if len(tensors) == 1 and isinstance(tensors[0], Tensor):
            return view(tensors[0])
        if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
            tensors = tensors[0]
        elif len(tensors) == 1:        # one argument, neither a Tensor nor a tuple of them: the parser's message
            got = tp_name(type(tensors[0]))
            raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one "
                            f"of:\n * (Tensor input)\n      didn't match because some of the arguments have invalid "
                            f"types: (!{got}!)\n * (tuple of Tensors tensors)\n      didn't match because some of the "
                            f"arguments have invalid types: (!{got}!)\n")
        # (PyTorch's parser reads them as one tuple of Tensors: its TypeError names the first that is not one)
        return tuple(view(t) for t in _tensor_list("atleast", tuple(tensors), 0))
    fn.__name__ = fn.__qualname__ = name       # (Python's own messages name it: "atleast_2d() got an unexpected ...")
    fn.__code__ = fn.__code__.replace(co_name=name, co_qualname=name)
    return fn


atleast_1d = _each(_atleast_1d, "atleast_1d")
atleast_2d = _each(_atleast_2d, "atleast_2d")
atleast_3d = _each(_atleast_3d, "atleast_3d")


def view_as_real(input):
    """A complex tensor as a float view with a last dim of 2 (real, imaginary)."""
    if not input.is_complex():
        raise RuntimeError("view_as_real is only supported for complex tensors")
    if input.is_conj():
        raise RuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate "
                           "tensor so you can view it as real, use self.resolve_conj(); however, be warned that the "
                           "resulting tensor will NOT alias the original.")
    return OPS["view_as_real"](input)._view_of(input)


def view_as_complex(input):
    """A float tensor whose last dim holds (real, imaginary) pairs, as a complex view: PyTorch's checks that
    the pairs are adjacent in memory, in its order."""
    if input.dtype.name not in ("float32", "float64", "float16"):
        raise RuntimeError("view_as_complex is only supported for half, float and double tensors, but got a "
                           f"tensor of scalar type: {input.dtype._legacy[:-len('Tensor')]}")
    if input.dim() == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if input.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    strides = input.stride()
    if strides[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in strides[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if input.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return OPS["view_as_complex"](input)._view_of(input)


# --- views as functions, and the *_copy ops (PyTorch's copies of its views) ---------------------------------

_VIEW_FUNCTIONS = ["as_strided_", "tensor_split", "hsplit", "vsplit", "dsplit", "fliplr", "flipud",
                   "unsafe_chunk", "is_same_size", "is_conj", "is_neg", "resolve_conj", "resolve_neg", "adjoint"]
globals().update(method_forms(*_VIEW_FUNCTIONS))
__all__ += _VIEW_FUNCTIONS


def _copied(view_key, input, out):
    """A view's result as its *_copy op's: new contiguous tensors, recorded under the copy's node (the view's
    node holds the parameters that the copy's row takes)."""
    first = out[0] if isinstance(out, tuple) else out
    node = first.grad_fn if first is not None else None
    if node is not None and getattr(getattr(node, "_op", None), "key", None) == view_key:
        row = OPS["as_strided_copy" if view_key == "as_strided_view" else view_key + "_copy"]
        return row(input, **{name: getattr(node, name) for name in inspect.signature(row.forward).parameters
                             if name not in row.inputs})
    if isinstance(out, tuple):
        return tuple(_copy_tangent(t, Tensor._make(np.array(t._data, order="C", copy=True))) for t in out)
    return _copy_tangent(out, Tensor._make(np.array(out._data, order="C", copy=True)))


def _copy_tangent(view, copy):
    """Inside forward_ad.dual_level, the copy of a dual view carries a copy of the view's tangent."""
    tangent = tangent_of(view)
    if tangent is not None:
        set_tangent(copy, tangent.clone())
    return copy


def _copy_form(name, view_key, make_view):
    """torch.<name>(input, ...): make_view(input, ...) copied (see _copied)."""
    def function(input, *args, **kwargs):
        _check_tensor_argument(name, input, "input", position=0)
        return _copied(view_key, input, make_view(input, *args, **kwargs))
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.{name}: the values of its view ({view_key}) as a new contiguous tensor."
    function.__signature__ = inspect.signature(make_view)    # (PyTorch's parameter names: the argument parser reads them)
    return function


def _squeeze_view(input, dim=None):
    return input.squeeze() if dim is None else input.squeeze(dim)


def _squeeze_key(input, dim=None):
    return "squeeze" if dim is None else "squeeze_dims" if isinstance(dim, (tuple, list)) else "squeeze_dim"


def squeeze_copy(input, dim=None):
    _check_tensor_argument("squeeze_copy", input, "input", position=0)
    return _copied(_squeeze_key(input, dim), input, _squeeze_view(input, dim))


def _slice_view(input, dim=0, start=None, end=None, step=1):
    if input._data.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, input._data.ndim)
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    begin, stop, _ = slice(start, end, step).indices(input._data.shape[d])
    stop = max(stop, begin)
    return OPS["slice"](input, dim=d, start=begin, stop=stop, step=step,
                        self_sizes=input._data.shape)._view_of(input)


def _view_any(input, size):
    """view_copy's view: any layout (PyTorch's view_copy reshapes a copy where a view is impossible)."""
    if isinstance(size, (_dtype.dtype, type)):
        return input.view(size)
    shape = _infer_shape(tuple(_size_args((size,))), input._data.size)
    return OPS["view"](input, shape=shape, self_sizes=input._data.shape)


view_copy = _copy_form("view_copy", "view", _view_any)
alias_copy = _copy_form("alias_copy", "alias", lambda input: OPS["alias"](input)._view_of(input))
t_copy = _copy_form("t_copy", "t", lambda input: input.t())
transpose_copy = _copy_form("transpose_copy", "transpose", lambda input, dim0, dim1: input.transpose(dim0, dim1))
permute_copy = _copy_form("permute_copy", "permute", lambda input, dims: input.permute(dims))
unsqueeze_copy = _copy_form("unsqueeze_copy", "unsqueeze", lambda input, dim: input.unsqueeze(dim))
expand_copy = _copy_form("expand_copy", "expand", lambda input, size, *, implicit=False: input.expand(size))
diagonal_copy = _copy_form("diagonal_copy", "diagonal",
                           lambda input, offset=0, dim1=0, dim2=1: input.diagonal(offset, dim1, dim2))
select_copy = _copy_form("select_copy", "select", lambda input, dim, index: input.select(dim, index))
slice_copy = _copy_form("slice_copy", "slice", _slice_view)
split_copy = _copy_form("split_copy", "split", lambda input, split_size, dim=0: input.split(split_size, dim))
split_with_sizes_copy = _copy_form("split_with_sizes_copy", "split_with_sizes",
                                   lambda input, split_sizes, dim=0: input.split(list(split_sizes), dim))
unbind_copy = _copy_form("unbind_copy", "unbind", lambda input, dim=0: input.unbind(dim))
as_strided_copy = _copy_form("as_strided_copy", "as_strided_view",
                             lambda input, size, stride, storage_offset=None: input.as_strided(size, stride,
                                                                                               storage_offset))
unfold_copy = _copy_form("unfold_copy", "unfold", lambda input, dimension, size, step: input.unfold(dimension, size,
                                                                                                   step))
view_as_real_copy = _copy_form("view_as_real_copy", "view_as_real", view_as_real)


def view_as_complex_copy(input):
    _check_tensor_argument("view_as_complex_copy", input, "input", position=0)
    out = view_as_complex(input.detach())
    if input.requires_grad and _grad_mode._state["enabled"]:
        raise RuntimeError("view_as_complex_copy does not support automatic differentiation for outputs with complex "
                           "dtype.")
    return Tensor._make(np.array(out._data, order="C", copy=True))


def detach_copy(input):
    """A copy of input's values; PyTorch gives it no derivative (grad_fn NotImplemented) when input requires
    grad."""
    _check_tensor_argument("detach_copy", input, "input", position=0)
    return _no_derivative(Tensor._make(np.array(input._data, order="C", copy=True)), "detach_copy", input)


def fill(input, value):
    """torch.fill: a new tensor like input, every element value (FillBackward0; FillBackward1 for a 0-d tensor
    value, whose gradient is the sum of grad)."""
    _check_tensor_argument("fill", input, "input", position=0)
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value._data.ndim} "
                               "dimensions.")
        return OPS["fill_tensor_out"](input, value)
    value = _py(value)
    _checked_fill(value, input._data.dtype)       # (PyTorch's checked conversion: 1e40 is no float32)
    return OPS["fill_out"](input, value=value)


def real(input):
    _check_tensor_argument("real", input, "input", position=0)
    return input.real


def imag(input):
    _check_tensor_argument("imag", input, "input", position=0)
    return input.imag


__all__ += ["view_copy", "alias_copy", "t_copy", "transpose_copy", "permute_copy", "unsqueeze_copy", "expand_copy",
            "diagonal_copy", "select_copy", "slice_copy", "split_copy", "split_with_sizes_copy", "unbind_copy",
            "as_strided_copy", "unfold_copy", "view_as_real_copy", "view_as_complex_copy", "detach_copy",
            "squeeze_copy", "fill", "real", "imag"]








def is_inference(input):
    _check_tensor_argument("is_inference", input, "input", position=0)
    return input.is_inference()


__all__ += ["is_inference"]   # (torch.complex, torch.polar: _functions/pointwise.py)
# --- pixel and channel shuffles (torch.pixel_shuffle is F.pixel_shuffle): PyTorch's checks, then the op ---

def _dims_text(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def pixel_shuffle(input, upscale_factor):
    _check_tensor_argument("pixel_shuffle", input, "input", position=0)
    shape, r = input._data.shape, upscale_factor
    if len(shape) < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"{len(shape)} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    if shape[-3] % (r * r):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={shape[-3]} is not divisible by {r * r}")
    return OPS["pixel_shuffle"](input, upscale_factor=int(r))


def pixel_unshuffle(input, downscale_factor):
    _check_tensor_argument("pixel_unshuffle", input, "input", position=0)
    shape, r = input._data.shape, downscale_factor
    if len(shape) < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{len(shape)} dimension(s)")
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    if shape[-2] % r:
        raise RuntimeError("pixel_unshuffle expects height to be divisible by downscale_factor, but "
                           f"input.size(-2)={shape[-2]} is not divisible by {r}")
    if shape[-1] % r:
        raise RuntimeError("pixel_unshuffle expects width to be divisible by downscale_factor, but "
                           f"input.size(-1)={shape[-1]} is not divisible by {r}")
    return OPS["pixel_unshuffle"](input, downscale_factor=int(r))


def channel_shuffle(input, groups):
    _check_tensor_argument("channel_shuffle", input, "input", position=0)
    shape = input._data.shape
    if len(shape) <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes "
                           f"{_dims_text(shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    if shape[1] % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {shape[1]} channels and {groups} "
                           "groups.")
    return OPS["channel_shuffle"](input, groups=int(groups))


__all__ += ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle"]
