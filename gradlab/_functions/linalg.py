"""gradlab.<fn> functions: linalg (see gradlab/_functions/__init__.py): the function forms of the
linalg methods, and einsum, tensordot and cdist, composed of existing ops as PyTorch composes them
(so their grad_fn chains are PyTorch's: einsum's PermuteBackward0/ViewBackward0/SumBackward1, ...)."""
import math

import numpy as np

from .. import _signatures
from .._argparse.wrappers import _vetter
from .._tensor_core import Tensor, _wrap_dim
from ..ops import OPS
from ..ops.operands import _check_tensor_argument, _kind, broadcast_error
from ._common import method_forms

__all__ = ["einsum", "tensordot", "cdist"]

# (tril, triu, diagonal, diag_embed, det, inverse, slogdet, cross, addmm, addmv, addbmm, baddbmm are made
# from the op table: _functions/variants.py)
_METHODS = ("diag", "logdet", "kron", "matrix_power", "geqrf", "orgqr", "ormqr")
globals().update(method_forms(*_METHODS))
__all__ += list(_METHODS)


# ------------------------------------------------------------------------------------------ einsum

_ELLIPSIS = 52


def _subscript(label):
    """A label as PyTorch numbers it: A-Z are 0-25, a-z 26-51 (so the implicit output lists capitals first)."""
    return ord(label) - ord("A") if label.isupper() else ord(label) - ord("a") + 26


def _label(s):
    return chr(ord("A") + s) if s < 26 else chr(ord("a") + s - 26)


_vet_einsum = _vetter(_signatures.CALLED["einsum"])


def einsum(*args):
    """PyTorch's einsum (aten's einsum, contracting left to right): every operand is aligned by
    diagonal/unsqueeze/permute, pairs are multiplied by sumproduct_pair (a bmm), and what remains
    summed or viewed, so the grad_fn a student sees is PyTorch's."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    if isinstance(args[0], Tensor):        # sublist format: einsum(a, [0, 1], b, [1, 2], [0, 2])
        def parse(n):
            if n is Ellipsis:
                return "..."
            if 0 <= n < 52:
                return _label(n)
            raise ValueError("einsum(): subscript in subscript list is not within the valid range [0, 52)")
        equation = ",".join("".join(parse(s) for s in sub) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(parse(s) for s in args[-1])
            operands = args[:-1:2]
        else:
            operands = args[::2]
    else:
        equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        return einsum(equation, *operands[0])
    _vet_einsum((equation, operands), {})      # (torch/functional.py's _VF.einsum(equation, operands) parses them)
    return _einsum(equation, list(operands))


def _einsum(equation, operands):
    num_ops = len(operands)
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    op_labels = [[] for _ in range(num_ops)]
    curr, ell_seen, i = 0, False, 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if ell_seen:
                raise RuntimeError(f"einsum(): found '.' for operand {curr} for which an ellipsis was already found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError(f"einsum(): found '.' for operand {curr} that is not part of any ellipsis")
            i += 2
            op_labels[curr].append(_ELLIPSIS)
            ell_seen = True
        elif c == ",":
            curr += 1
            if curr >= num_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            ell_seen = False
        else:
            if not (c.isascii() and c.isalpha()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation string, "
                                   "subscripts must be in [a-zA-Z]")
            op_labels[curr].append(_subscript(c))
        i += 1
    if curr != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")

    label_count = [0] * 52
    ell_num_dim = 0
    for i, (t, labels) in enumerate(zip(operands, op_labels)):
        ndims = t._data.ndim
        nlabels = len(labels)
        has_ellipsis = _ELLIPSIS in labels
        for s in labels:
            if s == _ELLIPSIS:
                nlabels -= 1
        if has_ellipsis:
            ell_num_dim = max(ell_num_dim, ndims - nlabels)
        for s in labels:
            if s != _ELLIPSIS:
                label_count[s] += 1
        if (nlabels > ndims) if has_ellipsis else (nlabels != ndims):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({nlabels}) "
                + ("is more than the number of dimensions (" if has_ellipsis else "does not match the number of "
                   "dimensions (") + f"{ndims}) for operand {i}" + ("" if has_ellipsis else " and no ellipsis was given"))

    perm_of = [-1] * 52
    perm_index = ell_index = 0
    ell_in_output = False
    if arrow < 0:
        perm_index, ell_in_output = ell_num_dim, True
        for s in range(52):
            if label_count[s] == 1:
                perm_of[s] = perm_index
                perm_index += 1
    else:
        rhs = equation[arrow + 2:]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)")
                i += 2
                ell_index, ell_in_output = perm_index, True
                perm_index += ell_num_dim
            else:
                if not (c.isascii() and c.isalpha()):
                    raise RuntimeError(f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} in the "
                                       "equation string, subscripts must be in [a-zA-Z]")
                s = _subscript(c)
                if not (label_count[s] > 0 and perm_of[s] == -1):
                    raise RuntimeError(f"einsum(): output subscript {c}" + (
                        " appears more than once in the output" if perm_of[s] > -1 else
                        " does not appear in the equation for any input operand"))
                perm_of[s] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index = perm_index
        perm_index += ell_num_dim
    for s in range(52):
        if label_count[s] > 0 and perm_of[s] == -1:
            perm_of[s] = perm_index
            perm_index += 1

    # align every operand to (output dims, contraction dims)
    label_size = [1] * 52
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops = []
    for i, t in enumerate(operands):
        permutation = [-1] * perm_index
        dim = 0
        for s in op_labels[i]:
            if s == _ELLIPSIS:
                ndim = t._data.ndim - (len(op_labels[i]) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    size = t._data.shape[dim]
                    if size != 1:
                        if ell_sizes[j] not in (1, size):
                            raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand {i}has size "
                                               f"{size} which does not broadcast with previously seen ellipsis with "
                                               f"size {ell_sizes[j]} for the respective dimension")
                        ell_sizes[j] = size
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[perm_of[s]] == -1:
                size = t._data.shape[dim]
                if size != 1:
                    if label_size[s] not in (1, size):
                        raise RuntimeError(f"einsum(): subscript {_label(s)} has size {size} for operand {i} which "
                                           f"does not broadcast with previously seen size {label_size[s]}")
                    label_size[s] = size
                    dim_counts[perm_of[s]] += 1
                permutation[perm_of[s]] = dim
                dim += 1
            else:                                   # a repeated label: its diagonal
                prev = permutation[perm_of[s]]
                if t._data.shape[dim] != t._data.shape[prev]:
                    raise RuntimeError(f"einsum(): subscript {_label(s)} is repeated for operand {i} but the sizes "
                                       f"don't match, {t._data.shape[dim]} != {t._data.shape[prev]}")
                t = t.diagonal(0, prev, dim).movedim(-1, prev)
        for k, val in enumerate(permutation):
            if val == -1:
                t = t.unsqueeze(dim)
                permutation[k] = dim
                dim += 1
        ops.append(t.permute(permutation))

    if len({t._data.dtype for t in ops}) > 1 and len(ops) > 1:
        first = ops[0]
        other = next(t for t in ops if t._data.dtype != first._data.dtype)
        raise RuntimeError(f"expected scalar type {_kind(first)} but found {_kind(other)}")

    while len(ops) > 1:
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(out_num_dim, perm_index):
            sa, sb = a._data.shape[d] != 1, b._data.shape[d] != 1
            if sa and sb:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if sa:
                    a_sum.append(d)
                    dim_counts[d] = 0
                elif sb:
                    b_sum.append(d)
                    dim_counts[d] = 0
        if a_sum:
            a = a.sum(a_sum, True)
        if b_sum:
            b = b.sum(b_sum, True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))

    result = ops[0]
    if perm_index - out_num_dim > 0:
        if num_ops > 1:
            return result.view(result._data.shape[:out_num_dim])
        return result.sum(list(range(out_num_dim, perm_index)))
    return result


def _sumproduct_pair(left, right, sum_dims):
    """(left * right).sum(sum_dims, keepdim=True) by a permutation and one bmm (aten's sumproduct_pair)."""
    if not sum_dims:
        return left * right
    ndim = left._data.ndim
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(ndim):
        sl, sr = left._data.shape[i] != 1, right._data.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                if left._data.shape[i] != right._data.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left._data.shape[i]
            elif sl:
                left = left.sum(i, True)
            elif sr:
                right = right.sum(i, True)
        elif sl and sr:
            lro.append(i)
            lro_size *= left._data.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left._data.shape[i]
        else:
            ro.append(i)
            ro_size *= right._data.shape[i]
    out_size = ([left._data.shape[d] for d in lro] + [left._data.shape[d] for d in lo] + [1] * len(sum_dims)
                + [right._data.shape[d] for d in ro])
    lperm = lro + lo + sum_dims + ro
    rperm = lro + sum_dims + ro + lo
    operm = [-1] * len(out_size)
    for i, d in enumerate(lro + lo + sum_dims + ro):
        operm[d] = i
    left = left.permute(lperm).reshape(lro_size, lo_size, sum_size)
    right = right.permute(rperm).reshape(lro_size, sum_size, ro_size)
    return left.bmm(right).view(out_size).permute(operm)


# ------------------------------------------------------------------------------------------ tensordot

def tensordot(a, b, dims=2, out=None):
    """PyTorch's tensordot: both inputs permuted and reshaped to matrices, one mm (a dot when nothing
    is left uncontracted), the result reshaped."""
    if isinstance(dims, int) and not isinstance(dims, bool):       # (PyTorch's Python reads a.dim(), b.dim())
        for x in (a, b):
            if not isinstance(x, Tensor):
                raise AttributeError(f"'{type(x).__name__}' object has no attribute 'dim'")
    _check_tensor_argument("tensordot", a, "input")
    _check_tensor_argument("tensordot", b, "other", position=2)
    if isinstance(dims, Tensor):
        dims = dims.tolist() if dims.numel() > 1 else int(dims.item())
        if isinstance(dims, int) and dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
    if not isinstance(dims, (tuple, list, int)) or isinstance(dims, bool):
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
                           f"containing two lists, but got dims={dims}")
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a._data.ndim, b._data.ndim):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    else:
        dims_a, dims_b = dims
        dims_a = [dims_a] if isinstance(dims_a, int) else list(dims_a)
        dims_b = [dims_b] if isinstance(dims_b, int) else list(dims_b)
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    given = list(zip(dims_a, dims_b))              # (as written: PyTorch's message names them so)
    dims_a = [_wrap_dim(d, a._data.ndim) for d in dims_a]
    dims_b = [_wrap_dim(d, b._data.ndim) for d in dims_b]
    csize = 1
    t1, t2 = a, b
    for da, db, (ga, gb) in zip(dims_a, dims_b, given):
        s1, s2 = a._data.shape[da], b._data.shape[db]
        if s2 == 1:                     # (in the input's dtype: a bool or int8 sum stays bool or int8)
            t1 = t1.sum(da, True, dtype=t1.dtype)
        elif s1 == 1:
            t2 = t2.sum(db, True, dtype=t2.dtype)
        else:
            if s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {ga} and "
                                   f"second has size {s2} in dim {gb}")
            csize *= s1
    free_a = [i for i in range(a._data.ndim) if i not in dims_a]
    free_b = [i for i in range(b._data.ndim) if i not in dims_b]
    size1 = math.prod(t1._data.shape[i] for i in free_a)
    size2 = math.prod(t2._data.shape[i] for i in free_b)
    rsizes = [t1._data.shape[i] for i in free_a] + [t2._data.shape[i] for i in free_b]
    t1 = t1.permute(free_a + dims_a)
    t2 = t2.permute(dims_b + free_b)
    if not free_a and not free_b:
        result = t1.reshape(csize).dot(t2.reshape(csize))
    elif size1 == size2 == 1 and a._data.dtype == np.bool_:     # (PyTorch's one-by-one product is a dot)
        raise NotImplementedError('"dot" not implemented for \'Bool\'')
    else:
        result = t1.reshape(size1, csize).mm(t2.reshape(csize, size2))
    result = result.reshape(rsizes)
    if out is not None:
        out.copy_(result)
        return out
    return result


# ------------------------------------------------------------------------------------------ cdist

_vet_cdist = _vetter(("cdist(Tensor x1, Tensor x2, double p=2, int64_t? compute_mode=None)",))


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Distances between the rows of x1 and x2 (batched). For p = 2 with more than 25 rows PyTorch
    computes through one matmul (|a|^2 - 2 a.b + |b|^2, clamped at 0): so does gradlab."""
    _check_tensor_argument("cdist", x1, "x1")
    _check_tensor_argument("cdist", x2, "x2", position=2)
    modes = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": 1,
             "donot_use_mm_for_euclid_dist": 2}
    if compute_mode not in modes:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    _vet_cdist((x1, x2, p, modes[compute_mode]), {})     # (torch/functional.py's _VF.cdist parses them: p='a')
    for name, t in (("X1", x1), ("X2", x2)):
        if t._data.ndim < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {t._data.ndim}D")
    c1, c2 = x1._data.shape[-1], x2._data.shape[-1]
    if c1 != c2:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {c1} X2: {c2}")
    for name, t in (("X1", x1), ("X2", x2)):
        if t._data.dtype.kind != "f":
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {_kind(t)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    try:
        batch = np.broadcast_shapes(x1._data.shape[:-2], x2._data.shape[:-2])
    except ValueError:
        raise broadcast_error(x1._data.shape[:-2], x2._data.shape[:-2]) from None
    if x1._data.dtype == np.float16 or x2._data.dtype == np.float16:     # (the kernel has no Half)
        raise NotImplementedError(f"\"cdist\" not implemented for 'Half'")
    if x1._data.dtype != x2._data.dtype:
        raise RuntimeError(f"expected scalar type {_kind(x1)} but found {_kind(x2)}")
    r1, r2 = x1._data.shape[-2], x2._data.shape[-2]
    mode = modes[compute_mode]
    if p == 2 and (mode == 1 or (mode is None and (r1 > 25 or r2 > 25))) and r1 and r2 and c1:
        if x1._data.ndim == 2 and x2._data.ndim == 2:
            return OPS["euclidean_dist"](x1, x2).view(r1, r2)
        e1 = x1.expand(*batch, r1, c1).reshape(-1, r1, c1)
        e2 = x2.expand(*batch, r2, c2).reshape(-1, r2, c2)
        return OPS["euclidean_dist"](e1, e2).view(*batch, r1, r2)
    return OPS["cdist"](x1, x2, p=float(p))


# ------------------------------------------------------------------------------------------ products (binary.py)

# (vdot and addr are made from the op table's variants)
__all__ += ["inner", "ger", "diagflat", "addmv_"]
globals().update(method_forms("inner", "ger", "diagflat", "addmv_"))
