"""Adadelta: torch's single-tensor formulas (square averages of gradients and of updates), in numpy."""
import numpy as np

from ..ops.arithmetic import addcmul_arrays
from ..tensor import Tensor
from .optimizer import (Optimizer, _add_scaled, _check, _check_capturable, _check_differentiable, _check_tensor_lr,
                        _decay_before_view, _new_step, _sqrt)

__all__ = ["Adadelta"]


class Adadelta(Optimizer):
    _GROUP_DEFAULTS = dict(foreach=None, maximize=False, differentiable=False, capturable=False)

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _check_tensor_lr(lr)
        _check(0.0 <= lr, f"Invalid learning rate: {lr}")
        _check(0.0 <= rho <= 1.0, f"Invalid rho value: {rho}")
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, capturable=capturable,
                        foreach=foreach, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, p, group, state):
        data = p._data
        state["step"] = _new_step()
        state["square_avg"] = Tensor._make(np.zeros_like(data))
        state["acc_delta"] = Tensor._make(np.zeros_like(data))

    def _update(self, p, grad, group, state):
        dtype = p._data.dtype.type
        data = p._data
        if not state:
            self._init_state(p, group, state)
        _check_capturable(group, xla=False)
        lr, rho, eps, wd = float(group["lr"]), group["rho"], group["eps"], group["weight_decay"]
        state["step"]._data += 1
        if group["maximize"]:
            grad = -grad
        if wd != 0:
            grad = _decay_before_view(p, grad, wd)          # grad.add(param, alpha=weight_decay): one rounding
        square_avg, acc_delta = state["square_avg"]._data, state["acc_delta"]._data
        square_avg *= dtype(rho)                            # square_avg.mul_(rho).addcmul_(grad, grad, 1 - rho)
        square_avg[...] = addcmul_arrays(square_avg, grad, grad, 1 - rho)
        std = _sqrt(square_avg + dtype(eps))
        delta = _sqrt(acc_delta + dtype(eps))
        delta /= std                                        # delta.div_(std).mul_(grad)
        delta *= grad
        acc_delta *= dtype(rho)                             # acc_delta.mul_(rho).addcmul_(delta, delta, 1 - rho)
        acc_delta[...] = addcmul_arrays(acc_delta, delta, delta, 1 - rho)
        _check_differentiable(p, group)
        data[...] = _add_scaled(data, delta, -lr)    # param.add_(delta, alpha=-lr): one rounding
