"""Neural-network ops: softmax, log_softmax and the losses, with PyTorch's node names."""
import math

import numpy as np

from .._dtype import scalar_in
from .._tensor_core import Tensor
from ..autograd import grad_mode
from . import dual, summation, vectorized
from .formula_text import shows
from .reduction import _norm_grad
from .double_backward import node_of
from .registry import OPS, no_complex_autograd, op, sum_to_shape

_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)
from .unary import _exp, _log1p     # (PyTorch's float32 exp and log1p, bit for bit)


def _softmax_input(self, dim, name):
    """torch's softmax kernels: floating types only (its error names the kernel), half computed in float."""
    if self.dtype.kind != "f" and self.size:      # (an empty tensor never reaches the kernel; no complex one)
        kernel = f"{name}_lastdim_kernel_impl" if dim == self.ndim - 1 or self.ndim == 0 else f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_SCALAR_NAMES.get(self.dtype.name)}\'')
    return self.astype(np.float32) if self.dtype == np.float16 else self


_SCALAR_NAMES = {"void32": "ComplexHalf", "complex64": "ComplexFloat", "complex128": "ComplexDouble", "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


# The gradients are ops of their own, as torch's _softmax_backward_data and
# _log_softmax_backward_data: with create_graph the gradient's node is ...BackwardDataBackward0,
# and its own gradients are torch's formulas (derivatives.yaml, softmax_double_backward).
@op("softmax_backward_data", "SoftmaxBackwardDataBackward0", ("grad_output", "output"),
    saves={"grad_output": ("output",), "output": ("grad_output", "output")},
    shows={"grad_output": "output * (grad - (grad * output).sum(dim, keepdim=True))",
           "output": "grad_output * grad - (output * grad_output).sum(dim, keepdim=True) * grad"
                     " - grad_output * (output * grad).sum(dim, keepdim=True)"},
    grad_output=lambda g, n: dual.call("softmax_backward_data", g, n.output, dim=n.dim),
    output=lambda g, n: (n.grad_output * g - dual.sum_keepdim(n.output * n.grad_output, n.dim) * g
                         - n.grad_output * dual.sum_keepdim(n.output * g, n.dim)))
def softmax_backward_data(grad_output, output, dim):
    if grad_output.dtype == np.float16:     # torch's half kernel: in float, rounded once
        g, y = grad_output.astype(np.float32), output.astype(np.float32)
        return (y * (g - np.add.reduce(g * y, axis=dim, keepdims=True))).astype(np.float16)
    # float32, float64: PyTorch's vectorized kernels, bit for bit (ops/vectorized/)
    exact = (vectorized.softmax_backward_lastdim(grad_output, output) if dim == output.ndim - 1
             else vectorized.softmax_backward_inner(grad_output, output, dim))
    if exact is not None:
        return exact
    return output * (grad_output - np.add.reduce(grad_output * output, axis=dim, keepdims=True))


@op("log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0", ("grad_output", "output"),
    saves={"grad_output": ("output",), "output": ("grad_output", "output")},
    shows={"grad_output": "grad - (grad * exp(output)).sum(dim, keepdim=True)"},
    grad_output=lambda g, n: g - dual.sum_keepdim(g * dual.exp(n.output), n.dim),
    output=lambda g, n: -dual.sum_keepdim(n.grad_output, n.dim) * dual.exp(n.output) * g)
def log_softmax_backward_data(grad_output, output, dim):
    if grad_output.dtype == np.float16:
        g, y = grad_output.astype(np.float32), output.astype(np.float32)
        return (g - _exp(y) * np.add.reduce(g, axis=dim, keepdims=True)).astype(np.float16)
    exact = (vectorized.log_softmax_backward_lastdim(grad_output, output) if dim == output.ndim - 1
             else vectorized.log_softmax_backward_inner(grad_output, output, dim))
    if exact is not None:
        return exact
    return grad_output - _exp(output) * np.add.reduce(grad_output, axis=dim, keepdims=True)


@op("softmax", "SoftmaxBackward0", variants=("function", "method"), saves=("result",),
    check=no_complex_autograd("_softmax"),
    shows={"self": "result * (grad - (grad * result).sum(dim, keepdim=True))"},
    self=lambda g, n: dual.call("softmax_backward_data", g, n.result, dim=n.dim))
def softmax(self, dim):
    x = _softmax_input(self, dim, "softmax")
    if not x.size:                      # (an empty slice has no maximum to subtract)
        return x.copy()
    if self.dtype in (np.float32, np.float64):     # PyTorch's vectorized kernels, bit for bit (ops/vectorized/)
        exact = vectorized.softmax_lastdim(x) if dim == x.ndim - 1 else vectorized.softmax_inner(x, dim)
        if exact is not None:
            return exact
    # ufunc reductions (np.maximum.reduce) rather than np.max: same C loop, microseconds less Python
    e = _exp(x - np.maximum.reduce(x, axis=dim, keepdims=True))
    total = np.add.reduce(e, axis=dim, keepdims=True)
    if dim == x.ndim - 1:       # torch's last-dim kernel multiplies by 1 / sum (other dims divide)
        return e * (1 / total)
    if self.dtype == np.float16:    # the other dims' half kernel keeps exp(x - max) in its half output first
        e = e.astype(np.float16).astype(np.float32)
    return e / total


def _exp(x):
    """exp correctly rounded to float32 (numpy's float32 exp is not), as torch's kernels nearly are."""
    return np.exp(x.astype(np.float64)).astype(np.float32) if x.dtype == np.float32 else np.exp(x)


def _log(x):
    return np.log(x.astype(np.float64)).astype(np.float32) if x.dtype == np.float32 else np.log(x)


@op("log_softmax", "LogSoftmaxBackward0", variants=("function", "method"), saves=("result",),
    check=no_complex_autograd("_log_softmax"),
    shows={"self": "grad - exp(result) * grad.sum(dim, keepdim=True)"},
    self=lambda g, n: dual.call("log_softmax_backward_data", g, n.result, dim=n.dim))
def log_softmax(self, dim):
    half = self.dtype == np.float16
    self = _softmax_input(self, dim, "log_softmax")
    if not self.size:
        return self.copy()
    if self.dtype in (np.float32, np.float64) and not half:     # PyTorch's vectorized kernels, bit for bit
        exact = (vectorized.log_softmax_lastdim(self) if dim == self.ndim - 1
                 else vectorized.log_softmax_inner(self, dim))
        if exact is not None:
            return exact
    shifted = self - np.maximum.reduce(self, axis=dim, keepdims=True)
    total = np.add.reduce(_exp(shifted), axis=dim, keepdims=True)
    if half and dim == self.ndim - 1:    # torch's last-dim half kernel keeps the sum and its log in half
        return shifted - _log(total.astype(np.float16).astype(np.float32)).astype(np.float16).astype(np.float32)
    return shifted - _log(total)


@shows("-grad.unsqueeze(-1) * (arange(self_sizes[-1]) == target.unsqueeze(-1)) * (target != ignore_index).unsqueeze(-1) * (1 if weights is None else weights) / (total_weight if reduction == 'mean' else 1)")
def _nll_grad(g, n):
    """torch's nll_loss_backward: an op of its own (NllLossBackwardBackward0 with create_graph)."""
    return dual.call("nll_loss_backward", g, n.self, target=n.target, weights=n.weights, reduction=n.reduction,
                     ignore_index=n.ignore_index, total_weight=n.total_weight, self_sizes=n.self_sizes)


# its gradients: nll_loss of the incoming gradient, and zeros for self (derivatives.yaml)
@op("nll_loss_backward", "NllLossBackwardBackward0", ("grad_output", "self"),
    shows={"grad_output": "F.nll_loss(grad, target, weights, ignore_index=ignore_index, reduction=reduction)",
           "self": "zeros_like(grad)"},
    grad_output=lambda g, n: dual.call("nll_loss", g, target=n.target, weights=n.weights, reduction=n.reduction,
                                       ignore_index=n.ignore_index, total_weight=n.total_weight,
                                       self_sizes=n.self_sizes),
    self=lambda g, n: dual.like(g, np.zeros(n.self_sizes, dual.data(g).dtype)))
def nll_loss_backward(grad_output, self, target, weights, reduction, ignore_index, total_weight, self_sizes):
    """PyTorch's kernel (LossNLL.cpp): zeros, and at each target that is not ignored
    weight[target] * grad, where grad = -(grad_output / total_weight) for 'mean', -grad_output else
    (each step rounded as there: not (-1 / total_weight) * grad_output, which differs in the last bit)."""
    g = grad_output
    if reduction != "none" and len(self_sizes) == 2 and g.__class__ is np.ndarray and g.dtype in _F32_F64 \
            and (weights is None or weights.dtype == g.dtype):
        # (a training step's case: one number written at the targets, in a few numpy calls)
        grad = -(g / total_weight if reduction == "mean" and total_weight else _quiet_mean(g, total_weight, reduction))
        rows = np.arange(self_sizes[0])
        if ignore_index >= 0 or np.minimum.reduce(target, axis=None, initial=0) < 0:   # (targets may be ignored)
            valid = target != ignore_index
            rows, target = rows[valid], target[valid]
        value = grad if weights is None else weights[target] * grad
        out = np.zeros(self_sizes, value.dtype)
        out[rows, target] = value
        return out
    grad = -_quiet_mean(g, total_weight, reduction)
    # (an ignored target may be any number, -100 by default: it picks no weight)
    if len(self_sizes) == 1:
        ignored = target == ignore_index
        value = grad if weights is None else weights[0 if ignored else target] * grad
        out = np.zeros(self_sizes, value.dtype)
        if not ignored:
            out[target] = value
        return out
    if reduction == "none":
        grad = dual.unsqueeze(grad, 1)
    rows = np.arange(self_sizes[0])
    valid = target != ignore_index
    value = grad if weights is None else weights[np.where(valid, target, 0)].reshape(-1, 1) * grad
    mask = np.zeros(self_sizes, bool)
    mask[rows[valid], target[valid]] = True
    # zeros elsewhere: +0 even for grad = inf or nan
    return dual.where_or_zero(mask, np.broadcast_to(value, self_sizes).astype(value.dtype))


def _quiet_mean(g, total_weight, reduction):
    """grad_output / total_weight for 'mean' (else grad_output), without numpy's warning when every
    target is ignored (0 / 0: torch's kernel warns of nothing)."""
    if reduction != "mean":
        return g
    with np.errstate(divide="ignore", invalid="ignore"):
        return g / total_weight


_F32_F64 = (np.dtype(np.float32), np.dtype(np.float64))


@op("nll_loss", "NllLossBackward0", ("self",), saves=("self",),
    self=_nll_grad)
def nll_loss(self, target, weights, reduction, ignore_index, total_weight, self_sizes):
    if self.ndim == 1:
        picked = -self[target] if target != ignore_index else np.zeros((), self.dtype)
        if weights is not None and target != ignore_index:
            picked = picked * weights[target]
        picked = picked + 0      # (torch sums from 0: -0.0 becomes 0.0)
        return np.asarray(picked if reduction != "mean" else picked / total_weight, dtype=self.dtype)
    n = self.shape[0]
    if weights is None and total_weight == n > 1 and reduction != "none":
        # (a training step's case: no weights and every target counted, as total_weight, their count, says)
        rows = np.arange(n)
        total = summation.cascade_sum(-self[rows, target], rows, n)
        return np.asarray(total / total_weight if reduction == "mean" else total, dtype=self.dtype)
    valid = target != ignore_index
    picked = -self[np.arange(n), np.where(valid, target, 0)] * valid
    if weights is not None:
        picked = picked * weights[np.where(valid, target, 0)]
    if reduction == "none":
        return picked.astype(self.dtype)
    positions = np.flatnonzero(valid)
    total = summation.cascade_sum(picked[positions].astype(self.dtype, copy=False), positions, self.shape[0])
    if reduction != "mean" or 0 < total_weight < np.inf:      # (nothing numpy could warn about: no errstate's cost)
        return np.asarray(total / total_weight if reduction == "mean" else total, dtype=self.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):      # (every target ignored: 0 / 0, nan)
        return np.asarray(total / total_weight, dtype=self.dtype)


def _reduce(loss, reduction):
    """A loss's reduction as torch's sum and mean compute it (their order of addition: the last bits of
    `loss.item()`); the mean of nothing is nan (0/0), as in torch, without numpy's warning."""
    return _torch_reduce(loss, reduction)


def _is_tensor(*values):
    return any(hasattr(v, "_data") for v in values)


# A loss's gradient is, in PyTorch, a backward op of its own (mse_loss_backward, ...): under create_graph the
# gradient's node is MseLossBackwardBackward0, whose formulas are derivatives.yaml's double backward. A plain
# backward computes the same numbers on arrays, without the op.
def _mse_backward(g, a, b, n):
    """mse_loss_backward(grad, a, b): the gradient for a (self, or target with the two swapped, as PyTorch)."""
    if _is_tensor(g, a, b):
        return OPS["mse_loss_backward"](g, a, b, reduction=n.reduction, count=n.count)
    return _mse_grad(g, a, b, n.count)


def _mse_grad(g, a, b, count):
    """PyTorch's mse_backward kernel: norm * (a - b) * grad, with norm = 2 / numel (2 for a sum) made a
    number of the tensors' dtype first, each step rounded to that dtype (not 2 * (a - b) / numel)."""
    d = np.asarray(a - b)
    return scalar_in(_over_count(2.0, count), d.dtype) * d * g


def _over_count(value, count):
    """value / numel as C++ divides doubles: an empty tensor's mean gives inf (its gradient is empty anyway)."""
    return value / count if count else math.inf


def _mse_double_backward(g, n):
    """PyTorch's mse_loss_double_backward: 2 * grad, over numel for a mean."""
    g = dual.mul_scalar(g, 2)
    return dual.div_scalar(g, n.count) if n.reduction == "mean" else g


@op("mse_loss", "MseLossBackward0", ("self", "target"), saves=("self", "target"),
    shows={"self": "grad * 2 * (self - target) / count", "target": "grad * 2 * (target - self) / count"},
    self=lambda g, n: _mse_backward(g, n.self, n.target, n),
    target=lambda g, n: _mse_backward(g, n.target, n.self, n))
def mse_loss(self, target, reduction, count):
    d = (self - target) ** 2
    return _reduce(d, reduction)


@op("mse_loss_backward", "MseLossBackwardBackward0", ("grad_output", "self", "target"),
    saves=("grad_output", "self", "target"),
    shows={"grad_output": "grad * 2 * (self - target) / count",
           "self": "grad * grad_output * 2 / (count if reduction == 'mean' else 1)",
           "target": "-grad * grad_output * 2 / (count if reduction == 'mean' else 1)"},
    grad_output=lambda g, n: _mse_backward(g, n.self, n.target, n),
    self=lambda g, n: _mse_double_backward(g * n.grad_output, n),
    target=lambda g, n: -_mse_double_backward(g * n.grad_output, n))
def mse_loss_backward(grad_output, self, target, reduction, count):
    return _mse_grad(grad_output, self, target, count)


# binary_cross_entropy's gradient is, in PyTorch, binary_cross_entropy_backward (an op: under create_graph its node
# is BinaryCrossEntropyBackwardBackward0); its target's gradient and binary_cross_entropy_with_logits' are formulas
# of FunctionsManual.cpp, written here op for op.
_BCE_EPS = 1e-12


def _weighted_mean(grad, n):
    """PyTorch's last steps of a loss's backward: `grad.mul_(weight)`, then `grad.div_(numel)` for a mean."""
    if n.weight is not None:
        grad = grad * dual.like(grad, n.weight)
    return dual.div_scalar(grad, n.count) if n.reduction == "mean" else grad


def _bce_backward(g, n):
    """binary_cross_entropy_backward(grad, self, target, weight, reduction)."""
    return dual.call("binary_cross_entropy_backward", g, n.self, n.target, weight=n.weight, reduction=n.reduction,
                     count=n.count)


@shows("-logit(self) * grad * (1 if weight is None else weight) / count")
def _bce_target_grad(g, n):
    """PyTorch's binary_cross_entropy_target_backward: logit(self).neg_().mul_(grad), weight, numel."""
    return _weighted_mean(-dual.call("logit", n.self) * g, n)


@op("binary_cross_entropy", "BinaryCrossEntropyBackward0", ("self", "target"), saves=("self", "target"),
    shows={"self": "grad * (self - target) / clamp_min((1 - self) * self, 1e-12) * (1 if weight is None else weight)"
                   " / count"},
    self=_bce_backward, target=_bce_target_grad)
def binary_cross_entropy(self, target, weight, reduction, count):
    # PyTorch clamps the logs at -100 so that log(0) stays finite
    loss = -(target * np.maximum(np.log(self), -100) + (1 - target) * np.maximum(np.log1p(-self), -100))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def _bce_double_backward(g, n):
    """PyTorch's binary_cross_entropy_double_backward: (x^2 - 2 x t + t) / ((x + eps)^2 (1 - x + eps)^2)
    times grad * grad_output, weight, numel."""
    x, t = n.self, n.target
    numerator = x * x - dual.mul_scalar(x, 2) * t + t
    denominator = dual.pow_scalar(dual.add_scalar(x, _BCE_EPS), 2) * dual.pow_scalar(
        dual.add_scalar(dual.number_minus(1, x), _BCE_EPS), 2)
    return _weighted_mean(numerator / denominator * (g * n.grad_output), n)


def _bce_double_backward_target(g, n):
    """PyTorch's binary_cross_entropy_double_backward_target: -grad * grad_output, weight, over
    clamp_min((1 - self) * self, eps) (a constant), numel."""
    res = -g * n.grad_output
    if n.weight is not None:
        res = res * dual.like(res, n.weight)
    x = n.self
    denominator = dual.number_minus(1, x) * x
    if isinstance(denominator, dual.Tensor):
        with grad_mode.no_grad():        # (PyTorch's clamp_min_ under NoGradGuard: the values, not the graph)
            denominator.clamp_min_(_BCE_EPS)
    else:
        denominator = np.maximum(denominator, denominator.dtype.type(_BCE_EPS))
    res = res / denominator
    return dual.div_scalar(res, n.count) if n.reduction == "mean" else res


def _bce_double_backward_grad_output(g, n):
    """PyTorch's binary_cross_entropy_double_backward_grad_output: (x - t) / ((x + eps) (1 - x + eps)) * grad,
    weight, numel."""
    x, t = n.self, n.target
    ggO = (x - t) / (dual.add_scalar(x, _BCE_EPS) * dual.add_scalar(dual.number_minus(1, x), _BCE_EPS)) * g
    return _weighted_mean(ggO, n)


@op("binary_cross_entropy_backward", "BinaryCrossEntropyBackwardBackward0", ("grad_output", "self", "target"),
    saves=("grad_output", "self", "target"),
    shows={"grad_output": "(self - target) / ((self + 1e-12) * (1 - self + 1e-12)) * grad"
                          " * (1 if weight is None else weight) / (count if reduction == 'mean' else 1)",
           "self": "(self * self - 2 * self * target + target) / ((self + 1e-12).pow(2) * (1 - self + 1e-12).pow(2))"
                   " * (grad * grad_output) * (1 if weight is None else weight) / (count if reduction == 'mean' else 1)",
           "target": "-grad * grad_output * (1 if weight is None else weight) / clamp_min((1 - self) * self, 1e-12)"
                     " / (count if reduction == 'mean' else 1)"},
    grad_output=_bce_double_backward_grad_output, self=_bce_double_backward, target=_bce_double_backward_target)
def binary_cross_entropy_backward(grad_output, self, target, weight, reduction, count):
    """PyTorch's kernel: grad * (self - target) / max((1 - self) * self, eps), then weight, then over numel."""
    eps = self.dtype.type(_BCE_EPS)
    grad = grad_output * (self - target) / np.maximum((1 - self) * self, eps)
    if weight is not None:
        grad = grad * weight
    if reduction == "mean":
        grad = grad / count
    return grad.astype(self.dtype, copy=False)


def _bce_logits_grad(g, n):
    """PyTorch's binary_cross_entropy_with_logits_backward: (sigmoid(self) - target) * grad, weight, numel."""
    return _weighted_mean((dual.sigmoid(n.self) - n.target) * g, n)


@op("binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0", ("self", "target"),
    variants=("function",), saves=("self", "target"),
    shows={"self": "(sigmoid(self) - target) * grad * (1 if weight is None else weight) / count",
           "target": "-self * grad * (1 if weight is None else weight) / count"},
    self=_bce_logits_grad,
    target=lambda g, n: _weighted_mean(-n.self * g, n))
def binary_cross_entropy_with_logits(self, target, weight, reduction, count, half_input=False):
    if half_input:      # a half input with a float target: torch's log_sigmoid(input) is rounded to half
        half_log_sigmoid = np.minimum(self, 0) - np.log1p(np.exp(-np.abs(self)))
        loss = (1 - target) * self - half_log_sigmoid.astype(np.float16).astype(self.dtype)
    else:           # PyTorch's (1 - target) * input - log_sigmoid(input), with its log_sigmoid kernel's bits
        loss = (1 - target) * self - log_sigmoid.forward(self)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


@op("dropout_mask", "MulBackward0", ("self", "other"), saves={"self": ("other",), "other": ("self",)},   # (mul's:
    # _saved_self is None, as PyTorch's, since the mask needs no gradient)
    self=lambda g, n: g * n.other)
def dropout_mask(self, other):
    return self * other


# --- torch's in-place activations save their result, and so record another node (...Backward1) ---------
@op("leaky_relu_inplace", "LeakyReluBackward1", saves=("result",),
    shows={"self": "where(result > 0, grad, grad * negative_slope)"},
    self=lambda g, n: dual.call("leaky_relu_backward", g, n.result, negative_slope=n.negative_slope))
def leaky_relu_inplace(self, negative_slope=0.01):
    return np.where(self > 0, self, self * np.asarray(negative_slope, self.dtype))


@op("elu_inplace", "EluBackward1", saves=("result",),
    shows={"self": "where(result > 0, grad * scale, grad * input_scale * (result + alpha * scale))"},
    self=lambda g, n: dual.call("elu_backward", g, n.result, alpha=n.alpha, scale=n.scale, input_scale=n.input_scale,
                                is_result=True))
def elu_inplace(self, alpha=1.0, scale=1, input_scale=1):
    # (the same numbers as elu: only the saved value differs; selu_ is this one too)
    return OPS["elu"].forward(self, alpha, scale, input_scale)


@op("celu_inplace", "CeluBackward1", saves=("result",),
    shows={"self": "where(result > 0, grad, grad * (result + alpha) / alpha)"},
    self=lambda g, n: dual.call("elu_backward", g, n.result, alpha=n.alpha, scale=1.0,
                                input_scale=1.0 / float(np.float32(n.alpha)), is_result=True))
def celu_inplace(self, alpha=1.0):
    return OPS["celu"].forward(self, alpha)


# (torch's threshold_ keeps a copy of self as it was: its gradient reads the input, not the result)
@op("threshold_inplace", "ThresholdBackward1", saves=("self",),
    shows={"self": "where(self > threshold, grad, 0)"},
    self=lambda g, n: dual.threshold_backward(g, n.self, n.threshold))
def threshold_inplace(self, threshold, value):
    return OPS["threshold"].forward(self, threshold, value)


def _rrelu_inplace_grad(g, n):
    return dual.call("rrelu_with_noise_backward", g, n.result, noise=n.noise, lower=n.lower, upper=n.upper,
                     training=n.training)


@op("rrelu_with_noise_inplace", "RreluWithNoiseBackward1", saves=("result",), self=_rrelu_inplace_grad,
    shows={"self": "grad * noise if training and upper - lower > 1e-6 else where(result > 0, grad, grad * (lower + upper) / 2)"})
def rrelu_with_noise_inplace(self, noise, lower, upper, training):
    return OPS["rrelu_with_noise"].forward(self, noise, lower, upper, training)


# gelu(approximate='tanh'): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), computed in float64
_GELU_K = math.sqrt(2 / math.pi)


# (0.7978845608028654 is sqrt(2 / pi))
@op("gelu_tanh", "GeluBackward0", saves=("self",),
    shows={"self": 'grad * (0.5 * (1 + tanh(0.7978845608028654 * (self + 0.044715 * self ** 3))) + 0.5 * self * (1 - tanh(0.7978845608028654 * (self + 0.044715 * self ** 3)) ** 2) * 0.7978845608028654 * (1 + 3 * 0.044715 * self ** 2))'},
    self=lambda g, n: dual.call("gelu_backward", g, n.self, approximate="tanh"))
def gelu_tanh(self):
    if self.dtype == np.float32:        # PyTorch's kernel (SLEEF's / glibc's tanhf), bit for bit
        exact = vectorized.gelu_tanh(self)
        if exact is not None:
            return exact
    x = self.astype(np.float64)
    return (0.5 * x * (1 + np.tanh(_GELU_K * (x + 0.044715 * x ** 3)))).astype(self.dtype, copy=False)


# nll_loss over images (N, C, H, W) with targets (N, H, W): torch's NllLoss2DBackward0. The class is
# picked along dim 1 at every position. Its gradient is, as in PyTorch, an op of its own: nll_loss2d_backward
# (NllLoss2DBackwardBackward0 with create_graph).
def _nll2d_params(n):
    return {"target": n.target, "valid": n.valid, "weights": n.weights, "reduction": n.reduction,
            "total_weight": n.total_weight, "self_sizes": n.self_sizes}


def _nll2d_grad(g, n):
    if isinstance(g, Tensor):
        return OPS["nll_loss2d_backward"](g, n.self, **_nll2d_params(n))
    return nll_loss2d_backward.forward(g, None, **_nll2d_params(n))


_NLL2D_TEXT = ("(-grad.unsqueeze(-1) * (arange(self_sizes[1]) == target.unsqueeze(-1)) * valid.unsqueeze(-1) * "
               "(1 if weights is None else weights) / (total_weight if reduction == 'mean' else 1)).movedim(-1, 1)")


@op("nll_loss2d", "NllLoss2DBackward0", ("self",), saves=("self",), self=_nll2d_grad, shows={"self": _NLL2D_TEXT})
def nll_loss2d(self, target, valid, weights, reduction, total_weight, self_sizes):
    index = np.where(valid, target, 0)[:, None]
    picked = -np.take_along_axis(self, index, axis=1)[:, 0] * valid
    if weights is not None:
        picked = picked * weights[index[:, 0]]
    if reduction == "none":
        return picked.astype(self.dtype)
    positions = np.flatnonzero(valid)           # (b * map_size + elem: torch's linear index of a sample)
    total = summation.cascade_sum(picked.reshape(-1)[positions].astype(self.dtype, copy=False), positions,
                                  valid.size)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(total / total_weight if reduction == "mean" else total, dtype=self.dtype)


# its gradients (derivatives.yaml): nll_loss2d of the incoming gradient, and zeros for self
@op("nll_loss2d_backward", "NllLoss2DBackwardBackward0", ("grad_output", "self"),
    shows={"grad_output": "F.nll_loss(grad, target.masked_fill(~valid, -100), weights, reduction=reduction)",
           "self": "zeros_like(grad)"},
    grad_output=lambda g, n: dual.call("nll_loss2d", g, **_nll2d_params(n)),
    self=lambda g, n: dual.like(g, np.zeros(n.self_sizes, dual.data(g).dtype)))
def nll_loss2d_backward(grad_output, self, target, valid, weights, reduction, total_weight, self_sizes):
    g = grad_output
    target = np.where(valid, target, 0)[:, None]
    scale = np.zeros(self_sizes, dtype=g.dtype)
    weight = valid if weights is None else valid * weights[target[:, 0]]
    picked = np.zeros(self_sizes, dtype=bool)
    np.put_along_axis(picked, target, valid[:, None], axis=1)
    if reduction == "none":                 # PyTorch's kernel: -w * grad_output, at each target
        np.put_along_axis(scale, target, -weight[:, None].astype(scale.dtype), axis=1)
        value = scale * g[:, None]
    else:                                   # w * -(grad_output / total_weight): each step rounded, as there
        np.put_along_axis(scale, target, weight[:, None].astype(scale.dtype), axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = scale * -(dual.div_scalar(g, total_weight) if reduction == "mean" else g)
    # PyTorch writes these at the targets into zeros: elsewhere +0, even for grad_output = inf or < 0
    return dual.where_or_zero(picked, value)


# --- BCE with logits and pos_weight (same node name as torch's) ----------------------------------------
def _bce_pos_grad(g, n):
    """PyTorch's binary_cross_entropy_with_logits_backward with pos_weight: t = pos_weight * target,
    (t + 1 - target) * sigmoid(self) - t, times grad, weight, numel."""
    t = dual.like(g, n.pos_weight) * n.target
    return _weighted_mean(((dual.add_scalar(t, 1) - n.target) * dual.sigmoid(n.self) - t) * g, n)


def _bce_pos_target_grad(g, n):
    """PyTorch's binary_cross_entropy_with_logits_target_backward with pos_weight:
    (log_sigmoid(-self) - log_sigmoid(self) * pos_weight) * grad, weight, numel."""
    x = n.self
    grad = (dual.call("log_sigmoid", -x) - dual.call("log_sigmoid", x) * dual.like(g, n.pos_weight)) * g
    return _weighted_mean(grad, n)


@op("binary_cross_entropy_with_logits_pos_weight", "BinaryCrossEntropyWithLogitsBackward0", ("self", "target"),
    saves=("self", "target"), self=_bce_pos_grad, target=_bce_pos_target_grad,
    shows={"self": "((pos_weight * target + 1 - target) * sigmoid(self) - pos_weight * target) * grad"
                   " * (1 if weight is None else weight) / count",
           "target": "(log1p(exp(-self)) * pos_weight - log1p(exp(self))) * grad * (1 if weight is None else weight)"
                     " / count"})
def binary_cross_entropy_with_logits_pos_weight(self, target, weight, pos_weight, reduction, count, half_input=False):
    log_weight = (pos_weight - 1) * target + 1
    if half_input:      # torch's half log_sigmoid(input).mul_(log_weight): rounded to half twice
        log_sigmoid = (np.minimum(self, 0) - np.log1p(np.exp(-np.abs(self)))).astype(np.float16).astype(self.dtype)
        loss = (1 - target) * self - (log_sigmoid * log_weight).astype(np.float16).astype(self.dtype)
    else:
        loss = (1 - target) * self + log_weight * (np.log1p(np.exp(-np.abs(self))) + np.maximum(-self, 0))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


# torch divides by the batch size in C++ (`tensor / number`), which records DivBackward1
@op("nn_div_by_number", "DivBackward1", ("self",),
    self=lambda g, n: g / n.other)
def div_by_number(self, other):
    return self / other


# --- regression losses with a threshold: huber_loss (delta) and smooth_l1_loss (beta) ---------------------
# The gradient is d = input - target clipped to [-delta, delta] (huber), or d / beta clipped to [-1, 1]
# (smooth l1), times g / count.
def _clipped(input, target, delta, scale):
    """(half arrays come in float32: torch's kernels compute half in float)"""
    d = input - target
    low, high = (-delta, delta) if scale is None else (-1.0, 1.0)
    d = d if scale is None else d / scale
    return dual.call("clamp", d, min=low, max=high) if hasattr(d, "_data") else \
        np.clip(d, d.dtype.type(low), d.dtype.type(high))


def _huber_backward(g, a, b, n):
    """huber_loss_backward(grad, a, b) (see _mse_backward)."""
    mismatch = getattr(n, "dtype_mismatch", None)
    if mismatch:            # (input and target of two dtypes: PyTorch's backward kernel refuses them)
        raise RuntimeError(mismatch)
    if _is_tensor(g, a, b):
        return OPS["huber_loss_backward"](g, a, b, reduction=n.reduction, delta=n.delta, count=n.count)
    return _huber_grad(g, a, b, n.delta, n.count)


def _smooth_l1_backward(g, a, b, n):
    """smooth_l1_loss_backward(grad, a, b) (see _mse_backward)."""
    if _is_tensor(g, a, b):
        return OPS["smooth_l1_loss_backward"](g, a, b, reduction=n.reduction, beta=n.beta, count=n.count)
    return _smooth_l1_grad(g, a, b, n.beta, n.count)


def _piecewise_grad(g, a, b, bound, count, inner):
    """PyTorch's huber/smooth_l1 backward kernels: with norm = 1 / numel (1 for a sum) and x = a - b,
    -norm * grad (* delta) where x <= -bound, norm * grad (* delta) where x >= bound, inner(norm * x * grad)
    between; the tensors' dtype step by step, the bound a double (float16 computes in float32, rounded once)."""
    x = np.asarray(a - b)
    dtype = x.dtype
    work = _F32 if dtype == _F16 else dtype
    x = x.astype(work, copy=False)
    norm = scalar_in(_over_count(1.0, count), work)
    g = np.asarray(g).astype(work, copy=False)
    outer = norm * g
    mid = inner(norm * x * g, bound)
    if inner is _times_one:
        outer = (outer * np.float64(bound)).astype(work, copy=False)
    with np.errstate(invalid="ignore"):
        return np.where(x <= -bound, -outer, np.where(x >= bound, outer, mid)).astype(dtype, copy=False)


def _times_one(v, bound):
    return v


def _over(v, bound):
    return (v / np.float64(bound)).astype(v.dtype, copy=False)


def _huber_grad(g, a, b, delta, count):
    return _piecewise_grad(g, a, b, delta, count, _times_one)


def _smooth_l1_grad(g, a, b, beta, count):
    if np.result_type(a, b) == _F16:
        # (measured: PyTorch's float16 kernel computes grad * clamp(x / beta, -1, 1) / numel in float)
        return dual.fused(lambda g, a, b: g * _clipped(a, b, None, beta) / count, g, a, b)
    return _piecewise_grad(g, a, b, beta, count, _over)


def _threshold_double_backward(g, n, bound, over):
    """PyTorch's huber_loss_double_backward (over=None) and smooth_l1_loss_double_backward (over=beta):
    grad where |self - target| < bound, else 0 (divided by beta), divided by numel for a mean."""
    if over == 0:
        return dual.like(g, np.zeros_like(dual.data(g)))
    near = np.abs(dual.data(n.self) - dual.data(n.target)) < bound
    g = g * dual.like(g, near.astype(dual.data(g).dtype) if over is not None else near)
    if over is not None:
        g = dual.div_scalar(g, over)
    return dual.div_scalar(g, n.count) if n.reduction == "mean" else g


def _huber_grad_output_grad(g, n):
    """PyTorch's huber_loss_double_backward_grad_output."""
    if n.reduction == "none":
        return _huber_backward(g, n.self, n.target, n)
    ones = dual.like(g, np.ones_like(dual.data(n.grad_output)))
    return (_huber_backward(ones, n.self, n.target, n) * g).sum()


@op("huber_loss", "HuberLossBackward0", ("self", "target"), saves=("self", "target"),
    shows={"self": "grad * (self - target).clamp(-delta, delta) / count",
           "target": "-grad * (self - target).clamp(-delta, delta) / count"},
    self=lambda g, n: _huber_backward(g, n.self, n.target, n),
    target=lambda g, n: _huber_backward(g, n.target, n.self, n))
def huber_loss(self, target, reduction, delta, count, dtype_mismatch=None, loss_dtype=None):
    z = np.abs(self - target)
    d = z.dtype.type(delta)
    loss = np.where(z < d, z.dtype.type(0.5) * z * z, d * (z - z.dtype.type(0.5) * d)).astype(z.dtype, copy=False)
    if loss_dtype is not None:
        # (input and target of two dtypes: PyTorch writes the loss into a tensor like the input, then reduces it)
        loss = loss.astype(loss_dtype, copy=False)
    return _reduce(loss, reduction)


@op("huber_loss_backward", "HuberLossBackwardBackward0", ("grad_output", "self", "target"),
    saves=("grad_output", "self", "target"),
    shows={"grad_output": "grad * (self - target).clamp(-delta, delta) / count",
           "self": "grad * grad_output * ((self - target).abs() < delta) / (count if reduction == 'mean' else 1)",
           "target": "-grad * grad_output * ((self - target).abs() < delta) / (count if reduction == 'mean' else 1)"},
    grad_output=_huber_grad_output_grad,
    self=lambda g, n: _threshold_double_backward(g * n.grad_output, n, n.delta, None),
    target=lambda g, n: -_threshold_double_backward(g * n.grad_output, n, n.delta, None))
def huber_loss_backward(grad_output, self, target, reduction, delta, count):
    return _huber_grad(grad_output, self, target, delta, count)


@op("smooth_l1_loss", "SmoothL1LossBackward0", ("self", "target"), saves=("self", "target"),
    shows={"self": "grad * ((self - target) / beta).clamp(-1, 1) / count",
           "target": "-grad * ((self - target) / beta).clamp(-1, 1) / count"},
    self=lambda g, n: _smooth_l1_backward(g, n.self, n.target, n),
    target=lambda g, n: _smooth_l1_backward(g, n.target, n.self, n))
def smooth_l1_loss(self, target, reduction, beta, count):
    z = np.abs(self - target)
    b = z.dtype.type(beta)
    half = z.dtype.type(0.5)
    loss = np.where(z < b, half * z * z / b, z - half * b).astype(z.dtype, copy=False)
    return _reduce(loss, reduction)


@op("smooth_l1_loss_backward", "SmoothL1LossBackwardBackward0", ("grad_output", "self", "target"),
    saves=("grad_output", "self", "target"),
    shows={"grad_output": "grad * ((self - target) / beta).clamp(-1, 1) / count",
           "self": "grad * grad_output * ((self - target).abs() < beta) / beta / (count if reduction == 'mean' else 1)",
           "target": "-grad * grad_output * ((self - target).abs() < beta) / beta / (count if reduction == 'mean' else 1)"},
    grad_output=lambda g, n: _smooth_l1_backward(g, n.self, n.target, n),
    self=lambda g, n: _threshold_double_backward(g * n.grad_output, n, n.beta, n.beta),
    target=lambda g, n: -_threshold_double_backward(g * n.grad_output, n, n.beta, n.beta))
def smooth_l1_loss_backward(grad_output, self, target, reduction, beta, count):
    return _smooth_l1_grad(grad_output, self, target, beta, count)


# --- activations that the teaching material uses less often ------------------------------------------
def _hardtanh_grad(g, n):
    if hasattr(g, "_data") or hasattr(n.self, "_data"):     # Tensors (create_graph): an op of its own, as in PyTorch
        return OPS["hardtanh_backward"](g, n.self, min_val=n.min_val, max_val=n.max_val)
    # (PyTorch's kernel: 0 where self <= min_val or self >= max_val, else grad: a nan self passes grad on)
    return dual.where_or_zero(~((n.self <= n.min_val) | (n.self >= n.max_val)), g)


@op("hardtanh", "HardtanhBackward0", saves=("self",),
    shows={"self": "where((self <= min_val) | (self >= max_val), 0, grad)"},
    self=_hardtanh_grad)
def hardtanh(self, min_val=-1.0, max_val=1.0):
    low, high = scalar_in(min_val, self.dtype), scalar_in(max_val, self.dtype)
    return np.clip(self, low, high).astype(self.dtype, copy=False)


# (self is saved whichever input wants a gradient, as PyTorch's node saves it: a second backward raises)
@op("hardtanh_backward", "HardtanhBackwardBackward0", ("grad_output", "self"), saves=("self",),
    shows={"grad_output": "where((self <= min_val) | (self >= max_val), 0, grad)", "self": "zeros_like(grad)"},
    grad_output=lambda g, n: _hardtanh_grad(g, n),
    self=lambda g, n: dual.like(g, np.zeros_like(dual.data(g))))
def hardtanh_backward(grad_output, self, min_val, max_val):
    """hardtanh's gradient (relu6's too): an op of its own, as in PyTorch, so that a graph of the gradient still
    depends on self (its derivative there is zero)."""
    return np.where((self <= min_val) | (self >= max_val), 0, grad_output).astype(grad_output.dtype, copy=False)


def _log_sigmoid_double_backward(g, z):
    """PyTorch's log_sigmoid_double_backward: grad * (z - 1) * z, z = sigmoid(self) (one node, used twice)."""
    return g * dual.sub_scalar(z, 1) * z


def _log_sigmoid_grad(g, n):
    if _is_tensor(g, n.self):       # (create_graph: PyTorch's log_sigmoid_backward, an op of its own)
        return OPS["log_sigmoid_backward"](g, n.self)
    return log_sigmoid_backward.forward(g, n.self)


@op("log_sigmoid_backward", "LogSigmoidBackwardBackward0", ("grad_output", "self"), saves=("grad_output", "self"),
    shows={"grad_output": "grad * sigmoid(-self)", "self": "grad * grad_output * (sigmoid(self) - 1) * sigmoid(self)"},
    grad_output=_log_sigmoid_grad,
    self=lambda g, n: _log_sigmoid_double_backward(g * n.grad_output, dual.sigmoid(n.self)))
def log_sigmoid_backward(grad_output, self):
    """d/dx log(sigmoid(x)) = sigmoid(-x), times grad_output."""
    if type(grad_output) is np.ndarray and type(self) is np.ndarray and self.dtype == np.float32:   # its kernel
        exact = vectorized.log_sigmoid_backward(grad_output, self)
        if exact is not None:
            return exact
    return dual.fused(lambda g, x: g * dual.sigmoid(-x), grad_output, self)


@op("log_sigmoid", "LogSigmoidBackward0", saves=("self",), self=_log_sigmoid_grad,
    shows={"self": "grad * sigmoid(-self)"})
def log_sigmoid(self):
    if self.dtype == np.float32:        # PyTorch's kernel (SLEEF's expf and log1pf), bit for bit
        exact = vectorized.log_sigmoid(self)
        if exact is not None:
            return exact
    x = self.astype(np.float64)
    return (np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))).astype(self.dtype, copy=False)


def _mish_grad(g, n):
    return dual.fused(_mish_grad_of, g, n.self)


def _mish_grad_of(g, x):
    if type(g) is np.ndarray and type(x) is np.ndarray and x.dtype == np.float32:    # its kernel, bit for bit
        exact = vectorized.mish_backward(g, x)
        if exact is not None:
            return exact
    if _is_tensor(g, x):            # PyTorch's infinitely_differentiable_mish_backward, op for op
        t = dual.tanh(x.exp().log1p())
        return g * (t + x * dual.sigmoid(x) * dual.number_minus(1.0, t * t))
    sp = dual.call("softplus", x, beta=1.0, threshold=20.0)
    t = dual.tanh(sp)
    return g * (t + x * dual.sigmoid(x) * (1 - t * t))


@op("mish", "MishBackward0", saves=("self",), self=_mish_grad,
    shows={"self": "grad * (tanh(F.softplus(self)) + self * sigmoid(self) * (1 - tanh(F.softplus(self)) ** 2))"})
def mish(self):
    if self.dtype == np.float32:        # PyTorch's kernel (SLEEF / glibc tanh, log1p, exp), bit for bit
        exact = vectorized.mish(self)
        if exact is not None:
            return exact
    x = self.astype(np.float64)
    return (x * np.tanh(np.log1p(np.exp(-np.abs(x))) + np.maximum(x, 0))).astype(self.dtype, copy=False)


def _hardswish_grad(g, n):
    if _is_tensor(g, n.self):       # (create_graph: PyTorch's hardswish_backward, an op of its own)
        return OPS["hardswish_backward"](g, n.self)
    return hardswish_backward.forward(g, n.self)


@op("hardswish_backward", "HardswishBackwardBackward0", ("grad_output", "self"), saves=("grad_output", "self"),
    shows={"grad_output": "grad * where(self <= -3, 0, where(self < 3, self / 3 + 0.5, 1))",
           "self": "where((self > -3) & (self < 3), grad * grad_output / 3, 0)"},
    grad_output=_hardswish_grad,
    self=lambda g, n: dual.where((dual.data(n.self) > -3.0) & (dual.data(n.self) < 3.0),
                                 dual.div_scalar(g * n.grad_output, 3.0), 0.0))
def hardswish_backward(grad_output, self):
    """(PyTorch's kernel: a literal 0 up to -3 included (+0, even for a negative or nan grad), grad * (x / 3 + 0.5)
    strictly between, grad from 3 on)"""
    return dual.fused(lambda g, x: np.where(x <= -3, 0, g * np.where(x < 3, x / 3 + 0.5, 1.0).astype(x.dtype)),
                      grad_output, self)


@op("hardswish", "HardswishBackward0", saves=("self",), self=_hardswish_grad,
    shows={"self": "grad * where(self <= -3, 0, where(self < 3, self / 3 + 0.5, 1))"})
def hardswish(self):
    x = self.astype(np.float32) if self.dtype == np.float16 else self     # (half computes in float)
    return (x * np.clip(x + 3, 0, 6) / x.dtype.type(6)).astype(self.dtype, copy=False)


_ONE_SIXTH = float(np.float32(1.0 / 6))     # torch's kernel multiplies by 1.0f / 6.0f, even for double


def _hardsigmoid_grad(g, n):
    if _is_tensor(g, n.self):       # (create_graph: PyTorch's hardsigmoid_backward, which has no derivative)
        return OPS["hardsigmoid_backward"](n.self, grad_output=dual.data(g))
    return hardsigmoid_backward.forward(n.self, g)


def _not_implemented(name):
    """The formula of an op PyTorch gives no derivative: its node (NotImplemented) raises when run."""
    def formula(g, n):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return formula


# (PyTorch's node for it is NotImplemented, with an edge to self only)
@op("hardsigmoid_backward", "NotImplemented", ("self",), saved_params=(),
    shows={"self": "derivative for aten::hardsigmoid_backward is not implemented"},
    self=_not_implemented("hardsigmoid_backward"))
def hardsigmoid_backward(self, grad_output):
    return dual.where_or_zero((self > -3) & (self < 3), dual.scale(grad_output, _ONE_SIXTH))


@op("hardsigmoid", "HardsigmoidBackward0", saves=("self",), self=_hardsigmoid_grad,
    shows={"self": "where((self > -3) & (self < 3), grad / 6, 0)"})
def hardsigmoid(self):
    x = self.astype(np.float32) if self.dtype == np.float16 else self
    return (np.clip(x + 3, 0, 6) / x.dtype.type(6)).astype(self.dtype, copy=False)


# prelu: x where x > 0, else weight * x; F.prelu views the weight so that it broadcasts along dim 1. Its gradients
# are, under create_graph, PyTorch's _prelu_kernel_backward, an op whose one node gives both (see below).
def _prelu_weight_grad(g, n):
    """The weight's gradient in a plain backward, summed to the weight's shape: the channel's positions first, then
    the batch (F.prelu views the weight as (1, C, 1, ...); the sums are those of gradlab's (C, 1, ...) view before)."""
    grad = dual.where(n.self > 0, 0 * g, g * n.self)
    shape = n.weight.shape
    if len(shape) < 2:
        return grad
    return sum_to_shape(grad, (shape[1:], grad.dtype)).reshape(shape)


def _prelu_grads(g, n):
    """create_graph: (grad_self, grad_weight) from one _prelu_kernel_backward node, once per backward."""
    cache = getattr(n, "_grads", None)
    if cache is not None and cache[0] is g:
        return cache[1]
    grads = OPS["prelu_kernel_backward"](g, n.self, n.weight)
    node_of(n)._grads = (g, grads)
    return grads


@op("prelu", "PreluKernelBackward0", ("self", "weight"), variants=("function", "method"), saves=("self", "weight"),
    shows={"self": "where(self > 0, grad, grad * weight)", "weight": "where(self > 0, 0, grad * self)"},
    self=lambda g, n: (dual.where(dual.data(n.self) > 0, g, g * n.weight) if not isinstance(g, Tensor)
                       else _prelu_grads(g, n)[0]),
    weight=lambda g, n: _prelu_weight_grad(g, n) if not isinstance(g, Tensor) else _prelu_grads(g, n)[1])
def prelu(self, weight):
    return np.where(self > 0, self, self * weight).astype(self.dtype, copy=False)


def _zero(like):
    """at::zeros({}, options): a 0-d zero of like's dtype."""
    zero = np.zeros((), dual.data(like).dtype)
    return Tensor._make(zero) if isinstance(like, Tensor) else zero


def _zeros_like(x):
    zeros = np.zeros_like(dual.data(x))
    return Tensor._make(zeros) if isinstance(x, Tensor) else zeros


def _prelu_grad_output_grad(grads, n):
    """derivatives.yaml's _prelu_kernel_backward grad_output formula, for whichever of grads[0], grads[1] is defined."""
    g0, g1 = grads
    nonneg = dual.data(n.self) >= 0
    if g0 is not None:
        other = g0 * n.weight if g1 is None else g0 * n.weight + g1 * n.self
        return dual.where(nonneg, g0, other)
    return dual.where(nonneg, _zero(g1), g1 * n.self)


# The gradients of prelu as one op: PyTorch records it as PreluKernelBackwardBackward0 taking (grad_output, self,
# weight); the weight's gradient comes at self's shape, and the engine sums it to the weight's (SumBackward1).
@op("prelu_kernel_backward", "PreluKernelBackwardBackward0", ("grad_output", "self", "weight"), num_outputs=2,
    saves=("grad_output", "self", "weight"), undefined_grads=True,
    shows={"grad_output": "where(self >= 0, 0 if grads[0] is None else grads[0], (0 if grads[0] is None else "
                          "grads[0] * weight) + (0 if grads[1] is None else grads[1] * self))",
           "self": "zeros_like(self) if grads[1] is None else where(self >= 0, 0, grad_output * grads[1])",
           "weight": "zeros_like(self) if grads[0] is None else where(self >= 0, 0, grad_output * grads[0])"},
    grad_output=_prelu_grad_output_grad,
    self=lambda g, n: (_zeros_like(n.self) if g[1] is None
                       else dual.where(dual.data(n.self) >= 0, _zero(g[1]), n.grad_output * g[1])),
    weight=lambda g, n: (_zeros_like(n.self) if g[0] is None
                         else dual.where(dual.data(n.self) >= 0, _zero(g[0]), n.grad_output * g[0])))
def prelu_kernel_backward(grad_output, self, weight):
    """prelu's gradients for self and weight, as its plain backward computes them."""
    positive = self > 0
    return np.where(positive, grad_output, grad_output * weight), np.where(positive, 0 * grad_output, grad_output * self)


# pairwise_distance adds eps in C++ (`x1 - x2 + eps`, a Scalar): torch records AddBackward1
@op("nn_add_scalar", "AddBackward1", ("self",), self=lambda g, n: g)
def add_scalar(self, other):
    return (self + self.dtype.type(other)).astype(self.dtype, copy=False)


# norm_p's text: grad and result with the reduced dim put back; p = inf: grad shared by the entries at the maximum
_G = "(grad if keepdim or dim is None else grad.unsqueeze(dim[0]))"
_R = "(result if keepdim or dim is None else result.unsqueeze(dim[0]))"


# at::norm(x, p, dim) as pairwise_distance calls it: linalg's vector norm under the older node name
@op("norm_p", "NormBackward1", saves=("self", "result"), float_result=True, cast_result=False, self=_norm_grad,
    shows={"self": f"self * abs(self) ** (p - 2) * {_G} / {_R} ** (p - 1) if abs(p) != float('inf')"
                   f" else sign(self) * (abs(self) == {_R}) * {_G} / (abs(self) == {_R}).sum(dim, keepdim=True)"})
def norm_p(self, p, dim, keepdim):
    return OPS["norm"].forward(self, p, dim, keepdim)


# --- soft_margin_loss, multi_margin_loss, multilabel_margin_loss: PyTorch's CPU kernels (Loss*.cpp) -----
def _torch_reduce(loss, reduction):
    """apply_loss_reduction: loss.mean() / loss.sum() as torch's reductions compute them."""
    if reduction == "none":
        return loss
    total = OPS["sum"].forward(loss, loss.shape) if reduction == "sum" else \
        OPS["mean"].forward(loss, loss.shape, max(loss.size, 1))
    return np.asarray(total, loss.dtype) if loss.size or reduction == "sum" else np.asarray(np.nan, loss.dtype)


def _soft_margin_grad(g, n):
    """PyTorch's soft_margin_loss_backward (an op: SoftMarginLossBackwardBackward0 under create_graph)."""
    return dual.call("soft_margin_loss_backward", g, n.self, target=n.target, reduction=n.reduction, norm=n.norm)


def _soft_margin_double_backward(g, n):
    """PyTorch's soft_margin_loss_double_backward(grad * grad_output): z = exp(self * -target),
    grad * target^2 * z / (z + 1)^2, over numel for a mean."""
    t = dual.like(g, np.asarray(dual.data(n.target)).astype(dual.data(n.self).dtype, copy=False))
    g = g * n.grad_output
    z = dual.exp(n.self * -t)
    zplus1 = dual.add_scalar(z, 1)
    grad = g * (t * t) * z / (zplus1 * zplus1)
    return dual.div_scalar(grad, dual.data(n.self).size) if n.reduction == "mean" else grad


def _soft_margin_double_backward_grad_output(g, n):
    """PyTorch's soft_margin_loss_double_backward_grad_output: soft_margin_loss_backward(grad) for no reduction,
    else (soft_margin_loss_backward(ones_like(grad_output)) * grad).sum()."""
    if n.reduction == "none":
        return _soft_margin_grad(g, n)
    ones = dual.like(g, np.ones_like(dual.data(n.grad_output)))
    return (_soft_margin_grad(ones, n) * g).sum()


@op("soft_margin_loss_backward", "SoftMarginLossBackwardBackward0", ("grad_output", "self"),
    saves=("grad_output", "self"),
    shows={"grad_output": "-target * exp(-target * self) / (1 + exp(-target * self)) * norm * grad",
           "self": "grad * grad_output * target * target * exp(self * -target) / (exp(self * -target) + 1) ** 2"
                   " * norm"},
    grad_output=_soft_margin_double_backward_grad_output, self=_soft_margin_double_backward)
def soft_margin_loss_backward(grad_output, self, target, reduction, norm):
    """PyTorch's kernel: z = exp(-target * self); target * z * -norm / (z + 1) * grad (norm: 1 / numel for a
    mean, else 1)."""
    x = self
    t = np.asarray(target).astype(x.dtype, copy=False)
    z = _exp((-t) * x)
    grad = (t * z) * x.dtype.type(-norm)
    grad = grad / (z + x.dtype.type(1))
    return (grad * grad_output).astype(x.dtype, copy=False)


@op("soft_margin_loss", "SoftMarginLossBackward0", ("self",), saves=("self",), self=_soft_margin_grad,
    shows={"self": "-target * exp(-target * self) / (1 + exp(-target * self)) * norm * grad"})
def soft_margin_loss(self, target, reduction, norm):
    """log(1 + exp(-target * self)), then the reduction (torch: input.neg().mul_(target).exp_().log1p_())."""
    t = np.asarray(target).astype(self.dtype, copy=False)
    loss = _log1p(_exp(np.negative(self) * t)).astype(self.dtype, copy=False)
    return _torch_reduce(loss, reduction)


def _multi_margin_coefficients(x, target, p, margin, weight, reduction, grad_shape):
    """d loss / d x for each number (before grad_output), as torch's backward kernel fills it, in the dtype."""
    x2 = x.reshape(-1, 1 if x.ndim == 0 else x.shape[-1])
    nframe, dim = x2.shape
    target = target.reshape(-1)         # (saved as given: one class per sample)
    t = x.dtype.type
    g = t(1.0 / (nframe * dim)) if reduction == "mean" else t(1.0 / dim)
    rows = np.arange(nframe)
    x_target = x2[rows, target]
    out = np.zeros_like(x2)
    target_total = np.zeros(nframe, x.dtype)
    for d in range(dim):
        z = (t(margin) - x_target) + x2[:, d]
        h = g if p == 1 else t(2) * g * z
        h = np.broadcast_to(np.asarray(h, x.dtype), (nframe,))
        if weight is not None:
            h = h * weight[target]
        live = (z > 0) & (target != d)
        out[:, d] = np.where(live, h, t(0))
        target_total = np.where(live, target_total - h, target_total)
    out[rows, target] = target_total
    return out.reshape(x.shape)


def _multi_margin_grad(g, n):
    if _is_tensor(g, n.self):       # (create_graph: PyTorch's multi_margin_loss_backward, which has no derivative)
        return OPS["multi_margin_loss_backward"](g, n.self, target=n.target, p=n.p, margin=n.margin, weight=n.weight,
                                                 reduction=n.reduction)
    return multi_margin_loss_backward.forward(g, n.self, n.target, n.p, n.margin, n.weight, n.reduction)


@op("multi_margin_loss_backward", "NotImplemented", ("grad_output", "self"), saved_params=(),
    shows={"grad_output": "derivative for aten::multi_margin_loss_backward is not implemented",
           "self": "derivative for aten::multi_margin_loss_backward is not implemented"},
    grad_output=_not_implemented("multi_margin_loss_backward"), self=_not_implemented("multi_margin_loss_backward"))
def multi_margin_loss_backward(grad_output, self, target, p, margin, weight, reduction):
    coef = _multi_margin_coefficients(self, target, p, margin, weight, reduction, None)
    g = grad_output
    if reduction == "none" and np.ndim(g) > 0 and self.ndim > 1:
        g = np.expand_dims(g, -1)
    return coef * g


@op("multi_margin_loss", "MultiMarginLossBackward0", ("self",), saves=("self",), self=_multi_margin_grad,
    shows={"self": "(where(((margin - self.gather(-1, target.view(-1, 1)) + self) > 0) & (arange(self.size(-1)) != target.view(-1, 1)), (1 if p == 1 else 2 * (margin - self.gather(-1, target.view(-1, 1)) + self)) * (1 if weight is None else weight[target].view(-1, 1)), 0) / (self.numel() if reduction == 'mean' else self.size(-1)) - (arange(self.size(-1)) == target.view(-1, 1)) * (where(((margin - self.gather(-1, target.view(-1, 1)) + self) > 0) & (arange(self.size(-1)) != target.view(-1, 1)), (1 if p == 1 else 2 * (margin - self.gather(-1, target.view(-1, 1)) + self)) * (1 if weight is None else weight[target].view(-1, 1)), 0) / (self.numel() if reduction == 'mean' else self.size(-1))).sum(-1, keepdim=True)) * (grad.view(-1, 1) if grad.dim() else grad)"})
def multi_margin_loss(self, target, p, margin, weight, reduction, out_dim):
    """For each sample, the sum over the classes d != target of max(0, margin - x[target] + x[d]) ** p
    (times weight[target]), divided by the number of classes: torch's loop, in the dtype."""
    x2 = self.reshape(-1, 1 if self.ndim == 0 else self.shape[-1])
    nframe, dim = x2.shape
    target = target.reshape(-1)         # (saved as given: one class per sample)
    t = self.dtype.type
    rows = np.arange(nframe)
    x_target = x2[rows, target]
    sums = np.zeros(nframe, self.dtype)
    for d in range(dim):
        z = (t(margin) - x_target) + x2[:, d]
        h = z if p == 1 else z * z
        if weight is not None:
            h = h * weight[target]
        sums = np.where((z > 0) & (target != d), sums + h, sums)
    sums = sums / t(dim)
    if reduction == "none" and out_dim:
        return sums.astype(self.dtype, copy=False)
    total = np.add.reduce(sums.astype(np.float64))          # (torch sums the samples in double)
    if reduction == "mean":
        total = total / nframe if nframe else np.nan
    return np.asarray(total, self.dtype)


def _multilabel_targets(target, nframe, dim):
    """is_target (nframe, dim) and, per sample, the listed labels (up to the first -1)."""
    t2 = target.reshape(nframe, dim)
    listed = np.cumprod(t2 >= 0, axis=1).astype(bool)
    is_target = np.zeros((nframe, dim), bool)
    rows, cols = np.nonzero(listed)
    is_target[rows, t2[rows, cols]] = True
    return t2, listed, is_target


def _multilabel_grad(g, n):
    if _is_tensor(g, n.self):       # (create_graph: PyTorch's multilabel_margin_loss_backward, with no derivative)
        return OPS["multilabel_margin_loss_backward"](g, n.self, target=n.target, reduction=n.reduction)
    return multilabel_margin_loss_backward.forward(g, n.self, n.target, n.reduction)


@op("multilabel_margin_loss_backward", "NotImplemented", ("grad_output", "self"), saved_params=(),
    shows={"grad_output": "derivative for aten::multilabel_margin_loss_backward is not implemented",
           "self": "derivative for aten::multilabel_margin_loss_backward is not implemented"},
    grad_output=_not_implemented("multilabel_margin_loss_backward"),
    self=_not_implemented("multilabel_margin_loss_backward"))
def multilabel_margin_loss_backward(grad_output, self, target, reduction):
    g, x = grad_output, self
    x2 = x.reshape(-1, 1 if x.ndim == 0 else x.shape[-1])
    nframe, dim = x2.shape
    t = x.dtype.type
    step = t(1.0 / (nframe * dim)) if reduction == "mean" else t(1.0 / dim)
    t2, listed, is_target = _multilabel_targets(target, nframe, dim)
    coef = np.zeros_like(x2)
    rows = np.arange(nframe)
    for dt in range(dim):               # torch's loop: -= step at the label, += step at each live class
        label = np.where(listed[:, dt], t2[:, dt], 0)
        x_label = x2[rows, label]
        for d in range(dim):
            live = listed[:, dt] & ~is_target[:, d] & ((t(1) - x_label) + x2[:, d] > 0)
            coef[rows, label] = np.where(live, coef[rows, label] - step, coef[rows, label])
            coef[:, d] = np.where(live, coef[:, d] + step, coef[:, d])
    coef = coef.reshape(x.shape)
    if reduction == "none" and np.ndim(g) > 0:
        g = np.expand_dims(g, -1)
    return coef * g


@op("multilabel_margin_loss", "MultilabelMarginLossBackward0", ("self",), saves=("self",), self=_multilabel_grad,
    shows={"self": "(((1 - self.gather(-1, target.view(self.shape).clamp(min=0)).unsqueeze(-1) + self.unsqueeze(1) > 0) & (target.view(self.shape) >= 0).cumprod(-1).bool().unsqueeze(-1) & ~((arange(self.size(-1)) == target.view(self.shape).unsqueeze(-1)) & (target.view(self.shape) >= 0).cumprod(-1).bool().unsqueeze(-1)).any(1).unsqueeze(1)).sum(1) - (((arange(self.size(-1)) == target.view(self.shape).unsqueeze(-1)) & (target.view(self.shape) >= 0).cumprod(-1).bool().unsqueeze(-1)) * ((1 - self.gather(-1, target.view(self.shape).clamp(min=0)).unsqueeze(-1) + self.unsqueeze(1) > 0) & (target.view(self.shape) >= 0).cumprod(-1).bool().unsqueeze(-1) & ~((arange(self.size(-1)) == target.view(self.shape).unsqueeze(-1)) & (target.view(self.shape) >= 0).cumprod(-1).bool().unsqueeze(-1)).any(1).unsqueeze(1)).sum(-1).unsqueeze(-1)).sum(1)) / (self.numel() if reduction == 'mean' else self.size(-1)) * (grad.view(-1, 1) if grad.dim() else grad)"})
def multilabel_margin_loss(self, target, reduction, out_dim):
    """For each sample, the sum over its labels j (target's values up to the first -1) and the classes i
    that are no label of max(0, 1 - x[j] + x[i]), divided by the number of classes."""
    x2 = self.reshape(-1, 1 if self.ndim == 0 else self.shape[-1])
    nframe, dim = x2.shape
    t = self.dtype.type
    t2, listed, is_target = _multilabel_targets(target, nframe, dim)
    rows = np.arange(nframe)
    sums = np.zeros(nframe, self.dtype)
    for dt in range(dim):
        label = np.where(listed[:, dt], t2[:, dt], 0)
        x_label = x2[rows, label]
        for d in range(dim):
            z = (t(1) - x_label) + x2[:, d]
            sums = np.where(listed[:, dt] & ~is_target[:, d] & (z > 0), sums + z, sums)
    if reduction == "none" and out_dim:
        return (sums / t(dim)).astype(self.dtype, copy=False)
    total = np.add.reduce(sums.astype(np.float64)) / dim     # (torch sums the samples in double)
    if reduction == "mean":
        total = total / nframe if nframe else np.nan
    return np.asarray(total, self.dtype)
# --- bilinear: out[b, o] = sum over i, j of input1[b, i] weight[o, i, j] input2[b, j] --------------------
# (PyTorch's _trilinear with bilinear's dims; each input's gradient is the same product with grad in its place)

def _trilinear_weight_grad(g, n):
    (b, o), i, j = dual.data(g).shape, dual.data(n.input1).shape[1], dual.data(n.input2).shape[1]
    outer = dual.unsqueeze(n.input1, 2) * dual.unsqueeze(n.input2, 1)         # (b, i, j)
    return dual.mm(dual.t(g), outer.reshape(b, -1)).reshape(o, i, j)   # (the weight's shape: it is not saved here)


@op("_trilinear", "TrilinearBackward0", ("input1", "weight", "input2"), promote=False,
    saves={"input1": ("weight", "input2"), "weight": ("input1", "input2"), "input2": ("input1", "weight")},
    shows={"input1": "einsum('bo,oij,bj->bi', grad, weight, input2)",
           "weight": "einsum('bo,bi,bj->oij', grad, input1, input2)",
           "input2": "einsum('bo,oij,bi->bj', grad, weight, input1)"},
    input1=lambda g, n: dual.call("_trilinear", g, dual.permute(n.weight, (1, 0, 2)), n.input2),
    weight=_trilinear_weight_grad,
    input2=lambda g, n: dual.call("_trilinear", g, dual.permute(n.weight, (2, 0, 1)), n.input1))
def _trilinear(input1, weight, input2):
    o, i, j = weight.shape
    partial = np.matmul(input1, weight.transpose(1, 0, 2).reshape(i, o * j)).reshape(-1, o, j)   # (b, o, j)
    return np.matmul(partial, input2[:, :, None])[:, :, 0]


# softmax that gives 0 for a row of -inf only (no nan): scaled_dot_product_attention's, with softmax's gradient
@op("_safe_softmax", "SafeSoftmaxBackward0", ("self",), saves=("result",),
    shows={"self": "result * (grad - (grad * result).sum(dim, keepdim=True))"},
    self=lambda g, n: dual.call("softmax_backward_data", g, n.result, dim=n.dim))
def _safe_softmax(self, dim):
    out = OPS["softmax"].forward(self, dim)
    masked_rows = np.logical_and.reduce(self == -np.inf, axis=dim, keepdims=True)
    return np.where(masked_rows, out.dtype.type(0), out) if masked_rows.any() else out


# --- scaled dot-product attention as PyTorch's CPU flash kernel records it (one node for the whole product) ---
# P = softmax(scale * Q K^T + mask), out = P V. Gradients: dV = P^T g, dP = g V^T, dS = P * (dP - rowsum(dP * P)),
# dQ = scale * dS K, dK = scale * dS^T Q. (A formula recomputes P: the kernel keeps only its log-sum-exp.)

def _attention_probabilities(q, k, n):
    s = (q @ dual.transpose(k, -2, -1)) * n.scale
    if n.attn_mask is not None:
        s = s + dual.like(s, n.attn_mask)       # (under create_graph s is a Tensor: the mask as a constant one)
    if isinstance(s, np.ndarray):
        return OPS["softmax"].forward(s, s.ndim - 1)
    return s.softmax(-1)


def _attention_score_grad(g, n):
    """dS: the gradient of the scaled scores (before the softmax)."""
    p = _attention_probabilities(n.query, n.key, n)
    dp = g @ dual.transpose(n.value, -2, -1)
    return p * (dp - dual.sum_keepdim(dp * p, (-1,)))


def _flash_grads(grad_out, query, key, value, attn_mask, scale):
    """(dQ, dK, dV) on numpy arrays: the formulas below."""
    class Node:
        pass
    n = Node()
    n.query, n.key, n.value, n.attn_mask, n.scale = query, key, value, attn_mask, scale
    ds = _attention_score_grad(grad_out, n)
    return ((ds @ key) * scale, (np.swapaxes(ds, -2, -1) @ query) * scale,
            np.swapaxes(_attention_probabilities(query, key, n), -2, -1) @ grad_out)


_FLASH_BACKWARD = "_scaled_dot_product_flash_attention_for_cpu_backward"


# with create_graph, PyTorch's gradients come from its backward kernel, which has no derivative (NotImplemented)
@op(_FLASH_BACKWARD, "NotImplemented", ("grad_out", "query", "key", "value"), promote=False, num_outputs=3,
    saved_params=(), shows={slot: f"derivative for aten::{_FLASH_BACKWARD} is not implemented"
                            for slot in ("grad_out", "query", "key", "value")},
    grad_out=_not_implemented(_FLASH_BACKWARD), query=_not_implemented(_FLASH_BACKWARD),
    key=_not_implemented(_FLASH_BACKWARD), value=_not_implemented(_FLASH_BACKWARD))
def _scaled_dot_product_flash_attention_for_cpu_backward(grad_out, query, key, value, attn_mask, scale):
    return _flash_grads(grad_out, query, key, value, attn_mask, scale)


def _flash_grad(i, formula):
    """The slot's gradient: formula on arrays; under create_graph output i of the NotImplemented node."""
    def grad(g, n):
        if _is_tensor(g, n.query, n.key, n.value):
            return OPS[_FLASH_BACKWARD](g, n.query, n.key, n.value, attn_mask=n.attn_mask, scale=n.scale)[i]
        return formula(g, n)
    return grad


@op("_scaled_dot_product_flash_attention_for_cpu", "ScaledDotProductFlashAttentionForCpuBackward0",
    ("query", "key", "value"), promote=False, saves=("query", "key", "value"),
    shows={"query": "(softmax(query @ key.mT * scale + (0 if attn_mask is None else attn_mask), -1) * (grad @ value.mT"
                    " - (softmax(query @ key.mT * scale + (0 if attn_mask is None else attn_mask), -1) * (grad @ value.mT))"
                    ".sum(-1, keepdim=True))) @ key * scale",
           "key": "(softmax(query @ key.mT * scale + (0 if attn_mask is None else attn_mask), -1) * (grad @ value.mT"
                  " - (softmax(query @ key.mT * scale + (0 if attn_mask is None else attn_mask), -1) * (grad @ value.mT))"
                  ".sum(-1, keepdim=True))).mT @ query * scale",
           "value": "softmax(query @ key.mT * scale + (0 if attn_mask is None else attn_mask), -1).mT @ grad"},
    query=_flash_grad(0, lambda g, n: (_attention_score_grad(g, n) @ n.key) * n.scale),
    key=_flash_grad(1, lambda g, n: (dual.transpose(_attention_score_grad(g, n), -2, -1) @ n.query) * n.scale),
    value=_flash_grad(2, lambda g, n: dual.transpose(_attention_probabilities(n.query, n.key, n), -2, -1) @ g))
def _scaled_dot_product_flash_attention_for_cpu(query, key, value, attn_mask, scale):
    dtype = query.dtype
    t = np.float32 if dtype == np.float16 else dtype
    q, k, v = (a.astype(t, copy=False) for a in (query, key, value))
    s = np.matmul(q, np.swapaxes(k, -2, -1)) * t.type(scale)
    if attn_mask is not None:
        s = s + attn_mask.astype(t, copy=False)
    p = OPS["softmax"].forward(s, s.ndim - 1)
    return np.matmul(p, v).astype(dtype, copy=False)


# --- torch.native_dropout: the mask and its scale are parameters (nn/_functional/native.py draws them) -----
@op("native_dropout_scaled", "NativeDropoutBackward0", shows={"self": "grad * mask * grad_scale"},
    self=lambda g, n: g * dual.like(g, (n.mask * n.grad_scale).astype(dual.data(g).dtype)))
def native_dropout_scaled(self, mask, scale, grad_scale):
    return (self * mask * self.dtype.type(scale)).astype(self.dtype, copy=False)


# at::norm(x, p) over every element (norm_except_dim with dim=-1): the same norm under NormBackward0
@op("norm_p_all", "NormBackward0", saves=("self", "result"), float_result=True, cast_result=False, self=_norm_grad,
    shows={"self": f"self * abs(self) ** (p - 2) * {_G} / {_R} ** (p - 1) if abs(p) != float('inf')"
                   f" else sign(self) * (abs(self) == {_R}) * {_G} / (abs(self) == {_R}).sum(dim, keepdim=True)"})
def norm_p_all(self, p, dim=None, keepdim=False):
    return OPS["norm"].forward(self, p, dim, keepdim)


# torch.native_channel_shuffle: channel_shuffle's values; PyTorch gives it no derivative (a NotImplemented node)
@op("channel_shuffle_no_derivative", "NotImplemented", ("self",), promote=False, saved_params=(),
    shows={"self": "derivative for aten::native_channel_shuffle is not implemented"},
    self=_not_implemented("native_channel_shuffle"))
def channel_shuffle_no_derivative(self, groups):
    return OPS["channel_shuffle"].forward(self, groups)
