"""Adamax: Adam with an infinity norm in place of the squared average; torch's single-tensor formulas."""
import numpy as np

from ..tensor import Tensor
from .optimizer import (Optimizer, _addcdiv, _check, _check_betas, _check_capturable, _check_differentiable,
                        _check_tensor_lr, _decay_before_view, _lerp, _new_step)

__all__ = ["Adamax"]


class Adamax(Optimizer):
    _GROUP_DEFAULTS = dict(foreach=None, maximize=False, differentiable=False, capturable=False)

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check_tensor_lr(lr)
        _check(0.0 <= lr, f"Invalid learning rate: {lr}")
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check_betas(betas)
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, p, group, state):
        data = p._data
        state["step"] = _new_step()
        state["exp_avg"] = Tensor._make(np.zeros_like(data))
        state["exp_inf"] = Tensor._make(np.zeros_like(data))

    def _update(self, p, grad, group, state):
        dtype = p._data.dtype.type
        data = p._data
        if not state:
            self._init_state(p, group, state)
        _check_capturable(group)
        lr, (beta1, beta2), eps, wd = float(group["lr"]), group["betas"], group["eps"], group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        if wd != 0:
            grad = _decay_before_view(p, grad, wd)              # grad.add(param, alpha=weight_decay): one rounding
        exp_avg, exp_inf = state["exp_avg"]._data, state["exp_inf"]._data
        _lerp(exp_avg, grad, 1 - beta1)                     # exp_avg.lerp_(grad, 1 - beta1)
        exp_inf *= dtype(beta2)                             # max(exp_inf * beta2, |grad| + eps)
        np.maximum(exp_inf, np.abs(grad) + dtype(eps), out=exp_inf)
        clr = lr / (1 - beta1 ** float(state["step"]._data))
        _check_differentiable(p, group)
        _addcdiv(data, exp_avg, exp_inf, -clr)              # param.addcdiv_(exp_avg, exp_inf, value=-clr)
