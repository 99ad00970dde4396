"""Adagrad: torch's single-tensor formulas (accumulated squares, lr decay), in numpy."""
import numpy as np

from ..ops.arithmetic import addcmul_arrays
from ..tensor import Tensor
from .optimizer import (Optimizer, _check, _check_differentiable, _check_foreach_differentiable, _check_tensor_lr,
                        _decay_before_view, _new_step, _sqrt)

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    _GROUP_DEFAULTS = dict(foreach=None, maximize=False, differentiable=False, fused=None)

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _check_tensor_lr(lr)
        _check(0.0 <= lr, f"Invalid learning rate: {lr}")
        _check(0.0 <= lr_decay, f"Invalid lr_decay value: {lr_decay}")
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        _check(0.0 <= initial_accumulator_value,
               f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        # torch fills every parameter's state at construction (step 0, sum = initial_accumulator_value)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, group, self.state[p])

    def _init_state(self, p, group, state):
        state["step"] = _new_step()
        state["sum"] = Tensor._make(np.full_like(p._data, group["initial_accumulator_value"]))

    def _update(self, p, grad, group, state):
        dtype = p._data.dtype.type
        data = p._data
        if not state:       # (a group added later with add_param_group)
            self._init_state(p, group, state)
        _check_foreach_differentiable(group)
        state["step"]._data += 1
        step = float(state["step"]._data)
        if group["maximize"]:
            grad = -grad
        wd = group["weight_decay"]
        if wd != 0:
            grad = _decay_before_view(p, grad, wd)              # grad.add(param, alpha=weight_decay): one rounding
        clr = float(group["lr"]) / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]._data
        total[...] = addcmul_arrays(total, grad, grad, 1)   # state_sum.addcmul_(grad, grad, value=1)
        std = _sqrt(total)
        std += dtype(group["eps"])
        _check_differentiable(p, group)
        data -= dtype(clr) * grad / std                     # param.addcdiv_(grad, std, value=-clr)
