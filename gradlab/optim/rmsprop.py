"""RMSprop: torch's single-tensor formulas (square average, centered, momentum), in numpy."""
import numpy as np

from ..ops.arithmetic import addcmul_arrays
from ..tensor import Tensor
from .optimizer import (Optimizer, _add_scaled, _check, _check_capturable, _check_differentiable, _check_tensor_lr,
                        _decay_before_view, _lerp, _new_step, _sqrt)

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    _GROUP_DEFAULTS = dict(momentum=0, centered=False, foreach=None, maximize=False, differentiable=False,
                           capturable=False)

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _check_tensor_lr(lr)
        _check(0.0 <= lr, f"Invalid learning rate: {lr}")
        _check(0.0 <= eps, f"Invalid epsilon value: {eps}")
        _check(0.0 <= momentum, f"Invalid momentum value: {momentum}")
        _check(0.0 <= weight_decay, f"Invalid weight_decay value: {weight_decay}")
        _check(0.0 <= alpha, f"Invalid alpha value: {alpha}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered, weight_decay=weight_decay,
                        capturable=capturable, foreach=foreach, maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, p, group, state):
        data = p._data
        state["step"] = _new_step()
        state["square_avg"] = Tensor._make(np.zeros_like(data))
        if group["momentum"] > 0:
            state["momentum_buffer"] = Tensor._make(np.zeros_like(data))
        if group["centered"]:
            state["grad_avg"] = Tensor._make(np.zeros_like(data))

    def _update(self, p, grad, group, state):
        dtype = p._data.dtype.type
        data = p._data
        if not state:
            self._init_state(p, group, state)
        _check_capturable(group, foreach_xla=True)
        lr, alpha, eps, wd, momentum = (float(group["lr"]), group["alpha"], group["eps"], group["weight_decay"],
                                        group["momentum"])
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        if wd != 0:
            grad = _decay_before_view(p, grad, wd)                   # grad.add(param, alpha=weight_decay)
        square_avg = state["square_avg"]._data
        square_avg *= dtype(alpha)                          # square_avg.mul_(alpha).addcmul_(grad, grad, 1 - alpha)
        square_avg[...] = addcmul_arrays(square_avg, grad, grad, 1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]._data
            _lerp(grad_avg, grad, 1 - alpha)
            avg = _sqrt(addcmul_arrays(square_avg, grad_avg, grad_avg, -1))  # square_avg.addcmul(.., value=-1)
        else:
            avg = _sqrt(square_avg)
        avg += dtype(eps)
        if momentum > 0:
            buf = state["momentum_buffer"]._data
            buf *= dtype(momentum)                          # buf.mul_(momentum).addcdiv_(grad, avg)
            buf += grad / avg
            _check_differentiable(p, group)
            data[...] = _add_scaled(data, buf, -lr)    # param.add_(buf, alpha=-lr): one rounding
        else:
            _check_differentiable(p, group)
            data -= dtype(lr) * grad / avg                  # param.addcdiv_(grad, avg, value=-lr)
