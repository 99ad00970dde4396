"""torch.functional: the functions PyTorch defines in Python there, re-exported from gradlab (a tutorial
imports it as `import torch.functional as F`)."""
from . import (Tensor, broadcast_shapes, broadcast_tensors, cdist, einsum, linalg, meshgrid, norm, split, tensordot,
               unique, unique_consecutive)
from ._tensor_methods._common import _warn_once

__all__ = ["broadcast_shapes", "broadcast_tensors", "cdist", "einsum", "meshgrid", "norm", "split", "tensordot",
           "unique", "unique_consecutive", "chain_matmul"]


_CHAIN_MATMUL_WARNING = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use torch.linalg.multi_dot "
    "instead, which accepts a list of two or more tensors rather than multiple parameters. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:1102.)")


def chain_matmul(*matrices, out=None):
    """PyTorch's deprecated chain_matmul: warned once; every matrix 2-d; one matrix is cloned, more are
    linalg.multi_dot's product."""
    for i, t in enumerate(matrices):         # (PyTorch's argument parser, before the C++ function warns)
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    _warn_once(_CHAIN_MATMUL_WARNING)
    for t in matrices:
        if t._data.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {t._data.ndim}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    result = matrices[0].clone() if len(matrices) == 1 else linalg.multi_dot(list(matrices))
    if out is not None:
        out.copy_(result)
        return out
    return result
