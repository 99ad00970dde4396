"""RAdam: Adam with the variance rectification (plain momentum steps while rho_t <= 5); torch's
single-tensor formulas (with foreach=True, its multi-tensor code's single buffer)."""
import numpy as np

from ..ops.arithmetic import addcmul_arrays
from ..tensor import Tensor
from .optimizer import (Optimizer, _add_scaled, _check, _check_betas, _check_capturable, _check_differentiable,
                        _check_tensor_lr, _lerp, _new_step, _sqrt)

__all__ = ["RAdam"]


class RAdam(Optimizer):
    _GROUP_DEFAULTS = dict(foreach=None, maximize=False, differentiable=False, decoupled_weight_decay=False,
                           capturable=False)

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        _check_tensor_lr(lr)
        _check(0.0 <= lr, f"Invalid learning rate: {lr}")
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check_betas(betas)
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, p, group, state):
        data = p._data
        state["step"] = _new_step()
        state["exp_avg"] = Tensor._make(np.zeros_like(data))
        state["exp_avg_sq"] = Tensor._make(np.zeros_like(data))

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
        step = float(state["step"]._data)
        if wd != 0:
            if group["decoupled_weight_decay"]:
                _check_differentiable(p, group)
                data *= dtype(1 - lr * wd)
                p._version_counter[0] += 1
            else:
                grad = _add_scaled(grad, data, wd)
        exp_avg, exp_avg_sq = state["exp_avg"]._data, state["exp_avg_sq"]._data
        _lerp(exp_avg, grad, 1 - beta1)
        exp_avg_sq *= dtype(beta2)
        exp_avg_sq[...] = addcmul_arrays(exp_avg_sq, grad, grad, 1 - beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        rho_inf = 2 / (1 - beta2) - 1                       # the approximated SMA's maximum length
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if group["foreach"]:
            self._foreach_step(p, data, exp_avg, exp_avg_sq, group, step, rho_t, rho_inf)
            return
        bias_corrected_exp_avg = exp_avg / dtype(bias_correction1)
        update = bias_corrected_exp_avg * dtype(lr)
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            sqrt = _sqrt(exp_avg_sq)
            sqrt += dtype(eps)
            # (bias_correction2 ** 0.5) / sqrt: torch's float / Tensor is sqrt.reciprocal() * float
            adaptive_lr = (dtype(1) / sqrt) * dtype(bias_correction2 ** 0.5)
            update *= adaptive_lr
            update *= dtype(rect)
        _check_differentiable(p, group)
        data -= update                                      # param.add_(update, alpha=-1.0)

    @staticmethod
    def _foreach_step(p, data, exp_avg, exp_avg_sq, group, step, rho_t, rho_inf):
        """torch's multi-tensor code (foreach=True) folds both cases into one buffer:
        param += exp_avg * (1 / ((sqrt(v) + eps) / b) + u), with b = -sqrt(bias_correction2) * lr * rect /
        bias_correction1 and u = -lr / bias_correction1 when not rectified (rect = 0: 1 / (x / -0.0) is -0.0)."""
        dtype = data.dtype.type
        lr, (beta1, beta2), eps = float(group["lr"]), group["betas"], group["eps"]
        rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5 \
            if rho_t > 5 else 0
        unrectified = 0 if rect > 0 else 1.0
        bias_correction1 = 1 - beta1 ** step
        unrect_step_size = (lr * unrectified / bias_correction1) * -1
        scale = ((1 - beta2 ** step) ** 0.5) * (lr * rect / bias_correction1) * -1
        buffer = _sqrt(exp_avg_sq)
        buffer += dtype(eps)
        buffer /= dtype(scale)
        buffer = np.reciprocal(buffer)
        buffer += dtype(unrect_step_size)
        _check_differentiable(p, group)
        data[...] = addcmul_arrays(data, exp_avg, buffer, 1)    # param.addcmul_(exp_avg, buffer)
