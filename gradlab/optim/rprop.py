"""Rprop: per-element step sizes grown by etaplus while the gradient keeps its sign and shrunk by etaminus
when it flips (then that element's step is skipped); only the gradient's sign is used. torch's
single-tensor formulas."""
import numpy as np

from ..tensor import Tensor
from .optimizer import Optimizer, _check, _check_capturable, _check_differentiable, _check_tensor_lr, _new_step

__all__ = ["Rprop"]


class Rprop(Optimizer):
    _GROUP_DEFAULTS = dict(foreach=None, maximize=False, differentiable=False, capturable=False)

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        _check_tensor_lr(lr)
        _check(0.0 <= lr, f"Invalid learning rate: {lr}")
        _check(0.0 < etas[0] < 1.0 < etas[1], f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, p, group, state):
        data = p._data
        state["step"] = _new_step()
        state["prev"] = Tensor._make(np.zeros_like(data))
        lr = float(group["lr"])
        # (a complex parameter's real and imaginary parts are two numbers, each with its own step size)
        state["step_size"] = Tensor._make(np.full_like(data, complex(lr, lr) if data.dtype.kind == "c" else lr))

    def _update(self, p, grad, group, state):
        dtype = p._data.dtype.type
        data = p._data
        if not state:
            self._init_state(p, group, state)
        _check_capturable(group, foreach_xla=True)
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        if group["maximize"]:
            grad = -grad
        state["step"]._data += 1
        prev, step_size = state["prev"]._data, state["step_size"]._data
        sign = np.asarray(np.sign(grad * prev))                        # grad.mul(prev).sign(): the product in the dtype
        sign[sign > 0] = etaplus
        sign[sign < 0] = etaminus
        sign[sign == 0] = 1
        step_size *= sign                                   # step_size.mul_(sign).clamp_(min, max)
        np.clip(step_size, dtype(step_size_min), dtype(step_size_max), out=step_size)
        grad = np.array(grad, copy=True)
        grad[sign == dtype(etaminus)] = 0                   # a flipped sign: no step, and no flip next time
        _check_differentiable(p, group)
        data -= np.sign(grad) * step_size                   # param.addcmul_(grad.sign(), step_size, value=-1)
        prev[...] = grad
