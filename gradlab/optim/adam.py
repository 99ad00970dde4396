"""Adam and AdamW: torch's single-tensor formulas (bias corrections, eps placement), in numpy."""
import math

import numpy as np

from ..ops.arithmetic import addcmul_arrays
from ..tensor import Tensor
from .optimizer import (Optimizer, _check, _check_capturable, _check_differentiable, _check_tensor_lr,
                        _decay_before_view, _lerp, _new_step, _sqrt)


class Adam(Optimizer):
    _GROUP_DEFAULTS = dict(amsgrad=False, maximize=False, foreach=None, capturable=False, differentiable=False,
                           decoupled_weight_decay=False, fused=None)

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        _check_tensor_lr(lr)
        _check(0.0 <= lr, f"Invalid learning rate: {lr}")
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check(0.0 <= betas[0] < 1.0, f"Invalid beta parameter at index 0: {betas[0]}")
        _check(0.0 <= betas[1] < 1.0, f"Invalid beta parameter at index 1: {betas[1]}")
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        _check((isinstance(betas[0], float) and isinstance(betas[1], float))
               or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor)),
               "betas must be either both floats or both Tensors")
        betas = tuple(float(b) if isinstance(b, Tensor) else b for b in betas)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _init_state(self, p, group, state):
        data = p._data
        state["step"] = _new_step()
        state["exp_avg"] = Tensor._make(np.zeros_like(data))
        state["exp_avg_sq"] = Tensor._make(np.zeros_like(data))
        if group["amsgrad"]:
            state["max_exp_avg_sq"] = Tensor._make(np.zeros_like(data))

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
            if group["decoupled_weight_decay"]:     # AdamW: shrink the weights, not the gradient
                _check_differentiable(p, group)
                data *= dtype(1 - lr * wd)
                p._version_counter[0] += 1          # (torch's param.mul_: one more in-place op on p)
            else:
                grad = _decay_before_view(p, grad, wd)        # grad.add(param, alpha=weight_decay): one rounding
        step = float(state["step"]._data)
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        _lerp(m, grad, 1 - beta1)                     # exp_avg.lerp_(grad, 1 - beta1)
        v *= dtype(beta2)                             # exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2)
        v[...] = addcmul_arrays(v, grad, grad, 1 - beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        step_size = lr / bias_correction1
        bias_correction2_sqrt = math.sqrt(bias_correction2)
        if group["amsgrad"]:
            vmax = state["max_exp_avg_sq"]._data
            np.maximum(vmax, v, out=vmax)
            v = vmax
        denom = _sqrt(v)
        denom /= dtype(bias_correction2_sqrt)
        denom += dtype(eps)
        _check_differentiable(p, group)
        data -= dtype(step_size) * m / denom        # param.addcdiv_(exp_avg, denom, value=-step_size)


class AdamW(Adam):
    _GROUP_DEFAULTS = dict(Adam._GROUP_DEFAULTS, decoupled_weight_decay=True)

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def load_state_dict(self, state_dict):
        super().load_state_dict(state_dict)
        for group in self.param_groups:    # torch's AdamW.__setstate__: always decoupled, even for an Adam state
            group["decoupled_weight_decay"] = True
