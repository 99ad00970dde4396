"""ASGD: SGD with a decaying step eta_t and a running average 'ax' of the parameters (averaging
starts after t0 steps); torch's single-tensor formulas (with foreach=True, its multi-tensor code's
other computation)."""
import numpy as np

from .. import _dtype
from ..ops.arithmetic import addcmul_arrays
from ..tensor import Tensor
from .optimizer import (Optimizer, _add_scaled, _check, _check_capturable, _check_differentiable, _check_tensor_lr,
                        _new_step)

__all__ = ["ASGD"]


class ASGD(Optimizer):
    _GROUP_DEFAULTS = dict(foreach=None, maximize=False, differentiable=False, capturable=False)

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        _check_tensor_lr(lr)
        _check(0.0 <= lr, f"Invalid learning rate: {lr}")
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, p, group, state):
        data = p._data
        state["step"] = _new_step()
        scalar = state["step"]._data.dtype.type        # (eta and mu: 0-d tensors in the step's dtype)
        state["eta"] = Tensor._make(np.array(float(group["lr"]), scalar))
        state["mu"] = Tensor._make(np.ones((), scalar))
        state["ax"] = Tensor._make(np.zeros_like(data))

    def _update(self, p, grad, group, state):
        dtype = p._data.dtype.type
        data = p._data
        if not state:
            self._init_state(p, group, state)
        _check_capturable(group, "params, mus, etas, and state_steps")
        lr, lambd, alpha, t0 = float(group["lr"]), group["lambd"], group["alpha"], group["t0"]
        wd = group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        if wd != 0:
            grad = _add_scaled(grad, data, wd)
        eta, mu, ax = state["eta"]._data, state["mu"]._data, state["ax"]._data
        if group["foreach"]:
            # torch's multi-tensor code (foreach=True) orders it otherwise, with other roundings:
            # param.addcmul_(grad + lambd * param, eta, value=-1), then ax.addcmul_(param - ax, mu), always
            decayed = _add_scaled(grad, data, lambd)
            data[...] = addcmul_arrays(data, decayed, eta.astype(data.dtype), -1)
            ax[...] = addcmul_arrays(ax, data - ax, mu.astype(data.dtype), 1)
        else:
            eta_value = float(eta)
            _check_differentiable(p, group)
            data *= dtype(1 - lambd * eta_value)                # param.mul_(1 - lambd * eta): the decay
            data[...] = _add_scaled(data, grad, -eta_value)     # param.add_(grad, alpha=-eta): one rounding
            p._version_counter[0] += 1
            if float(mu) != 1:
                diff = data - ax                                # ax.add_(param.sub(ax).mul_(mu))
                diff *= dtype(float(mu))
                ax += diff
            else:
                ax[...] = data
        step = float(state["step"]._data)
        # torch.as_tensor(a float) in the default dtype, then copied in: a float64 eta (a state loaded for a
        # float64 parameter) still holds the float32-rounded value
        default = _dtype.default_np()
        if group["foreach"]:
            # (the multi-tensor code computes eta with the step tensor itself, in its dtype:
            # lr / (1 + lambd * lr * step) ** alpha as tensor operations, the division as reciprocal * lr)
            sd = state["step"]._data.dtype.type
            base = sd(1) + sd(lambd * lr) * sd(step)
            # (ATen's pow by a Python float: std::pow(base, double exponent), in double, then rounded)
            power = sd(np.power(np.float64(base), np.float64(alpha)))
            eta[...] = (sd(1) / power) * sd(lr)
        else:
            eta[...] = np.asarray(lr / ((1 + lambd * lr * step) ** alpha), default)
        mu[...] = np.asarray(1 / max(1, step - t0), default)
