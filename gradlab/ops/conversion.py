"""Copying ops: to(dtype), clone, and the layout (strides) PyTorch gives a copy (PyTorch's
TensorConversions.cpp and Copy.cpp).
"""
import numpy as np

from .._dtype import cast, real_part
from . import dual
from .registry import op

# --- dtype conversion ---------------------------------------------------------------------------

@op("to_dtype", "ToCopyBackward0", promote=False, shows={"self": "grad.to(source_dtype)"},
    self=lambda g, n: dual.to_dtype(g, n.source_dtype))
def to_dtype(self, dtype, source_dtype):
    if 1 in self.shape and self.size > 1:     # (numpy's layout of size-1 dims is not PyTorch's)
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
    strides = preserved_strides(a.shape, [s // a.itemsize for s in a.strides])
    return np.lib.stride_tricks.as_strided(np.empty(a.size, dtype), a.shape, [s * dtype.itemsize for s in strides])


def contiguous_strides(shape):
    """PyTorch's C-order strides (a dim of size 0 or 1 counts as 1)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return strides[::-1]


def preserved_strides(shape, strides):
    """The strides of PyTorch's copy with preserve_format: the same strides when the tensor is dense
    and does not overlap itself, else dense strides in the order of the tensor's own (its
    infer_dense_strides: an expanded dim, of stride 0, keeps its place)."""
    if 0 in shape:
        return list(strides)                       # (no elements: dense by definition)
    order = sorted((i for i in range(len(shape)) if shape[i] >= 2), key=lambda i: strides[i])
    step = 1
    for i in order:
        if strides[i] != step:
            break
        step *= shape[i]
    else:
        return list(strides)                       # dense and non-overlapping
    perm = list(range(len(shape)))[::-1]           # perm[0] is the innermost dim
    for k in range(1, len(perm)):                  # insertion sort, stable, stride-0 dims stay put
        d1 = k
        for d0 in range(k - 1, -1, -1):
            a, b = perm[d0], perm[d1]
            if strides[a] == 0 or strides[b] == 0:
                continue
            if strides[a] < strides[b]:
                break
            if strides[a] > strides[b] or shape[a] > shape[b]:
                perm[d0], perm[d1] = b, a
                d1 = d0
    out, step = [0] * len(shape), 1
    for i in perm:
        out[i] = step
        step *= max(shape[i], 1)
    return out


@op("copy_backwards", "CopyBackwards", promote=False,
    self=lambda g, n: g)
def copy_backwards(self):
    return np.array(self, copy=True)
