"""Optimizer: the bookkeeping shared by SGD and Adam (parameter groups, state, zero_grad, state_dict).

Each group is a dict holding its 'params' list and its hyper-parameters (torch's keys, in torch's
order), so `opt.param_groups[0]["lr"] = 0.01` changes the learning rate as in PyTorch. `state` maps a
parameter to its buffers (momentum, Adam's moments). The updates themselves (in the subclasses)
are a few in-place numpy operations per parameter, done without recording a graph.
"""
import copy
from collections import defaultdict

import numpy as np

from .. import _dtype
from .._functions.misc import typename
from ..autograd import grad_mode
from ..ops.arithmetic import plus_scaled
from ..ops.vectorized import exact_fma, fma64
from ..tensor import Tensor, _type_name
from ..nn.parameter import zero_grads
from .. import _warnings


class _Required:
    def __repr__(self):
        return "<required parameter>"


required = _Required()


class Optimizer:
    _GROUP_DEFAULTS = {}
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got torch.{params.dtype._legacy}")
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        # torch fills in the caller's dict itself: its keys keep their order, missing defaults come last
        group = param_group
        params = group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering "
                            "of tensors in sets will change between runs. Please use a list instead.")
        else:
            params = list(params)
        # named_parameters() gives (name, tensor) pairs: torch keeps the names as 'param_names'
        names = [p[0] for p in params if isinstance(p, tuple)]
        params = [p[1] if isinstance(p, tuple) else p for p in params]
        group["params"] = params
        if names:
            if len(names) != len(params):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            group["param_names"] = names
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {typename(p)}")
            if not self.defaults.get("differentiable", None) and not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for key, default in self.defaults.items():
            if default is required and key not in group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {key}")
            group.setdefault(key, default)
        if len({id(p) for p in params}) != len(params):
            _warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will "
                           "cause an error; see github.com/pytorch/pytorch/issues/40967 for more information",
                           UserWarning)
        seen = set()
        for other in self.param_groups:
            seen.update(id(p) for p in other["params"])
            if ("param_names" in group) != ("param_names" in other):
                which = "with names" if "param_names" in group else "without names"
                raise ValueError(f"all optimizer param groups should be with/without names. cannot add param "
                                 f"group {which} to the optimizer")
        if any(id(p) in seen for p in params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none=True):
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            with grad_mode.enable_grad():
                loss = closure()
        with grad_mode.no_grad():
            for group in self.param_groups:
                if self._keeps_state(group) and type(self)._init_state is not Optimizer._init_state:
                    # torch sets up the state of a whole group before its first update (its _init_group)
                    for p in group["params"]:
                        if p._grad is not None and not self.state[p]:
                            self._init_state(p, group, self.state[p])
                for p in group["params"]:
                    if p._grad is not None:
                        # (a state entry only when the update keeps one: torch's plain SGD has none)
                        state = self.state[p] if self._keeps_state(group) else None
                        if self._COMPLEX_AS_REAL and p._data.dtype.kind == "c":
                            self._update_complex(p, group, state)
                        else:
                            self._update(p, p._grad._data, group, state)
                        p._version_counter[0] += 1
        return loss

    # torch's updates (all but SGD's) take a complex parameter as pairs of real numbers (torch.view_as_real of
    # the parameter, its gradient and its buffers), so that |grad|, sqrt, max, sign work on each part
    _COMPLEX_AS_REAL = True

    def _update_complex(self, p, group, state):
        if not state:
            self._init_state(p, group, state)        # (complex buffers, as torch keeps them)
        real = {k: Tensor._make(_as_real(v._data)) if isinstance(v, Tensor) and v._data.dtype.kind == "c" else v
                for k, v in state.items()}
        grad = p._grad._data
        self._update(_RealView(p), _as_real(grad if grad.flags.c_contiguous else grad.copy()), group, real)

    def _init_state(self, p, group, state):
        """Fill a parameter's empty state (its buffers in the parameter's dtype)."""
        raise NotImplementedError

    def _keeps_state(self, group):
        """Whether the update keeps per-parameter buffers for this group (it gets None when not)."""
        return True

    def _update(self, p, grad, group, state):
        """Change p._data in place from its gradient (numpy array); subclasses implement it."""
        raise NotImplementedError

    # --- state_dict -------------------------------------------------------------------------------
    def state_dict(self):
        """{'state': {index: buffers}, 'param_groups': [hyper-parameters with 'params': [indices]]}."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: s for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        state_dict = copy.deepcopy(state_dict)
        saved = state_dict["param_groups"]
        if len(saved) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        by_index = {}
        for group, saved_group in zip(self.param_groups, saved):
            for i, p in zip(saved_group["params"], group["params"]):
                by_index[i] = p
        self.state = defaultdict(dict)
        for i, buffers in state_dict["state"].items():
            p = by_index.get(i)
            if p is None:
                continue
            self.state[p] = {k: _cast_like(v, p, k) for k, v in buffers.items()}
        # torch takes the saved groups as they are (with this optimizer's tensors), then fills in the
        # options an older state dict may lack (_GROUP_DEFAULTS, its __setstate__)
        groups = []
        for group, saved_group in zip(self.param_groups, saved):
            saved_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved_group:
                saved_group["param_names"] = group["param_names"]
            for key, value in self._GROUP_DEFAULTS.items():
                saved_group.setdefault(key, value)
            groups.append(saved_group)
        self.param_groups = groups

    def __getstate__(self):
        return self.__dict__

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"


def _cast_like(value, p, key):
    """State buffers follow the parameter's dtype, except the step counter (as in torch)."""
    if isinstance(value, Tensor) and key != "step" and value._data.dtype.kind == "f":
        return Tensor._make(value._data.astype(p._data.dtype))
    return value


def _new_step():
    """A state's 'step' counter: a 0-d tensor of PyTorch's _get_scalar_dtype(), float64 when the default dtype is
    float64 (torch.set_default_dtype(torch.float64)), float32 otherwise."""
    return Tensor._make(np.zeros((), np.float64 if _dtype.default_np() == np.float64 else np.float32))


def _check(condition, message):
    if not condition:
        raise ValueError(message)


def _lerp(buffer, end, weight):
    """buffer.lerp_(end, weight) in place, with torch's two formulas (the one that is exact at each end)."""
    dtype = buffer.dtype.type
    if abs(weight) < 0.5:           # (PyTorch's kernel: fmadd(weight, end - self, self), one rounding)
        buffer[...] = _add_scaled(buffer, end - buffer, weight)
    else:                           # fmadd(weight - 1, end - self, end): weight - 1 in the dtype (exact there)
        buffer[...] = _add_scaled(end, end - buffer, float(dtype(weight) - dtype(1)))


def _check_tensor_lr(lr):
    if isinstance(lr, Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")


def _addcdiv(data, tensor1, tensor2, value):
    """data.addcdiv_(tensor1, tensor2, value=value) in place: PyTorch's kernel computes
    self + value * tensor1 / tensor2 left to right, value in the tensor's dtype (three roundings)."""
    data += data.dtype.type(value) * tensor1 / tensor2


def _check_betas(betas):
    _check(0.0 <= betas[0] < 1.0, f"Invalid beta parameter at index 0: {betas[0]}")
    _check(0.0 <= betas[1] < 1.0, f"Invalid beta parameter at index 1: {betas[1]}")


def _add_scaled(a, b, alpha):
    """a.add(b, alpha=alpha) as PyTorch's kernel computes it: one fused multiply-add, one rounding. float64's
    fma is built from exact pieces (ops.vectorized.fma64): numpy's long double, which plus_scaled uses, rounds
    twice for about 1 number in 10,000, and an optimizer's weights drift apart from there."""
    if np.result_type(a, b) == np.float64:
        a, b = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64))
        if a.ndim == 0:                 # (fma64 works on arrays of at least one dimension)
            return np.asarray(exact_fma(float(alpha), float(b), float(a)))
        return fma64(np.float64(alpha), b, a)
    return plus_scaled(a, b, alpha)


def _sqrt(x):
    """x.sqrt() of a buffer, correctly rounded: what PyTorch's MKL kernel gives on Intel CPUs; on other CPUs its
    last bit differs for some numbers (tests/machine.py). One name, so a test can put torch's own in its place."""
    return np.sqrt(x)


_CAPTURABLE_DEVICES = "['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']"


def _check_capturable(group, tensors="params and state_steps", foreach_tensors=None, foreach_xla=False, xla=True):
    """capturable=True keeps the state on the accelerator for CUDA graphs; torch's step refuses CPU tensors.
    With foreach=True torch's multi-tensor code checks instead: first that differentiable is off, then the
    devices, in its own words (most leave XLA out of the list)."""
    if group["foreach"]:
        _check_foreach_differentiable(group)
        if group["capturable"]:
            devices = _CAPTURABLE_DEVICES if foreach_xla else _CAPTURABLE_DEVICES.replace(", 'xla'", "")
            raise AssertionError(f"If capturable=True, {foreach_tensors or tensors} must be on supported devices: "
                                 f"{devices}.")
    elif group["capturable"]:
        devices = _CAPTURABLE_DEVICES if xla else _CAPTURABLE_DEVICES.replace(", 'xla'", "")
        raise AssertionError(f"If capturable=True, {tensors} must be on supported devices: {devices}.")


def _check_foreach_differentiable(group):
    if group["foreach"] and group["differentiable"]:
        raise AssertionError("_foreach ops don't support autograd")


def _check_differentiable(p, group):
    """differentiable=True runs the step with gradients recorded, so torch's in-place change of a leaf
    parameter that requires grad is refused, as anywhere else."""
    if group["differentiable"] and p.requires_grad and p.is_leaf:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def _as_real(a):
    """torch.view_as_real on an array: the same memory seen as (..., 2) real numbers (writes go through)."""
    return a[..., None].view(a.real.dtype)


class _RealView:
    """A complex parameter as the update sees it: its numbers as real pairs, its version counter and flags."""

    def __init__(self, p):
        self._data = _as_real(p._data)
        self._version_counter = p._version_counter
        self.requires_grad, self.is_leaf = p.requires_grad, p.is_leaf


def _decay_before_view(p, grad, wd):
    """grad.add(param, alpha=weight_decay) where torch decays before viewing a complex parameter as real pairs
    (Adam, RMSprop, Adagrad, Adadelta, Adamax): fused for real numbers; torch's complex kernel multiplies, then
    adds (two roundings)."""
    if isinstance(p, _RealView):
        return grad + p._data.dtype.type(wd) * p._data
    return _add_scaled(grad, p._data, wd)
