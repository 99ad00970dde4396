"""nn.functional: the losses beyond nn/functional.py's (huber, smooth l1, kl_div, margin losses), the
distances (cosine_similarity, pairwise_distance), one_hot and the less common activations (imported by
gradlab/nn/functional.py)."""
import math

import numpy as np

from ... import _argparse, _dtype, _signatures
from ..._argparse.wrappers import _vetter
from ...autograd import grad_mode
from ...ops import ctc as _ctc
from ...ops.registry import OPS
from ...tensor import Tensor, where
from .. import functional as F
from ... import _warnings

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
    # (torch.broadcast_tensors: a tensor already of that shape comes back itself, not as an expand)
    if input._data.shape != shape:
        input = input.expand(shape)
    if target._data.shape != shape:
        target = target.expand(shape)
    return input, target, F._check_reduction(reduction)


def _float_pair(kernel, input, target, cast_first=False):
    common = np.result_type(input._data, target._data)
    if common.kind not in "fc":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{F._scalar_name(input)}\'')
    if common.kind == "c":
        name = F._SCALAR_NAMES[_dtype.promote_types(input.dtype, target.dtype).np.name]   # (Long with ComplexFloat: ComplexFloat)
        # PyTorch's kernels are real-only; a structured one (huber) first refuses to cast a complex result into
        # a real input's dtype
        if cast_first and input._data.dtype.kind != "c":
            raise RuntimeError(f"result type {name} can't be cast to the desired output type {F._scalar_name(input)}")
        raise NotImplementedError(f'"{kernel}" not implemented for \'{name}\'')


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """0.5 d^2 where |d| < delta, else delta (|d| - delta / 2) (HuberLossBackward0)."""
    input, target, red = _regression("huber_loss", input, target, reduction)
    if delta <= 0:
        raise RuntimeError(f"huber_loss does not support non-positive values for delta.")
    _float_pair("huber_cpu", input, target, cast_first=True)
    mismatch = None
    if input._data.dtype != target._data.dtype:
        # PyTorch's loss is a tensor like the input: the common dtype must cast to it, and the backward kernel
        # then refuses the pair ("Found dtype Double but expected Float")
        common = _dtype.promote_types(input.dtype, target.dtype).np
        if common.kind == "f" and input._data.dtype.kind != "f":
            raise RuntimeError(f"result type {F._SCALAR_NAMES.get(common.name)} can't be cast to the desired output "
                               f"type {F._scalar_name(input)}")
        mismatch = f"Found dtype {F._scalar_name(target)} but expected {F._scalar_name(input)}"
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
    out = OPS["huber_loss"](input, target, reduction=red, delta=float(delta), count=F._count(red, input),
                            dtype_mismatch=mismatch, loss_dtype=None if mismatch is None else input._data.dtype.name)
    if out._data.dtype != input._data.dtype:        # (computed in the common dtype, kept in the input's)
        out._data = out._data.astype(input._data.dtype)
    return out


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
            _warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                           "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                           "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                           UserWarning)
        if reduction != "batchmean":
            reduction = F._check_reduction(reduction)
    F._parsed("kl_div", (input, target, _INTS["sum" if reduction == "batchmean" else reduction]),
              {"log_target": log_target})
    return _kl_div(input, target, reduction, log_target)


def _kl_div(input, target, reduction, log_target):
    F._tensor_arg("kl_div", input)
    F._tensor_arg("kl_div", target, "target", 2)
    if input._data.dtype.kind == "c" or target._data.dtype.kind == "c":
        raise RuntimeError("kl_div: Complex inputs not supported.")
    if input._data.dtype.kind in "biu" or target._data.dtype.kind in "biu":
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if input._data.dtype.kind in "cV" or target._data.dtype.kind in "cV":
        raise RuntimeError("kl_div: Complex inputs not supported.")
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
    F._parsed("margin_ranking_loss", (input1, input2, target, margin, _INTS[reduction]))
    loss = (-target * (input1 - input2) + margin).clamp_min(0)
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    """1 - cos(x1, x2) for y = 1, max(0, cos(x1, x2) - margin) for y = -1 (torch's composite)."""
    if size_average is not None or reduce is not None:
        reduction = F._legacy_reduction(size_average, reduce)
    else:
        reduction = F._check_reduction(reduction)
    F._parsed("cosine_embedding_loss", (input1, input2, target, margin, _INTS[reduction]))
    margin = float(margin)             # (a double to the C function: margin=True is 1.0)
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
    if common.kind != "f":             # (no complex kernel either)
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{_dtype_name(common)}")
    if eps < 0:
        raise RuntimeError(f"eps must be non-negative, got: {eps:g}")
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
    if kind == "c":                    # (hardtanh is a clamp)
        raise NotImplementedError("clamp is not supported for complex types")
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


# --- the other losses: poisson / gaussian nll, hinge, soft margin, multi(label) margin, triplet --------------
_ENUMS = {0: "none", 1: "mean", 2: "sum"}
_INTS = {"none": 0, "mean": 1, "sum": 2}        # (_Reduction.get_enum: what the C functions are handed)


def _legacy_or(size_average, reduce, reduction):
    """The legacy flags' reduction (torch's warning) if either is given, else reduction validated."""
    if size_average is not None or reduce is not None:
        return F._legacy_reduction(size_average, reduce)
    return F._check_reduction(reduction)


def _apply_reduction(loss, reduction):
    """ATen's apply_loss_reduction."""
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    """exp(input) - target * input (log_input), or input - target * log(input + eps); full adds Stirling's
    approximation of log(target!) where target > 1. torch's composite (its nodes)."""
    if size_average is not None or reduce is not None:
        reduction = F._legacy_reduction(size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    F._parsed("poisson_nll_loss", (input, target, log_input, full, eps, _INTS[reduction]))
    return _poisson_nll_loss(input, target, log_input, full, eps, reduction)


def _poisson_nll_loss(input, target, log_input, full, eps, reduction):
    F._tensor_arg("poisson_nll_loss", input)
    F._tensor_arg("poisson_nll_loss", target, "target", 2)
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss += stirling.masked_fill(target <= 1, 0)
    return _apply_reduction(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 (log(var) + (input - target)^2 / var), var clamped to at least eps (outside the graph); torch's
    Python, line by line."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * Tensor._make(np.ones(input._data.shape, input._data.dtype))
    elif _any(var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif input.ndim == var.ndim and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with grad_mode.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return _apply_reduction(loss, reduction)


# torch.any as gradlab.any gives it (its argument errors: gaussian_nll_loss(var=1) is torch's TypeError)
_any = _argparse.checked("any", lambda input, *args, **kwargs: input.any(*args, **kwargs))


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    """input where target == 1, max(0, margin - input) where target == -1 (torch's composite)."""
    reduction = _legacy_or(size_average, reduce, reduction)
    F._parsed("hinge_embedding_loss", (input, target, margin, _INTS[reduction]))
    return _hinge_embedding_loss(input, target, margin, reduction)


def _hinge_embedding_loss(input, target, margin, reduction):
    F._tensor_arg("hinge_embedding_loss", input)
    F._tensor_arg("hinge_embedding_loss", target, "target", 2)
    zeros = Tensor._make(np.zeros(input._data.shape, input._data.dtype))
    # C++'s `margin - self` is empty_like(self).fill_(margin).sub_(self): in the input's dtype (an integer
    # input truncates the margin), recorded as SubBackward0
    filled = Tensor._make(np.full(input._data.shape, margin).astype(input._data.dtype))
    margin_clamp = filled.sub_(input).clamp_min_(0)
    output_margin = margin_clamp.where(target != 1, zeros)
    output_self = input.where(target != -1, zeros)
    return _apply_reduction(output_margin + output_self, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """log(1 + exp(-target * input)) (SoftMarginLossBackward0)."""
    reduction = _legacy_or(size_average, reduce, reduction)
    F._tensor_arg("soft_margin_loss", input)
    F._tensor_arg("soft_margin_loss", target, "target", 2)
    F._no_requires_grad("soft_margin_loss", target, "target")
    x, t = input._data, target._data
    try:
        shape = np.broadcast_shapes(x.shape, t.shape)
    except ValueError:
        raise F._broadcast_error(x.shape, t.shape) from None
    if shape != x.shape:                # (PyTorch's loss is written into a tensor shaped like the input)
        raise RuntimeError(f"output with shape [{', '.join(map(str, x.shape))}] doesn't match the broadcast shape "
                           f"[{', '.join(map(str, shape))}]")
    if x.dtype == np.bool_:             # (PyTorch's kernel negates the input first)
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    if x.dtype.kind not in "fc":
        # (the loss is a tensor like the input: the pair's floating result type, else the default Float, can't be
        # cast to an integer input)
        common = _dtype.promote_types(input.dtype, target.dtype)
        name = F._SCALAR_NAMES.get(common.np.name) if common.np.kind in "fc" else "Float"
        raise RuntimeError(f"result type {name} can't be cast to the desired output type {F._scalar_name(input)}")
    if shape != x.shape:
        input = input.expand(shape)
    t = np.broadcast_to(t, shape)
    norm = 1.0 / max(int(np.prod(shape)), 1) if reduction == "mean" else 1.0
    loss = OPS["soft_margin_loss"](input, target=t, reduction=reduction, norm=norm)
    if loss.requires_grad and loss._data.dtype.kind == "c":
        # (PyTorch computes it, then refuses to record a complex result of an op without complex gradients)
        raise RuntimeError("soft_margin_loss does not support automatic differentiation for outputs with complex "
                           "dtype.")
    return loss


def _margin_shapes(input):
    """(nframe, dim) of a multi(label) margin loss's input: torch's check of a non-empty vector or matrix."""
    shape = input._data.shape
    if not ((len(shape) == 2 and shape[1] != 0) or (len(shape) == 1 and shape[0] != 0) or len(shape) == 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{_dims(shape)}")
    return (1 if len(shape) <= 1 else shape[0]), (1 if not shape else shape[-1])


def _dims(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    """The multi-class hinge loss (MultiMarginLossBackward0): for each sample, the mean over the other
    classes of max(0, margin - x[target] + x[d]) ** p (times weight[target])."""
    reduction = _legacy_or(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    F._tensor_arg("multi_margin_loss", input)
    F._tensor_arg("multi_margin_loss", target, "target", 2)
    F._no_requires_grad("multi_margin_loss", weight, "weight")
    nframe, dim = _margin_shapes(input)
    t = target._data
    if t.ndim > 1 or t.size != nframe:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{nframe}], but got {_dims(t.shape)}. "
                           f"Input has shape {_dims(input._data.shape)}.")
    if weight is not None and (weight._data.ndim > 1 or weight._data.size != dim):
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got {_dims(weight._data.shape)}")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f'"multi_margin_loss_cpu_kernel" not implemented for \'{F._scalar_name(input)}\'')
    if t.dtype != np.int64:
        raise RuntimeError(f"expected scalar type Long but found {F._scalar_name(target)}")
    flat = t.reshape(-1)
    if flat.size and (flat.min() < 0 or flat.max() >= dim):
        raise RuntimeError("target out of range")
    w = None if weight is None else weight._data.reshape(-1).astype(input._data.dtype)
    return OPS["multi_margin_loss"](input, target=t, p=int(p), margin=float(margin), weight=w,
                                    reduction=reduction, out_dim=t.ndim > 0)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The multi-label hinge loss (MultilabelMarginLossBackward0): target lists each sample's labels,
    ended by the first -1."""
    reduction = _legacy_or(size_average, reduce, reduction)
    F._tensor_arg("multilabel_margin_loss", input)
    F._tensor_arg("multilabel_margin_loss", target, "target", 2)
    nframe, dim = _margin_shapes(input)
    t = target._data
    ok = (t.ndim <= 1 and t.size == dim) if input._data.ndim <= 1 else (t.shape == (nframe, dim))
    if not ok:
        raise RuntimeError(f"inconsistent target size: {_dims(t.shape)} for input of size: "
                           f"{_dims(input._data.shape)}")
    if t.dtype.kind not in "iu" or t.dtype == np.bool_:
        raise RuntimeError(f"expected scalar type Long but found {F._scalar_name(target)}")
    if t.size and (t.min() < -1 or t.max() >= dim):
        raise RuntimeError("argument #2 'target' is out of range")
    if t.dtype != np.int64:
        raise RuntimeError(f"expected scalar type Long but found {F._scalar_name(target)}")
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f'"multilabel_margin_loss_forward_out_frame" not implemented for '
                                  f"'{F._scalar_name(input)}'")
    return OPS["multilabel_margin_loss"](input, target=t, reduction=reduction,
                                         out_dim=t.ndim > 1)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(target log sigmoid(input) + (1 - target) log sigmoid(-input)), averaged over the classes; torch's Python."""
    if size_average is not None or reduce is not None:
        reduction = F._legacy_reduction(size_average, reduce)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    C = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / C
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    """max(0, margin + d(anchor, positive) - d(anchor, negative)) with pairwise_distance (torch's composite)."""
    reduction = _legacy_or(size_average, reduce, reduction)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _triplet_c(anchor, positive, negative, margin, p, eps, swap, {"none": 0, "mean": 1, "sum": 2}[reduction])


def _triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction):
    a_dim, p_dim, n_dim = anchor.dim(), positive.dim(), negative.dim()
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = dist_neg.minimum(pairwise_distance(positive, negative, p, eps))
    return _apply_reduction((margin + dist_pos - dist_neg).clamp_min(0), reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    """triplet_margin_loss with any distance function (pairwise_distance by default); torch's Python."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    if distance_function is None:
        distance_function = pairwise_distance
    dist_pos = distance_function(anchor, positive)
    dist_neg = distance_function(anchor, negative)
    if swap:
        dist_neg = dist_neg.minimum(distance_function(positive, negative))
    loss = (margin + dist_pos - dist_neg).clamp_min(0)
    return loss.sum() if reduction == "sum" else loss.mean() if reduction == "mean" else loss


# torch.<loss>(..., reduction: int) forms: PyTorch's C functions take the reduction as its enum. Their default,
# at::Reduction::Mean in the signature, is read by PyTorch's argument parser as 0: no reduction (measured)
def _enum(reduction):
    return _ENUMS.get(reduction, reduction)


def torch_poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return _poisson_nll_loss(input, target, log_input, full, eps, _enum(reduction))


def torch_hinge_embedding_loss(input, target, margin=1.0, reduction=0):
    return _hinge_embedding_loss(input, target, margin, _enum(reduction))


def torch_margin_ranking_loss(input1, input2, target, margin=0.0, reduction=0):
    return margin_ranking_loss(input1, input2, target, margin, reduction=_enum(reduction))


def torch_cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=0):
    return cosine_embedding_loss(input1, input2, target, margin, reduction=_enum(reduction))


def torch_triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, reduction=0):
    return _triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, _enum(reduction))


def torch_kl_div(input, target, reduction=0, *, log_target=False):
    return _kl_div(input, target, _enum(reduction), log_target)


def torch_binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=0):
    """torch.binary_cross_entropy_with_logits, the C function under F's: reduction an int (1 mean, 2 sum,
    anything else none; left out, PyTorch's parser reads its default "Mean" as 0: none), and no size check:
    PyTorch computes log_sigmoid(input).mul_(log_weight) (with pos_weight) and (1 - target).mul_(input), in
    place, so the input broadcasts up to the target's shape but not the other way, and its gradient, made in
    a buffer of the input's shape, fails then."""
    if tuple(input.shape) != tuple(target.shape):
        if pos_weight is not None:
            _in_place_shape(input._data.shape, target._data.shape)
        shape = _in_place_shape(target._data.shape, input._data.shape)
        message = f"output with shape {list(input.shape)} doesn't match the broadcast shape {list(shape)}"
        input = input.expand(shape)
        if input.requires_grad:

            def fail(grad):
                raise RuntimeError(message)
            input.register_hook(fail)
    return F.binary_cross_entropy_with_logits(input, target, weight,
                                              reduction={1: "mean", 2: "sum"}.get(reduction, "none"),
                                              pos_weight=pos_weight)


def _in_place_shape(out, other):
    """The shape of out.mul_(other), or PyTorch's error for it."""
    try:
        shape = np.broadcast_shapes(out, other)
    except ValueError:
        raise F._broadcast_error(out, other) from None
    if shape != out:
        raise RuntimeError(f"output with shape {list(out)} doesn't match the broadcast shape {list(shape)}")
    return shape


__all__ += ["poisson_nll_loss", "gaussian_nll_loss", "hinge_embedding_loss", "soft_margin_loss", "multi_margin_loss",
            "multilabel_margin_loss", "multilabel_soft_margin_loss", "triplet_margin_loss",
            "triplet_margin_with_distance_loss"]


# torch.triplet_margin_loss as nn.functional calls it: the C function's argument errors, for every call
_triplet_vet = _vetter(_signatures.TORCH["triplet_margin_loss"])


def _triplet_c(*args):
    return torch_triplet_margin_loss(*_triplet_vet(args, {})[0])


# --- the CTC loss --------------------------------------------------------------------------------------
# torch.ctc_loss (LossCTC.cpp's ctc_loss_impl): the _ctc_loss node (CtcLossBackward0, gradlab/ops/ctc.py),
# then zero_infinity's where, then the reduction ('mean' divides each loss by its target length first).
_CTC = "(while checking arguments for ctc_loss_allocate_outputs)"
_CTC_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _ctc_lengths(name, value):
    if isinstance(value, Tensor):
        if value._data.dtype.kind not in "iu":
            raise RuntimeError(f"{name} must be integral")
        return [int(v) for v in value._data.reshape(-1)]
    return [int(v) for v in value]


def _ctc_checks(log_probs, targets, input_lengths, target_lengths, blank):
    """ctc_loss_allocate_outputs' checks, in its order."""
    dtype = log_probs._data.dtype
    if dtype.kind != "f" or dtype == np.float16:
        raise NotImplementedError(f'"ctc_loss_cpu" not implemented for \'{F._scalar_name(log_probs)}\'')
    if log_probs._data.size == 0:
        raise RuntimeError("log_probs tensor must not be empty")
    if targets._data.dtype not in (np.int32, np.int64):     # (torch.ctc_loss has made them int64 already)
        raise RuntimeError(f"Expected tensor for argument #2 'targets' to have scalar type Int; but got "
                           f"torch.{F._scalar_name(targets)}Tensor instead {_CTC}")
    if log_probs.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.dim()}-dimensional tensor for argument "
                           f"#1 'log_probs' {_CTC}")
    if not 1 <= targets.dim() <= 2:
        raise RuntimeError(f"Expected 1 to 2 dimensions, but got {targets.dim()}-dimensional tensor for argument #2 "
                           f"'targets' {_CTC}")
    _, batch_size, num_labels = log_probs._data.shape
    if not 0 <= blank < num_labels:
        raise RuntimeError("blank must be in label range")
    if len(input_lengths) != batch_size:
        raise RuntimeError("input_lengths must be of size batch_size")
    if len(target_lengths) != batch_size:
        raise RuntimeError("target_lengths must be of size batch_size")
    for length in target_lengths:
        if length < 0:
            raise RuntimeError(f"Expected target_lengths to have value at least 0, but got value {length} {_CTC}")
    shape = targets._data.shape
    expected = sum(target_lengths) if targets.dim() == 1 else batch_size
    if shape[0] != expected:
        raise RuntimeError(f"Expected tensor to have size {expected} at dimension 0, but got size {shape[0]} for "
                           f"argument #2 'targets' {_CTC}")
    longest = max(target_lengths, default=0)
    if targets.dim() == 2 and shape[1] < longest:
        raise RuntimeError(f"Expected tensor to have size at least {longest} at dimension 1, but got size {shape[1]} "
                           f"for argument #2 'targets' {_CTC}")
    steps = log_probs._data.shape[0]
    for length in input_lengths:
        if length < 0:
            raise RuntimeError(f"Expected input_lengths to have value at least 0, but got value {length} {_CTC}")
        if length > steps:
            raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got value {length} {_CTC}")


def torch_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False):
    """torch.ctc_loss: reduction as PyTorch's enum (0 none, 1 mean, 2 sum)."""
    input_lengths = _ctc_lengths("input_lengths", input_lengths)
    target_lengths = _ctc_lengths("target_lengths", target_lengths)
    is_batched = log_probs.dim() == 3
    lp = log_probs if is_batched else log_probs.unsqueeze(1)
    _ctc_checks(lp, targets if targets._data.dtype.kind in "iu" else targets.long(), input_lengths, target_lengths,
                blank)
    # (the targets as int64, as PyTorch's .to(kLong); a label outside [0, classes) reads no memory here)
    labels = np.clip(targets._data.astype(np.int64), 0, lp._data.shape[2] - 1)
    res = OPS["_ctc_loss"](lp, targets=labels, input_lengths=tuple(input_lengths),
                           target_lengths=tuple(target_lengths), blank=int(blank),
                           zero_infinity=bool(zero_infinity))[0]
    if zero_infinity:
        res = where(res == float("inf"), Tensor._make(np.zeros((), res._data.dtype)), res)
    if reduction == 1:
        lengths = Tensor._make(np.array(target_lengths, res._data.dtype)).clamp_min(1)
        return (res / lengths).mean()
    if reduction == 2:
        return res.sum()
    return res if is_batched else res.squeeze(0)


def torch__ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    """torch._ctc_loss: the kernel itself, (loss per sequence, log_alpha)."""
    input_lengths = _ctc_lengths("input_lengths", input_lengths)
    target_lengths = _ctc_lengths("target_lengths", target_lengths)
    _ctc_checks(log_probs, targets, input_lengths, target_lengths, blank)
    labels = np.clip(targets._data.astype(np.int64), 0, log_probs._data.shape[2] - 1)
    return OPS["_ctc_loss"](log_probs, targets=labels, input_lengths=tuple(input_lengths),
                            target_lengths=tuple(target_lengths), blank=int(blank), zero_infinity=bool(zero_infinity))


def _ctc_loss_backward(grad, log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    """CtcLossBackward0's gradient as a Tensor (the formula the backward player shows)."""
    return Tensor._make(_ctc.ctc_backward(grad._data, log_probs._data, targets._data, input_lengths,
                                          target_lengths, blank, zero_infinity))


_ctc_vet = []


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """The connectionist temporal classification loss (torch.ctc_loss with the reduction by name)."""
    reduction = _CTC_REDUCTIONS[F._check_reduction(reduction)]
    if not _ctc_vet:            # (PyTorch's argument parser for torch.ctc_loss, made once it exists)
        _ctc_vet.append(_vetter(_signatures.TORCH["ctc_loss"]))
    args = _ctc_vet[0]((log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity), {})[0]
    return torch_ctc_loss(*args)


__all__ += ["ctc_loss", "_ctc_loss_backward"]


# --- linear_cross_entropy --------------------------------------------------------------------------------
def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction="mean",
                         ignore_index=None, label_smoothing=0.0, options=None):
    """cross_entropy(linear(input, linear_weight, linear_bias), target): PyTorch's Python composition.
    (PyTorch's memory-saving chunked kernel, chosen by `options`, is not written here: the composition runs.)"""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}")
    num_batches = input.shape[:-1]
    in_features = input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions (in_features), "
                           f"got {input.shape[-1]} and {linear_weight.shape[-1]}, respectively")
    num_classes = linear_weight.shape[0]
    out_features = linear_weight.shape[1:-1]
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(num_classes, *out_features)}, got "
                           f"{tuple(linear_bias.shape)}")
    if len(out_features) > 0 and len(num_batches) == 0:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires"
                           f" batched input, (N, {in_features}), got unbatched input with shape {tuple(input.shape)}")
    logits_shape = (*num_batches, num_classes, *out_features)
    # (cross_entropy reads a target shaped like the logits as probabilities)
    target_contains_probabilities = target.shape == logits_shape
    if target_contains_probabilities and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = ignore_index if ignore_index is not None else -100
    if out_features:
        linear_weight = linear_weight.reshape((math.prod(out_features, start=num_classes), in_features))
        if linear_bias is not None:
            linear_bias = linear_bias.reshape(math.prod(out_features, start=num_classes))
    logits = F.linear(input, linear_weight, linear_bias)
    logits = logits.reshape(logits_shape)
    return F.cross_entropy(logits, target, weight=weight, reduction=reduction, ignore_index=ignore_index,
                           label_smoothing=label_smoothing)


__all__ += ["linear_cross_entropy"]
