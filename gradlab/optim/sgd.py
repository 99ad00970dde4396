"""SGD with momentum, dampening, Nesterov momentum and weight decay: torch's formulas, in numpy."""
import numpy as np

from ..tensor import Tensor
from .optimizer import Optimizer, _add_scaled, _check, _check_differentiable, _check_tensor_lr


class SGD(Optimizer):
    _GROUP_DEFAULTS = dict(nesterov=False, maximize=False, foreach=None, differentiable=False, fused=False)

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        _check_tensor_lr(lr)
        # (torch's comparisons, written as torch writes them: the same TypeError for lr='a')
        _check(not lr < 0.0, f"Invalid learning rate: {lr}")
        _check(not momentum < 0.0, f"Invalid momentum value: {momentum}")
        _check(not weight_decay < 0.0, f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay, nesterov=nesterov,
                        maximize=maximize, foreach=foreach, differentiable=differentiable, fused=fused)
        _check(not nesterov or (momentum > 0 and dampening == 0),
               "Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    _COMPLEX_AS_REAL = False        # (torch's SGD steps complex numbers as they are)

    def _keeps_state(self, group):
        return group["momentum"] != 0      # (torch's SGD touches self.state only for its momentum buffer)

    def _update(self, p, grad, group, state):
        # torch: d_p = grad (+ wd * p); buf = momentum * buf + (1 - dampening) * d_p (buf = d_p at the
        # first step); d_p = d_p + momentum * buf (nesterov) or buf; p -= lr * d_p
        dtype = p._data.dtype.type   # scalars in the parameter's precision, as torch does
        if group["maximize"]:
            grad = -grad
        wd = group["weight_decay"]
        if wd != 0:
            grad = _add_scaled(grad, p._data, wd)             # grad.add(p, alpha=wd): one rounding
        momentum = group["momentum"]
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                _check_differentiable(p, group)      # (torch stores the buffer after the step)
                buf = state["momentum_buffer"] = Tensor._make(np.array(grad, copy=True))
            else:
                b = buf._data
                b *= dtype(momentum)
                dampening = group["dampening"]
                b[...] = b + grad if dampening == 0 else _add_scaled(b, grad, 1 - dampening)
            grad = _add_scaled(grad, buf._data, momentum) if group["nesterov"] else buf._data
        _check_differentiable(p, group)
        p._data[...] = _add_scaled(p._data, grad, -group["lr"])    # p.add_(d_p, alpha=-lr): one fused rounding
