"""torch functions that are a tensor method or a fact about a tensor: is_signed, get_device, typename,
put, index_put_, nonzero_static, resize_as_, set_flush_denormal (_tensor_methods/misc.py and the others)."""
import numpy as np

from .._tensor_core import Tensor
from .._tensor_methods.misc import dlpack_array
from ..ops.operands import _type_name
from ..ops.shape import stack as _stack
from ._common import method_form

__all__ = ["is_signed", "get_device", "typename", "put", "index_put_", "nonzero_static", "resize_as_",
           "set_flush_denormal"]

is_signed, get_device, put, index_put_, resize_as_ = (method_form(name) for name in (
    "is_signed", "get_device", "put", "index_put_", "resize_as_"))


def nonzero_static(input, *, size, fill_value=-1, out=None):
    result = input.nonzero_static(size=size, fill_value=fill_value)
    if out is not None:
        out.resize_(result.shape).copy_(result)
        return out
    return result


_LEGACY = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor", "int64": "LongTensor",
           "int32": "IntTensor", "int16": "ShortTensor", "int8": "CharTensor", "uint8": "ByteTensor",
           "bool": "BoolTensor", "complex64": "ComplexFloatTensor", "complex128": "ComplexDoubleTensor"}


def typename(obj):
    """torch.typename: a tensor's legacy type name (torch.FloatTensor), else the object's qualified class name."""
    if isinstance(obj, Tensor):
        return "torch." + _LEGACY.get(np.dtype(obj._data.dtype).name, "Tensor")
    module = getattr(obj, "__module__", "") or type(obj).__module__
    qualname = ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = type(obj).__module__ or ""
        qualname = type(obj).__qualname__
    module = module.replace("gradlab", "torch") if module.startswith("gradlab") else module
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def set_flush_denormal(mode):
    """Whether the CPU flushes denormal numbers: PyTorch sets the x86 FTZ/DAZ flags and returns True; numpy
    has no such switch, so gradlab keeps denormals either way (and still answers True, as x86 PyTorch does)."""
    if not isinstance(mode, bool):
        raise RuntimeError(f"flush_denormal expects a bool, but got {_type_name(mode)}")
    return True


# --- torch.vmap ---------------------------------------------------------------------------------------
__all__ += ["vmap"]


def _vmap_name(func):
    return getattr(func, "__name__", repr(func))


def _flatten(tree):
    """The leaves of nested tuples, lists and dicts, and a function rebuilding the tree from new leaves."""
    if isinstance(tree, (tuple, list)):
        parts = [_flatten(t) for t in tree]
        leaves = [leaf for p, _ in parts for leaf in p]

        def build(new):
            out, i = [], 0
            for p, b in parts:
                out.append(b(new[i:i + len(p)]))
                i += len(p)
            return type(tree)(out)
        return leaves, build
    if isinstance(tree, dict):
        keys = list(tree)
        leaves, build = _flatten([tree[k] for k in keys])
        return leaves, lambda new: dict(zip(keys, build(new)))
    return [tree], lambda new: new[0]


def _broadcast_dims(dims, tree, what):
    """in_dims (or out_dims) given for the tree's leaves: one int for all, or a matching nested structure."""
    leaves, _ = _flatten(tree)
    if dims is None or isinstance(dims, int):
        return [dims] * len(leaves)
    if isinstance(dims, (tuple, list)) and isinstance(tree, (tuple, list)) and len(dims) == len(tree):
        return [d for sub_dims, sub in zip(dims, tree) for d in _broadcast_dims(sub_dims, sub, what)]
    raise what(dims, tree)


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """torch.vmap as a loop: func runs on each slice of the inputs along their in_dims, and its outputs are
    stacked along out_dims. PyTorch runs func once on batched tensors; the values are the same, but the
    results' grad_fn here is the stack (StackBackward0), and random functions inside draw per slice."""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. Got {randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")
    name = _vmap_name(func)

    def wrapped(*args, **kwargs):
        if not args:
            raise ValueError(f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you are trying "
                             "to vmap over a function with no inputs. The latter is unsupported.")
        if not isinstance(in_dims, (int, tuple)) or isinstance(in_dims, bool):
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or a "
                             "(potentially nested) tuple matching the structure of inputs, got: "
                             f"{type(in_dims)}.")
        if isinstance(in_dims, tuple) and len(in_dims) != len(args):
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
                             "structure of `inputs`.")
        if not (out_dims is None or isinstance(out_dims, (int, tuple, list))):
            raise ValueError(f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a python "
                             "collection of ints representing where in the outputs the vmapped dimension should "
                             "appear.")

        def mismatch(dims, tree):
            return ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with the "
                              "structure of `inputs`.")
        leaves, build = _flatten(list(args))
        dims = _broadcast_dims(list(in_dims) if isinstance(in_dims, tuple) else in_dims, list(args), mismatch)
        sizes = []
        for leaf, d in zip(leaves, dims):
            if d is None:
                continue
            if not isinstance(leaf, Tensor):
                raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input but "
                                 f"the input is of type {type(leaf)}. We cannot vmap over non-Tensor arguments, "
                                 "please use None as the respective in_dim")
            nd = leaf.dim()
            if not -nd <= d < nd:
                raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some input, "
                                 f"but that input is a Tensor of dimensionality {nd} so expected in_dim to satisfy "
                                 f"-{nd} <= in_dim < {nd}.")
            sizes.append(leaf.shape[d])
        if not sizes:
            raise ValueError(f"vmap({name}, in_dims={in_dims}, ...)(<inputs>): at least one input must be a Tensor "
                             "mapped over a dimension (in_dim not None).")
        if len(set(sizes)) > 1:
            raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                             f"{sizes} for the mapped dimension")
        batch = sizes[0]

        def slice_at(i):
            return build([leaf if d is None else leaf.select(d, i) for leaf, d in zip(leaves, dims)])

        if batch == 0:       # (func still runs once, on zeros, for the shapes of its outputs)
            zero = build([leaf if d is None else leaf.new_zeros(leaf.shape[:d % leaf.dim()] +
                                                                leaf.shape[d % leaf.dim() + 1:])
                          for leaf, d in zip(leaves, dims)])
            results = [func(*zero, **kwargs)]
        else:
            results = [func(*slice_at(i), **kwargs) for i in range(batch)]
        outs = [_flatten(r) for r in results]
        first, rebuild = outs[0]
        for leaf in first:
            if not isinstance(leaf, Tensor):
                raise ValueError(f"vmap({name}, ...): `{name}` must only return Tensors, got type {type(leaf)}. "
                                 "Did you mean to set out_dims= to None for output?")
        odims = [out_dims] * len(first) if out_dims is None or isinstance(out_dims, int) else \
            _broadcast_dims(list(out_dims), results[0] if isinstance(results[0], (tuple, list)) else [results[0]],
                            lambda *_: ValueError(f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is "
                                                  "not compatible with the structure of `outputs`."))
        stacked = []
        for j, d in enumerate(odims):
            items = [o[0][j] for o in outs]
            if batch == 0:
                empty = items[0].new_empty((0,) + tuple(items[0].shape))
                stacked.append(empty.movedim(0, d) if d is not None else items[0])
            elif d is None:
                stacked.append(items[0])
            else:
                # (PyTorch's batch dim is physically first, then moved to out_dim: a view of the stack)
                stacked.append(_stack(items, 0).movedim(0, d))     # (StackBackward0)
        return rebuild(stacked)
    wrapped.__name__ = getattr(func, "__name__", "vmap")
    return wrapped



# --- DLPack: numpy's (a CPU tensor's memory shared, not copied) ----------------------------------------
__all__ += ["from_dlpack", "to_dlpack"]


class _Capsule:
    """A DLPack capsule given the protocol numpy's from_dlpack reads (a CPU device)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, stream=None, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)           # (kDLCPU, device 0)


def from_dlpack(ext_tensor):
    """A tensor sharing the memory of an object with __dlpack__ (a numpy array, a torch tensor) or of a capsule."""
    source = ext_tensor if hasattr(ext_tensor, "__dlpack__") else _Capsule(ext_tensor)
    try:
        data = np.from_dlpack(source)
    except (TypeError, ValueError, RuntimeError) as error:
        if isinstance(source, _Capsule):
            raise RuntimeError("from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed "
                               "only once, so you might have already constructed a tensor from it once.") from None
        raise error
    return Tensor._make(data)


def _to_dlpack(tensor):
    if not isinstance(tensor, Tensor):
        raise TypeError(f"_to_dlpack(): argument 'data' (position 1) must be Tensor, not {_type_name(tensor)}")
    return dlpack_array(tensor._data).__dlpack__()


to_dlpack = _to_dlpack          # (PyTorch's torch.to_dlpack is its C function _to_dlpack: errors name it)


# --- the sparse layouts' accessors: a strided tensor has none -----------------------------------------
__all__ += ["values_copy", "indices_copy", "crow_indices_copy", "col_indices_copy", "ccol_indices_copy",
            "row_indices_copy", "hash_tensor"]


def _sparse_accessor(name, layout):
    def fn(input, *, out=None):
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}_copy(): argument 'input' (position 1) must be Tensor, not {_type_name(input)}")
        raise RuntimeError(f"{name} expected sparse {layout} layout but got Strided")
    fn.__name__ = fn.__qualname__ = f"{name}_copy"
    return fn


values_copy, indices_copy, crow_indices_copy, col_indices_copy, ccol_indices_copy, row_indices_copy = (
    _sparse_accessor(name, layout) for name, layout in (
        ("values", "tensor"), ("indices", "coordinate tensor"), ("crow_indices", "row compressed tensor"),
        ("col_indices", "row compressed tensor"), ("ccol_indices", "column compressed tensor"),
        ("row_indices", "column compressed tensor")))


def hash_tensor(input, dim=None, *, keepdim=False, mode=0):
    return input.hash_tensor(dim, keepdim=keepdim, mode=mode)
