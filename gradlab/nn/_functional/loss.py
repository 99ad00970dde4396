"""nn.functional: the losses beyond nn/functional.py's (huber, smooth l1, kl_div, margin losses), the
distances (cosine_similarity, pairwise_distance), one_hot and the less common activations (imported by
gradlab/nn/functional.py)."""
import warnings

import numpy as np

from ... import _dtype
from ...autograd import grad_mode
from ...ops.registry import OPS
from ...tensor import Tensor
from .. import functional as F

__all__ = ["huber_loss", "smooth_l1_loss", "kl_div", "cosine_embedding_loss", "margin_ranking_loss",
           "cosine_similarity", "pairwise_distance", "one_hot", "hardtanh", "hardtanh_", "relu6", "softsign",
           "mish", "hardswish", "hardsigmoid", "logsigmoid", "prelu"]


# --- regression losses ---------------------------------------------------------------------------------
def _regression(name, input, target, reduction):
    """torch's order: the size warning (through .size(): its error for a list), broadcast, the reduction."""
    F._warn_target_size(input, target)
    F._tensor_arg(name, input)
    F._tensor_arg(name, target, "target", 2)
    try:
        shape = np.broadcast_shapes(input._data.shape, target._data.shape)
    except ValueError:
        raise F._broadcast_error(input._data.shape, target._data.shape) from None
    if input._data.shape != shape or target._data.shape != shape:
        input, target = input.expand(shape), target.expand(shape)
    return input, target, F._check_reduction(reduction)


def _float_pair(kernel, input, target):
    kind = np.result_type(input._data, target._data).kind
    if kind not in "fc":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{F._scalar_name(input)}\'')


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 d^2 where |d| < delta, else delta (|d| - delta / 2) (HuberLossBackward0)."""
    input, target, red = _regression("huber_loss", input, target, reduction)
    if delta <= 0:
        raise RuntimeError(f"huber_loss does not support non-positive values for delta.")
    _float_pair("huber_cpu", input, target)
    if weight is not None:
        if weight.size() != input.size():
            raise ValueError("Weights and input must have the same size.")
        loss = OPS["huber_loss"](input, target, reduction="none", delta=float(delta), count=1) * weight
        if reduction == "none":
            return loss
        if reduction == "sum":
            return loss.sum()
        if reduction == "mean":
            return loss.mean()
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")
    return OPS["huber_loss"](input, target, reduction=red, delta=float(delta), count=F._count(red, input))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """0.5 d^2 / beta where |d| < beta, else |d| - beta / 2 (SmoothL1LossBackward0); beta=0 is l1_loss."""
    if size_average is not None or reduce is not None:
        reduction = F._legacy_reduction(size_average, reduce)
    input, target, red = _regression("smooth_l1_loss", input, target, reduction)
    if beta == 0.0:
        return F.l1_loss(input, target, reduction=red)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    _float_pair("smooth_l1_cpu", input, target)
    return OPS["smooth_l1_loss"](input, target, reduction=red, beta=float(beta), count=F._count(red, input))


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """Pointwise KL divergence target * (log target - input), input in log-space; 'batchmean' divides the
    sum by the batch size. Recorded as torch's composite (SubBackward0 / MulBackward0, then the reduction)."""
    if size_average is not None or reduce is not None:
        reduction = F._legacy_reduction(size_average, reduce)
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                          UserWarning, stacklevel=2)
        if reduction != "batchmean":
            reduction = F._check_reduction(reduction)
    F._tensor_arg("kl_div", input)
    F._tensor_arg("kl_div", target, "target", 2)
    if input._data.dtype.kind in "biu" or target._data.dtype.kind in "biu":
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = _xlogy_self(target) - target * input
    if reduction == "mean":
        return loss.mean()
    if reduction in ("sum", "batchmean"):
        loss = loss.sum()
        if reduction == "batchmean" and input.dim() != 0:
            loss = loss / input.size()[0]
        return loss
    return loss


def _xlogy_self(t):
    """xlogy(t, t): 0 where t == 0, t log t elsewhere (nan stays nan)."""
    if t.requires_grad and grad_mode.is_grad_enabled():
        zero = Tensor._make(np.asarray(t._data == 0))
        return (t * t.log()).masked_fill(zero, 0.0)
    a = t._data
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(a == 0, a.dtype.type(0) if a.dtype.kind == "f" else 0.0, a * np.log(a))
    if a.dtype.kind != "f":
        out = out.astype(np.float32)
    return Tensor._make(np.asarray(out).astype(out.dtype, copy=False))


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    """max(0, -y (x1 - x2) + margin), composed from ops as torch composes it."""
    if size_average is not None or reduce is not None:
        reduction = F._legacy_reduction(size_average, reduce)
    else:
        reduction = F._check_reduction(reduction)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    loss = (-target * (input1 - input2) + margin).clamp_min(0)
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """1 - cos(x1, x2) for y = 1, max(0, cos(x1, x2) - margin) for y = -1 (torch's composite)."""
    if size_average is not None or reduce is not None:
        reduction = F._legacy_reduction(size_average, reduce)
    else:
        reduction = F._check_reduction(reduction)
    eps = 1e-12
    dim = input1.dim() - 1
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = (input1 * input1).sum(dim) + eps
    mag_square2 = (input2 * input2).sum(dim) + eps
    denom = (mag_square1 * mag_square2).sqrt()
    cos = prod_sum / denom
    zeros = Tensor._make(np.zeros(cos._data.shape, cos._data.dtype))
    pos = 1 - cos
    neg = (cos - margin).clamp_min(0)
    output_pos = pos.where(target == 1, zeros)
    output_neg = neg.where(target == -1, zeros)
    loss = output_pos + output_neg
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


# --- distances -------------------------------------------------------------------------------------------
def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """sum(x1 / |x1| * x2 / |x2|) along dim, each norm clamped to at least eps (SumBackward1)."""
    F._tensor_arg("cosine_similarity", x1, "x1")
    F._tensor_arg("cosine_similarity", x2, "x2", 2)
    common = np.dtype(_dtype.result_np_dtype(((x1._data.ndim, x1._data.dtype), (x2._data.ndim, x2._data.dtype)), ()))
    if common.kind not in "fc":
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{_dtype_name(common)}")
    if x1._data.dtype != common:
        x1 = x1.to(_torch_dtype(common))
    if x2._data.dtype != common:
        x2 = x2.to(_torch_dtype(common))
    try:
        shape = np.broadcast_shapes(x1._data.shape, x2._data.shape)
    except ValueError:
        raise F._broadcast_error(x1._data.shape, x2._data.shape) from None
    x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = x1.norm(2, dim, keepdim=True)
    n2 = x2.norm(2, dim, keepdim=True)
    with grad_mode.no_grad():       # torch clamps the norms in place, outside the graph
        np.maximum(n1._data, n1._data.dtype.type(eps), out=n1._data)
        np.maximum(n2._data, n2._data.dtype.type(eps), out=n2._data)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def _torch_dtype(np_dtype):
    return _dtype.from_numpy_dtype(np_dtype)


def _dtype_name(np_dtype):
    return F._SCALAR_NAMES.get(np_dtype.name, np_dtype.name)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """The p-norm of x1 - x2 + eps along the last dim (NormBackward1)."""
    F._tensor_arg("pairwise_distance", x1, "x1")
    F._tensor_arg("pairwise_distance", x2, "x2", 2)
    diff = OPS["nn_add_scalar"](x1 - x2, other=eps)
    ndim = max(x1.dim(), x2.dim())
    dim = ndim - 1 if ndim else 0
    if ndim == 0:
        return OPS["norm_p"](diff, p=float(p), dim=None, keepdim=False)
    return OPS["norm_p"](diff, p=float(p), dim=(dim,), keepdim=keepdim)


# --- one_hot ---------------------------------------------------------------------------------------------
def one_hot(tensor, num_classes=-1):
    """A LongTensor with a trailing dim of num_classes (max + 1 when -1), 1 at each index."""
    F._tensor_arg("one_hot", tensor)
    a = tensor._data
    if a.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if not a.size:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(a.max()) + 1
    if a.size:
        if a.min() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if a.max() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    elif num_classes < 0:
        raise RuntimeError("Class values must be smaller than num_classes.")
    out = np.zeros(a.shape + (num_classes,), np.int64)
    np.put_along_axis(out, a[..., None], 1, axis=-1)
    return Tensor._make(out)


# --- activations -----------------------------------------------------------------------------------------
def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """input clamped to [min_val, max_val] (HardtanhBackward0)."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    return _hardtanh("hardtanh_" if inplace else "hardtanh", input, min_val, max_val, inplace)


def _hardtanh(name, input, min_val, max_val, inplace):
    """torch's C hardtanh/hardtanh_: Number limits, truncated to integers for an integer input."""
    F._tensor_arg(name, input)
    F._number_arg(name, min_val, "min_val", 2)
    F._number_arg(name, max_val, "max_val", 3)
    kind = input._data.dtype.kind
    if kind == "b":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if kind in "iu":
        min_val, max_val = int(min_val), int(max_val)
        if kind == "u" and (min_val < 0 or max_val < 0):
            raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    if inplace:
        return input._inplace("hardtanh", min_val=min_val, max_val=max_val)
    return OPS["hardtanh"](input, min_val=min_val, max_val=max_val)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """torch's C function itself: no check that min_val <= max_val."""
    return _hardtanh("hardtanh_", input, min_val, max_val, True)


def relu6(input, inplace=False):
    """hardtanh(input, 0, 6), under its own name in argument errors."""
    return _hardtanh("relu6_" if inplace else "relu6", input, 0.0, 6.0, inplace)


def softsign(input):
    """input / (1 + |input|), composed as torch composes it (DivBackward0)."""
    return input / (input.abs() + 1)


def mish(input, inplace=False):
    """input * tanh(softplus(input)) (MishBackward0)."""
    F._tensor_arg("mish_" if inplace else "mish", input)
    F._float_only("mish_cpu", input)
    return input._inplace("mish") if inplace else OPS["mish"](input)


def hardswish(input, inplace=False):
    """input * relu6(input + 3) / 6 (HardswishBackward0)."""
    F._tensor_arg("hardswish_" if inplace else "hardswish", input)
    F._float_only("hardswish_cpu", input)
    return input._inplace("hardswish") if inplace else OPS["hardswish"](input)


def hardsigmoid(input, inplace=False):
    """relu6(input + 3) / 6 (HardsigmoidBackward0)."""
    F._tensor_arg("hardsigmoid_" if inplace else "hardsigmoid", input)
    F._float_only("hardsigmoid_cpu", input)
    return input._inplace("hardsigmoid") if inplace else OPS["hardsigmoid"](input)


def log_sigmoid(input):
    """log(sigmoid(input)), computed stably (LogSigmoidBackward0). Public as F.logsigmoid; named as torch's
    C function, whose name its argument errors print."""
    F._tensor_arg("log_sigmoid", input)
    F._float_only("log_sigmoid_cpu", input)
    return OPS["log_sigmoid"](input)


logsigmoid = log_sigmoid


def prelu(input, weight):
    """input where positive, else weight * input; weight has 1 or C (= input.size(1)) values (Tensor.prelu)."""
    F._tensor_arg("prelu", input)
    F._tensor_arg("prelu", weight, "weight", 2)
    return input.prelu(weight)
