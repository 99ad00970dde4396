"""gradlab.nn.functional: the functions behind the layers and losses, in torch's names.

Each function checks its input the way PyTorch does (same exception type and message), then
runs ops from the op table, so the graph shows PyTorch's node names: `linear` gives
AddmmBackward0, `cross_entropy` gives NllLossBackward0 -> LogSoftmaxBackward0, and so on.
"""
import math
import warnings

import numpy as np

from ..ops.linalg import mat2_transposed
from ..ops.registry import OPS
from ..tensor import Tensor, _as_tensor, _wrap_dim, broadcast_error, matmul

_SCALAR_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
                 "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
                 "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _scalar_name(t):
    """PyTorch's C++ name of a dtype, as error messages print it ('Float', 'Long')."""
    return _SCALAR_NAMES.get(t._data.dtype.name, t._data.dtype.name)


def _check_reduction(reduction):
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")


def _count(reduction, t):
    """What the op divides by: the number of elements for 'mean', 1 otherwise."""
    return max(t._data.size, 1) if reduction == "mean" else 1


# --- layers -----------------------------------------------------------------------------------------
def linear(input, weight, bias=None):
    """input @ weight.T + bias, recorded as torch records it.

    2-d input: one AddmmBackward0 (torch calls addmm(bias, input, weight.t())).
    1-d or >=3-d input: the input is viewed as a matrix, addmm, viewed back (ViewBackward0).
    Without bias it is plain matmul(input, weight.t()) (MmBackward0 for 2-d input).
    """
    out_features, in_features = weight._data.shape
    rows = math.prod(input._data.shape[:-1]) if input._data.ndim else 1
    cols = input._data.shape[-1] if input._data.ndim else 1
    if cols != in_features:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{cols} and "
                           f"{in_features}x{out_features})")
    if input._data.dtype != weight._data.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_scalar_name(input)} and "
                           f"{_scalar_name(weight)}")
    if bias is None:
        return matmul(input, weight.t())
    wt = weight.t()
    transposed = mat2_transposed(wt)       # lets backward lay the weight's gradient out like the weight
    if input._data.ndim == 2:
        return OPS["addmm"](bias, input, wt, mat2_transposed=transposed)
    out = OPS["addmm"](bias, input.reshape(rows, cols), wt, mat2_transposed=transposed)
    return out.view(input._data.shape[:-1] + (out_features,))


def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def leaky_relu(input, negative_slope=0.01, inplace=False):
    return OPS["leaky_relu"](input, negative_slope=negative_slope)


def gelu(input, approximate="none"):
    if approximate != "none":
        raise NotImplementedError("gradlab implements only gelu(approximate='none')")
    return OPS["gelu"](input)


def softplus(input, beta=1.0, threshold=20.0):
    return OPS["softplus"](input, beta=beta, threshold=threshold)


def silu(input, inplace=False):
    return OPS["silu"](input)


def elu(input, alpha=1.0, inplace=False):
    return OPS["elu"](input, alpha=alpha)


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


def _softmax_dim(ndim):
    warnings.warn("Implicit dimension choice for softmax has been deprecated. Change the call to include "
                  "dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, dtype=None):
    if dim is None:
        dim = _softmax_dim(input._data.ndim)
    return input.softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, dtype=None):
    if dim is None:
        dim = _softmax_dim(input._data.ndim)
    return input.log_softmax(dim, dtype=dtype)


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1/(1-p) (MulBackward0).

    The mask is drawn from gradlab's generator; it is not torch's bernoulli stream."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    from .. import random as _random
    if p == 1.0:
        mask = np.zeros_like(input._data)
    else:
        keep = _random.default_generator.uniform(input._data.shape, input._data.dtype) < (1.0 - p)
        mask = keep.astype(input._data.dtype) / input._data.dtype.type(1.0 - p)
    out = OPS["dropout_mask"](input, Tensor._make(mask))
    if inplace:
        from ..ops.indexing import assign_data
        return assign_data(input, out._data)
    return out


def flatten(input, start_dim=0, end_dim=-1):
    return input.flatten(start_dim, end_dim)


# --- losses -----------------------------------------------------------------------------------------
def _nll_checks(input, target):
    """PyTorch's checks, in its order (nll_loss_nd, then the kernel)."""
    nd = input._data.ndim
    if nd < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {nd})")
    if nd != 1 and target._data.ndim >= 1 and input._data.shape[0] != target._data.shape[0]:
        raise ValueError(f"Expected input batch_size ({input._data.shape[0]}) to match target batch_size "
                         f"({target._data.shape[0]}).")
    if nd > 2:
        raise NotImplementedError("gradlab's nll_loss supports 1-d and 2-d inputs only")
    if target._data.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target._data.dtype not in (np.int64, np.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_scalar_name(target)}")


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """Negative log-likelihood of class indices (NllLossBackward0)."""
    _check_reduction(reduction)
    target = _as_tensor(target)
    _nll_checks(input, target)
    classes = input._data.shape[-1]
    t = target._data.astype(np.int64, copy=False)
    # (ufunc reductions: np.min/np.any/np.sum add microseconds of Python around the same C loops)
    if t.size and (np.minimum.reduce(t, axis=None) < 0 or np.maximum.reduce(t, axis=None) >= classes):
        bad = (t != ignore_index) & ((t < 0) | (t >= classes))
        if np.logical_or.reduce(bad, axis=None):
            raise IndexError(f"Target {int(t[bad].reshape(-1)[0])} is out of bounds.")
    w = None
    if weight is not None:
        w = weight._data if isinstance(weight, Tensor) else np.asarray(weight)
        if w.shape != (classes,):
            raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no classes "
                               f"but got weight tensor of shape: [{', '.join(map(str, w.shape))}]")
        w = w.astype(input._data.dtype)
    valid = t != ignore_index
    if w is None:
        total = np.count_nonzero(valid)
    else:
        total = np.add.reduce(w[np.where(valid, t, 0)] * valid, axis=None)
    total_weight = input._data.dtype.type(total)
    return OPS["nll_loss"](input, target=t, weights=w, reduction=reduction, ignore_index=ignore_index,
                           total_weight=total_weight, self_sizes=input._data.shape)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """log_softmax then nll_loss for class indices; -(target * log_softmax).sum for class probabilities."""
    _check_reduction(reduction)
    target = _as_tensor(target)
    class_dim = 0 if input._data.ndim == 1 else 1
    if input._data.shape == target._data.shape:     # class probabilities
        if target._data.dtype.kind != "f":
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{_scalar_name(target)}")
        if weight is not None or label_smoothing:
            raise NotImplementedError("gradlab: weight and label_smoothing with class-probability targets")
        logp = input.log_softmax(class_dim)
        if reduction == "mean":
            return _div_by_number(-(logp * target).sum(), other=input._data.size // input._data.shape[class_dim])
        if reduction == "sum":
            return -(logp * target).sum()
        return -(logp * target).sum(class_dim)
    logp = input.log_softmax(class_dim)
    loss = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if not label_smoothing:
        return loss
    # torch's label smoothing: mix the nll loss with the mean -log p over all classes
    if weight is not None:
        raise NotImplementedError("gradlab: weight together with label_smoothing")
    ignore = Tensor._make(np.asarray(target._data == ignore_index))
    smooth = -logp.sum(class_dim)
    smooth.masked_fill_(ignore, 0.0)
    if reduction == "mean":
        smooth = smooth.sum() / int((~ignore._data).sum())
    elif reduction == "sum":
        smooth = smooth.sum()
    classes = input._data.shape[class_dim]
    return (1 - label_smoothing) * loss + smooth * (label_smoothing / classes)


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or sum) of squared differences (MseLossBackward0)."""
    _check_reduction(reduction)
    target = _as_tensor(target)
    if target._data.shape != input._data.shape:
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have "
                      "the same size.", UserWarning, stacklevel=2)
        try:
            shape = np.broadcast_shapes(input._data.shape, target._data.shape)
        except ValueError:
            raise broadcast_error(input._data.shape, target._data.shape) from None
        count = int(np.prod(shape)) if reduction == "mean" else 1
    else:
        count = _count(reduction, input)
    return OPS["mse_loss"](input, target, reduction=reduction, count=count)


def _weight_array(weight, input):
    if weight is None:
        return None
    w = weight._data if isinstance(weight, Tensor) else np.asarray(weight)
    return np.broadcast_to(w, input._data.shape).astype(input._data.dtype)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(y log x + (1 - y) log(1 - x)) for probabilities x (BinaryCrossEntropyBackward0)."""
    _check_reduction(reduction)
    target = _as_tensor(target)
    if target._data.shape != input._data.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    if target._data.dtype != input._data.dtype:
        raise RuntimeError(f"Found dtype {_scalar_name(target)} but expected {_scalar_name(input)}")
    x, y = input._data, target._data
    if np.any((x < 0) | (x > 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    if np.any((y < 0) | (y > 1)):
        raise RuntimeError("all elements of target should be between 0 and 1")
    return OPS["binary_cross_entropy"](input, target, weight=_weight_array(weight, input), reduction=reduction,
                                       count=_count(reduction, input))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """binary_cross_entropy(sigmoid(x), y), computed stably (BinaryCrossEntropyWithLogitsBackward0)."""
    _check_reduction(reduction)
    target = _as_tensor(target)
    if target._data.shape != input._data.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    if target._data.dtype.kind != "f" and input._data.dtype.kind == "f":
        raise RuntimeError(f"result type {_scalar_name(input)} can't be cast to the desired output type "
                           f"{_scalar_name(target)}")
    w = _weight_array(weight, input)
    count = _count(reduction, input)
    if pos_weight is None:
        return OPS["binary_cross_entropy_with_logits"](input, target, weight=w, reduction=reduction, count=count)
    pw = pos_weight._data if isinstance(pos_weight, Tensor) else np.asarray(pos_weight)
    pw = np.broadcast_to(pw, input._data.shape).astype(input._data.dtype)
    return binary_cross_entropy_with_logits_pos_weight(input, target, weight=w, pos_weight=pw,
                                                       reduction=reduction, count=count)


# --- an op the core table lacks: BCE with logits and pos_weight (same node name as torch) --------------
from ..ops import dual  # noqa: E402
from ..ops.registry import op  # noqa: E402  (registers into the same op table)


def _bce_pos_grad(g, n):
    # d/dx = (1 - y) - (1 + (pw - 1) y) * sigmoid(-x)
    log_weight = n.target * dual.like(g, n.pos_weight - 1) + 1
    grad = g * ((1 - n.target) - log_weight * dual.sigmoid(-n.self)) / n.count
    return grad if n.weight is None else grad * dual.like(g, n.weight)


@op("binary_cross_entropy_with_logits_pos_weight", "BinaryCrossEntropyWithLogitsBackward0", ("self", "target"),
    saves=("self", "target"), self=_bce_pos_grad)
def binary_cross_entropy_with_logits_pos_weight(self, target, weight, pos_weight, reduction, count):
    log_weight = (pos_weight - 1) * target + 1
    loss = (1 - target) * self + log_weight * (np.log1p(np.exp(-np.abs(self))) + np.maximum(-self, 0))
    if weight is not None:
        loss = loss * weight
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


# torch divides by the batch size in C++ (`tensor / number`), which records DivBackward1
@op("nn_div_by_number", "DivBackward1", ("self",),
    self=lambda g, n: g / n.other)
def _div_by_number(self, other):
    return self / other


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    _check_reduction(reduction)
    d = (input - target).abs()
    return d.mean() if reduction == "mean" else d.sum() if reduction == "sum" else d
