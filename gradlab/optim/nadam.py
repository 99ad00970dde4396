"""NAdam: Adam with Nesterov momentum (Dozat's momentum schedule mu_t); torch's single-tensor formulas (with
foreach=True, its multi-tensor code's denominator)."""
import numpy as np

from ..ops.arithmetic import addcmul_arrays
from ..tensor import Tensor
from .optimizer import (Optimizer, _add_scaled, _addcdiv, _check, _check_betas, _check_capturable,
                        _check_differentiable, _check_tensor_lr, _lerp, _new_step, _sqrt)

__all__ = ["NAdam"]


class NAdam(Optimizer):
    _GROUP_DEFAULTS = dict(maximize=False, foreach=None, capturable=False, differentiable=False,
                           decoupled_weight_decay=False)

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check_tensor_lr(lr)
        _check(0.0 <= lr, f"Invalid learning rate: {lr}")
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check_betas(betas)
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        _check(0.0 <= momentum_decay, f"Invalid momentum_decay value: {momentum_decay}")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, p, group, state):
        data = p._data
        state["step"] = _new_step()
        # the running product of the mu_t: a 0-d tensor in the step counter's dtype, as in torch
        state["mu_product"] = Tensor._make(np.ones((), state["step"]._data.dtype))
        state["exp_avg"] = Tensor._make(np.zeros_like(data))
        state["exp_avg_sq"] = Tensor._make(np.zeros_like(data))

    def _update(self, p, grad, group, state):
        dtype = p._data.dtype.type
        data = p._data
        if not state:
            self._init_state(p, group, state)
        _check_capturable(group, "params, mu_products and state_steps", "params, mu_products, and state_steps")
        lr, (beta1, beta2), eps, wd = float(group["lr"]), group["betas"], group["eps"], group["weight_decay"]
        momentum_decay = group["momentum_decay"]
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        step = float(state["step"]._data)
        bias_correction2 = 1 - beta2 ** step
        if wd != 0:
            if group["decoupled_weight_decay"]:
                _check_differentiable(p, group)
                data *= dtype(1 - lr * wd)                  # param.mul_(1 - lr * weight_decay)
                p._version_counter[0] += 1
            else:
                grad = _add_scaled(grad, data, wd)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * momentum_decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * momentum_decay)))
        mu_product = state["mu_product"]._data
        mu_product *= mu_product.dtype.type(mu)             # mu_product *= mu (in the 0-d tensor's dtype)
        exp_avg, exp_avg_sq = state["exp_avg"]._data, state["exp_avg_sq"]._data
        _lerp(exp_avg, grad, 1 - beta1)
        exp_avg_sq *= dtype(beta2)                          # exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2)
        exp_avg_sq[...] = addcmul_arrays(exp_avg_sq, grad, grad, 1 - beta2)
        if group["foreach"]:        # (torch's multi-tensor code: sqrt first, then divided by sqrt(bias_correction2))
            denom = _sqrt(exp_avg_sq)
            denom /= dtype(bias_correction2 ** 0.5)
        else:
            denom = _sqrt(exp_avg_sq / dtype(bias_correction2))   # exp_avg_sq.div(bias_correction2).sqrt()
        denom += dtype(eps)
        product = float(mu_product)
        product_next = product * mu_next
        _check_differentiable(p, group)
        _addcdiv(data, grad, denom, -lr * (1.0 - mu) / (1.0 - product))
        _addcdiv(data, exp_avg, denom, (-lr * mu_next) / (1.0 - product_next))
        p._version_counter[0] += 1                          # (two in-place ops on the parameter)
