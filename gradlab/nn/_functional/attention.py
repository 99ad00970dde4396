"""nn.functional: products of several inputs (imported by gradlab/nn/functional.py): bilinear and
scaled_dot_product_attention.

bilinear is PyTorch's composition (Linear.cpp): both inputs flattened to 2-d, one _trilinear node
(TrilinearBackward0), the result reshaped to the inputs' batch shape (ViewBackward0), then the bias added.

scaled_dot_product_attention is PyTorch's math backend (attention.cpp, _scaled_dot_product_attention_math), the
one its CPU build records for inputs that want gradients: query and key each scaled by sqrt(scale), their
product, the mask added in place, a _safe_softmax (SafeSoftmaxBackward0), dropout, then the product with value.

multi_head_attention_forward (nn.MultiheadAttention's computation) is PyTorch's Python, written with the same
ops in the same order."""
import math

import numpy as np

from ... import _dtype
from ...creation import zeros, zeros_like
from ...ops.registry import OPS
from ...tensor import Tensor, cat
from .. import functional as _functional     # (dropout: nn.functional's, imported by the time it is called)
from .conv import _C_NAMES, _tensor
from ... import _warnings

__all__ = ["bilinear", "scaled_dot_product_attention", "multi_head_attention_forward",
           # (torch.nn.functional's private helpers that its modules call: F._canonical_mask, ...)
           "_canonical_mask", "_none_or_dtype", "_mha_shape_check", "_in_projection_packed", "_in_projection"]


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


# --- multi-head attention: PyTorch's Python composition (torch/nn/functional.py), op for op ---------------
# nn.MultiheadAttention and the Transformer layers call multi_head_attention_forward. It is written in
# Python in PyTorch too, so the graph is made of the ops below: the in-projection (linear, then
# unflatten/transpose/contiguous for self-attention), bmm or baddbmm with the mask, softmax, dropout, bmm,
# the out-projection; with need_weights=False, scaled_dot_product_attention instead.

def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the input is batched (3-d query) or not (2-d), with PyTorch's AssertionErrors otherwise."""
    if query.dim() == 3:
        is_batched = True
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError("For batched (3-D) `query`, expected `key` and `value` to be 3-D"
                                 f" but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError("For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D"
                                 f" but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError("For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                                 f" but found {attn_mask.dim()}-D tensor instead")
    elif query.dim() == 2:
        is_batched = False
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError("For unbatched (2-D) `query`, expected `key` and `value` to be 2-D"
                                 f" but found {key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError("For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D"
                                 f" but found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError("For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                                     f" but found {attn_mask.dim()}-D tensor instead")
            if attn_mask.dim() == 3:
                expected_shape = (num_heads, query.shape[0], key.shape[0])
                if attn_mask.shape != expected_shape:
                    raise AssertionError(f"Expected `attn_mask` shape to be {expected_shape} but got {attn_mask.shape}")
    else:
        raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query "
                             "tensor")
    return is_batched


def _canonical_mask(mask, mask_name, other_type, other_name, target_type, check_other=True):
    """A bool mask as a float one (True: -inf, False: 0); a float mask as it is."""
    if mask is not None:
        _mask_dtype = mask.dtype
        _mask_is_float = mask.is_floating_point()
        if _mask_dtype != _dtype.bool_ and not _mask_is_float:
            raise AssertionError(f"only bool and floating types of {mask_name} are supported")
        if check_other and other_type is not None and _mask_dtype != other_type:
            _warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for "
                           "both instead.", UserWarning)
        if not _mask_is_float:
            mask = zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _none_or_dtype(input):
    if input is None:
        return None
    elif isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _check_key_padding_mask(key_padding_mask, src_len, bsz):
    if key_padding_mask.shape[0] != bsz:
        raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}")
    if key_padding_mask.shape[1] != src_len:
        raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                             f"{key_padding_mask.shape[1]}")


def _in_projection_packed(q, k, v, w, b=None):
    """q, k, v projected by one packed (3E, E) weight: one linear for self-attention (query is key is
    value), two for encoder-decoder attention (key is value), three otherwise."""
    linear = _functional.linear
    E = q.size(-1)
    if k is v:
        if q is k:
            # (3, E) and not (E, 3): each of q, k, v contiguous, in chunk()'s order
            proj = linear(q, w, b)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        if b is None:
            b_q = b_kv = None
        else:
            b_q, b_kv = b.split([E, E * 2])
        q_proj = linear(q, w_q, b_q)
        kv_proj = linear(k, w_kv, b_kv)
        kv_proj = kv_proj.unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return q_proj, kv_proj[0], kv_proj[1]
    w_q, w_k, w_v = w.chunk(3)
    if b is None:
        b_q = b_k = b_v = None
    else:
        b_q, b_k, b_v = b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None):
    """q, k, v projected by their own weights (kdim/vdim differ from embed_dim)."""
    Eq, Ek, Ev = q.size(-1), k.size(-1), v.size(-1)
    for what, w, shape in (("query", w_q, (Eq, Eq)), ("key", w_k, (Eq, Ek)), ("value", w_v, (Eq, Ev))):
        if w.shape != shape:
            raise AssertionError(f"expecting {what} weights shape of {shape}, but got {w.shape}")
    for what, b in (("query", b_q), ("key", b_k), ("value", b_v)):
        if b is not None and b.shape != (Eq,):
            raise AssertionError(f"expecting {what} bias shape of {(Eq,)}, but got {b.shape}")
    linear = _functional.linear
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    # an unbatched input runs as a batch of one (dim 1), squeezed again at the end
    if not is_batched:
        query = query.unsqueeze(1)
        key = key.unsqueeze(1)
        value = value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)

    tgt_len, bsz, embed_dim = query.shape
    src_len, _, _ = key.shape
    key_padding_mask = _canonical_mask(mask=key_padding_mask, mask_name="key_padding_mask",
                                       other_type=_none_or_dtype(attn_mask), other_name="attn_mask",
                                       target_type=query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        # no mask to merge and no weights to return: scaled_dot_product_attention's is_causal does it
        attn_mask = None
    else:
        attn_mask = _canonical_mask(mask=attn_mask, mask_name="attn_mask", other_type=None, other_name="",
                                    target_type=query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False       # (the merged mask is no longer causal)

    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")

    # the in-projection
    if not use_separate_proj_weight:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        if in_proj_bias is None:
            b_q = b_k = b_v = None
        else:
            b_q, b_k, b_v = in_proj_bias.chunk(3)
        q, k, v = _in_projection(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)

    # the attention mask as 3-d
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            correct_2d_size = (tgt_len, src_len)
            if attn_mask.shape != correct_2d_size:
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{correct_2d_size}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            correct_3d_size = (bsz * num_heads, tgt_len, src_len)
            if attn_mask.shape != correct_3d_size:
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{correct_3d_size}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    # bias_k and bias_v: one more key and value, for every batch
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = cat([k, bias_k.repeat(1, bsz, 1)])
        v = cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = _functional.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = _functional.pad(key_padding_mask, (0, 1))
    else:
        if bias_k is not None:
            raise AssertionError("bias_k is set but bias_v is None")
        if bias_v is not None:
            raise AssertionError("bias_v is set but bias_k is None")

    # the heads as batches, batch first
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        if static_k.size(0) != bsz * num_heads:
            raise AssertionError(f"expecting static_k.size(0) of {bsz * num_heads}, but got {static_k.size(0)}")
        if static_k.size(2) != head_dim:
            raise AssertionError(f"expecting static_k.size(2) of {head_dim}, but got {static_k.size(2)}")
        k = static_k
    if static_v is None:
        v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        if static_v.size(0) != bsz * num_heads:
            raise AssertionError(f"expecting static_v.size(0) of {bsz * num_heads}, but got {static_v.size(0)}")
        if static_v.size(2) != head_dim:
            raise AssertionError(f"expecting static_v.size(2) of {head_dim}, but got {static_v.size(2)}")
        v = static_v

    # add_zero_attn: one more key and value of zeros
    if add_zero_attn:
        zero_attn_shape = (bsz * num_heads, 1, head_dim)
        k = cat([k, zeros(zero_attn_shape, dtype=k.dtype, device=k.device)], dim=1)
        v = cat([v, zeros(zero_attn_shape, dtype=v.dtype, device=v.device)], dim=1)
        if attn_mask is not None:
            attn_mask = _functional.pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = _functional.pad(key_padding_mask, (0, 1))

    src_len = k.size(1)

    # the key padding mask merged into the attention mask
    if key_padding_mask is not None:
        _check_key_padding_mask(key_padding_mask, src_len, bsz)
        key_padding_mask = (key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1)
                            .reshape(bsz * num_heads, 1, src_len))
        if attn_mask is None:
            attn_mask = key_padding_mask
        else:
            attn_mask = attn_mask + key_padding_mask

    if not training:
        dropout_p = 0.0

    if need_weights:
        _B, _Nt, E = q.shape
        q_scaled = q * math.sqrt(1.0 / float(E))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        if attn_mask is not None:
            attn_output_weights = attn_mask.baddbmm(q_scaled, k.transpose(-2, -1))
        else:
            attn_output_weights = q_scaled.bmm(k.transpose(-2, -1))
        attn_output_weights = _functional.softmax(attn_output_weights, dim=-1)
        if dropout_p > 0.0:
            attn_output_weights = _functional.dropout(attn_output_weights, p=dropout_p)
        attn_output = attn_output_weights.bmm(v)
        attn_output = attn_output.transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
        attn_output = _functional.linear(attn_output, out_proj_weight, out_proj_bias)
        attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
        # the weights averaged over the heads, or per head
        attn_output_weights = attn_output_weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            attn_output_weights = attn_output_weights.mean(dim=1)
        if not is_batched:
            attn_output = attn_output.squeeze(1)
            attn_output_weights = attn_output_weights.squeeze(0)
        return attn_output, attn_output_weights
    # attn_mask is (1, L, S) or (N * num_heads, L, S): as 4-d for scaled_dot_product_attention
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    attn_output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    attn_output = attn_output.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim)
    attn_output = _functional.linear(attn_output, out_proj_weight, out_proj_bias)
    attn_output = attn_output.view(tgt_len, bsz, attn_output.size(1))
    if not is_batched:
        attn_output = attn_output.squeeze(1)
    return attn_output, None
