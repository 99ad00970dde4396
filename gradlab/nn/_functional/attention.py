"""nn.functional: products of several inputs (imported by gradlab/nn/functional.py): bilinear and
scaled_dot_product_attention.

bilinear is PyTorch's composition (Linear.cpp): both inputs flattened to 2-d, one _trilinear node
(TrilinearBackward0), the result reshaped to the inputs' batch shape (ViewBackward0), then the bias added.

scaled_dot_product_attention is PyTorch's math backend (attention.cpp, _scaled_dot_product_attention_math), the
one its CPU build records for inputs that want gradients: query and key each scaled by sqrt(scale), their
product, the mask added in place, a _safe_softmax (SafeSoftmaxBackward0), dropout, then the product with value."""
import math

import numpy as np

from ...ops.registry import OPS
from ...tensor import Tensor
from .. import functional as _functional     # (dropout: nn.functional's, imported by the time it is called)
from .conv import _C_NAMES, _tensor

__all__ = ["bilinear", "scaled_dot_product_attention"]


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


_FLOAT_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half"}


def _attention_checks(query, key, value, attn_mask, dropout_p, is_causal):
    q, k, v = (t._data for t in (query, key, value))
    if not q.dtype == k.dtype == v.dtype:
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{_C_NAMES.get(q.dtype.name)} key.dtype: {_C_NAMES.get(k.dtype.name)} and value.dtype: "
                           f"{_C_NAMES.get(v.dtype.name)} instead.")
    if attn_mask is not None:
        m = attn_mask._data.dtype
        if not (m == np.bool_ or m == q.dtype):
            raise RuntimeError("Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                               f"attn_mask.dtype: {_C_NAMES.get(m.name)} and  query.dtype: "
                               f"{_C_NAMES.get(q.dtype.name)} instead.")
    if min(q.ndim, k.ndim, v.ndim) < 2:
        raise RuntimeError("Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{q.ndim} key.dim: {k.ndim} and value.dim: {v.ndim} instead.")
    if not 0 <= dropout_p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {dropout_p}")
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if q.dtype.kind != "f":
        raise RuntimeError(f"expected scalar type Float but found {_SCALAR.get(q.dtype.name, q.dtype.name)}")


_SCALAR = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    for i, (name, t) in enumerate((("query", query), ("key", key), ("value", value))):
        _tensor("scaled_dot_product_attention", t, name, i + 1)
    _attention_checks(query, key, value, attn_mask, dropout_p, is_causal)
    q, k, v = query._data, key._data, value._data
    heads_match = k.ndim == 4 and (q.shape[1] == k.shape[1] == v.shape[1] or enable_gqa)
    if (q.ndim == k.ndim == v.ndim == 4 and q.shape[-1] == k.shape[-1] == v.shape[-1] and heads_match
            and dropout_p == 0.0):         # (PyTorch's CPU flash kernel: one ScaledDotProductFlashAttentionForCpu node)
        return _flash_attention(query, key, value, attn_mask, is_causal, scale, enable_gqa)
    negative = scale is not None and scale < 0
    base = abs(scale) if negative else scale
    scaling_factor = math.sqrt(base if base is not None else 1.0 / math.sqrt(query.size(-1)))
    query = OPS["mul_scalar"](query, other=0.0 - scaling_factor if negative else scaling_factor)
    if is_causal:
        length, source = query.size(-2), key.size(-2)
        attn_mask = Tensor._make(np.tril(np.ones((length, source), np.bool_)))
    if attn_mask is not None and attn_mask._data.dtype == np.bool_:     # (True: attend; False: -inf)
        attn_mask = Tensor._make(np.where(attn_mask._data, 0.0, -np.inf).astype(query._data.dtype))
    if enable_gqa and key.dim() >= 3:
        heads, key_heads = query.size(-3), key.size(-3)
        if heads % key_heads:
            raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
        key = key.repeat_interleave(heads // key_heads, -3)
        value = value.repeat_interleave(heads // key_heads, -3)
    attn = query.matmul(OPS["mul_scalar"](key.transpose(-2, -1), other=scaling_factor))
    if attn_mask is not None:
        attn = attn.add_(attn_mask)
    attn = OPS["_safe_softmax"](attn, dim=attn.dim() - 1)
    if dropout_p > 0.0:
        attn = _functional.dropout(attn, dropout_p, True)
    return attn.matmul(value)


def _flash_attention(query, key, value, attn_mask, is_causal, scale, enable_gqa):
    length, source = query._data.shape[-2], key._data.shape[-2]
    dtype = query._data.dtype
    mask = None
    if is_causal:
        mask = np.where(np.tril(np.ones((length, source), np.bool_)), 0.0, -np.inf).astype(dtype)
    elif attn_mask is not None:
        mask = attn_mask._data
        mask = np.where(mask, 0.0, -np.inf).astype(dtype) if mask.dtype == np.bool_ else mask
        try:
            np.broadcast_shapes(mask.shape, query._data.shape[:-1] + (source,))
        except ValueError:
            raise RuntimeError(_broadcast_message(mask.shape, query._data.shape[:-1] + (source,))) from None
    if enable_gqa and query._data.shape[1] != key._data.shape[1]:
        heads, key_heads = query._data.shape[1], key._data.shape[1]
        if heads % key_heads:
            raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
        key = key.repeat_interleave(heads // key_heads, -3)
        value = value.repeat_interleave(heads // key_heads, -3)
    if scale is None:
        scale = 1.0 / math.sqrt(query._data.shape[-1])
    return OPS["_scaled_dot_product_flash_attention_for_cpu"](query, key, value, attn_mask=mask, scale=float(scale))


def _broadcast_message(a, b):
    """The first mismatched dim from the right, as PyTorch names it (tensor a: the scores, b: the mask)."""
    a, b = tuple(b), tuple(a)
    for i in range(1, max(len(a), len(b)) + 1):
        x, y = (a[-i] if i <= len(a) else 1), (b[-i] if i <= len(b) else 1)
        if x != y and 1 not in (x, y):
            return (f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton dimension "
                    f"{max(len(a), len(b)) - i}")
    return "shape mismatch"
