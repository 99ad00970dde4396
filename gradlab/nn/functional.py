"""gradlab.nn.functional: the functions behind the layers and losses, in torch's names.

Each function checks its input the way PyTorch does (same exception type and message), then
runs ops from the op table, so the graph shows PyTorch's node names: `linear` gives
AddmmBackward0, `cross_entropy` gives NllLossBackward0 -> LogSoftmaxBackward0, and so on.
"""
import math

import numpy as np

from .. import random as _random
from .._dtype import promote_types as _promote_types
from ..autograd import grad_mode as _grad_mode
from .._argparse import type_name as _argparse_type_name, wrapped as _wrapped
from .._argparse.wrappers import _vetter
from .._signatures import CALLED as _CALLED, NN as _NN, TORCH as _TORCH
from .._functions.statistics import pdist as _pdist
from ..ops.linalg import column_major as _column_major
from ..ops.registry import OPS as _OPS
from ..ops.summation import cascade_sum as _cascade_sum
from ..tensor import Tensor, _type_name
from ..tensor import broadcast_error as _broadcast_error, matmul as _matmul
from .. import _warnings

_SCALAR_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
                 "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
                 "void32": "ComplexHalf", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _scalar_name(t):
    """PyTorch's C++ name of a dtype, as error messages print it ('Float', 'Long')."""
    return _SCALAR_NAMES.get(t._data.dtype.name, t._data.dtype.name)


def _tensor_arg(name, value, arg="input", position=1):
    """PyTorch's C++ functions refuse a non-tensor argument with this TypeError (one isinstance when fine)."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {_type_name(value)}")


def _no_requires_grad(name, value, arg):
    """An argument PyTorch's op has no derivative for (a loss's class weights, soft_margin_loss's target): with
    grad mode on, one that requires grad is refused before the op runs (its check_no_requires_grad), never
    given a silent zero gradient."""
    if value is not None and value.requires_grad and _grad_mode._state["enabled"]:
        raise RuntimeError(f"The function '{name}' is not differentiable with respect to argument '{arg}'. This "
                           "input cannot have requires_grad True.")


def _number_arg(name, value, arg, position):
    """A Scalar argument of PyTorch's C++ functions (elu's alpha, leaky_relu's negative_slope): a
    number, checked before anything else."""
    if not isinstance(value, (int, float, np.number)):      # (a bool is a number too)
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Number, "
                        f"not {_argparse_type_name(value)}")


def _check_reduction(reduction):
    """torch's _Reduction.get_enum: the valid names, and the old 'elementwise_mean' (a warning, then 'mean')."""
    if reduction in ("mean", "sum", "none"):
        return reduction
    if reduction == "elementwise_mean":
        _warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
                       UserWarning)
        return "mean"
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _legacy_reduction(size_average, reduce, emit_warning=True):
    """torch's _Reduction.legacy_get_string: the pre-1.0 size_average/reduce flags as a reduction name."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    if emit_warning:
        _warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
                       "instead.", UserWarning)
    return reduction


def _reduction(size_average, reduce, reduction):
    """The reduction a loss uses: the legacy flags win when either is given (as in torch), then validated."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    return _check_reduction(reduction)


def _warn_target_size(input, target):
    """torch's regression losses warn when target.size() != input.size() (broadcasting may be unintended).
    Calling .size() on both, as torch does, also gives torch's error for a list or a number."""
    if target.size() != input.size():
        _warnings.warn(f"Using a target size ({target.size()}) that is different to the input size "
                       f"({input.size()}). This will likely lead to incorrect results due to broadcasting. "
                       "Please ensure they have the same size.", UserWarning)
        return True
    return False


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
    _tensor_arg("linear", input)
    _tensor_arg("linear", weight, "weight", 2)
    if bias is not None:
        _tensor_arg("linear", bias, "bias", 3)
    nd, wd = input._data.ndim, weight._data.ndim
    if nd == 0 or wd == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are {nd}D and {wd}D")
    if wd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {wd}D")
    if bias is not None:    # addmm's dtype checks come before the shapes: the bias's, then the input's
        if bias._data.dtype != weight._data.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got {_scalar_name(bias)} and "
                               f"{_scalar_name(weight)}")
        if input._data.dtype != weight._data.dtype:
            raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_scalar_name(input)} and "
                               f"{_scalar_name(weight)}")
    if wd == 1:         # a vector of weights: torch computes matmul(input, weight) (+ bias)
        out = _matmul(input, weight)
        return out if bias is None else out + bias
    if nd >= 3 and not input.is_contiguous():
        # torch folds only a contiguous input into addmm; otherwise matmul (bmm's checks) then add_
        out = _matmul(input, weight.t())
        return out if bias is None else out.add_(bias)
    out_features, in_features = weight._data.shape
    rows = math.prod(input._data.shape[:-1])
    cols = input._data.shape[-1]
    if cols != in_features:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{cols} and "
                           f"{in_features}x{out_features})")
    if bias is None:
        return _matmul(input, weight.t())
    b = bias._data.shape
    if nd != 2 and not b:
        # (a 0-d bias with an input not 2-d: PyTorch computes matmul, then add_ (AddBackward0))
        return _matmul(input, weight.t()).add_(bias)
    _check_bias_expands(bias._data.shape, (rows, out_features), nd)
    wt = weight.t()
    transposed = _column_major(wt)       # lets backward lay the weight's gradient out like the weight
    if input._data.ndim == 2:
        return _OPS["addmm"](bias, input, wt, mat1_transposed=_column_major(input), mat2_transposed=transposed)
    flat = input.reshape(rows, cols)
    out = _OPS["addmm"](bias, flat, wt, mat1_transposed=_column_major(flat), mat2_transposed=transposed)
    return out.view(input._data.shape[:-1] + (out_features,))


def _check_bias_expands(shape, target, input_ndim):
    """addmm expands the bias to (rows, out_features) first: torch's expand errors, not numpy's."""
    def dims(s):
        return "[" + ", ".join(map(str, s)) + "]"
    if input_ndim == 1 and len(shape) >= 2:
        # (a vector input with a bias of 2 or more dims, as PyTorch 2.13 answers: a (k, 1) bias fails addmm's
        # expand, a (1, out) one passes when out > 1, other 2-d ones and >2-d ones ending in 1 fail the in-place
        # add's broadcast, the rest addmm's expand)
        out = target[-1]
        if len(shape) == 2 and shape[1] not in (1, out):        # (add_'s broadcast of (out,) with the bias)
            raise RuntimeError(f"The size of tensor a ({out}) must match the size of tensor b ({shape[1]}) at "
                               "non-singleton dimension 1")
        if len(shape) == 2 and shape[1] == 1 and shape[0] != 1:
            raise RuntimeError(f"The expanded size of the tensor (1) must match the existing size ({shape[0]}) at "
                               f"non-singleton dimension 0.  Target sizes: {dims(target)}.  Tensor sizes: "
                               f"{dims(shape)}")
        if len(shape) == 2 and not (shape[0] == 1 and shape[1] == out != 1) or len(shape) > 2 and shape[-1] == 1:
            try:
                broadcast = np.broadcast_shapes(shape, (out,))
            except ValueError:
                broadcast = None
            if broadcast is not None:
                raise RuntimeError(f"output with shape [{out}] doesn't match the broadcast shape {dims(broadcast)}")
    if len(shape) > len(target):
        raise RuntimeError(f"expand(torch.FloatTensor{{{dims(shape)}}}, size={dims(target)}): the number of sizes "
                           f"provided ({len(target)}) must be greater or equal to the number of dimensions in the "
                           f"tensor ({len(shape)})")
    for i in range(1, len(shape) + 1):
        if shape[-i] not in (1, target[-i]):
            if input_ndim == 1 and len(shape) == 2 and shape[-1] in (1, target[-1]):
                raise RuntimeError(f"output with shape [{target[-1]}] doesn't match the broadcast shape "
                                   f"{dims((shape[0], target[-1]))}")
            raise RuntimeError(f"The expanded size of the tensor ({target[-i]}) must match the existing size "
                               f"({shape[-i]}) at non-singleton dimension {len(target) - i}.  Target sizes: "
                               f"{dims(target)}.  Tensor sizes: {dims(shape)}")


def relu(input, inplace=False):
    _tensor_arg("relu_" if inplace else "relu", input)
    return input.relu_() if inplace else input.relu()


def _float_only(kernel, input):
    """torch's activation kernels exist for floating types only (its NotImplementedError otherwise); silu's
    also for complex ones."""
    if input._data.dtype.kind != "f" and (kernel != "silu_cpu" or input._data.dtype.kind != "c"):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_scalar_name(input)}\'')


def leaky_relu(input, negative_slope=0.01, inplace=False):
    _tensor_arg("leaky_relu_" if inplace else "leaky_relu", input)
    _number_arg("leaky_relu_" if inplace else "leaky_relu", negative_slope, "negative_slope", 2)
    _float_only("leaky_relu_cpu", input)
    if inplace:         # torch records the in-place form as LeakyReluBackward1 (it saves the result)
        return input._inplace("leaky_relu_inplace", negative_slope=negative_slope)
    return _OPS["leaky_relu"](input, negative_slope=negative_slope)


def gelu(input, approximate="none"):
    _tensor_arg("gelu", input)
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    _float_only("GeluKernelImpl", input)
    return _OPS["gelu"](input) if approximate == "none" else _OPS["gelu_tanh"](input)


def softplus(input, beta=1.0, threshold=20.0):
    _tensor_arg("softplus", input)
    _float_only("softplus_cpu", input)
    return _OPS["softplus"](input, beta=beta, threshold=threshold)


def silu(input, inplace=False):
    _tensor_arg("silu_" if inplace else "silu", input)
    _float_only("silu_cpu", input)
    return input._inplace("silu") if inplace else _OPS["silu"](input)


def elu(input, alpha=1.0, inplace=False):
    _tensor_arg("elu_" if inplace else "elu", input)
    _number_arg("elu_" if inplace else "elu", alpha, "alpha", 2)
    _float_only("elu_cpu", input)
    if inplace:         # torch records the in-place form as EluBackward1 (it saves the result)
        return input._inplace("elu_inplace", alpha=alpha)
    return _OPS["elu"](input, alpha=alpha)


def tanh(input):
    return input.tanh()


def sigmoid(input):
    return input.sigmoid()


def _get_softmax_dim(name, ndim):
    _warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                   "dim=X as an argument.", UserWarning)
    return 0 if ndim in (0, 1, 3) else 1


# (_stacklevel is torch's third positional parameter: F.softmax(x, 1, torch.float64) is not a dtype; gradlab's
# warnings find the user's line themselves, so its value is not needed)
def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim())
    return input.softmax(dim, dtype=dtype)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("softmin", input.dim())
    return (-input).softmax(dim, dtype=dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim())
    # (without the keyword when there is none: the method's argument check takes its quick path)
    return input.log_softmax(dim) if dtype is None else input.log_softmax(dim, dtype=dtype)


def _in_memory_order(values, like):
    """values laid out as torch fills empty_like(like): its dims ordered by `like`'s strides (a
    transposed input is filled in its memory order, not row by row)."""
    if any(s == 0 and n > 1 for s, n in zip(like.strides, like.shape)):
        return values.reshape(like.shape)      # (an expanded input: torch's noise is row-major)
    order = sorted(range(like.ndim), key=lambda d: -like.strides[d])     # (stable: ties keep their order)
    return values.reshape([like.shape[d] for d in order]).transpose(np.argsort(order))


_VETTERS = {}


def _parsed(name, args, kwargs=None, table=_TORCH):
    """The C function torch.<name> that PyTorch's Python nn.functional hands its arguments to parses them:
    its TypeError (hinge_embedding_loss's margin=None), else the arguments as it reads them."""
    vet = _VETTERS.get(name)
    if vet is None:
        vet = _VETTERS[name] = _vetter(table[name])
    return vet(args, {} if kwargs is None else kwargs)


_vet_dropout = _vetter(_CALLED["dropout"])
_vet_dropout_ = _vetter(_CALLED["dropout_"])


def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability p and scale the rest by 1/(1-p) (MulBackward0).

    The mask is torch's: bernoulli(1 - p) draws one double u per element (u < 1 - p keeps it)
    from the default generator, so a seeded dropout zeroes the same elements as PyTorch's."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    # (then torch._VF.dropout(input, p, training) parses them: training='yes' is refused)
    input, p, training = (_vet_dropout_ if inplace else _vet_dropout)((input, p, training), {})[0]
    if not training or p == 0.0 or not input._data.size:    # (PyTorch's _dropout_impl: the input itself, no node)
        return input
    dtype = input._data.dtype
    if dtype.kind == "c" and p != 1.0:       # (the mask's bernoulli_ has no complex kernel; nothing is drawn)
        raise NotImplementedError(f'"bernoulli_scalar_cpu_" not implemented for \'{_scalar_name(input)}\'')
    if p == 1.0:
        mask = np.zeros_like(input._data)
    elif dtype.kind not in "fc":     # (the mask is scaled by 1 / (1 - p), a float: PyTorch draws it first)
        _random.default_generator._unit_f64(input._data.size)
        raise RuntimeError(f"result type Float can't be cast to the desired output type {_scalar_name(input)}")
    else:
        u = _random.default_generator._unit_f64(input._data.size)
        keep = _in_memory_order(u, input._data) < (1.0 - p)
        # noise.div_(1 - p): in the tensor's precision (half computes in float, then rounds)
        math_dtype = np.dtype(np.float32) if dtype == np.float16 else dtype
        mask = (keep.astype(math_dtype) / math_dtype.type(1.0 - p)).astype(dtype, copy=False)
    if inplace:
        return input._inplace("dropout_mask", Tensor._make(mask))
    return _OPS["dropout_mask"](input, Tensor._make(mask))


# --- losses -----------------------------------------------------------------------------------------
def _nll_checks(input, target):
    """PyTorch's checks, in its order (nll_loss_nd, then the kernel)."""
    nd, td = input._data.ndim, target._data.ndim
    if nd < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {nd})")
    if nd != 1:
        batch = target._data.shape[0] if td else 0      # (torch reads a 0-d target's batch size as 0)
        if input._data.shape[0] != batch:
            raise ValueError(f"Expected input batch_size ({input._data.shape[0]}) to match target batch_size "
                             f"({batch}).")
    if nd > 2:
        _spatial_checks(input._data.shape, target._data.shape)
    elif target._data.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if target._data.dtype not in (np.int64, np.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_scalar_name(target)}")
    if nd == 2 and not td:      # (an empty batch with a 0-d target gets this far)
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if nd == 1 and td == 1 and target._data.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target._data.shape[0]}")


def _spatial_checks(shape, target_shape):
    """K-dimensional inputs (N, C, d1, ...): the target must be (N, d1, ...)."""
    def dims(s):
        return "[" + ", ".join(map(str, s)) + "]"
    expected = shape[:1] + shape[2:]
    if len(shape) == 4:         # torch's 2-d kernel checks these itself
        if len(target_shape) != 3:
            raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got targets of "
                               f"dimension: {len(target_shape)}")
        if target_shape != expected:
            raise RuntimeError(f"size mismatch (got input: {dims(shape)} , target: {dims(target_shape)}")
    elif target_shape != expected:
        raise RuntimeError(f"Expected target size {dims(expected)}, got {dims(target_shape)}")


def _class_weight(name, weight, input):
    """The weight of each class: a Tensor (torch refuses a list); its shape and dtype are checked later."""
    if weight is not None:
        _tensor_arg(name, weight, "weight", 3)
    return weight


def _check_weight_shape(weight, classes, prefix=""):
    if weight is not None and weight._data.shape != (classes,):
        raise RuntimeError(f"{prefix}weight tensor should be defined either for all {classes} classes or no "
                           f"classes but got weight tensor of shape: [{', '.join(map(str, weight._data.shape))}]")


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """Negative log-likelihood of class indices (NllLossBackward0)."""
    reduction = _reduction(size_average, reduce, reduction)
    _tensor_arg("nll_loss_nd", input)
    _tensor_arg("nll_loss_nd", target, "target", 2)
    weight = _class_weight("nll_loss_nd", weight, input)
    return _nll_loss(input, target, weight, ignore_index, reduction)


def _nll_loss(input, target, weight, ignore_index, reduction):
    _nll_checks(input, target)
    _no_requires_grad("nll_loss_forward" if input._data.ndim <= 2 else "nll_loss2d_forward", weight, "weight")
    classes = input._data.shape[1 if input._data.ndim > 1 else 0]
    # torch's order: the weight's shape, the input's dtype, the weight's dtype, then the targets' range
    if input._data.ndim > 2:
        if weight is not None and weight._data.shape != (classes,):
            raise RuntimeError("weight tensor should be defined either for all or no classes")
    else:
        _check_weight_shape(weight, classes)
    if input._data.dtype.kind != "f":
        raise NotImplementedError(f'"nll_loss_out_frame" not implemented for \'{_scalar_name(input)}\'')
    if weight is not None and weight._data.dtype != input._data.dtype:
        raise RuntimeError(f"expected scalar type {_scalar_name(input)} but found {_scalar_name(weight)}")
    t = target._data.astype(np.int64, copy=False)
    if input._data.ndim == 1:       # one sample: its target may be given as [c] (the loss is still 0-d)
        t = t.reshape(())
    # (ufunc reductions: np.min/np.any/np.sum add microseconds of Python around the same C loops)
    in_range = True
    if t.size and (np.minimum.reduce(t, axis=None) < 0 or np.maximum.reduce(t, axis=None) >= classes):
        in_range = False
        bad = (t != ignore_index) & ((t < 0) | (t >= classes))
        if np.logical_or.reduce(bad, axis=None):
            raise IndexError(f"Target {int(t[bad].reshape(-1)[0])} is out of bounds.")
    w = None if weight is None else weight._data
    if w is None and in_range and ignore_index < 0 and input._data.ndim <= 2:
        total = t.size              # (every target is a class: none is the ignored index)
    else:
        valid = t != ignore_index
        if w is None:
            total = np.count_nonzero(valid)
        else:                       # the targets' weights, added in the order of torch's kernel
            positions = np.flatnonzero(valid)
            total = _cascade_sum(w[t.reshape(-1)[positions]], positions, max(valid.size, 1))
    total_weight = input._data.dtype.type(total)
    if input._data.ndim > 2:
        return _nll_loss_nd(input, t, valid, w, reduction, total_weight)
    return _OPS["nll_loss"](input, target=t, weights=w, reduction=reduction, ignore_index=ignore_index,
                           total_weight=total_weight, self_sizes=input._data.shape)


def _nll_loss_nd(input, t, valid, w, reduction, total_weight):
    """(N, C, d1, ...) inputs: torch's 2-d kernel on (N, C, H, W); other ranks are viewed as 4-d first."""
    shape = input._data.shape
    if len(shape) != 4:
        input = input.view(shape[0], shape[1], -1, 1)
        t, valid = t.reshape(shape[0], -1, 1), valid.reshape(shape[0], -1, 1)
    loss = _OPS["nll_loss2d"](input, target=t, valid=valid, weights=w, reduction=reduction,
                             total_weight=total_weight, self_sizes=input._data.shape)
    if reduction == "none" and len(shape) != 4:
        loss = loss.view(shape[:1] + shape[2:])
    return loss


def _class_view(weight, input, class_dim):
    """weight reshaped to broadcast along input's class dimension: (1, C) for (N, C) input."""
    shape = [1] * input._data.ndim
    shape[class_dim] = input._data.shape[class_dim]
    return weight.view(*shape)


_vet_cross_entropy = _vetter(_CALLED["cross_entropy_loss"])


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None,
                  reduction="mean", label_smoothing=0.0):
    """log_softmax then nll_loss for class indices; -(target * log_softmax).sum for class probabilities."""
    reduction = _reduction(size_average, reduce, reduction)
    # (torch._C._nn.cross_entropy_loss parses them: label_smoothing=tensor, ignore_index=torch.float32 refused)
    _vet_cross_entropy((input, target, weight, {"mean": 1, "sum": 2}.get(reduction, 0), ignore_index,
                        label_smoothing), {})
    _tensor_arg("cross_entropy_loss", input)
    _tensor_arg("cross_entropy_loss", target, "target", 2)
    weight = _class_weight("cross_entropy_loss", weight, input)
    if label_smoothing > 1.0:       # (torch ignores a negative value)
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input._data.ndim == 1 else 1
    if input._data.shape == target._data.shape:     # class probabilities (torch's prob-target formula)
        if target._data.dtype.kind != "f":
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{_scalar_name(target)}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        classes = input._data.shape[class_dim]
        _check_weight_shape(weight, classes, "cross_entropy: ")
        logp = input.log_softmax(class_dim)
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        picked = logp * target
        if weight is not None:
            picked = picked * _class_view(weight, input, class_dim)
        if reduction == "mean":
            return _OPS["nn_div_by_number"](-picked.sum(), other=input._data.size // max(classes, 1))
        if reduction == "sum":
            return -picked.sum()
        return -picked.sum(class_dim)
    logp = input.log_softmax(class_dim)
    loss = _nll_loss(logp, target, weight, ignore_index, reduction)
    if label_smoothing <= 0:
        return loss
    # torch's label smoothing: mix the nll loss with the mean -log p over all classes
    ignore = Tensor._make(np.asarray(target._data == ignore_index))
    if weight is None:
        smooth = -logp.sum(class_dim)
    else:
        smooth = -(logp * _class_view(weight, input, class_dim)).sum(class_dim)
    smooth.masked_fill_(ignore, 0.0)
    if reduction == "mean":
        if weight is None:
            smooth = smooth.sum() / int((~ignore._data).sum())
        else:       # normalised by the weights of the counted targets, like nll_loss
            kept = target._data[~ignore._data].reshape(-1).astype(np.int64)
            smooth = smooth.sum() / weight.gather(0, Tensor._make(kept)).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    classes = input._data.shape[class_dim]
    return (1 - label_smoothing) * loss + smooth * (label_smoothing / classes)


def _loss_inputs(input, target, size_average, reduce, reduction):
    """torch's regression losses: the size warning, the legacy flags, then both sides broadcast (torch's
    error if they can't). Returns (reduction, whether the shapes differ)."""
    broadcast = _warn_target_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    if broadcast:
        try:
            np.broadcast_shapes(input._data.shape, target._data.shape)
        except ValueError:
            raise _broadcast_error(input._data.shape, target._data.shape) from None
    return reduction, broadcast


def _broadcast_tensors(input, target):
    """torch.broadcast_tensors: both expanded to one shape (so a 0-d operand no longer counts as a
    'scalar' in type promotion: float32 (2, 3) against a float64 0-d target gives float64)."""
    shape = np.broadcast_shapes(input._data.shape, target._data.shape)
    # (a tensor already of that shape comes back itself, not as an ExpandBackward0 view, as in PyTorch)
    return (input if input._data.shape == shape else input.expand(shape),
            target if target._data.shape == shape else target.expand(shape))


def _weighted(name, input, target, weight, reduction, power):
    """torch's mse_loss/l1_loss with weight=: computed from ops, sum(w * e) / sum(w) for 'mean'."""
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    err = (input - target) ** 2 if power == 2 else (input - target).abs()
    err = err * weight
    if reduction == "none":
        return err
    if reduction == "sum":
        return err.sum()
    if reduction == "mean":
        return err.sum() / weight.sum()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or sum) of squared differences (MseLossBackward0)."""
    reduction, broadcast = _loss_inputs(input, target, size_average, reduce, reduction)
    if broadcast:
        input, target = _broadcast_tensors(input, target)
    if weight is not None:
        return _weighted("mse_loss", input, target, weight, reduction, 2)
    reduction = _check_reduction(reduction)
    common = np.result_type(input._data, target._data)
    if common.kind not in "f":          # (PyTorch's kernel is real-only: complex pairs too are refused)
        name = _scalar_name(input if input._data.dtype.kind == common.kind else target) if common.kind != "c" else \
            _SCALAR_NAMES[_promote_types(input.dtype, target.dtype).np.name]      # (Long with ComplexFloat: ComplexFloat)
        raise NotImplementedError(f'"mse_cpu" not implemented for \'{name}\'')
    count = input._data.size
    return _OPS["mse_loss"](input, target, reduction=reduction, count=count if reduction == "mean" else 1)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """Mean (or sum) of absolute differences, recorded as torch records it (SubBackward0, AbsBackward0)."""
    reduction, broadcast = _loss_inputs(input, target, size_average, reduce, reduction)
    if broadcast:
        input, target = _broadcast_tensors(input, target)
    if weight is not None:
        return _weighted("l1_loss", input, target, weight, reduction, 1)
    reduction = _check_reduction(reduction)
    d = (input - target).abs()
    return d.mean() if reduction == "mean" else d.sum() if reduction == "sum" else d


def _weight_array(weight, input, name=None):
    """weight broadcast to input's shape, as an array of input's dtype (torch's broadcast error if it can't)."""
    if weight is None:
        return None
    w = weight._data
    try:
        np.broadcast_shapes(w.shape, input._data.shape)
    except ValueError:
        raise _broadcast_error(input._data.shape, w.shape) from None
    return np.broadcast_to(w, input._data.shape).astype(input._data.dtype)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """-(y log x + (1 - y) log(1 - x)) for probabilities x (BinaryCrossEntropyBackward0)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    reduction = _check_reduction(reduction)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size "
                         f"({input.size()}) is deprecated. Please ensure they have the same size.")
    if weight is not None:
        shape = weight.size()       # (torch's AttributeError for a list)
        try:
            np.broadcast_shapes(target._data.shape, tuple(shape))
        except ValueError:
            raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[-1]} at -1! Mismatching "
                               f"argument at index 1 had {shape}; but expected shape should be broadcastable to "
                               f"[{', '.join(map(str, target._data.shape))}]") from None
    _tensor_arg("binary_cross_entropy", input)
    _tensor_arg("binary_cross_entropy", target, "target", 2)
    _no_requires_grad("binary_cross_entropy", weight, "weight")
    if target._data.dtype != input._data.dtype:
        raise RuntimeError(f"Found dtype {_scalar_name(target)} but expected {_scalar_name(input)}")
    if input._data.dtype.kind not in "f":
        raise NotImplementedError(f'"binary_cross_entropy" not implemented for \'{_scalar_name(input)}\'')
    x, y = input._data, target._data
    bad_x, bad_y = ~((x >= 0) & (x <= 1)), ~((y >= 0) & (y <= 1))        # (nan is outside too)
    if np.logical_or.reduce(bad_x | bad_y, axis=None):
        # the kernel checks element by element, the input's value then the target's: the first bad one speaks
        first = np.flatnonzero(bad_x | bad_y)[0]
        which = "input" if bad_x.reshape(-1)[first] else "target"
        raise RuntimeError(f"all elements of {which} should be between 0 and 1")
    return _OPS["binary_cross_entropy"](input, target, weight=_weight_array(weight, input), reduction=reduction,
                                       count=_count(reduction, input))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """binary_cross_entropy(sigmoid(x), y), computed stably (BinaryCrossEntropyWithLogitsBackward0)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy_reduction(size_average, reduce)
    reduction = _check_reduction(reduction)
    if not (target.size() == input.size()):
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    name = "binary_cross_entropy_with_logits"
    _tensor_arg(name, input)
    _tensor_arg(name, target, "target", 2)
    if weight is not None:
        _tensor_arg(name, weight, "weight", 3)
    if pos_weight is not None:
        _tensor_arg(name, pos_weight, "pos_weight", 4)
    _no_requires_grad(name, weight, "weight")
    _no_requires_grad(name, pos_weight, "pos_weight")
    if target._data.dtype.kind == "b" and input._data.dtype.kind == "f":
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if target._data.dtype.kind != "f" and input._data.dtype.kind == "f":
        raise RuntimeError(f"result type {_scalar_name(input)} can't be cast to the desired output type "
                           f"{_scalar_name(target)}")
    if input._data.dtype.kind not in "f":
        raise NotImplementedError(f'"log_sigmoid_cpu" not implemented for \'{_scalar_name(input)}\'')
    half_input = input._data.dtype == np.float16 and target._data.dtype != np.float16
    if input._data.dtype != target._data.dtype:
        # torch computes (1 - target).mul_(input)...: the loss has the target's dtype
        input = input.to(target.dtype)
    if pos_weight is not None:      # (torch broadcasts pos_weight against the target first)
        try:
            np.broadcast_shapes(pos_weight._data.shape, target._data.shape)
        except ValueError:
            raise _broadcast_error(pos_weight._data.shape, target._data.shape) from None
    w = _weight_array(weight, input)
    count = _count(reduction, input)
    if pos_weight is None:
        return _OPS["binary_cross_entropy_with_logits"](input, target, weight=w, reduction=reduction, count=count,
                                                        half_input=half_input)
    pw = np.broadcast_to(pos_weight._data, input._data.shape).astype(input._data.dtype)
    return _OPS["binary_cross_entropy_with_logits_pos_weight"](input, target, weight=w, pos_weight=pw,
                                                       reduction=reduction, count=count, half_input=half_input)


# the rest of nn.functional, by topic (gradlab/nn/_functional)
from ._functional.conv import *  # noqa: E402,F401,F403
from ._functional.normalization import *  # noqa: E402,F401,F403
from ._functional.loss import *  # noqa: E402,F401,F403
from ._functional.activation import *  # noqa: E402,F401,F403
from ._functional.vision import *  # noqa: E402,F401,F403
from ._functional.attention import *  # noqa: E402,F401,F403
from ._functional.sampling import *  # noqa: E402,F401,F403
from ._functional.native import native_channel_shuffle as _native_channel_shuffle  # noqa: E402

# PyTorch's argument errors for the functions it writes in C (gradlab/_argparse): bound by this module itself
globals().update(_wrapped(globals(), _NN))

# F.pdist and F.native_channel_shuffle are torch.pdist and torch.native_channel_shuffle, with their argument errors
globals().update(_wrapped({"pdist": _pdist, "native_channel_shuffle": _native_channel_shuffle}, _TORCH))
