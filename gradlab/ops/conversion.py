"""Copying ops: to(dtype), clone, and the layout (strides) PyTorch gives a copy (PyTorch's
TensorConversions.cpp and Copy.cpp).
"""
import numpy as np

from .._dtype import cast, real_part
from . import dual
from .registry import _byte_strides, contiguous_strides, op, preserved_strides  # noqa: F401

# --- dtype conversion ---------------------------------------------------------------------------

@op("to_dtype", "ToCopyBackward0", promote=False, shows={"self": "grad.to(source_dtype)"},
    self=lambda g, n: dual.to_dtype(g, n.source_dtype))
def to_dtype(self, dtype, source_dtype):
    if 1 in self.shape:     # (numpy's layout of size-1 dims is not PyTorch's: x[::2].double() keeps stride 2)
        out = preserved_empty(self, dtype)
        if self.dtype.kind == "V" or dtype.kind == "V":     # (complex32: converted by cast, which rounds)
            out[...] = cast(self, dtype)
        else:
            np.copyto(out, real_part(self, dtype), casting="unsafe")
        return out
    return cast(self, dtype)


@op("clone", "CloneBackward0", variants=("function", "method"), promote=False,
    self=lambda g, n: g)
def clone(self, strides=None):
    """A copy of self laid out as PyTorch lays out its copy: `strides` (in elements) when given
    (contiguous(), memory_format=...), else self's own strides when self is dense without overlap,
    else dense strides in the order of self's (PyTorch's preserve_format)."""
    if strides is None:
        if self.flags.c_contiguous and 1 not in self.shape:
            return np.array(self, copy=True)        # the common case: numpy keeps the C strides
        out = preserved_empty(self)
    else:
        out = np.lib.stride_tricks.as_strided(np.empty(self.size, self.dtype), self.shape,
                                              [s * self.itemsize for s in strides])
    np.copyto(out, self)
    return out


def preserved_empty(a, dtype=None):
    """An uninitialised array shaped like `a`, laid out as PyTorch lays out a new tensor made from it
    with preserve_format (clone, zeros_like, .to(dtype)): see preserved_strides."""
    dtype = a.dtype if dtype is None else np.dtype(dtype)
    strides = preserved_strides(a.shape, [s // a.itemsize for s in _byte_strides(a)])
    return np.lib.stride_tricks.as_strided(np.empty(a.size, dtype), a.shape, [s * dtype.itemsize for s in strides])


@op("copy_backwards", "CopyBackwards", promote=False,
    self=lambda g, n: g)
def copy_backwards(self):
    return np.array(self, copy=True)
