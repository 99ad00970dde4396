"""nn.functional: products of several inputs (imported by gradlab/nn/functional.py): bilinear.

bilinear is PyTorch's composition (Linear.cpp): both inputs flattened to 2-d, one _trilinear node
(TrilinearBackward0), the result reshaped to the inputs' batch shape (ViewBackward0), then the bias added."""
from ...ops.registry import OPS
from .conv import _C_NAMES, _tensor

__all__ = ["bilinear"]


def _size(t, dim):
    """t.size(dim) with PyTorch's IndexErrors."""
    nd = t._data.ndim
    if nd == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -nd <= dim < nd:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-nd}, {nd - 1}], but got {dim})")
    return t._data.shape[dim]


def bilinear(input1, input2, weight, bias=None):
    for i, (name, t) in enumerate((("input1", input1), ("input2", input2), ("weight", weight))):
        _tensor("bilinear", t, name, i + 1)
    if bias is not None:
        _tensor("bilinear", bias, "bias", 4)
    named = [("input1", input1), ("input2", input2), ("weight", weight)] + ([("bias", bias)] if bias is not None else [])
    if len({t._data.dtype for _, t in named}) > 1:
        raise RuntimeError("All tensors must have the same dtype, got " + ", ".join(
            f"{name}: {_C_NAMES.get(t._data.dtype.name, t._data.dtype.name)}" for name, t in named))
    n1, n2 = input1._data.ndim, input2._data.ndim
    if n1 != n2:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {n1} and {n2}")
    for i in range(n1 - 1):
        if input1._data.shape[i] != input2._data.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got {input1._data.shape[i]} and "
                               f"{input2._data.shape[i]}")
    if _size(input1, n1 - 1) != _size(weight, 1):
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {_size(input1, n1 - 1)} but "
                           f"expected {_size(weight, 1)}")
    if _size(input2, n2 - 1) != _size(weight, 2):
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {_size(input2, n2 - 1)} but "
                           f"expected {_size(weight, 2)}")
    if bias is not None and _size(bias, 0) != _size(weight, 0):
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {_size(bias, 0)} but expected "
                           f"{_size(weight, 0)}")
    if input1._data.dtype.kind == "b":
        raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
    output_size = input1._data.shape[:-1] + (weight._data.shape[0],)
    flat1 = input1.reshape(-1, input1._data.shape[-1])
    flat2 = input2.reshape(-1, input2._data.shape[-1])
    output = OPS["_trilinear"](flat1, weight, flat2).reshape(output_size)
    if bias is not None:
        output = output + bias
    return output
